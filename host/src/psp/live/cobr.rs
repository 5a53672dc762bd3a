//! A recurring charge at its mandate's PSP (API Pix `cobr`, DESIGN.md section 17). It goes to
//! the PSP that holds the mandate's recurrence and nowhere else: a recurrence lives at one
//! PSP, so a recurring charge never fails over. Sent once the Pix Automático window has opened
//! (10 to 2 days before its due date); when the PSP cannot be reached it is sent again later
//! within the window ([`Sent::Later`]), never to another PSP.

use pixgate_domain::due::Date;
use pixgate_domain::due::calendar::next_business_day_from;
use pixgate_domain::mandate::MIN_DAYS_AHEAD;
use pixgate_domain::recurring::{Attempt, AttemptFailure, AttemptStatus};
use pixgate_domain::{IntentStatus, Money};
use pixgate_pix::apipix::{
    Amount, CalendarioCobrSolicitado, CobrCallback, CobrCompleta, CobrSolicitada, CobrStatus,
    PoliticaRetentativa, Tentativa, TentativaStatus, Txid, ValorCobr,
};

use super::LiveError;
use super::recurrence::CallLog;
use super::settle::Settled;
use crate::db::intents::Intent;
use crate::db::psp_calls::{self, CallOperation, PspCall};
use crate::db::{self, mandates};
use crate::psp::client::ErrorKind;
use crate::webhooks::outbox::{self, OutboxError, Transition};

/// Days after the due date within which `UP_TO_3_IN_7_DAYS` retries may fall.
const RETRY_WINDOW_DAYS: i64 = 7;

/// The charge to send: `txid` for mandate `mandate_id`.
#[derive(Debug, Clone, Copy)]
pub struct CobrOrder<'a> {
    pub mandate_id: &'a str,
    pub txid: &'a str,
    pub amount: Money,
    pub due_date: Date,
    /// `infoAdicional`: what the payer's bank shows (at most 140 characters).
    pub description: Option<&'a str>,
}

