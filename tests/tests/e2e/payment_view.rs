//! One payment as on-call sees it in the admin API, beside its trace: its refunds, the
//! webhook deliveries of its events with their attempts, and a resend, across merchants.

use std::time::Duration;

use pixgate_e2e::receiver::{Receiver, TestCa};
use pixgate_e2e::server::{Backend, Options, Server, backends, fresh_postgres_database};
use pixgate_e2e::webhooks::{pending_intent, settle};
use pixgate_webhook::DELIVERY_HEADER;
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(20);

async fn start(backend: Backend, ca: &TestCa) -> Server {
    let database_url = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(fresh_postgres_database().await),
    };
    Server::launch(Options {
        database_url,
        env: vec![
            (
                "PIXGATE_WEBHOOK_CA_FILE".into(),
                ca.ca_file().display().to_string(),
            ),
            (
                "PIXGATE_WEBHOOK_ALLOW_CIDRS".into(),
                "127.0.0.0/8, ::1/128".into(),
            ),
            ("PIXGATE_WEBHOOK_POLL_INTERVAL".into(), "50ms".into()),
        ],
        data_dir: None,
    })
}

/// The deliveries the admin sees for `intent`, once `done` holds for them.
async fn deliveries_once(
    server: &Server,
    intent: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let (status, body) = server
            .admin_get(&format!("/payment-intents/{intent}/deliveries"))
            .await;
        assert_eq!(status, 200, "{body}");
        let list = body["data"].as_array().unwrap().clone();
        if done(&list) {
            return list;
        }
        assert!(std::time::Instant::now() < deadline, "{body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_payment_shows_its_deliveries_with_attempts_and_the_admin_resends_one() {
    for backend in backends() {
        let ca = TestCa::new();
        let receiver = Receiver::start(&ca).await;
        let server = start(backend, &ca).await;
        let key = server
            .merchant_with_store("acme", "acme-store", "LIVE")
            .await;
        let (status, body) = server
            .create_endpoint(&key, &receiver.url("/hooks"), None)
            .await;
        assert_eq!(status, 201, "{body}");
        let endpoint = body["data"]["endpointId"].as_str().unwrap().to_owned();

        let db = server.open_db().await;
        let intent = pending_intent(&db, "acme-store", "order-7").await;
        settle(&db, &intent, "SUCCEEDED").await;
        receiver.wait_for(2, WAIT).await;

        let list = deliveries_once(&server, &intent, |list| {
            list.len() == 2 && list.iter().all(|d| d["status"] == "DELIVERED")
        })
        .await;
        // Newest first, each with the endpoint it went to and its one answered attempt.
        let events: Vec<&str> = list.iter().map(|d| d["event"].as_str().unwrap()).collect();
        assert_eq!(
            events,
            ["payment.succeeded", "payment.pending"],
            "{backend:?}"
        );
        for d in &list {
            assert_eq!(d["endpointId"], endpoint.as_str());
            let attempts = d["attempts"].as_array().unwrap();
            assert_eq!(attempts.len(), 1, "{d}");
            assert_eq!(attempts[0]["httpStatus"], 200, "{d}");
        }

        // The admin resends the succeeded event: the same delivery, sent again.
        let delivery = list[0]["deliveryId"].as_str().unwrap().to_owned();
        let (status, body) = server
            .admin(
                reqwest::Method::POST,
                &format!("/webhook-deliveries/{delivery}/resend"),
                None,
            )
            .await;
        assert_eq!(status, 202, "{body}");
        assert_eq!(body["data"]["deliveryId"], delivery.as_str());
        let received = receiver.wait_for(3, WAIT).await;
        let sent: Vec<_> = received
            .iter()
            .filter(|r| r.header(DELIVERY_HEADER) == Some(delivery.as_str()))
            .collect();
        assert_eq!(sent.len(), 2, "sent once, then resent");
        assert_eq!(sent[0].body, sent[1].body, "the same event body");
        deliveries_once(&server, &intent, |list| {
            list[0]["attempts"].as_array().unwrap().len() == 2 && list[0]["status"] == "DELIVERED"
        })
        .await;

        // And its refunds: none yet.
        let (status, body) = server
            .admin_get(&format!("/payment-intents/{intent}/refunds"))
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"], serde_json::json!([]));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn unknown_payments_and_deliveries_are_not_found() {
    let server = Server::start(Backend::Sqlite).await;
    let unknown = uuid::Uuid::new_v4();
    for path in [
        format!("/payment-intents/{unknown}/deliveries"),
        format!("/payment-intents/{unknown}/refunds"),
        "/payment-intents/not-a-uuid/deliveries".to_owned(),
    ] {
        let (status, body) = server.admin_get(&path).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("payment_intent_not_found")),
            "{path}: {body}"
        );
    }
    for id in [unknown.to_string(), "nope".to_owned()] {
        let (status, body) = server
            .admin(
                reqwest::Method::POST,
                &format!("/webhook-deliveries/{id}/resend"),
                None,
            )
            .await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("webhook_delivery_not_found")),
            "{body}"
        );
    }
}
