//! The JSON body extractor: `application/json` only, at most 64 KB, parsed into a
//! `serde_json::Value` (kept for idempotency hashing), with errors in the envelope.

use axum::extract::{FromRequest, Request};
use axum::http::header;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::ApiError;

pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// How much of an oversized body is still read (and dropped) so the 413 reaches the client.
const DRAIN_LIMIT: usize = 1024 * 1024;

pub struct JsonBody(pub serde_json::Value);

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, _: &S) -> Result<Self, ApiError> {
        let is_json = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|mime| {
                let mime = mime.trim().to_ascii_lowercase();
                mime == "application/json"
                    || (mime.starts_with("application/") && mime.ends_with("+json"))
            })
            .unwrap_or(false);
        if !is_json {
            return Err(ApiError::UnsupportedMediaType);
        }
        // A body somewhat over the limit is read to its end before the 413: answering and
        // closing with unread bytes in the socket makes the kernel reset the connection, and
        // the client may then never see the response. Only a body over DRAIN_LIMIT is cut.
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > DRAIN_LIMIT as u64) {
            return Err(ApiError::PayloadTooLarge(MAX_BODY_BYTES));
        }
        let bytes = axum::body::to_bytes(request.into_body(), DRAIN_LIMIT)
            .await
            .map_err(|_| ApiError::PayloadTooLarge(MAX_BODY_BYTES))?;
        if bytes.len() > MAX_BODY_BYTES {
            return Err(ApiError::PayloadTooLarge(MAX_BODY_BYTES));
        }
        let value = serde_json::from_slice(&bytes).map_err(|e| ApiError::Invalid {
            code: "invalid_json",
            message: format!("the body is not valid JSON: {e}"),
            field: None,
        })?;
        Ok(Self(value))
    }
}

/// Deserialises a request body, a JSON object, into its serde type. A refusal is a 400 naming
/// the field at fault as a path (`feeTerms.mdrBps`, `scopes[1]`): `missing_field`,
/// `unknown_field` or `invalid_field` (wrong type or value); `invalid_request` when the body is
/// not an object.
pub fn parse<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    // serde also reads a struct from an array of its fields' values; a body never is one.
    if !value.is_object() {
        return Err(ApiError::Invalid {
            code: "invalid_request",
            message: "the body must be a JSON object".into(),
            field: None,
        });
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        // The path ends at the object for these two; serde names the field in its message.
        let named = |prefix: &str| {
            let name = message.strip_prefix(prefix)?.split('`').next()?;
            Some(match path.as_str() {
                "." => name.to_owned(),
                parent => format!("{parent}.{name}"),
            })
        };
        if let Some(field) = named("missing field `") {
            return ApiError::Invalid {
                code: "missing_field",
                message: format!("`{field}` is required"),
                field: Some(field),
            };
        }
        if message.starts_with("unknown field `") {
            return ApiError::Invalid {
                code: "unknown_field",
                message: format!("unknown field `{path}`"),
                field: Some(path),
            };
        }
        if path == "." {
            return ApiError::Invalid {
                code: "invalid_request",
                message,
                field: None,
            };
        }
        ApiError::Invalid {
            code: "invalid_field",
            message: format!("`{path}`: {message}"),
            field: Some(path),
        }
    })
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

/// The JSON form used for idempotency: object keys sorted, no insignificant whitespace.
pub fn canonical_json(value: &serde_json::Value) -> String {
    fn write(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::String((*k).clone()).to_string());
                    out.push(':');
                    write(&map[*k], out);
                }
                out.push('}');
            }
            serde_json::Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            serde_json::Value::Number(n) => match n.as_f64() {
                // 100, 100.0 and 1e2 are one number: integral floats print as integers.
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

pub fn check_fields(
    object: &Map<String, Value>,
    allowed: &[&str],
    prefix: &str,
) -> Result<(), ApiError> {
    match object.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(unknown) => Err(ApiError::invalid(
            "unknown_field",
            &format!("{prefix}{unknown}"),
            format!("unknown field `{prefix}{unknown}`"),
        )),
        None => Ok(()),
    }
}

pub fn string_field<'a>(
    object: &'a Map<String, Value>,
    name: &str,
    path: &str,
    required: bool,
) -> Result<Option<&'a str>, ApiError> {
    match object.get(name) {
        None | Some(Value::Null) if required => Err(ApiError::invalid(
            "missing_field",
            path,
            format!("`{path}` is required"),
        )),
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::invalid(
            "invalid_field",
            path,
            format!("`{path}` must be a string"),
        )),
    }
}

