//! Creating a LIVE charge at a PSP: `PUT /cob/{txid}` along the chain's ranking, failing
//! over to the next gateway when a PSP refuses or cannot answer, across release classes only
//! when the policy allows it. The txid is the same at every attempt and on every retry of the
//! merchant's request, so a PSP that did create the charge answers with that same charge.

use std::time::Instant;

use crate::db::{self, psp_calls::PspCall};
use crate::psp::client::{CallOperation, CallOutcome, ErrorKind, PspClient};
use pixgate_domain::TaxIdKind;
use pixgate_domain::charge::ChargeRequest;
use pixgate_pix::apipix::{
    Amount, CalendarioSolicitado, CobGerada, CobSolicitada, CobStatus, CobValor, Devedor,
    Documento, Txid,
};
use pixgate_pix::brcode;
use pixgate_sandbox::chain::Route;

/// `solicitacaoPagador` is at most 140 characters in the standard.
const SOLICITACAO_MAX: usize = 140;
/// `devedor.nome` is at most 200 characters in the standard (the contract's payer name too).
const NOME_MAX: usize = 200;

/// The charge as a PSP created it.
#[derive(Debug, Clone)]
pub struct Created {
    /// Index into the routes: the gateway that created it.
    pub route: usize,
    pub cob: CobGerada,
    /// The BR Code: the PSP's `pixCopiaECola` when it is a valid one, else built from the
    /// charge's `location`.
    pub copy_and_paste: String,
    /// Unix ms.
    pub expires_at: i64,
}

/// What trying the ranking gave.
#[derive(Debug)]
pub struct Execution {
    pub created: Option<Created>,
    pub calls: Vec<PspCall>,
}

/// The charge request a PSP receives (the provider's pix key goes in `chave`); `None` for an
/// amount the standard cannot carry (the contract's maximum is well inside it).
pub fn cob_request(
    request: &ChargeRequest,
    expiry_seconds: u32,
    chave: &str,
) -> Option<CobSolicitada> {
    let documento = match request.payer.kind() {
        TaxIdKind::Cpf => Documento::Cpf(request.payer.tax_id.as_str().to_owned()),
        TaxIdKind::Cnpj => Documento::Cnpj(request.payer.tax_id.as_str().to_owned()),
    };
    let solicitacao = request
        .description
        .as_deref()
        .unwrap_or(&request.reference)
        .chars()
        .take(SOLICITACAO_MAX)
        .collect::<String>();
    Some(CobSolicitada {
        calendario: CalendarioSolicitado {
            expiracao: expiry_seconds,
        },
        devedor: Some(Devedor {
            documento,
            nome: request.payer.name.chars().take(NOME_MAX).collect(),
        }),
        valor: CobValor {
            original: Amount::from_centavos(request.amount.centavos())?,
            modalidade_alteracao: None,
        },
        chave: chave.to_owned(),
        solicitacao_pagador: (!solicitacao.trim().is_empty()).then_some(solicitacao),
        info_adicionais: Vec::new(),
    })
}

/// The name and city a BR Code built from a `location` carries (the payload at the location
/// is what the payer's bank shows; these are the code's required fields).
#[derive(Debug, Clone)]
pub struct Merchant<'a> {
    pub name: &'a str,
    pub city: &'a str,
}

impl super::LiveExecution {
    /// Tries `routes` in order until a PSP creates the charge `txid`. A route in another release
    /// class than the first is tried only when `cross_class` allows it. `takeover`: a request
    /// that died may already have created the charge.
    #[allow(clippy::too_many_arguments)]
    #[tracing::instrument(skip_all, fields(txid = %txid.as_str()))]
    pub async fn create_at_psp(
        &self,
        takeover: bool,
        routes: &[Route],
        cross_class: bool,
        txid: &Txid,
        request: &ChargeRequest,
        expiry_seconds: u32,
        merchant: &Merchant<'_>,
    ) -> Execution {
        let mut calls = Vec::new();
        let Some(first_class) = routes.first().map(|r| r.quote.release_class.as_str()) else {
            return Execution {
                created: None,
                calls,
            };
        };
        for (index, route) in routes.iter().enumerate() {
            if !cross_class && route.quote.release_class != first_class {
                continue;
            }
            let provider = &route.gateway.provider_code;
            let alias = &route.gateway.gateway_alias;
            let mut log = CallLog {
                provider,
                alias,
                calls: &mut calls,
            };
            let client = match self
                .providers
                .client(&self.db, &self.master_key, provider)
                .await
            {
                Ok(client) => client,
                Err(e) => {
                    tracing::warn!(%provider, gateway = %alias, error = %e,
                    "live charge: the gateway's provider cannot be used; next gateway");
                    log.push(
                        CallOperation::PutCob,
                        Instant::now(),
                        CallOutcome::NotConfigured,
                        Some(e.to_string()),
                    );
                    continue;
                }
            };
            let Some(body) = cob_request(request, expiry_seconds, client.pix_key()) else {
                log.push(
                    CallOperation::PutCob,
                    Instant::now(),
                    CallOutcome::Refused,
                    Some("the amount exceeds API Pix".into()),
                );
                continue;
            };
            let Some(cob) = obtain(&client, txid, &body, takeover, &mut log).await else {
                continue;
            };
            match copy_and_paste(&cob, merchant) {
                Ok(code) => {
                    let expires_at = cob.calendario.criacao.unix_ms()
                        + i64::from(cob.calendario.expiracao) * 1000;
                    return Execution {
                        created: Some(Created {
                            route: index,
                            cob,
                            copy_and_paste: code,
                            expires_at,
                        }),
                        calls,
                    };
                }
                Err(why) => {
                    // Created, but with nothing a payer can pay: it expires unpaid at the PSP.
                    tracing::warn!(%provider, gateway = %alias, error = %why,
                    "live charge: the PSP's charge has no usable BR Code; next gateway");
                    log.push(
                        CallOperation::PutCob,
                        Instant::now(),
                        CallOutcome::ProtocolError,
                        Some(why),
                    );
                }
            }
        }
        Execution {
            created: None,
            calls,
        }
    }
}

