//! The API Pix routes of the simulator, as the standard defines them, plus the OAuth2 token
//! endpoint that guards them, and the middleware that injects the faults `/_sim/faults` asks
//! for (and loses devolução answers when the switches say so). The `/pix` routes live in
//! `devolucao.rs`, the `/cobv` and `/lotecobv` ones (and the payer's view of a `cobv`) in
//! `cobv/`.
//!
//! Requests are checked against the standard's schema (what its `CobOperacaoInvalida`,
//! `CobVOperacaoInvalida`, `LoteCobVOperacaoInvalida`, `PixDevolucaoInvalida` and
//! `WebhookOperacaoInvalida` list), every violation reported in
//! `violacoes`, so a client bug shows up here rather than at a real PSP. Scopes are not
//! enforced: every token carries all.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{MatchedPath, Path, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use base64::Engine as _;
use serde::de::DeserializeOwned;
use subtle::ConstantTimeEq;

use super::cobv;
use super::devolucao;
use super::state::{FaultKind, Faults, Sim, State as SimState, Webhook, now_ms, random_alnum};
use pixgate_pix::apipix::{
    Calendario, CalendarioSolicitado, CobCompleta, CobRevisada, CobSolicitada, CobStatus,
    Documento, Loc, PROBLEM_JSON, Problema, TipoCob, TokenResponse, Txid, Violacao,
    WebhookCompleto, WebhookSolicitado, problem_type,
};

/// The API Pix base path; the token endpoint sits beside it, as at most PSPs.
pub(super) const BASE: &str = "/api/v2";
/// What every token may do (reported in the token answer; not enforced).
const SCOPES: &str = "cob.write cob.read cobv.write cobv.read lotecobv.write lotecobv.read \
                      pix.write pix.read webhook.write webhook.read \
                      payloadlocationrec.write payloadlocationrec.read rec.write rec.read \
                      solicrec.write solicrec.read cobr.write cobr.read webhookrec.write \
                      webhookrec.read webhookcobr.write webhookcobr.read";
/// The route whose answers the `devolucoes.dropAnswer` switch loses, as [`route_label`] names it.
const PUT_DEVOLUCAO: &str = "PUT /pix/{e2eid}/devolucao/{id}";

pub(super) fn router(sim: Arc<Sim>) -> Router {
    let api = Router::new()
        .route("/cob/{txid}", put(put_cob).get(get_cob).patch(patch_cob))
        .route(
            "/cobv/{txid}",
            put(cobv::put_cobv)
                .get(cobv::get_cobv)
                .patch(cobv::patch_cobv),
        )
        .route(
            "/lotecobv/{id}",
            put(cobv::lote::put_lote).get(cobv::lote::get_lote),
        )
        .route("/pix", get(super::pix_list::list_pix))
        .route("/pix/{e2eid}", get(devolucao::get_pix))
        .route(
            "/pix/{e2eid}/devolucao/{id}",
            put(devolucao::put_devolucao).get(devolucao::get_devolucao),
        )
        .route(
            "/webhook/{chave}",
            put(put_webhook).get(get_webhook).delete(delete_webhook),
        )
        .merge(super::rec::api_routes())
        .route_layer(from_fn_with_state(sim.clone(), require_token));
    // The payer PSP's view of a cobv: at its location's path, with no token (the standard's
    // `security: []`), faults and latency as for the API.
    let payload = format!("{}/cobv/{{pixUrlAccessToken}}", sim.settings.payload_path);
    Router::new()
        .nest(BASE, api)
        .route("/oauth/token", post(token))
        .route(&payload, get(cobv::payload))
        .route_layer(from_fn_with_state(sim.clone(), faults))
        .with_state(sim)
}

/// An answer other than success, as the standard's problem+json.
#[derive(Debug, thiserror::Error)]
pub(super) enum ApiError {
    /// 400: the request breaks the schema or the rules; `name` is the standard's error type.
    #[error("{detail}")]
    Invalid {
        name: &'static str,
        title: &'static str,
        detail: String,
        violacoes: Vec<Violacao>,
    },
    #[error("{detail}")]
    NotFound {
        name: &'static str,
        detail: &'static str,
    },
    /// 410: what was there is gone for good (a removed charge's payload).
    #[error("{detail}")]
    Gone {
        name: &'static str,
        detail: &'static str,
    },
    /// 409, control routes only: the charge is not in a state that allows the action.
    #[error("{0}")]
    Conflict(String),
    #[error("missing, unknown or expired access token")]
    Unauthorized,
    /// A fault the control routes asked for.
    #[error("simulated failure")]
    Simulated(StatusCode),
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    pub fn invalid_cob(violacoes: Vec<Violacao>) -> Self {
        Self::Invalid {
            name: "CobOperacaoInvalida",
            title: "Cobrança inválida.",
            detail: "A requisição que busca alterar ou criar uma cobrança para pagamento \
                     imediato não respeita o schema ou está semanticamente errada."
                .to_owned(),
            violacoes,
        }
    }

