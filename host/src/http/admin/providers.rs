//! `/providers`: the PSPs pixgate executes LIVE charges at ([`crate::psp::providers`]).

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, conflict, ok, parse_body, path_param, require_code, require_name};
use crate::access::Actor;
use crate::http::AppState;
use crate::http::extract::JsonBody;
use crate::http::responses::{
    AdminUnauthorized, PayloadTooLarge, RoleInsufficient, UnsupportedMediaType,
};
use crate::http::{ApiError, ErrorEnvelope};
use crate::psp::providers::{
    ACCOUNT_FIELD_CODES, CreateProvider, PatchProvider, ProviderAdmin, ProviderError, ProviderView,
};
use pixgate_domain::valid_code;

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_provider, list_providers))
        .routes(routes!(get_provider, patch_provider))
}

impl From<ProviderError> for ApiError {
    fn from(e: ProviderError) -> Self {
        let message = e.to_string();
        match e {
            ProviderError::Invalid(invalid) => invalid.into(),
            ProviderError::Unprocessable { code, field, .. } => Self::Unprocessable {
                code,
                field,
                message,
            },
            ProviderError::NotFound(_) => Self::not_found("provider_not_found", message),
            ProviderError::CodeTaken(_) => conflict("provider_code_taken", &message),
            // Not reached by these routes: they neither build clients nor filter on `active`.
            e @ (ProviderError::Inactive(_) | ProviderError::Tls { .. }) => {
                Self::Internal(crate::internal::Internal::of(e))
            }
            ProviderError::Db(e) => e.into(),
            ProviderError::Crypto(e) => e.into(),
        }
    }
}

fn provider_not_found() -> ApiError {
    ApiError::not_found("provider_not_found", "provider not found")
}

/// The provider code of the path; one that cannot be a code is as unknown as any other.
fn code_param(code: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    let code = path_param(code, provider_not_found)?;
    if valid_code(&code) {
        Ok(code)
    } else {
        Err(provider_not_found())
    }
}

/// Registers a PSP: its API Pix, OAuth2 client and pix key, TLS material, and the receiving
/// account that lets it take mandates.
#[utoipa::path(post, path = "/providers", tag = "admin", request_body = CreateProvider,
    responses(
        (status = 201, description = "Created, active. Secrets are never returned", body = Envelope<ProviderView>),
        (status = 400, description = "The body breaks the schema or a rule it cannot state (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_code`, `invalid_name`, `invalid_url`, `url_not_https`, `invalid_client_id`, `invalid_client_secret`, `invalid_pix_key`, `invalid_ca_pem`, `invalid_client_cert_pem`, `invalid_client_key_pem`, `invalid_account`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 409, description = "A provider with this code exists (`provider_code_taken`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
        (status = 422, description = "`tls.clientKeyPem` is not the key of `tls.clientCertPem` (`client_key_mismatch`), or one of the two is missing (`incomplete_client_identity`)", body = ErrorEnvelope),
    ))]
async fn create_provider(
    State(providers): State<ProviderAdmin>,
    actor: Actor,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateProvider = parse_body(body, &ACCOUNT_FIELD_CODES)?;
    require_code(&req.code, "code")?;
    let name = require_name(&req.name, "name")?;
    let new = req.validate(name)?;
    let provider = providers.create(&actor, new).await?;
    Ok(ok(StatusCode::CREATED, provider))
}

/// Lists the providers.
#[utoipa::path(get, path = "/providers", tag = "admin",
    responses(
        (status = 200, description = "Every provider, by code, active or not", body = Envelope<Vec<ProviderView>>),
        AdminUnauthorized, RoleInsufficient,
    ))]
async fn list_providers(
    State(providers): State<ProviderAdmin>,
) -> Result<impl IntoResponse, ApiError> {
    Ok(ok(StatusCode::OK, providers.list().await?))
}

/// Reads a provider.
#[utoipa::path(get, path = "/providers/{code}", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Provider code")),
    responses(
        (status = 200, description = "The provider", body = Envelope<ProviderView>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No provider with this code (`provider_not_found`)", body = ErrorEnvelope),
    ))]
async fn get_provider(
    State(providers): State<ProviderAdmin>,
    code: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let code = code_param(code)?;
    Ok(ok(StatusCode::OK, providers.get(&code).await?))
}

/// Changes a provider: endpoints, credentials, pix key, TLS material, receiving account, or
/// switches it off.
#[utoipa::path(patch, path = "/providers/{code}", tag = "admin",
    params(("code" = String, Path, pattern = "^[A-Za-z0-9._-]{1,64}$", description = "Provider code")),
    request_body = PatchProvider,
    responses(
        (status = 200, description = "The provider as changed", body = Envelope<ProviderView>),
        (status = 400, description = "The body breaks the schema or a rule it cannot state (`invalid_json`, `invalid_request`, `unknown_field`, `invalid_field`, `invalid_name`, `invalid_url`, `url_not_https`, `invalid_client_id`, `invalid_client_secret`, `invalid_pix_key`, `invalid_ca_pem`, `invalid_client_cert_pem`, `invalid_client_key_pem`, `invalid_account`, `missing_field` for an `account` without all three fields); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No provider with this code (`provider_not_found`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
        (status = 422, description = "`tls.clientKeyPem` is not the key of `tls.clientCertPem` (`client_key_mismatch`), or one of the two is missing (`incomplete_client_identity`)", body = ErrorEnvelope),
    ))]
async fn patch_provider(
    State(providers): State<ProviderAdmin>,
    actor: Actor,
    code: Result<Path<String>, PathRejection>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: PatchProvider = parse_body(body, &ACCOUNT_FIELD_CODES)?;
    let code = code_param(code)?;
    let name = req
        .name
        .as_deref()
        .map(|n| require_name(n, "name"))
        .transpose()?;
    let changes = req.validate(name)?;
    let provider = providers.update(&actor, &code, changes).await?;
    Ok(ok(StatusCode::OK, provider))
}
