//! One run: every page of the provider's day, matched and recorded page by page (the page's
//! findings and the run's progress in one transaction), then the intents paid here that no
//! page listed. Memory holds one page at a time.

use std::collections::{BTreeMap, HashMap};

use super::{ReconcileError, Reconciliations};
use crate::db::reconciliations::{self as sql, Finding, Local, LocalRefund, Run};
use crate::db::refunds::{Origin, RefundStatus};
use crate::db::{self, intents};
use crate::internal::Internal;
use crate::psp::live::settle::Settled;
use pixgate_domain::IntentStatus;
use pixgate_domain::due::Date;
use pixgate_domain::money::brl;
use pixgate_domain::reconciliation::{FindingKind, ReconciliationStatus};
use pixgate_pix::apipix::{DevolucaoStatus, Natureza, Pix};

/// The most pix one page of `GET /pix` asks for: the standard's maximum.
pub const MAX_PAGE: u64 = 1_000;

/// What one page found, before it is written.
struct PageFindings {
    run: String,
    at: i64,
    findings: Vec<Finding>,
}

impl PageFindings {
    fn add(&mut self, kind: FindingKind, pix: Option<&Pix>, local: Option<&Local>, detail: String) {
        self.findings.push(Finding {
            id: uuid::Uuid::now_v7().to_string(),
            reconciliation_id: self.run.clone(),
            kind,
            end_to_end_id: pix
                .map(|p| p.end_to_end_id.clone())
                .or_else(|| local.and_then(|l| l.provider_payment_id.clone())),
            txid: pix
                .and_then(|p| p.txid.clone())
                .or_else(|| local.and_then(|l| l.txid.clone())),
            amount_centavos: pix.map(|p| p.valor.centavos() as i64),
            local_amount_centavos: local.map(paid_amount),
            payment_intent_id: local.map(|l| l.id.clone()),
            refund_id: None,
            detail,
            created_at: self.at,
        });
    }
}

/// What an intent should have been paid: a due-date charge's amount paid once paid (its fine,
/// interest and discounts applied), else its amount.
fn paid_amount(local: &Local) -> i64 {
    local.amount_paid_centavos.unwrap_or(local.amount_centavos)
}

/// `[start, end)` of Brasília day `day`, in Unix ms.
fn day_bounds(day: Date) -> (i64, i64) {
    let start = crate::charges::brasilia_midnight_ms(day);
    (start, crate::charges::brasilia_midnight_ms(day.add_days(1)))
}

impl Reconciliations {
    /// Sweeps `run` to its end: `DONE`, or `FAILED` with the error that stopped it.
    pub(super) async fn sweep(&self, run: Run) {
        let outcome = self.sweep_pages(&run).await;
        let (status, error) = match &outcome {
            Ok(()) => (ReconciliationStatus::Done, None),
            Err(e) => (ReconciliationStatus::Failed, Some(e.to_string())),
        };
        if let Err(e) = &outcome {
            tracing::warn!(run = %run.id, provider = %run.provider_code, day = %run.day,
                error = %e, "reconciliation: the sweep failed");
        }
        match sql::finish(
            &self.deps.db.write,
            &run.id,
            status,
            error.as_deref(),
            db::now_ms(),
        )
        .await
        {
            Ok(true) => tracing::info!(run = %run.id, provider = %run.provider_code,
                day = %run.day, status = %status, "reconciliation: run ended"),
            Ok(false) => tracing::warn!(run = %run.id,
                "reconciliation: the run was ended by another instance meanwhile"),
            Err(e) => tracing::error!(run = %run.id, error = %e,
                "reconciliation: the run's end was not recorded; it ends FAILED once its lease passes"),
        }
    }

