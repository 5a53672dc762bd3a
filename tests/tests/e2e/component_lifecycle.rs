//! A component version's life after upload, end to end on SQLite and (when
//! `PIXGATE_TEST_DATABASE_URL` is set) PostgreSQL: what an upload can be refused for, the
//! kill switch with more than one broken version, deletion while replay still needs a
//! version, rollback past deleted versions, and the compiled-component cache on disk.

use std::time::{Duration, Instant};

use pixgate_e2e::components::{
    activate, charge, delete_once_unused, delete_version, replay, rollback, upload, upload_guest,
};
use pixgate_e2e::server::{Backend, Options, Server, backends, fresh_postgres_database};
use serde_json::json;

/// A component that imports `instances` instances of `resources` resource types each: it
/// validates and compiles, but with enough of them one instance of it needs a context larger
/// than the sandbox's pool gives an instance (140 x 1,000 is 10 KB of bytes and 1.1 MB of
/// context).
fn component_with_imported_resources(instances: u32, resources: u32) -> Vec<u8> {
    use wasm_encoder::{
        Component, ComponentImportSection, ComponentTypeRef, ComponentTypeSection, InstanceType,
        TypeBounds,
    };
    let mut instance = InstanceType::new();
    for i in 0..resources {
        instance.export(
            format!("t{i}"),
            ComponentTypeRef::Type(TypeBounds::SubResource),
        );
    }
    let mut types = ComponentTypeSection::new();
    types.instance(&instance);
    let mut imports = ComponentImportSection::new();
    for i in 0..instances {
        imports.import(format!("r{i}").as_str(), ComponentTypeRef::Instance(0));
    }
    let mut component = Component::new();
    component.section(&types);
    component.section(&imports);
    component.finish()
}

/// The files of the compiled-component cache whose name starts with `version`.
fn cached(server: &Server, version: &str) -> Vec<String> {
    std::fs::read_dir(server.data_dir.path().join("modules"))
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with(version))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_component_too_big_for_one_instance_is_refused_with_its_own_code() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let bytes = component_with_imported_resources(140, 1_000);
        let sha = pixgate_domain::sha256_hex(&bytes);
        let (status, body) = upload(&server, "policy", bytes).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("component_exceeds_limits")),
            "{backend:?} {body}"
        );
        assert!(
            cached(&server, &sha).is_empty(),
            "a refused upload left its compiled form"
        );
        // The same kind of component, small enough, is refused for what it is instead.
        let (status, body) =
            upload(&server, "policy", component_with_imported_resources(2, 2)).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("wrong_world")),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn uploads_take_either_binary_media_type_and_up_to_32_mib_by_default() {
    let server = Server::start(Backend::Sqlite).await;
    let fixture = std::fs::read(pixgate_e2e::guest_wasm("pixgate_fixture_renamed")).unwrap();
    let r = server
        .client
        .post(format!("{}/components/policy", server.admin))
        .bearer_auth(&server.admin_token)
        .header("Content-Type", "application/octet-stream")
        .body(fixture)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
    // 20 MB is judged as a component (a componentize-py component weighs about 18 MB) ...
    let (status, body) = upload(&server, "policy", vec![0u8; 20 << 20]).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("invalid_component")),
        "{body}"
    );
    // ... and past 32 MiB it is too large.
    let (status, body) = upload(&server, "policy", vec![0u8; (32 << 20) + 1]).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (413, Some("component_too_large")),
        "{body}"
    );
}

