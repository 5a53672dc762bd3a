//! LIVE charges end to end against the real `pixgate psp-sim` over https with mTLS, on SQLite
//! and PostgreSQL: creation at the PSP with its BR Code and QR code, confirmation by callback
//! and by the reconciler, failover, failure, cancellation, forged and duplicate callbacks, and
//! a crash between the PSP's answer and the commit.

use std::time::Duration;

use pixgate_e2e::live::{Live, STORE};
use pixgate_e2e::server::{Options, Server, backends, charge_body};
use serde_json::{Value, json};

const SETTLE: Duration = Duration::from_secs(15);

fn txid(charge: &Value) -> String {
    charge["data"]["pix"]["txid"].as_str().unwrap().to_owned()
}

/// The PSP calls in the charge's trace, `"operation outcome"`, in order.
async fn psp_calls(live: &Live, charge: &Value) -> Vec<String> {
    let (_, trace) = live
        .server
        .admin_get(&format!("/payment-intents/{}/trace", id(charge)))
        .await;
    trace["data"]["pspCalls"]
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
        .collect()
}

fn id(charge: &Value) -> String {
    charge["data"]["paymentIntentId"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_live_charge_is_created_at_the_psp_paid_and_confirmed_with_signed_events() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (status, charge) = live.charge("order-1").await;
        assert_eq!(status, 200, "{charge}\n{}", live.server.logs());
        let data = &charge["data"];
        assert_eq!(data["status"], "PENDING", "{charge}");
        assert_eq!(data["idempotentReplay"], false);
        let provider = data["routing"]["providerCode"].as_str().unwrap();
        assert_eq!(data["provider"]["code"], provider);
        assert_eq!(data["provider"]["paymentId"], Value::Null);
        assert!(data.get("completedAt").is_none());
        let code = data["pix"]["copyAndPaste"].as_str().unwrap();
        let parsed = pixgate_pix::brcode::parse(code).expect("a valid BR Code");
        assert!(parsed.location().is_some(), "a dynamic code: {code}");
        assert!(
            data["pix"]["qrCodeSvg"]
                .as_str()
                .unwrap()
                .starts_with("<?xml")
                || data["pix"]["qrCodeSvg"]
                    .as_str()
                    .unwrap()
                    .starts_with("<svg")
        );
        assert!(data["pix"]["expiresAt"].as_str().unwrap().ends_with('Z'));

        let paid = live
            .sim(provider)
            .post(&format!("/cob/{}/pay", txid(&charge)), json!({}))
            .await;
        let done = live.wait_status(&id(&charge), "SUCCEEDED", SETTLE).await;
        assert_eq!(done["provider"]["paymentId"], paid["endToEndId"], "{paid}");
        assert!(done["completedAt"].is_string());
        assert_eq!(done["pix"]["txid"], charge["data"]["pix"]["txid"]);
        live.wait_events(&id(&charge), &["payment.pending", "payment.succeeded"])
            .await;
        let succeeded = live
            .receiver
            .received()
            .into_iter()
            .map(|r| r.json())
            .find(|e| e["type"] == "payment.succeeded")
            .unwrap();
        assert_eq!(
            succeeded["data"]["provider"]["paymentId"],
            paid["endToEndId"]
        );
        assert_eq!(succeeded["data"]["metadata"]["orderId"], "10042");

        // The trace shows the PSP calls.
        let (_, trace) = live
            .server
            .admin_get(&format!("/payment-intents/{}/trace", id(&charge)))
            .await;
        let calls = trace["data"]["pspCalls"].as_array().unwrap();
        assert_eq!(calls[0]["operation"], "put_cob");
        assert_eq!(calls[0]["outcome"], "success");
        assert!(calls.iter().any(|c| c["operation"] == "get_cob"));
        let metrics = live
            .server
            .client
            .get(format!("{}/metrics", live.server.admin_root()))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(metrics.contains("pixgate_live_intents_total"), "{metrics}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_same_key_again_reuses_the_txid_and_makes_no_second_charge() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (_, first) = live.charge("order-2").await;
        let (status, again) = live.charge("order-2").await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again["data"]["idempotentReplay"], true);
        assert_eq!(again["data"]["pix"], first["data"]["pix"]);
        let sim = live.sim(first["data"]["routing"]["providerCode"].as_str().unwrap());
        assert_eq!(sim.puts_and_cobs(&txid(&first)).await, (1, 1));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_psp_error_on_the_first_gateway_fails_over_to_the_next() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        live.configure(json!({}), &["sandbox-a-d0", "sandbox-b-d0"])
            .await;
        let ranking = live.ranking().await;
        assert_eq!(ranking.len(), 2, "{ranking:?}");
        let (first, second) = (&ranking[0], &ranking[1]);
        live.sim(&first.0)
            .post(
                "/faults",
                json!({"count": 1, "kind": "error", "status": 503, "route": "PUT /cob/{txid}"}),
            )
            .await;
        let (status, charge) = live.charge("order-3").await;
        assert_eq!(status, 200, "{charge}");
        assert_eq!(charge["data"]["status"], "PENDING", "{charge}");
        assert_eq!(charge["data"]["routing"]["gatewayAlias"], second.1.as_str());
        assert_eq!(charge["data"]["provider"]["code"], second.0.as_str());
        let calls = psp_calls(&live, &charge).await;
        // The lost answer is read back once (the first PSP has no such charge: 404), then
        // the next gateway creates it.
        assert_eq!(
            calls,
            ["put_cob unavailable", "get_cob refused", "put_cob success"]
        );
        // The providers' health, as this instance's calls left it.
        let (status, providers) = live.server.admin_get("/providers").await;
        assert_eq!(status, 200, "{providers}");
        let health = |code: &str| {
            providers["data"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["code"] == code)
                .map(|p| p["health"].clone())
                .unwrap()
        };
        // Setting the providers up (token, callback registration) made calls too: the one
        // that failed the charge shows its two failed calls among them, the other none.
        let (failing, serving) = (health(&first.0), health(&second.0));
        let number = |h: &Value, k: &str| h[k].as_u64().unwrap();
        assert!(number(&failing, "samples") >= 2, "{failing}");
        assert!(number(&failing, "successRateBps") < 10_000, "{failing}");
        assert!(number(&serving, "samples") >= 1, "{serving}");
        assert_eq!(serving["successRateBps"], 10_000, "{serving}");
        assert_eq!(serving["available"], true, "{serving}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn failover_crosses_release_classes_only_when_the_policy_allows_it() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let gateways = ["sandbox-a-d0", "sandbox-a-d1"];
        let fault = json!({"count": 1, "kind": "error", "status": 500, "route": "PUT /cob/{txid}"});

        live.configure(json!({"routing.cross-class-failover": "false"}), &gateways)
            .await;
        live.a.post("/faults", fault.clone()).await;
        let (status, charge) = live.charge("order-4a").await;
        assert_eq!(status, 200, "{charge}");
        assert_eq!(charge["data"]["status"], "FAILED", "{charge}");
        assert_eq!(charge["data"]["failure"]["code"], "psp_unavailable");

        live.configure(json!({"routing.cross-class-failover": "true"}), &gateways)
            .await;
        live.a.post("/faults", fault).await;
        let (status, charge) = live.charge("order-4b").await;
        assert_eq!(status, 200, "{charge}");
        assert_eq!(charge["data"]["status"], "PENDING", "{charge}");
        assert_eq!(charge["data"]["routing"]["releaseClass"], "D1");
        assert_eq!(charge["data"]["routing"]["gatewayAlias"], "sandbox-a-d1");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn when_every_gateway_fails_the_intent_is_failed_with_payment_failed() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        for sim in [&live.a, &live.b] {
            sim.post(
                "/faults",
                json!({"count": 50, "kind": "error", "status": 503}),
            )
            .await;
        }
        let (status, charge) = live.charge("order-5").await;
        assert_eq!(status, 200, "{charge}");
        assert_eq!(charge["data"]["status"], "FAILED", "{charge}");
        assert_eq!(charge["data"]["failure"]["code"], "psp_unavailable");
        assert!(charge["data"].get("pix").is_none());
        live.wait_events(&id(&charge), &["payment.failed"]).await;
        // A retry under the same key replays the failure; it does not charge again.
        let (_, again) = live.charge("order-5").await;
        assert_eq!(again["data"]["status"], "FAILED");
        assert_eq!(again["data"]["idempotentReplay"], true);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn once_every_psp_keeps_failing_a_charge_is_a_503_to_retry_and_its_key_is_not_spent() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        for sim in [&live.a, &live.b] {
            sim.post(
                "/faults",
                json!({"count": 1000, "kind": "error", "status": 503}),
            )
            .await;
        }
        // Each charge fails at every gateway (200 FAILED) until failures in a row trip each
        // provider's breaker; then the provider step finds no eligible gateway, and that is
        // the PSPs' state, not the request's fault: 503, not 400.
        let mut failed = 0;
        let (status, body) = loop {
            let (status, body) = live.charge(&format!("order-down-{failed}")).await;
            if status != 200 || failed == 20 {
                break (status, body);
            }
            assert_eq!(body["data"]["status"], "FAILED", "{body}");
            failed += 1;
        };
        assert!(
            failed >= 1,
            "the first charge meets the PSPs, not a tripped breaker"
        );
        assert_eq!(status, 503, "after {failed} FAILED charges: {body}");
        assert_eq!(body["error"]["code"], "psp_unavailable", "{body}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains("failing at its PSP"), "{message}");
        // Nothing is kept under the key: asked again, it is decided again (not replayed).
        let (again, body) = live.charge(&format!("order-down-{failed}")).await;
        assert_eq!(again, 503, "{body}");
        assert_eq!(body["error"]["code"], "psp_unavailable", "{body}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_payment_of_the_wrong_amount_does_not_succeed() {
    for backend in backends() {
        let live = Live::start(backend, &[("PIXGATE_RECONCILE_INTERVAL", "200ms")]).await;
        let (_, charge) = live.charge("order-6").await;
        let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
        live.sim(provider)
            .post(
                &format!("/cob/{}/pay", txid(&charge)),
                json!({"valor": "1.00"}),
            )
            .await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        let (_, now) = live.server.get_payment(&live.key, &id(&charge)).await;
        assert_eq!(now["data"]["status"], "PENDING", "{now}");
        assert_eq!(live.events_for(&id(&charge)), ["payment.pending"]);
        assert!(
            live.server
                .logs()
                .contains("without a pix that pays the charge")
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_forged_or_guessed_callback_changes_nothing() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (_, charge) = live.charge("order-7").await;
        let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
        let forged = json!({"pix": [{"endToEndId": "E12345678202611231200abcdefghijk",
            "txid": txid(&charge), "valor": "129.90", "horario": "2026-11-23T12:00:00Z"}]});
        let root = live.server.merchant_root();
        for path in [
            format!("/psp-callbacks/{provider}/not-the-token/pix"),
            "/psp-callbacks/no-such-provider/x/pix".to_owned(),
        ] {
            let r = live
                .server
                .client
                .post(format!("{root}{path}"))
                .json(&forged)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 404, "{path}");
        }
        // The real callback URL, as registered at the PSP, with a payment that did not happen:
        // the read at the PSP says the charge is still active.
        let registered = registered_callback(&live, provider).await;
        let r = live
            .server
            .client
            .post(format!("{registered}/pix"))
            .json(&forged)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        tokio::time::sleep(Duration::from_secs(1)).await;
        let (_, now) = live.server.get_payment(&live.key, &id(&charge)).await;
        assert_eq!(now["data"]["status"], "PENDING", "{now}");
        assert_eq!(live.events_for(&id(&charge)), ["payment.pending"]);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_callback_naming_one_charge_thousands_of_times_reads_it_once() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (_, charge) = live.charge("order-dup").await;
        let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
        let registered = registered_callback(&live, provider).await;
        let sim = live.sim(provider);
        let reads = |stats: &Value| stats["routes"]["GET /cob/{txid}"].as_u64().unwrap_or(0);
        let before = reads(&sim.stats().await);
        let pix = json!({"endToEndId": "E12345678202611231200abcdefghijk",
            "txid": txid(&charge), "valor": "129.90", "horario": "2026-11-23T12:00:00Z"});
        let post = |body: Value| {
            let client = live.server.client.clone();
            let url = format!("{registered}/pix");
            async move {
                let r = client.post(url).json(&body).send().await.unwrap();
                (r.status().as_u16(), r.json::<Value>().await.unwrap())
            }
        };
        let (status, answer) = post(json!({"pix": vec![pix.clone(); 5_000]})).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["data"]["charges"], 1, "{answer}");
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(reads(&sim.stats().await) - before, 1, "{backend:?}");

        // A callback naming more charges than any PSP batches is refused, before any lookup.
        let many: Vec<Value> = (0..1_001)
            .map(|i| {
                let mut p = pix.clone();
                p["txid"] = json!(format!("pixgatecallbacktest{i:010}"));
                p
            })
            .collect();
        let (status, answer) = post(json!({ "pix": many })).await;
        assert_eq!(
            (status, answer["error"]["code"].as_str()),
            (400, Some("invalid_callback")),
            "{answer}"
        );
    }
}

/// The callback URL pixgate registered for `provider`'s key at its simulator.
async fn registered_callback(live: &Live, provider: &str) -> String {
    let hook = live
        .sim(provider)
        .registered_webhook(&format!("{provider}@pixgate.test"))
        .await;
    hook["webhookUrl"]
        .as_str()
        .unwrap_or_else(|| panic!("no callback registered for {provider}: {hook}"))
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn duplicate_and_out_of_order_callbacks_give_one_transition_and_one_event() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        for sim in [&live.a, &live.b] {
            sim.switches(json!({"callbacks": {"duplicate": true, "hold": true}}))
                .await;
        }
        let (_, first) = live.charge("order-8a").await;
        let (_, second) = live.charge("order-8b").await;
        for charge in [&first, &second] {
            let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
            live.sim(provider)
                .post(&format!("/cob/{}/pay", txid(charge)), json!({}))
                .await;
        }
        for sim in [&live.a, &live.b] {
            sim.post(
                "/callbacks/flush",
                json!({"order": "reverse", "batch": true}),
            )
            .await;
        }
        for charge in [&first, &second] {
            live.wait_status(&id(charge), "SUCCEEDED", SETTLE).await;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        for charge in [&first, &second] {
            assert_eq!(
                live.events_for(&id(charge)),
                ["payment.pending", "payment.succeeded"]
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missed_callback_is_settled_by_the_reconciler() {
    for backend in backends() {
        let live = Live::start(backend, &[("PIXGATE_RECONCILE_INTERVAL", "300ms")]).await;
        for sim in [&live.a, &live.b] {
            sim.switches(json!({"callbacks": {"drop": true}})).await;
        }
        let (_, charge) = live.charge("order-9").await;
        let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
        live.sim(provider)
            .post(&format!("/cob/{}/pay", txid(&charge)), json!({}))
            .await;
        live.wait_status(&id(&charge), "SUCCEEDED", SETTLE).await;
        live.wait_events(&id(&charge), &["payment.pending", "payment.succeeded"])
            .await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn removal_and_expiry_at_the_psp_cancel_with_payment_canceled() {
    for backend in backends() {
        let live = Live::start(backend, &[("PIXGATE_RECONCILE_INTERVAL", "300ms")]).await;
        for (key, action) in [("order-10a", "remove"), ("order-10b", "expire")] {
            let (_, charge) = live.charge(key).await;
            let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
            live.sim(provider)
                .post(&format!("/cob/{}/{action}", txid(&charge)), json!({}))
                .await;
            let done = live.wait_status(&id(&charge), "CANCELED", SETTLE).await;
            assert!(done["completedAt"].is_string(), "{done}");
            live.wait_events(&id(&charge), &["payment.pending", "payment.canceled"])
                .await;
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_live_store_with_live_execution_off_is_403_and_the_psp_sees_nothing() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let (status, body) = live
            .server
            .admin_patch(&format!("/stores/{STORE}"), json!({"liveEnabled": false}))
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = live.charge("order-11").await;
        assert_eq!(status, 403, "{body}");
        assert_eq!(body["error"]["code"], "live_execution_disabled");
        for sim in [&live.a, &live.b] {
            let stats = sim.stats().await;
            assert_eq!(stats["cobsCreated"], 0, "{stats}");
            assert_eq!(stats["routes"].get("PUT /cob/{txid}"), None, "{stats}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_crash_between_the_psp_call_and_the_commit_ends_with_one_charge_at_the_psp() {
    for backend in backends() {
        let mut live = Live::start(
            backend,
            &[("PIXGATE_LIVE_LEASE", "2s"), ("PIXGATE_PSP_TIMEOUT", "20s")],
        )
        .await;
        live.configure(json!({}), &["sandbox-a-d0"]).await;
        // The PSP creates the charge, then holds its answer: pixgate is killed meanwhile.
        live.a
            .post(
                "/faults",
                json!({"count": 1, "kind": "hang", "hangMs": 30000, "afterProcessing": true,
                       "route": "PUT /cob/{txid}"}),
            )
            .await;
        let server = &live.server;
        let (base, key, client) = (server.base.clone(), live.key.clone(), server.client.clone());
        let pending = tokio::spawn(async move {
            client
                .post(format!("{base}/payments/charge"))
                .bearer_auth(key)
                .header("Idempotency-Key", "order-12")
                .json(&charge_body(STORE))
                .send()
                .await
        });
        let deadline = std::time::Instant::now() + Duration::from_secs(15);
        while live.a.stats().await["cobsCreated"] != 1 {
            assert!(
                std::time::Instant::now() < deadline,
                "the PSP never got the charge"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let data_dir = live.server.kill_hard();
        assert!(
            pending.await.unwrap().is_err(),
            "the merchant got no answer"
        );

        let database_url = Some(live.server.database_url.clone()).filter(|u| !u.is_empty());
        live.server = Server::launch(Options {
            database_url,
            env: live.server.env.clone(),
            data_dir: Some(data_dir),
        });
        // Within the lease the key is in use; after it, the retry takes the charge over.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let (status, charge) = live.charge("order-12").await;
        assert_eq!(status, 200, "{charge}\n{}", live.server.logs());
        assert_eq!(charge["data"]["status"], "PENDING", "{charge}");
        let (puts, cobs) = live.a.puts_and_cobs(&txid(&charge)).await;
        assert_eq!(cobs, 1, "one charge at the PSP");
        assert_eq!(
            puts, 1,
            "the retry found the charge instead of putting it again"
        );
        let (_, trace) = live
            .server
            .admin_get(&format!("/payment-intents/{}/trace", id(&charge)))
            .await;
        assert_eq!(
            trace["data"]["pspCalls"][0]["operation"], "get_cob",
            "{trace}"
        );
        assert_eq!(
            trace["data"]["pspCalls"][0]["outcome"], "success",
            "{trace}"
        );
        let (_, again) = live.charge("order-12").await;
        assert_eq!(again["data"]["idempotentReplay"], true);
        assert_eq!(
            again["data"]["paymentIntentId"],
            charge["data"]["paymentIntentId"]
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_duplicates_of_a_live_charge_reach_the_psp_once() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        // A slow PSP widens the window in which the duplicates overlap.
        for sim in [&live.a, &live.b] {
            sim.switches(json!({"latencyMs": 300})).await;
        }
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let (base, key, client) = (
                    live.server.base.clone(),
                    live.key.clone(),
                    live.server.client.clone(),
                );
                tokio::spawn(async move {
                    let r = client
                        .post(format!("{base}/payments/charge"))
                        .bearer_auth(key)
                        .header("Idempotency-Key", "order-13")
                        .json(&charge_body(STORE))
                        .send()
                        .await
                        .unwrap();
                    (r.status().as_u16(), r.json::<Value>().await.unwrap())
                })
            })
            .collect();
        let mut created = Vec::new();
        for task in tasks {
            let (status, body) = task.await.unwrap();
            match status {
                200 => created.push(body["data"]["paymentIntentId"].clone()),
                409 => assert_eq!(body["error"]["code"], "idempotency_key_in_use", "{body}"),
                other => panic!("{other}: {body}"),
            }
        }
        assert!(!created.is_empty());
        assert!(created.iter().all(|id| *id == created[0]), "{created:?}");
        let (_, charge) = live.charge("order-13").await;
        let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
        assert_eq!(
            live.sim(provider).puts_and_cobs(&txid(&charge)).await,
            (1, 1)
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_instances_on_one_postgresql_settle_each_charge_once() {
    if pixgate_e2e::server::postgres_admin_url().is_none() {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    // Both instances open the same sealed provider secrets: one master key.
    let shared = [
        (
            "PIXGATE_MASTER_KEY",
            "cGl4Z2F0ZS10ZXN0LW1hc3Rlci1rZXktMzItYnl0ZXM=",
        ),
        ("PIXGATE_RECONCILE_INTERVAL", "100ms"),
    ];
    let live = Live::start(pixgate_e2e::server::Backend::Postgres, &shared).await;
    let second = Server::launch(Options {
        database_url: Some(live.server.database_url.clone()),
        env: live.server.env.clone(),
        data_dir: None,
    });
    // No callbacks: both reconcilers race for every charge.
    for sim in [&live.a, &live.b] {
        sim.switches(json!({"callbacks": {"drop": true}})).await;
    }
    let mut ids = Vec::new();
    for n in 0..12 {
        let (status, charge) = live.charge(&format!("order-14-{n}")).await;
        assert_eq!(status, 200, "{charge}");
        let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
        live.sim(provider)
            .post(&format!("/cob/{}/pay", txid(&charge)), json!({}))
            .await;
        ids.push(id(&charge));
    }
    for id in &ids {
        live.wait_status(id, "SUCCEEDED", SETTLE).await;
        live.wait_events(id, &["payment.pending", "payment.succeeded"])
            .await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    for id in &ids {
        assert_eq!(
            live.events_for(id),
            ["payment.pending", "payment.succeeded"],
            "one transition and one event per charge"
        );
    }
    drop(second);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_charge_whose_answer_was_lost_is_read_back_not_created_twice() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        live.configure(json!({}), &["sandbox-a-d0", "sandbox-b-d0"])
            .await;
        let ranking = live.ranking().await;
        let first = live.sim(&ranking[0].0);
        // The PSP creates the charge, then its answer is a 503.
        first
            .post(
                "/faults",
                json!({"count": 1, "kind": "error", "status": 503, "afterProcessing": true,
                       "route": "PUT /cob/{txid}"}),
            )
            .await;
        let (status, charge) = live.charge("order-15").await;
        assert_eq!(status, 200, "{charge}");
        assert_eq!(charge["data"]["status"], "PENDING", "{charge}");
        assert_eq!(
            charge["data"]["routing"]["gatewayAlias"],
            ranking[0].1.as_str()
        );
        assert_eq!(first.puts_and_cobs(&txid(&charge)).await, (1, 1));
        let other = if ranking[0].0 == "sandbox-a" {
            &live.b
        } else {
            &live.a
        };
        assert_eq!(other.stats().await["cobsCreated"], 0);
        let calls = psp_calls(&live, &charge).await;
        assert_eq!(calls, ["put_cob unavailable", "get_cob success"]);
    }
}

/// Issue 30, DESIGN.md section 5: a LIVE intent's QR code is in the charge answer and in reads
/// while it is `PENDING`, and gone once it is paid (the txid and copy-and-paste code stay); the
/// replay of the charge is the stored answer byte for byte, QR code included, however the
/// intent moved since; the merchant's metadata is echoed as sent, digits and all, in the
/// answer, the reads and the signed events, which never carry the QR code.
#[tokio::test(flavor = "multi_thread")]
async fn the_qr_code_shows_while_pending_and_metadata_is_echoed_as_sent_everywhere() {
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        let metadata =
            r#"{"x": 4.5291683372467266e+179, "orderId": 123456789012345678901234567890}"#;
        let echoed =
            r#""metadata":{"x":4.5291683372467266e+179,"orderId":123456789012345678901234567890}"#;
        let mut body = charge_body(STORE);
        body["metadata"] = json!("METADATA");
        let body = body.to_string().replace(r#""METADATA""#, metadata);
        let send = || async {
            let r = live
                .server
                .client
                .post(format!("{}/payments/charge", live.server.base))
                .bearer_auth(&live.key)
                .header("Idempotency-Key", "qr-meta")
                .header("Content-Type", "application/json")
                .body(body.clone())
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        };
        let (status, answer) = send().await;
        assert_eq!(status, 200, "{answer}");
        assert!(answer.contains(echoed), "{answer}");
        let charge: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(charge["data"]["status"], "PENDING", "{answer}");
        let svg = charge["data"]["pix"]["qrCodeSvg"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(svg.contains("<svg"), "{svg}");

        let (_, read) = live.server.get_payment(&live.key, &id(&charge)).await;
        assert_eq!(read["data"]["pix"]["qrCodeSvg"], svg.as_str());

        let provider = charge["data"]["routing"]["providerCode"].as_str().unwrap();
        live.sim(provider)
            .post(&format!("/cob/{}/pay", txid(&charge)), json!({}))
            .await;
        let paid = live.wait_status(&id(&charge), "SUCCEEDED", SETTLE).await;
        assert_eq!(paid["pix"]["txid"], charge["data"]["pix"]["txid"]);
        assert_eq!(
            paid["pix"]["copyAndPaste"],
            charge["data"]["pix"]["copyAndPaste"]
        );
        assert!(paid["pix"].get("qrCodeSvg").is_none(), "{paid}");
        let read = live
            .server
            .client
            .get(format!("{}/payments/{}", live.server.base, id(&charge)))
            .bearer_auth(&live.key)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(read.contains(echoed), "{read}");

        // The replay: the answer as stored, but for the flag.
        let (status, replayed) = send().await;
        assert_eq!(status, 200);
        assert_eq!(
            replayed,
            answer.replacen(
                r#""idempotentReplay":false"#,
                r#""idempotentReplay":true"#,
                1
            )
        );

        live.wait_events(&id(&charge), &["payment.pending", "payment.succeeded"])
            .await;
        for event in live.receiver.received() {
            let text = String::from_utf8(event.body.clone()).unwrap();
            if event.json()["data"]["paymentIntentId"] == id(&charge).as_str() {
                assert!(text.contains(echoed), "{text}");
                assert!(!text.contains("qrCodeSvg"), "{text}");
            }
        }
    }
}
