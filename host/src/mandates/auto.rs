//! Each cycle's charge of a mandate that charges itself (`autoCharge`, DESIGN.md section 17):
//! made by pixgate `PIXGATE_MANDATE_LEAD_DAYS` before the cycle's due date, exactly once.
//!
//! A mandate row keeps the next cycle to charge and from when (`next_cycle`,
//! `next_charge_at`). A pass takes the mandates due, makes each one's charge through the
//! charge service under a key derived from the mandate and the cycle (so a retry, a crash
//! before the mandate moved on, or another instance doing the same replays the one charge,
//! and the unique cycle index refuses a second), then moves the mandate on to the next cycle
//! with a compare-and-set. The pass takes the time as an argument: the worker gives it the
//! clock, a test any day it likes.

use std::sync::Arc;

use pixgate_domain::IdempotencyKey;
use pixgate_domain::due::Date;
use pixgate_domain::mandate::{MIN_DAYS_AHEAD, MandateCharge};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::{MandateError, Mandates, terms_of};
use crate::access::Principal;
use crate::db::mandates::{self, Mandate};
use crate::db::{self, catalog, intents};
use crate::internal::Internal;

/// The most mandates one pass charges.
const PASS: i64 = 500;

/// How many of a pass's charges are made at once: each waits mostly on its PSP and on
/// commits, so a few in flight keep the cores busy where one at a time would leave them idle
/// (100,000 cycles due the same day are all at the PSP within minutes, not hours:
/// BENCHMARKS.md section 16).
const AT_ONCE: usize = 16;

impl Mandates {
    /// Runs [`Self::auto_charge_pass`] every reconcile interval, on the clock.
    pub fn spawn_auto_charge(&self) -> tokio::task::JoinHandle<()> {
        let this = self.clone();
        let every = self.deps.live.interval();
        tokio::spawn(async move {
            loop {
                loop {
                    match this.auto_charge_pass(db::now_ms()).await {
                        // A full pass: more may be due right away.
                        Ok(n) if n as i64 >= PASS => continue,
                        Ok(_) => break,
                        Err(e) => {
                            tracing::warn!(error = %e, "auto-charge: pass failed");
                            break;
                        }
                    }
                }
                tokio::time::sleep(every).await;
            }
        })
    }

    /// The first instant (Unix ms, Brasília) a cycle due on `due` is charged.
    pub(super) fn charge_on(&self, due: Date) -> i64 {
        crate::charges::brasilia_midnight_ms(due.add_days(-i64::from(self.deps.lead_days)))
    }

    /// Charges the cycle of every mandate due at `now`, [`AT_ONCE`] mandates at a time; how
    /// many mandates it moved on.
    pub async fn auto_charge_pass(&self, now: i64) -> Result<usize, MandateError> {
        let due = mandates::due_auto_charges(&self.deps.db.read, now, PASS).await?;
        let permits = Arc::new(Semaphore::new(AT_ONCE));
        let mut charging = JoinSet::new();
        for m in due {
            let permit = permits
                .clone()
                .acquire_owned()
                .await
                .expect("the semaphore is never closed");
            let this = self.clone();
            charging.spawn(async move {
                let _permit = permit;
                match this.auto_charge(&m, now).await {
                    Ok(moved) => moved,
                    Err(e) => {
                        tracing::warn!(mandate = %m.id, error = %e, "auto-charge: cycle not charged");
                        false
                    }
                }
            });
        }
        let mut moved = 0;
        while let Some(done) = charging.join_next().await {
            match done {
                Ok(true) => moved += 1,
                Ok(false) => {}
                Err(e) => tracing::error!(error = %e, "auto-charge: a charge's task ended"),
            }
        }
        Ok(moved)
    }

    /// Makes the charge of `m`'s next cycle (unless it has one, or its due date is too near
    /// to be charged: the cycle is skipped), then moves `m` on to the cycle after. False when
    /// another instance moved it first.
    async fn auto_charge(&self, m: &Mandate, now: i64) -> Result<bool, MandateError> {
        let Some(cycle) = m.next_cycle else {
            return Ok(false);
        };
        let terms = terms_of(m)?;
        let Some(amount) = terms.amount.fixed() else {
            // Never set for such a mandate; stop rather than charge an unknown amount.
            return Ok(mandates::advance_auto_charge(
                &self.deps.db.write,
                &m.id,
                cycle,
                None,
                None,
            )
            .await?);
        };
        let n = u32::try_from(cycle)
            .map_err(|_| Internal::broken(format!("mandate {}: cycle {cycle}", m.id)))?;
        let due = terms.frequency.cycle_date(terms.start_date, n);
        if terms.end_date.is_some_and(|end| due > end) {
            return Ok(mandates::advance_auto_charge(
                &self.deps.db.write,
                &m.id,
                cycle,
                None,
                None,
            )
            .await?);
        }
        let today = Date::from_unix_seconds_brasilia(now / 1000);
        let taken = intents::by_mandate_cycle(&self.deps.db.read, &m.id, cycle).await?;
        if taken.is_none() {
            if today.days_until(due) >= MIN_DAYS_AHEAD {
                let key = IdempotencyKey::parse(format!("auto-charge:{}:{cycle}", m.id).as_bytes())
                    .map_err(|e| Internal::broken(format!("an auto-charge key: {e}")))?;
                let merchant_code =
                    catalog::merchant_code(&self.deps.db.read, &m.merchant_id).await?;
                let principal = Principal {
                    merchant_id: m.merchant_id.clone(),
                    merchant_code,
                    scopes: Vec::new(),
                    store_ids: vec![m.store_id.clone()],
                };
                let charge = MandateCharge {
                    amount,
                    due_date: due,
                    cycle: n,
                    reference: terms.reference.clone(),
                    description: terms.description.clone(),
                    metadata: "{}".into(),
                };
                match self.charge_cycle(&principal, &key, m, charge).await {
                    Ok(_) => {
                        tracing::info!(mandate = %m.id, cycle, due = %due, "auto-charge: cycle charged")
                    }
                    // The merchant charged this cycle meanwhile.
                    Err(MandateError::CycleCharged { .. }) => {}
                    Err(e) => return Err(e),
                }
            } else {
                tracing::warn!(mandate = %m.id, cycle, due = %due,
                    "auto-charge: the cycle is due too soon to be charged; skipped");
            }
        }
        let next = terms.frequency.cycle_date(terms.start_date, n + 1);
        Ok(mandates::advance_auto_charge(
            &self.deps.db.write,
            &m.id,
            cycle,
            Some(cycle + 1),
            Some(self.charge_on(next)),
        )
        .await?)
    }
}
