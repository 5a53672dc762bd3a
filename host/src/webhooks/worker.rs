//! The sender inside `pixgate serve`. It claims due deliveries (one attempt each, under a
//! lease), sends them with bounded concurrency, and records the outcomes in batches: one
//! transaction per batch keeps SQLite's single writer from becoming the limit.
//!
//! Delivery is at least once: a sender that dies after sending but before recording leaves
//! the claim to expire, and the attempt is sent again. Receivers deduplicate on the id.

use std::sync::Arc;
use std::time::Duration;

use sqlx::AnyConnection;
use tokio::sync::{mpsc, watch};

use super::Webhooks;
use super::deliver::{self, AttemptOutcome, Outgoing};
use super::{EventType, Settings};
use crate::crypto::MasterKey;
use crate::db::webhooks::{self as sql, DeliveryStatus, EndpointStatus};
use crate::db::{self, Db};
use crate::metrics::Metrics;

/// Deliveries claimed in one statement, at most.
const CLAIM_BATCH: usize = 256;
/// How long a claim this instance could not send waits before it is due again.
const RELEASE_DELAY_MS: i64 = 30_000;

/// How often the outbox's backlog is read into the metrics: a fraction of a scrape interval
/// (15 s by default), one indexed count per instance.
const BACKLOG_INTERVAL: Duration = Duration::from_secs(5);

/// A finished attempt, waiting to be recorded.
#[derive(Debug)]
pub struct Finished {
    pub claim: sql::Claimed,
    pub outcome: AttemptOutcome,
}

/// The webhook sender's handle: it delivers what the outbox committed, and the test
/// deliveries an endpoint's owner asks for. Built once by the composition root.
#[derive(Clone)]
pub struct Delivery {
    db: Db,
    /// Opens the endpoints' sealed signing secrets.
    master_key: MasterKey,
    /// Settings, the egress-safe client, the wake-up signal and the attempt permits.
    webhooks: Arc<Webhooks>,
    metrics: Arc<Metrics>,
}

impl std::fmt::Debug for Delivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Delivery").finish_non_exhaustive()
    }
}

impl Delivery {
    pub fn new(
        db: Db,
        master_key: MasterKey,
        webhooks: Arc<Webhooks>,
        metrics: Arc<Metrics>,
    ) -> Self {
        Self {
            db,
            master_key,
            webhooks,
            metrics,
        }
    }

    /// Runs the sender until `shutdown` turns true; in-flight attempts are then given the
    /// timeout to finish and their outcomes are recorded.
    pub async fn run(&self, mut shutdown: watch::Receiver<bool>) {
        let settings = self.webhooks.settings.clone();
        let permits = self.webhooks.permits.clone();
        let (tx, rx) = mpsc::channel::<Finished>(settings.concurrency * 2);
        // SQLite has one writer, so one recorder; PostgreSQL takes batches in parallel.
        let recorders = match self.db.backend {
            db::Backend::Sqlite => 1,
            db::Backend::Postgres => 4,
        };
        let rx = Arc::new(tokio::sync::Mutex::new(rx));
        let recorders: Vec<_> = (0..recorders)
            .map(|_| {
                let (this, rx) = (self.clone(), rx.clone());
                tokio::spawn(async move { this.record_loop(rx).await })
            })
            .collect();
        tracing::info!(concurrency = settings.concurrency, "webhook sender started");
        let gauges = {
            let (this, shutdown) = (self.clone(), shutdown.clone());
            tokio::spawn(async move { this.backlog_loop(shutdown).await })
        };
        loop {
            if *shutdown.borrow() {
                break;
            }
            let free = permits.available_permits().min(CLAIM_BATCH);
            if free == 0 {
                tokio::select! {
                    permit = permits.clone().acquire_owned() => drop(permit),
                    _ = shutdown.changed() => {}
                }
                continue;
            }
            let now = db::now_ms();
            let token = uuid::Uuid::new_v4().to_string();
            let lease_until = now + settings.lease().as_millis() as i64;
            let claimed = match sql::claim_due(
                &self.db.write,
                self.db.backend,
                now,
                lease_until,
                &token,
                free as i64,
            )
            .await
            {
                Ok(claimed) => claimed,
                Err(e) => {
                    tracing::warn!(error = %e, "claiming webhook deliveries failed");
                    Vec::new()
                }
            };
            let drained = claimed.len() < free;
            for claim in claimed {
                let Ok(permit) = permits.clone().acquire_owned().await else {
                    break;
                };
                let this = self.clone();
                let tx = tx.clone();
                tokio::spawn(async move {
                    if let Some(outcome) = this.send_claimed(&claim).await {
                        let _ = tx.send(Finished { claim, outcome }).await;
                    }
                    drop(permit);
                });
            }
            if drained {
                tokio::select! {
                    _ = self.webhooks.woken() => {}
                    _ = tokio::time::sleep(settings.poll_interval) => {}
                    _ = shutdown.changed() => {}
                }
            }
        }
        // Let in-flight attempts finish (each is bounded by the timeout), then flush.
        let all = settings.concurrency as u32;
        let _ = tokio::time::timeout(settings.lease(), permits.acquire_many(all)).await;
        drop(tx);
        for recorder in recorders {
            let _ = recorder.await;
        }
        let _ = gauges.await;
        tracing::info!("webhook sender stopped");
    }

