//! Policy components as payment-ops manage them: immutable versions (named by sha256),
//! activation per store and step with rollback and history, shadow candidates, the kill
//! switch, dry-run evaluation ([`evaluate`]) and replay ([`replay`]).
//!
//! [`Registry`] keeps every loaded version ready for calls. A charge takes `Arc`s of the
//! versions its store runs when it starts, so an activation never changes a charge in
//! flight; other instances learn of an activation through the store cache (one second).

pub mod canary;
pub mod evaluate;
mod history;
pub mod input;
pub mod kill_switch;
pub mod limits;
mod preload;
pub mod replay;
pub mod shadow;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::access::Actor;
use crate::db::audit::{self, Action, Change};
use crate::db::components::{
    self as sql, ActivationAction, BUNDLED, KillSwitch, StoreStep, VersionRole, VersionSource,
};
use crate::db::store_cache::StoreCache;
use crate::db::{self, Db, DbError, catalog};
use crate::internal::Internal;
use crate::metrics::Metrics;
use crate::psp::providers::Providers;
use pixgate_domain::Step;
use pixgate_domain::json::Integer;
use pixgate_pix::time::iso8601;
use pixgate_sandbox::chain::Components;
use pixgate_sandbox::{Budget, Limits, LoadedComponent, Sandbox, SandboxError};

/// A step in a path: the rule of `Step::from_str`.
pub const STEP_PATTERN: &str = "^(policy|provider|economics)$";
/// A version to activate or compare: `bundled` or a sha256, as [`valid_version`] checks.
pub const VERSION_PATTERN: &str = "^(bundled|[0-9a-f]{64})$";
/// A stored version's name.
pub const SHA256_PATTERN: &str = "^[0-9a-f]{64}$";

/// `bundled` or a lowercase hex sha256.
pub fn valid_version(version: &str) -> bool {
    version == BUNDLED
        || (version.len() == 64
            && version
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

/// Settings of `pixgate serve` for components.
#[derive(Debug, Clone, clap::Args)]
pub struct ComponentArgs {
    /// Largest component that may be uploaded, bytes.
    #[arg(long, env = "PIXGATE_COMPONENT_MAX_BYTES", default_value_t = pixgate_sandbox::DEFAULT_COMPONENT_MAX_BYTES,
          value_parser = clap::value_parser!(u64).range(1024..=(64 << 20)))]
    pub component_max_bytes: u64,
    /// Charges waiting for their shadow comparison; beyond it a comparison is skipped (and
    /// counted), never the charge delayed.
    #[arg(long, env = "PIXGATE_SHADOW_QUEUE", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub shadow_queue: u64,
    /// The most the compiled-component cache (`<data dir>/modules/`) may hold on disk; the
    /// least recently used compiled components go first (they are compiled again when needed).
    #[arg(long, env = "PIXGATE_COMPONENT_CACHE_MAX_BYTES",
          default_value_t = pixgate_sandbox::DEFAULT_CACHE_BYTES,
          value_parser = clap::value_parser!(u64).range((16 << 20)..))]
    pub component_cache_max_bytes: u64,
    /// The most fuel a version's own budget may grant (`PATCH /components/{step}/{version}`);
    /// a version without one gets 11,000,000.
    #[arg(long, env = "PIXGATE_COMPONENT_MAX_FUEL", default_value_t = DEFAULT_MAX_FUEL,
          value_parser = clap::value_parser!(u64).range(11_000_000..=10_000_000_000))]
    pub component_max_fuel: u64,
    /// The most linear memory a version's own budget may grant, bytes (all memories of a call
    /// together); a version without one gets 16 MiB. The sandbox's instance slots are sized
    /// for it.
    #[arg(long, env = "PIXGATE_COMPONENT_MAX_MEMORY_BYTES", default_value_t = DEFAULT_MAX_MEMORY_BYTES,
          value_parser = clap::value_parser!(u64).range((16 << 20)..=(1 << 30)))]
    pub component_max_memory_bytes: u64,
    /// Threads one component compile may use (an upload, or a version loaded at start that
    /// the cache does not hold). Default: half the cores, at least one, so that compiling a
    /// large upload leaves the other cores to the charges.
    #[arg(long, env = "PIXGATE_COMPONENT_COMPILE_THREADS",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub component_compile_threads: Option<u16>,
    /// Upload bodies read at once; one more is refused (429 `too_many_uploads`) before its
    /// body is read, so that uploads cannot take the memory and cores the charges need.
    #[arg(long, env = "PIXGATE_MAX_CONCURRENT_UPLOADS", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_concurrent_uploads: u32,
    /// Replays running at once, all stores together; one more is refused (429
    /// `too_many_replays`).
    #[arg(long, env = "PIXGATE_MAX_CONCURRENT_REPLAYS", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_concurrent_replays: u32,
    /// Replays of one store running at once (at most `PIXGATE_MAX_CONCURRENT_REPLAYS`).
    #[arg(long, env = "PIXGATE_MAX_CONCURRENT_REPLAYS_PER_STORE", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_concurrent_replays_per_store: u32,
    /// The most bytes the uploaded components may take in the database together; an upload
    /// beyond it is refused (507 `component_store_full`, naming the versions no store uses).
    #[arg(long, env = "PIXGATE_COMPONENT_STORE_MAX_BYTES", default_value_t = DEFAULT_STORE_MAX_BYTES,
          value_parser = clap::value_parser!(u64).range(1024..))]
    pub component_store_max_bytes: u64,
}

/// `PIXGATE_COMPONENT_STORE_MAX_BYTES` unless set: 2 GiB, about sixty 32 MiB engines.
pub const DEFAULT_STORE_MAX_BYTES: u64 = 2 << 30;

/// `PIXGATE_COMPONENT_MAX_FUEL` unless set: about nine times the default budget, room for an
/// interpreter's start-up on top of its logic.
pub const DEFAULT_MAX_FUEL: u64 = 100_000_000;
/// `PIXGATE_COMPONENT_MAX_MEMORY_BYTES` unless set: four times the default budget.
pub const DEFAULT_MAX_MEMORY_BYTES: u64 = 64 << 20;

impl Default for ComponentArgs {
    fn default() -> Self {
        Self {
            component_max_bytes: pixgate_sandbox::DEFAULT_COMPONENT_MAX_BYTES,
            shadow_queue: 1024,
            component_cache_max_bytes: pixgate_sandbox::DEFAULT_CACHE_BYTES,
            component_max_fuel: DEFAULT_MAX_FUEL,
            component_max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES,
            component_compile_threads: None,
            max_concurrent_uploads: 2,
            max_concurrent_replays: 2,
            max_concurrent_replays_per_store: 1,
            component_store_max_bytes: DEFAULT_STORE_MAX_BYTES,
        }
    }
}

impl ComponentArgs {
    /// The sandbox's limits: DESIGN.md section 9's defaults, with instance slots large enough
    /// for the largest memory budget an operator allows.
    pub fn limits(&self) -> Limits {
        Limits {
            max_memory_bytes: usize::try_from(self.component_max_memory_bytes)
                .unwrap_or(usize::MAX),
            ..Limits::default()
        }
    }
}

