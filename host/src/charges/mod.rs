//! The charge service: creating an idempotent PaymentIntent and reading one. The HTTP layer
//! hands it a validated [`ChargeRequest`] and the caller's [`Principal`]; it answers with the
//! response to send (fresh or replayed) or a [`ChargeError`].
//!
//! A charge: the store (cache), the Idempotency-Key (replay or 409), the store's mode, the
//! chain with the versions the store runs (taken once, so an activation never changes a
//! charge in flight), then the intent, its trace and its idempotency record in one
//! transaction. After the commit: metrics, the kill switch's count, the shadow candidates.

pub mod batches;
mod live;
pub(crate) use live::brasilia_midnight_ms;
pub mod view;

#[cfg(test)]
pub(crate) mod tests;

use std::sync::Arc;

use serde_json::Value;

use pixgate_domain::Money;
use pixgate_domain::charge::ChargeRequest;
use pixgate_domain::due::{self, AmountDue, Date};
use pixgate_domain::json::Invalid;
use view::{PaymentIntent, PaymentIntentEnvelope};

use crate::access::{MissingScope, Principal};
use crate::components::canary::CanaryArm;
use crate::crypto::{CryptoError, MasterKey};
use crate::db::group_commit::GroupCommit;
use crate::db::store_cache::{StoreCache, StoreRoute};
use crate::db::{self, Db, DbError, catalog, group_commit, idempotency, intents};
use crate::internal::Internal;
use crate::metrics::Metrics;
use crate::psp::live::LiveExecution;
use crate::psp::live::cancel::CancelOutcome;
use crate::routing::{Resolved, Routing, RoutingError, recorded_trace};
use crate::webhooks::Wake;
use pixgate_domain::Step;
use pixgate_domain::{IdempotencyKey, IntentStatus, StoreMode};
use pixgate_sandbox::chain::{Components, DecisionTrace};

#[derive(Debug, thiserror::Error)]
pub enum ChargeError {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error(transparent)]
    MissingScope(#[from] MissingScope),
    #[error("store `{0}` not found")]
    StoreNotFound(String),
    #[error("this API key is not granted store `{0}`")]
    StoreNotGranted(String),
    #[error("this Idempotency-Key was used with a different request")]
    KeyReused,
    #[error("a request with this Idempotency-Key is in progress; retry")]
    KeyInUse,
    #[error("live execution is not enabled for store `{0}`; nothing was created")]
    LiveExecutionDisabled(String),
    /// A step refused the charge (a business rule); `code` is one of the stable codes.
    #[error("{message}")]
    Refused { code: &'static str, message: String },
    #[error("routing failed in the {0} step; retry with the same Idempotency-Key")]
    RoutingUnavailable(Step),
    #[error("payment intent not found")]
    IntentNotFound,
    #[error("this payment intent's trace is past PIXGATE_TRACE_RETENTION")]
    TracePurged,
    #[error("{0}")]
    NotCancelable(String),
    #[error("this payment is not a due-date charge: its amount does not change with the date")]
    NotADueDateCharge,
    /// The PSP could not be reached or read; nothing changed.
    #[error("{0}")]
    PspUnavailable(String),
    /// Details go to the log, never to the client.
    #[error(transparent)]
    Internal(#[from] Internal),
}

impl From<DbError> for ChargeError {
    fn from(e: DbError) -> Self {
        Self::Internal(e.into())
    }
}

impl From<sqlx::Error> for ChargeError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl From<RoutingError> for ChargeError {
    fn from(e: RoutingError) -> Self {
        match e {
            RoutingError::Refused { code, message } => Self::Refused { code, message },
            RoutingError::Unavailable(step) => Self::RoutingUnavailable(step),
            RoutingError::GatewaysDown(why) => Self::PspUnavailable(why),
        }
    }
}

impl From<CryptoError> for ChargeError {
    fn from(e: CryptoError) -> Self {
        Self::Internal(e.into())
    }
}

/// The response to send: a fresh charge or a replayed one, with its HTTP status.
#[derive(Debug)]
pub struct Charged {
    pub status: u16,
    /// The envelope `{"success": true, "data": PaymentIntent}` as JSON text: the metadata in
    /// it is the merchant's text, which a `Value` would respell.
    pub body: String,
}

/// The charge service. Built once by the composition root; cheap to clone.
#[derive(Clone)]
pub struct Charges {
    deps: Arc<ChargeDeps>,
}

impl std::fmt::Debug for Charges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Charges").finish_non_exhaustive()
    }
}

