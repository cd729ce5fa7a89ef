//! End to end, denormal mode (issue 4): programs built with `taintprof-cc
//! --tp-mode=denormal`, run, and checked through their `taintprof.denormal` reports.

use serde_json::Value;
use taintprof_tests::*;

const DN: &str = "--tp-mode=denormal";

fn array<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["arrays"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap_or_else(|| {
            let names: Vec<&Value> = r["arrays"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| &a["name"])
                .collect();
            panic!("no array {name} in report; arrays: {names:?}")
        })
}

fn origin(r: &Value, dest: &str, src: &str) -> u64 {
    r["origins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["dest"] == dest && o["src"] == src)
        .map(|o| o["count"].as_u64().unwrap())
        .sum()
}

/// The creator rows of array `arr`.
fn creators_of<'a>(r: &'a Value, arr: &str) -> Vec<&'a Value> {
    r["creators"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["array"] == arr)
        .collect()
}

/// Denormals of array `arr` attributed to the creator on source line `line`.
fn created_on(r: &Value, arr: &str, line: u64) -> u64 {
    creators_of(r, arr)
        .iter()
        .filter(|c| c["line"] == line)
        .map(|c| c["count"].as_u64().unwrap_or(0))
        .sum()
}

fn u(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("expected an integer, got {v}"))
}

#[test]
fn jacobi_denormals_split_between_the_two_arrays_each_from_the_other() {
    for opt in ["-O0", "-O3"] {
        let b = compile(&["jacobi_dn.c"], opt, &[DN]);
        let run = b.run(&["0.0", "200"]);
        assert!(run.output.status.success(), "{}", run.stderr());
        let r = run.denormal_report();
        assert_eq!(r["mode"], "compiler");
        let (a, bb) = (array(&r, "a"), array(&r, "b"));
        let (ra, rb) = (u(&a["denormal_reads"]), u(&bb["denormal_reads"]));
        assert!(
            ra > 10_000 && rb > 10_000,
            "[{opt}] denormal reads a={ra} b={rb}"
        );
        let ratio = ra as f64 / rb as f64;
        assert!(
            (0.8..1.25).contains(&ratio),
            "[{opt}] reads should split evenly: a={ra} b={rb}"
        );
        assert!(
            u(&a["denormal_writes"]) > 0 && u(&bb["denormal_writes"]) > 0,
            "[{opt}]"
        );
        // The origin of each array's denormals is the other array, never itself.
        assert!(
            origin(&r, "a", "b") > 0 && origin(&r, "b", "a") > 0,
            "[{opt}] origins: {}",
            r["origins"]
        );
        assert_eq!(
            origin(&r, "a", "a") + origin(&r, "b", "b"),
            0,
            "[{opt}] {}",
            r["origins"]
        );
        // The instruction profile names the stencil line.
        let line = line_of_marker(&[programs_dir().join("jacobi_dn.c")], "@stencil");
        let on_line: u64 = r["sites"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["line"] == line && s["function"] == "sweep")
            .map(|s| u(&s["denormal_loads"]) + u(&s["denormal_operands"]))
            .sum();
        assert!(
            on_line > 0,
            "[{opt}] no denormal events on the stencil line {line}"
        );
        assert_eq!(
            a["shape"],
            serde_json::json!([512, 512]),
            "[{opt}] tp_array_shape"
        );
        assert!(
            !r["snapshots"].as_array().unwrap().is_empty(),
            "[{opt}] the exit snapshot"
        );
    }
}

#[test]
fn jacobi_with_interior_0_1_has_no_denormals() {
    at_each_level(&["jacobi_dn.c"], &[DN], |b| {
        let run = b.run(&["0.1", "200"]);
        let r = run.denormal_report();
        let t = &r["totals"];
        for k in [
            "denormal_operands",
            "denormal_results",
            "denormal_loads",
            "denormal_stores",
        ] {
            assert_eq!(u(&t[k]), 0, "[{}] {k}: {t}", b.opt);
        }
        assert!(
            u(&t["fp_operations"]) > 10_000_000,
            "[{}] the FP operations were counted: {t}",
            b.opt
        );
        // Arrays are listed once they see a denormal event; none did.
        for a in r["arrays"].as_array().unwrap() {
            assert_eq!(a["role"], "none", "[{}] {a}", b.opt);
        }
    });
}

