//! `--tp-mode=time` end to end (`docs/time-mode.md`): the heat example measured with
//! the selection of its own taint report at -O0 and -O2 (same call paths, visits and
//! exact loop counts), records that survive SIGTERM and `_exit`, threads summed,
//! `--tp-filter`, and a clear error for a bad `--tp-prior`.

use std::path::{Path, PathBuf};
use taintprof_model::time::{profile_of_files, Region, TimeProfile};
use taintprof_tests::*;

const HEAT: &str = "../../examples/heat.c";

fn time_records(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| taintprof_model::time::is_time_record(p))
        .collect();
    v.sort();
    v
}

fn profile_of(run: &Run) -> TimeProfile {
    let recs = time_records(&run.out_dir);
    assert_eq!(
        recs.len(),
        1,
        "expected one time record in {}\nstderr:\n{}",
        run.out_dir.display(),
        run.stderr()
    );
    profile_of_files(&recs).unwrap()
}

fn region<'a>(p: &'a TimeProfile, path: &str) -> &'a Region {
    p.regions
        .iter()
        .find(|r| r.callpath == path)
        .unwrap_or_else(|| panic!("no call path {path} in {:#?}", p.regions))
}

fn iterations(r: &Region, line: u64) -> u64 {
    r.loops
        .iter()
        .find(|l| l.line as u64 == line)
        .map(|l| l.iterations)
        .unwrap_or_else(|| panic!("no loop at line {line} in {}: {:?}", r.callpath, r.loops))
}

/// A call path, its visits, its loops' (line, iterations).
type Shape = (String, u64, Vec<(u32, u64)>);

