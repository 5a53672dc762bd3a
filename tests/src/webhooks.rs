//! Webhook helpers: the merchant routes, and payment transitions written through the host's
//! outbox (the function live execution will call) into a running server's database.

use serde_json::{Value, json};

use crate::server::Server;

impl Server {
    /// A merchant API call with `key`; the status and the JSON body.
    pub async fn merchant(
        &self,
        method: reqwest::Method,
        path: &str,
        key: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(key);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let r = request.send().await.unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    /// `POST /webhook-endpoints` with `endpointUrl` and, when given, `events`.
    pub async fn create_endpoint(
        &self,
        key: &str,
        url: &str,
        events: Option<&[&str]>,
    ) -> (u16, Value) {
        let mut body = json!({"name": "orders", "endpointUrl": url});
        if let Some(events) = events {
            body["events"] = json!(events);
        }
        self.merchant(reqwest::Method::POST, "/webhook-endpoints", key, Some(body))
            .await
    }

    /// `POST /webhook-endpoints/{id}/{action}` (test, revoke, enable).
    pub async fn endpoint_action(&self, key: &str, id: &str, action: &str) -> (u16, Value) {
        self.merchant(
            reqwest::Method::POST,
            &format!("/webhook-endpoints/{id}/{action}"),
            key,
            None,
        )
        .await
    }

    /// `POST /webhook-endpoints/{endpoint}/deliveries/{delivery}/resend`.
    pub async fn resend(&self, key: &str, endpoint: &str, delivery: &str) -> (u16, Value) {
        self.merchant(
            reqwest::Method::POST,
            &format!("/webhook-endpoints/{endpoint}/deliveries/{delivery}/resend"),
            key,
            None,
        )
        .await
    }

    /// The endpoint as the list route shows it.
    pub async fn listed_endpoint(&self, key: &str, id: &str) -> Value {
        let (s, b) = self
            .merchant(reqwest::Method::GET, "/webhook-endpoints", key, None)
            .await;
        assert_eq!(s, 200, "{b}");
        b["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["endpointId"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("endpoint {id} not listed: {b}"))
    }

    /// The endpoint's deliveries, newest first.
    pub async fn deliveries(&self, key: &str, endpoint_id: &str) -> Vec<Value> {
        let (s, b) = self
            .merchant(
                reqwest::Method::GET,
                &format!("/webhook-endpoints/{endpoint_id}/deliveries?limit=200"),
                key,
                None,
            )
            .await;
        assert_eq!(s, 200, "{b}");
        b["data"].as_array().unwrap().clone()
    }

    /// The database URL the server uses (SQLite: the file in its data dir).
    pub fn db_url(&self) -> String {
        if self.database_url.is_empty() {
            format!(
                "sqlite://{}",
                self.data_dir.path().join("pixgate.db").display()
            )
        } else {
            self.database_url.clone()
        }
    }

    /// Opens the server's database from the test process.
    pub async fn open_db(&self) -> pixgate::db::Db {
        pixgate::db::Db::connect(&self.db_url(), 2).await.unwrap()
    }
}

/// Writes a LIVE-style intent in `PENDING` for `store` with its `payment.pending` event, the
/// way live execution will; returns its id.
pub async fn pending_intent(db: &pixgate::db::Db, store: &str, reference: &str) -> String {
    use pixgate::db::{catalog, intents};
    let store = catalog::store_by_code(&db.read, store)
        .await
        .unwrap()
        .expect("store exists");
    let now = pixgate::db::now_ms();
    let mut intent = intents::Intent::new(intents::NewIntent {
        id: uuid::Uuid::new_v4().to_string(),
        merchant_id: store.merchant_id.clone(),
        store_id: store.id.clone(),
        kind: pixgate_domain::ChargeKind::Immediate,
        amount_centavos: 12_990,
        reference: reference.into(),
        description: Some("Order".into()),
        payer_kind: pixgate_domain::TaxIdKind::Cpf,
        payer_sealed: "not-read-by-these-tests".into(),
        metadata: r#"{"orderId":"10042","attribution":{"utm_source":"newsletter"}}"#.into(),
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        routing: intents::Routing {
            mode: pixgate_domain::StoreMode::Live,
            policy: "d0-first".into(),
            provider_code: "sandbox-a".into(),
            gateway_alias: "sandbox-a-d0".into(),
            release_class: "D0".into(),
            cross_class_failover: false,
            fee_centavos: 100,
            net_centavos: 12_890,
            settlement_date: "2026-11-23".into(),
        },
        due_terms: None,
        recurring: Default::default(),
        created_at: now,
    });
    // Pending, as a LIVE charge its PSP created; never due for the reconciler: these tests
    // move the intent themselves.
    intent.status = pixgate_domain::IntentStatus::Pending;
    intent.completed_at = None;
    let mut tx = write_transaction(db).await;
    intents::insert(&mut *tx, &intent).await.unwrap();
    pixgate::webhooks::outbox::record_created(&mut tx, &intent)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    intent.id
}

/// A write transaction of the test process on the server's database. On SQLite it takes the
/// write lock first (`BEGIN IMMEDIATE`), waiting out the server's writes: a deferred one that
/// reads and then writes fails at once (SQLITE_BUSY, no busy wait for a snapshot that another
/// process's commit made stale) when the server commits in between.
pub async fn write_transaction(db: &pixgate::db::Db) -> sqlx::Transaction<'static, sqlx::Any> {
    match db.backend {
        pixgate::db::Backend::Sqlite => db.write.begin_with("BEGIN IMMEDIATE").await,
        pixgate::db::Backend::Postgres => db.write.begin().await,
    }
    .unwrap()
}

/// Moves a PENDING intent to `to` through the outbox.
pub async fn settle(
    db: &pixgate::db::Db,
    intent_id: &str,
    to: &str,
) -> pixgate::webhooks::outbox::Recorded {
    let mut tx = write_transaction(db).await;
    let recorded = pixgate::webhooks::outbox::record_transition(
        &mut tx,
        intent_id,
        pixgate::webhooks::outbox::Transition {
            to: to.parse().expect("an intent status"),
            provider_payment_id: Some("E2E-PSP-1"),
            failure: (to == "FAILED").then_some(("psp_declined", "the PSP declined the charge")),
            paid: None,
            at: pixgate::db::now_ms(),
        },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    recorded
}
