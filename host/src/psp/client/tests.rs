//! The client against a scripted API Pix on loopback (plain http): tokens, retries and
//! classification. TLS and mTLS are tested end to end against `pixgate psp-sim`.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method as HttpMethod, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, put};
use base64::Engine as _;
use serde_json::json;

use super::*;
use crate::psp::charge_kinds;
use pixgate_domain::ChargeKind;
use pixgate_pix::apipix::{
    Amount, CalendarioSolicitado, CobSolicitada, CobStatus, CobValor, CobrSolicitada, RecAtivacao,
    RecRevisada, RecSolicitada, SolicRecSolicitada,
};

/// What the fake answers to the API calls (the token endpoint always works for the right
/// credentials).
#[derive(Debug, Clone)]
enum Mode {
    Normal,
    Status(u16, &'static str),
    Slow(Duration),
    Huge,
    Garbage,
}

#[derive(Debug)]
struct Fake {
    mode: Mode,
    expires_in: u64,
    issued: u32,
    valid: HashSet<String>,
    api_calls: u32,
    /// Answer 401 to every token.
    refuse_all: bool,
    bodies: Vec<serde_json::Value>,
    /// The Pix Automático requests: method, path and query, body.
    requests: Vec<(String, String, Option<serde_json::Value>)>,
}

type Shared = Arc<Mutex<Fake>>;

const CLIENT_ID: &str = "pixgate-client";
const CLIENT_SECRET: &str = "s3cr3t-value-never-logged";

async fn token(State(fake): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"))
    );
    let auth = headers.get("authorization").and_then(|v| v.to_str().ok());
    if auth != Some(expected.as_str()) || body.as_ref() != b"grant_type=client_credentials" {
        return (
            StatusCode::UNAUTHORIZED,
            axum::Json(json!({"error": "invalid_client"})),
        )
            .into_response();
    }
    let mut fake = fake.lock().unwrap();
    fake.issued += 1;
    let token = format!("tok-{}", fake.issued);
    fake.valid.insert(token.clone());
    axum::Json(json!({
        "access_token": token, "token_type": "Bearer", "expires_in": fake.expires_in, "scope": "cob.write cob.read"
    }))
    .into_response()
}

fn cob_json(txid: &str) -> serde_json::Value {
    json!({
        "calendario": {"criacao": "2026-11-23T10:00:00.000Z", "expiracao": 3600},
        "txid": txid, "revisao": 0, "status": "ATIVA",
        "loc": {"id": 7, "location": "pix.example.com/qr/v2/abc", "tipoCob": "cob"},
        "location": "pix.example.com/qr/v2/abc",
        "valor": {"original": "129.90"}, "chave": "pix@acme.com.br",
        "pixCopiaECola": "000201..."
    })
}

async fn cob(
    State(fake): State<Shared>,
    Path(txid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mode = {
        let mut fake = fake.lock().unwrap();
        fake.api_calls += 1;
        let bearer = headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or_default();
        if fake.refuse_all || !fake.valid.contains(bearer) {
            return StatusCode::UNAUTHORIZED.into_response();
        }
        if !body.is_empty() {
            fake.bodies
                .push(serde_json::from_slice(&body).unwrap_or_default());
        }
        fake.mode.clone()
    };
    match mode {
        Mode::Normal => (StatusCode::CREATED, axum::Json(cob_json(&txid))).into_response(),
        Mode::Status(status, body) => {
            let mut r = (StatusCode::from_u16(status).unwrap(), body.to_owned()).into_response();
            r.headers_mut()
                .insert("retry-after", axum::http::HeaderValue::from_static("7"));
            if status == 302 {
                r.headers_mut().insert(
                    "location",
                    axum::http::HeaderValue::from_static("/elsewhere"),
                );
            }
            r
        }
        Mode::Slow(delay) => {
            tokio::time::sleep(delay).await;
            (StatusCode::CREATED, axum::Json(cob_json(&txid))).into_response()
        }
        Mode::Huge => "x".repeat(MAX_BODY_BYTES + 1).into_response(),
        Mode::Garbage => (StatusCode::CREATED, "{\"txid\": 12}").into_response(),
    }
}

/// API Pix 2.9.0's examples, with a field the standard does not have (`campoNovo`): what a
/// later version may add is ignored.
fn rec_json(status: &str) -> serde_json::Value {
    json!({
        "idRec": "RR1234567820240115abcdefghijk",
        "vinculo": {"contrato": "63100862", "objeto": "Streaming",
                    "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"}},
        "calendario": {"dataInicial": "2026-12-01", "periodicidade": "MENSAL"},
        "valor": {"valorRec": "35.00"},
        "politicaRetentativa": "PERMITE_3R_7D",
        "recebedor": {"cnpj": "11222333000181", "nome": "Acme", "convenio": "62519"},
        "status": status,
        "loc": {"id": 108, "location": "pix.example.com/qr/v2/rec/abc", "criacao": "2026-11-23T10:00:00.000Z"},
        "atualizacao": [{"status": "CRIADA", "data": "2026-11-23T10:00:00.000Z"}],
        "campoNovo": {"qualquer": 1}
    })
}

