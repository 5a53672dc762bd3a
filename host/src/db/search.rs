//! Finding payments (DESIGN.md section 12): pages of intents newest first over a set of
//! stores, and the admin list of stores.
//!
//! A page is read store by store: each store's part is one range of an index of
//! `migrations/0009_search.sql` (store, then the filter's equality, then `created_at, id`),
//! read backwards and cut at the page's size; the parts of several stores are merged by one
//! `union all` ordered again and cut again. Neither backend can keep an index's order across
//! the values of `store_id in (...)`, so one range over many stores would read and sort every
//! intent of those stores; this reads at most `limit` rows per store.
//!
//! On SQLite each part names its index (`indexed by`): the most selective equality's
//! (`reference`, else `status`, else none). SQLite plans without statistics (nothing runs
//! `ANALYZE`), and without them it takes a `createdFrom`/`createdTo` window for more
//! selective than a status, so a rare status in a wide window would read the window row by
//! row. PostgreSQL keeps statistics and chooses well on its own (BENCHMARKS.md section 9).

use std::collections::HashMap;

use sqlx::{Any, AnyPool, AssertSqlSafe, Executor};

use super::{Backend, Db};

use super::catalog::Store;
use super::intents::Intent;
use pixgate_domain::{ChargeKind, IntentStatus, StoreMode};

/// What a page of intents is filtered by (all optional, combined with AND).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IntentFilter {
    pub status: Option<IntentStatus>,
    pub kind: Option<ChargeKind>,
    /// Exact.
    pub reference: Option<String>,
    /// Unix ms, inclusive.
    pub created_from: Option<i64>,
    /// Unix ms, exclusive.
    pub created_to: Option<i64>,
    /// `(created_at, id)` of the previous page's last intent: only intents before it.
    pub after: Option<(i64, String)>,
}

/// Stores per statement. SQLite allows 500 terms in one compound select; a hundred keeps each
/// statement (and its parameters) small. More stores take more statements, merged here.
const STORES_PER_STATEMENT: usize = 100;

/// A parameter's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Text(String),
    Int(i64),
}

/// One statement over a chunk of stores: the filter's parameters first (`$1`...), shared by
/// every store's part, then one per store.
fn page_statement(
    backend: Backend,
    filter: &IntentFilter,
    limit: i64,
    stores: &[String],
) -> (String, Vec<Value>) {
    let mut values = Vec::new();
    let mut param = |value: Value| {
        values.push(value);
        format!("${}", values.len())
    };
    let mut conditions = String::new();
    if let Some(status) = filter.status {
        let p = param(Value::Text(status.as_str().to_owned()));
        conditions.push_str(&format!(" and status = {p}"));
    }
    if let Some(kind) = filter.kind {
        let p = param(Value::Text(kind.as_str().to_owned()));
        conditions.push_str(&format!(" and kind = {p}"));
    }
    if let Some(reference) = &filter.reference {
        let p = param(Value::Text(reference.clone()));
        conditions.push_str(&format!(" and reference = {p}"));
    }
    if let Some(from) = filter.created_from {
        let p = param(Value::Int(from));
        conditions.push_str(&format!(" and created_at >= {p}"));
    }
    if let Some(to) = filter.created_to {
        let p = param(Value::Int(to));
        conditions.push_str(&format!(" and created_at < {p}"));
    }
    if let Some((created_at, id)) = &filter.after {
        let (a, b) = (
            param(Value::Int(*created_at)),
            param(Value::Text(id.clone())),
        );
        conditions.push_str(&format!(" and (created_at, id) < ({a}, {b})"));
    }
    let limit = param(Value::Int(limit));
    let order = "order by created_at desc, id desc";
    let index = match backend {
        Backend::Postgres => "",
        Backend::Sqlite if filter.reference.is_some() => {
            " indexed by payment_intents_store_reference_idx"
        }
        Backend::Sqlite if filter.status.is_some() => {
            " indexed by payment_intents_store_status_idx"
        }
        Backend::Sqlite => " indexed by payment_intents_store_created_id_idx",
    };
    let part = |store: &str| {
        format!(
            "select * from payment_intents{index} where store_id = {store}{conditions} \
             {order} limit {limit}"
        )
    };
    let sql = match stores {
        [one] => part(&param(Value::Text(one.clone()))),
        many => {
            let parts: Vec<String> = many
                .iter()
                .enumerate()
                .map(|(i, store)| {
                    let p = param(Value::Text(store.clone()));
                    format!("select * from ({}) as part{i}", part(&p))
                })
                .collect();
            format!("{} {order} limit {limit}", parts.join(" union all "))
        }
    };
    (sql, values)
}