/// What sending a recurring charge gave.
#[derive(Debug)]
pub enum Sent {
    /// The PSP holds it (created now, or found by a read after an answer that was lost).
    Created(Box<CobrCompleta>),
    /// The PSP could not be reached or answered something unreadable, and no charge of this
    /// txid is known there: send it again later.
    Later(String),
    /// It cannot be sent: `code` and why (the PSP refused it, the mandate has no recurrence,
    /// its provider no receiving account).
    Refused { code: &'static str, message: String },
}

impl super::LiveExecution {
    /// `PUT /cobr/{txid}` at the PSP of the mandate's recurrence, the receiving account its
    /// provider keeps as `recebedor`. A lost answer is followed by one `GET`, so a charge the PSP
    /// did create is used.
    #[tracing::instrument(skip_all, fields(txid = %order.txid))]
    pub async fn send_cobr(
        &self,
        order: &CobrOrder<'_>,
        calls: &mut Vec<PspCall>,
    ) -> Result<Sent, LiveError> {
        let mandate = mandates::get(&self.db.read, order.mandate_id)
            .await?
            .ok_or_else(|| LiveError::Corrupt(format!("mandate {} vanished", order.mandate_id)))?;
        let Some(id_rec) = mandate.recurrence_id.clone() else {
            return Ok(Sent::Refused {
                code: "mandate_not_active",
                message: "the mandate has no recurrence at a PSP".into(),
            });
        };
        let provider = mandate.provider_code.as_str();
        let account = match crate::psp::providers::account(&self.db, provider).await {
            Ok(Some(account)) => account,
            Ok(None) | Err(_) => {
                return Ok(Sent::Refused {
                    code: "provider_not_configured",
                    message: format!(
                        "provider `{provider}` has no receiving account: it takes no recurring \
                         charge"
                    ),
                });
            }
        };
        let client = match self.recurrence_client(provider).await {
            Ok(client) => client,
            Err(why) => {
                return Ok(Sent::Refused {
                    code: "provider_not_configured",
                    message: why,
                });
            }
        };
        let body = CobrSolicitada {
            id_rec,
            info_adicional: order.description.map(str::to_owned),
            calendario: CalendarioCobrSolicitado {
                data_de_vencimento: order.due_date.to_string(),
            },
            valor: ValorCobr {
                original: Amount::from_centavos(order.amount.centavos()).ok_or_else(|| {
                    LiveError::Corrupt(format!("txid {}: an amount beyond API Pix", order.txid))
                })?,
            },
            ajuste_dia_util: true,
            devedor: None,
            recebedor: account.recebedor(),
        };
        let mut log = CallLog {
            provider,
            alias: Some(mandate.gateway_alias.as_str()),
            calls,
        };
        let matches = |cobr: &CobrCompleta| {
            cobr.txid == order.txid && cobr.valor.original.centavos() == order.amount.centavos()
        };
        let refusal = match log
            .call(CallOperation::PutCobr, client.put_cobr(order.txid, &body))
            .await
        {
            Ok(cobr) if matches(&cobr) => return Ok(Sent::Created(Box::new(cobr))),
            Ok(_) => {
                return Ok(Sent::Refused {
                    code: "psp_refused",
                    message: "the PSP answered with another charge than the one sent".into(),
                });
            }
            Err(e) if e.kind() == ErrorKind::Definitive => Some(e.to_string()),
            Err(_) => None,
        };
        // The answer was lost, or the PUT refused because a request that died (whose charge
        // this one takes over) created it already: the PSP may hold the charge all the same.
        match log
            .call(CallOperation::GetCobr, client.get_cobr(order.txid))
            .await
        {
            Ok(cobr) if matches(&cobr) => Ok(Sent::Created(Box::new(cobr))),
            Ok(_) => Ok(Sent::Refused {
                code: "psp_refused",
                message: "the PSP holds another charge under this txid".into(),
            }),
            Err(e) => match refusal {
                Some(message) => Ok(Sent::Refused {
                    code: "psp_refused",
                    message,
                }),
                None => Ok(Sent::Later(e.to_string())),
            },
        }
    }
}

impl super::LiveExecution {
    /// Settles a recurring charge (its lease held by [`Self::settle`]): a `SCHEDULED` one is
    /// sent when its window has opened; a `PENDING` one is read (`GET /cobr/{txid}`), its
    /// attempts recorded, and moved as its PSP says.
    pub(super) async fn settle_recurring(&self, intent: &Intent) -> Result<Settled, LiveError> {
        match intent.status {
            IntentStatus::Scheduled => self.send_scheduled(intent).await,
            IntentStatus::Pending => self.read_cobr(intent).await,
            _ => Ok(Settled::NotOurs),
        }
    }

    /// Sends a `SCHEDULED` charge, `PENDING` once its PSP holds it. Its PSP unreachable until
    /// the window closes (2 days before the due date): `FAILED` `psp_unavailable`.
    async fn send_scheduled(&self, intent: &Intent) -> Result<Settled, LiveError> {
        let (mandate_id, due_date, txid) = recurring_of(intent)?;
        let now = db::now_ms();
        let today = Date::from_unix_seconds_brasilia(now / 1000);
        if today.days_until(due_date) < MIN_DAYS_AHEAD {
            let message = format!(
                "the mandate's PSP did not take the charge before its window closed ({} days \
                 before the due date, {due_date})",
                MIN_DAYS_AHEAD
            );
            return self.fail(intent, "psp_unavailable", &message, now).await;
        }
        let amount = Money::from_centavos(intent.amount_centavos.max(0) as u64)
            .ok_or_else(|| LiveError::Corrupt(format!("intent {}: its amount", intent.id)))?;
        let order = CobrOrder {
            mandate_id,
            txid,
            amount,
            due_date,
            description: intent.description.as_deref(),
        };
        let mut calls = Vec::new();
        let sent = self.send_cobr(&order, &mut calls).await;
        for call in &calls {
            psp_calls::insert(&self.db.write, Some(&intent.id), call).await?;
        }
        match sent? {
            Sent::Created(_) => {
                let at = db::now_ms();
                let next = at + self.settings.interval().as_millis() as i64;
                let mut tx = self.db.write.begin().await?;
                match outbox::record_sent(&mut tx, &intent.id, at, next).await {
                    Ok(_) => {
                        tx.commit().await?;
                        self.wake.wake();
                        self.metrics
                            .live_transition(&intent.provider_code, IntentStatus::Pending.as_str());
                    }
                    Err(OutboxError::Concurrent(_) | OutboxError::IllegalTransition { .. }) => {
                        tx.rollback().await?;
                        return Ok(Settled::NotOurs);
                    }
                    Err(e) => return Err(e.into()),
                }
                // Read from the next interval on, like any pending charge.
                Ok(Settled::StillPending)
            }
            Sent::Later(why) => {
                tracing::warn!(intent = %intent.id, error = %why,
                    "recurring charge: its PSP did not take it; sent again later");
                Ok(Settled::StillPending)
            }
            Sent::Refused { code, message } => self.fail(intent, code, &message, now).await,
        }
    }

