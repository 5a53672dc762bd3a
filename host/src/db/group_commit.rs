//! Group commit: the charges that arrive together are written in one transaction, so they
//! share one fsync (SQLite's `synchronous = FULL`, PostgreSQL's flush at commit), and each
//! caller is answered only after the commit that holds its rows.
//!
//! A collector task waits for a free transaction slot, then takes what the queue holds: at
//! most `max_batch` charges, waiting up to `max_wait` for more when it holds fewer. Most of
//! the batching is natural: while one batch waits on its fsync the next one gathers, so an
//! idle server commits a lone charge at once and a busy one commits hundreds together.
//!
//! A batch is three multi-row statements (idempotency claims, intents, traces), sorted by
//! key so that concurrent batches, here or on another instance, take row locks in one order.
//! If any of them fails, the batch is rolled back and written again with a savepoint per
//! charge, so a bad row fails only its own caller. Two charges of one key in a batch: the
//! first is written, the second is told the key is taken and replays the first after the
//! commit, exactly as it would across two transactions.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use prometheus_client::metrics::histogram::Histogram;
use sqlx::{Acquire, AnyPool};
use tokio::sync::{Semaphore, mpsc, oneshot};
use tracing::Instrument as _;

use super::idempotency::{self, NewRecord};
use super::intents::{self, Intent};
use super::{Db, Params};

/// What a new SHADOW charge writes: its idempotency record (holding the response to replay,
/// and naming `intent.id` as its intent: that is how a batch learns which claims it won),
/// its intent and its decision trace.
#[derive(Debug)]
pub struct ChargeWrite {
    pub record: NewRecord,
    pub intent: Intent,
    pub trace: String,
}

/// A committed write's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The charge's rows are committed.
    Committed,
    /// A live record for the key exists (another request's, committed first): nothing of
    /// this charge was written.
    KeyTaken,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum CommitError {
    #[error("database: {0}")]
    Database(Arc<sqlx::Error>),
    /// The writer task is gone (the server is shutting down).
    #[error("the group commit writer stopped")]
    Stopped,
}

impl From<sqlx::Error> for CommitError {
    fn from(e: sqlx::Error) -> Self {
        Self::Database(Arc::new(e))
    }
}

/// How batches form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The most charges in one transaction.
    pub max_batch: usize,
    /// How long a batch that is not full waits for more charges before it commits. Zero:
    /// it commits what has arrived (the natural batching above).
    pub max_wait: Duration,
    /// Transactions in flight at once: 1 on SQLite (one writer); on PostgreSQL more overlap
    /// round trips to a remote database.
    pub in_flight: usize,
}

/// Batch sizes and commit times, registered with the server's metrics.
#[derive(Clone)]
pub struct CommitMetrics {
    pub batch_size: Histogram,
    pub seconds: Histogram,
}

impl std::fmt::Debug for CommitMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CommitMetrics")
    }
}

struct Job {
    write: ChargeWrite,
    reply: oneshot::Sender<Result<Outcome, CommitError>>,
}

/// The handle charges are written through. Cloning shares the writer.
#[derive(Debug, Clone)]
pub struct GroupCommit {
    jobs: mpsc::Sender<Job>,
    backend: super::Backend,
}

impl GroupCommit {
    /// Starts the collector on the current runtime; it stops when every handle is dropped.
    pub fn spawn(db: &Db, settings: Settings, metrics: CommitMetrics) -> Self {
        let max_batch = settings.max_batch.max(1);
        // Bounded: under overload callers wait here instead of growing memory.
        let (jobs, rx) = mpsc::channel(max_batch * settings.in_flight.max(1) * 4);
        let writer = Writer {
            pool: db.write.clone(),
            params: db.backend.params(),
        };
        tokio::spawn(collect(rx, writer, settings, metrics));
        Self {
            jobs,
            backend: db.backend,
        }
    }

