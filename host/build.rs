//! Embeds `migrations/*.sql` in the binary: `OUT_DIR/migrations.rs` lists each file's version,
//! description and text (as `include_str!`), which `db::migrator` turns into sqlx migrations.
//! sqlx's own `migrate!` macro would do the same, but its crate builds SQLite and both sqlx
//! drivers a second time for the compiler (about 100 CPU-seconds of every cold build).

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("migrations/")
        .map(|e| e.expect("a migrations/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for path in &files {
        let name = path
            .file_name()
            .unwrap()
            .to_str()
            .expect("a UTF-8 file name");
        // `<version>_<description>.sql`, as sqlx reads a migrations directory.
        let (version, rest) = name.split_once('_').expect("<version>_<description>.sql");
        let version: i64 = version.parse().expect("an integer version");
        let description = rest.trim_end_matches(".sql").replace('_', " ");
        writeln!(
            out,
            "    ({version}, {description:?}, include_str!({:?})),",
            path.canonicalize().unwrap().display().to_string()
        )
        .unwrap();
        println!("cargo::rerun-if-changed={}", path.display());
    }
    out.push(']');
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("migrations.rs");
    std::fs::write(target, out).unwrap();
}
