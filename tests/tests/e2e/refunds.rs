//! Money back end to end (DESIGN.md section 11) against the real `pixgate psp-sim` over https
//! with mTLS, on SQLite and PostgreSQL: cancel (and its race with a payment), full and partial
//! refunds through API Pix devolução, replay and 409s, the refund scope, tenant isolation,
//! concurrent refunds that never over-refund, and the admin's exit for a wrong amount.

use std::time::Duration;

use pixgate_e2e::live::{Live, STORE};
use pixgate_e2e::server::{Options, Server, backends};
use reqwest::Method;
use serde_json::{Value, json};

const SETTLE: Duration = Duration::from_secs(15);

fn id(intent: &Value) -> String {
    intent["paymentIntentId"].as_str().unwrap().to_owned()
}

fn provider(intent: &Value) -> String {
    intent["routing"]["providerCode"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The simulator's record of pix `e2eid`, with its `devolucoes[]`.
async fn pix_at_psp(live: &Live, intent: &Value) -> Value {
    let e2eid = intent["provider"]["paymentId"].as_str().unwrap();
    let pix = live.sim(&provider(intent)).pix(e2eid).await;
    assert_eq!(pix["endToEndId"], e2eid, "{pix}");
    pix
}

#[tokio::test(flavor = "multi_thread")]
async fn a_paid_charge_is_refunded_in_part_then_in_full_with_signed_events() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:create", "payments:refund"]).await;
        let intent = live.paid_charge("order-r1").await;
        let id = id(&intent);

        let (status, part) = live
            .refund(
                &key,
                &id,
                "refund-r1-a",
                json!({"amount": 30, "reason": "Item returned", "metadata": {"returnId": "r-1"}}),
            )
            .await;
        assert_eq!(status, 200, "{part}\n{}", live.server.logs());
        let part = &part["data"];
        assert_eq!(part["status"], "SUCCEEDED", "{part}");
        assert_eq!(part["amount"], 30.0);
        assert_eq!(part["idempotentReplay"], false);
        assert_eq!(part["reason"], "Item returned");
        assert_eq!(part["metadata"], json!({"returnId": "r-1"}));
        assert_eq!(part["provider"]["code"], provider(&intent));
        assert_eq!(
            part["provider"]["refundId"],
            part["refundId"].as_str().unwrap().replace('-', "")
        );
        assert!(part["provider"]["rtrId"].as_str().unwrap().starts_with('D'));
        assert!(part["completedAt"].is_string());

        // The rest, by leaving the amount out.
        let (status, rest) = live.refund(&key, &id, "refund-r1-b", json!({})).await;
        assert_eq!(status, 200, "{rest}");
        assert_eq!(rest["data"]["amount"], 99.9);
        assert_eq!(rest["data"]["status"], "SUCCEEDED");

        let (status, none_left) = live.refund(&key, &id, "refund-r1-c", json!({})).await;
        assert_eq!(status, 409, "{none_left}");
        assert_eq!(none_left["error"]["code"], "refund_exceeds_refundable");
        let (status, too_much) = live
            .refund(&key, &id, "refund-r1-d", json!({"amount": 0.01}))
            .await;
        assert_eq!(status, 409);
        assert_eq!(too_much["error"]["code"], "refund_exceeds_refundable");

        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["status"], "SUCCEEDED");
        assert_eq!(now["data"]["amountRefunded"], 129.9);
        let (status, list) = live
            .merchant(
                Method::GET,
                &format!("/payments/{id}/refunds"),
                &live.key,
                None,
                None,
            )
            .await;
        assert_eq!(status, 200, "{list}");
        let amounts: Vec<f64> = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["amount"].as_f64().unwrap())
            .collect();
        assert_eq!(amounts, [30.0, 99.9], "oldest first");

        // The PSP holds exactly these two devoluções.
        let pix = pix_at_psp(&live, &intent).await;
        let valores: Vec<&str> = pix["devolucoes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["valor"].as_str().unwrap())
            .collect();
        assert_eq!(valores, ["30.00", "99.90"], "{pix}");

        live.wait_events(
            &id,
            &[
                "payment.pending",
                "payment.succeeded",
                "refund.succeeded",
                "refund.succeeded",
            ],
        )
        .await;
        let refund_event = live
            .receiver
            .received()
            .into_iter()
            .map(|r| r.json())
            .find(|e| e["type"] == "refund.succeeded")
            .unwrap();
        let data = &refund_event["data"];
        assert_eq!(data["refundId"], part["refundId"]);
        assert_eq!(data["paymentIntentId"], json!(id));
        assert_eq!(data["amount"], 30.0);
        assert_eq!(data["status"], "SUCCEEDED");
        assert_eq!(data["store"]["code"], STORE);
        assert_eq!(data["reference"], intent["reference"]);
        assert_eq!(data["metadata"], json!({"returnId": "r-1"}));
        assert_eq!(data["provider"]["refundId"], part["provider"]["refundId"]);
        assert!(data["completedAt"].is_string());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refund_is_replayed_for_the_same_key_and_refused_for_another_body() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r2").await;
        let id = id(&intent);
        let (_, first) = live
            .refund(
                &key,
                &id,
                "refund-r2",
                json!({"amount": 10, "metadata": {"a": 1, "b": 2}}),
            )
            .await;
        // The same refund written another way: the stored answer, flagged as a replay.
        let (status, again) = live
            .refund(
                &key,
                &id,
                "refund-r2",
                json!({"metadata": {"b": 2, "a": 1}, "amount": 10.0}),
            )
            .await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again["data"]["idempotentReplay"], true);
        assert_eq!(again["data"]["refundId"], first["data"]["refundId"]);
        let (status, other) = live
            .refund(&key, &id, "refund-r2", json!({"amount": 11}))
            .await;
        assert_eq!(status, 409);
        assert_eq!(other["error"]["code"], "idempotency_key_reused");
        // Refund keys are their own key space: a charge may use the same key.
        let (status, charge) = live.charge("refund-r2").await;
        assert_eq!(status, 200, "{charge}");
        assert_eq!(charge["data"]["idempotentReplay"], false);
        let pix = pix_at_psp(&live, &intent).await;
        assert_eq!(pix["devolucoes"].as_array().unwrap().len(), 1, "{pix}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn refunds_need_their_scope_a_granted_store_and_a_paid_live_payment() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let refunder = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r3").await;
        let id = id(&intent);
        // The harness's key has the default scopes: never payments:refund.
        let (status, body) = live.refund(&live.key, &id, "k1", json!({})).await;
        assert_eq!(status, 403, "{body}");
        assert_eq!(body["error"]["code"], "insufficient_scope");

        // Another merchant's key learns nothing of the payment or its refunds.
        let stranger = live
            .server
            .merchant_with_store("other", "other-store", "LIVE")
            .await;
        let (status, body) = live.server
            .admin_post("/api-keys", json!({"merchant": "other", "stores": ["other-store"], "scopes": ["payments:refund", "payments:read"]}))
            .await;
        assert_eq!(status, 201, "{body}");
        let stranger_refunder = body["data"]["apiKey"].as_str().unwrap().to_owned();
        let (status, body) = live.refund(&stranger_refunder, &id, "k2", json!({})).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("payment_intent_not_found"))
        );
        let (_, refund) = live
            .refund(&refunder, &id, "k3", json!({"amount": 1}))
            .await;
        let refund_id = refund["data"]["refundId"].as_str().unwrap();
        for key in [&stranger, &stranger_refunder] {
            let (status, body) = live
                .merchant(
                    Method::GET,
                    &format!("/refunds/{refund_id}"),
                    key,
                    None,
                    None,
                )
                .await;
            assert_eq!(
                (status, body["error"]["code"].as_str()),
                (404, Some("refund_not_found"))
            );
            let (status, _) = live
                .merchant(
                    Method::GET,
                    &format!("/payments/{id}/refunds"),
                    key,
                    None,
                    None,
                )
                .await;
            assert_eq!(status, 404);
        }
        // Any of the payment scopes reads refunds.
        let (status, _) = live
            .merchant(
                Method::GET,
                &format!("/refunds/{refund_id}"),
                &live.key,
                None,
                None,
            )
            .await;
        assert_eq!(status, 200);

        // Not paid yet: not refundable.
        let (_, pending) = live.charge("order-r3-pending").await;
        let pending_id = pending["data"]["paymentIntentId"].as_str().unwrap();
        let (status, body) = live.refund(&refunder, pending_id, "k4", json!({})).await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(body["error"]["code"], "payment_not_refundable");
        // Bad bodies are 400s naming the field.
        for (body, code) in [
            (json!({"amount": 0}), "invalid_amount"),
            (json!({"amount": 1.001}), "invalid_amount"),
            (json!({"reason": "x".repeat(141)}), "invalid_reason"),
            (json!({"refund": true}), "unknown_field"),
        ] {
            let (status, answer) = live.refund(&refunder, &id, "k5", body).await;
            assert_eq!(
                (status, answer["error"]["code"].as_str()),
                (400, Some(code)),
                "{answer}"
            );
        }
        let (status, body) = live
            .merchant(
                Method::POST,
                &format!("/payments/{id}/refunds"),
                &refunder,
                None,
                Some(json!({})),
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("missing_idempotency_key"))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_shadow_payment_is_not_refundable() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let _ = server
            .merchant_with_store("m", "shadow-store", "SHADOW")
            .await;
        let (status, body) = server
            .admin_post("/api-keys", json!({"merchant": "m", "stores": ["shadow-store"], "scopes": ["payments:create", "payments:refund"]}))
            .await;
        assert_eq!(status, 201, "{body}");
        let key = body["data"]["apiKey"].as_str().unwrap().to_owned();
        let (_, charge) = server
            .charge(
                &key,
                "s-1",
                &pixgate_e2e::server::charge_body("shadow-store"),
            )
            .await;
        let id = charge["data"]["paymentIntentId"].as_str().unwrap();
        let r = reqwest::Client::new()
            .post(format!(
                "{}/api/v1/payments/{id}/refunds",
                server.merchant_root()
            ))
            .bearer_auth(&key)
            .header("Idempotency-Key", "r")
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 409);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "payment_not_refundable");
        let r = reqwest::Client::new()
            .post(format!(
                "{}/api/v1/payments/{id}/cancel",
                server.merchant_root()
            ))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 409);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "payment_not_cancelable");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pending_charge_is_canceled_at_the_psp_once() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (_, charge) = live.charge("order-c1").await;
        let intent = &charge["data"];
        let id = id(intent);
        let path = format!("/payments/{id}/cancel");
        let cancel = || live.merchant(Method::POST, &path, &live.key, None, None);
        let (status, canceled) = cancel().await;
        assert_eq!(status, 200, "{canceled}\n{}", live.server.logs());
        assert_eq!(canceled["data"]["status"], "CANCELED");
        assert!(canceled["data"]["completedAt"].is_string());
        // Idempotent by nature: the same answer, nothing sent again.
        let (status, again) = cancel().await;
        assert_eq!(status, 200);
        assert_eq!(again["data"]["status"], "CANCELED");
        live.wait_events(&id, &["payment.pending", "payment.canceled"])
            .await;
        // The PSP removed it: it cannot be paid any more.
        let txid = intent["pix"]["txid"].as_str().unwrap();
        let (status, _) = live
            .sim(&provider(intent))
            .control(Method::POST, &format!("/cob/{txid}/pay"), json!({}))
            .await;
        assert!(status >= 400, "a removed charge is not payable");
        // A reader may not cancel.
        let reader = live.key_with(&["payments:read"]).await;
        let (status, body) = live
            .merchant(
                Method::POST,
                &format!("/payments/{id}/cancel"),
                &reader,
                None,
                None,
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (403, Some("insufficient_scope"))
        );
        let (status, body) = live
            .merchant(
                Method::POST,
                "/payments/00000000-0000-0000-0000-000000000000/cancel",
                &live.key,
                None,
                None,
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("payment_intent_not_found"))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cancel_racing_a_payment_ends_with_the_payment() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (_, charge) = live.charge("order-c2").await;
        let intent = &charge["data"];
        let id = id(intent);
        let sim = live.sim(&provider(intent));
        // The payer pays; the callback has not arrived when the merchant cancels.
        sim.switches(json!({"callbacks": {"hold": true}})).await;
        let txid = intent["pix"]["txid"].as_str().unwrap();
        sim.post(&format!("/cob/{txid}/pay"), json!({})).await;
        let (status, body) = live
            .merchant(
                Method::POST,
                &format!("/payments/{id}/cancel"),
                &live.key,
                None,
                None,
            )
            .await;
        assert_eq!(status, 409, "{body}\n{}", live.server.logs());
        assert_eq!(body["error"]["code"], "payment_not_cancelable");
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["status"], "SUCCEEDED");
        live.wait_events(&id, &["payment.pending", "payment.succeeded"])
            .await;
        // Once succeeded, cancel stays refused.
        let (status, _) = live
            .merchant(
                Method::POST,
                &format!("/payments/{id}/cancel"),
                &live.key,
                None,
                None,
            )
            .await;
        assert_eq!(status, 409);
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            live.events_for(&id),
            ["payment.pending", "payment.succeeded"]
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn sixteen_concurrent_refunds_of_sixty_percent_refund_once() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r4").await;
        let id = id(&intent);
        let answers = futures::future::join_all((0..16).map(|n| {
            let (live, key, id) = (&live, &key, &id);
            async move {
                live.refund(key, id, &format!("refund-r4-{n}"), json!({"amount": 77.94}))
                    .await
            }
        }))
        .await;
        let ok: Vec<&Value> = answers
            .iter()
            .filter(|(s, _)| *s == 200)
            .map(|(_, b)| b)
            .collect();
        assert_eq!(ok.len(), 1, "{answers:?}");
        assert_eq!(ok[0]["data"]["status"], "SUCCEEDED");
        for (status, body) in answers.iter().filter(|(s, _)| *s != 200) {
            assert_eq!(*status, 409);
            assert_eq!(body["error"]["code"], "refund_exceeds_refundable");
        }
        let pix = pix_at_psp(&live, &intent).await;
        assert_eq!(pix["devolucoes"].as_array().unwrap().len(), 1, "{pix}");
    }
}

