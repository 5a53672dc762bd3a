//! The merchant API end to end: a real `pixgate serve` per test, on SQLite and (when
//! `PIXGATE_TEST_DATABASE_URL` is set) on PostgreSQL.

use pixgate_e2e::server::{
    Backend, Options, Server, backends, charge_body, fresh_postgres_database,
};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn a_shadow_charge_is_resolved_and_recorded_without_pix() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let (status, body) = server
            .charge(
                &server.demo_key,
                "order-10042-try-1",
                &charge_body("demo-store"),
            )
            .await;
        assert_eq!(status, 200, "{backend:?} {body}");
        let data = &body["data"];
        assert_eq!(body["success"], true);
        assert_eq!(data["status"], "SHADOW_ONLY");
        assert_eq!(data["idempotentReplay"], false);
        assert_eq!(data["amount"], 129.9);
        assert_eq!(data["currency"], "BRL");
        assert_eq!(
            data["store"],
            json!({"code": "demo-store", "name": "Demo store"})
        );
        assert_eq!(data["routing"]["mode"], "SHADOW");
        assert_eq!(data["routing"]["policy"], "d0-first");
        assert_eq!(data["routing"]["gatewayAlias"], "sandbox-b-d0");
        assert_eq!(data["routing"]["providerCode"], "sandbox-b");
        assert_eq!(data["routing"]["releaseClass"], "D0");
        assert_eq!(data["routing"]["crossReleaseClassFailover"], true);
        assert_eq!(data["economics"]["feeAmount"], 1.65);
        assert_eq!(data["economics"]["netAmount"], 128.25);
        assert!(data.get("pix").is_none(), "no PIX in SHADOW");
        assert_eq!(data["metadata"]["attribution"]["utm_source"], "newsletter");

        // The status read returns the same object.
        let id = data["paymentIntentId"].as_str().unwrap();
        let (status, read) = server.get_payment(&server.demo_key, id).await;
        assert_eq!(status, 200, "{read}");
        assert_eq!(read["data"], body["data"]);

        // The decision trace holds every step's component, input, output and fuel.
        let (status, trace) = server
            .admin_get(&format!("/payment-intents/{id}/trace"))
            .await;
        assert_eq!(status, 200, "{trace}");
        for step in ["policy", "provider", "economics"] {
            assert_eq!(trace["data"][step]["component"].as_str().unwrap().len(), 64);
            assert!(trace["data"][step]["fuelUsed"].as_u64().unwrap() > 0);
            assert!(trace["data"][step]["input"].is_object());
        }
        assert_eq!(
            trace["data"]["policy"]["input"]["charge"]["payerKind"],
            "CPF"
        );
        let text = trace.to_string();
        assert!(
            !text.contains("52998224725") && !text.contains("529.982.247-25"),
            "no tax id in the trace"
        );
        assert!(
            !text.contains("ana.souza@example.com"),
            "no email in the trace"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn charge_is_replayed_for_the_same_key_whatever_the_json_layout() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let (_, first) = server
            .charge(&server.demo_key, "k-1", &charge_body("demo-store"))
            .await;
        // The same request, keys reordered and spaced differently.
        let text = r#"{ "payer": {"phone": "+55 11 98765-4321", "email": "ana.souza@example.com",
            "taxId": "529.982.247-25", "name": "Ana Souza"},
            "metadata": {"attribution": {"utm_source": "newsletter"}, "orderId": "10042"},
            "description": "Order 10042", "reference": "order-10042", "currency": "BRL",
            "amount": 129.9, "store": "demo-store" }"#;
        let r = server
            .client
            .post(format!("{}/payments/charge", server.base))
            .bearer_auth(&server.demo_key)
            .header("Idempotency-Key", "k-1")
            .header("Content-Type", "application/json")
            .body(text)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let replay: Value = r.json().await.unwrap();
        assert_eq!(replay["data"]["idempotentReplay"], true, "{backend:?}");
        assert_eq!(
            replay["data"]["paymentIntentId"],
            first["data"]["paymentIntentId"]
        );
        let mut a = replay["data"].clone();
        a["idempotentReplay"] = json!(false);
        assert_eq!(a, first["data"]);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_different_payload_under_a_used_key_is_a_conflict() {
    for backend in backends() {
        let server = Server::start(backend).await;
        server
            .charge(&server.demo_key, "k-2", &charge_body("demo-store"))
            .await;
        let mut other = charge_body("demo-store");
        other["amount"] = json!(130);
        let (status, body) = server.charge(&server.demo_key, "k-2", &other).await;
        assert_eq!(status, 409, "{backend:?}");
        assert_eq!(body["error"]["code"], "idempotency_key_reused");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rejected_request_leaves_the_key_unused() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let mut bad = charge_body("demo-store");
        bad["payer"]["taxId"] = json!("529.982.247-24");
        let (status, body) = server.charge(&server.demo_key, "k-3", &bad).await;
        assert_eq!(status, 400);
        assert_eq!(body["error"]["code"], "invalid_tax_id");
        assert_eq!(body["error"]["field"], "payer.taxId");
        let (status, body) = server
            .charge(&server.demo_key, "k-3", &charge_body("demo-store"))
            .await;
        assert_eq!(status, 200, "{backend:?} {body}");
        assert_eq!(body["data"]["idempotentReplay"], false);
        // Same for a store that does not exist (404).
        let (status, _) = server
            .charge(&server.demo_key, "k-4", &charge_body("nowhere"))
            .await;
        assert_eq!(status, 404);
        let (status, _) = server
            .charge(&server.demo_key, "k-4", &charge_body("demo-store"))
            .await;
        assert_eq!(status, 200);
    }
}

