//! Canaries (DESIGN.md section 14): a share of a store's new charges runs a step's candidate
//! version, the rest the active one.
//!
//! - **Assignment** is [`bucket`], a pure function of the store, the step and the
//!   Idempotency-Key: a retry lands in the same arm, every instance agrees, and the arm is
//!   recorded in the charge's trace (`canaries`), so replay re-runs exactly what decided.
//! - **Measurement**: a canary charge whose step fails answers 503 `routing_unavailable` (no
//!   silent fallback) and is counted as an error; a canary charge that resolved is compared,
//!   off the request path on the shadow worker, with what the active version decides on the
//!   same input. Both land in `canary_calls`, in the database, so the rates every instance
//!   judges are the same numbers.
//! - **Automatic end**: after each recorded call the canary's window is judged, the kill
//!   switch's rule applied before activation: with at least `minCalls` calls in the window, an
//!   error rate or a changed rate at its threshold ends the canary, with the reason recorded.
//!   Ending is a compare-and-set, so instances racing end it once; the others stop sending
//!   charges to it when their store cache expires (one second).
//! - Promote activates the canary's version; any change of the active version ends the running
//!   canary of that step, since its changed rate was measured against the version replaced.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::{ComponentError, ComponentService, StepChange};
use crate::access::Actor;
use crate::db::audit::{self, Action, Change};
pub use crate::db::canary::CanaryEnd;
use crate::db::canary::{self as sql, Canary};
use crate::db::components::{self as components_sql, ActivationAction, BUNDLED};
use crate::db::{self, catalog};
use pixgate_domain::Step;
use pixgate_domain::json::Integer;
use pixgate_pix::time::iso8601;

/// Buckets of the assignment: a share is set in hundredths of a percent.
pub const BUCKETS: u64 = 10_000;

/// The bucket (0 to 9,999) of a charge for a store's step: the charge runs the canary when
/// its bucket is below the canary's share in hundredths of a percent. The step is part of the
/// input so that canaries of two steps of one store pick independent sets of charges.
pub fn bucket(store_id: &str, step: Step, idempotency_key: &str) -> u64 {
    let digest = Sha256::new()
        .chain_update(b"pixgate-canary\0")
        .chain_update(store_id.as_bytes())
        .chain_update(b"\0")
        .chain_update(step.as_str().as_bytes())
        .chain_update(b"\0")
        .chain_update(idempotency_key.as_bytes())
        .finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first) % BUCKETS
}

/// Which version of a step decided a charge of a store with a running canary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    Canary,
    Active,
}

/// A charge's assignment to one running canary, as its trace records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CanaryArm {
    pub canary_id: String,
    pub step: Step,
    /// The canary's version (whichever arm the charge took).
    pub version: String,
    pub percent: f64,
    /// 0 to 9999: the charge took the canary when `bucket < percent × 100`.
    pub bucket: u64,
    pub arm: Arm,
}

/// The arms a charge with this Idempotency-Key takes for the store's running canaries.
pub fn arms(running: &[Canary], store_id: &str, idempotency_key: &str) -> Vec<CanaryArm> {
    running
        .iter()
        .map(|c| {
            let bucket = bucket(store_id, c.step, idempotency_key);
            CanaryArm {
                canary_id: c.id.clone(),
                step: c.step,
                version: c.version.clone(),
                percent: percent(c.basis_points),
                bucket,
                arm: if (bucket as i64) < c.basis_points {
                    Arm::Canary
                } else {
                    Arm::Active
                },
            }
        })
        .collect()
}

fn percent(basis_points: i64) -> f64 {
    basis_points as f64 / 100.0
}

/// Body of `PUT /stores/{code}/components/{step}/canary`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CanaryRequest {
    /// The version to send the share of charges to: a stored version of this step.
    #[schema(pattern = "^(bundled|[0-9a-f]{64})$")]
    pub version: String,
    /// The share of the store's new charges, 0.1 to 100 (rounded to hundredths).
    #[schema(minimum = 0.1, maximum = 100)]
    pub percent: f64,
    /// The window the rates are judged over, 10 to 86400 (default 300).
    #[schema(value_type = Option<i64>, minimum = 10, maximum = 86400)]
    pub window_seconds: Option<Integer>,
    /// Calls needed in the window before a rate counts, 1 to 1000000 (default 20).
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 1000000)]
    pub min_calls: Option<Integer>,
    /// End when at least this share of the window's calls failed, 1 to 100 (default 5).
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub max_error_rate_percent: Option<Integer>,
    /// End when at least this share of the window's calls decided otherwise than the active
    /// version, 1 to 100 (default: no limit).
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub max_changed_rate_percent: Option<Integer>,
}

