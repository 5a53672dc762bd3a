//! A mandate at its PSP (DESIGN.md section 17, API Pix `locrec`, `rec`, `solicrec`): the
//! recurrence created along the chain's ranking, failing over until a PSP accepts `POST /rec`
//! (a QR journey's location first, from the same PSP), the code the payer scans (`GET
//! /rec/{idRec}?txid=`: `dadosQR`), the request pushed to the payer's bank (`POST /solicrec`),
//! and the reads and the cancel that follow.
//!
//! Unlike a charge's txid, `idRec` is the PSP's: a `POST /rec` whose answer was lost may have
//! made a recurrence pixgate never learns of. It stays `CRIADA` at the PSP, never shown to a
//! payer, until the PSP expires it; the mandate row written before the first call keeps a
//! retry from making another while the first request runs.

use std::sync::Arc;
use std::time::Instant;

use crate::db::mandates::{self, Mandate};
use crate::db::psp_calls::{self, PspCall};
use crate::db::{self};
use crate::psp::client::{CallOperation, CallOutcome, PspClient, PspError};
use pixgate_domain::TaxId;
use pixgate_domain::TaxIdKind;
use pixgate_domain::due::Date;
use pixgate_domain::mandate::{Frequency, MandateAmount, MandateStatus, PayerAccount, RetryPolicy};
use pixgate_pix::apipix::{
    Amount, CalendarioRec, CalendarioSolicRec, Destinatario, Devedor, Documento, LocRec,
    Periodicidade, PoliticaRetentativa, RecCallback, RecCompleta, RecSolicitada, RecStatus,
    SolicRec, SolicRecSolicitada, Timestamp, ValorRec, Vinculo,
};
use pixgate_sandbox::chain::Route;

/// What a recurrence is asked with: the mandate's terms as API Pix `RecSolicitada` writes them.
#[derive(Debug, Clone)]
pub struct RecurrenceTerms<'a> {
    pub reference: &'a str,
    pub description: Option<&'a str>,
    pub payer_name: &'a str,
    pub payer_tax_id: &'a TaxId,
    pub frequency: Frequency,
    pub start_date: Date,
    pub end_date: Option<Date>,
    pub amount: MandateAmount,
    pub retry_policy: RetryPolicy,
    /// A QR journey's recurrence is reached through a location (`POST /locrec`); a PUSH
    /// journey's through the request sent to the payer's bank.
    pub with_location: bool,
}

/// The recurrence a PSP accepted.
#[derive(Debug, Clone)]
pub struct CreatedRecurrence {
    /// Index into the routes: the gateway whose PSP holds it.
    pub route: usize,
    pub rec: RecCompleta,
    pub location: Option<LocRec>,
}

/// What trying the ranking gave.
#[derive(Debug)]
pub struct RecurrenceExecution {
    pub created: Option<CreatedRecurrence>,
    pub calls: Vec<PspCall>,
}

pub fn documento(tax_id: &TaxId) -> Documento {
    match tax_id.kind() {
        TaxIdKind::Cpf => Documento::Cpf(tax_id.as_str().to_owned()),
        TaxIdKind::Cnpj => Documento::Cnpj(tax_id.as_str().to_owned()),
    }
}

fn periodicidade(f: Frequency) -> Periodicidade {
    match f {
        Frequency::Weekly => Periodicidade::Semanal,
        Frequency::Monthly => Periodicidade::Mensal,
        Frequency::Quarterly => Periodicidade::Trimestral,
        Frequency::Semiannual => Periodicidade::Semestral,
        Frequency::Annual => Periodicidade::Anual,
    }
}

fn amount(centavos: u64) -> Option<Amount> {
    Amount::from_centavos(centavos)
}

impl RecurrenceTerms<'_> {
    /// The body of `POST /rec`, with the location `loc` a QR journey's recurrence is reached by.
    pub fn request(&self, loc: Option<String>) -> RecSolicitada {
        RecSolicitada {
            vinculo: Vinculo {
                objeto: self.description.map(str::to_owned),
                contrato: self.reference.to_owned(),
                devedor: Devedor {
                    documento: documento(self.payer_tax_id),
                    nome: self.payer_name.to_owned(),
                },
            },
            calendario: CalendarioRec {
                data_inicial: self.start_date.to_string(),
                data_final: self.end_date.map(|d| d.to_string()),
                periodicidade: periodicidade(self.frequency),
            },
            valor: ValorRec {
                valor_rec: self.amount.fixed().and_then(|m| amount(m.centavos())),
                valor_minimo_recebedor: self.amount.minimum().and_then(|m| amount(m.centavos())),
            },
            politica_retentativa: match self.retry_policy {
                RetryPolicy::None => PoliticaRetentativa::NaoPermite,
                RetryPolicy::UpTo3In7Days => PoliticaRetentativa::Permite3R7D,
            },
            loc,
            ativacao: None,
            recebedor: None,
        }
    }
}

