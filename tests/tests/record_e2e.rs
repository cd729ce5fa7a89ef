//! End to end: the raw run record (`docs/internal/record.md`). Real programs compiled
//! with the real plugin at -O0 and -O2, run, and their `.taintprof.rec` read back with
//! `taintprof_record::read` and checked against the JSON report of the same run: the
//! parameters, the calling-context tree, every loop's parameters and executions (from
//! the raw labels folded with the record's layout), recursion, the loops in flight,
//! how the run ended.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use taintprof_record::read::{self, Record};
use taintprof_record::{Exit, NONE, WARN_WRITER_OOM, WARN_WRITER_REFUSED};
use taintprof_tests::*;

/// `record_tree N STEPS K MODE` (see the program).
fn args(mode: &str) -> [&str; 4] {
    ["64", "40", "10", mode]
}

/// The record next to a JSON report: same directory, same `<prog>.<pid>` stem.
fn record_path(report: &Path) -> PathBuf {
    let s = report.to_string_lossy();
    assert!(s.ends_with(".taintprof.json"), "{s}");
    PathBuf::from(s.replace(".taintprof.json", ".taintprof.rec"))
}

/// Reads the record of `report`: it must exist and be complete.
fn record_of(report: &Path) -> Record {
    let p = record_path(report);
    assert!(p.exists(), "no record next to {}", report.display());
    let r = read::read_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert!(r.complete(), "{}", p.display());
    let warnings = &r.trailer.as_ref().unwrap().warnings;
    assert!(
        !warnings
            .iter()
            .any(|w| w.warning.code == WARN_WRITER_OOM || w.warning.code == WARN_WRITER_REFUSED),
        "{warnings:?}"
    );
    r
}

/// The files of a directory, by name.
fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Source-level name of global function `g`.
fn func_name(r: &Record, g: u32) -> String {
    let (m, f) = r.modules.func(g).expect("a function of the record");
    text(m.str(f.loc.function))
}

/// Where global loop `g` was written: (function, line, column) of its chain's last entry.
fn loop_key(r: &Record, g: u32) -> (String, u64, u64) {
    let (m, l) = r.modules.loop_(g).expect("a loop of the record");
    let at = l.chain.last().expect("a loop with a source chain");
    (text(m.str(at.function)), at.line as u64, at.column as u64)
}

/// One bit per parameter: a raw label folded with the record's layout.
fn fold(r: &Record, label: u16) -> u16 {
    let s = r.params.layout.shift;
    (label | label >> s) & (0xffff >> s)
}

/// The parameter names of a raw label.
fn params_of(r: &Record, label: u16) -> BTreeSet<String> {
    let folded = fold(r, label);
    (0..16u32)
        .filter(|b| folded & (1 << b) != 0)
        .map(|b| {
            let p = r.params.params.iter().find(|p| p.info.bit == b);
            text(&p.expect("a registered parameter's bit").name)
        })
        .collect()
}

/// Per source loop: the union of its raw labels and the sum of its executions over every
/// loop record of every thread (what the JSON report computes from the same records).
fn loops_by_source(r: &Record) -> BTreeMap<(String, u64, u64), (u16, u64)> {
    let mut m = BTreeMap::new();
    for t in &r.threads {
        for lr in &t.loops {
            let e = m.entry(loop_key(r, lr.loop_)).or_insert((0u16, 0u64));
            e.0 |= lr.label;
            e.1 += lr.executions;
        }
    }
    m
}

/// The nodes of the thread's tree running `func` (at least one). The record keeps the
/// physical tree: the optimizer may copy a call (loop unswitching, unrolling), and each
/// copy has a site, and so a node, of its own (the analysis merges sites by content).
fn nodes_of(r: &Record, t: &read::Thread, func: &str) -> Vec<u32> {
    let found: Vec<u32> = (1..t.nodes.len() as u32)
        .filter(|&i| func_name(r, t.nodes[i as usize].func) == func)
        .collect();
    assert!(!found.is_empty(), "no node of {func}: {:?}", t.nodes);
    found
}

/// The one node of the thread's tree running `func`.
fn node_of(r: &Record, t: &read::Thread, func: &str) -> u32 {
    let found = nodes_of(r, t, func);
    assert_eq!(found.len(), 1, "nodes of {func}: {found:?}");
    found[0]
}

