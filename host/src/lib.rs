//! pixgate: a merchant payment service for PIX instant payments.
//!
//! [`http::App`] is the service (`pixgate serve`); the resolution chain's decision steps run
//! as sandboxed WebAssembly components ([`sandbox`]), driven for one charge by [`chain`].
#![deny(unsafe_code)]

pub mod bootstrap;
pub mod chain;
pub mod cli;
pub mod components;
pub mod config;
pub mod crypto;
pub mod db;
pub mod domain;
pub mod http;
pub mod metrics;
pub mod outbox;
pub mod sandbox;
pub mod webhooks;
