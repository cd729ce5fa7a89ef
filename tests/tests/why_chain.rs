//! `taintprof report --why FUNCTION:LINE PARAM`: the chain from a registration to a
//! loop, with source positions, read from the build's sidecars (issue 22).

use taintprof_tests::*;

/// Asserts that `text` has a step line for each `(what, line)` in this order: a line
/// containing `what` and `file:LINE:`.
fn assert_steps(text: &str, file: &str, steps: &[(&str, u64)], opt: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let mut at = 0;
    for (what, line) in steps {
        let pos = format!("{file}:{line}:");
        match lines[at..]
            .iter()
            .position(|l| l.contains(what) && l.contains(&pos))
        {
            Some(k) => at += k + 1,
            None => panic!("[{opt}] no step {what:?} at {pos} (in order) in:\n{text}"),
        }
    }
}

#[test]
fn why_follows_calls_stores_and_loads_back_to_the_registration() {
    at_each_level(&["why_chain.c"], &[], |b| {
        let (r, _) = b.run_ok(&["20", "3", "1", "2", "5"]);
        let opt = b.opt.as_str();
        let f = "why_chain.c";
        r.assert_loop("smooth", "@sweep", &["n"]);
        r.assert_loop("refine", "@refine", &["scale"]);

        // n: registered in main, passed to mesh_init, stored in a field, read in smooth.
        let (ok, t) = b.why(&r, &format!("smooth:{}", r.marker_line("@sweep")), "n", &[]);
        assert!(ok, "[{opt}] {t}");
        assert!(t.contains("depends on n:"), "[{opt}] {t}");
        assert_steps(
            &t,
            f,
            &[
                ("the loop's exit test", r.marker_line("@sweep")),
                ("stored here", r.marker_line("@store")),
                ("registered as \"n\"", r.marker_line("@reg_n")),
            ],
            opt,
        );
        // mesh_init is inlined at -O2: the call is a step only where it is a call.
        if opt == "-O0" {
            assert_steps(
                &t,
                f,
                &[("passed as argument 2 to mesh_init", r.marker_line("@init"))],
                opt,
            );
        }
        assert!(t.contains("in mesh_init"), "[{opt}] {t}");
        // The source lines are shown under the steps.
        assert!(
            t.contains("| m->cells = 2 * n; /* @store */"),
            "[{opt}] {t}"
        );

        // its: through two calls.
        let (ok, t) = b.why(
            &r,
            &format!("solve_iterative:{}", r.marker_line("@its")),
            "its",
            &[],
        );
        assert!(ok, "[{opt}] {t}");
        assert_steps(
            &t,
            f,
            &[
                ("the loop's exit test", r.marker_line("@its")),
                ("passed as argument 4 to run", r.marker_line("@run")),
                ("registered as \"its\"", r.marker_line("@reg_its")),
            ],
            opt,
        );
        assert!(
            t.contains("passed as argument 2 to solve_iterative"),
            "[{opt}] {t}"
        );

        // scale: through a global written in main.
        let (ok, t) = b.why(
            &r,
            &format!("refine:{}", r.marker_line("@refine")),
            "scale",
            &[],
        );
        assert!(ok, "[{opt}] {t}");
        assert!(t.contains("read `levels`"), "[{opt}] {t}");
        assert_steps(
            &t,
            f,
            &[
                ("the loop's exit test", r.marker_line("@refine")),
                ("registered as \"scale\"", r.marker_line("@reg_scale")),
            ],
            opt,
        );

        // A parameter the report does not give the loop: said, not explained.
        let (ok, t) = b.why(
            &r,
            &format!("smooth:{}", r.marker_line("@sweep")),
            "method",
            &[],
        );
        assert!(ok, "[{opt}] {t}");
        assert!(t.contains("does not depend on method"), "[{opt}] {t}");

        // Bad requests are errors that say what to do.
        let (ok, t) = b.why(&r, "smooth:1", "n", &[]);
        assert!(
            !ok && t.contains("has no loop at line 1")
                && t.contains(&r.marker_line("@sweep").to_string()),
            "[{opt}] {t}"
        );
        let (ok, t) = b.why(
            &r,
            &format!("smooth:{}", r.marker_line("@sweep")),
            "size",
            &[],
        );
        assert!(
            !ok && t.contains("not a parameter of this run") && t.contains("n, steps"),
            "[{opt}] {t}"
        );
        let (ok, t) = b.why(&r, "smooth", "n", &[]);
        assert!(!ok && t.contains("FUNCTION:LINE"), "[{opt}] {t}");
        let empty = scratch_dir("why-empty");
        let (ok, t) = b.why(
            &r,
            &format!("smooth:{}", r.marker_line("@sweep")),
            "n",
            &["--static", empty.to_str().unwrap()],
        );
        assert!(!ok && t.contains("sidecars"), "[{opt}] {t}");
    });
}

/// Control flow: LULESH's per-region loops get `size` and `balance` only through the
/// counts `regElemSize[r]++` made under loops over the elements and over the regions'
/// bins; the chain says which branch and which store.
#[test]
fn why_shows_the_branches_of_control_only_parameters() {
    at_each_level(&["cf_lulesh_mini.c"], &["-lm"], |b| {
        let (r, _) = b.run_ok(&["8", "11", "5", "1", "1"]);
        let opt = b.opt.as_str();
        let f = "cf_lulesh_mini.c";
        let eos = format!("eval_eos:{}", r.marker_line("@eos"));
        let (ok, t) = b.why(&r, &eos, "size", &[]);
        assert!(ok, "[{opt}] {t}");
        assert!(t.contains("(only through control flow)"), "[{opt}] {t}");
        assert_steps(
            &t,
            f,
            &[
                ("the loop's exit test", r.marker_line("@eos")),
                ("decided by the branch", r.marker_line("@fill")),
                ("registered as \"size\"", r.marker_line("@reg_size")),
            ],
            opt,
        );
        let (ok, t) = b.why(&r, &eos, "balance", &[]);
        assert!(ok, "[{opt}] {t}");
        assert_steps(
            &t,
            f,
            &[
                ("the loop's exit test", r.marker_line("@eos")),
                ("decided by the branch", r.marker_line("@search")),
                ("registered as \"balance\"", r.marker_line("@reg_balance")),
            ],
            opt,
        );
    });
}
