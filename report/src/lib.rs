//! Comparing two decisions of the chain, and showing the result: the [`Change`] kinds between
//! two [`Outcome`]s and the [`ReplayReport`] (the admin API serves these types and the CLI
//! reads them back, so both sides share one definition), and [`render`], the text and HTML
//! the CLI prints for a replay or a shadow comparison.
#![forbid(unsafe_code)]

pub mod render;

use std::collections::BTreeMap;

use pixgate_domain::Outcome;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What differs between two outcomes of the same charge.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum Change {
    Policy,
    Provider,
    Gateway,
    ReleaseClass,
    Fee,
    Net,
    /// One side resolved and the other refused or failed, or both refused differently.
    Refusal,
}

impl Change {
    pub const ALL: [Change; 7] = [
        Change::Policy,
        Change::Provider,
        Change::Gateway,
        Change::ReleaseClass,
        Change::Fee,
        Change::Net,
        Change::Refusal,
    ];

    /// The camelCase key, as in JSON.
    pub fn key(self) -> &'static str {
        match self {
            Change::Policy => "policy",
            Change::Provider => "provider",
            Change::Gateway => "gateway",
            Change::ReleaseClass => "releaseClass",
            Change::Fee => "fee",
            Change::Net => "net",
            Change::Refusal => "refusal",
        }
    }
}

/// The kinds of change from `before` to `after`; empty when they decide the same, and when
/// `after` failed in the sandbox: a failure is a candidate error, counted as such, not a
/// decision that differs.
pub fn changes(before: &Outcome, after: &Outcome) -> Vec<Change> {
    use Outcome::*;
    match (before, after) {
        (_, Failed { .. }) => Vec::new(),
        (
            Resolved {
                policy: p1,
                provider_code: pr1,
                gateway_alias: g1,
                release_class: r1,
                fee_centavos: f1,
                net_centavos: n1,
                ..
            },
            Resolved {
                policy: p2,
                provider_code: pr2,
                gateway_alias: g2,
                release_class: r2,
                fee_centavos: f2,
                net_centavos: n2,
                ..
            },
        ) => [
            (p1 != p2, Change::Policy),
            (pr1 != pr2, Change::Provider),
            (g1 != g2, Change::Gateway),
            (r1 != r2, Change::ReleaseClass),
            (f1 != f2, Change::Fee),
            (n1 != n2, Change::Net),
        ]
        .into_iter()
        .filter_map(|(differs, kind)| differs.then_some(kind))
        .collect(),
        (a, b) if a == b => Vec::new(),
        _ => vec![Change::Refusal],
    }
}

/// Counts per change kind, every kind present (zero included) so reports line up.
pub fn zero_counts() -> BTreeMap<Change, u64> {
    Change::ALL.iter().map(|k| (*k, 0)).collect()
}

/// Fuel percentiles of the replayed chain (all three steps of one charge together).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FuelSummary {
    pub p50: u64,
    pub p99: u64,
}

/// One charge whose decision changed, with both decisions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangedCharge {
    pub payment_intent_id: String,
    pub created_at: String,
    pub kinds: Vec<Change>,
    pub before: Outcome,
    pub after: Outcome,
}

/// The result of replaying a store's recorded charges with candidate versions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplayReport {
    pub store: String,
    /// Per step: the candidate version, or `recorded` when each charge keeps the version it
    /// ran with.
    pub components: BTreeMap<String, String>,
    pub since: Option<String>,
    pub until: Option<String>,
    /// Charges re-run: `unchanged + changed + errors`.
    pub replayed: u64,
    pub unchanged: u64,
    /// Charges whose decision differs.
    pub changed: u64,
    /// Charges on which a candidate failed in the sandbox: no decision to compare, so
    /// neither changed nor unchanged.
    pub errors: u64,
    /// Recorded traces that could not be read back or whose recorded version is gone.
    pub unreadable: u64,
    #[schema(value_type = BTreeMap<String, u64>)]
    pub changes_by_kind: BTreeMap<Change, u64>,
    /// Charges per provider code as recorded; `(none)` for refusals and failures.
    pub providers_before: BTreeMap<String, u64>,
    /// Charges per provider code after the replay.
    pub providers_after: BTreeMap<String, u64>,
    /// Total fee after minus before, centavos (resolved charges only).
    pub fee_delta_centavos: i64,
    /// Total net after minus before, centavos.
    pub net_delta_centavos: i64,
    /// Candidate failures by sandbox error code.
    pub errors_by_kind: BTreeMap<String, u64>,
    pub fuel: FuelSummary,
    /// The first changed charges (oldest first), with before and after.
    pub first_changed: Vec<ChangedCharge>,
    pub duration_ms: u64,
    pub charges_per_second: f64,
}

#[cfg(test)]
mod tests {
    use pixgate_domain::Step;

    use super::*;

    fn resolved(gateway: &str, fee: u64) -> Outcome {
        Outcome::Resolved {
            policy: "d0-first".into(),
            provider_code: gateway.split('-').take(2).collect::<Vec<_>>().join("-"),
            gateway_alias: gateway.into(),
            release_class: "D0".into(),
            fee_centavos: fee,
            net_centavos: 1000 - fee,
            settlement_date: "2026-11-23".into(),
        }
    }

    #[test]
    fn the_same_outcome_has_no_changes() {
        assert!(changes(&resolved("sandbox-a-d0", 5), &resolved("sandbox-a-d0", 5)).is_empty());
    }

    #[test]
    fn each_differing_field_is_its_own_kind() {
        assert_eq!(
            changes(&resolved("sandbox-a-d0", 5), &resolved("sandbox-b-d0", 7)),
            vec![Change::Provider, Change::Gateway, Change::Fee, Change::Net]
        );
        let refused = Outcome::Refused {
            step: Step::Policy,
            code: "amount_above_store_limit".into(),
            message: "over".into(),
        };
        assert_eq!(
            changes(&resolved("sandbox-a-d0", 5), &refused),
            vec![Change::Refusal]
        );
        assert!(changes(&refused, &refused.clone()).is_empty());
    }
}
