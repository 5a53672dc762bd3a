//! The documentation runs as written and holds together: the README's walk-through, the book's
//! walk-through, LIVE demo, authoring guide and backup guide run exactly as the pages show them;
//! every relative link of the README and the book names a file (and a heading) that exists; the
//! book lists every page and every `pixgate serve` variable; the README stays short.

use std::collections::BTreeSet;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, Instant};

use pixgate_e2e::docs::{fenced_block, page};
use pixgate_e2e::{pixgate_bin, repo_file, target_dir};

const README: &str = "README.md";
const GETTING_STARTED: &str = "docs/src/getting-started.md";
const LIVE: &str = "docs/src/operator-guide/live.md";
const VERIFYING: &str = "docs/src/merchant-guide/verifying-signatures.md";
const WRITING: &str = "docs/src/policy-guide/writing.md";
const DURABILITY: &str = "docs/src/operations/durability.md";
const MANDATES: &str = "docs/src/merchant-guide/mandates.md";
const CONFIGURATION: &str = "docs/src/operations/configuration.md";
const LAYOUT: &str = "docs/src/development/layout.md";

/// The one `sh` block between `<!-- {marker} -->` and `<!-- /{marker} -->` in `path`.
fn sh_block(path: &str, marker: &str) -> String {
    fenced_block(path, marker, "sh")
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
/// allows one: a block on fixed ports then never meets another test run, or a server of the
/// developer's, on those ports. Elsewhere plain `bash` on the host's network, where the
/// blocks' ports only have to be free, with a lock held that the other tests of fixed-port
/// blocks take too (the README's and the book's walk-throughs share the default ports). The
/// script is the same either way.
fn bash_on_own_network() -> (Command, Option<std::fs::File>) {
    if own_network_available() {
        let mut cmd = Command::new("unshare");
        cmd.args(["--user", "--map-root-user", "--net", "--", "bash", "-c"])
            .arg(r#"ip link set lo up && exec bash "$@""#)
            .arg("bash");
        (cmd, None)
    } else {
        eprintln!(
            "no network namespace available: running on the host's network, the blocks' ports \
             must be free"
        );
        let lock = std::fs::File::create(target_dir().join("docs-fixed-ports.lock")).unwrap();
        lock.lock().unwrap();
        (Command::new("bash"), Some(lock))
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

/// The walk-throughs a reader runs from start to end, in reading order: the README's, then the
/// book's, each as `(page, marker)` of its block.
const WALKTHROUGHS: [(&str, &str); 6] = [
    (README, "walkthrough"),
    (GETTING_STARTED, "walkthrough"),
    (LIVE, "live-demo"),
    (WRITING, "authoring"),
    (DURABILITY, "backup"),
    (MANDATES, "mandate-demo"),
];

/// What a reader typing the README and then the book meets: every walk-through block, as
/// written, one after the other in one shell on one machine (the README's instance still
/// running on the default ports when the book's blocks start theirs, what one block exported
/// still set in the next). Each block's own output is then held to what its page says.
#[test]
fn the_readme_and_the_book_run_one_after_another_as_written() {
    let mut script = String::new();
    for (page, marker) in WALKTHROUGHS {
        script.push_str(&format!("echo '@@@ {page} {marker}'\n"));
        script.push_str(&sh_block(page, marker));
        script.push('\n');
    }
    script.push_str("echo '@@@ end'\n");

    let dir = repository_like();
    // The authoring guide reads the samples of the repository's root.
    std::fs::create_dir_all(dir.path().join("policies")).unwrap();
    std::os::unix::fs::symlink(
        repo_file("policies/samples"),
        dir.path().join("policies/samples"),
    )
    .unwrap();
    // mktemp writes under the test's directory, removed with it.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let (mut cmd, _ports) = bash_on_own_network();
    cmd.current_dir(dir.path()).env("TMPDIR", &tmp);
    // The blocks set what they need: none of this test run's cargo or pixgate settings leak
    // in. The authoring guide's cargo build is an author's on a machine with Rust, except
    // where the build goes (shared between runs, so only the first compiles the
    // dependencies; apart from authoring.rs's, whose crate of the same name would race this
    // one's for the output file). Offline: the dependencies are the workspace's own, already
    // in cargo's cache, and tests send nothing beyond loopback.
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
    } = run_script(cmd, &script, Duration::from_secs(750));
    let context = || format!("{stdout}\n{stderr}\n{}", outputs_under(&tmp));
    assert!(success, "a walk-through failed:\n{}", context());
    let block = |page: &str, marker: &str| -> &str {
        let start = stdout
            .find(&format!("@@@ {page} {marker}\n"))
            .unwrap_or_else(|| panic!("{page} did not start:\n{}", context()));
        let rest = &stdout[start..];
        let rest = &rest[rest.find('\n').unwrap() + 1..];
        &rest[..rest.find("@@@ ").unwrap_or(rest.len())]
    };
    readme_output(block(README, "walkthrough"));
    getting_started_output(block(GETTING_STARTED, "walkthrough"));
    live_demo_output(block(LIVE, "live-demo"), &tmp, &context);
    authoring_output(block(WRITING, "authoring"), &stderr);
    backup_output(block(DURABILITY, "backup"), &tmp);
    mandate_demo_output(block(MANDATES, "mandate-demo"));
}

/// The README's block: the charge, then its read, one answer per line.
fn readme_output(stdout: &str) {
    // The charge, then its read: the same intent, SHADOW_ONLY, neither a replay.
    let intents: Vec<serde_json::Value> = stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(intents.len(), 2, "{stdout}");
    for intent in &intents {
        assert_eq!(intent["data"]["status"], "SHADOW_ONLY", "{stdout}");
        assert_eq!(intent["data"]["idempotentReplay"], false, "{stdout}");
        assert_eq!(
            intent["data"]["paymentIntentId"],
            intents[0]["data"]["paymentIntentId"]
        );
    }
    // The README's sentence about the answer: the route and what it costs.
    assert!(intents[0]["data"]["routing"]["gatewayAlias"].is_string());
    assert!(intents[0]["data"]["economics"]["feeAmount"].is_number());
    assert!(
        stdout.lines().any(|l| l.starts_with(
            "console: http://127.0.0.1:8081/console/ (sign in with the admin token pxa_"
        )),
        "{stdout}"
    );
    // The server's log went to its file, not to the reader.
    assert!(!stdout.contains("\"level\""), "{stdout}");
}

/// Getting started: every answer on a line of its own, each an envelope that succeeded.
fn getting_started_output(stdout: &str) {
    let answers: Vec<serde_json::Value> = stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    // The charge, its replay, its read and its trace.
    assert_eq!(answers.len(), 4, "{stdout}");
    assert!(answers.iter().all(|a| a["success"] == true), "{stdout}");
    assert_eq!(answers[0]["data"]["status"], "SHADOW_ONLY", "{stdout}");
    assert_eq!(answers[1]["data"]["idempotentReplay"], true, "{stdout}");
    assert!(
        stdout.contains(r#""policy":{"component""#) || stdout.contains(r#""component":"#),
        "trace: {stdout}"
    );
    // Then the CLI's tables: the merchant, the store with its mode, and the key, shown once.
    let row = |first: &str| stdout.lines().find(|l| l.trim_start().starts_with(first));
    assert!(
        row("acme ").is_some_and(|l| l.contains("ACME Ltda")),
        "{stdout}"
    );
    assert!(
        row("acme-web ").is_some_and(|l| l.contains("acme") && l.contains("SHADOW")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("API key (shown once; keep it now): pxg_")),
        "{stdout}"
    );
    assert!(stdout.contains("pixgate_chain_step_fuel_count"), "{stdout}");
}

/// The LIVE demo's receiver checks deliveries with the book's Python verifier as written: its
/// function word for word, and its imports among the receiver's.
#[test]
fn the_live_demo_holds_the_python_verifier_as_written() {
    let script = sh_block(LIVE, "live-demo");
    let verifier = fenced_block(VERIFYING, "verify-python", "python");
    let function = &verifier[verifier.find("def verify(").expect("the verifier")..];
    assert!(
        script.contains(function.trim()),
        "the demo's receiver holds the Python verifier of {VERIFYING} as written"
    );
    for import in verifier.lines().filter(|l| l.starts_with("import ")) {
        assert!(
            script.lines().any(|l| l == import),
            "the receiver lacks `{import}`"
        );
    }
}

fn live_demo_output(stdout: &str, tmp: &Path, context: &dyn Fn() -> String) {
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
    let qr = find_file(tmp, "qr.svg").unwrap_or_else(|| panic!("no QR code:\n{}", context()));
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

/// The authoring guide: the charges' gateways through the rollout, the replay, the shadow
/// comparison and the last status, as the page describes them.
fn authoring_output(stdout: &str, stderr: &str) {
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
        row_after(stdout, replay, "REPLAYED"),
        ["20", "8", "12", "(60.0", "%)", "0", "0"],
        "{stdout}"
    );
    assert!(has_row(stdout, replay, &["provider", "8", "40.0", "%"]));
    assert!(has_row(stdout, replay, &["sandbox-a", "4", "12", "+8"]));
    assert!(has_row(stdout, replay, &["sandbox-b", "16", "8", "-8"]));
    assert!(has_row(stdout, replay, &["fees", "-R$", "4.80"]));
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
    // The version, then its label: the file's name, the crate's.
    let (version, label) = version.split_once(' ').unwrap_or((version, ""));
    assert_eq!(version.len(), 64, "{version}");
    assert_eq!(label, "(my_ranking)", "{stderr}");

    // The shadow comparison counted the five charges made while it ran.
    let shadow = "Shadow comparison of store demo-store, step provider";
    assert!(has_row(stdout, shadow, &["candidate", version]), "{stdout}");
    assert_eq!(
        row_after(stdout, shadow, "CHARGES"),
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

/// The backup guide: the restored instance answers the charge made before the backup.
fn backup_output(stdout: &str, tmp: &Path) {
    // The restored instance answers the charge made before the backup, to the key issued
    // before it, and the data dir it came from is gone.
    let read: serde_json::Value = stdout
        .lines()
        .find(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .unwrap_or_else(|| panic!("no read of the charge:\n{stdout}"));
    assert_eq!(read["data"]["status"], "SHADOW_ONLY", "{stdout}");
    assert_eq!(read["data"]["reference"], "backup-1", "{stdout}");
    assert_eq!(read["data"]["amount"], 42.5, "{stdout}");
    assert!(
        stdout.contains("restored: the charge, the key and the admin token"),
        "{stdout}"
    );
    // `pixgate backup` checked its copy, and `pixgate restore` took the key beside it.
    assert!(
        stdout.contains("pixgate: backup written to") && stdout.contains("integrity check ok"),
        "{stdout}"
    );
    assert!(stdout.contains("; master key restored"), "{stdout}");
    assert!(find_file(tmp, "master.key").is_some_and(|p| !p.starts_with(tmp.join("data"))));
}

/// Journey 3 prints what its page says it prints, line for line, dates aside; the retry is
/// asked for a day after the due date.
fn mandate_demo_output(stdout: &str) {
    let is_date = |w: &str| {
        w.len() == 10
            && w.char_indices().all(|(i, c)| match i {
                4 | 7 => c == '-',
                _ => c.is_ascii_digit(),
            })
    };
    let undated = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| {
                l.split(' ')
                    .map(|w| if is_date(w) { "DATE" } else { w })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let page_says = fenced_block(MANDATES, "mandate-demo-output", "text");
    assert_eq!(undated(stdout), undated(&page_says), "{stdout}");
    let dates: Vec<&str> = stdout
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| is_date(w))
        .collect();
    let [due, retry] = dates[..] else {
        panic!("a due date and a retry's: {stdout}")
    };
    assert!(retry > due, "{stdout}");
}

/// The files a block left under `dir` (its `TMPDIR`) whose names end in `.out` or
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

/// The subcommands `pixgate <words> --help` lists (its `Commands:` section), `help` aside.
fn subcommands(words: &[&str]) -> Vec<String> {
    let out = Command::new(pixgate_bin())
        .args(words)
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The operator guide's command list names every command of `pixgate admin` and `pixgate
/// policy` (and of their groups), as `--help` lists them.
#[test]
fn the_operator_guides_command_list_names_every_command() {
    let index = std::fs::read_to_string(repo_file("docs/src/operator-guide/index.md")).unwrap();
    let list = &index[index.find("## The command line").unwrap()..];
    let list = &list[..list[3..].find("\n## ").map_or(list.len(), |i| i + 3)];
    let named = |group: &str, command: &str| {
        list.lines().any(|l| {
            l.contains(&format!("`{group} ")) && {
                let words = &l[l.find(&format!("`{group} ")).unwrap() + group.len() + 2..];
                let words = &words[..words.find('`').unwrap_or(words.len())];
                words.split([' ', '|']).any(|w| w == command)
            }
        })
    };
    let admin = subcommands(&["admin"]);
    assert!(admin.len() >= 5, "{admin:?}");
    for group in &admin {
        for command in subcommands(&["admin", group]) {
            assert!(
                named(&format!("pixgate admin {group}"), &command),
                "`pixgate admin {group} {command}` is not in the operator guide's list:\n{list}"
            );
        }
    }
    let policy = subcommands(&["policy"]);
    assert!(policy.contains(&"canary".to_owned()), "{policy:?}");
    for command in &policy {
        if command == "canary" {
            for sub in subcommands(&["policy", "canary"]) {
                assert!(
                    named("pixgate policy canary", &sub),
                    "`pixgate policy canary {sub}` is not in the operator guide's list:\n{list}"
                );
            }
        } else {
            assert!(
                named("pixgate policy", command),
                "`pixgate policy {command}` is not in the operator guide's list:\n{list}"
            );
        }
    }
}

#[test]
fn the_readme_is_at_most_250_lines() {
    let lines = page(README).lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines; the rest belongs in the book"
    );
}

/// Every `.md` file under `docs/src/`, by its path from the repository root.
fn book_pages() -> Vec<String> {
    let mut pages = Vec::new();
    let mut todo = vec![repo_file("docs/src")];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let relative = path.strip_prefix(repo_file("")).unwrap();
                pages.push(relative.to_str().unwrap().to_owned());
            }
        }
    }
    pages.sort();
    pages
}

/// `path` with its `.` and `..` folded away, lexically (the target may not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The lines of a markdown page outside its fenced code blocks.
fn outside_fences(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The text of a markdown page without its code, fenced blocks and inline spans, where
/// `[x](y)` is code and not a link.
fn prose(text: &str) -> String {
    // Inline code spans may wrap across lines: pair the backticks over the whole text.
    outside_fences(text).split('`').step_by(2).collect()
}

/// The targets of the inline links and images of a markdown text: `[text](target)`.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.to_owned());
        }
    }
    targets
}

/// The anchors mdBook (and the forges) give a page's headings: lower case, spaces as `-`,
/// only letters, digits, `-` and `_` kept.
fn heading_anchors(text: &str) -> BTreeSet<String> {
    outside_fences(text)
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|h| {
            h.trim_start_matches('#')
                .trim()
                .chars()
                .filter_map(|c| match c {
                    c if c.is_whitespace() => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => {
                        Some(c.to_lowercase().next().unwrap())
                    }
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// The pages `{{#include ...}}` brings into `text`, by their path from the repository root
/// (`from` is the including page's).
fn includes(from: &Path, text: &str) -> Vec<PathBuf> {
    text.split("{{#include ")
        .skip(1)
        .filter_map(|rest| rest.split("}}").next())
        .map(|target| normalize(&from.parent().unwrap().join(target.trim())))
        .collect()
}

#[test]
fn every_relative_link_of_the_readme_and_the_book_resolves() {
    let mut broken = Vec::new();
    let mut pages = book_pages();
    pages.push(README.to_owned());
    for page_path in &pages {
        let page_path = Path::new(page_path);
        let text = page(page_path.to_str().unwrap());
        // An included file's links are read where it is rendered: from the including page.
        let mut texts = vec![text.clone()];
        for included in includes(page_path, &text) {
            if included.extension().is_some_and(|e| e == "md") {
                texts.push(page(included.to_str().unwrap()));
            }
        }
        for target in texts.iter().flat_map(|t| link_targets(&prose(t))) {
            if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let file = if file.is_empty() {
                page_path.to_owned()
            } else {
                normalize(&page_path.parent().unwrap().join(file))
            };
            if !repo_file(file.to_str().unwrap()).exists() {
                broken.push(format!(
                    "{}: {target} (no {})",
                    page_path.display(),
                    file.display()
                ));
                continue;
            }
            if !anchor.is_empty() && file.extension().is_some_and(|e| e == "md") {
                let anchors = heading_anchors(&page(file.to_str().unwrap()));
                if !anchors.contains(anchor) {
                    broken.push(format!(
                        "{}: {target} (no heading #{anchor} in {})",
                        page_path.display(),
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_page_of_the_book_is_in_its_summary() {
    let summary = page("docs/src/SUMMARY.md");
    let listed: BTreeSet<String> = link_targets(&summary)
        .into_iter()
        .map(|t| format!("docs/src/{t}"))
        .collect();
    let orphans: Vec<String> = book_pages()
        .into_iter()
        .filter(|p| !p.ends_with("/SUMMARY.md") && !listed.contains(p))
        .collect();
    assert!(
        orphans.is_empty(),
        "pages no reader can reach from the book's summary: {orphans:?}"
    );
}

#[test]
fn every_serve_variable_is_on_the_configuration_page() {
    let help = Command::new(pixgate_bin())
        .args(["serve", "--help"])
        .env_clear()
        .output()
        .unwrap();
    assert!(help.status.success());
    let help = String::from_utf8(help.stdout).unwrap();
    let variables: BTreeSet<&str> = help
        .split("env: ")
        .skip(1)
        .filter_map(|rest| rest.split(['=', ']']).next())
        .collect();
    assert!(
        variables.len() > 30 && variables.contains("PIXGATE_DATABASE_URL"),
        "{variables:?}\n{help}"
    );
    let configuration = page(CONFIGURATION);
    let missing: Vec<&&str> = variables
        .iter()
        .filter(|v| !configuration.contains(&format!("`{v}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "`pixgate serve` reads these, and {CONFIGURATION} does not say what they do: {missing:?}"
    );
}

#[test]
fn every_path_of_the_code_layout_exists() {
    let layout = page(LAYOUT);
    let mut missing = Vec::new();
    let mut rows = 0;
    for row in layout.lines().filter(|l| l.starts_with("| `")) {
        rows += 1;
        let first = row.split(" | ").next().unwrap();
        for path in first.split('`').skip(1).step_by(2) {
            // `policies/guests/{policy,provider,economics}/`: each of them.
            let expanded: Vec<String> = match (path.find('{'), path.find('}')) {
                (Some(open), Some(close)) => path[open + 1..close]
                    .split(',')
                    .map(|alt| format!("{}{alt}{}", &path[..open], &path[close + 1..]))
                    .collect(),
                _ => vec![path.to_owned()],
            };
            for path in expanded {
                // Paths after the first of a row may be relative to the row's first path, or
                // be its siblings (`host/src/charges/`, `components/`).
                let base = repo_file(first.split('`').nth(1).unwrap());
                let found = [
                    repo_file(&path),
                    base.join(&path),
                    base.join("..").join(&path),
                ]
                .iter()
                .any(|p| p.exists());
                if !found {
                    missing.push(path);
                }
            }
        }
    }
    assert!(rows > 20, "the layout table has {rows} rows");
    assert!(
        missing.is_empty(),
        "{LAYOUT} names paths that do not exist: {missing:?}"
    );
}
