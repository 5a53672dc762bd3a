//! Live execution (DESIGN.md sections 5 and 10): what happens to a LIVE store's charge
//! outside the decision chain. [`execute`] creates it at a PSP along the chain's ranking
//! ([`lote`]: the due-date charges of a batch routed to one gateway, as one lote);
//! [`settle`] reads it back and moves the intent; the PSP's callbacks ([`callbacks`]) and
//! the [`reconciler`] are the two triggers of a settlement; [`verdict`] holds the rules.
//! [`cancel`] and [`refunds`] give money back; [`pix_reads`] re-reads paid pix for the
//! devoluções the PSP made on its own.

pub mod callbacks;
pub mod cancel;
pub mod cobr;
pub mod execute;
pub mod lote;
pub mod pix_reads;
pub mod reconciler;
pub mod recurrence;
pub mod refunds;
pub mod settle;
pub mod verdict;

use std::sync::Arc;
use std::time::Duration;

use crate::crypto::MasterKey;
use crate::db::psp_calls::{CallOperation, CallOutcome, PspCall};
use crate::db::{Db, DbError};
use crate::metrics::Metrics;
use crate::psp::providers::ProviderError;
use crate::psp::providers::Providers;
use crate::webhooks::Wake;
use crate::webhooks::outbox::OutboxError;

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
    Psp(#[from] crate::psp::client::PspError),
}

impl From<sqlx::Error> for LiveError {
    fn from(e: sqlx::Error) -> Self {
        Self::Db(DbError::Sqlx(e))
    }
}

/// `failure {code, message}` of what no gateway of the ranking created (`what`: "the PIX
/// charge", "the recurrence"); `read` is the resource's read-back.
pub fn failure(calls: &[PspCall], read: CallOperation, what: &str) -> (&'static str, String) {
    use CallOutcome::{NotConfigured, Refused, Unauthorized};
    let all = |outcomes: &[CallOutcome]| {
        !calls.is_empty() && calls.iter().all(|c| outcomes.contains(&c.outcome))
    };
    let code = if calls.is_empty() {
        "no_eligible_gateway"
    } else if all(&[NotConfigured]) {
        "provider_not_configured"
    } else if all(&[Refused, Unauthorized, NotConfigured]) {
        "psp_refused"
    } else {
        "psp_unavailable"
    };
    // One entry per gateway, in the order they were tried: a PUT and the read-back that
    // followed it are one attempt.
    let mut tried: Vec<(&str, Vec<String>)> = Vec::new();
    for c in calls {
        let gateway = c.gateway_alias.as_deref().unwrap_or(&c.provider_code);
        let what = if c.operation == read {
            format!("read back: {}", c.outcome)
        } else {
            c.outcome.to_string()
        };
        match tried.iter_mut().find(|(g, _)| *g == gateway) {
            Some((_, seen)) if seen.last() != Some(&what) => seen.push(what),
            Some(_) => {}
            None => tried.push((gateway, vec![what])),
        }
    }
    let tried: Vec<String> = tried
        .into_iter()
        .map(|(gateway, seen)| format!("{gateway} ({})", seen.join(", then ")))
        .collect();
    let message = if tried.is_empty() {
        "no gateway of this store's ranking could be tried".to_owned()
    } else {
        format!("no gateway could create {what}: {}", tried.join(", "))
    };
    (code, message)
}

/// `pixgate serve` options for live execution.
#[derive(Debug, Clone, clap::Args)]
pub struct LiveArgs {
    /// The address PSPs reach this instance at, an http:// or https:// URL; callback URLs are
    /// built from it (default: `http://<listen>`).
    #[arg(long, env = "PIXGATE_PUBLIC_URL", value_parser = parse_public_url)]
    pub public_url: Option<String>,
    /// How often pending LIVE charges are re-read at their PSP (at least 100ms).
    #[arg(long, env = "PIXGATE_RECONCILE_INTERVAL", default_value = "30s",
          value_parser = parse_reconcile_interval)]
    pub reconcile_interval: Duration,
    /// How long a LIVE charge in progress (its Idempotency-Key) or in settlement (the intent),
    /// or a batch of charges between two of its writes, is held by the instance working on
    /// it; after a crash, a retry or another instance takes it over once this has passed.
    /// Longer than a charge's PSP attempts take (at least 1s).
    #[arg(long = "live-lease", env = "PIXGATE_LIVE_LEASE", default_value = "60s",
          value_parser = parse_lease)]
    pub lease: Duration,
}

