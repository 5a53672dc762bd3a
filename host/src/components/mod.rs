//! Policy components as payment-ops manage them: versions, activation per store and step,
//! dry-run evaluation, replay, shadow candidates and the kill switch.

pub mod report;
