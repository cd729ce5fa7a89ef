//! Shared by the integration tests: the taint report of a run as the driver makes it,
//! from the raw run record the runtime writes (`<prog>.<pid>.taintprof.rec`), analysed
//! offline by `taintprof_model`.

// Each test binary uses what it needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The `taintprof.taint` report of the complete raw run record at `rec`.
pub fn model_report(rec: &Path) -> Value {
    let r = taintprof_record::read::read_file(rec)
        .unwrap_or_else(|e| panic!("cannot read the record {}: {e}", rec.display()));
    assert!(r.complete(), "{} is incomplete", rec.display());
    taintprof_model::taint_report_of_records(&[r])
        .unwrap_or_else(|e| panic!("the offline analysis of {} failed: {e}", rec.display()))
}

/// The raw run records in `dir` (sorted; none if `dir` does not exist). Nothing else may
/// be there (no temporary files) but, beside a record, the JSON report the runtime
/// still writes (`<prog>.<pid>.taintprof.json`); `context` goes into the message.
pub fn records_in(dir: &Path, context: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    let (records, other): (Vec<PathBuf>, Vec<PathBuf>) = v
        .into_iter()
        .partition(|p| p.to_string_lossy().ends_with(".taintprof.rec"));
    for p in &other {
        let beside = p
            .to_string_lossy()
            .strip_suffix(".taintprof.json")
            .map(|stem| PathBuf::from(format!("{stem}.taintprof.rec")));
        assert!(
            beside.is_some_and(|r| records.contains(&r)),
            "{} is neither a record nor a report beside one\n{context}",
            p.display()
        );
    }
    records
}
