//! The API Pix client: one [`PspClient`] per provider speaks the subset of the Central Bank's
//! API Pix that pixgate relies on (DESIGN.md section 10) to any PSP that follows it.
//!
//! - TLS with rustls (ring): Mozilla's roots plus the provider's CA, and its client
//!   certificate when it has one (mTLS). No proxy from the environment, no redirects
//!   followed, no retries by the HTTP stack: every retry is one this module decides.
//! - OAuth2 client credentials: one form POST with HTTP Basic; the token is kept until shortly
//!   before it expires ([`token`]), and on a 401 fetched again once and the call retried once.
//! - Every exchange has a connect and a total timeout, reads at most [`MAX_BODY_BYTES`] of the
//!   answer, and is reported to a [`CallObserver`] (metrics, provider health).
//! - [`PspError`] says what a failure means for the charge ([`PspError::kind`]); no message
//!   carries a secret, a token, a URL or a body the PSP sent beyond its problem type.

mod error;
pub mod tls;
mod token;

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode, header};
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde::de::DeserializeOwned;
use tracing::Instrument as _;
use url::Url;

/// The exchanges' names and endings: one table with the recorded calls'.
pub use crate::db::psp_calls::{CallOperation, CallOutcome};
use crate::psp::charge_kinds::{ChargeRecord, ChargeResource, lotecobv};
pub use error::{ErrorKind, PspError};
use pixgate_pix::apipix::{
    CobStatus, CobrCompleta, CobrRevisada, CobrSolicitada, Devolucao, DevolucaoSolicitada, LocRec,
    LocRecSolicitada, LoteCobVConsultado, LoteCobVSolicitado, Pix, PixConsultados, RecCompleta,
    RecRevisada, RecSolicitada, SolicRec, SolicRecSolicitada, TokenResponse, Txid,
    WebhookSolicitado,
};
use pixgate_pix::time::iso8601;
use token::{CachedToken, TokenCache};

/// The most of a PSP's answer that is read; a charge's JSON is a few KB.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// `pixgate serve` options for calls to PSPs (flags and `PIXGATE_PSP_*` variables).
#[derive(Debug, Clone, clap::Args)]
pub struct PspArgs {
    /// Time to establish a connection (TCP and TLS) to a PSP.
    #[arg(id = "psp_connect_timeout", long = "psp-connect-timeout", value_name = "DURATION", env = "PIXGATE_PSP_CONNECT_TIMEOUT", default_value = "5s",
          value_parser = humantime::parse_duration)]
    pub connect_timeout: Duration,
    /// Time for one whole exchange with a PSP (connect, send, the answer read).
    #[arg(id = "psp_timeout", long = "psp-timeout", value_name = "DURATION", env = "PIXGATE_PSP_TIMEOUT", default_value = "15s",
          value_parser = humantime::parse_duration)]
    pub timeout: Duration,
}

impl Default for PspArgs {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(5),
            timeout: Duration::from_secs(15),
        }
    }
}

/// A secret in memory: never printed by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: String) -> Self {
        Self(value)
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// Everything a client needs to reach one provider, secrets opened.
#[derive(Debug)]
pub struct Endpoint {
    /// The provider's code: metrics labels and log fields.
    pub provider: String,
    /// The API Pix base, e.g. `https://pix.example.com/api/v2` (no trailing slash needed).
    pub api_base: Url,
    pub token_url: Url,
    pub client_id: String,
    pub client_secret: Secret,
    /// The provider's pix key: `chave` of its charges and of its webhook registration.
    pub pix_key: String,
    /// Trusted beside Mozilla's roots.
    pub ca: Vec<CertificateDer<'static>>,
    /// The mTLS client certificate chain and its key.
    pub identity: Option<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)>,
}

/// One exchange, as reported to a [`CallObserver`].
#[derive(Debug, Clone, Copy)]
pub struct CallRecord<'a> {
    pub provider: &'a str,
    pub operation: CallOperation,
    pub outcome: CallOutcome,
    pub elapsed: Duration,
}

