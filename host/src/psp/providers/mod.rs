//! PSP providers as payment-ops manage them (create, list, read, change), with their secrets
//! sealed at rest, and at run time: one [`PspClient`] per provider ([`Providers::client`])
//! and the providers' recent call [`health`].
//!
//! Gateways name their provider by `providerCode`, with no foreign key: the sandbox catalog's
//! gateways keep routing SHADOW stores without any provider row, and a gateway may be set up
//! before its provider. Live execution needs an active provider of that code:
//! [`Providers::client`] answers [`ProviderError::NotFound`] or [`ProviderError::Inactive`]
//! otherwise.
//!
//! A provider that takes mandates (Pix Automático, DESIGN.md section 17) has a receiving
//! account ([`ProviderAccount`], read with [`account`]): its recurring charges name it as
//! `cobr.recebedor`, and a mandate's chain is offered only such providers
//! ([`taking_mandates`]).

pub mod health;
pub mod request;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::access::Actor;
use crate::crypto::{self, CryptoError, MasterKey};
use crate::db::audit::{self, Action, Change};
use crate::db::{self, Db, DbError, Flag, providers as sql, violated_constraint};
use crate::metrics::PspMetrics;
use crate::psp::client::{CallObserver, CallRecord, Endpoint, PspArgs, PspClient, Secret, tls};
use crate::psp::live::LiveExecution;
use health::HealthBook;
use pixgate_domain::json::Invalid;
use pixgate_pix::apipix::{ContaRecebedor, TipoConta};
use pixgate_pix::time::iso8601;
pub use request::{
    ACCOUNT_FIELD_CODES, AccountInput, CreateProvider, NewProvider, PatchProvider, ProviderChanges,
};

pixgate_domain::text_enum!(
    /// The kind of a provider's receiving account, as API Pix names it (`tipoConta`).
    AccountType {
        /// Conta corrente: a checking account.
        Corrente = "CORRENTE",
        /// Conta poupança: a savings account.
        Poupanca = "POUPANCA",
        /// Conta de pagamento: a payment institution's account.
        Pagamento = "PAGAMENTO",
    }
);

impl From<AccountType> for TipoConta {
    fn from(kind: AccountType) -> Self {
        match kind {
            AccountType::Corrente => Self::Corrente,
            AccountType::Poupanca => Self::Poupanca,
            AccountType::Pagamento => Self::Pagamento,
        }
    }
}

/// A provider's receiving account at its PSP: where the recurring charges of the mandates it
/// takes are paid to (API Pix `cobr.recebedor`). Stored and shown as `{branch, number, type}`;
/// a provider without one takes no mandates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProviderAccount {
    /// The branch (agência): 1 to 4 digits.
    #[schema(pattern = "^[0-9]{1,4}$", example = "0001")]
    pub branch: String,
    /// The account number with its check digit, digits only (API Pix `conta`): 1 to 20.
    #[schema(pattern = "^[0-9]{1,20}$", example = "12345678")]
    pub number: String,
    #[serde(rename = "type")]
    pub kind: AccountType,
}

impl ProviderAccount {
    /// `recebedor` of a recurring charge (`PUT /cobr/{txid}`): branch, number and type; the
    /// PSP adds the receiver's CNPJ and name in its answers.
    pub fn recebedor(&self) -> ContaRecebedor {
        ContaRecebedor {
            agencia: Some(self.branch.clone()),
            conta: self.number.clone(),
            tipo_conta: self.kind.into(),
            cnpj: None,
            nome: None,
        }
    }

    /// The column's JSON.
    fn to_column(&self) -> String {
        serde_json::json!({"branch": self.branch, "number": self.number, "type": self.kind})
            .to_string()
    }

    /// The column's JSON read back; `provider` names the row in the error.
    fn from_column(provider: &str, text: &str) -> Result<Self, ProviderError> {
        serde_json::from_str(text).map_err(|e| {
            ProviderError::Db(DbError::Corrupt(format!(
                "provider `{provider}`: account: {e}"
            )))
        })
    }
}

