//! The `pixgate policy` commands that manage a running instance's components through its
//! admin API: upload, list, activate, rollback, status, candidate, shadow, replay and budget
//! (and `canary`, in [`super::canary`]).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use pixgate_domain::Step;
use pixgate_report::ReplayReport;
use pixgate_report::render::{self, ShadowComparison, Table, count};
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::admin::{Admin, AdminArgs, Body, CliError, parse, store_code};
use super::step_arg;

#[derive(Debug, Subcommand)]
pub(super) enum ManageCommand {
    /// Upload a component (.wasm) for a step and print its version (the sha256 of the file).
    Upload(UploadArgs),
    /// List a step's versions, newest first, with the stores that use each.
    List(ListArgs),
    /// Make a version the active one of a store's step.
    Activate(ActivateArgs),
    /// Return a store's step to the version it had before the last activation.
    Rollback(StoreStepArgs),
    /// Show a store's versions per step (active, previous, candidate), its kill switch and
    /// its activation history.
    Status(StatusArgs),
    /// Attach a shadow candidate to a store's step, or remove it with --clear.
    Candidate(CandidateArgs),
    /// Show how a store's shadow candidate compares with the active version so far.
    Shadow(StoreStepArgs),
    /// Re-run a store's recorded charges with other versions and report what would change.
    Replay(ReplayArgs),
    /// Decide one charge with a store's chain (and other versions, if given): the route, its
    /// fee and net, the decision trace. Nothing is stored or sent to a PSP.
    Evaluate(super::evaluate::EvaluateArgs),
    /// Canaries: send a share of a store's new charges through a version, then promote or
    /// end it.
    #[command(subcommand)]
    Canary(super::canary::CanaryCommand),
    /// Set a version's budget (fuel, linear memory) for all its calls, within the maxima the
    /// instance was started with.
    Budget(BudgetArgs),
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("budget").required(true).multiple(true)))]
pub(super) struct BudgetArgs {
    #[arg(long, value_parser = step_arg())]
    step: Step,
    /// The version (sha256).
    version: String,
    /// Fuel per call (1 to the instance's PIXGATE_COMPONENT_MAX_FUEL).
    #[arg(long, group = "budget", value_parser = clap::value_parser!(u64).range(1..))]
    fuel: Option<u64>,
    /// Linear memory per call, bytes (65536 to the instance's
    /// PIXGATE_COMPONENT_MAX_MEMORY_BYTES).
    #[arg(long, group = "budget", value_parser = clap::value_parser!(u64).range(65536..))]
    memory_bytes: Option<u64>,
    /// Print the version as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct UploadArgs {
    #[arg(long, value_parser = step_arg())]
    step: Step,
    /// The component file.
    #[arg(value_name = "FILE.wasm")]
    file: PathBuf,
    /// What people will call the version beside its sha256 (default: the file's name without
    /// `.wasm`, which for a crate's build is the crate's name).
    #[arg(long)]
    label: Option<String>,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct ListArgs {
    #[arg(long, value_parser = step_arg())]
    step: Step,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct ActivateArgs {
    /// The store's code.
    #[arg(long, value_parser = store_code)]
    store: String,
    #[arg(long, value_parser = step_arg())]
    step: Step,
    /// The version (sha256) to activate, or `bundled`.
    version: String,
    /// Print the store's components as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct StoreStepArgs {
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

#[derive(Debug, Args)]
pub(super) struct StatusArgs {
    /// The store's code.
    #[arg(long, value_parser = store_code)]
    store: String,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct CandidateArgs {
    /// The store's code.
    #[arg(long, value_parser = store_code)]
    store: String,
    #[arg(long, value_parser = step_arg())]
    step: Step,
    /// The version (sha256) to run in shadow, or `bundled`.
    #[arg(required_unless_present = "clear")]
    version: Option<String>,
    /// Remove the store's candidate for the step.
    #[arg(long, conflicts_with = "version")]
    clear: bool,
    /// Print the store's components as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct ReplayArgs {
    /// The store's code.
    #[arg(long, value_parser = store_code)]
    store: String,
    // The versions to replay with; a step left out keeps, for each charge, the version it was
    // decided with.
    #[command(flatten)]
    versions: StepVersionArgs,
    /// Start of the window of recorded charges (ISO 8601, e.g. 2026-11-01T00:00:00Z).
    #[arg(long)]
    since: Option<String>,
    /// End of the window of recorded charges (ISO 8601).
    #[arg(long)]
    until: Option<String>,
    /// At most this many charges (the API's default is 10,000).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    limit: Option<u32>,
    /// Print the report as JSON instead of the text tables.
    #[arg(long)]
    json: bool,
    /// Also write the report as a self-contained HTML page to this file.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    #[command(flatten)]
    admin: AdminArgs,
}

pub(super) fn run(command: ManageCommand) -> Result<(), CliError> {
    match command {
        ManageCommand::Upload(args) => {
            let admin = Admin::connect(&args.admin)?;
            let version = upload_file(&admin, args.step, &args.file, args.label.as_deref())?;
            emit(&format!("{version}\n"));
            Ok(())
        }
        ManageCommand::List(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) =
                admin.send(Method::GET, &["components", args.step.as_str()], Body::None)?;
            if args.json {
                return print_json(&data);
            }
            let versions: Vec<ComponentVersion> = parse(data)?;
            emit(&list_text(&versions));
            Ok(())
        }
        ManageCommand::Activate(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) = admin.send(
                Method::PUT,
                &["stores", &args.store, "components", args.step.as_str()],
                Body::Json(json!({ "version": args.version })),
            )?;
            show_store(data, args.json)
        }
        ManageCommand::Rollback(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) = admin.send(
                Method::POST,
                &[
                    "stores",
                    &args.store,
                    "components",
                    args.step.as_str(),
                    "rollback",
                ],
                Body::None,
            )?;
            show_store(data, args.json)
        }
        ManageCommand::Status(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) = admin.send(
                Method::GET,
                &["stores", &args.store, "components"],
                Body::None,
            )?;
            // A running canary sends a share of the charges elsewhere than `active` says: its
            // rates are shown under the steps.
            let canaries: Vec<Step> = Step::ALL
                .into_iter()
                .filter(|s| !data["steps"][s.as_str()]["canary"].is_null())
                .collect();
            let json = args.json;
            show_store(data, json)?;
            if !json && !canaries.is_empty() {
                emit(&super::canary::running_text(
                    &admin,
                    &args.store,
                    &canaries,
                )?);
            }
            Ok(())
        }
        ManageCommand::Candidate(args) => {
            let admin = Admin::connect(&args.admin)?;
            let path = [
                "stores",
                &args.store,
                "components",
                args.step.as_str(),
                "candidate",
            ];
            let (_, data) = match &args.version {
                Some(version) if !args.clear => admin.send(
                    Method::PUT,
                    &path,
                    Body::Json(json!({ "version": version })),
                )?,
                _ => admin.send(Method::DELETE, &path, Body::None)?,
            };
            show_store(data, args.json)
        }
        ManageCommand::Shadow(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) = admin.send(
                Method::GET,
                &[
                    "stores",
                    &args.store,
                    "components",
                    args.step.as_str(),
                    "shadow",
                ],
                Body::None,
            )?;
            if args.json {
                return print_json(&data);
            }
            let comparison: ShadowComparison = parse(data)?;
            emit(&render::shadow_text(&comparison));
            Ok(())
        }
        ManageCommand::Replay(args) => replay(&args),
        ManageCommand::Evaluate(args) => super::evaluate::evaluate(&args),
        ManageCommand::Canary(command) => super::canary::run(command),
        ManageCommand::Budget(args) => {
            let admin = Admin::connect(&args.admin)?;
            let mut body = Map::new();
            if let Some(fuel) = args.fuel {
                body.insert("fuel".into(), json!(fuel));
            }
            if let Some(memory) = args.memory_bytes {
                body.insert("memoryBytes".into(), json!(memory));
            }
            let (_, data) = admin.send(
                Method::PATCH,
                &["components", args.step.as_str(), &args.version],
                Body::Json(Value::Object(body)),
            )?;
            if args.json {
                return print_json(&data);
            }
            let version: ComponentVersion = parse(data)?;
            emit(&list_text(std::slice::from_ref(&version)));
            Ok(())
        }
    }
}

