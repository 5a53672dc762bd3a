//! The `pixgate` binary itself, as a script or an operator starts it. Being an integration test
//! of this package, it is also what makes `cargo nextest run` at the workspace root build the
//! binary that the end-to-end tests (`tests/`) start.

use std::process::Command;

#[test]
fn the_binary_lists_every_subcommand_and_its_version() {
    let bin = env!("CARGO_BIN_EXE_pixgate");
    let help = Command::new(bin).arg("--help").output().unwrap();
    assert!(help.status.success(), "{help:?}");
    let text = String::from_utf8(help.stdout).unwrap();
    for subcommand in ["serve", "policy", "psp-sim", "admin"] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(&format!("{subcommand} "))),
            "`pixgate --help` does not list `{subcommand}`:\n{text}"
        );
    }
    let version = Command::new(bin).arg("--version").output().unwrap();
    assert_eq!(
        String::from_utf8(version.stdout).unwrap().trim(),
        format!("pixgate {}", env!("CARGO_PKG_VERSION"))
    );
}
