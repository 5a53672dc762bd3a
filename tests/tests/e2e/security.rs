//! Security end to end, on the real `pixgate serve` (SQLite, and PostgreSQL when
//! `PIXGATE_TEST_DATABASE_URL` is set): tenant isolation on every merchant route, the merchant
//! keys and the admin token kept apart, and secrets and payer data kept out of the log, the
//! list responses and the metrics.
//!
//! The merchant routes are one table, [`MERCHANT_ROUTES`], checked against the OpenAPI
//! document the server serves: a route added without a row fails
//! `the_security_table_covers_every_merchant_route_the_server_documents`. The admin routes are
//! read from the admin API's own document, so a new one is covered without a new row.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use pixgate_e2e::live::{Sim, sim_client};
use pixgate_e2e::receiver::{Receiver, TestCa};
use pixgate_e2e::server::{Server, backends, charge_body};
use reqwest::Method;
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------------------------------
// Calls

/// One call with an optional bearer credential; the status and the JSON body (Null if none).
async fn call(
    server: &Server,
    method: Method,
    url: &str,
    bearer: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let mut request = server
        .client
        .request(method.clone(), url)
        // A fresh key on every call: charges need one, the other routes ignore it.
        .header("Idempotency-Key", uuid::Uuid::new_v4().to_string());
    if let Some(bearer) = bearer {
        request = request.bearer_auth(bearer);
    }
    if let Some(body) = body {
        request = request.json(body);
    }
    let r = request
        .send()
        .await
        .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// The error envelope: `success: false` and an error with a code, a message and the request id.
fn assert_envelope(what: &str, status: u16, body: &Value) {
    assert_eq!(body["success"], false, "{what}: {status} {body}");
    for field in ["code", "message", "requestId"] {
        assert!(
            body["error"][field].as_str().is_some_and(|v| !v.is_empty()),
            "{what}: no error.{field} in {status} {body}"
        );
    }
}

/// The error without its request id: what two answers must share to be indistinguishable.
fn error_without_request_id(body: &Value) -> Value {
    let mut error = body["error"].clone();
    if let Some(error) = error.as_object_mut() {
        error.remove("requestId");
    }
    error
}

/// The error without its request id, and with the ids the request named (echoed back in a
/// message, say) written `<id>`: an echo of the caller's own input tells nothing.
fn comparable_error(body: &Value, named: &Theirs) -> Value {
    let mut text = error_without_request_id(body).to_string();
    for id in [
        &named.store,
        &named.intent,
        &named.batch,
        &named.mandate,
        &named.endpoint,
        &named.revoked_endpoint,
        &named.delivery,
    ] {
        text = text.replace(id.as_str(), "<id>");
    }
    serde_json::from_str(&text).unwrap()
}

/// Every operation of an OpenAPI document, as `"METHOD /path"`.
fn operations(doc: &Value) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("the document has paths") {
        for method in ["get", "post", "put", "patch", "delete", "head", "options"] {
            if item.get(method).is_some() {
                all.insert(format!("{} {path}", method.to_uppercase()));
            }
        }
    }
    all
}

async fn document(server: &Server, url: &str) -> Value {
    let (status, doc) = call(server, Method::GET, url, None, None).await;
    assert_eq!(status, 200, "{url}: {doc}");
    doc
}

/// The `{name}` parameters of a path template.
fn path_params(template: &str) -> Vec<String> {
    template
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(str::to_owned)
        .collect()
}

/// `template` with each `{name}` replaced by its value; a parameter without one is a new route
/// this file must learn about.
fn fill(template: &str, values: &BTreeMap<String, String>) -> String {
    let mut path = template.to_owned();
    for name in path_params(template) {
        let value = values.get(&name).unwrap_or_else(|| {
            panic!("{template}: no value for the path parameter {{{name}}}; add one to this test")
        });
        path = path.replace(&format!("{{{name}}}"), value);
    }
    path
}

fn split_op(op: &str) -> (Method, &str) {
    let (method, path) = op.split_once(' ').unwrap();
    (method.parse().unwrap(), path)
}

/// A fresh lowercase code that names nothing.
fn never_existing_code(prefix: &str) -> String {
    format!(
        "{prefix}-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..10]
    )
}

// ---------------------------------------------------------------------------------------------
// The merchant routes and how another merchant's resources are named on each

/// Another merchant's resources (or, for the comparison, ids that never existed).
struct Theirs {
    store: String,
    intent: String,
    batch: String,
    mandate: String,
    endpoint: String,
    revoked_endpoint: String,
    delivery: String,
    endpoint_url: String,
}

/// The caller's own resources, for the routes that name two things.
struct Mine {
    endpoint: String,
    delivery: String,
}

/// One request naming their resources: a label, the path under `/api/v1`, the body.
struct Probe {
    what: &'static str,
    path: String,
    body: Option<Value>,
}

/// A monthly SHADOW mandate for `store`, starting well ahead.
fn mandate_body(store: &str) -> Value {
    json!({
        "store": store, "reference": "contract-1",
        "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
        "frequency": "MONTHLY", "startDate": "2099-12-09", "amount": 10,
        "retryPolicy": "NONE", "journey": "QR"
    })
}

fn probe(what: &'static str, path: String, body: Option<Value>) -> Probe {
    Probe { what, path, body }
}