    pub fn invalid_devolucao(violacoes: Vec<Violacao>) -> Self {
        Self::Invalid {
            name: "PixDevolucaoInvalida",
            title: "Devolução inválida.",
            detail: "A presente requisição de devolução não respeita o schema ou não faz \
                     sentido semanticamente."
                .to_owned(),
            violacoes,
        }
    }

    fn invalid_webhook(violacoes: Vec<Violacao>) -> Self {
        Self::Invalid {
            name: "WebhookOperacaoInvalida",
            title: "Webhook inválido.",
            detail: "A presente requisição busca criar um webhook sem respeitar o schema ou, \
                     ainda, com sentido semanticamente inválido."
                .to_owned(),
            violacoes,
        }
    }

    pub fn invalid_cobv(violacoes: Vec<Violacao>) -> Self {
        Self::Invalid {
            name: "CobVOperacaoInvalida",
            title: "Cobrança inválida.",
            detail: "A requisição que busca alterar ou criar uma cobrança com vencimento não \
                     respeita o schema ou está semanticamente errada."
                .to_owned(),
            violacoes,
        }
    }

    pub fn invalid_lote(violacoes: Vec<Violacao>) -> Self {
        Self::Invalid {
            name: "LoteCobVOperacaoInvalida",
            title: "Lote de cobranças inválido.",
            detail: "A requisição que busca alterar ou criar um lote de cobranças com \
                     vencimento não respeita o schema ou está semanticamente errada."
                .to_owned(),
            violacoes,
        }
    }

    pub fn invalid_payload(violacoes: Vec<Violacao>) -> Self {
        Self::Invalid {
            name: "CobPayloadOperacaoInvalida",
            title: "Requisição inválida.",
            detail: "A cobrança existe, mas a requisição é inválida.".to_owned(),
            violacoes,
        }
    }

    pub fn cobv_not_found() -> Self {
        Self::NotFound {
            name: "CobVNaoEncontrada",
            detail: "Cobrança com vencimento não encontrada para o txid informado.",
        }
    }

    pub fn lote_not_found() -> Self {
        Self::NotFound {
            name: "LoteCobVNaoEncontrado",
            detail: "Lote não encontrado para o id informado.",
        }
    }

    pub fn payload_not_found() -> Self {
        Self::NotFound {
            name: "CobPayloadNaoEncontrado",
            detail: "A cobrança em questão não foi encontrada para a location requisitada.",
        }
    }

    pub fn payload_gone() -> Self {
        Self::Gone {
            name: "CobPayloadNaoEncontrado",
            detail: "A cobrança desta location foi removida e não será mais exibida.",
        }
    }

    pub fn cob_not_found() -> Self {
        Self::NotFound {
            name: "CobNaoEncontrado",
            detail: "Cobrança não encontrada para o txid informado.",
        }
    }

    pub fn pix_not_found() -> Self {
        Self::NotFound {
            name: "PixNaoEncontrado",
            detail: "Pix não encontrado para o e2eid informado.",
        }
    }

    pub fn devolucao_not_found() -> Self {
        Self::NotFound {
            name: "PixDevolucaoNaoEncontrada",
            detail: "Devolução representada por {id} não encontrada para o e2eid informado.",
        }
    }
}

impl From<getrandom::Error> for ApiError {
    fn from(e: getrandom::Error) -> Self {
        Self::Internal(format!("random generator: {e}"))
    }
}

