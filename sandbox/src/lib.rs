//! The resolution chain and the WebAssembly host it runs its steps in: [`chain`] runs a
//! charge through policy, provider selection and economics and checks each step's output;
//! this crate's root is the one place that touches wasmtime. The bundled steps are built by
//! `build.rs` and compiled into the crate ([`bundled_wasm`]).
//!
//! One [`Engine`] and one [`Linker`] for the whole process. A component is validated against
//! its step's world when it is loaded, compiled once (and cached on disk by sha256 and engine
//! compatibility), and pre-instantiated. Every call gets a fresh instance with the budgets of
//! [`Limits`] (fuel and linear memory per version, see [`Budget`]): fuel, linear memory, input,
//! output and log sizes, and a wall-clock backstop driven by epoch interruption. The steps of
//! one charge share one [`Store`] ([`Session`]), each call on its own instance with its own
//! budgets; a lone call gets a store of its own. A step sees no real clock, randomness,
//! environment, arguments, files or network: WASI is linked with its clocks and randomness
//! derived from the call's `step-env`, nothing preopened, sockets denied and blocking refused;
//! a component that imports WASI the sandbox does not serve that way (`wasi:http`, ...) is
//! refused when it is loaded, and a new upload that imports files or sockets is refused too
//! until [`seal`] answers them inside it (`imports.rs` has the rule, `seal.rs` the sealing).
//! Every failure is a [`SandboxError`]; none takes the process down.
//!
//! # What a call costs
//!
//! A fresh instance per call is what makes every call start from the component's own initial
//! state; its fixed cost is most of a call. Three things keep it small:
//!
//! - **One store per charge.** Creating a store (and dropping it, which returns its instances
//!   to the pool) is paid once for the three steps of a charge, not once per step.
//!
//! - **Resetting only what a call dirtied.** Instances come from wasmtime's pooling allocator:
//!   a slot's linear memory stays mapped between instances and is reset to the component's
//!   initial image when an instance goes away. Where Linux supports the `PAGEMAP_SCAN` ioctl
//!   (6.7 and later) and no swap is enabled, the pool asks the kernel which pages the call
//!   wrote and resets only those (up to [`KEEP_RESIDENT`] bytes of them; anything past that
//!   is decommitted), see [`MemoryReset::PagemapScan`]. Elsewhere it falls back to wasmtime's
//!   default: it `memset`s the first [`KEEP_RESIDENT`] bytes of the memory and
//!   `madvise(MADV_DONTNEED)`s the rest, see [`MemoryReset::Memset`]; slower, equally fresh.
//!   Swap must stay off while pagemap scanning is on: wasmtime 48 looks only for dirty pages
//!   that are *present*, and a dirty page the kernel swapped out is neither reset nor
//!   decommitted, so the next instance in that slot could read what the previous call left
//!   there (wasmtime PR #14357, not in 48.0.8). [`Sandbox::new`] therefore reads
//!   `/proc/swaps` and uses the fallback whenever any swap device is active; enabling swap
//!   after the process started is not detected, so a host running pixgate keeps swap off.
//! - **No WASI context for components that import no WASI.** The bundled steps are `no_std`
//!   modules built for `wasm32-unknown-unknown` that import only `host-log`. An author's std
//!   component (`wasm32-wasip2`) imports WASI; its WASI context is built on its first WASI
//!   call of a call, so a component that computes without touching WASI pays nothing for it
//!   either. [`LoadedComponent::imports_wasi`] tells which kind a component is.

#![deny(unsafe_code)]

mod bindings;
mod cache;
pub mod chain;
mod error;
mod imports;
mod seal;
mod size;
mod state;

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use pixgate_domain::{Step, sha256_hex};
use pixgate_policy_logic as logic;
use serde::Serialize;
use wasmtime::component::{HasSelf, Linker, Val};
use wasmtime::{
    Config, Enabled, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Store, Trap,
};

pub use error::SandboxError;
pub use seal::{Sealed, seal};
use state::{BlockingRefused, CallState};

/// Per-call budgets (DESIGN.md section 9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Fuel of a call of a version without its own [`Budget`].
    pub fuel: u64,
    /// Linear memory (all memories of a call together) of a version without its own budget.
    pub memory_bytes: usize,
    /// The most linear memory any version's budget may grant: the pool's memory slots are
    /// this large (plus a margin), so that the limiter, not the pool, is what a guest hits.
    pub max_memory_bytes: usize,
    pub input_bytes: usize,
    pub output_bytes: usize,
    pub log_bytes: usize,
    pub wall_clock: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            fuel: 11_000_000,
            memory_bytes: 16 << 20,
            max_memory_bytes: 16 << 20,
            input_bytes: 128 << 10,
            output_bytes: 20 << 10,
            log_bytes: 1 << 10,
            wall_clock: Duration::from_millis(250),
        }
    }
}

/// What one version's calls may use: its fuel and linear memory. A version runs with the
/// sandbox's [`Limits`] unless an operator gave it its own budget
/// ([`LoadedComponent::with_budget`]); the sandbox's pool is sized for
/// [`Limits::max_memory_bytes`], the most a budget may grant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Budget {
    pub fuel: u64,
    pub memory_bytes: u64,
}

