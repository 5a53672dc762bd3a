//! Pix Automático mandates end to end (DESIGN.md section 17), against a real `pixgate serve`
//! on SQLite and PostgreSQL: a SHADOW store's mandate resolved through the chain once and
//! recorded, replayed by its Idempotency-Key, read, searched and refused where the contract
//! says; the first payment of a `QR_WITH_FIRST_PAYMENT` mandate made as an ordinary charge.

use pixgate_e2e::invoice_due_date;
use pixgate_e2e::server::{Server, backends};
use serde_json::{Value, json};

/// A key of the demo merchant with `scopes`.
async fn key_with(server: &Server, scopes: &[&str]) -> String {
    let (s, b) = server
        .admin_post(
            "/api-keys",
            json!({"merchant": "demo", "stores": ["demo-store"], "scopes": scopes}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    b["data"]["apiKey"].as_str().unwrap().to_owned()
}

/// A monthly mandate of R$ 99,90 for the demo store, with the fields of `extra` on top
/// (`null` removes one).
fn mandate_body(extra: Value) -> Value {
    let mut body = json!({
        "store": "demo-store",
        "reference": "gym-contract-7",
        "description": "Gym monthly plan",
        "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
        "frequency": "MONTHLY",
        "startDate": invoice_due_date().to_string(),
        "amount": 99.9,
        "retryPolicy": "UP_TO_3_IN_7_DAYS",
        "journey": "QR",
        "metadata": {"plan": "gold", "seats": 1.10}
    });
    for (k, v) in extra.as_object().unwrap() {
        if v.is_null() {
            body.as_object_mut().unwrap().remove(k);
        } else {
            body[k] = v.clone();
        }
    }
    body
}

async fn post_mandate(server: &Server, key: &str, idem: &str, body: &Value) -> (u16, Value) {
    let r = server
        .client
        .post(format!("{}/mandates", server.base))
        .bearer_auth(key)
        .header("Idempotency-Key", idem)
        .json(body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

async fn get(server: &Server, key: &str, path: &str) -> (u16, Value) {
    let r = server
        .client
        .get(format!("{}{path}", server.base))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

async fn post(server: &Server, key: &str, path: &str) -> (u16, Value) {
    let r = server
        .client
        .post(format!("{}{path}", server.base))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

fn code(body: &Value) -> (&str, &str) {
    (
        body["error"]["code"].as_str().unwrap_or_default(),
        body["error"]["field"].as_str().unwrap_or_default(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_shadow_store_records_a_mandate_once_and_the_key_replays_it() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let manager = key_with(&server, &["mandates:manage"]).await;
        let body = mandate_body(json!({}));

        // The demo key has the default scopes, which never include mandates:manage.
        let (s, b) = post_mandate(&server, &server.demo_key, "m-1", &body).await;
        assert_eq!((s, code(&b).0), (403, "insufficient_scope"), "{b}");

        let (s, first) = post_mandate(&server, &manager, "m-1", &body).await;
        assert_eq!(s, 200, "{first}");
        let m = &first["data"];
        assert_eq!(m["status"], "SHADOW_ONLY");
        assert_eq!(m["idempotentReplay"], false);
        assert_eq!(m["store"]["code"], "demo-store");
        assert_eq!(m["frequency"], "MONTHLY");
        assert_eq!(m["amount"], 99.9);
        assert_eq!(
            m["autoCharge"], true,
            "a fixed amount charges itself by default"
        );
        assert_eq!(m["retryPolicy"], "UP_TO_3_IN_7_DAYS");
        assert_eq!(m["journey"], "QR");
        assert_eq!(
            m["payer"],
            json!({"name": "Ana Souza"}),
            "the tax id stays sealed"
        );
        assert_eq!(m["routing"]["mode"], "SHADOW");
        let provider = m["routing"]["providerCode"].as_str().unwrap();
        assert!(!provider.is_empty(), "{m}");
        assert_eq!(m["provider"]["code"], provider);
        assert_eq!(m["provider"]["recurrenceId"], Value::Null);
        assert_eq!(m["metadata"], json!({"plan": "gold", "seats": 1.10}));
        assert!(
            !first.to_string().contains("52998224725"),
            "no tax id in the answer"
        );

        // The same key and body: the same mandate, replayed; the same key, another body: 409.
        let (s, again) = post_mandate(&server, &manager, "m-1", &body).await;
        assert_eq!(s, 200, "{again}");
        assert_eq!(again["data"]["mandateId"], m["mandateId"]);
        assert_eq!(again["data"]["idempotentReplay"], true);
        let (s, b) = post_mandate(
            &server,
            &manager,
            "m-1",
            &mandate_body(json!({"frequency": "WEEKLY"})),
        )
        .await;
        assert_eq!((s, code(&b).0), (409, "idempotency_key_reused"), "{b}");

        // Read by id with either scope; the demo key has neither.
        let id = m["mandateId"].as_str().unwrap();
        let (s, read) = get(&server, &manager, &format!("/mandates/{id}")).await;
        assert_eq!(s, 200, "{read}");
        assert_eq!(read["data"]["reference"], "gym-contract-7");
        let reader = key_with(&server, &["payments:read"]).await;
        let (s, _) = get(&server, &reader, &format!("/mandates/{id}")).await;
        assert_eq!(s, 200);
        let (s, b) = get(&server, &server.demo_key, &format!("/mandates/{id}")).await;
        assert_eq!((s, code(&b).0), (403, "insufficient_scope"), "{b}");
        let (s, b) = get(&server, &manager, "/mandates/not-a-uuid").await;
        assert_eq!((s, code(&b).0), (404, "mandate_not_found"), "{b}");

        // A SHADOW mandate was never at a PSP: nothing to cancel.
        let (s, b) = post(&server, &manager, &format!("/mandates/{id}/cancel")).await;
        assert_eq!((s, code(&b).0), (409, "mandate_not_cancelable"), "{b}");

        // Another merchant's key does not see it.
        let other = server
            .merchant_with_store("other", "other-store", "SHADOW")
            .await;
        let (s, b) = server
            .admin_post(
                "/api-keys",
                json!({"merchant": "other", "stores": ["other-store"], "scopes": ["mandates:manage"]}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        let other_manager = b["data"]["apiKey"].as_str().unwrap().to_owned();
        let (s, b) = get(&server, &other_manager, &format!("/mandates/{id}")).await;
        assert_eq!((s, code(&b).0), (404, "mandate_not_found"), "{b}");
        let (s, b) = post_mandate(&server, &other_manager, "m-x", &body).await;
        assert_eq!((s, code(&b).0), (404, "store_not_found"), "{b}");
        drop(other);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn mandates_are_searched_newest_first_a_page_at_a_time() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let manager = key_with(&server, &["mandates:manage"]).await;
        let mut made = Vec::new();
        for i in 0..3 {
            let body = mandate_body(json!({"reference": format!("contract-{i}")}));
            let (s, b) = post_mandate(&server, &manager, &format!("k-{i}"), &body).await;
            assert_eq!(s, 200, "{b}");
            made.push(b["data"]["mandateId"].as_str().unwrap().to_owned());
        }
        let ids = |b: &Value| -> Vec<String> {
            b["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["mandateId"].as_str().unwrap().to_owned())
                .collect()
        };
        let (s, page) = get(&server, &manager, "/mandates?limit=2").await;
        assert_eq!(s, 200, "{page}");
        assert_eq!(ids(&page), vec![made[2].clone(), made[1].clone()]);
        let (s, rest) = get(
            &server,
            &manager,
            &format!("/mandates?limit=2&after={}", made[1]),
        )
        .await;
        assert_eq!(s, 200, "{rest}");
        assert_eq!(ids(&rest), vec![made[0].clone()]);
        let (_, by_ref) = get(&server, &manager, "/mandates?reference=contract-1").await;
        assert_eq!(ids(&by_ref), vec![made[1].clone()]);
        let (_, by_status) = get(
            &server,
            &manager,
            "/mandates?status=SHADOW_ONLY&store=demo-store",
        )
        .await;
        assert_eq!(ids(&by_status).len(), 3);
        let (_, none) = get(&server, &manager, "/mandates?status=ACTIVE").await;
        assert!(ids(&none).is_empty());
        for (query, expected) in [
            ("status=LIVE", "invalid_status"),
            ("limit=0", "invalid_limit"),
            ("after=nope", "invalid_after"),
            ("sort=asc", "unknown_field"),
            ("status=ACTIVE&status=CANCELED", "invalid_status"),
        ] {
            let (s, b) = get(&server, &manager, &format!("/mandates?{query}")).await;
            assert_eq!((s, code(&b).0), (400, expected), "{query}: {b}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mandate_with_a_first_payment_charges_it_as_an_ordinary_payment_once() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let manager = key_with(&server, &["mandates:manage", "payments:read"]).await;
        let body = mandate_body(json!({
            "journey": "QR_WITH_FIRST_PAYMENT", "firstPayment": {"amount": 49.9}
        }));
        let (s, first) = post_mandate(&server, &manager, "with-first", &body).await;
        assert_eq!(s, 200, "{first}");
        let payment = first["data"]["firstPayment"]["paymentIntentId"]
            .as_str()
            .unwrap_or_else(|| panic!("{first}"))
            .to_owned();
        let (s, intent) = server.get_payment(&manager, &payment).await;
        assert_eq!(s, 200, "{intent}");
        assert_eq!(intent["data"]["status"], "SHADOW_ONLY");
        assert_eq!(intent["data"]["amount"], 49.9);
        assert_eq!(intent["data"]["kind"], "IMMEDIATE");
        assert_eq!(intent["data"]["reference"], "gym-contract-7");
        // A retry of the mandate names the same first payment.
        let (_, again) = post_mandate(&server, &manager, "with-first", &body).await;
        assert_eq!(again["data"]["firstPayment"]["paymentIntentId"], payment);
        let (_, page) = get(&server, &manager, "/payments?reference=gym-contract-7").await;
        assert_eq!(page["data"].as_array().unwrap().len(), 1, "{page}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mandate_that_breaks_a_rule_is_refused_with_its_code_and_nothing_is_made() {
    let server = Server::start(backends()[0]).await;
    let manager = key_with(&server, &["mandates:manage", "payments:read"]).await;
    for (extra, expected, field) in [
        (
            json!({"minimumAmount": 10}),
            "invalid_amount",
            "minimumAmount",
        ),
        (
            json!({"amount": null, "autoCharge": true}),
            "invalid_auto_charge",
            "autoCharge",
        ),
        (
            json!({"startDate": "2001-01-01"}),
            "invalid_start_date",
            "startDate",
        ),
        (json!({"journey": "PUSH"}), "missing_field", "payerAccount"),
        (
            json!({"journey": "QR_WITH_FIRST_PAYMENT"}),
            "missing_field",
            "firstPayment",
        ),
        (
            json!({"frequency": "DAILY"}),
            "invalid_frequency",
            "frequency",
        ),
        (
            json!({"reference": "r".repeat(36)}),
            "invalid_reference",
            "reference",
        ),
    ] {
        let (s, b) = post_mandate(&server, &manager, "refused", &mandate_body(extra.clone())).await;
        assert_eq!((s, code(&b)), (400, (expected, field)), "{extra}: {b}");
    }
    let (_, page) = get(&server, &manager, "/mandates").await;
    assert!(page["data"].as_array().unwrap().is_empty(), "{page}");
    // The refusals stored nothing: the key still makes a mandate.
    let (s, b) = post_mandate(&server, &manager, "refused", &mandate_body(json!({}))).await;
    assert_eq!(s, 200, "{b}");

    // A LIVE store whose live execution is off refuses it as it refuses a charge.
    server
        .merchant_with_store("shop", "shop-live", "LIVE")
        .await;
    let (s, b) = server
        .admin_post(
            "/api-keys",
            json!({"merchant": "shop", "stores": ["shop-live"], "scopes": ["mandates:manage"]}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let live_key = b["data"]["apiKey"].as_str().unwrap().to_owned();
    let (s, b) = post_mandate(
        &server,
        &live_key,
        "live",
        &mandate_body(json!({"store": "shop-live"})),
    )
    .await;
    assert_eq!((s, code(&b).0), (403, "live_execution_disabled"), "{b}");
}

/// The merchant guide's mandate body, sent as written with its start date moved ahead.
#[tokio::test(flavor = "multi_thread")]
async fn the_merchant_guides_mandate_is_taken_as_written() {
    let server = Server::start(backends()[0]).await;
    let manager = key_with(&server, &["mandates:manage", "payments:read"]).await;
    let mut body: Value = serde_json::from_str(&pixgate_e2e::docs::fenced_block(
        "docs/src/merchant-guide/mandates.md",
        "mandate-body",
        "json",
    ))
    .unwrap();
    body["startDate"] = json!(invoice_due_date().to_string());
    let (s, b) = post_mandate(&server, &manager, "guide", &body).await;
    assert_eq!(s, 200, "{b}");
    let m = &b["data"];
    assert_eq!(m["status"], "SHADOW_ONLY");
    assert_eq!(m["journey"], "QR_WITH_FIRST_PAYMENT");
    assert_eq!(m["amount"], 99.9);
    assert_eq!(m["autoCharge"], true);
    assert!(m["firstPayment"]["paymentIntentId"].is_string(), "{m}");
    assert_eq!(m["metadata"], json!({"plan": "gold"}));
}

/// GET the mandate until its status is `status` (the payer's answer reaches pixgate by a
/// callback and a read); panics after `timeout`.
async fn wait_mandate(server: &Server, key: &str, id: &str, status: &str) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let (s, b) = get(server, key, &format!("/mandates/{id}")).await;
        assert_eq!(s, 200, "{b}");
        if b["data"]["status"] == status {
            return b["data"].clone();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "mandate {id} is {} after 20 s, not {status}: {b}\n{}",
            b["data"]["status"],
            server.logs()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// A LIVE store's mandates at two simulators (mTLS), only one of which takes mandates (has a
/// receiving account): each journey goes there; the payer approves, rejects or is asked in
/// their bank; the merchant cancels; with no provider taking mandates it fails.
#[tokio::test(flavor = "multi_thread")]
async fn live_mandates_go_to_a_psp_that_takes_them_and_move_as_the_payer_answers() {
    use pixgate_e2e::live::{Live, STORE};
    for backend in backends() {
        let live = Live::start(backend, &[("PIXGATE_RECONCILE_INTERVAL", "300ms")]).await;
        let server = &live.server;
        let account =
            json!({"account": {"branch": "0001", "number": "123456", "type": "CORRENTE"}});
        let (s, b) = server.admin_patch("/providers/sandbox-b", account).await;
        assert_eq!(s, 200, "{b}");
        let key = live.key_with(&["mandates:manage", "payments:read"]).await;
        let body = |extra: Value| {
            let mut body = mandate_body(extra);
            body["store"] = json!(STORE);
            body
        };

        // QR: the recurrence at sandbox-b (sandbox-a takes no mandates), its code to scan.
        let (s, created) = post_mandate(server, &key, "live-qr", &body(json!({}))).await;
        assert_eq!(s, 200, "{created}\n{}", server.logs());
        let m = &created["data"];
        assert_eq!(m["status"], "PENDING_AUTHORIZATION", "{m}");
        assert_eq!(m["provider"]["code"], "sandbox-b", "{m}");
        let id_rec = m["provider"]["recurrenceId"].as_str().unwrap().to_owned();
        assert_eq!(id_rec.len(), 29, "{id_rec}");
        let code = m["authorization"]["copyAndPaste"]
            .as_str()
            .unwrap_or_else(|| panic!("{m}"));
        assert!(code.starts_with("000201"), "{code}");
        assert!(
            m["authorization"]["qrCodeSvg"]
                .as_str()
                .is_some_and(|svg| svg.contains("<svg")),
            "{m}"
        );
        let id = m["mandateId"].as_str().unwrap().to_owned();
        // The payer approves in their bank: the PSP's callback, then a read, moves it.
        live.b
            .post(&format!("/rec/{id_rec}/approve"), json!({}))
            .await;
        let active = wait_mandate(server, &key, &id, "ACTIVE").await;
        assert!(
            active["authorization"]["qrCodeSvg"].is_null(),
            "no code once answered"
        );
        // The merchant cancels it at its PSP.
        let (s, canceled) = post(server, &key, &format!("/mandates/{id}/cancel")).await;
        assert_eq!(s, 200, "{canceled}");
        assert_eq!(canceled["data"]["status"], "CANCELED");
        assert_eq!(
            canceled["data"]["cancellation"]["by"], "MERCHANT",
            "{canceled}"
        );
        let (s, again) = post(server, &key, &format!("/mandates/{id}/cancel")).await;
        assert_eq!((s, &again["data"]["status"]), (200, &json!("CANCELED")));

        // PUSH: the request goes to the payer's bank; they refuse it (AP13).
        let (s, pushed) = post_mandate(
            server,
            &key,
            "live-push",
            &body(json!({"journey": "PUSH",
                "payerAccount": {"ispb": "12345678", "branch": "0001", "account": "998877"}})),
        )
        .await;
        assert_eq!(s, 200, "{pushed}");
        let m = &pushed["data"];
        assert_eq!(m["status"], "PENDING_AUTHORIZATION", "{m}");
        assert!(m["authorization"]["copyAndPaste"].is_null(), "{m}");
        assert!(m["authorization"]["expiresAt"].is_string(), "{m}");
        let id_rec = m["provider"]["recurrenceId"].as_str().unwrap();
        live.b
            .post(&format!("/rec/{id_rec}/reject"), json!({"code": "AP13"}))
            .await;
        let rejected =
            wait_mandate(server, &key, m["mandateId"].as_str().unwrap(), "REJECTED").await;
        assert_eq!(rejected["rejection"]["code"], "AP13", "{rejected}");

        // QR_WITH_FIRST_PAYMENT: the first payment at the mandate's PSP; approving pays it.
        let (s, with_first) = post_mandate(
            server,
            &key,
            "live-first",
            &body(json!({"journey": "QR_WITH_FIRST_PAYMENT", "firstPayment": {"amount": 99.9}})),
        )
        .await;
        assert_eq!(s, 200, "{with_first}\n{}", server.logs());
        let m = &with_first["data"];
        let payment = m["firstPayment"]["paymentIntentId"]
            .as_str()
            .unwrap_or_else(|| panic!("{m}"));
        let (s, intent) = server.get_payment(&key, payment).await;
        assert_eq!(s, 200, "{intent}");
        assert_eq!(intent["data"]["status"], "PENDING", "{intent}");
        assert_eq!(
            intent["data"]["routing"]["providerCode"], "sandbox-b",
            "{intent}"
        );
        assert!(m["authorization"]["copyAndPaste"].is_string(), "{m}");
        let id_rec = m["provider"]["recurrenceId"].as_str().unwrap();
        live.b
            .post(&format!("/rec/{id_rec}/approve"), json!({}))
            .await;
        wait_mandate(server, &key, m["mandateId"].as_str().unwrap(), "ACTIVE").await;
        live.wait_status(payment, "SUCCEEDED", std::time::Duration::from_secs(20))
            .await;

        // No provider takes mandates: FAILED, with why.
        let (s, b) = server
            .admin_patch("/providers/sandbox-b", json!({"account": {}}))
            .await;
        assert_eq!(s, 200, "{b}");
        let (s, failed) = post_mandate(server, &key, "live-none", &body(json!({}))).await;
        assert_eq!(s, 200, "{failed}");
        assert_eq!(failed["data"]["status"], "FAILED", "{failed}");
        assert!(failed["data"]["failure"]["code"].is_string(), "{failed}");
    }
}
