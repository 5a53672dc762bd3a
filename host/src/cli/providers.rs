//! `pixgate admin providers create|list|show|update`: the PSP providers of a running
//! instance, through its admin API.
//!
//! Secrets never go on the command line, where `ps` and shell history would keep them: the
//! client secret comes from a file or `PIXGATE_PROVIDER_CLIENT_SECRET`, the mTLS key from a
//! file.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use pixgate_report::render::Table;
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::admin::{Admin, AdminArgs, Body, CliError, parse, store_code};
use super::manage::{emit, print_json};

/// The variable the client secret may come from instead of `--client-secret-file`.
const SECRET_ENV: &str = "PIXGATE_PROVIDER_CLIENT_SECRET";

#[derive(Debug, Subcommand)]
pub(super) enum ProvidersCommand {
    /// Register a PSP provider. The client secret comes from --client-secret-file or
    /// PIXGATE_PROVIDER_CLIENT_SECRET. With --account-branch, --account-number and
    /// --account-type (all three) it takes mandates (Pix Automático).
    Create(CreateArgs),
    /// List the providers.
    List(ListArgs),
    /// Show one provider (never its secrets).
    Show(ShowArgs),
    /// Change a provider: only the options given change. --ca-pem, --client-cert and
    /// --client-key replace the TLS material as a whole; --clear-tls removes it. The
    /// --account-* options replace the receiving account; --clear-account removes it.
    Update(UpdateArgs),
}

#[derive(Debug, Args)]
pub(super) struct TlsArgs {
    /// PEM file of the PSP's private CA, trusted beside the public roots.
    #[arg(long, value_name = "FILE")]
    ca_pem: Option<PathBuf>,
    /// PEM file of the mTLS client certificate (needs --client-key).
    #[arg(long, value_name = "FILE", requires = "client_key")]
    client_cert: Option<PathBuf>,
    /// PEM file of the client certificate's private key (needs --client-cert).
    #[arg(long, value_name = "FILE", requires = "client_cert")]
    client_key: Option<PathBuf>,
}

/// The receiving account a provider needs to take mandates (Pix Automático): all three
/// options or none.
#[derive(Debug, Args)]
pub(super) struct AccountArgs {
    /// The receiving account's branch (agência), 1 to 4 digits; with --account-number and
    /// --account-type, the provider takes mandates.
    #[arg(long, value_name = "DIGITS", requires_all = ["account_number", "account_type"])]
    account_branch: Option<String>,
    /// The receiving account's number with its check digit (1 to 20 digits, the check digit
    /// joined or after a -, e.g. 1234567-8).
    #[arg(long, value_name = "NUMBER", requires_all = ["account_branch", "account_type"])]
    account_number: Option<String>,
    /// The receiving account's type.
    #[arg(long, value_name = "TYPE", value_parser = ["CORRENTE", "POUPANCA", "PAGAMENTO"],
          requires_all = ["account_branch", "account_number"])]
    account_type: Option<String>,
}

