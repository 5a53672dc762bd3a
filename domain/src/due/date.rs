//! A civil date without a time zone, with the arithmetic written out (Howard Hinnant's
//! `days_from_civil` and `civil_from_days`), so the crate needs no time library.

use std::fmt;

/// A day of the proleptic Gregorian calendar, from 0001-01-01 to 9999-12-31: a due date, a
/// payment date, "today" in Brasília. Ordered by time; printed and parsed as `YYYY-MM-DD`.
///
/// Arithmetic saturates at the ends of that range ([`Date::MIN`], [`Date::MAX`]) instead of
/// panicking: no charge comes near them (a due date is at most 9999-12-31 and
/// `daysAfterDue` at most 3,650 days), and every function of this module stays total.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(i32);

/// `Date(2026-12-10)`: the day, not its count.
impl fmt::Debug for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Date({self})")
    }
}

/// A day of the week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

impl Weekday {
    /// Saturday or Sunday.
    pub fn is_weekend(self) -> bool {
        matches!(self, Weekday::Saturday | Weekday::Sunday)
    }
}

/// Days from 1970-01-01 to `y-m-d` (Hinnant's `days_from_civil`). `m` is 1 to 12, `d` 1 to 31.
const fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400; // [0, 399]
    let mp = (m + 9) % 12; // March is 0
    let doy = (153 * mp + 2) / 5 + d - 1; // [0, 365]
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; // [0, 146096]
    era * 146_097 + doe - 719_468
}

