//! The ledger sweep's vocabulary (DESIGN.md section 18): a run's status and trigger, and the
//! kinds of what it finds, as rows, views and the OpenAPI document name them.

use crate::text_enum;

text_enum!(
    /// A sweep of one provider's Brasília day: `RUNNING`, then `DONE` (every page read and
    /// matched) or `FAILED` (with its error: a PSP error mid-sweep, or the instance sweeping
    /// stopped). A failed run is never half-recorded as clean: the next run of that provider
    /// and day is a new one.
    ReconciliationStatus {
        Running = "RUNNING",
        Done = "DONE",
        Failed = "FAILED",
    }
);

text_enum!(
    /// Who asked for a run: the daily schedule (`PIXGATE_RECONCILE_DAILY_AT`, for the day
    /// before) or an operator (`POST /admin/v1/reconciliations`).
    ReconciliationTrigger {
        Daily = "DAILY",
        Operator = "OPERATOR",
    }
);

text_enum!(
    /// What one pix, devolução or paid intent was found to be.
    FindingKind {
        /// Listed by the PSP and paid here, for the same amount: the books agree.
        Matched = "matched",
        /// Paid at the PSP while pending here: settled by the sweep as a read would.
        SettledLate = "settled_late",
        /// Paid at the PSP, `CANCELED` here: the wrong-amount anomaly's exits resolve it.
        PaidAfterCancel = "paid_after_cancel",
        /// Paid at the PSP for another amount than pixgate's.
        AmountMismatch = "amount_mismatch",
        /// A pix with no txid, or a txid pixgate never created: paid to the key outside
        /// pixgate.
        UnknownPix = "unknown_pix",
        /// `SUCCEEDED` here, completed that day, absent from the PSP's day.
        MissingAtPsp = "missing_at_psp",
        /// A devolução whose status or value differs from pixgate's refund of the same id, or
        /// one pixgate never asked for made in the PSP's portal (recorded as a refund).
        RefundMismatch = "refund_mismatch",
        /// A devolução of a `MED_*` nature: the payer's bank took the money back (recorded as
        /// a refund).
        MedRefund = "med_refund",
    }
);
