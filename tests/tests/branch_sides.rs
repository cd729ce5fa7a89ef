//! Tainted branches in time mode (`docs/time-mode.md`, "Branch sides") end to end, on
//! `branch_sides.c` at -O0 and -O2: the report's tainted branches are recorded per call
//! path (the calls that took each side), the same at both levels; `taintprof
//! experiment --adaptive` bisects the range of `n` where the size branch changes side;
//! `taintprof model` warns `branch_changes_side` there, with the bracket, and keeps the
//! sides out of the models and out of what Extra-P reads.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use taintprof_model::time::{profile_of_files, BranchSide, TimeProfile};
use taintprof_tests::*;

const SRC: &str = "branch_sides.c";

fn profile(dir: &Path) -> TimeProfile {
    let recs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| taintprof_model::time::is_time_record(p))
        .collect();
    assert_eq!(recs.len(), 1, "one time record in {}", dir.display());
    profile_of_files(&recs).unwrap()
}

/// (call path, branch line, side's target line, calls) of every recorded side.
fn sides(p: &TimeProfile) -> Vec<(String, u32, u32, f64)> {
    let mut v: Vec<_> = p
        .regions
        .iter()
        .flat_map(|r| {
            r.branches
                .iter()
                .map(|b: &BranchSide| (r.callpath.clone(), b.line, b.target_line, b.calls))
        })
        .collect();
    v.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
    v
}

/// The taint report of a run at n = 200 (the size branch on its `direct` side only)
/// built at `opt`.
fn prior(opt: &str) -> PathBuf {
    let taint = compile(&[SRC], opt, &[]);
    let (_, run) = taint.run_ok(&["200", "1"]);
    run.reports[0].clone()
}

/// The program built at `opt` in time mode with the prior.
fn timed(opt: &str, prior: &Path) -> Build {
    let arg = format!("--tp-prior={}", prior.display());
    compile(&[SRC], opt, &[&arg])
}

#[test]
fn sides_are_recorded_per_call_path_at_o0_and_o2() {
    // One prior for both builds: time mode instruments before optimization, so -O0 and
    // -O2 record the same sides. (The -O0 report lists `smooth`'s `if (i < n / 4)`,
    // which -O2 turns into a select before the taint pass sees it.)
    let prior = prior("-O0");
    let mut seen = Vec::new();
    for opt in ["-O0", "-O2"] {
        let timed = timed(opt, &prior);
        let line = |m: &str| line_of_marker(&timed.sources, m) as u32;
        let (by_size, method, quarter) = (line("@by-size"), line("@method"), line("@quarter"));
        let mut per_point = Vec::new();
        for (n, m) in [("100", "1"), ("400", "1"), ("400", "2")] {
            let run = timed.run(&[n, m]);
            assert!(run.output.status.success(), "{}", run.stderr());
            let p = profile(&run.out_dir);
            let s = sides(&p);
            // Only the branches the report says depend on a parameter, in timed
            // functions: `solve`'s two and `smooth`'s; not `report`'s (a constant
            // function), nor main's argument checks.
            assert!(
                s.iter().all(|(c, l, _, _)| (c == "main->solve"
                    && (*l == by_size || *l == method))
                    || (c == "main->solve->smooth" && *l == quarter)),
                "{opt} n={n}: {s:?}"
            );
            let calls = |l: u32, target: u32| {
                s.iter()
                    .find(|(_, bl, t, _)| *bl == l && *t == target)
                    .unwrap_or_else(|| panic!("{opt}: no side {l}->{target} in {s:?}"))
                    .3
            };
            // `if (n > 300)`: to `blocked` (the next line) or to `direct` (2 lines on).
            let big = n == "400";
            assert_eq!(calls(by_size, by_size + 1), if big { 3.0 } else { 0.0 });
            assert_eq!(calls(by_size, by_size + 3), if big { 0.0 } else { 3.0 });
            // `switch (method)`: case 1's target taken in every call, or not.
            assert_eq!(calls(method, method + 2), if m == "1" { 3.0 } else { 0.0 });
            assert_eq!(calls(method, method + 5), if m == "2" { 3.0 } else { 0.0 });
            // `if (i < n / 4)` inside smooth's loop: both sides in every call, at
            // every point (a branch whose sides never change).
            let q: Vec<f64> = s
                .iter()
                .filter(|(_, l, _, _)| *l == quarter)
                .map(|x| x.3)
                .collect();
            assert_eq!(q, vec![3.0, 3.0], "{opt} n={n}: {s:?}");
            per_point.push(s);
        }
        // `taintprof run` shows them.
        let shown = run_ok_text(
            Command::new(taintprof_bin())
                .args(["run", "--"])
                .arg(&timed.exe)
                .args(["400", "1"])
                .current_dir(&timed.dir),
        );
        assert!(
            shown.contains(&format!(
                "branch branch_sides.c:{by_size}:7 in main->solve: to line {} in 3 of 3 calls, to line {} in 0 of 3 calls",
                by_size + 1,
                by_size + 3
            )),
            "{shown}"
        );
        seen.push(per_point);
    }
    assert_eq!(seen[0], seen[1], "-O0 and -O2 record different sides");
}

