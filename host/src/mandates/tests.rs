//! A mandate that charges itself, on the mandate service built alone over a fresh database of
//! each backend the run covers, with the pass given each day's time: a year of cycles in a
//! second, never slept.

use serde_json::json;

use super::*;
use crate::access::Scope;
use crate::charges::tests::{charge_path, shop};
use crate::db::testing::fresh_databases;
use pixgate_domain::mandate::{CreateMandateRequest, Frequency};

/// Noon in Brasília of `date` (Unix ms).
fn noon(date: Date) -> i64 {
    crate::charges::brasilia_midnight_ms(date) + 12 * 3_600_000
}

/// Every cycle a charge was made for, in order, with its due date.
async fn cycles(db: &Db, mandate: &str) -> Vec<(i64, String)> {
    sqlx::query_as(
        "select mandate_cycle, due_date from payment_intents where mandate_id = $1 \
         order by mandate_cycle",
    )
    .bind(mandate)
    .fetch_all(&db.read)
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mandate_that_charges_itself_is_charged_once_per_cycle_over_a_year() {
    for t in fresh_databases().await {
        // Two services over one database: two instances of pixgate.
        let (one, two) = (charge_path(&t.db).mandates, charge_path(&t.db).mandates);
        let mut principal = shop(&t.db).await;
        principal.scopes = vec![Scope::MandatesManage];
        let today = crate::db::today_brasilia();
        let start = today.add_days(20);
        let request = CreateMandateRequest::from_json(json!({
            "store": "web", "reference": "gym-1",
            "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
            "frequency": "MONTHLY", "startDate": start.to_string(),
            "endDate": start.add_days(300).to_string(), "amount": 50,
            "retryPolicy": "NONE", "journey": "QR"
        }))
        .unwrap()
        .validate(today)
        .unwrap();
        let key = IdempotencyKey::parse(b"gym-1").unwrap();
        let made = one.create(&principal, &key, request).await.unwrap().data;
        assert_eq!(made.status, MandateStatus::ShadowOnly);
        let id = made.mandate_id;

        // A year and a half of days, both instances passing each one, one of them twice.
        for day in 0..550 {
            let now = noon(today.add_days(day));
            let (a, b) = tokio::join!(one.auto_charge_pass(now), two.auto_charge_pass(now));
            a.unwrap();
            b.unwrap();
            one.auto_charge_pass(now).await.unwrap();
        }
        let made = cycles(&t.db, &id).await;
        // Ten monthly cycles fall within the 300 days from the start, each charged once, due on
        // its day.
        let expected: Vec<(i64, String)> = (1..=10)
            .map(|n| {
                let due = Frequency::Monthly.cycle_date(start, n);
                (i64::from(n), due.to_string())
            })
            .collect();
        assert_eq!(made, expected, "{:?}", t.db.backend);
        // Nothing left to do for it.
        let row = mandates::get(&t.db.read, &id).await.unwrap().unwrap();
        assert_eq!((row.next_cycle, row.next_charge_at), (None, None));

        // Each charge was made PIXGATE_MANDATE_LEAD_DAYS (4) before its due date: the day
        // before that, the next cycle has none yet.
        let fresh = IdempotencyKey::parse(b"gym-2").unwrap();
        let request = CreateMandateRequest::from_json(json!({
            "store": "web", "reference": "gym-2",
            "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
            "frequency": "WEEKLY", "startDate": start.to_string(), "amount": 10,
            "retryPolicy": "NONE", "journey": "QR"
        }))
        .unwrap()
        .validate(today)
        .unwrap();
        let weekly = one.create(&principal, &fresh, request).await.unwrap().data;
        one.auto_charge_pass(noon(start.add_days(-5)))
            .await
            .unwrap();
        assert!(cycles(&t.db, &weekly.mandate_id).await.is_empty());
        one.auto_charge_pass(noon(start.add_days(-4)))
            .await
            .unwrap();
        assert_eq!(cycles(&t.db, &weekly.mandate_id).await.len(), 1);
    }
}
