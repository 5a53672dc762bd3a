//! The admin API under `/admin/v1` (an operator's token, whose role the route needs:
//! [`super::auth::required_role`]), plus `/healthz`, `/readyz` and `/metrics`. One module per
//! resource, each handing its routes to [`openapi_router`]. The handlers of writes pass the
//! acting operator to their service, which records the change in the audit trail.
//!
//! Request bodies are parsed into the serde types the OpenAPI document is generated from, and
//! every rule a handler checks beyond them is stated in the document too (patterns, bounds,
//! enums), so a 400 means the request breaks the document. What a schema cannot state gets
//! another status: a reference to something that does not exist is a 404, a fee cap below
//! the fee floor (a rule between two fields) a 422. `.ci/schemathesis.sh` holds the API to
//! that.

mod api_keys;
mod components;
mod deliveries;
mod gateways;
mod intents;
mod mandates;
mod merchants;
mod operators;
mod overview;
mod providers;
mod reconciliations;
mod replay_stream;
mod resolutions;
mod settlements;
mod stores;
mod traces;

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::IntoResponse;
use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::auth::require_admin;
use super::extract::parse;
use super::{ApiError, ErrorEnvelope};
use crate::http::AppState;

#[derive(OpenApi)]
#[openapi(
    info(title = "pixgate admin API", version = "1.0.0",
         description = "Merchants, stores, gateways, providers, API keys, decision traces, operators and the audit trail. Bearer token of an operator (or the bootstrap admin token); each route needs a role: viewer (every GET), tester (evaluate, replays, shadow candidates), operator (components, activation, rollback, canaries, kill switch, stores, gateways, resolutions, webhook resends), admin (merchants, API keys, providers, operators)."),
    servers((url = "/admin/v1")),
    modifiers(&AdminAuth),
    security(("adminToken" = [])),
    components(schemas(ErrorEnvelope))
)]
struct AdminDoc;

struct AdminAuth;

impl Modify for AdminAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme(
                "adminToken",
                SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
            );
    }
}

/// A body of raw bytes (a component upload) is a string of format `binary`: what OpenAPI
/// tools generate and send as bytes. utoipa states no schema for a media type given alone.
struct BinaryBodies;

impl Modify for BinaryBodies {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        let operations = openapi.paths.paths.values_mut().flat_map(|item| {
            [&mut item.post, &mut item.put, &mut item.patch]
                .into_iter()
                .flatten()
        });
        for operation in operations {
            let Some(utoipa::openapi::RefOr::T(body)) = operation.request_body.as_mut() else {
                continue;
            };
            let mut raw = false;
            for (media_type, content) in &mut body.content {
                let raw_type =
                    media_type == "application/wasm" || media_type == "application/octet-stream";
                if let (true, utoipa::openapi::RefOr::T(content)) = (raw_type, content) {
                    raw = true;
                    content.schema = Some(
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
                            .into(),
                    );
                }
            }
            // The bytes are the request: without them there is nothing to upload.
            if raw {
                body.required = Some(utoipa::openapi::Required::True);
            }
        }
    }
}

/// The admin routes and their OpenAPI document: one module per resource.
fn openapi_router() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::with_openapi(AdminDoc::openapi())
        .merge(merchants::routes())
        .merge(stores::routes())
        .merge(gateways::routes())
        .merge(providers::routes())
        .merge(api_keys::routes())
        .merge(traces::routes())
        .merge(resolutions::routes())
        .merge(intents::routes())
        .merge(mandates::routes())
        .merge(reconciliations::routes())
        .merge(settlements::routes())
        .merge(overview::routes())
        .merge(components::routes())
        .merge(deliveries::routes())
        .merge(operators::routes())
}

/// The admin API's OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    parts().1
}

/// The admin routes and their finished document: what the routes state, with the raw-bytes
/// bodies' schema filled in.
fn parts() -> (axum::Router<Arc<AppState>>, utoipa::openapi::OpenApi) {
    let (api, mut doc) = openapi_router().split_for_parts();
    BinaryBodies.modify(&mut doc);
    (api, doc)
}

pub fn router(state: Arc<AppState>) -> axum::Router<Arc<AppState>> {
    let (api, doc) = parts();
    let api = api.layer(middleware::from_fn_with_state(state, require_admin));
    let doc = Arc::new(doc);
    axum::Router::new()
        .nest("/admin/v1", api)
        .route(
            "/admin/v1/openapi.json",
            axum::routing::get(move || {
                let doc = doc.clone();
                async move { Json(doc.as_ref().clone()) }
            }),
        )
        .route(
            "/healthz",
            axum::routing::get(|| async { Json(serde_json::json!({"status": "ok"})) }),
        )
        .route("/readyz", axum::routing::get(readyz))
        .route("/metrics", axum::routing::get(super::metrics))
}

