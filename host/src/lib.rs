//! pixgate: a merchant payment service for PIX instant payments.
//!
//! The resolution chain's decision steps run as sandboxed WebAssembly components
//! ([`sandbox`]); [`chain`] drives them in order for one charge.
#![deny(unsafe_code)]

pub mod chain;
pub mod cli;
pub mod sandbox;
