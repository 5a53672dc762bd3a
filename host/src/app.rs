//! The composition root: [`App::build`] wires the database, the sandbox, the component
//! registry, the webhook sender and both HTTP listeners together. `pixgate serve` and the
//! tests call it (the tests with port 0).

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::net::TcpListener;

use crate::bootstrap::{self, Generated, Prepared};
use crate::components::{self, Registry};
use crate::config::ServeConfig;
use crate::crypto::MasterKey;
use crate::db::{self, Db};
use crate::metrics::Metrics;
use pixgate_sandbox::{Limits, Sandbox};

/// Everything the services and handlers share.
pub struct AppState {
    pub db: Db,
    /// Authenticated API keys (SQLite only; cleared by a revocation).
    pub keys: db::key_cache::KeyCache,
    /// The SQLite file's lock: one server process per database file.
    _instance_lock: Option<std::fs::File>,
    /// New SHADOW charges are written through it, many to a transaction.
    pub commits: db::group_commit::GroupCommit,
    pub sandbox: Sandbox,
    /// Each merchant's share of concurrent chain runs.
    pub sandbox_slots: crate::charges::slots::MerchantSlots,
    /// The component versions each store runs, loaded and ready.
    pub components: Registry,
    pub master_key: MasterKey,
    /// SHA-256 (hex) of the admin token.
    pub admin_token_hash: String,
    pub rate_limiter: Option<DefaultKeyedRateLimiter<String>>,
    pub metrics: Metrics,
    pub idempotency_retention_ms: i64,
    pub retention: crate::retention::RetentionArgs,
    /// Stores with their gateways and active component versions, for the charge path.
    pub stores: db::store_cache::StoreCache,
    /// Webhook settings, the egress-safe client and the sender's wake-up signal.
    pub webhooks: crate::webhooks::Webhooks,
    /// PSP providers: their API Pix clients and recent health.
    pub providers: crate::providers::Providers,
    /// Live execution: the public URL for PSP callbacks, the reconciler's interval, leases.
    pub live: crate::live::Live,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("db", &self.db.backend)
            .finish()
    }
}

/// Both listeners, bound, with the state they serve.
pub struct App {
    merchant: TcpListener,
    admin: TcpListener,
    state: Arc<AppState>,
    pub merchant_addr: SocketAddr,
    pub admin_addr: SocketAddr,
    connections: crate::http::serve::ConnectionArgs,
    /// Secrets generated on this start (shown once by `pixgate serve`).
    pub generated: Generated,
}

impl App {
    /// Opens the database (migrating it), prepares the sandbox and the components, and
    /// binds both listeners.
    pub async fn build(config: &ServeConfig) -> anyhow::Result<Self> {
        // Bad webhook settings (a CA file, a CIDR) stop the start before anything is opened.
        let webhooks = crate::webhooks::Webhooks::new(&config.webhooks)?;
        let Prepared {
            db,
            master_key,
            admin_token_hash,
            generated,
            instance_lock,
        } = bootstrap::prepare(config).await?;
        let sandbox = Sandbox::new(Limits::default(), Some(config.data_dir.join("modules")))?
            .with_cache_limit(config.components.component_cache_max_bytes);
        let components = Registry::new(&sandbox, config.components.clone())?;
        components.record_bundled(&db).await?;
        let rate_limiter = NonZeroU32::new(config.rate_limit_per_second).map(|rate| {
            let burst = NonZeroU32::new(config.rate_limit_burst).unwrap_or(rate);
            RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst))
        });
        let metrics = Metrics::new();
        let providers = crate::providers::Providers::new(config.psp.clone(), metrics.psp());
        let merchant = TcpListener::bind(config.listen).await?;
        let admin = TcpListener::bind(config.admin_listen).await?;
        let live = crate::live::Live::new(&config.live, merchant.local_addr()?);
        let commits = db::group_commit::GroupCommit::spawn(
            &db,
            db::group_commit::Settings {
                max_batch: config.commit_max_batch as usize,
                max_wait: config.commit_max_wait,
                // SQLite has one writer; PostgreSQL may overlap round trips.
                in_flight: match db.backend {
                    db::Backend::Sqlite => 1,
                    db::Backend::Postgres => config.commit_in_flight as usize,
                },
            },
            metrics.commits(),
        );
        let state = AppState {
            keys: db::key_cache::KeyCache::new(db.backend),
            _instance_lock: instance_lock,
            commits,
            db,
            sandbox,
            sandbox_slots: crate::charges::slots::MerchantSlots::new(
                config
                    .sandbox_calls_per_merchant
                    .map_or_else(crate::charges::slots::MerchantSlots::default_limit, |n| {
                        n as usize
                    }),
            ),
            components,
            master_key,
            admin_token_hash,
            rate_limiter,
            metrics,
            idempotency_retention_ms: i64::from(config.idempotency_retention_hours) * 3_600_000,
            retention: config.retention.clone(),
            stores: db::store_cache::StoreCache::new(db::store_cache::StoreCache::TTL),
            webhooks,
            providers,
            live,
        };
        Ok(Self {
            merchant_addr: merchant.local_addr()?,
            admin_addr: admin.local_addr()?,
            merchant,
            admin,
            connections: config.connections.clone(),
            state: Arc::new(state),
            generated,
        })
    }

    /// The shared state (benchmarks and in-process embedders write through it).
    pub fn state(&self) -> Arc<AppState> {
        self.state.clone()
    }

    /// Serves until `shutdown` resolves, then lets in-flight requests finish.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let state = self.state;
        spawn_housekeeping(state.clone());
        let shadow = components::shadow::spawn(state.clone());
        let reconciler = crate::live::reconciler::spawn(state.clone());
        // The callback URL carries this instance's public address: registered on every start.
        crate::live::register_callbacks(state.clone(), None);
        let merchant = crate::http::merchant_router(state.clone());
        let admin = crate::http::admin_router(state.clone());

        let (tx, rx) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            shutdown.await;
            let _ = tx.send(true);
        });
        let sender = state
            .webhooks
            .settings
            .worker
            .then(|| tokio::spawn(crate::webhooks::worker::run(state.clone(), rx.clone())));
        use crate::http::serve::serve;
        tokio::join!(
            serve(
                self.merchant,
                merchant,
                self.connections.clone(),
                rx.clone()
            ),
            serve(self.admin, admin, self.connections, rx),
        );
        if let Some(sender) = sender {
            let _ = sender.await;
        }
        shadow.abort();
        reconciler.abort();
        Ok(())
    }
}

/// Background work of a running server: the purge job (`retention`).
fn spawn_housekeeping(state: Arc<AppState>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(state.retention.purge_interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match crate::retention::purge_expired(&state.db, &state.retention, db::now_ms()).await {
                Ok(purged) => {
                    for (table, rows) in purged.into_iter().filter(|(_, n)| *n > 0) {
                        tracing::info!(table, rows, "purged past retention");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "the purge job failed; it runs again later"),
            }
        }
    });
}