    /// Reads the outbox's backlog into the metrics now and every [`BACKLOG_INTERVAL`].
    async fn backlog_loop(&self, mut shutdown: watch::Receiver<bool>) {
        while !*shutdown.borrow() {
            let now = db::now_ms();
            match sql::backlog(&self.db.read, now).await {
                Ok((pending, due)) => self.metrics.webhook_backlog(
                    pending,
                    due.map_or(0.0, |at| (now - at).max(0) as f64 / 1000.0),
                ),
                Err(e) => tracing::warn!(error = %e, "reading the webhook backlog failed"),
            }
            tokio::select! {
                _ = tokio::time::sleep(BACKLOG_INTERVAL) => {}
                _ = shutdown.changed() => {}
            }
        }
    }

    /// Sends one claimed attempt, or cancels it if its endpoint is no longer ACTIVE.
    #[tracing::instrument(skip_all, fields(delivery = %claim.id, endpoint = %claim.endpoint_id))]
    async fn send_claimed(&self, claim: &sql::Claimed) -> Option<AttemptOutcome> {
        // This instance cannot send it: hand the claim back uncounted, for a retry here or on
        // an instance that can.
        let release = |why: &str| {
            tracing::error!(delivery = %claim.id, "{why}");
            sql::release_claim(
                &self.db.write,
                &claim.id,
                &claim.claim_token,
                db::now_ms() + RELEASE_DELAY_MS,
            )
        };
        let endpoint = match sql::endpoint(&self.db.read, &claim.endpoint_id).await {
            Ok(Some(endpoint)) => endpoint,
            Ok(None) => return None,
            Err(e) => {
                let _ = release(&format!("reading a webhook endpoint failed: {e}")).await;
                return None;
            }
        };
        if endpoint.status != EndpointStatus::Active {
            let reason = format!("endpoint_{}", endpoint.status.as_str().to_lowercase());
            if let Err(e) = sql::cancel_claimed(
                &self.db.write,
                &claim.id,
                &claim.claim_token,
                &reason,
                db::now_ms(),
            )
            .await
            {
                tracing::warn!(error = %e, "canceling a webhook delivery failed");
            }
            return None;
        }
        let secret = match self.master_key.open(&endpoint.secret_sealed) {
            Ok(secret) => String::from_utf8_lossy(&secret).into_owned(),
            Err(_) => {
                let _ = release(
                    "a webhook signing secret does not open with this instance's master key \
                 (every instance on one database needs the same PIXGATE_MASTER_KEY)",
                )
                .await;
                return None;
            }
        };
        let outcome = deliver::attempt(
            &self.webhooks.egress,
            Outgoing {
                url: &endpoint.url,
                secret: &secret,
                delivery_id: &claim.id,
                event_type: claim.event_type,
                body: &claim.body,
            },
        )
        .await;
        Some(outcome)
    }

