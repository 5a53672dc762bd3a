//! Component versions, what each store runs, the activation history, kill-switch settings
//! and shadow comparisons.

use sqlx::{Any, Executor};

use super::Flag;
use pixgate_domain::Step;

/// The version name of the component compiled into the binary.
pub const BUNDLED: &str = "bundled";

pixgate_domain::text_enum!(
    /// Where a stored version came from.
    VersionSource {
        /// Uploaded by an operator.
        Uploaded = "uploaded",
        /// Shipped inside a pixgate binary (kept so that charges recorded with an older build
        /// still replay exactly).
        Bundled = "bundled",
    }
);

pixgate_domain::text_enum!(
    /// How a store uses a version of a step.
    VersionRole {
        /// The store runs it.
        Active = "active",
        /// It is the store's shadow candidate.
        Candidate = "candidate",
        /// The store's running canary sends a share of its charges to it.
        Canary = "canary",
    }
);

pixgate_domain::text_enum!(
    /// An entry of a store step's history: what `component_activations` records (`activate`,
    /// `rollback`, `kill_switch`), and a canary's start and end (read from the canaries).
    ActivationAction {
        Activate = "activate",
        Rollback = "rollback",
        KillSwitch = "kill_switch",
        CanaryStart = "canary_start",
        CanaryEnd = "canary_end",
    }
);

/// A step and a version of it, read from text columns: an unknown step is a corrupt row.
fn step_version((step, version): (String, String)) -> sqlx::Result<(Step, String)> {
    let step = step
        .parse()
        .map_err(|e: String| sqlx::Error::ColumnDecode {
            index: "step".to_owned(),
            source: e.into(),
        })?;
    Ok((step, version))
}

#[derive(Debug, Clone)]
pub struct Version {
    pub step: Step,
    pub version: String,
    pub source: VersionSource,
    pub size_bytes: i64,
    pub created_at: i64,
    /// What people call it (the file or crate name, or the uploader's choice).
    pub label: Option<String>,
    /// Set with `set_budget`, not by `insert_version`.
    pub budget: Budget,
}

crate::db::from_row!(Version {
    step: try_from(String),
    version,
    source: try_from(String),
    size_bytes,
    created_at,
    label,
    budget: flatten
});

/// Inserts a version unless it exists; true when this call inserted it.
pub async fn insert_version<'e>(
    ex: impl Executor<'e, Database = Any>,
    v: &Version,
    wasm: &[u8],
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "insert into component_versions \
         (step, version, source, size_bytes, wasm, created_at, label) \
         values ($1, $2, $3, $4, $5, $6, $7) on conflict (step, version) do nothing",
    )
    .bind(v.step.as_str())
    .bind(&v.version)
    .bind(v.source.as_str())
    .bind(v.size_bytes)
    .bind(wasm)
    .bind(v.created_at)
    .bind(&v.label)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives a stored version a label when it has none: the same bytes uploaded again with a label
/// name it, but never rename a version someone already named.
pub async fn label_if_unlabelled<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
    label: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "update component_versions set label = $3 \
         where step = $1 and version = $2 and label is null",
    )
    .bind(step.as_str())
    .bind(version)
    .bind(label)
    .execute(ex)
    .await?;
    Ok(())
}

/// The bytes the uploaded versions take together (the bundled ones are the binary's).
pub async fn uploaded_bytes<'e>(ex: impl Executor<'e, Database = Any>) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select cast(coalesce(sum(size_bytes), 0) as bigint) from component_versions \
         where source = 'uploaded'",
    )
    .fetch_one(ex)
    .await
}

/// Every uploaded version, oldest first: `(step, version)`.
pub async fn uploaded_versions<'e>(
    ex: impl Executor<'e, Database = Any>,
) -> sqlx::Result<Vec<(Step, String)>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "select step, version from component_versions where source = 'uploaded' \
         order by created_at, step, version",
    )
    .fetch_all(ex)
    .await?;
    rows.into_iter().map(step_version).collect()
}

