//! The admin API under `/admin/v1` (admin token), plus `/healthz`, `/readyz` and `/metrics`.
//! One module per resource, each handing its routes to [`openapi_router`].
//!
//! Request bodies are parsed into the serde types the OpenAPI document is generated from, and
//! every rule a handler checks beyond them is stated in the document too (patterns, bounds,
//! enums), so a 400 means the request breaks the document. What a schema cannot state gets
//! another status: a reference to something that does not exist is a 404, a fee cap below
//! the fee floor (a rule between two fields) a 422. `.ci/schemathesis.sh` holds the API to
//! that.

mod api_keys;
mod components;
mod gateways;
mod merchants;
mod providers;
mod stores;
mod traces;

use std::sync::{Arc, LazyLock};

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::IntoResponse;
use regex::Regex;
use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ArrayBuilder, ObjectBuilder, Type};
use utoipa::{Modify, OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::auth::require_admin;
use super::extract::parse;
use super::{ApiError, ErrorEnvelope};
use crate::app::AppState;
use pixgate_domain::{NAME_PATTERN, valid_code};

#[derive(OpenApi)]
#[openapi(
    info(title = "pixgate admin API", version = "1.0.0",
         description = "Merchants, stores, gateways, providers, API keys and decision traces. Bearer admin token."),
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

/// The admin routes and their OpenAPI document: one module per resource.
fn openapi_router() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::with_openapi(AdminDoc::openapi())
        .merge(merchants::routes())
        .merge(stores::routes())
        .merge(gateways::routes())
        .merge(providers::routes())
        .merge(api_keys::routes())
        .merge(traces::routes())
        .merge(components::routes())
}

/// The admin API's OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    openapi_router().into_openapi()
}

pub fn router(state: Arc<AppState>) -> axum::Router<Arc<AppState>> {
    let (api, doc) = openapi_router().split_for_parts();
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

async fn readyz(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    match state.db.ping().await {
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

/// Merchant, store, gateway and provider codes: the rule of [`valid_code`]. The schema
/// attributes repeat it as a literal; a test holds them to this one.
const CODE_PATTERN: &str = "^[A-Za-z0-9._-]{1,64}$";

const NAME_MAX_CHARS: usize = 200;

static NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(NAME_PATTERN).expect("NAME_PATTERN"));

fn conflict(code: &'static str, message: &str) -> ApiError {
    ApiError::Conflict {
        code,
        message: message.to_owned(),
    }
}

fn require_code(code: &str, field: &str) -> Result<(), ApiError> {
    if valid_code(code) {
        Ok(())
    } else {
        Err(ApiError::invalid(
            "invalid_code",
            field,
            format!("`{field}` must be 1 to 64 characters of letters, digits, '-', '_' or '.'"),
        ))
    }
}

/// The name, trimmed, if it follows [`NAME_PATTERN`] within [`NAME_MAX_CHARS`].
fn require_name(name: &str, field: &str) -> Result<String, ApiError> {
    if name.chars().count() > NAME_MAX_CHARS || !NAME.is_match(name) {
        return Err(ApiError::invalid(
            "invalid_name",
            field,
            format!(
                "`{field}` must have 1 to 200 characters, not all blank, and no control characters"
            ),
        ));
    }
    Ok(name
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .to_owned())
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

/// A list of codes (`gateways`, `stores`), for `schema_with`.
fn code_list_schema() -> ArrayBuilder {
    ArrayBuilder::new().items(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(CODE_PATTERN)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
            gateways::RELEASE_CLASS_PATTERN,
            TEXT_PATTERN,
            CURRENCY_PATTERN,
            TAX_ID_PATTERN,
            STEP_PATTERN,
            VERSION_PATTERN,
            SHA256_PATTERN,
            // Every JSON body refuses NUL (`http::extract`); the config map says so.
            stores::NO_NUL_PATTERN,
        ];
        let no_nul = Regex::new(stores::NO_NUL_PATTERN).unwrap();
        assert!(no_nul.is_match("économie.max-fee-bps") && !no_nul.is_match("a\0b"));
        // The forms of the store configuration keys the bundled components read.
        let known: Vec<&str> = known
            .into_iter()
            .chain(stores::BUNDLED_KEYS.iter().map(|(_, pattern, _)| *pattern))
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
    fn names_follow_the_pattern_and_are_stored_trimmed() {
        assert_eq!(require_name("  Shop  ", "name").unwrap(), "Shop");
        assert_eq!(
            require_name("\u{feff}Shop\u{3000}", "name").unwrap(),
            "Shop"
        );
        assert!(require_name(&"a".repeat(200), "name").is_ok());
        for bad in [
            "",
            " ",
            "\u{feff}",
            " \u{3000} ",
            "a\u{0}b",
            "a\nb",
            "a\u{85}",
            &"a".repeat(201),
        ] {
            assert_eq!(
                require_name(bad, "name").unwrap_err().code(),
                "invalid_name",
                "{bad:?}"
            );
        }
        // One character at a time: visible exactly when neither blank nor control.
        for c in (0..=0x10ffff_u32).filter_map(char::from_u32) {
            let visible = !c.is_control() && !c.is_whitespace() && c != '\u{feff}';
            assert_eq!(NAME.is_match(&c.to_string()), visible, "{c:?}");
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
}
