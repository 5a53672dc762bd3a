//! Crash-safety harness (issues 11 and 19; Pix Automático's cycles, issue 33, in
//! `harness_crash/mandates.rs`). SHADOW and LIVE charges (LIVE at two real PSP
//! simulators) and refunds of the paid LIVE charges, at load, while `pixgate serve` is killed
//! with SIGKILL at random moments and started again on the same data dir and database; some
//! LIVE charges are paid at the simulator meanwhile, and refund clients send partial refunds of
//! the paid ones (several keys per payment, adding up to more than was paid, so some are 409
//! `refund_exceeds_refundable`). How the simulators settle devoluções changes from one run to
//! the next: at once, later (the refund stays `PENDING` until a callback or the reconciler reads
//! it), with every `PUT` answer lost (pixgate reads the devolução back), or `NAO_REALIZADO`.
//! Afterwards:
//!
//! - every charge answered 200 exists with the content it was answered with: its key replays
//!   that answer, and the status read agrees with it;
//! - every Idempotency-Key sent names exactly one intent, the keys a kill left unanswered
//!   included (each is retried, with its body, until it is answered);
//! - every refund key answered 200 names exactly one refund, whose replay is the same answer
//!   and whose read agrees; a key answered 409 `refund_exceeds_refundable` names none; no
//!   refund exists for a key never sent;
//! - for each paid charge, the devoluções at its PSP map one to one onto pixgate's refunds of
//!   it (the devolução's id is the refund's `provider.refundId`): no devolução without its
//!   refund, no `SUCCEEDED` refund without its `DEVOLVIDO` devolução of the same amount, no
//!   `FAILED` one whose devolução was made, and the devoluções add up to no more than was paid;
//!   `amountRefunded` is the sum of the `SUCCEEDED` refunds; each simulator created exactly
//!   those devoluções;
//! - every committed transition's event (payment and refund events) reached the merchant's
//!   HTTPS receiver at least once, signed and with the stored body, and the receiver got
//!   nothing that was not committed; each settled refund has its one event;
//! - no charge exists twice at the PSPs (the simulators' own counts against the intents).
//!
//! Its size comes from the environment, with small defaults for CI: `HARNESS_KILLS` (kills,
//! 2), `HARNESS_CLIENTS` (concurrent charge clients, 6), `HARNESS_REFUND_CLIENTS` (concurrent
//! refund clients, 3), `HARNESS_UPTIME_MS` (the longest run between two kills; each run is a
//! random length up to it, 1200). `harness/crash.sh` runs a long version against SQLite and
//! PostgreSQL and prints the figures.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use pixgate_e2e::live::{Live, STORE};
use pixgate_e2e::server::{Backend, Options, Server, charge_body, postgres_admin_url};
use pixgate_e2e::{harness_setting, random_below};
use serde_json::{Value, json};

/// The same kills while pixgate makes the charges of Pix Automático mandates.
#[path = "harness_crash/mandates.rs"]
mod mandates;

