//! Canaries end to end (DESIGN.md section 14): a share of a store's charges through a
//! version, assigned by the Idempotency-Key, measured against the active version, ended by
//! itself at its threshold, promoted or ended by an operator; on SQLite and PostgreSQL, and on
//! two instances sharing PostgreSQL.

use std::process::Command;
use std::time::{Duration, Instant};

use futures::StreamExt;
use pixgate_e2e::components::{charge, delete_version, replay, upload_guest};
use pixgate_e2e::pixgate_bin;
use pixgate_e2e::server::{Backend, Server, backends, two_instances_on_postgres};
use reqwest::Method;
use serde_json::{Value, json};

const CANARY: &str = "/stores/demo-store/components/policy/canary";

/// The renamed policy names its routing policy `v2-d0-first`; the bundled one `d0-first`.
const CANARY_POLICY: &str = "v2-d0-first";

/// `n` charges of the demo store with keys `{prefix}-{i}`, 16 at a time: (key, status, body).
async fn charges(
    server: &Server,
    prefix: &str,
    n: usize,
    amount: f64,
) -> Vec<(String, u16, Value)> {
    futures::stream::iter(0..n)
        .map(|i| async move {
            let key = format!("{prefix}-{i}");
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &key,
                    &charge("demo-store", "order", amount),
                )
                .await;
            (key, status, body)
        })
        .buffer_unordered(16)
        .collect()
        .await
}

