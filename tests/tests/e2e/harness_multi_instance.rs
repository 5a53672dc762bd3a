//! Multi-instance harness (issue 11): three `pixgate serve` on one PostgreSQL, with SHADOW and
//! LIVE charges (LIVE at two real PSP simulators) spread across them, policy activations made
//! on one instance or another, and LIVE charges paid while the simulators' callbacks are
//! dropped, so the three reconcilers race for every settlement. It checks:
//!
//! - idempotency across instances: each key is sent to the three instances at once, and the
//!   three answers name one intent (one of them created it, the others replay it or, for a
//!   LIVE charge in progress, answer 409 `idempotency_key_in_use`); one intent per key in the
//!   database; one charge per intent at the PSP, `PUT` once;
//! - each webhook delivery attempt is sent once: the receiver (answering 200) gets every
//!   delivery exactly once, and the database holds one attempt per delivery;
//! - activations converge: after a policy version is activated (or the bundled one restored)
//!   on one instance, all three charge with it within a bound;
//! - the reconcilers do not double-process: every paid charge moves once (one
//!   `payment.succeeded`, one transition counted across the instances' metrics), and no two
//!   reads of one charge at its PSP overlap in time.
//!
//! PostgreSQL only (it says so and passes without `PIXGATE_TEST_DATABASE_URL`). Its size comes
//! from the environment, with small defaults for CI: `HARNESS_SECONDS` (how long the load
//! runs, 6) and `HARNESS_CLIENTS` (concurrent clients, 4). `harness/multi-instance.sh` runs a
//! long version and prints the figures.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pixgate_e2e::components::{activate, upload_guest};
use pixgate_e2e::live::{Live, STORE};
use pixgate_e2e::server::{Backend, Options, Server, charge_body, postgres_admin_url};
use pixgate_e2e::{harness_setting, random_below};
use serde_json::{Value, json};

/// Every instance opens the same sealed secrets and takes the same admin token.
const MASTER_KEY: &str = "aGFybmVzcy1tdWx0aS1pbnN0YW5jZS1rZXktMzJieXQ=";
const ADMIN_TOKEN: &str = "pxa_harness_multi_instance_token";
/// The bound for an activation to reach every instance (the operator guide says about a
/// second).
const CONVERGENCE_BOUND: Duration = Duration::from_secs(10);

#[derive(Default)]
struct Ledger {
    /// Key -> (LIVE?, the intent id all its answers named).
    keys: HashMap<String, (bool, String)>,
    /// LIVE charges answered, not yet paid: (txid, provider, intent id).
    unpaid: Vec<(String, String, String)>,
    /// Answers that break the rules.
    wrong: Vec<String>,
    requests: u64,
    replays: u64,
    in_use: u64,
    /// Answers per instance.
    per_instance: [u64; 3],
}

async fn post_charge(
    http: &reqwest::Client,
    base: &str,
    api_key: &str,
    idempotency_key: &str,
    body: &Value,
) -> (u16, Value) {
    let r = http
        .post(format!("{base}/payments/charge"))
        .bearer_auth(api_key)
        .header("Idempotency-Key", idempotency_key)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// A client: each new key goes to the three instances at once.
async fn client(
    id: usize,
    bases: Vec<String>,
    keys: (String, String),
    stop: Arc<AtomicBool>,
    ledger: Arc<Mutex<Ledger>>,
) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let live = n % 2 == 1;
        let key = format!("{}-{id}-{n}", if live { "live" } else { "shadow" });
        let (store, api_key) = if live {
            (STORE, &keys.1)
        } else {
            ("demo-store", &keys.0)
        };
        let mut body = charge_body(store);
        body["reference"] = json!(key);
        body["amount"] = json!(10.0 + (n % 900) as f64 + 0.5);
        let (a, b, c) = tokio::join!(
            post_charge(&http, &bases[0], api_key, &key, &body),
            post_charge(&http, &bases[1], api_key, &key, &body),
            post_charge(&http, &bases[2], api_key, &key, &body),
        );
        let answers = [a, b, c];
        let mut ledger = ledger.lock().unwrap();
        ledger.requests += 3;
        let mut ids = HashSet::new();
        let mut created = 0;
        let mut first = None;
        for (instance, (status, answer)) in answers.iter().enumerate() {
            match status {
                200 => {
                    ledger.per_instance[instance] += 1;
                    let data = &answer["data"];
                    ids.insert(data["paymentIntentId"].as_str().unwrap().to_owned());
                    if data["idempotentReplay"] == false {
                        created += 1;
                        first = Some(data.clone());
                    } else {
                        ledger.replays += 1;
                    }
                }
                409 if live && answer["error"]["code"] == "idempotency_key_in_use" => {
                    ledger.per_instance[instance] += 1;
                    ledger.in_use += 1;
                }
                _ => ledger
                    .wrong
                    .push(format!("{key} on instance {instance}: {status} {answer}")),
            }
        }
        if ids.len() != 1 || created != 1 {
            ledger.wrong.push(format!(
                "{key}: {} intents, {created} answers not replays: {answers:?}",
                ids.len()
            ));
            continue;
        }
        let id = ids.into_iter().next().unwrap();
        if let Some(data) = first.filter(|_| live)
            && data["status"] == "PENDING"
        {
            ledger.unpaid.push((
                data["pix"]["txid"].as_str().unwrap().to_owned(),
                data["routing"]["providerCode"].as_str().unwrap().to_owned(),
                id.clone(),
            ));
        }
        ledger.keys.insert(key, (live, id));
    }
}

