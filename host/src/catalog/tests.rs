//! The catalog built alone, on a fresh database of each backend the run covers
//! ([`crate::db::testing`]): no HTTP, no `App`.

use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::json;

use super::*;
use crate::access::Actor;
use crate::db::testing::fresh_databases;
use pixgate_domain::StoreMode;

/// The catalog with the caches it clears; the store cache keeps an entry for an hour, so a
/// change is seen only if the catalog cleared it.
fn catalog(db: &Db) -> (Catalog, Arc<StoreCache>, Arc<KeyCache>) {
    let stores = Arc::new(StoreCache::new(Duration::from_secs(3600)));
    let keys = Arc::new(KeyCache::new(db.backend));
    (
        Catalog::new(db.clone(), stores.clone(), keys.clone()),
        stores,
        keys,
    )
}

/// A request body as the admin API parses it.
fn body<T: DeserializeOwned>(value: serde_json::Value) -> T {
    serde_json::from_value(value).expect("a body of the documented type")
}

/// The code and field of a 400-class refusal.
fn invalid(e: CatalogError) -> (&'static str, Option<String>) {
    match e {
        CatalogError::Invalid(Invalid { code, field, .. }) => (code, field),
        other => panic!("not Invalid: {other:?}"),
    }
}

async fn merchant_and_store(catalog: &Catalog) {
    catalog
        .create_merchant(
            &Actor::bootstrap(),
            body(json!({"code": "acme", "name": " ACME Ltda "})),
        )
        .await
        .unwrap();
    catalog
        .create_store(
            &Actor::bootstrap(),
            body(json!({"code": "web", "name": "Web", "merchant": "acme",
                                  "mode": "SHADOW"})),
        )
        .await
        .unwrap();
}

