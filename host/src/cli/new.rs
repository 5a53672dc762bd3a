//! `pixgate policy new`: writes a component crate for one step that builds on its own,
//! outside this repository, with `cargo build --release --target wasm32-wasip2`.
//!
//! The files are the ones under `policies/template/` (kept there as plain files to read and
//! review) and `wit/chain.wit`, compiled into the binary so the command works offline and
//! always writes the interface this binary speaks.

use std::path::{Path, PathBuf};

use clap::Args;
use pixgate_domain::Step;

use super::admin::CliError;
use super::step_arg;

const CARGO_TOML: &str = include_str!("../../../policies/template/Cargo.toml.tmpl");
const README: &str = include_str!("../../../policies/template/README.md.tmpl");
const GITIGNORE: &str = include_str!("../../../policies/template/gitignore");
const WIT: &str = include_str!("../../../wit/chain.wit");

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
    /// The crate's name (lowercase letters, digits, `-` and `_`, starting with a letter).
    #[arg(value_parser = crate_name)]
    name: String,
    /// The step the component implements.
    #[arg(long, value_parser = step_arg())]
    step: Step,
    /// Directory to write the crate into (created; must be empty if it exists).
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

/// The crate's files: path relative to the crate, contents.
fn files(name: &str, step: Step) -> Vec<(&'static str, String)> {
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
    vec![
        ("Cargo.toml", fill(CARGO_TOML)),
        ("README.md", fill(README)),
        (".gitignore", GITIGNORE.to_owned()),
        ("wit/chain.wit", WIT.to_owned()),
        ("src/lib.rs", lib.to_owned()),
        ("sample-input.json", sample.to_owned()),
    ]
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
    write(&dir, &files(&args.name, args.step))?;
    let wasm = dir
        .join("target/wasm32-wasip2/release")
        .join(format!("{}.wasm", args.name.replace('-', "_")));
    println!(
        "created the {step} component crate `{name}` in {dir}\n\n\
         build it:  (cd {dir} && cargo build --release --target wasm32-wasip2)\n\
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
            let files = files("my-ranking", step);
            for (path, contents) in &files {
                assert!(!contents.contains("{{"), "{path} of {step:?}: {contents}");
            }
            let get = |p: &str| &files.iter().find(|(path, _)| *path == p).unwrap().1;
            assert!(get("Cargo.toml").contains("name = \"my-ranking\""));
            // The world the example implements is the step's.
            let world = pixgate_sandbox::world(step);
            let world = world
                .trim_start_matches("pixgate:chain/")
                .trim_end_matches("@1.0.0");
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
        let files = files("my-ranking", Step::Provider);
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
}
