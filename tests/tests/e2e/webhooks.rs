//! Signed webhooks end to end: the real `pixgate serve`, a real HTTPS receiver with a test CA,
//! payment events written through the host's outbox, on SQLite and PostgreSQL.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use pixgate_e2e::receiver::{Received, Receiver, TestCa};
use pixgate_e2e::server::{Backend, Options, Server, backends, fresh_postgres_database};
use pixgate_e2e::webhooks::{pending_intent, settle, write_transaction};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

/// The receiver's CA trusted, loopback allowed (the receiver lives there), quick polling and
/// a shrunken retry schedule.
fn env(ca: &TestCa, schedule: &str) -> Vec<(String, String)> {
    vec![
        (
            "PIXGATE_WEBHOOK_CA_FILE".into(),
            ca.ca_file().display().to_string(),
        ),
        (
            "PIXGATE_WEBHOOK_ALLOW_CIDRS".into(),
            "127.0.0.0/8, ::1/128".into(),
        ),
        ("PIXGATE_WEBHOOK_POLL_INTERVAL".into(), "50ms".into()),
        ("PIXGATE_WEBHOOK_RETRY_SCHEDULE".into(), schedule.into()),
        ("PIXGATE_WEBHOOK_TIMEOUT".into(), "3s".into()),
    ]
}

async fn start(backend: Backend, env: Vec<(String, String)>) -> Server {
    let database_url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(fresh_postgres_database().await),
    };
    Server::launch(Options {
        database_url,
        env,
        data_dir: None,
    })
}

/// A merchant with a store and a key; returns the key.
async fn merchant(server: &Server, code: &str) -> String {
    server
        .merchant_with_store(code, &format!("{code}-store"), "LIVE")
        .await
}

async fn endpoint(
    server: &Server,
    key: &str,
    url: &str,
    events: Option<&[&str]>,
) -> (String, String) {
    let (s, b) = server.create_endpoint(key, url, events).await;
    assert_eq!(s, 201, "{b}");
    (
        b["data"]["endpointId"].as_str().unwrap().to_owned(),
        b["data"]["signingSecret"].as_str().unwrap().to_owned(),
    )
}

fn verify(secret: &str, r: &Received) -> pixgate_webhook::Verified {
    pixgate_webhook::verify(secret, &r.headers, &r.body, SystemTime::now())
        .unwrap_or_else(|e| panic!("delivery does not verify: {e}"))
}

