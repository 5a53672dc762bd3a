//! Payment and refund events: the outbox's record of each transition.

use sqlx::{Any, Executor};

#[derive(Debug, Clone)]
pub struct Event {
    pub id: String,
    pub merchant_id: String,
    pub payment_intent_id: String,
    pub event_type: String,
    pub from_status: Option<String>,
    pub to_status: String,
    pub data: String,
    pub created_at: i64,
}

pub async fn insert_event<'e>(
    ex: impl Executor<'e, Database = Any>,
    e: &Event,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into payment_events (id, merchant_id, payment_intent_id, type, from_status, \
         to_status, data, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&e.id)
    .bind(&e.merchant_id)
    .bind(&e.payment_intent_id)
    .bind(&e.event_type)
    .bind(&e.from_status)
    .bind(&e.to_status)
    .bind(&e.data)
    .bind(e.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Records a refund event (`refund.succeeded`, `refund.failed`).
pub async fn insert_refund_event<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    merchant_id: &str,
    refund_id: &str,
    event_type: &str,
    data: &str,
    created_at: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into refund_events (id, merchant_id, refund_id, type, data, created_at) \
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(merchant_id)
    .bind(refund_id)
    .bind(event_type)
    .bind(data)
    .bind(created_at)
    .execute(ex)
    .await?;
    Ok(())
}
