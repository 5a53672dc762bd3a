//! What operators and scripts rely on: start-up output, health, metrics, request ids, logs
//! without secrets or PII, the OpenAPI documents, admin input checks, graceful shutdown.

use pixgate_e2e::live::Live;
use pixgate_e2e::server::{Backend, Server, backends, charge_body};
use reqwest::Method;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn first_start_prints_the_admin_token_and_demo_key_once() {
    let server = Server::start(Backend::Sqlite).await;
    assert!(
        server
            .started
            .admin_token
            .as_deref()
            .unwrap()
            .starts_with("pxa_")
    );
    assert!(
        server
            .started
            .demo_key
            .as_deref()
            .unwrap()
            .starts_with("pxg_")
    );
    let stored = std::fs::read_to_string(server.data_dir.path().join("admin-token")).unwrap();
    assert_eq!(Some(stored.as_str()), server.started.admin_token.as_deref());
    assert!(server.data_dir.path().join("master.key").exists());
    assert!(server.data_dir.path().join("pixgate.db").exists());
    // The secrets never reach the log.
    let logs = server.logs();
    assert!(
        !logs.contains(&server.admin_token) && !logs.contains(&server.demo_key),
        "{logs}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restart_keeps_the_data_and_prints_no_secret_again() {
    let mut first = Server::start(Backend::Sqlite).await;
    let (_, created) = first
        .charge(&first.demo_key, "restart-1", &charge_body("demo-store"))
        .await;
    let key = first.demo_key.clone();
    assert!(first.terminate().success());
    let dir = std::mem::replace(&mut first.data_dir, tempfile::tempdir().unwrap());
    let second = Server::launch(pixgate_e2e::server::Options {
        database_url: None,
        env: vec![],
        data_dir: Some(dir),
    });
    assert!(second.started.admin_token.is_none() && second.started.demo_key.is_none());
    let (status, read) = second
        .get_payment(&key, created["data"]["paymentIntentId"].as_str().unwrap())
        .await;
    assert_eq!(status, 200);
    assert_eq!(read["data"]["reference"], "order-10042");
    // The admin token from the first start still works.
    let (status, _) = second.admin_get("/merchants").await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_server_on_the_same_sqlite_file_stops_at_start() {
    let first = Server::start(Backend::Sqlite).await;
    let second = std::process::Command::new(pixgate_e2e::pixgate_bin())
        .arg("serve")
        .env_clear()
        .env("PIXGATE_DATA_DIR", first.data_dir.path())
        .env("PIXGATE_LISTEN", "127.0.0.1:0")
        .env("PIXGATE_ADMIN_LISTEN", "127.0.0.1:0")
        .output()
        .unwrap();
    assert!(!second.status.success());
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(
        stderr.contains("in use by another pixgate process"),
        "{stderr}"
    );
    // The first one serves on.
    let (status, _) = first
        .charge(&first.demo_key, "after-second", &charge_body("demo-store"))
        .await;
    assert_eq!(status, 200);
}

/// Issue 17: a live setting out of range, or a public URL PSPs could not post to, stops the
/// start with a message naming it, as every other bad setting does (it used to be raised to
/// the minimum, or taken as given, without a word).
#[test]
fn bad_live_settings_stop_the_start_and_say_why() {
    for (variable, value, says) in [
        ("PIXGATE_LIVE_LEASE", "0s", "--live-lease"),
        ("PIXGATE_LIVE_LEASE", "500ms", "must be at least 1s"),
        ("PIXGATE_RECONCILE_INTERVAL", "0s", "must be at least 100ms"),
        (
            "PIXGATE_PUBLIC_URL",
            "ftp://pix.example.com",
            "--public-url",
        ),
        (
            "PIXGATE_PUBLIC_URL",
            "ftp://pix.example.com",
            "http:// or https://",
        ),
        (
            "PIXGATE_PUBLIC_URL",
            "pix.example.com",
            "http:// or https://",
        ),
        (
            "PIXGATE_COMPONENT_COMPILE_THREADS",
            "0",
            "--component-compile-threads",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (status, stderr) = pixgate_e2e::serve_refusing_in(dir.path(), &[(variable, value)]);
        assert!(!status.success(), "{variable}={value} started");
        assert!(stderr.contains(says), "{variable}={value}: {stderr}");
        // It stopped before opening anything.
        assert!(
            !dir.path().join("pixgate.db").exists(),
            "{variable}={value}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn health_readiness_and_metrics_are_on_the_admin_listener() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let root = server.admin_root();
        let health: Value = reqwest::get(format!("{root}/healthz"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(health["status"], "ok");
        let r = reqwest::get(format!("{root}/readyz")).await.unwrap();
        assert_eq!(r.status(), 200);
        server
            .charge(&server.demo_key, "m-1", &charge_body("demo-store"))
            .await;
        let metrics = reqwest::get(format!("{root}/metrics"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        for needle in [
            "pixgate_http_requests_total{listener=\"merchant\",method=\"POST\",route=\"/api/v1/payments/charge\",status=\"200\"} 1",
            "pixgate_http_request_duration_seconds_bucket",
            "pixgate_chain_step_duration_seconds_count{step=\"policy\"} 1",
            "pixgate_chain_step_fuel_count{step=\"economics\"} 1",
        ] {
            assert!(metrics.contains(needle), "{needle} missing from\n{metrics}");
        }
        // The merchant listener does not serve them.
        let r = reqwest::get(format!("{}/metrics", server.merchant_root()))
            .await
            .unwrap();
        assert_eq!(r.status(), 404);
        // The admin API needs its token.
        let r = reqwest::get(format!("{}/merchants", server.admin))
            .await
            .unwrap();
        assert_eq!(r.status(), 401);
        let r = server
            .client
            .get(format!("{}/merchants", server.admin))
            .bearer_auth("pxa_wrong")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 401);
    }
}

/// The value of the sample `series` (name and labels exactly as exposed) in a scrape.
fn sample(metrics: &str, series: &str) -> Option<f64> {
    metrics
        .lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map(|value| value.trim().parse().unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn the_series_alerts_read_exist_at_zero_from_the_start_and_the_outbox_is_measured() {
    // Before anything happened, the series alert rules read with rate() or increase().
    let server = Server::start(Backend::Sqlite).await;
    let metrics = server.metrics().await;
    for series in [
        "pixgate_webhook_attempts_total{result=\"delivered\"}",
        "pixgate_webhook_attempts_total{result=\"failed\"}",
        "pixgate_shadow_comparisons_total{step=\"all\",result=\"skipped\"}",
        "pixgate_shadow_comparisons_total{step=\"provider\",result=\"changed\"}",
        "pixgate_webhook_pending",
        "pixgate_webhook_due_lag_seconds",
    ] {
        assert_eq!(
            sample(&metrics, series),
            Some(0.0),
            "{series} in\n{metrics}"
        );
    }

    // A provider's anomaly and reconciliation series are at zero once the instance knows it.
    let live = Live::start(Backend::Sqlite, &[]).await;
    live.receiver.answer(503);
    let (status, charge) = live.charge("outbox-1").await;
    assert_eq!(status, 200, "{charge}");
    let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
    let metrics = live.server.metrics().await;
    for series in [
        format!("pixgate_live_anomalies_total{{provider=\"{provider}\",kind=\"amount_mismatch\"}}"),
        format!(
            "pixgate_reconciliation_findings_total{{provider=\"{provider}\",kind=\"unknown_pix\"}}"
        ),
    ] {
        assert_eq!(
            sample(&metrics, &series),
            Some(0.0),
            "{series} in\n{metrics}"
        );
    }

    // The receiver refuses: the charge's event waits for its retry in the outbox, counted
    // there, and hardly late (a retry waiting for its time is not the senders falling behind;
    // one that just came due waits for the next claim, milliseconds).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let metrics = live.server.metrics().await;
        let failed = sample(
            &metrics,
            "pixgate_webhook_attempts_total{result=\"failed\"}",
        );
        let pending = sample(&metrics, "pixgate_webhook_pending").unwrap();
        if failed >= Some(1.0) && pending >= 1.0 {
            let lag = sample(&metrics, "pixgate_webhook_due_lag_seconds").unwrap();
            assert!(lag < 5.0, "due lag {lag} s with idle senders");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no failed attempt waiting in the outbox:\n{metrics}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_request_id_is_accepted_or_made_and_echoed_in_headers_and_errors() {
    let server = Server::start(Backend::Sqlite).await;
    let r = server
        .client
        .get(format!("{}/payments/nope", server.base))
        .bearer_auth(&server.demo_key)
        .header("X-Request-Id", "req-abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "req-abc-123");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["requestId"], "req-abc-123");
    let r = server
        .client
        .get(format!("{}/payments/nope", server.base))
        .send()
        .await
        .unwrap();
    let made = r.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(made.len(), 36);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["requestId"], made.as_str());
    // The request's line is written as it ends, which may be just after its answer arrived.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !server.logs().contains("req-abc-123") {
        assert!(
            std::time::Instant::now() < deadline,
            "the request's span carries its id:\n{}",
            server.logs()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn tax_ids_emails_phones_and_keys_never_reach_the_logs() {
    let server = Server::start(Backend::Sqlite).await;
    let (s, _) = server
        .charge(&server.demo_key, "pii-1", &charge_body("demo-store"))
        .await;
    assert_eq!(s, 200);
    let mut bad = charge_body("demo-store");
    bad["payer"]["taxId"] = "111.444.777-36".into();
    server.charge(&server.demo_key, "pii-2", &bad).await;
    let logs = server.logs();
    for secret in [
        "529.982.247-25",
        "52998224725",
        "111.444.777-36",
        "ana.souza@example.com",
        "98765-4321",
        "5511987654321",
        &server.demo_key,
    ] {
        assert!(
            !logs.contains(secret),
            "`{secret}` leaked into the logs:\n{logs}"
        );
    }
    // And the payer is sealed at rest.
    let db = std::fs::read(server.data_dir.path().join("pixgate.db")).unwrap();
    let wal = std::fs::read(server.data_dir.path().join("pixgate.db-wal")).unwrap_or_default();
    for bytes in [&db, &wal] {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains("52998224725") && !text.contains("ana.souza@example.com"));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_openapi_documents_every_route_at_version_1_0_0() {
    let server = Server::start(Backend::Sqlite).await;
    let api: Value = reqwest::get(format!("{}/openapi.json", server.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let root: Value = reqwest::get(format!("{}/openapi.json", server.merchant_root()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(api, root);
    assert_eq!(api["info"]["version"], "1.0.0");
    assert_eq!(
        api["components"]["securitySchemes"]["bearerAuth"]["scheme"],
        "bearer"
    );
    let paths = api["paths"].as_object().unwrap();
    let mut described: Vec<String> = Vec::new();
    for (path, item) in paths {
        for method in item.as_object().unwrap().keys() {
            described.push(format!("{} {path}", method.to_uppercase()));
            let op = &item[method];
            let responses = op["responses"].as_object().unwrap();
            assert!(responses.contains_key("401"), "{method} {path} 401");
            // Every documented error carries the envelope.
            for (status, response) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    assert!(
                        response["content"]["application/json"]["schema"].is_object(),
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }
    described.sort();
    assert_eq!(
        described,
        [
            "GET /mandates",
            "GET /mandates/{mandateId}",
            "GET /payments",
            "GET /payments/charge-batches/{batchId}",
            "GET /payments/{paymentIntentId}",
            "GET /payments/{paymentIntentId}/amount-due",
            "GET /payments/{paymentIntentId}/refunds",
            "GET /refunds/{refundId}",
            "GET /settlements",
            "GET /webhook-endpoints",
            "GET /webhook-endpoints/{endpointId}/deliveries",
            "POST /mandates",
            "POST /mandates/{mandateId}/cancel",
            "POST /mandates/{mandateId}/charges",
            "POST /payments/charge",
            "POST /payments/charge-batches",
            "POST /payments/{paymentIntentId}/cancel",
            "POST /payments/{paymentIntentId}/refunds",
            "POST /webhook-endpoints",
            "POST /webhook-endpoints/{endpointId}/deliveries/{deliveryId}/resend",
            "POST /webhook-endpoints/{endpointId}/enable",
            "POST /webhook-endpoints/{endpointId}/revoke",
            "POST /webhook-endpoints/{endpointId}/test",
        ]
    );
    // The charge's and the read's failure modes are all described.
    for (path, method, statuses) in [
        (
            "/payments/charge",
            "post",
            &["400", "401", "403", "404", "409"][..],
        ),
        (
            "/payments/{paymentIntentId}",
            "get",
            &["401", "403", "404"][..],
        ),
        (
            "/payments/charge-batches",
            "post",
            &["202", "400", "401", "403", "404", "409", "413"][..],
        ),
        (
            "/payments/charge-batches/{batchId}",
            "get",
            &["200", "401", "403", "404"][..],
        ),
    ] {
        for status in statuses {
            assert!(
                paths[path][method]["responses"][status].is_object(),
                "{method} {path} {status}"
            );
        }
    }
    // Every described operation is served (not the router's 404).
    for entry in &described {
        let (method, path) = entry.split_once(' ').unwrap();
        let url = format!(
            "{}{}",
            server.base,
            path.replace("{paymentIntentId}", "0193a4f0-0000-7000-8000-000000000000")
                .replace("{endpointId}", "0193a4f0-0000-7000-8000-000000000001")
                .replace("{deliveryId}", "0193a4f0-0000-7000-8000-000000000002")
                .replace("{batchId}", "0193a4f0-0000-7000-8000-000000000003")
        );
        let r = server
            .client
            .request(method.parse().unwrap(), url)
            .bearer_auth(&server.demo_key)
            .header("Idempotency-Key", "openapi")
            .json(&charge_body("demo-store"))
            .send()
            .await
            .unwrap();
        let body: Value = r.json().await.unwrap();
        assert_ne!(body["error"]["code"], "not_found", "{entry}");
    }
    let admin: Value = reqwest::get(format!("{}/openapi.json", server.admin))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for path in [
        "/merchants",
        "/stores",
        "/stores/{code}",
        "/gateways",
        "/api-keys",
        "/api-keys/{keyId}/revoke",
        "/operators",
        "/operators/me",
        "/operators/{id}/revoke",
        "/audit-events",
    ] {
        assert!(admin["paths"][path].is_object(), "admin {path}");
    }
    // Every admin answer is documented: 401 and 403 (a role too low) everywhere; a JSON body
    // can also meet 400 (with the field), 413 and 415.
    for (path, item) in admin["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            let mut expected = vec!["401", "403"];
            if op.get("requestBody").is_some() {
                expected.extend(["400", "413", "415"]);
            }
            for status in expected {
                assert!(
                    responses.contains_key(status),
                    "admin {method} {path} {status}"
                );
            }
        }
    }
    // The rules the handlers check are in the schemas.
    let schemas = &admin["components"]["schemas"];
    assert_eq!(
        schemas["CreateMerchant"]["properties"]["code"]["pattern"],
        "^[A-Za-z0-9._-]{1,64}$"
    );
    assert_eq!(schemas["CreateMerchant"]["additionalProperties"], false);
    assert_eq!(schemas["StoreMode"]["enum"], json!(["SHADOW", "LIVE"]));
    assert_eq!(
        schemas["Scope"]["enum"],
        json!([
            "payments:create",
            "payments:read",
            "webhooks:manage",
            "payments:refund",
            "mandates:manage"
        ])
    );
    assert_eq!(
        schemas["FeeTerms"]["properties"]["mdrBps"]["maximum"],
        10000
    );
    let expiry = &schemas["CreateStore"]["properties"]["chargeExpirySeconds"];
    assert_eq!(
        (&expiry["minimum"], &expiry["maximum"]),
        (&json!(60), &json!(1209600))
    );
    assert_eq!(
        admin["paths"]["/api-keys/{keyId}/revoke"]["post"]["parameters"][0]["schema"]["format"],
        "uuid"
    );
    assert!(admin["paths"]["/gateways"]["post"]["responses"]["422"].is_object());
    let hooks = &api["components"]["schemas"]["CreateEndpointRequest"];
    assert_eq!(hooks["properties"]["endpointUrl"]["maxLength"], 2048);
    assert!(hooks["properties"]["endpointUrl"]["pattern"].is_string());
    let before = api["paths"]["/webhook-endpoints/{endpointId}/deliveries"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "before")
        .unwrap();
    assert_eq!(before["schema"]["format"], "uuid");
}

#[tokio::test(flavor = "multi_thread")]
async fn admin_requests_are_refused_with_the_field_at_fault() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let store = |extra: Value| {
            let mut body =
                json!({"code": "s-1", "name": "S", "merchant": "demo", "mode": "SHADOW"});
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            body
        };
        let gateway = |terms: Value, release: &str| json!({"providerCode": "p", "gatewayAlias": "g-1", "releaseClass": release, "feeTerms": terms});
        let cases = [
            (
                Method::POST,
                "/merchants",
                json!({"code": "shop"}),
                400,
                "missing_field",
                Some("name"),
            ),
            (
                Method::POST,
                "/merchants",
                json!({"code": "shop", "name": " \u{3000} "}),
                400,
                "invalid_name",
                Some("name"),
            ),
            (
                Method::POST,
                "/merchants",
                json!({"code": "shop", "name": "S", "x": 1}),
                400,
                "unknown_field",
                Some("x"),
            ),
            (
                Method::POST,
                "/merchants",
                json!({"code": "sh op", "name": "S"}),
                400,
                "invalid_code",
                Some("code"),
            ),
            (
                Method::POST,
                "/merchants",
                json!(["shop", "S"]),
                400,
                "invalid_request",
                None,
            ),
            (
                Method::POST,
                "/stores",
                store(json!({"mode": "LIVELY"})),
                400,
                "invalid_mode",
                Some("mode"),
            ),
            (
                Method::POST,
                "/stores",
                store(json!({"chargeExpirySeconds": 59})),
                400,
                "invalid_charge_expiry",
                Some("chargeExpirySeconds"),
            ),
            (
                Method::POST,
                "/stores",
                store(json!({"chargeExpirySeconds": 60.5})),
                400,
                "invalid_field",
                Some("chargeExpirySeconds"),
            ),
            (
                Method::POST,
                "/stores",
                store(json!({"config": {"": "x"}})),
                400,
                "invalid_store_config",
                Some("config"),
            ),
            (
                Method::POST,
                "/stores",
                store(json!({"merchant": "nobody"})),
                404,
                "merchant_not_found",
                None,
            ),
            (
                Method::PATCH,
                "/stores/demo-store",
                json!({"liveEnabled": "yes"}),
                400,
                "invalid_field",
                Some("liveEnabled"),
            ),
            (
                Method::POST,
                "/gateways",
                gateway(json!({"mdrBps": "150"}), "D1"),
                400,
                "invalid_field",
                Some("feeTerms.mdrBps"),
            ),
            (
                Method::POST,
                "/gateways",
                gateway(json!({"mdrBps": 10001}), "D1"),
                400,
                "invalid_fee_terms",
                Some("feeTerms.mdrBps"),
            ),
            (
                Method::POST,
                "/gateways",
                gateway(json!({"mdrBps": 1, "fixedCentavos": -1}), "D1"),
                400,
                "invalid_fee_terms",
                Some("feeTerms.fixedCentavos"),
            ),
            (
                Method::POST,
                "/gateways",
                gateway(json!({"mdrBps": 1}), "D366"),
                400,
                "invalid_release_class",
                Some("releaseClass"),
            ),
            // Each field is fine on its own; together they contradict each other.
            (
                Method::POST,
                "/gateways",
                gateway(
                    json!({"mdrBps": 1, "minFeeCentavos": 100, "maxFeeCentavos": 50}),
                    "D1",
                ),
                422,
                "invalid_fee_terms",
                Some("feeTerms.maxFeeCentavos"),
            ),
            (
                Method::PATCH,
                "/gateways/sandbox-a-d0",
                json!({"feeTerms": {"mdrBps": 1, "extra": 0}}),
                400,
                "unknown_field",
                Some("feeTerms.extra"),
            ),
            (
                Method::POST,
                "/api-keys",
                json!({"merchant": "demo", "stores": [], "scopes": ["payments:create", "payments:delete"]}),
                400,
                "invalid_scope",
                Some("scopes[1]"),
            ),
            (
                Method::POST,
                "/api-keys",
                json!({"merchant": "demo", "stores": ["demo-store", "d s"]}),
                400,
                "invalid_code",
                Some("stores[1]"),
            ),
            (
                Method::POST,
                "/api-keys",
                json!({"merchant": "demo", "stores": ["demo-store", "nope"]}),
                404,
                "store_not_found",
                None,
            ),
            (
                Method::PUT,
                "/stores/demo-store/gateways",
                json!({"gateways": ["sandbox-a-d0", "nope"]}),
                404,
                "gateway_not_found",
                None,
            ),
            (
                Method::PUT,
                "/stores/demo-store/gateways",
                json!({"gateways": ["no pe"]}),
                400,
                "invalid_code",
                Some("gateways[0]"),
            ),
        ];
        for (method, path, body, status, code, field) in cases {
            let (s, b) = server.admin(method.clone(), path, Some(body.clone())).await;
            assert_eq!(
                (s, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
                (status, Some(code), field),
                "{backend:?} {method} {path} {body} -> {b}"
            );
        }
        // Nothing of the refused gateway or key was kept.
        let (_, gateways) = server.admin_get("/gateways").await;
        assert!(
            !gateways["data"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["gatewayAlias"] == "g-1")
        );

        // 300.0 is the integer 300; names are kept trimmed.
        let (s, b) = server
            .admin_patch(
                "/stores/demo-store",
                json!({"chargeExpirySeconds": 300.0, "name": "  Demo store  "}),
            )
            .await;
        assert_eq!(s, 200, "{b}");
        assert_eq!(b["data"]["chargeExpirySeconds"], 300);
        assert_eq!(b["data"]["name"], "Demo store");

        // The body's media type, size and syntax.
        let url = format!("{}/merchants", server.admin);
        let send = |content_type: &'static str, body: String| {
            server
                .client
                .post(&url)
                .bearer_auth(&server.admin_token)
                .header("Content-Type", content_type)
                .body(body)
                .send()
        };
        for (content_type, body, status, code) in [
            (
                "text/plain",
                r#"{"code": "m", "name": "M"}"#.to_owned(),
                415,
                "unsupported_media_type",
            ),
            (
                "application/json",
                format!(r#"{{"code": "m", "name": "{}"}}"#, "M".repeat(70_000)),
                413,
                "payload_too_large",
            ),
            (
                "application/json",
                r#"{"code": "m", "#.to_owned(),
                400,
                "invalid_json",
            ),
        ] {
            let r = send(content_type, body).await.unwrap();
            assert_eq!(r.status().as_u16(), status, "{content_type}");
            let b: Value = r.json().await.unwrap();
            assert_eq!(b["error"]["code"], code);
        }
        // Path parameters that do not decode are unknown, not malformed.
        let (s, _) = server.admin_get("/stores/%FF").await;
        assert_eq!(s, 404);
        let (s, _) = server
            .admin(Method::PATCH, "/gateways/%FF", Some(json!({})))
            .await;
        assert_eq!(s, 404);
        let (s, b) = server.admin_get("/api-keys").await;
        assert_eq!(
            (s, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
            (400, Some("missing_field"), Some("merchant"))
        );
        assert!(
            !server.logs().contains("internal error"),
            "{}",
            server.logs()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_lets_in_flight_requests_finish_and_exits_cleanly() {
    let mut server = Server::start(Backend::Sqlite).await;
    let client = server.client.clone();
    let url = format!("{}/payments/charge", server.base);
    let key = server.demo_key.clone();
    let (answered, first_answer) = tokio::sync::oneshot::channel::<()>();
    let inflight = tokio::spawn(async move {
        let mut answered = Some(answered);
        let mut statuses = Vec::new();
        for i in 0..20 {
            match client
                .post(&url)
                .bearer_auth(&key)
                .header("Idempotency-Key", format!("term-{i}"))
                .json(&charge_body("demo-store"))
                .send()
                .await
            {
                Ok(r) => {
                    statuses.push(r.status().as_u16());
                    if let Some(answered) = answered.take() {
                        let _ = answered.send(());
                    }
                }
                Err(_) => break, // the listener closed: no request was cut mid-way
            }
        }
        statuses
    });
    // SIGTERM once a charge has been answered, while the next ones are on their way (a fixed
    // sleep raced the first request on a loaded machine).
    let _ = first_answer.await;
    let status = tokio::task::spawn_blocking(move || {
        let s = server.terminate();
        (s, server)
    })
    .await
    .unwrap();
    assert!(status.0.success(), "exit status {:?}", status.0);
    let statuses = inflight.await.unwrap();
    assert!(
        !statuses.is_empty(),
        "requests were in flight when SIGTERM came"
    );
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
}
