//! The merchant API's webhook-endpoint routes (scope `webhooks:manage`): create, list, test
//! and revoke from the contract; re-enable, the delivery log and resend beyond it.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{JsonBody, check_fields, string_field};
use super::{ApiError, ErrorEnvelope};
use crate::access::{Principal, Scope};
use crate::app::AppState;
use crate::crypto;
use crate::db;
use crate::db::webhooks::{self as sql, DeliveryStatus, EndpointStatus};
use crate::webhooks::{EventType as Event, worker};
use pixgate_domain::json::bounded;
use pixgate_pix::time::iso8601;

pub const SIGNING_ALGORITHM: &str = "HMAC-SHA256";
const URL_MAX_CHARS: usize = 2048;
const NAME_MAX_CHARS: usize = 120;

// Pieces of ENDPOINT_URL_PATTERN: macros, so that `concat!` can join them into one literal.
macro_rules! h16 {
    () => {
        "[0-9A-Fa-f]{1,4}"
    };
}
macro_rules! octet {
    () => {
        "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
    };
}
macro_rules! ipv4 {
    () => {
        concat!("(", octet!(), "[.]){3}", octet!())
    };
}
macro_rules! ls32 {
    () => {
        concat!("(", h16!(), ":", h16!(), "|", ipv4!(), ")")
    };
}
// The characters of a host name label as sent, hyphens aside: ASCII letters and digits, and
// the non-ASCII characters of the Basic Multilingual Plane, which IDNA maps (the UTF-16
// surrogates left out, so ECMA-262 engines without the `u` flag read the class alike).
macro_rules! non_ascii {
    () => {
        r"\u0080-\uD7FF\uE000-\uFFFF"
    };
}
macro_rules! label_chars {
    () => {
        concat!("A-Za-z0-9", non_ascii!())
    };
}

/// The shape of the endpoint URLs accepted, as sent: `https://` in any case, a host, an
/// optional port from 1 to 65535, then a path and a query of URL characters, anything else
/// percent-encoded (and `'` in the query). A host name is only shaped here (labels of letters,
/// digits and non-ASCII characters with hyphens inside, the last not starting with a digit,
/// so it is not read as an IPv4 address); whether it is a valid name is the IDNA rules'
/// call, which no pattern states ([`normalise_url`] applies them with the `url` crate). So
/// the schema's pattern, this one repeated as a literal on [`CreateEndpointRequest`] (a test
/// holds them together), refuses nothing the route accepts, and accepts nothing it refuses
/// except host names that IDNA refuses.
// One alternative of the IPv6 grammar per line.
#[rustfmt::skip]
const ENDPOINT_URL_PATTERN: &str = concat!(
    "^[Hh][Tt][Tt][Pp][Ss]://(",
    "([", label_chars!(), "]+(-+[", label_chars!(), "]+)*[.])*",
    "[A-Za-z", non_ascii!(), "][", label_chars!(), "]*(-+[", label_chars!(), "]+)*",
    "|", ipv4!(),
    // RFC 3986's IPv6address, in brackets.
    "|\\[(",
    "(", h16!(), ":){6}", ls32!(),
    "|::(", h16!(), ":){5}", ls32!(),
    "|(", h16!(), ")?::(", h16!(), ":){4}", ls32!(),
    "|((", h16!(), ":)?", h16!(), ")?::(", h16!(), ":){3}", ls32!(),
    "|((", h16!(), ":){0,2}", h16!(), ")?::(", h16!(), ":){2}", ls32!(),
    "|((", h16!(), ":){0,3}", h16!(), ")?::", h16!(), ":", ls32!(),
    "|((", h16!(), ":){0,4}", h16!(), ")?::", ls32!(),
    "|((", h16!(), ":){0,5}", h16!(), ")?::", h16!(),
    "|((", h16!(), ":){0,6}", h16!(), ")?::",
    ")\\])",
    // An optional port, 1 to 65535, without leading zeros (port 0 cannot be connected to).
    "(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?",
    "(/([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?",
    "([?]([A-Za-z0-9._~!$&()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$",
);

static ENDPOINT_URL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(ENDPOINT_URL_PATTERN).expect("ENDPOINT_URL_PATTERN")
});

/// DNS's limits on a name in ASCII (RFC 1035): a longer one can never resolve.
const HOST_MAX_CHARS: usize = 253;
const LABEL_MAX_CHARS: usize = 63;

pub fn routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::new()
        .routes(routes!(create_endpoint, list_endpoints))
        .routes(routes!(test_endpoint))
        .routes(routes!(revoke_endpoint))
        .routes(routes!(enable_endpoint))
        .routes(routes!(list_deliveries))
        .routes(routes!(resend_delivery))
}

