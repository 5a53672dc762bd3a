//! `pixgate policy new`: writes a component project for one step that builds on its own,
//! outside this repository: a Rust crate (`cargo build --release --target wasm32-wasip2`), a
//! JavaScript package (`npm ci && npm run build`, componentize-js) or a Python project
//! (`python3 build.py`, componentize-py).
//!
//! The files are the ones under `policies/template/`, `policies/template-js/` and
//! `policies/template-python/` (kept there as plain files to read, review and build: CI builds
//! the JavaScript and Python ones with `.ci/kits.sh`) and `wit/chain.wit`, compiled into the
//! binary so the command works offline and always writes the interface this binary speaks.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use pixgate_domain::Step;

use super::admin::CliError;
use super::step_arg;

const CARGO_TOML: &str = include_str!("../../../policies/template/Cargo.toml.tmpl");
const README: &str = include_str!("../../../policies/template/README.md.tmpl");
const GITIGNORE: &str = include_str!("../../../policies/template/gitignore");
/// The dependencies' exact versions, so a new crate builds with what pixgate was tested with
/// (and offline, from what an earlier build downloaded), as its npm and pip kits do.
const CARGO_LOCK: &str = include_str!("../../../policies/template/Cargo.lock.tmpl");
const WIT: &str = include_str!("../../../wit/chain.wit");

/// The JavaScript kit: a real npm package in the repository (so `npm ci` works there), whose
/// name and step `files` rewrites; the TypeScript declarations of every world.
mod js {
    pub const PACKAGE_JSON: &str = include_str!("../../../policies/template-js/package.json");
    pub const PACKAGE_LOCK: &str = include_str!("../../../policies/template-js/package-lock.json");
    pub const BUILD: &str = include_str!("../../../policies/template-js/build.mjs");
    pub const TSCONFIG: &str = include_str!("../../../policies/template-js/tsconfig.json");
    pub const GITIGNORE: &str = include_str!("../../../policies/template-js/.gitignore");
    pub const README: &str = include_str!("../../../policies/template-js/README.md.tmpl");
    /// What the repository's files say, and `files` replaces.
    pub const NAME: &str = "\"name\": \"pixgate-step\"";
    pub const STEP: &str = "\"step\": \"provider\"";
    pub const TYPES: [(&str, &str); 8] = [
        (
            "types/policy-step.d.ts",
            include_str!("../../../policies/template-js/types/policy-step.d.ts"),
        ),
        (
            "types/provider-step.d.ts",
            include_str!("../../../policies/template-js/types/provider-step.d.ts"),
        ),
        (
            "types/economics-step.d.ts",
            include_str!("../../../policies/template-js/types/economics-step.d.ts"),
        ),
        (
            "types/interfaces/pixgate-chain-types.d.ts",
            include_str!("../../../policies/template-js/types/interfaces/pixgate-chain-types.d.ts"),
        ),
        (
            "types/interfaces/pixgate-chain-host-log.d.ts",
            include_str!(
                "../../../policies/template-js/types/interfaces/pixgate-chain-host-log.d.ts"
            ),
        ),
        (
            "types/interfaces/pixgate-chain-policy.d.ts",
            include_str!(
                "../../../policies/template-js/types/interfaces/pixgate-chain-policy.d.ts"
            ),
        ),
        (
            "types/interfaces/pixgate-chain-provider-selection.d.ts",
            include_str!(
                "../../../policies/template-js/types/interfaces/pixgate-chain-provider-selection.d.ts"
            ),
        ),
        (
            "types/interfaces/pixgate-chain-economics.d.ts",
            include_str!(
                "../../../policies/template-js/types/interfaces/pixgate-chain-economics.d.ts"
            ),
        ),
    ];

    pub fn source(step: pixgate_domain::Step) -> &'static str {
        match step {
            pixgate_domain::Step::Policy => {
                include_str!("../../../policies/template-js/src/policy.js")
            }
            pixgate_domain::Step::Provider => {
                include_str!("../../../policies/template-js/src/provider.js")
            }
            pixgate_domain::Step::Economics => {
                include_str!("../../../policies/template-js/src/economics.js")
            }
        }
    }
}

