//! The charge body as the API receives it (the serde types the OpenAPI documents are
//! generated from) and as the service uses it: [`ChargeRequest`], built only by validation,
//! whose fields are the domain's checked newtypes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::due::{
    AbatementBody, Address, Date, DiscountBody, DueDateFields, DueTerms, FineBody, InterestBody,
    ValidAddress,
};
use crate::json::{Invalid, bounded, from_json, require_objects};
use crate::money::MoneyError;
use crate::{ChargeKind, Email, Money, Phone, TaxId, TaxIdKind, sha256_hex, valid_code};

/// The payer. `taxId` is a CPF (11 digits) or CNPJ (14 characters: 12 of 0-9/A-Z, then two
/// check digits; letters in either case), with valid check digits; `.`, `-`, `/` and spaces
/// are accepted and ignored.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Payer {
    /// 1 to 200 characters, not all blank, no control characters.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$",
        example = "Ana Souza"
    )]
    pub name: String,
    #[schema(
        pattern = r"^[./ -]*(([0-9][./ -]*){11}|([0-9A-Za-z][./ -]*){12}([0-9][./ -]*){2})$",
        example = "529.982.247-25"
    )]
    pub tax_id: String,
    /// An address with a dotted domain (`ana@example.com`); `null` is the same as absent.
    #[schema(format = Email, max_length = 254, example = "ana@example.com")]
    pub email: Option<String>,
    /// 8 to 15 digits (E.164 without `+`), at most 32 characters: an optional leading `+`,
    /// spaces, `(`, `)`, `-` and `.` between the digits, and blanks around them, are ignored;
    /// `null` is the same as absent.
    #[schema(
        example = "+55 11 98765-4321",
        max_length = 32,
        pattern = r"^[\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*[+]?[ ().-]*([0-9][ ().-]*){8,15}[\u0009-\u000D\u0020\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*$"
    )]
    pub phone: Option<String>,
    /// The payer's address, for a due-date charge's `devedor` at the PSP (API Pix
    /// `logradouro`, `cidade`, `uf`, `cep`); every member optional. `null` is the same as
    /// absent.
    pub address: Option<Address>,
}

/// The shape of a CPF or CNPJ with optional punctuation (`.`, `-`, `/`, spaces), as
/// [`TaxId::parse`] reads it; the check digits are verified beyond this shape.
pub const TAX_ID_PATTERN: &str =
    r"^[./ -]*(([0-9][./ -]*){11}|([0-9A-Za-z][./ -]*){12}([0-9][./ -]*){2})$";

/// Free text of the charge: no control characters (C0, DEL or C1), as [`bounded`] checks.
pub const TEXT_PATTERN: &str = r"^[^\u0000-\u001F\u007F-\u009F]*$";
/// The only currency.
pub const CURRENCY_PATTERN: &str = "^BRL$";

/// The charge's `amount` as the body carries it: a JSON number of reais. A type of its own
/// so that another type is refused in the merchant's terms, not serde's (`expected f64`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reais(pub f64);

impl<'de> Deserialize<'de> for Reais {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;

        impl serde::de::Visitor<'_> for Visitor {
            type Value = Reais;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON number in reais with at most two decimals, such as 129.9")
            }

            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Reais, E> {
                Ok(Reais(v))
            }

            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Reais, E> {
                Ok(Reais(v as f64))
            }

            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Reais, E> {
                Ok(Reais(v as f64))
            }
        }

        deserializer.deserialize_f64(Visitor)
    }
}

impl Serialize for Reais {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.0)
    }
}