/// What went wrong with a component operation.
#[derive(Debug, thiserror::Error)]
pub enum ComponentError {
    #[error("{0}")]
    InvalidComponent(String),
    #[error("not a component of the {step} step: {detail}")]
    WrongWorld { step: Step, detail: String },
    #[error("the component imports what the sandbox does not provide: {0}")]
    UnsupportedImport(String),
    #[error("the component needs more than one sandbox instance may have: {0}")]
    ExceedsLimits(String),
    #[error("the component is {size} bytes; the limit is {limit}")]
    TooLarge { size: u64, limit: u64 },
    #[error("{step} component `{version}` not found")]
    NotFound { step: Step, version: String },
    #[error("store `{0}` not found")]
    StoreNotFound(String),
    #[error("`{field}` {value} is over the maximum of {maximum} (`{variable}`)")]
    BudgetOverMaximum {
        field: &'static str,
        value: u64,
        maximum: u64,
        variable: &'static str,
    },
    #[error("{step} component `{version}` is in use by {}", .uses.join(", "))]
    InUse {
        step: Step,
        version: String,
        uses: Vec<String>,
    },
    #[error("the bundled component cannot be deleted")]
    BundledIsPermanent,
    #[error("{step} version `{version}` is already the active one; a canary needs another")]
    CanaryIsActive { step: Step, version: String },
    #[error("store `{store}` has no {step} canary")]
    CanaryNotFound { store: String, step: Step },
    #[error("store `{store}` has no earlier {step} version to roll back to")]
    NothingToRollBack { store: String, step: Step },
    #[error("{message}")]
    Invalid {
        code: &'static str,
        field: String,
        message: String,
    },
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(
        "{limit} component uploads are being read already (`PIXGATE_MAX_CONCURRENT_UPLOADS`); \
         retry in a moment"
    )]
    TooManyUploads { limit: usize },
    #[error(
        "store `{store}` runs {limit} replay(s) already \
         (`PIXGATE_MAX_CONCURRENT_REPLAYS_PER_STORE`); retry in a moment"
    )]
    TooManyReplaysOfStore { store: String, limit: usize },
    #[error(
        "{limit} replays are running already (`PIXGATE_MAX_CONCURRENT_REPLAYS`); retry in a \
         moment"
    )]
    TooManyReplays { limit: usize },
    #[error(
        "storing these {size} bytes would take the uploaded components over \
         `PIXGATE_COMPONENT_STORE_MAX_BYTES` ({limit} bytes, {stored} taken); {}",
        deletable_message(.deletable)
    )]
    StoreFull {
        size: u64,
        stored: u64,
        limit: u64,
        /// `step/version` of each uploaded version no store runs, shadows or canaries.
        deletable: Vec<String>,
    },
    #[error(transparent)]
    Internal(#[from] Internal),
}

/// What a full component store's refusal offers: the versions no store uses.
fn deletable_message(deletable: &[String]) -> String {
    if deletable.is_empty() {
        "every stored version is in use by a store".to_owned()
    } else {
        format!(
            "versions no store uses, which may be deleted: {}",
            deletable.join(", ")
        )
    }
}

impl From<sqlx::Error> for ComponentError {
    fn from(e: sqlx::Error) -> Self {
        Self::Db(DbError::Sqlx(e))
    }
}

impl ComponentError {
    /// A load's failure: each way a component can be refused keeps its own variant (a 4xx);
    /// what a load cannot produce (a call's failures) is the host's.
    fn from_sandbox(step: Step, e: SandboxError) -> Self {
        use SandboxError as S;
        match e {
            S::InvalidComponent(d) => Self::InvalidComponent(d),
            S::WrongWorld { detail, .. } => Self::WrongWorld { step, detail },
            S::UnsupportedImport(d) => Self::UnsupportedImport(d),
            S::ExceedsLimits(d) => Self::ExceedsLimits(d),
            e @ (S::StepMismatch { .. }
            | S::FuelExhausted { .. }
            | S::MemoryLimitExceeded { .. }
            | S::StackExhausted
            | S::DeadlineExceeded { .. }
            | S::BlockingForbidden(_)
            | S::Trapped { .. }
            | S::InputTooLarge { .. }
            | S::OutputTooLarge { .. }
            | S::LogLimitExceeded { .. }
            | S::InvalidOutput(_)
            | S::Busy
            | S::Internal(_)) => Self::Internal(Internal::caused(format!("the {step} step"), e)),
        }
    }
}

/// Every loaded version, by step and version, ready for calls.
pub struct Registry {
    bundled: Components,
    loaded: Mutex<HashMap<(Step, String), Arc<LoadedComponent>>>,
    /// When each loaded version's budget was last read: at most once a second per version,
    /// so a budget changed on another instance applies here within about a second.
    budgets_read: Mutex<HashMap<(Step, String), std::time::Instant>>,
    pub settings: ComponentArgs,
    pub kill_switch: kill_switch::Tracker,
    pub shadow: shadow::Queue,
    /// Uploads and replays at once, and the replays' cores.
    pub limits: limits::AdminLimits,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry").finish_non_exhaustive()
    }
}

impl Registry {
    pub fn new(sandbox: &Sandbox, settings: ComponentArgs) -> Result<Self, SandboxError> {
        let bundled = Components::bundled(sandbox)?;
        let mut loaded = HashMap::new();
        for step in Step::ALL {
            let c = bundled.get(step).clone();
            loaded.insert((step, c.sha256().to_owned()), c);
        }
        let shadow = shadow::Queue::new(settings.shadow_queue as usize);
        let limits = limits::AdminLimits::new(
            settings.max_concurrent_uploads as usize,
            settings.max_concurrent_replays as usize,
            settings.max_concurrent_replays_per_store as usize,
        );
        Ok(Self {
            limits,
            bundled,
            loaded: Mutex::new(loaded),
            budgets_read: Mutex::new(HashMap::new()),
            settings,
            kill_switch: kill_switch::Tracker::default(),
            shadow,
        })
    }

    /// The components compiled into this binary.
    pub fn bundled(&self) -> &Components {
        &self.bundled
    }

    /// Records this binary's bundled components as versions, so charges resolved with them
    /// still replay exactly after an upgrade replaces them.
    pub async fn record_bundled(&self, db: &Db) -> Result<(), DbError> {
        for step in Step::ALL {
            let c = self.bundled.get(step);
            sql::insert_version(
                &db.write,
                &sql::Version {
                    step,
                    version: c.sha256().to_owned(),
                    source: VersionSource::Bundled,
                    size_bytes: c.size() as i64,
                    created_at: db::now_ms(),
                    label: Some(bundled_label(step)),
                    budget: sql::Budget::default(),
                },
                pixgate_sandbox::bundled_wasm(step),
            )
            .await?;
            // Rows from before labels: the same name.
            sql::label_if_unlabelled(&db.write, step, c.sha256(), &bundled_label(step)).await?;
        }
        Ok(())
    }

