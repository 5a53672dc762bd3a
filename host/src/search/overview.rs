//! What the person on call looks at first (issue 31): the console's landing view
//! (`GET /admin/v1/overview`) and a payment found by any of its identifiers
//! (`GET /admin/v1/lookup`: the paymentIntentId, the charge's txid, or the pix's endToEndId).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use utoipa::ToSchema;

use super::{AdminPaymentIntent, Search, SearchError};
use crate::charges::view::{PaymentIntent, QrCode};
use crate::db::catalog::{self, Store};
use crate::db::intents::Intent;
use crate::db::overview as sql;
use crate::db::search::{self as search_sql, PixId};
use crate::internal::Internal;
use pixgate_domain::json::Invalid;
use pixgate_domain::{IntentStatus, Step, StoreMode};
use pixgate_pix::time::iso8601;

/// The window of the landing view: `hours` from 1 to a week, a day when absent.
pub const MAX_HOURS: i64 = 168;
pub const DEFAULT_HOURS: i64 = 24;
/// The oldest pending LIVE charges listed by name.
const OLDEST: i64 = 10;
/// Matches listed per identifier: a txid is unique per PSP, so a handful at most.
const MATCHES: i64 = 20;

/// The age classes of pending LIVE charges: the lower bound of each (seconds) and its label.
/// A LIVE charge is normally paid within minutes; one pending for hours is a lost callback,
/// a PSP that does not answer reads, or a payer who walked away.
const AGES: [(i64, &str); 5] = [
    (0, "under 5 min"),
    (300, "5 to 30 min"),
    (1_800, "30 min to 2 h"),
    (7_200, "2 to 24 h"),
    (86_400, "over 24 h"),
];

/// Charges by status: every status is a key, with 0 when none.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusCounts {
    pub charges: i64,
    pub amount_centavos: i64,
    /// The charges in each status: `SHADOW_ONLY`, `PENDING`, `SUCCEEDED`, `FAILED` and
    /// `CANCELED`, each present.
    #[schema(value_type = BTreeMap<String, i64>)]
    pub by_status: BTreeMap<&'static str, i64>,
}

impl StatusCounts {
    fn new() -> Self {
        Self {
            charges: 0,
            amount_centavos: 0,
            by_status: IntentStatus::ALL.iter().map(|s| (s.as_str(), 0)).collect(),
        }
    }

    fn add(&mut self, row: &sql::VolumeRow) {
        self.charges += row.charges;
        self.amount_centavos += row.amount_centavos;
        *self.by_status.entry(row.status.as_str()).or_default() += row.charges;
    }
}

/// The charges created in one bucket of time.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VolumeBucket {
    /// Where the bucket starts (a multiple of its width since the Unix epoch, UTC).
    #[schema(format = DateTime)]
    pub at: String,
    #[serde(flatten)]
    pub counts: StatusCounts,
}

/// The pending LIVE charges of one age class.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AgeClass {
    /// `under 5 min`, `5 to 30 min`, `30 min to 2 h`, `2 to 24 h` or `over 24 h`.
    pub label: &'static str,
    pub count: i64,
}

/// The LIVE charges created at a PSP and not paid, canceled or failed yet.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingLive {
    pub count: i64,
    /// By age, youngest class first (all five classes).
    pub by_age: Vec<AgeClass>,
    /// The oldest ones, oldest first (at most 10).
    pub oldest: Vec<AdminPaymentIntent>,
}

/// A running canary: its share of the store's new charges.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunningCanary {
    pub step: Step,
    pub version: String,
    /// Hundredths of a percent: 1000 is 10 %.
    pub basis_points: i64,
    #[schema(format = DateTime)]
    pub started_at: String,
}

/// A shadow candidate attached to a store step.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ShadowCandidate {
    pub step: Step,
    pub version: String,
    #[schema(format = DateTime)]
    pub since: String,
}

/// A store where a new version runs beside the active one.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FlaggedStore {
    pub store: String,
    pub merchant: String,
    pub mode: StoreMode,
    pub canaries: Vec<RunningCanary>,
    pub candidates: Vec<ShadowCandidate>,
}

