//! What survives: group commit under a crash (charges are answered only after the
//! transaction holding them has committed, so a SIGKILL in the middle of the batches loses
//! none that was answered, leaves nothing half-written, and a retry of an unanswered key
//! charges at most once); a backup taken while charges pour in, restored; the schema brought
//! up to date by `pixgate migrate` before `serve` with `PIXGATE_MIGRATE=off`; and
//! `pixgate healthcheck`, an image's probe.

use std::collections::{HashMap, HashSet};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pixgate_e2e::server::{
    Backend, Options, Server, backends, charge_body, fresh_postgres_database,
};
use pixgate_e2e::{pixgate, pixgate_bin};

/// Concurrent clients, enough to fill batches of many charges.
const CLIENTS: usize = 48;

#[tokio::test(flavor = "multi_thread")]
async fn every_answered_charge_survives_a_kill_in_the_middle_of_the_batches() {
    sqlx::any::install_default_drivers();
    for backend in backends() {
        let env = [("PIXGATE_RATE_LIMIT_PER_SECOND", "0")];
        let mut server = Server::start_with(backend, &env).await;
        let key = server.demo_key.clone();
        let body = charge_body("demo-store");
        let sent = Arc::new(Mutex::new(Vec::<String>::new()));
        let answered = Arc::new(Mutex::new(HashMap::<String, String>::new()));
        let mut clients = Vec::new();
        for client in 0..CLIENTS {
            let (http, base) = (server.client.clone(), server.base.clone());
            let (key, body) = (key.clone(), body.clone());
            let (sent, answered) = (sent.clone(), answered.clone());
            clients.push(tokio::spawn(async move {
                for n in 0.. {
                    let idem = format!("crash-{client}-{n}");
                    sent.lock().unwrap().push(idem.clone());
                    let Ok(r) = http
                        .post(format!("{base}/payments/charge"))
                        .bearer_auth(&key)
                        .header("Idempotency-Key", &idem)
                        .json(&body)
                        .send()
                        .await
                    else {
                        return; // the server is gone
                    };
                    let status = r.status().as_u16();
                    let Ok(b) = r.json::<serde_json::Value>().await else {
                        return;
                    };
                    assert_eq!(status, 200, "{b}");
                    let id = b["data"]["paymentIntentId"].as_str().unwrap().to_owned();
                    answered.lock().unwrap().insert(idem, id);
                }
            }));
        }
        // Let batches form, and make sure they did hold several charges each.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let metrics = loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if answered.lock().unwrap().len() >= 400 {
                break server.metrics().await;
            }
            assert!(
                std::time::Instant::now() < deadline && clients.iter().all(|c| !c.is_finished()),
                "{backend:?}: the charges stopped before 400 were answered"
            );
        };
        let (sum, count) = histogram(&metrics, "pixgate_commit_batch_size");
        assert!(
            sum > count,
            "{backend:?}: batches of one charge only ({sum} charges in {count} commits)"
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
        let data_dir = server.kill_hard();
        for client in clients {
            client.await.unwrap();
        }
        let sent = sent.lock().unwrap().clone();
        let answered = answered.lock().unwrap().clone();
        eprintln!(
            "{backend:?}: {} charges answered, {} sent, {:.1} charges per commit before the kill",
            answered.len(),
            sent.len(),
            sum / count
        );

        let server = Server::launch(Options {
            database_url: (!server.database_url.is_empty()).then(|| server.database_url.clone()),
            env: server.env.clone(),
            data_dir: Some(data_dir),
        });
        let stored = stored_charges(&server, backend).await;
        // Every answered charge is there, under its key, with the intent it was answered with.
        for (idem, id) in &answered {
            assert_eq!(stored.get(idem), Some(id), "{backend:?}: {idem} was lost");
        }
        // Nothing else: only keys that were sent, each once (the unanswered ones that committed
        // before the kill are whole, checked by `stored_charges`).
        let sent_keys: HashSet<&String> = sent.iter().collect();
        assert!(stored.keys().all(|k| sent_keys.contains(k)), "{backend:?}");
        // A retry of any key sent, answered or not, charges at most once: the same intent for
        // the answered and committed ones, a new one for those that never committed.
        for idem in &sent {
            let (status, b) = server.charge(&key, idem, &body).await;
            assert_eq!(status, 200, "{backend:?} {b}");
            let id = b["data"]["paymentIntentId"].as_str().unwrap();
            match stored.get(idem) {
                Some(before) => {
                    assert_eq!(id, before, "{backend:?}: {idem}");
                    assert_eq!(b["data"]["idempotentReplay"], true);
                }
                None => assert_eq!(b["data"]["idempotentReplay"], false),
            }
        }
        let after = stored_charges(&server, backend).await;
        assert_eq!(after.len(), sent.len(), "{backend:?}: one intent per key");
    }
}