    fn cached(&self, step: Step, version: &str) -> Option<Arc<LoadedComponent>> {
        self.lock().get(&(step, version.to_owned())).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(Step, String), Arc<LoadedComponent>>> {
        // The map holds plain data: a panic elsewhere cannot leave it inconsistent.
        self.loaded.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The loaded component of `version` (`bundled`, a version's sha256 or this binary's
    /// bundled sha256), loading it from the database on first use.
    pub async fn load(
        &self,
        db: &Db,
        sandbox: &Sandbox,
        step: Step,
        version: &str,
    ) -> Result<Arc<LoadedComponent>, ComponentError> {
        if version == BUNDLED {
            let bundled = self.bundled.get(step).clone();
            return self.budgeted(db, step, bundled).await;
        }
        if let Some(c) = self.cached(step, version) {
            return self.budgeted(db, step, c).await;
        }
        let bytes =
            sql::wasm(&db.read, step, version)
                .await?
                .ok_or_else(|| ComponentError::NotFound {
                    step,
                    version: version.to_owned(),
                })?;
        // Compiling takes a while the first time (then the disk cache answers): off the
        // async workers' hands.
        let loaded = tokio::task::block_in_place(|| sandbox.load(step, &bytes))
            .map_err(|e| ComponentError::from_sandbox(step, e))?;
        let loaded = Arc::new(loaded);
        self.lock()
            .insert((step, version.to_owned()), loaded.clone());
        self.budgeted(db, step, loaded).await
    }

    /// `component` with its version's budget as stored now, read again when the last read
    /// is over a second old ([`StoreCache::TTL`], the lag of an activation). Between reads
    /// the loaded version carries the budget it was last given.
    async fn budgeted(
        &self,
        db: &Db,
        step: Step,
        component: Arc<LoadedComponent>,
    ) -> Result<Arc<LoadedComponent>, ComponentError> {
        let key = (step, component.sha256().to_owned());
        {
            let mut read = self.budgets_read.lock().unwrap_or_else(|e| e.into_inner());
            let now = std::time::Instant::now();
            match read.get_mut(&key) {
                Some(at) if now.duration_since(*at) < StoreCache::TTL => {
                    drop(read);
                    // Another call may have given the version its new budget since this one
                    // took it.
                    return Ok(self.lock().get(&key).cloned().unwrap_or(component));
                }
                // Marked before the read: the calls meanwhile keep the budget they have
                // rather than all reading at once.
                Some(at) => *at = now,
                None => {
                    read.insert(key.clone(), now);
                }
            }
        }
        let stored = sql::budget(&db.read, step, component.sha256())
            .await?
            .unwrap_or_default();
        let budget = self.effective_budget(&stored);
        let mut loaded = self.lock();
        let current = loaded.get(&key).cloned().unwrap_or(component);
        if current.budget() == budget {
            return Ok(current);
        }
        let updated = Arc::new(current.with_budget(budget));
        loaded.insert(key, updated.clone());
        Ok(updated)
    }

    /// A version's budget as the admin API shows it.
    pub fn budget_view(&self, stored: &sql::Budget) -> BudgetView {
        let budget = self
            .effective_budget(stored)
            .unwrap_or_else(|| Budget::of(&Limits::default()));
        BudgetView {
            fuel: budget.fuel,
            memory_bytes: budget.memory_bytes,
            custom: *stored != sql::Budget::default(),
        }
    }

    /// What a version's calls get: its own budget within the operator's maxima (which may
    /// have been lowered since it was set), the defaults where it has none; `None` when that
    /// is the defaults throughout.
    fn effective_budget(&self, stored: &sql::Budget) -> Option<Budget> {
        if *stored == sql::Budget::default() {
            return None;
        }
        let defaults = Limits::default();
        let own = |value: Option<i64>, default: u64, maximum: u64| {
            value.map_or(default, |v| u64::try_from(v).unwrap_or(1).min(maximum))
        };
        Some(Budget {
            fuel: own(stored.fuel, defaults.fuel, self.settings.component_max_fuel),
            memory_bytes: own(
                stored.memory_bytes,
                defaults.memory_bytes as u64,
                self.settings.component_max_memory_bytes,
            ),
        })
    }

    /// The components a store runs now.
    pub async fn for_store(
        &self,
        db: &Db,
        sandbox: &Sandbox,
        steps: &[StoreStep],
    ) -> Result<Components, ComponentError> {
        let mut components = self.bundled.clone();
        for step in Step::ALL {
            let version = steps
                .iter()
                .find(|s| s.step == step)
                .map_or(BUNDLED, |s| s.active_version.as_str());
            components.set(step, self.load(db, sandbox, step, version).await?);
        }
        Ok(components)
    }

    /// The components of a store with `overrides` (step to version) put in.
    pub async fn with_overrides(
        &self,
        db: &Db,
        sandbox: &Sandbox,
        base: &Components,
        overrides: &BTreeMap<Step, String>,
    ) -> Result<Components, ComponentError> {
        let mut components = base.clone();
        for (step, version) in overrides {
            components.set(*step, self.load(db, sandbox, *step, version).await?);
        }
        Ok(components)
    }
}

/// The component service: versions (upload, list, delete), what each store runs (activate,
/// candidate, rollback, the kill switch), dry runs ([`evaluate`]), replays ([`replay`]) and
/// the shadow comparisons ([`shadow`]). Built once by the composition root; cheap to clone.
#[derive(Clone)]
pub struct ComponentService {
    db: Db,
    sandbox: Arc<Sandbox>,
    registry: Arc<Registry>,
    /// Cleared on every change, so the charge path sees it within its TTL.
    stores: Arc<StoreCache>,
    /// The providers' recent health: an input of the chain like any other.
    providers: Arc<Providers>,
    metrics: Arc<Metrics>,
    /// How long decision traces are kept: a version a trace names is in use until then.
    trace_retention: Duration,
}

impl std::fmt::Debug for ComponentService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentService").finish_non_exhaustive()
    }
}

impl ComponentService {
    pub fn new(
        db: Db,
        sandbox: Arc<Sandbox>,
        registry: Arc<Registry>,
        stores: Arc<StoreCache>,
        providers: Arc<Providers>,
        metrics: Arc<Metrics>,
        trace_retention: Duration,
    ) -> Self {
        Self {
            db,
            sandbox,
            registry,
            stores,
            providers,
            metrics,
            trace_retention,
        }
    }

    /// A permit to read an upload's body (held until the upload is answered), or
    /// `TooManyUploads`.
    pub fn upload_permit(&self) -> Result<limits::UploadPermit, ComponentError> {
        self.registry.limits.upload()
    }

    /// The largest component an upload may be.
    pub fn max_bytes(&self) -> u64 {
        self.registry.settings.component_max_bytes
    }

