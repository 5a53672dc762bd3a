//! The batch worker inside `pixgate serve`: it claims batches due for a pass (under a lease,
//! `FOR UPDATE SKIP LOCKED` on PostgreSQL, so instances sharing a database never work on one
//! batch at once) and takes each as far as it can go.
//!
//! A pass, in two steps:
//!
//! 1. Each item not yet routed runs the chain as a single charge (the same versions, canaries,
//!    kill switch and trace), judged as of the day the batch was asked on. A SHADOW store's
//!    item is then its `SHADOW_ONLY` intent, written with the item `CREATED`. A LIVE store's
//!    item is written with its decision and the lote of its primary gateway, before anything
//!    goes to a PSP: a later pass sends it to the same gateway in the same lote. A refusal is
//!    the item `REJECTED` with the charge's code. An item whose step failed (a component down)
//!    is left for the next pass, and rejected `routing_unavailable` after a few.
//! 2. Once every item is routed, each lote goes to its PSP (`crate::psp::live::lote`): marked
//!    sent first, then put, or read back when it may have been put before. A created item is
//!    its `PENDING` intent (with its PIX charge, its trace, its PSP calls and its
//!    `payment.pending` event) written with the item `CREATED`; a denied one is `REJECTED`
//!    `psp_refused`. What the PSP has not told yet waits for the next pass.
//!
//! Every write of a pass renews the claim in its transaction, and moves an item only from
//! `PROCESSING`: a pass that lost its claim (its lease ran out, another instance took the
//! batch) writes nothing, and an item never makes two intents (its intent id is reserved) nor
//! two cobvs (its txid derives from that id).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use super::ChargeBatches;
use crate::access::Principal;
use crate::charges::ChargeError;
use crate::components::canary::CanaryArm;
use crate::db::batches::{self, Batch, Claimed, ItemError, Lote, PendingItem};
use crate::db::intents::{self, Intent};
use crate::db::psp_calls::{self, PspCall};
use crate::db::store_cache::StoreRoute;
use crate::db::{self, catalog};
use crate::internal::Internal;
use crate::psp::live::execute::Merchant;
use crate::psp::live::lote::{ItemOutcome, LoteCharge, LoteRequest};
use crate::routing::{Resolved, recorded_trace};
use crate::webhooks::outbox;
use pixgate_domain::batch::parse_item;
use pixgate_domain::charge::ChargeRequest;
use pixgate_domain::due::Date;
use pixgate_domain::{IdempotencyKey, IntentStatus, StoreMode};
use pixgate_pix::apipix::{Txid, txid_for};
use pixgate_sandbox::chain::{Components, DecisionTrace};

/// How often the worker looks for batches due (a new batch of this instance wakes it at once).
const POLL: Duration = Duration::from_secs(1);
/// Batches worked on at once by one instance.
const PASSES_AT_ONCE: usize = 4;
/// Items written per transaction.
const WRITES_PER_TX: usize = 100;
/// Passes after which items the chain could not route (a step failing) are rejected.
const ROUTING_PASSES: i64 = 8;

/// How a pass ended.
enum Next {
    /// Every item is resolved: the batch is `DONE`.
    Done,
    /// Some items wait: the batch is due again after this.
    Again(Duration),
    /// The claim went to another pass.
    Lost,
}

/// One write of a pass.
enum Write {
    Reject {
        index: i64,
        error: ItemError,
    },
    /// A LIVE item's decision and its lote.
    Route {
        index: i64,
        decision: String,
        lote: Lote,
    },
    /// An intent for the item: `SHADOW_ONLY`, or `PENDING` with its PSP calls and event.
    Create {
        index: i64,
        intent: Box<Intent>,
        trace: String,
        calls: Vec<PspCall>,
    },
}

/// What a resolved item keeps for after its intent's commit (the step metrics, shadow
/// candidates and canaries), when its intent is written in the same pass.
struct AfterCommit {
    components: Components,
    trace: DecisionTrace,
    canaries: Vec<CanaryArm>,
}