fn replay(args: &ReplayArgs) -> Result<(), CliError> {
    let admin = Admin::connect(&args.admin)?;
    let components = args.versions.components(&admin)?;
    let mut body = json!({ "store": args.store, "components": components });
    for (key, value) in [("since", &args.since), ("until", &args.until)] {
        if let Some(value) = value {
            body[key] = Value::String(value.clone());
        }
    }
    if let Some(limit) = args.limit {
        body["limit"] = limit.into();
    }
    // A person at a terminal sees a bar; a pipe or a file gets the report and nothing else.
    let data = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(0).with_style(
            indicatif::ProgressStyle::with_template(
                "replaying {pos}/{len} charges [{bar:30}] {percent}% {elapsed_precise}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        let data = admin.post_streamed(&["replays"], body, |replayed, total| {
            bar.set_length(total);
            bar.set_position(replayed);
        });
        bar.finish_and_clear();
        data?
    } else {
        admin.send(Method::POST, &["replays"], Body::Json(body))?.1
    };
    if args.json {
        print_json(&data)?;
        if args.html.is_none() {
            return Ok(());
        }
    }
    let report: ReplayReport = parse(data)?;
    if !args.json {
        emit(&render::text(&report));
    }
    if let Some(file) = &args.html {
        std::fs::write(file, render::html(&report)).map_err(|e| {
            CliError::local("report_unwritable", format!("{}: {e}", file.display()))
        })?;
        eprintln!("pixgate: wrote the HTML report to {}", file.display());
    }
    Ok(())
}