    /// Validates `wasm` against `step`'s world and stores it as an immutable version.
    #[tracing::instrument(skip_all, fields(%step, bytes = wasm.len()))]
    pub async fn upload(
        &self,
        actor: &Actor,
        step: Step,
        wasm: &[u8],
        label: Option<String>,
    ) -> Result<Uploaded, ComponentError> {
        let limit = self.registry.settings.component_max_bytes;
        if wasm.len() as u64 > limit {
            return Err(ComponentError::TooLarge {
                size: wasm.len() as u64,
                limit,
            });
        }
        let loaded = tokio::task::block_in_place(|| self.sandbox.load_new(step, wasm))
            .map_err(|e| ComponentError::from_sandbox(step, e))?;
        let version = loaded.sha256().to_owned();
        let row = sql::Version {
            step,
            version: version.clone(),
            source: VersionSource::Uploaded,
            size_bytes: wasm.len() as i64,
            created_at: db::now_ms(),
            label: label.clone(),
            budget: sql::Budget::default(),
        };
        let mut tx = self.db.write.begin().await?;
        self.check_store_room(&mut tx, step, &version, wasm.len() as u64)
            .await?;
        let created = sql::insert_version(&mut *tx, &row, wasm).await?;
        if let (false, Some(label)) = (created, &label) {
            sql::label_if_unlabelled(&mut *tx, step, &version, label).await?;
        }
        let stored = sql::version(&mut *tx, step, &version)
            .await?
            .ok_or_else(|| Internal::broken(format!("version {version} vanished")))?;
        let uses = self.uses(&mut tx, step, &version).await?;
        let budget = self.registry.budget_view(&stored.budget);
        let view = VersionView::from_row(stored, uses, budget)?;
        // The same bytes again are recorded too: someone uploaded them, whatever was stored.
        let change = Change::new(
            Action::ComponentUpload,
            format!("component/{step}/{version}"),
        )
        .after(&view);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.registry
            .lock()
            .entry((step, version.clone()))
            .or_insert_with(|| Arc::new(loaded));
        Ok(Uploaded { view, created })
    }

    /// Refuses new bytes that would take the uploaded components over
    /// `PIXGATE_COMPONENT_STORE_MAX_BYTES`, naming the versions no store uses. Bytes stored
    /// already (the same upload again) take no room. On PostgreSQL the check holds a lock
    /// until the commit, so uploads on two instances cannot both take the last room.
    async fn check_store_room(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        step: Step,
        version: &str,
        size: u64,
    ) -> Result<(), ComponentError> {
        let postgres = self.db.backend == db::Backend::Postgres;
        sql::lock_uploads(&mut **tx, postgres).await?;
        if sql::version(&mut **tx, step, version).await?.is_some() {
            return Ok(());
        }
        let limit = self.registry.settings.component_store_max_bytes;
        let stored = u64::try_from(sql::uploaded_bytes(&mut **tx).await?).unwrap_or(0);
        if stored + size <= limit {
            return Ok(());
        }
        let mut deletable = Vec::new();
        for (step, version) in sql::uploaded_versions(&mut **tx).await? {
            if self.uses(tx, step, &version).await?.is_empty() {
                deletable.push(format!("{step}/{version}"));
            }
        }
        Err(ComponentError::StoreFull {
            size,
            stored,
            limit,
            deletable,
        })
    }

