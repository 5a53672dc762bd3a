//! Due-date charges (API Pix `cobv`, DESIGN.md section 16) through the merchant API of the
//! real `pixgate serve`, on SQLite and PostgreSQL: a SHADOW store resolves and records them
//! with their terms, the amount due moves with the payment date, every rule is refused with a
//! 400 naming its field, an idempotent retry must carry the same terms, and a LIVE store
//! creates them as a `cobv` at the real `pixgate psp-sim`, settles a late payment with its
//! parts, leaves a short one for a person and cancels one at the PSP.

use std::time::Duration;

use pixgate_domain::due::{Date, calendar};
use pixgate_e2e::docs::fenced_block;
use pixgate_e2e::server::{Server, backends, charge_body};
use serde_json::{Value, json};

use pixgate_e2e::invoice_due_date as due_date;

/// An invoice of R$ 100.00: 2 % fine and 1 % a month interest after its due date, R$ 5.00 off
/// until ten days before it.
fn invoice(store: &str, due: Date) -> Value {
    let mut body = charge_body(store);
    body["amount"] = json!(100.0);
    body["dueDate"] = json!(due.to_string());
    body["daysAfterDue"] = json!(15);
    body["fine"] = json!({"type": "PERCENT", "value": 2});
    body["interest"] = json!({"type": "PERCENT_PER_CALENDAR_MONTH", "value": 1});
    body["discount"] = json!({"type": "FIXED_UNTIL_DATES",
        "dates": [{"date": due.add_days(-10).to_string(), "value": 5}]});
    body["payer"]["address"] = json!({"street": "Av. Paulista, 1000", "city": "São Paulo",
        "state": "sp", "postalCode": "01310-100"});
    body
}