impl ChargeBatches {
    /// Runs the worker until the server stops.
    pub fn spawn_worker(&self) -> tokio::task::JoinHandle<()> {
        let this = self.clone();
        tokio::spawn(async move { this.run().await })
    }

    async fn run(&self) {
        let permits = Arc::new(Semaphore::new(PASSES_AT_ONCE));
        loop {
            let free = permits.available_permits();
            if free == 0 {
                if let Ok(permit) = permits.clone().acquire_owned().await {
                    drop(permit);
                }
                continue;
            }
            let claimed = self.claim(free).await;
            let drained = claimed.len() < free;
            for claim in claimed {
                let Ok(permit) = permits.clone().acquire_owned().await else {
                    break;
                };
                let this = self.clone();
                tokio::spawn(async move {
                    this.pass(claim).await;
                    drop(permit);
                });
            }
            if drained {
                tokio::select! {
                    _ = self.wake.notified() => {}
                    _ = tokio::time::sleep(POLL) => {}
                }
            }
        }
    }

    fn lease(&self) -> Duration {
        self.charges.deps.live.lease()
    }

    async fn claim(&self, limit: usize) -> Vec<Claimed> {
        let db = &self.charges.deps.db;
        let now = db::now_ms();
        let token = uuid::Uuid::new_v4().to_string();
        let until = now + self.lease().as_millis() as i64;
        match batches::claim_due(&db.write, db.backend, now, until, &token, limit as i64).await {
            Ok(claimed) => claimed,
            Err(e) => {
                tracing::warn!(error = %e, "claiming charge batches failed");
                Vec::new()
            }
        }
    }

    #[tracing::instrument(skip_all, fields(batch = %claim.id, pass = claim.attempts))]
    async fn pass(&self, claim: Claimed) {
        let started = std::time::Instant::now();
        let next = match self.work(&claim).await {
            Ok(next) => next,
            Err(e) => {
                tracing::warn!(error = %e, "charge batch pass failed; the batch is tried again");
                Next::Again(retry_delay(claim.attempts))
            }
        };
        let db = &self.charges.deps.db;
        match next {
            Next::Done => {
                tracing::info!(
                    elapsed_ms = started.elapsed().as_millis() as u64,
                    "charge batch done"
                );
            }
            Next::Lost => tracing::info!("charge batch pass: the claim went to another pass"),
            Next::Again(delay) => {
                let now = db::now_ms();
                let next = now + delay.as_millis() as i64;
                if let Err(e) =
                    batches::release(&db.write, &claim.id, &claim.claim_token, next, now).await
                {
                    // Its lease runs out and a later pass takes it.
                    tracing::warn!(error = %e, "charge batch: the claim was not handed back");
                }
            }
        }
    }

