//! Table tests: API Pix's own examples, every modality before, on and after the due date,
//! due dates on days off, the caps, and every refusal of the body.

use serde_json::{Value, json};

use super::*;
use crate::Money;
use crate::json::Invalid;

fn d(text: &str) -> Date {
    Date::parse(text).unwrap()
}

fn brl(centavos: u64) -> Money {
    Money::from_centavos(centavos).unwrap()
}

fn pct(hundredths: u32) -> Percent {
    Percent::from_hundredths(hundredths).unwrap()
}

/// (fine, interest, abatement, discount, total) in centavos.
fn parts(a: &AmountDue) -> (u64, u64, u64, u64, u64) {
    (a.fine, a.interest, a.abatement, a.discount, a.total)
}

// ---------------------------------------------------------------------------------------
// API Pix 2.9.0 (bacen/pix-api openapi.yaml at 0d74e5e): the validity examples A-G of
// `CobDataDeVencimento.validadeAposVencimento`, lines 5316-5440 (F and G as fixed after
// bacen/pix-api#485). Each row: the due date, `validadeAposVencimento`, then every day of
// the example with "aceito" (true) or "negado" (false).
// ---------------------------------------------------------------------------------------

#[test]
fn api_pix_validity_examples_a_to_g() {
    type Example = (
        &'static str,
        &'static str,
        u16,
        &'static [(&'static str, bool)],
    );
    let examples: [Example; 7] = [
        // Exemplo A, lines 5330-5344: a Tuesday, 4 days; the fourth day is a Saturday, moved
        // to Monday.
        (
            "A",
            "2020-10-20",
            4,
            &[
                ("2020-10-20", true),
                ("2020-10-21", true),
                ("2020-10-22", true),
                ("2020-10-23", true),
                ("2020-10-24", true),
                ("2020-10-25", true),
                ("2020-10-26", true),
                ("2020-10-27", false),
            ],
        ),
        // Exemplo B, lines 5346-5357: Christmas (a Friday), 0 days: moved to Monday 28.
        (
            "B",
            "2020-12-25",
            0,
            &[
                ("2020-12-25", true),
                ("2020-12-26", true),
                ("2020-12-27", true),
                ("2020-12-28", true),
                ("2020-12-29", false),
            ],
        ),
        // Exemplo C, lines 5359-5371.
        (
            "C",
            "2020-12-25",
            1,
            &[
                ("2020-12-25", true),
                ("2020-12-26", true),
                ("2020-12-27", true),
                ("2020-12-28", true),
                ("2020-12-29", true),
                ("2020-12-30", false),
            ],
        ),
        // Exemplo D, lines 5373-5387.
        (
            "D",
            "2020-12-25",
            3,
            &[
                ("2020-12-25", true),
                ("2020-12-26", true),
                ("2020-12-27", true),
                ("2020-12-28", true),
                ("2020-12-29", true),
                ("2020-12-30", true),
                ("2020-12-31", true),
                ("2021-01-01", false),
            ],
        ),
        // Exemplo E, lines 5389-5407: the last day is 1 January, moved to Monday 4.
        (
            "E",
            "2020-12-25",
            4,
            &[
                ("2020-12-25", true),
                ("2020-12-26", true),
                ("2020-12-27", true),
                ("2020-12-28", true),
                ("2020-12-29", true),
                ("2020-12-30", true),
                ("2020-12-31", true),
                ("2021-01-01", true),
                ("2021-01-02", true),
                ("2021-01-03", true),
                ("2021-01-04", true),
                ("2021-01-05", false),
            ],
        ),
        // Exemplo F, lines 5409-5422: a Friday; the validity counts calendar days, the
        // weekend included (bacen/pix-api#485).
        (
            "F",
            "2021-08-27",
            5,
            &[
                ("2021-08-27", true),
                ("2021-08-28", true),
                ("2021-08-29", true),
                ("2021-08-30", true),
                ("2021-08-31", true),
                ("2021-09-01", true),
                ("2021-09-02", false),
            ],
        ),
        // Exemplo G, lines 5424-5440: a Saturday, moved to Monday 30; 30 + 5 is Saturday 4
        // September, moved to Monday 6. (The example stops at the 6th; the 7th is a holiday
        // and is after the last payable day.)
        (
            "G",
            "2021-08-28",
            5,
            &[
                ("2021-08-28", true),
                ("2021-08-29", true),
                ("2021-08-30", true),
                ("2021-08-31", true),
                ("2021-09-01", true),
                ("2021-09-02", true),
                ("2021-09-03", true),
                ("2021-09-04", true),
                ("2021-09-05", true),
                ("2021-09-06", true),
                ("2021-09-07", false),
            ],
        ),
    ];
    for (name, due, days_after_due, days) in examples {
        let terms = DueTerms {
            days_after_due,
            ..DueTerms::new(d(due))
        };
        for (day, accepted) in days {
            assert_eq!(
                terms.is_payable_on(d(day)),
                *accepted,
                "example {name}: {day}"
            );
            assert_eq!(
                amount_due(brl(10_000), &terms, d(day)).payable,
                *accepted,
                "example {name}: {day}"
            );
        }
    }
    // The moved due dates the examples mark with (*).
    assert_eq!(
        DueTerms::new(d("2020-10-20")).moved_due_date(),
        d("2020-10-20")
    );
    assert_eq!(
        DueTerms::new(d("2020-12-25")).moved_due_date(),
        d("2020-12-28")
    );
    assert_eq!(
        DueTerms::new(d("2021-08-27")).moved_due_date(),
        d("2021-08-27")
    );
    assert_eq!(
        DueTerms::new(d("2021-08-28")).moved_due_date(),
        d("2021-08-30")
    );
}

/// API Pix's `CobPayloadOperacaoInvalida` (lines 143-149) calls `DPP` 2021-01-05 invalid for
/// `dataDeVencimento` 2020-12-25 with `validadeAposVencimento` 10, counting the ten days from
/// the unmoved due date. Examples B-E count them from the moved one (Monday 28), which is
/// what DESIGN.md section 16 follows: payable through Thursday 7 January.
#[test]
fn the_dpp_example_counts_from_the_unmoved_due_date_and_pixgate_does_not() {
    let terms = DueTerms {
        days_after_due: 10,
        ..DueTerms::new(d("2020-12-25"))
    };
    assert_eq!(terms.last_payable_day(), d("2021-01-07"));
    assert!(terms.is_payable_on(d("2021-01-05")));
    assert!(!terms.is_payable_on(d("2021-01-08")));
}

/// The `componentesValor` example of `Pix` (lines 8109-8213, the cobv case at 8198-8213):
/// R$ 100.00 two days late with a 3 % fine and 1 % a day interest: original 100.00, multa
/// 3.00, juros 2.00, valor 105.00.
#[test]
fn api_pix_componentes_valor_example() {
    for modality in [
        InterestModality::PercentPerCalendarDay,
        InterestModality::PercentPerBusinessDay,
    ] {
        let terms = DueTerms {
            fine: Some(Fine::Percent(pct(300))),
            interest: Some(Interest {
                modality,
                value: RuleValue::Percent(pct(100)),
            }),
            // Tuesday; paid on Thursday, two days (calendar and business) late.
            ..DueTerms::new(d("2020-12-01"))
        };
        let due = amount_due(brl(10_000), &terms, d("2020-12-03"));
        assert_eq!(
            (
                due.original,
                due.fine,
                due.interest,
                due.abatement,
                due.discount,
                due.total
            ),
            (10_000, 300, 200, 0, 0, 10_500),
            "{modality:?}"
        );
        assert_eq!(
            serde_json::to_value(due).unwrap(),
            json!({"date": "2020-12-03", "original": 100.0, "fine": 3.0, "interest": 2.0,
                   "abatement": 0.0, "discount": 0.0, "total": 105.0, "payable": true})
        );
        assert_eq!(
            serde_json::to_value(due.components()).unwrap(),
            json!({"original": 100.0, "fine": 3.0, "interest": 2.0, "abatement": 0.0,
                   "discount": 0.0})
        );
        assert!(matches_paid(
            brl(10_000),
            &terms,
            d("2020-12-03"),
            brl(10_500)
        ));
    }
}

