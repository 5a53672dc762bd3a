//! `/stores`: create, read and change a store; the gateways it may use.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::{ObjectBuilder, Type};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{
    Envelope, code_list_schema, conflict, ok, parse_body, path_param, require_code, require_name,
};
use crate::app::AppState;
use crate::db::{self, catalog, violated_constraint};
use crate::http::extract::{Integer, JsonBody};
use crate::http::{ApiError, ErrorEnvelope};
use pixgate_domain::{StoreMode, valid_code};
use pixgate_pix::time::iso8601;

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_store))
        .routes(routes!(get_store, patch_store))
        .routes(routes!(put_store_gateways))
}

const CONFIG_MAX_KEYS: usize = 100;
const CONFIG_KEY_MAX_CHARS: usize = 100;
const CONFIG_VALUE_MAX_CHARS: usize = 1000;
const EXPIRY_SECONDS: std::ops::RangeInclusive<i64> = 60..=1_209_600;

/// A whole number as the bundled components read one (a `u64`), in at most 19 digits.
const WHOLE: &str = "^[0-9]{1,19}$";
/// Basis points of a whole: 0 to 10000.
const BPS: &str = "^([0-9]{1,4}|10000)$";
/// A release class `D0` to `D365` (`release_days`), in either case.
macro_rules! release_class {
    () => {
        "[Dd]([0-9]{1,2}|[0-2][0-9]{2}|3[0-5][0-9]|36[0-5])"
    };
}

/// The keys the bundled components read (README, "The bundled components and the store
/// configuration they read"), each with the form of its value: a pattern the component
/// reads without error. Checked whenever a store's configuration is written, so a value
/// they cannot work with is refused then, naming the key, rather than failing every charge.
/// Other keys are for custom components, which judge them themselves.
pub(super) const BUNDLED_KEYS: &[(&str, &str, &str)] = &[
    (
        "routing.policy",
        "^(auto|d0-first|lowest-cost)$",
        "`auto`, `d0-first` or `lowest-cost`",
    ),
    (
        "routing.lowest-cost-from-centavos",
        WHOLE,
        "a whole number of centavos",
    ),
    (
        "routing.release-classes",
        concat!("^ *", release_class!(), " *(, *", release_class!(), " *)*$"),
        "release classes `D0` to `D365` separated by commas, such as `D0,D1`",
    ),
    (
        "routing.cross-class-failover",
        "^(true|false)$",
        "`true` or `false`",
    ),
    (
        "routing.max-attempts",
        "^([1-9]|10)$",
        "a whole number from 1 to 10",
    ),
    (
        "routing.min-success-rate-bps",
        BPS,
        "basis points, 0 to 10000",
    ),
    ("routing.min-health-samples", WHOLE, "a whole number"),
    (
        "limits.min-amount-centavos",
        WHOLE,
        "a whole number of centavos",
    ),
    (
        "limits.max-amount-centavos",
        WHOLE,
        "a whole number of centavos",
    ),
    ("economics.max-fee-bps", BPS, "basis points, 0 to 10000"),
];

static BUNDLED_KEY_PATTERNS: std::sync::LazyLock<Vec<regex::Regex>> =
    std::sync::LazyLock::new(|| {
        BUNDLED_KEYS
            .iter()
            .map(|(_, pattern, _)| regex::Regex::new(pattern).expect("BUNDLED_KEYS pattern"))
            .collect()
    });

/// No NUL anywhere: every JSON body refuses it (400 `invalid_field`), so both databases accept
/// the same requests.
pub(super) const NO_NUL_PATTERN: &str = r"^[^\u0000]*$";

/// The `config` map's schema: [`check_config`]'s limits, and the form of each key the
/// bundled components read.
fn config_schema() -> ObjectBuilder {
    let mut schema = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "Configuration the policy components read: at most 100 keys of 1 to 100 \
             characters, string values of at most 1000 characters. The keys the bundled \
             components read must hold values they can read (the patterns below); \
             `limits.min-amount-centavos` above `limits.max-amount-centavos` is refused with \
             422. Other keys are for custom components.",
        ));
    for (key, pattern, rule) in BUNDLED_KEYS {
        schema = schema.property(
            *key,
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(*pattern))
                .description(Some(*rule)),
        );
    }
    schema
        .max_properties(Some(CONFIG_MAX_KEYS))
        .property_names(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(CONFIG_KEY_MAX_CHARS))
                .pattern(Some(NO_NUL_PATTERN)),
        ))
        .additional_properties(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .max_length(Some(CONFIG_VALUE_MAX_CHARS))
                .pattern(Some(NO_NUL_PATTERN)),
        ))
}

