//! End to end: real programs compiled with the real plugin at -O0 and -O2, run, and the
//! report the offline analysis makes from their raw run record compared with the JSON
//! report the runtime wrote at exit, value for value. (Every end-to-end test of
//! `taintprof-tests` makes the same check through `Report::load`; this one does it
//! explicitly, on programs chosen for their variety: nested loops over three
//! parameters, calling contexts, recursion, a run cut by a signal with a loop in
//! flight, a mid-run report.)

use std::path::Path;

use serde_json::Value;
use taintprof_record::read;
use taintprof_tests::*;

/// The runtime's report at `path` and the model's report of the record next to it.
fn both(path: &Path) -> (Value, Value) {
    let runtime: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rec = record_path(path);
    let r = read::read_file(&rec).unwrap_or_else(|e| panic!("{}: {e}", rec.display()));
    assert!(r.complete(), "{}", rec.display());
    let model = taintprof_model::taint_report_of_records(&[r]).unwrap();
    (runtime, model)
}

fn assert_same(path: &Path, opt: &str) {
    let (runtime, model) = both(path);
    if let Some((at, a, b)) = first_difference(&runtime, &model, "$") {
        panic!(
            "[{opt}] {}: differs at {at}\n  runtime: {a}\n  model:   {b}",
            path.display()
        );
    }
    assert_eq!(runtime, model);
}

#[test]
fn matmul_and_contexts_match_the_runtime() {
    for (src, args) in [
        ("matmul.c", &["24", "16", "12"][..]),
        ("contexts.c", &[][..]),
        ("cf_recursion.c", &["6", "3", "20", "10"][..]),
    ] {
        at_each_level(&[src], &[], |b| {
            let run = b.run(args);
            assert_eq!(run.reports.len(), 1, "{src} [{}]: {}", b.opt, run.stderr());
            assert_same(&run.reports[0], &b.opt);
            let (runtime, _) = both(&run.reports[0]);
            assert!(
                !runtime["functions"].as_array().unwrap().is_empty(),
                "{src} [{}]",
                b.opt
            );
        });
    }
}

#[test]
fn cut_and_mid_run_records_match_the_runtime() {
    at_each_level(&["record_tree.c"], &[], |b| {
        // 1: SIGTERM in the time loop (a loop in flight); 5: a mid-run report replaced
        // at exit; 2: _exit.
        for mode in ["1", "5", "2"] {
            let run = b.run(&["64", "40", "10", mode]);
            assert!(!run.reports.is_empty(), "[{}] mode {mode}", b.opt);
            for p in &run.reports {
                assert_same(p, &b.opt);
            }
            if mode == "1" {
                let (runtime, _) = both(&run.reports[0]);
                assert_eq!(runtime["exit"]["reason"], "signal", "[{}]", b.opt);
            }
        }
    });
}

#[test]
fn a_merge_of_one_record_is_the_record() {
    let b = compile(&["three_params.c"], "-O2", &[]);
    let run = b.run(&[]);
    assert_eq!(run.reports.len(), 1, "{}", run.stderr());
    let rec = record_path(&run.reports[0]);
    let from_file = taintprof_model::taint_report_of_files(&[&rec]).unwrap();
    let r = read::read_file(&rec).unwrap();
    let merged = taintprof_record::merge::merge(&[r]).unwrap();
    assert_eq!(taintprof_model::taint_report(&merged).unwrap(), from_file);
    assert_same(&run.reports[0], "-O2");
}