/// Receives every exchange a client makes (metrics, provider health).
pub trait CallObserver: Send + Sync {
    fn observe(&self, record: &CallRecord<'_>);
}

/// A PSP's answer: status and body, read within the cap.
struct Answer {
    status: StatusCode,
    retry_after: Option<Duration>,
    body: Vec<u8>,
}

/// The API Pix client of one provider. Cheap to share (`Arc`); calls run concurrently and
/// share one token.
pub struct PspClient {
    provider: String,
    http: reqwest::Client,
    api_base: Url,
    token_url: Url,
    client_id: String,
    client_secret: Secret,
    pix_key: String,
    tokens: TokenCache,
    observer: Arc<dyn CallObserver>,
}

impl std::fmt::Debug for PspClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PspClient")
            .field("provider", &self.provider)
            .finish_non_exhaustive()
    }
}

impl PspClient {
    pub fn new(
        endpoint: Endpoint,
        settings: &PspArgs,
        observer: Arc<dyn CallObserver>,
    ) -> Result<Self, tls::TlsError> {
        let tls = tls::client_config(&endpoint.ca, endpoint.identity)?;
        let http = reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            // The provider's URL is the one spoken to: no proxy from the environment between.
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .retry(reqwest::retry::never())
            .connect_timeout(settings.connect_timeout)
            .timeout(settings.timeout)
            .pool_idle_timeout(Duration::from_secs(60))
            .tcp_nodelay(true)
            .user_agent(concat!("pixgate/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| tls::TlsError::Config(e.to_string()))?;
        Ok(Self {
            provider: endpoint.provider,
            http,
            api_base: endpoint.api_base,
            token_url: endpoint.token_url,
            client_id: endpoint.client_id,
            client_secret: endpoint.client_secret,
            pix_key: endpoint.pix_key,
            tokens: TokenCache::default(),
            observer,
        })
    }

    /// The provider's pix key, where its charges are paid to.
    pub fn pix_key(&self) -> &str {
        &self.pix_key
    }

    /// `PUT /{resource}/{txid}` with `body` (the resource's request): creates the charge, or
    /// answers the one this txid already names. A [`ErrorKind::Transient`] or
    /// [`ErrorKind::Protocol`] failure leaves it unknown whether the charge exists: read it
    /// with [`Self::get_charge`] or put it again (same txid, same charge).
    pub async fn put_charge(
        &self,
        resource: &dyn ChargeResource,
        txid: &Txid,
        body: &serde_json::Value,
    ) -> Result<ChargeRecord, PspError> {
        let operation = resource.operations().put;
        let body = serde_json::to_vec(body).map_err(|e| PspError::Protocol {
            operation,
            detail: format!("the charge does not serialise: {e}"),
        })?;
        let answer = self
            .authorized(
                operation,
                Method::PUT,
                &[resource.path(), txid.as_str()],
                Some(body),
            )
            .await?;
        read_charge(resource, operation, &answer)
    }

    /// `GET /{resource}/{txid}`: the charge as the PSP keeps it, with the pix received.
    pub async fn get_charge(
        &self,
        resource: &dyn ChargeResource,
        txid: &Txid,
    ) -> Result<ChargeRecord, PspError> {
        let operation = resource.operations().get;
        let answer = self
            .authorized(
                operation,
                Method::GET,
                &[resource.path(), txid.as_str()],
                None,
            )
            .await?;
        read_charge(resource, operation, &answer)
    }

    /// `PATCH /{resource}/{txid}` `{"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}`: removes an
    /// unpaid charge. A PSP refuses it for a paid charge (400 `CobOperacaoInvalida`): read
    /// the charge then. A transient failure leaves it unknown whether the removal happened.
    pub async fn remove_charge(
        &self,
        resource: &dyn ChargeResource,
        txid: &Txid,
    ) -> Result<ChargeRecord, PspError> {
        let operation = resource.operations().patch;
        let body = serde_json::to_vec(&serde_json::json!({
            "status": CobStatus::RemovidaPeloUsuarioRecebedor,
        }))
        .map_err(|e| PspError::Protocol {
            operation,
            detail: format!("the revision does not serialise: {e}"),
        })?;
        let answer = self
            .authorized(
                operation,
                Method::PATCH,
                &[resource.path(), txid.as_str()],
                Some(body),
            )
            .await?;
        read_charge(resource, operation, &answer)
    }

    /// `PUT /lotecobv/{id}` with `body`: asks the PSP to create the lote's `cobv`s (202; each
    /// item's fate is read with [`Self::get_lote`]). The same id and items again change
    /// nothing the PSP holds. A [`ErrorKind::Transient`] or [`ErrorKind::Protocol`] failure
    /// leaves it unknown whether the lote exists: read it.
    pub async fn put_lote(&self, id: i64, body: &LoteCobVSolicitado) -> Result<(), PspError> {
        let operation = lotecobv::OPERATIONS.put;
        let body = serde_json::to_vec(body).map_err(|e| PspError::Protocol {
            operation,
            detail: format!("the lote does not serialise: {e}"),
        })?;
        self.authorized(
            operation,
            Method::PUT,
            &[lotecobv::PATH, &id.to_string()],
            Some(body),
        )
        .await
        .map(|_| ())
    }

    /// `GET /lotecobv/{id}`: the lote with each item's status (`EM_PROCESSAMENTO`, `CRIADA`,
    /// `NEGADA` with its `problema`). A lote the PSP does not have is refused with 404.
    pub async fn get_lote(&self, id: i64) -> Result<LoteCobVConsultado, PspError> {
        let operation = lotecobv::OPERATIONS.get;
        let answer = self
            .authorized(
                operation,
                Method::GET,
                &[lotecobv::PATH, &id.to_string()],
                None,
            )
            .await?;
        lotecobv::read(&answer.body).map_err(|detail| PspError::Protocol { operation, detail })
    }

    /// `PUT /pix/{e2eid}/devolucao/{id}`: asks the PSP to give `valor` of the pix back. The
    /// same `id` names the same devolução on a retry (a PSP on v2.9.0 refuses it with 400
    /// once used: read it back with [`Self::get_devolucao`]).
    pub async fn put_devolucao(
        &self,
        e2eid: &str,
        id: &str,
        devolucao: &DevolucaoSolicitada,
    ) -> Result<Devolucao, PspError> {
        let body = serde_json::to_vec(devolucao).map_err(|e| PspError::Protocol {
            operation: CallOperation::PutDevolucao,
            detail: format!("the devolução does not serialise: {e}"),
        })?;
        let answer = self
            .authorized(
                CallOperation::PutDevolucao,
                Method::PUT,
                &["pix", e2eid, "devolucao", id],
                Some(body),
            )
            .await?;
        decode(CallOperation::PutDevolucao, &answer)
    }

    /// `GET /pix/{e2eid}/devolucao/{id}`: the devolução as the PSP keeps it.
    pub async fn get_devolucao(&self, e2eid: &str, id: &str) -> Result<Devolucao, PspError> {
        let answer = self
            .authorized(
                CallOperation::GetDevolucao,
                Method::GET,
                &["pix", e2eid, "devolucao", id],
                None,
            )
            .await?;
        decode(CallOperation::GetDevolucao, &answer)
    }

    /// `GET /pix/{e2eid}`: the pix received, with its `devolucoes[]`.
    pub async fn get_pix(&self, e2eid: &str) -> Result<Pix, PspError> {
        let answer = self
            .authorized(CallOperation::GetPix, Method::GET, &["pix", e2eid], None)
            .await?;
        decode(CallOperation::GetPix, &answer)
    }

    /// `GET /pix?inicio&fim&paginacao.paginaAtual&paginacao.itensPorPagina`: page `page` (from
    /// 0) of `per_page` of the pix received with `horario` in `[inicio, fim]` (Unix ms), each
    /// with its `devolucoes[]`. A read: a transient failure changes nothing.
    pub async fn list_pix(
        &self,
        inicio: i64,
        fim: i64,
        page: u64,
        per_page: u64,
    ) -> Result<PixConsultados, PspError> {
        let operation = CallOperation::ListPix;
        let mut url = self.url(&["pix"]);
        url.query_pairs_mut()
            .append_pair("inicio", &iso8601(inicio))
            .append_pair("fim", &iso8601(fim))
            .append_pair("paginacao.paginaAtual", &page.to_string())
            .append_pair("paginacao.itensPorPagina", &per_page.to_string());
        let answer = self
            .authorized_url(operation, Method::GET, url, None)
            .await?;
        decode(operation, &answer)
    }

    /// `PUT /webhook/{chave}`: asks the PSP to post the pix received on `chave` to
    /// `{webhook_url}/pix`.
    pub async fn put_webhook(&self, chave: &str, webhook_url: &str) -> Result<(), PspError> {
        let body = serde_json::to_vec(&WebhookSolicitado {
            webhook_url: webhook_url.to_owned(),
        })
        .map_err(|e| PspError::Protocol {
            operation: CallOperation::PutWebhook,
            detail: format!("the webhook does not serialise: {e}"),
        })?;
        self.authorized(
            CallOperation::PutWebhook,
            Method::PUT,
            &["webhook", chave],
            Some(body),
        )
        .await
        .map(|_| ())
    }

    // ---- Pix Automático (DESIGN.md section 17) ----------------------------------------

    /// `POST /locrec` `{"tipo": "rec"}`: a new location for a recurrence's QR code (journeys
    /// 2 and 3), 201 with its `id` and `location`. Not idempotent: a transient failure may
    /// have left an unused location at the PSP, which is harmless; ask again.
    pub async fn post_locrec(&self) -> Result<LocRec, PspError> {
        let operation = CallOperation::PostLocrec;
        let body = to_body(operation, &LocRecSolicitada::default(), "the location")?;
        let answer = self
            .authorized(operation, Method::POST, &["locrec"], Some(body))
            .await?;
        decode(operation, &answer)
    }

    /// `POST /rec`: creates a recurrence (201, status `CRIADA`, with the PSP's `idRec`).
    /// API Pix gives no client-chosen id: a [`ErrorKind::Transient`] or
    /// [`ErrorKind::Protocol`] failure leaves it unknown whether a recurrence was created,
    /// and its `idRec` unknown too. With a `loc` in the body a retry cannot make a second one
    /// (the PSP refuses a location already used, `RecOperacaoInvalida`); without one, a
    /// retry may leave a recurrence behind, which no payer is ever shown and which the
    /// caller may treat as not created.
    pub async fn post_rec(&self, rec: &RecSolicitada) -> Result<RecCompleta, PspError> {
        let operation = CallOperation::PostRec;
        let body = to_body(operation, rec, "the recurrence")?;
        let answer = self
            .authorized(operation, Method::POST, &["rec"], Some(body))
            .await?;
        decode(operation, &answer)
    }

    /// `GET /rec/{idRec}` (`?txid=` for a journey 3 recurrence, so that `dadosQR` holds the
    /// composite code that pays that charge and authorises): the recurrence as the PSP keeps
    /// it. A read: a transient failure changes nothing, read again later.
    pub async fn get_rec(&self, id_rec: &str, txid: Option<&str>) -> Result<RecCompleta, PspError> {
        let operation = CallOperation::GetRec;
        let mut url = self.url(&["rec", id_rec]);
        if let Some(txid) = txid {
            url.query_pairs_mut().append_pair("txid", txid);
        }
        let answer = self
            .authorized_url(operation, Method::GET, url, None)
            .await?;
        decode(operation, &answer)
    }

    /// `PATCH /rec/{idRec}` `{"status": "CANCELADA"}`: cancels the recurrence as its receiver.
    /// A transient failure leaves it unknown whether it was canceled: read it with
    /// [`Self::get_rec`] (cancelling again a recurrence already canceled, rejected or expired
    /// is refused with 400).
    pub async fn cancel_rec(&self, id_rec: &str) -> Result<RecCompleta, PspError> {
        self.patch_rec(id_rec, &RecRevisada::cancelar()).await
    }

    /// `PATCH /rec/{idRec}` with `revision` (`RecRevisada`): revises a recurrence (its
    /// location, first date or journey 3 charge while `CRIADA`, the payer's name) or cancels
    /// it ([`Self::cancel_rec`]). Applying the same revision again changes nothing more, so
    /// after a transient failure it may be sent again (or the recurrence read).
    pub async fn patch_rec(
        &self,
        id_rec: &str,
        revision: &RecRevisada,
    ) -> Result<RecCompleta, PspError> {
        let operation = CallOperation::PatchRec;
        let body = to_body(operation, revision, "the revision")?;
        let answer = self
            .authorized(operation, Method::PATCH, &["rec", id_rec], Some(body))
            .await?;
        decode(operation, &answer)
    }

    /// `POST /solicrec`: pushes an authorisation request for a recurrence to the payer's bank
    /// (journey 1), 201 with its `idSolicRec`. After a transient failure it is unknown
    /// whether the request was sent; asking again is safe: the PSP refuses a second request
    /// while one for the same `idRec` is live (400 `SolicRecOperacaoInvalida`), so a refusal
    /// of the retry may mean the first one went through (read the recurrence).
    pub async fn post_solicrec(
        &self,
        solicitacao: &SolicRecSolicitada,
    ) -> Result<SolicRec, PspError> {
        let operation = CallOperation::PostSolicrec;
        let body = to_body(operation, solicitacao, "the request")?;
        let answer = self
            .authorized(operation, Method::POST, &["solicrec"], Some(body))
            .await?;
        decode(operation, &answer)
    }

    /// `PUT /cobr/{txid}`: creates a recurring charge of a recurrence (201). The txid makes a
    /// retry safe: a PSP refuses a txid already in use (400 `CobROperacaoInvalida`) rather
    /// than making a second charge. A transient or protocol failure leaves it unknown whether
    /// the charge exists: read it with [`Self::get_cobr`] (404: it does not) before putting it
    /// again.
    pub async fn put_cobr(
        &self,
        txid: &str,
        cobr: &CobrSolicitada,
    ) -> Result<CobrCompleta, PspError> {
        let operation = CallOperation::PutCobr;
        let body = to_body(operation, cobr, "the recurring charge")?;
        let answer = self
            .authorized(operation, Method::PUT, &["cobr", txid], Some(body))
            .await?;
        decode(operation, &answer)
    }

    /// `GET /cobr/{txid}`: the recurring charge with its attempts (`tentativas[]`) and the pix
    /// that paid it. A read: a transient failure changes nothing, read again later.
    pub async fn get_cobr(&self, txid: &str) -> Result<CobrCompleta, PspError> {
        let operation = CallOperation::GetCobr;
        let answer = self
            .authorized(operation, Method::GET, &["cobr", txid], None)
            .await?;
        decode(operation, &answer)
    }

    /// `PATCH /cobr/{txid}` `{"status": "CANCELADA"}`: cancels a recurring charge (allowed
    /// until the day before its first attempt; refused after). A transient failure leaves it
    /// unknown whether it was canceled: read it with [`Self::get_cobr`].
    pub async fn cancel_cobr(&self, txid: &str) -> Result<CobrCompleta, PspError> {
        let operation = CallOperation::PatchCobr;
        let body = to_body(operation, &CobrRevisada::cancelar(), "the revision")?;
        let answer = self
            .authorized(operation, Method::PATCH, &["cobr", txid], Some(body))
            .await?;
        decode(operation, &answer)
    }

    /// `POST /cobr/{txid}/retentativa/{data}` (no body): asks a new settlement attempt of a
    /// recurring charge on `date` (`YYYY-MM-DD`, a future date), answered (201) with the
    /// charge. A transient failure leaves it unknown whether the attempt was asked: read the
    /// charge's `tentativas[]` with [`Self::get_cobr`] before asking again (the PSP refuses a
    /// new attempt while one is pending, or a second one for the same date).
    pub async fn post_retentativa(&self, txid: &str, date: &str) -> Result<CobrCompleta, PspError> {
        let operation = CallOperation::PostRetentativa;
        let answer = self
            .authorized(
                operation,
                Method::POST,
                &["cobr", txid, "retentativa", date],
                None,
            )
            .await?;
        decode(operation, &answer)
    }

    /// `PUT /webhookrec` `{"webhookUrl"}`: asks the PSP to post its recurrences' changes to
    /// `{webhook_url}/rec` (one URL per receiver, not per key). Idempotent: after a transient
    /// failure, register again (the reconciler reads recurrences meanwhile).
    pub async fn put_webhookrec(&self, webhook_url: &str) -> Result<(), PspError> {
        self.put_receiver_webhook(CallOperation::PutWebhookrec, "webhookrec", webhook_url)
            .await
    }

    /// `PUT /webhookcobr` `{"webhookUrl"}`: asks the PSP to post its recurring charges'
    /// changes to `{webhook_url}/cobr`. Idempotent, as [`Self::put_webhookrec`].
    pub async fn put_webhookcobr(&self, webhook_url: &str) -> Result<(), PspError> {
        self.put_receiver_webhook(CallOperation::PutWebhookcobr, "webhookcobr", webhook_url)
            .await
    }

    async fn put_receiver_webhook(
        &self,
        operation: CallOperation,
        path: &str,
        webhook_url: &str,
    ) -> Result<(), PspError> {
        let body = to_body(
            operation,
            &WebhookSolicitado {
                webhook_url: webhook_url.to_owned(),
            },
            "the webhook",
        )?;
        self.authorized(operation, Method::PUT, &[path], Some(body))
            .await
            .map(|_| ())
    }

    /// `{api_base}/{segments...}`, each segment percent-encoded.
    fn url(&self, segments: &[&str]) -> Url {
        let mut url = self.api_base.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty().extend(segments);
        }
        url
    }

    /// A call with the bearer token; on a 401 the token is fetched again once and the call
    /// retried once. Returns a 2xx answer.
    async fn authorized(
        &self,
        operation: CallOperation,
        method: Method,
        segments: &[&str],
        body: Option<Vec<u8>>,
    ) -> Result<Answer, PspError> {
        self.authorized_url(operation, method, self.url(segments), body)
            .await
    }

    /// [`Self::authorized`] with the URL built (a query added).
    async fn authorized_url(
        &self,
        operation: CallOperation,
        method: Method,
        url: Url,
        body: Option<Vec<u8>>,
    ) -> Result<Answer, PspError> {
        let mut token = self.token().await?;
        let mut retried = false;
        loop {
            let mut request = self
                .http
                .request(method.clone(), url.clone())
                .bearer_auth(token.secret.expose())
                .header(header::ACCEPT, "application/json");
            if let Some(body) = &body {
                request = request
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(body.clone());
            }
            let answer = self.exchange(operation, request).await?;
            if answer.status == StatusCode::UNAUTHORIZED && !retried {
                // The PSP dropped the token before its time (revoked, rotated, restarted).
                self.tokens.invalidate(token.generation).await;
                token = self.token().await?;
                retried = true;
                continue;
            }
            return classify(operation, answer);
        }
    }

    /// The cached token, or a new one from the token endpoint.
    async fn token(&self) -> Result<CachedToken, PspError> {
        self.tokens
            .get_or_fetch(Instant::now, || self.fetch_token())
            .await
    }

    /// `POST {token_url}` with HTTP Basic and `grant_type=client_credentials`.
    async fn fetch_token(&self) -> Result<(TokenResponse, Instant), PspError> {
        let operation = CallOperation::Token;
        let request = self
            .http
            .post(self.token_url.clone())
            .basic_auth(&self.client_id, Some(self.client_secret.expose()))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "application/json")
            .body("grant_type=client_credentials");
        let asked = Instant::now();
        let answer = classify(operation, self.exchange(operation, request).await?)?;
        let token: TokenResponse = decode(operation, &answer)?;
        if !token.token_type.eq_ignore_ascii_case("bearer") || token.access_token.is_empty() {
            return Err(PspError::Protocol {
                operation,
                detail: "the token endpoint did not answer a bearer token".into(),
            });
        }
        Ok((token, asked))
    }

