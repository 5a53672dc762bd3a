//! The outbox and signed webhook delivery: payment events are written to the [`outbox`] in
//! the transaction that moves the payment; the background sender inside `pixgate serve`
//! ([`worker`], handle [`Delivery`]) sends them, one signed attempt each ([`deliver`]),
//! through the egress-safe HTTPS client ([`egress`]). A merchant's endpoints, and the
//! deliveries they list and resend, are the [`endpoints`] service's.

pub mod deliver;
pub mod egress;
pub mod endpoints;
pub mod outbox;
pub mod worker;

use std::path::PathBuf;
use std::time::Duration;

use tokio::sync::Notify;

pub use crate::db::webhooks::EventType;
pub use egress::{AllowList, Egress};
pub use worker::Delivery;

/// `pixgate serve` webhook options (flags and `PIXGATE_WEBHOOK_*` variables).
#[derive(Debug, Clone, clap::Args)]
pub struct WebhookArgs {
    /// Comma-separated CIDRs exempt from the private-address block (e.g. `10.8.0.0/16`).
    #[arg(
        long = "webhook-allow-cidrs",
        env = "PIXGATE_WEBHOOK_ALLOW_CIDRS",
        default_value = ""
    )]
    pub allow_cidrs: String,
    /// Extra PEM roots trusted for webhook TLS (self-signed test receivers).
    #[arg(long = "webhook-ca-file", env = "PIXGATE_WEBHOOK_CA_FILE")]
    pub ca_file: Option<PathBuf>,
    /// Waits before each retry; the delivery is exhausted after the last.
    #[arg(
        long = "webhook-retry-schedule",
        env = "PIXGATE_WEBHOOK_RETRY_SCHEDULE",
        default_value = "5s,5m,30m,2h,5h,10h,10h"
    )]
    pub retry_schedule: String,
    /// Each wait varies by up to this many percent either way.
    #[arg(long = "webhook-retry-jitter-percent", env = "PIXGATE_WEBHOOK_RETRY_JITTER_PERCENT",
          default_value_t = 20, value_parser = clap::value_parser!(u8).range(0..=50))]
    pub retry_jitter_percent: u8,
    /// An attempt succeeds on a 2xx answered within this time.
    #[arg(long = "webhook-timeout", env = "PIXGATE_WEBHOOK_TIMEOUT", default_value = "15s",
          value_parser = humantime::parse_duration)]
    pub timeout: Duration,
    /// An endpoint failing without a success for this long is DISABLED.
    #[arg(long = "webhook-disable-after", env = "PIXGATE_WEBHOOK_DISABLE_AFTER",
          default_value = "5days", value_parser = humantime::parse_duration)]
    pub disable_after: Duration,
    /// Attempts in flight at once on this instance.
    #[arg(long = "webhook-concurrency", env = "PIXGATE_WEBHOOK_CONCURRENCY", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub concurrency: u32,
    /// How often the sender looks for due deliveries written by other instances and for
    /// retries coming due (events committed by this instance wake it at once).
    #[arg(long = "webhook-poll-interval", env = "PIXGATE_WEBHOOK_POLL_INTERVAL",
          default_value = "1s", value_parser = humantime::parse_duration)]
    pub poll_interval: Duration,
    /// Endpoints a merchant may have that are not revoked.
    #[arg(long = "webhook-max-endpoints", env = "PIXGATE_WEBHOOK_MAX_ENDPOINTS",
          default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_endpoints: u32,
    /// Run the sender on this instance (the test route works either way).
    #[arg(long = "webhook-worker", env = "PIXGATE_WEBHOOK_WORKER", default_value_t = true,
          action = clap::ArgAction::Set)]
    pub worker: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("PIXGATE_WEBHOOK_RETRY_SCHEDULE: `{0}` is not a duration like 5s, 5m or 2h")]
    Schedule(String),
    #[error("PIXGATE_WEBHOOK_ALLOW_CIDRS: `{0}` is not a CIDR like 10.0.0.0/8 or fd00::/8")]
    Cidr(String),
    #[error("PIXGATE_WEBHOOK_CA_FILE: {0}")]
    CaFile(String),
    #[error("webhook TLS: {0}")]
    Tls(String),
    #[error("{0}")]
    OutOfRange(String),
}

/// The parsed settings.
#[derive(Debug, Clone)]
pub struct Settings {
    pub retry_schedule: Vec<Duration>,
    pub jitter_percent: u8,
    pub timeout: Duration,
    pub disable_after: Duration,
    pub concurrency: usize,
    pub poll_interval: Duration,
    pub worker: bool,
    pub max_endpoints: u32,
}