    async fn work(&self, claim: &Claimed) -> Result<Next, Internal> {
        let deps = &self.charges.deps;
        let batch = batches::by_id(&deps.db.read, &claim.id)
            .await?
            .ok_or_else(|| Internal::broken(format!("claimed batch {} not found", claim.id)))?;
        let store = catalog::store_by_id(&deps.db.read, &batch.store_id)
            .await?
            .ok_or_else(|| Internal::broken(format!("batch {} without its store", batch.id)))?;
        let route = deps
            .stores
            .get(&deps.db, &store.code)
            .await?
            .ok_or_else(|| Internal::broken(format!("batch {}: store gone", batch.id)))?;
        let merchant_code = batches::merchant_code(&deps.db.read, &batch.merchant_id)
            .await?
            .ok_or_else(|| Internal::broken(format!("batch {} without its merchant", batch.id)))?;
        let asked_on = Date::parse(&batch.asked_on)
            .ok_or_else(|| Internal::broken(format!("batch {}: asked_on", batch.id)))?;
        let mut pass = Pass {
            batches: self,
            principal: Principal {
                merchant_id: batch.merchant_id.clone(),
                merchant_code,
                scopes: Vec::new(),
                store_ids: vec![store.id.clone()],
            },
            batch,
            token: claim.claim_token.clone(),
            route,
            asked_on,
            writes: Vec::new(),
            after: HashMap::new(),
        };

        // 1. Route every item not routed yet.
        let pending = batches::pending_items(&deps.db.read, &claim.id).await?;
        let mut unrouted = Vec::new();
        for item in pending.iter().filter(|i| i.decision.is_none()) {
            if !pass.route_item(item).await? {
                unrouted.push(item);
            }
            if pass.writes.len() >= WRITES_PER_TX && !pass.flush().await? {
                return Ok(Next::Lost);
            }
        }
        if !unrouted.is_empty() {
            if claim.attempts < ROUTING_PASSES {
                if !pass.flush().await? {
                    return Ok(Next::Lost);
                }
                return Ok(Next::Again(retry_delay(claim.attempts)));
            }
            for item in unrouted {
                pass.reject(
                    item,
                    "routing_unavailable",
                    format!(
                        "the store's routing failed on {ROUTING_PASSES} passes; send the charge \
                         again"
                    ),
                    None,
                );
            }
        }
        if !pass.flush().await? {
            return Ok(Next::Lost);
        }

        // 2. Send each lote to its PSP, or read it back.
        let pending = batches::pending_items(&deps.db.read, &claim.id).await?;
        let lotes = batches::lotes(&deps.db.read, &claim.id).await?;
        let mut waiting = 0;
        for lote in &lotes {
            let items: Vec<&PendingItem> = pending
                .iter()
                .filter(|i| i.lote_id == Some(lote.lote_id))
                .collect();
            if items.is_empty() {
                continue;
            }
            match pass.send(lote, &items).await? {
                Some(later) => waiting += later,
                None => return Ok(Next::Lost),
            }
        }
        if waiting > 0 {
            return Ok(Next::Again(retry_delay(claim.attempts)));
        }
        let now = db::now_ms();
        if batches::finish(&deps.db.write, &claim.id, &claim.claim_token, now).await? {
            return Ok(Next::Done);
        }
        // Not every item is resolved (an item routed without a lote would be a bug), or the
        // claim is gone: the next pass looks again.
        Ok(Next::Again(retry_delay(claim.attempts)))
    }
}

/// A pass over one claimed batch.
struct Pass<'a> {
    batches: &'a ChargeBatches,
    batch: Batch,
    token: String,
    route: Arc<StoreRoute>,
    principal: Principal,
    asked_on: Date,
    writes: Vec<Write>,
    after: HashMap<i64, AfterCommit>,
}