enum Isolation {
    /// Names resources by id: their ids answer exactly what ids that never existed answer,
    /// a 404 with the same code and message (no existence oracle).
    ById(fn(&Theirs, &Mine) -> Vec<Probe>),
    /// Lists the caller's resources: none of theirs appears.
    Lists,
    /// Creates one of the caller's resources: their value (here their endpoint URL) is no
    /// conflict, which would tell the caller they have it.
    Creates(fn(&Theirs) -> Value),
    /// Sums over the caller's granted stores (this path, with its query): nothing of theirs
    /// is named. (reconciliation.rs shows their LIVE payments left out of the sums.)
    Sums(&'static str),
}

struct MerchantRoute {
    /// `"METHOD /path"` as in the OpenAPI document (relative to `/api/v1`).
    op: &'static str,
    isolation: Isolation,
}

/// Every merchant route. A new one needs a row (the completeness test says so).
const MERCHANT_ROUTES: &[MerchantRoute] = &[
    MerchantRoute {
        op: "POST /payments/charge",
        isolation: Isolation::ById(|t, _| {
            vec![probe(
                "a charge for their store",
                "/payments/charge".into(),
                Some(charge_body(&t.store)),
            )]
        }),
    },
    MerchantRoute {
        op: "GET /payments/{paymentIntentId}",
        isolation: Isolation::ById(|t, _| {
            vec![
                probe("their intent", format!("/payments/{}", t.intent), None),
                probe(
                    "their intent's id in capitals",
                    format!("/payments/{}", t.intent.to_uppercase()),
                    None,
                ),
            ]
        }),
    },
    MerchantRoute {
        op: "GET /payments",
        isolation: Isolation::ById(|t, _| {
            vec![
                probe(
                    "their store as the filter",
                    format!("/payments?store={}", t.store),
                    None,
                ),
                probe(
                    "their intent as the cursor",
                    format!("/payments?after={}", t.intent),
                    None,
                ),
            ]
        }),
    },
    MerchantRoute {
        op: "POST /payments/charge-batches",
        isolation: Isolation::ById(|t, _| {
            let mut charge = charge_body(&t.store);
            charge.as_object_mut().unwrap().remove("store");
            charge["dueDate"] = json!("2099-12-09");
            vec![probe(
                "a batch for their store",
                "/payments/charge-batches".into(),
                Some(json!({"store": t.store, "charges": [charge]})),
            )]
        }),
    },
    MerchantRoute {
        op: "GET /payments/charge-batches/{batchId}",
        isolation: Isolation::ById(|t, _| {
            vec![
                probe(
                    "their batch",
                    format!("/payments/charge-batches/{}", t.batch),
                    None,
                ),
                probe(
                    "their batch's id in capitals",
                    format!("/payments/charge-batches/{}", t.batch.to_uppercase()),
                    None,
                ),
            ]
        }),
    },
    MerchantRoute {
        op: "GET /payments/{paymentIntentId}/amount-due",
        isolation: Isolation::ById(|t, _| {
            vec![probe(
                "their intent",
                format!("/payments/{}/amount-due?date=2026-12-01", t.intent),
                None,
            )]
        }),
    },
    MerchantRoute {
        op: "POST /payments/{paymentIntentId}/cancel",
        isolation: Isolation::ById(|t, _| {
            vec![probe(
                "their intent",
                format!("/payments/{}/cancel", t.intent),
                None,
            )]
        }),
    },
    MerchantRoute {
        op: "POST /payments/{paymentIntentId}/refunds",
        isolation: Isolation::ById(|t, _| {
            vec![probe(
                "their intent",
                format!("/payments/{}/refunds", t.intent),
                Some(json!({"amount": 1})),
            )]
        }),
    },
    MerchantRoute {
        op: "GET /payments/{paymentIntentId}/refunds",
        isolation: Isolation::ById(|t, _| {
            vec![probe(
                "their intent",
                format!("/payments/{}/refunds", t.intent),
                None,
            )]
        }),
    },
    MerchantRoute {
        op: "GET /refunds/{refundId}",
        isolation: Isolation::ById(|t, _| {
            // Their store is SHADOW (no refunds): their intent's id stands in for an id of theirs.
            vec![probe(
                "their intent's id as a refund id",
                format!("/refunds/{}", t.intent),
                None,
            )]
        }),
    },
    MerchantRoute {
        op: "POST /mandates",
        isolation: Isolation::ById(|t, _| {
            vec![probe(
                "a mandate for their store",
                "/mandates".into(),
                Some(mandate_body(&t.store)),
            )]
        }),
    },
    MerchantRoute {
        op: "GET /mandates",
        isolation: Isolation::ById(|t, _| {
            vec![
                probe(
                    "their store as the filter",
                    format!("/mandates?store={}", t.store),
                    None,
                ),
                probe(
                    "their mandate as the cursor",
                    format!("/mandates?after={}", t.mandate),
                    None,
                ),
            ]
        }),
    },
    MerchantRoute {
        op: "GET /mandates/{mandateId}",
        isolation: Isolation::ById(|t, _| {
            vec![
                probe("their mandate", format!("/mandates/{}", t.mandate), None),
                probe(
                    "their mandate's id in capitals",
                    format!("/mandates/{}", t.mandate.to_uppercase()),
                    None,
                ),
            ]
        }),
    },
    MerchantRoute {
        op: "POST /mandates/{mandateId}/cancel",
        isolation: Isolation::ById(|t, _| {
            vec![probe(
                "their mandate",
                format!("/mandates/{}/cancel", t.mandate),
                None,
            )]
        }),
    },
    MerchantRoute {
        op: "POST /mandates/{mandateId}/charges",
        isolation: Isolation::ById(|t, _| {
            vec![probe(
                "their mandate",
                format!("/mandates/{}/charges", t.mandate),
                Some(json!({"dueDate": "2099-12-09"})),
            )]
        }),
    },
    MerchantRoute {
        op: "POST /webhook-endpoints",
        isolation: Isolation::Creates(|t| json!({"name": "mine", "endpointUrl": t.endpoint_url})),
    },
    MerchantRoute {
        op: "GET /webhook-endpoints",
        isolation: Isolation::Lists,
    },
    MerchantRoute {
        op: "GET /settlements",
        isolation: Isolation::Sums("/settlements?from=2026-01-01&to=2026-12-31"),
    },
    MerchantRoute {
        op: "POST /webhook-endpoints/{endpointId}/test",
        isolation: Isolation::ById(|t, _| endpoint_probes(t, "test")),
    },
    MerchantRoute {
        op: "POST /webhook-endpoints/{endpointId}/revoke",
        isolation: Isolation::ById(|t, _| endpoint_probes(t, "revoke")),
    },
    MerchantRoute {
        op: "POST /webhook-endpoints/{endpointId}/enable",
        isolation: Isolation::ById(|t, _| endpoint_probes(t, "enable")),
    },
    MerchantRoute {
        op: "GET /webhook-endpoints/{endpointId}/deliveries",
        isolation: Isolation::ById(|t, m| {
            vec![
                probe(
                    "their endpoint",
                    format!("/webhook-endpoints/{}/deliveries", t.endpoint),
                    None,
                ),
                probe(
                    "their revoked endpoint",
                    format!("/webhook-endpoints/{}/deliveries", t.revoked_endpoint),
                    None,
                ),
                probe(
                    "their delivery as the cursor of my endpoint's list",
                    format!(
                        "/webhook-endpoints/{}/deliveries?before={}",
                        m.endpoint, t.delivery
                    ),
                    None,
                ),
            ]
        }),
    },
    MerchantRoute {
        op: "POST /webhook-endpoints/{endpointId}/deliveries/{deliveryId}/resend",
        isolation: Isolation::ById(|t, m| {
            let resend = |e: &str, d: &str| format!("/webhook-endpoints/{e}/deliveries/{d}/resend");
            vec![
                probe(
                    "their endpoint and their delivery",
                    resend(&t.endpoint, &t.delivery),
                    None,
                ),
                probe(
                    "my endpoint and their delivery",
                    resend(&m.endpoint, &t.delivery),
                    None,
                ),
                probe(
                    "their endpoint and my delivery",
                    resend(&t.endpoint, &m.delivery),
                    None,
                ),
            ]
        }),
    },
];

fn endpoint_probes(t: &Theirs, action: &str) -> Vec<Probe> {
    vec![
        probe(
            "their endpoint",
            format!("/webhook-endpoints/{}/{action}", t.endpoint),
            None,
        ),
        probe(
            "their endpoint's id in capitals",
            format!("/webhook-endpoints/{}/{action}", t.endpoint.to_uppercase()),
            None,
        ),
        // Revoked is 409 for its owner: for anyone else it must not exist either.
        probe(
            "their revoked endpoint",
            format!("/webhook-endpoints/{}/{action}", t.revoked_endpoint),
            None,
        ),
    ]
}

/// The receiver's CA trusted and loopback allowed, so endpoints at the test receiver work.
fn webhook_env(ca: &TestCa) -> Vec<(String, String)> {
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
        ("PIXGATE_WEBHOOK_TIMEOUT".into(), "3s".into()),
    ]
}

