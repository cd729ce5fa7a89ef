//! End to end: loops that vanish at -O2.
//!
//! * Loops the optimizer turns into `memset`/`memcpy` (loop idiom recognition), and
//!   library routines the program calls (`qsort`, `memcpy`), are *library loops*: the
//!   same loop, with the same parameters, at -O0 (a natural loop) and -O2 (an intrinsic
//!   call), nested and multiplied like any loop (`cf_memset.c`).
//! * Loops the optimizer folds (a closed-form sum, a fully unrolled constant loop) are
//!   reported as `folded` at -O2 instead of vanishing, and only there (`cf_folded.c`).

use serde_json::Value;
use taintprof_tests::*;

/// The report's loop entry at the line of `marker` in `func`.
fn loop_entry<'a>(r: &'a Report, func: &str, marker: &str) -> &'a Value {
    let line = r.marker_line(marker);
    r.function(func)["loops"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["line"] == line)
        .unwrap_or_else(|| {
            panic!(
                "[{}] no loop of {func} at line {line} ({marker}): {:#}",
                r.opt,
                r.function(func)["loops"]
            )
        })
}

/// Every loop entry of the report with `"kind": kind`, as (function, line).
fn loops_of_kind(r: &Report, kind: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for f in r.json["functions"].as_array().unwrap() {
        for l in f["loops"].as_array().unwrap() {
            if l["kind"] == kind {
                out.push((
                    f["name"].as_str().unwrap().to_string(),
                    l["line"].as_u64().unwrap(),
                ));
            }
        }
    }
    out
}

#[test]
fn loops_turned_into_memset_and_memcpy_keep_their_parameters() {
    at_each_level(&["cf_memset.c"], &[], |b| {
        let (r, _) = b.run_ok(&["40", "3", "20"]);
        assert_eq!(r.parameters(), ["n", "steps", "m"]);
        // The same loops with the same parameter sets at both levels.
        r.assert_loop("init", "@init", &["n"]);
        r.assert_loop("step", "@time", &["steps"]);
        r.assert_loop("step", "@copy", &["n"]);
        r.assert_loop("main", "@fill", &["n"]);
        r.assert_loop("main", "@qsort", &["n"]);
        r.assert_loop("main", "@memcpy", &["m"]);
        // init runs twice; the copy once per time step.
        assert_eq!(r.loop_at("init", "@init").executions, 2);
        assert_eq!(r.loop_at("step", "@copy").executions, 3);
        // The copy (a loop or a memcpy) nests in the time loop: volumes multiply.
        let copy = loop_entry(&r, "step", "@copy");
        assert_eq!(copy["parent_line"], r.marker_line("@time"), "[{}]", b.opt);
        assert_eq!(r.function("step")["volume"], "n*steps", "[{}]", b.opt);
        assert_eq!(r.function("init")["volume"], "n", "[{}]", b.opt);
        assert_eq!(r.function("init")["constant"], false, "[{}]", b.opt);
        assert_eq!(
            r.function("main")["volume"],
            "n*steps + n + m",
            "[{}]",
            b.opt
        );
        // A memset of constant size is no loop.
        let const_line = r.marker_line("@const");
        assert!(
            r.function("main")["loops"]
                .as_array()
                .unwrap()
                .iter()
                .all(|l| l["line"] != const_line),
            "[{}] the constant-size memset is reported as a loop",
            b.opt
        );
        // Explicit calls are library loops at every level, with routine and cost.
        let q = loop_entry(&r, "main", "@qsort");
        assert_eq!(q["kind"], "library", "[{}]", b.opt);
        assert_eq!(q["routine"], "qsort");
        assert_eq!(q["cost"], "n log n");
        let mc = loop_entry(&r, "main", "@memcpy");
        assert_eq!(mc["kind"], "library", "[{}]", b.opt);
        assert_eq!(mc["routine"], "memcpy");
        assert_eq!(mc["cost"], "n");
        // The loops the optimizer turned into calls: natural at -O0, library at -O2.
        let (init, copy) = (
            loop_entry(&r, "init", "@init"),
            loop_entry(&r, "step", "@copy"),
        );
        if b.opt == "-O0" {
            assert_eq!(init["kind"], "loop");
            assert!(init["routine"].is_null() && init["cost"].is_null());
            assert_eq!(copy["kind"], "loop");
        } else {
            assert_eq!(init["kind"], "library");
            assert_eq!(init["routine"], "memset");
            assert_eq!(copy["kind"], "library");
            assert_eq!(copy["routine"], "memcpy");
        }
        // The fill loop stays a loop; the time loop too.
        assert_eq!(loop_entry(&r, "main", "@fill")["kind"], "loop");
        assert_eq!(loop_entry(&r, "step", "@time")["kind"], "loop");
        // A loop made into a call is a library loop, not a folded one.
        assert!(loops_of_kind(&r, "folded").is_empty(), "[{}]", b.opt);
        assert_eq!(r.json["summary"]["loops"]["folded"], 0);
        let text = r.text();
        assert!(
            text.contains("qsort over {n} (n log n)"),
            "[{}] {text}",
            b.opt
        );
        assert!(text.contains("memcpy over {m}"), "[{}] {text}", b.opt);
    });
}

