//! Compiled components on disk, keyed by the component's sha256 and the engine's
//! compatibility hash, so a restart deserialises instead of compiling again.

use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use wasmtime::Engine;
use wasmtime::component::Component;

use pixgate_domain::sha256_hex;

use super::SandboxError;

pub(super) struct ModuleCache {
    dir: PathBuf,
    engine_key: String,
    /// The most the directory may hold; the least recently used entries go first.
    max_bytes: u64,
}

/// A compiled component not yet on disk: written by [`ModuleCache::keep`] once the component
/// is accepted, so refused uploads leave nothing behind.
pub(super) struct Compiled(Vec<u8>);

impl ModuleCache {
    pub fn new(dir: PathBuf, engine: &Engine, max_bytes: u64) -> Self {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        Self {
            dir,
            engine_key: format!("{:016x}", hasher.finish()),
            max_bytes,
        }
    }

    pub fn set_max_bytes(&mut self, max_bytes: u64) {
        self.max_bytes = max_bytes;
    }

    fn paths(&self, sha256: &str) -> (PathBuf, PathBuf) {
        let path = self.dir.join(format!("{sha256}-{}.cwasm", self.engine_key));
        let digest = path.with_extension("cwasm.sha256");
        (path, digest)
    }

    /// The compiled component for `wasm` (whose sha256 is `sha256`): from the disk, or
    /// compiled in the pool `pool` gives (asked for only on a miss), with the bytes to
    /// [`keep`](Self::keep) once it is accepted. A damaged or foreign cache entry is replaced,
    /// never trusted.
    pub fn get_or_compile<'p>(
        &self,
        engine: &Engine,
        pool: impl FnOnce() -> Result<&'p rayon::ThreadPool, SandboxError>,
        sha256: &str,
        wasm: &[u8],
    ) -> Result<(Component, Option<Compiled>), SandboxError> {
        let (path, digest_path) = self.paths(sha256);
        if let (Ok(bytes), Ok(digest)) =
            (std::fs::read(&path), std::fs::read_to_string(&digest_path))
            && sha256_hex(&bytes) == digest.trim()
            && let Ok(component) = deserialize(engine, &bytes)
        {
            // Its time of last use, for the eviction order.
            let _ = std::fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|f| f.set_modified(std::time::SystemTime::now()));
            return Ok((component, None));
        }
        let (component, compiled) = compile(engine, pool()?, wasm)?;
        Ok((component, Some(compiled)))
    }

    /// Writes an accepted component's compiled form, then evicts the least recently used
    /// entries beyond the size bound.
    pub fn keep(&self, sha256: &str, compiled: Compiled) {
        let (path, digest_path) = self.paths(sha256);
        // A cache that cannot be written costs a compile on the next start, nothing more.
        if let Err(e) = self.store(&path, &digest_path, &compiled.0) {
            tracing::warn!(error = %e, dir = %self.dir.display(), "could not write the component cache");
        }
        if let Err(e) = self.evict(&path) {
            tracing::warn!(error = %e, dir = %self.dir.display(), "could not trim the component cache");
        }
    }

    /// Removes the compiled form of a deleted version.
    pub fn forget(&self, sha256: &str) {
        let (path, digest_path) = self.paths(sha256);
        for p in [path, digest_path] {
            match std::fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    tracing::warn!(error = %e, file = %p.display(), "could not remove a cached component")
                }
            }
        }
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

    /// Deletes the least recently used compiled components (of any engine, so an upgrade's
    /// leftovers go too) until the directory fits its bound; `keep` itself stays.
    fn evict(&self, keep: &std::path::Path) -> std::io::Result<()> {
        let mut entries = Vec::new();
        let mut total = 0u64;
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            let meta = entry.metadata()?;
            if !meta.is_file() {
                continue;
            }
            total += meta.len();
            if entry.path().extension().is_some_and(|e| e == "cwasm") {
                entries.push((meta.modified()?, meta.len(), entry.path()));
            }
        }
        entries.sort();
        for (_, len, path) in entries {
            if total <= self.max_bytes {
                break;
            }
            if path == keep {
                continue;
            }
            let digest = path.with_extension("cwasm.sha256");
            let digest_len = std::fs::metadata(&digest).map_or(0, |m| m.len());
            std::fs::remove_file(&path)?;
            let _ = std::fs::remove_file(&digest);
            total = total.saturating_sub(len + digest_len);
        }
        Ok(())
    }
}

/// Compiles `wasm`, telling the two ways it can be refused apart by where they happen: it does
/// not validate or compile (`InvalidComponent`), or it compiles but one instance of it would
/// need more than the engine's pool allows, e.g. more imports than an instance's context may
/// hold (`ExceedsLimits`). Both are the component's fault, never the host's.
/// wasmtime compiles a component's functions in parallel on the rayon pool it is called in:
/// `pool` (see [`crate::Sandbox::with_compile_threads`]) bounds how many cores one compile
/// takes from the charges.
pub(super) fn compile(
    engine: &Engine,
    pool: &rayon::ThreadPool,
    wasm: &[u8],
) -> Result<(Component, Compiled), SandboxError> {
    let started = std::time::Instant::now();
    let compiled = pool
        .install(|| engine.precompile_component(wasm))
        // On one line: some parser messages print the bytes they expected, one per line.
        .map_err(|e| {
            let text = format!("{e:#}");
            SandboxError::InvalidComponent(text.split_whitespace().collect::<Vec<_>>().join(" "))
        })?;
    // A JavaScript or Python engine takes seconds; say so where an operator looks.
    tracing::info!(
        bytes = wasm.len(),
        compiled_bytes = compiled.len(),
        threads = pool.current_num_threads(),
        ms = started.elapsed().as_millis() as u64,
        "sandbox: compiled a component"
    );
    let component = deserialize(engine, &compiled)
        .map_err(|e| SandboxError::ExceedsLimits(format!("{e:#}")))?;
    Ok((component, Compiled(compiled)))
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
