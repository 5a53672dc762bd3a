//! Creating a LIVE charge at a PSP: `PUT /cob/{txid}` along the chain's ranking, failing
//! over to the next gateway when a PSP refuses or cannot answer, across release classes only
//! when the policy allows it. The txid is the same at every attempt and on every retry of the
//! merchant's request, so a PSP that did create the charge answers with that same charge.

use std::time::Instant;

use crate::apipix::{
    Amount, CalendarioSolicitado, CobGerada, CobSolicitada, CobValor, Devedor, Documento, Txid,
};
use crate::app::AppState;
use crate::chain::Route;
use crate::charges::ChargeRequest;
use crate::db::{self, psp_calls::PspCall};
use crate::domain::TaxIdKind;
use crate::pix::brcode;
use crate::psp::PspError;

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

/// Tries `routes` in order until a PSP creates the charge `txid`. A route in another release
/// class than the first is tried only when `cross_class` allows it.
#[allow(clippy::too_many_arguments)]
pub async fn create(
    state: &AppState,
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
        let started = Instant::now();
        let at = db::now_ms();
        let record = |outcome: &str, error: Option<String>| PspCall {
            provider_code: provider.clone(),
            gateway_alias: Some(alias.clone()),
            operation: "put_cob".into(),
            outcome: outcome.to_owned(),
            duration_ms: started.elapsed().as_millis() as u64,
            error,
            at,
        };
        let client = match state
            .providers
            .client(&state.db, &state.master_key, provider)
            .await
        {
            Ok(client) => client,
            Err(e) => {
                tracing::warn!(%provider, gateway = %alias, error = %e,
                    "live charge: the gateway's provider cannot be used; next gateway");
                calls.push(record("not_configured", Some(e.to_string())));
                continue;
            }
        };
        let Some(body) = cob_request(request, expiry_seconds, client.pix_key()) else {
            calls.push(record("refused", Some("the amount exceeds API Pix".into())));
            continue;
        };
        match client.put_cob(txid, &body).await {
            Ok(cob) => match copy_and_paste(&cob, merchant) {
                Ok(code) => {
                    calls.push(record("success", None));
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
                    calls.push(record("protocol_error", Some(why)));
                }
            },
            Err(e) => {
                tracing::warn!(%provider, gateway = %alias, error = %e,
                    "live charge: the PSP did not create the charge; next gateway");
                calls.push(record(outcome_of(&e), Some(e.to_string())));
            }
        }
    }
    Execution {
        created: None,
        calls,
    }
}

/// The PSP's `pixCopiaECola` when it is a valid BR Code for this charge's location, else the
/// dynamic code built from the charge's `location`.
fn copy_and_paste(cob: &CobGerada, merchant: &Merchant<'_>) -> Result<String, String> {
    if let Some(code) = &cob.pix_copia_e_cola {
        match brcode::parse(code) {
            Ok(_) => return Ok(code.clone()),
            Err(e) => tracing::warn!(error = %e, "the PSP's pixCopiaECola is not a valid BR Code"),
        }
    }
    let location = cob
        .location
        .as_deref()
        .or_else(|| cob.loc.as_ref().and_then(|l| l.location.as_deref()))
        .ok_or("the charge has neither a valid pixCopiaECola nor a location")?;
    brcode::dynamic(location, merchant.name, merchant.city).map_err(|e| e.to_string())
}

/// The metrics label of a failed call.
pub fn outcome_of(e: &PspError) -> &'static str {
    match e {
        PspError::Refused { .. } => "refused",
        PspError::Unauthorized { .. } => "unauthorized",
        PspError::Unavailable { .. } => "unavailable",
        PspError::Timeout { .. } => "timeout",
        PspError::Connect { .. } => "connect_failed",
        PspError::Protocol { .. } => "protocol_error",
    }
}
