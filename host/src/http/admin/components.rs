//! Admin routes for policy components: versions, what each store runs (activation,
//! rollback, shadow candidates, kill switch), dry-run evaluation and replay.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, RawQuery, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok};
use crate::access::Actor;
use crate::components::canary::{CanaryRequest, CanaryView};
use crate::components::evaluate::Evaluation;
use crate::components::replay::ReplayRequest;
use crate::components::shadow::ShadowComparison;
use crate::components::{
    BudgetPatch, ComponentService, KillSwitchPatch, StoreComponents, VersionView,
};
use crate::http::AppState;
use crate::http::extract::{JsonBody, parse};
use crate::http::responses::{
    AdminUnauthorized, PayloadTooLarge, RoleInsufficient, UnsupportedMediaType,
};
use crate::http::search::query_values;
use crate::http::{ApiError, ErrorEnvelope};
use pixgate_domain::Step;
use pixgate_domain::evaluate::EvaluateRequest;
use pixgate_report::ReplayReport;

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    // An upload is read to its end before its size is judged (so the 413 reaches the
    // client), up to a bound far above any configurable limit.
    OpenApiRouter::new()
        .routes(routes!(upload, list))
        .layer(DefaultBodyLimit::max(UPLOAD_READ_LIMIT))
        .routes(routes!(delete, set_budget))
        .routes(routes!(store_components))
        .routes(routes!(activate))
        .routes(routes!(rollback))
        .routes(routes!(set_candidate, clear_candidate))
        .routes(routes!(shadow_comparison))
        .routes(routes!(start_canary, canary, end_canary))
        .routes(routes!(promote_canary))
        .routes(routes!(set_kill_switch))
        .routes(routes!(evaluate))
        .routes(routes!(replays))
}

const UPLOAD_READ_LIMIT: usize = 80 << 20;

fn step(raw: &str) -> Result<Step, ApiError> {
    raw.parse().map_err(|_| {
        ApiError::not_found(
            "unknown_step",
            "the step must be policy, provider or economics",
        )
    })
}

/// The upload's query string.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
struct UploadParams {
    /// What people will call this version beside its sha256 (1 to 100 characters, no control
    /// character): a file or crate name, a ticket, a release. The same bytes uploaded again
    /// with a label name a version that has none; a version's label is never replaced.
    #[param(
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]*$",
        nullable = false
    )]
    label: Option<String>,
}