    /// Reads a `PENDING` recurring charge at its PSP: its attempts (each failed one told as
    /// `payment.attempt_failed`), its end, and a retry asked where the mandate's policy allows.
    async fn read_cobr(&self, intent: &Intent) -> Result<Settled, LiveError> {
        let (_, due_date, txid) = recurring_of(intent)?;
        let client = self
            .providers
            .client(&self.db, &self.master_key, &intent.provider_code)
            .await?;
        let cobr = match self
            .call_charge(intent, CallOperation::GetCobr, client.get_cobr(txid))
            .await?
        {
            Ok(cobr) => cobr,
            Err(e) => {
                tracing::warn!(intent = %intent.id, error = %e,
                    "settlement: the recurring charge was not read; the reconciler tries again");
                return Ok(Settled::StillPending);
            }
        };
        let attempts: Vec<Attempt> = cobr.tentativas.iter().map(attempt_of).collect();
        let now = db::now_ms();
        let rejection = cobr
            .encerramento
            .as_ref()
            .and_then(|e| e.rejeicao.as_ref())
            .or_else(|| {
                cobr.tentativas
                    .iter()
                    .rev()
                    .find_map(|t| t.rejeicao.as_ref())
            });
        let (code, message) = match rejection {
            Some(r) => (r.codigo.clone(), r.descricao.clone().unwrap_or_default()),
            None => ("attempt_failed".to_owned(), String::new()),
        };
        let paid = cobr.pix.first();
        let moved = match cobr.status {
            CobrStatus::Concluida if paid.is_some() => Some(Transition {
                to: IntentStatus::Succeeded,
                provider_payment_id: paid.map(|p| p.end_to_end_id.as_str()),
                failure: None,
                paid: None,
                at: paid.map_or(now, |p| p.horario.unix_ms()),
            }),
            CobrStatus::Rejeitada | CobrStatus::Expirada => Some(Transition {
                to: IntentStatus::Failed,
                provider_payment_id: None,
                failure: Some((&code, &message)),
                paid: None,
                at: now,
            }),
            CobrStatus::Cancelada => Some(Transition {
                to: IntentStatus::Canceled,
                provider_payment_id: None,
                failure: None,
                paid: None,
                at: now,
            }),
            _ => None,
        };
        let to = moved.as_ref().map(|t| t.to);
        let mut tx = self.db.write.begin().await?;
        outbox::record_attempts(&mut tx, intent, &attempts, now).await?;
        if let Some(transition) = moved {
            match outbox::record_transition(&mut tx, &intent.id, transition).await {
                Ok(_) => {}
                Err(OutboxError::Concurrent(_) | OutboxError::IllegalTransition { .. }) => {
                    tx.rollback().await?;
                    return Ok(Settled::NotOurs);
                }
                Err(e) => return Err(e.into()),
            }
        }
        tx.commit().await?;
        self.wake.wake();
        if let Some(to) = to {
            self.metrics
                .live_transition(&intent.provider_code, to.as_str());
            return Ok(Settled::Moved(to));
        }
        // Still open: a rejected attempt the policy lets pixgate retry is asked for again on
        // the business day after it (and after today), within 7 days of the due date.
        let open = cobr.tentativas.iter().any(|t| {
            matches!(
                t.status,
                TentativaStatus::Solicitada | TentativaStatus::Agendada
            )
        });
        let last = cobr.tentativas.last();
        if cobr.status == CobrStatus::Ativa
            && !open
            && cobr.politica_retentativa == Some(PoliticaRetentativa::Permite3R7D)
            && let Some(last) = last
            && last.status == TentativaStatus::Rejeitada
        {
            let today = Date::from_unix_seconds_brasilia(now / 1000);
            let after = Date::parse(&last.data_liquidacao)
                .unwrap_or(today)
                .max(today);
            let on = next_business_day_from(after.add_days(1));
            if on <= due_date.add_days(RETRY_WINDOW_DAYS) {
                let on = on.to_string();
                if let Err(e) = self
                    .call_charge(
                        intent,
                        CallOperation::PostRetentativa,
                        client.post_retentativa(txid, &on),
                    )
                    .await?
                {
                    tracing::warn!(intent = %intent.id, error = %e, date = %on,
                        "recurring charge: the retry was not scheduled; asked again at the next read");
                }
            }
        }
        Ok(Settled::StillPending)
    }

