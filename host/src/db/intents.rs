//! Payment intents and their decision traces.

use sqlx::{Any, AssertSqlSafe, Executor};

use super::{Flag, Params};
use pixgate_domain::due::{Date, DueDateFields, DueTerms};
use pixgate_domain::{ChargeKind, IntentStatus, Money, StoreMode, TaxIdKind};

/// A payment intent's row. Built by [`Intent::new`] (a new intent, as the chain resolved it)
/// or read from the table.
#[derive(Debug, Clone)]
pub struct Intent {
    pub id: String,
    pub merchant_id: String,
    pub store_id: String,
    pub kind: ChargeKind,
    pub status: IntentStatus,
    pub amount_centavos: i64,
    pub currency: String,
    pub reference: String,
    pub description: Option<String>,
    pub payer_kind: TaxIdKind,
    pub payer_sealed: String,
    pub metadata: String,
    pub idempotency_key: String,
    pub routing_mode: StoreMode,
    pub routing_policy: String,
    pub provider_code: String,
    pub gateway_alias: String,
    pub release_class: String,
    pub cross_class_failover: Flag,
    pub fee_centavos: i64,
    pub net_centavos: i64,
    pub settlement_date: String,
    pub provider_payment_id: Option<String>,
    pub failure_code: Option<String>,
    pub failure_message: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub completed_at: Option<i64>,
    /// The API Pix charge behind a LIVE intent (none for SHADOW, or when no PSP created it).
    pub txid: Option<String>,
    pub pix_location: Option<String>,
    pub pix_copy_paste: Option<String>,
    pub pix_expires_at: Option<i64>,
    /// A `PENDING` intent is re-read at its PSP from this time on (the reconciler's lease).
    pub reconcile_at: Option<i64>,
    /// A due-date charge's terms, as JSON (`DueTerms::to_json`).
    pub due_terms: Option<String>,
    /// What a due-date charge was paid with (the pix's `valor`), once paid.
    pub amount_paid_centavos: Option<i64>,
    /// The parts of that amount, as JSON in centavos (`original`, `fine`, `interest`,
    /// `abatement`, `discount`).
    pub amount_components: Option<String>,
    /// A recurring charge's mandate, cycle, due date and attempts.
    pub recurring: RecurringRow,
    /// Refunds and the wrong-amount exit; written by their own statements, never by
    /// [`insert`] (a new intent has none).
    pub money_back: MoneyBack,
}

crate::db::from_row!(Intent {
    id,
    merchant_id,
    store_id,
    kind: try_from(String),
    status: try_from(String),
    amount_centavos,
    currency,
    reference,
    description,
    payer_kind: try_from(String),
    payer_sealed,
    metadata,
    idempotency_key,
    routing_mode: try_from(String),
    routing_policy,
    provider_code,
    gateway_alias,
    release_class,
    cross_class_failover: try_from(i64),
    fee_centavos,
    net_centavos,
    settlement_date,
    provider_payment_id,
    failure_code,
    failure_message,
    created_at,
    updated_at,
    completed_at,
    txid,
    pix_location,
    pix_copy_paste,
    pix_expires_at,
    reconcile_at,
    due_terms,
    amount_paid_centavos,
    amount_components,
    recurring: flatten,
    money_back: flatten
});

/// What makes an intent a charge under a mandate (all `None` for another kind).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecurringRow {
    pub mandate_id: Option<String>,
    /// The mandate's cycle it charges, from 1: one charge per cycle.
    pub mandate_cycle: Option<i64>,
    /// `YYYY-MM-DD`.
    pub due_date: Option<String>,
    /// JSON array of its attempts as the intent shows them (`{date, status, failure?}`).
    pub attempts: Option<String>,
}

crate::db::from_row!(RecurringRow {
    mandate_id,
    mandate_cycle,
    due_date,
    attempts
});

pixgate_domain::text_enum!(
    /// How an admin resolves a charge paid with the wrong amount.
    Resolution {
        /// Keep the money: `SUCCEEDED` at the pix's settlement time, with the amount received
        /// beside the amount asked.
        Accept = "accept",
        /// Give back what was received less what was already refunded (a MED's included); the
        /// intent ends `CANCELED` once that devolução is made.
        Refund = "refund",
    }
);

/// A nullable text column read as an `Option` of a text enum: `field: try_from(OptionalText)`
/// in `from_row!`. NULL is `None`; a name the enum does not know is a corrupt row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionalText(pub Option<String>);

