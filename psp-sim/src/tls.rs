//! The simulator's TLS: a server certificate given by flags or issued by a CA it generates,
//! and optionally mTLS, as the API Pix requires of real PSPs.
//!
//! Generated material is written as PEM files into one directory, so the test or the pixgate
//! instance on the other side can trust the CA and present the client certificate without
//! any manual step: `ca.pem`, `server.pem`, `server-key.pem`, `client.pem`, `client-key.pem`.
//! The CA's key is never written: nothing else can be issued under it once the simulator stops.

use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

use super::SimError;

/// What the server presents and whom it lets in.
pub(super) struct TlsSetup {
    pub config: rustls::ServerConfig,
    /// Where generated PEM files were written, if any were.
    pub cert_dir: Option<PathBuf>,
}

/// The TLS options of `pixgate psp-sim`, as parsed.
pub(super) struct TlsOptions<'a> {
    pub cert: Option<&'a Path>,
    pub key: Option<&'a Path>,
    pub mtls: bool,
    pub client_ca: Option<&'a Path>,
    pub cert_dir: Option<&'a Path>,
    /// More names for a generated server certificate.
    pub cert_names: &'a [String],
    pub listen: SocketAddr,
}

/// A CA generated for this run, able to issue the server and client certificates.
struct Generated {
    ca_pem: String,
    issuer: Issuer<'static, KeyPair>,
}

impl Generated {
    fn new() -> Result<Self, SimError> {
        let mut ca = CertificateParams::new(Vec::<String>::new()).map_err(cert_error)?;
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(DnType::CommonName, "pixgate psp-sim CA");
        ca.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let key = KeyPair::generate().map_err(cert_error)?;
        let cert = ca.self_signed(&key).map_err(cert_error)?;
        Ok(Self {
            ca_pem: cert.pem(),
            issuer: Issuer::new(ca, key),
        })
    }

    /// A leaf certificate and its key, as PEM.
    fn issue(
        &self,
        names: Vec<String>,
        common_name: &str,
        usage: ExtendedKeyUsagePurpose,
    ) -> Result<(String, String), SimError> {
        let mut params = CertificateParams::new(names).map_err(cert_error)?;
        params
            .distinguished_name
            .push(DnType::CommonName, common_name);
        params.extended_key_usages = vec![usage];
        let key = KeyPair::generate().map_err(cert_error)?;
        let cert = params.signed_by(&key, &self.issuer).map_err(cert_error)?;
        Ok((cert.pem(), key.serialize_pem()))
    }
}

fn cert_error(e: rcgen::Error) -> SimError {
    SimError::Certificate(e.to_string())
}

/// Builds the server's TLS configuration, generating and writing what the flags leave out.
pub(super) fn setup(options: &TlsOptions<'_>) -> Result<TlsSetup, SimError> {
    let needs_ca = options.cert.is_none() || (options.mtls && options.client_ca.is_none());
    let generated = needs_ca.then(Generated::new).transpose()?;
    let cert_dir = match (&generated, options.cert_dir) {
        (None, _) => None,
        (Some(_), Some(dir)) => Some(dir.to_owned()),
        // Per process, so two simulators never overwrite each other's files.
        (Some(_), None) => {
            Some(std::env::temp_dir().join(format!("pixgate-psp-sim-{}", std::process::id())))
        }
    };
    if let (Some(generated), Some(dir)) = (&generated, &cert_dir) {
        std::fs::create_dir_all(dir).map_err(|e| SimError::Io(dir.clone(), e))?;
        write_file(&dir.join("ca.pem"), &generated.ca_pem, false)?;
        // A client certificate whenever there is a generated CA: with --mtls it is the one
        // pixgate must present; without, it is harmless.
        let (client, client_key) = generated.issue(
            Vec::new(),
            "pixgate psp-sim client",
            ExtendedKeyUsagePurpose::ClientAuth,
        )?;
        write_file(&dir.join("client.pem"), &client, false)?;
        write_file(&dir.join("client-key.pem"), &client_key, true)?;
    }

    let (chain, key) = match (options.cert, options.key, &generated, &cert_dir) {
        (Some(cert), Some(key), _, _) => (read_certs(cert)?, read_key(key)?),
        (None, None, Some(generated), Some(dir)) => {
            let mut names = vec![
                "localhost".to_owned(),
                "127.0.0.1".to_owned(),
                "::1".to_owned(),
            ];
            let ip = options.listen.ip();
            if !ip.is_unspecified() && !names.contains(&ip.to_string()) {
                names.push(ip.to_string());
            }
            names.extend(options.cert_names.iter().cloned());
            let (cert, key) = generated.issue(
                names,
                "pixgate psp-sim",
                ExtendedKeyUsagePurpose::ServerAuth,
            )?;
            write_file(&dir.join("server.pem"), &cert, false)?;
            write_file(&dir.join("server-key.pem"), &key, true)?;
            let mut chain = parse_certs(cert.as_bytes(), "generated server certificate")?;
            chain.extend(parse_certs(generated.ca_pem.as_bytes(), "generated CA")?);
            (chain, parse_key(key.as_bytes(), "generated server key")?)
        }
        _ => {
            return Err(SimError::Usage("--cert and --key go together".to_owned()));
        }
    };

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| SimError::Tls(e.to_string()))?;
    let builder = if options.mtls {
        let mut roots = rustls::RootCertStore::empty();
        let cas = match (options.client_ca, &generated) {
            (Some(path), _) => read_certs(path)?,
            (None, Some(generated)) => parse_certs(generated.ca_pem.as_bytes(), "generated CA")?,
            (None, None) => return Err(SimError::Usage("--mtls needs a client CA".to_owned())),
        };
        for ca in cas {
            roots.add(ca).map_err(|e| SimError::Tls(e.to_string()))?;
        }
        let verifier =
            rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|e| SimError::Tls(e.to_string()))?;
        builder.with_client_cert_verifier(verifier)
    } else {
        builder.with_no_client_auth()
    };
    let mut config = builder
        .with_single_cert(chain, key)
        .map_err(|e| SimError::Tls(e.to_string()))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsSetup { config, cert_dir })
}

