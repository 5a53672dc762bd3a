//! Helpers for the end-to-end tests: find the real `pixgate` binary that cargo built beside
//! the test executables, and the components built from `policies/`.
#![forbid(unsafe_code)]

pub mod components;
pub mod docs;
pub mod kits;
pub mod live;
pub mod rec;
pub mod receiver;
pub mod webhooks;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

/// reqwest is built without a default TLS provider (pixgate brings its own, ring); the test
/// clients use ring too.
pub fn install_tls_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// `target/<profile>/`, where cargo puts the `pixgate` binary (`PIXGATE_BIN` overrides).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/<test-binary>
    exe.parent()
        .and_then(|deps| deps.parent())
        .expect("test binaries live in target/<profile>/deps")
        .to_owned()
}

/// The `pixgate` binary under test.
pub fn pixgate_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("PIXGATE_BIN") {
        return PathBuf::from(bin);
    }
    let bin = profile_dir().join("pixgate");
    assert!(
        bin.exists(),
        "{} does not exist: build it first (`cargo build -p pixgate`), or run the tests with \
         `cargo nextest run` at the workspace root, which builds it",
        bin.display()
    );
    bin
}

/// The cargo target directory the tests were built in (the workspace's `target/` unless
/// `CARGO_TARGET_DIR` moved it).
pub fn target_dir() -> PathBuf {
    profile_dir().parent().expect("target dir").to_owned()
}

/// A component built from `policies/` (e.g. `pixgate_fixture_misbehave`), sealed as an author
/// seals a build before uploading it ([`sealed`]).
pub fn guest_wasm(name: &str) -> PathBuf {
    sealed(&unsealed_guest_wasm(name))
}

/// A component built from `policies/` as cargo built it: one whose code reads files or opens
/// sockets (`pixgate_fixture_misbehave`) still imports them, and an upload refuses it.
pub fn unsealed_guest_wasm(name: &str) -> PathBuf {
    let path = target_dir()
        .join("wasm-guests/wasm32-wasip2/guest")
        .join(format!("{name}.wasm"));
    assert!(path.exists(), "{} was not built", path.display());
    path
}

/// `component` sealed by `pixgate policy seal`, kept in a `sealed/` directory beside it and
/// sealed again when the component is newer. Tests running at once each seal into a file of
/// their own and rename it into place, so none reads another's half-written file.
pub fn sealed(component: &Path) -> PathBuf {
    let file = component.file_name().expect("a file");
    let sealed = component.with_file_name("sealed").join(file);
    let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    if modified(&sealed) < modified(component) {
        std::fs::create_dir_all(sealed.parent().unwrap()).unwrap();
        let mine = sealed.with_extension(format!("wasm.{}", std::process::id()));
        let out = pixgate(&[
            "policy",
            "seal",
            component.to_str().unwrap(),
            "--out",
            mine.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "sealing {}: {out:?}",
            component.display()
        );
        std::fs::rename(&mine, &sealed).unwrap();
    }
    sealed
}

/// A file of the repository, by its path from the workspace root.
pub fn repo_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

/// Runs `pixgate` with `args` and returns its output.
/// Collects a started child's stderr, line by line, into a string the test can read (and
/// print when the child did not start).
pub fn capture_stderr(child: &mut std::process::Child) -> Arc<Mutex<String>> {
    use std::io::{BufRead, BufReader};
    let pipe = child.stderr.take().expect("stderr is piped");
    let stderr = Arc::new(Mutex::new(String::new()));
    let sink = stderr.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            let mut s = sink.lock().unwrap();
            s.push_str(&line);
            s.push('\n');
        }
    });
    stderr
}

/// `pixgate serve` on a new data dir, port 0 and nothing else from the environment but `env`,
/// for a setting it must refuse at start: its exit status and stderr. A server that accepted
/// the setting and went on serving is stopped and the test fails.
pub fn serve_refusing(env: &[(&str, &str)]) -> (std::process::ExitStatus, String) {
    let data = tempfile::tempdir().unwrap();
    serve_refusing_in(data.path(), env)
}

/// [`serve_refusing`] on the data dir `data`, for a test that looks at it afterwards.
pub fn serve_refusing_in(data: &Path, env: &[(&str, &str)]) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(pixgate_bin())
        .arg("serve")
        .env_clear()
        .env("PIXGATE_DATA_DIR", data)
        .env("PIXGATE_LISTEN", "127.0.0.1:0")
        .env("PIXGATE_ADMIN_LISTEN", "127.0.0.1:0")
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("pixgate serve accepted {env:?} and went on serving");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn pixgate(args: &[&str]) -> Output {
    Command::new(pixgate_bin())
        .args(args)
        .env_clear()
        .output()
        .expect("pixgate runs")
}

/// Runs `pixgate`, expecting JSON on stdout, and returns the exit code with the JSON.
pub fn pixgate_json(args: &[&str]) -> (i32, serde_json::Value) {
    let out = pixgate(args);
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), json)
}

pub mod server;

/// A harness size from the environment (`HARNESS_*`), or `default`.
pub fn harness_setting(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a whole number")),
        Err(_) => default,
    }
}

/// A random number in `0..n`.
pub fn random_below(n: u64) -> u64 {
    (uuid::Uuid::new_v4().as_u128() % u128::from(n.max(1))) as u64
}

/// A Wednesday at least 30 days from today (Brasília) that is a business day: the due date of
/// the invoice tests, so that neither a weekend nor a holiday moves it and their figures hold.
pub fn invoice_due_date() -> pixgate_domain::due::Date {
    use pixgate_domain::due::{Date, Weekday, calendar};
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let mut day = Date::from_unix_seconds_brasilia(now).add_days(30);
    while !(day.weekday() == Weekday::Wednesday && calendar::is_business_day(day)) {
        day = day.add_days(1);
    }
    day
}
