//! Pix Automático mandates (DESIGN.md section 17): the body of `POST /mandates` as the API
//! receives it ([`CreateMandateRequest`]), the [`MandateRequest`] built only by validation,
//! and the names a mandate's fields take in rows, JSON and the OpenAPI documents.
//!
//! A mandate is the payer's authorisation, given once in their bank app, for the merchant to
//! charge them every cycle without their acting (API Pix `rec`). Its terms follow API Pix's
//! limits where pixgate sends them to the PSP: the contract (`reference`, API Pix
//! `vinculo.contrato`) and the object (`description`, `vinculo.objeto`) at most 35
//! characters, the payer's name at most 140.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::charge::{
    Literals, Reais, amount_rule, canonical_json, canonical_metadata, metadata_text,
};
use crate::due::Date;
use crate::json::{Invalid, bounded, from_json};
pub use crate::recurring::{Frequency, RecurringTerms};
use crate::{Money, TaxId, sha256_hex, text_enum, valid_code};

text_enum!(
    /// Whether a rejected attempt is retried (API Pix `politicaRetentativa`): `NONE`
    /// (`NAO_PERMITE`) or up to 3 retries within 7 days of the due date (`PERMITE_3R_7D`).
    RetryPolicy {
        None = "NONE",
        UpTo3In7Days = "UP_TO_3_IN_7_DAYS",
    }
);

text_enum!(
    /// How the payer authorises: `QR` (API Pix journey 2, a QR code that only authorises),
    /// `QR_WITH_FIRST_PAYMENT` (journey 3, one QR code pays the first charge and authorises),
    /// `PUSH` (journey 1, a request sent to the payer's bank app).
    Journey {
        Qr = "QR",
        QrWithFirstPayment = "QR_WITH_FIRST_PAYMENT",
        Push = "PUSH",
    }
);

text_enum!(
    /// A mandate's status: `PENDING_AUTHORIZATION` until the payer answers, then `ACTIVE`,
    /// `REJECTED` or `EXPIRED`; `ACTIVE` until `CANCELED` (by either side) or its end date.
    /// `FAILED`: no PSP accepted it. `SHADOW_ONLY` (a SHADOW store's, terminal): resolved and
    /// recorded, nothing sent to a PSP.
    MandateStatus {
        PendingAuthorization = "PENDING_AUTHORIZATION",
        Active = "ACTIVE",
        Rejected = "REJECTED",
        Expired = "EXPIRED",
        Canceled = "CANCELED",
        Failed = "FAILED",
        ShadowOnly = "SHADOW_ONLY",
    }
);

impl MandateStatus {
    /// Nothing more happens to a mandate in these states.
    pub fn is_terminal(self) -> bool {
        !matches!(self, Self::PendingAuthorization | Self::Active)
    }
}

/// The payer of a mandate: the person or company whose account is charged each cycle.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(as = MandatePayer)]
pub struct MandatePayerBody {
    /// 1 to 140 characters (API Pix `devedor.nome`), not all blank, no control characters.
    #[schema(
        min_length = 1,
        max_length = 140,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$",
        example = "Ana Souza"
    )]
    pub name: String,
    /// CPF or CNPJ, as the charge's payer takes it.
    #[schema(
        pattern = r"^[./ -]*(([0-9][./ -]*){11}|([0-9A-Za-z][./ -]*){12}([0-9][./ -]*){2})$",
        example = "529.982.247-25"
    )]
    pub tax_id: String,
}

/// The first payment of a `QR_WITH_FIRST_PAYMENT` mandate: an immediate charge the same QR
/// code pays while it authorises.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FirstPaymentBody {
    /// In BRL, as a charge's amount.
    #[schema(value_type = f64, minimum = 0.01, maximum = 100000000.0, multiple_of = 0.01, example = 49.9)]
    pub amount: Reais,
}

/// The payer's account, where a `PUSH` mandate's request is sent (API Pix `destinatario`).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PayerAccountBody {
    /// The payer's institution's ISPB: 8 digits.
    #[schema(pattern = "^[0-9]{8}$", example = "12345678")]
    pub ispb: String,
    /// 1 to 4 digits.
    #[schema(pattern = "^[0-9]{1,4}$", example = "0001")]
    pub branch: String,
    /// 1 to 20 digits.
    #[schema(pattern = "^[0-9]{1,20}$", example = "123456")]
    pub account: String,
}