/// The Python kit: `build.py` names the step and the project, which `files` rewrites.
mod python {
    pub const REQUIREMENTS: &str =
        include_str!("../../../policies/template-python/requirements.txt");
    pub const BUILD: &str = include_str!("../../../policies/template-python/build.py");
    pub const GITIGNORE: &str = include_str!("../../../policies/template-python/.gitignore");
    pub const README: &str = include_str!("../../../policies/template-python/README.md.tmpl");
    /// What the repository's `build.py` says, and `files` replaces.
    pub const NAME: &str = "NAME = \"pixgate-step\"";
    pub const STEP: &str = "STEP = \"provider\"";

    pub fn source(step: pixgate_domain::Step) -> &'static str {
        match step {
            pixgate_domain::Step::Policy => {
                include_str!("../../../policies/template-python/src/policy.py")
            }
            pixgate_domain::Step::Provider => {
                include_str!("../../../policies/template-python/src/provider.py")
            }
            pixgate_domain::Step::Economics => {
                include_str!("../../../policies/template-python/src/economics.py")
            }
        }
    }
}

/// The language a new component is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Lang {
    /// A Rust crate built for `wasm32-wasip2`.
    Rust,
    /// JavaScript (or TypeScript compiled to it), built with componentize-js.
    Js,
    /// Python, built with componentize-py.
    Python,
}

/// The example code and the sample input of a step.
fn step_files(step: Step) -> (&'static str, &'static str) {
    match step {
        Step::Policy => (
            include_str!("../../../policies/template/src/policy.rs"),
            include_str!("../../../policies/samples/policy.json"),
        ),
        Step::Provider => (
            include_str!("../../../policies/template/src/provider.rs"),
            include_str!("../../../policies/samples/provider.json"),
        ),
        Step::Economics => (
            include_str!("../../../policies/template/src/economics.rs"),
            include_str!("../../../policies/samples/economics.json"),
        ),
    }
}

#[derive(Debug, Args)]
pub(super) struct NewArgs {
    /// The project's name (lowercase letters, digits, `-` and `_`, starting with a letter).
    #[arg(value_parser = crate_name)]
    name: String,
    /// The step the component implements.
    #[arg(long, value_parser = step_arg())]
    step: Step,
    /// The language to write it in.
    #[arg(long, value_enum, default_value_t = Lang::Rust)]
    lang: Lang,
    /// Directory to write the project into (created; must be empty if it exists).
    /// Default: `./<name>`.
    #[arg(long, value_name = "PATH")]
    dir: Option<PathBuf>,
}

fn crate_name(text: &str) -> Result<String, String> {
    let mut chars = text.chars();
    let valid = text.len() <= 64
        && chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if valid {
        Ok(text.to_owned())
    } else {
        Err("1 to 64 lowercase letters, digits, `-` and `_`, starting with a letter".to_owned())
    }
}