/// The same program gives the same counts at -O0 and -O3: the vectorized loop is
/// counted element-wise, and a source operation is one row of the instruction profile
/// whatever the vector width (the vector loop, its vector epilogue and its scalar
/// remainder merge; a remainder that saw no denormal still adds its executions).
#[test]
fn denormal_counts_agree_at_o0_and_o3() {
    let mut seen = vec![];
    let mut rows = vec![];
    let mut builds = vec![("-O0", &[][..]), ("-O3", &[][..])];
    // AVX2: 8-wide vector loop, 4-wide epilogue, scalar remainder.
    if std::arch::is_x86_feature_detected!("avx2") {
        builds.push(("-O3", &["-march=x86-64-v3"][..]));
    }
    for (opt, extra) in builds {
        let flags: Vec<&str> = [DN].iter().chain(extra).copied().collect();
        let b = compile(&["jacobi_dn.c"], opt, &flags);
        // n = 254: 252 interior columns, not a multiple of the vector width.
        let r = b.run(&["0.0", "120", "254"]).denormal_report();
        assert_eq!(r["version"], 2);
        let t = &r["totals"];
        let a = array(&r, "a");
        let label = format!("{opt} {extra:?}");
        seen.push((
            label.clone(),
            [
                u(&t["denormal_loads"]),
                u(&t["denormal_stores"]),
                u(&a["denormal_reads"]),
                u(&a["denormal_writes"]),
                origin(&r, "a", "b"),
            ],
        ));
        let sites = denormal_site_rows(&r);
        let stencil = r["sites"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["function"] == "sweep" && s["op"] == "fmul")
            .unwrap_or_else(|| panic!("[{label}] no fmul row: {}", r["sites"]));
        let lanes: Vec<u64> = stencil["lanes"].as_array().unwrap().iter().map(u).collect();
        if opt == "-O0" {
            assert_eq!(lanes, [1], "[{label}] {stencil}");
        } else {
            assert!(
                lanes.len() >= 2 && lanes[0] == 1 && lanes.iter().any(|&w| w >= 4),
                "[{label}] the vector loop and its scalar remainder are one row: {stencil}"
            );
        }
        rows.push((label, sites));
    }
    assert!(seen[0].1[0] > 0, "no denormals at all: {seen:?}");
    for k in 1..seen.len() {
        assert_eq!(
            seen[0].1, seen[k].1,
            "counts differ (loads, stores, a reads, a writes, a<-b): {seen:?}"
        );
        assert_eq!(
            rows[0].1, rows[k].1,
            "instruction profiles differ between {} and {}",
            rows[0].0, rows[k].0
        );
    }
}

/// OpenMP: the same counts with one thread and with two (per-thread counters merged at
/// exit), the parallel region named after its function, and both threads counted.
#[test]
fn openmp_counts_do_not_depend_on_the_number_of_threads() {
    at_each_level(&["dn_openmp.c"], &[DN, "-fopenmp"], |b| {
        let line = line_of_marker(&[programs_dir().join("dn_openmp.c")], "@stencil");
        let mut seen = vec![];
        for threads in ["1", "2"] {
            let run = b.run_env(&[], &[("OMP_NUM_THREADS", threads)]);
            assert!(run.output.status.success(), "{}", run.stderr());
            let r = run.denormal_report();
            assert_eq!(
                u(&r["threads"]),
                threads.parse::<u64>().unwrap(),
                "[{}]",
                b.opt
            );
            let stencil: Vec<&Value> = r["sites"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["line"] == line)
                .collect();
            assert!(!stencil.is_empty(), "[{}] {}", b.opt, r["sites"]);
            for s in &stencil {
                assert_eq!(s["function"], "main.omp_outlined", "[{}] {s}", b.opt);
            }
            let (a, bb) = (array(&r, "a"), array(&r, "b"));
            seen.push((
                r["totals"].clone(),
                r["sites"].clone(),
                [
                    u(&a["denormal_reads"]),
                    u(&a["denormal_writes"]),
                    u(&bb["denormal_reads"]),
                    origin(&r, "a", "b"),
                    origin(&r, "b", "a"),
                ],
                r["creators"].clone(),
            ));
        }
        assert!(seen[0].2[0] > 1000, "[{}] {:?}", b.opt, seen[0].2);
        assert_eq!(seen[0], seen[1], "[{}] 1 thread vs 2", b.opt);
    });
}

