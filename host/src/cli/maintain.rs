//! The operator's commands around `serve` (DESIGN.md section 19): `healthcheck` for images
//! without curl, `migrate` for a job that migrates before instances roll, `backup` and
//! `restore` for the embedded database.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::admin::CliError;
use pixgate::config::DataArgs;
use pixgate::db::{self, Db, backup};

#[derive(Debug, Args)]
pub(super) struct HealthcheckArgs {
    /// The instance's admin listener, as `pixgate serve` was given it; an unspecified address
    /// (`0.0.0.0`, `::`) is asked on loopback.
    #[arg(long, env = "PIXGATE_ADMIN_LISTEN", default_value = "127.0.0.1:8081")]
    admin_listen: SocketAddr,
    /// How long to wait for the answer.
    #[arg(long, default_value = "3s", value_parser = humantime::parse_duration)]
    timeout: Duration,
}

#[derive(Debug, Args)]
pub(super) struct MigrateArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Apply nothing: exit 1 when the database lacks one of this release's migrations.
    #[arg(long)]
    check: bool,
    /// Keep trying to reach the database for this long before giving up (a compose service or
    /// a Job started beside its database); by default one try.
    #[arg(long, value_name = "DURATION", default_value = "0s", value_parser = humantime::parse_duration)]
    wait: std::time::Duration,
}

#[derive(Debug, Args)]
pub(super) struct BackupArgs {
    /// Where to write the copy (a new file).
    file: PathBuf,
    #[command(flatten)]
    data: DataArgs,
    /// Also write the master key beside it, as `FILE.master-key` (owner-only). Whoever holds
    /// both holds the payer data: keep them apart unless this is what you want.
    #[arg(long)]
    with_master_key: bool,
}

#[derive(Debug, Args)]
pub(super) struct RestoreArgs {
    /// A copy `pixgate backup` wrote (its `FILE.master-key` is taken when present).
    file: PathBuf,
    /// The new data dir to fill: absent or empty.
    #[arg(long, env = "PIXGATE_DATA_DIR")]
    data_dir: PathBuf,
    #[arg(
        long,
        env = "PIXGATE_DATABASE_URL",
        hide = true,
        hide_env_values = true
    )]
    database_url: Option<String>,
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::local("runtime", format!("cannot start the runtime: {e}")))
}

/// Exit status 0 when `/readyz` answers 200.
pub(super) fn healthcheck(args: &HealthcheckArgs) -> Result<(), CliError> {
    let mut addr = args.admin_listen;
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr.ip() {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        });
    }
    let url = format!("http://{addr}/readyz");
    let unhealthy = |why: String| CliError::local("unhealthy", format!("{url}: {why}"));
    runtime()?.block_on(async {
        // Plain http on loopback; reqwest still wants its TLS set up (no default provider).
        let client = reqwest::Client::builder()
            .tls_backend_preconfigured(super::admin::tls_config())
            .timeout(args.timeout)
            .no_proxy()
            .build()
            .map_err(|e| unhealthy(e.to_string()))?;
        let answer = client
            .get(&url)
            .send()
            .await
            .map_err(|e| unhealthy(e.to_string()))?;
        match answer.status().as_u16() {
            200 => Ok(()),
            status => Err(unhealthy(format!("answered {status}"))),
        }
    })
}

