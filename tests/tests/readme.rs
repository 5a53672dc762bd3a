//! The README's walk-through, its LIVE demo and its authoring guide run exactly as written.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, Instant};

use pixgate_e2e::{pixgate_bin, repo_file, target_dir};

/// The one fenced `lang` block between `<!-- {marker} -->` and `<!-- /{marker} -->` in the
/// README.
fn fenced_block(marker: &str, lang: &str) -> String {
    let readme = std::fs::read_to_string(repo_file("README.md")).unwrap();
    let section = readme
        .split(&format!("<!-- {marker} -->"))
        .nth(1)
        .and_then(|rest| rest.split(&format!("<!-- /{marker} -->")).next())
        .unwrap_or_else(|| panic!("README has a {marker} section"));
    section
        .trim()
        .strip_prefix(&format!("```{lang}"))
        .and_then(|s| s.strip_suffix("```"))
        .unwrap_or_else(|| panic!("the {marker} section is one {lang} block"))
        .to_owned()
}

/// The one `sh` block between `<!-- {marker} -->` and `<!-- /{marker} -->` in the README.
fn sh_block(marker: &str) -> String {
    fenced_block(marker, "sh")
}

/// Whether this system lets an unprivileged process have a network namespace of its own
/// with its loopback up (user namespaces allowed, `unshare` and `ip` installed).
fn own_network_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        Command::new("unshare")
            .args(["--user", "--map-root-user", "--net", "--"])
            .args(["ip", "link", "set", "lo", "up"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// `bash`, in a network namespace of its own (only its loopback, brought up) when the system
/// allows one: a README block on fixed ports then never meets another test run, or a server
/// of the developer's, on those ports. Elsewhere plain `bash` on the host's network, where
/// the blocks' ports only have to be free. The script is the same either way.
fn bash_on_own_network() -> Command {
    if own_network_available() {
        let mut cmd = Command::new("unshare");
        cmd.args(["--user", "--map-root-user", "--net", "--", "bash", "-c"])
            .arg(r#"ip link set lo up && exec bash "$@""#)
            .arg("bash");
        cmd
    } else {
        eprintln!(
            "no network namespace available: running on the host's network, the README's ports \
             must be free"
        );
        Command::new("bash")
    }
}

/// A directory laid out like the repository after `cargo build --release`, with the binary
/// under test in target/release.
fn repository_like() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("target/release")).unwrap();
    std::os::unix::fs::symlink(pixgate_bin(), dir.path().join("target/release/pixgate")).unwrap();
    dir
}

struct Run {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Runs `script` with `bash -euo pipefail` as `cmd` is set up, in a process group of its own:
/// whatever the script leaves running when it ends (a server it started before a command
/// failed) is stopped, and everything is killed when it runs longer than `limit`, so a
/// failing guide never leaves a server behind or holds the test until nextest's timeout.
fn run_script(mut cmd: Command, script: &str, limit: Duration) -> Run {
    let mut child = cmd
        .args(["-euo", "pipefail", "-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let group = format!("-{}", child.id());
    let (tx, rx) = mpsc::channel();
    let pipes: [Box<dyn Read + Send>; 2] = [
        Box::new(child.stdout.take().unwrap()),
        Box::new(child.stderr.take().unwrap()),
    ];
    for (i, mut pipe) in pipes.into_iter().enumerate() {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = pipe.read_to_end(&mut text);
            let _ = tx.send((i, String::from_utf8_lossy(&text).into_owned()));
        });
    }
    let signal = |name: &str| {
        let _ = Command::new("kill")
            .args([name, "--", &group])
            .stderr(Stdio::null())
            .status();
    };
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            signal("-KILL");
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    // Leftovers hold the pipes open: ask them to stop, then insist.
    signal("-TERM");
    let mut out = [String::new(), String::new()];
    for _ in 0..2 {
        let (i, text) = rx
            .recv_timeout(Duration::from_secs(15))
            .unwrap_or_else(|_| {
                signal("-KILL");
                rx.recv().unwrap()
            });
        out[i] = text;
    }
    let [stdout, mut stderr] = out;
    if status.is_none() {
        stderr.push_str(&format!("\n(killed after {limit:?})"));
    }
    Run {
        success: status.is_some_and(|s| s.success()),
        stdout,
        stderr,
    }
}

#[test]
fn the_readme_walkthrough_runs_as_written() {
    let script = sh_block("walkthrough");
    let dir = repository_like();
    let mut cmd = bash_on_own_network();
    cmd.current_dir(dir.path())
        .env_remove("PIXGATE_DATABASE_URL");
    let Run {
        success,
        stdout,
        stderr,
    } = run_script(cmd, &script, Duration::from_secs(120));
    assert!(success, "walk-through failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains(r#""status":"SHADOW_ONLY""#), "{stdout}");
    assert!(stdout.contains(r#""idempotentReplay":true"#), "{stdout}");
    assert!(
        stdout.contains(r#""policy":{"component""#) || stdout.contains(r#""component":"#),
        "trace: {stdout}"
    );
    assert!(stdout.contains(r#""code":"acme-web""#), "{stdout}");
    assert!(stdout.contains(r#""apiKey":"pxg_"#), "{stdout}");
    assert!(stdout.contains("pixgate_chain_step_fuel_count"), "{stdout}");
    assert!(!stdout.contains(r#""success":false"#), "{stdout}");
}

/// The files a README block left under `dir` (its `TMPDIR`) whose names end in `.out` or
/// `.log`, with their text: what its servers said, for a failure's message.
fn outputs_under(dir: &Path) -> String {
    let mut text = String::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "out" || e == "log") {
                let content = std::fs::read_to_string(&path).unwrap_or_default();
                text.push_str(&format!("\n== {}\n{content}", path.display()));
            }
        }
    }
    text
}

/// The first file named `name` under `dir`.
fn find_file(dir: &Path, name: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_file(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}

#[test]
fn the_readme_live_demo_runs_as_written() {
    let script = sh_block("live-demo");
    // The demo's receiver checks deliveries with the README's Python verifier as written:
    // its function word for word, and its imports among the receiver's.
    let verifier = fenced_block("verify-python", "python");
    let function = &verifier[verifier.find("def verify(").expect("the verifier")..];
    assert!(
        script.contains(function.trim()),
        "the demo's receiver holds the README's Python verifier as written"
    );
    for import in verifier.lines().filter(|l| l.starts_with("import ")) {
        assert!(
            script.lines().any(|l| l == import),
            "the receiver lacks `{import}`"
        );
    }

    let dir = repository_like();
    // mktemp writes under the test's directory, removed with it.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut cmd = bash_on_own_network();
    cmd.current_dir(dir.path()).env("TMPDIR", &tmp);
    // The demo sets what it needs; none of this test run's pixgate settings leak in.
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("PIXGATE_") {
            cmd.env_remove(&key);
        }
    }
    let Run {
        success,
        stdout,
        stderr,
    } = run_script(cmd, &script, Duration::from_secs(120));
    let context = || format!("{stdout}\n{stderr}\n{}", outputs_under(&tmp));
    assert!(success, "the LIVE demo failed:\n{}", context());

    let lines: Vec<&str> = stdout.lines().collect();
    let line = |prefix: &str| lines.iter().any(|l| l.starts_with(prefix));
    // Created at the PSP, with the PIX to pay and no payment id yet.
    assert!(stdout.contains(r#""status": "PENDING""#), "{}", context());
    assert!(stdout.contains(r#""paymentId": null"#), "{}", context());
    assert!(
        stdout.contains(r#""copyAndPaste": "000201"#),
        "{}",
        context()
    );
    let qr = find_file(&tmp, "qr.svg").unwrap_or_else(|| panic!("no QR code:\n{}", context()));
    let qr = std::fs::read_to_string(qr).unwrap();
    assert!(qr.contains("<svg"), "{qr}");
    // Paid: the receiver verified both events' signatures, and the intent reads SUCCEEDED
    // with the pix's endToEndId.
    assert!(line("verified payment.pending PENDING -"), "{}", context());
    assert!(
        line("verified payment.succeeded SUCCEEDED E12345678"),
        "{}",
        context()
    );
    assert!(!stdout.contains("REJECTED"), "{}", context());
    assert!(stdout.contains(r#""status": "SUCCEEDED""#), "{}", context());
    assert!(
        stdout.contains(r#""paymentId": "E12345678"#),
        "{}",
        context()
    );
    // The trace's PSP calls and the metrics.
    assert!(line("put_cob sandbox-a-d0 success"), "{}", context());
    assert!(line("get_cob sandbox-a-d0 success"), "{}", context());
    assert!(
        line(r#"pixgate_live_intents_total{provider="sandbox-a",status="SUCCEEDED"} 1"#),
        "{}",
        context()
    );
    // Part of it refunded at the PSP, and the signed refund.succeeded verified.
    assert!(stdout.contains(r#""amount": 12.0"#), "{}", context());
    assert!(
        line("verified refund.succeeded SUCCEEDED D"),
        "{}",
        context()
    );
    assert!(line("SUCCEEDED amountRefunded 12.0"), "{}", context());
}

/// The words of the line after the first line at or below `from` that starts (trimmed) with
/// `header`: the first row of a table.
fn row_after<'a>(text: &'a str, from: &str, header: &str) -> Vec<&'a str> {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("no `{from}` in:\n{text}"));
    let mut lines = text[start..].lines();
    lines
        .find(|l| l.trim_start().starts_with(header))
        .unwrap_or_else(|| panic!("no `{header}` table after `{from}`:\n{text}"));
    lines.next().unwrap().split_whitespace().collect()
}

/// Whether some line at or below `from` reads `words` (whitespace aside).
fn has_row(text: &str, from: &str, words: &[&str]) -> bool {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("no `{from}` in:\n{text}"));
    text[start..]
        .lines()
        .any(|l| l.split_whitespace().eq(words.iter().copied()))
}

#[test]
fn the_readme_authoring_guide_runs_as_written() {
    let script = sh_block("authoring");
    let dir = repository_like();
    std::fs::create_dir_all(dir.path().join("policies")).unwrap();
    std::os::unix::fs::symlink(
        repo_file("policies/samples"),
        dir.path().join("policies/samples"),
    )
    .unwrap();
    // mktemp writes under the test's directory, removed with it.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();

    let mut cmd = Command::new("bash");
    cmd.current_dir(dir.path()).env("TMPDIR", &tmp);
    // The guide's cargo build is an author's on a machine with Rust: none of this test run's
    // cargo or pixgate settings leak in, except where the build goes (shared between runs, so
    // only the first compiles the dependencies; apart from authoring.rs's, whose crate of the
    // same name would race this one's for the output file). Offline: the dependencies are
    // the workspace's own, already in cargo's cache, and tests send nothing beyond loopback.
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        let outer = (key.starts_with("CARGO_") && key != "CARGO_HOME")
            || key.starts_with("RUSTC")
            || key.ends_with("RUSTFLAGS")
            || key.ends_with("RUSTDOCFLAGS")
            || key.starts_with("PIXGATE_");
        if outer {
            cmd.env_remove(key.as_ref());
        }
    }
    cmd.env("CARGO_TARGET_DIR", target_dir().join("readme-authoring"))
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_TERM_COLOR", "never");

    let Run {
        success,
        stdout,
        stderr,
    } = run_script(cmd, &script, Duration::from_secs(270));
    assert!(success, "authoring guide failed:\n{stdout}\n{stderr}");

    // Every charge's gateway, in order: 20 recorded, 5 while shadowing, one after the
    // activation, one after the rollback.
    let gateways: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix(r#""gatewayAlias":""#)?.strip_suffix('"'))
        .collect();
    assert_eq!(gateways.len(), 27, "{stdout}");
    let day: Vec<&str> = gateways[..5].to_vec();
    assert!(day.contains(&"sandbox-b-d0"), "{day:?}");
    // The candidate changes no charge.
    assert_eq!(gateways[20..25], day[..], "{stdout}");
    assert_eq!(gateways[25], "sandbox-a-d1", "after the activation");
    assert_eq!(gateways[26], "sandbox-b-d0", "after the rollback");

    assert!(
        stdout.contains("created the provider component crate `my-ranking`"),
        "{stdout}"
    );
    // policy run: the component, then the bundled step.
    assert!(
        stdout.contains(r#""reason": "fee 129 centavos""#),
        "{stdout}"
    );
    assert!(
        stdout.contains(r#""log": "info: 3 ranked, 1 left out\n""#),
        "{stdout}"
    );
    assert!(
        stdout.contains(r#""reason": "healthy, fee 165 centavos""#),
        "{stdout}"
    );

    // The replay, as the guide describes it.
    let replay = "Replay of store demo-store";
    assert_eq!(
        row_after(&stdout, replay, "REPLAYED"),
        ["20", "8", "12", "(60.0", "%)", "0", "0"],
        "{stdout}"
    );
    assert!(has_row(&stdout, replay, &["provider", "8", "40.0", "%"]));
    assert!(has_row(&stdout, replay, &["sandbox-a", "4", "12", "+8"]));
    assert!(has_row(&stdout, replay, &["sandbox-b", "16", "8", "-8"]));
    assert!(has_row(&stdout, replay, &["fees", "-R$", "4.80"]));
    assert!(stdout.contains("First changed charges (12 of 12)"));

    let html = stderr
        .lines()
        .find_map(|l| l.strip_prefix("pixgate: wrote the HTML report to "))
        .unwrap_or_else(|| panic!("no HTML report:\n{stderr}"));
    let html = std::fs::read_to_string(Path::new(html)).unwrap();
    assert!(html.contains("<svg"), "{html}");
    assert!(html.contains("sandbox-a"), "{html}");

    let version = stderr
        .lines()
        .find_map(|l| {
            l.strip_prefix("pixgate: already uploaded: ")?
                .split_once(" as provider version ")
        })
        .unwrap_or_else(|| panic!("the upload is the replay's version:\n{stderr}"))
        .1;
    assert_eq!(version.len(), 64, "{version}");

    // The shadow comparison counted the five charges made while it ran.
    let shadow = "Shadow comparison of store demo-store, step provider";
    assert!(
        has_row(&stdout, shadow, &["candidate", version]),
        "{stdout}"
    );
    assert_eq!(
        row_after(&stdout, shadow, "CHARGES"),
        ["5", "2", "3", "(60.0", "%)", "0"],
        "{stdout}"
    );

    // The last status: bundled again, the version kept as previous, the rollback on top.
    let status = &stdout[stdout.rfind("Store demo-store").unwrap()..];
    let words = |l: &str| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let lines: Vec<Vec<String>> = status.lines().map(words).collect();
    assert!(
        lines.iter().any(|l| l.starts_with(&[
            "provider".into(),
            "active".into(),
            "bundled".into()
        ])),
        "{status}"
    );
    assert!(
        lines.contains(&vec!["previous".into(), version.to_owned()]),
        "{status}"
    );
    let history: Vec<&str> = lines
        .iter()
        .filter(|l| l.get(1).is_some_and(|s| s == "provider"))
        .map(|l| l[2].as_str())
        .collect();
    assert_eq!(history, ["rollback", "activate"], "{status}");
}
