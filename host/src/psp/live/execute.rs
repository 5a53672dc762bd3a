//! Creating a LIVE charge at a PSP: `PUT` of the charge kind's resource (`/cob/{txid}`,
//! `/cobv/{txid}`: [`crate::psp::charge_kinds`]) along the chain's ranking, failing over to
//! the next gateway when a PSP refuses or cannot answer, across release classes only when
//! the policy allows it. The txid is the same at every attempt and on every retry of the
//! merchant's request, so a PSP that did create the charge answers with that same charge.

use std::time::Instant;

use crate::db::{self, psp_calls::PspCall};
use crate::psp::charge_kinds::{ChargeRecord, ChargeResource, NewCharge};
use crate::psp::client::{CallOperation, CallOutcome, ErrorKind, PspClient};
use pixgate_domain::charge::ChargeRequest;
use pixgate_pix::apipix::{CobStatus, Txid};
use pixgate_pix::brcode;
use pixgate_sandbox::chain::Route;

/// The charge as a PSP created it.
#[derive(Debug, Clone)]
pub struct Created {
    /// Index into the routes: the gateway that created it.
    pub route: usize,
    pub charge: ChargeRecord,
    /// The BR Code: the PSP's `pixCopiaECola` when it is a valid one, else built from the
    /// charge's `location`.
    pub copy_and_paste: String,
    /// Unix ms.
    pub expires_at: i64,
}

/// What trying the ranking gave.
#[derive(Debug)]
pub struct Execution {
    pub created: Option<Created>,
    pub calls: Vec<PspCall>,
}

/// The name and city a BR Code built from a `location` carries (the payload at the location
/// is what the payer's bank shows; these are the code's required fields).
#[derive(Debug, Clone)]
pub struct Merchant<'a> {
    pub name: &'a str,
    pub city: &'a str,
}

impl super::LiveExecution {
    /// Tries `routes` in order until a PSP creates the charge `txid`. A route in another release
    /// class than the first is tried only when `cross_class` allows it. `takeover`: a request
    /// that died may already have created the charge.
    #[allow(clippy::too_many_arguments)]
    #[tracing::instrument(skip_all, fields(txid = %txid.as_str()))]
    pub async fn create_at_psp(
        &self,
        resource: &dyn ChargeResource,
        takeover: bool,
        routes: &[Route],
        cross_class: bool,
        txid: &Txid,
        request: &ChargeRequest,
        expiry_seconds: u32,
        merchant: &Merchant<'_>,
    ) -> Execution {
        let mut calls = Vec::new();
        let Some(first_class) = routes.first().map(|r| r.quote.release_class.as_str()) else {
            return Execution {
                created: None,
                calls,
            };
        };
        for (index, route) in routes.iter().enumerate() {
            if !cross_class && route.quote.release_class != first_class {
                continue;
            }
            let provider = &route.gateway.provider_code;
            let alias = &route.gateway.gateway_alias;
            let mut log = CallLog {
                provider,
                alias,
                calls: &mut calls,
            };
            let client = match self
                .providers
                .client(&self.db, &self.master_key, provider)
                .await
            {
                Ok(client) => client,
                Err(e) => {
                    tracing::warn!(%provider, gateway = %alias, error = %e,
                    "live charge: the gateway's provider cannot be used; next gateway");
                    log.push(
                        resource.operations().put,
                        Instant::now(),
                        CallOutcome::NotConfigured,
                        Some(e.to_string()),
                    );
                    continue;
                }
            };
            let charge = NewCharge {
                request,
                expiry_seconds,
                chave: client.pix_key(),
            };
            let body = match resource.request(&charge) {
                Ok(body) => body,
                Err(why) => {
                    log.push(
                        resource.operations().put,
                        Instant::now(),
                        CallOutcome::Refused,
                        Some(why),
                    );
                    continue;
                }
            };
            let asked = Asked {
                resource,
                txid,
                body: &body,
                charge: &charge,
            };
            let Some(created) = obtain(&client, &asked, takeover, &mut log).await else {
                continue;
            };
            match copy_and_paste(&created, merchant) {
                Ok(code) => {
                    let expires_at = created.expires_at;
                    return Execution {
                        created: Some(Created {
                            route: index,
                            charge: created,
                            copy_and_paste: code,
                            expires_at,
                        }),
                        calls,
                    };
                }
                Err(why) => {
                    // Created, but with nothing a payer can pay: it expires unpaid at the PSP.
                    tracing::warn!(%provider, gateway = %alias, error = %why,
                    "live charge: the PSP's charge has no usable BR Code; next gateway");
                    log.push(
                        resource.operations().put,
                        Instant::now(),
                        CallOutcome::ProtocolError,
                        Some(why),
                    );
                }
            }
        }
        Execution {
            created: None,
            calls,
        }
    }
}

/// The calls of one gateway's attempt, appended to the charge's list.
struct CallLog<'a> {
    provider: &'a str,
    alias: &'a str,
    calls: &'a mut Vec<PspCall>,
}