impl ApiError {
    /// The standard's problem+json body of this error, and its HTTP status.
    pub fn problema(self) -> (StatusCode, Problema) {
        let (status, name, title, detail, violacoes) = match self {
            Self::Invalid {
                name,
                title,
                detail,
                violacoes,
            } => (StatusCode::BAD_REQUEST, name, title, detail, violacoes),
            Self::NotFound { name, detail } => (
                StatusCode::NOT_FOUND,
                name,
                "Não Encontrado",
                detail.to_owned(),
                vec![],
            ),
            Self::Gone { name, detail } => (
                StatusCode::GONE,
                name,
                "Não Encontrado",
                detail.to_owned(),
                vec![],
            ),
            Self::Conflict(detail) => (
                StatusCode::CONFLICT,
                "OperacaoInvalida",
                "Operação inválida.",
                detail,
                vec![],
            ),
            Self::Unauthorized => (
                StatusCode::UNAUTHORIZED,
                "AcessoNegado",
                "Acesso Negado",
                "Token de acesso ausente, desconhecido ou expirado.".to_owned(),
                vec![],
            ),
            Self::Simulated(status) if status == StatusCode::SERVICE_UNAVAILABLE => (
                status,
                "ServicoIndisponivel",
                "Serviço Indisponível",
                "Serviço não está disponível no momento (falha simulada).".to_owned(),
                vec![],
            ),
            Self::Simulated(status) => (
                status,
                "ErroInterno",
                "Erro Interno",
                "Falha simulada.".to_owned(),
                vec![],
            ),
            Self::Internal(detail) => {
                tracing::error!("psp-sim: internal error: {detail}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "ErroInterno",
                    "Erro Interno",
                    detail,
                    vec![],
                )
            }
        };
        let body = Problema {
            kind: problem_type(name),
            title: title.to_owned(),
            status: status.as_u16(),
            detail: Some(detail),
            correlation_id: None,
            violacoes,
        };
        (status, body)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = self.problema();
        let mut response = (
            status,
            [(header::CONTENT_TYPE, PROBLEM_JSON)],
            serde_json::to_vec(&body).unwrap_or_default(),
        )
            .into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer error=\"invalid_token\""),
            );
        }
        response
    }
}

pub(super) fn violation(propriedade: &str, razao: impl Into<String>) -> Violacao {
    Violacao {
        razao: Some(razao.into()),
        propriedade: Some(propriedade.to_owned()),
        valor: None,
    }
}

/// The fields of the standard's request bodies. None of them may be `null` there, though
/// [`pixgate_pix::apipix`] reads `null` as absent (PSPs answer with it); the simulator, standing in
/// for a strict PSP, refuses it.
pub(super) const STANDARD_FIELDS: &[&str] = &[
    "calendario",
    "expiracao",
    "devedor",
    "cpf",
    "cnpj",
    "nome",
    "valor",
    "original",
    "modalidadeAlteracao",
    "chave",
    "solicitacaoPagador",
    "infoAdicionais",
    "status",
    "webhookUrl",
    "natureza",
    "descricao",
];

/// The standard's top-level fields that are objects in the charge and webhook requests (`valor`
/// is a string elsewhere: a devolução's). serde also reads a struct from a JSON array (its
/// fields in order), which the standard does not allow.
const OBJECT_FIELDS: &[&str] = &["calendario", "devedor", "valor"];

/// The first place where a body breaks the standard's shapes in a way serde would let pass:
/// a `null` standard field (one of `fields`), an array where an object belongs (`objects`,
/// paths from the body's root: `valor`, `valor.multa`, `valor.desconto.descontoDataFixa[]` for
/// the items of an array); as (`cob.devedor.nome`, why). `rel` is `path` from the root.
fn shape_violation(
    value: &serde_json::Value,
    path: &str,
    rel: &str,
    fields: &[&str],
    objects: &[&str],
) -> Option<(String, &'static str)> {
    match value {
        serde_json::Value::Object(map) => map.iter().find_map(|(key, v)| {
            let here = format!("{path}.{key}");
            let rel_here = if rel.is_empty() {
                key.clone()
            } else {
                format!("{rel}.{key}")
            };
            let known = fields.contains(&key.as_str());
            if known && v.is_null() {
                Some((here, "null não é um valor permitido"))
            } else if objects.contains(&rel_here.as_str()) && !v.is_object() {
                Some((here, "deve ser um objeto"))
            } else if key == "infoAdicionais"
                && !v
                    .as_array()
                    .is_some_and(|items| items.iter().all(|i| i.is_object()))
            {
                Some((here, "deve ser uma lista de objetos"))
            } else {
                shape_violation(v, &here, &rel_here, fields, objects)
            }
        }),
        serde_json::Value::Array(items) => {
            let rel_item = format!("{rel}[]");
            items.iter().enumerate().find_map(|(i, v)| {
                let here = format!("{path}[{i}]");
                if objects.contains(&rel_item.as_str()) && !v.is_object() {
                    Some((here, "deve ser um objeto"))
                } else {
                    shape_violation(v, &here, &rel_item, fields, objects)
                }
            })
        }
        _ => None,
    }
}

/// Reads a body of the standard: a JSON object with no `null` field and no array where an
/// object belongs (see [`shape_violation`]), that fits the type.
pub(super) fn parse_standard<T: DeserializeOwned>(
    body: &[u8],
    root: &str,
    objects: &[&str],
    error: fn(Vec<Violacao>) -> ApiError,
) -> Result<T, ApiError> {
    let value = parse_value(body, root, error)?;
    check_standard_shape(&value, root, STANDARD_FIELDS, objects, error)?;
    from_value(value, root, error)
}

