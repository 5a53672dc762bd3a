//! Operators of the admin API: only the SHA-256 (hex) of a token is stored.

use sqlx::{Any, Executor};

use pixgate_domain::Role;

#[derive(Debug, Clone)]
pub struct Operator {
    pub id: String,
    pub name: String,
    pub role: Role,
    pub prefix: String,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

crate::db::from_row!(Operator {
    id,
    name,
    role: try_from(String),
    prefix,
    created_at,
    revoked_at
});

const COLUMNS: &str = "id, name, role, prefix, created_at, revoked_at";

/// `name_key` is the name as names are compared (`operators::name_key`), unique among the
/// operators not revoked.
pub async fn insert<'e>(
    ex: impl Executor<'e, Database = Any>,
    operator: &Operator,
    name_key: &str,
    token_hash: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into operators (id, name, role, prefix, token_hash, created_at, name_key) \
         values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&operator.id)
    .bind(&operator.name)
    .bind(operator.role.as_str())
    .bind(&operator.prefix)
    .bind(token_hash)
    .bind(operator.created_at)
    .bind(name_key)
    .execute(ex)
    .await?;
    Ok(())
}

/// The operator of a token (on every admin request's path: one indexed read).
pub async fn by_token_hash<'e>(
    ex: impl Executor<'e, Database = Any>,
    token_hash: &str,
) -> sqlx::Result<Option<Operator>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from operators where token_hash = $1"
    )))
    .bind(token_hash)
    .fetch_optional(ex)
    .await
}

pub async fn by_id<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<Operator>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from operators where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// A page of operators, oldest first, after the one created at `after` (its creation time
/// and id).
pub async fn page<'e>(
    ex: impl Executor<'e, Database = Any>,
    after: Option<(i64, &str)>,
    limit: i64,
) -> sqlx::Result<Vec<Operator>> {
    let (at, id) = after.unwrap_or((i64::MIN, ""));
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from operators \
         where created_at > $1 or (created_at = $1 and id > $2) \
         order by created_at, id limit $3"
    )))
    .bind(at)
    .bind(id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// Revokes an operator; false when it was revoked already.
pub async fn revoke<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    at: i64,
) -> sqlx::Result<bool> {
    let done =
        sqlx::query("update operators set revoked_at = $2 where id = $1 and revoked_at is null")
            .bind(id)
            .bind(at)
            .execute(ex)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// The operators with no `name_key` (rows from before migration 0014, and case twins among
/// them), oldest first: `(id, name)`.
pub async fn without_name_key<'e>(
    ex: impl Executor<'e, Database = Any>,
) -> sqlx::Result<Vec<(String, String)>> {
    sqlx::query_as("select id, name from operators where name_key is null order by created_at, id")
        .fetch_all(ex)
        .await
}

/// Sets an operator's `name_key` if it has none; a unique violation when an operator not
/// revoked has this key.
pub async fn set_name_key<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    key: &str,
) -> sqlx::Result<()> {
    sqlx::query("update operators set name_key = $2 where id = $1 and name_key is null")
        .bind(id)
        .bind(key)
        .execute(ex)
        .await?;
    Ok(())
}
