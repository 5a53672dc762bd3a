//! Typed reads of the store configuration. A value that is present but malformed is an
//! error (the store is misconfigured), never silently replaced by the default.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::{StepError, StoreContext};

pub(crate) fn invalid(key: &str, value: &str, expected: &str) -> StepError {
    StepError::new(
        "invalid_store_config",
        format!("store configuration `{key}` is `{value}`; expected {expected}"),
    )
}

pub(crate) fn u64_or(store: &StoreContext, key: &str, default: u64) -> Result<u64, StepError> {
    match store.config(key) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse()
            .map_err(|_| invalid(key, v, "a whole number")),
    }
}

pub(crate) fn opt_u64(store: &StoreContext, key: &str) -> Result<Option<u64>, StepError> {
    store
        .config(key)
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|_| invalid(key, v, "a whole number"))
        })
        .transpose()
}

pub(crate) fn bool_or(store: &StoreContext, key: &str, default: bool) -> Result<bool, StepError> {
    match store.config(key).map(str::trim) {
        None => Ok(default),
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(v) => Err(invalid(key, v, "true or false")),
    }
}

/// A comma-separated list of release classes such as `D0,D1`.
pub(crate) fn release_classes(
    store: &StoreContext,
    key: &str,
) -> Result<Option<Vec<String>>, StepError> {
    let Some(raw) = store.config(key) else {
        return Ok(None);
    };
    let classes: Vec<String> = raw
        .split(',')
        .map(|c| c.trim().to_ascii_uppercase())
        .filter(|c| !c.is_empty())
        .collect();
    if classes.is_empty() || classes.iter().any(|c| release_days(c).is_none()) {
        return Err(invalid(key, raw, "a comma-separated list like D0,D1,D30"));
    }
    Ok(Some(classes))
}

/// Business days until release for a class `D<n>` (n at most 365).
pub fn release_days(class: &str) -> Option<u32> {
    let digits = class.strip_prefix('D')?;
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|d| *d <= 365)
}
