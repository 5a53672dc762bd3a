//! `pixgate backup` and `pixgate restore` for the embedded SQLite database (DESIGN.md section
//! 19): a consistent copy taken while the server writes, checked before it is called a
//! backup, and a restore that only ever fills an empty data dir from a copy it has checked.
//! PostgreSQL has its own tools (`pg_dump`, `pg_restore`); both commands name them.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

/// The file name of the master key beside a backup: `FILE.master-key`.
pub fn master_key_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".master-key");
    PathBuf::from(name)
}

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(
        "this is a PostgreSQL database: back it up with pg_dump (pg_dump -Fc \"$PIXGATE_DATABASE_URL\" \
         -f FILE) and restore it with pg_restore into a new database"
    )]
    Postgres,
    #[error("no database at {0}: is PIXGATE_DATA_DIR (or PIXGATE_DATABASE_URL) right?")]
    NoDatabase(PathBuf),
    #[error("{0} exists: a backup never overwrites a file")]
    Exists(PathBuf),
    #[error("{0} is not empty: restore fills a new data dir only")]
    NotEmpty(PathBuf),
    #[error("{path} is not a sound pixgate database: {why}")]
    Unsound { path: PathBuf, why: String },
    #[error("restore writes <data dir>/pixgate.db; unset PIXGATE_DATABASE_URL ({0})")]
    DatabaseUrl(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Sqlite {
        path: PathBuf,
        #[source]
        source: sqlx::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BackupError + '_ {
    move |source| BackupError::Io {
        path: path.to_owned(),
        source,
    }
}

fn sql(path: &Path) -> impl FnOnce(sqlx::Error) -> BackupError + '_ {
    move |source| BackupError::Sqlite {
        path: path.to_owned(),
        source,
    }
}

/// What a checked copy holds.
#[derive(Debug)]
pub struct Summary {
    /// The newest migration it records.
    pub schema: i64,
    pub payment_intents: i64,
}

/// The SQLite file a `sqlite://` URL names; `Err(Postgres)` for a PostgreSQL URL.
pub fn sqlite_path(url: &str) -> Result<PathBuf, BackupError> {
    if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        return Err(BackupError::Postgres);
    }
    let rest = url.strip_prefix("sqlite:").unwrap_or(url);
    let path = rest.trim_start_matches("//");
    Ok(PathBuf::from(path.split('?').next().unwrap_or_default()))
}

/// Writes a consistent copy of the database at `source` to `file` while a server may be
/// writing to it, and checks the copy. `VACUUM INTO` reads in one transaction (a snapshot
/// under WAL, which never blocks the writer) and writes a compact file; the copy is
/// removed again unless `PRAGMA integrity_check` finds it sound.
pub async fn backup(source: &Path, file: &Path) -> Result<Summary, BackupError> {
    if !source.is_file() {
        return Err(BackupError::NoDatabase(source.to_owned()));
    }
    if file.exists() {
        return Err(BackupError::Exists(file.to_owned()));
    }
    // Read-write without create (`mode=rw`): the server's WAL index is shared, and a
    // missing file is an error rather than a new empty database.
    let mut conn = SqliteConnectOptions::from_str(&format!("sqlite://{}", source.display()))
        .map_err(sql(source))?
        .read_only(false)
        .create_if_missing(false)
        .busy_timeout(std::time::Duration::from_secs(30))
        .disable_statement_logging()
        .connect()
        .await
        .map_err(sql(source))?;
    let target = file.to_str().ok_or_else(|| BackupError::Unsound {
        path: file.to_owned(),
        why: "the path is not UTF-8".into(),
    })?;
    sqlx::query("vacuum into ?")
        .bind(target)
        .execute(&mut conn)
        .await
        .map_err(sql(source))?;
    conn.close().await.map_err(sql(source))?;
    match check(file).await {
        Ok(summary) => Ok(summary),
        Err(e) => {
            let _ = fs::remove_file(file);
            Err(e)
        }
    }
}

