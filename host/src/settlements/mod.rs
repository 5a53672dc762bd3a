//! The settlement calendar (DESIGN.md section 18): what arrives from which PSP on which day.
//! One row per settlement date, merchant, provider, gateway and release class: the LIVE
//! payments that succeeded and settle that day (their count, gross and fees, from the
//! economics each charge recorded when it was routed) and the refunds of those groups' payments
//! that completed that Brasília day; `net = gross - fees - refunds`. SHADOW payments moved no
//! money and are not in it.
//!
//! Operators read every merchant's rows; a merchant's key reads the rows of its granted stores
//! only. The same rows render as JSON or as CSV.

pub mod view;

use std::collections::BTreeMap;

use crate::access::{MissingScope, Principal, Scope};
use crate::db::settlements::{self as sql, PaymentSums, RefundSums};
use crate::db::{Db, DbError, catalog, providers};
use crate::internal::Internal;
use pixgate_domain::due::Date;
use pixgate_domain::json::Invalid;

/// The longest report: a year of settlement dates (a leap year's).
const MAX_DAYS: i64 = 366;

#[derive(Debug, thiserror::Error)]
pub enum SettlementError {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error(transparent)]
    MissingScope(#[from] MissingScope),
    #[error("merchant `{0}` does not exist")]
    MerchantNotFound(String),
    #[error("provider `{0}` does not exist")]
    ProviderNotFound(String),
    /// Details go to the log, never to the client.
    #[error(transparent)]
    Internal(#[from] Internal),
}

impl From<sqlx::Error> for SettlementError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl From<DbError> for SettlementError {
    fn from(e: DbError) -> Self {
        Self::Internal(e.into())
    }
}

/// What a report covers: settlement dates `from` to `to` (inclusive), optionally one
/// merchant's (admin only) and one provider's.
#[derive(Debug, Clone)]
pub struct Period {
    pub from: Date,
    pub to: Date,
    pub provider: Option<String>,
}

impl Period {
    /// `from` and `to` as given, checked: `from` not after `to`, at most [`MAX_DAYS`] days.
    pub fn new(from: Date, to: Date, provider: Option<String>) -> Result<Self, Invalid> {
        if from > to {
            return Err(Invalid::new(
                "invalid_range",
                "to",
                format!("`to` ({to}) is before `from` ({from})"),
            ));
        }
        if from.days_until(to) >= MAX_DAYS {
            return Err(Invalid::new(
                "invalid_range",
                "to",
                format!("a report covers at most {MAX_DAYS} days; ask for the year in parts"),
            ));
        }
        Ok(Self { from, to, provider })
    }
}

/// One row of the calendar, in centavos.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettlementRow {
    pub settlement_date: Date,
    pub merchant: String,
    pub provider: String,
    pub gateway_alias: String,
    pub release_class: String,
    pub payments: i64,
    pub gross: i64,
    pub fees: i64,
    pub refunds: i64,
}

impl SettlementRow {
    pub fn net(&self) -> i64 {
        self.gross - self.fees - self.refunds
    }
}

/// The settlement calendar. Built once by the composition root; cheap to clone.
#[derive(Clone)]
pub struct Settlements {
    db: Db,
}

impl std::fmt::Debug for Settlements {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settlements").finish_non_exhaustive()
    }
}

/// The scopes a merchant's key reads its settlements with.
const READ_SCOPES: [Scope; 2] = [Scope::PaymentsRead, Scope::PaymentsCreate];

