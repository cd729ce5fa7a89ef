//! End to end, the model structure (issue 3): control-flow tainting, branch sinks,
//! loop-nest volumes, function classification, static pruning, and the outputs other
//! tools use (Score-P filter, experiment design). Every result at -O0 and -O2.

use serde_json::Value;
use std::process::Command;
use taintprof_tests::*;

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn set(v: &Value) -> std::collections::BTreeSet<String> {
    strs(v).into_iter().collect()
}

/// The `kind` of the pair {a, b} in function `f` of the report.
fn pair_kind(f: &Value, a: &str, b: &str) -> String {
    f["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| (p["a"] == a && p["b"] == b) || (p["a"] == b && p["b"] == a))
        .unwrap_or_else(|| panic!("no pair {a},{b} in {}", f["pairs"]))["kind"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn paper_foo_a_by_data_flow_b_by_control_flow() {
    at_each_level(&["paper_foo.c"], &[], |b| {
        for args in [["1", "1"], ["0", "0"]] {
            let (r, _) = b.run_ok(&args);
            assert_eq!(r.json["version"], 4);
            assert_eq!(
                r.json["options"]["control_flow"], true,
                "[{}] control flow is on by default",
                b.opt
            );
            r.assert_loop("consume", "@foo_bound", &["a", "b", "c"]);
        }
    });
    // Data flow alone (at -O0, where the branches stay branches) sees only `a`: the
    // dependence on b and c travels through control flow.
    let b = compile(&["paper_foo.c"], "-O0", &["--tp-control-flow=off"]);
    let (r, _) = b.run_ok(&["1", "1"]);
    assert_eq!(r.json["options"]["control_flow"], false);
    r.assert_loop("consume", "@foo_bound", &["a"]);
}

#[test]
fn c99_and_cxx_matrix_initialisations_give_the_same_answer() {
    at_each_level(&["init_c99.c"], &[], |b| {
        let (c99, _) = b.run_ok(&[]);
        let cpp_build = compile(&["matrix_class.cpp"], &b.opt, &[]);
        let (cpp, _) = cpp_build.run_ok(&[]);
        let c_rows = c99.loop_at("init_c99", "@c99_rows");
        let c_cols = c99.loop_at("init_c99", "@c99_cols");
        let p_rows = cpp.loop_at("init_cpp", "@cpp_rows");
        let p_cols = cpp.loop_at("init_cpp", "@cpp_cols");
        assert_eq!(c_rows.params, names(&["rows"]), "[{}]", b.opt);
        assert_eq!(c_cols.params, names(&["cols"]), "[{}]", b.opt);
        assert_eq!(
            c_rows.params, p_rows.params,
            "[{}] rows loops differ",
            b.opt
        );
        assert_eq!(
            c_cols.params, p_cols.params,
            "[{}] columns loops differ",
            b.opt
        );
        let fc = c99.function("init_c99");
        let fp = cpp.function("init_cpp");
        assert_eq!(fc["volume"], "rows*cols", "[{}]", b.opt);
        assert_eq!(fc["volume"], fp["volume"], "[{}]", b.opt);
    });
}

#[test]
fn paper_iterate_pow_size_optimize_step() {
    at_each_level(&["iterate.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        r.assert_loop("iterate", "@iterate", &["size", "step"]);
        // One exit condition with two parameters: an unresolved joint dependency,
        // multiplicative (conservatively, as in the paper).
        let f = r.function("iterate");
        assert_eq!(f["volume"], "(size,step)", "[{}]", b.opt);
        assert_eq!(
            pair_kind(f, "size", "step"),
            "multiplicative",
            "[{}]",
            b.opt
        );
    });
}

#[test]
fn reg_elem_size_and_counters_depend_on_the_loop_that_counted() {
    at_each_level(&["regelemsize.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        r.assert_loop("build_regions", "@count_elems", &["size"]);
        r.assert_loop("per_region", "@region_loop", &["size"]);
        r.assert_loop("count_positive", "@count_loop", &["size"]);
        r.assert_loop("up_to_count", "@after_count", &["size"]);
        if b.opt == "-O0" {
            // A 4-trip loop: fully unrolled at -O2, constant at -O0.
            let regions = r.loop_at("main", "@regions");
            assert!(regions.params.is_empty(), "[{}] {regions:?}", b.opt);
        }
    });
    // Without control-flow tainting these dependencies are lost.
    at_each_level(&["regelemsize.c"], &["--tp-control-flow=off"], |b| {
        let (r, _) = b.run_ok(&[]);
        r.assert_loop("build_regions", "@count_elems", &["size"]);
        r.assert_loop("count_positive", "@count_loop", &["size"]);
        assert!(
            r.loop_at("per_region", "@region_loop").params.is_empty(),
            "[{}]",
            b.opt
        );
        assert!(
            r.loop_at("up_to_count", "@after_count").params.is_empty(),
            "[{}]",
            b.opt
        );
    });
}

#[test]
fn sequenced_loops_add_nested_loops_multiply_also_across_calls() {
    at_each_level(&["structure.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        let seq = r.function("sequenced");
        assert_eq!(seq["volume"], "a + b", "[{}]", b.opt);
        assert_eq!(pair_kind(seq, "a", "b"), "additive", "[{}]", b.opt);
        let nest = r.function("nested");
        assert_eq!(nest["volume"], "a*b", "[{}]", b.opt);
        assert_eq!(pair_kind(nest, "a", "b"), "multiplicative", "[{}]", b.opt);
        r.assert_loop("nested", "@nest_a", &["a"]);
        r.assert_loop("nested", "@nest_b", &["b"]);
        // A call inside a loop nests the callee's loops under that loop.
        let across = r.function("across_call");
        assert_eq!(
            set(&across["exclusive_params"]),
            names(&["a"]),
            "[{}]",
            b.opt
        );
        assert_eq!(
            set(&across["inclusive_params"]),
            names(&["a", "b"]),
            "[{}]",
            b.opt
        );
        assert_eq!(across["volume"], "a*b", "[{}]", b.opt);
        assert_eq!(across["exclusive_volume"], "a", "[{}]", b.opt);
        assert_eq!(pair_kind(across, "a", "b"), "multiplicative", "[{}]", b.opt);
        assert_eq!(r.function("row")["volume"], "b", "[{}]", b.opt);
    });
}

#[test]
fn volume_terms_are_the_volume_as_data() {
    at_each_level(&["volume_terms.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        let k = r.function("kernel");
        assert_eq!(k["volume"], "n^2*m + (n,m)", "[{}]", b.opt);
        let terms = serde_json::json!([
            [{"params": ["n"], "power": 2}, {"params": ["m"], "power": 1}],
            [{"params": ["n", "m"], "power": 1}],
        ]);
        assert_eq!(k["volume_terms"], terms, "[{}]", b.opt);
        assert_eq!(k["exclusive_volume_terms"], terms, "[{}]", b.opt);
        assert_eq!(k["contexts"][0]["volume_terms"], terms, "[{}]", b.opt);
        // The call nests nothing: main's volume is kernel's; its own loop is constant.
        let main = r.function("main");
        assert_eq!(main["volume_terms"], terms, "[{}]", b.opt);
        assert_eq!(main["exclusive_volume"], "1", "[{}]", b.opt);
        assert_eq!(
            main["exclusive_volume_terms"],
            serde_json::json!([[]]),
            "[{}]",
            b.opt
        );
    });
}

#[test]
fn a_parameter_selected_algorithm_is_reported_with_its_untaken_side() {
    at_each_level(&["structure.c"], &[], |b| {
        let (r, _) = b.run_ok(&["7", "1"]);
        let solve = r.function("solve");
        let line = r.marker_line("@algo_branch");
        let br = solve["branches"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["line"] == line)
            .unwrap_or_else(|| {
                panic!(
                    "[{}] no branch at line {line}: {}",
                    b.opt, solve["branches"]
                )
            });
        assert_eq!(set(&br["params"]), names(&["algo"]), "[{}] {br}", b.opt);
        let succ = br["successors"].as_array().unwrap();
        let direct = r.marker_line("@direct_call");
        let iterative = r.marker_line("@iterative_call");
        let taken = |l: u64| {
            succ.iter()
                .find(|s| s["line"] == l)
                .map(|s| s["taken"].as_bool().unwrap())
        };
        assert_eq!(taken(direct), Some(true), "[{}] {br}", b.opt);
        assert_eq!(
            taken(iterative),
            Some(false),
            "[{}] the other algorithm never ran: {br}",
            b.opt
        );
        // The algorithm that did not run is known, and so is the dependency it would add.
        let it = r.function("iterative");
        assert_eq!(it["executed"], false, "[{}]", b.opt);
        assert_eq!(r.function("direct")["volume"], "n", "[{}]", b.opt);
    });
}

#[test]
fn recursion_is_marked_and_warned_about() {
    at_each_level(&["structure.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        let f = r.function("tree_sum");
        assert_eq!(f["recursive"], true, "[{}]", b.opt);
        let warnings = strs(&r.json["warnings"]);
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("tree_sum") && w.contains("over-approximat")),
            "[{}] no recursion warning for tree_sum: {warnings:?}",
            b.opt
        );
        r.assert_loop("tree_sum", "@leaf", &["len"]);
    });
}

#[test]
fn constant_functions_statically_and_dynamically_pruned() {
    at_each_level(&["structure.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        let fixed = r.function("fixed_work");
        assert_eq!(fixed["statically_pruned"], true, "[{}] {fixed}", b.opt);
        assert_eq!(fixed["constant"], true, "[{}]", b.opt);
        if b.opt == "-O0" {
            // At -O2 the 16-trip loop is unrolled away; at -O0 it is there, constant.
            let l = r.loop_at("fixed_work", "@fixed");
            assert!(l.params.is_empty());
            let raw = fixed["loops"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["line"] == l.line)
                .unwrap();
            assert_eq!(raw["const_trip_count"], 16, "[{}] {raw}", b.opt);
        } else {
            // At -O2 it is reported as folded by the optimizer (no code ran it).
            let line = r.marker_line("@fixed");
            let raw = fixed["loops"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["line"] == line)
                .unwrap_or_else(|| panic!("[{}] no folded loop at {line}: {fixed}", b.opt));
            assert_eq!(raw["kind"], "folded", "[{}] {raw}", b.opt);
        }
        let unreg = r.function("unregistered_work");
        assert_eq!(unreg["statically_pruned"], false, "[{}]", b.opt);
        assert_eq!(unreg["constant"], true, "[{}]", b.opt);
        assert_eq!(unreg["executed"], true, "[{}]", b.opt);
        assert_eq!(unreg["volume"], "1", "[{}]", b.opt);
        let nest = r.function("nested");
        assert_eq!(nest["constant"], false);

        // Table 2: the classes add up.
        let s = &r.json["summary"];
        let fs = &s["functions"];
        let sum = [
            "statically_pruned",
            "dynamically_pruned",
            "relevant",
            "never_ran",
        ]
        .iter()
        .map(|k| fs[k].as_u64().unwrap())
        .sum::<u64>();
        assert_eq!(sum, fs["total"].as_u64().unwrap(), "[{}] {fs}", b.opt);
        assert!(
            fs["statically_pruned"].as_u64().unwrap() >= 1,
            "[{}] {fs}",
            b.opt
        );
        assert!(
            fs["dynamically_pruned"].as_u64().unwrap() >= 1,
            "[{}] {fs}",
            b.opt
        );
        let ls = &s["loops"];
        let lsum = [
            "statically_pruned",
            "constant",
            "relevant",
            "never_ran",
            "folded",
        ]
        .iter()
        .map(|k| ls[k].as_u64().unwrap())
        .sum::<u64>();
        assert_eq!(lsum, ls["total"].as_u64().unwrap(), "[{}] {ls}", b.opt);
    });
}

#[test]
fn coverage_table_and_recommended_parameters() {
    at_each_level(&["three_params.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        let main = r.function("main");
        assert_eq!(main["volume"], "x*y + z", "[{}]", b.opt);
        assert_eq!(pair_kind(main, "x", "y"), "multiplicative");
        assert_eq!(pair_kind(main, "x", "z"), "additive");
        assert_eq!(pair_kind(main, "y", "z"), "additive");
        let cov = r.json["coverage"].as_array().unwrap();
        let entry = |p: &[&str]| {
            cov.iter()
                .find(|c| set(&c["params"]) == names(p))
                .unwrap_or_else(|| panic!("[{}] no coverage entry for {p:?}: {cov:?}", b.opt))
                .clone()
        };
        assert_eq!(entry(&["x"])["loops"], 1, "[{}]", b.opt);
        assert_eq!(entry(&["z"])["functions"], 1, "[{}]", b.opt);
        let pair = &r.json["recommendation"]["pair"];
        assert_eq!(pair["functions"], 2, "[{}] {pair}", b.opt);
        assert_eq!(r.function("banner")["constant"], true);
    });
}

#[test]
fn scorep_filter_and_experiment_design_for_three_parameters() {
    let b = compile(&["three_params.c"], "-O2", &[]);
    let (r, _) = b.run_ok(&[]);
    let taintprof = bin_dir().join("taintprof");
    let text = b.scorep_filter(&r);
    assert!(
        text.contains("SCOREP_REGION_NAMES_BEGIN") && text.contains("SCOREP_REGION_NAMES_END"),
        "{text}"
    );
    assert!(text.contains("EXCLUDE *"), "{text}");
    for f in ["stencil", "reduce", "main"] {
        assert!(
            text.lines()
                .any(|l| l.trim() == format!("INCLUDE MANGLED {f}")),
            "{f} missing:\n{text}"
        );
    }
    assert!(
        !text.contains("banner"),
        "constant function in the filter:\n{text}"
    );

    let out = run_cmd(Command::new(&taintprof).arg("report").arg(&r.path).args([
        "--design",
        "x=8,16,32",
        "y=8,16,32",
        "z=100,200,400",
        "--json",
    ]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let design: Value = serde_json::from_slice(&out.stdout).expect("design --json must print JSON");
    let d = if design.get("design").is_some() {
        &design["design"]
    } else {
        &design
    };
    // x and y are coupled: their 3x3 grid; z adds: a sweep of its other two values.
    assert_eq!(d["runs"].as_array().unwrap().len(), 11, "{d}");
    assert_eq!(d["full_factorial"], 27, "{d}");
    let text = run_cmd(Command::new(&taintprof).arg("report").arg(&r.path).args([
        "--design",
        "x=8,16,32",
        "y=8,16,32",
        "z=100,200,400",
    ]));
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("11") && text.contains("27"),
        "design text must give both counts:\n{text}"
    );
}

/// The contexts of `func` as (callpath, volume, calls_volume, total_volume).
fn context_volumes(r: &Report, func: &str) -> Vec<(String, String, String, String)> {
    r.function(func)["contexts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| {
                c[k].as_str()
                    .unwrap_or_else(|| panic!("{k} in {c}"))
                    .to_string()
            };
            (
                s("callpath"),
                s("volume"),
                s("calls_volume"),
                s("total_volume"),
            )
        })
        .collect()
}

