//! Shadow candidates: a version attached to a store's step runs on every new charge of the
//! store, after the charge is answered, on a worker of its own; where it decides otherwise
//! than the active version, the difference is recorded. It never changes a charge. The
//! queue is bounded: when it is full a comparison is skipped (and counted), never a charge
//! delayed.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use utoipa::ToSchema;

use super::ComponentError;
use crate::db::components::{self as sql, StoreStep};
use crate::db::{self, Flag};
use pixgate_domain::Outcome;
use pixgate_domain::Step;
use pixgate_pix::time::iso8601;
use pixgate_report::{Change, changes, zero_counts};
use pixgate_sandbox::chain::{self, Components, DecisionTrace};

/// One charge to compare.
#[derive(Debug)]
pub struct Job {
    pub store_id: String,
    pub payment_intent_id: String,
    pub trace: Arc<DecisionTrace>,
    /// What the charge ran with.
    pub active: Components,
    /// Steps with a candidate: (step, candidate version).
    pub candidates: Vec<(Step, String)>,
}

/// The bounded hand-off from the charge path to the shadow worker.
pub struct Queue {
    tx: mpsc::Sender<Job>,
    rx: Mutex<Option<mpsc::Receiver<Job>>>,
}

impl Queue {
    pub fn new(capacity: usize) -> Self {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        Self {
            tx,
            rx: Mutex::new(Some(rx)),
        }
    }

    /// Hands a charge to the worker; false when the queue is full (the comparison is
    /// skipped).
    pub fn offer(&self, job: Job) -> bool {
        self.tx.try_send(job).is_ok()
    }
}

/// The candidates attached to a store's steps.
pub fn candidates(steps: &[StoreStep]) -> Vec<(Step, String)> {
    steps
        .iter()
        .filter_map(|s| Some((s.step.parse().ok()?, s.candidate_version.clone()?)))
        .collect()
}

/// Comparisons the worker runs before writing them together.
const BATCH: usize = 256;

impl super::ComponentService {
    /// Starts the worker that runs the comparisons. It takes whatever is queued (up to
    /// [`BATCH`] charges), compares them all, and writes the results in one transaction: one
    /// INSERT transaction per comparison made SQLite's single writer the worker's bottleneck,
    /// and at full charge load the queue overflowed and most comparisons were skipped.
    pub fn spawn_shadow_worker(&self) -> tokio::task::JoinHandle<()> {
        let rx = self
            .registry
            .shadow
            .rx
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let this = self.clone();
        tokio::spawn(async move {
            let Some(mut rx) = rx else { return };
            let mut jobs = Vec::with_capacity(BATCH);
            while rx.recv_many(&mut jobs, BATCH).await > 0 {
                let mut rows = Vec::with_capacity(jobs.len());
                for job in jobs.drain(..) {
                    for (step, candidate) in &job.candidates {
                        match this.compare(&job, *step, candidate).await {
                            Ok(row) => rows.push((*step, row)),
                            Err(e) => tracing::warn!(%step, error = %e, "shadow comparison failed"),
                        }
                    }
                }
                if let Err(e) = this.record(&rows).await {
                    tracing::warn!(error = %e, count = rows.len(), "shadow comparisons not recorded");
                    continue;
                }
                for (step, row) in &rows {
                    this.metrics.observe_shadow(
                        step.as_str(),
                        if row.changed.0 { "changed" } else { "same" },
                    );
                }
            }
        })
    }