async fn start_with(backend: pixgate_e2e::server::Backend, env: &[(String, String)]) -> Server {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    Server::start_with(backend, &env).await
}

/// Creates an endpoint at `url` for `key`: its id and signing secret.
async fn endpoint(server: &Server, key: &str, url: &str) -> (String, String) {
    let (status, body) = server.create_endpoint(key, url, None).await;
    assert_eq!(status, 201, "{body}");
    (
        body["data"]["endpointId"].as_str().unwrap().to_owned(),
        body["data"]["signingSecret"].as_str().unwrap().to_owned(),
    )
}

/// Sends a `webhook.test` to the endpoint; its delivery id.
async fn test_delivery(server: &Server, key: &str, endpoint: &str) -> String {
    let (status, body) = server.endpoint_action(key, endpoint, "test").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "DELIVERED", "{body}");
    body["data"]["deliveryId"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_security_table_covers_every_merchant_route_the_server_documents() {
    let server = Server::start(pixgate_e2e::server::Backend::Sqlite).await;
    let doc = document(&server, &format!("{}/openapi.json", server.base)).await;
    let documented = operations(&doc);
    let table: BTreeSet<String> = MERCHANT_ROUTES.iter().map(|r| r.op.to_owned()).collect();
    assert_eq!(
        table.len(),
        MERCHANT_ROUTES.len(),
        "a route has two rows in MERCHANT_ROUTES"
    );
    let missing: Vec<_> = documented.difference(&table).collect();
    assert!(
        missing.is_empty(),
        "merchant routes without a row in MERCHANT_ROUTES (say how another merchant's ids are \
         named on them): {missing:?}"
    );
    let stale: Vec<_> = table.difference(&documented).collect();
    assert!(
        stale.is_empty(),
        "rows of MERCHANT_ROUTES for routes the server does not document: {stale:?}"
    );
    // The root copy of the document is the same document.
    let root = document(&server, &format!("{}/openapi.json", server.merchant_root())).await;
    assert_eq!(operations(&root), documented);
}

#[tokio::test(flavor = "multi_thread")]
async fn another_merchants_ids_answer_on_every_merchant_route_as_ids_that_never_existed() {
    for backend in backends() {
        let ca = TestCa::new();
        let receiver = Receiver::start(&ca).await;
        let server = start_with(backend, &webhook_env(&ca)).await;
        // Every scope: a route the key may not use would answer 403 before looking at the id.
        let (status, issued) = server
            .admin_post(
                "/api-keys",
                json!({"merchant": "demo", "stores": ["demo-store"],
                       "scopes": ["payments:create", "payments:read", "payments:refund", "webhooks:manage",
                                  "mandates:manage"]}),
            )
            .await;
        assert_eq!(status, 201, "{issued}");
        let mine_key = issued["data"]["apiKey"].as_str().unwrap().to_owned();
        let their_key = server
            .merchant_with_store("acme", "acme-store", "SHADOW")
            .await;

        // Their resources: a store, an intent, an endpoint with a delivery, a revoked endpoint.
        let (status, charged) = server
            .charge(&their_key, "theirs-1", &charge_body("acme-store"))
            .await;
        assert_eq!(status, 200, "{charged}");
        let mut their_charge = charge_body("acme-store");
        their_charge.as_object_mut().unwrap().remove("store");
        their_charge["dueDate"] = json!("2099-12-09");
        let (status, their_batch) = server
            .charge_batch(
                &their_key,
                "theirs-batch",
                &json!({"store": "acme-store", "charges": [their_charge]}),
            )
            .await;
        assert_eq!(status, 202, "{their_batch}");
        let (status, mandates_key) = server
            .admin_post(
                "/api-keys",
                json!({"merchant": "acme", "stores": ["acme-store"], "scopes": ["mandates:manage"]}),
            )
            .await;
        assert_eq!(status, 201, "{mandates_key}");
        let (status, their_mandate) = call(
            &server,
            reqwest::Method::POST,
            &format!("{}/mandates", server.base),
            mandates_key["data"]["apiKey"].as_str(),
            Some(&mandate_body("acme-store")),
        )
        .await;
        assert_eq!(status, 200, "{their_mandate}");
        let their_url = receiver.url("/hooks/acme");
        let (their_endpoint, _) = endpoint(&server, &their_key, &their_url).await;
        let their_delivery = test_delivery(&server, &their_key, &their_endpoint).await;
        let (their_revoked, _) =
            endpoint(&server, &their_key, &receiver.url("/hooks/acme-old")).await;
        let (status, body) = server
            .endpoint_action(&their_key, &their_revoked, "revoke")
            .await;
        assert_eq!(status, 200, "{body}");
        let theirs = Theirs {
            store: "acme-store".into(),
            intent: charged["data"]["paymentIntentId"]
                .as_str()
                .unwrap()
                .to_owned(),
            batch: their_batch["data"]["batchId"].as_str().unwrap().to_owned(),
            mandate: their_mandate["data"]["mandateId"]
                .as_str()
                .unwrap()
                .to_owned(),
            endpoint: their_endpoint.clone(),
            revoked_endpoint: their_revoked.clone(),
            delivery: their_delivery.clone(),
            endpoint_url: their_url.clone(),
        };
        let never = Theirs {
            store: never_existing_code("gone"),
            intent: uuid::Uuid::new_v4().to_string(),
            batch: uuid::Uuid::new_v4().to_string(),
            mandate: uuid::Uuid::new_v4().to_string(),
            endpoint: uuid::Uuid::new_v4().to_string(),
            revoked_endpoint: uuid::Uuid::new_v4().to_string(),
            delivery: uuid::Uuid::new_v4().to_string(),
            endpoint_url: receiver.url("/hooks/never"),
        };
        // Mine: an endpoint with a delivery of its own.
        let (my_endpoint, _) = endpoint(&server, &mine_key, &receiver.url("/hooks/demo")).await;
        let mine = Mine {
            delivery: test_delivery(&server, &mine_key, &my_endpoint).await,
            endpoint: my_endpoint,
        };
        let their_deliveries_before = server.deliveries(&their_key, &their_endpoint).await.len();
        // What their endpoints were sent: test events, and attempts of their delivery.
        let sent_to_them = || {
            receiver
                .received()
                .iter()
                .filter(|r| {
                    r.path.starts_with("/hooks/acme")
                        && (r.json()["type"] == "webhook.test"
                            || r.header("x-service-delivery") == Some(their_delivery.as_str()))
                })
                .count()
        };
        let sent_before = sent_to_them();
        let mut compared = 0;
        for route in MERCHANT_ROUTES {
            let (method, _) = split_op(route.op);
            match &route.isolation {
                Isolation::ById(probes) => {
                    let foreign = probes(&theirs, &mine);
                    let missing = probes(&never, &mine);
                    assert!(!foreign.is_empty(), "{}: no probe", route.op);
                    for (f, m) in foreign.iter().zip(&missing) {
                        let what = format!("{backend:?} {} with {}", route.op, f.what);
                        let (fs, fb) = call(
                            &server,
                            method.clone(),
                            &format!("{}{}", server.base, f.path),
                            Some(&mine_key),
                            f.body.as_ref(),
                        )
                        .await;
                        let (ms, mb) = call(
                            &server,
                            method.clone(),
                            &format!("{}{}", server.base, m.path),
                            Some(&mine_key),
                            m.body.as_ref(),
                        )
                        .await;
                        assert_eq!(fs, 404, "{what}: {fb}");
                        assert_envelope(&what, fs, &fb);
                        assert_envelope(&what, ms, &mb);
                        assert_eq!(
                            (fs, comparable_error(&fb, &theirs)),
                            (ms, comparable_error(&mb, &never)),
                            "{what}: another merchant's id is told apart from one that never \
                             existed"
                        );
                        compared += 1;
                    }
                }
                Isolation::Lists => {
                    let (status, body) = call(
                        &server,
                        method.clone(),
                        &format!("{}{}", server.base, split_op(route.op).1),
                        Some(&mine_key),
                        None,
                    )
                    .await;
                    assert_eq!(status, 200, "{}: {body}", route.op);
                    let text = body.to_string();
                    assert!(
                        text.contains(&mine.endpoint),
                        "{}: my own endpoint is missing: {text}",
                        route.op
                    );
                    for id in [&theirs.endpoint, &theirs.revoked_endpoint, &theirs.delivery] {
                        assert!(
                            !text.contains(id.as_str()),
                            "{}: lists {id}: {text}",
                            route.op
                        );
                    }
                    // (Their live URL may be mine too by now: `Creates` registered it.)
                    assert!(!text.contains("/hooks/acme-old"), "{}: {text}", route.op);
                }
                Isolation::Sums(path) => {
                    let (status, body) = call(
                        &server,
                        method.clone(),
                        &format!("{}{path}", server.base),
                        Some(&mine_key),
                        None,
                    )
                    .await;
                    assert_eq!(status, 200, "{}: {body}", route.op);
                    assert!(body["data"].is_array(), "{}: {body}", route.op);
                    assert!(
                        !body.to_string().contains("acme"),
                        "{}: names theirs: {body}",
                        route.op
                    );
                }
                Isolation::Creates(body) => {
                    let (status, created) = call(
                        &server,
                        method.clone(),
                        &format!("{}{}", server.base, split_op(route.op).1),
                        Some(&mine_key),
                        Some(&body(&theirs)),
                    )
                    .await;
                    assert_eq!(
                        status, 201,
                        "{}: their value must be no conflict for me: {created}",
                        route.op
                    );
                }
            }
        }
        assert!(compared >= 14, "only {compared} comparisons");

        // Nothing of theirs moved: the endpoints keep their status, no delivery was added or
        // sent again (a resend is queued, so give the sender a moment).
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            server.listed_endpoint(&their_key, &their_endpoint).await["status"],
            "ACTIVE"
        );
        assert_eq!(
            server.listed_endpoint(&their_key, &their_revoked).await["status"],
            "REVOKED"
        );
        assert_eq!(
            server.deliveries(&their_key, &their_endpoint).await.len(),
            their_deliveries_before
        );
        assert_eq!(
            sent_to_them(),
            sent_before,
            "their endpoints were sent something by my calls"
        );
        // Their intent is still theirs.
        let (status, _) = server.get_payment(&their_key, &theirs.intent).await;
        assert_eq!(status, 200);
        // Idempotency-Keys are per merchant: their key, used by me with the same body for my
        // store, is a new charge of mine, never a replay of theirs (nor a 409).
        let (status, charged_by_me) = server
            .charge(&mine_key, "theirs-1", &charge_body("demo-store"))
            .await;
        assert_eq!(status, 200, "{charged_by_me}");
        assert_eq!(charged_by_me["data"]["idempotentReplay"], false);
        assert_ne!(
            charged_by_me["data"]["paymentIntentId"],
            theirs.intent.as_str()
        );
        assert_eq!(charged_by_me["data"]["store"]["code"], "demo-store");
    }
}

