//! `pixgate policy run`, the tool a payment-ops engineer uses before uploading a component.

use pixgate_e2e::{guest_wasm, pixgate, pixgate_json, repo_file, unsealed_guest_wasm};

fn sample(name: &str) -> String {
    repo_file(&format!("policies/samples/{name}.json"))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn the_bundled_policy_decides_the_sample_charge() {
    let (code, out) = pixgate_json(&[
        "policy",
        "run",
        "--step",
        "policy",
        "--input",
        &sample("policy"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["step"], "policy");
    assert_eq!(out["component"]["source"], "bundled");
    assert_eq!(out["component"]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(out["output"]["policy"], "d0-first");
    assert_eq!(
        out["output"]["eligibleReleaseClasses"],
        serde_json::json!(["D0", "D1", "D2"])
    );
    assert!(out["fuelUsed"].as_u64().unwrap() > 0);
    assert!(out["durationUs"].is_u64());
}

#[test]
fn the_bundled_provider_and_economics_steps_run_on_their_samples() {
    let (code, out) = pixgate_json(&[
        "policy",
        "run",
        "--step",
        "provider",
        "--input",
        &sample("provider"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["output"]["ranking"][0]["gatewayAlias"], "sandbox-b-d0");
    assert_eq!(
        out["output"]["excluded"][0]["gatewayAlias"],
        "sandbox-b-d30"
    );

    let (code, out) = pixgate_json(&[
        "policy",
        "run",
        "--step",
        "economics",
        "--input",
        &sample("economics"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["output"][0]["gatewayAlias"], "sandbox-b-d0");
    assert_eq!(out["output"][0]["outcome"]["accepted"]["feeCentavos"], 165);
    assert_eq!(
        out["output"][2]["outcome"]["accepted"]["settlementDate"],
        "2026-11-23"
    );
}

#[test]
fn the_whole_chain_runs_from_one_input() {
    let (code, out) = pixgate_json(&[
        "policy",
        "run",
        "--step",
        "chain",
        "--input",
        &sample("chain"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["routes"][0]["gateway"]["gatewayAlias"], "sandbox-b-d0");
    assert_eq!(out["policy"]["step"], "policy");
    assert!(out["economics"]["fuelUsed"].as_u64().unwrap() > 0);
}

#[test]
fn a_component_file_is_run_in_the_sandbox_with_its_limits() {
    let fixture = guest_wasm("pixgate_fixture_misbehave");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("loop.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sample("policy")).unwrap()).unwrap();
    json["charge"]["reference"] = "loop".into();
    std::fs::write(&input, json.to_string()).unwrap();
    let (code, out) = pixgate_json(&[
        "policy",
        "run",
        "--step",
        "policy",
        "--component",
        fixture.to_str().unwrap(),
        "--input",
        input.to_str().unwrap(),
        "--fuel",
        "1000000",
    ]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(out["error"]["code"], "fuel_exhausted");
    assert_eq!(out["error"]["step"], "policy");
    assert!(
        out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("1000000")
    );
}

/// A compile can take half a minute: `policy run` says on stderr what it loads, how big it
/// is, and how long loading took, before it runs; stdout stays the JSON answer alone.
#[test]
fn policy_run_says_what_it_compiles_and_how_big_it_is() {
    let fixture = guest_wasm("pixgate_fixture_renamed");
    let cache = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(pixgate_e2e::pixgate_bin())
        .args(["policy", "run", "--step", "policy", "--component"])
        .arg(&fixture)
        .args(["--input", &sample("policy"), "--cache-dir"])
        .arg(cache.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let size = std::fs::metadata(&fixture).unwrap().len();
    let shown = if size < 1_000_000 {
        format!("({:.1} KB)", size as f64 / 1e3)
    } else {
        format!("({:.1} MB)", size as f64 / 1e6)
    };
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!(
            "pixgate: loading {} {shown} as a policy component",
            fixture.display()
        )),
        "{stderr}"
    );
    assert!(
        first.contains(&cache.path().display().to_string()),
        "{stderr}"
    );
    assert!(
        stderr.lines().any(|l| l.starts_with("pixgate: loaded in ")),
        "{stderr}"
    );
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["step"], "policy");
}

/// The fixture whose code reads a file and opens a socket imports them: `policy run` applies
/// the upload's rule and refuses it by name, and `policy seal` answers them inside it, after
/// which the build runs and finds no file (the sandbox's tests check the socket too; the
/// fixture's report is not a valid policy name, so it comes back as `invalid_output`).
#[test]
fn a_build_that_imports_files_and_sockets_runs_only_sealed() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("world.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sample("policy")).unwrap()).unwrap();
    json["charge"]["reference"] = "world".into();
    std::fs::write(&input, json.to_string()).unwrap();
    let input = input.to_str().unwrap();
    let build = dir.path().join("misbehave.wasm");
    std::fs::copy(unsealed_guest_wasm("pixgate_fixture_misbehave"), &build).unwrap();
    let run = || {
        pixgate_json(&[
            "policy",
            "run",
            "--step",
            "policy",
            "--component",
            build.to_str().unwrap(),
            "--input",
            input,
            "--no-cache",
        ])
    };

    let (code, out) = run();
    assert_eq!(code, 1, "{out}");
    assert_eq!(out["error"]["code"], "invalid_component", "{out}");
    let message = out["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("`wasi:filesystem/types@0.2.6`"),
        "{message}"
    );
    assert!(message.contains("pixgate policy seal"), "{message}");

    let sealed = pixgate(&["policy", "seal", build.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&sealed.stdout);
    assert!(sealed.status.success(), "{sealed:?}");
    assert!(
        said.starts_with(&format!("sealed {}", build.display())),
        "{said}"
    );
    assert!(said.contains("wasi:sockets/tcp@0.2.6"), "{said}");

    let (code, out) = run();
    assert_eq!(
        (code, &out["error"]["code"]),
        (1, &"invalid_output".into()),
        "{out}"
    );
    let report = out["error"]["message"].as_str().unwrap();
    assert!(report.contains("env=0 args=0 file=false"), "{report}");

    let bytes = std::fs::read(&build).unwrap();
    let again = pixgate(&["policy", "seal", build.to_str().unwrap()]);
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("nothing to seal"),
        "{again:?}"
    );
    assert_eq!(std::fs::read(&build).unwrap(), bytes);

    // Not a component: refused with the sandbox's code, and nothing is written.
    let junk = dir.path().join("junk.wasm");
    std::fs::write(&junk, b"not wasm").unwrap();
    let out_path = dir.path().join("out.wasm");
    let refused = pixgate(&[
        "policy",
        "seal",
        junk.to_str().unwrap(),
        "--out",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("invalid_component"),
        "{refused:?}"
    );
    assert!(!out_path.exists());
}

#[test]
fn a_component_of_the_wrong_world_is_refused_by_name() {
    let fixture = guest_wasm("pixgate_fixture_wrong_world");
    let (code, out) = pixgate_json(&[
        "policy",
        "run",
        "--step",
        "policy",
        "--component",
        fixture.to_str().unwrap(),
        "--input",
        &sample("policy"),
    ]);
    assert_eq!(code, 1);
    assert_eq!(out["error"]["code"], "wrong_world");
    assert!(
        out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("does not export `pixgate:chain/policy@1.1.0`")
    );
}

#[test]
fn malformed_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.json");
    std::fs::write(&input, r#"{"charge": {"amountCentavos": "ten"}}"#).unwrap();
    let (code, out) = pixgate_json(&[
        "policy",
        "run",
        "--step",
        "policy",
        "--input",
        input.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(out["error"]["code"], "invalid_input");
}

#[test]
fn help_names_the_subcommands() {
    let out = pixgate(&["policy", "run", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for flag in ["--step", "--component", "--input", "--fuel"] {
        assert!(text.contains(flag), "{text}");
    }
}

/// Runs one step on `input` (a sample, changed by the test) with `component`, or the bundled
/// component of the step when `None`.
fn run_step(
    step: &str,
    component: Option<&str>,
    input: &serde_json::Value,
) -> (i32, serde_json::Value) {
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
        args.extend(["--component", component]);
    }
    pixgate_json(&args)
}

fn sample_json(name: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(sample(name)).unwrap()).unwrap()
}

fn ranking(out: &serde_json::Value) -> Vec<&str> {
    out["output"]["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["gatewayAlias"].as_str().unwrap())
        .collect()
}

#[test]
fn the_costliest_first_fixture_ranks_by_fee_descending() {
    let fixture = guest_wasm("pixgate_fixture_costliest_first");
    let fixture = fixture.to_str();
    let input = sample_json("provider");
    let (code, out) = run_step("provider", fixture, &input);
    assert_eq!(code, 0, "{out}");
    // R$ 129.90 on the sample's terms: a-d0 1.39 % = 181, b-d0 1.19 % + 10 = 165,
    // a-d1 0.99 % = 129, b-d30 0.49 % = 64. The policy's classes are not looked at.
    assert_eq!(
        ranking(&out),
        [
            "sandbox-a-d0",
            "sandbox-b-d0",
            "sandbox-a-d1",
            "sandbox-b-d30"
        ]
    );
    assert_eq!(
        out["output"]["ranking"][0]["reason"],
        "costliest first: fee 181 centavos"
    );
    assert_eq!(out["output"]["excluded"], serde_json::json!([]));
    // The bundled step puts another gateway first on the same input.
    let (_, bundled) = run_step("provider", None, &input);
    assert_ne!(ranking(&bundled)[0], "sandbox-a-d0");

    // Unavailable gateways are left out; equal fees are ordered by alias.
    let mut input = input;
    input["gateways"][0]["health"]["available"] = false.into();
    input["gateways"][3]["feeTerms"] = input["gateways"][1]["feeTerms"].clone();
    let (code, out) = run_step("provider", fixture, &input);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        ranking(&out),
        ["sandbox-b-d0", "sandbox-a-d1", "sandbox-b-d30"]
    );
    assert_eq!(
        out["output"]["excluded"],
        serde_json::json!([{"gatewayAlias": "sandbox-a-d0", "reason": "gateway unavailable"}])
    );
}

#[test]
fn the_flaky_fixture_decides_like_the_bundled_policy_and_traps_on_odd_amounts() {
    let fixture = guest_wasm("pixgate_fixture_flaky");
    let fixture = fixture.to_str();
    let mut input = sample_json("policy");
    for amount in [12_990, 60_000, 2] {
        input["charge"]["amountCentavos"] = amount.into();
        let (code, out) = run_step("policy", fixture, &input);
        assert_eq!(code, 0, "{amount}: {out}");
        let (_, bundled) = run_step("policy", None, &input);
        assert_eq!(out["output"], bundled["output"], "{amount}");
    }
    for amount in [12_991, 1, 60_001] {
        input["charge"]["amountCentavos"] = amount.into();
        let (code, out) = run_step("policy", fixture, &input);
        assert_eq!(code, 1, "{amount}: {out}");
        assert_eq!(out["error"]["code"], "trapped", "{out}");
        assert!(
            out["error"]["message"]
                .as_str()
                .unwrap()
                .contains(&format!("odd amount of {amount} centavos")),
            "{out}"
        );
    }
}

#[test]
fn the_renamed_fixture_is_the_bundled_policy_under_a_v2_name() {
    let fixture = guest_wasm("pixgate_fixture_renamed");
    let fixture = fixture.to_str();
    let mut input = sample_json("policy");
    for (amount, policy) in [(12_990, "v2-d0-first"), (60_000, "v2-lowest-cost")] {
        input["charge"]["amountCentavos"] = amount.into();
        let (code, out) = run_step("policy", fixture, &input);
        assert_eq!(code, 0, "{out}");
        let (_, bundled) = run_step("policy", None, &input);
        let mut expected = bundled["output"].clone();
        expected["policy"] = policy.into();
        assert_eq!(out["output"], expected);
    }
    // The bundled policy's refusals stay refusals.
    input["store"]["config"] =
        serde_json::json!([{"key": "limits.max-amount-centavos", "value": "100"}]);
    let (code, out) = run_step("policy", fixture, &input);
    assert_eq!(code, 1, "{out}");
    assert_eq!(out["error"]["code"], "amount_above_store_limit");
}

/// The `*.cwasm` files of a cache dir, with their inode (a compile writes a new file; a
/// run from the cache only reads it).
fn cached(dir: &std::path::Path) -> Vec<(String, u64)> {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, u64)> = entries
        .map(|e| e.unwrap())
        .filter(|e| e.path().extension().is_some_and(|x| x == "cwasm"))
        .map(|e| {
            let ino = e.metadata().unwrap().ino();
            (e.file_name().to_string_lossy().into_owned(), ino)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_component_is_compiled_once_into_the_cache_dir_and_run_from_it_after() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("compiled");
    let xdg = dir.path().join("xdg");
    let fixture = guest_wasm("pixgate_fixture_costliest_first");
    let input = sample("provider");
    // `policy run` of the fixture with `extra` arguments, XDG_CACHE_HOME set to `xdg`.
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(pixgate_e2e::pixgate_bin())
            .env_clear()
            .env("XDG_CACHE_HOME", &xdg)
            .args(["policy", "run", "--step", "provider", "--input", &input])
            .arg("--component")
            .arg(&fixture)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let cache_arg = ["--cache-dir", cache.to_str().unwrap()];

    let first = run(&cache_arg);
    let sha = first["component"]["sha256"].as_str().unwrap().to_owned();
    let after_first = cached(&cache);
    assert_eq!(after_first.len(), 1, "{after_first:?}");
    assert!(after_first[0].0.starts_with(&sha), "{after_first:?}");
    assert!(!xdg.exists(), "--cache-dir also wrote {}", xdg.display());

    // The second run loads the kept compile: the same decision, the same file.
    let second = run(&cache_arg);
    assert_eq!(second["output"], first["output"]);
    assert_eq!(cached(&cache), after_first);

    // --no-cache keeps nothing; without either, the cache is under XDG_CACHE_HOME.
    assert_eq!(run(&["--no-cache"])["output"], first["output"]);
    assert!(!xdg.exists(), "--no-cache wrote {}", xdg.display());
    assert_eq!(run(&[])["output"], first["output"]);
    assert_eq!(cached(&xdg.join("pixgate/components")).len(), 1);
}
