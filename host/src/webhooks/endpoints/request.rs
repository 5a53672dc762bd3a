//! The body of `POST /webhook-endpoints` as the API receives it ([`CreateEndpointRequest`], the
//! serde type the OpenAPI document is generated from) and as the service uses it
//! ([`NewEndpoint`], built only by [`CreateEndpointRequest::validate`]): the URL in its normal
//! form ([`EndpointUrl`]), the name checked, the events as [`EventType`]s.
//!
//! The route's refusals predate this type and keep their words, codes and order: an unknown
//! field, then `endpointUrl` (present, a string, then its rules), then `name`, then `events`.
//! So each field is read as [`Sent`], which never fails on a value's type, and
//! [`CreateEndpointRequest::validate`] judges them in that order; serde itself refuses only
//! an unknown field and an absent `endpointUrl`.

use std::borrow::Cow;
use std::sync::LazyLock;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa::openapi::schema::Type;
use utoipa::openapi::{ObjectBuilder, RefOr, Schema};

use super::super::EventType;
use pixgate_domain::json::{Invalid, bounded};

pub const URL_MAX_CHARS: usize = 2048;
pub const NAME_MAX_CHARS: usize = 120;

// Pieces of ENDPOINT_URL_PATTERN: macros, so that `concat!` can join them into one literal.
macro_rules! h16 {
    () => {
        "[0-9A-Fa-f]{1,4}"
    };
}
macro_rules! octet {
    () => {
        "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
    };
}
macro_rules! ipv4 {
    () => {
        concat!("(", octet!(), "[.]){3}", octet!())
    };
}
macro_rules! ls32 {
    () => {
        concat!("(", h16!(), ":", h16!(), "|", ipv4!(), ")")
    };
}
// The characters of a host name label as sent, hyphens aside: ASCII letters and digits, and
// the non-ASCII characters of the Basic Multilingual Plane, which IDNA maps (the UTF-16
// surrogates left out, so ECMA-262 engines without the `u` flag read the class alike).
macro_rules! non_ascii {
    () => {
        r"\u0080-\uD7FF\uE000-\uFFFF"
    };
}
macro_rules! label_chars {
    () => {
        concat!("A-Za-z0-9", non_ascii!())
    };
}

/// The shape of the endpoint URLs accepted, as sent: `https://` in any case, a host, an
/// optional port from 1 to 65535, then a path and a query of URL characters, anything else
/// percent-encoded (and `'` in the query). A host name is only shaped here (labels of letters,
/// digits and non-ASCII characters with hyphens inside, the last not starting with a digit,
/// so it is not read as an IPv4 address); whether it is a valid name is the IDNA rules'
/// call, which no pattern states ([`EndpointUrl::parse`] applies them with the `url` crate).
/// So the schema's pattern, this one repeated as a literal on [`CreateEndpointRequest`] (a
/// test of the document holds them together), refuses nothing the route accepts, and accepts
/// nothing it refuses except host names that IDNA refuses.
// One alternative of the IPv6 grammar per line.
#[rustfmt::skip]
pub const ENDPOINT_URL_PATTERN: &str = concat!(
    "^[Hh][Tt][Tt][Pp][Ss]://(",
    "([", label_chars!(), "]+(-+[", label_chars!(), "]+)*[.])*",
    "[A-Za-z", non_ascii!(), "][", label_chars!(), "]*(-+[", label_chars!(), "]+)*",
    "|", ipv4!(),
    // RFC 3986's IPv6address, in brackets.
    "|\\[(",
    "(", h16!(), ":){6}", ls32!(),
    "|::(", h16!(), ":){5}", ls32!(),
    "|(", h16!(), ")?::(", h16!(), ":){4}", ls32!(),
    "|((", h16!(), ":)?", h16!(), ")?::(", h16!(), ":){3}", ls32!(),
    "|((", h16!(), ":){0,2}", h16!(), ")?::(", h16!(), ":){2}", ls32!(),
    "|((", h16!(), ":){0,3}", h16!(), ")?::", h16!(), ":", ls32!(),
    "|((", h16!(), ":){0,4}", h16!(), ")?::", ls32!(),
    "|((", h16!(), ":){0,5}", h16!(), ")?::", h16!(),
    "|((", h16!(), ":){0,6}", h16!(), ")?::",
    ")\\])",
    // An optional port, 1 to 65535, without leading zeros (port 0 cannot be connected to).
    "(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?",
    "(/([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?",
    "([?]([A-Za-z0-9._~!$&()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$",
);

