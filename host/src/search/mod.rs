//! Finding payments (DESIGN.md section 12): a merchant's search of its PaymentIntents
//! (`GET /api/v1/payments`), the admin API's list of every intent (`GET
//! /admin/v1/payment-intents`) and of every store (`GET /admin/v1/stores`, [`stores`]).
//!
//! The HTTP layer hands over the query string's values as sent ([`IntentQuery`],
//! [`StoreQuery`]: each parameter at most once, none unknown); the rules are here: each value
//! is checked (400 naming the parameter, with its own code), then the stores searched are
//! settled (a merchant key's grants, narrowed by `store`: 404 for an unknown store or one of
//! another merchant, 403 for one of the key's merchant it is not granted), then the cursor
//! (`after`: an intent the caller could see, else 404). A page is newest first in the order
//! (createdAt, id), each item the intent as `GET /payments/{id}` shows it
//! ([`PaymentIntent::from_row`]).

pub mod overview;
pub mod stores;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use regex::Regex;
use serde::Serialize;
use utoipa::ToSchema;

use crate::access::Principal;
use crate::charges::view::{PaymentIntent, QrCode};
use crate::db::catalog::{self, Store};
use crate::db::intents::Intent;
use crate::db::search::{self as sql, IntentFilter};
use crate::db::{Db, DbError};
use crate::internal::Internal;
use pixgate_domain::json::{Invalid, bounded};
use pixgate_domain::valid_code;
use pixgate_domain::{ChargeKind, IntentStatus};

/// Items per page: 1 to 100, 20 when `limit` is absent.
pub const MAX_LIMIT: i64 = 100;
pub const DEFAULT_LIMIT: i64 = 20;
/// A `reference` is what a charge may carry: 1 to 160 characters, no control characters.
pub const REFERENCE_MAX_CHARS: usize = 160;

/// Why a search was refused.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// A parameter's value breaks its rule (`invalid_limit`, `invalid_status`, ...).
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// `store` names no store, or one of another merchant (for a merchant's key).
    #[error("store `{0}` not found")]
    StoreNotFound(String),
    /// `store` names a store of the key's merchant that the key is not granted.
    #[error("this API key is not granted store `{0}`")]
    StoreNotGranted(String),
    #[error("merchant `{0}` not found")]
    MerchantNotFound(String),
    /// `after` is not an intent the caller could see.
    #[error("`after` is not a payment intent this search can see")]
    IntentNotFound,
    /// Details go to the log, never to the client.
    #[error(transparent)]
    Internal(#[from] Internal),
}

impl From<DbError> for SearchError {
    fn from(e: DbError) -> Self {
        Self::Internal(e.into())
    }
}

impl From<sqlx::Error> for SearchError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

/// The query string of an intent search, each value as sent (`None`: absent).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IntentQuery {
    pub limit: Option<String>,
    pub after: Option<String>,
    pub store: Option<String>,
    pub status: Option<String>,
    pub kind: Option<String>,
    pub reference: Option<String>,
    pub created_from: Option<String>,
    pub created_to: Option<String>,
    /// Admin only: a merchant's code.
    pub merchant: Option<String>,
    /// What to add to each item: `qrCode` (a `PENDING` intent's QR code).
    pub include: Option<String>,
}

/// The query string of the admin store list, each value as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoreQuery {
    pub limit: Option<String>,
    pub after: Option<String>,
    pub merchant: Option<String>,
    pub mode: Option<String>,
}

/// `limit`: a whole number from 1 to 100; 20 when absent.
pub(crate) fn limit(raw: Option<&str>) -> Result<i64, Invalid> {
    let Some(raw) = raw else {
        return Ok(DEFAULT_LIMIT);
    };
    raw.parse::<i64>()
        .ok()
        .filter(|n| raw.bytes().all(|b| b.is_ascii_digit()) && (1..=MAX_LIMIT).contains(n))
        .ok_or_else(|| {
            Invalid::new(
                "invalid_limit",
                "limit",
                format!("`limit` must be a whole number from 1 to {MAX_LIMIT}"),
            )
        })
}

