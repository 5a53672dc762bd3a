//! The states of the service's resources, as enums (stored as their text names).

use crate::text_enum;

text_enum!(
    /// How a store executes charges.
    StoreMode {
        /// Everything is resolved and recorded; no real PIX is created.
        Shadow = "SHADOW",
        /// Charges are created at a PSP.
        Live = "LIVE",
    }
);

text_enum!(
    /// A PaymentIntent's status: `SHADOW_ONLY` (terminal), or `PENDING` then `SUCCEEDED`,
    /// `FAILED` or `CANCELED` (terminal). A recurring charge due more than 10 days ahead is
    /// `SCHEDULED` first: held until the Pix Automático window opens, then `PENDING` (or
    /// `CANCELED` before it was sent).
    IntentStatus {
        ShadowOnly = "SHADOW_ONLY",
        Scheduled = "SCHEDULED",
        Pending = "PENDING",
        Succeeded = "SUCCEEDED",
        Failed = "FAILED",
        Canceled = "CANCELED",
    }
);

text_enum!(
    /// What kind of PIX charge a PaymentIntent is (DESIGN.md section 15): the API Pix resource
    /// behind it when LIVE. `IMMEDIATE` is `cob`; `DUE_DATE` is `cobv`, an invoice payable
    /// until a due date with a fine, interest and discounts; `RECURRING` is `cobr`, a charge of
    /// a Pix Automático mandate.
    ChargeKind {
        Immediate = "IMMEDIATE",
        DueDate = "DUE_DATE",
        Recurring = "RECURRING",
    }
);

impl IntentStatus {
    pub fn is_terminal(self) -> bool {
        !matches!(self, IntentStatus::Pending | IntentStatus::Scheduled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in IntentStatus::ALL {
            assert_eq!(s.as_str().parse::<IntentStatus>(), Ok(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        // The OpenAPI documents list the same names.
        let schema =
            serde_json::to_value(<IntentStatus as utoipa::PartialSchema>::schema()).unwrap();
        assert_eq!(
            schema["enum"],
            serde_json::json!([
                "SHADOW_ONLY",
                "SCHEDULED",
                "PENDING",
                "SUCCEEDED",
                "FAILED",
                "CANCELED"
            ])
        );
        let schema = serde_json::to_value(<StoreMode as utoipa::PartialSchema>::schema()).unwrap();
        assert_eq!(schema["enum"], serde_json::json!(["SHADOW", "LIVE"]));
        for m in StoreMode::ALL {
            assert!(IntentStatus::try_from(m.as_str().to_owned()).is_err());
            assert_eq!(StoreMode::try_from(m.as_str().to_owned()), Ok(m));
        }
        assert!("shadow".parse::<StoreMode>().is_err());
    }
}
