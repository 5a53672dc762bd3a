//! Stores: create, read and change one (name, mode, live switch, configuration, charge
//! expiry), and set the gateways it may use.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};
use tracing::field::Empty;
use utoipa::ToSchema;
use utoipa::openapi::{ObjectBuilder, Type};

use super::{Catalog, CatalogError, check_code, check_name, code_list_schema, record};
use crate::access::Actor;
use crate::db::audit::{self, Action, Change};
use crate::db::{self, catalog as sql, violated_constraint};
use pixgate_domain::json::{Integer, Invalid};
use pixgate_domain::{StoreMode, valid_code};
use pixgate_pix::time::iso8601;

const CONFIG_MAX_KEYS: usize = 100;
const CONFIG_KEY_MAX_CHARS: usize = 100;
const CONFIG_VALUE_MAX_CHARS: usize = 1000;
const EXPIRY_SECONDS: RangeInclusive<i64> = 60..=1_209_600;
/// A LIVE charge's lifetime when the store does not set one.
const DEFAULT_EXPIRY_SECONDS: i64 = 86_400;

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

/// The keys the bundled components read (the book's `docs/src/policy-guide/bundled.md`, "The
/// store configuration"), each with the form of its value: a pattern the component
/// reads without error. Checked whenever a store's configuration is written, so a value
/// they cannot work with is refused then, naming the key, rather than failing every charge.
/// Other keys are for custom components, which judge them themselves.
pub(crate) const BUNDLED_KEYS: &[(&str, &str, &str)] = &[
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
        "routing.due-date.release-classes",
        concat!("^ *", release_class!(), " *(, *", release_class!(), " *)*$"),
        "release classes `D0` to `D365` separated by commas, for charges with a due date",
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

static BUNDLED_KEY_PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    BUNDLED_KEYS
        .iter()
        .map(|(_, pattern, _)| Regex::new(pattern).expect("BUNDLED_KEYS pattern"))
        .collect()
});

/// No NUL anywhere: every JSON body refuses it (400 `invalid_field`), so both databases accept
/// the same requests.
pub(crate) const NO_NUL_PATTERN: &str = r"^[^\u0000]*$";

/// The `config` map's schema: [`StoreConfig::parse`]'s limits, and the form of each key the
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

// Body of `POST /stores`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateStore {
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

// Body of `PATCH /stores/{code}`.
/// What to change; a field that is absent or null stays as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PatchStore {
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

// Body of `PUT /stores/{code}/gateways`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StoreGateways {
    /// Gateway aliases the store may use; empty lets it use every active gateway.
    #[schema(schema_with = code_list_schema)]
    gateways: Vec<String>,
}

// A store as the admin API shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StoreView {
    #[schema(format = Uuid)]
    pub store_id: String,
    pub code: String,
    pub name: String,
    pub merchant: String,
    pub mode: StoreMode,
    pub live_enabled: bool,
    pub config: BTreeMap<String, String>,
    pub charge_expiry_seconds: i64,
    /// Gateways granted to the store; empty means every active gateway.
    pub gateways: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A store's configuration within [`config_schema`]'s limits, with values the bundled
/// components can read.
struct StoreConfig(BTreeMap<String, String>);

impl StoreConfig {
    fn parse(config: BTreeMap<String, String>) -> Result<Self, CatalogError> {
        let chars = |s: &str| s.chars().count();
        if config.len() > CONFIG_MAX_KEYS
            || config.iter().any(|(k, v)| {
                !(1..=CONFIG_KEY_MAX_CHARS).contains(&chars(k)) || chars(v) > CONFIG_VALUE_MAX_CHARS
            })
        {
            return Err(Invalid::new(
                "invalid_store_config",
                "config",
                "at most 100 keys of 1 to 100 characters, values of at most 1000",
            )
            .into());
        }
        for ((key, _, rule), pattern) in BUNDLED_KEYS.iter().zip(BUNDLED_KEY_PATTERNS.iter()) {
            if let Some(value) = config.get(*key)
                && !pattern.is_match(value)
            {
                return Err(Invalid::new(
                    "invalid_store_config",
                    &format!("config.{key}"),
                    format!("store configuration `{key}` is `{value}`; it must be {rule}"),
                )
                .into());
            }
        }
        // Every charge would be refused, one way or the other: a rule between two keys, which
        // a schema cannot state (422, as for a gateway's fee bounds).
        let amount = |key: &str| config.get(key).and_then(|v| v.parse::<u64>().ok());
        if let (Some(min), Some(max)) = (
            amount("limits.min-amount-centavos"),
            amount("limits.max-amount-centavos"),
        ) && min > max
        {
            return Err(CatalogError::Unprocessable {
                code: "invalid_store_config",
                message: format!(
                    "store configuration `limits.min-amount-centavos` ({min}) is above \
                     `limits.max-amount-centavos` ({max}): no charge could pass"
                ),
                field: "config.limits.min-amount-centavos".into(),
            });
        }
        Ok(Self(config))
    }

