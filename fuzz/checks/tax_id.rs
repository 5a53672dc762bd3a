//! `TaxId::parse` (CPF and CNPJ, alphanumeric CNPJ included) against an independent reading
//! of the Receita Federal's check-digit rules, and against the pattern the OpenAPI document
//! publishes for `payer.taxId`.
//!
//! Two halves per input: the raw text as a client might send it, and a tax id built from the
//! input with the right check digits (random text almost never has them), punctuated and
//! cased as the input says, which must be accepted.

use std::sync::LazyLock;

use pixgate_domain::charge::TAX_ID_PATTERN;
use pixgate_domain::{TaxId, TaxIdKind};

static PATTERN: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(TAX_ID_PATTERN).unwrap());

/// A character's value in the check-digit sums: its ASCII code minus 48.
fn value(c: u8) -> u32 {
    u32::from(c) - u32::from(b'0')
}

/// CPF: weights 10..2 (then 11..2), `r = sum * 10 % 11`, 10 counts as 0.
fn cpf_digit(body: &[u8]) -> u8 {
    let n = body.len() as u32;
    let sum: u32 = body
        .iter()
        .enumerate()
        .map(|(i, &c)| value(c) * (n + 1 - i as u32))
        .sum();
    let r = sum * 10 % 11;
    b'0' + if r == 10 { 0 } else { r as u8 }
}

/// CNPJ: weights 2..9 repeating from the right, `11 - sum % 11`, 0 when the rest is 0 or 1.
fn cnpj_digit(body: &[u8]) -> u8 {
    let sum: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &c)| value(c) * (2 + (i as u32 % 8)))
        .sum();
    let r = sum % 11;
    b'0' + if r < 2 { 0 } else { 11 - r as u8 }
}

/// What the rules say about `raw`: strip `.`, `-`, `/`, space; uppercase; then a CPF is 11
/// digits, a CNPJ 12 of 0-9/A-Z and 2 digits, each with its check digits, and a number of one
/// repeated character is neither.
fn oracle(raw: &str) -> Option<(TaxIdKind, String)> {
    let s: String = raw
        .chars()
        .filter(|c| !matches!(c, '.' | '-' | '/' | ' '))
        .collect();
    if !s.is_ascii() {
        return None;
    }
    let s = s.to_ascii_uppercase();
    let b = s.as_bytes();
    if b.is_empty() || b.iter().all(|&c| c == b[0]) {
        return None;
    }
    match b.len() {
        11 if b.iter().all(u8::is_ascii_digit)
            && cpf_digit(&b[..9]) == b[9]
            && cpf_digit(&b[..10]) == b[10] =>
        {
            Some((TaxIdKind::Cpf, s))
        }
        14 if b[..12]
            .iter()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
            && b[12..].iter().all(u8::is_ascii_digit)
            && cnpj_digit(&b[..12]) == b[12]
            && cnpj_digit(&b[..13]) == b[13] =>
        {
            Some((TaxIdKind::Cnpj, s))
        }
        _ => None,
    }
}

fn check_text(raw: &str) {
    let parsed = TaxId::parse(raw);
    let expected = oracle(raw);
    assert_eq!(
        parsed.as_ref().map(|t| (t.kind(), t.as_str().to_owned())),
        expected,
        "TaxId::parse disagrees with the rules on {raw:?}"
    );
    if let Some(t) = parsed {
        // The documented pattern admits every id the parser accepts, the normalised form
        // parses to the same id, and Debug never shows the number.
        assert!(
            PATTERN.is_match(raw),
            "{raw:?} is accepted but the API document's pattern refuses it"
        );
        assert_eq!(TaxId::parse(t.as_str()).as_ref(), Some(&t));
        assert!(!format!("{t:?}").contains(t.as_str()));
    }
}

/// A well-formed id from the input's bytes: CPF or CNPJ (alphanumeric when the input says),
/// with its check digits, then punctuation inserted and letters lowercased where it says.
fn built(data: &[u8]) -> Option<String> {
    let (&mode, rest) = data.split_first()?;
    let alphabet: &[u8] = if mode & 2 != 0 {
        b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    } else {
        b"0123456789"
    };
    let cnpj = mode & 1 != 0;
    let len = if cnpj { 12 } else { 9 };
    if rest.len() < len {
        return None;
    }
    let mut id: Vec<u8> = rest[..len]
        .iter()
        .map(|b| alphabet[usize::from(*b) % if cnpj { alphabet.len() } else { 10 }])
        .collect();
    for _ in 0..2 {
        let d = if cnpj {
            cnpj_digit(&id)
        } else {
            cpf_digit(&id)
        };
        id.push(d);
    }
    let mut out = String::new();
    for (i, &c) in id.iter().enumerate() {
        let knob = rest.get(len + i).copied().unwrap_or(0);
        if knob & 0x10 != 0 {
            out.push(['.', '-', '/', ' '][usize::from(knob & 3)]);
        }
        out.push(if knob & 0x20 != 0 {
            char::from(c.to_ascii_lowercase())
        } else {
            char::from(c)
        });
    }
    Some(out)
}

/// The target's checks on one input: panics when pixgate breaks what the module says.
pub fn check(data: &[u8]) {
    check_text(&String::from_utf8_lossy(data));
    if let Some(raw) = built(data) {
        check_text(&raw);
        let t = TaxId::parse(&raw);
        let digits: Vec<char> = raw.chars().filter(char::is_ascii_alphanumeric).collect();
        // The only well-formed ids refused are those of one repeated character.
        if digits.iter().any(|c| !c.eq_ignore_ascii_case(&digits[0])) {
            assert!(t.is_some(), "a well-formed id {raw:?} is refused");
        }
    }
}
