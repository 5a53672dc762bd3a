//! `pixgate admin merchants|stores|api-keys|gateways|webhook-endpoints|webhook-deliveries`:
//! the catalog and the webhooks of a running instance through its admin API, so setting up a
//! merchant (the LIVE walk-through of the book) needs no curl.
//!
//! Every command prints a table, or the API's JSON with `--json`. Values go to the API as
//! given: it checks them and answers a bad one with its code, which the command reports (exit
//! status 1). The secrets the API shows once (an API key, a webhook signing secret) are printed
//! once; `--secret-only` prints nothing else, for a script to keep.

use clap::{Args, Subcommand};
use pixgate_report::render::Table;
use reqwest::Method;
use serde_json::{Map, Value, json};

use super::admin::{Admin, AdminArgs, Body, CliError};
use super::manage::{emit, print_json};
use super::search::{self, PageArgs, StoreListArgs};

#[derive(Debug, Subcommand)]
pub(super) enum MerchantsCommand {
    /// Create a merchant: the owner of stores, API keys and webhook endpoints.
    Create(MerchantCreateArgs),
    /// List the merchants.
    List(Output),
}

#[derive(Debug, Args)]
pub(super) struct MerchantCreateArgs {
    /// Unique: letters, digits, '.', '_' and '-'.
    #[arg(long)]
    code: String,
    #[arg(long)]
    name: String,
    #[command(flatten)]
    out: Output,
}

/// How to print, and where the admin API is.
#[derive(Debug, Args)]
pub(super) struct Output {
    /// Print the API's answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Subcommand)]
pub(super) enum StoresCommand {
    /// List the stores, oldest first, with the component version each runs per step.
    List(StoreListArgs),
    /// Create a store of a merchant, in mode SHADOW (resolved and recorded, no real PIX) or
    /// LIVE (real charges at a PSP, once --live-enabled).
    Create(StoreCreateArgs),
    /// Show one store.
    Show(StoreShowArgs),
    /// Change a store: only the options given change.
    Update(StoreUpdateArgs),
    /// Set the gateways a store may use (none: every active gateway).
    Gateways(StoreGatewaysArgs),
}

#[derive(Debug, Args)]
pub(super) struct StoreCreateArgs {
    /// Unique: letters, digits, '.', '_' and '-'.
    #[arg(long)]
    code: String,
    #[arg(long)]
    name: String,
    /// The merchant's code.
    #[arg(long)]
    merchant: String,
    /// SHADOW or LIVE.
    #[arg(long)]
    mode: String,
    /// Switch LIVE execution on (a LIVE store charges nothing until it is).
    #[arg(long)]
    live_enabled: bool,
    /// Seconds until a LIVE charge expires (60 to 1209600; the API's default: 86400).
    #[arg(long)]
    charge_expiry_seconds: Option<i64>,
    /// A policy setting the store's components read, as KEY=VALUE (repeatable).
    #[arg(long = "config", value_name = "KEY=VALUE", value_parser = key_value)]
    config: Vec<(String, String)>,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Args)]
pub(super) struct StoreShowArgs {
    /// The store's code.
    code: String,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Args)]
pub(super) struct StoreUpdateArgs {
    /// The store's code.
    code: String,
    #[arg(long)]
    name: Option<String>,
    /// SHADOW or LIVE.
    #[arg(long)]
    mode: Option<String>,
    /// Switch LIVE execution on or off: true or false.
    #[arg(long)]
    live_enabled: Option<bool>,
    #[arg(long)]
    charge_expiry_seconds: Option<i64>,
    /// Replace the store's settings with these KEY=VALUE pairs (repeatable).
    #[arg(long = "config", value_name = "KEY=VALUE", value_parser = key_value)]
    config: Vec<(String, String)>,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Args)]
pub(super) struct StoreGatewaysArgs {
    /// The store's code.
    code: String,
    /// A gateway alias the store may use (repeatable); none lets it use every active gateway.
    #[arg(long = "gateway", value_name = "ALIAS")]
    gateways: Vec<String>,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Subcommand)]