/// `--policy`, `--provider`, `--economics`: the version each step runs instead of the
/// store's (`policy replay`, `policy evaluate`).
#[derive(Debug, Args)]
pub(super) struct StepVersionArgs {
    /// Policy step: a version, `bundled`, or a .wasm file (uploaded first).
    #[arg(long, value_name = "VERSION|FILE")]
    policy: Option<String>,
    /// Provider step, as for --policy.
    #[arg(long, value_name = "VERSION|FILE")]
    provider: Option<String>,
    /// Economics step, as for --policy.
    #[arg(long, value_name = "VERSION|FILE")]
    economics: Option<String>,
}

impl StepVersionArgs {
    /// The request's `components`: each step given, as a version (a file is uploaded first).
    pub(super) fn components(&self, admin: &Admin) -> Result<Map<String, Value>, CliError> {
        let mut components = Map::new();
        for (step, given) in [
            (Step::Policy, &self.policy),
            (Step::Provider, &self.provider),
            (Step::Economics, &self.economics),
        ] {
            if let Some(given) = given {
                let version = version_or_upload(admin, step, given)?;
                components.insert(step.as_str().to_owned(), Value::String(version));
            }
        }
        Ok(components)
    }
}

/// A `VERSION|FILE` argument: an existing file is uploaded (harmless: versions are
/// immutable and deduplicated) and its version used; anything else is a version.
pub(super) fn version_or_upload(
    admin: &Admin,
    step: Step,
    given: &str,
) -> Result<String, CliError> {
    let path = Path::new(given);
    if path.is_file() {
        return upload_file(admin, step, path, None);
    }
    // A version never looks like a path: a missing file is a typo, not a version.
    if given.contains(['/', '\\']) || given.ends_with(".wasm") {
        return Err(CliError::local(
            "component_unreadable",
            format!("{given}: no such file"),
        ));
    }
    Ok(given.to_owned())
}

/// Uploads a component file under `label` (default: the file's stem); its version. Says on
/// stderr what it sends before it waits (the instance compiles the component before it answers:
/// seconds for a Rust one, half a minute for a 12 MB JavaScript one on a small machine), and
/// then whether the version is new.
fn upload_file(
    admin: &Admin,
    step: Step,
    path: &Path,
    label: Option<&str>,
) -> Result<String, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::local("component_unreadable", format!("{}: {e}", path.display())))?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty());
    let label = label.map(str::to_owned).or(stem);
    eprintln!(
        "pixgate: uploading {} ({}) as a {} component; the instance checks and compiles it \
         before it answers",
        path.display(),
        super::size_text(bytes.len() as u64),
        step.as_str()
    );
    let (version, new) = admin.upload(step, bytes, label.as_deref())?;
    eprintln!(
        "pixgate: {} {} as {} version {version}{}",
        if new { "uploaded" } else { "already uploaded:" },
        path.display(),
        step.as_str(),
        label.map(|l| format!(" ({l})")).unwrap_or_default()
    );
    Ok(version)
}

pub(super) fn print_json(data: &Value) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(data)
        .map_err(|e| CliError::local("unexpected_response", e.to_string()))?;
    emit(&format!("{text}\n"));
    Ok(())
}

/// A StoreComponents answer, as JSON or as text.
pub(super) fn show_store(data: Value, json: bool) -> Result<(), CliError> {
    if json {
        return print_json(&data);
    }
    let store: StoreComponents = parse(data)?;
    emit(&store_text(&store));
    Ok(())
}

