//! Recent PSP call outcomes per provider, summarised as the [`GatewayHealth`] the provider
//! selection step reads (success rate, latency p50, availability, sample count).
//!
//! In memory, per instance: each instance judges a provider by the calls it made itself,
//! which is what its own next call will meet. The window is bounded in time and in samples,
//! so a provider that recovers is seen to recover within the window.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use pixgate_policy_logic::GatewayHealth;

use crate::psp::client::{CallOperation, CallOutcome, CallRecord};

/// How a call counts for health.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sample {
    /// Answered and did what was asked.
    Succeeded,
    /// Answered with a definitive refusal: the PSP works, the call did not.
    Refused,
    /// No usable answer: unavailable, timeout, no connection, unreadable, credentials refused.
    Failed,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    at_ms: i64,
    sample: Sample,
    /// Answered calls only (a timeout's duration is the timeout, not the PSP's latency).
    latency_ms: Option<u32>,
}

/// Tuning of the recorder; [`HealthSettings::default`] is what `pixgate serve` uses.
#[derive(Debug, Clone, Copy)]
pub struct HealthSettings {
    /// Samples older than this are forgotten.
    pub window: Duration,
    /// At most this many samples per provider (the newest).
    pub max_samples: usize,
    /// This many failures in a row make a provider unavailable...
    pub failures_to_trip: usize,
    /// ...until this long after the last of them, when calls may probe it again.
    pub cool_down: Duration,
}

impl Default for HealthSettings {
    fn default() -> Self {
        Self {
            window: Duration::from_secs(300),
            max_samples: 500,
            failures_to_trip: 5,
            cool_down: Duration::from_secs(30),
        }
    }
}

/// The recorder: one bounded window of samples per provider.
#[derive(Debug, Default)]
pub struct HealthBook {
    settings: HealthSettings,
    providers: Mutex<HashMap<String, VecDeque<Entry>>>,
}

impl HealthBook {
    pub fn new(settings: HealthSettings) -> Self {
        Self {
            settings,
            providers: Mutex::default(),
        }
    }

    /// Records one exchange with a PSP at `now_ms`.
    pub fn record(&self, call: &CallRecord<'_>, now_ms: i64) {
        let sample = match (call.operation, call.outcome) {
            (_, CallOutcome::Success) => Sample::Succeeded,
            (_, CallOutcome::Refused) => Sample::Refused,
            // An API 401 is how an expired token shows; the client fetches another and
            // retries, and a second 401 is reported as the call's failure anyway. At the
            // token endpoint it means the credentials are refused.
            (CallOperation::Token, CallOutcome::Unauthorized) => Sample::Failed,
            (_, CallOutcome::Unauthorized) => return,
            // Nothing was asked of the PSP (its provider could not be used); the client never
            // reports this.
            (_, CallOutcome::NotConfigured) => return,
            (
                _,
                CallOutcome::Unavailable
                | CallOutcome::Timeout
                | CallOutcome::ConnectFailed
                | CallOutcome::ProtocolError,
            ) => Sample::Failed,
        };
        let answered = matches!(sample, Sample::Succeeded | Sample::Refused);
        let entry = Entry {
            at_ms: now_ms,
            sample,
            latency_ms: answered
                .then(|| u32::try_from(call.elapsed.as_millis()).unwrap_or(u32::MAX)),
        };
        let mut providers = self.providers.lock().unwrap_or_else(|p| p.into_inner());
        let samples = providers.entry(call.provider.to_owned()).or_default();
        samples.push_back(entry);
        while samples.len() > self.settings.max_samples {
            samples.pop_front();
        }
        prune(samples, now_ms, self.settings.window);
    }

    /// The provider's health at `now_ms`. With no recent calls it is healthy: nothing
    /// says otherwise, and a provider that is never tried never gets a chance to recover.
    pub fn health(&self, provider: &str, now_ms: i64) -> GatewayHealth {
        let mut providers = self.providers.lock().unwrap_or_else(|p| p.into_inner());
        let Some(samples) = providers.get_mut(provider) else {
            return healthy();
        };
        prune(samples, now_ms, self.settings.window);
        if samples.is_empty() {
            return healthy();
        }
        let total = samples.len() as u64;
        let succeeded = samples
            .iter()
            .filter(|e| e.sample == Sample::Succeeded)
            .count() as u64;
        let mut latencies: Vec<u32> = samples.iter().filter_map(|e| e.latency_ms).collect();
        latencies.sort_unstable();
        let latency_p50_ms = latencies
            .get(latencies.len().saturating_sub(1) / 2)
            .copied()
            .unwrap_or(0);
        let trailing_failures = samples
            .iter()
            .rev()
            .take_while(|e| e.sample == Sample::Failed)
            .count();
        let last_ms = samples.back().map_or(now_ms, |e| e.at_ms);
        let cooling = now_ms - last_ms < self.settings.cool_down.as_millis() as i64;
        GatewayHealth {
            available: !(trailing_failures >= self.settings.failures_to_trip && cooling),
            success_rate_bps: (succeeded * 10_000 / total) as u32,
            latency_p50_ms,
            samples: total as u32,
        }
    }
}

