//! The layers of docs/ARCHITECTURE.md, checked against the code: the table's
//! "stands on" column must name exactly the modules each folder's code imports
//! (`crate::...`, tests left out), and each must stand only on those listed
//! before it, so there is no import cycle between them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Names that `lib.rs` re-exports at the crate's root, and the module each is in.
const REEXPORTS: &[(&str, &str)] = &[
    ("analysis", "sums"),
    ("table", "sums"),
    ("game", "theory"),
    ("nimber", "theory"),
    ("solver", "theory"),
];

/// The top-level module a file of `src/` belongs to: `sums/every_sg.rs` and
/// `sums.rs` are both `sums`.
fn top_module(relative: &Path) -> String {
    let first = relative.components().next().expect("a file has a name");
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_owned()
}

/// The text of a file without its test module (the last thing in a file) and
/// its comments; test-only items elsewhere in the file count as code.
fn code_of(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("a source file is readable");
    let end = ["#[cfg(test)]\nmod ", "#[cfg(test)]\npub(crate) mod "]
        .iter()
        .filter_map(|start| text.find(start))
        .min()
        .unwrap_or(text.len());
    let code = &text[..end];
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn source_files(folder: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(folder).expect("src/ is readable") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            source_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|name| name != "tests.rs")
        {
            found.push(path);
        }
    }
}

/// The modules `lib.rs` declares under `#[cfg(test)]`: tests and their helpers.
fn test_only_modules(lib: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(lib).expect("lib.rs is readable");
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|pair| pair[0] == "#[cfg(test)]")
        .filter_map(|pair| {
            let declaration = pair[1].trim_start_matches("pub(crate) ");
            declaration
                .strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_owned)
        })
        .collect()
}

/// Each top-level module and the other top-level modules its code imports.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let test_only = test_only_modules(&src.join("lib.rs"));
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in files {
        let module = top_module(path.strip_prefix(&src).expect("below src/"));
        if module == "lib" || test_only.contains(&module) {
            continue;
        }
        let used = imports.entry(module.clone()).or_default();
        let code = code_of(&path);
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let name = REEXPORTS
                .iter()
                .find(|(alias, _)| *alias == name)
                .map_or(name.as_str(), |(_, module)| module)
                .to_owned();
            if name != module {
                used.insert(name);
            }
        }
    }
    imports
}

/// The table of docs/ARCHITECTURE.md: each module and what it stands on, in
/// the table's order.
fn documented_layers() -> Vec<(String, BTreeSet<String>)> {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/ARCHITECTURE.md");
    let text = fs::read_to_string(doc).expect("docs/ARCHITECTURE.md is readable");
    text.lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let module = cells[0]
                .trim_matches('`')
                .trim_end_matches('/')
                .trim_end_matches(".rs")
                .to_owned();
            let stands_on = cells
                .last()
                .expect("a row has cells")
                .split(',')
                .map(|name| name.trim().trim_matches('`').to_owned())
                .filter(|name| name != "nothing" && !name.is_empty())
                .collect();
            (module, stands_on)
        })
        .collect()
}

#[test]
fn the_architecture_table_names_what_each_module_imports() {
    let imports = imports();
    let layers = documented_layers();
    let documented: BTreeSet<&String> = layers.iter().map(|(module, _)| module).collect();
    let actual: BTreeSet<&String> = imports.keys().collect();
    assert_eq!(
        documented, actual,
        "docs/ARCHITECTURE.md's table must list every top-level module of src/"
    );
    let mut before = BTreeSet::new();
    for (module, stands_on) in &layers {
        assert_eq!(
            stands_on, &imports[module],
            "docs/ARCHITECTURE.md: `{module}` stands on what its code imports"
        );
        let later: Vec<&String> = stands_on.difference(&before).collect();
        assert!(
            later.is_empty(),
            "`{module}` stands on {later:?}, listed after it: an import cycle or a table out of order"
        );
        before.insert(module.clone());
    }
}