/// Polls the store's policy canary until `done` holds (10 s at most); its last view.
async fn canary_until(server: &Server, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, body) = server.admin_get(CANARY).await;
        assert_eq!(status, 200, "{body}");
        if done(&body["data"]) || Instant::now() > deadline {
            return body["data"].clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The arm `POST /evaluate` gives a charge of the demo store with this key for its policy
/// canary.
async fn evaluated_arm(server: &Server, key: &str) -> Option<String> {
    evaluated_arm_in(server, "demo-store", key).await
}

async fn evaluated_arm_in(server: &Server, store: &str, key: &str) -> Option<String> {
    let mut body = json!({"store": store, "idempotencyKey": key});
    let mut c = charge(store, "order", 10.0);
    c.as_object_mut().unwrap().remove("store");
    body["charge"] = c;
    let (status, answer) = server.admin_post("/evaluate", body).await;
    assert_eq!(status, 200, "{answer}");
    answer["data"]["canaries"][0]["arm"]
        .as_str()
        .map(str::to_owned)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_canary_takes_its_share_by_key_is_measured_replays_exactly_and_is_promoted() {
    for backend in backends() {
        let server = Server::start_with(backend, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
        let renamed = upload_guest(&server, "policy", "pixgate_fixture_renamed").await;

        // What a canary refuses.
        let (status, body) = server.admin_get(CANARY).await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (404, &json!("canary_not_found"))
        );
        for (percent, field) in [(0.0, "percent"), (100.5, "percent")] {
            let (status, body) = server
                .admin(
                    Method::PUT,
                    CANARY,
                    Some(json!({"version": renamed, "percent": percent})),
                )
                .await;
            assert_eq!(status, 400, "{body}");
            assert_eq!(body["error"]["code"], "invalid_canary");
            assert_eq!(body["error"]["field"], field);
        }
        let (status, body) = server
            .admin(
                Method::PUT,
                "/stores/demo-store/components/provider/canary",
                Some(json!({"version": renamed, "percent": 30})),
            )
            .await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (404, &json!("component_not_found")),
            "{body}"
        );
        let (status, body) = server
            .admin(
                Method::PUT,
                CANARY,
                Some(json!({"version": "bundled", "percent": 30})),
            )
            .await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (409, &json!("canary_is_active")),
            "{body}"
        );

        let (status, started) = server
            .admin(
                Method::PUT,
                CANARY,
                Some(json!({"version": renamed, "percent": 30})),
            )
            .await;
        assert_eq!(status, 200, "{started}");
        let started = &started["data"];
        assert_eq!(started["running"], true);
        assert_eq!(started["percent"], 30.0);
        assert_eq!(started["active"], "bundled");
        assert_eq!(started["windowSeconds"], 300);
        assert_eq!(started["minCalls"], 20);
        assert_eq!(started["maxErrorRatePercent"], 5);
        assert_eq!(started["maxChangedRatePercent"], Value::Null);
        // A version a canary runs cannot be deleted.
        let (status, body) = delete_version(&server, "policy", &renamed).await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (409, &json!("component_in_use")),
            "{body}"
        );
        let (_, state) = server.admin_get("/stores/demo-store/components").await;
        assert_eq!(
            state["data"]["steps"]["policy"]["canary"]["version"],
            renamed.as_str()
        );

        // 1,000 keys: the canary's share is within the binomial bound (n = 1000, p = 0.3:
        // mean 300, standard deviation 14.5; five deviations either side).
        let done = charges(&server, "share", 1000, 10.0).await;
        let mut canary_keys = Vec::new();
        for (key, status, body) in &done {
            assert_eq!(*status, 200, "{body}");
            if body["data"]["routing"]["policy"] == CANARY_POLICY {
                canary_keys.push(key.clone());
            }
        }
        let taken = canary_keys.len();
        assert!(
            (228..=372).contains(&taken),
            "{taken} of 1000 charges took the canary"
        );

        // The arm is in the trace, and it is what evaluate gives that key.
        let (key, _, body) = done.iter().find(|(k, _, _)| *k == canary_keys[0]).unwrap();
        let id = body["data"]["paymentIntentId"].as_str().unwrap();
        let (_, trace) = server
            .admin_get(&format!("/payment-intents/{id}/trace"))
            .await;
        let arm = &trace["data"]["canaries"][0];
        assert_eq!(arm["arm"], "canary", "{trace}");
        assert_eq!(arm["step"], "policy");
        assert_eq!(arm["version"], renamed.as_str());
        assert!(arm["bucket"].as_u64().unwrap() < 3000, "{arm}");
        assert_eq!(trace["data"]["policy"]["component"], renamed.as_str());
        assert_eq!(evaluated_arm(&server, key).await.as_deref(), Some("canary"));
        for (key, _, body) in done.iter().take(40) {
            let expected = if body["data"]["routing"]["policy"] == CANARY_POLICY {
                "canary"
            } else {
                "active"
            };
            assert_eq!(
                evaluated_arm(&server, key).await.as_deref(),
                Some(expected),
                "{key}"
            );
        }
        // A retry of a canary charge is its replay.
        let (status, again) = server
            .charge(&server.demo_key, key, &charge("demo-store", "order", 10.0))
            .await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again["data"]["idempotentReplay"], true);
        assert_eq!(
            again["data"]["paymentIntentId"],
            body["data"]["paymentIntentId"]
        );

        // Each canary charge was compared with the active version off the request path: the
        // renamed policy decides otherwise on every one (its policy name).
        let view = canary_until(&server, |v| v["total"]["calls"] == taken).await;
        assert_eq!(view["total"]["calls"], taken, "{view}");
        assert_eq!(view["total"]["errors"], 0, "{view}");
        assert_eq!(view["total"]["changed"], taken, "{view}");
        assert_eq!(view["total"]["changedRatePercent"], 100.0, "{view}");
        let share = view["sharePercent"].as_f64().unwrap();
        assert!((share - taken as f64 / 10.0).abs() < 0.01, "{view}");
        assert_eq!(view["running"], true, "no limit on changes: {view}");
        let metrics = server.metrics().await;
        assert!(
            metrics.contains(&format!(
                "pixgate_canary_calls_total{{store=\"demo-store\",step=\"policy\",result=\"changed\"}} {taken}"
            )),
            "{metrics}"
        );

        // Replaying the recorded charges with their own versions changes nothing: each
        // canary charge re-runs the canary's version, the others the active one.
        let report = replay(&server, json!({"store": "demo-store", "components": {}})).await;
        assert_eq!(report["replayed"], 1000, "{report}");
        assert_eq!(report["changed"], 0, "{report}");

        // Promote: the canary's version is active, the canary ended as promoted, and both are
        // in the store's history and the audit trail.
        let (status, promoted) = server
            .admin_post(&format!("{CANARY}/promote"), json!({}))
            .await;
        assert_eq!(status, 200, "{promoted}");
        let state = &promoted["data"];
        assert_eq!(
            state["steps"]["policy"]["active"],
            renamed.as_str(),
            "{state}"
        );
        assert_eq!(state["steps"]["policy"]["canary"], Value::Null, "{state}");
        let actions: Vec<&str> = state["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["action"].as_str().unwrap())
            .collect();
        assert!(actions.contains(&"canary_start"), "{actions:?}");
        assert!(actions.contains(&"canary_end"), "{actions:?}");
        assert!(actions.contains(&"activate"), "{actions:?}");
        let (_, ended) = server.admin_get(CANARY).await;
        assert_eq!(ended["data"]["running"], false);
        assert_eq!(ended["data"]["endedBy"], "promoted", "{ended}");
        let (status, body) = server.admin(Method::DELETE, CANARY, None).await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (404, &json!("canary_not_found"))
        );
        let (_, audit) = server
            .admin_get("/audit-events?action=component.canary_start")
            .await;
        assert_eq!(audit["data"].as_array().unwrap().len(), 1, "{audit}");
        let after = charges(&server, "after", 20, 10.0).await;
        assert!(
            after
                .iter()
                .all(|(_, s, b)| *s == 200 && b["data"]["routing"]["policy"] == CANARY_POLICY),
            "every charge runs the promoted version"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failing_canary_answers_503_until_it_ends_by_itself_while_the_active_arm_succeeds() {
    for backend in backends() {
        let server = Server::start_with(backend, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
        // The flaky policy fails on odd centavos: every charge below is odd.
        let flaky = upload_guest(&server, "policy", "pixgate_fixture_flaky").await;
        let (status, body) = server
            .admin(
                Method::PUT,
                CANARY,
                Some(json!({"version": flaky, "percent": 30, "minCalls": 5,
                            "maxErrorRatePercent": 50, "windowSeconds": 60})),
            )
            .await;
        assert_eq!(status, 200, "{body}");

        let (mut failed, mut succeeded) = (0, 0);
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut i = 0;
        let view = loop {
            let key = format!("odd-{i}");
            i += 1;
            let arm = evaluated_arm(&server, &key).await;
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &key,
                    &charge("demo-store", "order", 10.01),
                )
                .await;
            match (arm.as_deref(), status) {
                (Some("canary"), 503) => {
                    assert_eq!(body["error"]["code"], "routing_unavailable", "{body}");
                    failed += 1;
                }
                // The active arm keeps succeeding; once the canary ended, so does every charge.
                (Some("active") | None, 200) => {
                    assert_eq!(body["data"]["routing"]["policy"], "d0-first", "{body}");
                    succeeded += 1;
                }
                // The canary ended itself between the evaluate and the charge (its last failure
                // is judged off the request path): the charge ran the active version.
                (Some("canary"), 200) => {
                    assert_eq!(body["data"]["routing"]["policy"], "d0-first", "{body}");
                    let (_, view) = server.admin_get(CANARY).await;
                    assert_eq!(view["data"]["running"], false, "{key}: {view}");
                }
                other => panic!("{key}: {other:?} {body}"),
            }
            let (_, view) = server.admin_get(CANARY).await;
            if view["data"]["running"] == false {
                break view["data"].clone();
            }
            assert!(Instant::now() < deadline, "the canary did not end: {view}");
        };
        assert!(failed >= 5, "{failed} failed");
        assert!(succeeded > 0, "{succeeded} succeeded");
        assert_eq!(view["endedBy"], "error_rate", "{view}");
        let reason = view["endedReason"].as_str().unwrap();
        assert!(reason.contains("calls failed"), "{reason}");
        assert!(reason.contains("threshold of 50%"), "{reason}");
        // The store's history says why; the store's own version never changed.
        let (_, state) = server.admin_get("/stores/demo-store/components").await;
        let state = &state["data"];
        assert_eq!(state["steps"]["policy"]["active"], "bundled");
        let end = state["history"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["action"] == "canary_end")
            .unwrap_or_else(|| panic!("{state}"));
        assert!(
            end["reason"].as_str().unwrap().starts_with("error_rate: "),
            "{end}"
        );
        // After the end, every charge succeeds (this instance cleared its store cache).
        for (key, status, body) in charges(&server, "after-end", 40, 10.01).await {
            assert_eq!(status, 200, "{key}: {body}");
        }
        let metrics = server.metrics().await;
        assert!(
            metrics.contains(
                "pixgate_canary_ends_total{store=\"demo-store\",step=\"policy\",result=\"error_rate\"} 1"
            ),
            "{metrics}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_operator_ends_a_canary_from_the_cli_and_a_new_canary_replaces_a_running_one() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let renamed = upload_guest(&server, "policy", "pixgate_fixture_renamed").await;
        let flaky = upload_guest(&server, "policy", "pixgate_fixture_flaky").await;
        let cli = |args: &[&str]| {
            let out = Command::new(pixgate_bin())
                .args(args)
                .args(["--admin-url", &server.admin_root()])
                .env("PIXGATE_ADMIN_TOKEN", &server.admin_token)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout).unwrap()
        };
        let shown = cli(&[
            "policy",
            "canary",
            "start",
            "--store",
            "demo-store",
            "--step",
            "policy",
            &renamed,
            "--percent",
            "5",
            "--min-calls",
            "50",
        ]);
        assert!(
            shown.contains("canary of policy on store demo-store: running"),
            "{shown}"
        );
        assert!(shown.contains("5% asked"), "{shown}");
        // A second start replaces the first.
        let shown = cli(&[
            "policy",
            "canary",
            "start",
            "--store",
            "demo-store",
            "--step",
            "policy",
            &flaky,
            "--percent",
            "12.5",
            "--json",
        ]);
        let view: Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(view["version"], flaky.as_str());
        assert_eq!(view["percent"], 12.5);
        // The store's status names the running canary under its steps.
        let status = cli(&["policy", "status", "--store", "demo-store"]);
        assert!(
            status.contains("canary of policy on store demo-store: running"),
            "{status}"
        );
        assert!(status.contains(&format!("version  {flaky}")), "{status}");
        let (_, state) = server.admin_get("/stores/demo-store/components").await;
        let ends: Vec<&Value> = state["data"]["history"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h["action"] == "canary_end")
            .collect();
        assert_eq!(ends.len(), 1, "{state}");
        assert!(
            ends[0]["reason"]
                .as_str()
                .unwrap()
                .starts_with("replaced: "),
            "{state}"
        );

        let shown = cli(&[
            "policy",
            "canary",
            "end",
            "--store",
            "demo-store",
            "--step",
            "policy",
        ]);
        assert!(shown.contains("(ended)"), "{shown}");
        assert!(shown.contains("ended by operator `bootstrap`"), "{shown}");
        let shown = cli(&[
            "policy",
            "canary",
            "status",
            "--store",
            "demo-store",
            "--step",
            "policy",
        ]);
        assert!(!shown.contains("running"), "{shown}");
        let status = cli(&["policy", "status", "--store", "demo-store"]);
        assert!(!status.contains("canary of policy on store"), "{status}");
        let (_, audit) = server
            .admin_get("/audit-events?action=component.canary_end")
            .await;
        assert_eq!(audit["data"].as_array().unwrap().len(), 1, "{audit}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_instances_on_postgres_apply_the_same_canary_and_give_each_key_the_same_arm() {
    if !backends().contains(&Backend::Postgres) {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    let (a, b) = two_instances_on_postgres().await;
    a.merchant_with_store("acme", "acme-web", "SHADOW").await;
    // Both serve the store, and cache it, first.
    assert_eq!(evaluated_arm_in(&b, "acme-web", "warm").await, None);
    let renamed = upload_guest(&a, "policy", "pixgate_fixture_renamed").await;
    let (status, body) = a
        .admin(
            Method::PUT,
            "/stores/acme-web/components/policy/canary",
            Some(json!({"version": renamed, "percent": 30})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let started = Instant::now();
    while evaluated_arm_in(&b, "acme-web", "probe").await.is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "instance B does not apply the canary after 5 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!(
        "instance B applied the canary after {:?}",
        started.elapsed()
    );
    let mut canary = 0;
    for i in 0..100 {
        let key = format!("order-{i}");
        let on_a = evaluated_arm_in(&a, "acme-web", &key).await;
        assert_eq!(on_a, evaluated_arm_in(&b, "acme-web", &key).await, "{key}");
        canary += usize::from(on_a.as_deref() == Some("canary"));
    }
    assert!((10..=50).contains(&canary), "{canary} of 100");
}

/// Starts a 30 % canary of the renamed policy on `store`; its version.
async fn start_canary_on(server: &Server, store: &str) -> String {
    let renamed = upload_guest(server, "policy", "pixgate_fixture_renamed").await;
    let (status, body) = server
        .admin(
            Method::PUT,
            &format!("/stores/{store}/components/policy/canary"),
            Some(json!({"version": renamed, "percent": 30})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    renamed
}

/// `n` promotes of `store`'s policy canary at once, spread over `servers`: each answer's
/// status and error code.
async fn promote_at_once(servers: &[&Server], store: &str, n: usize) -> Vec<(u16, Value)> {
    let path = format!("/stores/{store}/components/policy/canary/promote");
    futures::future::join_all((0..n).map(|i| {
        let server = servers[i % servers.len()];
        let path = path.clone();
        async move {
            let (status, body) = server.admin_post(&path, json!({})).await;
            (status, body["error"]["code"].clone())
        }
    }))
    .await
}

/// One promote won: one 200, the others 404 `canary_not_found`; one activation in the
/// store's history and one `component.activate` in the audit trail.
async fn assert_one_promote_won(server: &Server, store: &str, answers: &[(u16, Value)]) {
    let won = answers.iter().filter(|(s, _)| *s == 200).count();
    assert_eq!(won, 1, "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|(s, code)| *s == 200 || (*s == 404 && code == "canary_not_found")),
        "{answers:?}"
    );
    let (status, state) = server
        .admin_get(&format!("/stores/{store}/components"))
        .await;
    assert_eq!(status, 200, "{state}");
    let activations = state["data"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["action"] == "activate")
        .count();
    assert_eq!(activations, 1, "{state}");
    let (_, audit) = server
        .admin_get(&format!(
            "/audit-events?action=component.activate&target=store/{store}"
        ))
        .await;
    assert_eq!(audit["data"].as_array().unwrap().len(), 1, "{audit}");
}

#[tokio::test(flavor = "multi_thread")]
async fn of_eight_promotes_at_once_one_activates_and_is_audited_and_the_others_find_no_canary() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let renamed = start_canary_on(&server, "demo-store").await;
        let answers = promote_at_once(&[&server], "demo-store", 8).await;
        assert_one_promote_won(&server, "demo-store", &answers).await;
        let (_, ended) = server.admin_get(CANARY).await;
        assert_eq!(ended["data"]["endedBy"], "promoted", "{ended}");
        assert_eq!(ended["data"]["version"], renamed.as_str(), "{ended}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn of_promotes_at_once_on_two_instances_sharing_postgres_one_wins() {
    if !backends().contains(&Backend::Postgres) {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    let (a, b) = two_instances_on_postgres().await;
    a.merchant_with_store("acme", "acme-web", "SHADOW").await;
    start_canary_on(&a, "acme-web").await;
    let answers = promote_at_once(&[&a, &b], "acme-web", 8).await;
    assert_one_promote_won(&a, "acme-web", &answers).await;
}