    /// Writes the charge and returns once its transaction has committed. Its span is the
    /// caller's wait for the transaction, which it shares with its batch-mates.
    pub async fn charge(&self, write: ChargeWrite) -> Result<Outcome, CommitError> {
        let (reply, answer) = oneshot::channel();
        async {
            self.jobs
                .send(Job { write, reply })
                .await
                .map_err(|_| CommitError::Stopped)?;
            answer.await.map_err(|_| CommitError::Stopped)?
        }
        .instrument(self.backend.transaction_span("group commit"))
        .await
    }
}

/// The pool batches are written to, and how their statements write parameters.
#[derive(Clone)]
struct Writer {
    pool: AnyPool,
    params: Params,
}

async fn collect(
    mut rx: mpsc::Receiver<Job>,
    writer: Writer,
    settings: Settings,
    metrics: CommitMetrics,
) {
    let slots = Arc::new(Semaphore::new(settings.in_flight.max(1)));
    let max_batch = settings.max_batch.max(1);
    loop {
        // The slot first: while every slot is busy, charges queue and the next batch grows.
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let Some(first) = rx.recv().await else {
            return;
        };
        let mut batch = vec![first];
        let deadline = tokio::time::Instant::now() + settings.max_wait;
        while batch.len() < max_batch {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) if settings.max_wait.is_zero() => break,
                Err(_) => match tokio::time::timeout_at(deadline, rx.recv()).await {
                    Ok(Some(job)) => batch.push(job),
                    _ => break,
                },
            }
        }
        let (writer, metrics) = (writer.clone(), metrics.clone());
        tokio::spawn(async move {
            let size = batch.len();
            let started = Instant::now();
            write_batch(&writer, batch).await;
            metrics.batch_size.observe(size as f64);
            metrics.seconds.observe(started.elapsed().as_secs_f64());
            drop(slot);
        });
    }
}

async fn write_batch(writer: &Writer, mut batch: Vec<Job>) {
    batch.sort_by(|a, b| key_of(&a.write).cmp(&key_of(&b.write)));
    // Sorted, so the repeats of a key follow its first charge.
    let (mut writes, mut repeats): (Vec<Job>, Vec<Job>) = (Vec::new(), Vec::new());
    for job in batch {
        match writes.last() {
            Some(last) if key_of(&last.write) == key_of(&job.write) => repeats.push(job),
            _ => writes.push(job),
        }
    }

    let together: Vec<&ChargeWrite> = writes.iter().map(|j| &j.write).collect();
    let results = match write_together(writer, &together).await {
        Ok(claimed) => writes
            .iter()
            .map(|j| {
                Ok(if claimed.contains(j.write.intent.id.as_str()) {
                    Outcome::Committed
                } else {
                    Outcome::KeyTaken
                })
            })
            .collect(),
        Err(e) => {
            tracing::warn!(error = %e, size = writes.len(),
                "group commit: the batch failed; writing its charges one savepoint each");
            write_each(&writer.pool, &together).await
        }
    };
    for (job, result) in writes.into_iter().zip(results) {
        let _ = job.reply.send(result);
    }
    // After the first of their key has committed (or failed): they read it and replay.
    for job in repeats {
        let _ = job.reply.send(Ok(Outcome::KeyTaken));
    }
}

fn key_of(w: &ChargeWrite) -> (&str, &str) {
    (&w.record.merchant_id, &w.record.key)
}

/// Rows per statement: within SQLite's 32,766 bound variables (32 per intent).
const CHUNK: usize = 500;

