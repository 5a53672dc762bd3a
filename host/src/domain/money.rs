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
