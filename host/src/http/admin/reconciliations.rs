//! `/reconciliations`: the ledger sweep's runs, asked for by an operator or by the schedule,
//! and their findings ([`crate::reconciliation`], DESIGN.md section 18).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Envelope, ok, parse_body, uuid_param};
use crate::access::Actor;
use crate::db::reconciliations::Finding;
use crate::http::AppState;
use crate::http::extract::JsonBody;
use crate::http::responses::{
    AdminUnauthorized, PayloadTooLarge, RoleInsufficient, UnsupportedMediaType,
};
use crate::http::search::query_values;
use crate::http::{ApiError, ErrorEnvelope};
use crate::reconciliation::{ReconcileError, Reconciliations, RunView};
use pixgate_domain::due::Date;
use pixgate_domain::json::Invalid;
use pixgate_domain::money::brl;
use pixgate_domain::reconciliation::{FindingKind, ReconciliationStatus, ReconciliationTrigger};
use pixgate_pix::time::iso8601;

pub(super) fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(request_run, list_runs))
        .routes(routes!(get_run))
        .routes(routes!(list_findings))
        .routes(routes!(export_findings))
}

/// Body of `POST /reconciliations`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RunRequest {
    /// The provider whose day is swept.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$")]
    provider: String,
    /// The Brasília day, `YYYY-MM-DD`, up to today (today: the day so far).
    #[schema(format = Date, example = "2026-11-26")]
    date: String,
}

/// A run of the ledger sweep.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Reconciliation {
    #[schema(format = Uuid)]
    reconciliation_id: String,
    provider: String,
    /// The Brasília day swept.
    #[schema(format = Date)]
    date: String,
    status: ReconciliationStatus,
    trigger: ReconciliationTrigger,
    /// The operator who asked (none for the schedule's runs).
    requested_by: Option<String>,
    /// Pages of the PSP's list read, and the pix they held.
    pages: i64,
    pix: i64,
    /// Findings by kind (`matched` included); kinds not found are absent.
    counts: BTreeMap<FindingKind, i64>,
    started_at: String,
    finished_at: Option<String>,
    /// Why a `FAILED` run stopped.
    error: Option<String>,
}

impl From<RunView> for Reconciliation {
    fn from(v: RunView) -> Self {
        let r = v.run;
        Self {
            reconciliation_id: r.id,
            provider: r.provider_code,
            date: r.day,
            status: r.status,
            trigger: r.trigger,
            requested_by: r.requested_by,
            pages: r.pages,
            pix: r.pix,
            counts: v.counts.into_iter().collect(),
            started_at: iso8601(r.started_at),
            finished_at: r.finished_at.map(iso8601),
            error: r.error,
        }
    }
}

/// What the sweep found about one pix, devolução or paid intent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct FindingView {
    #[schema(format = Uuid)]
    finding_id: String,
    kind: FindingKind,
    /// The run's provider.
    provider: String,
    end_to_end_id: Option<String>,
    txid: Option<String>,
    /// As the PSP reports it (the pix's or the devolução's `valor`), in BRL.
    amount: Option<f64>,
    /// pixgate's, where the finding compares one, in BRL.
    local_amount: Option<f64>,
    #[schema(format = Uuid)]
    payment_intent_id: Option<String>,
    #[schema(format = Uuid)]
    refund_id: Option<String>,
    detail: String,
    created_at: String,
}

impl FindingView {
    fn new(provider: &str, f: Finding) -> Self {
        let money = |c: Option<i64>| c.map(|c| brl(c.max(0) as u64));
        Self {
            finding_id: f.id,
            kind: f.kind,
            provider: provider.to_owned(),
            end_to_end_id: f.end_to_end_id,
            txid: f.txid,
            amount: money(f.amount_centavos),
            local_amount: money(f.local_amount_centavos),
            payment_intent_id: f.payment_intent_id,
            refund_id: f.refund_id,
            detail: f.detail,
            created_at: iso8601(f.created_at),
        }
    }
}