/// What [`parse_standard`] checks before reading a body, for a body already parsed as JSON,
/// with the list of the standard's fields that body may hold.
pub(super) fn check_standard_shape(
    value: &serde_json::Value,
    root: &str,
    fields: &[&str],
    objects: &[&str],
    error: fn(Vec<Violacao>) -> ApiError,
) -> Result<(), ApiError> {
    if !value.is_object() {
        return Err(error(vec![violation(
            root,
            "o corpo deve ser um objeto JSON",
        )]));
    }
    if let Some((path, why)) = shape_violation(value, root, "", fields, objects) {
        return Err(error(vec![violation(&path, why)]));
    }
    Ok(())
}

/// Reads a JSON body; a body that is no JSON or does not fit the type is a violation at the
/// path where it went wrong (`body.count`).
pub(super) fn parse_json<T: DeserializeOwned>(
    body: &[u8],
    root: &str,
    error: fn(Vec<Violacao>) -> ApiError,
) -> Result<T, ApiError> {
    from_value(parse_value(body, root, error)?, root, error)
}

pub(super) fn parse_value(
    body: &[u8],
    root: &str,
    error: fn(Vec<Violacao>) -> ApiError,
) -> Result<serde_json::Value, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| error(vec![violation(root, format!("JSON inválido: {e}"))]))
}

pub(super) fn from_value<T: DeserializeOwned>(
    value: serde_json::Value,
    root: &str,
    error: fn(Vec<Violacao>) -> ApiError,
) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let propriedade = if path == "." {
            root.to_owned()
        } else {
            format!("{root}.{path}")
        };
        error(vec![violation(&propriedade, e.inner().to_string())])
    })
}

pub(super) fn json<T: serde::Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (status, [(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => ApiError::Internal(e.to_string()).into_response(),
    }
}

// ---- OAuth2 -----------------------------------------------------------------------------

/// `POST /oauth/token`: client credentials with HTTP Basic (RFC 6749 §4.4). Errors use
/// OAuth2's own JSON (`{"error": ...}`), as token endpoints do, not the API's problem+json.
async fn token(State(sim): State<Arc<Sim>>, headers: HeaderMap, body: Bytes) -> Response {
    let oauth_error = |status: StatusCode, error: &str| {
        let mut response = (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            serde_json::json!({ "error": error }).to_string(),
        )
            .into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Basic realm=\"psp-sim\""),
            );
        }
        response
    };
    if !client_authenticated(&sim, &headers) {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client");
    }
    let grant = url::form_urlencoded::parse(&body)
        .find(|(k, _)| k == "grant_type")
        .map(|(_, v)| v.into_owned());
    match grant.as_deref() {
        Some("client_credentials") => {}
        Some(_) => return oauth_error(StatusCode::BAD_REQUEST, "unsupported_grant_type"),
        None => return oauth_error(StatusCode::BAD_REQUEST, "invalid_request"),
    }
    let access_token = match random_alnum(40) {
        Ok(token) => token,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let expires_in = sim.settings.token_expires_in;
    {
        let mut state = sim.state();
        let now = now_ms();
        state.tokens.retain(|_, expires| *expires > now);
        let lifetime = i64::try_from(expires_in.saturating_mul(1000)).unwrap_or(i64::MAX);
        state
            .tokens
            .insert(access_token.clone(), now.saturating_add(lifetime));
        state.stats.tokens_issued += 1;
    }
    let mut response = json(
        StatusCode::OK,
        &TokenResponse {
            access_token,
            token_type: "Bearer".to_owned(),
            expires_in,
            scope: Some(SCOPES.to_owned()),
        },
    );
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

fn client_authenticated(sim: &Sim, headers: &HeaderMap) -> bool {
    let Some(encoded) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("basic"))
        .map(|(_, credentials)| credentials.trim())
    else {
        return false;
    };
    let Ok(decoded) = base64::engine::general_purpose::STANDARD.decode(encoded) else {
        return false;
    };
    let Some((id, secret)) = std::str::from_utf8(&decoded)
        .ok()
        .and_then(|s| s.split_once(':'))
    else {
        return false;
    };
    let id_ok = id.as_bytes().ct_eq(sim.settings.client_id.as_bytes());
    let secret_ok = secret
        .as_bytes()
        .ct_eq(sim.settings.client_secret.as_bytes());
    (id_ok & secret_ok).into()
}

/// Lets through requests with a current bearer token; 401 otherwise.
async fn require_token(
    State(sim): State<Arc<Sim>>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let token = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().to_owned());
    {
        let mut state = sim.state();
        let now = now_ms();
        let valid = token
            .as_ref()
            .and_then(|t| state.tokens.get(t))
            .is_some_and(|expires| *expires > now);
        if !valid {
            state.stats.rejected_tokens += 1;
            return Err(ApiError::Unauthorized);
        }
    }
    Ok(next.run(request).await)
}

