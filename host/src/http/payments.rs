//! The merchant API's payment routes: `POST /payments/charge` and `GET /payments/{id}`,
//! and the OpenAPI document.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::JsonBody;
use super::{ApiError, ErrorEnvelope};
use crate::access::{Principal, Scope};
use crate::charges::view::PaymentIntentEnvelope;
use crate::charges::{ChargeError, Charges};
use crate::http::AppState;
use crate::http::responses::{PayloadTooLarge, RateLimited, Unauthorized, UnsupportedMediaType};
use pixgate_domain::IdempotencyKey;
use pixgate_domain::charge::CreatePaymentRequest;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "pixgate merchant payment API",
        version = "1.0.0",
        description = "Idempotent PIX PaymentIntents, status reads and signed webhooks. \
                       Every non-2xx response carries the error envelope with a stable code."
    ),
    servers((url = "/api/v1")),
    modifiers(&BearerAuth),
    security(("bearerAuth" = [])),
    components(schemas(ErrorEnvelope))
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearerAuth",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("API key")
                    .description(Some(
                        "`Authorization: Bearer <API key>`, issued by an administrator",
                    ))
                    .build(),
            ),
        );
    }
}

/// The merchant API router, mounted under `/api/v1`, plus `/openapi.json` at the root.
pub fn router() -> axum::Router<Arc<AppState>> {
    let (api, doc) = openapi_router().split_for_parts();
    let doc = Arc::new(doc);
    let serve_doc = {
        let doc = doc.clone();
        move || {
            let doc = doc.clone();
            async move { Json(doc.as_ref().clone()) }
        }
    };
    axum::Router::new()
        .nest(
            "/api/v1",
            api.route("/openapi.json", axum::routing::get(serve_doc.clone())),
        )
        .route("/openapi.json", axum::routing::get(serve_doc))
}

fn openapi_router() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(charge))
        .routes(routes!(get_payment))
        .routes(routes!(amount_due))
        .routes(routes!(cancel_payment))
        .merge(super::batches::routes())
        .merge(super::mandates::routes())
        .merge(super::refunds::routes())
        .merge(super::search::routes())
        .merge(super::settlements::routes())
        .merge(super::webhooks::routes())
}

/// The merchant API's OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    openapi_router().into_openapi()
}

/// Creates an idempotent PaymentIntent.
///
/// The charge is resolved through the store's chain (policy, provider selection, economics).
/// A SHADOW store answers `SHADOW_ONLY` with routing and economics and creates no PIX. The
/// same Idempotency-Key with the same body (compared as parsed JSON) replays the stored
/// response with `idempotentReplay: true`; with a different body it is 409. Rejections
/// (400, 401, 403, 404) are not stored: fix the request and retry with the same key.
#[utoipa::path(
    post,
    path = "/payments/charge",
    tag = "payments",
    params(("Idempotency-Key" = String, Header, min_length = 1, max_length = 200, pattern = "^[!-~]([ -~]{0,198}[!-~])?$",
            description = "Stable key of one logical checkout attempt: 1 to 200 visible ASCII characters (`!` to `~`), spaces allowed between them; one header. Anything else (blank, non-ASCII, several headers) is 400 `invalid_idempotency_key`; none is 400 `missing_idempotency_key`")),
    request_body = CreatePaymentRequest,
    responses(
        (status = 200, description = "PaymentIntent resolved (or replayed)", body = PaymentIntentEnvelope),
        (status = 400, description = "Invalid request: payload, CPF/CNPJ, metadata (`invalid_metadata`, also for a number beyond any finite double such as `1e400`; `metadata_too_large`), Idempotency-Key (`missing_idempotency_key`, `invalid_idempotency_key`), or a store rule (e.g. `amount_above_store_limit`)", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "Scope or store not granted (`insufficient_scope`, `store_not_granted`), or the store's live execution is off (`live_execution_disabled`)", body = ErrorEnvelope),
        (status = 404, description = "Store not found (`store_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "Idempotency-Key reused with a different payload (`idempotency_key_reused`)", body = ErrorEnvelope),
        PayloadTooLarge,
        UnsupportedMediaType,
        RateLimited,
        (status = 503, description = "Routing temporarily unavailable (`routing_unavailable`), or every gateway of the store failing at its PSP for now (`psp_unavailable`); nothing is stored: retry with the same Idempotency-Key", body = ErrorEnvelope),
    )
)]
async fn charge(
    State(charges): State<Charges>,
    principal: Principal,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    // The documented order of checks (docs/src/merchant-guide/charges.md): scope, then
    // Idempotency-Key, then the body.
    principal.require_any(&[Scope::PaymentsCreate])?;
    let key = idempotency_key(request.headers())?;
    let (body, literals) = JsonBody::read_checked(request, |bytes| {
        pixgate_domain::due::check_due_literals(bytes, false)?;
        Ok(pixgate_domain::charge::check_literals(bytes, false)?)
    })
    .await?;
    let legacy = pixgate_domain::sha256_hex(pixgate_domain::charge::canonical_json(&body));
    let (store, charge) = CreatePaymentRequest::from_body(body, literals)?.split();
    let request = charge.validate(store, "", crate::db::today_brasilia())?;
    let charged = charges
        .create(&principal, &key, request, Some(&legacy))
        .await?;
    Ok(charged_response(charged))
}