impl Budget {
    /// The budget of [`Limits`].
    pub fn of(limits: &Limits) -> Self {
        Self {
            fuel: limits.fuel,
            memory_bytes: limits.memory_bytes as u64,
        }
    }
}

/// The version of `pixgate:chain` a component was built against. The host runs both: a 1.0.0
/// component sees the charge without its kind and the provider input without the pinned
/// gateway, exactly what it was built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChainVersion {
    V1_0,
    V1_1,
}

impl ChainVersion {
    /// The newest first: a component exporting both is run as the newest.
    const ALL: [ChainVersion; 2] = [ChainVersion::V1_1, ChainVersion::V1_0];

    pub fn as_str(self) -> &'static str {
        match self {
            ChainVersion::V1_0 => "1.0.0",
            ChainVersion::V1_1 => "1.1.0",
        }
    }
}

impl fmt::Display for ChainVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The WIT world a new component of `step` implements (the current version's).
pub fn world(step: Step) -> String {
    let name = match step {
        Step::Policy => "policy-step",
        Step::Provider => "provider-step",
        Step::Economics => "economics-step",
    };
    format!("pixgate:chain/{name}@{}", ChainVersion::V1_1)
}

/// The interface `step`'s world exports in `version`.
fn export(step: Step, version: ChainVersion) -> String {
    let name = match step {
        Step::Policy => "policy",
        Step::Provider => "provider-selection",
        Step::Economics => "economics",
    };
    format!("pixgate:chain/{name}@{version}")
}

/// The component compiled into the binary for `step`.
pub fn bundled_wasm(step: Step) -> &'static [u8] {
    match step {
        Step::Policy => include_bytes!(concat!(env!("OUT_DIR"), "/pixgate_guest_policy.wasm")),
        Step::Provider => include_bytes!(concat!(env!("OUT_DIR"), "/pixgate_guest_provider.wasm")),
        Step::Economics => {
            include_bytes!(concat!(env!("OUT_DIR"), "/pixgate_guest_economics.wasm"))
        }
    }
}

#[derive(Clone)]
enum PreKind {
    Policy(bindings::PolicyStepPre<CallState>),
    Provider(bindings::provider::ProviderStepPre<CallState>),
    Economics(bindings::economics::EconomicsStepPre<CallState>),
    PolicyV1_0(bindings::v1_0::PolicyStepPre<CallState>),
    ProviderV1_0(bindings::v1_0::provider::ProviderStepPre<CallState>),
    EconomicsV1_0(bindings::v1_0::economics::EconomicsStepPre<CallState>),
}

/// A component's pre-instantiation, opaque outside the sandbox.
#[derive(Clone)]
pub struct Pre(PreKind);

impl Pre {
    /// A fresh instance in `store`, not called.
    fn instantiate(&self, store: &mut Store<CallState>) -> wasmtime::Result<()> {
        match &self.0 {
            PreKind::Policy(pre) => pre.instantiate(store).map(drop),
            PreKind::Provider(pre) => pre.instantiate(store).map(drop),
            PreKind::Economics(pre) => pre.instantiate(store).map(drop),
            PreKind::PolicyV1_0(pre) => pre.instantiate(store).map(drop),
            PreKind::ProviderV1_0(pre) => pre.instantiate(store).map(drop),
            PreKind::EconomicsV1_0(pre) => pre.instantiate(store).map(drop),
        }
    }
}

/// The store of one call, opaque outside the sandbox.
pub struct CallStore<'a>(&'a mut Store<CallState>);

/// What [`World::call`] hands back: the input, and the call's result (`None`: the
/// pre-instantiation was another step's).
#[doc(hidden)]
pub type Called<I, O> = (I, Option<wasmtime::Result<Result<O, logic::StepError>>>);

/// One step's world as the host calls it: what goes in, what comes out, and how to call
/// the export. [`Sandbox::run`] is the one way to run any step.
pub trait World {
    const STEP: Step;
    type Input: Serialize + Clone;
    type Output: Serialize;

    /// The step's clock and seed, which the virtualised WASI serves.
    fn env(input: &Self::Input) -> &logic::StepEnv;

    /// Instantiates and calls the export; `None` when `pre` is another step's. The input is
    /// moved into the bindings' record and back rather than cloned: a step's input is mostly
    /// strings, and this way the call allocates none of them.
    #[doc(hidden)]
    fn call(
        pre: &Pre,
        store: CallStore<'_>,
        input: Self::Input,
    ) -> Called<Self::Input, Self::Output>;
}

/// The three worlds of `wit/chain.wit`.
pub mod worlds {
    use super::*;

    /// `policy-step`: `decide`.
    #[derive(Debug)]
    pub struct Policy;
    /// `provider-step`: `rank`.
    #[derive(Debug)]
    pub struct Provider;
    /// `economics-step`: `evaluate`.
    #[derive(Debug)]
    pub struct Economics;

