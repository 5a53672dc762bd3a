//! What failed inside pixgate, as opposed to what the caller got wrong: a broken invariant or
//! an error of a part that should not fail (the database, serialising a stored value, a
//! thread pool). Each layer's error enum carries one as its `Internal` variant, and the HTTP
//! layer answers it with a 500 `internal_error` whose detail goes to the log only.
//!
//! The error underneath is kept as the [`std::error::Error::source`] (not flattened into a
//! string), so the chain reaches the log whole and a test can look at what caused it.

use std::borrow::Cow;
use std::error::Error;
use std::fmt;

type Cause = Box<dyn Error + Send + Sync + 'static>;

#[derive(Debug)]
pub struct Internal {
    context: Option<Cow<'static, str>>,
    source: Option<Cause>,
}

impl Internal {
    /// An invariant that did not hold (nothing failed underneath): `intent x without its store`.
    pub fn broken(context: impl Into<Cow<'static, str>>) -> Self {
        Self {
            context: Some(context.into()),
            source: None,
        }
    }

    /// `context` failed because of `source`.
    pub fn caused(context: impl Into<Cow<'static, str>>, source: impl Into<Cause>) -> Self {
        Self {
            context: Some(context.into()),
            source: Some(source.into()),
        }
    }

    /// `source`, which says what failed well enough on its own (a [`crate::db::DbError`]).
    pub fn of(source: impl Into<Cause>) -> Self {
        Self {
            context: None,
            source: Some(source.into()),
        }
    }
}

// The codebase's errors print their cause after their own words (`database: ...`), so one
// `%e` in a log line says everything; the cause is the source as well, for whoever walks the
// chain.
impl fmt::Display for Internal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.context, &self.source) {
            (Some(context), Some(source)) => write!(f, "{context}: {source}"),
            (Some(context), None) => f.write_str(context),
            (None, Some(source)) => write!(f, "{source}"),
            (None, None) => f.write_str("internal error"),
        }
    }
}

impl Error for Internal {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

impl From<crate::db::DbError> for Internal {
    fn from(e: crate::db::DbError) -> Self {
        Self::of(e)
    }
}

impl From<sqlx::Error> for Internal {
    fn from(e: sqlx::Error) -> Self {
        Self::caused("database", e)
    }
}

impl From<crate::crypto::CryptoError> for Internal {
    fn from(e: crate::crypto::CryptoError) -> Self {
        Self::of(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cause_is_kept_as_the_source_and_printed_after_the_context() {
        let cause = serde_json::from_str::<u8>("x").unwrap_err();
        let shown = cause.to_string();
        let e = Internal::caused("stored trace", cause);
        assert_eq!(e.to_string(), format!("stored trace: {shown}"));
        let source = e.source().expect("the cause is the source");
        assert!(source.downcast_ref::<serde_json::Error>().is_some());
        assert!(
            Internal::broken("intent x without its store")
                .source()
                .is_none()
        );
    }
}
