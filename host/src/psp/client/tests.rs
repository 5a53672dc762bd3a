//! The client against a scripted API Pix on loopback (plain http): tokens, retries and
//! classification. TLS and mTLS are tested end to end against `pixgate psp-sim`.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, put};
use base64::Engine as _;
use serde_json::json;

use super::*;
use crate::psp::charge_kinds;
use pixgate_domain::ChargeKind;
use pixgate_pix::apipix::{Amount, CalendarioSolicitado, CobSolicitada, CobStatus, CobValor};

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
        }));
        let app = Router::new()
            .route("/api/v2/oauth/token", post(token))
            .route("/api/v2/cob/{txid}", put(cob).get(cob))
            .route("/api/v2/webhook/{chave}", put(cob))
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