#[derive(Debug, Args)]
pub(super) struct CreateArgs {
    /// The provider's code: what gateways name as `providerCode`.
    #[arg(long, value_parser = store_code)]
    code: String,
    #[arg(long)]
    name: String,
    /// The API Pix base URL (https; http only on a loopback host).
    #[arg(long)]
    api_base_url: String,
    /// The OAuth2 token endpoint (default: <api base URL>/oauth/token).
    #[arg(long)]
    token_url: Option<String>,
    #[arg(long)]
    client_id: String,
    /// File holding the OAuth2 client secret (one trailing newline is ignored).
    #[arg(long, value_name = "FILE")]
    client_secret_file: Option<PathBuf>,
    /// The receiving pix key at this PSP.
    #[arg(long)]
    pix_key: String,
    #[command(flatten)]
    tls: TlsArgs,
    #[command(flatten)]
    account: AccountArgs,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct ListArgs {
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct ShowArgs {
    /// The provider's code.
    #[arg(value_parser = store_code)]
    code: String,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

#[derive(Debug, Args)]
pub(super) struct UpdateArgs {
    /// The provider's code.
    #[arg(value_parser = store_code)]
    code: String,
    #[arg(long)]
    name: Option<String>,
    #[arg(long)]
    api_base_url: Option<String>,
    #[arg(long)]
    token_url: Option<String>,
    #[arg(long)]
    client_id: Option<String>,
    /// File holding a new client secret; PIXGATE_PROVIDER_CLIENT_SECRET is not read by update,
    /// so a variable left in the shell never rotates a secret by accident.
    #[arg(long, value_name = "FILE")]
    client_secret_file: Option<PathBuf>,
    #[arg(long)]
    pix_key: Option<String>,
    /// Switch the provider on or off.
    #[arg(long)]
    active: Option<bool>,
    #[command(flatten)]
    tls: TlsArgs,
    /// Remove the CA and the client certificate.
    #[arg(long, conflicts_with_all = ["ca_pem", "client_cert", "client_key"])]
    clear_tls: bool,
    #[command(flatten)]
    account: AccountArgs,
    /// Remove the receiving account: the provider takes no new mandates.
    #[arg(long, conflicts_with_all = ["account_branch", "account_number", "account_type"])]
    clear_account: bool,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

pub(super) fn run(command: ProvidersCommand) -> Result<(), CliError> {
    match command {
        ProvidersCommand::Create(args) => {
            let secret = match &args.client_secret_file {
                Some(file) => read_secret(file)?,
                None => std::env::var(SECRET_ENV).map_err(|_| {
                    CliError::local(
                        "missing_client_secret",
                        format!("give --client-secret-file or set {SECRET_ENV}"),
                    )
                })?,
            };
            let mut body = json!({
                "code": args.code,
                "name": args.name,
                "apiBaseUrl": args.api_base_url,
                "clientId": args.client_id,
                "clientSecret": secret,
                "pixKey": args.pix_key,
            });
            if let Some(url) = &args.token_url {
                body["tokenUrl"] = json!(url);
            }
            if let Some(tls) = tls_body(&args.tls)? {
                body["tls"] = tls;
            }
            if let Some(account) = account_body(&args.account) {
                body["account"] = account;
            }
            let admin = Admin::connect(&args.admin)?;
            let (_, data) = admin.send(Method::POST, &["providers"], Body::Json(body))?;
            show(data, args.json)
        }
        ProvidersCommand::List(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) = admin.send(Method::GET, &["providers"], Body::None)?;
            if args.json {
                return print_json(&data);
            }
            let providers: Vec<ProviderView> = parse(data)?;
            emit(&list_text(&providers));
            Ok(())
        }
        ProvidersCommand::Show(args) => {
            let admin = Admin::connect(&args.admin)?;
            let (_, data) = admin.send(Method::GET, &["providers", &args.code], Body::None)?;
            show(data, args.json)
        }
        ProvidersCommand::Update(args) => {
            let mut body = Map::new();
            for (key, value) in [
                ("name", &args.name),
                ("apiBaseUrl", &args.api_base_url),
                ("tokenUrl", &args.token_url),
                ("clientId", &args.client_id),
                ("pixKey", &args.pix_key),
            ] {
                if let Some(value) = value {
                    body.insert(key.to_owned(), json!(value));
                }
            }
            if let Some(file) = &args.client_secret_file {
                body.insert("clientSecret".into(), json!(read_secret(file)?));
            }
            if let Some(active) = args.active {
                body.insert("active".into(), json!(active));
            }
            if args.clear_tls {
                body.insert("tls".into(), json!({}));
            } else if let Some(tls) = tls_body(&args.tls)? {
                body.insert("tls".into(), tls);
            }
            if args.clear_account {
                body.insert("account".into(), json!({}));
            } else if let Some(account) = account_body(&args.account) {
                body.insert("account".into(), account);
            }
            let admin = Admin::connect(&args.admin)?;
            let (_, data) = admin.send(
                Method::PATCH,
                &["providers", &args.code],
                Body::Json(Value::Object(body)),
            )?;
            show(data, args.json)
        }
    }
}

fn read_file(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::local("file_unreadable", format!("{}: {e}", path.display())))
}

/// A secret file's content without the newline an editor or `echo` adds.
fn read_secret(path: &Path) -> Result<String, CliError> {
    let text = read_file(path)?;
    let text = text.strip_suffix('\n').unwrap_or(&text);
    Ok(text.strip_suffix('\r').unwrap_or(text).to_owned())
}

/// The `tls` object of the files given, if any.
fn tls_body(args: &TlsArgs) -> Result<Option<Value>, CliError> {
    let mut tls = Map::new();
    for (key, file) in [
        ("caPem", &args.ca_pem),
        ("clientCertPem", &args.client_cert),
        ("clientKeyPem", &args.client_key),
    ] {
        if let Some(file) = file {
            tls.insert(key.to_owned(), Value::String(read_file(file)?));
        }
    }
    Ok((!tls.is_empty()).then_some(Value::Object(tls)))
}

/// The `account` object of the options given (clap has checked they come together).
fn account_body(args: &AccountArgs) -> Option<Value> {
    match (
        &args.account_branch,
        &args.account_number,
        &args.account_type,
    ) {
        (Some(branch), Some(number), Some(kind)) => {
            Some(json!({"branch": branch, "number": number, "type": kind}))
        }
        _ => None,
    }
}

/// One provider of the admin API's answers, as far as the text output shows it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ProviderView {
    code: String,
    name: String,
    api_base_url: String,
    token_url: String,
    client_id: String,
    pix_key: String,
    active: bool,
    tls: TlsView,
    #[serde(default)]
    account: Option<AccountView>,
    #[serde(default)]
    gateways: Vec<String>,
    created_at: String,
    updated_at: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TlsView {
    #[serde(default)]
    ca_certificates: Vec<CertificateView>,
    client_certificate: Option<CertificateView>,
}

#[derive(Debug, Deserialize)]
struct AccountView {
    branch: String,
    number: String,
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CertificateView {
    subject: String,
    not_after: String,
}

fn show(data: Value, json: bool) -> Result<(), CliError> {
    if json {
        return print_json(&data);
    }
    let provider: ProviderView = parse(data)?;
    emit(&show_text(&provider));
    Ok(())
}

fn or_dash(list: &[String]) -> String {
    if list.is_empty() {
        "-".to_owned()
    } else {
        list.join(", ")
    }
}

fn list_text(providers: &[ProviderView]) -> String {
    if providers.is_empty() {
        return "no providers\n".to_owned();
    }
    let mut table = Table::new(&["CODE", "NAME", "ACTIVE", "API BASE URL", "GATEWAYS"]);
    for p in providers {
        table.row(vec![
            p.code.clone(),
            p.name.clone(),
            if p.active { "yes" } else { "no" }.to_owned(),
            p.api_base_url.clone(),
            or_dash(&p.gateways),
        ]);
    }
    table.render()
}

fn show_text(p: &ProviderView) -> String {
    let cert = |c: &CertificateView| format!("{} (until {})", c.subject, c.not_after);
    let cas: Vec<String> = p.tls.ca_certificates.iter().map(cert).collect();
    let mut table = Table::plain(2);
    for (key, value) in [
        ("code", p.code.clone()),
        ("name", p.name.clone()),
        ("active", if p.active { "yes" } else { "no" }.to_owned()),
        ("API base URL", p.api_base_url.clone()),
        ("token URL", p.token_url.clone()),
        ("client id", p.client_id.clone()),
        ("client secret", "(set; never shown)".to_owned()),
        ("pix key", p.pix_key.clone()),
        (
            "account",
            p.account.as_ref().map_or_else(
                || "- (takes no mandates)".to_owned(),
                |a| format!("{} branch {} number {}", a.kind, a.branch, a.number),
            ),
        ),
        ("private CA", or_dash(&cas)),
        (
            "client certificate",
            p.tls
                .client_certificate
                .as_ref()
                .map_or_else(|| "-".to_owned(), cert),
        ),
        ("gateways", or_dash(&p.gateways)),
        ("created", p.created_at.clone()),
        ("updated", p.updated_at.clone()),
    ] {
        table.row(vec![key.to_owned(), value]);
    }
    table.render()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ProviderView {
        serde_json::from_value(json!({
            "providerId": "0193", "code": "psp-a", "name": "PSP A",
            "apiBaseUrl": "https://pix.psp-a.example/api/v2",
            "tokenUrl": "https://pix.psp-a.example/api/v2/oauth/token",
            "clientId": "pixgate", "hasClientSecret": true, "pixKey": "pix@acme.com.br",
            "tls": {"caCertificates": [{"subject": "CN=PSP CA", "issuer": "CN=PSP CA",
                                        "notAfter": "2030-01-01T00:00:00.000Z"}],
                    "clientCertificate": null, "hasClientKey": false},
            "active": true, "gateways": ["psp-a-d0"],
            "createdAt": "2026-11-23T10:00:00.000Z", "updatedAt": "2026-11-23T10:00:00.000Z"
        }))
        .unwrap()
    }

    #[test]
    fn providers_render_as_text() {
        let p = sample();
        let list = list_text(std::slice::from_ref(&p));
        assert!(
            list.contains("psp-a") && list.contains("psp-a-d0"),
            "{list}"
        );
        let show = show_text(&p);
        assert!(
            show.contains("CN=PSP CA (until 2030-01-01T00:00:00.000Z)"),
            "{show}"
        );
        assert!(show.contains("(set; never shown)"), "{show}");
        assert!(show.contains("- (takes no mandates)"), "{show}");
        assert_eq!(list_text(&[]), "no providers\n");
        let mut p = sample();
        p.account = Some(AccountView {
            branch: "0001".into(),
            number: "12345678".into(),
            kind: "CORRENTE".into(),
        });
        let show = show_text(&p);
        assert!(
            show.contains("CORRENTE branch 0001 number 12345678"),
            "{show}"
        );
    }

    #[test]
    fn secret_files_lose_one_trailing_newline() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("secret");
        std::fs::write(&file, "s3cret\r\n").unwrap();
        assert_eq!(read_secret(&file).unwrap(), "s3cret");
        std::fs::write(&file, "s3cret \n\n").unwrap();
        assert_eq!(read_secret(&file).unwrap(), "s3cret \n");
    }
}