/// The cobv payload example `cobPayload2` (lines 4141-4170): `dataDeVencimento` 2020-12-31,
/// original 123.45, multa 15.00, juros 2.00, final 140.45: read as a fixed fine of 15.00 and
/// 1.00 a calendar day, paid on Saturday 2 January (two calendar days after the due date; 1
/// January is a holiday).
#[test]
fn api_pix_cob_payload_example() {
    let terms = DueTerms {
        fine: Some(Fine::Fixed(brl(1_500))),
        interest: Some(Interest {
            modality: InterestModality::AmountPerCalendarDay,
            value: RuleValue::Amount(brl(100)),
        }),
        ..DueTerms::new(d("2020-12-31"))
    };
    let due = amount_due(brl(12_345), &terms, d("2021-01-02"));
    assert_eq!(parts(&due), (1_500, 200, 0, 0, 14_045));
    // Per business day, the same payment is 0 days late: 1 January is a holiday, the 2nd a
    // Saturday.
    let business = DueTerms {
        interest: Some(Interest {
            modality: InterestModality::AmountPerBusinessDay,
            value: RuleValue::Amount(brl(100)),
        }),
        ..terms.clone()
    };
    assert_eq!(
        parts(&amount_due(brl(12_345), &business, d("2021-01-02"))),
        (1_500, 0, 0, 0, 13_845)
    );
    assert_eq!(
        parts(&amount_due(brl(12_345), &business, d("2021-01-04"))),
        (1_500, 100, 0, 0, 13_945)
    );
}

/// The cobv creation example `cobBody1` (lines 2893-2920): original 123.45, `multa`
/// modalidade 2 (percent) 15.00, `juros` modalidade 2 (percent a calendar day) 2.00, `desconto`
/// modalidade 1 (fixed until dates) 30.00 until 2020-11-30, due 2020-12-31, valid 30 days after.
/// (`cobPayload2`'s `multa` 15.00 and `juros` 2.00 repeat these `valorPerc` as amounts; with
/// this charge's rules the amounts on 2 January are 18.52 and 4.94.)
#[test]
fn api_pix_cob_body_example() {
    let terms = DueTerms {
        due_date: d("2020-12-31"),
        days_after_due: 30,
        fine: Some(Fine::from_api_pix(2, RuleValue::Percent(pct(1_500))).unwrap()),
        interest: Some(Interest {
            modality: InterestModality::from_api_pix_modality(2).unwrap(),
            value: RuleValue::Percent(pct(200)),
        }),
        abatement: None,
        discount: Some(Discount::UntilDates {
            percent: false,
            dates: vec![(d("2020-11-30"), RuleValue::Amount(brl(3_000)))],
        }),
    };
    let original = brl(12_345);
    for (day, expected) in [
        ("2020-11-30", (0, 0, 0, 3_000, 9_345)),
        ("2020-12-01", (0, 0, 0, 0, 12_345)),
        ("2020-12-31", (0, 0, 0, 0, 12_345)),
        // 15 % of 123.45 is 18.5175; 2 % of it a day for 2 days is 4.938.
        ("2021-01-02", (1_852, 494, 0, 0, 14_691)),
    ] {
        assert_eq!(
            parts(&amount_due(original, &terms, d(day))),
            expected,
            "{day}"
        );
    }
    // 31 December + 30 is Saturday 30 January, moved to Monday 1 February.
    assert_eq!(terms.last_payable_day(), d("2021-02-01"));
    assert!(amount_due(original, &terms, d("2021-02-01")).payable);
    assert!(!amount_due(original, &terms, d("2021-02-02")).payable);
}

// ---------------------------------------------------------------------------------------
// Every modality before, on and after the due date. The charge: R$ 1,000.00 due Thursday
// 2026-12-10 (a business day). Before: Thursday 3 December, 7 calendar days and 5 business
// days (3, 4, 7, 8, 9) early. After: Thursday 17 December, 7 calendar days and 5 business
// days (11, 14, 15, 16, 17) late.
// ---------------------------------------------------------------------------------------

const DUE: &str = "2026-12-10";
const BEFORE: &str = "2026-12-03";
const AFTER: &str = "2026-12-17";
const THOUSAND: u64 = 100_000;

/// Checks (fine, interest, abatement, discount, total) before, on and after the due date.
fn before_on_after(terms: &DueTerms, expected: [(u64, u64, u64, u64, u64); 3], what: &str) {
    for (day, expected) in [BEFORE, DUE, AFTER].into_iter().zip(expected) {
        let due = amount_due(brl(THOUSAND), terms, d(day));
        assert_eq!(parts(&due), expected, "{what} on {day}");
        assert_eq!(
            due.total,
            due.original + due.fine + due.interest - due.abatement - due.discount,
            "{what} on {day}"
        );
        assert!(due.payable);
    }
}

#[test]
fn fines() {
    let terms = |fine| DueTerms {
        fine: Some(fine),
        ..DueTerms::new(d(DUE))
    };
    before_on_after(
        &terms(Fine::Fixed(brl(2_550))),
        [
            (0, 0, 0, 0, THOUSAND),
            (0, 0, 0, 0, THOUSAND),
            (2_550, 0, 0, 0, 102_550),
        ],
        "FIXED 25.50",
    );
    before_on_after(
        &terms(Fine::Percent(pct(200))),
        [
            (0, 0, 0, 0, THOUSAND),
            (0, 0, 0, 0, THOUSAND),
            (2_000, 0, 0, 0, 102_000),
        ],
        "PERCENT 2.00",
    );
    // Once, however late: the same a year on.
    let late = amount_due(
        brl(THOUSAND),
        &terms(Fine::Percent(pct(200))),
        d("2027-12-10"),
    );
    assert_eq!((late.fine, late.payable), (2_000, false));
    // Rounded half up: 2 % of 123.45 is 2.469; 2 % of 0.25 is 0.005.
    let fine = terms(Fine::Percent(pct(200)));
    assert_eq!(amount_due(brl(12_345), &fine, d(AFTER)).fine, 247);
    assert_eq!(amount_due(brl(25), &fine, d(AFTER)).fine, 1);
    assert_eq!(amount_due(brl(24), &fine, d(AFTER)).fine, 0);
    // The day after the due date is late.
    assert_eq!(
        amount_due(brl(THOUSAND), &fine, d("2026-12-11")).fine,
        2_000
    );
}

#[test]
fn interest_of_every_modality() {
    use InterestModality::*;
    // After: 7 calendar days, 5 business days late; R$ 1,000.00.
    let cases: [(InterestModality, RuleValue, u64); 8] = [
        // 1.50 × 7
        (AmountPerCalendarDay, RuleValue::Amount(brl(150)), 1_050),
        // 1000 × 0.10 % × 7 = 7.00
        (PercentPerCalendarDay, RuleValue::Percent(pct(10)), 700),
        // 1000 × 1 % × 7 / 30 = 2.333...
        (PercentPerCalendarMonth, RuleValue::Percent(pct(100)), 233),
        // 1000 × 12 % × 7 / 365 = 2.3013...
        (PercentPerCalendarYear, RuleValue::Percent(pct(1_200)), 230),
        // 1.50 × 5
        (AmountPerBusinessDay, RuleValue::Amount(brl(150)), 750),
        // 1000 × 0.10 % × 5 = 5.00
        (PercentPerBusinessDay, RuleValue::Percent(pct(10)), 500),
        // 1000 × 1 % × 5 / 21 = 2.3809...
        (PercentPerBusinessMonth, RuleValue::Percent(pct(100)), 238),
        // 1000 × 12 % × 5 / 252 = 2.3809...
        (PercentPerBusinessYear, RuleValue::Percent(pct(1_200)), 238),
    ];
    for (modality, value, after) in cases {
        let terms = DueTerms {
            interest: Some(Interest::new(modality, value).unwrap()),
            ..DueTerms::new(d(DUE))
        };
        before_on_after(
            &terms,
            [
                (0, 0, 0, 0, THOUSAND),
                (0, 0, 0, 0, THOUSAND),
                (0, after, 0, 0, THOUSAND + after),
            ],
            modality.as_str(),
        );
    }
    // Half up at exactly half a centavo: 365 days of 0.01 % a year on 50.00 is 0.005 -> 0.01;
    // on 49.99 it is 0.004999 -> 0.00.
    let yearly = DueTerms {
        interest: Some(Interest::new(PercentPerCalendarYear, RuleValue::Percent(pct(1))).unwrap()),
        ..DueTerms::new(d(DUE))
    };
    assert_eq!(
        amount_due(brl(5_000), &yearly, d(DUE).add_days(365)).interest,
        1
    );
    assert_eq!(
        amount_due(brl(4_999), &yearly, d(DUE).add_days(365)).interest,
        0
    );
}