/// Serialises uploads until the transaction ends (PostgreSQL: a transaction-scoped advisory
/// lock; SQLite has one writer already), so the room they check is theirs.
pub async fn lock_uploads<'e>(
    ex: impl Executor<'e, Database = Any>,
    postgres: bool,
) -> sqlx::Result<()> {
    if postgres {
        // Any fixed key: pixgate takes no other advisory lock. The lock's own value is
        // `void`, which the Any driver cannot read: a count of it is read instead.
        sqlx::query_scalar::<_, i64>(
            "select count(*) from (select pg_advisory_xact_lock(7240317)) as locked",
        )
        .fetch_one(ex)
        .await?;
    }
    Ok(())
}

pub async fn version<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
) -> sqlx::Result<Option<Version>> {
    sqlx::query_as(
        "select step, version, source, size_bytes, created_at, label, fuel, memory_bytes \
         from component_versions where step = $1 and version = $2",
    )
    .bind(step.as_str())
    .bind(version)
    .fetch_optional(ex)
    .await
}

pub async fn wasm<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
) -> sqlx::Result<Option<Vec<u8>>> {
    sqlx::query_scalar("select wasm from component_versions where step = $1 and version = $2")
        .bind(step.as_str())
        .bind(version)
        .fetch_optional(ex)
        .await
}

/// A step's versions, newest first.
pub async fn versions<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
) -> sqlx::Result<Vec<Version>> {
    sqlx::query_as(
        "select step, version, source, size_bytes, created_at, label, fuel, memory_bytes \
         from component_versions where step = $1 order by created_at desc, version",
    )
    .bind(step.as_str())
    .fetch_all(ex)
    .await
}

pub async fn delete_version<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
) -> sqlx::Result<bool> {
    let done = sqlx::query("delete from component_versions where step = $1 and version = $2")
        .bind(step.as_str())
        .bind(version)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Whether a version exists; on PostgreSQL with a share lock until the transaction ends.
pub async fn version_exists<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
    postgres: bool,
) -> sqlx::Result<bool> {
    exists(ex, step, version, if postgres { " for share" } else { "" }).await
}

/// Whether a version exists, locking it for a delete on PostgreSQL.
pub async fn version_exists_for_update<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
    postgres: bool,
) -> sqlx::Result<bool> {
    exists(ex, step, version, if postgres { " for update" } else { "" }).await
}

async fn exists<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
    lock: &'static str,
) -> sqlx::Result<bool> {
    let found: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "select size_bytes from component_versions where step = $1 and version = $2{lock}"
    )))
    .bind(step.as_str())
    .bind(version)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// A version's own budget: `None` where the sandbox's default applies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    pub fuel: Option<i64>,
    pub memory_bytes: Option<i64>,
}

crate::db::from_row!(Budget { fuel, memory_bytes });

/// A version's budget; `None` when there is no such version.
pub async fn budget<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
) -> sqlx::Result<Option<Budget>> {
    sqlx::query_as(
        "select fuel, memory_bytes from component_versions where step = $1 and version = $2",
    )
    .bind(step.as_str())
    .bind(version)
    .fetch_optional(ex)
    .await
}

/// Sets a version's budget; false when there is no such version.
pub async fn set_budget<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
    budget: &Budget,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update component_versions set fuel = $3, memory_bytes = $4 \
         where step = $1 and version = $2",
    )
    .bind(step.as_str())
    .bind(version)
    .bind(budget.fuel)
    .bind(budget.memory_bytes)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The row of a store's step, created as "runs bundled" if it is missing.
pub async fn ensure_store_step<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    step: Step,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into store_components (store_id, step, active_version, updated_at) \
         values ($1, $2, $3, $4) on conflict (store_id, step) do nothing",
    )
    .bind(store_id)
    .bind(step.as_str())
    .bind(BUNDLED)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Where a version is in use: `(store code, active or candidate)`. A rollback target may
/// be deleted: a rollback to it is then refused (404) and the kill switch falls back to the
/// bundled component.
pub async fn uses<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
) -> sqlx::Result<Vec<(String, VersionRole)>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "select s.code, case when sc.active_version = $2 then 'active' else 'candidate' end \
         from store_components sc join stores s on s.id = sc.store_id \
         where sc.step = $1 and (sc.active_version = $2 or sc.candidate_version = $2) \
         order by s.code",
    )
    .bind(step.as_str())
    .bind(version)
    .fetch_all(ex)
    .await?;
    rows.into_iter()
        .map(|(store, role)| {
            let role = role
                .parse()
                .map_err(|e: String| sqlx::Error::ColumnDecode {
                    index: "role".to_owned(),
                    source: e.into(),
                })?;
            Ok((store, role))
        })
        .collect()
}

