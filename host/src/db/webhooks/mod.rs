//! Webhook endpoints, payment events (the outbox), deliveries and attempts, a module each.
//!
//! Statuses are enums here and their upper-case names in the text columns. A status the SQL
//! fixes is written in it as a literal: as a bound parameter it would hide the partial index
//! `webhook_deliveries_due_idx` (`where status = 'PENDING'`) from PostgreSQL's planner.

mod attempts;
mod deliveries;
mod endpoints;
mod events;

pub use attempts::*;
pub use deliveries::*;
pub use endpoints::*;
pub use events::*;

use super::Backend;

#[cfg(test)]
mod tests {
    use super::*;

    const MIGRATION: &str = include_str!("../../../../migrations/0002_webhooks.sql");

    #[test]
    fn statuses_round_trip_and_match_the_column_checks() {
        let endpoint = [
            EndpointStatus::Active,
            EndpointStatus::Disabled,
            EndpointStatus::Revoked,
        ];
        for s in endpoint {
            assert_eq!(EndpointStatus::try_from(s.as_str().to_owned()), Ok(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        let delivery = [
            DeliveryStatus::Pending,
            DeliveryStatus::Delivered,
            DeliveryStatus::Failed,
            DeliveryStatus::Exhausted,
            DeliveryStatus::Canceled,
        ];
        for s in delivery {
            assert_eq!(DeliveryStatus::try_from(s.as_str().to_owned()), Ok(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        let names = |list: &[&str]| {
            list.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let endpoint_names: Vec<&str> = endpoint.iter().map(|s| s.as_str()).collect();
        let delivery_names: Vec<&str> = delivery.iter().map(|s| s.as_str()).collect();
        assert!(MIGRATION.contains(&format!("check (status in ({}))", names(&endpoint_names))));
        assert!(MIGRATION.contains(&format!("check (status in ({}))", names(&delivery_names))));
        assert!(EndpointStatus::try_from("active".to_owned()).is_err());
    }
}
