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
//! | `wasi:filesystem` | nothing preopened: there is no descriptor to open a file from | the JavaScript (componentize-js) and Python (componentize-py) engines import it whatever the code does |
//! | `wasi:sockets` | TCP, UDP and name lookup denied: creating a socket answers `access-denied` before any socket of the host exists, and a name lookup fails without a query | every componentize-py component imports it (its libc links the socket calls), and so does a Rust `wasm32-wasip2` component that names `std::net` |
//!
//! Refused: `wasi:http` (an HTTP client or server is the network itself; componentize-js
//! imports it unless it is built with its `http` and `fetch-event` features off) and every
//! other `wasi:` package (key-value stores, configuration, messaging, blob stores, ...): each
//! reaches a service outside the call.
//!
//! Why files and sockets are served inert rather than refused: refusing their imports would
//! refuse every Python component and the JavaScript engine, which import them through their
//! libc whether or not the step's code uses them. What keeps a step away from files and the
//! network is that those imports can do nothing: no preopened directory, no permitted socket
//! address, no name lookup. The tests prove both (a step that tries to read a file or connect
//! sees it fail; an upload importing `wasi:http` is refused).

use crate::SandboxError;

/// The WASI packages a component may import (see the module docs for what each one is).
const SERVED_WASI: &[&str] = &[
    "wasi:io/",
    "wasi:cli/",
    "wasi:clocks/",
    "wasi:random/",
    "wasi:filesystem/",
    "wasi:sockets/",
];

/// Refuses the first import that reaches outside the sandbox, naming it.
pub(crate) fn check<'a>(imports: impl IntoIterator<Item = &'a str>) -> Result<(), SandboxError> {
    for name in imports {
        let Some(package) = name.strip_prefix("wasi:") else {
            continue;
        };
        if SERVED_WASI.iter().any(|served| name.starts_with(served)) {
            continue;
        }
        let what = if package.starts_with("http/") {
            "HTTP is the network, and a step decides from its input alone"
        } else {
            "it reaches a service outside the call, and a step decides from its input alone"
        };
        return Err(SandboxError::InvalidComponent(format!(
            "it imports `{name}`: {what}; a step may import only wasi:io, wasi:cli, \
             wasi:clocks, wasi:random, wasi:filesystem and wasi:sockets (served with no files \
             and no network)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `wasm-tools component wit` lists for the kits' components.
    const JAVASCRIPT: &[&str] = &[
        "pixgate:chain/host-log@1.0.0",
        "pixgate:chain/types@1.0.0",
        "wasi:io/poll@0.2.12",
        "wasi:clocks/monotonic-clock@0.2.12",
        "wasi:io/error@0.2.12",
        "wasi:io/streams@0.2.12",
        "wasi:cli/stdin@0.2.12",
        "wasi:cli/stdout@0.2.12",
        "wasi:cli/stderr@0.2.12",
        "wasi:cli/terminal-input@0.2.12",
        "wasi:cli/terminal-output@0.2.12",
        "wasi:cli/terminal-stdin@0.2.12",
        "wasi:cli/terminal-stdout@0.2.12",
        "wasi:cli/terminal-stderr@0.2.12",
        "wasi:clocks/wall-clock@0.2.12",
        "wasi:filesystem/types@0.2.12",
        "wasi:filesystem/preopens@0.2.12",
        "wasi:random/random@0.2.12",
    ];
    const PYTHON_EXTRA: &[&str] = &[
        "wasi:cli/environment@0.2.9",
        "wasi:cli/exit@0.2.9",
        "wasi:sockets/network@0.2.9",
        "wasi:sockets/instance-network@0.2.9",
        "wasi:sockets/udp@0.2.9",
        "wasi:sockets/udp-create-socket@0.2.9",
        "wasi:sockets/tcp@0.2.9",
        "wasi:sockets/tcp-create-socket@0.2.9",
        "wasi:sockets/ip-name-lookup@0.2.9",
    ];

    #[test]
    fn the_engines_of_the_kits_are_allowed() {
        check(JAVASCRIPT.iter().copied()).unwrap();
        check(JAVASCRIPT.iter().chain(PYTHON_EXTRA).copied()).unwrap();
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
            let imports = JAVASCRIPT.iter().copied().chain([name]);
            let err = check(imports).unwrap_err();
            assert_eq!(err.code(), "invalid_component");
            let message = err.to_string();
            assert!(message.contains(&format!("`{name}`")), "{message}");
            assert!(message.contains(why), "{message}");
        }
    }

    #[test]
    fn a_name_that_only_starts_like_a_served_package_is_refused() {
        // `wasi:iox/...` is not `wasi:io/...`.
        assert!(check(["wasi:iox/streams@0.2.0"]).is_err());
        assert!(check(["wasi:sockets-extra/tcp@0.1.0"]).is_err());
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
    fn loading_refuses_a_component_that_imports_http() {
        let sandbox = crate::Sandbox::new(crate::Limits::default(), None).unwrap();
        let err = sandbox
            .load(
                pixgate_domain::Step::Provider,
                &importing("wasi:http/outgoing-handler@0.2.0"),
            )
            .unwrap_err();
        assert_eq!(err.code(), "invalid_component", "{err}");
        assert!(
            err.to_string()
                .contains("`wasi:http/outgoing-handler@0.2.0`"),
            "{err}"
        );
        // Sockets pass the rule (they are served denied); this one then lacks the export.
        let err = sandbox
            .load(
                pixgate_domain::Step::Provider,
                &importing("wasi:sockets/tcp@0.2.0"),
            )
            .unwrap_err();
        assert_eq!(err.code(), "wrong_world", "{err}");
    }
}
