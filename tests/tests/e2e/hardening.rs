//! The security review's findings (issue 11), each against the real `pixgate serve`: slow
//! clients are cut off and connections bounded; the webhook test route shares the sender's
//! limit; endpoints are capped and listed a page at a time; NUL never reaches SQL; amounts are
//! judged as written; scope and Idempotency-Key come before the body; a revoke wins over a
//! waiting test and never deadlocks with the recorder; old data is purged.

use std::time::Duration;

use pixgate_e2e::receiver::{Receiver, TestCa};
use pixgate_e2e::server::{Backend, Server, backends};
use pixgate_e2e::webhooks::pending_intent;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn start(backend: Backend, env: Vec<(String, String)>) -> Server {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    Server::start_with(backend, &env).await
}

fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Webhook settings for a receiver on loopback with the test CA.
fn webhook_env(ca: &TestCa, more: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut all = env(&[
        ("PIXGATE_WEBHOOK_ALLOW_CIDRS", "127.0.0.0/8, ::1/128"),
        ("PIXGATE_WEBHOOK_POLL_INTERVAL", "50ms"),
        ("PIXGATE_WEBHOOK_TIMEOUT", "5s"),
    ]);
    all.push((
        "PIXGATE_WEBHOOK_CA_FILE".into(),
        ca.ca_file().display().to_string(),
    ));
    all.extend(env(more));
    all
}

/// `host:port` of a listener root such as `http://127.0.0.1:4321`.
fn host_port(root: &str) -> String {
    root.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned()
}

/// Reads until the peer closes or `limit` passes: what arrived, and whether it closed.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, bool) {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return (String::from_utf8_lossy(&out).into_owned(), false),
            Ok(Ok(0) | Err(_)) => return (String::from_utf8_lossy(&out).into_owned(), true),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
        }
    }
}

