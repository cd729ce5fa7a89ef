//! Integration tests: real C and C++ programs linked against `libtaintprof_rt.a`.
//!
//! `tests/c/fake_instrumented.c` plays the part of instrumented code (it calls the hooks
//! the pass would emit, by hand) and is run in several modes; each run writes its raw run
//! record into a fresh `TAINTPROF_OUT` directory, and the tests check the report the
//! offline analysis makes of it (`taintprof_model`, as the driver does).
//!
//! Link line (from `cargo rustc -p taintprof-rt --release -- --print native-static-libs`):
//!
//! ```text
//! cc prog.o libtaintprof_rt.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
//! ```
//!
//! Timing of the hot hooks (optimized runtime):
//!
//! ```text
//! cargo test -p taintprof-rt --release --test c_programs -- --ignored --nocapture
//! ```

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use serde_json::Value;

mod common;

/// Native libraries Rust's standard library needs, in order.
const NATIVE_LIBS: &[&str] = &[
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

/// The runtime archive programs link (`scripts/build-runtime.sh`), checked to be newer
/// than the runtime's sources.
fn staticlib() -> PathBuf {
    taintprof_tests::runtime_archive()
}

fn tmp_root() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("taintprof-rt-it");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn compile(compiler: &str, src: &str, out: &str) -> PathBuf {
    compile_with(compiler, src, out, &[])
}

fn compile_with(compiler: &str, src: &str, out: &str, flags: &[&str]) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(src);
    let exe = tmp_root().join(out);
    let st = Command::new(compiler)
        .args(flags)
        .args(["-O2", "-g", "-pthread", "-Wall", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg(staticlib())
        .args(NATIVE_LIBS)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(st.success(), "{compiler} failed to build {}", src.display());
    exe
}

fn program() -> &'static Path {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| compile("cc", "fake_instrumented.c", "fake_instrumented"))
}

struct Run {
    out: Output,
    dir: PathBuf,
}

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).into_owned()
    }
    /// The raw run records of the run (`<prog>.<pid>.taintprof.rec`); nothing else may
    /// be in the directory (no temporary files) but the runtime's JSON report beside a
    /// record.
    fn reports(&self) -> Vec<PathBuf> {
        common::records_in(&self.dir, &format!("stderr: {}", self.stderr()))
    }
    /// The report of the one record of the run (and nothing else beside it: no temp
    /// files).
    fn report(&self) -> Value {
        let files = self.reports();
        assert_eq!(
            files.len(),
            1,
            "expected exactly one record, got {files:?}\nstderr: {}",
            self.stderr()
        );
        let f = &files[0];
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("fake_instrumented.") && name.ends_with(".taintprof.rec"),
            "{name}"
        );
        common::model_report(f)
    }
}

/// An `env` value for `run`: remove the variable (not even empty).
const UNSET: &str = "\0unset";

fn run_in(dir: PathBuf, mode: &str, n: &str, env: &[(&str, &str)]) -> Run {
    let _ = std::fs::remove_dir_all(&dir);
    let mut c = Command::new(program());
    // The tests read the report line, which goes only to a terminal by default.
    c.args([mode, n])
        .env("TAINTPROF_OUT", &dir)
        .env("TAINTPROF_QUIET", "0");
    for (k, v) in env {
        if *v == UNSET {
            c.env_remove(k);
        } else {
            c.env(k, v);
        }
    }
    Run {
        out: c.output().unwrap(),
        dir,
    }
}

fn run(mode: &str, n: &str, env: &[(&str, &str)]) -> Run {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = tmp_root().join(format!(
        "out-{}-{}-{}",
        mode,
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    run_in(dir, mode, n, env)
}

fn loops_of<'a>(v: &'a Value, func: &str) -> &'a Vec<Value> {
    v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == func)
        .unwrap_or_else(|| panic!("no function {func} in {v}"))["loops"]
        .as_array()
        .unwrap()
}

