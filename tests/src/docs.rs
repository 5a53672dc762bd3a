//! Reading the README and the book (`docs/src/`) the way their tests need: the fenced block a
//! page marks for a test, by the marker around it.

use crate::repo_file;

/// The text of `path` (from the repository root), a markdown page.
pub fn page(path: &str) -> String {
    std::fs::read_to_string(repo_file(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The code of the one fenced `lang` block between `<!-- {marker} -->` and `<!-- /{marker} -->`
/// in the page at `path`: what a test runs, exactly as a reader sees it.
pub fn fenced_block(path: &str, marker: &str, lang: &str) -> String {
    let text = page(path);
    let section = text
        .split(&format!("<!-- {marker} -->"))
        .nth(1)
        .and_then(|rest| rest.split(&format!("<!-- /{marker} -->")).next())
        .unwrap_or_else(|| panic!("{path} has no {marker} section"));
    section
        .trim()
        .strip_prefix(&format!("```{lang}\n"))
        .and_then(|s| s.strip_suffix("```"))
        .unwrap_or_else(|| panic!("the {marker} section of {path} is not one {lang} block"))
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_block_is_read_without_its_fences_and_a_missing_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("page.md");
        std::fs::write(
            &page,
            "intro\n\n<!-- demo -->\n```sh\necho one\necho two\n```\n<!-- /demo -->\n\nafter\n",
        )
        .unwrap();
        // repo_file joins onto the workspace root; an absolute path replaces it.
        let path = page.to_str().unwrap();
        assert_eq!(fenced_block(path, "demo", "sh"), "echo one\necho two\n");
        let missing = std::panic::catch_unwind(|| fenced_block(path, "other", "sh"));
        assert!(missing.is_err());
        let wrong_lang = std::panic::catch_unwind(|| fenced_block(path, "demo", "python"));
        assert!(wrong_lang.is_err());
    }
}