impl sqlx::Type<Any> for OptionalText {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <String as sqlx::Type<Any>>::type_info()
    }

    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        <String as sqlx::Type<Any>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, Any> for OptionalText {
    fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        <Option<String> as sqlx::Decode<'r, Any>>::decode(value).map(Self)
    }
}

impl<T: TryFrom<String, Error = String>> TryFrom<OptionalText> for Option<T> {
    type Error = String;

    fn try_from(text: OptionalText) -> Result<Self, String> {
        text.0.map(T::try_from).transpose()
    }
}

/// What an intent has given back, and a pix of the wrong amount it received.
#[derive(Debug, Clone, Default)]
pub struct MoneyBack {
    /// `PENDING` and `SUCCEEDED` refunds.
    pub refund_reserved_centavos: i64,
    /// `SUCCEEDED` refunds: `amountRefunded`.
    pub refunded_centavos: i64,
    /// A pix of another amount than the charge's, as first read at the PSP.
    pub received_centavos: Option<i64>,
    pub received_e2eid: Option<String>,
    /// When that pix was settled at the PSP (its `horario`); none when it was first read
    /// before migration 0013.
    pub received_at: Option<i64>,
    /// Once an admin resolved the wrong amount.
    pub resolution: Option<Resolution>,
    pub resolution_reason: Option<String>,
}

/// The parts of a due-date charge's paid amount in centavos, as `amount_components` keeps
/// them (JSON).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PaidComponents {
    pub original: u64,
    pub fine: u64,
    pub interest: u64,
    pub abatement: u64,
    pub discount: u64,
}

/// What a new intent is: the charge as asked, and where the chain routed it.
#[derive(Debug, Clone)]
pub struct NewIntent {
    pub id: String,
    pub merchant_id: String,
    pub store_id: String,
    pub kind: ChargeKind,
    pub amount_centavos: i64,
    pub reference: String,
    pub description: Option<String>,
    /// `CPF` or `CNPJ`; the payer itself is sealed.
    pub payer_kind: TaxIdKind,
    pub payer_sealed: String,
    pub metadata: String,
    pub idempotency_key: String,
    pub routing: Routing,
    /// A due-date charge's terms, as JSON.
    pub due_terms: Option<String>,
    /// A recurring charge's mandate, cycle and due date.
    pub recurring: RecurringRow,
    pub created_at: i64,
}

/// Where the chain routed a charge: its mode, the policy's name, the gateway and its quote.
#[derive(Debug, Clone)]
pub struct Routing {
    pub mode: StoreMode,
    pub policy: String,
    pub provider_code: String,
    pub gateway_alias: String,
    pub release_class: String,
    pub cross_class_failover: bool,
    pub fee_centavos: i64,
    pub net_centavos: i64,
    pub settlement_date: String,
}

impl Intent {
    /// A due-date intent's terms, read back from the JSON its charge stored; `None` for
    /// another kind. An error says what is wrong with the stored text.
    pub fn due(&self) -> Result<Option<DueTerms>, String> {
        let Some(text) = self.due_terms.as_deref() else {
            return Ok(None);
        };
        let broken = |why: String| format!("intent {}: due terms {why}", self.id);
        let fields: DueDateFields =
            serde_json::from_str(text).map_err(|e| broken(e.to_string()))?;
        let amount = Money::from_centavos(self.amount_centavos.max(0) as u64)
            .ok_or_else(|| broken("with an amount out of range".into()))?;
        // Read back as written: the due date was judged when the charge was made.
        DueTerms::from_body(&fields, amount, Date::MIN)
            .map_err(|e| broken(e.to_string()))?
            .map(Some)
            .ok_or_else(|| broken("are empty".into()))
    }

