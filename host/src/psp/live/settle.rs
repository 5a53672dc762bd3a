//! Settling a `PENDING` charge: read it at its PSP (`GET` of its kind's resource), judge the read
//! ([`super::verdict`]), and move the intent with its event through the outbox. Callbacks
//! and the reconciler both come here, and only through a lease on the intent
//! (`reconcile_at`, moved by compare-and-set), so two instances never process one charge at
//! once, and a duplicate callback finds the intent already moved and changes nothing.

use std::time::Instant;

use super::LiveError;
use super::verdict::{CancelReason, Verdict, verdict};
use crate::db::psp_calls::{self, PspCall};
use crate::db::{self, intents};
use crate::psp::charge_kinds::{self, ChargeRecord, ChargeResource};
use crate::psp::client::PspError;
use crate::psp::client::{CallOperation, CallOutcome, PspClient};
use crate::webhooks::outbox::{self, Transition};
use pixgate_domain::{ChargeKind, IntentStatus};
use pixgate_pix::apipix::{CobStatus, Txid};

/// What a settlement attempt did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// The intent moved to this status (and its event was written).
    Moved(IntentStatus),
    /// Still pending at the PSP (or the PSP could not be read): read again later.
    StillPending,
    /// Another instance (or request) holds the intent's lease, or it is no longer pending.
    NotOurs,
}

impl super::LiveExecution {
    /// Settles intent `id` if no one else is settling it (its lease is free).
    #[tracing::instrument(skip_all, fields(intent = %id))]
    pub async fn settle(&self, id: &str) -> Result<Settled, LiveError> {
        let now = db::now_ms();
        let mine = now + self.settings.lease().as_millis() as i64;
        if !intents::take_lease(&self.db.write, id, now, mine).await? {
            return Ok(Settled::NotOurs);
        }
        let result = self.read_and_move(id).await;
        if !matches!(result, Ok(Settled::Moved(_))) {
            // The next read is the reconciler's, one interval from now.
            let next = db::now_ms() + self.settings.interval().as_millis() as i64;
            intents::release_lease(&self.db.write, id, mine, next).await?;
        }
        result
    }

    async fn read_and_move(&self, id: &str) -> Result<Settled, LiveError> {
        let Some(intent) = intents::by_id(&self.db.read, id).await? else {
            return Ok(Settled::NotOurs);
        };
        if intent.kind == ChargeKind::Recurring {
            return self.settle_recurring(&intent).await;
        }
        if intent.status != IntentStatus::Pending {
            return Ok(Settled::NotOurs);
        }
        let (resource, txid) = at_psp(&intent)?;
        let client = self
            .providers
            .client(&self.db, &self.master_key, &intent.provider_code)
            .await?;
        let read = self.read_charge(&intent, &client, resource, &txid).await?;
        let charge = match read {
            Ok(charge) => charge,
            // The PSP says it has no such charge. A wrong base URL or another PSP account answers
            // the same for every charge, and some of them may be paid: a person decides.
            Err(e @ PspError::Refused { status: 404, .. }) => {
                tracing::warn!(intent = %id, provider = %intent.provider_code, error = %e,
                "settlement: the PSP has no such charge; left PENDING for a person to look at");
                self.metrics.live_anomaly(
                    &intent.provider_code,
                    crate::metrics::LiveAnomaly::ChargeNotFound,
                );
                return Ok(Settled::StillPending);
            }
            Err(e) => {
                tracing::warn!(intent = %id, provider = %intent.provider_code, error = %e,
                "settlement: the PSP could not be read; the reconciler tries again");
                return Ok(Settled::StillPending);
            }
        };
        self.move_on_read(&intent, &client, resource, &charge).await
    }

    /// `GET` of the intent's charge, recorded in its trace.
    pub(super) async fn read_charge(
        &self,
        intent: &intents::Intent,
        client: &PspClient,
        resource: &dyn ChargeResource,
        txid: &Txid,
    ) -> Result<Result<ChargeRecord, PspError>, LiveError> {
        self.call_charge(
            intent,
            resource.operations().get,
            client.get_charge(resource, txid),
        )
        .await
    }

    /// Makes a call about the intent's charge and records it in the intent's trace.
    pub(super) async fn call_charge<T>(
        &self,
        intent: &intents::Intent,
        operation: CallOperation,
        call: impl std::future::Future<Output = Result<T, PspError>>,
    ) -> Result<Result<T, PspError>, LiveError> {
        let started = Instant::now();
        let at = db::now_ms();
        let result = call.await;
        let record = PspCall {
            provider_code: intent.provider_code.clone(),
            gateway_alias: Some(intent.gateway_alias.clone()),
            operation,
            outcome: result
                .as_ref()
                .map_or_else(PspError::outcome, |_| CallOutcome::Success),
            duration_ms: started.elapsed().as_millis() as u64,
            error: result.as_ref().err().map(ToString::to_string),
            at,
        };
        psp_calls::insert(&self.db.write, Some(&intent.id), &record).await?;
        Ok(result)
    }