    /// Sets a version's own budget within the operator's maxima; absent fields keep their
    /// value. Calls on this instance use it from the next charge on, other instances' within
    /// about a second ([`Registry`] reads budgets again once a second).
    #[tracing::instrument(skip_all, fields(%step, %version))]
    pub async fn set_budget(
        &self,
        actor: &Actor,
        step: Step,
        version: &str,
        patch: BudgetPatch,
    ) -> Result<VersionView, ComponentError> {
        let not_found = || ComponentError::NotFound {
            step,
            version: version.chars().take(80).collect(),
        };
        if version == BUNDLED || !valid_version(version) {
            return Err(not_found());
        }
        let settings = &self.registry.settings;
        let check = |field: &'static str,
                     value: Option<Integer>,
                     minimum: i64,
                     maximum: u64,
                     variable: &'static str| {
            let Some(Integer(value)) = value else {
                return Ok(None);
            };
            if value < minimum {
                return Err(ComponentError::Invalid {
                    code: "invalid_budget",
                    field: field.to_owned(),
                    message: format!("`{field}` must be at least {minimum}"),
                });
            }
            if value as u64 > maximum {
                return Err(ComponentError::BudgetOverMaximum {
                    field,
                    value: value as u64,
                    maximum,
                    variable,
                });
            }
            Ok(Some(value))
        };
        let fuel = check(
            "fuel",
            patch.fuel,
            1,
            settings.component_max_fuel,
            "PIXGATE_COMPONENT_MAX_FUEL",
        )?;
        let memory_bytes = check(
            "memoryBytes",
            patch.memory_bytes,
            MIN_MEMORY_BYTES,
            settings.component_max_memory_bytes,
            "PIXGATE_COMPONENT_MAX_MEMORY_BYTES",
        )?;
        let mut tx = self.db.write.begin().await?;
        let row = sql::version(&mut *tx, step, version)
            .await?
            .ok_or_else(not_found)?;
        let uses = sql::uses(&mut *tx, step, version).await?;
        let budget = sql::Budget {
            fuel: fuel.or(row.budget.fuel),
            memory_bytes: memory_bytes.or(row.budget.memory_bytes),
        };
        let before = VersionView::from_row(
            row.clone(),
            uses.clone(),
            self.registry.budget_view(&row.budget),
        )?;
        sql::set_budget(&mut *tx, step, version, &budget).await?;
        let after = VersionView::from_row(
            sql::Version { budget, ..row },
            uses,
            self.registry.budget_view(&budget),
        )?;
        let change = Change::new(
            Action::ComponentBudgetSet,
            format!("component/{step}/{version}"),
        )
        .before(&before)
        .after(&after);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        // This instance's next charge reads the new budget.
        self.registry
            .budgets_read
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&(step, version.to_owned()));
        Ok(after)
    }

    /// A step's versions, newest first.
    pub async fn list(&self, step: Step) -> Result<Vec<VersionView>, ComponentError> {
        let mut out = Vec::new();
        let mut tx = self.db.read.begin().await?;
        for v in sql::versions(&mut *tx, step).await? {
            let uses = self.uses(&mut tx, step, &v.version).await?;
            let budget = self.registry.budget_view(&v.budget);
            out.push(VersionView::from_row(v, uses, budget)?);
        }
        tx.commit().await?;
        Ok(out)
    }

    /// Where a version is in use: `(store code, how the store uses it)`.
    async fn uses(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        step: Step,
        version: &str,
    ) -> Result<Vec<(String, VersionRole)>, ComponentError> {
        let mut uses = sql::uses(&mut **tx, step, version).await?;
        if version == self.registry.bundled.get(step).sha256() {
            // The binary's own version: the stores name it `bundled`, and a store that never
            // set a version for the step runs it too, as surely as an activated version.
            uses.extend(sql::uses(&mut **tx, step, BUNDLED).await?);
            for store in sql::stores_on_bundled_by_default(&mut **tx, step).await? {
                uses.push((store, VersionRole::Active));
            }
            uses.sort();
            uses.dedup();
        }
        for store in crate::db::canary::running_with(&mut **tx, step, version).await? {
            uses.push((store, VersionRole::Canary));
        }
        Ok(uses)
    }

    /// Deletes a version nothing needs: no store runs, shadows or just ran it, no LIVE charge in
    /// progress holds a decision naming it, and no recorded trace within the trace retention names
    /// it (replay re-runs those traces with their versions' bytes).
    #[tracing::instrument(skip_all, fields(%step, %version))]
    pub async fn delete(
        &self,
        actor: &Actor,
        step: Step,
        version: &str,
    ) -> Result<(), ComponentError> {
        let not_found = || ComponentError::NotFound {
            step,
            version: version.to_owned(),
        };
        if version == BUNDLED {
            return Err(ComponentError::BundledIsPermanent);
        }
        // The binary's own bundled version stays, whatever its row says (the same bytes may
        // have been uploaded before they shipped).
        if version == self.registry.bundled.get(step).sha256() {
            return Err(ComponentError::BundledIsPermanent);
        }
        let postgres = self.db.backend == db::Backend::Postgres;
        let mut tx = self.db.write.begin().await?;
        // Locked until the commit, so an activation of it waits and then finds it gone.
        if !sql::version_exists_for_update(&mut *tx, step, version, postgres).await? {
            return Err(not_found());
        }
        let mut uses: Vec<String> = self
            .uses(&mut tx, step, version)
            .await?
            .into_iter()
            .map(|(store, role)| format!("{store} ({role})"))
            .collect();
        if uses.is_empty() {
            uses = self.recorded_uses(&mut tx, step, version).await?;
        }
        if !uses.is_empty() {
            return Err(ComponentError::InUse {
                step,
                version: version.to_owned(),
                uses,
            });
        }
        let before = sql::version(&mut *tx, step, version)
            .await?
            .map(|row| {
                let budget = self.registry.budget_view(&row.budget);
                VersionView::from_row(row, Vec::new(), budget)
            })
            .transpose()?;
        sql::delete_version(&mut *tx, step, version).await?;
        let mut change = Change::new(
            Action::ComponentDelete,
            format!("component/{step}/{version}"),
        );
        if let Some(before) = &before {
            change = change.before(before);
        }
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.registry.lock().remove(&(step, version.to_owned()));
        self.sandbox.forget(version);
        Ok(())
    }

    /// What still needs a version no store runs or shadows: recent runs, LIVE charges in
    /// progress, and recorded traces within the retention (with when each stops needing it).
    async fn recorded_uses(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        step: Step,
        version: &str,
    ) -> Result<Vec<String>, ComponentError> {
        let now = db::now_ms();
        let retention = i64::try_from(self.trace_retention.as_millis()).unwrap_or(i64::MAX);
        // `0s` keeps traces forever.
        let kept_since = if retention == 0 {
            i64::MIN
        } else {
            now.saturating_sub(retention)
        };
        let until = |at: i64| {
            if retention == 0 {
                "recorded traces (kept forever) name it".to_owned()
            } else {
                format!(
                    "recorded traces name it until {}",
                    iso8601(at.saturating_add(retention))
                )
            }
        };
        let mut uses = Vec::new();
        for store_id in sql::stores_that_ran(&mut **tx, step, version).await? {
            let code = catalog::store_by_id(&mut **tx, &store_id)
                .await?
                .map_or(store_id.clone(), |s| s.code);
            let past = sql::step_history(&mut **tx, &store_id, step).await?;
            let spans = history::active_spans(&past, version, now);
            if spans.iter().any(|(_, to)| *to >= now - RECENT_USE_MS) {
                uses.push(format!("{code} (ran it in the last few seconds)"));
                continue;
            }
            let mut newest = None;
            for (from, to) in spans {
                let window = (
                    from.saturating_sub(RECENT_USE_MS),
                    to.saturating_add(RECENT_USE_MS),
                );
                if window.1 < kept_since {
                    continue;
                }
                let found = sql::newest_store_trace_naming(
                    &mut **tx, &store_id, window, kept_since, version,
                )
                .await?;
                newest = newest.max(found);
            }
            if let Some(at) = newest {
                uses.push(format!("{code} ({})", until(at)));
            }
        }
        // Canary charges ran it without an activation.
        for (store_id, from, to) in crate::db::canary::spans_of(&mut **tx, step, version).await? {
            let to = to.unwrap_or(now);
            let window = (
                from.saturating_sub(RECENT_USE_MS),
                to.saturating_add(RECENT_USE_MS),
            );
            if window.1 < kept_since {
                continue;
            }
            let code = catalog::store_by_id(&mut **tx, &store_id)
                .await?
                .map_or(store_id.clone(), |s| s.code);
            if to >= now - RECENT_USE_MS {
                uses.push(format!(
                    "{code} (its canary ran it in the last few seconds)"
                ));
            } else if let Some(at) =
                sql::newest_store_trace_naming(&mut **tx, &store_id, window, kept_since, version)
                    .await?
            {
                uses.push(format!("{code} (canary charges: {})", until(at)));
            }
        }
        // A version that shipped as an older binary's bundled component ran without activations.
        if let Some(row) = sql::version(&mut **tx, step, version).await?
            && row.source == VersionSource::Bundled
            && let Some(at) =
                sql::newest_trace_naming(&mut **tx, kept_since.max(row.created_at), version).await?
        {
            uses.push(format!("bundled in an earlier pixgate ({})", until(at)));
        }
        if sql::claim_naming(&mut **tx, version).await? {
            uses.push("a LIVE charge in progress".to_owned());
        }
        Ok(uses)
    }

    async fn store(&self, code: &str) -> Result<catalog::Store, ComponentError> {
        if !pixgate_domain::valid_code(code) {
            return Err(ComponentError::StoreNotFound(
                code.chars().take(64).collect(),
            ));
        }
        catalog::store_by_code(&self.db.write, code)
            .await?
            .ok_or_else(|| ComponentError::StoreNotFound(code.to_owned()))
    }

    /// What `code` runs per step, with its kill switch and history.
    pub async fn store_components(&self, code: &str) -> Result<StoreComponents, ComponentError> {
        let store = self.store(code).await?;
        self.view(&store).await
    }

    async fn view(&self, store: &catalog::Store) -> Result<StoreComponents, ComponentError> {
        let db = &self.db.write;
        let rows = sql::store_steps(db, &store.id).await?;
        let canaries = crate::db::canary::running(db, &store.id).await?;
        let steps = Step::ALL
            .iter()
            .map(|step| {
                let row = rows.iter().find(|r| r.step == *step);
                let view = StepView {
                    active: row.map_or(BUNDLED.to_owned(), |r| r.active_version.clone()),
                    previous: row.and_then(|r| r.previous_version.clone()),
                    candidate: row.and_then(|r| r.candidate_version.clone()),
                    activated_at: row.and_then(|r| r.activated_at).map(iso8601),
                    canary: canaries.iter().find(|c| c.step == *step).map(|c| {
                        canary::CanaryBrief {
                            version: c.version.clone(),
                            percent: c.basis_points as f64 / 100.0,
                        }
                    }),
                };
                (step.as_str().to_owned(), view)
            })
            .collect();
        let kill = sql::kill_switch(db, &store.id).await?;
        let mut history = Vec::new();
        for a in sql::activations(db, &store.id, 100).await? {
            history.push(ActivationView {
                step: a.step,
                version: a.version,
                previous_version: a.previous_version,
                action: a.action,
                reason: a.reason,
                at: iso8601(a.created_at),
            });
        }
        // Canaries start and end in the same history; `at` is ISO 8601 in UTC, so it sorts
        // as text.
        history.extend(self.canary_history(&store.id).await?);
        history.sort_by(|a, b| b.at.cmp(&a.at));
        history.truncate(100);
        Ok(StoreComponents {
            store: store.code.clone(),
            steps,
            kill_switch: KillSwitchView::from(&kill),
            history,
        })
    }

    /// Checks that `version` names a stored version of `step` (or `bundled`), and loads it so
    /// the first charge after the activation does not pay for the compile.
    async fn require_version(&self, step: Step, version: &str) -> Result<(), ComponentError> {
        if !valid_version(version) {
            return Err(ComponentError::NotFound {
                step,
                version: version.chars().take(80).collect(),
            });
        }
        self.registry
            .load(&self.db, &self.sandbox, step, version)
            .await
            .map(|_| ())
    }

    /// Applies one change to a store's step in one transaction, with its history entry.
    /// Returns false when a kill switch found the version already replaced.
    /// `actor` is the operator making it (`None`: the kill switch), recorded in the audit
    /// trail in the same transaction.
    async fn change_step(
        &self,
        store: &catalog::Store,
        step: Step,
        change: StepChange<'_>,
        actor: Option<&Actor>,
    ) -> Result<bool, ComponentError> {
        let now = db::now_ms();
        let postgres = self.db.backend == db::Backend::Postgres;
        let mut tx = self.db.write.begin().await?;
        // A row to lock even on the first change of this step, so two first activations on
        // PostgreSQL are serialised too (SQLite has one writer).
        sql::ensure_store_step(&mut *tx, &store.id, step, now).await?;
        let current = sql::store_step_for_update(&mut *tx, &store.id, step, postgres).await?;
        let mut row = current.clone().unwrap_or(StoreStep {
            store_id: store.id.clone(),
            step,
            active_version: BUNDLED.to_owned(),
            previous_version: None,
            activated_at: None,
            candidate_version: None,
            candidate_since: None,
            updated_at: now,
        });
        let before = StepSnapshot::of(step, &row);
        let audited = match &change {
            StepChange::Activate(_) | StepChange::Promote { .. } => Some(Action::ComponentActivate),
            StepChange::Rollback => Some(Action::ComponentRollback),
            StepChange::Candidate(Some(_)) => Some(Action::ComponentCandidateSet),
            StepChange::Candidate(None) => Some(Action::ComponentCandidateClear),
            // The kill switch acts for no operator: its rollback is in the activation history.
            StepChange::KillSwitch { .. } => None,
        };
        // The promote's compare-and-set, after the store step's lock (the order every change
        // of a step takes: the step's row, then its canary's).
        let mut canary_end = None;
        if let StepChange::Promote { canary, .. } = change {
            Self::end_promoted_canary(&mut tx, store, step, canary, now).await?;
            canary_end = Some(canary::CanaryEnd::Promoted);
        }
        // Every version this change makes the store run or shadow must still exist; on
        // PostgreSQL the check holds a share lock, so a delete cannot slip in before the commit.
        let mut unchanged = false;
        let entry = match change {
            StepChange::Activate(version) | StepChange::Promote { version, .. } => {
                if !exists(&mut tx, step, version, postgres).await? {
                    return Err(ComponentError::NotFound {
                        step,
                        version: version.to_owned(),
                    });
                }
                // Activating what is already active changes nothing (a retried request must not
                // make the version its own rollback target).
                if row.active_version == version {
                    unchanged = true;
                    None
                } else {
                    // The candidate that becomes the active version has nothing left to
                    // compare with.
                    if row.candidate_version.as_deref() == Some(version) {
                        row.candidate_version = None;
                        row.candidate_since = None;
                    }
                    let previous = std::mem::replace(&mut row.active_version, version.to_owned());
                    row.previous_version = Some(previous.clone());
                    row.activated_at = Some(now);
                    Some((
                        ActivationAction::Activate,
                        version.to_owned(),
                        Some(previous),
                        None,
                    ))
                }
            }
            StepChange::Rollback => {
                let nothing = || ComponentError::NothingToRollBack {
                    store: store.code.clone(),
                    step,
                };
                let Some(previous) = row.previous_version.clone() else {
                    return Err(nothing());
                };
                // The version the last change replaced; if it was deleted since, the latest
                // earlier version of the history that still exists.
                let target = if exists(&mut tx, step, &previous, postgres).await? {
                    previous
                } else {
                    let past = sql::step_history(&mut *tx, &store.id, step).await?;
                    let mut found = None;
                    for v in history::earlier_versions(&past, &row.active_version) {
                        if exists(&mut tx, step, &v, postgres).await? {
                            found = Some(v);
                            break;
                        }
                    }
                    found.ok_or_else(nothing)?
                };
                let replaced = std::mem::replace(&mut row.active_version, target.clone());
                row.previous_version = Some(replaced.clone());
                row.activated_at = Some(now);
                Some((ActivationAction::Rollback, target, Some(replaced), None))
            }
            StepChange::KillSwitch { version, reason } => {
                let still_active = current
                    .as_ref()
                    .is_some_and(|r| r.active_version == version);
                if !still_active {
                    return Ok(false);
                }
                let past = sql::step_history(&mut *tx, &store.id, step).await?;
                let mut stored = std::collections::HashSet::new();
                for v in history::earlier_versions(&past, version) {
                    if exists(&mut tx, step, &v, postgres).await? {
                        stored.insert(v);
                    }
                }
                let target = history::kill_switch_target(&past, version, |v| stored.contains(v));
                row.active_version = target.clone();
                row.previous_version = Some(version.to_owned());
                row.activated_at = Some(now);
                Some((
                    ActivationAction::KillSwitch,
                    target,
                    Some(version.to_owned()),
                    Some(reason),
                ))
            }
            StepChange::Candidate(candidate) => {
                if let Some(v) = candidate
                    && !exists(&mut tx, step, v, postgres).await?
                {
                    return Err(ComponentError::NotFound {
                        step,
                        version: v.to_owned(),
                    });
                }
                row.candidate_version = candidate.map(str::to_owned);
                row.candidate_since = candidate.map(|_| now);
                None
            }
        };
        if !unchanged {
            row.updated_at = now;
            sql::upsert_store_step(&mut *tx, &row).await?;
        }
        if let (Some(actor), Some(action)) = (actor, audited) {
            let change = Change::new(action, format!("store/{}", store.code))
                .before(&before)
                .after(&StepSnapshot::of(step, &row));
            audit::append(&mut *tx, actor, &change).await?;
        }
        // The running canary of the step was measured against the version replaced here.
        if let Some((_, version, _, _)) = &entry
            && canary_end.is_none()
        {
            canary_end = Self::end_canary_on_change(&mut tx, &store.id, step, version, now).await?;
        }
        if let Some((action, version, previous_version, reason)) = entry {
            sql::insert_activation(
                &mut *tx,
                &sql::Activation {
                    id: uuid::Uuid::now_v7().to_string(),
                    store_id: store.id.clone(),
                    step,
                    version,
                    previous_version,
                    action,
                    reason,
                    created_at: now,
                },
            )
            .await?;
        }
        tx.commit().await?;
        self.stores.clear();
        if let Some(kind) = canary_end {
            self.metrics
                .canary_ended(&store.code, step.as_str(), kind.as_str());
        }
        Ok(true)
    }

    /// Makes `version` the one `code` runs for `step`, atomically.
    #[tracing::instrument(skip_all, fields(store = %code, %step, %version))]
    pub async fn activate(
        &self,
        actor: &Actor,
        code: &str,
        step: Step,
        version: &str,
    ) -> Result<StoreComponents, ComponentError> {
        let store = self.store(code).await?;
        self.require_version(step, version).await?;
        self.change_step(&store, step, StepChange::Activate(version), Some(actor))
            .await?;
        self.view(&store).await
    }

    /// Goes back to the version active before the current one.
    #[tracing::instrument(skip_all, fields(store = %code, %step))]
    pub async fn rollback(
        &self,
        actor: &Actor,
        code: &str,
        step: Step,
    ) -> Result<StoreComponents, ComponentError> {
        let store = self.store(code).await?;
        self.change_step(&store, step, StepChange::Rollback, Some(actor))
            .await?;
        self.view(&store).await
    }

    /// Attaches (or with `None` detaches) a shadow candidate.
    #[tracing::instrument(skip_all, fields(store = %code, %step, version = ?version))]
    pub async fn set_candidate(
        &self,
        actor: &Actor,
        code: &str,
        step: Step,
        version: Option<&str>,
    ) -> Result<StoreComponents, ComponentError> {
        let store = self.store(code).await?;
        if let Some(version) = version {
            self.require_version(step, version).await?;
        }
        self.change_step(&store, step, StepChange::Candidate(version), Some(actor))
            .await?;
        self.view(&store).await
    }

    /// The kill switch's rollback: back to the previous version if `version` is still active.
    #[tracing::instrument(skip_all, fields(store = %store_id, %step, %version))]
    async fn kill(
        &self,
        store_id: &str,
        step: Step,
        version: &str,
        reason: String,
    ) -> Result<bool, ComponentError> {
        let Some(store) = catalog::store_by_id(&self.db.write, store_id).await? else {
            return Ok(false);
        };
        self.change_step(
            &store,
            step,
            StepChange::KillSwitch { version, reason },
            None,
        )
        .await
    }

    /// The kill switch fired for `store`'s `step` running `version`: rolls it back off the
    /// charge's path. A rollback that fails re-arms the switch, which fires again on the next
    /// failure.
    pub fn fire_kill_switch(
        &self,
        store: &catalog::Store,
        step: Step,
        version: &str,
        reason: String,
    ) {
        let this = self.clone();
        let (store_id, store_code, version) =
            (store.id.clone(), store.code.clone(), version.to_owned());
        tokio::spawn(async move {
            match this.kill(&store_id, step, &version, reason.clone()).await {
                Ok(true) => {
                    tracing::warn!(store = %store_code, %step, %version, %reason,
                        "kill switch: version rolled back");
                    this.metrics.kill_switch_fired(&store_code, step.as_str());
                }
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(store = %store_code, %step, error = %e,
                        "kill switch: rollback failed; it fires again on the next failure");
                    this.registry.kill_switch.rearm(&store_id, step);
                }
            }
        });
    }

    #[tracing::instrument(skip_all, fields(store = %code))]
    pub async fn set_kill_switch(
        &self,
        actor: &Actor,
        code: &str,
        patch: KillSwitchPatch,
    ) -> Result<StoreComponents, ComponentError> {
        let invalid = |field: &str, message: &str| ComponentError::Invalid {
            code: "invalid_kill_switch",
            field: field.to_owned(),
            message: message.to_owned(),
        };
        let store = self.store(code).await?;
        let mut tx = self.db.write.begin().await?;
        let mut k = sql::kill_switch(&mut *tx, &store.id).await?;
        let before = KillSwitchView::from(&k);
        if let Some(enabled) = patch.enabled {
            k.enabled = db::Flag(enabled);
        }
        if let Some(Integer(rate)) = patch.error_rate_percent {
            if !(1..=100).contains(&rate) {
                return Err(invalid(
                    "errorRatePercent",
                    "`errorRatePercent` must be 1 to 100",
                ));
            }
            k.error_rate_percent = rate;
        }
        if let Some(Integer(window)) = patch.window_seconds {
            if !(10..=86_400).contains(&window) {
                return Err(invalid(
                    "windowSeconds",
                    "`windowSeconds` must be 10 to 86400",
                ));
            }
            k.window_seconds = window;
        }
        if let Some(Integer(min)) = patch.min_calls {
            if !(1..=1_000_000).contains(&min) {
                return Err(invalid("minCalls", "`minCalls` must be 1 to 1000000"));
            }
            k.min_calls = min;
        }
        sql::set_kill_switch(&mut *tx, &store.id, &k, db::now_ms()).await?;
        let change = Change::new(Action::KillSwitchUpdate, format!("store/{}", store.code))
            .before(&before)
            .after(&KillSwitchView::from(&k));
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.stores.clear();
        self.view(&store).await
    }
}

