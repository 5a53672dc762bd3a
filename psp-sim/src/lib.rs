//! `pixgate psp-sim`: a PSP that speaks the API Pix subset pixgate relies on (DESIGN §10), in
//! memory, with control routes that make it misbehave on purpose.
//!
//! pixgate must work with any PSP that follows the Central Bank's standard, and its failure
//! handling (retries, idempotent re-creation, missed or duplicated callbacks, expiry) can only
//! be proven against a PSP that fails on demand. The simulator is that PSP: it serves
//! `POST /oauth/token`, and under `/api/v2` `PUT|GET|PATCH /cob/{txid}`, `PUT|GET|PATCH
//! /cobv/{txid}`, `PUT|GET /lotecobv/{id}`, `GET /pix/{e2eid}`,
//! `PUT|GET /pix/{e2eid}/devolucao/{id}` and `PUT|GET|DELETE /webhook/{chave}`, and Pix
//! Automático's `/locrec`, `/rec`, `/solicrec`, `/cobr`, `/webhookrec` and `/webhookcobr`
//! (`rec/`), with the standard's bodies ([`pixgate_pix::apipix`]) and problem+json errors, and
//! the payer PSP's view of a charge with a due date at its location's path (`GET
//! {path}/cobv/{token}?DPP`, the amount due computed by pixgate's own
//! [`pixgate_domain::due::amount_due`]); it builds each charge's BR Code with [`pixgate_pix::brcode::dynamic`], and posts `{"pix": [...]}` to
//! `{webhookUrl}/pix` when a charge is paid and when a devolução settles. Everything about it
//! a test needs to steer or observe is under `/_sim/` (see this crate's `README.md`): paying
//! (with the right or a wrong amount, a charge with a due date on a given date), removing,
//! expiring, devoluções that settle late or not
//! at all and the MED's, latency, 5xx, hangs, lost answers, dropped, duplicated, held and
//! reordered or batched callbacks, and counters that prove "one charge at the PSP" and
//! "never more given back than was paid".
//!
//! It serves https with a certificate it is given or one it issues from a CA it generates
//! (written as PEM files for the other side to trust), optionally requiring client
//! certificates (mTLS), or plain http on a loopback address for demos. It posts callbacks to
//! loopback addresses only: it is a test tool, and must never become a way to make requests
//! elsewhere.

mod api;
mod callbacks;
mod cobv;
mod control;
mod devolucao;
mod pix_list;
mod rec;
mod state;
mod tls;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;

use state::Sim;

/// A `cobv`'s wire terms as pixgate's `DueTerms` and back, and the amount due on the wire
/// (`componentesValor`, the payload's `valor`): what the simulator computes with, for pixgate's
/// PSP side to share.
pub use cobv::terms as cobv_terms;

/// The options of `pixgate psp-sim`.
#[derive(Debug, Clone, clap::Args)]
pub struct SimArgs {
    /// Address to listen on; port 0 lets the system pick (the `listening on` line says which).
    #[arg(long, default_value = "127.0.0.1:8443")]
    pub listen: SocketAddr,
    /// Serve plain http instead of https (loopback addresses only; for demos).
    #[arg(long, conflicts_with_all = ["cert", "key", "mtls"])]
    pub plain_http: bool,
    /// Server certificate chain (PEM); generated with a new CA when not given.
    #[arg(long, requires = "key")]
    pub cert: Option<PathBuf>,
    /// The server certificate's private key (PEM).
    #[arg(long, requires = "cert")]
    pub key: Option<PathBuf>,
    /// Require client certificates (mTLS), issued by --client-ca or by the generated CA.
    #[arg(long)]
    pub mtls: bool,
    /// CA (PEM) that client certificates must chain to.
    #[arg(long, requires = "mtls")]
    pub client_ca: Option<PathBuf>,
    /// Where generated certificates go: ca.pem, server.pem, server-key.pem, client.pem,
    /// client-key.pem (default: a new directory under the system's temporary directory).
    #[arg(long)]
    pub cert_dir: Option<PathBuf>,
    /// Another name the generated server certificate is for, besides localhost and the
    /// loopback addresses (repeatable): the simulator's host name where pixgate reaches it by
    /// name, as a compose service (`--cert-name psp-sim`).
    #[arg(long = "cert-name", value_name = "NAME", conflicts_with = "cert")]
    pub cert_names: Vec<String>,
    /// Extra CA (PEM) to trust when posting callbacks over https.
    #[arg(long)]
    pub callback_ca: Option<PathBuf>,
    /// OAuth2 client id accepted at /oauth/token.
    #[arg(long, default_value = "psp-sim-client")]
    pub client_id: String,
    /// OAuth2 client secret accepted at /oauth/token.
    #[arg(long, default_value = "psp-sim-secret")]
    pub client_secret: String,
    /// Lifetime of access tokens, seconds.
    #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub token_expires_in: u64,
    /// Receiver name in the BR Codes (made plain ASCII, at most 25 characters).
    #[arg(long, default_value = "PSP SIM RECEBEDOR")]
    pub merchant_name: String,
    /// Receiver city in the BR Codes (plain ASCII, at most 15 characters).
    #[arg(long, default_value = "SAO PAULO")]
    pub merchant_city: String,
    /// Host and path under which charges' locations are made up. A `cob`'s is never served
    /// (the BR Code only has to carry it); a `cobv`'s, `{base}/cobv/{token}`, is served at its
    /// path (`/qr/v2/cobv/{token}` by default) on the simulator's own address. The path must be
    /// plain segments (`[A-Za-z0-9._~-]`) not under `/api`, `/_sim` or `/oauth`.
    #[arg(long, default_value = "pix.example.com/qr/v2")]
    pub location_base: String,
    /// ISPB (8 digits) of the paying PSP, in the endToEndIds of simulated payments.
    #[arg(long, default_value = "12345678")]
    pub payer_ispb: String,
    /// ISPB (8 digits) of the simulated PSP itself, in the rtrIds of its devoluções.
    #[arg(long, default_value = "87654321")]
    pub ispb: String,
}

