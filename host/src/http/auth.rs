//! Who is calling, in HTTP terms: the `Authorization: Bearer` header, handed to
//! [`Access`] for the [`Principal`] of a merchant API key or the admin token's pass.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;
use crate::access::{Access, Principal};
use crate::app::AppState;

fn bearer(parts: &Parts) -> Result<&str, ApiError> {
    let header =
        parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .ok_or(ApiError::Unauthorized {
                code: "missing_api_key",
                message: "the Authorization header with a Bearer key is missing".into(),
            })?;
    let malformed = || ApiError::Unauthorized {
        code: "invalid_api_key",
        message: "the Authorization header must be `Bearer <key>`".into(),
    };
    let value = header.to_str().map_err(|_| malformed())?;
    let (scheme, token) = value.split_once(' ').ok_or_else(malformed)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(malformed());
    }
    Ok(token)
}

impl FromRequestParts<Arc<AppState>> for Principal {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Self, ApiError> {
        let token = bearer(parts)?;
        Ok(Access::from_ref(state).merchant(token).await?)
    }
}

/// Middleware of the admin API: the admin token.
pub async fn require_admin(State(access): State<Access>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let checked = bearer(&parts).and_then(|token| Ok(access.admin(token)?));
    if let Err(e) = checked {
        return e.into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}
