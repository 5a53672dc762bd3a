//! What a recurring charge is made under (DESIGN.md section 17): the mandate's frequency, its
//! cycles, the terms the chain sees (`mandate-terms`), and a charge's attempts at the payer's
//! bank. A module of its own so that the charge and the mandate bodies both take it without
//! taking each other.

use crate::due::Date;
use crate::text_enum;

text_enum!(
    /// How often a mandate charges (API Pix `periodicidade`).
    Frequency {
        Weekly = "WEEKLY",
        Monthly = "MONTHLY",
        Quarterly = "QUARTERLY",
        Semiannual = "SEMIANNUAL",
        Annual = "ANNUAL",
    }
);

/// What a recurring charge is made under, as the chain sees it (`mandate-terms`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringTerms {
    pub mandate_id: String,
    pub frequency: Frequency,
    /// The cycle, from 1.
    pub cycle: u32,
    pub due_date: Date,
}

text_enum!(
    /// An attempt's status: the standard's `tentativa` statuses (`SOLICITADA`, `AGENDADA`,
    /// `PAGA`, `CANCELADA`, `REJEITADA`, `EXPIRADA`) in pixgate's words.
    AttemptStatus {
        Requested = "REQUESTED",
        Scheduled = "SCHEDULED",
        Paid = "PAID",
        Canceled = "CANCELED",
        Rejected = "REJECTED",
        Expired = "EXPIRED",
    }
);

/// One attempt of a recurring charge at the payer's bank, as the intent shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    /// The day it is (or was) made, `YYYY-MM-DD`.
    #[schema(format = Date)]
    pub date: String,
    pub status: AttemptStatus,
    /// Why a rejected attempt failed: the standard's code (e.g. `AM04`, insufficient funds)
    /// and its description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<AttemptFailure>,
}

/// The code and description of a rejected attempt.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct AttemptFailure {
    pub code: String,
    pub message: String,
}

impl Frequency {
    /// The months between two cycles; `None` for weekly (seven days).
    fn months(self) -> Option<i32> {
        match self {
            Self::Weekly => None,
            Self::Monthly => Some(1),
            Self::Quarterly => Some(3),
            Self::Semiannual => Some(6),
            Self::Annual => Some(12),
        }
    }

    /// The due date of cycle `n` (from 1) of a mandate starting on `start`: the start date
    /// moved by whole periods, on the same day of the month, or the month's last day when it
    /// has no such day (a mandate from 31 January is due on 28 or 29 February).
    pub fn cycle_date(self, start: Date, n: u32) -> Date {
        let steps = i64::from(n.max(1) - 1);
        let Some(months) = self.months() else {
            return start.add_days(7 * steps);
        };
        let (year, month, day) = start.ymd();
        let index = i64::from(year) * 12 + i64::from(month - 1) + steps * i64::from(months);
        let (year, month) = ((index / 12) as i32, (index % 12) as u32 + 1);
        let day = day.min(crate::due::days_in_month(year, month));
        Date::from_ymd(year, month, day).unwrap_or(Date::MAX)
    }

    /// The cycle `date` falls in: the last whose due date is not after it; `None` before the
    /// start date.
    pub fn cycle_of(self, start: Date, date: Date) -> Option<u32> {
        if date < start {
            return None;
        }
        // An estimate from the days between, then corrected: month lengths vary.
        let period_days = match self.months() {
            None => 7,
            Some(m) => 30 * i64::from(m),
        };
        let mut n = (start.days_until(date) / period_days + 1).clamp(1, i64::from(u32::MAX)) as u32;
        while n > 1 && self.cycle_date(start, n) > date {
            n -= 1;
        }
        while self.cycle_date(start, n + 1) <= date {
            n += 1;
        }
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    #[test]
    fn cycles_fall_on_the_start_dates_day_or_the_months_last() {
        let start = d("2031-01-31");
        let monthly: Vec<String> = (1..=4)
            .map(|n| Frequency::Monthly.cycle_date(start, n).to_string())
            .collect();
        assert_eq!(
            monthly,
            ["2031-01-31", "2031-02-28", "2031-03-31", "2031-04-30"]
        );
        assert_eq!(
            Frequency::Annual.cycle_date(d("2032-02-29"), 2).to_string(),
            "2033-02-28"
        );
        assert_eq!(
            Frequency::Weekly.cycle_date(start, 3).to_string(),
            "2031-02-14"
        );
        assert_eq!(
            Frequency::Quarterly
                .cycle_date(d("2031-11-15"), 2)
                .to_string(),
            "2032-02-15"
        );
    }

    #[test]
    fn a_date_belongs_to_the_last_cycle_due_by_then() {
        let start = d("2031-01-31");
        let f = Frequency::Monthly;
        assert_eq!(f.cycle_of(start, d("2031-01-30")), None);
        assert_eq!(f.cycle_of(start, start), Some(1));
        assert_eq!(f.cycle_of(start, d("2031-02-27")), Some(1));
        assert_eq!(f.cycle_of(start, d("2031-02-28")), Some(2));
        assert_eq!(f.cycle_of(start, d("2032-01-31")), Some(13));
        for frequency in Frequency::ALL {
            for n in 1..=40 {
                let due = frequency.cycle_date(start, n);
                assert_eq!(frequency.cycle_of(start, due), Some(n), "{frequency} {n}");
                assert_eq!(
                    frequency.cycle_of(start, due.add_days(-1)),
                    Some(n - 1).filter(|&c| c > 0),
                    "{frequency} {n}"
                );
            }
        }
    }
}