/// The civil date `days` after 1970-01-01 (Hinnant's `civil_from_days`).
const fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097; // [0, 146096]
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11]
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Whether `year` has a 29 February.
pub const fn is_leap_year(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// The number of days of `month` (1 to 12) in `year`; 0 for another month.
pub const fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

impl Date {
    /// 0001-01-01.
    pub const MIN: Date = Date(days_from_civil(1, 1, 1) as i32);
    /// 9999-12-31.
    pub const MAX: Date = Date(days_from_civil(9999, 12, 31) as i32);
    /// The smallest year [`Date::parse`] reads.
    pub const PARSE_MIN_YEAR: i32 = 1900;

    /// `year-month-day` when it is a real day from 0001-01-01 to 9999-12-31.
    pub const fn from_ymd(year: i32, month: u32, day: u32) -> Option<Date> {
        if year < 1 || year > 9999 || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        Some(Date(
            days_from_civil(year as i64, month as i64, day as i64) as i32
        ))
    }

    /// Strictly `YYYY-MM-DD`: ten ASCII characters, a year from 1900 to 9999, a real month
    /// and day (29 February only in a leap year). No sign, no time, no blanks.
    pub fn parse(text: &str) -> Option<Date> {
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let number = |range: std::ops::Range<usize>| -> Option<u32> {
            let part = &b[range];
            part.iter().all(u8::is_ascii_digit).then(|| {
                part.iter()
                    .fold(0u32, |n, digit| n * 10 + u32::from(digit - b'0'))
            })
        };
        let year = number(0..4)? as i32;
        if year < Self::PARSE_MIN_YEAR {
            return None;
        }
        Date::from_ymd(year, number(5..7)?, number(8..10)?)
    }

    /// Days since 1970-01-01 (negative before it).
    pub const fn days_since_unix_epoch(self) -> i64 {
        self.0 as i64
    }

    /// The date `days` after 1970-01-01, clamped to [`Date::MIN`]..=[`Date::MAX`].
    pub const fn from_days_since_unix_epoch(days: i64) -> Date {
        if days < Self::MIN.0 as i64 {
            Self::MIN
        } else if days > Self::MAX.0 as i64 {
            Self::MAX
        } else {
            Date(days as i32)
        }
    }

    /// The date in Brasília (UTC-3, with no daylight saving time since 2019; instants of the
    /// former summer times are read at UTC-3 too) of the instant `secs` seconds after the Unix
    /// epoch. Clamped to [`Date::MIN`]..=[`Date::MAX`].
    pub fn from_unix_seconds_brasilia(secs: i64) -> Date {
        let local = i128::from(secs) - 3 * 3_600;
        let days = local.div_euclid(86_400);
        Self::from_days_since_unix_epoch(
            days.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
        )
    }

    /// Year, month (1 to 12) and day (1 to 31).
    pub const fn ymd(self) -> (i32, u32, u32) {
        let (y, m, d) = civil_from_days(self.0 as i64);
        (y as i32, m, d)
    }

    pub const fn year(self) -> i32 {
        self.ymd().0
    }

    pub const fn month(self) -> u32 {
        self.ymd().1
    }

    pub const fn day(self) -> u32 {
        self.ymd().2
    }

    /// `days` later (earlier when negative), saturating at [`Date::MIN`] and [`Date::MAX`].
    pub const fn add_days(self, days: i64) -> Date {
        Self::from_days_since_unix_epoch((self.0 as i64).saturating_add(days))
    }

    /// Calendar days from `self` to `other`: positive when `other` is later.
    pub const fn days_until(self, other: Date) -> i64 {
        other.0 as i64 - self.0 as i64
    }

    pub const fn weekday(self) -> Weekday {
        // 1970-01-01 was a Thursday.
        match (self.0 as i64 + 3).rem_euclid(7) {
            0 => Weekday::Monday,
            1 => Weekday::Tuesday,
            2 => Weekday::Wednesday,
            3 => Weekday::Thursday,
            4 => Weekday::Friday,
            5 => Weekday::Saturday,
            _ => Weekday::Sunday,
        }
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

impl std::str::FromStr for Date {
    type Err = &'static str;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Date::parse(s).ok_or("a date as YYYY-MM-DD")
    }
}

impl serde::Serialize for Date {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Date {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;

        impl serde::de::Visitor<'_> for Visitor {
            type Value = Date;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a date as YYYY-MM-DD")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Date, E> {
                Date::parse(v).ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(v), &self))
            }
        }

        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    #[test]
    fn parses_strictly() {
        for ok in [
            "1900-01-01",
            "2024-02-29",
            "2000-02-29",
            "2026-12-31",
            "9999-12-31",
            "2027-02-08",
        ] {
            assert_eq!(Date::parse(ok).unwrap().to_string(), ok);
        }
        for bad in [
            "",
            "2026-1-01",
            "2026-01-1",
            "26-01-01",
            "2026/01/01",
            "2026-13-01",
            "2026-00-10",
            "2026-01-00",
            "2026-01-32",
            "2026-04-31",
            "2023-02-29",
            "1900-02-29",
            "2100-02-29",
            "1899-12-31",
            "0000-01-01",
            "+202-01-01",
            "2026-01-01T00:00:00",
            " 2026-01-01",
            "2026-01-01 ",
            "２０２６-01-01",
            "2026-0a-01",
            "-026-01-01",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
        assert_eq!(Date::from_ymd(2024, 2, 29), Some(d("2024-02-29")));
        assert_eq!(Date::from_ymd(2023, 2, 29), None);
        assert_eq!(Date::from_ymd(0, 1, 1), None);
        assert_eq!(Date::from_ymd(10_000, 1, 1), None);
        assert_eq!(Date::from_ymd(2026, 0, 1), None);
        assert_eq!(Date::from_ymd(2026, 13, 1), None);
        assert_eq!(Date::from_ymd(1, 1, 1), Some(Date::MIN));
        assert_eq!(Date::MIN.to_string(), "0001-01-01");
        assert_eq!(Date::MAX.to_string(), "9999-12-31");
    }

    #[test]
    fn arithmetic() {
        assert_eq!(d("1970-01-01").days_since_unix_epoch(), 0);
        assert_eq!(d("2000-03-01").days_since_unix_epoch(), 11_017);
        assert_eq!(d("1969-12-31").days_since_unix_epoch(), -1);
        assert_eq!(d("2024-02-28").add_days(1), d("2024-02-29"));
        assert_eq!(d("2024-02-28").add_days(2), d("2024-03-01"));
        assert_eq!(d("2023-02-28").add_days(1), d("2023-03-01"));
        assert_eq!(d("2026-12-31").add_days(1), d("2027-01-01"));
        assert_eq!(d("2027-01-01").add_days(-1), d("2026-12-31"));
        assert_eq!(d("2026-01-01").days_until(d("2027-01-01")), 365);
        assert_eq!(d("2024-01-01").days_until(d("2025-01-01")), 366);
        assert_eq!(d("2025-01-01").days_until(d("2024-01-01")), -366);
        assert_eq!(Date::MAX.add_days(1), Date::MAX);
        assert_eq!(Date::MAX.add_days(i64::MAX), Date::MAX);
        assert_eq!(Date::MIN.add_days(i64::MIN), Date::MIN);
        // Every day of 1900 to 2100 round-trips through its text and its parts.
        let mut day = d("1900-01-01");
        let mut previous: Option<Date> = None;
        while day <= d("2100-12-31") {
            let (y, m, dd) = day.ymd();
            assert_eq!(Date::from_ymd(y, m, dd), Some(day));
            assert_eq!(Date::parse(&day.to_string()), Some(day));
            if let Some(p) = previous {
                assert_eq!(p.days_until(day), 1);
                assert!(p < day);
            }
            previous = Some(day);
            day = day.add_days(1);
        }
    }

    #[test]
    fn weekdays() {
        assert_eq!(d("1970-01-01").weekday(), Weekday::Thursday);
        assert_eq!(d("2026-11-27").weekday(), Weekday::Friday);
        assert_eq!(d("2027-02-08").weekday(), Weekday::Monday);
        assert_eq!(d("2021-08-28").weekday(), Weekday::Saturday);
        assert_eq!(d("2020-10-25").weekday(), Weekday::Sunday);
        assert_eq!(d("1969-12-31").weekday(), Weekday::Wednesday);
        assert_eq!(d("2000-01-01").weekday(), Weekday::Saturday);
        assert!(Weekday::Sunday.is_weekend() && !Weekday::Friday.is_weekend());
    }

    #[test]
    fn brasilia_is_utc_minus_three() {
        // 2026-11-27T02:59:59Z is 23:59:59 on the 26th in Brasília; 03:00:00Z is midnight.
        let midnight_utc = d("2026-11-27").days_since_unix_epoch() * 86_400;
        assert_eq!(
            Date::from_unix_seconds_brasilia(midnight_utc),
            d("2026-11-26")
        );
        assert_eq!(
            Date::from_unix_seconds_brasilia(midnight_utc + 3 * 3_600 - 1),
            d("2026-11-26")
        );
        assert_eq!(
            Date::from_unix_seconds_brasilia(midnight_utc + 3 * 3_600),
            d("2026-11-27")
        );
        assert_eq!(Date::from_unix_seconds_brasilia(0), d("1969-12-31"));
        assert_eq!(Date::from_unix_seconds_brasilia(10_800), d("1970-01-01"));
        assert_eq!(Date::from_unix_seconds_brasilia(i64::MAX), Date::MAX);
        assert_eq!(Date::from_unix_seconds_brasilia(i64::MIN), Date::MIN);
    }

    #[test]
    fn serde_as_text() {
        let day = d("2027-02-08");
        assert_eq!(serde_json::to_string(&day).unwrap(), "\"2027-02-08\"");
        assert_eq!(serde_json::from_str::<Date>("\"2027-02-08\"").unwrap(), day);
        assert!(serde_json::from_str::<Date>("\"2027-02-30\"").is_err());
        assert!(serde_json::from_str::<Date>("20270208").is_err());
        assert_eq!(format!("{day:?}"), "Date(2027-02-08)");
    }
}
