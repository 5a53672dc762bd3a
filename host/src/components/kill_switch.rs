//! The kill switch: counts, per store and step, the calls of the activated version and how
//! many failed in the sandbox over a sliding window; when the share of failures reaches the
//! store's threshold, the version is rolled back (see [`super::kill`]).
//!
//! The counts live in this instance's memory: each instance judges the traffic it serves,
//! and the rollback itself is a compare-and-set in the database, so two instances firing at
//! once roll back once. A refusal by a step is a business answer, not a failure.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use crate::db::components::{BUNDLED, KillSwitch};
use pixgate_domain::Step;

/// Calls and failures in one second.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    second: i64,
    calls: u64,
    failures: u64,
}

#[derive(Debug, Default)]
struct Window {
    /// The activation counted: the version and when it was activated, so a re-activation of
    /// the same version (after a rollback) starts a fresh count.
    activation: (String, Option<i64>),
    buckets: VecDeque<Bucket>,
    /// Set once the switch fired for this version, so it fires once.
    fired: bool,
}

/// The measurement that made the switch fire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub calls: u64,
    pub failures: u64,
    pub reason: String,
}

#[derive(Debug, Default)]
pub struct Tracker {
    windows: Mutex<HashMap<(String, Step), Window>>,
}

impl Tracker {
    /// Counts one call of the activation of `version` (activated at `activated_at`) for the
    /// store's step; returns a verdict when this call makes the switch fire. Calls of the
    /// bundled component are not judged: there is nothing to roll back to.
    #[allow(clippy::too_many_arguments)]
    pub fn observe(
        &self,
        store_id: &str,
        step: Step,
        version: &str,
        activated_at: Option<i64>,
        failed: bool,
        settings: &KillSwitch,
        now_ms: i64,
    ) -> Option<Verdict> {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        let window = windows.entry((store_id.to_owned(), step)).or_default();
        if window.activation.0 != version || window.activation.1 != activated_at {
            *window = Window {
                activation: (version.to_owned(), activated_at),
                ..Window::default()
            };
        }
        if !settings.enabled.0 || version == BUNDLED {
            return None;
        }
        let second = now_ms.div_euclid(1000);
        match window.buckets.back_mut() {
            Some(b) if b.second == second => {
                b.calls += 1;
                b.failures += u64::from(failed);
            }
            _ => window.buckets.push_back(Bucket {
                second,
                calls: 1,
                failures: u64::from(failed),
            }),
        }
        let oldest = second - settings.window_seconds + 1;
        while window.buckets.front().is_some_and(|b| b.second < oldest) {
            window.buckets.pop_front();
        }
        if !failed || window.fired {
            return None;
        }
        let (calls, failures) = window
            .buckets
            .iter()
            .fold((0, 0), |(c, f), b| (c + b.calls, f + b.failures));
        let threshold = settings.error_rate_percent as u64;
        if calls >= settings.min_calls as u64 && failures * 100 >= threshold * calls {
            window.fired = true;
            return Some(Verdict {
                calls,
                failures,
                reason: format!(
                    "{failures} of {calls} calls failed in the last {} s ({}%), at or above the \
                     threshold of {threshold}%",
                    settings.window_seconds,
                    failures * 100 / calls
                ),
            });
        }
        None
    }

    /// Arms the switch again after its rollback could not be written, so the next failure
    /// tries again.
    pub fn rearm(&self, store_id: &str, step: Step) {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(window) = windows.get_mut(&(store_id.to_owned(), step)) {
            window.fired = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Flag;

    fn settings() -> KillSwitch {
        KillSwitch {
            enabled: Flag(true),
            error_rate_percent: 50,
            window_seconds: 10,
            min_calls: 4,
        }
    }

    #[test]
    fn fires_once_when_the_rate_reaches_the_threshold_with_enough_calls() {
        let t = Tracker::default();
        let s = settings();
        assert_eq!(
            t.observe("s", Step::Policy, "v1", Some(1), true, &s, 0),
            None,
            "too few calls"
        );
        assert_eq!(
            t.observe("s", Step::Policy, "v1", Some(1), false, &s, 100),
            None
        );
        assert_eq!(
            t.observe("s", Step::Policy, "v1", Some(1), false, &s, 200),
            None
        );
        let v = t
            .observe("s", Step::Policy, "v1", Some(1), true, &s, 300)
            .unwrap();
        assert_eq!((v.calls, v.failures), (4, 2));
        assert!(v.reason.contains("2 of 4 calls"), "{}", v.reason);
        assert_eq!(
            t.observe("s", Step::Policy, "v1", Some(1), true, &s, 400),
            None,
            "once"
        );
        // A new version starts a new count.
        assert_eq!(
            t.observe("s", Step::Policy, "v2", Some(1), true, &s, 500),
            None
        );
    }

    #[test]
    fn a_reactivation_after_a_rollback_to_bundled_is_judged_afresh() {
        let t = Tracker::default();
        let mut s = settings();
        s.min_calls = 2;
        t.observe("s", Step::Policy, "v1", Some(1), true, &s, 0);
        assert!(
            t.observe("s", Step::Policy, "v1", Some(1), true, &s, 1)
                .is_some()
        );
        // Rolled back: the bundled component runs for a while.
        assert_eq!(
            t.observe("s", Step::Policy, BUNDLED, Some(2), true, &s, 2),
            None
        );
        // The same version activated again fails again: the switch fires again.
        t.observe("s", Step::Policy, "v1", Some(3), true, &s, 3);
        assert!(
            t.observe("s", Step::Policy, "v1", Some(3), true, &s, 4)
                .is_some()
        );
        // A failed rollback re-arms it.
        t.rearm("s", Step::Policy);
        assert!(
            t.observe("s", Step::Policy, "v1", Some(3), true, &s, 5)
                .is_some()
        );
    }

    #[test]
    fn old_calls_leave_the_window() {
        let t = Tracker::default();
        let s = settings();
        for i in 0..3 {
            t.observe("s", Step::Provider, "v1", Some(1), true, &s, i * 100);
        }
        // 20 s later the three failures are out of the 10 s window.
        for i in 0..3 {
            assert_eq!(
                t.observe("s", Step::Provider, "v1", Some(1), false, &s, 20_000 + i),
                None
            );
        }
        assert_eq!(
            t.observe("s", Step::Provider, "v1", Some(1), true, &s, 20_010),
            None
        );
    }

    #[test]
    fn bundled_and_disabled_are_never_judged() {
        let t = Tracker::default();
        let mut s = settings();
        s.min_calls = 1;
        assert_eq!(
            t.observe("s", Step::Policy, BUNDLED, Some(1), true, &s, 0),
            None
        );
        s.enabled = Flag(false);
        assert_eq!(
            t.observe("s", Step::Policy, "v1", Some(1), true, &s, 0),
            None
        );
    }
}