async fn readyz(State(db): State<crate::db::Db>) -> impl IntoResponse {
    match db.ping().await {
        Ok(()) => (StatusCode::OK, Json(serde_json::json!({"status": "ready"}))),
        Err(e) => {
            tracing::warn!(error = %e, "not ready: database unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(
                    serde_json::json!({"status": "unavailable", "reason": "database unreachable"}),
                ),
            )
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
struct Envelope<T> {
    success: bool,
    data: T,
}

fn ok<T: Serialize>(status: StatusCode, data: T) -> impl IntoResponse {
    (
        status,
        Json(Envelope {
            success: true,
            data,
        }),
    )
}

fn conflict(code: &'static str, message: &str) -> ApiError {
    ApiError::Conflict {
        code,
        message: message.to_owned(),
    }
}

/// A code in `field`, by the rule the catalog's codes follow ([`crate::catalog::check_code`]).
fn require_code(code: &str, field: &str) -> Result<(), ApiError> {
    Ok(crate::catalog::check_code(code, field)?)
}

/// The name, trimmed, by the rule the catalog's names follow ([`crate::catalog::check_name`]).
fn require_name(name: &str, field: &str) -> Result<String, ApiError> {
    Ok(crate::catalog::check_name(name, field)?)
}

/// [`parse`], keeping a field's own stable code when its type refuses its value (`mode`
/// answers `invalid_mode` rather than `invalid_field`).
fn parse_body<T: DeserializeOwned>(
    value: serde_json::Value,
    codes: &[(&str, &'static str)],
) -> Result<T, ApiError> {
    parse(value).map_err(|e| match e {
        ApiError::Invalid {
            code: "invalid_field",
            message,
            field: Some(field),
        } => {
            let code = codes
                .iter()
                .find(|(name, _)| {
                    field
                        .strip_prefix(name)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('['))
                })
                .map_or("invalid_field", |(_, code)| code);
            ApiError::Invalid {
                code,
                message,
                field: Some(field),
            }
        }
        other => other,
    })
}

/// A path parameter; one that does not even decode is as unknown as any other.
fn path_param(
    param: Result<Path<String>, PathRejection>,
    not_found: impl Fn() -> ApiError,
) -> Result<String, ApiError> {
    param.map(|Path(p)| p).map_err(|_| not_found())
}

/// A UUID path parameter in its canonical form; anything else is unknown.
fn uuid_param(
    param: Result<Path<String>, PathRejection>,
    not_found: impl Fn() -> ApiError,
) -> Result<String, ApiError> {
    let raw = path_param(param, &not_found)?;
    uuid::Uuid::parse_str(&raw)
        .map(|u| u.to_string())
        .map_err(|_| not_found())
}

#[cfg(test)]
mod tests {
    use regex::Regex;

    use super::*;
    use crate::catalog::{BUNDLED_KEYS, CODE_PATTERN, NO_NUL_PATTERN, RELEASE_CLASS_PATTERN};
    use pixgate_domain::{NAME_PATTERN, valid_code};

    fn patterns(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    match (k.as_str(), v) {
                        ("pattern", serde_json::Value::String(p)) => out.push(p.clone()),
                        _ => patterns(v, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| patterns(v, out)),
            _ => {}
        }
    }

    /// The schema attributes repeat the patterns as literals: each must be one of the rules
    /// the handlers enforce.
    #[test]
    fn every_pattern_in_the_document_is_an_enforced_one() {
        let doc = serde_json::to_value(openapi()).unwrap();
        let mut found = Vec::new();
        patterns(&doc, &mut found);
        use crate::components::{SHA256_PATTERN, STEP_PATTERN, VERSION_PATTERN};
        use pixgate_domain::charge::{CURRENCY_PATTERN, TAX_ID_PATTERN, TEXT_PATTERN};
        let known = [
            CODE_PATTERN,
            NAME_PATTERN,
            RELEASE_CLASS_PATTERN,
            TEXT_PATTERN,
            CURRENCY_PATTERN,
            TAX_ID_PATTERN,
            pixgate_domain::PHONE_PATTERN,
            crate::psp::providers::request::PROVIDER_URL_PATTERN,
            // A provider's receiving account: as taken, and its number as shown.
            crate::psp::providers::request::ACCOUNT_BRANCH_PATTERN,
            crate::psp::providers::request::ACCOUNT_NUMBER_PATTERN,
            crate::psp::providers::request::ACCOUNT_STORED_NUMBER_PATTERN,
            STEP_PATTERN,
            VERSION_PATTERN,
            SHA256_PATTERN,
            crate::operators::OPERATOR_ID_PATTERN,
            crate::operators::OPERATOR_NAME_PATTERN,
            // `idempotencyKey` of `POST /evaluate`: the merchant's Idempotency-Key rule.
            pixgate_domain::IDEMPOTENCY_KEY_PATTERN,
            // Every JSON body refuses NUL (`http::extract`); the config map says so.
            NO_NUL_PATTERN,
            // The merchant's endpoint body, which the admin registers for a merchant.
            crate::webhooks::endpoints::request::ENDPOINT_URL_PATTERN,
            crate::search::overview::LOOKUP_PATTERN,
            // The payer's address of a due-date charge (the evaluate route's body).
            pixgate_domain::due::UF_PATTERN,
            pixgate_domain::due::POSTAL_CODE_PATTERN,
            pixgate_domain::due::DATE_PATTERN,
        ];
        let no_nul = Regex::new(NO_NUL_PATTERN).unwrap();
        assert!(no_nul.is_match("économie.max-fee-bps") && !no_nul.is_match("a\0b"));
        // The forms of the store configuration keys the bundled components read.
        let known: Vec<&str> = known
            .into_iter()
            .chain(BUNDLED_KEYS.iter().map(|(_, pattern, _)| *pattern))
            .collect();
        for p in &found {
            assert!(known.contains(&p.as_str()), "unknown pattern {p}");
        }
        for k in known {
            assert!(found.iter().any(|p| *p == k), "{k} is not in the document");
        }
    }

    #[test]
    fn the_code_pattern_is_valid_code() {
        let pattern = Regex::new(CODE_PATTERN).unwrap();
        let long = "a".repeat(64);
        let too_long = "a".repeat(65);
        for code in [
            "demo", "a", "A-b_c.9", &long, &too_long, "", "a b", "a/b", "é", "a\n", "-", "a%",
        ] {
            assert_eq!(pattern.is_match(code), valid_code(code), "{code:?}");
        }
        for c in '\0'..='\u{2ff}' {
            let s = c.to_string();
            assert_eq!(pattern.is_match(&s), valid_code(&s), "{c:?}");
        }
    }

    #[test]
    fn a_refused_enum_value_keeps_its_field_code() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)] // only deserialised
        enum Mode {
            A,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Body {
            mode: Mode,
            modes: Vec<Mode>,
            moderate: Mode,
        }
        let codes = [("mode", "invalid_mode"), ("modes", "invalid_modes")];
        let check = |body: serde_json::Value, code: &str| {
            let e = parse_body::<Body>(body, &codes).unwrap_err();
            assert_eq!(e.code(), code, "{e}");
        };
        check(
            serde_json::json!({"mode": "B", "modes": [], "moderate": "A"}),
            "invalid_mode",
        );
        check(
            serde_json::json!({"mode": "A", "modes": ["A", "B"], "moderate": "A"}),
            "invalid_modes",
        );
        check(
            serde_json::json!({"mode": "A", "modes": [], "moderate": "B"}),
            "invalid_field",
        );
        check(serde_json::json!({"modes": []}), "missing_field");
    }

    /// Every admin route documents the 403 of a role too low, and each route's role is the
    /// middleware's: a route the mapping does not name is an admin's.
    #[test]
    fn every_route_documents_role_insufficient() {
        let doc = serde_json::to_value(openapi()).unwrap();
        let paths = doc["paths"].as_object().unwrap();
        assert!(paths.len() > 20);
        for (path, item) in paths {
            for (method, operation) in item.as_object().unwrap() {
                let row = &operation["responses"]["403"];
                assert!(
                    row["description"]
                        .as_str()
                        .is_some_and(|d| d.contains("role_insufficient")),
                    "{method} {path}"
                );
            }
        }
    }

    /// The admin document states the provider URL rule on every URL field.
    #[test]
    fn the_document_states_the_url_rule() {
        let doc = serde_json::to_value(super::openapi()).unwrap();
        for (schema, field) in [
            ("CreateProvider", "apiBaseUrl"),
            ("CreateProvider", "tokenUrl"),
            ("PatchProvider", "apiBaseUrl"),
            ("PatchProvider", "tokenUrl"),
        ] {
            let url = &doc["components"]["schemas"][schema]["properties"][field];
            assert_eq!(
                url["pattern"],
                crate::psp::providers::request::PROVIDER_URL_PATTERN,
                "{schema}.{field}"
            );
            assert_eq!(
                url["maxLength"],
                crate::psp::providers::request::URL_MAX_CHARS,
                "{schema}.{field}"
            );
        }
        let required = &doc["components"]["schemas"]["CreateProvider"]["required"];
        assert!(required.as_array().unwrap().contains(&"apiBaseUrl".into()));
    }

    /// `account`: null or the account on creation; also `{}` (removed) on a change, which no
    /// account matches.
    #[test]
    fn the_document_states_the_account_forms() {
        let doc = serde_json::to_value(super::openapi()).unwrap();
        let schemas = &doc["components"]["schemas"];
        let create = schemas["CreateProvider"]["properties"]["account"]["oneOf"]
            .as_array()
            .unwrap();
        assert_eq!(create.len(), 2);
        assert_eq!(create[0]["type"], "null");
        assert_eq!(
            create[1]["required"],
            serde_json::json!(["branch", "number", "type"])
        );
        assert_eq!(
            create[1]["properties"]["number"]["pattern"],
            crate::psp::providers::request::ACCOUNT_NUMBER_PATTERN
        );
        let patch = schemas["PatchProvider"]["properties"]["account"]["oneOf"]
            .as_array()
            .unwrap();
        assert_eq!(patch.len(), 3);
        assert_eq!(patch[1]["maxProperties"], 0);
        assert_eq!(patch[2], create[1]);
        assert!(
            !schemas["CreateProvider"]["required"]
                .as_array()
                .unwrap()
                .contains(&"account".into())
        );
    }
}