    /// A new intent: `SHADOW_ONLY` and complete at its creation; the LIVE path then sets its
    /// status and its PIX charge.
    pub fn new(new: NewIntent) -> Self {
        let NewIntent {
            id,
            merchant_id,
            store_id,
            kind,
            amount_centavos,
            reference,
            description,
            payer_kind,
            payer_sealed,
            metadata,
            idempotency_key,
            routing,
            due_terms,
            recurring,
            created_at,
        } = new;
        Self {
            id,
            merchant_id,
            store_id,
            kind,
            status: IntentStatus::ShadowOnly,
            amount_centavos,
            currency: "BRL".into(),
            reference,
            description,
            payer_kind,
            payer_sealed,
            metadata,
            idempotency_key,
            routing_mode: routing.mode,
            routing_policy: routing.policy,
            provider_code: routing.provider_code,
            gateway_alias: routing.gateway_alias,
            release_class: routing.release_class,
            cross_class_failover: Flag(routing.cross_class_failover),
            fee_centavos: routing.fee_centavos,
            net_centavos: routing.net_centavos,
            settlement_date: routing.settlement_date,
            provider_payment_id: None,
            failure_code: None,
            failure_message: None,
            created_at,
            updated_at: created_at,
            completed_at: Some(created_at),
            txid: None,
            pix_location: None,
            pix_copy_paste: None,
            pix_expires_at: None,
            reconcile_at: None,
            due_terms,
            amount_paid_centavos: None,
            amount_components: None,
            recurring,
            money_back: MoneyBack::default(),
        }
    }
}

crate::db::from_row!(MoneyBack {
    refund_reserved_centavos,
    refunded_centavos,
    received_centavos,
    received_e2eid,
    received_at,
    resolution: try_from(OptionalText),
    resolution_reason
});

const COLUMNS: &str = "id, merchant_id, store_id, kind, status, amount_centavos, currency, reference, \
    description, payer_kind, payer_sealed, metadata, idempotency_key, routing_mode, \
    routing_policy, provider_code, gateway_alias, release_class, cross_class_failover, \
    fee_centavos, net_centavos, settlement_date, provider_payment_id, failure_code, \
    failure_message, created_at, updated_at, completed_at, txid, pix_location, pix_copy_paste, \
    pix_expires_at, reconcile_at, due_terms, amount_paid_centavos, amount_components, \
    mandate_id, mandate_cycle, due_date, attempts";

/// [`COLUMNS`] and the [`MoneyBack`] ones: what a read selects.
pub(crate) const READ_COLUMNS: &str = "id, merchant_id, store_id, kind, status, amount_centavos, currency, \
    reference, description, payer_kind, payer_sealed, metadata, idempotency_key, routing_mode, \
    routing_policy, provider_code, gateway_alias, release_class, cross_class_failover, \
    fee_centavos, net_centavos, settlement_date, provider_payment_id, failure_code, \
    failure_message, created_at, updated_at, completed_at, txid, pix_location, pix_copy_paste, \
    pix_expires_at, reconcile_at, due_terms, amount_paid_centavos, amount_components, \
    mandate_id, mandate_cycle, due_date, attempts, refund_reserved_centavos, refunded_centavos, \
    received_centavos, received_e2eid, received_at, resolution, resolution_reason";

type IntentQuery<'q> = sqlx::query::Query<'q, Any, <Any as sqlx::Database>::Arguments>;

fn insert_sql(rows: usize, params: Params) -> String {
    format!(
        "insert into payment_intents ({COLUMNS}) values {}",
        super::placeholders(rows, COLUMN_COUNT, params)
    )
}

const COLUMN_COUNT: usize = 40;

/// Binds one intent's values in [`COLUMNS`]' order.
fn bind<'q>(q: IntentQuery<'q>, i: &'q Intent) -> IntentQuery<'q> {
    q.bind(&i.id)
        .bind(&i.merchant_id)
        .bind(&i.store_id)
        .bind(i.kind.as_str())
        .bind(i.status.as_str())
        .bind(i.amount_centavos)
        .bind(&i.currency)
        .bind(&i.reference)
        .bind(&i.description)
        .bind(i.payer_kind.as_str())
        .bind(&i.payer_sealed)
        .bind(&i.metadata)
        .bind(&i.idempotency_key)
        .bind(i.routing_mode.as_str())
        .bind(&i.routing_policy)
        .bind(&i.provider_code)
        .bind(&i.gateway_alias)
        .bind(&i.release_class)
        .bind(i.cross_class_failover.as_i64())
        .bind(i.fee_centavos)
        .bind(i.net_centavos)
        .bind(&i.settlement_date)
        .bind(&i.provider_payment_id)
        .bind(&i.failure_code)
        .bind(&i.failure_message)
        .bind(i.created_at)
        .bind(i.updated_at)
        .bind(i.completed_at)
        .bind(&i.txid)
        .bind(&i.pix_location)
        .bind(&i.pix_copy_paste)
        .bind(i.pix_expires_at)
        .bind(i.reconcile_at)
        .bind(&i.due_terms)
        .bind(i.amount_paid_centavos)
        .bind(&i.amount_components)
        .bind(&i.recurring.mandate_id)
        .bind(i.recurring.mandate_cycle)
        .bind(&i.recurring.due_date)
        .bind(&i.recurring.attempts)
}

