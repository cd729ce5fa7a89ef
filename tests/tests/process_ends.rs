//! End to end: reports of processes that do not simply return from `main`. Each case
//! runs the same time loop (`steps` iterations of a sweep over `n`) and ends it another
//! way; the report must exist, say how the process ended, and keep `main`'s volume
//! `n*steps` — a loop still running when the report is written counts as executed.

use taintprof_tests::*;

fn main_volume(r: &Report) -> String {
    r.function("main")["volume"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// `main`'s volume: the time loop over the sweep, plus the `calloc(n, ...)` before it
/// (a library loop over n, `rt/routines.txt`).
const MAIN_VOLUME: &str = "n*steps + n";

fn exit_of(r: &Report) -> serde_json::Value {
    r.json["exit"].clone()
}

fn warnings(r: &Report) -> String {
    r.json["warnings"].to_string()
}

/// A report written while the time loop ran (`reason`): the loop counts as in flight and
/// `main` keeps its volume.
fn assert_cut_in_the_time_loop(r: &Report, reason: &str) {
    let exit = exit_of(r);
    assert_eq!(exit["reason"], reason, "[{}] {exit}", r.opt);
    assert_eq!(exit["loops_in_flight"], 1, "[{}] {exit}", r.opt);
    assert_eq!(main_volume(r), MAIN_VOLUME, "[{}]", r.opt);
}

/// Runs mode `mode` and returns the run and its reports (sorted by file name).
fn run_mode(b: &Build, mode: &str) -> (Run, Vec<Report>) {
    let run = b.run(&["64", "40", mode]);
    let reports = run
        .reports
        .iter()
        .map(|p| {
            let mut r = Report::load(p);
            r.sources = b.sources.clone();
            r.opt = b.opt.clone();
            r
        })
        .collect();
    (run, reports)
}

#[test]
fn sigterm_in_the_time_loop_counts_the_loop_in_flight() {
    at_each_level(&["process_ends.c"], &[], |b| {
        let (run, reports) = run_mode(b, "1");
        assert_eq!(
            run.output.status.code(),
            None,
            "[{}] killed by SIGTERM",
            b.opt
        );
        assert_eq!(reports.len(), 1, "[{}] {}", b.opt, run.stderr());
        let r = &reports[0];
        assert_eq!(exit_of(r)["signal"], "SIGTERM", "[{}]", b.opt);
        assert_eq!(
            exit_of(r)["loops_in_flight"],
            1,
            "[{}] {}",
            b.opt,
            exit_of(r)
        );
        // The time loop was still running: it is counted, with its label.
        r.assert_loop("main", "@time", &["steps"]);
        assert_eq!(main_volume(r), MAIN_VOLUME, "[{}]", b.opt);
        assert!(
            warnings(r).contains("cut by SIGTERM while 1 loop execution was still running"),
            "[{}] {}",
            b.opt,
            warnings(r)
        );
    });
}

#[test]
fn a_normal_run_has_no_loop_in_flight() {
    at_each_level(&["process_ends.c"], &[], |b| {
        let (r, _) = b.run_ok(&["64", "40", "0"]);
        assert_eq!(exit_of(&r)["reason"], "exit");
        assert!(
            exit_of(&r).get("loops_in_flight").is_none(),
            "{}",
            exit_of(&r)
        );
        assert_eq!(main_volume(&r), MAIN_VOLUME, "[{}]", b.opt);
        assert!(!warnings(&r).contains("cut by"), "{}", warnings(&r));
    });
}

#[test]
fn exit_inside_the_loop_keeps_the_volume() {
    at_each_level(&["process_ends.c"], &[], |b| {
        let (run, reports) = run_mode(b, "4");
        assert_eq!(run.output.status.code(), Some(5));
        assert_eq!(reports.len(), 1, "[{}] {}", b.opt, run.stderr());
        let r = &reports[0];
        assert_eq!(exit_of(r)["reason"], "exit");
        assert_eq!(exit_of(r)["code"], 5);
        r.assert_loop("main", "@time", &["steps"]);
        assert_eq!(main_volume(r), MAIN_VOLUME, "[{}]", b.opt);
    });
}

#[test]
fn underscore_exit_writes_the_report() {
    at_each_level(&["process_ends.c"], &[], |b| {
        for (mode, code) in [("2", 4), ("7", 7)] {
            let (run, reports) = run_mode(b, mode);
            assert_eq!(
                run.output.status.code(),
                Some(code),
                "[{}] mode {mode}",
                b.opt
            );
            assert_eq!(
                reports.len(),
                1,
                "[{}] mode {mode}: {}",
                b.opt,
                run.stderr()
            );
            let r = &reports[0];
            assert_eq!(exit_of(r)["reason"], "_exit", "[{}] mode {mode}", b.opt);
            assert_eq!(exit_of(r)["code"], code, "[{}] mode {mode}", b.opt);
            r.assert_loop("main", "@time", &["steps"]);
            r.assert_loop("sweep", "@sweep", &["n"]);
            assert_eq!(main_volume(r), MAIN_VOLUME, "[{}] mode {mode}", b.opt);
        }
    });
}

#[test]
fn the_programs_own_sigsegv_handler_that_calls_underscore_exit_leaves_a_report() {
    at_each_level(&["process_ends.c"], &[], |b| {
        let (run, reports) = run_mode(b, "5");
        assert_eq!(run.output.status.code(), Some(6), "[{}]", b.opt);
        assert_eq!(reports.len(), 1, "[{}] {}", b.opt, run.stderr());
        assert_cut_in_the_time_loop(&reports[0], "_exit");
    });
}

#[test]
fn exec_writes_the_report_of_the_run_before_it() {
    at_each_level(&["process_ends.c"], &[], |b| {
        let (run, reports) = run_mode(b, "3");
        assert_eq!(run.output.status.code(), Some(0), "/bin/true's status");
        assert_eq!(reports.len(), 1, "[{}] {}", b.opt, run.stderr());
        let r = &reports[0];
        let name = r.path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.contains(".before-exec."), "{name}");
        assert_cut_in_the_time_loop(r, "exec");
    });
}

#[test]
fn a_failed_exec_still_gets_the_report_at_exit() {
    at_each_level(&["process_ends.c"], &[], |b| {
        let (run, reports) = run_mode(b, "6");
        assert_eq!(run.output.status.code(), Some(0));
        // The report written before the exec, and the final one.
        assert_eq!(reports.len(), 2, "[{}] {:?}", b.opt, run.reports);
        let last = reports
            .iter()
            .find(|r| !r.path.to_string_lossy().contains("before-exec"))
            .expect("the report at exit");
        assert_eq!(exit_of(last)["reason"], "exit");
        assert_eq!(main_volume(last), MAIN_VOLUME, "[{}]", b.opt);
    });
}

#[test]
fn taintprof_run_shows_the_report_before_an_exec_and_the_new_programs() {
    at_each_level(&["process_ends.c"], &[], |b| {
        let out = b.dir.join(format!("run-exec{}", b.opt));
        let _ = std::fs::remove_dir_all(&out);
        let o = run_cmd(
            std::process::Command::new(bin_dir().join("taintprof"))
                .arg("run")
                .arg("--out")
                .arg(&out)
                .arg("--")
                .arg(&b.exe)
                .args(["64", "40", "8"]),
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "[{}] {err}", b.opt);
        assert!(err.contains("2 reports were written"), "[{}] {err}", b.opt);
        // The program before the exec and the program it became (same pid, same name).
        let before = err
            .find("): replaced itself with another program (exec)")
            .unwrap_or_else(|| panic!("[{}] no report before the exec: {err}", b.opt));
        let after = err
            .find("): exit code 0;")
            .unwrap_or_else(|| panic!("[{}] no report of the new program: {err}", b.opt));
        assert!(before < after, "[{}] the run's order: {err}", b.opt);
        assert!(err.contains(".before-exec."), "[{}] {err}", b.opt);
    });
}

#[test]
fn writing_the_report_says_what_and_how_big_when_asked() {
    at_each_level(&["process_ends.c"], &[], |b| {
        let run = b.run_env(&["64", "40", "0"], &[("TAINTPROF_VERBOSE", "1")]);
        assert!(run.output.status.success(), "{}", run.stderr());
        let err = run.stderr();
        assert!(
            err.contains("writing the record: ") && err.contains(" calling contexts in 1 thread"),
            "[{}] {err}",
            b.opt
        );
        let written = err
            .lines()
            .find(|l| l.contains("record written to "))
            .unwrap_or_else(|| panic!("[{}] no 'record written' line: {err}", b.opt));
        assert!(
            written.contains(" kB in ") && written.contains(" s) (`taintprof report` reads it)"),
            "[{}] {written}",
            b.opt
        );
        // Without the knob and with stderr not a terminal, a small report is silent.
        let quiet = b.run(&["64", "40", "0"]);
        assert!(
            !quiet.stderr().contains("writing the record"),
            "{}",
            quiet.stderr()
        );
    });
}