/// What went wrong with a provider operation.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error(transparent)]
    Invalid(Invalid),
    /// Schema-valid, but two fields contradict each other (a key that is not the
    /// certificate's).
    #[error("{message}")]
    Unprocessable {
        code: &'static str,
        field: String,
        message: String,
    },
    #[error("provider `{0}` not found")]
    NotFound(String),
    #[error("provider `{0}` is not active")]
    Inactive(String),
    #[error("a provider with code `{0}` exists")]
    CodeTaken(String),
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Crypto(#[from] CryptoError),
    /// Stored TLS material that no longer builds a client (checked when it was stored).
    #[error("provider `{provider}`: {error}")]
    Tls {
        provider: String,
        error: tls::TlsError,
    },
}

impl From<sqlx::Error> for ProviderError {
    fn from(e: sqlx::Error) -> Self {
        Self::Db(DbError::Sqlx(e))
    }
}

/// A certificate as the admin API shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateView {
    pub subject: String,
    pub issuer: String,
    /// ISO 8601 UTC.
    pub not_after: String,
}

/// A provider's TLS material as the admin API shows it: certificates summarised, the key
/// only as present or not.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TlsView {
    /// The private CA's certificates, trusted beside the public roots.
    pub ca_certificates: Vec<CertificateView>,
    /// The mTLS client certificate (the first of its PEM).
    pub client_certificate: Option<CertificateView>,
    pub has_client_key: bool,
}

/// A provider as the admin API shows it: never a secret.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProviderView {
    #[schema(format = Uuid)]
    pub provider_id: String,
    pub code: String,
    pub name: String,
    pub api_base_url: String,
    /// The token endpoint in use (the default one when none was set).
    pub token_url: String,
    pub client_id: String,
    /// Always true: the secret is stored sealed and never shown.
    pub has_client_secret: bool,
    pub pix_key: String,
    pub tls: TlsView,
    /// The receiving account the recurring charges of its mandates name (Pix Automático);
    /// null: the provider takes no mandates.
    pub account: Option<ProviderAccount>,
    pub active: bool,
    /// The gateways whose `providerCode` is this provider's code.
    pub gateways: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Its PSP's recent calls as the answering instance made them (health is per instance),
    /// which is what the provider selection step reads. In the lists and reads only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health: Option<HealthView>,
}

/// A provider's recent call health (the provider step's `GatewayHealth`).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HealthView {
    /// False after calls that failed one after another up to now (no usable answer).
    pub available: bool,
    /// Share of the recent calls that did what was asked, in basis points.
    pub success_rate_bps: u32,
    /// Median latency of the answered calls.
    pub latency_p50_ms: u32,
    /// Calls in the window; 0 means no recent call (and healthy: nothing says otherwise).
    pub samples: u32,
}

impl From<pixgate_policy_logic::GatewayHealth> for HealthView {
    fn from(h: pixgate_policy_logic::GatewayHealth) -> Self {
        Self {
            available: h.available,
            success_rate_bps: h.success_rate_bps,
            latency_p50_ms: h.latency_p50_ms,
            samples: h.samples,
        }
    }
}

fn certificate_views(pem: Option<&str>) -> Vec<CertificateView> {
    let certs = pem
        .and_then(|p| tls::certificates(p).ok())
        .unwrap_or_default();
    certs
        .iter()
        .filter_map(tls::summary)
        .map(|s| CertificateView {
            subject: s.subject,
            issuer: s.issuer,
            not_after: iso8601(s.not_after_ms),
        })
        .collect()
}

/// The view of a provider, read on `ex`: a transaction's when it is the audit's snapshot. It
/// holds no secret (whether one is set, certificate subjects), so it is the snapshot as is.
async fn view<'e>(
    ex: impl sqlx::Executor<'e, Database = sqlx::Any>,
    p: sql::Provider,
) -> Result<ProviderView, ProviderError> {
    let gateways = sql::gateway_aliases(ex, &p.code).await?;
    let account = p
        .account
        .as_deref()
        .map(|text| ProviderAccount::from_column(&p.code, text))
        .transpose()?;
    Ok(ProviderView {
        token_url: p
            .token_url
            .clone()
            .unwrap_or_else(|| request::default_token_url(&p.api_base_url)),
        tls: TlsView {
            ca_certificates: certificate_views(p.ca_pem.as_deref()),
            client_certificate: certificate_views(p.client_cert_pem.as_deref())
                .into_iter()
                .next(),
            has_client_key: p.client_key_sealed.is_some(),
        },
        provider_id: p.id,
        code: p.code,
        name: p.name,
        api_base_url: p.api_base_url,
        client_id: p.client_id,
        has_client_secret: true,
        pix_key: p.pix_key,
        account,
        active: p.active.0,
        gateways,
        created_at: iso8601(p.created_at),
        updated_at: iso8601(p.updated_at),
        health: None,
    })
}