fn check_creator_chain(src: &str, marker: &str) {
    at_each_level(&[src], &[DN], |b| {
        let run = b.run(&[]);
        assert!(run.output.status.success(), "{}", run.stderr());
        let r = run.denormal_report();
        let line = line_of_marker(&[programs_dir().join(src)], marker);
        for arr in ["kernel", "work", "copy"] {
            let from_line: u64 = created_on(&r, arr, line);
            assert!(
                from_line > 0,
                "[{}] {src}: {arr} must name the {marker} line {line} as creator: {}",
                b.opt,
                r["creators"]
            );
            let others: Vec<&Value> = r["creators"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["array"] == arr && c["line"] != line)
                .collect();
            assert!(
                others.is_empty(),
                "[{}] {arr} has other creators: {others:?}",
                b.opt
            );
        }
        assert!(
            origin(&r, "work", "kernel") > 0,
            "[{}] work's denormals come from kernel: {}",
            b.opt,
            r["origins"]
        );
        let expf_site = r["sites"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["line"] == line && s["op"].as_str().unwrap_or("").starts_with("call "))
            .unwrap_or_else(|| panic!("[{}] no call site on line {line}: {}", b.opt, r["sites"]));
        assert!(
            u(&expf_site["denormal_results"]) > 0,
            "[{}] {expf_site}",
            b.opt
        );
    });
}

#[test]
fn expf_creator_reported_for_kernel_work_and_copied_array() {
    check_creator_chain("creator_chain.c", "@expf");
}

#[test]
fn double_precision_creator_chain() {
    check_creator_chain("creator_chain_double.c", "@exp");
}

#[test]
fn integer_bit_patterns_that_look_like_denormals_report_nothing() {
    at_each_level(&["int_bits.c"], &[DN], |b| {
        let r = b.run(&[]).denormal_report();
        let t = &r["totals"];
        for k in [
            "denormal_operands",
            "denormal_results",
            "denormal_loads",
            "denormal_stores",
        ] {
            assert_eq!(u(&t[k]), 0, "[{}] {k}: {t}", b.opt);
        }
        for a in r["arrays"].as_array().unwrap() {
            assert!(
                a["name"] != "bits" && a["name"] != "moved",
                "[{}] integer array tracked: {a}",
                b.opt
            );
        }
    });
}

#[test]
fn flush_to_zero_is_reported() {
    let b = compile(&["ftz.c"], "-O2", &[DN, "-ffast-math"]);
    let run = b.run(&[]);
    let r = run.denormal_report();
    let env = &r["fp_environment"];
    assert!(
        env["ftz"] == true || env["daz"] == true,
        "fp_environment: {env}"
    );
    let warnings: Vec<String> = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_lowercase())
        .collect();
    assert!(
        warnings.iter().any(|w| w.contains("flush")),
        "no FTZ/DAZ warning: {warnings:?}"
    );
    // The flags are set by crtfastmath.o's constructor, after the runtime read MXCSR at
    // start: the report gives both values, and the text shows the one with the flags
    // (it once said "FTZ and DAZ is set (MXCSR 0x1f80)", the default value).
    let at_exit = env["mxcsr_at_exit"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let bits = u32::from_str_radix(at_exit.trim_start_matches("0x"), 16).unwrap_or(0);
    assert!(bits & (1 << 15 | 1 << 6) != 0, "mxcsr_at_exit: {env}");
    let text = run_cmd(
        std::process::Command::new(bin_dir().join("taintprof"))
            .arg("denormals")
            .arg(&run.denormal_reports[0]),
    );
    let text = String::from_utf8_lossy(&text.stdout).to_string();
    assert!(text.contains(&at_exit), "{text}");
    assert!(text.contains("FTZ and DAZ are set"), "{text}");
}

/// The report without what differs between two runs of the same program (pid, times,
/// executable path).
fn run_independent(mut r: Value) -> Value {
    let o = r.as_object_mut().unwrap();
    for k in ["program", "exit", "threads", "taintprof_version"] {
        o.remove(k);
    }
    r
}

/// Operation sites are handled inline by default (counts into per-thread counters,
/// result tags with selects); `TAINTPROF_DN_INLINE_OPS=0` calls the `__tpd_op` hook,
/// the reference. Both builds must write the same report — site counts, arrays,
/// origins, creators, snapshots — for binary operations, fneg, conversions, fma, fabs,
/// comparisons, libm calls and vectorized loops, at -O0 and -O3.
#[test]
fn inline_operation_code_matches_the_op_hook() {
    for (src, args) in [
        ("dn_ops_mix.c", &[][..]),
        ("jacobi_dn.c", &["0.0", "120", "256"][..]),
        ("creator_chain.c", &[][..]),
    ] {
        for opt in ["-O0", "-O3"] {
            let inline = compile(&[src], opt, &[DN]);
            let hooks = compile_env(&[src], opt, &[DN], &[("TAINTPROF_DN_INLINE_OPS", "0")]);
            let ri = inline.run(args);
            let rh = hooks.run(args);
            assert!(ri.output.status.success(), "{}", ri.stderr());
            assert_eq!(
                ri.stdout(),
                rh.stdout(),
                "{src} {opt}: different program output"
            );
            let (a, b) = (ri.denormal_report(), rh.denormal_report());
            let t = &a["totals"];
            assert!(
                u(&t["denormal_operands"]) > 0 && u(&t["denormal_results"]) > 0,
                "{src} {opt}: no denormal operations to compare: {t}"
            );
            assert!(
                !a["creators"].as_array().unwrap().is_empty(),
                "{src} {opt}: no creators"
            );
            let (a, b) = (run_independent(a), run_independent(b));
            for k in a.as_object().unwrap().keys() {
                assert_eq!(
                    a[k], b[k],
                    "{src} {opt}: `{k}` differs between the inline operation code and the __tpd_op hook"
                );
            }
        }
    }
}