async fn amount_due(server: &Server, key: &str, id: &str, date: Option<Date>) -> (u16, Value) {
    let query = date.map_or_else(String::new, |d| format!("?date={d}"));
    let r = server
        .client
        .get(format!("{}/payments/{id}/amount-due{query}", server.base))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_shadow_store_resolves_an_invoice_records_its_terms_and_prices_it_by_date() {
    let due = due_date();
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = server
            .merchant_with_store("acme", "acme-web", "SHADOW")
            .await;
        let (status, charged) = server
            .charge(&key, "invoice-1", &invoice("acme-web", due))
            .await;
        assert_eq!(status, 200, "{charged}");
        let data = &charged["data"];
        assert_eq!(data["kind"], "DUE_DATE", "{charged}");
        assert_eq!(data["status"], "SHADOW_ONLY");
        assert_eq!(data["dueDate"], due.to_string());
        assert_eq!(data["daysAfterDue"], 15);
        assert_eq!(data["fine"], json!({"type": "PERCENT", "value": 2.0}));
        assert_eq!(
            data["interest"],
            json!({"type": "PERCENT_PER_CALENDAR_MONTH", "value": 1.0})
        );
        assert_eq!(data["discount"]["dates"][0]["value"], 5.0);
        assert!(data.get("amountPaid").is_none());
        let id = data["paymentIntentId"].as_str().unwrap();

        // Read back, it is the same invoice.
        let (status, read) = server.get_payment(&key, id).await;
        assert_eq!(status, 200, "{read}");
        for field in [
            "kind",
            "dueDate",
            "daysAfterDue",
            "fine",
            "interest",
            "discount",
        ] {
            assert_eq!(read["data"][field], data[field], "{field}");
        }

        // Early, it costs the discounted amount; on its due date the original; ten days late
        // the fine and ten days of interest (1 % a month is 1/30 % a day: R$ 0.33).
        let (status, early) = amount_due(&server, &key, id, Some(due.add_days(-20))).await;
        assert_eq!(status, 200, "{early}");
        assert_eq!(
            early["data"],
            json!({"date": due.add_days(-20).to_string(), "original": 100.0, "fine": 0.0,
                   "interest": 0.0, "abatement": 0.0, "discount": 5.0, "total": 95.0,
                   "payable": true})
        );
        let (_, on_time) = amount_due(&server, &key, id, Some(due)).await;
        assert_eq!(on_time["data"]["total"], 100.0, "{on_time}");
        let (_, late) = amount_due(&server, &key, id, Some(due.add_days(10))).await;
        assert_eq!(
            (
                &late["data"]["fine"],
                &late["data"]["interest"],
                &late["data"]["total"]
            ),
            (&json!(2.0), &json!(0.33), &json!(102.33)),
            "due {due}, asked {}: {late}",
            due.add_days(10)
        );
        // Past the last payable day (the due date plus 15 days, moved to a business day).
        let (_, too_late) = amount_due(&server, &key, id, Some(due.add_days(40))).await;
        assert_eq!(too_late["data"]["payable"], false, "{too_late}");
        // Without a date: today, before the due date.
        let (status, today) = amount_due(&server, &key, id, None).await;
        assert_eq!(status, 200, "{today}");
        assert_eq!(today["data"]["payable"], true);

        // A date that is no date is refused; an immediate charge has no amount due by date.
        let r = server
            .client
            .get(format!(
                "{}/payments/{id}/amount-due?date=2026-02-30",
                server.base
            ))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 400);
        let body: Value = r.json().await.unwrap();
        assert_eq!(
            (&body["error"]["code"], &body["error"]["field"]),
            (&json!("invalid_date"), &json!("date"))
        );
        let (status, immediate) = server
            .charge(&key, "order-1", &charge_body("acme-web"))
            .await;
        assert_eq!(status, 200, "{immediate}");
        assert_eq!(immediate["data"]["kind"], "IMMEDIATE");
        assert!(immediate["data"].get("dueDate").is_none());
        let other = immediate["data"]["paymentIntentId"].as_str().unwrap();

        // Found by their kind, by the merchant and by the admin.
        let search = |query: &str| {
            let request = server
                .client
                .get(format!("{}/payments?{query}", server.base))
                .bearer_auth(&key);
            async move {
                let r = request.send().await.unwrap();
                (r.status().as_u16(), r.json::<Value>().await.unwrap())
            }
        };
        let ids = |page: &Value| -> Vec<String> {
            page["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["paymentIntentId"].as_str().unwrap().to_owned())
                .collect()
        };
        let (status, invoices) = search("kind=DUE_DATE").await;
        assert_eq!(status, 200, "{invoices}");
        assert_eq!(ids(&invoices), [id]);
        let (_, immediates) = search("kind=IMMEDIATE&store=acme-web").await;
        assert_eq!(ids(&immediates), [other]);
        let (status, refused) = search("kind=due_date").await;
        assert_eq!(status, 400, "{refused}");
        assert_eq!(
            (&refused["error"]["code"], &refused["error"]["field"]),
            (&json!("invalid_kind"), &json!("kind"))
        );
        let (status, admin) = server
            .admin_get("/payment-intents?kind=DUE_DATE&merchant=acme")
            .await;
        assert_eq!(status, 200, "{admin}");
        assert_eq!(ids(&admin), [id]);
        let (status, refused) = amount_due(&server, &key, other, None).await;
        assert_eq!(status, 409, "{refused}");
        assert_eq!(refused["error"]["code"], "not_a_due_date_charge");

        // The same key replays the invoice; with other terms it is another request.
        let (status, again) = server
            .charge(&key, "invoice-1", &invoice("acme-web", due))
            .await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again["data"]["idempotentReplay"], true);
        assert_eq!(again["data"]["paymentIntentId"], data["paymentIntentId"]);
        let mut changed = invoice("acme-web", due);
        changed["fine"]["value"] = json!(3);
        let (status, reused) = server.charge(&key, "invoice-1", &changed).await;
        assert_eq!(status, 409, "{reused}");
        assert_eq!(reused["error"]["code"], "idempotency_key_reused");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_rule_of_an_invoice_is_refused_with_a_400_naming_its_field() {
    let due = due_date();
    let server = Server::start(pixgate_e2e::server::Backend::Sqlite).await;
    let key = server
        .merchant_with_store("acme", "acme-web", "SHADOW")
        .await;
    type Change = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Change, &str, &str)> = vec![
        (
            "a due date in the past",
            Box::new(|b| b["dueDate"] = json!("2020-01-02")),
            "invalid_due_date",
            "dueDate",
        ),
        (
            "a fine without a due date",
            Box::new(|b| {
                b.as_object_mut().unwrap().remove("dueDate");
            }),
            "missing_field",
            "dueDate",
        ),
        (
            "a fine of three decimals",
            Box::new(|b| b["fine"]["value"] = json!(2.351)),
            "invalid_fine",
            "fine.value",
        ),
        (
            "an interest type that is not one of the eight",
            Box::new(|b| b["interest"]["type"] = json!("PERCENT_PER_WEEK")),
            "invalid_interest",
            "interest.type",
        ),
        (
            "a discount dated after the due date",
            Box::new(move |b| {
                b["discount"]["dates"][0]["date"] = json!(due.add_days(1).to_string())
            }),
            "invalid_discount",
            "discount.dates[0].date",
        ),
        (
            "an abatement of the whole amount",
            Box::new(|b| b["abatement"] = json!({"type": "FIXED", "value": 100})),
            "invalid_abatement",
            "abatement.value",
        ),
        (
            "validity beyond ten years",
            Box::new(|b| b["daysAfterDue"] = json!(3651)),
            "invalid_days_after_due",
            "daysAfterDue",
        ),
        (
            "a state that is no UF",
            Box::new(|b| b["payer"]["address"]["state"] = json!("XX")),
            "invalid_address",
            "payer.address.state",
        ),
        (
            "an unknown member of a rule",
            Box::new(|b| b["fine"]["percent"] = json!(2)),
            "unknown_field",
            "fine.percent",
        ),
    ];
    for (i, (what, change, code, field)) in cases.into_iter().enumerate() {
        let mut body = invoice("acme-web", due);
        change(&mut body);
        let (status, refused) = server.charge(&key, &format!("bad-{i}"), &body).await;
        assert_eq!(status, 400, "{what}: {refused}");
        assert_eq!(
            (
                refused["error"]["code"].as_str(),
                refused["error"]["field"].as_str()
            ),
            (Some(code), Some(field)),
            "{what}: {refused}"
        );
    }
    // Nothing was half-written: no payment exists for any of them.
    let (_, found) = server.admin_get("/payment-intents?store=acme-web").await;
    assert_eq!(found["data"].as_array().map(Vec::len), Some(0), "{found}");
}

