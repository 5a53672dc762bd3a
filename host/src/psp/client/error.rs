//! [`PspError`]: what a failed call to a PSP means for the charge.

use std::time::Duration;

use reqwest::StatusCode;

use super::{CallOperation, CallOutcome};

/// What a failure means for the charge the call was about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The PSP answered and refused: the charge was not created there, and the same request
    /// will be refused again. Another PSP may still take it.
    Definitive,
    /// The PSP could not answer now (5xx, 408, 429, timeout, no connection). For a `PUT
    /// /cob`, the charge may or may not exist: the same txid names it on a retry.
    Transient,
    /// The PSP answered something that is not the standard's (unreadable body, unexpected
    /// status). For a `PUT /cob`, whether the charge exists is unknown.
    Protocol,
}

/// A failed call to a PSP. Messages name the operation and the HTTP status; they never
/// carry a secret, a token, a URL (which may hold a pix key) or what the PSP wrote beyond
/// its problem type and title.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PspError {
    #[error("{operation}: the PSP refused the request (HTTP {status}{})", problem_text(.problem))]
    Refused {
        operation: CallOperation,
        status: u16,
        /// The RFC 7807 problem's type name and title, e.g. `CobOperacaoInvalida: ...`.
        problem: Option<String>,
    },
    /// The token endpoint refused the credentials, or the API refused a fresh token.
    #[error("{operation}: the PSP refused pixgate's credentials (HTTP {status})")]
    Unauthorized {
        operation: CallOperation,
        status: u16,
    },
    #[error("{operation}: the PSP is unavailable (HTTP {status})")]
    Unavailable {
        operation: CallOperation,
        status: u16,
        /// The PSP's `Retry-After`, in seconds form only.
        retry_after: Option<Duration>,
    },
    #[error("{operation}: no answer from the PSP in time")]
    Timeout { operation: CallOperation },
    #[error("{operation}: could not reach the PSP: {detail}")]
    Connect {
        operation: CallOperation,
        detail: String,
    },
    #[error("{operation}: unreadable answer from the PSP: {detail}")]
    Protocol {
        operation: CallOperation,
        detail: String,
    },
}

fn problem_text(problem: &Option<String>) -> String {
    problem
        .as_deref()
        .map(|p| format!(": {p}"))
        .unwrap_or_default()
}

impl PspError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            // Retrying with the same credentials at this PSP does not help either.
            Self::Refused { .. } | Self::Unauthorized { .. } => ErrorKind::Definitive,
            Self::Unavailable { .. } | Self::Timeout { .. } | Self::Connect { .. } => {
                ErrorKind::Transient
            }
            Self::Protocol { .. } => ErrorKind::Protocol,
        }
    }

    /// The metrics label of the exchange that failed so.
    pub(crate) fn outcome(&self) -> CallOutcome {
        match self {
            Self::Refused { .. } => CallOutcome::Refused,
            Self::Unauthorized { .. } => CallOutcome::Unauthorized,
            Self::Unavailable { .. } => CallOutcome::Unavailable,
            Self::Timeout { .. } => CallOutcome::Timeout,
            Self::Connect { .. } => CallOutcome::ConnectFailed,
            Self::Protocol { .. } => CallOutcome::ProtocolError,
        }
    }

    /// A transport failure; the URL is dropped from the message.
    pub(super) fn from_transport(operation: CallOperation, e: reqwest::Error) -> Self {
        let e = e.without_url();
        if e.is_timeout() {
            return Self::Timeout { operation };
        }
        if e.is_connect() {
            return Self::Connect {
                operation,
                detail: error_chain(&e),
            };
        }
        // Sent, but the answer broke off or was not HTTP.
        Self::Protocol {
            operation,
            detail: error_chain(&e),
        }
    }
}

/// What a status means, before the body is looked at.
pub(super) fn status_outcome(operation: CallOperation, status: StatusCode) -> CallOutcome {
    match status.as_u16() {
        200..=299 => CallOutcome::Success,
        401 => CallOutcome::Unauthorized,
        // RFC 6749 section 5.2: the token endpoint refuses a client with 400 (invalid_client,
        // invalid_grant, unauthorized_client) as well as 401; 403 is a client without access.
        400 | 403 if operation == CallOperation::Token => CallOutcome::Unauthorized,
        408 | 429 => CallOutcome::Unavailable,
        400..=499 => CallOutcome::Refused,
        500..=599 => CallOutcome::Unavailable,
        // 1xx left over, 3xx (redirects are not followed), anything else.
        _ => CallOutcome::ProtocolError,
    }
}

