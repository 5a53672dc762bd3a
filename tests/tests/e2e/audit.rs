//! The audit trail of the admin API (DESIGN.md section 13), on each backend the run covers:
//! every admin write appends exactly one event naming its operator, action and target, in the
//! same transaction as the change (a write that fails appends none), no secret ever lands in
//! it, and `GET /audit-events` filters and pages it.

use pixgate_e2e::components::upload_guest;
use pixgate_e2e::server::{Server, backends};
use reqwest::Method;
use serde_json::{Value, json};

const CLIENT_SECRET: &str = "audit-client-secret-5f0e9c";
const ROTATED_SECRET: &str = "audit-rotated-secret-77ab1d";

/// One admin call with `token`; the status and the JSON body.
async fn call(
    server: &Server,
    token: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    server.admin_as(token, method, path, body.as_ref()).await
}

/// The whole trail, newest first, read page by page with `after`.
async fn trail(server: &Server) -> Vec<Value> {
    let mut events = Vec::new();
    let mut after = String::new();
    loop {
        let (status, page) = server
            .admin_get(&format!("/audit-events?limit=100{after}"))
            .await;
        assert_eq!(status, 200, "{page}");
        let page = page["data"].as_array().unwrap().clone();
        let last = page
            .last()
            .map(|e| e["eventId"].as_str().unwrap().to_owned());
        let full = page.len() == 100;
        events.extend(page);
        match last {
            Some(id) if full => after = format!("&after={id}"),
            _ => return events,
        }
    }
}

/// A new operator of `role`: its id and token.
async fn operator(server: &Server, name: &str, role: &str) -> (String, String) {
    let (status, body) = server
        .admin_post("/operators", json!({"name": name, "role": role}))
        .await;
    assert_eq!(status, 201, "{body}");
    (
        body["data"]["id"].as_str().unwrap().to_owned(),
        body["data"]["token"].as_str().unwrap().to_owned(),
    )
}

/// What one write is and what it must record.
struct Write {
    who: usize,
    method: Method,
    path: String,
    body: Option<Value>,
    status: u16,
    action: &'static str,
    target: String,
}

