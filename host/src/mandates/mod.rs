//! The mandate service (DESIGN.md section 17, Pix Automático): creating an idempotent
//! mandate, reading and searching them, canceling one.
//!
//! A mandate runs the chain once, as a recurring charge of its first cycle (`recurring`
//! kind, cycle 1, due on the start date, for the cycle's amount: [`MandateRequest::routing_amount`]),
//! and keeps the provider and gateway it chose: every later charge of the mandate is pinned
//! there, since the recurrence lives at one PSP. A SHADOW store's mandate is resolved and
//! recorded as `SHADOW_ONLY`, its trace kept on the row; a `QR_WITH_FIRST_PAYMENT` mandate's
//! first payment is an ordinary charge made through the charge service (so it is routed,
//! recorded and replayed exactly as a charge), with an Idempotency-Key derived from the
//! mandate's.
//!
//! Mandate Idempotency-Keys are a key space of their own, as refunds' are: kept as long as
//! the mandate, with the request's fingerprint.

mod auto;
mod live;
#[cfg(test)]
mod tests;
pub mod view;

use std::sync::Arc;

use pixgate_domain::charge::{ChargeRequest, ValidPayer};
use pixgate_domain::due::Date;
use pixgate_domain::json::Invalid;
use pixgate_domain::mandate::{
    CreateMandateChargeRequest, MandateAmount, MandateCharge, MandateRequest, MandateStatus,
    MandateTerms, RecurringTerms,
};
use pixgate_domain::{IdempotencyKey, StoreMode};
use view::{AdminMandate, MandateEnvelope, MandateListEnvelope, MandateView};

use crate::access::{MissingScope, Principal};
use crate::charges::{ChargeError, Charges};
use crate::crypto::{CryptoError, MasterKey};
use crate::db::mandates::{self, Mandate};
use crate::db::store_cache::StoreCache;
use crate::db::{self, Db, DbError, Flag, catalog, intents};
use crate::internal::Internal;
use crate::psp::live::LiveExecution;
use crate::psp::live::recurrence::MandateEnding;
use crate::routing::{Resolved, Routing, RoutingError, recorded_trace};

#[derive(Debug, thiserror::Error)]
pub enum MandateError {
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
    /// A step refused the mandate (a business rule); `code` is one of the stable codes.
    #[error("{message}")]
    Refused { code: &'static str, message: String },
    #[error("routing failed in the {0} step; retry with the same Idempotency-Key")]
    RoutingUnavailable(pixgate_domain::Step),
    #[error("mandate not found")]
    MandateNotFound,
    #[error("merchant `{0}` not found")]
    MerchantNotFound(String),
    #[error("{0}")]
    NotCancelable(String),
    /// The PSP could not be reached or did not do it; nothing changed.
    #[error("{0}")]
    PspUnavailable(String),
    /// The first payment's charge was refused.
    #[error(transparent)]
    FirstPayment(Box<ChargeError>),
    /// A charge under the mandate was refused by the charge service (its own errors).
    #[error(transparent)]
    Charge(Box<ChargeError>),
    /// The mandate is not one a charge may be made under.
    #[error("{0}")]
    NotActive(String),
    /// The cycle the due date falls in has its charge already.
    #[error("cycle {cycle} of this mandate is charged already (payment {intent})")]
    CycleCharged { cycle: u32, intent: String },
    /// Details go to the log, never to the client.
    #[error(transparent)]
    Internal(#[from] Internal),
}

impl From<DbError> for MandateError {
    fn from(e: DbError) -> Self {
        Self::Internal(e.into())
    }
}

impl From<sqlx::Error> for MandateError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl From<CryptoError> for MandateError {
    fn from(e: CryptoError) -> Self {
        Self::Internal(e.into())
    }
}

impl From<RoutingError> for MandateError {
    fn from(e: RoutingError) -> Self {
        match e {
            RoutingError::Refused { code, message } => Self::Refused { code, message },
            RoutingError::Unavailable(step) => Self::RoutingUnavailable(step),
            RoutingError::GatewaysDown(why) => Self::PspUnavailable(why),
        }
    }
}

/// `pixgate serve` options for Pix Automático mandates (flags and `PIXGATE_MANDATE_*`).
#[derive(Debug, Clone, clap::Args)]
pub struct MandateArgs {
    /// How long a PUSH mandate's request waits in the payer's bank for their answer (at least
    /// 1 hour, at most 30 days: the rules' maximum).
    #[arg(long, env = "PIXGATE_MANDATE_PUSH_EXPIRY", default_value = "7d",
          value_parser = parse_push_expiry)]
    pub mandate_push_expiry: std::time::Duration,
    /// How many days before each cycle's due date pixgate charges a mandate that charges
    /// itself (`autoCharge`): 2 to 10, the Pix Automático window.
    #[arg(long, env = "PIXGATE_MANDATE_LEAD_DAYS", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(2..=10))]
    pub mandate_lead_days: u32,
}

