//! Where the logs go and in what form: always standard error; plain lines for people, with
//! colour only when standard error is a terminal (and `NO_COLOR` is unset), or one JSON
//! object per line (`PIXGATE_LOG_FORMAT=json`) for log pipelines.

use std::io::IsTerminal;

use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, Layer, Registry};

/// How log lines are written (`PIXGATE_LOG_FORMAT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line: `timestamp`, `level`, `fields.message`, `target` and the
    /// fields of the spans it happened in (`spans`).
    Json,
}

/// Installs the global subscriber. `filter` is an `EnvFilter` directive; an unreadable one
/// falls back to `fallback`.
pub fn init(filter: &str, fallback: &str, format: LogFormat) {
    init_with(filter, fallback, format, None);
}

/// [`init`] with one more layer beside the log lines (the trace exporter): the filter is the
/// log lines' alone, so `PIXGATE_LOG=warn` quietens the logs without emptying the traces.
pub fn init_with(
    filter: &str,
    fallback: &str,
    format: LogFormat,
    extra: Option<Box<dyn Layer<Registry> + Send + Sync>>,
) {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new(fallback));
    let lines = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let lines = match format {
        LogFormat::Text => lines.with_ansi(colour()).with_filter(filter).boxed(),
        LogFormat::Json => lines
            .json()
            .with_current_span(false)
            .with_span_list(true)
            .with_filter(filter)
            .boxed(),
    };
    let mut layers = vec![lines];
    layers.extend(extra);
    tracing_subscriber::registry().with(layers).init();
}

/// Colour escapes only for a person at a terminal: a file, a pipe or a log collector gets
/// plain text (<https://no-color.org>).
fn colour() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