fn healthy() -> GatewayHealth {
    GatewayHealth {
        available: true,
        success_rate_bps: 10_000,
        latency_p50_ms: 0,
        samples: 0,
    }
}

fn prune(samples: &mut VecDeque<Entry>, now_ms: i64, window: Duration) {
    let oldest = now_ms - window.as_millis() as i64;
    while samples.front().is_some_and(|e| e.at_ms < oldest) {
        samples.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(outcome: CallOutcome, ms: u64) -> CallRecord<'static> {
        CallRecord {
            provider: "psp-a",
            operation: CallOperation::PutCob,
            outcome,
            elapsed: Duration::from_millis(ms),
        }
    }

    #[test]
    fn no_calls_is_healthy() {
        let book = HealthBook::default();
        let h = book.health("psp-a", 1_000);
        assert!(h.available);
        assert_eq!(
            (h.success_rate_bps, h.latency_p50_ms, h.samples),
            (10_000, 0, 0)
        );
    }

    #[test]
    fn success_rate_and_median_latency_over_the_window() {
        let book = HealthBook::default();
        let t = 1_000_000;
        for (i, (outcome, ms)) in [
            (CallOutcome::Success, 100),
            (CallOutcome::Success, 300),
            (CallOutcome::Refused, 200),
            (CallOutcome::Timeout, 15_000),
        ]
        .into_iter()
        .enumerate()
        {
            book.record(&call(outcome, ms), t + i as i64);
        }
        let h = book.health("psp-a", t + 10);
        assert!(h.available);
        assert_eq!(h.samples, 4);
        assert_eq!(h.success_rate_bps, 5_000);
        // The timeout's 15 s is not a latency the PSP showed.
        assert_eq!(h.latency_p50_ms, 200);
        // Another provider is untouched.
        assert_eq!(book.health("psp-b", t).samples, 0);
        // Five minutes later the window is empty again.
        let later = book.health("psp-a", t + 300_011);
        assert_eq!((later.samples, later.success_rate_bps), (0, 10_000));
    }

    #[test]
    fn failures_in_a_row_make_it_unavailable_until_the_cool_down() {
        let book = HealthBook::default();
        let t = 5_000_000;
        book.record(&call(CallOutcome::Success, 50), t);
        for i in 1..=4 {
            book.record(&call(CallOutcome::Unavailable, 50), t + i);
        }
        assert!(book.health("psp-a", t + 5).available, "four are not enough");
        book.record(&call(CallOutcome::ConnectFailed, 1), t + 5);
        let h = book.health("psp-a", t + 6);
        assert!(!h.available);
        assert_eq!(h.success_rate_bps, 10_000 / 6);
        // After the cool-down a call may probe it; one success closes the run.
        assert!(book.health("psp-a", t + 5 + 30_000).available);
        book.record(&call(CallOutcome::Success, 50), t + 7);
        assert!(book.health("psp-a", t + 8).available);
    }

    #[test]
    fn token_refusals_count_and_a_token_expiry_does_not() {
        let book = HealthBook::default();
        let mut refused = call(CallOutcome::Unauthorized, 10);
        book.record(&refused, 1);
        assert_eq!(book.health("psp-a", 2).samples, 0);
        refused.operation = CallOperation::Token;
        book.record(&refused, 3);
        let h = book.health("psp-a", 4);
        assert_eq!((h.samples, h.success_rate_bps), (1, 0));
    }

    #[test]
    fn the_window_keeps_the_newest_samples() {
        let book = HealthBook::new(HealthSettings {
            max_samples: 3,
            ..HealthSettings::default()
        });
        for (i, outcome) in [
            CallOutcome::Timeout,
            CallOutcome::Success,
            CallOutcome::Success,
            CallOutcome::Success,
        ]
        .into_iter()
        .enumerate()
        {
            book.record(&call(outcome, 10), i as i64);
        }
        let h = book.health("psp-a", 10);
        assert_eq!((h.samples, h.success_rate_bps), (3, 10_000));
    }
}