static ENDPOINT_URL: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(ENDPOINT_URL_PATTERN).expect("ENDPOINT_URL_PATTERN"));

/// DNS's limits on a name in ASCII (RFC 1035): a longer one can never resolve.
const HOST_MAX_CHARS: usize = 253;
const LABEL_MAX_CHARS: usize = 63;

/// Body of `POST /webhook-endpoints`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"name": "orders", "endpointUrl": "https://shop.example.com/webhooks/pixgate"}))]
pub struct CreateEndpointRequest {
    /// At most 120 characters, no control characters (null or absent: empty).
    #[schema(value_type = Option<String>, max_length = 120, pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$")]
    pub name: Option<Sent<String>>,
    /// `https://` (the scheme in any case); a host name, an IPv4 address or a bracketed IPv6
    /// address; an optional port from 1 to 65535; then a path and a query of URL characters:
    /// percent-encode any other (and `'` in the query). No credentials, no fragment. At most
    /// 2048 characters.
    ///
    /// A host name follows the IDNA rules (UTS #46, as WHATWG URL parsers apply them), which
    /// the pattern does not state: once in ASCII, its labels are letters, digits and hyphens,
    /// not starting or ending with a hyphen (`--` inside is fine, as in punycode's `xn--`
    /// labels, which must decode), at most 63 characters each and 253 in all, the last
    /// starting with a letter. A name in Unicode (`https://açaí.com.br/`) is accepted and
    /// stored in its ASCII form (`https://xn--aa-4iaz.com.br/`), the one deliveries are sent
    /// to; the response shows it.
    #[schema(
        value_type = String,
        max_length = 2048,
        pattern = r"^[Hh][Tt][Tt][Pp][Ss]://(([A-Za-z0-9\u0080-\uD7FF\uE000-\uFFFF]+(-+[A-Za-z0-9\u0080-\uD7FF\uE000-\uFFFF]+)*[.])*[A-Za-z\u0080-\uD7FF\uE000-\uFFFF][A-Za-z0-9\u0080-\uD7FF\uE000-\uFFFF]*(-+[A-Za-z0-9\u0080-\uD7FF\uE000-\uFFFF]+)*|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])|\[(([0-9A-Fa-f]{1,4}:){6}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|::([0-9A-Fa-f]{1,4}:){5}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|([0-9A-Fa-f]{1,4})?::([0-9A-Fa-f]{1,4}:){4}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:)?[0-9A-Fa-f]{1,4})?::([0-9A-Fa-f]{1,4}:){3}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:){0,2}[0-9A-Fa-f]{1,4})?::([0-9A-Fa-f]{1,4}:){2}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:){0,3}[0-9A-Fa-f]{1,4})?::[0-9A-Fa-f]{1,4}:([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:){0,4}[0-9A-Fa-f]{1,4})?::([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:){0,5}[0-9A-Fa-f]{1,4})?::[0-9A-Fa-f]{1,4}|(([0-9A-Fa-f]{1,4}:){0,6}[0-9A-Fa-f]{1,4})?::)\])(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(/([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?([?]([A-Za-z0-9._~!$&()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$"
    )]
    pub endpoint_url: Sent<String>,
    /// Payment events to receive, repeats ignored (null or absent: all four).
    #[schema(value_type = Option<Vec<PaymentEvent>>, min_items = 1)]
    pub events: Option<Sent<Vec<Sent<PaymentEvent>>>>,
}

/// A field's value as sent: `Read` when it has the field's type, `Other` (the JSON value)
/// when not. Reading one never fails, so the refusal of a value of the wrong type is left to
/// [`CreateEndpointRequest::validate`], in the route's words and order.
#[derive(Debug, Clone, PartialEq)]
pub enum Sent<T> {
    Read(T),
    Other(Value),
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Sent<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Ok(match T::deserialize(&value) {
            Ok(read) => Self::Read(read),
            Err(_) => Self::Other(value),
        })
    }
}

