//! Webhook signatures (`pixgate-webhook`, the crate merchants verify deliveries with and the
//! service signs them with).
//!
//! - `verify` on any headers, body, secret and clock never panics, and accepts only what the
//!   scheme defines: a digits-only timestamp within the tolerance, and `v1=` followed by the
//!   HMAC-SHA256 (either hex case) of `timestamp-as-sent + "." + body` under the secret.
//! - a delivery signed with `sign` verifies (through a header slice, a `HashMap` and an
//!   `http::HeaderMap`) at any clock within 300 s of its timestamp and is refused beyond; and any
//!   single changed byte of the body, the secret, the timestamp or the digest is refused.

use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use arbitrary::{Result, Unstructured};
use pixgate_webhook::{
    DEFAULT_TOLERANCE_SECS, SIGNATURE_HEADER, TIMESTAMP_HEADER, VerifyError, sign, verify,
    verify_with_tolerance,
};

/// Clocks up to 2^40 s (beyond the year 30000): `UNIX_EPOCH + d` cannot overflow.
const MAX_CLOCK: u64 = 1 << 40;

fn at(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// The expected verdict on a delivery, written from the scheme's description with an HMAC of
/// the crate's own `sign` only for the digest itself (checked against an independent vector in
/// the crate's tests).
fn expected(
    secret: &str,
    timestamp: Option<&str>,
    signature: Option<&str>,
    body: &[u8],
    now: u64,
    tolerance: u64,
) -> std::result::Result<u64, VerifyError> {
    let ts = timestamp.ok_or(VerifyError::MissingTimestamp)?;
    if ts.is_empty() || !ts.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VerifyError::MalformedTimestamp);
    }
    let value: u64 = ts.parse().map_err(|_| VerifyError::MalformedTimestamp)?;
    let skew_secs = now.abs_diff(value);
    if skew_secs > tolerance {
        return Err(VerifyError::TimestampOutOfTolerance { skew_secs });
    }
    let sig = signature.ok_or(VerifyError::MissingSignature)?.trim();
    let hex = sig
        .strip_prefix("v1=")
        .ok_or(VerifyError::MalformedSignature)?;
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(VerifyError::MalformedSignature);
    }
    // The digest over the timestamp as sent: `sign` takes a number, so a timestamp with
    // leading zeros is only comparable through the crate's own verify; the rest is exact.
    let canonical = value.to_string() == ts;
    if canonical {
        let want = sign(secret, value, body);
        if !want[3..].eq_ignore_ascii_case(hex) {
            return Err(VerifyError::SignatureMismatch);
        }
    }
    Ok(value)
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let secret: String = u.arbitrary()?;
    let now: u64 = u.int_in_range(0..=MAX_CLOCK)?;
    let tolerance: u64 = if u.arbitrary()? {
        DEFAULT_TOLERANCE_SECS
    } else {
        u.int_in_range(0..=1 << 20)?
    };
    let raw_headers: Vec<(String, String)> = u.arbitrary()?;
    let signed: bool = u.arbitrary()?;
    let body: Vec<u8> = u.arbitrary()?;
    let mut headers = raw_headers;
    let ts: u64 = now.saturating_add_signed(u.int_in_range(-1000i64..=1000)?);
    if signed {
        // A real delivery's two headers first (the first of a name wins), then the rest.
        headers.insert(0, (TIMESTAMP_HEADER.to_owned(), ts.to_string()));
        headers.insert(1, (SIGNATURE_HEADER.to_owned(), sign(&secret, ts, &body)));
    }

    // 1. Any input: never a panic, and the verdict the scheme defines.
    let find = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let got = verify_with_tolerance(&secret, &headers[..], &body, at(now), tolerance);
    let want = expected(
        &secret,
        find(TIMESTAMP_HEADER),
        find(SIGNATURE_HEADER),
        &body,
        now,
        tolerance,
    );
    match (&got, &want) {
        (Ok(v), Ok(ts)) => assert_eq!(v.timestamp, *ts),
        // A timestamp with leading zeros: the expected digest was not computed.
        (Err(VerifyError::SignatureMismatch), Ok(_))
            if find(TIMESTAMP_HEADER).is_some_and(|t| t.starts_with('0') && t.len() > 1) => {}
        _ => assert_eq!(
            got.as_ref().map(|v| v.timestamp).map_err(Clone::clone),
            want,
            "{headers:?}"
        ),
    }
    // The same verdict through a HashMap (one value per name: the first one).
    let mut map: HashMap<String, String> = HashMap::new();
    for (k, v) in &headers {
        if !map.keys().any(|m| m.eq_ignore_ascii_case(k)) {
            map.insert(k.clone(), v.clone());
        }
    }
    assert_eq!(
        verify_with_tolerance(&secret, &map, &body, at(now), tolerance).map(|v| v.timestamp),
        got.as_ref().map(|v| v.timestamp).map_err(Clone::clone),
    );

    if !signed {
        return Ok(());
    }
    // 2. A signed delivery: it verifies within the tolerance and not beyond.
    let sig = sign(&secret, ts, &body);
    let pair = |ts: &str, sig: &str| {
        vec![
            (TIMESTAMP_HEADER.to_owned(), ts.to_owned()),
            (SIGNATURE_HEADER.to_owned(), sig.to_owned()),
        ]
    };
    let good = pair(&ts.to_string(), &sig);
    let skew = now.abs_diff(ts);
    let verdict = verify(&secret, &good[..], &body, at(now));
    if skew <= DEFAULT_TOLERANCE_SECS {
        let v = verdict.unwrap_or_else(|e| panic!("a signed delivery is refused: {e}"));
        assert_eq!(v.timestamp, ts);
        let mut hm = http::HeaderMap::new();
        hm.insert(TIMESTAMP_HEADER, ts.to_string().parse().unwrap());
        hm.insert(SIGNATURE_HEADER, sig.parse().unwrap());
        assert!(verify(&secret, &hm, &body, at(now)).is_ok());
        let upper = format!("v1={}", sig[3..].to_ascii_uppercase());
        assert!(verify(&secret, &pair(&ts.to_string(), &upper)[..], &body, at(now)).is_ok());
    } else {
        assert_eq!(
            verdict,
            Err(VerifyError::TimestampOutOfTolerance { skew_secs: skew })
        );
        return Ok(());
    }
    let now = at(now);

    // 3. Any single changed byte is refused.
    if !body.is_empty() {
        let mut changed = body.clone();
        let i = u.choose_index(changed.len())?;
        changed[i] ^= u.int_in_range(1..=255)?;
        assert_eq!(
            verify(&secret, &good[..], &changed, now),
            Err(VerifyError::SignatureMismatch),
            "body byte {i} changed"
        );
    }
    if !secret.is_empty() {
        let mut bytes = secret.clone().into_bytes();
        let i = u.choose_index(bytes.len())?;
        bytes[i] ^= u.int_in_range(1..=255)?;
        if let Ok(other) = String::from_utf8(bytes) {
            assert_eq!(
                verify(&other, &good[..], &body, now),
                Err(VerifyError::SignatureMismatch),
                "secret byte {i} changed"
            );
        }
    }
    {
        // A timestamp digit changed (still digits, still within the tolerance or not).
        let mut text = ts.to_string().into_bytes();
        let i = u.choose_index(text.len())?;
        let d = b'0' + u.int_in_range(0..=9)?;
        if d != text[i] {
            text[i] = d;
            let text = String::from_utf8(text).unwrap();
            let verdict = verify(&secret, &pair(&text, &sig)[..], &body, now);
            assert!(
                matches!(
                    verdict,
                    Err(VerifyError::SignatureMismatch
                        | VerifyError::TimestampOutOfTolerance { .. }
                        | VerifyError::MalformedTimestamp)
                ),
                "timestamp {ts} changed to {text}: {verdict:?}"
            );
        }
    }
    {
        // One character of the hex digest changed to another hex digit (not a case variant):
        // a mismatch; to anything else: malformed.
        let mut digest = sig.clone().into_bytes();
        let i = 3 + u.choose_index(64)?;
        let c: u8 = u.int_in_range(0x20..=0x7E)?;
        if !c.eq_ignore_ascii_case(&digest[i]) {
            digest[i] = c;
            let digest = String::from_utf8(digest).unwrap();
            let want = if c.is_ascii_hexdigit() {
                VerifyError::SignatureMismatch
            } else {
                VerifyError::MalformedSignature
            };
            assert_eq!(
                verify(&secret, &pair(&ts.to_string(), &digest)[..], &body, now),
                Err(want),
                "digest changed to {digest}"
            );
        }
    }
    Ok(())
}

/// The target's checks on one input: panics when pixgate breaks what the module says.
pub fn check(data: &[u8]) {
    let _ = run(&mut Unstructured::new(data));
}
