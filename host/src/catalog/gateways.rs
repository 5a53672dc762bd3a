//! The gateway catalog: add a gateway, list them, switch one on or off or change its fee
//! terms. Every change reaches the charge path at once (the store cache is cleared).

use serde::{Deserialize, Serialize};
use tracing::field::Empty;
use utoipa::ToSchema;

use super::{Catalog, CatalogError, check_code, record};
use crate::access::Actor;
use crate::db::audit::{self, Action, Change};
use crate::db::{self, catalog as sql, violated_constraint};
use pixgate_domain::json::{Integer, Invalid};
use pixgate_domain::money::Money;
use pixgate_domain::valid_code;
use pixgate_pix::time::iso8601;

/// `D0` to `D365`, leading zeros allowed: what `release_days` accepts (a test holds the
/// schema and the function to each other).
#[cfg(test)]
pub(crate) const RELEASE_CLASS_PATTERN: &str =
    "^D(0{0,2}[0-9]|0?[1-9][0-9]|[12][0-9]{2}|3[0-5][0-9]|36[0-5])$";

/// A gateway's fee terms. The fee is the MDR plus the fixed fee, raised to the minimum and
/// then capped at the maximum. `maxFeeCentavos`, when set, must be at least
/// `minFeeCentavos`: a rule between two fields that no schema states, answered with 422
/// `invalid_fee_terms`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FeeTerms {
    /// MDR in basis points (150 = 1.50 %).
    #[schema(value_type = i64, minimum = 0, maximum = 10000)]
    pub mdr_bps: Integer,
    /// Centavos added to every charge's fee (default 0).
    #[serde(default)]
    #[schema(value_type = i64, minimum = 0, maximum = 10000000000_i64)]
    pub fixed_centavos: Integer,
    /// The lowest fee in centavos (default 0).
    #[serde(default)]
    #[schema(value_type = i64, minimum = 0, maximum = 10000000000_i64)]
    pub min_fee_centavos: Integer,
    /// The highest fee in centavos (null or absent: no cap). Below `minFeeCentavos` it
    /// contradicts it: 422 `invalid_fee_terms`.
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 10000000000_i64)]
    pub max_fee_centavos: Option<Integer>,
}

// Body of `POST /gateways`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateGateway {
    /// The provider's code.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "sandbox-a")]
    provider_code: String,
    /// Unique.
    #[schema(pattern = "^[A-Za-z0-9._-]{1,64}$", example = "sandbox-a-d1")]
    gateway_alias: String,
    /// When the money is released: `D0` (same day) to `D365` business days.
    #[schema(
        pattern = "^D(0{0,2}[0-9]|0?[1-9][0-9]|[12][0-9]{2}|3[0-5][0-9]|36[0-5])$",
        example = "D1"
    )]
    release_class: String,
    fee_terms: FeeTerms,
}

// Body of `PATCH /gateways/{alias}`.
/// What to change; a field that is absent or null stays as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PatchGateway {
    active: Option<bool>,
    /// Replaces the terms as a whole.
    fee_terms: Option<FeeTerms>,
}

// A gateway as the admin API shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayView {
    #[schema(format = Uuid)]
    pub gateway_id: String,
    pub provider_code: String,
    pub gateway_alias: String,
    pub release_class: String,
    pub fee_terms: FeeTerms,
    pub active: bool,
    pub created_at: String,
    pub updated_at: String,
}

impl From<sql::Gateway> for GatewayView {
    fn from(g: sql::Gateway) -> Self {
        Self {
            gateway_id: g.id,
            provider_code: g.provider_code,
            gateway_alias: g.alias,
            release_class: g.release_class,
            fee_terms: FeeTerms {
                mdr_bps: Integer(g.mdr_bps),
                fixed_centavos: Integer(g.fixed_centavos),
                min_fee_centavos: Integer(g.min_fee_centavos),
                max_fee_centavos: g.max_fee_centavos.map(Integer),
            },
            active: g.active.0,
            created_at: iso8601(g.created_at),
            updated_at: iso8601(g.updated_at),
        }
    }
}

/// Fee terms, checked: each amount in range, the cap not below the floor.
struct Fees {
    mdr_bps: i64,
    fixed_centavos: i64,
    min_fee_centavos: i64,
    max_fee_centavos: Option<i64>,
}

impl FeeTerms {
    fn validate(&self) -> Result<Fees, CatalogError> {
        let bad = |field: &str, message: &str| Invalid::new("invalid_fee_terms", field, message);
        if !(0..=10_000).contains(&self.mdr_bps.0) {
            return Err(bad("feeTerms.mdrBps", "`mdrBps` must be 0 to 10000").into());
        }
        // No fee is worth more than the largest charge.
        let centavos = 0..=Money::MAX_CENTAVOS as i64;
        for (field, value) in [
            ("feeTerms.fixedCentavos", Some(self.fixed_centavos.0)),
            ("feeTerms.minFeeCentavos", Some(self.min_fee_centavos.0)),
            (
                "feeTerms.maxFeeCentavos",
                self.max_fee_centavos.map(|m| m.0),
            ),
        ] {
            if value.is_some_and(|v| !centavos.contains(&v)) {
                return Err(bad(field, "fees must be 0 to 10000000000 centavos").into());
            }
        }
        // A rule between two fields, which a JSON schema cannot state: hence 422, not 400.
        if self
            .max_fee_centavos
            .is_some_and(|m| m < self.min_fee_centavos)
        {
            return Err(CatalogError::Unprocessable {
                code: "invalid_fee_terms",
                field: "feeTerms.maxFeeCentavos".into(),
                message: "`maxFeeCentavos` must be at least `minFeeCentavos`".into(),
            });
        }
        Ok(Fees {
            mdr_bps: self.mdr_bps.0,
            fixed_centavos: self.fixed_centavos.0,
            min_fee_centavos: self.min_fee_centavos.0,
            max_fee_centavos: self.max_fee_centavos.map(|m| m.0),
        })
    }
}

