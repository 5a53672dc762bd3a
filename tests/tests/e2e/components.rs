//! Policy components end to end: upload, activation and rollback per store, evaluate,
//! replay, shadow candidates and the kill switch, against the real `pixgate serve` on SQLite
//! and (when `PIXGATE_TEST_DATABASE_URL` is set) PostgreSQL.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use pixgate_e2e::components::{
    activate, charge, delete_once_unused, replay, rollback, upload, upload_guest,
};
use pixgate_e2e::server::{Backend, Server, backends, two_instances_on_postgres};
use pixgate_e2e::{guest_wasm, unsealed_guest_wasm};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn uploads_are_validated_named_by_sha256_and_deduplicated() {
    for backend in backends() {
        let server =
            Server::start_with(backend, &[("PIXGATE_COMPONENT_MAX_BYTES", "300000")]).await;
        let fixture = std::fs::read(guest_wasm("pixgate_fixture_misbehave")).unwrap();

        let (status, first) = upload(&server, "policy", fixture.clone()).await;
        assert_eq!(status, 201, "{backend:?} {first}");
        let version = first["data"]["version"].as_str().unwrap().to_owned();
        assert_eq!(version, pixgate_domain::sha256_hex(&fixture));
        assert_eq!(first["data"]["step"], "policy");
        assert_eq!(first["data"]["sizeBytes"], fixture.len());
        let (status, again) = upload(&server, "policy", fixture.clone()).await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again["data"]["version"], version.as_str());

        // A build that reads files and opens sockets, not sealed: refused before it is
        // compiled, naming the import and what to do.
        let unsealed = std::fs::read(unsealed_guest_wasm("pixgate_fixture_misbehave")).unwrap();
        let (status, body) = upload(&server, "policy", unsealed).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("invalid_component")),
            "{body}"
        );
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("`wasi:filesystem/types@0.2.6`"),
            "{message}"
        );
        assert!(message.contains("pixgate policy seal"), "{message}");

        // Another step's world, not a component at all, too large, the wrong media type.
        let (status, body) = upload(&server, "provider", fixture.clone()).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("wrong_world"))
        );
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("pixgate:chain/provider-selection"),
            "{body}"
        );
        let wrong = std::fs::read(guest_wasm("pixgate_fixture_wrong_world")).unwrap();
        let (status, body) = upload(&server, "policy", wrong).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("wrong_world"))
        );
        let (status, body) = upload(&server, "policy", b"\0asm not really".to_vec()).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("invalid_component"))
        );
        let (status, body) = upload(&server, "policy", vec![0u8; 300_001]).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (413, Some("component_too_large"))
        );
        let r = server
            .client
            .post(format!("{}/components/policy", server.admin))
            .bearer_auth(&server.admin_token)
            .header("Content-Type", "application/json")
            .body(fixture.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 415);
        // A label over 100 characters is refused before the body is judged (here too large).
        let r = server
            .client
            .post(format!(
                "{}/components/policy?label={}",
                server.admin,
                "x".repeat(101)
            ))
            .bearer_auth(&server.admin_token)
            .header("Content-Type", "application/wasm")
            .body(vec![0u8; 300_001])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 400);
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "invalid_label", "{body}");
        // A few bytes: the route is refused before the body is read, and a large body could
        // still be on its way when the server closes the connection (a broken pipe, not the
        // answer).
        let (status, body) = upload(&server, "routing", b"\0asm".to_vec()).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("unknown_step"))
        );

        // Listed with the bundled one; deletable while unused, not while active.
        let (status, list) = server.admin_get("/components/policy").await;
        assert_eq!(status, 200, "{list}");
        let listed: Vec<&str> = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["source"].as_str().unwrap())
            .collect();
        assert!(
            listed.contains(&"bundled") && listed.contains(&"uploaded"),
            "{list}"
        );
        activate(&server, "demo-store", "policy", &version).await;
        let (status, body) = server
            .admin(
                reqwest::Method::DELETE,
                &format!("/components/policy/{version}"),
                None,
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (409, Some("component_in_use")),
            "{body}"
        );
        let (status, _) = rollback(&server, "demo-store", "policy").await;
        assert_eq!(status, 200);
        delete_once_unused(&server, "policy", &version).await;
        let (status, body) = server
            .admin(
                reqwest::Method::DELETE,
                &format!("/components/policy/{version}"),
                None,
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("component_not_found"))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_runaway_component_takes_down_only_its_own_store() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let other = server
            .merchant_with_store("acme", "acme-web", "SHADOW")
            .await;
        let version = upload_guest(&server, "policy", "pixgate_fixture_misbehave").await;
        activate(&server, "demo-store", "policy", &version).await;

        for (i, reference) in ["loop", "memory-bomb"].iter().enumerate() {
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &format!("runaway-{i}"),
                    &charge("demo-store", reference, 10.0),
                )
                .await;
            assert_eq!(
                (status, body["error"]["code"].as_str()),
                (503, Some("routing_unavailable")),
                "{backend:?} {reference}: {body}"
            );
            // Another store answers while (and after) this one fails.
            let (status, body) = server
                .charge(
                    &other,
                    &format!("other-{i}"),
                    &charge("acme-web", "fine", 10.0),
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }
        // Not stored: the same key works once the store runs a sane version again.
        let (status, _) = rollback(&server, "demo-store", "policy").await;
        assert_eq!(status, 200);
        let (status, body) = server
            .charge(
                &server.demo_key,
                "runaway-0",
                &charge("demo-store", "loop", 10.0),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["idempotentReplay"], false);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn activation_and_rollback_under_load_lose_no_charge() {
    for backend in backends() {
        let server = Server::start_with(backend, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
        let renamed = upload_guest(&server, "policy", "pixgate_fixture_renamed").await;
        let server = std::sync::Arc::new(server);
        let load = {
            let server = server.clone();
            tokio::spawn(async move {
                let mut tasks = Vec::new();
                for worker in 0..8 {
                    let server = server.clone();
                    tasks.push(tokio::spawn(async move {
                        let mut answers = Vec::new();
                        for i in 0..40 {
                            let (status, body) = server
                                .charge(
                                    &server.demo_key,
                                    &format!("load-{worker}-{i}"),
                                    &charge("demo-store", &format!("order-{worker}-{i}"), 50.0),
                                )
                                .await;
                            answers.push((status, body));
                        }
                        answers
                    }));
                }
                let mut all = Vec::new();
                for t in tasks {
                    all.extend(t.await.unwrap());
                }
                all
            })
        };
        for _ in 0..3 {
            tokio::time::sleep(Duration::from_millis(150)).await;
            activate(&server, "demo-store", "policy", &renamed).await;
            tokio::time::sleep(Duration::from_millis(150)).await;
            let (status, body) = rollback(&server, "demo-store", "policy").await;
            assert_eq!(status, 200, "{body}");
        }
        let answers = load.await.unwrap();
        assert_eq!(answers.len(), 320);
        let mut policies = BTreeMap::new();
        for (status, body) in &answers {
            assert_eq!(*status, 200, "{backend:?} {body}");
            *policies
                .entry(
                    body["data"]["routing"]["policy"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                )
                .or_insert(0) += 1;
        }
        // Every charge ran one of the two versions, whole: the bundled policy names
        // `d0-first`; the renamed one `v2-d0-first`.
        assert!(
            policies
                .keys()
                .all(|p| p == "d0-first" || p == "v2-d0-first"),
            "{policies:?}"
        );
        let (_, status) = server.admin_get("/stores/demo-store/components").await;
        let history = status["data"]["history"].as_array().unwrap();
        assert_eq!(history.len(), 6, "{status}");
        assert_eq!(status["data"]["steps"]["policy"]["active"], "bundled");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_instances_on_postgres_converge_on_an_activation_within_five_seconds() {
    if !backends().contains(&Backend::Postgres) {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    let (a, b) = two_instances_on_postgres().await;
    let key = a.merchant_with_store("acme", "acme-web", "SHADOW").await;
    let probe = |server: &Server, n: u32| {
        let key = key.clone();
        let server_base = server.base.clone();
        let client = server.client.clone();
        async move {
            let r = client
                .post(format!("{server_base}/payments/charge"))
                .bearer_auth(&key)
                .header("Idempotency-Key", format!("probe-{n}"))
                .json(&charge("acme-web", "probe", 10.0))
                .send()
                .await
                .unwrap();
            let body: Value = r.json().await.unwrap();
            body["data"]["routing"]["policy"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        }
    };
    // Both serve (and cache) the bundled policy first.
    assert_eq!(probe(&b, 0).await, "d0-first");
    let renamed = upload_guest(&a, "policy", "pixgate_fixture_renamed").await;
    activate(&a, "acme-web", "policy", &renamed).await;
    let activated = Instant::now();
    let mut n = 1;
    loop {
        if probe(&b, n).await == "v2-d0-first" {
            break;
        }
        n += 1;
        assert!(
            activated.elapsed() < Duration::from_secs(5),
            "instance B still runs the old version after 5 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("converged after {:?}", activated.elapsed());
}

/// A version activated through one instance is compiled by the other before any charge there
/// needs it: the charge does not wait for the compile (10-20 s for an engine).
#[tokio::test(flavor = "multi_thread")]
async fn an_instance_loads_a_version_activated_on_another_before_its_first_charge() {
    if !backends().contains(&Backend::Postgres) {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    let (a, b) = two_instances_on_postgres().await;
    a.merchant_with_store("acme", "acme-web", "SHADOW").await;
    let costliest = upload_guest(&a, "provider", "pixgate_fixture_costliest_first").await;
    let preloaded = "components: loaded a version in use before its first charge here";
    assert!(!b.logs().contains(preloaded), "{}", b.logs());
    activate(&a, "acme-web", "provider", &costliest).await;
    let activated = Instant::now();
    loop {
        let logs = b.logs();
        if let Some(line) = logs.lines().find(|line| line.contains(preloaded)) {
            assert!(line.contains(&costliest), "{line}");
            assert!(line.contains("provider"), "{line}");
            break;
        }
        assert!(
            activated.elapsed() < Duration::from_secs(5),
            "instance B did not load the activated version within 5 s:\n{logs}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("loaded on B after {:?}", activated.elapsed());
}

#[tokio::test(flavor = "multi_thread")]
async fn evaluate_decides_like_a_charge_and_persists_nothing() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let mut body = charge("demo-store", "order-1", 129.9);
        body.as_object_mut().unwrap().remove("store");
        let (status, eval) = server
            .admin_post("/evaluate", json!({"store": "demo-store", "charge": body}))
            .await;
        assert_eq!(status, 200, "{backend:?} {eval}");
        let eval = &eval["data"];
        assert_eq!(eval["outcome"]["status"], "resolved");
        assert_eq!(eval["outcome"]["gatewayAlias"], "sandbox-b-d0");
        assert_eq!(eval["outcome"]["feeCentavos"], 165);
        assert_eq!(eval["routes"][0]["gatewayAlias"], "sandbox-b-d0");
        assert_eq!(eval["trace"]["version"], 1);
        assert!(eval["trace"]["provider"]["fuelUsed"].as_u64().unwrap() > 0);

        // With a candidate: the costliest gateway first.
        let costliest = upload_guest(&server, "provider", "pixgate_fixture_costliest_first").await;
        let (status, eval) = server
            .admin_post(
                "/evaluate",
                json!({"store": "demo-store", "charge": body, "components": {"provider": costliest}}),
            )
            .await;
        assert_eq!(status, 200, "{eval}");
        assert_eq!(
            eval["data"]["trace"]["provider"]["component"],
            costliest.as_str()
        );
        assert_ne!(
            eval["data"]["outcome"]["gatewayAlias"], "sandbox-b-d0",
            "{eval}"
        );

        // A refusal is an outcome, not an error; bad input is a 400 naming the field.
        let mut big = body.clone();
        big["amount"] = json!(0.001);
        let (status, eval) = server
            .admin_post("/evaluate", json!({"store": "demo-store", "charge": big}))
            .await;
        assert_eq!(
            (status, eval["error"]["field"].as_str()),
            (400, Some("charge.amount"))
        );
        let (status, eval) = server
            .admin_post("/evaluate", json!({"store": "nope", "charge": body}))
            .await;
        assert_eq!(
            (status, eval["error"]["code"].as_str()),
            (404, Some("store_not_found"))
        );

        // Nothing was written: a replay of the store finds no charge.
        let report = replay(&server, json!({"store": "demo-store"})).await;
        assert_eq!(report["replayed"], 0, "{report}");
    }
}

/// Charges at amounts from R$ 0.01 to R$ 1,000.00, with which the bundled ranking and the
/// costliest-first ranking differ in a way the test can compute.
const AMOUNTS: [f64; 8] = [0.01, 1.0, 10.0, 50.0, 129.9, 400.0, 600.0, 1000.0];

#[tokio::test(flavor = "multi_thread")]
async fn replay_reports_no_change_for_the_recorded_versions_and_exactly_the_expected_ones_for_a_candidate()
 {
    for backend in backends() {
        let server = Server::start_with(backend, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
        let mut recorded = Vec::new();
        for (i, amount) in AMOUNTS.iter().enumerate() {
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &format!("replay-{i}"),
                    &charge("demo-store", &format!("order-{i}"), *amount),
                )
                .await;
            assert_eq!(status, 200, "{backend:?} {amount}: {body}");
            recorded.push(body["data"].clone());
        }

        let same = replay(&server, json!({"store": "demo-store"})).await;
        assert_eq!(same["replayed"], AMOUNTS.len(), "{same}");
        assert_eq!(same["changed"], 0, "{same}");
        assert_eq!(same["unreadable"], 0, "{same}");
        assert_eq!(same["components"]["provider"], "recorded");
        assert_eq!(same["providersBefore"], same["providersAfter"]);
        assert!(same["fuel"]["p50"].as_u64().unwrap() > 0);

        // What costliest-first must decide, charge by charge, computed with evaluate.
        let costliest = upload_guest(&server, "provider", "pixgate_fixture_costliest_first").await;
        let mut expected_changes = 0;
        for data in &recorded {
            let mut body = charge("demo-store", data["reference"].as_str().unwrap(), 0.0);
            body["amount"] = data["amount"].clone();
            body.as_object_mut().unwrap().remove("store");
            let (_, eval) = server
                .admin_post(
                    "/evaluate",
                    json!({"store": "demo-store", "charge": body, "components": {"provider": costliest}}),
                )
                .await;
            if eval["data"]["outcome"]["gatewayAlias"] != data["routing"]["gatewayAlias"] {
                expected_changes += 1;
            }
        }
        assert!(expected_changes > 0, "the fixture must change something");

        let changed = replay(
            &server,
            json!({"store": "demo-store", "components": {"provider": costliest}}),
        )
        .await;
        assert_eq!(changed["replayed"], AMOUNTS.len(), "{changed}");
        assert_eq!(changed["changed"], expected_changes, "{changed}");
        assert_eq!(
            changed["changesByKind"]["gateway"], expected_changes,
            "{changed}"
        );
        assert_eq!(changed["components"]["provider"], costliest.as_str());
        assert!(
            changed["feeDeltaCentavos"].as_i64().unwrap() > 0,
            "{changed}"
        );
        assert_eq!(
            changed["feeDeltaCentavos"].as_i64().unwrap(),
            -changed["netDeltaCentavos"].as_i64().unwrap()
        );
        let first = &changed["firstChanged"][0];
        assert_ne!(
            first["before"]["gatewayAlias"],
            first["after"]["gatewayAlias"]
        );

        // A window and a limit select charges by creation time.
        let limited = replay(&server, json!({"store": "demo-store", "limit": 3})).await;
        assert_eq!(limited["replayed"], 3);
        let (status, body) = server
            .admin_post(
                "/replays",
                json!({"store": "demo-store", "since": "yesterday"}),
            )
            .await;
        assert_eq!(
            (status, body["error"]["field"].as_str()),
            (400, Some("since"))
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_shadow_candidate_records_where_it_would_decide_otherwise_and_changes_nothing() {
    for backend in backends() {
        let server = Server::start_with(backend, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
        let costliest = upload_guest(&server, "provider", "pixgate_fixture_costliest_first").await;
        let (status, body) = server
            .admin(
                reqwest::Method::PUT,
                "/stores/demo-store/components/provider/candidate",
                Some(json!({"version": costliest})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["data"]["steps"]["provider"]["candidate"],
            costliest.as_str()
        );
        for (i, amount) in AMOUNTS.iter().enumerate() {
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &format!("shadow-{i}"),
                    &charge("demo-store", "order", *amount),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            // The charge itself is the active version's.
            let id = body["data"]["paymentIntentId"].as_str().unwrap();
            let (_, trace) = server
                .admin_get(&format!("/payment-intents/{id}/trace"))
                .await;
            assert_ne!(trace["data"]["provider"]["component"], costliest.as_str());
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        let comparison = loop {
            let (status, body) = server
                .admin_get("/stores/demo-store/components/provider/shadow")
                .await;
            assert_eq!(status, 200, "{body}");
            if body["data"]["charges"] == AMOUNTS.len() || Instant::now() > deadline {
                break body["data"].clone();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(comparison["charges"], AMOUNTS.len(), "{comparison}");
        assert_eq!(comparison["candidate"], costliest.as_str());
        assert!(comparison["changed"].as_u64().unwrap() > 0, "{comparison}");
        assert_eq!(
            comparison["changed"].as_u64().unwrap() + comparison["unchanged"].as_u64().unwrap(),
            AMOUNTS.len() as u64
        );
        assert_ne!(
            comparison["recent"][0]["before"]["gatewayAlias"],
            comparison["recent"][0]["after"]["gatewayAlias"]
        );
        // As replay reports it: the share that changed, and what the candidate would cost.
        let share = comparison["changedShare"].as_f64().unwrap();
        let changed = comparison["changed"].as_f64().unwrap();
        assert!(
            (share - changed / AMOUNTS.len() as f64).abs() < 1e-9,
            "{comparison}"
        );
        let fee_delta = comparison["feeDeltaCentavos"].as_i64().unwrap();
        assert!(
            fee_delta > 0,
            "the costliest gateway costs more: {comparison}"
        );
        assert_eq!(comparison["netDeltaCentavos"], -fee_delta, "{comparison}");
        let (before, after) = (
            comparison["providersBefore"].as_object().unwrap(),
            comparison["providersAfter"].as_object().unwrap(),
        );
        assert_eq!(
            before.keys().collect::<Vec<_>>(),
            after.keys().collect::<Vec<_>>()
        );
        let total = |m: &serde_json::Map<String, Value>| {
            m.values().map(|v| v.as_u64().unwrap()).sum::<u64>()
        };
        assert_eq!(total(before), AMOUNTS.len() as u64);
        assert_eq!(total(after), AMOUNTS.len() as u64);
        let metrics = server.metrics().await;
        assert!(
            metrics.contains("pixgate_shadow_comparisons_total"),
            "{metrics}"
        );

        // Activating the candidate's version ends its comparison: it is what runs now.
        let state = activate(&server, "demo-store", "provider", &costliest).await;
        assert_eq!(state["steps"]["provider"]["active"], costliest.as_str());
        assert_eq!(
            state["steps"]["provider"]["candidate"],
            Value::Null,
            "{state}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_kill_switch_rolls_back_a_version_that_fails_too_often() {
    for backend in backends() {
        let server = Server::start_with(backend, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
        let (status, body) = server
            .admin(
                reqwest::Method::PUT,
                "/stores/demo-store/kill-switch",
                Some(json!({"errorRatePercent": 40, "windowSeconds": 60, "minCalls": 10})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["killSwitch"]["minCalls"], 10);
        let flaky = upload_guest(&server, "policy", "pixgate_fixture_flaky").await;
        activate(&server, "demo-store", "policy", &flaky).await;

        // Odd centavos fail in the flaky policy; even ones pass.
        let mut failures = 0;
        let mut i: u32 = 0;
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let amount = f64::from(1000 + i) / 100.0;
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &format!("kill-{i}"),
                    &charge("demo-store", "order", amount),
                )
                .await;
            i += 1;
            match status {
                503 => failures += 1,
                200 if body["data"]["routing"]["policy"] == "d0-first" && i.is_multiple_of(2) => {
                    // An odd amount resolved by the bundled policy: rolled back.
                    break;
                }
                200 => {}
                other => panic!("{other} {body}"),
            }
            assert!(Instant::now() < deadline, "the kill switch did not fire");
        }
        assert!(failures >= 4, "{failures}");
        let (_, state) = server.admin_get("/stores/demo-store/components").await;
        let state = &state["data"];
        assert_eq!(state["steps"]["policy"]["active"], "bundled", "{state}");
        let last = &state["history"][0];
        assert_eq!(last["action"], "kill_switch", "{state}");
        assert_eq!(last["previousVersion"], flaky.as_str());
        assert!(
            last["reason"].as_str().unwrap().contains("calls failed"),
            "{state}"
        );
        let metrics = server.metrics().await;
        assert!(
            metrics.contains(
                "pixgate_kill_switch_rollbacks_total{store=\"demo-store\",step=\"policy\"} 1"
            ),
            "{metrics}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_repeated_activation_changes_nothing_and_a_rollback_skips_a_deleted_version() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let renamed = upload_guest(&server, "policy", "pixgate_fixture_renamed").await;
        activate(&server, "demo-store", "policy", &renamed).await;
        // A retried activation must not make the version its own rollback target.
        let state = activate(&server, "demo-store", "policy", &renamed).await;
        assert_eq!(state["steps"]["policy"]["previous"], "bundled", "{state}");
        assert_eq!(state["history"].as_array().unwrap().len(), 1, "{state}");

        // Back to bundled; the version that was active (no charge ran it) may then be
        // deleted, and a rollback skips it: with no earlier version left, there is nothing to
        // roll back to, rather than a store left on a version that is gone.
        let (status, _) = rollback(&server, "demo-store", "policy").await;
        assert_eq!(status, 200);
        delete_once_unused(&server, "policy", &renamed).await;
        let (status, body) = rollback(&server, "demo-store", "policy").await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (409, Some("nothing_to_roll_back")),
            "{backend:?} {body}"
        );
        let (status, body) = server
            .charge(
                &server.demo_key,
                "after-delete",
                &charge("demo-store", "o", 10.0),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
}

/// Chain 1.1.0 beside 1.0.0 (issue 32): the bundled policy and economics steps (1.1.0) and the
/// `costliest-first` provider step (built against 1.0.0) resolve invoices and immediate charges
/// of one store together; the policy step sees the invoice's kind, the 1.0.0 step ranks without
/// it, the trace keeps the kind, and a replay with the recorded versions changes nothing.
#[tokio::test(flavor = "multi_thread")]
async fn a_1_0_0_component_resolves_invoices_beside_1_1_0_ones_and_replays_unchanged() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let costliest = upload_guest(&server, "provider", "pixgate_fixture_costliest_first").await;
        activate(&server, "demo-store", "provider", &costliest).await;
        let due = {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs() as i64;
            pixgate_domain::due::Date::from_unix_seconds_brasilia(now).add_days(20)
        };
        let mut ids = Vec::new();
        for (i, invoice) in [false, true, false, true].into_iter().enumerate() {
            let mut body = charge("demo-store", &format!("order-{i}"), 129.9);
            if invoice {
                body["dueDate"] = json!(due.to_string());
                body["fine"] = json!({"type": "PERCENT", "value": 2});
            }
            let (status, answer) = server
                .charge(&server.demo_key, &format!("mixed-{i}"), &body)
                .await;
            assert_eq!(status, 200, "{backend:?} {answer}");
            ids.push((
                invoice,
                answer["data"]["paymentIntentId"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            ));
        }
        for (invoice, id) in &ids {
            let (status, trace) = server
                .admin_get(&format!("/payment-intents/{id}/trace"))
                .await;
            assert_eq!(status, 200, "{trace}");
            let trace = &trace["data"];
            assert_eq!(trace["provider"]["component"], costliest.as_str());
            let kind = &trace["policy"]["input"]["charge"]["kind"];
            if *invoice {
                assert_eq!(trace["policy"]["output"]["policy"], "due-date", "{trace}");
                assert_eq!(kind["dueDate"]["dueDate"], due.to_string(), "{trace}");
                assert_eq!(
                    kind["dueDate"]["fine"],
                    json!({"kind": "PERCENT", "value": 200})
                );
                // Recorded with the provider step's input as the host holds it: kind included.
                assert_eq!(&trace["provider"]["input"]["charge"]["kind"], kind);
            } else {
                assert_eq!(trace["policy"]["output"]["policy"], "d0-first", "{trace}");
                assert!(
                    kind.is_null(),
                    "an immediate charge reads as under 1.0.0: {trace}"
                );
            }
            // costliest-first's order: the dearest gateway first, whatever the kind.
            let fees: Vec<u64> = trace["routes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["quote"]["feeCentavos"].as_u64().unwrap())
                .collect();
            assert!(fees.windows(2).all(|w| w[0] >= w[1]), "{fees:?}");
        }
        let report = replay(&server, json!({"store": "demo-store"})).await;
        assert_eq!(report["replayed"], ids.len(), "{report}");
        assert_eq!(report["changed"], 0, "{report}");
    }
}