// ---------------------------------------------------------------------------------------------
// Credentials kept apart

/// Valid bodies for the admin routes that change something, so that a refusal is the
/// credential's doing and not the body's.
fn admin_body(op: &str) -> Value {
    match op {
        "POST /merchants" => json!({"code": "intruder", "name": "Intruder"}),
        "POST /stores" => {
            json!({"code": "intruder-store", "name": "x", "merchant": "demo", "mode": "SHADOW"})
        }
        "PATCH /stores/{code}" => json!({"mode": "LIVE", "liveEnabled": true}),
        "POST /api-keys" => json!({"merchant": "demo", "stores": ["demo-store"]}),
        "POST /operators" => json!({"name": "intruder", "role": "admin"}),
        "PUT /stores/{code}/kill-switch" => json!({"enabled": false}),
        "PUT /stores/{code}/gateways" => json!({"gateways": ["sandbox-b-d30"]}),
        "PATCH /gateways/{alias}" => json!({"active": false}),
        _ => json!({}),
    }
}

/// Every GET of the admin document with the admin token: the answers, by path.
async fn admin_reads(
    server: &Server,
    ops: &BTreeSet<String>,
    values: &BTreeMap<String, String>,
) -> BTreeMap<String, (u16, Value)> {
    let mut reads = BTreeMap::new();
    for op in ops.iter().filter(|op| op.starts_with("GET ")) {
        let path = fill(split_op(op).1, values);
        let answer = call(
            server,
            Method::GET,
            &format!("{}{path}", server.admin),
            Some(&server.admin_token),
            None,
        )
        .await;
        assert_ne!(answer.0, 401, "{op} refuses the admin token: {}", answer.1);
        reads.insert(path, answer);
    }
    reads
}