    /// Sends a `webhook.test` delivery to `endpoint` now and records it like any attempt.
    #[tracing::instrument(skip_all, fields(endpoint = %endpoint.id, merchant = %endpoint.merchant_id))]
    pub async fn deliver_test(
        &self,
        endpoint: &sql::Endpoint,
    ) -> Result<(String, AttemptOutcome), TestError> {
        let secret = self.master_key.open(&endpoint.secret_sealed)?;
        let secret = String::from_utf8_lossy(&secret).into_owned();
        let now = db::now_ms();
        let id = uuid::Uuid::new_v4().to_string();
        let body = serde_json::json!({
            "id": id,
            "type": EventType::WebhookTest.as_str(),
            "createdAt": pixgate_pix::time::iso8601(now),
            "data": {"endpointId": endpoint.id, "test": true},
        })
        .to_string();
        let token = uuid::Uuid::new_v4().to_string();
        // A slot of PIXGATE_WEBHOOK_CONCURRENCY first, shared with the sender: test requests in
        // parallel must not multiply the traffic toward a target. Taken before the claim is
        // written, so that waiting for it does not eat into the lease.
        let permit = self
            .webhooks
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| TestError::Task(e.to_string()))?;
        // The wait may have been long: a revoke that committed meanwhile wins.
        if sql::endpoint(&self.db.read, &endpoint.id)
            .await?
            .is_none_or(|e| e.status == EndpointStatus::Revoked)
        {
            return Err(TestError::Revoked);
        }
        // Inserted already claimed, so no sender takes it while this request sends it.
        sql::insert_delivery(
            &self.db.write,
            &sql::Delivery {
                id: id.clone(),
                endpoint_id: endpoint.id.clone(),
                event_id: None,
                refund_event_id: None,
                mandate_event_id: None,
                event_type: EventType::WebhookTest,
                body: body.clone(),
                status: DeliveryStatus::Pending,
                attempts: 1,
                next_attempt_at: Some(now + self.webhooks.settings.lease().as_millis() as i64),
                claim_token: Some(token.clone()),
                last_attempt_at: None,
                last_http_status: None,
                last_error: None,
                created_at: now,
                updated_at: now,
                completed_at: None,
            },
        )
        .await?;
        // Sent and recorded in a task of its own: a client that hangs up does not leave the
        // claimed delivery to be sent again when its lease runs out.
        let task = {
            let this = self.clone();
            let url = endpoint.url.clone();
            let endpoint_id = endpoint.id.clone();
            let id = id.clone();
            tokio::spawn(async move {
                let outcome = deliver::attempt(
                    &this.webhooks.egress,
                    Outgoing {
                        url: &url,
                        secret: &secret,
                        delivery_id: &id,
                        event_type: EventType::WebhookTest,
                        body: &body,
                    },
                )
                .await;
                let finished = Finished {
                    claim: sql::Claimed {
                        id,
                        endpoint_id,
                        event_type: EventType::WebhookTest,
                        body,
                        attempts: 1,
                        claim_token: token,
                    },
                    outcome,
                };
                drop(permit);
                this.record(std::slice::from_ref(&finished))
                    .await
                    .map(|()| finished.outcome)
            })
        };
        let outcome = task.await.map_err(|e| TestError::Task(e.to_string()))??;
        Ok((id, outcome))
    }

    async fn record_loop(&self, rx: Arc<tokio::sync::Mutex<mpsc::Receiver<Finished>>>) {
        let mut batch = Vec::with_capacity(CLAIM_BATCH);
        loop {
            // Hold the receiver only while taking a batch, so the others can take the next.
            let taken = rx.lock().await.recv_many(&mut batch, CLAIM_BATCH).await;
            if taken == 0 {
                break;
            }
            if let Err(e) = self.record(&batch).await {
                // The claims expire and the attempts are sent again.
                tracing::error!(error = %e, count = batch.len(), "recording webhook attempts failed");
            }
            batch.clear();
        }
    }

    /// Records finished attempts in one transaction: the attempt, the delivery's next state and
    /// the endpoint's health (which may disable it, cancelling what it still had pending).
    async fn record(&self, batch: &[Finished]) -> Result<(), sqlx::Error> {
        // Endpoint rows are locked in one order by every writer, so two instances recording
        // batches for the same endpoints cannot deadlock.
        let mut ordered: Vec<&Finished> = batch.iter().collect();
        ordered.sort_by(|a, b| a.claim.endpoint_id.cmp(&b.claim.endpoint_id));
        let mut tries = 0;
        loop {
            tries += 1;
            match self.record_ordered(&ordered).await {
                Err(e) if tries < 3 => {
                    tracing::warn!(error = %e, "recording webhook attempts failed; retrying");
                    tokio::time::sleep(Duration::from_millis(50 * tries)).await;
                }
                done => return done,
            }
        }
    }

    async fn record_ordered(&self, batch: &[&Finished]) -> Result<(), sqlx::Error> {
        let settings = &self.webhooks.settings;
        let mut tx = self.db.write.begin().await?;
        if self.db.backend == db::Backend::Postgres {
            // Endpoints before deliveries, as a revoke or an enable takes them: a recorder that
            // locked a delivery first and then waited for its endpoint could deadlock with a
            // revoke holding the endpoint and canceling that delivery. (SQLite has one writer.)
            let mut last = None;
            for item in batch {
                let id = item.claim.endpoint_id.as_str();
                if last != Some(id) {
                    sql::lock_endpoint(&mut *tx, id).await?;
                    last = Some(id);
                }
            }
        }
        let now = db::now_ms();
        // The batch is sorted by endpoint (stably, so each endpoint's attempts keep their order).
        let mut health: Vec<(&str, Vec<Observation<'_>>)> = Vec::new();
        for item in batch {
            if let Some(observation) = record_one(&mut tx, settings, item, now).await? {
                let endpoint = item.claim.endpoint_id.as_str();
                match health.last_mut() {
                    Some((id, list)) if *id == endpoint => list.push(observation),
                    _ => health.push((endpoint, vec![observation])),
                }
            }
        }
        for (endpoint, observations) in &health {
            record_health(&mut tx, settings, endpoint, observations, now).await?;
        }
        tx.commit().await?;
        for item in batch {
            self.metrics.observe_webhook_attempt(
                item.outcome.succeeded(),
                item.outcome.duration_ms as f64 / 1e3,
            );
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TestError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Crypto(#[from] crate::crypto::CryptoError),
    #[error("test delivery task: {0}")]
    Task(String),
    #[error("the endpoint was revoked")]
    Revoked,
}

/// One attempt's bearing on its endpoint's health.
struct Observation<'a> {
    succeeded: bool,
    at: i64,
    delivery_id: &'a str,
}

/// Records the attempt and the delivery's next state; returns what it says about the
/// endpoint's health when that is this attempt's to say.
async fn record_one<'a>(
    conn: &mut AnyConnection,
    settings: &Settings,
    item: &'a Finished,
    now: i64,
) -> Result<Option<Observation<'a>>, sqlx::Error> {
    let Finished { claim, outcome } = item;
    let http_status = outcome.http_status.map(i64::from);
    sql::insert_attempt(
        &mut *conn,
        &sql::Attempt {
            delivery_id: claim.id.clone(),
            attempt: claim.attempts,
            attempted_at: outcome.attempted_at,
            http_status,
            duration_ms: outcome.duration_ms,
            error: outcome.error.clone(),
        },
    )
    .await?;
    let (status, next_attempt_at) = next_step(settings, claim, outcome, now);
    let claim_held = sql::finish_attempt(
        &mut *conn,
        &claim.id,
        &claim.claim_token,
        status,
        next_attempt_at,
        outcome.attempted_at,
        http_status,
        outcome.error.as_deref(),
        now,
    )
    .await?;
    if !claim_held {
        // The lease ran out (and the delivery may be out again) or it was canceled or resent
        // meanwhile: the attempt is kept as a fact, but only a success still changes the
        // delivery, and the endpoint's health is left to the attempt that holds the claim.
        if outcome.succeeded() {
            sql::mark_delivered_if_pending(
                &mut *conn,
                &claim.id,
                outcome.attempted_at,
                http_status,
                now,
            )
            .await?;
        }
        return Ok(None);
    }
    if claim.event_type == EventType::WebhookTest {
        // A test says how the endpoint answers now; it does not count toward disabling it.
        sql::set_last_delivery(&mut *conn, &claim.endpoint_id, &claim.id).await?;
        return Ok(None);
    }
    Ok(Some(Observation {
        succeeded: outcome.succeeded(),
        at: outcome.attempted_at,
        delivery_id: &claim.id,
    }))
}

