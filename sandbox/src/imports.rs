//! Which WASI a component may import: checked by [`crate::Sandbox::load`] before anything is
//! instantiated, so an upload that reaches for the network is refused with
//! `invalid_component`, naming the import.
//!
//! The rule is an allow-list of the WASI packages the sandbox serves, each either
//! deterministic or inert; any other `wasi:` import is refused, whether or not some future
//! linker could satisfy it. Imports outside `wasi:` (other than `pixgate:chain`) are left to
//! the linker, which refuses what it lacks with `unsupported_import`.
//!
//! | package | served as | why it is allowed |
//! |---|---|---|
//! | `wasi:io`, `wasi:cli` (stdio, terminal, environment, exit) | empty stdin, stdout/stderr kept in the log, no environment, no arguments | every language runtime imports them |
//! | `wasi:clocks`, `wasi:random` | the step's `env`: a frozen wall clock at `nowMs`, a still monotonic clock, a stream from `seed` | they make `Date.now()`, `time.time()` and `Math.random()` replay exactly |
//!
//! Refused: `wasi:filesystem` and `wasi:sockets` (files and the network; the JavaScript and
//! Python engines and Rust's `wasm32-wasip2` libc import them whatever the step's code does, so
//! `pixgate policy seal`, which the kits' build commands run, answers them inside the component
//! with nothing, see `seal.rs`), `wasi:http` (an HTTP client or server is the network itself;
//! componentize-js imports it unless it is built with its `http` and `fetch-event` features
//! off), and every other `wasi:` package (key-value stores, configuration, messaging, blob
//! stores, ...): each reaches a service outside the call.
//!
//! A version stored before this rule may import files and sockets: the sandbox still links
//! them inert for it (nothing preopened, every socket and lookup denied), so an active version
//! keeps deciding charges after an upgrade ([`Admission::Stored`]). A new upload is checked
//! before it is compiled ([`Admission::New`]).

use crate::SandboxError;

/// The WASI packages a component may import (see the module docs for what each one is).
const SERVED_WASI: &[&str] = &["wasi:io/", "wasi:cli/", "wasi:clocks/", "wasi:random/"];

/// The WASI packages `pixgate policy seal` answers inside a component (see `seal.rs`).
const SEALED_WASI: &[&str] = &["wasi:filesystem/", "wasi:sockets/"];

/// Whether `import` is one that sealing answers inside a component.
pub(crate) fn is_sealed(import: &str) -> bool {
    SEALED_WASI.iter().any(|sealed| import.starts_with(sealed))
}

/// Which component the rule is applied to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admission {
    /// A new upload, or a build tried with `pixgate policy run`: files and sockets must have
    /// been sealed.
    New,
    /// A version loaded from the store: one uploaded before sealing existed may still import
    /// files and sockets, which are linked inert.
    Stored,
}