/// The charge's policy on `server` for a new SHADOW charge of `store`.
async fn policy_on(server: &Server, key: &str, store: &str, probe: &str) -> String {
    let mut body = charge_body(store);
    body["reference"] = json!(probe);
    let (status, answer) = server.charge(key, probe, &body).await;
    assert_eq!(status, 200, "{answer}");
    answer["data"]["routing"]["policy"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Sum of a counter family's samples whose labels contain all of `labels`.
fn counter(metrics: &str, family: &str, labels: &[&str]) -> u64 {
    metrics
        .lines()
        .filter(|l| l.starts_with(&format!("{family}{{")))
        .filter(|l| labels.iter().all(|label| l.contains(label)))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum::<f64>() as u64
}

#[tokio::test(flavor = "multi_thread")]
async fn three_instances_on_one_postgresql_share_the_work_and_do_nothing_twice() {
    if postgres_admin_url().is_none() {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    sqlx::any::install_default_drivers();
    let seconds = harness_setting("HARNESS_SECONDS", 6);
    let clients = harness_setting("HARNESS_CLIENTS", 4) as usize;
    let env = [
        ("PIXGATE_MASTER_KEY", MASTER_KEY),
        ("PIXGATE_ADMIN_TOKEN", ADMIN_TOKEN),
        ("PIXGATE_RATE_LIMIT_PER_SECOND", "0"),
        ("PIXGATE_RECONCILE_INTERVAL", "200ms"),
        ("PIXGATE_LIVE_LEASE", "10s"),
        ("PIXGATE_PSP_TIMEOUT", "8s"),
    ];
    let live = Live::start(Backend::Postgres, &env).await;
    // No callbacks: only the reconcilers settle, and all three race for every charge.
    for sim in [&live.a, &live.b] {
        sim.switches(json!({"callbacks": {"drop": true}})).await;
    }
    let launch = || {
        Server::launch(Options {
            database_url: Some(live.server.database_url.clone()),
            env: live.server.env.clone(),
            data_dir: None,
        })
    };
    let others = [launch(), launch()];
    let instances: [&Server; 3] = [&live.server, &others[0], &others[1]];
    let bases: Vec<String> = instances.iter().map(|s| s.base.clone()).collect();
    let shadow_key = live.server.demo_key.clone();
    assert!(!shadow_key.is_empty());
    // A store for the activation probes, apart from the load.
    let probe_key = live
        .server
        .merchant_with_store("acme", "acme-web", "SHADOW")
        .await;
    let renamed = upload_guest(&others[0], "policy", "pixgate_fixture_renamed").await;

    let stop = Arc::new(AtomicBool::new(false));
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let tasks: Vec<_> = (0..clients)
        .map(|id| {
            tokio::spawn(client(
                id,
                bases.clone(),
                (shadow_key.clone(), live.key.clone()),
                stop.clone(),
                ledger.clone(),
            ))
        })
        .collect();

    // Meanwhile: activations on one instance after another, each awaited on all three, and
    // payments of the LIVE charges answered so far.
    let started = Instant::now();
    let mut paid: HashMap<String, String> = HashMap::new();
    let mut convergence = Vec::new();
    let mut round = 0usize;
    let mut probes = 0u64;
    while started.elapsed() < Duration::from_secs(seconds) || round < 2 {
        let on = instances[round % 3];
        let (version, policy) = if round.is_multiple_of(2) {
            (renamed.as_str(), "v2-d0-first")
        } else {
            ("bundled", "d0-first")
        };
        activate(on, "acme-web", "policy", version).await;
        let activated = Instant::now();
        let mut waiting: Vec<usize> = vec![0, 1, 2];
        while !waiting.is_empty() {
            let mut still = Vec::new();
            for i in waiting {
                probes += 1;
                let probe = format!("probe-{round}-{i}-{probes}");
                if policy_on(instances[i], &probe_key, "acme-web", &probe).await != policy {
                    still.push(i);
                }
            }
            waiting = still;
            assert!(
                activated.elapsed() < CONVERGENCE_BOUND,
                "round {round}: instances {waiting:?} still charge with the old version after \
                 {CONVERGENCE_BOUND:?}"
            );
            if !waiting.is_empty() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        convergence.push(activated.elapsed());
        round += 1;
        let to_pay = std::mem::take(&mut ledger.lock().unwrap().unpaid);
        for (txid, provider, id) in to_pay {
            if random_below(2) == 0 {
                live.sim(&provider)
                    .post(&format!("/cob/{txid}/pay"), json!({}))
                    .await;
                paid.insert(txid, id);
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await.unwrap();
    }
    let ledger = std::mem::take(&mut *ledger.lock().unwrap());
    assert!(
        ledger.wrong.is_empty(),
        "{} wrong answers, the first: {:?}",
        ledger.wrong.len(),
        &ledger.wrong[..ledger.wrong.len().min(5)]
    );
    for (txid, provider, id) in &ledger.unpaid {
        live.sim(provider)
            .post(&format!("/cob/{txid}/pay"), json!({}))
            .await;
        paid.insert(txid.clone(), id.clone());
    }

    // Every paid charge settles (by a reconciler), and every delivery is out.
    let db = live.server.open_db().await;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let statuses: Vec<(String, String)> =
            sqlx::query_as("select id, status from payment_intents where txid is not null")
                .fetch_all(&db.read)
                .await
                .unwrap();
        let settled: HashSet<&str> = statuses
            .iter()
            .filter(|(_, s)| s == "SUCCEEDED")
            .map(|(id, _)| id.as_str())
            .collect();
        let pending: i64 =
            sqlx::query_scalar("select count(*) from webhook_deliveries where status = 'PENDING'")
                .fetch_one(&db.read)
                .await
                .unwrap();
        if paid.values().all(|id| settled.contains(id.as_str())) && pending == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "after 60 s: {} of {} paid charges settled, {pending} deliveries pending",
            paid.values()
                .filter(|id| settled.contains(id.as_str()))
                .count(),
            paid.len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Let any duplicate show itself.
    tokio::time::sleep(Duration::from_secs(2)).await;

    // Idempotency: one intent per key, the one every instance answered.
    let intents: Vec<(String, String, String, String, Option<String>, String)> = sqlx::query_as(
        "select merchant_id, idempotency_key, id, status, txid, provider_code \
             from payment_intents",
    )
    .fetch_all(&db.read)
    .await
    .unwrap();
    let mut by_key: HashMap<(&str, &str), Vec<&str>> = HashMap::new();
    for (merchant, key, id, ..) in &intents {
        by_key.entry((merchant, key)).or_default().push(id);
    }
    assert!(
        by_key.values().all(|ids| ids.len() == 1),
        "keys with several intents: {:?}",
        by_key
            .iter()
            .filter(|(_, ids)| ids.len() > 1)
            .collect::<Vec<_>>()
    );
    let stored: HashMap<&str, &str> = intents
        .iter()
        .map(|(_, key, id, ..)| (key.as_str(), id.as_str()))
        .collect();
    for (key, (_, id)) in &ledger.keys {
        assert_eq!(stored.get(key.as_str()), Some(&id.as_str()), "{key}");
    }

    // One charge per LIVE intent at the PSPs, each put once.
    let mut psp = BTreeMap::new();
    for (provider, sim) in [("sandbox-a", &live.a), ("sandbox-b", &live.b)] {
        let stats = sim.stats().await;
        let puts: HashMap<String, u64> = stats["putCob"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(t, n)| (t.clone(), n.as_u64().unwrap()))
            .collect();
        let ours: HashSet<String> = intents
            .iter()
            .filter(|i| i.5 == provider)
            .filter_map(|i| i.4.clone())
            .collect();
        let created = stats["cobsCreated"].as_u64().unwrap();
        assert_eq!(created as usize, ours.len(), "{provider}: charges created");
        assert_eq!(
            puts.keys().cloned().collect::<HashSet<_>>(),
            ours,
            "{provider}: txids"
        );
        assert!(
            puts.values().all(|&n| n == 1),
            "{provider}: a charge put more than once: {:?}",
            puts.iter().filter(|(_, n)| **n > 1).collect::<Vec<_>>()
        );
        psp.insert(provider, created);
    }

    // Each delivery attempt sent once: one receipt and one recorded attempt per delivery.
    let deliveries: Vec<(String, String, String, i64)> =
        sqlx::query_as("select id, body, status, attempts from webhook_deliveries")
            .fetch_all(&db.read)
            .await
            .unwrap();
    let attempts: i64 = sqlx::query_scalar("select count(*) from webhook_attempts")
        .fetch_one(&db.read)
        .await
        .unwrap();
    let received = live.receiver.received();
    let mut receipts: HashMap<&str, usize> = HashMap::new();
    for r in &received {
        pixgate_webhook::verify(&live.secret, &r.headers, &r.body, r.at)
            .unwrap_or_else(|e| panic!("a delivery does not verify: {e}"));
        *receipts
            .entry(r.header("x-service-delivery").unwrap())
            .or_default() += 1;
    }
    let duplicates: Vec<_> = receipts.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        duplicates.is_empty(),
        "deliveries received more than once: {duplicates:?}"
    );
    for (id, _, status, tries) in &deliveries {
        assert_eq!(status, "DELIVERED", "{id}");
        assert_eq!(*tries, 1, "{id}: attempts");
        assert_eq!(receipts.get(id.as_str()), Some(&1), "{id} received");
    }
    assert_eq!(received.len(), deliveries.len());
    assert_eq!(attempts as usize, deliveries.len(), "attempts recorded");

    // The reconcilers: every paid charge moved once, with one event, counted once.
    let events: Vec<(String, String)> =
        sqlx::query_as("select payment_intent_id, type from payment_events")
            .fetch_all(&db.read)
            .await
            .unwrap();
    let mut succeeded: HashMap<&str, usize> = HashMap::new();
    for (intent, kind) in &events {
        if kind == "payment.succeeded" {
            *succeeded.entry(intent).or_default() += 1;
        }
    }
    assert_eq!(succeeded.len(), paid.len(), "payment.succeeded events");
    assert!(succeeded.values().all(|&n| n == 1), "{succeeded:?}");
    let mut metrics = Vec::new();
    for server in instances {
        metrics.push(server.metrics().await);
    }
    let transitions: Vec<u64> = metrics
        .iter()
        .map(|m| counter(m, "pixgate_live_intents_total", &["status=\"SUCCEEDED\""]))
        .collect();
    assert_eq!(
        transitions.iter().sum::<u64>(),
        paid.len() as u64,
        "SUCCEEDED transitions counted by the instances: {transitions:?}"
    );
    let reads: Vec<(String, i64, i64)> = sqlx::query_as(
        "select payment_intent_id, created_at, duration_ms from psp_calls \
         where operation = 'get_cob' order by payment_intent_id, created_at",
    )
    .fetch_all(&db.read)
    .await
    .unwrap();
    for pair in reads.windows(2) {
        let ((a, a_at, a_ms), (b, b_at, _)) = (&pair[0], &pair[1]);
        assert!(
            a != b || a_at + a_ms <= *b_at + 1,
            "two reads of intent {a} at its PSP overlap: at {a_at} for {a_ms} ms, and at {b_at}"
        );
    }
    let get_cob: Vec<u64> = metrics
        .iter()
        .map(|m| counter(m, "pixgate_psp_calls_total", &["operation=\"get_cob\""]))
        .collect();
    let sent: Vec<u64> = metrics
        .iter()
        .map(|m| counter(m, "pixgate_webhook_attempts_total", &[]))
        .collect();
    assert_eq!(
        sent.iter().sum::<u64>(),
        deliveries.len() as u64,
        "{sent:?}"
    );
    let mut converge_ms: Vec<u128> = convergence.iter().map(Duration::as_millis).collect();
    converge_ms.sort_unstable();
    let percentile = |p: usize| converge_ms[(converge_ms.len() - 1) * p / 100];
    eprintln!(
        "harness-multi-instance: 3 instances, {seconds} s, clients {clients}; requests {} \
         (answered per instance {:?}), keys {} (LIVE {}), replays {}, 409 in use {}; PSP charges \
         {psp:?}; paid {}, SUCCEEDED transitions per instance {transitions:?}, PSP reads per \
         instance {get_cob:?} ({} in all, none overlapping); deliveries {}, attempts {attempts}, \
         receipts {} (duplicates 0), sent per instance {sent:?}; activations {round}, \
         convergence on all three ms: median {}, p90 {}, max {}",
        ledger.requests,
        ledger.per_instance,
        ledger.keys.len(),
        ledger.keys.values().filter(|(l, _)| *l).count(),
        ledger.replays,
        ledger.in_use,
        paid.len(),
        reads.len(),
        deliveries.len(),
        received.len(),
        percentile(50),
        percentile(90),
        percentile(100),
    );
}