/// A version's label as an upload gives it (1 to 100 characters, no control character), checked
/// before the upload's body is read: a refused label costs no upload permit and no bytes.
pub fn version_label(raw: &str) -> Result<String, ComponentError> {
    pixgate_domain::json::bounded(raw, "label", "invalid_label", 1, 100).map_err(|e| {
        ComponentError::Invalid {
            code: e.code,
            field: e.field.unwrap_or_default(),
            message: e.message,
        }
    })
}

/// The label of the bundled version of `step`: what it is and which release shipped it.
fn bundled_label(step: Step) -> String {
    format!("bundled {step} (pixgate {})", env!("CARGO_PKG_VERSION"))
}

/// A version as the admin API lists it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionView {
    /// Lowercase hex sha256 of the component's bytes.
    #[schema(pattern = "^[0-9a-f]{64}$")]
    pub version: String,
    pub step: Step,
    pub size_bytes: u64,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// `uploaded`, or `bundled` for a component that shipped inside a pixgate binary.
    pub source: VersionSource,
    /// What people call it, shown beside the sha256: the label given at upload (`pixgate
    /// policy upload` sends the file's or crate's name unless `--label` says otherwise), or
    /// `bundled <step> (pixgate <release>)`. Absent for versions uploaded without one.
    pub label: Option<String>,
    /// The stores that run it, shadow it or canary it; for the bundled version, every store
    /// that runs it, whether it activated `bundled` or never set a version for the step.
    pub in_use: Vec<VersionUse>,
    /// What each call of it may use.
    pub budget: BudgetView,
}

