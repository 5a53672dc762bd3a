//! Replay (DESIGN.md section 9): re-runs a store's recorded charges from their recorded
//! inputs, with candidate versions for the chosen steps and the recorded version for the
//! others, and reports what changes. A candidate's changed output flows into the later
//! steps, because the whole chain runs again from the recorded chain input.
//!
//! Traces are read in pages and each page is parsed and re-run on the replay pool (half the
//! cores, shared by every replay: [`super::limits`]); nothing is written. Replays at once are
//! bounded per store and in all.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ComponentError;
use crate::db::DbError;
use crate::db::components as sql;
use pixgate_domain::Step;
use pixgate_domain::json::Integer;
use pixgate_domain::{Outcome, StepVersions};
use pixgate_pix::time::{iso8601, parse_iso8601};
use pixgate_report::{ChangedCharge, FuelSummary, ReplayReport, changes, zero_counts};
use pixgate_sandbox::LoadedComponent;
use pixgate_sandbox::chain::{self, Components, DecisionTrace};

/// Body of `POST /replays`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReplayRequest {
    /// Store code.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$")]
    pub store: String,
    /// Candidate versions per step; a step left out keeps each charge's recorded version.
    #[serde(default)]
    pub components: StepVersions,
    /// Charges created at or after this instant (ISO 8601, UTC).
    #[schema(format = DateTime)]
    pub since: Option<String>,
    /// Charges created before this instant.
    #[schema(format = DateTime)]
    pub until: Option<String>,
    /// At most this many charges, oldest first: 1 to 100000 (default 10000).
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    pub limit: Option<Integer>,
}

pub const DEFAULT_LIMIT: u32 = 10_000;
pub const MAX_LIMIT: u32 = 100_000;
const PAGE: i64 = 4_000;
/// Charges run between two progress reports: a fraction of a second of work, so a replay's
/// progress moves steadily (the slices of a page still run on every core of the pool).
const PROGRESS_EVERY: usize = 100;
/// Changed charges listed in a report.
const FIRST_CHANGED: usize = 20;

fn invalid(field: &str, message: impl Into<String>) -> ComponentError {
    ComponentError::Invalid {
        code: "invalid_replay",
        field: field.to_owned(),
        message: message.into(),
    }
}

/// What one charge's replay gave (`None`: its trace or a recorded version is unreadable).
struct Replayed {
    id: String,
    created_at: i64,
    before: Outcome,
    after: Outcome,
    fuel: Option<u64>,
}

/// How far a replay is: charges re-run so far, of the charges its window and limit hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplayProgress {
    pub replayed: u64,
    pub total: u64,
}

impl super::ComponentService {
    /// Replays `request` and reports.
    pub async fn replay(&self, request: ReplayRequest) -> Result<ReplayReport, ComponentError> {
        self.replay_reporting(request, |_| {}).await
    }

