//! The refund service (DESIGN.md section 11): a merchant's refunds of a paid LIVE payment,
//! idempotent under the merchant's Idempotency-Key (a key space of its own), never more than
//! the amount paid however many requests race, on any number of instances; and an admin's
//! exit for a charge paid with the wrong amount (`accept` or `refund`).
//!
//! A refund is reserved and recorded (`PENDING`, held by this request) in one transaction,
//! then driven at its PSP ([`crate::psp::live::refunds`]); the answer is kept for the key.
//! A request that dies after the reservation leaves a `PENDING` refund that a retry with the
//! same key, or the reconciler, takes over once its lease ran out, with the same devolução
//! id: the PSP never sees a second devolução.

pub mod view;

use serde_json::Value;

use crate::access::{Actor, MissingScope, Principal, Scope};
use crate::charges::view::{PaymentIntent, PaymentIntentEnvelope};
use crate::db::audit::{self, Action, Change};
use crate::db::refunds::{self, Origin, Refund, RefundStatus};
use crate::db::{self, Db, DbError, Flag, catalog, intents};
use crate::internal::Internal;
use crate::psp::live::{LiveError, LiveExecution};
use crate::webhooks::Wake;
use crate::webhooks::outbox::{self, OutboxError, Transition};
use pixgate_domain::json::Invalid;
use pixgate_domain::money::brl;
use pixgate_domain::refund::RefundRequest;
use pixgate_domain::{IdempotencyKey, IntentStatus, StoreMode};
use pixgate_pix::apipix::{Natureza, devolucao_id_for};
use view::{RefundEnvelope, RefundListEnvelope, RefundView};

pub use crate::db::intents::Resolution;
/// How long after its payment a pix can be refunded (the SPI's limit for a devolução).
pub use crate::psp::live::pix_reads::REFUND_WINDOW_MS;

#[derive(Debug, thiserror::Error)]
pub enum RefundError {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error(transparent)]
    MissingScope(#[from] MissingScope),
    #[error("payment intent not found")]
    IntentNotFound,
    #[error("refund not found")]
    RefundNotFound,
    #[error("{0}")]
    NotRefundable(String),
    #[error("{0}")]
    ExceedsRefundable(String),
    #[error("this Idempotency-Key was used with a different request")]
    KeyReused,
    #[error("a request with this Idempotency-Key is in progress; retry")]
    KeyInUse,
    #[error("{0}")]
    NotResolvable(String),
    #[error("{0}")]
    Busy(String),
    /// Details go to the log, never to the client.
    #[error(transparent)]
    Internal(#[from] Internal),
}

impl From<sqlx::Error> for RefundError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl From<DbError> for RefundError {
    fn from(e: DbError) -> Self {
        Self::Internal(e.into())
    }
}

impl From<LiveError> for RefundError {
    fn from(e: LiveError) -> Self {
        Self::Internal(Internal::of(e))
    }
}

impl From<OutboxError> for RefundError {
    fn from(e: OutboxError) -> Self {
        Self::Internal(Internal::of(e))
    }
}

/// The answer to send: a fresh refund or a replayed one.
#[derive(Debug)]
pub struct Refunded {
    pub status: u16,
    /// The envelope `{"success": true, "data": Refund}`.
    pub body: Value,
}

/// The refund service. Built once by the composition root; cheap to clone.
#[derive(Clone)]
pub struct Refunds {
    db: Db,
    /// Drives refunds at their PSP.
    live: LiveExecution,
    /// Wakes this instance's webhook sender after a resolution's event is committed.
    wake: Wake,
}

impl std::fmt::Debug for Refunds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Refunds").finish_non_exhaustive()
    }
}

impl Refunds {
    pub fn new(db: Db, live: LiveExecution, wake: Wake) -> Self {
        Self { db, live, wake }
    }

