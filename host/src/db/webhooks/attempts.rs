//! Attempts: each HTTP request of a delivery, with its answer.

use sqlx::{Any, AssertSqlSafe, Executor};

#[derive(Debug, Clone)]
pub struct Attempt {
    pub delivery_id: String,
    pub attempt: i64,
    pub attempted_at: i64,
    pub http_status: Option<i64>,
    pub duration_ms: i64,
    pub error: Option<String>,
}

crate::db::from_row!(Attempt {
    delivery_id,
    attempt,
    attempted_at,
    http_status,
    duration_ms,
    error
});

pub async fn insert_attempt<'e>(
    ex: impl Executor<'e, Database = Any>,
    a: &Attempt,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into webhook_attempts (delivery_id, attempt, attempted_at, http_status, \
         duration_ms, error) values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&a.delivery_id)
    .bind(a.attempt)
    .bind(a.attempted_at)
    .bind(a.http_status)
    .bind(a.duration_ms)
    .bind(&a.error)
    .execute(ex)
    .await?;
    Ok(())
}

/// The attempts of these deliveries, in order.
pub async fn attempts_of<'e>(
    ex: impl Executor<'e, Database = Any>,
    delivery_ids: &[String],
) -> sqlx::Result<Vec<Attempt>> {
    if delivery_ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders = (1..=delivery_ids.len())
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "select delivery_id, attempt, attempted_at, http_status, duration_ms, error \
         from webhook_attempts where delivery_id in ({placeholders}) order by delivery_id, attempt"
    );
    let mut query = sqlx::query_as(AssertSqlSafe(sql));
    for id in delivery_ids {
        query = query.bind(id);
    }
    query.fetch_all(ex).await
}
