//! Egress safety for webhook delivery: a merchant-supplied URL must not reach the service's
//! own network. The host resolves names itself and hands the connector only addresses that
//! pass [`blocked_class`] (or sit in `PIXGATE_WEBHOOK_ALLOW_CIDRS`), so what is checked is
//! exactly what is connected to: a name cannot re-resolve to loopback between check and
//! connect. Literal IP hosts never reach a resolver and are checked before sending.
//!
//! The client speaks https only, ignores proxy variables, follows no redirects, retries
//! nothing on its own, and trusts the Mozilla roots plus `PIXGATE_WEBHOOK_CA_FILE`.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use ipnet::IpNet;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::SettingsError;

/// Why an address may not be connected to, or `None` for a public unicast address.
pub fn blocked_class(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => blocked_v4(v4),
        IpAddr::V6(v6) => blocked_v6(v6),
    }
}

fn blocked_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        (0, ..) => "unspecified",
        (127, ..) => "loopback",
        (10, ..) | (172, 16..=31, _) | (192, 168, _) => "private",
        (100, 64..=127, _) => "cgnat",
        (169, 254, _) => "link_local",
        (224..=239, ..) => "multicast",
        (255, 255, 255) if ip.is_broadcast() => "broadcast",
        (240..=255, ..) => "reserved",
        // IETF protocol assignments, benchmarking and documentation ranges, and the former 6to4
        // relay anycast (RFC 7526): never a receiver.
        (192, 0, 0)
        | (198, 18..=19, _)
        | (192, 0, 2)
        | (198, 51, 100)
        | (203, 0, 113)
        | (192, 88, 99) => "reserved",
        _ => return None,
    })
}

fn blocked_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    if ip.is_unspecified() {
        return Some("unspecified");
    }
    if ip.is_loopback() {
        return Some("loopback");
    }
    if ip.to_ipv4_mapped().is_some() {
        return Some("ipv4_mapped");
    }
    Some(match s[0] {
        // ::/96, the deprecated IPv4-compatible form, and the rest of ::/8.
        0 => "reserved",
        0xfe80..=0xfebf => "link_local",
        0xfec0..=0xfeff => "site_local",
        0xfc00..=0xfdff => "unique_local",
        0xff00..=0xffff => "multicast",
        0x2001 if s[1] == 0x0db8 => "reserved",
        0x0100 if s[1..4] == [0, 0, 0] => "reserved",
        // The well-known NAT64 prefix 64:ff9b::/96 and 6to4 carry an IPv4 address: judge that
        // one.
        0x0064 if s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] => {
            let v4 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
            return blocked_v4(v4);
        }
        // The rest of 64:ff9b::/32, e.g. the local-use 64:ff9b:1::/48 (RFC 8215): a private
        // translator's, whose addresses say nothing about where they lead.
        0x0064 if s[1] == 0xff9b => "reserved",
        0x2002 => {
            let v4 = Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8);
            return blocked_v4(v4);
        }
        _ => return None,
    })
}

/// `PIXGATE_WEBHOOK_ALLOW_CIDRS`: networks exempt from the block.
#[derive(Debug, Clone, Default)]
pub struct AllowList(Vec<IpNet>);

impl AllowList {
    pub fn parse(text: &str) -> Result<Self, SettingsError> {
        text.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<IpNet>()
                    .or_else(|_| s.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| SettingsError::Cidr(s.to_owned()))
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }

