//! Per-version budgets end to end (issue 21): a version's fuel and memory set within the
//! operator's maxima, shown with the version and in every step's trace, enforced with the same
//! named errors as the defaults, refused over the maxima; and on PostgreSQL reaching every
//! instance within seconds. Against the real `pixgate serve` on SQLite and (when
//! `PIXGATE_TEST_DATABASE_URL` is set) PostgreSQL.

use std::time::{Duration, Instant};

use pixgate_e2e::components::{activate, charge, upload_guest};
use pixgate_e2e::server::{Backend, Server, backends, two_instances_on_postgres};
use serde_json::{Value, json};

const DEFAULT_FUEL: u64 = 11_000_000;
const DEFAULT_MEMORY: u64 = 16 << 20;
const MAX_FUEL: u64 = 20_000_000;
const MAX_MEMORY: u64 = 32 << 20;

fn maxima() -> [(&'static str, String); 2] {
    [
        ("PIXGATE_COMPONENT_MAX_FUEL", MAX_FUEL.to_string()),
        ("PIXGATE_COMPONENT_MAX_MEMORY_BYTES", MAX_MEMORY.to_string()),
    ]
}

async fn set_budget(server: &Server, step: &str, version: &str, body: Value) -> (u16, Value) {
    server
        .admin(
            reqwest::Method::PATCH,
            &format!("/components/{step}/{version}"),
            Some(body),
        )
        .await
}

/// The version's entry in `GET /components/{step}`.
async fn listed(server: &Server, step: &str, version: &str) -> Value {
    let (status, body) = server.admin_get(&format!("/components/{step}")).await;
    assert_eq!(status, 200, "{body}");
    body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["version"] == version)
        .cloned()
        .unwrap_or_else(|| panic!("{version} not listed: {body}"))
}

