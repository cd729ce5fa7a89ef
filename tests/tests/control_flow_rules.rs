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
            // Which buffer `u` is was decided by the time loop; its size is n either
            // way. At -O2 GVN forwards `u->n` through the loop as a PHI of two loads,
            // which Rule 1 leaves alone like the pointer it replaces.
            r.assert_loop("total", "@total", &["n"]);
        });
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
        // grid_new's calloc(n) is a library loop over n (rt/routines.txt).
        assert_eq!(
            r.function("solve_iterative")["volume"],
            "n*its + n",
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

/// A LULESH-shaped miniature (the paper's example): error exits in element loops, a
/// time step reduced over the elements, regions drawn from a `pow(i+1, balance)`
/// distribution and counted with `regElemSize(r)++`, per-region loops repeated `rep`
/// times with `rep` growing with `cost`.
#[test]
fn a_lulesh_like_code_gets_the_expected_sets() {
    at_each_level(&["cf_lulesh_mini.c"], &["-lm"], |b| {
        let (r, _) = b.run_ok(&["8", "11", "5", "1", "1"]);
        assert_eq!(
            r.parameters(),
            ["size", "regions", "iters", "balance", "cost"]
        );
        let f = "create_region_index_sets";
        r.assert_loop(f, "@bins", &["regions"]);
        r.assert_loop(f, "@assign", &["size"]);
        r.assert_loop(f, "@search", &["regions", "balance"]);
        r.assert_loop(f, "@store", &["size"]);
        r.assert_loop(f, "@count", &["size"]);
        r.assert_loop(f, "@alloc", &["regions"]);
        r.assert_loop(f, "@fill", &["size"]);
        // Error exits add nothing (the time step's labels stayed out).
        r.assert_loop("calc_volumes", "@volumes", &["size"]);
        r.assert_loop("calc_courant", "@courant", &["size"]);
        r.assert_loop("update_energy", "@energy", &["size"]);
        // The per-region loops: their size counts elements of a region drawn with
        // weights (i+1)^balance, a dependency that pure data flow misses.
        r.assert_loop("eval_eos", "@eos", &["size", "regions", "balance"]);
        r.assert_loop("eval_eos", "@rep", &["regions", "cost"]);
        r.assert_loop("apply_material_properties", "@regions", &["regions"]);
        r.assert_loop("main", "@init", &["size"]);
        r.assert_loop("main", "@sum", &["size"]);
        // The time loop depends on the element count and the iterations only: `cost`
        // does not reach it (the pressures the repeated per-region loop overwrites do
        // not depend on how often it ran), nor do `regions` and `balance` (the element
        // index read from a region's list, `e[list[i]]`, is an identity: the address of
        // a load drops the labels the per-region loop's back edge gave `i`).
        r.assert_loop("main", "@time", &["size", "iters"]);
        // Which parameters came only through control flow (TAINTPROF_CONTROL_SPLIT, on
        // by default): the element count reaches the per-region loops as a count
        // (`regElemSize(r)++`) and balance through the region search's exit test; the
        // region count is data there (`i % nr`). The time step is a minimum over the
        // elements (the reduction's back edge); iters is data.
        let control_only = |f: &str, m: &str| str_set(&r.loop_json(f, m)["control_only_params"]);
        assert_eq!(
            control_only("eval_eos", "@eos"),
            names(&["size", "balance"]),
            "[{}]",
            b.opt
        );
        assert_eq!(
            control_only("eval_eos", "@rep"),
            names(&["regions"]),
            "[{}]",
            b.opt
        );
        assert_eq!(
            control_only("main", "@time"),
            names(&["size"]),
            "[{}]",
            b.opt
        );
        assert_eq!(
            control_only("calc_volumes", "@volumes"),
            names(&[]),
            "[{}]",
            b.opt
        );
        assert_eq!(
            control_only(f, "@search"),
            names(&["regions"]),
            "[{}] regions comes through the cumulative bins' running sum",
            b.opt
        );
        assert_eq!(r.json["options"]["control_split"], true, "[{}]", b.opt);
        let text = r.text();
        assert!(
            text.contains("only through control flow: size, balance"),
            "[{}] {text}",
            b.opt
        );
    });
}

/// Issue pattern 4: a value derived from a loop index and used as an identity (a random
/// seed, a hash, a material `h % NMAT` or `i & 7`, an element `list[i]`) does not hand
/// the loop's labels to the loops it picks; a magnitude use (`for (j < i)`) keeps them.
/// XSBench-shaped: the seed goes through calls at -O0 and is inlined at -O2.
#[test]
fn loop_indices_used_as_identities_do_not_reach_the_kernels() {
    at_each_level(&["cf_identity.c"], &[], |b| {
        let (r, _) = b.run_ok(&["50", "20", "30", "10"]);
        assert_eq!(r.parameters(), ["lookups", "isotopes", "gridpoints", "n"]);
        r.assert_loop("main", "@lookups", &["lookups"]);
        // The seed, the energy and the material drawn from it name a lookup.
        r.assert_loop("pick_mat", "@pick", &[]);
        r.assert_loop("pick_mat", "@running", &[]);
        r.assert_loop("calculate_macro_xs", "@nuclides", &["isotopes"]);
        r.assert_loop("union_search", "@union_search", &["isotopes", "gridpoints"]);
        // The grid searched was picked by a nuclide id computed `% isotopes` (data).
        r.assert_loop(
            "nuclide_search",
            "@nuclide_search",
            &["isotopes", "gridpoints"],
        );
        // Jumping the generator ahead by 2 * i steps takes log2(2 * i) steps: the index
        // is a magnitude there.
        r.assert_loop("fast_forward_LCG", "@ff", &["lookups"]);
        // A hash (`xor`, then `% NMAT`) and a mask (`i & 7`) are identities.
        r.assert_loop("main", "@hashed", &["lookups"]);
        r.assert_loop("main", "@hashed_nucs", &["isotopes"]);
        r.assert_loop("main", "@masked_nucs", &["isotopes"]);
        // A triangular loop uses its outer index as a magnitude.
        r.assert_loop("main", "@outer", &["n"]);
        r.assert_loop("main", "@triangle", &["n"]);
        let pick = r.function("pick_mat");
        assert!(
            str_set(&pick["inclusive_params"]).is_empty(),
            "[{}] pick_mat must be constant: {pick}",
            b.opt
        );
    });
}
