//! One payment as on-call sees it, beside its trace: `/payment-intents/{id}/refunds`, the
//! webhook deliveries of its events with their attempts (`/payment-intents/{id}/deliveries`),
//! and the resend of any of them (`/webhook-deliveries/{id}/resend`); every merchant's
//! deliveries on their own (`/webhook-deliveries`, the failing ones on a page of their own);
//! and a merchant's endpoints registered by an admin (`/webhook-endpoints`). The merchant API
//! has the same per merchant; these cross every merchant, for the console and the CLI.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use utoipa::{IntoParams, ToSchema};

use super::{Envelope, ok, parse_body, uuid_param};
use crate::access::Actor;
use crate::http::AppState;
use crate::http::extract::JsonBody;
use crate::http::responses::{AdminUnauthorized, RoleInsufficient};
use crate::http::responses::{PayloadTooLarge, UnsupportedMediaType};
use crate::http::search::query_values;
use crate::http::{ApiError, ErrorEnvelope};
use crate::refunds::view::RefundView;
use crate::refunds::{RefundError, Refunds};
use crate::webhooks::endpoints::view::{
    AdminCreatedEndpoint, Delivery, Endpoint, IntentDelivery, ListedDelivery,
};
use crate::webhooks::endpoints::{
    CreateEndpointRequest, DeliveryQuery, EndpointError, Endpoints, Page,
};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(intent_refunds))
        .routes(routes!(intent_deliveries))
        .routes(routes!(resend))
        .routes(routes!(list_deliveries))
        .routes(routes!(create_endpoint, list_endpoints))
}

#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // The document's parameters; the handler reads the raw query.
struct DeliveryListParams {
    /// `failing` (`EXHAUSTED`, a test that `FAILED`, or `PENDING` after a failed attempt),
    /// `pending`, `delivered` or `canceled`; absent: all.
    #[param(inline, value_type = Option<DeliveryState>, nullable = false)]
    state: Option<String>,
    /// A merchant's code: only its endpoints' deliveries.
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    merchant: Option<String>,
    /// At most this many, newest first (default 20).
    #[param(minimum = 1, maximum = 100, nullable = false)]
    limit: Option<i64>,
    /// The `deliveryId` of the previous page's last delivery: the deliveries created before
    /// it.
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
}

/// The values `state` takes.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)] // The document's enum; the service reads the value.
enum DeliveryState {
    Failing,
    Pending,
    Delivered,
    Canceled,
}

