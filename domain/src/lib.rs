//! pixgate's values, checked where they are built (a value of one of these types is known
//! good), and the request bodies that carry them: the charge ([`charge`]) and the admin
//! evaluate route's ([`evaluate`]), as serde types the OpenAPI documents are generated from.
//! Also the names the chain's steps go by ([`Step`]) and what a run of the chain decided
//! ([`Outcome`]), which the admin API, the CLI and the sandbox share.
//!
//! Pure functions of text: no I/O and no runtime, so the fuzz targets build this crate
//! without wasmtime, sqlx or tokio.
#![forbid(unsafe_code)]

pub mod batch;
pub mod charge;
pub mod due;
pub mod evaluate;
pub mod json;
pub mod mandate;
pub mod money;
mod outcome;
pub mod reconciliation;
pub mod recurring;
pub mod refund;
mod role;
mod status;
mod step;
mod tax_id;
mod text_enum;

pub use money::Money;
pub use outcome::{NO_PROVIDER, Outcome};
pub use role::Role;
pub use status::{ChargeKind, IntentStatus, StoreMode};
pub use step::{Step, StepVersions};
pub use tax_id::{TaxId, TaxIdKind};

/// Lowercase hex of the SHA-256 of `data`: a component's version, an API key's or the admin
/// token's stored hash, a charge's idempotency fingerprint.
pub fn sha256_hex(data: impl AsRef<[u8]>) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(data.as_ref()))
}

/// Names: no control character, and at least one character that is neither blank nor control
/// (admin names are stored trimmed; a payer's name is kept as sent). Blank is `char::is_whitespace` plus U+FEFF, which ECMA-262's
/// `\s` also counts, so the document's regex dialect and ours agree on every character.
pub const NAME_PATTERN: &str = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$";
/// The merchant's Idempotency-Key: 1 to 200 visible ASCII characters (`!` to `~`), with
/// spaces allowed between them (`^[!-~]([ -~]{0,198}[!-~])?$`). HTTP trims the spaces around a
/// header's value, so a key cannot keep them, and bytes beyond ASCII in a header have no
/// agreed encoding: a key that relied on either would not be the same key on every client.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

/// The rule [`IdempotencyKey::parse`] applies, as the merchant document states it (the
/// attribute on the charge route repeats it as a literal; tests hold the three together).
pub const IDEMPOTENCY_KEY_PATTERN: &str = "^[!-~]([ -~]{0,198}[!-~])?$";

impl IdempotencyKey {
    pub const MAX_CHARS: usize = 200;