/// A duration of at least `min`: a setting below it stops the start, like every other bad
/// setting, rather than being raised behind the operator's back.
fn at_least(text: &str, min: Duration, min_text: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(text).map_err(|e| e.to_string())?;
    if d < min {
        return Err(format!("must be at least {min_text}"));
    }
    Ok(d)
}

fn parse_reconcile_interval(text: &str) -> Result<Duration, String> {
    at_least(text, Duration::from_millis(100), "100ms")
}

/// Under a second, a lease would run out while its holder is still at the PSP, and another
/// instance would take the charge over mid-call.
fn parse_lease(text: &str) -> Result<Duration, String> {
    at_least(text, Duration::from_secs(1), "1s")
}

/// `PIXGATE_PUBLIC_URL`: http or https (what PSPs post callbacks to), with a host, without
/// credentials, query or fragment (a path is appended to it); in the `url` crate's normal
/// form, without a trailing slash.
fn parse_public_url(text: &str) -> Result<String, String> {
    let shape = "must be an http:// or https:// URL with a host, and without credentials, \
                 query or fragment";
    let url = url::Url::parse(text).map_err(|e| format!("{shape}: {e}"))?;
    if !matches!(url.scheme(), "http" | "https")
        || url.host_str().is_none_or(str::is_empty)
        || !url.username().is_empty()
        || url.password().is_some()
        || url.query().is_some()
        || url.fragment().is_some()
    {
        return Err(shape.to_owned());
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
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
        Self {
            public_url: args
                .public_url
                .clone()
                .unwrap_or_else(|| format!("http://{listen}")),
            interval: args.reconcile_interval,
            lease: args.lease,
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

    /// The URL a provider's PSP posts its callbacks under (it appends `/pix`, and for Pix
    /// Automático `/rec` and `/cobr`).
    pub fn callback_url(&self, provider_code: &str, token: &str) -> String {
        format!("{}/psp-callbacks/{provider_code}/{token}", self.public_url)
    }
}

/// The live execution service: a LIVE charge at its PSP, its settlement, the PSPs'
/// callbacks and the reconciler. Built once by the composition root; cheap to clone.
#[derive(Clone)]
pub struct LiveExecution {
    db: Db,
    /// Opens the providers' sealed credentials and callback tokens.
    master_key: MasterKey,
    providers: Arc<Providers>,
    settings: Live,
    metrics: Arc<Metrics>,
    /// Wakes this instance's webhook sender after a settlement's event is committed.
    wake: Wake,
}

impl std::fmt::Debug for LiveExecution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveExecution")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl LiveExecution {
    pub fn new(
        db: Db,
        master_key: MasterKey,
        providers: Arc<Providers>,
        settings: Live,
        metrics: Arc<Metrics>,
        wake: Wake,
    ) -> Self {
        Self {
            db,
            master_key,
            providers,
            settings,
            metrics,
            wake,
        }
    }

    /// How long a charge in progress or in settlement is held (see [`Live::lease`]).
    pub fn lease(&self) -> Duration {
        self.settings.lease()
    }

    /// How often pending charges are read again at their PSP.
    pub fn interval(&self) -> Duration {
        self.settings.interval()
    }

    /// The API Pix client of provider `code` (built from its stored credentials).
    pub async fn provider_client(
        &self,
        code: &str,
    ) -> Result<Arc<crate::psp::client::PspClient>, LiveError> {
        Ok(self
            .providers
            .client(&self.db, &self.master_key, code)
            .await?)
    }

    /// A provider's recent call health, as this instance's calls left it.
    pub fn provider_health(&self, code: &str) -> pixgate_policy_logic::GatewayHealth {
        self.providers.health(code)
    }

    /// Registers this instance's callback URL for `code`'s pix key at its PSP (`PUT
    /// /webhook/{chave}`); for a provider that takes mandates (it has a receiving account),
    /// the same URL for its recurrences and recurring charges too (`PUT /webhookrec`, `PUT
    /// /webhookcobr`: the PSP posts to `{url}/rec` and `{url}/cobr`). A PSP refusing those
    /// two is logged and does not fail the pix registration: mandates and their charges
    /// still settle through the reconciler's reads.
    #[tracing::instrument(skip_all, fields(provider = %code))]
    pub async fn register_callback(&self, code: &str) -> Result<(), LiveError> {
        let token = crate::psp::providers::callback_token(&self.db, &self.master_key, code)
            .await?
            .ok_or(LiveError::UnknownCallback)?;
        let client = self
            .providers
            .client(&self.db, &self.master_key, code)
            .await?;
        let url = self.settings.callback_url(code, &token);
        client.put_webhook(client.pix_key(), &url).await?;
        if crate::psp::providers::account(&self.db, code)
            .await?
            .is_some()
        {
            if let Err(e) = client.put_webhookrec(&url).await {
                tracing::warn!(provider = %code, error = %e,
                    "PSP recurrence callback URL not registered (PUT /webhookrec); \
                     mandates settle by the reconciler");
            }
            if let Err(e) = client.put_webhookcobr(&url).await {
                tracing::warn!(provider = %code, error = %e,
                    "PSP recurring charge callback URL not registered (PUT /webhookcobr); \
                     recurring charges settle by the reconciler");
            }
        }
        Ok(())
    }

    /// Registers the callback URL of every listed provider (all active ones when `None`), off the
    /// caller's path; a failure is logged (the reconciler settles charges without callbacks).
    pub fn register_callbacks(&self, codes: Option<Vec<String>>) {
        let this = self.clone();
        tokio::spawn(async move {
            let codes = match codes {
                Some(codes) => codes,
                None => match crate::psp::providers::active_codes(&this.db).await {
                    Ok(codes) => codes,
                    Err(e) => {
                        tracing::warn!(error = %e, "callback registration: providers not read");
                        return;
                    }
                },
            };
            for code in codes {
                match this.register_callback(&code).await {
                    Ok(()) => tracing::info!(provider = %code, "PSP callback URL registered"),
                    Err(e) => tracing::warn!(provider = %code, error = %e,
                    "PSP callback URL not registered; pending charges settle by the reconciler"),
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(gateway: &str, operation: &str, outcome: &str) -> PspCall {
        PspCall {
            provider_code: "psp".into(),
            gateway_alias: Some(gateway.into()),
            operation: operation.parse().unwrap(),
            outcome: outcome.parse().unwrap(),
            duration_ms: 1,
            error: None,
            at: 0,
        }
    }

    #[test]
    fn a_failure_names_each_gateway_once_with_what_happened_there() {
        let (code, message) = failure(
            &[
                call("a-d0", "put_cob", "timeout"),
                call("a-d0", "get_cob", "refused"),
                call("b-d1", "put_cob", "unavailable"),
                call("b-d1", "put_cob", "unavailable"),
            ],
            CallOperation::GetCob,
            "the PIX charge",
        );
        assert_eq!(code, "psp_unavailable");
        assert_eq!(
            message,
            "no gateway could create the PIX charge: a-d0 (timeout, then read back: refused), \
             b-d1 (unavailable)"
        );
    }

    /// Issue 17: bad live settings stop the start instead of being quietly changed.
    #[test]
    fn live_settings_are_checked_not_raised() {
        assert_eq!(parse_lease("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_lease("0s"), Err("must be at least 1s".to_owned()));
        assert_eq!(parse_lease("999ms"), Err("must be at least 1s".to_owned()));
        assert!(parse_lease("soon").is_err());
        assert_eq!(
            parse_reconcile_interval("100ms"),
            Ok(Duration::from_millis(100))
        );
        assert!(parse_reconcile_interval("0s").is_err());

        for (given, kept) in [
            ("https://pix.example.com", "https://pix.example.com"),
            ("https://pix.example.com/", "https://pix.example.com"),
            (
                "HTTP://Pix.Example.com:8080/pixgate/",
                "http://pix.example.com:8080/pixgate",
            ),
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ] {
            assert_eq!(parse_public_url(given).as_deref(), Ok(kept), "{given}");
        }
        for refused in [
            "ftp://pix.example.com",
            "pix.example.com",
            "file:///tmp/x",
            "https://u:p@pix.example.com",
            "https://pix.example.com/?x=1",
            "https://pix.example.com/#x",
            "mailto:ops@example.com",
        ] {
            assert!(parse_public_url(refused).is_err(), "{refused}");
        }
    }
}