    /// The stored form: a JSON object of strings.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_else(|_| "{}".into())
    }
}

/// Seconds until a LIVE charge expires, within [`EXPIRY_SECONDS`].
fn check_expiry(seconds: i64) -> Result<i64, Invalid> {
    if EXPIRY_SECONDS.contains(&seconds) {
        Ok(seconds)
    } else {
        Err(Invalid::new(
            "invalid_charge_expiry",
            "chargeExpirySeconds",
            "`chargeExpirySeconds` must be 60 to 1209600",
        ))
    }
}

/// A store, checked; its merchant is still to be found.
struct NewStore {
    code: String,
    name: String,
    merchant: String,
    mode: StoreMode,
    live_enabled: bool,
    config: StoreConfig,
    charge_expiry_seconds: i64,
}

impl CreateStore {
    fn validate(self) -> Result<NewStore, CatalogError> {
        check_code(&self.code, "code")?;
        let name = check_name(&self.name, "name")?;
        let config = StoreConfig::parse(self.config)?;
        let expiry = check_expiry(
            self.charge_expiry_seconds
                .map_or(DEFAULT_EXPIRY_SECONDS, |s| s.0),
        )?;
        check_code(&self.merchant, "merchant")?;
        Ok(NewStore {
            code: self.code,
            name,
            merchant: self.merchant,
            mode: self.mode,
            live_enabled: self.live_enabled,
            config,
            charge_expiry_seconds: expiry,
        })
    }
}

/// A store's changes, checked.
struct StoreChanges {
    name: Option<String>,
    mode: Option<StoreMode>,
    live_enabled: Option<bool>,
    config: Option<StoreConfig>,
    charge_expiry_seconds: Option<i64>,
}

impl PatchStore {
    fn validate(self) -> Result<StoreChanges, CatalogError> {
        Ok(StoreChanges {
            name: self.name.map(|n| check_name(&n, "name")).transpose()?,
            mode: self.mode,
            live_enabled: self.live_enabled,
            config: self.config.map(StoreConfig::parse).transpose()?,
            charge_expiry_seconds: self
                .charge_expiry_seconds
                .map(|Integer(s)| check_expiry(s))
                .transpose()?,
        })
    }
}

impl StoreChanges {
    fn apply(self, store: &mut sql::Store) {
        if let Some(name) = self.name {
            store.name = name;
        }
        if let Some(mode) = self.mode {
            store.mode = mode;
        }
        if let Some(live) = self.live_enabled {
            store.live_enabled = db::Flag(live);
        }
        if let Some(config) = self.config {
            store.config = config.to_json();
        }
        if let Some(expiry) = self.charge_expiry_seconds {
            store.charge_expiry_seconds = expiry;
        }
    }
}

/// Gateway aliases, checked; each once, in the order given.
fn gateway_aliases(req: StoreGateways) -> Result<Vec<String>, Invalid> {
    for (i, alias) in req.gateways.iter().enumerate() {
        check_code(alias, &format!("gateways[{i}]"))?;
    }
    let mut seen = BTreeSet::new();
    Ok(req
        .gateways
        .into_iter()
        .filter(|alias| seen.insert(alias.clone()))
        .collect())
}