pub(super) enum ApiKeysCommand {
    /// Issue an API key for some of a merchant's stores. The key is printed once.
    Create(ApiKeyCreateArgs),
    /// List a merchant's API keys (never their secrets).
    List(MerchantArgs),
    /// Revoke an API key, at once.
    Revoke(ApiKeyRevokeArgs),
}

#[derive(Debug, Args)]
pub(super) struct ApiKeyCreateArgs {
    /// The merchant's code.
    #[arg(long)]
    merchant: String,
    /// A store of that merchant the key may use (repeatable, at least one).
    #[arg(long = "store", value_name = "CODE", required = true)]
    stores: Vec<String>,
    /// A scope (repeatable): payments:create, payments:read, payments:refund,
    /// webhooks:manage, mandates:manage. None: payments:create and webhooks:manage.
    #[arg(long = "scope", value_name = "SCOPE")]
    scopes: Vec<String>,
    /// Print only the API key, for a script to keep.
    #[arg(long, conflicts_with = "json")]
    secret_only: bool,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Args)]
pub(super) struct MerchantArgs {
    /// The merchant's code.
    #[arg(long)]
    merchant: String,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Args)]
pub(super) struct ApiKeyRevokeArgs {
    /// The key's id (`keyId`, as listed).
    key_id: String,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Subcommand)]
pub(super) enum GatewaysCommand {
    /// List the gateways: a provider's account with its release class and fee terms.
    List(Output),
    /// Create a gateway of a provider.
    Create(GatewayCreateArgs),
    /// Change a gateway: only the options given change (--mdr-bps and the other fee options
    /// replace the terms as a whole).
    Update(GatewayUpdateArgs),
}

#[derive(Debug, Args)]
pub(super) struct FeeArgs {
    /// MDR in basis points (150 = 1.50 %).
    #[arg(long)]
    mdr_bps: Option<i64>,
    /// Centavos added to every charge's fee.
    #[arg(long, requires = "mdr_bps")]
    fixed_centavos: Option<i64>,
    /// The lowest fee, in centavos.
    #[arg(long, requires = "mdr_bps")]
    min_fee_centavos: Option<i64>,
    /// The highest fee, in centavos (none: no cap).
    #[arg(long, requires = "mdr_bps")]
    max_fee_centavos: Option<i64>,
}

impl FeeArgs {
    /// The `feeTerms` object, when --mdr-bps was given.
    fn terms(&self) -> Option<Value> {
        let mdr = self.mdr_bps?;
        let mut terms = Map::new();
        terms.insert("mdrBps".into(), json!(mdr));
        for (name, value) in [
            ("fixedCentavos", self.fixed_centavos),
            ("minFeeCentavos", self.min_fee_centavos),
            ("maxFeeCentavos", self.max_fee_centavos),
        ] {
            if let Some(v) = value {
                terms.insert(name.into(), json!(v));
            }
        }
        Some(Value::Object(terms))
    }
}

#[derive(Debug, Args)]
pub(super) struct GatewayCreateArgs {
    /// The provider's code.
    #[arg(long)]
    provider: String,
    /// The gateway's alias: unique.
    #[arg(long)]
    alias: String,
    /// When the money is released: D0 (same day) to D365 business days.
    #[arg(long)]
    release_class: String,
    #[command(flatten)]
    fees: FeeArgs,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Args)]
pub(super) struct GatewayUpdateArgs {
    /// The gateway's alias.
    alias: String,
    /// Take the gateway in or out of routing: true or false.
    #[arg(long)]
    active: Option<bool>,
    #[command(flatten)]
    fees: FeeArgs,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Subcommand)]
pub(super) enum WebhookEndpointsCommand {
    /// Register a webhook endpoint for a merchant. The signing secret is printed once: hand it
    /// to the merchant, whose receiver checks every delivery with it.
    Create(EndpointCreateArgs),
    /// List a merchant's webhook endpoints (never their secrets).
    List(MerchantArgs),
}

