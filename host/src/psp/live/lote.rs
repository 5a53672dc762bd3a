//! A lote at a PSP (DESIGN.md section 16): the due-date charges of a batch that the chain
//! routed to one gateway, sent as one `PUT /lotecobv/{id}` and read back with
//! `GET /lotecobv/{id}` for each item's `CRIADA` or `NEGADA`; a created item is then read as
//! a single charge is (`GET /cobv/{txid}`) for its BR Code.
//!
//! Idempotent and resumable: the lote's id and each item's txid are the batch's to derive, so
//! a second pass (after a crash, on another instance) names the same lote and the same
//! charges. A lote that may have reached the PSP is read before it would be put again; the
//! standard refuses to create a charge a second time, and answers a repeated `PUT` of the same
//! items as a revision of them, which changes nothing. What cannot be known yet (items
//! `EM_PROCESSAMENTO`, a PSP that does not answer) is [`ItemOutcome::Later`], never a
//! rejection: a rejected item must not leave a payable `cobv` behind.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::execute::{Created, Merchant, copy_and_paste, is_the_charge};
use crate::db::{self, psp_calls::PspCall};
use crate::psp::charge_kinds::{self, ChargeRecord, ChargeResource, NewCharge, lotecobv};
use crate::psp::client::{CallOperation, CallOutcome, ErrorKind, PspClient, PspError};
use pixgate_domain::ChargeKind;
use pixgate_domain::charge::ChargeRequest;
use pixgate_pix::apipix::{CobStatus, LoteCobVConsultado, LoteItemStatus, Txid};

/// `GET /cobv/{txid}` of the created items at once, at most.
const READS_AT_ONCE: usize = 16;
/// How long a pass waits for items `EM_PROCESSAMENTO` before leaving them to the next pass:
/// the reads' pauses, doubling.
const PROCESSING_WAITS_MS: [u64; 4] = [100, 200, 400, 800];

/// One charge of a lote.
#[derive(Debug, Clone)]
pub struct LoteCharge<'a> {
    pub txid: Txid,
    pub request: &'a ChargeRequest,
}

/// A lote to create (or find) at one gateway's PSP.
#[derive(Debug)]
pub struct LoteRequest<'a> {
    /// The lote's int64 id at the PSP.
    pub id: i64,
    pub provider: &'a str,
    pub alias: &'a str,
    pub descricao: String,
    /// Every charge of the lote, in the same order on every pass (a PSP compares a repeated
    /// `PUT` with the first).
    pub charges: Vec<LoteCharge<'a>>,
    /// A `PUT` of this lote may have reached the PSP: it is read first.
    pub read_first: bool,
    pub merchant: Merchant<'a>,
}