    /// [`Self::replay`], telling `progress` how far it is: once the request is found valid
    /// (`replayed` 0, with the total), then after each page of charges.
    #[tracing::instrument(skip_all, fields(store = %request.store))]
    pub async fn replay_reporting(
        &self,
        request: ReplayRequest,
        progress: impl Fn(ReplayProgress) + Send + Sync,
    ) -> Result<ReplayReport, ComponentError> {
        let started = Instant::now();
        let store = self.store(&request.store).await?;
        let time = |field: &str, v: &Option<String>, default: i64| match v {
            None => Ok(default),
            Some(text) => parse_iso8601(text)
                .ok_or_else(|| invalid(field, format!("`{field}` is not an ISO 8601 UTC time"))),
        };
        // An open window reaches back to the first charge, however early an `until` is.
        let since = time("since", &request.since, i64::MIN)?;
        let until = time("until", &request.until, i64::MAX)?;
        if since > until {
            return Err(invalid(
                "until",
                "`until` must not be before `since`".to_owned(),
            ));
        }
        let limit = request
            .limit
            .map_or(i64::from(DEFAULT_LIMIT), |Integer(n)| n);
        if !(1..=i64::from(MAX_LIMIT)).contains(&limit) {
            return Err(invalid(
                "limit",
                format!("`limit` must be 1 to {MAX_LIMIT}"),
            ));
        }
        // Held until the report is made; a replay beyond the bound is refused, not queued.
        let _running = self.registry.limits.replay(&store.id, &store.code)?;
        let pool = self.registry.limits.replay_pool()?;
        let overrides = request.components.to_map();
        let mut candidates: HashMap<Step, Arc<LoadedComponent>> = HashMap::new();
        for (step, version) in &overrides {
            self.require_version(*step, version).await?;
            let loaded = self
                .registry
                .load(&self.db, &self.sandbox, *step, version)
                .await?;
            candidates.insert(*step, loaded);
        }

        let total =
            sql::count_recorded_traces(&self.db.read, &store.id, since, until, limit).await?;
        let total = u64::try_from(total).unwrap_or_default();
        let mut replayed = 0;
        progress(ReplayProgress { replayed, total });

        let mut acc = Accumulator::default();
        // The next page is read while this one runs: the read is I/O, the run is every core.
        let fetch = |cursor: Option<(i64, String)>, want: i64| {
            let (read, store_id) = (self.db.read.clone(), store.id.clone());
            tokio::spawn(async move {
                let cursor = cursor.as_ref().map(|(at, id)| (*at, id.as_str()));
                let page = sql::recorded_traces(&read, &store_id, since, until, cursor, want).await;
                (want, page)
            })
        };
        let mut remaining = limit;
        let mut next = Some(fetch(None, remaining.min(PAGE)));
        while let Some(reading) = next.take() {
            let (want, page) = reading
                .await
                .map_err(|e| DbError::Corrupt(format!("reading a replay page: {e}")))?;
            let page = page?;
            let Some(last) = page.last() else { break };
            remaining -= page.len() as i64;
            if page.len() as i64 == want && remaining > 0 {
                let cursor = (last.created_at, last.payment_intent_id.clone());
                next = Some(fetch(Some(cursor), remaining.min(PAGE)));
            }
            let traces = tokio::task::block_in_place(|| parse_all(pool, &page));
            let components = self.recorded_components(&traces, &candidates).await?;
            // A page is read at once, but run a slice at a time so progress moves with time
            // (a page of 4,000 takes seconds on a small machine), not by pages.
            for slice in traces.chunks(PROGRESS_EVERY) {
                let results =
                    tokio::task::block_in_place(|| self.run_all(pool, slice, &components));
                replayed += results.len() as u64;
                for r in results {
                    acc.add(r);
                }
                progress(ReplayProgress {
                    replayed,
                    total: total.max(replayed),
                });
            }
        }

        let step_names = Step::ALL
            .iter()
            .map(|s| {
                let v = overrides
                    .get(s)
                    .cloned()
                    .unwrap_or_else(|| "recorded".to_owned());
                (s.as_str().to_owned(), v)
            })
            .collect();
        Ok(acc.report(
            store.code,
            step_names,
            request.since,
            request.until,
            started,
        ))
    }