/// The view of a store, read on `conn`: a transaction's when it is the audit's snapshot.
async fn view(
    conn: &mut sqlx::AnyConnection,
    store: sql::Store,
) -> Result<StoreView, CatalogError> {
    let merchant = sql::merchant_code(&mut *conn, &store.merchant_id).await?;
    let gateways = sql::granted_gateway_aliases(&mut *conn, &store.id).await?;
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

impl Catalog {
    /// Creates a store of a merchant; its code is unique.
    #[tracing::instrument(skip_all, fields(store = Empty, merchant = Empty))]
    pub async fn create_store(
        &self,
        actor: &Actor,
        req: CreateStore,
    ) -> Result<StoreView, CatalogError> {
        let new = req.validate()?;
        record("store", &new.code);
        record("merchant", &new.merchant);
        let merchant = sql::merchant_by_code(&self.db.read, &new.merchant)
            .await?
            .ok_or(CatalogError::MerchantNotFound(Some(new.merchant)))?;
        let now = db::now_ms();
        let store = sql::Store {
            id: uuid::Uuid::now_v7().to_string(),
            merchant_id: merchant.id,
            code: new.code,
            name: new.name,
            mode: new.mode,
            live_enabled: db::Flag(new.live_enabled),
            config: new.config.to_json(),
            charge_expiry_seconds: new.charge_expiry_seconds,
            created_at: now,
            updated_at: now,
        };
        let mut tx = self.db.write.begin().await?;
        sql::insert_store(&mut *tx, &store).await.map_err(|e| {
            match violated_constraint(&e).as_deref() {
                Some("stores_code_key") => CatalogError::StoreCodeTaken,
                _ => e.into(),
            }
        })?;
        let view = view(&mut tx, store).await?;
        let change = Change::new(Action::StoreCreate, format!("store/{}", view.code)).after(&view);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        // No cache to clear: the store cache keeps no misses.
        Ok(view)
    }

    /// The store with this code.
    #[tracing::instrument(skip_all, fields(store = Empty))]
    pub async fn get_store(&self, code: &str) -> Result<StoreView, CatalogError> {
        let store = self.find_store(&self.db.write, code).await?;
        view(&mut *self.db.read.acquire().await?, store).await
    }

    /// Changes a store. The store is found before the changes are checked.
    #[tracing::instrument(skip_all, fields(store = Empty))]
    pub async fn patch_store(
        &self,
        actor: &Actor,
        code: &str,
        req: PatchStore,
    ) -> Result<StoreView, CatalogError> {
        let mut tx = self.db.write.begin().await?;
        let mut store = self.find_store(&mut *tx, code).await?;
        let before = view(&mut tx, store.clone()).await?;
        req.validate()?.apply(&mut store);
        store.updated_at = db::now_ms();
        sql::update_store(&mut *tx, &store).await?;
        let after = view(&mut tx, store).await?;
        let change = Change::new(Action::StoreUpdate, format!("store/{}", after.code))
            .before(&before)
            .after(&after);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.stores.clear();
        Ok(after)
    }

    /// Replaces the gateways a store may use, all or nothing: an unknown alias leaves the
    /// grants as they were. The aliases are checked before the store is looked for.
    #[tracing::instrument(skip_all, fields(store = Empty))]
    pub async fn put_store_gateways(
        &self,
        actor: &Actor,
        code: &str,
        req: StoreGateways,
    ) -> Result<StoreView, CatalogError> {
        let aliases = gateway_aliases(req)?;
        let mut tx = self.db.write.begin().await?;
        let store = self.find_store(&mut *tx, code).await?;
        let before = view(&mut tx, store.clone()).await?;
        sql::clear_store_gateways(&mut *tx, &store.id).await?;
        for alias in &aliases {
            let gateway = sql::gateway_by_alias(&mut *tx, alias)
                .await?
                .ok_or_else(|| CatalogError::GatewayNotFound(Some(alias.clone())))?;
            sql::grant_store_gateway(&mut *tx, &store.id, &gateway.id).await?;
        }
        let after = view(&mut tx, store).await?;
        let change = Change::new(Action::StoreGatewaysSet, format!("store/{}", after.code))
            .before(&before)
            .after(&after);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.stores.clear();
        Ok(after)
    }

    /// The store with this code; one that cannot be a code is as unknown as any other.
    async fn find_store<'e>(
        &self,
        ex: impl sqlx::Executor<'e, Database = sqlx::Any>,
        code: &str,
    ) -> Result<sql::Store, CatalogError> {
        if !valid_code(code) {
            return Err(CatalogError::StoreNotFound(None));
        }
        record("store", code);
        sql::store_by_code(ex, code)
            .await?
            .ok_or_else(|| CatalogError::StoreNotFound(Some(code.to_owned())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pixgate_policy_logic as logic;
    use serde_json::json;

    fn check_config(config: &BTreeMap<String, String>) -> Result<(), CatalogError> {
        StoreConfig::parse(config.clone()).map(|_| ())
    }

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
                "routing.due-date.release-classes",
                &["D1,D30", "d2"],
                &["", "D1;D2", "T+30"],
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
                assert!(
                    matches!(&e, CatalogError::Invalid(Invalid { code: "invalid_store_config", field: Some(f), .. })
                        if *f == format!("config.{key}")),
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
            matches!(&e, CatalogError::Unprocessable { code: "invalid_store_config", field, .. }
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