/// Sweeps a provider's day now: every page of the pix its PSP lists as received that day
/// (`GET /pix`), matched to the intents and refunds, then the intents paid here that it did not
/// list. Answers 202 with the run `RUNNING`; read it (`GET /reconciliations/{id}`) until
/// `DONE` or `FAILED`. What is paid at the PSP and pending here is settled as a read would
/// (with its event); devoluções pixgate did not ask for are recorded as refunds.
#[utoipa::path(post, path = "/reconciliations", tag = "admin",
    request_body = RunRequest,
    responses(
        (status = 202, description = "The run, started", body = Envelope<Reconciliation>),
        (status = 400, description = "The body breaks the schema (`invalid_json`, `invalid_request`, `missing_field`, `unknown_field`, `invalid_provider`, `invalid_date`: not a date, or after today in Brasília)", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such provider (`provider_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "A run of that provider and day is running (`reconciliation_running`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
    ))]
async fn request_run(
    State(runs): State<Reconciliations>,
    actor: Actor,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let req: RunRequest = parse_body(
        body,
        &[("provider", "invalid_provider"), ("date", "invalid_date")],
    )?;
    if !pixgate_domain::valid_code(&req.provider) {
        return Err(
            Invalid::new("invalid_provider", "provider", "`provider` is not a code").into(),
        );
    }
    let date = Date::parse(&req.date)
        .ok_or_else(|| Invalid::new("invalid_date", "date", "`date` is not YYYY-MM-DD"))?;
    let run = runs.request(&req.provider, date, &actor).await?;
    let view = runs.get(&run.id).await?;
    Ok(ok(StatusCode::ACCEPTED, Reconciliation::from(view)))
}

/// The list's parameters.
#[allow(dead_code)] // Read through `query_values`; the struct states the document.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
struct RunParams {
    /// Items per page, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100, nullable = false)]
    limit: Option<i64>,
    /// The last `reconciliationId` of the previous page.
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
    /// Only this provider's runs.
    #[param(pattern = "^[A-Za-z0-9._-]{1,64}$", nullable = false)]
    provider: Option<String>,
}

fn limit_of(values: &mut std::collections::HashMap<&'static str, String>) -> Result<i64, ApiError> {
    match values.remove("limit") {
        None => Ok(20),
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=100).contains(n))
            .ok_or_else(|| {
                Invalid::new(
                    "invalid_limit",
                    "limit",
                    "`limit` is a whole number from 1 to 100",
                )
                .into()
            }),
    }
}

fn after_of(
    values: &mut std::collections::HashMap<&'static str, String>,
) -> Result<Option<String>, ApiError> {
    values
        .remove("after")
        .map(|a| {
            uuid::Uuid::parse_str(&a)
                .map(|u| u.to_string())
                .map_err(|_| Invalid::new("invalid_after", "after", "`after` is not a UUID").into())
        })
        .transpose()
}

/// Lists the ledger sweep's runs, newest first, a page at a time (pass the last
/// `reconciliationId` as `after` for the next; a page shorter than `limit` is the last).
#[utoipa::path(get, path = "/reconciliations", tag = "admin",
    params(RunParams),
    responses(
        (status = 200, description = "A page of runs, newest first", body = Envelope<Vec<Reconciliation>>),
        (status = 400, description = "`invalid_limit`, `invalid_after`, `invalid_provider`, `unknown_field`", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "`after` is no run (`reconciliation_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_runs(
    State(runs): State<Reconciliations>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let mut values = query_values(
        raw.as_deref(),
        &[
            ("limit", "invalid_limit"),
            ("after", "invalid_after"),
            ("provider", "invalid_provider"),
        ],
    )?;
    let limit = limit_of(&mut values)?;
    let after = after_of(&mut values)?;
    let provider = values
        .remove("provider")
        .map(|p| {
            if pixgate_domain::valid_code(&p) {
                Ok(p)
            } else {
                Err(Invalid::new(
                    "invalid_provider",
                    "provider",
                    "`provider` is not a code",
                ))
            }
        })
        .transpose()?;
    let page = runs
        .list(provider.as_deref(), after.as_deref(), limit)
        .await?;
    let page: Vec<Reconciliation> = page.into_iter().map(Reconciliation::from).collect();
    Ok(ok(StatusCode::OK, page))
}

/// One run, with its findings counted by kind.
#[utoipa::path(get, path = "/reconciliations/{reconciliationId}", tag = "admin",
    params(("reconciliationId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The run", body = Envelope<Reconciliation>),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such run (`reconciliation_not_found`)", body = ErrorEnvelope),
    ))]
async fn get_run(
    State(runs): State<Reconciliations>,
    id: Result<Path<String>, PathRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || ReconcileError::NotFound.into())?;
    Ok(ok(
        StatusCode::OK,
        Reconciliation::from(runs.get(&id).await?),
    ))
}

