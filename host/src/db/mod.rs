//! Storage on SQLite (embedded default) or PostgreSQL through sqlx's `Any` driver: one set
//! of SQL (`$n` placeholders, portable types) and one migration folder serve both.

pub mod audit;
pub mod backup;
pub mod batches;
pub mod canary;
pub mod catalog;
pub mod components;
pub mod group_commit;
pub mod idempotency;
pub mod intents;
pub mod key_cache;
pub mod keys;
pub mod mandates;
pub mod operators;
pub mod overview;
pub mod providers;
pub mod psp_calls;
pub mod reconciliations;
pub mod refunds;
pub mod retention;
pub mod search;
pub mod settings;
pub mod settlements;
pub mod store_cache;
#[cfg(test)]
pub(crate) mod testing;
pub mod webhooks;

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, ConnectOptions, Executor};

/// `migrations/*.sql` as `(version, description, SQL)`, oldest first (written by build.rs).
const MIGRATIONS: &[(i64, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// The schema's migrations for `backend`, as sqlx's `migrate!` would embed them: the same
/// versions, descriptions and checksums (the SHA-384 of each file), so databases migrated by
/// either agree. A file is the same SQL for both backends, except for what a line `-- sqlite:`
/// or `-- postgres:` begins (up to the next such line, or `-- both:`): only that backend runs
/// it (a change SQLite makes by rebuilding a table, PostgreSQL by an `alter`). The checksum
/// stays the whole file's.
///
/// Migrations a newer release applied, which this binary does not know, are let be
/// (`ignore_missing`): they only expand (docs/src/operations/upgrades.md), so the previous
/// release keeps serving, and starts again, on a database the next one migrated during a
/// rolling upgrade.
fn migrator(backend: Backend) -> sqlx::migrate::Migrator {
    use sqlx::SqlSafeStr;
    use sqlx::migrate::{Migration, MigrationType, Migrator};
    let mut migrator = Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .map(|&(version, description, sql)| {
                let mut migration = Migration::new(
                    version,
                    description.into(),
                    MigrationType::Simple,
                    sqlx::AssertSqlSafe(for_backend(sql, backend)).into_sql_str(),
                    sql.starts_with("-- no-transaction"),
                );
                migration.checksum = Migration::new(
                    version,
                    description.into(),
                    MigrationType::Simple,
                    sqlx::SqlStr::from_static(sql),
                    false,
                )
                .checksum;
                migration
            })
            .collect(),
    );
    migrator.set_ignore_missing(true);
    migrator
}

/// How a database's schema stands against this binary's migrations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MigrationStatus {
    /// This binary's migrations the database lacks, `(version, description)`, oldest first.
    pub pending: Vec<(i64, &'static str)>,
    /// Migrations the database has that this binary does not know: a newer release's.
    pub newer: Vec<i64>,
}

/// The lines of migration `sql` that `backend` runs (see [`migrator`]).
fn for_backend(sql: &str, backend: Backend) -> String {
    let mut mine = true;
    let mut out = String::with_capacity(sql.len());
    for line in sql.lines() {
        match line.trim_end() {
            "-- sqlite:" => mine = backend == Backend::Sqlite,
            "-- postgres:" => mine = backend == Backend::Postgres,
            "-- both:" => mine = true,
            _ if mine => {
                out.push_str(line);
                out.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// A row type's `sqlx::FromRow` for `AnyRow`, as sqlx's derive writes it: each field read by
/// its name, `field: try_from(Via)` read as `Via` and converted, `field: flatten` read as a
/// row type of its own. A macro of our own instead of the derive: sqlx's macros crate builds
/// SQLite and both drivers a second time for the compiler.
macro_rules! from_row {
    ($ty:ident { $($field:ident $(: $how:ident $(($via:ty))?)?),* $(,)? }) => {
        impl<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> for $ty {
            fn from_row(row: &'r sqlx::any::AnyRow) -> sqlx::Result<Self> {
                Ok(Self {
                    $($field: $crate::db::from_row!(@get row, $field $(, $how $(, $via)?)?),)*
                })
            }
        }
    };
    (@get $row:ident, $field:ident) => {
        sqlx::Row::try_get($row, stringify!($field))?
    };
    (@get $row:ident, $field:ident, try_from, $via:ty) => {{
        let raw: $via = sqlx::Row::try_get($row, stringify!($field))?;
        raw.try_into().map_err(|e| sqlx::Error::ColumnDecode {
            index: stringify!($field).to_owned(),
            source: From::from(e),
        })?
    }};
    (@get $row:ident, $field:ident, flatten) => {
        sqlx::FromRow::from_row($row)?
    };
}
pub(crate) use from_row;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database: {0}")]
    Sqlx(#[from] sqlx::Error),
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("unsupported database URL `{0}`: use sqlite://... or postgres://...")]
    UnsupportedUrl(String),
    #[error("the database is locked: {0}")]
    Locked(String),
    #[error("stored data is inconsistent: {0}")]
    Corrupt(String),
    #[error(
        "the database lacks {count} of this release's migrations (from {first:04}): run \
         `pixgate migrate` first, or start with PIXGATE_MIGRATE=auto"
    )]
    Behind { count: usize, first: i64 },
    #[error("the database did not answer within {0:?}")]
    NoAnswer(Duration),
}

use crate::config::MigrateMode;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The pools. SQLite has a single writer (transactions queue in the pool instead of
/// retrying on `SQLITE_BUSY`) and a pool of readers; PostgreSQL one pool for both.
#[derive(Debug, Clone)]
pub struct Db {
    pub write: AnyPool,
    pub read: AnyPool,
    pub backend: Backend,
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

/// Today's date in Brasília: what a due date is judged against (DESIGN.md section 16).
pub fn today_brasilia() -> pixgate_domain::due::Date {
    pixgate_domain::due::Date::from_unix_seconds_brasilia(now_ms().div_euclid(1000))
}

impl Db {
    /// Connects and applies the migrations.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Self, DbError> {
        Self::connect_with(url, max_connections, OnOpen::Migrate).await
    }

    /// Connects; applies the migrations the database lacks (`Auto`) or refuses one that
    /// lacks any (`Off`, [`DbError::Behind`]).
    pub async fn open(url: &str, max_connections: u32, mode: MigrateMode) -> Result<Self, DbError> {
        let on_open = match mode {
            MigrateMode::Auto => OnOpen::Migrate,
            MigrateMode::Off => OnOpen::Refuse,
        };
        Self::connect_with(url, max_connections, on_open).await
    }

    /// One connection to a PostgreSQL database, opened and closed, within `timeout`: whether it
    /// answers now. The pools of [`Db::open`] retry a refused connection until their acquire
    /// timeout (30 s); a caller waiting for the database to come up asks this first. A SQLite
    /// file is always there.
    pub async fn probe(url: &str, timeout: Duration) -> Result<(), DbError> {
        use sqlx::Connection as _;
        if url.starts_with("sqlite:") {
            return Ok(());
        }
        sqlx::any::install_default_drivers();
        let connection = tokio::time::timeout(timeout, sqlx::AnyConnection::connect(url))
            .await
            .map_err(|_| DbError::NoAnswer(timeout))??;
        connection.close().await?;
        Ok(())
    }

    /// Connects and leaves the schema as it is (`pixgate migrate` reads it, then applies).
    pub async fn open_unmigrated(url: &str, max_connections: u32) -> Result<Self, DbError> {
        Self::connect_with(url, max_connections, OnOpen::Leave).await
    }

    async fn connect_with(url: &str, max_connections: u32, mode: OnOpen) -> Result<Self, DbError> {
        sqlx::any::install_default_drivers();
        let max_connections = max_connections.max(2);
        let db = if url.starts_with("sqlite:") {
            let url = if url.contains('?') {
                url.to_owned()
            } else {
                format!("{url}?mode=rwc")
            };
            let opts = AnyConnectOptions::from_str(&url)?.disable_statement_logging();
            let pragmas = sqlite_pragmas;
            let write = AnyPoolOptions::new()
                .max_connections(1)
                .acquire_timeout(Duration::from_secs(30))
                .after_connect(pragmas)
                .connect_with(opts.clone())
                .await?;
            // Migrate before the readers open, so they see the schema.
            migrate_or_check(&write, Backend::Sqlite, mode).await?;
            let read = AnyPoolOptions::new()
                .max_connections(max_connections)
                .acquire_timeout(Duration::from_secs(30))
                .after_connect(pragmas)
                .connect_with(opts)
                .await?;
            Db {
                write,
                read,
                backend: Backend::Sqlite,
            }
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let opts = AnyConnectOptions::from_str(url)?.disable_statement_logging();
            let pool = AnyPoolOptions::new()
                .max_connections(max_connections)
                .acquire_timeout(Duration::from_secs(30))
                .after_connect(postgres_session)
                .connect_with(opts)
                .await?;
            migrate_or_check(&pool, Backend::Postgres, mode).await?;
            Db {
                write: pool.clone(),
                read: pool,
                backend: Backend::Postgres,
            }
        } else {
            let scheme = url.split(':').next().unwrap_or_default();
            return Err(DbError::UnsupportedUrl(format!("{scheme}:...")));
        };
        Ok(db)
    }

    /// Takes an exclusive lock beside a SQLite database file, held for as long as the
    /// returned file is open (the process's life): a second `pixgate serve` on the same
    /// file stops at start instead of running beside the first, whose in-memory caches
    /// (keys, stores) assume it is the only writer. `None` for PostgreSQL and in-memory
    /// databases.
    pub fn lock_sqlite_file(url: &str) -> Result<Option<std::fs::File>, DbError> {
        let Some(rest) = url.strip_prefix("sqlite:") else {
            return Ok(None);
        };
        let path = rest.trim_start_matches("//");
        let path = path.split('?').next().unwrap_or_default();
        if path.is_empty() || path.starts_with(':') {
            return Ok(None);
        }
        let lock_path = format!("{path}.lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| DbError::Locked(format!("{lock_path}: {e}")))?;
        file.try_lock().map_err(|_| {
            DbError::Locked(format!(
                "{path} is in use by another pixgate process (its lock {lock_path} is held); \
                 run several instances on PostgreSQL"
            ))
        })?;
        Ok(Some(file))
    }

    /// Which of this binary's migrations the database lacks, and which it has that this
    /// binary does not know.
    pub async fn migration_status(&self) -> Result<MigrationStatus, DbError> {
        migration_status(&self.read, self.backend).await
    }

    pub async fn ping(&self) -> Result<(), DbError> {
        sqlx::query("select 1").execute(&self.read).await?;
        Ok(())
    }
}

/// What opening a database does to its schema.
#[derive(Debug, Clone, Copy)]
enum OnOpen {
    Migrate,
    /// Refuse a database that lacks a migration.
    Refuse,
    Leave,
}

async fn migrate_or_check(pool: &AnyPool, backend: Backend, mode: OnOpen) -> Result<(), DbError> {
    match mode {
        OnOpen::Migrate => Ok(migrator(backend).run(pool).await?),
        OnOpen::Leave => Ok(()),
        OnOpen::Refuse => {
            let status = migration_status(pool, backend).await?;
            match status.pending.first() {
                None => Ok(()),
                Some(&(first, _)) => Err(DbError::Behind {
                    count: status.pending.len(),
                    first,
                }),
            }
        }
    }
}

/// Reads `_sqlx_migrations` (absent on a new database: everything is pending).
async fn migration_status(pool: &AnyPool, backend: Backend) -> Result<MigrationStatus, DbError> {
    let exists_sql = match backend {
        Backend::Sqlite => {
            "select count(*) from sqlite_master where type = 'table' and name = '_sqlx_migrations'"
        }
        Backend::Postgres => {
            "select count(*) from information_schema.tables \
             where table_schema = current_schema() and table_name = '_sqlx_migrations'"
        }
    };
    let exists: i64 = sqlx::query_scalar(exists_sql).fetch_one(pool).await?;
    let applied: Vec<i64> = if exists > 0 {
        sqlx::query_scalar("select version from _sqlx_migrations where success order by version")
            .fetch_all(pool)
            .await?
    } else {
        Vec::new()
    };
    Ok(MigrationStatus {
        pending: MIGRATIONS
            .iter()
            .filter(|(version, ..)| !applied.contains(version))
            .map(|&(version, description, _)| (version, description))
            .collect(),
        newer: applied
            .iter()
            .copied()
            .filter(|v| !MIGRATIONS.iter().any(|(known, ..)| known == v))
            .collect(),
    })
}

/// Applies the migrations `db` lacks (what `pixgate migrate` runs); how many it applied.
pub async fn migrate(db: &Db) -> Result<usize, DbError> {
    let before = db.migration_status().await?.pending.len();
    migrator(db.backend).run(&db.write).await?;
    Ok(before)
}

type BoxFuture<'c, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'c>>;

/// WAL (readers never block the writer), NORMAL sync (durable at checkpoints, safe in WAL),
/// a busy timeout for the readers, and foreign keys enforced.
/// `synchronous = FULL`: in WAL mode a commit returns only after the WAL is fsynced, so a
/// charge answered 200 survives an OS crash or a power loss, not only a process crash
/// (`NORMAL` syncs at checkpoints only, and the last commits could vanish). It costs an fsync
/// per write transaction.
fn sqlite_pragmas(
    conn: &mut sqlx::AnyConnection,
    _: sqlx::pool::PoolConnectionMetadata,
) -> BoxFuture<'_, Result<(), sqlx::Error>> {
    Box::pin(async move {
        conn.execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
             PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON",
        )
        .await
        .map(|_| ())
    })
}

/// How a statement writes its parameters. `$1` numbered ones work on both backends; SQLite
/// keeps their names in a list it scans on every lookup, which sqlx does once per parameter
/// when binding, so a statement of thousands of parameters (a group commit's batch) binds in
/// quadratic time. Anonymous `?` ones have no name: SQLite's batches use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Params {
    Numbered,
    Anonymous,
}

impl Backend {
    /// The backend's name in OpenTelemetry's semantic conventions (`db.system.name`).
    pub(crate) fn system_name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgresql",
        }
    }

    /// The span of a transaction on this backend, for the traces (`telemetry.rs`):
    /// `operation` says what it writes.
    pub(crate) fn transaction_span(self, operation: &'static str) -> tracing::Span {
        tracing::info_span!(
            "db transaction",
            otel.kind = "client",
            db.system.name = self.system_name(),
            db.operation.name = operation,
        )
    }

    /// The parameters of a long statement on this backend (see [`Params`]).
    pub(crate) fn params(self) -> Params {
        match self {
            Backend::Sqlite => Params::Anonymous,
            Backend::Postgres => Params::Numbered,
        }
    }
}

