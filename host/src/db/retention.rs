//! The purge job's deletes: each removes at most `limit` rows older than a cutoff
//! (milliseconds), oldest first, and says how many it removed.

use sqlx::{Any, Executor};

/// What the purge job deletes, in the order it must: attempts before their deliveries,
/// deliveries before the events they refer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purgeable {
    /// Attempts of finished deliveries (PENDING ones are never touched; a resend makes a
    /// delivery PENDING again).
    Attempts,
    /// Finished deliveries whose attempts are gone.
    Deliveries,
    /// Payment events that no delivery refers to any more.
    Events,
    DecisionTraces,
    PspCalls,
    ShadowResults,
    /// A canary's recorded calls; its window only ever reads the recent ones.
    CanaryCalls,
}

impl Purgeable {
    pub const WEBHOOK_DATA: [Self; 3] = [Self::Attempts, Self::Deliveries, Self::Events];
    pub const TRACE_DATA: [Self; 4] = [
        Self::DecisionTraces,
        Self::PspCalls,
        Self::ShadowResults,
        Self::CanaryCalls,
    ];

    /// The table, as a log field.
    pub const fn table(self) -> &'static str {
        match self {
            Self::Attempts => "webhook_attempts",
            Self::Deliveries => "webhook_deliveries",
            Self::Events => "payment_events",
            Self::DecisionTraces => "decision_traces",
            Self::PspCalls => "psp_calls",
            Self::ShadowResults => "shadow_results",
            Self::CanaryCalls => "canary_calls",
        }
    }

    /// `$1` is the cutoff, `$2` the limit. The finished-delivery predicate is written as the
    /// partial index `webhook_deliveries_completed_idx` states it.
    const fn sql(self) -> &'static str {
        match self {
            Self::Attempts => {
                "delete from webhook_attempts where delivery_id in (select id \
                 from webhook_deliveries where status <> 'PENDING' and completed_at < $1 \
                 order by completed_at limit $2)"
            }
            Self::Deliveries => {
                "delete from webhook_deliveries where id in (select d.id \
                 from webhook_deliveries d where d.status <> 'PENDING' and d.completed_at < $1 \
                 and not exists (select 1 from webhook_attempts a where a.delivery_id = d.id) \
                 order by d.completed_at limit $2)"
            }
            Self::Events => {
                "delete from payment_events where id in (select e.id from payment_events e \
                 where e.created_at < $1 and not exists \
                 (select 1 from webhook_deliveries d where d.event_id = e.id) \
                 order by e.created_at limit $2)"
            }
            Self::DecisionTraces => {
                "delete from decision_traces where payment_intent_id in (select \
                 payment_intent_id from decision_traces where created_at < $1 \
                 order by created_at limit $2)"
            }
            Self::PspCalls => {
                "delete from psp_calls where id in (select id from psp_calls \
                 where created_at < $1 order by created_at limit $2)"
            }
            Self::ShadowResults => {
                "delete from shadow_results where id in (select id from shadow_results \
                 where created_at < $1 order by created_at limit $2)"
            }
            Self::CanaryCalls => {
                "delete from canary_calls where id in (select id from canary_calls \
                 where created_at < $1 order by created_at limit $2)"
            }
        }
    }
}

/// Deletes up to `limit` rows of `what` older than `cutoff`.
pub async fn purge<'e>(
    ex: impl Executor<'e, Database = Any>,
    what: Purgeable,
    cutoff: i64,
    limit: i64,
) -> sqlx::Result<u64> {
    Ok(sqlx::query(what.sql())
        .bind(cutoff)
        .bind(limit)
        .execute(ex)
        .await?
        .rows_affected())
}
