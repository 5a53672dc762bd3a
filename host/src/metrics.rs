//! Prometheus metrics, served as text on the admin listener's `/metrics`.

use std::sync::atomic::{AtomicI64, AtomicU64};

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct HttpLabels {
    pub listener: &'static str,
    pub method: String,
    pub route: String,
    pub status: u16,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StepLabels {
    pub step: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ShadowLabels {
    pub step: &'static str,
    /// `same`, `changed` or `skipped` (the queue was full).
    pub result: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct KillSwitchLabels {
    pub store: String,
    pub step: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CanaryLabels {
    pub store: String,
    pub step: String,
    /// A call: `same`, `changed` or `failed`; an end: how it ended (`promoted`, `error_rate`, ...).
    pub result: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct WebhookLabels {
    pub result: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PspCallLabels {
    pub provider: String,
    /// `token`, `put_cob`, `get_cob`, `put_webhook`.
    pub operation: &'static str,
    /// `success`, `refused`, `unauthorized`, `unavailable`, `timeout`, `connect_failed`,
    /// `protocol_error`.
    pub outcome: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PspLatencyLabels {
    pub provider: String,
    pub operation: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct LiveLabels {
    pub provider: String,
    /// The status an intent reached (`PENDING`, `SUCCEEDED`, ...), or an anomaly's kind.
    pub status: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct AnomalyLabels {
    pub provider: String,
    /// e.g. `amount_mismatch`.
    pub kind: String,
}

pixgate_domain::text_enum!(
    /// What a read at a PSP found that needs a person: the `kind` of
    /// `pixgate_live_anomalies_total`.
    LiveAnomaly {
        /// The PSP's charge was paid for another amount than pixgate's.
        AmountMismatch = "amount_mismatch",
        /// The PSP does not know a charge pixgate created there.
        ChargeNotFound = "charge_not_found",
        /// A devolução pixgate did not ask for (the MED's, made by the PSP).
        DevolucaoByPsp = "devolucao_by_psp",
        /// A devolução for another amount than the refund's.
        RefundAmountMismatch = "refund_amount_mismatch",
    }
);

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

pub struct Metrics {
    registry: Registry,
    requests: Family<HttpLabels, Counter>,
    latency: HistogramFamily<HttpLabels>,
    step_seconds: HistogramFamily<StepLabels>,
    step_fuel: HistogramFamily<StepLabels>,
    webhook_attempts: Family<WebhookLabels, Counter>,
    webhook_seconds: HistogramFamily<WebhookLabels>,
    webhook_pending: Gauge<i64, AtomicI64>,
    webhook_due_lag: Gauge<f64, AtomicU64>,
    shadow: Family<ShadowLabels, Counter>,
    kill_switch: Family<KillSwitchLabels, Counter>,
    canary_calls: Family<CanaryLabels, Counter>,
    canary_ends: Family<CanaryLabels, Counter>,
    psp: PspMetrics,
    live_transitions: Family<LiveLabels, Counter>,
    live_anomalies: Family<AnomalyLabels, Counter>,
    reconciliation_findings: Family<AnomalyLabels, Counter>,
    commits: crate::db::group_commit::CommitMetrics,
}

/// The PSP call metrics, shareable with the clients (the families are handles to the same
/// counters).
#[derive(Clone)]
pub struct PspMetrics {
    calls: Family<PspCallLabels, Counter>,
    seconds: HistogramFamily<PspLatencyLabels>,
    /// The families by provider that alert rules read with `increase()`: each provider's
    /// series exist at zero from the first time this instance knows the provider, so the first
    /// anomaly or finding is an increase, not a series born at one.
    anomalies: Family<AnomalyLabels, Counter>,
    findings: Family<AnomalyLabels, Counter>,
}

impl std::fmt::Debug for PspMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PspMetrics")
    }
}

impl PspMetrics {
    /// Exposes `provider`'s anomaly and reconciliation series at zero (`get_or_create` makes
    /// a series; the guard it returns is dropped at once).
    pub fn provider_known(&self, provider: &str) {
        for kind in LiveAnomaly::ALL {
            let _ = self.anomalies.get_or_create(&AnomalyLabels {
                provider: provider.to_owned(),
                kind: kind.as_str().to_owned(),
            });
        }
        for kind in pixgate_domain::reconciliation::FindingKind::ALL {
            let _ = self.findings.get_or_create(&AnomalyLabels {
                provider: provider.to_owned(),
                kind: kind.as_str().to_owned(),
            });
        }
    }

    pub fn observe(
        &self,
        provider: &str,
        operation: &'static str,
        outcome: &'static str,
        seconds: f64,
    ) {
        self.calls
            .get_or_create(&PspCallLabels {
                provider: provider.to_owned(),
                operation,
                outcome,
            })
            .inc();
        self.seconds
            .get_or_create(&PspLatencyLabels {
                provider: provider.to_owned(),
                operation,
            })
            .observe(seconds);
    }
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("pixgate");
        let requests = Family::<HttpLabels, Counter>::default();
        let latency: HistogramFamily<HttpLabels> =
            Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.0005, 2.0, 14)));
        let step_seconds: HistogramFamily<StepLabels> = Family::new_with_constructor(|| {
            Histogram::new(exponential_buckets(0.000_005, 2.0, 16))
        });
        let step_fuel: HistogramFamily<StepLabels> =
            Family::new_with_constructor(|| Histogram::new(exponential_buckets(1_000.0, 4.0, 10)));
        registry.register("http_requests", "HTTP requests answered", requests.clone());
        registry.register(
            "http_request_duration_seconds",
            "HTTP request latency",
            latency.clone(),
        );
        registry.register(
            "chain_step_duration_seconds",
            "Duration of one resolution-chain step in the sandbox",
            step_seconds.clone(),
        );
        registry.register(
            "chain_step_fuel",
            "Fuel a resolution-chain step consumed",
            step_fuel.clone(),
        );
        let webhook_attempts = Family::<WebhookLabels, Counter>::default();
        let webhook_seconds: HistogramFamily<WebhookLabels> =
            Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.002, 2.0, 14)));
        registry.register(
            "webhook_attempts",
            "Webhook delivery attempts by result (delivered or failed)",
            webhook_attempts.clone(),
        );
        registry.register(
            "webhook_attempt_duration_seconds",
            "Duration of one webhook delivery attempt",
            webhook_seconds.clone(),
        );
        // At zero from the start: a rule's `rate()` sees the first failure.
        for result in ["delivered", "failed"] {
            let _ = webhook_attempts.get_or_create(&WebhookLabels { result });
        }
        let webhook_pending = Gauge::<i64, AtomicI64>::default();
        registry.register(
            "webhook_pending",
            "Webhook deliveries waiting in the outbox, retries scheduled later included (the \
             whole database's: every instance reports the same)",
            webhook_pending.clone(),
        );
        let webhook_due_lag = Gauge::<f64, AtomicU64>::default();
        registry.register(
            "webhook_due_lag_seconds",
            "How late the most overdue webhook delivery is (0 when none is due): the senders \
             falling behind",
            webhook_due_lag.clone(),
        );
        let shadow = Family::<ShadowLabels, Counter>::default();
        registry.register(
            "shadow_comparisons",
            "Charges compared against a shadow candidate, by result (same, changed, skipped)",
            shadow.clone(),
        );
        // A full queue skips a charge's candidates for every step at once (`all`).
        for step in pixgate_domain::Step::ALL.map(pixgate_domain::Step::as_str) {
            for result in ["same", "changed"] {
                let _ = shadow.get_or_create(&ShadowLabels { step, result });
            }
        }
        let _ = shadow.get_or_create(&ShadowLabels {
            step: "all",
            result: "skipped",
        });
        let kill_switch = Family::<KillSwitchLabels, Counter>::default();
        registry.register(
            "kill_switch_rollbacks",
            "Versions the kill switch rolled back, by store and step",
            kill_switch.clone(),
        );
        let canary_calls = Family::<CanaryLabels, Counter>::default();
        registry.register(
            "canary_calls",
            "Charges that ran a canary's version, by store, step and result (same, changed, \
             failed)",
            canary_calls.clone(),
        );
        let canary_ends = Family::<CanaryLabels, Counter>::default();
        registry.register(
            "canary_ends",
            "Canaries that ended, by store, step and how (promoted, ended, error_rate, \
             changed_rate, replaced, superseded)",
            canary_ends.clone(),
        );
        let live_anomalies = Family::<AnomalyLabels, Counter>::default();
        let reconciliation_findings = Family::<AnomalyLabels, Counter>::default();
        let psp = PspMetrics {
            calls: Family::default(),
            seconds: Family::new_with_constructor(|| {
                Histogram::new(exponential_buckets(0.005, 2.0, 13))
            }),
            anomalies: live_anomalies.clone(),
            findings: reconciliation_findings.clone(),
        };
        registry.register(
            "psp_calls",
            "Calls to PSPs (one per HTTP exchange) by provider, operation and outcome",
            psp.calls.clone(),
        );
        registry.register(
            "psp_call_duration_seconds",
            "Duration of one HTTP exchange with a PSP, by provider and operation",
            psp.seconds.clone(),
        );
        let live_transitions = Family::<LiveLabels, Counter>::default();
        registry.register(
            "live_intents",
            "LIVE intents reaching a status, by provider and status",
            live_transitions.clone(),
        );
        registry.register(
            "live_anomalies",
            "Reads of PSP charges that need a person (e.g. amount_mismatch), by provider and kind",
            live_anomalies.clone(),
        );
        registry.register(
            "reconciliation_findings",
            "What the ledger sweep found, by provider and finding kind (matched included)",
            reconciliation_findings.clone(),
        );
        let commits = crate::db::group_commit::CommitMetrics {
            batch_size: Histogram::new(exponential_buckets(1.0, 2.0, 12)),
            seconds: Histogram::new(exponential_buckets(0.000_25, 2.0, 14)),
        };
        registry.register(
            "commit_batch_size",
            "Charges written by one group-commit transaction",
            commits.batch_size.clone(),
        );
        registry.register(
            "commit_duration_seconds",
            "Duration of one group-commit transaction, from begin to the synced commit",
            commits.seconds.clone(),
        );
        Self {
            commits,
            psp,
            registry,
            live_transitions,
            live_anomalies,
            reconciliation_findings,
            shadow,
            kill_switch,
            canary_calls,
            canary_ends,
            webhook_attempts,
            webhook_seconds,
            webhook_pending,
            webhook_due_lag,
            requests,
            latency,
            step_seconds,
            step_fuel,
        }
    }

    pub fn observe_request(&self, labels: HttpLabels, seconds: f64) {
        self.requests.get_or_create(&labels).inc();
        self.latency.get_or_create(&labels).observe(seconds);
    }

    pub fn observe_step(&self, step: &'static str, seconds: f64, fuel: u64) {
        let labels = StepLabels { step };
        self.step_seconds.get_or_create(&labels).observe(seconds);
        self.step_fuel.get_or_create(&labels).observe(fuel as f64);
    }

    pub fn observe_webhook_attempt(&self, delivered: bool, seconds: f64) {
        let labels = WebhookLabels {
            result: if delivered { "delivered" } else { "failed" },
        };
        self.webhook_attempts.get_or_create(&labels).inc();
        self.webhook_seconds.get_or_create(&labels).observe(seconds);
    }

    pub fn observe_shadow(&self, step: &'static str, result: &'static str) {
        self.shadow
            .get_or_create(&ShadowLabels { step, result })
            .inc();
    }

    pub fn canary_call(&self, store: &str, step: &str, result: &str) {
        self.canary_calls
            .get_or_create(&CanaryLabels {
                store: store.to_owned(),
                step: step.to_owned(),
                result: result.to_owned(),
            })
            .inc();
    }

    pub fn canary_ended(&self, store: &str, step: &str, how: &str) {
        self.canary_ends
            .get_or_create(&CanaryLabels {
                store: store.to_owned(),
                step: step.to_owned(),
                result: how.to_owned(),
            })
            .inc();
    }

    pub fn kill_switch_fired(&self, store: &str, step: &'static str) {
        self.kill_switch
            .get_or_create(&KillSwitchLabels {
                store: store.to_owned(),
                step,
            })
            .inc();
    }

    /// A handle on the group commit's metrics for its writer.
    pub fn commits(&self) -> crate::db::group_commit::CommitMetrics {
        self.commits.clone()
    }

    /// A handle on the PSP call metrics for the providers' clients.
    pub fn psp(&self) -> PspMetrics {
        self.psp.clone()
    }

    pub fn live_transition(&self, provider: &str, status: &str) {
        self.live_transitions
            .get_or_create(&LiveLabels {
                provider: provider.to_owned(),
                status: status.to_owned(),
            })
            .inc();
    }

    pub fn live_anomaly(&self, provider: &str, kind: LiveAnomaly) {
        self.live_anomalies
            .get_or_create(&AnomalyLabels {
                provider: provider.to_owned(),
                kind: kind.as_str().to_owned(),
            })
            .inc();
    }

    /// The outbox as the sender sees it: deliveries waiting (retries scheduled later
    /// included), and how late the most overdue one is (0 when none is due).
    pub fn webhook_backlog(&self, pending: i64, due_lag_seconds: f64) {
        self.webhook_pending.set(pending);
        self.webhook_due_lag.set(due_lag_seconds);
    }

    pub fn reconciliation_findings(
        &self,
        provider: &str,
        kind: pixgate_domain::reconciliation::FindingKind,
        n: u64,
    ) {
        self.reconciliation_findings
            .get_or_create(&AnomalyLabels {
                provider: provider.to_owned(),
                kind: kind.as_str().to_owned(),
            })
            .inc_by(n);
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}