#[test]
fn abatements() {
    let terms = |abatement| DueTerms {
        abatement: Some(abatement),
        ..DueTerms::new(d(DUE))
    };
    let fixed = terms(Abatement::Fixed(brl(5_000)));
    before_on_after(&fixed, [(0, 0, 5_000, 0, 95_000); 3], "FIXED 50.00");
    let percent = terms(Abatement::Percent(pct(500)));
    before_on_after(&percent, [(0, 0, 5_000, 0, 95_000); 3], "PERCENT 5.00");
    // Percentages of the fine, the interest and the discount are of original - abatement.
    let all = DueTerms {
        fine: Some(Fine::Percent(pct(200))),
        interest: Some(
            Interest::new(
                InterestModality::PercentPerCalendarDay,
                RuleValue::Percent(pct(10)),
            )
            .unwrap(),
        ),
        discount: Some(Discount::Early {
            modality: EarlyDiscountModality::PercentPerCalendarDayEarly,
            value: RuleValue::Percent(pct(10)),
        }),
        ..percent
    };
    before_on_after(
        &all,
        [
            // 950 × 0.1 % × 7 = 6.65
            (0, 0, 5_000, 665, 94_335),
            (0, 0, 5_000, 0, 95_000),
            // 950 × 2 % = 19.00; 950 × 0.1 % × 7 = 6.65
            (1_900, 665, 5_000, 0, 97_565),
        ],
        "PERCENT 5.00 with percent rules",
    );
}

#[test]
fn discounts_of_every_modality() {
    let terms = |discount| DueTerms {
        discount: Some(discount),
        ..DueTerms::new(d(DUE))
    };
    // Modalidade 1: the earliest date not before the payment date.
    let fixed_dates = terms(Discount::UntilDates {
        percent: false,
        dates: vec![
            (d("2026-12-01"), RuleValue::Amount(brl(3_000))),
            (d("2026-12-05"), RuleValue::Amount(brl(2_000))),
            (d(DUE), RuleValue::Amount(brl(1_000))),
        ],
    });
    before_on_after(
        &fixed_dates,
        [
            (0, 0, 0, 2_000, 98_000),
            (0, 0, 0, 1_000, 99_000),
            (0, 0, 0, 0, THOUSAND),
        ],
        "FIXED_UNTIL_DATES",
    );
    for (day, discount) in [
        ("2026-11-27", 3_000),
        ("2026-12-01", 3_000),
        ("2026-12-02", 2_000),
        ("2026-12-05", 2_000),
        ("2026-12-06", 1_000),
        ("2026-12-10", 1_000),
        ("2026-12-11", 0),
    ] {
        assert_eq!(
            amount_due(brl(THOUSAND), &fixed_dates, d(day)).discount,
            discount,
            "{day}"
        );
    }
    // Modalidade 2.
    before_on_after(
        &terms(Discount::UntilDates {
            percent: true,
            dates: vec![(d("2026-12-05"), RuleValue::Percent(pct(500)))],
        }),
        [
            (0, 0, 0, 5_000, 95_000),
            (0, 0, 0, 0, THOUSAND),
            (0, 0, 0, 0, THOUSAND),
        ],
        "PERCENT_UNTIL_DATES",
    );
    // Modalidades 3 to 6: 7 calendar days, 5 business days early; nothing on the due date.
    use EarlyDiscountModality::*;
    for (modality, value, before) in [
        (
            AmountPerCalendarDayEarly,
            RuleValue::Amount(brl(200)),
            1_400,
        ),
        (
            AmountPerBusinessDayEarly,
            RuleValue::Amount(brl(200)),
            1_000,
        ),
        (PercentPerCalendarDayEarly, RuleValue::Percent(pct(10)), 700),
        (PercentPerBusinessDayEarly, RuleValue::Percent(pct(10)), 500),
    ] {
        before_on_after(
            &terms(Discount::Early { modality, value }),
            [
                (0, 0, 0, before, THOUSAND - before),
                (0, 0, 0, 0, THOUSAND),
                (0, 0, 0, 0, THOUSAND),
            ],
            modality.as_str(),
        );
    }
    // The day before the due date is one day early (business: Wednesday 9 is a business day).
    let early = terms(Discount::Early {
        modality: AmountPerBusinessDayEarly,
        value: RuleValue::Amount(brl(200)),
    });
    assert_eq!(
        amount_due(brl(THOUSAND), &early, d("2026-12-09")).discount,
        200
    );
}

// ---------------------------------------------------------------------------------------
// Due dates on days off.
// ---------------------------------------------------------------------------------------

/// Terms with a 2 % fine, 1 % a calendar (or business) day and an early discount of 1.00 a
/// calendar (or business) day, on R$ 100.00.
fn days_off_terms(due: &str, business: bool) -> DueTerms {
    DueTerms {
        fine: Some(Fine::Percent(pct(200))),
        interest: Some(Interest {
            modality: if business {
                InterestModality::PercentPerBusinessDay
            } else {
                InterestModality::PercentPerCalendarDay
            },
            value: RuleValue::Percent(pct(100)),
        }),
        discount: Some(Discount::Early {
            modality: if business {
                EarlyDiscountModality::AmountPerBusinessDayEarly
            } else {
                EarlyDiscountModality::AmountPerCalendarDayEarly
            },
            value: RuleValue::Amount(brl(100)),
        }),
        days_after_due: 0,
        ..DueTerms::new(d(due))
    }
}

#[test]
fn a_due_date_on_a_saturday_moves_to_monday() {
    let (calendar, business) = (
        days_off_terms("2026-12-12", false),
        days_off_terms("2026-12-12", true),
    );
    assert_eq!(calendar.moved_due_date(), d("2026-12-14"));
    assert_eq!(calendar.last_payable_day(), d("2026-12-14"));
    let hundred = brl(10_000);
    for (day, calendar_parts, business_parts) in [
        // Friday: 3 calendar days, 1 business day (Friday itself) early.
        ("2026-12-11", (0, 0, 0, 300, 9_700), (0, 0, 0, 100, 9_900)),
        // Saturday, the due date as set: 2 calendar days, 0 business days early.
        ("2026-12-12", (0, 0, 0, 200, 9_800), (0, 0, 0, 0, 10_000)),
        ("2026-12-13", (0, 0, 0, 100, 9_900), (0, 0, 0, 0, 10_000)),
        // Monday, the moved due date: no fine, no discount.
        ("2026-12-14", (0, 0, 0, 0, 10_000), (0, 0, 0, 0, 10_000)),
        // Tuesday: late by one day either way.
        (
            "2026-12-15",
            (200, 100, 0, 0, 10_300),
            (200, 100, 0, 0, 10_300),
        ),
    ] {
        assert_eq!(
            parts(&amount_due(hundred, &calendar, d(day))),
            calendar_parts,
            "{day}"
        );
        assert_eq!(
            parts(&amount_due(hundred, &business, d(day))),
            business_parts,
            "{day}"
        );
    }
    assert!(!amount_due(hundred, &calendar, d("2026-12-15")).payable);
    // A discount dated the Saturday due date: the date does not move with it.
    let dated = DueTerms {
        discount: Some(Discount::UntilDates {
            percent: false,
            dates: vec![(d("2026-12-12"), RuleValue::Amount(brl(500)))],
        }),
        ..DueTerms::new(d("2026-12-12"))
    };
    assert_eq!(amount_due(hundred, &dated, d("2026-12-12")).discount, 500);
    assert_eq!(amount_due(hundred, &dated, d("2026-12-13")).discount, 0);
    assert_eq!(amount_due(hundred, &dated, d("2026-12-14")).discount, 0);
}