#[test]
fn functions_whose_loops_became_memset_stay_in_the_scorep_filter() {
    let b = compile(&["cf_memset.c"], "-O2", &[]);
    let (r, _) = b.run_ok(&["40", "3", "20"]);
    let text = b.scorep_filter(&r);
    for f in ["init", "step", "main"] {
        assert!(
            filter_includes(&text, f),
            "{f} missing from the filter:\n{text}"
        );
    }
}

#[test]
fn loops_folded_by_the_optimizer_are_reported_as_folded() {
    at_each_level(&["cf_folded.c"], &[], |b| {
        let (r, _) = b.run_ok(&["9", "30"]);
        assert_eq!(r.parameters(), ["k", "n"]);
        // The loop that survives is a loop at both levels, never folded.
        r.assert_loop("scale", "@scale", &["n"]);
        assert_eq!(loop_entry(&r, "scale", "@scale")["kind"], "loop");
        let sum = loop_entry(&r, "sum_k", "@sum");
        let unrolled = loop_entry(&r, "first4", "@unrolled");
        let text = r.text();
        if b.opt == "-O0" {
            // The loop exists and depends on k; nothing is folded.
            r.assert_loop("sum_k", "@sum", &["k"]);
            assert_eq!(sum["kind"], "loop");
            assert_eq!(unrolled["kind"], "loop");
            assert_eq!(unrolled["const_trip_count"], 4);
            assert!(loops_of_kind(&r, "folded").is_empty());
            assert_eq!(r.json["summary"]["loops"]["folded"], 0);
            assert_eq!(r.function("main")["volume"], "k + n");
            assert!(!text.contains("folded by the optimizer"), "{text}");
        } else {
            // Closed form: the loop is gone, reported as folded with no parameters.
            assert_eq!(sum["kind"], "folded");
            assert_eq!(sum["params"], serde_json::json!([]));
            assert_eq!(sum["executions"], 0);
            assert!(sum["routine"].is_null());
            // Fully unrolled (constant trip count): folded too.
            assert_eq!(unrolled["kind"], "folded");
            let mut folded = loops_of_kind(&r, "folded");
            folded.sort();
            assert_eq!(
                folded,
                [
                    ("first4".to_string(), r.marker_line("@unrolled")),
                    ("sum_k".to_string(), r.marker_line("@sum")),
                ]
            );
            assert_eq!(r.json["summary"]["loops"]["folded"], 2);
            assert_eq!(r.json["summary"]["loops"]["never_ran"], 0);
            assert_eq!(r.json["modules"][0]["folded_loops"], 2);
            let line = r.marker_line("@sum");
            assert!(
                text.contains(&format!(
                    "folded by the optimizer (line {line}): its cost is a closed form or it was deleted; parameters unknown"
                )),
                "{text}"
            );
            // A function that looks constant because the optimizer folded its loop is
            // still measured: the Score-P filter includes it.
            let filter = b.scorep_filter(&r);
            assert!(filter_includes(&filter, "sum_k"), "{filter}");
            assert!(filter.contains("folded by the optimizer"), "{filter}");
            // A folded loop is no loop that never ran.
            assert!(
                !text.contains(&format!("cf_folded.c:{line}  sum_k")),
                "{text}"
            );
        }
    });
}
