//! A pixgate policy step: which routing policy applies to this charge, and its constraints
//! (the release classes it may go to, cross-class failover, how many gateways to try).
//!
//! This example keeps same-day money for ordinary tickets and saves fees on large ones:
//! - a charge above the store's `limits.max-amount-centavos` is refused;
//! - from `policy.lowest-cost-from-centavos` (default R$ 1,000.00) up, and for a charge with a
//!   due date (`charge.kind` is `due-date`) of any amount, `lowest-cost` in any release class;
//! - below it, `d0-first` over D0 then D1 only.
//!
//! The policy names `d0-first` and `lowest-cost` are the ones pixgate's bundled provider step
//! understands; a provider step of your own may read any name you choose.
//!
//! The rules every component lives by: the same input must give the same output, so there is
//! no clock (use `input.env.now_ms`), no randomness (derive it from `input.env.seed`), no
//! network, files or environment. Money is integer centavos.

wit_bindgen::generate!({ path: "wit", world: "policy-step" });

use exports::pixgate::chain::policy::{Guest, PolicyInput};
use pixgate::chain::host_log::{Level, log};
use pixgate::chain::types::{ChargeKind, PolicyDecision, StepError, StoreContext};

/// The store configuration keys this component reads (set them with the admin API's store
/// `config`). Pick keys of your own for your own settings.
const MAX_AMOUNT_KEY: &str = "limits.max-amount-centavos";
const LOWEST_COST_FROM_KEY: &str = "policy.lowest-cost-from-centavos";
const DEFAULT_LOWEST_COST_FROM: u64 = 100_000;

struct Component;

impl Guest for Component {
    fn decide(input: PolicyInput) -> Result<PolicyDecision, StepError> {
        let amount = input.charge.amount_centavos;
        // A malformed setting refuses the charge with a clear code rather than guessing.
        if let Some(max) = config_u64(&input.store, MAX_AMOUNT_KEY)?
            && amount > max
        {
            // A step error refuses the charge: the merchant gets this code, nothing is created.
            return Err(StepError {
                code: "amount_above_store_limit".to_string(),
                message: format!("amount is above the store's maximum of {max} centavos"),
            });
        }
        let lowest_cost_from =
            config_u64(&input.store, LOWEST_COST_FROM_KEY)?.unwrap_or(DEFAULT_LOWEST_COST_FROM);

        // The merchant waits for the due date anyway: a later release class costs little there.
        let due_date = matches!(input.charge.kind, ChargeKind::DueDate(_));
        let decision = if due_date || amount >= lowest_cost_from {
            PolicyDecision {
                policy: "lowest-cost".to_string(),
                // Empty: every release class is eligible.
                eligible_release_classes: Vec::new(),
                cross_release_class_failover: true,
                max_attempts: 3,
            }
        } else {
            PolicyDecision {
                policy: "d0-first".to_string(),
                eligible_release_classes: vec!["D0".to_string(), "D1".to_string()],
                cross_release_class_failover: true,
                max_attempts: 2,
            }
        };
        // Log lines are kept with the decision trace (1 KB per call in all): keep them short.
        log(
            Level::Info,
            &format!("{} for {amount} centavos", decision.policy),
        );
        Ok(decision)
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