/// The newest `limit` intents of `stores` that pass `filter`, newest first (created_at, then
/// id, both descending).
pub async fn intents_page(
    db: &Db,
    stores: &[String],
    filter: &IntentFilter,
    limit: i64,
) -> sqlx::Result<Vec<Intent>> {
    let mut page: Vec<Intent> = Vec::new();
    for chunk in stores.chunks(STORES_PER_STATEMENT) {
        let (sql, values) = page_statement(db.backend, filter, limit, chunk);
        let mut query = sqlx::query_as::<_, Intent>(AssertSqlSafe(sql));
        for value in values {
            query = match value {
                Value::Text(text) => query.bind(text),
                Value::Int(n) => query.bind(n),
            };
        }
        page.extend(query.fetch_all(&db.read).await?);
    }
    if stores.len() > STORES_PER_STATEMENT {
        page.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
        page.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    }
    Ok(page)
}

/// The statement [`intents_page`] runs for one store (`store`), with its parameters' values,
/// for `EXPLAIN`.
pub fn page_statement_for(
    backend: Backend,
    filter: &IntentFilter,
    limit: i64,
    store: &str,
) -> (String, Vec<Value>) {
    page_statement(backend, filter, limit, &[store.to_owned()])
}

/// Where an intent sits in the pages: its merchant, store and creation time.
#[derive(Debug, Clone)]
pub struct IntentPosition {
    pub id: String,
    pub merchant_id: String,
    pub store_id: String,
    pub created_at: i64,
}

crate::db::from_row!(IntentPosition {
    id,
    merchant_id,
    store_id,
    created_at
});

pub async fn intent_position<'e>(
    ex: impl Executor<'e, Database = Any>,
    id: &str,
) -> sqlx::Result<Option<IntentPosition>> {
    sqlx::query_as(
        "select id, merchant_id, store_id, created_at from payment_intents where id = $1",
    )
    .bind(id)
    .fetch_optional(ex)
    .await
}

/// The stores with these ids (those that exist), in no particular order.
pub async fn stores_by_ids(pool: &AnyPool, ids: &[String]) -> sqlx::Result<Vec<Store>> {
    let mut stores = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(STORES_PER_STATEMENT) {
        let list: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
        let mut query = sqlx::query_as::<_, Store>(AssertSqlSafe(format!(
            "select * from stores where id in ({})",
            list.join(", ")
        )));
        for id in chunk {
            query = query.bind(id);
        }
        stores.extend(query.fetch_all(pool).await?);
    }
    Ok(stores)
}

/// Every store of a merchant, or every store.
pub async fn stores_of<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: Option<&str>,
) -> sqlx::Result<Vec<Store>> {
    match merchant_id {
        Some(merchant) => {
            sqlx::query_as("select * from stores where merchant_id = $1")
                .bind(merchant)
                .fetch_all(ex)
                .await
        }
        None => sqlx::query_as("select * from stores").fetch_all(ex).await,
    }
}

/// A store of the admin list, with its merchant's code.
#[derive(Debug, Clone)]
pub struct ListedStore {
    pub store: Store,
    pub merchant_code: String,
}

crate::db::from_row!(ListedStore {
    store: flatten,
    merchant_code
});

/// A page of stores, oldest first (created_at, then id), after the store at `after`.
pub async fn stores_page<'e>(
    ex: impl Executor<'e, Database = Any>,
    merchant_id: Option<&str>,
    mode: Option<StoreMode>,
    after: Option<(i64, String)>,
    limit: i64,
) -> sqlx::Result<Vec<ListedStore>> {
    // Creation times are never negative: (-1, '') is before every row.
    let (created_at, id) = after.unwrap_or((-1, String::new()));
    sqlx::query_as(
        "select s.*, m.code as merchant_code from stores s join merchants m on m.id = s.merchant_id \
         where ($1 = '' or s.merchant_id = $1) and ($2 = '' or s.mode = $2) \
           and (s.created_at, s.id) > ($3, $4) \
         order by s.created_at, s.id limit $5",
    )
    .bind(merchant_id.unwrap_or_default())
    .bind(mode.map_or("", StoreMode::as_str))
    .bind(created_at)
    .bind(id)
    .bind(limit)
    .fetch_all(ex)
    .await
}

