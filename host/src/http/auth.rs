//! Who is calling: the [`Principal`] of a merchant API key (with its scopes, store grants and
//! a rate limit), and the admin token.

use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use pixgate_domain::sha256_hex;

use super::ApiError;
use crate::access::{Principal, Scope};
use crate::app::AppState;
use crate::crypto;
use crate::db::keys;

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
        let invalid = || ApiError::Unauthorized {
            code: "invalid_api_key",
            message: "the API key is not valid".into(),
        };
        if !token.starts_with("pxg_") || token.len() > 128 {
            return Err(invalid());
        }
        let found = state
            .keys
            .authenticate(&state.db, &sha256_hex(token))
            .await?
            .ok_or_else(invalid)?;
        let keys::Authenticated {
            key,
            merchant_code,
            store_ids,
        } = &*found;
        if key.revoked_at.is_some() {
            return Err(ApiError::Unauthorized {
                code: "api_key_revoked",
                message: "the API key has been revoked".into(),
            });
        }
        if let Some(limiter) = &state.rate_limiter
            && let Err(not_until) = limiter.check_key(&key.id)
        {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(ApiError::RateLimited {
                retry_after_secs: wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
            });
        }
        Ok(Principal {
            merchant_id: key.merchant_id.clone(),
            merchant_code: merchant_code.clone(),
            scopes: Scope::parse_list(&key.scopes),
            store_ids: store_ids.clone(),
        })
    }
}

/// Middleware of the admin API: the admin token, compared in constant time.
pub async fn require_admin(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let token = match bearer(&parts) {
        Ok(token) => token,
        Err(e) => return e.into_response(),
    };
    if !crypto::same_secret(&sha256_hex(token), &state.admin_token_hash) {
        return ApiError::Unauthorized {
            code: "invalid_admin_token",
            message: "the admin token is not valid".into(),
        }
        .into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}
