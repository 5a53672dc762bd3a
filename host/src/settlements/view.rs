//! A settlement row as the admin and merchant APIs show it: JSON with amounts in BRL, or a
//! CSV line with the same field names and amounts as exact decimals.

use serde::Serialize;
use utoipa::ToSchema;

use super::SettlementRow;
use crate::export;
use crate::internal::Internal;

/// What one merchant receives from one provider on one settlement date, through one gateway
/// and release class. Amounts in BRL; `net = gross - fees - refunds` (negative when the day's
/// refunds exceed its payments).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Settlement {
    /// The date the money arrives (`YYYY-MM-DD`), as each charge's economics quoted it.
    #[schema(format = Date, example = "2026-11-27")]
    pub settlement_date: String,
    /// The merchant's code.
    #[schema(example = "acme")]
    pub merchant: String,
    /// The provider's code.
    #[schema(example = "sandbox-a")]
    pub provider: String,
    #[schema(example = "psp-a-d0")]
    pub gateway_alias: String,
    #[schema(example = "D0")]
    pub release_class: String,
    /// LIVE payments that succeeded and settle that date.
    pub payments: i64,
    /// What their payers paid.
    #[schema(example = 1500.0)]
    pub gross: f64,
    /// The fees their economics recorded.
    #[schema(example = 15.75)]
    pub fees: f64,
    /// Refunds of this group's payments that completed that Brasília date.
    #[schema(example = 30.0)]
    pub refunds: f64,
    #[schema(example = 1454.25)]
    pub net: f64,
}

/// `{"success": true, "data": [Settlement]}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SettlementListEnvelope {
    /// Always true.
    pub success: bool,
    /// Ordered by settlement date, merchant, provider, gateway and release class.
    pub data: Vec<Settlement>,
}

/// BRL as a JSON number: exact for every amount below 2^53 centavos.
fn brl(centavos: i64) -> f64 {
    centavos as f64 / 100.0
}

impl From<&SettlementRow> for Settlement {
    fn from(r: &SettlementRow) -> Self {
        Self {
            settlement_date: r.settlement_date.to_string(),
            merchant: r.merchant.clone(),
            provider: r.provider.clone(),
            gateway_alias: r.gateway_alias.clone(),
            release_class: r.release_class.clone(),
            payments: r.payments,
            gross: brl(r.gross),
            fees: brl(r.fees),
            refunds: brl(r.refunds),
            net: brl(r.net()),
        }
    }
}

/// A row of the CSV export: the JSON's field names and order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CsvRow {
    settlement_date: String,
    merchant: String,
    provider: String,
    gateway_alias: String,
    release_class: String,
    payments: i64,
    gross: String,
    fees: String,
    refunds: String,
    net: String,
}

/// The CSV's header line: [`Settlement`]'s JSON field names, in order.
const HEADER: [&str; 10] = [
    "settlementDate",
    "merchant",
    "provider",
    "gatewayAlias",
    "releaseClass",
    "payments",
    "gross",
    "fees",
    "refunds",
    "net",
];

/// The rows as CSV, the header line first (alone when there are no rows).
pub fn csv(rows: &[SettlementRow]) -> Result<String, Internal> {
    export::csv(
        &HEADER,
        rows.iter().map(|r| CsvRow {
            settlement_date: r.settlement_date.to_string(),
            merchant: export::text(&r.merchant),
            provider: export::text(&r.provider),
            gateway_alias: export::text(&r.gateway_alias),
            release_class: export::text(&r.release_class),
            payments: r.payments,
            gross: export::decimal(r.gross),
            fees: export::decimal(r.fees),
            refunds: export::decimal(r.refunds),
            net: export::decimal(r.net()),
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use pixgate_domain::due::Date;

    #[test]
    fn the_csv_has_the_json_fields_in_their_order_and_exact_amounts() {
        let row = SettlementRow {
            settlement_date: Date::parse("2026-11-27").unwrap(),
            merchant: "acme".into(),
            provider: "sandbox-a".into(),
            gateway_alias: "psp-a-d0".into(),
            release_class: "D0".into(),
            payments: 3,
            gross: 150_010,
            fees: 1_575,
            refunds: 150_000,
        };
        let json = serde_json::to_value(Settlement::from(&row)).unwrap();
        let names: std::collections::BTreeSet<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(names, HEADER.into_iter().collect());
        assert_eq!(json["net"], -15.65);
        assert_eq!(
            csv(&[row]).unwrap(),
            "settlementDate,merchant,provider,gatewayAlias,releaseClass,payments,gross,fees,refunds,net\n\
             2026-11-27,acme,sandbox-a,psp-a-d0,D0,3,1500.10,15.75,1500.00,-15.65\n"
        );
    }
}
