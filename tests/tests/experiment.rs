//! `taintprof experiment` end to end (issue 25, item 2): a grid of runs with
//! repetitions into Extra-P's JSON format, the points of a real report's experiment
//! design, resuming after the experiment was killed, and what it refuses or reports
//! (a parameter the command does not use, failing runs, a changed plan).
//!
//! The measured program is a small C program built with plain clang-19: it spins for
//! `n * m * SPIN_UNIT_MS` milliseconds (times `(n / SPIN_KNEE)^2` above `SPIN_KNEE`),
//! fails for `n = SPIN_FAIL_N`, and at its end
//! appends `n m` to the file `SPIN_LOG`, so the log says which runs were made.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use taintprof_fit::experiment::Experiment;
use taintprof_tests::*;

const SPIN_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: spin N M\n");
    return 2;
  }
  long n = atol(argv[1]), m = atol(argv[2]);
  const char *fail = getenv("SPIN_FAIL_N");
  if (fail && atol(fail) == n) {
    fprintf(stderr, "spin: refusing n=%ld\n", n);
    return 3;
  }
  const char *unit = getenv("SPIN_UNIT_MS");
  double seconds = n * m * (unit ? atof(unit) : 1.0) / 1000.0;
  const char *knee = getenv("SPIN_KNEE");
  if (knee && n > atol(knee))
    seconds *= (double)n * n / ((double)atol(knee) * atol(knee));
  double start = now();
  volatile unsigned long x = 0;
  while (now() - start < seconds)
    x++;
  FILE *f = fopen(getenv("SPIN_LOG"), "a");
  if (!f)
    return 4;
  fprintf(f, "%ld %ld\n", n, m);
  fclose(f);
  return 0;
}
"#;

/// The spin program, built once per test in its scratch directory.
fn spin(dir: &Path) -> PathBuf {
    let src = dir.join("spin.c");
    std::fs::write(&src, SPIN_C).unwrap();
    let exe = dir.join("spin");
    let out = run_cmd(
        Command::new("clang-19")
            .args(["-O1", "-o"])
            .arg(&exe)
            .arg(&src),
    );
    assert!(out.status.success(), "clang-19 spin.c: {out:?}");
    exe
}

fn taintprof() -> Command {
    Command::new(bin_dir().join("taintprof"))
}

/// `taintprof experiment ARGS` in `dir`, with the spin program's log in `dir/log`.
fn experiment(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut c = taintprof();
    c.current_dir(dir)
        .arg("experiment")
        .args(args)
        .env("SPIN_LOG", dir.join("log"));
    for (k, v) in env {
        c.env(k, v);
    }
    c
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The log's lines (`n m`, one per finished run).
fn log(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("log"))
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

fn count(lines: &[String], line: &str) -> usize {
    lines.iter().filter(|l| *l == line).count()
}

fn measurements(out: &Path) -> Experiment {
    let text = std::fs::read_to_string(out.join("measurements.json")).unwrap();
    taintprof_fit::extrap_json::read_json(&text)
        .unwrap_or_else(|e| panic!("measurements.json does not read back: {e}\n{text}"))
}

fn journal_lines(out: &Path) -> usize {
    std::fs::read_to_string(out.join("journal.jsonl"))
        .unwrap_or_default()
        .lines()
        .count()
}

#[test]
fn a_grid_with_repetitions_gives_every_point_every_repetition() {
    let dir = scratch_dir("experiment-grid");
    let exe = spin(&dir);
    let out = run_cmd(&mut experiment(
        &dir,
        &[
            "--out",
            "exp",
            "--reps",
            "3",
            "--grid",
            "n=1,2",
            "m=1,2,3",
            "--",
            exe.to_str().unwrap(),
            "{n}",
            "{m}",
        ],
        &[],
    ));
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("[18/18] n=2 m=3 rep 3/3: "), "{err}");
    assert!(err.contains("(ETA "), "{err}");
    assert!(
        err.contains("18 of 18 runs measured; measurements: exp/measurements.json"),
        "{err}"
    );
    assert!(
        err.contains("next: taintprof model --prior REPORT.json exp/measurements.json"),
        "{err}"
    );

    let lines = log(&dir);
    assert_eq!(lines.len(), 18, "{lines:?}");
    // Repetitions interleaved: each point once, then each again.
    let first: std::collections::BTreeSet<&String> = lines[..6].iter().collect();
    assert_eq!(first.len(), 6, "{lines:?}");
    for n in 1..=2 {
        for m in 1..=3 {
            assert_eq!(count(&lines, &format!("{n} {m}")), 3, "{lines:?}");
        }
    }

    let exp = measurements(&dir.join("exp"));
    assert_eq!(exp.params, ["n", "m"]);
    assert_eq!(exp.points.len(), 6);
    assert_eq!(exp.points[0], [1.0, 1.0]);
    assert_eq!(exp.points[5], [2.0, 3.0]);
    assert_eq!(exp.series.len(), 1, "{:?}", exp.series);
    let s = exp.series("spin", "time").expect("the wall time of `spin`");
    assert_eq!(s.data.len(), 6);
    for (i, reps) in &s.data {
        assert_eq!(reps.len(), 3, "point {i}: {reps:?}");
        let (n, m) = (exp.points[*i][0], exp.points[*i][1]);
        for r in reps {
            assert!(*r >= n * m / 1000.0 && *r < 5.0, "point {i}: {r}");
        }
    }
    assert_eq!(journal_lines(&dir.join("exp")), 18);
    // Each run's output went to its own directory.
    assert!(dir.join("exp/runs/n=2,m=3/rep3/stderr").is_file());

    // Run again: everything is done.
    let again = run_cmd(&mut experiment(
        &dir,
        &[
            "--out",
            "exp",
            "--reps",
            "3",
            "--grid",
            "n=1,2",
            "m=1,2,3",
            "--",
            exe.to_str().unwrap(),
            "{n}",
            "{m}",
        ],
        &[],
    ));
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stderr(&again).contains("resuming exp: 18 of 18 runs done"));
    assert_eq!(log(&dir).len(), 18);
}

