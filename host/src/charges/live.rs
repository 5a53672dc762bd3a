//! A LIVE store's charge. The Idempotency-Key is claimed first, as an in-progress record
//! holding the chain's decision and a lease, so concurrent duplicates never both reach a
//! PSP. The charge is then created at a PSP along the decision's ranking
//! ([`crate::psp::live::execute`]), and the intent (`PENDING` with its PIX charge, or `FAILED`),
//! its trace, its PSP calls, its event and the completed idempotency record are committed in
//! one transaction.
//!
//! A crash between the PSP's answer and that commit loses nothing the merchant was told:
//! the merchant got no answer, retries with the same key once the lease has run out, and the
//! retry takes the claim over with the same intent id, the same recorded decision and the
//! same txid, so the PSP answers with the charge it already created.

use super::view::{PaymentIntent, PaymentIntentEnvelope};
use super::{ChargeError, ChargeRequest, Charged};
use crate::access::Principal;
use crate::db::psp_calls::{self, PspCall};
use crate::db::store_cache::StoreRoute;
use crate::db::{self, idempotency, intents};
use crate::internal::Internal;
use crate::psp::charge_kinds;
use crate::psp::live::cobr::{CobrOrder, Sent};
use crate::psp::live::execute::Merchant;
use crate::psp::live::failure;
use crate::webhooks::outbox;
use pixgate_domain::due::Date;
use pixgate_domain::mandate::{RecurringTerms, WINDOW_DAYS};
use pixgate_domain::{IdempotencyKey, IntentStatus};
use pixgate_pix::apipix::{Txid, txid_for};
use pixgate_sandbox::chain::DecisionTrace;
use tracing::Instrument as _;

/// The city a BR Code built from a location names when the store's configuration sets none
/// (`pix.merchant-city`); the payer's bank shows the payload at the location instead.
pub(super) const DEFAULT_CITY: &str = "BRASILIA";

