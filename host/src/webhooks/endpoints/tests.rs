//! The endpoint service built alone: a fresh database (SQLite in a temporary directory, and
//! PostgreSQL too when `PIXGATE_TEST_DATABASE_URL` is set), opened and migrated as the app
//! opens it, and only what the service takes. No HTTP, no `App::build`.

use std::sync::Arc;

use super::*;
use crate::db::catalog::{self, Merchant};
use crate::db::testing::fresh_databases;
use crate::metrics::Metrics;
use crate::webhooks::{WebhookArgs, Webhooks};
use serde_json::json;

/// The service over `db`, with the default webhook settings but at most `max_endpoints`.
fn service(db: &Db, max_endpoints: u32) -> Endpoints {
    let master_key = MasterKey::from_base64(&MasterKey::generate().unwrap()).unwrap();
    let args = WebhookArgs {
        allow_cidrs: String::new(),
        ca_file: None,
        retry_schedule: "5s".into(),
        retry_jitter_percent: 0,
        timeout: std::time::Duration::from_secs(3),
        disable_after: std::time::Duration::from_secs(3600),
        concurrency: 4,
        poll_interval: std::time::Duration::from_secs(1),
        max_endpoints,
        worker: false,
    };
    let webhooks = Arc::new(Webhooks::new(&args).unwrap());
    let delivery = Delivery::new(
        db.clone(),
        master_key.clone(),
        webhooks.clone(),
        Arc::new(Metrics::new()),
    );
    Endpoints::new(
        db.clone(),
        master_key,
        max_endpoints,
        delivery,
        webhooks.wake(),
    )
}

/// A merchant; its id.
async fn merchant(db: &Db, code: &str) -> String {
    let id = uuid::Uuid::new_v4().to_string();
    catalog::insert_merchant(
        &db.write,
        &Merchant {
            id: id.clone(),
            code: code.to_owned(),
            name: code.to_owned(),
            created_at: db::now_ms(),
        },
    )
    .await
    .unwrap();
    id
}

fn request(body: serde_json::Value) -> CreateEndpointRequest {
    serde_json::from_value(body).unwrap()
}

async fn create(
    endpoints: &Endpoints,
    merchant: &str,
    url: &str,
) -> Result<view::CreatedEndpoint, EndpointError> {
    endpoints
        .create(merchant, request(json!({"endpointUrl": url})))
        .await
}

/// A delivery of the endpoint in `status`, `claimed` by an attempt in flight or not.
async fn delivery(db: &Db, endpoint: &str, status: DeliveryStatus, claimed: bool) -> String {
    let now = db::now_ms();
    let id = uuid::Uuid::new_v4().to_string();
    sql::insert_delivery(
        &db.write,
        &sql::Delivery {
            id: id.clone(),
            endpoint_id: endpoint.to_owned(),
            event_id: None,
            refund_event_id: None,
            mandate_event_id: None,
            event_type: crate::webhooks::EventType::PaymentSucceeded,
            body: "{}".into(),
            status,
            attempts: 1,
            next_attempt_at: Some(if claimed { now + 60_000 } else { now }),
            claim_token: claimed.then(|| "in-flight".to_owned()),
            last_attempt_at: None,
            last_http_status: None,
            last_error: None,
            created_at: now,
            updated_at: now,
            completed_at: None,
        },
    )
    .await
    .unwrap();
    id
}

fn code(e: EndpointError) -> &'static str {
    match e {
        EndpointError::Invalid(invalid) => invalid.code,
        EndpointError::NotFound => "not_found",
        EndpointError::DeliveryNotFound => "delivery_not_found",
        EndpointError::IntentNotFound => "intent_not_found",
        EndpointError::MerchantNotFound(_) => "merchant_not_found",
        EndpointError::CursorNotFound => "cursor_not_found",
        EndpointError::Revoked => "revoked",
        EndpointError::NotActive(_) => "not_active",
        EndpointError::InFlight => "in_flight",
        EndpointError::Duplicate => "duplicate",
        EndpointError::LimitReached(_) => "limit_reached",
        EndpointError::Internal(e) => panic!("internal: {e}"),
    }
}