async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = std::time::Instant::now() + WAIT;
    while !check().await {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn endpoints_are_created_listed_and_revoked_as_the_contract_says() {
    let ca = TestCa::new();
    for backend in backends() {
        let server = start(backend, env(&ca, "1s")).await;
        let key = merchant(&server, "shop").await;
        let other = merchant(&server, "rival").await;

        let (s, b) = server
            .create_endpoint(&key, "https://Shop.Example.com:443/hooks/pix", None)
            .await;
        assert_eq!(s, 201, "{b}");
        let data = &b["data"];
        let id = data["endpointId"].as_str().unwrap();
        assert!(uuid::Uuid::parse_str(id).is_ok());
        assert_eq!(data["endpointUrl"], "https://shop.example.com/hooks/pix");
        assert_eq!(data["status"], "ACTIVE");
        assert_eq!(
            data["events"],
            json!([
                "payment.pending",
                "payment.succeeded",
                "payment.failed",
                "payment.canceled"
            ])
        );
        assert_eq!(data["signingAlgorithm"], "HMAC-SHA256");
        assert_eq!(data["signatureHeader"], "X-Service-Signature");
        assert_eq!(data["timestampHeader"], "X-Service-Timestamp");
        let secret = data["signingSecret"].as_str().unwrap();
        use base64::Engine;
        let raw = base64::engine::general_purpose::STANDARD
            .decode(secret.strip_prefix("whsec_").expect("whsec_ prefix"))
            .unwrap();
        assert_eq!(raw.len(), 32);

        // The secret is never shown again, nor stored in the clear.
        let listed = server.listed_endpoint(&key, id).await;
        assert!(listed.get("signingSecret").is_none(), "{listed}");
        assert_eq!(listed["failureCount"], 0);
        assert_eq!(listed["lastDelivery"], Value::Null);
        let db = server.open_db().await;
        let sealed: String =
            sqlx::query_scalar("select secret_sealed from webhook_endpoints where id = $1")
                .bind(id)
                .fetch_one(&db.read)
                .await
                .unwrap();
        assert!(!sealed.contains(secret) && !sealed.contains(&secret[6..]));

        // The same URL spelled differently is a duplicate; another merchant may use it.
        let (s, b) = server
            .create_endpoint(&key, "https://shop.example.com/hooks/pix", None)
            .await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (409, Some("duplicate_endpoint")),
            "{b}"
        );
        let (s, _) = server
            .create_endpoint(&other, "https://shop.example.com/hooks/pix", None)
            .await;
        assert_eq!(s, 201);

        for (body, code) in [
            (
                json!({"endpointUrl": "http://shop.example.com/x"}),
                "endpoint_url_not_https",
            ),
            (json!({"endpointUrl": "not a url"}), "invalid_endpoint_url"),
            (
                json!({"endpointUrl": "https://u:p@shop.example.com/"}),
                "invalid_endpoint_url",
            ),
            (json!({}), "missing_field"),
            (
                json!({"endpointUrl": "https://a.example/", "events": ["payment.refunded"]}),
                "invalid_events",
            ),
            (
                json!({"endpointUrl": "https://a.example/", "events": []}),
                "invalid_events",
            ),
            (
                json!({"endpointUrl": "https://a.example/", "name": "n".repeat(121)}),
                "invalid_name",
            ),
            (
                json!({"endpointUrl": "https://a.example/", "secret": "mine"}),
                "unknown_field",
            ),
            // What the URL parser would percent-encode is refused as sent: the document's
            // pattern is the rule, and the stored URL is what the merchant sent.
            (
                json!({"endpointUrl": "https://a.example/pedidos/ação"}),
                "invalid_endpoint_url",
            ),
            (
                json!({"endpointUrl": "https://a.example/?q='1'"}),
                "invalid_endpoint_url",
            ),
            (
                json!({"endpointUrl": "https://[2001:db8::1::2]/hook"}),
                "invalid_endpoint_url",
            ),
        ] {
            let (s, b) = server
                .merchant(
                    reqwest::Method::POST,
                    "/webhook-endpoints",
                    &key,
                    Some(body.clone()),
                )
                .await;
            assert_eq!(
                (s, b["error"]["code"].as_str()),
                (400, Some(code)),
                "{body} -> {b}"
            );
        }

        // Another merchant's endpoint does not exist for this key.
        for action in ["test", "revoke", "enable"] {
            let (s, b) = server.endpoint_action(&other, id, action).await;
            assert_eq!(
                (s, b["error"]["code"].as_str()),
                (404, Some("webhook_endpoint_not_found"))
            );
        }
        let (s, _) = server
            .merchant(
                reqwest::Method::GET,
                &format!("/webhook-endpoints/{id}/deliveries"),
                &other,
                None,
            )
            .await;
        assert_eq!(s, 404);
        let (s, _) = server.endpoint_action(&key, "not-a-uuid", "revoke").await;
        assert_eq!(s, 404);

        // webhooks:manage guards every route.
        let (s, b) = server
            .admin_post("/api-keys", json!({"merchant": "shop", "stores": ["shop-store"], "scopes": ["payments:create"]}))
            .await;
        assert_eq!(s, 201, "{b}");
        let payments_only = b["data"]["apiKey"].as_str().unwrap();
        let (s, b) = server
            .merchant(
                reqwest::Method::GET,
                "/webhook-endpoints",
                payments_only,
                None,
            )
            .await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (403, Some("insufficient_scope"))
        );
        let (s, _) = server
            .create_endpoint(payments_only, "https://b.example/", None)
            .await;
        assert_eq!(s, 403);

        // Revoke: 200, REVOKED, idempotent; the URL is free again; the test route refuses.
        let (s, b) = server.endpoint_action(&key, id, "revoke").await;
        assert_eq!(
            (s, b["data"]["status"].as_str()),
            (200, Some("REVOKED")),
            "{b}"
        );
        let (s, _) = server.endpoint_action(&key, id, "revoke").await;
        assert_eq!(s, 200);
        let (s, b) = server.endpoint_action(&key, id, "test").await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (409, Some("endpoint_revoked"))
        );
        let (s, _) = server
            .create_endpoint(&key, "https://shop.example.com/hooks/pix", None)
            .await;
        assert_eq!(s, 201);
    }
}