    /// What chain 1.1.0 added to a step's input, which a 1.0.0 component does not take: taken
    /// out before the call and put back after it, so the caller gets its input back whole.
    trait Since1_1 {
        type Added;
        fn take_added(&mut self) -> Self::Added;
        fn put_added(&mut self, added: Self::Added);
    }

    impl Since1_1 for logic::PolicyInput {
        type Added = logic::ChargeKind;
        fn take_added(&mut self) -> Self::Added {
            std::mem::take(&mut self.charge.kind)
        }
        fn put_added(&mut self, added: Self::Added) {
            self.charge.kind = added;
        }
    }

    impl Since1_1 for logic::ProviderInput {
        type Added = (logic::ChargeKind, Option<String>);
        fn take_added(&mut self) -> Self::Added {
            (
                std::mem::take(&mut self.charge.kind),
                self.pinned_gateway.take(),
            )
        }
        fn put_added(&mut self, (kind, pinned): Self::Added) {
            self.charge.kind = kind;
            self.pinned_gateway = pinned;
        }
    }

    impl Since1_1 for logic::EconomicsInput {
        type Added = logic::ChargeKind;
        fn take_added(&mut self) -> Self::Added {
            std::mem::take(&mut self.charge.kind)
        }
        fn put_added(&mut self, added: Self::Added) {
            self.charge.kind = added;
        }
    }

    /// One world's impl: its step, types, the export's accessor and function, and how the
    /// bindings' output becomes the logic crate's; the same for the current version and 1.0.0.
    macro_rules! world {
        ($name:ident, $kind:ident, $v1_0:ident, $input:ty, $output:ty, $export:ident, $func:ident, $convert:expr) => {
            impl World for $name {
                const STEP: Step = Step::$kind;
                type Input = $input;
                type Output = $output;

                fn env(input: &Self::Input) -> &logic::StepEnv {
                    &input.env
                }

                fn call(
                    pre: &Pre,
                    CallStore(store): CallStore<'_>,
                    mut input: Self::Input,
                ) -> Called<Self::Input, Self::Output> {
                    match &pre.0 {
                        PreKind::$kind(pre) => {
                            let arg = input.into();
                            let result = (|| {
                                let out = pre
                                    .instantiate(&mut *store)?
                                    .$export()
                                    .$func(&mut *store, &arg)?;
                                Ok(out.map($convert).map_err(Into::into))
                            })();
                            (arg.into(), Some(result))
                        }
                        PreKind::$v1_0(pre) => {
                            let added = input.take_added();
                            let arg = input.into();
                            let result = (|| {
                                let out = pre
                                    .instantiate(&mut *store)?
                                    .$export()
                                    .$func(&mut *store, &arg)?;
                                Ok(out.map($convert).map_err(Into::into))
                            })();
                            let mut input: Self::Input = arg.into();
                            input.put_added(added);
                            (input, Some(result))
                        }
                        _ => (input, None),
                    }
                }
            }
        };
    }

    world!(
        Policy,
        Policy,
        PolicyV1_0,
        logic::PolicyInput,
        logic::PolicyDecision,
        pixgate_chain_policy,
        call_decide,
        Into::into
    );
    world!(
        Provider,
        Provider,
        ProviderV1_0,
        logic::ProviderInput,
        logic::ProviderDecision,
        pixgate_chain_provider_selection,
        call_rank,
        Into::into
    );
    world!(
        Economics,
        Economics,
        EconomicsV1_0,
        logic::EconomicsInput,
        Vec<logic::CandidateEconomics>,
        pixgate_chain_economics,
        call_evaluate,
        |verdicts: Vec<_>| verdicts.into_iter().map(Into::into).collect()
    );
}

/// A validated, compiled and pre-instantiated component, ready for calls.
pub struct LoadedComponent {
    step: Step,
    /// The `pixgate:chain` version it was built against.
    version: ChainVersion,
    sha256: String,
    size: usize,
    imports: Vec<String>,
    pre: Pre,
    /// The version's own budget; `None`: the sandbox's [`Limits`].
    budget: Option<Budget>,
}

impl LoadedComponent {
    pub fn step(&self) -> Step {
        self.step
    }

    /// The `pixgate:chain` version the component was built against.
    pub fn chain_version(&self) -> ChainVersion {
        self.version
    }

    /// Hex sha256 of the component's bytes: its immutable version name.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// The names of the interfaces the component imports, e.g. `pixgate:chain/host-log@1.0.0`.
    pub fn imports(&self) -> &[String] {
        &self.imports
    }

    /// Whether the component imports any WASI interface (a std component built for
    /// `wasm32-wasip2` does; the bundled steps do not).
    pub fn imports_wasi(&self) -> bool {
        self.imports.iter().any(|name| name.starts_with("wasi:"))
    }

    /// The version's own budget, if it has one (otherwise its calls get the sandbox's
    /// [`Limits`]).
    pub fn budget(&self) -> Option<Budget> {
        self.budget
    }

