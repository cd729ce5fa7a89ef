//! End to end: cost driven by recursion depth, and a computed-goto dispatch loop
//! (`docs/internal/control-flow.md`, "Recursion" and "Loops that are one cycle"). Each
//! program is checked at -O0 and -O2 with the same answers: function, line, parameters,
//! volume.

use taintprof_tests::*;

/// `cf_recursion K LEVELS N M`.
const RECURSION_ARGS: [&str; 4] = ["20", "4", "1000", "9"];

#[test]
fn recursion_decided_by_a_parameter_is_a_loop_over_it() {
    at_each_level(&["cf_recursion.c"], &[], |b| {
        let (r, _) = b.run_ok(&RECURSION_ARGS);
        let opt = &b.opt;
        // fib(k): `k < 2` decides whether to recurse; one loop over {k} at that decision.
        r.assert_loop("fib", "@fib", &["k"]);
        let fib = r.function("fib");
        assert_eq!(fib["volume"], "k", "[{opt}] {fib}");
        assert_eq!(fib["constant"], false, "[{opt}]");
        assert_eq!(fib["statically_pruned"], false, "[{opt}]");
        assert_eq!(fib["recursive"], true, "[{opt}] the recursive flag stays");
        assert_eq!(
            fib["loops"].as_array().unwrap().len(),
            1,
            "[{opt}] fib has one loop: its recursion (tail-recursion elimination's loop at -O2 is the same one): {fib}"
        );
        assert_eq!(r.loop_json("fib", "@fib")["recursion"], true, "[{opt}]");
        // The text report says what the loop at the decision is.
        let text = r.text();
        let line = r.marker_line("@fib");
        assert!(
            text.lines().any(|l| l.contains(&format!("line {line}"))
                && l.contains("recursion: the depth, decided here")),
            "[{opt}] {text}"
        );

        // The V-cycle: a recursion over {levels} around the smooth loops over {n}.
        r.assert_loop("vcycle", "@vcycle", &["levels"]);
        r.assert_loop("smooth", "@smooth", &["n"]);
        assert_eq!(
            r.loop_json("smooth", "@smooth")["recursion"],
            false,
            "[{opt}]"
        );
        let vcycle = r.function("vcycle");
        assert_eq!(vcycle["volume"], "levels*n", "[{opt}] {vcycle}");
        let pairs = vcycle["pairs"].to_string();
        assert!(pairs.contains("multiplicative"), "[{opt}] {pairs}");

        // Mutual recursion: each function is a loop over {m}, and they do not nest.
        r.assert_loop("is_even", "@even", &["m"]);
        r.assert_loop("is_odd", "@odd", &["m"]);
        assert_eq!(r.function("is_even")["volume"], "m", "[{opt}]");
        assert_eq!(r.function("is_odd")["volume"], "m", "[{opt}]");

        // ping/pong: only ping decides; pong's recursion takes the decisions that led to
        // its call, so it is not constant either.
        r.assert_loop("ping", "@ping", &["m"]);
        r.assert_loop("pong", "@pong", &["m"]);
        assert_eq!(r.function("pong")["volume"], "m", "[{opt}]");
        assert_eq!(r.function("pong")["constant"], false, "[{opt}]");

        // depth(5), decided by no parameter: constant (at -O2 the recursion is folded
        // into a closed form and the function has no loop left at all).
        let depth = r.function("depth");
        assert_eq!(depth["constant"], true, "[{opt}] {depth}");
        assert_eq!(depth["volume"], "1", "[{opt}] {depth}");
        assert_eq!(depth["inclusive_params"], serde_json::json!([]), "[{opt}]");
        if opt == "-O0" {
            r.assert_loop("depth", "@depth", &[]);
        }

        // `calloc(n)` in main is a library loop over n (rt/routines.txt).
        assert_eq!(
            r.function("main")["volume"],
            "levels*n + k + n + m",
            "[{opt}]"
        );
    });
}

#[test]
fn recursive_functions_are_in_the_scorep_filter() {
    for opt in OPT_LEVELS {
        let b = compile(&["cf_recursion.c"], opt, &[]);
        let (r, _) = b.run_ok(&RECURSION_ARGS);
        let text = b.scorep_filter(&r);
        let included = |f: &str| filter_includes(&text, f);
        for f in [
            "fib", "vcycle", "smooth", "is_even", "is_odd", "ping", "pong", "main",
        ] {
            assert!(included(f), "[{opt}] {f} missing:\n{text}");
        }
        assert!(
            !included("depth"),
            "[{opt}] the fixed-depth recursion is constant:\n{text}"
        );
    }
}

#[test]
fn computed_goto_dispatch_is_one_loop_over_the_program() {
    at_each_level(&["cf_goto.c"], &[], |b| {
        let (r, run) = b.run_ok(&["999"]);
        let opt = &b.opt;
        assert!(
            run.stdout().trim().parse::<i64>().is_ok(),
            "{}",
            run.stdout()
        );
        r.assert_loop("run", "@fetch", &["n"]);
        let f = r.function("run");
        assert_eq!(
            f["loops"].as_array().unwrap().len(),
            1,
            "[{opt}] the fetch loop and the goto* cycle are one loop: {f}"
        );
        assert_eq!(f["volume"], "n", "[{opt}] {f}");
        assert_eq!(r.loop_json("run", "@fetch")["executions"], 1, "[{opt}]");
        r.assert_loop("main", "@build", &["n"]);
        assert_eq!(r.function("main")["volume"], "n", "[{opt}]");
    });
}
