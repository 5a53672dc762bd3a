//! What a payer's app reads: the BR Code of a charge ([`brcode`]) and its QR code ([`qr`]).
//! Both are pure functions of text, kept apart from the PSP client so that a code from any PSP,
//! or one pixgate builds itself, is checked and drawn the same way.

pub mod brcode;
pub mod qr;
