//! Group commit under a crash: charges are answered only after the transaction holding them
//! has committed, so a SIGKILL in the middle of the batches loses none that was answered,
//! leaves nothing half-written, and a retry of an unanswered key charges at most once.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pixgate_e2e::server::{Backend, Options, Server, backends, charge_body};

/// Concurrent clients, enough to fill batches of many charges.
const CLIENTS: usize = 48;

#[tokio::test(flavor = "multi_thread")]
async fn every_answered_charge_survives_a_kill_in_the_middle_of_the_batches() {
    sqlx::any::install_default_drivers();
    for backend in backends() {
        let env = [("PIXGATE_RATE_LIMIT_PER_SECOND", "0")];
        let mut server = Server::start_with(backend, &env).await;
        let key = server.demo_key.clone();
        let body = charge_body("demo-store");
        let sent = Arc::new(Mutex::new(Vec::<String>::new()));
        let answered = Arc::new(Mutex::new(HashMap::<String, String>::new()));
        let mut clients = Vec::new();
        for client in 0..CLIENTS {
            let (http, base) = (server.client.clone(), server.base.clone());
            let (key, body) = (key.clone(), body.clone());
            let (sent, answered) = (sent.clone(), answered.clone());
            clients.push(tokio::spawn(async move {
                for n in 0.. {
                    let idem = format!("crash-{client}-{n}");
                    sent.lock().unwrap().push(idem.clone());
                    let Ok(r) = http
                        .post(format!("{base}/payments/charge"))
                        .bearer_auth(&key)
                        .header("Idempotency-Key", &idem)
                        .json(&body)
                        .send()
                        .await
                    else {
                        return; // the server is gone
                    };
                    let status = r.status().as_u16();
                    let Ok(b) = r.json::<serde_json::Value>().await else {
                        return;
                    };
                    assert_eq!(status, 200, "{b}");
                    let id = b["data"]["paymentIntentId"].as_str().unwrap().to_owned();
                    answered.lock().unwrap().insert(idem, id);
                }
            }));
        }
        // Let batches form, and make sure they did hold several charges each.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let metrics = loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if answered.lock().unwrap().len() >= 400 {
                break server.metrics().await;
            }
            assert!(
                std::time::Instant::now() < deadline && clients.iter().all(|c| !c.is_finished()),
                "{backend:?}: the charges stopped before 400 were answered"
            );
        };
        let (sum, count) = histogram(&metrics, "pixgate_commit_batch_size");
        assert!(
            sum > count,
            "{backend:?}: batches of one charge only ({sum} charges in {count} commits)"
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
        let data_dir = server.kill_hard();
        for client in clients {
            client.await.unwrap();
        }
        let sent = sent.lock().unwrap().clone();
        let answered = answered.lock().unwrap().clone();
        eprintln!(
            "{backend:?}: {} charges answered, {} sent, {:.1} charges per commit before the kill",
            answered.len(),
            sent.len(),
            sum / count
        );

        let server = Server::launch(Options {
            database_url: (!server.database_url.is_empty()).then(|| server.database_url.clone()),
            env: server.env.clone(),
            data_dir: Some(data_dir),
        });
        let stored = stored_charges(&server, backend).await;
        // Every answered charge is there, under its key, with the intent it was answered with.
        for (idem, id) in &answered {
            assert_eq!(stored.get(idem), Some(id), "{backend:?}: {idem} was lost");
        }
        // Nothing else: only keys that were sent, each once (the unanswered ones that committed
        // before the kill are whole, checked by `stored_charges`).
        let sent_keys: HashSet<&String> = sent.iter().collect();
        assert!(stored.keys().all(|k| sent_keys.contains(k)), "{backend:?}");
        // A retry of any key sent, answered or not, charges at most once: the same intent for
        // the answered and committed ones, a new one for those that never committed.
        for idem in &sent {
            let (status, b) = server.charge(&key, idem, &body).await;
            assert_eq!(status, 200, "{backend:?} {b}");
            let id = b["data"]["paymentIntentId"].as_str().unwrap();
            match stored.get(idem) {
                Some(before) => {
                    assert_eq!(id, before, "{backend:?}: {idem}");
                    assert_eq!(b["data"]["idempotentReplay"], true);
                }
                None => assert_eq!(b["data"]["idempotentReplay"], false),
            }
        }
        let after = stored_charges(&server, backend).await;
        assert_eq!(after.len(), sent.len(), "{backend:?}: one intent per key");
    }
}

/// `(sum, count)` of a Prometheus histogram in the text format.
fn histogram(metrics: &str, name: &str) -> (f64, f64) {
    let value = |suffix: &str| {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}_{suffix} ")))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .unwrap_or_else(|| panic!("{name}_{suffix} in the metrics:\n{metrics}"))
    };
    (value("sum"), value("count"))
}

/// Idempotency-Key → intent id of every stored charge. Panics on a half-written one: an
/// intent without its idempotency record or trace, or a record without its intent.
async fn stored_charges(server: &Server, backend: Backend) -> HashMap<String, String> {
    let db = server.open_db().await;
    let rows: Vec<(String, String, Option<String>, Option<String>)> = sqlx::query_as(
        "select i.idempotency_key, i.id, r.payment_intent_id, t.payment_intent_id \
         from payment_intents i \
         left join idempotency_records r \
           on r.merchant_id = i.merchant_id and r.idempotency_key = i.idempotency_key \
         left join decision_traces t on t.payment_intent_id = i.id",
    )
    .fetch_all(&db.read)
    .await
    .unwrap();
    let mut stored = HashMap::new();
    for (idem, id, record, trace) in rows {
        assert_eq!(record.as_ref(), Some(&id), "{backend:?}: {idem}'s record");
        assert_eq!(trace.as_ref(), Some(&id), "{backend:?}: {idem}'s trace");
        assert!(
            stored.insert(idem.clone(), id).is_none(),
            "{backend:?}: {idem} twice"
        );
    }
    let records: i64 = sqlx::query_scalar("select count(*) from idempotency_records")
        .fetch_one(&db.read)
        .await
        .unwrap();
    assert_eq!(
        records as usize,
        stored.len(),
        "{backend:?}: records without intents"
    );
    stored
}