fn parse_push_expiry(text: &str) -> Result<std::time::Duration, String> {
    let d = humantime::parse_duration(text).map_err(|e| e.to_string())?;
    if d < std::time::Duration::from_secs(3_600) || d > std::time::Duration::from_secs(30 * 86_400)
    {
        return Err("must be from 1h to 30d".into());
    }
    Ok(d)
}

/// What the mandate service uses.
#[derive(Debug)]
pub struct MandateDeps {
    pub db: Db,
    pub stores: Arc<StoreCache>,
    /// Seals the payer's PII in the mandate row.
    pub master_key: MasterKey,
    /// The chain with the store's versions, run once per mandate.
    pub routing: Routing,
    /// A `QR_WITH_FIRST_PAYMENT` mandate's first payment is a charge.
    pub charges: Charges,
    /// A LIVE store's mandate is created at its PSP, and read there, through it.
    pub live: LiveExecution,
    /// How long a PUSH mandate's request waits for the payer (`PIXGATE_MANDATE_PUSH_EXPIRY`).
    pub push_expiry: std::time::Duration,
    /// How many days before its due date a cycle is charged (`PIXGATE_MANDATE_LEAD_DAYS`).
    pub lead_days: u32,
}

/// The mandate service. Built once by the composition root; cheap to clone.
#[derive(Debug, Clone)]
pub struct Mandates {
    deps: Arc<MandateDeps>,
}

/// The search's parameters, checked.
#[derive(Debug, Clone, Default)]
pub struct MandateSearch {
    pub limit: i64,
    pub after: Option<String>,
    pub store: Option<String>,
    pub status: Option<MandateStatus>,
    pub reference: Option<String>,
}

impl Mandates {
    pub fn new(deps: MandateDeps) -> Self {
        Self {
            deps: Arc::new(deps),
        }
    }

