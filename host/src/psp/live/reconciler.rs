//! The reconciler: every `PIXGATE_RECONCILE_INTERVAL`, the `PENDING` charges due for a read
//! are settled at their PSP, so a callback that never came (or was never sent) still ends
//! in `SUCCEEDED` or `CANCELED`. Each charge is taken under its lease ([`super::settle`]),
//! so instances sharing a PostgreSQL never process one charge at once. `PENDING` refunds are
//! read again the same way ([`super::refunds`]), and paid pix at a slow pace for the MED's
//! devoluções ([`super::pix_reads`]).

use super::LiveError;
use super::settle::Settled;
use crate::db::{self, intents};

/// Charges settled per pass at most; the rest wait for the next pass.
pub(super) const PASS: i64 = 200;

impl super::LiveExecution {
    pub fn spawn_reconciler(&self) -> tokio::task::JoinHandle<()> {
        let this = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(this.settings.interval());
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(e) = this.pass().await {
                    tracing::warn!(error = %e, "reconciler pass failed; next interval tries again");
                }
            }
        })
    }

    /// One pass: how many charges, refunds and mandates moved (and paid pix read again).
    pub async fn pass(&self) -> Result<usize, LiveError> {
        let refunds = self.refund_pass().await?;
        let charges = self.charge_pass().await?;
        let mandates = self.mandate_pass().await?;
        Ok(charges + refunds + mandates + self.pix_pass().await?)
    }

    async fn charge_pass(&self) -> Result<usize, LiveError> {
        let due = intents::due_for_reconcile(&self.db.read, db::now_ms(), PASS).await?;
        let mut moved = 0;
        for id in due {
            match self.settle(&id).await {
                Ok(Settled::Moved(_)) => moved += 1,
                Ok(_) => {}
                Err(e) => tracing::warn!(intent = %id, error = %e, "reconciler: not settled"),
            }
        }
        Ok(moved)
    }
}
