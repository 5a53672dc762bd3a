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
use super::canary::CanaryCall;
use crate::db::canary::Canary;
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
    /// The canaries whose version decided this charge, each with the version the store runs
    /// for its step: what it would have decided is what the canary's changed rate counts.
    pub canaries: Vec<(Canary, String)>,
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
        .filter_map(|s| Some((s.step, s.candidate_version.clone()?)))
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
                let mut canary_calls = Vec::new();
                for job in jobs.drain(..) {
                    for (step, candidate) in &job.candidates {
                        match this.compare(&job, *step, candidate).await {
                            Ok(row) => rows.push((*step, row)),
                            Err(e) => tracing::warn!(%step, error = %e, "shadow comparison failed"),
                        }
                    }
                    for (canary, active) in &job.canaries {
                        match this.compare_canary(&job, canary, active).await {
                            Ok(call) => canary_calls.push(call),
                            Err(e) => tracing::warn!(step = %canary.step, error = %e,
                                "canary comparison failed"),
                        }
                    }
                }
                if let Err(e) = this.record_canary_calls(&canary_calls).await {
                    tracing::warn!(error = %e, count = canary_calls.len(),
                        "canary calls not recorded");
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
            step,
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

    /// Runs the store's active version of a canary's step on a canary charge's recorded
    /// input: whether it would have decided otherwise.
    async fn compare_canary(
        &self,
        job: &Job,
        canary: &Canary,
        active: &str,
    ) -> Result<CanaryCall, ComponentError> {
        let step = canary.step;
        let loaded = self
            .registry
            .load(&self.db, &self.sandbox, step, active)
            .await?;
        let mut components = job.active.clone();
        components.set(step, loaded);
        let input = job.trace.chain_input();
        let result =
            tokio::task::block_in_place(|| chain::resolve(&self.sandbox, &components, &input));
        let after = chain::outcome_of(&result);
        // The active version failing is not the canary's change.
        let changed = !matches!(after, Outcome::Failed { .. })
            && !changes(&job.trace.outcome(), &after).is_empty();
        Ok(CanaryCall {
            canary: canary.clone(),
            payment_intent_id: Some(job.payment_intent_id.clone()),
            failed: false,
            changed,
            error_code: None,
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
            .find(|r| r.step == step);
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
            changed_share: 0.0,
            fee_delta_centavos: 0,
            net_delta_centavos: 0,
            providers_before: BTreeMap::new(),
            providers_after: BTreeMap::new(),
            recent: Vec::new(),
            bucket_seconds: None,
            series: Vec::new(),
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
        let mut results =
            sql::shadow_results(&self.db.read, &store.id, step, &candidate, since, COMPARED)
                .await?;
        results.reverse();
        let mut series = Series::new(
            results.first().map(|r| r.created_at),
            results.last().map(|r| r.created_at),
        );
        let parse = |text: &str| serde_json::from_str::<Outcome>(text).ok();
        for r in results {
            out.charges += 1;
            series.add(r.created_at, r.error_code.is_some(), r.changed.0);
            let outcomes = parse(&r.before_outcome).zip(parse(&r.after_outcome));
            if let Some((before, after)) = &outcomes {
                out.add_outcomes(before, after, r.error_code.is_some());
            }
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
            if let Some((before, after)) = outcomes {
                out.recent.push(ShadowDifference {
                    payment_intent_id: r.payment_intent_id,
                    at: iso8601(r.created_at),
                    kinds,
                    before,
                    after,
                });
            }
        }
        out.changed_share = if out.charges == 0 {
            0.0
        } else {
            out.changed as f64 / out.charges as f64
        };
        // Every provider on both sides, so the distributions line up (as replay's do).
        for key in out.providers_before.keys() {
            out.providers_after.entry(key.clone()).or_insert(0);
        }
        for key in out.providers_after.keys() {
            out.providers_before.entry(key.clone()).or_insert(0);
        }
        out.recent.reverse();
        out.recent.truncate(20);
        out.bucket_seconds = series.width_ms.map(|w| w / 1000);
        out.series = series.buckets;
        Ok(out)
    }
}

impl ShadowComparison {
    /// Counts one compared charge's outcomes into the deltas and the distributions; a failed
    /// candidate (`error`) routes nowhere and adds no fee.
    fn add_outcomes(&mut self, before: &Outcome, after: &Outcome, error: bool) {
        *self
            .providers_before
            .entry(before.provider_key().to_owned())
            .or_default() += 1;
        let after_key = if error {
            pixgate_domain::NO_PROVIDER
        } else {
            after.provider_key()
        };
        *self
            .providers_after
            .entry(after_key.to_owned())
            .or_default() += 1;
        if let (false, Some((fee, net))) = (error, before.money_delta(after)) {
            self.fee_delta_centavos += fee;
            self.net_delta_centavos += net;
        }
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
    /// `changed / charges`: the share of compared charges the candidate decides differently
    /// (0 when none was compared).
    pub changed_share: f64,
    /// The candidate's fees minus the active version's, in centavos, over the compared charges
    /// both resolved (as replay reports it).
    pub fee_delta_centavos: i64,
    /// The same for the merchant's net.
    pub net_delta_centavos: i64,
    /// The provider each side routed the compared charges to (`(none)` for a refusal or an
    /// error); both maps have the same keys.
    pub providers_before: BTreeMap<String, u64>,
    pub providers_after: BTreeMap<String, u64>,
    /// The latest differences, newest first (at most 20).
    pub recent: Vec<ShadowDifference>,
    /// The width of each bucket of `series`; `null` when nothing was compared yet.
    pub bucket_seconds: Option<i64>,
    /// The same comparison over time, oldest first: the compared charges in buckets of
    /// `bucketSeconds` (at most 48 of them), empty buckets left out.
    pub series: Vec<ShadowBucket>,
}

/// The compared charges of one span of time.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShadowBucket {
    /// Where the bucket starts (a multiple of its width since the Unix epoch, UTC).
    #[schema(format = DateTime)]
    pub at: String,
    pub charges: u64,
    pub changed: u64,
    pub errors: u64,
}

/// How many buckets a series has at most: enough for a day by the half hour, few enough to
/// draw at a phone's width.
const MAX_BUCKETS: i64 = 48;

/// The widths a series may take, smallest first: the first that covers the span in at most
/// [`MAX_BUCKETS`] buckets is taken, so a young candidate is seen by the minute and an old one
/// by the day.
const DAY_MS: i64 = 86_400_000;

const WIDTHS_MS: [i64; 8] = [
    60_000,
    300_000,
    900_000,
    1_800_000,
    3_600_000,
    21_600_000,
    86_400_000,
    604_800_000,
];

/// Counts compared charges into time buckets; rows come oldest first.
struct Series {
    width_ms: Option<i64>,
    buckets: Vec<ShadowBucket>,
    start: i64,
}

impl Series {
    fn new(first: Option<i64>, last: Option<i64>) -> Self {
        let width_ms = first.zip(last).map(|(first, last)| {
            WIDTHS_MS
                .into_iter()
                .find(|w| last / w - first / w < MAX_BUCKETS)
                // Beyond a week a bucket: whole days, as many as keep the count in bounds.
                .unwrap_or_else(|| ((last - first) / (MAX_BUCKETS - 1) / DAY_MS + 1) * DAY_MS)
        });
        Self {
            width_ms,
            buckets: Vec::new(),
            start: i64::MIN,
        }
    }

    fn add(&mut self, at: i64, error: bool, changed: bool) {
        let Some(width) = self.width_ms else { return };
        let start = at - at.rem_euclid(width);
        if self.buckets.is_empty() || start != self.start {
            self.start = start;
            self.buckets.push(ShadowBucket {
                at: iso8601(start),
                charges: 0,
                changed: 0,
                errors: 0,
            });
        }
        let bucket = self.buckets.last_mut().expect("pushed above");
        bucket.charges += 1;
        if error {
            bucket.errors += 1;
        } else if changed {
            bucket.changed += 1;
        }
    }
}

/// How many of the latest comparisons a running comparison covers.
pub const COMPARED: i64 = 10_000;

#[cfg(test)]
mod tests {
    use super::*;

    fn series(rows: &[(i64, bool, bool)]) -> Series {
        let mut s = Series::new(rows.first().map(|r| r.0), rows.last().map(|r| r.0));
        for &(at, error, changed) in rows {
            s.add(at, error, changed);
        }
        s
    }

    #[test]
    fn a_young_candidate_is_counted_by_the_minute() {
        let s = series(&[
            (60_000, false, false),
            (61_000, false, true),
            (119_999, true, true),
            (180_000, false, true),
        ]);
        assert_eq!(s.width_ms, Some(60_000));
        let counts: Vec<_> = s
            .buckets
            .iter()
            .map(|b| (b.at.as_str(), b.charges, b.changed, b.errors))
            .collect();
        // The empty minute between is left out; an error is not a change.
        assert_eq!(
            counts,
            [
                ("1970-01-01T00:01:00.000Z", 3, 1, 1),
                ("1970-01-01T00:03:00.000Z", 1, 1, 0),
            ]
        );
    }

    #[test]
    fn a_long_span_takes_a_wider_bucket_and_never_more_than_the_maximum() {
        let day = 86_400_000;
        let s = series(&[(0, false, false), (day - 1, false, false)]);
        assert_eq!(s.width_ms, Some(1_800_000));
        let s = series(&[(0, false, false), (300 * day, false, false)]);
        assert_eq!(s.width_ms, Some(604_800_000));
        let s = series(&[(0, false, false), (400 * day, false, false)]);
        assert_eq!(s.width_ms, Some(9 * day));
        assert_eq!(s.buckets.len(), 2);
        let hours: Vec<_> = (0..100).map(|h| (h * 3_600_000, false, false)).collect();
        let s = series(&hours);
        assert!(s.buckets.len() as i64 <= MAX_BUCKETS, "{}", s.buckets.len());
        assert_eq!(s.buckets.iter().map(|b| b.charges).sum::<u64>(), 100);
    }

    #[test]
    fn nothing_compared_has_no_series() {
        let s = series(&[]);
        assert_eq!(s.width_ms, None);
        assert!(s.buckets.is_empty());
    }
}