#[test]
fn adaptive_bisects_where_the_size_branch_changes_and_model_warns() {
    for opt in ["-O0", "-O2"] {
        let prior = prior(opt);
        let timed = timed(opt, &prior);
        let by_size = line_of_marker(&timed.sources, "@by-size");
        let exp = timed.dir.join("exp");
        let said = run_ok_text(
            Command::new(taintprof_bin())
                .args(["experiment", "--quiet", "--adaptive", "--out"])
                .arg(&exp)
                .args([
                    "--reps",
                    "2",
                    "--grid",
                    "n=100,200,400,800",
                    "method=1",
                    "--",
                ])
                .arg(&timed.exe)
                .args(["{n}", "{method}"])
                .current_dir(&timed.dir),
        );
        // The boundary (n > 300) lies between 200 and 400: bisected geometrically,
        // 283, 336, 308, 295, each round run before the next is chosen.
        for n in ["283", "336", "308", "295"] {
            assert!(
                said.contains(&format!("where a branch changes side: n={n} method=1")),
                "{opt}: no bisection at {n}:\n{said}"
            );
        }
        // `direct` runs at n <= 300 only: said, since Extra-P refuses such files.
        // (`blocked` never ran in the taint run, so the prior does not time it.)
        assert!(
            said.contains(
                "1 call path was measured at only some of the 8 points (main->solve->direct at 4)"
            ),
            "{opt}: {said}"
        );
        // What Extra-P reads has no branch sides; they are kept apart.
        let measured = std::fs::read_to_string(exp.join("measurements.json")).unwrap();
        assert!(!measured.contains("branch:"), "{measured}");
        let kept = std::fs::read_to_string(exp.join("branch-sides.json")).unwrap();
        assert!(kept.contains(&format!("branch:{by_size}:")), "{kept}");

        let json = timed.dir.join("models.json");
        let text = run_ok_text(
            Command::new(taintprof_bin())
                .arg("model")
                .arg("--prior")
                .arg(&prior)
                .arg(exp.join("measurements.json"))
                .arg("--json")
                .arg(&json),
        );
        let doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let models = doc["models"].as_array().unwrap();
        assert!(
            models
                .iter()
                .all(|m| !m["metric"].as_str().unwrap().starts_with("branch:")),
            "branch sides are not modeled"
        );
        let solve = models
            .iter()
            .find(|m| m["callpath"] == "main->solve" && m["metric"] == "time")
            .expect("a model of main->solve");
        let warnings = solve["warnings"].as_array().unwrap();
        let w = warnings
            .iter()
            .find(|w| w["kind"] == "branch_changes_side")
            .unwrap_or_else(|| panic!("{opt}: no branch_changes_side in {warnings:?}"));
        assert_eq!(w["parameter"], "n");
        assert_eq!(w["line"].as_u64(), Some(by_size));
        assert_eq!(w["between"][0]["from"].as_f64(), Some(295.0), "{w}");
        assert_eq!(w["between"][0]["to"].as_f64(), Some(308.0), "{w}");
        // Measured, so the report's possibility is not repeated for that branch.
        assert!(
            !warnings
                .iter()
                .any(|w| w["kind"] == "tainted_branch" && w["line"].as_u64() == Some(by_size)),
            "{warnings:?}"
        );
        assert!(
            text.contains(&format!(
                "the branch at line {by_size}:7 changes side inside the measured range"
            )) || text.contains(&format!("the branch at line {by_size}:")),
            "{text}"
        );
        assert!(
            text.contains("(not taken at n=295, taken at n=308)"),
            "{text}"
        );
        // Said once per call path, not once per metric.
        assert_eq!(
            text.matches(&format!("the branch at line {by_size}:"))
                .count(),
            1,
            "{text}"
        );
    }
}