#[derive(Debug, Args)]
pub(super) struct EndpointCreateArgs {
    /// The merchant's code.
    #[arg(long)]
    merchant: String,
    /// Where deliveries go: an https URL.
    #[arg(long)]
    url: String,
    /// A name people know it by.
    #[arg(long)]
    name: Option<String>,
    /// An event to receive (repeatable): payment.pending, payment.succeeded, payment.failed,
    /// payment.canceled, refund.succeeded, refund.failed, mandate.authorized,
    /// mandate.rejected, mandate.expired, mandate.canceled, payment.attempt_failed. None: the
    /// four payment events.
    #[arg(long = "event", value_name = "TYPE")]
    events: Vec<String>,
    /// Print only the signing secret, for a script to keep.
    #[arg(long, conflicts_with = "json")]
    secret_only: bool,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Subcommand)]
pub(super) enum WebhookDeliveriesCommand {
    /// List every merchant's webhook deliveries, newest first; `--state failing` shows what
    /// merchants are not receiving.
    List(DeliveryListArgs),
    /// Send a delivery again (same id and body, a fresh signature).
    Resend(DeliveryResendArgs),
}

#[derive(Debug, Args)]
pub(super) struct DeliveryListArgs {
    /// failing, pending, delivered or canceled.
    #[arg(long)]
    state: Option<String>,
    /// Only this merchant's endpoints' deliveries (its code).
    #[arg(long)]
    merchant: Option<String>,
    #[command(flatten)]
    page: PageArgs,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Subcommand)]
pub(super) enum MandatesCommand {
    /// List the Pix Automático mandates of every merchant, newest first.
    List(MandateListArgs),
    /// Show one mandate.
    Show(MandateShowArgs),
}

#[derive(Debug, Args)]
pub(super) struct MandateListArgs {
    /// Only this merchant's mandates (its code).
    #[arg(long)]
    merchant: Option<String>,
    /// Only this store's mandates (its code).
    #[arg(long)]
    store: Option<String>,
    /// PENDING_AUTHORIZATION, ACTIVE, REJECTED, EXPIRED, CANCELED, FAILED or SHADOW_ONLY.
    #[arg(long)]
    status: Option<String>,
    /// Only mandates with exactly this reference (the contract).
    #[arg(long)]
    reference: Option<String>,
    #[command(flatten)]
    page: PageArgs,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct MandateShowArgs {
    /// The mandate's id.
    mandate_id: String,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Args)]
pub(super) struct DeliveryResendArgs {
    /// The delivery's id.
    delivery_id: String,
    #[command(flatten)]
    out: Output,
}

/// `KEY=VALUE`.
fn key_value(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .ok_or_else(|| "expected KEY=VALUE".to_owned())
}

/// A JSON object of the options that were given (`None`s left out).
fn object(fields: Vec<(&str, Option<Value>)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .filter_map(|(name, value)| value.map(|v| (name.to_owned(), v)))
            .collect(),
    )
}

fn config(pairs: &[(String, String)]) -> Option<Value> {
    (!pairs.is_empty()).then(|| {
        Value::Object(
            pairs
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect(),
        )
    })
}

/// A column of a table: its header and where its value is in an item (a JSON pointer).
type Column = (&'static str, &'static str);

const MERCHANT_COLUMNS: &[Column] = &[
    ("CODE", "/code"),
    ("NAME", "/name"),
    ("CREATED", "/createdAt"),
];
const STORE_COLUMNS: &[Column] = &[
    ("CODE", "/code"),
    ("MERCHANT", "/merchant"),
    ("MODE", "/mode"),
    ("LIVE", "/liveEnabled"),
    ("GATEWAYS", "/gateways"),
    ("NAME", "/name"),
];
const KEY_COLUMNS: &[Column] = &[
    ("KEY ID", "/keyId"),
    ("PREFIX", "/prefix"),
    ("STORES", "/stores"),
    ("SCOPES", "/scopes"),
    ("REVOKED", "/revokedAt"),
];
const GATEWAY_COLUMNS: &[Column] = &[
    ("ALIAS", "/gatewayAlias"),
    ("PROVIDER", "/providerCode"),
    ("RELEASE", "/releaseClass"),
    ("MDR BPS", "/feeTerms/mdrBps"),
    ("FIXED", "/feeTerms/fixedCentavos"),
    ("ACTIVE", "/active"),
];
const ENDPOINT_COLUMNS: &[Column] = &[
    ("ENDPOINT ID", "/endpointId"),
    ("NAME", "/name"),
    ("STATUS", "/status"),
    ("URL", "/endpointUrl"),
    ("EVENTS", "/events"),
];
const DELIVERY_COLUMNS: &[Column] = &[
    ("DELIVERY ID", "/deliveryId"),
    ("CREATED", "/createdAt"),
    ("MERCHANT", "/merchant"),
    ("ENDPOINT", "/endpointName"),
    ("EVENT", "/event"),
    ("STATUS", "/status"),
    ("ATTEMPTS", "/attemptCount"),
    ("LAST ERROR", "/lastError"),
];

