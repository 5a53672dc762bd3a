//! Pix Automático mandates (DESIGN.md section 17): one row each, with the chain's decision
//! and, for a LIVE store, the PSP's recurrence.

use sqlx::{Any, AssertSqlSafe, Executor};

use pixgate_domain::StoreMode;
use pixgate_domain::TaxIdKind;
use pixgate_domain::mandate::{Frequency, Journey, MandateStatus, RetryPolicy};

use super::Flag;

#[derive(Debug, Clone)]
pub struct Mandate {
    pub id: String,
    pub merchant_id: String,
    pub store_id: String,
    pub status: MandateStatus,
    pub reference: String,
    pub description: Option<String>,
    pub payer_kind: TaxIdKind,
    pub payer_sealed: String,
    pub frequency: Frequency,
    pub start_date: String,
    pub end_date: Option<String>,
    pub amount_centavos: Option<i64>,
    pub minimum_amount_centavos: Option<i64>,
    pub auto_charge: Flag,
    pub retry_policy: RetryPolicy,
    pub journey: Journey,
    pub first_payment_centavos: Option<i64>,
    pub first_payment_intent_id: Option<String>,
    pub payer_account_sealed: Option<String>,
    pub metadata: String,
    pub idempotency_key: String,
    pub request_hash: String,
    pub routing_mode: StoreMode,
    pub routing_policy: String,
    pub provider_code: String,
    pub gateway_alias: String,
    pub recurrence_id: Option<String>,
    pub trace: String,
    pub authorization_json: Option<String>,
    pub rejection: Option<String>,
    pub cancellation: Option<String>,
    pub failure: Option<String>,
    pub reconcile_at: Option<i64>,
    /// A mandate that charges itself: the next cycle pixgate charges, and from when (Unix ms).
    pub next_cycle: Option<i64>,
    pub next_charge_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

crate::db::from_row!(Mandate {
    id,
    merchant_id,
    store_id,
    status: try_from(String),
    reference,
    description,
    payer_kind: try_from(String),
    payer_sealed,
    frequency: try_from(String),
    start_date,
    end_date,
    amount_centavos,
    minimum_amount_centavos,
    auto_charge: try_from(i64),
    retry_policy: try_from(String),
    journey: try_from(String),
    first_payment_centavos,
    first_payment_intent_id,
    payer_account_sealed,
    metadata,
    idempotency_key,
    request_hash,
    routing_mode: try_from(String),
    routing_policy,
    provider_code,
    gateway_alias,
    recurrence_id,
    trace,
    authorization_json,
    rejection,
    cancellation,
    failure,
    reconcile_at,
    next_cycle,
    next_charge_at,
    created_at,
    updated_at
});

const COLUMNS: &str = "id, merchant_id, store_id, status, reference, description, payer_kind, \
    payer_sealed, frequency, start_date, end_date, amount_centavos, minimum_amount_centavos, \
    auto_charge, retry_policy, journey, first_payment_centavos, first_payment_intent_id, \
    payer_account_sealed, metadata, idempotency_key, request_hash, routing_mode, routing_policy, \
    provider_code, gateway_alias, recurrence_id, trace, authorization_json, rejection, cancellation, \
    failure, reconcile_at, next_cycle, next_charge_at, created_at, updated_at";

/// Inserts a new mandate; false when the merchant's key already made one (a concurrent
/// duplicate committed first: the caller replays it).
pub async fn insert<'e>(ex: impl Executor<'e, Database = Any>, m: &Mandate) -> sqlx::Result<bool> {
    let done = sqlx::query(AssertSqlSafe(format!(
        "insert into mandates ({COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
         $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, \
         $29, $30, $31, $32, $33, $34, $35, $36, $37) on conflict (merchant_id, idempotency_key) do nothing"
    )))
    .bind(&m.id)
    .bind(&m.merchant_id)
    .bind(&m.store_id)
    .bind(m.status.as_str())
    .bind(&m.reference)
    .bind(&m.description)
    .bind(m.payer_kind.as_str())
    .bind(&m.payer_sealed)
    .bind(m.frequency.as_str())
    .bind(&m.start_date)
    .bind(&m.end_date)
    .bind(m.amount_centavos)
    .bind(m.minimum_amount_centavos)
    .bind(m.auto_charge.as_i64())
    .bind(m.retry_policy.as_str())
    .bind(m.journey.as_str())
    .bind(m.first_payment_centavos)
    .bind(&m.first_payment_intent_id)
    .bind(&m.payer_account_sealed)
    .bind(&m.metadata)
    .bind(&m.idempotency_key)
    .bind(&m.request_hash)
    .bind(m.routing_mode.as_str())
    .bind(&m.routing_policy)
    .bind(&m.provider_code)
    .bind(&m.gateway_alias)
    .bind(&m.recurrence_id)
    .bind(&m.trace)
    .bind(&m.authorization_json)
    .bind(&m.rejection)
    .bind(&m.cancellation)
    .bind(&m.failure)
    .bind(m.reconcile_at)
    .bind(m.next_cycle)
    .bind(m.next_charge_at)
    .bind(m.created_at)
    .bind(m.updated_at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn get<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<Mandate>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from mandates where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// The mandate the merchant's Idempotency-Key made.
pub async fn by_key<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
    key: &str,
) -> sqlx::Result<Option<Mandate>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from mandates where merchant_id = $1 and idempotency_key = $2"
    )))
    .bind(merchant_id)
    .bind(key)
    .fetch_optional(ex)
    .await
}