/// Calls of a canary and what they did.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CanaryCounts {
    /// Charges that ran the canary's version.
    pub calls: u64,
    /// Of those, the ones whose step failed (answered 503).
    pub errors: u64,
    /// Of those that resolved, the ones the active version would have decided otherwise.
    pub changed: u64,
    pub error_rate_percent: f64,
    pub changed_rate_percent: f64,
}

impl From<sql::Counts> for CanaryCounts {
    fn from(c: sql::Counts) -> Self {
        let rate = |n: i64| {
            if c.calls == 0 {
                0.0
            } else {
                (n as f64 * 10_000.0 / c.calls as f64).round() / 100.0
            }
        };
        Self {
            calls: c.calls as u64,
            errors: c.failed as u64,
            changed: c.changed as u64,
            error_rate_percent: rate(c.failed),
            changed_rate_percent: rate(c.changed),
        }
    }
}

/// A canary as the admin API shows it: its settings, whether it runs, and its figures since
/// it started and over its window.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CanaryView {
    pub id: String,
    pub store: String,
    pub step: Step,
    pub version: String,
    /// What the store's other charges run now.
    pub active: String,
    pub percent: f64,
    pub window_seconds: u32,
    pub min_calls: u32,
    pub max_error_rate_percent: u32,
    pub max_changed_rate_percent: Option<u32>,
    pub running: bool,
    #[schema(format = DateTime)]
    pub started_at: String,
    /// The operator who started it.
    pub started_by: String,
    #[schema(format = DateTime)]
    pub ended_at: Option<String>,
    pub ended_by: Option<CanaryEnd>,
    pub ended_reason: Option<String>,
    /// The share of the store's charges since the start that ran the canary, in percent.
    pub share_percent: f64,
    /// Since the start.
    pub total: CanaryCounts,
    /// Over the last `windowSeconds` (of a running canary; up to its end for an ended one):
    /// what the thresholds are judged on.
    pub window: CanaryCounts,
}

/// A running canary, as a store's step shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CanaryBrief {
    pub version: String,
    pub percent: f64,
}

/// One charge's call of a canary's version, to record.
#[derive(Debug, Clone)]
pub struct CanaryCall {
    pub canary: Canary,
    pub payment_intent_id: Option<String>,
    pub failed: bool,
    pub changed: bool,
    pub error_code: Option<String>,
}

impl CanaryRequest {
    /// The row to insert, or the first rule the body breaks.
    fn validate(
        &self,
        store_id: &str,
        step: Step,
        actor: &Actor,
        now: i64,
    ) -> Result<Canary, ComponentError> {
        let invalid = |field: &str, message: &str| ComponentError::Invalid {
            code: "invalid_canary",
            field: field.to_owned(),
            message: message.to_owned(),
        };
        if !(0.1..=100.0).contains(&self.percent) {
            return Err(invalid("percent", "`percent` must be 0.1 to 100"));
        }
        let ranged = |value: Option<Integer>,
                      default: i64,
                      range: std::ops::RangeInclusive<i64>,
                      field: &str|
         -> Result<i64, ComponentError> {
            let v = value.map_or(default, |Integer(v)| v);
            if range.contains(&v) {
                Ok(v)
            } else {
                Err(invalid(
                    field,
                    &format!("`{field}` must be {} to {}", range.start(), range.end()),
                ))
            }
        };
        let window_seconds = ranged(self.window_seconds, 300, 10..=86_400, "windowSeconds")?;
        let min_calls = ranged(self.min_calls, 20, 1..=1_000_000, "minCalls")?;
        let max_error_rate_percent = ranged(
            self.max_error_rate_percent,
            5,
            1..=100,
            "maxErrorRatePercent",
        )?;
        let max_changed_rate_percent = match self.max_changed_rate_percent {
            None => None,
            some => Some(ranged(some, 0, 1..=100, "maxChangedRatePercent")?),
        };
        Ok(Canary {
            id: uuid::Uuid::now_v7().to_string(),
            store_id: store_id.to_owned(),
            step,
            version: self.version.clone(),
            basis_points: ((self.percent * 100.0).round() as i64).clamp(10, 10_000),
            window_seconds,
            min_calls,
            max_error_rate_percent,
            max_changed_rate_percent,
            started_at: now,
            started_by: actor.id.clone(),
            ended_at: None,
            end_kind: None,
            ended_reason: None,
        })
    }
}