/// The `values` of a multi-row insert: `rows` groups of `cols` parameters, bound row after
/// row: `($1, $2), ($3, $4)` or `(?, ?), (?, ?)`.
pub(crate) fn placeholders(rows: usize, cols: usize, params: Params) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(rows * cols * 5);
    for row in 0..rows {
        out.push_str(if row == 0 { "(" } else { ", (" });
        for col in 0..cols {
            let sep = if col == 0 { "" } else { ", " };
            // Writing to a String cannot fail.
            let _ = match params {
                Params::Numbered => write!(out, "{sep}${}", row * cols + col + 1),
                Params::Anonymous => write!(out, "{sep}?"),
            };
        }
        out.push(')');
    }
    out
}

/// lz4 for the large values PostgreSQL compresses (decision traces, stored responses): its
/// default, pglz, was 3 % of the machine's CPU under charge load, lz4 costs a fraction of that.
/// A server built without lz4 (or before version 14) refuses the setting and keeps pglz.
fn postgres_session(
    conn: &mut sqlx::AnyConnection,
    _: sqlx::pool::PoolConnectionMetadata,
) -> BoxFuture<'_, Result<(), sqlx::Error>> {
    Box::pin(async move {
        if let Err(e) = conn.execute("SET default_toast_compression = 'lz4'").await {
            tracing::debug!(error = %e, "PostgreSQL keeps pglz for large values");
        }
        Ok(())
    })
}