#[test]
fn a_design_from_a_real_report_runs_the_designs_points() {
    let dir = scratch_dir("experiment-design");
    let heat = dir.join("heat");
    let cc = run_cmd(
        Command::new(bin_dir().join("taintprof-cc"))
            .arg("-O2")
            .arg(workspace_root().join("examples/heat.c"))
            .arg("-o")
            .arg(&heat)
            .arg("-lm"),
    );
    assert!(cc.status.success(), "taintprof-cc heat.c: {cc:?}");
    let run = run_cmd(
        taintprof()
            .current_dir(&dir)
            .args(["run", "--out", "taint", "--"])
            .arg(&heat)
            .args(["24", "4", "3"]),
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let report = std::fs::read_dir(dir.join("taint"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".taintprof.json"))
        .expect("taintprof run writes the report");
    let design_args = [
        "--design",
        "n=32,64,128,256,512",
        "steps=10,20,40,80,160",
        "probes=5,10,20,40,80",
    ];
    let printed = run_cmd(
        taintprof()
            .arg("report")
            .arg(&report)
            .args(design_args)
            .arg("--json"),
    );
    assert!(printed.status.success(), "{}", stderr(&printed));
    let d: Value = serde_json::from_slice(&printed.stdout).unwrap();
    let params: Vec<String> = d["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    let runs: Vec<Vec<String>> = d["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            params
                .iter()
                .map(|p| r["values"][p].as_str().unwrap().to_string())
                .collect()
        })
        .collect();
    assert!(runs.len() < 125, "a design, not the full factorial: {d}");

    // The measured command: a shell that logs its arguments (fast).
    let out = run_cmd(
        taintprof()
            .current_dir(&dir)
            .args(["experiment", "--out", "exp", "--reps", "1", "--prior"])
            .arg(&report)
            .args(design_args)
            .args(["--", "sh", "-c", "echo {n} {steps} {probes} >> log"]),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let plan: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("exp/plan.json")).unwrap()).unwrap();
    let planned: Vec<Vec<String>> = serde_json::from_value(plan["points"].clone()).unwrap();
    let plan_params: Vec<String> = serde_json::from_value(plan["params"].clone()).unwrap();
    assert_eq!(plan_params, params);
    assert_eq!(planned, runs);
    let logged: Vec<Vec<String>> = log(&dir)
        .iter()
        .map(|l| l.split(' ').map(String::from).collect())
        .collect();
    // The log has n steps probes; the design's parameters are in registration order,
    // which is the same for heat.
    assert_eq!(params, ["n", "steps", "probes"]);
    assert_eq!(logged, runs);
    let exp = measurements(&dir.join("exp"));
    assert_eq!(exp.points.len(), runs.len());
    assert_eq!(exp.series("sh", "time").unwrap().data.len(), runs.len());
}

