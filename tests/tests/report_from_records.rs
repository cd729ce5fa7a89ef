//! End to end: `taintprof report` reads raw run records (`.taintprof.rec`) and analyses
//! them offline (`taintprof_model`). Real programs compiled with the real plugin at -O0
//! and -O2: the text and the JSON summary of a record equal those of the JSON report the
//! runtime wrote for the same run; several records of one program merge into one report
//! (executions summed, parameters united); a record left by a killed program reads; a
//! damaged record is refused with a message that names the file.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use taintprof_tests::*;

/// `record_tree N STEPS K MODE` (see the program).
const TREE: &str = "record_tree.c";

fn record_path(report: &Path) -> PathBuf {
    let s = report.to_string_lossy();
    PathBuf::from(s.replace(".taintprof.json", ".taintprof.rec"))
}

/// `taintprof report ARGS...` in `dir`: (success, stdout, stderr).
fn report_cmd(dir: &Path, args: &[&Path], extra: &[&str]) -> (bool, String, String) {
    let out = run_cmd(
        Command::new(bin_dir().join("taintprof"))
            .arg("report")
            .args(args)
            .args(extra)
            .current_dir(dir),
    );
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The JSON summary (`--json`) with the file name it was read from blanked out.
fn summary_json(dir: &Path, file: &[&Path]) -> Value {
    let (ok, out, err) = report_cmd(dir, file, &["--json"]);
    assert!(ok, "taintprof report --json {file:?} failed: {err}");
    let mut v: Value = serde_json::from_str(&out).unwrap();
    blank_names(&mut v);
    v
}

/// Replaces every string that names a report or record file by "FILE".
fn blank_names(v: &mut Value) {
    match v {
        Value::String(s) if s.contains(".taintprof.") || s.contains("records merged") => {
            *s = "FILE".into()
        }
        Value::Array(a) => a.iter_mut().for_each(blank_names),
        Value::Object(o) => o.values_mut().for_each(blank_names),
        _ => {}
    }
}

/// The report's text with the file's own name and directory taken out.
fn text_without_names(text: &str, file: &Path) -> String {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    text.replace(&file.display().to_string(), "FILE")
        .replace(&name, "FILE")
}

#[test]
fn a_record_reads_like_the_report_of_its_run() {
    at_each_level(&[TREE], &[], |b| {
        let (report, run) = b.run_ok(&["64", "40", "10", "0"]);
        let rec = record_path(&report.path);
        assert!(rec.exists(), "[{}] no record next to the report", b.opt);
        let dir = &run.out_dir;
        // The summary, key for key.
        assert_eq!(
            summary_json(dir, &[&report.path]),
            summary_json(dir, &[&rec]),
            "[{}] the record's summary differs from the report's",
            b.opt
        );
        // The text a user reads.
        let (ok, from_json, err) = report_cmd(dir, &[&report.path], &[]);
        assert!(ok, "{err}");
        let (ok, from_rec, err) = report_cmd(dir, &[&rec], &[]);
        assert!(ok, "{err}");
        assert_eq!(
            text_without_names(&from_json, &report.path),
            text_without_names(&from_rec, &rec),
            "[{}]",
            b.opt
        );
        assert!(from_rec.contains("sweep"), "[{}] {from_rec}", b.opt);
        // A filter and a design read a record as they read the report.
        let (ok, filter, err) = report_cmd(dir, &[&rec], &["--scorep-filter", "-"]);
        assert!(ok, "[{}] {err}", b.opt);
        assert!(filter.contains("sweep"), "[{}] {filter}", b.opt);
    });
}

#[test]
fn records_of_several_runs_merge_into_one_report() {
    at_each_level(&[TREE], &[], |b| {
        let (r1, run1) = b.run_ok(&["64", "40", "10", "0"]);
        let (r2, _run2) = b.run_ok(&["32", "20", "10", "0"]);
        let (rec1, rec2) = (record_path(&r1.path), record_path(&r2.path));
        let dir = &run1.out_dir;
        let sweep = |r: &Report| r.loop_at("sweep", "@sweep").executions;
        let (e1, e2) = (sweep(&r1), sweep(&r2));
        assert_eq!((e1, e2), (40, 20), "[{}] sweep's executions per run", b.opt);

        let (ok, out, err) = report_cmd(dir, &[&rec1, &rec2], &["--json"]);
        assert!(ok, "[{}] {err}", b.opt);
        let merged: Value = serde_json::from_str(&out).unwrap();
        // One summary (an object, not an array of two).
        assert!(merged.is_object(), "[{}] {out}", b.opt);
        let text = report_cmd(dir, &[&rec1, &rec2], &[]).1;
        assert!(text.contains("2 records merged"), "[{}] {text}", b.opt);

        // The merged report itself, through the model crate: executions add up.
        let v = taintprof_model::taint_report_of_files(&[&rec1, &rec2]).unwrap();
        let r = Report {
            json: v,
            path: rec1.clone(),
            sources: r1.sources.clone(),
            opt: b.opt.clone(),
        };
        let l = r.loop_at("sweep", "@sweep");
        assert_eq!(l.executions, e1 + e2, "[{}]", b.opt);
        assert_eq!(l.params, names(&["n"]), "[{}]", b.opt);
        assert_eq!(
            r.loop_at("main", "@time").params,
            names(&["steps"]),
            "[{}]",
            b.opt
        );
    });
}

#[test]
fn a_killed_programs_record_reads() {
    at_each_level(&[TREE], &[], |b| {
        let run = b.run(&["64", "40", "10", "1"]);
        assert_eq!(
            run.output.status.code(),
            None,
            "[{}] killed by SIGTERM",
            b.opt
        );
        let report = run.report();
        let rec = record_path(&report.path);
        let v = taintprof_model::taint_report_of_files(&[&rec]).unwrap();
        assert_eq!(v["exit"]["signal"], "SIGTERM", "[{}]", b.opt);
        let (ok, text, err) = report_cmd(&run.out_dir, &[&rec], &[]);
        assert!(ok, "[{}] {err}", b.opt);
        assert!(text.contains("SIGTERM"), "[{}] {text}", b.opt);
    });
}

#[test]
fn a_damaged_record_is_refused_with_its_name() {
    let b = compile(&[TREE], "-O0", &[]);
    let (report, run) = b.run_ok(&["16", "4", "5", "0"]);
    let rec = record_path(&report.path);
    let bytes = std::fs::read(&rec).unwrap();
    // Cut in the middle: the trailer is gone.
    let cut = run.out_dir.join("cut.taintprof.rec");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let (ok, _, err) = report_cmd(&run.out_dir, &[&cut], &[]);
    assert!(!ok, "a cut record must not read as a report");
    assert!(err.contains("cut.taintprof.rec"), "{err}");
    assert!(
        err.contains("incomplete") || err.contains("truncated"),
        "{err}"
    );
    // Not a record at all, but with the magic number's name.
    let junk = run.out_dir.join("junk.taintprof.rec");
    std::fs::write(&junk, b"\x89TPREC\r\nnonsense").unwrap();
    let (ok, _, err) = report_cmd(&run.out_dir, &[&junk], &[]);
    assert!(!ok);
    assert!(err.contains("junk.taintprof.rec"), "{err}");
}