/// Uploads a component: validated against the step's world, stored under its sha256.
///
/// The same bytes again answer 200 with the same version.
#[utoipa::path(post, path = "/components/{step}", tag = "components",
    params(("step" = String, Path, pattern = "^(policy|provider|economics)$"), UploadParams),
    request_body(description = "The component's bytes (wasm32 component model binary)",
                 content(("application/wasm"), ("application/octet-stream"))),
    responses(
        (status = 201, description = "Stored", body = Envelope<VersionView>),
        (status = 200, description = "These bytes were stored before", body = Envelope<VersionView>),
        (status = 400, description = "`invalid_label`, `unknown_field` (a query parameter other than `label`, or `label` twice); `invalid_component` (not a component, or it imports WASI outside the call: files or sockets not sealed by `pixgate policy seal`, HTTP, ...; the message names the import), `component_exceeds_limits` (one instance would need more than the sandbox gives one), `wrong_world` (names the missing export), `unsupported_import`", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`unknown_step`", body = ErrorEnvelope),
        (status = 413, description = "`component_too_large` (`PIXGATE_COMPONENT_MAX_BYTES`, default 32 MiB)", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is neither application/wasm nor application/octet-stream", body = ErrorEnvelope),
        (status = 429, description = "`too_many_uploads`: `PIXGATE_MAX_CONCURRENT_UPLOADS` (default 2) upload bodies are being read already; refused before this body is read. Retry after the `Retry-After` seconds", body = ErrorEnvelope,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
        (status = 507, description = "`component_store_full`: storing it would take the uploaded components over `PIXGATE_COMPONENT_STORE_MAX_BYTES` (default 2 GiB); the message names the versions no store uses, which may be deleted", body = ErrorEnvelope),
    ))]
async fn upload(
    State(components): State<ComponentService>,
    actor: Actor,
    Path(raw_step): Path<String>,
    RawQuery(raw_query): RawQuery,
    headers: HeaderMap,
    request: Request,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    let params = UploadParams {
        label: query_values(raw_query.as_deref(), &[("label", "invalid_label")])?.remove("label"),
    };
    let wasm_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| {
            let v = v.trim().to_ascii_lowercase();
            v == "application/wasm" || v == "application/octet-stream"
        })
        .unwrap_or(false);
    if !wasm_type {
        return Err(ApiError::WrongContentType {
            expected: "application/wasm",
        });
    }
    let label = params
        .label
        .as_deref()
        .map(crate::components::version_label)
        .transpose()?;
    // Decided before a byte of the body is read: a refused upload costs no memory.
    let _reading = components.upload_permit()?;
    let body = Bytes::from_request(request, &())
        .await
        .map_err(|rejection| {
            let too_large = ApiError::TooLarge {
                code: "component_too_large",
                message: format!(
                    "the component is larger than {} bytes",
                    components.max_bytes()
                ),
            };
            crate::http::extract::body_error(&rejection, too_large)
        })?;
    let uploaded = components.upload(&actor, step, &body, label).await?;
    let status = if uploaded.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok(ok(status, uploaded.view))
}

/// Lists a step's versions, newest first, with the stores that use each.
#[utoipa::path(get, path = "/components/{step}", tag = "components",
    params(("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    responses((status = 200, body = Envelope<Vec<VersionView>>), AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`unknown_step`", body = ErrorEnvelope)))]
async fn list(
    State(components): State<ComponentService>,
    Path(raw_step): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    Ok(ok(StatusCode::OK, components.list(step(&raw_step)?).await?))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Deleted {
    version: String,
    step: Step,
    deleted: bool,
}

/// Deletes a version nothing needs: no store runs, shadows or just ran it, no LIVE charge in
/// progress holds it, and no recorded trace within the trace retention names it.
#[utoipa::path(delete, path = "/components/{step}/{version}", tag = "components",
    params(("step" = String, Path, pattern = "^(policy|provider|economics)$"), ("version" = String, Path)),
    responses((status = 200, body = Envelope<Deleted>), AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`component_not_found`, `unknown_step`", body = ErrorEnvelope),
              (status = 409, description = "`component_in_use` (the message says what needs it, and until when for recorded traces), `component_bundled`", body = ErrorEnvelope)))]
async fn delete(
    State(components): State<ComponentService>,
    actor: Actor,
    Path((raw_step, version)): Path<(String, String)>,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    components.delete(&actor, step, &version).await?;
    Ok(ok(
        StatusCode::OK,
        Deleted {
            version,
            step,
            deleted: true,
        },
    ))
}

/// Sets a version's budget (fuel, linear memory) for all its calls, within the operator's
/// maxima; absent fields keep their value. Every instance uses it within about a second; a
/// call over it fails as before, `fuel_exhausted` or `memory_limit_exceeded`.
#[utoipa::path(patch, path = "/components/{step}/{version}", tag = "components",
    params(("step" = String, Path, pattern = "^(policy|provider|economics)$"), ("version" = String, Path)),
    request_body = BudgetPatch,
    responses((status = 200, body = Envelope<VersionView>),
              (status = 400, description = "`invalid_budget` (under the minimum) or a body that does not parse", body = ErrorEnvelope),
              AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`component_not_found`, `unknown_step`", body = ErrorEnvelope),
              (status = 422, description = "`budget_over_maximum` (`PIXGATE_COMPONENT_MAX_FUEL`, `PIXGATE_COMPONENT_MAX_MEMORY_BYTES`)", body = ErrorEnvelope),
              PayloadTooLarge, UnsupportedMediaType))]
