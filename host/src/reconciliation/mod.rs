//! The ledger sweep (DESIGN.md section 18): per provider and Brasília day, every page of what
//! the PSP lists as received (`GET /pix`) matched to pixgate's intents (by txid, then by
//! endToEndId) and each devolução to a refund, one finding per pix and devolução, then the
//! intents paid here that the PSP did not list. A run is `RUNNING` under a lease renewed page
//! by page, then `DONE`, or `FAILED` with its error: never half-recorded as clean.
//!
//! What the sweep finds pending here but paid at the PSP it settles as a read does (through
//! [`LiveExecution::settle`], event included), and the devoluções pixgate did not know it
//! records as section 11 says ([`LiveExecution::absorb_devolucoes`]).

mod daily;
mod sweep;

use std::sync::Arc;

use crate::access::Actor;
use crate::db::audit::{self, Action, Change};
use crate::db::reconciliations::{self as sql, Finding, Run};
use crate::db::{self, Db, DbError, providers};
use crate::internal::Internal;
use crate::psp::live::{LiveError, LiveExecution};
use pixgate_domain::due::Date;
use pixgate_domain::reconciliation::{FindingKind, ReconciliationStatus, ReconciliationTrigger};

#[derive(Debug, thiserror::Error)]
pub enum ReconcileError {
    #[error("provider `{0}` does not exist")]
    ProviderNotFound(String),
    #[error("the date {0} is after today (Brasília)")]
    FutureDate(Date),
    #[error("a run of provider `{provider}` for {day} is running: {run}")]
    Running {
        provider: String,
        day: String,
        run: String,
    },
    #[error("reconciliation not found")]
    NotFound,
    /// The PSP did not answer a page: the run ends `FAILED` with this.
    #[error("the PSP failed: {0}")]
    Psp(String),
    /// The run's lease passed and another instance ended it.
    #[error("the run was ended by another instance (its lease passed)")]
    Abandoned,
    /// Details go to the log, never to the client.
    #[error(transparent)]
    Internal(#[from] Internal),
}

impl From<sqlx::Error> for ReconcileError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl From<DbError> for ReconcileError {
    fn from(e: DbError) -> Self {
        Self::Internal(e.into())
    }
}

impl From<LiveError> for ReconcileError {
    fn from(e: LiveError) -> Self {
        Self::Internal(Internal::of(e))
    }
}

/// `pixgate serve` options for the ledger sweep (`PIXGATE_RECONCILE_*`).
#[derive(Debug, Clone, clap::Args)]
pub struct ReconcileArgs {
    /// Pix per page of the PSP's list (`GET /pix`'s `paginacao.itensPorPagina`): 1 to 1,000,
    /// the standard's maximum.
    #[arg(long, env = "PIXGATE_RECONCILE_PAGE_SIZE", default_value_t = sweep::MAX_PAGE,
          value_parser = clap::value_parser!(u64).range(1..=sweep::MAX_PAGE))]
    pub reconcile_page_size: u64,
    /// When the schedule sweeps each active provider's day before, `HH:MM` in Brasília (an
    /// instance started later that day catches up at once); `off`: never (runs on demand
    /// only).
    #[arg(long, env = "PIXGATE_RECONCILE_DAILY_AT", default_value = "03:00",
          value_parser = daily::parse_daily_at)]
    pub reconcile_daily_at: daily::DailyAt,
}

/// What the sweep uses.
pub struct ReconcileDeps {
    pub db: Db,
    pub live: LiveExecution,
    pub metrics: Arc<crate::metrics::Metrics>,
    /// Pix per page of `GET /pix` (`PIXGATE_RECONCILE_PAGE_SIZE`, 1 to 1,000).
    pub page_size: u64,
    /// When the daily sweep runs: minutes after midnight, Brasília; none: never.
    pub daily_at: Option<u32>,
}

/// The reconciliation service. Built once by the composition root; cheap to clone.
#[derive(Clone)]
pub struct Reconciliations {
    deps: Arc<ReconcileDeps>,
}

impl std::fmt::Debug for Reconciliations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reconciliations").finish_non_exhaustive()
    }
}

/// A run as the admin API shows it: its row and its findings counted by kind.
#[derive(Debug, Clone)]
pub struct RunView {
    pub run: Run,
    pub counts: Vec<(FindingKind, i64)>,
}