/// The project's files: path relative to the project, contents.
fn files(name: &str, step: Step, lang: Lang) -> Vec<(&'static str, String)> {
    let (lib, sample) = step_files(step);
    let (world, export, input_extra) = match step {
        Step::Policy => ("policy-step", "decide", ""),
        Step::Provider => (
            "provider-step",
            "rank",
            ", the policy step's decision and the store's gateways with their fee terms \
             and health",
        ),
        Step::Economics => (
            "economics-step",
            "evaluate",
            ", the policy step's decision, the ranked gateways and the bank holidays",
        ),
    };
    let fill = |template: &str| {
        template
            .replace("{{name}}", name)
            .replace("{{crate}}", &name.replace('-', "_"))
            .replace("{{step}}", step.as_str())
            .replace("{{world}}", world)
            .replace("{{export}}", export)
            .replace("{{input_extra}}", input_extra)
    };
    let common = [
        ("wit/chain.wit", WIT.to_owned()),
        ("sample-input.json", sample.to_owned()),
    ];
    let mut files = match lang {
        Lang::Rust => vec![
            ("Cargo.toml", fill(CARGO_TOML)),
            ("Cargo.lock", sorted_lock(&fill(CARGO_LOCK))),
            ("README.md", fill(README)),
            (".gitignore", GITIGNORE.to_owned()),
            ("src/lib.rs", lib.to_owned()),
        ],
        Lang::Js => {
            let name_field = format!("\"name\": \"{name}\"");
            let step_field = format!("\"step\": \"{}\"", step.as_str());
            let mut files = vec![
                (
                    "package.json",
                    js::PACKAGE_JSON
                        .replace(js::NAME, &name_field)
                        .replace(js::STEP, &step_field),
                ),
                (
                    "package-lock.json",
                    js::PACKAGE_LOCK.replace(js::NAME, &name_field),
                ),
                ("build.mjs", js::BUILD.to_owned()),
                ("tsconfig.json", js::TSCONFIG.to_owned()),
                (".gitignore", js::GITIGNORE.to_owned()),
                ("README.md", fill(js::README)),
                (js_source_path(step), js::source(step).to_owned()),
            ];
            files.extend(js::TYPES.map(|(path, text)| (path, text.to_owned())));
            files
        }
        Lang::Python => vec![
            ("requirements.txt", python::REQUIREMENTS.to_owned()),
            (
                "build.py",
                python::BUILD
                    .replace(python::NAME, &format!("NAME = \"{name}\""))
                    .replace(python::STEP, &format!("STEP = \"{}\"", step.as_str())),
            ),
            (".gitignore", python::GITIGNORE.to_owned()),
            ("README.md", fill(python::README)),
            (python_source_path(step), python::source(step).to_owned()),
        ],
    };
    files.extend(common);
    files
}

/// Where a JavaScript project keeps its step's module (`build.mjs` looks there).
fn js_source_path(step: Step) -> &'static str {
    match step {
        Step::Policy => "src/policy.js",
        Step::Provider => "src/provider.js",
        Step::Economics => "src/economics.js",
    }
}

/// Where a Python project keeps its step's module (`build.py` looks there).
fn python_source_path(step: Step) -> &'static str {
    match step {
        Step::Policy => "src/policy.py",
        Step::Provider => "src/provider.py",
        Step::Economics => "src/economics.py",
    }
}

/// Writes the crate into `dir`, which must not exist or be empty.
fn write(dir: &Path, files: &[(&str, String)]) -> Result<(), CliError> {
    let io = |path: &Path, e: std::io::Error| {
        CliError::local("directory_unwritable", format!("{}: {e}", path.display()))
    };
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(CliError::local(
                    "directory_not_empty",
                    format!("{} exists and is not empty", dir.display()),
                ));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(dir, e)),
    }
    for (relative, contents) in files {
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        std::fs::write(&path, contents).map_err(|e| io(&path, e))?;
    }
    Ok(())
}