// ---- Faults -------------------------------------------------------------------------------

/// `PUT /cob/{txid}`: the method and the route as the standard writes it, without the base
/// (the API's, or the location path before `/cobv/{pixUrlAccessToken}`).
fn route_label(method: &Method, matched: Option<&MatchedPath>, payload_path: &str) -> String {
    let path = matched.map_or("?", MatchedPath::as_str);
    let path = match path.strip_prefix(BASE) {
        Some(api) => api,
        None => path
            .strip_prefix(payload_path)
            .filter(|p| *p == "/cobv/{pixUrlAccessToken}")
            .unwrap_or(path),
    };
    format!("{method} {path}")
}

/// Counts the request, adds the latency, and injects the next fault if one is due.
async fn faults(State(sim): State<Arc<Sim>>, request: Request, next: Next) -> Response {
    let label = route_label(
        request.method(),
        request.extensions().get::<MatchedPath>(),
        &sim.settings.payload_path,
    );
    let (latency_ms, fault, drop_answer) = {
        let mut state = sim.state();
        *state.stats.routes.entry(label.clone()).or_default() += 1;
        if let Some(traceparent) = request
            .headers()
            .get("traceparent")
            .and_then(|v| v.to_str().ok())
        {
            state
                .stats
                .traceparents
                .insert(label.clone(), traceparent.to_owned());
        }
        let drop_answer = label == PUT_DEVOLUCAO && state.switches.devolucoes.drop_answer;
        (
            state.switches.latency_ms,
            take_fault(&mut state, &label),
            drop_answer,
        )
    };
    if latency_ms > 0 {
        tokio::time::sleep(Duration::from_millis(latency_ms)).await;
    }
    match fault {
        None if drop_answer => {
            // Done and then lost, as an `afterProcessing` fault does, for every request while
            // the switch is on: what a gateway in front of a PSP answers when the PSP's
            // answer did not come back in time.
            drop(next.run(request).await);
            sim.state().stats.answers_dropped += 1;
            ApiError::Simulated(StatusCode::GATEWAY_TIMEOUT).into_response()
        }
        None => next.run(request).await,
        Some(fault) => {
            if fault.after_processing {
                // Done and then lost: what a client sees when the PSP acted but the answer
                // never arrived.
                drop(next.run(request).await);
            }
            if fault.kind == FaultKind::Hang {
                tokio::time::sleep(Duration::from_millis(fault.hang_ms)).await;
                return ApiError::Simulated(StatusCode::SERVICE_UNAVAILABLE).into_response();
            }
            let status =
                StatusCode::from_u16(fault.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
            ApiError::Simulated(status).into_response()
        }
    }
}

fn take_fault(state: &mut SimState, label: &str) -> Option<Faults> {
    let faults = state.faults.as_mut()?;
    if faults.route.as_deref().is_some_and(|route| route != label) {
        return None;
    }
    let fault = faults.clone();
    faults.remaining = faults.remaining.saturating_sub(1);
    if faults.remaining == 0 {
        state.faults = None;
    }
    state.stats.faults_injected += 1;
    Some(fault)
}

// ---- Charges ------------------------------------------------------------------------------

/// The standard's limits on a charge request (`CobOperacaoInvalida`'s violations).
fn check_cob_fields(
    calendario: Option<&CalendarioSolicitado>,
    devedor: Option<&pixgate_pix::apipix::Devedor>,
    valor: Option<&pixgate_pix::apipix::CobValor>,
    chave: Option<&str>,
    solicitacao_pagador: Option<&str>,
    info_adicionais: &[pixgate_pix::apipix::InfoAdicional],
) -> Vec<Violacao> {
    let mut out = Vec::new();
    let chars = |s: &str| s.chars().count();
    if let Some(c) = calendario
        && (c.expiracao == 0 || c.expiracao > i32::MAX as u32)
    {
        out.push(violation(
            "cob.calendario.expiracao",
            "O campo cob.calendario.expiracao deve ser maior que zero (int32).",
        ));
    }
    if let Some(d) = devedor {
        let ok = match &d.documento {
            Documento::Cpf(cpf) => cpf.len() == 11 && cpf.bytes().all(|b| b.is_ascii_digit()),
            Documento::Cnpj(cnpj) => {
                cnpj.len() == 14
                    && cnpj
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
            }
        };
        if !ok {
            out.push(violation(
                "cob.devedor",
                "O objeto cob.devedor não respeita o schema (cpf: 11 dígitos; cnpj: 14 de [0-9A-Z]).",
            ));
        }
        if chars(&d.nome) > 200 {
            out.push(violation(
                "cob.devedor.nome",
                "O campo cob.devedor.nome tem mais de 200 caracteres.",
            ));
        }
    }
    if let Some(v) = valor {
        if v.original.centavos() == 0 {
            out.push(violation(
                "cob.valor.original",
                "O campo cob.valor.original é zero.",
            ));
        }
        if v.modalidade_alteracao.is_some_and(|m| m > 1) {
            out.push(violation(
                "cob.valor.modalidadeAlteracao",
                "O campo cob.valor.modalidadeAlteracao deve ser 0 ou 1.",
            ));
        }
    }
    if let Some(chave) = chave
        && (chave.is_empty() || chars(chave) > 77)
    {
        out.push(violation(
            "cob.chave",
            "O campo cob.chave não respeita o schema (1 a 77 caracteres).",
        ));
    }
    if solicitacao_pagador.is_some_and(|s| chars(s) > 140) {
        out.push(violation(
            "cob.solicitacaoPagador",
            "O campo cob.solicitacaoPagador tem mais de 140 caracteres.",
        ));
    }
    if info_adicionais.len() > 50
        || info_adicionais
            .iter()
            .any(|i| chars(&i.nome) > 50 || chars(&i.valor) > 200)
    {
        out.push(violation(
            "cob.infoAdicionais",
            "O objeto cob.infoAdicionais não respeita o schema.",
        ));
    }
    out
}

/// The request a charge's current fields amount to: a `PUT` equal to it is a retry.
fn as_request(cob: &CobCompleta) -> CobSolicitada {
    CobSolicitada {
        calendario: CalendarioSolicitado {
            expiracao: cob.calendario.expiracao,
        },
        devedor: cob.devedor.clone(),
        valor: cob.valor,
        chave: cob.chave.clone(),
        solicitacao_pagador: cob.solicitacao_pagador.clone(),
        info_adicionais: cob.info_adicionais.clone(),
    }
}

/// `PUT /cob/{txid}`: creates the charge; the same request again answers the same charge
/// (counted in the stats), another one revises an `ATIVA` charge, as the standard allows.
async fn put_cob(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid)
        .map_err(|e| ApiError::invalid_cob(vec![violation("txid", e.to_string())]))?;
    let request: CobSolicitada =
        parse_standard(&body, "cob", OBJECT_FIELDS, ApiError::invalid_cob)?;
    let violacoes = check_cob_fields(
        Some(&request.calendario),
        request.devedor.as_ref(),
        Some(&request.valor),
        Some(&request.chave),
        request.solicitacao_pagador.as_deref(),
        &request.info_adicionais,
    );
    if !violacoes.is_empty() {
        return Err(ApiError::invalid_cob(violacoes));
    }
    let location = format!(
        "{}/{}",
        sim.settings.location_base,
        super::state::random_hex(32)?
    );
    let mut state = sim.state();
    *state
        .stats
        .put_cob
        .entry(txid.as_str().to_owned())
        .or_default() += 1;
    let omit_code = state.switches.omit_pix_copia_e_cola;
    if !state.cobs.contains_key(&txid) && state.txid_taken(&txid) {
        return Err(ApiError::invalid_cob(vec![violation(
            "txid",
            "O txid já identifica uma cobrança com vencimento (ou foi pedido num lote).",
        )]));
    }
    if let Some(stored) = state.cobs.get_mut(&txid) {
        if as_request(stored) == request {
            return Ok(json(StatusCode::CREATED, stored));
        }
        if stored.status != CobStatus::Ativa {
            return Err(ApiError::invalid_cob(vec![violation(
                "cob.status",
                "A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la.",
            )]));
        }
        stored.calendario.expiracao = request.calendario.expiracao;
        stored.devedor = request.devedor;
        stored.valor = request.valor;
        stored.chave = request.chave;
        stored.solicitacao_pagador = request.solicitacao_pagador;
        stored.info_adicionais = request.info_adicionais;
        stored.revisao += 1;
        return Ok(json(StatusCode::CREATED, stored));
    }
    let now = pixgate_pix::apipix::Timestamp::from_unix_ms(now_ms());
    let code = pixgate_pix::brcode::dynamic(
        &location,
        &sim.settings.merchant_name,
        &sim.settings.merchant_city,
    )
    .map_err(|e| ApiError::Internal(format!("BR Code: {e}")))?;
    let loc_id = state.next_loc_id;
    state.next_loc_id += 1;
    let cob = CobCompleta {
        calendario: Calendario {
            criacao: now,
            expiracao: request.calendario.expiracao,
        },
        txid: txid.clone(),
        revisao: 0,
        loc: Some(Loc {
            id: loc_id,
            location: Some(location.clone()),
            tipo_cob: Some(TipoCob::Cob),
            criacao: Some(now),
        }),
        location: Some(location),
        status: CobStatus::Ativa,
        devedor: request.devedor,
        valor: request.valor,
        chave: request.chave,
        solicitacao_pagador: request.solicitacao_pagador,
        info_adicionais: request.info_adicionais,
        pix_copia_e_cola: (!omit_code).then_some(code),
        pix: Vec::new(),
    };
    let response = json(StatusCode::CREATED, &cob);
    state.cobs.insert(txid, cob);
    state.stats.cobs_created += 1;
    Ok(response)
}

