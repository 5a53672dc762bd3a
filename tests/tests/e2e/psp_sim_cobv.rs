//! `pixgate psp-sim`'s charges with a due date (API Pix `cobv` and `lotecobv`) end to end: the
//! real binary over https with mTLS, driven by a real client, its callbacks posted to a real
//! HTTPS receiver. What pixgate's PSP side will rely on: a cobv created, read, revised,
//! removed; paid on a date before, on and after its due date with the parts of its amount
//! (`componentesValor`) and its pix read, called back and given back as a cob's; the standard's
//! refusals naming the property; batches answered 202 and read back item by item; the payer
//! PSP's view of the amount on a date; no payment after the last payable day.
//!
//! Dates are real: each test picks a due date some days ahead, on a business day, so that the
//! amounts below are plain arithmetic (R$ 100.00 with R$ 10.00 abated: percentages of 90.00).

use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use pixgate_domain::due::Date;
use pixgate_domain::due::calendar::is_business_day;
use pixgate_e2e::live::{launch_sim as launch, problem, sim_client as client};
use pixgate_e2e::receiver::{Receiver, TestCa};
use pixgate_pix::apipix::{
    CobStatus, CobVCompleta, LoteCobVConsultado, LoteItemStatus, Pix, TipoCob, TokenResponse,
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
    _certs: tempfile::TempDir,
    stderr: Arc<Mutex<String>>,
    client: reqwest::Client,
    token: String,
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Sim {
    /// `pixgate psp-sim` on 127.0.0.1:0 with mTLS and generated certificates, callbacks over
    /// https trusting `ca`; with an access token.
    async fn start(ca: &TestCa) -> Sim {
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
        let (child, origin, stderr) = launch(&args);
        let client = client(certs.path(), true, WAIT);
        let mut sim = Sim {
            child,
            origin,
            _certs: certs,
            stderr,
            client,
            token: String::new(),
        };
        let response = sim
            .client
            .post(sim.url("/oauth/token"))
            .basic_auth("psp-sim-client", Some("psp-sim-secret"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("grant_type=client_credentials")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{}", sim.logs());
        sim.token = response.json::<TokenResponse>().await.unwrap().access_token;
        sim
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    fn logs(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// An API request with the token: the status and the JSON answer (`null` when none).
    async fn api(&self, method: reqwest::Method, path: &str, body: Option<&Value>) -> (u16, Value) {
        let mut request = self
            .client
            .request(method, self.url(&format!("/api/v2{path}")))
            .bearer_auth(&self.token);
        if let Some(body) = body {
            request = request.json(body);
        }
        let r = request.send().await.unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    async fn put_cobv(&self, txid: &str, body: &Value) -> (u16, Value) {
        self.api(reqwest::Method::PUT, &format!("/cobv/{txid}"), Some(body))
            .await
    }

    async fn get_cobv(&self, txid: &str) -> (u16, Value) {
        self.api(reqwest::Method::GET, &format!("/cobv/{txid}"), None)
            .await
    }

    async fn patch_cobv(&self, txid: &str, body: &Value) -> (u16, Value) {
        self.api(reqwest::Method::PATCH, &format!("/cobv/{txid}"), Some(body))
            .await
    }

    /// A control route.
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

    async fn pay(&self, txid: &str, body: Value) -> (u16, Value) {
        self.control(reqwest::Method::POST, &format!("/cobv/{txid}/pay"), body)
            .await
    }

    async fn stats(&self) -> Value {
        self.control(reqwest::Method::GET, "/stats", Value::Null)
            .await
            .1
    }

    /// The payer PSP's view at a location (`host/path`), with `query`.
    async fn payload(&self, location: &str, query: &str) -> (u16, Value) {
        let path = &location[location.find('/').unwrap()..];
        let r = self
            .client
            .get(self.url(&format!("{path}{query}")))
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }
}

/// Today in Brasília.
fn today() -> Date {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    Date::from_unix_seconds_brasilia(i64::try_from(now.as_secs()).unwrap())
}

/// A due date at least `ahead` days from today, a business day, as are the days `also` after
/// it: no due date or last payable day that moves.
fn due_date(ahead: i64, also: &[i64]) -> Date {
    let mut due = today().add_days(ahead);
    while !(is_business_day(due) && also.iter().all(|d| is_business_day(due.add_days(*d)))) {
        due = due.add_days(1);
    }
    due
}

/// R$ 100.00 due on `due`, payable `validade` days after it, R$ 10.00 abated, a 2 % fine,
/// 1 % a calendar day of interest, R$ 5.00 off until 5 days before the due date.
fn cobv_body(due: Date, validade: u32) -> Value {
    json!({
        "calendario": {"dataDeVencimento": due.to_string(), "validadeAposVencimento": validade},
        "devedor": {"cpf": "12345678909", "nome": "Francisco da Silva", "cidade": "Uberlândia", "uf": "MG"},
        "valor": {
            "original": "100.00",
            "abatimento": {"modalidade": 1, "valorPerc": "10.00"},
            "multa": {"modalidade": 2, "valorPerc": "2.00"},
            "juros": {"modalidade": 2, "valorPerc": "1.00"},
            "desconto": {"modalidade": 1, "descontoDataFixa": [
                {"data": due.add_days(-5).to_string(), "valorPerc": "5.00"}]}
        },
        "chave": CHAVE,
        "solicitacaoPagador": "Mensalidade de dezembro"
    })
}

fn cobv(value: &Value) -> CobVCompleta {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}: {value}"))
}

fn pix(value: &Value) -> Pix {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}: {value}"))
}

async fn register_webhook(sim: &Sim, receiver: &Receiver) {
    let (status, _) = sim
        .api(
            reqwest::Method::PUT,
            &format!("/webhook/{CHAVE}"),
            Some(&json!({"webhookUrl": receiver.ip_url("/hooks/cobv")})),
        )
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_cobv_is_created_read_and_paid_before_on_and_after_its_due_date_with_the_parts_of_its_amount()
 {
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let sim = Sim::start(&ca).await;
    register_webhook(&sim, &receiver).await;
    let due = due_date(10, &[]);

    // Created: ATIVA, its location a cobv's, its BR Code pointing there, the receiver named.
    let early = txid_for("store-1", "invoice-early");
    let (status, created) = sim.put_cobv(&early, &cobv_body(due, 30)).await;
    assert_eq!(status, 201, "{created}");
    let created = cobv(&created);
    assert_eq!(created.status, CobStatus::Ativa);
    assert_eq!(created.revisao, 0);
    assert_eq!(created.calendario.data_de_vencimento, due.to_string());
    assert_eq!(created.calendario.validade_apos_vencimento, 30);
    let loc = created.loc.clone().unwrap();
    assert_eq!(loc.tipo_cob, Some(TipoCob::Cobv));
    let location = created.location.clone().unwrap();
    assert_eq!(loc.location.as_ref(), Some(&location));
    assert!(
        location.starts_with("pix.example.com/qr/v2/cobv/"),
        "{location}"
    );
    let code = pixgate_pix::brcode::parse(created.pix_copia_e_cola.as_ref().unwrap()).unwrap();
    assert_eq!(code.location(), Some(location.as_str()));
    assert_eq!(created.recebedor.as_ref().unwrap()["uf"], "SP");

    // The same PUT again: the same charge, one at the PSP; GET reads it.
    let (status, again) = sim.put_cobv(&early, &cobv_body(due, 30)).await;
    assert_eq!(status, 201);
    assert_eq!(cobv(&again), created);
    let (status, read) = sim.get_cobv(&early).await;
    assert_eq!(status, 200);
    assert_eq!(cobv(&read), created);
    let stats = sim.stats().await;
    assert_eq!(stats["putCobv"][&early], 2);
    assert_eq!(stats["cobvsCreated"], 1);
    // A txid names one charge: a cob cannot take a cobv's, nor a cobv a cob's.
    let (status, refused) = sim
        .api(
            reqwest::Method::PUT,
            &format!("/cob/{early}"),
            Some(&json!({"calendario": {"expiracao": 3600}, "valor": {"original": "1.00"}, "chave": CHAVE})),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(
        problem(&refused),
        ("CobOperacaoInvalida".to_owned(), vec!["txid".to_owned()])
    );
    let cob_txid = txid_for("store-1", "an-immediate-charge");
    let (status, _) = sim
        .api(
            reqwest::Method::PUT,
            &format!("/cob/{cob_txid}"),
            Some(&json!({"calendario": {"expiracao": 3600}, "valor": {"original": "1.00"}, "chave": CHAVE})),
        )
        .await;
    assert_eq!(status, 201);
    let (status, refused) = sim.put_cobv(&cob_txid, &cobv_body(due, 30)).await;
    assert_eq!(status, 400);
    assert_eq!(
        problem(&refused),
        ("CobVOperacaoInvalida".to_owned(), vec!["txid".to_owned()])
    );
    let (status, missing) = sim.get_cobv(&"a".repeat(32)).await;
    assert_eq!(status, 404);
    assert_eq!(problem(&missing).0, "CobVNaoEncontrada");

    // Paid 5 days before the due date: the abatement and the discount.
    let (status, paid) = sim
        .pay(
            &early,
            json!({"date": due.add_days(-5).to_string(), "infoPagador": "dezembro"}),
        )
        .await;
    assert_eq!(status, 200, "{paid}");
    let early_pix = pix(&paid);
    assert_eq!(paid["valor"], "85.00");
    assert_eq!(
        paid["componentesValor"],
        json!({"original": {"valor": "100.00"}, "abatimento": {"valor": "10.00"}, "desconto": {"valor": "5.00"}})
    );
    assert_eq!(
        paid["horario"],
        format!("{}T15:00:00.000Z", due.add_days(-5)),
        "noon in Brasília"
    );
    assert_eq!(
        early_pix.componentes_valor.unwrap().sum_centavos(),
        Some(8_500)
    );
    assert_eq!(early_pix.txid.as_deref(), Some(early.as_str()));
    let (_, read) = sim.get_cobv(&early).await;
    let read = cobv(&read);
    assert_eq!(read.status, CobStatus::Concluida);
    assert_eq!(read.pix, vec![early_pix.clone()]);
    // Paid once only.
    let (status, _) = sim.pay(&early, json!({})).await;
    assert_eq!(status, 409);

    // On the due date: the abatement only.
    let on_time = txid_for("store-1", "invoice-on-time");
    sim.put_cobv(&on_time, &cobv_body(due, 30)).await;
    let (status, paid) = sim.pay(&on_time, json!({"date": due.to_string()})).await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["valor"], "90.00");
    assert_eq!(
        paid["componentesValor"],
        json!({"original": {"valor": "100.00"}, "abatimento": {"valor": "10.00"}})
    );

    // Two days late: 2 % of 90.00 and 1 % of it a day.
    let late = txid_for("store-1", "invoice-late");
    sim.put_cobv(&late, &cobv_body(due, 30)).await;
    let (status, paid) = sim
        .pay(&late, json!({"date": due.add_days(2).to_string()}))
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["valor"], "93.60");
    assert_eq!(
        paid["componentesValor"],
        json!({"original": {"valor": "100.00"}, "abatimento": {"valor": "10.00"},
               "multa": {"valor": "1.80"}, "juros": {"valor": "1.80"}})
    );
    let late_pix = pix(&paid);

    // Without a date: today, now; the amount of today (before the discount's date).
    let today_txid = txid_for("store-1", "invoice-today");
    sim.put_cobv(&today_txid, &cobv_body(due, 30)).await;
    let (status, paid) = sim.pay(&today_txid, json!({})).await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["valor"], "85.00");

    // The pix, read and given back as a cob's; the callbacks carry the parts.
    let (status, read) = sim
        .api(
            reqwest::Method::GET,
            &format!("/pix/{}", late_pix.end_to_end_id),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(pix(&read), late_pix);
    let (status, devolucao) = sim
        .api(
            reqwest::Method::PUT,
            &format!("/pix/{}/devolucao/d1", late_pix.end_to_end_id),
            Some(&json!({"valor": "3.60"})),
        )
        .await;
    assert_eq!(status, 201, "{devolucao}");
    assert_eq!(devolucao["status"], "DEVOLVIDO");
    let (status, refused) = sim
        .api(
            reqwest::Method::PUT,
            &format!("/pix/{}/devolucao/d2", late_pix.end_to_end_id),
            Some(&json!({"valor": "90.01"})),
        )
        .await;
    assert_eq!(status, 400, "never more than the pix: {refused}");
    let (_, read) = sim.get_cobv(&late).await;
    assert_eq!(read["pix"][0]["devolucoes"][0]["valor"], "3.60");
    // Four payments and one devolução: five callbacks.
    let received = receiver.wait_for(5, WAIT).await;
    let first: Vec<Pix> = serde_json::from_value(received[0].json()["pix"].clone()).unwrap();
    assert_eq!(first, vec![early_pix]);
    assert!(received.iter().all(|r| r.path == "/hooks/cobv/pix"));
    let stats = sim.stats().await;
    assert_eq!(stats["cobvsCreated"], 4);
    assert_eq!(stats["routes"]["PUT /cobv/{txid}"], 6);
}

#[tokio::test]
async fn a_forced_amount_shows_its_parts_do_not_add_up_and_faults_apply_to_cobv_routes() {
    let ca = TestCa::new();
    let sim = Sim::start(&ca).await;
    let due = due_date(10, &[]);
    let txid = txid_for("store-1", "invoice-forced");

    // The PUT's answer is lost after the charge is created: the retry gets the same charge.
    let (status, _) = sim
        .control(
            reqwest::Method::POST,
            "/faults",
            json!({"count": 1, "kind": "error", "status": 503, "afterProcessing": true,
                   "route": "PUT /cobv/{txid}"}),
        )
        .await;
    assert_eq!(status, 200);
    let (status, lost) = sim.put_cobv(&txid, &cobv_body(due, 30)).await;
    assert_eq!(status, 503, "{lost}");
    assert_eq!(problem(&lost).0, "ServicoIndisponivel");
    let (status, created) = sim.put_cobv(&txid, &cobv_body(due, 30)).await;
    assert_eq!(status, 201);
    assert_eq!(cobv(&created).revisao, 0);
    let stats = sim.stats().await;
    assert_eq!(stats["cobvsCreated"], 1);
    assert_eq!(stats["faultsInjected"], 1);

    // A payer pays less than due on the due date: the pix says so, its parts say what was due.
    let (status, paid) = sim
        .pay(&txid, json!({"date": due.to_string(), "valor": "89.99"}))
        .await;
    assert_eq!(status, 200, "{paid}");
    let paid = pix(&paid);
    assert_eq!(paid.valor.centavos(), 8_999);
    assert_eq!(paid.componentes_valor.unwrap().sum_centavos(), Some(9_000));
}

#[tokio::test]
async fn a_cobv_is_revised_removed_by_the_receiver_or_the_psp_and_a_paid_one_cannot_be() {
    let ca = TestCa::new();
    let sim = Sim::start(&ca).await;
    let due = due_date(10, &[]);

    // PATCH revises what it sends (revisao + 1), and the whole is checked again.
    let txid = txid_for("store-1", "invoice-revised");
    sim.put_cobv(&txid, &cobv_body(due, 30)).await;
    let (status, revised) = sim
        .patch_cobv(&txid, &json!({"solicitacaoPagador": "Mensalidade de janeiro",
                                   "calendario": {"dataDeVencimento": due.add_days(1).to_string()}}))
        .await;
    assert_eq!(status, 200, "{revised}");
    let revised = cobv(&revised);
    assert_eq!(revised.revisao, 1);
    assert_eq!(
        revised.calendario.data_de_vencimento,
        due.add_days(1).to_string()
    );
    assert_eq!(revised.calendario.validade_apos_vencimento, 30);
    let (status, refused) = sim
        .patch_cobv(
            &txid,
            &json!({"calendario": {"dataDeVencimento": due.add_days(-6).to_string()}}),
        )
        .await;
    assert_eq!(
        status, 400,
        "the discount's date would be after the due date"
    );
    assert_eq!(
        problem(&refused),
        (
            "CobVOperacaoInvalida".to_owned(),
            vec!["cobv.valor.desconto.descontoDataFixa[0].data".to_owned()]
        )
    );
    // A different PUT revises too.
    let mut body = cobv_body(due, 30);
    body["valor"]["original"] = json!("120.00");
    let (status, revised) = sim.put_cobv(&txid, &body).await;
    assert_eq!(status, 201);
    assert_eq!(cobv(&revised).revisao, 2);

    // Removed by the receiver; then nothing more changes it.
    let (status, removed) = sim
        .patch_cobv(&txid, &json!({"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        cobv(&removed).status,
        CobStatus::RemovidaPeloUsuarioRecebedor
    );
    assert_eq!(cobv(&removed).revisao, 3);
    let (status, _) = sim.pay(&txid, json!({})).await;
    assert_eq!(status, 409, "a removed charge cannot be paid");
    let (status, refused) = sim
        .patch_cobv(&txid, &json!({"solicitacaoPagador": "x"}))
        .await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).0, "CobVOperacaoInvalida");
    // Removing and revising at once makes no sense.
    let other = txid_for("store-1", "invoice-both");
    sim.put_cobv(&other, &cobv_body(due, 30)).await;
    let (status, refused) = sim
        .patch_cobv(
            &other,
            &json!({"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR", "chave": "x"}),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).1, ["cobv.status"]);

    // Removed by the PSP.
    let (status, removed) = sim
        .control(
            reqwest::Method::POST,
            &format!("/cobv/{other}/remove"),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{removed}");
    assert_eq!(removed["status"], "REMOVIDA_PELO_PSP");
    let (status, _) = sim
        .control(
            reqwest::Method::POST,
            &format!("/cobv/{other}/remove"),
            json!({}),
        )
        .await;
    assert_eq!(status, 409);

    // Paid: CONCLUIDA, and neither removed nor revised any more.
    let paid = txid_for("store-1", "invoice-paid");
    sim.put_cobv(&paid, &cobv_body(due, 30)).await;
    let (status, _) = sim.pay(&paid, json!({"date": due.to_string()})).await;
    assert_eq!(status, 200);
    let (status, refused) = sim
        .patch_cobv(&paid, &json!({"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}))
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(
        problem(&refused),
        (
            "CobVOperacaoInvalida".to_owned(),
            vec!["cobv.status".to_owned()]
        )
    );
    let mut body = cobv_body(due, 30);
    body["valor"]["original"] = json!("1.00");
    body["valor"].as_object_mut().unwrap().remove("abatimento");
    body["valor"].as_object_mut().unwrap().remove("desconto");
    let (status, _) = sim.put_cobv(&paid, &body).await;
    assert_eq!(status, 400);
    let (_, read) = sim.get_cobv(&paid).await;
    assert_eq!(read["status"], "CONCLUIDA");
    // An unpaid one stays ATIVA, whatever its date: expiry is no status.
    let (status, missing) = sim.patch_cobv(&"z".repeat(30), &json!({})).await;
    assert_eq!(status, 404);
    assert_eq!(problem(&missing).0, "CobVNaoEncontrada");
}

#[tokio::test]
async fn a_bad_cobv_is_refused_naming_the_property() {
    let ca = TestCa::new();
    let sim = Sim::start(&ca).await;
    let due = due_date(10, &[]);
    let txid = txid_for("store-1", "invoice-bad");
    let with = |path: &[&str], value: Value| {
        let mut body = cobv_body(due, 30);
        let mut at = &mut body;
        for key in &path[..path.len() - 1] {
            at = &mut at[*key];
        }
        at[path[path.len() - 1]] = value;
        body
    };
    let cases: Vec<(Value, &[&str])> = vec![
        (
            with(&["calendario", "dataDeVencimento"], json!("2026-02-30")),
            &["cobv.calendario.dataDeVencimento"],
        ),
        (
            with(
                &["calendario", "dataDeVencimento"],
                json!(today().add_days(-1).to_string()),
            ),
            &[
                "cobv.calendario.dataDeVencimento",
                "cobv.valor.desconto.descontoDataFixa[0].data",
            ],
        ),
        (
            with(&["calendario", "validadeAposVencimento"], json!(-1)),
            &["cobv.calendario.validadeAposVencimento"],
        ),
        (
            with(
                &["devedor"],
                json!({"cpf": "12345678909", "cnpj": "11222333000181", "nome": "X"}),
            ),
            &["cobv.devedor"],
        ),
        (
            with(&["devedor"], json!({"cpf": "123", "nome": "X"})),
            &["cobv.devedor"],
        ),
        (
            with(&["valor", "original"], json!("0.00")),
            &["cobv.valor.original"],
        ),
        (
            with(&["valor", "multa", "modalidade"], json!(3)),
            &["cobv.valor.multa.modalidade"],
        ),
        (
            with(&["valor", "juros", "modalidade"], json!(9)),
            &["cobv.valor.juros.modalidade"],
        ),
        (
            with(&["valor", "abatimento", "modalidade"], json!(0)),
            &["cobv.valor.abatimento.modalidade"],
        ),
        (
            with(&["valor", "abatimento", "valorPerc"], json!("100.00")),
            &["cobv.valor.abatimento.valorPerc"],
        ),
        (
            with(&["valor", "desconto", "modalidade"], json!(7)),
            &["cobv.valor.desconto.modalidade"],
        ),
        (
            with(
                &["valor", "desconto"],
                json!({"modalidade": 2, "valorPerc": "1.00"}),
            ),
            &[
                "cobv.valor.desconto.valorPerc",
                "cobv.valor.desconto.descontoDataFixa",
            ],
        ),
        (
            with(&["valor", "desconto"], json!({"modalidade": 5})),
            &["cobv.valor.desconto.valorPerc"],
        ),
        (
            with(
                &["valor", "desconto", "descontoDataFixa"],
                json!([{"data": due.add_days(1).to_string(), "valorPerc": "1.00"}]),
            ),
            &["cobv.valor.desconto.descontoDataFixa[0].data"],
        ),
        (with(&["chave"], json!("")), &["cobv.chave"]),
        (with(&["devedor"], json!(null)), &["cobv.devedor"]),
    ];
    for (body, expected) in cases {
        let (status, refused) = sim.put_cobv(&txid, &body).await;
        assert_eq!(status, 400, "{body}: {refused}");
        assert_eq!(
            problem(&refused),
            (
                "CobVOperacaoInvalida".to_owned(),
                expected.iter().map(|p| (*p).to_owned()).collect::<Vec<_>>()
            ),
            "{body}"
        );
    }
    let (status, refused) = sim.put_cobv("short", &cobv_body(due, 30)).await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).1, ["txid"]);
    // None of them made a charge.
    assert_eq!(sim.stats().await["cobvsCreated"], 0);
    assert_eq!(sim.get_cobv(&txid).await.0, 404);
}

#[tokio::test]
async fn a_lote_of_five_with_two_bad_items_answers_202_then_reads_back_created_and_denied() {
    let ca = TestCa::new();
    let sim = Sim::start(&ca).await;
    let due = due_date(10, &[]);
    let item = |name: &str, body: Value| {
        let mut body = body;
        body["txid"] = json!(txid_for("store-1", name));
        body
    };
    let mut zero = cobv_body(due, 30);
    zero["valor"]["original"] = json!("0.00");
    let mut no_payer = cobv_body(due, 30);
    no_payer.as_object_mut().unwrap().remove("devedor");
    let cobsv = vec![
        item("lote-1", cobv_body(due, 30)),
        item("lote-2", zero),
        item("lote-3", cobv_body(due.add_days(1), 10)),
        item("lote-4", no_payer),
        item("lote-5", cobv_body(due.add_days(2), 0)),
    ];
    let lote = json!({"descricao": "Mensalidades de dezembro", "cobsv": cobsv});
    let r = sim
        .client
        .put(sim.url("/api/v2/lotecobv/1234"))
        .bearer_auth(&sim.token)
        .json(&lote)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    assert!(r.bytes().await.unwrap().is_empty(), "202 with no body");

    let (status, read) = sim.api(reqwest::Method::GET, "/lotecobv/1234", None).await;
    assert_eq!(status, 200, "{read}");
    let read: LoteCobVConsultado = serde_json::from_value(read).unwrap();
    assert_eq!(read.id, 1234);
    assert_eq!(read.descricao, "Mensalidades de dezembro");
    let statuses: Vec<_> = read.cobsv.iter().map(|i| i.status).collect();
    use LoteItemStatus::{Criada, Negada};
    assert_eq!(statuses, [Criada, Negada, Criada, Negada, Criada]);
    for (i, item) in read.cobsv.iter().enumerate() {
        assert_eq!(
            item.txid.as_str(),
            txid_for("store-1", &format!("lote-{}", i + 1))
        );
        assert_eq!(item.criacao.is_some(), item.status == Criada);
    }
    let denied = |i: usize| {
        let problema = read.cobsv[i].problema.clone().unwrap();
        let value = serde_json::to_value(problema).unwrap();
        problem(&value)
    };
    assert_eq!(
        denied(1),
        (
            "CobVOperacaoInvalida".to_owned(),
            vec!["cobv.valor.original".to_owned()]
        )
    );
    assert_eq!(
        denied(3),
        (
            "CobVOperacaoInvalida".to_owned(),
            vec!["cobv.devedor".to_owned()]
        )
    );
    // The created ones are cobvs like any; the denied ones are not, and PUT /cobv cannot
    // take their txids.
    let (status, third) = sim.get_cobv(&txid_for("store-1", "lote-3")).await;
    assert_eq!(status, 200);
    assert_eq!(cobv(&third).calendario.validade_apos_vencimento, 10);
    let denied_txid = txid_for("store-1", "lote-2");
    assert_eq!(sim.get_cobv(&denied_txid).await.0, 404);
    let (status, refused) = sim.put_cobv(&denied_txid, &cobv_body(due, 30)).await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).1, ["txid"]);
    let (status, _) = sim
        .pay(
            &txid_for("store-1", "lote-5"),
            json!({"date": due.add_days(2).to_string()}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(sim.stats().await["cobvsCreated"], 3);

    // The same batch again changes nothing; another array for the same id is refused.
    let (status, _) = sim
        .api(reqwest::Method::PUT, "/lotecobv/1234", Some(&lote))
        .await;
    assert_eq!(status, 202);
    assert_eq!(sim.stats().await["cobvsCreated"], 3);
    let mut fewer = lote.clone();
    fewer["cobsv"].as_array_mut().unwrap().pop();
    let (status, refused) = sim
        .api(reqwest::Method::PUT, "/lotecobv/1234", Some(&fewer))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        problem(&refused),
        (
            "LoteCobVOperacaoInvalida".to_owned(),
            vec!["loteCobV.cobsv".to_owned()]
        )
    );
    // A new batch naming a charge that exists is refused as a whole.
    let (status, refused) = sim
        .api(reqwest::Method::PUT, "/lotecobv/1235", Some(&fewer))
        .await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).0, "LoteCobVOperacaoInvalida");
    // The batch's shape: a txid missing, more than 1,000 items, an id that is no int64.
    let (status, refused) = sim
        .api(
            reqwest::Method::PUT,
            "/lotecobv/1236",
            Some(&json!({"descricao": "x", "cobsv": [cobv_body(due, 30)]})),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).1, ["loteCobV.cobsv[0].txid"]);
    let many: Vec<Value> = (0..1_001)
        .map(|i| item(&format!("many-{i}"), cobv_body(due, 30)))
        .collect();
    let (status, refused) = sim
        .api(
            reqwest::Method::PUT,
            "/lotecobv/1237",
            Some(&json!({"descricao": "x", "cobsv": many})),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(problem(&refused).1, ["loteCobV.cobsv"]);
    let (status, _) = sim
        .api(reqwest::Method::PUT, "/lotecobv/abc", Some(&lote))
        .await;
    assert_eq!(status, 400);
    let (status, missing) = sim.api(reqwest::Method::GET, "/lotecobv/999", None).await;
    assert_eq!(status, 404);
    assert_eq!(problem(&missing).0, "LoteCobVNaoEncontrado");

    // Processed later, when the switch says so: EM_PROCESSAMENTO meanwhile.
    let (status, _) = sim
        .control(
            reqwest::Method::PUT,
            "/switches",
            json!({"lotecobv": {"processAfterMs": 500}}),
        )
        .await;
    assert_eq!(status, 200);
    let later = json!({"descricao": "depois", "cobsv": [item("later-1", cobv_body(due, 30))]});
    let (status, _) = sim
        .api(reqwest::Method::PUT, "/lotecobv/2000", Some(&later))
        .await;
    assert_eq!(status, 202);
    let (_, read) = sim.api(reqwest::Method::GET, "/lotecobv/2000", None).await;
    assert_eq!(read["cobsv"][0]["status"], "EM_PROCESSAMENTO");
    assert_eq!(sim.get_cobv(&txid_for("store-1", "later-1")).await.0, 404);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (_, read) = sim.api(reqwest::Method::GET, "/lotecobv/2000", None).await;
    assert_eq!(read["cobsv"][0]["status"], "CRIADA", "{read}");
    assert_eq!(sim.get_cobv(&txid_for("store-1", "later-1")).await.0, 200);

    // A payer the PSP will not bill: its item is denied, naming the document; the others go on.
    let (status, _) = sim
        .control(
            reqwest::Method::PUT,
            "/switches",
            json!({"lotecobv": {"processAfterMs": 0, "denyDocuments": ["529.982.247-25"]}}),
        )
        .await;
    assert_eq!(status, 200);
    let mut denied_payer = cobv_body(due, 30);
    denied_payer["devedor"]["cpf"] = json!("52998224725");
    let lote = json!({"descricao": "negados", "cobsv": [
        item("deny-1", cobv_body(due, 30)), item("deny-2", denied_payer)]});
    let (status, _) = sim
        .api(reqwest::Method::PUT, "/lotecobv/3000", Some(&lote))
        .await;
    assert_eq!(status, 202);
    let (_, read) = sim.api(reqwest::Method::GET, "/lotecobv/3000", None).await;
    assert_eq!(read["cobsv"][0]["status"], "CRIADA", "{read}");
    assert_eq!(read["cobsv"][1]["status"], "NEGADA", "{read}");
    assert_eq!(
        problem(&read["cobsv"][1]["problema"]),
        (
            "CobVOperacaoInvalida".to_owned(),
            vec!["cobv.devedor.cpf".to_owned()]
        )
    );
}

#[tokio::test]
async fn the_payers_view_answers_the_amount_on_a_date_and_refuses_a_date_past_validity() {
    let ca = TestCa::new();
    let sim = Sim::start(&ca).await;
    let due = due_date(10, &[5]);
    let txid = txid_for("store-1", "invoice-viewed");
    let (_, created) = sim.put_cobv(&txid, &cobv_body(due, 5)).await;
    let location = cobv(&created).location.unwrap();

    // Today (no DPP): before the discount's date.
    let (status, view) = sim.payload(&location, "").await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["txid"], txid);
    assert_eq!(view["status"], "ATIVA");
    assert_eq!(
        view["valor"],
        json!({"original": "100.00", "abatimento": "10.00", "desconto": "5.00", "final": "85.00"})
    );
    assert_eq!(view["calendario"]["dataDeVencimento"], due.to_string());
    assert!(view["calendario"]["apresentacao"].is_string());
    assert_eq!(view["recebedor"]["nome"], "PSP SIM RECEBEDOR");
    // Three days late, from São Paulo; the last payable day.
    let (status, view) = sim
        .payload(
            &location,
            &format!("?codMun=3550308&DPP={}", due.add_days(3)),
        )
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        view["valor"],
        json!({"original": "100.00", "multa": "1.80", "juros": "2.70", "abatimento": "10.00", "final": "94.50"})
    );
    let (status, view) = sim
        .payload(&location, &format!("?DPP={}", due.add_days(5)))
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["valor"]["final"], "96.30");

    // Past validity, in the past, not a date, a codMun that is none: refused, named.
    for (query, field) in [
        (format!("?DPP={}", due.add_days(6)), "DPP"),
        (format!("?DPP={}", today().add_days(-1)), "DPP"),
        ("?DPP=2026-02-30".to_owned(), "DPP"),
        (
            "?codMun=355030&DPP=".to_owned() + &due.to_string(),
            "codMun",
        ),
        ("?codMun=9950308".to_owned(), "codMun"),
    ] {
        let (status, refused) = sim.payload(&location, &query).await;
        assert_eq!(status, 400, "{query}: {refused}");
        assert_eq!(
            problem(&refused),
            (
                "CobPayloadOperacaoInvalida".to_owned(),
                vec![field.to_owned()]
            ),
            "{query}"
        );
    }
    // A token no charge has; a removed charge's.
    let unknown = format!(
        "{}/cobv/{}",
        &location[..location.rfind("/cobv/").unwrap()],
        "0".repeat(32)
    );
    let (status, missing) = sim.payload(&unknown, "").await;
    assert_eq!(status, 404);
    assert_eq!(problem(&missing).0, "CobPayloadNaoEncontrado");
    let (status, _) = sim
        .patch_cobv(&txid, &json!({"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}))
        .await;
    assert_eq!(status, 200);
    let (status, gone) = sim.payload(&location, "").await;
    assert_eq!(status, 410);
    assert_eq!(problem(&gone).0, "CobPayloadNaoEncontrado");
    assert_eq!(
        sim.stats().await["routes"]["GET /cobv/{pixUrlAccessToken}"],
        10
    );
}

#[tokio::test]
async fn paying_after_the_last_payable_day_is_refused() {
    let ca = TestCa::new();
    let sim = Sim::start(&ca).await;
    // Validity 5 days: the last payable day is due + 5 (a business day).
    let due = due_date(10, &[5]);
    let txid = txid_for("store-1", "invoice-too-late");
    sim.put_cobv(&txid, &cobv_body(due, 5)).await;
    let (status, refused) = sim
        .pay(&txid, json!({"date": due.add_days(6).to_string()}))
        .await;
    assert_eq!(status, 409, "{refused}");
    // Still ATIVA, and payable on the last day.
    let (_, read) = sim.get_cobv(&txid).await;
    assert_eq!(read["status"], "ATIVA");
    let (status, paid) = sim
        .pay(&txid, json!({"date": due.add_days(5).to_string()}))
        .await;
    assert_eq!(status, 200, "{paid}");
    // 2 % of 90.00 and 5 % of it.
    assert_eq!(paid["valor"], "96.30");
    // A date before the charge existed, and a bad body, are refused too.
    let other = txid_for("store-1", "invoice-before-creation");
    sim.put_cobv(&other, &cobv_body(due, 5)).await;
    let (status, _) = sim
        .pay(&other, json!({"date": today().add_days(-1).to_string()}))
        .await;
    assert_eq!(status, 409);
    let (status, refused) = sim.pay(&other, json!({"date": "2026-02-30"})).await;
    assert_eq!(status, 400, "{refused}");
    let (status, _) = sim.pay(&"c".repeat(32), json!({})).await;
    assert_eq!(status, 404);
}