/// The codes of the stores that never set a version for `step`: they run the bundled one.
pub async fn stores_on_bundled_by_default<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "select s.code from stores s where not exists \
         (select 1 from store_components sc where sc.store_id = s.id and sc.step = $1) \
         order by s.code",
    )
    .bind(step.as_str())
    .fetch_all(ex)
    .await
}

/// What a store runs for one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreStep {
    pub store_id: String,
    pub step: Step,
    pub active_version: String,
    pub previous_version: Option<String>,
    pub activated_at: Option<i64>,
    pub candidate_version: Option<String>,
    pub candidate_since: Option<i64>,
    pub updated_at: i64,
}

crate::db::from_row!(StoreStep {
    store_id,
    step: try_from(String),
    active_version,
    previous_version,
    activated_at,
    candidate_version,
    candidate_since,
    updated_at
});

const STORE_STEP_COLUMNS: &str = "store_id, step, active_version, previous_version, \
    activated_at, candidate_version, candidate_since, updated_at";

pub async fn store_steps<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
) -> sqlx::Result<Vec<StoreStep>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {STORE_STEP_COLUMNS} from store_components where store_id = $1 order by step"
    )))
    .bind(store_id)
    .fetch_all(ex)
    .await
}

/// Every (step, version) some store runs or is about to: the active versions, the shadow
/// candidates and the versions of running canaries, `bundled` included.
pub async fn versions_in_use<'e>(
    ex: impl Executor<'e, Database = Any>,
) -> sqlx::Result<Vec<(Step, String)>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "select step, active_version from store_components \
         union select step, candidate_version from store_components \
             where candidate_version is not null \
         union select step, version from component_canaries where ended_at is null",
    )
    .fetch_all(ex)
    .await?;
    rows.into_iter().map(step_version).collect()
}

/// The row for update: on PostgreSQL it is locked until the transaction ends, so two
/// activations of one store's step are serialised (SQLite has one writer anyway).
pub async fn store_step_for_update<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    step: Step,
    postgres: bool,
) -> sqlx::Result<Option<StoreStep>> {
    let lock = if postgres { " for update" } else { "" };
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {STORE_STEP_COLUMNS} from store_components where store_id = $1 and step = $2{lock}"
    )))
    .bind(store_id)
    .bind(step.as_str())
    .fetch_optional(ex)
    .await
}

