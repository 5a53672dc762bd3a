//! A refund at its PSP (DESIGN.md section 11): `PUT /pix/{e2eid}/devolucao/{id}` with an `id`
//! derived from the refund, so no retry of the PUT ever gives the money back twice, and
//! settlement by reading the devolução back (`GET`). Whoever drives a refund holds its lease
//! (`refunds.lease_until`): the merchant's request, the reconciler, or a callback's read.
//!
//! The one rule that keeps a refund single: once a PUT may have reached the PSP (it was sent
//! and no answer says otherwise), the devolução is read back with GET before anything else.
//! Only a definitive refusal of the first PUT, or no connection at all, ends it `FAILED` at
//! once.

use std::time::Instant;

use super::LiveError;
use crate::db::psp_calls::{self, PspCall};
use crate::db::refunds::{self, Origin, Refund, RefundStatus};
use crate::db::{self, intents};
use crate::psp::client::{CallOperation, CallOutcome, PspClient, PspError};
use crate::webhooks::outbox::{self, OutboxError, Transition};
use pixgate_domain::IntentStatus;
use pixgate_pix::apipix::{Amount, Devolucao, DevolucaoSolicitada, DevolucaoStatus, Natureza, Pix};

/// Where a refund is after it was driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundDriven {
    /// Settled (and its event written).
    Finished(RefundStatus),
    /// Asked at the PSP, or its state unknown: read again later.
    Pending,
    /// Someone else holds it, or it is no longer pending.
    NotOurs,
}

/// Failure codes a refund can end with.
const REFUSED: &str = "psp_refused";
const UNREACHABLE: &str = "psp_unavailable";
const NOT_MADE: &str = "refund_not_made";

impl super::LiveExecution {
    /// Drives refund `id` at its PSP, if no one else holds it: sends its devolução or reads
    /// it back, and settles what the PSP says.
    #[tracing::instrument(skip_all, fields(refund = %id))]
    pub async fn settle_refund(&self, id: &str) -> Result<RefundDriven, LiveError> {
        let now = db::now_ms();
        let mine = now + self.settings.lease().as_millis() as i64;
        if !refunds::take_lease(&self.db.write, id, now, mine).await? {
            return Ok(RefundDriven::NotOurs);
        }
        self.drive_held_refund(id, mine).await
    }

    /// Drives refund `id`, whose lease `mine` the caller holds; gives the lease back unless
    /// the refund settled.
    pub async fn drive_held_refund(&self, id: &str, mine: i64) -> Result<RefundDriven, LiveError> {
        let result = self.drive(id).await;
        if !matches!(result, Ok(RefundDriven::Finished(_))) {
            let next = db::now_ms() + self.settings.interval().as_millis() as i64;
            refunds::release_lease(&self.db.write, id, mine, next).await?;
        }
        result
    }

    async fn drive(&self, id: &str) -> Result<RefundDriven, LiveError> {
        let Some(refund) = refunds::by_id(&self.db.read, id).await? else {
            return Ok(RefundDriven::NotOurs);
        };
        if refund.status != RefundStatus::Pending {
            return Ok(RefundDriven::NotOurs);
        }
        let client = self
            .providers
            .client(&self.db, &self.master_key, &refund.provider_code)
            .await?;
        // A PUT may have reached the PSP before (or the PSP made it on its own): read it first.
        if refund.psp_attempted.0 || refund.origin == Origin::Psp {
            match self.read(&client, &refund).await? {
                Read::Found(devolucao) => return self.apply(&refund, &devolucao).await,
                Read::Unknown => return Ok(RefundDriven::Pending),
                // A devolução the PSP made and no longer shows is for a person to look at.
                Read::Absent if refund.origin == Origin::Psp => return Ok(RefundDriven::Pending),
                Read::Absent => {}
            }
        }
        refunds::mark_attempted(&self.db.write, &refund.id).await?;
        let request = DevolucaoSolicitada {
            valor: Amount::from_centavos(refund.amount_centavos as u64)
                .ok_or_else(|| LiveError::Corrupt(format!("refund {id} amount")))?,
            natureza: Some(Natureza::Original),
            descricao: refund.reason.clone(),
        };
        let started = Instant::now();
        let at = db::now_ms();
        let put = client
            .put_devolucao(&refund.e2eid, &refund.devolucao_id, &request)
            .await;
        self.record_call(&refund, CallOperation::PutDevolucao, &put, started, at)
            .await?;
        match put {
            Ok(devolucao) => self.apply(&refund, &devolucao).await,
            // Refused on its first PUT: it was never made, and the same PUT would be refused
            // again (past the 90 days, more than the pix, ...).
            Err(e @ PspError::Refused { .. }) if !refund.psp_attempted.0 => {
                let finished = self
                    .finish(
                        &refund,
                        RefundStatus::Failed,
                        None,
                        Some((REFUSED, &e.to_string())),
                        at,
                    )
                    .await?;
                // A refusal may mean the pix changed behind pixgate's back (a MED took part of
                // it and its callback was lost): its devoluções are read, and those pixgate did
                // not know recorded, before anyone is answered (DESIGN.md section 11).
                if let Err(e) = self.learn_devolucoes(&refund).await {
                    tracing::warn!(refund = %refund.id, error = %e,
                        "refund refused: the pix could not be read; its next scheduled read tries again");
                }
                Ok(finished)
            }
            Err(e @ (PspError::Connect { .. } | PspError::Unauthorized { .. }))
                if !refund.psp_attempted.0 =>
            {
                let message = format!("the PSP could not be reached; nothing was refunded: {e}");
                self.finish(
                    &refund,
                    RefundStatus::Failed,
                    None,
                    Some((UNREACHABLE, &message)),
                    at,
                )
                .await
            }
            // No answer, a 5xx, an unreadable one, or a refusal of a repeated PUT (v2.9.0
            // refuses an id it already has): it may exist, so it is read back.
            Err(_) => match self.read(&client, &refund).await? {
                Read::Found(devolucao) => self.apply(&refund, &devolucao).await,
                Read::Absent | Read::Unknown => Ok(RefundDriven::Pending),
            },
        }
    }

