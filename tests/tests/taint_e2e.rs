//! End to end, taint mode (data flow): real programs compiled with `taintprof-cc` /
//! `taintprof-c++` at -O0 and -O2, run, and checked through their JSON reports.

use std::collections::{BTreeMap, BTreeSet};
use taintprof_tests::*;

#[test]
fn matmul_names_m_n_k_on_exactly_the_loops_that_use_them() {
    at_each_level(&["matmul.c"], &[], |b| {
        let (r, run) = b.run_ok(&["24", "16", "12"]);
        assert!(
            run.stdout().contains("checksum"),
            "program output lost: {}",
            run.stdout()
        );
        assert_eq!(r.parameters(), ["m", "n", "k"]);
        r.assert_loop("multiply", "@mul_i", &["m"]);
        r.assert_loop("multiply", "@mul_j", &["n"]);
        r.assert_loop("multiply", "@mul_l", &["k"]);
        // create() runs twice, create(m, k) and create(k, n): the loop's params are the
        // union, and each calling context has its own.
        r.assert_loop("create", "@create_rows", &["m", "k"]);
        r.assert_loop("create", "@create_cols", &["k", "n"]);
        let rows = r.loop_at("create", "@create_rows");
        let by_path = contexts_by_call_line(&r, &rows);
        assert_eq!(
            by_path[&r.marker_line("@call_create_a")],
            names(&["m"]),
            "[{}]",
            b.opt
        );
        assert_eq!(
            by_path[&r.marker_line("@call_create_b")],
            names(&["k"]),
            "[{}]",
            b.opt
        );
        r.assert_loop("checksum", "@checksum", &["m", "n"]);
    });
}

/// Maps the line of the last call site of each context path to that context's params.
fn contexts_by_call_line(r: &Report, l: &Loop) -> BTreeMap<u64, BTreeSet<String>> {
    let mut m = BTreeMap::new();
    for c in &l.contexts {
        let last = c
            .path
            .last()
            .unwrap_or_else(|| panic!("[{}] empty context path in {l:?}", r.opt));
        let line: u64 = last.rsplit(':').next().unwrap().parse().unwrap();
        m.entry(line)
            .or_insert_with(BTreeSet::new)
            .extend(c.params.iter().cloned());
    }
    m
}

#[test]
fn loop_shapes_nested_while_do_while_break_and_return() {
    at_each_level(&["loops.c"], &[], |b| {
        let (r, _) = b.run_ok(&["50"]);
        r.assert_loop("nested", "@nested_outer", &["a"]);
        r.assert_loop("nested", "@nested_inner", &["b"]);
        r.assert_loop("while_loop", "@while", &["w"]);
        r.assert_loop("do_while", "@do_while", &["d"]);
        // Two exits: the bound and a `break` comparing data with `limit`.
        r.assert_loop("first_above", "@break_loop", &["len", "limit"]);
        // Left through `return` from inside the body.
        r.assert_loop("find", "@return_loop", &["len", "key"]);
    });
}

#[test]
fn a_loop_that_depends_on_no_parameter_reports_none() {
    at_each_level(&["loops.c"], &[], |b| {
        let (r, _) = b.run_ok(&["50"]);
        let l = r.loop_at("unregistered", "@no_param");
        assert!(
            l.params.is_empty(),
            "[{}] expected no params, got {:?}",
            b.opt,
            l.params
        );
        assert!(l.executions >= 1, "[{}] the loop must have run", b.opt);
    });
}

#[test]
fn bounds_through_fields_pointers_arguments_returns_globals_and_heap() {
    at_each_level(&["bounds.c"], &[], |b| {
        let (r, _) = b.run_ok(&["60"]);
        r.assert_loop("via_field", "@field", &["cols"]);
        r.assert_loop("via_pointer", "@pointer", &["cols"]);
        r.assert_loop("via_return", "@return", &["rows"]);
        r.assert_loop("via_argument", "@argument", &["depth"]);
        r.assert_loop("via_global", "@global", &["size"]);
        r.assert_loop("via_heap", "@heap", &["depth"]);
    });
}

#[test]
fn std_vector_sized_by_a_parameter() {
    at_each_level(&["vector.cpp"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        r.assert_loop("by_index", "@index", &["n"]);
        r.assert_loop("by_range", "@range", &["n"]);
    });
}