    /// The same component, whose calls get `budget` (`None`: the sandbox's limits). Cheap:
    /// the compiled code and pre-instantiation are shared.
    pub fn with_budget(&self, budget: Option<Budget>) -> Self {
        Self {
            step: self.step,
            version: self.version,
            sha256: self.sha256.clone(),
            size: self.size,
            imports: self.imports.clone(),
            pre: self.pre.clone(),
            budget,
        }
    }
}

impl fmt::Debug for LoadedComponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoadedComponent")
            .field("step", &self.step)
            .field("sha256", &self.sha256)
            .field("imports_wasi", &self.imports_wasi())
            .field("budget", &self.budget)
            .finish()
    }
}

/// What one call produced, with what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepRun<T> {
    /// The decision, or the step's typed refusal.
    pub output: Result<T, logic::StepError>,
    pub fuel_used: u64,
    /// The budget the call ran with.
    pub budget: Budget,
    pub duration: Duration,
    /// What the component logged (host-log lines, then anything written to stdout/stderr).
    pub log: String,
}

/// How the pool resets a linear memory when an instance goes away (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryReset {
    /// Only the pages the call wrote, found with Linux's `PAGEMAP_SCAN` ioctl.
    PagemapScan,
    /// The first [`KEEP_RESIDENT`] bytes `memset`, the rest decommitted: where the ioctl is
    /// unavailable (Linux before 6.7, other systems) or swap is on.
    Memset,
}

impl MemoryReset {
    /// What this host supports: the ioctl, unless swap is on.
    pub fn for_this_host() -> Self {
        if PoolingAllocationConfig::is_pagemap_scan_available() && !swap_enabled() {
            MemoryReset::PagemapScan
        } else {
            MemoryReset::Memset
        }
    }
}

/// Whether any swap device is active. Pagemap scanning does not reset a dirty page that was
/// swapped out, so it is used only without swap (wasmtime PR #14357).
fn swap_enabled() -> bool {
    match std::fs::read_to_string("/proc/swaps") {
        // A header line, then one line per active device.
        Ok(swaps) => swaps.lines().skip(1).any(|line| !line.trim().is_empty()),
        // No /proc/swaps: not Linux, where the ioctl is unavailable anyway; or /proc is
        // hidden, and then swap cannot be ruled out.
        Err(_) => true,
    }
}

/// Per linear memory, how much the pool resets in place instead of decommitting: with pagemap
/// scanning, the most dirty pages (in bytes) it resets in place; without, the bytes it
/// `memset`s from the start of the memory. 1 MiB covers a bundled step's whole memory
/// (256 KiB) and a std component's stack, data and early heap.
pub const KEEP_RESIDENT: usize = 1 << 20;
const TABLE_KEEP_RESIDENT: usize = 64 << 10;

/// The process-wide WebAssembly host.
pub struct Sandbox {
    engine: Engine,
    linker: Linker<CallState>,
    limits: Limits,
    memory_reset: MemoryReset,
    cache: Option<cache::ModuleCache>,
    /// How many threads one compile may use (see [`Sandbox::with_compile_threads`]).
    compile_threads: usize,
    /// Where components compile: built on the first compile, so that a process whose
    /// components all come from the cache starts no compile threads.
    compile_pool: OnceLock<rayon::ThreadPool>,
    epoch_tick: Duration,
    ticker_stop: Arc<AtomicBool>,
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.limits)
            .finish()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.ticker_stop.store(true, Ordering::Relaxed);
    }
}

const EPOCH_TICK: Duration = Duration::from_millis(2);

/// The cores this process may use (1 when the system does not say).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Half the cores, at least one: what [`Sandbox::with_compile_threads`] defaults to.
pub fn default_compile_threads() -> usize {
    (available_cores() / 2).max(1)
}
/// The compiled-component cache's bound unless [`Sandbox::with_cache_limit`] sets another.
pub const DEFAULT_CACHE_BYTES: u64 = 1 << 30;
/// The largest component `pixgate serve` accepts unless `PIXGATE_COMPONENT_MAX_BYTES` says
/// otherwise: the upload limit, and what the fuzz target of the loader feeds it at most.
pub const DEFAULT_COMPONENT_MAX_BYTES: u64 = 32 << 20;

/// Instances alive at once across the process; more concurrent calls wait for `Busy` retry.
const MAX_CONCURRENT_INSTANCES: u32 = 256;

impl Sandbox {
    /// Builds the engine and linker. `cache_dir` keeps compiled components across restarts.
    pub fn new(limits: Limits, cache_dir: Option<PathBuf>) -> Result<Self, SandboxError> {
        Self::with_memory_reset(limits, cache_dir, MemoryReset::for_this_host())
    }

