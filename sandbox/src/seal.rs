//! Sealing: what `pixgate policy seal` does to an author's component before it is uploaded.
//!
//! The JavaScript and Python engines, and Rust's `wasm32-wasip2` standard library, import
//! `wasi:filesystem` and often `wasi:sockets` through their libc, whatever the step's own code
//! does. The sandbox refuses those imports at upload (`imports.rs`): a step decides from its
//! input alone. Sealing composes the component with the deny adapter
//! (`policies/guests/deny`), which exports both packages with nothing behind them (no
//! preopened directory; every socket and name lookup `access-denied`), so the sealed component
//! no longer imports them and the engine inside still links. The composition is
//! [`wac_graph::plug`], the library behind `wac plug`: it matches the adapter's 0.2.12 exports
//! to any 0.2.x import and merges the adapter's own `wasi:io` imports with the component's.

use wac_graph::types::Package;
use wac_graph::{CompositionGraph, EncodeOptions, PlugError};

use crate::SandboxError;
use crate::imports::is_sealed;

/// The deny adapter, built by `build.rs` from `policies/guests/deny`.
const DENY_ADAPTER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/pixgate_guest_deny.wasm"));

/// A sealed component and the imports the adapter now answers inside it.
#[derive(Debug)]
pub struct Sealed {
    /// The component to upload.
    pub bytes: Vec<u8>,
    /// The imports the adapter took over, in the component's order; empty when the component
    /// imported neither files nor sockets (it is then returned as it was).
    pub sealed_imports: Vec<String>,
}

/// Seals `component`: its `wasi:filesystem` and `wasi:sockets` imports are answered by the deny
/// adapter inside it. Sealing a component that imports neither (one sealed already, a bundled
/// step) returns it unchanged.
pub fn seal(component: &[u8]) -> Result<Sealed, SandboxError> {
    let invalid = |e: &dyn std::fmt::Display| SandboxError::InvalidComponent(format!("{e:#}"));
    let mut graph = CompositionGraph::new();
    let step = Package::from_bytes("pixgate:step", None, component.to_vec(), graph.types_mut())
        .map_err(|e| invalid(&e))?;
    let step = graph.register_package(step).map_err(|e| invalid(&e))?;
    let sealed_imports = file_and_socket_imports(&graph, step);
    if sealed_imports.is_empty() {
        return Ok(Sealed {
            bytes: component.to_vec(),
            sealed_imports,
        });
    }
    let adapter = Package::from_bytes(
        "pixgate:deny",
        None,
        DENY_ADAPTER.to_vec(),
        graph.types_mut(),
    )
    .map_err(|e| SandboxError::Internal(format!("the deny adapter does not load: {e:#}")))?;
    let adapter = graph
        .register_package(adapter)
        .map_err(|e| SandboxError::Internal(format!("{e:#}")))?;
    wac_graph::plug(&mut graph, vec![adapter], step).map_err(|e| match e {
        // An import of a WASI version the adapter's exports are not compatible with.
        PlugError::NoPlugHappened => SandboxError::InvalidComponent(format!(
            "its imports {} match no export of the deny adapter (WASI 0.2.x)",
            sealed_imports.join(", ")
        )),
        PlugError::GraphError { source } => invalid(&source),
    })?;
    let bytes = graph
        .encode(EncodeOptions::default())
        .map_err(|e| invalid(&e))?;

    // Every file and socket import must be gone: one the adapter could not match (a 0.3
    // version, say) would otherwise be left for the upload to refuse, after a build that said
    // it sealed.
    let left: Vec<String> = imports(&bytes)
        .ok_or_else(|| SandboxError::Internal("the sealed component does not load".into()))?
        .into_iter()
        .filter(|name| is_sealed(name))
        .collect();
    if !left.is_empty() {
        return Err(SandboxError::InvalidComponent(format!(
            "its imports {} match no export of the deny adapter (WASI 0.2.x)",
            left.join(", ")
        )));
    }
    Ok(Sealed {
        bytes,
        sealed_imports,
    })
}

/// The names `wasm` imports, read without compiling it; `None` when it does not parse as a
/// component (loading it then says why).
pub(crate) fn imports(wasm: &[u8]) -> Option<Vec<String>> {
    let mut graph = CompositionGraph::new();
    let package =
        Package::from_bytes("pixgate:step", None, wasm.to_vec(), graph.types_mut()).ok()?;
    let package = graph.register_package(package).ok()?;
    Some(import_names(&graph, package).cloned().collect())
}

/// The package's imports that sealing takes over.
fn file_and_socket_imports(graph: &CompositionGraph, package: wac_graph::PackageId) -> Vec<String> {
    import_names(graph, package)
        .filter(|name| is_sealed(name))
        .cloned()
        .collect()
}

/// The names a registered package imports, in its order.
fn import_names(
    graph: &CompositionGraph,
    package: wac_graph::PackageId,
) -> impl Iterator<Item = &String> {
    graph.types()[graph[package].ty()].imports.keys()
}
