//! What a charge's trace records of each PSP call: the operation and how it ended, stored as
//! their names (`put_cob`, `timeout`, ...) and shown as such by the trace route. The names of
//! the exchanges' [`Outcome`](super::Outcome)s are these too: one table.

/// The API Pix operation a recorded call made.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum CallOperation {
    PutCob,
    GetCob,
    PatchCob,
    PutWebhook,
    PutDevolucao,
    GetDevolucao,
    GetPix,
}

/// How a recorded call ended: the PSP exchange's [`Outcome`](super::Outcome), or
/// `not_configured` when the gateway's provider could not be used at all.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum CallOutcome {
    Success,
    Refused,
    Unauthorized,
    Unavailable,
    Timeout,
    ConnectFailed,
    ProtocolError,
    NotConfigured,
}

/// The stored text of the two enums is their serde name; one definition serves both.
macro_rules! text_enum {
    ($ty:ty, $($variant:ident => $text:literal),+ $(,)?) => {
        impl $ty {
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $text),+ }
            }
        }

        impl std::str::FromStr for $ty {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok(Self::$variant),)+
                    other => Err(format!("unknown {} `{other}`", stringify!($ty))),
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

text_enum!(
    CallOperation,
    PutCob => "put_cob",
    GetCob => "get_cob",
    PatchCob => "patch_cob",
    PutWebhook => "put_webhook",
    PutDevolucao => "put_devolucao",
    GetDevolucao => "get_devolucao",
    GetPix => "get_pix",
);
text_enum!(
    CallOutcome,
    Success => "success",
    Refused => "refused",
    Unauthorized => "unauthorized",
    Unavailable => "unavailable",
    Timeout => "timeout",
    ConnectFailed => "connect_failed",
    ProtocolError => "protocol_error",
    NotConfigured => "not_configured",
);

impl From<super::Outcome> for CallOutcome {
    fn from(o: super::Outcome) -> Self {
        use super::Outcome as O;
        match o {
            O::Success => Self::Success,
            O::Refused => Self::Refused,
            O::Unauthorized => Self::Unauthorized,
            O::Unavailable => Self::Unavailable,
            O::Timeout => Self::Timeout,
            O::ConnectFailed => Self::ConnectFailed,
            O::Protocol => Self::ProtocolError,
        }
    }
}