    /// [`Sandbox::new`] with the memory reset chosen by the caller (tests and benchmarks of the
    /// fallback); `PagemapScan` fails on a host without the ioctl.
    pub fn with_memory_reset(
        limits: Limits,
        cache_dir: Option<PathBuf>,
        memory_reset: MemoryReset,
    ) -> Result<Self, SandboxError> {
        let internal = |e: wasmtime::Error| SandboxError::Internal(format!("{e:#}"));
        let mut pool = PoolingAllocationConfig::new();
        pool.total_component_instances(MAX_CONCURRENT_INSTANCES)
            .total_core_instances(MAX_CONCURRENT_INSTANCES * 8)
            .total_memories(MAX_CONCURRENT_INSTANCES * 2)
            .total_tables(MAX_CONCURRENT_INSTANCES * 4)
            .total_stacks(0)
            // The limiter enforces `limits.memory_bytes` with a named error; the pool's own
            // ceiling sits above it so that the limiter is what a guest runs into.
            .max_memory_size(limits.memory_bytes.max(limits.max_memory_bytes) + (1 << 20))
            // Reset memory in place rather than unmapping it: re-zeroing pages is cheaper than
            // the page faults of a fresh mapping on every call.
            .linear_memory_keep_resident(KEEP_RESIDENT)
            .table_keep_resident(TABLE_KEEP_RESIDENT);
        // `Yes` rather than `Auto`: the engine then uses exactly what `memory_reset` says, or
        // fails to build.
        pool.pagemap_scan(match memory_reset {
            MemoryReset::PagemapScan => Enabled::Yes,
            MemoryReset::Memset => Enabled::No,
        });
        if memory_reset == MemoryReset::Memset {
            tracing::info!(
                pagemap_scan_available = PoolingAllocationConfig::is_pagemap_scan_available(),
                swap_enabled = swap_enabled(),
                "sandbox: resetting linear memory with memset (slower); pagemap scanning needs \
                 Linux 6.7 or later and no swap"
            );
        }
        let mut config = Config::new();
        config
            .consume_fuel(true)
            .epoch_interruption(true)
            .max_wasm_stack(512 << 10)
            .allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
        let engine = Engine::new(&config).map_err(internal)?;

        let mut linker: Linker<CallState> = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(internal)?;
        bindings::PolicyStep::add_to_linker::<CallState, HasSelf<CallState>>(&mut linker, |s| s)
            .map_err(internal)?;
        // Chain 1.0.0's `host-log`, for components built before 1.1.0.
        bindings::v1_0::PolicyStep::add_to_linker::<CallState, HasSelf<CallState>>(
            &mut linker,
            |s| s,
        )
        .map_err(internal)?;
        refuse_blocking(&mut linker).map_err(internal)?;

        let ticker_stop = Arc::new(AtomicBool::new(false));
        {
            let engine = engine.clone();
            let stop = ticker_stop.clone();
            std::thread::Builder::new()
                .name("pixgate-epoch".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(EPOCH_TICK);
                        engine.increment_epoch();
                    }
                })
                .map_err(|e| SandboxError::Internal(e.to_string()))?;
        }
        let cache = cache_dir.map(|dir| cache::ModuleCache::new(dir, &engine, DEFAULT_CACHE_BYTES));
        Ok(Self {
            engine,
            linker,
            limits,
            memory_reset,
            cache,
            compile_threads: default_compile_threads(),
            compile_pool: OnceLock::new(),
            epoch_tick: EPOCH_TICK,
            ticker_stop,
        })
    }

    /// Compiles on at most `threads` threads. The default is half the cores, at least one: an
    /// upload of a 12-18 MB JavaScript or Python engine compiles for seconds, and in
    /// wasmtime's default (every core) the charges this process serves meanwhile would wait
    /// for it. Fewer threads make the compile longer and leave the other cores to the charges.
    pub fn with_compile_threads(mut self, threads: usize) -> Self {
        self.compile_threads = threads.max(1);
        self.compile_pool = OnceLock::new();
        self
    }

    /// The compile pool, built on first use.
    fn compile_pool(&self) -> Result<&rayon::ThreadPool, SandboxError> {
        if let Some(pool) = self.compile_pool.get() {
            return Ok(pool);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.compile_threads)
            .thread_name(|i| format!("pixgate-compile-{i}"))
            .build()
            .map_err(|e| SandboxError::Internal(format!("the compile thread pool: {e}")))?;
        // Two first compiles at once may both build one; the second is dropped unused.
        Ok(self.compile_pool.get_or_init(|| pool))
    }

    /// Bounds the compiled-component cache to `max_bytes` (least recently used go first).
    pub fn with_cache_limit(mut self, max_bytes: u64) -> Self {
        if let Some(cache) = &mut self.cache {
            cache.set_max_bytes(max_bytes);
        }
        self
    }

    /// Drops the compiled form of a deleted version from the disk cache.
    pub fn forget(&self, sha256: &str) {
        if let Some(cache) = &self.cache {
            cache.forget(sha256);
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// How the engine's pool resets linear memory between instances.
    pub fn memory_reset(&self) -> MemoryReset {
        self.memory_reset
    }

    /// Validates `wasm` as a component of `step`, compiles it (or takes it from the cache)
    /// and pre-instantiates it.
    pub fn load(&self, step: Step, wasm: &[u8]) -> Result<LoadedComponent, SandboxError> {
        check_format(wasm)?;
        let sha256 = sha256_hex(wasm);
        let (component, compiled) = match &self.cache {
            Some(cache) => {
                cache.get_or_compile(&self.engine, || self.compile_pool(), &sha256, wasm)?
            }
            None => (
                cache::compile(&self.engine, self.compile_pool()?, wasm)?.0,
                None,
            ),
        };
        let ty = component.component_type();
        // Before anything else about it: an import that reaches outside the sandbox is
        // refused by name, whatever the rest of the component is.
        imports::check(
            ty.imports(&self.engine).map(|(name, _)| name),
            imports::Admission::Stored,
        )?;
        let Some(version) = ChainVersion::ALL
            .into_iter()
            .find(|v| ty.get_export(&self.engine, &export(step, *v)).is_some())
        else {
            let found: Vec<&str> = ty.exports(&self.engine).map(|(name, _)| name).collect();
            return Err(SandboxError::WrongWorld {
                step,
                detail: format!(
                    "it does not export `{}` (nor the 1.0.0 one; it exports: {})",
                    export(step, ChainVersion::V1_1),
                    if found.is_empty() {
                        "nothing".to_owned()
                    } else {
                        found.join(", ")
                    }
                ),
            });
        };
        let imports = ty
            .imports(&self.engine)
            .map(|(name, _)| name.to_owned())
            .collect();
        let pre = self
            .linker
            .instantiate_pre(&component)
            .map_err(|e| SandboxError::UnsupportedImport(format!("{e:#}")))?;
        let wrong = |e: wasmtime::Error| SandboxError::WrongWorld {
            step,
            detail: format!("{e:#}"),
        };
        use ChainVersion::{V1_0, V1_1};
        use bindings::v1_0;
        let pre = Pre(match (step, version) {
            (Step::Policy, V1_1) => {
                PreKind::Policy(bindings::PolicyStepPre::new(pre).map_err(wrong)?)
            }
            (Step::Provider, V1_1) => {
                PreKind::Provider(bindings::provider::ProviderStepPre::new(pre).map_err(wrong)?)
            }
            (Step::Economics, V1_1) => {
                PreKind::Economics(bindings::economics::EconomicsStepPre::new(pre).map_err(wrong)?)
            }
            (Step::Policy, V1_0) => {
                PreKind::PolicyV1_0(v1_0::PolicyStepPre::new(pre).map_err(wrong)?)
            }
            (Step::Provider, V1_0) => {
                PreKind::ProviderV1_0(v1_0::provider::ProviderStepPre::new(pre).map_err(wrong)?)
            }
            (Step::Economics, V1_0) => {
                PreKind::EconomicsV1_0(v1_0::economics::EconomicsStepPre::new(pre).map_err(wrong)?)
            }
        });
        // Only now, accepted, is its compiled form worth keeping.
        if let (Some(cache), Some(compiled)) = (&self.cache, compiled) {
            cache.keep(&sha256, compiled);
        }
        Ok(LoadedComponent {
            step,
            version,
            sha256,
            size: wasm.len(),
            imports,
            pre,
            budget: None,
        })
    }

    /// Validates a new upload (or a build tried with `pixgate policy run`) like [`Self::load`],
    /// with the stricter rule for new components: files and sockets must have been sealed
    /// (`imports.rs`). The rule is checked before compiling when the bytes parse, so an
    /// unsealed engine is refused in milliseconds instead of after its 10-20 s compile.
    pub fn load_new(&self, step: Step, wasm: &[u8]) -> Result<LoadedComponent, SandboxError> {
        if let Some(names) = seal::imports(wasm) {
            imports::check(names.iter().map(String::as_str), imports::Admission::New)?;
        }
        let loaded = self.load(step, wasm)?;
        imports::check(
            loaded.imports.iter().map(String::as_str),
            imports::Admission::New,
        )?;
        Ok(loaded)
    }

    /// Loads the component compiled into the binary for `step`.
    pub fn load_bundled(&self, step: Step) -> Result<LoadedComponent, SandboxError> {
        self.load(step, bundled_wasm(step))
    }

    /// Runs one call of `component` (a component of `W`'s step) on `input` in a fresh store
    /// with the component's budget (or the sandbox's [`Limits`]).
    pub fn run<W: World>(
        &self,
        component: &LoadedComponent,
        input: &W::Input,
    ) -> Result<StepRun<W::Output>, SandboxError> {
        self.session().run::<W>(component, input)
    }

    /// A store for the steps of one charge: see [`Session`].
    pub fn session(&self) -> Session<'_> {
        Session {
            sandbox: self,
            store: self.store(),
            trapped: false,
        }
    }

    fn store(&self) -> Store<CallState> {
        let mut store = Store::new(&self.engine, CallState::new(&self.limits));
        store.limiter(|s| &mut s.limiter);
        store
    }

    /// The budget `component`'s calls run with: its own, held to the memory the pool's slots
    /// were sized for ([`Limits::max_memory_bytes`]), or the defaults of [`Limits`].
    pub fn budget_of(&self, component: &LoadedComponent) -> Budget {
        let Some(own) = component.budget else {
            return Budget::of(&self.limits);
        };
        let ceiling = self.limits.memory_bytes.max(self.limits.max_memory_bytes) as u64;
        Budget {
            fuel: own.fuel,
            memory_bytes: own.memory_bytes.min(ceiling),
        }
    }
}

