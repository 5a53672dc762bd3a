//! Canceling a `PENDING` LIVE charge (DESIGN.md section 11): `PATCH` of its charge to
//! `REMOVIDA_PELO_USUARIO_RECEBEDOR` at the PSP that holds it, then `CANCELED` with its event.
//! A recurring charge (section 17) is canceled with `PATCH /cobr` `CANCELADA`, or, still
//! `SCHEDULED`, without asking its PSP.
//!
//! The race with a payment landing at the same moment is settled by the PSP: it refuses to
//! remove a paid charge, and pixgate then reads the charge and settles it as the read says
//! (`SUCCEEDED`). The cancel holds the intent's settlement lease throughout, so a callback or
//! the reconciler cannot move the intent between the PATCH and the commit: the intent ends
//! with one truth, never both a cancel and a success.

use std::time::Duration;

use super::LiveError;
use super::settle::{Settled, at_psp};
use super::verdict::CancelReason;
use crate::db::{self, intents};
use crate::psp::client::{CallOperation, PspError};
use crate::psp::providers::ProviderError;
use crate::webhooks::outbox::Transition;
use pixgate_domain::{ChargeKind, IntentStatus};
use pixgate_pix::apipix::{CobStatus, CobrStatus};

/// What a cancel came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CancelOutcome {
    /// The intent is `CANCELED` (by this call, or already).
    Canceled,
    /// The intent is in `status` and cannot be canceled; `why` says so in words.
    NotCancelable { status: IntentStatus, why: String },
    /// The PSP could not be reached or read; the intent is unchanged and a retry may succeed.
    Unavailable(String),
}

/// How long a cancel waits for a settlement in progress (a callback's read) to finish.
const WAIT_FOR_LEASE: Duration = Duration::from_secs(5);

