//! `pixgate policy canary ...`: start, show, promote and end a store's canary through the
//! admin API (DESIGN.md section 14).

use clap::{Args, Subcommand};
use pixgate_domain::Step;
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::admin::{Admin, AdminArgs, Body, CliError, parse, store_code};
use super::manage::{emit, print_json, show_store, version_or_upload};
use super::step_arg;

#[derive(Debug, Subcommand)]
pub(super) enum CanaryCommand {
    /// Send a share of a store's new charges through a version (a canary), replacing a
    /// running one; it ends by itself when its error or changed rate reaches its threshold.
    Start(StartArgs),
    /// Show the store's newest canary of the step: share, error and changed rates, and why
    /// it ended.
    Status(CanaryArgs),
    /// Activate the running canary's version.
    Promote(CanaryArgs),
    /// End the running canary: every new charge runs the active version again.
    End(CanaryArgs),
}

#[derive(Debug, Args)]
pub(super) struct StartArgs {
    /// The store's code.
    #[arg(long, value_parser = store_code)]
    store: String,
    #[arg(long, value_parser = step_arg())]
    step: Step,
    /// The version (sha256), `bundled`, or a .wasm file (uploaded first).
    #[arg(value_name = "VERSION|FILE")]
    version: String,
    /// The share of new charges, 0.1 to 100.
    #[arg(long)]
    percent: f64,
    /// The window the rates are judged over, in seconds (default 300).
    #[arg(long)]
    window_seconds: Option<u32>,
    /// Calls needed in the window before a rate counts (default 20).
    #[arg(long)]
    min_calls: Option<u32>,
    /// End when this share of the window's calls failed, 1 to 100 (default 5).
    #[arg(long)]
    max_error_rate_percent: Option<u32>,
    /// End when this share of the window's calls decided otherwise than the active version.
    #[arg(long)]
    max_changed_rate_percent: Option<u32>,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct CanaryArgs {
    /// The store's code.
    #[arg(long, value_parser = store_code)]
    store: String,
    #[arg(long, value_parser = step_arg())]
    step: Step,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

pub(super) fn run(command: CanaryCommand) -> Result<(), CliError> {
    match command {
        CanaryCommand::Start(args) => {
            let admin = Admin::connect(&args.admin)?;
            let version = version_or_upload(&admin, args.step, &args.version)?;
            let mut body = Map::new();
            body.insert("version".into(), json!(version));
            body.insert("percent".into(), json!(args.percent));
            for (field, value) in [
                ("windowSeconds", args.window_seconds),
                ("minCalls", args.min_calls),
                ("maxErrorRatePercent", args.max_error_rate_percent),
                ("maxChangedRatePercent", args.max_changed_rate_percent),
            ] {
                if let Some(v) = value {
                    body.insert(field.into(), json!(v));
                }
            }
            let (_, data) = admin.send(
                Method::PUT,
                &path(&args.store, args.step),
                Body::Json(Value::Object(body)),
            )?;
            show(data, args.json)
        }
        CanaryCommand::Status(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) = admin.send(Method::GET, &path(&args.store, args.step), Body::None)?;
            show(data, args.json)
        }
        CanaryCommand::End(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) =
                admin.send(Method::DELETE, &path(&args.store, args.step), Body::None)?;
            show(data, args.json)
        }
        CanaryCommand::Promote(args) => {
            let admin = Admin::connect(&args.admin)?;
            let [a, b, c, d, e] = path(&args.store, args.step);
            let (_, data) = admin.send(Method::POST, &[a, b, c, d, e, "promote"], Body::None)?;
            show_store(data, args.json)
        }
    }
}

/// The running canaries of the store's `steps` (those its status shows with one) as text,
/// one block each with its rates: `policy status` shows them under the store's steps.
pub(super) fn running_text(admin: &Admin, store: &str, steps: &[Step]) -> Result<String, CliError> {
    let mut out = String::new();
    for &step in steps {
        let data = match admin.send(Method::GET, &path(store, step), Body::None) {
            Ok((_, data)) => data,
            // Ended between the two reads.
            Err(CliError::Api {
                status: 404, code, ..
            }) if code == "canary_not_found" => continue,
            Err(e) => return Err(e),
        };
        let canary: Canary = parse(data)?;
        if canary.running {
            out.push('\n');
            out.push_str(&text(&canary));
        }
    }
    Ok(out)
}

