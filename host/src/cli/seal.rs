//! `pixgate policy seal`: answers a built component's file and socket imports inside it, with
//! nothing (see `pixgate_sandbox::seal`). The kits' build commands run it after
//! componentize-js or componentize-py; a Rust `wasm32-wasip2` build runs it after cargo.

use std::path::PathBuf;

use clap::Args;

use super::admin::CliError;

#[derive(Debug, Args)]
pub(super) struct SealArgs {
    /// The component to seal (.wasm).
    component: PathBuf,
    /// Where to write the sealed component; the component's own file when left out.
    #[arg(long, short)]
    out: Option<PathBuf>,
}

pub(super) fn seal(args: &SealArgs) -> Result<(), CliError> {
    let path = &args.component;
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::local("component_unreadable", format!("{}: {e}", path.display())))?;
    let sealed = pixgate_sandbox::seal(&bytes)
        .map_err(|e| CliError::local(e.code(), format!("{}: {e}", path.display())))?;
    let out = args.out.as_ref().unwrap_or(path);
    // Through a temporary file beside it: a build stopped halfway leaves the old file whole.
    let tmp = out.with_extension("wasm.sealing");
    std::fs::write(&tmp, &sealed.bytes)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| CliError::local("component_unwritable", format!("{}: {e}", out.display())))?;
    if sealed.sealed_imports.is_empty() {
        println!(
            "{}: imports no files or sockets; nothing to seal",
            out.display()
        );
    } else {
        println!(
            "sealed {} ({:.1} MB): no files and no network behind {}",
            out.display(),
            sealed.bytes.len() as f64 / 1e6,
            sealed.sealed_imports.join(", ")
        );
    }
    Ok(())
}
