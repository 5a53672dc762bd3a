//! `pixgate admin reconcile` and `pixgate admin settlements`: the ledger sweep of one
//! provider's day, followed to its end (a bar on a terminal), with what it found; and the
//! settlement calendar as a table, JSON or CSV (DESIGN.md section 18).

use std::io::IsTerminal;
use std::time::Duration;

use clap::Args;
use pixgate_report::render::Table;
use serde::Deserialize;
use serde_json::{Value, json};

use super::admin::{Admin, AdminArgs, Body, CliError, parse};
use super::manage::{emit, print_json};

#[derive(Debug, Args)]
pub(super) struct ReconcileArgs {
    /// The provider whose day is swept (its code).
    #[arg(long)]
    provider: String,
    /// The Brasília day, YYYY-MM-DD, up to today (default: yesterday).
    #[arg(long)]
    date: Option<String>,
    /// Start the run and print it without waiting for its end.
    #[arg(long)]
    no_wait: bool,
    /// Print the run (and its findings) as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct SettlementsArgs {
    /// The first settlement date, YYYY-MM-DD.
    #[arg(long)]
    from: String,
    /// The last settlement date (inclusive), at most 366 days after --from.
    #[arg(long)]
    to: String,
    /// Only this merchant's rows (its code).
    #[arg(long)]
    merchant: Option<String>,
    /// Only this provider's rows (its code).
    #[arg(long)]
    provider: Option<String>,
    /// Print the rows as CSV (a header line of the JSON field names first).
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// Print the rows as a JSON array.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

/// A run as far as the text output shows it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    reconciliation_id: String,
    provider: String,
    date: String,
    status: String,
    pages: u64,
    pix: u64,
    counts: std::collections::BTreeMap<String, u64>,
    error: Option<String>,
}

/// A finding as far as the text output shows it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Finding {
    kind: String,
    end_to_end_id: Option<String>,
    txid: Option<String>,
    amount: Option<f64>,
    payment_intent_id: Option<String>,
    detail: String,
}

/// How often a run is read while it sweeps.
const POLL: Duration = Duration::from_millis(500);

/// Starts the sweep, follows it to its end and prints it with its findings (every kind but
/// `matched`). Exit status 1 when the run ends `FAILED`.
pub(super) fn reconcile(args: ReconcileArgs) -> Result<(), CliError> {
    let admin = Admin::connect(&args.admin)?;
    let date = match &args.date {
        Some(date) => date.clone(),
        None => pixgate::db::today_brasilia().add_days(-1).to_string(),
    };
    let (_, started) = admin.send(
        reqwest::Method::POST,
        &["reconciliations"],
        Body::Json(json!({"provider": args.provider, "date": date})),
    )?;
    let id = started["reconciliationId"]
        .as_str()
        .ok_or_else(|| CliError::local("unexpected_response", "no reconciliationId"))?
        .to_owned();
    let run = if args.no_wait {
        started
    } else {
        follow(&admin, &id)?
    };
    let findings = if run["status"] == "RUNNING" {
        Vec::new()
    } else {
        every_finding(&admin, &id)?
    };
    if args.json {
        print_json(&json!({"reconciliation": run, "findings": findings}))?;
    } else {
        let parsed: Run = parse(run.clone())?;
        let listed: Vec<Finding> = parse(Value::Array(findings))?;
        emit(&run_text(&parsed, &listed));
    }
    if run["status"] == "FAILED" {
        return Err(CliError::local(
            "reconciliation_failed",
            format!(
                "the run {id} failed: {}",
                run["error"].as_str().unwrap_or("no error recorded")
            ),
        ));
    }
    Ok(())
}

/// Reads the run until it ends; on a terminal a spinner counts the pages and pix read.
fn follow(admin: &Admin, id: &str) -> Result<Value, CliError> {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner().with_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed_precise}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    });
    let run = loop {
        let (_, run) = admin.send(reqwest::Method::GET, &["reconciliations", id], Body::None)?;
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "sweeping {} {}: {} pages, {} pix",
                run["provider"].as_str().unwrap_or_default(),
                run["date"].as_str().unwrap_or_default(),
                run["pages"],
                run["pix"]
            ));
        }
        if run["status"] != "RUNNING" {
            break run;
        }
        std::thread::sleep(POLL);
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(run)
}