fn cobr_json(txid: &str, status: &str) -> serde_json::Value {
    json!({
        "idRec": "RR1234567820240115abcdefghijk",
        "txid": txid,
        "infoAdicional": "Mensalidade",
        "calendario": {"criacao": "2026-11-23", "dataDeVencimento": "2026-12-01"},
        "valor": {"original": "35.00"},
        "status": status,
        "politicaRetentativa": "PERMITE_3R_7D",
        "ajusteDiaUtil": true,
        "recebedor": {"agencia": "0001", "conta": "12345678", "tipoConta": "CORRENTE",
                      "cnpj": "11222333000181", "nome": "Acme"},
        "tentativas": [{"dataLiquidacao": "2026-12-01", "tipo": "AGND", "status": "REJEITADA",
                        "rejeicao": {"codigo": "AM04", "descricao": "saldo"}, "campoNovo": true}],
        "atualizacao": [{"status": "CRIADA", "data": "2026-11-23T10:00:00.000Z"}],
        "campoNovo": "x"
    })
}

fn solicrec_json() -> serde_json::Value {
    json!({
        "idSolicRec": "SC1234567820240115abcdefghijk",
        "idRec": "RR1234567820240115abcdefghijk",
        "status": "CRIADA",
        "calendario": {"dataExpiracaoSolicitacao": "2026-11-30T10:00:00.000Z"},
        "destinatario": {"agencia": "0001", "conta": "123456", "ispbParticipante": "12345678",
                         "cpf": "45164632481"},
        "campoNovo": 1
    })
}

