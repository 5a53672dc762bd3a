//! Batches of due-date charges (DESIGN.md section 16) through the merchant API of the real
//! `pixgate serve`, on SQLite and PostgreSQL: a SHADOW store resolves each charge as a single
//! charge would (a bad one is `REJECTED` with the single charge's code, the others go on), an
//! Idempotency-Key replays the batch, a LIVE store sends the charges it routes to one gateway
//! to the real `pixgate psp-sim` as one API Pix lote (a thousand charges, timed), a charge the
//! PSP denies is `REJECTED` `psp_refused` with the PSP's problem, and a batch interrupted by a
//! crash resumes after a restart without sending its lote twice.

use std::time::{Duration, Instant};

use pixgate_domain::due::Date;
use pixgate_e2e::docs::fenced_block;
use pixgate_e2e::live::{Live, STORE};
use pixgate_e2e::server::{Backend, Options, Server, backends, charge_body};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(120);
/// A CPF the tests have the simulator deny (valid check digits, unlike any other used here).
const DENIED_CPF: &str = "111.444.777-35";

use pixgate_e2e::invoice_due_date as due_date;

/// A due-date charge of a batch: a charge body without `store`.
fn invoice(reference: &str, amount: f64, due: Date) -> Value {
    let mut body = charge_body("x");
    body.as_object_mut().unwrap().remove("store");
    body["amount"] = json!(amount);
    body["reference"] = json!(reference);
    body["dueDate"] = json!(due.to_string());
    body["daysAfterDue"] = json!(10);
    body["fine"] = json!({"type": "PERCENT", "value": 2});
    body["interest"] = json!({"type": "PERCENT_PER_CALENDAR_MONTH", "value": 1});
    body
}

/// `item` as a single charge for `store`.
fn single(store: &str, item: &Value) -> Value {
    let mut body = item.clone();
    body["store"] = json!(store);
    body
}

fn items(batch: &Value) -> &Vec<Value> {
    batch["items"].as_array().unwrap()
}