fn write(
    who: usize,
    method: Method,
    path: &str,
    body: Option<Value>,
    status: u16,
    action: &'static str,
    target: &str,
) -> Write {
    Write {
        who,
        method,
        path: path.to_owned(),
        body,
        status,
        action,
        target: target.to_owned(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn each_admin_write_appends_one_event_with_its_operator_action_and_target() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let (ops_id, ops_token) = operator(&server, "Olga (payment ops)", "operator").await;
        let (tester_id, tester_token) = operator(&server, "Tomás (tester)", "tester").await;
        let people = [
            (
                "bootstrap".to_owned(),
                server.admin_token.clone(),
                "bootstrap admin token",
            ),
            (ops_id.clone(), ops_token.clone(), "Olga (payment ops)"),
            (tester_id.clone(), tester_token.clone(), "Tomás (tester)"),
        ];
        let version = upload_guest(&server, "provider", "pixgate_fixture_costliest_first").await;
        let mut secrets: Vec<String> = vec![CLIENT_SECRET.into(), ROTATED_SECRET.into()];
        let (admin, ops, tester) = (0, 1, 2);
        let writes = vec![
            write(
                admin,
                Method::POST,
                "/merchants",
                Some(json!({"code": "acme", "name": "ACME"})),
                201,
                "merchant.create",
                "merchant/acme",
            ),
            write(
                ops,
                Method::POST,
                "/stores",
                Some(
                    json!({"code": "acme-web", "name": "Web", "merchant": "acme", "mode": "SHADOW"}),
                ),
                201,
                "store.create",
                "store/acme-web",
            ),
            write(
                ops,
                Method::PATCH,
                "/stores/acme-web",
                Some(json!({"name": "Web shop"})),
                200,
                "store.update",
                "store/acme-web",
            ),
            write(
                ops,
                Method::PUT,
                "/stores/acme-web/gateways",
                Some(json!({"gateways": ["sandbox-a-d0"]})),
                200,
                "store.gateways_set",
                "store/acme-web",
            ),
            write(
                admin,
                Method::POST,
                "/providers",
                Some(
                    json!({"code": "psp-audit", "name": "PSP Audit", "apiBaseUrl": "http://127.0.0.1:9/api/v2", "clientId": "pixgate", "clientSecret": CLIENT_SECRET, "pixKey": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906"}),
                ),
                201,
                "provider.create",
                "provider/psp-audit",
            ),
            write(
                ops,
                Method::POST,
                "/gateways",
                Some(
                    json!({"providerCode": "psp-audit", "gatewayAlias": "audit-d1", "releaseClass": "D1", "feeTerms": {"mdrBps": 90}}),
                ),
                201,
                "gateway.create",
                "gateway/audit-d1",
            ),
            write(
                ops,
                Method::PATCH,
                "/gateways/audit-d1",
                Some(json!({"active": false})),
                200,
                "gateway.update",
                "gateway/audit-d1",
            ),
            write(
                admin,
                Method::PATCH,
                "/providers/psp-audit",
                Some(json!({"clientSecret": ROTATED_SECRET, "active": false})),
                200,
                "provider.update",
                "provider/psp-audit",
            ),
            write(
                ops,
                Method::PUT,
                "/stores/acme-web/kill-switch",
                Some(json!({"errorRatePercent": 40})),
                200,
                "kill_switch.update",
                "store/acme-web",
            ),
            write(
                ops,
                Method::PUT,
                "/stores/acme-web/components/provider",
                Some(json!({"version": version})),
                200,
                "component.activate",
                "store/acme-web",
            ),
            write(
                ops,
                Method::POST,
                "/stores/acme-web/components/provider/rollback",
                None,
                200,
                "component.rollback",
                "store/acme-web",
            ),
            write(
                tester,
                Method::PUT,
                "/stores/acme-web/components/provider/candidate",
                Some(json!({"version": version})),
                200,
                "component.candidate_set",
                "store/acme-web",
            ),
            write(
                tester,
                Method::DELETE,
                "/stores/acme-web/components/provider/candidate",
                None,
                200,
                "component.candidate_clear",
                "store/acme-web",
            ),
        ];
        for (i, w) in writes.iter().enumerate() {
            let before = trail(&server).await.len();
            let (id, token, name) = &people[w.who];
            let (status, answer) =
                call(&server, token, w.method.clone(), &w.path, w.body.clone()).await;
            assert_eq!(status, w.status, "{} {}: {answer}", w.method, w.path);
            let events = trail(&server).await;
            assert_eq!(
                events.len(),
                before + 1,
                "{} {} appended {}",
                w.method,
                w.path,
                events.len() - before
            );
            let event = &events[0];
            assert_eq!(event["action"], w.action, "{i}: {event}");
            assert_eq!(event["target"], w.target.as_str(), "{i}: {event}");
            assert_eq!(
                event["operator"],
                json!({"id": id, "name": name}),
                "{i}: {event}"
            );
            assert!(
                event["eventId"].is_string() && event["at"].is_string(),
                "{event}"
            );
            if w.method == Method::POST && w.status == 201 {
                assert!(
                    event.get("before").is_none() && event["after"].is_object(),
                    "{event}"
                );
            } else {
                assert!(
                    event["before"].is_object() && event["after"].is_object(),
                    "{event}"
                );
                assert_ne!(event["before"], event["after"], "{event}");
            }
        }
        // An update records the resource as it was and as it became.
        let events = trail(&server).await;
        let update = events
            .iter()
            .find(|e| e["action"] == "store.update")
            .unwrap();
        assert_eq!(update["before"]["name"], "Web");
        assert_eq!(update["after"]["name"], "Web shop");
        let activation = events
            .iter()
            .find(|e| e["action"] == "component.activate")
            .unwrap();
        assert_eq!(activation["before"]["active"], "bundled");
        assert_eq!(activation["after"]["active"], version.as_str());

        // Keys and tokens: the secret is in the answer, never in the trail.
        let (status, key) = server
            .admin_post(
                "/api-keys",
                json!({"merchant": "acme", "stores": ["acme-web"]}),
            )
            .await;
        assert_eq!(status, 201, "{key}");
        let key_id = key["data"]["keyId"].as_str().unwrap().to_owned();
        secrets.push(key["data"]["apiKey"].as_str().unwrap().to_owned());
        let (status, _) = server
            .admin_post(&format!("/api-keys/{key_id}/revoke"), json!({}))
            .await;
        assert_eq!(status, 200);
        let (new_id, new_token) = operator(&server, "Nina", "viewer").await;
        secrets.push(new_token);
        let (status, _) = server
            .admin_post(&format!("/operators/{new_id}/revoke"), json!({}))
            .await;
        assert_eq!(status, 200);
        let events = trail(&server).await;
        let newest: Vec<(&str, &str)> = events[..4]
            .iter()
            .map(|e| (e["action"].as_str().unwrap(), e["target"].as_str().unwrap()))
            .collect();
        let (key_target, operator_target) =
            (format!("api-key/{key_id}"), format!("operator/{new_id}"));
        assert_eq!(
            newest,
            [
                ("operator.revoke", operator_target.as_str()),
                ("operator.create", operator_target.as_str()),
                ("api_key.revoke", key_target.as_str()),
                ("api_key.create", key_target.as_str()),
            ]
        );
        let text = serde_json::to_string(&events).unwrap();
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()),
                "a secret is in the trail: {secret}"
            );
        }
        assert!(!text.contains("clientSecret\""), "{text}");
        assert!(
            !text.contains(&server.admin_token),
            "the bootstrap token is in the trail"
        );

        // Dry runs persist nothing and record nothing.
        let before = events.len();
        let (status, _) = call(
            &server,
            &tester_token,
            Method::POST,
            "/replays",
            Some(json!({"store": "acme-web", "components": {"provider": version}})),
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(trail(&server).await.len(), before);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_write_that_fails_appends_nothing() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let (_, viewer) = operator(&server, "Vera", "viewer").await;
        let version = upload_guest(&server, "provider", "pixgate_fixture_costliest_first").await;
        let (status, _) = server
            .admin(
                Method::PUT,
                "/stores/demo-store/components/provider",
                Some(json!({"version": version})),
            )
            .await;
        assert_eq!(status, 200);
        let before = trail(&server).await;
        let token = server.admin_token.clone();
        for (token, method, path, body, status) in [
            (
                &token,
                Method::POST,
                "/merchants",
                json!({"code": "demo", "name": "Again"}),
                409,
            ),
            (
                &token,
                Method::POST,
                "/stores",
                json!({"code": "s", "name": "S", "merchant": "demo", "mode": "NEITHER"}),
                400,
            ),
            (
                &token,
                Method::PATCH,
                "/stores/nowhere",
                json!({"name": "N"}),
                404,
            ),
            (
                &token,
                Method::PUT,
                "/stores/demo-store/kill-switch",
                json!({"errorRatePercent": 0}),
                400,
            ),
            // The version is active: deleting it is refused.
            (
                &token,
                Method::DELETE,
                &format!("/components/provider/{version}"),
                Value::Null,
                409,
            ),
            (
                &token,
                Method::POST,
                "/stores/demo-store/components/economics/rollback",
                Value::Null,
                409,
            ),
            (
                &token,
                Method::POST,
                &format!("/payment-intents/{}/resolve", uuid::Uuid::new_v4()),
                json!({"action": "accept", "reason": "r"}),
                404,
            ),
            (
                &token,
                Method::POST,
                "/operators",
                json!({"name": "Vera", "role": "admin"}),
                409,
            ),
            (
                &viewer,
                Method::POST,
                "/merchants",
                json!({"code": "v", "name": "V"}),
                403,
            ),
        ] {
            let body = (!body.is_null()).then_some(body);
            let (got, answer) = call(&server, token, method.clone(), path, body).await;
            assert_eq!(got, status, "{method} {path}: {answer}");
            assert_eq!(
                trail(&server).await,
                before,
                "{method} {path} appended an event"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_trail_is_filtered_and_paged_newest_first() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let (ops_id, ops_token) = operator(&server, "Olga", "operator").await;
        let start = server.admin_get("/audit-events?limit=1").await.1["data"][0]["at"]
            .as_str()
            .unwrap()
            .to_owned();
        for name in ["One", "Two", "Three"] {
            let (status, _) = call(
                &server,
                &ops_token,
                Method::PATCH,
                "/stores/demo-store",
                Some(json!({"name": name})),
            )
            .await;
            assert_eq!(status, 200);
        }
        let (status, _) = server
            .admin_post("/merchants", json!({"code": "acme", "name": "ACME"}))
            .await;
        assert_eq!(status, 201);
        let get = |query: String| {
            let server = &server;
            async move {
                let (status, page) = server.admin_get(&format!("/audit-events?{query}")).await;
                assert_eq!(status, 200, "{query}: {page}");
                page["data"].as_array().unwrap().clone()
            }
        };
        let names = |events: &[Value]| -> Vec<String> {
            events
                .iter()
                .map(|e| e["after"]["name"].as_str().unwrap_or("-").to_owned())
                .collect()
        };

        let mine = get(format!("operator={ops_id}")).await;
        assert_eq!(names(&mine), ["Three", "Two", "One"]);
        let first = get(format!("operator={ops_id}&limit=2")).await;
        assert_eq!(names(&first), ["Three", "Two"]);
        let last = first[1]["eventId"].as_str().unwrap();
        let rest = get(format!("operator={ops_id}&limit=2&after={last}")).await;
        assert_eq!(names(&rest), ["One"]);

        let updates = get("action=store.update&target=store/demo-store".into()).await;
        assert_eq!(updates.len(), 3);
        let merchants = get("action=merchant.create".into()).await;
        assert_eq!(merchants.len(), 1);
        assert_eq!(merchants[0]["target"], "merchant/acme");
        assert_eq!(merchants[0]["operator"]["id"], "bootstrap");
        assert!(get("target=store/nowhere".into()).await.is_empty());

        // [since, until): the window of the updates and the merchant, then none after it.
        let newest = merchants[0]["at"].as_str().unwrap().to_owned();
        let since = get(format!("since={start}")).await;
        assert!(since.len() >= 4, "{since:?}");
        let until = get(format!("until={start}&operator={ops_id}")).await;
        assert!(until.is_empty(), "{until:?}");
        let at_newest = get(format!("since={newest}&until={newest}")).await;
        assert!(at_newest.is_empty(), "half-open: {at_newest:?}");

        for (query, status, code) in [
            ("limit=101", 400, "invalid_limit"),
            ("after=nope", 400, "invalid_after"),
            ("operator=Olga", 400, "invalid_operator"),
            ("action=store.explode", 400, "invalid_action"),
            ("target=", 400, "invalid_target"),
            ("since=yesterday", 400, "invalid_since"),
            ("until=2026-11-25", 400, "invalid_until"),
            (
                "action=store.update&action=store.create",
                400,
                "invalid_action",
            ),
            ("who=me", 400, "unknown_field"),
        ] {
            let (got, refused) = server.admin_get(&format!("/audit-events?{query}")).await;
            assert_eq!(
                (got, refused["error"]["code"].as_str()),
                (status, Some(code)),
                "{query}: {refused}"
            );
        }
        let (status, refused) = server
            .admin_get(&format!("/audit-events?after={}", uuid::Uuid::new_v4()))
            .await;
        assert_eq!(
            (status, refused["error"]["code"].as_str()),
            (404, Some("audit_event_not_found"))
        );
        // A viewer reads the trail.
        let (_, viewer) = operator(&server, "Vera", "viewer").await;
        let (status, _) = call(&server, &viewer, Method::GET, "/audit-events", None).await;
        assert_eq!(status, 200);
    }
}