/// Why the simulator cannot start.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("{0}")]
    Usage(String),
    #[error("{path}: {error}", path = .0.display(), error = .1)]
    Io(PathBuf, std::io::Error),
    #[error("cannot listen on {0}: {1}")]
    Listen(SocketAddr, std::io::Error),
    #[error("certificate generation failed: {0}")]
    Certificate(String),
    #[error("TLS: {0}")]
    Tls(String),
    #[error("the HTTP client for callbacks: {0}")]
    Client(String),
}

/// A simulator bound to its address, ready to serve.
pub struct PspSim {
    /// `https://127.0.0.1:PORT` (or `http://`).
    pub origin: String,
    /// Where generated certificates were written, when any were.
    pub cert_dir: Option<PathBuf>,
    listener: Listener,
    router: axum::Router,
}

enum Listener {
    Plain(TcpListener),
    Tls(tls::TlsListener),
}

impl PspSim {
    /// Checks the options, prepares TLS and binds the address.
    pub async fn bind(args: &SimArgs) -> Result<Self, SimError> {
        if args.plain_http && !args.listen.ip().is_loopback() {
            return Err(SimError::Usage(
                "--plain-http serves loopback addresses only".to_owned(),
            ));
        }
        let sim = Arc::new(Sim::new(args)?);
        let tcp = TcpListener::bind(args.listen)
            .await
            .map_err(|e| SimError::Listen(args.listen, e))?;
        let local = tcp
            .local_addr()
            .map_err(|e| SimError::Listen(args.listen, e))?;
        let router = api::router(sim.clone()).merge(control::router(sim));
        let (scheme, listener, cert_dir) = if args.plain_http {
            ("http", Listener::Plain(tcp), None)
        } else {
            let setup = tls::setup(&tls::TlsOptions {
                cert: args.cert.as_deref(),
                key: args.key.as_deref(),
                mtls: args.mtls,
                client_ca: args.client_ca.as_deref(),
                cert_dir: args.cert_dir.as_deref(),
                cert_names: &args.cert_names,
                listen: local,
            })?;
            let listener = tls::TlsListener::new(tcp, setup.config)
                .map_err(|e| SimError::Listen(args.listen, e))?;
            ("https", Listener::Tls(listener), setup.cert_dir)
        };
        Ok(Self {
            origin: format!("{scheme}://{local}"),
            cert_dir,
            listener,
            router,
        })
    }

    /// Serves until `shutdown` completes. In-flight requests are not waited for: a hung
    /// request (a fault the simulator was told to inject) would otherwise hold the exit.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> std::io::Result<()> {
        let serve = async move {
            match self.listener {
                Listener::Plain(tcp) => axum::serve(tcp, self.router).await,
                Listener::Tls(tls) => axum::serve(tls, self.router).await,
            }
        };
        tokio::select! {
            result = serve => result,
            () = shutdown => Ok(()),
        }
    }
}
