//! `/merchants`: create and list ([`crate::catalog`]).

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, parse_body};
use crate::access::Actor;
use crate::catalog::{Catalog, CreateMerchant, MerchantView};
use crate::http::AppState;
use crate::http::extract::JsonBody;
use crate::http::responses::{
    AdminUnauthorized, PayloadTooLarge, RoleInsufficient, UnsupportedMediaType,
};
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new().routes(routes!(create_merchant, list_merchants))
}

/// Creates a merchant.
#[utoipa::path(post, path = "/merchants", tag = "admin", request_body = CreateMerchant,
    responses(
        (status = 201, description = "Created", body = Envelope<MerchantView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_name`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 409, description = "A merchant with this code exists (`merchant_code_taken`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn create_merchant(
    State(catalog): State<Catalog>,
    actor: Actor,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateMerchant = parse_body(body, &[])?;
    Ok(ok(
        StatusCode::CREATED,
        catalog.create_merchant(&actor, req).await?,
    ))
}

/// Lists merchants.
#[utoipa::path(get, path = "/merchants", tag = "admin",
    responses(
        (status = 200, description = "Every merchant", body = Envelope<Vec<MerchantView>>),
        AdminUnauthorized, RoleInsufficient,
    ))]
async fn list_merchants(State(catalog): State<Catalog>) -> Result<impl IntoResponse, ApiError> {
    Ok(ok(StatusCode::OK, catalog.list_merchants().await?))
}
