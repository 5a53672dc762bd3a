//! The admin catalog: merchants, their stores (mode, configuration, charge expiry and the
//! gateways they may use), the gateway catalog with its fee terms, and merchants' API keys.
//!
//! One handle, [`Catalog`], serves all four: they are a few small tables written by the same
//! operator, and their writes invalidate the same two caches (the charge path's
//! [`StoreCache`] and authentication's [`KeyCache`]), so a handle per resource would only
//! repeat that wiring. Each resource has its module with the request bodies as the admin API
//! receives them (the serde types its OpenAPI document is generated from), the rules that
//! turn them into validated values, the views the API answers with, and its entry points.
//! (Those types are described in `//` comments: a type's `///` doc would become its schema's
//! description in the OpenAPI document.)
//!
//! Rules are checked in the order the admin API has always checked them: a PATCH names an
//! unknown store (404) before a bad field is looked at (400), while `PUT .../gateways` checks
//! its aliases before the store. A write of several rows (a store's grants, a key with its
//! stores) is one transaction, owned here.

mod api_keys;
mod gateways;
mod merchants;
mod stores;
#[cfg(test)]
mod tests;

use std::sync::{Arc, LazyLock};

use regex::Regex;
use utoipa::openapi::{ArrayBuilder, ObjectBuilder, Type};

use crate::crypto::CryptoError;
use crate::db::key_cache::KeyCache;
use crate::db::store_cache::StoreCache;
use crate::db::{Db, DbError};
use pixgate_domain::json::Invalid;
use pixgate_domain::{NAME_PATTERN, valid_code};

pub use api_keys::{ApiKeyView, CreateApiKey};
#[cfg(test)]
pub(crate) use gateways::RELEASE_CLASS_PATTERN;
pub use gateways::{CreateGateway, GatewayView, PatchGateway};
pub use merchants::{CreateMerchant, MerchantView};
#[cfg(test)]
pub(crate) use stores::{BUNDLED_KEYS, NO_NUL_PATTERN};
pub use stores::{CreateStore, PatchStore, StoreGateways, StoreView};

/// What the admin catalog refuses, and why.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// The request breaks a rule its schema states.
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// Schema-valid, but refused by a rule between two fields, which a schema cannot state.
    #[error("{message}")]
    Unprocessable {
        code: &'static str,
        field: String,
        message: String,
    },
    /// No merchant with this code; `None` when the code was not even one.
    #[error("{}", unknown("merchant", .0))]
    MerchantNotFound(Option<String>),
    #[error("{}", unknown("store", .0))]
    StoreNotFound(Option<String>),
    /// A key's store that is not its merchant's (or does not exist).
    #[error("merchant has no store `{0}`")]
    NotTheMerchantsStore(String),
    #[error("{}", unknown("gateway", .0))]
    GatewayNotFound(Option<String>),
    #[error("API key not found")]
    ApiKeyNotFound,
    #[error("a merchant with this code exists")]
    MerchantCodeTaken,
    #[error("a store with this code exists")]
    StoreCodeTaken,
    #[error("a gateway with this alias exists")]
    GatewayAliasTaken,
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Crypto(#[from] CryptoError),
}

impl From<sqlx::Error> for CatalogError {
    fn from(e: sqlx::Error) -> Self {
        Self::Db(DbError::Sqlx(e))
    }
}

fn unknown(what: &str, name: &Option<String>) -> String {
    match name {
        Some(name) => format!("{what} `{name}` not found"),
        None => format!("{what} not found"),
    }
}

/// Merchants, stores, gateways and API keys as the admin API manages them.
#[derive(Debug, Clone)]
pub struct Catalog {
    db: Db,
    /// Cleared by every change to a store, its grants or a gateway, before the answer.
    stores: Arc<StoreCache>,
    /// Cleared by a revocation, before the answer.
    keys: Arc<KeyCache>,
}

impl Catalog {
    pub fn new(db: Db, stores: Arc<StoreCache>, keys: Arc<KeyCache>) -> Self {
        Self { db, stores, keys }
    }
}

/// Merchant, store, gateway and provider codes: the rule of [`valid_code`]. The schema
/// attributes repeat it as a literal; a test holds them to this one.
pub const CODE_PATTERN: &str = "^[A-Za-z0-9._-]{1,64}$";

const NAME_MAX_CHARS: usize = 200;

static NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(NAME_PATTERN).expect("NAME_PATTERN"));

/// A code of a merchant, store, gateway or provider in `field`.
pub fn check_code(code: &str, field: &str) -> Result<(), Invalid> {
    if valid_code(code) {
        Ok(())
    } else {
        Err(Invalid::new(
            "invalid_code",
            field,
            format!("`{field}` must be 1 to 64 characters of letters, digits, '-', '_' or '.'"),
        ))
    }
}

/// The name, trimmed, if it follows [`NAME_PATTERN`] within 200 characters.
pub fn check_name(name: &str, field: &str) -> Result<String, Invalid> {
    if name.chars().count() > NAME_MAX_CHARS || !NAME.is_match(name) {
        return Err(Invalid::new(
            "invalid_name",
            field,
            format!(
                "`{field}` must have 1 to 200 characters, not all blank, and no control characters"
            ),
        ));
    }
    Ok(name
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .to_owned())
}

/// A list of codes (`gateways`, `stores`), for `schema_with`.
fn code_list_schema() -> ArrayBuilder {
    ArrayBuilder::new().items(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(CODE_PATTERN)),
    )
}

/// Records a validated code on the entry point's span (its fields start empty: a value is
/// logged only once it is known to be a code, never as sent).
fn record(field: &'static str, value: &str) {
    tracing::Span::current().record(field, value);
}
