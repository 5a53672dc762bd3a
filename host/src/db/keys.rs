//! API keys: only the SHA-256 of the secret is stored.

use sqlx::{Any, Executor};

#[derive(Debug, Clone)]
pub struct ApiKey {
    pub id: String,
    pub merchant_id: String,
    pub prefix: String,
    pub scopes: String,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

crate::db::from_row!(ApiKey {
    id,
    merchant_id,
    prefix,
    scopes,
    created_at,
    revoked_at
});

pub async fn insert<'e>(
    ex: impl Executor<'e, Database = Any>,
    key: &ApiKey,
    secret_hash: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into api_keys (id, merchant_id, prefix, secret_hash, scopes, created_at) \
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&key.id)
    .bind(&key.merchant_id)
    .bind(&key.prefix)
    .bind(secret_hash)
    .bind(&key.scopes)
    .bind(key.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn grant_store<'e>(
    ex: impl Executor<'e, Database = Any>,
    key_id: &str,
    store_id: &str,
) -> sqlx::Result<()> {
    sqlx::query("insert into api_key_stores (key_id, store_id) values ($1, $2)")
        .bind(key_id)
        .bind(store_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// A key as authentication sees it: the key, its merchant's code and its granted stores.
#[derive(Debug, Clone)]
pub struct Authenticated {
    pub key: ApiKey,
    pub merchant_code: String,
    pub store_ids: Vec<String>,
}

/// The key with this secret hash, its merchant's code and the stores it is granted, in one
/// round trip (this is on every request's path).
pub async fn authenticate<'e>(
    ex: impl Executor<'e, Database = Any>,
    secret_hash: &str,
) -> sqlx::Result<Option<Authenticated>> {
    struct Row {
        key: ApiKey,
        merchant_code: String,
        store_id: Option<String>,
    }

    crate::db::from_row!(Row {
        key: flatten,
        merchant_code,
        store_id
    });
    let rows: Vec<Row> = sqlx::query_as(
        "select k.id, k.merchant_id, k.prefix, k.scopes, k.created_at, k.revoked_at, \
                m.code as merchant_code, ks.store_id \
         from api_keys k join merchants m on m.id = k.merchant_id \
         left join api_key_stores ks on ks.key_id = k.id \
         where k.secret_hash = $1",
    )
    .bind(secret_hash)
    .fetch_all(ex)
    .await?;
    let mut rows = rows.into_iter();
    let Some(first) = rows.next() else {
        return Ok(None);
    };
    let store_ids = std::iter::once(first.store_id)
        .chain(rows.map(|r| r.store_id))
        .flatten()
        .collect();
    Ok(Some(Authenticated {
        key: first.key,
        merchant_code: first.merchant_code,
        store_ids,
    }))
}

pub async fn by_id<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<ApiKey>> {
    sqlx::query_as(
        "select id, merchant_id, prefix, scopes, created_at, revoked_at from api_keys where id = $1",
    )
    .bind(id)
    .fetch_optional(ex)
    .await
}

pub async fn granted_store_codes<'e>(
    ex: impl Executor<'e, Database = Any>,
    key_id: &str,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "select s.code from api_key_stores ks join stores s on s.id = ks.store_id \
         where ks.key_id = $1 order by s.code",
    )
    .bind(key_id)
    .fetch_all(ex)
    .await
}

pub async fn revoke<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
    at: i64,
) -> sqlx::Result<()> {
    sqlx::query("update api_keys set revoked_at = $2 where id = $1 and revoked_at is null")
        .bind(id)
        .bind(at)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn of_merchant<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
) -> sqlx::Result<Vec<ApiKey>> {
    sqlx::query_as(
        "select id, merchant_id, prefix, scopes, created_at, revoked_at from api_keys \
         where merchant_id = $1 order by created_at",
    )
    .bind(merchant_id)
    .fetch_all(ex)
    .await
}
