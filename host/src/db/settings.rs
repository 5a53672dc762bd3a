//! Process-wide settings kept in the database (the admin token's hash, first-start marker).

use sqlx::{Any, Executor};

pub async fn get<'e>(
    ex: impl Executor<'e, Database = Any>,
    name: &str,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("select value from settings where name = $1")
        .bind(name)
        .fetch_optional(ex)
        .await
}

/// Inserts the setting unless it exists; true when this call inserted it.
pub async fn insert_if_absent<'e>(
    ex: impl Executor<'e, Database = Any>,
    name: &str,
    value: &str,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "insert into settings (name, value) values ($1, $2) on conflict (name) do nothing",
    )
    .bind(name)
    .bind(value)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}
