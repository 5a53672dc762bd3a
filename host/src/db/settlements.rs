//! The settlement calendar's sums (migration 0024, DESIGN.md section 18): the LIVE payments
//! that succeeded, grouped by the settlement date their economics recorded, and the refunds
//! that completed, grouped by the Brasília day they completed on, each by merchant, provider,
//! gateway and release class. The database adds; the service merges the two.

use sqlx::{Any, AssertSqlSafe, Executor};

/// Which payments and refunds a report covers.
#[derive(Debug, Clone)]
pub struct Scope<'a> {
    /// Settlement dates, `YYYY-MM-DD`, inclusive.
    pub from: &'a str,
    pub to: &'a str,
    /// `[start, end)` in Unix ms: the Brasília days `from` to `to`, for refunds.
    pub completed: (i64, i64),
    pub merchant_id: Option<&'a str>,
    pub provider: Option<&'a str>,
    /// Only these stores' payments (a merchant's key: its granted stores).
    pub stores: Option<&'a [String]>,
}

/// What one group's payments add up to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentSums {
    pub settlement_date: String,
    pub merchant: String,
    pub provider_code: String,
    pub gateway_alias: String,
    pub release_class: String,
    pub payments: i64,
    pub gross_centavos: i64,
    pub fee_centavos: i64,
}

crate::db::from_row!(PaymentSums {
    settlement_date,
    merchant,
    provider_code,
    gateway_alias,
    release_class,
    payments,
    gross_centavos,
    fee_centavos
});

/// What one group's refunds add up to on one Brasília day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundSums {
    /// Days since 1970-01-01 in Brasília.
    pub day: i64,
    pub merchant: String,
    pub provider_code: String,
    pub gateway_alias: String,
    pub release_class: String,
    pub refunded_centavos: i64,
}

crate::db::from_row!(RefundSums {
    day,
    merchant,
    provider_code,
    gateway_alias,
    release_class,
    refunded_centavos
});

/// Brasília is UTC-3 all year (no daylight saving since 2019): a day starts at 03:00 UTC.
/// Literals in the statement, not parameters: PostgreSQL groups by the select's expression
/// only when it is written the same way.
const BRASILIA_OFFSET_MS: i64 = 3 * 3_600_000;
const DAY_MS: i64 = 86_400_000;

/// The filters after the statement's own parameters, numbered from `next`: the SQL and the
/// values to bind, in order.
fn filters(scope: &Scope<'_>, mut next: usize) -> (String, Vec<String>) {
    let mut sql = String::new();
    let mut values = Vec::new();
    let mut add = |sql_part: &str, value: &str, next: &mut usize| {
        sql.push_str(&sql_part.replace('?', &format!("${next}")));
        values.push(value.to_owned());
        *next += 1;
    };
    if let Some(m) = scope.merchant_id {
        add(" and i.merchant_id = ?", m, &mut next);
    }
    if let Some(p) = scope.provider {
        add(" and i.provider_code = ?", p, &mut next);
    }
    if let Some(stores) = scope.stores {
        if stores.is_empty() {
            sql.push_str(" and 1 = 0");
        } else {
            let list: Vec<String> = (next..next + stores.len())
                .map(|n| format!("${n}"))
                .collect();
            sql.push_str(&format!(" and i.store_id in ({})", list.join(", ")));
            values.extend(stores.iter().cloned());
        }
    }
    (sql, values)
}

/// The succeeded LIVE payments settling from `from` to `to`, summed per group. The gross is
/// what the payer paid: a due-date charge's amount with its fine, interest and discounts, a
/// wrong amount an admin accepted, else the amount charged.
pub async fn payments<'e>(
    ex: impl Executor<'e, Database = Any>,
    scope: &Scope<'_>,
) -> sqlx::Result<Vec<PaymentSums>> {
    let (filter, values) = filters(scope, 3);
    let sql = format!(
        "select i.settlement_date as settlement_date, m.code as merchant, \
           i.provider_code as provider_code, i.gateway_alias as gateway_alias, \
           i.release_class as release_class, count(*) as payments, \
           cast(sum(coalesce(i.amount_paid_centavos, \
               case when i.resolution = 'accept' then i.received_centavos end, \
               i.amount_centavos)) as bigint) as gross_centavos, \
           cast(sum(i.fee_centavos) as bigint) as fee_centavos \
         from payment_intents i join merchants m on m.id = i.merchant_id \
         where i.status = 'SUCCEEDED' and i.routing_mode = 'LIVE' \
           and i.settlement_date >= $1 and i.settlement_date <= $2{filter} \
         group by i.settlement_date, m.code, i.provider_code, i.gateway_alias, i.release_class"
    );
    let mut q = sqlx::query_as(AssertSqlSafe(sql))
        .bind(scope.from)
        .bind(scope.to);
    for v in values {
        q = q.bind(v);
    }
    q.fetch_all(ex).await
}

/// The refunds of succeeded LIVE payments that completed `SUCCEEDED` within
/// `scope.completed`, summed per group of their payment and Brasília day. (A charge that never
/// succeeded is in no row: the pix it received and gave back, a wrong amount or one paid after
/// its cancel, cancel out outside the calendar.)
pub async fn refunds<'e>(
    ex: impl Executor<'e, Database = Any>,
    scope: &Scope<'_>,
) -> sqlx::Result<Vec<RefundSums>> {
    let (filter, values) = filters(scope, 3);
    let sql = format!(
        "select (r.completed_at - {BRASILIA_OFFSET_MS}) / {DAY_MS} as day, m.code as merchant, \
           i.provider_code as provider_code, i.gateway_alias as gateway_alias, \
           i.release_class as release_class, \
           cast(sum(r.amount_centavos) as bigint) as refunded_centavos \
         from refunds r join payment_intents i on i.id = r.payment_intent_id \
           join merchants m on m.id = i.merchant_id \
         where r.status = 'SUCCEEDED' and i.status = 'SUCCEEDED' and i.routing_mode = 'LIVE' \
           and r.completed_at >= $1 and r.completed_at < $2{filter} \
         group by (r.completed_at - {BRASILIA_OFFSET_MS}) / {DAY_MS}, m.code, i.provider_code, i.gateway_alias, \
           i.release_class"
    );
    let mut q = sqlx::query_as(AssertSqlSafe(sql))
        .bind(scope.completed.0)
        .bind(scope.completed.1);
    for v in values {
        q = q.bind(v);
    }
    q.fetch_all(ex).await
}