async fn set_budget(
    State(components): State<ComponentService>,
    actor: Actor,
    Path((raw_step, version)): Path<(String, String)>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    let patch: BudgetPatch = parse(body)?;
    Ok(ok(
        StatusCode::OK,
        components.set_budget(&actor, step, &version, patch).await?,
    ))
}

/// What a store runs per step, its kill switch and its activation history.
#[utoipa::path(get, path = "/stores/{code}/components", tag = "components",
    params(("code" = String, Path)),
    responses((status = 200, body = Envelope<StoreComponents>), AdminUnauthorized, RoleInsufficient,
              (status = 404, body = ErrorEnvelope)))]
async fn store_components(
    State(components): State<ComponentService>,
    Path(code): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    Ok(ok(
        StatusCode::OK,
        components.store_components(&code).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct VersionBody {
    /// `bundled` or a version (sha256) of this step.
    #[schema(pattern = "^(bundled|[0-9a-f]{64})$")]
    version: String,
}

/// Activates a version for a store's step, atomically; charges in flight finish on the
/// versions they started with.
#[utoipa::path(put, path = "/stores/{code}/components/{step}", tag = "components",
    params(("code" = String, Path), ("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    request_body = VersionBody,
    responses((status = 200, body = Envelope<StoreComponents>), (status = 400, body = ErrorEnvelope),
              AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`store_not_found`, `component_not_found`, `unknown_step`", body = ErrorEnvelope),
              PayloadTooLarge, UnsupportedMediaType))]
async fn activate(
    State(components): State<ComponentService>,
    actor: Actor,
    Path((code, raw_step)): Path<(String, String)>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    let body: VersionBody = parse(body)?;
    Ok(ok(
        StatusCode::OK,
        components
            .activate(&actor, &code, step, &body.version)
            .await?,
    ))
}

/// Goes back to the version that was active before the current one.
#[utoipa::path(post, path = "/stores/{code}/components/{step}/rollback", tag = "components",
    params(("code" = String, Path), ("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    responses((status = 200, body = Envelope<StoreComponents>), AdminUnauthorized, RoleInsufficient,
              (status = 404, body = ErrorEnvelope),
              (status = 409, description = "`nothing_to_roll_back`", body = ErrorEnvelope)))]
async fn rollback(
    State(components): State<ComponentService>,
    actor: Actor,
    Path((code, raw_step)): Path<(String, String)>,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    Ok(ok(
        StatusCode::OK,
        components.rollback(&actor, &code, step).await?,
    ))
}

/// Attaches a shadow candidate to a store's step: it runs on every new charge off the
/// request path and its differences are recorded (the comparison restarts).
#[utoipa::path(put, path = "/stores/{code}/components/{step}/candidate", tag = "components",
    params(("code" = String, Path), ("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    request_body = VersionBody,
    responses((status = 200, body = Envelope<StoreComponents>), (status = 400, body = ErrorEnvelope),
              AdminUnauthorized, RoleInsufficient, (status = 404, body = ErrorEnvelope),
              PayloadTooLarge, UnsupportedMediaType))]
async fn set_candidate(
    State(components): State<ComponentService>,
    actor: Actor,
    Path((code, raw_step)): Path<(String, String)>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    let body: VersionBody = parse(body)?;
    Ok(ok(
        StatusCode::OK,
        components
            .set_candidate(&actor, &code, step, Some(&body.version))
            .await?,
    ))
}

/// Detaches the shadow candidate.
#[utoipa::path(delete, path = "/stores/{code}/components/{step}/candidate", tag = "components",
    params(("code" = String, Path), ("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    responses((status = 200, body = Envelope<StoreComponents>), AdminUnauthorized, RoleInsufficient,
              (status = 404, body = ErrorEnvelope)))]
async fn clear_candidate(
    State(components): State<ComponentService>,
    actor: Actor,
    Path((code, raw_step)): Path<(String, String)>,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    Ok(ok(
        StatusCode::OK,
        components.set_candidate(&actor, &code, step, None).await?,
    ))
}

/// The running comparison of the step's shadow candidate against the active version.
#[utoipa::path(get, path = "/stores/{code}/components/{step}/shadow", tag = "components",
    params(("code" = String, Path), ("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    responses((status = 200, body = Envelope<ShadowComparison>), AdminUnauthorized, RoleInsufficient,
              (status = 404, body = ErrorEnvelope)))]
