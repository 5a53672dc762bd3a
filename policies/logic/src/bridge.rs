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

/// Conversions for the records of the `types` interface.
#[macro_export]
macro_rules! bridge_types {
    ($($m:ident)::+) => {
        $crate::bridge_enum!($($m)::+, PayerKind { Cpf, Cnpj });
        $crate::bridge_enum!($($m)::+, StoreMode { Shadow, Live });
        $crate::bridge_record!($($m)::+, Charge {
            amount_centavos, currency, reference, payer_kind, metadata_json, created_at_ms
        });
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
        $crate::bridge_record!($($m)::+, ProviderInput { charge, store, policy, env; [gateways] });
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
