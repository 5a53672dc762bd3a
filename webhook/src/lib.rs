//! Verify (and, for the service, sign) pixgate webhook deliveries.
//!
//! Every delivery carries `X-Service-Timestamp` (Unix seconds, digits only) and
//! `X-Service-Signature: v1=<hex>`, where the hex is the HMAC-SHA256, keyed with the endpoint's
//! signing secret (the whole `whsec_...` string as UTF-8 bytes), of `timestamp + "." + raw body`.
//!
//! ```
//! use std::time::{Duration, UNIX_EPOCH};
//! use pixgate_webhook::{sign, verify};
//!
//! let secret = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3I=";
//! let body = br#"{"id":"6f1c...","type":"webhook.test"}"#;
//! let headers = [
//!     ("X-Service-Timestamp", "1700000000".to_owned()),
//!     ("X-Service-Signature", sign(secret, 1_700_000_000, body)),
//! ];
//! let now = UNIX_EPOCH + Duration::from_secs(1_700_000_100);
//! assert!(verify(secret, &headers[..], body, now).is_ok());
//! assert!(verify(secret, &headers[..], b"tampered", now).is_err());
//! ```
//!
//! Verify the raw bytes as received, before parsing them: re-serialised JSON does not match.
//! Then deduplicate on `X-Service-Delivery`: a delivery may arrive more than once.
#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use hmac::{KeyInit, Mac};
use subtle::ConstantTimeEq;

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// The event type, e.g. `payment.succeeded`.
pub const EVENT_HEADER: &str = "X-Service-Event";
/// The delivery's UUID: the same on every retry; deduplicate on it.
pub const DELIVERY_HEADER: &str = "X-Service-Delivery";
/// Unix seconds, digits only; part of the signed text.
pub const TIMESTAMP_HEADER: &str = "X-Service-Timestamp";
/// `v1=` followed by the hex HMAC-SHA256.
pub const SIGNATURE_HEADER: &str = "X-Service-Signature";
/// How far the timestamp may be from the receiver's clock, either way.
pub const DEFAULT_TOLERANCE_SECS: u64 = 300;

const SCHEME: &str = "v1=";

/// The signature header value for `body` sent at `timestamp` (Unix seconds).
pub fn sign(secret: &str, timestamp: u64, body: &[u8]) -> String {
    format!(
        "{SCHEME}{}",
        hex::encode(mac(secret, &timestamp.to_string(), body))
    )
}

/// The MAC over the timestamp exactly as sent (the header's text), a dot and the body.
fn mac(secret: &str, timestamp: &str, body: &[u8]) -> [u8; 32] {
    let mut mac = HmacSha256::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac.finalize().into_bytes().into()
}

/// Why a delivery was rejected. Answer 400 (or 401) and do not process it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyError {
    MissingTimestamp,
    /// Not all ASCII digits, or too large.
    MalformedTimestamp,
    /// Further from `now` than the tolerance: a replay or a badly wrong clock.
    TimestampOutOfTolerance {
        skew_secs: u64,
    },
    MissingSignature,
    /// Not `v1=` followed by 64 hex digits.
    MalformedSignature,
    /// The body, timestamp or secret is not the one signed.
    SignatureMismatch,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::MissingTimestamp => write!(f, "{TIMESTAMP_HEADER} is missing"),
            Self::MalformedTimestamp => write!(f, "{TIMESTAMP_HEADER} is not Unix seconds"),
            Self::TimestampOutOfTolerance { skew_secs } => {
                write!(f, "{TIMESTAMP_HEADER} is {skew_secs} s from now")
            }
            Self::MissingSignature => write!(f, "{SIGNATURE_HEADER} is missing"),
            Self::MalformedSignature => write!(f, "{SIGNATURE_HEADER} is not v1=<hex>"),
            Self::SignatureMismatch => write!(f, "signature does not match"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// What a verified delivery's headers say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub timestamp: u64,
    /// `X-Service-Event`, when present.
    pub event: Option<String>,
    /// `X-Service-Delivery`, when present: the key to deduplicate on.
    pub delivery_id: Option<String>,
}

/// Request headers, looked up case-insensitively.
pub trait Headers {
    fn header(&self, name: &str) -> Option<&str>;
}

impl<K: AsRef<str>, V: AsRef<str>> Headers for [(K, V)] {
    fn header(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(k, _)| k.as_ref().eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_ref())
    }
}