/// Writes a charge body type: the fields every charge has, after the `$extra` ones. The
/// merchant route's body has `store` in front; the admin evaluate route's has not, and a
/// macro keeps the two from drifting apart.
macro_rules! charge_body {
    ($(#[$meta:meta])* $name:ident { $($extra:tt)* }) => {
        #[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        $(#[$meta])*
        pub struct $name {
            $($extra)*
            /// Amount in BRL: at least 0.01, at most 100000000.00, at most two decimals.
            #[schema(value_type = f64, minimum = 0.01, maximum = 100000000.0, multiple_of = 0.01, example = 129.9)]
            pub amount: Reais,
            /// Only `BRL`, the default (also when `null`).
            #[schema(pattern = "^BRL$", example = "BRL")]
            pub currency: Option<String>,
            /// The merchant's reference: 1 to 160 characters, no control characters.
            #[schema(min_length = 1, max_length = 160, pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$", example = "order-10042")]
            pub reference: String,
            /// At most 200 characters, no control characters; `null` is the same as absent.
            #[schema(max_length = 200, pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$")]
            pub description: Option<String>,
            pub payer: Payer,
            /// Free-form JSON object of at most 16 KB (without whitespace between its tokens);
            /// kept and echoed (in the intent, in webhooks, to the policy components) as the
            /// exact text sent, whitespace between tokens aside: every number keeps its digits
            /// (`4.5291683372467266e+179`, `1.10`, `123456789012345678901234567890`) and every
            /// string its escapes. A number beyond any finite double (`1e400`) is refused with
            /// `invalid_metadata` naming the field. Never secrets. `null` is the same as absent.
            #[schema(value_type = Option<Object>)]
            pub metadata: Option<Map<String, Value>>,
            /// `metadata` as written in the body ([`Literals`]), set by `from_body`; without it
            /// (a body built as a value) `metadata` is printed from its parsed form.
            #[serde(skip)]
            #[doc(hidden)]
            pub metadata_as_sent: Option<String>,
            /// A due-date charge (DESIGN.md section 16, API Pix `cobv`): `YYYY-MM-DD`, not
            /// before today in Brasília; makes the charge `kind: DUE_DATE`, and the fields
            /// below need it. Payable until the end of that day at the original amount; a due
            /// date on a weekend or national holiday moves to the next business day, and so
            /// do validity, fine, interest and early-payment discounts.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(value_type = Option<String>, format = Date, pattern = "^(19[0-9]{2}|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", example = "2030-12-10")]
            pub due_date: Option<Value>,
            /// Calendar days after the (moved) due date the charge can still be paid, the last
            /// one moved to a business day: 0 to 3650, default 30.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(value_type = Option<i64>, minimum = 0, maximum = 3650, example = 30)]
            pub days_after_due: Option<Value>,
            /// Charged once on a payment after the (moved) due date.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(value_type = Option<FineBody>)]
            pub fine: Option<Value>,
            /// Simple interest per day late after the (moved) due date.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(value_type = Option<InterestBody>)]
            pub interest: Option<Value>,
            /// A deduction granted on any payment date.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(value_type = Option<AbatementBody>)]
            pub abatement: Option<Value>,
            /// A discount for paying by set dates or early.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schema(value_type = Option<DiscountBody>)]
            pub discount: Option<Value>,
        }
    };
}

charge_body!(
    /// Body of `POST /payments/charge`.
    #[schema(example = json!({
        "store": "demo-store", "amount": 129.9, "currency": "BRL", "reference": "order-10042",
        "description": "Order 10042",
        "payer": {"name": "Ana Souza", "taxId": "529.982.247-25", "email": "ana@example.com"},
        "metadata": {"orderId": "10042", "attribution": {"utm_source": "newsletter"}}
    }))]
    CreatePaymentRequest {
        /// Store code; the key must be granted this store.
        #[schema(min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9._-]{1,64}$", example = "demo-store")]
        pub store: String,
    }
);

charge_body!(
    /// A charge as the merchant would send it, without `store` (the admin evaluate route).
    ChargeBody {}
);

impl CreatePaymentRequest {
    /// The store code and the rest of the charge.
    pub fn split(self) -> (String, ChargeBody) {
        let Self {
            store,
            amount,
            currency,
            reference,
            description,
            payer,
            metadata,
            metadata_as_sent,
            due_date,
            days_after_due,
            fine,
            interest,
            abatement,
            discount,
        } = self;
        (
            store,
            ChargeBody {
                amount,
                currency,
                reference,
                description,
                payer,
                metadata,
                metadata_as_sent,
                due_date,
                days_after_due,
                fine,
                interest,
                abatement,
                discount,
            },
        )
    }
}

/// What [`check_literals`] keeps of a body as written, for the parsed body to use: parsing
/// reads numbers into doubles, which would respell `metadata`'s.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Literals {
    /// The `metadata` member as written (the last one, as the parsed body keeps), without
    /// the whitespace between its tokens; `None` when absent or `null`.
    pub metadata: Option<String>,
}

/// Judges the numbers of a charge or refund body as written (the top level's, or `charge`'s
/// when `nested`), before the body is parsed into values, which would round them, and keeps
/// `metadata` as written:
///
/// - `amount` by its literal: one with more than two decimals is refused even when its
///   nearest double has two (`129.899999999999999`), and one beyond any double (`1e400`)
///   is `invalid_amount`, not a body that fails to parse. Another type is left to
///   [`ChargeBody::validate`].
/// - `metadata` is kept and echoed as the exact text sent (DESIGN.md section 5), so no number
///   in it is refused for its digits; one beyond any finite double (`1e400`, which no client
///   could read back) is `invalid_metadata` naming it: see [`check_metadata_numbers`].
///
/// A body that is not a JSON object is left to the parser's own error.
pub fn check_literals(body: &[u8], nested: bool) -> Result<Literals, Invalid> {
    use serde_json::value::RawValue;
    // A map keeps the last of repeated keys, as the parsed body does: the literals judged are
    // the ones that are kept.
    fn fields(bytes: &[u8]) -> Option<BTreeMap<String, &RawValue>> {
        serde_json::from_slice(bytes).ok()
    }
    let mut object = fields(body);
    if nested {
        object = object
            .and_then(|o| o.get("charge").copied())
            .and_then(|charge| fields(charge.get().as_bytes()));
    }
    let Some(object) = object else {
        return Ok(Literals::default());
    };
    let prefix = if nested { "charge." } else { "" };
    if let Some(literal) = object.get("amount").map(|l| l.get())
        && literal.starts_with(|c: char| c == '-' || c.is_ascii_digit())
    {
        Money::from_brl_literal(literal).map_err(|e| {
            Invalid::new("invalid_amount", &format!("{prefix}amount"), amount_rule(e))
        })?;
    }
    let mut literals = Literals::default();
    if let Some(metadata) = object.get("metadata") {
        check_metadata_numbers(metadata, &format!("{prefix}metadata"))?;
        if metadata.get() != "null" {
            literals.metadata = Some(without_whitespace(metadata.get()));
        }
    }
    Ok(literals)
}

