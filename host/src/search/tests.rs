use super::*;
use crate::db::Backend;
use crate::db::testing::fresh_databases;

fn query(pairs: &[(&str, &str)]) -> IntentQuery {
    let mut q = IntentQuery::default();
    for (name, value) in pairs {
        let value = Some((*value).to_owned());
        match *name {
            "limit" => q.limit = value,
            "after" => q.after = value,
            "store" => q.store = value,
            "status" => q.status = value,
            "kind" => q.kind = value,
            "reference" => q.reference = value,
            "createdFrom" => q.created_from = value,
            "createdTo" => q.created_to = value,
            "merchant" => q.merchant = value,
            "include" => q.include = value,
            other => panic!("no parameter {other}"),
        }
    }
    q
}

fn refusal(pairs: &[(&str, &str)]) -> (&'static str, String) {
    let e = query(pairs).check().unwrap_err();
    (e.code, e.field.unwrap_or_default())
}

#[test]
fn every_value_is_checked_with_its_own_code() {
    let ok = query(&[
        ("limit", "100"),
        ("after", "0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B"),
        ("store", "demo-store"),
        ("status", "FAILED"),
        ("reference", "pedido 42/ç"),
        ("createdFrom", "2026-11-19T12:00:00.123999-03:00"),
        ("createdTo", "2026-11-20t00:00:00z"),
    ])
    .check()
    .unwrap();
    assert_eq!(ok.limit, 100);
    assert_eq!(
        ok.after.as_deref(),
        Some("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")
    );
    assert_eq!(ok.filter.status, Some(IntentStatus::Failed));
    assert_eq!(ok.filter.created_from, Some(1_795_100_400_123));
    assert_eq!(ok.filter.created_to, Some(1_795_132_800_000));
    assert_eq!(query(&[]).check().unwrap().limit, DEFAULT_LIMIT);
    assert_eq!(query(&[]).check().unwrap().qr, QrCode::Omit);
    assert_eq!(
        query(&[("include", "qrCode")]).check().unwrap().qr,
        QrCode::IfPending
    );

    for (pairs, code) in [
        (&[("limit", "0")][..], "invalid_limit"),
        (&[("limit", "101")], "invalid_limit"),
        (&[("limit", "+5")], "invalid_limit"),
        (&[("limit", "")], "invalid_limit"),
        (&[("limit", "1.5")], "invalid_limit"),
        (&[("after", "not-an-id")], "invalid_after"),
        (&[("store", "")], "invalid_store"),
        (&[("store", "a/b")], "invalid_store"),
        (&[("status", "failed")], "invalid_status"),
        (&[("status", "")], "invalid_status"),
        (&[("reference", "")], "invalid_reference"),
        (&[("reference", "a\0b")], "invalid_reference"),
        (&[("reference", &"r".repeat(161))], "invalid_reference"),
        (&[("createdFrom", "2026-11-19")], "invalid_created_from"),
        (
            &[("createdFrom", "2026-11-19 15:00:00Z")],
            "invalid_created_from",
        ),
        (
            &[("createdFrom", "2026-02-30T00:00:00Z")],
            "invalid_created_from",
        ),
        (
            &[("createdTo", "2026-11-19T15:00:00")],
            "invalid_created_to",
        ),
        (&[("merchant", "é")], "invalid_merchant"),
        (&[("include", "qrcode")], "invalid_include"),
        (&[("include", "")], "invalid_include"),
        (&[("include", "qrCode,qrCode")], "invalid_include"),
    ] {
        assert_eq!(refusal(pairs).0, code, "{pairs:?}");
    }
    assert_eq!(refusal(&[("createdFrom", "x")]).1, "createdFrom");
    let e = query(&[("createdFrom", "2026-11-19T12:00:00 03:00")])
        .check()
        .unwrap_err();
    assert!(e.message.contains("%2B"), "{}", e.message);
    // The reference is matched as sent: 160 characters pass, spaces and all.
    let long = "r".repeat(160);
    assert!(query(&[("reference", &long)]).check().is_ok());
}

/// What each backend's planner says about the statement of one store's page.
async fn plan(db: &Db, filter: &IntentFilter) -> String {
    let (sql, values) = sql::page_statement_for(db.backend, filter, 20, "store");
    let explain = match db.backend {
        Backend::Sqlite => format!("explain query plan {sql}"),
        Backend::Postgres => format!("explain {sql}"),
    };
    let mut conn = db.read.acquire().await.unwrap();
    if db.backend == Backend::Postgres {
        // An empty table is cheapest to read whole: ask which index would serve the page.
        sqlx::query("set enable_seqscan = off")
            .execute(&mut *conn)
            .await
            .unwrap();
    }
    let mut q = sqlx::query(sqlx::AssertSqlSafe(explain));
    for value in values {
        q = match value {
            sql::Value::Text(text) => q.bind(text),
            sql::Value::Int(n) => q.bind(n),
        };
    }
    let rows = q.fetch_all(&mut *conn).await.unwrap();
    use sqlx::Row;
    rows.iter()
        .map(|r| match db.backend {
            Backend::Sqlite => r.get::<String, _>("detail"),
            Backend::Postgres => r.get::<String, _>(0),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each filter's page is one range of its index, read in the index's order: no sort, no
/// scan of the table (BENCHMARKS.md section 9 has the plans at a million intents).
#[tokio::test]
async fn each_filter_reads_one_index_range_in_order() {
    for test in fresh_databases().await {
        let db = &test.db;
        let cases = [
            (
                IntentFilter::default(),
                "payment_intents_store_created_id_idx",
            ),
            (
                IntentFilter {
                    status: Some(IntentStatus::Failed),
                    ..IntentFilter::default()
                },
                "payment_intents_store_status_idx",
            ),
            (
                IntentFilter {
                    reference: Some("order-1".into()),
                    ..IntentFilter::default()
                },
                "payment_intents_store_reference_idx",
            ),
            (
                IntentFilter {
                    created_from: Some(1),
                    created_to: Some(2),
                    after: Some((2, "b".into())),
                    ..IntentFilter::default()
                },
                "payment_intents_store_created_id_idx",
            ),
            (
                IntentFilter {
                    status: Some(IntentStatus::Succeeded),
                    created_from: Some(1),
                    created_to: Some(2),
                    after: Some((2, "b".into())),
                    ..IntentFilter::default()
                },
                "payment_intents_store_status_idx",
            ),
        ];
        for (filter, index) in cases {
            let plan = plan(db, &filter).await;
            assert!(plan.contains(index), "{:?} {filter:?}:\n{plan}", db.backend);
            let sorted = match db.backend {
                Backend::Sqlite => plan.contains("TEMP B-TREE"),
                Backend::Postgres => plan.contains("Sort"),
            };
            assert!(!sorted, "{:?} {filter:?} sorts:\n{plan}", db.backend);
        }
    }
}
