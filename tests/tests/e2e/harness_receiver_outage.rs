//! Receiver-outage harness (issue 11): a merchant's HTTPS receiver goes down (its port refuses
//! connections, open connections are cut) for a stretch of a shrunken retry schedule
//! (`PIXGATE_WEBHOOK_RETRY_SCHEDULE`) while LIVE charges (at real PSP simulators) are created
//! and paid, so events keep coming at every point of the schedule; then it comes back. It
//! checks that the receiver gets every event after it recovers, none lost (every event
//! committed has its delivery, every delivery arrives, exactly once, with the stored body),
//! every signature valid (`pixgate_webhook::verify`), and that the outage was real (attempts
//! failed while it lasted, none reached the receiver) and left the endpoint ACTIVE and healthy.
//!
//! Its size comes from the environment, with small defaults for CI: `HARNESS_OUTAGE_SECONDS`
//! (6) and `HARNESS_RETRY_SCHEDULE` (`500ms,1s,2s,3s,4s,5s,5s,5s,5s,5s`; its waits must add
//! up to more than the outage, or deliveries would rightly be exhausted).
//! `harness/receiver-outage.sh` runs a long version against SQLite and PostgreSQL.

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pixgate_e2e::harness_setting;
use pixgate_e2e::live::Live;
use pixgate_e2e::receiver::Receiver;
use pixgate_e2e::server::{Backend, postgres_admin_url};
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};