/// JSON text without the whitespace between its tokens: every token (a number's digits, a
/// string's escapes) as written. `text` is valid JSON (the body parsed).
pub fn without_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// What an amount breaks, as the merchant is told.
pub(crate) fn amount_rule(e: MoneyError) -> &'static str {
    match e {
        MoneyError::NotFinite => "`amount` is not a usable number",
        MoneyError::TooManyDecimals => "`amount` must have at most two decimals",
        MoneyError::BelowMinimum => "`amount` must be at least 0.01",
        MoneyError::AboveMaximum => "`amount` must be at most 100000000.00",
    }
}

/// An object's members in the order written, repeated keys and all: every number of the text
/// is judged, also one a later repeated key hides from the parsed value (the text keeps it).
struct Members<'a>(Vec<(String, &'a serde_json::value::RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<'a>(std::marker::PhantomData<&'a ()>);

        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visitor<'a> {
            type Value = Members<'a>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Members<'a>, M::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }

        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

/// Walks a metadata value as written and judges each number in it.
fn check_metadata_numbers(value: &serde_json::value::RawValue, path: &str) -> Result<(), Invalid> {
    use serde_json::value::RawValue;
    let text = value.get();
    match text.as_bytes().first() {
        Some(b'{') => {
            // Parsed once already as part of the body, so this cannot fail; the depth is the
            // parser's bound (128).
            let members =
                serde_json::from_str::<Members>(text).map_or_else(|_| Vec::new(), |m| m.0);
            for (key, member) in members {
                check_metadata_numbers(member, &format!("{path}.{key}"))?;
            }
        }
        Some(b'[') => {
            let items: Vec<&RawValue> = serde_json::from_str(text).unwrap_or_default();
            for (i, item) in items.into_iter().enumerate() {
                check_metadata_numbers(item, &format!("{path}[{i}]"))?;
            }
        }
        Some(b'-' | b'0'..=b'9') => check_metadata_number(text, path)?,
        _ => {}
    }
    Ok(())
}

/// A number of metadata is kept with the digits it was written with, whatever their count
/// (a .NET client writes 17 significant digits, `4.5291683372467261e+179` for the double
/// whose shortest form is `4.529168337246726e+179`; an identifier past 2^53 keeps every
/// digit). Only a number
/// beyond any finite double (`1e400`, `-1e400`) is refused: no client could read it back.
/// A number too small for a double (`1e-400`) reads back as zero and is kept as written.
fn check_metadata_number(literal: &str, path: &str) -> Result<(), Invalid> {
    // Rust's parse is correctly rounded and reads any count of digits.
    match literal.parse::<f64>() {
        Ok(n) if n.is_finite() => Ok(()),
        _ => Err(Invalid::new(
            "invalid_metadata",
            path,
            format!(
                "`{path}` is {literal}, beyond the range of a 64-bit floating-point number; \
                 send it as a string"
            ),
        )),
    }
}

/// The canonical form of a metadata text, for the idempotency fingerprint: the same request
/// compared as parsed JSON (DESIGN.md section 6), so key order, whitespace and a string's
/// escapes do not count, and the last of repeated keys is the one kept, as a parser keeps.
/// Numbers, read from their digits (never through serde_json's best-effort float parsing):
///
/// - an integer literal is its exact integer (`9007199254740993` is not `9007199254740992`:
///   the merchant's identifiers are compared as written, whatever their size; `-0` is `0`);
/// - another literal is the double it names, read correctly rounded:
///   `4.5291683372467261e+179` and `4.529168337246726e+179` are one number (but not
///   `4.5291683372467266e+179`, the next double up, which serde_json's best-effort parsing
///   confuses with them), `1.0`, `1e0` and `1` are one, `1.10` and `1.1`
///   are one (an integral double below 2^53 prints as an integer, beyond it as serde_json
///   spells a double, `1e+16`, as [`canonical_json`] does).
///
/// For metadata the earlier rule accepted (numbers written as serde_json prints them) this is
/// [`canonical_json`] of the parsed value, so fingerprints stored before stay valid.
pub fn canonical_metadata(text: &str) -> String {
    use serde_json::value::RawValue;
    fn write(raw: &RawValue, out: &mut String) {
        let text = raw.get();
        match text.as_bytes().first() {
            Some(b'{') => {
                let members: BTreeMap<String, &RawValue> =
                    serde_json::from_str(text).unwrap_or_default();
                out.push('{');
                for (i, (key, member)) in members.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(key).to_string());
                    out.push(':');
                    write(member, out);
                }
                out.push('}');
            }
            Some(b'[') => {
                let items: Vec<&RawValue> = serde_json::from_str(text).unwrap_or_default();
                out.push('[');
                for (i, item) in items.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            Some(b'"') => {
                let s: String = serde_json::from_str(text).unwrap_or_default();
                out.push_str(&Value::String(s).to_string());
            }
            Some(b'-' | b'0'..=b'9') => out.push_str(&canonical_number(text)),
            _ => out.push_str(text),
        }
    }
    match serde_json::from_str::<&RawValue>(text) {
        Ok(raw) => {
            let mut out = String::with_capacity(text.len());
            write(raw, &mut out);
            out
        }
        Err(_) => "null".to_owned(),
    }
}

