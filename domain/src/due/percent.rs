//! A percentage with two decimals, held exactly as an integer.

use std::fmt;

/// A percentage in hundredths of a percent: 2.50 % is `Percent(250)`, 100 % is
/// `Percent(10_000)`. From 0.01 % to 100.00 % ([`Percent::MIN`], [`Percent::MAX`]); a rule
/// may bound it tighter (an abatement or a discount stays below 100 %, see
/// [`super::DueTerms::from_body`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Percent(u32);

/// Why a number is not a [`Percent`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PercentError {
    NotFinite,
    TooManyDecimals,
    BelowMinimum,
    AboveMaximum,
}

impl Percent {
    /// 0.01 %.
    pub const MIN: Percent = Percent(1);
    /// 100.00 %.
    pub const MAX: Percent = Percent(10_000);

    /// From hundredths of a percent, 1 to 10,000.
    pub const fn from_hundredths(hundredths: u32) -> Option<Percent> {
        if hundredths >= Self::MIN.0 && hundredths <= Self::MAX.0 {
            Some(Percent(hundredths))
        } else {
            None
        }
    }

    pub const fn hundredths(self) -> u32 {
        self.0
    }

    /// From a JSON number: at most two decimals, counted on the shortest text that reads back
    /// as the same double (as [`crate::Money::from_brl`] counts them: 2.5 and 2.50 are 250,
    /// 2.505 is refused rather than rounded), from 0.01 to 100.
    pub fn from_f64(value: f64) -> Result<Percent, PercentError> {
        if !value.is_finite() {
            return Err(PercentError::NotFinite);
        }
        if value < 0.01 {
            return Err(PercentError::BelowMinimum);
        }
        if value > 100.0 {
            return Err(PercentError::AboveMaximum);
        }
        // The shortest round-trip text, never in exponent form.
        let text = value.to_string();
        let (units, decimals) = text.split_once('.').unwrap_or((&text, ""));
        if decimals.len() > 2 {
            return Err(PercentError::TooManyDecimals);
        }
        let units: u32 = units.parse().map_err(|_| PercentError::NotFinite)?;
        let hundredths: u32 = format!("{decimals:0<2}")
            .parse()
            .map_err(|_| PercentError::NotFinite)?;
        Percent::from_hundredths(units * 100 + hundredths).ok_or(PercentError::BelowMinimum)
    }

    /// As a JSON number (2.5 for 2.50 %): exact, as [`crate::money::brl`] is for centavos.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

/// `2.50`: the API Pix `valorPerc` form (`\d{1,10}\.\d{2}`).
impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_decimals_from_001_to_100() {
        for (value, hundredths) in [
            (0.01, 1),
            (2.5, 250),
            (2.50, 250),
            (1.0, 100),
            (33.33, 3_333),
            (99.99, 9_999),
            (100.0, 10_000),
        ] {
            assert_eq!(Percent::from_f64(value).unwrap().hundredths(), hundredths);
        }
        for (value, error) in [
            (0.0, PercentError::BelowMinimum),
            (-1.0, PercentError::BelowMinimum),
            (0.009, PercentError::BelowMinimum),
            (100.01, PercentError::AboveMaximum),
            (1e300, PercentError::AboveMaximum),
            (2.505, PercentError::TooManyDecimals),
            (0.015, PercentError::TooManyDecimals),
            (0.1 + 0.2, PercentError::TooManyDecimals),
            (f64::NAN, PercentError::NotFinite),
            (f64::INFINITY, PercentError::NotFinite),
        ] {
            assert_eq!(Percent::from_f64(value), Err(error), "{value}");
        }
        assert_eq!(Percent::from_hundredths(0), None);
        assert_eq!(Percent::from_hundredths(10_001), None);
    }

    #[test]
    fn prints_as_api_pix_valor_perc() {
        assert_eq!(Percent(250).to_string(), "2.50");
        assert_eq!(Percent(1).to_string(), "0.01");
        assert_eq!(Percent(10_000).to_string(), "100.00");
        for h in 1..=10_000 {
            let p = Percent(h);
            assert_eq!(Percent::from_f64(p.as_f64()), Ok(p));
        }
    }
}