/// Refuses the first import that reaches outside the sandbox, naming it.
pub(crate) fn check<'a>(
    imports: impl IntoIterator<Item = &'a str>,
    admission: Admission,
) -> Result<(), SandboxError> {
    for name in imports {
        let Some(package) = name.strip_prefix("wasi:") else {
            continue;
        };
        let sealed = is_sealed(name);
        if SERVED_WASI.iter().any(|served| name.starts_with(served))
            || (sealed && admission == Admission::Stored)
        {
            continue;
        }
        let what = if package.starts_with("http/") {
            "HTTP is the network, and a step decides from its input alone"
        } else if sealed {
            "files and sockets are outside the call, and a step decides from its input alone \
             (`pixgate policy seal` answers them inside the component with no files and no \
             network; the kits' build commands run it)"
        } else {
            "it reaches a service outside the call, and a step decides from its input alone"
        };
        return Err(SandboxError::InvalidComponent(format!(
            "it imports `{name}`: {what}; a step may import only wasi:io, wasi:cli, \
             wasi:clocks and wasi:random"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `jco wit` lists for the JavaScript kit's component as componentize-js builds it.
    const JAVASCRIPT: &[&str] = &[
        "pixgate:chain/host-log@1.1.0",
        "pixgate:chain/types@1.1.0",
        "wasi:io/error@0.2.3",
        "wasi:io/poll@0.2.3",
        "wasi:io/streams@0.2.3",
        "wasi:cli/stdin@0.2.3",
        "wasi:cli/stdout@0.2.3",
        "wasi:cli/stderr@0.2.3",
        "wasi:cli/terminal-input@0.2.3",
        "wasi:cli/terminal-output@0.2.3",
        "wasi:cli/terminal-stdin@0.2.3",
        "wasi:cli/terminal-stdout@0.2.3",
        "wasi:cli/terminal-stderr@0.2.3",
        "wasi:clocks/monotonic-clock@0.2.3",
        "wasi:clocks/wall-clock@0.2.3",
        "wasi:random/random@0.2.3",
    ];
    /// What componentize-py's engine adds, besides files and sockets.
    const PYTHON_EXTRA: &[&str] = &["wasi:cli/environment@0.2.9", "wasi:cli/exit@0.2.9"];
    /// What the engines import through their libc, and sealing answers inside the component.
    const FILES_AND_SOCKETS: &[&str] = &[
        "wasi:filesystem/types@0.2.9",
        "wasi:filesystem/preopens@0.2.9",
        "wasi:sockets/network@0.2.9",
        "wasi:sockets/instance-network@0.2.9",
        "wasi:sockets/udp@0.2.9",
        "wasi:sockets/udp-create-socket@0.2.9",
        "wasi:sockets/tcp@0.2.9",
        "wasi:sockets/tcp-create-socket@0.2.9",
        "wasi:sockets/ip-name-lookup@0.2.9",
    ];

    #[test]
    fn the_engines_of_the_kits_are_admitted_once_sealed() {
        for admission in [Admission::New, Admission::Stored] {
            check(JAVASCRIPT.iter().copied(), admission).unwrap();
            check(JAVASCRIPT.iter().chain(PYTHON_EXTRA).copied(), admission).unwrap();
        }
    }

    #[test]
    fn files_and_sockets_are_refused_by_name_in_a_new_upload_and_linked_inert_for_a_stored_one() {
        for name in FILES_AND_SOCKETS {
            let imports = || JAVASCRIPT.iter().copied().chain([*name]);
            let err = check(imports(), Admission::New).unwrap_err();
            assert_eq!(err.code(), "invalid_component");
            let message = err.to_string();
            assert!(message.contains(&format!("`{name}`")), "{message}");
            assert!(message.contains("pixgate policy seal"), "{message}");
            check(imports(), Admission::Stored).unwrap();
        }
    }

    #[test]
    fn http_and_services_outside_the_call_are_refused_by_name() {
        for (name, why) in [
            ("wasi:http/types@0.2.12", "HTTP is the network"),
            ("wasi:http/outgoing-handler@0.2.0", "HTTP is the network"),
            (
                "wasi:keyvalue/store@0.2.0-draft",
                "a service outside the call",
            ),
            (
                "wasi:config/store@0.2.0-draft",
                "a service outside the call",
            ),
        ] {
            for admission in [Admission::New, Admission::Stored] {
                let imports = JAVASCRIPT.iter().copied().chain([name]);
                let err = check(imports, admission).unwrap_err();
                assert_eq!(err.code(), "invalid_component");
                let message = err.to_string();
                assert!(message.contains(&format!("`{name}`")), "{message}");
                assert!(message.contains(why), "{message}");
            }
        }
    }

    #[test]
    fn a_name_that_only_starts_like_a_served_package_is_refused() {
        // `wasi:iox/...` is not `wasi:io/...`.
        assert!(check(["wasi:iox/streams@0.2.0"], Admission::Stored).is_err());
        assert!(check(["wasi:sockets-extra/tcp@0.1.0"], Admission::Stored).is_err());
    }

    /// A component whose only content is an import of an (empty) instance named `name`.
    fn importing(name: &str) -> Vec<u8> {
        use wasm_encoder::{
            Component, ComponentImportSection, ComponentTypeRef, ComponentTypeSection, InstanceType,
        };
        let mut component = Component::new();
        let mut types = ComponentTypeSection::new();
        types.instance(&InstanceType::new());
        component.section(&types);
        let mut imports = ComponentImportSection::new();
        imports.import(name, ComponentTypeRef::Instance(0));
        component.section(&imports);
        component.finish()
    }

    #[test]
    fn an_upload_that_imports_http_or_sockets_is_refused_and_a_stored_one_with_sockets_is_not() {
        let sandbox = crate::Sandbox::new(crate::Limits::default(), None).unwrap();
        let provider = pixgate_domain::Step::Provider;
        for name in ["wasi:http/outgoing-handler@0.2.0", "wasi:sockets/tcp@0.2.0"] {
            let err = sandbox.load_new(provider, &importing(name)).unwrap_err();
            assert_eq!(err.code(), "invalid_component", "{err}");
            assert!(err.to_string().contains(&format!("`{name}`")), "{err}");
        }
        let err = sandbox
            .load(provider, &importing("wasi:http/outgoing-handler@0.2.0"))
            .unwrap_err();
        assert_eq!(err.code(), "invalid_component", "{err}");
        // Sockets pass the stored rule (they are linked denied); this one then lacks the export.
        let err = sandbox
            .load(provider, &importing("wasi:sockets/tcp@0.2.0"))
            .unwrap_err();
        assert_eq!(err.code(), "wrong_world", "{err}");
    }
}