pub async fn insert<'e>(ex: impl Executor<'e, Database = Any>, i: &Intent) -> sqlx::Result<()> {
    bind(
        sqlx::query(AssertSqlSafe(insert_sql(1, Params::Numbered))),
        i,
    )
    .execute(ex)
    .await?;
    Ok(())
}

/// Inserts several intents in one statement (the group commit's batch).
pub(crate) async fn insert_many<'e>(
    ex: impl Executor<'e, Database = Any>,
    params: Params,
    intents: &[&Intent],
) -> sqlx::Result<()> {
    if intents.is_empty() {
        return Ok(());
    }
    let mut q = sqlx::query(AssertSqlSafe(insert_sql(intents.len(), params)));
    for i in intents {
        q = bind(q, i);
    }
    // A statement per batch size: kept out of the connection's statement cache.
    q.persistent(false).execute(ex).await?;
    Ok(())
}

pub async fn by_id<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<Intent>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {READ_COLUMNS} from payment_intents where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// The charge of a mandate's cycle, if one was made (at most one: a unique index).
pub async fn by_mandate_cycle<'e>(
    ex: impl Executor<'e, Database = Any>,
    mandate_id: &str,
    cycle: i64,
) -> sqlx::Result<Option<Intent>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {READ_COLUMNS} from payment_intents where mandate_id = $1 and mandate_cycle = $2"
    )))
    .bind(mandate_id)
    .bind(cycle)
    .fetch_optional(ex)
    .await
}

/// Every charge of a mandate, by cycle.
pub async fn of_mandate<'e>(
    ex: impl Executor<'e, Database = Any>,
    mandate_id: &str,
) -> sqlx::Result<Vec<Intent>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {READ_COLUMNS} from payment_intents where mandate_id = $1 order by mandate_cycle"
    )))
    .bind(mandate_id)
    .fetch_all(ex)
    .await
}

/// A mandate's charges not settled yet (`SCHEDULED` or `PENDING`).
pub async fn open_of_mandate<'e>(
    ex: impl Executor<'e, Database = Any>,
    mandate_id: &str,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "select id from payment_intents \
         where mandate_id = $1 and status in ('SCHEDULED', 'PENDING') order by mandate_cycle",
    )
    .bind(mandate_id)
    .fetch_all(ex)
    .await
}

/// A `SCHEDULED` recurring charge is at its PSP now: `PENDING`, read again from
/// `reconcile_at`; false when it was not `SCHEDULED` any more.
pub async fn sent<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    at: i64,
    reconcile_at: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update payment_intents set status = 'PENDING', reconcile_at = $2, updated_at = $3 \
         where id = $1 and status = 'SCHEDULED'",
    )
    .bind(id)
    .bind(reconcile_at)
    .bind(at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A recurring charge's attempts (JSON), as its PSP lists them.
pub async fn record_attempts<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    attempts: &str,
    at: i64,
) -> sqlx::Result<()> {
    sqlx::query("update payment_intents set attempts = $2, updated_at = $3 where id = $1")
        .bind(id)
        .bind(attempts)
        .bind(at)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn insert_trace<'e>(
    ex: impl Executor<'e, Database = Any>,
    intent_id: &str,
    trace: &str,
    at: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into decision_traces (payment_intent_id, trace, created_at) values ($1, $2, $3)",
    )
    .bind(intent_id)
    .bind(trace)
    .bind(at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Inserts several traces, `(intent id, trace JSON, created at)`, in one statement.
pub(crate) async fn insert_traces<'e>(
    ex: impl Executor<'e, Database = Any>,
    params: Params,
    traces: &[(&str, &str, i64)],
) -> sqlx::Result<()> {
    if traces.is_empty() {
        return Ok(());
    }
    let mut q = sqlx::query(AssertSqlSafe(format!(
        "insert into decision_traces (payment_intent_id, trace, created_at) values {}",
        super::placeholders(traces.len(), 3, params)
    )));
    for (intent_id, trace, at) in traces {
        q = q.bind(*intent_id).bind(*trace).bind(*at);
    }
    q.persistent(false).execute(ex).await?;
    Ok(())
}