#[test]
fn a_due_date_on_carnival_monday_moves_to_ash_wednesday() {
    let terms = days_off_terms("2027-02-08", false);
    let business = days_off_terms("2027-02-08", true);
    assert_eq!(terms.moved_due_date(), d("2027-02-10"));
    assert_eq!(terms.last_payable_day(), d("2027-02-10"));
    let three_days = DueTerms {
        days_after_due: 3,
        ..terms.clone()
    };
    // 10 + 3 is Saturday 13: Monday 15.
    assert_eq!(three_days.last_payable_day(), d("2027-02-15"));
    let hundred = brl(10_000);
    for (day, calendar_parts, business_parts) in [
        // Friday 5: 5 calendar days early; business days 5 (Fri) only.
        ("2027-02-05", (0, 0, 0, 500, 9_500), (0, 0, 0, 100, 9_900)),
        ("2027-02-08", (0, 0, 0, 200, 9_800), (0, 0, 0, 0, 10_000)),
        ("2027-02-09", (0, 0, 0, 100, 9_900), (0, 0, 0, 0, 10_000)),
        ("2027-02-10", (0, 0, 0, 0, 10_000), (0, 0, 0, 0, 10_000)),
        (
            "2027-02-11",
            (200, 100, 0, 0, 10_300),
            (200, 100, 0, 0, 10_300),
        ),
        // Monday 15: 5 calendar days, 3 business days (11, 12, 15) late.
        (
            "2027-02-15",
            (200, 500, 0, 0, 10_700),
            (200, 300, 0, 0, 10_500),
        ),
    ] {
        assert_eq!(
            parts(&amount_due(hundred, &terms, d(day))),
            calendar_parts,
            "{day}"
        );
        assert_eq!(
            parts(&amount_due(hundred, &business, d(day))),
            business_parts,
            "{day}"
        );
    }
    assert!(amount_due(hundred, &terms, d("2027-02-10")).payable);
    assert!(!amount_due(hundred, &terms, d("2027-02-11")).payable);
}

#[test]
fn a_due_date_on_good_friday_moves_to_monday() {
    for (good_friday, monday) in [("2026-04-03", "2026-04-06"), ("2027-03-26", "2027-03-29")] {
        let terms = days_off_terms(good_friday, true);
        assert_eq!(terms.moved_due_date(), d(monday));
        let hundred = brl(10_000);
        assert_eq!(
            parts(&amount_due(hundred, &terms, d(monday))),
            (0, 0, 0, 0, 10_000)
        );
        assert_eq!(
            parts(&amount_due(hundred, &terms, d(monday).add_days(1))),
            (200, 100, 0, 0, 10_300)
        );
        // On Good Friday itself (a day off): 0 business days early.
        assert_eq!(
            parts(&amount_due(hundred, &terms, d(good_friday))),
            (0, 0, 0, 0, 10_000)
        );
        // Thursday before: 1 business day early.
        assert_eq!(
            parts(&amount_due(hundred, &terms, d(good_friday).add_days(-1))),
            (0, 0, 0, 100, 9_900)
        );
    }
}

// ---------------------------------------------------------------------------------------
// Caps and tolerance.
// ---------------------------------------------------------------------------------------

#[test]
fn the_total_never_drops_below_one_centavo() {
    // A 99.99 % abatement of 0.01 rounds to 0.01: capped at 0.00.
    let terms = DueTerms {
        abatement: Some(Abatement::Percent(pct(9_999))),
        ..DueTerms::new(d(DUE))
    };
    assert_eq!(parts(&amount_due(brl(1), &terms, d(DUE))), (0, 0, 0, 0, 1));
    // 99.99 % of 1.00 is 0.9999: 1.00 -> capped at 0.99.
    assert_eq!(
        parts(&amount_due(brl(100), &terms, d(DUE))),
        (0, 0, 99, 0, 1)
    );
    // An early discount over many days.
    let early = DueTerms {
        discount: Some(Discount::Early {
            modality: EarlyDiscountModality::AmountPerCalendarDayEarly,
            value: RuleValue::Amount(brl(999)),
        }),
        ..DueTerms::new(d(DUE))
    };
    assert_eq!(
        parts(&amount_due(brl(1_000), &early, d(BEFORE))),
        (0, 0, 0, 999, 1)
    );
    assert_eq!(
        parts(&amount_due(brl(1_000), &early, d("2026-12-09"))),
        (0, 0, 0, 999, 1)
    );
    // An abatement and a discount that together reach the amount.
    let both = DueTerms {
        abatement: Some(Abatement::Fixed(brl(6_000))),
        discount: Some(Discount::UntilDates {
            percent: false,
            dates: vec![(d(DUE), RuleValue::Amount(brl(5_000)))],
        }),
        ..DueTerms::new(d(DUE))
    };
    assert_eq!(
        parts(&amount_due(brl(10_000), &both, d(DUE))),
        (0, 0, 6_000, 3_999, 1)
    );
    // A fixed abatement above the amount (not from a body) stops at amount - 0.01.
    let over = DueTerms {
        abatement: Some(Abatement::Fixed(brl(20_000))),
        ..DueTerms::new(d(DUE))
    };
    assert_eq!(
        parts(&amount_due(brl(10_000), &over, d(DUE))),
        (0, 0, 9_999, 0, 1)
    );
}

#[test]
fn a_payment_matches_the_amount_due_on_its_date_or_the_business_day_before() {
    let terms = DueTerms {
        fine: Some(Fine::Percent(pct(200))),
        interest: Some(
            Interest::new(
                InterestModality::PercentPerCalendarMonth,
                RuleValue::Percent(pct(100)),
            )
            .unwrap(),
        ),
        ..DueTerms::new(d(DUE))
    };
    let original = brl(THOUSAND);
    let on_time = brl(THOUSAND);
    // Friday 11: 1000 + 20 + 1000 × 1 % / 30 = 1020.33.
    let friday = brl(102_033);
    assert_eq!(amount_due(original, &terms, d("2026-12-11")).total, 102_033);
    // Paid the day after the due date at the due date's amount: a municipal holiday.
    assert!(matches_paid(original, &terms, d("2026-12-11"), on_time));
    assert!(matches_paid(original, &terms, d("2026-12-11"), friday));
    assert!(!matches_paid(
        original,
        &terms,
        d("2026-12-11"),
        brl(102_000)
    ));
    // Monday 14: the business day before is Friday, not the weekend nor Thursday.
    assert!(matches_paid(original, &terms, d("2026-12-14"), friday));
    assert!(!matches_paid(original, &terms, d("2026-12-14"), on_time));
    let saturday = amount_due(original, &terms, d("2026-12-12")).total;
    assert!(!matches_paid(
        original,
        &terms,
        d("2026-12-14"),
        brl(saturday)
    ));
    let monday = amount_due(original, &terms, d("2026-12-14")).total;
    assert!(matches_paid(original, &terms, d("2026-12-14"), brl(monday)));
    // Before the due date any day matches the original.
    assert!(matches_paid(original, &terms, d(BEFORE), on_time));
}

// ---------------------------------------------------------------------------------------
// The body: every refusal, names and codes.
// ---------------------------------------------------------------------------------------

const TODAY: &str = "2026-11-27";

fn fields(body: Value) -> DueDateFields {
    serde_json::from_value(body).unwrap()
}

fn read(body: Value) -> Result<Option<DueTerms>, Invalid> {
    DueTerms::from_body(&fields(body), brl(10_000), d(TODAY))
}

fn refused(body: Value) -> (&'static str, String) {
    let Err(e) = read(body.clone()) else {
        panic!("{body} was accepted");
    };
    let field = e.field.clone().unwrap_or_default();
    assert!(
        e.message.contains(&format!("`{field}`")),
        "{body}: the message names the field: {}",
        e.message
    );
    (e.code, field)
}

#[test]
fn no_due_date_field_is_an_immediate_charge() {
    assert_eq!(read(json!({})).unwrap(), None);
    assert_eq!(
        read(json!({"dueDate": null, "fine": null, "daysAfterDue": null})).unwrap(),
        None
    );
    assert!(DueDateFields::default().is_empty());
    assert!(!fields(json!({"fine": {}})).is_empty());
}