impl super::LiveExecution {
    /// Cancels intent `id` at its PSP, or says why not.
    #[tracing::instrument(skip_all, fields(intent = %id))]
    pub async fn cancel(&self, id: &str) -> Result<CancelOutcome, LiveError> {
        let waited_since = tokio::time::Instant::now();
        let mine = loop {
            let now = db::now_ms();
            let mine = now + self.settings.lease().as_millis() as i64;
            if intents::take_lease(&self.db.write, id, now, mine).await? {
                break mine;
            }
            let intent = intents::by_id(&self.db.read, id)
                .await?
                .ok_or_else(|| LiveError::Corrupt(format!("intent {id} vanished")))?;
            if !matches!(
                intent.status,
                IntentStatus::Pending | IntentStatus::Scheduled
            ) {
                return Ok(not_pending(intent.status));
            }
            if waited_since.elapsed() >= WAIT_FOR_LEASE {
                return Ok(CancelOutcome::Unavailable(
                    "the payment is being settled right now; retry".to_owned(),
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let result = self.remove(id).await;
        // Given back whatever happened: a moved intent ignores it, a pending one is read again
        // by the reconciler one interval from now.
        let next = db::now_ms() + self.settings.interval().as_millis() as i64;
        intents::release_lease(&self.db.write, id, mine, next).await?;
        result
    }

    async fn remove(&self, id: &str) -> Result<CancelOutcome, LiveError> {
        let intent = intents::by_id(&self.db.read, id)
            .await?
            .ok_or_else(|| LiveError::Corrupt(format!("intent {id} vanished")))?;
        if intent.kind == ChargeKind::Recurring {
            return self.remove_recurring(&intent).await;
        }
        if intent.status != IntentStatus::Pending {
            return Ok(not_pending(intent.status));
        }
        let (resource, txid) = at_psp(&intent)?;
        let client = match self
            .providers
            .client(&self.db, &self.master_key, &intent.provider_code)
            .await
        {
            Ok(client) => client,
            // An operator switched the provider off: nothing can be asked of its PSP now, and
            // the charge may still be paid there, so the intent stays as it is and the client
            // retries once the provider is back (DESIGN.md section 11).
            Err(ProviderError::Inactive(_)) => {
                return Ok(CancelOutcome::Unavailable(
                    "the payment's PSP is not available right now (its provider is switched \
                     off); the payment is unchanged: retry later"
                        .to_owned(),
                ));
            }
            Err(e) => return Err(e.into()),
        };
        let patched = self
            .call_charge(
                &intent,
                resource.operations().patch,
                client.remove_charge(resource, &txid),
            )
            .await?;
        if let Ok(removed) = &patched
            && matches!(
                removed.status,
                CobStatus::RemovidaPeloUsuarioRecebedor | CobStatus::RemovidaPeloPsp
            )
        {
            let moved = self
                .commit(
                    &intent,
                    Transition {
                        to: IntentStatus::Canceled,
                        provider_payment_id: None,
                        failure: None,
                        paid: None,
                        at: db::now_ms().max(intent.created_at),
                    },
                )
                .await?;
            tracing::info!(
                reason = CancelReason::RemovedByReceiver.as_str(),
                "canceled"
            );
            return Ok(match moved {
                Settled::Moved(_) => CancelOutcome::Canceled,
                _ => self.as_now(id).await?,
            });
        }
        // Refused (a paid charge), answered oddly, or not answered: the charge's record at
        // the PSP decides.
        let read = self.read_charge(&intent, &client, resource, &txid).await?;
        let charge = match read {
            Ok(charge) => charge,
            Err(e) => {
                let why = match &patched {
                    Err(PspError::Refused { .. }) => format!("the PSP refused the removal: {e}"),
                    _ => format!("the PSP could not be reached: {e}"),
                };
                return Ok(CancelOutcome::Unavailable(why));
            }
        };
        match self
            .move_on_read(&intent, &client, resource, &charge)
            .await?
        {
            Settled::Moved(IntentStatus::Canceled) => Ok(CancelOutcome::Canceled),
            Settled::Moved(status) => Ok(CancelOutcome::NotCancelable {
                status,
                why: format!(
                    "the payment was {} at the PSP before it could be canceled",
                    status.as_str()
                ),
            }),
            Settled::NotOurs => self.as_now(id).await,
            Settled::StillPending => match patched {
                Err(PspError::Refused { .. }) => {
                    let why = if intent.money_back.received_e2eid.is_some()
                        || charge.status == CobStatus::Concluida
                    {
                        "a pix of another amount was received for it: an admin resolves it \
                         (refund or accept)"
                            .to_owned()
                    } else {
                        "the PSP refused to remove the charge".to_owned()
                    };
                    Ok(CancelOutcome::NotCancelable {
                        status: IntentStatus::Pending,
                        why,
                    })
                }
                _ => Ok(CancelOutcome::Unavailable(
                    "the PSP did not confirm the removal; retry".to_owned(),
                )),
            },
        }
    }

    /// Cancels a recurring charge (its lease held): a `SCHEDULED` one was never sent and ends
    /// here; a `PENDING` one is canceled at its PSP (`PATCH /cobr/{txid}`), which allows it
    /// until the day before its first attempt.
    async fn remove_recurring(&self, intent: &intents::Intent) -> Result<CancelOutcome, LiveError> {
        let canceled = Transition {
            to: IntentStatus::Canceled,
            provider_payment_id: None,
            failure: None,
            paid: None,
            at: db::now_ms().max(intent.created_at),
        };
        match intent.status {
            IntentStatus::Scheduled => {}
            IntentStatus::Pending => {
                let txid = intent.txid.as_deref().ok_or_else(|| {
                    LiveError::Corrupt(format!("recurring intent {} without its txid", intent.id))
                })?;
                let client = match self
                    .providers
                    .client(&self.db, &self.master_key, &intent.provider_code)
                    .await
                {
                    Ok(client) => client,
                    Err(ProviderError::Inactive(_)) => {
                        return Ok(CancelOutcome::Unavailable(
                            "the payment's PSP is not available right now (its provider is \
                             switched off); the payment is unchanged: retry later"
                                .to_owned(),
                        ));
                    }
                    Err(e) => return Err(e.into()),
                };
                match self
                    .call_charge(intent, CallOperation::PatchCobr, client.cancel_cobr(txid))
                    .await?
                {
                    Ok(cobr) if cobr.status == CobrStatus::Cancelada => {}
                    Ok(_) | Err(PspError::Refused { .. }) => {
                        return Ok(CancelOutcome::NotCancelable {
                            status: IntentStatus::Pending,
                            why: "the PSP keeps the charge: its first attempt is tomorrow or \
                                  has been made (a recurring charge is canceled until the day \
                                  before it)"
                                .to_owned(),
                        });
                    }
                    Err(e) => {
                        return Ok(CancelOutcome::Unavailable(format!(
                            "the PSP could not be reached: {e}"
                        )));
                    }
                }
            }
            other => return Ok(not_pending(other)),
        }
        Ok(match self.commit(intent, canceled).await? {
            Settled::Moved(_) => CancelOutcome::Canceled,
            _ => self.as_now(&intent.id).await?,
        })
    }

    /// The outcome the intent's current status means.
    async fn as_now(&self, id: &str) -> Result<CancelOutcome, LiveError> {
        let status = intents::by_id(&self.db.read, id)
            .await?
            .map_or(IntentStatus::Pending, |i| i.status);
        Ok(not_pending(status))
    }
}

fn not_pending(status: IntentStatus) -> CancelOutcome {
    match status {
        IntentStatus::Canceled => CancelOutcome::Canceled,
        IntentStatus::Pending => {
            CancelOutcome::Unavailable("the payment is being settled right now; retry".to_owned())
        }
        other => CancelOutcome::NotCancelable {
            status: other,
            why: format!("the payment is {}", other.as_str()),
        },
    }
}