/// The Pix Automático routes (`/locrec`, `/rec`, `/solicrec`, `/cobr`, `/webhookrec`,
/// `/webhookcobr`): records the request, answers the standard's JSON, or the status of
/// [`Mode::Status`].
async fn pix_automatico(
    State(fake): State<Shared>,
    method: HttpMethod,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mode = {
        let mut fake = fake.lock().unwrap();
        fake.api_calls += 1;
        let bearer = headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or_default();
        if fake.refuse_all || !fake.valid.contains(bearer) {
            return StatusCode::UNAUTHORIZED.into_response();
        }
        let body = (!body.is_empty()).then(|| serde_json::from_slice(&body).unwrap_or_default());
        let path = uri
            .path_and_query()
            .map(|p| p.as_str().to_owned())
            .unwrap_or_default();
        fake.requests.push((method.to_string(), path, body));
        fake.mode.clone()
    };
    if let Mode::Garbage = mode {
        return (StatusCode::OK, "{\"idRec\": 12, \"txid\": 12}").into_response();
    }
    if let Mode::Status(status, body) = mode {
        let mut r = (StatusCode::from_u16(status).unwrap(), body.to_owned()).into_response();
        r.headers_mut().insert(
            "content-type",
            axum::http::HeaderValue::from_static("application/problem+json"),
        );
        return r;
    }
    let segments: Vec<&str> = uri
        .path()
        .trim_start_matches("/api/v2/")
        .split('/')
        .collect();
    let (status, body) = match (method.as_str(), segments.as_slice()) {
        ("POST", ["locrec"]) => (
            StatusCode::CREATED,
            json!({"id": 108, "location": "pix.example.com/qr/v2/rec/abc",
                   "criacao": "2026-11-23T10:00:00.000Z", "tipo": "rec"}),
        ),
        ("POST", ["rec"]) => (StatusCode::CREATED, rec_json("CRIADA")),
        ("GET", ["rec", _]) => (StatusCode::OK, rec_json("APROVADA")),
        ("PATCH", ["rec", _]) => (StatusCode::OK, rec_json("CANCELADA")),
        ("POST", ["solicrec"]) => (StatusCode::CREATED, solicrec_json()),
        ("PUT", ["cobr", txid]) => (StatusCode::CREATED, cobr_json(txid, "CRIADA")),
        ("GET", ["cobr", txid]) => (StatusCode::OK, cobr_json(txid, "ATIVA")),
        ("PATCH", ["cobr", txid]) => (StatusCode::OK, cobr_json(txid, "CANCELADA")),
        ("POST", ["cobr", txid, "retentativa", _]) => {
            (StatusCode::CREATED, cobr_json(txid, "ATIVA"))
        }
        ("PUT", ["webhookrec" | "webhookcobr"]) => return StatusCode::OK.into_response(),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    (status, axum::Json(body)).into_response()
}

#[derive(Default)]
struct Recorder(Mutex<Vec<(CallOperation, CallOutcome)>>);

impl CallObserver for Recorder {
    fn observe(&self, record: &CallRecord<'_>) {
        assert_eq!(record.provider, "fake");
        self.0
            .lock()
            .unwrap()
            .push((record.operation, record.outcome));
    }
}

struct Harness {
    fake: Shared,
    client: PspClient,
    recorder: Arc<Recorder>,
}

impl Harness {
    async fn start() -> Self {
        Self::start_with(CLIENT_SECRET, Duration::from_secs(5)).await
    }

    async fn start_with(secret: &str, timeout: Duration) -> Self {
        let fake = Arc::new(Mutex::new(Fake {
            mode: Mode::Normal,
            expires_in: 3600,
            issued: 0,
            valid: HashSet::new(),
            api_calls: 0,
            refuse_all: false,
            bodies: Vec::new(),
            requests: Vec::new(),
        }));
        let app = Router::new()
            .route("/api/v2/oauth/token", post(token))
            .route("/api/v2/cob/{txid}", put(cob).get(cob))
            .route("/api/v2/webhook/{chave}", put(cob))
            .fallback(pix_automatico)
            .with_state(fake.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        let recorder = Arc::new(Recorder::default());
        let base = format!("http://{addr}/api/v2");
        let client = PspClient::new(
            Endpoint {
                provider: "fake".into(),
                api_base: Url::parse(&base).unwrap(),
                token_url: Url::parse(&format!("{base}/oauth/token")).unwrap(),
                client_id: CLIENT_ID.into(),
                client_secret: Secret::new(secret.into()),
                pix_key: "fake-key".into(),
                ca: Vec::new(),
                identity: None,
            },
            &PspArgs {
                connect_timeout: Duration::from_secs(2),
                timeout,
            },
            recorder.clone(),
        )
        .unwrap();
        Self {
            fake,
            client,
            recorder,
        }
    }

    fn set(&self, f: impl FnOnce(&mut Fake)) {
        f(&mut self.fake.lock().unwrap());
    }

    fn issued(&self) -> u32 {
        self.fake.lock().unwrap().issued
    }

    fn outcomes(&self) -> Vec<(CallOperation, CallOutcome)> {
        self.recorder.0.lock().unwrap().clone()
    }
}

fn txid() -> Txid {
    Txid::parse("7978c0c97ea847e78e8849634473c1f1").unwrap()
}

/// The immediate charge's resource: what these calls create and read.
fn immediate() -> &'static dyn ChargeResource {
    charge_kinds::resource(ChargeKind::Immediate).unwrap()
}

fn cob_body() -> serde_json::Value {
    serde_json::to_value(cob_body_wire()).unwrap()
}

fn cob_body_wire() -> CobSolicitada {
    CobSolicitada {
        calendario: CalendarioSolicitado { expiracao: 3600 },
        devedor: None,
        valor: CobValor {
            original: Amount::from_centavos(12_990).unwrap(),
            modalidade_alteracao: None,
        },
        chave: "pix@acme.com.br".into(),
        solicitacao_pagador: Some("Order 10042".into()),
        info_adicionais: Vec::new(),
    }
}

/// No error message or `Debug` may carry a secret, a token or the URL.
fn assert_clean(e: &PspError) {
    for text in [e.to_string(), format!("{e:?}")] {
        for secret in [CLIENT_SECRET, "tok-", "127.0.0.1", "/api/v2"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
    }
}

#[tokio::test]
async fn a_charge_is_put_with_one_token_reused_across_calls() {
    let h = Harness::start().await;
    let cob = h
        .client
        .put_charge(immediate(), &txid(), &cob_body())
        .await
        .unwrap();
    assert_eq!(cob.txid, txid());
    assert_eq!(cob.status, CobStatus::Ativa);
    assert_eq!(cob.pix_copia_e_cola.as_deref(), Some("000201..."));
    let sent = h.fake.lock().unwrap().bodies[0].clone();
    assert_eq!(sent["valor"]["original"], "129.90");
    assert_eq!(sent["chave"], "pix@acme.com.br");
    assert_eq!(sent["calendario"]["expiracao"], 3600);
    h.client.get_charge(immediate(), &txid()).await.unwrap();
    // Any 2xx registers the webhook, whatever its body.
    h.client
        .put_webhook("pix@acme.com.br", "https://pixgate.example/psp/abc")
        .await
        .unwrap();
    assert_eq!(h.issued(), 1);
    assert_eq!(
        h.outcomes(),
        vec![
            (CallOperation::Token, CallOutcome::Success),
            (CallOperation::PutCob, CallOutcome::Success),
            (CallOperation::GetCob, CallOutcome::Success),
            (CallOperation::PutWebhook, CallOutcome::Success),
        ]
    );
    assert!(!format!("{:?}", h.client).contains(CLIENT_SECRET));
}

#[tokio::test]
async fn a_401_fetches_a_new_token_once_and_retries_once() {
    let h = Harness::start().await;
    h.client.get_charge(immediate(), &txid()).await.unwrap();
    // The PSP forgets its tokens (a restart): the next call gets a 401, then succeeds.
    h.set(|f| f.valid.clear());
    h.client
        .put_charge(immediate(), &txid(), &cob_body())
        .await
        .unwrap();
    assert_eq!(h.issued(), 2);
    assert_eq!(h.fake.lock().unwrap().api_calls, 3);
    // A PSP that refuses every token: one retry, then the error.
    h.set(|f| f.refuse_all = true);
    let e = h.client.get_charge(immediate(), &txid()).await.unwrap_err();
    assert!(
        matches!(
            e,
            PspError::Unauthorized {
                operation: CallOperation::GetCob,
                status: 401
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.kind(), ErrorKind::Definitive);
    assert_eq!(h.fake.lock().unwrap().api_calls, 5);
    assert_clean(&e);
}

#[tokio::test]
async fn wrong_credentials_are_refused_at_the_token_endpoint() {
    let h = Harness::start_with("not-the-secret", Duration::from_secs(5)).await;
    let e = h
        .client
        .put_charge(immediate(), &txid(), &cob_body())
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            PspError::Unauthorized {
                operation: CallOperation::Token,
                status: 401
            }
        ),
        "{e:?}"
    );
    assert_eq!(h.fake.lock().unwrap().api_calls, 0);
    assert!(!e.to_string().contains("not-the-secret"));
    // Not cached: the next call asks again.
    h.client.get_charge(immediate(), &txid()).await.unwrap_err();
    assert_eq!(
        h.outcomes(),
        vec![(CallOperation::Token, CallOutcome::Unauthorized); 2]
    );
}

#[tokio::test]
async fn statuses_become_definitive_or_transient_errors() {
    let h = Harness::start().await;
    let problem = r#"{"type": "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
        "title": "Cobranca invalida", "status": 400, "detail": "cpf 52998224725"}"#;
    h.set(|f| f.mode = Mode::Status(400, problem));
    let e = h
        .client
        .put_charge(immediate(), &txid(), &cob_body())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Definitive);
    assert_eq!(
        e.to_string(),
        "put_cob: the PSP refused the request (HTTP 400: CobOperacaoInvalida: Cobranca invalida)"
    );
    for (status, expected) in [
        (404, ErrorKind::Definitive),
        (409, ErrorKind::Definitive),
        (500, ErrorKind::Transient),
        (502, ErrorKind::Transient),
        (503, ErrorKind::Transient),
        (408, ErrorKind::Transient),
        (429, ErrorKind::Transient),
        (302, ErrorKind::Protocol),
    ] {
        h.set(|f| f.mode = Mode::Status(status, "nope"));
        let e = h
            .client
            .put_charge(immediate(), &txid(), &cob_body())
            .await
            .unwrap_err();
        assert_eq!(e.kind(), expected, "{status}: {e}");
        assert_clean(&e);
    }
    h.set(|f| f.mode = Mode::Status(429, ""));
    match h.client.get_charge(immediate(), &txid()).await.unwrap_err() {
        PspError::Unavailable { retry_after, .. } => {
            assert_eq!(retry_after, Some(Duration::from_secs(7)))
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn unreadable_or_oversized_answers_are_protocol_errors() {
    let h = Harness::start().await;
    h.set(|f| f.mode = Mode::Garbage);
    let e = h.client.get_charge(immediate(), &txid()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Protocol, "{e}");
    h.set(|f| f.mode = Mode::Huge);
    let e = h.client.get_charge(immediate(), &txid()).await.unwrap_err();
    assert!(e.to_string().contains("larger than"), "{e}");
    assert_eq!(e.kind(), ErrorKind::Protocol);
}

#[tokio::test]
async fn a_slow_psp_times_out_and_a_closed_port_does_not_connect() {
    let h = Harness::start_with(CLIENT_SECRET, Duration::from_millis(300)).await;
    h.client.get_charge(immediate(), &txid()).await.unwrap();
    h.set(|f| f.mode = Mode::Slow(Duration::from_secs(2)));
    let e = h
        .client
        .put_charge(immediate(), &txid(), &cob_body())
        .await
        .unwrap_err();
    assert!(matches!(e, PspError::Timeout { .. }), "{e:?}");
    assert_eq!(e.kind(), ErrorKind::Transient);

    // A port nothing listens on.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let base = format!("http://127.0.0.1:{port}/api/v2");
    let client = PspClient::new(
        Endpoint {
            provider: "fake".into(),
            api_base: Url::parse(&base).unwrap(),
            token_url: Url::parse(&format!("{base}/oauth/token")).unwrap(),
            client_id: CLIENT_ID.into(),
            client_secret: Secret::new(CLIENT_SECRET.into()),
            pix_key: "fake-key".into(),
            ca: Vec::new(),
            identity: None,
        },
        &PspArgs::default(),
        Arc::new(Recorder::default()),
    )
    .unwrap();
    let e = client.get_charge(immediate(), &txid()).await.unwrap_err();
    assert!(
        matches!(
            e,
            PspError::Connect {
                operation: CallOperation::Token,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.kind(), ErrorKind::Transient);
    assert_clean(&e);
}

fn rec_request() -> RecSolicitada {
    serde_json::from_value(json!({
        "vinculo": {"contrato": "63100862", "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"},
                    "objeto": "Streaming"},
        "calendario": {"dataInicial": "2026-12-01", "periodicidade": "MENSAL"},
        "valor": {"valorRec": "35.00"},
        "politicaRetentativa": "PERMITE_3R_7D",
        "loc": 108
    }))
    .unwrap()
}

fn cobr_request() -> CobrSolicitada {
    serde_json::from_value(json!({
        "idRec": "RR1234567820240115abcdefghijk",
        "infoAdicional": "Mensalidade",
        "calendario": {"dataDeVencimento": "2026-12-01"},
        "valor": {"original": "35.00"},
        "ajusteDiaUtil": true,
        "recebedor": {"agencia": "0001", "conta": "12345678", "tipoConta": "CORRENTE"}
    }))
    .unwrap()
}

fn solicrec_request() -> SolicRecSolicitada {
    serde_json::from_value(json!({
        "idRec": "RR1234567820240115abcdefghijk",
        "calendario": {"dataExpiracaoSolicitacao": "2026-11-30T10:00:00.000Z"},
        "destinatario": {"agencia": "0001", "conta": "123456", "ispbParticipante": "12345678",
                         "cpf": "45164632481"}
    }))
    .unwrap()
}

#[tokio::test]
async fn pix_automatico_calls_send_the_standards_requests_and_read_its_answers() {
    use pixgate_pix::apipix::{CobrStatus, RecStatus, SolicRecStatus, TentativaStatus};
    let h = Harness::start().await;
    let id_rec = "RR1234567820240115abcdefghijk";
    let txid = "cobr7978c0c97ea847e78e8849634473";

    let loc = h.client.post_locrec().await.unwrap();
    assert_eq!(
        (loc.id.as_str(), loc.location.as_str()),
        ("108", "pix.example.com/qr/v2/rec/abc")
    );
    let rec = h.client.post_rec(&rec_request()).await.unwrap();
    assert_eq!(
        (rec.id_rec.as_str(), rec.status),
        (id_rec, RecStatus::Criada)
    );
    assert_eq!(rec.loc.unwrap().id, "108");
    let read = h.client.get_rec(id_rec, None).await.unwrap();
    assert_eq!(read.status, RecStatus::Aprovada);
    h.client.get_rec(id_rec, Some(txid)).await.unwrap();
    let canceled = h.client.cancel_rec(id_rec).await.unwrap();
    assert_eq!(canceled.status, RecStatus::Cancelada);
    let revision = RecRevisada {
        ativacao: Some(RecAtivacao::jornada_3(txid)),
        ..RecRevisada::default()
    };
    h.client.patch_rec(id_rec, &revision).await.unwrap();
    let solic = h.client.post_solicrec(&solicrec_request()).await.unwrap();
    assert_eq!(
        (solic.id_solic_rec.as_str(), solic.status),
        ("SC1234567820240115abcdefghijk", SolicRecStatus::Criada)
    );
    let cobr = h.client.put_cobr(txid, &cobr_request()).await.unwrap();
    assert_eq!(
        (cobr.txid.as_str(), cobr.status),
        (txid, CobrStatus::Criada)
    );
    assert_eq!(cobr.valor.original.centavos(), 3500);
    let cobr = h.client.get_cobr(txid).await.unwrap();
    assert_eq!(cobr.status, CobrStatus::Ativa);
    assert_eq!(cobr.tentativas[0].status, TentativaStatus::Rejeitada);
    assert_eq!(cobr.tentativas[0].rejeicao.as_ref().unwrap().codigo, "AM04");
    assert_eq!(
        h.client.cancel_cobr(txid).await.unwrap().status,
        CobrStatus::Cancelada
    );
    h.client.post_retentativa(txid, "2026-12-02").await.unwrap();
    let url = "https://pixgate.example/psp-callbacks/psp-a/token";
    h.client.put_webhookrec(url).await.unwrap();
    h.client.put_webhookcobr(url).await.unwrap();

    let requests = h.fake.lock().unwrap().requests.clone();
    let expected: Vec<(&str, String, Option<serde_json::Value>)> = vec![
        (
            "POST",
            "/api/v2/locrec".into(),
            Some(json!({"tipo": "rec"})),
        ),
        (
            "POST",
            "/api/v2/rec".into(),
            Some(serde_json::to_value(rec_request()).unwrap()),
        ),
        ("GET", format!("/api/v2/rec/{id_rec}"), None),
        ("GET", format!("/api/v2/rec/{id_rec}?txid={txid}"), None),
        (
            "PATCH",
            format!("/api/v2/rec/{id_rec}"),
            Some(json!({"status": "CANCELADA"})),
        ),
        (
            "PATCH",
            format!("/api/v2/rec/{id_rec}"),
            Some(json!({"ativacao": {"dadosJornada": {"txid": txid}}})),
        ),
        (
            "POST",
            "/api/v2/solicrec".into(),
            Some(serde_json::to_value(solicrec_request()).unwrap()),
        ),
        (
            "PUT",
            format!("/api/v2/cobr/{txid}"),
            Some(serde_json::to_value(cobr_request()).unwrap()),
        ),
        ("GET", format!("/api/v2/cobr/{txid}"), None),
        (
            "PATCH",
            format!("/api/v2/cobr/{txid}"),
            Some(json!({"status": "CANCELADA"})),
        ),
        (
            "POST",
            format!("/api/v2/cobr/{txid}/retentativa/2026-12-02"),
            None,
        ),
        (
            "PUT",
            "/api/v2/webhookrec".into(),
            Some(json!({"webhookUrl": url})),
        ),
        (
            "PUT",
            "/api/v2/webhookcobr".into(),
            Some(json!({"webhookUrl": url})),
        ),
    ];
    assert_eq!(requests.len(), expected.len(), "{requests:#?}");
    for (got, want) in requests.iter().zip(&expected) {
        assert_eq!((got.0.as_str(), &got.1, &got.2), (want.0, &want.1, &want.2));
    }
    // The bodies are the standard's JSON as written.
    assert_eq!(requests[1].2.as_ref().unwrap()["loc"], 108);
    assert_eq!(
        requests[7].2.as_ref().unwrap()["recebedor"],
        json!({"agencia": "0001", "conta": "12345678", "tipoConta": "CORRENTE"})
    );
    let operations: Vec<CallOperation> = h.outcomes().into_iter().map(|(o, _)| o).collect();
    assert_eq!(
        operations,
        [
            CallOperation::Token,
            CallOperation::PostLocrec,
            CallOperation::PostRec,
            CallOperation::GetRec,
            CallOperation::GetRec,
            CallOperation::PatchRec,
            CallOperation::PatchRec,
            CallOperation::PostSolicrec,
            CallOperation::PutCobr,
            CallOperation::GetCobr,
            CallOperation::PatchCobr,
            CallOperation::PostRetentativa,
            CallOperation::PutWebhookrec,
            CallOperation::PutWebhookcobr,
        ]
    );
    assert!(
        h.outcomes()
            .iter()
            .all(|(_, outcome)| *outcome == CallOutcome::Success)
    );
}

#[tokio::test]
async fn pix_automatico_refusals_and_outages_are_classified() {
    let h = Harness::start().await;
    let problem = r#"{"type": "https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida",
        "title": "Cobranca invalida", "status": 400, "detail": "cpf 45164632481",
        "violacoes": [{"razao": "txid em uso", "propriedade": "cobr.txid"}]}"#;
    h.set(|f| f.mode = Mode::Status(400, problem));
    let e = h
        .client
        .put_cobr("cobr7978c0c97ea847e78e8849634473", &cobr_request())
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            PspError::Refused {
                operation: CallOperation::PutCobr,
                status: 400,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.kind(), ErrorKind::Definitive);
    assert_eq!(
        e.to_string(),
        "put_cobr: the PSP refused the request (HTTP 400: CobROperacaoInvalida: Cobranca invalida)"
    );
    assert_clean(&e);
    assert!(!e.to_string().contains("45164632481"));
    h.set(|f| {
        f.mode = Mode::Status(
            404,
            r#"{"type": "https://pix.bcb.gov.br/api/v2/error/RecNaoEncontrada", "title": "x", "status": 404}"#,
        )
    });
    let e = h.client.get_rec("RRnope", None).await.unwrap_err();
    assert!(
        matches!(
            e,
            PspError::Refused {
                operation: CallOperation::GetRec,
                status: 404,
                ..
            }
        ),
        "{e:?}"
    );
    h.set(|f| f.mode = Mode::Status(400, problem));
    for e in [
        h.client.post_locrec().await.unwrap_err(),
        h.client.post_rec(&rec_request()).await.unwrap_err(),
        h.client.cancel_rec("RR1").await.unwrap_err(),
        h.client
            .post_solicrec(&solicrec_request())
            .await
            .unwrap_err(),
        h.client.cancel_cobr("t").await.unwrap_err(),
        h.client
            .post_retentativa("t", "2026-12-02")
            .await
            .unwrap_err(),
        h.client
            .put_webhookrec("https://x.example")
            .await
            .unwrap_err(),
        h.client
            .put_webhookcobr("https://x.example")
            .await
            .unwrap_err(),
    ] {
        assert_eq!(e.kind(), ErrorKind::Definitive, "{e}");
        assert!(matches!(e, PspError::Refused { status: 400, .. }), "{e:?}");
    }
    h.set(|f| f.mode = Mode::Status(503, ""));
    let e = h.client.get_cobr("t").await.unwrap_err();
    assert!(
        matches!(
            e,
            PspError::Unavailable {
                operation: CallOperation::GetCobr,
                status: 503,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.kind(), ErrorKind::Transient);
    // A 2xx that is not the resource: a protocol error naming the field, not its value.
    h.set(|f| f.mode = Mode::Garbage);
    let e = h.client.get_rec("RR1", None).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Protocol, "{e}");
    assert!(e.to_string().contains("`idRec`"), "{e}");
    h.set(|f| {
        f.mode = Mode::Normal;
        f.requests.clear();
    });
    let rec = h.client.get_rec("RR1", Some("a b&c")).await.unwrap();
    assert_eq!(rec.status, pixgate_pix::apipix::RecStatus::Aprovada);
    // The query is encoded.
    assert_eq!(
        h.fake.lock().unwrap().requests[0].1,
        "/api/v2/rec/RR1?txid=a+b%26c"
    );
}
