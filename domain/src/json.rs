//! Request bodies into their serde types, with refusals that name the field at fault as a
//! path (`payer.taxId`, `feeTerms.mdrBps`, `scopes[1]`) and carry a stable code.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A request that breaks a rule of the contract: a stable code, the field at fault and
/// what to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    pub code: &'static str,
    pub field: Option<String>,
    pub message: String,
}

impl Invalid {
    pub fn new(code: &'static str, field: &str, message: impl Into<String>) -> Self {
        Self {
            code,
            field: (!field.is_empty()).then(|| field.to_owned()),
            message: message.into(),
        }
    }
}

/// Reads a JSON body into `T`, naming the field at fault with a stable code. `field_codes`
/// maps a field path to the code used when its value has the wrong type or shape.
///
/// The body must be a JSON object: serde would also read a struct from an array of its
/// fields' values, which no request is. `missing_field` (absent or `null`), `unknown_field`,
/// or the field's code for a wrong type or value (`invalid_field` by default).
pub fn from_json<T: DeserializeOwned>(
    value: Value,
    field_codes: &[(&str, &'static str)],
) -> Result<T, Invalid> {
    if !value.is_object() {
        return Err(Invalid::new(
            "invalid_request",
            "",
            "the body must be a JSON object",
        ));
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        let inner = e.into_inner().to_string();
        let join = |name: &str| {
            if path.is_empty() {
                name.to_owned()
            } else {
                format!("{path}.{name}")
            }
        };
        if let Some(name) = quoted(&inner, "missing field `") {
            let field = join(name);
            return Invalid::new("missing_field", &field, format!("`{field}` is required"));
        }
        if let Some(name) = quoted(&inner, "unknown field `") {
            // The path already ends at the unknown field.
            let field = if path.is_empty() {
                name.to_owned()
            } else {
                path.clone()
            };
            return Invalid::new("unknown_field", &field, format!("unknown field `{field}`"));
        }
        if path.is_empty() {
            return Invalid::new("invalid_request", "", "the body must be a JSON object");
        }
        // A required field sent as null is as missing as an absent one.
        if inner.starts_with("invalid type: null") {
            return Invalid::new("missing_field", &path, format!("`{path}` is required"));
        }
        let code = field_codes
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, code)| *code)
            .unwrap_or("invalid_field");
        Invalid::new(code, &path, format!("`{path}` {}", in_plain_words(&inner)))
    })
}

/// serde's complaint about a value (`invalid type: string "10", expected f64`) in the API's
/// terms (`must be a number, not a string`): clients read JSON, not Rust types.
fn in_plain_words(serde_message: &str) -> String {
    if let Some(rest) = serde_message.strip_prefix("unknown variant ")
        && let Some((got, expected)) = rest.split_once(", expected ")
    {
        return format!("must be {expected}; got {got}");
    }
    let (kind, rest) = match serde_message.split_once(": ") {
        Some((kind @ ("invalid type" | "invalid value" | "invalid length"), rest)) => (kind, rest),
        _ => return format!("is not valid: {serde_message}"),
    };
    let Some((got, expected)) = rest.rsplit_once(", expected ") else {
        return format!("is not valid: {serde_message}");
    };
    let expected = plain_expected(expected);
    match kind {
        "invalid type" => format!("must be {expected}, not {}", plain_kind(got)),
        // A value of the right type out of range: `integer `-1``, `floating point `1.5``.
        _ => match got.split_once('`') {
            Some((_, value)) => format!("must be {expected}; got {}", value.trim_end_matches('`')),
            None => format!("must be {expected}"),
        },
    }
}

/// What serde says a type expects, for a JSON client.
fn plain_expected(expected: &str) -> String {
    let range = |min: &str, max: &str| format!("a whole number from {min} to {max}");
    match expected {
        "f32" | "f64" => "a number".into(),
        "u8" => range("0", "255"),
        "u16" => range("0", "65535"),
        "u32" => range("0", "4294967295"),
        "u64" | "usize" => range("0", "18446744073709551615"),
        "i8" => range("-128", "127"),
        "i16" => range("-32768", "32767"),
        "i32" => range("-2147483648", "2147483647"),
        "i64" | "isize" => range("-9223372036854775808", "9223372036854775807"),
        "an integer" => "a whole number".into(),
        "a boolean" => "true or false".into(),
        // An enum of names: what serde_json's value says it wanted for one.
        "a borrowed string" | "a string" | "string or map" => "a string".into(),
        "a map" => "an object".into(),
        "a sequence" => "an array".into(),
        other if other.starts_with("struct ") || other.starts_with("a map ") => "an object".into(),
        other if other.starts_with("a sequence") || other.starts_with("tuple") => "an array".into(),
        other => other.into(),
    }
}

/// What serde says a JSON value was (`string "10"`, `integer `5``, `map`), as a JSON kind.
fn plain_kind(got: &str) -> &'static str {
    match got.split([' ', '`', '"']).next().unwrap_or_default() {
        "string" => "a string",
        "integer" | "floating" => "a number",
        "boolean" => "true or false",
        "map" => "an object",
        "sequence" => "an array",
        "null" | "unit" => "null",
        _ => "another kind of value",
    }
}

fn quoted<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    message.strip_prefix(prefix)?.split('`').next()
}

