//! The merchant API's webhook-endpoint routes (scope `webhooks:manage`): create, list, test
//! and revoke from the contract; re-enable, the delivery log and resend beyond it. Each
//! checks the scope, reads the path, query or body, and makes one call to the
//! [`Endpoints`] service; the bodies' `data` are the service's [`view`]s, wrapped here in the
//! envelope.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{JsonBody, parse};
use super::{ApiError, ErrorEnvelope};
use crate::access::{Principal, Scope};
use crate::http::AppState;
use crate::http::responses::{PayloadTooLarge, RateLimited, Unauthorized, UnsupportedMediaType};
use crate::webhooks::endpoints::{CreateEndpointRequest, EndpointError, Endpoints, Page, view};

pub fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_endpoint, list_endpoints))
        .routes(routes!(test_endpoint))
        .routes(routes!(revoke_endpoint))
        .routes(routes!(enable_endpoint))
        .routes(routes!(list_deliveries))
        .routes(routes!(resend_delivery))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedEndpointEnvelope {
    success: bool,
    data: view::CreatedEndpoint,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EndpointEnvelope {
    success: bool,
    data: view::Endpoint,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EndpointListEnvelope {
    success: bool,
    data: Vec<view::Endpoint>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TestResultEnvelope {
    success: bool,
    data: view::TestResult,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryListEnvelope {
    success: bool,
    data: Vec<view::Delivery>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryEnvelope {
    success: bool,
    data: view::Delivery,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DeliveryQuery {
    /// At most this many, newest first (default 50).
    #[param(minimum = 1, maximum = 200, nullable = false)]
    limit: Option<i64>,
    /// A delivery id: only the deliveries created before it (the last one of the previous
    /// page).
    #[param(format = Uuid, nullable = false)]
    before: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EndpointQuery {
    /// At most this many, oldest first (default 50).
    #[param(minimum = 1, maximum = 200, nullable = false)]
    limit: Option<i64>,
    /// An endpoint id: only the endpoints created after it (the last one of the previous
    /// page).
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
}

/// The path's id, as sent; one the router could not read is as unknown as any other.
fn path_id(id: Result<Path<String>, PathRejection>) -> Result<String, EndpointError> {
    id.map(|Path(id)| id).map_err(|_| EndpointError::NotFound)
}

/// Registers an HTTPS endpoint. Its signing secret is in this response only.
#[utoipa::path(
    post,
    path = "/webhook-endpoints",
    tag = "webhooks",
    request_body = CreateEndpointRequest,
    responses(
        (status = 201, description = "Endpoint created, ACTIVE; `signingSecret` appears only here", body = CreatedEndpointEnvelope),
        (status = 400, description = "Invalid URL (`invalid_endpoint_url`, `endpoint_url_not_https`), events (`invalid_events`) or name", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 409, description = "The merchant already has a live endpoint at this URL (`duplicate_endpoint`), or as many endpoints that are not revoked as `PIXGATE_WEBHOOK_MAX_ENDPOINTS` allows (`endpoint_limit_reached`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
        RateLimited,
    )
)]
async fn create_endpoint(
    State(endpoints): State<Endpoints>,
    principal: Principal,
    request: axum::extract::Request,
) -> Result<(StatusCode, Json<CreatedEndpointEnvelope>), ApiError> {
    // Scope before body, as on every merchant route.
    principal.require_any(&[Scope::WebhooksManage])?;
    let body: CreateEndpointRequest = parse(JsonBody::read(request).await?)?;
    let created = endpoints.create(&principal.merchant_id, body).await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedEndpointEnvelope {
            success: true,
            data: created,
        }),
    ))
}

/// The merchant's webhook endpoints (every status), without secrets, oldest first, a page
/// at a time: pass the last id of a page as `after` for the next; a page shorter than
/// `limit` is the last.
#[utoipa::path(
    get,
    path = "/webhook-endpoints",
    tag = "webhooks",
    params(EndpointQuery),
    responses(
        (status = 200, description = "Endpoints, oldest first", body = EndpointListEnvelope),
        (status = 400, description = "`limit` out of range (`invalid_limit`) or `after` not an endpoint id (`invalid_after`)", body = ErrorEnvelope),
        (status = 404, description = "`after` is not one of this merchant's endpoints (`webhook_endpoint_not_found`)", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn list_endpoints(
    State(endpoints): State<Endpoints>,
    principal: Principal,
    query: Result<Query<EndpointQuery>, QueryRejection>,
) -> Result<Json<EndpointListEnvelope>, ApiError> {
    principal.require_any(&[Scope::WebhooksManage])?;
    let Query(query) = query.map_err(|_| EndpointError::invalid_limit())?;
    let page = Page {
        limit: query.limit,
        cursor: query.after,
    };
    Ok(Json(EndpointListEnvelope {
        success: true,
        data: endpoints.list(&principal.merchant_id, page).await?,
    }))
}

/// Sends a `webhook.test` event now and answers what happened. It does not count toward the
/// endpoint's failure count.
#[utoipa::path(
    post,
    path = "/webhook-endpoints/{endpointId}/test",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The attempt completed (delivered or not); see `status`", body = TestResultEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint for this merchant", body = ErrorEnvelope),
        (status = 409, description = "The endpoint is revoked (`endpoint_revoked`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn test_endpoint(
    State(endpoints): State<Endpoints>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<TestResultEnvelope>, ApiError> {
    principal.require_any(&[Scope::WebhooksManage])?;
    let result = endpoints
        .test(&principal.merchant_id, &path_id(id)?)
        .await?;
    Ok(Json(TestResultEnvelope {
        success: true,
        data: result,
    }))
}

/// Revokes an endpoint at once: its pending deliveries are canceled and nothing more is
/// sent to it. Revoking a revoked endpoint answers the same.
#[utoipa::path(
    post,
    path = "/webhook-endpoints/{endpointId}/revoke",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "Revoked (status `REVOKED`)", body = EndpointEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint for this merchant", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn revoke_endpoint(
    State(endpoints): State<Endpoints>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<EndpointEnvelope>, ApiError> {
    principal.require_any(&[Scope::WebhooksManage])?;
    let endpoint = endpoints
        .revoke(&principal.merchant_id, &path_id(id)?)
        .await?;
    Ok(Json(EndpointEnvelope {
        success: true,
        data: endpoint,
    }))
}

/// Re-enables a DISABLED endpoint with a clean failure record. Deliveries canceled when it
/// was disabled stay canceled; resend the ones that matter.
#[utoipa::path(
    post,
    path = "/webhook-endpoints/{endpointId}/enable",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "ACTIVE (an ACTIVE endpoint answers the same)", body = EndpointEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint for this merchant", body = ErrorEnvelope),
        (status = 409, description = "The endpoint is revoked (`endpoint_revoked`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn enable_endpoint(
    State(endpoints): State<Endpoints>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<EndpointEnvelope>, ApiError> {
    principal.require_any(&[Scope::WebhooksManage])?;
    let endpoint = endpoints
        .enable(&principal.merchant_id, &path_id(id)?)
        .await?;
    Ok(Json(EndpointEnvelope {
        success: true,
        data: endpoint,
    }))
}

/// The endpoint's deliveries, newest first, each with its attempts.
#[utoipa::path(
    get,
    path = "/webhook-endpoints/{endpointId}/deliveries",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid), DeliveryQuery),
    responses(
        (status = 200, description = "Deliveries with their attempts", body = DeliveryListEnvelope),
        (status = 400, description = "`limit` out of range (`invalid_limit`) or `before` not a delivery id (`invalid_before`)", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint for this merchant (`webhook_endpoint_not_found`), or `before` is not one of its deliveries (`webhook_delivery_not_found`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn list_deliveries(
    State(endpoints): State<Endpoints>,
    principal: Principal,
    id: Result<Path<String>, PathRejection>,
    query: Result<Query<DeliveryQuery>, QueryRejection>,
) -> Result<Json<DeliveryListEnvelope>, ApiError> {
    principal.require_any(&[Scope::WebhooksManage])?;
    // An unreadable query is the service's to refuse, once it has found the endpoint.
    let page = query
        .map(|Query(q)| Page {
            limit: q.limit,
            cursor: q.before,
        })
        .map_err(|_| EndpointError::invalid_limit());
    let deliveries = endpoints
        .deliveries(&principal.merchant_id, &path_id(id)?, page)
        .await?;
    Ok(Json(DeliveryListEnvelope {
        success: true,
        data: deliveries,
    }))
}

/// Sends a delivery again (same id and body; fresh timestamp and signature), as soon as the
/// sender gets to it. If that attempt fails, the delivery goes on with the retries its
/// schedule has left (none for an exhausted one).
#[utoipa::path(
    post,
    path = "/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/resend",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid), ("deliveryId" = String, Path, format = Uuid)),
    responses(
        (status = 202, description = "Queued (status `PENDING`, due now)", body = DeliveryEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint or delivery for this merchant", body = ErrorEnvelope),
        (status = 409, description = "The endpoint is not ACTIVE (`endpoint_not_active`), or an attempt of this delivery is being sent (`delivery_in_flight`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn resend_delivery(
    State(endpoints): State<Endpoints>,
    principal: Principal,
    ids: Result<Path<(String, String)>, PathRejection>,
) -> Result<(StatusCode, Json<DeliveryEnvelope>), ApiError> {
    principal.require_any(&[Scope::WebhooksManage])?;
    let Path((endpoint_id, delivery_id)) = ids.map_err(|_| EndpointError::NotFound)?;
    let delivery = endpoints
        .resend(&principal.merchant_id, &endpoint_id, &delivery_id)
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(DeliveryEnvelope {
            success: true,
            data: delivery,
        }),
    ))
}

#[cfg(test)]
mod tests {
    use crate::webhooks::endpoints::request::{
        ENDPOINT_URL_PATTERN, NAME_MAX_CHARS, URL_MAX_CHARS,
    };

    /// The schema repeats the service's pattern as a literal, and its limits.
    #[test]
    fn the_document_states_the_url_and_name_rules() {
        let doc = serde_json::to_value(super::super::payments::openapi()).unwrap();
        let request = &doc["components"]["schemas"]["CreateEndpointRequest"]["properties"];
        assert_eq!(request["endpointUrl"]["pattern"], ENDPOINT_URL_PATTERN);
        assert_eq!(request["endpointUrl"]["maxLength"], URL_MAX_CHARS);
        assert_eq!(request["name"]["maxLength"], NAME_MAX_CHARS);
        let events = &doc["components"]["schemas"]["EventType"];
        assert_eq!(
            events["enum"],
            serde_json::json!([
                "payment.pending",
                "payment.succeeded",
                "payment.failed",
                "payment.canceled",
                "refund.succeeded",
                "refund.failed",
                "mandate.authorized",
                "mandate.rejected",
                "mandate.expired",
                "mandate.canceled",
                "payment.attempt_failed"
            ])
        );
    }
}
