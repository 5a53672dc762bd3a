//! pixgate: a merchant payment service for PIX instant payments.
//!
//! [`app::App`] is the service (`pixgate serve`). The data path: [`http`] translates
//! requests to the services ([`charges`], [`components`], [`webhooks`]), which use [`db`],
//! the resolution [`chain`] (its decision steps run as sandboxed WebAssembly components,
//! [`sandbox`]) and the [`outbox`].
#![deny(unsafe_code)]

pub mod access;
pub mod app;
pub mod bootstrap;
pub mod catalog;
pub mod charges;
pub mod cli;
pub mod components;
pub mod config;
pub mod crypto;
pub mod db;
pub mod http;
pub mod metrics;
pub mod psp;
pub mod retention;
pub mod webhooks;
