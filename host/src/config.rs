//! `pixgate serve` configuration: every option is a flag and a `PIXGATE_*` variable
//! (DESIGN.md section 3 names them; scripts rely on those names).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Where the data lives: what `serve` opens and `migrate`, `backup` and `restore` work on.
#[derive(Debug, Clone, clap::Args)]
pub struct DataArgs {
    /// `sqlite://...` (embedded default: `<data dir>/pixgate.db`) or `postgres://...`.
    #[arg(long, env = "PIXGATE_DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,
    /// SQLite file, generated master key, compiled-component cache.
    #[arg(long, env = "PIXGATE_DATA_DIR", default_value = "./pixgate-data")]
    pub data_dir: PathBuf,
    /// 32 bytes in base64 that seal secrets and PII at rest; generated into the data dir when
    /// unset. Every instance sharing one PostgreSQL needs the same key.
    #[arg(long, env = "PIXGATE_MASTER_KEY", hide_env_values = true)]
    pub master_key: Option<String>,
}

impl DataArgs {
    pub fn database_url(&self) -> String {
        self.database_url
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}", self.data_dir.join("pixgate.db").display()))
    }
}

/// `PIXGATE_MIGRATE`: whether `serve` applies the migrations its database lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MigrateMode {
    /// Apply them at start (under PostgreSQL's advisory lock: instances starting together
    /// migrate once).
    Auto,
    /// Refuse to start on a database that lacks one, naming `pixgate migrate`: for
    /// deployments where a job migrates before the instances roll.
    Off,
}

#[derive(Debug, Clone, clap::Args)]
pub struct ServeConfig {
    #[command(flatten)]
    pub data: DataArgs,
    /// Merchant API listener; the base address is `http://<listen>/api/v1`.
    #[arg(long, env = "PIXGATE_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Admin API, health and metrics listener.
    #[arg(long, env = "PIXGATE_ADMIN_LISTEN", default_value = "127.0.0.1:8081")]
    pub admin_listen: SocketAddr,
    /// Bearer token of the admin API; generated on first start and printed once when unset.
    #[arg(long, env = "PIXGATE_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// `auto` applies the migrations the database lacks at start; `off` refuses to start
    /// until `pixgate migrate` has.
    #[arg(long, env = "PIXGATE_MIGRATE", value_enum, default_value_t = MigrateMode::Auto)]
    pub migrate: MigrateMode,
    /// Seed a demo merchant, SHADOW store and API key (default: when the database is new).
    #[arg(long, env = "PIXGATE_DEMO")]
    pub demo: Option<bool>,
    /// Requests per second each API key may make (0 turns the limit off).
    #[arg(long, env = "PIXGATE_RATE_LIMIT_PER_SECOND", default_value_t = 100)]
    pub rate_limit_per_second: u32,
    /// Requests an API key may make at once above its rate.
    #[arg(long, env = "PIXGATE_RATE_LIMIT_BURST", default_value_t = 200)]
    pub rate_limit_burst: u32,
    /// How long an Idempotency-Key is remembered, hours (at least 24).
    #[arg(long, env = "PIXGATE_IDEMPOTENCY_RETENTION_HOURS", default_value_t = 24,
          value_parser = clap::value_parser!(u32).range(24..))]
    pub idempotency_retention_hours: u32,
    /// Database connections (PostgreSQL: the pool; SQLite: readers beside the one writer).
    #[arg(long, env = "PIXGATE_DB_MAX_CONNECTIONS", default_value_t = 16)]
    pub db_max_connections: u32,
    /// Group commit: the most charges written in one transaction (one fsync).
    #[arg(long, env = "PIXGATE_COMMIT_MAX_BATCH", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub commit_max_batch: u32,
    /// Group commit: how long a batch that is not full waits for more charges; `0ms` commits
    /// what has arrived (batches still form while the previous commit syncs).
    #[arg(long, env = "PIXGATE_COMMIT_MAX_WAIT", default_value = "0ms",
          value_parser = humantime::parse_duration)]
    pub commit_max_wait: Duration,
    /// Group commit on PostgreSQL: transactions in flight at once (SQLite has one writer).
    /// One gives the largest batches, the best on a database that shares the server's cores;
    /// more overlap round trips to a remote database.
    #[arg(long, env = "PIXGATE_COMMIT_IN_FLIGHT", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub commit_in_flight: u32,
    /// Charges of one merchant that run their chain at once (default: half the cores, at
    /// least one): a merchant's slow or hostile components cannot take every core.
    #[arg(long, env = "PIXGATE_SANDBOX_CALLS_PER_MERCHANT",
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub sandbox_calls_per_merchant: Option<u32>,
    /// Log filter, e.g. `info` or `pixgate=debug` (logs go to stderr).
    #[arg(long, env = "PIXGATE_LOG", default_value = "info")]
    pub log: String,
    /// `text` (colour only on a terminal) or `json`, one object per line for log pipelines.
    #[arg(long, env = "PIXGATE_LOG_FORMAT", value_enum, default_value_t = crate::logging::LogFormat::Text)]
    pub log_format: crate::logging::LogFormat,
    #[command(flatten)]
    pub connections: ConnectionArgs,
    #[command(flatten)]
    pub retention: crate::retention::RetentionArgs,
    #[command(flatten)]
    pub webhooks: crate::webhooks::WebhookArgs,
    #[command(flatten)]
    pub components: crate::components::ComponentArgs,
    #[command(flatten)]
    pub psp: crate::psp::client::PspArgs,
    #[command(flatten)]
    pub live: crate::psp::live::LiveArgs,
    #[command(flatten)]
    pub mandates: crate::mandates::MandateArgs,
    #[command(flatten)]
    pub reconcile: crate::reconciliation::ReconcileArgs,
}

/// `pixgate serve` connection limits (flags and `PIXGATE_*` variables).
#[derive(Debug, Clone, clap::Args)]
pub struct ConnectionArgs {
    /// Connections served at once on each listener; more wait in the kernel's backlog.
    #[arg(long, env = "PIXGATE_MAX_CONNECTIONS", default_value_t = 4096,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// How long a client may take to send a request's headers, and how long a keep-alive
    /// connection may stay idle.
    #[arg(long, env = "PIXGATE_HEADER_READ_TIMEOUT", default_value = "10s",
          value_parser = parse_timeout)]
    pub header_read_timeout: Duration,
    /// How long a client may take to send a request's body once its headers are in.
    #[arg(long, env = "PIXGATE_BODY_READ_TIMEOUT", default_value = "30s",
          value_parser = parse_timeout)]
    pub body_read_timeout: Duration,
}

fn parse_timeout(s: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(s).map_err(|e| e.to_string())?;
    if d.is_zero() || d > Duration::from_secs(3600) {
        return Err("must be more than 0 and at most an hour".into());
    }
    Ok(d)
}