    /// Ends a recurring charge `FAILED` with `code` and `message` (and its event).
    async fn fail(
        &self,
        intent: &Intent,
        code: &str,
        message: &str,
        at: i64,
    ) -> Result<Settled, LiveError> {
        self.commit(
            intent,
            Transition {
                to: IntentStatus::Failed,
                provider_payment_id: None,
                failure: Some((code, message)),
                paid: None,
                at,
            },
        )
        .await
    }
}

/// A recurring intent's mandate, due date and txid.
fn recurring_of(intent: &Intent) -> Result<(&str, Date, &str), LiveError> {
    let broken = |what: &str| LiveError::Corrupt(format!("recurring intent {}: {what}", intent.id));
    let mandate = intent
        .recurring
        .mandate_id
        .as_deref()
        .ok_or_else(|| broken("no mandate"))?;
    let due = intent
        .recurring
        .due_date
        .as_deref()
        .and_then(Date::parse)
        .ok_or_else(|| broken("no due date"))?;
    let txid = intent.txid.as_deref().ok_or_else(|| broken("no txid"))?;
    Ok((mandate, due, txid))
}

/// An attempt as the intent shows it.
fn attempt_of(t: &Tentativa) -> Attempt {
    Attempt {
        date: t.data_liquidacao.clone(),
        status: match t.status {
            TentativaStatus::Solicitada | TentativaStatus::Unknown => AttemptStatus::Requested,
            TentativaStatus::Agendada => AttemptStatus::Scheduled,
            TentativaStatus::Paga => AttemptStatus::Paid,
            TentativaStatus::Cancelada => AttemptStatus::Canceled,
            TentativaStatus::Rejeitada => AttemptStatus::Rejected,
            TentativaStatus::Expirada => AttemptStatus::Expired,
        },
        failure: t.rejeicao.as_ref().map(|r| AttemptFailure {
            code: r.codigo.clone(),
            message: r.descricao.clone().unwrap_or_default(),
        }),
    }
}

/// The most recurring charges one callback may name.
const MAX_COBRS: usize = 1_000;

impl super::LiveExecution {
    /// `POST {webhookUrl}/cobr`: checks the provider and token as the pix callback does, and
    /// starts a settlement (a read) of each pending recurring charge it names, off the PSP's
    /// request. Only `txid` is read from the body: the charge's word is its `GET`. Returns how
    /// many reads it started.
    #[tracing::instrument(skip_all, fields(provider = %provider_code))]
    pub async fn receive_cobr(
        &self,
        provider_code: &str,
        token: &str,
        body: &[u8],
    ) -> Result<usize, LiveError> {
        self.check_callback(provider_code, token).await?;
        let callback: CobrCallback = serde_json::from_slice(body).map_err(|e| {
            LiveError::InvalidCallback(format!("line {} column {}", e.line(), e.column()))
        })?;
        if callback.cobsr.len() > MAX_COBRS {
            return Err(LiveError::InvalidCallback(format!(
                "a callback names at most {MAX_COBRS} recurring charges (cobsr)"
            )));
        }
        let txids: std::collections::BTreeSet<&str> = callback
            .cobsr
            .iter()
            .map(|n| n.txid.as_str())
            .filter(|t| Txid::parse(t).is_ok())
            .collect();
        self.settle_named(provider_code, txids).await
    }
}