#[tokio::test(flavor = "multi_thread")]
async fn a_receiver_down_for_a_stretch_of_the_retry_schedule_gets_every_event_after_on_sqlite() {
    run(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_receiver_down_for_a_stretch_of_the_retry_schedule_gets_every_event_after_on_postgresql()
{
    if postgres_admin_url().is_none() {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    run(Backend::Postgres).await;
}

/// A TCP relay on a fixed loopback port in front of the receiver: up, it forwards every
/// connection (TLS passes through untouched); down, its port is closed and the connections it
/// carried are cut, as when the receiver's host is down.
struct Relay {
    addr: SocketAddr,
    target: SocketAddr,
    accept: Option<tokio::task::JoinHandle<()>>,
    connections: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Relay {
    async fn start(target: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut relay = Relay {
            addr: listener.local_addr().unwrap(),
            target,
            accept: None,
            connections: Arc::default(),
        };
        relay.serve(listener);
        relay
    }

    fn serve(&mut self, listener: TcpListener) {
        let (target, connections) = (self.target, self.connections.clone());
        self.accept = Some(tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    continue;
                };
                let carried = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                connections.lock().unwrap().push(carried.abort_handle());
            }
        }));
    }

    async fn down(&mut self) {
        if let Some(accept) = self.accept.take() {
            accept.abort();
            let _ = accept.await;
        }
        for connection in self.connections.lock().unwrap().drain(..) {
            connection.abort();
        }
    }

    async fn up(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        let listener = loop {
            match TcpListener::bind(self.addr).await {
                Ok(listener) => break listener,
                Err(e) => {
                    assert!(Instant::now() < deadline, "rebinding {}: {e}", self.addr);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        };
        self.serve(listener);
    }
}

/// Creates a LIVE charge; when `pay`, pays it at its simulator. The intent id.
async fn charge(live: &Live, key: &str, pay: bool) -> String {
    let (status, answer) = live.charge(key).await;
    assert_eq!(status, 200, "{answer}\n{}", live.server.logs());
    let data = &answer["data"];
    assert_eq!(data["status"], "PENDING", "{answer}");
    if pay {
        let provider = data["routing"]["providerCode"].as_str().unwrap();
        let txid = data["pix"]["txid"].as_str().unwrap();
        live.sim(provider)
            .post(&format!("/cob/{txid}/pay"), json!({}))
            .await;
    }
    data["paymentIntentId"].as_str().unwrap().to_owned()
}

/// `(delivery id, stored body, status, attempts, event type, intent id)` of the endpoint's
/// deliveries.
type Delivery = (String, String, String, i64, String, String);

async fn deliveries(db: &pixgate::db::Db, endpoint: &str) -> Vec<Delivery> {
    sqlx::query_as(
        "select d.id, d.body, d.status, d.attempts, d.event_type, e.payment_intent_id \
         from webhook_deliveries d join payment_events e on e.id = d.event_id \
         where d.endpoint_id = $1",
    )
    .bind(endpoint)
    .fetch_all(&db.read)
    .await
    .unwrap()
}

async fn run(backend: Backend) {
    sqlx::any::install_default_drivers();
    let outage = Duration::from_secs(harness_setting("HARNESS_OUTAGE_SECONDS", 6));
    let schedule = std::env::var("HARNESS_RETRY_SCHEDULE")
        .unwrap_or_else(|_| "500ms,1s,2s,3s,4s,5s,5s,5s,5s,5s".to_owned());
    let waits: Vec<Duration> = schedule
        .split(',')
        .map(|w| humantime_like(w.trim()))
        .collect();
    // With the -20 % jitter, the schedule must still outlast the outage.
    let total: Duration = waits.iter().sum();
    assert!(
        total.mul_f64(0.8) > outage + Duration::from_secs(5),
        "HARNESS_RETRY_SCHEDULE {schedule} ({total:?}) would exhaust deliveries within an \
         outage of {outage:?}"
    );
    let longest = waits.iter().max().copied().unwrap_or_default();
    let env = [
        ("PIXGATE_RATE_LIMIT_PER_SECOND", "0"),
        ("PIXGATE_RECONCILE_INTERVAL", "500ms"),
        ("PIXGATE_WEBHOOK_TIMEOUT", "2s"),
        ("PIXGATE_WEBHOOK_RETRY_SCHEDULE", schedule.as_str()),
        ("PIXGATE_WEBHOOK_POLL_INTERVAL", "200ms"),
    ];
    let live = Live::start(backend, &env).await;
    let receiver = Receiver::start(&live.ca).await;
    let mut relay = Relay::start(receiver.addr).await;
    let url = format!("https://localhost:{}/outage", relay.addr.port());
    let (status, endpoint) = live.server.create_endpoint(&live.key, &url, None).await;
    assert_eq!(status, 201, "{endpoint}");
    let endpoint_id = endpoint["data"]["endpointId"].as_str().unwrap().to_owned();
    let secret = endpoint["data"]["signingSecret"]
        .as_str()
        .unwrap()
        .to_owned();
    let db = live.server.open_db().await;

    // Up: a few charges, paid, all delivered.
    for n in 0..3 {
        charge(&live, &format!("before-{n}"), true).await;
    }
    receiver.wait_for(6, Duration::from_secs(30)).await;
    let before = receiver.count();

    // Down: charges keep coming (half of them paid) for the whole outage.
    relay.down().await;
    let down_at = Instant::now();
    let mut during = 0;
    while down_at.elapsed() < outage {
        charge(&live, &format!("during-{during}"), during % 2 == 0).await;
        during += 1;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    // Let the last payments settle (their events are written while still down).
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(
        receiver.count(),
        before,
        "{backend:?}: the receiver got requests while it was down"
    );
    let failed_meanwhile: Vec<(i64, Option<String>)> = sqlx::query_as(
        "select a.attempt, a.error from webhook_attempts a \
         join webhook_deliveries d on d.id = a.delivery_id \
         where d.endpoint_id = $1 and a.error is not null",
    )
    .bind(&endpoint_id)
    .fetch_all(&db.read)
    .await
    .unwrap();
    assert!(
        !failed_meanwhile.is_empty(),
        "{backend:?}: no attempt failed during the outage"
    );
    let pending_at_recovery = deliveries(&db, &endpoint_id)
        .await
        .iter()
        .filter(|d| d.2 == "PENDING")
        .count();

    // Up again: everything arrives.
    relay.up().await;
    let up_at = Instant::now();
    let bound = longest.mul_f64(1.2) + Duration::from_secs(20);
    let all = loop {
        let all = deliveries(&db, &endpoint_id).await;
        if all.iter().all(|d| d.2 != "PENDING") {
            break all;
        }
        assert!(
            up_at.elapsed() < bound,
            "{backend:?}: {} deliveries still pending {bound:?} after the receiver came back\n{}",
            all.iter().filter(|d| d.2 == "PENDING").count(),
            live.server.logs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let drained = up_at.elapsed();
    tokio::time::sleep(Duration::from_secs(1)).await;

    // None lost: every event of the merchant has its delivery to this endpoint.
    let events: i64 = sqlx::query_scalar(
        "select count(*) from payment_events e join webhook_endpoints w \
         on w.merchant_id = e.merchant_id where w.id = $1",
    )
    .bind(&endpoint_id)
    .fetch_one(&db.read)
    .await
    .unwrap();
    assert_eq!(
        all.len() as i64,
        events,
        "{backend:?}: a delivery per event"
    );
    let intents: Vec<(String, String)> =
        sqlx::query_as("select id, status from payment_intents where txid is not null")
            .fetch_all(&db.read)
            .await
            .unwrap();
    let expected: usize = intents
        .iter()
        .map(|(_, s)| if s == "SUCCEEDED" { 2 } else { 1 })
        .sum();
    assert_eq!(all.len(), expected, "{backend:?}: an event per transition");
    assert_eq!(intents.len(), 3 + during, "{backend:?}: intents");
    let paid = intents.iter().filter(|(_, s)| s == "SUCCEEDED").count();
    assert_eq!(
        paid,
        3 + during.div_ceil(2),
        "{backend:?}: paid intents settled"
    );

    // Every delivery arrived once, signed, with its stored body.
    let received = receiver.received();
    let mut receipts: HashMap<&str, Vec<&pixgate_e2e::receiver::Received>> = HashMap::new();
    for r in &received {
        pixgate_webhook::verify(&secret, &r.headers, &r.body, r.at)
            .unwrap_or_else(|e| panic!("{backend:?}: a delivery does not verify: {e}"));
        receipts
            .entry(r.header("x-service-delivery").unwrap())
            .or_default()
            .push(r);
    }
    let mut attempts_hist: BTreeMap<i64, usize> = BTreeMap::new();
    for (id, body, status, attempts, kind, intent) in &all {
        assert_eq!(status, "DELIVERED", "{backend:?}: {kind} of {intent}");
        let got = receipts
            .get(id.as_str())
            .unwrap_or_else(|| panic!("{backend:?}: {kind} of {intent} never arrived"));
        assert_eq!(
            got.len(),
            1,
            "{backend:?}: {kind} of {intent} arrived {} times",
            got.len()
        );
        assert_eq!(got[0].body, body.as_bytes(), "{backend:?}: {id}'s body");
        *attempts_hist.entry(*attempts).or_default() += 1;
    }
    assert_eq!(
        received.len(),
        all.len(),
        "{backend:?}: nothing else arrived"
    );
    let retried = all.iter().filter(|d| d.3 > 1).count();
    assert!(retried > 0, "{backend:?}: no delivery needed a retry");

    // The endpoint weathered it: still ACTIVE, its failure count back to zero.
    let listed = live.server.listed_endpoint(&live.key, &endpoint_id).await;
    assert_eq!(listed["status"], "ACTIVE", "{listed}");
    assert_eq!(listed["failureCount"], 0, "{listed}");

    let attempts: i64 = all.iter().map(|d| d.3).sum();
    let failed: Vec<(Option<String>,)> = sqlx::query_as(
        "select a.error from webhook_attempts a join webhook_deliveries d \
         on d.id = a.delivery_id where d.endpoint_id = $1 and a.error is not null",
    )
    .bind(&endpoint_id)
    .fetch_all(&db.read)
    .await
    .unwrap();
    let mut errors: BTreeMap<String, usize> = BTreeMap::new();
    for (error,) in &failed {
        let code = error.as_deref().unwrap_or_default();
        let code = code.split(':').next().unwrap_or_default().to_owned();
        *errors.entry(code).or_default() += 1;
    }
    eprintln!(
        "harness-receiver-outage {backend:?}: outage {outage:?}, schedule {schedule}; intents {} \
         (paid {paid}), {during} charges during the outage; events {events}, deliveries {} \
         ({pending_at_recovery} pending at recovery), attempts {attempts} (failed {}: \
         {errors:?}), deliveries by attempts {attempts_hist:?}, retried {retried}; receipts {} \
         (duplicates 0, lost 0, signatures valid); drained {drained:?} after recovery",
        intents.len(),
        all.len(),
        failed.len(),
        received.len(),
    );
}

/// A duration like `500ms`, `2s`, `1m` (the forms the harness settings use).
fn humantime_like(text: &str) -> Duration {
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: u64 = number
        .parse()
        .unwrap_or_else(|_| panic!("`{text}` is not a duration like 500ms, 5s or 2m"));
    match unit {
        "ms" => Duration::from_millis(number),
        "s" => Duration::from_secs(number),
        "m" => Duration::from_secs(60 * number),
        "h" => Duration::from_secs(3600 * number),
        _ => panic!("`{text}` is not a duration like 500ms, 5s or 2m"),
    }
}
