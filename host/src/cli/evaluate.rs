//! `pixgate policy evaluate`: one charge through a store's chain on the running instance
//! (`POST /evaluate`), with other versions if given; nothing is stored or sent to a PSP.

use std::path::PathBuf;

use clap::Args;
use pixgate_report::render::Table;
use reqwest::Method;
use serde_json::{Value, json};

use super::admin::{Admin, AdminArgs, Body, CliError, store_code};
use super::manage::{StepVersionArgs, emit, print_json};

#[derive(Debug, Args)]
pub(super) struct EvaluateArgs {
    /// The store whose chain decides.
    #[arg(long, value_parser = store_code)]
    store: String,
    /// The charge: a merchant charge body as JSON (`amount`, `reference`, `payer`, ...), in a
    /// file or `-` for standard input; a `store` in it is ignored for `--store`.
    #[arg(long, value_name = "FILE")]
    charge: PathBuf,
    // The versions to decide with; a step left out runs the store's active version.
    #[command(flatten)]
    versions: StepVersionArgs,
    /// Decide as the charge with this Idempotency-Key would: the store's running canaries
    /// assign it their arm.
    #[arg(long)]
    idempotency_key: Option<String>,
    /// Print the answer (outcome, routes, the decision trace) as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    admin: AdminArgs,
}

pub(super) fn evaluate(args: &EvaluateArgs) -> Result<(), CliError> {
    let text = if args.charge.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(&args.charge)
    }
    .map_err(|e| {
        CliError::local(
            "charge_unreadable",
            format!("{}: {e}", args.charge.display()),
        )
    })?;
    let mut charge: Value = serde_json::from_str(&text).map_err(|e| {
        CliError::local(
            "invalid_charge",
            format!("{}: not JSON: {e}", args.charge.display()),
        )
    })?;
    let Some(fields) = charge.as_object_mut() else {
        return Err(CliError::local(
            "invalid_charge",
            format!("{}: a charge is a JSON object", args.charge.display()),
        ));
    };
    fields.remove("store");
    let admin = Admin::connect(&args.admin)?;
    let components = args.versions.components(&admin)?;
    let mut body = json!({ "store": args.store, "charge": charge, "components": components });
    if let Some(key) = &args.idempotency_key {
        body["idempotencyKey"] = Value::String(key.clone());
    }
    let (_, data) = admin.send(Method::POST, &["evaluate"], Body::Json(body))?;
    if args.json {
        return print_json(&data);
    }
    emit(&text_of(&args.store, &data));
    Ok(())
}

/// R$ from centavos, as a merchant reads it.
fn reais(centavos: &Value) -> String {
    let c = centavos.as_u64().unwrap_or_default();
    format!("R$ {}.{:02}", c / 100, c % 100)
}

fn text_of(store: &str, data: &Value) -> String {
    let o = &data["outcome"];
    let word = |v: &Value| v.as_str().unwrap_or("?").to_owned();
    let mut out = format!("Evaluation on store {store}\n");
    match o["status"].as_str() {
        Some("resolved") => out.push_str(&format!(
            "resolved by policy {}: gateway {} (provider {}, release {}), fee {}, net {}, \
             settles {}\n",
            word(&o["policy"]),
            word(&o["gatewayAlias"]),
            word(&o["providerCode"]),
            word(&o["releaseClass"]),
            reais(&o["feeCentavos"]),
            reais(&o["netCentavos"]),
            word(&o["settlementDate"]),
        )),
        _ => out.push_str(&format!(
            "{} at the {} step: {}: {}\n",
            word(&o["status"]),
            word(&o["step"]),
            word(&o["code"]),
            word(&o["message"]),
        )),
    }
    let routes = data["routes"].as_array().cloned().unwrap_or_default();
    if !routes.is_empty() {
        out.push_str("\nRoutes, in the order they would be tried\n");
        let mut table = Table::new(&["GATEWAY", "PROVIDER", "RELEASE", "FEE", "NET", "SETTLES"])
            .numeric(&[3, 4]);
        for r in &routes {
            table.row(vec![
                word(&r["gatewayAlias"]),
                word(&r["providerCode"]),
                word(&r["releaseClass"]),
                reais(&r["feeCentavos"]),
                reais(&r["netCentavos"]),
                word(&r["settlementDate"]),
            ]);
        }
        out.push_str(&table.render());
    }
    if let Some(canaries) = data["canaries"].as_array().filter(|c| !c.is_empty()) {
        out.push_str("\nCanaries\n");
        for c in canaries {
            out.push_str(&format!(
                "  {}: the {} arm ({}), bucket {} of {}%\n",
                word(&c["step"]),
                word(&c["arm"]),
                word(&c["version"]),
                c["bucket"],
                c["percent"],
            ));
        }
    }
    out.push_str("\nThe decision trace, each step's input and output: --json\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resolved_evaluation_shows_the_route_and_its_money() {
        let data = json!({
            "outcome": {"status": "resolved", "policy": "lowest-cost",
                "providerCode": "sandbox-b", "gatewayAlias": "sandbox-b-d0", "releaseClass": "D0",
                "feeCentavos": 165, "netCentavos": 12825, "settlementDate": "2026-11-27"},
            "routes": [{"providerCode": "sandbox-b", "gatewayAlias": "sandbox-b-d0",
                "releaseClass": "D0", "feeCentavos": 165, "netCentavos": 12825,
                "settlementDate": "2026-11-27"}],
            "trace": {}
        });
        let text = text_of("demo-store", &data);
        assert!(
            text.contains(
                "gateway sandbox-b-d0 (provider sandbox-b, release D0), fee R$ 1.65, net R$ 128.25"
            ),
            "{text}"
        );
        assert!(text.contains("Routes, in the order"), "{text}");
    }

    #[test]
    fn a_refusal_names_its_step_and_code() {
        let data = json!({
            "outcome": {"status": "refused", "step": "policy", "code": "amount_above_store_limit",
                "message": "over the limit"},
            "routes": [], "trace": {}
        });
        assert!(
            text_of("s", &data)
                .contains("refused at the policy step: amount_above_store_limit: over the limit")
        );
    }
}