/// A store or merchant code in `field` (`invalid_<field>` otherwise).
pub(crate) fn code(raw: &str, field: &str, code: &'static str) -> Result<String, Invalid> {
    if valid_code(raw) {
        Ok(raw.to_owned())
    } else {
        Err(Invalid::new(
            code,
            field,
            format!("`{field}` must be a code: 1 to 64 letters, digits, '-', '_' or '.'"),
        ))
    }
}

/// An RFC 3339 date-time, as JSON Schema's `date-time` format reads one
/// (`2026-11-19T15:00:00Z`, `2026-11-19T12:00:00.5-03:00`; `T` and `Z` in either case).
static DATE_TIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$",
    )
    .expect("DATE_TIME")
});

/// `createdFrom` / `createdTo`: Unix ms of an RFC 3339 date-time (a fraction finer than a
/// millisecond is cut).
pub(crate) fn date_time(raw: &str, field: &str, code: &'static str) -> Result<i64, Invalid> {
    let ms = DATE_TIME
        .is_match(raw)
        .then(|| pixgate_pix::time::parse_iso8601(raw))
        .flatten();
    ms.ok_or_else(|| {
        // A `+` written into a URL as is arrives as a space.
        let hint = if raw.contains(' ') {
            " (write a `+` offset as `%2B` in a URL, or use `Z`)"
        } else {
            ""
        };
        Invalid::new(
            code,
            field,
            format!("`{field}` must be an RFC 3339 date-time such as 2026-11-19T15:00:00Z{hint}"),
        )
    })
}

/// `after`: a UUID, in its canonical form.
fn uuid(raw: &str, message: &str) -> Result<String, Invalid> {
    uuid::Uuid::parse_str(raw)
        .map(|u| u.to_string())
        .map_err(|_| Invalid::new("invalid_after", "after", message))
}

/// The one value of `include`: each `PENDING` item with its QR code (DESIGN.md section 5).
pub const INCLUDE_QR_CODE: &str = "qrCode";

/// `include`: what a page adds to its items; only `qrCode`, which draws each `PENDING` item's
/// QR code. Absent: no item carries one.
fn include(raw: Option<&str>) -> Result<QrCode, Invalid> {
    match raw {
        None => Ok(QrCode::Omit),
        Some(INCLUDE_QR_CODE) => Ok(QrCode::IfPending),
        Some(_) => Err(Invalid::new(
            "invalid_include",
            "include",
            format!("`include` must be {INCLUDE_QR_CODE}"),
        )),
    }
}

/// An intent search's values, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Checked {
    /// Whether the items carry their QR code (`include=qrCode`).
    qr: QrCode,
    limit: i64,
    after: Option<String>,
    store: Option<String>,
    merchant: Option<String>,
    filter: IntentFilter,
}

impl IntentQuery {
    /// Checks every value, in the order of the document's parameters.
    fn check(&self) -> Result<Checked, Invalid> {
        let limit = limit(self.limit.as_deref())?;
        let after = self
            .after
            .as_deref()
            .map(|a| uuid(a, "`after` must be a paymentIntentId"))
            .transpose()?;
        let store = self
            .store
            .as_deref()
            .map(|s| code(s, "store", "invalid_store"))
            .transpose()?;
        let status = self
            .status
            .as_deref()
            .map(|s| {
                s.parse::<IntentStatus>().map_err(|_| {
                    Invalid::new(
                        "invalid_status",
                        "status",
                        "`status` must be SHADOW_ONLY, PENDING, SUCCEEDED, FAILED or CANCELED",
                    )
                })
            })
            .transpose()?;
        let kind = self
            .kind
            .as_deref()
            .map(|k| {
                k.parse::<ChargeKind>().map_err(|_| {
                    Invalid::new(
                        "invalid_kind",
                        "kind",
                        "`kind` must be IMMEDIATE, DUE_DATE or RECURRING",
                    )
                })
            })
            .transpose()?;
        let reference = self
            .reference
            .as_deref()
            .map(|r| bounded(r, "reference", "invalid_reference", 1, REFERENCE_MAX_CHARS))
            .transpose()?;
        let created_from = self
            .created_from
            .as_deref()
            .map(|t| date_time(t, "createdFrom", "invalid_created_from"))
            .transpose()?;
        let created_to = self
            .created_to
            .as_deref()
            .map(|t| date_time(t, "createdTo", "invalid_created_to"))
            .transpose()?;
        let merchant = self
            .merchant
            .as_deref()
            .map(|m| code(m, "merchant", "invalid_merchant"))
            .transpose()?;
        let qr = include(self.include.as_deref())?;
        Ok(Checked {
            qr,
            limit,
            after,
            store,
            merchant,
            filter: IntentFilter {
                status,
                kind,
                reference,
                created_from,
                created_to,
                after: None,
            },
        })
    }
}