#[tokio::test]
async fn create_normalises_the_url_and_shows_the_secret_once() {
    for fresh in fresh_databases().await {
        let db = fresh.db.clone();
        let endpoints = service(&db, 16);
        let shop = merchant(&db, "shop").await;
        let rival = merchant(&db, "rival").await;

        let created = endpoints
            .create(
                &shop,
                request(json!({
                    "name": "orders",
                    "endpointUrl": "HTTPS://Shop.Example.com:443/hooks/../pix",
                    "events": ["payment.failed", "payment.pending", "payment.failed"],
                })),
            )
            .await
            .unwrap();
        let endpoint = &created.endpoint;
        assert_eq!(endpoint.endpoint_url, "https://shop.example.com/pix");
        assert_eq!(endpoint.name, "orders");
        assert_eq!(endpoint.events, ["payment.failed", "payment.pending"]);
        assert_eq!(endpoint.status, EndpointStatus::Active);
        assert!(endpoint.last_delivery.is_none());
        let secret = &created.signing_secret;
        let raw = base64::engine::general_purpose::STANDARD
            .decode(secret.strip_prefix("whsec_").expect("whsec_ prefix"))
            .unwrap();
        assert_eq!(raw.len(), 32);

        // Stored sealed; listed without it.
        let row = sql::endpoint(&db.read, &endpoint.endpoint_id)
            .await
            .unwrap()
            .unwrap();
        assert!(!row.secret_sealed.contains(secret.as_str()));
        assert!(!row.secret_sealed.contains(&secret[6..]));
        let listed = endpoints.list(&shop, Page::default()).await.unwrap();
        assert_eq!(listed.len(), 1);
        let listed = serde_json::to_value(&listed[0]).unwrap();
        assert!(listed.get("signingSecret").is_none(), "{listed}");
        assert!(!listed.to_string().contains(&secret[6..]));

        // The same URL spelled otherwise is a duplicate; another merchant may use it.
        let again = create(&endpoints, &shop, "https://shop.example.com/pix").await;
        assert_eq!(code(again.unwrap_err()), "duplicate");
        create(&endpoints, &rival, "https://shop.example.com/pix")
            .await
            .unwrap();

        // The URL rules, as the route answers them.
        for (url, refused) in [
            ("http://shop.example.com/", "endpoint_url_not_https"),
            ("https://u:p@shop.example.com/", "invalid_endpoint_url"),
            ("https://shop.example.com/#top", "invalid_endpoint_url"),
            ("https://shop.example.com:0/", "invalid_endpoint_url"),
            ("https://xn--zz.example/", "invalid_endpoint_url"),
            ("https://１２７.０.０.１/", "invalid_endpoint_url"),
        ] {
            let e = create(&endpoints, &shop, url).await.unwrap_err();
            assert_eq!(code(e), refused, "{url}");
        }
        let e = endpoints
            .create(
                &shop,
                request(json!({"endpointUrl": "https://a.example/", "events": []})),
            )
            .await
            .unwrap_err();
        assert_eq!(code(e), "invalid_events");
        // Nothing refused was written.
        assert_eq!(
            endpoints.list(&shop, Page::default()).await.unwrap().len(),
            1
        );
    }
}