    /// Sends one request and reads the answer within the cap; reports the exchange.
    async fn exchange(
        &self,
        operation: CallOperation,
        request: reqwest::RequestBuilder,
    ) -> Result<Answer, PspError> {
        let span = tracing::info_span!(
            "psp call",
            otel.name = %format_args!("psp {operation}"),
            otel.kind = "client",
            otel.status_code = tracing::field::Empty,
            provider = %self.provider,
            %operation,
            http.response.status_code = tracing::field::Empty,
            outcome = tracing::field::Empty,
        );
        // The PSP sees the caller's trace: `traceparent` names this call's span.
        let request = request.headers(crate::telemetry::inject(&span));
        let started = Instant::now();
        let result = send(operation, request).instrument(span.clone()).await;
        let outcome = match &result {
            Ok(answer) => error::status_outcome(operation, answer.status),
            Err(e) => e.outcome(),
        };
        if let Ok(answer) = &result {
            span.record("http.response.status_code", answer.status.as_u16());
        }
        span.record("outcome", outcome.as_str());
        if result.is_err() {
            span.record("otel.status_code", "error");
        }
        self.observer.observe(&CallRecord {
            provider: &self.provider,
            operation,
            outcome,
            elapsed: started.elapsed(),
        });
        if let Err(e) = &result {
            tracing::warn!(provider = %self.provider, operation = %operation, error = %e, "PSP call failed");
        }
        result
    }
}