impl CallLog<'_> {
    fn push(
        &mut self,
        operation: CallOperation,
        started: Instant,
        outcome: CallOutcome,
        error: Option<String>,
    ) {
        self.calls.push(PspCall {
            provider_code: self.provider.to_owned(),
            gateway_alias: Some(self.alias.to_owned()),
            operation,
            outcome,
            duration_ms: started.elapsed().as_millis() as u64,
            error,
            at: db::now_ms() - started.elapsed().as_millis() as i64,
        });
    }
}

/// What is asked of one PSP: the charge `txid` of `resource`, as `body` puts it.
struct Asked<'a> {
    resource: &'a dyn ChargeResource,
    txid: &'a Txid,
    body: &'a serde_json::Value,
    charge: &'a NewCharge<'a>,
}

/// The charge `txid` at this PSP: created by `PUT`, or found by `GET` where it may already
/// exist. A takeover reads first (the dead request may have created it, and a PSP need not
/// answer a repeated PUT with the same charge); a PUT whose answer was lost (timeout, 5xx,
/// unreadable) is followed by one read, so a charge the PSP did create is used rather than
/// left behind while the next gateway creates another.
async fn obtain(
    client: &PspClient,
    asked: &Asked<'_>,
    takeover: bool,
    log: &mut CallLog<'_>,
) -> Option<ChargeRecord> {
    if takeover && let Some(charge) = read_existing(client, asked, log).await {
        return Some(charge);
    }
    let started = Instant::now();
    let put = asked.resource.operations().put;
    match client
        .put_charge(asked.resource, asked.txid, asked.body)
        .await
    {
        // Only a payable charge: a PSP answering a repeated PUT with a concluded charge must
        // not hand an old payment to a new intent.
        Ok(charge) if charge.status == CobStatus::Ativa && matches_request(&charge, asked) => {
            log.push(put, started, CallOutcome::Success, None);
            Some(charge)
        }
        Ok(_) => {
            log.push(
                put,
                started,
                CallOutcome::ProtocolError,
                Some(
                    "the PSP answered with a charge that is not the one sent, or not payable"
                        .into(),
                ),
            );
            None
        }
        Err(e) => {
            tracing::warn!(provider = %log.provider, gateway = %log.alias, error = %e,
                "live charge: the PSP did not create the charge");
            log.push(put, started, e.outcome(), Some(e.to_string()));
            if e.kind() == ErrorKind::Definitive {
                return None;
            }
            read_existing(client, asked, log).await
        }
    }
}

/// `GET` of the charge: it, when it exists, is still payable and is the one asked for.
async fn read_existing(
    client: &PspClient,
    asked: &Asked<'_>,
    log: &mut CallLog<'_>,
) -> Option<ChargeRecord> {
    let started = Instant::now();
    let get = asked.resource.operations().get;
    match client.get_charge(asked.resource, asked.txid).await {
        Ok(charge) if charge.status == CobStatus::Ativa && matches_request(&charge, asked) => {
            log.push(get, started, CallOutcome::Success, None);
            Some(charge)
        }
        Ok(_) => {
            log.push(
                get,
                started,
                CallOutcome::Success,
                Some("the charge exists but is not payable as asked".into()),
            );
            None
        }
        Err(e) => {
            log.push(get, started, e.outcome(), Some(e.to_string()));
            None
        }
    }
}

/// The PSP's charge is the one asked for: its txid, amount and key.
fn matches_request(charge: &ChargeRecord, asked: &Asked<'_>) -> bool {
    is_the_charge(
        charge,
        asked.txid,
        asked.charge.request.amount.centavos(),
        asked.charge.chave,
    )
}

/// The PSP's charge is charge `txid` of `amount_centavos` to `chave`.
pub(super) fn is_the_charge(
    charge: &ChargeRecord,
    txid: &Txid,
    amount_centavos: u64,
    chave: &str,
) -> bool {
    charge.txid == *txid && charge.original.centavos() == amount_centavos && charge.chave == chave
}

/// The PSP's `pixCopiaECola` when it is a valid BR Code pointing at this charge's location
/// (or the PSP gave no location to compare), else the dynamic code built from the location.
pub(super) fn copy_and_paste(
    charge: &ChargeRecord,
    merchant: &Merchant<'_>,
) -> Result<String, String> {
    let location = charge.location.as_deref();
    let bare = |url: &str| url.strip_prefix("https://").unwrap_or(url).to_owned();
    if let Some(code) = &charge.pix_copia_e_cola {
        match brcode::parse(code) {
            Ok(parsed) if location.is_none_or(|l| parsed.location().map(bare) == Some(bare(l))) => {
                return Ok(code.clone());
            }
            Ok(_) => tracing::warn!("the PSP's pixCopiaECola names another location"),
            Err(e) => tracing::warn!(error = %e, "the PSP's pixCopiaECola is not a valid BR Code"),
        }
    }
    let location = location.ok_or("the charge has neither a valid pixCopiaECola nor a location")?;
    brcode::dynamic(location, merchant.name, merchant.city).map_err(|e| e.to_string())
}