/// `(sum, count)` of a Prometheus histogram in the text format.
fn histogram(metrics: &str, name: &str) -> (f64, f64) {
    let value = |suffix: &str| {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}_{suffix} ")))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .unwrap_or_else(|| panic!("{name}_{suffix} in the metrics:\n{metrics}"))
    };
    (value("sum"), value("count"))
}

/// Idempotency-Key → intent id of every stored charge. Panics on a half-written one: an
/// intent without its idempotency record or trace, or a record without its intent.
async fn stored_charges(server: &Server, backend: Backend) -> HashMap<String, String> {
    let db = server.open_db().await;
    let rows: Vec<(String, String, Option<String>, Option<String>)> = sqlx::query_as(
        "select i.idempotency_key, i.id, r.payment_intent_id, t.payment_intent_id \
         from payment_intents i \
         left join idempotency_records r \
           on r.merchant_id = i.merchant_id and r.idempotency_key = i.idempotency_key \
         left join decision_traces t on t.payment_intent_id = i.id",
    )
    .fetch_all(&db.read)
    .await
    .unwrap();
    let mut stored = HashMap::new();
    for (idem, id, record, trace) in rows {
        assert_eq!(record.as_ref(), Some(&id), "{backend:?}: {idem}'s record");
        assert_eq!(trace.as_ref(), Some(&id), "{backend:?}: {idem}'s trace");
        assert!(
            stored.insert(idem.clone(), id).is_none(),
            "{backend:?}: {idem} twice"
        );
    }
    let records: i64 = sqlx::query_scalar("select count(*) from idempotency_records")
        .fetch_one(&db.read)
        .await
        .unwrap();
    assert_eq!(
        records as usize,
        stored.len(),
        "{backend:?}: records without intents"
    );
    stored
}

