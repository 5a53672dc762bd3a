//! Dates without a time-zone library: day numbers since 1970-01-01 (proleptic Gregorian),
//! the Brasília civil date of an instant, business days and Brazil's national bank holidays.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Brasília has been UTC-3 all year since daylight saving time ended in 2019.
const BRASILIA_OFFSET_MS: i64 = -3 * 3_600_000;

/// A civil date as days since 1970-01-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i64);

impl Day {
    pub fn from_ymd(year: i64, month: u32, day: u32) -> Day {
        // Howard Hinnant's days_from_civil.
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Day(era * 146_097 + doe - 719_468)
    }

    pub fn ymd(self) -> (i64, u32, u32) {
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        (year, month, day)
    }

    /// The Brasília civil date of a Unix time in milliseconds.
    pub fn brasilia(unix_ms: i64) -> Day {
        Day((unix_ms + BRASILIA_OFFSET_MS).div_euclid(86_400_000))
    }

    /// 0 = Monday ... 6 = Sunday.
    pub fn weekday(self) -> u32 {
        // 1970-01-01 was a Thursday.
        (self.0 + 3).rem_euclid(7) as u32
    }

    pub fn is_weekend(self) -> bool {
        self.weekday() >= 5
    }

    /// Parses `YYYY-MM-DD`, checking that the day exists. Byte arithmetic rather than
    /// `str::parse`: the economics step parses every holiday on every call.
    pub fn parse(text: &str) -> Option<Day> {
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let num = |digits: &[u8]| -> Option<u32> {
            digits.iter().try_fold(0u32, |acc, &c| {
                c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
            })
        };
        let (y, m, d) = (i64::from(num(&b[0..4])?), num(&b[5..7])?, num(&b[8..10])?);
        if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
            return None;
        }
        Some(Day::from_ymd(y, m, d))
    }

    /// `YYYY-MM-DD` (years 0 to 9999).
    pub fn iso(self) -> String {
        let (y, m, d) = self.ymd();
        let y = y.clamp(0, 9999) as u32;
        let digits = [
            y / 1000,
            y / 100 % 10,
            y / 10 % 10,
            y % 10,
            10,
            m / 10,
            m % 10,
            10,
            d / 10,
            d % 10,
        ];
        digits
            .iter()
            .map(|&n| {
                if n == 10 {
                    '-'
                } else {
                    char::from(b'0' + n as u8)
                }
            })
            .collect()
    }
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

impl core::fmt::Display for Day {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.iso())
    }
}

/// Easter Sunday (anonymous Gregorian algorithm).
fn easter(year: i64) -> Day {
    let a = year % 19;
    let b = year / 100;
    let c = year % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    Day::from_ymd(year, month as u32, day as u32)
}

/// The days Brazilian banks do not settle in `year`: the national holidays (including
/// 20 November since 2024) plus Carnival Monday and Tuesday, Good Friday and Corpus Christi.
/// Ascending.
pub fn br_bank_holidays(year: i64) -> Vec<Day> {
    let e = easter(year);
    let mut days = vec![
        Day::from_ymd(year, 1, 1),
        Day(e.0 - 48),
        Day(e.0 - 47),
        Day(e.0 - 2),
        Day::from_ymd(year, 4, 21),
        Day::from_ymd(year, 5, 1),
        Day(e.0 + 60),
        Day::from_ymd(year, 9, 7),
        Day::from_ymd(year, 10, 12),
        Day::from_ymd(year, 11, 2),
        Day::from_ymd(year, 11, 15),
        Day::from_ymd(year, 12, 25),
    ];
    if year >= 2024 {
        days.push(Day::from_ymd(year, 11, 20));
    }
    days.sort();
    days
}