/// The calls of one gateway's attempt, appended to the mandate's list.
pub(super) struct CallLog<'a> {
    pub(super) provider: &'a str,
    pub(super) alias: Option<&'a str>,
    pub(super) calls: &'a mut Vec<PspCall>,
}

impl CallLog<'_> {
    fn push(&mut self, operation: CallOperation, started: Instant, result: Result<(), &PspError>) {
        let (outcome, error) = match result {
            Ok(()) => (CallOutcome::Success, None),
            Err(e) => (e.outcome(), Some(e.to_string())),
        };
        self.calls.push(PspCall {
            provider_code: self.provider.to_owned(),
            gateway_alias: self.alias.map(str::to_owned),
            operation,
            outcome,
            duration_ms: started.elapsed().as_millis() as u64,
            error,
            at: db::now_ms() - started.elapsed().as_millis() as i64,
        });
    }

    /// Runs `call`, recording it as `operation`.
    pub(super) async fn call<T>(
        &mut self,
        operation: CallOperation,
        call: impl std::future::Future<Output = Result<T, PspError>>,
    ) -> Result<T, PspError> {
        let started = Instant::now();
        let result = call.await;
        self.push(operation, started, result.as_ref().map(|_| ()));
        result
    }
}

impl super::LiveExecution {
    /// The client of `provider`, or why it cannot be used.
    pub(super) async fn recurrence_client(&self, provider: &str) -> Result<Arc<PspClient>, String> {
        self.providers
            .client(&self.db, &self.master_key, provider)
            .await
            .map_err(|e| e.to_string())
    }

    /// Tries `routes` in order until a PSP accepts the recurrence (its location first, for a
    /// QR journey). A provider without a receiving account takes no mandates and is skipped.
    #[tracing::instrument(skip_all)]
    pub async fn create_recurrence(
        &self,
        routes: &[Route],
        terms: &RecurrenceTerms<'_>,
        takes_mandates: impl Fn(&str) -> bool,
    ) -> RecurrenceExecution {
        let mut calls = Vec::new();
        for (index, route) in routes.iter().enumerate() {
            let provider = &route.gateway.provider_code;
            let alias = &route.gateway.gateway_alias;
            if !takes_mandates(provider) {
                continue;
            }
            let mut log = CallLog {
                provider,
                alias: Some(alias),
                calls: &mut calls,
            };
            let client = match self.recurrence_client(provider).await {
                Ok(client) => client,
                Err(why) => {
                    tracing::warn!(%provider, gateway = %alias, error = %why,
                        "mandate: the gateway's provider cannot be used; next gateway");
                    log.calls.push(PspCall {
                        provider_code: provider.clone(),
                        gateway_alias: Some(alias.clone()),
                        operation: CallOperation::PostRec,
                        outcome: CallOutcome::NotConfigured,
                        duration_ms: 0,
                        error: Some(why),
                        at: db::now_ms(),
                    });
                    continue;
                }
            };
            let location = if terms.with_location {
                match log
                    .call(CallOperation::PostLocrec, client.post_locrec())
                    .await
                {
                    Ok(loc) => Some(loc),
                    Err(e) => {
                        tracing::warn!(%provider, gateway = %alias, error = %e,
                            "mandate: no location for the recurrence; next gateway");
                        continue;
                    }
                }
            } else {
                None
            };
            let body = terms.request(location.as_ref().map(|l| l.id.clone()));
            match log
                .call(CallOperation::PostRec, client.post_rec(&body))
                .await
            {
                Ok(rec) => {
                    return RecurrenceExecution {
                        created: Some(CreatedRecurrence {
                            route: index,
                            rec,
                            location,
                        }),
                        calls,
                    };
                }
                Err(e) => {
                    tracing::warn!(%provider, gateway = %alias, error = %e,
                        "mandate: the PSP did not take the recurrence; next gateway");
                }
            }
        }
        RecurrenceExecution {
            created: None,
            calls,
        }
    }

