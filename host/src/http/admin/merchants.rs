//! `/merchants`: create and list.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, constraint_error, ok, require_code, require_name};
use crate::bootstrap::AppState;
use crate::db::{self, catalog};
use crate::http::extract::{JsonBody, parse};
use crate::http::views::iso8601;
use crate::http::{ApiError, ErrorEnvelope};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new().routes(routes!(create_merchant, list_merchants))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct CreateMerchant {
    code: String,
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct MerchantView {
    merchant_id: String,
    code: String,
    name: String,
    created_at: String,
}

impl From<catalog::Merchant> for MerchantView {
    fn from(m: catalog::Merchant) -> Self {
        Self {
            merchant_id: m.id,
            code: m.code,
            name: m.name,
            created_at: iso8601(m.created_at),
        }
    }
}

/// Creates a merchant.
#[utoipa::path(post, path = "/merchants", tag = "admin", request_body = CreateMerchant,
    responses((status = 201, body = Envelope<MerchantView>), (status = 400, body = ErrorEnvelope),
              (status = 401, body = ErrorEnvelope), (status = 409, body = ErrorEnvelope)))]
async fn create_merchant(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateMerchant = parse(body)?;
    require_code(&req.code, "code")?;
    require_name(&req.name, "name")?;
    let merchant = catalog::Merchant {
        id: uuid::Uuid::now_v7().to_string(),
        code: req.code,
        name: req.name.trim().to_owned(),
        created_at: db::now_ms(),
    };
    catalog::insert_merchant(&state.db.write, &merchant)
        .await
        .map_err(constraint_error)?;
    Ok(ok(StatusCode::CREATED, MerchantView::from(merchant)))
}

/// Lists merchants.
#[utoipa::path(get, path = "/merchants", tag = "admin",
    responses((status = 200, body = Envelope<Vec<MerchantView>>), (status = 401, body = ErrorEnvelope)))]
async fn list_merchants(State(state): State<Arc<AppState>>) -> Result<impl IntoResponse, ApiError> {
    let all = catalog::list_merchants(&state.db.read).await?;
    Ok(ok(
        StatusCode::OK,
        all.into_iter().map(MerchantView::from).collect::<Vec<_>>(),
    ))
}
