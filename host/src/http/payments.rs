//! The merchant API's payment routes: `POST /payments/charge` and `GET /payments/{id}`,
//! and the OpenAPI document.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use pixgate_policy_logic as logic;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::auth::{Principal, SCOPE_PAYMENTS_CREATE, SCOPE_PAYMENTS_READ};
use super::extract::{JsonBody, bounded, canonical_json, check_fields, string_field};
use super::views::{PaymentIntent, PaymentIntentEnvelope};
use super::{ApiError, ErrorEnvelope};
use crate::bootstrap::AppState;
use crate::chain::{self, ChainError, ChainInput, Resolution};
use crate::crypto;
use crate::db::{self, catalog, idempotency, intents};
use crate::domain::{Email, IdempotencyKey, Money, Phone, TaxId, TaxIdKind};
use crate::sandbox::Step;

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
        .merge(super::webhooks::routes())
}

/// The merchant API's OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    openapi_router().into_openapi()
}

/// The payer. `taxId` is a CPF or CNPJ (numeric or alphanumeric) with valid check digits;
/// punctuation is accepted.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Payer {
    #[schema(min_length = 1, max_length = 200, example = "Ana Souza")]
    pub name: String,
    #[schema(example = "529.982.247-25")]
    pub tax_id: String,
    #[schema(format = Email, nullable = false)]
    pub email: Option<String>,
    #[schema(example = "+55 11 98765-4321", nullable = false)]
    pub phone: Option<String>,
}

/// Body of `POST /payments/charge`.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({
    "store": "demo-store", "amount": 129.9, "currency": "BRL", "reference": "order-10042",
    "description": "Order 10042",
    "payer": {"name": "Ana Souza", "taxId": "529.982.247-25", "email": "ana@example.com"},
    "metadata": {"orderId": "10042", "attribution": {"utm_source": "newsletter"}}
}))]
pub struct CreatePaymentRequest {
    /// Store code; the key must be granted this store.
    #[schema(min_length = 1, max_length = 64)]
    pub store: String,
    /// Amount in BRL, at least 0.01, at most two decimals.
    #[schema(
        minimum = 0.01,
        maximum = 100000000.0,
        multiple_of = 0.01,
        example = 129.9
    )]
    pub amount: f64,
    /// Only `BRL`; the default.
    #[schema(example = "BRL", nullable = false)]
    pub currency: Option<String>,
    /// The merchant's reference.
    #[schema(min_length = 1, max_length = 160)]
    pub reference: String,
    #[schema(max_length = 200, nullable = false)]
    pub description: Option<String>,
    pub payer: Payer,
    /// Free-form object of at most 16 KB (as compact JSON); echoed in webhooks. Never secrets.
    #[schema(value_type = Option<Object>, nullable = false)]
    pub metadata: Option<Map<String, Value>>,
}

/// A charge request after validation.
struct ChargeRequest {
    store: String,
    amount: Money,
    reference: String,
    description: Option<String>,
    tax_id: TaxId,
    payer: Value,
    metadata: String,
}

const METADATA_MAX_BYTES: usize = 16 * 1024;