/// The budget a version's calls run with: its own (set with `PATCH
/// /components/{step}/{version}`, within the operator's maxima) or the defaults, 11,000,000
/// fuel and 16 MiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BudgetView {
    /// Fuel per call.
    pub fuel: u64,
    /// Linear memory per call, bytes: all the call's memories together.
    pub memory_bytes: u64,
    /// Whether an operator set either (otherwise both are the defaults).
    pub custom: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VersionUse {
    pub store: String,
    /// `active`, `candidate` or `canary`.
    pub role: VersionRole,
}

impl VersionView {
    fn from_row(
        v: sql::Version,
        uses: Vec<(String, VersionRole)>,
        budget: BudgetView,
    ) -> Result<Self, ComponentError> {
        Ok(Self {
            budget,
            step: v.step,
            version: v.version,
            size_bytes: v.size_bytes as u64,
            created_at: iso8601(v.created_at),
            source: v.source,
            label: v.label,
            in_use: uses
                .into_iter()
                .map(|(store, role)| VersionUse { store, role })
                .collect(),
        })
    }
}

/// An upload's result: the version, and whether these bytes were new.
#[derive(Debug)]
pub struct Uploaded {
    pub view: VersionView,
    pub created: bool,
}

/// How long after a store stopped running a version that version stays undeletable: a charge
/// that took it just before (the store cache lags up to a second, instances' clocks differ
/// a little) may still be committing the trace that names it.
const RECENT_USE_MS: i64 = 5_000;

