//! The `pixgate` command line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use crate::chain::{self, ChainError, ChainInput, Components, StepRecord};
use crate::sandbox::{Limits, LoadedComponent, Sandbox, Step, worlds};

#[derive(Debug, Parser)]
#[command(name = "pixgate", version, about = "PIX merchant payment service")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
// Parsed once at start-up; the size difference does not matter.
#[allow(clippy::large_enum_variant)]
enum Command {
    /// Run the service: merchant API, admin API, health and metrics.
    Serve(crate::config::ServeConfig),
    /// Work with policy components.
    #[command(subcommand)]
    Policy(PolicyCommand),
}

#[derive(Debug, Subcommand)]
enum PolicyCommand {
    /// Run one step (or the whole chain) on a JSON input and print the JSON output, the fuel
    /// used and the duration. Exit status 0 with a decision, 1 with an error or a refusal.
    Run(RunArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum StepArg {
    Policy,
    Provider,
    Economics,
    /// The three steps in order with the bundled components.
    Chain,
}

#[derive(Debug, Args)]
struct RunArgs {
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
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(config) => serve(config),
        Command::Policy(PolicyCommand::Run(args)) => match policy_run(&args) {
            Ok(out) => {
                println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
                ExitCode::SUCCESS
            }
            Err(out) => {
                println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
                ExitCode::FAILURE
            }
        },
    }
}

fn serve(config: crate::config::ServeConfig) -> ExitCode {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("pixgate: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let app = match crate::app::App::build(&config).await {
            Ok(app) => app,
            Err(e) => {
                eprintln!("pixgate: {e:#}");
                return ExitCode::FAILURE;
            }
        };
        // Machine-readable start-up lines on stdout; secrets appear here once and never in logs.
        println!(
            "pixgate: merchant API on http://{}/api/v1",
            app.merchant_addr
        );
        println!("pixgate: admin API on http://{}/admin/v1", app.admin_addr);
        if let Some(token) = &app.generated.admin_token {
            println!(
                "pixgate: admin token (shown once; also in {}): {token}",
                config.data_dir.join("admin-token").display()
            );
        }
        if let Some(demo) = &app.generated.demo {
            println!(
                "pixgate: demo merchant `{}` with SHADOW store `{}`; demo API key (shown once): {}",
                demo.merchant, demo.store, demo.api_key
            );
        }
        println!("pixgate: ready");
        match app.run(shutdown_signal()).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("pixgate: {e:#}");
                ExitCode::FAILURE
            }
        }
    })
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down: finishing in-flight requests");
}

fn error(code: &str, message: impl std::fmt::Display, step: Option<Step>) -> Value {
    json!({ "error": { "code": code, "message": message.to_string(), "step": step } })
}

fn chain_error(e: &ChainError) -> Value {
    error(&e.code(), e, Some(e.step()))
}

fn policy_run(args: &RunArgs) -> Result<Value, Value> {
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
    let sandbox = Sandbox::new(limits, None).map_err(|e| error(e.code(), &e, None))?;
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
    let component = load(&sandbox, step, args.component.as_ref())?;
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

fn load(sandbox: &Sandbox, step: Step, path: Option<&PathBuf>) -> Result<LoadedComponent, Value> {
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
            sandbox.load(step, &bytes)
        }
    };
    loaded.map_err(|e| error(e.code(), &e, Some(step)))
}