/// Writes a PEM file; keys readable by the owner only.
fn write_file(path: &Path, contents: &str, secret: bool) -> Result<(), SimError> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if secret {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = secret;
    options
        .open(path)
        .and_then(|mut f| f.write_all(contents.as_bytes()))
        .map_err(|e| SimError::Io(path.to_owned(), e))
}

fn read_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>, SimError> {
    let bytes = std::fs::read(path).map_err(|e| SimError::Io(path.to_owned(), e))?;
    parse_certs(&bytes, &path.display().to_string())
}

fn parse_certs(pem: &[u8], what: &str) -> Result<Vec<CertificateDer<'static>>, SimError> {
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| SimError::Tls(format!("{what}: {e}")))?;
    if certs.is_empty() {
        return Err(SimError::Tls(format!("{what}: no certificate")));
    }
    Ok(certs)
}

fn read_key(path: &Path) -> Result<PrivateKeyDer<'static>, SimError> {
    let bytes = std::fs::read(path).map_err(|e| SimError::Io(path.to_owned(), e))?;
    parse_key(&bytes, &path.display().to_string())
}

fn parse_key(pem: &[u8], what: &str) -> Result<PrivateKeyDer<'static>, SimError> {
    PrivateKeyDer::from_pem_slice(pem).map_err(|e| SimError::Tls(format!("{what}: {e}")))
}

/// A listener that hands axum connections whose TLS handshake is done.
///
/// Handshakes run in their own tasks, so a client that connects and says nothing (or a
/// scanner) cannot hold up the connections behind it; one that takes longer than ten seconds
/// is dropped. Accepting stops when the listener is dropped.
pub(super) struct TlsListener {
    connections: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    local: SocketAddr,
    accept_loop: tokio::task::JoinHandle<()>,
}

impl TlsListener {
    pub fn new(listener: TcpListener, config: rustls::ServerConfig) -> io::Result<Self> {
        let local = listener.local_addr()?;
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let (tx, connections) = mpsc::channel(64);
        let accept_loop = tokio::spawn(async move {
            loop {
                let (tcp, peer) = match listener.accept().await {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of file descriptors and the like: wait rather than spin.
                        tracing::warn!("psp-sim: accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                let _ = tcp.set_nodelay(true);
                let acceptor = acceptor.clone();
                let tx = tx.clone();
                tokio::spawn(async move {
                    match tokio::time::timeout(Duration::from_secs(10), acceptor.accept(tcp)).await
                    {
                        Ok(Ok(tls)) => {
                            let _ = tx.send((tls, peer)).await;
                        }
                        Ok(Err(e)) => tracing::debug!("psp-sim: TLS handshake with {peer}: {e}"),
                        Err(_) => tracing::debug!("psp-sim: TLS handshake with {peer} timed out"),
                    }
                });
            }
        });
        Ok(Self {
            connections,
            local,
            accept_loop,
        })
    }
}

impl Drop for TlsListener {
    fn drop(&mut self) {
        self.accept_loop.abort();
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.connections.recv().await {
            Some(connection) => connection,
            // The accept loop only ends when this listener is dropped.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        Ok(self.local)
    }
}