fn check_common(v: &Value, n: &str) {
    assert_eq!(v["schema"], "taintprof.taint");
    assert_eq!(v["version"], 4);
    assert_eq!(v["program"]["name"], "fake_instrumented");
    assert_eq!(v["program"]["argv"][2], n);
    assert!(v["program"]["path"]
        .as_str()
        .unwrap()
        .ends_with("/fake_instrumented"));
    assert_eq!(
        v["modules"],
        serde_json::json!([{"source": "fake_instrumented.c", "functions": 3, "loops": 2, "library_loops": 0, "folded_loops": 0}])
    );
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains("from_the_future.c"), "{warnings}");
    let loops = loops_of(v, "compute");
    assert_eq!(loops.len(), 2);
    assert_eq!(loops[1]["line"], 50);
    assert_eq!(loops[1]["executions"], 0, "a loop that never ran is listed");
    assert_eq!(loops[1]["const_trip_count"], 16);
    assert_eq!(loops[0]["parent_line"], serde_json::Value::Null);
    // Schema v2: the model structure.
    let f = function(v, "compute");
    assert_eq!(f["executed"], true);
    assert_eq!(f["statically_pruned"], false);
    let b = &f["branches"][0];
    assert_eq!(
        (b["line"].as_u64(), b["kind"].as_str()),
        (Some(44), Some("if"))
    );
    assert_eq!(
        b["successors"],
        serde_json::json!([{"line": 45, "taken": true}, {"line": 47, "taken": false}]),
        "the branch's cold path ORed in the taken successor only"
    );
    for table in ["functions", "loops"] {
        let o = v["summary"][table].as_object().unwrap();
        let parts: u64 = o
            .iter()
            .filter(|(k, _)| *k != "total")
            .map(|(_, x)| x.as_u64().unwrap())
            .sum();
        assert_eq!(
            parts,
            o["total"].as_u64().unwrap(),
            "summary.{table}: {o:?}"
        );
    }
    assert_eq!(v["summary"]["functions"]["total"], 3);
    let params = v["parameters"].as_array().unwrap().len();
    assert_eq!(
        v["coverage"].as_array().unwrap().len(),
        params + (params >= 2) as usize + (params >= 3) as usize
    );
}

fn function<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no function {name} in {v}"))
}

#[test]
fn exit_with_status_writes_one_report() {
    let r = run("exit", "1000", &[]);
    assert_eq!(r.out.status.code(), Some(3), "{}", r.stderr());
    assert!(
        r.stdout().contains("shadow-mapped-in-constructor=1"),
        "the .preinit_array entry must run before constructors: {}",
        r.stdout()
    );
    assert!(r.stdout().contains("label(n)=1"));
    let v = r.report();
    check_common(&v, "1000");
    assert_eq!(v["exit"], serde_json::json!({"reason": "exit", "code": 3}));
    assert_eq!(v["threads"], 1);
    assert_eq!(v["parameters"], serde_json::json!(["n"]));
    let l = &loops_of(&v, "compute")[0];
    assert_eq!(
        (l["line"].as_u64(), l["column"].as_u64()),
        (Some(42), Some(3))
    );
    assert_eq!(l["params"], serde_json::json!(["n"]));
    assert_eq!(l["executions"], 1);
    assert_eq!(
        l["contexts"],
        serde_json::json!([{"path": [{"function": "main", "file": "fake_instrumented.c", "line": 210}], "params": ["n"], "executions": 1}])
    );
    // stderr names the file, and errors about the bad module are printed.
    let path = r.reports()[0].display().to_string();
    assert!(
        r.stderr()
            .contains(&format!("taintprof: record written to {path}")),
        "{}",
        r.stderr()
    );
    assert!(r.stderr().contains("ABI version 999"), "{}", r.stderr());
    // The model: main calls compute(n) once.
    let compute = function(&v, "compute");
    assert_eq!(compute["volume"], "n");
    assert_eq!(compute["exclusive_params"], serde_json::json!(["n"]));
    assert_eq!(compute["branches"][0]["params"], serde_json::json!(["n"]));
    assert_eq!(
        compute["contexts"],
        serde_json::json!([{"path": [{"function": "main", "file": "fake_instrumented.c", "line": 210}],
                            "callpath": "main->compute",
                            "inclusive_params": ["n"], "volume": "n",
                            "volume_terms": [[{"params": ["n"], "power": 1}]],
                            "calls_volume": "1", "calls_volume_terms": [[]],
                            "total_volume": "n",
                            "total_volume_terms": [[{"params": ["n"], "power": 1}]]}])
    );
    let main = function(&v, "main");
    assert_eq!(main["volume"], "n");
    assert_eq!(main["exclusive_volume"], "1");
    assert_eq!(main["inclusive_params"], serde_json::json!(["n"]));
    assert_eq!(function(&v, "worker")["executed"], false);
    assert_eq!(
        v["summary"]["functions"],
        serde_json::json!({"total": 3, "statically_pruned": 0, "dynamically_pruned": 0, "relevant": 2, "never_ran": 1})
    );
    assert_eq!(
        v["coverage"],
        serde_json::json!([{"params": ["n"], "functions": 1, "loops": 1}])
    );
    assert_eq!(
        v["recommendation"],
        serde_json::json!({"pair": null, "triple": null})
    );
}