/// Seals the TLS material into the row's columns.
fn apply_tls(
    row: &mut sql::Provider,
    key: &MasterKey,
    tls: request::TlsMaterial,
) -> Result<(), ProviderError> {
    row.ca_pem = tls.ca_pem;
    match tls.identity {
        Some(identity) => {
            row.client_cert_pem = Some(identity.cert_pem);
            row.client_key_sealed = Some(key.seal(identity.key_pem.expose().as_bytes())?);
        }
        None => {
            row.client_cert_pem = None;
            row.client_key_sealed = None;
        }
    }
    Ok(())
}

/// The provider service: what payment-ops do to PSP providers. A provider created or changed
/// gets this instance's callback URL registered at its PSP (off the caller's path). Built once
/// by the composition root; cheap to clone.
#[derive(Clone)]
pub struct ProviderAdmin {
    db: Db,
    /// Seals the providers' secrets at rest.
    master_key: MasterKey,
    live: LiveExecution,
}

impl std::fmt::Debug for ProviderAdmin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderAdmin").finish_non_exhaustive()
    }
}

impl ProviderAdmin {
    pub fn new(db: Db, master_key: MasterKey, live: LiveExecution) -> Self {
        Self {
            db,
            master_key,
            live,
        }
    }

    #[tracing::instrument(skip_all, fields(provider = %new.code))]
    pub async fn create(
        &self,
        actor: &Actor,
        new: NewProvider,
    ) -> Result<ProviderView, ProviderError> {
        let now = db::now_ms();
        let mut row = sql::Provider {
            id: uuid::Uuid::now_v7().to_string(),
            client_secret_sealed: self
                .master_key
                .seal(new.client_secret.expose().as_bytes())?,
            callback_token_sealed: self.master_key.seal(crypto::random_token()?.as_bytes())?,
            code: new.code,
            name: new.name,
            api_base_url: new.api_base_url,
            token_url: new.token_url,
            client_id: new.client_id,
            pix_key: new.pix_key,
            ca_pem: None,
            client_cert_pem: None,
            client_key_sealed: None,
            account: new.account.as_ref().map(ProviderAccount::to_column),
            active: Flag(true),
            created_at: now,
            updated_at: now,
        };
        apply_tls(&mut row, &self.master_key, new.tls)?;
        let mut tx = self.db.write.begin().await?;
        sql::insert(&mut *tx, &row).await.map_err(|e| {
            match violated_constraint(&e).as_deref() {
                Some("providers_code_key") => ProviderError::CodeTaken(row.code.clone()),
                _ => e.into(),
            }
        })?;
        let provider = view(&mut *tx, row).await?;
        let change = Change::new(
            Action::ProviderCreate,
            format!("provider/{}", provider.code),
        )
        .after(&provider);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.live
            .register_callbacks(Some(vec![provider.code.clone()]));
        Ok(provider)
    }

    pub async fn list(&self) -> Result<Vec<ProviderView>, ProviderError> {
        let mut views = Vec::new();
        for row in sql::list(&self.db.read).await? {
            views.push(self.with_health(view(&self.db.read, row).await?));
        }
        Ok(views)
    }

    pub async fn get(&self, code: &str) -> Result<ProviderView, ProviderError> {
        let row = sql::by_code(&self.db.read, code)
            .await?
            .ok_or_else(|| ProviderError::NotFound(code.to_owned()))?;
        Ok(self.with_health(view(&self.db.read, row).await?))
    }

    /// The view with its provider's health; only reads show it, so the audit trail's
    /// snapshots of a change hold what the change changed.
    fn with_health(&self, mut view: ProviderView) -> ProviderView {
        view.health = Some(self.live.provider_health(&view.code).into());
        view
    }

