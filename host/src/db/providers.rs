//! PSP providers. Secrets arrive sealed ([`crate::crypto::MasterKey::seal`]) and leave sealed:
//! this module never sees them in clear.

use sqlx::{Any, AssertSqlSafe, Executor};

use super::Flag;

#[derive(Debug, Clone)]
pub struct Provider {
    pub id: String,
    pub code: String,
    pub name: String,
    pub api_base_url: String,
    /// `None`: `{api_base_url}/oauth/token`.
    pub token_url: Option<String>,
    pub client_id: String,
    pub client_secret_sealed: String,
    pub pix_key: String,
    pub ca_pem: Option<String>,
    pub client_cert_pem: Option<String>,
    pub client_key_sealed: Option<String>,
    pub callback_token_sealed: String,
    /// The receiving account as JSON `{branch, number, type}` (`cobr.recebedor` of its
    /// recurring charges); `None`: the provider takes no mandates.
    pub account: Option<String>,
    pub active: Flag,
    pub created_at: i64,
    pub updated_at: i64,
}

crate::db::from_row!(Provider {
    id,
    code,
    name,
    api_base_url,
    token_url,
    client_id,
    client_secret_sealed,
    pix_key,
    ca_pem,
    client_cert_pem,
    client_key_sealed,
    callback_token_sealed,
    account,
    active: try_from(i64),
    created_at,
    updated_at
});

const COLUMNS: &str = "id, code, name, api_base_url, token_url, client_id, client_secret_sealed, \
                       pix_key, ca_pem, client_cert_pem, client_key_sealed, \
                       callback_token_sealed, account, active, created_at, updated_at";

pub async fn insert<'e>(ex: impl Executor<'e, Database = Any>, p: &Provider) -> sqlx::Result<()> {
    sqlx::query(AssertSqlSafe(format!(
        "insert into providers ({COLUMNS}) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
    )))
    .bind(&p.id)
    .bind(&p.code)
    .bind(&p.name)
    .bind(&p.api_base_url)
    .bind(&p.token_url)
    .bind(&p.client_id)
    .bind(&p.client_secret_sealed)
    .bind(&p.pix_key)
    .bind(&p.ca_pem)
    .bind(&p.client_cert_pem)
    .bind(&p.client_key_sealed)
    .bind(&p.callback_token_sealed)
    .bind(&p.account)
    .bind(p.active.as_i64())
    .bind(p.created_at)
    .bind(p.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Writes every changeable column (all but id, code, the callback token and created_at).
pub async fn update<'e>(ex: impl Executor<'e, Database = Any>, p: &Provider) -> sqlx::Result<()> {
    sqlx::query(
        "update providers set name = $2, api_base_url = $3, token_url = $4, client_id = $5, \
         client_secret_sealed = $6, pix_key = $7, ca_pem = $8, client_cert_pem = $9, \
         client_key_sealed = $10, account = $11, active = $12, updated_at = $13 where id = $1",
    )
    .bind(&p.id)
    .bind(&p.name)
    .bind(&p.api_base_url)
    .bind(&p.token_url)
    .bind(&p.client_id)
    .bind(&p.client_secret_sealed)
    .bind(&p.pix_key)
    .bind(&p.ca_pem)
    .bind(&p.client_cert_pem)
    .bind(&p.client_key_sealed)
    .bind(&p.account)
    .bind(p.active.as_i64())
    .bind(p.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn by_code<'e>(
    ex: impl Executor<'e, Database = Any>,
    code: &str,
) -> sqlx::Result<Option<Provider>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from providers where code = $1"
    )))
    .bind(code)
    .fetch_optional(ex)
    .await
}

/// Every provider, by code (byte-wise, whatever the backend's collation).
pub async fn list<'e>(ex: impl Executor<'e, Database = Any>) -> sqlx::Result<Vec<Provider>> {
    let mut all: Vec<Provider> =
        sqlx::query_as(AssertSqlSafe(format!("select {COLUMNS} from providers")))
            .fetch_all(ex)
            .await?;
    all.sort_by(|a, b| a.code.cmp(&b.code));
    Ok(all)
}

/// The aliases of the gateways that name `code` as their provider.
pub async fn gateway_aliases<'e>(
    ex: impl Executor<'e, Database = Any>,
    code: &str,
) -> sqlx::Result<Vec<String>> {
    let mut aliases: Vec<String> =
        sqlx::query_scalar("select alias from gateways where provider_code = $1")
            .bind(code)
            .fetch_all(ex)
            .await?;
    aliases.sort();
    Ok(aliases)
}