/// An event an endpoint may subscribe to, by its name: one of [`EventType::SUBSCRIBABLE`]
/// (`webhook.test` is sent on request, never subscribed to). Its schema is named `EventType`,
/// the names listed from [`EventType::SUBSCRIBABLE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaymentEvent(EventType);

impl<'de> Deserialize<'de> for PaymentEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = Cow::<str>::deserialize(deserializer)?;
        EventType::subscribable(&name).map(Self).ok_or_else(|| {
            serde::de::Error::custom(format!("`{name}` is not a payment or refund event"))
        })
    }
}

impl utoipa::PartialSchema for PaymentEvent {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(EventType::SUBSCRIBABLE.map(EventType::as_str)))
            .into()
    }
}

impl ToSchema for PaymentEvent {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("EventType")
    }
}

/// An endpoint's URL in its normal form: an absolute https URL with a host, without
/// credentials or fragment, lower-case scheme and host, a Unicode host name in its ASCII
/// form, no default port. Duplicates are judged on it, and deliveries are sent to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointUrl(String);

impl EndpointUrl {
    /// Checks `raw` against the route's rules and puts it in its normal form.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let invalid = |why: &str| {
            Invalid::new(
                "invalid_endpoint_url",
                "endpointUrl",
                format!("`endpointUrl` {why}"),
            )
        };
        if raw.chars().count() > URL_MAX_CHARS {
            return Err(invalid("must have at most 2048 characters"));
        }
        let url = url::Url::parse(raw).map_err(|e| invalid(&format!("is not a URL: {e}")))?;
        if url.scheme() != "https" {
            return Err(Invalid::new(
                "endpoint_url_not_https",
                "endpointUrl",
                "`endpointUrl` must be an https:// URL",
            ));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(invalid("must not carry credentials"));
        }
        if url.fragment().is_some() {
            return Err(invalid("must not have a fragment"));
        }
        if url.port() == Some(0) {
            return Err(invalid("must not have port 0"));
        }
        if !ENDPOINT_URL.is_match(raw) {
            return Err(invalid(
                "must be https:// with a host name, an IP address, an optional port from 1 to \
                 65535, and a path and query of URL characters (percent-encode the others)",
            ));
        }
        // The pattern shaped the host; the URL parser judged it by IDNA (an `xn--` label that
        // does not decode, a character IDNA refuses) and put a name in ASCII. What is left is
        // what a name must be to resolve, and that a name stays a name.
        match url.host() {
            Some(url::Host::Domain(name)) => {
                check_host_name(name).map_err(|why| invalid(&format!("has a host name {why}")))?
            }
            Some(url::Host::Ipv4(ip)) => {
                // IDNA maps some names to an address (full-width digits): only an address
                // written as one is taken for one. The pattern guarantees the 8 bytes of
                // `https://`.
                let written = raw[8..]
                    .strip_prefix(ip.to_string().as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with([':', '/', '?']));
                if !written {
                    return Err(invalid("has a host name that stands for an IP address"));
                }
            }
            Some(url::Host::Ipv6(_)) => {}
            None => return Err(invalid("must have a host")),
        }
        Ok(Self(url.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A host name in ASCII, as the URL parser leaves it (lower case, IDNA applied): labels of
/// letters, digits and hyphens, not first or last, within DNS's lengths; the last starts with
/// a letter (a top-level domain never starts with a digit).
fn check_host_name(name: &str) -> Result<(), String> {
    if name.len() > HOST_MAX_CHARS {
        return Err(format!(
            "of {} characters in ASCII; the most is {HOST_MAX_CHARS}",
            name.len()
        ));
    }
    for label in name.split('.') {
        if label.is_empty() || label.len() > LABEL_MAX_CHARS {
            return Err(format!(
                "with a label of {} characters in ASCII; each must have 1 to {LABEL_MAX_CHARS}",
                label.len()
            ));
        }
        if !label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            || label.starts_with('-')
            || label.ends_with('-')
        {
            return Err(format!(
                "with the label `{label}`; labels are letters, digits and hyphens, not first \
                 or last"
            ));
        }
    }
    if !name
        .rsplit('.')
        .next()
        .is_some_and(|tld| tld.starts_with(|c: char| c.is_ascii_alphabetic()))
    {
        return Err("whose last label does not start with a letter".to_owned());
    }
    Ok(())
}

/// A new endpoint after validation: every field known good.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEndpoint {
    pub name: String,
    pub url: EndpointUrl,
    /// Payment events only, each once, in the order first sent.
    pub events: Vec<EventType>,
}

impl CreateEndpointRequest {
    /// The request's rules, in the route's order: `endpointUrl`, `name`, `events`.
    pub fn validate(self) -> Result<NewEndpoint, Invalid> {
        let url = match self.endpoint_url {
            Sent::Read(url) => EndpointUrl::parse(&url)?,
            Sent::Other(Value::Null) => {
                return Err(Invalid::new(
                    "missing_field",
                    "endpointUrl",
                    "`endpointUrl` is required",
                ));
            }
            Sent::Other(_) => return Err(not_a_string("endpointUrl")),
        };
        let name = match self.name {
            None => String::new(),
            Some(Sent::Read(name)) => bounded(&name, "name", "invalid_name", 0, NAME_MAX_CHARS)?,
            // `null` reads as `None`: anything else is not a string.
            Some(Sent::Other(_)) => return Err(not_a_string("name")),
        };
        Ok(NewEndpoint {
            name,
            url,
            events: events(self.events)?,
        })
    }
}

fn not_a_string(field: &str) -> Invalid {
    Invalid::new(
        "invalid_field",
        field,
        format!("`{field}` must be a string"),
    )
}

/// The subscribed events: the four payment events when none are named (refund events are
/// named to be had).
fn events(sent: Option<Sent<Vec<Sent<PaymentEvent>>>>) -> Result<Vec<EventType>, Invalid> {
    let invalid = |message: String| Invalid::new("invalid_events", "events", message);
    let list = match sent {
        None => return Ok(EventType::PAYMENT.to_vec()),
        Some(Sent::Read(list)) => list,
        Some(Sent::Other(_)) => {
            return Err(invalid("`events` must be an array of event names".into()));
        }
    };
    if list.is_empty() {
        return Err(invalid("`events` must name at least one event".into()));
    }
    let mut events = Vec::new();
    for item in list {
        match item {
            Sent::Read(PaymentEvent(event)) => {
                if !events.contains(&event) {
                    events.push(event);
                }
            }
            Sent::Other(item) => {
                return Err(invalid(format!(
                    "`events` may hold only {}; got {item}",
                    EventType::SUBSCRIBABLE.map(EventType::as_str).join(", ")
                )));
            }
        }
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(raw: &str) -> Result<String, Invalid> {
        EndpointUrl::parse(raw).map(|u| u.0)
    }

    #[test]
    fn urls_are_normalised_and_checked() {
        assert_eq!(
            parse("https://Shop.Example.COM:443/hooks/../pix?x=1").unwrap(),
            "https://shop.example.com/pix?x=1"
        );
        assert_eq!(
            parse("https://shop.example.com").unwrap(),
            "https://shop.example.com/"
        );
        let code = |u: &str| parse(u).unwrap_err().code;
        assert_eq!(code("http://shop.example.com/"), "endpoint_url_not_https");
        assert_eq!(code("ftp://shop.example.com/"), "endpoint_url_not_https");
        assert_eq!(code("shop.example.com/hook"), "invalid_endpoint_url");
        assert_eq!(
            code("https://user:pw@shop.example.com/"),
            "invalid_endpoint_url"
        );
        assert_eq!(
            code("https://shop.example.com/#frag"),
            "invalid_endpoint_url"
        );
        assert_eq!(code("https://"), "invalid_endpoint_url");
        assert_eq!(
            code(&format!("https://e.com/{}", "a".repeat(2048))),
            "invalid_endpoint_url"
        );
        // What would need percent-encoding, or could not be a host, is refused as sent.
        for refused in [
            " https://shop.example.com/",
            "https://shop.example.com/caf\u{e9}",
            "https://shop.example.com/a b",
            "https://shop.example.com/?q='x'",
            "https://shop.example.com/%zz",
            "https://1.2.3.999/",
            "https://shop.example.com:65536/",
            "https://[1:2]/",
            "https://[::1%25eth0]/",
            "https://shop.example.com./",
            "https://-shop.example.com/",
            "https://shop-.example.com/",
            "https://a..b.example/",
            "https://a_b.example/",
            "https://exa%6dple.com/",
            "https://127.1/",
            "https://shop.1b/",
        ] {
            assert_eq!(code(refused), "invalid_endpoint_url", "{refused}");
        }
    }

    /// Issue 17: punycode and `--` hosts, the scheme in any case, port 0.
    #[test]
    fn idna_host_names_are_judged_by_the_url_crate() {
        let ok = |u: &str| parse(u).unwrap_or_else(|e| panic!("{u}: {e}"));
        // açaí.com.br, in punycode or in Unicode (any case): stored in ASCII.
        for spelling in [
            "https://xn--aa-4iaz.com.br/",
            "https://XN--AA-4IAZ.com.br/",
            "https://a\u{e7}a\u{ed}.com.br/",
            "https://A\u{c7}A\u{cd}.COM.BR",
            "https://a\u{e7}a\u{ed}\u{3002}com.br/",
        ] {
            assert_eq!(ok(spelling), "https://xn--aa-4iaz.com.br/", "{spelling}");
        }
        assert_eq!(ok("https://a--b.example/"), "https://a--b.example/");
        assert_eq!(ok("https://ab--cd.example/x"), "https://ab--cd.example/x");
        assert_eq!(ok("https://loja.xn--p1ai/"), "https://loja.xn--p1ai/");
        assert_eq!(
            ok("HTTPS://Shop.Example.com:8443/Hook"),
            "https://shop.example.com:8443/Hook"
        );
        assert_eq!(ok("hTtPs://1.2.3.4/"), "https://1.2.3.4/");

        let refused = |u: &str| {
            let e = parse(u).unwrap_err();
            assert_eq!(e.code, "invalid_endpoint_url", "{u}");
            e.to_string()
        };
        // Labels that do not decode, or that decode to what IDNA refuses.
        refused("https://xn--zz.example/");
        refused("https://xn--.example/");
        refused("https://xn--a-ecp.example/");
        // Names that IDNA maps to what no name may be.
        refused("https://\u{ff0d}shop.example/");
        refused("https://\u{ff11}\u{ff12}\u{ff17}.\u{ff10}.\u{ff10}.\u{ff11}/");
        assert!(refused(&format!("https://{}.example/", "a".repeat(64))).contains("label"));
        assert!(refused(&format!("https://{}example/", "abcdefghi.".repeat(25))).contains("253"));
        // Outside the Basic Multilingual Plane: refused by the pattern.
        refused("https://\u{1f4a9}.la/");
        // Port 0, however written, cannot be connected to.
        assert!(refused("https://shop.example.com:0/").contains("port 0"));
        assert!(refused("https://shop.example.com:00/").contains("port 0"));
        refused("https://shop.example.com:0443/");
    }

    /// Every match of the pattern whose host IDNA accepts parses.
    #[test]
    fn what_the_pattern_matches_parses() {
        for url in [
            "https://a",
            "https://a1-b2.c-d.example:8443/p/a/t/h;x=1?q=1&r=/?:@%2F",
            "https://127.0.0.1:1/%41'()*+,;=:@!$&~._-",
            "https://255.255.255.255:65535",
            "https://0.0.0.0/../..",
            "https://A.EXAMPLE:443/x",
            "HTTPS://a.example",
            "https://a---b.example",
            "https://xn--aa-4iaz.com.br",
            "https://a\u{e7}a\u{ed}.com.br",
            "https://[::1]",
            "https://[::]:8443/",
            "https://[::ffff:127.0.0.1]/",
            "https://[1:2:3:4:5:6:7::]",
            "https://[1::3:4:5:6:1.2.3.4]/x",
            "https://[FE80:0000::0001]",
        ] {
            assert!(ENDPOINT_URL.is_match(url), "{url}");
            assert!(parse(url).is_ok(), "{url}");
        }
    }

    fn validate(body: Value) -> Result<NewEndpoint, Invalid> {
        pixgate_domain::json::from_json::<CreateEndpointRequest>(body, &[])?.validate()
    }

    #[test]
    fn events_default_to_all_four_and_reject_others() {
        let url = "https://a.example/";
        assert_eq!(
            validate(json!({"endpointUrl": url})).unwrap().events,
            EventType::PAYMENT
        );
        assert_eq!(
            validate(json!({"endpointUrl": url, "events": null}))
                .unwrap()
                .events,
            EventType::PAYMENT
        );
        assert_eq!(
            validate(json!({"endpointUrl": url, "events": ["payment.failed", "payment.failed"]}))
                .unwrap()
                .events,
            [EventType::PaymentFailed]
        );
        assert_eq!(
            validate(json!({"endpointUrl": url, "events": ["refund.succeeded", "refund.failed"]}))
                .unwrap()
                .events,
            [EventType::RefundSucceeded, EventType::RefundFailed]
        );
        let only = "`events` may hold only payment.pending, payment.succeeded, payment.failed, \
                    payment.canceled, refund.succeeded, refund.failed, mandate.authorized, \
                    mandate.rejected, mandate.expired, mandate.canceled, payment.attempt_failed; \
                    got";
        for (events, message) in [
            (
                json!([]),
                "`events` must name at least one event".to_owned(),
            ),
            (json!(["webhook.test"]), format!("{only} \"webhook.test\"")),
            (
                json!(["payment.failed", "payment.refunded"]),
                format!("{only} \"payment.refunded\""),
            ),
            (
                json!("payment.failed"),
                "`events` must be an array of event names".to_owned(),
            ),
            (json!([1]), format!("{only} 1")),
            (json!([{"a": null}]), format!("{only} {{\"a\":null}}")),
        ] {
            let e = validate(json!({"endpointUrl": url, "events": events})).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref(), e.message.as_str()),
                ("invalid_events", Some("events"), message.as_str()),
                "{events}"
            );
        }
    }

    /// The refusals the hand-written reading of the body gave, word for word, and in its
    /// order: an unknown field first, then `endpointUrl`, `name`, `events`.
    #[test]
    fn refusals_keep_the_routes_words_and_order() {
        for (body, code, field, message) in [
            (
                json!([]),
                "invalid_request",
                None,
                "the body must be a JSON object",
            ),
            (
                json!({}),
                "missing_field",
                Some("endpointUrl"),
                "`endpointUrl` is required",
            ),
            (
                json!({"endpointUrl": null}),
                "missing_field",
                Some("endpointUrl"),
                "`endpointUrl` is required",
            ),
            (
                json!({"endpointUrl": 5}),
                "invalid_field",
                Some("endpointUrl"),
                "`endpointUrl` must be a string",
            ),
            (
                json!({"endpointUrl": "https://a.example/", "name": ["x"]}),
                "invalid_field",
                Some("name"),
                "`name` must be a string",
            ),
            (
                json!({"endpointUrl": "https://a.example/", "name": "a\u{7}b"}),
                "invalid_name",
                Some("name"),
                "`name` must not contain control characters",
            ),
            (
                json!({"endpointUrl": "https://a.example/", "name": "n".repeat(121)}),
                "invalid_name",
                Some("name"),
                "`name` must have 0 to 120 characters",
            ),
            // An unknown field before anything else, wherever it is.
            (
                json!({"endpointUrl": 5, "zzz": 1}),
                "unknown_field",
                Some("zzz"),
                "unknown field `zzz`",
            ),
            (
                json!({"secret": "mine"}),
                "unknown_field",
                Some("secret"),
                "unknown field `secret`",
            ),
            // Then the URL, whatever follows.
            (
                json!({"endpointUrl": "http://a.example/", "name": 5, "events": []}),
                "endpoint_url_not_https",
                Some("endpointUrl"),
                "`endpointUrl` must be an https:// URL",
            ),
            (
                json!({"endpointUrl": "https://a.example/", "name": 5, "events": 5}),
                "invalid_field",
                Some("name"),
                "`name` must be a string",
            ),
        ] {
            let e = validate(body.clone()).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref(), e.message.as_str()),
                (code, field, message),
                "{body}"
            );
        }
        let ok = validate(json!({"endpointUrl": "https://A.example", "name": null})).unwrap();
        assert_eq!(
            (ok.name.as_str(), ok.url.as_str()),
            ("", "https://a.example/")
        );
    }
}