impl<K: AsRef<str>, V: AsRef<str>> Headers for Vec<(K, V)> {
    fn header(&self, name: &str) -> Option<&str> {
        self.as_slice().header(name)
    }
}

impl<V: AsRef<str>, S> Headers for HashMap<String, V, S> {
    fn header(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_ref())
    }
}

#[cfg(feature = "http")]
impl Headers for http::HeaderMap {
    fn header(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(|v| v.to_str().ok())
    }
}

/// Verifies a delivery with the reference tolerance of 300 s.
pub fn verify<H: Headers + ?Sized>(
    secret: &str,
    headers: &H,
    raw_body: &[u8],
    now: SystemTime,
) -> Result<Verified, VerifyError> {
    verify_with_tolerance(secret, headers, raw_body, now, DEFAULT_TOLERANCE_SECS)
}

/// Verifies a delivery: the timestamp is all digits and within `tolerance_secs` of `now`, and
/// the signature (hex in either case) matches, compared in constant time.
pub fn verify_with_tolerance<H: Headers + ?Sized>(
    secret: &str,
    headers: &H,
    raw_body: &[u8],
    now: SystemTime,
    tolerance_secs: u64,
) -> Result<Verified, VerifyError> {
    let timestamp = headers
        .header(TIMESTAMP_HEADER)
        .ok_or(VerifyError::MissingTimestamp)?;
    if timestamp.is_empty() || !timestamp.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VerifyError::MalformedTimestamp);
    }
    let signed_timestamp = timestamp;
    let timestamp: u64 = timestamp
        .parse()
        .map_err(|_| VerifyError::MalformedTimestamp)?;
    let now = now
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let skew_secs = now.abs_diff(timestamp);
    if skew_secs > tolerance_secs {
        return Err(VerifyError::TimestampOutOfTolerance { skew_secs });
    }

    let signature = headers
        .header(SIGNATURE_HEADER)
        .ok_or(VerifyError::MissingSignature)?
        .trim();
    let hex_digest = signature
        .strip_prefix(SCHEME)
        .ok_or(VerifyError::MalformedSignature)?;
    let mut given = [0u8; 32];
    // `hex` accepts either case; the length check rules out a truncated digest.
    hex::decode_to_slice(hex_digest, &mut given).map_err(|_| VerifyError::MalformedSignature)?;
    let expected = mac(secret, signed_timestamp, raw_body);
    if bool::from(expected.ct_eq(&given)) {
        Ok(Verified {
            timestamp,
            event: headers.header(EVENT_HEADER).map(str::to_owned),
            delivery_id: headers.header(DELIVERY_HEADER).map(str::to_owned),
        })
    } else {
        Err(VerifyError::SignatureMismatch)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    const SECRET: &str = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
    const BODY: &[u8] = br#"{"id":"d1","type":"payment.succeeded"}"#;
    const TS: u64 = 1_763_800_000;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    fn headers(ts: &str, sig: &str) -> Vec<(&'static str, String)> {
        vec![
            ("x-service-timestamp", ts.to_owned()),
            ("X-SERVICE-SIGNATURE", sig.to_owned()),
            ("X-Service-Event", "payment.succeeded".to_owned()),
            ("X-Service-Delivery", "d1".to_owned()),
        ]
    }

    #[test]
    fn known_vector_matches_an_independent_hmac() {
        // Computed with Python: hmac.new(SECRET, b"1763800000." + BODY, sha256).hexdigest()
        assert_eq!(
            sign(SECRET, TS, BODY),
            "v1=5ba079d6161ef05d2a1e3094b29ed17a7a057c3f6fd6081f1921035016c3fb04"
        );
        let sig = sign(SECRET, TS, BODY);
        assert!(sig.starts_with("v1=") && sig.len() == 3 + 64);
    }

    #[test]
    fn a_signed_delivery_verifies_and_reports_its_headers() {
        let sig = sign(SECRET, TS, BODY);
        let v = verify(SECRET, &headers(&TS.to_string(), &sig), BODY, at(TS)).unwrap();
        assert_eq!(v.timestamp, TS);
        assert_eq!(v.event.as_deref(), Some("payment.succeeded"));
        assert_eq!(v.delivery_id.as_deref(), Some("d1"));
    }

    #[test]
    fn uppercase_hex_is_accepted() {
        let sig = sign(SECRET, TS, BODY);
        let upper = format!("v1={}", sig[3..].to_uppercase());
        assert!(verify(SECRET, &headers(&TS.to_string(), &upper), BODY, at(TS)).is_ok());
    }

    #[test]
    fn a_changed_body_timestamp_or_secret_is_a_mismatch() {
        let sig = sign(SECRET, TS, BODY);
        let h = headers(&TS.to_string(), &sig);
        assert_eq!(
            verify(SECRET, &h, b"{}", at(TS)),
            Err(VerifyError::SignatureMismatch)
        );
        assert_eq!(
            verify("whsec_other", &h, BODY, at(TS)),
            Err(VerifyError::SignatureMismatch)
        );
        let h = headers(&(TS + 1).to_string(), &sig);
        assert_eq!(
            verify(SECRET, &h, BODY, at(TS)),
            Err(VerifyError::SignatureMismatch)
        );
    }

    #[test]
    fn timestamps_must_be_digits_only() {
        let sig = sign(SECRET, TS, BODY);
        for bad in [
            "",
            "+1763800000",
            "-5",
            "1763800000.0",
            " 1763800000",
            "1e9",
            "１２",
        ] {
            assert_eq!(
                verify(SECRET, &headers(bad, &sig), BODY, at(TS)),
                Err(VerifyError::MalformedTimestamp),
                "{bad:?}"
            );
        }
        let huge = "9".repeat(30);
        assert_eq!(
            verify(SECRET, &headers(&huge, &sig), BODY, at(TS)),
            Err(VerifyError::MalformedTimestamp)
        );
    }

    #[test]
    fn the_tolerance_is_300_seconds_either_way() {
        let sig = sign(SECRET, TS, BODY);
        let h = headers(&TS.to_string(), &sig);
        assert!(verify(SECRET, &h, BODY, at(TS + 300)).is_ok());
        assert!(verify(SECRET, &h, BODY, at(TS - 300)).is_ok());
        assert_eq!(
            verify(SECRET, &h, BODY, at(TS + 301)),
            Err(VerifyError::TimestampOutOfTolerance { skew_secs: 301 })
        );
        assert_eq!(
            verify(SECRET, &h, BODY, at(TS - 301)),
            Err(VerifyError::TimestampOutOfTolerance { skew_secs: 301 })
        );
        assert!(verify_with_tolerance(SECRET, &h, BODY, at(TS + 301), 600).is_ok());
    }

    #[test]
    fn malformed_or_missing_signatures_are_named() {
        let ts = TS.to_string();
        let sig = sign(SECRET, TS, BODY);
        for bad in [
            sig[3..].to_owned(),
            format!("v2={}", &sig[3..]),
            sig[..sig.len() - 2].to_owned(),
            format!("{sig}00"),
            format!("v1={}", "zz".repeat(32)),
        ] {
            assert_eq!(
                verify(SECRET, &headers(&ts, &bad), BODY, at(TS)),
                Err(VerifyError::MalformedSignature),
                "{bad}"
            );
        }
        let only_ts = [(TIMESTAMP_HEADER, ts.as_str())];
        assert_eq!(
            verify(SECRET, &only_ts[..], BODY, at(TS)),
            Err(VerifyError::MissingSignature)
        );
        let none: [(&str, &str); 0] = [];
        assert_eq!(
            verify(SECRET, &none[..], BODY, at(TS)),
            Err(VerifyError::MissingTimestamp)
        );
    }

    #[test]
    fn the_timestamp_is_signed_as_sent() {
        let padded = format!("0{TS}");
        let sig = format!("v1={}", hex::encode(mac(SECRET, &padded, BODY)));
        assert!(verify(SECRET, &headers(&padded, &sig), BODY, at(TS)).is_ok());
        assert_eq!(
            verify(SECRET, &headers(&TS.to_string(), &sig), BODY, at(TS)),
            Err(VerifyError::SignatureMismatch)
        );
    }

    #[test]
    fn http_header_maps_work() {
        let mut map = http::HeaderMap::new();
        map.insert(TIMESTAMP_HEADER, TS.to_string().parse().unwrap());
        map.insert(SIGNATURE_HEADER, sign(SECRET, TS, BODY).parse().unwrap());
        assert!(verify(SECRET, &map, BODY, at(TS)).is_ok());
    }
}