impl Reconciliations {
    pub fn new(deps: ReconcileDeps) -> Self {
        Self {
            deps: Arc::new(deps),
        }
    }

    /// Starts an operator's run of `provider` for `day` (today meaning the day so far),
    /// recorded in the audit trail, and sweeps it in the background; answers the run as it
    /// started.
    pub async fn request(
        &self,
        provider: &str,
        day: Date,
        operator: &Actor,
    ) -> Result<Run, ReconcileError> {
        if providers::by_code(&self.deps.db.read, provider)
            .await?
            .is_none()
        {
            return Err(ReconcileError::ProviderNotFound(provider.to_owned()));
        }
        if day > db::today_brasilia() {
            return Err(ReconcileError::FutureDate(day));
        }
        let run = self
            .start(
                provider,
                day,
                ReconciliationTrigger::Operator,
                Some(operator),
            )
            .await?;
        match run {
            Ok(run) => {
                let this = self.clone();
                let started = run.clone();
                tokio::spawn(async move { this.sweep(started).await });
                Ok(run)
            }
            Err(running) => Err(ReconcileError::Running {
                provider: provider.to_owned(),
                day: day.to_string(),
                run: running,
            }),
        }
    }

    /// Writes a new `RUNNING` run, after ending the runs whose instance stopped; `Err` with
    /// the running run's id (or `daily` for the schedule's run taken) when one is in the way.
    async fn start(
        &self,
        provider: &str,
        day: Date,
        trigger: ReconciliationTrigger,
        requested_by: Option<&Actor>,
    ) -> Result<Result<Run, String>, ReconcileError> {
        let now = db::now_ms();
        sql::fail_abandoned(&self.deps.db.write, now).await?;
        let run = Run {
            id: uuid::Uuid::now_v7().to_string(),
            provider_code: provider.to_owned(),
            day: day.to_string(),
            status: ReconciliationStatus::Running,
            trigger,
            requested_by: requested_by.map(|a| a.name.clone()),
            pages: 0,
            pix: 0,
            lease_until: now + self.lease_ms(),
            error: None,
            started_at: now,
            finished_at: None,
        };
        let mut tx = self.deps.db.write.begin().await?;
        if sql::start(&mut *tx, &run).await? {
            if let Some(actor) = requested_by {
                let change = Change::new(
                    Action::ReconciliationRequest,
                    format!("reconciliation/{}", run.id),
                )
                .after(&serde_json::json!({
                    "reconciliationId": run.id,
                    "provider": run.provider_code,
                    "date": run.day,
                }));
                audit::append(&mut *tx, actor, &change).await?;
            }
            tx.commit().await?;
            return Ok(Ok(run));
        }
        tx.rollback().await?;
        let running = sql::page(&self.deps.db.read, Some(provider), None, 50)
            .await?
            .into_iter()
            .find(|r| r.day == run.day && r.status == ReconciliationStatus::Running)
            .map_or_else(|| "daily".to_owned(), |r| r.id);
        Ok(Err(running))
    }

    /// How long a run is held between two pages: the PSP lease's, at least a minute.
    fn lease_ms(&self) -> i64 {
        (self.deps.live.lease().as_millis() as i64).max(60_000)
    }

    /// One run with its counts.
    pub async fn get(&self, id: &str) -> Result<RunView, ReconcileError> {
        let run = sql::get(&self.deps.db.read, id)
            .await?
            .ok_or(ReconcileError::NotFound)?;
        let counts = sql::counts(&self.deps.db.read, id).await?;
        Ok(RunView { run, counts })
    }

    /// Runs newest first, a page at a time.
    pub async fn list(
        &self,
        provider: Option<&str>,
        after: Option<&str>,
        limit: i64,
    ) -> Result<Vec<RunView>, ReconcileError> {
        let cursor = match after {
            Some(id) => {
                let run = sql::get(&self.deps.db.read, id)
                    .await?
                    .ok_or(ReconcileError::NotFound)?;
                Some((run.started_at, run.id))
            }
            None => None,
        };
        let runs = sql::page(
            &self.deps.db.read,
            provider,
            cursor.as_ref().map(|(at, id)| (*at, id.as_str())),
            limit,
        )
        .await?;
        let mut views = Vec::with_capacity(runs.len());
        for run in runs {
            let counts = sql::counts(&self.deps.db.read, &run.id).await?;
            views.push(RunView { run, counts });
        }
        Ok(views)
    }

