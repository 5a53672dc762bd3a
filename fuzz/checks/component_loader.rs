//! The component loader with what `POST /admin/components/{step}` does to an upload
//! (host/src/components/mod.rs `upload`): the size limit (`PIXGATE_COMPONENT_MAX_BYTES`,
//! default `DEFAULT_COMPONENT_MAX_BYTES`, 32 MiB), then `Sandbox::load_new` on a sandbox built as
//! `pixgate serve` builds it (`Limits::default()`, a compiled-module cache directory); and what
//! `pixgate policy seal` does to the same bytes, which refuses them or seals them, never
//! with an internal error.
//!
//! The first byte picks the step, the rest is the upload. Nothing panics; a refusal is one of
//! the errors the route answers 400 for (`invalid_component`, `wrong_world`,
//! `unsupported_import`), never an internal error (a 500); an accepted component is named by
//! the sha256 of its bytes, loads again from the cache with the same name, and runs the sample
//! chain (policies/samples/chain.json) in its step's place without taking the process down.

use std::sync::{Arc, LazyLock};

use pixgate_domain::{Step, sha256_hex};
use pixgate_sandbox::chain::{self, ChainInput, Components};
use pixgate_sandbox::{DEFAULT_COMPONENT_MAX_BYTES, Limits, Sandbox, SandboxError};

struct Host {
    sandbox: Sandbox,
    bundled: Components,
    input: ChainInput,
}

static HOST: LazyLock<Host> = LazyLock::new(|| {
    // The server keeps compiled components in <data dir>/modules; run.sh points TMPDIR into
    // fuzz/target so that this cache is removed with the run.
    let cache = std::env::temp_dir().join(format!("pixgate-fuzz-modules-{}", std::process::id()));
    let sandbox = Sandbox::new(Limits::default(), Some(cache)).expect("sandbox");
    let bundled = Components::bundled(&sandbox).expect("bundled components");
    let input = serde_json::from_str(include_str!("../../policies/samples/chain.json"))
        .expect("policies/samples/chain.json");
    Host {
        sandbox,
        bundled,
        input,
    }
});

/// The target's checks on one input: panics when pixgate breaks what the module says.
pub fn check(data: &[u8]) {
    let Some((&selector, wasm)) = data.split_first() else {
        return;
    };
    let step = Step::ALL[usize::from(selector) % 3];
    if wasm.len() as u64 > DEFAULT_COMPONENT_MAX_BYTES {
        return; // 413 component_too_large
    }
    let host = &*HOST;
    match pixgate_sandbox::seal(wasm) {
        Ok(_) | Err(SandboxError::InvalidComponent(_)) => {}
        Err(other) => panic!("sealing fails with an internal error: {other:?}"),
    }
    let loaded = match host.sandbox.load_new(step, wasm) {
        Ok(loaded) => loaded,
        Err(
            SandboxError::InvalidComponent(_)
            | SandboxError::WrongWorld { .. }
            | SandboxError::UnsupportedImport(_)
            | SandboxError::ExceedsLimits(_),
        ) => return,
        Err(other) => panic!("an upload is refused with an internal error (a 500): {other:?}"),
    };
    assert_eq!(loaded.step(), step);
    assert_eq!(loaded.sha256(), sha256_hex(wasm));
    assert_eq!(loaded.size(), wasm.len());
    // The same bytes again: from the compiled-module cache, the same version.
    let again = host
        .sandbox
        .load_new(step, wasm)
        .unwrap_or_else(|e| panic!("a component that loaded once is refused from the cache: {e}"));
    assert_eq!(again.sha256(), loaded.sha256());
    assert_eq!(again.imports(), loaded.imports());
    // It runs in its step's place (or fails with a named error) without a panic.
    let mut components = host.bundled.clone();
    components.set(step, Arc::new(loaded));
    let _ = chain::resolve(&host.sandbox, &components, &host.input);
}
