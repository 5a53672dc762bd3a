//! A pixgate provider-selection step: which gateways may take this charge, and in which
//! order. pixgate tries them in the order returned: the first is the primary, the rest the
//! failover order of a LIVE charge.
//!
//! This example ranks the gateways cheapest first for the charge's amount. It leaves out a
//! gateway that is down, whose release class the policy step did not allow, or whose fee is
//! above the store's `ranking.max-fee-centavos` (when the store sets it). A charge pinned to
//! one gateway (`input.pinned_gateway`) leaves every other one out: it goes to that gateway if
//! the rules above keep it, and is refused otherwise.
//!
//! The rules every component lives by: the same input must give the same output, so there is
//! no clock (use `input.env.now_ms`), no randomness (derive it from `input.env.seed`), no
//! network, files or environment. Money is integer centavos.

wit_bindgen::generate!({ path: "wit", world: "provider-step" });

use exports::pixgate::chain::provider_selection::{Guest, ProviderInput};
use pixgate::chain::host_log::{Level, log};
use pixgate::chain::types::{
    ExcludedGateway, FeeTerms, ProviderDecision, RankedGateway, StepError, StoreContext,
};

/// The store configuration key this component reads (set it with the admin API's store
/// `config`). Pick keys of your own for your own settings.
const MAX_FEE_KEY: &str = "ranking.max-fee-centavos";

struct Component;

impl Guest for Component {
    fn rank(input: ProviderInput) -> Result<ProviderDecision, StepError> {
        let amount = input.charge.amount_centavos;
        // A malformed setting refuses the charge with a clear code rather than guessing.
        let max_fee = config_u64(&input.store, MAX_FEE_KEY)?;
        let classes = &input.policy.eligible_release_classes;
        // A recurring charge must go to the gateway that holds its mandate: pixgate accepts that
        // gateway ranked alone, or a refusal.
        let pinned = input.pinned_gateway.as_deref();

        let mut ranked = Vec::new();
        let mut excluded = Vec::new();
        for gateway in input.gateways {
            let fee = fee_for(amount, &gateway.fee_terms);
            let reason = if let Some(pinned) = pinned
                && pinned != gateway.gateway_alias
            {
                Some(format!("the charge is pinned to {pinned}"))
            } else if !gateway.health.available {
                Some("gateway unavailable".to_string())
            } else if !classes.is_empty() && !classes.contains(&gateway.release_class) {
                Some(format!(
                    "release class {} not eligible under {}",
                    gateway.release_class, input.policy.policy
                ))
            } else if max_fee.is_some_and(|max| fee > max) {
                Some(format!("fee of {fee} centavos is above {MAX_FEE_KEY}"))
            } else {
                None
            };
            match reason {
                Some(reason) => excluded.push(ExcludedGateway {
                    gateway_alias: gateway.gateway_alias,
                    reason,
                }),
                None => ranked.push((fee, gateway)),
            }
        }
        // The alias breaks ties: the order must be the same on every run.
        ranked.sort_by(|(fee_a, a), (fee_b, b)| {
            fee_a
                .cmp(fee_b)
                .then_with(|| a.gateway_alias.cmp(&b.gateway_alias))
        });

        if ranked.is_empty() {
            // A step error refuses the charge: the merchant gets an error, nothing is created.
            return Err(StepError {
                code: "no_eligible_gateway".to_string(),
                message: format!("none of the {} gateways is eligible", excluded.len()),
            });
        }
        // Log lines are kept with the decision trace (1 KB per call in all): keep them short.
        log(
            Level::Info,
            &format!("{} ranked, {} left out", ranked.len(), excluded.len()),
        );
        Ok(ProviderDecision {
            ranking: ranked
                .into_iter()
                .map(|(fee, gateway)| RankedGateway {
                    gateway_alias: gateway.gateway_alias,
                    provider_code: gateway.provider_code,
                    release_class: gateway.release_class,
                    reason: format!("fee {fee} centavos"),
                })
                .collect(),
            excluded,
        })
    }
}

/// The fee a gateway charges for `amount`, as pixgate's bundled economics computes it: the
/// MDR (basis points, rounded half up to the centavo) plus the fixed fee, raised to the
/// minimum and capped at the maximum.
fn fee_for(amount: u64, terms: &FeeTerms) -> u64 {
    let mdr = (u128::from(amount) * u128::from(terms.mdr_bps) + 5_000) / 10_000;
    let fee = u64::try_from(mdr)
        .unwrap_or(u64::MAX)
        .saturating_add(terms.fixed_centavos)
        .max(terms.min_fee_centavos);
    match terms.max_fee_centavos {
        Some(max) => fee.min(max),
        None => fee,
    }
}

/// A whole number from the store's configuration; `None` when the store does not set it.
fn config_u64(store: &StoreContext, key: &str) -> Result<Option<u64>, StepError> {
    let Some(entry) = store.config.iter().find(|e| e.key == key) else {
        return Ok(None);
    };
    entry.value.trim().parse().map(Some).map_err(|_| StepError {
        code: "invalid_store_config".to_string(),
        message: format!("{key} must be a whole number, not `{}`", entry.value),
    })
}

export!(Component);
