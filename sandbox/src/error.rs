use std::time::Duration;

use pixgate_domain::Step;

/// Why a component could not be loaded or a call produced no decision. Each variant has a
/// stable code for traces, the CLI and the admin API.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SandboxError {
    #[error("not a valid WebAssembly component: {0}")]
    InvalidComponent(String),
    #[error("component does not implement the {step} world: {detail}")]
    WrongWorld { step: Step, detail: String },
    #[error("component imports what the sandbox does not provide: {0}")]
    UnsupportedImport(String),
    #[error("component is a {found} step, not a {expected} step")]
    StepMismatch { expected: Step, found: Step },
    #[error("component needs more than one sandbox instance may have: {0}")]
    ExceedsLimits(String),
    #[error("fuel budget of {budget} units exhausted")]
    FuelExhausted { budget: u64 },
    #[error("linear memory limit of {limit_bytes} bytes exceeded")]
    MemoryLimitExceeded { limit_bytes: usize },
    #[error("call stack exhausted (recursion too deep)")]
    StackExhausted,
    #[error("wall-clock backstop of {} ms exceeded", .limit.as_millis())]
    DeadlineExceeded { limit: Duration },
    #[error("component tried to block ({0}); a step must decide without waiting")]
    BlockingForbidden(String),
    #[error("component trapped: {message}")]
    Trapped { message: String },
    #[error("input of {size} bytes exceeds the limit of {limit} bytes")]
    InputTooLarge { size: usize, limit: usize },
    #[error("output of {size} bytes or more exceeds the limit of {limit} bytes")]
    OutputTooLarge { size: usize, limit: usize },
    #[error("log output exceeds the limit of {limit} bytes")]
    LogLimitExceeded { limit: usize },
    #[error("invalid output: {0}")]
    InvalidOutput(String),
    #[error("sandbox is at its limit of concurrent instances; retry")]
    Busy,
    #[error("sandbox failure: {0}")]
    Internal(String),
}

impl SandboxError {
    /// Whether the component itself is to blame (what the kill switch counts), as opposed to
    /// the host: its input check, its instance pool being full, its own failure, or a
    /// wall-clock backstop that a saturated machine can hit while fuel would have sufficed.
    pub fn is_guest_fault(&self) -> bool {
        matches!(
            self,
            Self::FuelExhausted { .. }
                | Self::MemoryLimitExceeded { .. }
                | Self::StackExhausted
                | Self::BlockingForbidden(_)
                | Self::Trapped { .. }
                | Self::OutputTooLarge { .. }
                | Self::LogLimitExceeded { .. }
                | Self::InvalidOutput(_)
        )
    }

    /// Stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidComponent(_) => "invalid_component",
            Self::WrongWorld { .. } => "wrong_world",
            Self::UnsupportedImport(_) => "unsupported_import",
            Self::StepMismatch { .. } => "step_mismatch",
            Self::ExceedsLimits(_) => "component_exceeds_limits",
            Self::FuelExhausted { .. } => "fuel_exhausted",
            Self::MemoryLimitExceeded { .. } => "memory_limit_exceeded",
            Self::StackExhausted => "stack_exhausted",
            Self::DeadlineExceeded { .. } => "deadline_exceeded",
            Self::BlockingForbidden(_) => "blocking_forbidden",
            Self::Trapped { .. } => "trapped",
            Self::InputTooLarge { .. } => "input_too_large",
            Self::OutputTooLarge { .. } => "output_too_large",
            Self::LogLimitExceeded { .. } => "log_limit_exceeded",
            Self::InvalidOutput(_) => "invalid_output",
            Self::Busy => "sandbox_busy",
            Self::Internal(_) => "sandbox_internal",
        }
    }
}
