//! Merchants' API keys: issue one (the secret is returned once; only its SHA-256 is stored),
//! list a merchant's, revoke one. A revocation clears the key cache before it answers, so no
//! request authenticates with the key afterwards.

use serde::{Deserialize, Serialize};
use tracing::field::Empty;
use utoipa::ToSchema;

use super::{Catalog, CatalogError, check_code, code_list_schema, record};
use crate::access::Actor;
use crate::access::Scope;
use crate::bootstrap::new_api_key;
use crate::db::audit::{self, Action, Change};
use crate::db::{self, catalog as sql, keys};
use pixgate_domain::valid_code;
use pixgate_pix::time::iso8601;

// Body of `POST /api-keys`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateApiKey {
    /// The merchant's code.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "acme")]
    merchant: String,
    /// Codes of that merchant's stores the key may use.
    #[schema(schema_with = code_list_schema)]
    stores: Vec<String>,
    /// Null or absent: `payments:create` and `webhooks:manage`. `payments:refund` (money
    /// leaving the merchant's account) and `mandates:manage` (a payer's standing authorisation
    /// to be charged) are never defaults: name them to grant them.
    scopes: Option<Vec<Scope>>,
}

// An API key as the admin API shows it: the secret only when it is issued.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyView {
    #[schema(format = Uuid)]
    pub key_id: String,
    /// The secret: shown in the creation response only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    /// The visible, non-secret part of the key.
    pub prefix: String,
    pub merchant: String,
    pub scopes: Vec<Scope>,
    pub stores: Vec<String>,
    pub created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<String>,
}

/// A key to issue, checked; its merchant and stores are still to be found.
struct NewApiKey {
    merchant: String,
    stores: Vec<String>,
    scopes: Vec<Scope>,
}

impl CreateApiKey {
    fn validate(self) -> Result<NewApiKey, CatalogError> {
        check_code(&self.merchant, "merchant")?;
        for (i, code) in self.stores.iter().enumerate() {
            check_code(code, &format!("stores[{i}]"))?;
        }
        Ok(NewApiKey {
            merchant: self.merchant,
            stores: self.stores,
            scopes: self.scopes.unwrap_or_else(|| Scope::DEFAULT.to_vec()),
        })
    }
}

/// The view of a key, read on `conn`: a transaction's when it is the audit's snapshot (which
/// never holds the secret).
async fn view(
    conn: &mut sqlx::AnyConnection,
    key: keys::ApiKey,
    merchant: String,
    secret: Option<String>,
) -> Result<ApiKeyView, CatalogError> {
    Ok(ApiKeyView {
        stores: keys::granted_store_codes(&mut *conn, &key.id).await?,
        key_id: key.id,
        api_key: secret,
        prefix: key.prefix,
        merchant,
        scopes: Scope::parse_list(&key.scopes),
        created_at: iso8601(key.created_at),
        revoked_at: key.revoked_at.map(iso8601),
    })
}

impl Catalog {
    /// Issues a key of a merchant for some of its stores, with its grants in one
    /// transaction.
    #[tracing::instrument(skip_all, fields(merchant = Empty, key = Empty))]
    pub async fn create_api_key(
        &self,
        actor: &Actor,
        req: CreateApiKey,
    ) -> Result<ApiKeyView, CatalogError> {
        let new = req.validate()?;
        record("merchant", &new.merchant);
        let merchant = sql::merchant_by_code(&self.db.read, &new.merchant)
            .await?
            .ok_or(CatalogError::MerchantNotFound(Some(new.merchant)))?;
        let mut store_ids = Vec::new();
        for code in new.stores {
            let store = sql::store_by_code(&self.db.read, &code)
                .await?
                .filter(|s| s.merchant_id == merchant.id)
                .ok_or(CatalogError::NotTheMerchantsStore(code))?;
            if !store_ids.contains(&store.id) {
                store_ids.push(store.id);
            }
        }
        let (prefix, secret) = new_api_key()?;
        let key = keys::ApiKey {
            id: uuid::Uuid::now_v7().to_string(),
            merchant_id: merchant.id,
            prefix,
            scopes: Scope::join(&new.scopes),
            created_at: db::now_ms(),
            revoked_at: None,
        };
        record("key", &key.id);
        let mut tx = self.db.write.begin().await?;
        keys::insert(&mut *tx, &key, &pixgate_domain::sha256_hex(&secret)).await?;
        for store_id in &store_ids {
            keys::grant_store(&mut *tx, &key.id, store_id).await?;
        }
        let shown = view(&mut tx, key, merchant.code, None).await?;
        let change =
            Change::new(Action::ApiKeyCreate, format!("api-key/{}", shown.key_id)).after(&shown);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        // Nothing to clear: the key cache keeps no unknown keys.
        Ok(ApiKeyView {
            api_key: Some(secret),
            ..shown
        })
    }

    /// A merchant's keys, revoked ones included, oldest first; never their secrets.
    #[tracing::instrument(skip_all, fields(merchant = Empty))]
    pub async fn list_api_keys(&self, merchant: &str) -> Result<Vec<ApiKeyView>, CatalogError> {
        if !valid_code(merchant) {
            return Err(CatalogError::MerchantNotFound(None));
        }
        record("merchant", merchant);
        let merchant = sql::merchant_by_code(&self.db.read, merchant)
            .await?
            .ok_or(CatalogError::MerchantNotFound(None))?;
        let mut conn = self.db.read.acquire().await?;
        let mut views = Vec::new();
        for key in keys::of_merchant(&mut *conn, &merchant.id).await? {
            views.push(view(&mut conn, key, merchant.code.clone(), None).await?);
        }
        Ok(views)
    }

    /// Revokes a key, effective before this returns. Revoking a revoked key answers the same.
    #[tracing::instrument(skip_all, fields(key = Empty))]
    pub async fn revoke_api_key(
        &self,
        actor: &Actor,
        key_id: &str,
    ) -> Result<ApiKeyView, CatalogError> {
        let mut tx = self.db.write.begin().await?;
        let key = keys::by_id(&mut *tx, key_id)
            .await?
            .ok_or(CatalogError::ApiKeyNotFound)?;
        record("key", key_id);
        let merchant = sql::merchant_code(&mut *tx, &key.merchant_id).await?;
        let before = view(&mut tx, key, merchant.clone(), None).await?;
        keys::revoke(&mut *tx, key_id, db::now_ms()).await?;
        let key = keys::by_id(&mut *tx, key_id)
            .await?
            .ok_or(CatalogError::ApiKeyNotFound)?;
        let after = view(&mut tx, key, merchant, None).await?;
        let change = Change::new(Action::ApiKeyRevoke, format!("api-key/{key_id}"))
            .before(&before)
            .after(&after);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        // Before the answer: from now on no request authenticates with it.
        self.keys.clear();
        Ok(after)
    }
}
