//! The refund body as the API receives it (`POST /payments/{id}/refunds`, DESIGN.md section
//! 11) and as the refund service uses it: [`RefundRequest`], built only by validation.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

#[cfg(doc)]
use crate::charge::check_literals;
use crate::charge::{Literals, Reais, canonical_json, canonical_metadata, metadata_text};
use crate::json::{Invalid, bounded, from_json};
use crate::money::MoneyError;
use crate::{Money, sha256_hex};

/// Body of `POST /payments/{paymentIntentId}/refunds`. Every field is optional: `{}` refunds
/// what is left of the payment.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"amount": 30.0, "reason": "Item returned", "metadata": {"returnId": "r-88"}}))]
pub struct CreateRefundRequest {
    /// Amount in BRL to give back: at least 0.01, at most two decimals, within what is left
    /// to refund. Absent or `null`: all that is left.
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 100000000.0, multiple_of = 0.01, example = 30.0)]
    pub amount: Option<Reais>,
    /// Shown to the payer (API Pix `descricao`): at most 140 characters, no control characters.
    #[schema(
        max_length = 140,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$",
        example = "Item returned"
    )]
    pub reason: Option<String>,
    /// Free-form JSON object of at most 16 KB, kept as the exact text sent and echoed in the
    /// refund and its events, with the charge's rules (a number beyond any finite double,
    /// `1e400`, is `invalid_metadata`).
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Map<String, Value>>,
    /// `metadata` as written ([`crate::charge::Literals`]), set by `from_body`.
    #[serde(skip)]
    #[doc(hidden)]
    pub metadata_as_sent: Option<String>,
}

/// The codes of type errors in a refund body, per field.
pub const REFUND_FIELD_CODES: &[(&str, &str)] = &[
    ("amount", "invalid_amount"),
    ("reason", "invalid_reason"),
    ("metadata", "invalid_metadata"),
];

/// A refund request after validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundRequest {
    /// `None`: all that is left to refund.
    pub amount: Option<Money>,
    pub reason: Option<String>,
    /// The metadata object as written, without whitespace between tokens (`{}` when absent).
    pub metadata: String,
}

impl CreateRefundRequest {
    pub fn from_json(value: Value) -> Result<Self, Invalid> {
        from_json(value, REFUND_FIELD_CODES)
    }

    /// The body as parsed, with what [`check_literals`] kept of it as written.
    pub fn from_body(value: Value, literals: Literals) -> Result<Self, Invalid> {
        let mut request = Self::from_json(value)?;
        request.metadata_as_sent = literals.metadata;
        Ok(request)
    }

    pub fn validate(self) -> Result<RefundRequest, Invalid> {
        let amount = self
            .amount
            .map(|a| {
                Money::from_brl(a.0).map_err(|e| {
                    Invalid::new(
                        "invalid_amount",
                        "amount",
                        match e {
                            MoneyError::NotFinite => "`amount` is not a usable number",
                            MoneyError::TooManyDecimals => {
                                "`amount` must have at most two decimals"
                            }
                            MoneyError::BelowMinimum => "`amount` must be at least 0.01",
                            MoneyError::AboveMaximum => "`amount` must be at most 100000000.00",
                        },
                    )
                })
            })
            .transpose()?;
        let reason = self
            .reason
            .as_deref()
            .map(|r| bounded(r, "reason", "invalid_reason", 0, 140))
            .transpose()?;
        let metadata = metadata_text(self.metadata.as_ref(), self.metadata_as_sent, "metadata")?;
        Ok(RefundRequest {
            amount,
            reason,
            metadata,
        })
    }
}

impl RefundRequest {
    /// The request's idempotency fingerprint, for the payment it refunds: equal for requests
    /// that mean the same refund (key order, `null` or absent, `30` or `30.0`).
    pub fn fingerprint(&self, payment_intent_id: &str) -> String {
        let normalised = serde_json::json!({
            "v": 1,
            "paymentIntentId": payment_intent_id,
            "amountCentavos": self.amount.map(Money::centavos),
            "reason": self.reason,
            "metadata": canonical_metadata(&self.metadata),
        });
        sha256_hex(canonical_json(&normalised))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn validate(body: Value) -> Result<RefundRequest, Invalid> {
        CreateRefundRequest::from_json(body)?.validate()
    }

    #[test]
    fn an_empty_body_refunds_what_is_left() {
        let r = validate(json!({})).unwrap();
        assert_eq!(r.amount, None);
        assert_eq!(r.metadata, "{}");
    }

    #[test]
    fn amounts_follow_the_charge_rules() {
        assert_eq!(
            validate(json!({"amount": 30}))
                .unwrap()
                .amount
                .unwrap()
                .centavos(),
            3000
        );
        for (amount, code) in [
            (json!(0), "invalid_amount"),
            (json!(0.001), "invalid_amount"),
            (json!("30"), "invalid_amount"),
        ] {
            assert_eq!(validate(json!({"amount": amount})).unwrap_err().code, code);
        }
    }

    #[test]
    fn reasons_are_at_most_140_characters() {
        assert!(validate(json!({"reason": "é".repeat(140)})).is_ok());
        let e = validate(json!({"reason": "a".repeat(141)})).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            ("invalid_reason", Some("reason"))
        );
        assert_eq!(
            validate(json!({"unknown": 1})).unwrap_err().code,
            "unknown_field"
        );
    }

    #[test]
    fn the_same_refund_has_the_same_fingerprint() {
        let a = validate(json!({"amount": 30, "metadata": {"a": 1, "b": 2}})).unwrap();
        let b = validate(json!({"metadata": {"b": 2, "a": 1}, "amount": 30.0, "reason": null}))
            .unwrap();
        assert_eq!(a.fingerprint("p"), b.fingerprint("p"));
        assert_ne!(a.fingerprint("p"), a.fingerprint("q"));
        let c = validate(json!({"amount": 31})).unwrap();
        assert_ne!(a.fingerprint("p"), c.fingerprint("p"));
    }

    /// Issue 30: a refund's metadata is kept as the text sent, as a charge's (no number
    /// refused or respelled for its digits).
    #[test]
    fn metadata_is_kept_as_the_text_sent() {
        let body = r#"{"amount": 30, "metadata": {"x": 4.5291683372467266e+179,
            "id": 123456789012345678901234567890}}"#;
        let literals = crate::charge::check_literals(body.as_bytes(), false).unwrap();
        let r = CreateRefundRequest::from_body(serde_json::from_str(body).unwrap(), literals)
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(
            r.metadata,
            r#"{"x":4.5291683372467266e+179,"id":123456789012345678901234567890}"#
        );
    }
}