impl ChargeRequest {
    fn validate(body: &Value) -> Result<Self, ApiError> {
        let object = body.as_object().ok_or_else(|| ApiError::Invalid {
            code: "invalid_request",
            message: "the body must be a JSON object".into(),
            field: None,
        })?;
        check_fields(
            object,
            &[
                "store",
                "amount",
                "currency",
                "reference",
                "description",
                "payer",
                "metadata",
            ],
            "",
        )?;
        let store = string_field(object, "store", "store", true)?.unwrap_or_default();
        if !crate::domain::valid_code(store) {
            return Err(ApiError::invalid(
                "invalid_store",
                "store",
                "`store` is not a store code",
            ));
        }
        let amount = match object.get("amount") {
            None | Some(Value::Null) => {
                return Err(ApiError::invalid(
                    "missing_field",
                    "amount",
                    "`amount` is required",
                ));
            }
            Some(Value::Number(n)) => n.as_f64().ok_or_else(|| {
                ApiError::invalid(
                    "invalid_amount",
                    "amount",
                    "`amount` is not a usable number",
                )
            })?,
            Some(_) => {
                return Err(ApiError::invalid(
                    "invalid_amount",
                    "amount",
                    "`amount` must be a number",
                ));
            }
        };
        let amount = Money::from_brl(amount).map_err(|e| {
            use crate::domain::money::MoneyError::*;
            let message = match e {
                NotFinite => "`amount` is not a usable number",
                TooManyDecimals => "`amount` must have at most two decimals",
                BelowMinimum => "`amount` must be at least 0.01",
                AboveMaximum => "`amount` must be at most 100000000.00",
            };
            ApiError::invalid("invalid_amount", "amount", message)
        })?;
        if let Some(currency) = string_field(object, "currency", "currency", false)?
            && currency != "BRL"
        {
            return Err(ApiError::invalid(
                "unsupported_currency",
                "currency",
                "only BRL is supported",
            ));
        }
        let reference = bounded(
            string_field(object, "reference", "reference", true)?.unwrap_or_default(),
            "reference",
            "invalid_reference",
            1,
            160,
        )?;
        let description = string_field(object, "description", "description", false)?
            .map(|d| bounded(d, "description", "invalid_description", 0, 200))
            .transpose()?;

        let payer = match object.get("payer") {
            None | Some(Value::Null) => {
                return Err(ApiError::invalid(
                    "missing_field",
                    "payer",
                    "`payer` is required",
                ));
            }
            Some(Value::Object(p)) => p,
            Some(_) => {
                return Err(ApiError::invalid(
                    "invalid_payer",
                    "payer",
                    "`payer` must be an object",
                ));
            }
        };
        check_fields(payer, &["name", "taxId", "email", "phone"], "payer.")?;
        let name = bounded(
            string_field(payer, "name", "payer.name", true)?.unwrap_or_default(),
            "payer.name",
            "invalid_payer_name",
            1,
            200,
        )?;
        let tax_id = string_field(payer, "taxId", "payer.taxId", true)?
            .and_then(TaxId::parse)
            .ok_or_else(|| {
                ApiError::invalid(
                    "invalid_tax_id",
                    "payer.taxId",
                    "`payer.taxId` is not a valid CPF or CNPJ",
                )
            })?;
        let email = string_field(payer, "email", "payer.email", false)?
            .map(|e| {
                Email::parse(e).ok_or_else(|| {
                    ApiError::invalid(
                        "invalid_email",
                        "payer.email",
                        "`payer.email` is not an email address",
                    )
                })
            })
            .transpose()?;
        let phone = string_field(payer, "phone", "payer.phone", false)?
            .map(|p| {
                Phone::parse(p).ok_or_else(|| {
                    ApiError::invalid(
                        "invalid_phone",
                        "payer.phone",
                        "`payer.phone` is not a phone number",
                    )
                })
            })
            .transpose()?;

        let metadata = match object.get("metadata") {
            None | Some(Value::Null) => "{}".to_owned(),
            Some(m @ Value::Object(_)) => {
                let text = m.to_string();
                if text.len() > METADATA_MAX_BYTES {
                    return Err(ApiError::invalid(
                        "metadata_too_large",
                        "metadata",
                        format!(
                            "`metadata` is {} bytes as JSON; the limit is 16 KB",
                            text.len()
                        ),
                    ));
                }
                text
            }
            Some(_) => {
                return Err(ApiError::invalid(
                    "invalid_metadata",
                    "metadata",
                    "`metadata` must be an object",
                ));
            }
        };
        let payer = serde_json::json!({
            "name": name,
            "taxId": tax_id.as_str(),
            "email": email.as_ref().map(Email::as_str),
            "phone": phone.as_ref().map(Phone::as_str),
        });
        Ok(Self {
            store: store.to_owned(),
            amount,
            reference,
            description,
            tax_id,
            payer,
            metadata,
        })
    }
}

fn idempotency_key(headers: &HeaderMap) -> Result<IdempotencyKey, ApiError> {
    let raw = headers.get("idempotency-key").ok_or(ApiError::Invalid {
        code: "missing_idempotency_key",
        message: "the Idempotency-Key header is required".into(),
        field: Some("Idempotency-Key".into()),
    })?;
    let text = raw.to_str().map_err(|_| ApiError::Invalid {
        code: "invalid_idempotency_key",
        message: "the Idempotency-Key header must be visible ASCII text".into(),
        field: Some("Idempotency-Key".into()),
    })?;
    IdempotencyKey::parse(text).map_err(|message| ApiError::Invalid {
        code: "invalid_idempotency_key",
        message: message.into(),
        field: Some("Idempotency-Key".into()),
    })
}

