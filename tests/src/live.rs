//! LIVE stores end to end: a real `pixgate psp-sim` (https with mTLS, its generated CA and
//! client certificate) as each provider's PSP, a real `pixgate serve` pointed at it, and a
//! real HTTPS receiver for the merchant's signed webhooks.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};

use crate::receiver::{Receiver, TestCa};
use crate::server::{Backend, Server};
use crate::{install_tls_provider, pixgate_bin};

/// A running simulator; killed when dropped.
pub struct Sim {
    child: Child,
    pub origin: String,
    pub certs: tempfile::TempDir,
    stderr: Arc<Mutex<String>>,
    client: reqwest::Client,
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Sim {
    /// `pixgate psp-sim` on 127.0.0.1:0 with mTLS and generated certificates.
    pub fn start(extra: &[&str]) -> Sim {
        let certs = tempfile::tempdir().unwrap();
        let mut args: Vec<String> = ["psp-sim", "--listen", "127.0.0.1:0", "--mtls", "--cert-dir"]
            .map(str::to_owned)
            .into();
        args.push(certs.path().display().to_string());
        args.extend(extra.iter().map(|a| (*a).to_owned()));
        let (child, origin, stderr) = launch_sim(&args);
        let client = sim_client(certs.path(), true, Duration::from_secs(10));
        Sim {
            child,
            origin,
            certs,
            stderr,
            client,
        }
    }

    pub fn logs(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// A PEM file the simulator generated (`ca.pem`, `client.pem`, `client-key.pem`, ...).
    pub fn pem(&self, name: &str) -> String {
        std::fs::read_to_string(self.certs.path().join(name)).unwrap()
    }

    /// The admin API body creating provider `code` at this simulator.
    pub fn provider(&self, code: &str, pix_key: &str) -> Value {
        json!({
            "code": code,
            "name": format!("{code} (simulator)"),
            "apiBaseUrl": format!("{}/api/v2", self.origin),
            "tokenUrl": format!("{}/oauth/token", self.origin),
            "clientId": "psp-sim-client",
            "clientSecret": "psp-sim-secret",
            "pixKey": pix_key,
            "tls": {
                "caPem": self.pem("ca.pem"),
                "clientCertPem": self.pem("client.pem"),
                "clientKeyPem": self.pem("client-key.pem"),
            }
        })
    }

    /// A control route (`/_sim/...`): the status and the JSON answer.
    pub async fn control(&self, method: reqwest::Method, path: &str, body: Value) -> (u16, Value) {
        let mut request = self
            .client
            .request(method, format!("{}/_sim{path}", self.origin));
        if !body.is_null() {
            request = request.json(&body);
        }
        let r = request.send().await.unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    pub async fn post(&self, path: &str, body: Value) -> Value {
        let (status, answer) = self.control(reqwest::Method::POST, path, body).await;
        assert!(
            status < 300,
            "/_sim{path}: {status} {answer}\n{}",
            self.logs()
        );
        answer
    }

    pub async fn switches(&self, patch: Value) {
        let (status, answer) = self.control(reqwest::Method::PUT, "/switches", patch).await;
        assert_eq!(status, 200, "{answer}");
    }

    pub async fn stats(&self) -> Value {
        self.control(reqwest::Method::GET, "/stats", Value::Null)
            .await
            .1
    }

    /// `GET /pix/{e2eid}` of the API with a fresh token: the pix with its `devolucoes[]`.
    pub async fn pix(&self, e2eid: &str) -> Value {
        self.api_get(&format!("/pix/{e2eid}")).await
    }

    /// `GET /cobr/{txid}` of the API with a fresh token: a recurring charge as its PSP has it.
    pub async fn cobr(&self, txid: &str) -> Value {
        self.api_get(&format!("/cobr/{txid}")).await
    }

    /// `GET {path}` of the API Pix with a fresh token.
    async fn api_get(&self, path: &str) -> Value {
        let token: Value = self
            .client
            .post(format!("{}/oauth/token", self.origin))
            .basic_auth("psp-sim-client", Some("psp-sim-secret"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("grant_type=client_credentials")
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        self.client
            .get(format!("{}/api/v2{path}", self.origin))
            .bearer_auth(token["access_token"].as_str().unwrap())
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap_or(Value::Null)
    }

    /// `GET /webhook/{chave}` with a fresh token: the callback URL registered for `chave`.
    pub async fn registered_webhook(&self, chave: &str) -> Value {
        self.api_get(&format!("/webhook/{chave}")).await
    }

    /// How many `PUT /cob/{txid}` the simulator processed for `txid`, and how many charges it
    /// has created in all.
    pub async fn puts_and_cobs(&self, txid: &str) -> (u64, u64) {
        let stats = self.stats().await;
        (
            stats["putCob"][txid].as_u64().unwrap_or(0),
            stats["cobsCreated"].as_u64().unwrap_or(0),
        )
    }
}

/// A client trusting `ca.pem` of `dir`, presenting its `client.pem` when `mtls`, giving up after
/// `timeout`.
pub fn sim_client(dir: &Path, mtls: bool, timeout: Duration) -> reqwest::Client {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    install_tls_provider();
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(dir.join("ca.pem")).unwrap() {
        roots.add(cert.unwrap()).unwrap();
    }
    let builder = rustls::ClientConfig::builder().with_root_certificates(roots);
    let tls = if mtls {
        let chain = CertificateDer::pem_file_iter(dir.join("client.pem"))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let key = PrivateKeyDer::from_pem_file(dir.join("client-key.pem")).unwrap();
        builder.with_client_auth_cert(chain, key).unwrap()
    } else {
        builder.with_no_client_auth()
    };
    reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .no_proxy()
        .timeout(timeout)
        .build()
        .unwrap()
}

/// Starts `pixgate` with `args`; waits for `psp-sim: ready` and returns the origin it printed.
pub fn launch_sim(args: &[String]) -> (Child, String, Arc<Mutex<String>>) {
    let mut child = Command::new(pixgate_bin())
        .args(args)
        .env_clear()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .expect("start pixgate psp-sim");
    let stdout = child.stdout.take().unwrap();
    let stderr = crate::capture_stderr(&mut child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut origin = String::new();
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("psp-sim: listening on ") {
                origin = rest.trim().to_owned();
            } else if line == "psp-sim: ready" {
                let _ = tx.send(origin.clone());
            }
        }
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(origin) => (child, origin, stderr),
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("psp-sim did not start:\n{}", stderr.lock().unwrap());
        }
    }
}

/// pixgate with two providers at two simulators (`sandbox-a`, `sandbox-b`: the sandbox
/// catalog's gateways name them), a merchant `shop` with a LIVE store `shop-live`, its key,
/// and a webhook endpoint at an HTTPS receiver.
pub struct Live {
    pub server: Server,
    pub a: Sim,
    pub b: Sim,
    pub receiver: Receiver,
    pub ca: TestCa,
    pub key: String,
    pub secret: String,
}

pub const STORE: &str = "shop-live";

/// What the harness's endpoint subscribes to: every payment, refund and Pix Automático event.
pub const EVENTS: [&str; 11] = [
    "payment.pending",
    "payment.succeeded",
    "payment.failed",
    "payment.canceled",
    "refund.succeeded",
    "refund.failed",
    "mandate.authorized",
    "mandate.rejected",
    "mandate.expired",
    "mandate.canceled",
    "payment.attempt_failed",
];

impl Live {
    /// `env` adds to pixgate's environment (e.g. `PIXGATE_RECONCILE_INTERVAL`).
    pub async fn start(backend: Backend, env: &[(&str, &str)]) -> Live {
        let a = Sim::start(&[]);
        let b = Sim::start(&[]);
        let ca = TestCa::new();
        let receiver = Receiver::start(&ca).await;
        let ca_file = ca.ca_file().display().to_string();
        let mut all = vec![
            ("PIXGATE_WEBHOOK_CA_FILE", ca_file.as_str()),
            ("PIXGATE_WEBHOOK_ALLOW_CIDRS", "127.0.0.0/8"),
            ("PIXGATE_PSP_TIMEOUT", "3s"),
            ("PIXGATE_RECONCILE_INTERVAL", "1h"),
        ];
        all.extend_from_slice(env);
        let server = Server::start_with(backend, &all).await;
        for (sim, code) in [(&a, "sandbox-a"), (&b, "sandbox-b")] {
            let (status, body) = server
                .admin_post(
                    "/providers",
                    sim.provider(code, &format!("{code}@pixgate.test")),
                )
                .await;
            assert_eq!(status, 201, "{body}\n{}", server.logs());
        }
        let key = server.merchant_with_store("shop", STORE, "LIVE").await;
        let (status, body) = server
            .admin_patch(&format!("/stores/{STORE}"), json!({"liveEnabled": true}))
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, endpoint) = server
            .create_endpoint(&key, &receiver.url("/hooks/pix"), Some(&EVENTS))
            .await;
        assert_eq!(status, 201, "{endpoint}");
        let secret = endpoint["data"]["signingSecret"]
            .as_str()
            .unwrap()
            .to_owned();
        Live {
            server,
            a,
            b,
            receiver,
            ca,
            key,
            secret,
        }
    }

    pub fn sim(&self, provider: &str) -> &Sim {
        match provider {
            "sandbox-a" => &self.a,
            "sandbox-b" => &self.b,
            other => panic!("no simulator for {other}"),
        }
    }

    /// Sets the store's configuration and gateways.
    pub async fn configure(&self, config: Value, gateways: &[&str]) {
        let (status, body) = self
            .server
            .admin_patch(&format!("/stores/{STORE}"), json!({"config": config}))
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = self
            .server
            .admin(
                reqwest::Method::PUT,
                &format!("/stores/{STORE}/gateways"),
                Some(json!({"gateways": gateways})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }

    /// The ranking the store's chain gives a charge: `(providerCode, gatewayAlias)`, primary
    /// first (a dry run: nothing is written).
    pub async fn ranking(&self) -> Vec<(String, String)> {
        let mut charge = crate::server::charge_body(STORE);
        charge.as_object_mut().unwrap().remove("store");
        let (status, body) = self
            .server
            .admin_post("/evaluate", json!({"store": STORE, "charge": charge}))
            .await;
        assert_eq!(status, 200, "{body}");
        body["data"]["trace"]["routes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["gateway"]["providerCode"].as_str().unwrap().to_owned(),
                    r["gateway"]["gatewayAlias"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    }

    pub async fn charge(&self, idempotency_key: &str) -> (u16, Value) {
        self.server
            .charge(
                &self.key,
                idempotency_key,
                &crate::server::charge_body(STORE),
            )
            .await
    }

    /// A key of the shop granted its store with `scopes`.
    pub async fn key_with(&self, scopes: &[&str]) -> String {
        let (status, body) = self
            .server
            .admin_post(
                "/api-keys",
                json!({"merchant": "shop", "stores": [STORE], "scopes": scopes}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body["data"]["apiKey"].as_str().unwrap().to_owned()
    }

    /// A LIVE charge under `idempotency_key`, paid at its simulator and settled: its intent.
    pub async fn paid_charge(&self, idempotency_key: &str) -> Value {
        let (status, charge) = self.charge(idempotency_key).await;
        assert_eq!(status, 200, "{charge}\n{}", self.server.logs());
        let data = &charge["data"];
        let provider = data["routing"]["providerCode"].as_str().unwrap();
        let txid = data["pix"]["txid"].as_str().unwrap();
        self.sim(provider)
            .post(&format!("/cob/{txid}/pay"), json!({}))
            .await;
        self.wait_status(
            data["paymentIntentId"].as_str().unwrap(),
            "SUCCEEDED",
            Duration::from_secs(15),
        )
        .await
    }

    /// `method` on `path` of the merchant API with `key`, an Idempotency-Key when given.
    pub async fn merchant(
        &self,
        method: reqwest::Method,
        path: &str,
        key: &str,
        idempotency_key: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = reqwest::Client::new()
            .request(
                method,
                format!("{}/api/v1{path}", self.server.merchant_root()),
            )
            .bearer_auth(key);
        if let Some(k) = idempotency_key {
            request = request.header("Idempotency-Key", k);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let r = request.send().await.unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    /// `POST /payments/{id}/refunds` with `key`.
    pub async fn refund(
        &self,
        key: &str,
        id: &str,
        idempotency_key: &str,
        body: Value,
    ) -> (u16, Value) {
        self.merchant(
            reqwest::Method::POST,
            &format!("/payments/{id}/refunds"),
            key,
            Some(idempotency_key),
            Some(body),
        )
        .await
    }

    /// Waits until refund `id` reaches `status`; its body.
    pub async fn wait_refund(&self, key: &str, id: &str, status: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let (code, body) = self
                .merchant(
                    reqwest::Method::GET,
                    &format!("/refunds/{id}"),
                    key,
                    None,
                    None,
                )
                .await;
            assert_eq!(code, 200, "{body}");
            if body["data"]["status"] == status {
                return body["data"].clone();
            }
            assert!(
                Instant::now() < deadline,
                "refund {id} is {} after {timeout:?}, not {status}\n{}",
                body["data"]["status"],
                self.server.logs()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the intent reaches `status`; its body.
    pub async fn wait_status(&self, id: &str, status: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let (code, body) = self.server.get_payment(&self.key, id).await;
            assert_eq!(code, 200, "{body}");
            if body["data"]["status"] == status {
                return body["data"].clone();
            }
            assert!(
                Instant::now() < deadline,
                "intent {id} is {} after {timeout:?}, not {status}\n{}",
                body["data"]["status"],
                self.server.logs()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The payment events the receiver got for intent `id`, in order, each verified.
    pub fn events_for(&self, id: &str) -> Vec<String> {
        self.events_where("paymentIntentId", id)
    }

    /// The types of the signed deliveries whose `data[field]` is `id`, each checked.
    fn events_where(&self, field: &str, id: &str) -> Vec<String> {
        self.receiver
            .received()
            .iter()
            .filter(|r| r.json()["data"][field] == id)
            .map(|r| {
                pixgate_webhook::verify(&self.secret, &r.headers, &r.body, SystemTime::now())
                    .unwrap_or_else(|e| panic!("a delivery does not verify: {e}"));
                r.json()["type"].as_str().unwrap().to_owned()
            })
            .collect()
    }

    /// Waits until the receiver got `events` for intent `id`: exactly these, in any order. The
    /// sender delivers concurrently (and retries), so a `payment.succeeded` due right after its
    /// `payment.pending` may arrive first; the merchant guide says so.
    pub async fn wait_events(&self, id: &str, events: &[&str]) {
        self.wait_events_where("paymentIntentId", id, events).await
    }

    /// As [`Self::wait_events`], for the events of mandate `id`.
    pub async fn wait_mandate_events(&self, id: &str, events: &[&str]) {
        self.wait_events_where("mandateId", id, events).await
    }

    async fn wait_events_where(&self, field: &str, id: &str, events: &[&str]) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let got = self.events_where(field, id);
            if got.len() >= events.len() {
                let (mut got, mut want) = (got, events.to_vec());
                got.sort();
                want.sort();
                assert_eq!(got, want, "events for {id}");
                return;
            }
            assert!(
                Instant::now() < deadline,
                "events for {id}: {got:?}, waiting for {events:?}\n{}",
                self.server.logs()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

pub fn problem(value: &Value) -> (String, Vec<String>) {
    let problem: pixgate_pix::apipix::Problema =
        serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}: {value}"));
    let name = problem
        .kind
        .strip_prefix("https://pix.bcb.gov.br/api/v2/error/")
        .unwrap_or_else(|| panic!("{value}"))
        .to_owned();
    let fields = problem
        .violacoes
        .into_iter()
        .filter_map(|v| v.propriedade)
        .collect();
    (name, fields)
}
