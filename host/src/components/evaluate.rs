//! Dry-run evaluation: a charge body and a store, optionally with candidate versions per
//! step, run through the chain exactly as a charge would be; the decision and the full
//! trace come back and nothing is written.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ComponentError;
use super::canary::{self, Arm, CanaryArm};
use crate::db::{self, catalog};
use crate::internal::Internal;
use pixgate_domain::evaluate::EvaluateRequest;
use pixgate_domain::{IdempotencyKey, Outcome};
use pixgate_sandbox::chain::{self, DecisionTrace};

/// A route of the decision, in the order a LIVE charge would try them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RouteView {
    pub provider_code: String,
    pub gateway_alias: String,
    pub release_class: String,
    pub fee_centavos: u64,
    pub net_centavos: u64,
    pub settlement_date: String,
}

/// What the chain decided, with the trace when it resolved.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Evaluation {
    pub outcome: Outcome,
    pub routes: Vec<RouteView>,
    /// The decision trace: each step's component, exact input and output, fuel, duration
    /// and log. When a step refused or failed: the steps that ran before it, and `stopped`
    /// with that step, its component, its exact input, and the code and message.
    #[schema(value_type = Object)]
    pub trace: serde_json::Value,
    /// With `idempotencyKey`: the arm of each running canary of the store the charge takes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub canaries: Vec<CanaryArm>,
}

impl super::ComponentService {
    #[tracing::instrument(skip_all, fields(store = %request.store))]
    pub async fn evaluate(&self, request: EvaluateRequest) -> Result<Evaluation, ComponentError> {
        let charge = request
            .charge
            .validate(
                request.store.clone(),
                "charge.",
                crate::db::today_brasilia(),
            )
            .map_err(|e| ComponentError::Invalid {
                code: e.code,
                field: e.field.unwrap_or_default(),
                message: e.message,
            })?;
        let route = self
            .stores
            .get(&self.db, &request.store)
            .await?
            .ok_or_else(|| ComponentError::StoreNotFound(request.store.clone()))?;
        let mut overrides = request.components.to_map();
        for (step, version) in &overrides {
            self.require_version(*step, version).await?;
        }
        let mut canaries = Vec::new();
        if let Some(key) = &request.idempotency_key {
            let key = IdempotencyKey::parse(key.as_bytes()).map_err(|message| {
                ComponentError::Invalid {
                    code: "validation_error",
                    field: "idempotencyKey".to_owned(),
                    message: message.replace("the Idempotency-Key header", "`idempotencyKey`"),
                }
            })?;
            canaries = canary::arms(&route.canaries, &route.store.id, key.as_str())
                .into_iter()
                .filter(|arm| !overrides.contains_key(&arm.step))
                .collect();
            for arm in canaries.iter().filter(|a| a.arm == Arm::Canary) {
                overrides.insert(arm.step, arm.version.clone());
            }
        }
        let base = self
            .registry
            .for_store(&self.db, &self.sandbox, &route.steps)
            .await?;
        let components = self
            .registry
            .with_overrides(&self.db, &self.sandbox, &base, &overrides)
            .await?;
        let merchant = catalog::merchant_code(&self.db.read, &route.store.merchant_id).await?;
        // The seed comes from the request itself, so evaluating the same body twice decides
        // the same (a charge's seed comes from its id).
        let input = super::input::chain_input(
            |provider| self.providers.health(provider),
            &route.store,
            &route.gateways,
            &merchant,
            &charge,
            &charge.fingerprint(),
            db::now_ms(),
        );
        let result = tokio::task::block_in_place(|| {
            chain::resolve_traced(&self.sandbox, &components, &input)
        });
        let (outcome, routes, trace) = match result {
            Ok(trace) => (
                trace.outcome(),
                routes(&trace),
                serde_json::to_value(&trace),
            ),
            Err(failure) => (
                failure.error.outcome(),
                Vec::new(),
                serde_json::to_value(&failure.partial),
            ),
        };
        Ok(Evaluation {
            outcome,
            routes,
            trace: trace.map_err(|e| Internal::caused("trace", e))?,
            canaries,
        })
    }
}

fn routes(trace: &DecisionTrace) -> Vec<RouteView> {
    trace
        .routes
        .iter()
        .map(|r| RouteView {
            provider_code: r.gateway.provider_code.clone(),
            gateway_alias: r.gateway.gateway_alias.clone(),
            release_class: r.quote.release_class.clone(),
            fee_centavos: r.quote.fee_centavos,
            net_centavos: r.quote.net_centavos,
            settlement_date: r.quote.settlement_date.clone(),
        })
        .collect()
}
