//! `GET /payments`: a merchant's search of its PaymentIntents (scope `payments:create` or
//! `payments:read`). The handler checks the scope, reads the query string (each parameter
//! once, none unknown) and makes one call to the [`Search`] service, which checks the values
//! and answers the page. Also the query-string reading the admin lists share, and the
//! service's errors as HTTP.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{RawQuery, State};
use serde::Serialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{ApiError, ErrorEnvelope};
use crate::access::{Principal, Scope};
use crate::charges::view::PaymentIntent;
use crate::http::AppState;
use crate::http::responses::{RateLimited, Unauthorized};
use crate::search::{IntentQuery, Search, SearchError};
use pixgate_domain::{ChargeKind, IntentStatus};

pub fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new().routes(routes!(search_payments))
}

/// `{"success": true, "data": [PaymentIntent]}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentIntentListEnvelope {
    /// Always true.
    success: bool,
    /// Newest first; fewer than `limit` on the last page.
    data: Vec<PaymentIntent>,
}

/// The search's parameters, as the query string carries them (each checked by the service).
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PaymentSearchParams {
    /// At most this many intents, newest first (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100, nullable = false)]
    limit: Option<String>,
    /// The `paymentIntentId` of the previous page's last intent: the intents created before
    /// it. 404 `payment_intent_not_found` if the key cannot read it.
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
    /// A store's code: only its intents (the key must be granted it).
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    store: Option<String>,
    /// Only intents in this status.
    #[param(value_type = Option<IntentStatus>, nullable = false)]
    status: Option<String>,
    /// Only intents of this kind: `IMMEDIATE`, `DUE_DATE` (invoices with a due date) or
    /// `RECURRING`.
    #[param(value_type = Option<ChargeKind>, nullable = false)]
    kind: Option<String>,
    /// Only intents with exactly this `reference`.
    #[param(
        min_length = 1,
        max_length = 160,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$",
        nullable = false
    )]
    reference: Option<String>,
    /// Only intents created at or after this time (RFC 3339; encode a `+` offset as `%2B`).
    #[param(rename = "createdFrom", format = DateTime, nullable = false)]
    created_from: Option<String>,
    /// Only intents created before this time (RFC 3339): `[createdFrom, createdTo)`.
    #[param(rename = "createdTo", format = DateTime, nullable = false)]
    created_to: Option<String>,
    /// `qrCode`: each `PENDING` item with `pix.qrCodeSvg`, its QR code (a read has it; a page
    /// leaves it out unless asked: drawing one costs milliseconds and about 22 KB). Any other
    /// value is 400 `invalid_include`.
    #[param(inline, value_type = Option<Include>, nullable = false)]
    include: Option<String>,
}

/// What a search page may add to its items: the document's enum of `include` (the service
/// reads the value itself, [`crate::search::INCLUDE_QR_CODE`]).
#[derive(Debug, Clone, Copy, ToSchema)]
#[allow(dead_code)] // only its schema is used
pub enum Include {
    /// Each `PENDING` item's QR code (`pix.qrCodeSvg`).
    #[schema(rename = "qrCode")]
    QrCode,
}

impl PaymentSearchParams {
    fn read(raw: Option<&str>) -> Result<Self, ApiError> {
        let mut values = query_values(raw, &SEARCH_PARAMS)?;
        Ok(Self {
            limit: values.remove("limit"),
            after: values.remove("after"),
            store: values.remove("store"),
            status: values.remove("status"),
            kind: values.remove("kind"),
            reference: values.remove("reference"),
            created_from: values.remove("createdFrom"),
            created_to: values.remove("createdTo"),
            include: values.remove("include"),
        })
    }
}

impl From<PaymentSearchParams> for IntentQuery {
    fn from(p: PaymentSearchParams) -> Self {
        IntentQuery {
            limit: p.limit,
            after: p.after,
            store: p.store,
            status: p.status,
            kind: p.kind,
            reference: p.reference,
            created_from: p.created_from,
            created_to: p.created_to,
            merchant: None,
            include: p.include,
        }
    }
}

/// The search's parameters and the code each one's refusal carries.
pub(crate) const SEARCH_PARAMS: [(&str, &str); 9] = [
    ("limit", "invalid_limit"),
    ("after", "invalid_after"),
    ("store", "invalid_store"),
    ("status", "invalid_status"),
    ("kind", "invalid_kind"),
    ("reference", "invalid_reference"),
    ("createdFrom", "invalid_created_from"),
    ("createdTo", "invalid_created_to"),
    ("include", "invalid_include"),
];

/// The query string's values by name: each of `known` (name, the code of its refusal) at
/// most once (twice is refused with that code: which one counts would be a guess), and no
/// other name (`unknown_field`: a misspelt filter must not widen a search silently).
pub(crate) fn query_values(
    raw: Option<&str>,
    known: &[(&'static str, &'static str)],
) -> Result<HashMap<&'static str, String>, ApiError> {
    let mut values = HashMap::new();
    for (name, value) in url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes()) {
        let Some(&(name, code)) = known.iter().find(|(known, _)| *known == name) else {
            let shown: String = name.chars().take(64).collect();
            let names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
            return Err(ApiError::invalid(
                "unknown_field",
                &shown,
                format!(
                    "unknown query parameter `{shown}`; the parameters are {}",
                    names.join(", ")
                ),
            ));
        };
        if values.insert(name, value.into_owned()).is_some() {
            return Err(ApiError::invalid(
                code,
                name,
                format!("`{name}` is given more than once"),
            ));
        }
    }
    Ok(values)
}