/// Fast-path coverage (`cover` in `pass/src/denormal/cover.rs`) leaves sums,
/// differences and power-of-two multiples of tested values out of the fast-path test.
/// `dn_cover.c` makes exactly those values denormal from normal inputs right above the
/// smallest normal: each marked line must count as many denormal results as the
/// program finds itself, and the whole report must be the one of a build without
/// coverage (`TAINTPROF_DN_COVER=0`), at -O0 and -O3.
#[test]
fn covered_values_are_counted_like_tested_ones() {
    let src = "dn_cover.c";
    let path = programs_dir().join(src);
    for opt in ["-O0", "-O3"] {
        let covered = compile(&[src], opt, &[DN]);
        let plain = compile_env(&[src], opt, &[DN], &[("TAINTPROF_DN_COVER", "0")]);
        let (rc, rp) = (covered.run(&[]), plain.run(&[]));
        assert!(rc.output.status.success(), "{}", rc.stderr());
        assert!(rp.output.status.success(), "{}", rp.stderr());
        assert_eq!(rc.stdout(), rp.stdout(), "{opt}: different program output");
        let r = rc.denormal_report();
        let out = rc.stdout();
        // At -O3 the division by 4.0 is a multiplication by 0.25.
        for (marker, ops) in [
            ("SUM1", &["fadd"][..]),
            ("SUM2", &["fadd"][..]),
            ("SCALE", &["fmul"][..]),
            ("DDIV", &["fdiv", "fmul"][..]),
        ] {
            let want: u64 = out
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{marker} ")))
                .unwrap_or_else(|| panic!("no {marker} line in {out}"))
                .parse()
                .unwrap();
            let line = line_of_marker(std::slice::from_ref(&path), marker);
            let got: u64 = r["sites"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["line"] == line && ops.iter().any(|&o| s["op"] == o))
                .map(|s| u(&s["denormal_results"]))
                .sum();
            assert_eq!(
                got, want,
                "{opt}: {ops:?} on line {line} ({marker}) counted {got} denormal results, the program computed {want}"
            );
        }
        // The program is built so that three of the four lines compute denormals.
        assert!(
            out.contains("SUM1 201") && out.contains("SCALE 201") && out.contains("DDIV 335"),
            "{opt}: dn_cover.c no longer computes the denormals it was written for:\n{out}"
        );
        let (a, b) = (
            run_independent(r.clone()),
            run_independent(rp.denormal_report()),
        );
        for k in a.as_object().unwrap().keys() {
            assert_eq!(
                a[k], b[k],
                "{opt}: `{k}` differs between the builds with and without fast-path coverage"
            );
        }
    }
}

