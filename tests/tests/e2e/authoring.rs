//! The authoring kit: `pixgate policy new` writes a crate that builds outside this workspace
//! with the one cargo command its README gives, and the component it builds runs in
//! `pixgate policy run` and decides what its example code says.

use std::path::{Path, PathBuf};
use std::process::Command;

use pixgate_e2e::{pixgate_bin, pixgate_json, repo_file, target_dir};
use serde_json::{Value, json};

/// `pixgate policy new <name> --step <step>` in `parent`, without `--dir`; the crate's path.
fn new_crate(parent: &Path, name: &str, step: &str) -> PathBuf {
    let out = Command::new(pixgate_bin())
        .args(["policy", "new", name, "--step", step])
        .current_dir(parent)
        .env_clear()
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("cargo build --release --target wasm32-wasip2"),
        "{stdout}"
    );
    parent.join(name)
}

/// Builds the crate with the command its README states, as an author would on a machine
/// with Rust: none of this test run's cargo settings leak in, except where to put the build
/// (shared between runs, so only the first one compiles the dependencies). Offline: the
/// dependencies are the workspace's own, already in cargo's cache, and tests send nothing
/// beyond loopback.
fn build(dir: &Path, name: &str) -> PathBuf {
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let command: Vec<&str> = readme
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("cargo "))
        .expect("the README states the build command")
        .split_whitespace()
        .collect();
    assert_eq!(
        command,
        ["cargo", "build", "--release", "--target", "wasm32-wasip2"]
    );
    // The crate comes with its dependencies' exact versions, which the build keeps as they
    // are (a lock file cargo would write otherwise is rewritten).
    let lock = std::fs::read_to_string(dir.join("Cargo.lock")).expect("the crate's Cargo.lock");
    assert!(
        lock.contains("name = \"wit-bindgen\"\nversion = \"0.61.1\""),
        "{lock}"
    );
    assert!(lock.contains(&format!("name = \"{name}\"")), "{lock}");
    let target = target_dir().join("authoring-kit");
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(&command[1..]).current_dir(dir);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        let outer = (key.starts_with("CARGO_") && key != "CARGO_HOME")
            || key.starts_with("RUSTC")
            || key.ends_with("RUSTFLAGS")
            || key.ends_with("RUSTDOCFLAGS");
        if outer {
            cmd.env_remove(key.as_ref());
        }
    }
    let out = cmd
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "building {name} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("Cargo.lock")).unwrap(),
        lock,
        "the build changed the crate's Cargo.lock"
    );
    let wasm = target
        .join("wasm32-wasip2/release")
        .join(format!("{}.wasm", name.replace('-', "_")));
    assert!(wasm.exists(), "{} was not built", wasm.display());
    wasm
}

fn sample(step: &str) -> Value {
    let path = repo_file(&format!("policies/samples/{step}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `pixgate policy run` of `step` on `input`, with `component` or the bundled one.
fn run(step: &str, component: Option<&Path>, input: &Value) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("input.json");
    std::fs::write(&file, input.to_string()).unwrap();
    let mut args = vec![
        "policy",
        "run",
        "--step",
        step,
        "--input",
        file.to_str().unwrap(),
    ];
    if let Some(component) = component {
        args.extend(["--component", component.to_str().unwrap()]);
    }
    pixgate_json(&args)
}

fn with_config(mut input: Value, key: &str, value: &str) -> Value {
    input["store"]["config"] = json!([{"key": key, "value": value}]);
    input
}

fn aliases(out: &Value) -> Vec<&str> {
    out["output"]["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["gatewayAlias"].as_str().unwrap())
        .collect()
}

#[test]
fn a_new_provider_crate_builds_outside_the_workspace_and_ranks_cheapest_first() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_crate(tmp.path(), "my-ranking", "provider");
    let wasm = build(&dir, "my-ranking");

    // The crate carries its own input, the repository's sample.
    let input = sample("provider");
    let own: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sample-input.json")).unwrap())
            .unwrap();
    assert_eq!(own, input);

    let (code, out) = run("provider", Some(&wasm), &input);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["component"]["source"], wasm.display().to_string());
    // Cheapest first among the classes the policy allows (D0, D1, D2): on R$ 129.90, a-d1
    // costs 129 centavos, b-d0 165 and a-d0 181; D30 is left out.
    assert_eq!(
        aliases(&out),
        ["sandbox-a-d1", "sandbox-b-d0", "sandbox-a-d0"]
    );
    assert_eq!(out["output"]["ranking"][0]["reason"], "fee 129 centavos");
    assert_eq!(
        out["output"]["excluded"][0]["gatewayAlias"],
        "sandbox-b-d30"
    );
    assert_eq!(out["log"], "info: 3 ranked, 1 left out\n");
    // The bundled step prefers D0 under d0-first: the example changes the primary.
    let (_, bundled) = run("provider", None, &input);
    assert_eq!(
        aliases(&bundled),
        ["sandbox-b-d0", "sandbox-a-d0", "sandbox-a-d1"]
    );

    // The store setting the example reads: a fee cap leaves out what costs more...
    let (code, out) = run(
        "provider",
        Some(&wasm),
        &with_config(input.clone(), "ranking.max-fee-centavos", "170"),
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(aliases(&out), ["sandbox-a-d1", "sandbox-b-d0"]);
    // ...refuses the charge when nothing is left, and refuses a malformed value.
    for (value, code_expected) in [
        ("100", "no_eligible_gateway"),
        ("lots", "invalid_store_config"),
    ] {
        let (code, out) = run(
            "provider",
            Some(&wasm),
            &with_config(input.clone(), "ranking.max-fee-centavos", value),
        );
        assert_eq!(code, 1, "{out}");
        assert_eq!(out["error"]["code"], code_expected, "{out}");
        assert_eq!(out["error"]["step"], "provider");
    }
}

#[test]
fn a_new_policy_crate_builds_and_decides_as_its_example_says() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_crate(tmp.path(), "my-policy", "policy");
    let wasm = build(&dir, "my-policy");

    let input = sample("policy");
    let (code, out) = run("policy", Some(&wasm), &input);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out["output"],
        json!({"policy": "d0-first", "eligibleReleaseClasses": ["D0", "D1"],
               "crossReleaseClassFailover": true, "maxAttempts": 2})
    );
    let mut large = input.clone();
    large["charge"]["amountCentavos"] = 100_000.into();
    let (code, out) = run("policy", Some(&wasm), &large);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["output"]["policy"], "lowest-cost");
    assert_eq!(out["output"]["eligibleReleaseClasses"], json!([]));
    let (code, out) = run(
        "policy",
        Some(&wasm),
        &with_config(input, "limits.max-amount-centavos", "10000"),
    );
    assert_eq!(code, 1, "{out}");
    assert_eq!(out["error"]["code"], "amount_above_store_limit");
}

