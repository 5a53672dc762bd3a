//! Steps written in JavaScript and Python go through the same routes as Rust ones: the
//! authoring kits' samples (the bundled provider step's logic, reading the clock and
//! randomness), built from source by `.ci/kits.sh`, upload, evaluate, run a SHADOW store's
//! charges, replay exactly, shadow, canary at 5 % and promote, on SQLite and (when
//! `PIXGATE_TEST_DATABASE_URL` is set) PostgreSQL. The components are built on first use into
//! `target/samples` ([`pixgate_e2e::kits`]: once per target dir, again only when the kits
//! change; a build that cannot happen fails the test with its log), or read from
//! `PIXGATE_TEST_SAMPLES_DIR`. kits.sh builds them unsealed; each test seals them with
//! `pixgate policy seal`, as the kits' build commands do.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pixgate_e2e::components::{activate, charge, replay, upload};
use pixgate_e2e::kits::samples_dir;
use pixgate_e2e::server::{Server, backends};
use pixgate_e2e::{pixgate, pixgate_bin, pixgate_json, repo_file, sealed};
use serde_json::{Value, json};

const LANGUAGES: [&str; 2] = ["js", "python"];

/// Charges from R$ 0.50 to R$ 4,000.00: both policies of the bundled policy step, and fees on
/// either side of the gateways' minimum and maximum.
const AMOUNTS: [f64; 5] = [0.5, 12.9, 129.9, 1250.0, 4000.0];

/// The sample `file` as kits.sh built it: what componentize-js or componentize-py wrote.
fn built_sample(file: &str) -> PathBuf {
    let path = samples_dir().join(file);
    assert!(
        path.exists(),
        "{} is missing: .ci/kits.sh did not write it (see target/kits.log), or \
         PIXGATE_TEST_SAMPLES_DIR names a directory without it",
        path.display()
    );
    path
}

/// The sample `file` sealed by `pixgate policy seal`, as the kits' build commands leave it.
fn sample_path(file: &str) -> PathBuf {
    sealed(&built_sample(file))
}

fn sample(file: &str) -> Vec<u8> {
    std::fs::read(sample_path(file)).unwrap()
}