async fn shadow_comparison(
    State(components): State<ComponentService>,
    Path((code, raw_step)): Path<(String, String)>,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    Ok(ok(
        StatusCode::OK,
        components.comparison(&code, step).await?,
    ))
}

/// Starts a canary: `percent` of the store's new charges run `version` for this step, the rest
/// the active version. Assignment is a pure function of the store, the step and the
/// Idempotency-Key. A canary charge whose step fails answers 503 `routing_unavailable`; the
/// canary ends by itself when its error rate (or changed rate, if limited) over its window
/// reaches the threshold with at least `minCalls` calls. A running canary of the step is
/// replaced.
#[utoipa::path(put, path = "/stores/{code}/components/{step}/canary", tag = "components",
    params(("code" = String, Path), ("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    request_body = CanaryRequest,
    responses((status = 200, body = Envelope<CanaryView>),
              (status = 400, description = "`invalid_canary` (a setting out of its range), `validation_error`", body = ErrorEnvelope),
              AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`store_not_found`, `component_not_found` (also a version of another step), `unknown_step`", body = ErrorEnvelope),
              (status = 409, description = "`canary_is_active`: the version is the one the store runs", body = ErrorEnvelope),
              PayloadTooLarge, UnsupportedMediaType))]
async fn start_canary(
    State(components): State<ComponentService>,
    actor: Actor,
    Path((code, raw_step)): Path<(String, String)>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    let body: CanaryRequest = parse(body)?;
    Ok(ok(
        StatusCode::OK,
        components.start_canary(&actor, &code, step, body).await?,
    ))
}

/// The step's newest canary, running or ended: its settings, share, error rate and changed
/// rate since it started and over its window, and `endedBy`/`endedReason` once it ended.
#[utoipa::path(get, path = "/stores/{code}/components/{step}/canary", tag = "components",
    params(("code" = String, Path), ("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    responses((status = 200, body = Envelope<CanaryView>), AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`store_not_found`, `canary_not_found` (the step never had one), `unknown_step`", body = ErrorEnvelope)))]
async fn canary(
    State(components): State<ComponentService>,
    Path((code, raw_step)): Path<(String, String)>,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    Ok(ok(StatusCode::OK, components.canary(&code, step).await?))
}

/// Ends the step's running canary; every new charge runs the active version again.
#[utoipa::path(delete, path = "/stores/{code}/components/{step}/canary", tag = "components",
    params(("code" = String, Path), ("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    responses((status = 200, body = Envelope<CanaryView>), AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`store_not_found`, `canary_not_found` (none is running), `unknown_step`", body = ErrorEnvelope)))]
async fn end_canary(
    State(components): State<ComponentService>,
    actor: Actor,
    Path((code, raw_step)): Path<(String, String)>,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    Ok(ok(
        StatusCode::OK,
        components.end_canary(&actor, &code, step).await?,
    ))
}

