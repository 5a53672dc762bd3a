//! PSP providers end to end: the admin routes and the `pixgate admin providers` CLI against
//! the real `pixgate serve` on SQLite and PostgreSQL (secrets never answered, never logged,
//! stored sealed), and pixgate's API Pix client against the real `pixgate psp-sim` over https
//! with mTLS (token refresh on a 401, 5xx and timeouts classified, idempotent re-creation).

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pixgate::psp::charge_kinds::{self, ChargeResource};
use pixgate::psp::client::{
    CallObserver, CallOperation, CallOutcome, CallRecord, Endpoint, ErrorKind, PspArgs, PspClient,
    PspError, Secret, tls,
};
use pixgate_domain::ChargeKind;
use pixgate_e2e::live::Sim;
use pixgate_e2e::pixgate_bin;
use pixgate_e2e::server::{Backend, Server, backends};
use pixgate_pix::apipix::{
    Amount, CalendarioSolicitado, CobSolicitada, CobStatus, CobValor, Txid, txid_for,
};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
use serde_json::{Value, json};
use sqlx::Connection;

const SECRET: &str = "cs_live_9f8e7d6c5b4a3f2e1d0c";

/// A private CA and a client certificate it issued, as PEM.
struct Pki {
    ca_pem: String,
    cert_pem: String,
    key_pem: String,
    other_key_pem: String,
}

fn pki() -> Pki {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "PSP test CA");
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let mut leaf = CertificateParams::new(Vec::<String>::new()).unwrap();
    leaf.distinguished_name
        .push(DnType::CommonName, "pixgate mTLS client");
    let cert = leaf.signed_by(&key, &issuer).unwrap();
    Pki {
        ca_pem: ca_cert.pem(),
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
        other_key_pem: KeyPair::generate().unwrap().serialize_pem(),
    }
}

/// The base64 body of a PEM: what must never appear in an answer or a log.
fn pem_body(pem: &str) -> String {
    pem.lines().filter(|l| !l.starts_with("-----")).collect()
}

fn body(code: &str, pki: &Pki) -> Value {
    json!({
        "code": code,
        "name": "  PSP A  ",
        "apiBaseUrl": "https://pix.psp-a.example/api/v2/",
        "clientId": "pixgate-client",
        "clientSecret": SECRET,
        "pixKey": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
        "tls": {"caPem": pki.ca_pem, "clientCertPem": pki.cert_pem, "clientKeyPem": pki.key_pem}
    })
}

/// No answer carries a secret: neither the client secret nor the key.
fn assert_no_secret(value: &Value, pki: &Pki) {
    let text = value.to_string();
    assert!(!text.contains(SECRET), "{text}");
    assert!(!text.contains(&pem_body(&pki.key_pem)[..40]), "{text}");
    assert!(!text.contains("PRIVATE KEY"), "{text}");
    assert!(!text.contains("clientSecret\""), "{text}");
}