#[test]
fn bound_computed_with_libm() {
    at_each_level(&["libm_bound.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        r.assert_loop("side", "@sqrt", &["n"]);
        r.assert_loop("powers", "@pow", &["e"]);
    });
}

#[test]
fn one_function_called_with_different_parameters_has_two_contexts() {
    at_each_level(&["contexts.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        r.assert_loop("kernel", "@kernel", &["m", "n"]);
        let l = r.loop_at("kernel", "@kernel");
        let call_m = format!("main:{}", r.marker_line("@call_m"));
        let call_n = format!("main:{}", r.marker_line("@call_n"));
        let via_phase = vec![
            format!("main:{}", r.marker_line("@call_phase")),
            format!("phase:{}", r.marker_line("@phase_call")),
        ];
        let find = |path: &[String]| {
            l.contexts
                .iter()
                .find(|c| c.path == path)
                .unwrap_or_else(|| {
                    panic!("[{}] no context {path:?} among {:#?}", b.opt, l.contexts)
                })
        };
        assert_eq!(find(&[call_m]).params, names(&["m"]), "[{}]", b.opt);
        assert_eq!(find(&[call_n]).params, names(&["n"]), "[{}]", b.opt);
        assert_eq!(find(&via_phase).params, names(&["n"]), "[{}]", b.opt);
        assert_eq!(
            l.contexts.len(),
            3,
            "[{}] contexts: {:#?}",
            b.opt,
            l.contexts
        );
    });
}

#[test]
fn labels_cross_varargs_byval_struct_returns_and_function_pointers() {
    at_each_level(&["calls.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        r.assert_loop("sum_varargs", "@varargs", &["x", "y"]);
        r.assert_loop("by_value", "@byval", &["count"]);
        r.assert_loop("span", "@pair", &["lo", "hi"]);
        r.assert_loop("callee", "@callback", &["len"]);
    });
}

#[test]
fn cxx_matrix_class_with_accessors_and_templates() {
    at_each_level(&["matrix_class.cpp"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        r.assert_loop("init_cpp", "@cpp_rows", &["rows"]);
        r.assert_loop("init_cpp", "@cpp_cols", &["cols"]);
        r.assert_loop("sum_all<double>", "@tmpl_rows", &["rows"]);
        r.assert_loop("sum_all<double>", "@tmpl_cols", &["cols"]);
        // A loop in a method inlined into main at -O2 keeps its qualified source name.
        r.assert_loop("matrix::scale", "@method", &["rows", "cols"]);
        assert_eq!(
            r.function("matrix::scale")["linkage"],
            "_ZN6matrix5scaleEf",
            "[{}]",
            b.opt
        );
        // Names are demangled source names.
        let f = r.function("init_cpp");
        assert_eq!(f["name"], "init_cpp(matrix&, float)", "[{}]", b.opt);
        assert!(
            f["linkage"].as_str().unwrap().starts_with("_Z"),
            "[{}] {f}",
            b.opt
        );
    });
}

#[test]
fn perf_taint_annotated_code_builds_unchanged() {
    at_each_level(&["perftaint_compat.cpp"], &[], |b| {
        let (r, run) = b.run_ok(&[]);
        assert!(
            run.stdout().starts_with("size "),
            "VARIABLE_NAME must stringify: {}",
            run.stdout()
        );
        assert_eq!(r.parameters(), ["size", "steps"]);
        r.assert_loop("compute", "@steps", &["steps"]);
        r.assert_loop("compute", "@size", &["size"]);
    });
}

#[test]
fn pthreads_programs_are_tracked_in_every_thread() {
    at_each_level(&["threads.c"], &["-pthread"], |b| {
        let (r, _) = b.run_ok(&[]);
        r.assert_loop("worker", "@worker", &["n", "chunks"]);
        r.assert_loop("main", "@spawn", &["chunks"]);
        let l = r.loop_at("worker", "@worker");
        assert_eq!(l.executions, 4, "[{}] one execution per thread", b.opt);
        assert!(
            r.json["threads"].as_u64().unwrap() >= 5,
            "[{}] threads: {}",
            b.opt,
            r.json["threads"]
        );
    });
}