impl super::Charges {
    pub(super) async fn create_live(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        request: ChargeRequest,
        route: &StoreRoute,
        fingerprint: &str,
        abandoned: Option<idempotency::Record>,
    ) -> Result<Charged, ChargeError> {
        let store = &route.store;
        let now = db::now_ms();
        let lease_until = now + self.deps.live.lease().as_millis() as i64;
        let takeover = abandoned.is_some();
        let (intent_id, trace, components, decision, canaries) = match abandoned {
            Some(record) => {
                // The dead request's decision, so this one calls the same PSP first.
                let trace: DecisionTrace = serde_json::from_str(&record.response_body)
                    .map_err(|e| Internal::caused("live charge: the claimed decision", e))?;
                let id = record.payment_intent_id.ok_or_else(|| {
                    Internal::broken("live charge: a claim without its intent id")
                })?;
                let seen = record.lease_until.unwrap_or_default();
                let mine = idempotency::take_over(
                    &self.deps.db.write,
                    &principal.merchant_id,
                    key.as_str(),
                    seen,
                    lease_until,
                )
                .await?;
                if !mine {
                    return Err(ChargeError::KeyInUse);
                }
                tracing::info!(intent = %id, store = %store.code,
                "live charge: taking over a claim whose request died");
                let decision = record.response_body;
                (id, trace, None, decision, Vec::new())
            }
            None => {
                let id = uuid::Uuid::now_v7().to_string();
                let crate::routing::Resolved {
                    components,
                    trace,
                    canaries,
                } = self
                    .resolve(route, principal, key, &request, &id, now)
                    .await?;
                let decision = crate::routing::recorded_trace(&trace, &canaries)?;
                let claimed = idempotency::claim(
                    &self.deps.db.write,
                    &idempotency::NewRecord {
                        merchant_id: principal.merchant_id.clone(),
                        key: key.as_str().to_owned(),
                        request_hash: fingerprint.to_owned(),
                        response_status: 0,
                        response_body: decision.clone(),
                        payment_intent_id: Some(id.clone()),
                        created_at: now,
                        expires_at: now + self.deps.idempotency_retention_ms,
                        lease_until: Some(lease_until),
                    },
                )
                .await?;
                if !claimed {
                    return self
                        .replay_winner(principal, key, fingerprint, None, now)
                        .await;
                }
                (id, trace, Some(components), decision, canaries)
            }
        };
        tracing::Span::current().record("intent", intent_id.as_str());

        // From the intent id the key's claim holds, not from the key alone: a retry (or a
        // takeover) names the same charge, while the same key reused after its retention names a
        // new one instead of the old, perhaps paid, charge.
        let txid = Txid::parse(&txid_for(&store.id, &intent_id))
            .map_err(|e| Internal::caused("live charge: txid", e))?;
        let config = store.config_map();
        let merchant = Merchant {
            name: &store.name,
            city: config
                .get("pix.merchant-city")
                .map_or(DEFAULT_CITY, String::as_str),
        };
        let (intent, calls) = match &request.recurring {
            Some(recurring) => {
                self.recurring_at_psp(
                    principal, route, key, &request, &trace, &intent_id, &txid, recurring, now,
                )
                .await?
            }
            None => {
                self.charge_at_psp(
                    principal, route, key, &request, &trace, &intent_id, &txid, takeover,
                    &merchant, now,
                )
                .await?
            }
        };
        let envelope = PaymentIntentEnvelope {
            success: true,
            data: PaymentIntent::from_row(&intent, store, false),
        };
        let body = serde_json::to_string(&envelope)
            .map_err(|e| Internal::caused("live charge: the answer", e))?;
        // The decision as claimed, with its canary arms (a takeover records the dead
        // request's).
        let trace_json = decision;

        async {
            let mut tx = self.deps.db.write.begin().await?;
            // The claim first: a request that outlived its lease, whose charge a retry took
            // over, writes nothing (the retry answers for the key).
            let completed = idempotency::complete(
                &mut *tx,
                &principal.merchant_id,
                key.as_str(),
                lease_until,
                200,
                &body,
            )
            .await?;
            if !completed {
                tx.rollback().await?;
                return Err(ChargeError::KeyInUse);
            }
            intents::insert(&mut *tx, &intent).await?;
            intents::insert_trace(&mut *tx, &intent_id, &trace_json, now).await?;
            for call in &calls {
                psp_calls::insert(&mut *tx, Some(&intent_id), call).await?;
            }
            outbox::record_created(&mut tx, &intent)
                .await
                .map_err(|e| Internal::caused("live charge: the created event", e))?;
            tx.commit().await?;
            Ok(())
        }
        .instrument(self.deps.db.backend.transaction_span("live charge"))
        .await?;
        self.deps.wake.wake();
        self.deps
            .metrics
            .live_transition(&intent.provider_code, intent.status.as_str());
        if let Some(components) = components {
            self.after_commit(route, &intent_id, trace, components, &canaries);
        }
        Ok(Charged { status: 200, body })
    }

