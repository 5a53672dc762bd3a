//! A provider's TLS material: PEM parsing, the client-certificate/key match, certificate
//! summaries for the admin API, and the rustls configuration a [`super::PspClient`] speaks.

use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Why TLS material was refused. Messages describe the material, never its content.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TlsError {
    #[error("not PEM certificates: {0}")]
    Certificates(String),
    #[error("not a PEM private key (PKCS#8, PKCS#1 or SEC1): {0}")]
    Key(String),
    #[error("the private key does not belong to the client certificate")]
    KeyMismatch,
    #[error("TLS configuration: {0}")]
    Config(String),
}

/// Every certificate of a PEM text; at least one, and nothing but certificates and
/// whitespace around them.
pub fn certificates(pem: &str) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let certs = CertificateDer::pem_slice_iter(pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError::Certificates(e.to_string()))?;
    if certs.is_empty() {
        return Err(TlsError::Certificates("no certificate found".into()));
    }
    // The PEM reader skips text it does not understand; a bundle with a typo in one block
    // would silently lose that certificate, so every BEGIN must have given one.
    if pem.matches("-----BEGIN ").count() != certs.len() {
        return Err(TlsError::Certificates(
            "a PEM block is not a certificate".into(),
        ));
    }
    for cert in &certs {
        x509_parser::parse_x509_certificate(cert)
            .map_err(|e| TlsError::Certificates(format!("unreadable certificate: {e}")))?;
    }
    Ok(certs)
}

/// The one private key of a PEM text.
pub fn private_key(pem: &str) -> Result<PrivateKeyDer<'static>, TlsError> {
    // The parse error of this crate never quotes the input, so it is safe to show.
    let key =
        PrivateKeyDer::from_pem_slice(pem.as_bytes()).map_err(|e| TlsError::Key(e.to_string()))?;
    if pem.matches("-----BEGIN ").count() != 1 {
        return Err(TlsError::Key("expected exactly one PEM block".into()));
    }
    Ok(key)
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Checks that `key` is usable with ring and is the key of the first certificate.
pub fn check_identity(
    certs: &[CertificateDer<'static>],
    key: &PrivateKeyDer<'static>,
) -> Result<(), TlsError> {
    match rustls::sign::CertifiedKey::from_der(certs.to_vec(), key.clone_key(), &provider()) {
        Ok(_) => Ok(()),
        Err(rustls::Error::InconsistentKeys(_)) => Err(TlsError::KeyMismatch),
        Err(e) => Err(TlsError::Key(e.to_string())),
    }
}

/// What the admin API shows of a certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertSummary {
    pub subject: String,
    pub issuer: String,
    /// Unix milliseconds.
    pub not_after_ms: i64,
}

pub fn summary(cert: &CertificateDer<'_>) -> Option<CertSummary> {
    let (_, parsed) = x509_parser::parse_x509_certificate(cert).ok()?;
    Some(CertSummary {
        subject: parsed.subject().to_string(),
        issuer: parsed.issuer().to_string(),
        not_after_ms: parsed.validity().not_after.timestamp().saturating_mul(1000),
    })
}

/// The client's TLS: Mozilla's roots plus the provider's CA, TLS 1.2 and 1.3 with ring,
/// and the client certificate when there is one (mTLS).
pub fn client_config(
    extra_roots: &[CertificateDer<'static>],
    identity: Option<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)>,
) -> Result<rustls::ClientConfig, TlsError> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    for cert in extra_roots {
        roots
            .add(cert.clone())
            .map_err(|e| TlsError::Certificates(e.to_string()))?;
    }
    let builder = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Config(e.to_string()))?
        .with_root_certificates(roots);
    let mut config = match identity {
        Some((certs, key)) => builder
            .with_client_auth_cert(certs, key)
            .map_err(|e| match e {
                rustls::Error::InconsistentKeys(_) => TlsError::KeyMismatch,
                other => TlsError::Key(other.to_string()),
            })?,
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A CA and a client certificate it signed, as PEM, for the tests of this crate.
    pub(crate) struct TestPki {
        pub ca_pem: String,
        pub client_cert_pem: String,
        pub client_key_pem: String,
        pub other_key_pem: String,
    }

    pub(crate) fn test_pki() -> TestPki {
        use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
        let ca_key = KeyPair::generate().unwrap();
        let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(DnType::CommonName, "pixgate test CA");
        let ca_cert = ca.self_signed(&ca_key).unwrap();
        let issuer = rcgen::Issuer::new(ca, ca_key);
        let client_key = KeyPair::generate().unwrap();
        let mut client = CertificateParams::new(Vec::<String>::new()).unwrap();
        client
            .distinguished_name
            .push(DnType::CommonName, "pixgate client");
        let client_cert = client.signed_by(&client_key, &issuer).unwrap();
        TestPki {
            ca_pem: ca_cert.pem(),
            client_cert_pem: client_cert.pem(),
            client_key_pem: client_key.serialize_pem(),
            other_key_pem: KeyPair::generate().unwrap().serialize_pem(),
        }
    }

    #[test]
    fn pem_material_is_parsed_and_matched() {
        let pki = test_pki();
        let ca = certificates(&pki.ca_pem).unwrap();
        let bundle = certificates(&format!("{}\n{}", pki.ca_pem, pki.client_cert_pem)).unwrap();
        assert_eq!(bundle.len(), 2);
        let certs = certificates(&pki.client_cert_pem).unwrap();
        let key = private_key(&pki.client_key_pem).unwrap();
        check_identity(&certs, &key).unwrap();
        let other = private_key(&pki.other_key_pem).unwrap();
        assert_eq!(check_identity(&certs, &other), Err(TlsError::KeyMismatch));
        assert!(client_config(&ca, Some((certs.clone(), key))).is_ok());
        assert!(matches!(
            client_config(&ca, Some((certs, other))),
            Err(TlsError::KeyMismatch)
        ));
        let s = summary(&ca[0]).unwrap();
        assert_eq!(s.subject, "CN=pixgate test CA");
        assert!(s.not_after_ms > 0);
    }

    #[test]
    fn anything_else_is_refused() {
        let pki = test_pki();
        for bad in [
            "",
            "hello",
            "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
            &pki.client_key_pem,
            &format!("{}-----BEGIN CERTIFICATE-----\nbroken", pki.ca_pem),
        ] {
            assert!(
                matches!(certificates(bad), Err(TlsError::Certificates(_))),
                "{bad:?}"
            );
        }
        for bad in [
            "",
            "hello",
            &pki.ca_pem,
            &format!("{}{}", pki.client_key_pem, pki.other_key_pem),
        ] {
            assert!(matches!(private_key(bad), Err(TlsError::Key(_))), "{bad:?}");
        }
        // An error never quotes the material.
        let e = private_key("-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----\n");
        if let Err(e) = e {
            assert!(!e.to_string().contains("c2VjcmV0"), "{e}");
        }
    }
}
