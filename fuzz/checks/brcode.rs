//! BR Codes: `brcode::parse` on any text, and `brcode::dynamic` (the code pixgate builds when
//! a PSP returns only a location) from any location, name and city.
//!
//! - parse never panics; a code it accepts ends in a CRC field (`6304` and four hex digits)
//!   that an independent CRC-16/CCITT-FALSE of the text before them reproduces, and any single
//!   changed byte before the CRC's value makes parse refuse it.
//! - a code dynamic builds is printable ASCII, parses back with the same location (without
//!   `https://`), no txid and no amount, a name of at most 25 and a city of at most 15
//!   characters, and its CRC verifies.

use pixgate_pix::brcode;

/// CRC-16/CCITT-FALSE written out bit by bit: polynomial 0x1021, initial 0xFFFF, no
/// reflection, no final xor.
fn crc16(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for &b in bytes {
        crc ^= u16::from(b) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// The code's CRC field holds the CRC of everything before its value.
fn assert_crc_verifies(code: &str) {
    let bytes = code.as_bytes();
    assert!(bytes.len() >= 8, "no room for a CRC field in {code:?}");
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    assert!(
        body.ends_with(b"6304"),
        "the CRC field is not last: {code:?}"
    );
    let crc = std::str::from_utf8(crc).unwrap();
    assert_eq!(
        u16::from_str_radix(crc, 16).ok(),
        Some(crc16(body)),
        "CRC does not verify: {code:?}"
    );
}

fn check_parsed(code: &str, parsed: &brcode::BrCode) {
    assert_crc_verifies(code);
    assert!(parsed.key().is_some() != parsed.location().is_some());
    assert!(parsed.key().is_none_or(|k| !k.is_empty()));
    assert!(parsed.location().is_none_or(|l| !l.is_empty()));
    assert!(!parsed.merchant_name().trim().is_empty());
    assert!(!parsed.merchant_city().trim().is_empty());
    assert!(
        parsed
            .txid()
            .is_none_or(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric()))
    );
    // Field 54 has at most 10 digits of reais and 2 of centavos.
    assert!(parsed.amount_centavos().is_none_or(|c| c < 100_000_000_000));
    assert_eq!(
        brcode::parse(code).as_ref(),
        Ok(parsed),
        "parse is not deterministic"
    );
}

/// One byte before the CRC's value changed to another ASCII byte: the CRC no longer matches
/// (CRC-16 detects every error burst of 16 bits or fewer), or the structure breaks first.
fn assert_a_changed_byte_is_refused(code: &str, at: usize, to: u8) {
    let bytes = code.as_bytes();
    let covered = bytes.len() - 4;
    let at = at % covered;
    if !bytes[at].is_ascii() {
        return; // inside a multi-byte character: the change would not be text
    }
    let to = to & 0x7F;
    if to == bytes[at] {
        return;
    }
    let mut changed = bytes.to_vec();
    changed[at] = to;
    let changed = String::from_utf8(changed).unwrap();
    assert!(
        brcode::parse(&changed).is_err(),
        "byte {at} changed to {to:#04x} and the code is still accepted: {changed:?}"
    );
}

/// The target's checks on one input: panics when pixgate breaks what the module says.
pub fn check(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        let Ok(text) = std::str::from_utf8(rest) else {
            return;
        };
        if let Ok(parsed) = brcode::parse(text) {
            check_parsed(text, &parsed);
            let at = usize::from(mode >> 1) * 257 + rest.len();
            assert_a_changed_byte_is_refused(text, at, mode.rotate_left(3));
        }
        return;
    }
    // Three texts separated by NUL: location, merchant name, city.
    let text = String::from_utf8_lossy(rest);
    let mut parts = text.splitn(3, '\0');
    let location = parts.next().unwrap_or("");
    let name = parts.next().unwrap_or("");
    let city = parts.next().unwrap_or("");
    let Ok(code) = brcode::dynamic(location, name, city) else {
        return;
    };
    assert!(
        code.bytes().all(|b| (b' '..=b'~').contains(&b)),
        "not printable ASCII: {code:?}"
    );
    let parsed = brcode::parse(&code)
        .unwrap_or_else(|e| panic!("pixgate's own code does not parse ({e}): {code:?}"));
    check_parsed(&code, &parsed);
    assert_eq!(
        parsed.location(),
        Some(location.strip_prefix("https://").unwrap_or(location))
    );
    assert_eq!(parsed.txid(), None);
    assert_eq!(parsed.amount_centavos(), None);
    let (name, city) = (parsed.merchant_name(), parsed.merchant_city());
    assert!(name.chars().count() <= 25 && city.chars().count() <= 15);
    for text in [name, city] {
        assert_eq!(text, text.trim(), "blank at an end: {text:?}");
        assert!(!text.contains("  "), "blanks not collapsed: {text:?}");
    }
    assert_a_changed_byte_is_refused(&code, usize::from(mode >> 1), mode.rotate_left(3));
}
