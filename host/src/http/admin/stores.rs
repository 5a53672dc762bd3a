//! `/stores`: create, read and change a store; the gateways it may use ([`crate::catalog`]);
//! list the stores ([`crate::search`]).

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, parse_body};
use crate::access::Actor;
use crate::catalog::{Catalog, CreateStore, PatchStore, StoreGateways, StoreView};
use crate::http::AppState;
use crate::http::extract::JsonBody;
use crate::http::responses::{
    AdminUnauthorized, PayloadTooLarge, RoleInsufficient, UnsupportedMediaType,
};
use crate::http::search::query_values;
use crate::http::{ApiError, ErrorEnvelope};
use crate::search::stores::ListedStore;
use crate::search::{Search, StoreQuery};
use pixgate_domain::StoreMode;

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_store, list_stores))
        .routes(routes!(get_store, patch_store))
        .routes(routes!(put_store_gateways))
}

/// What a refused `mode` answers instead of `invalid_field`.
const MODE_CODE: [(&str, &str); 1] = [("mode", "invalid_mode")];

/// The store code of the path. One that does not even decode is no code: the catalog answers
/// it as an unknown store, at the point where it looks for the store.
fn code_param(code: Result<Path<String>, PathRejection>) -> String {
    code.map(|Path(code)| code).unwrap_or_default()
}

/// Creates a store of a merchant.
#[utoipa::path(post, path = "/stores", tag = "admin", request_body = CreateStore,
    responses(
        (status = 201, description = "Created", body = Envelope<StoreView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_name`, `invalid_mode`, `invalid_store_config` (also a value that a key the bundled components read cannot hold, with `field` `config.<key>`), `invalid_charge_expiry`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No merchant with this code (`merchant_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "A store with this code exists (`store_code_taken`)", body = ErrorEnvelope),
        (status = 422, description = "`config` sets `limits.min-amount-centavos` above `limits.max-amount-centavos` (`invalid_store_config`), a rule between two keys", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn create_store(
    State(catalog): State<Catalog>,
    actor: Actor,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateStore = parse_body(body, &MODE_CODE)?;
    Ok(ok(
        StatusCode::CREATED,
        catalog.create_store(&actor, req).await?,
    ))
}

/// Reads a store.
#[utoipa::path(get, path = "/stores/{code}", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Store code")),
    responses(
        (status = 200, description = "The store", body = Envelope<StoreView>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No store with this code (`store_not_found`)", body = ErrorEnvelope),
    ))]
async fn get_store(
    State(catalog): State<Catalog>,
    code: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    Ok(ok(
        StatusCode::OK,
        catalog.get_store(&code_param(code)).await?,
    ))
}

/// Changes a store's name, mode, live switch, configuration or charge expiry.
#[utoipa::path(patch, path = "/stores/{code}", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Store code")),
    request_body = PatchStore,
    responses(
        (status = 200, description = "The store as changed", body = Envelope<StoreView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `unknown_field`, `invalid_field`, `invalid_name`, `invalid_mode`, `invalid_store_config` (also a value that a key the bundled components read cannot hold, with `field` `config.<key>`), `invalid_charge_expiry`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No store with this code (`store_not_found`)", body = ErrorEnvelope),
        (status = 422, description = "`config` sets `limits.min-amount-centavos` above `limits.max-amount-centavos` (`invalid_store_config`), a rule between two keys", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn patch_store(
    State(catalog): State<Catalog>,
    actor: Actor,
    code: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: PatchStore = parse_body(body, &MODE_CODE)?;
    Ok(ok(
        StatusCode::OK,
        catalog.patch_store(&actor, &code_param(code), req).await?,
    ))
}

/// Sets the gateways a store may use.
#[utoipa::path(put, path = "/stores/{code}/gateways", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Store code")),
    request_body = StoreGateways,
    responses(
        (status = 200, description = "The store with its grants", body = Envelope<StoreView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No store with this code (`store_not_found`), or no gateway with one of the aliases (`gateway_not_found`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn put_store_gateways(
    State(catalog): State<Catalog>,
    actor: Actor,
    code: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: StoreGateways = parse_body(body, &[])?;
    Ok(ok(
        StatusCode::OK,
        catalog
            .put_store_gateways(&actor, &code_param(code), req)
            .await?,
    ))
}

/// The list's parameters, as the query string carries them (each checked by the service).
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
struct StoreListParams {
    /// At most this many stores, oldest first (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100, nullable = false)]
    limit: Option<String>,
    /// The code of the previous page's last store: the stores created after it. 404
    /// `store_not_found` if there is no such store.
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    after: Option<String>,
    /// A merchant's code: only its stores.
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    merchant: Option<String>,
    /// Only stores in this mode.
    #[param(value_type = Option<StoreMode>, nullable = false)]
    mode: Option<String>,
}

/// Lists every store, oldest first, a page at a time.
///
/// Each store as `GET /stores/{code}` shows it, with `components`: the version it runs per
/// step. Filters combine with AND. Pass the last `code` of a page as `after` for the next; a
/// page shorter than `limit` is the last. Unknown parameters, and a parameter given twice,
/// are refused (400).
#[utoipa::path(get, path = "/stores", tag = "admin", params(StoreListParams),
    responses(
        (status = 200, description = "A page of stores, oldest first (creation time, then storeId)", body = Envelope<Vec<ListedStore>>),
        (status = 400, description = "A parameter's value breaks its rule, or it is given twice: `invalid_limit`, `invalid_after`, `invalid_merchant`, `invalid_mode`; an unknown parameter: `unknown_field`. `field` names the parameter", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`merchant` names no merchant (`merchant_not_found`), or `after` no store (`store_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_stores(
    State(search): State<Search>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let mut values = query_values(
        raw.as_deref(),
        &[
            ("limit", "invalid_limit"),
            ("after", "invalid_after"),
            ("merchant", "invalid_merchant"),
            ("mode", "invalid_mode"),
        ],
    )?;
    let params = StoreListParams {
        limit: values.remove("limit"),
        after: values.remove("after"),
        merchant: values.remove("merchant"),
        mode: values.remove("mode"),
    };
    let query = StoreQuery {
        limit: params.limit,
        after: params.after,
        merchant: params.merchant,
        mode: params.mode,
    };
    Ok(ok(StatusCode::OK, search.stores(&query).await?))
}
