//! `pixgate admin operators create|list|revoke` and `pixgate admin audit list`: the named
//! tokens of a running instance's admin API and what they changed.
//!
//! `create` prints the new token once, as the API shows it once: the text output puts it on
//! its own last line, so `| tail -n 1` hands it to a secret store.

use clap::{Args, Subcommand};
use pixgate_report::render::Table;
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use super::admin::{Admin, AdminArgs, Body, CliError, parse};
use super::manage::{emit, print_json};

#[derive(Debug, Subcommand)]
pub(super) enum OperatorsCommand {
    /// Issue a named token of a role (viewer, tester, operator or admin); the token is shown
    /// once.
    Create(CreateArgs),
    /// List the operators, oldest first (never their tokens).
    List(ListArgs),
    /// Revoke an operator's token, effective at once.
    Revoke(RevokeArgs),
}

#[derive(Debug, Args)]
pub(super) struct CreateArgs {
    /// Who holds the token.
    #[arg(long)]
    name: String,
    /// viewer, tester, operator or admin.
    #[arg(long, value_parser = ["viewer", "tester", "operator", "admin"])]
    role: String,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct ListArgs {
    /// At most this many operators (1 to 100; the API's default is 20).
    #[arg(long)]
    limit: Option<String>,
    /// Start after this operator id (the last of the previous page).
    #[arg(long)]
    after: Option<String>,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct RevokeArgs {
    /// The operator's id.
    id: String,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Subcommand)]
pub(super) enum AuditCommand {
    /// List the audit trail, newest first, with the API's filters.
    List(AuditListArgs),
}

#[derive(Debug, Args)]
pub(super) struct AuditListArgs {
    /// Only this operator's events: an operator id, or `bootstrap`.
    #[arg(long)]
    operator: Option<String>,
    /// Only this action (`store.update`, `component.activate`, ...).
    #[arg(long)]
    action: Option<String>,
    /// Only this target (`store/demo`, `operator/<id>`, ...).
    #[arg(long)]
    target: Option<String>,
    /// Only events at or after this time (RFC 3339).
    #[arg(long)]
    since: Option<String>,
    /// Only events before this time (RFC 3339).
    #[arg(long)]
    until: Option<String>,
    /// At most this many events (1 to 100; the API's default is 20).
    #[arg(long)]
    limit: Option<String>,
    /// Start after this event id (the last of the previous page).
    #[arg(long)]
    after: Option<String>,
    /// Print the answer as JSON (with each event's before and after).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

/// The query pairs of the options given.
fn query<'a>(options: &[(&'a str, &'a Option<String>)]) -> Vec<(&'a str, &'a str)> {
    options
        .iter()
        .filter_map(|(name, value)| value.as_deref().map(|v| (*name, v)))
        .collect()
}

pub(super) fn run_operators(command: OperatorsCommand) -> Result<(), CliError> {
    match command {
        OperatorsCommand::Create(args) => {
            let admin = Admin::connect(&args.admin)?;
            let body = json!({"name": args.name, "role": args.role});
            let (_, data) = admin.send(Method::POST, &["operators"], Body::Json(body))?;
            if args.json {
                return print_json(&data);
            }
            let operator: OperatorView = parse(data)?;
            emit(&created_text(&operator));
            Ok(())
        }
        OperatorsCommand::List(args) => {
            let admin = Admin::connect(&args.admin)?;
            let pairs = query(&[("limit", &args.limit), ("after", &args.after)]);
            let data = admin.get_query(&["operators"], &pairs)?;
            if args.json {
                return print_json(&data);
            }
            let operators: Vec<OperatorView> = parse(data)?;
            emit(&list_text(&operators));
            Ok(())
        }
        OperatorsCommand::Revoke(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) =
                admin.send(Method::POST, &["operators", &args.id, "revoke"], Body::None)?;
            if args.json {
                return print_json(&data);
            }
            let operator: OperatorView = parse(data)?;
            emit(&list_text(std::slice::from_ref(&operator)));
            Ok(())
        }
    }
}

