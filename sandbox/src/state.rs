//! What a store holds for the call running in it: the memory limiter, the bounded log and,
//! once the guest makes its first WASI call, a WASI context with virtual clocks and seeded
//! randomness. A store serves the calls of one charge one after the other
//! ([`crate::Session`]); [`CallState::begin_call`] gives each call all of these anew.

use std::time::Duration;

use pixgate_policy_logic::StepEnv;
use sha2::{Digest, Sha256};
use wasmtime::ResourceLimiter;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::clocks::{HostMonotonicClock, HostWallClock};
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::random::Deterministic;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use super::Limits;
use super::bindings::pixgate::chain::{host_log, types};
use super::bindings::v1_0::pixgate::chain as v1_0;

/// A guest tried to wait; raised from the host functions that would block.
#[derive(Debug)]
pub(super) struct BlockingRefused(pub &'static str);

impl std::fmt::Display for BlockingRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "blocking call `{}` refused", self.0)
    }
}

impl std::error::Error for BlockingRefused {}

#[derive(Debug)]
struct LogLimitReached;

impl std::fmt::Display for LogLimitReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("log limit reached")
    }
}

impl std::error::Error for LogLimitReached {}

/// The call's memory budget: the sum of every linear memory of the call's instances (a
/// component may hold several), not each one alone.
pub(super) struct MemoryLimiter {
    limit: usize,
    /// Bytes of linear memory granted so far in this call's store.
    used: usize,
    pub exceeded: bool,
}

impl MemoryLimiter {
    pub(super) fn new(limit: usize) -> Self {
        Self {
            limit,
            used: 0,
            exceeded: false,
        }
    }
}

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        // Called with `current` 0 when a memory is created, then on every growth.
        let total = self.used.saturating_sub(current).saturating_add(desired);
        if total > self.limit {
            self.exceeded = true;
            wasmtime::bail!(
                "linear memory limit of {} bytes (all memories together) exceeded",
                self.limit
            );
        }
        self.used = total;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= 100_000)
    }
}

/// The wall clock stands still at the step's `now`.
struct FrozenWallClock(Duration);

impl HostWallClock for FrozenWallClock {
    fn resolution(&self) -> Duration {
        Duration::from_millis(1)
    }

    fn now(&self) -> Duration {
        self.0
    }
}

/// The monotonic clock stands still too: measured durations are zero, deterministically.
struct FrozenMonotonicClock;

impl HostMonotonicClock for FrozenMonotonicClock {
    fn resolution(&self) -> u64 {
        1
    }

    fn now(&self) -> u64 {
        0
    }
}

/// A call's WASI context: built on the first WASI call, so a component that imports no WASI
/// (the bundled steps) never pays for one.
struct Wasi {
    ctx: WasiCtx,
    table: ResourceTable,
    /// The guest's stdout and stderr.
    output: MemoryOutputPipe,
}

impl Wasi {
    fn new(env: &StepEnv, log_bytes: usize) -> Self {
        // The stream the guest's randomness cycles through, derived from the seed alone.
        let stream: [u8; 32] = Sha256::new()
            .chain_update(b"pixgate-step-seed")
            .chain_update(env.seed.to_le_bytes())
            .finalize()
            .into();
        // One byte over the budget, so that a full pipe means the guest wrote too much.
        let output = MemoryOutputPipe::new(log_bytes + 1);
        let now = Duration::from_millis(u64::try_from(env.now_ms).unwrap_or(0));
        let ctx = WasiCtx::builder()
            .wall_clock(FrozenWallClock(now))
            .monotonic_clock(FrozenMonotonicClock)
            .secure_random(Deterministic::new(stream.to_vec()))
            .insecure_random(Deterministic::new(stream.to_vec()))
            .insecure_random_seed(u128::from(env.seed))
            .max_random_size(4096)
            .stdout(output.clone())
            .stderr(output.clone())
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .build();
        let mut table = ResourceTable::new();
        // Streams and the like: a step needs a handful; a loop must not fill host memory.
        table.set_max_capacity(256);
        Self { ctx, table, output }
    }
}

pub(super) struct CallState {
    /// The clock and seed the WASI context serves, when the guest asks for one: the current
    /// call's.
    env: StepEnv,
    wasi: Option<Box<Wasi>>,
    pub limiter: MemoryLimiter,
    log: String,
    log_limit: usize,
    log_exceeded: bool,
}

impl CallState {
    /// A store's state before its first call; [`CallState::begin_call`] sets up each call.
    pub fn new(limits: &Limits) -> Self {
        Self {
            env: StepEnv { now_ms: 0, seed: 0 },
            wasi: None,
            limiter: MemoryLimiter::new(limits.memory_bytes),
            log: String::new(),
            log_limit: limits.log_bytes,
            log_exceeded: false,
        }
    }

    /// Starts a call with `memory_bytes` of linear memory and `env`'s clock and seed: nothing
    /// of an earlier call's state (its memory count, log, WASI context and the streams and
    /// randomness in it) carries over. The memories of earlier calls' instances stay in the
    /// store but are never grown again, so only this call's memories count against its budget.
    pub fn begin_call(&mut self, memory_bytes: usize, env: &StepEnv) {
        self.env = env.clone();
        self.wasi = None;
        self.limiter = MemoryLimiter::new(memory_bytes);
        self.log.clear();
        self.log_exceeded = false;
    }