/// Body of `POST /mandates`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({
    "store": "demo-store", "reference": "contract-2031", "description": "Gym monthly plan",
    "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
    "frequency": "MONTHLY", "startDate": "2030-12-10", "amount": 99.9,
    "retryPolicy": "UP_TO_3_IN_7_DAYS", "journey": "QR_WITH_FIRST_PAYMENT",
    "firstPayment": {"amount": 99.9}
}))]
pub struct CreateMandateRequest {
    /// Store code; the key must be granted this store.
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = "^[A-Za-z0-9._-]{1,64}$",
        example = "demo-store"
    )]
    pub store: String,
    /// The contract this mandate is for (API Pix `vinculo.contrato`): 1 to 35 characters.
    #[schema(
        min_length = 1,
        max_length = 35,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$",
        example = "contract-2031"
    )]
    pub reference: String,
    /// What is charged (API Pix `vinculo.objeto`): 1 to 35 characters.
    #[schema(
        min_length = 1,
        max_length = 35,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub description: Option<String>,
    pub payer: MandatePayerBody,
    pub frequency: Frequency,
    /// The first cycle's due date, `YYYY-MM-DD`: not before today in Brasília.
    #[schema(format = Date, pattern = "^(19[0-9]{2}|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", example = "2030-12-10")]
    pub start_date: String,
    /// The last day a cycle may fall on; none: until canceled. Not before `startDate`.
    #[schema(format = Date, pattern = "^(19[0-9]{2}|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")]
    pub end_date: Option<String>,
    /// A fixed amount charged each cycle, in BRL (API Pix `valorRec`). Not with
    /// `minimumAmount`.
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 100000000.0, multiple_of = 0.01, example = 99.9)]
    pub amount: Option<Reais>,
    /// For a varying amount: the least a cycle charges, below which the payer's own limit
    /// cannot go (API Pix `valorMinimoRecebedor`). Not with `amount`.
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 100000000.0, multiple_of = 0.01)]
    pub minimum_amount: Option<Reais>,
    /// pixgate creates each cycle's charge itself (`PIXGATE_MANDATE_LEAD_DAYS` before its due
    /// date). Default `true` with a fixed `amount`; refused without one.
    pub auto_charge: Option<bool>,
    pub retry_policy: RetryPolicy,
    pub journey: Journey,
    /// Required by `QR_WITH_FIRST_PAYMENT`, refused by the others.
    pub first_payment: Option<FirstPaymentBody>,
    /// Required by `PUSH`, refused by the others.
    pub payer_account: Option<PayerAccountBody>,
    /// Free-form JSON object of at most 16 KB, kept as the exact text sent, with the charge's
    /// rules.
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Map<String, Value>>,
    /// `metadata` as written ([`Literals`]), set by `from_body`.
    #[serde(skip)]
    #[doc(hidden)]
    pub metadata_as_sent: Option<String>,
}

/// The codes of type errors in a mandate body, per field.
pub const MANDATE_FIELD_CODES: &[(&str, &str)] = &[
    ("payer", "invalid_payer"),
    ("frequency", "invalid_frequency"),
    ("startDate", "invalid_start_date"),
    ("endDate", "invalid_end_date"),
    ("amount", "invalid_amount"),
    ("minimumAmount", "invalid_amount"),
    ("autoCharge", "invalid_auto_charge"),
    ("retryPolicy", "invalid_retry_policy"),
    ("journey", "invalid_journey"),
    ("firstPayment", "invalid_first_payment"),
    ("firstPayment.amount", "invalid_first_payment"),
    ("payerAccount", "invalid_payer_account"),
    ("payerAccount.ispb", "invalid_payer_account"),
    ("payerAccount.branch", "invalid_payer_account"),
    ("payerAccount.account", "invalid_payer_account"),
    ("metadata", "invalid_metadata"),
];

/// What a cycle's amount is bound by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MandateAmount {
    /// Each cycle charges exactly this.
    Fixed(Money),
    /// Each cycle charges at least this.
    Minimum(Money),
    /// The merchant names each cycle's amount.
    Open,
}

impl MandateAmount {
    pub fn fixed(self) -> Option<Money> {
        match self {
            Self::Fixed(m) => Some(m),
            _ => None,
        }
    }

    pub fn minimum(self) -> Option<Money> {
        match self {
            Self::Minimum(m) => Some(m),
            _ => None,
        }
    }
}