/// Every finding of the run but the matched ones, page after page.
fn every_finding(admin: &Admin, id: &str) -> Result<Vec<Value>, CliError> {
    let mut all: Vec<Value> = Vec::new();
    loop {
        let after = all
            .last()
            .and_then(|f| f["findingId"].as_str())
            .map(str::to_owned);
        let mut query = vec![("limit", "100")];
        if let Some(after) = &after {
            query.push(("after", after));
        }
        let page = admin.get_query(&["reconciliations", id, "findings"], &query)?;
        let Value::Array(items) = page else {
            return Err(CliError::local(
                "unexpected_response",
                "the findings are not a list",
            ));
        };
        let n = items.len();
        all.extend(items);
        if n < 100 {
            return Ok(all);
        }
    }
}

fn run_text(run: &Run, findings: &[Finding]) -> String {
    let mut out = format!(
        "reconciliation {} of {} for {}: {} ({} pages, {} pix)\n",
        run.reconciliation_id, run.provider, run.date, run.status, run.pages, run.pix
    );
    if let Some(error) = &run.error {
        out.push_str(&format!("error: {error}\n"));
    }
    if !run.counts.is_empty() {
        let counts: Vec<String> = run.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        out.push_str(&format!("findings: {}\n", counts.join(", ")));
    }
    if findings.is_empty() {
        if run.status == "DONE" {
            out.push_str("nothing to look at: every pix matched\n");
        }
        return out;
    }
    let mut table =
        Table::new(&["KIND", "AMOUNT", "PAYMENT INTENT", "PIX", "DETAIL"]).numeric(&[1]);
    for f in findings {
        table.row(vec![
            f.kind.clone(),
            f.amount.map(|a| format!("{a:.2}")).unwrap_or_default(),
            f.payment_intent_id.clone().unwrap_or_default(),
            f.end_to_end_id
                .clone()
                .or_else(|| f.txid.clone())
                .unwrap_or_default(),
            f.detail.clone(),
        ]);
    }
    out.push_str(&table.render());
    out
}

/// A settlement row as the table shows it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Settlement {
    settlement_date: String,
    merchant: String,
    provider: String,
    gateway_alias: String,
    release_class: String,
    payments: u64,
    gross: f64,
    fees: f64,
    refunds: f64,
    net: f64,
}

/// The calendar as a table, as JSON or as the API's CSV.
pub(super) fn settlements(args: SettlementsArgs) -> Result<(), CliError> {
    let admin = Admin::connect(&args.admin)?;
    let mut query = vec![("from", args.from.as_str()), ("to", args.to.as_str())];
    if let Some(m) = &args.merchant {
        query.push(("merchant", m));
    }
    if let Some(p) = &args.provider {
        query.push(("provider", p));
    }
    if args.csv {
        emit(&admin.get_text(&["settlements.csv"], &query)?);
        return Ok(());
    }
    let data = admin.get_query(&["settlements"], &query)?;
    if args.json {
        return print_json(&data);
    }
    let rows: Vec<Settlement> = parse(data)?;
    emit(&settlements_text(&rows));
    Ok(())
}

fn settlements_text(rows: &[Settlement]) -> String {
    if rows.is_empty() {
        return "nothing settles in these dates\n".to_owned();
    }
    let mut table = Table::new(&[
        "DATE", "MERCHANT", "PROVIDER", "GATEWAY", "CLASS", "PAYMENTS", "GROSS", "FEES", "REFUNDS",
        "NET",
    ])
    .numeric(&[5, 6, 7, 8, 9]);
    for r in rows {
        table.row(vec![
            r.settlement_date.clone(),
            r.merchant.clone(),
            r.provider.clone(),
            r.gateway_alias.clone(),
            r.release_class.clone(),
            r.payments.to_string(),
            format!("{:.2}", r.gross),
            format!("{:.2}", r.fees),
            format!("{:.2}", r.refunds),
            format!("{:.2}", r.net),
        ]);
    }
    table.render()
}