#[test]
fn a_full_body_reads_into_terms() {
    let terms = read(json!({
        "dueDate": "2026-12-10",
        "daysAfterDue": 15.0,
        "fine": {"type": "PERCENT", "value": 2},
        "interest": {"type": "PERCENT_PER_CALENDAR_MONTH", "value": 1.0},
        "abatement": {"type": "FIXED", "value": 10.5},
        "discount": {"type": "FIXED_UNTIL_DATES", "dates": [
            {"date": "2026-12-01", "value": 5},
            {"date": "2026-12-10", "value": 2.5}
        ]}
    }))
    .unwrap()
    .unwrap();
    assert_eq!(
        terms,
        DueTerms {
            due_date: d("2026-12-10"),
            days_after_due: 15,
            fine: Some(Fine::Percent(pct(200))),
            interest: Some(Interest {
                modality: InterestModality::PercentPerCalendarMonth,
                value: RuleValue::Percent(pct(100)),
            }),
            abatement: Some(Abatement::Fixed(brl(1_050))),
            discount: Some(Discount::UntilDates {
                percent: false,
                dates: vec![
                    (d("2026-12-01"), RuleValue::Amount(brl(500))),
                    (d("2026-12-10"), RuleValue::Amount(brl(250))),
                ],
            }),
        }
    );
    // Only a due date: 30 days after it by default.
    let plain = read(json!({"dueDate": TODAY})).unwrap().unwrap();
    assert_eq!(plain, DueTerms::new(d(TODAY)));
    // Every type reads, and the terms' JSON reads back to the same terms.
    let mut bodies = vec![];
    for kind in FixedOrPercent::ALL {
        bodies.push(json!({"dueDate": DUE, "fine": {"type": kind.as_str(), "value": 3}}));
        bodies.push(json!({"dueDate": DUE, "abatement": {"type": kind.as_str(), "value": 3}}));
    }
    for m in InterestModality::ALL {
        bodies.push(json!({"dueDate": DUE, "interest": {"type": m.as_str(), "value": 0.33}}));
    }
    for m in DiscountModality::ALL {
        bodies.push(if m.early().is_some() {
            json!({"dueDate": DUE, "daysAfterDue": 0, "discount": {"type": m.as_str(), "value": 1.25}})
        } else {
            json!({"dueDate": DUE, "daysAfterDue": 3650, "discount": {"type": m.as_str(), "dates": [
                {"date": "2026-12-01", "value": 12}, {"date": "2026-12-02", "value": 11},
                {"date": DUE, "value": 99.99}]}})
        });
    }
    bodies.push(json!({
        "dueDate": "2026-12-10", "fine": {"type": "FIXED", "value": 100000000},
        "interest": {"type": "AMOUNT_PER_BUSINESS_DAY", "value": 0.01},
        "abatement": {"type": "PERCENT", "value": 99.99},
        "discount": {"type": "PERCENT_PER_BUSINESS_DAY_EARLY", "value": 0.01}
    }));
    for body in bodies {
        let terms = read(body.clone())
            .unwrap_or_else(|e| panic!("{body}: {e:?}"))
            .unwrap();
        let again = DueTerms::from_body(&terms.to_fields(), brl(10_000), d(TODAY))
            .unwrap()
            .unwrap();
        assert_eq!(again, terms, "{body}");
        assert_eq!(
            serde_json::to_value(terms.to_fields()).unwrap(),
            terms.to_json()
        );
    }
}