/// A payment identifier at the PSP that finds intents (`GET /admin/v1/lookup`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PixId {
    /// The charge's txid.
    Txid,
    /// The endToEndId of the pix that paid it, as the PSP's payment id or as received.
    EndToEndId,
}

/// The intents (at most `limit`, newest first) whose `which` is `value`, over the indexes of
/// `migrations/0016_on_call_lookups.sql`.
pub async fn intents_by_pix_id<'e>(
    ex: impl Executor<'e, Database = Any>,
    which: PixId,
    value: &str,
    limit: i64,
) -> sqlx::Result<Vec<Intent>> {
    let sql = match which {
        PixId::Txid => {
            "select * from payment_intents where txid = $1 order by created_at desc, id desc limit $2"
        }
        PixId::EndToEndId => {
            "select * from payment_intents where id in \
               (select id from payment_intents where provider_payment_id = $1 \
                union select id from payment_intents where received_e2eid = $1) \
             order by created_at desc, id desc limit $2"
        }
    };
    sqlx::query_as(sql)
        .bind(value)
        .bind(limit)
        .fetch_all(ex)
        .await
}

/// `$1, $2, ...` for `n` values.
fn id_list(n: usize) -> String {
    (1..=n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The active component version per step of each store that has set one (a step without a
/// row runs the bundled component): store id -> step -> version.
pub async fn active_versions(
    pool: &AnyPool,
    store_ids: &[String],
) -> sqlx::Result<HashMap<String, HashMap<String, String>>> {
    let mut out: HashMap<String, HashMap<String, String>> = HashMap::new();
    for chunk in store_ids.chunks(STORES_PER_STATEMENT) {
        let mut query = sqlx::query_as::<_, (String, String, String)>(AssertSqlSafe(format!(
            "select store_id, step, active_version from store_components where store_id in ({})",
            id_list(chunk.len())
        )));
        for id in chunk {
            query = query.bind(id);
        }
        for (store, step, version) in query.fetch_all(pool).await? {
            out.entry(store).or_default().insert(step, version);
        }
    }
    Ok(out)
}

/// The gateway aliases granted to each store that has grants, each store's in alias order
/// (as [`super::catalog::granted_gateway_aliases`] gives one store's).
pub async fn granted_gateways(
    pool: &AnyPool,
    store_ids: &[String],
) -> sqlx::Result<HashMap<String, Vec<String>>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for chunk in store_ids.chunks(STORES_PER_STATEMENT) {
        let mut query = sqlx::query_as::<_, (String, String)>(AssertSqlSafe(format!(
            "select sg.store_id, g.alias from store_gateways sg \
             join gateways g on g.id = sg.gateway_id \
             where sg.store_id in ({}) order by sg.store_id, g.alias",
            id_list(chunk.len())
        )));
        for id in chunk {
            query = query.bind(id);
        }
        for (store, alias) in query.fetch_all(pool).await? {
            out.entry(store).or_default().push(alias);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_store_is_one_range_and_several_are_merged() {
        let filter = IntentFilter {
            status: Some(IntentStatus::Failed),
            after: Some((5, "b".into())),
            ..IntentFilter::default()
        };
        let (sql, values) = page_statement(Backend::Postgres, &filter, 20, &["s1".into()]);
        assert_eq!(
            sql,
            "select * from payment_intents where store_id = $5 and status = $1 \
             and (created_at, id) < ($2, $3) order by created_at desc, id desc limit $4"
        );
        assert_eq!(values.len(), 5);
        let (sql, _) = page_statement(Backend::Sqlite, &filter, 20, &["s1".into()]);
        assert!(
            sql.starts_with(
                "select * from payment_intents indexed by payment_intents_store_status_idx where"
            ),
            "{sql}"
        );
        let (sql, values) =
            page_statement(Backend::Postgres, &filter, 20, &["s1".into(), "s2".into()]);
        assert!(
            sql.starts_with("select * from (select * from payment_intents where store_id = $5 and"),
            "{sql}"
        );
        assert!(
            sql.contains(") as part0 union all select * from (select * from payment_intents where store_id = $6 and"),
            "{sql}"
        );
        assert!(
            sql.ends_with(") as part1 order by created_at desc, id desc limit $4"),
            "{sql}"
        );
        assert_eq!(values.len(), 6);
    }
}
