//! `pixgate admin stores list` and `pixgate admin payment-intents list`: the admin API's lists
//! (`GET /stores`, `GET /payment-intents`) with their filters as flags, a page at a time or
//! every page (`--all`). Values go to the API as given: it checks them and answers a bad one
//! with its code (`invalid_status`, ...), which the command reports (exit status 1). And
//! `payment-intents find` (by id, txid or endToEndId), `trace`, and `resolve`, the exit for a
//! charge paid with the wrong amount.

use clap::{Args, Subcommand};
use pixgate_report::render::Table;
use serde::Deserialize;
use serde_json::Value;

use super::admin::{Admin, AdminArgs, CliError, parse};
use super::manage::{emit, print_json};

#[derive(Debug, Subcommand)]
pub(super) enum PaymentIntentsCommand {
    /// List the PaymentIntents of every merchant, newest first.
    List(IntentListArgs),
    /// Find payments by any identifier: a paymentIntentId, a txid or an endToEndId.
    Find(FindArgs),
    /// Print a PaymentIntent's decision trace and PSP calls (JSON).
    Trace(TraceArgs),
    /// Resolve a LIVE charge its PSP concluded with a pix of another amount: refund what was
    /// received (the intent ends CANCELED) or accept it (SUCCEEDED).
    Resolve(ResolveArgs),
}