#[test]
fn openmp_parallel_loops() {
    at_each_level(&["openmp.c"], &["-fopenmp"], |b| {
        let (r, _) = b.run_ok(&[]);
        let l = r.loop_anywhere("@omp_for");
        assert_eq!(l.params, names(&["n"]), "[{}] omp loop: {l:?}", b.opt);
        // A parallel loop in a function called once per repetition: the outlined body
        // reads `n` from a slot written inside the repetition loop.
        let l = r.loop_anywhere("@omp_step");
        assert_eq!(
            l.params,
            names(&["n"]),
            "[{}] omp loop in a callee: {l:?}",
            b.opt
        );
        r.assert_loop("main", "@reps", &["reps"]);
    });
}

#[test]
fn stack_slots_written_in_a_loop_do_not_take_the_loops_label() {
    at_each_level(&["slots.c"], &[], |b| {
        let (r, _) = b.run_ok(&[]);
        // `n` passes through an address-taken parameter written once per repetition.
        r.assert_loop("work", "@slot_loop", &["n"]);
        // Counts kept in memory across the repetitions depend on them, whether the
        // callee or the loop itself writes the slot.
        r.assert_loop("main", "@bumps_loop", &["reps"]);
        r.assert_loop("main", "@kept_loop", &["reps"]);
        r.assert_loop("main", "@reps", &["reps"]);
    });
}

#[test]
fn more_than_16_parameters_is_a_clear_error_and_names_are_reused() {
    at_each_level(&["too_many.c"], &[], |b| {
        let (r, run) = b.run_ok(&[]);
        let err = run.stderr();
        assert!(
            err.contains("p17") && err.contains("16"),
            "[{}] stderr must name p17 and the limit: {err}",
            b.opt
        );
        let params = r.parameters();
        assert_eq!(params.len(), 16, "[{}] {params:?}", b.opt);
        assert!(!params.contains(&"p17".to_string()));
        let rejected = r.json["rejected_parameters"].as_array().unwrap();
        assert!(
            rejected.iter().any(|x| x["name"] == "p17"),
            "[{}] {rejected:?}",
            b.opt
        );
        // The ninth parameter needs the bit the control-flow split used: the split is
        // given up, and the report says at which parameter.
        assert_eq!(r.json["options"]["control_split"], false, "[{}]", b.opt);
        assert_eq!(
            r.json["options"]["control_split_given_up_at"], "p9",
            "[{}]",
            b.opt
        );
        let l = r.loop_at("loop_over", "@over");
        // p17 is unlabelled; "p3" registered twice shares one label.
        assert_eq!(l.params, names(&["p1", "p3"]), "[{}]", b.opt);
        let by_line = contexts_by_call_line(&r, &l);
        assert_eq!(by_line[&r.marker_line("@ctx_p1")], names(&["p1"]));
        assert_eq!(by_line[&r.marker_line("@ctx_p17")], names(&[]));
        assert_eq!(by_line[&r.marker_line("@ctx_again")], names(&["p3"]));
    });
}

#[test]
fn a_crashing_program_still_leaves_its_report() {
    at_each_level(&["crash.c"], &[], |b| {
        for (arg, sig) in [("segv", "SIGSEGV"), ("abort", "SIGABRT")] {
            let run = b.run(&[arg]);
            assert!(
                !run.output.status.success(),
                "[{}] the program must crash",
                b.opt
            );
            let r = run.report();
            assert_eq!(
                r.json["exit"]["reason"], "signal",
                "[{}] {}",
                b.opt, r.json["exit"]
            );
            assert_eq!(r.json["exit"]["signal"], sig, "[{}]", b.opt);
            let mut r = r;
            r.sources = vec![programs_dir().join("crash.c")];
            r.opt = b.opt.clone();
            r.assert_loop("work", "@before_crash", &["n"]);
            assert!(
                run.stderr().contains(sig),
                "[{}] stderr must say what happened: {}",
                b.opt,
                run.stderr()
            );
        }
    });
}