/// A 0/1 flag column as a bool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flag(pub bool);

impl TryFrom<i64> for Flag {
    type Error = String;

    fn try_from(v: i64) -> Result<Self, String> {
        match v {
            0 => Ok(Flag(false)),
            1 => Ok(Flag(true)),
            other => Err(format!("flag column holds {other}")),
        }
    }
}

impl Flag {
    pub fn as_i64(self) -> i64 {
        i64::from(self.0)
    }
}

/// The named constraint a database error violated, if any. PostgreSQL names it; SQLite
/// names CHECK constraints and, for UNIQUE, the columns (`stores.code` becomes
/// `stores_code_key`, the naming the migrations use).
pub fn violated_constraint(e: &sqlx::Error) -> Option<String> {
    let db = e.as_database_error()?;
    if let Some(name) = db.constraint() {
        return Some(name.to_owned());
    }
    let message = db.message();
    if let Some(cols) = message.strip_prefix("UNIQUE constraint failed: ") {
        let first = cols.split(',').next()?.trim();
        return Some(format!("{}_key", first.replace('.', "_")));
    }
    message
        .strip_prefix("CHECK constraint failed: ")
        .map(|name| name.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_number_rows_then_columns() {
        assert_eq!(placeholders(1, 2, Params::Numbered), "($1, $2)");
        assert_eq!(
            placeholders(2, 3, Params::Numbered),
            "($1, $2, $3), ($4, $5, $6)"
        );
        assert_eq!(placeholders(2, 1, Params::Anonymous), "(?), (?)");
    }

    #[test]
    fn a_sqlite_file_is_locked_by_one_process_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
        let held = Db::lock_sqlite_file(&url).unwrap();
        assert!(held.is_some());
        // flock locks belong to the open file: a second open is refused like a second process.
        let error = Db::lock_sqlite_file(&url).unwrap_err().to_string();
        assert!(error.contains("another pixgate process"), "{error}");
        drop(held);
        assert!(Db::lock_sqlite_file(&url).unwrap().is_some());
        assert!(
            Db::lock_sqlite_file("postgres://u@127.0.0.1/db")
                .unwrap()
                .is_none()
        );
    }

    #[tokio::test]
    async fn sqlite_commits_are_synced_before_they_return() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let db = Db::connect(&url, 2).await.unwrap();
        for pool in [&db.write, &db.read] {
            // 2 is FULL; 1 (NORMAL) loses the last commits on power loss.
            let level: i64 = sqlx::query_scalar("PRAGMA synchronous")
                .fetch_one(pool)
                .await
                .unwrap();
            assert_eq!(level, 2);
            let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
                .fetch_one(pool)
                .await
                .unwrap();
            assert_eq!(mode, "wal");
        }
    }

    /// A block for one backend runs on it alone; the rest runs on both.
    #[test]
    fn a_migration_gives_each_backend_its_own_block() {
        let sql = "-- no-transaction\ncreate table t (a text);\n-- sqlite:\npragma x;\n\
                   -- postgres:\nalter table t add b text;\n-- both:\ncreate index i on t (a);\n";
        assert_eq!(
            for_backend(sql, Backend::Sqlite),
            "-- no-transaction\ncreate table t (a text);\npragma x;\ncreate index i on t (a);\n"
        );
        assert_eq!(
            for_backend(sql, Backend::Postgres),
            "-- no-transaction\ncreate table t (a text);\nalter table t add b text;\n\
             create index i on t (a);\n"
        );
        let recurring = MIGRATIONS.iter().find(|m| m.0 == 22).unwrap().2;
        assert!(!for_backend(recurring, Backend::Postgres).contains("pragma foreign_keys"));
        assert!(!for_backend(recurring, Backend::Sqlite).contains("drop constraint"));
    }

    /// A database that sqlx's `migrate!` migrated records each file's SHA-384 (and a migration
    /// whose checksum differs stops the start): the embedded migrations carry exactly those.
    /// Migration 1's is the one an instance built with `migrate!` recorded.
    #[test]
    fn the_embedded_migrations_are_the_files_with_the_checksums_migrate_recorded() {
        use sha2::{Digest, Sha384};
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "sql"))
            .collect();
        files.sort();
        let migrator = migrator(Backend::Sqlite);
        assert_eq!(migrator.migrations.len(), files.len());
        for (migration, file) in migrator.migrations.iter().zip(&files) {
            let name = file.file_name().unwrap().to_str().unwrap();
            let (version, rest) = name.split_once('_').unwrap();
            assert_eq!(migration.version, version.parse::<i64>().unwrap(), "{name}");
            assert_eq!(
                migration.description,
                rest.trim_end_matches(".sql").replace('_', " ")
            );
            let text = std::fs::read(file).unwrap();
            assert_eq!(
                &*migration.checksum,
                Sha384::digest(&text).as_slice(),
                "{name}"
            );
        }
        assert_eq!(
            hex::encode_upper(&*migrator.migrations[0].checksum),
            "8DC8CE9FCC810EE7DE3431A081702EA3F47B70BC387EA4A76EE1CA3968ADE50F053559A0BC66DCE533BFC4030355369F"
        );
    }
}