/// One store for the steps of one charge. Creating a store is a fixed cost of every call, so
/// the chain pays it once for its three steps; each call still gets a fresh instance (the
/// component's own initial state, nothing left by another step or charge) and its own
/// accounting: fuel, memory, log and the wall-clock backstop are set anew before each call
/// and the WASI context, if the guest asks for one, is built anew from that call's input. An
/// instance is never called again after its call, so what an earlier step's instance holds
/// is out of every later call's reach; the store and every instance go away with the
/// session, at the end of the charge. A call that traps leaves the store unable to enter any
/// instance (wasmtime's rule), so the call after it gets a new store.
pub struct Session<'s> {
    sandbox: &'s Sandbox,
    store: Store<CallState>,
    /// The last call trapped: the next one needs a new store.
    trapped: bool,
}

impl fmt::Debug for Session<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session").finish_non_exhaustive()
    }
}

impl Session<'_> {
    /// Runs one call of `component` (a component of `W`'s step) on `input` on a fresh
    /// instance with the component's budget.
    pub fn run<W: World>(
        &mut self,
        component: &LoadedComponent,
        input: &W::Input,
    ) -> Result<StepRun<W::Output>, SandboxError> {
        self.run_owned::<W>(component, input.clone()).1
    }

    /// [`Session::run`] on an input it may move (into the call and back): what the chain
    /// uses, since it keeps each step's input for the trace anyway.
    pub fn run_owned<W: World>(
        &mut self,
        component: &LoadedComponent,
        input: W::Input,
    ) -> (W::Input, Result<StepRun<W::Output>, SandboxError>) {
        if component.step != W::STEP {
            let error = SandboxError::StepMismatch {
                expected: W::STEP,
                found: component.step,
            };
            return (input, Err(error));
        }
        let limits = &self.sandbox.limits;
        if let Err(size) = size::within(&input, limits.input_bytes) {
            let error = SandboxError::InputTooLarge {
                size,
                limit: limits.input_bytes,
            };
            return (input, Err(error));
        }
        let budget = self.sandbox.budget_of(component);
        let env = W::env(&input).clone();
        let mut input = Some(input);
        let run = self.invoke(budget, &env, |store| {
            let (back, result) = W::call(
                &component.pre,
                CallStore(store),
                input.take().expect("called once"),
            );
            input = Some(back);
            result.unwrap_or_else(|| Err(wasmtime::Error::msg("pre-instantiation of another step")))
        });
        (input.expect("handed back by the call"), run)
    }

    /// Instantiates `component` in this store without calling it, with its budget: the part
    /// of a call's cost that does not depend on the input (benchmarks measure it apart).
    pub fn instantiate(&mut self, component: &LoadedComponent) -> Result<(), SandboxError> {
        let budget = self.sandbox.budget_of(component);
        let env = logic::StepEnv { now_ms: 0, seed: 0 };
        self.invoke(budget, &env, |store| {
            component.pre.instantiate(store).map(|()| Ok(()))
        })
        .map(|_| ())
    }

    /// Runs `call` with `budget` and turns whatever went wrong into a named error.
    fn invoke<T: Serialize>(
        &mut self,
        budget: Budget,
        env: &logic::StepEnv,
        call: impl FnOnce(&mut Store<CallState>) -> wasmtime::Result<Result<T, logic::StepError>>,
    ) -> Result<StepRun<T>, SandboxError> {
        let limits = &self.sandbox.limits;
        if std::mem::take(&mut self.trapped) {
            self.store = self.sandbox.store();
        }
        let store = &mut self.store;
        let memory_bytes = usize::try_from(budget.memory_bytes).unwrap_or(usize::MAX);
        store.data_mut().begin_call(memory_bytes, env);
        // Bounds what the host copies out of the guest in one lift (the result, a log line):
        // a guest must not make the host allocate more than its output budget allows.
        store.set_hostcall_fuel(hostcall_fuel(limits));
        store
            .set_fuel(budget.fuel)
            .map_err(|e| SandboxError::Internal(format!("{e:#}")))?;
        // Relative to the engine's epoch now: each call gets the whole backstop.
        let ticks = limits.wall_clock.as_micros() / self.sandbox.epoch_tick.as_micros().max(1) + 1;
        store.set_epoch_deadline(u64::try_from(ticks).unwrap_or(u64::MAX));
        store.epoch_deadline_trap();

        let started = Instant::now();
        let result = call(store);
        let duration = started.elapsed();
        let fuel_used = budget.fuel - store.get_fuel().unwrap_or(0);
        let state = store.data_mut();
        let log = state.take_log();
        let output = match result {
            Ok(_) if state.log_exceeded() => {
                return Err(SandboxError::LogLimitExceeded {
                    limit: limits.log_bytes,
                });
            }
            Ok(output) => output,
            Err(e) => {
                self.trapped = true;
                return Err(classify(e, state, limits, budget, &log));
            }
        };
        let within = match &output {
            Ok(v) => size::within(v, limits.output_bytes),
            Err(e) => size::within(e, limits.output_bytes),
        };
        if let Err(size) = within {
            return Err(SandboxError::OutputTooLarge {
                size,
                limit: limits.output_bytes,
            });
        }
        Ok(StepRun {
            output,
            fuel_used,
            budget,
            duration,
            log,
        })
    }
}