    /// `GET /pix/{e2eid}/devolucao/{id}`, recorded.
    async fn read(&self, client: &PspClient, refund: &Refund) -> Result<Read, LiveError> {
        let started = Instant::now();
        let at = db::now_ms();
        let read = client
            .get_devolucao(&refund.e2eid, &refund.devolucao_id)
            .await;
        self.record_call(refund, CallOperation::GetDevolucao, &read, started, at)
            .await?;
        Ok(match read {
            Ok(devolucao) => Read::Found(devolucao),
            Err(PspError::Refused { status: 404, .. }) => Read::Absent,
            Err(e) => {
                tracing::warn!(refund = %refund.id, error = %e,
                    "refund: the devolução could not be read; read again later");
                Read::Unknown
            }
        })
    }

    /// What the PSP's devolução means for the refund.
    async fn apply(
        &self,
        refund: &Refund,
        devolucao: &Devolucao,
    ) -> Result<RefundDriven, LiveError> {
        if devolucao.valor.centavos() != refund.amount_centavos as u64 {
            // The PSP's devolução under this id is not the one asked: a person looks at it.
            tracing::warn!(refund = %refund.id, provider = %refund.provider_code,
                "refund: the PSP's devolução under this id has another amount; left PENDING");
            self.metrics.live_anomaly(
                &refund.provider_code,
                crate::metrics::LiveAnomaly::RefundAmountMismatch,
            );
            return Ok(RefundDriven::Pending);
        }
        let now = db::now_ms();
        match devolucao.status {
            DevolucaoStatus::EmProcessamento => {
                refunds::set_rtr_id(&self.db.write, &refund.id, &devolucao.rtr_id).await?;
                Ok(RefundDriven::Pending)
            }
            DevolucaoStatus::Devolvido => {
                let at = devolucao
                    .horario
                    .liquidacao
                    .map_or(now, |t| t.unix_ms())
                    .max(refund.created_at);
                self.finish(
                    refund,
                    RefundStatus::Succeeded,
                    Some(&devolucao.rtr_id),
                    None,
                    at,
                )
                .await
            }
            DevolucaoStatus::NaoRealizado => {
                let motivo = devolucao
                    .motivo
                    .clone()
                    .unwrap_or_else(|| "the PSP did not make the devolução".to_owned());
                self.finish(
                    refund,
                    RefundStatus::Failed,
                    Some(&devolucao.rtr_id),
                    Some((NOT_MADE, &motivo)),
                    now,
                )
                .await
            }
        }
    }