#[tokio::test(flavor = "multi_thread")]
async fn admin_routes_refuse_merchant_keys_and_merchant_routes_refuse_the_admin_token() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = server.demo_key.clone();
        let (status, charged) = server
            .charge(&key, "mine-1", &charge_body("demo-store"))
            .await;
        assert_eq!(status, 200, "{charged}");
        let intent = charged["data"]["paymentIntentId"]
            .as_str()
            .unwrap()
            .to_owned();
        let (my_endpoint, _) = endpoint(&server, &key, "https://shop.example.com/hooks").await;
        let (status, keys) = server.admin_get("/api-keys?merchant=demo").await;
        assert_eq!(status, 200, "{keys}");
        let key_id = keys["data"][0]["keyId"].as_str().unwrap().to_owned();

        let values: BTreeMap<String, String> = [
            ("code", "demo-store"),
            ("step", "policy"),
            ("version", &"0".repeat(64)),
            ("alias", "sandbox-a-d0"),
            ("keyId", &key_id),
            ("paymentIntentId", &intent),
            ("batchId", &uuid::Uuid::new_v4().to_string()),
            ("mandateId", &uuid::Uuid::new_v4().to_string()),
            ("reconciliationId", &uuid::Uuid::new_v4().to_string()),
            ("endpointId", &my_endpoint),
            ("deliveryId", &uuid::Uuid::new_v4().to_string()),
            ("refundId", &uuid::Uuid::new_v4().to_string()),
            // An operator's id (`/operators/{id}/revoke`).
            ("id", &uuid::Uuid::new_v4().to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();

        // The admin API, route by route from its own document, with the merchant's key.
        let admin_doc = document(&server, &format!("{}/openapi.json", server.admin)).await;
        let admin_ops = operations(&admin_doc);
        for known in [
            "POST /merchants",
            "GET /merchants",
            "POST /api-keys",
            "POST /api-keys/{keyId}/revoke",
            "PATCH /stores/{code}",
            "POST /providers",
            "GET /providers",
            "GET /payment-intents/{paymentIntentId}/trace",
            "POST /components/{step}",
            "PUT /stores/{code}/kill-switch",
            "POST /replays",
            "POST /operators",
            "POST /operators/{id}/revoke",
            "GET /operators/me",
            "GET /audit-events",
        ] {
            assert!(
                admin_ops.contains(known),
                "{known} is not in the admin document"
            );
        }
        let before = admin_reads(&server, &admin_ops, &values).await;
        for op in &admin_ops {
            let (method, template) = split_op(op);
            let url = format!("{}{}", server.admin, fill(template, &values));
            let body = (method != Method::GET && method != Method::DELETE).then(|| admin_body(op));
            let what = format!("{backend:?} admin {op} with a merchant key");
            let (status, answer) =
                call(&server, method.clone(), &url, Some(&key), body.as_ref()).await;
            assert_eq!(status, 401, "{what}: {answer}");
            assert_envelope(&what, status, &answer);
            assert_eq!(answer["error"]["code"], "invalid_admin_token", "{what}");
            let what = format!("{backend:?} admin {op} without a credential");
            let (status, answer) = call(&server, method.clone(), &url, None, body.as_ref()).await;
            assert_eq!(status, 401, "{what}: {answer}");
            assert_envelope(&what, status, &answer);
            assert_eq!(answer["error"]["code"], "missing_admin_token", "{what}");
        }
        // Nothing the merchant key sent changed anything an administrator reads.
        let after = admin_reads(&server, &admin_ops, &values).await;
        for (path, (status, body)) in &before {
            let (s, b) = &after[path];
            let strip = |v: &Value| {
                // The intent's trace and every list are stable; only a request id could differ.
                let mut v = v.clone();
                if let Some(o) = v.get_mut("error").and_then(Value::as_object_mut) {
                    o.remove("requestId");
                }
                // The overview's window ends now.
                if path == "/overview"
                    && let Some(o) = v.get_mut("data").and_then(Value::as_object_mut)
                {
                    o.remove("from");
                    o.remove("to");
                }
                v
            };
            assert_eq!((s, strip(b)), (status, strip(body)), "{path} changed");
        }
        let (status, merchants) = server.admin_get("/merchants").await;
        assert_eq!(status, 200);
        assert!(!merchants.to_string().contains("intruder"), "{merchants}");

        // The merchant API, route by route from its document, with the admin token.
        let merchant_doc = document(&server, &format!("{}/openapi.json", server.base)).await;
        let merchant_ops = operations(&merchant_doc);
        assert!(merchant_ops.len() >= MERCHANT_ROUTES.len());
        for op in &merchant_ops {
            let (method, template) = split_op(op);
            let url = format!("{}{}", server.base, fill(template, &values));
            let body = match op.as_str() {
                "POST /payments/charge" => Some(charge_body("demo-store")),
                "POST /webhook-endpoints" => {
                    Some(json!({"endpointUrl": "https://intruder.example.com/hooks"}))
                }
                _ => None,
            };
            let what = format!("{backend:?} merchant {op} with the admin token");
            let (status, answer) = call(
                &server,
                method.clone(),
                &url,
                Some(&server.admin_token),
                body.as_ref(),
            )
            .await;
            assert_eq!(status, 401, "{what}: {answer}");
            assert_envelope(&what, status, &answer);
            assert_eq!(answer["error"]["code"], "invalid_api_key", "{what}");
        }
        // Nothing happened for the merchant either.
        let listed = server.listed_endpoint(&key, &my_endpoint).await;
        assert_eq!(listed["status"], "ACTIVE");
        let (status, all) = server
            .merchant(Method::GET, "/webhook-endpoints", &key, None)
            .await;
        assert_eq!(status, 200);
        assert!(!all.to_string().contains("intruder"), "{all}");
        let (status, body) = server
            .charge(&key, "after-1", &charge_body("demo-store"))
            .await;
        assert_eq!(status, 200, "the merchant key still works: {body}");

        // Each API lives on its own listener only.
        let (status, answer) = call(
            &server,
            Method::GET,
            &format!("{}/admin/v1/merchants", server.merchant_root()),
            Some(&server.admin_token),
            None,
        )
        .await;
        assert_eq!(
            status, 404,
            "the admin API on the merchant listener: {answer}"
        );
        assert_envelope("admin API on the merchant listener", status, &answer);
        let (status, answer) = call(
            &server,
            Method::GET,
            &format!("{}/api/v1/payments/{intent}", server.admin_root()),
            Some(&key),
            None,
        )
        .await;
        assert_eq!(
            status, 404,
            "the merchant API on the admin listener: {answer}"
        );
        assert_envelope("merchant API on the admin listener", status, &answer);
    }
}

// ---------------------------------------------------------------------------------------------
// Secrets and payer data stay out of the log, the lists and the metrics

/// A payer with values no other test uses: a valid CPF or CNPJ, an email, a phone.
struct Payer {
    tax_id: String,
    email: String,
    phone: String,
}

fn random_digits(n: usize) -> Vec<u32> {
    let mut digits = Vec::with_capacity(n);
    while digits.len() < n {
        for b in uuid::Uuid::new_v4().as_bytes() {
            if digits.len() < n && *b < 250 {
                digits.push(u32::from(*b % 10));
            }
        }
    }
    digits
}

fn check_digit(digits: &[u32], weights: &[u32]) -> u32 {
    let sum: u32 = digits.iter().zip(weights).map(|(d, w)| d * w).sum();
    match sum % 11 {
        0 | 1 => 0,
        r => 11 - r,
    }
}

/// A valid CPF, `ddd.ddd.ddd-dd`.
fn cpf() -> String {
    loop {
        let mut d = random_digits(9);
        if d.iter().all(|x| *x == d[0]) {
            continue;
        }
        d.push(check_digit(&d, &[10, 9, 8, 7, 6, 5, 4, 3, 2]));
        d.push(check_digit(&d, &[11, 10, 9, 8, 7, 6, 5, 4, 3, 2]));
        let s: String = d
            .iter()
            .map(|x| char::from_digit(*x, 10).unwrap())
            .collect();
        return format!("{}.{}.{}-{}", &s[0..3], &s[3..6], &s[6..9], &s[9..11]);
    }
}

