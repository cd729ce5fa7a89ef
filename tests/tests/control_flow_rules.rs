//! End to end: the control-flow rule on the shapes real codes have (issue: "right answers
//! on real codes"). Each program is checked loop by loop at -O0 and -O2, with the exact
//! parameter sets.

use taintprof_tests::*;

#[test]
fn error_exits_in_loops_add_nothing() {
    at_each_level(&["cf_error_exit.c"], &[], |b| {
        let (r, _) = b.run_ok(&["64", "5", "1.5"]);
        assert_eq!(r.parameters(), ["n", "steps", "scale"]);
        r.assert_loop("min_value", "@min", &["n"]);
        r.assert_loop("check", "@check", &["n"]);
        r.assert_loop("sweep", "@sweep", &["n"]);
        r.assert_loop("main", "@init", &["n"]);
        r.assert_loop("main", "@time", &["steps"]);
        r.assert_loop("main", "@after", &["steps"]);
    });
}

#[test]
fn swapped_buffers_keep_their_size_after_the_time_loop() {
    for src in ["cf_swap.c", "cf_swap_std.cpp"] {
        at_each_level(&[src], &[], |b| {
            let (r, _) = b.run_ok(&["32", "6"]);
            r.assert_loop("relax", "@relax", &["n"]);
            r.assert_loop("main", "@time", &["steps"]);
            // Which buffer `u` is was decided by the time loop; its size is n either way.
            // At -O2 see the ignored test below.
            if b.opt == "-O0" {
                r.assert_loop("total", "@total", &["n"]);
            }
        });
    }
}

/// Still wrong at -O2: GVN forwards `u->n` through the time loop as an integer phi
/// (the value stored before the loop on one side, a load through the swapped pointer on
/// the other), and Rule 1 gives that join the time loop's label. Kept as the target of
/// the control-flow issue; it fails until the join is recognised as forwarded memory.
#[test]
#[ignore = "known over-approximation at -O2 (docs/internal/control-flow.md, Pointers): forwarded loads through swapped buffers"]
fn swapped_buffers_keep_their_size_after_the_time_loop_at_o2() {
    for src in ["cf_swap.c", "cf_swap_std.cpp"] {
        let b = compile(&[src], "-O2", &[]);
        let (r, _) = b.run_ok(&["32", "6"]);
        r.assert_loop("total", "@total", &["n"]);
    }
}

/// Not a control-flow rule but a context identity: two calls on one line are two
/// calling contexts (told apart by their column), so their parameters add.
#[test]
fn two_calls_on_one_line_are_two_contexts() {
    at_each_level(&["cf_two_calls.c"], &[], |b| {
        let (r, _) = b.run_ok(&["10", "20"]);
        r.assert_loop("work", "@work", &["a", "b"]);
        let work = r.function("work");
        assert_eq!(work["volume"], "a + b", "[{}] {work}", b.opt);
        assert_eq!(work["contexts"].as_array().unwrap().len(), 2, "[{}]", b.opt);
        // The frames of both contexts name the line and, to tell them apart, a column.
        let cols: Vec<u64> = work["contexts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                c["path"].as_array().unwrap().last().unwrap()["column"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_ne!(cols[0], cols[1], "[{}] {work}", b.opt);
        assert_eq!(r.function("both")["volume"], "a + b", "[{}]", b.opt);
        let pairs = r.function("both")["pairs"].to_string();
        assert!(
            pairs.contains("additive") && !pairs.contains("multiplicative"),
            "{pairs}"
        );
    });
}

/// A parameter that selects the solver: each solver builds its grid (`g->n = n` under
/// `if (method == 0)`, in a callee); the sweep over the grid depends on `n`, not on the
/// selector, which stays in the branch report. A count kept in memory under a
/// data-dependent `if` still depends on the threshold (an update, not an overwrite).
#[test]
fn a_solver_selector_stays_out_of_the_sweeps() {
    at_each_level(&["cf_selector.c"], &[], |b| {
        let (r, _) = b.run_ok(&["50", "1", "4", "0.5"]);
        assert_eq!(r.parameters(), ["n", "method", "its", "t"]);
        r.assert_loop("sweep", "@sweep", &["n"]);
        r.assert_loop("solve_iterative", "@its", &["its"]);
        r.assert_loop("count_above", "@count", &["n"]);
        r.assert_loop("report_above", "@above", &["n", "t"]);
        r.assert_loop("main", "@fill", &["n"]);
        assert_eq!(
            r.function("solve_iterative")["volume"],
            "n*its",
            "[{}]",
            b.opt
        );
        let main = r.function("main");
        assert_eq!(
            str_set(&main["inclusive_params"]),
            names(&["n", "its", "t"]),
            "[{}] method must not reach a loop: {main}",
            b.opt
        );
        // The selector is reported where it belongs: as a parameter-dependent branch.
        let line = r.marker_line("@select");
        let branches = &main["branches"];
        assert!(
            branches
                .as_array()
                .unwrap()
                .iter()
                .any(|br| br["line"] == line && str_set(&br["params"]) == names(&["method"])),
            "[{}] no branch on method at line {line}: {branches}",
            b.opt
        );
    });
    at_each_level(&["cf_selector.cpp"], &[], |b| {
        let (r, _) = b.run_ok(&["50", "1", "4"]);
        r.assert_loop("Grid::sweep", "@sweep", &["n"]);
        r.assert_loop("Iterative::solve", "@its", &["its"]);
    });
}

/// Perf-Taint's unit tests: a result that is 2 on both branches and a bound read from
/// a constant table depend on no parameter of the decision or the index.
#[test]
fn joins_of_one_value_and_uniform_constant_tables_select_nothing() {
    at_each_level(&["cf_perftaint_units.c"], &[], |b| {
        let (r, _) = b.run_ok(&["5", "10"]);
        r.assert_loop("same_on_both_sides", "@both", &["m"]);
        r.assert_loop("constant_table", "@table", &["m"]);
    });
}