    /// `GET /rec/{idRec}[?txid=]` at `provider`: the recurrence, with the code the payer scans
    /// (`dadosQR`) while it waits for them. The call is appended to `calls`.
    pub async fn read_recurrence(
        &self,
        provider: &str,
        id_rec: &str,
        txid: Option<&str>,
        calls: &mut Vec<PspCall>,
    ) -> Result<RecCompleta, String> {
        let client = self.recurrence_client(provider).await?;
        let mut log = CallLog {
            provider,
            alias: None,
            calls,
        };
        log.call(CallOperation::GetRec, client.get_rec(id_rec, txid))
            .await
            .map_err(|e| e.to_string())
    }

    /// `PATCH /rec/{idRec}` naming `txid` (the first payment's immediate charge, at the same
    /// PSP) as the charge the journey 3 code pays while it authorises.
    pub async fn activate_with_charge(
        &self,
        provider: &str,
        id_rec: &str,
        txid: &str,
        calls: &mut Vec<PspCall>,
    ) -> Result<RecCompleta, String> {
        let client = self.recurrence_client(provider).await?;
        let mut log = CallLog {
            provider,
            alias: None,
            calls,
        };
        let revision = pixgate_pix::apipix::RecRevisada {
            ativacao: Some(pixgate_pix::apipix::RecAtivacao::jornada_3(txid)),
            ..Default::default()
        };
        log.call(CallOperation::PatchRec, client.patch_rec(id_rec, &revision))
            .await
            .map_err(|e| e.to_string())
    }

    /// `POST /solicrec`: the request to authorise `id_rec`, pushed to the payer's bank, open
    /// until `expires_at` (Unix ms).
    pub async fn push_recurrence(
        &self,
        provider: &str,
        id_rec: &str,
        account: &PayerAccount,
        tax_id: &TaxId,
        expires_at: i64,
        calls: &mut Vec<PspCall>,
    ) -> Result<SolicRec, String> {
        let client = self.recurrence_client(provider).await?;
        let mut log = CallLog {
            provider,
            alias: None,
            calls,
        };
        let body = SolicRecSolicitada {
            id_rec: id_rec.to_owned(),
            calendario: CalendarioSolicRec {
                data_expiracao_solicitacao: Timestamp::from_unix_ms(expires_at),
            },
            destinatario: Destinatario {
                agencia: Some(account.branch.clone()),
                conta: account.account.clone(),
                ispb_participante: account.ispb.clone(),
                documento: documento(tax_id),
            },
        };
        log.call(CallOperation::PostSolicrec, client.post_solicrec(&body))
            .await
            .map_err(|e| e.to_string())
    }

    /// `PATCH /rec/{idRec}` `{"status": "CANCELADA"}`: the merchant cancels the recurrence.
    pub async fn cancel_recurrence(
        &self,
        provider: &str,
        id_rec: &str,
        calls: &mut Vec<PspCall>,
    ) -> Result<RecCompleta, PspError> {
        let client =
            self.recurrence_client(provider)
                .await
                .map_err(|detail| PspError::Protocol {
                    operation: CallOperation::PatchRec,
                    detail,
                })?;
        let mut log = CallLog {
            provider,
            alias: None,
            calls,
        };
        log.call(CallOperation::PatchRec, client.cancel_rec(id_rec))
            .await
    }
}

/// How much longer than a pending one an active mandate waits between reads: the payer's
/// cancel is told by a callback, and a read is the fallback (30 minutes at the default
/// interval of 30 s).
const ACTIVE_READ_FACTOR: u32 = 60;

/// Why a mandate ended, each as the JSON its view shows (`{code, message}`, a cancellation
/// with who asked); the ones not given stay as they were.
#[derive(Debug, Clone, Copy, Default)]
pub struct MandateEnding<'a> {
    pub rejection: Option<&'a str>,
    pub cancellation: Option<&'a str>,
    pub failure: Option<&'a str>,
}

/// The most mandates one reconciler pass reads.
const MANDATE_PASS: i64 = 100;

/// A cancellation as a mandate shows it: who asked (`PAYER`, `PAYER_PSP`, `MERCHANT`,
/// `MERCHANT_PSP`), the standard's code, its description.
pub fn cancellation_json(c: &pixgate_pix::apipix::Cancelamento) -> String {
    use pixgate_pix::apipix::Solicitante;
    let by = match c.solicitante {
        Solicitante::UsuarioPagador => "PAYER",
        Solicitante::PspPagador => "PAYER_PSP",
        Solicitante::UsuarioRecebedor => "MERCHANT",
        Solicitante::PspRecebedor => "MERCHANT_PSP",
        _ => "UNKNOWN",
    };
    serde_json::json!({
        "by": by,
        "code": c.codigo,
        "message": c.descricao.clone().unwrap_or_default(),
    })
    .to_string()
}

