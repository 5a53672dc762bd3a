//! Pix Automático under SIGKILLs (issue 33): pixgate makes each cycle's charge of the mandates
//! that charge themselves while it is killed and started again. Weekly mandates of a fixed
//! amount, starting in three days, with `PIXGATE_MANDATE_LEAD_DAYS=10`: once the payer
//! approves, two cycles are due for their charge at once (in 3 and in 10 days), so every
//! approval sets off two `PUT /cobr` at the PSP, and the payers approve one after another
//! while the kills land. Afterwards:
//!
//! - every mandate is `ACTIVE` with exactly one charge for each of cycles 1 and 2, `PENDING`
//!   (created at the PSP), and no other;
//! - each charge's cobr exists at the PSP, of the mandate's recurrence and the cycle's due
//!   date; no two charges share one;
//! - the PSP created exactly as many cobrs as there are charges: none for a charge a crash
//!   made twice, none left without its charge.
//!
//! Size: `HARNESS_KILLS` (2) kills, `HARNESS_MANDATES` (16) mandates, `HARNESS_UPTIME_MS`
//! (1200) the longest run between two kills.

use super::*;
use pixgate_e2e::rec::today;

#[tokio::test(flavor = "multi_thread")]
async fn each_cycle_is_charged_once_at_the_psp_across_random_sigkills_on_sqlite() {
    cycles_under_kills(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn each_cycle_is_charged_once_at_the_psp_across_random_sigkills_on_postgresql() {
    if postgres_admin_url().is_none() {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    cycles_under_kills(Backend::Postgres).await;
}

/// A weekly mandate of R$ 39.90 from `start`, reference `plan-{n}`, that charges itself.
fn weekly(n: usize, start: &str) -> Value {
    json!({
        "store": STORE,
        "reference": format!("plan-{n}"),
        "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"},
        "frequency": "WEEKLY",
        "startDate": start,
        "amount": 39.9,
        "retryPolicy": "NONE",
        "journey": "QR"
    })
}

async fn cycles_under_kills(backend: Backend) {
    sqlx::any::install_default_drivers();
    let kills = harness_setting("HARNESS_KILLS", 2);
    let mandates = harness_setting("HARNESS_MANDATES", 16) as usize;
    let uptime_ms = harness_setting("HARNESS_UPTIME_MS", 1200).max(100);
    let env = [
        ("PIXGATE_RATE_LIMIT_PER_SECOND", "0"),
        // A charge's key held by a killed instance is taken over quickly.
        ("PIXGATE_LIVE_LEASE", "2s"),
        // The payers' approvals reach a restarted instance by its re-reads (the simulator
        // still calls the first one's port), and the charger looks every 200 ms.
        ("PIXGATE_RECONCILE_INTERVAL", "200ms"),
        ("PIXGATE_MANDATE_LEAD_DAYS", "10"),
        ("PIXGATE_PSP_TIMEOUT", "10s"),
    ];
    let mut live = Live::start(backend, &env).await;
    // sandbox-b takes mandates: it has a receiving account.
    let account = json!({"account": {"branch": "0001", "number": "123456", "type": "CORRENTE"}});
    let (s, b) = live
        .server
        .admin_patch("/providers/sandbox-b", account)
        .await;
    assert_eq!(s, 200, "{b}");
    let key = live.key_with(&["mandates:manage", "payments:read"]).await;
    let start = today().add_days(3);
    let http = reqwest::Client::new();

    // The mandates, waiting for their payers.
    let mut made = Vec::new();
    for n in 0..mandates {
        let r = http
            .post(format!("{}/mandates", live.server.base))
            .bearer_auth(&key)
            .header("Idempotency-Key", format!("crash-mandate-{n}"))
            .json(&weekly(n, &start.to_string()))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let m: Value = r.json().await.unwrap();
        assert_eq!(m["data"]["provider"]["code"], "sandbox-b", "{m}");
        made.push((
            m["data"]["mandateId"].as_str().unwrap().to_owned(),
            m["data"]["provider"]["recurrenceId"]
                .as_str()
                .unwrap()
                .to_owned(),
        ));
    }

    // The payers approve one after another, spread over the runs, while pixgate is killed
    // at random moments: the charges of the cycles are being made when the kills land.
    let run_for = |ms: u64| Duration::from_millis(ms / 4 + random_below(ms - ms / 4));
    let mut approvals = made.iter().map(|(_, id_rec)| id_rec.clone());
    let per_run = mandates.div_ceil(kills as usize + 1);
    for _ in 0..kills {
        let until = Instant::now() + run_for(uptime_ms);
        for id_rec in approvals.by_ref().take(per_run) {
            live.b
                .post(&format!("/rec/{id_rec}/approve"), json!({}))
                .await;
        }
        while Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let (server, _) = tokio::task::block_in_place(|| kill_and_restart(&mut live.server));
        live.server = server;
    }
    for id_rec in approvals {
        live.b
            .post(&format!("/rec/{id_rec}/approve"), json!({}))
            .await;
    }

    // Every mandate ends with its two charges at the PSP.
    let deadline = Instant::now() + Duration::from_secs(60 + mandates as u64 / 4);
    let mut charges: Vec<(String, Vec<Value>)> = Vec::new();
    for (id, _) in &made {
        loop {
            let (s, m) = live.server.admin_get(&format!("/mandates/{id}")).await;
            assert_eq!(s, 200, "{m}");
            let list = m["data"]["charges"].as_array().cloned().unwrap_or_default();
            if m["data"]["status"] == "ACTIVE"
                && list.len() >= 2
                && list.iter().all(|c| c["status"] == "PENDING")
            {
                charges.push((id.clone(), list));
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{backend:?}: mandate {id} has not got its two charges at the PSP: {m}\n{}",
                live.server.logs()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    // A few charger passes later, still exactly those.
    tokio::time::sleep(Duration::from_millis(1_000)).await;

    let mut txids = HashSet::new();
    for ((id, id_rec), (_, first_seen)) in made.iter().zip(&charges) {
        let (_, m) = live.server.admin_get(&format!("/mandates/{id}")).await;
        let list = m["data"]["charges"].as_array().cloned().unwrap_or_default();
        // The same charges (their attempts may have been read meanwhile).
        let ids = |l: &[Value]| -> Vec<(Value, Value)> {
            l.iter()
                .map(|c| (c["cycle"].clone(), c["paymentIntentId"].clone()))
                .collect()
        };
        assert_eq!(ids(&list), ids(first_seen), "{backend:?}: {m}");
        let cycles: Vec<i64> = list.iter().map(|c| c["cycle"].as_i64().unwrap()).collect();
        assert_eq!(cycles.len(), 2, "{backend:?}: one charge per cycle: {m}");
        assert!(cycles.contains(&1) && cycles.contains(&2), "{m}");
        for charge in &list {
            let intent = charge["paymentIntentId"].as_str().unwrap();
            let (s, read) = live.server.get_payment(&key, intent).await;
            assert_eq!(s, 200, "{read}");
            let read = &read["data"];
            assert_eq!(read["kind"], "RECURRING", "{read}");
            assert_eq!(read["mandateId"], json!(id), "{read}");
            let due = start.add_days(7 * (charge["cycle"].as_i64().unwrap() - 1));
            assert_eq!(read["dueDate"], json!(due.to_string()), "{read}");
            let txid = read["pix"]["txid"].as_str().unwrap().to_owned();
            let cobr = live.b.cobr(&txid).await;
            assert_eq!(cobr["idRec"], json!(id_rec), "{backend:?}: {txid}: {cobr}");
            assert_eq!(
                cobr["calendario"]["dataDeVencimento"],
                json!(due.to_string()),
                "{cobr}"
            );
            assert!(txids.insert(txid), "{backend:?}: a cobr of two charges");
        }
    }
    let created = live.b.stats().await["cobrsCreated"].as_u64();
    assert_eq!(
        created,
        Some(txids.len() as u64),
        "{backend:?}: the PSP created one cobr per charge"
    );
    assert_eq!(live.a.stats().await["cobrsCreated"].as_u64(), Some(0));
    eprintln!(
        "{backend:?}: {mandates} mandates, {kills} kills, {} cycles charged once each",
        txids.len()
    );
}