    /// Creates the mandate for `request`, or replays the one this Idempotency-Key made.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, store = %request.store, mandate = tracing::field::Empty))]
    pub async fn create(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        request: MandateRequest,
    ) -> Result<MandateEnvelope, MandateError> {
        let route = self
            .deps
            .stores
            .get(&self.deps.db, &request.store)
            .await?
            .filter(|r| r.store.merchant_id == principal.merchant_id)
            .ok_or_else(|| MandateError::StoreNotFound(request.store.clone()))?;
        let store = &route.store;
        if !principal.granted(&store.id) {
            return Err(MandateError::StoreNotGranted(store.code.clone()));
        }
        let fingerprint = request.fingerprint();
        if let Some(existing) =
            mandates::by_key(&self.deps.db.read, &principal.merchant_id, key.as_str()).await?
        {
            if existing.request_hash == fingerprint
                && existing.recurrence_id.is_none()
                && existing.status == MandateStatus::PendingAuthorization
            {
                return self
                    .take_over(principal, key, &request, &route, existing)
                    .await;
            }
            return self.replay(existing, &fingerprint, &store.code);
        }
        let live = match store.mode {
            StoreMode::Shadow => false,
            StoreMode::Live if store.live_enabled.0 => true,
            StoreMode::Live => {
                return Err(MandateError::LiveExecutionDisabled(store.code.clone()));
            }
        };

        let now = db::now_ms();
        let mandate_id = uuid::Uuid::now_v7().to_string();
        tracing::Span::current().record("mandate", mandate_id.as_str());
        let charge = ChargeRequest {
            store: request.store.clone(),
            amount: request.routing_amount(),
            reference: request.reference.clone(),
            description: request.description.clone(),
            payer: ValidPayer {
                name: request.payer_name.clone(),
                tax_id: request.payer_tax_id.clone(),
                email: None,
                phone: None,
                address: None,
            },
            metadata: request.metadata.clone(),
            due: None,
            recurring: Some(RecurringTerms {
                mandate_id: mandate_id.clone(),
                frequency: request.frequency,
                cycle: 1,
                due_date: request.start_date,
            }),
            pinned_gateway: None,
        };
        let Resolved {
            trace, canaries, ..
        } = self
            .deps
            .routing
            .resolve(&route, principal, key, &charge, &mandate_id, now)
            .await?;
        // A SHADOW mandate's first payment is routed by the store's chain; a LIVE one's is
        // made once its recurrence is at a PSP, pinned there (`live.rs`).
        let first_payment_intent_id = match request.first_payment {
            Some(amount) if !live => Some(
                self.first_payment(principal, key, &request, amount, None)
                    .await?,
            ),
            _ => None,
        };
        let chosen = trace.primary();
        let payer_account_sealed = request
            .payer_account
            .as_ref()
            .map(|a| {
                let json = serde_json::json!({
                    "ispb": a.ispb, "branch": a.branch, "account": a.account,
                });
                self.deps.master_key.seal(json.to_string().as_bytes())
            })
            .transpose()?;
        let mandate = Mandate {
            id: mandate_id.clone(),
            merchant_id: principal.merchant_id.clone(),
            store_id: store.id.clone(),
            status: if live {
                MandateStatus::PendingAuthorization
            } else {
                MandateStatus::ShadowOnly
            },
            reference: request.reference.clone(),
            description: request.description.clone(),
            payer_kind: request.payer_tax_id.kind(),
            payer_sealed: self
                .deps
                .master_key
                .seal(request.payer_json().to_string().as_bytes())?,
            frequency: request.frequency,
            start_date: request.start_date.to_string(),
            end_date: request.end_date.map(|d| d.to_string()),
            amount_centavos: request.amount.fixed().map(|m| m.centavos() as i64),
            minimum_amount_centavos: request.amount.minimum().map(|m| m.centavos() as i64),
            auto_charge: Flag(request.auto_charge),
            retry_policy: request.retry_policy,
            journey: request.journey,
            first_payment_centavos: request.first_payment.map(|m| m.centavos() as i64),
            first_payment_intent_id,
            payer_account_sealed,
            metadata: request.metadata.clone(),
            idempotency_key: key.as_str().to_owned(),
            request_hash: fingerprint.clone(),
            routing_mode: store.mode,
            routing_policy: trace.policy.output.policy.clone(),
            provider_code: chosen.gateway.provider_code.clone(),
            gateway_alias: chosen.gateway.gateway_alias.clone(),
            recurrence_id: None,
            trace: recorded_trace(&trace, &canaries)?,
            authorization_json: None,
            rejection: None,
            cancellation: None,
            failure: None,
            // A LIVE mandate is this request's until the lease runs out (a retry meanwhile is
            // 409 `idempotency_key_in_use`).
            reconcile_at: live.then(|| now + self.deps.live.lease().as_millis() as i64),
            next_cycle: request.auto_charge.then_some(1),
            next_charge_at: request
                .auto_charge
                .then(|| self.charge_on(request.frequency.cycle_date(request.start_date, 1))),
            created_at: now,
            updated_at: now,
        };
        if !mandates::insert(&self.deps.db.write, &mandate).await? {
            // A concurrent request with this key committed first: replay it (or 409).
            let winner =
                mandates::by_key(&self.deps.db.write, &principal.merchant_id, key.as_str())
                    .await?
                    .ok_or_else(|| Internal::broken("a mandate key taken by no mandate"))?;
            return self.replay(winner, &fingerprint, &store.code);
        }
        if live {
            return self
                .create_live(principal, key, &request, &route, mandate, &trace)
                .await;
        }
        Ok(MandateEnvelope {
            success: true,
            data: MandateView::from_row(&mandate, &store.code, request.payer_name, false),
        })
    }

