/// An amount of BRL, in integer centavos, at least R$ 0.01 and at most R$ 100,000,000.00.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(u64);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoneyError {
    NotFinite,
    TooManyDecimals,
    BelowMinimum,
    AboveMaximum,
}

impl Money {
    pub const MAX_CENTAVOS: u64 = 10_000_000_000;

    /// From a JSON number in BRL. Decimals are counted on the shortest text that reads back
    /// as the same double (what the client most plausibly wrote), so 129.9 and 129.90 are 12990
    /// centavos and 0.015 is refused rather than rounded.
    pub fn from_brl(value: f64) -> Result<Self, MoneyError> {
        if !value.is_finite() {
            return Err(MoneyError::NotFinite);
        }
        if value < 0.01 {
            return Err(MoneyError::BelowMinimum);
        }
        if value > (Self::MAX_CENTAVOS / 100) as f64 {
            return Err(MoneyError::AboveMaximum);
        }
        // Rust prints the shortest round-trip representation, never in exponent form.
        let text = value.to_string();
        let (units, decimals) = text.split_once('.').unwrap_or((&text, ""));
        if decimals.len() > 2 {
            return Err(MoneyError::TooManyDecimals);
        }
        let units: u64 = units.parse().map_err(|_| MoneyError::NotFinite)?;
        let cents: u64 = format!("{decimals:0<2}")
            .parse()
            .map_err(|_| MoneyError::NotFinite)?;
        Ok(Self(units * 100 + cents))
    }

    /// From a JSON number literal in BRL, exactly as written: `129.899999999999999` has more
    /// than two decimals even though its nearest double prints as 129.9. Trailing zeros and
    /// exponents count by value (`129.900` and `1.299e2` are 12990 centavos).
    pub fn from_brl_literal(literal: &str) -> Result<Self, MoneyError> {
        let (negative, unsigned) = match literal.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, literal),
        };
        let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
            Some((m, e)) => (m, Some(e)),
            None => (unsigned, None),
        };
        let (units, decimals) = match mantissa.split_once('.') {
            Some((_, "")) => return Err(MoneyError::NotFinite),
            Some(parts) => parts,
            None => (mantissa, ""),
        };
        let is_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if units.is_empty() || !is_digits(units) || !is_digits(decimals) {
            return Err(MoneyError::NotFinite);
        }
        // The value is `digits` × 10^-scale.
        let digits = format!("{units}{decimals}");
        let digits = digits.trim_start_matches('0');
        let significant = digits.trim_end_matches('0');
        if significant.is_empty() {
            return Err(MoneyError::BelowMinimum);
        }
        if negative {
            return Err(MoneyError::BelowMinimum);
        }
        let exponent: i64 = match exponent {
            None => 0,
            Some(e) => {
                let (sign, magnitude) = match e.strip_prefix('-') {
                    Some(m) => (-1, m),
                    None => (1, e.strip_prefix('+').unwrap_or(e)),
                };
                if magnitude.is_empty() || !is_digits(magnitude) {
                    return Err(MoneyError::NotFinite);
                }
                // Beyond 10^±9999 the verdict is the same as at 10^±9999.
                let magnitude = magnitude.trim_start_matches('0');
                let magnitude: i64 = if magnitude.len() > 4 {
                    9_999
                } else {
                    magnitude.parse().unwrap_or(0)
                };
                sign * magnitude
            }
        };
        let trailing_zeros = (digits.len() - significant.len()) as i64;
        // significant × 10^(power) BRL; centavos need power ≥ -2.
        let power = trailing_zeros - decimals.len() as i64 + exponent;
        if power < -2 {
            return Err(MoneyError::TooManyDecimals);
        }
        let shift = power + 2;
        // 10^10 centavos is the maximum: 11 digits at most.
        if significant.len() as i64 + shift > 11 {
            return Err(MoneyError::AboveMaximum);
        }
        let centavos: u64 = format!("{significant}{}", "0".repeat(shift as usize))
            .parse()
            .map_err(|_| MoneyError::NotFinite)?;
        if centavos > Self::MAX_CENTAVOS {
            return Err(MoneyError::AboveMaximum);
        }
        Ok(Self(centavos))
    }

    /// One centavo, the least amount.
    pub const MIN: Money = Money(1);

    pub fn from_centavos(centavos: u64) -> Option<Self> {
        (1..=Self::MAX_CENTAVOS)
            .contains(&centavos)
            .then_some(Self(centavos))
    }

    pub fn centavos(self) -> u64 {
        self.0
    }

    /// As a JSON number in BRL (exact: every amount here has a shortest form of 2 decimals).
    pub fn brl(self) -> f64 {
        brl(self.0)
    }
}