/// Body of `POST /webhook-endpoints`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"name": "orders", "endpointUrl": "https://shop.example.com/webhooks/pixgate"}))]
#[allow(dead_code)] // the schema; the handler validates the JSON itself for precise errors
pub struct CreateEndpointRequest {
    /// At most 120 characters, no control characters (null or absent: empty).
    #[schema(max_length = 120, pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$")]
    name: Option<String>,
    /// `https://` (the scheme in any case); a host name, an IPv4 address or a bracketed IPv6
    /// address; an optional port from 1 to 65535; then a path and a query of URL characters:
    /// percent-encode any other (and `'` in the query). No credentials, no fragment. At most
    /// 2048 characters.
    ///
    /// A host name follows the IDNA rules (UTS #46, as WHATWG URL parsers apply them), which
    /// the pattern does not state: once in ASCII, its labels are letters, digits and hyphens,
    /// not starting or ending with a hyphen (`--` inside is fine, as in punycode's `xn--`
    /// labels, which must decode), at most 63 characters each and 253 in all, the last
    /// starting with a letter. A name in Unicode (`https://açaí.com.br/`) is accepted and
    /// stored in its ASCII form (`https://xn--aa-4iaz.com.br/`), the one deliveries are sent
    /// to; the response shows it.
    #[schema(
        max_length = 2048,
        pattern = r"^[Hh][Tt][Tt][Pp][Ss]://(([A-Za-z0-9\u0080-\uD7FF\uE000-\uFFFF]+(-+[A-Za-z0-9\u0080-\uD7FF\uE000-\uFFFF]+)*[.])*[A-Za-z\u0080-\uD7FF\uE000-\uFFFF][A-Za-z0-9\u0080-\uD7FF\uE000-\uFFFF]*(-+[A-Za-z0-9\u0080-\uD7FF\uE000-\uFFFF]+)*|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])|\[(([0-9A-Fa-f]{1,4}:){6}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|::([0-9A-Fa-f]{1,4}:){5}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|([0-9A-Fa-f]{1,4})?::([0-9A-Fa-f]{1,4}:){4}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:)?[0-9A-Fa-f]{1,4})?::([0-9A-Fa-f]{1,4}:){3}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:){0,2}[0-9A-Fa-f]{1,4})?::([0-9A-Fa-f]{1,4}:){2}([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:){0,3}[0-9A-Fa-f]{1,4})?::[0-9A-Fa-f]{1,4}:([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:){0,4}[0-9A-Fa-f]{1,4})?::([0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))|(([0-9A-Fa-f]{1,4}:){0,5}[0-9A-Fa-f]{1,4})?::[0-9A-Fa-f]{1,4}|(([0-9A-Fa-f]{1,4}:){0,6}[0-9A-Fa-f]{1,4})?::)\])(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(/([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?([?]([A-Za-z0-9._~!$&()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$"
    )]
    endpoint_url: String,
    /// Payment events to receive, repeats ignored (null or absent: all four).
    #[schema(min_items = 1)]
    events: Option<Vec<EventType>>,
}

#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[allow(dead_code)]
enum EventType {
    #[serde(rename = "payment.pending")]
    Pending,
    #[serde(rename = "payment.succeeded")]
    Succeeded,
    #[serde(rename = "payment.failed")]
    Failed,
    #[serde(rename = "payment.canceled")]
    Canceled,
}

/// A webhook endpoint as its owner sees it (never with its secret).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    #[schema(format = Uuid)]
    endpoint_id: String,
    name: String,
    #[schema(format = "uri")]
    endpoint_url: String,
    #[schema(example = json!(["payment.pending", "payment.succeeded", "payment.failed", "payment.canceled"]))]
    events: Vec<String>,
    /// `ACTIVE`, `DISABLED` (after failing continuously; see the enable route) or `REVOKED`.
    status: EndpointStatus,
    /// Consecutive failed attempts; a success resets it.
    failure_count: i64,
    last_delivery: Option<LastDelivery>,
    #[schema(example = "HMAC-SHA256")]
    signing_algorithm: &'static str,
    #[schema(example = "X-Service-Signature")]
    signature_header: &'static str,
    #[schema(example = "X-Service-Timestamp")]
    timestamp_header: &'static str,
    created_at: String,
}

/// The most recent delivery attempted to an endpoint.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LastDelivery {
    #[schema(format = Uuid)]
    delivery_id: String,
    #[schema(example = "payment.succeeded")]
    event: String,
    /// `PENDING` (retrying), `DELIVERED`, `FAILED` (a test), `EXHAUSTED` or `CANCELED`.
    status: DeliveryStatus,
    http_status: Option<i64>,
    attempted_at: Option<String>,
    error: Option<String>,
}

