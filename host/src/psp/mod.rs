//! The PSP side, in one place: [`client`] speaks the Central Bank's API Pix to any PSP that
//! follows it (OAuth2 tokens, mutual TLS, the recorded calls); [`providers`] are the PSPs as
//! payment-ops configure them, with a client each and their recent health; [`charge_kinds`]
//! is the API Pix resource behind each kind of charge (`cob`, `cobv`); [`live`] runs a LIVE
//! store's charge at its PSP and settles it (callbacks and the reconciler).

pub mod charge_kinds;
pub mod client;
pub mod live;
pub mod providers;
