//! Finding payments end to end (DESIGN.md section 12): the merchant search `GET
//! /api/v1/payments`, the admin lists `GET /admin/v1/payment-intents` and `GET
//! /admin/v1/stores`, and the `pixgate admin stores list` / `payment-intents list` commands,
//! against a real `pixgate serve` on SQLite and (when `PIXGATE_TEST_DATABASE_URL` is set)
//! PostgreSQL.

use std::process::{Command, Output};

use pixgate_e2e::components::{activate, charge, upload_guest};
use pixgate_e2e::pixgate_bin;
use pixgate_e2e::server::{Server, backends};
use pixgate_e2e::webhooks::{pending_intent, settle};
use serde_json::{Value, json};

/// `url` with the query pairs, form-encoded.
fn with_query(url: &str, query: &[(&str, &str)]) -> reqwest::Url {
    let mut url = reqwest::Url::parse(url).unwrap();
    if !query.is_empty() {
        url.query_pairs_mut().extend_pairs(query);
    }
    url
}

/// `GET /payments` with `key` and the query pairs (encoded); the status and the body.
async fn search(server: &Server, key: &str, query: &[(&str, &str)]) -> (u16, Value) {
    let r = server
        .client
        .get(with_query(&format!("{}/payments", server.base), query))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// An admin list (`path` under `/admin/v1`) with the query pairs; the status and the body.
async fn admin_list(server: &Server, path: &str, query: &[(&str, &str)]) -> (u16, Value) {
    let r = server
        .client
        .get(with_query(&format!("{}{path}", server.admin), query))
        .bearer_auth(&server.admin_token)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// The page's items, asserting a 200.
fn items(status: u16, body: &Value) -> Vec<Value> {
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], true, "{body}");
    body["data"].as_array().unwrap().clone()
}

fn ids(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["paymentIntentId"].as_str().unwrap().to_owned())
        .collect()
}