/// The batch in one transaction with one statement per table (per chunk); the ids of the
/// intents written (those whose key was claimed).
async fn write_together(writer: &Writer, writes: &[&ChargeWrite]) -> sqlx::Result<HashSet<String>> {
    let params = writer.params;
    let mut tx = writer.pool.begin().await?;
    let mut claimed = HashSet::new();
    for chunk in writes.chunks(CHUNK) {
        let records: Vec<&NewRecord> = chunk.iter().map(|w| &w.record).collect();
        let won: HashSet<String> = idempotency::claim_many(&mut *tx, params, &records)
            .await?
            .into_iter()
            .collect();
        let mine: Vec<&&ChargeWrite> = chunk
            .iter()
            .filter(|w| won.contains(w.intent.id.as_str()))
            .collect();
        let rows: Vec<&Intent> = mine.iter().map(|w| &w.intent).collect();
        intents::insert_many(&mut *tx, params, &rows).await?;
        let traces: Vec<(&str, &str, i64)> = mine
            .iter()
            .map(|w| (w.intent.id.as_str(), w.trace.as_str(), w.intent.created_at))
            .collect();
        intents::insert_traces(&mut *tx, params, &traces).await?;
        claimed.extend(won);
    }
    tx.commit().await?;
    Ok(claimed)
}

