//! Tooling for work on the model's speed (both tests are `#[ignore]`d: they need records
//! made beforehand, see `docs` below).
//!
//! * `golden`: for every `*.taintprof.rec` in `$TAINTPROF_GOLDEN_DIR`, the report
//!   (`taint_report_of_files`, `serde_json::to_string`) is compared byte for byte with
//!   `<name>.json` next to it; with `TAINTPROF_GOLDEN_WRITE=1` the files are written
//!   instead. Make the golden set with the model before a change, compare after it:
//!
//!   ```text
//!   TAINTPROF_GOLDEN_DIR=/tmp/golden TAINTPROF_GOLDEN_WRITE=1 \
//!       cargo test --release -p taintprof-model --test golden -- --ignored golden
//!   TAINTPROF_GOLDEN_DIR=/tmp/golden \
//!       cargo test --release -p taintprof-model --test golden -- --ignored golden
//!   ```
//!
//! * `phases`: times the phases of the analysis of `$TAINTPROF_PHASES_REC` (read, merge,
//!   resolved program, model, JSON value, JSON text) and prints them (`--nocapture`).

use std::path::PathBuf;
use std::time::Instant;

#[test]
#[ignore = "needs $TAINTPROF_GOLDEN_DIR with records"]
fn golden() {
    let dir = PathBuf::from(std::env::var("TAINTPROF_GOLDEN_DIR").expect("TAINTPROF_GOLDEN_DIR"));
    let write = std::env::var("TAINTPROF_GOLDEN_WRITE").is_ok_and(|v| v == "1");
    let mut recs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".taintprof.rec"))
        .collect();
    recs.sort();
    let (mut same, mut differ) = (0usize, Vec::new());
    for rec in &recs {
        let text = match taintprof_model::taint_report_of_files(&[rec]) {
            Ok(v) => serde_json::to_string(&v).unwrap(),
            Err(e) => format!("error: {e}"),
        };
        let golden = rec.with_extension("json");
        if write {
            std::fs::write(&golden, &text).unwrap();
            continue;
        }
        if std::fs::read_to_string(&golden).unwrap() == text {
            same += 1;
        } else {
            differ.push(rec.display().to_string());
        }
    }
    if write {
        eprintln!("wrote {} golden reports", recs.len());
        return;
    }
    eprintln!("{same} of {} reports equal to the golden ones", recs.len());
    assert!(differ.is_empty(), "reports differ: {differ:#?}");
}

#[test]
#[ignore = "needs $TAINTPROF_PHASES_REC"]
fn phases() {
    let rec = PathBuf::from(std::env::var("TAINTPROF_PHASES_REC").expect("TAINTPROF_PHASES_REC"));
    let t = Instant::now();
    let r = taintprof_record::read::read_file(&rec).unwrap();
    eprintln!("read     {:>8.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let merged = taintprof_record::merge::merge(&[r]).unwrap();
    eprintln!("merge    {:>8.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let program = taintprof_model::source::Program::new(&merged);
    eprintln!("program  {:>8.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let model = taintprof_model::tree::Model::build(&program, &merged);
    eprintln!("model    {:>8.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let v = taintprof_model::json::report(&model, &merged);
    eprintln!("json     {:>8.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let s = serde_json::to_string_pretty(&v).unwrap();
    eprintln!(
        "text     {:>8.3} s ({} bytes)",
        t.elapsed().as_secs_f64(),
        s.len()
    );
}