/// Centavos as BRL for the JSON responses.
pub fn brl(centavos: u64) -> f64 {
    // Dividing an integer below 2^53 by 100 gives the double nearest to the decimal value,
    // whose shortest printed form is that decimal.
    centavos as f64 / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_judged_as_written() {
        let ok = [
            ("129.90", 12990),
            ("129.9", 12990),
            ("129.900000", 12990),
            ("129", 12900),
            ("0.01", 1),
            ("1.299e2", 12990),
            ("1.299E+2", 12990),
            ("12990e-2", 12990),
            ("0.0001e2", 1),
            ("100000000.00", 10_000_000_000),
            ("1e8", 10_000_000_000),
        ];
        for (literal, centavos) in ok {
            assert_eq!(
                Money::from_brl_literal(literal),
                Ok(Money(centavos)),
                "{literal}"
            );
        }
        let refused = [
            ("129.899999999999999", MoneyError::TooManyDecimals),
            ("129.901", MoneyError::TooManyDecimals),
            ("0.015", MoneyError::TooManyDecimals),
            ("1e-3", MoneyError::TooManyDecimals),
            ("1.23456e2", MoneyError::TooManyDecimals),
            ("1e-99999999999999999999", MoneyError::TooManyDecimals),
            ("0", MoneyError::BelowMinimum),
            ("0.00", MoneyError::BelowMinimum),
            ("-1", MoneyError::BelowMinimum),
            ("100000000.01", MoneyError::AboveMaximum),
            ("1e9", MoneyError::AboveMaximum),
            ("1e99999999999999999999", MoneyError::AboveMaximum),
            ("12a", MoneyError::NotFinite),
            ("1.", MoneyError::NotFinite),
            ("1e", MoneyError::NotFinite),
        ];
        for (literal, error) in refused {
            assert_eq!(Money::from_brl_literal(literal), Err(error), "{literal}");
        }
    }

    #[test]
    fn a_literal_with_two_decimals_agrees_with_its_double() {
        for centavos in [1u64, 99, 12990, 10_000_000_000, 123_456_789, 9_999_999_999] {
            let literal = format!("{}.{:02}", centavos / 100, centavos % 100);
            let double: f64 = literal.parse().unwrap();
            assert_eq!(
                Money::from_brl_literal(&literal),
                Money::from_brl(double),
                "{literal}"
            );
        }
    }

    #[test]
    fn two_decimals_at_most() {
        assert_eq!(Money::from_brl(129.9).unwrap().centavos(), 12_990);
        assert_eq!(Money::from_brl(129.99).unwrap().centavos(), 12_999);
        assert_eq!(Money::from_brl(0.01).unwrap().centavos(), 1);
        assert_eq!(
            Money::from_brl(0.1 + 0.2).unwrap_err(),
            MoneyError::TooManyDecimals
        );
        assert_eq!(
            Money::from_brl(1.005).unwrap_err(),
            MoneyError::TooManyDecimals
        );
        assert_eq!(Money::from_brl(10.0).unwrap().centavos(), 1_000);
        assert_eq!(
            Money::from_brl(100_000_000.0).unwrap().centavos(),
            Money::MAX_CENTAVOS
        );
    }

    #[test]
    fn bounds() {
        assert_eq!(Money::from_brl(0.0).unwrap_err(), MoneyError::BelowMinimum);
        assert_eq!(
            Money::from_brl(0.009).unwrap_err(),
            MoneyError::BelowMinimum
        );
        assert_eq!(Money::from_brl(-5.0).unwrap_err(), MoneyError::BelowMinimum);
        assert_eq!(
            Money::from_brl(100_000_000.01).unwrap_err(),
            MoneyError::AboveMaximum
        );
        assert_eq!(
            Money::from_brl(f64::NAN).unwrap_err(),
            MoneyError::NotFinite
        );
        assert_eq!(
            Money::from_brl(1e300).unwrap_err(),
            MoneyError::AboveMaximum
        );
    }

    #[test]
    fn round_trips_through_brl() {
        for c in [
            1,
            10,
            99,
            12_990,
            100_001,
            9_999_999_999,
            Money::MAX_CENTAVOS,
        ] {
            assert_eq!(Money::from_brl(brl(c)).unwrap().centavos(), c, "{c}");
        }
    }
}
