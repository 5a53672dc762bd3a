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
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let (_, m) = server.get_payment(&live.key, &matched_id).await;
            if m["data"]["amountRefunded"] == 5.0 {
                break;
            }
            assert!(Instant::now() < deadline, "the MED's refund: {m}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

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
    }
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
