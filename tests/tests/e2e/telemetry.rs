//! OpenTelemetry traces: pixgate exports over OTLP/HTTP to a real receiver here (it decodes the
//! protobuf), carries a caller's `traceparent` through the request, the chain, the database
//! transaction and the PSP call, and sends its delivery span's to webhook receivers. No payer
//! data, key or secret is an attribute.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use pixgate_e2e::live::{Live, STORE};
use pixgate_e2e::serve_refusing;
use pixgate_e2e::server::{Backend, charge_body};
use pixgate_webhook::DELIVERY_HEADER;
use prost::Message;
use serde_json::Value;
use tokio::net::TcpListener;

/// One exported span, as the receiver decoded it.
#[derive(Debug, Clone)]
struct Span {
    service: String,
    name: String,
    trace_id: String,
    span_id: String,
    parent: String,
    attributes: BTreeMap<String, String>,
}

/// An OTLP/HTTP trace receiver on 127.0.0.1: `POST /v1/traces` with protobuf bodies.
struct Collector {
    addr: SocketAddr,
    spans: Arc<Mutex<Vec<Span>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Collector {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Collector {
    async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let spans = Arc::new(Mutex::new(Vec::new()));
        let task = {
            let spans = spans.clone();
            tokio::spawn(async move {
                loop {
                    let Ok((tcp, _)) = listener.accept().await else {
                        continue;
                    };
                    let spans = spans.clone();
                    tokio::spawn(async move {
                        let service =
                            hyper::service::service_fn(move |req| receive(spans.clone(), req));
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(TokioIo::new(tcp), service)
                            .await;
                    });
                }
            })
        };
        Self { addr, spans, task }
    }

    fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn spans(&self) -> Vec<Span> {
        self.spans.lock().unwrap().clone()
    }

    /// Waits until `found` finds what it wants among the spans exported so far.
    async fn wait_for<T>(&self, what: &str, found: impl Fn(&[Span]) -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(t) = found(&self.spans()) {
                return t;
            }
            assert!(
                Instant::now() < deadline,
                "no {what} among the exported spans: {:#?}",
                self.spans()
                    .iter()
                    .map(|s| (&s.name, &s.trace_id))
                    .collect::<Vec<_>>()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

async fn receive(
    spans: Arc<Mutex<Vec<Span>>>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let answer = |status: u16| {
        Ok(Response::builder()
            .status(status)
            .header("content-type", "application/x-protobuf")
            .body(Full::new(Bytes::new()))
            .unwrap())
    };
    let protobuf = request
        .headers()
        .get("content-type")
        .is_some_and(|v| v == "application/x-protobuf");
    if request.uri().path() != "/v1/traces" || request.method() != "POST" || !protobuf {
        return answer(404);
    }
    let body = request.into_body().collect().await.unwrap().to_bytes();
    let Ok(export) = ExportTraceServiceRequest::decode(body) else {
        return answer(400);
    };
    let mut got = spans.lock().unwrap();
    for resource in export.resource_spans {
        let service = resource
            .resource
            .iter()
            .flat_map(|r| &r.attributes)
            .find(|a| a.key == "service.name")
            .map(|a| text(a.value.as_ref()))
            .unwrap_or_default();
        for scope in resource.scope_spans {
            for span in scope.spans {
                got.push(Span {
                    service: service.clone(),
                    name: span.name,
                    trace_id: hex(&span.trace_id),
                    span_id: hex(&span.span_id),
                    parent: hex(&span.parent_span_id),
                    attributes: span
                        .attributes
                        .iter()
                        .map(|a| (a.key.clone(), text(a.value.as_ref())))
                        .collect(),
                });
            }
        }
    }
    answer(200)
}

fn text(value: Option<&opentelemetry_proto::tonic::common::v1::AnyValue>) -> String {
    match value.and_then(|v| v.value.as_ref()) {
        Some(Any::StringValue(s)) => s.clone(),
        Some(Any::IntValue(i)) => i.to_string(),
        Some(Any::BoolValue(b)) => b.to_string(),
        Some(Any::DoubleValue(d)) => d.to_string(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `00-<trace id>-<span id>-<flags>`: the trace and span ids.
fn traceparent(value: &str) -> (String, String) {
    let parts: Vec<&str> = value.split('-').collect();
    assert_eq!(parts.len(), 4, "not a traceparent: {value}");
    assert_eq!(parts[0], "00", "{value}");
    (parts[1].to_owned(), parts[2].to_owned())
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";

#[tokio::test(flavor = "multi_thread")]
async fn a_live_charge_is_one_trace_from_the_caller_through_the_chain_to_the_psp_and_its_webhooks()
{
    let collector = Collector::start().await;
    let endpoint = collector.endpoint();
    let live = Live::start(
        Backend::Sqlite,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
            ("OTEL_SERVICE_NAME", "pixgate-e2e"),
            ("OTEL_BSP_SCHEDULE_DELAY", "100"),
        ],
    )
    .await;

    // The merchant's own tracing calls pixgate inside its trace.
    let response = live
        .server
        .client
        .post(format!(
            "{}/api/v1/payments/charge",
            live.server.merchant_root()
        ))
        .bearer_auth(&live.key)
        .header("Idempotency-Key", "traced-1")
        .header("traceparent", format!("00-{TRACE}-{CALLER_SPAN}-01"))
        .json(&charge_body(STORE))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let charge: Value = response.json().await.unwrap();
    let data = &charge["data"];
    let intent = data["paymentIntentId"].as_str().unwrap().to_owned();
    let provider = data["routing"]["providerCode"].as_str().unwrap().to_owned();
    let txid = data["pix"]["txid"].as_str().unwrap().to_owned();
    live.sim(&provider)
        .post(&format!("/cob/{txid}/pay"), serde_json::json!({}))
        .await;
    live.wait_status(&intent, "SUCCEEDED", Duration::from_secs(15))
        .await;
    live.wait_events(&intent, &["payment.pending", "payment.succeeded"])
        .await;

    // The request span is the caller's span's child, named by its route.
    let request = collector
        .wait_for("request span in the caller's trace", |spans| {
            spans
                .iter()
                .find(|s| s.trace_id == TRACE && s.parent == CALLER_SPAN)
                .cloned()
        })
        .await;
    assert_eq!(request.name, "POST /api/v1/payments/charge");
    assert_eq!(request.service, "pixgate-e2e");
    assert_eq!(request.attributes["http.response.status_code"], "200");
    assert_eq!(request.attributes["route"], "/api/v1/payments/charge");

    // In the same trace: the charge service with the store and intent, the three chain steps
    // with their component's version, the transaction the charge waited for, the PSP call.
    let in_trace = |name: &'static str| {
        move |spans: &[Span]| {
            let found: Vec<Span> = spans
                .iter()
                .filter(|s| s.trace_id == TRACE && s.name == name)
                .cloned()
                .collect();
            (!found.is_empty()).then_some(found)
        }
    };
    let service = collector
        .wait_for("charge service span", in_trace("create"))
        .await;
    assert_eq!(service[0].attributes["store"], STORE);
    assert_eq!(service[0].attributes["intent"], intent);
    let steps = collector
        .wait_for("chain steps", |spans| {
            let steps: Vec<Span> = spans
                .iter()
                .filter(|s| s.trace_id == TRACE && s.name.starts_with("chain "))
                .cloned()
                .collect();
            (steps.len() == 3).then_some(steps)
        })
        .await;
    let mut names: Vec<&str> = steps.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["chain economics", "chain policy", "chain provider"]);
    for step in &steps {
        assert_eq!(step.attributes["version"].len(), 64, "{step:?}");
        assert_eq!(step.attributes["outcome"], "decided", "{step:?}");
        assert!(step.attributes["fuel_used"].parse::<u64>().unwrap() > 0);
    }
    let transaction = collector
        .wait_for("database transaction", in_trace("db transaction"))
        .await;
    assert_eq!(transaction[0].attributes["db.system.name"], "sqlite");
    let calls = collector
        .wait_for("PSP call", in_trace("psp put_cob"))
        .await;
    assert_eq!(calls[0].attributes["provider"], provider);
    assert_eq!(calls[0].attributes["outcome"], "success");
    // The PSP got the caller's trace, naming the call's span.
    let stats = live.sim(&provider).stats().await;
    let (trace, span) = traceparent(stats["traceparents"]["PUT /cob/{txid}"].as_str().unwrap());
    assert_eq!(trace, TRACE);
    assert_eq!(span, calls[0].span_id);

    // Each delivery's `traceparent` names its exported delivery span.
    for delivery in live.receiver.received() {
        let (trace, span) = traceparent(delivery.header("traceparent").unwrap());
        let id = delivery.header(DELIVERY_HEADER).unwrap().to_owned();
        let exported = collector
            .wait_for("delivery span", |spans| {
                spans
                    .iter()
                    .find(|s| s.span_id == span && s.trace_id == trace)
                    .cloned()
            })
            .await;
        assert_eq!(exported.name, "webhook delivery");
        assert_eq!(exported.attributes["delivery"], id);
        assert_eq!(exported.attributes["http.response.status_code"], "200");
    }

    // Nothing the payer, the merchant or the operator keeps private is an attribute.
    let private = [
        "Ana Souza",
        "529.982.247-25",
        "52998224725",
        "ana.souza@example.com",
        "98765-4321",
        live.key.as_str(),
        live.secret.as_str(),
        live.server.admin_token.as_str(),
        "/hooks/pix",
    ];
    for span in collector.spans() {
        for (key, value) in &span.attributes {
            for secret in private {
                assert!(
                    !value.contains(secret),
                    "span {} has {key}={value}",
                    span.name
                );
            }
        }
    }
}

#[test]
fn a_protocol_other_than_http_protobuf_is_refused_by_name() {
    let (status, stderr) = serve_refusing(&[
        ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9"),
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
    ]);
    assert!(!status.success());
    assert!(
        stderr.contains("OTEL_EXPORTER_OTLP_PROTOCOL") && stderr.contains("http/protobuf"),
        "{stderr}"
    );
}