async fn send(
    operation: CallOperation,
    request: reqwest::RequestBuilder,
) -> Result<Answer, PspError> {
    let mut response = request
        .send()
        .await
        .map_err(|e| PspError::from_transport(operation, e))?;
    let status = response.status();
    let retry_after = response
        .headers()
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    let max = max_body_bytes(operation);
    let too_large = || PspError::Protocol {
        operation,
        detail: format!("the answer is larger than {max} bytes"),
    };
    if response.content_length().is_some_and(|n| n > max as u64) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| PspError::from_transport(operation, e))?
    {
        if body.len() + chunk.len() > max {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Answer {
        status,
        retry_after,
        body,
    })
}

/// The most of `operation`'s answer that is read: [`MAX_BODY_BYTES`], or a lote's read,
/// which holds up to a thousand items.
fn max_body_bytes(operation: CallOperation) -> usize {
    if operation == lotecobv::OPERATIONS.get {
        lotecobv::MAX_READ_BYTES
    } else {
        MAX_BODY_BYTES
    }
}

/// A 2xx answer, or the error its status means.
fn classify(operation: CallOperation, answer: Answer) -> Result<Answer, PspError> {
    let status = answer.status.as_u16();
    match error::status_outcome(operation, answer.status) {
        CallOutcome::Success => Ok(answer),
        CallOutcome::Unauthorized => Err(PspError::Unauthorized { operation, status }),
        CallOutcome::Unavailable => Err(PspError::Unavailable {
            operation,
            status,
            retry_after: answer.retry_after,
        }),
        CallOutcome::Refused => Err(PspError::Refused {
            operation,
            status,
            problem: error::problem_summary(&answer.body),
        }),
        CallOutcome::ProtocolError
        | CallOutcome::Timeout
        | CallOutcome::ConnectFailed
        | CallOutcome::NotConfigured => Err(PspError::Protocol {
            operation,
            detail: format!("unexpected HTTP {status}"),
        }),
    }
}

/// A request body as JSON; `what` names it in the error.
fn to_body<T: serde::Serialize>(
    operation: CallOperation,
    value: &T,
    what: &str,
) -> Result<Vec<u8>, PspError> {
    serde_json::to_vec(value).map_err(|e| PspError::Protocol {
        operation,
        detail: format!("{what} does not serialise: {e}"),
    })
}

/// A charge resource's answer as its record.
fn read_charge(
    resource: &dyn ChargeResource,
    operation: CallOperation,
    answer: &Answer,
) -> Result<ChargeRecord, PspError> {
    resource
        .read(&answer.body)
        .map_err(|detail| PspError::Protocol { operation, detail })
}

/// The answer's JSON as `T`. The error names the field, never its value.
fn decode<T: DeserializeOwned>(operation: CallOperation, answer: &Answer) -> Result<T, PspError> {
    let mut de = serde_json::Deserializer::from_slice(&answer.body);
    serde_path_to_error::deserialize(&mut de).map_err(|e| PspError::Protocol {
        operation,
        detail: format!("unreadable answer at `{}`", e.path()),
    })
}

#[cfg(test)]
mod tests;
