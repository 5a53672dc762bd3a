//! The records of `wit/chain.wit` as plain Rust. Field for field the same as the bindings
//! that wit-bindgen (guest) and wasmtime (host) generate, so `bridge!` converts between them.

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

macro_rules! records {
    ($($(#[$meta:meta])* pub struct $name:ident { $($(#[$fmeta:meta])* pub $field:ident : $ty:ty),* $(,)? })*) => {
        $(
            $(#[$meta])*
            #[derive(Debug, Clone, PartialEq, Eq)]
            #[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
            #[cfg_attr(feature = "serde", serde(rename_all = "camelCase", deny_unknown_fields))]
            pub struct $name { $($(#[$fmeta])* pub $field: $ty),* }
        )*
    };
}

/// Kind of the payer's tax id; the number never reaches a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "UPPERCASE"))]
pub enum PayerKind {
    Cpf,
    Cnpj,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "UPPERCASE"))]
pub enum StoreMode {
    Shadow,
    Live,
}

/// Fixed amount or percentage (a fine, an abatement).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum FixedOrPercent {
    Fixed,
    Percent,
}

/// API Pix `juros` modalities 1 to 8, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum InterestModality {
    AmountPerCalendarDay,
    PercentPerCalendarDay,
    PercentPerCalendarMonth,
    PercentPerCalendarYear,
    AmountPerBusinessDay,
    PercentPerBusinessDay,
    PercentPerBusinessMonth,
    PercentPerBusinessYear,
}

/// API Pix `desconto` modalities 1 to 6, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum DiscountModality {
    FixedUntilDates,
    PercentUntilDates,
    AmountPerCalendarDayEarly,
    AmountPerBusinessDayEarly,
    PercentPerCalendarDayEarly,
    PercentPerBusinessDayEarly,
}

/// How often a mandate charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "SCREAMING_SNAKE_CASE"))]
pub enum MandateFrequency {
    Weekly,
    Monthly,
    Quarterly,
    Semiannual,
    Annual,
}

/// What kind of PIX charge is resolved (`charge-kind`, chain 1.1.0). Recorded inputs from
/// before 1.1.0 have none: they are immediate charges.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum ChargeKind {
    #[default]
    Immediate,
    DueDate(DueTerms),
    Recurring(MandateTerms),
}

impl ChargeKind {
    /// True for an immediate charge, the only kind before chain 1.1.0.
    pub fn is_immediate(&self) -> bool {
        matches!(self, ChargeKind::Immediate)
    }
}

/// A step's verdict on one economics candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum CandidateOutcome {
    Accepted(EconomicsQuote),
    Rejected(String),
}

records! {
    pub struct Charge {
        pub amount_centavos: u64,
        pub currency: String,
        pub reference: String,
        pub payer_kind: PayerKind,
        pub metadata_json: String,
        pub created_at_ms: i64,
        /// Left out of the JSON of an immediate charge, which then reads exactly as a trace
        /// recorded under chain 1.0.0.
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "ChargeKind::is_immediate"))]
        pub kind: ChargeKind,
    }

    pub struct FixedOrPercentRule {
        pub kind: FixedOrPercent,
        pub value: u64,
    }

    pub struct InterestRule {
        pub modality: InterestModality,
        pub value: u64,
    }

    pub struct DiscountDate {
        pub date: String,
        pub value: u64,
    }

    pub struct DiscountRule {
        pub modality: DiscountModality,
        pub value: u64,
        pub dates: Vec<DiscountDate>,
    }

    pub struct DueTerms {
        pub due_date: String,
        pub days_after_due: u32,
        #[cfg_attr(feature = "serde", serde(default))]
        pub fine: Option<FixedOrPercentRule>,
        #[cfg_attr(feature = "serde", serde(default))]
        pub interest: Option<InterestRule>,
        #[cfg_attr(feature = "serde", serde(default))]
        pub abatement: Option<FixedOrPercentRule>,
        #[cfg_attr(feature = "serde", serde(default))]
        pub discount: Option<DiscountRule>,
    }

    pub struct MandateTerms {
        pub mandate_id: String,
        pub frequency: MandateFrequency,
        pub cycle: u32,
        pub due_date: String,
    }

    pub struct ConfigEntry {
        pub key: String,
        pub value: String,
    }

    pub struct StoreContext {
        pub code: String,
        pub merchant: String,
        pub mode: StoreMode,
        pub config: Vec<ConfigEntry>,
    }

    pub struct StepEnv {
        pub now_ms: i64,
        pub seed: u64,
    }

    pub struct FeeTerms {
        pub mdr_bps: u32,
        pub fixed_centavos: u64,
        pub min_fee_centavos: u64,
        #[cfg_attr(feature = "serde", serde(default))]
        pub max_fee_centavos: Option<u64>,
    }

    pub struct GatewayHealth {
        pub available: bool,
        pub success_rate_bps: u32,
        pub latency_p50_ms: u32,
        pub samples: u32,
    }

    pub struct Gateway {
        pub provider_code: String,
        pub gateway_alias: String,
        pub release_class: String,
        pub fee_terms: FeeTerms,
        pub health: GatewayHealth,
    }

    pub struct PolicyDecision {
        pub policy: String,
        pub eligible_release_classes: Vec<String>,
        pub cross_release_class_failover: bool,
        pub max_attempts: u32,
    }

    pub struct RankedGateway {
        pub gateway_alias: String,
        pub provider_code: String,
        pub release_class: String,
        pub reason: String,
    }

    pub struct ExcludedGateway {
        pub gateway_alias: String,
        pub reason: String,
    }

    pub struct ProviderDecision {
        pub ranking: Vec<RankedGateway>,
        pub excluded: Vec<ExcludedGateway>,
    }

    pub struct EconomicsQuote {
        pub fee_centavos: u64,
        pub net_centavos: u64,
        pub release_class: String,
        pub settlement_date: String,
    }

    pub struct CandidateEconomics {
        pub gateway_alias: String,
        pub outcome: CandidateOutcome,
    }

    pub struct StepError {
        pub code: String,
        pub message: String,
    }

    pub struct PolicyInput {
        pub charge: Charge,
        pub store: StoreContext,
        pub env: StepEnv,
    }

    pub struct ProviderInput {
        pub charge: Charge,
        pub store: StoreContext,
        pub policy: PolicyDecision,
        pub gateways: Vec<Gateway>,
        pub env: StepEnv,
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
        pub pinned_gateway: Option<String>,
    }

    pub struct EconomicsInput {
        pub charge: Charge,
        pub store: StoreContext,
        pub policy: PolicyDecision,
        pub candidates: Vec<Gateway>,
        pub holidays: Vec<String>,
        pub env: StepEnv,
    }
}

impl StepError {
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        Self {
            code: code.to_owned(),
            message: message.into(),
        }
    }
}

impl StoreContext {
    /// The value of a configuration key, if set.
    pub fn config(&self, key: &str) -> Option<&str> {
        self.config
            .iter()
            .find(|e| e.key == key)
            .map(|e| e.value.as_str())
    }
}