/// `GET /cob/{txid}`: with each pix's `devolucoes[]`, those due settled first.
async fn get_cob(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cob_not_found())?;
    let mut state = sim.state();
    devolucao::settle_due(&sim, &mut state, now_ms());
    // A charge paid `unseen`: the PSP's read answers it as it was before the payment.
    if let Some(left) = state.unseen.get_mut(&txid)
        && *left > 0
    {
        *left -= 1;
        let mut before = state
            .cobs
            .get(&txid)
            .ok_or_else(ApiError::cob_not_found)?
            .clone();
        before.status = CobStatus::Ativa;
        before.pix.clear();
        return Ok(json(StatusCode::OK, &before));
    }
    let cob = state.cobs.get(&txid).ok_or_else(ApiError::cob_not_found)?;
    Ok(json(StatusCode::OK, cob))
}

/// `PATCH /cob/{txid}`: revises an `ATIVA` charge, or removes it (`status`
/// `REMOVIDA_PELO_USUARIO_RECEBEDOR`, alone).
async fn patch_cob(
    State(sim): State<Arc<Sim>>,
    Path(txid): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let txid = Txid::parse(&txid).map_err(|_| ApiError::cob_not_found())?;
    let revision: CobRevisada = parse_standard(&body, "cob", OBJECT_FIELDS, ApiError::invalid_cob)?;
    let mut violacoes = check_cob_fields(
        revision.calendario.as_ref(),
        revision.devedor.as_ref(),
        revision.valor.as_ref(),
        revision.chave.as_deref(),
        revision.solicitacao_pagador.as_deref(),
        &[],
    );
    let removal = match revision.status {
        None => false,
        Some(CobStatus::RemovidaPeloUsuarioRecebedor) => true,
        Some(_) => {
            violacoes.push(violation(
                "cob.status",
                "O campo cob.status só admite REMOVIDA_PELO_USUARIO_RECEBEDOR.",
            ));
            false
        }
    };
    let other_changes = CobRevisada {
        status: None,
        ..revision.clone()
    } != CobRevisada::default();
    if removal && other_changes {
        violacoes.push(violation(
            "cob.status",
            "Não se remove uma cobrança ao mesmo tempo em que se alteram outros campos.",
        ));
    }
    if !violacoes.is_empty() {
        return Err(ApiError::invalid_cob(violacoes));
    }
    let mut state = sim.state();
    let cob = state
        .cobs
        .get_mut(&txid)
        .ok_or_else(ApiError::cob_not_found)?;
    // A revision that changes nothing alters no charge, whatever its status.
    if cob.status != CobStatus::Ativa && (removal || other_changes) {
        return Err(ApiError::invalid_cob(vec![violation(
            "cob.status",
            "A cobrança não está ATIVA, e a presente requisição busca alterá-la.",
        )]));
    }
    if removal {
        cob.status = CobStatus::RemovidaPeloUsuarioRecebedor;
        cob.revisao += 1;
    } else if other_changes {
        if let Some(c) = revision.calendario {
            cob.calendario.expiracao = c.expiracao;
        }
        if let Some(d) = revision.devedor {
            cob.devedor = Some(d);
        }
        if let Some(v) = revision.valor {
            cob.valor = v;
        }
        if let Some(k) = revision.chave {
            cob.chave = k;
        }
        if let Some(s) = revision.solicitacao_pagador {
            cob.solicitacao_pagador = Some(s);
        }
        cob.revisao += 1;
    }
    Ok(json(StatusCode::OK, cob))
}

