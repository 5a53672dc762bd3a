//! PSP callbacks (`POST {webhookUrl}/pix`, DESIGN.md section 10). Many PSPs cannot sign
//! them, so a callback proves nothing: its path carries the provider's unguessable token,
//! and a callback only triggers a read of each named charge at the PSP ([`super::settle`]).
//! Batched, duplicated or out-of-order callbacks are therefore harmless: the read decides,
//! and an intent moves once. A pix entry carrying `devolucoes[]` triggers a read of that pix's
//! devoluções the same way ([`super::refunds`]).

use std::collections::BTreeSet;

use subtle::ConstantTimeEq;

use super::LiveError;
use crate::db::{intents, refunds};
use crate::psp::providers;
use pixgate_pix::apipix::PixCallback;

/// The most distinct charges one callback may name; API Pix batches are a few pix.
const MAX_TXIDS: usize = 1_000;

impl super::LiveExecution {
    /// The callback's provider exists and the token in its path is that provider's.
    pub(super) async fn check_callback(
        &self,
        provider_code: &str,
        token: &str,
    ) -> Result<(), LiveError> {
        // Checked before any lookup: what a caller puts in the URL or the body reaches SQL only
        // in the shapes a provider code and a txid can have (PostgreSQL refuses NUL outright).
        if !pixgate_domain::valid_code(provider_code) {
            return Err(LiveError::UnknownCallback);
        }
        let expected = providers::callback_token(&self.db, &self.master_key, provider_code)
            .await?
            .ok_or(LiveError::UnknownCallback)?;
        if !bool::from(expected.as_bytes().ct_eq(token.as_bytes())) {
            tracing::warn!(provider = %provider_code, "PSP callback with a wrong token ignored");
            return Err(LiveError::UnknownCallback);
        }
        Ok(())
    }

    /// Checks the callback's provider and token, and starts a settlement of each pending charge
    /// it names (off the PSP's request: it is answered at once). Returns how many it started.
    #[tracing::instrument(skip_all, fields(provider = %provider_code))]
    pub async fn receive(
        &self,
        provider_code: &str,
        token: &str,
        body: &[u8],
    ) -> Result<usize, LiveError> {
        self.check_callback(provider_code, token).await?;
        // The parser's message may quote what the payer wrote: only its position goes back.
        let callback: PixCallback = serde_json::from_slice(body).map_err(|e| {
            LiveError::InvalidCallback(format!("line {} column {}", e.line(), e.column()))
        })?;
        // Each charge is read once however often a callback names it, and a callback names a
        // bounded number of charges: a body of one txid repeated thousands of times costs one
        // lookup and one read at the PSP.
        let mut txids = BTreeSet::new();
        for txid in callback.pix.iter().filter_map(|p| p.txid.as_deref()) {
            if pixgate_pix::apipix::Txid::parse(txid).is_ok()
                && txids.insert(txid)
                && txids.len() > MAX_TXIDS
            {
                return Err(LiveError::InvalidCallback(format!(
                    "a callback names at most {MAX_TXIDS} charges (txid)"
                )));
            }
        }
        // A pix whose entry carries `devolucoes[]`: its refunds are read back (`GET /pix/{e2eid}`),
        // never settled on the callback's word.
        let mut refunded = BTreeSet::new();
        for pix in callback.pix.iter().filter(|p| !p.devolucoes.is_empty()) {
            if refunded.insert(pix.end_to_end_id.as_str()) && refunded.len() > MAX_TXIDS {
                return Err(LiveError::InvalidCallback(format!(
                    "a callback names at most {MAX_TXIDS} pix with devoluções"
                )));
            }
        }
        let mut started = 0;
        for e2eid in refunded {
            if e2eid.is_empty()
                || e2eid.len() > 64
                || !e2eid.bytes().all(|b| b.is_ascii_alphanumeric())
            {
                continue;
            }
            let Some(id) = refunds::intent_by_e2eid(&self.db.read, provider_code, e2eid).await?
            else {
                continue;
            };
            started += 1;
            let (this, provider, e2eid) =
                (self.clone(), provider_code.to_owned(), e2eid.to_owned());
            tokio::spawn(async move {
                if let Err(e) = this.read_pix_devolucoes(&provider, &id, &e2eid).await {
                    tracing::warn!(intent = %id, error = %e,
                    "callback: devoluções not read; pending refunds settle by the reconciler");
                }
            });
        }
        Ok(started + self.settle_named(provider_code, txids).await?)
    }

    /// Starts a settlement (a read at the PSP) of each pending charge of `provider_code` named
    /// by one of `txids`, off the callback's request; how many it started.
    pub(super) async fn settle_named<'a>(
        &self,
        provider_code: &str,
        txids: impl IntoIterator<Item = &'a str>,
    ) -> Result<usize, LiveError> {
        let mut started = 0;
        for txid in txids {
            let Some(id) = intents::pending_by_txid(&self.db.read, provider_code, txid).await?
            else {
                continue;
            };
            started += 1;
            let this = self.clone();
            tokio::spawn(async move {
                if let Err(e) = this.settle(&id).await {
                    tracing::warn!(intent = %id, error = %e,
                    "callback: not settled; the reconciler tries again");
                }
            });
        }
        Ok(started)
    }
}