/// `pixgate ARGS`: exit code, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = pixgate(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_backup_taken_while_charges_pour_in_restores_every_charge_answered_before_it() {
    sqlx::any::install_default_drivers();
    let server =
        Server::start_with(Backend::Sqlite, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;
    let key = server.demo_key.clone();
    let body = charge_body("demo-store");
    let answered = Arc::new(Mutex::new(Vec::<(Instant, String)>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut clients = Vec::new();
    for client in 0..CLIENTS {
        let (http, base) = (server.client.clone(), server.base.clone());
        let (key, body) = (key.clone(), body.clone());
        let (answered, stop) = (answered.clone(), stop.clone());
        clients.push(tokio::spawn(async move {
            for n in 0.. {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let r = http
                    .post(format!("{base}/payments/charge"))
                    .bearer_auth(&key)
                    .header("Idempotency-Key", format!("backup-{client}-{n}"))
                    .json(&body)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(r.status(), 200);
                let b: serde_json::Value = r.json().await.unwrap();
                let id = b["data"]["paymentIntentId"].as_str().unwrap().to_owned();
                answered.lock().unwrap().push((Instant::now(), id));
            }
        }));
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while answered.lock().unwrap().len() < 300 {
        assert!(Instant::now() < deadline, "the load did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The backup runs while the clients keep charging.
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("pixgate-backup.db");
    let started = Instant::now();
    let before = answered.lock().unwrap().len();
    let (code, out, err) = run(&[
        "backup",
        path(&file),
        "--data-dir",
        path(server.data_dir.path()),
        "--with-master-key",
    ]);
    let took = started.elapsed();
    let during = answered.lock().unwrap().len() - before;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("integrity check ok"), "{out}");
    eprintln!(
        "backup in {took:?} while {during} charges were answered ({:.0} charges/s)",
        during as f64 / took.as_secs_f64()
    );
    assert!(during > 0, "no charge was answered while the backup ran");
    // A second backup to the same file is refused: nothing is overwritten.
    let (code, _, err) = run(&[
        "backup",
        path(&file),
        "--data-dir",
        path(server.data_dir.path()),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("exists"), "{err}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.await.unwrap();
    }
    let acknowledged: Vec<String> = answered
        .lock()
        .unwrap()
        .iter()
        .filter(|(at, _)| *at < started)
        .map(|(_, id)| id.clone())
        .collect();

    // Restored into a new data dir, with the key written beside the backup.
    let restored = work.path().join("restored");
    let (code, out, err) = run(&["restore", path(&file), "--data-dir", path(&restored)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("master key restored"), "{out}");
    let data_dir = tempfile::tempdir().unwrap();
    std::fs::remove_dir(data_dir.path()).unwrap();
    std::fs::rename(&restored, data_dir.path()).unwrap();
    let restored = Server::launch(Options {
        database_url: None,
        env: vec![("PIXGATE_RATE_LIMIT_PER_SECOND".into(), "0".into())],
        data_dir: Some(data_dir),
    });
    // Every charge answered before the backup began is there, whole, for the same key.
    let stored = stored_charges(&restored, Backend::Sqlite).await;
    let ids: HashSet<&String> = stored.values().collect();
    for id in &acknowledged {
        assert!(
            ids.contains(id),
            "{id}, answered before the backup, is not in it"
        );
    }
    for id in acknowledged.iter().step_by(50) {
        let (status, b) = restored.get_payment(&key, id).await;
        assert_eq!(status, 200, "{b}");
        assert_eq!(b["data"]["amount"], 129.9, "{b}");
    }
    // A restore never fills a data dir that holds anything.
    let (code, _, err) = run(&[
        "restore",
        path(&file),
        "--data-dir",
        path(restored.data_dir.path()),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("is not empty"), "{err}");
}

#[test]
fn restore_refuses_what_is_not_a_sound_pixgate_database() {
    let work = tempfile::tempdir().unwrap();
    let into = work.path().join("new");
    let garbage = work.path().join("garbage.db");
    std::fs::write(
        &garbage,
        "not a database at all, but long enough to read a header",
    )
    .unwrap();
    let (code, _, err) = run(&["restore", path(&garbage), "--data-dir", path(&into)]);
    assert_eq!(code, 1);
    assert!(
        err.contains("not a sound pixgate database") && err.contains("not an SQLite"),
        "{err}"
    );

    // A real database, served once, then cut short as a copy interrupted halfway would be.
    let data = work.path().join("data");
    let (code, out, err) = run(&["migrate", "--data-dir", path(&data)]);
    assert_eq!(code, 0, "{out}{err}");
    let backup = work.path().join("whole.db");
    let (code, out, err) = run(&["backup", path(&backup), "--data-dir", path(&data)]);
    assert_eq!(code, 0, "{out}{err}");
    let bytes = std::fs::read(&backup).unwrap();
    let truncated = work.path().join("truncated.db");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let (code, _, err) = run(&["restore", path(&truncated), "--data-dir", path(&into)]);
    assert_eq!(code, 1);
    assert!(err.contains("not a sound pixgate database"), "{err}");
    // Some other application's SQLite database.
    let other = work.path().join("other.db");
    let made = Command::new("python3")
        .args(["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(x)'); c.commit()"])
        .arg(&other)
        .status()
        .unwrap();
    assert!(made.success());
    let (code, _, err) = run(&["restore", path(&other), "--data-dir", path(&into)]);
    assert_eq!(code, 1);
    assert!(err.contains("no pixgate schema"), "{err}");
    // Nothing was written by the refusals; the sound copy then restores.
    assert!(!into.join("pixgate.db").exists());
    let (code, out, err) = run(&["restore", path(&backup), "--data-dir", path(&into)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("no master key beside the backup"), "{out}");

    // PostgreSQL has its own tools, and both commands name them.
    let pg = "postgres://pixgate@127.0.0.1:5432/pixgate";
    let (code, _, err) = run(&[
        "backup",
        path(&work.path().join("pg.db")),
        "--database-url",
        pg,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("pg_dump"), "{err}");
    let out = Command::new(pixgate_bin())
        .args([
            "restore",
            path(&backup),
            "--data-dir",
            path(&work.path().join("pg")),
        ])
        .env_clear()
        .env("PIXGATE_DATABASE_URL", pg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pg_restore"));
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_with_migrate_off_waits_for_pixgate_migrate_which_check_reports_before_and_after() {
    for backend in backends() {
        let data = tempfile::tempdir().unwrap();
        let url = match backend {
            Backend::Sqlite => format!("sqlite://{}", data.path().join("pixgate.db").display()),
            Backend::Postgres => fresh_postgres_database().await,
        };
        // A new database lacks every migration: --check says which, and exits 1.
        let (code, out, err) = run(&["migrate", "--check", "--database-url", &url]);
        assert_eq!(code, 1, "{backend:?}: {out}{err}");
        assert!(out.contains("pending: 0001"), "{backend:?}: {out}");
        assert!(err.contains("run `pixgate migrate`"), "{backend:?}: {err}");

        // `serve` with PIXGATE_MIGRATE=off refuses it, naming the command.
        let refused = Command::new(pixgate_bin())
            .arg("serve")
            .env_clear()
            .env("PIXGATE_DATA_DIR", data.path())
            .env("PIXGATE_DATABASE_URL", &url)
            .env("PIXGATE_LISTEN", "127.0.0.1:0")
            .env("PIXGATE_ADMIN_LISTEN", "127.0.0.1:0")
            .env("PIXGATE_MIGRATE", "off")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(1), "{backend:?}: {err}");
        assert!(err.contains("pixgate migrate"), "{backend:?}: {err}");
        assert!(!String::from_utf8_lossy(&refused.stdout).contains("ready"));

        let (code, out, err) = run(&["migrate", "--database-url", &url]);
        assert_eq!(code, 0, "{backend:?}: {out}{err}");
        assert!(out.contains("migration(s) applied"), "{backend:?}: {out}");
        let (code, out, err) = run(&["migrate", "--check", "--database-url", &url]);
        assert_eq!(code, 0, "{backend:?}: {out}{err}");
        assert!(out.contains("up to date"), "{backend:?}: {out}");
        // Migrating again applies nothing.
        let (code, out, _) = run(&["migrate", "--database-url", &url]);
        assert_eq!(
            (code, out.contains("0 migration(s) applied")),
            (0, true),
            "{out}"
        );

        let server = Server::launch(Options {
            database_url: (backend == Backend::Postgres).then(|| url.clone()),
            env: vec![("PIXGATE_MIGRATE".into(), "off".into())],
            data_dir: Some(data),
        });
        let (status, b) = server
            .charge(
                &server.demo_key,
                "after-migrate",
                &charge_body("demo-store"),
            )
            .await;
        assert_eq!(status, 200, "{backend:?}: {b}");
    }
}

#[test]
fn migrate_wait_keeps_trying_an_unreachable_database_then_gives_up_saying_why() {
    // A port nothing listens on: refused at once, tried again each second.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://pixgate@127.0.0.1:{port}/pixgate");
    let started = Instant::now();
    let (code, out, err) = run(&["migrate", "--wait", "2s", "--database-url", &url]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(started.elapsed() >= Duration::from_secs(2), "{err}");
    assert!(
        err.matches("waiting for the database").count() >= 2,
        "{err}"
    );
    // Without --wait: one try.
    let (code, _, err) = run(&["migrate", "--database-url", &url]);
    assert_eq!(code, 1);
    assert!(!err.contains("waiting for the database"), "{err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn healthcheck_exits_0_while_the_instance_is_ready_and_1_once_it_is_gone() {
    let mut server = Server::start(Backend::Sqlite).await;
    let listen = server
        .admin
        .trim_start_matches("http://")
        .trim_end_matches("/admin/v1")
        .to_owned();
    let port = listen.rsplit(':').next().unwrap().to_owned();
    let (code, out, err) = run(&["healthcheck", "--admin-listen", &listen]);
    assert_eq!(code, 0, "{out}{err}");
    // As the image gives it: every address, asked on loopback.
    let (code, out, err) = run(&["healthcheck", "--admin-listen", &format!("0.0.0.0:{port}")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(server.terminate().success());
    let (code, _, err) = run(&["healthcheck", "--admin-listen", &listen]);
    assert_eq!(code, 1);
    assert!(err.contains("/readyz"), "{err}");
}

/// A rolling upgrade on PostgreSQL, as far as one build can play it: this binary plays the
/// release still serving while "the next release" migrates the database under it (an
/// expanding migration this binary does not know, applied as `pixgate migrate` of that release
/// would: its schema change and its `_sqlx_migrations` row). Charges pour in throughout; every
/// one is answered, an instance of this release starts again on the migrated database (as a
/// pod rescheduled mid-rollout does), `migrate --check` finds nothing for it to apply, and every
/// charge is read back through the new instance. Building the previous commit here would be a
/// second compile of the whole crate graph (about 30 minutes on CI's two cores), over CI's
/// budget: docs/src/operations/upgrades.md says so.
#[tokio::test(flavor = "multi_thread")]
async fn the_serving_release_keeps_charging_while_the_next_one_migrates_and_restarts_after() {
    if !backends().contains(&Backend::Postgres) {
        eprintln!("PostgreSQL only: PIXGATE_TEST_DATABASE_URL is not set");
        return;
    }
    let url = fresh_postgres_database().await;
    let key = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    let launch = || {
        Server::launch(Options {
            database_url: Some(url.clone()),
            env: vec![
                ("PIXGATE_MASTER_KEY".to_owned(), key.to_owned()),
                (
                    "PIXGATE_ADMIN_TOKEN".to_owned(),
                    "pxa_test_token_rolling".to_owned(),
                ),
                // The clients charge as fast as answers come: above the default 100/s.
                (
                    "PIXGATE_RATE_LIMIT_PER_SECOND".to_owned(),
                    "100000".to_owned(),
                ),
                ("PIXGATE_RATE_LIMIT_BURST".to_owned(), "100000".to_owned()),
            ],
            data_dir: None,
        })
    };
    let serving = launch();
    let demo_key = serving.demo_key.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(Mutex::new(Vec::new()));
    let clients: Vec<_> = (0..4)
        .map(|c| {
            let (client, base) = (serving.client.clone(), serving.base.clone());
            let (demo_key, stop, answered) = (demo_key.clone(), stop.clone(), answered.clone());
            tokio::spawn(async move {
                let mut n = 0;
                while !stop.load(Ordering::Relaxed) {
                    n += 1;
                    let r = client
                        .post(format!("{base}/payments/charge"))
                        .bearer_auth(&demo_key)
                        .header("Idempotency-Key", format!("roll-{c}-{n}"))
                        .json(&charge_body("demo-store"))
                        .send()
                        .await
                        .unwrap();
                    let status = r.status().as_u16();
                    let body: serde_json::Value = r.json().await.unwrap();
                    assert_eq!(status, 200, "a charge during the migration: {body}");
                    let id = body["data"]["paymentIntentId"].as_str().unwrap().to_owned();
                    answered.lock().unwrap().push(id);
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;

    // The next release's migration: it only expands (a nullable column, a new table).
    for statement in [
        "alter table payment_intents add column next_release_note text",
        "create table next_release_things (id text primary key, created_at bigint not null)",
        "insert into _sqlx_migrations \
           (version, description, installed_on, success, checksum, execution_time) \
         values (9001, 'next release', now(), true, '\\x00'::bytea, 1)",
    ] {
        serving.execute_sql(statement).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;

    // A pod of this release rescheduled mid-rollout starts on the migrated database.
    let restarted = launch();
    let (code, out, err) = run(&["migrate", "--check", "--database-url", &url]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("up to date"), "{out}");
    assert!(
        out.contains("also has 1 migration(s) of a newer release (up to 9001)"),
        "{out}"
    );
    let (status, body) = restarted
        .charge(&demo_key, "roll-after", &charge_body("demo-store"))
        .await;
    assert_eq!(status, 200, "{body}\n{}", restarted.logs());
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.await.unwrap();
    }
    let answered = answered.lock().unwrap().clone();
    assert!(answered.len() >= 20, "too few charges: {}", answered.len());
    for id in &answered {
        let (status, body) = restarted.get_payment(&demo_key, id).await;
        assert_eq!(status, 200, "{id}: {body}");
    }
}