#[test]
fn a_new_economics_crate_builds_and_prices_like_the_bundled_step() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_crate(tmp.path(), "my-economics", "economics");
    let wasm = build(&dir, "my-economics");

    // Same fees and settlement dates as the bundled step, over a weekend and a holiday.
    let mut input = sample("economics");
    for created_at_ms in [
        1_795_100_400_000i64, // the sample's charge
        1_795_186_800_000,    // Friday 2026-11-20 12:00 in Brasília, a holiday
        1_795_402_799_000,    // Sunday 2026-11-22 23:59:59 in Brasília
    ] {
        input["charge"]["createdAtMs"] = created_at_ms.into();
        input["env"]["nowMs"] = created_at_ms.into();
        let (code, out) = run("economics", Some(&wasm), &input);
        assert_eq!(code, 0, "{out}");
        let (_, bundled) = run("economics", None, &input);
        assert_eq!(out["output"], bundled["output"], "{created_at_ms}");
    }
    // The store's cap rejects the dearer candidates.
    let (code, out) = run(
        "economics",
        Some(&wasm),
        &with_config(input, "economics.max-fee-centavos", "170"),
    );
    assert_eq!(code, 0, "{out}");
    let verdicts = out["output"].as_array().unwrap();
    assert!(verdicts[0]["outcome"]["accepted"].is_object(), "{out}");
    assert_eq!(
        verdicts[1]["outcome"]["rejected"],
        "fee of 181 centavos is above economics.max-fee-centavos"
    );
}

#[test]
fn new_refuses_a_bad_name_and_a_directory_in_use() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(pixgate_bin())
        .args(["policy", "new", "My Policy", "--step", "policy"])
        .current_dir(tmp.path())
        .env_clear()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));

    std::fs::write(tmp.path().join("file"), "x").unwrap();
    let out = Command::new(pixgate_bin())
        .args(["policy", "new", "p", "--step", "policy", "--dir"])
        .arg(tmp.path())
        .env_clear()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("directory_not_empty"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--lang js` and `--lang python` write a project whose files are the repository's kit, with
/// the project's name and step; `.ci/kits.sh` builds that kit and `tests/languages.rs` runs
/// what it builds.
#[test]
fn new_writes_a_javascript_or_python_project_with_its_build_command() {
    let tmp = tempfile::tempdir().unwrap();
    for (lang, build, files) in [
        (
            "js",
            "npm ci && npm run build",
            &[
                "package.json",
                "package-lock.json",
                "build.mjs",
                "tsconfig.json",
                "src/economics.js",
                "types/economics-step.d.ts",
                "types/interfaces/pixgate-chain-types.d.ts",
            ][..],
        ),
        (
            "python",
            "python3 build.py",
            &["requirements.txt", "build.py", "src/economics.py"][..],
        ),
    ] {
        let name = format!("fees-{lang}");
        let out = Command::new(pixgate_bin())
            .args([
                "policy",
                "new",
                &name,
                "--step",
                "economics",
                "--lang",
                lang,
            ])
            .current_dir(tmp.path())
            .env_clear()
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains(build), "{stdout}");
        assert!(
            stdout.contains(&format!("--component ./{name}/dist/{name}.wasm")),
            "{stdout}"
        );
        let dir = tmp.path().join(&name);
        for file in files.iter().chain(&[
            "README.md",
            ".gitignore",
            "wit/chain.wit",
            "sample-input.json",
        ]) {
            assert!(dir.join(file).is_file(), "{lang}: {file}");
        }
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(
            readme.contains(&format!(
                "--step economics --component dist/{name}.wasm --input sample-input.json"
            )),
            "{readme}"
        );
        let input = std::fs::read_to_string(dir.join("sample-input.json")).unwrap();
        assert_eq!(
            input,
            std::fs::read_to_string(repo_file("policies/samples/economics.json")).unwrap()
        );
    }
    let package: Value = serde_json::from_str(
        &std::fs::read_to_string(tmp.path().join("fees-js/package.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(package["name"], "fees-js");
    assert_eq!(package["pixgate"]["step"], "economics");
    let build = std::fs::read_to_string(tmp.path().join("fees-python/build.py")).unwrap();
    assert!(build.contains("STEP = \"economics\"") && build.contains("NAME = \"fees-python\""));

    // An unknown language is a usage error.
    let out = Command::new(pixgate_bin())
        .args(["policy", "new", "x", "--step", "policy", "--lang", "cobol"])
        .current_dir(tmp.path())
        .env_clear()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
