//! CPF and CNPJ, including the alphanumeric CNPJ valid from July 2026.

use crate::text_enum;

text_enum!(
    /// Which tax id a payer has, by the name a PaymentIntent's `payer_kind` stores.
    TaxIdKind {
        Cpf = "CPF",
        Cnpj = "CNPJ",
    }
);

/// A Brazilian tax id with valid check digits, kept without punctuation. Its `Debug` hides
/// the number so that it cannot reach a log by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct TaxId {
    kind: TaxIdKind,
    value: String,
}

impl std::fmt::Debug for TaxId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TaxId({:?}, <redacted>)", self.kind)
    }
}

impl TaxId {
    /// Accepts `.`, `-`, `/` and spaces as punctuation; letters of a CNPJ in either case.
    pub fn parse(raw: &str) -> Option<Self> {
        let value: String = raw
            .chars()
            .filter(|c| !matches!(c, '.' | '-' | '/' | ' '))
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if !value.is_ascii() {
            return None;
        }
        let b = value.as_bytes();
        if b.iter().all(|&c| c == b[0]) {
            return None;
        }
        let kind = match b.len() {
            11 if b.iter().all(u8::is_ascii_digit) && cpf_ok(b) => TaxIdKind::Cpf,
            14 if b[..12]
                .iter()
                .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
                && b[12..].iter().all(u8::is_ascii_digit)
                && cnpj_ok(b) =>
            {
                TaxIdKind::Cnpj
            }
            _ => return None,
        };
        Some(Self { kind, value })
    }

    pub fn kind(&self) -> TaxIdKind {
        self.kind
    }

    pub fn as_str(&self) -> &str {
        &self.value
    }
}

fn cpf_ok(b: &[u8]) -> bool {
    let digit = |n: usize| -> u32 {
        let sum: u32 = b[..n]
            .iter()
            .zip((2..=n as u32 + 1).rev())
            .map(|(&c, w)| u32::from(c - b'0') * w)
            .sum();
        let r = (sum * 10) % 11;
        if r == 10 { 0 } else { r }
    };
    digit(9) == u32::from(b[9] - b'0') && digit(10) == u32::from(b[10] - b'0')
}

fn cnpj_ok(b: &[u8]) -> bool {
    // Each character is worth its ASCII code minus 48 ('0' = 0 ... 'A' = 17 ... 'Z' = 42).
    let digit = |n: usize| -> u32 {
        let weights = [6u32, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
        let sum: u32 = b[..n]
            .iter()
            .zip(&weights[13 - n..])
            .map(|(&c, w)| u32::from(c - b'0') * w)
            .sum();
        let r = sum % 11;
        if r < 2 { 0 } else { 11 - r }
    };
    digit(12) == u32::from(b[12] - b'0') && digit(13) == u32::from(b[13] - b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_valid_and_invalid_tax_ids() {
        let table: &[(&str, Option<TaxIdKind>)] = &[
            // CPF
            ("529.982.247-25", Some(TaxIdKind::Cpf)),
            ("52998224725", Some(TaxIdKind::Cpf)),
            ("111.444.777-35", Some(TaxIdKind::Cpf)),
            ("529.982.247-24", None), // wrong second check digit
            ("529.982.247-15", None), // wrong first check digit
            ("111.111.111-11", None), // all equal, check digits "valid"
            ("000.000.000-00", None),
            ("5299822472", None),   // 10 digits
            ("529982247255", None), // 12 digits
            ("52998224a25", None),  // a letter in a CPF
            // numeric CNPJ
            ("11.222.333/0001-81", Some(TaxIdKind::Cnpj)),
            ("11222333000181", Some(TaxIdKind::Cnpj)),
            ("04.252.011/0001-10", Some(TaxIdKind::Cnpj)),
            ("11.222.333/0001-80", None),
            ("11.111.111/1111-11", None),
            ("00000000000000", None),
            // alphanumeric CNPJ (Receita Federal's published example and variants)
            ("12.ABC.345/01DE-35", Some(TaxIdKind::Cnpj)),
            ("12ABC34501DE35", Some(TaxIdKind::Cnpj)),
            ("12abc34501de35", Some(TaxIdKind::Cnpj)), // letters in either case
            ("12ABC34501DE36", None),
            ("12ABC34501DE3A", None), // check digits are always digits
            ("12ABC34501DÉ35", None),
            // neither
            ("", None),
            ("abc", None),
            ("529.982.247-25 x", None),
        ];
        for (raw, expected) in table {
            assert_eq!(TaxId::parse(raw).map(|t| t.kind()), *expected, "{raw}");
        }
    }

    #[test]
    fn punctuation_is_stripped_and_the_number_never_printed() {
        let t = TaxId::parse("12.abc.345/01de-35").unwrap();
        assert_eq!(t.as_str(), "12ABC34501DE35");
        assert_eq!(format!("{t:?}"), "TaxId(Cnpj, <redacted>)");
    }
}