async fn gateway(catalog: &Catalog, alias: &str) {
    catalog
        .create_gateway(
            &Actor::bootstrap(),
            body(json!({"providerCode": "psp", "gatewayAlias": alias,
                                    "releaseClass": "D1", "feeTerms": {"mdrBps": 100}})),
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn merchants_are_unique_by_code_and_named_trimmed() {
    for t in fresh_databases().await {
        let (catalog, _, _) = catalog(&t.db);
        let created = catalog
            .create_merchant(
                &Actor::bootstrap(),
                body(json!({"code": "acme", "name": "  ACME  "})),
            )
            .await
            .unwrap();
        assert_eq!(
            (created.code.as_str(), created.name.as_str()),
            ("acme", "ACME")
        );
        let again = catalog
            .create_merchant(
                &Actor::bootstrap(),
                body(json!({"code": "acme", "name": "Other"})),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(again, CatalogError::MerchantCodeTaken),
            "{again:?}"
        );
        let bad = catalog
            .create_merchant(
                &Actor::bootstrap(),
                body(json!({"code": "a b", "name": "\n"})),
            )
            .await
            .unwrap_err();
        assert_eq!(invalid(bad), ("invalid_code", Some("code".into())));
        let all = catalog.list_merchants().await.unwrap();
        assert_eq!(all.len(), 1);
    }
}

#[tokio::test]
async fn stores_are_created_and_changed_by_their_rules() {
    for t in fresh_databases().await {
        let (catalog, stores, _) = catalog(&t.db);
        merchant_and_store(&catalog).await;

        // Created with the defaults.
        let web = catalog.get_store("web").await.unwrap();
        assert_eq!(web.merchant, "acme");
        assert_eq!(web.mode, StoreMode::Shadow);
        assert!(!web.live_enabled);
        assert_eq!(web.charge_expiry_seconds, 86_400);
        assert!(web.gateways.is_empty() && web.config.is_empty());

        // Refusals, each naming its rule.
        let e = catalog
            .create_store(
                &Actor::bootstrap(),
                body(json!({"code": "web", "name": "Again", "merchant": "acme",
                                      "mode": "LIVE"})),
            )
            .await
            .unwrap_err();
        assert!(matches!(e, CatalogError::StoreCodeTaken), "{e:?}");
        let e = catalog
            .create_store(
                &Actor::bootstrap(),
                body(json!({"code": "app", "name": "App", "merchant": "nobody",
                                      "mode": "LIVE"})),
            )
            .await
            .unwrap_err();
        assert_eq!(e.to_string(), "merchant `nobody` not found");
        let e = catalog
            .create_store(
                &Actor::bootstrap(),
                body(json!({"code": "app", "name": "App", "merchant": "acme",
                                      "mode": "LIVE", "chargeExpirySeconds": 59})),
            )
            .await
            .unwrap_err();
        assert_eq!(
            invalid(e),
            ("invalid_charge_expiry", Some("chargeExpirySeconds".into()))
        );
        let e = catalog
            .create_store(
                &Actor::bootstrap(),
                body(json!({"code": "app", "name": "App", "merchant": "acme",
                                      "mode": "LIVE",
                                      "config": {"routing.max-attempts": "11"}})),
            )
            .await
            .unwrap_err();
        assert_eq!(
            invalid(e),
            (
                "invalid_store_config",
                Some("config.routing.max-attempts".into())
            )
        );

        // A PATCH finds its store before it looks at the changes.
        let bad_name = || body::<PatchStore>(json!({"name": " "}));
        let e = catalog
            .patch_store(&Actor::bootstrap(), "nowhere", bad_name())
            .await
            .unwrap_err();
        assert_eq!(e.to_string(), "store `nowhere` not found");
        let e = catalog
            .patch_store(&Actor::bootstrap(), "no such/code", bad_name())
            .await
            .unwrap_err();
        assert_eq!(e.to_string(), "store not found");
        let e = catalog
            .patch_store(&Actor::bootstrap(), "web", bad_name())
            .await
            .unwrap_err();
        assert_eq!(invalid(e), ("invalid_name", Some("name".into())));

        // A refused change changes nothing, not even the fields that were fine.
        let e = catalog
            .patch_store(
                &Actor::bootstrap(),
                "web",
                body(json!({"name": "Renamed", "config": {
                    "limits.min-amount-centavos": "500", "limits.max-amount-centavos": "100"}})),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(&e, CatalogError::Unprocessable { code: "invalid_store_config", field, .. }
                if field == "config.limits.min-amount-centavos"),
            "{e:?}"
        );
        assert_eq!(catalog.get_store("web").await.unwrap().name, "Web");

        // The charge path's cached store is forgotten by a change.
        let cached = stores.get(&t.db, "web").await.unwrap().unwrap();
        assert_eq!(cached.store.mode, StoreMode::Shadow);
        let changed = catalog
            .patch_store(
                &Actor::bootstrap(),
                "web",
                body(
                    json!({"mode": "LIVE", "liveEnabled": true, "chargeExpirySeconds": 600,
                            "config": {"routing.policy": "lowest-cost"}, "name": null}),
                ),
            )
            .await
            .unwrap();
        assert_eq!(changed.mode, StoreMode::Live);
        assert!(changed.live_enabled);
        assert_eq!(changed.charge_expiry_seconds, 600);
        assert_eq!(changed.name, "Web");
        assert_eq!(changed.config["routing.policy"], "lowest-cost");
        let cached = stores.get(&t.db, "web").await.unwrap().unwrap();
        assert_eq!(cached.store.mode, StoreMode::Live);
        assert!(cached.store.live_enabled.0);
    }
}

#[tokio::test]
async fn putting_gateways_replaces_the_set_all_or_nothing() {
    for t in fresh_databases().await {
        let (catalog, stores, _) = catalog(&t.db);
        merchant_and_store(&catalog).await;
        for alias in ["g1", "g2", "g3"] {
            gateway(&catalog, alias).await;
        }
        let put = |aliases: serde_json::Value| body::<StoreGateways>(json!({"gateways": aliases}));
        let routed = |route: &crate::db::store_cache::StoreRoute| {
            route
                .gateways
                .iter()
                .map(|g| g.alias.clone())
                .collect::<Vec<_>>()
        };

        // No grants: every active gateway.
        let route = stores.get(&t.db, "web").await.unwrap().unwrap();
        assert_eq!(routed(&route), ["g1", "g2", "g3"]);

        // Repeated aliases count once.
        let view = catalog
            .put_store_gateways(&Actor::bootstrap(), "web", put(json!(["g2", "g1", "g2"])))
            .await
            .unwrap();
        assert_eq!(view.gateways, ["g1", "g2"]);
        let route = stores.get(&t.db, "web").await.unwrap().unwrap();
        assert_eq!(routed(&route), ["g1", "g2"]);

        // An unknown alias, after a known one: nothing changes.
        let e = catalog
            .put_store_gateways(&Actor::bootstrap(), "web", put(json!(["g3", "missing"])))
            .await
            .unwrap_err();
        assert_eq!(e.to_string(), "gateway `missing` not found");
        assert_eq!(
            catalog.get_store("web").await.unwrap().gateways,
            ["g1", "g2"]
        );

        // The aliases are checked before the store is looked for.
        let e = catalog
            .put_store_gateways(
                &Actor::bootstrap(),
                "nowhere",
                put(json!(["g1", "not a code"])),
            )
            .await
            .unwrap_err();
        assert_eq!(invalid(e), ("invalid_code", Some("gateways[1]".into())));
        let e = catalog
            .put_store_gateways(&Actor::bootstrap(), "nowhere", put(json!(["g1"])))
            .await
            .unwrap_err();
        assert!(matches!(e, CatalogError::StoreNotFound(Some(_))), "{e:?}");

        let view = catalog
            .put_store_gateways(&Actor::bootstrap(), "web", put(json!(["g3"])))
            .await
            .unwrap();
        assert_eq!(view.gateways, ["g3"]);
        // Emptied: every active gateway again.
        let view = catalog
            .put_store_gateways(&Actor::bootstrap(), "web", put(json!([])))
            .await
            .unwrap();
        assert!(view.gateways.is_empty());

        // A gateway switched off leaves the route at once.
        catalog
            .patch_gateway(&Actor::bootstrap(), "g2", body(json!({"active": false})))
            .await
            .unwrap();
        let route = stores.get(&t.db, "web").await.unwrap().unwrap();
        assert_eq!(routed(&route), ["g1", "g3"]);
    }
}

#[tokio::test]
async fn gateways_keep_their_fee_rules() {
    for t in fresh_databases().await {
        let (catalog, _, _) = catalog(&t.db);
        gateway(&catalog, "g1").await;
        let e = catalog
            .create_gateway(
                &Actor::bootstrap(),
                body(json!({"providerCode": "psp", "gatewayAlias": "g1",
                                        "releaseClass": "D0", "feeTerms": {"mdrBps": 0}})),
            )
            .await
            .unwrap_err();
        assert!(matches!(e, CatalogError::GatewayAliasTaken), "{e:?}");
        let e = catalog
            .create_gateway(
                &Actor::bootstrap(),
                body(json!({"providerCode": "psp", "gatewayAlias": "g2",
                                        "releaseClass": "D366", "feeTerms": {"mdrBps": 0}})),
            )
            .await
            .unwrap_err();
        assert_eq!(
            invalid(e),
            ("invalid_release_class", Some("releaseClass".into()))
        );
        let e = catalog
            .create_gateway(
                &Actor::bootstrap(),
                body(json!({"providerCode": "psp", "gatewayAlias": "g2",
                                        "releaseClass": "D0", "feeTerms": {"mdrBps": 10001}})),
            )
            .await
            .unwrap_err();
        assert_eq!(
            invalid(e),
            ("invalid_fee_terms", Some("feeTerms.mdrBps".into()))
        );

        // The gateway is found before the terms are checked; refused terms change nothing.
        let floor_above_cap = || {
            body::<PatchGateway>(json!({"active": false, "feeTerms": {"mdrBps": 50,
                                        "minFeeCentavos": 10, "maxFeeCentavos": 9}}))
        };
        let e = catalog
            .patch_gateway(&Actor::bootstrap(), "nowhere", floor_above_cap())
            .await
            .unwrap_err();
        assert_eq!(e.to_string(), "gateway `nowhere` not found");
        let e = catalog
            .patch_gateway(&Actor::bootstrap(), "g1", floor_above_cap())
            .await
            .unwrap_err();
        assert!(
            matches!(&e, CatalogError::Unprocessable { code: "invalid_fee_terms", field, .. }
                if field == "feeTerms.maxFeeCentavos"),
            "{e:?}"
        );
        let all = catalog.list_gateways().await.unwrap();
        assert!(all[0].active);
        assert_eq!(all[0].fee_terms.mdr_bps.0, 100);

        let changed = catalog
            .patch_gateway(
                &Actor::bootstrap(),
                "g1",
                body(json!({"feeTerms": {"mdrBps": 50, "fixedCentavos": 5,
                                         "maxFeeCentavos": 900}})),
            )
            .await
            .unwrap();
        let terms = &changed.fee_terms;
        assert_eq!(
            (
                terms.mdr_bps.0,
                terms.fixed_centavos.0,
                terms.min_fee_centavos.0,
                terms.max_fee_centavos.map(|m| m.0)
            ),
            (50, 5, 0, Some(900))
        );
    }
}

#[tokio::test]
async fn api_keys_are_issued_for_the_merchants_stores_and_revoked_at_once() {
    for t in fresh_databases().await {
        let (catalog, _, keys) = catalog(&t.db);
        merchant_and_store(&catalog).await;
        catalog
            .create_merchant(
                &Actor::bootstrap(),
                body(json!({"code": "other", "name": "Other"})),
            )
            .await
            .unwrap();
        catalog
            .create_store(
                &Actor::bootstrap(),
                body(json!({"code": "theirs", "name": "Theirs",
                                      "merchant": "other", "mode": "SHADOW"})),
            )
            .await
            .unwrap();

        let e = catalog
            .create_api_key(
                &Actor::bootstrap(),
                body(json!({"merchant": "acme", "stores": ["web", "theirs"]})),
            )
            .await
            .unwrap_err();
        assert_eq!(e.to_string(), "merchant has no store `theirs`");
        let e = catalog
            .create_api_key(
                &Actor::bootstrap(),
                body(json!({"merchant": "acme", "stores": ["web", "a/b"]})),
            )
            .await
            .unwrap_err();
        assert_eq!(invalid(e), ("invalid_code", Some("stores[1]".into())));
        // Nothing was issued by the refusals.
        assert!(catalog.list_api_keys("acme").await.unwrap().is_empty());

        let issued = catalog
            .create_api_key(
                &Actor::bootstrap(),
                body(json!({"merchant": "acme", "stores": ["web", "web"]})),
            )
            .await
            .unwrap();
        let secret = issued.api_key.clone().expect("the secret, once");
        assert_eq!(issued.stores, ["web"]);
        assert_eq!(issued.scopes, crate::access::Scope::DEFAULT);
        let hash = pixgate_domain::sha256_hex(&secret);

        // Authentication finds it (and, on SQLite, keeps it in the cache).
        let found = keys.authenticate(&t.db, &hash).await.unwrap().unwrap();
        assert_eq!(found.merchant_code, "acme");
        assert_eq!(found.key.revoked_at, None);

        let listed = catalog.list_api_keys("acme").await.unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].api_key, None, "never the secret again");

        let revoked = catalog
            .revoke_api_key(&Actor::bootstrap(), &issued.key_id)
            .await
            .unwrap();
        assert!(revoked.revoked_at.is_some());
        // The cached key is gone: authentication sees the revocation at once.
        let found = keys.authenticate(&t.db, &hash).await.unwrap().unwrap();
        assert!(found.key.revoked_at.is_some());
        // Revoking again answers the same.
        let again = catalog
            .revoke_api_key(&Actor::bootstrap(), &issued.key_id)
            .await
            .unwrap();
        assert_eq!(again.revoked_at, revoked.revoked_at);

        let e = catalog
            .revoke_api_key(&Actor::bootstrap(), &uuid::Uuid::now_v7().to_string())
            .await
            .unwrap_err();
        assert!(matches!(e, CatalogError::ApiKeyNotFound), "{e:?}");
        for merchant in ["nobody", "not a code"] {
            let e = catalog.list_api_keys(merchant).await.unwrap_err();
            assert_eq!(e.to_string(), "merchant not found");
        }
    }
}

#[test]
fn names_follow_the_pattern_and_are_stored_trimmed() {
    assert_eq!(check_name("  Shop  ", "name").unwrap(), "Shop");
    assert_eq!(check_name("\u{feff}Shop\u{3000}", "name").unwrap(), "Shop");
    assert!(check_name(&"a".repeat(200), "name").is_ok());
    for bad in [
        "",
        " ",
        "\u{feff}",
        " \u{3000} ",
        "a\u{0}b",
        "a\nb",
        "a\u{85}",
        &"a".repeat(201),
    ] {
        assert_eq!(
            check_name(bad, "name").unwrap_err().code,
            "invalid_name",
            "{bad:?}"
        );
    }
    // One character at a time: visible exactly when neither blank nor control.
    for c in (0..=0x10ffff_u32).filter_map(char::from_u32) {
        let visible = !c.is_control() && !c.is_whitespace() && c != '\u{feff}';
        assert_eq!(NAME.is_match(&c.to_string()), visible, "{c:?}");
    }
}