/// Every merchant's webhook deliveries, newest first, a page at a time, each with its
/// endpoint's name and URL, its merchant and the payment it is about. `state=failing` is the
/// page to read first: what merchants are not receiving.
#[utoipa::path(get, path = "/webhook-deliveries", tag = "admin", params(DeliveryListParams),
    responses(
        (status = 200, description = "A page of deliveries, newest first", body = Envelope<Vec<ListedDelivery>>),
        (status = 400, description = "A parameter breaks its rule or is given twice (`invalid_state`, `invalid_merchant`, `invalid_limit`, `invalid_after`), or is unknown (`unknown_field`)", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`merchant` names nothing (`merchant_not_found`), or `after` is no delivery (`webhook_delivery_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_deliveries(
    State(endpoints): State<Endpoints>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let mut values = query_values(
        raw.as_deref(),
        &[
            ("state", "invalid_state"),
            ("merchant", "invalid_merchant"),
            ("limit", "invalid_limit"),
            ("after", "invalid_after"),
        ],
    )?;
    let query = DeliveryQuery {
        state: values.remove("state"),
        merchant: values.remove("merchant"),
        limit: values.remove("limit"),
        after: values.remove("after"),
    };
    Ok(ok(StatusCode::OK, endpoints.all_deliveries(&query).await?))
}

/// Registers a webhook endpoint for a merchant, as the merchant's `POST
/// /api/v1/webhook-endpoints` does (the same body, rules and limit), recorded in the audit
/// trail. The answer carries the signing secret, shown only here: hand it to the merchant.
#[utoipa::path(post, path = "/merchants/{code}/webhook-endpoints", tag = "admin",
    params(("code" = String, Path, description = "The merchant's code", pattern = "^[A-Za-z0-9._-]{1,64}$")),
    request_body = CreateEndpointRequest,
    responses(
        (status = 201, description = "Registered, with its signing secret", body = Envelope<AdminCreatedEndpoint>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `missing_field`, `unknown_field`, `invalid_endpoint_url`, `invalid_name`, `invalid_events`, ...); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such merchant (`merchant_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "The merchant has a live endpoint at this URL (`duplicate_endpoint`) or has reached the limit (`endpoint_limit_reached`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn create_endpoint(
    State(endpoints): State<Endpoints>,
    actor: Actor,
    code: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let code = merchant_param(code)?;
    let request: CreateEndpointRequest = parse_body(body, &[])?;
    Ok(ok(
        StatusCode::CREATED,
        endpoints.create_for(&actor, &code, request).await?,
    ))
}

/// The path's merchant code, as sent; one the router could not read names no merchant.
fn merchant_param(code: Result<Path<String>, PathRejection>) -> Result<String, EndpointError> {
    code.map(|Path(code)| code)
        .map_err(|_| EndpointError::MerchantNotFound(String::new()))
}

#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // The document's parameters; the handler reads the raw query.
struct EndpointListParams {
    /// At most this many, oldest first (default 50).
    #[param(minimum = 1, maximum = 200, nullable = false)]
    limit: Option<i64>,
    /// An endpoint id: only the endpoints created after it.
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
}

/// A merchant's webhook endpoints (every status), without secrets, oldest first, as the
/// merchant lists them.
#[utoipa::path(get, path = "/merchants/{code}/webhook-endpoints", tag = "admin",
    params(("code" = String, Path, description = "The merchant's code", pattern = "^[A-Za-z0-9._-]{1,64}$"), EndpointListParams),
    responses(
        (status = 200, description = "The endpoints", body = Envelope<Vec<Endpoint>>),
        (status = 400, description = "`limit` is out of range (`invalid_limit`), `after` is not an endpoint id (`invalid_after`), or an unknown parameter (`unknown_field`)", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such merchant (`merchant_not_found`), or `after` is none of its endpoints (`webhook_endpoint_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_endpoints(
    State(endpoints): State<Endpoints>,
    code: Result<Path<String>, PathRejection>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let code = merchant_param(code)?;
    let mut values = query_values(
        raw.as_deref(),
        &[("limit", "invalid_limit"), ("after", "invalid_after")],
    )?;
    let limit = match values.remove("limit") {
        Some(raw) => Some(
            raw.parse::<i64>()
                .map_err(|_| EndpointError::invalid_limit())?,
        ),
        None => None,
    };
    let page = Page {
        limit,
        cursor: values.remove("after"),
    };
    Ok(ok(StatusCode::OK, endpoints.list_for(&code, page).await?))
}

/// A PaymentIntent's refunds, oldest first, whoever asked for them (merchant, MED, resolution).
#[utoipa::path(get, path = "/payment-intents/{paymentIntentId}/refunds", tag = "admin",
    params(("paymentIntentId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The refunds", body = Envelope<Vec<RefundView>>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such PaymentIntent (`payment_intent_not_found`)", body = ErrorEnvelope),
    ))]
async fn intent_refunds(
    State(refunds): State<Refunds>,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || RefundError::IntentNotFound.into())?;
    Ok(ok(StatusCode::OK, refunds.list_any(&id).await?))
}

/// The webhook deliveries of a PaymentIntent's events (payment and refund events), newest
/// first, each with its endpoint and attempts; the latest 200 at most.
#[utoipa::path(get, path = "/payment-intents/{paymentIntentId}/deliveries", tag = "admin",
    params(("paymentIntentId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The deliveries with their attempts", body = Envelope<Vec<IntentDelivery>>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such PaymentIntent (`payment_intent_not_found`)", body = ErrorEnvelope),
    ))]
async fn intent_deliveries(
    State(endpoints): State<Endpoints>,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || EndpointError::IntentNotFound.into())?;
    Ok(ok(
        StatusCode::OK,
        endpoints.deliveries_of_intent(&id).await?,
    ))
}

/// Sends a delivery again (same id and body; a fresh timestamp and signature), as the
/// merchant's resend does: if that attempt fails, the delivery goes on with the retries its
/// schedule has left.
#[utoipa::path(post, path = "/webhook-deliveries/{deliveryId}/resend", tag = "admin",
    params(("deliveryId" = String, Path, format = Uuid)),
    responses(
        (status = 202, description = "Queued (status `PENDING`, due now)", body = Envelope<Delivery>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such delivery (`webhook_delivery_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "Its endpoint is not ACTIVE (`endpoint_not_active`), or an attempt of it is being sent (`delivery_in_flight`)", body = ErrorEnvelope),
    ))]
async fn resend(
    State(endpoints): State<Endpoints>,
    actor: Actor,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || EndpointError::DeliveryNotFound.into())?;
    Ok(ok(
        StatusCode::ACCEPTED,
        endpoints.resend_any(&actor, &id).await?,
    ))
}
