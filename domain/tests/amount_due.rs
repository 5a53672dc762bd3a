//! The amount due of a due-date charge against a model written apart from it: its own civil
//! dates (day by day, Sakamoto's weekday), Easter by Gauss's algorithm (pixgate's uses the
//! anonymous Gregorian one) checked against a table, business days found by walking, and
//! money as `u128` fractions rounded by quotient and remainder. Random charges from 2020 to
//! 2040, paid from 30 days before to 60 days after the due date.

use pixgate_domain::Money;
use pixgate_domain::due::{
    Abatement, Date, Discount, DueTerms, EarlyDiscountModality, Fine, Interest, InterestModality,
    Percent, RuleValue, amount_due, calendar, matches_paid,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// The model's calendar.
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Day {
    y: i32,
    m: u32,
    d: u32,
}

fn leap(y: i32) -> bool {
    y % 400 == 0 || (y % 4 == 0 && y % 100 != 0)
}

fn month_len(y: i32, m: u32) -> u32 {
    const LEN: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if m == 2 && leap(y) {
        29
    } else {
        LEN[m as usize - 1]
    }
}

impl Day {
    fn succ(self) -> Day {
        if self.d < month_len(self.y, self.m) {
            Day {
                d: self.d + 1,
                ..self
            }
        } else if self.m < 12 {
            Day {
                m: self.m + 1,
                d: 1,
                ..self
            }
        } else {
            Day {
                y: self.y + 1,
                m: 1,
                d: 1,
            }
        }
    }

    fn pred(self) -> Day {
        if self.d > 1 {
            Day {
                d: self.d - 1,
                ..self
            }
        } else if self.m > 1 {
            Day {
                m: self.m - 1,
                d: month_len(self.y, self.m - 1),
                ..self
            }
        } else {
            Day {
                y: self.y - 1,
                m: 12,
                d: 31,
            }
        }
    }

    fn plus(self, n: i64) -> Day {
        let mut day = self;
        for _ in 0..n.max(0) {
            day = day.succ();
        }
        for _ in 0..(-n).max(0) {
            day = day.pred();
        }
        day
    }

    /// 0 Sunday to 6 Saturday (Sakamoto).
    fn weekday(self) -> u32 {
        const T: [i32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
        let y = if self.m < 3 { self.y - 1 } else { self.y };
        ((y + y / 4 - y / 100 + y / 400 + T[self.m as usize - 1] + self.d as i32) % 7) as u32
    }

    fn date(self) -> Date {
        Date::from_ymd(self.y, self.m, self.d).unwrap()
    }
}

/// Steps from `a` to `b` (positive when `b` is later).
fn steps(a: Day, b: Day) -> i64 {
    let (mut n, mut day) = (0, a.min(b));
    while day < a.max(b) {
        day = day.succ();
        n += 1;
    }
    if b >= a { n } else { -n }
}

/// Easter Sunday by Gauss's algorithm, with its two exceptions.
fn gauss_easter(year: i32) -> Day {
    let a = year % 19;
    let b = year % 4;
    let c = year % 7;
    let k = year / 100;
    let p = (13 + 8 * k) / 25;
    let q = k / 4;
    let m = (15 - p + k - q).rem_euclid(30);
    let n = (4 + k - q).rem_euclid(7);
    let d = (19 * a + m) % 30;
    let e = (2 * b + 4 * c + 6 * d + n) % 7;
    if d == 29 && e == 6 {
        return Day {
            y: year,
            m: 4,
            d: 19,
        };
    }
    if d == 28 && e == 6 && (11 * m + 11) % 30 < 19 {
        return Day {
            y: year,
            m: 4,
            d: 18,
        };
    }
    let march = 22 + d + e;
    if march <= 31 {
        Day {
            y: year,
            m: 3,
            d: march as u32,
        }
    } else {
        Day {
            y: year,
            m: 4,
            d: (march - 31) as u32,
        }
    }
}

fn holiday(day: Day) -> bool {
    let fixed: &[(u32, u32)] = &[
        (1, 1),
        (4, 21),
        (5, 1),
        (9, 7),
        (10, 12),
        (11, 2),
        (11, 15),
        (12, 25),
    ];
    if fixed.contains(&(day.m, day.d)) || (day.y >= 2024 && (day.m, day.d) == (11, 20)) {
        return true;
    }
    let easter = gauss_easter(day.y);
    [-48, -47, -2, 60]
        .iter()
        .any(|offset| easter.plus(*offset) == day)
}

fn business(day: Day) -> bool {
    let w = day.weekday();
    w != 0 && w != 6 && !holiday(day)
}

fn next_business(day: Day) -> Day {
    let mut day = day;
    while !business(day) {
        day = day.succ();
    }
    day
}

/// Business days `d` with `from < d <= until`, walking.
fn business_after_until(from: Day, until: Day) -> u128 {
    let (mut n, mut day) = (0, from);
    while day < until {
        day = day.succ();
        n += u128::from(business(day));
    }
    n
}

/// Business days `d` with `from <= d < until`, walking.
fn business_from_before(from: Day, until: Day) -> u128 {
    let (mut n, mut day) = (0, from);
    while day < until {
        n += u128::from(business(day));
        day = day.succ();
    }
    n
}

// ---------------------------------------------------------------------------------------
// The model's money: exact fractions, rounded half up by quotient and remainder.
// ---------------------------------------------------------------------------------------

fn half_up(numerator: u128, denominator: u128) -> u128 {
    let (q, r) = (numerator / denominator, numerator % denominator);
    if r * 2 >= denominator { q + 1 } else { q }
}

#[derive(Debug, Clone)]
enum ModelDiscount {
    /// (percent, [(days before the due date, value)]), dates strictly increasing.
    Dates(bool, Vec<(i64, u64)>),
    /// (modality code 3 to 6, value)
    Early(u8, u64),
}

#[derive(Debug, Clone)]
struct Model {
    original: u64,
    due: Day,
    days_after_due: u16,
    /// (percent, value)
    fine: Option<(bool, u64)>,
    /// (API Pix modalidade 1 to 8, value)
    interest: Option<(u8, u64)>,
    /// (percent, value)
    abatement: Option<(bool, u64)>,
    discount: Option<ModelDiscount>,
}

/// (fine, interest, abatement, discount, total, payable)
fn model_amount(m: &Model, pay: Day) -> (u128, u128, u128, u128, u128, bool) {
    let original = u128::from(m.original);
    let moved = next_business(m.due);
    let last = next_business(moved.plus(i64::from(m.days_after_due)));
    let abatement = match m.abatement {
        None => 0,
        Some((false, v)) => u128::from(v),
        Some((true, p)) => half_up(original * u128::from(p), 10_000),
    }
    .min(original - 1);
    let base = original - abatement;
    let late = pay > moved;
    let fine = match m.fine {
        Some((false, v)) if late => u128::from(v),
        Some((true, p)) if late => half_up(base * u128::from(p), 10_000),
        _ => 0,
    };
    let interest = match m.interest {
        Some((code, v)) if late => {
            let business_days = code >= 5;
            let days = if business_days {
                business_after_until(moved, pay)
            } else {
                steps(moved, pay) as u128
            };
            let per = match code {
                1 | 2 | 5 | 6 => 1,
                3 => 30,
                4 => 365,
                7 => 21,
                _ => 252,
            };
            if code == 1 || code == 5 {
                u128::from(v) * days
            } else {
                half_up(base * u128::from(v) * days, 10_000 * per)
            }
        }
        _ => 0,
    };
    let discount = match &m.discount {
        None => 0,
        Some(ModelDiscount::Dates(percent, dates)) => {
            // Dates strictly increasing: the first not before the payment date.
            let mut chosen = 0;
            for (before, v) in dates {
                if pay <= m.due.plus(-before) {
                    chosen = if *percent {
                        half_up(base * u128::from(*v), 10_000)
                    } else {
                        u128::from(*v)
                    };
                    break;
                }
            }
            chosen
        }
        Some(ModelDiscount::Early(code, v)) => {
            let days = if pay >= moved {
                0
            } else if *code == 4 || *code == 6 {
                business_from_before(pay, moved)
            } else {
                steps(pay, moved) as u128
            };
            if *code >= 5 {
                half_up(base * u128::from(*v) * days, 10_000)
            } else {
                u128::from(*v) * days
            }
        }
    };
    let ceiling = base + fine + interest - 1;
    let discount = discount.min(ceiling);
    let total = base + fine + interest - discount;
    (fine, interest, abatement, discount, total, pay <= last)
}

// ---------------------------------------------------------------------------------------
// From the model to pixgate's terms.
// ---------------------------------------------------------------------------------------

fn money(centavos: u64) -> Money {
    Money::from_centavos(centavos).unwrap()
}

fn percent(hundredths: u64) -> Percent {
    Percent::from_hundredths(hundredths as u32).unwrap()
}

fn value(is_percent: bool, v: u64) -> RuleValue {
    if is_percent {
        RuleValue::Percent(percent(v))
    } else {
        RuleValue::Amount(money(v))
    }
}

fn terms(m: &Model) -> DueTerms {
    DueTerms {
        due_date: m.due.date(),
        days_after_due: m.days_after_due,
        fine: m.fine.map(|(p, v)| {
            if p {
                Fine::Percent(percent(v))
            } else {
                Fine::Fixed(money(v))
            }
        }),
        interest: m.interest.map(|(code, v)| {
            let modality = InterestModality::from_api_pix_modality(code).unwrap();
            Interest::new(modality, value(modality.is_percent(), v)).unwrap()
        }),
        abatement: m.abatement.map(|(p, v)| {
            if p {
                Abatement::Percent(percent(v))
            } else {
                Abatement::Fixed(money(v))
            }
        }),
        discount: m.discount.as_ref().map(|discount| match discount {
            ModelDiscount::Dates(p, dates) => Discount::UntilDates {
                percent: *p,
                dates: dates
                    .iter()
                    .map(|(before, v)| (m.due.plus(-before).date(), value(*p, *v)))
                    .collect(),
            },
            ModelDiscount::Early(code, v) => {
                let modality = EarlyDiscountModality::from_api_pix_modality(*code).unwrap();
                Discount::Early {
                    modality,
                    value: value(modality.is_percent(), *v),
                }
            }
        }),
    }
}

// ---------------------------------------------------------------------------------------
// Strategies.
// ---------------------------------------------------------------------------------------

fn day_in(years: std::ops::RangeInclusive<i32>) -> impl Strategy<Value = Day> {
    (years, 1u32..=12, 1u32..=31).prop_map(|(y, m, d)| Day {
        y,
        m,
        d: d.min(month_len(y, m)),
    })
}

fn original() -> impl Strategy<Value = u64> {
    prop_oneof![1u64..=1_000, 1u64..=10_000_000, 1u64..=Money::MAX_CENTAVOS]
}

/// A fixed amount (up to twice the original, to reach the caps) or a percentage.
fn fixed_or_percent(original: u64) -> impl Strategy<Value = (bool, u64)> {
    prop_oneof![
        (Just(false), 1u64..=(original * 2).min(Money::MAX_CENTAVOS)),
        (Just(true), 1u64..=10_000),
        (Just(true), 1u64..=500),
    ]
}

fn model() -> impl Strategy<Value = Model> {
    (original(), day_in(2020..=2040), 0u16..=40)
        .prop_flat_map(|(original, due, days_after_due)| {
            let interest = (1u8..=8).prop_flat_map(move |code| {
                let v = if code == 1 || code == 5 {
                    (1u64..=(original / 10).max(1)).boxed()
                } else {
                    prop_oneof![1u64..=10_000, 1u64..=300].boxed()
                };
                (Just(code), v)
            });
            let dates = (
                any::<bool>(),
                proptest::collection::btree_set(0i64..=40, 1..=3),
            )
                .prop_flat_map(move |(p, offsets)| {
                    let n = offsets.len();
                    let values = proptest::collection::vec(
                        if p {
                            1u64..=9_999
                        } else {
                            1u64..=original.max(1)
                        },
                        n,
                    );
                    (Just(p), Just(offsets), values)
                })
                .prop_map(|(p, offsets, values)| {
                    // Largest offset first: the dates increase.
                    let dates = offsets.into_iter().rev().zip(values).collect();
                    ModelDiscount::Dates(p, dates)
                });
            let early = (3u8..=6).prop_flat_map(move |code| {
                let v = if code >= 5 {
                    (1u64..=9_999).boxed()
                } else {
                    (1u64..=(original / 5).max(1)).boxed()
                };
                (Just(code), v).prop_map(|(code, v)| ModelDiscount::Early(code, v))
            });
            (
                Just(original),
                Just(due),
                Just(days_after_due),
                proptest::option::of(fixed_or_percent(original)),
                proptest::option::of(interest),
                proptest::option::of(
                    fixed_or_percent(original)
                        .prop_map(|(p, v)| (p, if p { v.min(9_999) } else { v })),
                ),
                proptest::option::of(prop_oneof![dates, early]),
            )
        })
        .prop_map(
            |(original, due, days_after_due, fine, interest, abatement, discount)| Model {
                original,
                due,
                days_after_due,
                fine,
                interest,
                abatement,
                discount,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, ..ProptestConfig::default() })]

    #[test]
    fn amount_due_agrees_with_the_model(m in model(), offset in -30i64..=60) {
        let pay = m.due.plus(offset);
        let got = amount_due(money(m.original), &terms(&m), pay.date());
        let (fine, interest, abatement, discount, total, payable) = model_amount(&m, pay);
        prop_assert_eq!(
            (
                u128::from(got.fine),
                u128::from(got.interest),
                u128::from(got.abatement),
                u128::from(got.discount),
                u128::from(got.total),
                got.payable,
            ),
            (fine, interest, abatement, discount, total, payable)
        );
        prop_assert_eq!(got.original, m.original);
        prop_assert_eq!(got.date, pay.date());
        prop_assert!(got.total >= 1);
        prop_assert_eq!(
            got.total,
            got.original + got.fine + got.interest - got.abatement - got.discount
        );
    }

    #[test]
    fn matches_paid_agrees_with_the_model(m in model(), offset in -30i64..=60, off_by in 0u64..=3) {
        let pay = m.due.plus(offset);
        let mut before = pay.pred();
        while !business(before) {
            before = before.pred();
        }
        let (.., on_pay, _) = model_amount(&m, pay);
        let (.., on_before, _) = model_amount(&m, before);
        for candidate in [on_pay, on_before, on_pay + u128::from(off_by), on_before.saturating_sub(u128::from(off_by))] {
            let Ok(c) = u64::try_from(candidate) else { continue };
            let Some(valor) = Money::from_centavos(c) else { continue };
            prop_assert_eq!(
                matches_paid(money(m.original), &terms(&m), pay.date(), valor),
                candidate == on_pay || candidate == on_before
            );
        }
    }

    #[test]
    fn moved_and_last_days_agree_with_the_model(due in day_in(2020..=2040), days_after_due in 0u16..=3_650) {
        let t = DueTerms { days_after_due, ..DueTerms::new(due.date()) };
        let moved = next_business(due);
        prop_assert_eq!(t.moved_due_date(), moved.date());
        prop_assert_eq!(
            t.last_payable_day(),
            next_business(moved.plus(i64::from(days_after_due))).date()
        );
    }

    #[test]
    fn business_day_counts_agree_with_walking(from in day_in(2019..=2041), len in 0i64..=800) {
        let until = from.plus(len);
        prop_assert_eq!(
            u128::from(calendar::business_days_between(from.date(), until.date())),
            business_from_before(from, until)
        );
        prop_assert_eq!(calendar::business_days_between(until.date(), from.date()), 0);
    }

    #[test]
    fn brasilia_dates_agree_with_the_model(secs in -2_208_988_800i64..=4_102_444_800) {
        // The model: whole days from 1970-01-01 at 03:00 UTC, walked.
        let days = (secs - 10_800).div_euclid(86_400);
        let expected = Day { y: 1970, m: 1, d: 1 }.plus(days);
        prop_assert_eq!(Date::from_unix_seconds_brasilia(secs), expected.date());
        prop_assert_eq!(Date::parse(&format!("{:04}-{:02}-{:02}", expected.y, expected.m, expected.d)), Some(expected.date()));
    }
}

#[test]
fn gauss_agrees_with_a_table_of_easter_sundays() {
    let table = [
        (2019, 4, 21),
        (2020, 4, 12),
        (2021, 4, 4),
        (2022, 4, 17),
        (2023, 4, 9),
        (2024, 3, 31),
        (2025, 4, 20),
        (2026, 4, 5),
        (2027, 3, 28),
        (2028, 4, 16),
        (2029, 4, 1),
        (2030, 4, 21),
        (2031, 4, 13),
        (2032, 3, 28),
        (2033, 4, 17),
        (2034, 4, 9),
        (2035, 3, 25),
        (2036, 4, 13),
        (2037, 4, 5),
        (2038, 4, 25),
        (2039, 4, 10),
        (2040, 4, 1),
        (2041, 4, 21),
        // Gauss's exceptions: 1981 (d = 29, e = 6) and 1954 (d = 28, e = 6).
        (1981, 4, 19),
        (1954, 4, 18),
    ];
    for (y, m, d) in table {
        assert_eq!(gauss_easter(y), Day { y, m, d }, "{y}");
        assert_eq!(calendar::easter(y), Day { y, m, d }.date(), "{y}");
    }
}

#[test]
fn easter_agrees_with_gauss_for_every_gregorian_year() {
    for year in 1583..=9999 {
        let g = gauss_easter(year);
        assert_eq!(calendar::easter(year), g.date(), "{year}");
        assert_eq!(g.weekday(), 0, "{year}");
    }
}

#[test]
fn every_day_from_2019_to_2041_is_judged_as_the_model_judges_it() {
    let mut day = Day {
        y: 2019,
        m: 1,
        d: 1,
    };
    let mut date = day.date();
    while day.y <= 2041 {
        assert_eq!(day.date(), date, "{day:?}");
        assert_eq!(calendar::is_business_day(date), business(day), "{date}");
        assert_eq!(
            calendar::next_business_day_from(date),
            next_business(day).date(),
            "{date}"
        );
        let mut before = day.pred();
        while !business(before) {
            before = before.pred();
        }
        assert_eq!(
            calendar::previous_business_day_before(date),
            before.date(),
            "{date}"
        );
        assert_eq!(
            date.to_string(),
            format!("{:04}-{:02}-{:02}", day.y, day.m, day.d)
        );
        day = day.succ();
        date = date.add_days(1);
    }
}