/// What the charge service uses.
#[derive(Debug)]
pub struct ChargeDeps {
    pub db: Db,
    /// Stores with their gateways and the versions they run, for the charge path.
    pub stores: Arc<StoreCache>,
    /// New SHADOW charges are written through it, many to a transaction.
    pub commits: GroupCommit,
    /// Seals the payer's PII in the intent row.
    pub master_key: MasterKey,
    /// The chain with the store's versions, canaries, the kill switch and shadow candidates.
    pub routing: Routing,
    pub metrics: Arc<Metrics>,
    /// A LIVE store's charge is created at its PSP through it.
    pub live: LiveExecution,
    /// Wakes this instance's webhook sender after a charge's event is committed.
    pub wake: Wake,
    pub idempotency_retention_ms: i64,
}

impl Charges {
    pub fn new(deps: ChargeDeps) -> Self {
        Self {
            deps: Arc::new(deps),
        }
    }

    /// Creates the PaymentIntent for `request`, or replays the one this Idempotency-Key made.
    /// `legacy_fingerprint` is the hash earlier versions stored for this request (of its raw
    /// JSON): records written before the upgrade, still within their retention, replay too.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, store = %request.store, intent = tracing::field::Empty))]
    pub async fn create(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        request: ChargeRequest,
        legacy_fingerprint: Option<&str>,
    ) -> Result<Charged, ChargeError> {
        let route = self
            .deps
            .stores
            .get(&self.deps.db, &request.store)
            .await?
            .filter(|r| r.store.merchant_id == principal.merchant_id)
            .ok_or_else(|| ChargeError::StoreNotFound(request.store.clone()))?;
        let store = &route.store;
        if !principal.granted(&store.id) {
            return Err(ChargeError::StoreNotGranted(store.code.clone()));
        }

        let fingerprint = request.fingerprint();
        let now = db::now_ms();
        let existing = idempotency::find(
            &self.deps.db.read,
            &principal.merchant_id,
            key.as_str(),
            now,
        )
        .await?;
        // An in-progress claim (a LIVE charge at its PSP) whose lease ran out: its request died,
        // and this retry takes the charge over.
        let mut abandoned = None;
        if let Some(record) = existing {
            match record.lease_until {
                None => return replay(record, &fingerprint, legacy_fingerprint),
                Some(_) if !same_request(&record, &fingerprint, legacy_fingerprint) => {
                    return Err(ChargeError::KeyReused);
                }
                Some(lease) if lease > now => return Err(ChargeError::KeyInUse),
                Some(_) => abandoned = Some(record),
            }
        }
        match store.mode {
            StoreMode::Shadow if abandoned.is_none() => {}
            StoreMode::Live if store.live_enabled.0 => {
                return self
                    .create_live(principal, key, request, &route, &fingerprint, abandoned)
                    .await;
            }
            // A store switched from LIVE to SHADOW while a charge of this key was at its PSP:
            // that charge is for the LIVE path to finish, never for a shadow intent.
            StoreMode::Shadow => return Err(ChargeError::KeyInUse),
            StoreMode::Live => return Err(ChargeError::LiveExecutionDisabled(store.code.clone())),
        }

        let intent_id = uuid::Uuid::now_v7().to_string();
        tracing::Span::current().record("intent", intent_id.as_str());
        let Resolved {
            components,
            trace,
            canaries,
        } = self
            .resolve(&route, principal, key, &request, &intent_id, now)
            .await?;
        let intent =
            self.new_intent(principal, &route, key, &request, &trace, 0, &intent_id, now)?;
        let envelope = PaymentIntentEnvelope {
            success: true,
            data: PaymentIntent::from_row(&intent, store, false),
        };
        let body = serde_json::to_string(&envelope)
            .map_err(|e| Internal::caused("the charge's answer", e))?;
        let response_body = body.clone();
        let trace_json = recorded_trace(&trace, &canaries)?;

        let record = idempotency::NewRecord {
            merchant_id: principal.merchant_id.clone(),
            key: key.as_str().to_owned(),
            request_hash: fingerprint.clone(),
            response_status: 200,
            response_body,
            payment_intent_id: Some(intent_id.clone()),
            created_at: now,
            expires_at: now + self.deps.idempotency_retention_ms,
            lease_until: None,
        };
        let outcome = self
            .deps
            .commits
            .charge(group_commit::ChargeWrite {
                record,
                intent,
                trace: trace_json,
            })
            .await
            .map_err(|e| Internal::caused("the charge's rows", e))?;
        if outcome == group_commit::Outcome::KeyTaken {
            // A concurrent request with this key committed first: replay it (or 409).
            return self
                .replay_winner(principal, key, &fingerprint, legacy_fingerprint, now)
                .await;
        }
        self.after_commit(&route, &intent_id, trace, components, &canaries);
        Ok(Charged { status: 200, body })
    }