/// A PaymentIntent as the admin list shows it: the merchant's view, with its merchant.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AdminPaymentIntent {
    #[serde(flatten)]
    pub intent: PaymentIntent,
    /// The merchant's code.
    #[schema(example = "demo")]
    pub merchant: String,
}

/// Payment search and the admin lists. Built once by the composition root; cheap to clone.
#[derive(Debug, Clone)]
pub struct Search {
    db: Db,
}

impl Search {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// A page of the intents of the stores `principal` is granted, newest first. The caller
    /// has checked the key's scope.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id))]
    pub async fn payments(
        &self,
        principal: &Principal,
        query: &IntentQuery,
    ) -> Result<Vec<PaymentIntent>, SearchError> {
        let mut checked = query.check()?;
        let stores = match &checked.store {
            Some(code) => {
                let store = catalog::store_by_code(&self.db.read, code)
                    .await?
                    .filter(|s| s.merchant_id == principal.merchant_id)
                    .ok_or_else(|| SearchError::StoreNotFound(code.clone()))?;
                if !principal.granted(&store.id) {
                    return Err(SearchError::StoreNotGranted(store.code));
                }
                vec![store]
            }
            None => sql::stores_by_ids(&self.db.read, &principal.store_ids)
                .await?
                .into_iter()
                .filter(|s| s.merchant_id == principal.merchant_id)
                .collect(),
        };
        if let Some(after) = &checked.after {
            // Any intent the key may read marks a place in the pages, whatever the filters.
            let position = sql::intent_position(&self.db.read, after)
                .await?
                .filter(|p| {
                    p.merchant_id == principal.merchant_id && principal.granted(&p.store_id)
                })
                .ok_or(SearchError::IntentNotFound)?;
            checked.filter.after = Some((position.created_at, position.id));
        }
        let (page, stores) = self.page(&stores, &checked).await?;
        let qr = checked.qr;
        render(page, stores, qr, move |intent, store| {
            PaymentIntent::from_row_with(intent, store, false, qr)
        })
        .await
    }

    /// A page of every merchant's intents, newest first, narrowed by `merchant` and `store`
    /// (both: the store's intents if it is the merchant's, else none).
    #[tracing::instrument(skip_all)]
    pub async fn payment_intents(
        &self,
        query: &IntentQuery,
    ) -> Result<Vec<AdminPaymentIntent>, SearchError> {
        let mut checked = query.check()?;
        let merchant = match &checked.merchant {
            Some(code) => Some(
                catalog::merchant_by_code(&self.db.read, code)
                    .await?
                    .ok_or_else(|| SearchError::MerchantNotFound(code.clone()))?,
            ),
            None => None,
        };
        let stores = match &checked.store {
            Some(code) => {
                let store = catalog::store_by_code(&self.db.read, code)
                    .await?
                    .ok_or_else(|| SearchError::StoreNotFound(code.clone()))?;
                let of_merchant = merchant.as_ref().is_none_or(|m| m.id == store.merchant_id);
                if of_merchant { vec![store] } else { Vec::new() }
            }
            None => sql::stores_of(&self.db.read, merchant.as_ref().map(|m| m.id.as_str())).await?,
        };
        if let Some(after) = &checked.after {
            let position = sql::intent_position(&self.db.read, after)
                .await?
                .ok_or(SearchError::IntentNotFound)?;
            checked.filter.after = Some((position.created_at, position.id));
        }
        let (page, stores) = self.page(&stores, &checked).await?;
        let mut merchants: HashMap<String, String> = HashMap::new();
        for intent in &page {
            if !merchants.contains_key(&intent.merchant_id) {
                let code = catalog::merchant_code(&self.db.read, &intent.merchant_id).await?;
                merchants.insert(intent.merchant_id.clone(), code);
            }
        }
        let qr = checked.qr;
        render(page, stores, qr, move |intent, store| AdminPaymentIntent {
            intent: PaymentIntent::from_row_with(intent, store, false, qr),
            merchant: merchants
                .get(&intent.merchant_id)
                .cloned()
                .unwrap_or_default(),
        })
        .await
    }

