//! A batch of due-date charges (DESIGN.md section 16): the body of
//! `POST /payments/charge-batches` as the OpenAPI document shows it, the batch read as the
//! route takes it (the store and each item's JSON text as sent), each item read on its own
//! ([`parse_item`]: a bad item is refused alone, with the code a single charge gets for it),
//! and the states of a batch and of its items.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, Schema};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::charge::{
    CHARGE_FIELD_CODES, ChargeBody, ChargeRequest, canonical_json, canonical_metadata,
    check_literals,
};
use crate::due::{Date, check_due_literals};
use crate::json::{Invalid, bounded, from_json, require_objects};
use crate::text_enum;

/// The most charges a batch holds.
pub const MAX_ITEMS: usize = 1_000;

text_enum!(
    /// A batch's status: `PROCESSING` while any item is, then `DONE` (terminal).
    BatchStatus {
        Processing = "PROCESSING",
        Done = "DONE",
    }
);

text_enum!(
    /// An item's status: `PROCESSING`, then `CREATED` (its PaymentIntent exists) or
    /// `REJECTED` (with the error a single charge would have got); both terminal.
    BatchItemStatus {
        Processing = "PROCESSING",
        Created = "CREATED",
        Rejected = "REJECTED",
    }
);

/// Body of `POST /payments/charge-batches`: a store and 1 to 1,000 due-date charges, each a
/// charge body without `store` and with `dueDate`. An item that breaks a rule of a charge does
/// not fail the batch: it is `REJECTED` with the code a single charge gets for it.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(example = json!({
    "store": "demo-store",
    "charges": [{
        "amount": 450.0, "reference": "rent-2027-03-apt-101", "dueDate": "2027-03-10",
        "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
        "fine": {"type": "PERCENT", "value": 2}
    }]
}))]
pub struct CreateChargeBatchRequest {
    /// Store code; the key must be granted this store.
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = "^[A-Za-z0-9._-]{1,64}$",
        example = "demo-store"
    )]
    pub store: String,
    /// The charges, in order: each item's `index` in the batch is its place here.
    #[schema(min_items = 1, max_items = 1000)]
    pub charges: Vec<BatchCharge>,
}

/// One charge of a batch: a charge body without `store`, with `dueDate` (a batch holds
/// due-date charges) and its own `reference`.
#[derive(Debug, Clone, Deserialize)]
#[serde(transparent)]
pub struct BatchCharge(pub Value);

impl PartialSchema for BatchCharge {
    fn schema() -> RefOr<Schema> {
        AllOfBuilder::new()
            .item(Ref::from_schema_name(ChargeBody::name()))
            .item(ObjectBuilder::new().required("dueDate"))
            .description(Some(
                "A due-date charge body without `store` (`dueDate` required). An item that \
                 breaks a rule of a charge is `REJECTED` alone, with the code a single charge \
                 gets for it; the other items go on.",
            ))
            .into()
    }
}

impl ToSchema for BatchCharge {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((ChargeBody::name().into_owned(), ChargeBody::schema()));
        <ChargeBody as ToSchema>::schemas(schemas);
    }
}

/// A batch as the route takes it: the store and each item's JSON text as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchRequest {
    pub store: String,
    /// Each charge's JSON text exactly as sent (its metadata is the merchant's text).
    pub items: Vec<String>,
}

