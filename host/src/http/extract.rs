//! The JSON body extractor: `application/json` only, at most 64 KB, parsed into a
//! `serde_json::Value`, with errors in the envelope; and [`parse`], which reads it into a
//! request's serde type.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::ApiError;

pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// How much of an oversized body is still read (and dropped) so the 413 reaches the client.
const DRAIN_LIMIT: usize = 1024 * 1024;

pub struct JsonBody(pub serde_json::Value);

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, _: &S) -> Result<Self, ApiError> {
        Self::read(request).await.map(Self)
    }
}

impl JsonBody {
    /// Reads the body of a request whose other checks (scope, headers) ran first: a handler
    /// takes the whole `Request` last and calls this when it is ready for the body.
    pub async fn read(request: Request) -> Result<Value, ApiError> {
        Self::read_checked(request, |_| Ok(()))
            .await
            .map(|(value, ())| value)
    }

    /// [`JsonBody::read`], with `literals` judging the bytes as sent before they are parsed
    /// and keeping what the route needs of them as written (`metadata`): parsing rounds
    /// numbers to doubles, and fails the whole body on one no double holds (`1e400`), where a
    /// route has a better answer naming the field.
    pub async fn read_checked<T>(
        request: Request,
        literals: impl FnOnce(&[u8]) -> Result<T, ApiError>,
    ) -> Result<(Value, T), ApiError> {
        let bytes = Self::read_bytes(request, MAX_BODY_BYTES).await?;
        let kept = literals(&bytes)?;
        let value = serde_json::from_slice(&bytes).map_err(|e| ApiError::Invalid {
            code: "invalid_json",
            message: format!("the body is not valid JSON: {e}"),
            field: None,
        })?;
        // PostgreSQL text cannot hold U+0000, and no field here has a use for it: refused
        // for every body, so that both databases store the same things. Except in a charge's
        // or refund's `metadata`: the merchant's JSON object, kept as the text sent, where a
        // NUL stays the escape `\u0000` (storable anywhere) and is the merchant's to write.
        if let Some(field) = has_nul(&value)
            .then(|| nul_at(&value, String::new()))
            .flatten()
        {
            return Err(ApiError::Invalid {
                code: "invalid_field",
                message: format!("`{field}` must not contain the NUL character (U+0000)"),
                field: Some(field),
            });
        }
        Ok((value, kept))
    }

    /// The bytes of a JSON body of at most `max` bytes, as sent: the route parses them (a
    /// batch of charges, whose charges are each judged on their own, `max` 4 MB).
    pub async fn read_bytes(request: Request, max: usize) -> Result<Bytes, ApiError> {
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
        // A body somewhat over its limit is drained as the 64 KB ones are; a larger limit
        // drains up to itself.
        let drain = DRAIN_LIMIT.max(max);
        if declared.is_some_and(|n| n > drain as u64) {
            return Err(ApiError::PayloadTooLarge(max));
        }
        let bytes = axum::body::to_bytes(request.into_body(), drain)
            .await
            .map_err(|e| body_error(&e, ApiError::PayloadTooLarge(max)))?;
        if bytes.len() > max {
            return Err(ApiError::PayloadTooLarge(max));
        }
        Ok(bytes)
    }
}

/// Whether a string or key anywhere holds U+0000 (no allocation: every body is checked),
/// merchant metadata aside ([`is_metadata`]).
fn has_nul(value: &Value) -> bool {
    fn at(value: &Value, depth: usize, in_charge: bool) -> bool {
        match value {
            Value::String(s) => s.contains('\0'),
            Value::Array(items) => items.iter().any(|v| at(v, depth + 1, false)),
            Value::Object(map) => map.iter().any(|(k, v)| {
                !is_metadata(k, depth, in_charge)
                    && (k.contains('\0') || at(v, depth + 1, depth == 0 && k == "charge"))
            }),
            _ => false,
        }
    }
    at(value, 0, false)
}

/// A body's `metadata` (the charge's and the refund's), or the evaluate route's
/// `charge.metadata`: the merchant's JSON object, kept as the text sent.
fn is_metadata(key: &str, depth: usize, in_charge: bool) -> bool {
    key == "metadata" && (depth == 0 || (depth == 1 && in_charge))
}