/// The landing view: is anything on fire?
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    #[schema(format = DateTime)]
    pub from: String,
    #[schema(format = DateTime)]
    pub to: String,
    /// The width of each bucket of `series`.
    pub bucket_seconds: i64,
    /// Every charge created in `[from, to)`, by its status now.
    pub totals: StatusCounts,
    /// The same by bucket of `bucketSeconds`, oldest first; empty buckets are left out.
    pub series: Vec<VolumeBucket>,
    pub pending_live: PendingLive,
    /// Stores with a running canary or an attached shadow candidate, by code.
    pub flagged_stores: Vec<FlaggedStore>,
}

/// A payment found by one of its identifiers.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Match {
    #[serde(flatten)]
    pub intent: AdminPaymentIntent,
    /// Which identifier matched: `paymentIntentId`, `txid` or `endToEndId`.
    pub matched_by: MatchedBy,
}

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum MatchedBy {
    PaymentIntentId,
    Txid,
    EndToEndId,
}

/// `hours`: a whole number from 1 to [`MAX_HOURS`]; [`DEFAULT_HOURS`] when absent.
pub fn hours(raw: Option<&str>) -> Result<i64, Invalid> {
    let Some(raw) = raw else {
        return Ok(DEFAULT_HOURS);
    };
    raw.parse::<i64>()
        .ok()
        .filter(|n| raw.bytes().all(|b| b.is_ascii_digit()) && (1..=MAX_HOURS).contains(n))
        .ok_or_else(|| {
            Invalid::new(
                "invalid_hours",
                "hours",
                format!("`hours` must be a whole number from 1 to {MAX_HOURS}"),
            )
        })
}

/// What `q` may be, as the document states it (a test holds [`lookup_value`] to it).
pub const LOOKUP_PATTERN: &str = "^[A-Za-z0-9-]{1,64}$";

/// `q`: 1 to 64 letters, digits or `-` (a UUID, a txid, an endToEndId).
pub fn lookup_value(raw: Option<&str>) -> Result<&str, Invalid> {
    raw.filter(|q| {
        (1..=64).contains(&q.len()) && q.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    })
    .ok_or_else(|| {
        Invalid::new(
            "invalid_q",
            "q",
            "`q` must be a paymentIntentId, a txid or an endToEndId: 1 to 64 letters, digits or '-'",
        )
    })
}

impl Search {
    /// The landing view over the `hours` before now.
    #[tracing::instrument(skip_all)]
    pub async fn overview(&self, hours: i64) -> Result<Overview, SearchError> {
        let to = crate::db::now_ms();
        let from = to - hours * 3_600_000;
        // Buckets of 5 minutes for the last hour up to hours for a week: at most 48 of them.
        let width_ms = [
            300_000, 900_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000,
        ]
        .into_iter()
        .find(|w| hours * 3_600_000 / w <= 48)
        .unwrap_or(21_600_000);
        let rows = sql::volume(&self.db.read, from, to, width_ms).await?;
        let mut totals = StatusCounts::new();
        let mut series: Vec<VolumeBucket> = Vec::new();
        for row in &rows {
            totals.add(row);
            match series.last_mut() {
                Some(last) if last.at == iso8601(row.bucket) => last.counts.add(row),
                _ => {
                    let mut counts = StatusCounts::new();
                    counts.add(row);
                    series.push(VolumeBucket {
                        at: iso8601(row.bucket),
                        counts,
                    });
                }
            }
        }
        let bounds = [1, 2, 3, 4].map(|i| to - AGES[i].0 * 1000);
        let counts = sql::pending_live_by_age(&self.db.read, bounds).await?;
        let oldest = sql::oldest_pending_live(&self.db.read, OLDEST).await?;
        let pending_live = PendingLive {
            count: counts.iter().sum(),
            by_age: AGES
                .iter()
                .zip(counts)
                .map(|((_, label), count)| AgeClass { label, count })
                .collect(),
            oldest: self.admin_views(oldest).await?,
        };
        let mut flagged: Vec<FlaggedStore> = Vec::new();
        for r in sql::rollouts(&self.db.read).await? {
            let store = match flagged.last_mut() {
                Some(last) if last.store == r.store_code => last,
                _ => {
                    flagged.push(FlaggedStore {
                        store: r.store_code.clone(),
                        merchant: r.merchant_code.clone(),
                        mode: r.mode,
                        canaries: Vec::new(),
                        candidates: Vec::new(),
                    });
                    flagged.last_mut().expect("pushed above")
                }
            };
            match r.basis_points {
                Some(basis_points) => store.canaries.push(RunningCanary {
                    step: r.step,
                    version: r.version,
                    basis_points,
                    started_at: iso8601(r.since),
                }),
                None => store.candidates.push(ShadowCandidate {
                    step: r.step,
                    version: r.version,
                    since: iso8601(r.since),
                }),
            }
        }
        Ok(Overview {
            from: iso8601(from),
            to: iso8601(to),
            bucket_seconds: width_ms / 1000,
            totals,
            series,
            pending_live,
            flagged_stores: flagged,
        })
    }