const INVOICES: &str = "docs/src/merchant-guide/invoices.md";

#[tokio::test(flavor = "multi_thread")]
async fn the_invoice_of_the_merchant_guide_costs_what_the_page_says() {
    // The page's body as written, but for its dates: the due date moves to a Wednesday in the
    // weeks ahead and the discount's date keeps its nine days before it.
    let mut body: Value = serde_json::from_str(&fenced_block(INVOICES, "invoice-body", "json"))
        .expect("the page's body is JSON");
    let written = Date::parse(body["dueDate"].as_str().unwrap()).unwrap();
    let discount_until = Date::parse(body["discount"]["dates"][0]["date"].as_str().unwrap());
    assert_eq!(discount_until, Some(written.add_days(-9)));
    let due = due_date();
    body["dueDate"] = json!(due.to_string());
    body["discount"]["dates"][0]["date"] = json!(due.add_days(-9).to_string());

    // A fresh install's demo store, as the page's body names it (SHADOW).
    let server = Server::start(pixgate_e2e::server::Backend::Sqlite).await;
    let key = server.demo_key.clone();
    let (status, charged) = server.charge(&key, "rent-1", &body).await;
    assert_eq!(status, 200, "{charged}");
    assert_eq!(charged["data"]["kind"], "DUE_DATE");
    let id = charged["data"]["paymentIntentId"].as_str().unwrap();

    // The page's answer is for ten days after its due date.
    let mut documented: Value =
        serde_json::from_str(&fenced_block(INVOICES, "amount-due-answer", "json")).unwrap();
    let asked = Date::parse(documented["data"]["date"].as_str().unwrap()).unwrap();
    assert_eq!(written.days_until(asked), 10);
    documented["data"]["date"] = json!(due.add_days(10).to_string());
    let (status, answer) = amount_due(&server, &key, id, Some(due.add_days(10))).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer, documented);
    // And what the prose says: R$ 430.00 by the discount's date, R$ 450.00 on the due date.
    let (_, early) = amount_due(&server, &key, id, Some(due.add_days(-9))).await;
    assert_eq!(early["data"]["total"], 430.0, "{early}");
    let (_, on_time) = amount_due(&server, &key, id, Some(due)).await;
    assert_eq!(on_time["data"]["total"], 450.0, "{on_time}");
}

