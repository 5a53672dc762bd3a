//! `/operators`: the named tokens of the admin API and their roles; `/audit-events`: what
//! they changed ([`crate::operators`], DESIGN.md section 13).

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, conflict, ok, parse_body, uuid_param};
use crate::access::Actor;
use crate::db::audit::Action;
use crate::http::AppState;
use crate::http::extract::JsonBody;
use crate::http::responses::{
    AdminUnauthorized, PayloadTooLarge, RoleInsufficient, UnsupportedMediaType,
};
use crate::http::search::query_values;
use crate::http::{ApiError, ErrorEnvelope};
use crate::operators::{
    AuditEvent, AuditQuery, CreateOperator, Me, OperatorError, OperatorView, Operators,
};

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_operator, list_operators))
        .routes(routes!(me))
        .routes(routes!(revoke_operator))
        .routes(routes!(list_audit_events))
}

impl From<OperatorError> for ApiError {
    fn from(e: OperatorError) -> Self {
        let message = e.to_string();
        match e {
            OperatorError::Invalid(invalid) => invalid.into(),
            OperatorError::NotFound => Self::not_found("operator_not_found", message),
            OperatorError::NameTaken => conflict("operator_name_taken", &message),
            OperatorError::EventNotFound => Self::not_found("audit_event_not_found", message),
            OperatorError::Db(e) => e.into(),
            OperatorError::Crypto(e) => e.into(),
        }
    }
}

/// Issues an operator token of a role; the token is in this response only (SHA-256 is stored).
#[utoipa::path(post, path = "/operators", tag = "operators", request_body = CreateOperator,
    responses(
        (status = 201, description = "Issued; `token` is the bearer token", body = Envelope<OperatorView>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_field`, `invalid_name`, `invalid_role`); `field` names the field", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 409, description = "An operator not revoked has this name (`operator_name_taken`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn create_operator(
    State(operators): State<Operators>,
    actor: Actor,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateOperator = parse_body(body, &[("role", "invalid_role")])?;
    Ok(ok(
        StatusCode::CREATED,
        operators.create_operator(&actor, req).await?,
    ))
}

/// The list's parameters, as the query string carries them.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
struct OperatorListParams {
    /// At most this many operators, oldest first (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100, nullable = false)]
    limit: Option<String>,
    /// The `id` of the previous page's last operator: the operators created after it. 404
    /// `operator_not_found` if there is no such operator.
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
}

/// Lists the operators, oldest first, revoked ones included, a page at a time; never their
/// tokens. Pass the last `id` of a page as `after` for the next; a page shorter than `limit`
/// is the last.
#[utoipa::path(get, path = "/operators", tag = "operators", params(OperatorListParams),
    responses(
        (status = 200, description = "A page of operators, oldest first", body = Envelope<Vec<OperatorView>>),
        (status = 400, description = "A parameter's value breaks its rule, or it is given twice: `invalid_limit`, `invalid_after`; an unknown parameter: `unknown_field`. `field` names the parameter", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`after` is no operator (`operator_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_operators(
    State(operators): State<Operators>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let mut values = query_values(
        raw.as_deref(),
        &[("limit", "invalid_limit"), ("after", "invalid_after")],
    )?;
    let params = OperatorListParams {
        limit: values.remove("limit"),
        after: values.remove("after"),
    };
    Ok(ok(
        StatusCode::OK,
        operators
            .list_operators(params.limit.as_deref(), params.after.as_deref())
            .await?,
    ))
}

/// Who this token is: any valid token, of any role. The bootstrap admin token is the `admin`
/// with id `bootstrap`.
#[utoipa::path(get, path = "/operators/me", tag = "operators",
    responses(
        (status = 200, description = "The caller", body = Envelope<Me>),
        AdminUnauthorized, RoleInsufficient,
    ))]
async fn me(actor: Actor) -> impl IntoResponse {
    ok(StatusCode::OK, Me::from(&actor))
}

/// Revokes an operator: its token is refused from the next request on, on every instance.
/// Revoking a revoked operator answers the same.
#[utoipa::path(post, path = "/operators/{id}/revoke", tag = "operators",
    params(("id" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "Revoked", body = Envelope<OperatorView>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such operator (`operator_not_found`); the bootstrap token cannot be revoked here (change `PIXGATE_ADMIN_TOKEN`)", body = ErrorEnvelope),
    ))]
async fn revoke_operator(
    State(operators): State<Operators>,
    actor: Actor,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || OperatorError::NotFound.into())?;
    Ok(ok(
        StatusCode::OK,
        operators.revoke_operator(&actor, &id).await?,
    ))
}

/// The query string of `GET /audit-events`.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
struct AuditListParams {
    /// At most this many events, newest first (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100, nullable = false)]
    limit: Option<String>,
    /// The `eventId` of the previous page's last event: the events before it. 404
    /// `audit_event_not_found` if there is no such event.
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
    /// Only this operator's events: an operator's `id`, or `bootstrap`.
    #[param(
        pattern = "^(bootstrap|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$",
        nullable = false
    )]
    operator: Option<String>,
    /// Only events of this action.
    #[param(value_type = Option<Action>, nullable = false)]
    action: Option<String>,
    /// Only events on this target (`store/demo`, `operator/<id>`, ...).
    #[param(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$",
        nullable = false
    )]
    target: Option<String>,
    /// Only events at or after this time (RFC 3339; encode a `+` offset as `%2B`).
    #[param(format = DateTime, nullable = false)]
    since: Option<String>,
    /// Only events before this time (RFC 3339): `[since, until)`.
    #[param(format = DateTime, nullable = false)]
    until: Option<String>,
}

/// The audit trail: every admin write, newest first, a page at a time.
///
/// Each event names the operator, the action (`resource.verb`), the target (`kind/id`) and
/// the resource before and after the change, never a secret. `POST /evaluate` and
/// `POST /replays` change nothing and append none. Filters combine with AND; pass the last
/// `eventId` of a page as `after` for the next. Unknown parameters, and a parameter given
/// twice, are refused (400).
#[utoipa::path(get, path = "/audit-events", tag = "operators", params(AuditListParams),
    responses(
        (status = 200, description = "A page of audit events, newest first (at, then eventId, descending)", body = Envelope<Vec<AuditEvent>>),
        (status = 400, description = "A parameter's value breaks its rule, or it is given twice: `invalid_limit`, `invalid_after`, `invalid_operator`, `invalid_action`, `invalid_target`, `invalid_since`, `invalid_until`; an unknown parameter: `unknown_field`. `field` names the parameter", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`after` is no audit event (`audit_event_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_audit_events(
    State(operators): State<Operators>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let mut values = query_values(
        raw.as_deref(),
        &[
            ("limit", "invalid_limit"),
            ("after", "invalid_after"),
            ("operator", "invalid_operator"),
            ("action", "invalid_action"),
            ("target", "invalid_target"),
            ("since", "invalid_since"),
            ("until", "invalid_until"),
        ],
    )?;
    let params = AuditListParams {
        limit: values.remove("limit"),
        after: values.remove("after"),
        operator: values.remove("operator"),
        action: values.remove("action"),
        target: values.remove("target"),
        since: values.remove("since"),
        until: values.remove("until"),
    };
    let query = AuditQuery {
        limit: params.limit,
        after: params.after,
        operator: params.operator,
        action: params.action,
        target: params.target,
        since: params.since,
        until: params.until,
    };
    Ok(ok(StatusCode::OK, operators.audit_events(&query).await?))
}
