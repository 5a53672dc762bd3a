//! Conversions between these records and the bindings generated from `wit/chain.wit`.
//!
//! wit-bindgen (in the guests) and wasmtime's `bindgen!` (in the host) name records, fields
//! and cases the same way, so one set of macros serves both sides. Each macro takes the
//! path of the generated module, e.g. `bridge_types!(pixgate::chain::types)`.

/// Converts field by field in both directions. `[field]` marks a list of records.
#[doc(hidden)]
#[macro_export]
macro_rules! bridge_record {
    ($($m:ident)::+, $name:ident { $($field:ident),* $(; [$($list:ident),*])? }) => {
        impl From<$($m)::+::$name> for $crate::$name {
            fn from(v: $($m)::+::$name) -> Self {
                Self {
                    $($field: v.$field.into(),)*
                    $($($list: v.$list.into_iter().map(Into::into).collect(),)*)?
                }
            }
        }
        impl From<$crate::$name> for $($m)::+::$name {
            fn from(v: $crate::$name) -> Self {
                Self {
                    $($field: v.$field.into(),)*
                    $($($list: v.$list.into_iter().map(Into::into).collect(),)*)?
                }
            }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! bridge_enum {
    ($($m:ident)::+, $name:ident { $($case:ident),* }) => {
        const _: () = {
            type Generated = $($m)::+::$name;
            impl From<Generated> for $crate::$name {
                fn from(v: Generated) -> Self {
                    match v { $(Generated::$case => Self::$case,)* }
                }
            }
            impl From<$crate::$name> for Generated {
                fn from(v: $crate::$name) -> Self {
                    match v { $($crate::$name::$case => Self::$case,)* }
                }
            }
        };
    };
}

/// Conversions for the records of the `types` interface (chain 1.1.0).
#[macro_export]
macro_rules! bridge_types {
    ($($m:ident)::+) => {
        $crate::bridge_shared_types!($($m)::+);
        $crate::bridge_enum!($($m)::+, FixedOrPercent { Fixed, Percent });
        $crate::bridge_enum!($($m)::+, InterestModality {
            AmountPerCalendarDay, PercentPerCalendarDay, PercentPerCalendarMonth,
            PercentPerCalendarYear, AmountPerBusinessDay, PercentPerBusinessDay,
            PercentPerBusinessMonth, PercentPerBusinessYear
        });
        $crate::bridge_enum!($($m)::+, DiscountModality {
            FixedUntilDates, PercentUntilDates, AmountPerCalendarDayEarly,
            AmountPerBusinessDayEarly, PercentPerCalendarDayEarly, PercentPerBusinessDayEarly
        });
        $crate::bridge_enum!($($m)::+, MandateFrequency {
            Weekly, Monthly, Quarterly, Semiannual, Annual
        });
        $crate::bridge_record!($($m)::+, FixedOrPercentRule { kind, value });
        $crate::bridge_record!($($m)::+, InterestRule { modality, value });
        $crate::bridge_record!($($m)::+, DiscountDate { date, value });
        $crate::bridge_record!($($m)::+, DiscountRule { modality, value; [dates] });
        impl From<$($m)::+::DueTerms> for $crate::DueTerms {
            fn from(v: $($m)::+::DueTerms) -> Self {
                Self {
                    due_date: v.due_date,
                    days_after_due: v.days_after_due,
                    fine: v.fine.map(Into::into),
                    interest: v.interest.map(Into::into),
                    abatement: v.abatement.map(Into::into),
                    discount: v.discount.map(Into::into),
                }
            }
        }
        impl From<$crate::DueTerms> for $($m)::+::DueTerms {
            fn from(v: $crate::DueTerms) -> Self {
                Self {
                    due_date: v.due_date,
                    days_after_due: v.days_after_due,
                    fine: v.fine.map(Into::into),
                    interest: v.interest.map(Into::into),
                    abatement: v.abatement.map(Into::into),
                    discount: v.discount.map(Into::into),
                }
            }
        }
        $crate::bridge_record!($($m)::+, MandateTerms { mandate_id, frequency, cycle, due_date });
        $crate::bridge_record!($($m)::+, Charge {
            amount_centavos, currency, reference, payer_kind, metadata_json, created_at_ms, kind
        });

        impl From<$($m)::+::ChargeKind> for $crate::ChargeKind {
            fn from(v: $($m)::+::ChargeKind) -> Self {
                match v {
                    $($m)::+::ChargeKind::Immediate => Self::Immediate,
                    $($m)::+::ChargeKind::DueDate(t) => Self::DueDate(t.into()),
                    $($m)::+::ChargeKind::Recurring(t) => Self::Recurring(t.into()),
                }
            }
        }
        impl From<$crate::ChargeKind> for $($m)::+::ChargeKind {
            fn from(v: $crate::ChargeKind) -> Self {
                match v {
                    $crate::ChargeKind::Immediate => Self::Immediate,
                    $crate::ChargeKind::DueDate(t) => Self::DueDate(t.into()),
                    $crate::ChargeKind::Recurring(t) => Self::Recurring(t.into()),
                }
            }
        }
    };
}

/// Conversions for the records of the `types` interface of chain 1.0.0, which the host still
/// calls: its `charge` has no kind. Converting to it drops the kind (the caller keeps it, see
/// the sandbox's `v1_0` worlds); converting back gives an immediate charge.
#[doc(hidden)]
#[macro_export]
macro_rules! bridge_types_1_0 {
    ($($m:ident)::+) => {
        $crate::bridge_shared_types!($($m)::+);
        impl From<$($m)::+::Charge> for $crate::Charge {
            fn from(v: $($m)::+::Charge) -> Self {
                Self {
                    amount_centavos: v.amount_centavos,
                    currency: v.currency,
                    reference: v.reference,
                    payer_kind: v.payer_kind.into(),
                    metadata_json: v.metadata_json,
                    created_at_ms: v.created_at_ms,
                    kind: $crate::ChargeKind::Immediate,
                }
            }
        }
        impl From<$crate::Charge> for $($m)::+::Charge {
            fn from(v: $crate::Charge) -> Self {
                Self {
                    amount_centavos: v.amount_centavos,
                    currency: v.currency,
                    reference: v.reference,
                    payer_kind: v.payer_kind.into(),
                    metadata_json: v.metadata_json,
                    created_at_ms: v.created_at_ms,
                }
            }
        }
    };
}

/// The records every version of the `types` interface has alike.
#[doc(hidden)]
#[macro_export]
macro_rules! bridge_shared_types {
    ($($m:ident)::+) => {
        $crate::bridge_enum!($($m)::+, PayerKind { Cpf, Cnpj });
        $crate::bridge_enum!($($m)::+, StoreMode { Shadow, Live });
        $crate::bridge_record!($($m)::+, ConfigEntry { key, value });
        $crate::bridge_record!($($m)::+, StoreContext { code, merchant, mode; [config] });
        $crate::bridge_record!($($m)::+, StepEnv { now_ms, seed });
        $crate::bridge_record!($($m)::+, FeeTerms {
            mdr_bps, fixed_centavos, min_fee_centavos, max_fee_centavos
        });
        $crate::bridge_record!($($m)::+, GatewayHealth {
            available, success_rate_bps, latency_p50_ms, samples
        });
        $crate::bridge_record!($($m)::+, Gateway {
            provider_code, gateway_alias, release_class, fee_terms, health
        });
        $crate::bridge_record!($($m)::+, PolicyDecision {
            policy, eligible_release_classes, cross_release_class_failover, max_attempts
        });
        $crate::bridge_record!($($m)::+, RankedGateway {
            gateway_alias, provider_code, release_class, reason
        });
        $crate::bridge_record!($($m)::+, ExcludedGateway { gateway_alias, reason });
        $crate::bridge_record!($($m)::+, ProviderDecision { ; [ranking, excluded] });
        $crate::bridge_record!($($m)::+, EconomicsQuote {
            fee_centavos, net_centavos, release_class, settlement_date
        });
        $crate::bridge_record!($($m)::+, CandidateEconomics { gateway_alias, outcome });
        $crate::bridge_record!($($m)::+, StepError { code, message });

        impl From<$($m)::+::CandidateOutcome> for $crate::CandidateOutcome {
            fn from(v: $($m)::+::CandidateOutcome) -> Self {
                match v {
                    $($m)::+::CandidateOutcome::Accepted(q) => Self::Accepted(q.into()),
                    $($m)::+::CandidateOutcome::Rejected(r) => Self::Rejected(r),
                }
            }
        }
        impl From<$crate::CandidateOutcome> for $($m)::+::CandidateOutcome {
            fn from(v: $crate::CandidateOutcome) -> Self {
                match v {
                    $crate::CandidateOutcome::Accepted(q) => Self::Accepted(q.into()),
                    $crate::CandidateOutcome::Rejected(r) => Self::Rejected(r),
                }
            }
        }
    };
}

/// Conversions for the input record of the `policy` interface.
#[macro_export]
macro_rules! bridge_policy {
    ($($m:ident)::+) => {
        $crate::bridge_record!($($m)::+, PolicyInput { charge, store, env });
    };
}

/// Conversions for the input record of the `provider-selection` interface.
#[macro_export]
macro_rules! bridge_provider {
    ($($m:ident)::+) => {
        $crate::bridge_record!($($m)::+, ProviderInput {
            charge, store, policy, env, pinned_gateway; [gateways]
        });
    };
}

/// Conversions for the input record of the `provider-selection` interface of chain 1.0.0,
/// which has no `pinned-gateway` (dropped one way, `None` the other).
#[doc(hidden)]
#[macro_export]
macro_rules! bridge_provider_1_0 {
    ($($m:ident)::+) => {
        impl From<$($m)::+::ProviderInput> for $crate::ProviderInput {
            fn from(v: $($m)::+::ProviderInput) -> Self {
                Self {
                    charge: v.charge.into(),
                    store: v.store.into(),
                    policy: v.policy.into(),
                    gateways: v.gateways.into_iter().map(Into::into).collect(),
                    env: v.env.into(),
                    pinned_gateway: None,
                }
            }
        }
        impl From<$crate::ProviderInput> for $($m)::+::ProviderInput {
            fn from(v: $crate::ProviderInput) -> Self {
                Self {
                    charge: v.charge.into(),
                    store: v.store.into(),
                    policy: v.policy.into(),
                    gateways: v.gateways.into_iter().map(Into::into).collect(),
                    env: v.env.into(),
                }
            }
        }
    };
}

/// Conversions for the input record of the `economics` interface.
#[macro_export]
macro_rules! bridge_economics {
    ($($m:ident)::+) => {
        $crate::bridge_record!($($m)::+, EconomicsInput {
            charge, store, policy, holidays, env; [candidates]
        });
    };
}
