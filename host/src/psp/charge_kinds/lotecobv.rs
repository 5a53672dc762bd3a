//! `lotecobv`: due-date charges sent to a PSP as one batch (API Pix `PUT|GET /lotecobv/{id}`,
//! DESIGN.md section 16). Each item is the `cobv` body [`super::cobv`] writes for a single
//! charge, with its txid; the PSP answers the `PUT` with 202 and tells each item's fate on a
//! read of the lote (`EM_PROCESSAMENTO`, then `CRIADA`, or `NEGADA` with its `problema`).
//! A created item is then read as any `cobv` (`GET /cobv/{txid}`).

use pixgate_pix::apipix::{LoteCobVConsultado, LoteCobVItem, LoteCobVSolicitado, Problema, Txid};

use super::NewCharge;
use crate::db::psp_calls::CallOperation;

/// The calls of a lote: create (`PUT`) and read (`GET`).
#[derive(Debug, Clone, Copy)]
pub struct LoteOperations {
    pub put: CallOperation,
    pub get: CallOperation,
}

pub const OPERATIONS: LoteOperations = LoteOperations {
    put: CallOperation::PutLotecobv,
    get: CallOperation::GetLotecobv,
};

/// The path segment after the API base, before the lote's id.
pub const PATH: &str = "lotecobv";

/// The most of a lote read that is read: a thousand items denied with long problems are
/// several hundred KB, more than a single charge's answer may be.
pub const MAX_READ_BYTES: usize = 4 * 1024 * 1024;

/// The `PUT /lotecobv/{id}` body of `charges`, each with its txid, in order; or, for each item
/// whose `cobv` the standard cannot carry, its place and why (those are left out).
pub fn request(
    descricao: &str,
    charges: &[(Txid, NewCharge<'_>)],
) -> (LoteCobVSolicitado, Vec<(usize, String)>) {
    let mut cobsv = Vec::with_capacity(charges.len());
    let mut refused = Vec::new();
    for (i, (txid, charge)) in charges.iter().enumerate() {
        match super::cobv::cobv_request(charge) {
            Ok(cobv) => cobsv.push(LoteCobVItem {
                txid: txid.clone(),
                cobv,
            }),
            Err(why) => refused.push((i, why)),
        }
    }
    (
        LoteCobVSolicitado {
            descricao: descricao.to_owned(),
            cobsv,
        },
        refused,
    )
}

/// The PSP's answer about a lote, or why it is not one (a field's path, never a value).
pub fn read(answer: &[u8]) -> Result<LoteCobVConsultado, String> {
    super::decode(answer)
}

/// What a PSP's `problema` for a denied item says, for the merchant: its type's name, its
/// title and each violation's property and reason, bounded.
pub fn problem_text(problema: &Problema) -> String {
    const MAX_CHARS: usize = 600;
    let name = problema
        .kind
        .rsplit('/')
        .next()
        .filter(|n| !n.is_empty())
        .unwrap_or(&problema.kind);
    let mut text = format!("{name}: {}", problema.title);
    for v in &problema.violacoes {
        let what = match (&v.propriedade, &v.razao) {
            (Some(p), Some(r)) => format!("{p}: {r}"),
            (Some(p), None) => p.clone(),
            (None, Some(r)) => r.clone(),
            (None, None) => continue,
        };
        text.push_str("; ");
        text.push_str(&what);
    }
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_CHARS)
        .collect();
    clean
}

#[cfg(test)]
mod tests {
    use super::*;
    use pixgate_domain::charge::CreatePaymentRequest;
    use pixgate_domain::due::Date;
    use serde_json::json;

    #[test]
    fn a_lote_carries_each_cobv_with_its_txid() {
        let body = json!({
            "store": "shop", "amount": 100.0, "reference": "rent-1", "dueDate": "2027-03-10",
            "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
            "fine": {"type": "PERCENT", "value": 2},
        });
        let (store, charge) = CreatePaymentRequest::from_json(body).unwrap().split();
        let charge = charge
            .validate(store, "", Date::parse("2026-11-27").unwrap())
            .unwrap();
        let txid = Txid::parse("a".repeat(32).as_str()).unwrap();
        let new = NewCharge {
            request: &charge,
            expiry_seconds: 3600,
            chave: "pix@psp.test",
        };
        let (lote, refused) = request("pixgate batch b", &[(txid, new)]);
        assert!(refused.is_empty());
        let wire = serde_json::to_value(&lote).unwrap();
        assert_eq!(wire["descricao"], "pixgate batch b");
        let item = &wire["cobsv"][0];
        assert_eq!(item["txid"], "a".repeat(32));
        assert_eq!(item["calendario"]["dataDeVencimento"], "2027-03-10");
        assert_eq!(
            item["valor"]["multa"],
            json!({"modalidade": 2, "valorPerc": "2.00"})
        );
        assert_eq!(item["chave"], "pix@psp.test");
        // The standard's own type reads it back.
        serde_json::from_value::<LoteCobVSolicitado>(wire).unwrap();
    }

    #[test]
    fn a_denial_names_the_problem_and_its_violations() {
        let problema: Problema = serde_json::from_value(json!({
            "type": "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida",
            "title": "Cobrança inválida.", "status": 400,
            "detail": "quoted values may be here",
            "violacoes": [{"razao": "O objeto cobv.devedor não respeita o schema.",
                           "propriedade": "cobv.devedor"}]
        }))
        .unwrap();
        assert_eq!(
            problem_text(&problema),
            "CobVOperacaoInvalida: Cobrança inválida.; cobv.devedor: O objeto cobv.devedor \
             não respeita o schema."
        );
    }
}