/// The path (`payer.name`, `scopes[1]`) of the first string or key holding U+0000, merchant
/// metadata aside.
fn nul_at(value: &Value, path: String) -> Option<String> {
    fn at(value: &Value, path: String, depth: usize, in_charge: bool) -> Option<String> {
        match value {
            Value::String(s) if s.contains('\0') => Some(path),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, v)| at(v, format!("{path}[{i}]"), depth + 1, false)),
            Value::Object(map) => map.iter().find_map(|(k, v)| {
                if is_metadata(k, depth, in_charge) {
                    return None;
                }
                // A key holding NUL is named with it escaped.
                let key = k.replace('\0', "\\u0000");
                let child = if path.is_empty() {
                    key
                } else {
                    format!("{path}.{key}")
                };
                if k.contains('\0') {
                    Some(child)
                } else {
                    at(v, child, depth + 1, depth == 0 && k == "charge")
                }
            }),
            _ => None,
        }
    }
    at(value, path, 0, false)
}

/// The error for a body that could not be read: `408 request_timeout` when its deadline
/// passed (`PIXGATE_BODY_READ_TIMEOUT`), `otherwise` (its size limit) when not.
pub fn body_error(error: &(dyn std::error::Error + 'static), otherwise: ApiError) -> ApiError {
    if super::serve::is_body_timeout(error) {
        ApiError::RequestTimeout
    } else {
        otherwise
    }
}

/// Deserialises a request body, a JSON object, into its serde type. A refusal is a 400 naming
/// the field at fault as a path (`feeTerms.mdrBps`, `scopes[1]`): `missing_field`,
/// `unknown_field` or `invalid_field` (wrong type or value); `invalid_request` when the body is
/// not an object.
pub fn parse<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    pixgate_domain::json::from_json(value, &[]).map_err(ApiError::from)
}

#[cfg(test)]
mod tests {
    use super::parse;
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
    fn a_nul_anywhere_is_found_with_its_path() {
        use super::nul_at;
        assert_eq!(
            nul_at(&json!({"a": "x", "b": [1, "ok"]}), String::new()),
            None
        );
        assert_eq!(
            nul_at(&json!({"payer": {"name": "a\0b"}}), String::new()).as_deref(),
            Some("payer.name")
        );
        assert_eq!(
            nul_at(&json!({"scopes": ["ok", "\0"]}), String::new()).as_deref(),
            Some("scopes[1]")
        );
        assert_eq!(
            nul_at(&json!({"payer": {"metadata": {"k\0": 1}}}), String::new()).as_deref(),
            Some("payer.metadata.k\\u0000")
        );
        assert_eq!(
            nul_at(&json!({"x": [{"k\0": 1}]}), String::new()).as_deref(),
            Some("x[0].k\\u0000")
        );
    }

    /// Issue 30: merchant metadata is the merchant's JSON object, kept as the text sent (a NUL
    /// stays the escape `\u0000`), so a NUL in it is no refusal; anywhere else it is.
    #[test]
    fn a_nul_in_merchant_metadata_is_the_merchants_own() {
        use super::{has_nul, nul_at};
        for body in [
            json!({"metadata": {"k\0": "v\0"}}),
            json!({"store": "s", "charge": {"metadata": {"k\0": [1, "\0"]}}}),
        ] {
            assert!(!has_nul(&body), "{body}");
            assert_eq!(nul_at(&body, String::new()), None, "{body}");
        }
        let outside = json!({"charge": {"payer": {"name": "\0"}, "metadata": {}}});
        assert!(has_nul(&outside));
        assert_eq!(
            nul_at(&outside, String::new()).as_deref(),
            Some("charge.payer.name")
        );
    }

    #[test]
    fn parse_names_the_field_at_fault() {
        let valid = json!({"code": "x", "feeTerms": {"mdrBps": 1}, "scopes": ["a:b"]});
        assert!(parse::<Outer>(valid.clone()).is_ok());
        let cases = [
            ("/code", json!(null), "missing_field", "code"),
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
}
