//! What a recurring charge is made under (DESIGN.md section 17): the mandate's frequency and
//! the terms the chain sees (`mandate-terms`). A module of its own so that the charge and the
//! mandate bodies both take it without taking each other.

use crate::due::Date;
use crate::text_enum;

text_enum!(
    /// How often a mandate charges (API Pix `periodicidade`).
    Frequency {
        Weekly = "WEEKLY",
        Monthly = "MONTHLY",
        Quarterly = "QUARTERLY",
        Semiannual = "SEMIANNUAL",
        Annual = "ANNUAL",
    }
);

/// What a recurring charge is made under, as the chain sees it (`mandate-terms`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringTerms {
    pub mandate_id: String,
    pub frequency: Frequency,
    /// The cycle, from 1.
    pub cycle: u32,
    pub due_date: Date,
}
