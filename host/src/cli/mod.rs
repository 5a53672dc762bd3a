//! The `pixgate` command line: `serve`, `policy` to write, try and manage the policy
//! components of a running instance, `admin` for the rest of its admin API (merchants, stores,
//! API keys, gateways, providers, webhook endpoints and deliveries, payment intents, operators
//! and the audit trail), `healthcheck`, `migrate`, `backup` and `restore` for operators
//! ([`maintain`]), and `psp-sim`, a PSP simulator for tests and demos.
//!
//! `policy new`, `policy run` and `policy seal` work offline; the other `policy` commands are clients of the
//! admin API ([`admin`]). Exit status: 0 on success, 1 on an error (printed), 2 on a usage
//! error (clap's).

mod admin;
mod canary;
mod catalog;
mod evaluate;
mod finance;
mod maintain;
mod manage;
mod new;
mod operators;
mod providers;
mod run;
mod seal;
mod search;

use std::process::ExitCode;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};

use pixgate_domain::Step;
use run::{RunArgs, policy_run};

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
    Serve(pixgate::config::ServeConfig),
    /// Work with policy components.
    #[command(subcommand)]
    Policy(PolicyCommand),
    /// Run a PSP simulator speaking the API Pix subset pixgate uses, with control routes
    /// under /_sim/ to pay, remove or expire charges and to inject faults.
    PspSim(pixgate_psp_sim::SimArgs),
    /// Manage a running instance through its admin API.
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Exit 0 when the instance at PIXGATE_ADMIN_LISTEN is ready (`/readyz` answers 200):
    /// an image's health check, with no curl in the image.
    Healthcheck(maintain::HealthcheckArgs),
    /// Apply the migrations the database lacks and exit (`--check`: apply nothing, exit 1
    /// when one is missing). For a job that migrates before the instances roll.
    Migrate(maintain::MigrateArgs),
    /// Write a consistent copy of the SQLite database while the server runs, checked with
    /// `PRAGMA integrity_check` (on PostgreSQL: use pg_dump).
    Backup(maintain::BackupArgs),
    /// Fill a new data dir from a backup (and its `FILE.master-key` when present), after
    /// checking it is a sound pixgate database.
    Restore(maintain::RestoreArgs),
}

#[derive(Debug, Subcommand)]
enum AdminCommand {
    /// PSP providers: where LIVE charges are created.
    #[command(subcommand)]
    Providers(providers::ProvidersCommand),
    /// Merchants: the owners of stores, API keys and webhook endpoints.
    #[command(subcommand)]
    Merchants(catalog::MerchantsCommand),
    /// Stores: create, show, change and list them, and set the gateways each may use.
    #[command(subcommand)]
    Stores(catalog::StoresCommand),
    /// API keys: issue, list and revoke a merchant's keys.
    #[command(subcommand)]
    ApiKeys(catalog::ApiKeysCommand),
    /// Gateways: a provider's accounts, with release class and fee terms.
    #[command(subcommand)]
    Gateways(catalog::GatewaysCommand),
    /// Webhook endpoints: register and list a merchant's.
    #[command(subcommand)]
    WebhookEndpoints(catalog::WebhookEndpointsCommand),
    /// Webhook deliveries of every merchant: list them (the failing ones first to read) and
    /// resend one.
    #[command(subcommand)]
    WebhookDeliveries(catalog::WebhookDeliveriesCommand),
    /// Pix Automático mandates of every merchant: list them with the merchant search's
    /// filters, show one.
    #[command(subcommand)]
    Mandates(catalog::MandatesCommand),
    /// PaymentIntents of every merchant: list them with the merchant search's filters.
    #[command(subcommand)]
    PaymentIntents(search::PaymentIntentsCommand),
    /// Operators: the named tokens of the admin API and their roles.
    #[command(subcommand)]
    Operators(operators::OperatorsCommand),
    /// The audit trail: every admin write, who made it and what it changed.
    #[command(subcommand)]
    Audit(operators::AuditCommand),
    /// Sweep a provider's day (what its PSP lists as received, matched against pixgate's
    /// books), follow the run to its end and print what it found. Exit status 1 when the run
    /// fails.
    Reconcile(finance::ReconcileArgs),
    /// The settlement calendar: per date, merchant, provider, gateway and release class, the
    /// payments, gross, fees, refunds and net (a table, --json or --csv).
    Settlements(finance::SettlementsArgs),
}

