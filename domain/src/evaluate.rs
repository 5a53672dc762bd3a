//! The admin evaluate route's body: a store, a charge as the merchant would send it, and
//! optionally a version per step to run instead of the store's active ones.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::StepVersions;
use crate::charge::{CHARGE_FIELD_CODES, ChargeBody, Literals};
use crate::json::{Invalid, from_json, require_objects};

/// Body of `POST /evaluate`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvaluateRequest {
    /// Store code.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$")]
    pub store: String,
    /// A merchant charge body without `store`.
    pub charge: ChargeBody,
    /// Versions to use instead of the store's active ones.
    #[serde(default)]
    pub components: StepVersions,
    /// Decide as the charge with this Idempotency-Key would be: the store's running canaries
    /// assign it their arm (a step named in `components` runs that version instead).
    #[schema(pattern = "^[!-~]([ -~]{0,198}[!-~])?$", max_length = 200)]
    pub idempotency_key: Option<String>,
}

impl EvaluateRequest {
    /// Reads the body, refusing arrays where objects belong (see [`require_objects`]).
    pub fn from_json(value: serde_json::Value) -> Result<Self, Invalid> {
        require_objects(&value, &["charge", "charge.payer"], CHARGE_FIELD_CODES)?;
        from_json(value, CHARGE_FIELD_CODES)
    }

    /// The body as parsed, with what `check_literals(.., true)` kept of its `charge` as written:
    /// the charge's metadata is then the merchant's text, as the charge route keeps it.
    pub fn from_body(value: serde_json::Value, literals: Literals) -> Result<Self, Invalid> {
        let mut request = Self::from_json(value)?;
        request.charge = request.charge.with_literals(literals);
        Ok(request)
    }
}