/// A valid CNPJ, `dd.ddd.ddd/dddd-dd`.
fn cnpj() -> String {
    loop {
        let mut d = random_digits(12);
        if d.iter().all(|x| *x == d[0]) {
            continue;
        }
        d.push(check_digit(&d, &[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]));
        d.push(check_digit(&d, &[6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]));
        let s: String = d
            .iter()
            .map(|x| char::from_digit(*x, 10).unwrap())
            .collect();
        return format!(
            "{}.{}.{}/{}-{}",
            &s[0..2],
            &s[2..5],
            &s[5..8],
            &s[8..12],
            &s[12..14]
        );
    }
}

fn payer(tax_id: String) -> Payer {
    let tag = &uuid::Uuid::new_v4().simple().to_string()[..12];
    let d: String = random_digits(8)
        .iter()
        .map(|x| char::from_digit(*x, 10).unwrap())
        .collect();
    Payer {
        tax_id,
        email: format!("payer.{tag}@example.com"),
        phone: format!("+55 11 9{}-{}", &d[..4], &d[4..]),
    }
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

fn charge_for(store: &str, reference: &str, p: &Payer) -> Value {
    let mut body = charge_body(store);
    body["reference"] = json!(reference);
    body["payer"]["taxId"] = json!(p.tax_id);
    body["payer"]["email"] = json!(p.email);
    body["payer"]["phone"] = json!(p.phone);
    body
}

/// What must never show: labelled values.
#[derive(Default)]
struct Needles(Vec<(String, String)>);

impl Needles {
    fn add(&mut self, what: impl Into<String>, value: &str) {
        assert!(
            value.len() >= 8,
            "a needle too short to mean anything: {value}"
        );
        self.0.push((what.into(), value.to_owned()));
    }

    /// A secret with a public prefix (`pxg_<prefix>_`, `pxa_`, `whsec_`): the whole value and
    /// its secret part.
    fn secret(&mut self, what: &str, value: &str) {
        self.add(what, value);
        let part = match value.strip_prefix("pxg_") {
            Some(rest) => rest.split_once('_').map(|(_, s)| s).unwrap_or(rest),
            None => value
                .strip_prefix("pxa_")
                .or_else(|| value.strip_prefix("whsec_"))
                .unwrap_or(value),
        };
        if part != value {
            self.add(format!("{what} (its secret part)"), part);
        }
    }

    fn payer(&mut self, what: &str, p: &Payer) {
        self.add(format!("{what} tax id"), &p.tax_id);
        self.add(format!("{what} tax id, digits only"), &digits(&p.tax_id));
        self.add(format!("{what} email"), &p.email);
        self.add(format!("{what} phone"), &p.phone);
        self.add(format!("{what} phone, digits only"), &digits(&p.phone));
    }

    /// Every needle found in `haystack`, as `"what (where)"`.
    fn found_in(&self, place: &str, haystack: &str, found: &mut Vec<String>) {
        let lower = haystack.to_lowercase();
        for (what, value) in &self.0 {
            if haystack.contains(value.as_str()) || lower.contains(&value.to_lowercase()) {
                found.push(format!("{what} in {place}"));
            }
        }
    }
}

/// The provider body for `sim` with `secret`.
fn provider_body(sim: &Sim, secret: &str) -> Value {
    json!({
        "code": "sandbox-a",
        "name": "sandbox-a (simulator)",
        "apiBaseUrl": format!("{}/api/v2", sim.origin),
        "tokenUrl": format!("{}/oauth/token", sim.origin),
        "clientId": "psp-sim-client",
        "clientSecret": secret,
        "pixKey": PIX_KEY,
        "tls": {
            "caPem": sim.pem("ca.pem"),
            "clientCertPem": sim.pem("client.pem"),
            "clientKeyPem": sim.pem("client-key.pem"),
        }
    })
}

const PIX_KEY: &str = "sandbox-a@pixgate.test";

/// `GET /webhook/{chave}` at the simulator with a token got with `secret`: the callback URL
/// pixgate registered for the pix key.
async fn registered_webhook(sim: &Sim, secret: &str) -> Value {
    let client = sim_client(sim.certs.path(), true, Duration::from_secs(10));
    let token: Value = client
        .post(format!("{}/oauth/token", sim.origin))
        .basic_auth("psp-sim-client", Some(secret))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("grant_type=client_credentials")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = token["access_token"]
        .as_str()
        .unwrap_or_else(|| panic!("the simulator gave no token: {token}"));
    client
        .get(format!("{}/api/v2/webhook/{PIX_KEY}", sim.origin))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap_or(Value::Null)
}

const LOG_FILTER: &str = "debug,pixgate=trace,cranelift_codegen=info,wasmtime=info,\
                          wasmtime_internal_cranelift=info";

/// The log without its colours (escape sequences could split a value from its neighbours).
fn without_ansi(log: &str) -> String {
    let mut out = String::with_capacity(log.len());
    let mut chars = log.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters final-byte (0x40..=0x7e).
            if chars.next() == Some('[') {
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Polls `get` until it answers `Some`.
async fn eventually<T, F, Fut>(what: &str, mut get: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(v) = get().await {
            return v;
        }
        assert!(Instant::now() < deadline, "{what} within {WAIT:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn secrets_keys_tax_ids_and_emails_never_reach_the_log_the_lists_or_the_metrics() {
    for backend in backends() {
        let mut needles = Needles::default();
        let client_secret = format!("cs-{}", uuid::Uuid::new_v4().simple());
        let first_secret = format!("cs-{}", uuid::Uuid::new_v4().simple());
        let sim = Sim::start(&["--client-secret", &client_secret]);
        let ca = TestCa::new();
        let receiver = Receiver::start(&ca).await;
        let mut env = webhook_env(&ca);
        env.extend([
            ("PIXGATE_PSP_TIMEOUT".into(), "3s".into()),
            ("PIXGATE_RECONCILE_INTERVAL".into(), "1h".into()),
            // The most the log ever says, what holds there holds at info: pixgate at trace,
            // the libraries at debug (but the compiler's, which says nothing of requests).
            ("PIXGATE_LOG".into(), LOG_FILTER.into()),
        ]);
        let server = start_with(backend, &env).await;
        needles.secret("the admin token", &server.admin_token);
        needles.secret("the demo API key", &server.demo_key);
        let master_key = std::fs::read_to_string(server.data_dir.path().join("master.key"))
            .expect("the generated master key");
        needles.add("the master key", master_key.trim());

        // A provider, first with a client secret the PSP refuses, then with the right one.
        let (status, body) = server
            .admin_post("/providers", provider_body(&sim, &first_secret))
            .await;
        assert_eq!(status, 201, "{body}");
        needles.add("a provider client secret (replaced)", &first_secret);
        needles.add("the provider client secret", &client_secret);
        for (i, line) in sim
            .pem("client-key.pem")
            .lines()
            .filter(|l| !l.starts_with("-----") && l.len() >= 16)
            .enumerate()
        {
            needles.add(format!("line {i} of the provider's client key"), line);
        }
        let (status, body) = server
            .admin_patch(
                "/providers/sandbox-a",
                json!({"clientSecret": client_secret}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        // Its callback token, as the PSP holds it once pixgate registered the URL.
        let (sim_ref, secret_ref) = (&sim, client_secret.as_str());
        let callback_url: String =
            eventually("the callback URL registered at the PSP", || async move {
                registered_webhook(sim_ref, secret_ref).await["webhookUrl"]
                    .as_str()
                    .map(str::to_owned)
            })
            .await;
        let token = callback_url
            .split("/psp-callbacks/sandbox-a/")
            .nth(1)
            .unwrap_or_else(|| panic!("no token in {callback_url}"))
            .trim_end_matches('/')
            .to_owned();
        needles.add("the provider's callback token", &token);

        // A LIVE store at that provider only, its merchant's key, and more keys.
        let live_key = server
            .merchant_with_store("acme", "acme-live", "LIVE")
            .await;
        needles.secret("a merchant API key", &live_key);
        let (status, body) = server
            .admin_patch("/stores/acme-live", json!({"liveEnabled": true}))
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = server
            .admin(
                Method::PUT,
                "/stores/acme-live/gateways",
                Some(json!({"gateways": ["sandbox-a-d0"]})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = server
            .admin_post(
                "/api-keys",
                json!({"merchant": "acme", "stores": ["acme-live"], "scopes": ["payments:read"]}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let revoked_key = body["data"]["apiKey"].as_str().unwrap().to_owned();
        needles.secret("a revoked API key", &revoked_key);
        let (status, _) = server
            .admin_post(
                &format!(
                    "/api-keys/{}/revoke",
                    body["data"]["keyId"].as_str().unwrap()
                ),
                json!({}),
            )
            .await;
        assert_eq!(status, 200);

        // Webhook endpoints of both merchants, a test delivery to each.
        let (demo_endpoint, demo_secret) =
            endpoint(&server, &server.demo_key, &receiver.url("/hooks/demo")).await;
        let (live_endpoint, live_secret) =
            endpoint(&server, &live_key, &receiver.url("/hooks/acme")).await;
        needles.secret("a webhook signing secret", &demo_secret);
        needles.secret("another webhook signing secret", &live_secret);
        test_delivery(&server, &server.demo_key, &demo_endpoint).await;
        test_delivery(&server, &live_key, &live_endpoint).await;

        // Charges carrying payers: SHADOW with a CPF and with a CNPJ, a replay, a reuse of the
        // key with another payer, invalid payers, and a LIVE charge paid and confirmed.
        let mut intents = Vec::new();
        let shadow = payer(cpf());
        needles.payer("a SHADOW payer's", &shadow);
        let body = charge_for("demo-store", "order-sec-1", &shadow);
        for replay in [false, true] {
            let (status, answer) = server.charge(&server.demo_key, "sec-1", &body).await;
            assert_eq!(status, 200, "{answer}");
            assert_eq!(answer["data"]["idempotentReplay"], replay);
            intents.push(
                answer["data"]["paymentIntentId"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            );
        }
        let other = payer(cpf());
        needles.payer("a payer under a reused key", &other);
        let (status, answer) = server
            .charge(
                &server.demo_key,
                "sec-1",
                &charge_for("demo-store", "order-sec-1", &other),
            )
            .await;
        assert_eq!(status, 409, "{answer}");
        let company = payer(cnpj());
        needles.payer("a company payer's", &company);
        let (status, answer) = server
            .charge(
                &server.demo_key,
                "sec-2",
                &charge_for("demo-store", "order-sec-2", &company),
            )
            .await;
        assert_eq!(status, 200, "{answer}");
        intents.push(
            answer["data"]["paymentIntentId"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
        // A mandate's payer (SHADOW): the tax id sealed, never shown or logged.
        let subscriber = payer(cpf());
        needles.payer("a mandate payer's", &subscriber);
        let (status, body) = server
            .admin_post(
                "/api-keys",
                json!({"merchant": "demo", "stores": ["demo-store"],
                       "scopes": ["mandates:manage"]}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let mandate_key = body["data"]["apiKey"].as_str().unwrap().to_owned();
        needles.secret("a mandate API key", &mandate_key);
        let answer: Value = server
            .client
            .post(format!("{}/mandates", server.base))
            .bearer_auth(&mandate_key)
            .header("Idempotency-Key", "sec-mandate")
            .json(&json!({
                "store": "demo-store", "reference": "contract-sec",
                "payer": {"name": "Sub Scriber", "taxId": subscriber.tax_id},
                "frequency": "MONTHLY", "startDate": "2099-12-09", "amount": 10,
                "retryPolicy": "NONE", "journey": "QR"
            }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let mandates = vec![answer["data"]["mandateId"].as_str().unwrap().to_owned()];
        // A run of the ledger sweep of sandbox-a's day (its PSP is no real one: the run fails,
        // and its error is shown too).
        let (status, run) = server
            .admin_post(
                "/reconciliations",
                json!({"provider": "sandbox-a", "date": pixgate_e2e::rec::today().to_string()}),
            )
            .await;
        assert_eq!(status, 202, "{run}");
        let runs = vec![run["data"]["reconciliationId"].as_str().unwrap().to_owned()];
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let (_, now) = server
                .admin_get(&format!("/reconciliations/{}", runs[0]))
                .await;
            if now["data"]["status"] != "RUNNING" {
                break;
            }
            assert!(Instant::now() < deadline, "{now}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        // A tax id one check digit off, and a malformed email: refused, and not logged either.
        let mut wrong = payer(cpf());
        let last = wrong.tax_id.pop().unwrap().to_digit(10).unwrap();
        wrong
            .tax_id
            .push(char::from_digit((last + 1) % 10, 10).unwrap());
        needles.add("a refused tax id", &wrong.tax_id);
        needles.add("a refused tax id, digits only", &digits(&wrong.tax_id));
        let (status, answer) = server
            .charge(
                &server.demo_key,
                "sec-3",
                &charge_for("demo-store", "order-sec-3", &wrong),
            )
            .await;
        assert_eq!(
            (status, answer["error"]["code"].as_str()),
            (400, Some("invalid_tax_id"))
        );
        let mut bad_email = payer(cpf());
        needles.payer("a payer with a refused email", &bad_email);
        bad_email.email = bad_email.email.replace('@', " at ");
        needles.add("a refused email", &bad_email.email);
        let (status, answer) = server
            .charge(
                &server.demo_key,
                "sec-4",
                &charge_for("demo-store", "order-sec-4", &bad_email),
            )
            .await;
        assert_eq!(
            (status, answer["error"]["code"].as_str()),
            (400, Some("invalid_email"))
        );

        let live = payer(digits(&cpf()));
        needles.payer("a LIVE payer's", &live);
        let (status, charged) = server
            .charge(
                &live_key,
                "live-1",
                &charge_for("acme-live", "order-live-1", &live),
            )
            .await;
        assert_eq!(status, 200, "{charged}\n{}", server.logs());
        assert_eq!(charged["data"]["status"], "PENDING", "{charged}");
        let live_intent = charged["data"]["paymentIntentId"]
            .as_str()
            .unwrap()
            .to_owned();
        intents.push(live_intent.clone());
        let txid = charged["data"]["pix"]["txid"].as_str().unwrap();
        sim.post(&format!("/cob/{txid}/pay"), json!({})).await;
        let (server_ref, key_ref, intent_ref) = (&server, live_key.as_str(), live_intent.as_str());
        eventually("the LIVE charge settled", || async move {
            let (_, body) = server_ref.get_payment(key_ref, intent_ref).await;
            (body["data"]["status"] == "SUCCEEDED").then_some(())
        })
        .await;
        let receiver_ref = &receiver;
        eventually("payment.succeeded delivered", || async move {
            receiver_ref
                .received()
                .iter()
                .any(|r| r.json()["type"] == "payment.succeeded")
                .then_some(())
        })
        .await;

        // Credentials that fail: a revoked key, an unknown key, a wrong admin token, a forged
        // callback.
        let (status, _) = server.get_payment(&revoked_key, &live_intent).await;
        assert_eq!(status, 401);
        let unknown = format!(
            "pxg_{}_{}",
            &uuid::Uuid::new_v4().simple().to_string()[..12],
            uuid::Uuid::new_v4().simple()
        );
        needles.secret("an unknown API key", &unknown);
        let (status, _) = server.get_payment(&unknown, &live_intent).await;
        assert_eq!(status, 401);
        let wrong_token = format!("pxa_{}", uuid::Uuid::new_v4().simple());
        needles.secret("a wrong admin token", &wrong_token);
        let (status, _) = call(
            &server,
            Method::GET,
            &format!("{}/merchants", server.admin),
            Some(&wrong_token),
            None,
        )
        .await;
        assert_eq!(status, 401);
        let forged = uuid::Uuid::new_v4().simple().to_string();
        needles.add("a forged callback token", &forged);
        let r = server
            .client
            .post(format!("{}/psp-callbacks/sandbox-a/{forged}/pix", server.merchant_root()))
            .json(&json!({"pix": [{"endToEndId": "E1", "txid": txid, "valor": "129.90", "horario": "2026-11-23T10:00:00Z"}]}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 404);

        // Where they must not be.
        let mut found = Vec::new();
        let mut searched = 0;
        for (key, endpoint) in [
            (server.demo_key.as_str(), demo_endpoint.as_str()),
            (live_key.as_str(), live_endpoint.as_str()),
        ] {
            for path in [
                "/webhook-endpoints".to_owned(),
                format!("/webhook-endpoints/{endpoint}/deliveries?limit=200"),
            ] {
                let (status, body) = server.merchant(Method::GET, &path, key, None).await;
                assert_eq!(status, 200, "{path}: {body}");
                needles.found_in(&format!("GET {path}"), &body.to_string(), &mut found);
                searched += 1;
            }
        }
        for id in &intents {
            let key = if id == &live_intent {
                &live_key
            } else {
                &server.demo_key
            };
            let (status, body) = server.get_payment(key, id).await;
            assert_eq!(status, 200, "{body}");
            needles.found_in(
                &format!("GET /payments/{id}"),
                &body.to_string(),
                &mut found,
            );
            searched += 1;
        }
        // Every read of the admin API, for each thing it can be asked about.
        let admin_doc = document(&server, &format!("{}/openapi.json", server.admin)).await;
        let mut choices: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        choices.insert("store code", vec!["demo-store".into(), "acme-live".into()]);
        choices.insert("provider code", vec!["sandbox-a".into()]);
        choices.insert("merchant code", vec!["demo".into(), "acme".into()]);
        choices.insert(
            "step",
            vec!["policy".into(), "provider".into(), "economics".into()],
        );
        choices.insert("paymentIntentId", intents.clone());
        choices.insert("mandateId", mandates.clone());
        choices.insert("reconciliationId", runs.clone());
        for op in operations(&admin_doc)
            .iter()
            .filter(|op| op.starts_with("GET "))
        {
            let template = split_op(op).1;
            let mut paths = vec![template.to_owned()];
            for name in path_params(template) {
                let kind = match name.as_str() {
                    "code" if template.starts_with("/providers") => "provider code",
                    "code" if template.starts_with("/merchants") => "merchant code",
                    "code" => "store code",
                    other => other,
                };
                let options = choices.get(kind).unwrap_or_else(|| {
                    panic!("{op}: no values for {{{name}}}; add them to this test")
                });
                let pattern = format!("{{{name}}}");
                let mut expanded = Vec::new();
                for p in &paths {
                    for v in options {
                        expanded.push(p.replace(&pattern, v));
                    }
                }
                paths = expanded;
            }
            if template == "/lookup" {
                paths = intents.iter().map(|id| format!("/lookup?q={id}")).collect();
            }
            if template == "/api-keys" {
                paths = vec![
                    "/api-keys?merchant=demo".into(),
                    "/api-keys?merchant=acme".into(),
                ];
            }
            if template.starts_with("/settlements") {
                let today = pixgate_e2e::rec::today();
                paths = vec![format!(
                    "{template}?from={}&to={}",
                    today.add_days(-10),
                    today.add_days(60)
                )];
            }
            for path in paths {
                // The CSV exports are read as the text they are.
                let (status, body) = if template.ends_with(".csv") {
                    let (status, _, text) = server.admin_get_text(&path).await;
                    (status, text)
                } else {
                    let (status, body) = server.admin_get(&path).await;
                    (status, body.to_string())
                };
                assert!(
                    status == 200 || status == 404,
                    "GET {path}: {status} {body}"
                );
                needles.found_in(&format!("admin GET {path}"), &body, &mut found);
                searched += 1;
            }
        }
        let metrics = server.metrics().await;
        assert!(metrics.contains("pixgate_psp_calls_total"), "{metrics}");
        needles.found_in("/metrics", &metrics, &mut found);
        // The log last: let the lines of the last requests arrive.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let logs = without_ansi(&server.logs());
        assert!(logs.contains(" DEBUG "), "the log is at debug:\n{logs}");
        assert!(
            logs.contains("answered"),
            "the request log is captured:\n{logs}"
        );
        needles.found_in("the server's log", &logs, &mut found);

        assert!(searched >= 20, "only {searched} responses searched");
        // The search itself finds what it looks for, in any case.
        let mut control = Vec::new();
        needles.found_in(
            "a control",
            &format!("{{\"x\":\"{}\"}}", shadow.email.to_uppercase()),
            &mut control,
        );
        assert_eq!(control.len(), 1, "{control:?}");
        assert!(
            found.is_empty(),
            "{backend:?}: found {} leak(s):\n  {}\n\nlog:\n{}",
            found.len(),
            found.join("\n  "),
            logs.lines()
                .filter(|l| needles.0.iter().any(|(_, v)| l.contains(v.as_str())))
                .take(40)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