/// The same, where `null` means "unchanged".
fn nullable_config_schema() -> ObjectBuilder {
    config_schema().schema_type(
        [Type::Object, Type::Null]
            .into_iter()
            .collect::<utoipa::openapi::schema::SchemaType>(),
    )
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateStore {
    /// Unique; letters, digits, `.`, `_` and `-`.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "acme-web")]
    code: String,
    /// Not all blank, no control characters; stored trimmed.
    #[schema(
        min_length = 1,
        max_length = 200,
        example = "ACME web shop",
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    name: String,
    /// The merchant's code.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "acme")]
    merchant: String,
    mode: StoreMode,
    /// Whether LIVE execution is switched on (default false).
    #[serde(default)]
    live_enabled: bool,
    #[serde(default)]
    #[schema(schema_with = config_schema)]
    config: BTreeMap<String, String>,
    /// Seconds until a LIVE charge expires (null or absent: 86400).
    #[schema(value_type = Option<i64>, minimum = 60, maximum = 1209600)]
    charge_expiry_seconds: Option<Integer>,
}

/// What to change; a field that is absent or null stays as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PatchStore {
    /// Not all blank, no control characters; stored trimmed.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    name: Option<String>,
    mode: Option<StoreMode>,
    live_enabled: Option<bool>,
    #[schema(schema_with = nullable_config_schema)]
    config: Option<BTreeMap<String, String>>,
    #[schema(value_type = Option<i64>, minimum = 60, maximum = 1209600)]
    charge_expiry_seconds: Option<Integer>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct StoreView {
    #[schema(format = Uuid)]
    store_id: String,
    code: String,
    name: String,
    merchant: String,
    mode: StoreMode,
    live_enabled: bool,
    config: BTreeMap<String, String>,
    charge_expiry_seconds: i64,
    /// Gateways granted to the store; empty means every active gateway.
    gateways: Vec<String>,
    created_at: String,
    updated_at: String,
}

async fn store_view(state: &AppState, store: catalog::Store) -> Result<StoreView, ApiError> {
    let merchant = catalog::merchant_code(&state.db.read, &store.merchant_id).await?;
    let gateways = catalog::granted_gateway_aliases(&state.db.read, &store.id).await?;
    Ok(StoreView {
        config: store.config_map(),
        store_id: store.id,
        code: store.code,
        name: store.name,
        merchant,
        mode: store.mode,
        live_enabled: store.live_enabled.0,
        charge_expiry_seconds: store.charge_expiry_seconds,
        gateways,
        created_at: iso8601(store.created_at),
        updated_at: iso8601(store.updated_at),
    })
}

/// What a refused `mode` answers instead of `invalid_field`.
const MODE_CODE: [(&str, &str); 1] = [("mode", "invalid_mode")];

fn check_expiry(seconds: i64) -> Result<(), ApiError> {
    if EXPIRY_SECONDS.contains(&seconds) {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "invalid_charge_expiry",
            "chargeExpirySeconds",
            "`chargeExpirySeconds` must be 60 to 1209600",
        ))
    }
}

fn check_config(config: &BTreeMap<String, String>) -> Result<(), ApiError> {
    let chars = |s: &str| s.chars().count();
    if config.len() > CONFIG_MAX_KEYS
        || config.iter().any(|(k, v)| {
            !(1..=CONFIG_KEY_MAX_CHARS).contains(&chars(k)) || chars(v) > CONFIG_VALUE_MAX_CHARS
        })
    {
        return Err(ApiError::invalid(
            "invalid_store_config",
            "config",
            "at most 100 keys of 1 to 100 characters, values of at most 1000",
        ));
    }
    for ((key, _, rule), pattern) in BUNDLED_KEYS.iter().zip(BUNDLED_KEY_PATTERNS.iter()) {
        if let Some(value) = config.get(*key)
            && !pattern.is_match(value)
        {
            return Err(ApiError::invalid(
                "invalid_store_config",
                &format!("config.{key}"),
                format!("store configuration `{key}` is `{value}`; it must be {rule}"),
            ));
        }
    }
    // Every charge would be refused, one way or the other: a rule between two keys, which a
    // schema cannot state (422, as for a gateway's fee bounds).
    let amount = |key: &str| config.get(key).and_then(|v| v.parse::<u64>().ok());
    if let (Some(min), Some(max)) = (
        amount("limits.min-amount-centavos"),
        amount("limits.max-amount-centavos"),
    ) && min > max
    {
        return Err(ApiError::Unprocessable {
            code: "invalid_store_config",
            message: format!(
                "store configuration `limits.min-amount-centavos` ({min}) is above \
                 `limits.max-amount-centavos` ({max}): no charge could pass"
            ),
            field: "config.limits.min-amount-centavos".into(),
        });
    }
    Ok(())
}