    async fn sweep_pages(&self, run: &Run) -> Result<(), ReconcileError> {
        let day = Date::parse(&run.day)
            .ok_or_else(|| Internal::broken(format!("run {}: day {}", run.id, run.day)))?;
        let (start, end) = day_bounds(day);
        let client = self.deps.live.provider_client(&run.provider_code).await?;
        let per_page = self.deps.page_size;
        let mut page = 0;
        loop {
            // `fim` is inclusive in the standard: the last millisecond of the day.
            let answer = client
                .list_pix(start, end - 1, page, per_page)
                .await
                .map_err(|e| ReconcileError::Psp(format!("GET /pix page {page}: {e}")))?;
            let listed = answer.pix.len() as u64;
            let found = self.match_page(run, &answer.pix).await?;
            self.record(run, &found, listed as i64).await?;
            let more = match answer.parametros.paginacao.quantidade_de_paginas {
                Some(pages) => page + 1 < pages,
                None => listed == per_page,
            };
            if !more || listed == 0 {
                break;
            }
            page += 1;
        }
        // Paid here, not listed at the PSP.
        let unlisted =
            sql::unlisted(&self.deps.db.read, &run.id, &run.provider_code, start, end).await?;
        let mut found = PageFindings {
            run: run.id.clone(),
            at: db::now_ms(),
            findings: Vec::new(),
        };
        for intent in &unlisted {
            let local = Local {
                id: intent.id.clone(),
                status: IntentStatus::Succeeded,
                amount_centavos: intent.amount_centavos,
                amount_paid_centavos: None,
                txid: intent.txid.clone(),
                provider_payment_id: intent.provider_payment_id.clone(),
            };
            found.add(
                FindingKind::MissingAtPsp,
                None,
                Some(&local),
                format!(
                    "paid here (endToEndId {}) that day; the PSP's list of the day does not have it",
                    intent.provider_payment_id.as_deref().unwrap_or("unknown")
                ),
            );
        }
        self.record(run, &found, 0).await
    }

    /// Writes a page's findings with the run's progress, in one transaction; a run ended
    /// meanwhile (its lease passed and another instance ended it) stops the sweep.
    async fn record(
        &self,
        run: &Run,
        found: &PageFindings,
        listed: i64,
    ) -> Result<(), ReconcileError> {
        let mut tx = self.deps.db.write.begin().await?;
        sql::insert_findings(&mut tx, self.deps.db.backend.params(), &found.findings).await?;
        let lease = db::now_ms() + self.lease_ms();
        if !sql::progress(&mut *tx, &run.id, listed, lease).await? {
            tx.rollback().await?;
            return Err(ReconcileError::Abandoned);
        }
        tx.commit().await?;
        let mut by_kind: BTreeMap<FindingKind, u64> = BTreeMap::new();
        for f in &found.findings {
            *by_kind.entry(f.kind).or_default() += 1;
        }
        for (kind, n) in by_kind {
            self.deps
                .metrics
                .reconciliation_findings(&run.provider_code, kind, n);
        }
        Ok(())
    }

    /// Matches a page: each pix to its intent (by txid, then by endToEndId), settling what is
    /// paid at the PSP and pending here; each devolução to its refund, recording those
    /// pixgate did not ask for.
    async fn match_page(&self, run: &Run, page: &[Pix]) -> Result<PageFindings, ReconcileError> {
        let db = &self.deps.db;
        let params = db.backend.params();
        let provider = run.provider_code.as_str();
        let txids: Vec<&str> = page.iter().filter_map(|p| p.txid.as_deref()).collect();
        let e2eids: Vec<&str> = page.iter().map(|p| p.end_to_end_id.as_str()).collect();
        let by_txid: HashMap<String, Local> =
            sql::locals_by_txid(&db.read, params, provider, &txids)
                .await?
                .into_iter()
                .filter_map(|l| Some((l.txid.clone()?, l)))
                .collect();
        let by_e2eid: HashMap<String, Local> =
            sql::locals_by_e2eid(&db.read, params, provider, &e2eids)
                .await?
                .into_iter()
                .filter_map(|l| Some((l.provider_payment_id.clone()?, l)))
                .collect();
        let mut refunds: HashMap<(String, String), LocalRefund> = HashMap::new();
        let with_devolucoes: Vec<&str> = page
            .iter()
            .filter(|p| !p.devolucoes.is_empty())
            .map(|p| p.end_to_end_id.as_str())
            .collect();
        for r in sql::refunds_of(&db.read, params, provider, &with_devolucoes).await? {
            refunds.insert((r.e2eid.clone(), r.devolucao_id.clone()), r);
        }

        let mut found = PageFindings {
            run: run.id.clone(),
            at: db::now_ms(),
            findings: Vec::new(),
        };
        for pix in page {
            let local = pix
                .txid
                .as_ref()
                .and_then(|t| by_txid.get(t))
                .or_else(|| by_e2eid.get(&pix.end_to_end_id));
            let Some(local) = local else {
                let detail = match &pix.txid {
                    None => "a pix to the key with no txid: paid outside pixgate".to_owned(),
                    Some(t) => format!("txid {t} names no charge of pixgate's at this provider"),
                };
                found.add(FindingKind::UnknownPix, Some(pix), None, detail);
                continue;
            };
            self.match_pix(&mut found, pix, local).await?;
            if !pix.devolucoes.is_empty() {
                self.match_devolucoes(&mut found, provider, pix, local, &refunds)
                    .await?;
            }
        }
        Ok(found)
    }