    /// The first payment of a `QR_WITH_FIRST_PAYMENT` mandate: an immediate charge through
    /// the charge service, under a key derived from the mandate's (a retry of the mandate
    /// replays the same charge), pinned to `pinned` (the gateway whose PSP holds a LIVE
    /// mandate's recurrence). Its id.
    async fn first_payment(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        request: &MandateRequest,
        amount: pixgate_domain::Money,
        pinned: Option<&str>,
    ) -> Result<String, MandateError> {
        let derived = format!(
            "mandate-first-payment:{}",
            pixgate_domain::sha256_hex(key.as_str())
        );
        let derived = IdempotencyKey::parse(derived.as_bytes())
            .map_err(|e| Internal::broken(format!("a derived key: {e}")))?;
        let charge = ChargeRequest {
            store: request.store.clone(),
            amount,
            reference: request.reference.clone(),
            description: request.description.clone(),
            payer: ValidPayer {
                name: request.payer_name.clone(),
                tax_id: request.payer_tax_id.clone(),
                email: None,
                phone: None,
                address: None,
            },
            metadata: request.metadata.clone(),
            due: None,
            recurring: None,
            pinned_gateway: pinned.map(str::to_owned),
        };
        let charged = self
            .deps
            .charges
            .create(principal, &derived, charge, None)
            .await
            .map_err(|e| MandateError::FirstPayment(Box::new(e)))?;
        let body: serde_json::Value = serde_json::from_str(&charged.body)
            .map_err(|e| Internal::caused("the first payment's answer", e))?;
        body["data"]["paymentIntentId"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Internal::broken("the first payment's answer has no id").into())
    }

    /// A LIVE mandate of this key without its recurrence yet: the request making it is still
    /// at the PSP (409 `idempotency_key_in_use`), or it died and this retry takes it over once
    /// its lease has run out, with the decision it recorded.
    async fn take_over(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        request: &MandateRequest,
        route: &crate::db::store_cache::StoreRoute,
        existing: Mandate,
    ) -> Result<MandateEnvelope, MandateError> {
        let now = db::now_ms();
        if existing.reconcile_at.is_some_and(|until| until > now) {
            return Err(MandateError::KeyInUse);
        }
        let lease_until = now + self.deps.live.lease().as_millis() as i64;
        if !mandates::claim(
            &self.deps.db.write,
            &existing.id,
            existing.reconcile_at,
            lease_until,
        )
        .await?
        {
            return Err(MandateError::KeyInUse);
        }
        tracing::info!(mandate = %existing.id, "mandate: taking over a request that died");
        let trace: pixgate_sandbox::chain::DecisionTrace = serde_json::from_str(&existing.trace)
            .map_err(|e| Internal::caused("mandate: the recorded decision", e))?;
        self.create_live(principal, key, request, route, existing, &trace)
            .await
    }

    fn replay(
        &self,
        existing: Mandate,
        fingerprint: &str,
        store_code: &str,
    ) -> Result<MandateEnvelope, MandateError> {
        if existing.request_hash != fingerprint {
            return Err(MandateError::KeyReused);
        }
        let name = self.payer_name(&existing)?;
        Ok(MandateEnvelope {
            success: true,
            data: MandateView::from_row(&existing, store_code, name, true),
        })
    }

    fn payer_name(&self, m: &Mandate) -> Result<String, MandateError> {
        let payer: serde_json::Value =
            serde_json::from_slice(&self.deps.master_key.open(&m.payer_sealed)?)
                .map_err(|e| Internal::caused("a mandate's sealed payer", e))?;
        Ok(payer["name"].as_str().unwrap_or_default().to_owned())
    }

    /// The mandate `id` if the key may read it (its merchant's, of a store it is granted).
    async fn visible(&self, principal: &Principal, id: &str) -> Result<Mandate, MandateError> {
        let id = uuid::Uuid::parse_str(id)
            .map_err(|_| MandateError::MandateNotFound)?
            .to_string();
        mandates::get(&self.deps.db.read, &id)
            .await?
            .filter(|m| m.merchant_id == principal.merchant_id && principal.granted(&m.store_id))
            .ok_or(MandateError::MandateNotFound)
    }

    async fn view(&self, m: &Mandate) -> Result<MandateView, MandateError> {
        let store = catalog::store_by_id(&self.deps.db.read, &m.store_id)
            .await?
            .ok_or_else(|| Internal::broken(format!("mandate {} without its store", m.id)))?;
        Ok(MandateView::from_row(
            m,
            &store.code,
            self.payer_name(m)?,
            false,
        ))
    }