async fn count_intents(server: &Server, backend: Backend) -> i64 {
    use sqlx::Connection;
    let url = match backend {
        Backend::Sqlite => format!(
            "sqlite://{}",
            server.data_dir.path().join("pixgate.db").display()
        ),
        Backend::Postgres => server.database_url.clone(),
    };
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query_scalar::<_, i64>("select count(*) from payment_intents")
        .fetch_one(&mut conn)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn thirty_two_concurrent_identical_charges_create_one_intent() {
    sqlx::any::install_default_drivers();
    for backend in backends() {
        let server = Server::start(backend).await;
        let body = charge_body("demo-store");
        let results = futures_join_all(
            (0..32).map(|_| server.charge(&server.demo_key, "same-checkout", &body)),
        )
        .await;
        let ids: std::collections::HashSet<String> = results
            .iter()
            .map(|(status, b)| {
                assert_eq!(*status, 200, "{backend:?} {b}");
                b["data"]["paymentIntentId"].as_str().unwrap().to_owned()
            })
            .collect();
        assert_eq!(ids.len(), 1, "{backend:?}: {ids:?}");
        let fresh = results
            .iter()
            .filter(|(_, b)| b["data"]["idempotentReplay"] == false)
            .count();
        assert_eq!(fresh, 1, "exactly one response created the intent");
        assert_eq!(count_intents(&server, backend).await, 1);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_servers_sharing_one_postgres_create_one_intent_for_one_key() {
    if !backends().contains(&Backend::Postgres) {
        eprintln!("PostgreSQL not configured (PIXGATE_TEST_DATABASE_URL): only SQLite ran");
        return;
    }
    sqlx::any::install_default_drivers();
    let url = fresh_postgres_database().await;
    let token = "pxa_shared-admin-token-for-two-instances";
    let master = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    let env = vec![
        ("PIXGATE_ADMIN_TOKEN".to_owned(), token.to_owned()),
        ("PIXGATE_MASTER_KEY".to_owned(), master.to_owned()),
    ];
    let a = Server::launch(Options {
        database_url: Some(url.clone()),
        env: env.clone(),
        data_dir: None,
    });
    let b = Server::launch(Options {
        database_url: Some(url.clone()),
        env,
        data_dir: None,
    });
    let key = a.demo_key.clone();
    assert!(!key.is_empty(), "the first server seeds the demo key");
    assert!(
        b.demo_key.is_empty(),
        "the second finds the database initialised"
    );
    let body = charge_body("demo-store");
    let mut calls = Vec::new();
    for i in 0..32 {
        let server = if i % 2 == 0 { &a } else { &b };
        calls.push(server.charge(&key, "shared-checkout", &body));
    }
    let results = futures_join_all(calls).await;
    let ids: std::collections::HashSet<&str> = results
        .iter()
        .map(|(s, b)| {
            assert_eq!(*s, 200, "{b}");
            b["data"]["paymentIntentId"].as_str().unwrap()
        })
        .collect();
    assert_eq!(ids.len(), 1);
    assert_eq!(count_intents(&a, Backend::Postgres).await, 1);
}

/// Joins futures without another dependency: each on its own task.
async fn futures_join_all<F, T>(futures: impl IntoIterator<Item = F>) -> Vec<T>
where
    F: std::future::Future<Output = T>,
{
    // The futures borrow the server, so they cannot be spawned; poll them together instead.
    let futures: Vec<_> = futures.into_iter().map(Box::pin).collect();
    let mut pending: Vec<Option<std::pin::Pin<Box<F>>>> = futures.into_iter().map(Some).collect();
    let mut results: Vec<Option<T>> = (0..pending.len()).map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut all_done = true;
        for (slot, result) in pending.iter_mut().zip(results.iter_mut()) {
            if let Some(f) = slot {
                match f.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => {
                        *result = Some(v);
                        *slot = None;
                    }
                    std::task::Poll::Pending => all_done = false,
                }
            }
        }
        if all_done {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    results.into_iter().map(|r| r.unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn authentication_and_grants_follow_the_contract() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let body = charge_body("demo-store");
        let url = format!("{}/payments/charge", server.base);
        // 401: missing, malformed, unknown.
        let r = server
            .client
            .post(&url)
            .header("Idempotency-Key", "a")
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 401);
        let e: Value = r.json().await.unwrap();
        assert_eq!(e["error"]["code"], "missing_api_key");
        assert_eq!(e["success"], false);
        let (s, e) = server.charge("pxg_000000000000_nope", "a", &body).await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (401, Some("invalid_api_key"))
        );
        let r = server
            .client
            .post(&url)
            .header("Authorization", "Basic abc")
            .header("Idempotency-Key", "a")
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 401);

        // Another merchant with its own store and key.
        let other_key = server
            .merchant_with_store("acme", "acme-store", "SHADOW")
            .await;
        // Its store is not found for the demo key (no cross-tenant leak).
        let (s, e) = server
            .charge(&server.demo_key, "a", &charge_body("acme-store"))
            .await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (404, Some("store_not_found"))
        );
        // A store of the demo merchant the key is not granted: 403.
        let (s, _) = server
            .admin_post("/stores", json!({"code": "demo-second", "name": "Second", "merchant": "demo", "mode": "SHADOW"}))
            .await;
        assert_eq!(s, 201);
        let (s, e) = server
            .charge(&server.demo_key, "a", &charge_body("demo-second"))
            .await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (403, Some("store_not_granted"))
        );
        // Reading another merchant's intent: 404.
        let (s, created) = server
            .charge(&other_key, "b", &charge_body("acme-store"))
            .await;
        assert_eq!(s, 200, "{created}");
        let acme_id = created["data"]["paymentIntentId"].as_str().unwrap();
        let (s, e) = server.get_payment(&server.demo_key, acme_id).await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (404, Some("payment_intent_not_found"))
        );
        let (s, _) = server.get_payment(&server.demo_key, "not-a-uuid").await;
        assert_eq!(s, 404);
        let (s, _) = server
            .get_payment(&server.demo_key, "0193a4f0-0000-7000-8000-000000000000")
            .await;
        assert_eq!(s, 404);
        // A key granted only the second store cannot read intents of demo-store.
        let (_, k) = server
            .admin_post(
                "/api-keys",
                json!({"merchant": "demo", "stores": ["demo-second"]}),
            )
            .await;
        let second_key = k["data"]["apiKey"].as_str().unwrap().to_owned();
        let (_, mine) = server
            .charge(&server.demo_key, "c", &charge_body("demo-store"))
            .await;
        let (s, _) = server
            .get_payment(
                &second_key,
                mine["data"]["paymentIntentId"].as_str().unwrap(),
            )
            .await;
        assert_eq!(s, 404);
        // A key without payments:create: 403 on charge and read; payments:read may read.
        let (_, k) = server
            .admin_post("/api-keys", json!({"merchant": "demo", "stores": ["demo-store"], "scopes": ["webhooks:manage"]}))
            .await;
        let hooks_only = k["data"]["apiKey"].as_str().unwrap().to_owned();
        let (s, e) = server.charge(&hooks_only, "d", &body).await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (403, Some("insufficient_scope"))
        );
        let (s, _) = server
            .get_payment(
                &hooks_only,
                mine["data"]["paymentIntentId"].as_str().unwrap(),
            )
            .await;
        assert_eq!(s, 403);
        let (_, k) = server
            .admin_post(
                "/api-keys",
                json!({"merchant": "demo", "stores": ["demo-store"], "scopes": ["payments:read"]}),
            )
            .await;
        let reader = k["data"]["apiKey"].as_str().unwrap().to_owned();
        let (s, _) = server
            .get_payment(&reader, mine["data"]["paymentIntentId"].as_str().unwrap())
            .await;
        assert_eq!(s, 200);
        let (s, _) = server.charge(&reader, "e", &body).await;
        assert_eq!(s, 403);
        // Revocation is immediate.
        let key_id = k["data"]["keyId"].as_str().unwrap();
        let (s, _) = server
            .admin_post(&format!("/api-keys/{key_id}/revoke"), json!({}))
            .await;
        assert_eq!(s, 200);
        let (s, e) = server
            .get_payment(&reader, mine["data"]["paymentIntentId"].as_str().unwrap())
            .await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (401, Some("api_key_revoked"))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_gets_a_clear_4xx_with_the_envelope_and_no_5xx() {
    let server = Server::start(Backend::Sqlite).await;
    let url = format!("{}/payments/charge", server.base);
    let key = &server.demo_key;
    // The valid body with one value replaced (by JSON pointer), the code and field expected.
    let with = |pointer: &str, value: Value| {
        let mut body = charge_body("demo-store");
        *body
            .pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{pointer}")) = value;
        body
    };
    let with_new = |object: &str, key: &str, value: Value| {
        let mut body = charge_body("demo-store");
        body.pointer_mut(object).unwrap()[key] = value;
        body
    };
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({"amount": 10}), "missing_field", "store"),
        (json!(["not", "an", "object"]), "invalid_request", ""),
        (with("/amount", json!(10.001)), "invalid_amount", "amount"),
        (with("/amount", json!(0)), "invalid_amount", "amount"),
        (with("/amount", json!("10.00")), "invalid_amount", "amount"),
        (
            with("/currency", json!("USD")),
            "unsupported_currency",
            "currency",
        ),
        (
            with("/reference", json!("r".repeat(161))),
            "invalid_reference",
            "reference",
        ),
        (
            with("/description", json!("d".repeat(201))),
            "invalid_description",
            "description",
        ),
        (
            with("/payer/taxId", json!("11.111.111/1111-11")),
            "invalid_tax_id",
            "payer.taxId",
        ),
        (
            with("/payer/email", json!("ana@")),
            "invalid_email",
            "payer.email",
        ),
        (
            with("/payer/phone", json!("call me")),
            "invalid_phone",
            "payer.phone",
        ),
        (
            with_new("/payer", "nickname", json!("x")),
            "unknown_field",
            "payer.nickname",
        ),
        (
            with("/metadata", json!([1])),
            "invalid_metadata",
            "metadata",
        ),
        (
            with("/metadata", json!({"blob": "x".repeat(17 * 1024)})),
            "metadata_too_large",
            "metadata",
        ),
        (
            with_new("", "refrence", json!("typo")),
            "unknown_field",
            "refrence",
        ),
    ];
    for (i, (body, code, field)) in cases.into_iter().enumerate() {
        let (status, e) = server.charge(key, &format!("bad-{i}"), &body).await;
        assert_eq!(status, 400, "case {i}: {e}");
        assert_eq!(e["error"]["code"], code, "case {i}: {e}");
        if !field.is_empty() {
            assert_eq!(e["error"]["field"], field, "case {i}");
        }
        assert!(
            e["error"]["requestId"]
                .as_str()
                .is_some_and(|r| !r.is_empty())
        );
    }
    // An alphanumeric CNPJ is a valid payer.
    let mut b = charge_body("demo-store");
    b["payer"]["taxId"] = json!("12.ABC.345/01DE-35");
    assert_eq!(server.charge(key, "cnpj", &b).await.0, 200);

    // Raw requests: the status and the error code (if any) of each.
    let send = |body: String, content_type: &'static str, idem: Option<String>| {
        let mut r = server
            .client
            .post(&url)
            .bearer_auth(key)
            .header("Content-Type", content_type)
            .body(body);
        if let Some(k) = idem {
            r = r.header("Idempotency-Key", k);
        }
        async move {
            let r = r.send().await.unwrap();
            let status = r.status().as_u16();
            let body: Value = r.json().await.unwrap_or(Value::Null);
            (
                status,
                body["error"]["code"].as_str().unwrap_or("").to_owned(),
            )
        }
    };
    let valid = charge_body("demo-store").to_string();
    let big = format!("{{\"pad\": \"{}\"}}", "x".repeat(70 * 1024));
    for (body, content_type, idem, status, code) in [
        (
            "{\"store\": ".to_owned(),
            "application/json",
            Some("j".to_owned()),
            400,
            "invalid_json",
        ),
        (
            valid.clone(),
            "text/plain",
            Some("t".to_owned()),
            415,
            "unsupported_media_type",
        ),
        (
            big,
            "application/json",
            Some("big".to_owned()),
            413,
            "payload_too_large",
        ),
        (
            valid.clone(),
            "application/json",
            None,
            400,
            "missing_idempotency_key",
        ),
        (
            valid.clone(),
            "application/json",
            Some("k".repeat(201)),
            400,
            "invalid_idempotency_key",
        ),
        (
            valid.clone(),
            "application/json",
            Some("k".repeat(200)),
            200,
            "",
        ),
    ] {
        assert_eq!(
            send(body, content_type, idem).await,
            (status, code.to_owned()),
            "{code}"
        );
    }
    // Unknown route and wrong method answer in the envelope too.
    let r = server
        .client
        .get(format!("{}/nowhere", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(
        r.json::<Value>().await.unwrap()["error"]["code"],
        "not_found"
    );
    let r = server.client.delete(&url).send().await.unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(
        r.json::<Value>().await.unwrap()["error"]["code"],
        "method_not_allowed"
    );
    assert!(
        !server.logs().contains("internal error"),
        "{}",
        server.logs()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_live_store_refuses_charges_until_live_execution_exists() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = server
            .merchant_with_store("shop", "shop-live", "LIVE")
            .await;
        let (s, e) = server
            .charge(&key, "live-1", &charge_body("shop-live"))
            .await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (403, Some("live_execution_disabled")),
            "{e}"
        );
        assert!(e.get("data").is_none(), "nothing was created");
        // Switching the store to SHADOW makes the same key work: the 403 was not stored.
        let (s, _) = server
            .admin_patch("/stores/shop-live", json!({"mode": "SHADOW"}))
            .await;
        assert_eq!(s, 200);
        let (s, b) = server
            .charge(&key, "live-1", &charge_body("shop-live"))
            .await;
        assert_eq!(
            (s, b["data"]["status"].as_str()),
            (200, Some("SHADOW_ONLY"))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn store_configuration_and_gateway_grants_steer_the_chain() {
    let server = Server::start(Backend::Sqlite).await;
    let key = server
        .merchant_with_store("cfg", "cfg-store", "SHADOW")
        .await;
    let (s, _) = server
        .admin_patch("/stores/cfg-store", json!({"config": {"routing.policy": "lowest-cost", "limits.max-amount-centavos": "100000"}}))
        .await;
    assert_eq!(s, 200);
    let (_, b) = server.charge(&key, "c1", &charge_body("cfg-store")).await;
    assert_eq!(b["data"]["routing"]["policy"], "lowest-cost");
    assert_eq!(b["data"]["routing"]["gatewayAlias"], "sandbox-b-d30");
    let mut big = charge_body("cfg-store");
    big["amount"] = json!(1000.01);
    let (s, e) = server.charge(&key, "c2", &big).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (400, Some("amount_above_store_limit"))
    );
    let (s, _) = server
        .admin_post("/stores/cfg-store/gateways", json!({}))
        .await;
    assert_eq!(s, 405);
    let r = server
        .client
        .put(format!("{}/stores/cfg-store/gateways", server.admin))
        .bearer_auth(&server.admin_token)
        .json(&json!({"gateways": ["sandbox-a-d1"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let (_, b) = server.charge(&key, "c3", &charge_body("cfg-store")).await;
    assert_eq!(b["data"]["routing"]["gatewayAlias"], "sandbox-a-d1");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_over_its_rate_limit_gets_429_with_retry_after() {
    let server = Server::start_with(
        Backend::Sqlite,
        &[
            ("PIXGATE_RATE_LIMIT_PER_SECOND", "1"),
            ("PIXGATE_RATE_LIMIT_BURST", "2"),
        ],
    )
    .await;
    let mut statuses = Vec::new();
    let mut retry_after = None;
    for i in 0..4 {
        let r = server
            .client
            .get(format!(
                "{}/payments/0193a4f0-0000-7000-8000-00000000000{i}",
                server.base
            ))
            .bearer_auth(&server.demo_key)
            .send()
            .await
            .unwrap();
        statuses.push(r.status().as_u16());
        if r.status() == 429 {
            retry_after = r
                .headers()
                .get("retry-after")
                .map(|v| v.to_str().unwrap().to_owned());
            assert_eq!(
                r.json::<Value>().await.unwrap()["error"]["code"],
                "rate_limited"
            );
        }
    }
    assert_eq!(&statuses[..2], &[404, 404]);
    assert!(statuses[2..].contains(&429), "{statuses:?}");
    assert!(retry_after.unwrap().parse::<u64>().unwrap() >= 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn edge_inputs_are_4xx_or_replays_on_every_backend() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = &server.demo_key;
        // PostgreSQL refuses NUL in text; the API refuses control characters first.
        for field in ["reference", "description"] {
            let mut b = charge_body("demo-store");
            b[field] = json!("order\u{0}x");
            let (s, e) = server.charge(key, &format!("nul-{field}"), &b).await;
            assert_eq!(s, 400, "{backend:?} {field}: {e}");
        }
        let mut b = charge_body("demo-store");
        b["payer"]["name"] = json!("Ana\u{0}");
        assert_eq!(server.charge(key, "nul-name", &b).await.0, 400);
        // An empty description is allowed.
        let mut b = charge_body("demo-store");
        b["description"] = json!("");
        assert_eq!(server.charge(key, "empty-description", &b).await.0, 200);
        // 100 and 100.0 are the same amount: a replay, not a conflict.
        let mut b = charge_body("demo-store");
        b["amount"] = json!(100);
        assert_eq!(server.charge(key, "hundred", &b).await.0, 200);
        let text = b.to_string().replace("\"amount\":100", "\"amount\":100.0");
        assert!(text.contains("100.0"));
        let r = server
            .client
            .post(format!("{}/payments/charge", server.base))
            .bearer_auth(key)
            .header("Idempotency-Key", "hundred")
            .header("Content-Type", "application/json")
            .body(text)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(
            r.json::<Value>().await.unwrap()["data"]["idempotentReplay"],
            true
        );
        // A malformed id in the path is a 404, whatever its encoding.
        let (s, _) = server.get_payment(key, "%FF").await;
        assert_eq!(s, 404);
        // Admin path parameters with a NUL are 404, not a database error.
        let (s, _) = server.admin_get("/stores/a%00b").await;
        assert_eq!(s, 404);
        let (s, _) = server.admin_get("/payment-intents/%00/trace").await;
        assert_eq!(s, 404);
        let (s, _) = server.admin_get("/api-keys?merchant=%00").await;
        assert_eq!(s, 404);
        let (s, _) = server
            .admin_post("/merchants", json!({"code": "x", "name": "a\u{0}b"}))
            .await;
        assert_eq!(s, 400);
        assert!(
            !server.logs().contains("internal error"),
            "{}",
            server.logs()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_smallest_charge_resolves_on_a_fresh_install() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let mut body = charge_body("demo-store");
        body["amount"] = json!(0.01);
        let (status, body) = server.charge(&server.demo_key, "one-centavo", &body).await;
        assert_eq!(status, 200, "{backend:?} {body}");
        let data = &body["data"];
        assert_eq!(data["status"], "SHADOW_ONLY");
        // Every sandbox gateway's minimum fee is at least a centavo: the fee is capped at
        // the amount and the charge nets zero.
        assert_eq!(data["economics"]["feeAmount"], 0.01, "{data}");
        assert_eq!(data["economics"]["netAmount"], 0.0, "{data}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn equivalent_bodies_replay_under_one_idempotency_key() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let mut first = charge_body("demo-store");
        first.as_object_mut().unwrap().remove("currency");
        first.as_object_mut().unwrap().remove("description");
        first["payer"]["taxId"] = json!("529.982.247-25");
        let (status, created) = server.charge(&server.demo_key, "equivalent", &first).await;
        assert_eq!(status, 200, "{created}");
        // The same charge written differently: currency spelled out, punctuation-free tax
        // id, an explicit null, keys in another order.
        let mut same = charge_body("demo-store");
        same["currency"] = json!("BRL");
        same["payer"]["taxId"] = json!("52998224725");
        same["description"] = Value::Null;
        let (status, replayed) = server.charge(&server.demo_key, "equivalent", &same).await;
        assert_eq!(status, 200, "{backend:?} {replayed}");
        assert_eq!(replayed["data"]["idempotentReplay"], true);
        assert_eq!(
            replayed["data"]["paymentIntentId"],
            created["data"]["paymentIntentId"]
        );
        let mut different = same.clone();
        different["amount"] = json!(129.91);
        let (status, conflict) = server
            .charge(&server.demo_key, "equivalent", &different)
            .await;
        assert_eq!(
            (status, conflict["error"]["code"].as_str()),
            (409, Some("idempotency_key_reused"))
        );
    }
}

/// `POST /payments/charge` with a body as written (numbers and all) and the headers given;
/// the status, the JSON body and the body's text.
async fn charge_raw(
    server: &Server,
    headers: &[(&str, &[u8])],
    body: &str,
) -> (u16, Value, String) {
    let mut r = server
        .client
        .post(format!("{}/payments/charge", server.base))
        .bearer_auth(&server.demo_key)
        .header("Content-Type", "application/json")
        .body(body.to_owned());
    for (name, value) in headers {
        // `header` appends: a name given twice is sent twice.
        r = r.header(
            *name,
            reqwest::header::HeaderValue::from_bytes(value).unwrap(),
        );
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
    )
}

/// A valid charge body with `metadata` and `amount` as written.
fn charge_text(amount: &str, metadata: &str) -> String {
    format!(
        r#"{{"store": "demo-store", "amount": {amount}, "reference": "order-1",
            "payer": {{"name": "Ana Souza", "taxId": "529.982.247-25"}}, "metadata": {metadata}}}"#
    )
}

/// Issues 17 and 30: metadata comes back exactly as sent, every number with the digits it
/// was written with (a Java client's 17 digits, an identifier past 2^64, `1.10`), from the
/// charge, from a read and from a replay; only a number beyond any double is refused, naming
/// the field (never `invalid_json`); on both backends.
#[tokio::test(flavor = "multi_thread")]
async fn metadata_comes_back_as_sent_and_only_numbers_beyond_a_double_are_refused() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = |k: &'static str| [("Idempotency-Key", k.as_bytes())];

        for (i, (metadata, field)) in [
            (r#"{"score": 1e400}"#, "metadata.score"),
            (
                r#"{"cart": {"items": [1, -1.5e309]}}"#,
                "metadata.cart.items[1]",
            ),
        ]
        .into_iter()
        .enumerate()
        {
            let idem = format!("meta-bad-{i}");
            let (s, b, _) = charge_raw(
                &server,
                &[("Idempotency-Key", idem.as_bytes())],
                &charge_text("10", metadata),
            )
            .await;
            assert_eq!(
                (s, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
                (400, Some("invalid_metadata"), Some(field)),
                "{backend:?} {metadata}: {b}"
            );
            assert!(
                b["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("beyond the range"),
                "{b}"
            );
        }
        let (s, b, _) =
            charge_raw(&server, &key("amount-1e400"), &charge_text("1e400", "{}")).await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (400, Some("invalid_amount")),
            "{b}"
        );

        // What is accepted comes back in the same spelling, from the charge and from a read.
        let kept = r#"{"x": 4.5291683372467266e+179, "orderId": 123456789012345678901234567890,
                       "n": 42, "f": 1.10, "e": 1.5e3, "big": 18446744073709551615,
                       "text": "caf\u00e9", "nul\u0000key": "a\u0000b"}"#;
        let echoed = r#""metadata":{"x":4.5291683372467266e+179,"orderId":123456789012345678901234567890,"n":42,"f":1.10,"e":1.5e3,"big":18446744073709551615,"text":"caf\u00e9","nul\u0000key":"a\u0000b"}"#;
        let (s, b, first) = charge_raw(&server, &key("meta-ok"), &charge_text("10", kept)).await;
        assert_eq!(s, 200, "{b}");
        assert!(first.contains(echoed), "{first}");
        let id = b["data"]["paymentIntentId"].as_str().unwrap();
        let r = server
            .client
            .get(format!("{}/payments/{id}", server.base))
            .bearer_auth(&server.demo_key)
            .send()
            .await
            .unwrap();
        let read = r.text().await.unwrap();
        assert!(read.contains(echoed), "{read}");
        // The same request replays the stored answer byte for byte, but for the flag.
        let (s, _, replayed) = charge_raw(&server, &key("meta-ok"), &charge_text("10", kept)).await;
        assert_eq!(s, 200);
        assert_eq!(
            replayed,
            first.replacen(
                r#""idempotentReplay":false"#,
                r#""idempotentReplay":true"#,
                1
            )
        );
        // Compared as parsed JSON: the same numbers in another layout and spelling replay
        // (`45.291683372467266e+178` for `4.5291683372467266e+179`, `1.1` for `1.10`, `1500`
        // for `1.5e3`, `42.0` for `42`, `é` for its escape).
        let relaid = r#"{"nul\u0000key": "a\u0000b", "text": "café", "big": 18446744073709551615,
                         "e": 1500, "f": 1.1, "n": 42.0, "orderId": 123456789012345678901234567890,
                         "x": 45.291683372467266e+178}"#;
        let (s, b, _) = charge_raw(&server, &key("meta-ok"), &charge_text("10.00", relaid)).await;
        assert_eq!(
            (s, b["data"]["idempotentReplay"].as_bool()),
            (200, Some(true)),
            "{b}"
        );
        assert_eq!(b["data"]["paymentIntentId"], id);
        // Another identifier is another request; so is the shortest spelling of the double
        // next to `x` (`4.529168337246726e+179`, which serde_json's best-effort parsing read
        // `x` as, and which pixgate once echoed for it).
        let neighbour = kept.replace("4.5291683372467266e+179", "4.529168337246726e+179");
        let (s, b, _) = charge_raw(&server, &key("meta-ok"), &charge_text("10", &neighbour)).await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (409, Some("idempotency_key_reused")),
            "{b}"
        );
        let other = kept.replace(
            "123456789012345678901234567890",
            "123456789012345678901234567891",
        );
        let (s, b, _) = charge_raw(&server, &key("meta-ok"), &charge_text("10", &other)).await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (409, Some("idempotency_key_reused")),
            "{b}"
        );
    }
}

/// Issue 17: the Idempotency-Key is what the documents say (1 to 200 visible ASCII
/// characters, spaces inside, one header), and a wrongly typed amount is refused in the
/// merchant's terms.
#[tokio::test(flavor = "multi_thread")]
async fn idempotency_keys_and_type_errors_are_refused_as_documented() {
    let server = Server::start(Backend::Sqlite).await;
    let body = charge_body("demo-store").to_string();
    for (headers, says) in [
        (
            vec![("Idempotency-Key", "chave-çaí".as_bytes())],
            "visible ASCII",
        ),
        (vec![("Idempotency-Key", &b"   "[..])], "blank"),
        (vec![("Idempotency-Key", &b" \t "[..])], "blank"),
        (
            vec![
                ("Idempotency-Key", &b"k-1"[..]),
                ("Idempotency-Key", &b"k-2"[..]),
            ],
            "several",
        ),
        (
            vec![
                ("Idempotency-Key", &b"k-1"[..]),
                ("idempotency-key", &b"k-1"[..]),
            ],
            "several",
        ),
    ] {
        let (s, b, _) = charge_raw(&server, &headers, &body).await;
        assert_eq!(
            (s, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
            (
                400,
                Some("invalid_idempotency_key"),
                Some("Idempotency-Key")
            ),
            "{headers:?}: {b}"
        );
        let message = b["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{headers:?}: {message}");
    }
    // Spaces inside a key are part of it.
    let (s, b, _) = charge_raw(&server, &[("Idempotency-Key", b"order 42 / try 1")], &body).await;
    assert_eq!(s, 200, "{b}");

    let (s, b, _) = charge_raw(
        &server,
        &[("Idempotency-Key", b"amount-string")],
        &charge_text("\"10\"", "{}"),
    )
    .await;
    assert_eq!(
        (s, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
        (400, Some("invalid_amount"), Some("amount")),
        "{b}"
    );
    assert_eq!(
        b["error"]["message"],
        "`amount` must be a JSON number in reais with at most two decimals, such as 129.9, not \
         a string"
    );
    let (_, b, _) = charge_raw(
        &server,
        &[("Idempotency-Key", b"reference-number")],
        &charge_body("demo-store")
            .to_string()
            .replace("\"order-10042\"", "42"),
    )
    .await;
    assert_eq!(
        b["error"]["message"],
        "`reference` must be a string, not a number"
    );
}

/// Issue 17: a store configuration the bundled components cannot read is refused when it is
/// written, naming the key, rather than failing every charge afterwards; on both backends.
#[tokio::test(flavor = "multi_thread")]
async fn a_store_configuration_the_bundled_components_cannot_read_is_refused_when_written() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = server
            .merchant_with_store("cfgcheck", "cfgcheck-store", "SHADOW")
            .await;
        let store = |config: Value| {
            json!({"code": "cfgcheck-2", "name": "n", "merchant": "cfgcheck", "mode": "SHADOW",
                   "config": config})
        };
        for (config, status, field) in [
            (
                json!({"routing.policy": "nope"}),
                400,
                "config.routing.policy",
            ),
            (
                json!({"routing.max-attempts": "0"}),
                400,
                "config.routing.max-attempts",
            ),
            (
                json!({"routing.release-classes": "D0,T+1"}),
                400,
                "config.routing.release-classes",
            ),
            (
                json!({"limits.min-amount-centavos": "5000", "limits.max-amount-centavos": "100"}),
                422,
                "config.limits.min-amount-centavos",
            ),
        ] {
            let (s, b) = server.admin_post("/stores", store(config.clone())).await;
            assert_eq!(
                (s, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
                (status, Some("invalid_store_config"), Some(field)),
                "{backend:?} POST {config}: {b}"
            );
            let (s, b) = server
                .admin_patch("/stores/cfgcheck-store", json!({"config": config}))
                .await;
            assert_eq!(
                (s, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
                (status, Some("invalid_store_config"), Some(field)),
                "{backend:?} PATCH {config}: {b}"
            );
        }
        // Nothing was written: the store still charges, and the refused code is free.
        let (s, b) = server.admin_get("/stores/cfgcheck-store").await;
        assert_eq!((s, &b["data"]["config"]), (200, &json!({})), "{b}");
        let (s, _) = server.admin_get("/stores/cfgcheck-2").await;
        assert_eq!(s, 404);
        let (s, b) = server
            .charge(&key, "cfgcheck-1", &charge_body("cfgcheck-store"))
            .await;
        assert_eq!(s, 200, "{b}");
        // Values the components read, and keys of custom components, are written.
        let (s, b) = server
            .admin_patch(
                "/stores/cfgcheck-store",
                json!({"config": {"routing.policy": "lowest-cost", "routing.release-classes": "d0, D1",
                                  "limits.min-amount-centavos": "100",
                                  "limits.max-amount-centavos": "100",
                                  "mine.threshold": "whatever"}}),
            )
            .await;
        assert_eq!(s, 200, "{b}");
    }
}

/// Issue 30: the admin evaluate route takes the charge the merchant route takes, metadata
/// included (its document allows any key, NUL and all): a NUL in a metadata key or value, or
/// a 17-digit number, is decided on, and the components read the metadata as sent.
#[tokio::test(flavor = "multi_thread")]
async fn evaluate_takes_the_metadata_a_charge_takes() {
    let server = Server::start(Backend::Sqlite).await;
    let metadata = r#"{"k\u0000": "v\u0000", "x": 4.5291683372467266e+179}"#;
    let body = format!(
        r#"{{"store": "demo-store", "charge": {{"amount": 10, "reference": "order-1",
            "payer": {{"name": "Ana Souza", "taxId": "529.982.247-25"}}, "metadata": {metadata}}}}}"#
    );
    let r = server
        .client
        .post(format!("{}/evaluate", server.admin))
        .bearer_auth(&server.admin_token)
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let eval: Value = r.json().await.unwrap();
    assert_eq!(status, 200, "{eval}");
    assert_eq!(eval["data"]["outcome"]["status"], "resolved", "{eval}");
    let given = &eval["data"]["trace"]["policy"]["input"]["charge"]["metadataJson"];
    assert_eq!(
        given.as_str(),
        Some(r#"{"k\u0000":"v\u0000","x":4.5291683372467266e+179}"#),
        "{eval}"
    );
    // A NUL elsewhere in the body is still refused, naming the field.
    let (status, refused) = server
        .admin_post(
            "/evaluate",
            json!({"store": "demo-store", "charge": {"amount": 10, "reference": "a\u{0}b",
                "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"}}}),
        )
        .await;
    assert_eq!(
        (status, refused["error"]["field"].as_str()),
        (400, Some("charge.reference")),
        "{refused}"
    );
}
