//! Crash-safety harness (issue 11). SHADOW and LIVE charges (LIVE at two real PSP simulators)
//! at load while `pixgate serve` is killed with SIGKILL at random moments and started again on
//! the same data dir and database; some LIVE charges are paid at the simulator meanwhile.
//! Afterwards:
//!
//! - every charge answered 200 exists with the content it was answered with: its key replays
//!   that answer, and the status read agrees with it;
//! - every Idempotency-Key sent names exactly one intent, the keys a kill left unanswered
//!   included (each is retried, with its body, until it is answered);
//! - every committed transition's event reached the merchant's HTTPS receiver at least once,
//!   signed and with the stored body, and the receiver got nothing that was not committed;
//! - no charge exists twice at the PSPs (the simulators' own counts against the intents).
//!
//! Its size comes from the environment, with small defaults for CI: `HARNESS_KILLS` (kills,
//! 2), `HARNESS_CLIENTS` (concurrent clients, 6), `HARNESS_UPTIME_MS` (the longest run between
//! two kills; each run is a random length up to it, 1200). `harness/crash.sh` runs a long
//! version against SQLite and PostgreSQL and prints the figures.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use pixgate_e2e::live::{Live, STORE};
use pixgate_e2e::server::{Backend, Options, Server, charge_body, postgres_admin_url};
use pixgate_e2e::{harness_setting, random_below};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn answered_charges_events_and_psp_charges_survive_random_sigkills_on_sqlite() {
    run(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn answered_charges_events_and_psp_charges_survive_random_sigkills_on_postgresql() {
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
}

/// What the clients saw.
#[derive(Default)]
struct Ledger {
    /// Every key sent, with its kind and body.
    sent: HashMap<String, (Kind, Value)>,
    /// The `data` of the first 200 each key got.
    answered: HashMap<String, Value>,
    /// Keys without an answer yet (the connection died, or 409 while a dead request's claim
    /// was held).
    unanswered: HashSet<String>,
    /// Keys that were ever left unanswered.
    ever_unanswered: HashSet<String>,
    /// Keys whose request was sent and then cut by a kill (not refused while down).
    cut: HashSet<String>,
    /// Answers no charge may get (5xx, unexpected codes) and replays that differ.
    wrong: Vec<String>,
    requests: u64,
    connection_errors: u64,
    in_use: u64,
    replays: u64,
}

struct Shared {
    stop: AtomicBool,
    /// The running server's merchant API base.
    base: RwLock<String>,
    ledger: Mutex<Ledger>,
    shadow_key: String,
    live_key: String,
}

/// The body of charge `n` under `key`: amounts vary, so routes and contents differ.
fn body(kind: Kind, key: &str, n: u64) -> Value {
    let store = match kind {
        Kind::Shadow => "demo-store",
        Kind::Live => STORE,
    };
    let mut body = charge_body(store);
    body["reference"] = json!(key);
    body["amount"] = json!(10.0 + (n % 900) as f64 + 0.25);
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

/// One charge request: the status and body, or the transport error (no answer).
async fn post_charge(
    http: &reqwest::Client,
    base: &str,
    api_key: &str,
    idempotency_key: &str,
    body: &Value,
) -> Result<(u16, Value), reqwest::Error> {
    let r = http
        .post(format!("{base}/payments/charge"))
        .bearer_auth(api_key)
        .header("Idempotency-Key", idempotency_key)
        .json(body)
        .send()
        .await?;
    let status = r.status().as_u16();
    let text = r.text().await?;
    Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// Records one outcome; true when the key is answered.
fn record(ledger: &mut Ledger, key: &str, outcome: &Result<(u16, Value), reqwest::Error>) -> bool {
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
        Ok((status, b)) => {
            ledger.wrong.push(format!("{key}: {status} {b}"));
            ledger.unanswered.remove(key);
            true
        }
    }
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
        let key = if retry {
            mine[random_below(mine.len() as u64) as usize].clone()
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
            let b = body(kind, &key, n);
            shared
                .ledger
                .lock()
                .unwrap()
                .sent
                .insert(key.clone(), (kind, b));
            key
        };
        let (kind, b) = shared.ledger.lock().unwrap().sent[&key].clone();
        let api_key = match kind {
            Kind::Shadow => &shared.shadow_key,
            Kind::Live => &shared.live_key,
        };
        let base = shared.base.read().unwrap().clone();
        let outcome = post_charge(&http, &base, api_key, &key, &b).await;
        let answered = record(&mut shared.ledger.lock().unwrap(), &key, &outcome);
        if answered {
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

/// Pays up to `n` answered, unpaid LIVE charges at their simulator.
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
        paid.insert(txid, id);
    }
}

async fn run(backend: Backend) {
    sqlx::any::install_default_drivers();
    let kills = harness_setting("HARNESS_KILLS", 2);
    let clients = harness_setting("HARNESS_CLIENTS", 6) as usize;
    let uptime_ms = harness_setting("HARNESS_UPTIME_MS", 1200).max(100);
    let env = [
        ("PIXGATE_RATE_LIMIT_PER_SECOND", "0"),
        // A dead request's claim on a LIVE key, and a settlement's lease, run out quickly.
        ("PIXGATE_LIVE_LEASE", "2s"),
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
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        base: RwLock::new(live.server.base.clone()),
        ledger: Mutex::new(Ledger::default()),
        shadow_key: live.server.demo_key.clone(),
        live_key: live.key.clone(),
    });
    assert!(!shared.shadow_key.is_empty(), "the demo key was printed");
    let tasks: Vec<_> = (0..clients)
        .map(|id| tokio::spawn(client(id, shared.clone())))
        .collect();

    // Random runs between kills; LIVE charges get paid meanwhile.
    let mut paid: HashMap<String, String> = HashMap::new();
    let mut restarts = Vec::new();
    let run_for = |ms: u64| Duration::from_millis(ms / 4 + random_below(ms - ms / 4));
    for _ in 0..kills {
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
    tokio::time::sleep(Duration::from_millis(uptime_ms)).await;
    shared.stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await.unwrap();
    }
    pay_some(&live, &shared, &mut paid, 5).await;

    // Every key a kill left unanswered, retried with its body until it is answered.
    let http = reqwest::Client::new();
    let unanswered: Vec<String> = {
        let ledger = shared.ledger.lock().unwrap();
        ledger.unanswered.iter().cloned().collect()
    };
    for key in &unanswered {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let (kind, b) = shared.ledger.lock().unwrap().sent[key].clone();
            let api_key = match kind {
                Kind::Shadow => &shared.shadow_key,
                Kind::Live => &shared.live_key,
            };
            let outcome = post_charge(&http, &live.server.base, api_key, key, &b).await;
            if record(&mut shared.ledger.lock().unwrap(), key, &outcome) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{backend:?}: {key} is still unanswered after 30 s: {:?}\n{}",
                outcome.map(|(s, b)| format!("{s} {b}")),
                live.server.logs()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let ledger = std::mem::take(&mut *shared.ledger.lock().unwrap());
    assert!(
        ledger.wrong.is_empty(),
        "{backend:?}: {} wrong answers, the first: {:?}",
        ledger.wrong.len(),
        &ledger.wrong[..ledger.wrong.len().min(5)]
    );
    assert_eq!(ledger.answered.len(), ledger.sent.len(), "{backend:?}");

    // Every answer is stored as it was given: the key replays it and the read agrees.
    let server = &live.server;
    let mut checks = tokio::task::JoinSet::new();
    let work: Arc<Mutex<Vec<(String, Value)>>> =
        Arc::new(Mutex::new(ledger.answered.clone().into_iter().collect()));
    for _ in 0..16 {
        let work = work.clone();
        let (http, base) = (server.client.clone(), server.base.clone());
        let (sent, shadow_key, live_key) = (
            ledger.sent.clone(),
            shared.shadow_key.clone(),
            shared.live_key.clone(),
        );
        checks.spawn(async move {
            let mut problems = Vec::new();
            loop {
                let Some((key, first)) = work.lock().unwrap().pop() else {
                    return problems;
                };
                let (kind, b) = &sent[&key];
                let api_key = if *kind == Kind::Shadow {
                    &shadow_key
                } else {
                    &live_key
                };
                let (status, replay) = post_charge(&http, &base, api_key, &key, b).await.unwrap();
                if status != 200
                    || without_replay_flag(&replay["data"]) != without_replay_flag(&first)
                {
                    problems.push(format!("{key}: replay {status} {replay}, first {first}"));
                }
                let id = first["paymentIntentId"].as_str().unwrap();
                let r = http
                    .get(format!("{base}/payments/{id}"))
                    .bearer_auth(api_key)
                    .send()
                    .await
                    .unwrap();
                let status = r.status().as_u16();
                let read: Value = r.json().await.unwrap_or(Value::Null);
                // Settlement may have moved a LIVE intent since: status, the PSP's payment
                // id and the times of the move.
                let stable = |d: &Value| {
                    let mut d = without_replay_flag(d);
                    let map = d.as_object_mut().unwrap();
                    for moving in ["status", "updatedAt", "completedAt"] {
                        map.remove(moving);
                    }
                    if let Some(p) = map.get_mut("provider").and_then(Value::as_object_mut) {
                        p.remove("paymentId");
                    }
                    d
                };
                if status != 200 || stable(&read["data"]) != stable(&first) {
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
        "{backend:?}: {} stored charges differ from their answers, the first: {:?}",
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
    let deliveries_query = "select d.id, d.body, d.status, e.payment_intent_id, e.type \
        from webhook_deliveries d join payment_events e on e.id = d.event_id";
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
        events.len(),
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
        }
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
        .filter(|(k, _)| *k == Kind::Live)
        .count();
    let restart_ms: Vec<u128> = restarts.iter().map(Duration::as_millis).collect();
    eprintln!(
        "harness-crash {backend:?}: kills {kills}, clients {clients}, restart ms {restart_ms:?}; \
         requests {}, charges answered {} (SHADOW {}, LIVE {live_answered}), keys without \
         an answer at first {} (of which requests cut by a kill {}; each retried until answered, \
         one intent each), connection errors {}, 409 in use {}, replays {} (and every answered \
         key replayed once at the end); LIVE paid {}; events {}, deliveries {}, receipts {} (duplicates {duplicates}); \
         PSP (charges created, PUTs) {psp:?}",
        ledger.requests,
        ledger.answered.len(),
        ledger.answered.len() - live_answered,
        ledger.ever_unanswered.len(),
        ledger.cut.len(),
        ledger.connection_errors,
        ledger.in_use,
        ledger.replays,
        paid.len(),
        events.len(),
        deliveries.len(),
        received.len(),
    );
}