/// Applies a batch's observations of one endpoint, in order, with one update: the failures
/// after the last success are what count; then the disable check.
async fn record_health(
    conn: &mut AnyConnection,
    settings: &Settings,
    endpoint_id: &str,
    observations: &[Observation<'_>],
    now: i64,
) -> Result<(), sqlx::Error> {
    let Some(last) = observations.last() else {
        return Ok(());
    };
    let last_success = observations.iter().rposition(|o| o.succeeded);
    let failures = &observations[last_success.map_or(0, |i| i + 1)..];
    let first_failure = failures.first().map(|o| o.at);
    let last_failure = failures.last().map(|o| o.at);
    match (last_success, first_failure, last_failure) {
        (Some(_), _, _) => {
            sql::restart_endpoint_health(
                &mut *conn,
                endpoint_id,
                failures.len() as i64,
                first_failure,
                last_failure,
                last.delivery_id,
                now,
            )
            .await?
        }
        (None, Some(first), Some(latest)) => {
            sql::add_endpoint_failures(
                &mut *conn,
                endpoint_id,
                failures.len() as i64,
                first,
                latest,
                first - settings.failure_run_gap().as_millis() as i64,
                last.delivery_id,
                now,
            )
            .await?
        }
        _ => {}
    }
    if !failures.is_empty() {
        let failing_before = now - settings.disable_after.as_millis() as i64;
        if sql::disable_if_failing_since(&mut *conn, endpoint_id, failing_before, now).await? {
            let canceled =
                sql::cancel_pending(&mut *conn, endpoint_id, "endpoint_disabled", now).await?;
            tracing::warn!(endpoint = %endpoint_id, canceled, "webhook endpoint disabled after failing continuously");
        }
    }
    Ok(())
}

/// The delivery's state after an attempt: delivered, retried after the next wait of the
/// schedule (with jitter), or finished without success.
fn next_step(
    settings: &Settings,
    claim: &sql::Claimed,
    outcome: &AttemptOutcome,
    now: i64,
) -> (DeliveryStatus, Option<i64>) {
    if outcome.succeeded() {
        return (DeliveryStatus::Delivered, None);
    }
    if claim.event_type == EventType::WebhookTest {
        return (DeliveryStatus::Failed, None);
    }
    let index = usize::try_from(claim.attempts - 1).unwrap_or(usize::MAX);
    match settings.retry_schedule.get(index) {
        Some(wait) => (
            DeliveryStatus::Pending,
            Some(now + jittered(*wait, settings.jitter_percent).as_millis() as i64),
        ),
        None => (DeliveryStatus::Exhausted, None),
    }
}

fn jittered(wait: Duration, percent: u8) -> Duration {
    let r = crate::crypto::random_bytes::<4>()
        .map(u32::from_le_bytes)
        .unwrap_or(u32::MAX / 2);
    let unit = f64::from(r) / f64::from(u32::MAX) * 2.0 - 1.0; // -1 ..= 1
    wait.mul_f64(1.0 + unit * f64::from(percent) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            retry_schedule: super::super::parse_schedule("5s,5m").unwrap(),
            jitter_percent: 20,
            timeout: Duration::from_secs(15),
            disable_after: Duration::from_secs(5 * 86_400),
            concurrency: 4,
            poll_interval: Duration::from_secs(1),
            worker: true,
            max_endpoints: 16,
        }
    }

    fn claim(event_type: EventType, attempts: i64) -> sql::Claimed {
        sql::Claimed {
            id: "d".into(),
            endpoint_id: "e".into(),
            event_type,
            body: "{}".into(),
            attempts,
            claim_token: "t".into(),
        }
    }

    fn outcome(error: Option<&str>) -> AttemptOutcome {
        AttemptOutcome {
            attempted_at: 0,
            duration_ms: 1,
            http_status: Some(500),
            error: error.map(str::to_owned),
        }
    }

    #[test]
    fn failures_follow_the_schedule_then_exhaust() {
        let s = settings();
        let failed = outcome(Some("http_status: HTTP 500"));
        let (status, next) = next_step(
            &s,
            &claim(EventType::PaymentSucceeded, 1),
            &failed,
            1_000_000,
        );
        assert_eq!(status, DeliveryStatus::Pending);
        let wait = next.unwrap() - 1_000_000;
        assert!((4_000..=6_000).contains(&wait), "{wait}");
        let (status, next) = next_step(&s, &claim(EventType::PaymentSucceeded, 2), &failed, 0);
        assert_eq!(status, DeliveryStatus::Pending);
        assert!((240_000..=360_000).contains(&next.unwrap()));
        assert_eq!(
            next_step(&s, &claim(EventType::PaymentSucceeded, 3), &failed, 0),
            (DeliveryStatus::Exhausted, None)
        );
        assert_eq!(
            next_step(
                &s,
                &claim(EventType::PaymentSucceeded, 3),
                &outcome(None),
                0
            ),
            (DeliveryStatus::Delivered, None)
        );
        assert_eq!(
            next_step(&s, &claim(EventType::WebhookTest, 1), &failed, 0),
            (DeliveryStatus::Failed, None)
        );
    }

    #[test]
    fn jitter_stays_within_its_percentage_and_varies() {
        let waits: Vec<Duration> = (0..200)
            .map(|_| jittered(Duration::from_secs(100), 20))
            .collect();
        assert!(
            waits
                .iter()
                .all(|w| (80.0..=120.0).contains(&w.as_secs_f64()))
        );
        assert!(waits.iter().any(|w| *w < Duration::from_secs(95)));
        assert!(waits.iter().any(|w| *w > Duration::from_secs(105)));
        assert_eq!(jittered(Duration::from_secs(7), 0), Duration::from_secs(7));
    }
}