/// A number literal's canonical form (see [`canonical_metadata`]).
fn canonical_number(literal: &str) -> String {
    let integer = !literal.contains(['.', 'e', 'E']);
    if integer {
        let digits = literal.strip_prefix('-').unwrap_or(literal);
        return if digits == "0" {
            "0".to_owned()
        } else {
            literal.to_owned()
        };
    }
    let Ok(n) = literal.parse::<f64>() else {
        return literal.to_owned();
    };
    // As [`canonical_json`] prints a double: integral below 2^53 as an integer (`-0` as `0`),
    // else serde_json's spelling, the shortest that reads back the same.
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        return (n as i64).to_string();
    }
    serde_json::Number::from_f64(n).map_or_else(|| literal.to_owned(), |n| n.to_string())
}

/// The codes of type errors in a charge body, per field.
pub const CHARGE_FIELD_CODES: &[(&str, &str)] = &[
    ("amount", "invalid_amount"),
    ("payer", "invalid_payer"),
    ("metadata", "invalid_metadata"),
    ("charge.amount", "invalid_amount"),
    ("charge.payer", "invalid_payer"),
    ("charge.metadata", "invalid_metadata"),
    // As `due::ADDRESS_FIELD_CODES` (a test holds the two together).
    ("payer.address", "invalid_address"),
    ("payer.address.street", "invalid_address"),
    ("payer.address.city", "invalid_address"),
    ("payer.address.state", "invalid_address"),
    ("payer.address.postalCode", "invalid_address"),
    ("charge.payer.address", "invalid_address"),
    ("charge.payer.address.street", "invalid_address"),
    ("charge.payer.address.city", "invalid_address"),
    ("charge.payer.address.state", "invalid_address"),
    ("charge.payer.address.postalCode", "invalid_address"),
];

impl CreatePaymentRequest {
    /// The body as parsed; `metadata` will be printed from its parsed form. A route has the
    /// bytes: [`CreatePaymentRequest::from_body`].
    pub fn from_json(value: Value) -> Result<Self, Invalid> {
        require_objects(&value, &["payer"], CHARGE_FIELD_CODES)?;
        from_json(value, CHARGE_FIELD_CODES)
    }

    /// The body as parsed, with what [`check_literals`] kept of it as written.
    pub fn from_body(value: Value, literals: Literals) -> Result<Self, Invalid> {
        let mut request = Self::from_json(value)?;
        request.metadata_as_sent = literals.metadata;
        Ok(request)
    }
}

impl ChargeBody {
    /// Keeps `metadata` as written (the evaluate route's `charge`).
    pub fn with_literals(mut self, literals: Literals) -> Self {
        self.metadata_as_sent = literals.metadata;
        self
    }
}

/// The metadata text kept: as written when the body's literals are known, else printed from
/// its parsed form; `{}` when absent. At most 16 KB.
pub(crate) fn metadata_text(
    parsed: Option<&Map<String, Value>>,
    as_sent: Option<String>,
    field: &str,
) -> Result<String, Invalid> {
    let Some(parsed) = parsed else {
        return Ok("{}".to_owned());
    };
    let text =
        as_sent.unwrap_or_else(|| serde_json::to_string(parsed).unwrap_or_else(|_| "{}".into()));
    if text.len() > METADATA_MAX_BYTES {
        return Err(Invalid::new(
            "metadata_too_large",
            field,
            format!(
                "`{field}` is {} bytes as JSON without whitespace; the limit is 16 KB",
                text.len()
            ),
        ));
    }
    Ok(text)
}

/// The payer after validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidPayer {
    pub name: String,
    pub tax_id: TaxId,
    pub email: Option<Email>,
    pub phone: Option<Phone>,
    pub address: Option<ValidAddress>,
}

impl ValidPayer {
    /// What is sealed at rest: the payer as JSON, with normalised values (`address` only
    /// when given, so a payer without one seals and fingerprints as before it existed).
    pub fn to_json(&self) -> Value {
        let mut payer = serde_json::json!({
            "name": self.name,
            "taxId": self.tax_id.as_str(),
            "email": self.email.as_ref().map(Email::as_str),
            "phone": self.phone.as_ref().map(Phone::as_str),
        });
        if let Some(address) = &self.address {
            payer["address"] = address.to_json();
        }
        payer
    }

    pub fn kind(&self) -> TaxIdKind {
        self.tax_id.kind()
    }
}

/// A charge after validation: every field known good.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeRequest {
    pub store: String,
    pub amount: Money,
    pub reference: String,
    pub description: Option<String>,
    pub payer: ValidPayer,
    /// The metadata object as the merchant wrote it, without whitespace between tokens
    /// (`{}` when absent), at most 16 KB: what is stored, echoed and given to components.
    pub metadata: String,
    /// A due-date charge's terms; `None` for an immediate charge.
    pub due: Option<DueTerms>,
    /// A recurring charge's mandate and cycle (Pix Automático); `None` for the other kinds.
    pub recurring: Option<crate::recurring::RecurringTerms>,
    /// The only gateway this charge may go to (a mandate's charges, and the first payment a
    /// `QR_WITH_FIRST_PAYMENT` mandate is authorised with, go to the gateway whose PSP holds the
    /// recurrence). Set by pixgate, never by the merchant's body; not part of the fingerprint.
    pub pinned_gateway: Option<String>,
}

pub const METADATA_MAX_BYTES: usize = 16 * 1024;

