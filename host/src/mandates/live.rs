//! A LIVE store's mandate (DESIGN.md section 17). The row is written first, `PENDING_AUTHORIZATION`
//! without a recurrence and held by this request for the live lease, so a retry with the same
//! key while it runs is 409 `idempotency_key_in_use` and never makes a second recurrence. Then
//! the recurrence is created along the chain's ranking ([`crate::psp::live::recurrence`]): the
//! first PSP that accepts `POST /rec` holds it, and the mandate is pinned there. Then what the
//! payer answers: the code they scan (QR journeys, `GET /rec/{idRec}?txid=`), with the first
//! payment charged at that same PSP first for `QR_WITH_FIRST_PAYMENT`, or the request pushed to
//! their bank (`POST /solicrec`). The payer's answer reaches pixgate by reads: a callback on
//! `/rec` or the reconciler ([`crate::psp::live::LiveExecution::settle_mandate`]). A first
//! payment that cannot be made fails the mandate: its code would only authorise, which is not
//! what the merchant asked for; the recurrence is canceled at its PSP.
//!
//! A request that dies after the PSP's answer leaves the row without its recurrence; once the
//! lease has run out a retry takes the row over and asks again (the orphaned recurrence, never
//! shown to a payer, expires at its PSP).

use pixgate_domain::IdempotencyKey;
use pixgate_domain::mandate::{Journey, MandateRequest, MandateStatus};
use pixgate_sandbox::chain::DecisionTrace;

use super::view::{MandateEnvelope, MandateView};
use super::{MandateError, Mandates};
use crate::access::Principal;
use crate::charges::ChargeError;
use crate::db::mandates::{self, Mandate};
use crate::db::psp_calls::{self, CallOperation};
use crate::db::store_cache::StoreRoute;
use crate::db::{self};
use crate::internal::Internal;
use crate::psp::live::recurrence::{MandateEnding, RecurrenceTerms, authorization_json};

impl Mandates {
    /// Creates the recurrence of `row` (written, and held by this request) at a PSP and what
    /// the payer answers; the mandate as it then is.
    pub(super) async fn create_live(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        request: &MandateRequest,
        route: &StoreRoute,
        row: Mandate,
        trace: &DecisionTrace,
    ) -> Result<MandateEnvelope, MandateError> {
        let live = &self.deps.live;
        let taking = crate::psp::providers::taking_mandates(&self.deps.db)
            .await
            .map_err(|e| Internal::caused("mandate: the providers that take mandates", e))?;
        let terms = RecurrenceTerms {
            reference: &request.reference,
            description: request.description.as_deref(),
            payer_name: &request.payer_name,
            payer_tax_id: &request.payer_tax_id,
            frequency: request.frequency,
            start_date: request.start_date,
            end_date: request.end_date,
            amount: request.amount,
            retry_policy: request.retry_policy,
            with_location: request.journey != Journey::Push,
        };
        let execution = live
            .create_recurrence(&trace.routes, &terms, |code| {
                taking.iter().any(|c| c == code)
            })
            .await;
        for call in &execution.calls {
            psp_calls::insert_for_mandate(&self.deps.db.write, &row.id, call).await?;
        }
        let now = db::now_ms();
        let Some(created) = execution.created else {
            let (code, message) = crate::psp::live::failure(
                &execution.calls,
                CallOperation::GetRec,
                "the recurrence",
            );
            let failure = serde_json::json!({"code": code, "message": message}).to_string();
            self.fail(&row, &failure).await?;
            return self.answer(&row.id, route, request).await;
        };
        let chosen = &trace.routes[created.route];
        let provider = chosen.gateway.provider_code.clone();
        let alias = chosen.gateway.gateway_alias.clone();
        let id_rec = created.rec.id_rec.clone();
        mandates::record_recurrence(
            &self.deps.db.write,
            &row.id,
            &provider,
            &alias,
            &id_rec,
            now,
        )
        .await?;

        let mut calls = Vec::new();
        let interval = live.interval().as_millis() as i64;
        // The first payment of a QR_WITH_FIRST_PAYMENT mandate: a charge pinned to the gateway
        // whose PSP holds the recurrence, so one code can pay it and authorise.
        // If it cannot be made, or no PSP took it, the code would only authorise: the mandate
        // fails instead, with why, and its recurrence is canceled at its PSP.
        let first_payment = match request.first_payment {
            Some(amount) => {
                let made = self
                    .first_payment(principal, key, request, amount, Some(&alias))
                    .await;
                let failed = match &made {
                    Ok(id) => crate::db::intents::by_id(&self.deps.db.write, id)
                        .await?
                        .filter(|i| i.txid.is_none())
                        .map(|i| {
                            let code = i.failure_code.unwrap_or_else(|| "psp_unavailable".into());
                            let message = i.failure_message.unwrap_or_default();
                            (code, format!("the first payment failed: {message}"))
                        }),
                    Err(e) => Some(first_payment_refusal(e)),
                };
                if let Some((code, message)) = failed {
                    tracing::warn!(mandate = %row.id, code = %code,
                        "mandate: its first payment was not made; the mandate fails");
                    mandates::record_authorization(
                        &self.deps.db.write,
                        &row.id,
                        None,
                        made.as_ref().ok().map(String::as_str),
                        now,
                        now,
                    )
                    .await?;
                    let mut calls = Vec::new();
                    if let Err(e) = live.cancel_recurrence(&provider, &id_rec, &mut calls).await {
                        tracing::warn!(mandate = %row.id, error = %e,
                            "mandate: the unused recurrence was not canceled; it expires at its PSP");
                    }
                    for call in &calls {
                        psp_calls::insert_for_mandate(&self.deps.db.write, &row.id, call).await?;
                    }
                    let failure = serde_json::json!({"code": code, "message": message}).to_string();
                    self.fail(&row, &failure).await?;
                    return self.answer(&row.id, route, request).await;
                }
                made.ok()
            }
            None => None,
        };
        let authorization = match request.journey {
            Journey::Push => {
                let account = request
                    .payer_account
                    .as_ref()
                    .ok_or_else(|| Internal::broken("a PUSH mandate without its account"))?;
                let expires_at = now + self.deps.push_expiry.as_millis() as i64;
                match live
                    .push_recurrence(
                        &provider,
                        &id_rec,
                        account,
                        &request.payer_tax_id,
                        expires_at,
                        &mut calls,
                    )
                    .await
                {
                    Ok(_) => Some(authorization_json(None, Some(expires_at))),
                    Err(e) => {
                        tracing::warn!(mandate = %row.id, error = %e,
                            "mandate: the request was not sent to the payer's bank");
                        None
                    }
                }
            }
            Journey::Qr | Journey::QrWithFirstPayment => {
                // The first payment's txid makes the code a journey 3 code.
                let txid = match &first_payment {
                    Some(id) => crate::db::intents::by_id(&self.deps.db.read, id)
                        .await?
                        .and_then(|i| i.txid),
                    None => None,
                };
                if let Some(txid) = &txid
                    && let Err(e) = live
                        .activate_with_charge(&provider, &id_rec, txid, &mut calls)
                        .await
                {
                    tracing::warn!(mandate = %row.id, error = %e,
                        "mandate: the first payment is not tied to the recurrence");
                }
                match live
                    .read_recurrence(&provider, &id_rec, txid.as_deref(), &mut calls)
                    .await
                {
                    Ok(rec) => rec
                        .dados_qr
                        .map(|qr| authorization_json(Some(&qr.pix_copia_e_cola), None)),
                    Err(e) => {
                        tracing::warn!(mandate = %row.id, error = %e,
                            "mandate: the code the payer scans was not read; the reconciler reads it");
                        None
                    }
                }
            }
        };
        for call in &calls {
            psp_calls::insert_for_mandate(&self.deps.db.write, &row.id, call).await?;
        }
        // Without an authorization yet, the reconciler's first read fills it in.
        mandates::record_authorization(
            &self.deps.db.write,
            &row.id,
            authorization.as_deref(),
            first_payment.as_deref(),
            now + interval,
            now,
        )
        .await?;
        self.answer(&row.id, route, request).await
    }