/// A cell: text as is, `yes`/`no`, lists joined with commas, `-` for nothing.
fn cell(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => "-".to_owned(),
        Some(Value::String(s)) if s.is_empty() => "-".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => if *b { "yes" } else { "no" }.to_owned(),
        Some(Value::Array(items)) if items.is_empty() => "-".to_owned(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| cell(Some(i)))
            .collect::<Vec<_>>()
            .join(","),
        Some(other) => other.to_string(),
    }
}

/// `items` as a table of `columns`, or `none` when there are none.
fn table(items: &[Value], columns: &[Column], none: &str) -> String {
    if items.is_empty() {
        return format!("{none}\n");
    }
    let headers: Vec<&str> = columns.iter().map(|(h, _)| *h).collect();
    let mut table = Table::new(&headers);
    for item in items {
        table.row(
            columns
                .iter()
                .map(|(_, pointer)| cell(item.pointer(pointer)))
                .collect(),
        );
    }
    table.render()
}

/// Prints `data` (one item or a list) as JSON or as a table.
fn show(data: &Value, out: &Output, columns: &[Column], none: &str) -> Result<(), CliError> {
    if out.json {
        return print_json(data);
    }
    let items = match data {
        Value::Array(items) => items.clone(),
        one => vec![one.clone()],
    };
    emit(&table(&items, columns, none));
    Ok(())
}

/// Sends one request and prints its answer.
fn call(
    out: &Output,
    method: Method,
    path: &[&str],
    body: Option<Value>,
    columns: &[Column],
    none: &str,
) -> Result<(), CliError> {
    let admin = Admin::connect(&out.admin)?;
    let body = body.map_or(Body::None, Body::Json);
    let (_, data) = admin.send(method, path, body)?;
    show(&data, out, columns, none)
}

pub(super) fn run_merchants(command: MerchantsCommand) -> Result<(), CliError> {
    match command {
        MerchantsCommand::Create(a) => call(
            &a.out,
            Method::POST,
            &["merchants"],
            Some(json!({"code": a.code, "name": a.name})),
            MERCHANT_COLUMNS,
            "",
        ),
        MerchantsCommand::List(out) => call(
            &out,
            Method::GET,
            &["merchants"],
            None,
            MERCHANT_COLUMNS,
            "no merchants",
        ),
    }
}

pub(super) fn run_stores(command: StoresCommand) -> Result<(), CliError> {
    match command {
        StoresCommand::List(args) => search::run_stores(args),
        StoresCommand::Create(a) => {
            let body = object(vec![
                ("code", Some(json!(a.code))),
                ("name", Some(json!(a.name))),
                ("merchant", Some(json!(a.merchant))),
                ("mode", Some(json!(a.mode))),
                ("liveEnabled", Some(json!(a.live_enabled))),
                (
                    "chargeExpirySeconds",
                    a.charge_expiry_seconds.map(|s| json!(s)),
                ),
                ("config", config(&a.config)),
            ]);
            call(
                &a.out,
                Method::POST,
                &["stores"],
                Some(body),
                STORE_COLUMNS,
                "",
            )
        }
        StoresCommand::Show(a) => call(
            &a.out,
            Method::GET,
            &["stores", &a.code],
            None,
            STORE_COLUMNS,
            "",
        ),
        StoresCommand::Update(a) => {
            let body = object(vec![
                ("name", a.name.map(|n| json!(n))),
                ("mode", a.mode.map(|m| json!(m))),
                ("liveEnabled", a.live_enabled.map(|l| json!(l))),
                (
                    "chargeExpirySeconds",
                    a.charge_expiry_seconds.map(|s| json!(s)),
                ),
                ("config", config(&a.config)),
            ]);
            call(
                &a.out,
                Method::PATCH,
                &["stores", &a.code],
                Some(body),
                STORE_COLUMNS,
                "",
            )
        }
        StoresCommand::Gateways(a) => call(
            &a.out,
            Method::PUT,
            &["stores", &a.code, "gateways"],
            Some(json!({"gateways": a.gateways})),
            STORE_COLUMNS,
            "",
        ),
    }
}

