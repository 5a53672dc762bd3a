//! The `pixgate policy` commands that talk to a running instance's admin API: where they
//! connect, how they authenticate, and their exit status (0, 1 with the error, 2 on usage).

use std::process::{Command, Output};

use pixgate_e2e::pixgate_bin;

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
fn usage_errors_exit_2_before_any_request() {
    let url = format!("http://127.0.0.1:{}", closed_port());
    let env = [
        ("PIXGATE_ADMIN_URL", url.as_str()),
        ("PIXGATE_ADMIN_TOKEN", "t"),
    ];
    let no_token = ["policy", "status", "--store", "s"];
    let out = cli(&[("PIXGATE_ADMIN_URL", &url)], &no_token);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--admin-token"), "{}", stderr(&out));
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
