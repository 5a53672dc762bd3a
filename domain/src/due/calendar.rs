//! Brazil's national business-day calendar, as DESIGN.md section 16 states it: every day but
//! Saturdays, Sundays and the national holidays.
//!
//! The holidays: 1 January, 21 April (Tiradentes), 1 May, 7 September, 12 October, 2 November,
//! 15 November, 20 November (Consciência Negra, national from 2024 on: Lei 14.759/2023; an
//! ordinary day in the national calendar before), 25 December, and from Easter Sunday:
//! Carnival Monday and Tuesday (Easter - 48 and - 47), Good Friday (Easter - 2) and Corpus
//! Christi (Easter + 60). Ash Wednesday is a business day. State and municipal holidays are not
//! here: the payer's municipality is unknown to pixgate (see [`super::matches_paid`]).

use super::date::Date;

/// Easter Sunday of `year` in the Gregorian calendar, by the anonymous Gregorian algorithm
/// (Meeus/Jones/Butcher). For years before 1583 it extends the Gregorian rule backwards.
pub fn easter(year: i32) -> Date {
    let y = i64::from(year);
    let a = y % 19;
    let b = y / 100;
    let c = y % 100;
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
    // Always 22 March to 25 April of a year of 1 to 9999: a real day.
    Date::from_ymd(year, month as u32, day as u32).unwrap_or(Date::MIN)
}

/// The national holidays of `year`, in order, each once (Good Friday can be 21 April).
pub fn holidays(year: i32) -> Vec<Date> {
    let mut days: Vec<Date> = [
        (1, 1),
        (4, 21),
        (5, 1),
        (9, 7),
        (10, 12),
        (11, 2),
        (11, 15),
        (12, 25),
    ]
    .into_iter()
    .chain((year >= 2024).then_some((11, 20)))
    .filter_map(|(month, day)| Date::from_ymd(year, month, day))
    .collect();
    let easter = easter(year);
    days.extend([-48, -47, -2, 60].map(|offset| easter.add_days(offset)));
    days.sort();
    days.dedup();
    days
}

/// Whether `date` is a national holiday.
pub fn is_national_holiday(date: Date) -> bool {
    let (year, month, day) = date.ymd();
    let fixed = matches!(
        (month, day),
        (1, 1) | (4, 21) | (5, 1) | (9, 7) | (10, 12) | (11, 2) | (11, 15) | (12, 25)
    ) || (year >= 2024 && (month, day) == (11, 20));
    fixed || {
        let from_easter = easter(year).days_until(date);
        matches!(from_easter, -48 | -47 | -2 | 60)
    }
}

/// Neither Saturday nor Sunday nor a national holiday.
pub fn is_business_day(date: Date) -> bool {
    !date.weekday().is_weekend() && !is_national_holiday(date)
}

/// `date` itself when it is a business day, else the next one. (No run of days off is longer
/// than four, Carnival's Saturday to Tuesday; at [`Date::MAX`] the search stops there.)
pub fn next_business_day_from(date: Date) -> Date {
    let mut day = date;
    while !is_business_day(day) && day < Date::MAX {
        day = day.add_days(1);
    }
    day
}

/// The last business day strictly before `date` ([`Date::MIN`] if none).
pub fn previous_business_day_before(date: Date) -> Date {
    let mut day = date.add_days(-1);
    while !is_business_day(day) && day > Date::MIN {
        day = day.add_days(-1);
    }
    day
}

/// The number of business days `d` with `from <= d < until` (0 when `until <= from`).
///
/// Counted without walking every day: weekdays by whole weeks, less the holidays of each year
/// that fall on a weekday in the range, so a range of years costs a few hundred steps.
pub fn business_days_between(from: Date, until: Date) -> u64 {
    let days = from.days_until(until);
    if days <= 0 {
        return 0;
    }
    let days = days as u64;
    let mut weekdays = days / 7 * 5;
    let mut day = from.add_days((days / 7 * 7) as i64);
    while day < until {
        if !day.weekday().is_weekend() {
            weekdays += 1;
        }
        day = day.add_days(1);
    }
    let last = until.add_days(-1);
    let on_weekdays = (from.year()..=last.year())
        .flat_map(holidays)
        .filter(|h| *h >= from && *h < until && !h.weekday().is_weekend())
        .count() as u64;
    weekdays - on_weekdays
}