impl ChargeBody {
    /// Checks every rule of the contract; `prefix` is put before field names in errors
    /// (`charge.` for the evaluate route). `today` is the date in Brasília, which a due date
    /// may not be before.
    pub fn validate(
        self,
        store: String,
        prefix: &str,
        today: Date,
    ) -> Result<ChargeRequest, Invalid> {
        let f = |name: &str| format!("{prefix}{name}");
        if !valid_code(&store) {
            return Err(Invalid::new(
                "invalid_store",
                "store",
                "`store` is not a store code",
            ));
        }
        let amount = Money::from_brl(self.amount.0)
            .map_err(|e| Invalid::new("invalid_amount", &f("amount"), amount_rule(e)))?;
        if let Some(currency) = &self.currency
            && currency != "BRL"
        {
            return Err(Invalid::new(
                "unsupported_currency",
                &f("currency"),
                "only BRL is supported",
            ));
        }
        let reference = bounded(
            &self.reference,
            &f("reference"),
            "invalid_reference",
            1,
            160,
        )?;
        let description = self
            .description
            .as_deref()
            .map(|d| bounded(d, &f("description"), "invalid_description", 0, 200))
            .transpose()?;
        let payer = &self.payer;
        let name = bounded(&payer.name, &f("payer.name"), "invalid_payer_name", 1, 200)?;
        if name
            .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
            .is_empty()
        {
            return Err(Invalid::new(
                "invalid_payer_name",
                &f("payer.name"),
                format!("`{}` must not be blank", f("payer.name")),
            ));
        }
        let tax_id = TaxId::parse(&payer.tax_id).ok_or_else(|| {
            Invalid::new(
                "invalid_tax_id",
                &f("payer.taxId"),
                format!("`{}` is not a valid CPF or CNPJ", f("payer.taxId")),
            )
        })?;
        let email = payer
            .email
            .as_deref()
            .map(|e| {
                Email::parse(e).ok_or_else(|| {
                    Invalid::new(
                        "invalid_email",
                        &f("payer.email"),
                        format!("`{}` is not an email address", f("payer.email")),
                    )
                })
            })
            .transpose()?;
        let phone = payer
            .phone
            .as_deref()
            .map(|p| {
                Phone::parse(p).ok_or_else(|| {
                    Invalid::new(
                        "invalid_phone",
                        &f("payer.phone"),
                        format!("`{}` is not a phone number", f("payer.phone")),
                    )
                })
            })
            .transpose()?;
        let address = payer
            .address
            .as_ref()
            .map(|a| a.validate(&f("payer.address")))
            .transpose()?;
        let metadata = metadata_text(
            self.metadata.as_ref(),
            self.metadata_as_sent,
            &f("metadata"),
        )?;
        let due_fields = DueDateFields {
            due_date: self.due_date,
            days_after_due: self.days_after_due,
            fine: self.fine,
            interest: self.interest,
            abatement: self.abatement,
            discount: self.discount,
        };
        let due = DueTerms::from_body_at(&due_fields, amount, today, prefix)?;
        Ok(ChargeRequest {
            store,
            amount,
            reference,
            description,
            payer: ValidPayer {
                name,
                tax_id,
                email,
                phone,
                address,
            },
            metadata,
            due,
            recurring: None,
            pinned_gateway: None,
        })
    }
}

impl ChargeRequest {
    /// The kind of PIX charge this request makes (DESIGN.md section 15).
    pub fn kind(&self) -> ChargeKind {
        if self.recurring.is_some() {
            ChargeKind::Recurring
        } else if self.due.is_some() {
            ChargeKind::DueDate
        } else {
            ChargeKind::Immediate
        }
    }

    /// The request's idempotency fingerprint: sha256 of its validated, normalised form, so
    /// requests that mean the same charge are equal (`currency` omitted or `"BRL"`, `null`
    /// or absent, a tax id with or without punctuation, key order, `100` or `100.0`).
    pub fn fingerprint(&self) -> String {
        let mut normalised = serde_json::json!({
            "v": 2,
            "store": self.store,
            "amountCentavos": self.amount.centavos(),
            "currency": "BRL",
            "reference": self.reference,
            "description": self.description,
            "payer": self.payer.to_json(),
            "metadata": canonical_metadata(&self.metadata),
        });
        // Only when present: an immediate charge's fingerprint is the one it always had.
        if let Some(due) = &self.due {
            normalised["due"] = due.to_json();
        }
        // A recurring charge is the mandate's and its due date's (the cycle follows from it).
        if let Some(recurring) = &self.recurring {
            normalised["recurring"] = serde_json::json!({
                "mandateId": recurring.mandate_id,
                "dueDate": recurring.due_date.to_string(),
            });
        }
        sha256_hex(canonical_json(&normalised))
    }
}

