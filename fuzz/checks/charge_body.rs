//! The merchant charge body, from the raw bytes to the validated charge, through the functions
//! `POST /api/v1/payments/charge` calls in its order (host/src/http/payments.rs): the 64 KB
//! limit, `check_literals` (the amount and metadata numbers as written, and metadata's text
//! kept), `serde_json::from_slice` into a `Value`, `canonical_json` (the legacy fingerprint),
//! `CreatePaymentRequest::from_body`, `ChargeBody::validate`.
//!
//! Nothing panics, and a charge that validates holds what the contract says:
//! - its amount is exactly the number as written in the body (the last `amount` key, as the
//!   parsed body has it), judged by an independent decimal reading of the literal: never a
//!   rounding of it; and the amount re-renders (`brl()` reads back to the same centavos);
//! - text fields are within their bounds without control characters, the tax id, email and
//!   phone are in their normal forms, metadata is a JSON object of at most 16 KB that is the
//!   body's `metadata` exactly as written, whitespace between tokens aside (so it prints back
//!   as sent: every number with its digits), and reads as the parsed body's metadata;
//! - the body re-serialised and sent again validates to the same charge;
//! - `canonical_json` of any body is JSON that reads back as the same body (floats of more than
//!   about 15 significant digits within an ulp: see `same_but_float_rounding`).
//!
//! The same bytes also go through the admin evaluate route's path (`POST
//! /admin/v1/components/evaluate`, a `charge` object beside `store`): `check_literals(.., true)`,
//! `EvaluateRequest::from_body`, `validate(store, "charge.", today)`, with the same checks.

use std::collections::HashMap;

use pixgate_domain::charge::{
    ChargeRequest, CreatePaymentRequest, METADATA_MAX_BYTES, canonical_json, check_literals,
};
use pixgate_domain::due::{Date, check_due_literals};
use pixgate_domain::evaluate::EvaluateRequest;
use pixgate_domain::money::{Money, brl};
use pixgate_domain::{Email, Phone, TaxId, valid_code};
use serde_json::Value;
use serde_json::value::RawValue;

/// The date due dates are judged against: fixed, so a corpus entry means the same every day.
const TODAY: Date = match Date::from_ymd(2026, 1, 1) {
    Some(date) => date,
    None => panic!("a real date"),
};

/// The JSON extractor's limit (`MAX_BODY_BYTES` in host/src/http/extract.rs, a private
/// module): a larger body is a 413 before it is parsed.
const MAX_BODY_BYTES: usize = 64 * 1024;

/// The handler's path from the bytes to the validated charge; `None` where it answers 4xx.
fn charge(bytes: &[u8]) -> Option<ChargeRequest> {
    if bytes.len() > MAX_BODY_BYTES {
        return None; // 413
    }
    check_due_literals(bytes, false).ok()?;
    let literals = check_literals(bytes, false).ok()?;
    let body: Value = serde_json::from_slice(bytes).ok()?;
    let legacy = canonical_json(&body);
    let again: Value = serde_json::from_str(&legacy)
        .unwrap_or_else(|e| panic!("canonical_json is not JSON ({e}): {legacy}"));
    assert!(
        same_but_float_rounding(&again, &body),
        "canonical_json changed the body: {legacy}"
    );
    let (store, charge) = CreatePaymentRequest::from_body(body, literals)
        .ok()?
        .split();
    charge.validate(store, "", TODAY).ok()
}

/// `a` and `b` are the same JSON but for a float read back one rounding apart: serde_json's
/// default float parsing is best-effort (its `float_roundtrip` feature is off), so a float of
/// more than 15 or so significant digits printed and read again may move by an ulp.
fn same_but_float_rounding(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_but_float_rounding(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_but_float_rounding(v, w))
        }
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(i), Some(j), _, _) => i == j,
                (_, _, Some(i), Some(j)) => i == j,
                _ => {
                    let (f, g) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                    f == g || (f - g).abs() <= 4.0 * f64::EPSILON * f.abs().max(g.abs())
                }
            }
        }
        _ => a == b,
    }
}

/// The admin evaluate route's path from the bytes to the validated charge.
fn evaluated(bytes: &[u8]) -> Option<ChargeRequest> {
    if bytes.len() > MAX_BODY_BYTES {
        return None;
    }
    check_due_literals(bytes, true).ok()?;
    let literals = check_literals(bytes, true).ok()?;
    let body: Value = serde_json::from_slice(bytes).ok()?;
    let request = EvaluateRequest::from_body(body, literals).ok()?;
    request
        .charge
        .validate(request.store, "charge.", TODAY)
        .ok()
}

/// The centavos a JSON number literal denotes exactly, or `None` when it is no whole number of
/// centavos (or absurdly large). Written from the JSON grammar: `-? int frac? exp?`.
fn exact_centavos(literal: &str) -> Option<u64> {
    let unsigned = literal.strip_prefix('-').unwrap_or(literal);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], unsigned[i + 1..].parse::<i64>().ok()?),
        None => (unsigned, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // value = digits × 10^scale, and centavos = value × 100.
    let mut scale = exponent.checked_sub(frac.len() as i64)?.checked_add(2)?;
    while scale < 0 {
        match digits.pop() {
            Some(b'0') => scale += 1,
            Some(_) => return None, // a fraction of a centavo
            None => return Some(0),
        }
    }
    let start = digits
        .iter()
        .position(|&d| d != b'0')
        .unwrap_or(digits.len());
    let significant = &digits[start..];
    if significant.is_empty() {
        return Some(0);
    }
    if significant.len() as i64 + scale > 19 {
        return None; // far beyond any amount
    }
    let mut value: u64 = 0;
    for &d in significant {
        value = value * 10 + u64::from(d - b'0');
    }
    Some(value * 10u64.pow(scale as u32))
}