    /// From the header's value as sent (bytes: a value may hold any but a few).
    pub fn parse(raw: &[u8]) -> Result<Self, &'static str> {
        if raw.iter().all(|b| *b == b' ' || *b == b'\t') {
            return Err("the Idempotency-Key header must not be empty or blank");
        }
        if !raw.iter().all(|b| (b' '..=b'~').contains(b)) {
            return Err(
                "the Idempotency-Key header must be visible ASCII characters (`!` to `~`), \
                 with spaces allowed between them",
            );
        }
        if raw.len() > Self::MAX_CHARS {
            return Err("the Idempotency-Key header is longer than 200 characters");
        }
        if raw.starts_with(b" ") || raw.ends_with(b" ") {
            return Err("the Idempotency-Key header must not start or end with a space");
        }
        // Checked ASCII above.
        Ok(Self(String::from_utf8_lossy(raw).into_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A payer's email: one `@`, a non-empty local part of at most 64 characters and a domain
/// of dot-separated labels (letters, digits, hyphens); at most 254 characters in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Option<Self> {
        let raw = raw.trim();
        let (local, domain) = raw.split_once('@')?;
        let label_ok = |l: &str| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        };
        let local_ok = !local.is_empty()
            && local.len() <= 64
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && local
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~.-".contains(&b));
        let labels: Vec<&str> = domain.split('.').collect();
        let domain_ok = labels.len() >= 2
            && labels.iter().all(|l| label_ok(l))
            && labels
                .last()
                .is_some_and(|tld| tld.len() >= 2 && !tld.bytes().all(|b| b.is_ascii_digit()));
        (raw.len() <= 254 && local_ok && domain_ok).then(|| Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A payer's phone: 8 to 15 digits (E.164 without the `+`), punctuation ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(String);

/// The rule [`Phone::parse`] applies, as the document states it (with `maxLength` 32): blanks
/// around (`char::is_whitespace`), an optional leading `+`, then 8 to 15 digits among spaces,
/// `(`, `)`, `.` and `-`. The charge's `payer.phone` attribute repeats it as a literal; tests
/// hold the three together.
pub const PHONE_PATTERN: &str = r"^[\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*[+]?[ ().-]*([0-9][ ().-]*){8,15}[\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*$";

impl Phone {
    pub fn parse(raw: &str) -> Option<Self> {
        // Counted in characters, as the document's `maxLength` counts them.
        if raw.chars().count() > 32 {
            return None;
        }
        let mut digits = String::new();
        for (i, c) in raw.trim().chars().enumerate() {
            match c {
                '0'..='9' => digits.push(c),
                '+' if i == 0 => {}
                ' ' | '-' | '(' | ')' | '.' => {}
                _ => return None,
            }
        }
        (8..=15).contains(&digits.len()).then_some(Self(digits))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A code for merchants, stores and gateways: 1 to 64 characters of a-z, A-Z, 0-9, `-`, `_`, `.`.
pub fn valid_code(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= 64
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idempotency_keys_are_bounded() {
        assert!(IdempotencyKey::parse(b"checkout-123").is_ok());
        assert!(IdempotencyKey::parse(b"order 42 / try 1").is_ok());
        assert!(IdempotencyKey::parse("k".repeat(200).as_bytes()).is_ok());
        assert!(IdempotencyKey::parse("k".repeat(201).as_bytes()).is_err());
        // Issue 17: what the documents say, the code does: ASCII only, never blank.
        for refused in [
            "".as_bytes(),
            b" ",
            b"   ",
            b"\t",
            b"a\nb",
            b"a\tb",
            "chave-\u{e7}".as_bytes(),
            &[b'k', 0xff],
            b" lead",
            b"trail ",
        ] {
            assert!(IdempotencyKey::parse(refused).is_err(), "{refused:?}");
        }
    }

    /// The pattern in both OpenAPI documents and the parser agree on every byte.
    #[test]
    fn the_idempotency_key_pattern_is_what_parse_enforces() {
        let pattern = regex::bytes::Regex::new(&format!("(?-u){IDEMPOTENCY_KEY_PATTERN}")).unwrap();
        for b in 0..=255u8 {
            for key in [vec![b], vec![b'a', b, b'z'], vec![b, b'z'], vec![b'a', b]] {
                assert_eq!(
                    pattern.is_match(&key),
                    IdempotencyKey::parse(&key).is_ok(),
                    "{key:?}"
                );
            }
        }
        for n in [199, 200, 201] {
            let key = "k".repeat(n);
            assert_eq!(
                pattern.is_match(key.as_bytes()),
                IdempotencyKey::parse(key.as_bytes()).is_ok(),
                "{n}"
            );
        }
    }

    #[test]
    fn emails() {
        for ok in ["ana@example.com", "a.b+tag@mail.example.com.br", "x@a-b.co"] {
            assert!(Email::parse(ok).is_some(), "{ok}");
        }
        for bad in [
            "",
            "ana",
            "ana@",
            "@example.com",
            "ana@example",
            "ana@@example.com",
            "ana @example.com",
            "ana@-x.com",
            "ana@x..com",
            ".ana@x.com",
            "ana@x.123",
        ] {
            assert!(Email::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn phones() {
        assert_eq!(
            Phone::parse("+55 (11) 98765-4321").unwrap().as_str(),
            "5511987654321"
        );
        assert!(Phone::parse("1234567").is_none());
        assert!(Phone::parse("1234567890123456").is_none());
        assert!(Phone::parse("11 9876x4321").is_none());
        assert!(Phone::parse("55+11987654321").is_none());
    }

    /// The document's pattern and `maxLength` accept exactly what the parser accepts.
    #[test]
    fn the_phone_pattern_is_the_parser() {
        let pattern = regex::Regex::new(PHONE_PATTERN).unwrap();
        let schema = |s: &str| s.chars().count() <= 32 && pattern.is_match(s);
        let mut cases: Vec<String> = [
            "+55 (11) 98765-4321",
            "12345678",
            "1234567",
            "123456789012345",
            "1234567890123456",
            &"1".repeat(31),
            "11 9876x4321",
            "55+11987654321",
            " +5511987654321\t",
            "\u{3000}+5511987654321\u{a0}",
            "( +5511987654321",
            "+ 5511987654321",
            "+(11) 9876.5432-1",
            "551198765\u{a0}4321",
            "\u{feff}5511987654321",
            "++5511987654321",
            "+",
            "",
            "---(((12345678)))---...",
            "\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}123456789012345",
            "                 123456789012345",
            "                  123456789012345",
        ]
        .map(str::to_owned)
        .to_vec();
        // Every character around, between and inside the digits.
        for c in '\0'..='\u{3001}' {
            cases.push(format!("{c}5511987654321"));
            cases.push(format!("55119{c}87654321"));
            cases.push(format!("5511987654321{c}"));
        }
        for case in &cases {
            assert_eq!(schema(case), Phone::parse(case).is_some(), "{case:?}");
        }
    }

    #[test]
    fn codes() {
        assert!(valid_code("demo-store_1.b"));
        assert!(!valid_code(""));
        assert!(!valid_code("with space"));
        assert!(!valid_code(&"a".repeat(65)));
    }
}