impl Settlements {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Every merchant's rows, or `merchant`'s (a merchant's code).
    pub async fn report(
        &self,
        period: &Period,
        merchant: Option<&str>,
    ) -> Result<Vec<SettlementRow>, SettlementError> {
        let merchant_id = match merchant {
            None => None,
            Some(code) => Some(
                catalog::merchant_by_code(&self.db.read, code)
                    .await?
                    .ok_or_else(|| SettlementError::MerchantNotFound(code.to_owned()))?
                    .id,
            ),
        };
        self.rows(period, merchant_id.as_deref(), None).await
    }

    /// The rows of the stores granted to `principal`'s key.
    pub async fn for_merchant(
        &self,
        principal: &Principal,
        period: &Period,
    ) -> Result<Vec<SettlementRow>, SettlementError> {
        principal.require_any(&READ_SCOPES)?;
        self.rows(
            period,
            Some(&principal.merchant_id),
            Some(&principal.store_ids),
        )
        .await
    }

    async fn rows(
        &self,
        period: &Period,
        merchant_id: Option<&str>,
        stores: Option<&[String]>,
    ) -> Result<Vec<SettlementRow>, SettlementError> {
        if let Some(code) = &period.provider
            && providers::by_code(&self.db.read, code).await?.is_none()
        {
            return Err(SettlementError::ProviderNotFound(code.clone()));
        }
        let (from, to) = (period.from.to_string(), period.to.to_string());
        let scope = sql::Scope {
            from: &from,
            to: &to,
            completed: (
                crate::charges::brasilia_midnight_ms(period.from),
                crate::charges::brasilia_midnight_ms(period.to.add_days(1)),
            ),
            merchant_id,
            provider: period.provider.as_deref(),
            stores,
        };
        let payments = sql::payments(&self.db.read, &scope).await?;
        let refunds = sql::refunds(&self.db.read, &scope).await?;
        merge(payments, refunds)
    }
}

/// The payments' and the refunds' sums as one row per group, ordered by date, merchant,
/// provider, gateway and release class.
fn merge(
    payments: Vec<PaymentSums>,
    refunds: Vec<RefundSums>,
) -> Result<Vec<SettlementRow>, SettlementError> {
    type Key = (Date, String, String, String, String);
    let mut rows: BTreeMap<Key, SettlementRow> = BTreeMap::new();
    let row = |key: &Key| SettlementRow {
        settlement_date: key.0,
        merchant: key.1.clone(),
        provider: key.2.clone(),
        gateway_alias: key.3.clone(),
        release_class: key.4.clone(),
        payments: 0,
        gross: 0,
        fees: 0,
        refunds: 0,
    };
    for p in payments {
        let date = Date::parse(&p.settlement_date).ok_or_else(|| {
            Internal::broken(format!(
                "settlement date {:?} is no date",
                p.settlement_date
            ))
        })?;
        let key = (
            date,
            p.merchant,
            p.provider_code,
            p.gateway_alias,
            p.release_class,
        );
        let entry = rows.entry(key.clone()).or_insert_with(|| row(&key));
        entry.payments += p.payments;
        entry.gross += p.gross_centavos;
        entry.fees += p.fee_centavos;
    }
    for r in refunds {
        let key = (
            Date::from_days_since_unix_epoch(r.day),
            r.merchant,
            r.provider_code,
            r.gateway_alias,
            r.release_class,
        );
        let entry = rows.entry(key.clone()).or_insert_with(|| row(&key));
        entry.refunds += r.refunded_centavos;
    }
    Ok(rows.into_values().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    #[test]
    fn a_period_runs_forwards_and_for_a_year_at_most() {
        assert!(Period::new(date("2026-01-01"), date("2026-01-01"), None).is_ok());
        assert!(Period::new(date("2024-01-01"), date("2024-12-31"), None).is_ok());
        let backwards = Period::new(date("2026-01-02"), date("2026-01-01"), None).unwrap_err();
        assert_eq!(backwards.code, "invalid_range");
        let long = Period::new(date("2025-01-01"), date("2026-01-02"), None).unwrap_err();
        assert_eq!(long.code, "invalid_range");
    }

    #[test]
    fn refunds_join_their_groups_row_and_make_one_of_their_own_on_a_day_without_payments() {
        let group = |date: &str| PaymentSums {
            settlement_date: date.into(),
            merchant: "acme".into(),
            provider_code: "psp-a".into(),
            gateway_alias: "gw".into(),
            release_class: "D0".into(),
            payments: 2,
            gross_centavos: 10_000,
            fee_centavos: 200,
        };
        let refund = |day: &str, centavos| RefundSums {
            day: date(day).days_since_unix_epoch(),
            merchant: "acme".into(),
            provider_code: "psp-a".into(),
            gateway_alias: "gw".into(),
            release_class: "D0".into(),
            refunded_centavos: centavos,
        };
        let rows = merge(
            vec![group("2026-03-02"), group("2026-03-01")],
            vec![refund("2026-03-02", 500), refund("2026-03-03", 700)],
        )
        .unwrap();
        let summary: Vec<(String, i64, i64)> = rows
            .iter()
            .map(|r| (r.settlement_date.to_string(), r.payments, r.net()))
            .collect();
        assert_eq!(
            summary,
            [
                ("2026-03-01".to_owned(), 2, 9_800),
                ("2026-03-02".to_owned(), 2, 9_300),
                ("2026-03-03".to_owned(), 0, -700),
            ]
        );
    }
}