#[test]
fn every_refusal_names_its_field_and_code() {
    let due = |extra: Value| {
        let mut body = json!({"dueDate": "2026-12-10"});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let cases: Vec<(Value, &str, &str)> = vec![
        // dueDate
        (
            json!({"fine": {"type": "FIXED", "value": 1}}),
            "missing_field",
            "dueDate",
        ),
        (
            json!({"dueDate": null, "daysAfterDue": 3}),
            "missing_field",
            "dueDate",
        ),
        (json!({"discount": 5}), "missing_field", "dueDate"),
        (
            json!({"dueDate": "2026-13-01"}),
            "invalid_due_date",
            "dueDate",
        ),
        (
            json!({"dueDate": "2026-02-29"}),
            "invalid_due_date",
            "dueDate",
        ),
        (
            json!({"dueDate": "10/12/2026"}),
            "invalid_due_date",
            "dueDate",
        ),
        (
            json!({"dueDate": "2026-12-10T00:00:00Z"}),
            "invalid_due_date",
            "dueDate",
        ),
        (json!({"dueDate": 20261210}), "invalid_due_date", "dueDate"),
        (json!({"dueDate": {}}), "invalid_due_date", "dueDate"),
        (
            json!({"dueDate": "2026-11-26"}),
            "invalid_due_date",
            "dueDate",
        ),
        // daysAfterDue
        (
            due(json!({"daysAfterDue": -1})),
            "invalid_days_after_due",
            "daysAfterDue",
        ),
        (
            due(json!({"daysAfterDue": 3651})),
            "invalid_days_after_due",
            "daysAfterDue",
        ),
        (
            due(json!({"daysAfterDue": 1.5})),
            "invalid_days_after_due",
            "daysAfterDue",
        ),
        (
            due(json!({"daysAfterDue": "30"})),
            "invalid_days_after_due",
            "daysAfterDue",
        ),
        (
            due(json!({"daysAfterDue": true})),
            "invalid_days_after_due",
            "daysAfterDue",
        ),
        (
            due(json!({"daysAfterDue": 70000})),
            "invalid_days_after_due",
            "daysAfterDue",
        ),
        // fine
        (due(json!({"fine": 5})), "invalid_fine", "fine"),
        (due(json!({"fine": [1]})), "invalid_fine", "fine"),
        (due(json!({"fine": {}})), "missing_field", "fine.type"),
        (
            due(json!({"fine": {"type": "FIXED"}})),
            "missing_field",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "FIXED", "value": null}})),
            "missing_field",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "DAILY", "value": 1}})),
            "invalid_fine",
            "fine.type",
        ),
        (
            due(json!({"fine": {"type": 1, "value": 1}})),
            "invalid_fine",
            "fine.type",
        ),
        (
            due(json!({"fine": {"type": "fixed", "value": 1}})),
            "invalid_fine",
            "fine.type",
        ),
        (
            due(json!({"fine": {"type": "FIXED", "value": "1"}})),
            "invalid_fine",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "FIXED", "value": 0}})),
            "invalid_fine",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "FIXED", "value": -1}})),
            "invalid_fine",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "FIXED", "value": 1.234}})),
            "invalid_fine",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "FIXED", "value": 100000000.01}})),
            "invalid_fine",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "PERCENT", "value": 100.01}})),
            "invalid_fine",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "PERCENT", "value": 0.001}})),
            "invalid_fine",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "PERCENT", "value": 2.555}})),
            "invalid_fine",
            "fine.value",
        ),
        (
            due(json!({"fine": {"type": "FIXED", "value": 1, "percent": true}})),
            "unknown_field",
            "fine.percent",
        ),
        // interest
        (
            due(json!({"interest": "1%"})),
            "invalid_interest",
            "interest",
        ),
        (
            due(json!({"interest": {"value": 1}})),
            "missing_field",
            "interest.type",
        ),
        (
            due(json!({"interest": {"type": "PERCENT_PER_DAY", "value": 1}})),
            "invalid_interest",
            "interest.type",
        ),
        (
            due(json!({"interest": {"type": "AMOUNT_PER_CALENDAR_DAY", "value": 0.001}})),
            "invalid_interest",
            "interest.value",
        ),
        (
            due(json!({"interest": {"type": "AMOUNT_PER_BUSINESS_DAY", "value": 0}})),
            "invalid_interest",
            "interest.value",
        ),
        (
            due(json!({"interest": {"type": "PERCENT_PER_CALENDAR_YEAR", "value": 101}})),
            "invalid_interest",
            "interest.value",
        ),
        (
            due(json!({"interest": {"type": "PERCENT_PER_BUSINESS_MONTH", "value": [1]}})),
            "invalid_interest",
            "interest.value",
        ),
        (
            due(json!({"interest": {"type": "PERCENT_PER_BUSINESS_MONTH"}})),
            "missing_field",
            "interest.value",
        ),
        (
            due(json!({"interest": {"type": "PERCENT_PER_BUSINESS_MONTH", "value": 1, "x": 1}})),
            "unknown_field",
            "interest.x",
        ),
        // abatement
        (
            due(json!({"abatement": true})),
            "invalid_abatement",
            "abatement",
        ),
        (
            due(json!({"abatement": {"type": "PERCENT_PER_CALENDAR_DAY", "value": 1}})),
            "invalid_abatement",
            "abatement.type",
        ),
        (
            due(json!({"abatement": {"type": "FIXED", "value": 100}})),
            "invalid_abatement",
            "abatement.value",
        ),
        (
            due(json!({"abatement": {"type": "FIXED", "value": 100.01}})),
            "invalid_abatement",
            "abatement.value",
        ),
        (
            due(json!({"abatement": {"type": "FIXED", "value": 0.001}})),
            "invalid_abatement",
            "abatement.value",
        ),
        (
            due(json!({"abatement": {"type": "PERCENT", "value": 100}})),
            "invalid_abatement",
            "abatement.value",
        ),
        (
            due(json!({"abatement": {"type": "PERCENT", "value": 0}})),
            "invalid_abatement",
            "abatement.value",
        ),
        (
            due(json!({"abatement": {"type": "FIXED"}})),
            "missing_field",
            "abatement.value",
        ),
        // discount
        (due(json!({"discount": []})), "invalid_discount", "discount"),
        (
            due(json!({"discount": {}})),
            "missing_field",
            "discount.type",
        ),
        (
            due(json!({"discount": {"type": "FIXED", "value": 1}})),
            "invalid_discount",
            "discount.type",
        ),
        (
            due(json!({"discount": {"type": "FIXED_UNTIL_DATES"}})),
            "missing_field",
            "discount.dates",
        ),
        (
            due(json!({"discount": {"type": "PERCENT_UNTIL_DATES", "dates": null}})),
            "missing_field",
            "discount.dates",
        ),
        (
            due(
                json!({"discount": {"type": "FIXED_UNTIL_DATES", "value": 1, "dates": [{"date": "2026-12-01", "value": 1}]}}),
            ),
            "invalid_discount",
            "discount.value",
        ),
        (
            due(json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": []}})),
            "invalid_discount",
            "discount.dates",
        ),
        (
            due(json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": "2026-12-01"}})),
            "invalid_discount",
            "discount.dates",
        ),
        (
            due(json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [5]}})),
            "invalid_discount",
            "discount.dates[0]",
        ),
        (
            due(json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [
            {"date": "2026-12-01", "value": 4}, {"date": "2026-12-02", "value": 3},
            {"date": "2026-12-03", "value": 2}, {"date": "2026-12-04", "value": 1}]}})),
            "invalid_discount",
            "discount.dates",
        ),
        (
            due(
                json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [{"date": "2026-12-32", "value": 1}]}}),
            ),
            "invalid_discount",
            "discount.dates[0].date",
        ),
        (
            due(
                json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [{"date": 20261201, "value": 1}]}}),
            ),
            "invalid_discount",
            "discount.dates[0].date",
        ),
        (
            due(
                json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [{"date": "2026-12-01", "value": 1}, {"date": "2026-12-11", "value": 1}]}}),
            ),
            "invalid_discount",
            "discount.dates[1].date",
        ),
        (
            due(
                json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [{"date": "2026-12-05", "value": 2}, {"date": "2026-12-05", "value": 1}]}}),
            ),
            "invalid_discount",
            "discount.dates[1].date",
        ),
        (
            due(json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [
            {"date": "2026-12-01", "value": 3}, {"date": "2026-12-05", "value": 2},
            {"date": "2026-12-03", "value": 1}]}})),
            "invalid_discount",
            "discount.dates[2].date",
        ),
        (
            due(json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [
            {"date": "2026-12-01", "value": 3}, {"date": "2026-12-05", "value": 2},
            {"date": "2026-12-07", "value": 100}]}})),
            "invalid_discount",
            "discount.dates[2].value",
        ),
        (
            due(
                json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [{"date": "2026-12-01", "value": 0.001}]}}),
            ),
            "invalid_discount",
            "discount.dates[0].value",
        ),
        (
            due(
                json!({"discount": {"type": "PERCENT_UNTIL_DATES", "dates": [{"date": "2026-12-01", "value": 100}]}}),
            ),
            "invalid_discount",
            "discount.dates[0].value",
        ),
        (
            due(
                json!({"discount": {"type": "PERCENT_UNTIL_DATES", "dates": [{"date": "2026-12-01"}]}}),
            ),
            "missing_field",
            "discount.dates[0].value",
        ),
        (
            due(
                json!({"discount": {"type": "PERCENT_UNTIL_DATES", "dates": [{"date": "2026-12-01", "value": 1}, {"date": "2026-12-02", "value": 1, "amount": 1}]}}),
            ),
            "unknown_field",
            "discount.dates[1].amount",
        ),
        (
            due(
                json!({"discount": {"type": "AMOUNT_PER_CALENDAR_DAY_EARLY", "dates": [{"date": "2026-12-01", "value": 1}], "value": 1}}),
            ),
            "invalid_discount",
            "discount.dates",
        ),
        (
            due(json!({"discount": {"type": "AMOUNT_PER_BUSINESS_DAY_EARLY"}})),
            "missing_field",
            "discount.value",
        ),
        (
            due(json!({"discount": {"type": "AMOUNT_PER_BUSINESS_DAY_EARLY", "value": 100}})),
            "invalid_discount",
            "discount.value",
        ),
        (
            due(json!({"discount": {"type": "PERCENT_PER_CALENDAR_DAY_EARLY", "value": 100}})),
            "invalid_discount",
            "discount.value",
        ),
        (
            due(json!({"discount": {"type": "PERCENT_PER_BUSINESS_DAY_EARLY", "value": "1"}})),
            "invalid_discount",
            "discount.value",
        ),
        (
            due(json!({"discount": {"type": "PERCENT_PER_BUSINESS_DAY_EARLY", "value": 1.005}})),
            "invalid_discount",
            "discount.value",
        ),
    ];
    for (body, code, field) in cases {
        assert_eq!(refused(body.clone()), (code, field.to_owned()), "{body}");
    }
    // The order of checks: dueDate before the rules, the rules in the body's order.
    assert_eq!(
        refused(json!({"dueDate": "x", "fine": 1, "discount": 1})),
        ("invalid_due_date", "dueDate".to_owned())
    );
    assert_eq!(
        refused(due(json!({"daysAfterDue": -1, "fine": 1}))),
        ("invalid_days_after_due", "daysAfterDue".to_owned())
    );
    assert_eq!(
        refused(due(json!({"discount": 1, "interest": 1}))),
        ("invalid_interest", "interest".to_owned())
    );
    // Today is allowed; so is a discount date in the past (it never applies).
    read(json!({"dueDate": TODAY})).unwrap().unwrap();
    read(due(json!({"discount": {"type": "FIXED_UNTIL_DATES", "dates": [{"date": "2026-01-01", "value": 1}]}})))
        .unwrap()
        .unwrap();
}

