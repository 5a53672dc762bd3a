//! Live execution (DESIGN.md sections 5 and 10): what happens to a LIVE store's charge
//! outside the decision chain. [`execute`] creates it at a PSP along the chain's ranking;
//! [`settle`] reads it back and moves the intent; the PSP's callbacks ([`callbacks`]) and
//! the [`reconciler`] are the two triggers of a settlement; [`verdict`] holds the rules.

pub mod callbacks;
pub mod execute;
pub mod reconciler;
pub mod settle;
pub mod verdict;

use std::sync::Arc;
use std::time::Duration;

use crate::app::AppState;
use crate::db::DbError;
use crate::outbox::OutboxError;
use crate::providers::ProviderError;

#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Provider(#[from] ProviderError),
    #[error(transparent)]
    Outbox(#[from] OutboxError),
    /// A callback for no provider, or with the wrong token: answered like an unknown route.
    #[error("no such callback")]
    UnknownCallback,
    #[error("the callback body is not an API Pix callback: {0}")]
    InvalidCallback(String),
    #[error("stored data is inconsistent: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Psp(#[from] crate::psp::PspError),
}

impl From<sqlx::Error> for LiveError {
    fn from(e: sqlx::Error) -> Self {
        Self::Db(DbError::Sqlx(e))
    }
}

/// `pixgate serve` options for live execution.
#[derive(Debug, Clone, clap::Args)]
pub struct LiveArgs {
    /// The address PSPs reach this instance at; callback URLs are built from it
    /// (default: `http://<listen>`).
    #[arg(long, env = "PIXGATE_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// How often pending LIVE charges are re-read at their PSP.
    #[arg(long, env = "PIXGATE_RECONCILE_INTERVAL", default_value = "30s",
          value_parser = humantime::parse_duration)]
    pub reconcile_interval: Duration,
    /// How long a LIVE charge in progress (its Idempotency-Key) or in settlement (the intent)
    /// is held by the instance working on it; after a crash, a retry or another instance
    /// takes it over once this has passed. Longer than a charge's PSP attempts take.
    #[arg(long = "live-lease", env = "PIXGATE_LIVE_LEASE", default_value = "60s",
          value_parser = humantime::parse_duration)]
    pub lease: Duration,
}

/// Live-execution settings at run time.
#[derive(Debug, Clone)]
pub struct Live {
    /// Without a trailing slash.
    pub public_url: String,
    interval: Duration,
    lease: Duration,
}

impl Live {
    /// `listen` is the merchant listener's bound address (the default public URL).
    pub fn new(args: &LiveArgs, listen: std::net::SocketAddr) -> Self {
        let public_url = args
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{listen}"));
        Self {
            public_url: public_url.trim_end_matches('/').to_owned(),
            interval: args.reconcile_interval.max(Duration::from_millis(100)),
            lease: args.lease.max(Duration::from_secs(1)),
        }
    }

    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// How long a charge in progress (its Idempotency-Key) or in settlement (the intent) is
    /// held by the instance working on it before another may take it over.
    pub fn lease(&self) -> Duration {
        self.lease
    }

    /// The URL a provider's PSP posts its callbacks under (it appends `/pix`).
    pub fn callback_url(&self, provider_code: &str, token: &str) -> String {
        format!("{}/psp-callbacks/{provider_code}/{token}", self.public_url)
    }
}

/// Registers this instance's callback URL for `code`'s pix key at its PSP (`PUT
/// /webhook/{chave}`).
pub async fn register_callback(state: &AppState, code: &str) -> Result<(), LiveError> {
    let token = crate::providers::callback_token(&state.db, &state.master_key, code)
        .await?
        .ok_or(LiveError::UnknownCallback)?;
    let client = state
        .providers
        .client(&state.db, &state.master_key, code)
        .await?;
    client
        .put_webhook(client.pix_key(), &state.live.callback_url(code, &token))
        .await?;
    Ok(())
}

/// Registers the callback URL of every listed provider (all active ones when `None`), off the
/// caller's path; a failure is logged (the reconciler settles charges without callbacks).
pub fn register_callbacks(state: Arc<AppState>, codes: Option<Vec<String>>) {
    tokio::spawn(async move {
        let codes = match codes {
            Some(codes) => codes,
            None => match crate::providers::active_codes(&state.db).await {
                Ok(codes) => codes,
                Err(e) => {
                    tracing::warn!(error = %e, "callback registration: providers not read");
                    return;
                }
            },
        };
        for code in codes {
            match register_callback(&state, &code).await {
                Ok(()) => tracing::info!(provider = %code, "PSP callback URL registered"),
                Err(e) => tracing::warn!(provider = %code, error = %e,
                    "PSP callback URL not registered; pending charges settle by the reconciler"),
            }
        }
    });
}
