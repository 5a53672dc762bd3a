//! The admin list of stores (`GET /admin/v1/stores`): every store, oldest first, a page at a
//! time, each as `GET /stores/{code}` shows it plus the component version it runs per step.

use serde::Serialize;
use utoipa::ToSchema;

use super::{Search, SearchError, StoreQuery, code, limit};
use crate::catalog::StoreView;
use crate::db::catalog;
use crate::db::components::BUNDLED;
use crate::db::search as sql;
use pixgate_domain::json::Invalid;
use pixgate_domain::{Step, StoreMode};
use pixgate_pix::time::iso8601;

/// The version a store runs per step: `bundled` (the component built into pixgate) or the
/// sha256 of an uploaded one.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActiveComponents {
    #[schema(example = "bundled")]
    pub policy: String,
    #[schema(example = "bundled")]
    pub provider: String,
    #[schema(example = "bundled")]
    pub economics: String,
}

/// A store of the admin list: the store as `GET /stores/{code}` shows it, and the component
/// version it runs per step.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListedStore {
    #[serde(flatten)]
    pub store: StoreView,
    pub components: ActiveComponents,
}

impl Search {
    /// A page of stores, oldest first, narrowed by `merchant` and `mode`.
    #[tracing::instrument(skip_all)]
    pub async fn stores(&self, query: &StoreQuery) -> Result<Vec<ListedStore>, SearchError> {
        let limit = limit(query.limit.as_deref())?;
        let after = query
            .after
            .as_deref()
            .map(|a| code(a, "after", "invalid_after"))
            .transpose()?;
        let merchant = query
            .merchant
            .as_deref()
            .map(|m| code(m, "merchant", "invalid_merchant"))
            .transpose()?;
        let mode = query
            .mode
            .as_deref()
            .map(|m| {
                m.parse::<StoreMode>().map_err(|_| {
                    Invalid::new("invalid_mode", "mode", "`mode` must be SHADOW or LIVE")
                })
            })
            .transpose()?;
        let merchant_id = match &merchant {
            Some(code) => Some(
                catalog::merchant_by_code(&self.db.read, code)
                    .await?
                    .ok_or_else(|| SearchError::MerchantNotFound(code.clone()))?
                    .id,
            ),
            None => None,
        };
        let after = match &after {
            Some(code) => {
                let store = catalog::store_by_code(&self.db.read, code)
                    .await?
                    .ok_or_else(|| SearchError::StoreNotFound(code.clone()))?;
                Some((store.created_at, store.id))
            }
            None => None,
        };
        let rows =
            sql::stores_page(&self.db.read, merchant_id.as_deref(), mode, after, limit).await?;
        let ids: Vec<String> = rows.iter().map(|r| r.store.id.clone()).collect();
        let mut versions = sql::active_versions(&self.db.read, &ids).await?;
        let mut gateways = sql::granted_gateways(&self.db.read, &ids).await?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let steps = versions.remove(&row.store.id).unwrap_or_default();
                let active = |step: Step| {
                    steps
                        .get(step.as_str())
                        .cloned()
                        .unwrap_or_else(|| BUNDLED.to_owned())
                };
                let components = ActiveComponents {
                    policy: active(Step::Policy),
                    provider: active(Step::Provider),
                    economics: active(Step::Economics),
                };
                let store = row.store;
                ListedStore {
                    store: StoreView {
                        config: store.config_map(),
                        gateways: gateways.remove(&store.id).unwrap_or_default(),
                        store_id: store.id,
                        code: store.code,
                        name: store.name,
                        merchant: row.merchant_code,
                        mode: store.mode,
                        live_enabled: store.live_enabled.0,
                        charge_expiry_seconds: store.charge_expiry_seconds,
                        created_at: iso8601(store.created_at),
                        updated_at: iso8601(store.updated_at),
                    },
                    components,
                }
            })
            .collect())
    }
}
