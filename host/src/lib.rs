//! pixgate: a merchant payment service for PIX instant payments.
//!
//! [`app::App`] is the service (`pixgate serve`). The data path: [`http`] translates
//! requests to the services ([`charges`], [`components`], [`webhooks`]), which use [`db`],
//! the resolution chain (`pixgate_sandbox::chain`: its decision steps run as sandboxed
//! WebAssembly components) and the [`outbox`]. The values and request bodies they pass
//! around are `pixgate_domain`'s.
#![deny(unsafe_code)]

pub mod access;
pub mod app;
pub mod bootstrap;
pub mod charges;
pub mod cli;
pub mod components;
pub mod config;
pub mod crypto;
pub mod db;
pub mod http;
pub mod live;
pub mod metrics;
pub mod outbox;
pub mod providers;
pub mod psp;
pub mod retention;
pub mod webhooks;