/// Checks that `file` is a sound pixgate database: SQLite's header, `PRAGMA
/// integrity_check`, and this schema's migration table with its first migration.
async fn check(file: &Path) -> Result<Summary, BackupError> {
    let unsound = |why: String| BackupError::Unsound {
        path: file.to_owned(),
        why,
    };
    let mut header = [0u8; 16];
    let read = fs::File::open(file)
        .and_then(|mut f| f.read(&mut header))
        .map_err(io(file))?;
    if read < 16 || &header != b"SQLite format 3\0" {
        return Err(unsound("not an SQLite database".into()));
    }
    // Immutable: nothing is written beside the copy (no -wal, no -shm, no lock), and a
    // truncated file is read as it is.
    let mut conn = SqliteConnectOptions::new()
        .filename(file)
        .read_only(true)
        .immutable(true)
        .disable_statement_logging()
        .connect()
        .await
        .map_err(|e| unsound(e.to_string()))?;
    let verdict: Vec<String> = sqlx::query_scalar("pragma integrity_check")
        .fetch_all(&mut conn)
        .await
        .map_err(|e| unsound(e.to_string()))?;
    if verdict != ["ok"] {
        let first = verdict.into_iter().take(3).collect::<Vec<_>>().join("; ");
        return Err(unsound(format!("integrity check: {first}")));
    }
    let schema: Option<i64> =
        sqlx::query_scalar("select max(version) from _sqlx_migrations where success")
            .fetch_one(&mut conn)
            .await
            .map_err(|_| unsound("no pixgate schema (no migration table)".into()))?;
    let Some(schema) = schema else {
        return Err(unsound("no migration applied".into()));
    };
    let payment_intents: i64 = sqlx::query_scalar("select count(*) from payment_intents")
        .fetch_one(&mut conn)
        .await
        .map_err(|_| unsound("no payment_intents table".into()))?;
    conn.close().await.map_err(sql(file))?;
    Ok(Summary {
        schema,
        payment_intents,
    })
}

/// Fills the new (or empty) `data_dir` from the backup `file`: checks the copy, writes it as
/// `pixgate.db` (through a temporary file, synced, then renamed: a crash leaves no
/// half-written database), and takes `FILE.master-key` as `master.key` when it is there.
/// Whether a key was restored is in the answer.
pub async fn restore(file: &Path, data_dir: &Path) -> Result<(Summary, bool), BackupError> {
    match fs::read_dir(data_dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(BackupError::NotEmpty(data_dir.to_owned()));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::create_dir_all(data_dir).map_err(io(data_dir))?;
        }
        Err(e) => return Err(io(data_dir)(e)),
    }
    let summary = check(file).await?;
    let key_file = master_key_path(file);
    let key = match fs::read_to_string(&key_file) {
        Ok(text) => {
            crate::crypto::MasterKey::from_base64(&text).map_err(|e| BackupError::Unsound {
                path: key_file.clone(),
                why: format!("not a master key: {e}"),
            })?;
            Some(text)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(&key_file)(e)),
    };
    let target = data_dir.join("pixgate.db");
    let partial = data_dir.join(".pixgate.db.restoring");
    fs::copy(file, &partial).map_err(io(&partial))?;
    fs::File::open(&partial)
        .and_then(|f| f.sync_all())
        .map_err(io(&partial))?;
    fs::rename(&partial, &target).map_err(io(&target))?;
    if let Some(key) = &key {
        write_master_key(&data_dir.join("master.key"), key)?;
    }
    fs::File::open(data_dir)
        .and_then(|d| d.sync_all())
        .map_err(io(data_dir))?;
    Ok((summary, key.is_some()))
}

/// Writes a master key to a new file only its owner reads.
pub fn write_master_key(path: &Path, contents: &str) -> Result<(), BackupError> {
    #[cfg(unix)]
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    options.mode(0o600);
    let mut f = options.open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            BackupError::Exists(path.to_owned())
        } else {
            io(path)(e)
        }
    })?;
    f.write_all(contents.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(io(path))
}