pub(super) fn run_audit(command: AuditCommand) -> Result<(), CliError> {
    let AuditCommand::List(args) = command;
    let admin = Admin::connect(&args.admin)?;
    let pairs = query(&[
        ("operator", &args.operator),
        ("action", &args.action),
        ("target", &args.target),
        ("since", &args.since),
        ("until", &args.until),
        ("limit", &args.limit),
        ("after", &args.after),
    ]);
    let data = admin.get_query(&["audit-events"], &pairs)?;
    if args.json {
        return print_json(&data);
    }
    let events: Vec<AuditEvent> = parse(data)?;
    emit(&audit_text(&events));
    Ok(())
}

/// An operator of the admin API's answers, as far as the text output shows it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OperatorView {
    id: String,
    name: String,
    role: String,
    created_at: String,
    revoked_at: Option<String>,
    token: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Who {
    id: String,
    name: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AuditEvent {
    event_id: String,
    at: String,
    operator: Who,
    action: String,
    target: String,
    #[serde(default)]
    before: Option<Value>,
    #[serde(default)]
    after: Option<Value>,
}

fn created_text(o: &OperatorView) -> String {
    let mut text = list_text(std::slice::from_ref(o));
    text.push_str("token (shown once; keep it in a secret store):\n");
    text.push_str(o.token.as_deref().unwrap_or("-"));
    text.push('\n');
    text
}

fn list_text(operators: &[OperatorView]) -> String {
    if operators.is_empty() {
        return "no operators\n".to_owned();
    }
    let mut table = Table::new(&["ID", "NAME", "ROLE", "CREATED", "REVOKED"]);
    for o in operators {
        table.row(vec![
            o.id.clone(),
            o.name.clone(),
            o.role.clone(),
            o.created_at.clone(),
            o.revoked_at.clone().unwrap_or_else(|| "-".to_owned()),
        ]);
    }
    table.render()
}

fn audit_text(events: &[AuditEvent]) -> String {
    if events.is_empty() {
        return "no audit events\n".to_owned();
    }
    let mut table = Table::new(&["AT", "OPERATOR", "ACTION", "TARGET", "CHANGED", "EVENT"]);
    for e in events {
        table.row(vec![
            e.at.clone(),
            format!("{} ({})", e.operator.name, e.operator.id),
            e.action.clone(),
            e.target.clone(),
            changed_fields(e.before.as_ref(), e.after.as_ref()),
            e.event_id.clone(),
        ]);
    }
    table.render()
}

/// The top-level fields whose value differs between the snapshots (`+` a creation, `-` a
/// deletion): what a table row has room for; `--json` shows the snapshots whole.
fn changed_fields(before: Option<&Value>, after: Option<&Value>) -> String {
    match (before, after) {
        (None, Some(_)) => "+".to_owned(),
        (Some(_), None) => "-".to_owned(),
        (Some(Value::Object(b)), Some(Value::Object(a))) => {
            let mut keys: Vec<&str> = a
                .keys()
                .chain(b.keys())
                .filter(|k| a.get(*k) != b.get(*k))
                .map(String::as_str)
                .collect();
            keys.sort_unstable();
            keys.dedup();
            if keys.is_empty() {
                "(none)".to_owned()
            } else {
                keys.join(", ")
            }
        }
        _ => "-".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_update_lists_the_fields_it_changed() {
        let before = json!({"mode": "SHADOW", "name": "Demo", "updatedAt": "a"});
        let after = json!({"mode": "LIVE", "name": "Demo", "updatedAt": "b"});
        assert_eq!(
            changed_fields(Some(&before), Some(&after)),
            "mode, updatedAt"
        );
        assert_eq!(changed_fields(None, Some(&after)), "+");
        assert_eq!(changed_fields(Some(&before), None), "-");
        assert_eq!(changed_fields(Some(&before), Some(&before)), "(none)");
    }

    #[test]
    fn the_created_token_is_the_last_line() {
        let o: OperatorView = serde_json::from_value(json!({
            "id": "0193", "name": "Ana", "role": "viewer", "prefix": "abc",
            "createdAt": "2026-11-25T00:00:00.000Z", "revokedAt": null, "token": "pgo_abc_x"
        }))
        .unwrap();
        let text = created_text(&o);
        assert_eq!(text.lines().last(), Some("pgo_abc_x"));
        assert!(text.contains("Ana") && text.contains("viewer"), "{text}");
    }
}