/// The payer's account for a `PUSH` mandate, after validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayerAccount {
    pub ispb: String,
    pub branch: String,
    pub account: String,
}

/// A mandate after validation: every field known good.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MandateRequest {
    pub store: String,
    pub reference: String,
    pub description: Option<String>,
    pub payer_name: String,
    pub payer_tax_id: TaxId,
    pub frequency: Frequency,
    pub start_date: Date,
    pub end_date: Option<Date>,
    pub amount: MandateAmount,
    pub auto_charge: bool,
    pub retry_policy: RetryPolicy,
    pub journey: Journey,
    pub first_payment: Option<Money>,
    pub payer_account: Option<PayerAccount>,
    /// The metadata object as written, without whitespace between tokens (`{}` when absent).
    pub metadata: String,
}

impl CreateMandateRequest {
    pub fn from_json(value: Value) -> Result<Self, Invalid> {
        from_json(value, MANDATE_FIELD_CODES)
    }

    /// The body as parsed, with what `check_literals` kept of it as written.
    pub fn from_body(value: Value, literals: Literals) -> Result<Self, Invalid> {
        let mut request = Self::from_json(value)?;
        request.metadata_as_sent = literals.metadata;
        Ok(request)
    }

    /// Checks every rule of the contract; `today` is the date in Brasília, which the start
    /// date may not be before.
    pub fn validate(self, today: Date) -> Result<MandateRequest, Invalid> {
        if !valid_code(&self.store) {
            return Err(Invalid::new(
                "invalid_store",
                "store",
                "`store` is not a store code",
            ));
        }
        let reference = bounded(&self.reference, "reference", "invalid_reference", 1, 35)?;
        let description = self
            .description
            .as_deref()
            .map(|d| bounded(d, "description", "invalid_description", 1, 35))
            .transpose()?;
        let payer_name = bounded(&self.payer.name, "payer.name", "invalid_payer_name", 1, 140)?;
        if payer_name
            .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
            .is_empty()
        {
            return Err(Invalid::new(
                "invalid_payer_name",
                "payer.name",
                "`payer.name` must not be blank",
            ));
        }
        let payer_tax_id = TaxId::parse(&self.payer.tax_id).ok_or_else(|| {
            Invalid::new(
                "invalid_tax_id",
                "payer.taxId",
                "`payer.taxId` is not a valid CPF or CNPJ",
            )
        })?;
        let date = |text: &str, field: &str, code: &'static str| {
            Date::parse(text).ok_or_else(|| {
                Invalid::new(code, field, format!("`{field}` is not a date (YYYY-MM-DD)"))
            })
        };
        let start_date = date(&self.start_date, "startDate", "invalid_start_date")?;
        if start_date < today {
            return Err(Invalid::new(
                "invalid_start_date",
                "startDate",
                format!("`startDate` must not be before today ({today}) in Brasília"),
            ));
        }
        let end_date = self
            .end_date
            .as_deref()
            .map(|d| date(d, "endDate", "invalid_end_date"))
            .transpose()?;
        if let Some(end) = end_date
            && end < start_date
        {
            return Err(Invalid::new(
                "invalid_end_date",
                "endDate",
                "`endDate` must not be before `startDate`",
            ));
        }
        let money = |reais: Reais, field: &str, code: &'static str| {
            Money::from_brl(reais.0).map_err(|e| {
                Invalid::new(
                    code,
                    field,
                    amount_rule(e).replacen("`amount`", &format!("`{field}`"), 1),
                )
            })
        };
        let amount = match (self.amount, self.minimum_amount) {
            (Some(_), Some(_)) => {
                return Err(Invalid::new(
                    "invalid_amount",
                    "minimumAmount",
                    "give `amount` (the same each cycle) or `minimumAmount` (the least a cycle \
                     charges), not both",
                ));
            }
            (Some(a), None) => MandateAmount::Fixed(money(a, "amount", "invalid_amount")?),
            (None, Some(m)) => MandateAmount::Minimum(money(m, "minimumAmount", "invalid_amount")?),
            (None, None) => MandateAmount::Open,
        };
        let auto_charge = match (self.auto_charge, amount) {
            (Some(true), MandateAmount::Minimum(_) | MandateAmount::Open) => {
                return Err(Invalid::new(
                    "invalid_auto_charge",
                    "autoCharge",
                    "`autoCharge` needs a fixed `amount`: pixgate cannot know a varying cycle's \
                     amount",
                ));
            }
            (Some(flag), _) => flag,
            (None, MandateAmount::Fixed(_)) => true,
            (None, _) => false,
        };
        let first_payment = match (self.journey, self.first_payment) {
            (Journey::QrWithFirstPayment, Some(first)) => Some(money(
                first.amount,
                "firstPayment.amount",
                "invalid_first_payment",
            )?),
            (Journey::QrWithFirstPayment, None) => {
                return Err(Invalid::new(
                    "missing_field",
                    "firstPayment",
                    "`firstPayment` is required by the QR_WITH_FIRST_PAYMENT journey",
                ));
            }
            (_, Some(_)) => {
                return Err(Invalid::new(
                    "invalid_first_payment",
                    "firstPayment",
                    "`firstPayment` is only for the QR_WITH_FIRST_PAYMENT journey",
                ));
            }
            (_, None) => None,
        };
        let payer_account = match (self.journey, self.payer_account) {
            (Journey::Push, Some(account)) => Some(account.validate()?),
            (Journey::Push, None) => {
                return Err(Invalid::new(
                    "missing_field",
                    "payerAccount",
                    "`payerAccount` is required by the PUSH journey: the request goes to the \
                     payer's bank",
                ));
            }
            (_, Some(_)) => {
                return Err(Invalid::new(
                    "invalid_payer_account",
                    "payerAccount",
                    "`payerAccount` is only for the PUSH journey",
                ));
            }
            (_, None) => None,
        };
        let metadata = metadata_text(self.metadata.as_ref(), self.metadata_as_sent, "metadata")?;
        Ok(MandateRequest {
            store: self.store,
            reference,
            description,
            payer_name,
            payer_tax_id,
            frequency: self.frequency,
            start_date,
            end_date,
            amount,
            auto_charge,
            retry_policy: self.retry_policy,
            journey: self.journey,
            first_payment,
            payer_account,
            metadata,
        })
    }
}