/// Starts an experiment of 2 points × 3 repetitions (runs of 0.2 and 0.3 s), kills
/// taintprof with `signal` once two runs are in the journal, then runs the same
/// command again; the log must show each run exactly once.
fn resume_after(signal: &str, tag: &str) {
    let dir = scratch_dir(tag);
    let exe = spin(&dir);
    let args = [
        "--out",
        "exp",
        "--reps",
        "3",
        "--grid",
        "n=2,3",
        "m=1",
        "--",
        exe.to_str().unwrap(),
        "{n}",
        "{m}",
    ];
    let env = [("SPIN_UNIT_MS", "100")];
    let child = experiment(&dir, &args, &env)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while journal_lines(&dir.join("exp")) < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no runs finished"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let kill = run_cmd(
        Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string()),
    );
    assert!(kill.status.success());
    let first = child.wait_with_output().unwrap();
    let finished = journal_lines(&dir.join("exp"));
    assert!(finished < 6, "killed too late: {}", stderr(&first));
    if signal == "TERM" {
        assert_eq!(first.status.code(), Some(143), "{}", stderr(&first));
        assert!(
            stderr(&first).contains("stopped (SIGTERM)"),
            "{}",
            stderr(&first)
        );
    }
    // Wait for the killed run to be gone (SIGKILL: its SIGTERM comes from the kernel).
    std::thread::sleep(Duration::from_millis(200));
    // Every run that wrote its line is in the journal, and no other.
    assert_eq!(log(&dir).len(), finished, "{:?}", log(&dir));
    let partial = measurements(&dir.join("exp"));
    let s = partial.series("spin", "time").unwrap();
    let in_file = s.data.iter().map(|(_, r)| r.len()).sum::<usize>();
    if signal == "KILL" {
        // Killed between the journal's line and the file's rewrite: one run behind.
        assert!(
            in_file + 1 >= finished && in_file <= finished,
            "{in_file} of {finished}"
        );
    } else {
        assert_eq!(in_file, finished);
    }
    if signal == "KILL" {
        // Killed while writing its journal: a torn last line.
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join("exp/journal.jsonl"))
            .unwrap();
        f.write_all(br#"{"point":["3","1"],"rep":3,"sta"#).unwrap();
    }

    let second = run_cmd(&mut experiment(&dir, &args, &env));
    let err = stderr(&second);
    assert!(second.status.success(), "{err}");
    assert!(
        err.contains(&format!("resuming exp: {finished} of 6 runs done")),
        "{err}"
    );
    if signal == "KILL" {
        assert!(err.contains("the last line was cut off"), "{err}");
    }
    let lines = log(&dir);
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(count(&lines, "2 1"), 3, "{lines:?}");
    assert_eq!(count(&lines, "3 1"), 3, "{lines:?}");
    let exp = measurements(&dir.join("exp"));
    let s = exp.series("spin", "time").unwrap();
    assert_eq!(s.data.len(), 2);
    assert!(s.data.iter().all(|(_, r)| r.len() == 3), "{:?}", s.data);
}

#[test]
fn resumes_after_sigterm_without_repeating_finished_runs() {
    resume_after("TERM", "experiment-term");
}

#[test]
fn resumes_after_sigkill_without_repeating_finished_runs() {
    resume_after("KILL", "experiment-kill");
}

#[test]
fn a_parameter_the_command_does_not_use_is_an_error() {
    let dir = scratch_dir("experiment-placeholder");
    let exe = spin(&dir);
    let exe = exe.to_str().unwrap();
    let out = run_cmd(&mut experiment(
        &dir,
        &[
            "--out", "exp", "--grid", "n=1,2", "m=1", "--", exe, "7", "{m}",
        ],
        &[],
    ));
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--grid: the command never uses {n}"),
        "{}",
        stderr(&out)
    );
    let out = run_cmd(&mut experiment(
        &dir,
        &["--out", "exp", "--grid", "n=1,2", "--", exe, "{n}", "{m}"],
        &[],
    ));
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the command uses {m}, but m has no values"),
        "{}",
        stderr(&out)
    );
    let out = run_cmd(&mut experiment(
        &dir,
        &["--out", "exp", "--", exe, "{n}"],
        &[],
    ));
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--grid PARAM=V1,V2,..."),
        "{}",
        stderr(&out)
    );
    assert!(log(&dir).is_empty());
}