/// The calls of one gateway's attempt, appended to the charge's list.
struct CallLog<'a> {
    provider: &'a str,
    alias: &'a str,
    calls: &'a mut Vec<PspCall>,
}

impl CallLog<'_> {
    fn push(
        &mut self,
        operation: CallOperation,
        started: Instant,
        outcome: CallOutcome,
        error: Option<String>,
    ) {
        self.calls.push(PspCall {
            provider_code: self.provider.to_owned(),
            gateway_alias: Some(self.alias.to_owned()),
            operation,
            outcome,
            duration_ms: started.elapsed().as_millis() as u64,
            error,
            at: db::now_ms() - started.elapsed().as_millis() as i64,
        });
    }
}

/// The charge `txid` at this PSP: created by `PUT /cob/{txid}`, or found by `GET` where it
/// may already exist. A takeover reads first (the dead request may have created it, and a
/// PSP need not answer a repeated PUT with the same charge); a PUT whose answer was lost
/// (timeout, 5xx, unreadable) is followed by one read, so a charge the PSP did create is
/// used rather than left behind while the next gateway creates another.
async fn obtain(
    client: &PspClient,
    txid: &Txid,
    body: &CobSolicitada,
    takeover: bool,
    log: &mut CallLog<'_>,
) -> Option<CobGerada> {
    if takeover && let Some(cob) = read_existing(client, txid, body, log).await {
        return Some(cob);
    }
    let started = Instant::now();
    match client.put_cob(txid, body).await {
        // Only a payable charge: a PSP answering a repeated PUT with a concluded charge must
        // not hand an old payment to a new intent.
        Ok(cob) if cob.status == CobStatus::Ativa && matches_request(&cob, body) => {
            log.push(CallOperation::PutCob, started, CallOutcome::Success, None);
            Some(cob)
        }
        Ok(_) => {
            log.push(
                CallOperation::PutCob,
                started,
                CallOutcome::ProtocolError,
                Some(
                    "the PSP answered with a charge that is not the one sent, or not payable"
                        .into(),
                ),
            );
            None
        }
        Err(e) => {
            tracing::warn!(provider = %log.provider, gateway = %log.alias, error = %e,
                "live charge: the PSP did not create the charge");
            log.push(
                CallOperation::PutCob,
                started,
                e.outcome().into(),
                Some(e.to_string()),
            );
            if e.kind() == ErrorKind::Definitive {
                return None;
            }
            read_existing(client, txid, body, log).await
        }
    }
}

/// `GET /cob/{txid}`: the charge, when it exists, is still payable and is the one asked for.
async fn read_existing(
    client: &PspClient,
    txid: &Txid,
    body: &CobSolicitada,
    log: &mut CallLog<'_>,
) -> Option<CobGerada> {
    let started = Instant::now();
    match client.get_cob(txid).await {
        Ok(cob) if cob.status == CobStatus::Ativa && matches_request(&cob, body) => {
            log.push(CallOperation::GetCob, started, CallOutcome::Success, None);
            Some(cob)
        }
        Ok(_) => {
            log.push(
                CallOperation::GetCob,
                started,
                CallOutcome::Success,
                Some("the charge exists but is not payable as asked".into()),
            );
            None
        }
        Err(e) => {
            log.push(
                CallOperation::GetCob,
                started,
                e.outcome().into(),
                Some(e.to_string()),
            );
            None
        }
    }
}

/// The PSP's charge is for the amount and the key that were sent.
fn matches_request(cob: &CobGerada, body: &CobSolicitada) -> bool {
    cob.valor.original == body.valor.original && cob.chave == body.chave
}

/// The PSP's `pixCopiaECola` when it is a valid BR Code pointing at this charge's location
/// (or the PSP gave no location to compare), else the dynamic code built from the location.
fn copy_and_paste(cob: &CobGerada, merchant: &Merchant<'_>) -> Result<String, String> {
    let location = cob
        .location
        .as_deref()
        .or_else(|| cob.loc.as_ref().and_then(|l| l.location.as_deref()));
    let bare = |url: &str| url.strip_prefix("https://").unwrap_or(url).to_owned();
    if let Some(code) = &cob.pix_copia_e_cola {
        match brcode::parse(code) {
            Ok(parsed) if location.is_none_or(|l| parsed.location().map(bare) == Some(bare(l))) => {
                return Ok(code.clone());
            }
            Ok(_) => tracing::warn!("the PSP's pixCopiaECola names another location"),
            Err(e) => tracing::warn!(error = %e, "the PSP's pixCopiaECola is not a valid BR Code"),
        }
    }
    let location = location.ok_or("the charge has neither a valid pixCopiaECola nor a location")?;
    brcode::dynamic(location, merchant.name, merchant.city).map_err(|e| e.to_string())
}