impl PayerAccountBody {
    fn validate(self) -> Result<PayerAccount, Invalid> {
        let digits = |value: &str, field: &str, min: usize, max: usize| {
            if (min..=max).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit()) {
                Ok(value.to_owned())
            } else {
                Err(Invalid::new(
                    "invalid_payer_account",
                    field,
                    format!("`{field}` must be {min} to {max} digits"),
                ))
            }
        };
        Ok(PayerAccount {
            ispb: digits(&self.ispb, "payerAccount.ispb", 8, 8)?,
            branch: digits(&self.branch, "payerAccount.branch", 1, 4)?,
            account: digits(&self.account, "payerAccount.account", 1, 20)?,
        })
    }
}

impl MandateRequest {
    /// The request's idempotency fingerprint: sha256 of its validated, normalised form.
    /// Distinct from every charge's (`"resource": "mandate"`), so a key reused across the two
    /// routes is a reused key.
    pub fn fingerprint(&self) -> String {
        let normalised = serde_json::json!({
            "v": 1,
            "resource": "mandate",
            "store": self.store,
            "reference": self.reference,
            "description": self.description,
            "payer": self.payer_json(),
            "frequency": self.frequency.as_str(),
            "startDate": self.start_date.to_string(),
            "endDate": self.end_date.map(|d| d.to_string()),
            "amountCentavos": self.amount.fixed().map(Money::centavos),
            "minimumAmountCentavos": self.amount.minimum().map(Money::centavos),
            "autoCharge": self.auto_charge,
            "retryPolicy": self.retry_policy.as_str(),
            "journey": self.journey.as_str(),
            "firstPaymentCentavos": self.first_payment.map(Money::centavos),
            "payerAccount": self.payer_account.as_ref().map(|a| serde_json::json!({
                "ispb": a.ispb, "branch": a.branch, "account": a.account,
            })),
            "metadata": canonical_metadata(&self.metadata),
        });
        sha256_hex(canonical_json(&normalised))
    }

    /// The payer as sealed at rest: name and normalised tax id.
    pub fn payer_json(&self) -> Value {
        serde_json::json!({"name": self.payer_name, "taxId": self.payer_tax_id.as_str()})
    }

