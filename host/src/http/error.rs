//! The HTTP error type: every non-2xx body is the envelope
//! `{"success": false, "error": {"code", "message", "field"?, "requestId"}}` with a stable code.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::internal::Internal;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{message}")]
    Invalid {
        code: &'static str,
        message: String,
        field: Option<String>,
    },
    /// Schema-valid, but refused by a rule a JSON schema cannot state (one between fields).
    #[error("{message}")]
    Unprocessable {
        code: &'static str,
        message: String,
        field: String,
    },
    #[error("{message}")]
    Unauthorized { code: &'static str, message: String },
    #[error("{message}")]
    Forbidden { code: &'static str, message: String },
    #[error("{message}")]
    NotFound { code: &'static str, message: String },
    #[error("{message}")]
    Conflict { code: &'static str, message: String },
    /// It existed and is gone for good (purged past its retention).
    #[error("{message}")]
    Gone { code: &'static str, message: String },
    #[error("request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    /// A 413 with its own code (an upload over its limit).
    #[error("{message}")]
    TooLarge { code: &'static str, message: String },
    /// The body did not arrive within `PIXGATE_BODY_READ_TIMEOUT`.
    #[error("the request body did not arrive in time")]
    RequestTimeout,
    #[error("Content-Type must be application/json")]
    UnsupportedMediaType,
    #[error("Content-Type must be {expected}")]
    WrongContentType { expected: &'static str },
    #[error("rate limit exceeded; retry after {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    /// A 429 with its own code: heavy admin work at its bound (uploads, replays at once).
    #[error("{message}")]
    Busy {
        code: &'static str,
        message: String,
        retry_after_secs: u64,
    },
    /// A 507: the component store is full.
    #[error("{message}")]
    InsufficientStorage { code: &'static str, message: String },
    #[error("{message}")]
    Unavailable { code: &'static str, message: String },
    /// Details go to the log (once, with the request id), never to the client.
    #[error("internal error")]
    Internal(#[source] Internal),
}

impl ApiError {
    pub fn invalid(code: &'static str, field: &str, message: impl Into<String>) -> Self {
        Self::Invalid {
            code,
            message: message.into(),
            field: Some(field.to_owned()),
        }
    }

    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::NotFound {
            code,
            message: message.into(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Invalid { .. } => StatusCode::BAD_REQUEST,
            Self::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            Self::Forbidden { .. } => StatusCode::FORBIDDEN,
            Self::NotFound { .. } => StatusCode::NOT_FOUND,
            Self::Conflict { .. } => StatusCode::CONFLICT,
            Self::Gone { .. } => StatusCode::GONE,
            Self::PayloadTooLarge(_) | Self::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Self::UnsupportedMediaType | Self::WrongContentType { .. } => {
                StatusCode::UNSUPPORTED_MEDIA_TYPE
            }
            Self::RateLimited { .. } | Self::Busy { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::InsufficientStorage { .. } => StatusCode::INSUFFICIENT_STORAGE,
            Self::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::Invalid { code, .. }
            | Self::Unprocessable { code, .. }
            | Self::Unauthorized { code, .. }
            | Self::Forbidden { code, .. }
            | Self::NotFound { code, .. }
            | Self::Conflict { code, .. }
            | Self::Gone { code, .. }
            | Self::TooLarge { code, .. }
            | Self::Busy { code, .. }
            | Self::InsufficientStorage { code, .. }
            | Self::Unavailable { code, .. } => code,
            Self::PayloadTooLarge(_) => "payload_too_large",
            Self::RequestTimeout => "request_timeout",
            Self::UnsupportedMediaType | Self::WrongContentType { .. } => "unsupported_media_type",
            Self::RateLimited { .. } => "rate_limited",
            Self::Internal(_) => "internal_error",
        }
    }
}

impl From<crate::access::MissingScope> for ApiError {
    fn from(e: crate::access::MissingScope) -> Self {
        Self::Forbidden {
            code: "insufficient_scope",
            message: e.to_string(),
        }
    }
}

impl From<crate::access::AccessError> for ApiError {
    fn from(e: crate::access::AccessError) -> Self {
        use crate::access::AccessError as E;
        let unauthorized = |code| Self::Unauthorized {
            code,
            message: e.to_string(),
        };
        match e {
            E::InvalidKey => unauthorized("invalid_api_key"),
            E::Revoked => unauthorized("api_key_revoked"),
            E::InvalidAdminToken | E::RevokedAdminToken => unauthorized("invalid_admin_token"),
            E::RateLimited { retry_after_secs } => Self::RateLimited { retry_after_secs },
            E::Db(e) => e.into(),
        }
    }
}

impl From<pixgate_domain::json::Invalid> for ApiError {
    fn from(e: pixgate_domain::json::Invalid) -> Self {
        Self::Invalid {
            code: e.code,
            message: e.message,
            field: e.field,
        }
    }
}

impl From<crate::charges::ChargeError> for ApiError {
    fn from(e: crate::charges::ChargeError) -> Self {
        use crate::charges::ChargeError as E;
        let message = e.to_string();
        match e {
            E::Invalid(invalid) => invalid.into(),
            E::MissingScope(missing) => missing.into(),
            E::StoreNotFound(_) => Self::not_found("store_not_found", message),
            E::StoreNotGranted(_) => Self::Forbidden {
                code: "store_not_granted",
                message,
            },
            E::KeyReused => Self::Conflict {
                code: "idempotency_key_reused",
                message,
            },
            E::KeyInUse => Self::Conflict {
                code: "idempotency_key_in_use",
                message,
            },
            E::LiveExecutionDisabled(_) => Self::Forbidden {
                code: "live_execution_disabled",
                message,
            },
            E::Refused { code, message } => Self::Invalid {
                code,
                message,
                field: None,
            },
            E::RoutingUnavailable(_) => Self::Unavailable {
                code: "routing_unavailable",
                message,
            },
            E::IntentNotFound => Self::not_found("payment_intent_not_found", message),
            E::TracePurged => Self::Gone {
                code: "trace_purged",
                message,
            },
            E::NotCancelable(_) => Self::Conflict {
                code: "payment_not_cancelable",
                message,
            },
            E::NotADueDateCharge => Self::Conflict {
                code: "not_a_due_date_charge",
                message,
            },
            E::PspUnavailable(_) => Self::Unavailable {
                code: "psp_unavailable",
                message,
            },
            E::Internal(detail) => Self::Internal(detail),
        }
    }
}

impl From<crate::mandates::MandateError> for ApiError {
    fn from(e: crate::mandates::MandateError) -> Self {
        use crate::mandates::MandateError as E;
        let message = e.to_string();
        match e {
            E::Invalid(invalid) => invalid.into(),
            E::MissingScope(missing) => missing.into(),
            E::StoreNotFound(_) => Self::not_found("store_not_found", message),
            E::StoreNotGranted(_) => Self::Forbidden {
                code: "store_not_granted",
                message,
            },
            E::KeyReused => Self::Conflict {
                code: "idempotency_key_reused",
                message,
            },
            E::LiveExecutionDisabled(_) => Self::Forbidden {
                code: "live_execution_disabled",
                message,
            },
            E::KeyInUse => Self::Conflict {
                code: "idempotency_key_in_use",
                message,
            },
            E::Refused { code, message } => Self::Invalid {
                code,
                message,
                field: None,
            },
            E::RoutingUnavailable(_) => Self::Unavailable {
                code: "routing_unavailable",
                message,
            },
            E::MandateNotFound => Self::not_found("mandate_not_found", message),
            E::MerchantNotFound(_) => Self::not_found("merchant_not_found", message),
            E::NotCancelable(_) => Self::Conflict {
                code: "mandate_not_cancelable",
                message,
            },
            E::PspUnavailable(_) => Self::Unavailable {
                code: "psp_unavailable",
                message,
            },
            E::FirstPayment(charge) | E::Charge(charge) => (*charge).into(),
            E::NotActive(_) => Self::Conflict {
                code: "mandate_not_active",
                message,
            },
            E::CycleCharged { .. } => Self::Conflict {
                code: "cycle_already_charged",
                message,
            },
            E::Internal(detail) => Self::Internal(detail),
        }
    }
}

impl From<crate::charges::batches::BatchError> for ApiError {
    fn from(e: crate::charges::batches::BatchError) -> Self {
        use crate::charges::batches::BatchError as E;
        let message = e.to_string();
        match e {
            E::Invalid(invalid) => invalid.into(),
            E::MissingScope(missing) => missing.into(),
            E::StoreNotFound(_) => Self::not_found("store_not_found", message),
            E::StoreNotGranted(_) => Self::Forbidden {
                code: "store_not_granted",
                message,
            },
            E::LiveExecutionDisabled(_) => Self::Forbidden {
                code: "live_execution_disabled",
                message,
            },
            E::KeyReused => Self::Conflict {
                code: "idempotency_key_reused",
                message,
            },
            E::KeyInUse => Self::Conflict {
                code: "idempotency_key_in_use",
                message,
            },
            E::BatchNotFound => Self::not_found("charge_batch_not_found", message),
            E::Internal(detail) => Self::Internal(detail),
        }
    }
}

impl From<crate::refunds::RefundError> for ApiError {
    fn from(e: crate::refunds::RefundError) -> Self {
        use crate::refunds::RefundError as E;
        let message = e.to_string();
        match e {
            E::Invalid(invalid) => invalid.into(),
            E::MissingScope(missing) => missing.into(),
            E::IntentNotFound => Self::not_found("payment_intent_not_found", message),
            E::RefundNotFound => Self::not_found("refund_not_found", message),
            E::NotRefundable(_) => Self::Conflict {
                code: "payment_not_refundable",
                message,
            },
            E::ExceedsRefundable(_) => Self::Conflict {
                code: "refund_exceeds_refundable",
                message,
            },
            E::KeyReused => Self::Conflict {
                code: "idempotency_key_reused",
                message,
            },
            E::KeyInUse => Self::Conflict {
                code: "idempotency_key_in_use",
                message,
            },
            E::NotResolvable(_) => Self::Conflict {
                code: "payment_not_resolvable",
                message,
            },
            E::Busy(_) => Self::Conflict {
                code: "payment_busy",
                message,
            },
            E::Internal(detail) => Self::Internal(detail),
        }
    }
}

impl From<crate::reconciliation::ReconcileError> for ApiError {
    fn from(e: crate::reconciliation::ReconcileError) -> Self {
        use crate::reconciliation::ReconcileError as E;
        let message = e.to_string();
        match e {
            E::ProviderNotFound(_) => Self::not_found("provider_not_found", message),
            E::FutureDate(_) => {
                pixgate_domain::json::Invalid::new("invalid_date", "date", message).into()
            }
            E::Running { .. } => Self::Conflict {
                code: "reconciliation_running",
                message,
            },
            E::NotFound => Self::not_found("reconciliation_not_found", message),
            // A run's own failures end the run, never a request.
            E::Psp(_) | E::Abandoned => Self::Internal(crate::internal::Internal::broken(message)),
            E::Internal(detail) => Self::Internal(detail),
        }
    }
}

impl From<crate::settlements::SettlementError> for ApiError {
    fn from(e: crate::settlements::SettlementError) -> Self {
        use crate::settlements::SettlementError as E;
        let message = e.to_string();
        match e {
            E::Invalid(invalid) => invalid.into(),
            E::MissingScope(missing) => missing.into(),
            E::MerchantNotFound(_) => Self::not_found("merchant_not_found", message),
            E::ProviderNotFound(_) => Self::not_found("provider_not_found", message),
            E::Internal(detail) => Self::Internal(detail),
        }
    }
}

impl From<crate::psp::live::LiveError> for ApiError {
    fn from(e: crate::psp::live::LiveError) -> Self {
        use crate::psp::live::LiveError as E;
        match e {
            // As an unknown route: a guessed token learns nothing.
            E::UnknownCallback => Self::not_found("not_found", "not found".to_owned()),
            E::InvalidCallback(_) => Self::Invalid {
                code: "invalid_callback",
                message: e.to_string(),
                field: None,
            },
            e => Self::Internal(Internal::of(e)),
        }
    }
}

impl From<crate::components::ComponentError> for ApiError {
    fn from(e: crate::components::ComponentError) -> Self {
        use crate::components::ComponentError as E;
        let message = e.to_string();
        match e {
            E::InvalidComponent(_) => Self::Invalid {
                code: "invalid_component",
                message,
                field: None,
            },
            E::WrongWorld { .. } => Self::Invalid {
                code: "wrong_world",
                message,
                field: None,
            },
            E::UnsupportedImport(_) => Self::Invalid {
                code: "unsupported_import",
                message,
                field: None,
            },
            E::ExceedsLimits(_) => Self::Invalid {
                code: "component_exceeds_limits",
                message,
                field: None,
            },
            E::TooLarge { .. } => Self::TooLarge {
                code: "component_too_large",
                message,
            },
            E::NotFound { .. } => Self::not_found("component_not_found", message),
            E::StoreNotFound(_) => Self::not_found("store_not_found", message),
            E::BudgetOverMaximum { field, .. } => Self::Unprocessable {
                code: "budget_over_maximum",
                message,
                field: field.to_owned(),
            },
            E::InUse { .. } => Self::Conflict {
                code: "component_in_use",
                message,
            },
            E::BundledIsPermanent => Self::Conflict {
                code: "component_bundled",
                message,
            },
            E::CanaryIsActive { .. } => Self::Conflict {
                code: "canary_is_active",
                message,
            },
            E::CanaryNotFound { .. } => Self::not_found("canary_not_found", message),
            E::NothingToRollBack { .. } => Self::Conflict {
                code: "nothing_to_roll_back",
                message,
            },
            E::Invalid { code, field, .. } => Self::Invalid {
                code,
                message,
                field: (!field.is_empty()).then_some(field),
            },
            E::TooManyUploads { .. } => Self::Busy {
                code: "too_many_uploads",
                message,
                retry_after_secs: crate::components::limits::UPLOAD_RETRY_AFTER_SECS,
            },
            E::TooManyReplays { .. } | E::TooManyReplaysOfStore { .. } => Self::Busy {
                code: "too_many_replays",
                message,
                retry_after_secs: crate::components::limits::REPLAY_RETRY_AFTER_SECS,
            },
            E::StoreFull { .. } => Self::InsufficientStorage {
                code: "component_store_full",
                message,
            },
            E::Db(e) => e.into(),
            E::Internal(detail) => Self::Internal(detail),
        }
    }
}

impl From<crate::catalog::CatalogError> for ApiError {
    fn from(e: crate::catalog::CatalogError) -> Self {
        use crate::catalog::CatalogError as E;
        let message = e.to_string();
        let conflict = |code| Self::Conflict {
            code,
            message: message.clone(),
        };
        match e {
            E::Invalid(invalid) => invalid.into(),
            E::Unprocessable { code, field, .. } => Self::Unprocessable {
                code,
                message,
                field,
            },
            E::MerchantNotFound(_) => Self::not_found("merchant_not_found", message),
            E::StoreNotFound(_) | E::NotTheMerchantsStore(_) => {
                Self::not_found("store_not_found", message)
            }
            E::GatewayNotFound(_) => Self::not_found("gateway_not_found", message),
            E::ApiKeyNotFound => Self::not_found("api_key_not_found", message),
            E::MerchantCodeTaken => conflict("merchant_code_taken"),
            E::StoreCodeTaken => conflict("store_code_taken"),
            E::GatewayAliasTaken => conflict("gateway_alias_taken"),
            E::Db(e) => e.into(),
            E::Crypto(e) => e.into(),
        }
    }
}

impl From<crate::webhooks::endpoints::EndpointError> for ApiError {
    fn from(e: crate::webhooks::endpoints::EndpointError) -> Self {
        use crate::webhooks::endpoints::EndpointError as E;
        let message = e.to_string();
        let conflict = |code| Self::Conflict {
            code,
            message: message.clone(),
        };
        match e {
            E::Invalid(invalid) => invalid.into(),
            E::NotFound => Self::not_found("webhook_endpoint_not_found", message),
            E::DeliveryNotFound | E::CursorNotFound => {
                Self::not_found("webhook_delivery_not_found", message)
            }
            E::IntentNotFound => Self::not_found("payment_intent_not_found", message),
            E::MerchantNotFound(_) => Self::not_found("merchant_not_found", message),
            E::Revoked => conflict("endpoint_revoked"),
            E::NotActive(_) => conflict("endpoint_not_active"),
            E::InFlight => conflict("delivery_in_flight"),
            E::Duplicate => conflict("duplicate_endpoint"),
            E::LimitReached(_) => conflict("endpoint_limit_reached"),
            E::Internal(detail) => Self::Internal(detail),
        }
    }
}

impl From<crate::db::DbError> for ApiError {
    fn from(e: crate::db::DbError) -> Self {
        Self::Internal(e.into())
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl From<crate::crypto::CryptoError> for ApiError {
    fn from(e: crate::crypto::CryptoError) -> Self {
        Self::Internal(e.into())
    }
}

/// The `error` object of the envelope.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorDetail {
    /// Stable snake_case code, e.g. `invalid_tax_id`.
    #[schema(example = "invalid_tax_id")]
    pub code: String,
    pub message: String,
    /// The request field at fault, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The request's id (the `X-Request-Id` header).
    pub request_id: String,
}

/// Every non-2xx response body.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ErrorEnvelope {
    /// Always false.
    pub success: bool,
    pub error: ErrorDetail,
}

/// Put on error responses so the request-id middleware can finish the envelope.
#[derive(Debug, Clone)]
pub struct PendingError(pub ErrorDetail);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Self::Internal(detail) = &self {
            tracing::error!(error = %detail, "internal error");
        }
        let detail = ErrorDetail {
            code: self.code().to_owned(),
            message: self.to_string(),
            field: match &self {
                Self::Invalid { field, .. } => field.clone(),
                Self::Unprocessable { field, .. } => Some(field.clone()),
                _ => None,
            },
            request_id: String::new(),
        };
        let mut response = self.status().into_response();
        if let Self::RateLimited { retry_after_secs }
        | Self::Busy {
            retry_after_secs, ..
        } = self
        {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
        }
        response.extensions_mut().insert(PendingError(detail));
        response
    }
}

/// The envelope for a status that no handler produced (unknown route, wrong method, ...).
pub fn generic_detail(status: StatusCode) -> ErrorDetail {
    let (code, message) = match status {
        StatusCode::NOT_FOUND => ("not_found", "no such resource"),
        StatusCode::METHOD_NOT_ALLOWED => {
            ("method_not_allowed", "method not allowed on this resource")
        }
        StatusCode::PAYLOAD_TOO_LARGE => ("payload_too_large", "request body too large"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => (
            "unsupported_media_type",
            "Content-Type must be application/json",
        ),
        StatusCode::REQUEST_TIMEOUT => ("request_timeout", "request took too long"),
        s if s.is_client_error() => ("bad_request", "the request could not be processed"),
        _ => ("internal_error", "internal error"),
    };
    ErrorDetail {
        code: code.to_owned(),
        message: message.to_owned(),
        field: None,
        request_id: String::new(),
    }
}