    /// Settles the refund, its intent's totals and its event in one transaction.
    async fn finish(
        &self,
        refund: &Refund,
        to: RefundStatus,
        rtr_id: Option<&str>,
        failure: Option<(&str, &str)>,
        at: i64,
    ) -> Result<RefundDriven, LiveError> {
        let mut tx = self.db.write.begin().await?;
        let now = db::now_ms();
        if !refunds::finish(&mut *tx, &refund.id, to, rtr_id, failure, at, now).await? {
            tx.rollback().await?;
            return Ok(RefundDriven::NotOurs);
        }
        refunds::settle_totals(
            &mut *tx,
            &refund.payment_intent_id,
            refund.amount_centavos,
            to,
            refund.origin != Origin::Psp,
        )
        .await?;
        let settled = refunds::by_id(&mut *tx, &refund.id)
            .await?
            .ok_or_else(|| LiveError::Corrupt(format!("refund {} vanished", refund.id)))?;
        outbox::record_refund_settled(&mut tx, &settled).await?;
        if to == RefundStatus::Succeeded && refund.origin == Origin::Admin {
            // The refund of an admin's resolution gave the pix back: only now does its intent
            // end `CANCELED`, with its event, in this same transaction, whoever settled the
            // refund (its request, a callback's read or the reconciler). A failed one leaves the
            // intent `PENDING` and resolvable again (DESIGN.md section 11).
            let canceled = Transition {
                to: IntentStatus::Canceled,
                provider_payment_id: None,
                failure: None,
                paid: None,
                at,
            };
            match outbox::record_transition(&mut tx, &refund.payment_intent_id, canceled).await {
                Ok(_) => {}
                // A charge canceled here and paid at its PSP anyway: giving its pix back is the
                // whole of the exit; it stays as it ended.
                Err(OutboxError::IllegalTransition {
                    from: IntentStatus::Canceled | IntentStatus::Failed,
                    ..
                }) => {}
                // Not PENDING any more: the money went back all the same, and the refund says so.
                Err(e @ (OutboxError::Concurrent(_) | OutboxError::IllegalTransition { .. })) => {
                    tracing::warn!(refund = %refund.id, intent = %refund.payment_intent_id,
                        error = %e, "resolution refund succeeded on an intent no longer PENDING");
                }
                Err(e) => return Err(e.into()),
            }
        }
        tx.commit().await?;
        self.wake.wake();
        self.metrics
            .live_transition(&refund.provider_code, &format!("refund_{}", to.as_str()));
        Ok(RefundDriven::Finished(to))
    }

    async fn record_call<T>(
        &self,
        refund: &Refund,
        operation: CallOperation,
        result: &Result<T, PspError>,
        started: Instant,
        at: i64,
    ) -> Result<(), LiveError> {
        let call = PspCall {
            provider_code: refund.provider_code.clone(),
            gateway_alias: None,
            operation,
            outcome: result
                .as_ref()
                .map_or_else(PspError::outcome, |_| CallOutcome::Success),
            duration_ms: started.elapsed().as_millis() as u64,
            error: result.as_ref().err().map(ToString::to_string),
            at,
        };
        psp_calls::insert_for_refund(&self.db.write, &refund.payment_intent_id, &refund.id, &call)
            .await?;
        Ok(())
    }