    pub fn allows(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// `Err` with the reason when `ip` may not be connected to.
    pub fn check(&self, host: &str, ip: IpAddr) -> Result<(), Blocked> {
        match blocked_class(ip) {
            Some(class) if !self.allows(ip) => Err(Blocked {
                host: host.to_owned(),
                ip,
                class,
            }),
            _ => Ok(()),
        }
    }
}

/// A refused destination, with the address it resolved to: for the operator's log only.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{host} resolved to {ip}, a {class} address")]
pub struct Blocked {
    pub host: String,
    pub ip: IpAddr,
    pub class: &'static str,
}

/// Why a target may not be delivered to. Merchants see [`TARGET_REFUSED`] for the first two,
/// whatever the reason (see `deliver::refused`).
#[derive(Debug, Clone, thiserror::Error)]
pub enum Refused {
    #[error(transparent)]
    Blocked(#[from] Blocked),
    #[error("{host} did not resolve: {reason}")]
    Unresolved { host: String, reason: String },
    /// Not about the address (a URL that is not https): shown as it is.
    #[error("{0}")]
    Other(String),
}

/// The attempt error of a refused or unresolvable target.
pub const TARGET_REFUSED: &str = "target_refused: the endpoint's host does not resolve to an \
                                  address that webhooks may be delivered to";

/// Resolves with the system resolver and keeps only the addresses that may be connected to.
#[derive(Debug, Clone)]
struct GuardedResolver {
    allow: Arc<AllowList>,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow = self.allow.clone();
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await
                .map_err(|e| Refused::Unresolved {
                    host: host.clone(),
                    reason: e.to_string(),
                })?
                .collect();
            let mut first_refusal = None;
            let usable: Vec<SocketAddr> = resolved
                .into_iter()
                .filter(|addr| match allow.check(&host, addr.ip()) {
                    Ok(()) => true,
                    Err(blocked) => {
                        first_refusal.get_or_insert(blocked);
                        false
                    }
                })
                .collect();
            match (usable.is_empty(), first_refusal) {
                (true, Some(blocked)) => Err(Box::new(Refused::Blocked(blocked)) as _),
                (true, None) => Err(Box::new(Refused::Unresolved {
                    host,
                    reason: "no address".into(),
                }) as _),
                (false, _) => Ok(Box::new(usable.into_iter()) as Addrs),
            }
        })
    }
}

/// The webhook HTTP client and the allow list it enforces.
#[derive(Debug, Clone)]
pub struct Egress {
    pub client: reqwest::Client,
    allow: Arc<AllowList>,
}

