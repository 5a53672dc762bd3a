//! Compiled components on disk, keyed by the component's sha256 and the engine's
//! compatibility hash, so a restart deserialises instead of compiling again.

use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use super::SandboxError;

/// Hex sha256 of `bytes`, the name of a component version.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

pub(super) struct ModuleCache {
    dir: PathBuf,
    engine_key: String,
}

impl ModuleCache {
    pub fn new(dir: PathBuf, engine: &Engine) -> Self {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        Self {
            dir,
            engine_key: format!("{:016x}", hasher.finish()),
        }
    }

    /// The compiled component for `wasm` (whose sha256 is `sha256`), compiling and storing
    /// it on a miss. A damaged or foreign cache entry is replaced, never trusted.
    pub fn get_or_compile(
        &self,
        engine: &Engine,
        sha256: &str,
        wasm: &[u8],
    ) -> Result<Component, SandboxError> {
        let path = self.dir.join(format!("{sha256}-{}.cwasm", self.engine_key));
        let digest_path = path.with_extension("cwasm.sha256");
        if let (Ok(bytes), Ok(digest)) =
            (std::fs::read(&path), std::fs::read_to_string(&digest_path))
            && sha256_hex(&bytes) == digest.trim()
            && let Ok(component) = deserialize(engine, &bytes)
        {
            return Ok(component);
        }
        let compiled = engine
            .precompile_component(wasm)
            .map_err(|e| SandboxError::InvalidComponent(format!("{e:#}")))?;
        let component =
            deserialize(engine, &compiled).map_err(|e| SandboxError::Internal(format!("{e:#}")))?;
        // A cache that cannot be written costs a compile on the next start, nothing more.
        if let Err(e) = self.store(&path, &digest_path, &compiled) {
            tracing::warn!(error = %e, dir = %self.dir.display(), "could not write the component cache");
        }
        Ok(component)
    }

    fn store(&self, path: &PathBuf, digest_path: &PathBuf, compiled: &[u8]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, compiled)?;
        std::fs::rename(&tmp, path)?;
        let tmp = digest_path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, sha256_hex(compiled))?;
        std::fs::rename(&tmp, digest_path)
    }
}

/// Deserialises a compiled component.
#[allow(unsafe_code)]
fn deserialize(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Component> {
    // SAFETY: wasmtime requires that the bytes come from `Engine::precompile_component` of
    // a compatible engine and were not tampered with. They were produced by this process or
    // read from our own cache directory and checked against the digest written beside them;
    // wasmtime checks engine compatibility itself and errors on a mismatch.
    unsafe { Component::deserialize(engine, bytes) }
}