pub async fn trace<'e>(
    ex: impl Executor<'e, Database = Any>,
    intent_id: &str,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("select trace from decision_traces where payment_intent_id = $1")
        .bind(intent_id)
        .fetch_optional(ex)
        .await
}

/// Moves an intent from `from` to `to` if it is still in `from` (a compare-and-set, so two
/// writers cannot both transition it). Returns whether it moved.
#[allow(clippy::too_many_arguments)]
pub async fn transition<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    from: IntentStatus,
    to: IntentStatus,
    provider_payment_id: Option<&str>,
    failure: Option<(&str, &str)>,
    completed_at: Option<i64>,
    now: i64,
) -> sqlx::Result<bool> {
    // A payment that succeeds gets its first pix read planned in the same statement, so no
    // paid intent is left without one (see [`FIRST_PIX_READ_MS`]).
    let done = sqlx::query(
        "update payment_intents set status = $3, \
         provider_payment_id = coalesce($4, provider_payment_id), failure_code = $5, \
         failure_message = $6, completed_at = $7, updated_at = $8, \
         pix_read_at = case when $3 = 'SUCCEEDED' then $9 else pix_read_at end \
         where id = $1 and status = $2",
    )
    .bind(id)
    .bind(from.as_str())
    .bind(to.as_str())
    .bind(provider_payment_id)
    .bind(failure.map(|f| f.0))
    .bind(failure.map(|f| f.1))
    .bind(completed_at)
    .bind(now)
    .bind(
        completed_at
            .unwrap_or(now)
            .saturating_add(FIRST_PIX_READ_MS),
    )
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// `PENDING` intents due for a read at their PSP (`reconcile_at` reached), and `SCHEDULED`
/// recurring charges due to be sent, that no one is
/// settling, oldest due first. A charge an admin resolved is not read again: what is left of
/// it is its resolution's refund, read as a refund.
pub async fn due_for_reconcile<'e>(
    ex: impl Executor<'e, Database = Any>,
    now: i64,
    limit: i64,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "select id from payment_intents \
         where status in ('PENDING', 'SCHEDULED') and reconcile_at <= $1 \
           and resolution is null \
           and (settle_lease_until is null or settle_lease_until <= $1) \
         order by reconcile_at limit $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// Takes the settlement lease on a `PENDING` (or `SCHEDULED`) intent until `until`, if no one holds it at
/// `now` (a compare-and-set: of two instances only one proceeds).
pub async fn take_lease<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    now: i64,
    until: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update payment_intents set settle_lease_until = $3 \
         where id = $1 and status in ('PENDING', 'SCHEDULED') \
           and (settle_lease_until is null or settle_lease_until <= $2)",
    )
    .bind(id)
    .bind(now)
    .bind(until)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives the lease `mine` back and sets the next read at `next`; nothing when the lease is no
/// longer ours.
pub async fn release_lease<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    mine: i64,
    next: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "update payment_intents set settle_lease_until = null, reconcile_at = $3 \
         where id = $1 and settle_lease_until = $2",
    )
    .bind(id)
    .bind(mine)
    .bind(next)
    .execute(ex)
    .await?;
    Ok(())
}

/// The `PENDING` intent a provider's charge `txid` belongs to.
pub async fn pending_by_txid<'e>(
    ex: impl Executor<'e, Database = Any>,
    provider_code: &str,
    txid: &str,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "select id from payment_intents \
         where provider_code = $1 and txid = $2 and status = 'PENDING'",
    )
    .bind(provider_code)
    .bind(txid)
    .fetch_optional(ex)
    .await
}

/// Records the first read of a charge concluded with a pix of the wrong amount. Returns
/// whether this read was the first (the anomaly is counted once per charge).
pub async fn record_wrong_amount<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    received_centavos: i64,
    e2eid: &str,
    received_at: i64,
) -> sqlx::Result<bool> {
    record_received(ex, "'PENDING'", id, received_centavos, e2eid, received_at).await
}

/// Records a pix a `CANCELED` or `FAILED` charge received anyway (the ledger sweep's
/// `paid_after_cancel`): the anomaly an admin resolves by giving it back. Returns whether it
/// was the first record of it.
pub async fn record_paid_after_cancel<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    received_centavos: i64,
    e2eid: &str,
    received_at: i64,
) -> sqlx::Result<bool> {
    let ended = "'CANCELED', 'FAILED'";
    record_received(ex, ended, id, received_centavos, e2eid, received_at).await
}

