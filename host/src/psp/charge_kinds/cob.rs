//! `cob`: the immediate charge (API Pix `/cob/{txid}`), payable for `expiracao` seconds from
//! its creation, for exactly its amount.

use pixgate_domain::TaxIdKind;
use pixgate_pix::apipix::{
    Amount, CalendarioSolicitado, CobCompleta, CobSolicitada, CobValor, Devedor, Documento, Pix,
};

use super::{ChargeRecord, ChargeResource, NewCharge, Operations};
use crate::db::intents::Intent;
use crate::db::psp_calls::CallOperation;

/// `solicitacaoPagador` is at most 140 characters in the standard.
const SOLICITACAO_MAX: usize = 140;
/// `devedor.nome` is at most 200 characters in the standard (the contract's payer name too).
const NOME_MAX: usize = 200;

pub(super) struct Cob;

impl ChargeResource for Cob {
    fn path(&self) -> &'static str {
        "cob"
    }

    fn operations(&self) -> Operations {
        Operations {
            put: CallOperation::PutCob,
            get: CallOperation::GetCob,
            patch: CallOperation::PatchCob,
        }
    }

    fn request(&self, charge: &NewCharge<'_>) -> Result<serde_json::Value, String> {
        let request = charge.request;
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
        let body = CobSolicitada {
            calendario: CalendarioSolicitado {
                expiracao: charge.expiry_seconds,
            },
            devedor: Some(Devedor {
                documento,
                nome: request.payer.name.chars().take(NOME_MAX).collect(),
            }),
            valor: CobValor {
                // The contract's maximum is well inside the standard's.
                original: Amount::from_centavos(request.amount.centavos())
                    .ok_or("the amount exceeds API Pix")?,
                modalidade_alteracao: None,
            },
            chave: charge.chave.to_owned(),
            solicitacao_pagador: (!solicitacao.trim().is_empty()).then_some(solicitacao),
            info_adicionais: Vec::new(),
        };
        serde_json::to_value(body).map_err(|e| format!("the charge does not serialise: {e}"))
    }

    fn read(&self, answer: &[u8]) -> Result<ChargeRecord, String> {
        let cob: CobCompleta = super::decode(answer)?;
        Ok(ChargeRecord {
            txid: cob.txid,
            status: cob.status,
            original: cob.valor.original,
            location: cob.location.or_else(|| cob.loc.and_then(|l| l.location)),
            pix_copia_e_cola: cob.pix_copia_e_cola,
            chave: cob.chave,
            pix: cob.pix,
            expires_at: cob.calendario.criacao.unix_ms()
                + i64::from(cob.calendario.expiracao) * 1000,
        })
    }

    /// A fixed-amount charge is paid by a pix of exactly its amount.
    fn pays(&self, intent: &Intent, pix: &Pix) -> bool {
        i64::try_from(pix.valor.centavos()) == Ok(intent.amount_centavos)
    }
}