/// Creates a store of a merchant.
#[utoipa::path(post, path = "/stores", tag = "admin", request_body = CreateStore,
    responses(
        (status = 201, description = "Created", body = Envelope<StoreView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_name`, `invalid_mode`, `invalid_store_config` (also a value that a key the bundled components read cannot hold, with `field` `config.<key>`), `invalid_charge_expiry`); `field` names the field", body = ErrorEnvelope),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 404, description = "No merchant with this code (`merchant_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "A store with this code exists (`store_code_taken`)", body = ErrorEnvelope),
        (status = 422, description = "`config` sets `limits.min-amount-centavos` above `limits.max-amount-centavos` (`invalid_store_config`), a rule between two keys", body = ErrorEnvelope),
        (status = 413, description = "Body over 64 KB (`payload_too_large`)", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json (`unsupported_media_type`)", body = ErrorEnvelope),
    ))]
async fn create_store(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateStore = parse_body(body, &MODE_CODE)?;
    require_code(&req.code, "code")?;
    let name = require_name(&req.name, "name")?;
    check_config(&req.config)?;
    let expiry = req.charge_expiry_seconds.map_or(86_400, |s| s.0);
    check_expiry(expiry)?;
    require_code(&req.merchant, "merchant")?;
    let merchant = catalog::merchant_by_code(&state.db.read, &req.merchant)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "merchant_not_found",
                format!("merchant `{}` not found", req.merchant),
            )
        })?;
    let now = db::now_ms();
    let store = catalog::Store {
        id: uuid::Uuid::now_v7().to_string(),
        merchant_id: merchant.id,
        code: req.code,
        name,
        mode: req.mode,
        live_enabled: db::Flag(req.live_enabled),
        config: serde_json::to_string(&req.config).unwrap_or_else(|_| "{}".into()),
        charge_expiry_seconds: expiry,
        created_at: now,
        updated_at: now,
    };
    catalog::insert_store(&state.db.write, &store)
        .await
        .map_err(|e| match violated_constraint(&e).as_deref() {
            Some("stores_code_key") => {
                conflict("store_code_taken", "a store with this code exists")
            }
            _ => e.into(),
        })?;
    Ok(ok(StatusCode::CREATED, store_view(&state, store).await?))
}

fn store_not_found() -> ApiError {
    ApiError::not_found("store_not_found", "store not found")
}

/// The store named by the path.
async fn find_store(
    state: &AppState,
    code: Result<Path<String>, PathRejection>,
) -> Result<catalog::Store, ApiError> {
    let code = path_param(code, store_not_found)?;
    if !valid_code(&code) {
        return Err(store_not_found());
    }
    catalog::store_by_code(&state.db.write, &code)
        .await?
        .ok_or_else(|| ApiError::not_found("store_not_found", format!("store `{code}` not found")))
}

/// Reads a store.
#[utoipa::path(get, path = "/stores/{code}", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Store code")),
    responses(
        (status = 200, description = "The store", body = Envelope<StoreView>),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 404, description = "No store with this code (`store_not_found`)", body = ErrorEnvelope),
    ))]
async fn get_store(
    State(state): State<Arc<AppState>>,
    code: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let store = find_store(&state, code).await?;
    Ok(ok(StatusCode::OK, store_view(&state, store).await?))
}