#[test]
fn call_paths_carry_their_volume_summed_over_calls() {
    at_each_level(&["callpath_volumes.c"], &[], |b| {
        let (r, _) = b.run_ok(&["24", "3", "2"]);
        let row = |c: &str, v: &str, k: &str, t: &str| {
            (c.to_string(), v.to_string(), k.to_string(), t.to_string())
        };
        // solve runs steps times; each call runs sweep iters times.
        assert_eq!(
            context_volumes(&r, "solve"),
            vec![row(
                "main->solve",
                "n^2*iters + n*iters",
                "steps",
                "n^2*steps*iters + n*steps*iters"
            )],
            "[{}]",
            b.opt
        );
        assert_eq!(
            context_volumes(&r, "sweep"),
            vec![row(
                "main->solve->sweep",
                "n^2",
                "steps*iters",
                "n^2*steps*iters"
            )],
            "[{}]",
            b.opt
        );
        // Inlined at -O2 or not, smooth is a context of its own with the same volumes.
        assert_eq!(
            context_volumes(&r, "smooth"),
            vec![row(
                "main->solve->smooth",
                "n",
                "steps*iters",
                "n*steps*iters"
            )],
            "[{}]",
            b.opt
        );
        // Called once: the total is the volume. In a loop of constant trip count: a
        // constant number of times, so the same.
        assert_eq!(
            context_volumes(&r, "setup"),
            vec![row("main->setup", "n", "1", "n")],
            "[{}]",
            b.opt
        );
        assert_eq!(
            context_volumes(&r, "probe"),
            vec![row("main->probe", "n", "1", "n")],
            "[{}]",
            b.opt
        );
        // The root: main's own volume, entered once.
        let main = context_volumes(&r, "main");
        assert_eq!(main.len(), 1, "[{}]", b.opt);
        assert_eq!(main[0].0, "main");
        assert_eq!(main[0].2, "1");
        assert_eq!(main[0].1, main[0].3);
        assert_eq!(
            r.function("solve")["contexts"][0]["total_volume_terms"],
            serde_json::json!([
                [
                    {"params": ["n"], "power": 2},
                    {"params": ["steps"], "power": 1},
                    {"params": ["iters"], "power": 1}
                ],
                [
                    {"params": ["n"], "power": 1},
                    {"params": ["steps"], "power": 1},
                    {"params": ["iters"], "power": 1}
                ]
            ]),
            "[{}]",
            b.opt
        );
    });
}
