//! The states of the service's resources, as enums (stored as their text names).

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Writes an enum stored as text: `as_str`, `Display`, and `TryFrom<String>` for reading a
/// column (`#[sqlx(try_from = "String")]`); an unknown name is a corrupt row, not a panic.
/// The names are `tt`, not `literal`: utoipa does not see a `literal` fragment's string in
/// `#[serde(rename)]`, and the OpenAPI document would show the variant names.
macro_rules! text_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:tt),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),*
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok($name::$variant),)*
                    other => Err(format!("`{other}` is not a {}", stringify!($name))),
                }
            }
        }

        impl TryFrom<String> for $name {
            type Error = String;

            fn try_from(s: String) -> Result<Self, String> {
                s.parse()
            }
        }
    };
}

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
    /// `FAILED` or `CANCELED` (terminal).
    IntentStatus {
        ShadowOnly = "SHADOW_ONLY",
        Pending = "PENDING",
        Succeeded = "SUCCEEDED",
        Failed = "FAILED",
        Canceled = "CANCELED",
    }
);

impl IntentStatus {
    pub fn is_terminal(self) -> bool {
        !matches!(self, IntentStatus::Pending)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in IntentStatus::ALL {
            assert_eq!(s.as_str().parse::<IntentStatus>(), Ok(*s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        // The OpenAPI documents list the same names.
        let schema =
            serde_json::to_value(<IntentStatus as utoipa::PartialSchema>::schema()).unwrap();
        assert_eq!(
            schema["enum"],
            serde_json::json!(["SHADOW_ONLY", "PENDING", "SUCCEEDED", "FAILED", "CANCELED"])
        );
        let schema = serde_json::to_value(<StoreMode as utoipa::PartialSchema>::schema()).unwrap();
        assert_eq!(schema["enum"], serde_json::json!(["SHADOW", "LIVE"]));
        for m in StoreMode::ALL {
            assert!(IntentStatus::try_from(m.as_str().to_owned()).is_err());
            assert_eq!(StoreMode::try_from(m.as_str().to_owned()), Ok(*m));
        }
        assert!("shadow".parse::<StoreMode>().is_err());
    }
}