/// What became of one charge of the lote.
#[derive(Debug)]
pub enum ItemOutcome {
    /// Created and payable.
    Created(Created),
    /// Not created (or created unusable, and removed): `code` is the one a single charge's
    /// failure would carry (`psp_refused`, `provider_not_configured`, `psp_unavailable`).
    Rejected { code: &'static str, message: String },
    /// Not known yet: the PSP is still processing it, or could not be read.
    Later,
}

/// What a pass over a lote gave.
#[derive(Debug)]
pub struct LoteExecution {
    /// One per charge, in order.
    pub outcomes: Vec<ItemOutcome>,
    /// The lote's own calls (its `PUT` and reads), which each created charge records.
    pub calls: Vec<PspCall>,
    /// Each charge's own calls (its `GET /cobv/{txid}`), in order.
    pub item_calls: Vec<Vec<PspCall>>,
}

impl LoteExecution {
    fn all(count: usize, outcome: impl Fn() -> ItemOutcome, calls: Vec<PspCall>) -> Self {
        Self {
            outcomes: (0..count).map(|_| outcome()).collect(),
            calls,
            item_calls: vec![Vec::new(); count],
        }
    }
}

impl super::LiveExecution {
    /// Creates (or finds) `lote` at its PSP and tells each charge's fate.
    #[tracing::instrument(skip_all, fields(lote = lote.id, provider = %lote.provider, gateway = %lote.alias))]
    pub async fn send_lote(&self, lote: &LoteRequest<'_>) -> LoteExecution {
        let count = lote.charges.len();
        let mut calls = Calls::new(lote.provider, lote.alias);
        let client = match self
            .providers
            .client(&self.db, &self.master_key, lote.provider)
            .await
        {
            Ok(client) => client,
            Err(e) => {
                tracing::warn!(error = %e, "lote: the gateway's provider cannot be used");
                calls.push(
                    lotecobv::OPERATIONS.put,
                    Instant::now(),
                    CallOutcome::NotConfigured,
                    Some(e.to_string()),
                );
                // Sent before: its charges may exist; ask again once the provider is back.
                if lote.read_first {
                    return LoteExecution::all(count, || ItemOutcome::Later, calls.done());
                }
                let message = format!("{}: {e}", lote.alias);
                return LoteExecution::all(
                    count,
                    || ItemOutcome::Rejected {
                        code: "provider_not_configured",
                        message: message.clone(),
                    },
                    calls.done(),
                );
            }
        };
        let charges: Vec<(Txid, NewCharge<'_>)> = lote
            .charges
            .iter()
            .map(|c| {
                (
                    c.txid.clone(),
                    NewCharge {
                        request: c.request,
                        expiry_seconds: 0,
                        chave: client.pix_key(),
                    },
                )
            })
            .collect();
        let (body, unsendable) = lotecobv::request(&lote.descricao, &charges);
        let mut outcomes: Vec<Option<ItemOutcome>> = (0..count).map(|_| None).collect();
        for (i, why) in unsendable {
            outcomes[i] = Some(ItemOutcome::Rejected {
                code: "psp_refused",
                message: format!("the charge cannot be sent as an API Pix cobv: {why}"),
            });
        }
        let no_items = || vec![Vec::new(); count];
        if body.cobsv.is_empty() {
            return finish(outcomes, calls, no_items(), || ItemOutcome::Later);
        }

        let mut found = None;
        if lote.read_first {
            match read_lote(&client, lote.id, &mut calls).await {
                Ok(read) => found = Some(read),
                Err(e) if is_not_found(&e) => {}
                Err(_) => return finish(outcomes, calls, no_items(), || ItemOutcome::Later),
            }
        }
        let mut read = match found {
            Some(read) => read,
            None => {
                let started = Instant::now();
                match client.put_lote(lote.id, &body).await {
                    Ok(()) => calls.push(
                        lotecobv::OPERATIONS.put,
                        started,
                        CallOutcome::Success,
                        None,
                    ),
                    Err(e) => {
                        tracing::warn!(error = %e, "lote: the PSP did not take the lote");
                        calls.push(
                            lotecobv::OPERATIONS.put,
                            started,
                            e.outcome(),
                            Some(e.to_string()),
                        );
                        if e.kind() == ErrorKind::Definitive {
                            // Refused as a whole: none of its charges was created.
                            let message = format!(
                                "{} refused the lote of this batch's charges: {e}",
                                lote.alias
                            );
                            return finish(outcomes, calls, no_items(), || ItemOutcome::Rejected {
                                code: "psp_refused",
                                message: message.clone(),
                            });
                        }
                        return finish(outcomes, calls, no_items(), || ItemOutcome::Later);
                    }
                }
                match read_lote(&client, lote.id, &mut calls).await {
                    Ok(read) => read,
                    Err(_) => return finish(outcomes, calls, no_items(), || ItemOutcome::Later),
                }
            }
        };
        // Items still being processed: a few more reads before the next pass takes over.
        for wait in PROCESSING_WAITS_MS {
            let ours_processing = lote.charges.iter().enumerate().any(|(i, c)| {
                outcomes[i].is_none()
                    && read
                        .cobsv
                        .iter()
                        .any(|s| s.txid == c.txid && s.status == LoteItemStatus::EmProcessamento)
            });
            if !ours_processing {
                break;
            }
            tokio::time::sleep(Duration::from_millis(wait)).await;
            match read_lote(&client, lote.id, &mut calls).await {
                Ok(again) => read = again,
                Err(_) => break,
            }
        }

        // Each charge's fate; the created ones are read as charges, some at once.
        let mut to_read = Vec::new();
        for (i, charge) in lote.charges.iter().enumerate() {
            if outcomes[i].is_some() {
                continue;
            }
            let Some(status) = read.cobsv.iter().find(|s| s.txid == charge.txid) else {
                tracing::warn!(txid = %charge.txid, "lote: the PSP's read leaves a charge out");
                outcomes[i] = Some(ItemOutcome::Later);
                continue;
            };
            outcomes[i] = match status.status {
                LoteItemStatus::EmProcessamento => Some(ItemOutcome::Later),
                LoteItemStatus::Negada => Some(ItemOutcome::Rejected {
                    code: "psp_refused",
                    message: match &status.problema {
                        Some(p) => format!(
                            "{} denied the charge: {}",
                            lote.alias,
                            lotecobv::problem_text(p)
                        ),
                        None => format!("{} denied the charge", lote.alias),
                    },
                }),
                LoteItemStatus::Criada => {
                    to_read.push(i);
                    None
                }
            };
        }
        let mut item_calls = no_items();
        let reads = read_charges(&client, lote, &to_read).await;
        for (i, call, result) in reads {
            item_calls[i].push(call);
            let charge = &lote.charges[i];
            outcomes[i] = Some(match result {
                Ok(record) => {
                    let usable = if record.status == CobStatus::Ativa
                        && is_the_charge(
                            &record,
                            &charge.txid,
                            charge.request.amount.centavos(),
                            client.pix_key(),
                        ) {
                        copy_and_paste(&record, &lote.merchant)
                    } else {
                        Err("the PSP's cobv is not the one sent, or not payable".to_owned())
                    };
                    match usable {
                        Ok(code) => {
                            let expires_at = record.expires_at;
                            ItemOutcome::Created(Created {
                                route: 0,
                                charge: record,
                                copy_and_paste: code,
                                expires_at,
                            })
                        }
                        Err(why) => {
                            tracing::warn!(txid = %charge.txid, error = %why,
                                "lote: a created cobv cannot be paid; removing it");
                            let removal = remove(&client, lote, &charge.txid).await;
                            item_calls[i].push(removal);
                            ItemOutcome::Rejected {
                                code: "psp_unavailable",
                                message: format!("{}: {why}", lote.alias),
                            }
                        }
                    }
                }
                // Created, by the lote's read: a read that fails now is asked again later.
                Err(_) => ItemOutcome::Later,
            });
        }
        finish(outcomes, calls, item_calls, || ItemOutcome::Later)
    }
}

/// The execution: each charge's outcome, `rest` for those without one.
fn finish(
    outcomes: Vec<Option<ItemOutcome>>,
    calls: Calls<'_>,
    item_calls: Vec<Vec<PspCall>>,
    rest: impl Fn() -> ItemOutcome,
) -> LoteExecution {
    LoteExecution {
        outcomes: outcomes
            .into_iter()
            .map(|o| o.unwrap_or_else(&rest))
            .collect(),
        calls: calls.done(),
        item_calls,
    }
}

/// The due-date resource (`cobv`).
fn cobv_resource() -> &'static dyn ChargeResource {
    charge_kinds::resource(ChargeKind::DueDate).expect("the cobv resource serves due-date charges")
}

fn is_not_found(e: &PspError) -> bool {
    matches!(e, PspError::Refused { status: 404, .. })
}

async fn read_lote(
    client: &PspClient,
    id: i64,
    calls: &mut Calls<'_>,
) -> Result<LoteCobVConsultado, PspError> {
    let started = Instant::now();
    let result = client.get_lote(id).await;
    match &result {
        Ok(_) => calls.push(
            lotecobv::OPERATIONS.get,
            started,
            CallOutcome::Success,
            None,
        ),
        Err(e) => {
            if !is_not_found(e) {
                tracing::warn!(error = %e, "lote: the PSP's lote could not be read");
            }
            calls.push(
                lotecobv::OPERATIONS.get,
                started,
                e.outcome(),
                Some(e.to_string()),
            );
        }
    }
    result
}

/// `GET /cobv/{txid}` of the charges at `indexes`, [`READS_AT_ONCE`] at a time: each with
/// its call.
async fn read_charges(
    client: &Arc<PspClient>,
    lote: &LoteRequest<'_>,
    indexes: &[usize],
) -> Vec<(usize, PspCall, Result<ChargeRecord, PspError>)> {
    let permits = Arc::new(Semaphore::new(READS_AT_ONCE));
    let mut reads = JoinSet::new();
    for &i in indexes {
        let client = client.clone();
        let txid = lote.charges[i].txid.clone();
        let permits = permits.clone();
        let (provider, alias) = (lote.provider.to_owned(), lote.alias.to_owned());
        reads.spawn(async move {
            let _permit = permits.acquire_owned().await;
            let started = Instant::now();
            let result = client.get_charge(cobv_resource(), &txid).await;
            let (outcome, error) = match &result {
                Ok(_) => (CallOutcome::Success, None),
                Err(e) => (e.outcome(), Some(e.to_string())),
            };
            let call = call(
                &provider,
                &alias,
                cobv_resource().operations().get,
                started,
                outcome,
                error,
            );
            (i, call, result)
        });
    }
    let mut done = Vec::with_capacity(indexes.len());
    while let Some(joined) = reads.join_next().await {
        match joined {
            Ok(read) => done.push(read),
            Err(e) => tracing::error!(error = %e, "lote: a cobv read did not finish"),
        }
    }
    done.sort_by_key(|(i, _, _)| *i);
    done
}

/// Removes a created cobv nobody will be told of (best effort: a failure is logged); the
/// call.
async fn remove(client: &PspClient, lote: &LoteRequest<'_>, txid: &Txid) -> PspCall {
    let resource = cobv_resource();
    let started = Instant::now();
    let (outcome, error) = match client.remove_charge(resource, txid).await {
        Ok(_) => (CallOutcome::Success, None),
        Err(e) => {
            tracing::warn!(%txid, error = %e, "lote: the unusable cobv was not removed");
            (e.outcome(), Some(e.to_string()))
        }
    };
    call(
        lote.provider,
        lote.alias,
        resource.operations().patch,
        started,
        outcome,
        error,
    )
}

fn call(
    provider: &str,
    alias: &str,
    operation: CallOperation,
    started: Instant,
    outcome: CallOutcome,
    error: Option<String>,
) -> PspCall {
    let took = started.elapsed().as_millis();
    PspCall {
        provider_code: provider.to_owned(),
        gateway_alias: Some(alias.to_owned()),
        operation,
        outcome,
        duration_ms: took as u64,
        error,
        at: db::now_ms() - took as i64,
    }
}

/// The lote's own calls, as they are made.
struct Calls<'a> {
    provider: &'a str,
    alias: &'a str,
    calls: Vec<PspCall>,
}

impl<'a> Calls<'a> {
    fn new(provider: &'a str, alias: &'a str) -> Self {
        Self {
            provider,
            alias,
            calls: Vec::new(),
        }
    }

    fn push(
        &mut self,
        operation: CallOperation,
        started: Instant,
        outcome: CallOutcome,
        error: Option<String>,
    ) {
        self.calls.push(call(
            self.provider,
            self.alias,
            operation,
            started,
            outcome,
            error,
        ));
    }

    fn done(self) -> Vec<PspCall> {
        self.calls
    }
}