#[test]
fn return_from_main_writes_a_report() {
    let r = run("return", "5", &[]);
    assert_eq!(r.out.status.code(), Some(0));
    let v = r.report();
    check_common(&v, "5");
    assert_eq!(v["exit"], serde_json::json!({"reason": "exit", "code": 0}));
}

#[test]
fn sigsegv_leaves_a_partial_report_and_the_right_status() {
    let r = run("segv", "5", &[]);
    assert_eq!(
        r.out.status.signal(),
        Some(libc_sig::SEGV),
        "status {:?}",
        r.out.status
    );
    let v = r.report();
    check_common(&v, "5");
    assert_eq!(
        v["exit"],
        serde_json::json!({"reason": "signal", "signal": "SIGSEGV", "number": 11})
    );
    assert_eq!(
        loops_of(&v, "compute")[0]["executions"],
        1,
        "data gathered before the crash is there"
    );
    let path = r.reports()[0].display().to_string();
    assert!(
        r.stderr().contains(&format!(
            "taintprof: fake_instrumented received SIGSEGV; partial record written to {path} (`taintprof report` reads it)"
        )),
        "{}",
        r.stderr()
    );
}

#[test]
fn abort_leaves_a_partial_report() {
    let r = run("abort", "5", &[]);
    assert_eq!(r.out.status.signal(), Some(libc_sig::ABRT));
    let v = r.report();
    assert_eq!(v["exit"]["signal"], "SIGABRT");
}

#[test]
fn pthreads_contexts_are_per_thread_and_merged() {
    let r = run("threads", "7", &[]);
    assert!(r.out.status.success(), "{}", r.stderr());
    let v = r.report();
    check_common(&v, "7");
    assert_eq!(v["threads"], 5);
    assert_eq!(v["parameters"], serde_json::json!(["n", "threads_n"]));
    let l = &loops_of(&v, "compute")[0];
    assert_eq!(l["executions"], 5);
    assert_eq!(l["params"], serde_json::json!(["n", "threads_n"]));
    let ctx = l["contexts"].as_array().unwrap();
    assert_eq!(ctx.len(), 2, "{ctx:?}");
    // Paths start at main, or at the thread's start routine.
    assert_eq!(
        ctx[0]["path"],
        serde_json::json!([{"function": "main", "file": "fake_instrumented.c", "line": 210}])
    );
    assert_eq!(ctx[0]["params"], serde_json::json!(["n"]));
    assert_eq!(
        ctx[1]["path"],
        serde_json::json!([{"function": "worker", "file": "fake_instrumented.c", "line": 85}])
    );
    assert_eq!(ctx[1]["params"], serde_json::json!(["threads_n"]));
    assert_eq!(ctx[1]["executions"], 4, "four threads' contexts merge");
    let compute = function(&v, "compute");
    assert_eq!(compute["volume"], "n + threads_n", "two contexts add");
    assert_eq!(
        compute["branches"][0]["params"],
        serde_json::json!(["n", "threads_n"])
    );
    assert_eq!(function(&v, "worker")["volume"], "threads_n");
    assert_eq!(
        v["recommendation"]["pair"],
        serde_json::json!({"params": ["n", "threads_n"], "functions": 1, "loops": 1})
    );
}

