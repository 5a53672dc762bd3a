//! Builds the bundled policy components (and the test fixtures) for `wasm32-wasip2` with a
//! nested cargo, so a plain `cargo build` of a fresh clone ships them inside the binary.

use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-wasip2";
const GUESTS: &[&str] = &[
    "pixgate-guest-policy",
    "pixgate-guest-provider",
    "pixgate-guest-economics",
    "pixgate-fixture-misbehave",
    "pixgate-fixture-wrong-world",
    "pixgate-fixture-costliest-first",
    "pixgate-fixture-flaky",
    "pixgate-fixture-renamed",
];
/// The guests' shadow stack: small frames only, and less memory to reset per instance.
const GUEST_RUSTFLAGS: &str = "-Clink-arg=-zstack-size=65536";

fn main() {
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir
        .parent()
        .expect("host/ lives in the workspace")
        .to_owned();
    let out_dir = PathBuf::from(env("OUT_DIR"));
    for watched in ["policies", "wit", "Cargo.lock", "Cargo.toml"] {
        println!(
            "cargo:rerun-if-changed={}",
            workspace.join(watched).display()
        );
    }

    ensure_target();

    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"))
        .join("wasm-guests");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(&workspace)
        .args([
            "build",
            "--profile",
            "guest",
            "--target",
            TARGET,
            "--target-dir",
        ])
        .arg(&target_dir);
    for guest in GUESTS {
        cmd.args(["-p", guest]);
    }
    // The outer build's flags and wrappers are for the host; the guests get their own.
    for var in [
        "RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_MANIFEST_DIR",
        "CARGO_MANIFEST_PATH",
        "CARGO_PKG_NAME",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("CARGO_ENCODED_RUSTFLAGS", GUEST_RUSTFLAGS);
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("could not run cargo to build the policy components: {e}"));
    assert!(
        status.success(),
        "building the policy components for {TARGET} failed (see the output above)"
    );

    let built = target_dir.join(TARGET).join("guest");
    for guest in GUESTS {
        let file = format!("{}.wasm", guest.replace('-', "_"));
        copy(&built.join(&file), &out_dir.join(&file));
    }
    println!("cargo:rustc-env=PIXGATE_GUEST_DIR={}", out_dir.display());
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("cargo sets {name} for build scripts"))
}

fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to)
        .unwrap_or_else(|e| panic!("copying {} to {}: {e}", from.display(), to.display()));
}

/// Installs the wasm32-wasip2 standard library with rustup when it is missing, or stops
/// with the exact command to run.
fn ensure_target() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let installed = || {
        Command::new(&rustc)
            .args(["--print", "sysroot"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| {
                PathBuf::from(String::from_utf8_lossy(&o.stdout).trim())
                    .join("lib/rustlib")
                    .join(TARGET)
                    .exists()
            })
            .unwrap_or(false)
    };
    if installed() {
        return;
    }
    println!("cargo:warning=the {TARGET} target is missing; running `rustup target add {TARGET}`");
    let added = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !added || !installed() {
        panic!(
            "the Rust target {TARGET} is needed to build pixgate's policy components and could \
             not be installed automatically. Run:\n\n    rustup target add {TARGET}\n"
        );
    }
}
