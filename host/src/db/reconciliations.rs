//! The ledger sweep's runs and findings (migration 0023, DESIGN.md section 18).

use sqlx::{Any, AssertSqlSafe, Executor};

use super::Params;
use super::refunds::{Origin, RefundStatus};
use pixgate_domain::IntentStatus;
use pixgate_domain::reconciliation::{FindingKind, ReconciliationStatus, ReconciliationTrigger};

/// A run's row.
#[derive(Debug, Clone)]
pub struct Run {
    pub id: String,
    pub provider_code: String,
    /// `YYYY-MM-DD`, Brasília.
    pub day: String,
    pub status: ReconciliationStatus,
    pub trigger: ReconciliationTrigger,
    pub requested_by: Option<String>,
    pub pages: i64,
    pub pix: i64,
    pub lease_until: i64,
    pub error: Option<String>,
    pub started_at: i64,
    pub finished_at: Option<i64>,
}

crate::db::from_row!(Run {
    id,
    provider_code,
    day,
    status: try_from(String),
    trigger: try_from(String),
    requested_by,
    pages,
    pix,
    lease_until,
    error,
    started_at,
    finished_at
});

const RUN_COLUMNS: &str = "id, provider_code, day, status, trigger, requested_by, pages, pix, \
    lease_until, error, started_at, finished_at";

/// A finding's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub id: String,
    pub reconciliation_id: String,
    pub kind: FindingKind,
    pub end_to_end_id: Option<String>,
    pub txid: Option<String>,
    pub amount_centavos: Option<i64>,
    pub local_amount_centavos: Option<i64>,
    pub payment_intent_id: Option<String>,
    pub refund_id: Option<String>,
    pub detail: String,
    pub created_at: i64,
}

crate::db::from_row!(Finding {
    id,
    reconciliation_id,
    kind: try_from(String),
    end_to_end_id,
    txid,
    amount_centavos,
    local_amount_centavos,
    payment_intent_id,
    refund_id,
    detail,
    created_at
});

const FINDING_COLUMNS: &str = "id, reconciliation_id, kind, end_to_end_id, txid, \
    amount_centavos, local_amount_centavos, payment_intent_id, refund_id, detail, created_at";
const FINDING_COUNT: usize = 11;

/// Starts `run` (`RUNNING`) unless another run of its provider and day is running, or (for a
/// daily run) the schedule's run of that day is running or done: false then, nothing written.
pub async fn start<'e>(ex: impl Executor<'e, Database = Any>, run: &Run) -> sqlx::Result<bool> {
    let done = sqlx::query(AssertSqlSafe(format!(
        "insert into reconciliations ({RUN_COLUMNS}) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) on conflict do nothing"
    )))
    .bind(&run.id)
    .bind(&run.provider_code)
    .bind(&run.day)
    .bind(run.status.as_str())
    .bind(run.trigger.as_str())
    .bind(&run.requested_by)
    .bind(run.pages)
    .bind(run.pix)
    .bind(run.lease_until)
    .bind(&run.error)
    .bind(run.started_at)
    .bind(run.finished_at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records a page read (its pix and devoluções counted) and holds the run until `lease_until`;
/// false when the run is no longer `RUNNING` (ended as abandoned meanwhile).
pub async fn progress<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    pix: i64,
    lease_until: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update reconciliations set pages = pages + 1, pix = pix + $2, lease_until = $3 \
         where id = $1 and status = 'RUNNING'",
    )
    .bind(id)
    .bind(pix)
    .bind(lease_until)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends a running run `DONE` or `FAILED` (with `error`); false when it was not running.
pub async fn finish<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    status: ReconciliationStatus,
    error: Option<&str>,
    at: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update reconciliations set status = $2, error = $3, finished_at = $4 \
         where id = $1 and status = 'RUNNING'",
    )
    .bind(id)
    .bind(status.as_str())
    .bind(error)
    .bind(at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends `FAILED` the runs whose instance stopped holding them (their lease passed at `now`):
/// how many.
pub async fn fail_abandoned<'e>(
    ex: impl Executor<'e, Database = Any>,
    now: i64,
) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "update reconciliations set status = 'FAILED', finished_at = $1, \
         error = 'the instance sweeping stopped before the end' \
         where status = 'RUNNING' and lease_until < $1",
    )
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

pub async fn get<'e>(ex: impl Executor<'e, Database = Any>, id: &str) -> sqlx::Result<Option<Run>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {RUN_COLUMNS} from reconciliations where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// Whether the schedule's run of `provider` and `day` is running or done.
pub async fn daily_taken<'e>(
    ex: impl Executor<'e, Database = Any>,
    provider: &str,
    day: &str,
) -> sqlx::Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "select count(*) from reconciliations where provider_code = $1 and day = $2 \
           and trigger = 'DAILY' and status in ('RUNNING', 'DONE')",
    )
    .bind(provider)
    .bind(day)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

