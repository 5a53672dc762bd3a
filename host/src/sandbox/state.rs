//! What one call's store holds: a WASI context with virtual clocks and seeded randomness,
//! the memory limiter and the bounded log.

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

pub(super) struct MemoryLimiter {
    limit: usize,
    pub exceeded: bool,
}

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.limit {
            self.exceeded = true;
            wasmtime::bail!("linear memory limit of {} bytes exceeded", self.limit);
        }
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

pub(super) struct CallState {
    wasi: WasiCtx,
    table: ResourceTable,
    pub limiter: MemoryLimiter,
    log: String,
    log_limit: usize,
    log_exceeded: bool,
    output: MemoryOutputPipe,
}

impl CallState {
    pub fn new(limits: &Limits, env: &StepEnv) -> Self {
        // The stream the guest's randomness cycles through, derived from the seed alone.
        let stream: [u8; 32] = Sha256::new()
            .chain_update(b"pixgate-step-seed")
            .chain_update(env.seed.to_le_bytes())
            .finalize()
            .into();
        // One byte over the budget, so that a full pipe means the guest wrote too much.
        let output = MemoryOutputPipe::new(limits.log_bytes + 1);
        let now = Duration::from_millis(u64::try_from(env.now_ms).unwrap_or(0));
        let wasi = WasiCtx::builder()
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
        Self {
            wasi,
            table,
            limiter: MemoryLimiter {
                limit: limits.memory_bytes,
                exceeded: false,
            },
            log: String::new(),
            log_limit: limits.log_bytes,
            log_exceeded: false,
            output,
        }
    }

    /// Host-log lines and stdout/stderr share one budget.
    pub fn log_exceeded(&self) -> bool {
        self.log_exceeded || self.log.len() + self.output.contents().len() > self.log_limit
    }

    /// The host-log lines, then whatever the guest wrote to stdout or stderr.
    pub fn log_text(&self) -> String {
        let written = self.output.contents();
        let mut text = self.log.clone();
        text.push_str(&String::from_utf8_lossy(&written));
        text
    }
}

impl WasiView for CallState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl types::Host for CallState {}

impl host_log::Host for CallState {
    fn log(&mut self, level: host_log::Level, message: String) -> wasmtime::Result<()> {
        let level = match level {
            host_log::Level::Debug => "debug",
            host_log::Level::Info => "info",
            host_log::Level::Warn => "warn",
            host_log::Level::Error => "error",
        };
        let used = self.log.len() + self.output.contents().len();
        if used + level.len() + message.len() + 3 > self.log_limit {
            self.log_exceeded = true;
            return Err(wasmtime::Error::new(LogLimitReached));
        }
        self.log.push_str(level);
        self.log.push_str(": ");
        self.log.push_str(&message);
        self.log.push('\n');
        Ok(())
    }
}