impl super::LiveExecution {
    /// Reads a LIVE mandate at its PSP and moves it as the recurrence stands (approved,
    /// rejected, expired, canceled), or fills in the code the payer scans. Claimed first (a
    /// compare-and-set of its next read), so of several instances and callbacks one reads it.
    /// True when it moved.
    #[tracing::instrument(skip_all, fields(mandate = %mandate_id))]
    pub async fn settle_mandate(&self, mandate_id: &str) -> Result<bool, super::LiveError> {
        let Some(m) = mandates::get(&self.db.read, mandate_id).await? else {
            return Ok(false);
        };
        let Some(id_rec) = m.recurrence_id.clone() else {
            return Ok(false);
        };
        if m.status.is_terminal() {
            return Ok(false);
        }
        let now = db::now_ms();
        let lease_until = now + self.settings.lease().as_millis() as i64;
        if !mandates::claim(&self.db.write, &m.id, m.reconcile_at, lease_until).await? {
            return Ok(false);
        }
        // A journey 3 code names the first payment's charge.
        let txid = match &m.first_payment_intent_id {
            Some(id) => crate::db::intents::by_id(&self.db.read, id)
                .await?
                .and_then(|i| i.txid),
            None => None,
        };
        let mut calls = Vec::new();
        let read = self
            .read_recurrence(&m.provider_code, &id_rec, txid.as_deref(), &mut calls)
            .await;
        for call in &calls {
            psp_calls::insert_for_mandate(&self.db.write, &m.id, call).await?;
        }
        let interval = self.settings.interval().as_millis() as i64;
        let rec = match read {
            Ok(rec) => rec,
            Err(e) => {
                tracing::warn!(error = %e, "mandate: not read at its PSP; read again later");
                mandates::claim(&self.db.write, &m.id, Some(lease_until), now + interval).await?;
                return Ok(false);
            }
        };
        let next = match m.status {
            MandateStatus::Active => now + interval * i64::from(ACTIVE_READ_FACTOR),
            _ => now + interval,
        };
        let rejection = rec.encerramento.as_ref().and_then(|e| e.rejeicao.as_ref());
        let cancellation = rec
            .encerramento
            .as_ref()
            .and_then(|e| e.cancelamento.as_ref());
        let moved_to = match rec.status {
            RecStatus::Aprovada if m.status == MandateStatus::PendingAuthorization => {
                Some(MandateStatus::Active)
            }
            RecStatus::Rejeitada => Some(MandateStatus::Rejected),
            RecStatus::Expirada => Some(MandateStatus::Expired),
            RecStatus::Cancelada => Some(MandateStatus::Canceled),
            _ => None,
        };
        let Some(to) = moved_to else {
            if m.authorization_json.is_none()
                && let Some(qr) = &rec.dados_qr
            {
                let authorization = authorization_json(Some(&qr.pix_copia_e_cola), None);
                mandates::record_authorization(
                    &self.db.write,
                    &m.id,
                    Some(&authorization),
                    None,
                    next,
                    now,
                )
                .await?;
            } else {
                mandates::claim(&self.db.write, &m.id, Some(lease_until), next).await?;
            }
            return Ok(false);
        };
        let rejection = rejection.map(|r| {
            serde_json::json!({"code": r.codigo, "message": r.descricao.clone().unwrap_or_default()})
                .to_string()
        });
        let cancellation = cancellation.map(cancellation_json);
        self.move_mandate(
            &m,
            to,
            MandateEnding {
                rejection: rejection.as_deref(),
                cancellation: cancellation.as_deref(),
                failure: None,
            },
            Some(now + interval * i64::from(ACTIVE_READ_FACTOR)),
        )
        .await
    }