/// Activates the running canary's version for the store's step (the canary ends as
/// `promoted`).
#[utoipa::path(post, path = "/stores/{code}/components/{step}/canary/promote", tag = "components",
    params(("code" = String, Path), ("step" = String, Path, pattern = "^(policy|provider|economics)$")),
    responses((status = 200, body = Envelope<StoreComponents>), AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`store_not_found`, `canary_not_found` (none is running), `component_not_found`, `unknown_step`", body = ErrorEnvelope)))]
async fn promote_canary(
    State(components): State<ComponentService>,
    actor: Actor,
    Path((code, raw_step)): Path<(String, String)>,
) -> Result<impl IntoResponse, ApiError> {
    let step = step(&raw_step)?;
    Ok(ok(
        StatusCode::OK,
        components.promote_canary(&actor, &code, step).await?,
    ))
}

/// Changes a store's kill switch: an activated version whose share of failed calls over
/// the window reaches the threshold is rolled back automatically.
#[utoipa::path(put, path = "/stores/{code}/kill-switch", tag = "components",
    params(("code" = String, Path)), request_body = KillSwitchPatch,
    responses((status = 200, body = Envelope<StoreComponents>), (status = 400, body = ErrorEnvelope),
              AdminUnauthorized, RoleInsufficient, (status = 404, body = ErrorEnvelope),
              PayloadTooLarge, UnsupportedMediaType))]
async fn set_kill_switch(
    State(components): State<ComponentService>,
    actor: Actor,
    Path(code): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let patch: KillSwitchPatch = parse(body)?;
    Ok(ok(
        StatusCode::OK,
        components.set_kill_switch(&actor, &code, patch).await?,
    ))
}

/// Runs a charge through a store's chain (optionally with other versions) and returns the
/// decision with its full trace. Persists nothing.
#[utoipa::path(post, path = "/evaluate", tag = "components", request_body = EvaluateRequest,
    responses((status = 200, body = Envelope<Evaluation>), (status = 400, body = ErrorEnvelope),
              AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`store_not_found`, `component_not_found`", body = ErrorEnvelope),
              PayloadTooLarge, UnsupportedMediaType))]
async fn evaluate(
    State(components): State<ComponentService>,
    request: axum::extract::Request,
) -> Result<impl IntoResponse, ApiError> {
    let (body, literals) = JsonBody::read_checked(request, |bytes| {
        pixgate_domain::due::check_due_literals(bytes, true)?;
        Ok(pixgate_domain::charge::check_literals(bytes, true)?)
    })
    .await?;
    let request = EvaluateRequest::from_body(body, literals)?;
    Ok(ok(StatusCode::OK, components.evaluate(request).await?))
}

/// Replays a store's recorded charges with candidate versions and reports what changes.
/// With `Accept: application/x-ndjson` the answer is a stream of JSON lines: `{"progress":
/// {replayed, total}}` as pages of charges are re-run, then the envelope with the report (or
/// with the error, should one happen midway). A request refused before the replay starts gets
/// its plain error answer either way.
#[utoipa::path(post, path = "/replays", tag = "components", request_body = ReplayRequest,
    responses((status = 200, content(
                  (Envelope<ReplayReport> = "application/json"),
                  (super::replay_stream::ProgressLine = "application/x-ndjson"))),
              (status = 400, body = ErrorEnvelope),
              AdminUnauthorized, RoleInsufficient,
              (status = 404, description = "`store_not_found`, `component_not_found`", body = ErrorEnvelope),
              PayloadTooLarge, UnsupportedMediaType,
              (status = 429, description = "`too_many_replays`: the store runs `PIXGATE_MAX_CONCURRENT_REPLAYS_PER_STORE` replays already (default 1), or all stores `PIXGATE_MAX_CONCURRENT_REPLAYS` (default 2); as the plain answer with the stream too. Retry after the `Retry-After` seconds", body = ErrorEnvelope,
                  headers(("Retry-After" = u64, description = "Seconds to wait before retrying")))))]
async fn replays(
    State(components): State<ComponentService>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<axum::response::Response, ApiError> {
    let request: ReplayRequest = parse(body)?;
    if super::replay_stream::wanted(&headers) {
        return super::replay_stream::respond(components, request).await;
    }
    Ok(ok(StatusCode::OK, components.replay(request).await?).into_response())
}