    /// Ends `row` (still `PENDING_AUTHORIZATION`) `FAILED` with `failure` (`{code, message}`).
    async fn fail(&self, row: &Mandate, failure: &str) -> Result<(), MandateError> {
        self.deps
            .live
            .move_mandate(
                row,
                MandateStatus::Failed,
                MandateEnding {
                    failure: Some(failure),
                    ..MandateEnding::default()
                },
                None,
            )
            .await
            .map_err(|e| Internal::caused("mandate: recording its failure", e))?;
        Ok(())
    }

    /// The mandate `id` as it now is, the answer of the request that made it.
    async fn answer(
        &self,
        id: &str,
        route: &StoreRoute,
        request: &MandateRequest,
    ) -> Result<MandateEnvelope, MandateError> {
        let m = mandates::get(&self.deps.db.write, id)
            .await?
            .ok_or_else(|| Internal::broken(format!("mandate {id} vanished")))?;
        Ok(MandateEnvelope {
            success: true,
            data: MandateView::from_row(&m, &route.store.code, request.payer_name.clone(), false),
        })
    }
}

/// `failure {code, message}` of a first payment the charge service refused: the refusal's own
/// code where it has one (a step's rule, a bad amount), else `first_payment_failed`; an
/// internal error's detail stays in the log.
fn first_payment_refusal(e: &MandateError) -> (String, String) {
    match e {
        MandateError::FirstPayment(charge) => match charge.as_ref() {
            ChargeError::Refused { code, message } => (
                (*code).to_owned(),
                format!("the first payment was refused: {message}"),
            ),
            ChargeError::Invalid(invalid) => (
                "first_payment_refused".into(),
                format!("the first payment was refused: {invalid}"),
            ),
            ChargeError::RoutingUnavailable(_) | ChargeError::PspUnavailable(_) => (
                "psp_unavailable".into(),
                format!("the first payment could not be made: {charge}"),
            ),
            _ => first_payment_failed(),
        },
        _ => first_payment_failed(),
    }
}

fn first_payment_failed() -> (String, String) {
    (
        "first_payment_failed".into(),
        "the first payment could not be made; create the mandate again with a new \
         Idempotency-Key"
            .into(),
    )
}
