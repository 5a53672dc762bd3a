//! Who is calling, in HTTP terms: the `Authorization: Bearer` header, handed to
//! [`Access`] for the [`Principal`] of a merchant API key or the [`Actor`] of an admin token;
//! and the role each admin route needs ([`required_role`]), checked before any handler runs.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts, MatchedPath, Request, State};
use axum::http::Method;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;
use crate::access::{Access, Actor, Principal, Role};
use crate::http::AppState;

/// Which API a bearer credential is presented to: its refusals name that API's credential
/// (a merchant's API key, or an admin token), never the other's.
#[derive(Clone, Copy)]
enum Credential {
    ApiKey,
    AdminToken,
}

fn bearer(parts: &Parts, credential: Credential) -> Result<&str, ApiError> {
    let (missing, malformed, what) = match credential {
        Credential::ApiKey => ("missing_api_key", "invalid_api_key", "key"),
        Credential::AdminToken => ("missing_admin_token", "invalid_admin_token", "token"),
    };
    let header = parts
        .headers
        .get(axum::http::header::AUTHORIZATION)
        .ok_or_else(|| ApiError::Unauthorized {
            code: missing,
            message: format!("the Authorization header with a Bearer {what} is missing"),
        })?;
    let malformed = || ApiError::Unauthorized {
        code: malformed,
        message: format!("the Authorization header must be `Bearer <{what}>`"),
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
        let token = bearer(parts, Credential::ApiKey)?;
        Ok(Access::from_ref(state).merchant(token).await?)
    }
}

/// Where the admin routes are nested: [`MatchedPath`] holds the full pattern.
const ADMIN_BASE: &str = "/admin/v1";

/// The least role that may call an admin route: `method` on the route `pattern` as the router
/// matched it, relative to `/admin/v1` (`/stores/{code}`). Every GET is a `viewer`'s; a write
/// not named here is an `admin`'s, so a route added without a line here is closed to all but
/// admins until someone decides.
pub fn required_role(method: &Method, pattern: &str) -> Role {
    if *method == Method::GET || *method == Method::HEAD {
        return Role::Viewer;
    }
    let m = method.as_str();
    match (m, pattern) {
        ("POST", "/evaluate" | "/replays")
        | ("PUT" | "DELETE", "/stores/{code}/components/{step}/candidate") => Role::Tester,
        ("POST", "/components/{step}")
        | ("DELETE", "/components/{step}/{version}")
        | ("PATCH", "/components/{step}/{version}")
        | ("PUT", "/stores/{code}/components/{step}")
        | ("POST", "/stores/{code}/components/{step}/rollback")
        | ("PUT" | "DELETE", "/stores/{code}/components/{step}/canary")
        | ("POST", "/stores/{code}/components/{step}/canary/promote")
        | ("PUT", "/stores/{code}/kill-switch")
        | ("POST", "/stores")
        | ("PATCH", "/stores/{code}")
        | ("PUT", "/stores/{code}/gateways")
        | ("POST", "/gateways")
        | ("PATCH", "/gateways/{alias}")
        | ("POST", "/payment-intents/{paymentIntentId}/resolve")
        | ("POST", "/reconciliations")
        | ("POST", "/webhook-deliveries/{deliveryId}/resend") => Role::Operator,
        _ => Role::Admin,
    }
}

/// The acting operator, put in the request's extensions by [`require_admin`].
impl<S: Send + Sync> FromRequestParts<S> for Actor {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts.extensions.get::<Actor>().cloned().ok_or_else(|| {
            ApiError::Internal(crate::internal::Internal::broken(
                "an admin route ran without require_admin",
            ))
        })
    }
}

/// Middleware of the admin API: the token's operator, whose role must reach the route's
/// ([`required_role`]); the handlers get the operator as an [`Actor`].
pub async fn require_admin(State(access): State<Access>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let actor = match bearer(&parts, Credential::AdminToken) {
        Ok(token) => access.admin(token).await,
        Err(e) => return e.into_response(),
    };
    let actor = match actor {
        Ok(actor) => actor,
        Err(e) => return ApiError::from(e).into_response(),
    };
    // No matched route (an unknown path): the strictest role, like any unnamed route.
    let pattern = parts
        .extensions
        .get::<MatchedPath>()
        .and_then(|m| m.as_str().strip_prefix(ADMIN_BASE))
        .unwrap_or_default();
    let needed = required_role(&parts.method, pattern);
    if actor.role < needed {
        return ApiError::Forbidden {
            code: "role_insufficient",
            message: format!(
                "this operation needs the `{needed}` role; this token's role is `{}`",
                actor.role
            ),
        }
        .into_response();
    }
    parts.extensions.insert(actor);
    next.run(Request::from_parts(parts, body)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_need_the_roles_of_design_section_13() {
        let cases = [
            (Method::GET, "/operators", Role::Viewer),
            (Method::GET, "/audit-events", Role::Viewer),
            (Method::POST, "/evaluate", Role::Tester),
            (
                Method::DELETE,
                "/stores/{code}/components/{step}/candidate",
                Role::Tester,
            ),
            (
                Method::PUT,
                "/stores/{code}/components/{step}",
                Role::Operator,
            ),
            (
                Method::POST,
                "/webhook-deliveries/{deliveryId}/resend",
                Role::Operator,
            ),
            (Method::POST, "/merchants", Role::Admin),
            (Method::PATCH, "/providers/{code}", Role::Admin),
            (Method::POST, "/operators/{id}/revoke", Role::Admin),
            (Method::POST, "/a-route-nobody-mapped", Role::Admin),
            (Method::DELETE, "", Role::Admin),
        ];
        for (method, pattern, role) in cases {
            assert_eq!(required_role(&method, pattern), role, "{method} {pattern}");
        }
    }
}