/// A page of a merchant's mandates, newest first.
#[derive(Debug, Clone, Default)]
pub struct Filter<'a> {
    /// Only this merchant's (an API key's, or the one an operator names).
    pub merchant_id: Option<&'a str>,
    /// Only these stores (the ones the key is granted, or one of them).
    pub store_ids: Option<&'a [String]>,
    pub status: Option<MandateStatus>,
    pub reference: Option<&'a str>,
    /// The previous page's last mandate: only those created before it.
    pub before: Option<(i64, &'a str)>,
    pub limit: i64,
}

pub async fn page<'e>(
    ex: impl Executor<'e, Database = Any>,
    filter: &Filter<'_>,
) -> sqlx::Result<Vec<Mandate>> {
    if filter.store_ids.is_some_and(<[String]>::is_empty) {
        return Ok(Vec::new());
    }
    let mut sql = format!("select {COLUMNS} from mandates where 1 = 1");
    let mut n = 0;
    if filter.merchant_id.is_some() {
        n += 1;
        sql.push_str(&format!(" and merchant_id = ${n}"));
    }
    if let Some(stores) = filter.store_ids {
        sql.push_str(" and store_id in (");
        for i in 0..stores.len() {
            n += 1;
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("${n}"));
        }
        sql.push(')');
    }
    if filter.status.is_some() {
        n += 1;
        sql.push_str(&format!(" and status = ${n}"));
    }
    if filter.reference.is_some() {
        n += 1;
        sql.push_str(&format!(" and reference = ${n}"));
    }
    if filter.before.is_some() {
        sql.push_str(&format!(
            " and (created_at < ${} or (created_at = ${} and id < ${}))",
            n + 1,
            n + 1,
            n + 2
        ));
        n += 2;
    }
    sql.push_str(&format!(
        " order by created_at desc, id desc limit ${}",
        n + 1
    ));
    let mut query = sqlx::query_as(AssertSqlSafe(sql));
    if let Some(merchant_id) = filter.merchant_id {
        query = query.bind(merchant_id);
    }
    for store in filter.store_ids.unwrap_or_default() {
        query = query.bind(store);
    }
    if let Some(status) = filter.status {
        query = query.bind(status.as_str());
    }
    if let Some(reference) = filter.reference {
        query = query.bind(reference);
    }
    if let Some((created_at, id)) = filter.before {
        query = query.bind(created_at).bind(id);
    }
    query.bind(filter.limit).fetch_all(ex).await
}

/// A LIVE mandate's recurrence, once a PSP accepted it: where it lives (every charge of the
/// mandate goes there) and the PSP's id of it.
pub async fn record_recurrence<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    provider_code: &str,
    gateway_alias: &str,
    recurrence_id: &str,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "update mandates set provider_code = $1, gateway_alias = $2, recurrence_id = $3, \
         updated_at = $4 where id = $5",
    )
    .bind(provider_code)
    .bind(gateway_alias)
    .bind(recurrence_id)
    .bind(now)
    .bind(id)
    .execute(ex)
    .await?;
    Ok(())
}

/// What the payer answers (the QR code or the request sent to their bank), and when the
/// reconciler first reads the mandate.
pub async fn record_authorization<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    authorization_json: Option<&str>,
    first_payment_intent_id: Option<&str>,
    reconcile_at: i64,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "update mandates set authorization_json = coalesce($1, authorization_json), \
           first_payment_intent_id = coalesce($2, first_payment_intent_id), reconcile_at = $3, \
           updated_at = $4 where id = $5",
    )
    .bind(authorization_json)
    .bind(first_payment_intent_id)
    .bind(reconcile_at)
    .bind(now)
    .bind(id)
    .execute(ex)
    .await?;
    Ok(())
}