/// The analysis answers the same at -O0 and -O2: every loop that ran at both levels has
/// the same parameter set.
#[test]
fn results_agree_between_o0_and_o2() {
    for (src, args) in [
        ("matmul.c", vec!["24", "16", "12"]),
        ("loops.c", vec!["50"]),
        ("bounds.c", vec!["60"]),
        ("calls.c", vec![]),
        ("matrix_class.cpp", vec![]),
    ] {
        let mut per_level = vec![];
        for opt in OPT_LEVELS {
            let b = compile(&[src], opt, &[]);
            let (r, _) = b.run_ok(&args);
            let mut m = BTreeMap::new();
            for f in r.function_names() {
                let base = base_name(&f).to_string();
                for l in r.loops(&base) {
                    if l.executions > 0 {
                        m.insert((base.clone(), l.line), l.params);
                    }
                }
            }
            per_level.push(m);
        }
        let (o0, o2) = (&per_level[0], &per_level[1]);
        let mut common = 0;
        for (k, p0) in o0 {
            if let Some(p2) = o2.get(k) {
                assert_eq!(
                    p0, p2,
                    "{src}: loop {k:?} differs between -O0 {p0:?} and -O2 {p2:?}"
                );
                common += 1;
            }
        }
        assert!(
            common >= 3,
            "{src}: too few loops ran at both levels (O0 {o0:?}, O2 {o2:?})"
        );
    }
}

#[test]
fn a_c_program_calling_an_instrumented_cpp_shared_library() {
    // The library's calls to operator new[] go to the runtime's wrappers, which live in
    // the executable: linking the C program once failed for want of libstdc++.
    let lib_src = programs_dir().join("shared_kernel.cpp");
    for opt in OPT_LEVELS {
        let link = compile_shared_library("shared_kernel.cpp", "kernel", opt, &[]);
        let flags: Vec<&str> = link.iter().map(String::as_str).collect();
        let b = compile(&["shared_main.c"], opt, &flags);
        let (r, run) = b.run_ok(&["40"]);
        assert!(run.stdout().contains("sum 390"), "{}", run.stdout());
        let loops = r.loops("kernel_sum");
        for marker in ["@fill", "@sum"] {
            let line = line_of_marker(std::slice::from_ref(&lib_src), marker);
            let l = loops
                .iter()
                .find(|l| l.line == line)
                .unwrap_or_else(|| panic!("[{opt}] no loop at {marker}: {loops:?}"));
            assert_eq!(l.params, names(&["n"]), "[{opt}] {marker}");
            assert!(l.executions > 0, "[{opt}] {marker}");
        }
    }
}

#[test]
fn a_limited_number_of_contexts_is_listed_and_every_parameter_set_among_them() {
    at_each_level(&["many_contexts.c"], &[], |b| {
        let check = |run: &Run, listed: usize, omitted: u64| {
            assert!(run.output.status.success(), "[{}] {}", b.opt, run.stderr());
            let r = run.report();
            let line = line_of_marker(&[programs_dir().join("many_contexts.c")], "@leaf");
            let f = r.function("leaf");
            let l = f["loops"]
                .as_array()
                .unwrap()
                .iter()
                .find(|l| l["line"] == line)
                .unwrap_or_else(|| panic!("[{}] no loop at {line}: {f}", b.opt));
            // Parameters and executions count every context, listed or not.
            assert_eq!(l["params"], serde_json::json!(["n"]), "[{}]", b.opt);
            assert_eq!(l["executions"], 256, "[{}] one per path", b.opt);
            // The loop's contexts and the function's: as many listed, and the one that
            // depends on n among them.
            for (v, params) in [(l, "params"), (f, "inclusive_params")] {
                let ctx = v["contexts"].as_array().unwrap();
                let left_out = v["contexts_omitted"].as_u64().unwrap_or(0);
                assert_eq!((ctx.len(), left_out), (listed, omitted), "[{}]", b.opt);
                assert!(
                    ctx.iter().any(|c| c[params] == serde_json::json!(["n"])),
                    "[{}] the context that depends on n is listed",
                    b.opt
                );
            }
        };
        // Default: 32 listed, one of them the n context (last in path order).
        check(&b.run(&["10"]), 32, 224);
        check(
            &b.run_env(&["10"], &[("TAINTPROF_MAX_CONTEXTS", "0")]),
            256,
            0,
        );
        check(
            &b.run_env(&["10"], &[("TAINTPROF_MAX_CONTEXTS", "5")]),
            5,
            251,
        );
        // The text report says how many are not listed.
        let run = b.run(&["10"]);
        let out = run_cmd(
            std::process::Command::new(bin_dir().join("taintprof"))
                .args(["report", "--verbose"])
                .arg(&run.reports[0]),
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("… and 224 more contexts not listed"),
            "[{}] {text}",
            b.opt
        );
    });
}