impl Settings {
    /// How long a claim holds a delivery: an attempt can take the timeout, and its result
    /// then waits for the next batch write.
    pub fn lease(&self) -> Duration {
        self.timeout + Duration::from_secs(10)
    }

    /// Failures closer together than this belong to one run of failures; a longer silence
    /// (no attempt failed) starts a new run. The longest wait of the schedule, with its
    /// jitter, plus the lease, so retries of one delivery never break a run.
    pub fn failure_run_gap(&self) -> Duration {
        let longest = self
            .retry_schedule
            .iter()
            .max()
            .copied()
            .unwrap_or_default();
        longest.mul_f64(1.0 + f64::from(self.jitter_percent) / 100.0) + self.lease()
    }

    /// Bounds that keep the time arithmetic far from overflow and the values sane.
    fn check_bounds(&self) -> Result<(), SettingsError> {
        const DAY: Duration = Duration::from_secs(86_400);
        let out = |what: &str| Err(SettingsError::OutOfRange(what.to_owned()));
        if self.timeout.is_zero() || self.timeout > Duration::from_secs(300) {
            return out("PIXGATE_WEBHOOK_TIMEOUT must be more than 0 and at most 5 minutes");
        }
        if self.retry_schedule.len() > 50 || self.retry_schedule.iter().any(|w| *w > 7 * DAY) {
            return out("PIXGATE_WEBHOOK_RETRY_SCHEDULE: at most 50 waits of at most 7 days");
        }
        if self.disable_after > 365 * DAY {
            return out("PIXGATE_WEBHOOK_DISABLE_AFTER must be at most 365 days");
        }
        if self.poll_interval > Duration::from_secs(3600) {
            return out("PIXGATE_WEBHOOK_POLL_INTERVAL must be at most an hour");
        }
        Ok(())
    }
}

/// Parses a comma-separated list of durations (`5s,5m,30m`); empty means no retries.
pub fn parse_schedule(text: &str) -> Result<Vec<Duration>, SettingsError> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| humantime::parse_duration(s).map_err(|_| SettingsError::Schedule(s.to_owned())))
        .collect()
}

/// What the HTTP handlers and the sender share: settings, the egress-safe client, and the
/// signal that wakes the sender when this instance commits deliveries.
#[derive(Debug)]
pub struct Webhooks {
    pub settings: Settings,
    pub egress: Egress,
    wake: Wake,
    /// Attempts in flight on this instance, the sender's and the test route's together
    /// (`PIXGATE_WEBHOOK_CONCURRENCY`).
    pub(crate) permits: std::sync::Arc<tokio::sync::Semaphore>,
}

impl Webhooks {
    pub fn new(args: &WebhookArgs) -> Result<Self, SettingsError> {
        let settings = Settings {
            retry_schedule: parse_schedule(&args.retry_schedule)?,
            jitter_percent: args.retry_jitter_percent,
            timeout: args.timeout,
            disable_after: args.disable_after,
            concurrency: args.concurrency as usize,
            poll_interval: args.poll_interval.max(Duration::from_millis(10)),
            worker: args.worker,
            max_endpoints: args.max_endpoints,
        };
        settings.check_bounds()?;
        let allow = AllowList::parse(&args.allow_cidrs)?;
        let egress = Egress::new(
            allow,
            args.ca_file.as_deref(),
            settings.timeout,
            settings.concurrency,
        )?;
        Ok(Self {
            permits: std::sync::Arc::new(tokio::sync::Semaphore::new(settings.concurrency)),
            settings,
            egress,
            wake: Wake::default(),
        })
    }

    /// The signal services give after committing deliveries.
    pub fn wake(&self) -> Wake {
        self.wake.clone()
    }

    pub(crate) async fn woken(&self) {
        self.wake.0.notified().await;
    }
}

/// Wakes this instance's sender: given after committing deliveries, so the sender picks them
/// up now instead of at its next poll.
#[derive(Debug, Clone, Default)]
pub struct Wake(std::sync::Arc<Notify>);

impl Wake {
    pub fn wake(&self) {
        self.0.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_schedule_is_the_documented_one() {
        let s = parse_schedule("5s,5m,30m,2h,5h,10h,10h").unwrap();
        let secs: Vec<u64> = s.iter().map(Duration::as_secs).collect();
        assert_eq!(secs, [5, 300, 1800, 7200, 18000, 36000, 36000]);
    }

    #[test]
    fn schedules_accept_milliseconds_and_reject_nonsense() {
        assert_eq!(
            parse_schedule("200ms, 1s").unwrap(),
            [Duration::from_millis(200), Duration::from_secs(1)]
        );
        assert!(parse_schedule("").unwrap().is_empty());
        assert!(matches!(
            parse_schedule("5s,soon"),
            Err(SettingsError::Schedule(s)) if s == "soon"
        ));
    }
}
