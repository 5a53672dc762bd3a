//! The reconciler: every `PIXGATE_RECONCILE_INTERVAL`, the `PENDING` charges due for a read
//! are settled at their PSP, so a callback that never came (or was never sent) still ends
//! in `SUCCEEDED` or `CANCELED`. Each charge is taken under its lease ([`super::settle`]),
//! so instances sharing a PostgreSQL never process one charge at once.

use std::sync::Arc;

use super::LiveError;
use super::settle::{self, Settled};
use crate::app::AppState;
use crate::db::{self, intents};

/// Charges settled per pass at most; the rest wait for the next pass.
const PASS: i64 = 200;

pub fn spawn(state: Arc<AppState>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(state.live.interval());
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = pass(&state).await {
                tracing::warn!(error = %e, "reconciler pass failed; next interval tries again");
            }
        }
    })
}

/// One pass: how many charges moved.
pub async fn pass(state: &AppState) -> Result<usize, LiveError> {
    let due = intents::due_for_reconcile(&state.db.read, db::now_ms(), PASS).await?;
    let mut moved = 0;
    for id in due {
        match settle::settle(state, &id).await {
            Ok(Settled::Moved(_)) => moved += 1,
            Ok(_) => {}
            Err(e) => tracing::warn!(intent = %id, error = %e, "reconciler: not settled"),
        }
    }
    Ok(moved)
}