#[test]
fn the_seventeenth_parameter_is_rejected() {
    let r = run("params17", "1", &[]);
    assert!(r.out.status.success());
    assert!(r.stdout().contains("label(p17)=0"));
    assert!(
        r.stderr().contains("cannot register parameter 'p16'") && r.stderr().contains("at most 16"),
        "{}",
        r.stderr()
    );
    let v = r.report();
    assert_eq!(v["parameters"].as_array().unwrap().len(), 16);
    let rejected: Vec<&str> = v["rejected_parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(rejected, ["p16", "p17"]);
}

#[test]
fn mid_run_report_is_replaced_by_the_final_one() {
    let r = run("midrun", "3", &[]);
    assert!(r.out.status.success());
    let v = r.report();
    assert_eq!(v["exit"]["reason"], "exit");
    assert_eq!(loops_of(&v, "compute")[0]["executions"], 2);
    assert_eq!(
        r.stderr().matches("record written to").count(),
        2,
        "{}",
        r.stderr()
    );
}

#[test]
fn the_report_line_goes_to_a_terminal_only_unless_asked() {
    // Unset and stderr a pipe (as under a build tool or a test suite): no line, the
    // report is still written.
    let r = run("exit", "2", &[("TAINTPROF_QUIET", UNSET)]);
    assert!(!r.stderr().contains("record written"), "{}", r.stderr());
    r.report();
    // A crash is still announced.
    let r = run("segv", "5", &[("TAINTPROF_QUIET", UNSET)]);
    assert!(
        r.stderr()
            .contains("received SIGSEGV; partial record written to"),
        "{}",
        r.stderr()
    );
    assert!(r.stderr().contains("record written to"), "{}", r.stderr());
    // So is it after a value that is not a boolean (warned about, default kept).
    let r = run("segv", "5", &[("TAINTPROF_QUIET", "maybe")]);
    assert!(
        r.stderr()
            .contains("received SIGSEGV; partial record written to"),
        "{}",
        r.stderr()
    );
    // An explicit 1 silences that too.
    let r = run("segv", "5", &[("TAINTPROF_QUIET", "1")]);
    assert!(!r.stderr().contains("partial record"), "{}", r.stderr());
    assert!(!r.stderr().contains("record written"), "{}", r.stderr());
    r.report();
}

#[test]
fn quiet_and_disabled_and_nested_output_directory() {
    let r = run("exit", "2", &[("TAINTPROF_QUIET", "1")]);
    assert!(!r.stderr().contains("record written"), "{}", r.stderr());
    r.report();
    let r = run("exit", "2", &[("TAINTPROF_REPORT", "0")]);
    assert!(r.reports().is_empty());
    let nested = tmp_root().join(format!("nested-{}/a/b/c", std::process::id()));
    let r = run_in(nested.clone(), "exit", "2", &[]);
    assert!(nested.is_dir());
    r.report();
    let r = run("exit", "2", &[("TAINTPROF_QUIET", "maybe")]);
    assert!(
        r.stderr()
            .contains("TAINTPROF_QUIET=maybe is not a boolean"),
        "{}",
        r.stderr()
    );
}

#[test]
fn wrappers_link_and_move_labels() {
    let r = run("wrappers", "2", &[]);
    assert!(r.out.status.success(), "{}", r.stderr());
    assert!(r.stdout().contains("label(copy)=2"), "{}", r.stdout());
    assert!(
        r.stdout().contains("strtol=12345 ret_label=2"),
        "{}",
        r.stdout()
    );
    assert!(r.stdout().contains("label(ctrl_copy)=0"), "{}", r.stdout());
    assert!(r.stdout().contains("label(or)=8"), "{}", r.stdout());
    assert_eq!(r.report()["parameters"], serde_json::json!(["n", "text"]));
}

#[test]
fn operator_new_wrappers_let_exceptions_through() {
    let exe = compile("c++", "new_wrappers.cpp", "new_wrappers");
    let dir = tmp_root().join(format!("out-new-{}", std::process::id()));
    let out = Command::new(exe)
        .env("TAINTPROF_OUT", &dir)
        .env("TAINTPROF_QUIET", "1")
        .output()
        .unwrap();
    let so = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{so}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(so.contains("caught=2"), "{so}");
    assert!(so.contains("nothrow_null=1"), "{so}");
    assert!(so.contains("stale_labels=0"), "{so}");
}

#[test]
fn stack_overflow_still_leaves_a_report() {
    // The handler runs on the alternate signal stack.
    let r = run("overflow", "3", &[]);
    assert_eq!(
        r.out.status.signal(),
        Some(libc_sig::SEGV),
        "{}",
        r.stderr()
    );
    let v = r.report();
    assert_eq!(v["exit"]["signal"], "SIGSEGV");
    let compute = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "compute")
        .unwrap();
    assert_eq!(
        compute["recursive"], true,
        "deep recursion is folded and flagged"
    );
    assert!(v["warnings"].to_string().contains("'compute'"));
}