    /// What the chain is told a cycle charges: the fixed amount, else the minimum, else the
    /// first payment's amount, else one centavo (the merchant names each cycle's amount
    /// later; the chain needs an amount to quote fees on).
    pub fn routing_amount(&self) -> Money {
        self.amount
            .fixed()
            .or(self.amount.minimum())
            .or(self.first_payment)
            .unwrap_or(Money::MIN)
    }
}

/// Body of `POST /mandates/{mandateId}/charges`: one cycle's charge under an active mandate.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({"amount": 99.9, "dueDate": "2030-12-10"}))]
pub struct CreateMandateChargeRequest {
    /// In BRL. Required unless the mandate has a fixed amount (then, if given, that amount);
    /// at least the mandate's `minimumAmount`.
    #[schema(value_type = Option<f64>, minimum = 0.01, maximum = 100000000.0, multiple_of = 0.01, example = 99.9)]
    pub amount: Option<Reais>,
    /// `YYYY-MM-DD`: from 2 days ahead (Brasília), within the mandate's start and end dates.
    /// More than 10 days ahead, the charge is `SCHEDULED` until the Pix Automático window
    /// opens.
    #[schema(format = Date, pattern = "^(19[0-9]{2}|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", example = "2030-12-10")]
    pub due_date: String,
    /// The charge's reference: 1 to 35 characters; default the mandate's.
    #[schema(
        min_length = 1,
        max_length = 35,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub reference: Option<String>,
    /// 1 to 35 characters; default the mandate's description.
    #[schema(
        min_length = 1,
        max_length = 35,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub description: Option<String>,
    /// Free-form JSON object of at most 16 KB, kept as the exact text sent, with the charge's
    /// rules.
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Map<String, Value>>,
    /// `metadata` as written ([`Literals`]), set by `from_body`.
    #[serde(skip)]
    #[doc(hidden)]
    pub metadata_as_sent: Option<String>,
}

/// The codes of type errors in a mandate charge body, per field.
pub const MANDATE_CHARGE_FIELD_CODES: &[(&str, &str)] = &[
    ("amount", "invalid_amount"),
    ("dueDate", "invalid_due_date"),
    ("metadata", "invalid_metadata"),
];

/// The terms of a mandate a charge under it is checked against.
#[derive(Debug, Clone)]
pub struct MandateTerms {
    pub amount: MandateAmount,
    pub frequency: Frequency,
    pub start_date: Date,
    pub end_date: Option<Date>,
    pub reference: String,
    pub description: Option<String>,
}

/// A charge under a mandate, every rule checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MandateCharge {
    pub amount: Money,
    pub due_date: Date,
    /// The cycle the due date falls in, from 1.
    pub cycle: u32,
    pub reference: String,
    pub description: Option<String>,
    pub metadata: String,
}

/// The least number of days ahead a recurring charge may be due (the Pix Automático rules:
/// its `cobr` goes to the PSP 2 to 10 days before the due date).
pub const MIN_DAYS_AHEAD: i64 = 2;

/// How many days before its due date a recurring charge's `cobr` is sent at the latest.
pub const WINDOW_DAYS: i64 = 10;

impl CreateMandateChargeRequest {
    /// The body as parsed, with what `check_literals` kept of it as written.
    pub fn from_body(value: Value, literals: Literals) -> Result<Self, Invalid> {
        let mut request: Self = from_json(value, MANDATE_CHARGE_FIELD_CODES)?;
        request.metadata_as_sent = literals.metadata;
        Ok(request)
    }

