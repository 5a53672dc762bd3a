//! The composition root: [`App::build`] opens the database, prepares the sandbox and the
//! component registry, builds one handle per service with what it uses, and binds both
//! HTTP listeners. `pixgate serve` and the tests call it (the tests with port 0).
//!
//! The routers' state it hands to `http` is [`AppState`] (`http/state.rs`): the handlers take
//! the service they call through it, and no service sees it.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use governor::{Quota, RateLimiter};
use tokio::net::TcpListener;

use crate::access::Access;
use crate::bootstrap::{self, Generated, Prepared};
use crate::catalog::Catalog;
use crate::charges::batches::ChargeBatches;
use crate::charges::{ChargeDeps, Charges};
use crate::components::{ComponentService, Registry};
use crate::config::ServeConfig;
use crate::crypto::MasterKey;
use crate::db::group_commit::GroupCommit;
use crate::db::store_cache::StoreCache;
use crate::db::{self, Db};
use crate::http::AppState;
use crate::mandates::{MandateDeps, Mandates};
use crate::metrics::Metrics;
use crate::operators::Operators;
use crate::psp::live::LiveExecution;
use crate::psp::providers::{ProviderAdmin, Providers};
use crate::reconciliation::{ReconcileDeps, Reconciliations};
use crate::refunds::Refunds;
use crate::retention::RetentionArgs;
use crate::routing::slots::MerchantSlots;
use crate::routing::{Routing, RoutingDeps};
use crate::search::Search;
use crate::settlements::Settlements;
use crate::webhooks::endpoints::Endpoints;
use crate::webhooks::{Delivery, Wake, Webhooks};
use pixgate_sandbox::Sandbox;

/// What the charge path is built from: the shared handles and the settings.
pub(crate) struct ChargePathParts {
    pub db: Db,
    pub master_key: MasterKey,
    pub sandbox: Arc<Sandbox>,
    pub registry: Arc<Registry>,
    pub stores: Arc<StoreCache>,
    pub providers: Arc<Providers>,
    pub metrics: Arc<Metrics>,
    pub live: crate::psp::live::Live,
    pub commits: GroupCommit,
    /// A merchant's share of concurrent chain runs.
    pub sandbox_calls_per_merchant: usize,
    pub wake: Wake,
    pub idempotency_retention_ms: i64,
    pub trace_retention: std::time::Duration,
    /// How long a PUSH mandate's request waits for the payer.
    pub mandate_push_expiry: std::time::Duration,
    /// How many days before a cycle's due date a mandate that charges itself is charged.
    pub mandate_lead_days: u32,
}

/// The services a charge goes through, each given the handles it uses: the one place that
/// wires them, for `pixgate serve` and for the tests that build the charge service alone.
pub(crate) struct ChargePath {
    pub live: LiveExecution,
    pub components: ComponentService,
    pub charges: Charges,
    /// Pix Automático mandates: the chain once per mandate, a first payment as a charge.
    pub mandates: Mandates,
}

impl ChargePath {
    pub(crate) fn wire(parts: ChargePathParts) -> Self {
        let ChargePathParts {
            db,
            master_key,
            sandbox,
            registry,
            stores,
            providers,
            metrics,
            live,
            commits,
            sandbox_calls_per_merchant,
            wake,
            idempotency_retention_ms,
            trace_retention,
            mandate_push_expiry,
            mandate_lead_days,
        } = parts;
        let live = LiveExecution::new(
            db.clone(),
            master_key.clone(),
            providers.clone(),
            live,
            metrics.clone(),
            wake.clone(),
        );
        let components = ComponentService::new(
            db.clone(),
            sandbox.clone(),
            registry.clone(),
            stores.clone(),
            providers.clone(),
            metrics.clone(),
            trace_retention,
        );
        let routing = Routing::new(RoutingDeps {
            db: db.clone(),
            registry,
            sandbox,
            slots: Arc::new(MerchantSlots::new(sandbox_calls_per_merchant)),
            providers,
            components: components.clone(),
            metrics: metrics.clone(),
        });
        let charges = Charges::new(ChargeDeps {
            db: db.clone(),
            stores: stores.clone(),
            commits,
            master_key: master_key.clone(),
            routing: routing.clone(),
            metrics,
            live: live.clone(),
            wake,
            idempotency_retention_ms,
        });
        let mandates = Mandates::new(MandateDeps {
            db,
            stores,
            master_key,
            routing,
            charges: charges.clone(),
            live: live.clone(),
            push_expiry: mandate_push_expiry,
            lead_days: mandate_lead_days,
        });
        Self {
            live,
            components,
            charges,
            mandates,
        }
    }
}