/// Every loop of the JSON report against the record: the same parameters (the raw
/// labels folded with the layout) and the same executions; `in_flight` loops count one
/// more execution in the report than the record's loop records hold.
fn assert_loops_agree(report: &Report, r: &Record, in_flight: &BTreeMap<(String, u64, u64), u64>) {
    let recs = loops_by_source(r);
    let mut compared = 0;
    for f in report.json["functions"].as_array().unwrap() {
        let fname = f["name"].as_str().unwrap().to_string();
        for l in f["loops"].as_array().unwrap() {
            let key = (
                fname.clone(),
                l["line"].as_u64().unwrap(),
                l["column"].as_u64().unwrap(),
            );
            let (label, executions) = recs.get(&key).copied().unwrap_or((0, 0));
            let flying = in_flight.get(&key).copied().unwrap_or(0);
            assert_eq!(
                executions + flying,
                l["executions"].as_u64().unwrap(),
                "[{}] executions of the loop {key:?}",
                report.opt
            );
            if flying == 0 {
                assert_eq!(
                    params_of(r, label),
                    str_set(&l["params"]),
                    "[{}] parameters of the loop {key:?}",
                    report.opt
                );
            }
            compared += 1;
        }
    }
    assert!(compared >= 3, "[{}] {compared} loops compared", report.opt);
}