#[derive(Debug, Args)]
pub(super) struct FindArgs {
    /// A paymentIntentId, the txid of a LIVE charge, or the endToEndId of the pix that paid it.
    q: String,
    /// Print the matches as a JSON array.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct TraceArgs {
    /// The PaymentIntent's id.
    id: String,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct ResolveArgs {
    /// The PaymentIntent's id.
    id: String,
    /// `refund` or `accept`.
    #[arg(long)]
    action: String,
    /// Why, for the record (1 to 200 characters).
    #[arg(long)]
    reason: String,
    #[command(flatten)]
    admin: AdminArgs,
}

/// How much of a list to fetch, and how to print it.
#[derive(Debug, Args)]
pub(super) struct PageArgs {
    /// Items per page, 1 to 100 (the API's default: 20).
    #[arg(long)]
    limit: Option<String>,
    /// Start after this item (the last of the previous page, as printed).
    #[arg(long)]
    after: Option<String>,
    /// Follow the pages to the end (each page of --limit items).
    #[arg(long)]
    all: bool,
    /// Print the items as a JSON array.
    #[arg(long)]
    pub(super) json: bool,
}

#[derive(Debug, Args)]
pub(super) struct StoreListArgs {
    /// Only this merchant's stores (its code).
    #[arg(long)]
    merchant: Option<String>,
    /// Only stores in this mode: SHADOW or LIVE.
    #[arg(long)]
    mode: Option<String>,
    #[command(flatten)]
    page: PageArgs,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct IntentListArgs {
    /// Only this merchant's intents (its code).
    #[arg(long)]
    merchant: Option<String>,
    /// Only this store's intents (its code).
    #[arg(long)]
    store: Option<String>,
    /// Only intents in this status: SHADOW_ONLY, PENDING, SUCCEEDED, FAILED or CANCELED.
    #[arg(long)]
    status: Option<String>,
    /// Only intents of this kind: IMMEDIATE, DUE_DATE or RECURRING.
    #[arg(long)]
    kind: Option<String>,
    /// Only intents with exactly this reference.
    #[arg(long)]
    reference: Option<String>,
    /// Only intents created at or after this time (RFC 3339, such as 2026-11-19T00:00:00Z).
    #[arg(long)]
    created_from: Option<String>,
    /// Only intents created before this time (RFC 3339).
    #[arg(long)]
    created_to: Option<String>,
    #[command(flatten)]
    page: PageArgs,
    #[command(flatten)]
    admin: AdminArgs,
}

pub(super) fn run_stores(args: StoreListArgs) -> Result<(), CliError> {
    let filters = [("merchant", &args.merchant), ("mode", &args.mode)];
    let items = fetch(&args.admin, "stores", &filters, &args.page, |store| {
        store["code"].as_str().map(str::to_owned)
    })?;
    if args.page.json {
        return print_json(&Value::Array(items));
    }
    let stores: Vec<StoreItem> = parse(Value::Array(items))?;
    emit(&stores_text(&stores));
    Ok(())
}

pub(super) fn run_intents(command: PaymentIntentsCommand) -> Result<(), CliError> {
    let args = match command {
        PaymentIntentsCommand::List(args) => args,
        PaymentIntentsCommand::Resolve(args) => return resolve(args),
        PaymentIntentsCommand::Find(args) => return find(args),
        PaymentIntentsCommand::Trace(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, trace) = admin.send(
                reqwest::Method::GET,
                &["payment-intents", &args.id, "trace"],
                super::admin::Body::None,
            )?;
            return print_json(&trace);
        }
    };
    let filters = [
        ("merchant", &args.merchant),
        ("store", &args.store),
        ("status", &args.status),
        ("kind", &args.kind),
        ("reference", &args.reference),
        ("createdFrom", &args.created_from),
        ("createdTo", &args.created_to),
    ];
    let items = fetch(&args.admin, "payment-intents", &filters, &args.page, |i| {
        i["paymentIntentId"].as_str().map(str::to_owned)
    })?;
    if args.page.json {
        return print_json(&Value::Array(items));
    }
    let intents: Vec<IntentItem> = parse(Value::Array(items))?;
    emit(&intents_text(&intents));
    Ok(())
}

/// `POST /payment-intents/{id}/resolve`; prints the intent as resolved (JSON).
fn resolve(args: ResolveArgs) -> Result<(), CliError> {
    let admin = Admin::connect(&args.admin)?;
    let (_, intent) = admin.send(
        reqwest::Method::POST,
        &["payment-intents", &args.id, "resolve"],
        super::admin::Body::Json(serde_json::json!({"action": args.action, "reason": args.reason})),
    )?;
    print_json(&intent)
}

/// `GET /lookup?q=`: the matches as the list shows intents, each with what matched.
fn find(args: FindArgs) -> Result<(), CliError> {
    let admin = Admin::connect(&args.admin)?;
    let data = admin.get_query(&["lookup"], &[("q", &args.q)])?;
    if args.json {
        return print_json(&data);
    }
    let intents: Vec<IntentItem> = parse(data.clone())?;
    if intents.is_empty() {
        emit(&format!(
            "no payment has the id, txid or endToEndId {}\n",
            args.q
        ));
        return Ok(());
    }
    emit(&intents_text(&intents));
    Ok(())
}

/// One page of `GET /{path}`, or every page with `--all`. Without `--all`, a full page says
/// on standard error how to get the next.
pub(super) fn fetch(
    admin_args: &AdminArgs,
    path: &str,
    filters: &[(&str, &Option<String>)],
    page: &PageArgs,
    cursor: impl Fn(&Value) -> Option<String>,
) -> Result<Vec<Value>, CliError> {
    let admin = Admin::connect(admin_args)?;
    let mut after = page.after.clone();
    let mut items = Vec::new();
    loop {
        let mut query: Vec<(&str, &str)> = filters
            .iter()
            .filter_map(|(name, value)| value.as_deref().map(|v| (*name, v)))
            .collect();
        if let Some(limit) = &page.limit {
            query.push(("limit", limit));
        }
        if let Some(after) = &after {
            query.push(("after", after));
        }
        let data = admin.get_query(&[path], &query)?;
        let Value::Array(got) = data else {
            return Err(CliError::local(
                "unexpected_response",
                format!("GET /{path} did not answer a list"),
            ));
        };
        let full = got.len() as u64
            >= page
                .limit
                .as_deref()
                .and_then(|l| l.parse().ok())
                .unwrap_or(pixgate::search::DEFAULT_LIMIT as u64);
        let last = got.last().and_then(&cursor);
        items.extend(got);
        match (full, last) {
            (true, Some(last)) if page.all => after = Some(last),
            (true, Some(last)) => {
                eprintln!("pixgate: more after this page: --after {last}");
                return Ok(items);
            }
            _ => return Ok(items),
        }
    }
}

/// A store of the list, as far as the text output shows it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoreItem {
    code: String,
    merchant: String,
    mode: String,
    live_enabled: bool,
    components: Components,
}