/// The sealed columns as stored.
async fn stored_secrets(server: &Server, code: &str) -> (String, String) {
    sqlx::any::install_default_drivers();
    let url = if server.database_url.is_empty() {
        format!(
            "sqlite://{}",
            server.data_dir.path().join("pixgate.db").display()
        )
    } else {
        server.database_url.clone()
    };
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query_as(
        "select client_secret_sealed, coalesce(client_key_sealed, '') from providers where code = $1",
    )
    .bind(code)
    .fetch_one(&mut conn)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn providers_are_created_listed_read_and_changed_without_showing_secrets() {
    let pki = pki();
    for backend in backends() {
        let server = Server::start(backend).await;
        let (status, created) = server.admin_post("/providers", body("psp-a", &pki)).await;
        assert_eq!(status, 201, "{created}");
        let p = &created["data"];
        assert_eq!(p["code"], "psp-a");
        assert_eq!(p["name"], "PSP A");
        assert_eq!(p["apiBaseUrl"], "https://pix.psp-a.example/api/v2");
        assert_eq!(
            p["tokenUrl"],
            "https://pix.psp-a.example/api/v2/oauth/token"
        );
        assert_eq!(p["hasClientSecret"], true);
        assert_eq!(p["active"], true);
        assert_eq!(p["tls"]["hasClientKey"], true);
        assert_eq!(p["tls"]["caCertificates"][0]["subject"], "CN=PSP test CA");
        assert_eq!(
            p["tls"]["clientCertificate"]["subject"],
            "CN=pixgate mTLS client"
        );
        assert_eq!(p["tls"]["clientCertificate"]["issuer"], "CN=PSP test CA");
        assert!(p["tls"]["clientCertificate"]["notAfter"].is_string());
        assert_no_secret(&created, &pki);

        // Stored sealed.
        let (secret, key) = stored_secrets(&server, "psp-a").await;
        assert!(!secret.contains(SECRET) && !secret.is_empty());
        assert!(!key.contains("PRIVATE") && !key.is_empty());

        // A gateway names its provider; the provider lists it.
        let (status, b) = server
            .admin_post(
                "/gateways",
                json!({"providerCode": "psp-a", "gatewayAlias": "psp-a-d0", "releaseClass": "D0",
                       "feeTerms": {"mdrBps": 99}}),
            )
            .await;
        assert_eq!(status, 201, "{b}");
        let (status, read) = server.admin_get("/providers/psp-a").await;
        assert_eq!(status, 200, "{read}");
        assert_eq!(read["data"]["gateways"], json!(["psp-a-d0"]));
        assert_no_secret(&read, &pki);

        let (status, _) = server.admin_post("/providers", body("psp-b", &pki)).await;
        assert_eq!(status, 201);
        let (status, list) = server.admin_get("/providers").await;
        assert_eq!(status, 200);
        let codes: Vec<&str> = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, ["psp-a", "psp-b"]);
        assert_no_secret(&list, &pki);

        // Changes: the token URL, a new secret, off, and the TLS material removed.
        let (status, patched) = server
            .admin_patch(
                "/providers/psp-a",
                json!({"name": "PSP A (prod)", "tokenUrl": "https://auth.psp-a.example/oauth/token",
                       "clientSecret": "rotated-secret-value", "active": false, "tls": {}}),
            )
            .await;
        assert_eq!(status, 200, "{patched}");
        let p = &patched["data"];
        assert_eq!(p["name"], "PSP A (prod)");
        assert_eq!(p["tokenUrl"], "https://auth.psp-a.example/oauth/token");
        assert_eq!(p["active"], false);
        assert_eq!(p["tls"]["hasClientKey"], false);
        assert_eq!(p["tls"]["caCertificates"], json!([]));
        assert!(p["tls"]["clientCertificate"].is_null());
        assert!(!patched.to_string().contains("rotated-secret-value"));
        let (rotated, key) = stored_secrets(&server, "psp-a").await;
        assert_ne!(rotated, secret);
        assert!(key.is_empty());
        // The base URL changes; a token URL set explicitly stays.
        let (status, patched) = server
            .admin_patch(
                "/providers/psp-b",
                json!({"apiBaseUrl": "http://127.0.0.1:9443/api/v2"}),
            )
            .await;
        assert_eq!(status, 200, "{patched}");
        assert_eq!(
            patched["data"]["tokenUrl"],
            "http://127.0.0.1:9443/api/v2/oauth/token"
        );

        // Unknown and taken codes.
        let (status, b) = server.admin_get("/providers/nope").await;
        assert_eq!(
            (status, b["error"]["code"].as_str()),
            (404, Some("provider_not_found"))
        );
        let (status, b) = server
            .admin_patch("/providers/nope", json!({"active": true}))
            .await;
        assert_eq!(
            (status, b["error"]["code"].as_str()),
            (404, Some("provider_not_found"))
        );
        let (status, b) = server.admin_get("/providers/a%20b").await;
        assert_eq!(status, 404, "{b}");
        let (status, b) = server.admin_post("/providers", body("psp-a", &pki)).await;
        assert_eq!(
            (status, b["error"]["code"].as_str()),
            (409, Some("provider_code_taken"))
        );

        // Nothing secret reached the log.
        let logs = server.logs();
        for secret in [
            SECRET,
            "rotated-secret-value",
            &pem_body(&pki.key_pem)[..40],
        ] {
            assert!(!logs.contains(secret), "{secret} in the log:\n{logs}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_provider_input_is_refused_with_its_code_and_field() {
    let pki = pki();
    let server = Server::start(Backend::Sqlite).await;
    let with = |pointer: &str, value: Value| {
        let mut b = body("psp-x", &pki);
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let target = if parent.is_empty() {
            &mut b
        } else {
            b.pointer_mut(parent).unwrap()
        };
        if value.is_null() {
            target.as_object_mut().unwrap().remove(key);
        } else {
            target[key] = value;
        }
        b
    };
    for (b, status, code, field) in [
        (with("/code", json!("a b")), 400, "invalid_code", "code"),
        (with("/name", json!(" ")), 400, "invalid_name", "name"),
        (
            with("/apiBaseUrl", json!("http://pix.psp-a.example")),
            400,
            "url_not_https",
            "apiBaseUrl",
        ),
        (
            with("/apiBaseUrl", json!("pix.psp-a.example")),
            400,
            "invalid_url",
            "apiBaseUrl",
        ),
        (
            with("/tokenUrl", json!("https://u:p@auth.example/token")),
            400,
            "invalid_url",
            "tokenUrl",
        ),
        (
            with("/clientId", json!("")),
            400,
            "invalid_client_id",
            "clientId",
        ),
        // NUL is refused in every string of every body, before the field's own rules.
        (
            with("/clientSecret", json!("a\u{0}b")),
            400,
            "invalid_field",
            "clientSecret",
        ),
        (
            with("/clientSecret", Value::Null),
            400,
            "missing_field",
            "clientSecret",
        ),
        (
            with("/pixKey", json!("529.982.247-25")),
            400,
            "invalid_pix_key",
            "pixKey",
        ),
        (
            with("/tls/caPem", json!("not a pem")),
            400,
            "invalid_ca_pem",
            "tls.caPem",
        ),
        (
            with(
                "/tls/clientCertPem",
                json!(
                    pki.ca_pem
                        .replace("CERTIFICATE-----\n", "CERTIFICATE-----\n!")
                ),
            ),
            400,
            "invalid_client_cert_pem",
            "tls.clientCertPem",
        ),
        (
            with(
                "/tls/clientKeyPem",
                json!("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
            ),
            400,
            "invalid_client_key_pem",
            "tls.clientKeyPem",
        ),
        (
            with("/tls/clientKeyPem", json!(pki.other_key_pem)),
            422,
            "client_key_mismatch",
            "tls.clientKeyPem",
        ),
        (
            with("/tls/clientKeyPem", Value::Null),
            422,
            "incomplete_client_identity",
            "tls.clientKeyPem",
        ),
        (
            with("/tls/extra", json!(1)),
            400,
            "unknown_field",
            "tls.extra",
        ),
        (with("/active", json!(true)), 400, "unknown_field", "active"),
    ] {
        let (s, answer) = server.admin_post("/providers", b).await;
        assert_eq!(
            (
                s,
                answer["error"]["code"].as_str(),
                answer["error"]["field"].as_str()
            ),
            (status, Some(code), Some(field)),
            "{answer}"
        );
        assert!(answer["error"]["requestId"].is_string());
        assert!(!answer.to_string().contains(SECRET));
    }
    let (s, _) = server.admin_post("/providers", body("psp-x", &pki)).await;
    assert_eq!(s, 201);
    let (s, b) = server
        .admin_patch("/providers/psp-x", json!({"pixKey": "nope"}))
        .await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (400, Some("invalid_pix_key"))
    );
    let (s, b) = server
        .admin_patch(
            "/providers/psp-x",
            json!({"tls": {"clientCertPem": pki.cert_pem}}),
        )
        .await;
    assert_eq!(
        (s, b["error"]["code"].as_str()),
        (422, Some("incomplete_client_identity"))
    );
    let logs = server.logs();
    assert!(!logs.contains(SECRET) && !logs.contains(&pem_body(&pki.key_pem)[..40]));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_cli_manages_providers_with_secrets_from_files() {
    let pki = pki();
    let server = Server::start(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let secret = file("secret", &format!("{SECRET}\n"));
    let cert = file("client.pem", &pki.cert_pem);
    let key = file("client-key.pem", &pki.key_pem);
    let cli = |args: &[&str]| {
        Command::new(pixgate_bin())
            .args(["admin", "providers"])
            .args(args)
            .args(["--admin-url", &server.admin_root()])
            .env_clear()
            .env("PIXGATE_ADMIN_TOKEN", &server.admin_token)
            .output()
            .unwrap()
    };
    let out = cli(&[
        "create",
        "--code",
        "psp-cli",
        "--name",
        "PSP via CLI",
        "--api-base-url",
        "http://127.0.0.1:9/api/v2",
        "--client-id",
        "pixgate",
        "--client-secret-file",
        &secret,
        "--pix-key",
        "+5511987654321",
        "--client-cert",
        &cert,
        "--client-key",
        &key,
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let created: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(created["tls"]["hasClientKey"], true);
    let out = cli(&["list"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("psp-cli") && text.contains("PSP via CLI"),
        "{text}"
    );
    let out = cli(&["update", "psp-cli", "--active", "false", "--clear-tls"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = cli(&["show", "psp-cli"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("active") && text.contains("no"), "{text}");
    assert!(!text.contains(SECRET));
    // A refusal is the API's error, exit status 1.
    let out = cli(&["show", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("provider_not_found"));
    // No secret file and no variable: refused before anything is sent.
    let out = cli(&[
        "create",
        "--code",
        "x",
        "--name",
        "x",
        "--api-base-url",
        "https://x.example",
        "--client-id",
        "x",
        "--pix-key",
        "+5511987654321",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing_client_secret"));
    assert!(!server.logs().contains(SECRET));
}

// ---- the client against pixgate psp-sim ----

/// pixgate's client for the simulator; `mtls` presents the generated client certificate.
fn psp_client(
    sim: &Sim,
    mtls: bool,
    trust_ca: bool,
    timeout: Duration,
) -> (PspClient, Arc<Recorder>) {
    let identity = mtls.then(|| {
        (
            tls::certificates(&sim.pem("client.pem")).unwrap(),
            tls::private_key(&sim.pem("client-key.pem")).unwrap(),
        )
    });
    let ca = if trust_ca {
        tls::certificates(&sim.pem("ca.pem")).unwrap()
    } else {
        Vec::new()
    };
    let recorder = Arc::new(Recorder::default());
    let client = PspClient::new(
        Endpoint {
            provider: "sim".into(),
            api_base: format!("{}/api/v2", sim.origin).parse().unwrap(),
            token_url: format!("{}/oauth/token", sim.origin).parse().unwrap(),
            client_id: "psp-sim-client".into(),
            client_secret: Secret::new("psp-sim-secret".into()),
            pix_key: "sim-key".into(),
            ca,
            identity,
        },
        &PspArgs {
            connect_timeout: Duration::from_secs(5),
            timeout,
        },
        recorder.clone(),
    )
    .unwrap();
    (client, recorder)
}

/// A control route that must succeed; its answer.
async fn control(sim: &Sim, method: reqwest::Method, path: &str, body: Value) -> Value {
    let (status, answer) = sim.control(method, path, body).await;
    assert!(status < 300, "{path}: {status} {answer}");
    answer
}

#[derive(Default)]
struct Recorder(Mutex<Vec<(CallOperation, CallOutcome)>>);

impl CallObserver for Recorder {
    fn observe(&self, record: &CallRecord<'_>) {
        self.0
            .lock()
            .unwrap()
            .push((record.operation, record.outcome));
    }
}

/// The immediate charge's resource: what these calls create and read.
fn immediate() -> &'static dyn ChargeResource {
    charge_kinds::resource(ChargeKind::Immediate).unwrap()
}

fn cob(centavos: u64) -> Value {
    serde_json::to_value(cob_wire(centavos)).unwrap()
}

fn cob_wire(centavos: u64) -> CobSolicitada {
    CobSolicitada {
        calendario: CalendarioSolicitado { expiracao: 3600 },
        devedor: None,
        valor: CobValor {
            original: Amount::from_centavos(centavos).unwrap(),
            modalidade_alteracao: None,
        },
        chave: "7d9f0335-8dcc-4054-9bf9-0dbd61d36906".into(),
        solicitacao_pagador: Some("Pedido 10042".into()),
        info_adicionais: Vec::new(),
    }
}

fn txid(key: &str) -> Txid {
    Txid::parse(&txid_for("store-1", key)).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_client_creates_reads_and_registers_over_mtls() {
    let sim = Sim::start(&[]);
    let (client, recorder) = psp_client(&sim, true, true, Duration::from_secs(10));
    let t = txid("order-1");
    let created = client
        .put_charge(immediate(), &t, &cob(12_990))
        .await
        .unwrap();
    assert_eq!(created.txid, t);
    assert_eq!(created.status, CobStatus::Ativa);
    assert!(created.pix_copia_e_cola.is_some());
    // The same PUT again names the same charge.
    client
        .put_charge(immediate(), &t, &cob(12_990))
        .await
        .unwrap();
    control(
        &sim,
        reqwest::Method::POST,
        &format!("/cob/{t}/pay"),
        json!({}),
    )
    .await;
    let read = client.get_charge(immediate(), &t).await.unwrap();
    assert_eq!(read.status, CobStatus::Concluida);
    assert_eq!(read.pix[0].valor.centavos(), 12_990);
    client
        .put_webhook(
            "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
            "http://127.0.0.1:9/psp/sim/callback-token",
        )
        .await
        .unwrap();
    // A definitive refusal: the standard forbids a zero amount.
    let e = client
        .put_charge(immediate(), &txid("zero"), &cob(0))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Definitive, "{e}");
    assert!(e.to_string().contains("CobOperacaoInvalida"), "{e}");
    let stats = sim.stats().await;
    assert_eq!(stats["tokensIssued"], 1);
    assert_eq!(stats["cobsCreated"], 1);
    let calls = recorder.0.lock().unwrap().clone();
    assert_eq!(calls[0], (CallOperation::Token, CallOutcome::Success));
    assert_eq!(
        calls.last(),
        Some(&(CallOperation::PutCob, CallOutcome::Refused))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn without_the_ca_or_the_client_certificate_there_is_no_connection() {
    let sim = Sim::start(&[]);
    let (untrusting, _) = psp_client(&sim, true, false, Duration::from_secs(5));
    let e = untrusting
        .get_charge(immediate(), &txid("a"))
        .await
        .unwrap_err();
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
    let (anonymous, _) = psp_client(&sim, false, true, Duration::from_secs(5));
    let e = anonymous
        .get_charge(immediate(), &txid("a"))
        .await
        .unwrap_err();
    // TLS 1.3 reports a refused client certificate after the handshake: either way the
    // call never reached the API, and nothing is classified as the PSP's refusal.
    assert_ne!(e.kind(), ErrorKind::Definitive, "{e:?}");
    assert_eq!(sim.stats().await["tokensIssued"], 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_expired_token_is_replaced_once_and_the_call_retried() {
    let sim = Sim::start(&[]);
    let (client, recorder) = psp_client(&sim, true, true, Duration::from_secs(10));
    client
        .put_charge(immediate(), &txid("t1"), &cob(100))
        .await
        .unwrap();
    control(&sim, reqwest::Method::POST, "/tokens/expire", Value::Null).await;
    client.get_charge(immediate(), &txid("t1")).await.unwrap();
    let stats = sim.stats().await;
    assert_eq!(stats["tokensIssued"], 2);
    assert_eq!(stats["rejectedTokens"], 1);
    let calls = recorder.0.lock().unwrap().clone();
    assert_eq!(
        calls[2..],
        [
            (CallOperation::GetCob, CallOutcome::Unauthorized),
            (CallOperation::Token, CallOutcome::Success),
            (CallOperation::GetCob, CallOutcome::Success),
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn failures_are_transient_and_a_retried_put_makes_one_charge() {
    let sim = Sim::start(&[]);
    let (client, _) = psp_client(&sim, true, true, Duration::from_millis(1500));
    client
        .get_charge(immediate(), &txid("warm"))
        .await
        .unwrap_err(); // a token; 404 for the unknown txid

    // A 503 after the PSP created the charge: the answer is lost, the charge is not.
    control(
        &sim,
        reqwest::Method::POST,
        "/faults",
        json!({"count": 1, "kind": "error", "status": 503, "afterProcessing": true,
               "route": "PUT /cob/{txid}"}),
    )
    .await;
    let t = txid("lost-answer");
    let e = client
        .put_charge(immediate(), &t, &cob(5_000))
        .await
        .unwrap_err();
    assert!(
        matches!(e, PspError::Unavailable { status: 503, .. }),
        "{e:?}"
    );
    assert_eq!(e.kind(), ErrorKind::Transient);
    client
        .put_charge(immediate(), &t, &cob(5_000))
        .await
        .unwrap();
    assert_eq!(
        sim.stats().await["cobsCreated"],
        1,
        "one charge for one txid"
    );

    // 500 and a hang past the client's timeout.
    control(
        &sim,
        reqwest::Method::POST,
        "/faults",
        json!({"count": 1, "kind": "error", "status": 500}),
    )
    .await;
    let e = client.get_charge(immediate(), &t).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Transient, "{e:?}");
    control(
        &sim,
        reqwest::Method::POST,
        "/faults",
        json!({"count": 1, "kind": "hang", "hangMs": 5000}),
    )
    .await;
    let e = client.get_charge(immediate(), &t).await.unwrap_err();
    assert!(matches!(e, PspError::Timeout { .. }), "{e:?}");
    assert_eq!(e.kind(), ErrorKind::Transient);
    // And it recovers.
    assert_eq!(
        client.get_charge(immediate(), &t).await.unwrap().status,
        CobStatus::Ativa
    );
}
