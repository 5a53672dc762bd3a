//! The PIX standard as pixgate reads and writes it, apart from the server: the wire types of
//! the Central Bank's API Pix ([`apipix`]), what a payer's app reads (the BR Code of a charge,
//! [`brcode`], and its QR code, [`qr`]) and the timestamps both use ([`time`]). Pure
//! functions of text, so the server, the PSP simulator and the fuzz targets build them without
//! the sandbox or the database; a code from any PSP, or one pixgate builds itself, is checked
//! and drawn the same way.
#![forbid(unsafe_code)]

pub mod apipix;
pub mod brcode;
pub mod qr;
pub mod time;