impl BatchRequest {
    /// The batch from its body as sent: `store` and `charges` (an array of 1 to
    /// [`MAX_ITEMS`]) are checked here, with the refusals of any body (`invalid_json`,
    /// `missing_field`, `unknown_field`, a NUL in a string); each charge is kept as the text
    /// sent and judged on its own later ([`parse_item`]), so nothing in one (a number beyond
    /// any double, a NUL, a wrong type) refuses the batch.
    pub fn from_bytes(body: &[u8]) -> Result<Self, Invalid> {
        let invalid_json = |e: serde_json::Error| {
            Invalid::new(
                "invalid_json",
                "",
                format!("the body is not valid JSON: {e}"),
            )
        };
        // The members as written; a map keeps the last of repeated keys, as a parser does.
        let members = match serde_json::from_slice::<BTreeMap<String, &RawValue>>(body) {
            Ok(members) => members,
            // Not an object: the parser's error, or the refusal of any body that is not one.
            Err(_) => {
                let value: Value = serde_json::from_slice(body).map_err(invalid_json)?;
                return Err(from_json::<Envelope>(value, &[]).err().unwrap_or_else(|| {
                    Invalid::new("invalid_request", "", "the body must be a JSON object")
                }));
            }
        };
        let mut outer = serde_json::Map::new();
        let mut items = Vec::new();
        for (key, raw) in members {
            let text = raw.get();
            if key == "charges" && text.starts_with('[') {
                items = serde_json::from_str::<Vec<&RawValue>>(text)
                    .map_err(invalid_json)?
                    .into_iter()
                    .map(|i| i.get().to_owned())
                    .collect();
                // Each charge is the route's to judge: the envelope only counts them.
                outer.insert(key, Value::Array(vec![Value::Null; items.len()]));
            } else {
                outer.insert(key, serde_json::from_str(text).map_err(invalid_json)?);
            }
        }
        let outer = Value::Object(outer);
        if let Some(field) = nul_field(&outer, false) {
            return Err(Invalid::new(
                "invalid_field",
                &field,
                format!("`{field}` must not contain the NUL character (U+0000)"),
            ));
        }
        let envelope: Envelope = from_json(outer, &[])?;
        if !crate::valid_code(&envelope.store) {
            return Err(Invalid::new(
                "invalid_store",
                "store",
                "`store` is not a store code",
            ));
        }
        let count = envelope.charges.len();
        if count == 0 || count > MAX_ITEMS {
            return Err(Invalid::new(
                "invalid_batch_size",
                "charges",
                format!("`charges` must hold 1 to {MAX_ITEMS} charges; it holds {count}"),
            ));
        }
        Ok(Self {
            store: envelope.store,
            items,
        })
    }
}

/// A batch's body as [`BatchRequest::from_bytes`] checks it, each charge a placeholder.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope {
    store: String,
    charges: Vec<Value>,
}

/// One item of a batch, from its JSON text as sent, for `store`, judged on `today` (Brasília):
/// every rule of a single charge in the order the charge route checks them (the literals as
/// written, the body, the values), then `dueDate`, which a batch's charge must have. Field
/// names are the item's own (`payer.taxId`), as a single charge names them.
pub fn parse_item(raw: &str, store: &str, today: Date) -> Result<ChargeRequest, Invalid> {
    let bytes = raw.as_bytes();
    check_due_literals(bytes, false)?;
    let literals = check_literals(bytes, false)?;
    let value: Value = serde_json::from_str(raw).map_err(|e| {
        Invalid::new(
            "invalid_json",
            "",
            format!("the charge is not valid JSON: {e}"),
        )
    })?;
    if let Some(field) = nul_field(&value, true) {
        return Err(Invalid::new(
            "invalid_field",
            &field,
            format!("`{field}` must not contain the NUL character (U+0000)"),
        ));
    }
    require_objects(&value, &["payer"], CHARGE_FIELD_CODES)?;
    let body: ChargeBody = from_json(value, CHARGE_FIELD_CODES)?;
    let request = body
        .with_literals(literals)
        .validate(store.to_owned(), "", today)?;
    if request.due.is_none() {
        return Err(Invalid::new(
            "missing_field",
            "dueDate",
            "`dueDate` is required: a batch holds due-date charges",
        ));
    }
    Ok(request)
}

/// The item's `reference` when it is one a charge may have (1 to 160 characters, no control
/// characters), to show beside the item whatever became of it.
pub fn item_reference(raw: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Reference {
        reference: Option<Value>,
    }
    let reference = serde_json::from_str::<Reference>(raw).ok()?.reference?;
    let text = reference.as_str()?;
    bounded(text, "reference", "invalid_reference", 1, 160).ok()
}

/// An item's part of the batch's idempotency fingerprint: the item compared as parsed JSON
/// (whitespace and key order aside), its `metadata` by its text as a single charge's is
/// compared ([`canonical_metadata`]: every digit counts). It does not depend on the item being
/// valid, nor on the day: a retry the next day is the same request.
pub fn item_fingerprint(raw: &str) -> String {
    #[derive(Deserialize)]
    struct Metadata<'a> {
        #[serde(borrow)]
        metadata: Option<&'a RawValue>,
    }
    let Ok(mut value) = serde_json::from_str::<Value>(raw) else {
        return crate::sha256_hex(raw);
    };
    let metadata = serde_json::from_str::<Metadata>(raw)
        .ok()
        .and_then(|m| m.metadata)
        .map(|m| canonical_metadata(m.get()));
    if let Some(fields) = value.as_object_mut() {
        fields.remove("metadata");
    }
    crate::sha256_hex(format!(
        "{}\n{}",
        canonical_json(&value),
        metadata.unwrap_or_default()
    ))
}