/// The stored response for the key, replayed; or 409 when the request differs.
fn replay(record: idempotency::Record, request_hash: &str) -> Result<Response, ApiError> {
    if record.request_hash != request_hash {
        return Err(ApiError::Conflict {
            code: "idempotency_key_reused",
            message: "this Idempotency-Key was used with a different request".into(),
        });
    }
    let mut body: Value = serde_json::from_str(&record.response_body)
        .map_err(|e| ApiError::Internal(format!("stored response: {e}")))?;
    if let Some(data) = body.get_mut("data").and_then(Value::as_object_mut) {
        data.insert("idempotentReplay".into(), Value::Bool(true));
    }
    let status = StatusCode::from_u16(record.response_status as u16).unwrap_or(StatusCode::OK);
    Ok((status, Json(body)).into_response())
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
    params(("Idempotency-Key" = String, Header, description = "Stable key of one logical checkout attempt, at most 200 characters")),
    request_body = CreatePaymentRequest,
    responses(
        (status = 200, description = "PaymentIntent resolved (or replayed)", body = PaymentIntentEnvelope),
        (status = 400, description = "Invalid request: payload, CPF/CNPJ, metadata, Idempotency-Key, or a store rule (e.g. `amount_above_store_limit`)", body = ErrorEnvelope),
        (status = 401, description = "API key missing, invalid or revoked", body = ErrorEnvelope),
        (status = 403, description = "Scope or store not granted (`insufficient_scope`, `store_not_granted`), or the store's live execution is off (`live_execution_disabled`)", body = ErrorEnvelope),
        (status = 404, description = "Store not found (`store_not_found`)", body = ErrorEnvelope),
        (status = 409, description = "Idempotency-Key reused with a different payload (`idempotency_key_reused`)", body = ErrorEnvelope),
        (status = 413, description = "Body over 64 KB", body = ErrorEnvelope),
        (status = 415, description = "Content-Type is not application/json", body = ErrorEnvelope),
        (status = 429, description = "Rate limit of the key exceeded; see Retry-After", body = ErrorEnvelope),
        (status = 503, description = "Routing temporarily unavailable; retry with the same Idempotency-Key", body = ErrorEnvelope),
    )
)]
async fn charge(
    State(state): State<Arc<AppState>>,
    principal: Principal,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    principal.require_any_scope(&[SCOPE_PAYMENTS_CREATE])?;
    let key = idempotency_key(&headers)?;
    let request = ChargeRequest::validate(&body)?;
    let route = state
        .stores
        .get(&state.db, &request.store)
        .await?
        .filter(|r| r.store.merchant_id == principal.merchant_id)
        .ok_or_else(|| {
            ApiError::not_found(
                "store_not_found",
                format!("store `{}` not found", request.store),
            )
        })?;
    let store = &route.store;
    if !principal.granted(&store.id) {
        return Err(ApiError::Forbidden {
            code: "store_not_granted",
            message: format!("this API key is not granted store `{}`", store.code),
        });
    }

    let request_hash = crypto::sha256_hex(canonical_json(&body));
    let now = db::now_ms();
    if let Some(record) =
        idempotency::find(&state.db.read, &principal.merchant_id, key.as_str(), now).await?
    {
        return replay(record, &request_hash);
    }
    if store.mode != "SHADOW" {
        return Err(ApiError::Forbidden {
            code: "live_execution_disabled",
            message: format!(
                "live execution is not enabled for store `{}`; nothing was created",
                store.code
            ),
        });
    }

    let intent_id = uuid::Uuid::now_v7().to_string();
    let resolution = resolve(
        &state,
        store,
        &route.gateways,
        &principal.merchant_code,
        &request,
        &intent_id,
        now,
    )
    .await?;
    let primary = resolution.primary();
    let intent = intents::Intent {
        id: intent_id.clone(),
        merchant_id: principal.merchant_id.clone(),
        store_id: store.id.clone(),
        status: "SHADOW_ONLY".into(),
        amount_centavos: request.amount.centavos() as i64,
        currency: "BRL".into(),
        reference: request.reference.clone(),
        description: request.description.clone(),
        payer_kind: payer_kind(&request.tax_id).into(),
        payer_sealed: state
            .master_key
            .seal(request.payer.to_string().as_bytes())?,
        metadata: request.metadata.clone(),
        idempotency_key: key.as_str().to_owned(),
        routing_mode: store.mode.clone(),
        routing_policy: resolution.policy.output.policy.clone(),
        provider_code: primary.gateway.provider_code.clone(),
        gateway_alias: primary.gateway.gateway_alias.clone(),
        release_class: primary.quote.release_class.clone(),
        cross_class_failover: db::Flag(resolution.policy.output.cross_release_class_failover),
        fee_centavos: primary.quote.fee_centavos as i64,
        net_centavos: primary.quote.net_centavos as i64,
        settlement_date: primary.quote.settlement_date.clone(),
        provider_payment_id: None,
        failure_code: None,
        failure_message: None,
        created_at: now,
        updated_at: now,
        completed_at: Some(now),
    };
    let response = PaymentIntentEnvelope {
        success: true,
        data: PaymentIntent::from_row(&intent, store, false),
    };
    let response_body =
        serde_json::to_string(&response).map_err(|e| ApiError::Internal(e.to_string()))?;
    let trace =
        serde_json::to_string(&resolution).map_err(|e| ApiError::Internal(e.to_string()))?;

    let mut tx = state.db.write.begin().await?;
    let claimed = idempotency::claim(
        &mut *tx,
        &idempotency::NewRecord {
            merchant_id: &principal.merchant_id,
            key: key.as_str(),
            request_hash: &request_hash,
            response_status: 200,
            response_body: &response_body,
            payment_intent_id: Some(&intent_id),
            created_at: now,
            expires_at: now + state.idempotency_retention_ms,
        },
    )
    .await?;
    if !claimed {
        // A concurrent request with this key committed first: replay it (or 409).
        let record = idempotency::find(&mut *tx, &principal.merchant_id, key.as_str(), now).await?;
        tx.rollback().await?;
        return match record {
            Some(record) => replay(record, &request_hash),
            None => Err(ApiError::Conflict {
                code: "idempotency_key_in_use",
                message: "a request with this Idempotency-Key is in progress; retry".into(),
            }),
        };
    }
    intents::insert(&mut *tx, &intent).await?;
    intents::insert_trace(&mut *tx, &intent_id, &trace, now).await?;
    tx.commit().await?;

    for (step, seconds, fuel) in [
        (
            Step::Policy,
            resolution.policy.duration,
            resolution.policy.fuel_used,
        ),
        (
            Step::Provider,
            resolution.provider.duration,
            resolution.provider.fuel_used,
        ),
        (
            Step::Economics,
            resolution.economics.duration,
            resolution.economics.fuel_used,
        ),
    ] {
        state
            .metrics
            .observe_step(step.as_str(), seconds.as_secs_f64(), fuel);
    }
    Ok((StatusCode::OK, Json(response)).into_response())
}

