//! The ledger sweep end to end (issue 34, DESIGN.md section 18): pixgate serving a LIVE store
//! whose PSP is `pixgate psp-sim` over mTLS, the findings produced on purpose at the simulator,
//! on SQLite and PostgreSQL.

use std::time::{Duration, Instant};

use pixgate_e2e::live::Live;
use pixgate_e2e::rec::today;
use pixgate_e2e::server::{Server, backends};
use serde_json::{Value, json};

/// Asks for a sweep of `provider`'s `date` and waits for its end: the run.
async fn sweep(server: &Server, provider: &str, date: &str) -> Value {
    let (status, started) = server
        .admin_post(
            "/reconciliations",
            json!({"provider": provider, "date": date}),
        )
        .await;
    assert_eq!(status, 202, "{started}\n{}", server.logs());
    assert_eq!(started["data"]["status"], "RUNNING", "{started}");
    let id = started["data"]["reconciliationId"].as_str().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, run) = server.admin_get(&format!("/reconciliations/{id}")).await;
        assert_eq!(status, 200, "{run}");
        if run["data"]["status"] != "RUNNING" {
            return run["data"].clone();
        }
        assert!(Instant::now() < deadline, "{run}\n{}", server.logs());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until intent `id` has `amount` BRL refunded; the intent.