/// The batch again, one savepoint per charge: a charge whose rows fail is rolled back alone.
async fn write_each(pool: &AnyPool, writes: &[&ChargeWrite]) -> Vec<Result<Outcome, CommitError>> {
    let all_failed = |e: sqlx::Error| {
        let e = CommitError::from(e);
        writes.iter().map(|_| Err(e.clone())).collect()
    };
    let mut tx = match pool.begin().await {
        Ok(tx) => tx,
        Err(e) => return all_failed(e),
    };
    let mut results = Vec::with_capacity(writes.len());
    for w in writes {
        let one = async {
            let mut savepoint = tx.begin().await?;
            let claimed = idempotency::claim(&mut *savepoint, &w.record).await?;
            if claimed {
                intents::insert(&mut *savepoint, &w.intent).await?;
                intents::insert_trace(&mut *savepoint, &w.intent.id, &w.trace, w.intent.created_at)
                    .await?;
            }
            savepoint.commit().await?;
            Ok::<_, sqlx::Error>(if claimed {
                Outcome::Committed
            } else {
                Outcome::KeyTaken
            })
        }
        .await;
        if let Err(e) = &one {
            tracing::warn!(error = %e, "group commit: a charge's rows failed; its batch-mates go on");
        }
        results.push(one.map_err(CommitError::from));
    }
    match tx.commit().await {
        Ok(()) => results,
        Err(e) => all_failed(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::intents::{NewIntent, Routing};
    use crate::db::{Db, Flag, catalog};
    use pixgate_domain::{ChargeKind, StoreMode};

    async fn sqlite() -> (tempfile::TempDir, Db, catalog::Store) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let db = Db::connect(&url, 2).await.unwrap();
        let merchant = catalog::Merchant {
            id: "m1".into(),
            code: "m1".into(),
            name: "M".into(),
            created_at: 1,
        };
        catalog::insert_merchant(&db.write, &merchant)
            .await
            .unwrap();
        let store = catalog::Store {
            id: "s1".into(),
            merchant_id: "m1".into(),
            code: "s1".into(),
            name: "S".into(),
            mode: StoreMode::Shadow,
            live_enabled: Flag(false),
            config: "{}".into(),
            charge_expiry_seconds: 60,
            created_at: 1,
            updated_at: 1,
        };
        catalog::insert_store(&db.write, &store).await.unwrap();
        (dir, db, store)
    }

    fn write(store: &catalog::Store, key: &str, amount: i64) -> ChargeWrite {
        let id = uuid::Uuid::now_v7().to_string();
        ChargeWrite {
            record: NewRecord {
                merchant_id: store.merchant_id.clone(),
                key: key.into(),
                request_hash: "h".into(),
                response_status: 200,
                response_body: "{}".into(),
                payment_intent_id: Some(id.clone()),
                created_at: 10,
                expires_at: i64::MAX,
                lease_until: None,
            },
            intent: Intent::new(NewIntent {
                id,
                merchant_id: store.merchant_id.clone(),
                store_id: store.id.clone(),
                kind: ChargeKind::Immediate,
                amount_centavos: amount,
                reference: "r".into(),
                description: None,
                payer_kind: pixgate_domain::TaxIdKind::Cpf,
                payer_sealed: "x".into(),
                metadata: "{}".into(),
                idempotency_key: key.into(),
                routing: Routing {
                    mode: StoreMode::Shadow,
                    policy: "p".into(),
                    provider_code: "p".into(),
                    gateway_alias: "g".into(),
                    release_class: "D0".into(),
                    cross_class_failover: false,
                    fee_centavos: 0,
                    net_centavos: amount,
                    settlement_date: "2026-01-01".into(),
                },
                due_terms: None,
                recurring: Default::default(),
                created_at: 10,
            }),
            trace: "{}".into(),
        }
    }

    fn metrics() -> CommitMetrics {
        CommitMetrics {
            batch_size: Histogram::new([1.0, 2.0, 1000.0]),
            seconds: Histogram::new([1.0]),
        }
    }

    async fn count(db: &Db, table: &str) -> i64 {
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!("select count(*) from {table}")))
            .fetch_one(&db.read)
            .await
            .unwrap()
    }

    /// The writer waits long enough for every charge to join one batch, so the bad row, the
    /// repeated key and the good rows share a transaction.
    #[tokio::test]
    async fn a_bad_row_fails_alone_and_a_repeated_key_is_written_once() {
        let (_dir, db, store) = sqlite().await;
        let settings = Settings {
            max_batch: 64,
            max_wait: Duration::from_millis(300),
            in_flight: 1,
        };
        let metrics = metrics();
        let commits = GroupCommit::spawn(&db, settings, metrics.clone());
        let mut writes: Vec<ChargeWrite> = (0..10)
            .map(|n| write(&store, &format!("k{n}"), 100))
            .collect();
        // Violates payment_intents_amount_check.
        writes.push(write(&store, "bad", 0));
        writes.push(write(&store, "k3", 100));
        let calls: Vec<_> = writes
            .into_iter()
            .map(|w| {
                let commits = commits.clone();
                tokio::spawn(async move { commits.charge(w).await })
            })
            .collect();
        let mut results = Vec::new();
        for call in calls {
            results.push(call.await.unwrap());
        }
        for ok in &results[..10] {
            assert_eq!(ok.as_ref().unwrap(), &Outcome::Committed);
        }
        let error = results[10].as_ref().unwrap_err().to_string();
        assert!(error.contains("payment_intents_amount_check"), "{error}");
        assert_eq!(results[11].as_ref().unwrap(), &Outcome::KeyTaken);
        assert_eq!(count(&db, "payment_intents").await, 10);
        assert_eq!(count(&db, "decision_traces").await, 10);
        assert_eq!(count(&db, "idempotency_records").await, 10);
        let mut registry = prometheus_client::registry::Registry::default();
        registry.register("batch", "batch", metrics.batch_size.clone());
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        assert!(
            text.contains("batch_count 1\n"),
            "one transaction for all: {text}"
        );
    }

    #[tokio::test]
    async fn a_key_already_stored_is_reported_taken_and_not_overwritten() {
        let (_dir, db, store) = sqlite().await;
        let settings = Settings {
            max_batch: 8,
            max_wait: Duration::ZERO,
            in_flight: 1,
        };
        let commits = GroupCommit::spawn(&db, settings, metrics());
        let first = write(&store, "k", 100);
        let first_id = first.intent.id.clone();
        assert_eq!(commits.charge(first).await.unwrap(), Outcome::Committed);
        assert_eq!(
            commits.charge(write(&store, "k", 100)).await.unwrap(),
            Outcome::KeyTaken
        );
        let record = idempotency::find(&db.read, "m1", "k", 11)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(record.payment_intent_id, Some(first_id));
        assert_eq!(count(&db, "payment_intents").await, 1);
    }
}