    /// Moves mandate `m` from the status it was read with to `to`, and records the event the
    /// move emits with its deliveries, in one transaction (the outbox's rule for payments):
    /// false when someone else moved it first, and nothing is written.
    pub async fn move_mandate(
        &self,
        m: &Mandate,
        to: MandateStatus,
        ending: MandateEnding<'_>,
        reconcile_at: Option<i64>,
    ) -> Result<bool, super::LiveError> {
        let now = db::now_ms();
        let mut tx = self.db.write.begin().await?;
        let moved = mandates::transition(
            &mut *tx,
            &m.id,
            m.status,
            to,
            ending.rejection,
            ending.cancellation,
            ending.failure,
            reconcile_at,
            now,
        )
        .await?;
        if !moved {
            tx.rollback().await?;
            return Ok(false);
        }
        let after = mandates::get(&mut *tx, &m.id)
            .await?
            .ok_or_else(|| super::LiveError::Corrupt(format!("mandate {} vanished", m.id)))?;
        crate::webhooks::outbox::record_mandate_moved(&mut tx, &after).await?;
        tx.commit().await?;
        self.wake.wake();
        tracing::info!(mandate = %m.id, from = %m.status, to = %to, "mandate moved");
        if to == MandateStatus::Canceled {
            self.cancel_open_charges(&m.id).await?;
        }
        Ok(true)
    }

    /// The charges of a canceled mandate not attempted yet are canceled with it: a `SCHEDULED`
    /// one here, a `PENDING` one at its PSP (which refuses once its attempt is near or made:
    /// that one is settled by its reads).
    async fn cancel_open_charges(&self, mandate_id: &str) -> Result<(), super::LiveError> {
        for id in crate::db::intents::open_of_mandate(&self.db.read, mandate_id).await? {
            match self.cancel(&id).await {
                Ok(outcome) => {
                    tracing::info!(mandate = %mandate_id, intent = %id, ?outcome,
                        "mandate canceled: its charge")
                }
                Err(e) => tracing::warn!(mandate = %mandate_id, intent = %id, error = %e,
                    "mandate canceled: its charge was not canceled"),
            }
        }
        Ok(())
    }

    /// One reconciler pass over the LIVE mandates whose read is due: how many moved.
    pub(super) async fn mandate_pass(&self) -> Result<usize, super::LiveError> {
        let due = mandates::due(&self.db.read, db::now_ms(), MANDATE_PASS).await?;
        let mut moved = 0;
        for m in due {
            match self.settle_mandate(&m.id).await {
                Ok(true) => moved += 1,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(mandate = %m.id, error = %e, "reconciler: mandate not read")
                }
            }
        }
        Ok(moved)
    }
}

/// What the payer answers, as a mandate keeps it: the code they scan (a QR journey) and when
/// the request expires (PUSH).
pub fn authorization_json(copy_and_paste: Option<&str>, expires_at: Option<i64>) -> String {
    serde_json::json!({
        "copyAndPaste": copy_and_paste,
        "expiresAt": expires_at,
    })
    .to_string()
}

/// The most recurrences one callback may name.
const MAX_RECS: usize = 1_000;

impl super::LiveExecution {
    /// `POST {webhookUrl}/rec`: checks the provider and token as the pix callback does, and
    /// starts a read of each mandate the callback names (off the PSP's request). The body is
    /// read for `idRec` alone: the standard's own schema misspells a required member
    /// (`atualizacao"`), and PSPs differ in the rest. Returns how many reads it started.
    #[tracing::instrument(skip_all, fields(provider = %provider_code))]
    pub async fn receive_rec(
        &self,
        provider_code: &str,
        token: &str,
        body: &[u8],
    ) -> Result<usize, super::LiveError> {
        self.check_callback(provider_code, token).await?;
        let callback: RecCallback = serde_json::from_slice(body).map_err(|e| {
            super::LiveError::InvalidCallback(format!("line {} column {}", e.line(), e.column()))
        })?;
        let mut ids = std::collections::BTreeSet::new();
        for n in &callback.recs {
            let id = n.id_rec.as_str();
            // An idRec is 29 letters and digits in 2.9.0; anything else names nothing here.
            if !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
                ids.insert(id);
            }
            if ids.len() > MAX_RECS {
                return Err(super::LiveError::InvalidCallback(format!(
                    "a callback names at most {MAX_RECS} recurrences (idRec)"
                )));
            }
        }
        let mut started = 0;
        for id_rec in ids {
            let Some(m) = mandates::by_recurrence(&self.db.read, provider_code, id_rec).await?
            else {
                continue;
            };
            started += 1;
            let this = self.clone();
            tokio::spawn(async move {
                if let Err(e) = this.settle_mandate(&m.id).await {
                    tracing::warn!(mandate = %m.id, error = %e,
                        "callback: mandate not read; the reconciler reads it");
                }
            });
        }
        Ok(started)
    }
}