#[test]
fn the_record_holds_what_the_report_says() {
    at_each_level(&["record_tree.c"], &[], |b| {
        let (report, run) = b.run_ok(&args("0"));
        let opt = &b.opt;
        let r = record_of(&report.path);

        // RUN: the program as the report names it.
        let program = &report.json["program"];
        assert_eq!(r.run.info.pid as i64, program["pid"].as_i64().unwrap());
        assert_eq!(r.run.info.mode, taintprof_record::MODE_TAINT);
        assert_eq!(text(&r.run.name), program["name"].as_str().unwrap());
        assert_eq!(text(&r.run.path), program["path"].as_str().unwrap());
        let argv: Vec<String> = r.run.argv.iter().map(|a| text(a)).collect();
        let json_argv: Vec<String> = program["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        assert_eq!(argv, json_argv);
        assert!(r.run.info.start_time_ns > 0, "[{opt}]");

        // PARAMS: the registered names, in bit order.
        let registered: Vec<String> = r.params.params.iter().map(|p| text(&p.name)).collect();
        assert_eq!(registered, report.parameters(), "[{opt}]");
        assert_eq!(registered, ["n", "steps", "k"]);

        // One module, the program's, with its functions.
        assert_eq!(r.modules.list.len(), 1, "[{opt}]");
        let m = &r.modules.list[0];
        assert!(text(&m.source).ends_with("record_tree.c"), "[{opt}]");
        assert!(
            text(&m.object).ends_with("/record_tree"),
            "[{opt}] {}",
            text(&m.object)
        );
        // BUILD_ID: the executable's, as the file's note says (none if linked without).
        assert_eq!(
            Some(hex(&m.build_id)).filter(|h| !h.is_empty()),
            readelf_build_id(&b.exe),
            "[{opt}]"
        );

        // THREAD: root → main → sweep, and sweep's loop over n.
        assert_eq!(r.threads.len(), 1, "[{opt}]");
        let t = &r.threads[0];
        assert_eq!(t.info.index, 0);
        let main = node_of(&r, t, "main");
        assert_eq!(
            t.nodes[main as usize].parent, 0,
            "[{opt}] main is under the root"
        );
        let json_sweep = report.loop_json("sweep", "@sweep");
        let sweep_line = report.marker_line("@sweep");
        let time = report.marker_line("@time");
        let (mut label, mut executions) = (0u16, 0u64);
        for sweep in nodes_of(&r, t, "sweep") {
            let node = t.nodes[sweep as usize];
            assert_eq!(node.parent, main, "[{opt}] main calls sweep");
            assert_ne!(node.site, NONE, "[{opt}] the call site is known");
            let (_, site) = r.modules.site(node.site).unwrap();
            assert!(
                site.chain.iter().any(|l| l.line as u64 == time + 1),
                "[{opt}] sweep is called on the line after @time: {:?}",
                site.chain
            );
            for x in t.loops_of(sweep) {
                if loop_key(&r, x.loop_).1 == sweep_line {
                    label |= x.label;
                    executions += x.executions;
                }
            }
        }
        assert_eq!(params_of(&r, label), names(&["n"]), "[{opt}]");
        assert_eq!(params_of(&r, label), str_set(&json_sweep["params"]));
        assert_eq!(executions, 40, "[{opt}] once per step");
        assert_eq!(executions, json_sweep["executions"].as_u64().unwrap());

        // Every loop of the report.
        assert_loops_agree(&report, &r, &BTreeMap::new());

        // Recursion: fib is recursive, its recursive calls are folded onto its node.
        assert_eq!(report.function("fib")["recursive"], true, "[{opt}]");
        let fib = node_of(&r, t, "fib");
        let fib_func = t.nodes[fib as usize].func;
        assert!(t.recursive.contains(&fib_func), "[{opt}] {:?}", t.recursive);
        let folded: Vec<_> = t.folded.iter().filter(|f| f.func == fib_func).collect();
        assert!(!folded.is_empty(), "[{opt}] {:?}", t.folded);
        for f in folded {
            assert_eq!(t.folded_target(f), Some(fib), "[{opt}]");
        }

        // TRAILER: a return from main.
        let tr = r.trailer.as_ref().unwrap();
        assert_eq!(tr.exit, Exit::Normal(0), "[{opt}]");
        assert_eq!(report.json["exit"]["reason"], "exit");
        assert!(r.inflight.is_empty(), "[{opt}]");

        // The directory holds the report and its record, nothing else.
        let files = files_in(&run.out_dir);
        assert_eq!(files.len(), 2, "[{opt}] {files:?}");
    });
}

#[test]
fn sigterm_in_the_time_loop_leaves_a_complete_record_with_the_loop_in_flight() {
    // process_ends N STEPS 1: SIGTERM at step 10 of the time loop over `steps`, as a
    // batch system's wall-clock limit would.
    at_each_level(&["process_ends.c"], &[], |b| {
        let opt = &b.opt;
        let run = b.run(&["64", "40", "1"]);
        assert_eq!(run.output.status.code(), None, "[{opt}] killed by SIGTERM");
        let mut report = run.report();
        report.sources = b.sources.clone();
        report.opt = b.opt.clone();
        assert_eq!(report.json["exit"]["signal"], "SIGTERM");
        let r = record_of(&report.path);
        let tr = r.trailer.as_ref().unwrap();
        assert_eq!(tr.exit, Exit::Signal(15), "[{opt}]");
        assert_eq!(tr.exit.encode(), (2, 15));

        // The time loop was running: one IN-FLIGHT entry, in main's node, with the
        // labels its exit test had seen (steps).
        assert_eq!(
            r.inflight.len() as u64,
            report.json["exit"]["loops_in_flight"].as_u64().unwrap(),
            "[{opt}] {:?}",
            r.inflight
        );
        assert_eq!(r.inflight.len(), 1, "[{opt}] {:?}", r.inflight);
        let e = r.inflight[0];
        assert_eq!(e.thread, 0);
        assert_eq!(e.depth, 0, "[{opt}] the outermost loop");
        let t = &r.threads[e.thread as usize];
        assert_eq!(e.node, node_of(&r, t, "main"), "[{opt}]");
        let key = loop_key(&r, e.loop_);
        assert_eq!(
            (key.0.as_str(), key.1),
            ("main", report.marker_line("@time")),
            "[{opt}]"
        );
        assert_eq!(params_of(&r, e.label), names(&["steps"]), "[{opt}]");
        // The record's loop records are raw: the report counts the loop in flight as one
        // execution more, with its labels.
        report.assert_loop("main", "@time", &["steps"]);
        let in_flight = BTreeMap::from([(key, 1u64)]);
        assert_loops_agree(&report, &r, &in_flight);
        assert_eq!(
            report.loop_at("sweep", "@sweep").executions,
            11,
            "[{opt}] steps 0 to 10"
        );
    });
}

#[test]
fn every_way_to_end_has_its_exit_kind_and_code() {
    at_each_level(&["record_tree.c"], &[], |b| {
        let opt = &b.opt;
        // (mode, exit status or None for a signal, exit in the record, report reason)
        let cases = [
            ("2", Some(4), Exit::Immediate(4), "_exit"),
            ("3", Some(5), Exit::Normal(5), "exit"),
            ("4", None, Exit::Signal(11), "signal"),
            // tp_write_report, then the end: the final record replaced the mid-run one.
            ("5", Some(0), Exit::Normal(0), "exit"),
            // tp_write_report, then SIGKILL: the mid-run record stays.
            ("6", None, Exit::Running, "running"),
        ];
        for (mode, status, exit, reason) in cases {
            let run = b.run(&args(mode));
            assert_eq!(run.output.status.code(), status, "[{opt}] mode {mode}");
            let report = run.report();
            assert_eq!(report.json["exit"]["reason"], reason, "[{opt}] mode {mode}");
            let r = record_of(&report.path);
            assert_eq!(r.trailer.unwrap().exit, exit, "[{opt}] mode {mode}");
            if let Some(code) = report.json["exit"].get("code") {
                assert_eq!(exit.encode().1 as i64, code.as_i64().unwrap());
            }
            let files = files_in(&run.out_dir);
            assert_eq!(files.len(), 2, "[{opt}] mode {mode}: {files:?}");
        }
    });
}

#[test]
fn exec_leaves_the_record_of_the_run_before_it() {
    at_each_level(&["process_ends.c"], &[], |b| {
        let opt = &b.opt;
        // Mode 3: exec /bin/true at step 10 of the time loop.
        let run = b.run(&["64", "40", "3"]);
        assert_eq!(
            run.output.status.code(),
            Some(0),
            "[{opt}] /bin/true's status"
        );
        let report = run.report();
        let name = report
            .path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(name.contains(".before-exec."), "{name}");
        let r = record_of(&report.path);
        assert!(record_path(&report.path)
            .to_string_lossy()
            .ends_with(&name.replace(".json", ".rec")));
        assert_eq!(r.trailer.unwrap().exit, Exit::Exec, "[{opt}]");
        assert_eq!(r.inflight.len(), 1, "[{opt}] the time loop");
    });
}

#[test]
fn taintprof_report_0_writes_nothing() {
    at_each_level(&["record_tree.c"], &[], |b| {
        let opt = &b.opt;
        let run = b.run_env(&args("0"), &[("TAINTPROF_REPORT", "0")]);
        assert!(run.output.status.success(), "[{opt}] {}", run.stderr());
        assert!(run.reports.is_empty(), "[{opt}]");
        assert!(
            files_in(&run.out_dir).is_empty(),
            "[{opt}] no record, no temporary file either"
        );
        // On a signal too.
        let run = b.run_env(&args("1"), &[("TAINTPROF_REPORT", "0")]);
        assert!(files_in(&run.out_dir).is_empty(), "[{opt}]");
    });
}

#[test]
fn the_record_line_on_stderr_says_where_and_what_reads_it() {
    let b = compile(&["record_tree.c"], "-O2", &[]);
    let run = b.run_env(&args("0"), &[("TAINTPROF_QUIET", "0")]);
    let err = run.stderr();
    let rec = record_path(&run.reports[0]);
    assert!(
        err.contains(&format!(
            "taintprof: record written to {} (`taintprof report` reads it)",
            rec.display()
        )),
        "{err}"
    );
    assert!(
        !err.contains("report written to"),
        "no JSON is written: {err}"
    );
    let run = b.run_env(&args("0"), &[("TAINTPROF_QUIET", "1")]);
    assert!(!run.stderr().contains("record written"), "{}", run.stderr());
    assert!(record_path(&run.reports[0]).exists());
    // A crash is announced unless TAINTPROF_QUIET=1 says otherwise.
    let run = b.run_env(&args("4"), &[]);
    assert!(
        run.stderr().contains("partial record written to"),
        "{}",
        run.stderr()
    );
}

/// The GNU build id of the ELF file `path` as `readelf -n` shows it (hex).
fn readelf_build_id(path: &Path) -> Option<String> {
    let out = run_cmd(std::process::Command::new("readelf").arg("-n").arg(path));
    assert!(
        out.status.success(),
        "readelf -n {}: {out:?}",
        path.display()
    );
    String::from_utf8_lossy(&out.stdout).lines().find_map(|l| {
        l.trim()
            .strip_prefix("Build ID: ")
            .map(|s| s.trim().to_string())
    })
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn parameters_carry_their_values_and_modules_their_build_ids() {
    use taintprof_record::{Value, PARAM_VALUE_CHANGED};
    for opt in OPT_LEVELS {
        let id = ["-Wl,--build-id=sha1"];
        let link = compile_shared_library("shared_kernel.cpp", "kernel", opt, &id);
        let mut flags: Vec<&str> = link.iter().map(String::as_str).collect();
        flags.extend(id);
        let b = compile(&["param_values.c"], opt, &flags);
        let (report, run) = b.run_ok(&["40"]);
        assert!(
            run.stdout().contains("sum 2730"),
            "[{opt}] {}",
            run.stdout()
        );
        let r = record_of(&report.path);

        // PARAMS: the value of each first registration, by the runtime's rule (1, 2, 4
        // or 8 bytes are a signed integer; other sizes have none).
        let params: Vec<(String, Value, u32, u16)> = r
            .params
            .params
            .iter()
            .map(|p| {
                (
                    text(&p.name),
                    p.info.value,
                    p.info.registrations,
                    p.info.flags,
                )
            })
            .collect();
        let expected = [
            ("n", Value::Int(40), 1, 0),
            ("level", Value::Int(-3), 1, 0),
            // unsigned char 200 and unsigned 4e9: the API has no type, read as signed.
            ("small", Value::Int(200 - 256), 1, 0),
            ("offset", Value::Int(-300), 1, 0),
            ("big", Value::Int(1 << 40), 1, 0),
            ("wide", Value::Int(4_000_000_000 - (1 << 32)), 1, 0),
            // A double is 8 bytes: the integer of its bits.
            ("tol", Value::Int(0.5f64.to_bits() as i64), 1, 0),
            ("grid", Value::None, 1, 0),
            ("steps", Value::Int(7), 2, 0),
            ("m", Value::Int(10), 2, PARAM_VALUE_CHANGED),
        ];
        let expected: Vec<(String, Value, u32, u16)> = expected
            .iter()
            .map(|&(n, v, c, f)| (n.to_string(), v, c, f))
            .collect();
        assert_eq!(params, expected, "[{opt}]");
        assert_eq!(
            params.iter().map(|p| p.0.clone()).collect::<Vec<_>>(),
            report.parameters(),
            "[{opt}]"
        );

        // MODULES: the program's and the library's, each with its object's build id.
        assert_eq!(r.modules.list.len(), 2, "[{opt}]");
        let module = |src: &str| {
            r.modules
                .list
                .iter()
                .find(|m| text(&m.source).ends_with(src))
                .unwrap_or_else(|| panic!("[{opt}] no module of {src}"))
        };
        let (exe, lib) = (module("param_values.c"), module("shared_kernel.cpp"));
        assert_eq!(
            Path::new(&text(&exe.object)).canonicalize().unwrap(),
            b.exe.canonicalize().unwrap(),
            "[{opt}]"
        );
        assert!(text(&lib.object).ends_with("/libkernel.so"), "[{opt}]");
        for m in [exe, lib] {
            let object = PathBuf::from(text(&m.object));
            let want = readelf_build_id(&object)
                .unwrap_or_else(|| panic!("{} has no build id", object.display()));
            assert_eq!(want.len(), 40, "sha1");
            assert_eq!(hex(&m.build_id), want, "[{opt}] {}", object.display());
        }
        assert_ne!(exe.build_id, lib.build_id);
    }

    // The program linked without a build id: its module has none in the record.
    let link = compile_shared_library("shared_kernel.cpp", "kernel", "-O0", &[]);
    let mut flags: Vec<&str> = link.iter().map(String::as_str).collect();
    flags.push("-Wl,--build-id=none");
    let b = compile(&["param_values.c"], "-O0", &flags);
    assert_eq!(readelf_build_id(&b.exe), None);
    let (report, _) = b.run_ok(&["40"]);
    let r = record_of(&report.path);
    let exe = r
        .modules
        .list
        .iter()
        .find(|m| text(&m.source).ends_with("param_values.c"))
        .unwrap();
    assert!(exe.build_id.is_empty(), "{:?}", exe.build_id);
    assert!(!exe.object.is_empty());
}