#[test]
fn refusals_are_told_in_the_merchants_terms() {
    let message = |body: Value| read(body).unwrap_err().message;
    assert_eq!(
        message(json!({"fine": {"type": "FIXED", "value": 1}})),
        "`dueDate` is required with `fine`"
    );
    assert_eq!(
        message(json!({"dueDate": "2026-11-26"})),
        "`dueDate` (2026-11-26) must not be before today (2026-11-27, in Brasília)"
    );
    assert_eq!(
        message(json!({"dueDate": DUE, "fine": {"type": "DAILY", "value": 1}})),
        "`fine.type` must be `FIXED` or `PERCENT`; got `DAILY`"
    );
    assert_eq!(
        message(json!({"dueDate": DUE, "fine": {"type": "FIXED", "value": "1"}})),
        "`fine.value` must be a JSON number with at most two decimals, such as 2.5, not a string"
    );
    assert_eq!(
        message(json!({"dueDate": DUE, "abatement": {"type": "FIXED", "value": 100}})),
        "`abatement.value` (100.00) must be less than the charge's `amount` (100.00)"
    );
    assert_eq!(
        message(json!({"dueDate": DUE, "abatement": {"type": "PERCENT", "value": 100}})),
        "`abatement.value` must be a percentage from 0.01 to 99.99"
    );
    assert_eq!(
        message(
            json!({"dueDate": DUE, "discount": {"type": "FIXED_UNTIL_DATES", "dates": [
            {"date": "2026-12-05", "value": 2}, {"date": "2026-12-04", "value": 1}]}})
        ),
        "`discount.dates[1].date` (2026-12-04) must be after `discount.dates[0].date` \
         (2026-12-05): the dates are distinct and in increasing order"
    );
    assert_eq!(
        message(
            json!({"dueDate": DUE, "discount": {"type": "FIXED_UNTIL_DATES", "dates": [
            {"date": "2026-12-11", "value": 2}]}})
        ),
        "`discount.dates[0].date` (2026-12-11) must not be after `dueDate` (2026-12-10)"
    );
    assert_eq!(
        message(json!({"dueDate": DUE, "interest": {"type": "X", "value": 1}})),
        "`interest.type` must be one of `AMOUNT_PER_CALENDAR_DAY`, `PERCENT_PER_CALENDAR_DAY`, \
         `PERCENT_PER_CALENDAR_MONTH`, `PERCENT_PER_CALENDAR_YEAR`, `AMOUNT_PER_BUSINESS_DAY`, \
         `PERCENT_PER_BUSINESS_DAY`, `PERCENT_PER_BUSINESS_MONTH`, `PERCENT_PER_BUSINESS_YEAR`; \
         got `X`"
    );
    assert_eq!(
        message(json!({"dueDate": DUE, "fine": {"type": "FIXED", "value": 1, "percent": 1}})),
        "unknown field `fine.percent`"
    );
}

#[test]
fn the_evaluate_routes_prefix() {
    let e = DueTerms::from_body_at(
        &fields(
            json!({"dueDate": DUE, "discount": {"type": "FIXED_UNTIL_DATES", "dates": [
            {"date": "2026-12-11", "value": 2}]}}),
        ),
        brl(10_000),
        d(TODAY),
        "charge.",
    )
    .unwrap_err();
    assert_eq!(
        (e.code, e.field.as_deref()),
        ("invalid_discount", Some("charge.discount.dates[0].date"))
    );
    assert!(e.message.contains("`charge.dueDate`"), "{}", e.message);
    let e = DueTerms::from_body_at(&fields(json!({"fine": 1})), brl(1), d(TODAY), "charge.")
        .unwrap_err();
    assert_eq!(e.message, "`charge.dueDate` is required with `charge.fine`");
}

/// DueDateFields flattened into a body that denies unknown fields: the body parses whatever
/// the due-date members hold, unknown members are still refused, and `from_body` names the
/// member at fault by its path.
#[test]
fn the_fields_can_be_flattened_into_a_charge_body() {
    #[derive(Debug, serde::Deserialize, serde::Serialize, utoipa::ToSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Charge {
        amount: f64,
        #[serde(flatten)]
        due: DueDateFields,
    }
    let parse = |body: Value| crate::json::from_json::<Charge>(body, &[]);
    let charge =
        parse(json!({"amount": 100, "dueDate": DUE, "fine": {"type": "FIXED", "value": "x"}}))
            .unwrap();
    let e = DueTerms::from_body(&charge.due, brl(10_000), d(TODAY)).unwrap_err();
    assert_eq!(
        (e.code, e.field.as_deref()),
        ("invalid_fine", Some("fine.value"))
    );
    let e = parse(json!({"amount": 100, "dueDat": DUE})).unwrap_err();
    assert_eq!(
        (e.code, e.field.as_deref()),
        ("unknown_field", Some("dueDat"))
    );
    let charge = parse(json!({"amount": 100})).unwrap();
    assert!(charge.due.is_empty());
    let charge = parse(json!({"amount": 100, "dueDate": DUE, "daysAfterDue": 5})).unwrap();
    assert_eq!(
        DueTerms::from_body(&charge.due, brl(10_000), d(TODAY))
            .unwrap()
            .unwrap()
            .days_after_due,
        5
    );
    assert_eq!(
        serde_json::to_value(&charge).unwrap(),
        json!({"amount": 100.0, "dueDate": DUE, "daysAfterDue": 5})
    );
}

#[test]
fn the_documented_schema() {
    let schema = serde_json::to_value(<DueDateFields as utoipa::PartialSchema>::schema()).unwrap();
    let properties = &schema["properties"];
    for name in [
        "dueDate",
        "daysAfterDue",
        "fine",
        "interest",
        "abatement",
        "discount",
    ] {
        assert!(properties.get(name).is_some(), "{name}: {schema}");
    }
    assert_eq!(properties["dueDate"]["format"], "date", "{schema}");
    assert_eq!(properties["daysAfterDue"]["maximum"], 3650, "{schema}");
    let text = schema.to_string();
    for reference in ["FineBody", "InterestBody", "AbatementBody", "DiscountBody"] {
        assert!(
            text.contains(&format!("#/components/schemas/{reference}")),
            "{text}"
        );
    }
    let interest = serde_json::to_value(<InterestBody as utoipa::PartialSchema>::schema()).unwrap();
    assert!(
        interest.to_string().contains("InterestModality"),
        "{interest}"
    );
    let modality =
        serde_json::to_value(<InterestModality as utoipa::PartialSchema>::schema()).unwrap();
    let names: Vec<&str> = InterestModality::ALL.iter().map(|m| m.as_str()).collect();
    assert_eq!(modality["enum"], json!(names));
    let modality =
        serde_json::to_value(<DiscountModality as utoipa::PartialSchema>::schema()).unwrap();
    let names: Vec<&str> = DiscountModality::ALL.iter().map(|m| m.as_str()).collect();
    assert_eq!(modality["enum"], json!(names));
    let amount = serde_json::to_value(<AmountDue as utoipa::PartialSchema>::schema()).unwrap();
    for name in [
        "date",
        "original",
        "fine",
        "interest",
        "abatement",
        "discount",
        "total",
        "payable",
    ] {
        assert!(amount["properties"].get(name).is_some(), "{name}: {amount}");
    }
    assert_eq!(amount["properties"]["total"]["type"], "number", "{amount}");
    let address = serde_json::to_value(<Address as utoipa::PartialSchema>::schema()).unwrap();
    assert_eq!(
        address["properties"]["street"]["pattern"],
        crate::NAME_PATTERN
    );
    assert_eq!(
        address["properties"]["city"]["pattern"],
        crate::NAME_PATTERN
    );
}

// ---------------------------------------------------------------------------------------
// Numbers as written.
// ---------------------------------------------------------------------------------------

#[test]
fn literals_are_judged_as_written() {
    let check = |body: &str| check_due_literals(body.as_bytes(), false);
    for ok in [
        r#"{"dueDate": "2026-12-10", "fine": {"type": "PERCENT", "value": 2.35}}"#,
        r#"{"fine": {"type": "FIXED", "value": 1.299e2}}"#,
        r#"{"fine": {"type": "FIXED", "value": 1.2300}}"#,
        r#"{"fine": {"type": "FIXED", "value": "2.349999999999999999"}}"#,
        r#"{"fine": 2.349999999999999999}"#,
        r#"{"daysAfterDue": 30.0}"#,
        r#"{"discount": {"type": "FIXED_UNTIL_DATES", "dates": [{"date": "2026-12-01", "value": 1.5}, 5]}}"#,
        r#"[1e400]"#,
        r#"{"fine": "#,
    ] {
        check(ok).unwrap();
    }
    for (body, code, field) in [
        (
            r#"{"fine": {"type": "PERCENT", "value": 2.349999999999999999}}"#,
            "invalid_fine",
            "fine.value",
        ),
        (
            r#"{"interest": {"value": 0.001, "type": "AMOUNT_PER_CALENDAR_DAY"}}"#,
            "invalid_interest",
            "interest.value",
        ),
        (
            r#"{"abatement": {"type": "FIXED", "value": 1e400}}"#,
            "invalid_abatement",
            "abatement.value",
        ),
        (
            r#"{"abatement": {"type": "FIXED", "value": -1e400}}"#,
            "invalid_abatement",
            "abatement.value",
        ),
        (
            r#"{"discount": {"type": "PERCENT_PER_CALENDAR_DAY_EARLY", "value": 1e-3}}"#,
            "invalid_discount",
            "discount.value",
        ),
        (
            r#"{"discount": {"type": "FIXED_UNTIL_DATES", "dates": [{"date": "2026-12-01", "value": 1}, {"value": 1.001, "date": "2026-12-02"}]}}"#,
            "invalid_discount",
            "discount.dates[1].value",
        ),
        (
            r#"{"daysAfterDue": 1e400}"#,
            "invalid_days_after_due",
            "daysAfterDue",
        ),
        // The last of repeated keys is the one kept, as the parser keeps it.
        (
            r#"{"fine": {"type": "FIXED", "value": 1, "value": 1.001}}"#,
            "invalid_fine",
            "fine.value",
        ),
    ] {
        let e = check(body).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (code, Some(field)), "{body}");
    }
    let nested = r#"{"store": "s", "charge": {"fine": {"type": "FIXED", "value": 1.001}}}"#;
    let e = check_due_literals(nested.as_bytes(), true).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("charge.fine.value"));
    check_due_literals(nested.as_bytes(), false).unwrap();
}