/// `pixgate policy run` of `component` (a path) on `input` (a JSON file). The runs share one
/// compiled-component cache beside the samples, as an engineer's runs share theirs: a sample
/// the suite runs twice is compiled once.
fn run(step: &str, component: &str, input: &str) -> Value {
    let cache = samples_dir().join("compiled");
    let (code, out) = pixgate_json(&[
        "policy",
        "run",
        "--step",
        step,
        "--component",
        component,
        "--input",
        input,
        "--cache-dir",
        cache.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{component}: {out}");
    out
}

/// The reasons of a ranking without what the clock and randomness added to the primary's.
fn ranking_without_clock(output: &Value) -> Vec<(String, String)> {
    output["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let reason = r["reason"].as_str().unwrap();
            let reason = reason.split(" (ranked at").next().unwrap();
            (
                r["gatewayAlias"].as_str().unwrap().to_owned(),
                reason.to_owned(),
            )
        })
        .collect()
}

// One test per language: the first `pixgate policy run` of a component compiles an engine of
// 12 to 18 MB, and each test has its own time limit.
#[test]
fn the_javascript_sample_decides_like_the_bundled_step_and_reads_the_inputs_clock_and_seed() {
    sample_decides_like_the_bundled_step("js");
}

#[test]
fn the_python_sample_decides_like_the_bundled_step_and_reads_the_inputs_clock_and_seed() {
    sample_decides_like_the_bundled_step("python");
}

#[test]
fn the_javascript_templates_of_every_step_build_and_decide_their_sample_input() {
    templates_decide_their_sample_input("js");
}

#[test]
fn the_python_templates_of_every_step_build_and_decide_their_sample_input() {
    templates_decide_their_sample_input("python");
}

fn sample_decides_like_the_bundled_step(lang: &str) {
    let input_path = repo_file("policies/samples/provider.json");
    let input = input_path.to_str().unwrap();
    let bundled = pixgate_json(&["policy", "run", "--step", "provider", "--input", input]).1;
    let mut reseeded: Value = serde_json::from_slice(&std::fs::read(&input_path).unwrap()).unwrap();
    reseeded["env"]["seed"] = json!(reseeded["env"]["seed"].as_u64().unwrap() + 1);
    let dir = tempfile::tempdir().unwrap();
    let reseeded_path = dir.path().join("reseeded.json");
    std::fs::write(&reseeded_path, reseeded.to_string()).unwrap();

    let wasm = sample_path(&format!("provider-{lang}.wasm"));
    let wasm = wasm.to_str().unwrap();
    let first = run("provider", wasm, input);
    // The bundled step's ranking and exclusions, reason for reason.
    assert_eq!(
        ranking_without_clock(&first["output"]),
        ranking_without_clock(&bundled["output"]),
        "{lang}: {first}"
    );
    assert_eq!(first["output"]["excluded"], bundled["output"]["excluded"]);
    // The clock is the input's `now` (2026-11-19T15:00:00Z), the same on every run.
    let primary = first["output"]["ranking"][0]["reason"].as_str().unwrap();
    assert!(
        primary.contains("(ranked at 2026-11-19T15:00:00.000Z, draw 0."),
        "{lang}: {primary}"
    );
    // The randomness follows the seed. (That the same input gives the same output, log
    // and fuel, the end-to-end test below proves from a recorded trace; every run here
    // compiles the component again, which takes seconds.)
    let other = run("provider", wasm, reseeded_path.to_str().unwrap());
    let draw = |run: &Value| {
        let reason = run["output"]["ranking"][0]["reason"].as_str().unwrap();
        reason.rsplit("draw ").next().unwrap().to_owned()
    };
    assert_ne!(draw(&first), draw(&other), "{lang}: {first} {other}");
    eprintln!(
        "{lang}: {} fuel, {} µs, {} bytes",
        first["fuelUsed"],
        first["durationUs"],
        std::fs::metadata(wasm).unwrap().len()
    );
}

/// An author's `npm run build` or `python3 build.py` ends with `pixgate policy seal`: what it
/// writes imports no files or sockets, and is what an upload takes.
#[test]
fn the_kits_build_commands_seal_what_they_build() {
    // The kits' tools are installed where kits.sh built its samples.
    built_sample("provider-js.wasm");
    built_sample("provider-python.wasm");
    let dir = tempfile::tempdir().unwrap();
    for (lang, kit, tool, script, source) in [
        (
            "js",
            "template-js",
            "node",
            "build.mjs",
            "samples-js/provider.js",
        ),
        (
            "python",
            "template-python",
            "python3",
            "build.py",
            "samples-python/provider.py",
        ),
    ] {
        let out = dir.path().join(format!("provider-{lang}.wasm"));
        let build = std::process::Command::new(tool)
            .arg(script)
            .args(["--step", "provider", "--source"])
            .arg(repo_file(&format!("policies/{source}")))
            .arg("--out")
            .arg(&out)
            .current_dir(repo_file(&format!("policies/{kit}")))
            .env("PIXGATE", pixgate_bin())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&build.stdout);
        assert!(build.status.success(), "{lang}: {build:?}");
        assert!(
            stdout.contains(&format!("sealed {}", out.display())),
            "{stdout}"
        );
        assert!(stdout.contains("wasi:filesystem/preopens@"), "{stdout}");

        let again = pixgate(&["policy", "seal", out.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&again.stdout);
        assert!(
            again.status.success() && said.contains("nothing to seal"),
            "{again:?}"
        );
    }
}

fn templates_decide_their_sample_input(lang: &str) {
    for step in ["policy", "provider", "economics"] {
        let wasm = sample_path(&format!("template-{step}-{lang}.wasm"));
        let input = repo_file(&format!("policies/samples/{step}.json"));
        let out = run(step, wasm.to_str().unwrap(), input.to_str().unwrap());
        let output = &out["output"];
        // What each example decides for the sample charge of R$ 129.90 (see its comment).
        match step {
            "policy" => {
                assert_eq!(output["policy"], "d0-first", "{lang}: {out}");
                assert_eq!(output["eligibleReleaseClasses"], json!(["D0", "D1"]));
            }
            "provider" => {
                // Cheapest first among D0, D1 and D2 (the sample policy's classes).
                assert_eq!(
                    output["ranking"][0]["gatewayAlias"], "sandbox-a-d1",
                    "{lang}: {out}"
                );
                assert!(out["log"].as_str().unwrap().contains("ranked"), "{out}");
            }
            _ => {
                let first = &output[0]["outcome"];
                assert!(first["accepted"].is_object(), "{lang}: {out}");
                let quote = &first["accepted"];
                assert_eq!(
                    quote["feeCentavos"].as_u64().unwrap() + quote["netCentavos"].as_u64().unwrap(),
                    12_990,
                    "{lang}: {out}"
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn javascript_and_python_steps_upload_evaluate_replay_shadow_canary_and_promote() {
    for (n, backend) in backends().into_iter().enumerate() {
        let server = Server::start_with(backend, &[("PIXGATE_RATE_LIMIT_PER_SECOND", "0")]).await;

        // An engine built with its HTTP features on reaches for the network: refused by name.
        let (status, body) = upload(&server, "provider", sample("provider-js-http.wasm")).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("invalid_component")),
            "{backend:?} {body}"
        );
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("`wasi:http/"),
            "{body}"
        );

        for lang in LANGUAGES {
            let bytes = sample(&format!("provider-{lang}.wasm"));
            let started = Instant::now();
            let (status, body) = upload(&server, "provider", bytes.clone()).await;
            assert_eq!(status, 201, "{backend:?} {lang}: {body}");
            eprintln!(
                "{backend:?} {lang}: {} bytes uploaded and compiled in {:?}",
                bytes.len(),
                started.elapsed()
            );
            let version = body["data"]["version"].as_str().unwrap().to_owned();

            // Evaluate: the same decision as the bundled step, by the uploaded version.
            let mut one = charge("demo-store", "evaluate", 129.9);
            one.as_object_mut().unwrap().remove("store");
            let (status, bundled) = server
                .admin_post("/evaluate", json!({"store": "demo-store", "charge": one}))
                .await;
            assert_eq!(status, 200, "{bundled}");
            let (status, eval) = server
                .admin_post(
                    "/evaluate",
                    json!({"store": "demo-store", "charge": one, "components": {"provider": version}}),
                )
                .await;
            assert_eq!(status, 200, "{lang}: {eval}");
            let eval = &eval["data"];
            assert_eq!(
                eval["trace"]["provider"]["component"],
                version.as_str(),
                "{lang}: {eval}"
            );
            assert_eq!(
                eval["outcome"], bundled["data"]["outcome"],
                "{lang}: {eval}"
            );

            // A SHADOW store of its own runs it for every charge.
            let store = format!("{lang}-store");
            let key = server
                .merchant_with_store(&format!("{lang}-shop"), &store, "SHADOW")
                .await;
            activate(&server, &store, "provider", &version).await;
            let mut first_id = String::new();
            for (i, amount) in AMOUNTS.iter().enumerate() {
                let (status, body) = server
                    .charge(
                        &key,
                        &format!("{lang}-{i}"),
                        &charge(&store, &format!("order-{i}"), *amount),
                    )
                    .await;
                assert_eq!(status, 200, "{backend:?} {lang} {amount}: {body}");
                if i == 0 {
                    first_id = body["data"]["paymentIntentId"].as_str().unwrap().to_owned();
                }
            }

            // Replayed with the same version: nothing changes. Against the bundled step:
            // nothing either, the logic is the same.
            let same = replay(
                &server,
                json!({"store": store, "components": {"provider": version}}),
            )
            .await;
            assert_eq!(same["replayed"], AMOUNTS.len(), "{lang}: {same}");
            assert_eq!(same["changed"], 0, "{lang}: {same}");
            assert_eq!(same["errors"], 0, "{lang}: {same}");
            let bundled = replay(
                &server,
                json!({"store": store, "components": {"provider": "bundled"}}),
            )
            .await;
            assert_eq!(bundled["changed"], 0, "{lang}: {bundled}");

            // The recorded step, re-run from its recorded input, reproduces its output and log
            // exactly, clock and randomness included (which the replay report does not show).
            // Offline on the first backend only: the server's compile is not `policy run`'s.
            let (status, trace) = server
                .admin_get(&format!("/payment-intents/{first_id}/trace"))
                .await;
            assert_eq!(status, 200, "{trace}");
            let recorded = &trace["data"]["provider"];
            assert_eq!(recorded["component"], version.as_str());
            eprintln!(
                "{backend:?} {lang}: a SHADOW charge's provider step: {} fuel, {} µs",
                recorded["fuelUsed"], recorded["durationUs"]
            );
            let reason = recorded["output"]["ranking"][0]["reason"].as_str().unwrap();
            assert!(reason.contains("ranked at"), "{reason}");
            if n == 0 {
                let dir = tempfile::tempdir().unwrap();
                let input = dir.path().join("input.json");
                std::fs::write(&input, recorded["input"].to_string()).unwrap();
                let wasm = sample_path(&format!("provider-{lang}.wasm"));
                let rerun = run("provider", wasm.to_str().unwrap(), input.to_str().unwrap());
                assert_eq!(rerun["output"], recorded["output"], "{lang}");
                assert_eq!(rerun["log"], recorded["log"], "{lang}");
                assert_eq!(rerun["fuelUsed"], recorded["fuelUsed"], "{lang}");
            }

            // As the shadow candidate of a store that runs the bundled step: compared on every
            // new charge, never different.
            let (status, body) = server
                .admin(
                    reqwest::Method::PUT,
                    "/stores/demo-store/components/provider/candidate",
                    Some(json!({"version": version})),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            for (i, amount) in AMOUNTS.iter().enumerate() {
                let (status, body) = server
                    .charge(
                        &server.demo_key,
                        &format!("{lang}-shadow-{i}"),
                        &charge("demo-store", "order", *amount),
                    )
                    .await;
                assert_eq!(status, 200, "{body}");
            }
            let deadline = Instant::now() + Duration::from_secs(30);
            let comparison = loop {
                let (status, body) = server
                    .admin_get("/stores/demo-store/components/provider/shadow")
                    .await;
                assert_eq!(status, 200, "{body}");
                if body["data"]["charges"] == AMOUNTS.len() || Instant::now() > deadline {
                    break body["data"].clone();
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            };
            assert_eq!(comparison["candidate"], version.as_str());
            assert_eq!(comparison["charges"], AMOUNTS.len(), "{lang}: {comparison}");
            assert_eq!(comparison["changed"], 0, "{lang}: {comparison}");
            assert_eq!(comparison["errors"], 0, "{lang}: {comparison}");

            // As a canary on 5 % of the store's charges: a key that takes the canary's arm
            // (found with evaluate) is decided by it and compared with the bundled step.
            let canary = "/stores/demo-store/components/provider/canary";
            let (status, body) = server
                .admin(
                    reqwest::Method::PUT,
                    canary,
                    Some(json!({"version": version, "percent": 5})),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            let mut key = None;
            for i in 0..2000 {
                let candidate = format!("{lang}-canary-{i}");
                let mut c = charge("demo-store", "order", 129.9);
                c.as_object_mut().unwrap().remove("store");
                let (status, body) = server
                    .admin_post(
                        "/evaluate",
                        json!({"store": "demo-store", "charge": c, "idempotencyKey": candidate}),
                    )
                    .await;
                assert_eq!(status, 200, "{body}");
                if body["data"]["canaries"][0]["arm"] == "canary" {
                    key = Some(candidate);
                    break;
                }
            }
            let key = key.expect("one key in 2,000 takes a 5 % canary");
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &key,
                    &charge("demo-store", "order", 129.9),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            let id = body["data"]["paymentIntentId"].as_str().unwrap();
            let (_, trace) = server
                .admin_get(&format!("/payment-intents/{id}/trace"))
                .await;
            assert_eq!(trace["data"]["provider"]["component"], version.as_str());
            assert_eq!(trace["data"]["canaries"][0]["arm"], "canary", "{trace}");
            let deadline = Instant::now() + Duration::from_secs(30);
            let view = loop {
                let (status, body) = server.admin_get(canary).await;
                assert_eq!(status, 200, "{body}");
                if body["data"]["total"]["calls"] == 1 || Instant::now() > deadline {
                    break body["data"].clone();
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            };
            assert_eq!(view["total"]["calls"], 1, "{lang}: {view}");
            assert_eq!(view["total"]["errors"], 0, "{lang}: {view}");
            assert_eq!(view["total"]["changed"], 0, "{lang}: {view}");

            // Promoted: it decides the store's charges from now on.
            let (status, body) = server
                .admin_post(&format!("{canary}/promote"), json!({}))
                .await;
            assert_eq!(status, 200, "{body}");
            let state = &body["data"];
            assert_eq!(state["steps"]["provider"]["active"], version.as_str());
            assert_eq!(state["steps"]["provider"]["candidate"], Value::Null);
            assert_eq!(state["steps"]["provider"]["canary"], Value::Null);
            let (status, body) = server
                .charge(
                    &server.demo_key,
                    &format!("{lang}-active"),
                    &charge("demo-store", "order", 129.9),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            let id = body["data"]["paymentIntentId"].as_str().unwrap();
            let (_, trace) = server
                .admin_get(&format!("/payment-intents/{id}/trace"))
                .await;
            assert_eq!(trace["data"]["provider"]["component"], version.as_str());
            // Back to the bundled step for the next language's shadow comparison.
            activate(&server, "demo-store", "provider", "bundled").await;
        }
    }
}