fn check_text(text: &str, min: usize, max: usize) {
    let n = text.chars().count();
    assert!((min..=max).contains(&n), "{n} characters: {text:?}");
    assert!(
        !text.chars().any(char::is_control),
        "control character in {text:?}"
    );
}

/// The literals of `amount` and `metadata` (`None`: absent) in the body (in its `charge`
/// object when `nested`), as the parsed body has them: the last of duplicate keys wins, at
/// every level.
fn literals(bytes: &[u8], nested: bool) -> (String, Option<String>) {
    let mut object: HashMap<String, &RawValue> =
        serde_json::from_slice(bytes).expect("a body that validated is a JSON object");
    if nested {
        object = serde_json::from_str(object["charge"].get()).expect("`charge` is an object");
    }
    (
        object["amount"].get().to_owned(),
        object.get("metadata").map(|m| m.get().to_owned()),
    )
}

/// JSON text without the whitespace outside its strings (written here from the grammar, apart
/// from the domain's).
fn tokens(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {}
            '"' => {
                out.push('"');
                while let Some(c) = chars.next() {
                    out.push(c);
                    if c == '\\' {
                        out.extend(chars.next());
                    } else if c == '"' {
                        break;
                    }
                }
            }
            c => out.push(c),
        }
    }
    out
}

fn check_charge(c: &ChargeRequest, (literal, metadata): &(String, Option<String>)) {
    // The amount, exactly as written.
    assert_eq!(
        exact_centavos(literal),
        Some(c.amount.centavos()),
        "the amount as written, {literal}, is not the {} centavos charged",
        c.amount.centavos()
    );
    let centavos = c.amount.centavos();
    assert!((1..=Money::MAX_CENTAVOS).contains(&centavos));
    assert_eq!(Money::from_centavos(centavos), Some(c.amount));
    assert_eq!(
        Money::from_brl(brl(centavos)),
        Ok(c.amount),
        "does not re-render"
    );
    let rendered = serde_json::to_string(&c.amount.brl()).unwrap();
    assert_eq!(
        exact_centavos(&rendered),
        Some(centavos),
        "renders as {rendered}"
    );

    assert!(valid_code(&c.store));
    check_text(&c.reference, 1, 160);
    if let Some(d) = &c.description {
        check_text(d, 0, 200);
    }
    check_text(&c.payer.name, 1, 200);
    assert!(
        !c.payer
            .name
            .trim_matches(|ch: char| ch.is_whitespace() || ch == '\u{feff}')
            .is_empty()
    );
    assert_eq!(
        TaxId::parse(c.payer.tax_id.as_str()).as_ref(),
        Some(&c.payer.tax_id)
    );
    if let Some(e) = &c.payer.email {
        assert_eq!(Email::parse(e.as_str()).as_ref(), Some(e));
    }
    if let Some(p) = &c.payer.phone {
        assert!((8..=15).contains(&p.as_str().len()));
        assert!(p.as_str().bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(Phone::parse(p.as_str()).as_ref(), Some(p));
    }
    assert!(c.metadata.len() <= METADATA_MAX_BYTES);
    assert!(
        serde_json::from_str::<Value>(&c.metadata).is_ok_and(|m| m.is_object()),
        "metadata is not an object: {}",
        c.metadata
    );
    // Kept, and so echoed, as sent: the body's text, whitespace between tokens aside.
    let sent = metadata
        .as_deref()
        .filter(|m| *m != "null")
        .map_or_else(|| "{}".to_owned(), tokens);
    assert_eq!(c.metadata, sent, "metadata is not kept as sent");
    assert_eq!(c.fingerprint().len(), 64);
}

/// The target's checks on one input: panics when pixgate breaks what the module says.
pub fn check(data: &[u8]) {
    if let Some(c) = evaluated(data) {
        check_charge(&c, &literals(data, true));
    }
    let Some(c) = charge(data) else {
        return;
    };
    check_charge(&c, &literals(data, false));
    // The same body re-serialised is the same charge (metadata aside: serde_json's default
    // float parsing is best-effort, so a long float in it may come back one ulp apart).
    let body: Value = serde_json::from_slice(data).unwrap();
    let resent = serde_json::to_vec(&body).unwrap();
    let again = charge(&resent).unwrap_or_else(|| {
        panic!(
            "the body re-serialised is refused: {}",
            String::from_utf8_lossy(&resent)
        )
    });
    assert_eq!(
        (
            &again.store,
            again.amount,
            &again.reference,
            &again.description,
            &again.payer
        ),
        (&c.store, c.amount, &c.reference, &c.description, &c.payer)
    );
    if again.metadata == c.metadata {
        assert_eq!(again.fingerprint(), c.fingerprint());
    }
}