    async fn record(&self, rows: &[(Step, sql::ShadowResult)]) -> Result<(), ComponentError> {
        if rows.is_empty() {
            return Ok(());
        }
        let mut tx = self.db.write.begin().await?;
        for (_, row) in rows {
            sql::insert_shadow_result(&mut *tx, row).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Runs the candidate on the charge's recorded input; the row recording how it decided.
    async fn compare(
        &self,
        job: &Job,
        step: Step,
        candidate: &str,
    ) -> Result<sql::ShadowResult, ComponentError> {
        let loaded = self
            .registry
            .load(&self.db, &self.sandbox, step, candidate)
            .await?;
        let mut components = job.active.clone();
        components.set(step, loaded);
        let input = job.trace.chain_input();
        let result =
            tokio::task::block_in_place(|| chain::resolve(&self.sandbox, &components, &input));
        let before = job.trace.outcome();
        let after = chain::outcome_of(&result);
        let kinds = changes(&before, &after);
        let error_code = match &after {
            Outcome::Failed { code, .. } => Some(code.clone()),
            _ => None,
        };
        Ok(sql::ShadowResult {
            id: uuid::Uuid::now_v7().to_string(),
            store_id: job.store_id.clone(),
            step: step.as_str().to_owned(),
            candidate_version: candidate.to_owned(),
            active_version: job.active.get(step).sha256().to_owned(),
            payment_intent_id: job.payment_intent_id.clone(),
            changed: Flag(!kinds.is_empty()),
            kinds: serde_json::to_string(&kinds).unwrap_or_else(|_| "[]".into()),
            error_code,
            before_outcome: serde_json::to_string(&before).unwrap_or_default(),
            after_outcome: serde_json::to_string(&after).unwrap_or_default(),
            created_at: db::now_ms(),
        })
    }

    /// The comparison of the candidate attached to `code`'s `step`: its latest [`COMPARED`]
    /// charges since it was attached.
    pub async fn comparison(
        &self,
        code: &str,
        step: Step,
    ) -> Result<ShadowComparison, ComponentError> {
        let store = self.store(code).await?;
        let row = sql::store_steps(&self.db.read, &store.id)
            .await?
            .into_iter()
            .find(|r| r.step == step.as_str());
        let active = row
            .as_ref()
            .map_or(sql::BUNDLED.to_owned(), |r| r.active_version.clone());
        let mut out = ShadowComparison {
            store: store.code.clone(),
            step,
            candidate: None,
            active,
            since: None,
            charges: 0,
            unchanged: 0,
            changed: 0,
            errors: 0,
            changes_by_kind: zero_counts(),
            errors_by_kind: BTreeMap::new(),
            recent: Vec::new(),
        };
        let Some((candidate, since)) =
            row.and_then(|r| Some((r.candidate_version?, r.candidate_since?)))
        else {
            return Ok(out);
        };
        out.candidate = Some(candidate.clone());
        out.since = Some(iso8601(since));
        // The comparison covers the latest COMPARED charges: bounded work and memory however
        // long a candidate stays attached.
        let mut results = sql::shadow_results(
            &self.db.read,
            &store.id,
            step.as_str(),
            &candidate,
            since,
            COMPARED,
        )
        .await?;
        results.reverse();
        for r in results {
            out.charges += 1;
            // A failure is an error of the candidate, never a change (rows written before that
            // rule may carry a `refusal` change for it).
            if let Some(code) = &r.error_code {
                out.errors += 1;
                *out.errors_by_kind.entry(code.clone()).or_default() += 1;
                continue;
            }
            if !r.changed.0 {
                out.unchanged += 1;
                continue;
            }
            out.changed += 1;
            let kinds: Vec<Change> = serde_json::from_str(&r.kinds).unwrap_or_default();
            for k in &kinds {
                *out.changes_by_kind.entry(*k).or_default() += 1;
            }
            let parse = |text: &str| serde_json::from_str::<Outcome>(text).ok();
            if let (Some(before), Some(after)) = (parse(&r.before_outcome), parse(&r.after_outcome))
            {
                out.recent.push(ShadowDifference {
                    payment_intent_id: r.payment_intent_id,
                    at: iso8601(r.created_at),
                    kinds,
                    before,
                    after,
                });
            }
        }
        out.recent.reverse();
        out.recent.truncate(20);
        Ok(out)
    }
}

/// One compared charge.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShadowDifference {
    pub payment_intent_id: String,
    #[schema(format = DateTime)]
    pub at: String,
    pub kinds: Vec<Change>,
    pub before: Outcome,
    pub after: Outcome,
}

/// The running comparison of a store step's candidate against the active version.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShadowComparison {
    pub store: String,
    #[schema(value_type = String)]
    pub step: Step,
    /// `null` when no candidate is attached.
    pub candidate: Option<String>,
    pub active: String,
    #[schema(format = DateTime)]
    pub since: Option<String>,
    /// Charges compared: `unchanged + changed + errors`.
    pub charges: u64,
    pub unchanged: u64,
    pub changed: u64,
    /// Charges on which the candidate failed in the sandbox: no decision to compare, so
    /// neither changed nor unchanged.
    pub errors: u64,
    #[schema(value_type = BTreeMap<String, u64>)]
    pub changes_by_kind: BTreeMap<Change, u64>,
    pub errors_by_kind: BTreeMap<String, u64>,
    /// The latest differences, newest first (at most 20).
    pub recent: Vec<ShadowDifference>,
}

/// How many of the latest comparisons a running comparison covers.
pub const COMPARED: i64 = 10_000;
