//! `POST /locrec` and `GET /locrec/{id}`: the locations recurrences are served at (what a
//! Pix Automático BR Code's field 80 carries). Like a `cob`'s, a location is made up and not
//! served: the codes only have to carry it.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::{locrec_not_found, parse_body};
use crate::api::{ApiError, json, violation};
use crate::state::{Sim, now_ms, random_hex};
use pixgate_pix::apipix::{LocRec, LocRecSolicitada, Timestamp, Violacao};

fn invalid_location(violacoes: Vec<Violacao>) -> ApiError {
    ApiError::Invalid {
        name: "PayloadLocationRecOperacaoInvalida",
        title: "Location inválida.",
        detail: "A presente requisição busca criar uma location sem respeitar o schema \
                 estabelecido."
            .to_owned(),
        violacoes,
    }
}

/// `POST /locrec` `{"tipo": "rec"}` (an empty body too) -> 201 `{id, location, criacao}`:
/// `location` is `{--location-base}/rec/` and 32 hex characters (fewer when the base is long:
/// a location is at most 77).
pub(crate) async fn post_locrec(
    State(sim): State<Arc<Sim>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    if !body.iter().all(u8::is_ascii_whitespace) {
        let request: LocRecSolicitada = parse_body(&body, "locrec", invalid_location)?;
        if request.tipo != "rec" {
            return Err(invalid_location(vec![violation(
                "locrec.tipo",
                "O campo tipo não respeita o schema (rec).",
            )]));
        }
    }
    let base = &sim.settings.location_base;
    let token_len = 32.min(77 - base.len() - "/rec/".len());
    let location = format!("{base}/rec/{}", random_hex(token_len)?);
    let mut state = sim.state();
    let rec = &mut state.rec;
    rec.next_locrec_id += 1;
    let id = rec.next_locrec_id;
    let loc = LocRec {
        id: id.to_string(),
        location,
        criacao: Some(Timestamp::from_unix_ms(now_ms())),
        id_rec: None,
    };
    rec.locrecs.insert(id, loc.clone());
    state.stats.rec.locrecs_created += 1;
    Ok(json(StatusCode::CREATED, &loc))
}

/// `GET /locrec/{id}`: the location, with the `idRec` of the recurrence using it.
pub(crate) async fn get_locrec(
    State(sim): State<Arc<Sim>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id: i64 = id.parse().map_err(|_| locrec_not_found())?;
    let state = sim.state();
    let loc = state.rec.locrecs.get(&id).ok_or_else(locrec_not_found)?;
    Ok(json(StatusCode::OK, loc))
}
