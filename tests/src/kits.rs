//! The JavaScript and Python authoring kits' components, built on first use: the README's test
//! command passes on a fresh clone with nothing run before it (issue 37).
//!
//! [`samples_dir`] runs `.ci/kits.sh` (which installs the kits' pinned tools, componentize-js
//! from the JavaScript kit's lock file and componentize-py hash-checked, and builds every
//! sample) into `target/samples` once per target dir: under an exclusive lock on
//! `target/samples.lock`, so the test processes nextest starts at once build it one time and
//! the others wait; and only when the kits' sources changed since the last build (a
//! fingerprint of them is kept beside the samples), so a later run reuses what the first
//! built. A build that cannot happen (no node, no network to the registries) fails the test
//! with kits.sh's log, never skips it.
//!
//! `PIXGATE_TEST_SAMPLES_DIR` names samples built elsewhere: used as they are, never built.

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;
use std::path::{Path, PathBuf};

use crate::{repo_file, target_dir};

/// What kits.sh reads: when none of it changed, the samples it built stand.
const INPUTS: [&str; 7] = [
    ".ci/kits.sh",
    "policies/template-js",
    "policies/samples-js",
    "policies/template-python",
    "policies/samples-python",
    "wit",
    "policies/samples",
];

/// Directories the kits write into or install to, never their inputs.
const SKIPPED: [&str; 5] = ["node_modules", "dist", "bindings", "__pycache__", "target"];

/// The fingerprint file beside the samples.
const STAMP: &str = ".inputs-fingerprint";

/// The directory holding the kits' built components, built now if they are missing or older
/// than the kits' sources.
pub fn samples_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PIXGATE_TEST_SAMPLES_DIR") {
        return PathBuf::from(dir);
    }
    let dir = target_dir().join("samples");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(target_dir().join("samples.lock"))
        .expect("the samples' lock file");
    // Held until this function returns: one build per target dir, whoever asks first.
    lock.lock().expect("locking target/samples.lock");
    let fingerprint = fingerprint();
    let stamp = dir.join(STAMP);
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(fingerprint.as_str()) {
        return dir;
    }
    let log = target_dir().join("kits.log");
    let out = std::fs::File::create(&log).expect("target/kits.log");
    let status = std::process::Command::new("bash")
        .arg(repo_file(".ci/kits.sh"))
        .arg(&dir)
        .stdout(out.try_clone().expect("the log's handle"))
        .stderr(out)
        .status();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let tail: Vec<&str> = text.lines().rev().take(40).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    match status {
        Ok(status) if status.success() => {}
        Ok(status) => panic!(
            "building the JavaScript and Python kits' samples failed ({status}): \
             `bash .ci/kits.sh {}` needs node, npm, python3 with pip and the npm and PyPI \
             registries; its log is {}, ending:\n{}",
            dir.display(),
            log.display(),
            tail.join("\n")
        ),
        Err(e) => panic!("cannot run bash for .ci/kits.sh: {e}"),
    }
    std::fs::write(&stamp, &fingerprint).expect("writing the samples' fingerprint");
    dir
}

/// A digest of every kit input's path and bytes, in path order.
fn fingerprint() -> String {
    let mut files = Vec::new();
    for input in INPUTS {
        collect(&repo_file(input), &mut files);
    }
    files.sort();
    let root = repo_file("");
    let mut hasher = DefaultHasher::new();
    for file in &files {
        hasher.write(
            file.strip_prefix(&root)
                .unwrap_or(file)
                .as_os_str()
                .as_encoded_bytes(),
        );
        hasher.write(&std::fs::read(file).unwrap_or_default());
    }
    format!("{:016x} {} files\n", hasher.finish(), files.len())
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_file() {
        files.push(path.to_owned());
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if SKIPPED.iter().any(|s| name == *s) {
            continue;
        }
        collect(&entry.path(), files);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_is_stable_and_covers_the_kits() {
        let a = fingerprint();
        assert_eq!(a, fingerprint());
        let files: usize = a.split(' ').nth(1).unwrap().parse().unwrap();
        assert!(files > 20, "{a}");
    }
}