fn hostcall_fuel(limits: &Limits) -> usize {
    (limits.output_bytes * 8)
        .max(limits.log_bytes * 2)
        .max(64 << 10)
}

fn classify(
    e: wasmtime::Error,
    state: &CallState,
    limits: &Limits,
    budget: Budget,
    log: &str,
) -> SandboxError {
    if state.limiter.exceeded {
        return SandboxError::MemoryLimitExceeded {
            limit_bytes: usize::try_from(budget.memory_bytes).unwrap_or(usize::MAX),
        };
    }
    if state.log_exceeded() {
        return SandboxError::LogLimitExceeded {
            limit: limits.log_bytes,
        };
    }
    if format!("{e:#}").contains("fuel allocated for hostcalls has been exhausted") {
        return SandboxError::OutputTooLarge {
            size: hostcall_fuel(limits),
            limit: limits.output_bytes,
        };
    }
    if let Some(blocked) = e.downcast_ref::<BlockingRefused>() {
        return SandboxError::BlockingForbidden(blocked.0.to_owned());
    }
    match e.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => SandboxError::FuelExhausted {
            budget: budget.fuel,
        },
        Some(Trap::Interrupt) => SandboxError::DeadlineExceeded {
            limit: limits.wall_clock,
        },
        Some(Trap::StackOverflow) => SandboxError::StackExhausted,
        Some(trap) => {
            // A Rust guest's panic message is on its stderr; the trap itself only says
            // `unreachable`.
            let said = log.trim();
            SandboxError::Trapped {
                message: if said.is_empty() {
                    trap.to_string()
                } else {
                    format!("{trap}: {said}")
                },
            }
        }
        None => {
            let message = format!("{e:#}");
            if message.contains("concurrent") || message.contains("maximum") {
                SandboxError::Busy
            } else {
                SandboxError::Trapped { message }
            }
        }
    }
}