    /// Refunds `request` of payment `intent_id`, or replays what this Idempotency-Key did.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, intent = %intent_id, refund = tracing::field::Empty))]
    pub async fn create(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        intent_id: &str,
        request: RefundRequest,
    ) -> Result<Refunded, RefundError> {
        principal.require_any(&[Scope::PaymentsRefund])?;
        let intent = self.intent(principal, intent_id).await?;
        let fingerprint = request.fingerprint(&intent.id);
        if let Some(existing) =
            refunds::by_key(&self.db.read, &principal.merchant_id, key.as_str()).await?
        {
            return self.replay_or_resume(existing, &fingerprint).await;
        }

        let now = db::now_ms();
        if intent.routing_mode != StoreMode::Live || intent.status != IntentStatus::Succeeded {
            return Err(RefundError::NotRefundable(match intent.routing_mode {
                StoreMode::Shadow => "a SHADOW payment moved no money: nothing to refund".into(),
                StoreMode::Live => format!(
                    "only a SUCCEEDED payment can be refunded; this one is {}",
                    intent.status.as_str()
                ),
            }));
        }
        let (Some(e2eid), Some(paid_at)) = (&intent.provider_payment_id, intent.completed_at)
        else {
            return Err(Internal::broken(format!(
                "succeeded intent {} without its pix",
                intent.id
            ))
            .into());
        };
        if now >= paid_at + REFUND_WINDOW_MS {
            return Err(RefundError::NotRefundable(format!(
                "a pix can be refunded within 90 days of its payment; this one was paid at {}",
                pixgate_pix::time::iso8601(paid_at)
            )));
        }
        let paid = paid_centavos(&intent);
        let amount = match request.amount {
            Some(amount) => amount.centavos() as i64,
            None => paid - refunds::reserved(&self.db.read, &intent.id).await?,
        };
        if amount <= 0 {
            return Err(RefundError::ExceedsRefundable(
                "nothing is left to refund on this payment".into(),
            ));
        }

        let id = uuid::Uuid::now_v7();
        tracing::Span::current().record("refund", tracing::field::display(id));
        let mine = now + self.live.lease().as_millis() as i64;
        let refund = Refund {
            id: id.to_string(),
            merchant_id: principal.merchant_id.clone(),
            payment_intent_id: intent.id.clone(),
            status: RefundStatus::Pending,
            amount_centavos: amount,
            currency: intent.currency.clone(),
            reason: request.reason.clone(),
            metadata: request.metadata.clone(),
            origin: Origin::Merchant,
            idempotency_key: Some(key.as_str().to_owned()),
            request_hash: Some(fingerprint.clone()),
            response_body: None,
            natureza: Natureza::Original.as_str().to_owned(),
            provider_code: intent.provider_code.clone(),
            e2eid: e2eid.clone(),
            devolucao_id: devolucao_id_for(id),
            rtr_id: None,
            failure_code: None,
            failure_message: None,
            psp_attempted: Flag(false),
            lease_until: Some(mine),
            // After a crash, the reconciler takes it over once the lease ran out.
            reconcile_at: Some(mine),
            created_at: now,
            updated_at: now,
            completed_at: None,
        };
        // The refund row (and its key) first, the intent's reservation second: the order in
        // which a refund's settlement takes the same two rows (its refund, then its intent).
        // The other order deadlocks on PostgreSQL when a duplicate's insert waits on the key
        // of a refund being settled while holding the intent that settlement needs.
        let mut tx = self.db.write.begin().await?;
        match refunds::insert(&mut *tx, &refund).await {
            Ok(()) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                // A concurrent request with this key recorded its refund first.
                tx.rollback().await?;
                let winner = refunds::by_key(&self.db.read, &principal.merchant_id, key.as_str())
                    .await?
                    .ok_or(RefundError::KeyInUse)?;
                return self.replay_or_resume(winner, &fingerprint).await;
            }
            Err(e) => return Err(e.into()),
        }
        if !refunds::reserve(&mut *tx, &intent.id, amount, paid).await? {
            let reserved = refunds::reserved(&mut *tx, &intent.id).await?;
            tx.rollback().await?;
            return Err(RefundError::ExceedsRefundable(format!(
                "{:.2} of this payment's {:.2} is left to refund (counting refunds in progress)",
                brl((paid - reserved).max(0) as u64),
                brl(paid as u64)
            )));
        }
        tx.commit().await?;
        if let Err(e) = self.live.drive_held_refund(&refund.id, mine).await {
            tracing::warn!(error = %e, "refund: not driven; the reconciler tries again");
        }
        self.answer(&refund.id, false).await
    }

    /// The answer for a key that already made a refund: its stored answer (replayed), 409 for
    /// another body or while its request is still in progress, or, when its request died
    /// before answering, the refund taken over and answered now.
    async fn replay_or_resume(
        &self,
        existing: Refund,
        fingerprint: &str,
    ) -> Result<Refunded, RefundError> {
        if existing.request_hash.as_deref() != Some(fingerprint) {
            return Err(RefundError::KeyReused);
        }
        if let Some(body) = &existing.response_body {
            let mut body: Value = serde_json::from_str(body)
                .map_err(|e| Internal::caused("stored refund answer", e))?;
            body["data"]["idempotentReplay"] = Value::Bool(true);
            return Ok(Refunded { status: 200, body });
        }
        let now = db::now_ms();
        if existing.status == RefundStatus::Pending {
            let mine = now + self.live.lease().as_millis() as i64;
            if !refunds::take_lease(&self.db.write, &existing.id, now, mine).await? {
                return Err(RefundError::KeyInUse);
            }
            if let Err(e) = self.live.drive_held_refund(&existing.id, mine).await {
                tracing::warn!(refund = %existing.id, error = %e,
                    "refund: not driven; the reconciler tries again");
            }
        }
        self.answer(&existing.id, false).await
    }

    /// The refund as it is now, kept as the key's answer.
    async fn answer(&self, id: &str, replay: bool) -> Result<Refunded, RefundError> {
        let refund = refunds::by_id(&self.db.write, id)
            .await?
            .ok_or_else(|| Internal::broken(format!("refund {id} vanished")))?;
        let body = serde_json::to_value(RefundEnvelope {
            success: true,
            data: RefundView::from_row(&refund, replay),
        })
        .map_err(|e| Internal::caused("the refund's answer", e))?;
        refunds::set_response(&self.db.write, id, &body.to_string()).await?;
        Ok(Refunded { status: 200, body })
    }

    /// A payment's refunds, oldest first.
    pub async fn list(
        &self,
        principal: &Principal,
        intent_id: &str,
    ) -> Result<RefundListEnvelope, RefundError> {
        principal.require_any(&READ_SCOPES)?;
        let intent = self.intent(principal, intent_id).await?;
        let data = refunds::for_intent(&self.db.read, &intent.id)
            .await?
            .iter()
            .map(|r| RefundView::from_row(r, false))
            .collect();
        Ok(RefundListEnvelope {
            success: true,
            data,
        })
    }

    /// Any payment's refunds, oldest first: the admin's view of one payment.
    pub async fn list_any(&self, intent_id: &str) -> Result<Vec<RefundView>, RefundError> {
        let id = uuid::Uuid::parse_str(intent_id)
            .map_err(|_| RefundError::IntentNotFound)?
            .to_string();
        intents::by_id(&self.db.read, &id)
            .await?
            .ok_or(RefundError::IntentNotFound)?;
        Ok(refunds::for_intent(&self.db.read, &id)
            .await?
            .iter()
            .map(|r| RefundView::from_row(r, false))
            .collect())
    }

    /// One refund, if its payment's store is granted to the key.
    pub async fn get(
        &self,
        principal: &Principal,
        refund_id: &str,
    ) -> Result<RefundEnvelope, RefundError> {
        principal.require_any(&READ_SCOPES)?;
        let id = uuid::Uuid::parse_str(refund_id)
            .map_err(|_| RefundError::RefundNotFound)?
            .to_string();
        let refund = refunds::by_id(&self.db.read, &id)
            .await?
            .filter(|r| r.merchant_id == principal.merchant_id)
            .ok_or(RefundError::RefundNotFound)?;
        self.intent(principal, &refund.payment_intent_id)
            .await
            .map_err(|_| RefundError::RefundNotFound)?;
        Ok(RefundEnvelope {
            success: true,
            data: RefundView::from_row(&refund, false),
        })
    }

    /// The key's merchant's intent, if its store is granted (404 otherwise, as for reads).
    async fn intent(
        &self,
        principal: &Principal,
        intent_id: &str,
    ) -> Result<intents::Intent, RefundError> {
        let id = uuid::Uuid::parse_str(intent_id)
            .map_err(|_| RefundError::IntentNotFound)?
            .to_string();
        intents::by_id(&self.db.read, &id)
            .await?
            .filter(|i| i.merchant_id == principal.merchant_id && principal.granted(&i.store_id))
            .ok_or(RefundError::IntentNotFound)
    }

    /// An admin's resolution of a charge concluded at its PSP with a pix of another amount
    /// (DESIGN.md section 11). `accept` ends it `SUCCEEDED` at the pix's settlement time, with
    /// the amount received kept beside the amount asked, and writes its event. `refund`
    /// reserves and records a refund of what was received less what was already refunded (a
    /// MED's included), with `reason` as the devolução's `descricao`, and drives it: the
    /// intent stays `PENDING` until that devolução is made, and ends `CANCELED` then (in the
    /// refund's settlement, [`crate::psp::live::LiveExecution`]); a devolução that is not made
    /// leaves it resolvable again. Either writes the resolution and its audit event in one
    /// transaction.
    #[tracing::instrument(skip_all, fields(intent = %intent_id, action = action.as_str()))]
    pub async fn resolve(
        &self,
        actor: &Actor,
        intent_id: &str,
        action: Resolution,
        reason: &str,
    ) -> Result<PaymentIntentEnvelope, RefundError> {
        let id = uuid::Uuid::parse_str(intent_id)
            .map_err(|_| RefundError::IntentNotFound)?
            .to_string();
        let intent = intents::by_id(&self.db.read, &id)
            .await?
            .ok_or(RefundError::IntentNotFound)?;
        if intent.money_back.received_e2eid.is_none() {
            return Err(RefundError::NotResolvable(format!(
                "only a PENDING payment that received a pix of another amount, or a canceled one \
                 paid all the same, can be resolved; this one is {} and received none",
                intent.status.as_str()
            )));
        }
        if paid_after_cancel(&intent) {
            return self.give_back(actor, &id, action, reason).await;
        }
        if intent.status != IntentStatus::Pending {
            return Err(RefundError::NotResolvable(format!(
                "this payment was already resolved: it is {}",
                intent.status.as_str()
            )));
        }
        // The settlement lease keeps the reconciler, callbacks and other resolutions off the
        // intent meanwhile; a read in progress (a second or so) is waited for.
        let waited_since = tokio::time::Instant::now();
        let (now, mine) = loop {
            let now = db::now_ms();
            let mine = now + self.live.lease().as_millis() as i64;
            if intents::take_lease(&self.db.write, &id, now, mine).await? {
                break (now, mine);
            }
            if waited_since.elapsed() >= std::time::Duration::from_secs(5) {
                return Err(RefundError::Busy(
                    "the payment is being settled right now; retry".into(),
                ));
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        };
        let decided = self.decide(actor, &id, action, reason, now, mine).await;
        // Given back whatever happened; a moved intent ignores it. A resolved one is not read
        // again by the reconciler (`intents::due_for_reconcile`).
        intents::release_lease(&self.db.write, &id, mine, now).await?;
        let refund_id = decided?;
        if action == Resolution::Accept {
            self.wake.wake();
        }
        // The reason is free text an admin typed for the payer: it stays out of the log.
        tracing::info!("payment with a wrong amount resolved by an admin");
        self.resolved(&id, refund_id, mine).await
    }

    /// A canceled (or failed) charge the PSP took a pix for anyway (DESIGN.md section 18's
    /// `paid_after_cancel`): its only exit is `refund`, a devolução of what was received less
    /// what was already given back; it stays `CANCELED`, as the contract keeps every ended
    /// status, so `accept` is refused (the merchant charges again if it wants the money).
    /// Nothing settles a canceled charge, so there is no settlement lease to take: the
    /// refund's reservation keeps two resolutions from giving the pix back twice.
    async fn give_back(
        &self,
        actor: &Actor,
        id: &str,
        action: Resolution,
        reason: &str,
    ) -> Result<PaymentIntentEnvelope, RefundError> {
        if action == Resolution::Accept {
            return Err(RefundError::NotResolvable(
                "a canceled payment stays canceled: give the pix it received back (`refund`); the \
                 merchant charges again if it still wants the money"
                    .into(),
            ));
        }
        let now = db::now_ms();
        let mine = now + self.live.lease().as_millis() as i64;
        let refund_id = self.decide(actor, id, action, reason, now, mine).await?;
        tracing::info!("payment received after its cancel given back by an admin");
        self.resolved(id, refund_id, mine).await
    }

    /// Drives the resolution's refund, if any, and answers the intent as it is now.
    async fn resolved(
        &self,
        id: &str,
        refund_id: Option<String>,
        mine: i64,
    ) -> Result<PaymentIntentEnvelope, RefundError> {
        if let Some(refund_id) = refund_id
            && let Err(e) = self.live.drive_held_refund(&refund_id, mine).await
        {
            tracing::warn!(error = %e, "resolution refund: not driven; the reconciler tries again");
        }
        let intent = intents::by_id(&self.db.read, id)
            .await?
            .ok_or(RefundError::IntentNotFound)?;
        let store = catalog::store_by_id(&self.db.read, &intent.store_id)
            .await?
            .ok_or_else(|| Internal::broken(format!("intent {id} without its store")))?;
        Ok(PaymentIntentEnvelope {
            success: true,
            data: PaymentIntent::from_row(&intent, &store, false),
        })
    }

    /// The resolution itself, under the intent's lease `mine` (which a refund's row holds as
    /// its own until it is driven): one transaction. Returns the refund to drive, if any.
    async fn decide(
        &self,
        actor: &Actor,
        id: &str,
        action: Resolution,
        reason: &str,
        now: i64,
        mine: i64,
    ) -> Result<Option<String>, RefundError> {
        // Re-read under the lease: a settlement may have moved it meanwhile.
        let intent = intents::by_id(&self.db.read, id)
            .await?
            .ok_or(RefundError::IntentNotFound)?;
        let (Some(received), Some(e2eid)) = (
            intent.money_back.received_centavos,
            intent.money_back.received_e2eid.clone(),
        ) else {
            return Err(Internal::broken(format!("intent {id} lost the pix it received")).into());
        };
        let after_cancel = paid_after_cancel(&intent);
        if intent.status != IntentStatus::Pending && !after_cancel {
            return Err(RefundError::NotResolvable(format!(
                "this payment was already resolved: it is {}",
                intent.status.as_str()
            )));
        }
        if let Some(running) = refunds::pending_resolution(&self.db.read, id).await? {
            return Err(RefundError::NotResolvable(format!(
                "refund {running} resolving this payment is in progress: the payment ends \
                 CANCELED once the PSP gives the pix back, and is resolvable again if it does not"
            )));
        }
        let mut tx = self.db.write.begin().await?;
        intents::record_resolution(&mut *tx, id, action, reason).await?;
        let mut after = serde_json::json!({"resolution": action.as_str(), "reason": reason});
        let refund_id = match action {
            Resolution::Accept => {
                // The payer paid when the pix settled, not when an admin looked at it.
                let paid_at = intent.money_back.received_at.unwrap_or(now);
                let transition = Transition {
                    to: IntentStatus::Succeeded,
                    provider_payment_id: Some(&e2eid),
                    failure: None,
                    paid: None,
                    at: paid_at.max(intent.created_at),
                };
                outbox::record_transition(&mut tx, id, transition).await?;
                after["status"] = IntentStatus::Succeeded.as_str().into();
                None
            }
            Resolution::Refund => {
                // What is left of the pix: what was received less the refunds reserved so far
                // (a MED's devolução included once seen).
                let amount = received - intent.money_back.refund_reserved_centavos;
                if after_cancel && amount <= 0 {
                    tx.rollback().await?;
                    return Err(RefundError::NotResolvable(
                        "the pix this canceled payment received was given back already".into(),
                    ));
                }
                if amount <= 0 || !refunds::reserve(&mut *tx, id, amount, received).await? {
                    tx.rollback().await?;
                    return Err(RefundError::ExceedsRefundable(format!(
                        "nothing of the {:.2} received is left to give back (already refunded); \
                         accept it to close the payment",
                        brl(received as u64)
                    )));
                }
                let refund_id = uuid::Uuid::now_v7();
                refunds::insert(
                    &mut *tx,
                    &Refund {
                        id: refund_id.to_string(),
                        merchant_id: intent.merchant_id.clone(),
                        payment_intent_id: id.to_owned(),
                        status: RefundStatus::Pending,
                        amount_centavos: amount,
                        currency: intent.currency.clone(),
                        reason: Some(reason.to_owned()),
                        metadata: "{}".to_owned(),
                        origin: Origin::Admin,
                        idempotency_key: None,
                        request_hash: None,
                        response_body: None,
                        natureza: Natureza::Original.as_str().to_owned(),
                        provider_code: intent.provider_code.clone(),
                        e2eid,
                        devolucao_id: devolucao_id_for(refund_id),
                        rtr_id: None,
                        failure_code: None,
                        failure_message: None,
                        psp_attempted: Flag(false),
                        // Held until this request drove it; after a crash, the reconciler
                        // takes it over once the lease ran out.
                        lease_until: Some(mine),
                        reconcile_at: Some(mine),
                        created_at: now,
                        updated_at: now,
                        completed_at: None,
                    },
                )
                .await?;
                after["status"] = intent.status.as_str().into();
                after["refundId"] = refund_id.to_string().into();
                after["refundAmount"] = amount.into();
                Some(refund_id.to_string())
            }
        };
        // The intent's money state only: never its payer (PII).
        let change = Change::new(Action::PaymentIntentResolve, format!("payment-intent/{id}"))
            .before(&serde_json::json!({
                "status": intent.status.as_str(),
                "amount": intent.amount_centavos,
                "amountReceived": received,
                "amountRefunded": intent.money_back.refunded_centavos,
            }))
            .after(&after);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        Ok(refund_id)
    }
}

/// Whether the intent ended (`CANCELED` or `FAILED`) and its PSP took a pix for it all the same.
fn paid_after_cancel(intent: &intents::Intent) -> bool {
    matches!(intent.status, IntentStatus::Canceled | IntentStatus::Failed)
        && intent.money_back.received_e2eid.is_some()
}

/// Any of these may read refunds.
const READ_SCOPES: [Scope; 3] = [
    Scope::PaymentsCreate,
    Scope::PaymentsRead,
    Scope::PaymentsRefund,
];

/// What the payer paid: the pix an admin accepted in the charge's place, or what a due-date
/// charge's pix paid (its amount with the fine and interest, or less its discount and
/// abatement: `amountPaid`), or the charge's amount.
fn paid_centavos(intent: &intents::Intent) -> i64 {
    match (
        intent.money_back.resolution,
        intent.money_back.received_centavos,
    ) {
        (Some(Resolution::Accept), Some(received)) => received,
        _ => intent
            .amount_paid_centavos
            .unwrap_or(intent.amount_centavos),
    }
}