impl Pass<'_> {
    /// The item's charge, as it was judged when the batch was asked.
    fn request(&self, item: &PendingItem) -> Result<Result<ChargeRequest, ItemError>, Internal> {
        let sealed = item.request_sealed.as_deref().ok_or_else(|| {
            Internal::broken(format!(
                "batch {} item {}: processing without its request",
                self.batch.id, item.item_index
            ))
        })?;
        let raw = self.batches.charges.deps.master_key.open(sealed)?;
        let raw =
            String::from_utf8(raw).map_err(|e| Internal::caused("a batch item's request", e))?;
        Ok(parse_item(&raw, &self.route.store.code, self.asked_on)
            .map_err(|e| ItemError::new(e.code, &e.message, e.field.as_deref())))
    }

    fn key(&self, item: &PendingItem) -> Result<IdempotencyKey, Internal> {
        IdempotencyKey::parse(format!("batch:{}:{}", self.batch.id, item.item_index).as_bytes())
            .map_err(Internal::broken)
    }

    fn reject(&mut self, item: &PendingItem, code: &str, message: String, field: Option<String>) {
        self.writes.push(Write::Reject {
            index: item.item_index,
            error: ItemError::new(code, &message, field.as_deref()),
        });
    }

    /// Runs the chain for an item. False: a step failed, and the item waits for a later pass.
    async fn route_item(&mut self, item: &PendingItem) -> Result<bool, Internal> {
        let request = match self.request(item)? {
            Ok(request) => request,
            Err(error) => {
                self.writes.push(Write::Reject {
                    index: item.item_index,
                    error,
                });
                return Ok(true);
            }
        };
        let route = self.route.clone();
        let store = &route.store;
        if store.mode == StoreMode::Live && !store.live_enabled.0 {
            let message = ChargeError::LiveExecutionDisabled(store.code.clone()).to_string();
            self.reject(item, "live_execution_disabled", message, None);
            return Ok(true);
        }
        let key = self.key(item)?;
        let now = db::now_ms();
        let batches = self.batches;
        let charges = &batches.charges;
        let resolved = charges
            .resolve(
                &self.route,
                &self.principal,
                &key,
                &request,
                &item.payment_intent_id,
                now,
            )
            .await;
        let Resolved {
            components,
            trace,
            canaries,
        } = match resolved {
            Ok(resolved) => resolved,
            Err(ChargeError::Refused { code, message }) => {
                self.reject(item, code, message, None);
                return Ok(true);
            }
            Err(ChargeError::RoutingUnavailable(step)) => {
                tracing::warn!(item = item.item_index, %step,
                    "charge batch: the item's routing failed; a later pass tries again");
                return Ok(false);
            }
            // Every gateway failing at its PSP for now: as a LIVE item whose PSP is down.
            Err(ChargeError::PspUnavailable(why)) => {
                tracing::warn!(item = item.item_index, %why,
                    "charge batch: no gateway can take the item now; a later pass tries again");
                return Ok(false);
            }
            Err(ChargeError::Internal(e)) => return Err(e),
            Err(other) => return Err(Internal::caused("a batch item's chain", other)),
        };
        let decision = recorded_trace(&trace, &canaries)?;
        match store.mode {
            StoreMode::Shadow => {
                let intent = charges
                    .new_intent(
                        &self.principal,
                        &self.route,
                        &key,
                        &request,
                        &trace,
                        0,
                        &item.payment_intent_id,
                        now,
                    )
                    .map_err(|e| Internal::caused("a batch item's intent", e))?;
                self.writes.push(Write::Create {
                    index: item.item_index,
                    intent: Box::new(intent),
                    trace: decision,
                    calls: Vec::new(),
                });
            }
            StoreMode::Live => {
                let primary = trace.primary();
                let alias = primary.gateway.gateway_alias.clone();
                let lote = Lote {
                    lote_id: lote_id_for(&self.batch.id, &alias),
                    provider_code: primary.gateway.provider_code.clone(),
                    gateway_alias: alias,
                    sent_at: None,
                };
                self.writes.push(Write::Route {
                    index: item.item_index,
                    decision,
                    lote,
                });
            }
        }
        self.after.insert(
            item.item_index,
            AfterCommit {
                components,
                trace,
                canaries,
            },
        );
        Ok(true)
    }

    /// Sends a lote's pending items to its PSP (or reads it back) and writes what became of
    /// them. The count of items still waiting, or `None` when the claim was lost.
    async fn send(
        &mut self,
        lote: &Lote,
        items: &[&PendingItem],
    ) -> Result<Option<usize>, Internal> {
        let batches = self.batches;
        let deps = &batches.charges.deps;
        let store = self.route.store.clone();
        let mut charges = Vec::with_capacity(items.len());
        for item in items {
            match self.request(item)? {
                Ok(request) => charges.push((*item, request)),
                // Judged on the same day as when it was routed: it cannot fail now.
                Err(error) => self.writes.push(Write::Reject {
                    index: item.item_index,
                    error,
                }),
            }
        }
        if lote.sent_at.is_none() {
            if store.mode != StoreMode::Live || !store.live_enabled.0 {
                // Live execution was switched off (or the store to SHADOW) since the items were
                // routed, and nothing went to the PSP yet: nothing goes.
                let message = ChargeError::LiveExecutionDisabled(store.code.clone()).to_string();
                for (item, _) in &charges {
                    self.reject(item, "live_execution_disabled", message.clone(), None);
                }
                return Ok(self.flush().await?.then_some(0));
            }
            if !self.mark_sent(lote).await? {
                return Ok(None);
            }
        }
        let config = store.config_map();
        let merchant = Merchant {
            name: &store.name,
            city: config
                .get("pix.merchant-city")
                .map_or(crate::charges::live::DEFAULT_CITY, String::as_str),
        };
        let mut lote_charges = Vec::with_capacity(charges.len());
        for (item, request) in &charges {
            let txid = Txid::parse(&txid_for(&store.id, &item.payment_intent_id))
                .map_err(|e| Internal::caused("a batch item's txid", e))?;
            lote_charges.push(LoteCharge { txid, request });
        }
        let request = LoteRequest {
            id: lote.lote_id,
            provider: &lote.provider_code,
            alias: &lote.gateway_alias,
            descricao: format!("pixgate charge batch {}", self.batch.id),
            charges: lote_charges,
            read_first: lote.sent_at.is_some(),
            merchant,
        };
        let execution = deps.live.send_lote(&request).await;
        let mut later = 0;
        let at = db::now_ms();
        for (k, outcome) in execution.outcomes.into_iter().enumerate() {
            let (item, charge) = &charges[k];
            match outcome {
                ItemOutcome::Later => later += 1,
                ItemOutcome::Rejected { code, message } => {
                    self.reject(item, code, message, None);
                }
                ItemOutcome::Created(created) => {
                    let decision = item.decision.clone().ok_or_else(|| {
                        Internal::broken("a routed batch item without its decision")
                    })?;
                    let trace: DecisionTrace = serde_json::from_str(&decision)
                        .map_err(|e| Internal::caused("a batch item's decision", e))?;
                    let key = self.key(item)?;
                    let mut intent = batches
                        .charges
                        .new_intent(
                            &self.principal,
                            &self.route,
                            &key,
                            charge,
                            &trace,
                            0,
                            &item.payment_intent_id,
                            at,
                        )
                        .map_err(|e| Internal::caused("a batch item's intent", e))?;
                    intent.status = IntentStatus::Pending;
                    intent.completed_at = None;
                    intent.txid = Some(request.charges[k].txid.as_str().to_owned());
                    intent.pix_location = created.charge.location.clone();
                    intent.pix_copy_paste = Some(created.copy_and_paste.clone());
                    intent.pix_expires_at = Some(created.expires_at);
                    intent.reconcile_at = Some(at + deps.live.interval().as_millis() as i64);
                    let mut calls = execution.calls.clone();
                    calls.extend(execution.item_calls[k].iter().cloned());
                    self.writes.push(Write::Create {
                        index: item.item_index,
                        intent: Box::new(intent),
                        trace: decision,
                        calls,
                    });
                }
            }
            if self.writes.len() >= WRITES_PER_TX && !self.flush().await? {
                return Ok(None);
            }
        }
        Ok(self.flush().await?.then_some(later))
    }

    /// Marks a lote as sent, before its first `PUT`. False: the claim was lost.
    async fn mark_sent(&mut self, lote: &Lote) -> Result<bool, Internal> {
        if !self.flush().await? {
            return Ok(false);
        }
        let batches = self.batches;
        let deps = &batches.charges.deps;
        let now = db::now_ms();
        let mut tx = deps.db.write.begin().await?;
        if !self.renew(&mut tx, now).await? {
            tx.rollback().await?;
            return Ok(false);
        }
        batches::mark_lote_sent(&mut *tx, &self.batch.id, lote.lote_id, now).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn renew(
        &self,
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        now: i64,
    ) -> Result<bool, Internal> {
        let until = now + self.batches.lease().as_millis() as i64;
        Ok(batches::renew(&mut **tx, &self.batch.id, &self.token, now, until).await?)
    }

    /// Writes what the pass has to write, in one transaction that renews the claim first.
    /// False: the claim was lost (nothing is written).
    async fn flush(&mut self) -> Result<bool, Internal> {
        if self.writes.is_empty() {
            return Ok(true);
        }
        let batches = self.batches;
        let deps = &batches.charges.deps;
        let writes = std::mem::take(&mut self.writes);
        let now = db::now_ms();
        let mut tx = deps.db.write.begin().await?;
        if !self.renew(&mut tx, now).await? {
            tx.rollback().await?;
            return Ok(false);
        }
        let id = self.batch.id.as_str();
        let mut events = false;
        for write in &writes {
            let done = match write {
                Write::Reject { index, error } => {
                    batches::resolve_item(&mut *tx, id, *index, Some(error), now).await?
                }
                Write::Route {
                    index,
                    decision,
                    lote,
                } => {
                    batches::insert_lote(&mut *tx, id, lote).await?;
                    batches::route_item(&mut *tx, id, *index, decision, lote.lote_id, now).await?
                }
                Write::Create {
                    index,
                    intent,
                    trace,
                    calls,
                } => {
                    intents::insert(&mut *tx, intent).await?;
                    intents::insert_trace(&mut *tx, &intent.id, trace, now).await?;
                    for call in calls {
                        psp_calls::insert(&mut *tx, Some(&intent.id), call).await?;
                    }
                    if intent.status != IntentStatus::ShadowOnly {
                        outbox::record_created(&mut tx, intent)
                            .await
                            .map_err(|e| Internal::caused("a batch item's created event", e))?;
                        events = true;
                    }
                    batches::resolve_item(&mut *tx, id, *index, None, now).await?
                }
            };
            if !done {
                // Another pass moved the item: this one's claim is gone.
                tx.rollback().await?;
                return Ok(false);
            }
        }
        tx.commit().await?;
        if events {
            deps.wake.wake();
        }
        for write in writes {
            let Write::Create { index, intent, .. } = write else {
                continue;
            };
            if intent.status == IntentStatus::Pending {
                deps.metrics
                    .live_transition(&intent.provider_code, intent.status.as_str());
            }
            if let Some(after) = self.after.remove(&index) {
                batches.charges.after_commit(
                    &self.route,
                    &intent.id,
                    after.trace,
                    after.components,
                    &after.canaries,
                );
            }
        }
        Ok(true)
    }
}