/// The invoice of [`invoice`] for the LIVE store of the harness.
fn live_invoice(due: Date) -> Value {
    invoice(pixgate_e2e::live::STORE, due)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_live_invoice_is_a_cobv_at_the_psp_paid_late_with_its_fine_and_interest() {
    let due = due_date();
    for backend in backends() {
        let live = pixgate_e2e::live::Live::start(backend, &[]).await;
        let (status, charged) = live
            .server
            .charge(&live.key, "invoice-1", &live_invoice(due))
            .await;
        assert_eq!(status, 200, "{charged}\n{}", live.server.logs());
        let data = &charged["data"];
        assert_eq!(
            (&data["kind"], &data["status"]),
            (&json!("DUE_DATE"), &json!("PENDING")),
            "{charged}"
        );
        let id = data["paymentIntentId"].as_str().unwrap().to_owned();
        let txid = data["pix"]["txid"].as_str().unwrap().to_owned();
        // Payable until the end of its last payable day in Brasília (03:00Z the day after).
        let mut last = due.add_days(15);
        while !calendar::is_business_day(last) {
            last = last.add_days(1);
        }
        assert_eq!(
            data["pix"]["expiresAt"],
            format!("{}T03:00:00.000Z", last.add_days(1)),
            "{charged}"
        );
        let (_, trace) = live
            .server
            .admin_get(&format!("/payment-intents/{id}/trace"))
            .await;
        assert_eq!(
            trace["data"]["pspCalls"][0]["operation"], "put_cobv",
            "{trace}"
        );

        // Paid ten days late: the simulator prices the cobv it holds with the terms pixgate
        // sent (R$ 102.33 with its parts), and pixgate checks that amount by its own.
        let provider = data["routing"]["providerCode"].as_str().unwrap();
        let sim = live.sim(provider);
        sim.post(
            &format!("/cobv/{txid}/pay"),
            json!({"date": due.add_days(10).to_string()}),
        )
        .await;
        let paid = live
            .wait_status(&id, "SUCCEEDED", Duration::from_secs(15))
            .await;
        assert_eq!(paid["amountPaid"], 102.33, "{paid}");
        assert_eq!(
            paid["amountComponents"],
            json!({"original": 100.0, "fine": 2.0, "interest": 0.33, "abatement": 0.0,
                   "discount": 0.0}),
            "{paid}"
        );
        live.wait_events(&id, &["payment.pending", "payment.succeeded"])
            .await;
        let succeeded = live
            .receiver
            .received()
            .iter()
            .map(|r| r.json())
            .find(|e| e["type"] == "payment.succeeded" && e["data"]["paymentIntentId"] == id)
            .unwrap();
        assert_eq!(succeeded["data"]["kind"], "DUE_DATE");
        assert_eq!(succeeded["data"]["amountPaid"], 102.33, "{succeeded}");
        assert_eq!(succeeded["data"]["amountComponents"]["interest"], 0.33);
        assert_eq!(succeeded["data"]["dueDate"], due.to_string());

        // Another invoice, paid with less than it costs that day: it stays PENDING for a person.
        let (_, second) = live
            .server
            .charge(&live.key, "invoice-2", &live_invoice(due))
            .await;
        let second_id = second["data"]["paymentIntentId"].as_str().unwrap();
        let second_txid = second["data"]["pix"]["txid"].as_str().unwrap();
        let provider = second["data"]["routing"]["providerCode"].as_str().unwrap();
        live.sim(provider)
            .post(
                &format!("/cobv/{second_txid}/pay"),
                json!({"date": due.add_days(10).to_string(), "valor": "100.00"}),
            )
            .await;
        let deadline = std::time::Instant::now() + Duration::from_secs(15);
        loop {
            let (_, read) = live.server.get_payment(&live.key, second_id).await;
            if read["data"]["amountReceived"] == 100.0 {
                assert_eq!(read["data"]["status"], "PENDING", "{read}");
                assert!(read["data"].get("amountPaid").is_none(), "{read}");
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{read}\n{}",
                live.server.logs()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }

        // A third is canceled: removed at the PSP as a cobv.
        let (_, third) = live
            .server
            .charge(&live.key, "invoice-3", &live_invoice(due))
            .await;
        let third_id = third["data"]["paymentIntentId"].as_str().unwrap();
        let (status, canceled) = live
            .merchant(
                reqwest::Method::POST,
                &format!("/payments/{third_id}/cancel"),
                &live.key,
                None,
                None,
            )
            .await;
        assert_eq!(status, 200, "{canceled}");
        assert_eq!(canceled["data"]["status"], "CANCELED");
        let (_, trace) = live
            .server
            .admin_get(&format!("/payment-intents/{third_id}/trace"))
            .await;
        let ops: Vec<&str> = trace["data"]["pspCalls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["operation"].as_str().unwrap())
            .collect();
        assert_eq!(ops, ["put_cobv", "patch_cobv"], "{trace}");
    }
}

/// An unpaid invoice past its last payable day: the PSP would keep a `cobv` payable forever,
/// so pixgate removes it there (`PATCH /cobv`) and only then cancels the intent. The
/// simulator ages the charge (its creation, due date and discount dates move back: 35 days,
/// still within the 15 days after its due date, then 60, past them); pixgate's next read sees
/// the expiry.
#[tokio::test(flavor = "multi_thread")]
async fn an_unpaid_invoice_past_its_last_payable_day_is_removed_at_the_psp_and_canceled() {
    let due = due_date();
    for backend in backends() {
        let live =
            pixgate_e2e::live::Live::start(backend, &[("PIXGATE_RECONCILE_INTERVAL", "300ms")])
                .await;
        let (status, charged) = live
            .server
            .charge(&live.key, "invoice-expires", &live_invoice(due))
            .await;
        assert_eq!(status, 200, "{charged}");
        let id = charged["data"]["paymentIntentId"]
            .as_str()
            .unwrap()
            .to_owned();
        let txid = charged["data"]["pix"]["txid"].as_str().unwrap().to_owned();
        let provider = charged["data"]["routing"]["providerCode"].as_str().unwrap();
        let sim = live.sim(provider);
        // Still within its days after the due date: it stays payable and PENDING.
        sim.post(&format!("/cobv/{txid}/age"), json!({"days": 35}))
            .await;
        tokio::time::sleep(Duration::from_secs(1)).await;
        let (_, read) = live.server.get_payment(&live.key, &id).await;
        assert_eq!(read["data"]["status"], "PENDING", "{read}");
        // Past it: the due date is now 24 to 30 days back, its last payable day 9 or more.
        sim.post(&format!("/cobv/{txid}/age"), json!({"days": 25}))
            .await;
        let canceled = live
            .wait_status(&id, "CANCELED", Duration::from_secs(15))
            .await;
        assert_eq!(canceled["kind"], "DUE_DATE", "{canceled}");
        let (_, trace) = live
            .server
            .admin_get(&format!("/payment-intents/{id}/trace"))
            .await;
        let ops: Vec<&str> = trace["data"]["pspCalls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["operation"].as_str().unwrap())
            .filter(|op| *op != "token")
            .collect();
        assert_eq!(ops.first(), Some(&"put_cobv"), "{trace}");
        assert_eq!(ops.last(), Some(&"patch_cobv"), "{trace}");
        live.wait_events(&id, &["payment.pending", "payment.canceled"])
            .await;
        // The PSP holds it removed: no payer can pay it any more.
        let (status, _) = sim
            .control(
                reqwest::Method::POST,
                &format!("/cobv/{txid}/pay"),
                json!({}),
            )
            .await;
        assert_eq!(status, 409);
    }
}

/// Every rule of API Pix's `cobv` (2 fines, 8 interest modalities, 2 abatements, 6 discounts),
/// LIVE against the simulator, paid five days before, on and seven days after the due date:
/// the payer's PSP prices the cobv from what pixgate sent, and pixgate takes exactly what it
/// says is due that day, with the same parts. Then a due date on a Saturday and one on
/// Carnival Monday: paid on the business day they move to, no fine; the day after, the fine.
#[tokio::test(flavor = "multi_thread")]
async fn every_rule_is_priced_alike_by_pixgate_and_the_payers_psp_before_on_and_after_the_due_date()
{
    let due = due_date();
    let until = |v: f64| {
        json!([{"date": due.add_days(-10).to_string(), "value": v},
               {"date": due.add_days(-3).to_string(), "value": v / 2.0}])
    };
    let rules: Vec<(&str, Value)> = vec![
        ("fine", json!({"type": "FIXED", "value": 5})),
        ("fine", json!({"type": "PERCENT", "value": 2.5})),
        (
            "interest",
            json!({"type": "AMOUNT_PER_CALENDAR_DAY", "value": 0.5}),
        ),
        (
            "interest",
            json!({"type": "PERCENT_PER_CALENDAR_DAY", "value": 0.1}),
        ),
        (
            "interest",
            json!({"type": "PERCENT_PER_CALENDAR_MONTH", "value": 1}),
        ),
        (
            "interest",
            json!({"type": "PERCENT_PER_CALENDAR_YEAR", "value": 12}),
        ),
        (
            "interest",
            json!({"type": "AMOUNT_PER_BUSINESS_DAY", "value": 0.5}),
        ),
        (
            "interest",
            json!({"type": "PERCENT_PER_BUSINESS_DAY", "value": 0.1}),
        ),
        (
            "interest",
            json!({"type": "PERCENT_PER_BUSINESS_MONTH", "value": 1}),
        ),
        (
            "interest",
            json!({"type": "PERCENT_PER_BUSINESS_YEAR", "value": 12}),
        ),
        ("abatement", json!({"type": "FIXED", "value": 10})),
        ("abatement", json!({"type": "PERCENT", "value": 5})),
        (
            "discount",
            json!({"type": "FIXED_UNTIL_DATES", "dates": until(8.0)}),
        ),
        (
            "discount",
            json!({"type": "PERCENT_UNTIL_DATES", "dates": until(4.0)}),
        ),
        (
            "discount",
            json!({"type": "AMOUNT_PER_CALENDAR_DAY_EARLY", "value": 0.3}),
        ),
        (
            "discount",
            json!({"type": "AMOUNT_PER_BUSINESS_DAY_EARLY", "value": 0.3}),
        ),
        (
            "discount",
            json!({"type": "PERCENT_PER_CALENDAR_DAY_EARLY", "value": 0.2}),
        ),
        (
            "discount",
            json!({"type": "PERCENT_PER_BUSINESS_DAY_EARLY", "value": 0.2}),
        ),
    ];
    for backend in backends() {
        let live = pixgate_e2e::live::Live::start(backend, &[]).await;
        let mut n = 0;
        // Creates an invoice due on `due` with `rule`, has it paid on `paid_on` at the PSP and
        // answers what pixgate recorded as paid and what it says is due that day.
        let mut pay = async |due: Date, rule: (&str, &Value), paid_on: Date| -> (Value, Value) {
            n += 1;
            let mut body = charge_body(pixgate_e2e::live::STORE);
            body["amount"] = json!(200.0);
            body["reference"] = json!(format!("rule-{n}"));
            body["dueDate"] = json!(due.to_string());
            body["daysAfterDue"] = json!(30);
            body[rule.0] = rule.1.clone();
            let (status, charged) = live
                .server
                .charge(&live.key, &format!("rule-{n}"), &body)
                .await;
            assert_eq!(status, 200, "{body}: {charged}");
            let id = charged["data"]["paymentIntentId"]
                .as_str()
                .unwrap()
                .to_owned();
            let (_, expected) = amount_due(&live.server, &live.key, &id, Some(paid_on)).await;
            let txid = charged["data"]["pix"]["txid"].as_str().unwrap();
            let provider = charged["data"]["routing"]["providerCode"].as_str().unwrap();
            live.sim(provider)
                .post(
                    &format!("/cobv/{txid}/pay"),
                    json!({"date": paid_on.to_string()}),
                )
                .await;
            let paid = live
                .wait_status(&id, "SUCCEEDED", Duration::from_secs(15))
                .await;
            (paid, expected["data"].clone())
        };
        for (field, rule) in &rules {
            for paid_on in [due.add_days(-5), due, due.add_days(7)] {
                let (paid, expected) = pay(due, (field, rule), paid_on).await;
                let context = format!("{backend:?} {field} {rule} paid on {paid_on} (due {due})");
                assert_eq!(paid["amountPaid"], expected["total"], "{context}: {paid}");
                for part in ["original", "fine", "interest", "abatement", "discount"] {
                    assert_eq!(
                        paid["amountComponents"][part], expected[part],
                        "{context}: {part} of {paid}"
                    );
                }
                // The rule did something where it should: a fine or interest only late, a
                // discount only early, an abatement always.
                let part = |name: &str| expected[name].as_f64().unwrap();
                let acted = match *field {
                    "fine" | "interest" => part(field) > 0.0,
                    other => part(other) > 0.0,
                };
                let should = match *field {
                    "fine" | "interest" => paid_on > due,
                    "discount" => paid_on < due,
                    _ => true,
                };
                assert_eq!(acted, should, "{context}: {expected}");
            }
        }

        // A due date on a Saturday moves to Monday, one on Carnival Monday to Ash Wednesday:
        // paid then, no fine; the next day, the fine.
        let fine = json!({"type": "PERCENT", "value": 2});
        let mut saturday = due;
        while saturday.weekday() != pixgate_domain::due::Weekday::Saturday {
            saturday = saturday.add_days(1);
        }
        let carnival_monday = Date::parse("2027-02-08").unwrap();
        assert!(!calendar::is_business_day(carnival_monday));
        for (due, moved) in [
            (saturday, saturday.add_days(2)),
            (carnival_monday, carnival_monday.add_days(2)),
        ] {
            assert!(calendar::is_business_day(moved), "{moved}");
            let (paid, _) = pay(due, ("fine", &fine), moved).await;
            assert_eq!(paid["amountPaid"], 200.0, "due {due}, paid {moved}: {paid}");
            let (paid, _) = pay(due, ("fine", &fine), moved.add_days(1)).await;
            assert_eq!(
                paid["amountPaid"], 204.0,
                "due {due}, paid the day after: {paid}"
            );
        }
    }
}

/// A paid invoice is refunded as any charge (API Pix `devolução` of its pix): what can be given
/// back is what the payer paid, fine and interest included, not the invoice's original amount.
#[tokio::test(flavor = "multi_thread")]
async fn a_paid_invoice_is_refunded_up_to_what_the_payer_paid() {
    let due = due_date();
    for backend in backends() {
        let live = pixgate_e2e::live::Live::start(backend, &[]).await;
        let key = live.key_with(&["payments:create", "payments:refund"]).await;
        let (status, charged) = live
            .server
            .charge(&live.key, "invoice-refund", &live_invoice(due))
            .await;
        assert_eq!(status, 200, "{charged}");
        let id = charged["data"]["paymentIntentId"]
            .as_str()
            .unwrap()
            .to_owned();
        let txid = charged["data"]["pix"]["txid"].as_str().unwrap();
        let provider = charged["data"]["routing"]["providerCode"].as_str().unwrap();
        live.sim(provider)
            .post(
                &format!("/cobv/{txid}/pay"),
                json!({"date": due.add_days(10).to_string()}),
            )
            .await;
        let paid = live
            .wait_status(&id, "SUCCEEDED", Duration::from_secs(15))
            .await;
        assert_eq!(paid["amountPaid"], 102.33, "{paid}");

        let (status, part) = live
            .refund(&key, &id, "invoice-refund-a", json!({"amount": 2.33}))
            .await;
        assert_eq!(status, 200, "{part}");
        assert_eq!(part["data"]["status"], "SUCCEEDED", "{part}");
        // The rest: the R$ 100.00 of the invoice, once the fine and interest went back first.
        let (status, rest) = live.refund(&key, &id, "invoice-refund-b", json!({})).await;
        assert_eq!(status, 200, "{rest}");
        assert_eq!(rest["data"]["amount"], 100.0, "{rest}");
        assert_eq!(rest["data"]["status"], "SUCCEEDED", "{rest}");
        let (status, none_left) = live
            .refund(&key, &id, "invoice-refund-c", json!({"amount": 0.01}))
            .await;
        assert_eq!(status, 409, "{none_left}");
        assert_eq!(none_left["error"]["code"], "refund_exceeds_refundable");
    }
}