/// A charge's answer: its body is JSON text already (the metadata in it is the merchant's, as
/// written), sent as it is.
pub(super) fn charged_response(charged: crate::charges::Charged) -> Response {
    let status = StatusCode::from_u16(charged.status).unwrap_or(StatusCode::OK);
    (
        status,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        charged.body,
    )
        .into_response()
}

pub(super) fn idempotency_key(headers: &HeaderMap) -> Result<IdempotencyKey, ApiError> {
    let invalid = |message: &str| ApiError::Invalid {
        code: "invalid_idempotency_key",
        message: message.into(),
        field: Some("Idempotency-Key".into()),
    };
    let mut sent = headers.get_all("idempotency-key").iter();
    let raw = sent.next().ok_or(ApiError::Invalid {
        code: "missing_idempotency_key",
        message: "the Idempotency-Key header is required".into(),
        field: Some("Idempotency-Key".into()),
    })?;
    // Two keys name no one attempt: which one a proxy or a framework keeps is anyone's guess.
    if sent.next().is_some() {
        return Err(invalid(
            "send one Idempotency-Key header; this request has several",
        ));
    }
    IdempotencyKey::parse(raw.as_bytes()).map_err(invalid)
}

/// Reads a PaymentIntent: status plus routing, economics and provider summary.
#[utoipa::path(
    get,
    path = "/payments/{paymentIntentId}",
    tag = "payments",
    params(("paymentIntentId" = String, Path, format = Uuid, description = "The PaymentIntent's id")),
    responses(
        (status = 200, description = "The PaymentIntent", body = PaymentIntentEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `payments:create` and `payments:read`", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or not granted to the key", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn get_payment(
    State(charges): State<Charges>,
    principal: Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<Json<PaymentIntentEnvelope>, ApiError> {
    principal.require_any(&[Scope::PaymentsCreate, Scope::PaymentsRead])?;
    // A malformed id (bad encoding) is as unknown as any other.
    let Path(id) = id.map_err(|_| ChargeError::IntentNotFound)?;
    Ok(Json(charges.get(&principal, &id).await?))
}

/// `?date=` of the amount-due read.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct AmountDueQuery {
    /// The payment date, `YYYY-MM-DD`; today in Brasília when absent.
    #[param(value_type = Option<String>, format = Date, pattern = "^(19[0-9]{2}|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", example = "2030-12-12")]
    date: Option<String>,
}

/// What a due-date payment costs when paid on a date: its original amount, the fine and
/// interest after the (moved) due date, the abatement and the discount, the total, and whether
/// it can still be paid that day (DESIGN.md section 16). The same calculation settles the
/// payment: a pix of another amount stays `PENDING` for an admin.
#[utoipa::path(
    get,
    path = "/payments/{paymentIntentId}/amount-due",
    tag = "payments",
    params(
        ("paymentIntentId" = String, Path, format = Uuid, description = "The PaymentIntent's id"),
        AmountDueQuery,
    ),
    responses(
        (status = 200, description = "The amount due on the date", body = AmountDueEnvelope),
        (status = 400, description = "`date` is not a real day written YYYY-MM-DD (`invalid_date`)", body = ErrorEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `payments:create` and `payments:read`", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or not granted to the key (`payment_intent_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "An immediate or recurring charge, whose amount does not depend on the date (`not_a_due_date_charge`)", body = ErrorEnvelope),
        RateLimited,
    )
)]
async fn amount_due(
    State(charges): State<Charges>,
    principal: Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
    query: Result<Query<AmountDueQuery>, QueryRejection>,
) -> Result<Json<AmountDueEnvelope>, ApiError> {
    principal.require_any(&[Scope::PaymentsCreate, Scope::PaymentsRead])?;
    let Path(id) = id.map_err(|_| ChargeError::IntentNotFound)?;
    // `date` is the only parameter and a string: a query that does not read is a bad date
    // (`?date=a&date=b`, an encoding that is not UTF-8).
    let Query(query) = query.map_err(|_| ApiError::Invalid {
        code: "invalid_date",
        message: "`date` must be a real day written YYYY-MM-DD".into(),
        field: Some("date".into()),
    })?;
    let data = charges
        .amount_due(&principal, &id, query.date.as_deref())
        .await?;
    Ok(Json(AmountDueEnvelope {
        success: true,
        data,
    }))
}

/// `{"success": true, "data": AmountDue}`.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
struct AmountDueEnvelope {
    /// Always true.
    success: bool,
    data: pixgate_domain::due::AmountDue,
}

/// Cancels a PENDING (or SCHEDULED) payment nobody has paid.
///
/// LIVE: the charge is removed at its PSP (API Pix `PATCH /cob/{txid}` to
/// `REMOVIDA_PELO_USUARIO_RECEBEDOR`), then the intent is `CANCELED` and `payment.canceled` is
/// sent. If the payment landed first, the PSP refuses the removal: the payment is settled as
/// paid (`SUCCEEDED`, `payment.succeeded`) and the answer is 409 `payment_not_cancelable`.
/// Idempotent: an intent already `CANCELED` answers 200 as it is, and nothing is sent again.
/// A recurring charge (Pix Automático) is canceled before its first attempt: `SCHEDULED`, at
/// once; `PENDING`, at its PSP (`PATCH /cobr/{txid}` `CANCELADA`, allowed until the day before
/// the attempt, else 409).
#[utoipa::path(
    post,
    path = "/payments/{paymentIntentId}/cancel",
    tag = "payments",
    params(("paymentIntentId" = String, Path, format = Uuid, description = "The PaymentIntent's id")),
    responses(
        (status = 200, description = "The PaymentIntent, `CANCELED`", body = PaymentIntentEnvelope),
        Unauthorized,
        (status = 403, description = "The key lacks `payments:create` (`insufficient_scope`)", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or not granted to the key (`payment_intent_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "`SUCCEEDED`, `FAILED` or `SHADOW_ONLY`, paid in the meantime, or refused by the PSP (`payment_not_cancelable`)", body = ErrorEnvelope),
        RateLimited,
        (status = 503, description = "The PSP could not be reached or did not confirm, or its provider is switched off; the intent is unchanged: retry (`psp_unavailable`)", body = ErrorEnvelope),
    )
)]
async fn cancel_payment(
    State(charges): State<Charges>,
    principal: Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<Json<PaymentIntentEnvelope>, ApiError> {
    principal.require_any(&[Scope::PaymentsCreate])?;
    let Path(id) = id.map_err(|_| ChargeError::IntentNotFound)?;
    Ok(Json(charges.cancel(&principal, &id).await?))
}

#[cfg(test)]
mod tests {
    use pixgate_domain::IDEMPOTENCY_KEY_PATTERN;

    /// The document states the rule `IdempotencyKey::parse` applies (a test there holds the
    /// pattern and the parser together).
    #[test]
    fn the_document_states_the_idempotency_key_rule() {
        let doc = serde_json::to_value(super::openapi()).unwrap();
        let params = doc["paths"]["/payments/charge"]["post"]["parameters"]
            .as_array()
            .unwrap();
        let header = params
            .iter()
            .find(|p| p["name"] == "Idempotency-Key")
            .unwrap();
        assert_eq!(header["in"], "header");
        assert_eq!(header["required"], true);
        assert_eq!(header["schema"]["pattern"], IDEMPOTENCY_KEY_PATTERN);
        assert_eq!(header["schema"]["maxLength"], 200);
    }

    /// A batch's charge (a charge body with `dueDate`) and a batch's item as read are two
    /// schemas of their own: neither hides the other under one name.
    #[test]
    fn the_batch_schemas_are_its_charges_and_its_items() {
        let doc = serde_json::to_value(super::openapi()).unwrap();
        let schemas = &doc["components"]["schemas"];
        assert_eq!(
            schemas["BatchCharge"]["allOf"][0]["$ref"],
            "#/components/schemas/ChargeBody"
        );
        assert!(schemas["ChargeBody"]["properties"]["dueDate"].is_object());
        assert!(schemas["ChargeBatchItem"]["properties"]["paymentIntentId"].is_object());
        let body = &doc["paths"]["/payments/charge-batches"]["post"]["requestBody"];
        let schema = &body["content"]["application/json"]["schema"];
        assert_eq!(
            schema["$ref"],
            "#/components/schemas/CreateChargeBatchRequest"
        );
        let request = &schemas["CreateChargeBatchRequest"]["properties"]["charges"];
        assert_eq!(request["items"]["$ref"], "#/components/schemas/BatchCharge");
        assert_eq!(request["maxItems"], 1000);
    }

    /// Both documents state the rule `Phone::parse` applies for `payer.phone` (a test there
    /// holds the pattern and the parser together).
    #[test]
    fn the_documents_state_the_phone_rule() {
        for doc in [super::openapi(), crate::http::admin::openapi()] {
            let doc = serde_json::to_value(doc).unwrap();
            let phone = &doc["components"]["schemas"]["Payer"]["properties"]["phone"];
            assert_eq!(phone["pattern"], pixgate_domain::PHONE_PATTERN);
            assert_eq!(phone["maxLength"], 32);
        }
    }
}