pub(super) fn run_api_keys(command: ApiKeysCommand) -> Result<(), CliError> {
    match command {
        ApiKeysCommand::Create(a) => {
            let body = object(vec![
                ("merchant", Some(json!(a.merchant))),
                ("stores", Some(json!(a.stores))),
                ("scopes", (!a.scopes.is_empty()).then(|| json!(a.scopes))),
            ]);
            let admin = Admin::connect(&a.out.admin)?;
            let (_, data) = admin.send(Method::POST, &["api-keys"], Body::Json(body))?;
            secret_once(
                &data,
                "/apiKey",
                "API key",
                a.secret_only,
                &a.out,
                KEY_COLUMNS,
            )
        }
        ApiKeysCommand::List(a) => {
            let admin = Admin::connect(&a.out.admin)?;
            let data = admin.get_query(&["api-keys"], &[("merchant", &a.merchant)])?;
            show(&data, &a.out, KEY_COLUMNS, "no API keys")
        }
        ApiKeysCommand::Revoke(a) => call(
            &a.out,
            Method::POST,
            &["api-keys", &a.key_id, "revoke"],
            None,
            KEY_COLUMNS,
            "",
        ),
    }
}

/// A creation's answer that holds a secret shown this once (at `pointer`): only the secret
/// with `--secret-only`, the JSON with `--json`, else the table and the secret under it.
fn secret_once(
    data: &Value,
    pointer: &str,
    what: &str,
    secret_only: bool,
    out: &Output,
    columns: &[Column],
) -> Result<(), CliError> {
    let secret = data
        .pointer(pointer)
        .and_then(Value::as_str)
        .ok_or_else(|| {
            CliError::local("unexpected_response", format!("the answer holds no {what}"))
        })?;
    if secret_only {
        emit(&format!("{secret}\n"));
        return Ok(());
    }
    if out.json {
        return print_json(data);
    }
    emit(&format!(
        "{}{what} (shown once; keep it now): {secret}\n",
        table(std::slice::from_ref(data), columns, "")
    ));
    Ok(())
}

pub(super) fn run_gateways(command: GatewaysCommand) -> Result<(), CliError> {
    match command {
        GatewaysCommand::List(out) => call(
            &out,
            Method::GET,
            &["gateways"],
            None,
            GATEWAY_COLUMNS,
            "no gateways",
        ),
        GatewaysCommand::Create(a) => {
            let terms = a.fees.terms().ok_or_else(|| {
                CliError::local("missing_option", "a gateway needs its fee terms: --mdr-bps")
            })?;
            let body = json!({
                "providerCode": a.provider, "gatewayAlias": a.alias,
                "releaseClass": a.release_class, "feeTerms": terms,
            });
            call(
                &a.out,
                Method::POST,
                &["gateways"],
                Some(body),
                GATEWAY_COLUMNS,
                "",
            )
        }
        GatewaysCommand::Update(a) => {
            let body = object(vec![
                ("active", a.active.map(|x| json!(x))),
                ("feeTerms", a.fees.terms()),
            ]);
            call(
                &a.out,
                Method::PATCH,
                &["gateways", &a.alias],
                Some(body),
                GATEWAY_COLUMNS,
                "",
            )
        }
    }
}