    /// Checks the charge against the mandate's `terms`; `today` is the date in Brasília.
    pub fn validate(self, terms: &MandateTerms, today: Date) -> Result<MandateCharge, Invalid> {
        let due_date = Date::parse(&self.due_date).ok_or_else(|| {
            Invalid::new(
                "invalid_due_date",
                "dueDate",
                "`dueDate` is not a date (YYYY-MM-DD)",
            )
        })?;
        let earliest = today.add_days(MIN_DAYS_AHEAD);
        if due_date < earliest {
            return Err(Invalid::new(
                "invalid_due_date",
                "dueDate",
                format!(
                    "`dueDate` must be {MIN_DAYS_AHEAD} days ahead at least ({earliest} or \
                     later): the payer's bank is told of a recurring charge before its day"
                ),
            ));
        }
        if due_date < terms.start_date || terms.end_date.is_some_and(|end| due_date > end) {
            let end = terms
                .end_date
                .map_or_else(|| "no end".to_owned(), |e| e.to_string());
            return Err(Invalid::new(
                "invalid_due_date",
                "dueDate",
                format!(
                    "`dueDate` must fall within the mandate ({} to {end})",
                    terms.start_date
                ),
            ));
        }
        let cycle = terms
            .frequency
            .cycle_of(terms.start_date, due_date)
            .ok_or_else(|| Invalid::new("invalid_due_date", "dueDate", "before the mandate"))?;
        let given = self
            .amount
            .map(|reais| {
                Money::from_brl(reais.0)
                    .map_err(|e| Invalid::new("invalid_amount", "amount", amount_rule(e)))
            })
            .transpose()?;
        let amount = match (terms.amount, given) {
            (MandateAmount::Fixed(fixed), None) => fixed,
            (MandateAmount::Fixed(fixed), Some(amount)) if amount == fixed => fixed,
            (MandateAmount::Fixed(fixed), Some(_)) => {
                return Err(Invalid::new(
                    "invalid_amount",
                    "amount",
                    format!(
                        "the payer authorised R$ {:.2} each cycle: `amount` may be left out, or \
                         be that",
                        fixed.brl()
                    ),
                ));
            }
            (MandateAmount::Minimum(minimum), Some(amount)) if amount < minimum => {
                return Err(Invalid::new(
                    "invalid_amount",
                    "amount",
                    format!(
                        "`amount` must be at least the mandate's minimum, R$ {:.2}",
                        minimum.brl()
                    ),
                ));
            }
            (MandateAmount::Minimum(_) | MandateAmount::Open, Some(amount)) => amount,
            (MandateAmount::Minimum(_) | MandateAmount::Open, None) => {
                return Err(Invalid::new(
                    "missing_field",
                    "amount",
                    "`amount` is required: the mandate has no fixed amount",
                ));
            }
        };
        let reference = match self.reference.as_deref() {
            Some(r) => bounded(r, "reference", "invalid_reference", 1, 35)?,
            None => terms.reference.clone(),
        };
        let description = match self.description.as_deref() {
            Some(d) => Some(bounded(d, "description", "invalid_description", 1, 35)?),
            None => terms.description.clone(),
        };
        let metadata = metadata_text(self.metadata.as_ref(), self.metadata_as_sent, "metadata")?;
        Ok(MandateCharge {
            amount,
            due_date,
            cycle,
            reference,
            description,
            metadata,
        })
    }
}

impl MandateCharge {
    /// Whether the charge waits (`SCHEDULED`) for the window that opens [`WINDOW_DAYS`] before
    /// its due date, as of `today`.
    pub fn is_scheduled(&self, today: Date) -> bool {
        today.days_until(self.due_date) > WINDOW_DAYS
    }

