//! `pixgate policy run`, the tool a payment-ops engineer uses before uploading a component.

use pixgate_e2e::{guest_wasm, pixgate, pixgate_json, repo_file};

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
            .contains("does not export `pixgate:chain/policy@1.0.0`")
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
