//! The charge service built alone, on a fresh database of each backend the run covers
//! ([`crate::db::testing`]): the real sandbox with the bundled components, the group commit,
//! the catalog to set a store up; no HTTP, no `App`.

use std::time::Duration;

use serde_json::json;

use super::*;
use crate::access::Actor;
use crate::access::Scope;
use crate::app::{ChargePath, ChargePathParts};
use crate::catalog::Catalog;
use crate::components::ComponentArgs;
use crate::components::Registry;
use crate::db::key_cache::KeyCache;
use crate::db::testing::fresh_databases;
use crate::psp::client::PspArgs;
use crate::psp::live::{Live, LiveArgs};
use crate::psp::providers::Providers;
use pixgate_domain::charge::CreatePaymentRequest;
use pixgate_sandbox::Limits;
use pixgate_sandbox::Sandbox;

/// The service over `db`, wired by `ChargePath::wire` as `App::build` wires it.
fn charges(db: &Db) -> Charges {
    charge_path(db).charges
}

/// The charge path's services over `db` (the charge service and those built on it), wired by
/// `ChargePath::wire` as `App::build` wires them.
pub(crate) fn charge_path(db: &Db) -> ChargePath {
    let master_key = MasterKey::from_base64(&MasterKey::generate().unwrap()).unwrap();
    let metrics = Arc::new(Metrics::new());
    let sandbox = Arc::new(Sandbox::new(Limits::default(), None).unwrap());
    let registry = Arc::new(Registry::new(&sandbox, ComponentArgs::default()).unwrap());
    let stores = Arc::new(StoreCache::new(StoreCache::TTL));
    let providers = Arc::new(Providers::new(PspArgs::default(), metrics.psp()));
    let wake = Wake::default();
    let live_args = LiveArgs {
        public_url: None,
        reconcile_interval: Duration::from_secs(30),
        lease: Duration::from_secs(60),
    };
    let commits = GroupCommit::spawn(
        db,
        group_commit::Settings {
            max_batch: 16,
            max_wait: Duration::ZERO,
            in_flight: 1,
        },
        metrics.commits(),
    );
    ChargePath::wire(ChargePathParts {
        db: db.clone(),
        master_key,
        sandbox,
        registry,
        stores,
        providers,
        metrics,
        live: Live::new(&live_args, "127.0.0.1:9".parse().unwrap()),
        commits,
        sandbox_calls_per_merchant: 2,
        wake,
        idempotency_retention_ms: 24 * 3_600_000,
        trace_retention: Duration::ZERO,
        mandate_push_expiry: Duration::from_secs(7 * 86_400),
        mandate_lead_days: 4,
    })
}

/// A request body as the admin API parses it.
fn body<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> T {
    serde_json::from_value(value).expect("a body of the documented type")
}

/// A merchant `acme` with a SHADOW store `web` on one gateway; the principal of a key granted
/// that store.
pub(crate) async fn shop(db: &Db) -> Principal {
    let catalog = Catalog::new(
        db.clone(),
        Arc::new(StoreCache::new(StoreCache::TTL)),
        Arc::new(KeyCache::new(db.backend)),
    );
    let merchant = catalog
        .create_merchant(
            &Actor::bootstrap(),
            body(json!({"code": "acme", "name": "ACME"})),
        )
        .await
        .unwrap();
    catalog
        .create_gateway(
            &Actor::bootstrap(),
            body(json!({"providerCode": "psp", "gatewayAlias": "psp-d1",
                                    "releaseClass": "D1", "feeTerms": {"mdrBps": 100}})),
        )
        .await
        .unwrap();
    let store = catalog
        .create_store(
            &Actor::bootstrap(),
            body(json!({"code": "web", "name": "Web", "merchant": "acme", "mode": "SHADOW"})),
        )
        .await
        .unwrap();
    catalog
        .put_store_gateways(
            &Actor::bootstrap(),
            "web",
            body(json!({"gateways": ["psp-d1"]})),
        )
        .await
        .unwrap();
    Principal {
        merchant_id: merchant.merchant_id,
        merchant_code: "acme".into(),
        scopes: vec![Scope::PaymentsCreate],
        store_ids: vec![store.store_id],
    }
}

fn charge(amount: &str, reference: &str) -> ChargeRequest {
    let body = json!({"amount": serde_json::from_str::<serde_json::Value>(amount).unwrap(),
        "currency": "BRL", "reference": reference, "store": "web",
        "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"}});
    let (store, charge) = CreatePaymentRequest::from_json(body).unwrap().split();
    charge
        .validate(store, "", crate::db::today_brasilia())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_charge_is_routed_recorded_and_replayed_for_the_same_key() {
    for t in fresh_databases().await {
        let charges = charges(&t.db);
        let principal = shop(&t.db).await;
        let key = IdempotencyKey::parse(b"order-1").unwrap();

        let first = charges
            .create(&principal, &key, charge("129.90", "order-1"), None)
            .await
            .unwrap();
        let first_body: serde_json::Value = serde_json::from_str(&first.body).unwrap();
        let data = &first_body["data"];
        assert_eq!(first.status, 200);
        assert_eq!(data["status"], "SHADOW_ONLY");
        assert_eq!(data["amount"], 129.9);
        assert_eq!(data["routing"]["gatewayAlias"], "psp-d1");
        assert!(data.get("idempotentReplay").is_none_or(|r| r == false));

        let again = charges
            .create(&principal, &key, charge("129.90", "order-1"), None)
            .await
            .unwrap();
        let again_body: serde_json::Value = serde_json::from_str(&again.body).unwrap();
        assert_eq!(
            again_body["data"]["paymentIntentId"],
            data["paymentIntentId"]
        );
        assert_eq!(again_body["data"]["idempotentReplay"], true);
        // The stored answer, byte for byte, but for the replay flag.
        assert_eq!(
            again.body,
            first.body.replacen(
                r#""idempotentReplay":false"#,
                r#""idempotentReplay":true"#,
                1
            )
        );

        let other = charges
            .create(&principal, &key, charge("130.00", "order-1"), None)
            .await
            .unwrap_err();
        assert!(matches!(other, ChargeError::KeyReused), "{other:?}");

        let id = data["paymentIntentId"].as_str().unwrap();
        let read = charges.get(&principal, id).await.unwrap();
        assert_eq!(read.data.payment_intent_id, id);
        let trace = charges.trace(id).await.unwrap();
        assert!(trace["pspCalls"].as_array().unwrap().is_empty());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_charge_is_refused_for_a_store_the_key_may_not_use() {
    for t in fresh_databases().await {
        let charges = charges(&t.db);
        let mut principal = shop(&t.db).await;
        let key = IdempotencyKey::parse(b"order-2").unwrap();
        principal.store_ids.clear();
        let refused = charges
            .create(&principal, &key, charge("10", "order-2"), None)
            .await
            .unwrap_err();
        assert!(
            matches!(refused, ChargeError::StoreNotGranted(ref s) if s == "web"),
            "{refused:?}"
        );

        principal.merchant_id = "someone-else".into();
        let unknown = charges
            .create(&principal, &key, charge("10", "order-2"), None)
            .await
            .unwrap_err();
        assert!(
            matches!(unknown, ChargeError::StoreNotFound(_)),
            "{unknown:?}"
        );
        let missing = charges
            .get(&principal, &uuid::Uuid::now_v7().to_string())
            .await
            .unwrap_err();
        assert!(
            matches!(missing, ChargeError::IntentNotFound),
            "{missing:?}"
        );
    }
}