    #[tracing::instrument(skip_all, fields(provider = %code))]
    pub async fn update(
        &self,
        actor: &Actor,
        code: &str,
        changes: ProviderChanges,
    ) -> Result<ProviderView, ProviderError> {
        let mut tx = self.db.write.begin().await?;
        let mut row = sql::by_code(&mut *tx, code)
            .await?
            .ok_or_else(|| ProviderError::NotFound(code.to_owned()))?;
        let before = view(&mut *tx, row.clone()).await?;
        let ProviderChanges {
            name,
            api_base_url,
            token_url,
            client_id,
            client_secret,
            pix_key,
            tls,
            account,
            active,
        } = changes;
        if let Some(name) = name {
            row.name = name;
        }
        if let Some(url) = api_base_url {
            row.api_base_url = url;
        }
        if let Some(url) = token_url {
            row.token_url = Some(url);
        }
        if let Some(id) = client_id {
            row.client_id = id;
        }
        if let Some(secret) = client_secret {
            row.client_secret_sealed = self.master_key.seal(secret.expose().as_bytes())?;
        }
        if let Some(pix_key) = pix_key {
            row.pix_key = pix_key;
        }
        if let Some(tls) = tls {
            apply_tls(&mut row, &self.master_key, tls)?;
        }
        if let Some(account) = account {
            row.account = account.as_ref().map(ProviderAccount::to_column);
        }
        if let Some(active) = active {
            row.active = Flag(active);
        }
        // Strictly later than before, so a client built from the old row is never reused.
        row.updated_at = db::now_ms().max(row.updated_at + 1);
        sql::update(&mut *tx, &row).await?;
        let provider = view(&mut *tx, row).await?;
        let change = Change::new(Action::ProviderUpdate, format!("provider/{code}"))
            .before(&before)
            .after(&provider);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.live
            .register_callbacks(Some(vec![provider.code.clone()]));
        Ok(provider)
    }
}

/// The token in an active provider's callback path (DESIGN.md section 10); `None` for an
/// unknown or inactive provider.
pub async fn callback_token(
    db: &Db,
    key: &MasterKey,
    code: &str,
) -> Result<Option<String>, ProviderError> {
    let Some(row) = sql::by_code(&db.read, code).await?.filter(|r| r.active.0) else {
        return Ok(None);
    };
    let token = String::from_utf8(key.open(&row.callback_token_sealed)?)
        .map_err(|_| ProviderError::Crypto(CryptoError::Unseal))?;
    Ok(Some(token))
}

/// The receiving account of provider `code` (read now, so a change made on another instance
/// applies at once): `None` when the provider takes no mandates. An unknown provider is
/// [`ProviderError::NotFound`]; an inactive one still answers (its charges are refused by
/// [`Providers::client`]).
pub async fn account(db: &Db, code: &str) -> Result<Option<ProviderAccount>, ProviderError> {
    let row = sql::by_code(&db.read, code)
        .await?
        .ok_or_else(|| ProviderError::NotFound(code.to_owned()))?;
    row.account
        .as_deref()
        .map(|text| ProviderAccount::from_column(&row.code, text))
        .transpose()
}

/// The codes of the active providers that take mandates (those with a receiving account):
/// the only ones a mandate's chain may be offered.
pub async fn taking_mandates(db: &Db) -> Result<Vec<String>, ProviderError> {
    Ok(sql::list(&db.read)
        .await?
        .into_iter()
        .filter(|r| r.active.0 && r.account.is_some())
        .map(|r| r.code)
        .collect())
}

/// The codes of the active providers.
pub async fn active_codes(db: &Db) -> Result<Vec<String>, ProviderError> {
    Ok(sql::list(&db.read)
        .await?
        .into_iter()
        .filter(|r| r.active.0)
        .map(|r| r.code)
        .collect())
}

/// Reports every exchange to the metrics and to the providers' health.
struct Observer {
    metrics: PspMetrics,
    health: Arc<HealthBook>,
}

impl CallObserver for Observer {
    fn observe(&self, call: &CallRecord<'_>) {
        self.metrics.observe(
            call.provider,
            call.operation.as_str(),
            call.outcome.as_str(),
            call.elapsed.as_secs_f64(),
        );
        self.health.record(call, db::now_ms());
    }
}