/// Whether a daily run of `provider` and `day` failed at or after `since` (Unix ms).
pub async fn failed_daily_since<'e>(
    ex: impl Executor<'e, Database = Any>,
    provider: &str,
    day: &str,
    since: i64,
) -> sqlx::Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "select count(*) from reconciliations where provider_code = $1 and day = $2 \
           and trigger = 'DAILY' and status = 'FAILED' and finished_at >= $3",
    )
    .bind(provider)
    .bind(day)
    .bind(since)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

/// Runs newest first, `limit` of them after the run `after` (its start and id), of one
/// provider if given.
pub async fn page<'e>(
    ex: impl Executor<'e, Database = Any>,
    provider: Option<&str>,
    after: Option<(i64, &str)>,
    limit: i64,
) -> sqlx::Result<Vec<Run>> {
    // No cursor: after everything (every run started before the end of time).
    let (at, id) = after.unwrap_or((i64::MAX, ""));
    sqlx::query_as(AssertSqlSafe(format!(
        "select {RUN_COLUMNS} from reconciliations \
         where ($1 = '' or provider_code = $1) \
           and (started_at < $2 or (started_at = $2 and id < $3)) \
         order by started_at desc, id desc limit $4"
    )))
    .bind(provider.unwrap_or(""))
    .bind(at)
    .bind(id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// Writes findings, many to a statement (in the caller's transaction or alone).
pub(crate) async fn insert_findings(
    conn: &mut sqlx::AnyConnection,
    params: Params,
    findings: &[Finding],
) -> sqlx::Result<()> {
    // 100 rows of 11 parameters: far below either backend's bound on parameters.
    for chunk in findings.chunks(100) {
        let sql = format!(
            "insert into reconciliation_findings ({FINDING_COLUMNS}) values {}",
            super::placeholders(chunk.len(), FINDING_COUNT, params)
        );
        let mut q = sqlx::query(AssertSqlSafe(sql));
        for f in chunk {
            q = q
                .bind(&f.id)
                .bind(&f.reconciliation_id)
                .bind(f.kind.as_str())
                .bind(&f.end_to_end_id)
                .bind(&f.txid)
                .bind(f.amount_centavos)
                .bind(f.local_amount_centavos)
                .bind(&f.payment_intent_id)
                .bind(&f.refund_id)
                .bind(&f.detail)
                .bind(f.created_at);
        }
        q.persistent(false).execute(&mut *conn).await?;
    }
    Ok(())
}

/// A run's findings in the order they were made, `limit` after finding `after`: of `kind`,
/// or every kind but `matched` (listed only when asked for).
pub async fn findings<'e>(
    ex: impl Executor<'e, Database = Any>,
    run: &str,
    kind: Option<FindingKind>,
    after: Option<&str>,
    limit: i64,
) -> sqlx::Result<Vec<Finding>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {FINDING_COLUMNS} from reconciliation_findings \
         where reconciliation_id = $1 and (kind = $2 or ($2 = '' and kind <> 'matched')) \
           and id > $3 order by id limit $4"
    )))
    .bind(run)
    .bind(kind.map_or("", FindingKind::as_str))
    .bind(after.unwrap_or(""))
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// How many findings of each kind a run has.
pub async fn counts<'e>(
    ex: impl Executor<'e, Database = Any>,
    run: &str,
) -> sqlx::Result<Vec<(FindingKind, i64)>> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "select kind, count(*) from reconciliation_findings where reconciliation_id = $1 \
         group by kind",
    )
    .bind(run)
    .fetch_all(ex)
    .await?;
    rows.into_iter()
        .map(|(kind, n)| {
            kind.parse()
                .map(|k| (k, n))
                .map_err(|e: String| sqlx::Error::Decode(e.into()))
        })
        .collect()
}

/// An intent paid here that the sweep did not meet.
#[derive(Debug, Clone)]
pub struct Unlisted {
    pub id: String,
    pub txid: Option<String>,
    pub provider_payment_id: Option<String>,
    pub amount_centavos: i64,
}

crate::db::from_row!(Unlisted {
    id,
    txid,
    provider_payment_id,
    amount_centavos
});

