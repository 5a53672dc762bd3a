//! The calls made to PSPs for each charge, in order (the intent's trace shows them): the
//! operation and how it ended, stored as their names (`put_cob`, `timeout`, ...) and shown as
//! such by the trace route. The PSP client names its exchanges' outcomes with these too (one
//! table, `psp::client`'s `From<Outcome>`); they live here, with the rows, so that storage
//! does not depend on the PSP side.

use sqlx::{Any, Executor};

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

/// One call made to a PSP for a charge, as its trace shows it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PspCall {
    pub provider_code: String,
    pub gateway_alias: Option<String>,
    pub operation: CallOperation,
    pub outcome: CallOutcome,
    pub duration_ms: u64,
    /// What went wrong, without secrets (the PSP's problem type at most).
    pub error: Option<String>,
    /// Unix ms.
    pub at: i64,
}

pub async fn insert<'e>(
    ex: impl Executor<'e, Database = Any>,
    payment_intent_id: Option<&str>,
    call: &PspCall,
) -> sqlx::Result<()> {
    insert_row(ex, payment_intent_id, None, call).await
}

/// A call made for one of an intent's refunds.
pub async fn insert_for_refund<'e>(
    ex: impl Executor<'e, Database = Any>,
    payment_intent_id: &str,
    refund_id: &str,
    call: &PspCall,
) -> sqlx::Result<()> {
    insert_row(ex, Some(payment_intent_id), Some(refund_id), call).await
}

async fn insert_row<'e>(
    ex: impl Executor<'e, Database = Any>,
    payment_intent_id: Option<&str>,
    refund_id: Option<&str>,
    call: &PspCall,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into psp_calls (id, payment_intent_id, refund_id, provider_code, gateway_alias, \
           operation, outcome, duration_ms, error, created_at) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(uuid::Uuid::now_v7().to_string())
    .bind(payment_intent_id)
    .bind(refund_id)
    .bind(&call.provider_code)
    .bind(&call.gateway_alias)
    .bind(call.operation.as_str())
    .bind(call.outcome.as_str())
    .bind(call.duration_ms as i64)
    .bind(&call.error)
    .bind(call.at)
    .execute(ex)
    .await?;
    Ok(())
}

struct Row {
    provider_code: String,
    gateway_alias: Option<String>,
    operation: String,
    outcome: String,
    duration_ms: i64,
    error: Option<String>,
    created_at: i64,
}

crate::db::from_row!(Row {
    provider_code,
    gateway_alias,
    operation,
    outcome,
    duration_ms,
    error,
    created_at
});

/// The calls made for an intent, oldest first.
pub async fn for_intent<'e>(
    ex: impl Executor<'e, Database = Any>,
    payment_intent_id: &str,
) -> sqlx::Result<Vec<PspCall>> {
    let rows: Vec<Row> = sqlx::query_as(
        "select provider_code, gateway_alias, operation, outcome, duration_ms, error, created_at \
         from psp_calls where payment_intent_id = $1 order by created_at, id",
    )
    .bind(payment_intent_id)
    .fetch_all(ex)
    .await?;
    rows.into_iter()
        .map(|r| {
            let corrupt = |e: String| sqlx::Error::Decode(e.into());
            Ok(PspCall {
                provider_code: r.provider_code,
                gateway_alias: r.gateway_alias,
                operation: r.operation.parse().map_err(corrupt)?,
                outcome: r.outcome.parse().map_err(corrupt)?,
                duration_ms: r.duration_ms.max(0) as u64,
                error: r.error,
                at: r.created_at,
            })
        })
        .collect()
}