    /// The day its `cobr` is sent: today, or the first day of the window.
    pub fn sends_on(&self, today: Date) -> Date {
        if self.is_scheduled(today) {
            self.due_date.add_days(-WINDOW_DAYS)
        } else {
            today
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charge::TAX_ID_PATTERN;

    fn today() -> Date {
        Date::parse("2030-01-10").unwrap()
    }

    fn body(extra: Value) -> Value {
        let mut v = serde_json::json!({
            "store": "demo-store", "reference": "contract-1",
            "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
            "frequency": "MONTHLY", "startDate": "2030-02-01", "amount": 99.9,
            "retryPolicy": "UP_TO_3_IN_7_DAYS", "journey": "QR",
        });
        for (k, val) in extra.as_object().unwrap() {
            if val.is_null() {
                v.as_object_mut().unwrap().remove(k);
            } else {
                v[k] = val.clone();
            }
        }
        v
    }

    fn validate(v: Value) -> Result<MandateRequest, Invalid> {
        CreateMandateRequest::from_json(v)?.validate(today())
    }

    fn refused(v: Value) -> (String, String) {
        let e = validate(v).unwrap_err();
        (e.code.to_owned(), e.field.unwrap_or_default())
    }

    #[test]
    fn a_fixed_amount_mandate_charges_itself_by_default() {
        let m = validate(body(serde_json::json!({}))).unwrap();
        assert_eq!(
            m.amount,
            MandateAmount::Fixed(Money::from_centavos(9990).unwrap())
        );
        assert!(m.auto_charge);
        assert_eq!(m.routing_amount().centavos(), 9990);
        let m = validate(body(
            serde_json::json!({"amount": null, "minimumAmount": 10}),
        ))
        .unwrap();
        assert!(!m.auto_charge);
        assert_eq!(m.routing_amount().centavos(), 1000);
        let m = validate(body(serde_json::json!({"amount": null}))).unwrap();
        assert_eq!(m.amount, MandateAmount::Open);
        assert_eq!(m.routing_amount().centavos(), 1);
    }

    #[test]
    fn each_rule_is_refused_with_its_code_and_field() {
        let cases = [
            (
                serde_json::json!({"minimumAmount": 5}),
                "invalid_amount",
                "minimumAmount",
            ),
            (
                serde_json::json!({"amount": null, "autoCharge": true}),
                "invalid_auto_charge",
                "autoCharge",
            ),
            (
                serde_json::json!({"startDate": "2030-01-09"}),
                "invalid_start_date",
                "startDate",
            ),
            (
                serde_json::json!({"startDate": "2030-13-01"}),
                "invalid_start_date",
                "startDate",
            ),
            (
                serde_json::json!({"endDate": "2030-01-31"}),
                "invalid_end_date",
                "endDate",
            ),
            (
                serde_json::json!({"reference": "x".repeat(36)}),
                "invalid_reference",
                "reference",
            ),
            (
                serde_json::json!({"description": ""}),
                "invalid_description",
                "description",
            ),
            (
                serde_json::json!({"frequency": "BIMONTHLY"}),
                "invalid_frequency",
                "frequency",
            ),
            (
                serde_json::json!({"journey": "EMAIL"}),
                "invalid_journey",
                "journey",
            ),
            (
                serde_json::json!({"retryPolicy": "ALWAYS"}),
                "invalid_retry_policy",
                "retryPolicy",
            ),
            (
                serde_json::json!({"journey": "QR_WITH_FIRST_PAYMENT"}),
                "missing_field",
                "firstPayment",
            ),
            (
                serde_json::json!({"firstPayment": {"amount": 10}}),
                "invalid_first_payment",
                "firstPayment",
            ),
            (
                serde_json::json!({"journey": "PUSH"}),
                "missing_field",
                "payerAccount",
            ),
            (
                serde_json::json!({"journey": "PUSH", "payerAccount": {"ispb": "1234567", "branch": "1", "account": "2"}}),
                "invalid_payer_account",
                "payerAccount.ispb",
            ),
            (
                serde_json::json!({"payerAccount": {"ispb": "12345678", "branch": "1", "account": "2"}}),
                "invalid_payer_account",
                "payerAccount",
            ),
            (
                serde_json::json!({"payer": {"name": "Ana", "taxId": "111.111.111-12"}}),
                "invalid_tax_id",
                "payer.taxId",
            ),
            (
                serde_json::json!({"amount": 0.001}),
                "invalid_amount",
                "amount",
            ),
            (
                serde_json::json!({"surprise": 1}),
                "unknown_field",
                "surprise",
            ),
            (
                serde_json::json!({"store": "no spaces"}),
                "invalid_store",
                "store",
            ),
        ];
        for (extra, code, field) in cases {
            assert_eq!(
                refused(body(extra.clone())),
                (code.to_owned(), field.to_owned()),
                "{extra}"
            );
        }
    }

    #[test]
    fn the_journeys_take_what_they_need() {
        let m = validate(body(serde_json::json!({
            "journey": "QR_WITH_FIRST_PAYMENT", "firstPayment": {"amount": 12.5}
        })))
        .unwrap();
        assert_eq!(m.first_payment.map(Money::centavos), Some(1250));
        let m = validate(body(serde_json::json!({
            "journey": "PUSH", "payerAccount": {"ispb": "12345678", "branch": "0001", "account": "99"}
        })))
        .unwrap();
        assert_eq!(m.payer_account.unwrap().branch, "0001");
    }

    #[test]
    fn the_fingerprint_ignores_spelling_and_tells_mandates_from_charges() {
        let a = validate(body(serde_json::json!({"amount": 99.90}))).unwrap();
        let b = validate(body(
            serde_json::json!({"payer": {"taxId": "52998224725", "name": "Ana Souza"}}),
        ))
        .unwrap();
        assert_eq!(a.fingerprint(), b.fingerprint());
        let c = validate(body(serde_json::json!({"frequency": "WEEKLY"}))).unwrap();
        assert_ne!(a.fingerprint(), c.fingerprint());
    }

    #[test]
    fn the_payer_schema_reads_tax_ids_as_the_charge_does() {
        let schema =
            serde_json::to_value(<MandatePayerBody as utoipa::PartialSchema>::schema()).unwrap();
        assert_eq!(
            schema["properties"]["taxId"]["pattern"],
            serde_json::json!(TAX_ID_PATTERN)
        );
    }

    fn terms(amount: MandateAmount) -> MandateTerms {
        MandateTerms {
            amount,
            frequency: Frequency::Monthly,
            start_date: Date::parse("2030-01-31").unwrap(),
            end_date: Date::parse("2030-12-31"),
            reference: "contract-1".into(),
            description: Some("Gym".into()),
        }
    }

    fn charge(body: Value) -> Result<CreateMandateChargeRequest, Invalid> {
        CreateMandateChargeRequest::from_body(body, Literals::default())
    }

    #[test]
    fn a_mandate_charge_takes_the_fixed_amount_and_the_cycle_of_its_due_date() {
        let fixed = terms(MandateAmount::Fixed(Money::from_centavos(9_990).unwrap()));
        let today = Date::parse("2030-02-20").unwrap();
        let c = charge(serde_json::json!({"dueDate": "2030-03-01"}))
            .unwrap()
            .validate(&fixed, today)
            .unwrap();
        assert_eq!(c.amount.centavos(), 9_990);
        assert_eq!(c.cycle, 2, "28 February is cycle 2's due date");
        assert_eq!(
            (c.reference.as_str(), c.description.as_deref()),
            ("contract-1", Some("Gym"))
        );
        assert!(!c.is_scheduled(today));
        assert_eq!(c.sends_on(today), today);
        let later = charge(
            serde_json::json!({"dueDate": "2030-06-30", "amount": 99.9, "reference": "jun"}),
        )
        .unwrap()
        .validate(&fixed, today)
        .unwrap();
        assert_eq!((later.cycle, later.reference.as_str()), (6, "jun"));
        assert!(later.is_scheduled(today));
        assert_eq!(later.sends_on(today).to_string(), "2030-06-20");
    }

    #[test]
    fn a_mandate_charge_breaking_a_rule_names_its_field() {
        let today = Date::parse("2030-02-20").unwrap();
        let fixed = terms(MandateAmount::Fixed(Money::from_centavos(9_990).unwrap()));
        let minimum = terms(MandateAmount::Minimum(Money::from_centavos(1_000).unwrap()));
        let open = terms(MandateAmount::Open);
        for (t, body, code, field) in [
            (
                &fixed,
                serde_json::json!({"dueDate": "2030-02-21"}),
                "invalid_due_date",
                "dueDate",
            ),
            (
                &fixed,
                serde_json::json!({"dueDate": "2031-01-31"}),
                "invalid_due_date",
                "dueDate",
            ),
            (
                &fixed,
                serde_json::json!({"dueDate": "2030-13-01"}),
                "invalid_due_date",
                "dueDate",
            ),
            (
                &fixed,
                serde_json::json!({"dueDate": "2030-03-01", "amount": 10}),
                "invalid_amount",
                "amount",
            ),
            (
                &minimum,
                serde_json::json!({"dueDate": "2030-03-01", "amount": 9.99}),
                "invalid_amount",
                "amount",
            ),
            (
                &minimum,
                serde_json::json!({"dueDate": "2030-03-01"}),
                "missing_field",
                "amount",
            ),
            (
                &open,
                serde_json::json!({"dueDate": "2030-03-01", "amount": 0}),
                "invalid_amount",
                "amount",
            ),
            (
                &open,
                serde_json::json!({"dueDate": "2030-03-01", "amount": 1, "reference": ""}),
                "invalid_reference",
                "reference",
            ),
        ] {
            let e = charge(body.clone())
                .and_then(|c| c.validate(t, today))
                .unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref()),
                (code, Some(field)),
                "{body}: {e:?}"
            );
        }
        let e = charge(serde_json::json!({"dueDate": "2030-03-01", "payer": {}})).unwrap_err();
        assert_eq!(e.code, "unknown_field", "{e:?}");
        let ok = charge(serde_json::json!({"dueDate": "2030-02-22", "amount": 10}))
            .unwrap()
            .validate(&minimum, today)
            .unwrap();
        assert_eq!((ok.amount.centavos(), ok.cycle), (1_000, 1));
    }
}
