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
        let expected = inner.rsplit("expected ").next().unwrap_or("another type");
        Invalid::new(
            code,
            &path,
            format!("`{path}` has the wrong type: expected {expected}"),
        )
    })
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