// ---- Webhooks -----------------------------------------------------------------------------

/// Loopback only: see the module docs of `psp_sim`.
pub(super) fn loopback_url(url: &str) -> Result<url::Url, String> {
    // As sent, with nothing for the parser to encode or drop (blanks, control characters,
    // non-ASCII): what was registered is exactly what is called.
    if !url.bytes().all(|b| (b'!'..=b'~').contains(&b)) {
        return Err("webhookUrl deve ser ASCII imprimível, sem espaços".to_owned());
    }
    let parsed = url::Url::parse(url).map_err(|e| format!("URL inválida: {e}"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err("webhookUrl deve ser http ou https".to_owned());
    }
    let loopback = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    };
    if !loopback {
        return Err(
            "o simulador só notifica endereços de loopback (127.0.0.0/8, ::1, localhost)"
                .to_owned(),
        );
    }
    Ok(parsed)
}

fn check_chave(chave: &str) -> Result<(), ApiError> {
    if chave.is_empty() || chave.chars().count() > 77 {
        return Err(ApiError::invalid_webhook(vec![violation(
            "chave",
            "O parâmetro {chave} não corresponde a uma chave DICT válida (1 a 77 caracteres).",
        )]));
    }
    Ok(())
}

fn webhook_not_found() -> ApiError {
    ApiError::NotFound {
        name: "WebhookNaoEncontrado",
        detail: "O webhook denotado por {chave} não encontra-se estabelecido.",
    }
}

