//! The daily sweep: at `PIXGATE_RECONCILE_DAILY_AT` (Brasília) each active provider's day
//! before is swept, once per provider and day across instances (the schedule's run of a day
//! is unique while running or done: an instance that loses the race writes nothing), catching
//! up at start when that time has passed. A failed run is tried again after
//! [`RETRY_AFTER_MS`], until one is done.

use super::Reconciliations;
use crate::db::reconciliations as sql;
use crate::db::{self, providers};
use pixgate_domain::due::Date;
use pixgate_domain::reconciliation::ReconciliationTrigger;

/// How long after a failed daily run the schedule tries that day again.
pub const RETRY_AFTER_MS: i64 = 10 * 60 * 1000;

/// How often the schedule looks, at most (the reconcile interval when shorter).
const TICK: std::time::Duration = std::time::Duration::from_secs(30);

/// When the schedule runs: minutes after midnight (Brasília), or never.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyAt(pub Option<u32>);

/// `HH:MM` (00:00 to 23:59): minutes after midnight; `off`: no schedule.
pub fn parse_daily_at(text: &str) -> Result<DailyAt, String> {
    if text == "off" {
        return Ok(DailyAt(None));
    }
    parse_time_of_day(text).map(|m| DailyAt(Some(m)))
}

fn parse_time_of_day(text: &str) -> Result<u32, String> {
    let bad = || format!("`{text}` is not a time of day HH:MM (00:00 to 23:59), nor `off`");
    let (h, m) = text.split_once(':').ok_or_else(bad)?;
    if h.len() != 2 || m.len() != 2 {
        return Err(bad());
    }
    let h: u32 = h.parse().map_err(|_| bad())?;
    let m: u32 = m.parse().map_err(|_| bad())?;
    if h > 23 || m > 59 {
        return Err(bad());
    }
    Ok(h * 60 + m)
}

/// The Brasília day the schedule sweeps at `now` (Unix ms): the day before, once the time of
/// day `at` (minutes after midnight) has come; none before it.
pub fn day_due(now: i64, at: u32) -> Option<Date> {
    // Brasília is UTC-3 all year.
    let local = now - 3 * 3_600_000;
    let minutes = (local.rem_euclid(86_400_000) / 60_000) as u32;
    let today = Date::from_unix_seconds_brasilia(now.div_euclid(1000));
    (minutes >= at).then(|| today.add_days(-1))
}

impl Reconciliations {
    /// Runs the schedule on the clock until the task is aborted.
    pub fn spawn_daily(&self) -> Option<tokio::task::JoinHandle<()>> {
        let at = self.deps.daily_at?;
        let this = self.clone();
        let tick = self.deps.live.interval().min(TICK);
        Some(tokio::spawn(async move {
            loop {
                if let Err(e) = this.daily_pass(db::now_ms(), at).await {
                    tracing::warn!(error = %e, "reconciliation: the daily pass failed");
                }
                tokio::time::sleep(tick).await;
            }
        }))
    }

    /// Sweeps, one after the other, each active provider's day due at `now` that has no
    /// daily run running or done (nor one failed within [`RETRY_AFTER_MS`]); how many runs it
    /// made.
    pub async fn daily_pass(&self, now: i64, at: u32) -> Result<usize, super::ReconcileError> {
        let Some(day) = day_due(now, at) else {
            return Ok(0);
        };
        let mut ran = 0;
        for provider in providers::list(&self.deps.db.read).await? {
            if !provider.active.0 {
                continue;
            }
            let key = day.to_string();
            if sql::daily_taken(&self.deps.db.read, &provider.code, &key).await? {
                continue;
            }
            if sql::failed_daily_since(
                &self.deps.db.read,
                &provider.code,
                &key,
                now - RETRY_AFTER_MS,
            )
            .await?
            {
                continue;
            }
            // Err: another instance took it.
            if let Ok(run) = self
                .start(&provider.code, day, ReconciliationTrigger::Daily, None)
                .await?
            {
                self.sweep(run).await;
                ran += 1;
            }
        }
        Ok(ran)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_of_day_is_hh_mm() {
        assert_eq!(parse_daily_at("03:00"), Ok(DailyAt(Some(180))));
        assert_eq!(parse_daily_at("23:59"), Ok(DailyAt(Some(1439))));
        assert_eq!(parse_daily_at("off"), Ok(DailyAt(None)));
        for bad in ["3:00", "24:00", "03:60", "0300", "ab:cd", ""] {
            assert!(parse_daily_at(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_day_before_is_due_once_the_time_has_come() {
        // 2026-11-27 02:59 and 03:00 in Brasília (05:59 and 06:00 UTC).
        let before = 1_795_759_140_000;
        assert_eq!(
            pixgate_pix::time::iso8601(before),
            "2026-11-27T05:59:00.000Z"
        );
        assert_eq!(day_due(before, 180), None);
        assert_eq!(
            day_due(before + 60_000, 180).map(|d| d.to_string()),
            Some("2026-11-26".to_owned())
        );
        // 23:59 UTC is 20:59 of the 27th in Brasília: still the 26th is due.
        assert_eq!(
            day_due(1_795_823_940_000, 180).map(|d| d.to_string()),
            Some("2026-11-26".to_owned())
        );
    }
}