#[derive(Debug, Deserialize)]
struct Components {
    policy: String,
    provider: String,
    economics: String,
}

/// An intent of the list, as far as the text output shows it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct IntentItem {
    payment_intent_id: String,
    created_at: String,
    merchant: String,
    store: StoreRef,
    status: String,
    amount: f64,
    reference: String,
}

#[derive(Debug, Deserialize)]
struct StoreRef {
    code: String,
}

/// A version as the tables show it: `bundled`, or the first 12 hex digits.
fn short(version: &str) -> String {
    version.chars().take(12).collect()
}

fn stores_text(stores: &[StoreItem]) -> String {
    if stores.is_empty() {
        return "no stores\n".to_owned();
    }
    let mut table = Table::new(&[
        "CODE",
        "MERCHANT",
        "MODE",
        "LIVE",
        "POLICY",
        "PROVIDER",
        "ECONOMICS",
    ]);
    for s in stores {
        table.row(vec![
            s.code.clone(),
            s.merchant.clone(),
            s.mode.clone(),
            if s.live_enabled { "on" } else { "off" }.to_owned(),
            short(&s.components.policy),
            short(&s.components.provider),
            short(&s.components.economics),
        ]);
    }
    table.render()
}

fn intents_text(intents: &[IntentItem]) -> String {
    if intents.is_empty() {
        return "no payment intents\n".to_owned();
    }
    let mut table = Table::new(&[
        "PAYMENT INTENT",
        "CREATED",
        "MERCHANT",
        "STORE",
        "STATUS",
        "AMOUNT",
        "REFERENCE",
    ])
    .numeric(&[5]);
    for i in intents {
        table.row(vec![
            i.payment_intent_id.clone(),
            i.created_at.clone(),
            i.merchant.clone(),
            i.store.code.clone(),
            i.status.clone(),
            format!("{:.2}", i.amount),
            i.reference.clone(),
        ]);
    }
    table.render()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lists_render_as_text() {
        let stores: Vec<StoreItem> = serde_json::from_value(json!([{
            "storeId": "0193", "code": "acme-web", "name": "ACME", "merchant": "acme",
            "mode": "LIVE", "liveEnabled": true, "config": {}, "chargeExpirySeconds": 86400,
            "gateways": [], "createdAt": "2026-11-23T10:00:00.000Z",
            "updatedAt": "2026-11-23T10:00:00.000Z",
            "components": {"policy": "bundled", "provider": "ab".repeat(32), "economics": "bundled"}
        }]))
        .unwrap();
        let text = stores_text(&stores);
        assert!(
            text.contains("acme-web") && text.contains("abababababab "),
            "{text}"
        );
        assert!(!text.contains(&"ab".repeat(7)), "{text}");
        assert_eq!(stores_text(&[]), "no stores\n");
        let intents: Vec<IntentItem> = serde_json::from_value(json!([{
            "paymentIntentId": "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "status": "PENDING",
            "amount": 129.9, "reference": "order-1", "merchant": "acme",
            "store": {"code": "acme-web", "name": "ACME"}, "createdAt": "2026-11-23T10:00:00.000Z"
        }]))
        .unwrap();
        let text = intents_text(&intents);
        assert!(
            text.contains("129.90") && text.contains("order-1"),
            "{text}"
        );
        assert_eq!(intents_text(&[]), "no payment intents\n");
    }
}
