//! ARCHITECTURE.md's code map must mention every source file.
//!
//! A source file is a `*.rs`, `*.c`, `*.cpp` or `*.h` under `abi/`, `sigsafe/`, `record/`,
//! `model/`, `pass/`,
//! `rt/`, `driver/`, `dip/`, `symbolize/`, `benchkit/`, `tests/src/` or `bench/`, except
//! those in a `tests/` directory of a crate (integration tests, fixtures and the test
//! programs they compile) and `target/`. It is mentioned when a line of the map
//! contains its full path, or its directory's path (`pass/src/denormal/`) and its file
//! name as a word of its own (`func.rs`).

use std::path::{Path, PathBuf};

const ROOTS: [&str; 14] = [
    "abi",
    "sigsafe",
    "record",
    "model",
    "pass",
    "rt",
    "driver",
    "dip",
    "symbolize",
    "benchkit",
    "mpi",
    "fit",
    "tests/src",
    "bench",
];
const EXTENSIONS: [&str; 4] = ["rs", "c", "cpp", "h"];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Source files under `dir`, as paths relative to the repository with `/` separators.
fn sources(repo: &Path, dir: &Path, out: &mut Vec<String>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for e in entries {
        let path = e.unwrap().path();
        let rel = path
            .strip_prefix(repo)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            // Build output, and the integration tests, fixtures and test programs of a
            // crate (`tests/src`, the harness of the tests crate, is a root of its own).
            if name == "target" || name.starts_with('.') || name == "tests" {
                continue;
            }
            sources(repo, &path, out);
        } else if path
            .extension()
            .is_some_and(|x| EXTENSIONS.iter().any(|e| x == *e))
        {
            out.push(rel);
        }
    }
}

/// The lines of the code map: from `## Code map` to the next `## ` heading.
fn code_map(architecture: &str) -> Vec<&str> {
    let start = architecture
        .find("\n## Code map")
        .expect("ARCHITECTURE.md has no `## Code map` section");
    architecture[start + 1..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect()
}

/// Whether `word` occurs in `line` not as part of a longer name or path.
fn has_word(line: &str, word: &str) -> bool {
    let part_of_name = |c: char| c.is_alphanumeric() || "_-./".contains(c);
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        !before.is_some_and(part_of_name) && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

fn mentioned(map: &[&str], file: &str) -> bool {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    let dir = format!("{dir}/");
    map.iter()
        .any(|l| l.contains(file) || (l.contains(&dir) && has_word(l, name)))
}

#[test]
fn every_source_file_is_in_the_code_map() {
    let repo = repo();
    let architecture = std::fs::read_to_string(repo.join("ARCHITECTURE.md")).unwrap();
    let map = code_map(&architecture);
    assert!(
        map.len() > 20,
        "the code map is suspiciously short: {map:?}"
    );
    let mut files = Vec::new();
    for root in ROOTS {
        sources(&repo, &repo.join(root), &mut files);
    }
    files.sort();
    // The walk itself must find what we know is there.
    for known in [
        "abi/src/lib.rs",
        "pass/shim/plugin.cpp",
        "rt/src/tls.c",
        "tests/src/lib.rs",
    ] {
        assert!(
            files.iter().any(|f| f == known),
            "{known} not found: {files:?}"
        );
    }
    let missing: Vec<&String> = files.iter().filter(|f| !mentioned(&map, f)).collect();
    assert!(
        missing.is_empty(),
        "source files missing from ARCHITECTURE.md's code map (add each with a line on what \
         it owns, by path or as a file name on its directory's line):\n  {}",
        missing
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  ")
    );
}

#[test]
fn the_matching_rule() {
    let map = [
        "| `pass/src/cfg.rs`, `loops.rs` | dominators |",
        "| `pass/src/denormal/` | `func.rs` the checks, `desc.rs` descriptors |",
        "| `rt/src/lib.rs` | crate root |",
    ];
    assert!(mentioned(&map, "pass/src/cfg.rs"));
    assert!(mentioned(&map, "pass/src/loops.rs"));
    assert!(mentioned(&map, "pass/src/denormal/func.rs"));
    assert!(mentioned(&map, "pass/src/denormal/desc.rs"));
    // A name inside another path does not count for a different directory.
    assert!(!mentioned(&map, "rt/src/denormal/lib.rs"));
    assert!(!mentioned(&map, "pass/src/lib.rs"));
    // Nor does a longer name that ends with it.
    assert!(!mentioned(&map, "pass/src/denormal/c.rs"));
    assert!(!mentioned(&map, "pass/src/oops.rs"));
    assert!(!mentioned(&map, "dip/src/func.rs"));
}