    /// One intent of any merchant, as the admin list shows it, with its QR code while
    /// `PENDING`: what the console shows of a payment opened by link or after a reload.
    #[tracing::instrument(skip_all, fields(intent = %id))]
    pub async fn payment_intent(&self, id: &str) -> Result<AdminPaymentIntent, SearchError> {
        let intent = crate::db::intents::by_id(&self.db.read, id)
            .await?
            .ok_or(SearchError::IntentNotFound)?;
        let store = catalog::store_by_id(&self.db.read, &intent.store_id)
            .await?
            .ok_or_else(|| Internal::broken(format!("intent {id} without its store")))?;
        let merchant = catalog::merchant_code(&self.db.read, &intent.merchant_id).await?;
        Ok(AdminPaymentIntent {
            intent: PaymentIntent::from_row(&intent, &store, false),
            merchant,
        })
    }

    /// The page over `stores`, with the stores by id for the views.
    async fn page(
        &self,
        stores: &[Store],
        checked: &Checked,
    ) -> Result<(Vec<Intent>, HashMap<String, Store>), SearchError> {
        let ids: Vec<String> = stores.iter().map(|s| s.id.clone()).collect();
        let page = if ids.is_empty() {
            Vec::new()
        } else {
            sql::intents_page(&self.db, &ids, &checked.filter, checked.limit).await?
        };
        let stores = stores.iter().map(|s| (s.id.clone(), s.clone())).collect();
        Ok((page, stores))
    }
}

/// The views of `intents` with their stores, in order.
fn views_of<T>(
    intents: &[Intent],
    stores: &HashMap<String, Store>,
    view: &impl Fn(&Intent, &Store) -> T,
) -> Result<Vec<T>, SearchError> {
    intents
        .iter()
        .map(|intent| {
            let store = stores.get(&intent.store_id).ok_or_else(|| {
                SearchError::from(Internal::broken(format!(
                    "intent {} outside the stores searched",
                    intent.id
                )))
            })?;
            Ok(view(intent, store))
        })
        .collect()
}

/// The views of a page's intents, in order. Without QR codes a view is microseconds of work,
/// built right here. With `include=qrCode` each `PENDING` item's code may be drawn,
/// milliseconds of CPU each (BENCHMARKS.md section 9), and a page holds up to 100: built off
/// the async workers and split across the cores.
async fn render<T, F>(
    mut page: Vec<Intent>,
    stores: HashMap<String, Store>,
    qr: QrCode,
    view: F,
) -> Result<Vec<T>, SearchError>
where
    T: Send + 'static,
    F: Fn(&Intent, &Store) -> T + Send + Sync + 'static,
{
    if qr == QrCode::Omit {
        return views_of(&page, &stores, &view);
    }
    let (stores, view) = (Arc::new(stores), Arc::new(view));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per_task = page.len().div_ceil(cores).max(1);
    let mut tasks = Vec::new();
    while !page.is_empty() {
        let rest = page.split_off(per_task.min(page.len()));
        let chunk = std::mem::replace(&mut page, rest);
        let (stores, view) = (stores.clone(), view.clone());
        tasks.push(tokio::task::spawn_blocking(move || {
            views_of(&chunk, &stores, &*view)
        }));
    }
    let mut views = Vec::new();
    for task in tasks {
        views.extend(
            task.await
                .map_err(|e| Internal::caused("rendering a page", e))??,
        );
    }
    Ok(views)
}