#[test]
fn failing_runs_are_reported_and_left_out() {
    let dir = scratch_dir("experiment-fail");
    let exe = spin(&dir);
    let out = run_cmd(&mut experiment(
        &dir,
        &[
            "--out",
            "exp",
            "--reps",
            "2",
            "--grid",
            "n=1,2",
            "m=1",
            "--",
            exe.to_str().unwrap(),
            "{n}",
            "{m}",
        ],
        &[("SPIN_FAIL_N", "2")],
    ));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("2 runs failed"), "{err}");
    assert!(err.contains("n=2 m=1 rep 1: exit status 3"), "{err}");
    assert!(
        err.contains(&format!("command: {} 2 1", exe.display())),
        "{err}"
    );
    assert!(err.contains("| spin: refusing n=2"), "{err}");
    assert!(err.contains("2 of 4 runs measured, 2 failed"), "{err}");
    let exp = measurements(&dir.join("exp"));
    let s = exp.series("spin", "time").unwrap();
    assert_eq!(s.data.len(), 1);
    assert_eq!(exp.points[s.data[0].0], [1.0, 1.0]);
    assert_eq!(s.data[0].1.len(), 2);

    // A timeout kills the run and counts as a failure.
    let out = run_cmd(&mut experiment(
        &dir,
        &[
            "--out",
            "slow",
            "--reps",
            "1",
            "--timeout",
            "0.3",
            "--grid",
            "n=1,50",
            "m=1",
            "--",
            exe.to_str().unwrap(),
            "{n}",
            "{m}",
        ],
        &[("SPIN_UNIT_MS", "100")],
    ));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("n=50 m=1 rep 1: timed out (--timeout 0.3)"),
        "{err}"
    );
    assert_eq!(count(&log(&dir), "50 1"), 0);
}

#[test]
fn a_changed_plan_is_refused() {
    let dir = scratch_dir("experiment-plan");
    let exe = spin(&dir);
    let exe = exe.to_str().unwrap();
    let with = |reps: &str, extra: &[&str]| {
        let mut args = vec!["--out", "exp", "--reps", reps];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--grid", "n=1,2", "m=1", "--", exe, "{n}", "{m}"]);
        run_cmd(&mut experiment(&dir, &args, &[]))
    };
    let first = with("1", &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let changed = with("2", &[]);
    let err = stderr(&changed);
    assert!(!changed.status.success());
    assert!(err.contains("holds another experiment"), "{err}");
    assert!(err.contains("the repetitions were 1, now 2"), "{err}");
    assert!(err.contains("--restart"), "{err}");
    assert_eq!(log(&dir).len(), 2);
    let restarted = with("2", &["--restart"]);
    assert!(restarted.status.success(), "{}", stderr(&restarted));
    assert_eq!(log(&dir).len(), 2 + 4);
    assert_eq!(journal_lines(&dir.join("exp")), 4);
}

#[test]
fn extrap_reads_the_measurements() {
    let dir = scratch_dir("experiment-extrap");
    let exe = spin(&dir);
    let out = run_cmd(&mut experiment(
        &dir,
        &[
            "--out",
            "exp",
            "--quiet",
            "--reps",
            "2",
            "--grid",
            "n=1,2,4,8,16",
            "--",
            exe.to_str().unwrap(),
            "{n}",
            "1",
        ],
        &[("SPIN_UNIT_MS", "2")],
    ));
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("[1/10]"), "--quiet: no progress lines\n{err}");
    let extrap = run_cmd(
        Command::new(extrap())
            .arg("--json")
            .arg(dir.join("exp/measurements.json")),
    );
    let text = String::from_utf8_lossy(&extrap.stdout);
    assert!(
        extrap.status.success(),
        "Extra-P cannot read the measurements:\n{text}\n{}",
        stderr(&extrap)
    );
    assert!(text.contains("Callpath: spin"), "{text}");
    assert!(text.contains("Model:"), "{text}");
}

#[test]
fn adaptive_adds_points_where_the_curve_bends() {
    let dir = scratch_dir("experiment-adaptive");
    let exe = spin(&dir);
    let args = [
        "--out",
        "exp",
        "--quiet",
        "--adaptive",
        "--reps",
        "2",
        "--grid",
        "n=1,2,4,8",
        "m=1",
        "--",
        exe.to_str().unwrap(),
        "{n}",
        "{m}",
    ];
    // Linear up to 4, cubic above: a bend at 4 (25, 50, 100, 800 ms).
    let env = [("SPIN_UNIT_MS", "25"), ("SPIN_KNEE", "4")];
    let out = run_cmd(&mut experiment(&dir, &args, &env));
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("--adaptive: "), "{err}");
    assert!(err.contains("n=3 m=1") && err.contains("n=6 m=1"), "{err}");
    let lines = log(&dir);
    assert_eq!(count(&lines, "3 1"), 2, "{lines:?}");
    assert_eq!(count(&lines, "6 1"), 2, "{lines:?}");
    let exp = measurements(&dir.join("exp"));
    let ns: Vec<f64> = exp.points.iter().map(|p| p[0]).collect();
    assert!(ns.contains(&3.0) && ns.contains(&6.0), "{ns:?}");
    assert!(exp
        .series("spin", "time")
        .unwrap()
        .data
        .iter()
        .all(|(_, r)| r.len() == 2));
    // The added points are part of the plan: the same command again has nothing to do.
    let again = run_cmd(&mut experiment(&dir, &args, &env));
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(log(&dir).len(), lines.len());
}