/// The pix an intent in one of `statuses` (SQL literals) received, unless it has one already.
async fn record_received<'e>(
    ex: impl Executor<'e, Database = Any>,
    statuses: &'static str,
    id: &str,
    received_centavos: i64,
    e2eid: &str,
    received_at: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(AssertSqlSafe(format!(
        "update payment_intents set received_centavos = $2, received_e2eid = $3, \
         received_at = $4 \
         where id = $1 and status in ({statuses}) and received_e2eid is null"
    )))
    .bind(id)
    .bind(received_centavos)
    .bind(e2eid)
    .bind(received_at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records an admin's resolution of a wrong amount, with the pix it settles on.
pub async fn record_resolution<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    resolution: Resolution,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query("update payment_intents set resolution = $2, resolution_reason = $3 where id = $1")
        .bind(id)
        .bind(resolution.as_str())
        .bind(reason)
        .execute(ex)
        .await?;
    Ok(())
}

/// A paid intent's first read of its pix at the PSP is due this long after its payment;
/// later ones further apart (`crate::psp::live` plans them).
pub const FIRST_PIX_READ_MS: i64 = 3_600_000;

/// A paid intent whose pix is due for a read.
#[derive(Debug, Clone)]
pub struct PixRead {
    pub id: String,
    pub provider_code: String,
    pub provider_payment_id: Option<String>,
    pub completed_at: Option<i64>,
    /// When the read was due: the compare-and-set token of [`claim_pix_read`].
    pub pix_read_at: i64,
    /// Reads made before this one.
    pub pix_reads: i64,
}

crate::db::from_row!(PixRead {
    id,
    provider_code,
    provider_payment_id,
    completed_at,
    pix_read_at,
    pix_reads
});

/// Paid intents whose pix is due for a read (`pix_read_at` reached), oldest due first.
pub async fn due_pix_reads<'e>(
    ex: impl Executor<'e, Database = Any>,
    now: i64,
    limit: i64,
) -> sqlx::Result<Vec<PixRead>> {
    sqlx::query_as(
        "select id, provider_code, provider_payment_id, completed_at, pix_read_at, pix_reads \
         from payment_intents where pix_read_at <= $1 and status = 'SUCCEEDED' \
         order by pix_read_at limit $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// Claims the read due at `due` and plans the next one at `next` (none: no more reads), if no
/// one claimed it first (a compare-and-set on `pix_read_at`: of several instances, one makes
/// the read). Returns whether this caller claimed it.
pub async fn claim_pix_read<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    due: i64,
    next: Option<i64>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update payment_intents set pix_read_at = $3, pix_reads = pix_reads + 1 \
         where id = $1 and pix_read_at = $2",
    )
    .bind(id)
    .bind(due)
    .bind(next)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records what a due-date charge was paid with, in the transaction that moves it.
pub async fn record_paid<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    amount_paid_centavos: i64,
    components: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "update payment_intents set amount_paid_centavos = $1, amount_components = $2 \
         where id = $3",
    )
    .bind(amount_paid_centavos)
    .bind(components)
    .bind(id)
    .execute(ex)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_insert_binds_one_value_per_column() {
        assert_eq!(COLUMNS.split(',').count(), COLUMN_COUNT);
        assert!(READ_COLUMNS.starts_with(COLUMNS));
        let sql = insert_sql(2, Params::Numbered);
        assert!(sql.ends_with(&format!("${})", 2 * COLUMN_COUNT)));
    }

    /// A nullable name reads as `None`, as the enum's value, or as an error naming it: never
    /// a panic.
    #[tokio::test]
    async fn an_optional_name_is_none_a_value_or_a_corrupt_row() {
        for t in crate::db::testing::fresh_databases().await {
            let read = |sql: &'static str| {
                let pool = t.db.read.clone();
                async move {
                    let text: OptionalText =
                        sqlx::query_scalar(sql).fetch_one(&pool).await.unwrap();
                    Option::<Resolution>::try_from(text)
                }
            };
            assert_eq!(read("select cast(null as text)").await, Ok(None));
            assert_eq!(
                read("select cast('accept' as text)").await,
                Ok(Some(Resolution::Accept))
            );
            let err = read("select cast('keep' as text)").await.unwrap_err();
            assert!(err.contains("`keep`"), "{err}");
        }
    }
}
