//! The API Pix resource behind each kind of charge (DESIGN.md section 15): the one place on
//! the PSP side that tells `cob` from `cobv` (and, with Pix Automático, `cobr`). Execution,
//! settlement and cancel ask [`resource`] for the kind's [`ChargeResource`], send what it
//! writes and judge the [`ChargeRecord`] it reads; none of them names a path or a wire type.
//!
//! Due-date charges also go to a PSP in batches: [`lotecobv`] writes a lote of the bodies the
//! `cobv` resource writes, and reads the lote back.
//!
//! A new kind of charge is a new file here (its path, its calls' names, its request, its
//! read and what pays it in full), its wire types in `pixgate_pix::apipix`, and its line in
//! [`resource`].

mod cob;
mod cobv;
pub mod lotecobv;

use pixgate_domain::ChargeKind;
use pixgate_domain::charge::ChargeRequest;
use pixgate_pix::apipix::{Amount, CobStatus, Pix, Txid};
use serde::de::DeserializeOwned;

use crate::db::intents::Intent;
use crate::db::psp_calls::CallOperation;
use crate::webhooks::outbox::Paid;

/// The API Pix resource of `kind`, or `None` for a kind no resource serves yet.
pub fn resource(kind: ChargeKind) -> Option<&'static dyn ChargeResource> {
    match kind {
        ChargeKind::Immediate => Some(&cob::Cob),
        ChargeKind::DueDate => Some(&cobv::Cobv),
        ChargeKind::Recurring => None,
    }
}

/// What a charge resource calls its three exchanges.
#[derive(Debug, Clone, Copy)]
pub struct Operations {
    /// `PUT /{path}/{txid}`: create.
    pub put: CallOperation,
    /// `GET /{path}/{txid}`: read, with the pix received.
    pub get: CallOperation,
    /// `PATCH /{path}/{txid}`: revise, here only to remove.
    pub patch: CallOperation,
}

/// A charge to create at one PSP.
#[derive(Debug, Clone, Copy)]
pub struct NewCharge<'a> {
    pub request: &'a ChargeRequest,
    /// How long an immediate charge stays payable.
    pub expiry_seconds: u32,
    /// The receiving pix key at this PSP.
    pub chave: &'a str,
}

/// A charge as a PSP keeps it, whatever its resource: the answer to a `PUT`, `GET` or
/// `PATCH` of it, in the terms settlement judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeRecord {
    pub txid: Txid,
    /// The standard's `CobrancaStatus`, which every charge resource shares.
    pub status: CobStatus,
    /// `valor.original`.
    pub original: Amount,
    pub chave: String,
    /// Where the PSP serves the charge's payload (`location`, or `loc.location`).
    pub location: Option<String>,
    /// The PSP's BR Code, when it gave one.
    pub pix_copia_e_cola: Option<String>,
    /// The pix received for it.
    pub pix: Vec<Pix>,
    /// When an unpaid charge stops being payable (Unix ms).
    pub expires_at: i64,
}

/// One API Pix charge resource (`cob`, `cobv`, ...): its path and calls, the body that
/// creates a charge, the record read back, and what pays it.
pub trait ChargeResource: Send + Sync {
    /// The path segment after the API base, before the txid.
    fn path(&self) -> &'static str;
    fn operations(&self) -> Operations;
    /// The `PUT` body of `charge`, or why the standard cannot carry it.
    fn request(&self, charge: &NewCharge<'_>) -> Result<serde_json::Value, String>;
    /// The PSP's answer about a charge, or why it is not one (a field's path, never a value).
    fn read(&self, answer: &[u8]) -> Result<ChargeRecord, String>;
    /// Whether `pix` pays `intent`'s charge in full.
    fn pays(&self, intent: &Intent, pix: &Pix) -> bool;
    /// Whether an unpaid charge past [`ChargeRecord::expires_at`] must be removed at the PSP
    /// before its intent is canceled: the PSP expires a `cob` itself, but keeps a `cobv`
    /// `ATIVA` (payable for nobody) forever.
    fn removes_on_expiry(&self) -> bool {
        false
    }
    /// What a pix that [`Self::pays`] the charge paid, when the intent keeps it (a due-date
    /// charge's amount and its parts).
    fn paid(&self, _intent: &Intent, _pix: &Pix) -> Option<Paid> {
        None
    }
}

/// An answer's JSON as `T`; the error names the field at fault, never its value.
fn decode<T: DeserializeOwned>(answer: &[u8]) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_slice(answer);
    serde_path_to_error::deserialize(&mut de)
        .map_err(|e| format!("unreadable answer at `{}`", e.path()))
}