impl From<SearchError> for ApiError {
    fn from(e: SearchError) -> Self {
        let message = e.to_string();
        match e {
            SearchError::Invalid(invalid) => invalid.into(),
            SearchError::StoreNotFound(_) => Self::not_found("store_not_found", message),
            SearchError::StoreNotGranted(_) => Self::Forbidden {
                code: "store_not_granted",
                message,
            },
            SearchError::MerchantNotFound(_) => Self::not_found("merchant_not_found", message),
            SearchError::IntentNotFound => Self::not_found("payment_intent_not_found", message),
            SearchError::Internal(detail) => Self::Internal(detail),
        }
    }
}

/// Searches the key's PaymentIntents, newest first, a page at a time.
///
/// Only intents of the stores the key is granted. Filters combine with AND. Pass the last
/// `paymentIntentId` of a page as `after` for the next; a page shorter than `limit` is the
/// last. Each item is the PaymentIntent as `GET /payments/{paymentIntentId}` returns it,
/// without `pix.qrCodeSvg` unless asked with `include=qrCode`. Unknown parameters, and a
/// parameter given twice, are refused (400).
#[utoipa::path(
    get,
    path = "/payments",
    tag = "payments",
    params(PaymentSearchParams),
    responses(
        (status = 200, description = "A page of PaymentIntents, newest first (createdAt, then paymentIntentId, descending)", body = PaymentIntentListEnvelope),
        (status = 400, description = "A parameter's value breaks its rule, or it is given twice: `invalid_limit`, `invalid_after`, `invalid_store`, `invalid_status`, `invalid_kind`, `invalid_reference`, `invalid_created_from`, `invalid_created_to`, `invalid_include`; an unknown parameter: `unknown_field`. `field` names the parameter", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `payments:create` and `payments:read` (`insufficient_scope`), or `store` is a store of the key's merchant it is not granted (`store_not_granted`)", body = ErrorEnvelope),
        (status = 404, description = "`store` is unknown or another merchant's (`store_not_found`), or `after` is not an intent the key can read (`payment_intent_not_found`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn search_payments(
    State(search): State<Search>,
    principal: Principal,
    RawQuery(raw): RawQuery,
) -> Result<Json<PaymentIntentListEnvelope>, ApiError> {
    principal.require_any(&[Scope::PaymentsCreate, Scope::PaymentsRead])?;
    let query = PaymentSearchParams::read(raw.as_deref())?.into();
    Ok(Json(PaymentIntentListEnvelope {
        success: true,
        data: search.payments(&principal, &query).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_parameter_once_and_no_other() {
        let values = query_values(
            Some("limit=5&createdFrom=2026-11-19T12%3A00%3A00%2B03%3A00&reference=a+b"),
            &SEARCH_PARAMS,
        )
        .unwrap();
        assert_eq!(values["limit"], "5");
        assert_eq!(values["createdFrom"], "2026-11-19T12:00:00+03:00");
        assert_eq!(values["reference"], "a b");
        let e = query_values(Some("status=FAILED&status=PENDING"), &SEARCH_PARAMS).unwrap_err();
        assert_eq!(e.code(), "invalid_status");
        let e = query_values(Some("staus=FAILED"), &SEARCH_PARAMS).unwrap_err();
        assert_eq!(e.code(), "unknown_field");
        assert!(query_values(None, &SEARCH_PARAMS).unwrap().is_empty());
    }

    /// The document states each parameter with the rule the service applies.
    #[test]
    fn the_document_states_the_search_parameters() {
        let doc = serde_json::to_value(crate::http::payments::openapi()).unwrap();
        let params = doc["paths"]["/payments"]["get"]["parameters"]
            .as_array()
            .unwrap();
        let param = |name: &str| {
            params
                .iter()
                .find(|p| p["name"] == name)
                .unwrap_or_else(|| panic!("no {name} in {params:?}"))["schema"]
                .clone()
        };
        let names: Vec<&str> = params.iter().map(|p| p["name"].as_str().unwrap()).collect();
        let known: Vec<&str> = SEARCH_PARAMS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, known);
        assert_eq!(param("limit")["maximum"], crate::search::MAX_LIMIT);
        assert_eq!(param("limit")["minimum"], 1);
        assert_eq!(param("store")["pattern"], crate::catalog::CODE_PATTERN);
        assert_eq!(
            param("reference")["pattern"],
            pixgate_domain::charge::TEXT_PATTERN
        );
        assert_eq!(
            param("reference")["maxLength"],
            crate::search::REFERENCE_MAX_CHARS
        );
        assert_eq!(param("createdFrom")["format"], "date-time");
        assert_eq!(param("after")["format"], "uuid");
        assert_eq!(
            param("include")["enum"],
            serde_json::json!([crate::search::INCLUDE_QR_CODE])
        );
    }
}