    /// The PENDING refunds due for a read: how many settled.
    pub(super) async fn refund_pass(&self) -> Result<usize, LiveError> {
        let due = refunds::due_for_reconcile(&self.db.read, db::now_ms(), super::reconciler::PASS)
            .await?;
        let mut settled = 0;
        for id in due {
            match self.settle_refund(&id).await {
                Ok(RefundDriven::Finished(_)) => settled += 1,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(refund = %id, error = %e, "reconciler: refund not settled")
                }
            }
        }
        Ok(settled)
    }

    /// Reads the pix of a refund the PSP refused and records the devoluções of it pixgate did
    /// not know (the MED's). Its own pending refunds are left to their drivers: this runs
    /// inside one.
    async fn learn_devolucoes(&self, refund: &Refund) -> Result<(), LiveError> {
        let pix = self
            .read_pix(
                &refund.provider_code,
                &refund.payment_intent_id,
                &refund.e2eid,
            )
            .await?;
        for devolucao in &pix.devolucoes {
            if refunds::by_devolucao(
                &self.db.read,
                &refund.provider_code,
                &refund.e2eid,
                &devolucao.id,
            )
            .await?
            .is_none()
            {
                self.record_unasked(
                    &refund.provider_code,
                    &refund.payment_intent_id,
                    &refund.e2eid,
                    devolucao,
                )
                .await?;
            }
        }
        Ok(())
    }

    /// Reads pix `e2eid` of intent `intent_id` at `provider_code` (`GET /pix/{e2eid}`) and
    /// settles what its `devolucoes[]` say: a refund of pixgate's is driven (read back), and a
    /// devolução pixgate did not ask for (the MED) is recorded as a refund of the intent.
    pub(super) async fn read_pix_devolucoes(
        &self,
        provider_code: &str,
        intent_id: &str,
        e2eid: &str,
    ) -> Result<(), LiveError> {
        let pix = self.read_pix(provider_code, intent_id, e2eid).await?;
        self.absorb_devolucoes(provider_code, intent_id, e2eid, &pix.devolucoes)
            .await
    }

    /// Settles what pix `e2eid`'s `devolucoes` (as its PSP listed them) say: a refund of
    /// pixgate's still pending is driven (read back), and a devolução pixgate did not ask for
    /// (the MED, or one made in the PSP's portal) is recorded as a refund of the intent.
    pub async fn absorb_devolucoes(
        &self,
        provider_code: &str,
        intent_id: &str,
        e2eid: &str,
        devolucoes: &[Devolucao],
    ) -> Result<(), LiveError> {
        for devolucao in devolucoes {
            match refunds::by_devolucao(&self.db.read, provider_code, e2eid, &devolucao.id).await? {
                Some(refund) if refund.status == RefundStatus::Pending => {
                    if let Err(e) = self.settle_refund(&refund.id).await {
                        tracing::warn!(refund = %refund.id, error = %e,
                            "pix read: refund not settled; the reconciler tries again");
                    }
                }
                Some(_) => {}
                None => {
                    self.record_unasked(provider_code, intent_id, e2eid, devolucao)
                        .await?
                }
            }
        }
        Ok(())
    }

    /// `GET /pix/{e2eid}`, recorded in the intent's trace.
    async fn read_pix(
        &self,
        provider_code: &str,
        intent_id: &str,
        e2eid: &str,
    ) -> Result<Pix, LiveError> {
        let client = self
            .providers
            .client(&self.db, &self.master_key, provider_code)
            .await?;
        let started = Instant::now();
        let at = db::now_ms();
        let read = client.get_pix(e2eid).await;
        let call = PspCall {
            provider_code: provider_code.to_owned(),
            gateway_alias: None,
            operation: CallOperation::GetPix,
            outcome: read
                .as_ref()
                .map_or_else(PspError::outcome, |_| CallOutcome::Success),
            duration_ms: started.elapsed().as_millis() as u64,
            error: read.as_ref().err().map(ToString::to_string),
            at,
        };
        psp_calls::insert(&self.db.write, Some(intent_id), &call).await?;
        Ok(read?)
    }

    /// Records a devolução pixgate did not ask for (the MED, or one made in the PSP's portal):
    /// the money left the merchant's account either way, so it is a refund of the intent,
    /// counted in `amountRefunded` and told to the merchant like any other.
    async fn record_unasked(
        &self,
        provider_code: &str,
        intent_id: &str,
        e2eid: &str,
        devolucao: &Devolucao,
    ) -> Result<(), LiveError> {
        let Some(intent) = intents::by_id(&self.db.read, intent_id).await? else {
            return Ok(());
        };
        let now = db::now_ms();
        let natureza = devolucao.natureza();
        let refund = Refund {
            id: uuid::Uuid::now_v7().to_string(),
            merchant_id: intent.merchant_id.clone(),
            payment_intent_id: intent.id.clone(),
            status: RefundStatus::Pending,
            amount_centavos: devolucao.valor.centavos() as i64,
            currency: intent.currency.clone(),
            reason: Some(format!("devolução made by the PSP: {}", natureza.as_str())),
            metadata: "{}".to_owned(),
            origin: Origin::Psp,
            idempotency_key: None,
            request_hash: None,
            response_body: None,
            natureza: natureza.as_str().to_owned(),
            provider_code: provider_code.to_owned(),
            e2eid: e2eid.to_owned(),
            devolucao_id: devolucao.id.clone(),
            rtr_id: Some(devolucao.rtr_id.clone()),
            failure_code: None,
            failure_message: None,
            psp_attempted: crate::db::Flag(true),
            lease_until: None,
            reconcile_at: Some(now),
            created_at: devolucao
                .horario
                .solicitacao
                .unix_ms()
                .max(intent.created_at),
            updated_at: now,
            completed_at: None,
        };
        match refunds::insert(&self.db.write, &refund).await {
            Ok(()) => {}
            // Recorded meanwhile by another read of the same callback or pix.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => return Ok(()),
            Err(e) => return Err(e.into()),
        }
        tracing::warn!(intent = %intent.id, provider = %provider_code, natureza = natureza.as_str(),
            "a devolução the PSP made on its own was recorded as a refund");
        self.metrics
            .live_anomaly(provider_code, crate::metrics::LiveAnomaly::DevolucaoByPsp);
        if devolucao.status != DevolucaoStatus::EmProcessamento {
            let now = db::now_ms();
            let mine = now + self.settings.lease().as_millis() as i64;
            if refunds::take_lease(&self.db.write, &refund.id, now, mine).await? {
                self.apply(&refund, devolucao).await?;
            }
        }
        Ok(())
    }
}

enum Read {
    Found(Devolucao),
    /// The PSP has no devolução under this id: no PUT of it reached the PSP.
    Absent,
    /// The PSP could not be read now.
    Unknown,
}