#[derive(Debug, Subcommand)]
// Parsed once at start-up; the size difference does not matter.
#[allow(clippy::large_enum_variant)]
enum PolicyCommand {
    /// Write a new component project for a step (Rust, JavaScript or Python), ready to build
    /// outside this repository.
    New(new::NewArgs),
    /// Run one step (or the whole chain) on a JSON input and print the JSON output, the fuel
    /// used and the duration. Exit status 0 with a decision, 1 with an error or a refusal.
    Run(RunArgs),
    /// Seal a built component: its WASI file and socket imports, which the JavaScript and
    /// Python engines and Rust's wasm32-wasip2 libc bring whatever the code does, are answered
    /// inside it with no files and no network. An upload that imports them is refused.
    Seal(seal::SealArgs),
    #[command(flatten)]
    Manage(manage::ManageCommand),
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
        Command::Policy(PolicyCommand::New(args)) => report_result(new::new(&args)),
        Command::Policy(PolicyCommand::Seal(args)) => report_result(seal::seal(&args)),
        Command::Policy(PolicyCommand::Manage(command)) => report_result(manage::run(command)),
        Command::Admin(AdminCommand::Providers(command)) => report_result(providers::run(command)),
        Command::Admin(AdminCommand::Merchants(command)) => {
            report_result(catalog::run_merchants(command))
        }
        Command::Admin(AdminCommand::Stores(command)) => {
            report_result(catalog::run_stores(command))
        }
        Command::Admin(AdminCommand::ApiKeys(command)) => {
            report_result(catalog::run_api_keys(command))
        }
        Command::Admin(AdminCommand::Gateways(command)) => {
            report_result(catalog::run_gateways(command))
        }
        Command::Admin(AdminCommand::WebhookEndpoints(command)) => {
            report_result(catalog::run_webhook_endpoints(command))
        }
        Command::Admin(AdminCommand::WebhookDeliveries(command)) => {
            report_result(catalog::run_webhook_deliveries(command))
        }
        Command::Admin(AdminCommand::Mandates(command)) => {
            report_result(catalog::run_mandates(command))
        }
        Command::Admin(AdminCommand::PaymentIntents(command)) => {
            report_result(search::run_intents(command))
        }
        Command::Admin(AdminCommand::Operators(command)) => {
            report_result(operators::run_operators(command))
        }
        Command::Admin(AdminCommand::Audit(command)) => {
            report_result(operators::run_audit(command))
        }
        Command::Admin(AdminCommand::Reconcile(args)) => report_result(finance::reconcile(args)),
        Command::Admin(AdminCommand::Settlements(args)) => {
            report_result(finance::settlements(args))
        }
        Command::PspSim(args) => psp_sim(&args),
        Command::Healthcheck(args) => report_result(maintain::healthcheck(&args)),
        Command::Migrate(args) => report_result(maintain::migrate(&args)),
        Command::Backup(args) => report_result(maintain::backup(&args)),
        Command::Restore(args) => report_result(maintain::restore(&args)),
    }
}

/// `--step policy|provider|economics`.
/// A size as people read it: `900 bytes`, `412.0 KB`, `11.6 MB` (powers of 1,000).
fn size_text(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} bytes"),
        1_000..1_000_000 => format!("{:.1} KB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

fn step_arg() -> impl TypedValueParser<Value = Step> {
    PossibleValuesParser::new(Step::ALL.map(Step::as_str)).map(|name| {
        Step::ALL
            .into_iter()
            .find(|step| step.as_str() == name)
            .expect("the parser admits only the steps' names")
    })
}

/// Exit status 1 with the error on standard error.
fn report_result(result: Result<(), admin::CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pixgate: {e}");
            ExitCode::FAILURE
        }
    }
}

fn serve(config: pixgate::config::ServeConfig) -> ExitCode {
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
    let (traces, exporting) = match pixgate::telemetry::layer(runtime.handle()) {
        Ok(Some((layer, exporting))) => (Some(layer), Some(exporting)),
        Ok(None) => (None, None),
        Err(e) => {
            eprintln!("pixgate: {:#}", anyhow::Error::new(e));
            return ExitCode::FAILURE;
        }
    };
    pixgate::logging::init_with(&config.log, "info", config.log_format, traces);
    let code = runtime.block_on(async move {
        let app = match pixgate::app::App::build(&config).await {
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
                config.data.data_dir.join("admin-token").display()
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
    });
    // The batch still held goes out before the runtime its HTTP calls run on stops.
    if let Some(exporting) = exporting {
        runtime.block_on(async {
            tokio::task::spawn_blocking(|| exporting.shutdown())
                .await
                .ok()
        });
    }
    code
}

fn psp_sim(args: &pixgate_psp_sim::SimArgs) -> ExitCode {
    pixgate::logging::init("warn", "warn", pixgate::logging::LogFormat::Text);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("psp-sim: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let sim = match pixgate_psp_sim::PspSim::bind(args).await {
            Ok(sim) => sim,
            Err(e) => {
                eprintln!("psp-sim: {e}");
                return ExitCode::FAILURE;
            }
        };
        // Machine-readable start-up lines, like `pixgate serve`'s.
        println!("psp-sim: listening on {}", sim.origin);
        println!("psp-sim: token URL {}/oauth/token", sim.origin);
        println!("psp-sim: API base URL {}/api/v2", sim.origin);
        println!("psp-sim: control {}/_sim", sim.origin);
        println!(
            "psp-sim: client credentials {}:{}",
            args.client_id, args.client_secret
        );
        if let Some(dir) = &sim.cert_dir {
            println!("psp-sim: certificates in {}", dir.display());
        }
        println!("psp-sim: ready");
        match sim.run(shutdown_signal()).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("psp-sim: {e}");
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