/// `/evaluate` of a charge on demo-store with `provider` as its provider step.
async fn evaluate(server: &Server, provider: &str) -> Value {
    let mut body = charge("demo-store", "order-1", 129.9);
    body.as_object_mut().unwrap().remove("store");
    let (status, eval) = server
        .admin_post(
            "/evaluate",
            json!({"store": "demo-store", "charge": body, "components": {"provider": provider}}),
        )
        .await;
    assert_eq!(status, 200, "{eval}");
    eval["data"].clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_versions_budget_is_set_within_the_maxima_shown_and_enforced() {
    for backend in backends() {
        let env = maxima();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let server = Server::start_with(backend, &env).await;
        // A std component built for wasm32-wasip2, as an author's would be.
        let version = upload_guest(&server, "provider", "pixgate_fixture_costliest_first").await;
        let view = listed(&server, "provider", &version).await;
        assert_eq!(
            view["budget"],
            json!({"fuel": DEFAULT_FUEL, "memoryBytes": DEFAULT_MEMORY, "custom": false}),
            "{backend:?} {view}"
        );

        // With the defaults: decides, and the trace records the budget beside the fuel used.
        let eval = evaluate(&server, &version).await;
        assert_eq!(eval["outcome"]["status"], "resolved", "{eval}");
        let provider = &eval["trace"]["provider"];
        assert_eq!(
            provider["budget"],
            json!({"fuel": DEFAULT_FUEL, "memoryBytes": DEFAULT_MEMORY}),
            "{provider}"
        );
        let used = provider["fuelUsed"].as_u64().unwrap();
        assert!(used > 1, "{provider}");

        // Half the fuel it needs: the same named error as the default budget's.
        let (status, body) =
            set_budget(&server, "provider", &version, json!({"fuel": used / 2})).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["data"]["budget"],
            json!({"fuel": used / 2, "memoryBytes": DEFAULT_MEMORY, "custom": true}),
            "{body}"
        );
        assert_eq!(
            listed(&server, "provider", &version).await["budget"],
            body["data"]["budget"]
        );
        let eval = evaluate(&server, &version).await;
        assert_eq!(eval["outcome"]["status"], "failed", "{eval}");
        assert_eq!(eval["outcome"]["code"], "fuel_exhausted", "{eval}");
        assert_eq!(eval["trace"]["stopped"]["step"], "provider", "{eval}");
        assert!(
            eval["outcome"]["message"]
                .as_str()
                .unwrap()
                .contains(&(used / 2).to_string()),
            "the error names the version's budget: {eval}"
        );

        // A charge of a store running it fails the same way (no silent fallback).
        activate(&server, "demo-store", "provider", &version).await;
        let (status, body) = server
            .charge(
                &server.demo_key,
                "starved",
                &charge("demo-store", "order", 10.0),
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (503, Some("routing_unavailable")),
            "{body}"
        );

        // Raised: the charge goes through, and its stored trace shows the budget it ran with.
        let raised = used * 2;
        let (status, body) =
            set_budget(&server, "provider", &version, json!({"fuel": raised})).await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = server
            .charge(
                &server.demo_key,
                "starved",
                &charge("demo-store", "order", 10.0),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let id = body["data"]["paymentIntentId"].as_str().unwrap();
        let (status, trace) = server
            .admin_get(&format!("/payment-intents/{id}/trace"))
            .await;
        assert_eq!(status, 200, "{trace}");
        assert_eq!(trace["data"]["provider"]["component"], version.as_str());
        assert_eq!(
            trace["data"]["provider"]["budget"],
            json!({"fuel": raised, "memoryBytes": DEFAULT_MEMORY}),
            "{trace}"
        );
        // The other steps run the bundled components with the defaults.
        assert_eq!(
            trace["data"]["policy"]["budget"],
            json!({"fuel": DEFAULT_FUEL, "memoryBytes": DEFAULT_MEMORY}),
            "{trace}"
        );

        // Memory: one page is less than the component starts with.
        let (status, body) =
            set_budget(&server, "provider", &version, json!({"memoryBytes": 65536})).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["data"]["budget"],
            json!({"fuel": raised, "memoryBytes": 65536, "custom": true}),
            "absent fields keep their value: {body}"
        );
        let eval = evaluate(&server, &version).await;
        assert_eq!(eval["outcome"]["code"], "memory_limit_exceeded", "{eval}");
        let (status, body) = set_budget(
            &server,
            "provider",
            &version,
            json!({"memoryBytes": MAX_MEMORY}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let eval = evaluate(&server, &version).await;
        assert_eq!(eval["outcome"]["status"], "resolved", "{eval}");
        assert_eq!(
            eval["trace"]["provider"]["budget"],
            json!({"fuel": raised, "memoryBytes": MAX_MEMORY})
        );

        // Over the operator's maxima: 422 naming the field; under the minimum: 400.
        for (patch, status, code, field) in [
            (
                json!({"fuel": MAX_FUEL + 1}),
                422,
                "budget_over_maximum",
                "fuel",
            ),
            (
                json!({"memoryBytes": MAX_MEMORY + 1}),
                422,
                "budget_over_maximum",
                "memoryBytes",
            ),
            // A whole number written with a fraction and 17 digits is still the whole number
            // (serde_json's float_roundtrip: without it this read as ...222.5, 400).
            (
                json!({"memoryBytes": 3_765_136_658_775_222.0_f64}),
                422,
                "budget_over_maximum",
                "memoryBytes",
            ),
            (json!({"fuel": 0}), 400, "invalid_budget", "fuel"),
            (
                json!({"memoryBytes": 65535}),
                400,
                "invalid_budget",
                "memoryBytes",
            ),
        ] {
            let (got, body) = set_budget(&server, "provider", &version, patch.clone()).await;
            assert_eq!(
                (
                    got,
                    body["error"]["code"].as_str(),
                    body["error"]["field"].as_str()
                ),
                (status, Some(code), Some(field)),
                "{patch}: {body}"
            );
        }
        let (status, body) =
            set_budget(&server, "provider", &"ab".repeat(32), json!({"fuel": 5})).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("component_not_found"))
        );
        // Nothing refused changed anything.
        assert_eq!(
            listed(&server, "provider", &version).await["budget"],
            json!({"fuel": raised, "memoryBytes": MAX_MEMORY, "custom": true})
        );

        // Each change is in the audit trail with the budget before and after.
        let (status, trail) = server
            .admin_get("/audit-events?action=component.budget_set")
            .await;
        assert_eq!(status, 200, "{trail}");
        let events = trail["data"].as_array().unwrap();
        assert_eq!(events.len(), 4, "{trail}");
        assert_eq!(events[0]["target"], format!("component/provider/{version}"));
        assert_eq!(events[0]["before"]["budget"]["memoryBytes"], 65536);
        assert_eq!(events[0]["after"]["budget"]["memoryBytes"], MAX_MEMORY);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_instances_on_postgres_apply_a_budget_within_seconds() {
    if !backends().contains(&Backend::Postgres) {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    let (a, b) = two_instances_on_postgres().await;
    let version = upload_guest(&a, "provider", "pixgate_fixture_costliest_first").await;
    // B loads the version (and caches it with its budget) before the change.
    let eval = evaluate(&b, &version).await;
    assert_eq!(eval["outcome"]["status"], "resolved", "{eval}");
    let (status, body) = set_budget(&a, "provider", &version, json!({"fuel": 1000})).await;
    assert_eq!(status, 200, "{body}");
    let changed = Instant::now();
    loop {
        let eval = evaluate(&b, &version).await;
        if eval["outcome"]["code"] == "fuel_exhausted" {
            break;
        }
        assert!(
            changed.elapsed() < Duration::from_secs(5),
            "instance B still runs the old budget after 5 s: {eval}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("converged after {:?}", changed.elapsed());
}