pub async fn upsert_store_step<'e>(
    ex: impl Executor<'e, Database = Any>,
    s: &StoreStep,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into store_components (store_id, step, active_version, previous_version, \
           activated_at, candidate_version, candidate_since, updated_at) \
         values ($1, $2, $3, $4, $5, $6, $7, $8) \
         on conflict (store_id, step) do update set active_version = excluded.active_version, \
           previous_version = excluded.previous_version, activated_at = excluded.activated_at, \
           candidate_version = excluded.candidate_version, \
           candidate_since = excluded.candidate_since, updated_at = excluded.updated_at",
    )
    .bind(&s.store_id)
    .bind(s.step.as_str())
    .bind(&s.active_version)
    .bind(&s.previous_version)
    .bind(s.activated_at)
    .bind(&s.candidate_version)
    .bind(s.candidate_since)
    .bind(s.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct Activation {
    pub id: String,
    pub store_id: String,
    pub step: Step,
    pub version: String,
    pub previous_version: Option<String>,
    /// `activate`, `rollback` or `kill_switch`.
    pub action: ActivationAction,
    pub reason: Option<String>,
    pub created_at: i64,
}

crate::db::from_row!(Activation {
    id,
    store_id,
    step: try_from(String),
    version,
    previous_version,
    action: try_from(String),
    reason,
    created_at
});

pub async fn insert_activation<'e>(
    ex: impl Executor<'e, Database = Any>,
    a: &Activation,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into component_activations (id, store_id, step, version, previous_version, \
           action, reason, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&a.id)
    .bind(&a.store_id)
    .bind(a.step.as_str())
    .bind(&a.version)
    .bind(&a.previous_version)
    .bind(a.action.as_str())
    .bind(&a.reason)
    .bind(a.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// A store's activation history, newest first.
pub async fn activations<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    limit: i64,
) -> sqlx::Result<Vec<Activation>> {
    sqlx::query_as(
        "select id, store_id, step, version, previous_version, action, reason, created_at \
         from component_activations where store_id = $1 \
         order by created_at desc, id desc limit $2",
    )
    .bind(store_id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KillSwitch {
    pub enabled: Flag,
    pub error_rate_percent: i64,
    pub window_seconds: i64,
    pub min_calls: i64,
}

crate::db::from_row!(KillSwitch {
    enabled: try_from(i64),
    error_rate_percent,
    window_seconds,
    min_calls
});

impl Default for KillSwitch {
    fn default() -> Self {
        Self {
            enabled: Flag(true),
            error_rate_percent: 50,
            window_seconds: 60,
            min_calls: 20,
        }
    }
}

pub async fn kill_switch<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
) -> sqlx::Result<KillSwitch> {
    let row: Option<KillSwitch> = sqlx::query_as(
        "select enabled, error_rate_percent, window_seconds, min_calls from store_kill_switch \
         where store_id = $1",
    )
    .bind(store_id)
    .fetch_optional(ex)
    .await?;
    Ok(row.unwrap_or_default())
}

pub async fn set_kill_switch<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    k: &KillSwitch,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into store_kill_switch (store_id, enabled, error_rate_percent, window_seconds, \
           min_calls, updated_at) values ($1, $2, $3, $4, $5, $6) \
         on conflict (store_id) do update set enabled = excluded.enabled, \
           error_rate_percent = excluded.error_rate_percent, \
           window_seconds = excluded.window_seconds, min_calls = excluded.min_calls, \
           updated_at = excluded.updated_at",
    )
    .bind(store_id)
    .bind(k.enabled.as_i64())
    .bind(k.error_rate_percent)
    .bind(k.window_seconds)
    .bind(k.min_calls)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct ShadowResult {
    pub id: String,
    pub store_id: String,
    pub step: Step,
    pub candidate_version: String,
    pub active_version: String,
    pub payment_intent_id: String,
    pub changed: Flag,
    pub kinds: String,
    pub error_code: Option<String>,
    pub before_outcome: String,
    pub after_outcome: String,
    pub created_at: i64,
}

crate::db::from_row!(ShadowResult {
    id,
    store_id,
    step: try_from(String),
    candidate_version,
    active_version,
    payment_intent_id,
    changed: try_from(i64),
    kinds,
    error_code,
    before_outcome,
    after_outcome,
    created_at
});

pub async fn insert_shadow_result<'e>(
    ex: impl Executor<'e, Database = Any>,
    r: &ShadowResult,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into shadow_results (id, store_id, step, candidate_version, active_version, \
           payment_intent_id, changed, kinds, error_code, before_outcome, after_outcome, \
           created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(&r.id)
    .bind(&r.store_id)
    .bind(r.step.as_str())
    .bind(&r.candidate_version)
    .bind(&r.active_version)
    .bind(&r.payment_intent_id)
    .bind(r.changed.as_i64())
    .bind(&r.kinds)
    .bind(&r.error_code)
    .bind(&r.before_outcome)
    .bind(&r.after_outcome)
    .bind(r.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// The latest `limit` comparisons of a candidate since `since`, newest first (the running
/// comparison is folded from these).
pub async fn shadow_results<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    step: Step,
    candidate: &str,
    since: i64,
    limit: i64,
) -> sqlx::Result<Vec<ShadowResult>> {
    sqlx::query_as(
        "select id, store_id, step, candidate_version, active_version, payment_intent_id, \
           changed, kinds, error_code, before_outcome, after_outcome, created_at \
         from shadow_results where store_id = $1 and step = $2 and candidate_version = $3 \
           and created_at >= $4 order by created_at desc, id desc limit $5",
    )
    .bind(store_id)
    .bind(step.as_str())
    .bind(candidate)
    .bind(since)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// A recorded charge's trace, for replay.
#[derive(Debug, Clone)]
pub struct RecordedTrace {
    pub payment_intent_id: String,
    pub created_at: i64,
    pub trace: String,
}

crate::db::from_row!(RecordedTrace {
    payment_intent_id,
    created_at,
    trace
});

/// A page of a store's recorded traces created in `[since, until)`, oldest first, after
/// `after` (the last `(created_at, id)` of the previous page), at most `limit`.
pub async fn recorded_traces<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    since: i64,
    until: i64,
    after: Option<(i64, &str)>,
    limit: i64,
) -> sqlx::Result<Vec<RecordedTrace>> {
    let (after_at, after_id) = after.unwrap_or((i64::MIN, ""));
    sqlx::query_as(
        "select p.id as payment_intent_id, p.created_at, t.trace from payment_intents p \
         join decision_traces t on t.payment_intent_id = p.id \
         where p.store_id = $1 and p.created_at >= $2 and p.created_at < $3 \
           and (p.created_at > $4 or (p.created_at = $4 and p.id > $5)) \
         order by p.created_at, p.id limit $6",
    )
    .bind(store_id)
    .bind(since)
    .bind(until)
    .bind(after_at)
    .bind(after_id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// How many recorded charges [`recorded_traces`] would page through: those of the window, at
/// most `limit`.
pub async fn count_recorded_traces<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    since: i64,
    until: i64,
    limit: i64,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select count(*) from (select 1 from payment_intents p \
           join decision_traces t on t.payment_intent_id = p.id \
           where p.store_id = $1 and p.created_at >= $2 and p.created_at < $3 limit $4) w",
    )
    .bind(store_id)
    .bind(since)
    .bind(until)
    .bind(limit)
    .fetch_one(ex)
    .await
}

/// One step's activation history in a store, newest first: what the kill switch and a
/// rollback walk back through.
pub async fn step_history<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    step: Step,
) -> sqlx::Result<Vec<Activation>> {
    sqlx::query_as(
        "select id, store_id, step, version, previous_version, action, reason, created_at \
         from component_activations where store_id = $1 and step = $2 \
         order by created_at desc, id desc",
    )
    .bind(store_id)
    .bind(step.as_str())
    .fetch_all(ex)
    .await
}

/// The stores whose history of `step` names `version`, as the active version or the one
/// it replaced.
pub async fn stores_that_ran<'e>(
    ex: impl Executor<'e, Database = Any>,
    step: Step,
    version: &str,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "select distinct store_id from component_activations \
         where step = $1 and (version = $2 or previous_version = $2) order by store_id",
    )
    .bind(step.as_str())
    .bind(version)
    .fetch_all(ex)
    .await
}

