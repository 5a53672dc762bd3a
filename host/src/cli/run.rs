//! `pixgate policy run`: one step (or the whole chain) on a JSON input, offline.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use pixgate_domain::Step;
use pixgate_sandbox::chain::{self, ChainError, ChainInput, Components, StepRecord};
use pixgate_sandbox::{Limits, LoadedComponent, Sandbox, worlds};
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum StepArg {
    Policy,
    Provider,
    Economics,
    /// The three steps in order with the bundled components.
    Chain,
}

#[derive(Debug, Args)]
pub(super) struct RunArgs {
    #[arg(long, value_enum)]
    step: StepArg,
    /// Component to run (.wasm); the bundled one for the step when left out.
    #[arg(long)]
    component: Option<PathBuf>,
    /// Input JSON file (`-` for standard input).
    #[arg(long)]
    input: PathBuf,
    /// Fuel budget per call.
    #[arg(long, default_value_t = Limits::default().fuel)]
    fuel: u64,
    /// Wall-clock backstop per call, milliseconds.
    #[arg(long, default_value_t = Limits::default().wall_clock.as_millis() as u64)]
    wall_clock_ms: u64,
    /// Where compiled components are kept between runs, so that running the same build again
    /// (another input, the next test) skips compiling it. Default:
    /// `$XDG_CACHE_HOME/pixgate/components`, else `~/.cache/pixgate/components`.
    #[arg(long, env = "PIXGATE_POLICY_CACHE_DIR")]
    cache_dir: Option<PathBuf>,
    /// Compile the component every time and keep nothing.
    #[arg(long, conflicts_with = "cache_dir")]
    no_cache: bool,
}

/// The default compiled-component cache of `policy run`, under the user's cache directory
/// (the XDG base directory rule); none when neither variable is set.
fn default_cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|home| PathBuf::from(home).join(".cache"))
        })?;
    Some(base.join("pixgate").join("components"))
}

fn error(code: &str, message: impl std::fmt::Display, step: Option<Step>) -> Value {
    json!({ "error": { "code": code, "message": message.to_string(), "step": step } })
}

fn chain_error(e: &ChainError) -> Value {
    error(&e.code(), e, Some(e.step()))
}

pub(super) fn policy_run(args: &RunArgs) -> Result<Value, Value> {
    let text = if args.input.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(&args.input)
    }
    .map_err(|e| {
        error(
            "input_unreadable",
            format!("{}: {e}", args.input.display()),
            None,
        )
    })?;
    let limits = Limits {
        fuel: args.fuel,
        wall_clock: Duration::from_millis(args.wall_clock_ms),
        ..Limits::default()
    };
    let cache_dir = if args.no_cache {
        None
    } else {
        args.cache_dir.clone().or_else(default_cache_dir)
    };
    // No charges to leave cores to here: a compile takes them all.
    let sandbox = Sandbox::new(limits, cache_dir.clone())
        .map_err(|e| error(e.code(), &e, None))?
        .with_compile_threads(pixgate_sandbox::available_cores());
    let parse_err = |e: serde_json::Error| error("invalid_input", format!("input JSON: {e}"), None);

    let step = match args.step {
        StepArg::Policy => Step::Policy,
        StepArg::Provider => Step::Provider,
        StepArg::Economics => Step::Economics,
        StepArg::Chain => {
            if args.component.is_some() {
                return Err(error(
                    "invalid_arguments",
                    "--component applies to a single step, not to --step chain",
                    None,
                ));
            }
            let input: ChainInput = serde_json::from_str(&text).map_err(parse_err)?;
            let components =
                Components::bundled(&sandbox).map_err(|e| error(e.code(), &e, None))?;
            let resolution =
                chain::resolve(&sandbox, &components, &input).map_err(|e| chain_error(&e))?;
            return serde_json::to_value(&resolution).map_err(|e| error("internal", e, None));
        }
    };
    let component = load(
        &sandbox,
        step,
        args.component.as_ref(),
        cache_dir.as_deref(),
    )?;
    let source = match &args.component {
        Some(path) => path.display().to_string(),
        None => "bundled".to_owned(),
    };
    let record = match step {
        Step::Policy => to_value(chain::run_step::<worlds::Policy>(
            &sandbox,
            &component,
            serde_json::from_str(&text).map_err(parse_err)?,
        )),
        Step::Provider => to_value(chain::run_step::<worlds::Provider>(
            &sandbox,
            &component,
            serde_json::from_str(&text).map_err(parse_err)?,
        )),
        Step::Economics => to_value(chain::run_step::<worlds::Economics>(
            &sandbox,
            &component,
            serde_json::from_str(&text).map_err(parse_err)?,
        )),
    }?;
    Ok(json!({
        "step": step,
        "component": { "sha256": component.sha256(), "bytes": component.size(), "source": source },
        "output": record["output"],
        "fuelUsed": record["fuelUsed"],
        "durationUs": record["durationUs"],
        "log": record["log"],
    }))
}

fn to_value<I: serde::Serialize, O: serde::Serialize>(
    record: Result<StepRecord<I, O>, ChainError>,
) -> Result<Value, Value> {
    let record = record.map_err(|e| chain_error(&e))?;
    serde_json::to_value(&record).map_err(|e| error("internal", e, None))
}

/// The component to run. A file's compile can take a while (half a minute for a 12 MB
/// JavaScript or Python component on a small machine), so stderr says what is compiling, how
/// big it is and, once loaded, how long it took; stdout keeps only the JSON answer.
fn load(
    sandbox: &Sandbox,
    step: Step,
    path: Option<&PathBuf>,
    cache_dir: Option<&std::path::Path>,
) -> Result<LoadedComponent, Value> {
    let loaded = match path {
        None => sandbox.load_bundled(step),
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| {
                error(
                    "component_unreadable",
                    format!("{}: {e}", path.display()),
                    Some(step),
                )
            })?;
            let kept = match cache_dir {
                Some(dir) => format!("a compiled copy kept in {} is used", dir.display()),
                None => "nothing is kept (--no-cache)".to_owned(),
            };
            eprintln!(
                "pixgate: loading {} ({}) as a {step} component: checked and compiled unless \
                 {kept}",
                path.display(),
                super::size_text(bytes.len() as u64),
            );
            let started = std::time::Instant::now();
            // The rule of a new upload: what runs here is what the server would take.
            let loaded = sandbox.load_new(step, &bytes);
            if loaded.is_ok() {
                eprintln!(
                    "pixgate: loaded in {:.1} s; running",
                    started.elapsed().as_secs_f64()
                );
            }
            loaded
        }
    };
    loaded.map_err(|e| error(e.code(), &e, Some(step)))
}