    /// Moves the `PENDING` intent as a read of its charge says. `client` removes at the PSP an
    /// expired charge its PSP would keep payable forever (a `cobv`).
    pub(super) async fn move_on_read(
        &self,
        intent: &intents::Intent,
        client: &PspClient,
        resource: &dyn ChargeResource,
        charge: &ChargeRecord,
    ) -> Result<Settled, LiveError> {
        let id = intent.id.as_str();
        let now = db::now_ms();
        let pays = |pix: &_| resource.pays(intent, pix);
        let mut paid = None;
        let (to, payment_id, completed_at) = match verdict(charge, pays, now) {
            Verdict::Pending => return Ok(Settled::StillPending),
            Verdict::AmountMismatch { received_centavos } => {
                // Counted and logged on the first read that sees it; an admin resolves it
                // (`POST /admin/v1/payment-intents/{id}/resolve`).
                let first = match charge.pix.first() {
                    Some(pix) => {
                        intents::record_wrong_amount(
                            &self.db.write,
                            id,
                            pix.valor.centavos() as i64,
                            &pix.end_to_end_id,
                            pix.horario.unix_ms(),
                        )
                        .await?
                    }
                    // Concluded without any pix: nothing to refund or accept; logged once per
                    // read at debug level only, the charge stays PENDING.
                    None => false,
                };
                if first {
                    tracing::warn!(intent = %id, provider = %intent.provider_code,
                        expected = intent.amount_centavos, ?received_centavos,
                        "settlement: concluded at the PSP without a pix that pays the charge; \
                         left PENDING for an admin to resolve");
                    self.metrics.live_anomaly(
                        &intent.provider_code,
                        crate::metrics::LiveAnomaly::AmountMismatch,
                    );
                }
                return Ok(Settled::StillPending);
            }
            Verdict::Succeeded {
                end_to_end_id,
                paid_at,
            } => {
                paid = charge
                    .pix
                    .iter()
                    .find(|p| p.end_to_end_id == end_to_end_id)
                    .and_then(|pix| resource.paid(intent, pix));
                (IntentStatus::Succeeded, Some(end_to_end_id), paid_at)
            }
            Verdict::Canceled {
                reason: reason @ CancelReason::Expired,
            } if resource.removes_on_expiry() => {
                // Past its last payable day, yet payable for the PSP: removed there first, so
                // nothing lands after the intent is canceled. A PSP that refuses (paid in the
                // meantime) or does not answer leaves it for the next read.
                let (_, txid) = at_psp(intent)?;
                let removed = self
                    .call_charge(
                        intent,
                        resource.operations().patch,
                        client.remove_charge(resource, &txid),
                    )
                    .await?;
                match removed {
                    Ok(r) if r.status != CobStatus::Ativa && r.status != CobStatus::Concluida => {
                        tracing::info!(intent = %id, reason = reason.as_str(),
                            "settlement: removed at the PSP past its last payable day; canceled");
                        (IntentStatus::Canceled, None, now)
                    }
                    _ => return Ok(Settled::StillPending),
                }
            }
            Verdict::Canceled { reason } => {
                tracing::info!(intent = %id, reason = reason.as_str(), "settlement: canceled");
                (IntentStatus::Canceled, None, now)
            }
        };
        let transition = Transition {
            to,
            provider_payment_id: payment_id.as_deref(),
            failure: None,
            paid,
            // Never before the intent, and never ahead of this clock: a PSP's clock that runs
            // ahead (or a simulated payment date) must not date the event, and schedule its
            // deliveries, in the future.
            at: completed_at.min(now).max(intent.created_at),
        };
        self.commit(intent, transition).await
    }

    /// Moves the intent through the outbox (the transition and its event in one transaction).
    pub(super) async fn commit(
        &self,
        intent: &intents::Intent,
        transition: Transition<'_>,
    ) -> Result<Settled, LiveError> {
        let (id, to) = (intent.id.as_str(), transition.to);
        let mut tx = self.db.write.begin().await?;
        let moved = outbox::record_transition(&mut tx, id, transition).await;
        match moved {
            Ok(_) => {
                tx.commit().await?;
                self.wake.wake();
                self.metrics
                    .live_transition(&intent.provider_code, to.as_str());
                Ok(Settled::Moved(to))
            }
            // Moved by someone else meanwhile (the lease makes this rare): nothing to write.
            Err(
                outbox::OutboxError::Concurrent(_) | outbox::OutboxError::IllegalTransition { .. },
            ) => {
                tx.rollback().await?;
                Ok(Settled::NotOurs)
            }
            Err(e) => Err(e.into()),
        }
    }
}

/// The API Pix resource of a pending intent's charge and its txid.
pub(super) fn at_psp(
    intent: &intents::Intent,
) -> Result<(&'static dyn ChargeResource, Txid), LiveError> {
    let id = &intent.id;
    let resource = charge_kinds::resource(intent.kind).ok_or_else(|| {
        LiveError::Corrupt(format!(
            "intent {id}: no API Pix resource serves {}",
            intent.kind
        ))
    })?;
    let txid = intent
        .txid
        .as_deref()
        .and_then(|t| Txid::parse(t).ok())
        .ok_or_else(|| LiveError::Corrupt(format!("pending intent {id} has no txid")))?;
    Ok((resource, txid))
}