    /// The intent a charge creates, routed on `trace.routes[route_index]` (the gateway that
    /// took it): `SHADOW_ONLY` and complete; the LIVE path sets its status and PIX charge.
    #[allow(clippy::too_many_arguments)]
    fn new_intent(
        &self,
        principal: &Principal,
        route: &StoreRoute,
        key: &IdempotencyKey,
        request: &ChargeRequest,
        trace: &DecisionTrace,
        route_index: usize,
        intent_id: &str,
        now: i64,
    ) -> Result<intents::Intent, ChargeError> {
        let store = &route.store;
        let chosen = trace.routes.get(route_index).unwrap_or(trace.primary());
        Ok(intents::Intent::new(intents::NewIntent {
            id: intent_id.to_owned(),
            merchant_id: principal.merchant_id.clone(),
            store_id: store.id.clone(),
            kind: request.kind(),
            amount_centavos: request.amount.centavos() as i64,
            reference: request.reference.clone(),
            description: request.description.clone(),
            payer_kind: request.payer.kind(),
            payer_sealed: self
                .deps
                .master_key
                .seal(request.payer.to_json().to_string().as_bytes())?,
            metadata: request.metadata.clone(),
            idempotency_key: key.as_str().to_owned(),
            routing: intents::Routing {
                mode: store.mode,
                policy: trace.policy.output.policy.clone(),
                provider_code: chosen.gateway.provider_code.clone(),
                gateway_alias: chosen.gateway.gateway_alias.clone(),
                release_class: chosen.quote.release_class.clone(),
                cross_class_failover: trace.policy.output.cross_release_class_failover,
                fee_centavos: chosen.quote.fee_centavos as i64,
                net_centavos: chosen.quote.net_centavos as i64,
                settlement_date: chosen.quote.settlement_date.clone(),
            },
            due_terms: request.due.as_ref().map(|d| d.to_json().to_string()),
            recurring: request
                .recurring
                .as_ref()
                .map(|r| intents::RecurringRow {
                    mandate_id: Some(r.mandate_id.clone()),
                    mandate_cycle: Some(i64::from(r.cycle)),
                    due_date: Some(r.due_date.to_string()),
                    attempts: Some("[]".into()),
                })
                .unwrap_or_default(),
            created_at: now,
        }))
    }