/// The `SUCCEEDED` intents of `provider` completed in `[from, to)` (Unix ms) whose pix has no
/// finding in run `run`: paid here, absent from the PSP's list of that day.
pub async fn unlisted<'e>(
    ex: impl Executor<'e, Database = Any>,
    run: &str,
    provider: &str,
    from: i64,
    to: i64,
) -> sqlx::Result<Vec<Unlisted>> {
    sqlx::query_as(
        "select i.id, i.txid, i.provider_payment_id, i.amount_centavos from payment_intents i \
         where i.provider_code = $2 and i.status = 'SUCCEEDED' \
           and i.completed_at >= $3 and i.completed_at < $4 \
           and not exists (select 1 from reconciliation_findings f \
             where f.reconciliation_id = $1 and f.end_to_end_id = i.provider_payment_id) \
         order by i.completed_at, i.id",
    )
    .bind(run)
    .bind(provider)
    .bind(from)
    .bind(to)
    .fetch_all(ex)
    .await
}

/// The provider's parameter and an `in (...)` list of `n` after it: `$1` and `$2, $3, ...`,
/// or `?` and `?, ?, ...`.
fn in_list(params: Params, n: usize) -> (&'static str, String) {
    match params {
        Params::Numbered => (
            "$1",
            (0..n)
                .map(|i| format!("${}", i + 2))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        Params::Anonymous => ("?", vec!["?"; n].join(", ")),
    }
}

/// What a page's matching needs of an intent.
#[derive(Debug, Clone)]
pub struct Local {
    pub id: String,
    pub status: IntentStatus,
    pub amount_centavos: i64,
    /// What a due-date charge was paid with, once paid.
    pub amount_paid_centavos: Option<i64>,
    pub txid: Option<String>,
    pub provider_payment_id: Option<String>,
}

crate::db::from_row!(Local {
    id,
    status: try_from(String),
    amount_centavos,
    amount_paid_centavos,
    txid,
    provider_payment_id
});

/// `provider`'s intents whose `column` (`txid` or `provider_payment_id`) is one of `values`.
async fn locals_by<'e>(
    ex: impl Executor<'e, Database = Any>,
    params: Params,
    provider: &str,
    column: &str,
    values: &[&str],
) -> sqlx::Result<Vec<Local>> {
    if values.is_empty() {
        return Ok(Vec::new());
    }
    let (provider_param, list) = in_list(params, values.len());
    let sql = format!(
        "select id, status, amount_centavos, amount_paid_centavos, txid, provider_payment_id \
         from payment_intents where provider_code = {provider_param} and {column} in ({list})"
    );
    let mut q = sqlx::query_as(AssertSqlSafe(sql)).bind(provider);
    for v in values {
        q = q.bind(*v);
    }
    q.persistent(false).fetch_all(ex).await
}

/// `provider`'s intents of these txids (at most 1,000).
pub(crate) async fn locals_by_txid<'e>(
    ex: impl Executor<'e, Database = Any>,
    params: Params,
    provider: &str,
    txids: &[&str],
) -> sqlx::Result<Vec<Local>> {
    locals_by(ex, params, provider, "txid", txids).await
}

/// `provider`'s intents paid by these endToEndIds (at most 1,000).
pub(crate) async fn locals_by_e2eid<'e>(
    ex: impl Executor<'e, Database = Any>,
    params: Params,
    provider: &str,
    e2eids: &[&str],
) -> sqlx::Result<Vec<Local>> {
    locals_by(ex, params, provider, "provider_payment_id", e2eids).await
}

/// A refund as a page's matching needs it.
#[derive(Debug, Clone)]
pub struct LocalRefund {
    pub id: String,
    pub status: RefundStatus,
    pub amount_centavos: i64,
    pub e2eid: String,
    pub devolucao_id: String,
    /// Who asked for it: a devolução the PSP made on its own is `psp`.
    pub origin: Origin,
}

crate::db::from_row!(LocalRefund {
    id,
    status: try_from(String),
    amount_centavos,
    e2eid,
    devolucao_id,
    origin: try_from(String)
});

/// `provider`'s refunds of the pix of these endToEndIds (at most 1,000).
pub(crate) async fn refunds_of<'e>(
    ex: impl Executor<'e, Database = Any>,
    params: Params,
    provider: &str,
    e2eids: &[&str],
) -> sqlx::Result<Vec<LocalRefund>> {
    if e2eids.is_empty() {
        return Ok(Vec::new());
    }
    let (provider_param, list) = in_list(params, e2eids.len());
    let sql = format!(
        "select id, status, amount_centavos, e2eid, devolucao_id, origin from refunds \
         where provider_code = {provider_param} and e2eid in ({list})"
    );
    let mut q = sqlx::query_as(AssertSqlSafe(sql)).bind(provider);
    for v in e2eids {
        q = q.bind(*v);
    }
    q.persistent(false).fetch_all(ex).await
}