/// Issue 19: two instances sharing a PostgreSQL still refund at most what was paid.
#[tokio::test(flavor = "multi_thread")]
async fn concurrent_refunds_across_two_instances_never_over_refund() {
    if pixgate_e2e::server::postgres_admin_url().is_none() {
        return;
    }
    let shared = [(
        "PIXGATE_MASTER_KEY",
        "cGl4Z2F0ZS10ZXN0LW1hc3Rlci1rZXktMzItYnl0ZXM=",
    )];
    let live = Live::start(pixgate_e2e::server::Backend::Postgres, &shared).await;
    let second = Server::launch(Options {
        database_url: Some(live.server.database_url.clone()),
        env: live.server.env.clone(),
        data_dir: None,
    });
    let key = live.key_with(&["payments:refund"]).await;
    let intent = live.paid_charge("order-r5").await;
    let id = id(&intent);
    let roots = [live.server.merchant_root(), second.merchant_root()];
    let answers = futures::future::join_all((0..16).map(|n| {
        let (root, key, id) = (roots[n % 2].clone(), key.clone(), id.clone());
        async move {
            let r = reqwest::Client::new()
                .post(format!("{root}/api/v1/payments/{id}/refunds"))
                .bearer_auth(&key)
                .header("Idempotency-Key", format!("refund-r5-{n}"))
                .json(&json!({"amount": 77.94}))
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    }))
    .await;
    let ok = answers.iter().filter(|(s, _)| *s == 200).count();
    assert_eq!(ok, 1, "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|(s, b)| *s == 200 || b["error"]["code"] == "refund_exceeds_refundable")
    );
    let pix = pix_at_psp(&live, &intent).await;
    let total: f64 = pix["devolucoes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["valor"].as_str().unwrap().parse::<f64>().unwrap())
        .sum();
    assert!((total - 77.94).abs() < 1e-9, "{pix}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_charge_paid_with_the_wrong_amount_is_resolved_by_an_admin() {
    for backend in backends() {
        let live = Live::start(backend, &[("PIXGATE_RECONCILE_INTERVAL", "200ms")]).await;
        let mut ids = Vec::new();
        for key in ["order-w1", "order-w2"] {
            let (_, charge) = live.charge(key).await;
            let intent = charge["data"].clone();
            let txid = intent["pix"]["txid"].as_str().unwrap();
            live.sim(&provider(&intent))
                .post(&format!("/cob/{txid}/pay"), json!({"valor": "100.00"}))
                .await;
            ids.push(id(&intent));
        }
        for id in &ids {
            let deadline = std::time::Instant::now() + SETTLE;
            loop {
                let (_, now) = live.server.get_payment(&live.key, id).await;
                if now["data"]["amountReceived"] == 100.0 {
                    assert_eq!(now["data"]["status"], "PENDING");
                    break;
                }
                assert!(std::time::Instant::now() < deadline, "{now}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        // Read every 200 ms, counted once per charge.
        tokio::time::sleep(Duration::from_secs(1)).await;
        let metrics = live.server.metrics().await;
        let counted: f64 = metrics
            .lines()
            .filter(|l| l.contains("amount_mismatch") && !l.starts_with('#'))
            .map(|l| l.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
            .sum();
        assert_eq!(counted, 2.0, "{metrics}");

        let (status, body) = live
            .server
            .admin_post(
                &format!("/payment-intents/{}/resolve", ids[0]),
                json!({"action": "accept", "reason": "customer confirmed"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["status"], "SUCCEEDED");
        assert_eq!(body["data"]["amount"], 129.9);
        assert_eq!(body["data"]["amountReceived"], 100.0);
        live.wait_events(&ids[0], &["payment.pending", "payment.succeeded"])
            .await;

        let (status, body) = live
            .server
            .admin_post(
                &format!("/payment-intents/{}/resolve", ids[1]),
                json!({"action": "refund", "reason": "wrong amount"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["status"], "CANCELED");
        live.wait_events(
            &ids[1],
            &["payment.pending", "payment.canceled", "refund.succeeded"],
        )
        .await;
        let (_, now) = live.server.get_payment(&live.key, &ids[1]).await;
        assert_eq!(now["data"]["amountRefunded"], 100.0);

        // Resolved once.
        let (status, body) = live
            .server
            .admin_post(
                &format!("/payment-intents/{}/resolve", ids[1]),
                json!({"action": "accept", "reason": "again"}),
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (409, Some("payment_not_resolvable"))
        );
        let (status, body) = live
            .server
            .admin_post(
                &format!("/payment-intents/{}/resolve", ids[1]),
                json!({"action": "keep", "reason": "x"}),
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("invalid_action"))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refund_the_psp_does_not_make_fails_with_its_motivo() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r6").await;
        let id = id(&intent);
        live.sim(&provider(&intent))
            .switches(json!({"devolucoes": {"settleAs": "NAO_REALIZADO", "motivo": "Conta do pagador encerrada"}}))
            .await;
        let (status, refund) = live
            .refund(&key, &id, "refund-r6", json!({"amount": 50}))
            .await;
        assert_eq!(status, 200, "{refund}");
        assert_eq!(refund["data"]["status"], "FAILED", "{refund}");
        assert_eq!(refund["data"]["failure"]["code"], "refund_not_made");
        assert!(
            refund["data"]["failure"]["message"]
                .as_str()
                .unwrap()
                .contains("Conta do pagador encerrada")
        );
        live.wait_events(
            &id,
            &["payment.pending", "payment.succeeded", "refund.failed"],
        )
        .await;
        // What failed is refundable again.
        live.sim(&provider(&intent))
            .switches(json!({"devolucoes": {"settleAs": "DEVOLVIDO"}}))
            .await;
        let (_, again) = live.refund(&key, &id, "refund-r6-b", json!({})).await;
        assert_eq!(again["data"]["status"], "SUCCEEDED", "{again}");
        assert_eq!(again["data"]["amount"], 129.9);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_lost_put_answer_is_read_back_and_never_refunded_twice() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r7").await;
        let id = id(&intent);
        let sim = live.sim(&provider(&intent));
        sim.switches(json!({"devolucoes": {"dropAnswer": true}}))
            .await;
        let (status, refund) = live
            .refund(&key, &id, "refund-r7", json!({"amount": 20}))
            .await;
        assert_eq!(status, 200, "{refund}\n{}", live.server.logs());
        // The PUT's answer was lost; the GET that followed it found the devolução.
        assert_eq!(refund["data"]["status"], "SUCCEEDED", "{refund}");
        sim.switches(json!({"devolucoes": {"dropAnswer": false}}))
            .await;
        let (_, again) = live
            .refund(&key, &id, "refund-r7", json!({"amount": 20}))
            .await;
        assert_eq!(again["data"]["idempotentReplay"], true);
        let pix = pix_at_psp(&live, &intent).await;
        assert_eq!(pix["devolucoes"].as_array().unwrap().len(), 1, "{pix}");
        let (_, trace) = live
            .server
            .admin_get(&format!("/payment-intents/{id}/trace"))
            .await;
        let calls: Vec<String> = trace["data"]["pspCalls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                format!(
                    "{} {}",
                    c["operation"].as_str().unwrap(),
                    c["outcome"].as_str().unwrap()
                )
            })
            .collect();
        // The lost PUT, then the read that found it (the callback's read of the pix may follow).
        let put = calls.iter().position(|c| c == "put_devolucao unavailable");
        let read = calls.iter().rposition(|c| c == "get_devolucao success");
        assert!(
            matches!((put, read), (Some(put), Some(read)) if put < read),
            "{calls:?}"
        );
        assert_eq!(
            calls
                .iter()
                .filter(|c| c.starts_with("put_devolucao"))
                .count(),
            1
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refund_in_processing_is_settled_by_the_psp_callback() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r8").await;
        let id = id(&intent);
        live.sim(&provider(&intent))
            .switches(json!({"devolucoes": {"settleAfterMs": 300}}))
            .await;
        let (_, refund) = live
            .refund(&key, &id, "refund-r8", json!({"amount": 9.9}))
            .await;
        assert_eq!(refund["data"]["status"], "PENDING", "{refund}");
        let refund_id = refund["data"]["refundId"].as_str().unwrap();
        let done = live.wait_refund(&key, refund_id, "SUCCEEDED", SETTLE).await;
        assert!(done["completedAt"].is_string());
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["amountRefunded"], 9.9);
        live.wait_events(
            &id,
            &["payment.pending", "payment.succeeded", "refund.succeeded"],
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refund_whose_callback_is_lost_is_settled_by_the_reconciler() {
    for backend in backends() {
        let live = Live::start(backend, &[("PIXGATE_RECONCILE_INTERVAL", "300ms")]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r9").await;
        let id = id(&intent);
        let sim = live.sim(&provider(&intent));
        sim.switches(json!({"callbacks": {"drop": true}, "devolucoes": {"settleAfterMs": 60000}}))
            .await;
        let (_, refund) = live
            .refund(&key, &id, "refund-r9", json!({"amount": 1}))
            .await;
        assert_eq!(refund["data"]["status"], "PENDING", "{refund}");
        let refund_id = refund["data"]["refundId"].as_str().unwrap();
        let e2eid = intent["provider"]["paymentId"].as_str().unwrap();
        let devolucao = refund["data"]["provider"]["refundId"].as_str().unwrap();
        sim.post(
            &format!("/pix/{e2eid}/devolucao/{devolucao}/settle"),
            json!({}),
        )
        .await;
        live.wait_refund(&key, refund_id, "SUCCEEDED", SETTLE).await;
        live.wait_events(
            &id,
            &["payment.pending", "payment.succeeded", "refund.succeeded"],
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_devolucao_the_psp_made_on_its_own_is_recorded_as_a_refund() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let intent = live.paid_charge("order-r10").await;
        let id = id(&intent);
        let e2eid = intent["provider"]["paymentId"].as_str().unwrap();
        live.sim(&provider(&intent))
            .post(
                &format!("/pix/{e2eid}/med"),
                json!({"valor": "29.90", "natureza": "MED_FRAUDE"}),
            )
            .await;
        live.wait_events(
            &id,
            &["payment.pending", "payment.succeeded", "refund.succeeded"],
        )
        .await;
        let (_, list) = live
            .merchant(
                Method::GET,
                &format!("/payments/{id}/refunds"),
                &live.key,
                None,
                None,
            )
            .await;
        let med = &list["data"][0];
        assert_eq!(med["amount"], 29.9, "{list}");
        assert_eq!(med["status"], "SUCCEEDED");
        assert!(med["reason"].as_str().unwrap().contains("MED_FRAUDE"));
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["amountRefunded"], 29.9);
        // What the MED took is no longer refundable.
        let key = live.key_with(&["payments:refund"]).await;
        let (_, rest) = live.refund(&key, &id, "refund-r10", json!({})).await;
        assert_eq!(rest["data"]["amount"], 100.0, "{rest}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_payment_is_refundable_for_ninety_days_after_it_was_paid() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r11").await;
        let id = id(&intent);
        // Paid 91 days ago, as pixgate recorded it (the SPI's clock counts from the payment).
        let db = live.server.open_db().await;
        let ninety_one_days = 91 * 24 * 3_600_000_i64;
        sqlx::query("update payment_intents set completed_at = completed_at - $2 where id = $1")
            .bind(&id)
            .bind(ninety_one_days)
            .execute(&db.write)
            .await
            .unwrap();
        let (status, body) = live.refund(&key, &id, "refund-r11", json!({})).await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(body["error"]["code"], "payment_not_refundable");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("90 days"),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_devolucao_the_psp_refuses_at_once_fails_at_once() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r12").await;
        let id = id(&intent);
        // The PSP counts the 90 days from its own record of the pix, which says it is older.
        let e2eid = intent["provider"]["paymentId"].as_str().unwrap();
        live.sim(&provider(&intent))
            .post(&format!("/pix/{e2eid}/backdate"), json!({"days": 91}))
            .await;
        let (status, refund) = live
            .refund(&key, &id, "refund-r12", json!({"amount": 5}))
            .await;
        assert_eq!(status, 200, "{refund}");
        assert_eq!(refund["data"]["status"], "FAILED", "{refund}");
        assert_eq!(refund["data"]["failure"]["code"], "psp_refused");
        live.wait_events(
            &id,
            &["payment.pending", "payment.succeeded", "refund.failed"],
        )
        .await;
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["amountRefunded"], 0.0);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_duplicates_of_one_refund_make_one_devolucao() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-r13").await;
        let id = id(&intent);
        let answers = futures::future::join_all((0..8).map(|_| {
            let (live, key, id) = (&live, &key, &id);
            async move {
                live.refund(key, id, "refund-r13", json!({"amount": 10}))
                    .await
            }
        }))
        .await;
        let mut refund_ids = std::collections::BTreeSet::new();
        for (status, body) in &answers {
            match status {
                200 => {
                    refund_ids.insert(body["data"]["refundId"].as_str().unwrap().to_owned());
                }
                409 => assert_eq!(body["error"]["code"], "idempotency_key_in_use", "{body}"),
                // The server's log says what failed inside it.
                other => panic!("{backend:?}: {other} {body}\n{}", live.server.logs()),
            }
        }
        assert_eq!(refund_ids.len(), 1, "{answers:?}");
        let pix = pix_at_psp(&live, &intent).await;
        assert_eq!(pix["devolucoes"].as_array().unwrap().len(), 1, "{pix}");
        // On a loaded machine the devolução may still be settling when the answers come back.
        let refund = refund_ids.first().unwrap();
        live.wait_refund(
            &key,
            refund,
            "SUCCEEDED",
            std::time::Duration::from_secs(20),
        )
        .await;
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["amountRefunded"], 10.0);
    }
}

/// Waits until intent `id` holds a pix of another amount, `received` BRL.
async fn wait_received(live: &Live, id: &str, received: f64) -> Value {
    let deadline = std::time::Instant::now() + SETTLE;
    loop {
        let (_, now) = live.server.get_payment(&live.key, id).await;
        if now["data"]["amountReceived"] == received {
            return now["data"].clone();
        }
        assert!(std::time::Instant::now() < deadline, "{now}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until intent `id` has `refunded` BRL refunded.
async fn wait_refunded(live: &Live, id: &str, refunded: f64) -> Value {
    let deadline = std::time::Instant::now() + SETTLE;
    loop {
        let (_, now) = live.server.get_payment(&live.key, id).await;
        if now["data"]["amountRefunded"] == refunded {
            return now["data"].clone();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{now}\n{}",
            live.server.logs()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The intent's refunds, as the merchant lists them.
async fn refunds_of(live: &Live, id: &str) -> Vec<Value> {
    let (status, list) = live
        .merchant(
            Method::GET,
            &format!("/payments/{id}/refunds"),
            &live.key,
            None,
            None,
        )
        .await;
    assert_eq!(status, 200, "{list}");
    list["data"].as_array().unwrap().clone()
}

/// How many reads of its pix a paid intent had, and when the next one is due.
async fn pix_reads(live: &Live, id: &str) -> (i64, Option<i64>) {
    let db = live.server.open_db().await;
    sqlx::query_as("select pix_reads, pix_read_at from payment_intents where id = $1")
        .bind(id)
        .fetch_one(&db.write)
        .await
        .unwrap()
}

/// Moves a paid intent's payment, and so its first planned pix read, two hours back.
async fn paid_two_hours_ago(live: &Live, id: &str) {
    let db = live.server.open_db().await;
    let two_hours = 2 * 3_600_000_i64;
    sqlx::query(
        "update payment_intents set completed_at = completed_at - $2, \
         pix_read_at = pix_read_at - $2 where id = $1",
    )
    .bind(id)
    .bind(two_hours)
    .execute(&db.write)
    .await
    .unwrap();
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cancel_while_the_provider_is_switched_off_is_a_503_and_changes_nothing() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (_, charge) = live.charge("order-c3").await;
        let intent = &charge["data"];
        let id = id(intent);
        let provider_path = format!("/providers/{}", provider(intent));
        let (status, body) = live
            .server
            .admin_patch(&provider_path, json!({"active": false}))
            .await;
        assert_eq!(status, 200, "{body}");
        let path = format!("/payments/{id}/cancel");
        let (status, body) = live
            .merchant(Method::POST, &path, &live.key, None, None)
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (503, Some("psp_unavailable")),
            "{body}\n{}",
            live.server.logs()
        );
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["status"], "PENDING", "{now}");
        assert!(now["data"]["completedAt"].is_null());
        // Once the provider is back, the retry cancels it.
        let (status, body) = live
            .server
            .admin_patch(&provider_path, json!({"active": true}))
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = live
            .merchant(Method::POST, &path, &live.key, None, None)
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["status"], "CANCELED");
        live.wait_events(&id, &["payment.pending", "payment.canceled"])
            .await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_amount_refunded_by_an_admin_gives_back_what_is_left_and_ends_canceled_once_given_back()
 {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (_, charge) = live.charge("order-w3").await;
        let intent = charge["data"].clone();
        let id = id(&intent);
        let sim = live.sim(&provider(&intent));
        let txid = intent["pix"]["txid"].as_str().unwrap();
        let pix = sim
            .post(&format!("/cob/{txid}/pay"), json!({"valor": "100.00"}))
            .await;
        let e2eid = pix["endToEndId"].as_str().unwrap();
        wait_received(&live, &id, 100.0).await;
        // The MED takes 30.00 of the pix back before anyone resolves it.
        sim.post(
            &format!("/pix/{e2eid}/med"),
            json!({"valor": "30.00", "natureza": "MED_OPERACIONAL"}),
        )
        .await;
        wait_refunded(&live, &id, 30.0).await;
        let resolve = |body: Value| {
            let (live, path) = (&live, format!("/payment-intents/{id}/resolve"));
            async move { live.server.admin_post(&path, body).await }
        };

        // The reason is the devolução's descricao: at most 140 characters, as API Pix says.
        let (status, body) = resolve(json!({"action": "refund", "reason": "x".repeat(141)})).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("invalid_reason")),
            "{body}"
        );

        // The PSP takes its time to give the money back.
        sim.switches(json!({"devolucoes": {"settleAfterMs": 60000}}))
            .await;
        let reason = "Pagamento com valor divergente: devolvemos o que resta";
        let (status, body) = resolve(json!({"action": "refund", "reason": reason})).await;
        assert_eq!(status, 200, "{body}\n{}", live.server.logs());
        assert_eq!(body["data"]["status"], "PENDING", "{body}");
        assert_eq!(body["data"]["amountReceived"], 100.0);
        // What is left of the pix, and nothing more, is asked back, with the reason for the payer.
        let asked = refunds_of(&live, &id).await;
        let refund = asked
            .iter()
            .find(|r| r["reason"] == reason)
            .unwrap_or_else(|| panic!("{asked:?}"));
        assert_eq!(refund["amount"], 70.0, "{refund}");
        assert_eq!(refund["status"], "PENDING");
        let at_psp = sim.pix(e2eid).await;
        let devolucao = at_psp["devolucoes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["id"] == refund["provider"]["refundId"])
            .unwrap_or_else(|| panic!("{at_psp}"))
            .clone();
        assert_eq!(devolucao["valor"], "70.00");
        assert_eq!(devolucao["descricao"], reason);

        // While that devolução runs, the payment is not resolved a second way.
        let (status, body) =
            resolve(json!({"action": "accept", "reason": "changed my mind"})).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (409, Some("payment_not_resolvable")),
            "{body}"
        );
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["status"], "PENDING");

        // The PSP gives it back: only now is the payment CANCELED.
        let devolucao_id = devolucao["id"].as_str().unwrap();
        sim.post(
            &format!("/pix/{e2eid}/devolucao/{devolucao_id}/settle"),
            json!({}),
        )
        .await;
        let canceled = live.wait_status(&id, "CANCELED", SETTLE).await;
        assert_eq!(canceled["amountRefunded"], 100.0, "{canceled}");
        live.wait_events(
            &id,
            &[
                "payment.pending",
                "refund.succeeded",
                "refund.succeeded",
                "payment.canceled",
            ],
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_amount_whose_refund_is_not_made_stays_resolvable_and_accept_dates_it_at_the_pix() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (_, charge) = live.charge("order-w4").await;
        let intent = charge["data"].clone();
        let id = id(&intent);
        let sim = live.sim(&provider(&intent));
        let txid = intent["pix"]["txid"].as_str().unwrap();
        let pix = sim
            .post(&format!("/cob/{txid}/pay"), json!({"valor": "100.00"}))
            .await;
        wait_received(&live, &id, 100.0).await;
        // An admin looks at it a while after the payer paid.
        tokio::time::sleep(Duration::from_millis(1_100)).await;
        sim.switches(json!({"devolucoes": {"settleAs": "NAO_REALIZADO", "motivo": "Conta do pagador encerrada"}}))
            .await;
        let path = format!("/payment-intents/{id}/resolve");
        let (status, body) = live
            .server
            .admin_post(
                &path,
                json!({"action": "refund", "reason": "Valor divergente"}),
            )
            .await;
        assert_eq!(status, 200, "{body}\n{}", live.server.logs());
        assert_eq!(body["data"]["status"], "PENDING", "{body}");
        let refunds = refunds_of(&live, &id).await;
        assert_eq!(refunds.len(), 1, "{refunds:?}");
        assert_eq!(refunds[0]["status"], "FAILED");
        assert_eq!(refunds[0]["failure"]["code"], "refund_not_made");

        // The devolução was not made: the payment is still resolvable, and kept.
        let (status, body) = live
            .server
            .admin_post(
                &path,
                json!({"action": "accept", "reason": "customer confirmed"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["status"], "SUCCEEDED");
        assert_eq!(body["data"]["amountRefunded"], 0.0);
        // Paid when the pix settled, not when the admin decided.
        assert_eq!(body["data"]["completedAt"], pix["horario"], "{body}");
        live.wait_events(
            &id,
            &["payment.pending", "refund.failed", "payment.succeeded"],
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refund_the_psp_refuses_makes_pixgate_read_the_pix_and_record_a_med_it_missed() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:refund"]).await;
        let intent = live.paid_charge("order-m1").await;
        let id = id(&intent);
        let e2eid = intent["provider"]["paymentId"].as_str().unwrap();
        let sim = live.sim(&provider(&intent));
        // The MED takes 29.90 back, and its callback is lost.
        sim.switches(json!({"callbacks": {"drop": true}})).await;
        sim.post(
            &format!("/pix/{e2eid}/med"),
            json!({"valor": "29.90", "natureza": "MED_FRAUDE"}),
        )
        .await;
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["amountRefunded"], 0.0);

        // The merchant asks for all of it: more than the PSP has left, so it refuses.
        let (status, refund) = live.refund(&key, &id, "refund-m1", json!({})).await;
        assert_eq!(status, 200, "{refund}");
        assert_eq!(refund["data"]["status"], "FAILED", "{refund}");
        assert_eq!(refund["data"]["failure"]["code"], "psp_refused");
        // Before answering, pixgate read the pix and recorded the MED it had missed.
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["amountRefunded"], 29.9, "{now}");
        let refunds = refunds_of(&live, &id).await;
        assert_eq!(refunds.len(), 2, "{refunds:?}");
        assert_eq!(refunds[0]["amount"], 29.9);
        assert_eq!(refunds[0]["status"], "SUCCEEDED");
        assert!(
            refunds[0]["reason"]
                .as_str()
                .unwrap()
                .contains("MED_FRAUDE")
        );
        // What is left can be refunded.
        let (_, rest) = live.refund(&key, &id, "refund-m1-b", json!({})).await;
        assert_eq!(rest["data"]["amount"], 100.0, "{rest}");
        assert_eq!(rest["data"]["status"], "SUCCEEDED");
        live.wait_events(
            &id,
            &[
                "payment.pending",
                "payment.succeeded",
                "refund.succeeded",
                "refund.failed",
                "refund.succeeded",
            ],
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_med_whose_callback_was_lost_is_found_by_a_later_read_of_the_paid_pix() {
    for backend in backends() {
        let live = Live::start(backend, &[("PIXGATE_RECONCILE_INTERVAL", "200ms")]).await;
        let intent = live.paid_charge("order-m2").await;
        let id = id(&intent);
        let e2eid = intent["provider"]["paymentId"].as_str().unwrap();
        let sim = live.sim(&provider(&intent));
        sim.switches(json!({"callbacks": {"drop": true}})).await;
        sim.post(
            &format!("/pix/{e2eid}/med"),
            json!({"valor": "19.90", "natureza": "MED_OPERACIONAL"}),
        )
        .await;
        // The first read of a paid pix is due an hour after its payment: not yet.
        tokio::time::sleep(Duration::from_millis(800)).await;
        let (_, now) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(now["data"]["amountRefunded"], 0.0);
        assert_eq!(pix_reads(&live, &id).await.0, 0);

        // Two hours later, the reconciler reads the pix and finds the MED.
        paid_two_hours_ago(&live, &id).await;
        wait_refunded(&live, &id, 19.9).await;
        live.wait_events(
            &id,
            &["payment.pending", "payment.succeeded", "refund.succeeded"],
        )
        .await;
        let refunds = refunds_of(&live, &id).await;
        assert!(
            refunds[0]["reason"]
                .as_str()
                .unwrap()
                .contains("MED_OPERACIONAL"),
            "{refunds:?}"
        );
        // Read once; the next read is planned further apart, two hours on.
        let (reads, next) = pix_reads(&live, &id).await;
        assert_eq!(reads, 1);
        let gap = next.unwrap() - now_ms();
        assert!((7_000_000..=7_200_000).contains(&gap), "{gap}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_instances_read_a_paid_pix_once() {
    if pixgate_e2e::server::postgres_admin_url().is_none() {
        return;
    }
    let shared = [
        (
            "PIXGATE_MASTER_KEY",
            "cGl4Z2F0ZS10ZXN0LW1hc3Rlci1rZXktMzItYnl0ZXM=",
        ),
        ("PIXGATE_RECONCILE_INTERVAL", "100ms"),
    ];
    let live = Live::start(pixgate_e2e::server::Backend::Postgres, &shared).await;
    let _second = Server::launch(Options {
        database_url: Some(live.server.database_url.clone()),
        env: live.server.env.clone(),
        data_dir: None,
    });
    let intent = live.paid_charge("order-m3").await;
    let id = id(&intent);
    let sim = live.sim(&provider(&intent));
    paid_two_hours_ago(&live, &id).await;
    let deadline = std::time::Instant::now() + SETTLE;
    while pix_reads(&live, &id).await.0 == 0 {
        assert!(std::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Both reconcilers pass ten times a second; the read is made once.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(pix_reads(&live, &id).await.0, 1);
    let stats = sim.stats().await;
    assert_eq!(stats["routes"]["GET /pix/{e2eid}"], 1, "{stats}");
}