    /// The chain for a charge, through the routing handle (see [`crate::routing`]).
    async fn resolve(
        &self,
        route: &StoreRoute,
        principal: &Principal,
        key: &IdempotencyKey,
        request: &ChargeRequest,
        intent_id: &str,
        now: i64,
    ) -> Result<Resolved, ChargeError> {
        Ok(self
            .deps
            .routing
            .resolve(route, principal, key, request, intent_id, now)
            .await?)
    }

    /// After a charge's commit: the step metrics and the shadow candidates' comparison.
    fn after_commit(
        &self,
        route: &StoreRoute,
        intent_id: &str,
        trace: DecisionTrace,
        components: Components,
        canaries: &[CanaryArm],
    ) {
        self.deps
            .routing
            .after_commit(route, intent_id, trace, components, canaries);
    }

    /// Reads a PaymentIntent the caller's key may see.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, intent = %id))]
    pub async fn get(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<PaymentIntentEnvelope, ChargeError> {
        // A malformed id is as unknown as any other.
        let id = uuid::Uuid::parse_str(id)
            .map_err(|_| ChargeError::IntentNotFound)?
            .to_string();
        let intent = intents::by_id(&self.deps.db.read, &id)
            .await?
            .filter(|i| i.merchant_id == principal.merchant_id && principal.granted(&i.store_id))
            .ok_or(ChargeError::IntentNotFound)?;
        let store = catalog::store_by_id(&self.deps.db.read, &intent.store_id)
            .await?
            .ok_or_else(|| Internal::broken(format!("intent {id} without its store")))?;
        Ok(PaymentIntentEnvelope {
            success: true,
            data: PaymentIntent::from_row(&intent, &store, false),
        })
    }

    /// What a due-date payment costs when paid on `date` (`YYYY-MM-DD`; today in Brasília
    /// when absent), by the same calculation its settlement checks the paid amount with.
    pub async fn amount_due(
        &self,
        principal: &Principal,
        id: &str,
        date: Option<&str>,
    ) -> Result<AmountDue, ChargeError> {
        let date = match date {
            None => db::today_brasilia(),
            Some(text) => Date::parse(text).ok_or_else(|| {
                Invalid::new(
                    "invalid_date",
                    "date",
                    "`date` must be a real day written YYYY-MM-DD",
                )
            })?,
        };
        let id = uuid::Uuid::parse_str(id)
            .map_err(|_| ChargeError::IntentNotFound)?
            .to_string();
        let intent = intents::by_id(&self.deps.db.read, &id)
            .await?
            .filter(|i| i.merchant_id == principal.merchant_id && principal.granted(&i.store_id))
            .ok_or(ChargeError::IntentNotFound)?;
        let terms = intent
            .due()
            .map_err(Internal::broken)?
            .ok_or(ChargeError::NotADueDateCharge)?;
        let original = Money::from_centavos(intent.amount_centavos.max(0) as u64)
            .ok_or_else(|| Internal::broken(format!("intent {id}: amount out of range")))?;
        Ok(due::amount_due(original, &terms, date))
    }
}

impl Charges {
    /// Cancels a `PENDING` LIVE payment at its PSP (DESIGN.md section 11). Idempotent: an
    /// intent already `CANCELED` answers as it is.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, intent = %id))]
    pub async fn cancel(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<PaymentIntentEnvelope, ChargeError> {
        let before = self.get(principal, id).await?.data;
        match before.status {
            IntentStatus::Canceled => {}
            IntentStatus::Pending | IntentStatus::Scheduled => {
                match self.deps.live.cancel(&before.payment_intent_id).await {
                    Ok(CancelOutcome::Canceled) => {}
                    Ok(CancelOutcome::NotCancelable { why, .. }) => {
                        return Err(ChargeError::NotCancelable(why));
                    }
                    Ok(CancelOutcome::Unavailable(why)) => {
                        return Err(ChargeError::PspUnavailable(why));
                    }
                    Err(e) => return Err(Internal::caused("cancel at the PSP", e).into()),
                }
            }
            status => {
                return Err(ChargeError::NotCancelable(format!(
                    "only a PENDING (or SCHEDULED) payment can be canceled; this one is {}",
                    status.as_str()
                )));
            }
        }
        self.get(principal, id).await
    }
}

fn same_request(
    record: &idempotency::Record,
    fingerprint: &str,
    legacy_fingerprint: Option<&str>,
) -> bool {
    record.request_hash == fingerprint || Some(record.request_hash.as_str()) == legacy_fingerprint
}

/// The stored response for the key, replayed; or 409 when the request differs.
fn replay(
    record: idempotency::Record,
    fingerprint: &str,
    legacy_fingerprint: Option<&str>,
) -> Result<Charged, ChargeError> {
    if !same_request(&record, fingerprint, legacy_fingerprint) {
        return Err(ChargeError::KeyReused);
    }
    Ok(Charged {
        status: u16::try_from(record.response_status).unwrap_or(200),
        body: as_replay(&record.response_body)?,
    })
}

/// The stored response, byte for byte, with `idempotentReplay: true`: parsing it into a
/// `Value` would respell the merchant's metadata (and reorder the answer). The first
/// `"idempotentReplay":false` in the text is the intent's own: the stored answer is compact
/// JSON, where a string holds a quote only escaped (`\"`), and the intent's field comes
/// before `metadata`, the one object whose keys the merchant writes (second in the view's
/// order; in answers stored as a sorted `Value` by earlier versions, `i` sorts before `m`).
fn as_replay(stored: &str) -> Result<String, ChargeError> {
    const FRESH: &str = r#""idempotentReplay":false"#;
    let at = stored
        .find(FRESH)
        .ok_or_else(|| Internal::broken("stored response without idempotentReplay"))?;
    let mut body = String::with_capacity(stored.len() + 1);
    body.push_str(&stored[..at]);
    body.push_str(r#""idempotentReplay":true"#);
    body.push_str(&stored[at + FRESH.len()..]);
    Ok(body)
}

impl Charges {
    /// The answer for a key another request took first: its completed response replayed (or
    /// 409 for another body), or 409 `KeyInUse` while that request is still at work.
    async fn replay_winner(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        fingerprint: &str,
        legacy_fingerprint: Option<&str>,
        now: i64,
    ) -> Result<Charged, ChargeError> {
        let record = idempotency::find(
            &self.deps.db.read,
            &principal.merchant_id,
            key.as_str(),
            now,
        )
        .await?;
        match record {
            Some(record) if record.lease_until.is_none() => {
                replay(record, fingerprint, legacy_fingerprint)
            }
            _ => Err(ChargeError::KeyInUse),
        }
    }

    /// A charge's decision trace for payment-ops, with `pspCalls`: the calls made to PSPs for
    /// it (LIVE), in order.
    #[tracing::instrument(skip_all, fields(intent = %id))]
    pub async fn trace(&self, id: &str) -> Result<Value, ChargeError> {
        let Some(trace) = intents::trace(&self.deps.db.read, id).await? else {
            return Err(match intents::by_id(&self.deps.db.read, id).await? {
                Some(_) => ChargeError::TracePurged,
                None => ChargeError::IntentNotFound,
            });
        };
        let mut trace: Value =
            serde_json::from_str(&trace).map_err(|e| Internal::caused("stored trace", e))?;
        let calls = db::psp_calls::for_intent(&self.deps.db.read, id).await?;
        if let Some(fields) = trace.as_object_mut() {
            fields.insert(
                "pspCalls".into(),
                serde_json::to_value(calls).map_err(|e| Internal::caused("PSP calls", e))?,
            );
        }
        Ok(trace)
    }
}
