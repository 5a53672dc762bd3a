//! Merchants, stores and gateways.

use std::collections::BTreeMap;

use sqlx::{Any, AssertSqlSafe, Executor};

use super::Flag;
use pixgate_domain::StoreMode;

#[derive(Debug, Clone)]
pub struct Merchant {
    pub id: String,
    pub code: String,
    pub name: String,
    pub created_at: i64,
}

crate::db::from_row!(Merchant {
    id,
    code,
    name,
    created_at
});

#[derive(Debug, Clone)]
pub struct Store {
    pub id: String,
    pub merchant_id: String,
    pub code: String,
    pub name: String,
    pub mode: StoreMode,
    pub live_enabled: Flag,
    pub config: String,
    pub charge_expiry_seconds: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

crate::db::from_row!(Store {
    id,
    merchant_id,
    code,
    name,
    mode: try_from(String),
    live_enabled: try_from(i64),
    config,
    charge_expiry_seconds,
    created_at,
    updated_at
});

impl Store {
    /// The configuration object (string values) the policy components read.
    pub fn config_map(&self) -> BTreeMap<String, String> {
        serde_json::from_str(&self.config).unwrap_or_default()
    }
}

#[derive(Debug, Clone)]
pub struct Gateway {
    pub id: String,
    pub provider_code: String,
    pub alias: String,
    pub release_class: String,
    pub mdr_bps: i64,
    pub fixed_centavos: i64,
    pub min_fee_centavos: i64,
    pub max_fee_centavos: Option<i64>,
    pub active: Flag,
    pub created_at: i64,
    pub updated_at: i64,
}

crate::db::from_row!(Gateway {
    id,
    provider_code,
    alias,
    release_class,
    mdr_bps,
    fixed_centavos,
    min_fee_centavos,
    max_fee_centavos,
    active: try_from(i64),
    created_at,
    updated_at
});

pub async fn insert_merchant<'e>(
    ex: impl Executor<'e, Database = Any>,
    m: &Merchant,
) -> sqlx::Result<()> {
    sqlx::query("insert into merchants (id, code, name, created_at) values ($1, $2, $3, $4)")
        .bind(&m.id)
        .bind(&m.code)
        .bind(&m.name)
        .bind(m.created_at)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn merchant_by_code<'e>(
    ex: impl Executor<'e, Database = Any>,
    code: &str,
) -> sqlx::Result<Option<Merchant>> {
    sqlx::query_as("select id, code, name, created_at from merchants where code = $1")
        .bind(code)
        .fetch_optional(ex)
        .await
}

pub async fn merchant_code<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: &str,
) -> sqlx::Result<String> {
    sqlx::query_scalar("select code from merchants where id = $1")
        .bind(merchant_id)
        .fetch_one(ex)
        .await
}

pub async fn list_merchants<'e>(
    ex: impl Executor<'e, Database = Any>,
) -> sqlx::Result<Vec<Merchant>> {
    sqlx::query_as("select id, code, name, created_at from merchants order by code")
        .fetch_all(ex)
        .await
}

const STORE_COLUMNS: &str = "id, merchant_id, code, name, mode, live_enabled, config, \
                             charge_expiry_seconds, created_at, updated_at";

pub async fn insert_store<'e>(
    ex: impl Executor<'e, Database = Any>,
    s: &Store,
) -> sqlx::Result<()> {
    sqlx::query(AssertSqlSafe(format!(
        "insert into stores ({STORE_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
    )))
    .bind(&s.id)
    .bind(&s.merchant_id)
    .bind(&s.code)
    .bind(&s.name)
    .bind(s.mode.as_str())
    .bind(s.live_enabled.as_i64())
    .bind(&s.config)
    .bind(s.charge_expiry_seconds)
    .bind(s.created_at)
    .bind(s.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn update_store<'e>(
    ex: impl Executor<'e, Database = Any>,
    s: &Store,
) -> sqlx::Result<()> {
    sqlx::query(
        "update stores set name = $2, mode = $3, live_enabled = $4, config = $5, \
         charge_expiry_seconds = $6, updated_at = $7 where id = $1",
    )
    .bind(&s.id)
    .bind(&s.name)
    .bind(s.mode.as_str())
    .bind(s.live_enabled.as_i64())
    .bind(&s.config)
    .bind(s.charge_expiry_seconds)
    .bind(s.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn store_by_code<'e>(
    ex: impl Executor<'e, Database = Any>,
    code: &str,
) -> sqlx::Result<Option<Store>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {STORE_COLUMNS} from stores where code = $1"
    )))
    .bind(code)
    .fetch_optional(ex)
    .await
}