    /// An immediate or due-date charge created at a PSP along the decision's ranking: the
    /// intent `PENDING` with its PIX charge, or `FAILED`; and the calls made.
    #[allow(clippy::too_many_arguments)]
    async fn charge_at_psp(
        &self,
        principal: &Principal,
        route: &StoreRoute,
        key: &IdempotencyKey,
        request: &ChargeRequest,
        trace: &DecisionTrace,
        intent_id: &str,
        txid: &Txid,
        takeover: bool,
        merchant: &Merchant<'_>,
        now: i64,
    ) -> Result<(intents::Intent, Vec<PspCall>), ChargeError> {
        let store = &route.store;
        let resource = charge_kinds::resource(request.kind()).ok_or_else(|| {
            Internal::broken(format!(
                "live charge: no API Pix resource serves {}",
                request.kind()
            ))
        })?;
        let execution = self
            .deps
            .live
            .create_at_psp(
                resource,
                takeover,
                &trace.routes,
                trace.policy.output.cross_release_class_failover,
                txid,
                request,
                u32::try_from(store.charge_expiry_seconds).unwrap_or(86_400),
                merchant,
            )
            .await;
        let at = db::now_ms();
        let route_index = execution.created.as_ref().map_or(0, |c| c.route);
        let mut intent = self.new_intent(
            principal,
            route,
            key,
            request,
            trace,
            route_index,
            intent_id,
            now,
        )?;
        intent.updated_at = at;
        match &execution.created {
            Some(created) => {
                intent.status = IntentStatus::Pending;
                intent.completed_at = None;
                intent.txid = Some(txid.as_str().to_owned());
                intent.pix_location = created.charge.location.clone();
                intent.pix_copy_paste = Some(created.copy_and_paste.clone());
                intent.pix_expires_at = Some(created.expires_at);
                intent.reconcile_at = Some(at + self.deps.live.interval().as_millis() as i64);
            }
            None => {
                let (code, message) = failure(
                    &execution.calls,
                    resource.operations().get,
                    "the PIX charge",
                );
                intent.status = IntentStatus::Failed;
                intent.failure_code = Some(code.to_owned());
                intent.failure_message = Some(message);
                intent.completed_at = Some(at);
            }
        }
        Ok((intent, execution.calls))
    }

    /// A recurring charge at the PSP of its mandate (pinned there: the chain's only route),
    /// sent as an API Pix `cobr` when the window is open, else held `SCHEDULED` until it
    /// opens; a PSP that cannot be reached holds it `SCHEDULED` too, sent again by the
    /// reconciler within the window. The intent and the calls made.
    #[allow(clippy::too_many_arguments)]
    async fn recurring_at_psp(
        &self,
        principal: &Principal,
        route: &StoreRoute,
        key: &IdempotencyKey,
        request: &ChargeRequest,
        trace: &DecisionTrace,
        intent_id: &str,
        txid: &Txid,
        recurring: &RecurringTerms,
        now: i64,
    ) -> Result<(intents::Intent, Vec<PspCall>), ChargeError> {
        let today = Date::from_unix_seconds_brasilia(now / 1000);
        let opens = recurring.due_date.add_days(-WINDOW_DAYS);
        let mut calls = Vec::new();
        let sent = if today < opens {
            None
        } else {
            let order = CobrOrder {
                mandate_id: &recurring.mandate_id,
                txid: txid.as_str(),
                amount: request.amount,
                due_date: recurring.due_date,
                description: request.description.as_deref(),
            };
            Some(
                self.deps
                    .live
                    .send_cobr(&order, &mut calls)
                    .await
                    .map_err(|e| Internal::caused("live charge: the recurring charge", e))?,
            )
        };
        let at = db::now_ms();
        let mut intent =
            self.new_intent(principal, route, key, request, trace, 0, intent_id, now)?;
        intent.updated_at = at;
        intent.txid = Some(txid.as_str().to_owned());
        intent.completed_at = None;
        let interval = self.deps.live.interval().as_millis() as i64;
        match sent {
            None => {
                intent.status = IntentStatus::Scheduled;
                intent.reconcile_at = Some(brasilia_midnight_ms(opens));
            }
            Some(Sent::Later(why)) => {
                tracing::warn!(intent = %intent_id, error = %why,
                    "recurring charge: its PSP did not take it now; sent again later");
                intent.status = IntentStatus::Scheduled;
                intent.reconcile_at = Some(at + interval);
            }
            Some(Sent::Created(_)) => {
                intent.status = IntentStatus::Pending;
                intent.reconcile_at = Some(at + interval);
            }
            Some(Sent::Refused { code, message }) => {
                intent.status = IntentStatus::Failed;
                intent.txid = None;
                intent.failure_code = Some(code.to_owned());
                intent.failure_message = Some(message);
                intent.completed_at = Some(at);
            }
        }
        Ok((intent, calls))
    }
}

/// The first instant of `date` in Brasília (UTC-3), in Unix ms.
pub(crate) fn brasilia_midnight_ms(date: Date) -> i64 {
    (date.days_since_unix_epoch() * 86_400 + 3 * 3_600) * 1_000
}
