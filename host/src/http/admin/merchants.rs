//! `/merchants`: create and list.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, conflict, ok, parse_body, require_code, require_name};
use crate::app::AppState;
use crate::db::{self, catalog, violated_constraint};
use crate::http::extract::JsonBody;
use crate::http::{ApiError, ErrorEnvelope};
use pixgate_pix::time::iso8601;

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new().routes(routes!(create_merchant, list_merchants))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct CreateMerchant {
    /// Unique; letters, digits, `.`, `_` and `-`.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "acme")]
    code: String,
    /// Not all blank, no control characters; stored trimmed.
    #[schema(
        min_length = 1,
        max_length = 200,
        example = "ACME Ltda",
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    name: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct MerchantView {
    #[schema(format = Uuid)]
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
    responses(
        (status = 201, description = "Created", body = Envelope<MerchantView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_name`); `field` names the field", body = ErrorEnvelope),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
        (status = 409, description = "A merchant with this code exists (`merchant_code_taken`)", body = ErrorEnvelope),
        (status = 413, description = "Body over 64 KB (`payload_too_large`)", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json (`unsupported_media_type`)", body = ErrorEnvelope),
    ))]
async fn create_merchant(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateMerchant = parse_body(body, &[])?;
    require_code(&req.code, "code")?;
    let merchant = catalog::Merchant {
        id: uuid::Uuid::now_v7().to_string(),
        code: req.code,
        name: require_name(&req.name, "name")?,
        created_at: db::now_ms(),
    };
    catalog::insert_merchant(&state.db.write, &merchant)
        .await
        .map_err(|e| match violated_constraint(&e).as_deref() {
            Some("merchants_code_key") => {
                conflict("merchant_code_taken", "a merchant with this code exists")
            }
            _ => e.into(),
        })?;
    Ok(ok(StatusCode::CREATED, MerchantView::from(merchant)))
}

/// Lists merchants.
#[utoipa::path(get, path = "/merchants", tag = "admin",
    responses(
        (status = 200, description = "Every merchant", body = Envelope<Vec<MerchantView>>),
        (status = 401, description = "Admin token missing or invalid", body = ErrorEnvelope),
    ))]
async fn list_merchants(State(state): State<Arc<AppState>>) -> Result<impl IntoResponse, ApiError> {
    let all = catalog::list_merchants(&state.db.read).await?;
    Ok(ok(
        StatusCode::OK,
        all.into_iter().map(MerchantView::from).collect::<Vec<_>>(),
    ))
}