async fn wait_refunded(live: &Live, id: &str, amount: f64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (_, intent) = live.server.get_payment(&live.key, id).await;
        if intent["data"]["amountRefunded"] == amount {
            return intent["data"].clone();
        }
        assert!(Instant::now() < deadline, "{amount} refunded: {intent}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every finding of a run (of `kind`, or every kind but `matched`), page after page of 2.
async fn findings(server: &Server, run: &Value, kind: Option<&str>) -> Vec<Value> {
    let id = run["reconciliationId"].as_str().unwrap();
    let mut all: Vec<Value> = Vec::new();
    loop {
        let mut path = format!("/reconciliations/{id}/findings?limit=2");
        if let Some(kind) = kind {
            path.push_str(&format!("&kind={kind}"));
        }
        if let Some(last) = all.last() {
            path.push_str(&format!("&after={}", last["findingId"].as_str().unwrap()));
        }
        let (status, page) = server.admin_get(&path).await;
        assert_eq!(status, 200, "{page}");
        let items = page["data"].as_array().unwrap().clone();
        let n = items.len();
        all.extend(items);
        if n < 2 {
            return all;
        }
    }
}

/// A day of one PSP swept in pages of 2: a charge paid and settled (matched); one paid while
/// its callback was lost (settled by the sweep, with its event); one paid with the wrong amount
/// while its callback was lost (amount_mismatch, left for an admin); a pix to the key with no
/// charge (unknown_pix); a MED devolução pixgate never heard of (med_refund, recorded as a
/// refund). A PSP error on a page ends a run FAILED; the next run is new and DONE. An
/// operator's bad requests are refused with their codes.
#[tokio::test(flavor = "multi_thread")]
async fn a_day_at_a_psp_is_swept_page_by_page_and_each_finding_is_produced_on_purpose() {
    for backend in backends() {
        let live = &Live::start(backend, &[("PIXGATE_RECONCILE_PAGE_SIZE", "2")]).await;
        let server = &live.server;
        live.configure(json!({}), &["sandbox-a-d0"]).await;
        let sim = &live.a;
        let day = today().to_string();

        // Matched: paid and settled by its callback's read.
        let matched = live.paid_charge("rec-matched").await;
        let matched_id = matched["paymentIntentId"].as_str().unwrap().to_owned();
        let matched_e2e = matched["provider"]["paymentId"]
            .as_str()
            .unwrap()
            .to_owned();

        // Callbacks lost from here on; the reconciler reads once an hour (Live's default).
        sim.switches(json!({"callbacks": {"drop": true}})).await;
        let (s, late) = live.charge("rec-late").await;
        assert_eq!(s, 200, "{late}");
        let late_id = late["data"]["paymentIntentId"].as_str().unwrap().to_owned();
        let late_txid = late["data"]["pix"]["txid"].as_str().unwrap();
        sim.post(&format!("/cob/{late_txid}/pay"), json!({})).await;
        let (s, wrong) = live.charge("rec-wrong").await;
        assert_eq!(s, 200, "{wrong}");
        let wrong_id = wrong["data"]["paymentIntentId"]
            .as_str()
            .unwrap()
            .to_owned();
        let wrong_txid = wrong["data"]["pix"]["txid"].as_str().unwrap();
        sim.post(&format!("/cob/{wrong_txid}/pay"), json!({"valor": "1.00"}))
            .await;
        let keyed = sim
            .post(
                "/pix",
                json!({"chave": "sandbox-a@pixgate.test", "valor": "15.00"}),
            )
            .await;
        let med = sim
            .post(
                &format!("/pix/{matched_e2e}/med"),
                json!({"valor": "5.00", "natureza": "MED_FRAUDE", "id": "medfraude1"}),
            )
            .await;
        assert_eq!(med["natureza"], "MED_FRAUDE", "{med}");
        let (_, pending) = server.get_payment(&live.key, &late_id).await;
        assert_eq!(
            pending["data"]["status"], "PENDING",
            "nothing told pixgate: {pending}"
        );

        // A PSP error on a page: the run ends FAILED with it, nothing called clean.
        sim.post(
            "/faults",
            json!({"count": 1, "kind": "error", "status": 503, "route": "GET /pix"}),
        )
        .await;
        let failed = sweep(server, "sandbox-a", &day).await;
        assert_eq!(failed["status"], "FAILED", "{failed}");
        assert!(
            failed["error"]
                .as_str()
                .unwrap()
                .contains("GET /pix page 0"),
            "{failed}"
        );

        let run = sweep(server, "sandbox-a", &day).await;
        assert_eq!(run["status"], "DONE", "{run}\n{}", server.logs());
        assert_eq!(run["trigger"], "OPERATOR", "{run}");
        assert_eq!(run["pix"], 4, "{run}");
        assert_eq!(
            run["pages"], 3,
            "two pages of 2, and the unlisted intents: {run}"
        );
        assert_eq!(
            run["counts"],
            json!({"matched": 1, "settled_late": 1, "amount_mismatch": 1, "unknown_pix": 1,
                   "med_refund": 1}),
            "{run}"
        );
        let listed = findings(server, &run, None).await;
        assert_eq!(listed.len(), 4, "matched ones only when asked: {listed:?}");
        let one = |kind: &str| {
            listed
                .iter()
                .find(|f| f["kind"] == kind)
                .unwrap_or_else(|| panic!("no {kind}: {listed:?}"))
                .clone()
        };
        assert_eq!(one("settled_late")["paymentIntentId"], json!(late_id));
        let mismatch = one("amount_mismatch");
        assert_eq!(mismatch["paymentIntentId"], json!(wrong_id), "{mismatch}");
        assert_eq!(mismatch["amount"], 1.0, "{mismatch}");
        assert_eq!(one("unknown_pix")["endToEndId"], keyed["endToEndId"]);
        let med_finding = one("med_refund");
        assert_eq!(med_finding["paymentIntentId"], json!(matched_id));
        assert_eq!(med_finding["amount"], 5.0, "{med_finding}");
        assert!(
            listed.iter().all(|f| f["provider"] == "sandbox-a"),
            "{listed:?}"
        );
        // The same findings as CSV: a header of the JSON's names, a line each, in order.
        let run_id = run["reconciliationId"].as_str().unwrap();
        let (s, content_type, csv) = server
            .admin_get_text(&format!("/reconciliations/{run_id}/findings.csv"))
            .await;
        assert_eq!(s, 200, "{csv}");
        assert!(content_type.starts_with("text/csv"), "{content_type}");
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "findingId,kind,provider,endToEndId,txid,amount,localAmount,paymentIntentId,\
             refundId,detail,createdAt"
        );
        assert_eq!(lines.len(), 1 + listed.len(), "{csv}");
        for (line, finding) in lines[1..].iter().zip(&listed) {
            let id = finding["findingId"].as_str().unwrap();
            let kind = finding["kind"].as_str().unwrap();
            assert!(
                line.starts_with(&format!("{id},{kind},sandbox-a,")),
                "{line} / {finding}"
            );
        }
        let mismatch_line = lines
            .iter()
            .find(|l| l.contains(",amount_mismatch,"))
            .unwrap();
        assert!(mismatch_line.contains(",1.00,129.90,"), "{mismatch_line}");
        let (s, _, matched_csv) = server
            .admin_get_text(&format!(
                "/reconciliations/{run_id}/findings.csv?kind=matched"
            ))
            .await;
        assert_eq!(s, 200);
        assert_eq!(matched_csv.lines().count(), 2, "{matched_csv}");
        // Each operator's run is in the audit trail, with who asked.
        let (s, audit) = server
            .admin_get("/audit-events?action=reconciliation.request")
            .await;
        assert_eq!(s, 200, "{audit}");
        let targets: Vec<&str> = audit["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["target"].as_str().unwrap())
            .collect();
        assert!(
            targets.contains(&format!("reconciliation/{run_id}").as_str()),
            "{audit}"
        );
        assert_eq!(targets.len(), 2, "the failed run and this one: {audit}");
        let matched_only = findings(server, &run, Some("matched")).await;
        assert_eq!(matched_only.len(), 1, "{matched_only:?}");
        assert_eq!(matched_only[0]["endToEndId"], json!(matched_e2e));

        // What the sweep settled: the late one paid, with its event; the wrong amount left
        // pending for an admin; the MED's devolução a refund of the matched charge.
        let (_, settled) = server.get_payment(&live.key, &late_id).await;
        assert_eq!(settled["data"]["status"], "SUCCEEDED", "{settled}");
        live.wait_events(&late_id, &["payment.pending", "payment.succeeded"])
            .await;
        let (_, wrong_now) = server.get_payment(&live.key, &wrong_id).await;
        assert_eq!(wrong_now["data"]["status"], "PENDING", "{wrong_now}");
        wait_refunded(live, &matched_id, 5.0).await;

        // The list, newest first, and the operator's bad requests.
        let (s, runs) = server
            .admin_get("/reconciliations?provider=sandbox-a")
            .await;
        assert_eq!(s, 200, "{runs}");
        assert_eq!(runs["data"][0]["reconciliationId"], run["reconciliationId"]);
        assert_eq!(runs["data"][1]["status"], "FAILED", "{runs}");
        for (body, status, code) in [
            (
                json!({"provider": "nobody", "date": day}),
                404,
                "provider_not_found",
            ),
            (
                json!({"provider": "sandbox-a", "date": "2026-02-30"}),
                400,
                "invalid_date",
            ),
            (
                json!({"provider": "sandbox-a", "date": today().add_days(1).to_string()}),
                400,
                "invalid_date",
            ),
            (json!({"provider": "sandbox-a"}), 400, "missing_field"),
        ] {
            let (s, answer) = server.admin_post("/reconciliations", body.clone()).await;
            assert_eq!(s, status, "{body}: {answer}");
            assert_eq!(answer["error"]["code"], code, "{body}: {answer}");
        }
        let (s, answer) = server
            .admin_get(&format!(
                "/reconciliations/{}/findings?kind=lost",
                run["reconciliationId"].as_str().unwrap()
            ))
            .await;
        assert_eq!((s, &answer["error"]["code"]), (400, &json!("invalid_kind")));
        let (s, _) = server
            .admin_get("/reconciliations/00000000-0000-7000-8000-000000000000")
            .await;
        assert_eq!(s, 404);

        // The operator's command: the day swept again, followed to its end, what it found.
        let (code, out, err) = cli(
            server,
            &[
                "admin",
                "reconcile",
                "--provider",
                "sandbox-a",
                "--date",
                &day,
            ],
        );
        assert_eq!(code, Some(0), "{out}\n{err}");
        assert!(out.contains(": DONE ("), "{out}");
        assert!(out.contains("unknown_pix"), "{out}");
        let (code, out, err) = cli(
            server,
            &["admin", "reconcile", "--provider", "nobody", "--date", &day],
        );
        assert_eq!(code, Some(1), "{out}");
        assert!(err.contains("provider_not_found"), "{err}");
    }
}

/// The findings only a PSP can cause, each produced on purpose at the simulator: a charge
/// canceled here that the PSP took a payment for anyway (paid_after_cancel), a paid charge the
/// PSP's list of the day leaves out (missing_at_psp), a devolução made in the PSP's portal that
/// pixgate heard of but never asked for (refund_mismatch), and one charge paid with its
/// callback lost while the others' arrive (settled_late, settled by the sweep's read).
#[tokio::test(flavor = "multi_thread")]
async fn what_only_the_psp_knows_is_found_and_named() {
    for backend in backends() {
        let live = &Live::start(backend, &[]).await;
        let server = &live.server;
        live.configure(json!({}), &["sandbox-a-d0"]).await;
        let sim = &live.a;
        let day = today().to_string();

        let (s, canceled) = live.charge("rec-canceled").await;
        assert_eq!(s, 200, "{canceled}");
        let canceled_id = canceled["data"]["paymentIntentId"].as_str().unwrap();
        let canceled_txid = canceled["data"]["pix"]["txid"].as_str().unwrap();
        let (s, answer) = live
            .merchant(
                reqwest::Method::POST,
                &format!("/payments/{canceled_id}/cancel"),
                &live.key,
                None,
                None,
            )
            .await;
        assert_eq!(
            (s, &answer["data"]["status"]),
            (200, &json!("CANCELED")),
            "{answer}"
        );
        // The payment was under way when the charge was removed: the SPI settles it anyway,
        // and no callback tells pixgate.
        let late_pix = sim
            .post(
                &format!("/cob/{canceled_txid}/pay"),
                json!({"force": true, "unseen": 0}),
            )
            .await;

        let missing = live.paid_charge("rec-missing").await;
        let missing_e2e = missing["provider"]["paymentId"].as_str().unwrap();
        sim.post(&format!("/pix/{missing_e2e}/unlist"), json!({}))
            .await;

        let portal = live.paid_charge("rec-portal").await;
        let portal_id = portal["paymentIntentId"].as_str().unwrap();
        let portal_e2e = portal["provider"]["paymentId"].as_str().unwrap();
        sim.post(
            &format!("/pix/{portal_e2e}/med"),
            json!({"valor": "3.00", "natureza": "ORIGINAL", "id": "portal1"}),
        )
        .await;
        // Its callback tells pixgate, which records it as a refund it never asked for.
        wait_refunded(live, portal_id, 3.0).await;

        let (s, unseen) = live.charge("rec-unseen").await;
        assert_eq!(s, 200, "{unseen}");
        let unseen_id = unseen["data"]["paymentIntentId"].as_str().unwrap();
        let unseen_txid = unseen["data"]["pix"]["txid"].as_str().unwrap();
        sim.post(&format!("/cob/{unseen_txid}/pay"), json!({"unseen": 0}))
            .await;
        let (_, pending) = server.get_payment(&live.key, unseen_id).await;
        assert_eq!(pending["data"]["status"], "PENDING", "{pending}");

        let run = sweep(server, "sandbox-a", &day).await;
        assert_eq!(run["status"], "DONE", "{run}\n{}", server.logs());
        assert_eq!(
            run["counts"],
            json!({"matched": 1, "settled_late": 1, "paid_after_cancel": 1,
                   "missing_at_psp": 1, "refund_mismatch": 1}),
            "{run}"
        );
        let listed = findings(server, &run, None).await;
        let one = |kind: &str| {
            listed
                .iter()
                .find(|f| f["kind"] == kind)
                .unwrap_or_else(|| panic!("no {kind}: {listed:?}"))
                .clone()
        };
        let after_cancel = one("paid_after_cancel");
        assert_eq!(
            after_cancel["paymentIntentId"],
            json!(canceled_id),
            "{after_cancel}"
        );
        assert_eq!(
            after_cancel["endToEndId"], late_pix["endToEndId"],
            "{after_cancel}"
        );
        assert_eq!(
            one("missing_at_psp")["paymentIntentId"],
            json!(missing["paymentIntentId"])
        );
        let portal_finding = one("refund_mismatch");
        assert_eq!(
            portal_finding["paymentIntentId"],
            json!(portal_id),
            "{portal_finding}"
        );
        assert_eq!(portal_finding["amount"], 3.0, "{portal_finding}");
        assert_eq!(one("settled_late")["paymentIntentId"], json!(unseen_id));
        live.wait_status(unseen_id, "SUCCEEDED", Duration::from_secs(10))
            .await;
        let (_, still) = server.get_payment(&live.key, canceled_id).await;
        assert_eq!(still["data"]["status"], "CANCELED", "{still}");
        assert_eq!(still["data"]["amountReceived"], 129.9, "{still}");

        // Its exit: an admin gives the pix back; it stays canceled, so keeping it is refused.
        let resolve = async |action: &str| {
            server
                .admin_post(
                    &format!("/payment-intents/{canceled_id}/resolve"),
                    json!({"action": action, "reason": "Pedido cancelado antes do pagamento"}),
                )
                .await
        };
        let (s, refused) = resolve("accept").await;
        assert_eq!(
            (s, refused["error"]["code"].as_str()),
            (409, Some("payment_not_resolvable")),
            "{refused}"
        );
        let (s, resolved) = resolve("refund").await;
        assert_eq!(s, 200, "{resolved}\n{}", server.logs());
        assert_eq!(resolved["data"]["status"], "CANCELED", "{resolved}");
        let given_back = wait_refunded(live, canceled_id, 129.9).await;
        assert_eq!(given_back["status"], "CANCELED", "{given_back}");
        let at_psp = sim.pix(late_pix["endToEndId"].as_str().unwrap()).await;
        let devolucoes = at_psp["devolucoes"].as_array().unwrap();
        assert_eq!(devolucoes.len(), 1, "{at_psp}");
        assert_eq!(devolucoes[0]["valor"], "129.90", "{at_psp}");
        let (s, again) = resolve("refund").await;
        assert_eq!(
            (s, again["error"]["code"].as_str()),
            (409, Some("payment_not_resolvable")),
            "{again}"
        );
    }
}

/// `pixgate admin ...` against `server`: the exit code, stdout and stderr.
fn cli(server: &Server, args: &[&str]) -> (Option<i32>, String, String) {
    let root = server.admin_root();
    let admin = [
        "--admin-url",
        root.as_str(),
        "--admin-token",
        &server.admin_token,
    ];
    let all: Vec<&str> = args.iter().chain(admin.iter()).copied().collect();
    let out = pixgate_e2e::pixgate(&all);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The schedule on two instances sharing PostgreSQL, started together once its time has
/// come: each provider's day before is swept once (one run, one read of the PSP's list).
#[tokio::test(flavor = "multi_thread")]
async fn two_instances_sweep_each_providers_day_before_once() {
    use pixgate_e2e::server::{Backend, Options, postgres_admin_url};
    if postgres_admin_url().is_none() {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    let master_key = (
        "PIXGATE_MASTER_KEY",
        "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
    );
    let live = Live::start(Backend::Postgres, &[master_key]).await;
    let yesterday = today().add_days(-1).to_string();
    let env: Vec<(String, String)> = [
        master_key,
        ("PIXGATE_RECONCILE_DAILY_AT", "00:00"),
        ("PIXGATE_RECONCILE_INTERVAL", "200ms"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    let url = live.server.database_url.clone();
    let (one, two) = std::thread::scope(|s| {
        let launch = || {
            Server::launch(Options {
                database_url: Some(url.clone()),
                env: env.clone(),
                data_dir: None,
            })
        };
        let a = s.spawn(launch);
        let b = s.spawn(launch);
        (a.join().unwrap(), b.join().unwrap())
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    let runs = loop {
        let (status, runs) = live.server.admin_get("/reconciliations?limit=100").await;
        assert_eq!(status, 200, "{runs}");
        let runs = runs["data"].as_array().unwrap().clone();
        if runs.len() >= 2 && runs.iter().all(|r| r["status"] != "RUNNING") {
            break runs;
        }
        assert!(
            Instant::now() < deadline,
            "{runs:?}\n{}\n{}",
            one.logs(),
            two.logs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // A few passes more of both: nothing new.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let (_, again) = live.server.admin_get("/reconciliations?limit=100").await;
    assert_eq!(again["data"].as_array().unwrap().len(), 2, "{again}");
    for provider in ["sandbox-a", "sandbox-b"] {
        let theirs: Vec<&Value> = runs.iter().filter(|r| r["provider"] == provider).collect();
        assert_eq!(theirs.len(), 1, "{provider}: {runs:?}");
        assert_eq!(theirs[0]["status"], "DONE", "{:?}", theirs[0]);
        assert_eq!(theirs[0]["trigger"], "DAILY");
        assert_eq!(theirs[0]["date"], json!(yesterday));
        assert_eq!(live.sim(provider).stats().await["listPix"], 1, "{provider}");
    }
}

/// Centavos of a BRL amount as the APIs write it.
fn centavos(v: &Value) -> i64 {
    (v.as_f64().unwrap_or_else(|| panic!("not an amount: {v}")) * 100.0).round() as i64
}

/// The settlement calendar adds up both ways: charges paid through two gateways of two PSPs
/// and a partial refund give one row per settlement date, provider, gateway and release class
/// whose payments, gross, fees and refunds are the sums of the intents' own, with `net =
/// gross - fees - refunds`; the CSV says the same to the centavo, the merchant's key reads its
/// rows and another merchant's none, and a bad period is refused with its code.
#[tokio::test(flavor = "multi_thread")]
async fn the_settlement_calendar_equals_the_sum_of_the_intents_and_their_refunds() {
    for backend in backends() {
        let live = &Live::start(backend, &[]).await;
        let server = &live.server;
        let refunder = live.key_with(&["payments:refund"]).await;
        live.configure(json!({}), &["sandbox-a-d0"]).await;
        let mut paid = vec![
            live.paid_charge("settle-1").await,
            live.paid_charge("settle-2").await,
        ];
        live.configure(json!({}), &["sandbox-b-d0"]).await;
        paid.push(live.paid_charge("settle-3").await);
        // Pending: not in the calendar.
        let (s, pending) = live.charge("settle-4").await;
        assert_eq!(s, 200, "{pending}");
        let refunded = paid[0]["paymentIntentId"].as_str().unwrap();
        let (s, refund) = live
            .refund(
                &refunder,
                refunded,
                "settle-refund",
                json!({"amount": 12.34}),
            )
            .await;
        assert_eq!(s, 200, "{refund}");
        live.wait_refund(
            &refunder,
            refund["data"]["refundId"].as_str().unwrap(),
            "SUCCEEDED",
            Duration::from_secs(20),
        )
        .await;

        // The rows the intents say there are: the refund on the day it completed (today).
        type Key = (String, String, String, String);
        let mut expected: std::collections::BTreeMap<Key, [i64; 4]> = Default::default();
        for intent in &paid {
            let id = intent["paymentIntentId"].as_str().unwrap();
            let (_, now) = server.get_payment(&live.key, id).await;
            let i = &now["data"];
            let key = |date: &str| -> Key {
                (
                    date.to_owned(),
                    i["routing"]["providerCode"].as_str().unwrap().to_owned(),
                    i["routing"]["gatewayAlias"].as_str().unwrap().to_owned(),
                    i["routing"]["releaseClass"].as_str().unwrap().to_owned(),
                )
            };
            let row = expected
                .entry(key(i["economics"]["settlementDate"].as_str().unwrap()))
                .or_default();
            row[0] += 1;
            row[1] += centavos(&i["amount"]);
            row[2] += centavos(&i["economics"]["feeAmount"]);
            let back = centavos(&i["amountRefunded"]);
            if back > 0 {
                expected.entry(key(&today().to_string())).or_default()[3] += back;
            }
        }
        assert_eq!(expected.values().map(|r| r[3]).sum::<i64>(), 1_234);

        let (from, to) = (today().add_days(-1), today().add_days(60));
        let query = format!("from={from}&to={to}");
        let (s, report) = server.admin_get(&format!("/settlements?{query}")).await;
        assert_eq!(s, 200, "{report}");
        let rows = report["data"].as_array().unwrap();
        let got: std::collections::BTreeMap<Key, [i64; 4]> = rows
            .iter()
            .map(|r| {
                assert_eq!(r["merchant"], "shop", "{r}");
                assert_eq!(
                    centavos(&r["net"]),
                    centavos(&r["gross"]) - centavos(&r["fees"]) - centavos(&r["refunds"]),
                    "{r}"
                );
                (
                    (
                        r["settlementDate"].as_str().unwrap().to_owned(),
                        r["provider"].as_str().unwrap().to_owned(),
                        r["gatewayAlias"].as_str().unwrap().to_owned(),
                        r["releaseClass"].as_str().unwrap().to_owned(),
                    ),
                    [
                        r["payments"].as_i64().unwrap(),
                        centavos(&r["gross"]),
                        centavos(&r["fees"]),
                        centavos(&r["refunds"]),
                    ],
                )
            })
            .collect();
        assert_eq!(got, expected, "{report}");
        assert_eq!(got.len(), rows.len(), "one row per group: {report}");

        // The CSV: the same rows, to the centavo.
        let (s, content_type, csv) = server
            .admin_get_text(&format!("/settlements.csv?{query}"))
            .await;
        assert_eq!(s, 200, "{csv}");
        assert!(content_type.starts_with("text/csv"), "{content_type}");
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some(
                "settlementDate,merchant,provider,gatewayAlias,releaseClass,payments,gross,\
                 fees,refunds,net"
            )
        );
        let decimal = |v: &Value| format!("{:.2}", centavos(v) as f64 / 100.0);
        let from_json: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{},{},{},{},{},{},{},{},{},{}",
                    r["settlementDate"].as_str().unwrap(),
                    r["merchant"].as_str().unwrap(),
                    r["provider"].as_str().unwrap(),
                    r["gatewayAlias"].as_str().unwrap(),
                    r["releaseClass"].as_str().unwrap(),
                    r["payments"],
                    decimal(&r["gross"]),
                    decimal(&r["fees"]),
                    decimal(&r["refunds"]),
                    decimal(&r["net"]),
                )
            })
            .collect();
        assert_eq!(lines.map(str::to_owned).collect::<Vec<_>>(), from_json);
        let (from_text, to_text) = (from.to_string(), to.to_string());
        let period = ["--from", from_text.as_str(), "--to", to_text.as_str()];
        let (code, out, err) = cli(
            server,
            &[&["admin", "settlements", "--csv"][..], &period].concat(),
        );
        assert_eq!((code, out.as_str()), (Some(0), csv.as_str()), "{err}");
        let (code, out, err) = cli(server, &[&["admin", "settlements"][..], &period].concat());
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("sandbox-b-d0") && out.contains("NET"), "{out}");

        // Filters: one provider's rows; the merchant's own through its key; another's none.
        let (s, only_b) = server
            .admin_get(&format!(
                "/settlements?{query}&provider=sandbox-b&merchant=shop"
            ))
            .await;
        assert_eq!(s, 200, "{only_b}");
        assert_eq!(only_b["data"].as_array().unwrap().len(), 1, "{only_b}");
        assert_eq!(
            only_b["data"][0]["gatewayAlias"], "sandbox-b-d0",
            "{only_b}"
        );
        let (s, mine) = live
            .merchant(
                reqwest::Method::GET,
                &format!("/settlements?{query}"),
                &live.key,
                None,
                None,
            )
            .await;
        assert_eq!(s, 200, "{mine}");
        assert_eq!(mine["data"], report["data"]);
        let other = server
            .merchant_with_store("other-shop", "other-store", "LIVE")
            .await;
        let (s, none) = live
            .merchant(
                reqwest::Method::GET,
                &format!("/settlements?{query}"),
                &other,
                None,
                None,
            )
            .await;
        assert_eq!((s, &none["data"]), (200, &json!([])), "{none}");

        // Bad periods and filters.
        for (path, status, code) in [
            (format!("/settlements?from={from}"), 400, "missing_field"),
            (
                format!("/settlements?from={to}&to={from}"),
                400,
                "invalid_range",
            ),
            (
                format!("/settlements?from={from}&to={}", from.add_days(366)),
                400,
                "invalid_range",
            ),
            (
                format!("/settlements?from=2026-02-30&to={to}"),
                400,
                "invalid_date",
            ),
            (
                format!("/settlements?{query}&merchant=nobody"),
                404,
                "merchant_not_found",
            ),
            (
                format!("/settlements?{query}&provider=nobody"),
                404,
                "provider_not_found",
            ),
            (
                format!("/settlements?{query}&store=x"),
                400,
                "unknown_field",
            ),
        ] {
            let (s, answer) = server.admin_get(&path).await;
            assert_eq!(
                (s, answer["error"]["code"].as_str()),
                (status, Some(code)),
                "{path}: {answer}"
            );
        }
        let (s, answer) = live
            .merchant(reqwest::Method::GET, "/settlements", &live.key, None, None)
            .await;
        assert_eq!(
            (s, answer["error"]["code"].as_str()),
            (400, Some("missing_field"))
        );
        let writer = live.key_with(&["payments:refund"]).await;
        let (s, answer) = live
            .merchant(
                reqwest::Method::GET,
                &format!("/settlements?{query}"),
                &writer,
                None,
                None,
            )
            .await;
        assert_eq!(
            (s, answer["error"]["code"].as_str()),
            (403, Some("insufficient_scope"))
        );
    }
}