fn payer_kind(tax_id: &TaxId) -> &'static str {
    match tax_id.kind() {
        TaxIdKind::Cpf => "CPF",
        TaxIdKind::Cnpj => "CNPJ",
    }
}

/// Runs the chain for the charge.
async fn resolve(
    state: &Arc<AppState>,
    store: &catalog::Store,
    gateways: &[catalog::Gateway],
    merchant: &str,
    request: &ChargeRequest,
    intent_id: &str,
    now: i64,
) -> Result<Resolution, ApiError> {
    let config: BTreeMap<String, String> = store.config_map();
    let seed = u64::from_le_bytes(
        crypto::sha256_hex(intent_id).as_bytes()[..8]
            .try_into()
            .unwrap_or_default(),
    );
    let input = ChainInput {
        charge: logic::Charge {
            amount_centavos: request.amount.centavos(),
            currency: "BRL".into(),
            reference: request.reference.clone(),
            payer_kind: match request.tax_id.kind() {
                TaxIdKind::Cpf => logic::PayerKind::Cpf,
                TaxIdKind::Cnpj => logic::PayerKind::Cnpj,
            },
            metadata_json: request.metadata.clone(),
            created_at_ms: now,
        },
        store: logic::StoreContext {
            code: store.code.clone(),
            merchant: merchant.to_owned(),
            mode: if store.mode == "LIVE" {
                logic::StoreMode::Live
            } else {
                logic::StoreMode::Shadow
            },
            config: config
                .into_iter()
                .map(|(key, value)| logic::ConfigEntry { key, value })
                .collect(),
        },
        gateways: gateways.iter().map(to_logic_gateway).collect(),
        env: logic::StepEnv { now_ms: now, seed },
    };
    // On the request's own thread, told to tokio as blocking: the chain is ~0.1 ms of CPU
    // with the bundled components, and the blocking pool's hand-off cost two thread switches
    // per charge, which the load profile showed dominating. `block_in_place` (not a plain
    // call) because wasmtime-wasi's synchronous streams (a guest's stderr, where a Rust
    // panic message goes) call `Handle::block_on`, which panics on a runtime worker.
    let result =
        tokio::task::block_in_place(|| chain::resolve(&state.sandbox, &state.bundled, &input));
    result.map_err(|e| match e {
        ChainError::Refused { error, .. } => ApiError::Invalid {
            code: refusal_code(&error.code),
            message: error.message,
            field: None,
        },
        ChainError::NoAcceptableGateway => ApiError::Invalid {
            code: "no_acceptable_gateway",
            message: "no gateway of this store accepts the charge".into(),
            field: None,
        },
        ChainError::Sandbox { step, error } => {
            tracing::error!(%step, code = error.code(), error = %error, "routing component failed");
            ApiError::Unavailable {
                code: "routing_unavailable",
                message: format!(
                    "routing failed in the {step} step; retry with the same Idempotency-Key"
                ),
            }
        }
    })
}