/// What the -O0 and -O2 profiles must agree on: call paths, visits, loop counts.
fn shape(p: &TimeProfile) -> Vec<Shape> {
    let mut v: Vec<_> = p
        .regions
        .iter()
        .map(|r| {
            (
                r.callpath.clone(),
                r.visits as u64,
                r.loops.iter().map(|l| (l.line, l.iterations)).collect(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn heat_with_its_taint_prior_at_o0_and_o2() {
    let mut shapes = Vec::new();
    for opt in ["-O0", "-O2"] {
        let taint = compile(&[HEAT], opt, &[]);
        let (report, run) = taint.run_ok(&["64", "10", "5"]);
        let prior = run.reports[0].clone();
        let probe_constant = report
            .json
            .get("functions")
            .and_then(|f| f.as_array())
            .and_then(|fs| fs.iter().find(|f| f["name"] == "probe"))
            .is_none_or(|f| f["constant"] == true);
        let prior_arg = format!("--tp-prior={}", prior.display());
        let timed = compile(&[HEAT], opt, &[&prior_arg]);
        let run = timed.run(&["64", "10", "5"]);
        assert!(run.output.status.success(), "{}", run.stderr());
        assert!(run.reports.is_empty(), "time mode writes no taint report");
        let p = profile_of(&run);
        assert_eq!(p.params.len(), 3);
        assert_eq!(p.params[0], ("n".to_string(), 64.0));
        assert_eq!(p.argv.len(), 4);
        assert_eq!(region(&p, "main").visits, 1.0);
        let step = region(&p, "main->step");
        assert_eq!(step.visits, 10.0);
        assert_eq!(region(&p, "main->init").visits, 2.0);
        assert_eq!(
            p.regions.iter().any(|r| r.callpath.contains("probe")),
            !probe_constant,
            "probe is measured iff the prior says it is not constant"
        );
        // step's loops (heat.c lines 24 and 25): n-2 outer and (n-2)^2 inner
        // iterations per call, 10 calls.
        assert_eq!(iterations(step, 24), 62 * 10);
        assert_eq!(iterations(step, 25), 62 * 62 * 10);
        let init = region(&p, "main->init");
        assert_eq!(iterations(init, 17), 64 * 2);
        assert_eq!(iterations(init, 18), 64 * 64 * 2);
        let main = region(&p, "main");
        assert_eq!(iterations(main, 52), 10);
        assert_eq!(iterations(main, 59), 5);
        for r in &p.regions {
            assert!(
                r.inclusive_seconds >= r.exclusive_seconds && r.exclusive_seconds >= 0.0,
                "{r:?}"
            );
        }
        assert!(main.inclusive_seconds > 0.0 && p.wall_seconds >= main.inclusive_seconds);
        shapes.push(shape(&p));
    }
    assert_eq!(shapes[0], shapes[1], "-O0 and -O2 differ");
}

#[test]
fn records_survive_sigterm_and_immediate_exit() {
    for opt in ["-O0", "-O2"] {
        let b = compile(&["time_ends.c"], opt, &["--tp-mode=time"]);
        let run = b.run(&["100", "term"]);
        assert!(!run.output.status.success());
        let p = profile_of(&run);
        let work = region(&p, "main->work");
        assert_eq!(work.visits, 2.0, "{opt}");
        let line = line_of_marker(&b.sources, "@work-loop");
        // The counts live in a register until the activation returns: the second
        // call's 100 iterations are lost with it (docs/time-mode.md, "Limitations").
        assert_eq!(
            iterations(work, line),
            100,
            "only the completed call's loop"
        );
        assert_eq!(region(&p, "main").visits, 1.0);
        assert!(
            region(&p, "main").inclusive_seconds > 0.0,
            "open frames count until the record"
        );

        let run = b.run(&["50", "exit"]);
        assert_eq!(run.output.status.code(), Some(3));
        let p = profile_of(&run);
        assert_eq!(region(&p, "main->work").visits, 2.0);
        assert_eq!(iterations(region(&p, "main->work"), line), 50);
    }
}

#[test]
fn threads_are_summed_by_call_path() {
    let b = compile(&["time_threads.c"], "-O2", &["--tp-mode=time", "-pthread"]);
    let run = b.run(&["1000"]);
    assert!(run.output.status.success(), "{}", run.stderr());
    let p = profile_of(&run);
    assert_eq!(region(&p, "worker").visits, 4.0);
    let k = region(&p, "worker->kernel");
    assert_eq!(k.visits, 20.0);
    let line = line_of_marker(&b.sources, "@kernel-loop");
    assert_eq!(iterations(k, line), 20 * 1000);
    assert_eq!(region(&p, "main").visits, 1.0);
}

#[test]
fn score_p_filter_selects_functions() {
    let dir = scratch_dir("time-filter");
    let filter = dir.join("heat.filter");
    std::fs::write(
        &filter,
        "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *\n  INCLUDE MANGLED step\nSCOREP_REGION_NAMES_END\n",
    )
    .unwrap();
    let arg = format!("--tp-filter={}", filter.display());
    let b = compile(&[HEAT], "-O2", &[&arg]);
    let run = b.run(&["32", "3", "2"]);
    let p = profile_of(&run);
    let paths: Vec<&str> = p.regions.iter().map(|r| r.callpath.as_str()).collect();
    assert_eq!(paths, vec!["main", "main->step"]);
    assert_eq!(region(&p, "main->step").visits, 3.0);
    assert!(
        region(&p, "main->step").loops.is_empty(),
        "a filter counts no loop"
    );
}

#[test]
fn a_bad_prior_is_a_clear_error() {
    let e = try_compile(
        &[HEAT],
        "-O0",
        &["--tp-prior=/nonexistent/heat.taintprof.json"],
    )
    .err()
    .expect("a missing prior must fail");
    assert!(
        e.contains("cannot read the taint report (--tp-prior) /nonexistent/heat.taintprof.json"),
        "{e}"
    );
    let dir = scratch_dir("time-badprior");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"schema\": \"taintprof.denormal\"}").unwrap();
    let e = try_compile(&[HEAT], "-O0", &[&format!("--tp-prior={}", bad.display())])
        .err()
        .expect("a denormal report is no prior");
    assert!(e.contains("is not a taint report"), "{e}");
    let e = try_compile(&[HEAT], "-O0", &["--tp-prior=x", "--tp-mode=denormal"])
        .err()
        .unwrap();
    assert!(e.contains("do not go with --tp-mode=denormal"), "{e}");
}