impl ComponentService {
    /// Starts a canary of `request.version` on `code`'s `step`, replacing a running one.
    #[tracing::instrument(skip_all, fields(store = %code, %step, version = %request.version))]
    pub async fn start_canary(
        &self,
        actor: &Actor,
        code: &str,
        step: Step,
        request: CanaryRequest,
    ) -> Result<CanaryView, ComponentError> {
        let store = self.store(code).await?;
        let now = db::now_ms();
        let row = request.validate(&store.id, step, actor, now)?;
        self.require_version(step, &row.version).await?;
        let postgres = self.db.backend == db::Backend::Postgres;
        let mut tx = self.db.write.begin().await?;
        components_sql::ensure_store_step(&mut *tx, &store.id, step, now).await?;
        // Serialises with activations of the step: the active version read here stays so.
        let active = components_sql::store_step_for_update(&mut *tx, &store.id, step, postgres)
            .await?
            .map_or(BUNDLED.to_owned(), |r| r.active_version);
        if active == row.version {
            return Err(ComponentError::CanaryIsActive {
                step,
                version: row.version,
            });
        }
        if row.version != BUNDLED
            && !components_sql::version_exists(&mut *tx, step, &row.version, postgres).await?
        {
            return Err(ComponentError::NotFound {
                step,
                version: row.version,
            });
        }
        let replaced = sql::latest(&mut *tx, &store.id, step)
            .await?
            .filter(|c| c.ended_at.is_none());
        if let Some(old) = &replaced {
            sql::end(
                &mut *tx,
                &store.id,
                step,
                Some(&old.id),
                CanaryEnd::Replaced,
                "replaced by a new canary of this step",
                now,
            )
            .await?;
        }
        sql::insert(&mut *tx, &row).await?;
        let view = self.canary_view(&mut tx, &store, &row, &active).await?;
        let mut change = Change::new(
            Action::ComponentCanaryStart,
            format!("store/{}", store.code),
        )
        .after(&view);
        if let Some(old) = &replaced {
            let before = self.canary_view(&mut tx, &store, old, &active).await?;
            change = change.before(&before);
        }
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.stores.clear();
        Ok(view)
    }

