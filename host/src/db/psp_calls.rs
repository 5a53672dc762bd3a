//! The calls made to PSPs for each charge, in order (the intent's trace shows them): the
//! operation and how it ended, stored as their names (`put_cob`, `timeout`, ...) and shown as
//! such by the trace route. The PSP client labels its metrics with the same two enums (one
//! table of names); they live here, with the rows, so that storage does not depend on the PSP
//! side.

use sqlx::{Any, Executor};

pixgate_domain::text_enum!(
    /// An API Pix exchange pixgate makes: the PSP client's metrics label and the operation a
    /// recorded call made. A charge kind's resource (`psp::charge_kinds`) says which of these
    /// its calls are.
    CallOperation {
        /// The OAuth2 token (client credentials); never a call of a charge's trace.
        Token = "token",
        PutCob = "put_cob",
        GetCob = "get_cob",
        PatchCob = "patch_cob",
        PutCobv = "put_cobv",
        GetCobv = "get_cobv",
        PatchCobv = "patch_cobv",
        PutLotecobv = "put_lotecobv",
        GetLotecobv = "get_lotecobv",
        PutWebhook = "put_webhook",
        PutDevolucao = "put_devolucao",
        GetDevolucao = "get_devolucao",
        GetPix = "get_pix",
        /// Pix Automático (DESIGN.md section 17): a recurrence's location, the recurrence
        /// (`rec`), the request sent to the payer's bank (`solicrec`), each cycle's charge
        /// (`cobr`) and its retries; and the registrations of their callbacks.
        PostLocrec = "post_locrec",
        PostRec = "post_rec",
        GetRec = "get_rec",
        PatchRec = "patch_rec",
        PostSolicrec = "post_solicrec",
        PutCobr = "put_cobr",
        GetCobr = "get_cobr",
        PatchCobr = "patch_cobr",
        PostRetentativa = "post_retentativa",
        PutWebhookrec = "put_webhookrec",
        PutWebhookcobr = "put_webhookcobr",
        /// The pix received in a period, a page (`GET /pix`): the ledger sweep's read
        /// (DESIGN.md section 18), of the provider, not of a charge.
        ListPix = "list_pix",
    }
);

impl CallOperation {
    /// The provider's own calls (its token, its callbacks' registration, the ledger sweep's
    /// pages): never recorded for a charge, a refund or a mandate.
    pub const PROVIDER_CALLS: [CallOperation; 5] = [
        CallOperation::Token,
        CallOperation::PutWebhook,
        CallOperation::PutWebhookrec,
        CallOperation::PutWebhookcobr,
        CallOperation::ListPix,
    ];
}

pixgate_domain::text_enum!(
    /// How an exchange with a PSP ended: the PSP client's metrics label and a recorded call's
    /// outcome (`not_configured` only there: the gateway's provider could not be used at all).
    CallOutcome {
        /// A 2xx with a readable answer.
        Success = "success",
        /// A definitive 4xx.
        Refused = "refused",
        /// A 401 (or, at the token endpoint, a 400 or 403): the credentials or the token.
        Unauthorized = "unauthorized",
        /// 5xx, 408 or 429.
        Unavailable = "unavailable",
        Timeout = "timeout",
        /// No connection: refused, unreachable, DNS, TLS handshake.
        ConnectFailed = "connect_failed",
        /// An answer that could not be read or was not the standard's.
        ProtocolError = "protocol_error",
        NotConfigured = "not_configured",
    }
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
    insert_row(ex, payment_intent_id, None, None, call).await
}

/// A call made for one of an intent's refunds.
pub async fn insert_for_refund<'e>(
    ex: impl Executor<'e, Database = Any>,
    payment_intent_id: &str,
    refund_id: &str,
    call: &PspCall,
) -> sqlx::Result<()> {
    insert_row(ex, Some(payment_intent_id), Some(refund_id), None, call).await
}

/// A call made for a mandate (its recurrence at the PSP).
pub async fn insert_for_mandate<'e>(
    ex: impl Executor<'e, Database = Any>,
    mandate_id: &str,
    call: &PspCall,
) -> sqlx::Result<()> {
    insert_row(ex, None, None, Some(mandate_id), call).await
}

async fn insert_row<'e>(
    ex: impl Executor<'e, Database = Any>,
    payment_intent_id: Option<&str>,
    refund_id: Option<&str>,
    mandate_id: Option<&str>,
    call: &PspCall,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into psp_calls (id, payment_intent_id, refund_id, mandate_id, provider_code, \
           gateway_alias, operation, outcome, duration_ms, error, created_at) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(uuid::Uuid::now_v7().to_string())
    .bind(payment_intent_id)
    .bind(refund_id)
    .bind(mandate_id)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;

    /// The table's check constraints and the enums name the same calls: every one a charge's
    /// trace can record is stored and read back (the token and the webhook registration are
    /// the provider's calls, never a charge's).
    #[tokio::test]
    async fn every_call_the_enums_name_is_one_the_table_takes() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let db = Db::connect(&url, 2).await.unwrap();
        let operations = CallOperation::ALL
            .iter()
            .filter(|o| !CallOperation::PROVIDER_CALLS.contains(o));
        for (i, operation) in operations.enumerate() {
            for outcome in CallOutcome::ALL {
                let call = PspCall {
                    provider_code: "p".into(),
                    gateway_alias: None,
                    operation: *operation,
                    outcome,
                    duration_ms: 1,
                    error: None,
                    at: i as i64,
                };
                insert(&db.write, Some("intent"), &call)
                    .await
                    .unwrap_or_else(|e| panic!("{operation} {outcome}: {e}"));
            }
        }
        let read = for_intent(&db.read, "intent").await.unwrap();
        assert_eq!(
            read.len(),
            (CallOperation::ALL.len() - CallOperation::PROVIDER_CALLS.len())
                * CallOutcome::ALL.len()
        );
    }
}