/// Changes a store's name, mode, live switch, configuration or charge expiry.
#[utoipa::path(patch, path = "/stores/{code}", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Store code")),
    request_body = PatchStore,
    responses(
        (status = 200, description = "The store as changed", body = Envelope<StoreView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `unknown_field`, `invalid_field`, `invalid_name`, `invalid_mode`, `invalid_store_config` (also a value that a key the bundled components read cannot hold, with `field` `config.<key>`), `invalid_charge_expiry`); `field` names the field", body = ErrorEnvelope),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 404, description = "No store with this code (`store_not_found`)", body = ErrorEnvelope),
        (status = 422, description = "`config` sets `limits.min-amount-centavos` above `limits.max-amount-centavos` (`invalid_store_config`), a rule between two keys", body = ErrorEnvelope),
        (status = 413, description = "Body over 64 KB (`payload_too_large`)", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json (`unsupported_media_type`)", body = ErrorEnvelope),
    ))]
async fn patch_store(
    State(state): State<Arc<AppState>>,
    code: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: PatchStore = parse_body(body, &MODE_CODE)?;
    let mut store = find_store(&state, code).await?;
    if let Some(name) = req.name {
        store.name = require_name(&name, "name")?;
    }
    if let Some(mode) = req.mode {
        store.mode = mode;
    }
    if let Some(live) = req.live_enabled {
        store.live_enabled = db::Flag(live);
    }
    if let Some(config) = req.config {
        check_config(&config)?;
        store.config = serde_json::to_string(&config).unwrap_or_else(|_| "{}".into());
    }
    if let Some(Integer(expiry)) = req.charge_expiry_seconds {
        check_expiry(expiry)?;
        store.charge_expiry_seconds = expiry;
    }
    store.updated_at = db::now_ms();
    catalog::update_store(&state.db.write, &store).await?;
    state.stores.clear();
    Ok(ok(StatusCode::OK, store_view(&state, store).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct StoreGateways {
    /// Gateway aliases the store may use; empty lets it use every active gateway.
    #[schema(schema_with = code_list_schema)]
    gateways: Vec<String>,
}

/// Sets the gateways a store may use.
#[utoipa::path(put, path = "/stores/{code}/gateways", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Store code")),
    request_body = StoreGateways,
    responses(
        (status = 200, description = "The store with its grants", body = Envelope<StoreView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`); `field` names the field", body = ErrorEnvelope),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 404, description = "No store with this code (`store_not_found`), or no gateway with one of the aliases (`gateway_not_found`)", body = ErrorEnvelope),
        (status = 413, description = "Body over 64 KB (`payload_too_large`)", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json (`unsupported_media_type`)", body = ErrorEnvelope),
    ))]
async fn put_store_gateways(
    State(state): State<Arc<AppState>>,
    code: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: StoreGateways = parse_body(body, &[])?;
    for (i, alias) in req.gateways.iter().enumerate() {
        require_code(alias, &format!("gateways[{i}]"))?;
    }
    let store = find_store(&state, code).await?;
    let mut tx = state.db.write.begin().await?;
    catalog::clear_store_gateways(&mut *tx, &store.id).await?;
    let mut seen = BTreeSet::new();
    for alias in &req.gateways {
        if !seen.insert(alias) {
            continue;
        }
        let gateway = catalog::gateway_by_alias(&mut *tx, alias)
            .await?
            .ok_or_else(|| {
                ApiError::not_found("gateway_not_found", format!("gateway `{alias}` not found"))
            })?;
        catalog::grant_store_gateway(&mut *tx, &store.id, &gateway.id).await?;
    }
    tx.commit().await?;
    state.stores.clear();
    Ok(ok(StatusCode::OK, store_view(&state, store).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pixgate_policy_logic as logic;
    use serde_json::json;

    /// Runs the bundled steps' logic on a store with `config`; the code of an
    /// `invalid_store_config` refusal, if any.
    fn bundled_refusal(key: &str, value: &str) -> Option<String> {
        let store = json!({"code": "s", "merchant": "m", "mode": "SHADOW",
                           "config": [{"key": key, "value": value}]});
        let charge = json!({"amountCentavos": 10000, "currency": "BRL", "reference": "r",
                            "payerKind": "CPF", "metadataJson": "{}",
                            "createdAtMs": 1_795_000_000_000i64});
        let env = json!({"nowMs": 0, "seed": 0});
        let decision = json!({"policy": "d0-first", "eligibleReleaseClasses": [],
                              "crossReleaseClassFailover": true, "maxAttempts": 3});
        let policy = logic::policy::decide(
            &serde_json::from_value(json!({"charge": charge, "store": store, "env": env})).unwrap(),
        );
        let provider = logic::provider::rank(
            &serde_json::from_value(json!({"charge": charge, "store": store, "policy": decision,
                                           "gateways": [], "env": env}))
            .unwrap(),
        );
        let economics = logic::economics::evaluate(
            &serde_json::from_value(json!({"charge": charge, "store": store, "policy": decision,
                                           "candidates": [], "holidays": [], "env": env}))
            .unwrap(),
        );
        [policy.err(), provider.err(), economics.err()]
            .into_iter()
            .flatten()
            .map(|e| e.code)
            .find(|code| code == "invalid_store_config")
    }

    /// Issue 17: a value the bundled components cannot read is refused when it is written,
    /// and every value the documented patterns allow, they read.
    #[test]
    fn bundled_keys_are_checked_as_the_components_read_them() {
        let samples: &[(&str, &[&str], &[&str])] = &[
            (
                "routing.policy",
                &["auto", "d0-first", "lowest-cost"],
                &["nope", "Auto", " auto", ""],
            ),
            (
                "routing.lowest-cost-from-centavos",
                &["0", "50000", "9999999999999999999"],
                &["-1", "+5", "1.5", "", "99999999999999999999"],
            ),
            (
                "routing.release-classes",
                &["D0", "d1,D30", " D0 , D2 ", "D365", "D007"],
                &["", "D0,", "T+1", "D366", "D", "D0,,D1", "D1000"],
            ),
            (
                "routing.cross-class-failover",
                &["true", "false"],
                &["yes", "True", ""],
            ),
            (
                "routing.max-attempts",
                &["1", "10"],
                &["0", "11", "01", "three"],
            ),
            (
                "routing.min-success-rate-bps",
                &["0", "8000", "10000"],
                &["10001", "-1", "80%"],
            ),
            ("routing.min-health-samples", &["0", "20"], &["many", "-3"]),
            (
                "limits.min-amount-centavos",
                &["0", "100"],
                &["1,00", "R$1"],
            ),
            (
                "limits.max-amount-centavos",
                &["100", "10000000000"],
                &["", " 1"],
            ),
            (
                "economics.max-fee-bps",
                &["0", "250", "10000"],
                &["10001", "2.5"],
            ),
        ];
        assert_eq!(samples.len(), BUNDLED_KEYS.len());
        for (key, accepted, refused) in samples {
            for value in *accepted {
                let config = BTreeMap::from([(key.to_string(), value.to_string())]);
                assert!(check_config(&config).is_ok(), "{key}={value}");
                assert_eq!(bundled_refusal(key, value), None, "{key}={value}");
            }
            for value in *refused {
                let config = BTreeMap::from([(key.to_string(), value.to_string())]);
                let e = check_config(&config).unwrap_err();
                assert_eq!(e.code(), "invalid_store_config", "{key}={value}");
                assert!(
                    matches!(&e, ApiError::Invalid { field: Some(f), .. } if *f == format!("config.{key}")),
                    "{key}={value}: {e:?}"
                );
            }
        }
        // Keys of custom components are theirs to judge.
        let custom = BTreeMap::from([("policy.lowest-cost-from".to_owned(), "soon".to_owned())]);
        assert!(check_config(&custom).is_ok());

        let limits = |min: &str, max: &str| {
            BTreeMap::from([
                ("limits.min-amount-centavos".to_owned(), min.to_owned()),
                ("limits.max-amount-centavos".to_owned(), max.to_owned()),
            ])
        };
        assert!(check_config(&limits("100", "100")).is_ok());
        let e = check_config(&limits("5000", "100")).unwrap_err();
        assert!(
            matches!(&e, ApiError::Unprocessable { code: "invalid_store_config", field, .. }
                if field == "config.limits.min-amount-centavos"),
            "{e:?}"
        );
    }

    /// The document shows each bundled key's pattern.
    #[test]
    fn the_document_states_the_bundled_keys() {
        let schema = serde_json::to_value(config_schema().build()).unwrap();
        for (key, pattern, _) in BUNDLED_KEYS {
            assert_eq!(schema["properties"][*key]["pattern"], *pattern, "{key}");
        }
        assert_eq!(schema["maxProperties"], CONFIG_MAX_KEYS);
    }
}
