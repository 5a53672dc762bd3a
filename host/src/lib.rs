//! pixgate: a merchant payment service for PIX instant payments.
//!
//! [`app::App`] is the service (`pixgate serve`); its composition root builds one handle per
//! service. The data path, in the order a request meets it:
//!
//! 1. [`http`]: the merchant and admin routers; handlers translate HTTP to one service call.
//! 2. The services: [`charges`] (PaymentIntents), [`components`] (policy versions, rollout,
//!    evaluate, replay, shadow), [`catalog`] (merchants, stores, gateways, API keys),
//!    [`webhooks::endpoints`] (a merchant's endpoints), [`search`] (finding payments and
//!    stores), [`access`] (who is calling), [`operators`] (the admin API's operators and its
//!    audit trail).
//! 3. The chain and its sandbox: the `pixgate-sandbox` crate (wasmtime); the values and
//!    request bodies are the `pixgate-domain` crate's.
//! 4. Storage: [`db`] (SQL functions on SQLite and PostgreSQL).
//! 5. The outbox and delivery: [`webhooks`] (events written with the payment's transition,
//!    then signed and sent).
//! 6. The PSP side: [`psp`] (the API Pix client, the providers, LIVE execution).
#![forbid(unsafe_code)]

pub mod access;
pub mod app;
pub mod bootstrap;
pub mod catalog;
pub mod charges;
pub mod components;
pub mod config;
pub mod crypto;
pub mod db;
pub mod export;
pub mod http;
pub mod internal;
pub mod logging;
pub mod mandates;
pub mod metrics;
pub mod operators;
pub mod psp;
pub mod reconciliation;
pub mod refunds;
pub mod retention;
pub mod routing;
pub mod search;
pub mod settlements;
pub mod telemetry;
pub mod webhooks;