/// A deterministic step has nothing to wait for, and a host call that blocks cannot be
/// interrupted by the epoch backstop: sleeping, polling and clock subscriptions trap.
fn refuse_blocking(linker: &mut Linker<CallState>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let refuse = |what: &'static str| {
        move |_: wasmtime::StoreContextMut<'_, CallState>,
              _: wasmtime::component::types::ComponentFunc,
              _: &[Val],
              _: &mut [Val]| { Err(wasmtime::Error::new(BlockingRefused(what))) }
    };
    let mut poll = linker.instance("wasi:io/poll@0.2.12")?;
    poll.func_new("[method]pollable.block", refuse("pollable.block"))?;
    poll.func_new("poll", refuse("poll"))?;
    let mut clock = linker.instance("wasi:clocks/monotonic-clock@0.2.12")?;
    clock.func_new(
        "subscribe-duration",
        refuse("monotonic-clock.subscribe-duration"),
    )?;
    clock.func_new(
        "subscribe-instant",
        refuse("monotonic-clock.subscribe-instant"),
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// Refuses, in one line an uploader can act on, bytes that are no component at all: not
/// WebAssembly (a README, a zip, a JavaScript source), or a core module where a component is
/// expected. The parser's own message for these spans lines (it prints the bytes it expected).
fn check_format(wasm: &[u8]) -> Result<(), SandboxError> {
    // The preamble: the magic `\0asm`, then a 16-bit version and a 16-bit layer (0 for a core
    // module, 1 for a component), little-endian.
    if wasm.len() < 8 || wasm[..4] != *b"\0asm" {
        return Err(SandboxError::InvalidComponent(
            "the file is not WebAssembly (it does not start with the bytes \\0asm): upload the \
             .wasm file a component build wrote"
                .to_owned(),
        ));
    }
    if wasm[6..8] == [0, 0] {
        return Err(SandboxError::InvalidComponent(
            "it is a core WebAssembly module, not a component: build it as a component \
             (cargo's wasm32-wasip2 target, or the JavaScript or Python kit)"
                .to_owned(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod format_tests {
    use super::*;

    #[test]
    fn what_is_no_component_is_refused_in_one_line_that_says_what_to_do() {
        let refusal = |bytes: &[u8]| check_format(bytes).unwrap_err().to_string();
        let not_wasm: [&[u8]; 3] = [b"# pixgate\n\nA README", b"", b"\0asm"];
        for not_wasm in not_wasm {
            let text = refusal(not_wasm);
            assert!(
                text.contains("is not WebAssembly") && !text.contains('\n'),
                "{text}"
            );
        }
        let core = [0, b'a', b's', b'm', 1, 0, 0, 0];
        assert!(refusal(&core).contains("core WebAssembly module, not a component"));
        let component = [0, b'a', b's', b'm', 0x0d, 0, 1, 0];
        assert_eq!(check_format(&component), Ok(()));
    }
}