#[tokio::test(flavor = "multi_thread")]
async fn answered_charges_refunds_events_and_psp_records_survive_random_sigkills_on_sqlite() {
    run(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn answered_charges_refunds_events_and_psp_records_survive_random_sigkills_on_postgresql() {
    if postgres_admin_url().is_none() {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    run(Backend::Postgres).await;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Shadow,
    Live,
    Refund,
}

/// One request as a client sent it: what it is, where it goes (under the merchant API) and
/// its body. A retry sends exactly this again.
#[derive(Debug, Clone)]
struct Sent {
    kind: Kind,
    path: String,
    body: Value,
}

/// What the clients saw: one ledger for charges, one for refunds.
#[derive(Default)]
struct Ledger {
    /// Every key sent, with its request.
    sent: HashMap<String, Sent>,
    /// The `data` of the first 200 each key got.
    answered: HashMap<String, Value>,
    /// Refund keys answered 409 `refund_exceeds_refundable`: no refund was made for them.
    exceeded: HashSet<String>,
    /// Keys without an answer yet (the connection died, or 409 while a dead request's claim
    /// was held).
    unanswered: HashSet<String>,
    /// Keys that were ever left unanswered.
    ever_unanswered: HashSet<String>,
    /// Keys whose request was sent and then cut by a kill (not refused while down).
    cut: HashSet<String>,
    /// Answers no request may get (5xx, unexpected codes) and replays that differ.
    wrong: Vec<String>,
    requests: u64,
    connection_errors: u64,
    in_use: u64,
    replays: u64,
}

/// How many refund keys one paid charge gets at most: four refunds of 20 % to 45 % of it (or
/// of what is left) add up to more than was paid more often than not.
const REFUND_KEYS_PER_PAYMENT: u32 = 4;

/// A paid LIVE charge pixgate has seen `SUCCEEDED`, open to refund clients.
struct Refundable {
    id: String,
    paid_centavos: i64,
    keys: u32,
}

struct Shared {
    stop: AtomicBool,
    /// The running server's merchant API base.
    base: RwLock<String>,
    ledger: Mutex<Ledger>,
    refunds: Mutex<Ledger>,
    /// Paid at the simulator, not yet seen `SUCCEEDED` through the API.
    settling: Mutex<Vec<String>>,
    refundable: Mutex<Vec<Refundable>>,
    shadow_key: String,
    live_key: String,
    /// A key with `payments:refund` (never a default scope).
    refund_key: String,
}

impl Shared {
    fn api_key(&self, kind: Kind) -> &str {
        match kind {
            Kind::Shadow => &self.shadow_key,
            Kind::Live => &self.live_key,
            Kind::Refund => &self.refund_key,
        }
    }

    fn ledger(&self, kind: Kind) -> &Mutex<Ledger> {
        match kind {
            Kind::Refund => &self.refunds,
            Kind::Shadow | Kind::Live => &self.ledger,
        }
    }
}

/// The body of charge `n` under `key`: amounts vary, so routes and contents differ.
fn body(kind: Kind, key: &str, n: u64) -> Value {
    let store = match kind {
        Kind::Live => STORE,
        Kind::Shadow | Kind::Refund => "demo-store",
    };
    let mut body = charge_body(store);
    body["reference"] = json!(key);
    body["amount"] = json!(10.0 + (n % 900) as f64 + 0.25);
    body
}

/// The body of refund `key` of a charge that paid `paid` centavos: 20 % to 45 % of it, or now
/// and then no amount (whatever is left when it arrives, perhaps nothing).
fn refund_body(key: &str, paid: i64) -> Value {
    let mut body = json!({"reason": format!("harness {key}"), "metadata": {"key": key}});
    if random_below(6) != 0 {
        let centavos = (paid * (20 + random_below(26) as i64) / 100).max(1);
        body["amount"] = json!(centavos as f64 / 100.0);
    }
    body
}

/// The answer without the field that differs between a first answer and its replay.
fn without_replay_flag(data: &Value) -> Value {
    let mut data = data.clone();
    if let Some(map) = data.as_object_mut() {
        map.remove("idempotentReplay");
    }
    data
}

/// One POST with an Idempotency-Key: the status and body, or the transport error (no answer).
async fn post(
    http: &reqwest::Client,
    base: &str,
    api_key: &str,
    idempotency_key: &str,
    sent: &Sent,
) -> Result<(u16, Value), reqwest::Error> {
    let r = http
        .post(format!("{base}{}", sent.path))
        .bearer_auth(api_key)
        .header("Idempotency-Key", idempotency_key)
        .json(&sent.body)
        .send()
        .await?;
    let status = r.status().as_u16();
    let text = r.text().await?;
    Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// Records one outcome; true when the key is answered.
fn record(
    ledger: &mut Ledger,
    kind: Kind,
    key: &str,
    outcome: &Result<(u16, Value), reqwest::Error>,
) -> bool {
    ledger.requests += 1;
    match outcome {
        Err(e) => {
            ledger.connection_errors += 1;
            if !e.is_connect() {
                ledger.cut.insert(key.to_owned());
            }
            ledger.unanswered.insert(key.to_owned());
            ledger.ever_unanswered.insert(key.to_owned());
            false
        }
        Ok((200, b)) => {
            let data = &b["data"];
            if let Some(first) = ledger.answered.get(key) {
                ledger.replays += 1;
                if without_replay_flag(first) != without_replay_flag(data)
                    || data["idempotentReplay"] != true
                {
                    ledger
                        .wrong
                        .push(format!("{key}: replay {data} differs from {first}"));
                }
            } else {
                ledger.answered.insert(key.to_owned(), data.clone());
            }
            ledger.unanswered.remove(key);
            true
        }
        Ok((409, b)) if b["error"]["code"] == "idempotency_key_in_use" => {
            ledger.in_use += 1;
            ledger.unanswered.insert(key.to_owned());
            ledger.ever_unanswered.insert(key.to_owned());
            false
        }
        // More than is left: an answer, and no refund (checked at the end).
        Ok((409, b))
            if kind == Kind::Refund && b["error"]["code"] == "refund_exceeds_refundable" =>
        {
            ledger.exceeded.insert(key.to_owned());
            ledger.unanswered.remove(key);
            true
        }
        Ok((status, b)) => {
            ledger.wrong.push(format!("{key}: {status} {b}"));
            ledger.unanswered.remove(key);
            true
        }
    }
}

/// Sends `key` (already in its ledger) once and records the outcome: whether it is answered,
/// and what came back.
async fn send(http: &reqwest::Client, shared: &Shared, key: &str, kind: Kind) -> (bool, String) {
    let sent = shared.ledger(kind).lock().unwrap().sent[key].clone();
    let base = shared.base.read().unwrap().clone();
    let outcome = post(http, &base, shared.api_key(kind), key, &sent).await;
    let answered = record(
        &mut shared.ledger(kind).lock().unwrap(),
        kind,
        key,
        &outcome,
    );
    let seen = match outcome {
        Ok((status, body)) => format!("{status} {body}"),
        Err(e) => e.to_string(),
    };
    (answered, seen)
}

/// A client: new keys one after the other (SHADOW and LIVE in turn), now and then a retry
/// of one of its own unanswered keys, until told to stop.
async fn client(id: usize, shared: Arc<Shared>) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let mut mine: Vec<String> = Vec::new();
    let mut n = 0u64;
    while !shared.stop.load(Ordering::Relaxed) {
        let retry = !mine.is_empty() && random_below(3) == 0;
        let (key, kind) = if retry {
            let key = mine[random_below(mine.len() as u64) as usize].clone();
            let kind = shared.ledger.lock().unwrap().sent[&key].kind;
            (key, kind)
        } else {
            n += 1;
            let kind = if n.is_multiple_of(2) {
                Kind::Shadow
            } else {
                Kind::Live
            };
            let key = format!(
                "{}-{id}-{n}",
                if kind == Kind::Live { "live" } else { "shadow" }
            );
            let sent = Sent {
                kind,
                path: "/payments/charge".to_owned(),
                body: body(kind, &key, n),
            };
            shared.ledger.lock().unwrap().sent.insert(key.clone(), sent);
            (key, kind)
        };
        if send(&http, &shared, &key, kind).await.0 {
            mine.retain(|k| *k != key);
        } else {
            if !mine.contains(&key) {
                mine.push(key);
            }
            // The server is down or a claim is held: give it a moment.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A refund client: new refunds of paid charges (a new key each, up to
/// [`REFUND_KEYS_PER_PAYMENT`] per charge across the clients), now and then a retry of one
/// of its own unanswered keys with the same body, until told to stop.
async fn refund_client(id: usize, shared: Arc<Shared>) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let mut mine: Vec<String> = Vec::new();
    let mut n = 0u64;
    while !shared.stop.load(Ordering::Relaxed) {
        let key = if !mine.is_empty() && random_below(3) == 0 {
            mine[random_below(mine.len() as u64) as usize].clone()
        } else {
            let target = {
                let mut open = shared.refundable.lock().unwrap();
                let with_keys_left: Vec<usize> = (0..open.len())
                    .filter(|&i| open[i].keys < REFUND_KEYS_PER_PAYMENT)
                    .collect();
                (!with_keys_left.is_empty()).then(|| {
                    let chosen = &mut open
                        [with_keys_left[random_below(with_keys_left.len() as u64) as usize]];
                    chosen.keys += 1;
                    (chosen.id.clone(), chosen.paid_centavos)
                })
            };
            let Some((intent, paid)) = target else {
                // Nothing paid and settled yet: the charge clients and the payer catch up.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            };
            n += 1;
            let key = format!("refund-{id}-{n}");
            let sent = Sent {
                kind: Kind::Refund,
                path: format!("/payments/{intent}/refunds"),
                body: refund_body(&key, paid),
            };
            shared
                .refunds
                .lock()
                .unwrap()
                .sent
                .insert(key.clone(), sent);
            key
        };
        if send(&http, &shared, &key, Kind::Refund).await.0 {
            mine.retain(|k| *k != key);
        } else {
            if !mine.contains(&key) {
                mine.push(key);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Moves the paid charges pixgate reports `SUCCEEDED` to the refund clients, until told to
/// stop (a refund of a charge not yet settled would only be 409 `payment_not_refundable`).
async fn watch_settlements(shared: Arc<Shared>) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    while !shared.stop.load(Ordering::Relaxed) {
        let settling = shared.settling.lock().unwrap().clone();
        for id in settling {
            let base = shared.base.read().unwrap().clone();
            let Ok(r) = http
                .get(format!("{base}/payments/{id}"))
                .bearer_auth(&shared.live_key)
                .send()
                .await
            else {
                break; // down: the next round
            };
            let read: Value = r.json().await.unwrap_or(Value::Null);
            if read["data"]["status"] == "SUCCEEDED" {
                let paid = (read["data"]["amount"].as_f64().unwrap() * 100.0).round() as i64;
                shared.settling.lock().unwrap().retain(|s| *s != id);
                shared.refundable.lock().unwrap().push(Refundable {
                    id,
                    paid_centavos: paid,
                    keys: 0,
                });
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// How the simulators settle the devoluções asked during run `n` (between two kills), in
/// turn: later, with their answers lost, at once at one PSP and not at all at the other, or at
/// once. The name, and the switches of `sandbox-a` and of `sandbox-b`.
fn devolucao_switches(n: usize) -> (&'static str, Value, Value) {
    let settle = |settle_after_ms: u64, drop_answer: bool| {
        json!({"devolucoes": {"settleAs": "DEVOLVIDO", "settleAfterMs": settle_after_ms,
            "dropAnswer": drop_answer}})
    };
    match n % 4 {
        // The refund answers PENDING; the simulator's callback (only while the first server's
        // port is the one registered) or the reconciler settles it.
        0 => ("400 ms later", settle(400, false), settle(400, false)),
        // Made at once, but every PUT's answer is a 504: pixgate reads each one back.
        1 => ("answers lost", settle(0, true), settle(0, true)),
        // Refused by one PSP: those refunds fail, and their amount is refundable again.
        2 => (
            "at once at sandbox-a, NAO_REALIZADO at sandbox-b",
            settle(0, false),
            json!({"devolucoes": {"settleAs": "NAO_REALIZADO",
                "motivo": "Conta do pagador encerrada", "settleAfterMs": 0, "dropAnswer": false}}),
        ),
        _ => ("at once", settle(0, false), settle(0, false)),
    }
}

/// Kills `server` with SIGKILL and starts it again on the same data dir and database.
fn kill_and_restart(server: &mut Server) -> (Server, Duration) {
    let data_dir = server.kill_hard();
    // A random moment of being down: clients meet refused connections.
    std::thread::sleep(Duration::from_millis(random_below(300)));
    let started = Instant::now();
    let database_url = Some(server.database_url.clone()).filter(|u| !u.is_empty());
    let restarted = Server::launch(Options {
        database_url,
        env: server.env.clone(),
        data_dir: Some(data_dir),
    });
    (restarted, started.elapsed())
}

/// Pays up to `n` answered, unpaid LIVE charges at their simulator; the refund clients get
/// them once pixgate has seen them settle.
async fn pay_some(live: &Live, shared: &Shared, paid: &mut HashMap<String, String>, n: usize) {
    let candidates: Vec<(String, String, String)> = {
        let ledger = shared.ledger.lock().unwrap();
        ledger
            .answered
            .values()
            .filter(|d| d["status"] == "PENDING")
            .filter_map(|d| {
                let txid = d["pix"]["txid"].as_str()?;
                (!paid.contains_key(txid)).then(|| {
                    (
                        txid.to_owned(),
                        d["routing"]["providerCode"].as_str().unwrap().to_owned(),
                        d["paymentIntentId"].as_str().unwrap().to_owned(),
                    )
                })
            })
            .take(n)
            .collect()
    };
    for (txid, provider, id) in candidates {
        let (status, answer) = live
            .sim(&provider)
            .control(
                reqwest::Method::POST,
                &format!("/cob/{txid}/pay"),
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "paying {txid}: {answer}");
        paid.insert(txid, id.clone());
        shared.settling.lock().unwrap().push(id);
    }
}

/// The parts of a stored answer `first` that no later event may change, in `data` (the answer
/// or a read): a charge's settlement moves its status, the PSP's payment id, its times and what
/// was refunded of it, and takes its QR code away; a refund answered `PENDING` may since have settled (status, failure,
/// completion time), and its `rtrId` may come with the settlement.
fn stable(kind: Kind, first: &Value, data: &Value) -> Value {
    let mut d = without_replay_flag(data);
    let map = d.as_object_mut().unwrap();
    let (moving, provider_moving): (&[&str], &str) = match kind {
        Kind::Shadow | Kind::Live => (
            &["status", "updatedAt", "completedAt", "amountRefunded"],
            "paymentId",
        ),
        Kind::Refund if first["status"] == "PENDING" => {
            (&["status", "completedAt", "failure"], "rtrId")
        }
        Kind::Refund => (&[], "rtrId"),
    };
    for field in moving {
        map.remove(*field);
    }
    if let Some(p) = map.get_mut("provider").and_then(Value::as_object_mut) {
        p.remove(provider_moving);
    }
    // The QR code is shown while the charge is PENDING only (DESIGN.md section 5), and it is
    // drawn from `copyAndPaste`, which stays compared.
    if let Some(pix) = map.get_mut("pix").and_then(Value::as_object_mut) {
        pix.remove("qrCodeSvg");
    }
    d
}

/// Centavos of a BRL amount as the API writes it (`129.9`).
fn centavos(amount: &Value) -> i64 {
    (amount.as_f64().unwrap() * 100.0).round() as i64
}

/// Sets both simulators' devolução switches for run `n`; the name of the setting.
async fn switch_devolucoes(live: &Live, n: usize) -> &'static str {
    let (name, a, b) = devolucao_switches(n);
    live.a.switches(a).await;
    live.b.switches(b).await;
    name
}

async fn run(backend: Backend) {
    sqlx::any::install_default_drivers();
    let kills = harness_setting("HARNESS_KILLS", 2);
    let clients = harness_setting("HARNESS_CLIENTS", 6) as usize;
    let refund_clients = harness_setting("HARNESS_REFUND_CLIENTS", 3) as usize;
    let uptime_ms = harness_setting("HARNESS_UPTIME_MS", 1200).max(100);
    let env = [
        ("PIXGATE_RATE_LIMIT_PER_SECOND", "0"),
        // A dead request's claim on a LIVE key or a refund, and a settlement's lease, run out
        // quickly.
        ("PIXGATE_LIVE_LEASE", "2s"),
        // Payments and PENDING refunds settle without their callbacks: after a restart the
        // simulators still call the first server's port.
        ("PIXGATE_RECONCILE_INTERVAL", "1s"),
        ("PIXGATE_PSP_TIMEOUT", "10s"),
        // A claimed delivery whose sender died is due again after the timeout plus 10 s.
        ("PIXGATE_WEBHOOK_TIMEOUT", "2s"),
        (
            "PIXGATE_WEBHOOK_RETRY_SCHEDULE",
            "500ms,1s,2s,3s,5s,5s,5s,5s,5s,5s",
        ),
    ];
    let mut live = Live::start(backend, &env).await;
    let refund_key = live.key_with(&["payments:refund"]).await;
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        base: RwLock::new(live.server.base.clone()),
        ledger: Mutex::new(Ledger::default()),
        refunds: Mutex::new(Ledger::default()),
        settling: Mutex::new(Vec::new()),
        refundable: Mutex::new(Vec::new()),
        shadow_key: live.server.demo_key.clone(),
        live_key: live.key.clone(),
        refund_key,
    });
    assert!(!shared.shadow_key.is_empty(), "the demo key was printed");
    let mut tasks: Vec<_> = (0..clients)
        .map(|id| tokio::spawn(client(id, shared.clone())))
        .collect();
    tasks.extend((0..refund_clients).map(|id| tokio::spawn(refund_client(id, shared.clone()))));
    tasks.push(tokio::spawn(watch_settlements(shared.clone())));

    // Random runs between kills, each with its way of settling devoluções; LIVE charges get
    // paid meanwhile.
    let mut paid: HashMap<String, String> = HashMap::new();
    let mut restarts = Vec::new();
    // How many runs settled devoluções each way.
    let mut modes: BTreeMap<&str, u32> = BTreeMap::new();
    let run_for = |ms: u64| Duration::from_millis(ms / 4 + random_below(ms - ms / 4));
    for n in 0..kills as usize {
        *modes.entry(switch_devolucoes(&live, n).await).or_default() += 1;
        let until = Instant::now() + run_for(uptime_ms);
        while Instant::now() < until {
            pay_some(&live, &shared, &mut paid, 2).await;
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let (server, took) = tokio::task::block_in_place(|| kill_and_restart(&mut live.server));
        live.server = server;
        *shared.base.write().unwrap() = live.server.base.clone();
        restarts.push(took);
    }
    *modes
        .entry(switch_devolucoes(&live, kills as usize).await)
        .or_default() += 1;
    tokio::time::sleep(Duration::from_millis(uptime_ms)).await;
    shared.stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await.unwrap();
    }
    pay_some(&live, &shared, &mut paid, 5).await;

    // Every key a kill left unanswered, retried with its body until it is answered.
    let http = reqwest::Client::new();
    for kind in [Kind::Live, Kind::Refund] {
        let unanswered: Vec<(String, Kind)> = {
            let ledger = shared.ledger(kind).lock().unwrap();
            ledger
                .unanswered
                .iter()
                .map(|k| (k.clone(), ledger.sent[k].kind))
                .collect()
        };
        for (key, kind) in &unanswered {
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                let (answered, outcome) = send(&http, &shared, key, *kind).await;
                if answered {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "{backend:?}: {key} is still unanswered after 30 s: {outcome}\n{}",
                    live.server.logs()
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    let ledger = std::mem::take(&mut *shared.ledger.lock().unwrap());
    let refund_ledger = std::mem::take(&mut *shared.refunds.lock().unwrap());
    for (what, l) in [("charges", &ledger), ("refunds", &refund_ledger)] {
        assert!(
            l.wrong.is_empty(),
            "{backend:?}: {} wrong answers to {what}, the first: {:?}",
            l.wrong.len(),
            &l.wrong[..l.wrong.len().min(5)]
        );
        assert_eq!(
            l.answered.len() + l.exceeded.len(),
            l.sent.len(),
            "{backend:?}: {what} answered"
        );
    }

    // Every answer is stored as it was given: the key replays it and the read agrees.
    let server = &live.server;
    let mut checks = tokio::task::JoinSet::new();
    let work: Vec<(String, Sent, Value)> = [&ledger, &refund_ledger]
        .into_iter()
        .flat_map(|l| {
            l.answered
                .iter()
                .map(|(key, first)| (key.clone(), l.sent[key].clone(), first.clone()))
        })
        .collect();
    let work = Arc::new(Mutex::new(work));
    for _ in 0..16 {
        let (work, shared) = (work.clone(), shared.clone());
        let (http, base) = (server.client.clone(), server.base.clone());
        checks.spawn(async move {
            let mut problems = Vec::new();
            loop {
                let Some((key, sent, first)) = work.lock().unwrap().pop() else {
                    return problems;
                };
                let api_key = shared.api_key(sent.kind);
                let (status, replay) = post(&http, &base, api_key, &key, &sent).await.unwrap();
                if status != 200
                    || without_replay_flag(&replay["data"]) != without_replay_flag(&first)
                    || replay["data"]["idempotentReplay"] != true
                {
                    problems.push(format!("{key}: replay {status} {replay}, first {first}"));
                }
                let read_path = match sent.kind {
                    Kind::Shadow | Kind::Live => {
                        format!("/payments/{}", first["paymentIntentId"].as_str().unwrap())
                    }
                    Kind::Refund => format!("/refunds/{}", first["refundId"].as_str().unwrap()),
                };
                let r = http
                    .get(format!("{base}{read_path}"))
                    .bearer_auth(api_key)
                    .send()
                    .await
                    .unwrap();
                let status = r.status().as_u16();
                let read: Value = r.json().await.unwrap_or(Value::Null);
                if status != 200
                    || stable(sent.kind, &first, &read["data"]) != stable(sent.kind, &first, &first)
                {
                    problems.push(format!("{key}: read {status} {read}, answered {first}"));
                }
            }
        });
    }
    let mut problems = Vec::new();
    while let Some(done) = checks.join_next().await {
        problems.extend(done.unwrap());
    }
    assert!(
        problems.is_empty(),
        "{backend:?}: {} stored charges or refunds differ from their answers, the first: {:?}",
        problems.len(),
        &problems[..problems.len().min(5)]
    );

    // One intent per key, and it is the one answered; nothing for keys never sent.
    let db = server.open_db().await;
    let intents: Vec<(String, String, String, Option<String>, String)> = sqlx::query_as(
        "select idempotency_key, id, status, txid, provider_code from payment_intents",
    )
    .fetch_all(&db.read)
    .await
    .unwrap();
    let mut by_key: HashMap<&str, Vec<&str>> = HashMap::new();
    for (key, id, ..) in &intents {
        by_key.entry(key).or_default().push(id);
    }
    for (key, first) in &ledger.answered {
        assert_eq!(
            by_key.get(key.as_str()).map(Vec::as_slice),
            Some([first["paymentIntentId"].as_str().unwrap()].as_slice()),
            "{backend:?}: the intents of {key}"
        );
    }
    assert_eq!(
        by_key.len(),
        ledger.sent.len(),
        "{backend:?}: intents of unsent keys"
    );

    // Every paid charge settles.
    let status_of = |id: &str| {
        let db = &db;
        let id = id.to_owned();
        async move {
            sqlx::query_scalar::<_, String>("select status from payment_intents where id = $1")
                .bind(id)
                .fetch_one(&db.read)
                .await
                .unwrap()
        }
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    for id in paid.values() {
        while status_of(id).await != "SUCCEEDED" {
            assert!(
                Instant::now() < deadline,
                "{backend:?}: paid intent {id} did not settle\n{}",
                server.logs()
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    // Every refund settles: a request killed after its reservation leaves a PENDING refund
    // that the reconciler takes over once its lease ran out.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let pending: i64 =
            sqlx::query_scalar("select count(*) from refunds where status = 'PENDING'")
                .fetch_one(&db.read)
                .await
                .unwrap();
        if pending == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{backend:?}: {pending} refunds still PENDING after 60 s\n{}",
            server.logs()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // One refund per refund key answered 200, and it is the one answered; none for a key
    // answered 409, nor for a key never sent; every refund is a merchant's.
    let refunds: Vec<(String, Option<String>, String, String)> =
        sqlx::query_as("select id, idempotency_key, status, origin from refunds")
            .fetch_all(&db.read)
            .await
            .unwrap();
    let mut refunds_of_key: HashMap<&str, Vec<&str>> = HashMap::new();
    for (id, key, _, origin) in &refunds {
        assert_eq!(origin, "merchant", "{backend:?}: refund {id}");
        let key = key.as_deref().unwrap_or_default();
        refunds_of_key.entry(key).or_default().push(id);
    }
    for (key, first) in &refund_ledger.answered {
        assert_eq!(
            refunds_of_key.get(key.as_str()).map(Vec::as_slice),
            Some([first["refundId"].as_str().unwrap()].as_slice()),
            "{backend:?}: the refunds of {key}"
        );
    }
    for key in &refund_ledger.exceeded {
        assert!(
            !refunds_of_key.contains_key(key.as_str()),
            "{backend:?}: {key} was answered 409 refund_exceeds_refundable, yet made a refund"
        );
    }
    assert_eq!(
        refunds_of_key.len(),
        refund_ledger.answered.len(),
        "{backend:?}: refunds of keys not answered 200"
    );

    // Each paid charge's devoluções at its PSP are its refunds, one to one.
    let mut problems = Vec::new();
    let mut devolucoes_at: BTreeMap<String, u64> = BTreeMap::new();
    let (mut succeeded, mut failed, mut refunded_centavos) = (0, 0, 0);
    let merchant = |path: String, key: &str| {
        let (http, base, key) = (&server.client, &server.base, key.to_owned());
        async move {
            let r = http
                .get(format!("{base}{path}"))
                .bearer_auth(key)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200, "{path}");
            r.json::<Value>().await.unwrap()["data"].clone()
        }
    };
    for id in paid.values() {
        let intent = merchant(format!("/payments/{id}"), &shared.live_key).await;
        let list = merchant(format!("/payments/{id}/refunds"), &shared.refund_key).await;
        let provider = intent["routing"]["providerCode"].as_str().unwrap();
        let e2eid = intent["provider"]["paymentId"].as_str().unwrap();
        let pix = live.sim(provider).pix(e2eid).await;
        assert_eq!(pix["endToEndId"], e2eid, "{backend:?}: {pix}");
        let devolucoes = pix["devolucoes"].as_array().cloned().unwrap_or_default();
        *devolucoes_at.entry(provider.to_owned()).or_default() += devolucoes.len() as u64;
        let refunds = list.as_array().unwrap();
        let by_devolucao: HashMap<&str, &Value> = refunds
            .iter()
            .map(|r| (r["provider"]["refundId"].as_str().unwrap(), r))
            .collect();
        let mut matched = HashSet::new();
        let mut at_psp = 0;
        for d in &devolucoes {
            let Some(refund) = by_devolucao.get(d["id"].as_str().unwrap()) else {
                problems.push(format!("{id}: devolução {d} has no refund"));
                continue;
            };
            matched.insert(d["id"].as_str().unwrap());
            let valor = (d["valor"].as_str().unwrap().parse::<f64>().unwrap() * 100.0).round();
            if valor as i64 != centavos(&refund["amount"]) {
                problems.push(format!("{id}: devolução {d} is not the amount of {refund}"));
            }
            let expected = match d["status"].as_str().unwrap() {
                "DEVOLVIDO" => "SUCCEEDED",
                "NAO_REALIZADO" => "FAILED",
                _ => "settled",
            };
            if refund["status"] != expected {
                problems.push(format!("{id}: devolução {d} but refund {refund}"));
            }
            if d["status"] != "NAO_REALIZADO" {
                at_psp += valor as i64;
            }
        }
        let mut sum = 0;
        for refund in refunds {
            let at_its_psp = matched.contains(refund["provider"]["refundId"].as_str().unwrap());
            match refund["status"].as_str().unwrap() {
                "SUCCEEDED" if at_its_psp => {
                    succeeded += 1;
                    sum += centavos(&refund["amount"]);
                }
                // Refused on its first PUT, or the PSP unreachable: nothing was made.
                "FAILED" => failed += 1,
                _ => problems.push(format!(
                    "{id}: refund {refund} is neither settled with its devolução nor failed"
                )),
            }
        }
        let paid_centavos = centavos(&intent["amount"]);
        if at_psp > paid_centavos {
            problems.push(format!(
                "{id}: devoluções of {at_psp} centavos for {paid_centavos} paid"
            ));
        }
        if centavos(&intent["amountRefunded"]) != sum {
            problems.push(format!(
                "{id}: amountRefunded {} but SUCCEEDED refunds of {sum} centavos",
                intent["amountRefunded"]
            ));
        }
        refunded_centavos += sum;
    }
    assert!(
        problems.is_empty(),
        "{backend:?}: {} differences between the PSPs' devoluções and pixgate's refunds, \
         the first: {:?}",
        problems.len(),
        &problems[..problems.len().min(5)]
    );
    // Each simulator made exactly those devoluções: none of an intent the harness did not pay.
    let mut devolucao_puts = BTreeMap::new();
    for (provider, sim) in [("sandbox-a", &live.a), ("sandbox-b", &live.b)] {
        let stats = sim.stats().await;
        let created = stats["devolucoesCreated"].as_u64().unwrap();
        assert_eq!(
            created,
            devolucoes_at.get(provider).copied().unwrap_or(0),
            "{backend:?}: {provider}'s devoluções"
        );
        let puts: u64 = stats["putDevolucao"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        devolucao_puts.insert(provider, (created, puts));
    }
    assert_eq!(
        succeeded + failed,
        refunds.len(),
        "{backend:?}: refunds of unpaid charges"
    );

    // Every committed transition has its event, and every event its delivery, delivered.
    let intents: Vec<(String, String, String, Option<String>, String)> = sqlx::query_as(
        "select idempotency_key, id, status, txid, provider_code from payment_intents",
    )
    .fetch_all(&db.read)
    .await
    .unwrap();
    let events: Vec<(String, String, String)> =
        sqlx::query_as("select id, payment_intent_id, type from payment_events")
            .fetch_all(&db.read)
            .await
            .unwrap();
    let mut events_of: HashMap<&str, Vec<&str>> = HashMap::new();
    for (_, intent, kind) in &events {
        events_of.entry(intent).or_default().push(kind);
    }
    for (key, id, status, ..) in &intents {
        let mut got = events_of.remove(id.as_str()).unwrap_or_default();
        got.sort_unstable();
        let expected: &[&str] = match status.as_str() {
            "SHADOW_ONLY" => &[],
            "PENDING" => &["payment.pending"],
            "SUCCEEDED" => &["payment.pending", "payment.succeeded"],
            "CANCELED" => &["payment.canceled", "payment.pending"],
            "FAILED" => &["payment.failed"],
            other => panic!("{backend:?}: {key} is {other}"),
        };
        assert_eq!(got, expected, "{backend:?}: the events of {key} ({status})");
    }
    assert!(
        events_of.is_empty(),
        "{backend:?}: events of no intent: {events_of:?}"
    );
    let refund_events: Vec<(String, String)> =
        sqlx::query_as("select refund_id, type from refund_events")
            .fetch_all(&db.read)
            .await
            .unwrap();
    let mut events_of_refund: HashMap<&str, Vec<&str>> = HashMap::new();
    for (refund, kind) in &refund_events {
        events_of_refund.entry(refund).or_default().push(kind);
    }
    for (id, _, status, _) in &refunds {
        let got = events_of_refund.remove(id.as_str()).unwrap_or_default();
        let expected: &[&str] = match status.as_str() {
            "SUCCEEDED" => &["refund.succeeded"],
            "FAILED" => &["refund.failed"],
            other => panic!("{backend:?}: refund {id} is {other}"),
        };
        assert_eq!(got, expected, "{backend:?}: the events of refund {id}");
    }
    assert!(
        events_of_refund.is_empty(),
        "{backend:?}: events of no refund: {events_of_refund:?}"
    );
    let deliveries_query = "select d.id, d.body, d.status, \
        coalesce(e.payment_intent_id, r.payment_intent_id), coalesce(e.type, re.type) \
        from webhook_deliveries d \
        left join payment_events e on e.id = d.event_id \
        left join refund_events re on re.id = d.refund_event_id \
        left join refunds r on r.id = re.refund_id";
    let deadline = Instant::now() + Duration::from_secs(60);
    let deliveries: Vec<(String, String, String, String, String)> = loop {
        let rows: Vec<(String, String, String, String, String)> = sqlx::query_as(deliveries_query)
            .fetch_all(&db.read)
            .await
            .unwrap();
        if rows.iter().all(|r| r.2 != "PENDING") {
            break rows;
        }
        assert!(
            Instant::now() < deadline,
            "{backend:?}: deliveries still pending after 60 s\n{}",
            server.logs()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(
        deliveries.len(),
        events.len() + refund_events.len(),
        "{backend:?}: one delivery per event"
    );
    let received = live.receiver.received();
    let mut receipts: HashMap<&str, Vec<&pixgate_e2e::receiver::Received>> = HashMap::new();
    for r in &received {
        receipts
            .entry(r.header("x-service-delivery").unwrap_or_default())
            .or_default()
            .push(r);
    }
    let delivery_ids: HashSet<&str> = deliveries.iter().map(|d| d.0.as_str()).collect();
    for id in receipts.keys() {
        assert!(
            delivery_ids.contains(id),
            "{backend:?}: the receiver got {id}, which was never committed"
        );
    }
    let mut refunds_told: HashMap<String, String> = HashMap::new();
    for (id, stored_body, status, intent, kind) in &deliveries {
        assert_eq!(
            status, "DELIVERED",
            "{backend:?}: delivery {id} ({kind} of {intent})"
        );
        let got = receipts
            .get(id.as_str())
            .unwrap_or_else(|| panic!("{backend:?}: {kind} of {intent} never arrived"));
        for r in got {
            pixgate_webhook::verify(&live.secret, &r.headers, &r.body, r.at)
                .unwrap_or_else(|e| panic!("{backend:?}: {id} does not verify: {e}"));
            assert_eq!(r.body, stored_body.as_bytes(), "{backend:?}: {id}'s body");
            let event = r.json();
            if let Some(refund) = event["data"]["refundId"].as_str() {
                refunds_told.insert(
                    refund.to_owned(),
                    event["type"].as_str().unwrap().to_owned(),
                );
            }
        }
    }
    // What the merchant was told of each refund, from the verified receipts themselves.
    for (id, _, status, _) in &refunds {
        let told = refunds_told.get(id).map(String::as_str);
        let expected = if status == "SUCCEEDED" {
            "refund.succeeded"
        } else {
            "refund.failed"
        };
        assert_eq!(told, Some(expected), "{backend:?}: refund {id} ({status})");
    }
    let duplicates = received.len() - receipts.len();

    // No charge twice at a PSP: each simulator created exactly the charges of the intents
    // at its provider, each once, and none is at both.
    let mut psp = BTreeMap::new();
    let mut txids_seen = HashSet::new();
    for (provider, sim) in [("sandbox-a", &live.a), ("sandbox-b", &live.b)] {
        let stats = sim.stats().await;
        let at_psp: HashSet<String> = stats["putCob"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        let puts: u64 = stats["putCob"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        let created = stats["cobsCreated"].as_u64().unwrap();
        let ours: HashSet<String> = intents
            .iter()
            .filter(|i| i.4 == provider)
            .filter_map(|i| i.3.clone())
            .collect();
        assert_eq!(
            created as usize,
            ours.len(),
            "{backend:?}: {provider} created {created} charges for {} intents",
            ours.len()
        );
        assert_eq!(at_psp, ours, "{backend:?}: {provider}'s txids");
        for txid in at_psp {
            assert!(txids_seen.insert(txid), "{backend:?}: a txid at both PSPs");
        }
        psp.insert(provider, (created, puts));
    }

    let live_answered = ledger
        .sent
        .values()
        .filter(|s| s.kind == Kind::Live)
        .count();
    // Refund requests a kill cut that had made their refund: the retry took it over.
    let taken_over = refund_ledger
        .cut
        .iter()
        .filter(|k| refund_ledger.answered.contains_key(*k))
        .count();
    let refunds_answered_pending = refund_ledger
        .answered
        .values()
        .filter(|d| d["status"] == "PENDING")
        .count();
    let restart_ms: Vec<u128> = restarts.iter().map(Duration::as_millis).collect();
    eprintln!(
        "harness-crash {backend:?}: kills {kills}, clients {clients}, refund clients \
         {refund_clients}, restart ms {restart_ms:?}; requests {}, charges answered {} (SHADOW {}, \
         LIVE {live_answered}), keys without an answer at first {} (of which requests cut by a \
         kill {}; each retried until answered, one intent each), connection errors {}, 409 in \
         use {}, replays {} (and every answered key replayed once at the end); LIVE paid {}; \
         refunds: runs by how devoluções settled {modes:?}, requests {}, keys {} (answered 200 {}, \
         of which PENDING at the answer {refunds_answered_pending}; 409 exceeds refundable {}), \
         keys without an answer at first {} (cut by a kill {}, of which answered 200 on a retry \
         {taken_over}), 409 in use {}, SUCCEEDED \
         {succeeded}, FAILED {failed}, refunded R$ {:.2}; events {} + refund events {}, \
         deliveries {}, receipts {} (duplicates {duplicates}); PSP (charges created, PUTs) \
         {psp:?}, (devoluções created, PUTs) {devolucao_puts:?}",
        ledger.requests,
        ledger.answered.len(),
        ledger.answered.len() - live_answered,
        ledger.ever_unanswered.len(),
        ledger.cut.len(),
        ledger.connection_errors,
        ledger.in_use,
        ledger.replays,
        paid.len(),
        refund_ledger.requests,
        refund_ledger.sent.len(),
        refund_ledger.answered.len(),
        refund_ledger.exceeded.len(),
        refund_ledger.ever_unanswered.len(),
        refund_ledger.cut.len(),
        refund_ledger.in_use,
        refunded_centavos as f64 / 100.0,
        events.len(),
        refund_events.len(),
        deliveries.len(),
        received.len(),
    );
}