    /// How many bytes the guest wrote to stdout and stderr.
    fn written_len(&self) -> usize {
        self.wasi.as_ref().map_or(0, |w| w.output.contents().len())
    }

    /// Host-log lines and stdout/stderr share one budget.
    pub fn log_exceeded(&self) -> bool {
        self.log_exceeded || self.log.len() + self.written_len() > self.log_limit
    }

    /// The host-log lines, then whatever the guest wrote to stdout or stderr: taken out of
    /// the state at the end of a call ([`CallState::log_exceeded`] still answers for it).
    pub fn take_log(&mut self) -> String {
        self.log_exceeded = self.log_exceeded();
        let mut text = std::mem::take(&mut self.log);
        if let Some(wasi) = &self.wasi {
            text.push_str(&String::from_utf8_lossy(&wasi.output.contents()));
        }
        text
    }
}

impl WasiView for CallState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        let (env, log_limit) = (&self.env, self.log_limit);
        let wasi = self
            .wasi
            .get_or_insert_with(|| Box::new(Wasi::new(env, log_limit)));
        WasiCtxView {
            ctx: &mut wasi.ctx,
            table: &mut wasi.table,
        }
    }
}

impl types::Host for CallState {}
impl v1_0::types::Host for CallState {}

impl host_log::Host for CallState {
    fn log(&mut self, level: host_log::Level, message: String) -> wasmtime::Result<()> {
        let level = match level {
            host_log::Level::Debug => "debug",
            host_log::Level::Info => "info",
            host_log::Level::Warn => "warn",
            host_log::Level::Error => "error",
        };
        self.keep_log(level, &message)
    }
}

/// Chain 1.0.0's `host-log`, the same function.
impl v1_0::host_log::Host for CallState {
    fn log(&mut self, level: v1_0::host_log::Level, message: String) -> wasmtime::Result<()> {
        let level = match level {
            v1_0::host_log::Level::Debug => "debug",
            v1_0::host_log::Level::Info => "info",
            v1_0::host_log::Level::Warn => "warn",
            v1_0::host_log::Level::Error => "error",
        };
        self.keep_log(level, &message)
    }
}

impl CallState {
    /// Keeps a guest's log line with the decision, within the call's log budget.
    fn keep_log(&mut self, level: &str, message: &str) -> wasmtime::Result<()> {
        let used = self.log.len() + self.written_len();
        if used + level.len() + message.len() + 3 > self.log_limit {
            self.log_exceeded = true;
            return Err(wasmtime::Error::new(LogLimitReached));
        }
        self.log.push_str(level);
        self.log.push_str(": ");
        self.log.push_str(message);
        self.log.push('\n');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::MemoryLimiter;
    use wasm_encoder::{
        CodeSection, ExportKind, ExportSection, Function, FunctionSection, Instruction,
        MemorySection, MemoryType, Module, TypeSection, ValType,
    };

    /// A core module with two memories of one page and `grow(pages)`, which grows both.
    fn two_memories() -> Vec<u8> {
        let mut module = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([ValType::I32], []);
        module.section(&types);
        let mut functions = FunctionSection::new();
        functions.function(0);
        module.section(&functions);
        let mut memories = MemorySection::new();
        for _ in 0..2 {
            memories.memory(MemoryType {
                minimum: 1,
                maximum: None,
                memory64: false,
                shared: false,
                page_size_log2: None,
            });
        }
        module.section(&memories);
        let mut exports = ExportSection::new();
        exports.export("grow", ExportKind::Func, 0);
        module.section(&exports);
        let mut code = CodeSection::new();
        let mut grow = Function::new([]);
        for memory in 0..2 {
            grow.instruction(&Instruction::LocalGet(0));
            grow.instruction(&Instruction::MemoryGrow(memory));
            grow.instruction(&Instruction::Drop);
        }
        grow.instruction(&Instruction::End);
        code.function(&grow);
        module.section(&code);
        module.finish()
    }

    #[test]
    fn the_budget_counts_every_memory_together() {
        const PAGE: usize = 65_536;
        let engine = wasmtime::Engine::default();
        let module = wasmtime::Module::new(&engine, two_memories()).unwrap();
        let mut store = wasmtime::Store::new(&engine, MemoryLimiter::new(16 << 20));
        store.limiter(|l| l);
        let instance = wasmtime::Instance::new(&mut store, &module, &[]).unwrap();
        let grow = instance
            .get_typed_func::<i32, ()>(&mut store, "grow")
            .unwrap();
        // 2 × 101 pages (13.2 MB): within 16 MiB.
        grow.call(&mut store, 100).unwrap();
        assert_eq!(store.data().used, 2 * 101 * PAGE);
        assert!(!store.data().exceeded);
        // Each memory alone would stay under 16 MiB at 131 pages; both together do not.
        let err = grow.call(&mut store, 30).unwrap_err();
        assert!(store.data().exceeded, "{err:#}");
        assert!(
            format!("{err:#}").contains("all memories together"),
            "{err:#}"
        );
    }

    #[test]
    fn shrinking_the_view_never_underflows() {
        let mut limiter = MemoryLimiter::new(100);
        use wasmtime::ResourceLimiter;
        assert!(limiter.memory_growing(0, 60, None).unwrap());
        assert!(limiter.memory_growing(60, 100, None).unwrap());
        assert!(limiter.memory_growing(0, 1, None).is_err());
        assert!(limiter.exceeded);
    }
}