    /// A run's provider and its findings of `kind` (every kind but `matched` when none), a
    /// page at a time.
    pub async fn findings(
        &self,
        id: &str,
        kind: Option<FindingKind>,
        after: Option<&str>,
        limit: i64,
    ) -> Result<(String, Vec<Finding>), ReconcileError> {
        let run = sql::get(&self.deps.db.read, id)
            .await?
            .ok_or(ReconcileError::NotFound)?;
        let page = sql::findings(&self.deps.db.read, id, kind, after, limit).await?;
        Ok((run.provider_code, page))
    }

    /// Every finding of `kind` (every kind but `matched` when none) as CSV, in the order they
    /// were made: a header line of the JSON field names, amounts as decimals.
    pub async fn findings_csv(
        &self,
        id: &str,
        kind: Option<FindingKind>,
    ) -> Result<String, ReconcileError> {
        const PAGE: i64 = 1_000;
        let run = sql::get(&self.deps.db.read, id)
            .await?
            .ok_or(ReconcileError::NotFound)?;
        let mut all = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let page = sql::findings(&self.deps.db.read, id, kind, after.as_deref(), PAGE).await?;
            let last = (page.len() as i64) < PAGE;
            after = page.last().map(|f| f.id.clone());
            all.extend(page);
            if last {
                break;
            }
        }
        Ok(findings_csv(&run.provider_code, &all)?)
    }
}

/// A finding as a CSV line: the JSON's field names and order.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct CsvFinding {
    finding_id: String,
    kind: &'static str,
    provider: String,
    end_to_end_id: String,
    txid: String,
    amount: String,
    local_amount: String,
    payment_intent_id: String,
    refund_id: String,
    detail: String,
    created_at: String,
}

const FINDING_HEADER: [&str; 11] = [
    "findingId",
    "kind",
    "provider",
    "endToEndId",
    "txid",
    "amount",
    "localAmount",
    "paymentIntentId",
    "refundId",
    "detail",
    "createdAt",
];

fn findings_csv(provider: &str, findings: &[Finding]) -> Result<String, Internal> {
    use crate::export::{decimal, text};
    let optional = |v: &Option<String>| v.as_deref().map(text).unwrap_or_default();
    crate::export::csv(
        &FINDING_HEADER,
        findings.iter().map(|f| CsvFinding {
            finding_id: f.id.clone(),
            kind: f.kind.as_str(),
            provider: text(provider),
            end_to_end_id: optional(&f.end_to_end_id),
            txid: optional(&f.txid),
            amount: f.amount_centavos.map(decimal).unwrap_or_default(),
            local_amount: f.local_amount_centavos.map(decimal).unwrap_or_default(),
            payment_intent_id: optional(&f.payment_intent_id),
            refund_id: optional(&f.refund_id),
            detail: text(&f.detail),
            created_at: pixgate_pix::time::iso8601(f.created_at),
        }),
    )
}

#[cfg(test)]
mod csv_tests {
    use super::*;

    #[test]
    fn a_finding_is_a_line_with_its_blanks_and_exact_amounts() {
        let finding = Finding {
            id: "0196f1d2-0000-7000-8000-000000000001".into(),
            reconciliation_id: "r".into(),
            kind: FindingKind::AmountMismatch,
            end_to_end_id: Some("E12345678202611270300abcdefghijk".into()),
            txid: None,
            amount_centavos: Some(1_001),
            local_amount_centavos: Some(1_000),
            payment_intent_id: None,
            refund_id: None,
            detail: "paid 10.01, charged 10.00".into(),
            created_at: 0,
        };
        assert_eq!(
            findings_csv("psp-a", &[finding]).unwrap(),
            "findingId,kind,provider,endToEndId,txid,amount,localAmount,paymentIntentId,refundId,detail,createdAt\n\
             0196f1d2-0000-7000-8000-000000000001,amount_mismatch,psp-a,E12345678202611270300abcdefghijk,,10.01,10.00,,,\"paid 10.01, charged 10.00\",1970-01-01T00:00:00.000Z\n"
        );
    }
}