#[test]
fn exit_while_other_threads_run_instrumented_code() {
    for _ in 0..3 {
        let r = run("busy_exit", "3", &[]);
        assert_eq!(r.out.status.code(), Some(0), "{}", r.stderr());
        let v = r.report();
        assert_eq!(v["exit"], serde_json::json!({"reason": "exit", "code": 0}));
        assert_eq!(v["threads"], 4);
        assert!(loops_of(&v, "compute")[0]["executions"].as_u64().unwrap() > 3);
    }
}

#[test]
fn sigterm_from_outside_while_threads_run() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = tmp_root().join(format!("out-term-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(program())
        .args(["busy_wait", "3"])
        .env("TAINTPROF_OUT", &dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    while !line.contains("ready") {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "program ended early");
    }
    let st = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(libc_sig::TERM));
    let r = Run { out, dir };
    let v = r.report();
    assert_eq!(
        v["exit"],
        serde_json::json!({"reason": "signal", "signal": "SIGTERM", "number": 15})
    );
    assert_eq!(v["threads"], 4);
    assert!(
        r.stderr()
            .contains("received SIGTERM; partial record written to"),
        "{}",
        r.stderr()
    );
}

#[test]
fn a_forked_child_writes_its_own_report() {
    let r = run("fork", "4", &[]);
    assert!(r.out.status.success());
    let files = r.reports();
    assert_eq!(files.len(), 2, "{files:?}");
    let child: i64 = r
        .stdout()
        .lines()
        .find_map(|l| l.strip_prefix("child="))
        .unwrap()
        .parse()
        .unwrap();
    let reports: Vec<Value> = files.iter().map(|f| common::model_report(f)).collect();
    let c = reports
        .iter()
        .find(|v| v["program"]["pid"] == child)
        .expect("child report");
    let p = reports
        .iter()
        .find(|v| v["program"]["pid"] != child)
        .expect("parent report");
    // The child inherited the parent's first execution and added its own.
    assert_eq!(loops_of(c, "compute")[0]["executions"], 2);
    assert_eq!(loops_of(p, "compute")[0]["executions"], 1);
}

#[test]
fn a_limited_address_space_is_explained() {
    let dir = tmp_root().join(format!("out-ulimit-{}", std::process::id()));
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 8000000 && exec \"$0\" exit 1")
        .arg(program())
        .env("TAINTPROF_OUT", &dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot reserve the shadow memory region") && err.contains("ulimit -v"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "main must not run");
}

