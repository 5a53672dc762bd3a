//! What the person on call reads first, against the real `pixgate serve` on SQLite and
//! PostgreSQL: the landing view's numbers (charges by status, pending LIVE charges by age,
//! stores running a rollout), a payment found by its id, txid or endToEndId, and every
//! merchant's webhook deliveries with the failing ones on a page of their own.

use std::time::{Duration, Instant};

use pixgate_e2e::components::{charge, upload_guest};
use pixgate_e2e::receiver::{Receiver, TestCa};
use pixgate_e2e::server::{Backend, Options, Server, backends, fresh_postgres_database};
use pixgate_e2e::webhooks::{pending_intent, settle};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

async fn start(backend: Backend, env: Vec<(String, String)>) -> Server {
    let database_url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(fresh_postgres_database().await),
    };
    Server::launch(Options {
        database_url,
        env,
        data_dir: None,
    })
}

/// Moves an intent's creation `hours` back, as if it had been made then.
async fn age(db: &pixgate::db::Db, id: &str, hours: i64) {
    sqlx::query("update payment_intents set created_at = created_at - $1 where id = $2")
        .bind(hours * 3_600_000)
        .bind(id)
        .execute(&db.write)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_overview_counts_todays_charges_ages_the_pending_live_ones_and_flags_rollouts() {
    for backend in backends() {
        let server = start(backend, Vec::new()).await;
        // Three SHADOW charges through the merchant API.
        for i in 0..3 {
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &format!("overview-{i}"),
                    &charge("demo-store", &format!("order-{i}"), 10.0 + i as f64),
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }
        // Two LIVE charges pending at their PSP: one just made, one three hours old; and one
        // two days old, outside the window but still pending.
        server
            .merchant_with_store("acme", "acme-live", "LIVE")
            .await;
        let db = server.open_db().await;
        let young = pending_intent(&db, "acme-live", "young").await;
        let old = pending_intent(&db, "acme-live", "old").await;
        age(&db, &old, 3).await;
        let ancient = pending_intent(&db, "acme-live", "ancient").await;
        age(&db, &ancient, 48).await;
        // A shadow candidate on the demo store's provider step.
        let costliest = upload_guest(&server, "provider", "pixgate_fixture_costliest_first").await;
        let (status, body) = server
            .admin(
                reqwest::Method::PUT,
                "/stores/demo-store/components/provider/candidate",
                Some(json!({"version": costliest})),
            )
            .await;
        assert_eq!(status, 200, "{body}");

        let (status, body) = server.admin_get("/overview").await;
        assert_eq!(status, 200, "{body}");
        let o = &body["data"];
        assert_eq!(o["totals"]["charges"], 5, "{backend:?} {o}");
        assert_eq!(o["totals"]["byStatus"]["SHADOW_ONLY"], 3, "{o}");
        assert_eq!(o["totals"]["byStatus"]["PENDING"], 2, "{o}");
        assert_eq!(o["totals"]["byStatus"]["SUCCEEDED"], 0, "{o}");
        // 10 + 11 + 12 reais and two charges of 129.90.
        assert_eq!(o["totals"]["amountCentavos"], 3_300 + 2 * 12_990, "{o}");
        let series = o["series"].as_array().unwrap();
        let in_series: i64 = series.iter().map(|b| b["charges"].as_i64().unwrap()).sum();
        assert_eq!(in_series, 5, "{o}");
        assert!(
            series.len() >= 2,
            "the old charge is in a bucket of its own: {o}"
        );
        assert_eq!(o["bucketSeconds"], 1_800, "a day in half hours: {o}");

        let pending = &o["pendingLive"];
        assert_eq!(pending["count"], 3, "{o}");
        let ages: Vec<(String, i64)> = pending["byAge"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a["label"].as_str().unwrap().to_owned(),
                    a["count"].as_i64().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            ages,
            [
                ("under 5 min".to_owned(), 1),
                ("5 to 30 min".to_owned(), 0),
                ("30 min to 2 h".to_owned(), 0),
                ("2 to 24 h".to_owned(), 1),
                ("over 24 h".to_owned(), 1),
            ]
        );
        let oldest: Vec<&str> = pending["oldest"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["paymentIntentId"].as_str().unwrap())
            .collect();
        assert_eq!(oldest, [ancient.as_str(), old.as_str(), young.as_str()]);
        assert_eq!(pending["oldest"][0]["merchant"], "acme");

        let flagged = o["flaggedStores"].as_array().unwrap();
        assert_eq!(flagged.len(), 1, "{o}");
        assert_eq!(flagged[0]["store"], "demo-store");
        assert_eq!(flagged[0]["candidates"][0]["step"], "provider");
        assert_eq!(flagged[0]["candidates"][0]["version"], costliest.as_str());
        assert_eq!(flagged[0]["canaries"], json!([]));

        // A narrower window leaves the three-hour-old charge out.
        let (_, body) = server.admin_get("/overview?hours=1").await;
        assert_eq!(body["data"]["totals"]["charges"], 4, "{body}");
        assert_eq!(body["data"]["bucketSeconds"], 300, "{body}");
        for bad in ["0", "169", "1.5", "a day"] {
            let (status, body) = server
                .admin_get(&format!("/overview?hours={}", bad.replace(' ', "%20")))
                .await;
            assert_eq!(status, 400, "{bad}: {body}");
            assert_eq!(body["error"]["code"], "invalid_hours", "{body}");
            assert_eq!(body["error"]["field"], "hours", "{body}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_payment_is_found_by_its_id_its_txid_or_its_end_to_end_id() {
    for backend in backends() {
        let server = start(backend, Vec::new()).await;
        server
            .merchant_with_store("acme", "acme-live", "LIVE")
            .await;
        let db = server.open_db().await;
        let paid = pending_intent(&db, "acme-live", "paid").await;
        let txid = "pixgate0a1b2c3d4e5f6a7b8c9d0e1f2a";
        sqlx::query("update payment_intents set txid = $1 where id = $2")
            .bind(txid)
            .bind(&paid)
            .execute(&db.write)
            .await
            .unwrap();
        // Settling records the PSP's endToEndId as the payment's id at the provider.
        settle(&db, &paid, "SUCCEEDED").await;

        let found = |q: String| {
            let server = &server;
            async move {
                let (status, body) = server.admin_get(&format!("/lookup?q={q}")).await;
                assert_eq!(status, 200, "{q}: {body}");
                body["data"].as_array().unwrap().clone()
            }
        };
        for (q, by) in [
            (paid.clone(), "paymentIntentId"),
            (txid.to_owned(), "txid"),
            ("E2E-PSP-1".to_owned(), "endToEndId"),
        ] {
            let matches = found(q.clone()).await;
            assert_eq!(matches.len(), 1, "{backend:?} {q}: {matches:?}");
            assert_eq!(matches[0]["paymentIntentId"], paid.as_str());
            assert_eq!(matches[0]["matchedBy"], by);
            assert_eq!(matches[0]["merchant"], "acme");
            assert_eq!(matches[0]["status"], "SUCCEEDED");
        }
        assert_eq!(
            found(uuid::Uuid::new_v4().to_string()).await,
            Vec::<Value>::new()
        );
        assert_eq!(
            found("E2E00000000000000000000000000000".into()).await.len(),
            0
        );
        for bad in ["", "a%20b", &"x".repeat(65), "%C3%A9"] {
            let (status, body) = server.admin_get(&format!("/lookup?q={bad}")).await;
            assert_eq!(status, 400, "{bad}: {body}");
            assert_eq!(body["error"]["code"], "invalid_q", "{body}");
        }
        let (status, body) = server.admin_get("/lookup").await;
        assert_eq!((status, &body["error"]["code"]), (400, &json!("invalid_q")));
    }
}

/// The admin's delivery list, once `done` holds for it.
async fn deliveries_once(
    server: &Server,
    query: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let deadline = Instant::now() + WAIT;
    loop {
        let (status, body) = server
            .admin_get(&format!("/webhook-deliveries{query}"))
            .await;
        assert_eq!(status, 200, "{body}");
        let list = body["data"].as_array().unwrap().clone();
        if done(&list) {
            return list;
        }
        assert!(Instant::now() < deadline, "{query}: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn failing_webhook_deliveries_are_listed_on_their_own_with_their_endpoint_and_payment() {
    for backend in backends() {
        let ca = TestCa::new();
        let receiver = Receiver::start(&ca).await;
        // A port nothing listens on: every attempt there fails at once.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let dead_url = format!(
            "https://127.0.0.1:{}/hooks",
            closed.local_addr().unwrap().port()
        );
        drop(closed);
        let server = start(
            backend,
            vec![
                (
                    "PIXGATE_WEBHOOK_CA_FILE".into(),
                    ca.ca_file().display().to_string(),
                ),
                ("PIXGATE_WEBHOOK_ALLOW_CIDRS".into(), "127.0.0.0/8".into()),
                ("PIXGATE_WEBHOOK_POLL_INTERVAL".into(), "50ms".into()),
            ],
        )
        .await;
        let acme = server
            .merchant_with_store("acme", "acme-live", "LIVE")
            .await;
        let (status, body) = server
            .create_endpoint(&acme, &receiver.url("/hooks"), None)
            .await;
        assert_eq!(status, 201, "{body}");
        // The other merchant's endpoint is registered by an admin, and it is down.
        server
            .merchant_with_store("bazar", "bazar-live", "LIVE")
            .await;
        let (status, body) = server
            .admin_post(
                "/merchants/bazar/webhook-endpoints",
                json!({"name": "bazar orders", "endpointUrl": dead_url}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["data"]["merchant"], "bazar");
        assert!(
            body["data"]["signingSecret"]
                .as_str()
                .unwrap()
                .starts_with("whsec_")
        );
        let (_, audit) = server
            .admin_get("/audit-events?action=webhook_endpoint.create")
            .await;
        assert_eq!(audit["data"].as_array().unwrap().len(), 1, "{audit}");
        assert!(
            !audit.to_string().contains("whsec_"),
            "no secret in the trail: {audit}"
        );

        let db = server.open_db().await;
        let good = pending_intent(&db, "acme-live", "good").await;
        let bad = pending_intent(&db, "bazar-live", "bad").await;
        receiver.wait_for(1, WAIT).await;

        // Delivered first: on a loaded machine the good endpoint's first attempt may time out
        // and be retried, which lists it as failing until the retry lands.
        let delivered = deliveries_once(&server, "?state=delivered", |list| !list.is_empty()).await;
        assert_eq!(delivered.len(), 1, "{delivered:?}");
        assert_eq!(delivered[0]["paymentIntentId"], good.as_str());
        assert_eq!(delivered[0]["merchant"], "acme");
        assert_eq!(delivered[0]["endpointName"], "orders");

        let failing = deliveries_once(&server, "?state=failing", |list| !list.is_empty()).await;
        assert_eq!(failing.len(), 1, "{backend:?} {failing:?}");
        let d = &failing[0];
        assert_eq!(d["merchant"], "bazar");
        assert_eq!(d["endpointName"], "bazar orders");
        assert_eq!(d["endpointUrl"], dead_url.as_str());
        assert_eq!(d["paymentIntentId"], bad.as_str());
        assert_eq!(d["event"], "payment.pending");
        assert_eq!(d["status"], "PENDING", "retrying: {d}");
        assert!(d["attemptCount"].as_i64().unwrap() >= 1, "{d}");
        assert!(d["lastError"].as_str().is_some(), "{d}");

        // All of them, newest first, a page at a time; and one merchant's.
        let all = deliveries_once(&server, "", |list| list.len() == 2).await;
        let (_, first) = server.admin_get("/webhook-deliveries?limit=1").await;
        assert_eq!(
            first["data"][0]["deliveryId"], all[0]["deliveryId"],
            "{first}"
        );
        let after = first["data"][0]["deliveryId"].as_str().unwrap().to_owned();
        let (_, second) = server
            .admin_get(&format!("/webhook-deliveries?limit=1&after={after}"))
            .await;
        assert_eq!(
            second["data"][0]["deliveryId"], all[1]["deliveryId"],
            "{second}"
        );
        let mut payments: Vec<&str> = all
            .iter()
            .map(|d| d["paymentIntentId"].as_str().unwrap())
            .collect();
        payments.sort_unstable();
        let mut expected = [good.as_str(), bad.as_str()];
        expected.sort_unstable();
        assert_eq!(payments, expected);
        let (_, acme_only) = server.admin_get("/webhook-deliveries?merchant=acme").await;
        assert_eq!(
            acme_only["data"].as_array().unwrap().len(),
            1,
            "{acme_only}"
        );

        for (query, code, status) in [
            ("state=broken", "invalid_state", 400),
            ("merchant=nobody", "merchant_not_found", 404),
            ("merchant=a%20b", "invalid_merchant", 400),
            ("limit=0", "invalid_limit", 400),
            ("after=42", "invalid_after", 400),
            ("color=red", "unknown_field", 400),
        ] {
            let (s, body) = server
                .admin_get(&format!("/webhook-deliveries?{query}"))
                .await;
            assert_eq!(
                (s, body["error"]["code"].as_str()),
                (status, Some(code)),
                "{query}: {body}"
            );
        }
        // The admin's endpoint list of a merchant: what it registered.
        let (status, body) = server.admin_get("/merchants/bazar/webhook-endpoints").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"][0]["name"], "bazar orders");
        assert!(!body.to_string().contains("whsec_"), "{body}");
        for path in [
            "/merchants/nobody/webhook-endpoints",
            "/merchants/a%20b/webhook-endpoints",
        ] {
            let (status, body) = server
                .admin_post(path, json!({"endpointUrl": dead_url}))
                .await;
            assert_eq!(
                (status, body["error"]["code"].as_str()),
                (404, Some("merchant_not_found")),
                "{path}"
            );
        }
        let (status, body) = server
            .admin_post(
                "/merchants/bazar/webhook-endpoints",
                json!({"merchant": "bazar", "endpointUrl": dead_url}),
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("unknown_field")),
            "{body}"
        );
    }
}

/// `pixgate admin ARGS` against the server's admin API; the output and the exit status.
fn cli(server: &Server, args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(pixgate_e2e::pixgate_bin())
        .arg("admin")
        .args(args)
        .env_clear()
        .env("PIXGATE_ADMIN_URL", server.admin_root())
        .env("PIXGATE_ADMIN_TOKEN", &server.admin_token)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The command's JSON answer (`--json`), which must have succeeded.
fn cli_json(server: &Server, args: &[&str]) -> Value {
    let (ok, stdout, stderr) = cli(server, args);
    assert!(ok, "{args:?}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?} not JSON ({e}): {stdout}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn an_operator_onboards_a_merchant_from_the_cli_without_curl() {
    let server = start(Backend::Sqlite, Vec::new()).await;
    let (ok, help, _) = cli(&server, &["--help"]);
    assert!(ok);
    for command in [
        "merchants",
        "stores",
        "api-keys",
        "gateways",
        "providers",
        "webhook-endpoints",
        "webhook-deliveries",
        "payment-intents",
        "operators",
        "audit",
    ] {
        assert!(
            help.contains(command),
            "`admin --help` names {command}: {help}"
        );
    }

    // A merchant and a store, as tables, then as the API's JSON.
    let (ok, text, stderr) = cli(
        &server,
        &[
            "merchants",
            "create",
            "--code",
            "padaria",
            "--name",
            "Padaria",
        ],
    );
    assert!(
        ok && text.contains("CODE") && text.contains("padaria"),
        "{text}{stderr}"
    );
    let merchants = cli_json(&server, &["merchants", "list", "--json"]);
    assert!(
        merchants
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["code"] == "padaria")
    );
    let store = cli_json(
        &server,
        &[
            "stores",
            "create",
            "--code",
            "padaria-web",
            "--name",
            "Padaria web",
            "--merchant",
            "padaria",
            "--mode",
            "SHADOW",
            "--config",
            "routing.policy=lowest-cost",
            "--json",
        ],
    );
    assert_eq!(store["config"]["routing.policy"], "lowest-cost", "{store}");
    let store = cli_json(
        &server,
        &[
            "stores",
            "update",
            "padaria-web",
            "--name",
            "Padaria Pao Quente",
            "--json",
        ],
    );
    assert_eq!(store["name"], "Padaria Pao Quente");
    assert_eq!(store["mode"], "SHADOW", "what was not given stays: {store}");
    let store = cli_json(
        &server,
        &[
            "stores",
            "gateways",
            "padaria-web",
            "--gateway",
            "sandbox-a-d0",
            "--json",
        ],
    );
    assert_eq!(store["gateways"], json!(["sandbox-a-d0"]));
    let shown = cli_json(&server, &["stores", "show", "padaria-web", "--json"]);
    assert_eq!(shown["gateways"], json!(["sandbox-a-d0"]));
    // A bad value is the API's refusal, on standard error, with exit status 1.
    let (ok, _, stderr) = cli(
        &server,
        &[
            "stores",
            "create",
            "--code",
            "x",
            "--name",
            "x",
            "--merchant",
            "padaria",
            "--mode",
            "TEST",
        ],
    );
    assert!(!ok && stderr.contains("mode"), "{stderr}");

    // A key printed alone, which charges at once.
    let (ok, key, stderr) = cli(
        &server,
        &[
            "api-keys",
            "create",
            "--merchant",
            "padaria",
            "--store",
            "padaria-web",
            "--secret-only",
        ],
    );
    assert!(ok, "{stderr}");
    let key = key.trim().to_owned();
    assert!(key.starts_with("pxg_") && !key.contains(' '), "{key}");
    let (status, body) = server
        .charge(&key, "cli-1", &charge("padaria-web", "order-1", 12.5))
        .await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["paymentIntentId"].as_str().unwrap().to_owned();
    let keys = cli_json(
        &server,
        &["api-keys", "list", "--merchant", "padaria", "--json"],
    );
    assert_eq!(keys.as_array().unwrap().len(), 1);
    assert!(!keys.to_string().contains(&key), "never the secret again");
    let key_id = keys[0]["keyId"].as_str().unwrap().to_owned();

    // Gateways: a new one, changed, listed.
    let gateway = cli_json(
        &server,
        &[
            "gateways",
            "create",
            "--provider",
            "sandbox-a",
            "--alias",
            "sandbox-a-d2",
            "--release-class",
            "D2",
            "--mdr-bps",
            "80",
            "--fixed-centavos",
            "5",
            "--json",
        ],
    );
    assert_eq!(gateway["feeTerms"]["mdrBps"], 80, "{gateway}");
    let gateway = cli_json(
        &server,
        &[
            "gateways",
            "update",
            "sandbox-a-d2",
            "--active",
            "false",
            "--json",
        ],
    );
    assert_eq!(gateway["active"], false);
    let (ok, text, _) = cli(&server, &["gateways", "list"]);
    assert!(
        ok && text.contains("sandbox-a-d2") && text.contains("D2"),
        "{text}"
    );

    // A webhook endpoint with its secret printed alone; listed without it.
    let (ok, secret, stderr) = cli(
        &server,
        &[
            "webhook-endpoints",
            "create",
            "--merchant",
            "padaria",
            "--name",
            "orders",
            "--url",
            "https://padaria.example/hooks",
            "--event",
            "payment.succeeded",
            "--secret-only",
        ],
    );
    assert!(
        ok && secret.trim().starts_with("whsec_"),
        "{secret}{stderr}"
    );
    let endpoints = cli_json(
        &server,
        &[
            "webhook-endpoints",
            "list",
            "--merchant",
            "padaria",
            "--json",
        ],
    );
    assert_eq!(endpoints[0]["events"], json!(["payment.succeeded"]));
    assert!(!endpoints.to_string().contains(secret.trim()));
    let (ok, text, _) = cli(
        &server,
        &["webhook-deliveries", "list", "--state", "failing"],
    );
    assert!(ok && text.contains("no webhook deliveries"), "{text}");

    // The charge found by its id, as a table.
    let (ok, text, _) = cli(&server, &["payment-intents", "find", &id]);
    assert!(
        ok && text.contains(&id) && text.contains("order-1"),
        "{text}"
    );
    let (ok, text, _) = cli(&server, &["payment-intents", "find", "nothing-here"]);
    assert!(ok && text.contains("no payment has"), "{text}");
    let trace = cli_json(&server, &["payment-intents", "trace", &id]);
    assert!(trace["policy"]["component"].is_string(), "{trace}");

    // Revoked at once: the key charges no more.
    let revoked = cli_json(&server, &["api-keys", "revoke", &key_id, "--json"]);
    assert!(revoked["revokedAt"].is_string(), "{revoked}");
    let (status, _) = server
        .charge(&key, "cli-2", &charge("padaria-web", "order-2", 12.5))
        .await;
    assert_eq!(status, 401);
}