pub async fn store_by_id<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<Store>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {STORE_COLUMNS} from stores where id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await
}

const GATEWAY_COLUMNS: &str = "id, provider_code, alias, release_class, mdr_bps, fixed_centavos, \
                               min_fee_centavos, max_fee_centavos, active, created_at, updated_at";

pub async fn insert_gateway<'e>(
    ex: impl Executor<'e, Database = Any>,
    g: &Gateway,
) -> sqlx::Result<()> {
    sqlx::query(AssertSqlSafe(format!(
        "insert into gateways ({GATEWAY_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
    )))
    .bind(&g.id)
    .bind(&g.provider_code)
    .bind(&g.alias)
    .bind(&g.release_class)
    .bind(g.mdr_bps)
    .bind(g.fixed_centavos)
    .bind(g.min_fee_centavos)
    .bind(g.max_fee_centavos)
    .bind(g.active.as_i64())
    .bind(g.created_at)
    .bind(g.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn update_gateway<'e>(
    ex: impl Executor<'e, Database = Any>,
    g: &Gateway,
) -> sqlx::Result<()> {
    sqlx::query(
        "update gateways set mdr_bps = $2, fixed_centavos = $3, min_fee_centavos = $4, \
         max_fee_centavos = $5, active = $6, updated_at = $7 where id = $1",
    )
    .bind(&g.id)
    .bind(g.mdr_bps)
    .bind(g.fixed_centavos)
    .bind(g.min_fee_centavos)
    .bind(g.max_fee_centavos)
    .bind(g.active.as_i64())
    .bind(g.updated_at)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn gateway_by_alias<'e>(
    ex: impl Executor<'e, Database = Any>,
    alias: &str,
) -> sqlx::Result<Option<Gateway>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {GATEWAY_COLUMNS} from gateways where alias = $1"
    )))
    .bind(alias)
    .fetch_optional(ex)
    .await
}

pub async fn list_gateways<'e>(
    ex: impl Executor<'e, Database = Any>,
) -> sqlx::Result<Vec<Gateway>> {
    sqlx::query_as(AssertSqlSafe(format!(
        "select {GATEWAY_COLUMNS} from gateways order by alias"
    )))
    .fetch_all(ex)
    .await
}

/// The active gateways a store may use: its grants, or every active gateway without grants.
/// Ordered by alias byte-wise in Rust, so the chain's input is the same on every backend
/// whatever its collation.
pub async fn gateways_for_store<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
) -> sqlx::Result<Vec<Gateway>> {
    let mut gateways: Vec<Gateway> = sqlx::query_as(AssertSqlSafe(format!(
        "select {GATEWAY_COLUMNS} from gateways g where g.active = 1 and ( \
           not exists (select 1 from store_gateways sg where sg.store_id = $1) \
           or exists (select 1 from store_gateways sg where sg.store_id = $1 and sg.gateway_id = g.id)) \
         order by g.alias"
    )))
    .bind(store_id)
    .fetch_all(ex)
    .await?;
    gateways.sort_by(|a, b| a.alias.cmp(&b.alias));
    Ok(gateways)
}

pub async fn granted_gateway_aliases<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "select g.alias from store_gateways sg join gateways g on g.id = sg.gateway_id \
         where sg.store_id = $1 order by g.alias",
    )
    .bind(store_id)
    .fetch_all(ex)
    .await
}

pub async fn clear_store_gateways<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
) -> sqlx::Result<()> {
    sqlx::query("delete from store_gateways where store_id = $1")
        .bind(store_id)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn grant_store_gateway<'e>(
    ex: impl Executor<'e, Database = Any>,
    store_id: &str,
    gateway_id: &str,
) -> sqlx::Result<()> {
    sqlx::query("insert into store_gateways (store_id, gateway_id) values ($1, $2)")
        .bind(store_id)
        .bind(gateway_id)
        .execute(ex)
        .await?;
    Ok(())
}