pub(super) fn migrate(args: &MigrateArgs) -> Result<(), CliError> {
    let url = args.data.database_url();
    let failed = |e: db::DbError| CliError::local("migration_failed", e.to_string());
    if args.data.database_url.is_none() {
        // The embedded database of a new data dir, as `serve` would make it.
        std::fs::create_dir_all(&args.data.data_dir).map_err(|e| {
            CliError::local(
                "migration_failed",
                format!(
                    "creating the data dir {}: {e}",
                    args.data.data_dir.display()
                ),
            )
        })?;
    }
    runtime()?.block_on(async {
        // Read first; `migrate` below applies under the migrator's lock, as `serve` does.
        let deadline = std::time::Instant::now() + args.wait;
        // The probe first: the pool's own connect waits out its acquire timeout (30 s) on a
        // refused connection. The open is retried too: a name lookup can fail after the probe's
        // succeeded (musl's resolver on some container networks).
        let db = loop {
            let attempt = async {
                Db::probe(&url, std::time::Duration::from_secs(5)).await?;
                Db::open_unmigrated(&url, 2).await
            };
            match attempt.await {
                Ok(db) => break db,
                Err(e) if std::time::Instant::now() < deadline => {
                    eprintln!("pixgate: waiting for the database: {e}");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
                Err(e) => return Err(failed(e)),
            }
        };
        let status = db.migration_status().await.map_err(failed)?;
        if !status.newer.is_empty() {
            println!(
                "pixgate: the database also has {} migration(s) of a newer release (up to {:04}); \
                 this release serves beside it",
                status.newer.len(),
                status.newer.iter().max().copied().unwrap_or_default()
            );
        }
        if args.check {
            if status.pending.is_empty() {
                println!("pixgate: the database is up to date");
                return Ok(());
            }
            for (version, description) in &status.pending {
                println!("pending: {version:04} {description}");
            }
            return Err(CliError::local(
                "migrations_pending",
                format!(
                    "the database lacks {} of this release's migrations: run `pixgate migrate`",
                    status.pending.len()
                ),
            ));
        }
        let applied = db::migrate(&db).await.map_err(failed)?;
        println!("pixgate: {applied} migration(s) applied; the database is up to date");
        Ok(())
    })
}

pub(super) fn backup(args: &BackupArgs) -> Result<(), CliError> {
    let failed = |e: backup::BackupError| CliError::local("backup_failed", e.to_string());
    let source = backup::sqlite_path(&args.data.database_url()).map_err(failed)?;
    let key = if args.with_master_key {
        let key = match &args.data.master_key {
            Some(key) => key.clone(),
            None => {
                let path = args.data.data_dir.join("master.key");
                std::fs::read_to_string(&path).map_err(|e| {
                    CliError::local(
                        "backup_failed",
                        format!(
                            "{}: {e} (set PIXGATE_MASTER_KEY or PIXGATE_DATA_DIR)",
                            path.display()
                        ),
                    )
                })?
            }
        };
        let path = backup::master_key_path(&args.file);
        if path.exists() {
            return Err(failed(backup::BackupError::Exists(path)));
        }
        Some((path, key))
    } else {
        None
    };
    let summary = runtime()?
        .block_on(backup::backup(&source, &args.file))
        .map_err(failed)?;
    if let Some((path, key)) = key {
        backup::write_master_key(&path, key.trim()).map_err(failed)?;
        println!("pixgate: master key written to {}", path.display());
    }
    println!(
        "pixgate: backup written to {} (schema {:04}, {} payment intents; integrity check ok)",
        args.file.display(),
        summary.schema,
        summary.payment_intents
    );
    Ok(())
}

pub(super) fn restore(args: &RestoreArgs) -> Result<(), CliError> {
    let failed = |e: backup::BackupError| CliError::local("restore_failed", e.to_string());
    if let Some(url) = &args.database_url {
        return Err(failed(match backup::sqlite_path(url) {
            Err(e) => e,
            Ok(_) => {
                backup::BackupError::DatabaseUrl(url.split('?').next().unwrap_or_default().into())
            }
        }));
    }
    let (summary, key) = runtime()?
        .block_on(backup::restore(&args.file, &args.data_dir))
        .map_err(failed)?;
    println!(
        "pixgate: restored {} into {} (schema {:04}, {} payment intents; integrity check ok){}",
        args.file.display(),
        args.data_dir.display(),
        summary.schema,
        summary.payment_intents,
        if key {
            "; master key restored"
        } else {
            "; no master key beside the backup: give the instance PIXGATE_MASTER_KEY"
        }
    );
    Ok(())
}