/// One entry of `GET /components/{step}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ComponentVersion {
    version: String,
    size_bytes: u64,
    created_at: Option<String>,
    source: String,
    /// Absent from instances older than labels, and for versions uploaded without one.
    label: Option<String>,
    #[serde(default)]
    in_use: Vec<InUse>,
    /// Absent from instances older than budgets per version.
    budget: Option<VersionBudget>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct VersionBudget {
    fuel: u64,
    memory_bytes: u64,
    custom: bool,
}

#[derive(Debug, Deserialize)]
struct InUse {
    store: String,
    role: String,
}

/// A store's components: `StoreComponents` of the admin API.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoreComponents {
    store: String,
    steps: BTreeMap<String, StepVersions>,
    kill_switch: Option<KillSwitch>,
    #[serde(default)]
    history: Vec<HistoryEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StepVersions {
    active: String,
    previous: Option<String>,
    candidate: Option<String>,
    activated_at: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct KillSwitch {
    enabled: bool,
    error_rate_percent: f64,
    window_seconds: u64,
    min_calls: u64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct HistoryEntry {
    step: String,
    version: String,
    previous_version: Option<String>,
    action: String,
    reason: Option<String>,
    at: String,
}

fn list_text(versions: &[ComponentVersion]) -> String {
    if versions.is_empty() {
        return "no versions\n".to_owned();
    }
    let mut table = Table::new(&[
        "VERSION", "LABEL", "SOURCE", "BYTES", "CREATED", "FUEL", "MEMORY", "IN USE",
    ])
    .numeric(&[3, 5, 6]);
    for v in versions {
        let in_use = v
            .in_use
            .iter()
            .map(|u| format!("{} ({})", u.store, u.role))
            .collect::<Vec<_>>()
            .join(", ");
        table.row(vec![
            v.version.clone(),
            v.label.clone().unwrap_or_else(|| "-".to_owned()),
            v.source.clone(),
            count(v.size_bytes),
            v.created_at.clone().unwrap_or_else(|| "-".to_owned()),
            // A budget an operator set is marked: the others are the defaults.
            v.budget.as_ref().map_or_else(
                || "-".to_owned(),
                |b| format!("{}{}", count(b.fuel), if b.custom { "*" } else { "" }),
            ),
            v.budget.as_ref().map_or_else(
                || "-".to_owned(),
                |b| {
                    format!(
                        "{}{}",
                        count(b.memory_bytes),
                        if b.custom { "*" } else { "" }
                    )
                },
            ),
            if in_use.is_empty() {
                "-".to_owned()
            } else {
                in_use
            },
        ]);
    }
    table.render()
}

/// The first 12 hex digits name a version well enough in a history line.
fn short(version: &str) -> String {
    if version.len() == 64 && version.bytes().all(|b| b.is_ascii_hexdigit()) {
        format!("{}…", &version[..12])
    } else {
        version.to_owned()
    }
}

fn store_text(store: &StoreComponents) -> String {
    let mut out = format!("Store {}\n", store.store);
    let mut steps = Table::plain(3);
    // Chain order; a step the instance adds later still shows, after the known ones.
    let mut names: Vec<&String> = store.steps.keys().collect();
    names.sort_by_key(|n| {
        Step::ALL
            .iter()
            .position(|s| s.as_str() == n.as_str())
            .unwrap_or(usize::MAX)
    });
    for name in names {
        let s = &store.steps[name];
        let since = s
            .activated_at
            .as_ref()
            .map(|at| format!("since {at}"))
            .unwrap_or_default();
        steps.row(vec![
            name.clone(),
            "active".to_owned(),
            format!("{} {since}", s.active),
        ]);
        if let Some(previous) = &s.previous {
            steps.row(vec![String::new(), "previous".to_owned(), previous.clone()]);
        }
        if let Some(candidate) = &s.candidate {
            steps.row(vec![
                String::new(),
                "candidate".to_owned(),
                candidate.clone(),
            ]);
        }
    }
    out.push_str(&steps.render());

    match &store.kill_switch {
        Some(k) if k.enabled => out.push_str(&format!(
            "\nKill switch: on; an activated version whose error rate passes {} % over {} s \
             (from {} calls) is rolled back\n",
            k.error_rate_percent, k.window_seconds, k.min_calls
        )),
        Some(_) => out.push_str("\nKill switch: off\n"),
        None => {}
    }

    out.push_str("\nHistory\n");
    if store.history.is_empty() {
        out.push_str("  none\n");
        return out;
    }
    let mut history = Table::new(&["AT", "STEP", "ACTION", "VERSION", "PREVIOUS", "REASON"]);
    for h in &store.history {
        history.row(vec![
            h.at.clone(),
            h.step.clone(),
            h.action.clone(),
            short(&h.version),
            h.previous_version
                .as_deref()
                .map(short)
                .unwrap_or_else(|| "-".to_owned()),
            h.reason.clone().unwrap_or_default(),
        ]);
    }
    out.push_str(&history.render());
    out
}

/// Writes an answer to stdout. A reader that closed the pipe early (`| head`, `| grep -q`)
/// ends the command quietly with status 0, as for any Unix filter, instead of a panic.
pub(super) fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("pixgate: writing the answer: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_status_reads_the_contract_example_and_shows_each_step() {
        let sha = "ab".repeat(32);
        let store: StoreComponents = serde_json::from_value(json!({
            "store": "demo-store",
            "steps": {
                "policy":    {"active": "bundled", "previous": null, "candidate": null, "activatedAt": null},
                "provider":  {"active": sha, "previous": "bundled", "candidate": "cd".repeat(32),
                              "activatedAt": "2026-11-22T10:00:00.000Z"},
                "economics": {"active": "bundled", "previous": null, "candidate": null, "activatedAt": null}
            },
            "killSwitch": {"enabled": true, "errorRatePercent": 50, "windowSeconds": 60, "minCalls": 20},
            "history": [{"step": "provider", "version": sha, "previousVersion": "bundled",
                         "action": "kill_switch", "reason": "error rate 60 % over 60 s", "at": "2026-11-22T10:05:00.000Z"}]
        }))
        .unwrap();
        let text = store_text(&store);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Store demo-store");
        let words = |i: usize| lines[i].split_whitespace().collect::<Vec<_>>();
        assert_eq!(words(1), ["policy", "active", "bundled"]);
        assert_eq!(
            words(2),
            [
                "provider",
                "active",
                &sha,
                "since",
                "2026-11-22T10:00:00.000Z"
            ]
        );
        assert_eq!(words(3), ["previous", "bundled"]);
        assert_eq!(words(4), ["candidate", &"cd".repeat(32)]);
        assert_eq!(words(5), ["economics", "active", "bundled"]);
        assert!(
            text.contains("passes 50 % over 60 s (from 20 calls)"),
            "{text}"
        );
        assert!(
            text.contains("kill_switch  abababababab…  bundled   error rate 60 % over 60 s"),
            "{text}"
        );
    }

    #[test]
    fn versions_list_with_their_stores() {
        let versions: Vec<ComponentVersion> = serde_json::from_value(json!([
            {"version": "ab".repeat(32), "step": "provider", "sizeBytes": 123456,
             "createdAt": "2026-11-22T10:00:00.000Z", "source": "uploaded", "label": "my_ranking",
             "inUse": [{"store": "s1", "role": "active"}, {"store": "s2", "role": "candidate"}],
             "budget": {"fuel": 500000, "memoryBytes": 16777216, "custom": true}},
            {"version": "bundled", "step": "provider", "sizeBytes": 99000, "createdAt": null,
             "source": "bundled", "inUse": []}
        ]))
        .unwrap();
        let text = list_text(&versions);
        assert!(text.contains(&format!("{}  my_ranking  uploaded", "ab".repeat(32))));
        assert!(text.contains("123,456"), "{text}");
        assert!(text.contains("s1 (active), s2 (candidate)"), "{text}");
        assert!(text.contains("500,000*  16,777,216*"), "{text}");
        assert!(
            text.lines().nth(2).unwrap().starts_with("  bundled"),
            "{text}"
        );
    }

    #[test]
    fn a_missing_file_is_not_taken_for_a_version() {
        let admin = Admin::connect(
            &<AdminArgsOnly as clap::Parser>::parse_from([
                "x",
                "--admin-token",
                "t",
                "--admin-url",
                "http://127.0.0.1:9",
            ])
            .admin,
        )
        .unwrap();
        for given in ["./nope.wasm", "dir/x", "nope.wasm"] {
            let e = version_or_upload(&admin, Step::Provider, given).unwrap_err();
            assert!(
                matches!(
                    e,
                    CliError::Local {
                        code: "component_unreadable",
                        ..
                    }
                ),
                "{e}"
            );
        }
        // No request is made for a version.
        assert_eq!(
            version_or_upload(&admin, Step::Provider, "bundled").unwrap(),
            "bundled"
        );
    }

    #[derive(Debug, clap::Parser)]
    struct AdminArgsOnly {
        #[command(flatten)]
        admin: AdminArgs,
    }
}
