//! The end-to-end tests: they start the real `pixgate` binary (and simulators, receivers,
//! browsers) and drive it as merchants, operators and PSPs do. One test binary with a
//! module per area: as 38 binaries, each linked the whole crate graph, they were about a
//! seventh of a cold test build's CPU time (496 of 3,559 s).
//! `cargo nextest run -E 'test(/^durability::/)'` runs one area.

mod admin_bounds;
mod audit;
mod authoring;
mod batches;
mod budgets;
mod canary;
mod component_lifecycle;
mod components;
mod docs;
mod due_date;
mod durability;
mod fuzz_corpus;
mod fuzz_regressions;
mod hardening;
mod harness_crash;
mod harness_multi_instance;
mod harness_receiver_outage;
mod languages;
mod live;
mod logs;
mod mandates;
mod merchant_api;
mod on_call;
mod operations;
mod operators;
mod payment_view;
mod policy_cli;
mod policy_run;
mod providers;
mod psp_sim;
mod psp_sim_cobv;
mod psp_sim_rec;
mod reconciliation;
mod refunds;
mod replay_progress;
mod search;
mod security;
mod telemetry;
mod webhooks;