#[tokio::test]
async fn a_merchant_has_at_most_the_configured_live_endpoints() {
    for fresh in fresh_databases().await {
        let db = fresh.db.clone();
        let endpoints = service(&db, 2);
        let shop = merchant(&db, "shop").await;
        let first = create(&endpoints, &shop, "https://a.example/")
            .await
            .unwrap();
        create(&endpoints, &shop, "https://b.example/")
            .await
            .unwrap();
        let full = create(&endpoints, &shop, "https://c.example/").await;
        assert!(
            matches!(full, Err(EndpointError::LimitReached(2))),
            "{full:?}"
        );
        // A revoked endpoint does not count.
        endpoints
            .revoke(&shop, &first.endpoint.endpoint_id)
            .await
            .unwrap();
        create(&endpoints, &shop, "https://c.example/")
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn lists_come_in_pages_of_the_merchants_own_endpoints() {
    for fresh in fresh_databases().await {
        let db = fresh.db.clone();
        let endpoints = service(&db, 16);
        let shop = merchant(&db, "shop").await;
        let rival = merchant(&db, "rival").await;
        for host in ["a", "b", "c", "d"] {
            create(&endpoints, &shop, &format!("https://{host}.example/"))
                .await
                .unwrap();
        }
        let theirs = create(&endpoints, &rival, "https://r.example/")
            .await
            .unwrap();

        let page = |limit: Option<i64>, cursor: Option<&str>| Page {
            limit,
            cursor: cursor.map(str::to_owned),
        };
        let first = endpoints.list(&shop, page(Some(3), None)).await.unwrap();
        assert_eq!(first.len(), 3);
        let second = endpoints
            .list(&shop, page(Some(3), Some(&first[2].endpoint_id)))
            .await
            .unwrap();
        assert_eq!(second.len(), 1);
        let mut seen: Vec<&str> = first
            .iter()
            .chain(&second)
            .map(|e| e.endpoint_url.as_str())
            .collect();
        seen.sort_unstable();
        assert_eq!(
            seen,
            [
                "https://a.example/",
                "https://b.example/",
                "https://c.example/",
                "https://d.example/"
            ]
        );
        assert_eq!(
            endpoints.list(&shop, Page::default()).await.unwrap().len(),
            4
        );

        for (asked, refused) in [
            (page(Some(0), None), "invalid_limit"),
            (page(Some(201), None), "invalid_limit"),
            (page(None, Some("not-an-id")), "invalid_after"),
            // Another merchant's endpoint is no cursor of this list.
            (page(None, Some(&theirs.endpoint.endpoint_id)), "not_found"),
        ] {
            let e = endpoints.list(&shop, asked.clone()).await.unwrap_err();
            assert_eq!(code(e), refused, "{asked:?}");
        }
    }
}

#[tokio::test]
async fn revoke_cancels_pending_deliveries_and_a_revoked_endpoint_refuses_the_rest() {
    for fresh in fresh_databases().await {
        let db = fresh.db.clone();
        let endpoints = service(&db, 16);
        let shop = merchant(&db, "shop").await;
        let rival = merchant(&db, "rival").await;
        let id = create(&endpoints, &shop, "https://shop.example/hooks")
            .await
            .unwrap()
            .endpoint
            .endpoint_id;
        let pending = delivery(&db, &id, DeliveryStatus::Pending, false).await;
        let exhausted = delivery(&db, &id, DeliveryStatus::Exhausted, false).await;

        // Another merchant's endpoint, or an id that is not one, does not exist.
        for (who, endpoint) in [(rival.as_str(), id.as_str()), (shop.as_str(), "not-a-uuid")] {
            let unknown = |r: Result<_, EndpointError>| code(r.expect_err("refused"));
            assert_eq!(
                unknown(endpoints.revoke(who, endpoint).await.map(drop)),
                "not_found"
            );
            assert_eq!(
                unknown(endpoints.enable(who, endpoint).await.map(drop)),
                "not_found"
            );
            assert_eq!(
                unknown(endpoints.test(who, endpoint).await.map(drop)),
                "not_found"
            );
            assert_eq!(
                unknown(
                    endpoints
                        .deliveries(who, endpoint, Ok(Page::default()))
                        .await
                        .map(drop)
                ),
                "not_found"
            );
            assert_eq!(
                unknown(endpoints.resend(who, endpoint, &pending).await.map(drop)),
                "not_found"
            );
        }

        // The id in capitals is the same endpoint.
        let revoked = endpoints.revoke(&shop, &id.to_uppercase()).await.unwrap();
        assert_eq!(revoked.status, EndpointStatus::Revoked);
        let canceled = sql::delivery(&db.read, &pending).await.unwrap().unwrap();
        assert_eq!(canceled.status, DeliveryStatus::Canceled);
        assert_eq!(canceled.last_error.as_deref(), Some("endpoint_revoked"));
        let untouched = sql::delivery(&db.read, &exhausted).await.unwrap().unwrap();
        assert_eq!(untouched.status, DeliveryStatus::Exhausted);
        // Again: the same answer.
        let again = endpoints.revoke(&shop, &id).await.unwrap();
        assert_eq!(again.status, EndpointStatus::Revoked);

        // What a revoked endpoint refuses over HTTP.
        assert_eq!(
            code(endpoints.test(&shop, &id).await.unwrap_err()),
            "revoked"
        );
        assert_eq!(
            code(endpoints.enable(&shop, &id).await.unwrap_err()),
            "revoked"
        );
        let resend = endpoints.resend(&shop, &id, &exhausted).await.unwrap_err();
        assert!(
            matches!(resend, EndpointError::NotActive(EndpointStatus::Revoked)),
            "{resend:?}"
        );
        assert_eq!(resend.to_string(), "this webhook endpoint is REVOKED");
        // Its deliveries can still be read.
        let log = endpoints
            .deliveries(&shop, &id, Ok(Page::default()))
            .await
            .unwrap();
        assert_eq!(log.len(), 2);
        // And its URL is free again.
        create(&endpoints, &shop, "https://shop.example/hooks")
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn enable_restores_a_disabled_endpoint_with_a_clean_record() {
    for fresh in fresh_databases().await {
        let db = fresh.db.clone();
        let endpoints = service(&db, 16);
        let shop = merchant(&db, "shop").await;
        let id = create(&endpoints, &shop, "https://shop.example/hooks")
            .await
            .unwrap()
            .endpoint
            .endpoint_id;
        sqlx::query(
            "update webhook_endpoints set status = 'DISABLED', failure_count = 7, \
             failing_since = 1, disabled_at = 2 where id = $1",
        )
        .bind(&id)
        .execute(&db.write)
        .await
        .unwrap();
        let enabled = endpoints.enable(&shop, &id).await.unwrap();
        assert_eq!(
            (enabled.status, enabled.failure_count),
            (EndpointStatus::Active, 0)
        );
        // An ACTIVE endpoint answers the same.
        let again = endpoints.enable(&shop, &id).await.unwrap();
        assert_eq!(again.status, EndpointStatus::Active);
    }
}

#[tokio::test]
async fn deliveries_are_listed_and_resent_for_an_active_endpoint() {
    for fresh in fresh_databases().await {
        let db = fresh.db.clone();
        let endpoints = service(&db, 16);
        let shop = merchant(&db, "shop").await;
        let id = create(&endpoints, &shop, "https://shop.example/hooks")
            .await
            .unwrap()
            .endpoint
            .endpoint_id;
        let other = create(&endpoints, &shop, "https://other.example/hooks")
            .await
            .unwrap()
            .endpoint
            .endpoint_id;
        let exhausted = delivery(&db, &id, DeliveryStatus::Exhausted, false).await;
        let in_flight = delivery(&db, &id, DeliveryStatus::Pending, true).await;
        let elsewhere = delivery(&db, &other, DeliveryStatus::Exhausted, false).await;

        let log = endpoints
            .deliveries(&shop, &id, Ok(Page::default()))
            .await
            .unwrap();
        let mut ids: Vec<&str> = log.iter().map(|d| d.delivery_id.as_str()).collect();
        ids.sort_unstable();
        let mut expected = [exhausted.as_str(), in_flight.as_str()];
        expected.sort_unstable();
        assert_eq!(ids, expected);

        // The query is judged once the endpoint is found.
        let unreadable = || Err(EndpointError::invalid_limit());
        let e = endpoints
            .deliveries(&shop, &id, unreadable())
            .await
            .unwrap_err();
        assert_eq!(code(e), "invalid_limit");
        let unknown = uuid::Uuid::new_v4().to_string();
        let e = endpoints
            .deliveries(&shop, &unknown, unreadable())
            .await
            .unwrap_err();
        assert_eq!(code(e), "not_found");
        for (cursor, refused) in [
            ("not-an-id", "invalid_before"),
            (elsewhere.as_str(), "cursor_not_found"),
        ] {
            let page = Page {
                limit: None,
                cursor: Some(cursor.to_owned()),
            };
            let e = endpoints
                .deliveries(&shop, &id, Ok(page))
                .await
                .unwrap_err();
            assert_eq!(code(e), refused, "{cursor}");
        }

        let resent = endpoints.resend(&shop, &id, &exhausted).await.unwrap();
        assert_eq!(resent.status, DeliveryStatus::Pending);
        assert!(resent.next_attempt_at.is_some());
        let e = endpoints.resend(&shop, &id, &in_flight).await.unwrap_err();
        assert_eq!(code(e), "in_flight");
        // A delivery of another endpoint, or no delivery at all.
        for delivery in [elsewhere.as_str(), "not-a-uuid", &unknown] {
            let e = endpoints.resend(&shop, &id, delivery).await.unwrap_err();
            assert_eq!(code(e), "delivery_not_found", "{delivery}");
        }
    }
}

/// A test delivery to an address webhooks may not reach is recorded as FAILED, without
/// counting toward the endpoint's failures.
#[tokio::test]
async fn a_test_to_a_refused_address_fails_and_is_recorded() {
    for fresh in fresh_databases().await {
        let db = fresh.db.clone();
        let endpoints = service(&db, 16);
        let shop = merchant(&db, "shop").await;
        let id = create(&endpoints, &shop, "https://127.0.0.1:9/hooks")
            .await
            .unwrap()
            .endpoint
            .endpoint_id;
        let result = endpoints.test(&shop, &id).await.unwrap();
        assert_eq!(result.status, DeliveryStatus::Failed);
        assert!(
            result
                .error
                .as_deref()
                .is_some_and(|e| e.starts_with("target_refused")),
            "{result:?}"
        );
        let listed = endpoints.list(&shop, Page::default()).await.unwrap();
        assert_eq!(listed[0].failure_count, 0);
        let last = listed[0].last_delivery.as_ref().expect("the test delivery");
        assert_eq!(
            (last.delivery_id.as_str(), last.event.as_str(), last.status),
            (
                result.delivery_id.as_str(),
                "webhook.test",
                DeliveryStatus::Failed
            )
        );
    }
}