    /// The newest canary of `code`'s `step`, running or ended.
    pub async fn canary(&self, code: &str, step: Step) -> Result<CanaryView, ComponentError> {
        let store = self.store(code).await?;
        let not_found = || ComponentError::CanaryNotFound {
            store: store.code.clone(),
            step,
        };
        let mut tx = self.db.read.begin().await?;
        let row = sql::latest(&mut *tx, &store.id, step)
            .await?
            .ok_or_else(not_found)?;
        let active = components_sql::store_steps(&mut *tx, &store.id)
            .await?
            .into_iter()
            .find(|r| r.step == step)
            .map_or(BUNDLED.to_owned(), |r| r.active_version);
        let view = self.canary_view(&mut tx, &store, &row, &active).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// Ends the running canary of `code`'s `step` (an operator's decision).
    #[tracing::instrument(skip_all, fields(store = %code, %step))]
    pub async fn end_canary(
        &self,
        actor: &Actor,
        code: &str,
        step: Step,
    ) -> Result<CanaryView, ComponentError> {
        let store = self.store(code).await?;
        let not_found = || ComponentError::CanaryNotFound {
            store: store.code.clone(),
            step,
        };
        let now = db::now_ms();
        let mut tx = self.db.write.begin().await?;
        let running = sql::latest(&mut *tx, &store.id, step)
            .await?
            .filter(|c| c.ended_at.is_none())
            .ok_or_else(not_found)?;
        let active = components_sql::store_steps(&mut *tx, &store.id)
            .await?
            .into_iter()
            .find(|r| r.step == step)
            .map_or(BUNDLED.to_owned(), |r| r.active_version);
        let before = self.canary_view(&mut tx, &store, &running, &active).await?;
        let reason = format!("ended by operator `{}`", actor.id);
        sql::end(
            &mut *tx,
            &store.id,
            step,
            Some(&running.id),
            CanaryEnd::Ended,
            &reason,
            now,
        )
        .await?
        .ok_or_else(not_found)?;
        let ended = Canary {
            ended_at: Some(now),
            end_kind: Some(CanaryEnd::Ended),
            ended_reason: Some(reason),
            ..running
        };
        let view = self.canary_view(&mut tx, &store, &ended, &active).await?;
        let change = Change::new(Action::ComponentCanaryEnd, format!("store/{}", store.code))
            .before(&before)
            .after(&view);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.stores.clear();
        self.metrics
            .canary_ended(&store.code, step.as_str(), CanaryEnd::Ended.as_str());
        Ok(view)
    }

    /// Activates the running canary's version (which ends the canary as `promoted`). A
    /// compare-and-set: of concurrent promotes one activates and is audited; the others find
    /// the canary ended, as after any end (404 `canary_not_found`).
    #[tracing::instrument(skip_all, fields(store = %code, %step))]
    pub async fn promote_canary(
        &self,
        actor: &Actor,
        code: &str,
        step: Step,
    ) -> Result<super::StoreComponents, ComponentError> {
        let store = self.store(code).await?;
        let running = sql::latest(&self.db.write, &store.id, step)
            .await?
            .filter(|c| c.ended_at.is_none())
            .ok_or_else(|| ComponentError::CanaryNotFound {
                store: store.code.clone(),
                step,
            })?;
        // Loaded (compiled) before the transaction, so the step's lock is not held meanwhile.
        self.require_version(step, &running.version).await?;
        self.change_step(
            &store,
            step,
            StepChange::Promote {
                canary: &running.id,
                version: &running.version,
            },
            Some(actor),
        )
        .await?;
        self.view(&store).await
    }

    /// Ends canary `id` as `promoted` in a promote's transaction, if it still runs; otherwise
    /// (another promote, an end or a threshold got there first) the promote is refused as for
    /// an ended canary, and its transaction, rolled back, changes nothing.
    pub(super) async fn end_promoted_canary(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        store: &catalog::Store,
        step: Step,
        id: &str,
        now: i64,
    ) -> Result<(), ComponentError> {
        sql::end(
            &mut **tx,
            &store.id,
            step,
            Some(id),
            CanaryEnd::Promoted,
            "its version was activated",
            now,
        )
        .await?
        .map(|_| ())
        .ok_or_else(|| ComponentError::CanaryNotFound {
            store: store.code.clone(),
            step,
        })
    }

    /// Ends the running canary of a store's step inside an activation's transaction: as
    /// `promoted` when `activated` is its version, `superseded` otherwise.
    pub(super) async fn end_canary_on_change(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        store_id: &str,
        step: Step,
        activated: &str,
        now: i64,
    ) -> Result<Option<CanaryEnd>, ComponentError> {
        let Some(running) = sql::latest(&mut **tx, store_id, step)
            .await?
            .filter(|c| c.ended_at.is_none())
        else {
            return Ok(None);
        };
        let (kind, reason) = if running.version == activated {
            (CanaryEnd::Promoted, "its version was activated".to_owned())
        } else {
            (
                CanaryEnd::Superseded,
                format!("the active version changed to `{activated}`"),
            )
        };
        sql::end(
            &mut **tx,
            store_id,
            step,
            Some(&running.id),
            kind,
            &reason,
            now,
        )
        .await?;
        Ok(Some(kind))
    }

    /// Records a canary charge whose step failed (it answered 503), off the request path, and
    /// judges the canary.
    pub fn canary_failed(&self, canary: Canary, error_code: &str) {
        let this = self.clone();
        let call = CanaryCall {
            canary,
            payment_intent_id: None,
            failed: true,
            changed: false,
            error_code: Some(error_code.to_owned()),
        };
        tokio::spawn(async move {
            if let Err(e) = this.record_canary_calls(&[call]).await {
                tracing::warn!(error = %e, "canary call not recorded");
            }
        });
    }

    /// Writes canary calls in one transaction, then judges each canary they belong to.
    pub(super) async fn record_canary_calls(
        &self,
        calls: &[CanaryCall],
    ) -> Result<(), ComponentError> {
        if calls.is_empty() {
            return Ok(());
        }
        let now = db::now_ms();
        let mut tx = self.db.write.begin().await?;
        for call in calls {
            sql::insert_call(
                &mut *tx,
                &sql::Call {
                    id: uuid::Uuid::now_v7().to_string(),
                    canary_id: call.canary.id.clone(),
                    payment_intent_id: call.payment_intent_id.clone(),
                    failed: i64::from(call.failed),
                    changed: i64::from(call.changed),
                    error_code: call.error_code.clone(),
                    created_at: now,
                },
            )
            .await?;
        }
        tx.commit().await?;
        // A batch holds many calls of few canaries: each canary's store is read, and its
        // window judged, once.
        let mut stores: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
        for call in calls {
            let c = &call.canary;
            if !stores.contains_key(c.id.as_str()) {
                let code = catalog::store_by_id(&self.db.read, &c.store_id)
                    .await?
                    .map_or_else(|| c.store_id.clone(), |s| s.code);
                stores.insert(&c.id, code);
            }
            let outcome = match (call.failed, call.changed) {
                (true, _) => "failed",
                (false, true) => "changed",
                (false, false) => "same",
            };
            self.metrics
                .canary_call(&stores[c.id.as_str()], c.step.as_str(), outcome);
        }
        let mut judged = std::collections::HashSet::new();
        for call in calls {
            let c = &call.canary;
            if judged.insert(c.id.as_str()) {
                self.judge(c, &stores[c.id.as_str()], now).await?;
            }
        }
        Ok(())
    }

    /// Ends `canary` when its window's error rate or changed rate reached its threshold.
    async fn judge(&self, canary: &Canary, store: &str, now: i64) -> Result<(), ComponentError> {
        let since = now - canary.window_seconds * 1000;
        let counts = sql::counts(&self.db.write, &canary.id, since).await?;
        let Some((kind, reason)) = verdict(canary, counts) else {
            return Ok(());
        };
        let ended = sql::end(
            &self.db.write,
            &canary.store_id,
            canary.step,
            Some(&canary.id),
            kind,
            &reason,
            db::now_ms(),
        )
        .await?;
        if ended.is_some() {
            self.stores.clear();
            tracing::warn!(%store, step = %canary.step, version = %canary.version, %reason,
                "canary ended by itself");
            self.metrics
                .canary_ended(store, canary.step.as_str(), kind.as_str());
        }
        Ok(())
    }

    /// The view of canary `row` of `store`, figures read in `tx`.
    async fn canary_view(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        store: &catalog::Store,
        row: &Canary,
        active: &str,
    ) -> Result<CanaryView, ComponentError> {
        let end = row.ended_at.unwrap_or_else(db::now_ms);
        let total = sql::counts(&mut **tx, &row.id, row.started_at).await?;
        let window = sql::counts(
            &mut **tx,
            &row.id,
            (end - row.window_seconds * 1000).max(row.started_at),
        )
        .await?;
        // Charges stored since the start, and the canary's failed ones, which were not stored.
        let charges = sql::store_charges_since(&mut **tx, &store.id, row.started_at).await?;
        let seen = charges + total.failed;
        let share_percent = if seen == 0 {
            0.0
        } else {
            (total.calls as f64 * 10_000.0 / seen as f64).round() / 100.0
        };
        Ok(CanaryView {
            id: row.id.clone(),
            store: store.code.clone(),
            step: row.step,
            version: row.version.clone(),
            active: active.to_owned(),
            percent: percent(row.basis_points),
            window_seconds: row.window_seconds as u32,
            min_calls: row.min_calls as u32,
            max_error_rate_percent: row.max_error_rate_percent as u32,
            max_changed_rate_percent: row.max_changed_rate_percent.map(|v| v as u32),
            running: row.ended_at.is_none(),
            started_at: iso8601(row.started_at),
            started_by: row.started_by.clone(),
            ended_at: row.ended_at.map(iso8601),
            ended_by: row.end_kind,
            ended_reason: row.ended_reason.clone(),
            share_percent,
            total: total.into(),
            window: window.into(),
        })
    }

    /// The start and end of each of a store's recent canaries, as entries of its history.
    pub(super) async fn canary_history(
        &self,
        store_id: &str,
    ) -> Result<Vec<super::ActivationView>, ComponentError> {
        let mut out = Vec::new();
        for c in sql::history(&self.db.write, store_id, 50).await? {
            if let (Some(at), Some(kind)) = (c.ended_at, c.end_kind) {
                out.push(super::ActivationView {
                    step: c.step,
                    version: c.version.clone(),
                    previous_version: None,
                    action: ActivationAction::CanaryEnd,
                    reason: Some(match &c.ended_reason {
                        Some(reason) => format!("{kind}: {reason}"),
                        None => kind.to_string(),
                    }),
                    at: iso8601(at),
                });
            }
            out.push(super::ActivationView {
                step: c.step,
                version: c.version.clone(),
                previous_version: None,
                action: ActivationAction::CanaryStart,
                reason: Some(format!(
                    "{}% of new charges, started by `{}`",
                    percent(c.basis_points),
                    c.started_by
                )),
                at: iso8601(c.started_at),
            });
        }
        Ok(out)
    }
}

/// Whether a canary's window calls for its end, and why.
fn verdict(canary: &Canary, counts: sql::Counts) -> Option<(CanaryEnd, String)> {
    if counts.calls < canary.min_calls || counts.calls == 0 {
        return None;
    }
    let window = canary.window_seconds;
    let rate = |n: i64| n * 100 / counts.calls;
    if counts.failed * 100 >= canary.max_error_rate_percent * counts.calls {
        return Some((
            CanaryEnd::ErrorRate,
            format!(
                "{} of {} calls failed in the last {window} s ({}%), at or above the threshold \
                 of {}%",
                counts.failed,
                counts.calls,
                rate(counts.failed),
                canary.max_error_rate_percent
            ),
        ));
    }
    if let Some(max) = canary.max_changed_rate_percent
        && counts.changed * 100 >= max * counts.calls
    {
        return Some((
            CanaryEnd::ChangedRate,
            format!(
                "{} of {} calls decided otherwise than the active version in the last {window} s \
                 ({}%), at or above the threshold of {max}%",
                counts.changed,
                counts.calls,
                rate(counts.changed)
            ),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canary(basis_points: i64) -> Canary {
        Canary {
            id: "c1".into(),
            store_id: "store-1".into(),
            step: Step::Provider,
            version: "v".into(),
            basis_points,
            window_seconds: 60,
            min_calls: 10,
            max_error_rate_percent: 5,
            max_changed_rate_percent: Some(50),
            started_at: 0,
            started_by: "bootstrap".into(),
            ended_at: None,
            end_kind: None,
            ended_reason: None,
        }
    }

    #[test]
    fn thirty_percent_of_a_thousand_keys_is_within_the_binomial_bound() {
        let c = canary(3000);
        let taken = (0..1000)
            .filter(|i| {
                arms(std::slice::from_ref(&c), "store-1", &format!("order-{i}"))[0].arm
                    == Arm::Canary
            })
            .count();
        // n = 1000, p = 0.3: mean 300, standard deviation 14.5; five deviations either side.
        assert!((228..=372).contains(&taken), "{taken} of 1000");
    }

    #[test]
    fn the_arm_is_a_pure_function_of_store_step_and_key() {
        let a = bucket("store-1", Step::Provider, "order-1");
        assert_eq!(a, bucket("store-1", Step::Provider, "order-1"));
        assert!(a < BUCKETS);
        // Another store, step or key draws again (these three happen to differ).
        let others = [
            bucket("store-2", Step::Provider, "order-1"),
            bucket("store-1", Step::Policy, "order-1"),
            bucket("store-1", Step::Provider, "order-2"),
        ];
        assert!(others.iter().all(|b| *b != a), "{a} {others:?}");
        // 100 % takes every charge; 0.1 % takes the bottom ten buckets only.
        for i in 0..200 {
            let key = format!("k{i}");
            assert_eq!(arms(&[canary(10_000)], "s", &key)[0].arm, Arm::Canary);
            let arm = arms(&[canary(10)], "s", &key)[0].clone();
            assert_eq!(arm.arm == Arm::Canary, arm.bucket < 10);
        }
    }

    #[test]
    fn the_window_ends_a_canary_at_its_thresholds_with_enough_calls() {
        let c = canary(500);
        let counts = |calls, failed, changed| sql::Counts {
            calls,
            failed,
            changed,
        };
        assert_eq!(verdict(&c, counts(9, 9, 0)), None, "too few calls");
        assert_eq!(verdict(&c, counts(100, 4, 49)), None);
        let (kind, reason) = verdict(&c, counts(100, 5, 0)).unwrap();
        assert_eq!(kind, CanaryEnd::ErrorRate);
        assert!(reason.contains("5 of 100 calls failed"), "{reason}");
        let (kind, reason) = verdict(&c, counts(10, 0, 5)).unwrap();
        assert_eq!(kind, CanaryEnd::ChangedRate);
        assert!(
            reason.contains("5 of 10 calls decided otherwise"),
            "{reason}"
        );
        let mut unlimited = c.clone();
        unlimited.max_changed_rate_percent = None;
        assert_eq!(verdict(&unlimited, counts(10, 0, 10)), None);
    }
}