fn path(store: &str, step: Step) -> [&str; 5] {
    ["stores", store, "components", step.as_str(), "canary"]
}

/// The admin API's canary view, as far as the text shows it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Canary {
    store: String,
    step: String,
    version: String,
    active: String,
    percent: f64,
    window_seconds: u32,
    min_calls: u32,
    max_error_rate_percent: u32,
    max_changed_rate_percent: Option<u32>,
    running: bool,
    started_at: String,
    ended_at: Option<String>,
    ended_by: Option<String>,
    ended_reason: Option<String>,
    share_percent: f64,
    total: Counts,
    window: Counts,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Counts {
    calls: u64,
    errors: u64,
    changed: u64,
    error_rate_percent: f64,
    changed_rate_percent: f64,
}

fn show(data: Value, json: bool) -> Result<(), CliError> {
    if json {
        return print_json(&data);
    }
    let canary: Canary = parse(data)?;
    emit(&text(&canary));
    Ok(())
}

fn text(c: &Canary) -> String {
    let state = match (&c.ended_at, &c.ended_by) {
        (None, _) => "running".to_owned(),
        (Some(at), by) => format!("ended {at} ({})", by.as_deref().unwrap_or("?")),
    };
    let changed_limit = c
        .max_changed_rate_percent
        .map_or("no limit".to_owned(), |v| format!("{v}%"));
    let counts = |label: &str, n: &Counts| {
        format!(
            "{label:<8} {} calls, {} errors ({}%), {} changed ({}%)\n",
            n.calls, n.errors, n.error_rate_percent, n.changed, n.changed_rate_percent
        )
    };
    let mut out = format!(
        "canary of {} on store {}: {state}\n\
         version  {}\n\
         active   {}\n\
         share    {}% asked, {}% of charges so far (since {})\n\
         ends at  {}% errors or {changed_limit} changed, over {} s with at least {} calls\n",
        c.step,
        c.store,
        c.version,
        c.active,
        c.percent,
        c.share_percent,
        c.started_at,
        c.max_error_rate_percent,
        c.window_seconds,
        c.min_calls,
    );
    out.push_str(&counts("total", &c.total));
    out.push_str(&counts("window", &c.window));
    if let Some(reason) = &c.ended_reason {
        out.push_str(&format!("reason   {reason}\n"));
    }
    if c.running {
        out.push_str(&format!(
            "next     pixgate policy canary promote --store {} --step {}   (or `end`)\n",
            c.store, c.step
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ended_canary_shows_why() {
        let c: Canary = serde_json::from_value(json!({
            "store": "demo-store", "step": "provider", "version": "ab".repeat(32),
            "active": "bundled", "percent": 5.0, "windowSeconds": 300, "minCalls": 20,
            "maxErrorRatePercent": 5, "maxChangedRatePercent": null, "running": false,
            "startedAt": "2026-11-25T10:00:00Z", "endedAt": "2026-11-25T10:01:00Z",
            "endedBy": "error_rate", "endedReason": "20 of 20 calls failed",
            "sharePercent": 4.8,
            "total": {"calls": 20, "errors": 20, "changed": 0, "errorRatePercent": 100.0,
                      "changedRatePercent": 0.0},
            "window": {"calls": 20, "errors": 20, "changed": 0, "errorRatePercent": 100.0,
                       "changedRatePercent": 0.0}
        }))
        .unwrap();
        let shown = text(&c);
        assert!(
            shown.contains("ended 2026-11-25T10:01:00Z (error_rate)"),
            "{shown}"
        );
        assert!(shown.contains("reason   20 of 20 calls failed"), "{shown}");
        assert!(shown.contains("5% asked, 4.8% of charges"), "{shown}");
        assert!(!shown.contains("promote"), "{shown}");
    }
}
