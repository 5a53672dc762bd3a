//! Fresh databases for in-process tests of a service: SQLite in a temporary directory always,
//! and a new PostgreSQL database as well when `PIXGATE_TEST_DATABASE_URL` is set (set but
//! unreachable fails the test, never skips it, as in the end-to-end tests). Each is opened by
//! [`Db::connect`], as the server opens its own, so it holds the migrated schema and nothing
//! else: no gateway catalog, no demo merchant.

use sqlx::Connection;

use super::Db;

/// A fresh database; the SQLite one lives as long as its directory.
pub(crate) struct TestDb {
    pub db: Db,
    _dir: Option<tempfile::TempDir>,
}

/// One fresh database per backend this run covers.
pub(crate) async fn fresh_databases() -> Vec<TestDb> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("pixgate.db").display());
    let sqlite = Db::connect(&url, 2).await.expect("open SQLite");
    let mut all = vec![TestDb {
        db: sqlite,
        _dir: Some(dir),
    }];
    if let Some(admin) = std::env::var("PIXGATE_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
    {
        let url = fresh_postgres_database(&admin).await;
        let db = Db::connect(&url, 4).await.expect("open PostgreSQL");
        all.push(TestDb { db, _dir: None });
    }
    all
}

/// A new, empty database on the server of `admin`; its URL.
async fn fresh_postgres_database(admin: &str) -> String {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(admin)
        .await
        .unwrap_or_else(|e| {
            panic!("PIXGATE_TEST_DATABASE_URL is set but PostgreSQL is unreachable: {e}")
        });
    let name = format!("pixgate_test_{}", uuid::Uuid::new_v4().simple());
    // The name is ours (a UUID), not input.
    sqlx::query(sqlx::AssertSqlSafe(format!("create database {name}")))
        .execute(&mut conn)
        .await
        .expect("create the test database");
    let base = admin.rsplit_once('/').map_or(admin, |(base, _)| base);
    format!("{base}/{name}")
}