    /// The payments `q` names: by id when it is a UUID, then by txid and by endToEndId.
    #[tracing::instrument(skip_all)]
    pub async fn lookup(&self, q: &str) -> Result<Vec<Match>, SearchError> {
        let mut found: Vec<(Intent, MatchedBy)> = Vec::new();
        if let Ok(id) = uuid::Uuid::parse_str(q)
            && let Some(intent) = crate::db::intents::by_id(&self.db.read, &id.to_string()).await?
        {
            found.push((intent, MatchedBy::PaymentIntentId));
        }
        for (which, by) in [
            (PixId::Txid, MatchedBy::Txid),
            (PixId::EndToEndId, MatchedBy::EndToEndId),
        ] {
            for intent in search_sql::intents_by_pix_id(&self.db.read, which, q, MATCHES).await? {
                if !found.iter().any(|(f, _)| f.id == intent.id) {
                    found.push((intent, by));
                }
            }
        }
        let by: Vec<MatchedBy> = found.iter().map(|(_, by)| *by).collect();
        let views = self
            .admin_views(found.into_iter().map(|(i, _)| i).collect())
            .await?;
        Ok(views
            .into_iter()
            .zip(by)
            .map(|(intent, matched_by)| Match { intent, matched_by })
            .collect())
    }

    /// The admin views of `intents`, in order: each with its store and merchant code.
    pub(super) async fn admin_views(
        &self,
        intents: Vec<Intent>,
    ) -> Result<Vec<AdminPaymentIntent>, SearchError> {
        let mut stores: HashMap<String, Store> = HashMap::new();
        let mut merchants: HashMap<String, String> = HashMap::new();
        let mut views = Vec::with_capacity(intents.len());
        for intent in intents {
            if !stores.contains_key(&intent.store_id) {
                let store = catalog::store_by_id(&self.db.read, &intent.store_id)
                    .await?
                    .ok_or_else(|| {
                        Internal::broken(format!("intent {} without its store", intent.id))
                    })?;
                stores.insert(intent.store_id.clone(), store);
            }
            if !merchants.contains_key(&intent.merchant_id) {
                let code = catalog::merchant_code(&self.db.read, &intent.merchant_id).await?;
                merchants.insert(intent.merchant_id.clone(), code);
            }
            views.push(AdminPaymentIntent {
                // Without QR codes: drawing one is milliseconds, and the console opens the payment
                // (`GET /payment-intents/{id}`) to show it.
                intent: PaymentIntent::from_row_with(
                    &intent,
                    &stores[&intent.store_id],
                    false,
                    QrCode::Omit,
                ),
                merchant: merchants[&intent.merchant_id].clone(),
            });
        }
        Ok(views)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_values_are_what_the_pattern_says() {
        let pattern = regex::Regex::new(LOOKUP_PATTERN).unwrap();
        let long = "a".repeat(64);
        let too_long = "a".repeat(65);
        for q in [
            "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
            "E12345678202611271200abcdefghijk",
            &long,
            &too_long,
            "",
            "a b",
            "é",
            "a_b",
            "a\n",
        ] {
            assert_eq!(pattern.is_match(q), lookup_value(Some(q)).is_ok(), "{q:?}");
        }
        assert!(lookup_value(None).is_err());
        assert_eq!(hours(None), Ok(DEFAULT_HOURS));
        for bad in ["0", "169", "+1", "1.0", ""] {
            assert!(hours(Some(bad)).is_err(), "{bad}");
        }
    }
}