/// Issue 17: punycode and `--` host names, a Unicode name (stored in ASCII), the scheme in any
/// case, port 0. Creation only: these hosts are public names, and nothing is ever sent to them
/// (the merchant has no charge and no test is asked for).
#[tokio::test(flavor = "multi_thread")]
async fn endpoint_urls_take_idna_host_names_and_any_scheme_case() {
    for backend in backends() {
        let server = start(backend, Vec::new()).await;
        let key = merchant(&server, "acai").await;
        for (sent, stored) in [
            (
                "https://xn--aa-4iaz.com.br/webhooks",
                "https://xn--aa-4iaz.com.br/webhooks",
            ),
            (
                "https://loja--pix.example/hooks",
                "https://loja--pix.example/hooks",
            ),
            (
                "HTTPS://Shop.Example.com:8443/pix",
                "https://shop.example.com:8443/pix",
            ),
        ] {
            let (s, b) = server.create_endpoint(&key, sent, None).await;
            assert_eq!(s, 201, "{sent}: {b}");
            assert_eq!(b["data"]["endpointUrl"], stored, "{sent}");
            let listed = server
                .listed_endpoint(&key, b["data"]["endpointId"].as_str().unwrap())
                .await;
            assert_eq!(listed["endpointUrl"], stored, "{sent}");
        }
        // The same host in Unicode is the same endpoint: stored in ASCII, so a duplicate.
        let (s, b) = server
            .create_endpoint(&key, "https://açaí.com.br/webhooks", None)
            .await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (409, Some("duplicate_endpoint")),
            "{b}"
        );
        let (s, b) = server
            .create_endpoint(&key, "https://AÇAÍ.com.br/outro", None)
            .await;
        assert_eq!(s, 201, "{b}");
        assert_eq!(b["data"]["endpointUrl"], "https://xn--aa-4iaz.com.br/outro");

        for refused in [
            "https://shop.example.com:0/pix",
            "https://shop.example.com:00/pix",
            "https://xn--zz.example/",
            "https://-shop.example/",
            "https://１２７.０.０.１/",
        ] {
            let (s, b) = server.create_endpoint(&key, refused, None).await;
            assert_eq!(
                (s, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
                (400, Some("invalid_endpoint_url"), Some("endpointUrl")),
                "{refused}: {b}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_openapi_document_describes_every_webhook_route() {
    let ca = TestCa::new();
    let server = start(Backend::Sqlite, env(&ca, "1s")).await;
    let doc: Value = server
        .client
        .get(format!("{}/openapi.json", server.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let paths = &doc["paths"];
    for (path, method) in [
        ("/webhook-endpoints", "post"),
        ("/webhook-endpoints", "get"),
        ("/webhook-endpoints/{endpointId}/test", "post"),
        ("/webhook-endpoints/{endpointId}/revoke", "post"),
        ("/webhook-endpoints/{endpointId}/enable", "post"),
        ("/webhook-endpoints/{endpointId}/deliveries", "get"),
        (
            "/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/resend",
            "post",
        ),
    ] {
        assert!(paths[path][method].is_object(), "{method} {path} missing");
    }
    assert!(paths["/webhook-endpoints"]["post"]["responses"]["409"].is_object());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_test_route_delivers_a_signed_event_that_the_crate_python_and_node_verify() {
    let ca = TestCa::new();
    for backend in backends() {
        let receiver = Receiver::start(&ca).await;
        // A proxy in the environment must not be used for webhooks.
        let mut env = env(&ca, "1s");
        env.push(("HTTPS_PROXY".into(), "http://127.0.0.1:9".into()));
        env.push(("ALL_PROXY".into(), "http://127.0.0.1:9".into()));
        let server = start(backend, env).await;
        let key = merchant(&server, "shop").await;
        let (id, secret) = endpoint(&server, &key, &receiver.url("/hooks"), None).await;

        let (s, b) = server.endpoint_action(&key, &id, "test").await;
        assert_eq!(s, 200, "{b}");
        let result = &b["data"];
        assert_eq!(result["status"], "DELIVERED", "{b}");
        assert_eq!(result["httpStatus"], 200);
        assert_eq!(result["error"], Value::Null);
        assert!(result["durationMs"].as_i64().unwrap() >= 0);

        let got = receiver.wait_for(1, WAIT).await;
        let r = &got[0];
        assert_eq!(r.path, "/hooks");
        let v = verify(&secret, r);
        assert_eq!(v.event.as_deref(), Some("webhook.test"));
        assert_eq!(v.delivery_id.as_deref(), result["deliveryId"].as_str());
        assert_eq!(r.header("content-type"), Some("application/json"));
        let body = r.json();
        assert_eq!(body["id"], result["deliveryId"]);
        assert_eq!(body["type"], "webhook.test");
        assert_eq!(body["data"], json!({"endpointId": id, "test": true}));
        assert!(body["createdAt"].as_str().unwrap().ends_with('Z'));

        // A payment event too, through the outbox.
        let db = server.open_db().await;
        let intent = pending_intent(&db, "shop-store", "order-1").await;
        let got = receiver.wait_for(2, WAIT).await;
        verify(&secret, &got[1]);
        assert_eq!(got[1].json()["data"]["paymentIntentId"], intent);

        // The book's Python and Node verifiers accept these real deliveries and reject a
        // tampered body, a wrong secret, a stale timestamp and an absurdly long one.
        for language in ["python", "node"] {
            let verdicts = run_documented_verifier(language, &secret, &got);
            assert_eq!(
                verdicts,
                json!({"genuine": [true, true], "tampered": false, "wrongSecret": false, "stale": false, "huge": false}),
                "{language}"
            );
        }

        let listed = server.listed_endpoint(&key, &id).await;
        assert_eq!(listed["lastDelivery"]["status"], "DELIVERED", "{listed}");
        assert_eq!(listed["lastDelivery"]["httpStatus"], 200);
    }
}

/// Runs the verifier in `language` that the merchant guide's "Verifying signatures" page shows
/// over `deliveries`, plus four forgeries.
fn run_documented_verifier(language: &str, secret: &str, deliveries: &[Received]) -> Value {
    use base64::Engine;
    let fence = if language == "node" {
        "javascript"
    } else {
        language
    };
    let code = pixgate_e2e::docs::fenced_block(
        "docs/src/merchant-guide/verifying-signatures.md",
        &format!("verify-{language}"),
        fence,
    );
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let as_input = |r: &Received| {
        let headers: HashMap<&str, &str> = r
            .headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        json!({"headers": headers, "body": b64(&r.body)})
    };
    let genuine: Vec<Value> = deliveries.iter().map(as_input).collect();
    let mut tampered = as_input(&deliveries[0]);
    tampered["body"] = json!(b64(b"{\"id\":\"forged\"}"));
    let mut stale = as_input(&deliveries[0]);
    // Re-signed correctly, but 10 minutes old.
    let old = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        - 600;
    stale["headers"]["x-service-timestamp"] = json!(old.to_string());
    stale["headers"]["x-service-signature"] =
        json!(pixgate_webhook::sign(secret, old, &deliveries[0].body));
    // A timestamp of 5,000 digits: Python's int() raises on more than 4,300.
    let mut huge = as_input(&deliveries[0]);
    huge["headers"]["x-service-timestamp"] = json!("1".repeat(5000));
    let input = json!({
        "secret": secret,
        "genuine": genuine,
        "tampered": tampered,
        "stale": stale,
        "huge": huge,
    });
    let (program, driver) = match language {
        "python" => (
            "python3",
            r#"
import base64, json, sys
cases = json.load(sys.stdin)
secret = cases["secret"]
def check(c, s=secret):
    return verify(s, c["headers"], base64.b64decode(c["body"]))
print(json.dumps({
    "genuine": [check(c) for c in cases["genuine"]],
    "tampered": check(cases["tampered"]),
    "wrongSecret": check(cases["genuine"][0], "whsec_wrong"),
    "stale": check(cases["stale"]),
    "huge": check(cases["huge"]),
}))
"#,
        ),
        _ => (
            "node",
            r#"
const cases = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const check = (c, s = cases.secret) => verify(s, c.headers, Buffer.from(c.body, "base64"));
console.log(JSON.stringify({
  genuine: cases.genuine.map((c) => check(c)),
  tampered: check(cases.tampered),
  wrongSecret: check(cases.genuine[0], "whsec_wrong"),
  stale: check(cases.stale),
  huge: check(cases.huge),
}));
"#,
        ),
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir
        .path()
        .join(if language == "python" { "v.py" } else { "v.js" });
    std::fs::write(&file, format!("{code}\n{driver}")).unwrap();
    let mut child = std::process::Command::new(program)
        .arg(&file)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} is needed for this test: {e}"));
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{program} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn payment_events_reach_subscribed_endpoints_through_the_outbox() {
    let ca = TestCa::new();
    for backend in backends() {
        let all = Receiver::start(&ca).await;
        let only_succeeded = Receiver::start(&ca).await;
        let server = start(backend, env(&ca, "1s")).await;
        let key = merchant(&server, "shop").await;
        let (all_id, secret) = endpoint(&server, &key, &all.url("/all"), None).await;
        let (_, secret2) = endpoint(
            &server,
            &key,
            &only_succeeded.url("/ok"),
            Some(&["payment.succeeded"]),
        )
        .await;
        // A revoked endpoint gets nothing.
        let silent = Receiver::start(&ca).await;
        let (revoked, _) = endpoint(&server, &key, &silent.url("/gone"), None).await;
        server.endpoint_action(&key, &revoked, "revoke").await;

        let db = server.open_db().await;
        let intent = pending_intent(&db, "shop-store", "order-77").await;
        let recorded = settle(&db, &intent, "SUCCEEDED").await;
        assert_eq!(recorded.delivery_ids.len(), 2);
        let failed = pending_intent(&db, "shop-store", "order-78").await;
        settle(&db, &failed, "FAILED").await;

        let got = all.wait_for(4, WAIT).await;
        let mut by_type: HashMap<String, Value> = HashMap::new();
        for r in &got {
            verify(&secret, r);
            let body = r.json();
            assert_eq!(body["id"], r.header("x-service-delivery").unwrap());
            assert_eq!(body["type"], r.header("x-service-event").unwrap());
            by_type.insert(
                format!(
                    "{}:{}",
                    body["type"].as_str().unwrap(),
                    body["data"]["reference"].as_str().unwrap()
                ),
                body,
            );
        }
        let succeeded = &by_type["payment.succeeded:order-77"];
        let data = &succeeded["data"];
        assert_eq!(data["paymentIntentId"], intent);
        assert_eq!(data["status"], "SUCCEEDED");
        assert_eq!(data["amount"], json!(129.9));
        assert_eq!(data["currency"], "BRL");
        assert_eq!(data["store"], json!({"code": "shop-store"}));
        assert_eq!(
            data["provider"],
            json!({"code": "sandbox-a", "paymentId": "E2E-PSP-1"})
        );
        assert!(data["completedAt"].as_str().unwrap().ends_with('Z'));
        assert_eq!(data["metadata"]["attribution"]["utm_source"], "newsletter");
        assert!(succeeded["createdAt"].is_string());
        let pending = &by_type["payment.pending:order-77"]["data"];
        assert_eq!(pending["status"], "PENDING");
        assert!(pending.get("completedAt").is_none());
        let failure = &by_type["payment.failed:order-78"]["data"];
        assert_eq!(failure["failure"]["code"], "psp_declined");
        assert!(by_type.contains_key("payment.pending:order-78"));

        let got = only_succeeded.wait_for(1, WAIT).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            only_succeeded.count(),
            1,
            "only payment.succeeded is subscribed"
        );
        verify(&secret2, &got[0]);
        assert_eq!(got[0].json()["data"]["paymentIntentId"], intent);
        assert_eq!(silent.count(), 0);

        // The delivery log pages newest first without gaps or repeats.
        let page = |before: Option<String>| {
            let server = &server;
            let key = &key;
            let all_id = &all_id;
            async move {
                let path = match before {
                    Some(b) => format!("/webhook-endpoints/{all_id}/deliveries?limit=3&before={b}"),
                    None => format!("/webhook-endpoints/{all_id}/deliveries?limit=3"),
                };
                let (s, b) = server
                    .merchant(reqwest::Method::GET, &path, key, None)
                    .await;
                assert_eq!(s, 200, "{b}");
                b["data"].as_array().unwrap().clone()
            }
        };
        let first = page(None).await;
        assert_eq!(first.len(), 3);
        let second = page(first[2]["deliveryId"].as_str().map(str::to_owned)).await;
        assert_eq!(second.len(), 1);
        let ids: std::collections::HashSet<String> = first
            .iter()
            .chain(&second)
            .map(|d| d["deliveryId"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(ids.len(), 4);
        let (s, b) = server
            .merchant(
                reqwest::Method::GET,
                &format!("/webhook-endpoints/{all_id}/deliveries?limit=0"),
                &key,
                None,
            )
            .await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (400, Some("invalid_limit"))
        );
        // `before` is a delivery id: malformed is a 400, unknown to the endpoint a 404.
        for (before, status, code) in [
            ("not-a-uuid", 400, "invalid_before"),
            (
                "0193a4f0-0000-7000-8000-000000000009",
                404,
                "webhook_delivery_not_found",
            ),
        ] {
            let (s, b) = server
                .merchant(
                    reqwest::Method::GET,
                    &format!("/webhook-endpoints/{all_id}/deliveries?before={before}"),
                    &key,
                    None,
                )
                .await;
            assert_eq!(
                (s, b["error"]["code"].as_str()),
                (status, Some(code)),
                "{b}"
            );
        }

        // A terminal intent does not move again, and a SHADOW charge emits no event.
        let mut tx = write_transaction(&db).await;
        let err = pixgate::webhooks::outbox::record_transition(
            &mut tx,
            &intent,
            pixgate::webhooks::outbox::Transition {
                to: pixgate_domain::IntentStatus::Canceled,
                provider_payment_id: None,
                failure: None,
                paid: None,
                at: 1,
            },
        )
        .await
        .unwrap_err();
        assert!(
            matches!(
                err,
                pixgate::webhooks::outbox::OutboxError::IllegalTransition { .. }
            ),
            "{err}"
        );
        drop(tx);
        let (s, b) = server
            .charge(
                &server.demo_key,
                "shadow-1",
                &pixgate_e2e::server::charge_body("demo-store"),
            )
            .await;
        assert_eq!(
            (s, b["data"]["status"].as_str()),
            (200, Some("SHADOW_ONLY")),
            "{b}"
        );
        let events: i64 = sqlx::query_scalar("select count(*) from payment_events")
            .fetch_one(&db.read)
            .await
            .unwrap();
        assert_eq!(events, 4, "the SHADOW charge added no event");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn failed_deliveries_are_retried_with_the_same_id_and_body_until_the_receiver_recovers() {
    let ca = TestCa::new();
    for backend in backends() {
        let receiver = Receiver::start(&ca).await;
        receiver.script(&[500, 503]);
        let server = start(backend, env(&ca, "300ms,300ms,300ms")).await;
        let key = merchant(&server, "shop").await;
        let (id, secret) = endpoint(
            &server,
            &key,
            &receiver.url("/hooks"),
            Some(&["payment.pending"]),
        )
        .await;
        let db = server.open_db().await;
        pending_intent(&db, "shop-store", "order-1").await;

        let got = receiver.wait_for(3, WAIT).await;
        let first = &got[0];
        for r in &got {
            verify(&secret, r);
            assert_eq!(
                r.header("x-service-delivery"),
                first.header("x-service-delivery")
            );
            assert_eq!(r.body, first.body, "every retry sends the same bytes");
        }
        // Retries wait for the schedule (300 ms, +-20 %).
        let gap = got[1].instant - got[0].instant;
        assert!(gap >= Duration::from_millis(230), "{gap:?}");

        eventually("the delivery to be recorded as delivered", || async {
            let d = server.deliveries(&key, &id).await;
            d.first().is_some_and(|d| d["status"] == "DELIVERED")
        })
        .await;
        let deliveries = server.deliveries(&key, &id).await;
        let d = &deliveries[0];
        assert_eq!(d["deliveryId"], first.header("x-service-delivery").unwrap());
        assert_eq!(d["attemptCount"], 3);
        let statuses: Vec<i64> = d["attempts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["httpStatus"].as_i64().unwrap())
            .collect();
        assert_eq!(statuses, [500, 503, 200]);
        assert_eq!(d["attempts"][0]["error"], "http_status: HTTP 500");
        let listed = server.listed_endpoint(&key, &id).await;
        assert_eq!(listed["failureCount"], 0, "a success resets the count");

        // A receiver that never recovers: the delivery is exhausted after the schedule, and
        // the failures count up.
        receiver.answer(500);
        let before = receiver.count();
        pending_intent(&db, "shop-store", "order-2").await;
        receiver.wait_for(before + 4, WAIT).await;
        eventually("the delivery to be exhausted", || async {
            let d = server.deliveries(&key, &id).await;
            d.first().is_some_and(|d| d["status"] == "EXHAUSTED")
        })
        .await;
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(
            receiver.count(),
            before + 4,
            "one attempt plus three retries, then no more"
        );
        let listed = server.listed_endpoint(&key, &id).await;
        assert_eq!(listed["failureCount"], 4);
        assert_eq!(listed["lastDelivery"]["status"], "EXHAUSTED");
        assert_eq!(listed["lastDelivery"]["error"], "http_status: HTTP 500");

        // Resend: the same delivery once more, now answered.
        receiver.answer(200);
        let exhausted = server.deliveries(&key, &id).await[0].clone();
        let delivery_id = exhausted["deliveryId"].as_str().unwrap();
        let (s, b) = server.resend(&key, &id, delivery_id).await;
        assert_eq!(
            (s, b["data"]["status"].as_str()),
            (202, Some("PENDING")),
            "{b}"
        );
        let got = receiver.wait_for(before + 5, WAIT).await;
        let last = got.last().unwrap();
        assert_eq!(last.header("x-service-delivery"), Some(delivery_id));
        assert_eq!(last.body, got[before].body);
        verify(&secret, last);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_redirect_is_a_failure_and_is_not_followed() {
    let ca = TestCa::new();
    for backend in backends() {
        let receiver = Receiver::start(&ca).await;
        receiver.answer(302);
        let server = start(backend, env(&ca, "1s")).await;
        let key = merchant(&server, "shop").await;
        let (id, _) = endpoint(&server, &key, &receiver.url("/hooks"), None).await;
        let (s, b) = server.endpoint_action(&key, &id, "test").await;
        assert_eq!(s, 200);
        assert_eq!(b["data"]["status"], "FAILED", "{b}");
        assert_eq!(b["data"]["httpStatus"], 302);
        assert_eq!(b["data"]["error"], "redirect_not_followed: HTTP 302");
        tokio::time::sleep(Duration::from_millis(300)).await;
        let got = receiver.received();
        assert_eq!(got.len(), 1, "the Location was not followed");
        assert_eq!(got[0].path, "/hooks");
        // A test does not count toward disabling the endpoint.
        let listed = server.listed_endpoint(&key, &id).await;
        assert_eq!(listed["failureCount"], 0);
        assert_eq!(listed["lastDelivery"]["status"], "FAILED");
        assert_eq!(listed["lastDelivery"]["httpStatus"], 302);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn revoking_an_endpoint_stops_its_deliveries_at_once() {
    let ca = TestCa::new();
    for backend in backends() {
        let receiver = Receiver::start(&ca).await;
        receiver.answer(500);
        let server = start(backend, env(&ca, "400ms,400ms,400ms,400ms,400ms")).await;
        let key = merchant(&server, "shop").await;
        let (id, _) = endpoint(&server, &key, &receiver.url("/hooks"), None).await;
        let db = server.open_db().await;
        pending_intent(&db, "shop-store", "order-1").await;
        receiver.wait_for(1, WAIT).await;
        let (s, _) = server.endpoint_action(&key, &id, "revoke").await;
        assert_eq!(s, 200);
        let at_revoke = receiver.count();
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(
            receiver.count(),
            at_revoke,
            "nothing was sent after the revoke"
        );
        let d = &server.deliveries(&key, &id).await[0];
        assert_eq!(d["status"], "CANCELED", "{d}");
        assert_eq!(d["lastError"], "endpoint_revoked");
        // New events are not queued for it either.
        pending_intent(&db, "shop-store", "order-2").await;
        assert_eq!(server.deliveries(&key, &id).await.len(), 1);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_killed_mid_retry_delivers_after_restart() {
    let ca = TestCa::new();
    for backend in backends() {
        let receiver = Receiver::start(&ca).await;
        receiver.script(&[500]);
        let env = env(&ca, "2s");
        let mut server = start(backend, env.clone()).await;
        let key = merchant(&server, "shop").await;
        let (id, secret) = endpoint(&server, &key, &receiver.url("/hooks"), None).await;
        let db = server.open_db().await;
        pending_intent(&db, "shop-store", "order-1").await;
        receiver.wait_for(1, WAIT).await;
        // The retry is due in about 2 s; kill the server before it.
        let data_dir = server.kill_hard();
        let database_url = (!server.database_url.is_empty()).then(|| server.database_url.clone());
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(receiver.count(), 1);

        let server = Server::launch(Options {
            database_url,
            env,
            data_dir: Some(data_dir),
        });
        let got = receiver.wait_for(2, WAIT).await;
        assert_eq!(
            got[1].header("x-service-delivery"),
            got[0].header("x-service-delivery")
        );
        assert_eq!(got[1].body, got[0].body);
        verify(&secret, &got[1]);
        eventually("the delivery to be recorded after the restart", || async {
            let d = server.deliveries(&key, &id).await;
            d.first()
                .is_some_and(|d| d["status"] == "DELIVERED" && d["attemptCount"] == 2)
        })
        .await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_servers_on_one_postgres_send_each_attempt_once() {
    if !backends().contains(&Backend::Postgres) {
        eprintln!("PIXGATE_TEST_DATABASE_URL is not set: this test needs PostgreSQL");
        return;
    }
    let ca = TestCa::new();
    let receiver = Receiver::start(&ca).await;
    let url = fresh_postgres_database().await;
    let mut env = env(&ca, "200ms");
    // Instances sharing a database share the master key that seals the signing secrets.
    env.push((
        "PIXGATE_MASTER_KEY".into(),
        "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=".into(),
    ));
    let launch = |token: Option<&str>| {
        let mut env = env.clone();
        if let Some(token) = token {
            env.push(("PIXGATE_ADMIN_TOKEN".into(), token.into()));
        }
        Server::launch(Options {
            database_url: Some(url.clone()),
            env,
            data_dir: None,
        })
    };
    let a = launch(None);
    let b = launch(Some(&a.admin_token));
    let key = merchant(&a, "shop").await;
    let (id, secret) = endpoint(
        &a,
        &key,
        &receiver.url("/hooks"),
        Some(&["payment.pending"]),
    )
    .await;
    // Every delivery fails once, then succeeds: two attempts each.
    const N: usize = 60;
    receiver.fail_first_attempt_with(500);
    let db = a.open_db().await;
    for i in 0..N {
        pending_intent(&db, "shop-store", &format!("order-{i}")).await;
    }
    let got = receiver.wait_for(2 * N, Duration::from_secs(60)).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let got_all = receiver.received();
    assert_eq!(
        got_all.len(),
        2 * N,
        "each attempt was sent once: {} requests",
        got_all.len()
    );
    let mut per_delivery: HashMap<String, usize> = HashMap::new();
    for r in &got {
        verify(&secret, r);
        *per_delivery
            .entry(r.header("x-service-delivery").unwrap().to_owned())
            .or_default() += 1;
    }
    assert_eq!(per_delivery.len(), N);
    assert!(per_delivery.values().all(|&n| n == 2), "{per_delivery:?}");
    let attempts: i64 = sqlx::query_scalar("select count(*) from webhook_attempts")
        .fetch_one(&db.read)
        .await
        .unwrap();
    assert_eq!(attempts, 2 * N as i64);
    eventually("every delivery to be recorded as delivered", || async {
        let d = a.deliveries(&key, &id).await;
        d.len() == N
            && d.iter()
                .all(|d| d["status"] == "DELIVERED" && d["attemptCount"] == 2)
    })
    .await;
    // Both instances sent, and between them each attempt once.
    let mut sent_by = Vec::new();
    for server in [&a, &b] {
        let text = server
            .client
            .get(format!("{}/metrics", server.admin_root()))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let sent: u64 = text
            .lines()
            .filter(|l| l.starts_with("pixgate_webhook_attempts_total{"))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
            .sum();
        sent_by.push(sent);
    }
    assert_eq!(sent_by.iter().sum::<u64>(), 2 * N as u64, "{sent_by:?}");
    assert!(
        sent_by.iter().all(|&n| n > 0),
        "both instances sent: {sent_by:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn every_blocked_address_class_is_refused_with_one_code_and_logged_in_detail() {
    let ca = TestCa::new();
    for backend in backends() {
        let receiver = Receiver::start(&ca).await;
        // No allow list: loopback is as forbidden as the rest.
        let env: Vec<(String, String)> = env(&ca, "1s")
            .into_iter()
            .filter(|(k, _)| k != "PIXGATE_WEBHOOK_ALLOW_CIDRS")
            .collect();
        let server = start(backend, env).await;
        let key = merchant(&server, "shop").await;
        let port = receiver.addr.port();
        for (url, class) in [
            (receiver.url("/name"), "loopback"),
            (receiver.ip_url("/ip"), "loopback"),
            (format!("https://[::1]:{port}/"), "loopback"),
            ("https://10.0.0.1/".to_owned(), "private"),
            ("https://172.16.5.4/".to_owned(), "private"),
            ("https://192.168.0.1/".to_owned(), "private"),
            ("https://100.64.0.1/".to_owned(), "cgnat"),
            (
                "https://169.254.169.254/latest/meta-data".to_owned(),
                "link_local",
            ),
            ("https://[fe80::1]/".to_owned(), "link_local"),
            ("https://224.0.0.1/".to_owned(), "multicast"),
            ("https://[ff02::1]/".to_owned(), "multicast"),
            ("https://0.0.0.0/".to_owned(), "unspecified"),
            ("https://[::]/".to_owned(), "unspecified"),
            ("https://[fd00::1]/".to_owned(), "unique_local"),
            (format!("https://[::ffff:127.0.0.1]:{port}/"), "ipv4_mapped"),
        ] {
            let (id, _) = endpoint(&server, &key, &url, None).await;
            let (s, b) = server.endpoint_action(&key, &id, "test").await;
            assert_eq!(s, 200, "{b}");
            assert_eq!(b["data"]["status"], "FAILED", "{url}: {b}");
            assert_eq!(b["data"]["httpStatus"], Value::Null);
            let error = b["data"]["error"].as_str().unwrap();
            // The merchant learns nothing of how the name resolved; the operator does.
            assert!(error.starts_with("target_refused: "), "{url}: {error}");
            assert!(
                !error.contains(class) && !error.contains("localhost"),
                "{error}"
            );
            // The server logs it before it answers; the test reads its stderr on a thread of
            // its own, which may be a moment behind.
            let logged = format!("a {class} address");
            for _ in 0..100 {
                if server.logs().contains(&logged) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            assert!(
                server.logs().contains(&logged),
                "{url}: the log names the class"
            );
            let listed = server.listed_endpoint(&key, &id).await;
            assert_eq!(listed["lastDelivery"]["error"], error, "recorded");
            let d = &server.deliveries(&key, &id).await[0];
            assert_eq!(d["attempts"][0]["error"], error);
        }
        assert_eq!(receiver.count(), 0, "nothing reached the receiver");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_failing_past_the_limit_is_disabled_and_can_be_re_enabled() {
    let ca = TestCa::new();
    for backend in backends() {
        let receiver = Receiver::start(&ca).await;
        receiver.answer(500);
        let mut env = env(&ca, "300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms");
        env.push(("PIXGATE_WEBHOOK_DISABLE_AFTER".into(), "1s".into()));
        let server = start(backend, env).await;
        let key = merchant(&server, "shop").await;
        let (id, _) = endpoint(&server, &key, &receiver.url("/hooks"), None).await;
        let db = server.open_db().await;
        pending_intent(&db, "shop-store", "order-1").await;
        eventually("the endpoint to be disabled", || async {
            server.listed_endpoint(&key, &id).await["status"] == "DISABLED"
        })
        .await;
        let sent = receiver.count();
        assert!(sent >= 3, "{sent}");
        let d = &server.deliveries(&key, &id).await[0];
        assert_eq!(d["status"], "CANCELED");
        assert_eq!(d["lastError"], "endpoint_disabled");
        // Disabled: new events are not queued, resend is refused, the test route still works.
        pending_intent(&db, "shop-store", "order-2").await;
        assert_eq!(server.deliveries(&key, &id).await.len(), 1);
        let delivery_id = d["deliveryId"].as_str().unwrap();
        let (s, b) = server.resend(&key, &id, delivery_id).await;
        assert_eq!(
            (s, b["error"]["code"].as_str()),
            (409, Some("endpoint_not_active"))
        );

        receiver.answer(200);
        let (s, b) = server.endpoint_action(&key, &id, "enable").await;
        assert_eq!(s, 200, "{b}");
        assert_eq!(b["data"]["status"], "ACTIVE");
        assert_eq!(b["data"]["failureCount"], 0);
        let (s, b) = server.resend(&key, &id, delivery_id).await;
        assert_eq!(s, 202, "{b}");
        eventually("the resent delivery to arrive", || async {
            let d = server.deliveries(&key, &id).await;
            d.iter()
                .any(|d| d["deliveryId"] == delivery_id && d["status"] == "DELIVERED")
        })
        .await;
    }
}