impl Egress {
    pub fn new(
        allow: AllowList,
        ca_file: Option<&Path>,
        timeout: Duration,
        concurrency: usize,
    ) -> Result<Self, SettingsError> {
        let allow = Arc::new(allow);
        let client = reqwest::Client::builder()
            .tls_backend_preconfigured(tls_config(ca_file)?)
            .https_only(true)
            .dns_resolver(Arc::new(GuardedResolver {
                allow: allow.clone(),
            }))
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .retry(reqwest::retry::never())
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .pool_idle_timeout(Duration::from_secs(60))
            .pool_max_idle_per_host(concurrency)
            .tcp_nodelay(true)
            .user_agent(concat!("pixgate-webhooks/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| SettingsError::Tls(e.to_string()))?;
        Ok(Self { client, allow })
    }

    /// Checks a URL before sending: https, a port that can be connected to, and a literal IP
    /// host must pass the block (names are checked by the resolver as they are connected to).
    pub fn check_url(&self, url: &reqwest::Url) -> Result<(), Refused> {
        if url.scheme() != "https" {
            return Err(Refused::Other(
                "scheme_not_https: only https endpoints are delivered to".to_owned(),
            ));
        }
        // Creation refuses port 0 since issue 17; an endpoint stored before says why it fails.
        if url.port() == Some(0) {
            return Err(Refused::Other(
                "invalid_url: port 0 cannot be connected to".to_owned(),
            ));
        }
        let ip = match url.host() {
            Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
            Some(url::Host::Domain(_)) => return Ok(()),
            None => {
                return Err(Refused::Other(
                    "invalid_url: the URL has no host".to_owned(),
                ));
            }
        };
        Ok(self.allow.check(&ip.to_string(), ip)?)
    }
}

/// Mozilla's roots plus the PEM file's, TLS 1.2 and 1.3 with ring.
fn tls_config(ca_file: Option<&Path>) -> Result<rustls::ClientConfig, SettingsError> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;

    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = ca_file {
        let mut added = 0;
        for cert in CertificateDer::pem_file_iter(path)
            .map_err(|e| SettingsError::CaFile(format!("{}: {e}", path.display())))?
        {
            let cert =
                cert.map_err(|e| SettingsError::CaFile(format!("{}: {e}", path.display())))?;
            roots
                .add(cert)
                .map_err(|e| SettingsError::CaFile(format!("{}: {e}", path.display())))?;
            added += 1;
        }
        if added == 0 {
            return Err(SettingsError::CaFile(format!(
                "{}: no certificate in the file",
                path.display()
            )));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| SettingsError::Tls(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(s: &str) -> Option<&'static str> {
        blocked_class(s.parse().unwrap())
    }

    #[test]
    fn every_internal_class_is_named() {
        for (ip, expected) in [
            ("127.0.0.1", "loopback"),
            ("127.255.0.9", "loopback"),
            ("10.1.2.3", "private"),
            ("172.16.0.1", "private"),
            ("172.31.255.255", "private"),
            ("192.168.1.1", "private"),
            ("100.64.0.1", "cgnat"),
            ("100.127.255.254", "cgnat"),
            ("169.254.169.254", "link_local"),
            ("224.0.0.1", "multicast"),
            ("239.255.255.250", "multicast"),
            ("0.0.0.0", "unspecified"),
            ("0.1.2.3", "unspecified"),
            ("255.255.255.255", "broadcast"),
            ("240.0.0.1", "reserved"),
            ("198.18.0.1", "reserved"),
            ("::", "unspecified"),
            ("::1", "loopback"),
            ("fe80::1", "link_local"),
            ("fc00::1", "unique_local"),
            ("fd12:3456::1", "unique_local"),
            ("ff02::1", "multicast"),
            ("::ffff:127.0.0.1", "ipv4_mapped"),
            ("::ffff:8.8.8.8", "ipv4_mapped"),
            ("::127.0.0.1", "reserved"),
            ("64:ff9b::7f00:1", "loopback"),
            ("64:ff9b:1::808:808", "reserved"),
            ("64:ff9b:1:ffff::1", "reserved"),
            ("64:ff9b::1:808:808", "reserved"),
            ("192.88.99.1", "reserved"),
            ("2002:0a00:0001::1", "private"),
        ] {
            assert_eq!(class(ip), Some(expected), "{ip}");
        }
    }

    #[test]
    fn public_addresses_pass() {
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "192.169.0.1",
            "2800:3f0:4001:80b::200e",
            "64:ff9b::808:808",
        ] {
            assert_eq!(class(ip), None, "{ip}");
        }
    }

    #[test]
    fn the_allow_list_exempts_its_networks_only() {
        let allow = AllowList::parse(" 127.0.0.0/8, ::1 ,10.8.0.0/16").unwrap();
        assert!(allow.check("h", "127.0.0.1".parse().unwrap()).is_ok());
        assert!(allow.check("h", "::1".parse().unwrap()).is_ok());
        assert!(allow.check("h", "10.8.3.4".parse().unwrap()).is_ok());
        let refused = allow.check("h", "10.9.0.1".parse().unwrap()).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "h resolved to 10.9.0.1, a private address"
        );
        // The IPv4-mapped form of an allowed address is still refused.
        assert!(
            allow
                .check("h", "::ffff:127.0.0.1".parse().unwrap())
                .is_err()
        );
        assert!(AllowList::parse("").unwrap().0.is_empty());
        assert!(matches!(
            AllowList::parse("10.0.0.0/33"),
            Err(SettingsError::Cidr(_))
        ));
    }

    #[test]
    fn literal_hosts_are_checked_before_sending() {
        let egress = Egress::new(AllowList::default(), None, Duration::from_secs(1), 1).unwrap();
        let check = |u: &str| {
            egress
                .check_url(&reqwest::Url::parse(u).unwrap())
                .map_err(|e| e.to_string())
        };
        assert!(
            check("https://[::1]:8443/x")
                .unwrap_err()
                .contains("loopback")
        );
        // WHATWG parsing turns these spellings into 127.0.0.1 before the check sees them.
        assert!(check("https://127.1/").unwrap_err().contains("loopback"));
        assert!(
            check("https://2130706433/")
                .unwrap_err()
                .contains("loopback")
        );
        assert!(
            check("https://0x7f.0.0.1/")
                .unwrap_err()
                .contains("loopback")
        );
        assert!(
            check("http://example.com/")
                .unwrap_err()
                .starts_with("scheme_not_https")
        );
        assert!(
            check("https://example.com:0/hook")
                .unwrap_err()
                .starts_with("invalid_url")
        );
        assert!(check("https://example.com/hook").is_ok());
        assert!(check("https://8.8.8.8/hook").is_ok());
    }
}