/// The refusal's status, code and field.
fn refusal(status: u16, body: &Value) -> (u16, String, String) {
    assert_eq!(body["success"], false, "{body}");
    (
        status,
        body["error"]["code"].as_str().unwrap().to_owned(),
        body["error"]["field"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}

/// A SHADOW charge with `reference`; its intent.
async fn charged(server: &Server, key: &str, store: &str, reference: &str) -> Value {
    let (status, body) = server
        .charge(
            key,
            &uuid::Uuid::new_v4().to_string(),
            &charge(store, reference, 10.0),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

async fn created(server: &Server, path: &str, body: Value) -> Value {
    let (status, answer) = server.admin_post(path, body).await;
    assert_eq!(status, 201, "{path} {answer}");
    answer["data"].clone()
}

/// A merchant with stores (code, mode), each granted to the key returned.
async fn merchant(server: &Server, code: &str, stores: &[(&str, &str)]) -> String {
    created(server, "/merchants", json!({"code": code, "name": code})).await;
    for (store, mode) in stores {
        created(
            server,
            "/stores",
            json!({"code": store, "name": store, "merchant": code, "mode": mode}),
        )
        .await;
    }
    let codes: Vec<&str> = stores.iter().map(|(s, _)| *s).collect();
    key(server, code, &codes, None).await
}

/// A key of `merchant` granted `stores`, with `scopes` (the default ones when `None`).
async fn key(server: &Server, merchant: &str, stores: &[&str], scopes: Option<&[&str]>) -> String {
    let mut body = json!({"merchant": merchant, "stores": stores});
    if let Some(scopes) = scopes {
        body["scopes"] = json!(scopes);
    }
    created(server, "/api-keys", body).await["apiKey"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Newest first: createdAt, then paymentIntentId, both descending.
fn assert_newest_first(items: &[Value]) {
    let keys: Vec<(String, String)> = items
        .iter()
        .map(|i| {
            (
                i["createdAt"].as_str().unwrap().to_owned(),
                i["paymentIntentId"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    sorted.reverse();
    assert_eq!(keys, sorted, "not newest first");
}

/// Every item of `GET /payments` with `query`, following `after` with pages of `limit`.
async fn every_page(
    server: &Server,
    key: &str,
    query: &[(&str, &str)],
    limit: usize,
) -> Vec<Value> {
    let limit_text = limit.to_string();
    let mut all: Vec<Value> = Vec::new();
    loop {
        let after = all
            .last()
            .map(|i| i["paymentIntentId"].as_str().unwrap().to_owned());
        let mut q: Vec<(&str, &str)> = query.to_vec();
        q.push(("limit", &limit_text));
        if let Some(after) = &after {
            q.push(("after", after));
        }
        let (status, body) = search(server, key, &q).await;
        let page = items(status, &body);
        assert!(page.len() <= limit);
        let last = page.len() < limit;
        all.extend(page);
        if last {
            return all;
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_search_pages_through_the_keys_intents_newest_first_each_as_the_status_read_shows_it() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = &server.demo_key;
        let mut made = Vec::new();
        for n in 0..7 {
            made.push(charged(&server, key, "demo-store", &format!("order-{n}")).await);
        }
        // Everything in one page by default (20), newest first.
        let (status, body) = search(&server, key, &[]).await;
        let all = items(status, &body);
        assert_eq!(all.len(), 7, "{backend:?}");
        assert_newest_first(&all);
        let mut expected: Vec<String> = ids(&made);
        expected.reverse();
        assert_eq!(ids(&all), expected, "{backend:?}: the newest first");

        // Each item is exactly what GET /payments/{id} answers.
        for item in &all {
            let id = item["paymentIntentId"].as_str().unwrap();
            let (status, read) = server.get_payment(key, id).await;
            assert_eq!(status, 200, "{read}");
            assert_eq!(item, &read["data"], "{backend:?}");
        }

        // Pages of 3: 3, 3, then 1 (shorter: the last), the same items in the same order.
        let (status, body) = search(&server, key, &[("limit", "3")]).await;
        let first = items(status, &body);
        assert_eq!(ids(&first), expected[..3]);
        let (status, body) = search(&server, key, &[("limit", "3"), ("after", &expected[2])]).await;
        assert_eq!(ids(&items(status, &body)), expected[3..6]);
        let (status, body) = search(&server, key, &[("limit", "3"), ("after", &expected[5])]).await;
        assert_eq!(ids(&items(status, &body)), expected[6..]);
        assert_eq!(ids(&every_page(&server, key, &[], 3).await), expected);
        // A page after the last intent is empty; an exact multiple ends with an empty page.
        let (status, body) = search(&server, key, &[("after", &expected[6])]).await;
        assert!(items(status, &body).is_empty());
        assert_eq!(ids(&every_page(&server, key, &[], 7).await), expected);
        // `after` in any case, as a UUID is.
        let upper = expected[2].to_uppercase();
        let (status, body) = search(&server, key, &[("limit", "1"), ("after", &upper)]).await;
        assert_eq!(ids(&items(status, &body)), expected[3..4]);
        let (status, body) = search(&server, key, &[("limit", "100")]).await;
        assert_eq!(items(status, &body).len(), 7);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn each_filter_narrows_the_search_and_filters_combine() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = merchant(
            &server,
            "acme",
            &[("acme-web", "SHADOW"), ("acme-app", "SHADOW")],
        )
        .await;
        let mut made = Vec::new();
        for (store, reference) in [
            ("acme-web", "order-1"),
            ("acme-app", "order-2"),
            ("acme-web", "order-3"),
            ("acme-app", "order-1"),
            ("acme-web", "order-10"),
            ("acme-web", "Order-1"),
        ] {
            made.push(charged(&server, &key, store, reference).await);
        }
        let ids_of = |pick: &dyn Fn(&Value) -> bool| -> Vec<String> {
            let mut picked: Vec<String> =
                ids(&made.iter().filter(|i| pick(i)).cloned().collect::<Vec<_>>());
            picked.reverse();
            picked
        };
        let got = |status, body: Value| ids(&items(status, &body));

        // Both stores of the key, merged newest first.
        let (s, b) = search(&server, &key, &[]).await;
        assert_eq!(got(s, b), ids_of(&|_| true), "{backend:?}");
        // `store`.
        let (s, b) = search(&server, &key, &[("store", "acme-app")]).await;
        assert_eq!(got(s, b), ids_of(&|i| i["store"]["code"] == "acme-app"));
        // `reference`: exact (not a prefix, not case-insensitive), across the stores.
        let (s, b) = search(&server, &key, &[("reference", "order-1")]).await;
        assert_eq!(got(s, b), ids_of(&|i| i["reference"] == "order-1"));
        assert_eq!(ids_of(&|i| i["reference"] == "order-1").len(), 2);
        let (s, b) = search(&server, &key, &[("reference", "order")]).await;
        assert!(got(s, b).is_empty());
        // `status`: these are all SHADOW_ONLY.
        let (s, b) = search(&server, &key, &[("status", "SHADOW_ONLY")]).await;
        assert_eq!(got(s, b).len(), 6);
        let (s, b) = search(&server, &key, &[("status", "PENDING")]).await;
        assert!(got(s, b).is_empty());
        // `createdFrom` includes its instant, `createdTo` excludes its own: [from, to).
        let at = |n: usize| made[n]["createdAt"].as_str().unwrap().to_owned();
        let (from, to) = (at(1), at(4));
        let (s, b) = search(&server, &key, &[("createdFrom", &from), ("createdTo", &to)]).await;
        let window = ids_of(&|i| {
            let c = i["createdAt"].as_str().unwrap();
            c >= from.as_str() && c < to.as_str()
        });
        assert_eq!(got(s, b), window);
        assert!(window.contains(&ids(&made[1..2])[0]) && !window.contains(&ids(&made[4..5])[0]));
        // The same instants in another offset are the same window.
        let shift = |utc: &str| {
            let ms = pixgate_pix::time::parse_iso8601(utc).unwrap();
            pixgate_pix::time::iso8601(ms - 3 * 3_600_000).replace('Z', "-03:00")
        };
        let (s, b) = search(
            &server,
            &key,
            &[("createdFrom", &shift(&from)), ("createdTo", &shift(&to))],
        )
        .await;
        assert_eq!(got(s, b), window);
        // A window that ends where it starts, or before, holds nothing.
        let (s, b) = search(&server, &key, &[("createdFrom", &to), ("createdTo", &from)]).await;
        assert!(got(s, b).is_empty());
        // Everything at once: AND.
        let (s, b) = search(
            &server,
            &key,
            &[
                ("store", "acme-web"),
                ("reference", "order-1"),
                ("status", "SHADOW_ONLY"),
                ("createdFrom", &at(0)),
                ("createdTo", &at(5)),
            ],
        )
        .await;
        assert_eq!(got(s, b), ids(&made[0..1]));
        // Filters and pages together: the web store's four, two at a time.
        let paged = every_page(&server, &key, &[("store", "acme-web")], 2).await;
        assert_eq!(ids(&paged), ids_of(&|i| i["store"]["code"] == "acme-web"));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_status_filter_tells_pending_paid_failed_and_canceled_apart() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = merchant(&server, "shop", &[("shop-live", "LIVE")]).await;
        let db = server.open_db().await;
        let mut by_status: Vec<(&str, String)> = Vec::new();
        for (n, to) in ["PENDING", "SUCCEEDED", "FAILED", "CANCELED", "SUCCEEDED"]
            .into_iter()
            .enumerate()
        {
            let id = pending_intent(&db, "shop-live", &format!("order-{n}")).await;
            if to != "PENDING" {
                settle(&db, &id, to).await;
            }
            by_status.push((to, id));
        }
        for status in ["PENDING", "SUCCEEDED", "FAILED", "CANCELED"] {
            let (s, b) = search(&server, &key, &[("status", status)]).await;
            let page = items(s, &b);
            let mut expected: Vec<String> = by_status
                .iter()
                .filter(|(st, _)| *st == status)
                .map(|(_, id)| id.clone())
                .collect();
            expected.reverse();
            let mut got = ids(&page);
            // Written within one millisecond, two intents order by id: compare as sets.
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "{backend:?} {status}");
            for item in &page {
                assert_eq!(item["status"], status);
                let (_, read) = server
                    .get_payment(&key, item["paymentIntentId"].as_str().unwrap())
                    .await;
                // The read, but for the QR code a page leaves out unless asked.
                assert_eq!(item, &without_qr_code(&read["data"]));
            }
        }
        let (s, b) = search(
            &server,
            &key,
            &[("status", "SUCCEEDED"), ("reference", "order-4")],
        )
        .await;
        assert_eq!(ids(&items(s, &b)), vec![by_status[4].1.clone()]);
        let (s, b) = search(&server, &key, &[("status", "SHADOW_ONLY")]).await;
        assert!(items(s, &b).is_empty());
        let all = every_page(&server, &key, &[], 2).await;
        assert_eq!(all.len(), 5);
        assert_newest_first(&all);
    }
}

/// The ids `key` finds with `query`, sorted.
async fn visible(server: &Server, key: &str, query: &[(&str, &str)]) -> Vec<String> {
    let (s, b) = search(server, key, query).await;
    let mut got = ids(&items(s, &b));
    got.sort();
    got
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_never_sees_another_merchants_intents_nor_its_own_ungranted_stores() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let both = merchant(
            &server,
            "acme",
            &[("acme-web", "SHADOW"), ("acme-app", "SHADOW")],
        )
        .await;
        let web_only = key(&server, "acme", &["acme-web"], None).await;
        let other = merchant(&server, "rival", &[("rival-web", "SHADOW")]).await;
        let web = charged(&server, &both, "acme-web", "same-ref").await;
        let app = charged(&server, &both, "acme-app", "same-ref").await;
        let rival = charged(&server, &other, "rival-web", "same-ref").await;
        let demo = charged(&server, &server.demo_key, "demo-store", "same-ref").await;

        let sorted = |v: &[&Value]| {
            let mut ids: Vec<String> = v
                .iter()
                .map(|i| i["paymentIntentId"].as_str().unwrap().to_owned())
                .collect();
            ids.sort();
            ids
        };
        for query in [&[][..], &[("reference", "same-ref")]] {
            let visible = |key| visible(&server, key, query);
            assert_eq!(visible(&both).await, sorted(&[&web, &app]), "{backend:?}");
            assert_eq!(visible(&web_only).await, sorted(&[&web]), "{backend:?}");
            assert_eq!(visible(&other).await, sorted(&[&rival]), "{backend:?}");
            assert_eq!(visible(&server.demo_key).await, sorted(&[&demo]));
        }
        // Another merchant's store, or none: 404, as for a charge; one of the key's merchant
        // it is not granted: 403.
        for (key, store, expected) in [
            (&both, "rival-web", (404, "store_not_found")),
            (&both, "no-such-store", (404, "store_not_found")),
            (&web_only, "acme-app", (403, "store_not_granted")),
            (&other, "acme-web", (404, "store_not_found")),
        ] {
            let (s, b) = search(&server, key, &[("store", store)]).await;
            let (status, code, _) = refusal(s, &b);
            assert_eq!((status, code.as_str()), expected, "{backend:?} {store}");
        }
        // `after` must be an intent the key can read: another merchant's, or one of a store
        // the key is not granted, is as unknown as one that does not exist.
        for (key, after) in [(&both, &rival), (&web_only, &app), (&other, &web)] {
            let after = after["paymentIntentId"].as_str().unwrap();
            let (s, b) = search(&server, key, &[("after", after)]).await;
            assert_eq!(refusal(s, &b).1, "payment_intent_not_found", "{backend:?}");
        }
        let unknown = uuid::Uuid::new_v4().to_string();
        let (s, b) = search(&server, &both, &[("after", &unknown)]).await;
        assert_eq!(
            refusal(s, &b),
            (404, "payment_intent_not_found".into(), String::new())
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn payments_read_may_search_and_a_key_with_neither_payment_scope_is_403() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let writer = merchant(&server, "acme", &[("acme-web", "SHADOW")]).await;
        let made = charged(&server, &writer, "acme-web", "order-1").await;
        let reader = key(&server, "acme", &["acme-web"], Some(&["payments:read"])).await;
        let hooks = key(&server, "acme", &["acme-web"], Some(&["webhooks:manage"])).await;
        let (s, b) = search(&server, &reader, &[]).await;
        assert_eq!(ids(&items(s, &b)), ids(&[made]), "{backend:?}");
        // The scope is checked before the query: even a bad one answers 403.
        for query in [&[][..], &[("limit", "0")]] {
            let (s, b) = search(&server, &hooks, query).await;
            assert_eq!(refusal(s, &b).0, 403, "{backend:?}");
            assert_eq!(refusal(s, &b).1, "insufficient_scope");
        }
        let (s, b) = search(&server, "pxg_nope", &[]).await;
        assert_eq!(refusal(s, &b).0, 401);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_value_is_400_naming_its_parameter() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = &server.demo_key;
        let long = "r".repeat(161);
        for (query, code, field) in [
            (&[("limit", "0")][..], "invalid_limit", "limit"),
            (&[("limit", "101")], "invalid_limit", "limit"),
            (&[("limit", "ten")], "invalid_limit", "limit"),
            (&[("limit", "-1")], "invalid_limit", "limit"),
            (&[("after", "not-a-uuid")], "invalid_after", "after"),
            (&[("after", "")], "invalid_after", "after"),
            (&[("store", "a b")], "invalid_store", "store"),
            (&[("store", "")], "invalid_store", "store"),
            (&[("status", "paid")], "invalid_status", "status"),
            (&[("status", "succeeded")], "invalid_status", "status"),
            (&[("reference", "")], "invalid_reference", "reference"),
            (
                &[("reference", long.as_str())],
                "invalid_reference",
                "reference",
            ),
            (
                &[("reference", "a\u{0}b")],
                "invalid_reference",
                "reference",
            ),
            (&[("reference", "a\nb")], "invalid_reference", "reference"),
            (
                &[("createdFrom", "yesterday")],
                "invalid_created_from",
                "createdFrom",
            ),
            (
                &[("createdFrom", "2026-11-19")],
                "invalid_created_from",
                "createdFrom",
            ),
            (
                &[("createdFrom", "2026-11-19T15:00:00")],
                "invalid_created_from",
                "createdFrom",
            ),
            (
                &[("createdTo", "2026-13-01T00:00:00Z")],
                "invalid_created_to",
                "createdTo",
            ),
            (
                &[("createdTo", "1763564400000")],
                "invalid_created_to",
                "createdTo",
            ),
            (
                &[("status", "PENDING"), ("status", "FAILED")],
                "invalid_status",
                "status",
            ),
            (&[("staus", "PENDING")], "unknown_field", "staus"),
            (
                &[("created_from", "2026-11-19T15:00:00Z")],
                "unknown_field",
                "created_from",
            ),
        ] {
            let (s, b) = search(&server, key, query).await;
            assert_eq!(
                refusal(s, &b),
                (400, code.to_owned(), field.to_owned()),
                "{backend:?} {query:?}"
            );
        }
        // A `+` sent unencoded arrives as a space: the message says how to send it.
        let r = server
            .client
            .get(format!(
                "{}/payments?createdFrom=2026-11-19T12:00:00+03:00",
                server.base
            ))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400);
        let body: Value = r.json().await.unwrap();
        assert!(
            body["error"]["message"].as_str().unwrap().contains("%2B"),
            "{body}"
        );
        // Encoded, it is a date-time like any other.
        let (s, b) = search(
            &server,
            key,
            &[("createdFrom", "2026-11-19T12:00:00+03:00")],
        )
        .await;
        items(s, &b);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_admin_lists_every_store_with_its_merchant_mode_and_components() {
    for backend in backends() {
        let server = Server::start(backend).await;
        merchant(
            &server,
            "acme",
            &[("acme-web", "SHADOW"), ("acme-live", "LIVE")],
        )
        .await;
        merchant(&server, "rival", &[("rival-web", "SHADOW")]).await;
        let version = upload_guest(&server, "provider", "pixgate_fixture_costliest_first").await;
        activate(&server, "acme-live", "provider", &version).await;
        let codes = |status, body: Value| -> Vec<String> {
            items(status, &body)
                .iter()
                .map(|s| s["code"].as_str().unwrap().to_owned())
                .collect()
        };

        // Every store, oldest first (the demo store came first).
        let (s, b) = admin_list(&server, "/stores", &[]).await;
        let all = items(s, &b);
        assert_eq!(
            codes(s, b.clone()),
            ["demo-store", "acme-web", "acme-live", "rival-web"],
            "{backend:?}"
        );
        for store in &all {
            let code = store["code"].as_str().unwrap();
            // The store as GET /stores/{code} shows it, plus its components.
            let (_, one) = server.admin_get(&format!("/stores/{code}")).await;
            let mut listed = store.clone();
            let components = listed
                .as_object_mut()
                .unwrap()
                .remove("components")
                .unwrap();
            assert_eq!(listed, one["data"], "{backend:?} {code}");
            let provider = if code == "acme-live" {
                version.as_str()
            } else {
                "bundled"
            };
            assert_eq!(
                components,
                json!({"policy": "bundled", "provider": provider, "economics": "bundled"}),
                "{code}"
            );
        }
        assert_eq!(all[1]["merchant"], "acme");
        assert_eq!(all[2]["mode"], "LIVE");

        // Filters: merchant, mode, both.
        let (s, b) = admin_list(&server, "/stores", &[("merchant", "acme")]).await;
        assert_eq!(codes(s, b), ["acme-web", "acme-live"]);
        let (s, b) = admin_list(&server, "/stores", &[("mode", "LIVE")]).await;
        assert_eq!(codes(s, b), ["acme-live"]);
        let (s, b) = admin_list(
            &server,
            "/stores",
            &[("merchant", "rival"), ("mode", "LIVE")],
        )
        .await;
        assert!(codes(s, b).is_empty());
        // Pages: `after` is the last code of the previous page.
        let (s, b) = admin_list(&server, "/stores", &[("limit", "3")]).await;
        assert_eq!(codes(s, b), ["demo-store", "acme-web", "acme-live"]);
        let (s, b) = admin_list(
            &server,
            "/stores",
            &[("limit", "3"), ("after", "acme-live")],
        )
        .await;
        assert_eq!(codes(s, b), ["rival-web"]);
        let (s, b) = admin_list(
            &server,
            "/stores",
            &[("merchant", "acme"), ("after", "acme-web")],
        )
        .await;
        assert_eq!(codes(s, b), ["acme-live"]);
        // Refusals.
        for (query, expected) in [
            (
                &[("merchant", "nobody")][..],
                (404, "merchant_not_found", ""),
            ),
            (&[("after", "no-such-store")], (404, "store_not_found", "")),
            (&[("after", "a/b")], (400, "invalid_after", "after")),
            (&[("mode", "shadow")], (400, "invalid_mode", "mode")),
            (&[("merchant", "")], (400, "invalid_merchant", "merchant")),
            (&[("limit", "101")], (400, "invalid_limit", "limit")),
            (&[("code", "acme-web")], (400, "unknown_field", "code")),
        ] {
            let (s, b) = admin_list(&server, "/stores", query).await;
            let expected = (expected.0, expected.1.to_owned(), expected.2.to_owned());
            assert_eq!(refusal(s, &b), expected, "{backend:?} {query:?}");
        }
        let r = server
            .client
            .get(format!("{}/stores", server.admin))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 401);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_admin_lists_every_merchants_intents_with_the_merchant_filters_and_merchant() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let acme = merchant(
            &server,
            "acme",
            &[("acme-web", "SHADOW"), ("acme-app", "SHADOW")],
        )
        .await;
        let rival = merchant(&server, "rival", &[("rival-web", "SHADOW")]).await;
        let mut made = Vec::new();
        for (key, store, reference) in [
            (&acme, "acme-web", "order-1"),
            (&rival, "rival-web", "order-1"),
            (&acme, "acme-app", "order-2"),
            (&server.demo_key, "demo-store", "order-3"),
            (&rival, "rival-web", "order-4"),
        ] {
            made.push(charged(&server, key, store, reference).await);
        }
        let merchant_of = |store: &str| match store {
            "demo-store" => "demo",
            s if s.starts_with("acme") => "acme",
            _ => "rival",
        };
        let newest_first = |pick: &dyn Fn(&Value) -> bool| -> Vec<String> {
            let mut picked = ids(&made.iter().filter(|i| pick(i)).cloned().collect::<Vec<_>>());
            picked.reverse();
            picked
        };

        let (s, b) = admin_list(&server, "/payment-intents", &[]).await;
        let all = items(s, &b);
        assert_eq!(ids(&all), newest_first(&|_| true), "{backend:?}");
        for item in &all {
            // The merchant's view of the intent, with its merchant.
            let store = item["store"]["code"].as_str().unwrap();
            assert_eq!(item["merchant"], merchant_of(store));
            let mut merchant_view = item.clone();
            merchant_view.as_object_mut().unwrap().remove("merchant");
            let original = made
                .iter()
                .find(|m| m["paymentIntentId"] == item["paymentIntentId"])
                .unwrap();
            assert_eq!(&merchant_view, original, "{backend:?}");
        }
        let got = |status, body: Value| ids(&items(status, &body));
        for (query, pick) in [
            (
                vec![("merchant", "acme")],
                Box::new(|i: &Value| merchant_of(i["store"]["code"].as_str().unwrap()) == "acme")
                    as Box<dyn Fn(&Value) -> bool>,
            ),
            (
                vec![("store", "rival-web")],
                Box::new(|i: &Value| i["store"]["code"] == "rival-web"),
            ),
            (
                vec![("reference", "order-1")],
                Box::new(|i: &Value| i["reference"] == "order-1"),
            ),
            (
                vec![("merchant", "rival"), ("reference", "order-1")],
                Box::new(|i: &Value| {
                    i["store"]["code"] == "rival-web" && i["reference"] == "order-1"
                }),
            ),
            (vec![("status", "SHADOW_ONLY")], Box::new(|_: &Value| true)),
            (vec![("status", "FAILED")], Box::new(|_: &Value| false)),
            // A store of another merchant than `merchant`: nothing passes both.
            (
                vec![("merchant", "acme"), ("store", "rival-web")],
                Box::new(|_: &Value| false),
            ),
        ] {
            let (s, b) = admin_list(&server, "/payment-intents", &query).await;
            assert_eq!(got(s, b), newest_first(&*pick), "{backend:?} {query:?}");
        }
        let at = |n: usize| made[n]["createdAt"].as_str().unwrap().to_owned();
        let (s, b) = admin_list(
            &server,
            "/payment-intents",
            &[("createdFrom", &at(1)), ("createdTo", &at(3))],
        )
        .await;
        assert_eq!(got(s, b), ids(&[made[2].clone(), made[1].clone()]));
        // Pages across every merchant's stores.
        let expected = newest_first(&|_| true);
        let (s, b) = admin_list(&server, "/payment-intents", &[("limit", "2")]).await;
        assert_eq!(got(s, b), expected[..2]);
        let (s, b) = admin_list(
            &server,
            "/payment-intents",
            &[("limit", "2"), ("after", &expected[1])],
        )
        .await;
        assert_eq!(got(s, b), expected[2..4]);
        let (s, b) = admin_list(
            &server,
            "/payment-intents",
            &[("limit", "2"), ("after", &expected[3])],
        )
        .await;
        assert_eq!(got(s, b), expected[4..]);
        // Refusals.
        let unknown = uuid::Uuid::new_v4().to_string();
        for (query, expected) in [
            (
                &[("merchant", "nobody")][..],
                (404, "merchant_not_found", ""),
            ),
            (&[("store", "nowhere")], (404, "store_not_found", "")),
            (
                &[("after", unknown.as_str())],
                (404, "payment_intent_not_found", ""),
            ),
            (
                &[("merchant", "a b")],
                (400, "invalid_merchant", "merchant"),
            ),
            (&[("status", "DONE")], (400, "invalid_status", "status")),
            (
                &[("createdTo", "soon")],
                (400, "invalid_created_to", "createdTo"),
            ),
            (
                &[("merchant", "acme"), ("merchant", "rival")],
                (400, "invalid_merchant", "merchant"),
            ),
            (&[("tenant", "acme")], (400, "unknown_field", "tenant")),
        ] {
            let (s, b) = admin_list(&server, "/payment-intents", query).await;
            let expected = (expected.0, expected.1.to_owned(), expected.2.to_owned());
            assert_eq!(refusal(s, &b), expected, "{backend:?} {query:?}");
        }
    }
}

/// `pixgate admin ARGS` against the server's admin API.
fn cli(server: &Server, args: &[&str]) -> Output {
    Command::new(pixgate_bin())
        .arg("admin")
        .args(args)
        .env_clear()
        .env("PIXGATE_ADMIN_URL", server.admin_root())
        .env("PIXGATE_ADMIN_TOKEN", &server.admin_token)
        .output()
        .unwrap()
}

fn stdout_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_cli_lists_stores_and_payment_intents_with_the_same_filters() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let acme = merchant(
            &server,
            "acme",
            &[("acme-web", "SHADOW"), ("acme-live", "LIVE")],
        )
        .await;
        let mut made = Vec::new();
        for n in 0..5 {
            made.push(charged(&server, &acme, "acme-web", &format!("order-{n}")).await);
        }
        charged(&server, &server.demo_key, "demo-store", "order-0").await;

        // Stores: the API's answer, filtered by flags.
        let listed = stdout_json(&cli(
            &server,
            &["stores", "list", "--merchant", "acme", "--json"],
        ));
        let (_, api) = admin_list(&server, "/stores", &[("merchant", "acme")]).await;
        assert_eq!(listed, api["data"], "{backend:?}");
        let listed = stdout_json(&cli(
            &server,
            &["stores", "list", "--mode", "LIVE", "--json"],
        ));
        assert_eq!(listed.as_array().unwrap().len(), 1);
        assert_eq!(listed[0]["code"], "acme-live");
        assert_eq!(listed[0]["components"]["policy"], "bundled");
        // Every page, two at a time: all three stores.
        let listed = stdout_json(&cli(
            &server,
            &["stores", "list", "--limit", "2", "--all", "--json"],
        ));
        assert_eq!(listed.as_array().unwrap().len(), 3);
        let out = cli(&server, &["stores", "list"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success());
        assert!(
            text.contains("CODE") && text.contains("acme-live") && text.contains("LIVE"),
            "{text}"
        );

        // Payment intents: the same filters as the API, as flags.
        let mut expected = ids(&made);
        expected.reverse();
        let listed = stdout_json(&cli(
            &server,
            &[
                "payment-intents",
                "list",
                "--merchant",
                "acme",
                "--store",
                "acme-web",
                "--status",
                "SHADOW_ONLY",
                "--limit",
                "2",
                "--all",
                "--json",
            ],
        ));
        assert_eq!(ids(listed.as_array().unwrap()), expected, "{backend:?}");
        let listed = stdout_json(&cli(
            &server,
            &[
                "payment-intents",
                "list",
                "--reference",
                "order-0",
                "--json",
            ],
        ));
        assert_eq!(listed.as_array().unwrap().len(), 2);
        // By kind: these are all immediate charges.
        for (kind, count) in [("IMMEDIATE", 2), ("DUE_DATE", 0)] {
            let listed = stdout_json(&cli(
                &server,
                &[
                    "payment-intents",
                    "list",
                    "--reference",
                    "order-0",
                    "--kind",
                    kind,
                    "--json",
                ],
            ));
            assert_eq!(listed.as_array().unwrap().len(), count, "{kind}");
        }
        let (from, to) = (
            made[1]["createdAt"].as_str().unwrap(),
            made[3]["createdAt"].as_str().unwrap(),
        );
        let listed = stdout_json(&cli(
            &server,
            &[
                "payment-intents",
                "list",
                "--created-from",
                from,
                "--created-to",
                to,
                "--json",
            ],
        ));
        assert_eq!(ids(listed.as_array().unwrap()), expected[2..4]);
        // One full page without --all says how to get the next.
        let out = cli(
            &server,
            &[
                "payment-intents",
                "list",
                "--store",
                "acme-web",
                "--limit",
                "2",
            ],
        );
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&expected[0]) && !text.contains(&expected[2]),
            "{text}"
        );
        assert!(text.contains("acme") && text.contains("10.00"), "{text}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("--after {}", expected[1])),
            "{stderr}"
        );
        let next = stdout_json(&cli(
            &server,
            &[
                "payment-intents",
                "list",
                "--store",
                "acme-web",
                "--limit",
                "2",
                "--after",
                &expected[1],
                "--json",
            ],
        ));
        assert_eq!(ids(next.as_array().unwrap()), expected[2..4]);
        // The API's refusal, with its code: exit status 1.
        let out = cli(&server, &["payment-intents", "list", "--status", "paid"]);
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("invalid_status") && stderr.contains("HTTP 400"),
            "{stderr}"
        );
        let out = cli(&server, &["stores", "list", "--merchant", "nobody"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains("merchant_not_found"));
    }
}

/// The intent without `pix.qrCodeSvg`.
fn without_qr_code(intent: &Value) -> Value {
    let mut intent = intent.clone();
    if let Some(pix) = intent.get_mut("pix").and_then(Value::as_object_mut) {
        pix.remove("qrCodeSvg");
    }
    intent
}

/// Issue 30, DESIGN.md section 5: a read shows the QR code of a `PENDING` intent and not of a
/// terminal one (which keeps its txid and copy-and-paste code); a search page (merchant and
/// admin) leaves it out unless asked with `include=qrCode`, and then shows it only for the
/// `PENDING` items; any other `include` is a 400 naming it.
#[tokio::test(flavor = "multi_thread")]
async fn the_qr_code_is_shown_while_pending_and_left_out_of_pages_unless_asked() {
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = merchant(&server, "shop", &[("shop-live", "LIVE")]).await;
        let db = server.open_db().await;
        let mut made = Vec::new();
        for (n, to) in ["PENDING", "SUCCEEDED", "CANCELED", "FAILED", "PENDING"]
            .into_iter()
            .enumerate()
        {
            let id = pending_intent(&db, "shop-live", &format!("order-{n}")).await;
            // The PIX charge a PSP created for it.
            let code = pixgate_pix::brcode::dynamic(
                &format!("127.0.0.1:8443/qr/v2/{id}"),
                "Loja Demo",
                "Sao Paulo",
            )
            .unwrap();
            sqlx::query(
                "update payment_intents set txid = $1, pix_copy_paste = $2, pix_expires_at = $3 \
                 where id = $4",
            )
            .bind(id.replace('-', ""))
            .bind(code)
            .bind(pixgate::db::now_ms() + 86_400_000)
            .bind(&id)
            .execute(&db.write)
            .await
            .unwrap();
            if to != "PENDING" {
                settle(&db, &id, to).await;
            }
            made.push((to, id));
        }

        for (status, id) in &made {
            let (s, read) = server.get_payment(&key, id).await;
            assert_eq!(s, 200, "{read}");
            let pix = &read["data"]["pix"];
            assert!(pix["txid"].is_string(), "{backend:?} {status}: {read}");
            assert!(pix["copyAndPaste"].is_string(), "{status}: {read}");
            if *status == "PENDING" {
                let svg = pix["qrCodeSvg"].as_str().unwrap_or_default();
                assert!(
                    svg.starts_with("<svg") || svg.starts_with("<?xml"),
                    "{read}"
                );
            } else {
                assert!(pix.get("qrCodeSvg").is_none(), "{status}: {read}");
            }
        }

        let pages = [
            search(&server, &key, &[]).await,
            admin_list(&server, "/payment-intents", &[("merchant", "shop")]).await,
        ];
        let asked = [
            search(&server, &key, &[("include", "qrCode")]).await,
            admin_list(
                &server,
                "/payment-intents",
                &[("merchant", "shop"), ("include", "qrCode")],
            )
            .await,
        ];
        for ((s, page), (asked_s, asked_page)) in pages.iter().zip(&asked) {
            let plain = items(*s, page);
            let with_qr = items(*asked_s, asked_page);
            assert_eq!(plain.len(), 5, "{backend:?} {page}");
            assert_eq!(ids(&plain), ids(&with_qr));
            for (item, asked_item) in plain.iter().zip(&with_qr) {
                assert!(item["pix"]["txid"].is_string(), "{item}");
                assert!(item["pix"].get("qrCodeSvg").is_none(), "{item}");
                let pending = item["status"] == "PENDING";
                assert_eq!(
                    asked_item["pix"].get("qrCodeSvg").is_some(),
                    pending,
                    "{asked_item}"
                );
                // Asked or not, the same intent but for the picture.
                assert_eq!(&without_qr_code(asked_item), item);
                if pending {
                    let (_, read) = server
                        .get_payment(&key, item["paymentIntentId"].as_str().unwrap())
                        .await;
                    assert_eq!(
                        asked_item["pix"]["qrCodeSvg"], read["data"]["pix"]["qrCodeSvg"],
                        "the same drawing in a page and a read"
                    );
                }
            }
            assert!(page.to_string().len() * 2 < asked_page.to_string().len());
        }

        for include in ["qrcode", "", "qrCodeSvg", "qrCode,qrCode"] {
            let (s, b) = search(&server, &key, &[("include", include)]).await;
            assert_eq!(
                refusal(s, &b),
                (400, "invalid_include".into(), "include".into()),
                "{include:?}"
            );
            let (s, b) = admin_list(&server, "/payment-intents", &[("include", include)]).await;
            assert_eq!(
                refusal(s, &b),
                (400, "invalid_include".into(), "include".into()),
                "{include:?}"
            );
        }
    }
}
