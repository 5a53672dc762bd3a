//! Builds the bundled policy components and the test fixtures with a nested cargo, so a plain
//! `cargo build` of a fresh clone ships them inside the binary.
//!
//! The three bundled steps are `no_std` crates built for `wasm32-unknown-unknown`: their core
//! modules import nothing but the world's own `host-log`, and `wit-component`'s
//! `ComponentEncoder` turns each into a component here (no CLI tool, no WASI adapter). Such a
//! component imports no WASI at all, so a call pays for no WASI context and the instance is as
//! small as it gets. The fixtures stay `wasm32-wasip2` std components, the kind an author's
//! `cargo build --release --target wasm32-wasip2` produces: they exercise the WASI-linked path
//! and every sandbox guarantee on it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The bundled steps: core modules turned into components below.
const BUNDLED_TARGET: &str = "wasm32-unknown-unknown";
const BUNDLED: &[&str] = &[
    "pixgate-guest-policy",
    "pixgate-guest-provider",
    "pixgate-guest-economics",
    // Not a step: the adapter `pixgate policy seal` plugs into files and sockets (src/seal.rs).
    "pixgate-guest-deny",
];
/// The fixtures: std components linked against WASI, like an author's.
const FIXTURE_TARGET: &str = "wasm32-wasip2";
const FIXTURES: &[&str] = &[
    "pixgate-fixture-misbehave",
    "pixgate-fixture-wrong-world",
    "pixgate-fixture-costliest-first",
    "pixgate-fixture-flaky",
    "pixgate-fixture-renamed",
];
/// The guests' shadow stack: small frames only, and less memory to reset per instance.
const GUEST_RUSTFLAGS: &str = "-Clink-arg=-zstack-size=65536";
/// The bundled steps' initial linear memory: the 64 KiB stack, the data, and a heap their bump
/// allocator serves a whole call from without `memory.grow` (see `policies/guests/runtime.rs`).
const BUNDLED_RUSTFLAGS: &str =
    "-Clink-arg=-zstack-size=65536\x1f-Clink-arg=--initial-memory=262144";

fn main() {
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir
        .parent()
        .expect("sandbox/ lives in the workspace")
        .to_owned();
    let out_dir = PathBuf::from(env("OUT_DIR"));
    // What the guests are built from: not all of policies/, whose JavaScript and Python kits
    // (node_modules, build output) .ci/kits.sh writes while CI's Rust build runs; watching
    // those re-ran this script and rebuilt everything downstream of the sandbox after them.
    for watched in [
        "policies/guests",
        "policies/fixtures",
        "policies/logic",
        "wit",
        "Cargo.lock",
        "Cargo.toml",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            workspace.join(watched).display()
        );
    }

    ensure_target(BUNDLED_TARGET);
    ensure_target(FIXTURE_TARGET);

    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"))
        .join("wasm-guests");

    cargo_build(
        &workspace,
        &target_dir,
        BUNDLED_TARGET,
        BUNDLED,
        BUNDLED_RUSTFLAGS,
    );
    let built = target_dir.join(BUNDLED_TARGET).join("guest");
    for guest in BUNDLED {
        let file = format!("{}.wasm", guest.replace('-', "_"));
        let module = read(&built.join(&file));
        let component = wit_component::ComponentEncoder::default()
            .module(&module)
            .and_then(|encoder| encoder.validate(true).encode())
            .unwrap_or_else(|e| panic!("turning {file} into a component: {e:#}"));
        write(&out_dir.join(&file), &component);
    }

    cargo_build(
        &workspace,
        &target_dir,
        FIXTURE_TARGET,
        FIXTURES,
        GUEST_RUSTFLAGS,
    );
    let built = target_dir.join(FIXTURE_TARGET).join("guest");
    for guest in FIXTURES {
        let file = format!("{}.wasm", guest.replace('-', "_"));
        copy(&built.join(&file), &out_dir.join(&file));
    }
    println!("cargo:rustc-env=PIXGATE_GUEST_DIR={}", out_dir.display());
}

/// `cargo build --profile guest --target <target>` of `packages`, with the guests' own flags.
fn cargo_build(
    workspace: &Path,
    target_dir: &Path,
    target: &str,
    packages: &[&str],
    rustflags: &str,
) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(workspace)
        .args([
            "build",
            "--profile",
            "guest",
            "--target",
            target,
            "--target-dir",
        ])
        .arg(target_dir);
    for package in packages {
        cmd.args(["-p", package]);
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
    cmd.env("CARGO_ENCODED_RUSTFLAGS", rustflags);
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("could not run cargo to build the policy components: {e}"));
    assert!(
        status.success(),
        "building the policy components for {target} failed (see the output above)"
    );
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("cargo sets {name} for build scripts"))
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()))
}

fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to)
        .unwrap_or_else(|e| panic!("copying {} to {}: {e}", from.display(), to.display()));
}

/// Installs `target`'s standard library with rustup when it is missing, or stops with the
/// exact command to run.
fn ensure_target(target: &str) {
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
                    .join(target)
                    .exists()
            })
            .unwrap_or(false)
    };
    if installed() {
        return;
    }
    println!("cargo:warning=the {target} target is missing; running `rustup target add {target}`");
    let added = Command::new("rustup")
        .args(["target", "add", target])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !added || !installed() {
        panic!(
            "the Rust target {target} is needed to build pixgate's policy components and could \
             not be installed automatically. Run:\n\n    rustup target add {target}\n"
        );
    }
}
