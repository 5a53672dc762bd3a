//! `pixgate psp-sim` end to end: the real binary over https with mTLS (its generated CA and
//! client certificate), driven by a real client and posting callbacks to a real HTTPS receiver
//! on loopback. What pixgate's PSP side will rely on: tokens that expire, idempotent
//! `PUT /cob/{txid}`, reads, payments with the right and a wrong amount, removal (and its
//! refusal once paid), expiry, devoluções (partial, several, never more than the pix, settled
//! late or not at all, answers lost, the MED's) with their callbacks, and every switch
//! (latency, 5xx, hangs, dropped, duplicated, held, reordered and batched callbacks).

use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pixgate_e2e::live::{launch_sim as launch, problem, sim_client as client};
use pixgate_e2e::receiver::{Receiver, TestCa};
use pixgate_e2e::{install_tls_provider, pixgate_bin};
use pixgate_pix::apipix::{
    CobCompleta, CobStatus, Devolucao, DevolucaoStatus, Natureza, Pix, Problema, TokenResponse,
    txid_for,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(10);
const CHAVE: &str = "7d9f0335-8dcc-4054-9bf9-0dbd61d36906";

/// A running simulator; killed when dropped.
struct Sim {
    child: Child,
    origin: String,
    certs: tempfile::TempDir,
    stderr: Arc<Mutex<String>>,
    /// Trusts the generated CA and presents the generated client certificate.
    client: reqwest::Client,
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Sim {
    /// `pixgate psp-sim` on 127.0.0.1:0 with mTLS, generated certificates, and callbacks over
    /// https trusting the receiver's CA.
    fn start(ca: &TestCa, extra: &[&str]) -> Sim {
        let certs = tempfile::tempdir().unwrap();
        let mut args = vec![
            "psp-sim".to_owned(),
            "--listen".to_owned(),
            "127.0.0.1:0".to_owned(),
            "--mtls".to_owned(),
            "--cert-dir".to_owned(),
            certs.path().display().to_string(),
            "--callback-ca".to_owned(),
            ca.ca_file().display().to_string(),
        ];
        args.extend(extra.iter().map(|a| (*a).to_owned()));
        let (child, origin, stderr) = launch(&args);
        let client = client(certs.path(), true, WAIT);
        Sim {
            child,
            origin,
            certs,
            stderr,
            client,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    fn api(&self, path: &str) -> String {
        format!("{}/api/v2{path}", self.origin)
    }

    async fn token(&self) -> String {
        let response = self
            .client
            .post(self.url("/oauth/token"))
            .basic_auth("psp-sim-client", Some("psp-sim-secret"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("grant_type=client_credentials")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{}", self.logs());
        let token: TokenResponse = response.json().await.unwrap();
        token.access_token
    }

    async fn put_cob(&self, token: &str, txid: &str, body: &Value) -> (StatusCode, Value) {
        let r = self
            .client
            .put(self.api(&format!("/cob/{txid}")))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .unwrap();
        (r.status(), r.json().await.unwrap_or(Value::Null))
    }

    async fn get_cob(&self, token: &str, txid: &str) -> (StatusCode, Value) {
        let r = self
            .client
            .get(self.api(&format!("/cob/{txid}")))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        (r.status(), r.json().await.unwrap_or(Value::Null))
    }

    /// An API read with `token`: the status and the JSON answer.
    async fn api_get(&self, token: &str, path: &str) -> (StatusCode, Value) {
        let r = self
            .client
            .get(self.api(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        (r.status(), r.json().await.unwrap_or(Value::Null))
    }

    async fn put_devolucao(
        &self,
        token: &str,
        e2eid: &str,
        id: &str,
        body: &Value,
    ) -> (StatusCode, Value) {
        let r = self
            .client
            .put(self.api(&format!("/pix/{e2eid}/devolucao/{id}")))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .unwrap();
        (r.status(), r.json().await.unwrap_or(Value::Null))
    }

    /// A new charge of `original`, paid: its pix.
    async fn paid_pix(&self, token: &str, name: &str, original: &str) -> Pix {
        let txid = txid_for("store-1", name);
        let (status, created) = self.put_cob(token, &txid, &cob_body(original)).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let (status, pix) = self.sim_post(&format!("/cob/{txid}/pay"), json!({})).await;
        assert_eq!(status, 200, "{pix}");
        serde_json::from_value(pix).unwrap()
    }

    async fn switches(&self, patch: Value) -> Value {
        let (status, answer) = self.control(reqwest::Method::PUT, "/switches", patch).await;
        assert_eq!(status, 200, "{answer}");
        answer
    }

    /// A control route; the status and the JSON answer.
    async fn control(&self, method: reqwest::Method, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .client
            .request(method, self.url(&format!("/_sim{path}")))
            .json(&body)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    async fn sim_post(&self, path: &str, body: Value) -> (u16, Value) {
        self.control(reqwest::Method::POST, path, body).await
    }

    async fn stats(&self) -> Value {
        self.control(reqwest::Method::GET, "/stats", Value::Null)
            .await
            .1
    }

    fn logs(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

fn cob_body(original: &str) -> Value {
    json!({
        "calendario": {"expiracao": 3600},
        "devedor": {"cpf": "52998224725", "nome": "Ana Souza"},
        "valor": {"original": original},
        "chave": CHAVE,
        "solicitacaoPagador": "order-10042"
    })
}

fn devolucao(value: &Value) -> Devolucao {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}: {value}"))
}

/// What the pix's devoluções that did not fail add up to, in centavos.
fn given_back(pix: &Pix) -> u64 {
    pix.devolucoes
        .iter()
        .filter(|d| d.status != DevolucaoStatus::NaoRealizado)
        .map(|d| d.valor.centavos())
        .sum()
}

fn cob(value: &Value) -> CobCompleta {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}: {value}"))
}

/// The callbacks the receiver got, as the pix they carry, in arrival order.
fn callback_pix(receiver: &Receiver) -> Vec<Vec<Pix>> {
    receiver
        .received()
        .iter()
        .map(|r| {
            assert_eq!(r.path, "/hooks/t0k3n/pix");
            serde_json::from_value::<Vec<Pix>>(r.json()["pix"].clone()).unwrap()
        })
        .collect()
}

async fn register_webhook(sim: &Sim, token: &str, receiver: &Receiver) {
    let r = sim
        .client
        .put(sim.api(&format!("/webhook/{CHAVE}")))
        .bearer_auth(token)
        .json(&json!({"webhookUrl": receiver.ip_url("/hooks/t0k3n")}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_charge_from_token_to_callback_over_mtls() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = Sim::start(&ca, &[]);
    assert!(
        sim.origin.starts_with("https://127.0.0.1:"),
        "{}",
        sim.origin
    );

    // mTLS: without the client certificate there is no connection at all.
    let anonymous = client(sim.certs.path(), false, WAIT);
    assert!(
        anonymous
            .post(sim.url("/oauth/token"))
            .send()
            .await
            .is_err()
    );

    // Tokens: wrong secret, wrong grant, then the real thing; the API wants one.
    let r = sim
        .client
        .post(sim.url("/oauth/token"))
        .basic_auth("psp-sim-client", Some("wrong"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("grant_type=client_credentials")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "invalid_client");
    let r = sim
        .client
        .post(sim.url("/oauth/token"))
        .basic_auth("psp-sim-client", Some("psp-sim-secret"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("grant_type=password")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let token = sim.token().await;
    let txid = txid_for("store-1", "checkout-10042-1");
    let r = sim
        .client
        .get(sim.api(&format!("/cob/{txid}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        r.headers()["content-type"],
        "application/problem+json",
        "the standard's error body"
    );

    // The webhook, registered and read back.
    register_webhook(&sim, &token, &receiver).await;
    let r = sim
        .client
        .get(sim.api(&format!("/webhook/{CHAVE}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let webhook: Value = r.json().await.unwrap();
    assert_eq!(webhook["webhookUrl"], receiver.ip_url("/hooks/t0k3n"));
    assert_eq!(webhook["chave"], CHAVE);

    // PUT /cob/{txid}: created, with a BR Code pointing at its location.
    let (status, created) = sim.put_cob(&token, &txid, &cob_body("129.90")).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let created = cob(&created);
    assert_eq!(created.status, CobStatus::Ativa);
    assert_eq!(created.revisao, 0);
    assert_eq!(created.txid.as_str(), txid);
    assert_eq!(created.valor.original.centavos(), 12_990);
    let location = created.location.clone().unwrap();
    assert_eq!(
        created.loc.as_ref().unwrap().location.as_ref(),
        Some(&location)
    );
    let code = pixgate_pix::brcode::parse(created.pix_copia_e_cola.as_ref().unwrap()).unwrap();
    assert_eq!(code.location(), Some(location.as_str()));

    // The same PUT again (a retry): the same charge, and one charge at the PSP.
    let (status, again) = sim.put_cob(&token, &txid, &cob_body("129.90")).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(cob(&again), created);
    let stats = sim.stats().await;
    assert_eq!(stats["putCob"][&txid], 2);
    assert_eq!(stats["cobsCreated"], 1);
    assert_eq!(stats["routes"]["PUT /cob/{txid}"], 2);

    // GET /cob/{txid}, and an unknown txid.
    let (status, read) = sim.get_cob(&token, &txid).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cob(&read), created);
    let (status, missing) = sim.get_cob(&token, &"a".repeat(32)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let problem: Problema = serde_json::from_value(missing).unwrap();
    assert_eq!(
        problem.kind,
        "https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado"
    );

    // A payer pays: CONCLUIDA with the pix, and the callback reaches the receiver.
    let (status, paid) = sim.sim_post(&format!("/cob/{txid}/pay"), json!({})).await;
    assert_eq!(status, 200, "{paid}");
    let pix: Pix = serde_json::from_value(paid).unwrap();
    assert_eq!(pix.end_to_end_id.len(), 32);
    assert!(pix.end_to_end_id.starts_with("E12345678"));
    assert_eq!(pix.valor.centavos(), 12_990);
    let (_, read) = sim.get_cob(&token, &txid).await;
    let read = cob(&read);
    assert_eq!(read.status, CobStatus::Concluida);
    assert_eq!(read.pix, vec![pix.clone()]);
    receiver.wait_for(1, WAIT).await;
    assert_eq!(callback_pix(&receiver), vec![vec![pix.clone()]]);
    // Paid once only.
    let (status, _) = sim.sim_post(&format!("/cob/{txid}/pay"), json!({})).await;
    assert_eq!(status, 409);
    // A paid charge cannot be changed by a different PUT.
    let (status, refused) = sim.put_cob(&token, &txid, &cob_body("1.00")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");

    // A wrong amount is recorded as paid, for the receiver to notice.
    let wrong = txid_for("store-1", "checkout-wrong-amount");
    sim.put_cob(&token, &wrong, &cob_body("50.00")).await;
    let (status, paid) = sim
        .sim_post(&format!("/cob/{wrong}/pay"), json!({"valor": "49.99"}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(paid["valor"], "49.99");
    let (_, read) = sim.get_cob(&token, &wrong).await;
    assert_eq!(read["status"], "CONCLUIDA");
    assert_eq!(read["valor"]["original"], "50.00");
    assert_eq!(read["pix"][0]["valor"], "49.99");

    // Removed by the receiver (PATCH) and by the PSP (control route).
    let by_user = txid_for("store-1", "checkout-removed-by-user");
    sim.put_cob(&token, &by_user, &cob_body("10.00")).await;
    let r = sim
        .client
        .patch(sim.api(&format!("/cob/{by_user}")))
        .bearer_auth(&token)
        .json(&json!({"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let removed = cob(&r.json().await.unwrap());
    assert_eq!(removed.status, CobStatus::RemovidaPeloUsuarioRecebedor);
    assert_eq!(removed.revisao, 1);
    let by_psp = txid_for("store-1", "checkout-removed-by-psp");
    sim.put_cob(&token, &by_psp, &cob_body("10.00")).await;
    let (status, _) = sim
        .sim_post(&format!("/cob/{by_psp}/remove"), json!({}))
        .await;
    assert_eq!(status, 200);
    let (_, read) = sim.get_cob(&token, &by_psp).await;
    assert_eq!(read["status"], "REMOVIDA_PELO_PSP");
    let (status, _) = sim.sim_post(&format!("/cob/{by_psp}/pay"), json!({})).await;
    assert_eq!(status, 409, "a removed charge cannot be paid");

    // Expired: still ATIVA (expiry is no status), but past criacao + expiracao, and unpayable.
    let expired = txid_for("store-1", "checkout-expired");
    sim.put_cob(&token, &expired, &cob_body("10.00")).await;
    let (status, _) = sim
        .sim_post(&format!("/cob/{expired}/expire"), json!({}))
        .await;
    assert_eq!(status, 200);
    let (_, read) = sim.get_cob(&token, &expired).await;
    let read = cob(&read);
    assert_eq!(read.status, CobStatus::Ativa);
    let now_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap();
    assert!(
        read.calendario.criacao.unix_ms() + i64::from(read.calendario.expiracao) * 1000 < now_ms
    );
    let (status, _) = sim
        .sim_post(&format!("/cob/{expired}/pay"), json!({}))
        .await;
    assert_eq!(status, 409);

    // The standard's rules, each violation named.
    let mut bad = cob_body("0.00");
    bad["devedor"] = json!({"cpf": "123", "nome": "Ana"});
    let (status, refused) = sim.put_cob(&token, &"b".repeat(32), &bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let problem: Problema = serde_json::from_value(refused).unwrap();
    let fields: Vec<_> = problem
        .violacoes
        .iter()
        .filter_map(|v| v.propriedade.clone())
        .collect();
    assert_eq!(fields, ["cob.devedor", "cob.valor.original"]);
    let (status, _) = sim.put_cob(&token, "short", &cob_body("1.00")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // The webhook removed: the next payment sends nothing.
    let r = sim
        .client
        .delete(sim.api(&format!("/webhook/{CHAVE}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NO_CONTENT);
    let quiet = txid_for("store-1", "checkout-no-webhook");
    sim.put_cob(&token, &quiet, &cob_body("10.00")).await;
    sim.sim_post(&format!("/cob/{quiet}/pay"), json!({})).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        receiver.count(),
        2,
        "the wrong-amount payment's callback and the first"
    );
}

#[tokio::test]
async fn faults_latency_and_token_expiry() {
    let ca = TestCa::new();
    let sim = Sim::start(&ca, &[]);
    let token = sim.token().await;

    // Two 503s on PUT /cob only, then success; other routes are untouched meanwhile.
    let (status, _) = sim
        .sim_post(
            "/faults",
            json!({"count": 2, "kind": "error", "route": "PUT /cob/{txid}"}),
        )
        .await;
    assert_eq!(status, 200);
    let txid = txid_for("store-1", "faults");
    let (status, _) = sim.get_cob(&token, &txid).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "GET is not faulted");
    for _ in 0..2 {
        let (status, body) = sim.put_cob(&token, &txid, &cob_body("10.00")).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            body["type"],
            "https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel"
        );
    }
    let (status, _) = sim.put_cob(&token, &txid, &cob_body("10.00")).await;
    assert_eq!(status, StatusCode::CREATED);
    let stats = sim.stats().await;
    assert_eq!(stats["faultsInjected"], 2);
    assert_eq!(
        stats["putCob"][&txid], 1,
        "faulted requests were not processed"
    );

    // A 500 after processing: the charge exists though the answer was lost; the retry finds it.
    sim.sim_post(
        "/faults",
        json!({"count": 1, "kind": "error", "status": 500, "afterProcessing": true}),
    )
    .await;
    let lost = txid_for("store-1", "answer-lost");
    let (status, _) = sim.put_cob(&token, &lost, &cob_body("10.00")).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    let (status, retried) = sim.put_cob(&token, &lost, &cob_body("10.00")).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(retried["revisao"], 0);
    let stats = sim.stats().await;
    assert_eq!(stats["putCob"][&lost], 2);
    assert_eq!(stats["cobsCreated"], 2, "one charge per txid");

    // A hang: the client's timeout fires; the simulator still answers later.
    sim.sim_post(
        "/faults",
        json!({"count": 1, "kind": "hang", "hangMs": 3000}),
    )
    .await;
    let impatient = client(sim.certs.path(), true, Duration::from_millis(500));
    let started = Instant::now();
    let err = impatient
        .get(sim.api(&format!("/cob/{txid}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert!(started.elapsed() < Duration::from_secs(2));

    // Faults can be cleared.
    sim.sim_post("/faults", json!({"count": 5, "kind": "error"}))
        .await;
    let (status, _) = sim
        .control(reqwest::Method::DELETE, "/faults", Value::Null)
        .await;
    assert_eq!(status, 204);
    assert_eq!(sim.get_cob(&token, &txid).await.0, StatusCode::OK);

    // Latency on every API answer.
    sim.control(reqwest::Method::PUT, "/switches", json!({"latencyMs": 300}))
        .await;
    let started = Instant::now();
    assert_eq!(sim.get_cob(&token, &txid).await.0, StatusCode::OK);
    assert!(started.elapsed() >= Duration::from_millis(300));
    let (_, switches) = sim
        .control(reqwest::Method::PUT, "/switches", json!({"latencyMs": 0}))
        .await;
    assert_eq!(switches["latencyMs"], 0);

    // A PSP before v2: no pixCopiaECola (pixgate builds the code from the location).
    sim.control(
        reqwest::Method::PUT,
        "/switches",
        json!({"omitPixCopiaECola": true}),
    )
    .await;
    let old = txid_for("store-1", "no-copia-e-cola");
    let (_, created) = sim.put_cob(&token, &old, &cob_body("10.00")).await;
    assert!(created.get("pixCopiaECola").is_none(), "{created}");
    assert!(created["location"].is_string());

    // Tokens revoked at the PSP: 401, and a new token works.
    let (status, expired) = sim.sim_post("/tokens/expire", json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(expired["expired"], 1);
    assert_eq!(sim.get_cob(&token, &txid).await.0, StatusCode::UNAUTHORIZED);
    let fresh = sim.token().await;
    assert_eq!(sim.get_cob(&fresh, &txid).await.0, StatusCode::OK);
    assert_eq!(sim.stats().await["rejectedTokens"], 1);

    // Tokens expire by themselves after --token-expires-in.
    let short = Sim::start(&ca, &["--token-expires-in", "1"]);
    let token = short.token().await;
    assert_eq!(short.get_cob(&token, &txid).await.0, StatusCode::NOT_FOUND);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(
        short.get_cob(&token, &txid).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn callbacks_dropped_duplicated_held_reordered_and_batched() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = Sim::start(&ca, &[]);
    let token = sim.token().await;
    register_webhook(&sim, &token, &receiver).await;
    let set = |callbacks: Value| {
        sim.control(
            reqwest::Method::PUT,
            "/switches",
            json!({ "callbacks": callbacks }),
        )
    };
    let mut n = 0;
    let mut pay = async || {
        n += 1;
        let txid = txid_for("store-1", &format!("callbacks-{n}"));
        sim.put_cob(&token, &txid, &cob_body("10.00")).await;
        let (status, pix) = sim.sim_post(&format!("/cob/{txid}/pay"), json!({})).await;
        assert_eq!(status, 200);
        serde_json::from_value::<Pix>(pix).unwrap()
    };

    // Dropped: nothing arrives, the payment is still there to read.
    set(json!({"drop": true})).await;
    pay().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.count(), 0);
    assert_eq!(sim.stats().await["callbacks"]["dropped"], 1);

    // Duplicated: the same body twice.
    set(json!({"drop": false, "duplicate": true})).await;
    let twice = pay().await;
    receiver.wait_for(2, WAIT).await;
    assert_eq!(
        callback_pix(&receiver),
        vec![vec![twice.clone()], vec![twice]]
    );

    // Held, then flushed newest first: out of order.
    set(json!({"duplicate": false, "hold": true})).await;
    let (a, b, c) = (pay().await, pay().await, pay().await);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(receiver.count(), 2);
    let (status, flushed) = sim
        .sim_post("/callbacks/flush", json!({"order": "reverse"}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(flushed["deliveries"].as_array().unwrap().len(), 3);
    assert_eq!(callback_pix(&receiver)[2..], [vec![c], vec![b], vec![a]]);

    // Held, then flushed as one batch.
    let (d, e) = (pay().await, pay().await);
    let (_, flushed) = sim
        .sim_post("/callbacks/flush", json!({"batch": true}))
        .await;
    assert_eq!(flushed["deliveries"].as_array().unwrap().len(), 1);
    assert_eq!(callback_pix(&receiver)[5..], [vec![d, e]]);

    let (_, log) = sim
        .control(reqwest::Method::GET, "/callbacks", Value::Null)
        .await;
    assert_eq!(log["held"], 0);
    let deliveries = log["deliveries"].as_array().unwrap();
    assert_eq!(deliveries.len(), 6);
    assert!(deliveries.iter().all(|d| d["status"] == 200), "{log}");
    assert_eq!(sim.stats().await["callbacks"]["delivered"], 6);
}

#[test]
fn plain_http_serves_loopback_only() {
    let out = Command::new(pixgate_bin())
        .args(["psp-sim", "--plain-http", "--listen", "0.0.0.0:0"])
        .env_clear()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("loopback"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn plain_http_on_loopback_for_demos() {
    let (child, origin, _stderr) = launch(&[
        "psp-sim".to_owned(),
        "--plain-http".to_owned(),
        "--listen".to_owned(),
        "127.0.0.1:0".to_owned(),
        "--client-id".to_owned(),
        "demo".to_owned(),
        "--client-secret".to_owned(),
        "s3cret".to_owned(),
    ]);
    struct Kill(Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _child = Kill(child);
    assert!(origin.starts_with("http://127.0.0.1:"), "{origin}");
    install_tls_provider();
    let client = reqwest::Client::new();
    let r = client
        .post(format!("{origin}/oauth/token"))
        .basic_auth("demo", Some("s3cret"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("grant_type=client_credentials")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let token: TokenResponse = r.json().await.unwrap();
    assert_eq!(token.token_type, "Bearer");
    assert_eq!(token.expires_in, 3600);
}

/// Certificates given by flags: a second simulator serves the first one's server certificate
/// and requires client certificates of its CA, generating nothing.
#[tokio::test]
async fn given_certificates_and_client_ca() {
    let ca = TestCa::new();
    let first = Sim::start(&ca, &[]);
    let dir = first.certs.path();
    let path = |name: &str| dir.join(name).display().to_string();
    let (child, origin, stderr) = launch(&[
        "psp-sim".to_owned(),
        "--listen".to_owned(),
        "127.0.0.1:0".to_owned(),
        "--cert".to_owned(),
        path("server.pem"),
        "--key".to_owned(),
        path("server-key.pem"),
        "--mtls".to_owned(),
        "--client-ca".to_owned(),
        path("ca.pem"),
    ]);
    let second = Sim {
        child,
        origin,
        certs: tempfile::tempdir().unwrap(),
        stderr,
        client: client(dir, true, WAIT),
    };
    assert_ne!(second.origin, first.origin);
    let token = second.token().await;
    let (status, _) = second.get_cob(&token, &"c".repeat(32)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        client(dir, false, WAIT)
            .post(second.url("/oauth/token"))
            .send()
            .await
            .is_err(),
        "a client certificate is required"
    );
}

#[tokio::test]
async fn patch_removes_an_active_charge_and_refuses_a_paid_one() {
    let ca = TestCa::new();
    let sim = Sim::start(&ca, &[]);
    let token = sim.token().await;
    let patch = async |txid: &str, body: Value| {
        let r = sim
            .client
            .patch(sim.api(&format!("/cob/{txid}")))
            .bearer_auth(&token)
            .json(&body)
            .send()
            .await
            .unwrap();
        (r.status(), r.json::<Value>().await.unwrap())
    };
    let removal = json!({"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"});

    // ATIVA: removed, and it stays so (a second removal is refused, the payer cannot pay).
    let active = txid_for("store-1", "patch-active");
    sim.put_cob(&token, &active, &cob_body("10.00")).await;
    let (status, removed) = patch(&active, removal.clone()).await;
    assert_eq!(status, StatusCode::OK, "{removed}");
    assert_eq!(
        cob(&removed).status,
        CobStatus::RemovidaPeloUsuarioRecebedor
    );
    let (status, again) = patch(&active, removal.clone()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(problem(&again).0, "CobOperacaoInvalida");
    let (status, _) = sim.sim_post(&format!("/cob/{active}/pay"), json!({})).await;
    assert_eq!(status, 409);

    // CONCLUIDA: the removal, and any revision, is 400 CobOperacaoInvalida; the charge stays
    // paid, with its pix.
    let paid = txid_for("store-1", "patch-paid");
    sim.put_cob(&token, &paid, &cob_body("10.00")).await;
    sim.sim_post(&format!("/cob/{paid}/pay"), json!({})).await;
    for body in [removal, json!({"solicitacaoPagador": "outra"})] {
        let (status, refused) = patch(&paid, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
        assert_eq!(
            problem(&refused),
            (
                "CobOperacaoInvalida".to_owned(),
                vec!["cob.status".to_owned()]
            )
        );
    }
    let (_, read) = sim.get_cob(&token, &paid).await;
    let read = cob(&read);
    assert_eq!(read.status, CobStatus::Concluida);
    assert_eq!(read.revisao, 0);
    assert_eq!(read.pix.len(), 1);

    // Unknown: 404.
    let (status, missing) = patch(
        &"d".repeat(32),
        json!({"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(problem(&missing).0, "CobNaoEncontrado");
}

#[tokio::test]
async fn devolucoes_partial_several_never_more_than_the_pix() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = Sim::start(&ca, &[]);
    let token = sim.token().await;
    register_webhook(&sim, &token, &receiver).await;
    let pix = sim.paid_pix(&token, "refunds-1", "100.00").await;
    let e2eid = pix.end_to_end_id.clone();
    receiver.wait_for(1, WAIT).await;

    // Two partial devoluções, settled at once (the default): DEVOLVIDO with liquidacao.
    let (status, first) = sim
        .put_devolucao(
            &token,
            &e2eid,
            "refund1",
            &json!({"valor": "30.00", "natureza": "ORIGINAL", "descricao": "Pedido 10042"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let first = devolucao(&first);
    assert_eq!(first.id, "refund1");
    assert_eq!(first.valor.centavos(), 3000);
    assert_eq!(first.natureza, Some(Natureza::Original));
    assert_eq!(first.descricao.as_deref(), Some("Pedido 10042"));
    assert_eq!(first.status, DevolucaoStatus::Devolvido);
    assert!(first.horario.liquidacao.unwrap() >= first.horario.solicitacao);
    assert_eq!(first.motivo, None);
    // Callbacks go out from their own tasks: waiting for each keeps their order known.
    receiver.wait_for(2, WAIT).await;
    // rtrId: D + the simulator's ISPB + yyyyMMddHHmm + 11 alphanumerics.
    assert_eq!(first.rtr_id.len(), 32, "{}", first.rtr_id);
    assert!(first.rtr_id.starts_with("D87654321"), "{}", first.rtr_id);
    assert!(first.rtr_id[9..21].bytes().all(|b| b.is_ascii_digit()));
    assert!(
        first.rtr_id[21..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric())
    );
    // natureza defaults to ORIGINAL.
    let (status, second) = sim
        .put_devolucao(&token, &e2eid, "refund2", &json!({"valor": "69.99"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    let second = devolucao(&second);
    assert_eq!(second.natureza, Some(Natureza::Original));
    assert_ne!(second.rtr_id, first.rtr_id);
    receiver.wait_for(3, WAIT).await;

    // One centavo is left: two are refused, one is not.
    let (status, refused) = sim
        .put_devolucao(&token, &e2eid, "refund3", &json!({"valor": "0.02"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        problem(&refused),
        (
            "PixDevolucaoInvalida".to_owned(),
            vec!["devolucao.valor".to_owned()]
        )
    );
    let (status, last) = sim
        .put_devolucao(&token, &e2eid, "refund3", &json!({"valor": "0.01"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{last}");
    let last = devolucao(&last);

    // An id used already: 400 even with the same body (v2.9.0); the client reads it back.
    let (status, refused) = sim
        .put_devolucao(
            &token,
            &e2eid,
            "refund1",
            &json!({"valor": "30.00", "natureza": "ORIGINAL", "descricao": "Pedido 10042"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(problem(&refused).1, ["id"]);
    let (status, read) = sim
        .api_get(&token, &format!("/pix/{e2eid}/devolucao/refund1"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(devolucao(&read), first);
    let (status, missing) = sim
        .api_get(&token, &format!("/pix/{e2eid}/devolucao/refund9"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(problem(&missing).0, "PixDevolucaoNaoEncontrada");

    // GET /pix/{e2eid} and GET /cob/{txid}: the pix with its devoluções, in order; the PSP
    // gave back exactly what was paid, never more.
    let (status, read) = sim.api_get(&token, &format!("/pix/{e2eid}")).await;
    assert_eq!(status, StatusCode::OK);
    let read: Pix = serde_json::from_value(read).unwrap();
    assert_eq!(
        read.devolucoes,
        vec![first.clone(), second.clone(), last.clone()]
    );
    assert_eq!(given_back(&read), pix.valor.centavos());
    let (_, charge) = sim.get_cob(&token, pix.txid.as_deref().unwrap()).await;
    assert_eq!(cob(&charge).pix, vec![read.clone()]);

    // Each devolução settled sent the pix with its devoluções so far.
    receiver.wait_for(4, WAIT).await;
    let callbacks = callback_pix(&receiver);
    assert_eq!(callbacks.len(), 4);
    assert_eq!(callbacks[1][0].devolucoes, vec![first.clone()]);
    assert_eq!(callbacks[2][0].devolucoes, vec![first.clone(), second]);
    assert_eq!(callbacks[3], vec![read]);

    // A pix the simulator never received: 404 PixNaoEncontrado.
    let unknown = "E12345678202601011200abcdefghijk";
    let (status, missing) = sim
        .put_devolucao(&token, unknown, "x1", &json!({"valor": "1.00"}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(problem(&missing).0, "PixNaoEncontrado");
    let (status, missing) = sim.api_get(&token, &format!("/pix/{unknown}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(problem(&missing).0, "PixNaoEncontrado");

    // The request's own rules, on a pix with room left.
    let other = sim.paid_pix(&token, "refunds-2", "50.00").await;
    let e2 = other.end_to_end_id.as_str();
    for (id, body, field) in [
        ("a-b", json!({"valor": "1.00"}), "id"),
        (&*"a".repeat(36), json!({"valor": "1.00"}), "id"),
        ("ok1", json!({"valor": "0.00"}), "devolucao.valor"),
        ("ok1", json!({"valor": "1.0"}), "devolucao.valor"),
        ("ok1", json!({}), "devolucao"),
        (
            "ok1",
            json!({"valor": "1.00", "natureza": "MED_FRAUDE"}),
            "devolucao.natureza",
        ),
        (
            "ok1",
            json!({"valor": "1.00", "natureza": null}),
            "devolucao.natureza",
        ),
        (
            "ok1",
            json!({"valor": "1.00", "descricao": "x".repeat(141)}),
            "devolucao.descricao",
        ),
    ] {
        let (status, refused) = sim.put_devolucao(&token, e2, id, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{id} {body}: {refused}");
        let (name, fields) = problem(&refused);
        assert_eq!(name, "PixDevolucaoInvalida");
        assert_eq!(fields, [field], "{body}");
    }
    let (status, ok) = sim
        .put_devolucao(
            &token,
            e2,
            &"Z".repeat(35),
            &json!({"valor": "50.00", "natureza": "RETIRADA", "descricao": "x".repeat(140)}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{ok}");

    // 90 days after the pix, no devolução; 89 days after, still one.
    let old = sim.paid_pix(&token, "refunds-3", "10.00").await;
    let (status, aged) = sim
        .sim_post(
            &format!("/pix/{}/backdate", old.end_to_end_id),
            json!({"days": 89}),
        )
        .await;
    assert_eq!(status, 200, "{aged}");
    let (status, ok) = sim
        .put_devolucao(
            &token,
            &old.end_to_end_id,
            "late1",
            &json!({"valor": "1.00"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{ok}");
    sim.sim_post(
        &format!("/pix/{}/backdate", old.end_to_end_id),
        json!({"days": 2}),
    )
    .await;
    let (status, refused) = sim
        .put_devolucao(
            &token,
            &old.end_to_end_id,
            "late2",
            &json!({"valor": "1.00"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        problem(&refused),
        ("PixDevolucaoInvalida".to_owned(), vec!["e2eid".to_owned()])
    );

    // The counters: PUTs per pix and id (refused ones included), devoluções created, reads.
    let stats = sim.stats().await;
    assert_eq!(stats["putDevolucao"][format!("{e2eid}/refund1")], 2);
    assert_eq!(stats["putDevolucao"][format!("{e2eid}/refund3")], 2);
    assert_eq!(stats["devolucoesCreated"], 5);
    assert_eq!(stats["getDevolucao"], 2);
    assert_eq!(stats["routes"]["PUT /pix/{e2eid}/devolucao/{id}"], 17);
    assert_eq!(stats["routes"]["GET /pix/{e2eid}"], 2);
}

#[tokio::test]
async fn devolucoes_settled_late_or_not_at_all() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = Sim::start(&ca, &[]);
    let token = sim.token().await;
    register_webhook(&sim, &token, &receiver).await;
    let pix = sim.paid_pix(&token, "late-1", "100.00").await;
    let e2eid = pix.end_to_end_id.as_str();
    receiver.wait_for(1, WAIT).await;
    let read = async |id: &str| {
        let (status, body) = sim
            .api_get(&token, &format!("/pix/{e2eid}/devolucao/{id}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        devolucao(&body)
    };

    // After a delay: EM_PROCESSAMENTO, then DEVOLVIDO by itself, with its callback.
    let switches = sim
        .switches(json!({"devolucoes": {"settleAfterMs": 500}}))
        .await;
    assert_eq!(
        switches["devolucoes"],
        json!({"settleAs": "DEVOLVIDO", "settleAfterMs": 500, "motivo": null, "dropAnswer": false})
    );
    let (status, answer) = sim
        .put_devolucao(&token, e2eid, "delayed1", &json!({"valor": "10.00"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let answer = devolucao(&answer);
    assert_eq!(answer.status, DevolucaoStatus::EmProcessamento);
    assert_eq!(answer.horario.liquidacao, None);
    assert_eq!(
        read("delayed1").await.status,
        DevolucaoStatus::EmProcessamento
    );
    assert_eq!(receiver.count(), 1, "no callback before it settles");
    receiver.wait_for(2, WAIT).await;
    let settled = read("delayed1").await;
    assert_eq!(settled.status, DevolucaoStatus::Devolvido);
    assert!(
        settled.horario.liquidacao.unwrap().unix_ms() >= answer.horario.solicitacao.unix_ms() + 500
    );
    assert_eq!(callback_pix(&receiver)[1][0].devolucoes, vec![settled]);

    // Still in processing, it counts against the pix: 90.00 left, not 100.00.
    sim.switches(json!({"devolucoes": {"settleAfterMs": 3_600_000}}))
        .await;
    let (status, _) = sim
        .put_devolucao(&token, e2eid, "held1", &json!({"valor": "40.00"}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = sim
        .put_devolucao(&token, e2eid, "held2", &json!({"valor": "50.00"}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = sim
        .put_devolucao(&token, e2eid, "held3", &json!({"valor": "0.01"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Settled now by the control route, and refused by another; a second settle is 409.
    let (status, now) = sim
        .sim_post(&format!("/pix/{e2eid}/devolucao/held1/settle"), json!({}))
        .await;
    assert_eq!(status, 200, "{now}");
    assert_eq!(devolucao(&now).status, DevolucaoStatus::Devolvido);
    receiver.wait_for(3, WAIT).await;
    let (status, _) = sim
        .sim_post(&format!("/pix/{e2eid}/devolucao/held1/settle"), json!({}))
        .await;
    assert_eq!(status, 409);
    let (status, failed) = sim
        .sim_post(
            &format!("/pix/{e2eid}/devolucao/held2/fail"),
            json!({"motivo": "Conta do pagador encerrada"}),
        )
        .await;
    assert_eq!(status, 200, "{failed}");
    let failed = devolucao(&failed);
    assert_eq!(failed.status, DevolucaoStatus::NaoRealizado);
    assert_eq!(failed.motivo.as_deref(), Some("Conta do pagador encerrada"));
    assert_eq!(failed.horario.liquidacao, None);
    assert_eq!(read("held2").await, failed);
    let (status, _) = sim
        .sim_post(
            &format!("/pix/{e2eid}/devolucao/held2/fail"),
            json!({"motivo": "x"}),
        )
        .await;
    assert_eq!(status, 409, "money given back or refused stays so");
    let (status, _) = sim
        .sim_post(&format!("/pix/{e2eid}/devolucao/nope/settle"), json!({}))
        .await;
    assert_eq!(status, 404);
    receiver.wait_for(4, WAIT).await;
    let callbacks = callback_pix(&receiver);
    assert_eq!(callbacks[3][0].devolucoes[2], failed);

    // What was refused never left: its 50.00 can be asked again.
    sim.switches(json!({"devolucoes": {"settleAfterMs": 0}}))
        .await;
    let (status, again) = sim
        .put_devolucao(&token, e2eid, "again1", &json!({"valor": "50.00"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
    receiver.wait_for(5, WAIT).await;

    // NAO_REALIZADO needs its motivo; then at once, and after a delay.
    let (status, refused) = sim
        .control(
            reqwest::Method::PUT,
            "/switches",
            json!({"devolucoes": {"settleAs": "NAO_REALIZADO"}}),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    sim.switches(
        json!({"devolucoes": {"settleAs": "NAO_REALIZADO", "motivo": "Saldo insuficiente"}}),
    )
    .await;
    let other = sim.paid_pix(&token, "late-2", "20.00").await;
    let e2 = other.end_to_end_id.as_str();
    receiver.wait_for(6, WAIT).await;
    let (status, at_once) = sim
        .put_devolucao(&token, e2, "no1", &json!({"valor": "20.00"}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let at_once = devolucao(&at_once);
    assert_eq!(at_once.status, DevolucaoStatus::NaoRealizado);
    assert_eq!(at_once.motivo.as_deref(), Some("Saldo insuficiente"));
    receiver.wait_for(7, WAIT).await;
    assert_eq!(callback_pix(&receiver)[6][0].devolucoes, vec![at_once]);
    sim.switches(json!({"devolucoes": {"settleAfterMs": 300}}))
        .await;
    let (status, later) = sim
        .put_devolucao(&token, e2, "no2", &json!({"valor": "20.00"}))
        .await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "room: the first never happened"
    );
    assert_eq!(devolucao(&later).status, DevolucaoStatus::EmProcessamento);
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (_, read) = sim.api_get(&token, &format!("/pix/{e2}")).await;
    let read: Pix = serde_json::from_value(read).unwrap();
    assert_eq!(read.devolucoes[1].status, DevolucaoStatus::NaoRealizado);
    assert_eq!(
        read.devolucoes[1].motivo.as_deref(),
        Some("Saldo insuficiente")
    );
    assert_eq!(given_back(&read), 0);
    // The payment, delayed1, held1, held2, again1, other's payment, no1, no2.
    receiver.wait_for(8, WAIT).await;
    assert_eq!(callback_pix(&receiver)[7], vec![read]);
}

#[tokio::test]
async fn a_lost_devolucao_answer_and_the_meds_devolucao() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = Sim::start(&ca, &[]);
    let token = sim.token().await;
    register_webhook(&sim, &token, &receiver).await;
    let pix = sim.paid_pix(&token, "lost-1", "100.00").await;
    let e2eid = pix.end_to_end_id.as_str();
    receiver.wait_for(1, WAIT).await;

    // The answer is lost: 504, though the devolução is recorded (and settled, and called back).
    sim.switches(json!({"devolucoes": {"dropAnswer": true}}))
        .await;
    let body = json!({"valor": "25.00"});
    let (status, lost) = sim.put_devolucao(&token, e2eid, "lost1", &body).await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT, "{lost}");
    assert!(
        lost["type"]
            .as_str()
            .unwrap()
            .starts_with("https://pix.bcb.gov.br/api/v2/error/")
    );
    let (status, read) = sim
        .api_get(&token, &format!("/pix/{e2eid}/devolucao/lost1"))
        .await;
    assert_eq!(status, StatusCode::OK, "reads are not lost");
    let read = devolucao(&read);
    assert_eq!(read.status, DevolucaoStatus::Devolvido);
    receiver.wait_for(2, WAIT).await;
    assert_eq!(callback_pix(&receiver)[1][0].devolucoes, vec![read.clone()]);
    // A retried PUT is processed (and refused: the id is taken) and lost again.
    let (status, _) = sim.put_devolucao(&token, e2eid, "lost1", &body).await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT);
    sim.switches(json!({"devolucoes": {"dropAnswer": false}}))
        .await;
    let (status, refused) = sim.put_devolucao(&token, e2eid, "lost1", &body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(problem(&refused).1, ["id"]);
    let stats = sim.stats().await;
    assert_eq!(stats["answersDropped"], 2);
    assert_eq!(stats["putDevolucao"][format!("{e2eid}/lost1")], 3);
    assert_eq!(
        stats["devolucoesCreated"], 1,
        "one devolução for three PUTs"
    );

    // The MED takes money back unasked: DEVOLVIDO at once, with its callback.
    let (status, med) = sim
        .sim_post(
            &format!("/pix/{e2eid}/med"),
            json!({"valor": "60.00", "natureza": "MED_FRAUDE"}),
        )
        .await;
    assert_eq!(status, 200, "{med}");
    let med = devolucao(&med);
    assert_eq!(med.natureza, Some(Natureza::MedFraude));
    assert_eq!(med.status, DevolucaoStatus::Devolvido);
    assert!(med.horario.liquidacao.is_some());
    assert!(pixgate_pix::apipix::valid_devolucao_id(&med.id));
    assert!(med.rtr_id.starts_with("D87654321"));
    receiver.wait_for(3, WAIT).await;
    assert_eq!(
        callback_pix(&receiver)[2][0].devolucoes,
        vec![read.clone(), med.clone()]
    );
    // It counts like any devolução: 15.00 left, for the receiver and for the MED.
    let (status, _) = sim
        .put_devolucao(&token, e2eid, "after1", &json!({"valor": "15.01"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = sim
        .sim_post(
            &format!("/pix/{e2eid}/med"),
            json!({"valor": "15.01", "natureza": "MED_OPERACIONAL"}),
        )
        .await;
    assert_eq!(status, 409);
    let (status, _) = sim
        .sim_post(
            &format!("/pix/{e2eid}/med"),
            json!({"valor": "5.00", "natureza": "RETIRADA"}),
        )
        .await;
    assert_eq!(
        status, 400,
        "the MED's natures and the portal's ORIGINAL only"
    );
    let (status, _) = sim
        .sim_post(
            "/pix/E12345678202601011200abcdefghijk/med",
            json!({"valor": "5.00", "natureza": "MED_FRAUDE"}),
        )
        .await;
    assert_eq!(status, 404);

    // The callback switches apply to devoluções' callbacks: held, then flushed.
    sim.switches(json!({"callbacks": {"hold": true}})).await;
    let (status, op) = sim
        .sim_post(
            &format!("/pix/{e2eid}/med"),
            json!({"valor": "15.00", "natureza": "MED_OPERACIONAL", "id": "med2"}),
        )
        .await;
    assert_eq!(status, 200, "{op}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(receiver.count(), 3);
    sim.sim_post("/callbacks/flush", json!({})).await;
    let callbacks = callback_pix(&receiver);
    assert_eq!(callbacks.len(), 4);
    let (_, read) = sim.api_get(&token, &format!("/pix/{e2eid}")).await;
    let read: Pix = serde_json::from_value(read).unwrap();
    assert_eq!(callbacks[3], vec![read.clone()]);
    assert_eq!(read.devolucoes[2].id, "med2");
    assert_eq!(given_back(&read), pix.valor.centavos());
}

/// `GET /pix`, what a ledger sweep reads: the period's pix of every charge and those paid to
/// the key alone (a static QR code, `POST /_sim/pix`), in `horario` order, paged as the
/// standard says, filtered by txid, by a txid's presence and by a devolução's.
#[tokio::test]
async fn the_pix_of_a_period_are_listed_a_page_at_a_time() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = Sim::start(&ca, &[]);
    let token = sim.token().await;
    register_webhook(&sim, &token, &receiver).await;
    // RFC 3339, `offset_ms` from now.
    let iso_from_now = |offset_ms: i64| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis();
        pixgate_pix::time::iso8601(i64::try_from(now).unwrap() + offset_ms)
    };
    let before = iso_from_now(-1_000);
    let mut paid = Vec::new();
    for n in 0..5 {
        paid.push(sim.paid_pix(&token, &format!("listed-{n}"), "10.00").await);
    }
    // Paid to the key with no charge: a static QR code, with a short identifier of its own.
    let (status, keyed) = sim
        .sim_post(
            "/pix",
            json!({"chave": CHAVE, "valor": "7.50", "txid": "loja1caixa2"}),
        )
        .await;
    assert_eq!(status, 200, "{keyed}");
    let keyed: Pix = serde_json::from_value(keyed).unwrap();
    assert_eq!(keyed.txid.as_deref(), Some("loja1caixa2"));
    let (status, _) = sim
        .sim_post("/pix", json!({"chave": CHAVE, "valor": "3.00"}))
        .await;
    assert_eq!(status, 200);
    // Called back like any pix, and given back like any.
    let deadline = Instant::now() + WAIT;
    while !callback_pix(&receiver)
        .concat()
        .iter()
        .any(|p| p.end_to_end_id == keyed.end_to_end_id)
    {
        assert!(Instant::now() < deadline, "no callback of the key's pix");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, dev) = sim
        .put_devolucao(
            &token,
            &keyed.end_to_end_id,
            "keyed1",
            &json!({"valor": "1.00"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{dev}");
    let after = iso_from_now(1_000);
    let list = |query: String| {
        let sim = &sim;
        let token = &token;
        async move { sim.api_get(token, &format!("/pix?{query}")).await }
    };
    let period = format!("inicio={before}&fim={after}");

    // Pages of 3: every pix once, in order, the last page short.
    let mut seen = Vec::new();
    for page in 0..3 {
        let (status, body) = list(format!(
            "{period}&paginacao.paginaAtual={page}&paginacao.itensPorPagina=3"
        ))
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let paging = &body["parametros"]["paginacao"];
        assert_eq!(paging["quantidadeTotalDeItens"], 7, "{body}");
        assert_eq!(paging["quantidadeDePaginas"], 3, "{body}");
        assert_eq!(paging["paginaAtual"], page, "{body}");
        let items: Vec<Pix> = serde_json::from_value(body["pix"].clone()).unwrap();
        assert_eq!(items.len(), [3, 3, 1][page], "{body}");
        seen.extend(items);
    }
    let order: Vec<_> = seen
        .iter()
        .map(|p| (p.horario, p.end_to_end_id.clone()))
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "in horario order");
    for pix in &paid {
        assert!(seen.iter().any(|p| p.end_to_end_id == pix.end_to_end_id));
    }
    let listed_keyed = seen
        .iter()
        .find(|p| p.end_to_end_id == keyed.end_to_end_id)
        .unwrap();
    assert_eq!(listed_keyed.devolucoes.len(), 1, "with its devolução");

    // Filters; a period that holds none; a page past the last.
    for (query, n) in [
        (format!("{period}&txIdPresente=false"), 1),
        (format!("{period}&txIdPresente=true"), 6),
        (format!("{period}&devolucaoPresente=true"), 1),
        (format!("{period}&txid=loja1caixa2"), 1),
        (
            "inicio=2020-01-01T00:00:00Z&fim=2020-01-02T00:00:00Z".to_owned(),
            0,
        ),
        (format!("{period}&paginacao.paginaAtual=9"), 0),
    ] {
        let (status, body) = list(query.clone()).await;
        assert_eq!(status, StatusCode::OK, "{query}: {body}");
        assert_eq!(body["pix"].as_array().unwrap().len(), n, "{query}: {body}");
    }
    // The standard's refusals: fim before inicio, both cpf and cnpj, a page size over 1,000.
    for query in [
        format!("inicio={after}&fim={before}"),
        format!("{period}&cpf=12345678909&cnpj=11222333000181"),
        format!("{period}&paginacao.itensPorPagina=1001"),
        "fim=2020-01-02T00:00:00Z".to_owned(),
    ] {
        let (status, body) = list(query.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(problem(&body).0, "PixConsultaInvalida", "{query}: {body}");
    }
    assert_eq!(sim.stats().await["listPix"], 9);
}

/// What the ledger sweep's findings are made of at the simulator: a payment whose callback is
/// lost and whose next reads answer it unpaid (`unseen`), one that lands on a removed charge
/// (`force`), a pix its list leaves out (`unlist`), and a day's worth of copies of a pix.
#[tokio::test]
async fn a_payment_can_be_unseen_forced_unlisted_and_copied() {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = Sim::start(&ca, &[]);
    let token = sim.token().await;
    register_webhook(&sim, &token, &receiver).await;

    // Unseen: no callback, and the next 2 reads answer the charge as it was.
    let txid = txid_for("store-1", "unseen");
    let (status, created) = sim.put_cob(&token, &txid, &cob_body("10.00")).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (status, pix) = sim
        .sim_post(&format!("/cob/{txid}/pay"), json!({"unseen": 2}))
        .await;
    assert_eq!(status, 200, "{pix}");
    for _ in 0..2 {
        let (_, read) = sim.get_cob(&token, &txid).await;
        assert_eq!(read["status"], "ATIVA", "{read}");
        assert!(read.get("pix").is_none_or(|p| p == &json!([])), "{read}");
    }
    let (_, read) = sim.get_cob(&token, &txid).await;
    assert_eq!(read["status"], "CONCLUIDA", "the third read tells: {read}");
    assert_eq!(sim.stats().await["callbacks"]["dropped"], 1);
    let e2eid = pix["endToEndId"].as_str().unwrap().to_owned();

    // Forced: a removed charge is paid all the same; without `force` it is refused.
    let removed = txid_for("store-1", "removed");
    let (status, _) = sim.put_cob(&token, &removed, &cob_body("5.00")).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = sim
        .sim_post(&format!("/cob/{removed}/remove"), json!({}))
        .await;
    assert_eq!(status, 200);
    let (status, _) = sim
        .sim_post(&format!("/cob/{removed}/pay"), json!({}))
        .await;
    assert_eq!(status, 409);
    let (status, forced) = sim
        .sim_post(&format!("/cob/{removed}/pay"), json!({"force": true}))
        .await;
    assert_eq!(status, 200, "{forced}");
    let (status, _) = sim
        .sim_post(&format!("/cob/{removed}/pay"), json!({"force": true}))
        .await;
    assert_eq!(status, 409, "paid once only");

    // Unlisted: out of GET /pix, still read by GET /pix/{e2eid}; copies: in it.
    let day = "inicio=2020-01-01T00:00:00Z&fim=2099-01-01T00:00:00Z&paginacao.itensPorPagina=1000";
    let (status, _) = sim
        .sim_post(&format!("/pix/{e2eid}/unlist"), json!({}))
        .await;
    assert_eq!(status, 200);
    let (_, listed) = sim.api_get(&token, &format!("/pix?{day}")).await;
    let ids: Vec<&str> = listed["pix"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["endToEndId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [forced["endToEndId"].as_str().unwrap()], "{listed}");
    let (status, read) = sim.api_get(&token, &format!("/pix/{e2eid}")).await;
    assert_eq!(status, StatusCode::OK, "{read}");
    let (status, copied) = sim
        .sim_post(
            &format!("/pix/{}/copies", forced["endToEndId"].as_str().unwrap()),
            json!({"count": 3}),
        )
        .await;
    assert_eq!((status, &copied["count"]), (200, &json!(3)), "{copied}");
    let (_, listed) = sim.api_get(&token, &format!("/pix?{day}")).await;
    let txids: Vec<&str> = listed["pix"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["txid"].as_str().unwrap())
        .collect();
    assert_eq!(txids.len(), 4, "{listed}");
    let stem = &removed[..removed.len() - 10];
    for n in 1..=3 {
        assert!(
            txids.contains(&format!("{stem}{n:010}").as_str()),
            "{txids:?}"
        );
    }
}
