//! The `pixgate policy` commands that talk to a running instance's admin API: where they
//! connect, how they authenticate, and their exit status (0, 1 with the error, 2 on usage).

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use pixgate_e2e::server::{Backend, Server, backends, charge_body};
use pixgate_e2e::{guest_wasm, pixgate_bin, pixgate_json, repo_file};
use serde_json::{Value, json};

/// Runs `pixgate` with only the given environment.
fn cli(env: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(pixgate_bin())
        .args(args)
        .env_clear()
        .envs(env.iter().copied())
        .output()
        .expect("pixgate runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A loopback port nothing listens on: bound, then released.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[test]
fn an_unreachable_instance_is_an_error_naming_the_url() {
    let url = format!("http://127.0.0.1:{}", closed_port());
    let out = cli(
        &[("PIXGATE_ADMIN_URL", &url), ("PIXGATE_ADMIN_TOKEN", "t")],
        &["policy", "status", "--store", "demo-store"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.starts_with("pixgate: admin_unreachable: "), "{err}");
    assert!(
        err.contains(&format!("{url}/admin/v1/stores/demo-store/components")),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn without_a_token_the_cli_reads_the_data_dirs_or_says_what_to_set() {
    let url = format!("http://127.0.0.1:{}", closed_port());
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    let env = [
        ("PIXGATE_ADMIN_URL", url.as_str()),
        ("PIXGATE_DATA_DIR", dir),
    ];
    let out = cli(&env, &["policy", "status", "--store", "s"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.starts_with("pixgate: admin_token_missing: "), "{err}");
    assert!(err.contains("PIXGATE_ADMIN_TOKEN"), "{err}");
    assert!(err.contains(&format!("{dir}/admin-token")), "{err}");
    // With the file `pixgate serve` writes, the command goes on to the instance (closed here).
    std::fs::write(data.path().join("admin-token"), "pxa_t\n").unwrap();
    let err = stderr(&cli(&env, &["policy", "status", "--store", "s"]));
    assert!(err.starts_with("pixgate: admin_unreachable: "), "{err}");
}

#[test]
fn usage_errors_exit_2_before_any_request() {
    let url = format!("http://127.0.0.1:{}", closed_port());
    let env = [
        ("PIXGATE_ADMIN_URL", url.as_str()),
        ("PIXGATE_ADMIN_TOKEN", "t"),
    ];
    let cases: [&[&str]; 7] = [
        &["policy", "replay", "--store", "s", "--limit", "0"],
        &["policy", "replay", "--store", "s", "--limit", "100001"],
        &["policy", "upload", "--step", "chain", "x.wasm"],
        &["policy", "status", "--store", ".."],
        &["policy", "candidate", "--store", "s", "--step", "policy"],
        &[
            "policy",
            "candidate",
            "--store",
            "s",
            "--step",
            "policy",
            "v",
            "--clear",
        ],
        &[
            "policy",
            "list",
            "--step",
            "policy",
            "--admin-url",
            "ftp://127.0.0.1",
        ],
    ];
    for args in cases {
        let out = cli(&env, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            !stderr(&out).contains("admin_unreachable"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_component_file_that_is_missing_is_not_sent_as_a_version() {
    let url = format!("http://127.0.0.1:{}", closed_port());
    let out = cli(
        &[("PIXGATE_ADMIN_URL", &url), ("PIXGATE_ADMIN_TOKEN", "t")],
        &[
            "policy",
            "replay",
            "--store",
            "s",
            "--provider",
            "target/no-such.wasm",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).trim_end(),
        "pixgate: component_unreadable: target/no-such.wasm: no such file"
    );
}

/// The admin URL and token of `server` in the environment, as an operator sets them.
fn admin_env(server: &Server) -> [(&'static str, String); 2] {
    [
        ("PIXGATE_ADMIN_URL", server.admin.clone()),
        ("PIXGATE_ADMIN_TOKEN", server.admin_token.clone()),
    ]
}

/// `pixgate` with `server`'s admin environment; exit status 0 expected, stdout returned.
fn ok(server: &Server, args: &[&str]) -> String {
    let env = admin_env(server);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out = cli(&env, args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// `pixgate` with `server`'s admin environment; exit status 1 expected, stderr returned.
fn fails(server: &Server, args: &[&str]) -> String {
    let env = admin_env(server);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out = cli(&env, args);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
    stderr(&out)
}

/// Whether a line of `text` has exactly these words.
fn has_row(text: &str, words: &[&str]) -> bool {
    text.lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>() == words)
}

/// The sha256 `pixgate policy run` reports for a component file.
fn sha256_of(step: &str, wasm: &str) -> String {
    let input = repo_file(&format!("policies/samples/{step}.json"));
    let (_, out) = pixgate_json(&[
        "policy",
        "run",
        "--step",
        step,
        "--component",
        wasm,
        "--input",
        input.to_str().unwrap(),
    ]);
    out["component"]["sha256"].as_str().unwrap().to_owned()
}

async fn charges(server: &Server, key: &str, store: &str, n: usize) {
    for _ in 0..n {
        let (status, body) = server
            .charge(key, &uuid::Uuid::new_v4().to_string(), &charge_body(store))
            .await;
        // A SHADOW store's charge completes at once: 200.
        assert!(matches!(status, 200 | 201), "{status} {body}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_token_prints_the_api_error_and_exits_1() {
    let server = Server::start(Backend::Sqlite).await;
    // The URL as the server prints it, with its /admin/v1, given as a flag.
    let out = cli(
        &[],
        &[
            "policy",
            "list",
            "--step",
            "provider",
            "--admin-url",
            &server.admin,
            "--admin-token",
            "not-the-token",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        "pixgate: invalid_admin_token: the admin token is not valid [HTTP 401]"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_component_goes_from_upload_to_replay_shadow_activation_and_rollback() {
    for backend in backends() {
        walk(backend).await;
    }
}

async fn walk(backend: Backend) {
    let server = Server::start(backend).await;
    let key = server
        .merchant_with_store("kit", "kit-store", "SHADOW")
        .await;
    // R$ 129.90 each: the bundled chain routes to sandbox-b-d0 (fee 165 centavos); the
    // costliest-first fixture to sandbox-a-d0 (fee 181).
    charges(&server, &key, "kit-store", 5).await;

    let fixture = guest_wasm("pixgate_fixture_costliest_first");
    let fixture = fixture.to_str().unwrap();
    let expected = sha256_of("provider", fixture);

    // Upload: the version is the file's sha256; again, the same version.
    let version = ok(
        &server,
        &["policy", "upload", "--step", "provider", fixture],
    );
    let version = version.trim();
    assert_eq!(version, expected);
    let env = admin_env(&server);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let again = cli(&env, &["policy", "upload", "--step", "provider", fixture]);
    assert_eq!(String::from_utf8_lossy(&again.stdout).trim(), version);
    assert!(
        stderr(&again).contains("already uploaded"),
        "{}",
        stderr(&again)
    );
    let wrong = guest_wasm("pixgate_fixture_wrong_world");
    let err = fails(
        &server,
        &[
            "policy",
            "upload",
            "--step",
            "policy",
            wrong.to_str().unwrap(),
        ],
    );
    // What it sent, then the API's refusal.
    assert!(err.starts_with("pixgate: uploading "), "{err}");
    let refusal = err.trim_end().lines().last().unwrap();
    assert!(refusal.starts_with("pixgate: wrong_world: "), "{err}");
    assert!(refusal.ends_with("[HTTP 400]"), "{err}");
    // A file that is no WebAssembly at all (the README instead of the build): one line that
    // says so, after the line saying what was sent.
    let readme = pixgate_e2e::repo_file("README.md");
    let err = fails(
        &server,
        &[
            "policy",
            "upload",
            "--step",
            "policy",
            readme.to_str().unwrap(),
        ],
    );
    let lines: Vec<&str> = err.trim_end().lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[1].starts_with("pixgate: invalid_component: ")
            && lines[1].contains("is not WebAssembly")
            && lines[1].ends_with("[HTTP 400]"),
        "{err}"
    );

    // List: the upload and the bundled version, which the demo store runs (it never set a
    // provider version of its own).
    let list = ok(&server, &["policy", "list", "--step", "provider"]);
    assert!(list.contains(version) && list.contains("bundled"), "{list}");
    let bundled = list.lines().find(|l| l.contains(" bundled ")).unwrap();
    assert!(
        bundled.ends_with("demo-store (active), kit-store (active)"),
        "{list}"
    );
    let list: Value = serde_json::from_str(&ok(
        &server,
        &["policy", "list", "--step", "provider", "--json"],
    ))
    .unwrap();
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|v| v["version"] == version && v["source"] == "uploaded"),
        "{list}"
    );
    // Its label: the file's name, beside the sha256 in the list and in the audit trail.
    let stem = "pixgate_fixture_costliest_first";
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|v| v["version"] == version && v["label"] == stem),
        "{list}"
    );
    assert!(
        stderr(&again).contains(&format!("({stem})")),
        "{}",
        stderr(&again)
    );
    assert!(
        stderr(&again).starts_with(&format!("pixgate: uploading {fixture} (")),
        "{}",
        stderr(&again)
    );
    let (_, audit) = server
        .admin_get("/audit-events?action=component.upload")
        .await;
    assert_eq!(audit["data"][0]["after"]["label"], stem, "{audit}");

    // Evaluate: one charge through the store's chain, then with the upload as its provider
    // step; its `store` field is the flag's. Nothing is recorded: the shadow comparison and the
    // replay below count the five charges made before.
    let dir = tempfile::tempdir().unwrap();
    let charge = dir.path().join("charge.json");
    std::fs::write(&charge, charge_body("another-store").to_string()).unwrap();
    let charge = charge.to_str().unwrap();
    let shown = ok(
        &server,
        &[
            "policy",
            "evaluate",
            "--store",
            "kit-store",
            "--charge",
            charge,
        ],
    );
    assert!(
        shown.starts_with("Evaluation on store kit-store\n"),
        "{shown}"
    );
    assert!(
        shown.contains("gateway sandbox-b-d0 (provider sandbox-b"),
        "{shown}"
    );
    assert!(shown.contains("fee R$ 1.65"), "{shown}");
    let shown = ok(
        &server,
        &[
            "policy",
            "evaluate",
            "--store",
            "kit-store",
            "--charge",
            charge,
            "--provider",
            version,
            "--json",
        ],
    );
    let evaluation: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(
        evaluation["outcome"]["gatewayAlias"], "sandbox-a-d0",
        "{shown}"
    );
    assert_eq!(evaluation["outcome"]["feeCentavos"], 181, "{shown}");
    assert!(evaluation["trace"]["provider"].is_object(), "{shown}");

    // Budget: set within the instance's maxima and shown in the list (marked as set), the
    // API's refusal over the maximum printed with its code.
    let set = ok(
        &server,
        &[
            "policy", "budget", "--step", "provider", version, "--fuel", "12000000",
        ],
    );
    assert!(set.contains("12,000,000*  16,777,216*"), "{set}");
    let list = ok(&server, &["policy", "list", "--step", "provider"]);
    assert!(list.contains("12,000,000*"), "{list}");
    let err = fails(
        &server,
        &[
            "policy",
            "budget",
            "--step",
            "provider",
            version,
            "--memory-bytes",
            "1073741824",
        ],
    );
    assert!(err.starts_with("pixgate: budget_over_maximum: "), "{err}");
    assert!(err.trim_end().ends_with("[HTTP 422]"), "{err}");

    // Replay: the recorded versions change nothing; the fixture changes every charge's
    // provider, gateway, fee and net, by construction.
    let same: Value = serde_json::from_str(&ok(
        &server,
        &[
            "policy",
            "replay",
            "--store",
            "kit-store",
            "--provider",
            "bundled",
            "--json",
        ],
    ))
    .unwrap();
    assert_eq!(
        (same["replayed"].as_u64(), same["changed"].as_u64()),
        (Some(5), Some(0)),
        "{same}"
    );
    let report: Value = serde_json::from_str(&ok(
        &server,
        &[
            "policy",
            "replay",
            "--store",
            "kit-store",
            "--provider",
            fixture,
            "--json",
        ],
    ))
    .unwrap();
    assert_eq!(report["components"]["provider"], version, "{report}");
    assert_eq!(report["components"]["policy"], "recorded", "{report}");
    assert_eq!(report["changed"], 5, "{report}");
    assert_eq!(
        report["changesByKind"],
        json!({"policy": 0, "provider": 5, "gateway": 5, "releaseClass": 0, "fee": 5, "net": 5, "refusal": 0})
    );
    // Both distributions name every provider seen on either side.
    assert_eq!(
        report["providersBefore"],
        json!({"sandbox-a": 0, "sandbox-b": 5})
    );
    assert_eq!(
        report["providersAfter"],
        json!({"sandbox-a": 5, "sandbox-b": 0})
    );
    assert_eq!(report["feeDeltaCentavos"], 5 * (181 - 165));
    assert_eq!(report["netDeltaCentavos"], -5 * (181 - 165));
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("replay.html");
    let text = ok(
        &server,
        &[
            "policy",
            "replay",
            "--store",
            "kit-store",
            "--provider",
            version,
            "--html",
            html.to_str().unwrap(),
        ],
    );
    assert!(has_row(&text, &["sandbox-a", "0", "5", "+5"]), "{text}");
    assert!(has_row(&text, &["sandbox-b", "5", "0", "-5"]), "{text}");
    assert!(has_row(&text, &["fees", "+R$", "0.80"]), "{text}");
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains("<svg") && html.contains("kit-store"));

    // Shadow: the candidate runs on new charges and the comparison fills up.
    let status = ok(
        &server,
        &[
            "policy",
            "candidate",
            "--store",
            "kit-store",
            "--step",
            "provider",
            version,
        ],
    );
    assert!(has_row(&status, &["candidate", version]), "{status}");
    charges(&server, &key, "kit-store", 3).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    let comparison = loop {
        let c: Value = serde_json::from_str(&ok(
            &server,
            &[
                "policy",
                "shadow",
                "--store",
                "kit-store",
                "--step",
                "provider",
                "--json",
            ],
        ))
        .unwrap();
        if c["charges"] == 3 || Instant::now() > deadline {
            break c;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(comparison["charges"], 3, "{comparison}");
    assert_eq!(comparison["changed"], 3, "{comparison}");
    let text = ok(
        &server,
        &[
            "policy",
            "shadow",
            "--store",
            "kit-store",
            "--step",
            "provider",
        ],
    );
    assert!(
        text.starts_with("Shadow comparison of store kit-store, step provider"),
        "{text}"
    );
    let status = ok(
        &server,
        &[
            "policy",
            "candidate",
            "--store",
            "kit-store",
            "--step",
            "provider",
            "--clear",
        ],
    );
    assert!(!status.contains("candidate"), "{status}");

    // Activation, status and rollback.
    let status = ok(
        &server,
        &[
            "policy",
            "activate",
            "--store",
            "kit-store",
            "--step",
            "provider",
            version,
        ],
    );
    assert!(
        status.lines().any(|l| l
            .split_whitespace()
            .take(3)
            .eq(["provider", "active", version])),
        "{status}"
    );
    let status = ok(&server, &["policy", "status", "--store", "kit-store"]);
    assert!(has_row(&status, &["previous", "bundled"]), "{status}");
    assert!(status.contains("activate"), "{status}");
    let status = ok(
        &server,
        &[
            "policy",
            "rollback",
            "--store",
            "kit-store",
            "--step",
            "provider",
        ],
    );
    assert!(
        status.lines().any(|l| l
            .split_whitespace()
            .take(3)
            .eq(["provider", "active", "bundled"])),
        "{status}"
    );
    assert!(status.contains("rollback"), "{status}");

    // The API's errors, with their codes.
    let unknown = "f".repeat(64);
    let err = fails(
        &server,
        &[
            "policy",
            "activate",
            "--store",
            "kit-store",
            "--step",
            "provider",
            &unknown,
        ],
    );
    assert!(err.starts_with("pixgate: component_not_found: "), "{err}");
    let err = fails(&server, &["policy", "status", "--store", "no-such-store"]);
    assert!(err.starts_with("pixgate: store_not_found: "), "{err}");
}