/// `PUT /webhook/{chave}`: registers (or replaces) where callbacks for the key go.
async fn put_webhook(
    State(sim): State<Arc<Sim>>,
    Path(chave): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    check_chave(&chave)?;
    let request: WebhookSolicitado =
        parse_standard(&body, "webhook", OBJECT_FIELDS, ApiError::invalid_webhook)?;
    loopback_url(&request.webhook_url)
        .map_err(|e| ApiError::invalid_webhook(vec![violation("webhook.webhookUrl", e)]))?;
    sim.state().webhooks.insert(
        chave,
        Webhook {
            url: request.webhook_url,
            criacao_ms: now_ms(),
        },
    );
    Ok(StatusCode::OK.into_response())
}

/// `GET /webhook/{chave}`.
async fn get_webhook(
    State(sim): State<Arc<Sim>>,
    Path(chave): Path<String>,
) -> Result<Response, ApiError> {
    let state = sim.state();
    let webhook = state.webhooks.get(&chave).ok_or_else(webhook_not_found)?;
    Ok(json(
        StatusCode::OK,
        &WebhookCompleto {
            webhook_url: webhook.url.clone(),
            chave: Some(chave),
            criacao: pixgate_pix::apipix::Timestamp::from_unix_ms(webhook.criacao_ms),
        },
    ))
}

/// `DELETE /webhook/{chave}`.
async fn delete_webhook(
    State(sim): State<Arc<Sim>>,
    Path(chave): Path<String>,
) -> Result<Response, ApiError> {
    sim.state()
        .webhooks
        .remove(&chave)
        .ok_or_else(webhook_not_found)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callbacks_go_to_loopback_only() {
        for ok in [
            "http://127.0.0.1:9000/hook",
            "https://localhost/x",
            "https://[::1]:8443/p",
            "http://127.9.9.9/",
        ] {
            assert!(loopback_url(ok).is_ok(), "{ok}");
        }
        for bad in [
            "https://example.com/hook",
            "https://10.0.0.1/",
            "ftp://127.0.0.1/",
            "https://localhost.example.com/",
            "https://localhost/a b",
            "not a url",
        ] {
            assert!(loopback_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn body_errors_name_the_property() {
        let err = parse_standard::<CobSolicitada>(
            br#"{"calendario": {}, "valor": {"original": "1.0"}, "chave": "k"}"#,
            "cob",
            OBJECT_FIELDS,
            ApiError::invalid_cob,
        )
        .unwrap_err();
        let ApiError::Invalid { violacoes, .. } = err else {
            panic!("{err:?}")
        };
        assert_eq!(
            violacoes[0].propriedade.as_deref(),
            Some("cob.valor.original")
        );
        assert!(
            parse_standard::<CobSolicitada>(
                br#"{"calendario": {}, "valor": {"original": "1.00"}, "chave": "k"} x"#,
                "cob",
                OBJECT_FIELDS,
                ApiError::invalid_cob
            )
            .is_err()
        );
        let err = parse_standard::<CobSolicitada>(
            br#"{"calendario": {}, "valor": {"original": "1.00"}, "chave": "k",
                 "devedor": {"cpf": "52998224725", "nome": null}}"#,
            "cob",
            OBJECT_FIELDS,
            ApiError::invalid_cob,
        )
        .unwrap_err();
        let ApiError::Invalid { violacoes, .. } = err else {
            panic!("{err:?}")
        };
        assert_eq!(
            violacoes[0].propriedade.as_deref(),
            Some("cob.devedor.nome")
        );
        for body in [
            r#"[null, null]"#,
            r#"{"calendario": [1], "valor": {"original": "1.00"}, "chave": "k"}"#,
            r#"{"calendario": {}, "valor": {"original": "1.00"}, "chave": "k", "infoAdicionais": [["a", "b"]]}"#,
        ] {
            assert!(
                parse_standard::<CobRevisada>(
                    body.as_bytes(),
                    "cob",
                    OBJECT_FIELDS,
                    ApiError::invalid_cob
                )
                .is_err(),
                "{body}"
            );
        }
    }
}