/// The findings' parameters.
#[allow(dead_code)] // Read through `query_values`; the struct states the document.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
struct FindingParams {
    /// Items per page, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100, nullable = false)]
    limit: Option<i64>,
    /// The last `findingId` of the previous page.
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
    /// Only this kind (`matched` findings are listed only when asked for).
    #[param(nullable = false)]
    kind: Option<FindingKind>,
}

/// A run's findings in the order they were made, a page at a time: every kind but `matched`,
/// or the `kind` asked for.
#[utoipa::path(get, path = "/reconciliations/{reconciliationId}/findings", tag = "admin",
    params(("reconciliationId" = String, Path, format = Uuid), FindingParams),
    responses(
        (status = 200, description = "A page of findings", body = Envelope<Vec<FindingView>>),
        (status = 400, description = "`invalid_limit`, `invalid_after`, `invalid_kind`, `unknown_field`", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such run (`reconciliation_not_found`)", body = ErrorEnvelope),
    ))]
async fn list_findings(
    State(runs): State<Reconciliations>,
    id: Result<Path<String>, PathRejection>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || ReconcileError::NotFound.into())?;
    let mut values = query_values(
        raw.as_deref(),
        &[
            ("limit", "invalid_limit"),
            ("after", "invalid_after"),
            ("kind", "invalid_kind"),
        ],
    )?;
    let limit = limit_of(&mut values)?;
    let after = after_of(&mut values)?;
    let kind = kind_of(&mut values)?;
    let (provider, page) = runs.findings(&id, kind, after.as_deref(), limit).await?;
    let page: Vec<FindingView> = page
        .into_iter()
        .map(|f| FindingView::new(&provider, f))
        .collect();
    Ok(ok(StatusCode::OK, page))
}

fn kind_of(
    values: &mut std::collections::HashMap<&'static str, String>,
) -> Result<Option<FindingKind>, ApiError> {
    Ok(values
        .remove("kind")
        .map(|k| {
            k.parse::<FindingKind>()
                .map_err(|_| Invalid::new("invalid_kind", "kind", "`kind` is not a finding kind"))
        })
        .transpose()?)
}

/// The export's parameters.
#[allow(dead_code)] // Read through `query_values`; the struct states the document.
#[derive(Debug, Default, IntoParams)]
#[into_params(parameter_in = Query)]
struct ExportParams {
    /// Only this kind (`matched` findings are exported only when asked for).
    #[param(nullable = false)]
    kind: Option<FindingKind>,
}

/// Every finding of a run (every kind but `matched`, or the `kind` asked for) as CSV, in the
/// order they were made: a header line of the JSON field names, then a line per finding,
/// amounts as decimals with two places.
#[utoipa::path(get, path = "/reconciliations/{reconciliationId}/findings.csv", tag = "admin",
    params(("reconciliationId" = String, Path, format = Uuid), ExportParams),
    responses(
        (status = 200, description = "The findings as CSV", body = String, content_type = "text/csv"),
        (status = 400, description = "`invalid_kind`, `unknown_field`", body = ErrorEnvelope),
        AdminUnauthorized, RoleInsufficient,
        (status = 404, description = "No such run (`reconciliation_not_found`)", body = ErrorEnvelope),
    ))]
async fn export_findings(
    State(runs): State<Reconciliations>,
    id: Result<Path<String>, PathRejection>,
    RawQuery(raw): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let id = uuid_param(id, || ReconcileError::NotFound.into())?;
    let mut values = query_values(raw.as_deref(), &[("kind", "invalid_kind")])?;
    let kind = kind_of(&mut values)?;
    let body = runs.findings_csv(&id, kind).await?;
    Ok(super::settlements::csv_response(
        body,
        &format!("findings-{id}.csv"),
    ))
}
