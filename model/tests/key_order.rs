//! End to end: the report's keys come out in the order of the schema's tables
//! (`docs/report-schema.md`): the top level, a function entry (with `volume_terms` next to
//! `volume`), a loop entry. Every key written is documented there.

use serde_json::Value;
use taintprof_tests::*;

/// The keys of the first table after the heading `heading` of the schema, in order (a
/// row may name several: `` `file`, `line` ``).
fn table_keys(heading: &str) -> Vec<String> {
    let doc = std::fs::read_to_string(workspace_root().join("docs/report-schema.md")).unwrap();
    let at = doc
        .lines()
        .position(|l| l == heading)
        .unwrap_or_else(|| panic!("no heading {heading:?} in the schema"));
    let mut keys = Vec::new();
    for line in doc.lines().skip(at + 1) {
        if line.starts_with("## ") || line.starts_with("### ") {
            break;
        }
        if !line.starts_with("| `") {
            if !keys.is_empty() && !line.starts_with('|') {
                break;
            }
            continue;
        }
        let cell = line[1..].split(" | ").next().unwrap();
        keys.extend(cell.split('`').skip(1).step_by(2).map(str::to_string));
    }
    assert!(!keys.is_empty(), "no table under {heading:?}");
    keys
}

/// `object`'s keys are documented under `heading` and in its order.
fn assert_schema_order(object: &Value, heading: &str) {
    let doc = table_keys(heading);
    let keys: Vec<&String> = object.as_object().unwrap().keys().collect();
    let at: Vec<usize> = keys
        .iter()
        .map(|k| {
            doc.iter()
                .position(|d| d == *k)
                .unwrap_or_else(|| panic!("key {k:?} is not in the schema's {heading:?}"))
        })
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "keys {keys:?} are not in the order of {heading:?}: {doc:?}"
    );
}

#[test]
fn the_report_s_keys_follow_the_schema_s_order() {
    let b = compile(&["three_params.c"], "-O2", &[]);
    let run = b.run(&[]);
    assert_eq!(run.reports.len(), 1, "{}", run.stderr());
    let r = taintprof_model::taint_report_of_files(&[record_path(&run.reports[0])]).unwrap();

    let top: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        top,
        [
            "schema",
            "version",
            "taintprof_version",
            "program",
            "exit",
            "options",
            "threads",
            "parameters",
            "parameter_info",
            "rejected_parameters",
            "modules",
            "functions",
            "summary",
            "coverage",
            "recommendation",
            "warnings",
        ]
    );
    assert_schema_order(&r, "### Top level");
    // The text too: what `taintprof run` writes.
    let text = serde_json::to_string(&r).unwrap();
    assert!(
        text.starts_with(r#"{"schema":"taintprof.taint","version":4,"#),
        "{}",
        &text[..80]
    );

    let f = r["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "stencil")
        .expect("stencil");
    let keys: Vec<&str> = f.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "name",
            "linkage",
            "file",
            "line",
            "recursive",
            "statically_pruned",
            "executed",
            "exclusive_params",
            "inclusive_params",
            "constant",
            "volume",
            "volume_terms",
            "exclusive_volume",
            "exclusive_volume_terms",
            "pairs",
            "contexts",
            "branches",
            "loops",
        ]
    );
    assert_schema_order(f, "### `functions[]`");
    let ctx = &f["contexts"][0];
    let keys: Vec<&str> = ctx
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "path",
            "callpath",
            "inclusive_params",
            "volume",
            "volume_terms",
            "calls_volume",
            "calls_volume_terms",
            "total_volume",
            "total_volume_terms"
        ]
    );
    for l in f["loops"].as_array().unwrap() {
        assert_schema_order(l, "### `functions[].loops[]`");
    }
    assert!(!f["loops"].as_array().unwrap().is_empty());
}