/// A step's refusal code, when it is one of the known stable codes; `charge_refused` otherwise
/// (a custom component's code is still in the message and the trace).
fn refusal_code(code: &str) -> &'static str {
    match code {
        "amount_above_store_limit" => "amount_above_store_limit",
        "amount_below_store_limit" => "amount_below_store_limit",
        "unsupported_currency" => "unsupported_currency",
        "no_eligible_gateway" => "no_eligible_gateway",
        "invalid_store_config" => "invalid_store_config",
        _ => "charge_refused",
    }
}

pub fn to_logic_gateway(g: &catalog::Gateway) -> logic::Gateway {
    logic::Gateway {
        provider_code: g.provider_code.clone(),
        gateway_alias: g.alias.clone(),
        release_class: g.release_class.clone(),
        fee_terms: logic::FeeTerms {
            mdr_bps: g.mdr_bps as u32,
            fixed_centavos: g.fixed_centavos as u64,
            min_fee_centavos: g.min_fee_centavos as u64,
            max_fee_centavos: g.max_fee_centavos.map(|m| m as u64),
        },
        // No live execution yet, so no observations: every gateway starts healthy.
        health: logic::GatewayHealth {
            available: true,
            success_rate_bps: 10_000,
            latency_p50_ms: 0,
            samples: 0,
        },
    }
}

/// Reads a PaymentIntent: status plus routing, economics and provider summary.
#[utoipa::path(
    get,
    path = "/payments/{paymentIntentId}",
    tag = "payments",
    params(("paymentIntentId" = String, Path, format = Uuid, description = "The PaymentIntent's id")),
    responses(
        (status = 200, description = "The PaymentIntent", body = PaymentIntentEnvelope),
        (status = 401, description = "API key missing, invalid or revoked", body = ErrorEnvelope),
        (status = 403, description = "The key lacks `payments:create` and `payments:read`", body = ErrorEnvelope),
        (status = 404, description = "Unknown, malformed, or not granted to the key", body = ErrorEnvelope),
        (status = 429, description = "Rate limit of the key exceeded; see Retry-After", body = ErrorEnvelope),
    )
)]
async fn get_payment(
    State(state): State<Arc<AppState>>,
    principal: Principal,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<Json<PaymentIntentEnvelope>, ApiError> {
    principal.require_any_scope(&[SCOPE_PAYMENTS_CREATE, SCOPE_PAYMENTS_READ])?;
    let not_found = || ApiError::not_found("payment_intent_not_found", "payment intent not found");
    // A malformed id (bad encoding, not a UUID) is as unknown as any other.
    let Path(id) = id.map_err(|_| not_found())?;
    let id = uuid::Uuid::parse_str(&id)
        .map_err(|_| not_found())?
        .to_string();
    let intent = intents::by_id(&state.db.read, &id)
        .await?
        .filter(|i| i.merchant_id == principal.merchant_id && principal.granted(&i.store_id))
        .ok_or_else(not_found)?;
    let store = catalog::store_by_id(&state.db.read, &intent.store_id)
        .await?
        .ok_or_else(|| ApiError::Internal(format!("intent {id} without its store")))?;
    Ok(Json(PaymentIntentEnvelope {
        success: true,
        data: PaymentIntent::from_row(&intent, &store, false),
    }))
}