#[test]
fn std_vector_buffers_are_named_after_the_users_variable() {
    let marker = |m: &str| line_of_marker(&[programs_dir().join("dn_vector.cpp")], m);
    for opt in ["-O0", "-O2", "-O3"] {
        let b = compile(&["dn_vector.cpp"], opt, &[DN]);
        let r = b.run(&[]).denormal_report();
        let a = array(&r, "fine");
        assert_eq!(u(&a["elements"]), 256, "[{opt}] {a}");
        assert_eq!(u(&a["denormal_writes"]), 256, "[{opt}] {a}");
        assert_eq!(u(&a["denormal_reads"]), 256, "[{opt}] {a}");
        // Not `__first`, `__p` or `__new_start` (the library helpers' parameters), nor
        // `<std::__new_allocator<float>::allocate(...):137>` (its allocator at -O0).
        assert_eq!(a["name"], "fine", "[{opt}] {a}");
        // Allocated where the user wrote `fine`, not in new_allocator.h.
        let at = &a["allocated_at"];
        assert_eq!(at["function"], "main", "[{opt}] {a}");
        assert_eq!(u(&at["line"]), marker("@fine"), "[{opt}] {a}");
        let line = marker("@scale");
        let creators = r["creators"].as_array().unwrap();
        assert!(
            creators
                .iter()
                .any(|c| c["array"] == a["name"] && u(&c["line"]) == line),
            "[{opt}] the multiplication creates the vector's denormals: {creators:?}"
        );
        // The vector that grew inside `fill` is `grown` once `fill` returns: its last
        // buffer holds the 256 denormal doubles main reads.
        let grown = array(&r, "grown");
        assert_eq!(grown["element_type"], "double", "[{opt}] {grown}");
        assert_eq!(u(&grown["denormal_reads"]), 256, "[{opt}] {grown}");
        assert!(u(&grown["elements"]) >= 256, "[{opt}] {grown}");
        assert_eq!(
            u(&grown["allocated_at"]["line"]),
            marker("@grown"),
            "[{opt}] {grown}"
        );
        // The member `cells`, allocated in Grid's constructor: named after the user's
        // code (`g.cells` at -O0, by main's calls), at the line of `g` or of the
        // constructor; never after the library's allocator.
        let cells: Vec<&Value> = r["arrays"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["kind"] == "heap" && a["element_type"] == "float")
            .filter(|a| a["name"] != "fine")
            .collect();
        assert_eq!(cells.len(), 1, "[{opt}] {cells:?}");
        let c = cells[0];
        assert_eq!(u(&c["denormal_writes"]), 256, "[{opt}] {c}");
        let line = u(&c["allocated_at"]["line"]);
        assert!(
            line == marker("@grid") || line == marker("@cells"),
            "[{opt}] {c}"
        );
        let name = c["name"].as_str().unwrap();
        assert!(
            !name.starts_with('<') && !name.contains("allocat"),
            "[{opt}] {c}"
        );
        if opt == "-O0" {
            assert_eq!(name, "g.cells", "[{opt}] {c}");
        }
    }
}

#[test]
fn an_instrumented_shared_library_is_traced_and_computes_what_native_does() {
    // The cold code's register-preserving calls into the runtime go through the GOT:
    // through a lazy PLT entry the first one clobbered r10 and this crashed at -O1.
    let lib_src = programs_dir().join("dn_smooth_lib.c");
    let main_src = programs_dir().join("dn_smooth_main.c");
    let native_dir = scratch_dir("dn_smooth_native");
    let native = native_dir.join("smooth");
    let out = run_cmd(
        std::process::Command::new("clang-19")
            .args(["-O2", "-o"])
            .arg(&native)
            .args([&lib_src, &main_src])
            .arg("-lm"),
    );
    assert!(out.status.success(), "{out:?}");
    let expected =
        String::from_utf8_lossy(&run_cmd(&mut std::process::Command::new(&native)).stdout)
            .to_string();
    assert!(expected.starts_with("sum "), "{expected}");
    let line = line_of_marker(std::slice::from_ref(&lib_src), "@zeta");
    for opt in ["-O0", "-O1", "-O2"] {
        let link = compile_shared_library("dn_smooth_lib.c", "smooth", opt, &[DN]);
        let mut flags: Vec<&str> = vec![DN];
        flags.extend(link.iter().map(String::as_str));
        let b = compile(&["dn_smooth_main.c"], opt, &flags);
        let run = b.run(&[]);
        assert!(run.output.status.success(), "[{opt}] {}", run.stderr());
        assert_eq!(run.stdout(), expected, "[{opt}]");
        let r = run.denormal_report();
        let zeta = array(&r, "st->zeta");
        assert!(u(&zeta["denormal_writes"]) > 0, "[{opt}] {zeta}");
        let created: u64 = created_on(&r, "st->zeta", line);
        assert!(
            created > 0,
            "[{opt}] st->zeta created on line {line}: {}",
            r["creators"]
        );
        let results: u64 = r["sites"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| {
                s["line"] == line
                    && s["file"]
                        .as_str()
                        .unwrap_or("")
                        .ends_with("dn_smooth_lib.c")
            })
            .map(|s| u(&s["denormal_results"]))
            .sum();
        assert!(results > 0, "[{opt}] no denormal results on line {line}");
    }
}