/// Both listeners, bound, with the state they serve.
pub struct App {
    merchant: TcpListener,
    admin: TcpListener,
    state: Arc<AppState>,
    /// The purge job's settings.
    retention: RetentionArgs,
    /// The webhook sender runs on this instance (`PIXGATE_WEBHOOK_WORKER`).
    sender: bool,
    /// Its wake-up signal, for embedders that write events themselves ([`App::webhook_wake`]).
    wake: Wake,
    /// The SQLite file's lock: one server process per database file.
    _instance_lock: Option<std::fs::File>,
    pub merchant_addr: SocketAddr,
    pub admin_addr: SocketAddr,
    connections: crate::config::ConnectionArgs,
    /// Secrets generated on this start (shown once by `pixgate serve`).
    pub generated: Generated,
}

impl App {
    /// Opens the database (migrating it), prepares the sandbox and the components, builds
    /// the services, and binds both listeners.
    pub async fn build(config: &ServeConfig) -> anyhow::Result<Self> {
        // Bad webhook settings (a CA file, a CIDR) stop the start before anything is opened.
        let webhooks = Arc::new(Webhooks::new(&config.webhooks)?);
        let Prepared {
            db,
            master_key,
            admin_token_hash,
            generated,
            instance_lock,
        } = bootstrap::prepare(config).await?;
        let sandbox = Arc::new(
            Sandbox::new(
                config.components.limits(),
                Some(config.data.data_dir.join("modules")),
            )?
            .with_cache_limit(config.components.component_cache_max_bytes)
            .with_compile_threads(
                config
                    .components
                    .component_compile_threads
                    .map_or_else(pixgate_sandbox::default_compile_threads, usize::from),
            ),
        );
        let registry = Arc::new(Registry::new(&sandbox, config.components.clone())?);
        registry.record_bundled(&db).await?;
        let rate_limiter = NonZeroU32::new(config.rate_limit_per_second).map(|rate| {
            let burst = NonZeroU32::new(config.rate_limit_burst).unwrap_or(rate);
            RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst))
        });
        let metrics = Arc::new(Metrics::new());
        let providers = Arc::new(Providers::new(config.psp.clone(), metrics.psp()));
        providers.expose(&db).await?;
        let merchant = listen(config.listen, "PIXGATE_LISTEN or --listen").await?;
        let admin = listen(
            config.admin_listen,
            "PIXGATE_ADMIN_LISTEN or --admin-listen",
        )
        .await?;
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
        let stores = Arc::new(db::store_cache::StoreCache::new(
            db::store_cache::StoreCache::TTL,
        ));
        let keys = Arc::new(db::key_cache::KeyCache::new(db.backend));

        let ChargePath {
            live,
            components,
            charges,
            mandates,
        } = ChargePath::wire(ChargePathParts {
            db: db.clone(),
            master_key: master_key.clone(),
            sandbox,
            registry,
            stores: stores.clone(),
            providers: providers.clone(),
            metrics: metrics.clone(),
            live: crate::psp::live::Live::new(&config.live, merchant.local_addr()?),
            commits,
            sandbox_calls_per_merchant: config
                .sandbox_calls_per_merchant
                .map_or_else(MerchantSlots::default_limit, |n| n as usize),
            wake: webhooks.wake(),
            idempotency_retention_ms: i64::from(config.idempotency_retention_hours) * 3_600_000,
            trace_retention: config.retention.trace_retention,
            mandate_push_expiry: config.mandates.mandate_push_expiry,
            mandate_lead_days: config.mandates.mandate_lead_days,
        });
        let delivery = Delivery::new(
            db.clone(),
            master_key.clone(),
            webhooks.clone(),
            metrics.clone(),
        );
        let endpoints = Endpoints::new(
            db.clone(),
            master_key.clone(),
            webhooks.settings.max_endpoints,
            delivery.clone(),
            webhooks.wake(),
        );
        let refunds = Refunds::new(db.clone(), live.clone(), webhooks.wake());
        let batches = ChargeBatches::new(charges.clone());
        let reconciliations = Reconciliations::new(ReconcileDeps {
            db: db.clone(),
            live: live.clone(),
            metrics: metrics.clone(),
            page_size: config.reconcile.reconcile_page_size,
            daily_at: config.reconcile.reconcile_daily_at.0,
        });
        let state = AppState {
            access: Access::new(db.clone(), keys.clone(), admin_token_hash, rate_limiter),
            catalog: Catalog::new(db.clone(), stores, keys),
            charges,
            batches,
            refunds,
            mandates,
            reconciliations,
            settlements: Settlements::new(db.clone()),
            components,
            providers: ProviderAdmin::new(db.clone(), master_key, live.clone()),
            live,
            delivery,
            endpoints,
            search: Search::new(db.clone()),
            operators: Operators::new(db.clone()),
            db,
            metrics,
        };
        // Operators from before names were compared regardless of case get their key.
        state.operators.key_operator_names().await?;
        Ok(Self {
            merchant_addr: merchant.local_addr()?,
            admin_addr: admin.local_addr()?,
            merchant,
            admin,
            connections: config.connections.clone(),
            state: Arc::new(state),
            retention: config.retention.clone(),
            sender: webhooks.settings.worker,
            wake: webhooks.wake(),
            _instance_lock: instance_lock,
            generated,
        })
    }

    /// The database, for embedders (benchmarks) that write payment events through the outbox
    /// themselves.
    pub fn db(&self) -> Db {
        self.state.db.clone()
    }

    /// The webhook sender's wake-up signal, to give after such a write (as the services do).
    pub fn webhook_wake(&self) -> Wake {
        self.wake.clone()
    }

    /// Serves until `shutdown` resolves, then lets in-flight requests finish.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let state = self.state;
        spawn_housekeeping(state.db.clone(), self.retention);
        let shadow = state.components.spawn_shadow_worker();
        let preloader = state.components.spawn_preloader();
        let reconciler = state.live.spawn_reconciler();
        // Batches written before a restart, or by another instance, are resumed from the
        // database.
        let batch_worker = state.batches.spawn_worker();
        // Each cycle's charge of the mandates that charge themselves.
        let auto_charger = state.mandates.spawn_auto_charge();
        // The ledger sweep of each provider's day before, once a day.
        let daily_sweep = state.reconciliations.spawn_daily();
        // The callback URL carries this instance's public address: registered on every start.
        state.live.register_callbacks(None);
        let merchant = crate::http::merchant_router(state.clone());
        let admin = crate::http::admin_router(state.clone());

        let (tx, rx) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            shutdown.await;
            let _ = tx.send(true);
        });
        let sender = self.sender.then(|| {
            let (delivery, rx) = (state.delivery.clone(), rx.clone());
            tokio::spawn(async move { delivery.run(rx).await })
        });
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
        preloader.abort();
        reconciler.abort();
        batch_worker.abort();
        auto_charger.abort();
        if let Some(daily) = daily_sweep {
            daily.abort();
        }
        Ok(())
    }
}

/// Background work of a running server: the purge job (`retention`).
fn spawn_housekeeping(db: Db, retention: RetentionArgs) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(retention.purge_interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match crate::retention::purge_expired(&db, &retention, db::now_ms()).await {
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

/// A listener on `addr`, or an error that names the address and what sets it: "Address
/// already in use" alone does not say which of the two listeners, nor how to move it.
async fn listen(addr: std::net::SocketAddr, set_by: &str) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr).await.map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
            " (another pixgate, or another program, listens there: stop it or choose another \
             address)"
        } else {
            ""
        };
        anyhow::anyhow!("cannot listen on {addr}: {e}{hint}; the address is set by {set_by}")
    })
}