    /// One pix of a known intent.
    async fn match_pix(
        &self,
        found: &mut PageFindings,
        pix: &Pix,
        local: &Local,
    ) -> Result<(), ReconcileError> {
        let received = pix.valor.centavos() as i64;
        let e2eid = pix.end_to_end_id.as_str();
        match local.status {
            IntentStatus::Succeeded if local.provider_payment_id.as_deref() != Some(e2eid) => found
                .add(
                    FindingKind::UnknownPix,
                    Some(pix),
                    Some(local),
                    format!(
                        "a second payment of a charge paid by {}",
                        local
                            .provider_payment_id
                            .as_deref()
                            .unwrap_or("another pix")
                    ),
                ),
            IntentStatus::Succeeded if paid_amount(local) != received => found.add(
                FindingKind::AmountMismatch,
                Some(pix),
                Some(local),
                format!(
                    "paid R$ {} at the PSP, R$ {} here",
                    brl(received.max(0) as u64),
                    brl(paid_amount(local).max(0) as u64)
                ),
            ),
            IntentStatus::Succeeded => found.add(
                FindingKind::Matched,
                Some(pix),
                Some(local),
                "paid at the PSP and here, the same amount".to_owned(),
            ),
            IntentStatus::Pending | IntentStatus::Scheduled => {
                // Paid at the PSP, pending here: a read settles it, event included.
                let settled = self.deps.live.settle(&local.id).await;
                let now = intents::by_id(&self.deps.db.read, &local.id).await?;
                let status = now.as_ref().map(|i| i.status);
                let (kind, detail) = match (&settled, status) {
                    (_, Some(IntentStatus::Succeeded)) => (
                        FindingKind::SettledLate,
                        "paid at the PSP while pending here: settled by the sweep's read"
                            .to_owned(),
                    ),
                    _ if received != local.amount_centavos => (
                        FindingKind::AmountMismatch,
                        format!(
                            "paid R$ {} at the PSP for a charge of R$ {}: left PENDING for an \
                             admin to resolve",
                            brl(received.max(0) as u64),
                            brl(local.amount_centavos.max(0) as u64)
                        ),
                    ),
                    (Ok(Settled::NotOurs), _) => (
                        FindingKind::SettledLate,
                        "paid at the PSP while pending here: being settled by another read"
                            .to_owned(),
                    ),
                    (Err(e), _) => (
                        FindingKind::SettledLate,
                        format!(
                            "paid at the PSP while pending here; the read failed ({e}): the reconciler reads it again"
                        ),
                    ),
                    _ => (
                        FindingKind::SettledLate,
                        format!(
                            "paid at the PSP while pending here; still {} after the read",
                            status.map_or("absent", IntentStatus::as_str)
                        ),
                    ),
                };
                found.add(kind, Some(pix), Some(local), detail);
            }
            other => {
                // The anomaly of section 11, with its exit: an admin gives the pix back
                // (`POST /admin/v1/payment-intents/{id}/resolve`, `refund`).
                let first = intents::record_paid_after_cancel(
                    &self.deps.db.write,
                    &local.id,
                    received,
                    e2eid,
                    pix.horario.unix_ms(),
                )
                .await?;
                found.add(
                    FindingKind::PaidAfterCancel,
                    Some(pix),
                    Some(local),
                    if first {
                        format!(
                            "paid at the PSP, {other} here: recorded as received, for an admin to \
                             give back"
                        )
                    } else {
                        format!("paid at the PSP, {other} here")
                    },
                );
            }
        }
        Ok(())
    }

