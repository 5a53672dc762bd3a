//! The simulator's side of the standard's callback: after a payment, and after a devolução
//! settles (the pix then carries its `devolucoes[]`), `POST {webhookUrl}/pix` with
//! `{"pix": [...]}`, steered by the callback switches (drop, duplicate, hold) so a test
//! can make callbacks go missing, arrive twice, late, out of order or batched.
//!
//! Delivery is one attempt, no retry: a real PSP's retry schedule is its own, and pixgate must
//! not depend on callbacks anyway (its reconciler re-reads pending charges). Every attempt is
//! recorded for `GET /_sim/callbacks`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::SimError;
use super::api::loopback_url;
use super::state::{Delivery, Sim, State, now_ms};
use pixgate_pix::apipix::{Pix, PixCallback};

/// The HTTP client callbacks are posted with.
pub(super) struct Sender {
    pub(super) client: reqwest::Client,
}

impl Sender {
    /// Trusts Mozilla's roots plus `ca_file` (the receiver's test CA).
    pub fn new(ca_file: Option<&Path>) -> Result<Self, SimError> {
        use rustls::pki_types::CertificateDer;
        use rustls::pki_types::pem::PemObject;

        let mut roots = rustls::RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        if let Some(path) = ca_file {
            let bytes = std::fs::read(path).map_err(|e| SimError::Io(path.to_owned(), e))?;
            let mut added = 0;
            for cert in CertificateDer::pem_slice_iter(&bytes) {
                let cert = cert.map_err(|e| SimError::Tls(format!("{}: {e}", path.display())))?;
                roots
                    .add(cert)
                    .map_err(|e| SimError::Tls(format!("{}: {e}", path.display())))?;
                added += 1;
            }
            if added == 0 {
                return Err(SimError::Tls(format!(
                    "{}: no certificate in the file",
                    path.display()
                )));
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| SimError::Tls(e.to_string()))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        tls.alpn_protocols = vec![b"http/1.1".to_vec()];
        let client = reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .retry(reqwest::retry::never())
            .timeout(Duration::from_secs(5))
            .user_agent(concat!("pixgate-psp-sim/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| SimError::Client(e.to_string()))?;
        Ok(Self { client })
    }
}

/// A pix was received for a charge of `chave`, or one of its devoluções settled: send, drop or
/// hold its callback as the switches say. Called with the state locked, so the decision and
/// the change are one step;
/// the sending itself runs in its own task.
pub(super) fn notify(sim: &Arc<Sim>, state: &mut State, chave: &str, pix: Pix) {
    // A recurring charge's pix has no key: its charge is called back through /webhookcobr.
    if chave == super::rec::COBR_PIX_KEY {
        super::rec::callbacks::notify_cobr_of_pix(sim, state, &pix);
        return;
    }
    // No webhook for the key: the standard sends nothing.
    let Some(webhook) = state.webhooks.get(chave) else {
        return;
    };
    let url = webhook.url.clone();
    let switches = state.switches.callbacks.clone();
    if switches.drop {
        state.stats.callbacks.dropped += 1;
        return;
    }
    if switches.hold {
        state.held.push((url, pix));
        state.stats.callbacks.held += 1;
        return;
    }
    let times = if switches.duplicate { 2 } else { 1 };
    let sim = sim.clone();
    tokio::spawn(async move {
        for _ in 0..times {
            post(&sim, &url, vec![pix.clone()]).await;
        }
    });
}

/// Posts one callback and records how it went.
pub(super) async fn post(sim: &Sim, webhook_url: &str, pix: Vec<Pix>) -> Delivery {
    // The standard appends `/pix` to the registered URL; one trailing slash is not doubled.
    let target = format!("{}/pix", webhook_url.trim_end_matches('/'));
    let end_to_end_ids = pix.iter().map(|p| p.end_to_end_id.clone()).collect();
    let result = match loopback_url(&target) {
        Err(e) => Err(e),
        Ok(url) => sim
            .callbacks
            .client
            .post(url)
            .json(&PixCallback { pix })
            .send()
            .await
            .map(|response| response.status().as_u16())
            .map_err(|e| e.to_string()),
    };
    let delivery = Delivery {
        url: target,
        end_to_end_ids,
        status: result.as_ref().ok().copied(),
        error: result.err(),
        at_ms: now_ms(),
    };
    let mut state = sim.state();
    if delivery.status.is_some_and(|s| (200..300).contains(&s)) {
        state.stats.callbacks.delivered += 1;
    } else {
        state.stats.callbacks.failed += 1;
    }
    state.deliveries.push(delivery.clone());
    delivery
}
