//! A real HTTPS webhook receiver for the tests and the delivery benchmark: a certificate for
//! `localhost`, 127.0.0.1 and ::1 issued by a throwaway test CA (whose PEM file the server is
//! given as `PIXGATE_WEBHOOK_CA_FILE`), recording every request it gets and answering from
//! a script of statuses.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

/// A test CA and a `localhost` certificate it issued.
pub struct TestCa {
    dir: tempfile::TempDir,
    server_chain: Vec<CertificateDer<'static>>,
    server_key: Vec<u8>,
}

impl TestCa {
    pub fn new() -> Self {
        let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(DnType::CommonName, "pixgate test CA");
        ca.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca_key = KeyPair::generate().unwrap();
        let ca_cert = ca.self_signed(&ca_key).unwrap();
        let issuer = Issuer::new(ca, ca_key);

        let mut leaf = CertificateParams::new(vec![
            "localhost".to_owned(),
            "127.0.0.1".to_owned(),
            "::1".to_owned(),
        ])
        .unwrap();
        leaf.distinguished_name
            .push(DnType::CommonName, "localhost");
        let leaf_key = KeyPair::generate().unwrap();
        let leaf_cert = leaf.signed_by(&leaf_key, &issuer).unwrap();

        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ca.pem"), ca_cert.pem()).unwrap();
        Self {
            dir,
            server_chain: vec![leaf_cert.der().clone(), ca_cert.der().clone()],
            server_key: leaf_key.serialize_der(),
        }
    }

    /// The CA's PEM file, for `PIXGATE_WEBHOOK_CA_FILE`.
    pub fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    fn acceptor(&self) -> TlsAcceptor {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(
                self.server_chain.clone(),
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.server_key.clone())),
            )
            .unwrap();
        TlsAcceptor::from(Arc::new(config))
    }
}

impl Default for TestCa {
    fn default() -> Self {
        Self::new()
    }
}

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    /// Lower-case names.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub at: SystemTime,
    pub instant: Instant,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

#[derive(Default)]
struct Shared {
    received: Vec<Received>,
    /// Statuses to answer next, in order; then `default_status`.
    script: VecDeque<u16>,
    default_status: u16,
    /// Answer this to the first request of each delivery id, then go on as usual.
    fail_first: Option<u16>,
    seen: std::collections::HashSet<String>,
    /// How long to hold each request before answering.
    delay: Duration,
    /// Requests being answered now, and the most there ever were at once.
    in_flight: usize,
    max_in_flight: usize,
}

/// The receiver; it stops when dropped.
#[derive(Clone)]
pub struct Receiver {
    pub addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    /// Stops the accept loop when the last clone is dropped.
    _task: Arc<AbortOnDrop>,
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Receiver {
    /// Listens on 127.0.0.1, port 0, answering 200 until told otherwise.
    pub async fn start(ca: &TestCa) -> Self {
        Self::start_on(ca, "127.0.0.1:0").await
    }

    pub async fn start_on(ca: &TestCa, addr: &str) -> Self {
        let listener = TcpListener::bind(addr).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Mutex::new(Shared {
            default_status: 200,
            ..Shared::default()
        }));
        let acceptor = ca.acceptor();
        let task = {
            let shared = shared.clone();
            tokio::spawn(async move {
                loop {
                    let Ok((tcp, _)) = listener.accept().await else {
                        continue;
                    };
                    let _ = tcp.set_nodelay(true);
                    let acceptor = acceptor.clone();
                    let shared = shared.clone();
                    tokio::spawn(async move {
                        let Ok(tls) = acceptor.accept(tcp).await else {
                            return;
                        };
                        let service =
                            hyper::service::service_fn(move |req| handle(shared.clone(), req));
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(TokioIo::new(tls), service)
                            .await;
                    });
                }
            })
        };
        Self {
            addr,
            shared,
            _task: Arc::new(AbortOnDrop(task)),
        }
    }

    /// `https://localhost:<port><path>` (a name the server resolves to loopback).
    pub fn url(&self, path: &str) -> String {
        format!("https://localhost:{}{path}", self.addr.port())
    }

    /// `https://127.0.0.1:<port><path>`.
    pub fn ip_url(&self, path: &str) -> String {
        format!("https://127.0.0.1:{}{path}", self.addr.port())
    }

    /// Answers these statuses to the next requests, in order.
    pub fn script(&self, statuses: &[u16]) {
        self.shared.lock().unwrap().script.extend(statuses);
    }

    /// Answers `status` to the first request of every delivery (by `X-Service-Delivery`).
    pub fn fail_first_attempt_with(&self, status: u16) {
        self.shared.lock().unwrap().fail_first = Some(status);
    }

    /// Answers this status once the script is used up.
    pub fn answer(&self, status: u16) {
        self.shared.lock().unwrap().default_status = status;
    }

    /// Holds every request this long before answering it.
    pub fn delay(&self, delay: Duration) {
        self.shared.lock().unwrap().delay = delay;
    }

    /// The most requests the receiver was answering at once.
    pub fn max_in_flight(&self) -> usize {
        self.shared.lock().unwrap().max_in_flight
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.lock().unwrap().received.clone()
    }

    pub fn count(&self) -> usize {
        self.shared.lock().unwrap().received.len()
    }

    /// Waits until at least `n` requests arrived; panics after `timeout`.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Received> {
        let deadline = Instant::now() + timeout;
        loop {
            let received = self.received();
            if received.len() >= n {
                return received;
            }
            assert!(
                Instant::now() < deadline,
                "the receiver got {} of {n} requests within {timeout:?}",
                received.len()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

async fn handle(
    shared: Arc<Mutex<Shared>>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = req.uri().path().to_owned();
    let headers = req
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                v.to_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let delivery = req
        .headers()
        .get("x-service-delivery")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = match req.into_body().collect().await {
        Ok(body) => body.to_bytes().to_vec(),
        Err(_) => Vec::new(),
    };
    let (status, delay) = {
        let mut shared = shared.lock().unwrap();
        shared.in_flight += 1;
        shared.max_in_flight = shared.max_in_flight.max(shared.in_flight);
        let first_of_delivery = shared.seen.insert(delivery);
        let fail_first = shared.fail_first.filter(|_| first_of_delivery);
        shared.received.push(Received {
            path,
            headers,
            body,
            at: SystemTime::now(),
            instant: Instant::now(),
        });
        let default = shared.default_status;
        let status = fail_first.unwrap_or_else(|| shared.script.pop_front().unwrap_or(default));
        (status, shared.delay)
    };
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    shared.lock().unwrap().in_flight -= 1;
    let mut response = Response::builder().status(status);
    if (300..400).contains(&status) {
        response = response.header("location", "/redirected");
    }
    Ok(response.body(Full::new(Bytes::from_static(b"ok"))).unwrap())
}