/// Kill switch settings that fire after a few failing calls.
async fn sensitive_kill_switch(server: &Server, store: &str) {
    let (status, body) = server
        .admin(
            reqwest::Method::PUT,
            &format!("/stores/{store}/kill-switch"),
            Some(json!({"errorRatePercent": 50, "windowSeconds": 60, "minCalls": 3})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

/// Charges that break both broken fixtures (`loop`: the misbehaving one runs out of fuel; an
/// odd amount: the flaky one traps) until one is answered 200 by the bundled policy.
async fn charge_until_served(servers: &[&Server], key: &str, store: &str, tag: &str) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut failures = 0;
    for i in 0u32.. {
        let server = servers[i as usize % servers.len()];
        let amount = f64::from(1001 + 2 * i) / 100.0;
        let (status, body) = server
            .charge(key, &format!("{tag}-{i}"), &charge(store, "loop", amount))
            .await;
        match status {
            503 => failures += 1,
            200 => {
                assert_eq!(body["data"]["routing"]["policy"], "d0-first", "{body}");
                return failures;
            }
            other => panic!("{other} {body}"),
        }
        assert!(
            Instant::now() < deadline,
            "the store never reached a version that works"
        );
    }
    unreachable!()
}

/// The store's kill-switch entries, oldest first: (version it went to, version it removed).
async fn kill_switch_history(server: &Server, store: &str) -> (String, Vec<(String, String)>) {
    let (_, state) = server
        .admin_get(&format!("/stores/{store}/components"))
        .await;
    let state = &state["data"];
    let mut kills: Vec<(String, String)> = state["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["action"] == "kill_switch" && h["step"] == "policy")
        .map(|h| {
            (
                h["version"].as_str().unwrap().to_owned(),
                h["previousVersion"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    kills.reverse();
    (
        state["steps"]["policy"]["active"]
            .as_str()
            .unwrap()
            .to_owned(),
        kills,
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn the_kill_switch_never_hands_a_store_back_to_a_version_it_removed() {
    for backend in backends() {
        let server = Server::start_with(backend, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
        sensitive_kill_switch(&server, "demo-store").await;
        let traps = upload_guest(&server, "policy", "pixgate_fixture_flaky").await;
        let runs_out_of_fuel = upload_guest(&server, "policy", "pixgate_fixture_misbehave").await;
        activate(&server, "demo-store", "policy", &traps).await;
        activate(&server, "demo-store", "policy", &runs_out_of_fuel).await;

        let failures = charge_until_served(&[&server], &server.demo_key, "demo-store", "k").await;
        assert!(failures >= 6, "{failures}");
        let (active, kills) = kill_switch_history(&server, "demo-store").await;
        assert_eq!(active, "bundled", "{backend:?}");
        // Fuel first, back to the trapping version (no switch had removed it), then that one,
        // to bundled: never back to the version removed first.
        assert_eq!(
            kills,
            [
                (traps.clone(), runs_out_of_fuel.clone()),
                ("bundled".to_owned(), traps.clone())
            ],
            "{backend:?}"
        );
        // And it stays there: the same charges now succeed, and nothing more is switched.
        for i in 0..5 {
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &format!("after-{i}"),
                    &charge("demo-store", "loop", 10.01),
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }
        assert_eq!(kill_switch_history(&server, "demo-store").await.1.len(), 2);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn instances_whose_kill_switches_fire_together_end_on_bundled_once() {
    if !backends().contains(&Backend::Postgres) {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    let url = fresh_postgres_database().await;
    let start = || {
        Server::launch(Options {
            database_url: Some(url.clone()),
            env: [
                (
                    "PIXGATE_MASTER_KEY",
                    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
                ),
                ("PIXGATE_ADMIN_TOKEN", "pxa_test_token_kill_switch"),
                ("PIXGATE_RATE_LIMIT_PER_SECOND", "0"),
            ]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
            data_dir: None,
        })
    };
    let (a, b) = (start(), start());
    let key = a.merchant_with_store("acme", "acme-web", "SHADOW").await;
    sensitive_kill_switch(&a, "acme-web").await;
    let traps = upload_guest(&a, "policy", "pixgate_fixture_flaky").await;
    let runs_out_of_fuel = upload_guest(&a, "policy", "pixgate_fixture_misbehave").await;
    activate(&a, "acme-web", "policy", &traps).await;
    activate(&a, "acme-web", "policy", &runs_out_of_fuel).await;
    // Both instances see the activation (their store caches live a second).
    tokio::time::sleep(Duration::from_millis(1500)).await;

    // Both serve the failing charges at once, so both switches fire on each version.
    let (ab, ba) = ([&a, &b], [&b, &a]);
    let (fa, fb) = tokio::join!(
        charge_until_served(&ab, &key, "acme-web", "x"),
        charge_until_served(&ba, &key, "acme-web", "y"),
    );
    assert!(fa + fb >= 6, "{fa} {fb}");
    let (active, kills) = kill_switch_history(&a, "acme-web").await;
    assert_eq!(active, "bundled");
    assert_eq!(
        kills,
        [
            (traps.clone(), runs_out_of_fuel.clone()),
            ("bundled".to_owned(), traps.clone())
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_version_recorded_traces_name_stays_until_they_expire_and_rollback_skips_deleted_ones() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let charged = upload_guest(&server, "policy", "pixgate_fixture_renamed").await;
        let never_charged = upload_guest(&server, "policy", "pixgate_fixture_misbehave").await;
        let last = upload_guest(&server, "policy", "pixgate_fixture_flaky").await;
        activate(&server, "demo-store", "policy", &charged).await;
        let (status, body) = server
            .charge(
                &server.demo_key,
                "on-charged",
                &charge("demo-store", "o", 10.0),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        activate(&server, "demo-store", "policy", &never_charged).await;
        activate(&server, "demo-store", "policy", &last).await;

        // Just replaced: a charge that took it a moment ago may still be committing.
        let (status, body) = delete_version(&server, "policy", &never_charged).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (409, Some("component_in_use")),
            "{body}"
        );
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("last few seconds"),
            "{body}"
        );
        // Then it goes: no recorded charge names it. Its compiled form goes with it.
        assert!(!cached(&server, &never_charged).is_empty());
        delete_once_unused(&server, "policy", &never_charged).await;
        assert!(cached(&server, &never_charged).is_empty());
        // The version a recorded charge ran stays: replay needs its bytes.
        let (status, body) = delete_version(&server, "policy", &charged).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (409, Some("component_in_use")),
            "{backend:?} {body}"
        );
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("demo-store") && message.contains("recorded traces name it until"),
            "{message}"
        );
        let report = replay(&server, json!({"store": "demo-store", "components": {}})).await;
        assert_eq!(report["replayed"], 1, "{report}");
        assert_eq!(report["changed"], 0, "{report}");

        // The rollback target was deleted: the rollback goes to the latest earlier version
        // that still exists.
        let (status, body) = rollback(&server, "demo-store", "policy").await;
        assert_eq!(status, 200, "{body}");
        let state = &body["data"];
        assert_eq!(
            state["steps"]["policy"]["active"],
            charged.as_str(),
            "{state}"
        );
        assert_eq!(state["history"][0]["action"], "rollback");
        assert_eq!(state["history"][0]["previousVersion"], last.as_str());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn with_trace_retention_past_a_version_can_be_deleted() {
    let server = Server::start_with(Backend::Sqlite, &[("PIXGATE_TRACE_RETENTION", "2s")]).await;
    let charged = upload_guest(&server, "policy", "pixgate_fixture_renamed").await;
    activate(&server, "demo-store", "policy", &charged).await;
    let (status, _) = server
        .charge(&server.demo_key, "c", &charge("demo-store", "o", 10.0))
        .await;
    assert_eq!(status, 200);
    let (status, _) = rollback(&server, "demo-store", "policy").await;
    assert_eq!(status, 200);
    // The trace outlives the retention: nothing needs the version any more.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, body) = delete_version(&server, "policy", &charged).await;
        if status == 200 {
            break;
        }
        assert_eq!(status, 409, "{body}");
        assert!(Instant::now() < deadline, "{body}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn evaluate_shows_the_steps_that_ran_and_the_one_that_stopped() {
    let server = Server::start(Backend::Sqlite).await;
    let misbehave = upload_guest(&server, "policy", "pixgate_fixture_misbehave").await;
    for (reference, outcome, code) in [
        ("panic", "failed", "trapped"),
        ("step-error", "refused", "fixture_refused"),
    ] {
        let mut body = charge("demo-store", reference, 10.0);
        body.as_object_mut().unwrap().remove("store");
        let (status, eval) = server
            .admin_post(
                "/evaluate",
                json!({"store": "demo-store", "charge": body, "components": {"policy": misbehave}}),
            )
            .await;
        assert_eq!(status, 200, "{eval}");
        let eval = &eval["data"];
        assert_eq!(eval["outcome"]["status"], outcome, "{eval}");
        let stopped = &eval["trace"]["stopped"];
        assert_eq!(stopped["step"], "policy", "{eval}");
        assert_eq!(stopped["code"], code, "{eval}");
        assert_eq!(stopped["component"], misbehave.as_str());
        assert_eq!(stopped["input"]["charge"]["reference"], reference);
        assert!(eval["trace"].get("provider").is_none(), "{eval}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_candidate_that_fails_counts_as_an_error_not_as_a_change() {
    let server = Server::start(Backend::Sqlite).await;
    let misbehave = upload_guest(&server, "policy", "pixgate_fixture_misbehave").await;
    // One charge the candidate fails on, one it refuses (a business answer: a change).
    for (i, reference) in ["panic", "step-error"].iter().enumerate() {
        let (status, body) = server
            .charge(
                &server.demo_key,
                &format!("c{i}"),
                &charge("demo-store", reference, 10.0),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let report = replay(
        &server,
        json!({"store": "demo-store", "components": {"policy": misbehave}}),
    )
    .await;
    assert_eq!(report["replayed"], 2, "{report}");
    assert_eq!(report["errors"], 1, "{report}");
    assert_eq!(report["errorsByKind"]["trapped"], 1, "{report}");
    assert_eq!(report["changed"], 1, "{report}");
    assert_eq!(report["changesByKind"]["refusal"], 1, "{report}");

    let (status, body) = server
        .admin(
            reqwest::Method::PUT,
            "/stores/demo-store/components/policy/candidate",
            Some(json!({"version": misbehave})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = server
        .charge(&server.demo_key, "c3", &charge("demo-store", "panic", 10.0))
        .await;
    assert_eq!(status, 200);
    let deadline = Instant::now() + Duration::from_secs(10);
    let shadow = loop {
        let (_, shadow) = server
            .admin_get("/stores/demo-store/components/policy/shadow")
            .await;
        if shadow["data"]["charges"] == 1 {
            break shadow["data"].clone();
        }
        assert!(Instant::now() < deadline, "{shadow}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(shadow["errors"], 1, "{shadow}");
    assert_eq!(shadow["changed"], 0, "{shadow}");
    assert_eq!(shadow["changesByKind"]["refusal"], 0, "{shadow}");
    // Over time: one young candidate, one minute's bucket holding its one compared charge.
    assert_eq!(shadow["bucketSeconds"], 60, "{shadow}");
    let series = shadow["series"].as_array().unwrap();
    assert_eq!(series.len(), 1, "{shadow}");
    assert_eq!(
        (
            &series[0]["charges"],
            &series[0]["errors"],
            &series[0]["changed"]
        ),
        (&json!(1), &json!(1), &json!(0)),
        "{shadow}"
    );
    assert!(
        series[0]["at"].as_str().unwrap().ends_with(":00.000Z"),
        "{shadow}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replay_whose_until_is_before_its_since_is_refused() {
    let server = Server::start(Backend::Sqlite).await;
    let (status, body) = server
        .admin_post(
            "/replays",
            json!({"store": "demo-store", "components": {},
                   "since": "2026-11-02T00:00:00Z", "until": "2026-11-01T00:00:00Z"}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("invalid_replay")),
        "{body}"
    );
    assert_eq!(body["error"]["field"], "until", "{body}");
}