pub(super) fn new(args: &NewArgs) -> Result<(), CliError> {
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| Path::new(".").join(&args.name));
    write(&dir, &files(&args.name, args.step, args.lang))?;
    let (what, build, wasm) = match args.lang {
        Lang::Rust => (
            "crate",
            "cargo build --release --target wasm32-wasip2",
            dir.join("target/wasm32-wasip2/release")
                .join(format!("{}.wasm", args.name.replace('-', "_"))),
        ),
        Lang::Js => (
            "JavaScript package",
            "npm ci && npm run build",
            dir.join("dist").join(format!("{}.wasm", args.name)),
        ),
        Lang::Python => (
            "Python project",
            "python3 -m pip install --require-hashes -r requirements.txt && python3 build.py",
            dir.join("dist").join(format!("{}.wasm", args.name)),
        ),
    };
    // The JavaScript and Python builds end with `pixgate policy seal`: say which binary they
    // need when this one is not the `pixgate` on the PATH.
    let seal = match args.lang {
        Lang::Rust => String::new(),
        Lang::Js | Lang::Python => format!(
            "           (the build ends with `pixgate policy seal`: it runs the `pixgate` on \
             your PATH, or the one $PIXGATE names, e.g. PIXGATE={})\n",
            std::env::current_exe()
                .map(|exe| exe.display().to_string())
                .unwrap_or_else(|_| "/path/to/pixgate".into())
        ),
    };
    println!(
        "created the {step} component {what} `{name}` in {dir}\n\n\
         build it:  (cd {dir} && {build})\n\
         {seal}\
         try it:    pixgate policy run --step {step} --component {wasm} --input {sample}\n\n\
         {dir}/README.md goes on from there: replay, upload, shadow, activate, roll back.",
        step = args.step.as_str(),
        name = args.name,
        dir = dir.display(),
        wasm = wasm.display(),
        sample = dir.join("sample-input.json").display(),
    );
    Ok(())
}

