//! Pix Automático at `pixgate psp-sim`, for the end-to-end tests: a simulator over https with
//! mTLS whose callbacks go to a test CA's receiver, with the API calls and control routes of
//! recurrences (`/locrec`, `/rec`, `/solicrec`), recurring charges (`/cobr`) and their
//! webhooks, and due dates that no weekend or holiday moves.

use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pixgate_domain::due::Date;
use pixgate_domain::due::calendar::is_business_day;
use pixgate_pix::apipix::{CobrCompleta, RecCompleta, TokenResponse};
use reqwest::Method;
use serde_json::{Value, json};

use crate::live::{launch_sim, sim_client};
use crate::receiver::TestCa;

/// How long the helpers wait for an answer or a callback.
pub const WAIT: Duration = Duration::from_secs(10);

/// A running simulator with an access token; killed when dropped.
pub struct RecSim {
    child: Child,
    pub origin: String,
    _certs: tempfile::TempDir,
    stderr: Arc<Mutex<String>>,
    client: reqwest::Client,
    token: String,
}

impl Drop for RecSim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl RecSim {
    /// `pixgate psp-sim` on 127.0.0.1:0 with mTLS and generated certificates, trusting `ca`
    /// for its https callbacks; with an access token.
    pub async fn start(ca: &TestCa) -> RecSim {
        let certs = tempfile::tempdir().unwrap();
        let args: Vec<String> = [
            "psp-sim",
            "--listen",
            "127.0.0.1:0",
            "--mtls",
            "--cert-dir",
            &certs.path().display().to_string(),
            "--callback-ca",
            &ca.ca_file().display().to_string(),
        ]
        .iter()
        .map(|a| (*a).to_owned())
        .collect();
        let (child, origin, stderr) = launch_sim(&args);
        let client = sim_client(certs.path(), true, WAIT);
        let mut sim = RecSim {
            child,
            origin,
            _certs: certs,
            stderr,
            client,
            token: String::new(),
        };
        let response = sim
            .client
            .post(format!("{}/oauth/token", sim.origin))
            .basic_auth("psp-sim-client", Some("psp-sim-secret"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("grant_type=client_credentials")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{}", sim.logs());
        sim.token = response.json::<TokenResponse>().await.unwrap().access_token;
        sim
    }

    pub fn logs(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// An API request (`/api/v2{path}`) with the token: the status and the JSON answer
    /// (`null` when none).
    pub async fn api(&self, method: Method, path: &str, body: Option<&Value>) -> (u16, Value) {
        let mut request = self
            .client
            .request(method, format!("{}/api/v2{path}", self.origin))
            .bearer_auth(&self.token);
        if let Some(body) = body {
            request = request.json(body);
        }
        let r = request.send().await.unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    /// A control route (`/_sim{path}`).
    pub async fn control(&self, method: Method, path: &str, body: Value) -> (u16, Value) {
        let mut request = self
            .client
            .request(method, format!("{}/_sim{path}", self.origin));
        if !body.is_null() {
            request = request.json(&body);
        }
        let r = request.send().await.unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    /// `POST /_sim{path}`, expecting success.
    pub async fn post(&self, path: &str, body: Value) -> Value {
        let (status, answer) = self.control(Method::POST, path, body).await;
        assert!(
            status < 300,
            "/_sim{path}: {status} {answer}\n{}",
            self.logs()
        );
        answer
    }

    pub async fn stats(&self) -> Value {
        self.control(Method::GET, "/stats", Value::Null).await.1
    }

    /// `PUT /webhookrec` and `PUT /webhookcobr` with `url`, and `PUT /webhook/{chave}` too
    /// when a key is given (the pix callbacks).
    pub async fn register_webhooks(&self, url: &str, chave: Option<&str>) {
        for path in ["/webhookrec".to_owned(), "/webhookcobr".to_owned()]
            .into_iter()
            .chain(chave.map(|c| format!("/webhook/{c}")))
        {
            let (status, answer) = self
                .api(Method::PUT, &path, Some(&json!({"webhookUrl": url})))
                .await;
            assert_eq!(status, 200, "{path}: {answer}");
        }
    }

    /// `POST /locrec`: the new location's id and `location`.
    pub async fn locrec(&self) -> (String, String) {
        let (status, loc) = self
            .api(Method::POST, "/locrec", Some(&json!({"tipo": "rec"})))
            .await;
        assert_eq!(status, 201, "{loc}");
        (
            loc["id"].to_string(),
            loc["location"].as_str().unwrap().to_owned(),
        )
    }

    /// `POST /rec` with `body`, expecting 201.
    pub async fn create_rec(&self, body: &Value) -> RecCompleta {
        let (status, rec) = self.api(Method::POST, "/rec", Some(body)).await;
        assert_eq!(status, 201, "{rec}\n{}", self.logs());
        serde_json::from_value(rec).unwrap()
    }

    pub async fn get_rec(&self, id_rec: &str) -> RecCompleta {
        let (status, rec) = self.api(Method::GET, &format!("/rec/{id_rec}"), None).await;
        assert_eq!(status, 200, "{rec}");
        serde_json::from_value(rec).unwrap()
    }

    /// `PUT /cob/{txid}` of `valor` for `chave`, expecting 201.
    pub async fn create_cob(&self, txid: &str, valor: &str, chave: &str) -> Value {
        let (status, cob) = self
            .api(
                Method::PUT,
                &format!("/cob/{txid}"),
                Some(
                    &json!({"calendario": {"expiracao": 3600}, "valor": {"original": valor},
                             "chave": chave}),
                ),
            )
            .await;
        assert_eq!(status, 201, "{cob}");
        cob
    }

    /// A recurrence approved by the payer through its recurrence code (journey 2).
    pub async fn approved_rec(&self, body: &Value) -> RecCompleta {
        let (loc, _) = self.locrec().await;
        let mut body = body.clone();
        body["loc"] = loc.parse::<i64>().map_or(json!(loc), |n| json!(n));
        let rec = self.create_rec(&body).await;
        let approved = self
            .post(&format!("/rec/{}/approve", rec.id_rec), json!({}))
            .await;
        serde_json::from_value(approved).unwrap()
    }

    /// `PUT /cobr/{txid}` with `body`: the status and the answer.
    pub async fn put_cobr(&self, txid: &str, body: &Value) -> (u16, Value) {
        self.api(Method::PUT, &format!("/cobr/{txid}"), Some(body))
            .await
    }

    /// `PUT /cobr/{txid}`, expecting 201.
    pub async fn create_cobr(&self, txid: &str, body: &Value) -> CobrCompleta {
        let (status, cobr) = self.put_cobr(txid, body).await;
        assert_eq!(status, 201, "{cobr}");
        serde_json::from_value(cobr).unwrap()
    }

    pub async fn get_cobr(&self, txid: &str) -> CobrCompleta {
        let (status, cobr) = self.api(Method::GET, &format!("/cobr/{txid}"), None).await;
        assert_eq!(status, 200, "{cobr}");
        serde_json::from_value(cobr).unwrap()
    }

    /// `POST /_sim/cobr/{txid}/attempt` with `body`: the status and the answer.
    pub async fn attempt(&self, txid: &str, body: Value) -> (u16, Value) {
        self.control(Method::POST, &format!("/cobr/{txid}/attempt"), body)
            .await
    }

    /// `POST /cobr/{txid}/retentativa/{date}`: the status and the answer.
    pub async fn retentativa(&self, txid: &str, date: &str) -> (u16, Value) {
        self.api(
            Method::POST,
            &format!("/cobr/{txid}/retentativa/{date}"),
            None,
        )
        .await
    }
}

/// Today in Brasília.
pub fn today() -> Date {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    Date::from_unix_seconds_brasilia(i64::try_from(now.as_secs()).unwrap())
}

/// A business day at least `ahead` days from today: a due date no weekend or holiday moves.
pub fn business_day(ahead: i64) -> Date {
    let mut day = today().add_days(ahead);
    while !is_business_day(day) {
        day = day.add_days(1);
    }
    day
}

/// The body of a monthly recurrence of `valor` from `start`, with `politica`
/// (`PERMITE_3R_7D` or `NAO_PERMITE`), for the payer Fulano de Tal.
pub fn rec_body(contrato: &str, valor: &str, start: Date, politica: &str) -> Value {
    json!({
        "vinculo": {"contrato": contrato, "objeto": "Plano mensal",
                    "devedor": {"cpf": "45164632481", "nome": "Fulano de Tal"}},
        "calendario": {"dataInicial": start.to_string(), "periodicidade": "MENSAL"},
        "valor": {"valorRec": valor},
        "politicaRetentativa": politica
    })
}

/// The body of a recurring charge of `valor` due on `due` for recurrence `id_rec`.
pub fn cobr_body(id_rec: &str, valor: &str, due: Date) -> Value {
    json!({
        "idRec": id_rec,
        "infoAdicional": "Mensalidade",
        "calendario": {"dataDeVencimento": due.to_string()},
        "valor": {"original": valor},
        "ajusteDiaUtil": true,
        "recebedor": {"agencia": "0001", "conta": "123456", "tipoConta": "CORRENTE"}
    })
}