/// Text of `min` to `max` characters without control characters (PostgreSQL refuses NUL in
/// text, and no merchant reference needs a control character).
pub fn bounded(
    value: &str,
    path: &str,
    code: &'static str,
    min: usize,
    max: usize,
) -> Result<String, ApiError> {
    let chars = value.chars().count();
    if chars < min || chars > max {
        return Err(ApiError::invalid(
            code,
            path,
            format!("`{path}` must have {min} to {max} characters"),
        ));
    }
    if value.chars().any(char::is_control) {
        return Err(ApiError::invalid(
            code,
            path,
            format!("`{path}` must not contain control characters"),
        ));
    }
    Ok(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::{canonical_json, parse};
    use serde_json::json;

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[allow(dead_code)] // only deserialised
    struct Outer {
        code: String,
        fee_terms: Inner,
        scopes: Vec<Scope>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        mdr_bps: i64,
    }

    #[derive(Debug, serde::Deserialize)]
    enum Scope {
        #[serde(rename = "a:b")]
        Ab,
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

    #[test]
    fn parse_names_the_field_at_fault() {
        let valid = json!({"code": "x", "feeTerms": {"mdrBps": 1}, "scopes": ["a:b"]});
        assert!(parse::<Outer>(valid.clone()).is_ok());
        let cases = [
            ("/code", json!(null), "invalid_field", "code"),
            (
                "/feeTerms/mdrBps",
                json!("1"),
                "invalid_field",
                "feeTerms.mdrBps",
            ),
            ("/scopes/0", json!("c:d"), "invalid_field", "scopes[0]"),
            (
                "/feeTerms/extra",
                json!(1),
                "unknown_field",
                "feeTerms.extra",
            ),
            ("/extra", json!(1), "unknown_field", "extra"),
        ];
        for (pointer, value, code, field) in cases {
            let mut body = valid.clone();
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            match body.pointer_mut(parent).unwrap() {
                serde_json::Value::Object(map) => {
                    map.insert(key.to_owned(), value);
                }
                serde_json::Value::Array(list) => list[key.parse::<usize>().unwrap()] = value,
                _ => unreachable!(),
            }
            let err = parse::<Outer>(body).unwrap_err();
            assert_eq!(err.code(), code, "{pointer}: {err}");
            assert!(
                matches!(&err, super::ApiError::Invalid { field: Some(f), .. } if f == field),
                "{pointer}: {err:?}"
            );
        }
        for (missing, field) in [("/code", "code"), ("/feeTerms/mdrBps", "feeTerms.mdrBps")] {
            let mut body = valid.clone();
            let (parent, key) = missing.rsplit_once('/').unwrap();
            body.pointer_mut(if parent.is_empty() { "" } else { parent })
                .unwrap()
                .as_object_mut()
                .unwrap()
                .remove(key);
            let err = parse::<Outer>(body).unwrap_err();
            assert_eq!(err.code(), "missing_field", "{err}");
            assert!(
                matches!(&err, super::ApiError::Invalid { field: Some(f), .. } if f == field),
                "{err:?}"
            );
        }
        // Not even an array of the fields' values.
        let err = parse::<Outer>(json!(["x", {"mdrBps": 1}, []])).unwrap_err();
        assert_eq!(err.code(), "invalid_request");
    }

    #[test]
    fn key_order_and_whitespace_do_not_matter() {
        let a: serde_json::Value =
            serde_json::from_str(r#"{"b": 1, "a": {"y": [1, 2], "x": "s"}}"#).unwrap();
        let b: serde_json::Value =
            serde_json::from_str(r#"{"a":{"x":"s","y":[1,2]},"b":1}"#).unwrap();
        assert_eq!(canonical_json(&a), canonical_json(&b));
        assert_eq!(canonical_json(&a), r#"{"a":{"x":"s","y":[1,2]},"b":1}"#);
        assert_ne!(
            canonical_json(&json!({"a": [1, 2]})),
            canonical_json(&json!({"a": [2, 1]}))
        );
        let ints: serde_json::Value = serde_json::from_str(r#"{"amount": 100}"#).unwrap();
        for same in [r#"{"amount": 100.0}"#, r#"{"amount": 1e2}"#] {
            let v: serde_json::Value = serde_json::from_str(same).unwrap();
            assert_eq!(canonical_json(&v), canonical_json(&ints), "{same}");
        }
        assert_ne!(
            canonical_json(&json!({"amount": 100.5})),
            canonical_json(&ints)
        );
    }
}