    /// The devoluções of one pix of a known intent.
    async fn match_devolucoes(
        &self,
        found: &mut PageFindings,
        provider: &str,
        pix: &Pix,
        local: &Local,
        refunds: &HashMap<(String, String), LocalRefund>,
    ) -> Result<(), ReconcileError> {
        let e2eid = pix.end_to_end_id.as_str();
        let mut unknown = Vec::new();
        for devolucao in &pix.devolucoes {
            let valor = devolucao.valor.centavos() as i64;
            let med = matches!(
                devolucao.natureza(),
                Natureza::MedOperacional | Natureza::MedFraude | Natureza::MedPixAutomatico
            );
            let refund = refunds.get(&(e2eid.to_owned(), devolucao.id.clone()));
            let expected = match devolucao.status {
                DevolucaoStatus::EmProcessamento => RefundStatus::Pending,
                DevolucaoStatus::Devolvido => RefundStatus::Succeeded,
                DevolucaoStatus::NaoRealizado => RefundStatus::Failed,
            };
            let (kind, detail) = match refund {
                None if med => (
                    FindingKind::MedRefund,
                    format!(
                        "devolução {} of nature {} the payer's bank made: recorded as a refund",
                        devolucao.id,
                        devolucao.natureza().as_str()
                    ),
                ),
                None => (
                    FindingKind::RefundMismatch,
                    format!(
                        "devolução {} ({}) pixgate never asked for, made at the PSP: recorded \
                         as a refund",
                        devolucao.id,
                        devolucao.natureza().as_str()
                    ),
                ),
                Some(_) if med => (
                    FindingKind::MedRefund,
                    format!(
                        "devolução {} of nature {}, recorded as a refund",
                        devolucao.id,
                        devolucao.natureza().as_str()
                    ),
                ),
                // Recorded from a callback or a read, but made in the PSP's portal, not
                // through pixgate: flagged however often it is seen.
                Some(r) if r.origin == Origin::Psp => (
                    FindingKind::RefundMismatch,
                    format!(
                        "devolução {} ({}) pixgate never asked for, made at the PSP: recorded \
                         as a refund",
                        devolucao.id,
                        devolucao.natureza().as_str()
                    ),
                ),
                Some(r) if r.amount_centavos != valor || r.status != expected => (
                    FindingKind::RefundMismatch,
                    format!(
                        "devolução {} is R$ {} {:?} at the PSP; the refund is R$ {} {:?}",
                        devolucao.id,
                        brl(valor.max(0) as u64),
                        devolucao.status,
                        brl(r.amount_centavos.max(0) as u64),
                        r.status
                    ),
                ),
                Some(_) => (
                    FindingKind::Matched,
                    format!("devolução {} as the refund", devolucao.id),
                ),
            };
            if refund.is_none_or(|r| r.status == RefundStatus::Pending) {
                unknown.push(devolucao.clone());
            }
            found.add(kind, Some(pix), Some(local), detail);
            if let Some(f) = found.findings.last_mut() {
                f.amount_centavos = Some(valor);
                f.local_amount_centavos = refund.map(|r| r.amount_centavos);
                f.refund_id = refund.map(|r| r.id.clone());
            }
        }
        if !unknown.is_empty() {
            // Recorded as refunds (the MED's, or made in the PSP's portal), and pending ones
            // driven, as a read of the pix would.
            self.deps
                .live
                .absorb_devolucoes(provider, &local.id, e2eid, &unknown)
                .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brasilia_day_starts_at_three_utc() {
        let (start, end) = day_bounds(Date::parse("2026-11-26").unwrap());
        // Brasília keeps UTC-3 all year since 2019.
        assert_eq!(
            pixgate_pix::time::iso8601(start),
            "2026-11-26T03:00:00.000Z"
        );
        assert_eq!(end - start, 86_400_000);
    }
}