/// The problem's type name and title from an RFC 7807 body, printable and bounded. Its
/// `detail` and `violacoes` are left out: PSPs quote request values there (a payer's CPF).
pub(super) fn problem_summary(body: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Problem {
        #[serde(rename = "type")]
        kind: Option<String>,
        title: Option<String>,
    }
    let problem: Problem = serde_json::from_slice(body).ok()?;
    let clean = |s: &str, max: usize| -> String {
        s.chars()
            .filter(|c| !c.is_control())
            .take(max)
            .collect::<String>()
    };
    let name = problem
        .kind
        .as_deref()
        .map(|t| clean(t.rsplit('/').next().unwrap_or(t), 80))
        .filter(|n| !n.is_empty());
    let title = problem
        .title
        .as_deref()
        .map(|t| clean(t, 120))
        .filter(|t| !t.is_empty());
    match (name, title) {
        (Some(n), Some(t)) => Some(format!("{n}: {t}")),
        (Some(one), None) | (None, Some(one)) => Some(one),
        (None, None) => None,
    }
}

/// reqwest's top-level error says little ("error sending request"); the causes say why.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_classified() {
        let op = CallOperation::PutCob;
        let kind = |status: u16| status_outcome(op, StatusCode::from_u16(status).unwrap());
        assert_eq!(kind(200), CallOutcome::Success);
        assert_eq!(kind(201), CallOutcome::Success);
        assert_eq!(kind(204), CallOutcome::Success);
        for definitive in [400, 403, 404, 409, 410, 422] {
            assert_eq!(kind(definitive), CallOutcome::Refused, "{definitive}");
        }
        assert_eq!(kind(401), CallOutcome::Unauthorized);
        for transient in [408, 429, 500, 502, 503, 504] {
            assert_eq!(kind(transient), CallOutcome::Unavailable, "{transient}");
        }
        for odd in [301, 302, 304, 100] {
            assert_eq!(kind(odd), CallOutcome::ProtocolError, "{odd}");
        }
        let token = |status: u16| {
            status_outcome(CallOperation::Token, StatusCode::from_u16(status).unwrap())
        };
        assert_eq!(token(400), CallOutcome::Unauthorized);
        assert_eq!(token(403), CallOutcome::Unauthorized);
        assert_eq!(token(404), CallOutcome::Refused);
        assert_eq!(token(503), CallOutcome::Unavailable);
    }

    #[test]
    fn kinds_follow_the_variants() {
        let op = CallOperation::PutCob;
        let refused = PspError::Refused {
            operation: op,
            status: 400,
            problem: None,
        };
        assert_eq!(refused.kind(), ErrorKind::Definitive);
        assert_eq!(
            PspError::Unauthorized {
                operation: op,
                status: 401
            }
            .kind(),
            ErrorKind::Definitive
        );
        for transient in [
            PspError::Unavailable {
                operation: op,
                status: 503,
                retry_after: None,
            },
            PspError::Timeout { operation: op },
            PspError::Connect {
                operation: op,
                detail: "refused".into(),
            },
        ] {
            assert_eq!(transient.kind(), ErrorKind::Transient, "{transient}");
        }
        assert_eq!(
            PspError::Protocol {
                operation: op,
                detail: "x".into()
            }
            .kind(),
            ErrorKind::Protocol
        );
    }

    #[test]
    fn problems_keep_their_type_and_title_only() {
        let body = br#"{"type": "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
            "title": "Cobranca invalida", "status": 400,
            "detail": "CPF 52998224725 invalido",
            "violacoes": [{"razao": "x", "propriedade": "cob.devedor.cpf", "valor": "52998224725"}]}"#;
        let summary = problem_summary(body).unwrap();
        assert_eq!(summary, "CobOperacaoInvalida: Cobranca invalida");
        let e = PspError::Refused {
            operation: CallOperation::PutCob,
            status: 400,
            problem: Some(summary),
        };
        assert_eq!(
            e.to_string(),
            "put_cob: the PSP refused the request (HTTP 400: CobOperacaoInvalida: Cobranca invalida)"
        );
        assert!(!e.to_string().contains("52998224725"));
        assert_eq!(problem_summary(b"<html>"), None);
        assert_eq!(problem_summary(b"{}"), None);
        let long = format!(r#"{{"title": "{}\u0000x"}}"#, "a".repeat(500));
        assert_eq!(problem_summary(long.as_bytes()).unwrap().len(), 120);
    }
}