/// Refuses an array (or any non-object) where `paths` (dotted, from the body) hold an object,
/// for the same reason as [`from_json`]'s check of the body itself; absent or `null` passes.
pub fn require_objects(
    value: &Value,
    paths: &[&str],
    field_codes: &[(&str, &'static str)],
) -> Result<(), Invalid> {
    for path in paths {
        let at = path.split('.').try_fold(value, |v, part| v.get(part));
        if let Some(v) = at
            && !v.is_null()
            && !v.is_object()
        {
            let code = field_codes
                .iter()
                .find(|(p, _)| p == path)
                .map_or("invalid_field", |(_, c)| *c);
            return Err(Invalid::new(
                code,
                path,
                format!("`{path}` must be an object"),
            ));
        }
    }
    Ok(())
}

/// Text of `min` to `max` characters without control characters (PostgreSQL refuses NUL in
/// text, and no merchant reference needs a control character).
pub fn bounded(
    value: &str,
    path: &str,
    code: &'static str,
    min: usize,
    max: usize,
) -> Result<String, Invalid> {
    let chars = value.chars().count();
    if chars < min || chars > max {
        return Err(Invalid::new(
            code,
            path,
            format!("`{path}` must have {min} to {max} characters"),
        ));
    }
    if value.chars().any(char::is_control) {
        return Err(Invalid::new(
            code,
            path,
            format!("`{path}` must not contain control characters"),
        ));
    }
    Ok(value.to_owned())
}

/// An integer as JSON Schema counts them: `300`, `300.0` and `3e2` are the same integer and
/// `300.5` is none, so a body the document's `type: integer` allows is never refused for its
/// notation. Declare fields `#[schema(value_type = i64)]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Integer(pub i64);

impl<'de> serde::Deserialize<'de> for Integer {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;

        impl serde::de::Visitor<'_> for Visitor {
            type Value = Integer;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer")
            }

            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Integer, E> {
                Ok(Integer(v))
            }

            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Integer, E> {
                i64::try_from(v).map(Integer).map_err(|_| {
                    E::invalid_value(serde::de::Unexpected::Unsigned(v), &"a 64-bit integer")
                })
            }

            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Integer, E> {
                // -2^63 and 2^63 are exact floats; i64 holds the first, not the second.
                let bound = -(i64::MIN as f64);
                if v.fract() == 0.0 && (-bound..bound).contains(&v) {
                    Ok(Integer(v as i64))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
                }
            }
        }

        deserializer.deserialize_any(Visitor)
    }
}

impl serde::Serialize for Integer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(self.0)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[allow(dead_code)] // only deserialised
    struct Typed {
        rate: Option<f64>,
        count: Option<u32>,
        offset: Option<i64>,
        flag: Option<bool>,
        name: Option<String>,
        list: Option<Vec<String>>,
        inner: Option<Inner>,
        whole: Option<super::Integer>,
        mode: Option<Mode>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        a: u8,
    }

    #[derive(Debug, serde::Deserialize)]
    enum Mode {
        #[serde(rename = "SHADOW")]
        Shadow,
        #[serde(rename = "LIVE")]
        Live,
    }

    /// Issue 17: no Rust type names (`f64`, `u32`, `struct Inner`) in a refusal.
    #[test]
    fn type_errors_are_told_in_json_terms() {
        for (body, message) in [
            (
                json!({"rate": "10"}),
                "`rate` must be a number, not a string",
            ),
            (
                json!({"count": -1}),
                "`count` must be a whole number from 0 to 4294967295; got -1",
            ),
            (
                json!({"count": 1.5}),
                "`count` must be a whole number from 0 to 4294967295, not a number",
            ),
            (
                json!({"offset": "x"}),
                "`offset` must be a whole number from -9223372036854775808 to \
                 9223372036854775807, not a string",
            ),
            (
                json!({"flag": 1}),
                "`flag` must be true or false, not a number",
            ),
            (
                json!({"name": {}}),
                "`name` must be a string, not an object",
            ),
            (
                json!({"list": "a"}),
                "`list` must be an array, not a string",
            ),
            (
                json!({"list": [1]}),
                "`list[0]` must be a string, not a number",
            ),
            (
                json!({"inner": 5}),
                "`inner` must be an object, not a number",
            ),
            (
                json!({"whole": 1.5}),
                "`whole` must be a whole number; got 1.5",
            ),
            (
                json!({"mode": "TEST"}),
                "`mode` must be `SHADOW` or `LIVE`; got `TEST`",
            ),
            (json!({"mode": 1}), "`mode` must be a string, not a number"),
        ] {
            let e = super::from_json::<Typed>(body.clone(), &[]).unwrap_err();
            assert_eq!(e.code, "invalid_field", "{body}");
            assert_eq!(e.message, message, "{body}");
            for jargon in [
                "f64",
                "u32",
                "i64",
                "u8",
                "struct",
                "map",
                "sequence",
                "invalid type",
            ] {
                assert!(!e.message.contains(jargon), "{body}: {}", e.message);
            }
        }
    }

    #[test]
    fn integers_are_read_whatever_their_notation() {
        let read = |text: &str| serde_json::from_str::<super::Integer>(text).map(|i| i.0);
        for (text, value) in [
            ("300", 300),
            ("300.0", 300),
            ("3e2", 300),
            ("-5", -5),
            ("-0.0", 0),
        ] {
            assert_eq!(read(text).unwrap(), value, "{text}");
        }
        assert_eq!(read("9223372036854775807").unwrap(), i64::MAX);
        for bad in [
            "300.5",
            "9223372036854775808",
            "1e19",
            "\"3\"",
            "null",
            "true",
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }
}