/// JSON with object keys sorted and no insignificant whitespace; integral floats print as
/// integers, so `100`, `100.0` and `1e2` are one number.
pub fn canonical_json(value: &Value) -> String {
    fn write(v: &Value, out: &mut String) {
        match v {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String((*k).clone()).to_string());
                    out.push(':');
                    write(&map[*k], out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            Value::Number(n) => match n.as_f64() {
                Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
                    out.push_str(&(f as i64).to_string())
                }
                _ => out.push_str(&n.to_string()),
            },
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(value, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The date the tests' due dates are judged against.
    const TODAY: Date = match Date::from_ymd(2026, 11, 27) {
        Some(d) => d,
        None => panic!(),
    };

    #[test]
    fn the_address_codes_are_the_due_modules() {
        for entry in crate::due::ADDRESS_FIELD_CODES {
            assert!(CHARGE_FIELD_CODES.contains(entry), "{entry:?}");
        }
    }
    use serde_json::json;

    fn body() -> Value {
        json!({
            "store": "demo-store", "amount": 129.9, "reference": "order-1",
            "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
        })
    }

    fn valid(v: Value) -> ChargeRequest {
        let (store, charge) = CreatePaymentRequest::from_json(v).unwrap().split();
        charge.validate(store, "", TODAY).unwrap()
    }

    fn invalid(v: Value) -> Invalid {
        match CreatePaymentRequest::from_json(v) {
            Err(e) => e,
            Ok(r) => {
                let (store, charge) = r.split();
                charge.validate(store, "", TODAY).unwrap_err()
            }
        }
    }

    #[test]
    fn equivalent_bodies_have_one_fingerprint() {
        let base = valid(body()).fingerprint();
        let mut same = body();
        same["currency"] = json!("BRL");
        same["description"] = Value::Null;
        same["metadata"] = Value::Null;
        same["payer"]["taxId"] = json!("52998224725");
        same["payer"]["email"] = Value::Null;
        assert_eq!(valid(same).fingerprint(), base);
        let mut hundred = body();
        hundred["amount"] = json!(100);
        let mut hundred_f = body();
        hundred_f["amount"] = json!(100.0);
        assert_eq!(valid(hundred).fingerprint(), valid(hundred_f).fingerprint());

        let mut other = body();
        other["amount"] = json!(129.91);
        assert_ne!(valid(other).fingerprint(), base);
        let mut other = body();
        other["metadata"] = json!({"a": 1});
        assert_ne!(valid(other).fingerprint(), base);
    }

    #[test]
    fn metadata_key_order_does_not_change_the_fingerprint() {
        let mut a = body();
        a["metadata"] = serde_json::from_str(r#"{"b": 1, "a": {"y": [1, 2], "x": "s"}}"#).unwrap();
        let mut b = body();
        b["metadata"] = serde_json::from_str(r#"{"a":{"x":"s","y":[1,2]},"b":1.0}"#).unwrap();
        assert_eq!(valid(a).fingerprint(), valid(b).fingerprint());
    }

    #[test]
    fn errors_name_the_field_and_a_stable_code() {
        let cases = [
            (json!({"amount": 1}), "missing_field", "store"),
            (
                {
                    let mut b = body();
                    b["amont"] = json!(1);
                    b
                },
                "unknown_field",
                "amont",
            ),
            (
                {
                    let mut b = body();
                    b["payer"]["cpf"] = json!(1);
                    b
                },
                "unknown_field",
                "payer.cpf",
            ),
            (
                {
                    let mut b = body();
                    b["amount"] = json!("12");
                    b
                },
                "invalid_amount",
                "amount",
            ),
            (
                {
                    let mut b = body();
                    b["amount"] = Value::Null;
                    b
                },
                "missing_field",
                "amount",
            ),
            (
                {
                    let mut b = body();
                    b["metadata"] = json!([1]);
                    b
                },
                "invalid_metadata",
                "metadata",
            ),
            (
                {
                    let mut b = body();
                    b["reference"] = json!(5);
                    b
                },
                "invalid_field",
                "reference",
            ),
            (
                {
                    let mut b = body();
                    b["payer"]["taxId"] = json!("111.111.111-11");
                    b
                },
                "invalid_tax_id",
                "payer.taxId",
            ),
            (
                {
                    let mut b = body();
                    b["amount"] = json!(1.001);
                    b
                },
                "invalid_amount",
                "amount",
            ),
        ];
        for (v, code, field) in cases {
            let e = invalid(v.clone());
            assert_eq!((e.code, e.field.as_deref()), (code, Some(field)), "{v}");
        }
        assert_eq!(invalid(json!([1])).code, "invalid_request");
        // serde would read a struct from an array; the API does not.
        let mut as_array = body();
        as_array["payer"] = json!(["Ana Souza", "529.982.247-25"]);
        let e = invalid(as_array);
        assert_eq!(
            (e.code, e.field.as_deref()),
            ("invalid_payer", Some("payer"))
        );
        let e = invalid(json!(["demo-store", 1.0, null, "r", null, {"name": "a", "taxId": "1"}]));
        assert_eq!(e.code, "invalid_request");
    }

    /// A charge body with `metadata` as written.
    fn with_metadata(metadata: &str) -> String {
        format!(
            r#"{{"store": "s", "amount": 1, "reference": "r",
                "payer": {{"name": "Ana", "taxId": "52998224725"}}, "metadata": {metadata}}}"#
        )
    }

    /// The charge route's path from the bytes to the validated charge.
    fn from_bytes(body: &str) -> Result<ChargeRequest, Invalid> {
        let literals = check_literals(body.as_bytes(), false)?;
        let value: Value = serde_json::from_str(body).unwrap();
        let (store, charge) = CreatePaymentRequest::from_body(value, literals)?.split();
        charge.validate(store, "", TODAY)
    }

    /// Issue 30: metadata is kept as the exact text sent, whitespace between tokens aside:
    /// no number is refused or respelled for its digits (a Java or .NET client writes 17
    /// significant digits; an identifier past 2^53 keeps every digit), no string loses its
    /// escapes.
    #[test]
    fn metadata_is_kept_as_the_text_sent() {
        let sent = r#"{ "x": 4.5291683372467266e+179, "id": 123456789012345678901234567890,
            "past53": 9007199254740993, "f": 1.10, "e": 1.5E3, "z": -0, "tiny": 1e-400,
            "big": 1e16, "s": "caf\u00e9 \"q\" \n", "deep": [ {"a": [1 , 2.250]} ],
            "t": true, "null": null, "b": 1, "a": 2 }"#;
        let kept = from_bytes(&with_metadata(sent)).unwrap().metadata;
        assert_eq!(
            kept,
            r#"{"x":4.5291683372467266e+179,"id":123456789012345678901234567890,"past53":9007199254740993,"f":1.10,"e":1.5E3,"z":-0,"tiny":1e-400,"big":1e16,"s":"caf\u00e9 \"q\" \n","deep":[{"a":[1,2.250]}],"t":true,"null":null,"b":1,"a":2}"#
        );
        // Absent and null are `{}`; the evaluate route keeps `charge.metadata` the same way.
        let absent = r#"{"store": "s", "amount": 1, "reference": "r",
            "payer": {"name": "Ana", "taxId": "52998224725"}}"#;
        assert_eq!(from_bytes(absent).unwrap().metadata, "{}");
        assert_eq!(from_bytes(&with_metadata("null")).unwrap().metadata, "{}");
        let nested = format!(
            r#"{{"store": "s", "charge": {}}}"#,
            with_metadata(r#"{"x": 4.5291683372467266e+179}"#).replace(r#""store": "s", "#, "")
        );
        let literals = check_literals(nested.as_bytes(), true).unwrap();
        let request = crate::evaluate::EvaluateRequest::from_body(
            serde_json::from_str(&nested).unwrap(),
            literals,
        )
        .unwrap();
        assert_eq!(
            request
                .charge
                .validate(request.store, "charge.", TODAY)
                .unwrap()
                .metadata,
            r#"{"x":4.5291683372467266e+179}"#
        );
        // 16 KB is measured on the text kept.
        let long = format!(r#"{{"k": "{}"}}"#, "a".repeat(METADATA_MAX_BYTES));
        let e = from_bytes(&with_metadata(&long)).unwrap_err();
        assert_eq!(e.code, "metadata_too_large");
        let spaced = format!("{{\"k\": {}\"{}\"}}", " ".repeat(METADATA_MAX_BYTES), "a");
        assert_eq!(
            from_bytes(&with_metadata(&spaced)).unwrap().metadata,
            r#"{"k":"a"}"#
        );
    }

    /// Issue 30: only a number beyond any finite double is refused, naming the field, wherever
    /// it is in the text (also under a key a later repeat hides from the parsed value: the
    /// text keeps it).
    #[test]
    fn only_a_number_beyond_any_double_is_refused_in_metadata() {
        for (metadata, field) in [
            (r#"{"x": 1e400}"#, "metadata.x"),
            (r#"{"x": -1e400}"#, "metadata.x"),
            (r#"{"a": {"b": [0, 1.5e309]}}"#, "metadata.a.b[1]"),
            (r#"{"x": 1e400, "x": 1}"#, "metadata.x"),
            (r#"{"x": 1, "x": 1e400}"#, "metadata.x"),
        ] {
            let e = check_literals(with_metadata(metadata).as_bytes(), false).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref()),
                ("invalid_metadata", Some(field)),
                "{metadata}"
            );
            assert!(
                e.message.contains("beyond the range"),
                "{metadata}: {}",
                e.message
            );
        }
        // The evaluate route's body: `charge.metadata`.
        let nested = format!(
            r#"{{"store": "s", "charge": {}}}"#,
            with_metadata(r#"{"x": 1e400}"#)
        );
        let e = check_literals(nested.as_bytes(), true).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("charge.metadata.x"));
        // What is not an object is the parser's to refuse.
        check_literals(b"[1e400]", false).unwrap();
        check_literals(b"{\"metadata\": ", false).unwrap();
    }

    /// Issue 30: the same key with the same request compared as parsed JSON replays, so the
    /// fingerprint reads metadata's numbers as the doubles (or exact integers) they name, not
    /// as spelled; and keeps it as before for metadata the earlier rule accepted.
    #[test]
    fn the_fingerprint_compares_metadata_as_parsed_json() {
        let fingerprint =
            |metadata: &str| from_bytes(&with_metadata(metadata)).unwrap().fingerprint();
        for (a, b) in [
            // A .NET client's 17 digits of a double and its shortest spelling.
            (
                r#"{"x": 4.5291683372467261e+179}"#,
                r#"{"x":4.529168337246726e+179}"#,
            ),
            (r#"{"x": 0.10000000000000001}"#, r#"{"x": 0.1}"#),
            (
                r#"{"x": 45.291683372467266e+178}"#,
                r#"{"x": 4.5291683372467266e+179}"#,
            ),
            (r#"{"x": 1.0}"#, r#"{"x": 1}"#),
            (r#"{"x": 1e0, "y": -0}"#, r#"{"x": 1, "y": 0.0}"#),
            (r#"{"x": 1.10}"#, r#"{"x": 1.1}"#),
            (r#"{"x": 1e16}"#, r#"{"x": 1e+16}"#),
            (
                r#"{"b": [1, {"d": 2}], "a": "é"}"#,
                r#"{"a":"\u00e9","b":[1,{"d":2.0}]}"#,
            ),
            (r#"{"x": 0, "x": 2}"#, r#"{"x": 2}"#),
        ] {
            assert_eq!(fingerprint(a), fingerprint(b), "{a} and {b}");
        }
        for (a, b) in [
            // Two doubles, one ulp apart: serde_json's best-effort float parsing reads the
            // first as the second, so pixgate once echoed it so (issue 30).
            (
                r#"{"x": 4.5291683372467266e+179}"#,
                r#"{"x": 4.529168337246726e+179}"#,
            ),
            (r#"{"id": 9007199254740993}"#, r#"{"id": 9007199254740992}"#),
            (
                r#"{"id": 123456789012345678901234567890}"#,
                r#"{"id": 123456789012345678901234567891}"#,
            ),
            (r#"{"x": 0.1}"#, r#"{"x": 0.10000000000000002}"#),
            (r#"{"x": "1"}"#, r#"{"x": 1}"#),
        ] {
            assert_ne!(fingerprint(a), fingerprint(b), "{a} and {b}");
        }
        // Metadata the earlier rule accepted (numbers as serde_json prints them): the same
        // canonical text as before, so records stored before the upgrade still replay.
        let earlier = r#"{"n": 42, "neg": -7, "half": 0.5, "f": 1500.0, "tiny": 1e-7,
            "big": 1e+16, "u": 18446744073709551615, "i": -9223372036854775808, "z": 0,
            "s": "1e400", "deep": [{"a": [1, 2.25]}], "t": true, "null": null}"#;
        let parsed: Value = serde_json::from_str(earlier).unwrap();
        assert_eq!(canonical_metadata(earlier), canonical_json(&parsed));
    }

    /// Issue 17: an amount no double holds is `invalid_amount`, not `invalid_json`, and a
    /// string amount is refused in the merchant's terms.
    #[test]
    fn amounts_are_judged_as_written_and_refused_in_plain_words() {
        let with_amount = |amount: &str| {
            format!(
                r#"{{"store": "s", "amount": {amount}, "reference": "r",
                    "payer": {{"name": "Ana", "taxId": "52998224725"}}}}"#
            )
        };
        for (amount, says) in [
            ("1e400", "at most 100000000.00"),
            ("129.899999999999999", "at most two decimals"),
            ("-1", "at least 0.01"),
            ("0", "at least 0.01"),
        ] {
            let e = check_literals(with_amount(amount).as_bytes(), false).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref()),
                ("invalid_amount", Some("amount"))
            );
            assert!(e.message.contains(says), "{amount}: {}", e.message);
        }
        check_literals(with_amount("1.299e2").as_bytes(), false).unwrap();
        check_literals(with_amount("\"10\"").as_bytes(), false).unwrap();
        let mut b = body();
        b["amount"] = json!("10");
        let e = invalid(b);
        assert_eq!(
            (e.code, e.field.as_deref()),
            ("invalid_amount", Some("amount"))
        );
        assert_eq!(
            e.message,
            "`amount` must be a JSON number in reais with at most two decimals, such as \
             129.9, not a string"
        );
    }

    #[test]
    fn the_documented_text_pattern_is_what_bounded_enforces() {
        let pattern = regex::Regex::new(TEXT_PATTERN).unwrap();
        for c in '\0'..='\u{2ff}' {
            let s = format!("a{c}b");
            assert_eq!(
                pattern.is_match(&s),
                bounded(&s, "f", "code", 0, 10).is_ok(),
                "{c:?}"
            );
        }
        let schema = serde_json::to_value(<ChargeBody as utoipa::PartialSchema>::schema()).unwrap();
        assert_eq!(schema["properties"]["reference"]["pattern"], TEXT_PATTERN);
        assert_eq!(schema["properties"]["description"]["pattern"], TEXT_PATTERN);
        assert_eq!(
            schema["properties"]["currency"]["pattern"],
            CURRENCY_PATTERN
        );
    }

    #[test]
    fn the_documented_tax_id_pattern_admits_every_id_the_parser_accepts() {
        let schema = serde_json::to_value(<Payer as utoipa::PartialSchema>::schema()).unwrap();
        assert_eq!(schema["properties"]["taxId"]["pattern"], TAX_ID_PATTERN);
        assert_eq!(schema["properties"]["name"]["pattern"], crate::NAME_PATTERN);
        let pattern = regex::Regex::new(TAX_ID_PATTERN).unwrap();
        for id in [
            "529.982.247-25",
            "52998224725",
            "111 444 777 35",
            "11.222.333/0001-81",
            "12.ABC.345/01DE-35",
            "12abc34501de35",
        ] {
            assert!(TaxId::parse(id).is_some(), "{id}");
            assert!(pattern.is_match(id), "{id}");
        }
        for shape in ["5299822472", "52998224a25", "12ABC34501DEAB", "", "x"] {
            assert!(!pattern.is_match(shape), "{shape}");
            assert!(TaxId::parse(shape).is_none(), "{shape}");
        }
    }
}