pub(super) fn run_webhook_endpoints(command: WebhookEndpointsCommand) -> Result<(), CliError> {
    match command {
        WebhookEndpointsCommand::Create(a) => {
            let body = object(vec![
                ("endpointUrl", Some(json!(a.url))),
                ("name", a.name.map(|n| json!(n))),
                ("events", (!a.events.is_empty()).then(|| json!(a.events))),
            ]);
            let admin = Admin::connect(&a.out.admin)?;
            let path = ["merchants", a.merchant.as_str(), "webhook-endpoints"];
            let (_, data) = admin.send(Method::POST, &path, Body::Json(body))?;
            secret_once(
                &data,
                "/signingSecret",
                "signing secret",
                a.secret_only,
                &a.out,
                ENDPOINT_COLUMNS,
            )
        }
        WebhookEndpointsCommand::List(a) => {
            let admin = Admin::connect(&a.out.admin)?;
            let data = admin.get_query(&["merchants", &a.merchant, "webhook-endpoints"], &[])?;
            show(&data, &a.out, ENDPOINT_COLUMNS, "no webhook endpoints")
        }
    }
}

pub(super) fn run_webhook_deliveries(command: WebhookDeliveriesCommand) -> Result<(), CliError> {
    match command {
        WebhookDeliveriesCommand::List(a) => {
            let filters = [("state", &a.state), ("merchant", &a.merchant)];
            let items = search::fetch(&a.admin, "webhook-deliveries", &filters, &a.page, |d| {
                d["deliveryId"].as_str().map(str::to_owned)
            })?;
            if a.page.json {
                return print_json(&Value::Array(items));
            }
            emit(&table(&items, DELIVERY_COLUMNS, "no webhook deliveries"));
            Ok(())
        }
        WebhookDeliveriesCommand::Resend(a) => call(
            &a.out,
            Method::POST,
            &["webhook-deliveries", &a.delivery_id, "resend"],
            None,
            DELIVERY_COLUMNS,
            "",
        ),
    }
}

const MANDATE_COLUMNS: &[Column] = &[
    ("MANDATE ID", "/mandateId"),
    ("STATUS", "/status"),
    ("MERCHANT", "/merchant"),
    ("STORE", "/store/code"),
    ("REFERENCE", "/reference"),
    ("FREQUENCY", "/frequency"),
    ("AMOUNT", "/amount"),
    ("JOURNEY", "/journey"),
    ("PROVIDER", "/provider/code"),
    ("CREATED", "/createdAt"),
];

pub(super) fn run_mandates(command: MandatesCommand) -> Result<(), CliError> {
    match command {
        MandatesCommand::List(a) => {
            let filters = [
                ("merchant", &a.merchant),
                ("store", &a.store),
                ("status", &a.status),
                ("reference", &a.reference),
            ];
            let items = search::fetch(&a.admin, "mandates", &filters, &a.page, |m| {
                m["mandateId"].as_str().map(str::to_owned)
            })?;
            if a.page.json {
                return print_json(&Value::Array(items));
            }
            emit(&table(&items, MANDATE_COLUMNS, "no mandates"));
            Ok(())
        }
        MandatesCommand::Show(a) => call(
            &a.out,
            Method::GET,
            &["mandates", &a.mandate_id],
            None,
            MANDATE_COLUMNS,
            "",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_as_people_write_them() {
        assert_eq!(cell(None), "-");
        assert_eq!(cell(Some(&json!(null))), "-");
        assert_eq!(cell(Some(&json!(true))), "yes");
        assert_eq!(cell(Some(&json!(["a", "b"]))), "a,b");
        assert_eq!(cell(Some(&json!([]))), "-");
        assert_eq!(cell(Some(&json!(150))), "150");
        let text = table(
            &[
                json!({"gatewayAlias": "sandbox-a-d0", "providerCode": "sandbox-a",
                     "releaseClass": "D0", "feeTerms": {"mdrBps": 99, "fixedCentavos": 0},
                     "active": true}),
            ],
            GATEWAY_COLUMNS,
            "none",
        );
        assert!(
            text.contains("sandbox-a-d0") && text.contains("99"),
            "{text}"
        );
        assert_eq!(table(&[], GATEWAY_COLUMNS, "none"), "none\n");
    }

    #[test]
    fn only_the_options_given_go_in_a_change() {
        let body = object(vec![("name", None), ("active", Some(json!(false)))]);
        assert_eq!(body, json!({"active": false}));
        assert_eq!(
            key_value("release=D1"),
            Ok(("release".to_owned(), "D1".to_owned()))
        );
        assert!(key_value("release").is_err());
    }
}
