//! Merchants: create and list.

use serde::{Deserialize, Serialize};
use tracing::field::Empty;
use utoipa::ToSchema;

use super::{Catalog, CatalogError, check_code, check_name, record};
use crate::access::Actor;
use crate::db::audit::{self, Action, Change};
use crate::db::{self, catalog as sql, violated_constraint};
use pixgate_pix::time::iso8601;

// Body of `POST /merchants`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateMerchant {
    /// Unique; letters, digits, `.`, `_` and `-`.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "acme")]
    code: String,
    /// Not all blank, no control characters; stored trimmed.
    #[schema(
        min_length = 1,
        max_length = 200,
        example = "ACME Ltda",
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF][^\u0000-\u001F\u007F-\u009F]*$"
    )]
    name: String,
}

/// A merchant, checked.
struct NewMerchant {
    code: String,
    name: String,
}

impl CreateMerchant {
    fn validate(self) -> Result<NewMerchant, CatalogError> {
        check_code(&self.code, "code")?;
        let name = check_name(&self.name, "name")?;
        Ok(NewMerchant {
            code: self.code,
            name,
        })
    }
}

// A merchant as the admin API shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MerchantView {
    #[schema(format = Uuid)]
    pub merchant_id: String,
    pub code: String,
    pub name: String,
    pub created_at: String,
}

impl From<sql::Merchant> for MerchantView {
    fn from(m: sql::Merchant) -> Self {
        Self {
            merchant_id: m.id,
            code: m.code,
            name: m.name,
            created_at: iso8601(m.created_at),
        }
    }
}

impl Catalog {
    /// Creates a merchant; its code is unique.
    #[tracing::instrument(skip_all, fields(merchant = Empty))]
    pub async fn create_merchant(
        &self,
        actor: &Actor,
        req: CreateMerchant,
    ) -> Result<MerchantView, CatalogError> {
        let new = req.validate()?;
        record("merchant", &new.code);
        let merchant = sql::Merchant {
            id: uuid::Uuid::now_v7().to_string(),
            code: new.code,
            name: new.name,
            created_at: db::now_ms(),
        };
        let mut tx = self.db.write.begin().await?;
        sql::insert_merchant(&mut *tx, &merchant).await.map_err(
            |e| match violated_constraint(&e).as_deref() {
                Some("merchants_code_key") => CatalogError::MerchantCodeTaken,
                _ => e.into(),
            },
        )?;
        let view = MerchantView::from(merchant);
        let change =
            Change::new(Action::MerchantCreate, format!("merchant/{}", view.code)).after(&view);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// Every merchant, by code.
    #[tracing::instrument(skip_all)]
    pub async fn list_merchants(&self) -> Result<Vec<MerchantView>, CatalogError> {
        let all = sql::list_merchants(&self.db.read).await?;
        Ok(all.into_iter().map(MerchantView::from).collect())
    }
}