/// The creation response: the endpoint plus its signing secret, shown only here.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedEndpoint {
    #[serde(flatten)]
    endpoint: Endpoint,
    /// `whsec_` + base64 of 32 random bytes. The HMAC key is this whole string as UTF-8.
    #[schema(example = "whsec_3q2+7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")]
    signing_secret: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedEndpointEnvelope {
    success: bool,
    data: CreatedEndpoint,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EndpointEnvelope {
    success: bool,
    data: Endpoint,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EndpointListEnvelope {
    success: bool,
    data: Vec<Endpoint>,
}

/// What the test delivery did.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestResult {
    #[schema(format = Uuid)]
    delivery_id: String,
    /// `DELIVERED` or `FAILED`.
    status: DeliveryStatus,
    http_status: Option<u16>,
    duration_ms: i64,
    /// Why it failed: a stable code then details, e.g. `http_status: HTTP 500`,
    /// `redirect_not_followed: HTTP 302`, `target_refused: ...` (a host that does not resolve or
    /// resolves to a refused address), `tls_failed: ...`, `timeout`.
    error: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TestResultEnvelope {
    success: bool,
    data: TestResult,
}

/// One delivery (one event to one endpoint) with its attempts.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    #[schema(format = Uuid)]
    delivery_id: String,
    event: String,
    /// `PENDING`, `DELIVERED`, `FAILED` (a test), `EXHAUSTED` or `CANCELED`.
    status: DeliveryStatus,
    attempt_count: i64,
    /// When the next attempt is due (PENDING only).
    next_attempt_at: Option<String>,
    created_at: String,
    completed_at: Option<String>,
    /// Why it was canceled or how its last attempt failed.
    last_error: Option<String>,
    attempts: Vec<AttemptView>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttemptView {
    attempt: i64,
    attempted_at: String,
    http_status: Option<i64>,
    duration_ms: i64,
    error: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryListEnvelope {
    success: bool,
    data: Vec<Delivery>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryEnvelope {
    success: bool,
    data: Delivery,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DeliveryQuery {
    /// At most this many, newest first (default 50).
    #[param(minimum = 1, maximum = 200, nullable = false)]
    limit: Option<i64>,
    /// A delivery id: only the deliveries created before it (the last one of the previous
    /// page).
    #[param(format = Uuid, nullable = false)]
    before: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EndpointQuery {
    /// At most this many, oldest first (default 50).
    #[param(minimum = 1, maximum = 200, nullable = false)]
    limit: Option<i64>,
    /// An endpoint id: only the endpoints created after it (the last one of the previous
    /// page).
    #[param(format = Uuid, nullable = false)]
    after: Option<String>,
}

/// A list's page size: 1 to 200, 50 when not given.
fn page_limit(limit: Option<i64>) -> Result<i64, ApiError> {
    let limit = limit.unwrap_or(50);
    if (1..=200).contains(&limit) {
        Ok(limit)
    } else {
        Err(invalid_limit())
    }
}

fn invalid_limit() -> ApiError {
    ApiError::invalid(
        "invalid_limit",
        "limit",
        "`limit` must be a number from 1 to 200",
    )
}

fn endpoint_not_found() -> ApiError {
    ApiError::not_found("webhook_endpoint_not_found", "webhook endpoint not found")
}

/// Parses the path id; a malformed id is as unknown as any other.
fn uuid_path(
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<String, ApiError> {
    let Path(id) = id.map_err(|_| endpoint_not_found())?;
    uuid::Uuid::parse_str(&id)
        .map(|u| u.to_string())
        .map_err(|_| endpoint_not_found())
}

async fn own_endpoint(
    state: &AppState,
    principal: &Principal,
    id: &str,
) -> Result<sql::Endpoint, ApiError> {
    sql::endpoint_of_merchant(&state.db.read, &principal.merchant_id, id)
        .await?
        .ok_or_else(endpoint_not_found)
}

/// The scope check and the caller's endpoint named by the path, which every per-endpoint
/// route starts with.
async fn managed_endpoint(
    state: &AppState,
    principal: &Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<sql::Endpoint, ApiError> {
    principal.require_any(&[Scope::WebhooksManage])?;
    own_endpoint(state, principal, &uuid_path(id)?).await
}

async fn view(state: &AppState, e: &sql::Endpoint) -> Result<Endpoint, ApiError> {
    let last_delivery = match &e.last_delivery_id {
        Some(id) => sql::delivery(&state.db.read, id)
            .await?
            .map(|d| LastDelivery {
                delivery_id: d.id,
                event: d.event_type,
                status: d.status,
                http_status: d.last_http_status,
                attempted_at: d.last_attempt_at.map(iso8601),
                error: d.last_error,
            }),
        None => None,
    };
    Ok(Endpoint {
        endpoint_id: e.id.clone(),
        name: e.name.clone(),
        endpoint_url: e.url.clone(),
        events: serde_json::from_str(&e.events)
            .map_err(|err| ApiError::Internal(format!("endpoint {} events: {err}", e.id)))?,
        status: e.status,
        failure_count: e.failure_count,
        last_delivery,
        signing_algorithm: SIGNING_ALGORITHM,
        signature_header: pixgate_webhook::SIGNATURE_HEADER,
        timestamp_header: pixgate_webhook::TIMESTAMP_HEADER,
        created_at: iso8601(e.created_at),
    })
}

/// An absolute https URL with a host, without credentials or fragment, in its normal form
/// (lower-case scheme and host, a Unicode host name in its ASCII form, no default port),
/// which is also what duplicates are judged on and what deliveries are sent to.
pub fn normalise_url(raw: &str) -> Result<String, ApiError> {
    let invalid = |why: &str| {
        ApiError::invalid(
            "invalid_endpoint_url",
            "endpointUrl",
            format!("`endpointUrl` {why}"),
        )
    };
    if raw.chars().count() > URL_MAX_CHARS {
        return Err(invalid("must have at most 2048 characters"));
    }
    let url = url::Url::parse(raw).map_err(|e| invalid(&format!("is not a URL: {e}")))?;
    if url.scheme() != "https" {
        return Err(ApiError::invalid(
            "endpoint_url_not_https",
            "endpointUrl",
            "`endpointUrl` must be an https:// URL",
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid("must not carry credentials"));
    }
    if url.fragment().is_some() {
        return Err(invalid("must not have a fragment"));
    }
    if url.port() == Some(0) {
        return Err(invalid("must not have port 0"));
    }
    if !ENDPOINT_URL.is_match(raw) {
        return Err(invalid(
            "must be https:// with a host name, an IP address, an optional port from 1 to \
             65535, and a path and query of URL characters (percent-encode the others)",
        ));
    }
    // The pattern shaped the host; the URL parser judged it by IDNA (an `xn--` label that
    // does not decode, a character IDNA refuses) and put a name in ASCII. What is left is
    // what a name must be to resolve, and that a name stays a name.
    match url.host() {
        Some(url::Host::Domain(name)) => {
            check_host_name(name).map_err(|why| invalid(&format!("has a host name {why}")))?
        }
        Some(url::Host::Ipv4(ip)) => {
            // IDNA maps some names to an address (full-width digits): only an address written
            // as one is taken for one. The pattern guarantees the 8 bytes of `https://`.
            let written = raw[8..]
                .strip_prefix(ip.to_string().as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([':', '/', '?']));
            if !written {
                return Err(invalid("has a host name that stands for an IP address"));
            }
        }
        Some(url::Host::Ipv6(_)) => {}
        None => return Err(invalid("must have a host")),
    }
    Ok(url.to_string())
}

/// A host name in ASCII, as the URL parser leaves it (lower case, IDNA applied): labels of
/// letters, digits and hyphens, not first or last, within DNS's lengths; the last starts with
/// a letter (a top-level domain never starts with a digit).
fn check_host_name(name: &str) -> Result<(), String> {
    if name.len() > HOST_MAX_CHARS {
        return Err(format!(
            "of {} characters in ASCII; the most is {HOST_MAX_CHARS}",
            name.len()
        ));
    }
    for label in name.split('.') {
        if label.is_empty() || label.len() > LABEL_MAX_CHARS {
            return Err(format!(
                "with a label of {} characters in ASCII; each must have 1 to {LABEL_MAX_CHARS}",
                label.len()
            ));
        }
        if !label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            || label.starts_with('-')
            || label.ends_with('-')
        {
            return Err(format!(
                "with the label `{label}`; labels are letters, digits and hyphens, not first \
                 or last"
            ));
        }
    }
    if !name
        .rsplit('.')
        .next()
        .is_some_and(|tld| tld.starts_with(|c: char| c.is_ascii_alphabetic()))
    {
        return Err("whose last label does not start with a letter".to_owned());
    }
    Ok(())
}

fn parse_events(value: Option<&Value>) -> Result<Vec<String>, ApiError> {
    let invalid = |message: String| ApiError::invalid("invalid_events", "events", message);
    let list = match value {
        None | Some(Value::Null) => {
            return Ok(Event::PAYMENT.map(|e| e.as_str().to_owned()).to_vec());
        }
        Some(Value::Array(list)) => list,
        Some(_) => return Err(invalid("`events` must be an array of event names".into())),
    };
    if list.is_empty() {
        return Err(invalid("`events` must name at least one event".into()));
    }
    let mut events: Vec<String> = Vec::new();
    for item in list {
        match item.as_str() {
            Some(name) if Event::payment(name).is_some() => {
                if !events.iter().any(|e| e == name) {
                    events.push(name.to_owned());
                }
            }
            _ => {
                return Err(invalid(format!(
                    "`events` may hold only {}; got {item}",
                    Event::PAYMENT.map(Event::as_str).join(", ")
                )));
            }
        }
    }
    Ok(events)
}

/// Registers an HTTPS endpoint. Its signing secret is in this response only.
#[utoipa::path(
    post,
    path = "/webhook-endpoints",
    tag = "webhooks",
    request_body = CreateEndpointRequest,
    responses(
        (status = 201, description = "Endpoint created, ACTIVE; `signingSecret` appears only here", body = CreatedEndpointEnvelope),
        (status = 400, description = "Invalid URL (`invalid_endpoint_url`, `endpoint_url_not_https`), events (`invalid_events`) or name", body = ErrorEnvelope),
        (status = 401, description = "API key missing, invalid or revoked", body = ErrorEnvelope),
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 409, description = "The merchant already has a live endpoint at this URL (`duplicate_endpoint`), or as many endpoints that are not revoked as `PIXGATE_WEBHOOK_MAX_ENDPOINTS` allows (`endpoint_limit_reached`)", body = ErrorEnvelope),
        (status = 413, description = "Body over 64 KB", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json", body = ErrorEnvelope),
        (status = 429, description = "Rate limit of the key exceeded; see Retry-After", body = ErrorEnvelope),
    )
)]
async fn create_endpoint(
    State(state): State<Arc<AppState>>,
    principal: Principal,
    request: axum::extract::Request,
) -> Result<(StatusCode, Json<CreatedEndpointEnvelope>), ApiError> {
    // Scope before body, as on every merchant route.
    principal.require_any(&[Scope::WebhooksManage])?;
    let body = JsonBody::read(request).await?;
    let object = body.as_object().ok_or_else(|| ApiError::Invalid {
        code: "invalid_request",
        message: "the body must be a JSON object".into(),
        field: None,
    })?;
    check_fields(object, &["name", "endpointUrl", "events"], "")?;
    let url = normalise_url(
        string_field(object, "endpointUrl", "endpointUrl", true)?.unwrap_or_default(),
    )?;
    let name = match string_field(object, "name", "name", false)? {
        Some(name) => bounded(name, "name", "invalid_name", 0, NAME_MAX_CHARS)?,
        None => String::new(),
    };
    let events = parse_events(object.get("events"))?;

    let secret = format!(
        "whsec_{}",
        base64::engine::general_purpose::STANDARD.encode(crypto::random_bytes::<32>()?)
    );
    let now = db::now_ms();
    let row = sql::Endpoint {
        id: uuid::Uuid::new_v4().to_string(),
        merchant_id: principal.merchant_id.clone(),
        name,
        url: url.clone(),
        url_normalized: url,
        events: serde_json::to_string(&events).unwrap_or_default(),
        status: EndpointStatus::Active,
        secret_sealed: state.master_key.seal(secret.as_bytes())?,
        failure_count: 0,
        failing_since: None,
        last_failure_at: None,
        last_delivery_id: None,
        created_at: now,
        updated_at: now,
        disabled_at: None,
        revoked_at: None,
    };
    let cap = state.webhooks.settings.max_endpoints;
    match sql::insert_endpoint_capped(&state.db.write, state.db.backend, &row, cap).await {
        Ok(true) => {}
        Ok(false) => {
            return Err(ApiError::Conflict {
                code: "endpoint_limit_reached",
                message: format!(
                    "this merchant already has {cap} webhook endpoints that are not revoked; \
                     revoke one first"
                ),
            });
        }
        Err(e) => {
            return Err(match db::violated_constraint(&e).as_deref() {
                Some("webhook_endpoints_merchant_id_key") => ApiError::Conflict {
                    code: "duplicate_endpoint",
                    message: "this merchant already has a live webhook endpoint at this URL".into(),
                },
                _ => e.into(),
            });
        }
    }
    tracing::info!(endpoint = %row.id, merchant = %principal.merchant_code, "webhook endpoint created");
    Ok((
        StatusCode::CREATED,
        Json(CreatedEndpointEnvelope {
            success: true,
            data: CreatedEndpoint {
                endpoint: view(&state, &row).await?,
                signing_secret: secret,
            },
        }),
    ))
}

/// The merchant's webhook endpoints (every status), without secrets, oldest first, a page
/// at a time: pass the last id of a page as `after` for the next; a page shorter than
/// `limit` is the last.
#[utoipa::path(
    get,
    path = "/webhook-endpoints",
    tag = "webhooks",
    params(EndpointQuery),
    responses(
        (status = 200, description = "Endpoints, oldest first", body = EndpointListEnvelope),
        (status = 400, description = "`limit` out of range (`invalid_limit`) or `after` not an endpoint id (`invalid_after`)", body = ErrorEnvelope),
        (status = 404, description = "`after` is not one of this merchant's endpoints (`webhook_endpoint_not_found`)", body = ErrorEnvelope),
        (status = 401, description = "API key missing, invalid or revoked", body = ErrorEnvelope),
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 429, description = "Rate limit of the key exceeded; see Retry-After", body = ErrorEnvelope),
    )
)]
async fn list_endpoints(
    State(state): State<Arc<AppState>>,
    principal: Principal,
    query: Result<Query<EndpointQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<EndpointListEnvelope>, ApiError> {
    principal.require_any(&[Scope::WebhooksManage])?;
    let Query(query) = query.map_err(|_| invalid_limit())?;
    let limit = page_limit(query.limit)?;
    let after = match &query.after {
        Some(id) => {
            let id = uuid::Uuid::parse_str(id).map_err(|_| {
                ApiError::invalid("invalid_after", "after", "`after` must be an endpoint id")
            })?;
            let cursor =
                sql::endpoint_of_merchant(&state.db.read, &principal.merchant_id, &id.to_string())
                    .await?
                    .ok_or_else(endpoint_not_found)?;
            Some((cursor.created_at, cursor.id))
        }
        None => None,
    };
    let rows =
        sql::endpoints_of_merchant(&state.db.read, &principal.merchant_id, after, limit).await?;
    let mut data = Vec::with_capacity(rows.len());
    for row in &rows {
        data.push(view(&state, row).await?);
    }
    Ok(Json(EndpointListEnvelope {
        success: true,
        data,
    }))
}

/// Sends a `webhook.test` event now and answers what happened. It does not count toward the
/// endpoint's failure count.
#[utoipa::path(
    post,
    path = "/webhook-endpoints/{endpointId}/test",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "The attempt completed (delivered or not); see `status`", body = TestResultEnvelope),
        (status = 401, description = "API key missing, invalid or revoked", body = ErrorEnvelope),
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint for this merchant", body = ErrorEnvelope),
        (status = 409, description = "The endpoint is revoked (`endpoint_revoked`)", body = ErrorEnvelope),
        (status = 429, description = "Rate limit of the key exceeded; see Retry-After", body = ErrorEnvelope),
    )
)]
async fn test_endpoint(
    State(state): State<Arc<AppState>>,
    principal: Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<Json<TestResultEnvelope>, ApiError> {
    let endpoint = managed_endpoint(&state, &principal, id).await?;
    if endpoint.status == EndpointStatus::Revoked {
        return Err(revoked());
    }
    let (delivery_id, outcome) = match worker::deliver_test(&state, &endpoint).await {
        Ok(done) => done,
        Err(worker::TestError::Revoked) => return Err(revoked()),
        Err(e) => return Err(ApiError::Internal(e.to_string())),
    };
    Ok(Json(TestResultEnvelope {
        success: true,
        data: TestResult {
            delivery_id,
            status: if outcome.succeeded() {
                DeliveryStatus::Delivered
            } else {
                DeliveryStatus::Failed
            },
            http_status: outcome.http_status,
            duration_ms: outcome.duration_ms,
            error: outcome.error,
        },
    }))
}

fn revoked() -> ApiError {
    ApiError::Conflict {
        code: "endpoint_revoked",
        message: "this webhook endpoint is revoked".into(),
    }
}

/// Revokes an endpoint at once: its pending deliveries are canceled and nothing more is
/// sent to it. Revoking a revoked endpoint answers the same.
#[utoipa::path(
    post,
    path = "/webhook-endpoints/{endpointId}/revoke",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "Revoked (status `REVOKED`)", body = EndpointEnvelope),
        (status = 401, description = "API key missing, invalid or revoked", body = ErrorEnvelope),
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint for this merchant", body = ErrorEnvelope),
        (status = 429, description = "Rate limit of the key exceeded; see Retry-After", body = ErrorEnvelope),
    )
)]
async fn revoke_endpoint(
    State(state): State<Arc<AppState>>,
    principal: Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<Json<EndpointEnvelope>, ApiError> {
    let endpoint = managed_endpoint(&state, &principal, id).await?;
    let now = db::now_ms();
    let mut tx = state.db.write.begin().await?;
    if sql::set_endpoint_status(
        &mut *tx,
        &endpoint.id,
        &[EndpointStatus::Active, EndpointStatus::Disabled],
        EndpointStatus::Revoked,
        now,
    )
    .await?
    {
        let canceled = sql::cancel_pending(&mut *tx, &endpoint.id, "endpoint_revoked", now).await?;
        tracing::info!(endpoint = %endpoint.id, canceled, "webhook endpoint revoked");
    }
    tx.commit().await?;
    let endpoint = own_endpoint(&state, &principal, &endpoint.id).await?;
    Ok(Json(EndpointEnvelope {
        success: true,
        data: view(&state, &endpoint).await?,
    }))
}

/// Re-enables a DISABLED endpoint with a clean failure record. Deliveries canceled when it
/// was disabled stay canceled; resend the ones that matter.
#[utoipa::path(
    post,
    path = "/webhook-endpoints/{endpointId}/enable",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid)),
    responses(
        (status = 200, description = "ACTIVE (an ACTIVE endpoint answers the same)", body = EndpointEnvelope),
        (status = 401, description = "API key missing, invalid or revoked", body = ErrorEnvelope),
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint for this merchant", body = ErrorEnvelope),
        (status = 409, description = "The endpoint is revoked (`endpoint_revoked`)", body = ErrorEnvelope),
        (status = 429, description = "Rate limit of the key exceeded; see Retry-After", body = ErrorEnvelope),
    )
)]
async fn enable_endpoint(
    State(state): State<Arc<AppState>>,
    principal: Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<Json<EndpointEnvelope>, ApiError> {
    let endpoint = managed_endpoint(&state, &principal, id).await?;
    if endpoint.status == EndpointStatus::Revoked {
        return Err(revoked());
    }
    sql::set_endpoint_status(
        &state.db.write,
        &endpoint.id,
        &[EndpointStatus::Disabled],
        EndpointStatus::Active,
        db::now_ms(),
    )
    .await?;
    let endpoint = own_endpoint(&state, &principal, &endpoint.id).await?;
    Ok(Json(EndpointEnvelope {
        success: true,
        data: view(&state, &endpoint).await?,
    }))
}

fn delivery_view(d: sql::Delivery, attempts: &[sql::Attempt]) -> Delivery {
    Delivery {
        attempts: attempts
            .iter()
            .filter(|a| a.delivery_id == d.id)
            .map(|a| AttemptView {
                attempt: a.attempt,
                attempted_at: iso8601(a.attempted_at),
                http_status: a.http_status,
                duration_ms: a.duration_ms,
                error: a.error.clone(),
            })
            .collect(),
        delivery_id: d.id,
        event: d.event_type,
        next_attempt_at: (d.status == DeliveryStatus::Pending)
            .then_some(d.next_attempt_at)
            .flatten()
            .map(iso8601),
        status: d.status,
        attempt_count: d.attempts,
        created_at: iso8601(d.created_at),
        completed_at: d.completed_at.map(iso8601),
        last_error: d.last_error,
    }
}

/// The endpoint's deliveries, newest first, each with its attempts.
#[utoipa::path(
    get,
    path = "/webhook-endpoints/{endpointId}/deliveries",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid), DeliveryQuery),
    responses(
        (status = 200, description = "Deliveries with their attempts", body = DeliveryListEnvelope),
        (status = 400, description = "`limit` out of range (`invalid_limit`) or `before` not a delivery id (`invalid_before`)", body = ErrorEnvelope),
        (status = 401, description = "API key missing, invalid or revoked", body = ErrorEnvelope),
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint for this merchant (`webhook_endpoint_not_found`), or `before` is not one of its deliveries (`webhook_delivery_not_found`)", body = ErrorEnvelope),
        (status = 429, description = "Rate limit of the key exceeded; see Retry-After", body = ErrorEnvelope),
    )
)]
async fn list_deliveries(
    State(state): State<Arc<AppState>>,
    principal: Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
    query: Result<Query<DeliveryQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<DeliveryListEnvelope>, ApiError> {
    let endpoint = managed_endpoint(&state, &principal, id).await?;
    let Query(query) = query.map_err(|_| invalid_limit())?;
    let limit = page_limit(query.limit)?;
    let before = match &query.before {
        Some(id) => {
            let id = uuid::Uuid::parse_str(id).map_err(|_| {
                ApiError::invalid("invalid_before", "before", "`before` must be a delivery id")
            })?;
            Some(
                sql::delivery(&state.db.read, &id.to_string())
                    .await?
                    .filter(|d| d.endpoint_id == endpoint.id)
                    .map(|d| (d.created_at, d.id))
                    .ok_or_else(|| {
                        ApiError::not_found(
                            "webhook_delivery_not_found",
                            "`before` is not a delivery of this endpoint",
                        )
                    })?,
            )
        }
        None => None,
    };
    let rows = sql::deliveries_of_endpoint(&state.db.read, &endpoint.id, before, limit).await?;
    let ids: Vec<String> = rows.iter().map(|d| d.id.clone()).collect();
    let attempts = sql::attempts_of(&state.db.read, &ids).await?;
    Ok(Json(DeliveryListEnvelope {
        success: true,
        data: rows
            .into_iter()
            .map(|d| delivery_view(d, &attempts))
            .collect(),
    }))
}

/// Sends a delivery again (same id and body; fresh timestamp and signature), as soon as the
/// sender gets to it. If that attempt fails, the delivery goes on with the retries its
/// schedule has left (none for an exhausted one).
#[utoipa::path(
    post,
    path = "/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/resend",
    tag = "webhooks",
    params(("endpointId" = String, Path, format = Uuid), ("deliveryId" = String, Path, format = Uuid)),
    responses(
        (status = 202, description = "Queued (status `PENDING`, due now)", body = DeliveryEnvelope),
        (status = 401, description = "API key missing, invalid or revoked", body = ErrorEnvelope),
        (status = 403, description = "The key lacks `webhooks:manage`", body = ErrorEnvelope),
        (status = 404, description = "No such endpoint or delivery for this merchant", body = ErrorEnvelope),
        (status = 409, description = "The endpoint is not ACTIVE (`endpoint_not_active`), or an attempt of this delivery is being sent (`delivery_in_flight`)", body = ErrorEnvelope),
        (status = 429, description = "Rate limit of the key exceeded; see Retry-After", body = ErrorEnvelope),
    )
)]
async fn resend_delivery(
    State(state): State<Arc<AppState>>,
    principal: Principal,
    ids: Result<Path<(String, String)>, axum::extract::rejection::PathRejection>,
) -> Result<(StatusCode, Json<DeliveryEnvelope>), ApiError> {
    principal.require_any(&[Scope::WebhooksManage])?;
    let not_found =
        || ApiError::not_found("webhook_delivery_not_found", "webhook delivery not found");
    let Path((endpoint_id, delivery_id)) = ids.map_err(|_| endpoint_not_found())?;
    let endpoint_id = uuid::Uuid::parse_str(&endpoint_id)
        .map_err(|_| endpoint_not_found())?
        .to_string();
    let delivery_id = uuid::Uuid::parse_str(&delivery_id)
        .map_err(|_| not_found())?
        .to_string();
    let endpoint = own_endpoint(&state, &principal, &endpoint_id).await?;
    sql::delivery(&state.db.read, &delivery_id)
        .await?
        .filter(|d| d.endpoint_id == endpoint.id)
        .ok_or_else(not_found)?;
    if endpoint.status != EndpointStatus::Active {
        return Err(ApiError::Conflict {
            code: "endpoint_not_active",
            message: format!("this webhook endpoint is {}", endpoint.status.as_str()),
        });
    }
    if !sql::requeue(&state.db.write, &delivery_id, db::now_ms()).await? {
        return Err(ApiError::Conflict {
            code: "delivery_in_flight",
            message: "an attempt of this delivery is being sent; resend it once it ends".into(),
        });
    }
    state.webhooks.wake();
    let delivery = sql::delivery(&state.db.read, &delivery_id)
        .await?
        .ok_or_else(not_found)?;
    let attempts = sql::attempts_of(&state.db.read, std::slice::from_ref(&delivery_id)).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(DeliveryEnvelope {
            success: true,
            data: delivery_view(delivery, &attempts),
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_normalised_and_checked() {
        assert_eq!(
            normalise_url("https://Shop.Example.COM:443/hooks/../pix?x=1").unwrap(),
            "https://shop.example.com/pix?x=1"
        );
        assert_eq!(
            normalise_url("https://shop.example.com").unwrap(),
            "https://shop.example.com/"
        );
        let code = |u: &str| normalise_url(u).unwrap_err().code();
        assert_eq!(code("http://shop.example.com/"), "endpoint_url_not_https");
        assert_eq!(code("ftp://shop.example.com/"), "endpoint_url_not_https");
        assert_eq!(code("shop.example.com/hook"), "invalid_endpoint_url");
        assert_eq!(
            code("https://user:pw@shop.example.com/"),
            "invalid_endpoint_url"
        );
        assert_eq!(
            code("https://shop.example.com/#frag"),
            "invalid_endpoint_url"
        );
        assert_eq!(code("https://"), "invalid_endpoint_url");
        assert_eq!(
            code(&format!("https://e.com/{}", "a".repeat(2048))),
            "invalid_endpoint_url"
        );
        // What would need percent-encoding, or could not be a host, is refused as sent.
        for refused in [
            " https://shop.example.com/",
            "https://shop.example.com/caf\u{e9}",
            "https://shop.example.com/a b",
            "https://shop.example.com/?q='x'",
            "https://shop.example.com/%zz",
            "https://1.2.3.999/",
            "https://shop.example.com:65536/",
            "https://[1:2]/",
            "https://[::1%25eth0]/",
            "https://shop.example.com./",
            "https://-shop.example.com/",
            "https://shop-.example.com/",
            "https://a..b.example/",
            "https://a_b.example/",
            "https://exa%6dple.com/",
            "https://127.1/",
            "https://shop.1b/",
        ] {
            assert_eq!(code(refused), "invalid_endpoint_url", "{refused}");
        }
    }

    /// Issue 17: punycode and `--` hosts, the scheme in any case, port 0.
    #[test]
    fn idna_host_names_are_judged_by_the_url_crate() {
        let ok = |u: &str| normalise_url(u).unwrap_or_else(|e| panic!("{u}: {e}"));
        // açaí.com.br, in punycode or in Unicode (any case): stored in ASCII.
        for spelling in [
            "https://xn--aa-4iaz.com.br/",
            "https://XN--AA-4IAZ.com.br/",
            "https://a\u{e7}a\u{ed}.com.br/",
            "https://A\u{c7}A\u{cd}.COM.BR",
            "https://a\u{e7}a\u{ed}\u{3002}com.br/",
        ] {
            assert_eq!(ok(spelling), "https://xn--aa-4iaz.com.br/", "{spelling}");
        }
        assert_eq!(ok("https://a--b.example/"), "https://a--b.example/");
        assert_eq!(ok("https://ab--cd.example/x"), "https://ab--cd.example/x");
        assert_eq!(ok("https://loja.xn--p1ai/"), "https://loja.xn--p1ai/");
        assert_eq!(
            ok("HTTPS://Shop.Example.com:8443/Hook"),
            "https://shop.example.com:8443/Hook"
        );
        assert_eq!(ok("hTtPs://1.2.3.4/"), "https://1.2.3.4/");

        let refused = |u: &str| {
            let e = normalise_url(u).unwrap_err();
            assert_eq!(e.code(), "invalid_endpoint_url", "{u}");
            e.to_string()
        };
        // Labels that do not decode, or that decode to what IDNA refuses.
        refused("https://xn--zz.example/");
        refused("https://xn--.example/");
        refused("https://xn--a-ecp.example/");
        // Names that IDNA maps to what no name may be.
        refused("https://\u{ff0d}shop.example/");
        refused("https://\u{ff11}\u{ff12}\u{ff17}.\u{ff10}.\u{ff10}.\u{ff11}/");
        assert!(refused(&format!("https://{}.example/", "a".repeat(64))).contains("label"));
        assert!(refused(&format!("https://{}example/", "abcdefghi.".repeat(25))).contains("253"));
        // Outside the Basic Multilingual Plane: refused by the pattern.
        refused("https://\u{1f4a9}.la/");
        // Port 0, however written, cannot be connected to.
        assert!(refused("https://shop.example.com:0/").contains("port 0"));
        assert!(refused("https://shop.example.com:00/").contains("port 0"));
        refused("https://shop.example.com:0443/");
    }

    /// The schema repeats the pattern as a literal.
    #[test]
    fn the_document_states_the_url_and_name_rules() {
        let doc = serde_json::to_value(super::super::payments::openapi()).unwrap();
        let request = &doc["components"]["schemas"]["CreateEndpointRequest"]["properties"];
        assert_eq!(request["endpointUrl"]["pattern"], ENDPOINT_URL_PATTERN);
        assert_eq!(request["endpointUrl"]["maxLength"], URL_MAX_CHARS);
        assert_eq!(request["name"]["maxLength"], NAME_MAX_CHARS);
        // Every match whose host IDNA accepts parses.
        for url in [
            "https://a",
            "https://a1-b2.c-d.example:8443/p/a/t/h;x=1?q=1&r=/?:@%2F",
            "https://127.0.0.1:1/%41'()*+,;=:@!$&~._-",
            "https://255.255.255.255:65535",
            "https://0.0.0.0/../..",
            "https://A.EXAMPLE:443/x",
            "HTTPS://a.example",
            "https://a---b.example",
            "https://xn--aa-4iaz.com.br",
            "https://a\u{e7}a\u{ed}.com.br",
            "https://[::1]",
            "https://[::]:8443/",
            "https://[::ffff:127.0.0.1]/",
            "https://[1:2:3:4:5:6:7::]",
            "https://[1::3:4:5:6:1.2.3.4]/x",
            "https://[FE80:0000::0001]",
        ] {
            assert!(ENDPOINT_URL.is_match(url), "{url}");
            assert!(normalise_url(url).is_ok(), "{url}");
        }
    }

    #[test]
    fn events_default_to_all_four_and_reject_others() {
        assert_eq!(
            parse_events(None).unwrap(),
            Event::PAYMENT.map(Event::as_str)
        );
        assert_eq!(
            parse_events(Some(&serde_json::json!([
                "payment.failed",
                "payment.failed"
            ])))
            .unwrap(),
            ["payment.failed"]
        );
        for bad in [
            serde_json::json!([]),
            serde_json::json!(["webhook.test"]),
            serde_json::json!(["payment.refunded"]),
            serde_json::json!("payment.failed"),
            serde_json::json!([1]),
        ] {
            assert_eq!(
                parse_events(Some(&bad)).unwrap_err().code(),
                "invalid_events",
                "{bad}"
            );
        }
    }
}