/// The providers at run time: a client per provider, rebuilt when the provider changes,
/// and their health.
pub struct Providers {
    settings: PspArgs,
    health: Arc<HealthBook>,
    observer: Arc<Observer>,
    /// By code: the row's `updated_at` the client was built from, and the client.
    clients: Mutex<HashMap<String, (i64, Arc<PspClient>)>>,
}

impl std::fmt::Debug for Providers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Providers").finish_non_exhaustive()
    }
}

impl Providers {
    pub fn new(settings: PspArgs, metrics: PspMetrics) -> Self {
        let health = Arc::new(HealthBook::new(health::HealthSettings::default()));
        Self {
            settings,
            observer: Arc::new(Observer {
                metrics,
                health: health.clone(),
            }),
            health,
            clients: Mutex::default(),
        }
    }

    /// Exposes the metric series of the providers in the database at zero (at start: before
    /// this instance calls any of them).
    pub async fn expose(&self, db: &Db) -> Result<(), ProviderError> {
        for row in sql::list(&db.read).await? {
            self.observer.metrics.provider_known(&row.code);
        }
        Ok(())
    }

    /// The recent health of a provider's PSP, as the provider selection step reads it for
    /// each of the provider's gateways.
    pub fn health(&self, provider_code: &str) -> pixgate_policy_logic::GatewayHealth {
        self.health.health(provider_code, db::now_ms())
    }

    /// The client of an active provider. Reads the provider's row (so a change made on
    /// another instance applies at once) and builds a client only when the row changed.
    pub async fn client(
        &self,
        db: &Db,
        key: &MasterKey,
        code: &str,
    ) -> Result<Arc<PspClient>, ProviderError> {
        let row = sql::by_code(&db.read, code)
            .await?
            .ok_or_else(|| ProviderError::NotFound(code.to_owned()))?;
        if !row.active.0 {
            return Err(ProviderError::Inactive(code.to_owned()));
        }
        if let Some((built_from, client)) = self.lock_clients().get(code)
            && *built_from == row.updated_at
        {
            return Ok(client.clone());
        }
        let updated_at = row.updated_at;
        let client = Arc::new(self.build(key, row)?);
        self.lock_clients()
            .insert(code.to_owned(), (updated_at, client.clone()));
        Ok(client)
    }

    fn lock_clients(&self) -> std::sync::MutexGuard<'_, HashMap<String, (i64, Arc<PspClient>)>> {
        self.clients.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn build(&self, key: &MasterKey, row: sql::Provider) -> Result<PspClient, ProviderError> {
        let provider = row.code.clone();
        self.observer.metrics.provider_known(&provider);
        let tls_error = |error| ProviderError::Tls {
            provider: provider.clone(),
            error,
        };
        let open = |sealed: &str| -> Result<Secret, ProviderError> {
            let bytes = key.open(sealed)?;
            String::from_utf8(bytes)
                .map(Secret::new)
                .map_err(|_| ProviderError::Crypto(CryptoError::Unseal))
        };
        let url = |text: &str| {
            url::Url::parse(text).map_err(|e| {
                ProviderError::Db(DbError::Corrupt(format!("provider `{provider}`: URL: {e}")))
            })
        };
        let ca = row
            .ca_pem
            .as_deref()
            .map(tls::certificates)
            .transpose()
            .map_err(tls_error)?
            .unwrap_or_default();
        let identity = match (&row.client_cert_pem, &row.client_key_sealed) {
            (Some(cert), Some(sealed)) => {
                let certs = tls::certificates(cert).map_err(tls_error)?;
                let key = tls::private_key(open(sealed)?.expose()).map_err(tls_error)?;
                Some((certs, key))
            }
            _ => None,
        };
        let token_url = row
            .token_url
            .clone()
            .unwrap_or_else(|| request::default_token_url(&row.api_base_url));
        let endpoint = Endpoint {
            api_base: url(&row.api_base_url)?,
            token_url: url(&token_url)?,
            client_id: row.client_id,
            client_secret: open(&row.client_secret_sealed)?,
            pix_key: row.pix_key,
            ca,
            identity,
            provider: row.code,
        };
        let observer: Arc<dyn CallObserver> = self.observer.clone();
        PspClient::new(endpoint, &self.settings, observer).map_err(tls_error)
    }
}