/// The int64 id of the lote of `batch_id` at `gateway`: derived, so every pass names the same
/// lote; positive, and from a domain-separated SHA-256 so lotes of different batches do not
/// meet at a PSP.
fn lote_id_for(batch_id: &str, gateway: &str) -> i64 {
    let mut hash = Sha256::new();
    hash.update(b"pixgate/apipix/lotecobv/v1\0");
    for part in [batch_id, gateway] {
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part.as_bytes());
    }
    let digest = hash.finalize();
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    // 63 bits: a positive int64; zero is avoided as a value some PSPs treat as none.
    ((u64::from_be_bytes(bytes) >> 1) as i64).max(1)
}

/// How long a batch waits before its next pass: half a second, doubling with each pass, at
/// most five minutes.
fn retry_delay(passes: i64) -> Duration {
    let doublings = passes.clamp(1, 11) - 1;
    Duration::from_millis((500u64 << doublings).min(300_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lote_id_is_the_batch_and_gateways_own() {
        let a = lote_id_for("b1", "sandbox-a-d0");
        assert_eq!(a, lote_id_for("b1", "sandbox-a-d0"));
        assert!(a > 0);
        assert_ne!(a, lote_id_for("b1", "sandbox-b-d0"));
        assert_ne!(a, lote_id_for("b2", "sandbox-a-d0"));
        assert_ne!(lote_id_for("ab", "c"), lote_id_for("a", "bc"));
    }

    #[test]
    fn passes_back_off_to_five_minutes() {
        assert_eq!(retry_delay(1), Duration::from_millis(500));
        assert_eq!(retry_delay(2), Duration::from_secs(1));
        assert_eq!(retry_delay(30), Duration::from_secs(300));
    }
}