/// One step of a store, as the admin API shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StepView {
    /// `bundled` or a version.
    pub active: String,
    /// What a rollback returns to.
    pub previous: Option<String>,
    /// The shadow candidate, if one is attached.
    pub candidate: Option<String>,
    #[schema(format = DateTime)]
    pub activated_at: Option<String>,
    /// The running canary, if one is.
    pub canary: Option<canary::CanaryBrief>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KillSwitchView {
    pub enabled: bool,
    /// Roll back when at least this share of calls failed in the window.
    pub error_rate_percent: u32,
    pub window_seconds: u32,
    /// Calls needed in the window before the rate counts.
    pub min_calls: u32,
}

impl From<&KillSwitch> for KillSwitchView {
    fn from(k: &KillSwitch) -> Self {
        Self {
            enabled: k.enabled.0,
            error_rate_percent: k.error_rate_percent as u32,
            window_seconds: k.window_seconds as u32,
            min_calls: k.min_calls as u32,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivationView {
    pub step: Step,
    pub version: String,
    pub previous_version: Option<String>,
    /// `activate`, `rollback`, `kill_switch`, `canary_start` or `canary_end`.
    pub action: ActivationAction,
    /// Why (the kill switch's measurement).
    pub reason: Option<String>,
    #[schema(format = DateTime)]
    pub at: String,
}

/// What a store runs per step, its kill switch and its activation history.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StoreComponents {
    pub store: String,
    /// `policy`, `provider` and `economics`.
    pub steps: BTreeMap<String, StepView>,
    pub kill_switch: KillSwitchView,
    /// Newest first, at most 100.
    pub history: Vec<ActivationView>,
}

/// A store's step as the audit trail records it before and after a change.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct StepSnapshot {
    step: Step,
    active: String,
    previous: Option<String>,
    candidate: Option<String>,
}

impl StepSnapshot {
    fn of(step: Step, row: &StoreStep) -> Self {
        Self {
            step,
            active: row.active_version.clone(),
            previous: row.previous_version.clone(),
            candidate: row.candidate_version.clone(),
        }
    }
}

/// What changes in a store's step.
enum StepChange<'a> {
    Activate(&'a str),
    /// Activates canary `canary`'s version, ending the canary as `promoted` in the same
    /// transaction: a compare-and-set on the canary still running, so of concurrent promotes
    /// (on any instance) one activates and is audited, and the others find no canary.
    Promote {
        canary: &'a str,
        version: &'a str,
    },
    Rollback,
    /// The kill switch: roll back only while `version` is still the active one.
    KillSwitch {
        version: &'a str,
        reason: String,
    },
    Candidate(Option<&'a str>),
}

/// Whether `version` of `step` can run: `bundled`, or a stored version (on PostgreSQL with a
/// share lock until the transaction ends).
async fn exists(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    step: Step,
    version: &str,
    postgres: bool,
) -> Result<bool, ComponentError> {
    if version == BUNDLED {
        return Ok(true);
    }
    Ok(sql::version_exists(&mut **tx, step, version, postgres).await?)
}

/// The least linear memory a budget may grant: one WebAssembly page.
const MIN_MEMORY_BYTES: i64 = 65_536;

/// A change of a version's budget; absent fields keep their value. Over the operator's
/// maximum is refused with 422 `budget_over_maximum`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BudgetPatch {
    /// Fuel per call: 1 to `PIXGATE_COMPONENT_MAX_FUEL` (100,000,000 unless set).
    #[schema(value_type = Option<i64>, minimum = 1)]
    pub fuel: Option<Integer>,
    /// Linear memory per call, bytes, all the call's memories together: 65536 (one page) to
    /// `PIXGATE_COMPONENT_MAX_MEMORY_BYTES` (64 MiB unless set).
    #[schema(value_type = Option<i64>, minimum = 65536)]
    pub memory_bytes: Option<Integer>,
}

/// A kill-switch change; absent fields keep their value.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KillSwitchPatch {
    pub enabled: Option<bool>,
    /// 1 to 100.
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub error_rate_percent: Option<Integer>,
    /// 10 to 86400.
    #[schema(value_type = Option<i64>, minimum = 10, maximum = 86400)]
    pub window_seconds: Option<Integer>,
    /// 1 to 1000000.
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 1000000)]
    pub min_calls: Option<Integer>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_patterns_are_the_enforced_rules() {
        let step = regex::Regex::new(STEP_PATTERN).unwrap();
        let version = regex::Regex::new(VERSION_PATTERN).unwrap();
        let sha = "0123456789abcdef".repeat(4);
        for s in [
            "policy",
            "provider",
            "economics",
            "Policy",
            "",
            "chain",
            "policy ",
            &sha,
        ] {
            assert_eq!(step.is_match(s), s.parse::<Step>().is_ok(), "{s:?}");
        }
        for v in [
            "bundled",
            sha.as_str(),
            &sha.to_uppercase(),
            &sha[1..],
            &format!("{sha}0"),
            "Bundled",
            "",
        ] {
            assert_eq!(version.is_match(v), valid_version(v), "{v:?}");
        }
    }

    /// The steps, sources, uses and history entries are enums in the admin document, each
    /// view's field a reference to the one list of names the rows hold.
    #[test]
    fn the_admin_document_lists_the_names_the_rows_hold() {
        let doc = serde_json::to_value(crate::http::admin::openapi()).unwrap();
        let schemas = &doc["components"]["schemas"];
        let names = |all: &[&str]| serde_json::json!(all);
        assert_eq!(schemas["Step"]["enum"], names(&Step::ALL.map(Step::as_str)));
        assert_eq!(
            schemas["Step"]["enum"],
            names(&["policy", "provider", "economics"])
        );
        assert_eq!(
            schemas["VersionSource"]["enum"],
            names(&VersionSource::ALL.map(VersionSource::as_str))
        );
        assert_eq!(
            schemas["VersionRole"]["enum"],
            names(&["active", "candidate", "canary"])
        );
        assert_eq!(
            schemas["ActivationAction"]["enum"],
            names(&[
                "activate",
                "rollback",
                "kill_switch",
                "canary_start",
                "canary_end"
            ])
        );
        assert_eq!(
            schemas["CanaryEnd"]["enum"],
            names(&canary::CanaryEnd::ALL.map(canary::CanaryEnd::as_str))
        );
        let reference = |schema: &str, field: &str| {
            schemas[schema]["properties"][field]["$ref"]
                .as_str()
                .unwrap_or_else(|| panic!("{schema}.{field}: {}", schemas[schema]))
                .to_owned()
        };
        for (schema, field, target) in [
            ("VersionView", "step", "Step"),
            ("VersionView", "source", "VersionSource"),
            ("VersionUse", "role", "VersionRole"),
            ("ActivationView", "step", "Step"),
            ("ActivationView", "action", "ActivationAction"),
            ("CanaryView", "step", "Step"),
            ("CanaryArm", "step", "Step"),
            ("ShadowComparison", "step", "Step"),
            ("RunningCanary", "step", "Step"),
            ("ShadowCandidate", "step", "Step"),
        ] {
            assert_eq!(
                reference(schema, field),
                format!("#/components/schemas/{target}"),
                "{schema}.{field}"
            );
        }
    }
}
