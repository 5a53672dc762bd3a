//! Webhook delivery throughput and commit-to-receipt latency.
//!
//! In one process: pixgate's app (`App::build` + `App::run`, so its real sender) on a fresh
//! SQLite data dir or PostgreSQL database, a local HTTPS receiver with a test CA, and a
//! producer that commits `payment.pending` events through the outbox the way live execution
//! will (one transaction per event, then `wake`). Latency is from the producer's commit to
//! the receiver having read the whole request.
//!
//! ```text
//! cargo bench -p pixgate-e2e --bench webhook_delivery -- --backend sqlite --rate 1000 --seconds 10
//! ```
//! `--rate 0` commits everything up front instead and measures how fast the backlog drains.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use pixgate::config::ServeConfig;
use pixgate_e2e::receiver::{Receiver, TestCa};
use tokio::sync::Mutex;

#[derive(Debug, Parser)]
struct Args {
    /// `sqlite` or `postgres` (needs PIXGATE_TEST_DATABASE_URL).
    #[arg(long, default_value = "sqlite")]
    backend: String,
    /// Events committed per second (open loop); 0: commit them all first, then drain.
    #[arg(long, default_value_t = 1000)]
    rate: u32,
    #[arg(long, default_value_t = 10)]
    seconds: u32,
    /// Events for `--rate 0`.
    #[arg(long, default_value_t = 10_000)]
    events: usize,
    #[arg(long, default_value_t = 64)]
    concurrency: u32,
    /// cargo bench passes `--bench`.
    #[arg(long, hide = true)]
    bench: bool,
}

#[derive(Parser)]
struct Serve {
    #[command(flatten)]
    config: ServeConfig,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    pixgate_e2e::install_tls_provider();
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let data_dir = tempfile::tempdir().unwrap();
    let database_url = match args.backend.as_str() {
        "sqlite" => format!("sqlite://{}", data_dir.path().join("pixgate.db").display()),
        "postgres" => pixgate_e2e::server::fresh_postgres_database().await,
        other => panic!("unknown backend {other}"),
    };
    let ca_file = ca.ca_file().display().to_string();
    let concurrency = args.concurrency.to_string();
    let serve = Serve::parse_from([
        "pixgate",
        "--data-dir",
        &data_dir.path().display().to_string(),
        "--database-url",
        &database_url,
        "--listen",
        "127.0.0.1:0",
        "--admin-listen",
        "127.0.0.1:0",
        "--demo",
        "false",
        "--webhook-ca-file",
        &ca_file,
        "--webhook-allow-cidrs",
        "127.0.0.0/8",
        "--webhook-concurrency",
        &concurrency,
    ]);
    let app = pixgate::app::App::build(&serve.config).await.unwrap();
    let (db, wake) = (app.db(), app.webhook_wake());
    let admin = format!("http://{}/admin/v1", app.admin_addr);
    let base = format!("http://{}/api/v1", app.merchant_addr);
    let token = std::fs::read_to_string(data_dir.path().join("admin-token")).unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run(async {
        let _ = stopped.await;
    }));

    // A merchant, a LIVE store, a key and one endpoint at the receiver.
    let http = reqwest::Client::new();
    let post = |url: String, key: String, body: serde_json::Value| {
        let http = http.clone();
        async move {
            let r = http
                .post(url)
                .bearer_auth(key)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert!(r.status().is_success(), "{}", r.status());
            r.json::<serde_json::Value>().await.unwrap()
        }
    };
    post(
        format!("{admin}/merchants"),
        token.clone(),
        serde_json::json!({"code": "bench", "name": "bench"}),
    )
    .await;
    post(
        format!("{admin}/stores"),
        token.clone(),
        serde_json::json!({"code": "bench-store", "name": "bench", "merchant": "bench", "mode": "LIVE"}),
    )
    .await;
    let key = post(
        format!("{admin}/api-keys"),
        token.clone(),
        serde_json::json!({"merchant": "bench", "stores": ["bench-store"]}),
    )
    .await["data"]["apiKey"]
        .as_str()
        .unwrap()
        .to_owned();
    post(
        format!("{base}/webhook-endpoints"),
        key,
        serde_json::json!({"endpointUrl": receiver.url("/bench"), "events": ["payment.pending"]}),
    )
    .await;

    let committed: Arc<Mutex<HashMap<String, Instant>>> = Arc::default();
    let produce = |reference: String| {
        let db = db.clone();
        let wake = wake.clone();
        let committed = committed.clone();
        async move {
            let id = pixgate_e2e::webhooks::pending_intent(&db, "bench-store", &reference).await;
            let at = Instant::now();
            wake.wake();
            committed.lock().await.insert(id, at);
        }
    };

    let total;
    let started = Instant::now();
    if args.rate == 0 {
        // A backlog: the sender starts on it while it is being written; the rate is taken
        // from the first receipt to the last.
        total = args.events;
        for i in 0..total {
            produce(format!("bench-{i}")).await;
        }
        println!(
            "committed {total} events in {:.2} s",
            started.elapsed().as_secs_f64()
        );
    } else {
        total = (args.rate * args.seconds) as usize;
        let interval = Duration::from_secs_f64(1.0 / f64::from(args.rate));
        let mut tasks = Vec::with_capacity(total);
        for i in 0..total {
            let due = started + interval.mul_f64(i as f64);
            tokio::time::sleep_until(due.into()).await;
            tasks.push(tokio::spawn(produce(format!("bench-{i}"))));
        }
        for t in tasks {
            t.await.unwrap();
        }
        println!(
            "committed {total} events in {:.2} s (offered {} /s)",
            started.elapsed().as_secs_f64(),
            args.rate
        );
    }
    let received = receiver.wait_for(total, Duration::from_secs(600)).await;
    let committed = committed.lock().await;
    let mut latencies: Vec<f64> = Vec::with_capacity(total);
    let first_commit = committed.values().min().copied().unwrap();
    let mut last_receipt = first_commit;
    let mut first_receipt = None::<Instant>;
    for r in &received {
        let body = r.json();
        let id = body["data"]["paymentIntentId"].as_str().unwrap();
        if let Some(at) = committed.get(id) {
            latencies.push(r.instant.saturating_duration_since(*at).as_secs_f64() * 1e3);
        }
        last_receipt = last_receipt.max(r.instant);
        first_receipt = Some(first_receipt.map_or(r.instant, |f| f.min(r.instant)));
    }
    latencies.sort_by(f64::total_cmp);
    let span = last_receipt.duration_since(if args.rate == 0 {
        first_receipt.unwrap()
    } else {
        first_commit
    });
    println!(
        "backend={} rate={} deliveries={} in {:.2} s: {:.0} deliveries/s; commit-to-receipt p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        args.backend,
        args.rate,
        latencies.len(),
        span.as_secs_f64(),
        latencies.len() as f64 / span.as_secs_f64(),
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.90),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(f64::NAN),
    );
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(30), server).await;
}
