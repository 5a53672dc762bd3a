//! Validated values of the merchant API. Each is checked where it is built; a value of one
//! of these types is known good.

pub mod json;
pub mod money;
mod status;
mod tax_id;
pub mod time;

pub use money::Money;
pub use status::{IntentStatus, StoreMode};
pub use tax_id::{TaxId, TaxIdKind};

/// Names: no control character, and at least one character that is neither blank nor control
/// (admin names are stored trimmed; a payer's name is kept as sent). Blank is `char::is_whitespace` plus U+FEFF, which ECMA-262's
/// `\s` also counts, so the document's regex dialect and ours agree on every character.
pub const NAME_PATTERN: &str = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$";
/// The merchant's Idempotency-Key: 1 to 200 characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    pub const MAX_CHARS: usize = 200;

    pub fn parse(raw: &str) -> Result<Self, &'static str> {
        if raw.is_empty() {
            return Err("Idempotency-Key must not be empty");
        }
        if raw.chars().count() > Self::MAX_CHARS {
            return Err("Idempotency-Key is longer than 200 characters");
        }
        if raw.chars().any(char::is_control) {
            return Err("Idempotency-Key must not contain control characters");
        }
        Ok(Self(raw.to_owned()))
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

impl Phone {
    pub fn parse(raw: &str) -> Option<Self> {
        if raw.len() > 32 {
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
        assert!(IdempotencyKey::parse("checkout-123").is_ok());
        assert!(IdempotencyKey::parse(&"k".repeat(200)).is_ok());
        assert!(IdempotencyKey::parse(&"k".repeat(201)).is_err());
        assert!(
            IdempotencyKey::parse(&"é".repeat(200)).is_ok(),
            "characters, not bytes"
        );
        assert!(IdempotencyKey::parse("").is_err());
        assert!(IdempotencyKey::parse("a\nb").is_err());
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

    #[test]
    fn codes() {
        assert!(valid_code("demo-store_1.b"));
        assert!(!valid_code(""));
        assert!(!valid_code("with space"));
        assert!(!valid_code(&"a".repeat(65)));
    }
}