    /// Every recorded version the page needs, loaded once; a version that is gone is absent.
    async fn recorded_components(
        &self,
        traces: &[Option<(String, i64, DecisionTrace)>],
        candidates: &HashMap<Step, Arc<LoadedComponent>>,
    ) -> Result<HashMap<(Step, String), Arc<LoadedComponent>>, ComponentError> {
        let mut wanted: Vec<(Step, String)> = Vec::new();
        for (_, _, trace) in traces.iter().flatten() {
            for step in Step::ALL {
                if candidates.contains_key(&step) {
                    continue;
                }
                let key = (step, trace.version(step).to_owned());
                if !wanted.contains(&key) {
                    wanted.push(key);
                }
            }
        }
        let mut out = HashMap::new();
        for (step, version) in wanted {
            let loaded = if version == self.registry.bundled().get(step).sha256() {
                Ok(self.registry.bundled().get(step).clone())
            } else {
                self.registry
                    .load(&self.db, &self.sandbox, step, &version)
                    .await
            };
            match loaded {
                Ok(c) => {
                    out.insert((step, version), c);
                }
                Err(ComponentError::NotFound { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        for (step, c) in candidates {
            out.insert((*step, CANDIDATE.to_owned()), c.clone());
        }
        Ok(out)
    }

    fn run_all(
        &self,
        pool: &rayon::ThreadPool,
        traces: &[Option<(String, i64, DecisionTrace)>],
        components: &HashMap<(Step, String), Arc<LoadedComponent>>,
    ) -> Vec<Option<Replayed>> {
        parallel_map(pool, traces, |t| {
            let (id, created_at, trace) = t.as_ref()?;
            let pick = |step: Step| {
                components
                    .get(&(step, CANDIDATE.to_owned()))
                    .or_else(|| components.get(&(step, trace.version(step).to_owned())))
                    .cloned()
            };
            let set = Components {
                policy: pick(Step::Policy)?,
                provider: pick(Step::Provider)?,
                economics: pick(Step::Economics)?,
            };
            let result = chain::resolve(&self.sandbox, &set, &trace.chain_input());
            Some(Replayed {
                id: id.clone(),
                created_at: *created_at,
                before: trace.outcome(),
                fuel: result.as_ref().ok().map(DecisionTrace::fuel_used),
                after: chain::outcome_of(&result),
            })
        })
    }
}

/// The recorded traces of a page, parsed on the replay pool.
fn parse_all(
    pool: &rayon::ThreadPool,
    page: &[sql::RecordedTrace],
) -> Vec<Option<(String, i64, DecisionTrace)>> {
    parallel_map(pool, page, |r| {
        serde_json::from_str::<DecisionTrace>(&r.trace)
            .ok()
            .map(|t| (r.payment_intent_id.clone(), r.created_at, t))
    })
}

/// The key under which a step's candidate sits in the component map.
const CANDIDATE: &str = "candidate";

/// `f` over `items` on `pool` (half the cores, shared by every replay), in order; the caller
/// waits without taking a core.
fn parallel_map<T: Sync, R: Send>(
    pool: &rayon::ThreadPool,
    items: &[T],
    f: impl Fn(&T) -> R + Sync + Send,
) -> Vec<R> {
    use rayon::prelude::*;
    pool.install(|| items.par_iter().map(f).collect())
}

#[derive(Default)]
struct Accumulator {
    replayed: u64,
    unchanged: u64,
    changed: u64,
    errors: u64,
    unreadable: u64,
    changes_by_kind: BTreeMap<pixgate_report::Change, u64>,
    providers_before: BTreeMap<String, u64>,
    providers_after: BTreeMap<String, u64>,
    fee_delta: i64,
    net_delta: i64,
    errors_by_kind: BTreeMap<String, u64>,
    fuel: Vec<u64>,
    first_changed: Vec<ChangedCharge>,
}

impl Accumulator {
    fn add(&mut self, r: Option<Replayed>) {
        let Some(Replayed {
            id,
            created_at,
            before,
            after,
            fuel,
        }) = r
        else {
            self.unreadable += 1;
            return;
        };
        if self.changes_by_kind.is_empty() {
            self.changes_by_kind = zero_counts();
        }
        self.replayed += 1;
        *self
            .providers_before
            .entry(before.provider_key().to_owned())
            .or_default() += 1;
        *self
            .providers_after
            .entry(after.provider_key().to_owned())
            .or_default() += 1;
        if let Some((fee, net)) = before.money_delta(&after) {
            self.fee_delta += fee;
            self.net_delta += net;
        }
        if let Some(fuel) = fuel {
            self.fuel.push(fuel);
        }
        // A candidate that failed made no decision to compare: an error, not a change.
        if let Outcome::Failed { code, .. } = &after {
            self.errors += 1;
            *self.errors_by_kind.entry(code.clone()).or_default() += 1;
            return;
        }
        let kinds = changes(&before, &after);
        if kinds.is_empty() {
            self.unchanged += 1;
            return;
        }
        self.changed += 1;
        for k in &kinds {
            *self.changes_by_kind.entry(*k).or_default() += 1;
        }
        if self.first_changed.len() < FIRST_CHANGED {
            self.first_changed.push(ChangedCharge {
                payment_intent_id: id,
                created_at: iso8601(created_at),
                kinds,
                before,
                after,
            });
        }
    }

    fn report(
        mut self,
        store: String,
        components: BTreeMap<String, String>,
        since: Option<String>,
        until: Option<String>,
        started: Instant,
    ) -> ReplayReport {
        self.fuel.sort_unstable();
        let pct = |p: usize| -> u64 {
            if self.fuel.is_empty() {
                return 0;
            }
            let i = (self.fuel.len() * p).div_ceil(100).saturating_sub(1);
            self.fuel[i.min(self.fuel.len() - 1)]
        };
        let fuel = FuelSummary {
            p50: pct(50),
            p99: pct(99),
        };
        let elapsed = started.elapsed();
        if self.changes_by_kind.is_empty() {
            self.changes_by_kind = zero_counts();
        }
        // Every provider appears on both sides, so the distributions line up.
        for key in self.providers_before.keys() {
            self.providers_after.entry(key.clone()).or_insert(0);
        }
        for key in self.providers_after.keys() {
            self.providers_before.entry(key.clone()).or_insert(0);
        }
        ReplayReport {
            store,
            components,
            since,
            until,
            replayed: self.replayed,
            unchanged: self.unchanged,
            changed: self.changed,
            errors: self.errors,
            unreadable: self.unreadable,
            changes_by_kind: self.changes_by_kind,
            providers_before: self.providers_before,
            providers_after: self.providers_after,
            fee_delta_centavos: self.fee_delta,
            net_delta_centavos: self.net_delta,
            errors_by_kind: self.errors_by_kind,
            fuel,
            first_changed: self.first_changed,
            duration_ms: elapsed.as_millis() as u64,
            charges_per_second: if elapsed.as_secs_f64() > 0.0 {
                self.replayed as f64 / elapsed.as_secs_f64()
            } else {
                0.0
            },
        }
    }
}