impl Fees {
    fn apply(self, gateway: &mut sql::Gateway) {
        gateway.mdr_bps = self.mdr_bps;
        gateway.fixed_centavos = self.fixed_centavos;
        gateway.min_fee_centavos = self.min_fee_centavos;
        gateway.max_fee_centavos = self.max_fee_centavos;
    }
}

/// A gateway, checked.
struct NewGateway {
    provider_code: String,
    alias: String,
    release_class: String,
    fees: Fees,
}

impl CreateGateway {
    fn validate(self) -> Result<NewGateway, CatalogError> {
        check_code(&self.provider_code, "providerCode")?;
        check_code(&self.gateway_alias, "gatewayAlias")?;
        if pixgate_policy_logic::release_days(&self.release_class).is_none() {
            return Err(Invalid::new(
                "invalid_release_class",
                "releaseClass",
                "`releaseClass` must be D0 to D365",
            )
            .into());
        }
        let fees = self.fee_terms.validate()?;
        Ok(NewGateway {
            provider_code: self.provider_code,
            alias: self.gateway_alias,
            release_class: self.release_class,
            fees,
        })
    }
}

impl Catalog {
    /// Adds a gateway, active; its alias is unique.
    #[tracing::instrument(skip_all, fields(gateway = Empty, provider = Empty))]
    pub async fn create_gateway(
        &self,
        actor: &Actor,
        req: CreateGateway,
    ) -> Result<GatewayView, CatalogError> {
        let new = req.validate()?;
        record("gateway", &new.alias);
        record("provider", &new.provider_code);
        let now = db::now_ms();
        let fees = new.fees;
        let gateway = sql::Gateway {
            id: uuid::Uuid::now_v7().to_string(),
            provider_code: new.provider_code,
            alias: new.alias,
            release_class: new.release_class,
            mdr_bps: fees.mdr_bps,
            fixed_centavos: fees.fixed_centavos,
            min_fee_centavos: fees.min_fee_centavos,
            max_fee_centavos: fees.max_fee_centavos,
            active: db::Flag(true),
            created_at: now,
            updated_at: now,
        };
        let mut tx = self.db.write.begin().await?;
        sql::insert_gateway(&mut *tx, &gateway).await.map_err(|e| {
            match violated_constraint(&e).as_deref() {
                Some("gateways_alias_key") => CatalogError::GatewayAliasTaken,
                _ => e.into(),
            }
        })?;
        let view = GatewayView::from(gateway);
        let change = Change::new(
            Action::GatewayCreate,
            format!("gateway/{}", view.gateway_alias),
        )
        .after(&view);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.stores.clear();
        Ok(view)
    }

    /// Every gateway, active or not, by alias.
    #[tracing::instrument(skip_all)]
    pub async fn list_gateways(&self) -> Result<Vec<GatewayView>, CatalogError> {
        let all = sql::list_gateways(&self.db.read).await?;
        Ok(all.into_iter().map(GatewayView::from).collect())
    }

    /// Switches a gateway on or off, or replaces its fee terms. The gateway is found before
    /// the terms are checked.
    #[tracing::instrument(skip_all, fields(gateway = Empty))]
    pub async fn patch_gateway(
        &self,
        actor: &Actor,
        alias: &str,
        req: PatchGateway,
    ) -> Result<GatewayView, CatalogError> {
        if !valid_code(alias) {
            return Err(CatalogError::GatewayNotFound(None));
        }
        record("gateway", alias);
        let mut tx = self.db.write.begin().await?;
        let mut gateway = sql::gateway_by_alias(&mut *tx, alias)
            .await?
            .ok_or_else(|| CatalogError::GatewayNotFound(Some(alias.to_owned())))?;
        let before = GatewayView::from(gateway.clone());
        if let Some(active) = req.active {
            gateway.active = db::Flag(active);
        }
        if let Some(terms) = req.fee_terms {
            terms.validate()?.apply(&mut gateway);
        }
        gateway.updated_at = db::now_ms();
        sql::update_gateway(&mut *tx, &gateway).await?;
        let after = GatewayView::from(gateway);
        let change = Change::new(Action::GatewayUpdate, format!("gateway/{alias}"))
            .before(&before)
            .after(&after);
        audit::append(&mut *tx, actor, &change).await?;
        tx.commit().await?;
        self.stores.clear();
        Ok(after)
    }
}

#[cfg(test)]
mod tests {
    use super::RELEASE_CLASS_PATTERN;

    #[test]
    fn the_release_class_pattern_is_release_days() {
        let pattern = regex::Regex::new(RELEASE_CLASS_PATTERN).unwrap();
        let mut classes = vec!["", "D", "d1", "D-1", "D1 ", "D+1", "D0x1", "E1", "D٣"];
        let numbered: Vec<String> = (0..1200)
            .flat_map(|n| [format!("D{n}"), format!("D0{n}"), format!("D00{n}")])
            .collect();
        classes.extend(numbered.iter().map(String::as_str));
        for class in classes {
            assert_eq!(
                pattern.is_match(class),
                pixgate_policy_logic::release_days(class).is_some(),
                "{class:?}"
            );
        }
    }
}
