//! End to end: a real program compiled with the real plugin, run, and its raw run
//! record analysed three ways (read from the file, read and merged by hand, and through
//! `taint_report_of_files`): the merge of one record is the record. (Until the runtime
//! stopped writing JSON, this file also compared the model's report with the runtime's,
//! value for value, on every end-to-end program; that comparison held on all of them at
//! -O0 and -O2 before the runtime's analysis was removed, and the end-to-end suites'
//! assertions now run on the model's reports.)

use taintprof_record::read;
use taintprof_tests::*;

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
    let r = taintprof_model::taint_report_of_records(&[read::read_file(&rec).unwrap()]).unwrap();
    assert_eq!(r, from_file);
    assert!(!r["functions"].as_array().unwrap().is_empty());
}