/// A filled-in `Cargo.lock` with its packages in cargo's order (by name): the crate's own
/// entry moves with its name, and a lock file cargo would write the same is never rewritten.
fn sorted_lock(lock: &str) -> String {
    let mut parts = lock.split("\n[[package]]\n");
    let head = parts.next().unwrap_or_default();
    let mut packages: Vec<&str> = parts.collect();
    let name = |p: &str| {
        p.lines()
            .find_map(|l| l.strip_prefix("name = "))
            .unwrap_or_default()
            .to_owned()
    };
    packages.sort_by_key(|p| name(p));
    let mut out = head.to_owned();
    for package in packages {
        out.push_str("\n[[package]]\n");
        out.push_str(package.trim_end_matches('\n'));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cargo_package_names() {
        for good in ["my-ranking", "a", "policy_v2", "x1-2_3"] {
            assert_eq!(crate_name(good).as_deref(), Ok(good));
        }
        for bad in [
            "",
            "My-ranking",
            "1policy",
            "-x",
            "a b",
            "a/b",
            "é",
            &"a".repeat(65),
        ] {
            assert!(crate_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_placeholder_is_filled() {
        for step in Step::ALL {
            let files = files("my-ranking", step, Lang::Rust);
            for (path, contents) in &files {
                assert!(!contents.contains("{{"), "{path} of {step:?}: {contents}");
            }
            let get = |p: &str| &files.iter().find(|(path, _)| *path == p).unwrap().1;
            assert!(get("Cargo.toml").contains("name = \"my-ranking\""));
            // The world the example implements is the step's.
            let world = pixgate_sandbox::world(step);
            let world = world
                .trim_start_matches("pixgate:chain/")
                .trim_end_matches("@1.1.0");
            assert!(
                get("src/lib.rs").contains(&format!("world: \"{world}\"")),
                "{step:?}"
            );
            assert!(get("README.md").contains(&format!(
                "--step {} --component target/wasm32-wasip2/release/my_ranking.wasm",
                step.as_str()
            )));
            // The sample input is a valid input of the step.
            let sample: serde_json::Value = serde_json::from_str(get("sample-input.json")).unwrap();
            assert!(sample["charge"].is_object());
        }
    }

    #[test]
    fn writes_into_an_empty_directory_only() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("my-ranking");
        let files = files("my-ranking", Step::Provider, Lang::Rust);
        write(&dir, &files).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("wit/chain.wit")).unwrap(),
            WIT
        );
        let e = write(&dir, &files).unwrap_err();
        assert!(
            matches!(
                e,
                CliError::Local {
                    code: "directory_not_empty",
                    ..
                }
            ),
            "{e}"
        );
        // An existing empty directory is fine (e.g. one made by `mktemp -d`).
        write(tmp.path().join("empty").as_path(), &[]).unwrap();
        std::fs::create_dir(tmp.path().join("made")).unwrap();
        write(&tmp.path().join("made"), &files).unwrap();
    }

    fn get<'a>(files: &'a [(&str, String)], path: &str) -> &'a str {
        &files
            .iter()
            .find(|(p, _)| *p == path)
            .unwrap_or_else(|| panic!("no {path}"))
            .1
    }

    #[test]
    fn the_repository_templates_hold_what_new_rewrites() {
        // `files` rewrites these exact strings; a template edit that drops one would leave
        // the default name or step in a new project.
        assert!(js::PACKAGE_JSON.contains(js::NAME));
        assert!(js::PACKAGE_JSON.contains(js::STEP));
        assert_eq!(js::PACKAGE_LOCK.matches(js::NAME).count(), 2);
        assert!(python::BUILD.contains(python::NAME));
        assert!(python::BUILD.contains(python::STEP));
    }

    #[test]
    fn a_javascript_project_names_its_step_and_itself() {
        for step in Step::ALL {
            let files = files("my-ranking", step, Lang::Js);
            for (path, contents) in &files {
                assert!(!contents.contains("{{"), "{path} of {step:?}: {contents}");
            }
            let package: serde_json::Value =
                serde_json::from_str(get(&files, "package.json")).unwrap();
            assert_eq!(package["name"], "my-ranking");
            assert_eq!(package["pixgate"]["step"], step.as_str());
            assert_eq!(package["scripts"]["build"], "node build.mjs");
            let lock: serde_json::Value =
                serde_json::from_str(get(&files, "package-lock.json")).unwrap();
            assert_eq!(lock["name"], "my-ranking");
            assert_eq!(lock["packages"][""]["name"], "my-ranking");
            // The lock pins what package.json asks for.
            assert_eq!(
                lock["packages"][""]["devDependencies"],
                package["devDependencies"]
            );
            // The example exports the step's interface, typed against the declarations.
            let source = get(&files, js_source_path(step));
            assert!(source.starts_with("// @ts-check"), "{step:?}");
            let export = match step {
                Step::Policy => "export const policy = {",
                Step::Provider => "export const providerSelection = {",
                Step::Economics => "export const economics = {",
            };
            assert!(source.contains(export), "{step:?}");
            let world = pixgate_sandbox::world(step);
            let world = world
                .trim_start_matches("pixgate:chain/")
                .trim_end_matches("@1.1.0");
            assert!(get(&files, &format!("types/{world}.d.ts")).contains(world));
            let readme = get(&files, "README.md");
            assert!(readme.contains(&format!(
                "pixgate policy run --step {} --component dist/my-ranking.wasm --input sample-input.json",
                step.as_str()
            )));
            assert!(readme.contains("npm run build"));
            assert!(get(&files, "wit/chain.wit") == WIT);
            let sample: serde_json::Value =
                serde_json::from_str(get(&files, "sample-input.json")).unwrap();
            assert!(sample["charge"].is_object());
        }
    }

    #[test]
    fn a_python_project_names_its_step_and_itself() {
        for step in Step::ALL {
            let files = files("my-ranking", step, Lang::Python);
            for (path, contents) in &files {
                assert!(!contents.contains("{{"), "{path} of {step:?}: {contents}");
            }
            let build = get(&files, "build.py");
            assert!(build.contains(&format!("STEP = \"{}\"", step.as_str())));
            assert!(build.contains("NAME = \"my-ranking\""));
            assert!(get(&files, "requirements.txt").contains("componentize-py=="));
            let class = match step {
                Step::Policy => "class Policy(exports.Policy):",
                Step::Provider => "class ProviderSelection(exports.ProviderSelection):",
                Step::Economics => "class Economics(exports.Economics):",
            };
            assert!(get(&files, python_source_path(step)).contains(class));
            let readme = get(&files, "README.md");
            assert!(readme.contains(&format!(
                "pixgate policy run --step {} --component dist/my-ranking.wasm --input sample-input.json",
                step.as_str()
            )));
            assert!(readme.contains("python3 build.py"));
            assert!(get(&files, "wit/chain.wit") == WIT);
        }
    }
}