/// Settlement date of an instant in release class D`n`: the first business day on or after
/// the Brasília date, then `n` business days more.
pub fn settlement_day(unix_ms: i64, business_days: u32, holidays: &[Day]) -> Day {
    let is_business = |d: Day| !d.is_weekend() && holidays.binary_search(&d).is_err();
    let mut day = Day::brasilia(unix_ms);
    while !is_business(day) {
        day.0 += 1;
    }
    for _ in 0..business_days {
        day.0 += 1;
        while !is_business(day) {
            day.0 += 1;
        }
    }
    day
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_round_trip() {
        for n in -800_000..800_000 {
            let d = Day(n);
            let (y, m, dd) = d.ymd();
            assert_eq!(Day::from_ymd(y, m, dd), d);
        }
        assert_eq!(Day::from_ymd(1970, 1, 1), Day(0));
        assert_eq!(Day::from_ymd(2026, 11, 22).to_string(), "2026-11-22");
    }

    #[test]
    fn weekdays_are_right() {
        assert_eq!(Day::from_ymd(2026, 11, 22).weekday(), 6); // a Sunday
        assert_eq!(Day::from_ymd(2026, 11, 23).weekday(), 0); // a Monday
    }

    #[test]
    fn parse_rejects_impossible_dates() {
        assert_eq!(Day::parse("2026-02-28"), Some(Day::from_ymd(2026, 2, 28)));
        assert_eq!(Day::parse("2026-02-29"), None);
        assert_eq!(Day::parse("2028-02-29"), Some(Day::from_ymd(2028, 2, 29)));
        assert_eq!(Day::parse("2026-13-01"), None);
        assert_eq!(Day::parse("2026-1-01"), None);
        assert_eq!(Day::parse("+026-01-01"), None);
        assert_eq!(Day::parse("2026-04-31"), None);
        assert_eq!(Day::parse("2100-02-29"), None);
        assert_eq!(Day::parse("2000-02-29"), Some(Day::from_ymd(2000, 2, 29)));
        for n in [-719_468, 0, 20_000, 2_932_896] {
            assert_eq!(Day::parse(&Day(n).iso()), Some(Day(n)), "{n}");
        }
    }

    #[test]
    fn brasilia_date_is_three_hours_behind_utc() {
        // 2026-11-23 02:59:59 UTC is still the 22nd in Brasília.
        let ms = Day::from_ymd(2026, 11, 23).0 * 86_400_000 + (2 * 3600 + 3599) * 1000;
        assert_eq!(Day::brasilia(ms), Day::from_ymd(2026, 11, 22));
        assert_eq!(Day::brasilia(ms + 1000), Day::from_ymd(2026, 11, 23));
    }

    #[test]
    fn moveable_holidays_follow_easter() {
        assert_eq!(easter(2026), Day::from_ymd(2026, 4, 5));
        assert_eq!(easter(2027), Day::from_ymd(2027, 3, 28));
        let h = br_bank_holidays(2026);
        for d in [
            "2026-02-16",
            "2026-02-17",
            "2026-04-03",
            "2026-06-04",
            "2026-11-20",
        ] {
            assert!(h.contains(&Day::parse(d).unwrap()), "{d}");
        }
        assert!(h.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn settlement_skips_weekends_and_holidays() {
        let noon = |d: Day| d.0 * 86_400_000 + 15 * 3_600_000; // 12:00 in Brasília
        let h = br_bank_holidays(2026);
        let friday = Day::from_ymd(2026, 11, 13);
        // D0 on a business day is the same day.
        assert_eq!(settlement_day(noon(friday), 0, &h), friday);
        // D1 from Friday 13 Nov skips the weekend and Monday's holiday? 16 Nov is not a
        // holiday, so it lands on Monday.
        assert_eq!(
            settlement_day(noon(friday), 1, &h),
            Day::from_ymd(2026, 11, 16)
        );
        // D0 on Sunday 15 Nov (a holiday too) moves to Monday 16.
        assert_eq!(
            settlement_day(noon(Day::from_ymd(2026, 11, 15)), 0, &h),
            Day::from_ymd(2026, 11, 16)
        );
        // D1 from Thursday 19 Nov skips Friday 20 (Black Consciousness Day) and the weekend.
        assert_eq!(
            settlement_day(noon(Day::from_ymd(2026, 11, 19)), 1, &h),
            Day::from_ymd(2026, 11, 23)
        );
        // Without the holiday list only weekends count.
        assert_eq!(
            settlement_day(noon(Day::from_ymd(2026, 11, 19)), 1, &[]),
            Day::from_ymd(2026, 11, 20)
        );
    }
}
