//! What an operator may be called (DESIGN.md section 13): printable, no space first or last,
//! never a reserved name, and compared regardless of case, compatibility forms and spacing.

use pixgate_domain::json::Invalid;

/// An operator's name as the document states it ([`CreateOperator`] repeats it as a literal):
/// a character [`refused_in_a_name`] nowhere, and a space character neither first nor last.
/// Astral ranges are written as the characters themselves (JSON Schema's, Python's and Rust's
/// regular expressions agree on those, not on an escape for them). A test holds it to the rule
/// character by character.
pub const OPERATOR_NAME_PATTERN: &str = "^[^\\u0000-\\u0020\\u007F-\\u00A0\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u1680\\u180E\\u2000-\\u200F\\u2028-\\u202F\\u205F-\\u2064\\u2066-\\u206F\\u3000\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}\u{E0020}-\u{E007F}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}](?:[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}\u{E0020}-\u{E007F}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]*[^\\u0000-\\u0020\\u007F-\\u00A0\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u1680\\u180E\\u2000-\\u200F\\u2028-\\u202F\\u205F-\\u2064\\u2066-\\u206F\\u3000\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}\u{E0020}-\u{E007F}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}])?$";

/// The longest operator name, in characters.
const OPERATOR_NAME_MAX_CHARS: usize = 120;

/// Whether `c` may not appear in an operator's name: not printable, or printable as nothing
/// (control, format such as zero-width and bidirectional marks, private use, line and
/// paragraph separators). Unassigned code points are not refused: their set changes with each
/// Unicode version, and the document's pattern could not state it.
fn refused_in_a_name(c: char) -> bool {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    matches!(
        c.general_category(),
        G::Control
            | G::Format
            | G::PrivateUse
            | G::Surrogate
            | G::LineSeparator
            | G::ParagraphSeparator
    )
}

/// Whether `c` may not start or end an operator's name: a refused character or a space.
fn refused_at_an_end(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    refused_in_a_name(c) || c.general_category() == GeneralCategory::SpaceSeparator
}

/// Names no operator may take, as [`name_key`] writes them: the bootstrap token's and the
/// roles', which the audit trail would show as if they had acted.
const RESERVED_NAMES: [&str; 9] = [
    "admin",
    "administrator",
    "root",
    "system",
    "pixgate",
    "kill switch",
    "viewer",
    "tester",
    "operator",
];

/// Words no operator name may contain (in [`name_key`]'s form): "Bootstrap admin token (2)"
/// is still the bootstrap token to a reader of the trail.
const RESERVED_WORDS: [&str; 2] = ["bootstrap", "admin token"];

/// The form two operator names are compared in: compatibility forms folded (NFKC: a
/// full-width `Ａ` is `A`), lower case, runs of spaces as one space. Unique among the
/// operators not revoked (migration 0014's `name_key`).
pub(super) fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let folded: String = name.nfkc().collect::<String>().to_lowercase();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The name of a new operator, or why it is refused (`invalid_name`, the message says why).
pub(super) fn check_operator_name(name: &str) -> Result<String, Invalid> {
    let invalid = |why: String| Invalid::new("invalid_name", "name", why);
    let chars = name.chars().count();
    if !(1..=OPERATOR_NAME_MAX_CHARS).contains(&chars) {
        return Err(invalid(format!(
            "`name` must have 1 to {OPERATOR_NAME_MAX_CHARS} characters"
        )));
    }
    if let Some((at, c)) = name
        .chars()
        .enumerate()
        .find(|(_, c)| refused_in_a_name(*c))
    {
        return Err(invalid(format!(
            "`name` must hold printable characters only: U+{:04X} at position {} is a control, \
             format (zero-width, bidirectional), private-use or line-separator character",
            u32::from(c),
            at + 1
        )));
    }
    let first = name.chars().next().is_some_and(refused_at_an_end);
    let last = name.chars().next_back().is_some_and(refused_at_an_end);
    if first || last {
        return Err(invalid(
            "`name` must not start or end with a space".to_owned(),
        ));
    }
    let key = name_key(name);
    if RESERVED_NAMES.contains(&key.as_str()) || RESERVED_WORDS.iter().any(|w| key.contains(w)) {
        return Err(invalid(format!(
            "`name` is reserved: `{key}` could be read as the bootstrap admin token or a role \
             (`bootstrap`, `admin token`, `admin` and the role names are not operator names)"
        )));
    }
    Ok(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::Actor;
    use regex::Regex;

    #[test]
    fn the_operator_name_pattern_refuses_exactly_what_the_rule_refuses() {
        let pattern = Regex::new(OPERATOR_NAME_PATTERN).unwrap();
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let alone = c.to_string();
            assert_eq!(
                pattern.is_match(&alone),
                !refused_at_an_end(c),
                "U+{:04X} alone",
                u32::from(c)
            );
            assert_eq!(
                pattern.is_match(&format!("a{c}b")),
                !refused_in_a_name(c),
                "U+{:04X} inside",
                u32::from(c)
            );
        }
        for (name, ok) in [
            ("Ana Silva", true),
            ("A", true),
            ("Ana ", false),
            ("", false),
        ] {
            assert_eq!(pattern.is_match(name), ok, "{name:?}");
            assert_eq!(check_operator_name(name).is_ok(), ok, "{name:?}");
        }
    }

    #[test]
    fn names_are_compared_regardless_of_case_compatibility_forms_and_spacing() {
        assert_eq!(name_key("Ana  SILVA"), "ana silva");
        assert_eq!(name_key("\u{FF21}na\u{A0}Silva"), "ana silva");
        assert_eq!(name_key("ÉLodie"), name_key("élodie"));
        assert_ne!(name_key("Ana Silva"), name_key("Ana Silvia"));
    }

    #[test]
    fn reserved_names_are_refused_in_any_case_and_spacing() {
        for name in [
            "bootstrap",
            "BOOTSTRAP",
            "bootstrap admin token",
            "Bootstrap   Admin Token",
            "the bootstrap",
            "admin token",
            "Admin",
            "operator",
        ] {
            let why = check_operator_name(name).unwrap_err();
            assert_eq!(why.code, "invalid_name");
            assert!(why.message.contains("reserved"), "{name}: {}", why.message);
        }
        assert_eq!(check_operator_name("Admina"), Ok("Admina".to_owned()));
        assert!(check_operator_name(&Actor::bootstrap().name).is_err());
    }
}
