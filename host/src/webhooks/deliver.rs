//! One signed delivery attempt: headers and signature per spec 6.2-6.3, success only on a 2xx
//! within the timeout, at most a few KB of the answer read.

use std::time::Instant;

use tracing::Instrument as _;

use pixgate_webhook::{DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER};

use super::{Egress, EventType};

/// How much of a receiver's answer is read (to keep the connection reusable); the rest is
/// dropped with the connection.
pub const MAX_RESPONSE_BYTES: usize = 4 * 1024;

/// What one attempt did. `error` is `None` exactly when it succeeded.
#[derive(Debug, Clone)]
pub struct AttemptOutcome {
    pub attempted_at: i64,
    pub duration_ms: i64,
    pub http_status: Option<u16>,
    pub error: Option<String>,
}

impl AttemptOutcome {
    pub fn succeeded(&self) -> bool {
        self.error.is_none()
    }
}

/// What is sent: the stored body bytes, under the delivery's id.
#[derive(Debug, Clone, Copy)]
pub struct Outgoing<'a> {
    pub url: &'a str,
    pub secret: &'a str,
    pub delivery_id: &'a str,
    pub event_type: EventType,
    pub body: &'a str,
}

/// Sends one attempt with a fresh timestamp and signature.
pub async fn attempt(egress: &Egress, out: Outgoing<'_>) -> AttemptOutcome {
    // The receiver's `traceparent` names this span (never the URL: it may hold a token).
    let span = tracing::info_span!(
        "webhook delivery",
        otel.kind = "client",
        otel.status_code = tracing::field::Empty,
        delivery = out.delivery_id,
        event_type = out.event_type.as_str(),
        http.response.status_code = tracing::field::Empty,
    );
    let attempted_at = crate::db::now_ms();
    let started = Instant::now();
    let trace = crate::telemetry::inject(&span);
    let result = send(egress, out, attempted_at, trace)
        .instrument(span.clone())
        .await;
    let duration_ms = started.elapsed().as_millis() as i64;
    if let Ok(status) = result {
        span.record("http.response.status_code", status);
    }
    if !matches!(result, Ok(200..300)) {
        span.record("otel.status_code", "error");
    }
    let (http_status, error) = match result {
        Ok(status) if (200..300).contains(&status) => (Some(status), None),
        Ok(status) if (300..400).contains(&status) => (
            Some(status),
            Some(format!("redirect_not_followed: HTTP {status}")),
        ),
        Ok(status) => (Some(status), Some(format!("http_status: HTTP {status}"))),
        Err(error) => (None, Some(error)),
    };
    AttemptOutcome {
        attempted_at,
        duration_ms,
        http_status,
        error,
    }
}

async fn send(
    egress: &Egress,
    out: Outgoing<'_>,
    attempted_at: i64,
    trace: reqwest::header::HeaderMap,
) -> Result<u16, String> {
    let url = reqwest::Url::parse(out.url).map_err(|e| format!("invalid_url: {e}"))?;
    egress
        .check_url(&url)
        .map_err(|e| refused(e, out.delivery_id))?;
    let timestamp = (attempted_at / 1000) as u64;
    let signature = pixgate_webhook::sign(out.secret, timestamp, out.body.as_bytes());
    let mut response = egress
        .client
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header(EVENT_HEADER, out.event_type.as_str())
        .header(DELIVERY_HEADER, out.delivery_id)
        .header(TIMESTAMP_HEADER, timestamp.to_string())
        .header(SIGNATURE_HEADER, signature)
        .headers(trace)
        .body(out.body.to_owned())
        .send()
        .await
        .map_err(|e| describe(e, out.delivery_id))?;
    let status = response.status().as_u16();
    let mut read = 0;
    while read <= MAX_RESPONSE_BYTES {
        match response.chunk().await {
            Ok(Some(chunk)) => read += chunk.len(),
            Ok(None) => break,
            // The status line arrived; a body cut short or too slow does not undo a 2xx
            // unless it ran past the timeout.
            Err(e) if e.is_timeout() => return Err(describe(e, out.delivery_id)),
            Err(_) => break,
        }
    }
    Ok(status)
}

/// What the merchant sees of a refused or unresolvable target: one code whatever the
/// reason, so that attempts cannot map which internal names resolve or what they resolve to.
/// The operator's log has the reason.
fn refused(detail: super::egress::Refused, delivery_id: &str) -> String {
    if let super::egress::Refused::Other(text) = detail {
        return text;
    }
    tracing::warn!(delivery = delivery_id, reason = %detail, "webhook target refused");
    super::egress::TARGET_REFUSED.to_owned()
}

/// A stable code, then the causes (no URL: merchants put tokens in query strings).
fn describe(e: reqwest::Error, delivery_id: &str) -> String {
    let mut causes = Vec::new();
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(&e);
    while let Some(cause) = source {
        if let Some(detail) = cause.downcast_ref::<super::egress::Refused>() {
            return refused(detail.clone(), delivery_id);
        }
        let text = cause.to_string();
        if !causes.contains(&text) {
            causes.push(text);
        }
        source = cause.source();
    }
    let code = if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        if causes
            .iter()
            .any(|c| c.contains("certificate") || c.contains("TLS") || c.contains("tls"))
        {
            "tls_failed"
        } else {
            "connect_failed"
        }
    } else {
        "request_failed"
    };
    if causes.is_empty() {
        code.to_owned()
    } else {
        format!("{code}: {}", causes.join(": "))
    }
}

#[cfg(test)]
mod tests {
    use super::super::egress::{Blocked, Refused, TARGET_REFUSED};
    use super::refused;

    #[test]
    fn an_unresolvable_and_a_blocked_host_read_the_same_to_the_merchant() {
        let unresolved = Refused::Unresolved {
            host: "metadata.google.internal".into(),
            reason: "no address".into(),
        };
        let blocked = Refused::Blocked(Blocked {
            host: "localhost".into(),
            ip: "127.0.0.1".parse().unwrap(),
            class: "loopback",
        });
        assert_eq!(refused(unresolved, "d1"), TARGET_REFUSED);
        assert_eq!(refused(blocked, "d2"), TARGET_REFUSED);
        let other = Refused::Other("scheme_not_https: x".into());
        assert_eq!(refused(other, "d3"), "scheme_not_https: x");
    }
}