// ---------------------------------------------------------------------------------------
// payer.address
// ---------------------------------------------------------------------------------------

#[test]
fn addresses() {
    let address = |body: Value| serde_json::from_value::<Address>(body).unwrap();
    let valid = address(json!({
        "street": "Av. Paulista, 1000", "city": "São Paulo", "state": "sp", "postalCode": "01310-100"
    }))
    .validate("payer.address")
    .unwrap();
    assert_eq!(
        valid,
        ValidAddress {
            street: Some("Av. Paulista, 1000".into()),
            city: Some("São Paulo".into()),
            state: Some("SP".into()),
            postal_code: Some("01310100".into()),
        }
    );
    assert_eq!(
        valid.to_json(),
        json!({"street": "Av. Paulista, 1000", "city": "São Paulo", "state": "SP", "postalCode": "01310100"})
    );
    assert_eq!(
        address(json!({})).validate("payer.address").unwrap(),
        ValidAddress::default()
    );
    assert_eq!(
        address(json!({"postalCode": "70011750", "state": "DF"}))
            .validate("payer.address")
            .unwrap()
            .postal_code
            .as_deref(),
        Some("70011750")
    );
    for uf in UFS {
        address(json!({"state": uf}))
            .validate("payer.address")
            .unwrap();
    }
    assert_eq!(UFS.len(), 27);
    for (body, field) in [
        (json!({"state": "XX"}), "payer.address.state"),
        (json!({"state": "S"}), "payer.address.state"),
        (json!({"state": "SPA"}), "payer.address.state"),
        (json!({"state": ""}), "payer.address.state"),
        (json!({"state": "São"}), "payer.address.state"),
        (
            json!({"postalCode": "0131-0100"}),
            "payer.address.postalCode",
        ),
        (json!({"postalCode": "1234567"}), "payer.address.postalCode"),
        (
            json!({"postalCode": "123456789"}),
            "payer.address.postalCode",
        ),
        (
            json!({"postalCode": "01310 100"}),
            "payer.address.postalCode",
        ),
        (
            json!({"postalCode": "0131O100"}),
            "payer.address.postalCode",
        ),
        (
            json!({"postalCode": "01.310-100"}),
            "payer.address.postalCode",
        ),
        (
            json!({"postalCode": "01310-1é"}),
            "payer.address.postalCode",
        ),
        (json!({"street": ""}), "payer.address.street"),
        (json!({"street": "  \u{feff} "}), "payer.address.street"),
        (json!({"street": "a".repeat(201)}), "payer.address.street"),
        (json!({"city": "São\nPaulo"}), "payer.address.city"),
    ] {
        let e = address(body.clone()).validate("payer.address").unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            ("invalid_address", Some(field)),
            "{body}"
        );
        assert!(e.message.contains(&format!("`{field}`")), "{}", e.message);
    }
    address(json!({"street": "a".repeat(200), "city": "é".repeat(200)}))
        .validate("payer.address")
        .unwrap();
    // Type errors and unknown members, through the payer as the charge body nests it.
    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)] // only deserialised
    struct Payer {
        address: Option<Address>,
    }
    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        payer: Payer,
    }
    for (body, code, field) in [
        (
            json!({"payer": {"address": {"state": 5}}}),
            "invalid_address",
            "payer.address.state",
        ),
        (
            json!({"payer": {"address": {"postalCode": 1310100}}}),
            "invalid_address",
            "payer.address.postalCode",
        ),
        (
            json!({"payer": {"address": "Rua X"}}),
            "invalid_address",
            "payer.address",
        ),
        (
            json!({"payer": {"address": {"zip": "01310100"}}}),
            "unknown_field",
            "payer.address.zip",
        ),
    ] {
        let e = crate::json::from_json::<Body>(body.clone(), ADDRESS_FIELD_CODES).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (code, Some(field)), "{body}");
    }
}

/// The documented patterns of the address accept what `validate` accepts.
#[test]
fn the_address_patterns_are_what_validate_enforces() {
    let schema = serde_json::to_value(<Address as utoipa::PartialSchema>::schema()).unwrap();
    let pattern = |name: &str| {
        regex::Regex::new(schema["properties"][name]["pattern"].as_str().unwrap()).unwrap()
    };
    let (state, postal) = (pattern("state"), pattern("postalCode"));
    for code in [
        "01310-100",
        "01310100",
        "0131-0100",
        "1234567",
        "01310 100",
        "01310-1000",
    ] {
        let ok = Address {
            postal_code: Some(code.into()),
            ..Address::default()
        }
        .validate("a")
        .is_ok();
        assert_eq!(postal.is_match(code), ok, "{code}");
    }
    // The state's pattern is the UF list, in either case.
    for uf in UFS {
        assert!(state.is_match(uf) && state.is_match(&uf.to_lowercase()));
    }
    assert!(!state.is_match("SPA"));
}

#[test]
fn the_documented_address_patterns_are_what_validation_enforces() {
    use super::{Address, POSTAL_CODE_PATTERN, UF_PATTERN};
    let postal = regex::Regex::new(POSTAL_CODE_PATTERN).unwrap();
    for code in [
        "01310-100",
        "01310100",
        "0131-0100",
        "0131010",
        "013101000",
        "a1310-100",
    ] {
        let address = Address {
            postal_code: Some(code.to_owned()),
            ..Address::default()
        };
        assert_eq!(
            postal.is_match(code),
            address.validate("payer.address").is_ok(),
            "{code}"
        );
    }
    // Each UF in either case, and nothing else: the pattern is UFS written out.
    let derived: Vec<String> = super::UFS
        .iter()
        .map(|uf| {
            uf.chars()
                .map(|c| format!("[{c}{}]", c.to_ascii_lowercase()))
                .collect()
        })
        .collect();
    assert_eq!(UF_PATTERN, format!("^({})$", derived.join("|")));
    let uf = regex::Regex::new(UF_PATTERN).unwrap();
    for state in ["SP", "sp", "Df", "tO", "XX", "WL", "S", "SPA", "S1"] {
        let address = Address {
            state: Some(state.to_owned()),
            ..Address::default()
        };
        assert_eq!(
            uf.is_match(state),
            address.validate("payer.address").is_ok(),
            "{state}"
        );
    }
}

#[test]
fn the_documented_date_pattern_is_what_date_parse_reads() {
    let pattern = regex::Regex::new(super::DATE_PATTERN).unwrap();
    for text in [
        "2026-12-10",
        "1900-01-01",
        "9999-12-31",
        "1899-12-31",
        "0558-08-26",
        "2026-13-01",
        "2026-00-10",
        "2026-12-00",
        "2026-12-32",
        "2026-1-10",
        "20261210",
        "2026-12-10T00:00",
    ] {
        // The pattern is the shape; a real day (no 30 February) is the rest of the rule.
        if super::Date::parse(text).is_some() {
            assert!(pattern.is_match(text), "{text}");
        }
        if !pattern.is_match(text) {
            assert!(super::Date::parse(text).is_none(), "{text}");
        }
    }
    assert!(pattern.is_match("2026-02-30") && super::Date::parse("2026-02-30").is_none());
}