/// What a recorded trace holds for a step that ran `version`: `"component":"<sha256>"`,
/// as a LIKE pattern (a sha256 has no LIKE metacharacters).
fn names_component(version: &str) -> String {
    format!("%\"component\":\"{version}\"%")
}

/// When the newest trace of a charge of `store_id` created in `[from, to]` and kept since
/// `kept_since` names `version`; the store's index on `(store_id, created_at)` bounds the
/// scan to the charges of that window.
pub async fn newest_store_trace_naming<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    (from, to): (i64, i64),
    kept_since: i64,
    version: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "select t.created_at from payment_intents p \
         join decision_traces t on t.payment_intent_id = p.id \
         where p.store_id = $1 and p.created_at >= $2 and p.created_at <= $3 \
           and t.created_at >= $4 and t.trace like $5 \
         order by p.created_at desc limit 1",
    )
    .bind(store_id)
    .bind(from)
    .bind(to)
    .bind(kept_since)
    .bind(names_component(version))
    .fetch_optional(ex)
    .await
}

/// When the newest trace written since `since` names `version`, over every store: for a
/// version that shipped as a binary's bundled component, which runs without an activation.
pub async fn newest_trace_naming<'e>(
    ex: impl Executor<'e, Database = Any>,
    since: i64,
    version: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "select created_at from decision_traces where created_at >= $1 and trace like $2 \
         order by created_at desc limit 1",
    )
    .bind(since)
    .bind(names_component(version))
    .fetch_optional(ex)
    .await
}

/// Whether a LIVE charge still in progress holds a decision that names `version`: a retry
/// or a takeover resumes it and records that decision as its trace.
pub async fn claim_naming<'e>(
    ex: impl Executor<'e, Database = Any>,
    version: &str,
) -> sqlx::Result<bool> {
    let found: Option<i64> = sqlx::query_scalar(
        "select created_at from idempotency_records \
         where response_status = 0 and response_body like $1 limit 1",
    )
    .bind(names_component(version))
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}