#[test]
fn a_variable_length_array_of_a_conditional_block_is_followed() {
    let src = "dn_cond_vla.c";
    let fill = line_of_marker(&[programs_dir().join(src)], "@fill");
    at_each_level(&[src], &[DN], |b| {
        let run = b.run(&["64"]);
        assert!(run.output.status.success(), "[{}] {}", b.opt, run.stderr());
        assert!(
            run.stdout().starts_with("sum "),
            "[{}] {}",
            b.opt,
            run.stdout()
        );
        let r = run.denormal_report();
        // The VLA's 50 activations (the odd calls) are one stack array, as a fixed-size
        // stack array's are: 42 of its 64 elements written denormal each time
        // (i % 3 != 0), released at every exit.
        let tmp = array(&r, "tmp");
        assert_eq!(tmp["kind"], "stack", "[{}] {tmp}", b.opt);
        assert_eq!(u(&tmp["elements"]), 64, "[{}] {tmp}", b.opt);
        assert_eq!(u(&tmp["denormal_writes"]), 50 * 42, "[{}] {tmp}", b.opt);
        assert_eq!(tmp["live"], false, "[{}] {tmp}", b.opt);
        let created: u64 = created_on(&r, "tmp", fill);
        assert!(created > 0, "[{}] {}", b.opt, r["creators"]);
    });
}

#[test]
fn a_hoisted_operation_keeps_its_source_line() {
    let src = "dn_hoisted.c";
    let line = line_of_marker(&[programs_dir().join(src)], "@scale");
    at_each_level(&[src], &[DN], |b| {
        let run = b.run(&[]);
        assert!(run.output.status.success(), "[{}] {}", b.opt, run.stderr());
        let r = run.denormal_report();
        let sites = r["sites"].as_array().unwrap();
        assert!(
            sites.iter().all(|s| u(&s["line"]) != 0),
            "[{}] a site on line 0: {sites:?}",
            b.opt
        );
        let fmul = sites
            .iter()
            .find(|s| s["op"] == "fmul" && u(&s["denormal_results"]) > 0)
            .unwrap_or_else(|| panic!("[{}] no fmul with denormal results: {sites:?}", b.opt));
        assert_eq!(u(&fmul["line"]), line, "[{}] {fmul}", b.opt);
        let creators = r["creators"].as_array().unwrap();
        assert!(
            creators
                .iter()
                .any(|c| c["array"] == "a" && u(&c["line"]) == line),
            "[{}] a's creator on line {line}: {creators:?}",
            b.opt
        );
    });
}

#[test]
fn copies_count_the_same_whether_a_loop_or_memcpy() {
    let src = "dn_copies.c";
    let fill = line_of_marker(&[programs_dir().join(src)], "@fill");
    at_each_level(&[src], &[DN], |b| {
        let run = b.run(&[]);
        assert!(run.output.status.success(), "[{}] {}", b.opt, run.stderr());
        let r = run.denormal_report();
        // 500 denormals written into a, copied into b by a loop, into c by memcpy, and
        // read from c once: each array reads and writes them 500 times.
        for name in ["a", "b", "c"] {
            let arr = array(&r, name);
            assert_eq!(u(&arr["denormal_reads"]), 500, "[{}] {arr}", b.opt);
            assert_eq!(u(&arr["denormal_writes"]), 500, "[{}] {arr}", b.opt);
            let creators = creators_of(&r, name);
            assert!(
                !creators.is_empty() && creators.iter().all(|c| u(&c["line"]) == fill),
                "[{}] {name}'s denormals were all created on line {fill}: {creators:?}",
                b.opt
            );
        }
        assert_eq!(origin(&r, "b", "a"), 500, "[{}] {}", b.opt, r["origins"]);
        assert_eq!(origin(&r, "c", "b"), 500, "[{}] {}", b.opt, r["origins"]);
    });
}

#[test]
fn denormals_moved_by_the_c_library_keep_their_creator() {
    // realloc (a moved block) and memcpy as a library call go through the runtime's
    // wrappers, which move denormal mode's stored tags (one shadow byte per byte).
    let src = "dn_libc_moves.c";
    let path = [programs_dir().join(src)];
    let (fill, used) = (
        line_of_marker(&path, "@fill"),
        line_of_marker(&path, "@use"),
    );
    at_each_level(&[src], &[DN, "-fno-builtin"], |b| {
        let run = b.run(&[]);
        assert!(run.output.status.success(), "[{}] {}", b.opt, run.stderr());
        let r = run.denormal_report();
        // The copy is counted like a copy loop (the wrapper of memcpy goes where the
        // intrinsic goes): it reads the 500 denormals from the moved block, which only
        // finds them by their tags (an element without a tag is not counted), and
        // writes them into c; the loop then reads c.
        let (moved, c) = (array(&r, "moved"), array(&r, "c"));
        assert_eq!(u(&moved["denormal_reads"]), 500, "[{}] {moved}", b.opt);
        assert_eq!(u(&c["denormal_writes"]), 500, "[{}] {c}", b.opt);
        assert_eq!(u(&c["denormal_reads"]), 500, "[{}] {c}", b.opt);
        assert_eq!(
            origin(&r, "c", "moved"),
            500,
            "[{}] {}",
            b.opt,
            r["origins"]
        );
        assert_eq!(created_on(&r, "moved", fill), 500, "[{}]", b.opt);
        let creators = creators_of(&r, "c");
        assert!(
            !creators.is_empty() && creators.iter().all(|k| u(&k["line"]) == fill),
            "[{}] c's denormals were created on line {fill} (not by the load on line {used}): {creators:?}",
            b.opt
        );
        // Its writes and its reads.
        assert_eq!(created_on(&r, "c", fill), 1000, "[{}] {creators:?}", b.opt);
    });
}