/// Business days between the two dates as [`business_days_between`] counts them, walking
/// day by day; for tests of the quick count.
#[cfg(test)]
fn business_days_walked(from: Date, until: Date) -> u64 {
    let mut n = 0;
    let mut day = from;
    while day < until {
        n += u64::from(is_business_day(day));
        day = day.add_days(1);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::due::date::Weekday;

    fn d(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    #[test]
    fn easter_of_known_years() {
        for (year, day) in [
            (1961, "1961-04-02"),
            (2000, "2000-04-23"),
            (2008, "2008-03-23"),
            (2011, "2011-04-24"),
            (2019, "2019-04-21"),
            (2020, "2020-04-12"),
            (2021, "2021-04-04"),
            (2022, "2022-04-17"),
            (2023, "2023-04-09"),
            (2024, "2024-03-31"),
            (2025, "2025-04-20"),
            (2026, "2026-04-05"),
            (2027, "2027-03-28"),
            (2028, "2028-04-16"),
            (2029, "2029-04-01"),
            (2030, "2030-04-21"),
            (2038, "2038-04-25"),
            (2285, "2285-03-22"),
        ] {
            assert_eq!(easter(year), d(day), "{year}");
            assert_eq!(easter(year).weekday(), Weekday::Sunday, "{year}");
        }
    }

    #[test]
    fn the_holidays_of_2027() {
        let expected = [
            "2027-01-01",
            "2027-02-08", // Carnival Monday
            "2027-02-09", // Carnival Tuesday
            "2027-03-26", // Good Friday
            "2027-04-21",
            "2027-05-01",
            "2027-05-27", // Corpus Christi
            "2027-09-07",
            "2027-10-12",
            "2027-11-02",
            "2027-11-15",
            "2027-11-20",
            "2027-12-25",
        ]
        .map(d);
        assert_eq!(holidays(2027), expected);
        for day in expected {
            assert!(is_national_holiday(day), "{day}");
            assert!(!is_business_day(day), "{day}");
        }
        // Ash Wednesday works; Carnival's Saturday and Sunday are weekend days.
        assert!(is_business_day(d("2027-02-10")));
        assert!(!is_national_holiday(d("2027-02-06")));
        // Good Friday on Tiradentes (2000): one holiday.
        assert_eq!(holidays(2000).len(), 11);
        // Consciência Negra is national from 2024.
        assert!(!is_national_holiday(d("2023-11-20")));
        assert!(is_business_day(d("2023-11-20")));
        assert!(is_national_holiday(d("2024-11-20")));
    }

    #[test]
    fn moving_to_business_days() {
        assert_eq!(next_business_day_from(d("2026-11-27")), d("2026-11-27"));
        // Saturday -> Monday.
        assert_eq!(next_business_day_from(d("2026-11-28")), d("2026-11-30"));
        // Carnival 2027: Saturday to Tuesday off, Ash Wednesday works.
        for day in ["2027-02-06", "2027-02-07", "2027-02-08", "2027-02-09"] {
            assert_eq!(next_business_day_from(d(day)), d("2027-02-10"), "{day}");
        }
        // Good Friday 2026 -> Monday.
        assert_eq!(next_business_day_from(d("2026-04-03")), d("2026-04-06"));
        // Christmas 2020 (Friday) -> Monday 28.
        assert_eq!(next_business_day_from(d("2020-12-25")), d("2020-12-28"));
        assert_eq!(
            previous_business_day_before(d("2027-02-10")),
            d("2027-02-05")
        );
        assert_eq!(
            previous_business_day_before(d("2026-11-30")),
            d("2026-11-27")
        );
        assert_eq!(
            previous_business_day_before(d("2026-11-26")),
            d("2026-11-25")
        );
        assert_eq!(next_business_day_from(Date::MAX), Date::MAX);
        assert_eq!(previous_business_day_before(Date::MIN), Date::MIN);
    }

    #[test]
    fn counting_business_days() {
        assert_eq!(business_days_between(d("2027-02-05"), d("2027-02-11")), 2);
        assert_eq!(business_days_between(d("2027-02-11"), d("2027-02-05")), 0);
        assert_eq!(business_days_between(d("2027-02-05"), d("2027-02-05")), 0);
        // 2027: 261 weekdays, less 10 holidays on weekdays (1 May, 20 Nov and 25 Dec are
        // Saturdays).
        assert_eq!(business_days_between(d("2027-01-01"), d("2028-01-01")), 251);
        let start = d("2019-12-20");
        for len in 0..800 {
            let end = start.add_days(len);
            assert_eq!(
                business_days_between(start, end),
                business_days_walked(start, end),
                "{end}"
            );
            assert_eq!(
                business_days_between(end.add_days(-37), end),
                business_days_walked(end.add_days(-37), end),
                "{end}"
            );
        }
    }
}
