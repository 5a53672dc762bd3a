//! OpenTelemetry traces over OTLP/HTTP (DESIGN.md section 19), off unless
//! `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set; the standard
//! `OTEL_*` variables configure the rest (service name and resource, sampler, batching,
//! headers, timeout, gzip).
//!
//! The spans are `tracing`'s, exported by `tracing-opentelemetry` at `info` whatever
//! `PIXGATE_LOG` says: each request (`http/`), the services' calls, each chain step (the
//! sandbox crate), the database transaction a charge waits for, each PSP call and each
//! webhook delivery. A caller's `traceparent` becomes the request span's parent, and PSP calls
//! and webhook deliveries send the current span's ([`inject`]). Span fields are ids, codes and
//! numbers only: no payer data, URL, key or secret is ever a field.

use std::time::Duration;

use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_http::{Bytes, HttpClient, HttpError, Request, Response};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::Layer;
use tracing_subscriber::registry::LookupSpan;

/// Why the exporter could not be set up: `serve` stops rather than run without the traces
/// the operator asked for.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error(
        "{0}=`{1}`: pixgate exports traces over OTLP/HTTP with protobuf; set it to `http/protobuf` or unset it"
    )]
    Protocol(&'static str, String),
    #[error("{0}=`{1}` is not a number of milliseconds")]
    Timeout(&'static str, String),
    #[error("the OTLP exporter")]
    Exporter(#[source] opentelemetry_otlp::ExporterBuildError),
    #[error("the OTLP exporter's HTTP client")]
    Client(#[source] reqwest::Error),
}

/// The exporter while it runs; [`Exporting::shutdown`] sends what is still batched.
pub struct Exporting {
    provider: SdkTracerProvider,
}

impl Exporting {
    /// Flushes the batch and stops the exporter (at the end of `serve`).
    pub fn shutdown(self) {
        if let Err(e) = self.provider.shutdown() {
            eprintln!("pixgate: flushing the last traces failed: {e}");
        }
    }
}

/// The layer that exports spans, when the environment asks for traces; `runtime` runs the
/// exporter's HTTP calls.
#[allow(clippy::type_complexity)]
pub fn layer<S>(
    runtime: &tokio::runtime::Handle,
) -> Result<Option<(Box<dyn Layer<S> + Send + Sync>, Exporting)>, TelemetryError>
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a> + Send + Sync,
{
    if !enabled(|name| std::env::var(name).ok()) {
        return Ok(None);
    }
    for name in [
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
        "OTEL_EXPORTER_OTLP_PROTOCOL",
    ] {
        if let Some(value) = set(name)
            && value != "http/protobuf"
        {
            return Err(TelemetryError::Protocol(name, value));
        }
    }
    let mut timeout = Duration::from_secs(10);
    for name in [
        "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
        "OTEL_EXPORTER_OTLP_TIMEOUT",
    ] {
        if let Some(value) = set(name) {
            let ms: u64 = value
                .trim()
                .parse()
                .map_err(|_| TelemetryError::Timeout(name, value.clone()))?;
            timeout = Duration::from_millis(ms);
            break;
        }
    }
    let tls = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("ring supports the default protocol versions")
    .with_root_certificates(rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    })
    .with_no_client_auth();
    let client = reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .timeout(timeout)
        .build()
        .map_err(TelemetryError::Client)?;
    use opentelemetry_otlp::{WithExportConfig as _, WithHttpConfig as _};
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_protocol(opentelemetry_otlp::Protocol::HttpBinary)
        .with_timeout(timeout)
        .with_http_client(OnRuntime {
            client,
            runtime: runtime.clone(),
        })
        .build()
        .map_err(TelemetryError::Exporter)?;
    let mut resource = Resource::builder().with_attribute(opentelemetry::KeyValue::new(
        "service.version",
        env!("CARGO_PKG_VERSION"),
    ));
    // The SDK reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES; without either naming the
    // service it would be `unknown_service`.
    let named = set("OTEL_SERVICE_NAME").is_some()
        || set("OTEL_RESOURCE_ATTRIBUTES").is_some_and(|a| a.contains("service.name="));
    if !named {
        resource = resource.with_service_name("pixgate");
    }
    // The batch processor reads OTEL_BSP_*, the provider OTEL_TRACES_SAMPLER(_ARG).
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(resource.build())
        .build();
    let tracer = provider.tracer("pixgate");
    // The chain's step spans are at debug (sandbox/src/chain.rs), so that they cost nothing
    // when traces are off; the exporter takes them.
    let filter = tracing_subscriber::EnvFilter::new("info,pixgate_sandbox::chain=debug");
    let layer = tracing_opentelemetry::layer()
        .with_tracer(tracer)
        .with_filter(filter)
        .boxed();
    Ok(Some((layer, Exporting { provider })))
}

/// Traces are exported when an endpoint is set, unless the SDK is disabled or the exporter
/// is `none` (the specification's switches).
fn enabled(var: impl Fn(&str) -> Option<String>) -> bool {
    let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
    let endpoint = set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .or_else(|| set("OTEL_EXPORTER_OTLP_ENDPOINT"))
        .is_some();
    let disabled = set("OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true"));
    let none = set("OTEL_TRACES_EXPORTER").is_some_and(|v| v.trim().eq_ignore_ascii_case("none"));
    endpoint && !disabled && !none
}

fn set(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The W3C trace context of `span` as headers (`traceparent`, and `tracestate` when the
/// caller sent one), for a request leaving pixgate; empty when traces are off.
pub fn inject(span: &tracing::Span) -> reqwest::header::HeaderMap {
    let mut headers = reqwest::header::HeaderMap::new();
    let context = span.context();
    TraceContextPropagator::new().inject_context(
        &context,
        &mut opentelemetry_http::HeaderInjector(&mut headers),
    );
    headers
}

/// Makes a caller's `traceparent` (and `tracestate`) the parent of `span`. Nothing happens
/// when there is none, it is malformed, or traces are off.
pub fn adopt(span: &tracing::Span, headers: &http::HeaderMap) {
    if !headers.contains_key("traceparent") {
        return;
    }
    let parent =
        TraceContextPropagator::new().extract(&opentelemetry_http::HeaderExtractor(headers));
    // A span with no OpenTelemetry layer under it has nothing to set: the error says so.
    let _ = span.set_parent(parent);
}

/// The exporter's HTTP client, run on the service's Tokio runtime: the SDK's batch
/// processor exports from a thread of its own, where reqwest would find no reactor.
#[derive(Debug)]
struct OnRuntime {
    client: reqwest::Client,
    runtime: tokio::runtime::Handle,
}

#[async_trait::async_trait]
impl HttpClient for OnRuntime {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let client = self.client.clone();
        self.runtime
            .spawn(async move { client.send_bytes(request).await })
            .await?
    }
}

#[cfg(test)]
mod tests {
    use super::enabled;

    fn with<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn traces_are_on_only_with_an_endpoint_and_neither_switch() {
        assert!(!enabled(with(&[])));
        assert!(!enabled(with(&[("OTEL_EXPORTER_OTLP_ENDPOINT", " ")])));
        assert!(enabled(with(&[(
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            "http://collector:4318"
        )])));
        assert!(enabled(with(&[(
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "http://collector:4318/v1/traces"
        )])));
        assert!(!enabled(with(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"),
            ("OTEL_SDK_DISABLED", "TRUE"),
        ])));
        assert!(!enabled(with(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"),
            ("OTEL_TRACES_EXPORTER", "none"),
        ])));
        assert!(enabled(with(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"),
            ("OTEL_SDK_DISABLED", "false"),
            ("OTEL_TRACES_EXPORTER", "otlp"),
        ])));
    }
}
