//! The README's walk-through runs exactly as written.

use std::process::Command;

use pixgate_e2e::{pixgate_bin, repo_file};

#[test]
fn the_readme_walkthrough_runs_as_written() {
    let readme = std::fs::read_to_string(repo_file("README.md")).unwrap();
    let section = readme
        .split("<!-- walkthrough -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- /walkthrough -->").next())
        .expect("README has a walk-through section");
    let script = section
        .trim()
        .strip_prefix("```sh")
        .and_then(|s| s.strip_suffix("```"))
        .expect("the walk-through is one sh block");

    // Run it from a directory laid out like the repository after `cargo build --release`,
    // with the binary under test in target/release.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("target/release")).unwrap();
    std::os::unix::fs::symlink(pixgate_bin(), dir.path().join("target/release/pixgate")).unwrap();
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", script])
        .current_dir(dir.path())
        .env_remove("PIXGATE_DATABASE_URL")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "walk-through failed:\n{stdout}\n{stderr}"
    );
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