    /// Reads a mandate the caller's key may see.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, mandate = %id))]
    pub async fn get(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<MandateEnvelope, MandateError> {
        let m = self.visible(principal, id).await?;
        Ok(MandateEnvelope {
            success: true,
            data: self.view(&m).await?,
        })
    }

    /// The key's mandates, newest first, a page at a time.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id))]
    pub async fn search(
        &self,
        principal: &Principal,
        search: MandateSearch,
    ) -> Result<MandateListEnvelope, MandateError> {
        let store_ids = match &search.store {
            None => principal.store_ids.clone(),
            Some(code) => {
                let store = catalog::store_by_code(&self.deps.db.read, code)
                    .await?
                    .filter(|s| s.merchant_id == principal.merchant_id)
                    .ok_or_else(|| MandateError::StoreNotFound(code.clone()))?;
                if !principal.granted(&store.id) {
                    return Err(MandateError::StoreNotGranted(store.code));
                }
                vec![store.id]
            }
        };
        let before = match &search.after {
            None => None,
            Some(id) => Some(self.visible(principal, id).await?),
        };
        let rows = mandates::page(
            &self.deps.db.read,
            &mandates::Filter {
                merchant_id: Some(&principal.merchant_id),
                store_ids: Some(&store_ids),
                status: search.status,
                reference: search.reference.as_deref(),
                before: before.as_ref().map(|m| (m.created_at, m.id.as_str())),
                limit: search.limit,
            },
        )
        .await?;
        let mut data = Vec::with_capacity(rows.len());
        for m in &rows {
            data.push(self.view(m).await?);
        }
        Ok(MandateListEnvelope {
            success: true,
            data,
        })
    }

    /// Charges one cycle of a mandate (`POST /mandates/{id}/charges`): a PaymentIntent of
    /// kind `RECURRING`, made by the charge service (idempotent, routed and recorded as every
    /// charge) pinned to the gateway whose PSP holds the recurrence. One charge per cycle:
    /// the cycle is the one the due date falls in.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, mandate = %id))]
    pub async fn charge(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        id: &str,
        body: CreateMandateChargeRequest,
    ) -> Result<crate::charges::Charged, MandateError> {
        let m = self.visible(principal, id).await?;
        if !matches!(m.status, MandateStatus::Active | MandateStatus::ShadowOnly) {
            return Err(MandateError::NotActive(format!(
                "a {} mandate takes no charge: only an ACTIVE one does (or a SHADOW store's)",
                m.status
            )));
        }
        let terms = terms_of(&m)?;
        let now = db::now_ms();
        let today = Date::from_unix_seconds_brasilia(now / 1000);
        let charge = body.validate(&terms, today)?;
        if let Some(taken) =
            intents::by_mandate_cycle(&self.deps.db.read, &m.id, i64::from(charge.cycle)).await?
            && taken.idempotency_key != key.as_str()
        {
            return Err(MandateError::CycleCharged {
                cycle: charge.cycle,
                intent: taken.id,
            });
        }
        self.charge_cycle(principal, key, &m, charge).await
    }

    /// Makes the charge of a cycle of mandate `m` under `key`: the charge service's, pinned to
    /// the mandate's gateway; another key's charge of the cycle is 409.
    pub(super) async fn charge_cycle(
        &self,
        principal: &Principal,
        key: &IdempotencyKey,
        m: &Mandate,
        charge: MandateCharge,
    ) -> Result<crate::charges::Charged, MandateError> {
        let store = catalog::store_by_id(&self.deps.db.read, &m.store_id)
            .await?
            .ok_or_else(|| Internal::broken(format!("mandate {} without its store", m.id)))?;
        let payer: serde_json::Value =
            serde_json::from_slice(&self.deps.master_key.open(&m.payer_sealed)?)
                .map_err(|e| Internal::caused("a mandate's sealed payer", e))?;
        let tax_id = payer["taxId"]
            .as_str()
            .and_then(pixgate_domain::TaxId::parse)
            .ok_or_else(|| Internal::broken(format!("mandate {}: its payer's tax id", m.id)))?;
        let request = ChargeRequest {
            store: store.code,
            amount: charge.amount,
            reference: charge.reference,
            description: charge.description,
            payer: ValidPayer {
                name: payer["name"].as_str().unwrap_or_default().to_owned(),
                tax_id,
                email: None,
                phone: None,
                address: None,
            },
            metadata: charge.metadata,
            due: None,
            recurring: Some(RecurringTerms {
                mandate_id: m.id.clone(),
                frequency: m.frequency,
                cycle: charge.cycle,
                due_date: charge.due_date,
            }),
            pinned_gateway: Some(m.gateway_alias.clone()),
        };
        match self
            .deps
            .charges
            .create(principal, key, request, None)
            .await
        {
            Ok(charged) => Ok(charged),
            // Another key's charge of this cycle committed meanwhile (the unique index).
            Err(ChargeError::Internal(e)) => {
                match intents::by_mandate_cycle(&self.deps.db.write, &m.id, i64::from(charge.cycle))
                    .await?
                {
                    Some(taken) if taken.idempotency_key != key.as_str() => {
                        Err(MandateError::CycleCharged {
                            cycle: charge.cycle,
                            intent: taken.id,
                        })
                    }
                    _ => Err(MandateError::Internal(e)),
                }
            }
            Err(e) => Err(MandateError::Charge(Box::new(e))),
        }
    }

    /// Every merchant's mandates, newest first, a page at a time (the admin API): `merchant`
    /// narrows them to one merchant's, `search.store` to one store's.
    #[tracing::instrument(skip_all)]
    pub async fn admin_search(
        &self,
        merchant: Option<&str>,
        search: MandateSearch,
    ) -> Result<Vec<AdminMandate>, MandateError> {
        let merchant_id = match merchant {
            None => None,
            Some(code) => Some(
                catalog::merchant_by_code(&self.deps.db.read, code)
                    .await?
                    .ok_or_else(|| MandateError::MerchantNotFound(code.to_owned()))?
                    .id,
            ),
        };
        let store_ids = match &search.store {
            None => None,
            Some(code) => {
                let store = catalog::store_by_code(&self.deps.db.read, code)
                    .await?
                    .ok_or_else(|| MandateError::StoreNotFound(code.clone()))?;
                Some(vec![store.id])
            }
        };
        let before = match &search.after {
            None => None,
            Some(id) => Some(self.any(id).await?),
        };
        let rows = mandates::page(
            &self.deps.db.read,
            &mandates::Filter {
                merchant_id: merchant_id.as_deref(),
                store_ids: store_ids.as_deref(),
                status: search.status,
                reference: search.reference.as_deref(),
                before: before.as_ref().map(|m| (m.created_at, m.id.as_str())),
                limit: search.limit,
            },
        )
        .await?;
        let mut data = Vec::with_capacity(rows.len());
        for m in &rows {
            data.push(self.admin_view(m).await?);
        }
        Ok(data)
    }

    /// One mandate of any merchant (the admin API).
    #[tracing::instrument(skip_all, fields(mandate = %id))]
    pub async fn admin_get(&self, id: &str) -> Result<AdminMandate, MandateError> {
        let m = self.any(id).await?;
        let mut view = self.admin_view(&m).await?;
        let charges = intents::of_mandate(&self.deps.db.read, &m.id).await?;
        view.charges = Some(
            charges
                .iter()
                .map(view::MandateChargeView::from_row)
                .collect(),
        );
        Ok(view)
    }

    /// The mandate `id` of any merchant.
    async fn any(&self, id: &str) -> Result<Mandate, MandateError> {
        let id = uuid::Uuid::parse_str(id)
            .map_err(|_| MandateError::MandateNotFound)?
            .to_string();
        mandates::get(&self.deps.db.read, &id)
            .await?
            .ok_or(MandateError::MandateNotFound)
    }

    async fn admin_view(&self, m: &Mandate) -> Result<AdminMandate, MandateError> {
        let merchant = catalog::merchant_code(&self.deps.db.read, &m.merchant_id).await?;
        Ok(AdminMandate {
            mandate: self.view(m).await?,
            merchant,
            charges: None,
        })
    }

    /// Cancels a mandate. A SHADOW store's mandate (`SHADOW_ONLY`) was never at a PSP and
    /// stays as recorded; one already `CANCELED` answers as it is.
    #[tracing::instrument(skip_all, fields(merchant = %principal.merchant_id, mandate = %id))]
    pub async fn cancel(
        &self,
        principal: &Principal,
        id: &str,
    ) -> Result<MandateEnvelope, MandateError> {
        let m = self.visible(principal, id).await?;
        match m.status {
            MandateStatus::Canceled => Ok(MandateEnvelope {
                success: true,
                data: self.view(&m).await?,
            }),
            MandateStatus::ShadowOnly => Err(MandateError::NotCancelable(
                "a SHADOW store's mandate was never sent to a PSP: there is nothing to cancel"
                    .into(),
            )),
            MandateStatus::PendingAuthorization | MandateStatus::Active => {
                self.cancel_live(m).await
            }
            other => Err(MandateError::NotCancelable(format!(
                "a {other} mandate has ended: there is nothing to cancel"
            ))),
        }
    }

    /// `PATCH /rec {status: CANCELADA}` at the mandate's PSP, then the mandate `CANCELED` with
    /// the cancellation the PSP recorded. A mandate whose recurrence is not known yet is still
    /// being made: 409.
    async fn cancel_live(&self, m: Mandate) -> Result<MandateEnvelope, MandateError> {
        let Some(id_rec) = m.recurrence_id.clone() else {
            return Err(MandateError::NotCancelable(
                "the mandate is still being created at its PSP; retry in a moment".into(),
            ));
        };
        let mut calls = Vec::new();
        let answer = self
            .deps
            .live
            .cancel_recurrence(&m.provider_code, &id_rec, &mut calls)
            .await;
        for call in &calls {
            crate::db::psp_calls::insert_for_mandate(&self.deps.db.write, &m.id, call).await?;
        }
        let rec = match answer {
            Ok(rec) => rec,
            Err(e) => {
                // Refused: perhaps it ended meanwhile (the payer canceled, it expired); a read
                // tells, and the mandate answers as it then is.
                tracing::warn!(mandate = %m.id, error = %e, "mandate: the PSP did not cancel it");
                self.deps
                    .live
                    .settle_mandate(&m.id)
                    .await
                    .map_err(|e| Internal::caused("mandate: read after a refused cancel", e))?;
                let now = mandates::get(&self.deps.db.write, &m.id)
                    .await?
                    .ok_or(MandateError::MandateNotFound)?;
                if now.status == MandateStatus::Canceled {
                    return Ok(MandateEnvelope {
                        success: true,
                        data: self.view(&now).await?,
                    });
                }
                return Err(MandateError::PspUnavailable(format!(
                    "the mandate's PSP did not cancel it ({e}); nothing changed: retry"
                )));
            }
        };
        let cancellation = rec
            .encerramento
            .as_ref()
            .and_then(|e| e.cancelamento.as_ref())
            .map(crate::psp::live::recurrence::cancellation_json)
            .unwrap_or_else(|| {
                serde_json::json!({"by": "MERCHANT", "code": "ACCL", "message": ""}).to_string()
            });
        self.deps
            .live
            .move_mandate(
                &m,
                MandateStatus::Canceled,
                MandateEnding {
                    cancellation: Some(&cancellation),
                    ..MandateEnding::default()
                },
                None,
            )
            .await
            .map_err(|e| Internal::caused("mandate: recording its cancel", e))?;
        let after = mandates::get(&self.deps.db.write, &m.id)
            .await?
            .ok_or(MandateError::MandateNotFound)?;
        Ok(MandateEnvelope {
            success: true,
            data: self.view(&after).await?,
        })
    }
}

/// The terms of mandate `m` a charge under it is checked against.
pub(super) fn terms_of(m: &Mandate) -> Result<MandateTerms, MandateError> {
    let money = |c: Option<i64>| c.and_then(|c| pixgate_domain::Money::from_centavos(c as u64));
    let amount = match (money(m.amount_centavos), money(m.minimum_amount_centavos)) {
        (Some(fixed), _) => MandateAmount::Fixed(fixed),
        (None, Some(minimum)) => MandateAmount::Minimum(minimum),
        (None, None) => MandateAmount::Open,
    };
    let date = |text: &str| {
        Date::parse(text)
            .ok_or_else(|| Internal::broken(format!("mandate {}: a date `{text}`", m.id)))
    };
    Ok(MandateTerms {
        amount,
        frequency: m.frequency,
        start_date: date(&m.start_date)?,
        end_date: m.end_date.as_deref().map(date).transpose()?,
        reference: m.reference.clone(),
        description: m.description.clone(),
    })
}