#[test]
fn a_masked_store_keeps_the_tags_of_the_lanes_it_does_not_write() {
    // With -mavx2, -O2 vectorizes the conditional store into llvm.masked.store. Its
    // inline cache hit must leave the stored tags of the lanes outside the mask: they
    // still hold the denormals written on @fill (a hit that cleared them made the final
    // loop's load the creator of 248 of its reads).
    let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    assert!(
        cpu.split_whitespace().any(|w| w == "avx2"),
        "this test runs a program built with -mavx2: it needs a CPU with AVX2"
    );
    let src = "dn_masked_store.c";
    let path = [programs_dir().join(src)];
    let fill = line_of_marker(&path, "@fill");
    at_each_level(&[src], &[DN, "-mavx2"], |b| {
        let run = b.run(&[]);
        assert!(run.output.status.success(), "[{}] {}", b.opt, run.stderr());
        let r = run.denormal_report();
        // 1024 written on @fill; 768 of them read, halved (still denormal) and written
        // back; all 1024 read at the end.
        let a = array(&r, "a");
        assert_eq!(u(&a["denormal_reads"]), 1792, "[{}] {a}", b.opt);
        assert_eq!(u(&a["denormal_writes"]), 1792, "[{}] {a}", b.opt);
        let creators = creators_of(&r, "a");
        assert!(
            creators.iter().all(|k| u(&k["line"]) == fill),
            "[{}] every denormal of a was created on line {fill}: {creators:?}",
            b.opt
        );
        assert_eq!(created_on(&r, "a", fill), 3584, "[{}] {creators:?}", b.opt);
    });
}

#[test]
fn floats_moved_as_doubles_are_counted_as_floats() {
    let src = "dn_float_pairs.c";
    let path = [programs_dir().join(src)];
    let (fill, load, store) = (
        line_of_marker(&path, "@fill"),
        line_of_marker(&path, "@load"),
        line_of_marker(&path, "@store"),
    );
    at_each_level(&[src], &[DN], |b| {
        let run = b.run(&["2"]);
        assert!(run.output.status.success(), "[{}] {}", b.opt, run.stderr());
        let r = run.denormal_report();
        // 990 pairs (k, 0.0) look like denormal doubles; no double is ever denormal.
        for s in r["sites"].as_array().unwrap() {
            let line = u(&s["line"]);
            assert!(
                line != load && line != store,
                "[{}] the copy of float pairs is not a double load or store: {s}",
                b.opt
            );
        }
        // The 10 denormal floats are read from x and written to y by the copy, which
        // carries their creator along.
        let (x, y) = (array(&r, "x"), array(&r, "y"));
        assert_eq!(u(&x["denormal_reads"]), 10, "[{}] {x}", b.opt);
        assert_eq!(u(&y["denormal_writes"]), 10, "[{}] {y}", b.opt);
        assert_eq!(origin(&r, "y", "x"), 10, "[{}] {}", b.opt, r["origins"]);
        assert_eq!(
            created_on(&r, "y", fill),
            20,
            "[{}] {}",
            b.opt,
            r["creators"]
        );
    });
}

#[test]
fn a_copied_struct_counts_its_floats_not_its_integers() {
    let src = "dn_struct_copy.c";
    let fill = line_of_marker(&[programs_dir().join(src)], "@fill");
    at_each_level(&[src], &[DN], |b| {
        let run = b.run(&[]);
        assert!(run.output.status.success(), "[{}] {}", b.opt, run.stderr());
        let r = run.denormal_report();
        // The block g: 5 denormal floats written, copied (5 reads, 5 writes) and read
        // back once (5 reads). Its 64 small integers are never denormal floats.
        let g = array(&r, "g");
        assert_eq!(u(&g["denormal_writes"]), 10, "[{}] {g}", b.opt);
        assert_eq!(u(&g["denormal_reads"]), 10, "[{}] {g}", b.opt);
        assert_eq!(origin(&r, "g", "g"), 5, "[{}] {}", b.opt, r["origins"]);
        assert_eq!(
            created_on(&r, "g", fill),
            20,
            "[{}] {}",
            b.opt,
            r["creators"]
        );
    });
}

