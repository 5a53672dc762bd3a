//! Re-reading paid pix (DESIGN.md section 11): a devolução the PSP makes on its own (the MED)
//! is told by a callback, and a callback can be lost. So each paid (`SUCCEEDED` LIVE) intent's
//! pix is read again at its PSP (`GET /pix/{e2eid}`), at a slowing pace: an hour after the
//! payment, then 2 h, 4 h, 8 h and 16 h after each read, then once a day, until the 90 days in
//! which a devolução is possible are over (about 95 reads per paid pix). What a read finds
//! that pixgate did not know is recorded as a refund and told to the merchant
//! ([`super::refunds`]); the daily ledger sweep (section 18) finds the rest.
//!
//! The reconciler makes the reads. Each read is claimed by a compare-and-set on its due time
//! (`pix_read_at`), which also plans the next one, before the PSP is called: of several
//! instances sharing a PostgreSQL, one makes each read; a crash mid-read leaves the next
//! planned read to find what this one would have.

use super::LiveError;
use crate::db::{self, intents};

/// How long after its payment a pix can be refunded (the SPI's limit for a devolução): no
/// read is planned past it.
pub const REFUND_WINDOW_MS: i64 = 90 * 24 * 60 * 60 * 1000;

/// Reads are never further apart than this.
const MAX_GAP_MS: i64 = 24 * 60 * 60 * 1000;

/// When to read a pix paid at `paid_at` again, after its read number `reads` (1 for the
/// first) made at `now`: `FIRST_PIX_READ_MS` doubled per read made, at most a day; none once
/// past the refund window.
pub(super) fn next_read(paid_at: i64, reads: i64, now: i64) -> Option<i64> {
    let gap = intents::FIRST_PIX_READ_MS
        .saturating_mul(1_i64 << reads.clamp(0, 20))
        .min(MAX_GAP_MS);
    let next = now.saturating_add(gap);
    (next < paid_at.saturating_add(REFUND_WINDOW_MS)).then_some(next)
}

impl super::LiveExecution {
    /// The paid intents whose pix is due for a read: how many were read.
    pub(super) async fn pix_pass(&self) -> Result<usize, LiveError> {
        let now = db::now_ms();
        let due = intents::due_pix_reads(&self.db.read, now, super::reconciler::PASS).await?;
        let mut read = 0;
        for intent in due {
            let (Some(e2eid), Some(paid_at)) = (&intent.provider_payment_id, intent.completed_at)
            else {
                // A paid intent always has both; one without them has nothing to read.
                intents::claim_pix_read(&self.db.write, &intent.id, intent.pix_read_at, None)
                    .await?;
                continue;
            };
            let within = now < paid_at.saturating_add(REFUND_WINDOW_MS);
            let next = if within {
                next_read(paid_at, intent.pix_reads + 1, now)
            } else {
                None
            };
            if !intents::claim_pix_read(&self.db.write, &intent.id, intent.pix_read_at, next)
                .await?
                || !within
            {
                continue;
            }
            read += 1;
            if let Err(e) = self
                .read_pix_devolucoes(&intent.provider_code, &intent.id, e2eid)
                .await
            {
                tracing::warn!(intent = %intent.id, error = %e,
                    "pix read: not read; its next planned read tries again");
            }
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000;

    #[test]
    fn reads_slow_down_to_one_a_day_and_stop_after_ninety_days() {
        let paid = 1_000_000_000_000;
        let mut now = paid + HOUR;
        let mut gaps = Vec::new();
        let mut reads = 1;
        while let Some(next) = next_read(paid, reads, now) {
            gaps.push((next - now) / HOUR);
            now = next;
            reads += 1;
        }
        assert_eq!(gaps[..7], [2, 4, 8, 16, 24, 24, 24]);
        assert!(now < paid + REFUND_WINDOW_MS);
        assert!(now + 24 * HOUR >= paid + REFUND_WINDOW_MS);
        // About a hundred reads over the 90 days, never one after them.
        assert!((90..100).contains(&reads), "{reads}");
        assert_eq!(next_read(paid, 1, paid + REFUND_WINDOW_MS), None);
        assert_eq!(next_read(paid, i64::MAX, now), None);
    }
}