/// Moves a mandate from `from` to `to` with what the move records (`None` keeps what is
/// there); false when it was no longer in `from` (a callback, the reconciler or another
/// instance moved it first). A terminal status is read no more (`reconcile_at` null).
#[allow(clippy::too_many_arguments)]
pub async fn transition<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    from: MandateStatus,
    to: MandateStatus,
    rejection: Option<&str>,
    cancellation: Option<&str>,
    failure: Option<&str>,
    reconcile_at: Option<i64>,
    now: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update mandates set status = $1, rejection = coalesce($2, rejection), \
           cancellation = coalesce($3, cancellation), failure = coalesce($4, failure), \
           reconcile_at = $5, updated_at = $6, \
           next_charge_at = case when $9 = 1 then null else next_charge_at end \
         where id = $7 and status = $8",
    )
    .bind(to.as_str())
    .bind(rejection)
    .bind(cancellation)
    .bind(failure)
    .bind(if to.is_terminal() { None } else { reconcile_at })
    .bind(now)
    .bind(id)
    .bind(from.as_str())
    .bind(i64::from(to.is_terminal()))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Takes a mandate for a read by this instance: its `reconcile_at` moves from `seen` to
/// `until` only if nobody moved it meanwhile (a compare-and-set: one instance reads it).
pub async fn claim<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    seen: Option<i64>,
    until: i64,
) -> sqlx::Result<bool> {
    // Two statements rather than `$3 is null`, whose type PostgreSQL cannot infer.
    let done = match seen {
        Some(seen) => {
            sqlx::query("update mandates set reconcile_at = $1 where id = $2 and reconcile_at = $3")
                .bind(until)
                .bind(id)
                .bind(seen)
                .execute(ex)
                .await?
        }
        None => {
            sqlx::query(
                "update mandates set reconcile_at = $1 where id = $2 and reconcile_at is null",
            )
            .bind(until)
            .bind(id)
            .execute(ex)
            .await?
        }
    };
    Ok(done.rows_affected() == 1)
}

/// LIVE mandates waiting for the payer or active whose read is due: at most `limit`, the
/// longest waiting first. A mandate whose recurrence is not known yet is its creating
/// request's, not the reconciler's.
pub async fn due<'e>(
    ex: impl Executor<'e, Database = Any>,
    now: i64,
    limit: i64,
) -> sqlx::Result<Vec<Mandate>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from mandates where status in ('PENDING_AUTHORIZATION', 'ACTIVE') \
           and recurrence_id is not null and reconcile_at <= $1 \
         order by reconcile_at limit $2"
    )))
    .bind(now)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// The mandate whose recurrence `recurrence_id` lives at `provider_code` (a callback names it).
pub async fn by_recurrence<'e>(
    ex: impl Executor<'e, Database = Any>,
    provider_code: &str,
    recurrence_id: &str,
) -> sqlx::Result<Option<Mandate>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from mandates where provider_code = $1 and recurrence_id = $2"
    )))
    .bind(provider_code)
    .bind(recurrence_id)
    .fetch_optional(ex)
    .await
}

/// Mandates whose next charge pixgate makes itself is due at `now` (an `ACTIVE` one, or a
/// SHADOW store's), oldest due first.
pub async fn due_auto_charges<'e>(
    ex: impl Executor<'e, Database = Any>,
    now: i64,
    limit: i64,
) -> sqlx::Result<Vec<Mandate>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from mandates where next_charge_at <= $1 \
           and status in ('ACTIVE', 'SHADOW_ONLY') order by next_charge_at limit $2"
    )))
    .bind(now)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// Moves a mandate's self-made charges on from cycle `done` to `next` (due to be made from
/// `at`; `None` when none is to come), only if nobody moved them meanwhile (a compare-and-set:
/// of several instances one moves them).
pub async fn advance_auto_charge<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    done: i64,
    next: Option<i64>,
    at: Option<i64>,
) -> sqlx::Result<bool> {
    let moved = sqlx::query(
        "update mandates set next_cycle = $3, next_charge_at = $4 where id = $1 and next_cycle = $2",
    )
    .bind(id)
    .bind(done)
    .bind(next)
    .bind(at)
    .execute(ex)
    .await?;
    Ok(moved.rows_affected() == 1)
}