/// The path of the first string or key holding U+0000 in a body; with `charge`, a charge's
/// `metadata` aside (the merchant's JSON object, kept as the text sent, where a NUL stays the
/// escape `\u0000`), as the charge route finds it.
fn nul_field(value: &Value, charge: bool) -> Option<String> {
    fn at(value: &Value, path: String, top: bool) -> Option<String> {
        match value {
            Value::String(s) if s.contains('\0') => Some(path),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, v)| at(v, format!("{path}[{i}]"), false)),
            Value::Object(map) => map.iter().find_map(|(k, v)| {
                if top && k == "metadata" {
                    return None;
                }
                let key = k.replace('\0', "\\u0000");
                let child = if path.is_empty() {
                    key
                } else {
                    format!("{path}.{key}")
                };
                if k.contains('\0') {
                    Some(child)
                } else {
                    at(v, child, false)
                }
            }),
            _ => None,
        }
    }
    at(value, String::new(), charge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn today() -> Date {
        Date::parse("2026-11-27").unwrap()
    }

    fn item() -> Value {
        json!({
            "amount": 100.0, "reference": "rent-1", "dueDate": "2027-03-10",
            "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
            "metadata": {"id": 123456789012345678901234567890_u128.to_string()}
        })
    }

    #[test]
    fn the_items_are_kept_as_written_and_judged_alone() {
        let body = br#"{"store": "s", "charges": [ {"amount": 1.10, "metadata": {"n": 1e400, "k\u0000": 1}} , 3]}"#;
        let batch = BatchRequest::from_bytes(body).unwrap();
        assert_eq!(batch.store, "s");
        assert_eq!(
            batch.items,
            [
                r#"{"amount": 1.10, "metadata": {"n": 1e400, "k\u0000": 1}}"#,
                "3"
            ]
        );
        // The last of repeated members, as a parser keeps.
        let batch =
            BatchRequest::from_bytes(br#"{"store": "a", "charges": [1], "store": "b"}"#).unwrap();
        assert_eq!(batch.store, "b");
    }

    #[test]
    fn the_envelope_is_a_store_and_one_to_a_thousand_charges() {
        for (body, code, field) in [
            (json!({"charges": [{}]}), "missing_field", Some("store")),
            (json!({"store": "shop"}), "missing_field", Some("charges")),
            (
                json!({"store": "shop", "charges": {}}),
                "invalid_field",
                Some("charges"),
            ),
            (
                json!({"store": "shop", "charges": []}),
                "invalid_batch_size",
                Some("charges"),
            ),
            (
                json!({"store": "a b", "charges": [{}]}),
                "invalid_store",
                Some("store"),
            ),
            (
                json!({"store": "shop", "charges": [{}], "x": 1}),
                "unknown_field",
                Some("x"),
            ),
            (
                json!({"store": "a\u{0}", "charges": [{}]}),
                "invalid_field",
                Some("store"),
            ),
            (json!([{"store": "shop"}]), "invalid_request", None),
        ] {
            let e = BatchRequest::from_bytes(body.to_string().as_bytes()).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (code, field), "{body}");
        }
        let many = vec![json!({}); MAX_ITEMS + 1];
        let body = json!({"store": "shop", "charges": many}).to_string();
        let e = BatchRequest::from_bytes(body.as_bytes()).unwrap_err();
        assert_eq!(e.code, "invalid_batch_size");
        for bad in [
            &b"{"[..],
            b"{\"store\": 1e400, \"charges\": [1]}",
            b"[1e400]",
        ] {
            let e = BatchRequest::from_bytes(bad).unwrap_err();
            assert_eq!(e.code, "invalid_json", "{}", String::from_utf8_lossy(bad));
        }
    }

    /// An item is refused with the code and field a single charge gets for the same fault.
    #[test]
    fn an_item_is_judged_as_a_single_charge_is() {
        let good = parse_item(&item().to_string(), "shop", today()).unwrap();
        assert_eq!(good.store, "shop");
        assert!(good.due.is_some());
        // The metadata is the merchant's text.
        assert_eq!(good.metadata, r#"{"id":"123456789012345678901234567890"}"#);
        let written = r#"{"amount": 1.10, "reference": "r", "dueDate": "2027-03-10",
            "payer": {"name": "A", "taxId": "52998224725"}, "metadata": {"n": 1.10}}"#;
        assert_eq!(
            parse_item(written, "shop", today()).unwrap().metadata,
            r#"{"n":1.10}"#
        );
        type Change = fn(&mut Value);
        let cases: [(Change, &str, &str); 8] = [
            (
                |b| b["payer"]["taxId"] = json!("111.111.111-11"),
                "invalid_tax_id",
                "payer.taxId",
            ),
            (|b| b["amount"] = json!(0), "invalid_amount", "amount"),
            (
                |b| b["dueDate"] = json!("2020-01-01"),
                "invalid_due_date",
                "dueDate",
            ),
            (|b| b["store"] = json!("shop"), "unknown_field", "store"),
            (
                |b| {
                    b.as_object_mut().unwrap().remove("reference");
                },
                "missing_field",
                "reference",
            ),
            (
                |b| {
                    b.as_object_mut().unwrap().remove("dueDate");
                },
                "missing_field",
                "dueDate",
            ),
            (
                |b| b["payer"]["name"] = json!("a\0b"),
                "invalid_field",
                "payer.name",
            ),
            (|b| b["payer"] = json!([1]), "invalid_payer", "payer"),
        ];
        for (change, code, field) in cases {
            let mut body = item();
            change(&mut body);
            let e = parse_item(&body.to_string(), "shop", today()).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (code, Some(field)), "{body}");
        }
        // A NUL in the metadata is the merchant's, as in a single charge.
        let mut body = item();
        body["metadata"] = json!({"k\0": "v\0"});
        assert!(parse_item(&body.to_string(), "shop", today()).is_ok());
        // Literals as written: three decimals, and a number beyond any double.
        let e = parse_item(
            r#"{"amount": 1.001, "reference": "r", "dueDate": "2027-03-10",
                "payer": {"name": "A", "taxId": "52998224725"}}"#,
            "shop",
            today(),
        )
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            ("invalid_amount", Some("amount"))
        );
        let e = parse_item("7", "shop", today()).unwrap_err();
        assert_eq!(e.code, "invalid_request");
    }

    #[test]
    fn an_item_is_the_same_request_as_parsed_json() {
        let a = item_fingerprint(r#"{"amount": 1, "metadata": {"id": 9007199254740993, "b": 1}}"#);
        let b =
            item_fingerprint(r#"{ "metadata": {"b": 1.0, "id": 9007199254740993},"amount":1.0}"#);
        assert_eq!(a, b);
        // Every digit of the metadata counts.
        let c = item_fingerprint(r#"{"amount": 1, "metadata": {"id": 9007199254740992, "b": 1}}"#);
        assert_ne!(a, c);
        assert_ne!(item_fingerprint("[1]"), item_fingerprint("[2]"));
    }

    #[test]
    fn a_reference_is_shown_when_it_is_one() {
        assert_eq!(
            item_reference(r#"{"reference": "rent-1"}"#).as_deref(),
            Some("rent-1")
        );
        for raw in [
            r#"{"reference": 5}"#,
            r#"{"reference": ""}"#,
            "[]",
            r#"{"reference": "a\u0001"}"#,
        ] {
            assert_eq!(item_reference(raw), None, "{raw}");
        }
        assert_eq!(
            item_reference(&json!({"reference": "x".repeat(161)}).to_string()),
            None
        );
    }

    #[test]
    fn the_item_schema_is_a_charge_body_with_a_due_date() {
        let schema = serde_json::to_value(BatchCharge::schema()).unwrap();
        assert_eq!(
            schema["allOf"][0]["$ref"],
            "#/components/schemas/ChargeBody"
        );
        assert_eq!(schema["allOf"][1]["required"], json!(["dueDate"]));
        let mut all = Vec::new();
        <CreateChargeBatchRequest as ToSchema>::schemas(&mut all);
        assert!(all.iter().any(|(name, _)| name == "ChargeBody"));
    }
}