#[test]
fn openmp_workers_get_their_own_trees() {
    let exe = compile_with("cc", "openmp.c", "openmp", &["-fopenmp"]);
    let dir = tmp_root().join(format!("out-omp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(exe)
        .arg("2000")
        .env("TAINTPROF_OUT", &dir)
        .env("OMP_NUM_THREADS", "4")
        .output()
        .unwrap();
    let r = Run { out, dir };
    assert!(r.out.status.success(), "{}", r.stderr());
    assert!(r.stdout().contains("threads=4"), "{}", r.stdout());
    let files = r.reports();
    assert_eq!(files.len(), 1);
    let v = common::model_report(&files[0]);
    assert_eq!(v["threads"], 4);
    let l = &loops_of(&v, "body")[0];
    assert_eq!(l["executions"], 2000, "no loop exit is lost");
    assert_eq!(l["params"], serde_json::json!(["n"]));
    let ctx = l["contexts"].as_array().unwrap();
    // The master thread: main -> (site main@40) -> body. Workers: body is their root.
    let paths: Vec<String> = ctx.iter().map(|c| c["path"].to_string()).collect();
    assert_eq!(ctx.len(), 2, "{paths:?}");
    assert_eq!(ctx[0]["path"], serde_json::json!([]));
    assert_eq!(
        ctx[1]["path"],
        serde_json::json!([{"function": "main", "file": "openmp.c", "line": 40}])
    );
    let total: u64 = ctx.iter().map(|c| c["executions"].as_u64().unwrap()).sum();
    assert_eq!(total, 2000);
}

#[test]
fn public_headers_compile_strictly_and_work() {
    let inc = format!(
        "-I{}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("include")
            .display()
    );
    let c = compile_with(
        "cc",
        "headers.c",
        "headers_c",
        &[&inc, "-std=c99", "-Wextra", "-Werror", "-pedantic"],
    );
    let cpp = compile_with(
        "c++",
        "headers.cpp",
        "headers_cpp",
        &[&inc, "-std=c++11", "-Wextra", "-Werror", "-pedantic"],
    );
    let dir = tmp_root().join(format!("out-headers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(c).env("TAINTPROF_OUT", &dir).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "size=1 steps=2 max=16\n"
    );
    let out = Command::new(cpp)
        .env("TAINTPROF_OUT", &dir)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "nx=1 eps=2\n");
    // tp_write_report + the final report: one record per process (and nothing else
    // but the runtime's JSON report beside each).
    let files = common::records_in(&dir, "");
    assert_eq!(files.len(), 2, "{files:?}");
}

#[test]
fn a_closed_stderr_does_not_change_the_exit_status() {
    let mut fds = [0i32; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    unsafe { libc::close(fds[0]) };
    // SAFETY: fds[1] is a fresh descriptor we own.
    let stderr = unsafe { <std::process::Stdio as std::os::fd::FromRawFd>::from_raw_fd(fds[1]) };
    let dir = tmp_root().join(format!("out-epipe-{}", std::process::id()));
    let st = Command::new(program())
        .args(["exit", "1"])
        .env("TAINTPROF_OUT", &dir)
        .stderr(stderr)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(3), "{st:?}");
}

#[test]
fn signal_handling_can_be_turned_off() {
    let r = run("segv", "1", &[("TAINTPROF_HANDLE_SIGNALS", "0")]);
    assert_eq!(r.out.status.signal(), Some(libc_sig::SEGV));
    assert!(r.reports().is_empty());
}

/// Prints the cost of the hot hooks. Meaningful with `--release`.
#[test]
#[ignore = "a benchmark that prints timings and asserts nothing: run it with --ignored --release"]
fn bench_hot_hooks() {
    let dir = tmp_root().join("bench");
    let out = Command::new(program())
        .args(["bench", "200000000"])
        .env("TAINTPROF_OUT", &dir)
        .env("TAINTPROF_QUIET", "1")
        .output()
        .unwrap();
    println!("{}", String::from_utf8_lossy(&out.stdout));
}

/// Signal numbers on Linux (no libc dependency in the tests).
mod libc_sig {
    pub const ABRT: i32 = 6;
    pub const SEGV: i32 = 11;
    pub const TERM: i32 = 15;
}
