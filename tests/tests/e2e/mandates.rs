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

/// `pixgate admin ARGS` against the server's admin API: its standard output, which must be a
/// success.
fn admin_cli(server: &Server, args: &[&str]) -> String {
    let out = std::process::Command::new(pixgate_e2e::pixgate_bin())
        .arg("admin")
        .args(args)
        .env_clear()
        .env("PIXGATE_ADMIN_URL", server.admin_root())
        .env("PIXGATE_ADMIN_TOKEN", &server.admin_token)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_operator_reads_every_merchants_mandates_from_the_api_and_the_cli() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let manager = key_with(&server, &["mandates:manage"]).await;
        let (s, made) = post_mandate(&server, &manager, "a-1", &mandate_body(json!({}))).await;
        assert_eq!(s, 200, "{made}");
        let id = made["data"]["mandateId"].as_str().unwrap();
        let other = server
            .merchant_with_store("other", "other-store", "SHADOW")
            .await;

        let (s, list) = server.admin_get("/mandates").await;
        assert_eq!(s, 200, "{list}");
        assert_eq!(list["data"][0]["mandateId"], json!(id), "{list}");
        assert_eq!(list["data"][0]["merchant"], "demo", "{list}");
        assert_eq!(list["data"][0]["store"]["code"], "demo-store", "{list}");
        let (_, only_other) = server.admin_get("/mandates?merchant=other").await;
        assert_eq!(only_other["data"], json!([]), "{only_other}");
        let (s, charged) = post_charge(
            &server,
            &manager,
            id,
            "a-c1",
            &json!({"dueDate": made["data"]["startDate"]}),
        )
        .await;
        assert_eq!(s, 200, "{charged}");
        let (s, one) = server.admin_get(&format!("/mandates/{id}")).await;
        assert_eq!(s, 200, "{one}");
        assert_eq!(one["data"]["reference"], "gym-contract-7");
        // Read alone, with its charges by cycle.
        let charges = &one["data"]["charges"];
        assert_eq!(charges[0]["cycle"], 1, "{one}");
        assert_eq!(
            charges[0]["paymentIntentId"], charged["data"]["paymentIntentId"],
            "{one}"
        );
        assert_eq!(charges[0]["status"], "SHADOW_ONLY", "{one}");
        assert!(
            list["data"][0].get("charges").is_none(),
            "not in the list: {list}"
        );
        assert!(!one.to_string().contains("52998224725"), "no tax id: {one}");
        for (path, status, expected) in [
            ("/mandates?merchant=nobody", 404, "merchant_not_found"),
            ("/mandates?merchant=a%20b", 400, "invalid_merchant"),
            ("/mandates?store=nowhere", 404, "store_not_found"),
            ("/mandates?status=LIVE", 400, "invalid_status"),
            ("/mandates?sort=asc", 400, "unknown_field"),
            ("/mandates/not-a-uuid", 404, "mandate_not_found"),
        ] {
            let (s, b) = server.admin_get(path).await;
            assert_eq!((s, code(&b).0), (status, expected), "{path}: {b}");
        }

        // The same from the command line.
        let table = admin_cli(&server, &["mandates", "list", "--merchant", "demo"]);
        assert!(
            table.contains("MANDATE ID") && table.contains(id),
            "{table}"
        );
        assert!(
            table.contains("SHADOW_ONLY") && table.contains("MONTHLY"),
            "{table}"
        );
        let shown: Value =
            serde_json::from_str(&admin_cli(&server, &["mandates", "show", id, "--json"])).unwrap();
        assert_eq!(shown["mandateId"], json!(id), "{shown}");
        drop(other);
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

/// The merchant guide's charge body, sent as written under the guide's mandate, its due date
/// moved to the mandate's start.
#[tokio::test(flavor = "multi_thread")]
async fn the_merchant_guides_mandate_charge_is_taken_as_written() {
    let server = Server::start(backends()[0]).await;
    let manager = key_with(&server, &["mandates:manage", "payments:read"]).await;
    let (s, made) = post_mandate(&server, &manager, "guide-m", &mandate_body(json!({}))).await;
    assert_eq!(s, 200, "{made}");
    let mut body: Value = serde_json::from_str(&pixgate_e2e::docs::fenced_block(
        "docs/src/merchant-guide/mandates.md",
        "mandate-charge-body",
        "json",
    ))
    .unwrap();
    body["dueDate"] = made["data"]["startDate"].clone();
    let mandate = made["data"]["mandateId"].as_str().unwrap();
    let (s, b) = post_charge(&server, &manager, mandate, "guide-c", &body).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["data"]["kind"], "RECURRING", "{b}");
    assert_eq!(b["data"]["metadata"], json!({"invoice": "2027-04"}), "{b}");
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
/// receiving account): each journey goes there; the payer approves, rejects, lets the code
/// expire or cancels in their bank; the merchant cancels; each move is one signed event; a
/// first payment no PSP takes fails its mandate; with no provider taking mandates it fails.
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
        let scanned = m["authorization"]["copyAndPaste"]
            .as_str()
            .unwrap_or_else(|| panic!("{m}"));
        assert!(scanned.starts_with("000201"), "{scanned}");
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
        // Each move told the merchant once, signed; the second cancel changed nothing.
        live.wait_mandate_events(&id, &["mandate.authorized", "mandate.canceled"])
            .await;
        let canceled_event = live
            .receiver
            .received()
            .into_iter()
            .map(|r| r.json())
            .find(|e| e["type"] == "mandate.canceled" && e["data"]["mandateId"] == json!(id))
            .unwrap();
        let data = &canceled_event["data"];
        assert_eq!(data["status"], "CANCELED", "{data}");
        assert_eq!(data["store"]["code"], STORE, "{data}");
        assert_eq!(data["provider"]["code"], "sandbox-b", "{data}");
        assert_eq!(data["provider"]["recurrenceId"], json!(id_rec), "{data}");
        assert_eq!(data["cancellation"]["by"], "MERCHANT", "{data}");
        assert_eq!(data["reference"], created["data"]["reference"], "{data}");
        assert!(data["metadata"].is_object(), "{data}");

        // A code nobody scans in time: EXPIRED, and the merchant is told.
        let (s, unanswered) = post_mandate(server, &key, "live-expired", &body(json!({}))).await;
        assert_eq!(s, 200, "{unanswered}");
        let m = &unanswered["data"];
        let expiring = m["mandateId"].as_str().unwrap();
        live.b
            .post(
                &format!(
                    "/rec/{}/expire",
                    m["provider"]["recurrenceId"].as_str().unwrap()
                ),
                json!({}),
            )
            .await;
        wait_mandate(server, &key, expiring, "EXPIRED").await;
        live.wait_mandate_events(expiring, &["mandate.expired"])
            .await;
        let (s, refused) = post(server, &key, &format!("/mandates/{expiring}/cancel")).await;
        assert_eq!(
            (s, code(&refused).0),
            (409, "mandate_not_cancelable"),
            "{refused}"
        );

        // The payer cancels an active mandate in their bank app.
        let (s, approved) =
            post_mandate(server, &key, "live-payer-cancels", &body(json!({}))).await;
        assert_eq!(s, 200, "{approved}");
        let m = &approved["data"];
        let by_payer = m["mandateId"].as_str().unwrap();
        let rec_path = format!("/rec/{}", m["provider"]["recurrenceId"].as_str().unwrap());
        live.b.post(&format!("{rec_path}/approve"), json!({})).await;
        wait_mandate(server, &key, by_payer, "ACTIVE").await;
        live.b.post(&format!("{rec_path}/cancel"), json!({})).await;
        let canceled = wait_mandate(server, &key, by_payer, "CANCELED").await;
        assert_eq!(canceled["cancellation"]["by"], "PAYER", "{canceled}");
        live.wait_mandate_events(by_payer, &["mandate.authorized", "mandate.canceled"])
            .await;

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
        live.wait_mandate_events(m["mandateId"].as_str().unwrap(), &["mandate.rejected"])
            .await;

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

        // A first payment no PSP takes: the code would only authorise, so the mandate fails
        // with why, keeps the failed payment, and its recurrence is canceled at the PSP.
        live.b
            .post(
                "/faults",
                json!({"count": 1, "kind": "error", "status": 500, "route": "PUT /cob/{txid}"}),
            )
            .await;
        let (s, unpaid) = post_mandate(
            server,
            &key,
            "live-first-unpaid",
            &body(json!({"journey": "QR_WITH_FIRST_PAYMENT", "firstPayment": {"amount": 10}})),
        )
        .await;
        assert_eq!(s, 200, "{unpaid}");
        let m = &unpaid["data"];
        assert_eq!(m["status"], "FAILED", "{m}");
        assert_eq!(m["failure"]["code"], "psp_unavailable", "{m}");
        assert!(m["authorization"].is_null(), "no code to scan: {m}");
        let payment = m["firstPayment"]["paymentIntentId"].as_str().unwrap();
        let (_, intent) = server.get_payment(&key, payment).await;
        assert_eq!(intent["data"]["status"], "FAILED", "{intent}");
        let id_rec = m["provider"]["recurrenceId"].as_str().unwrap();
        let (s, refused) = live
            .b
            .control(
                reqwest::Method::POST,
                &format!("/rec/{id_rec}/approve"),
                json!({}),
            )
            .await;
        assert_eq!(s, 409, "the payer cannot approve it: {refused}");
        assert!(refused.to_string().contains("CANCELADA"), "{refused}");
        // The same key answers the same failed mandate; nothing new is made.
        let (s, replayed) = post_mandate(
            server,
            &key,
            "live-first-unpaid",
            &body(json!({"journey": "QR_WITH_FIRST_PAYMENT", "firstPayment": {"amount": 10}})),
        )
        .await;
        assert_eq!(s, 200, "{replayed}");
        assert_eq!(replayed["data"]["mandateId"], m["mandateId"]);
        assert_eq!(replayed["data"]["status"], "FAILED");

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

async fn post_charge(
    server: &Server,
    key: &str,
    mandate: &str,
    idem: &str,
    body: &Value,
) -> (u16, Value) {
    let r = server
        .client
        .post(format!("{}/mandates/{mandate}/charges", server.base))
        .bearer_auth(key)
        .header("Idempotency-Key", idem)
        .json(body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// A SHADOW store's mandate charged: a `RECURRING` PaymentIntent per cycle, replayed by its
/// key, and refused for a cycle already charged, a day too near, another amount than the
/// fixed one, or one below the minimum.
#[tokio::test(flavor = "multi_thread")]
async fn a_mandate_is_charged_once_per_cycle_as_a_recurring_payment() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let manager = key_with(&server, &["mandates:manage", "payments:read"]).await;
        let (s, made) = post_mandate(&server, &manager, "c-1", &mandate_body(json!({}))).await;
        assert_eq!(s, 200, "{made}");
        let mandate = made["data"]["mandateId"].as_str().unwrap().to_owned();
        let start = made["data"]["startDate"].as_str().unwrap().to_owned();

        let first = json!({"dueDate": start, "metadata": {"invoice": "2031-01"}});
        let (s, charged) = post_charge(&server, &manager, &mandate, "cycle-1", &first).await;
        assert_eq!(s, 200, "{charged}");
        let c = &charged["data"];
        assert_eq!(c["status"], "SHADOW_ONLY", "{c}");
        assert_eq!(c["kind"], "RECURRING", "{c}");
        assert_eq!(c["mandateId"], json!(mandate), "{c}");
        assert_eq!(c["dueDate"], json!(start), "{c}");
        assert_eq!(c["attempts"], json!([]), "{c}");
        assert_eq!(c["amount"], 99.9, "the mandate's fixed amount: {c}");
        assert_eq!(c["reference"], "gym-contract-7", "the mandate's: {c}");
        assert_eq!(c["description"], "Gym monthly plan", "{c}");
        assert_eq!(c["metadata"], json!({"invoice": "2031-01"}), "{c}");
        assert_eq!(
            c["routing"]["gatewayAlias"], made["data"]["routing"]["gatewayAlias"],
            "pinned to the mandate's gateway: {c}"
        );
        let id = c["paymentIntentId"].as_str().unwrap();

        // The same key and body: the same charge.
        let (s, again) = post_charge(&server, &manager, &mandate, "cycle-1", &first).await;
        assert_eq!(s, 200, "{again}");
        assert_eq!(again["data"]["paymentIntentId"], json!(id));
        assert_eq!(again["data"]["idempotentReplay"], true);
        // Read and searched like any payment.
        let (s, read) = server.get_payment(&manager, id).await;
        assert_eq!(
            (s, &read["data"]["mandateId"]),
            (200, &json!(mandate)),
            "{read}"
        );
        let (_, found) = get(&server, &manager, "/payments?kind=RECURRING").await;
        assert_eq!(found["data"][0]["paymentIntentId"], json!(id), "{found}");

        // Another key for the same cycle (any day of it): 409, nothing made.
        let start_date = pixgate_domain::due::Date::parse(&start).unwrap();
        let later_in_cycle = json!({"dueDate": start_date.add_days(3).to_string()});
        let (s, b) = post_charge(&server, &manager, &mandate, "cycle-1b", &later_in_cycle).await;
        assert_eq!((s, code(&b).0), (409, "cycle_already_charged"), "{b}");
        assert!(
            b["error"]["message"].as_str().unwrap().contains(id),
            "names the cycle's charge: {b}"
        );

        // The next cycle: its own charge.
        let next = pixgate_domain::recurring::Frequency::Monthly.cycle_date(start_date, 2);
        let (s, second) = post_charge(
            &server,
            &manager,
            &mandate,
            "cycle-2",
            &json!({"dueDate": next.to_string(), "reference": "feb"}),
        )
        .await;
        assert_eq!(s, 200, "{second}");
        assert_eq!(second["data"]["reference"], "feb");

        let tomorrow = pixgate_e2e::rec::today().add_days(1).to_string();
        for (body, expected, field) in [
            (json!({"dueDate": tomorrow}), "invalid_due_date", "dueDate"),
            (
                json!({"dueDate": start_date.add_days(-1).to_string()}),
                "invalid_due_date",
                "dueDate",
            ),
            (
                json!({"dueDate": next.add_days(40).to_string(), "amount": 10}),
                "invalid_amount",
                "amount",
            ),
            (json!({"dueDate": "soon"}), "invalid_due_date", "dueDate"),
            (
                json!({"dueDate": start, "payer": {}}),
                "unknown_field",
                "payer",
            ),
        ] {
            let (s, b) = post_charge(&server, &manager, &mandate, "bad", &body).await;
            assert_eq!((s, code(&b)), (400, (expected, field)), "{body}: {b}");
        }
        let (s, b) = post_charge(
            &server,
            &manager,
            &uuid::Uuid::new_v4().to_string(),
            "nowhere",
            &json!({"dueDate": start}),
        )
        .await;
        assert_eq!((s, code(&b).0), (404, "mandate_not_found"), "{b}");
        let reader = key_with(&server, &["payments:read"]).await;
        let (s, b) = post_charge(&server, &reader, &mandate, "no-scope", &first).await;
        assert_eq!((s, code(&b).0), (403, "insufficient_scope"), "{b}");

        // A mandate of varying amounts: each charge names its amount, at least the minimum.
        let (s, varying) = post_mandate(
            &server,
            &manager,
            "c-2",
            &mandate_body(json!({"amount": null, "minimumAmount": 50})),
        )
        .await;
        assert_eq!(s, 200, "{varying}");
        let varying = varying["data"]["mandateId"].as_str().unwrap().to_owned();
        for (body, expected) in [
            (json!({"dueDate": start}), "missing_field"),
            (json!({"dueDate": start, "amount": 49.99}), "invalid_amount"),
        ] {
            let (s, b) = post_charge(&server, &manager, &varying, "v-bad", &body).await;
            assert_eq!((s, code(&b).0), (400, expected), "{body}: {b}");
        }
        let (s, b) = post_charge(
            &server,
            &manager,
            &varying,
            "v-1",
            &json!({"dueDate": start, "amount": 123.45}),
        )
        .await;
        assert_eq!((s, &b["data"]["amount"]), (200, &json!(123.45)), "{b}");
    }
}

/// A LIVE mandate's charges at its PSP (the simulator, mTLS): within the window a `cobr` at
/// once, `PENDING`; an attempt the payer's bank rejects is told (`payment.attempt_failed`) and
/// retried the next business day, as the mandate's policy allows, then paid; a rejection code
/// that ends the charge fails it; a charge made while the PSP is down waits `SCHEDULED` and is
/// sent when it is back; a charge due further ahead waits `SCHEDULED`, nothing sent; a mandate
/// that charges itself gets its cycle's charge once; charges are canceled before their
/// attempt, and with their mandate.
#[tokio::test(flavor = "multi_thread")]
async fn a_live_mandates_charges_settle_by_their_attempts_at_its_psp() {
    use pixgate_e2e::live::{Live, STORE};
    use pixgate_e2e::rec::business_day;
    use std::time::Duration;
    for backend in backends() {
        let live = &Live::start(backend, &[("PIXGATE_RECONCILE_INTERVAL", "300ms")]).await;
        let server = &live.server;
        let account =
            json!({"account": {"branch": "0001", "number": "123456", "type": "CORRENTE"}});
        let (s, b) = server.admin_patch("/providers/sandbox-b", account).await;
        assert_eq!(s, 200, "{b}");
        let key = live.key_with(&["mandates:manage", "payments:read"]).await;
        let start = business_day(3);
        let active = |idem: &'static str| {
            let key = key.clone();
            async move {
                let mut body =
                    mandate_body(json!({"startDate": start.to_string(), "autoCharge": false}));
                body["store"] = json!(STORE);
                let (s, made) = post_mandate(server, &key, idem, &body).await;
                assert_eq!(s, 200, "{made}");
                let m = &made["data"];
                let id_rec = m["provider"]["recurrenceId"].as_str().unwrap();
                live.b
                    .post(&format!("/rec/{id_rec}/approve"), json!({}))
                    .await;
                let id = m["mandateId"].as_str().unwrap().to_owned();
                wait_mandate(server, &key, &id, "ACTIVE").await;
                id
            }
        };
        let attempts = |id: String, want: usize| {
            let key = key.clone();
            async move {
                let deadline = std::time::Instant::now() + Duration::from_secs(20);
                loop {
                    let (_, b) = server.get_payment(&key, &id).await;
                    let list = b["data"]["attempts"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    if list.len() >= want {
                        return list;
                    }
                    assert!(
                        std::time::Instant::now() < deadline,
                        "{id}: {b}\n{}",
                        server.logs()
                    );
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        };

        // The charge of `mandate`'s first cycle (due within the window) under `idem`: the
        // answer's data, its intent's id and its txid.
        let charge_first = |mandate: String, idem: &'static str| {
            let key = key.clone();
            async move {
                let (s, charged) = post_charge(
                    server,
                    &key,
                    &mandate,
                    idem,
                    &json!({"dueDate": start.to_string()}),
                )
                .await;
                assert_eq!(s, 200, "{charged}\n{}", server.logs());
                let c = charged["data"].clone();
                let id = c["paymentIntentId"].as_str().unwrap().to_owned();
                let txid = c["pix"]["txid"].as_str().unwrap().to_owned();
                (c, id, txid)
            }
        };

        // Within the window: a cobr at the mandate's PSP at once.
        let mandate = active("m-live-1").await;
        let (c, id, txid) = charge_first(mandate.clone(), "cobr-1").await;
        assert_eq!(c["status"], "PENDING", "{c}");
        assert_eq!(c["kind"], "RECURRING", "{c}");
        assert_eq!(c["routing"]["providerCode"], "sandbox-b", "{c}");
        assert!(c["pix"]["copyAndPaste"].is_null(), "nothing to scan: {c}");
        let first = attempts(id.clone(), 1).await;
        assert_eq!(first[0]["status"], "SCHEDULED", "{first:?}");
        assert_eq!(first[0]["date"], json!(start.to_string()), "{first:?}");

        // Insufficient funds: told, and retried on the next business day.
        live.b
            .post(
                &format!("/cobr/{txid}/attempt"),
                json!({"outcome": "reject", "code": "AM04"}),
            )
            .await;
        let retried = attempts(id.clone(), 2).await;
        assert_eq!(retried[0]["status"], "REJECTED", "{retried:?}");
        assert_eq!(retried[0]["failure"]["code"], "AM04", "{retried:?}");
        assert_eq!(retried[1]["status"], "SCHEDULED", "{retried:?}");
        // The retry is paid.
        live.b
            .post(&format!("/cobr/{txid}/attempt"), json!({"outcome": "pay"}))
            .await;
        let paid = live
            .wait_status(&id, "SUCCEEDED", Duration::from_secs(20))
            .await;
        assert_eq!(paid["attempts"][1]["status"], "PAID", "{paid}");
        live.wait_events(
            &id,
            &[
                "payment.pending",
                "payment.attempt_failed",
                "payment.succeeded",
            ],
        )
        .await;
        let told = live
            .receiver
            .received()
            .into_iter()
            .map(|r| r.json())
            .find(|e| e["type"] == "payment.attempt_failed")
            .unwrap();
        assert_eq!(told["data"]["attempt"]["failure"]["code"], "AM04", "{told}");
        assert_eq!(told["data"]["paymentIntentId"], json!(id), "{told}");
        assert_eq!(told["data"]["mandateId"], json!(mandate), "{told}");
        assert_eq!(told["data"]["dueDate"], json!(start.to_string()), "{told}");
        assert_eq!(told["data"]["kind"], "RECURRING", "{told}");

        // Its PSP down when the charge is made: held SCHEDULED, sent by the reconciler once
        // the PSP is back, never to another PSP.
        let down = active("m-live-down").await;
        live.b
            .post(
                "/faults",
                json!({"count": 1, "kind": "error", "status": 503, "route": "PUT /cobr/{txid}"}),
            )
            .await;
        let (s, held) = post_charge(
            server,
            &key,
            &down,
            "cobr-down",
            &json!({"dueDate": start.to_string()}),
        )
        .await;
        assert_eq!(s, 200, "{held}");
        assert_eq!(held["data"]["status"], "SCHEDULED", "{held}");
        let held_id = held["data"]["paymentIntentId"].as_str().unwrap().to_owned();
        let sent = live
            .wait_status(&held_id, "PENDING", Duration::from_secs(20))
            .await;
        assert_eq!(sent["routing"]["providerCode"], "sandbox-b", "{sent}");
        live.wait_events(&held_id, &["payment.pending"]).await;

        // A code that ends the charge (AC05, closed account): FAILED, no retry.
        let closed = active("m-live-2").await;
        let (_, id, txid) = charge_first(closed, "cobr-2").await;
        attempts(id.clone(), 1).await;
        live.b
            .post(
                &format!("/cobr/{txid}/attempt"),
                json!({"outcome": "reject", "code": "AC05"}),
            )
            .await;
        let failed = live
            .wait_status(&id, "FAILED", Duration::from_secs(20))
            .await;
        assert_eq!(failed["failure"]["code"], "AC05", "{failed}");
        assert_eq!(failed["attempts"].as_array().unwrap().len(), 1, "{failed}");

        // Out of retries: its first attempt and each of the 3 retries rejected for want of
        // funds; its PSP ends it, FAILED with the last rejection's code, and no fifth attempt.
        let spent = active("m-live-retries").await;
        let (_, id, txid) = charge_first(spent, "cobr-retries").await;
        for n in 1..=4 {
            attempts(id.clone(), n).await;
            live.b
                .post(
                    &format!("/cobr/{txid}/attempt"),
                    json!({"outcome": "reject", "code": "AM04"}),
                )
                .await;
        }
        let failed = live
            .wait_status(&id, "FAILED", Duration::from_secs(20))
            .await;
        assert_eq!(failed["failure"]["code"], "AM04", "{failed}");
        let tried = failed["attempts"].as_array().unwrap();
        assert_eq!(tried.len(), 4, "{failed}");
        assert!(tried.iter().all(|a| a["status"] == "REJECTED"), "{failed}");

        // Due further ahead than the window: SCHEDULED, nothing at the PSP yet.
        let before = live.b.stats().await["cobrsCreated"].clone();
        let later = pixgate_domain::recurring::Frequency::Monthly.cycle_date(start, 2);
        let (s, scheduled) = post_charge(
            server,
            &key,
            &mandate,
            "cobr-3",
            &json!({"dueDate": later.to_string()}),
        )
        .await;
        assert_eq!(s, 200, "{scheduled}");
        assert_eq!(scheduled["data"]["status"], "SCHEDULED", "{scheduled}");
        assert_eq!(live.b.stats().await["cobrsCreated"], before);

        // A mandate that charges itself: its first cycle, due within the lead days, is charged
        // by pixgate once it is ACTIVE, at its PSP, once.
        let mut body = mandate_body(json!({"startDate": start.to_string()}));
        body["store"] = json!(STORE);
        let (s, made) = post_mandate(server, &key, "m-live-auto", &body).await;
        assert_eq!(s, 200, "{made}");
        assert_eq!(made["data"]["autoCharge"], true, "{made}");
        let auto = made["data"]["mandateId"].as_str().unwrap().to_owned();
        let id_rec = made["data"]["provider"]["recurrenceId"].as_str().unwrap();
        live.b
            .post(&format!("/rec/{id_rec}/approve"), json!({}))
            .await;
        wait_mandate(server, &key, &auto, "ACTIVE").await;
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let charges = loop {
            let (_, m) = server.admin_get(&format!("/mandates/{auto}")).await;
            let charges = m["data"]["charges"].as_array().cloned().unwrap_or_default();
            if charges.first().is_some_and(|c| c["status"] == "PENDING") {
                break charges;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{m}\n{}",
                server.logs()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        // A few reconcile intervals later, still the one charge.
        tokio::time::sleep(Duration::from_millis(1_000)).await;
        let (_, m) = server.admin_get(&format!("/mandates/{auto}")).await;
        assert_eq!(m["data"]["charges"].as_array().unwrap().len(), 1, "{m}");
        assert_eq!(charges[0]["cycle"], 1, "{m}");
        assert_eq!(charges[0]["dueDate"], json!(start.to_string()), "{m}");
        let (s, b) = post_charge(
            server,
            &key,
            &auto,
            "cobr-auto-again",
            &json!({"dueDate": start.to_string()}),
        )
        .await;
        assert_eq!((s, code(&b).0), (409, "cycle_already_charged"), "{b}");

        // Canceled before its attempt: a sent charge at its PSP, a scheduled one here.
        let canceler = live
            .key_with(&["mandates:manage", "payments:create", "payments:read"])
            .await;
        let cancel = |id: String| {
            let key = canceler.clone();
            async move {
                let r = server
                    .client
                    .post(format!("{}/payments/{id}/cancel", server.base))
                    .bearer_auth(&key)
                    .send()
                    .await
                    .unwrap();
                (r.status().as_u16(), r.json::<Value>().await.unwrap())
            }
        };
        let (s, b) = cancel(
            scheduled["data"]["paymentIntentId"]
                .as_str()
                .unwrap()
                .to_owned(),
        )
        .await;
        assert_eq!((s, &b["data"]["status"]), (200, &json!("CANCELED")), "{b}");
        let third = active("m-live-3").await;
        let (s, sent) = post_charge(
            server,
            &key,
            &third,
            "cobr-5",
            &json!({"dueDate": start.to_string()}),
        )
        .await;
        assert_eq!(
            (s, &sent["data"]["status"]),
            (200, &json!("PENDING")),
            "{sent}"
        );
        let sent_id = sent["data"]["paymentIntentId"].as_str().unwrap().to_owned();
        let (s, b) = cancel(sent_id.clone()).await;
        assert_eq!((s, &b["data"]["status"]), (200, &json!("CANCELED")), "{b}");
        live.wait_events(&sent_id, &["payment.pending", "payment.canceled"])
            .await;
        // A canceled mandate takes its charges still to come with it, and no more.
        let next = pixgate_domain::recurring::Frequency::Monthly.cycle_date(start, 2);
        let (s, waiting) = post_charge(
            server,
            &key,
            &third,
            "cobr-6",
            &json!({"dueDate": next.to_string()}),
        )
        .await;
        assert_eq!(
            (s, &waiting["data"]["status"]),
            (200, &json!("SCHEDULED")),
            "{waiting}"
        );
        let (s, b) = post(server, &key, &format!("/mandates/{third}/cancel")).await;
        assert_eq!((s, &b["data"]["status"]), (200, &json!("CANCELED")), "{b}");
        let (_, after) = server
            .get_payment(&key, waiting["data"]["paymentIntentId"].as_str().unwrap())
            .await;
        assert_eq!(after["data"]["status"], "CANCELED", "{after}");
        let third_cycle = pixgate_domain::recurring::Frequency::Monthly.cycle_date(start, 3);
        let (s, b) = post_charge(
            server,
            &key,
            &third,
            "cobr-7",
            &json!({"dueDate": third_cycle.to_string()}),
        )
        .await;
        assert_eq!((s, code(&b).0), (409, "mandate_not_active"), "{b}");

        // Its PSP down until the window closes (2 days before the due date): FAILED with
        // psp_unavailable, never sent elsewhere. The days that pass are the charge's due date
        // moved to tomorrow in the database, and its next read made due now.
        let closing = active("m-live-close").await;
        live.b
            .post(
                "/faults",
                json!({"count": 10_000, "kind": "error", "status": 503,
                       "route": "PUT /cobr/{txid}"}),
            )
            .await;
        let (s, held) = post_charge(
            server,
            &key,
            &closing,
            "cobr-close",
            &json!({"dueDate": start.to_string()}),
        )
        .await;
        assert_eq!(
            (s, &held["data"]["status"]),
            (200, &json!("SCHEDULED")),
            "{held}"
        );
        let held_id = held["data"]["paymentIntentId"].as_str().unwrap().to_owned();
        let tomorrow = pixgate_e2e::rec::today().add_days(1);
        let moved = server
            .execute_sql(&format!(
                "update payment_intents set due_date = '{tomorrow}', reconcile_at = 0 \
                 where id = '{held_id}'"
            ))
            .await;
        assert_eq!(moved, 1);
        let failed = live
            .wait_status(&held_id, "FAILED", Duration::from_secs(20))
            .await;
        assert_eq!(failed["failure"]["code"], "psp_unavailable", "{failed}");
        assert_eq!(failed["routing"]["providerCode"], "sandbox-b", "{failed}");
        assert_eq!(live.a.stats().await["cobrsCreated"], 0, "never elsewhere");
    }
}
