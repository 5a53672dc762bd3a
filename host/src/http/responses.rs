//! Response rows the routes share, written once: each type is one row of a route's
//! `responses(...)` (`responses((status = 200, ...), Unauthorized, RateLimited)`), always the
//! error envelope with the same status and description wherever it appears. A route whose
//! answer differs (its own 403 scopes, a component's own size limit) writes its row by hand.

use utoipa::IntoResponses;

use super::ErrorEnvelope;

/// The merchant API's authentication.
#[derive(IntoResponses)]
#[response(status = 401, description = "API key missing, invalid or revoked")]
pub struct Unauthorized(pub ErrorEnvelope);

/// The merchant API's per-key rate limit.
#[derive(IntoResponses)]
#[response(
    status = 429,
    description = "Rate limit of the key exceeded; see Retry-After"
)]
pub struct RateLimited(pub ErrorEnvelope);

/// The admin API's authentication.
#[derive(IntoResponses)]
#[response(
    status = 401,
    description = "Admin token missing (`missing_admin_token`), or not valid or revoked (`invalid_admin_token`)"
)]
pub struct AdminUnauthorized(pub ErrorEnvelope);

/// The admin API's roles: the token's role is below the route's (`http::auth::required_role`).
#[derive(IntoResponses)]
#[response(
    status = 403,
    description = "The token's role is below the one this route needs (`role_insufficient`); the message names it"
)]
pub struct RoleInsufficient(pub ErrorEnvelope);

/// A JSON body over the 64 KB every JSON route reads at most.
#[derive(IntoResponses)]
#[response(status = 413, description = "Body over 64 KB (`payload_too_large`)")]
pub struct PayloadTooLarge(pub ErrorEnvelope);

/// A batch's body over the 4 MB `POST /payments/charge-batches` reads at most.
#[derive(IntoResponses)]
#[response(status = 413, description = "Body over 4 MB (`payload_too_large`)")]
pub struct BatchTooLarge(pub ErrorEnvelope);

/// A JSON route sent another content type.
#[derive(IntoResponses)]
#[response(
    status = 415,
    description = "Content-Type is not application/json (`unsupported_media_type`)"
)]
pub struct UnsupportedMediaType(pub ErrorEnvelope);