/// A program killed by SIGTERM (a batch system's time limit) leaves its denormal record,
/// written in the signal handler after a last snapshot; the offline analysis makes the
/// same kind of report of it as of a normal exit, and `taintprof denormals` reads the
/// record directly.
#[test]
fn a_killed_programs_denormal_record_is_analysed() {
    use std::os::unix::process::ExitStatusExt;
    at_each_level(&["dn_killed.c"], &[DN], |b| {
        let run = b.run(&["40"]);
        assert_eq!(
            run.output.status.signal(),
            Some(15),
            "[{}] killed by SIGTERM\n{}",
            b.opt,
            run.stderr()
        );
        let records: Vec<_> = std::fs::read_dir(&run.out_dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".denormal.rec"))
            .collect();
        assert_eq!(records.len(), 1, "[{}] {records:?}", b.opt);
        let r = run.denormal_report();
        assert_eq!(
            r["exit"],
            serde_json::json!({"reason": "signal", "signal": "SIGTERM", "number": 15}),
            "[{}]",
            b.opt
        );
        let labels: Vec<&str> = r["snapshots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["label"].as_str().unwrap())
            .collect();
        assert_eq!(labels.last(), Some(&"SIGTERM"), "[{}] {labels:?}", b.opt);
        let g = array(&r, "grid");
        assert!(u(&g["denormal_writes"]) > 0, "[{}] {g}", b.opt);
        assert!(u(&g["denormal_reads"]) > 0, "[{}] {g}", b.opt);
        let line = line_of_marker(&b.sources, "@update");
        let ops: u64 = r["sites"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["line"] == line) // fmul, or fmuladd where contracted
            .map(|s| u(&s["denormal_operands"]))
            .sum();
        assert!(ops > 0, "[{}] {}", b.opt, r["sites"]);

        // The driver reads the record itself (by its magic number, not its name) ...
        let copy = run.out_dir.join("copy.bin");
        std::fs::copy(&records[0], &copy).unwrap();
        let out = run_cmd(
            std::process::Command::new(bin_dir().join("taintprof"))
                .args(["denormals", "--json"])
                .arg(&copy),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "[{}] {err}", b.opt);
        let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(shown.to_string().contains("grid"), "[{}] {shown}", b.opt);
        // ... and `taintprof report` says what it is.
        let out = run_cmd(
            std::process::Command::new(bin_dir().join("taintprof"))
                .arg("report")
                .arg(&records[0]),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success()
                && err.contains("a denormal record")
                && err.contains("taintprof denormals"),
            "[{}] {err}",
            b.opt
        );
    });
}

/// Cold regions are functions of their own by default (`DnFn::outline_cold_regions`);
/// `TAINTPROF_DN_OUTLINE=0` leaves them inline. Both must write the same report, in both
/// tiers, for the stencil, the mix of operation kinds, the creator chain and an OpenMP
/// region (whose outlined body is `alwaysinline`), at -O0 and -O3.
#[test]
fn outlined_cold_regions_write_the_reports_of_inline_ones() {
    for (src, args, extra) in [
        ("jacobi_dn.c", &["0.0", "120", "254"][..], &[][..]),
        ("dn_ops_mix.c", &[][..], &[][..]),
        ("creator_chain.c", &[][..], &[][..]),
        ("dn_openmp.c", &[][..], &["-fopenmp"][..]),
    ] {
        for tier in [DN, "--tp-denormal=profile"] {
            for opt in ["-O0", "-O3"] {
                let flags: Vec<&str> = [tier].iter().chain(extra).copied().collect();
                let outlined = compile(&[src], opt, &flags);
                let inline = compile_env(&[src], opt, &flags, &[("TAINTPROF_DN_OUTLINE", "0")]);
                let (ro, ri) = (outlined.run(args), inline.run(args));
                assert!(ro.output.status.success(), "{}", ro.stderr());
                assert_eq!(ro.stdout(), ri.stdout(), "{src} {tier} {opt}: output");
                let (a, b) = (ro.denormal_report(), ri.denormal_report());
                assert!(
                    u(&a["totals"]["denormal_results"]) > 0,
                    "{src} {tier} {opt}: nothing to compare: {}",
                    a["totals"]
                );
                let (a, b) = (run_independent(a), run_independent(b));
                for k in a.as_object().unwrap().keys() {
                    assert_eq!(
                        a[k], b[k],
                        "{src} {tier} {opt}: `{k}` differs between outlined and inline cold regions"
                    );
                }
            }
        }
    }
}