async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !check().await {
        assert!(std::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A merchant `shop` with a SHADOW store and an endpoint at `url`: its key and the endpoint id.
async fn shop_with_endpoint(server: &Server, url: &str) -> (String, String) {
    let key = server
        .merchant_with_store("shop", "shop-store", "SHADOW")
        .await;
    let (s, b) = server.create_endpoint(&key, url, None).await;
    assert_eq!(s, 201, "{b}");
    (key, b["data"]["endpointId"].as_str().unwrap().to_owned())
}

// Finding 1: slow clients.

#[tokio::test(flavor = "multi_thread")]
async fn a_client_that_never_finishes_its_headers_is_cut_off_on_both_listeners() {
    let server = start(
        Backend::Sqlite,
        env(&[("PIXGATE_HEADER_READ_TIMEOUT", "1s")]),
    )
    .await;
    for root in [server.merchant_root(), server.admin_root()] {
        let mut half = TcpStream::connect(host_port(&root)).await.unwrap();
        half.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        let (_, closed) = read_until_closed(&mut half, Duration::from_secs(20)).await;
        assert!(closed, "{root}: half a header holds the connection open");
        // A connection that never sends anything is idle, and goes the same way.
        let mut idle = TcpStream::connect(host_port(&root)).await.unwrap();
        let (_, closed) = read_until_closed(&mut idle, Duration::from_secs(20)).await;
        assert!(closed, "{root}: an idle connection is held open");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_body_that_stops_arriving_is_answered_408() {
    let server = start(Backend::Sqlite, env(&[("PIXGATE_BODY_READ_TIMEOUT", "1s")])).await;
    let cases = [
        (
            server.merchant_root(),
            format!(
                "POST /api/v1/payments/charge HTTP/1.1\r\nHost: x\r\n\
                 Authorization: Bearer {}\r\nIdempotency-Key: slow-1\r\n\
                 Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{",
                server.demo_key
            ),
        ),
        (
            server.admin_root(),
            format!(
                "POST /admin/v1/components/policy HTTP/1.1\r\nHost: x\r\n\
                 Authorization: Bearer {}\r\nContent-Type: application/wasm\r\n\
                 Content-Length: 5000\r\n\r\n\0asm",
                server.admin_token
            ),
        ),
    ];
    for (root, request) in cases {
        let mut tcp = TcpStream::connect(host_port(&root)).await.unwrap();
        tcp.write_all(request.as_bytes()).await.unwrap();
        let (answer, _) = read_until_closed(&mut tcp, Duration::from_secs(20)).await;
        assert!(answer.starts_with("HTTP/1.1 408"), "{root}: {answer}");
        assert!(answer.contains("\"code\":\"request_timeout\""), "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn connections_past_the_bound_wait_until_one_closes() {
    let server = start(
        Backend::Sqlite,
        env(&[
            ("PIXGATE_MAX_CONNECTIONS", "2"),
            ("PIXGATE_HEADER_READ_TIMEOUT", "60s"),
        ]),
    )
    .await;
    let admin = host_port(&server.admin_root());
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut tcp = TcpStream::connect(&admin).await.unwrap();
        tcp.write_all(b"GET /healthz HTTP/1.1\r\n").await.unwrap();
        held.push(tcp);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut third = TcpStream::connect(&admin).await.unwrap();
    third
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let (answer, _) = read_until_closed(&mut third, Duration::from_secs(1)).await;
    assert_eq!(
        answer, "",
        "a third connection was served past the bound of two"
    );
    drop(held.pop());
    let (answer, _) = read_until_closed(&mut third, Duration::from_secs(20)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

// Finding 2: the test route, the endpoint cap, the list's pages.

#[tokio::test(flavor = "multi_thread")]
async fn parallel_webhook_tests_share_the_sender_concurrency_limit() {
    let ca = TestCa::new();
    for backend in backends() {
        let receiver = Receiver::start(&ca).await;
        receiver.delay(Duration::from_millis(300));
        let server = start(
            backend,
            webhook_env(&ca, &[("PIXGATE_WEBHOOK_CONCURRENCY", "2")]),
        )
        .await;
        let (key, id) = shop_with_endpoint(&server, &receiver.url("/hooks")).await;
        let server = std::sync::Arc::new(server);
        let mut tests = tokio::task::JoinSet::new();
        for _ in 0..12 {
            let (server, key, id) = (server.clone(), key.clone(), id.clone());
            tests.spawn(async move { server.endpoint_action(&key, &id, "test").await });
        }
        while let Some(done) = tests.join_next().await {
            let (s, b) = done.unwrap();
            assert_eq!(s, 200, "{b}");
            assert_eq!(b["data"]["status"], "DELIVERED", "{b}");
        }
        assert_eq!(receiver.count(), 12);
        assert!(
            receiver.max_in_flight() <= 2,
            "{} test attempts were in flight at once with PIXGATE_WEBHOOK_CONCURRENCY=2",
            receiver.max_in_flight()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn endpoints_are_capped_per_merchant_and_listed_a_page_at_a_time() {
    for backend in backends() {
        let server = start(backend, env(&[("PIXGATE_WEBHOOK_MAX_ENDPOINTS", "3")])).await;
        let key = server
            .merchant_with_store("shop", "shop-store", "SHADOW")
            .await;
        let server = std::sync::Arc::new(server);
        // Created all at once: exactly the cap gets through.
        let mut creations = tokio::task::JoinSet::new();
        for i in 0..8 {
            let (server, key) = (server.clone(), key.clone());
            creations.spawn(async move {
                let url = format!("https://shop.example/hooks/{i}");
                server.create_endpoint(&key, &url, None).await
            });
        }
        let mut created = Vec::new();
        while let Some(done) = creations.join_next().await {
            let (s, b) = done.unwrap();
            match s {
                201 => created.push(b["data"]["endpointId"].as_str().unwrap().to_owned()),
                409 => assert_eq!(b["error"]["code"], "endpoint_limit_reached", "{b}"),
                _ => panic!("{s} {b}"),
            }
        }
        assert_eq!(created.len(), 3, "{created:?}");
        // A revoked endpoint leaves room for another.
        let (s, _) = server.endpoint_action(&key, &created[0], "revoke").await;
        assert_eq!(s, 200);
        let (s, b) = server
            .create_endpoint(&key, "https://shop.example/hooks/new", None)
            .await;
        assert_eq!(s, 201, "{b}");
        let (s, b) = server
            .create_endpoint(&key, "https://shop.example/hooks/more", None)
            .await;
        assert_eq!(
            (s, &b["error"]["code"]),
            (409, &json!("endpoint_limit_reached"))
        );

        // Four endpoints (one revoked), three to a page.
        let list = |query: String| {
            let (server, key) = (server.clone(), key.clone());
            async move {
                server
                    .merchant(
                        reqwest::Method::GET,
                        &format!("/webhook-endpoints{query}"),
                        &key,
                        None,
                    )
                    .await
            }
        };
        let (s, first) = list("?limit=3".into()).await;
        assert_eq!(s, 200, "{first}");
        let first = first["data"].as_array().unwrap().clone();
        assert_eq!(first.len(), 3);
        let last = first[2]["endpointId"].as_str().unwrap();
        let (s, second) = list(format!("?limit=3&after={last}")).await;
        assert_eq!(s, 200, "{second}");
        let second = second["data"].as_array().unwrap().clone();
        assert_eq!(second.len(), 1);
        let mut seen: Vec<&Value> = first
            .iter()
            .chain(&second)
            .map(|e| &e["endpointId"])
            .collect();
        seen.sort_by_key(|v| v.as_str().map(str::to_owned));
        seen.dedup();
        assert_eq!(seen.len(), 4, "every endpoint once");
        let (s, all) = list(String::new()).await;
        assert_eq!((s, all["data"].as_array().unwrap().len()), (200, 4));
        for (query, status, code) in [
            ("?limit=0", 400, "invalid_limit"),
            ("?limit=201", 400, "invalid_limit"),
            ("?limit=x", 400, "invalid_limit"),
            ("?after=nope", 400, "invalid_after"),
            ("?after=%00", 400, "invalid_after"),
            (
                "?after=00000000-0000-4000-8000-000000000000",
                404,
                "webhook_endpoint_not_found",
            ),
        ] {
            let (s, b) = list(query.into()).await;
            assert_eq!(
                (s, b["error"]["code"].as_str()),
                (status, Some(code)),
                "{query}"
            );
        }
        // Another merchant's endpoint is no cursor here.
        let other = server
            .merchant_with_store("other", "other-store", "SHADOW")
            .await;
        let (s, b) = server
            .create_endpoint(&other, "https://other.example/hooks", None)
            .await;
        assert_eq!(s, 201, "{b}");
        let theirs = b["data"]["endpointId"].as_str().unwrap();
        let (s, _) = list(format!("?after={theirs}")).await;
        assert_eq!(s, 404);
    }
}

// Finding 3: NUL in paths, queries and bodies.

/// Every operation of an OpenAPI document: method, path template, query parameter names,
/// whether it takes a JSON body.
fn operations(doc: &Value) -> Vec<(String, String, Vec<String>, bool)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let queries = op["parameters"]
                .as_array()
                .map(|ps| {
                    ps.iter()
                        .filter(|p| p["in"] == "query")
                        .map(|p| p["name"].as_str().unwrap().to_owned())
                        .collect()
                })
                .unwrap_or_default();
            let json_body = op["requestBody"]["content"]["application/json"].is_object();
            out.push((method.to_uppercase(), path.clone(), queries, json_body));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn no_route_answers_5xx_to_a_nul_in_its_path_query_or_body() {
    for backend in backends() {
        let server = start(backend, Vec::new()).await;
        let _ = server
            .merchant_with_store("shop", "shop-store", "SHADOW")
            .await;
        // Every scope, so that each route reads its body (a missing scope is answered first).
        let (status, issued) = server
            .admin_post(
                "/api-keys",
                json!({"merchant": "shop", "stores": ["shop-store"],
                       "scopes": ["payments:create", "payments:read", "payments:refund", "webhooks:manage",
                                  "mandates:manage"]}),
            )
            .await;
        assert_eq!(status, 201, "{issued}");
        let key = issued["data"]["apiKey"].as_str().unwrap().to_owned();
        let merchant_doc: Value = server
            .client
            .get(format!("{}/openapi.json", server.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let admin_doc: Value = server
            .client
            .get(format!("{}/openapi.json", server.admin))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let mut checked = 0;
        for (doc, base, secret) in [
            (&merchant_doc, &server.base, &key),
            (&admin_doc, &server.admin, &server.admin_token),
        ] {
            for (method, template, queries, json_body) in operations(doc) {
                let path = template
                    .split('/')
                    .map(|s| if s.starts_with('{') { "a%00" } else { s })
                    .collect::<Vec<_>>()
                    .join("/");
                let query = queries
                    .iter()
                    .map(|q| format!("{q}=%00"))
                    .collect::<Vec<_>>()
                    .join("&");
                let url = format!("{base}{path}?{query}");
                let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
                let send = |body: Option<Value>| {
                    let mut request = server
                        .client
                        .request(method.clone(), &url)
                        .bearer_auth(secret)
                        .header("Idempotency-Key", "nul-sweep");
                    if let Some(body) = body {
                        request = request.json(&body);
                    }
                    request.send()
                };
                let r = send(json_body.then(|| json!({}))).await.unwrap();
                let status = r.status().as_u16();
                assert!(
                    status < 500,
                    "{method} {url}: {status} {}",
                    r.text().await.unwrap()
                );
                if json_body {
                    // The same operation with a NUL in a string of the body.
                    let r = send(Some(json!({"name": "a\u{0}b"}))).await.unwrap();
                    let status = r.status().as_u16();
                    let body: Value = r.json().await.unwrap();
                    assert!(
                        status < 500,
                        "{method} {url} with a NUL body: {status} {body}"
                    );
                    assert_eq!(
                        (status, body["error"]["code"].as_str()),
                        (400, Some("invalid_field")),
                        "{method} {url} with a NUL body: {body}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 30, "only {checked} operations were swept");
        // The PSPs' callback route is in no document.
        let r = server
            .client
            .post(format!(
                "{}/psp-callbacks/a%00/b%00/pix",
                server.merchant_root()
            ))
            .json(&json!({"pix": [{"txid": "a\u{0}", "endToEndId": "E\u{0}", "valor": "1.00"}]}))
            .send()
            .await
            .unwrap();
        assert!(r.status().as_u16() < 500, "callback: {}", r.status());
    }
}

// Finding 4: amounts as written.

#[tokio::test(flavor = "multi_thread")]
async fn an_amount_is_judged_on_the_number_as_written() {
    let server = start(Backend::Sqlite, Vec::new()).await;
    let charge = |amount: &'static str, key: &'static str| {
        let body = format!(
            r#"{{"store": "demo-store", "amount": {amount}, "reference": "order-{key}",
                "payer": {{"name": "Ana Souza", "taxId": "529.982.247-25"}}}}"#
        );
        server
            .client
            .post(format!("{}/payments/charge", server.base))
            .bearer_auth(&server.demo_key)
            .header("Idempotency-Key", key)
            .header("Content-Type", "application/json")
            .body(body)
            .send()
    };
    for (amount, key) in [
        ("129.899999999999999", "a"),
        ("129.901", "b"),
        ("1.29899e2", "c"),
    ] {
        let r = charge(amount, key).await.unwrap();
        let status = r.status().as_u16();
        let body: Value = r.json().await.unwrap();
        assert_eq!(status, 400, "{amount}: {body}");
        assert_eq!(body["error"]["code"], "invalid_amount", "{amount}");
        assert_eq!(body["error"]["field"], "amount", "{amount}");
    }
    for (amount, key) in [("129.900", "d"), ("1.299e2", "e"), ("129.9", "f")] {
        let r = charge(amount, key).await.unwrap();
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["data"]["amount"], json!(129.9), "{amount}: {body}");
    }
    // The operators' evaluate route judges its charge the same way.
    let r = server
        .client
        .post(format!("{}/evaluate", server.admin))
        .bearer_auth(&server.admin_token)
        .header("Content-Type", "application/json")
        .body(
            r#"{"store": "demo-store", "charge": {"amount": 0.015000000000000001,
                "reference": "x", "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"}}}"#,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["field"], "charge.amount", "{body}");
}

// Finding 10: the order of checks.

#[tokio::test(flavor = "multi_thread")]
async fn scope_and_idempotency_key_are_checked_before_the_body() {
    let server = start(Backend::Sqlite, Vec::new()).await;
    let full = server
        .merchant_with_store("shop", "shop-store", "SHADOW")
        .await;
    let (s, b) = server
        .admin_post(
            "/api-keys",
            json!({"merchant": "shop", "stores": ["shop-store"], "scopes": ["payments:read"]}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let read_only = b["data"]["apiKey"].as_str().unwrap().to_owned();
    let post = |path: &str, key: &str, idempotency_key: Option<&str>| {
        let mut request = server
            .client
            .post(format!("{}{path}", server.base))
            .bearer_auth(key)
            .header("Content-Type", "text/plain")
            .body("not json");
        if let Some(k) = idempotency_key {
            request = request.header("Idempotency-Key", k);
        }
        request.send()
    };
    for (path, key, idempotency_key, status, code) in [
        (
            "/payments/charge",
            &read_only,
            None,
            403,
            "insufficient_scope",
        ),
        (
            "/payments/charge",
            &full,
            None,
            400,
            "missing_idempotency_key",
        ),
        (
            "/payments/charge",
            &full,
            Some("k"),
            415,
            "unsupported_media_type",
        ),
        (
            "/webhook-endpoints",
            &read_only,
            None,
            403,
            "insufficient_scope",
        ),
    ] {
        let r = post(path, key, idempotency_key).await.unwrap();
        let got = r.status().as_u16();
        let body: Value = r.json().await.unwrap();
        assert_eq!(
            (got, body["error"]["code"].as_str()),
            (status, Some(code)),
            "{path}"
        );
    }
}

// Finding 7: revoke races.

#[tokio::test(flavor = "multi_thread")]
async fn a_test_waiting_for_a_slot_is_not_sent_once_its_endpoint_is_revoked() {
    let ca = TestCa::new();
    for backend in backends() {
        let receiver = Receiver::start(&ca).await;
        // The first test holds the only slot this long (under the 5 s webhook timeout): the
        // second must start waiting and the revoke must commit meanwhile, which a loaded 2-core
        // machine once took over 2 s to do.
        receiver.delay(Duration::from_secs(4));
        let server = start(
            backend,
            webhook_env(&ca, &[("PIXGATE_WEBHOOK_CONCURRENCY", "1")]),
        )
        .await;
        let (key, id) = shop_with_endpoint(&server, &receiver.url("/hooks")).await;
        let server = std::sync::Arc::new(server);
        let test = |server: std::sync::Arc<Server>| {
            let (key, id) = (key.clone(), id.clone());
            tokio::spawn(async move { server.endpoint_action(&key, &id, "test").await })
        };
        let first = test(server.clone());
        receiver.wait_for(1, Duration::from_secs(20)).await;
        // The only slot is taken: the second test waits for it.
        let second = test(server.clone());
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (s, b) = server.endpoint_action(&key, &id, "revoke").await;
        assert_eq!(s, 200, "{b}");
        let (s, b) = first.await.unwrap();
        assert_eq!((s, &b["data"]["status"]), (200, &json!("DELIVERED")), "{b}");
        let (s, b) = second.await.unwrap();
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (409, Some("endpoint_revoked")),
            "{b}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(receiver.count(), 1, "the test was sent after the revoke");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_recorder_waits_for_the_endpoint_before_locking_a_delivery_on_postgres() {
    // The order a revoke takes locks in: endpoint, then its deliveries. A recorder holding a
    // delivery while it waits for the endpoint could deadlock with it.
    let ca = TestCa::new();
    for backend in backends().into_iter().filter(|b| *b == Backend::Postgres) {
        let receiver = Receiver::start(&ca).await;
        let server = start(backend, webhook_env(&ca, &[])).await;
        let (key, id) = shop_with_endpoint(&server, &receiver.url("/hooks")).await;
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(3)
            .connect(&server.database_url)
            .await
            .unwrap();
        // Hold the endpoint's row as a revoke's first statement (an update of it) would.
        let mut revoke = pool.begin().await.unwrap();
        sqlx::query("select id from webhook_endpoints where id = $1 for no key update")
            .bind(&id)
            .execute(&mut *revoke)
            .await
            .unwrap();
        let server = std::sync::Arc::new(server);
        let test = {
            let (server, key, id) = (server.clone(), key.clone(), id.clone());
            tokio::spawn(async move { server.endpoint_action(&key, &id, "test").await })
        };
        receiver.wait_for(1, Duration::from_secs(20)).await;
        // The recorder is now blocked on the endpoint.
        eventually("the recorder to wait for a lock", || async {
            let waiting: i64 = sqlx::query_scalar(
                "select count(*) from pg_locks l join pg_stat_activity a on a.pid = l.pid \
                 where not l.granted and a.datname = current_database()",
            )
            .fetch_one(&pool)
            .await
            .unwrap();
            waiting > 0
        })
        .await;
        let delivery: String =
            sqlx::query_scalar("select id from webhook_deliveries where endpoint_id = $1")
                .bind(&id)
                .fetch_one(&pool)
                .await
                .unwrap();
        // The revoke's second statement would take the delivery: it must be free.
        let mut probe = pool.begin().await.unwrap();
        let free = sqlx::query("select id from webhook_deliveries where id = $1 for update nowait")
            .bind(&delivery)
            .execute(&mut *probe)
            .await;
        assert!(free.is_ok(), "the recorder holds the delivery: {free:?}");
        probe.rollback().await.unwrap();
        revoke.rollback().await.unwrap();
        let (s, b) = test.await.unwrap();
        assert_eq!((s, &b["data"]["status"]), (200, &json!("DELIVERED")), "{b}");
    }
}

// Finding 11: retention.

async fn count(pool: &sqlx::AnyPool, table: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("select count(*) from {table}")))
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn finished_webhook_data_and_traces_are_purged_after_their_retention() {
    let ca = TestCa::new();
    for backend in backends() {
        let delivered = Receiver::start(&ca).await;
        let failing = Receiver::start(&ca).await;
        failing.answer(500);
        let server = start(
            backend,
            webhook_env(
                &ca,
                &[
                    ("PIXGATE_WEBHOOK_RETENTION", "1s"),
                    ("PIXGATE_TRACE_RETENTION", "1s"),
                    ("PIXGATE_PURGE_INTERVAL", "200ms"),
                    // A failed attempt waits an hour: its delivery stays PENDING.
                    ("PIXGATE_WEBHOOK_RETRY_SCHEDULE", "1h"),
                ],
            ),
        )
        .await;
        let key = server
            .merchant_with_store("shop", "shop-store", "LIVE")
            .await;
        let (s, b) = server
            .create_endpoint(&key, &delivered.url("/ok"), None)
            .await;
        assert_eq!(s, 201, "{b}");
        let (s, b) = server
            .create_endpoint(&key, &failing.url("/down"), None)
            .await;
        assert_eq!(s, 201, "{b}");
        let down = b["data"]["endpointId"].as_str().unwrap().to_owned();
        let db = server.open_db().await;
        let intent = pending_intent(&db, "shop-store", "order-1").await;
        // A SHADOW charge leaves a decision trace; with a canary on every charge, a canary
        // call too.
        let renamed =
            pixgate_e2e::components::upload_guest(&server, "policy", "pixgate_fixture_renamed")
                .await;
        let (s, b) = server
            .admin(
                reqwest::Method::PUT,
                "/stores/demo-store/components/policy/canary",
                Some(json!({"version": renamed, "percent": 100})),
            )
            .await;
        assert_eq!(s, 200, "{b}");
        let (s, b) = server
            .charge(
                &server.demo_key,
                "retention-1",
                &pixgate_e2e::server::charge_body("demo-store"),
            )
            .await;
        assert_eq!(s, 200, "{b}");
        let shadow = b["data"]["paymentIntentId"].as_str().unwrap().to_owned();
        delivered.wait_for(1, Duration::from_secs(20)).await;
        failing.wait_for(1, Duration::from_secs(20)).await;

        // The delivered delivery, its attempt and the trace go; the PENDING delivery, its
        // attempt and the event it refers to stay.
        let pool = &db.read;
        eventually(
            "the finished delivery and the trace to be purged",
            || async {
                count(pool, "webhook_deliveries").await == 1
                    && count(pool, "decision_traces").await == 0
            },
        )
        .await;
        // The canary call was recorded (its counter moves after the commit), then purged.
        eventually("the canary call to be recorded and purged", || async {
            server.metrics().await.contains(
                "pixgate_canary_calls_total{store=\"demo-store\",step=\"policy\",\
                     result=\"changed\"} 1",
            ) && count(pool, "canary_calls").await == 0
        })
        .await;
        assert_eq!(count(pool, "webhook_attempts").await, 1);
        assert_eq!(count(pool, "payment_events").await, 1);
        let (s, b) = server
            .admin_get(&format!("/payment-intents/{shadow}/trace"))
            .await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (410, Some("trace_purged")),
            "{b}"
        );

        // Revoked, the pending one is canceled, then purged with the event.
        let (s, _) = server.endpoint_action(&key, &down, "revoke").await;
        assert_eq!(s, 200);
        eventually("the rest of the webhook data to be purged", || async {
            count(pool, "webhook_deliveries").await == 0
                && count(pool, "webhook_attempts").await == 0
                && count(pool, "payment_events").await == 0
        })
        .await;
        // Payments themselves are kept.
        let (s, b) = server.get_payment(&key, &intent).await;
        assert_eq!(s, 200, "{b}");
        let (s, b) = server.get_payment(&server.demo_key, &shadow).await;
        assert_eq!(s, 200, "{b}");
    }
}
