//! `GET /payment-intents`: every merchant's PaymentIntents, newest first, with the merchant
//! search's filters plus `merchant` ([`crate::search`]).

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, uuid_param};
use crate::http::AppState;
use crate::http::responses::{AdminUnauthorized, RoleInsufficient};
use crate::http::search::{Include, SEARCH_PARAMS, query_values};
use crate::http::{ApiError, ErrorEnvelope};
use crate::search::{AdminPaymentIntent, IntentQuery, Search, SearchError};
use pixgate_domain::{ChargeKind, IntentStatus};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(list_payment_intents))
        .routes(routes!(get_payment_intent))
}

/// One PaymentIntent of any merchant, as the list shows it (with `merchant`), with
/// `pix.qrCodeSvg` while it is `PENDING`.
#[utoipa::path(get, path = "/payment-intents/{paymentIntentId}", tag = "admin",
    params(("paymentIntentId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The PaymentIntent", body = Envelope<AdminPaymentIntent>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such PaymentIntent (`payment_intent_not_found`)", body = ErrorEnvelope),
    ))]
async fn get_payment_intent(
    State(search): State<Search>,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || SearchError::IntentNotFound.into())?;
    Ok(ok(StatusCode::OK, search.payment_intent(&id).await?))
}

/// The list's parameters, as the query string carries them (each checked by the service).
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
struct IntentListParams {
    /// At most this many intents, newest first (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100, nullable = false)]
    limit: Option<String>,
    /// The `paymentIntentId` of the previous page's last intent: the intents created before
    /// it. 404 `payment_intent_not_found` if there is no such intent.
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
    /// A store's code: only its intents.
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
    /// `qrCode`: each `PENDING` item with `pix.qrCodeSvg`, its QR code (left out unless
    /// asked). Any other value is 400 `invalid_include`.
    #[param(inline, value_type = Option<Include>, nullable = false)]
    include: Option<String>,
    /// A merchant's code: only its stores' intents (with `store`: none unless the store is
    /// the merchant's).
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    merchant: Option<String>,
}

impl IntentListParams {
    fn read(raw: Option<&str>) -> Result<IntentQuery, ApiError> {
        let known: Vec<(&'static str, &'static str)> = SEARCH_PARAMS
            .into_iter()
            .chain([("merchant", "invalid_merchant")])
            .collect();
        let mut values = query_values(raw, &known)?;
        let p = Self {
            limit: values.remove("limit"),
            after: values.remove("after"),
            store: values.remove("store"),
            status: values.remove("status"),
            kind: values.remove("kind"),
            reference: values.remove("reference"),
            created_from: values.remove("createdFrom"),
            created_to: values.remove("createdTo"),
            include: values.remove("include"),
            merchant: values.remove("merchant"),
        };
        Ok(IntentQuery {
            limit: p.limit,
            after: p.after,
            store: p.store,
            status: p.status,
            kind: p.kind,
            reference: p.reference,
            created_from: p.created_from,
            created_to: p.created_to,
            merchant: p.merchant,
            include: p.include,
        })
    }
}

/// Lists PaymentIntents of every merchant, newest first, a page at a time.
///
/// Filters combine with AND. Pass the last `paymentIntentId` of a page as `after` for the
/// next; a page shorter than `limit` is the last. Each item is the PaymentIntent as the
/// merchant API shows it, with `merchant`, and without `pix.qrCodeSvg` unless asked with
/// `include=qrCode`. Unknown parameters, and a parameter given twice,
/// are refused (400).
#[utoipa::path(get, path = "/payment-intents", tag = "admin", params(IntentListParams),
    responses(
        (status = 200, description = "A page of PaymentIntents, newest first (createdAt, then paymentIntentId, descending)", body = Envelope<Vec<AdminPaymentIntent>>),
        (status = 400, description = "A parameter's value breaks its rule, or it is given twice: `invalid_limit`, `invalid_after`, `invalid_store`, `invalid_status`, `invalid_kind`, `invalid_reference`, `invalid_created_from`, `invalid_created_to`, `invalid_include`, `invalid_merchant`; an unknown parameter: `unknown_field`. `field` names the parameter", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`merchant` or `store` names nothing (`merchant_not_found`, `store_not_found`), or `after` is no intent (`payment_intent_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_payment_intents(
    State(search): State<Search>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let query = IntentListParams::read(raw.as_deref())?;
    Ok(ok(StatusCode::OK, search.payment_intents(&query).await?))
}
