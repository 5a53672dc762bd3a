//! Retention: what pixgate keeps only for a while, and the purge job that deletes it.
//!
//! - Finished webhook deliveries (with their attempts) and payment events that no delivery
//!   refers to any more: `PIXGATE_WEBHOOK_RETENTION` after they finished (30 days).
//! - Decision traces, PSP call records and shadow comparisons: `PIXGATE_TRACE_RETENTION`
//!   (180 days). Replay runs on recorded charges whose trace is kept, so this is also how
//!   far back a replay can look.
//! - PaymentIntents are records of payments and are kept; idempotency records expire after
//!   `PIXGATE_IDEMPOTENCY_RETENTION_HOURS`.
//!
//! Every instance runs the job every `PIXGATE_PURGE_INTERVAL`; the deletes are idempotent, so
//! instances sharing one database need no coordination. Each delete takes a bounded batch, so
//! no transaction holds locks for long.

use std::time::Duration;

use crate::db::retention::{Purgeable, purge};
use crate::db::{self, Db};

/// Rows per delete statement.
const BATCH: i64 = 1000;
/// Batches per kind in one run; the rest waits for the next run.
const MAX_BATCHES: usize = 100;

/// `pixgate serve` retention options (flags and `PIXGATE_*` variables).
#[derive(Debug, Clone, clap::Args)]
pub struct RetentionArgs {
    /// How long finished webhook deliveries, their attempts and payment events are kept
    /// (`0s`: forever).
    #[arg(long, env = "PIXGATE_WEBHOOK_RETENTION", default_value = "30days",
          value_parser = humantime::parse_duration)]
    pub webhook_retention: Duration,
    /// How long decision traces, PSP call records and shadow comparisons are kept; replay
    /// looks back this far (`0s`: forever).
    #[arg(long, env = "PIXGATE_TRACE_RETENTION", default_value = "180days",
          value_parser = humantime::parse_duration)]
    pub trace_retention: Duration,
    /// How often the purge job runs (also for expired idempotency records).
    #[arg(long, env = "PIXGATE_PURGE_INTERVAL", default_value = "5m",
          value_parser = parse_interval)]
    pub purge_interval: Duration,
}

fn parse_interval(s: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(s).map_err(|e| e.to_string())?;
    if d < Duration::from_millis(100) || d > Duration::from_secs(86_400) {
        return Err("must be from 100ms to 1 day".into());
    }
    Ok(d)
}

/// One run of the purge job: deletes what is past its retention at `now` (milliseconds).
/// Answers the rows deleted per table.
pub async fn purge_expired(
    db: &Db,
    settings: &RetentionArgs,
    now: i64,
) -> Result<Vec<(&'static str, u64)>, sqlx::Error> {
    let mut purged = Vec::new();
    let mut expired = db::idempotency::purge_expired(&db.write, now).await?;
    purged.push(("idempotency_records", expired));
    for (retention, kinds) in [
        (settings.webhook_retention, &Purgeable::WEBHOOK_DATA[..]),
        (settings.trace_retention, &Purgeable::TRACE_DATA[..]),
    ] {
        if retention.is_zero() {
            continue;
        }
        let cutoff = now.saturating_sub(i64::try_from(retention.as_millis()).unwrap_or(i64::MAX));
        for &kind in kinds {
            let mut total = 0;
            for _ in 0..MAX_BATCHES {
                expired = purge(&db.write, kind, cutoff, BATCH).await?;
                total += expired;
                if expired < BATCH as u64 {
                    break;
                }
            }
            purged.push((kind.table(), total));
        }
    }
    Ok(purged)
}