async fn search_all(server: &Server, key: &str, query: &str) -> Vec<Value> {
    let mut all = Vec::new();
    let mut after = String::new();
    loop {
        let r = server
            .client
            .get(format!("{}/payments?{query}&limit=100{after}", server.base))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let page: Value = r.json().await.unwrap();
        let data = page["data"].as_array().unwrap().clone();
        let last = data
            .last()
            .map(|i| i["paymentIntentId"].as_str().unwrap().to_owned());
        let done = data.len() < 100;
        all.extend(data);
        match last {
            Some(id) if !done => after = format!("&after={id}"),
            _ => return all,
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_shadow_batch_resolves_each_charge_as_a_single_charge_would() {
    let due = due_date();
    for backend in backends() {
        let server = Server::start(backend).await;
        let key = server
            .merchant_with_store("acme", "acme-web", "SHADOW")
            .await;
        let mut bad_tax_id = invoice("rent-2", 200.0, due);
        bad_tax_id["payer"]["taxId"] = json!("111.111.111-11");
        let mut past = invoice("rent-3", 300.0, due);
        past["dueDate"] = json!("2020-01-02");
        let mut immediate = invoice("rent-5", 500.0, due);
        for field in ["dueDate", "daysAfterDue", "fine", "interest"] {
            immediate.as_object_mut().unwrap().remove(field);
        }
        let mut with_store = invoice("rent-6", 600.0, due);
        with_store["store"] = json!("acme-web");
        let mut big_metadata = invoice("rent-4", 400.0, due);
        big_metadata["metadata"] = json!({"n": 1});
        let charges = vec![
            invoice("rent-1", 100.0, due),
            bad_tax_id,
            past,
            big_metadata,
            immediate,
            with_store,
        ];
        // The metadata as written: a number past 2^53 keeps its digits, as in a single charge.
        let charges_text = json!(charges).to_string().replace(
            r#""metadata":{"n":1}"#,
            r#""metadata":{"n":123456789012345678901234567890}"#,
        );
        let send = |text: String| {
            let request = server
                .client
                .post(format!("{}/payments/charge-batches", server.base))
                .bearer_auth(&key)
                .header("Idempotency-Key", "batch-1")
                .header("Content-Type", "application/json")
                .body(text);
            async move {
                let r = request.send().await.unwrap();
                (r.status().as_u16(), r.json::<Value>().await.unwrap())
            }
        };
        let (status, accepted) = send(format!(
            r#"{{"store":"acme-web","charges":{charges_text}}}"#
        ))
        .await;
        assert_eq!(status, 202, "{accepted}");
        let data = &accepted["data"];
        assert_eq!(data["status"], "PROCESSING");
        assert_eq!(data["total"], 6);
        assert_eq!(data["idempotentReplay"], false);
        let id = data["batchId"].as_str().unwrap().to_owned();

        let batch = server.wait_charge_batch(&key, &id, WAIT).await;
        assert_eq!(
            (&batch["created"], &batch["rejected"]),
            (&json!(2), &json!(4)),
            "{batch}"
        );
        assert_eq!(batch["store"]["code"], "acme-web");
        assert!(batch["completedAt"].is_string(), "{batch}");
        let listed = items(&batch);
        let statuses: Vec<&str> = listed
            .iter()
            .map(|i| i["status"].as_str().unwrap())
            .collect();
        assert_eq!(
            statuses,
            [
                "CREATED", "REJECTED", "REJECTED", "CREATED", "REJECTED", "REJECTED"
            ]
        );
        for (i, item) in listed.iter().enumerate() {
            assert_eq!(item["index"], i);
            assert_eq!(item["reference"], format!("rent-{}", i + 1));
        }
        // Each rejection is the one a single charge gets for the same body.
        for i in [1, 2] {
            let (status, single) = server
                .charge(
                    &key,
                    &format!("single-{i}"),
                    &single("acme-web", &charges[i]),
                )
                .await;
            assert_eq!(status, 400, "{single}");
            assert_eq!(
                listed[i]["error"]["code"], single["error"]["code"],
                "{batch}"
            );
            assert_eq!(
                listed[i]["error"]["field"], single["error"]["field"],
                "{batch}"
            );
            assert!(listed[i].get("paymentIntentId").is_none());
        }
        assert_eq!(listed[1]["error"]["code"], "invalid_tax_id");
        assert_eq!(listed[2]["error"]["code"], "invalid_due_date");
        // A batch holds due-date charges; and its charges carry no store.
        assert_eq!(
            (&listed[4]["error"]["code"], &listed[4]["error"]["field"]),
            (&json!("missing_field"), &json!("dueDate"))
        );
        assert_eq!(
            (&listed[5]["error"]["code"], &listed[5]["error"]["field"]),
            (&json!("unknown_field"), &json!("store"))
        );

        // The created ones are due-date intents like any other, found by the payment routes.
        let intent = listed[0]["paymentIntentId"].as_str().unwrap();
        let (status, read) = server.get_payment(&key, intent).await;
        assert_eq!(status, 200, "{read}");
        assert_eq!(read["data"]["kind"], "DUE_DATE");
        assert_eq!(read["data"]["status"], "SHADOW_ONLY");
        assert_eq!(read["data"]["reference"], "rent-1");
        assert_eq!(read["data"]["dueDate"], due.to_string());
        assert_eq!(read["data"]["amount"], 100.0);
        let metadata_intent = listed[3]["paymentIntentId"].as_str().unwrap();
        let r = server
            .client
            .get(format!("{}/payments/{metadata_intent}", server.base))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap();
        let text = r.text().await.unwrap();
        assert!(
            text.contains(r#""metadata":{"n":123456789012345678901234567890}"#),
            "{text}"
        );
        let found = search_all(&server, &key, "store=acme-web&kind=DUE_DATE").await;
        assert_eq!(found.len(), 2);
        let (status, trace) = server
            .admin_get(&format!("/payment-intents/{intent}/trace"))
            .await;
        assert_eq!(status, 200, "{trace}");

        // The same key and body (as parsed JSON: another order, other whitespace) replay the
        // batch; another body under it, or the key on a charge, is 409.
        let (status, again) = send(format!(
            "{{\n  \"charges\" : {charges_text},\n  \"store\": \"acme-web\"\n}}"
        ))
        .await;
        assert_eq!(status, 202, "{again}");
        assert_eq!(again["data"]["idempotentReplay"], true);
        assert_eq!(again["data"]["batchId"], id.as_str());
        // (As a value the metadata's number reads as a double: another number.)
        let body: Value = serde_json::from_str(&format!(
            r#"{{"store":"acme-web","charges":{charges_text}}}"#
        ))
        .unwrap();
        let mut other = body.clone();
        other["charges"][0]["amount"] = json!(101.0);
        let (status, reused) = server.charge_batch(&key, "batch-1", &other).await;
        assert_eq!(status, 409, "{reused}");
        assert_eq!(reused["error"]["code"], "idempotency_key_reused");
        let (status, reused) = server
            .charge(&key, "batch-1", &single("acme-web", &charges[0]))
            .await;
        assert_eq!(status, 409, "{reused}");
        assert_eq!(reused["error"]["code"], "idempotency_key_reused");
        // Still one batch's worth of intents.
        assert_eq!(
            search_all(&server, &key, "store=acme-web&kind=DUE_DATE")
                .await
                .len(),
            2
        );

        // Another merchant's key, or an id that is no batch: 404 alike.
        let other_key = server
            .merchant_with_store("globex", "globex-web", "SHADOW")
            .await;
        for (who, batch_id) in [
            (&other_key, id.clone()),
            (&key, uuid::Uuid::new_v4().to_string()),
            (&key, "not-a-uuid".to_owned()),
        ] {
            let (status, body) = server.get_charge_batch(who, &batch_id).await;
            assert_eq!(status, 404, "{body}");
            assert_eq!(body["error"]["code"], "charge_batch_not_found");
        }

        // Refusals of the whole batch, none stored.
        let one = vec![invoice("r", 1.0, due)];
        for (what, body, status, code) in [
            (
                "no charges",
                json!({"store": "acme-web", "charges": []}),
                400,
                "invalid_batch_size",
            ),
            (
                "1,001 charges",
                json!({"store": "acme-web", "charges": vec![json!({}); 1001]}),
                400,
                "invalid_batch_size",
            ),
            (
                "charges not an array",
                json!({"store": "acme-web", "charges": {}}),
                400,
                "invalid_field",
            ),
            ("no store", json!({"charges": one}), 400, "missing_field"),
            (
                "another merchant's store",
                json!({"store": "globex-web", "charges": one}),
                404,
                "store_not_found",
            ),
        ] {
            let (got, answer) = server.charge_batch(&key, "refused", &body).await;
            assert_eq!(
                (got, answer["error"]["code"].as_str()),
                (status, Some(code)),
                "{what}: {answer}"
            );
        }
        let r = server
            .client
            .post(format!("{}/payments/charge-batches", server.base))
            .bearer_auth(&key)
            .json(&json!({"store": "acme-web", "charges": one}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400);
        let answer: Value = r.json().await.unwrap();
        assert_eq!(answer["error"]["code"], "missing_idempotency_key");
        // The key refused above is free: nothing was stored for it.
        let (status, fine) = server
            .charge_batch(
                &key,
                "refused",
                &json!({"store": "acme-web", "charges": one}),
            )
            .await;
        assert_eq!(status, 202, "{fine}");
        server
            .wait_charge_batch(&key, fine["data"]["batchId"].as_str().unwrap(), WAIT)
            .await;

        // A charge refused for a metadata key holding U+0000 (the merchant's to write there) is
        // stored and shown with the key escaped, on PostgreSQL too.
        let mut nul = invoice("nul-1", 1.0, due);
        nul["metadata"] = json!({"k\u{0}": 1});
        let text = json!({"store": "acme-web", "charges": [nul]})
            .to_string()
            .replace(r#"\u0000":1"#, r#"\u0000":1e400"#);
        let r = server
            .client
            .post(format!("{}/payments/charge-batches", server.base))
            .bearer_auth(&key)
            .header("Idempotency-Key", "nul-1")
            .header("Content-Type", "application/json")
            .body(text)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 202);
        let accepted: Value = r.json().await.unwrap();
        let batch = server
            .wait_charge_batch(&key, accepted["data"]["batchId"].as_str().unwrap(), WAIT)
            .await;
        let refused = &items(&batch)[0];
        assert_eq!(refused["error"]["code"], "invalid_metadata", "{batch}");
        assert_eq!(refused["error"]["field"], "metadata.k\\u0000", "{batch}");
    }
}

const INVOICES: &str = "docs/src/merchant-guide/invoices.md";

#[tokio::test(flavor = "multi_thread")]
async fn the_batch_of_the_merchant_guide_is_accepted_and_answered_as_the_page_says() {
    // The page's body as written, but for its dates, moved to the weeks ahead.
    let written = fenced_block(INVOICES, "batch-body", "json");
    let mut body: Value = serde_json::from_str(&written).expect("the page's batch is JSON");
    let due = due_date();
    for charge in body["charges"].as_array_mut().unwrap() {
        charge["dueDate"] = json!(due.to_string());
    }
    let server = Server::start(Backend::Sqlite).await;
    let key = server.demo_key.clone();
    let (status, accepted) = server.charge_batch(&key, "rent-2027-03", &body).await;
    assert_eq!(status, 202, "{accepted}");
    let id = accepted["data"]["batchId"].as_str().unwrap();
    let batch = server.wait_charge_batch(&key, id, WAIT).await;
    // The page's answer, ids and times aside.
    let documented: Value =
        serde_json::from_str(&fenced_block(INVOICES, "batch-answer", "json")).unwrap();
    let strip = |v: &Value| {
        let mut v = v.clone();
        for field in ["batchId", "createdAt", "completedAt"] {
            v.as_object_mut().unwrap().remove(field);
        }
        for item in v["items"].as_array_mut().unwrap() {
            if item.get("paymentIntentId").is_some() {
                item["paymentIntentId"] = json!("<id>");
            }
        }
        v
    };
    assert_eq!(strip(&batch), strip(&documented["data"]), "{batch}");
}

/// A LIVE batch: `count` invoices, alternating R$ 1.00 (the cheapest at `sandbox-a-d0`) and
/// R$ 100.00 (at `sandbox-b-d0`).
fn live_charges(count: usize, due: Date) -> Vec<Value> {
    (0..count)
        .map(|i| {
            let amount = if i % 2 == 0 { 1.0 } else { 100.0 };
            invoice(&format!("invoice-{i:04}"), amount, due)
        })
        .collect()
}

/// The `putLotecobv` counts of both simulators, and the cobvs they created.
async fn lotes_and_cobvs(live: &Live) -> (Vec<u64>, u64) {
    let mut puts = Vec::new();
    let mut cobvs = 0;
    for sim in [&live.a, &live.b] {
        let stats = sim.stats().await;
        for (_, n) in stats["putLotecobv"].as_object().unwrap() {
            puts.push(n.as_u64().unwrap());
        }
        cobvs += stats["cobvsCreated"].as_u64().unwrap();
    }
    (puts, cobvs)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_live_batch_of_a_thousand_goes_to_each_psp_as_one_lote() {
    let due = due_date();
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        live.configure(
            json!({"limits.max-amount-centavos": "500000"}),
            &["sandbox-a-d0", "sandbox-b-d0"],
        )
        .await;
        let mut charges = live_charges(1000, due);
        charges[10]["payer"]["taxId"] = json!("123.456.789-00");
        charges[500]["dueDate"] = json!("2020-01-02");
        charges[999]["amount"] = json!(6000.0);
        let body = json!({"store": STORE, "charges": charges});

        let started = Instant::now();
        let (status, accepted) = live.server.charge_batch(&live.key, "month-1", &body).await;
        let acknowledged = started.elapsed();
        assert_eq!(status, 202, "{accepted}\n{}", live.server.logs());
        let id = accepted["data"]["batchId"].as_str().unwrap().to_owned();
        let batch = live.server.wait_charge_batch(&live.key, &id, WAIT).await;
        let done = started.elapsed();
        eprintln!(
            "{backend:?}: a LIVE batch of 1,000 due-date charges: 202 after {} ms, DONE after {} ms",
            acknowledged.as_millis(),
            done.as_millis()
        );
        assert_eq!(
            (&batch["created"], &batch["rejected"]),
            (&json!(997), &json!(3)),
            "{batch}"
        );
        let listed = items(&batch);
        for (index, code, field) in [
            (10, "invalid_tax_id", Some("payer.taxId")),
            (500, "invalid_due_date", Some("dueDate")),
            (999, "amount_above_store_limit", None),
        ] {
            let item = &listed[index];
            assert_eq!(item["status"], "REJECTED", "{item}");
            assert_eq!(item["error"]["code"], code, "{item}");
            assert_eq!(item["error"]["field"].as_str(), field, "{item}");
            // As a single charge of the same body.
            let (status, single) = live
                .server
                .charge(
                    &live.key,
                    &format!("single-{index}"),
                    &single(STORE, &charges[index]),
                )
                .await;
            assert_eq!(status, 400, "{single}");
            assert_eq!(single["error"]["code"], code);
        }

        // One PUT /lotecobv per gateway, and a cobv per created charge.
        let (puts, cobvs) = lotes_and_cobvs(&live).await;
        assert_eq!(puts, [1, 1], "one lote per gateway, each put once");
        assert_eq!(cobvs, 997);

        // Each created charge is a PENDING due-date intent with its PIX charge, found by the
        // payment routes, with the lote's calls in its trace.
        let found = search_all(
            &live.server,
            &live.key,
            &format!("store={STORE}&kind=DUE_DATE"),
        )
        .await;
        assert_eq!(found.len(), 997);
        assert!(found.iter().all(|i| i["status"] == "PENDING"));
        let mut gateways: Vec<&str> = found
            .iter()
            .map(|i| i["routing"]["gatewayAlias"].as_str().unwrap())
            .collect();
        gateways.sort();
        gateways.dedup();
        assert_eq!(gateways, ["sandbox-a-d0", "sandbox-b-d0"]);
        let first = listed[0]["paymentIntentId"].as_str().unwrap();
        let (_, read) = live.server.get_payment(&live.key, first).await;
        let data = &read["data"];
        assert_eq!(
            (&data["status"], &data["kind"]),
            (&json!("PENDING"), &json!("DUE_DATE"))
        );
        assert_eq!(data["reference"], "invoice-0000");
        assert!(
            data["pix"]["copyAndPaste"]
                .as_str()
                .is_some_and(|c| c.starts_with("000201"))
        );
        let (_, trace) = live
            .server
            .admin_get(&format!("/payment-intents/{first}/trace"))
            .await;
        let ops: Vec<&str> = trace["data"]["pspCalls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["operation"].as_str().unwrap())
            .collect();
        assert_eq!(ops, ["put_lotecobv", "get_lotecobv", "get_cobv"], "{trace}");

        // Paid at its PSP, it settles as any due-date charge.
        let txid = data["pix"]["txid"].as_str().unwrap();
        let provider = data["routing"]["providerCode"].as_str().unwrap();
        live.sim(provider)
            .post(
                &format!("/cobv/{txid}/pay"),
                json!({"date": due.to_string()}),
            )
            .await;
        live.wait_status(first, "SUCCEEDED", Duration::from_secs(15))
            .await;

        // The same key and body again: the same batch, and nothing more at the PSPs.
        let (status, again) = live.server.charge_batch(&live.key, "month-1", &body).await;
        assert_eq!(status, 202, "{again}");
        assert_eq!(again["data"]["idempotentReplay"], true);
        assert_eq!(again["data"]["batchId"], id.as_str());
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(lotes_and_cobvs(&live).await, (vec![1, 1], 997));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_charge_the_psp_denies_is_rejected_with_its_problem_and_the_others_go_on() {
    let due = due_date();
    for backend in backends() {
        let live = Live::start(backend, &[]).await;
        live.configure(json!({}), &["sandbox-a-d0"]).await;
        live.a
            .switches(json!({"lotecobv": {"denyDocuments": ["11144477735"]}}))
            .await;
        let mut charges = live_charges(3, due);
        charges[1]["payer"]["taxId"] = json!(DENIED_CPF);
        let (status, accepted) = live
            .server
            .charge_batch(
                &live.key,
                "denied-1",
                &json!({"store": STORE, "charges": charges}),
            )
            .await;
        assert_eq!(status, 202, "{accepted}");
        let id = accepted["data"]["batchId"].as_str().unwrap();
        let batch = live.server.wait_charge_batch(&live.key, id, WAIT).await;
        let listed = items(&batch);
        assert_eq!(listed[0]["status"], "CREATED", "{batch}");
        assert_eq!(listed[2]["status"], "CREATED", "{batch}");
        let denied = &listed[1];
        assert_eq!(denied["status"], "REJECTED", "{batch}");
        assert_eq!(denied["error"]["code"], "psp_refused");
        let message = denied["error"]["message"].as_str().unwrap();
        assert!(message.contains("CobVOperacaoInvalida"), "{message}");
        assert!(message.contains("cobv.devedor.cpf"), "{message}");
        assert!(denied.get("paymentIntentId").is_none());
        assert_eq!(
            search_all(
                &live.server,
                &live.key,
                &format!("store={STORE}&kind=DUE_DATE")
            )
            .await
            .len(),
            2
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_batch_interrupted_by_a_crash_resumes_and_puts_its_lote_once() {
    let due = due_date();
    for backend in backends() {
        // A short lease, so the restarted instance takes the dead one's claim over quickly.
        let mut live = Live::start(backend, &[("PIXGATE_LIVE_LEASE", "2s")]).await;
        live.configure(json!({}), &["sandbox-a-d0"]).await;
        // The PSP keeps the lote's charges EM_PROCESSAMENTO for a while.
        live.a
            .switches(json!({"lotecobv": {"processAfterMs": 4000}}))
            .await;
        let charges = live_charges(40, due)
            .into_iter()
            .map(|mut c| {
                c["amount"] = json!(1.0);
                c
            })
            .collect::<Vec<_>>();
        let (status, accepted) = live
            .server
            .charge_batch(
                &live.key,
                "crash-1",
                &json!({"store": STORE, "charges": charges}),
            )
            .await;
        assert_eq!(status, 202, "{accepted}");
        let id = accepted["data"]["batchId"].as_str().unwrap().to_owned();

        // Once the lote is at the PSP, the instance dies without a word.
        let deadline = Instant::now() + WAIT;
        while live.a.stats().await["putLotecobv"]
            .as_object()
            .is_none_or(|m| m.is_empty())
        {
            assert!(Instant::now() < deadline, "{}", live.server.logs());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let (status, mid) = live.server.get_charge_batch(&live.key, &id).await;
        assert_eq!(status, 200);
        assert_eq!(mid["data"]["status"], "PROCESSING", "{mid}");
        let data_dir = live.server.kill_hard();
        let env = live.server.env.clone();
        let database_url =
            (!live.server.database_url.is_empty()).then(|| live.server.database_url.clone());
        live.server = Server::launch(Options {
            database_url,
            env,
            data_dir: Some(data_dir),
        });

        let batch = live.server.wait_charge_batch(&live.key, &id, WAIT).await;
        assert_eq!(
            (&batch["created"], &batch["rejected"]),
            (&json!(40), &json!(0)),
            "{batch}"
        );
        // The lote was read back, never put again; one cobv and one intent per charge.
        assert_eq!(lotes_and_cobvs(&live).await, (vec![1], 40));
        let found = search_all(
            &live.server,
            &live.key,
            &format!("store={STORE}&kind=DUE_DATE"),
        )
        .await;
        assert_eq!(found.len(), 40);
        let mut ids: Vec<&str> = found
            .iter()
            .map(|i| i["paymentIntentId"].as_str().unwrap())
            .collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 40);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_instances_on_one_postgresql_process_each_batch_once() {
    if pixgate_e2e::server::postgres_admin_url().is_none() {
        return;
    }
    let due = due_date();
    let (one, two) = pixgate_e2e::server::two_instances_on_postgres().await;
    let key = one.merchant_with_store("acme", "acme-web", "SHADOW").await;
    let mut ids = Vec::new();
    for n in 0..6 {
        let charges: Vec<Value> = (0..50)
            .map(|i| invoice(&format!("b{n}-{i}"), 10.0 + i as f64, due))
            .collect();
        // Half the batches are asked of each instance; both workers look for work.
        let server = if n % 2 == 0 { &one } else { &two };
        let (status, accepted) = server
            .charge_batch(
                &key,
                &format!("multi-{n}"),
                &json!({"store": "acme-web", "charges": charges}),
            )
            .await;
        assert_eq!(status, 202, "{accepted}");
        ids.push(accepted["data"]["batchId"].as_str().unwrap().to_owned());
    }
    for id in &ids {
        let batch = one.wait_charge_batch(&key, id, WAIT).await;
        assert_eq!(batch["created"], 50, "{batch}");
    }
    let found = search_all(&one, &key, "store=acme-web&kind=DUE_DATE").await;
    assert_eq!(found.len(), 300);
    // Every batch was ended by one pass of one instance.
    let ends = one.logs().matches("charge batch done").count()
        + two.logs().matches("charge batch done").count();
    assert_eq!(ends, 6, "{}\n{}", one.logs(), two.logs());
}
