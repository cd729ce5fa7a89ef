//! The `taintprof` command and the wrappers' own behaviour, run as processes. Nothing
//! here needs the pass plugin or the runtime: reports come from fixtures, programs from
//! `/bin/sh`. `taintprof bench` runs `taintprof-bench`, which `cargo build --release
//! --workspace` puts next to `taintprof` (without it those tests fail and name it).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TAINTPROF: &str = env!("CARGO_BIN_EXE_taintprof");
const CC: &str = env!("CARGO_BIN_EXE_taintprof-cc");
const CXX: &str = env!("CARGO_BIN_EXE_taintprof-cxx");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `<tmp>/taintprof-cli-<name>-<pid>`, kept for inspection; the next run removes it
/// once this process is gone.
fn tempdir(name: &str) -> PathBuf {
    common::scratch_dir("cli", name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn taintprof(args: &[&str]) -> Output {
    Command::new(TAINTPROF).args(args).output().unwrap()
}

/// A clear one-line error, a non-zero status, no panic.
fn assert_clean_error(out: &Output, needle: &str) {
    let err = text(&out.stderr);
    assert!(!out.status.success(), "expected failure; stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{err}");
    assert!(err.contains(needle), "expected `{needle}` in: {err}");
}

#[test]
fn report_prints_the_golden_text() {
    let dir = tempdir("golden");
    std::fs::copy(
        fixture("matmul.4242.taintprof.json"),
        dir.join("matmul.4242.taintprof.json"),
    )
    .unwrap();
    let out = Command::new(TAINTPROF)
        .args(["report", "matmul.4242.taintprof.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let want = std::fs::read_to_string(fixture("matmul.report.txt")).unwrap();
    assert_eq!(text(&out.stdout), want);
}

#[test]
fn report_prints_the_v2_golden_text() {
    let dir = tempdir("golden2");
    std::fs::copy(
        fixture("solver.4711.taintprof.json"),
        dir.join("solver.4711.taintprof.json"),
    )
    .unwrap();
    let out = Command::new(TAINTPROF)
        .args(["report", "solver.4711.taintprof.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let want = std::fs::read_to_string(fixture("solver.report.txt")).unwrap();
    assert_eq!(text(&out.stdout), want);

    let out = Command::new(TAINTPROF)
        .args(["report", "-v", "solver.4711.taintprof.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let want = std::fs::read_to_string(fixture("solver.report.verbose.txt")).unwrap();
    assert_eq!(text(&out.stdout), want);
}

/// The top-level keys of a pretty-printed JSON object, in order.
fn top_keys(raw: &str) -> Vec<String> {
    raw.lines()
        .filter_map(|l| l.strip_prefix("  \""))
        .filter_map(|l| l.split_once("\":").map(|(k, _)| k.to_string()))
        .collect()
}

#[test]
fn report_json_is_normalized_and_stable() {
    let file = fixture("solver.4711.taintprof.json");
    let out = taintprof(&[
        "report",
        "--json",
        "--subset",
        "iters,algo",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        top_keys(&text(&out.stdout)),
        vec![
            "report",
            "schema_version",
            "program",
            "exit",
            "complete",
            "parameters",
            "rejected_parameters",
            "control_flow",
            "threads",
            "modules",
            "pruning",
            "coverage",
            "recommendation",
            "functions",
            "constant_functions",
            "folded",
            "never_executed",
            "warnings"
        ]
    );
    assert_eq!(v["schema_version"], 2);
    assert_eq!(v["pruning"]["functions"]["ran_constant"], 1);
    assert_eq!(v["pruning"]["loops"]["never_ran"], 3);
    assert_eq!(v["coverage"]["total"]["functions"], 6);
    let cols = v["coverage"]["columns"].as_array().unwrap();
    assert_eq!(cols.len(), 6);
    assert_eq!(cols[3]["kind"], "pair");
    assert_eq!(cols[5]["kind"], "subset");
    assert_eq!(cols[5]["params"], serde_json::json!(["iters", "algo"]));
    assert_eq!(cols[5]["functions"], 3);
    assert_eq!(
        v["recommendation"]["pair"]["params"],
        serde_json::json!(["n", "iters"])
    );
    let main = &v["functions"][0];
    assert_eq!(main["name"], "main");
    assert_eq!(main["class"], "relevant");
    assert_eq!(main["volume"], "n^2*iters + n^2 + n + iters + algo");
    assert_eq!(main["pairs"][0]["kind"], "multiplicative");
    let fill = &v["functions"][1];
    assert_eq!(fill["contexts_differ"], true);
    assert_eq!(fill["contexts"][1]["path"], "main:113");
    assert_eq!(fill["loops"][1]["depth"], 1);
    assert_eq!(
        v["constant_functions"]["dynamically_pruned"][0]["name"],
        "checksum"
    );
    assert_eq!(
        v["never_executed"]["branches"][0]["function"],
        "make_stencil"
    );
    assert_eq!(
        v["never_executed"]["branches"][0]["untaken_lines"],
        serde_json::json!([27, 26])
    );
    assert_eq!(v["never_executed"]["functions"][1]["name"], "usage");
}

#[test]
fn report_json_reads_version_1() {
    let file = fixture("matmul.4242.taintprof.json");
    let out = taintprof(&["report", "--json", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["pruning"]["loops"]["total"], 8);
    assert_eq!(
        v["pruning"]["functions"]["relevant"],
        serde_json::Value::Null
    );
    assert_eq!(v["recommendation"], serde_json::Value::Null);
    let create = &v["functions"][0];
    assert_eq!(create["name"], "create");
    assert_eq!(create["volume"], serde_json::Value::Null);
    assert_eq!(create["loops"][0]["contexts"][1]["path"], "main:48");
    assert_eq!(
        v["constant_functions"]["dynamically_pruned"][0]["name"],
        "init_table"
    );
    assert_eq!(v["never_executed"]["loops"][0]["function"], "cleanup");
}

#[test]
fn report_subset_errors() {
    let file = fixture("solver.4711.taintprof.json");
    let out = taintprof(&["report", file.to_str().unwrap(), "--subset", "n,bogus"]);
    assert_clean_error(
        &out,
        "--subset n,bogus: unknown parameter `bogus`; the report registers: n, iters, algo",
    );
    assert_eq!(text(&out.stderr).lines().count(), 1);
}

#[test]
fn scorep_filter_is_written() {
    let dir = tempdir("scorep");
    let file = fixture("solver.4711.taintprof.json");
    let out_file = dir.join("filter.txt");
    let out = taintprof(&[
        "report",
        file.to_str().unwrap(),
        "--scorep-filter",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert!(
        text(&out.stderr).contains("7 parameter-dependent functions included, 5 excluded"),
        "{}",
        text(&out.stderr)
    );
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(written.ends_with(
        "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *\n  INCLUDE MANGLED fill\n  INCLUDE MANGLED jacobi\n  INCLUDE MANGLED main\n  INCLUDE MANGLED make_stencil\n  INCLUDE MANGLED norm\n  INCLUDE MANGLED refine\n  INCLUDE MANGLED solve\nSCOREP_REGION_NAMES_END\n"
    ));
    // `-` is standard output, byte for byte the same.
    let out = taintprof(&["report", file.to_str().unwrap(), "--scorep-filter", "-"]);
    assert_eq!(text(&out.stdout), written);

    assert_clean_error(
        &taintprof(&[
            "report",
            file.to_str().unwrap(),
            "--scorep-filter",
            "/no/such/dir/f.txt",
        ]),
        "cannot write /no/such/dir/f.txt",
    );
    let v1 = fixture("matmul.4242.taintprof.json");
    assert_clean_error(
        &taintprof(&["report", v1.to_str().unwrap(), "--scorep-filter", "-"]),
        "version 1 report has no inclusive parameters",
    );
}

#[test]
fn design_text_and_json() {
    let file = fixture("solver.4711.taintprof.json");
    let args = [
        "report",
        file.to_str().unwrap(),
        "--design",
        "n=32,64,128,256,512",
        "iters=10,20,40,80,160",
        "algo=0,1",
    ];
    let out = taintprof(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let got = text(&out.stdout).replace(file.to_str().unwrap(), "solver.4711.taintprof.json");
    assert_eq!(
        got,
        std::fs::read_to_string(fixture("solver.design.txt")).unwrap()
    );

    let mut json_args = args.to_vec();
    json_args.push("--json");
    json_args.extend(["--design-base", "n=64"]);
    let out = taintprof(&json_args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["run_count"], 26);
    assert_eq!(v["full_factorial"], 50);
    assert_eq!(
        v["runs"][0]["values"],
        serde_json::json!({"n": "64", "iters": "10", "algo": "0"})
    );
    assert_eq!(v["runs"][0]["varies"], "base");
    assert_eq!(v["groups"][0]["params"], serde_json::json!(["n", "iters"]));
    assert_eq!(v["groups"][0]["couplings"][0]["function"], "solve");
    assert_eq!(v["groups"][0]["couplings"][0]["term"], "n^2*iters");
    assert_eq!(v["parameters"][2]["role"], "additive");

    // Repeating --design works as well as listing several assignments after one.
    let out = taintprof(&[
        "report",
        file.to_str().unwrap(),
        "--design",
        "n=1,2",
        "--design",
        "iters=3,4",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("4 runs instead of 4 for the full factorial (2 × 2)"));
}

#[test]
fn design_errors_are_one_clear_line() {
    let file = fixture("solver.4711.taintprof.json");
    let f = file.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["report", f, "--design", "size=1,2"],
            "taintprof: error: --design: unknown parameter `size`; the report registers: n, iters, algo",
        ),
        (vec!["report", f, "--design", "n"], "--design takes PARAM=V1,V2,..."),
        (
            vec!["report", f, "--design", "n=1,2", "--design-base", "n=5"],
            "5 is not one of the values of n (1, 2)",
        ),
        (
            vec!["report", f, f, "--design", "n=1,2"],
            "--scorep-filter and --design read one report, but 2 were given",
        ),
        (
            vec![
                "report",
                fixture("matmul.4242.taintprof.json").to_str().unwrap(),
                "--design",
                "m=1,2",
            ],
            "version 1 report has no parameter pairs",
        ),
        (vec!["report", "/no/such.json", "--design", "n=1,2"], "cannot read /no/such.json"),
    ] {
        let out = taintprof(&args);
        assert_clean_error(&out, needle);
        assert_eq!(text(&out.stderr).lines().count(), 1, "{}", text(&out.stderr));
    }
    // Flags that make no sense together are refused by the parser.
    assert_clean_error(
        &taintprof(&["report", f, "--design-base", "n=1"]),
        "--design",
    );
    assert_clean_error(
        &taintprof(&["report", f, "--subset", "n", "--design", "n=1"]),
        "cannot be used with",
    );
}

#[test]
fn report_errors_are_one_clear_line() {
    let out = taintprof(&["report", "/no/such/file.json"]);
    assert_clean_error(&out, "taintprof: error: cannot read /no/such/file.json");
    assert_eq!(text(&out.stderr).lines().count(), 1);

    let dir = tempdir("bad");
    let notjson = dir.join("x.json");
    std::fs::write(&notjson, "hello").unwrap();
    assert_clean_error(
        &taintprof(&["report", notjson.to_str().unwrap()]),
        "not a taintprof report",
    );
    let truncated = dir.join("t.json");
    std::fs::write(&truncated, "{\"schema\": \"taintprof.taint\", \"vers").unwrap();
    assert_clean_error(
        &taintprof(&["report", truncated.to_str().unwrap()]),
        "cut short",
    );
    let other = dir.join("o.json");
    std::fs::write(&other, "{\"schema\": \"something.else\", \"version\": 1}").unwrap();
    assert_clean_error(
        &taintprof(&["report", other.to_str().unwrap()]),
        "schema \"something.else\"",
    );
    let newer = dir.join("n.json");
    std::fs::write(&newer, "{\"schema\": \"taintprof.taint\", \"version\": 9}").unwrap();
    assert_clean_error(
        &taintprof(&["report", newer.to_str().unwrap()]),
        "version 9",
    );
}

#[test]
fn run_summarizes_a_v2_report() {
    let dir = tempdir("run-v2");
    let script = format!(
        "cp '{}' \"$TAINTPROF_OUT/solver.$$.taintprof.json\"",
        fixture("solver.4711.taintprof.json").display()
    );
    let out = Command::new(TAINTPROF)
        .args([
            "run",
            "--out",
            dir.to_str().unwrap(),
            "--",
            "/bin/sh",
            "-c",
            &script,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    // Everything after the file name is the golden short summary.
    let want = std::fs::read_to_string(fixture("solver.short.txt")).unwrap();
    let (body, _) = want.rsplit_once("full report:").unwrap();
    assert!(err.contains(body), "{err}");
    assert!(err.contains("  functions: 12 total, 2 statically pruned, 1 dynamically pruned, 7 relevant, 2 never ran\n"));
    assert!(
        err.contains("  solve         solver.c:59  n, iters        n^2*iters + n\n"),
        "{err}"
    );
}

#[test]
fn unknown_flags_and_missing_arguments_fail_cleanly() {
    assert_clean_error(&taintprof(&["report", "--bogus", "x"]), "--bogus");
    assert_clean_error(&taintprof(&["frobnicate"]), "frobnicate");
    assert_clean_error(&taintprof(&["run"]), "PROG ARGS");
    assert_clean_error(&taintprof(&["report"]), "FILE");
    assert_clean_error(
        &taintprof(&["bench", "--workload", "nope"]),
        "unknown workload `nope`",
    );
    assert_clean_error(&taintprof(&["bench", "--runs", "x"]), "--runs");
}

#[test]
fn bench_runs_taintprof_bench_with_the_same_arguments() {
    // The help, the errors and the exit status are taintprof-bench's.
    let out = taintprof(&["bench", "--help"]);
    let help = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for f in [
        "taintprof-bench",
        "--quick",
        "--callgrind",
        "--workload",
        "--no-chart",
    ] {
        assert!(help.contains(f), "{f}: {help}");
    }
    let out = taintprof(&["bench", "--quick", "--runs", "x"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--runs"));

    // A taintprof without it says which file is missing, in one line.
    let dir = tempdir("no-bench").canonicalize().unwrap();
    let alone = dir.join("taintprof");
    std::fs::copy(TAINTPROF, &alone).unwrap();
    // A test running beside this one may fork while the copy's write descriptor is
    // open; its child holds it until it execs, and running the copy meanwhile fails
    // with ETXTBSY. Try again for a moment.
    let mut tries = 0;
    let out = loop {
        match Command::new(&alone).args(["bench", "--quick"]).output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            r => break r.unwrap(),
        }
    };
    let missing = dir.join("taintprof-bench");
    assert_clean_error(&out, &format!("{} not found", missing.display()));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_returns_the_program_status() {
    let dir = tempdir("status");
    let out = Command::new(TAINTPROF)
        .args(["run", "--", "/bin/sh", "-c", "echo hello; exit 7"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
    assert_eq!(text(&out.stdout), "hello\n");
    let err = text(&out.stderr);
    assert!(err.contains("wrote no report"), "{err}");
    assert!(err.contains("not built with taintprof-cc"), "{err}");

    let out = taintprof(&["run", "--", "/bin/sh", "-c", "kill -TERM $$"]);
    assert_eq!(out.status.code(), Some(128 + 15));
    assert!(text(&out.stderr).contains("killed by signal 15"));

    assert_clean_error(
        &taintprof(&["run", "--", "/no/such/program"]),
        "cannot run /no/such/program",
    );
}

#[test]
fn run_finds_the_reports_written_during_the_run() {
    let dir = tempdir("reports");
    let out_dir = dir.join("out");
    // A stale report from an earlier run must not be shown.
    std::fs::create_dir_all(&out_dir).unwrap();
    std::fs::write(out_dir.join("old.1.taintprof.json"), "{}").unwrap();
    let script = format!(
        "cp '{f}' \"$TAINTPROF_OUT/matmul.$$.taintprof.json\"; \
         cp '{f}' \"$TAINTPROF_OUT/child.2.taintprof.json\"; \
         echo \"quiet=$TAINTPROF_QUIET\"",
        f = fixture("matmul.4242.taintprof.json").display()
    );
    let out = Command::new(TAINTPROF)
        .args(["run", "--out", out_dir.to_str().unwrap(), "--"])
        .args(["/bin/sh", "-c", &script])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "quiet=1\n");
    let err = text(&out.stderr);
    assert!(
        err.contains("2 reports were written during the run"),
        "{err}"
    );
    assert!(!err.contains("old.1"), "{err}");
    // The program's own report (its pid) comes first.
    let first = err.find("/matmul.").expect("own report");
    let second = err.find("child.2.taintprof.json").expect("child report");
    assert!(first < second, "{err}");
    assert!(err.contains("  functions      3  3  3  2\n"), "{err}");
    assert!(
        err.contains(
            "  loops:     8 total, 1 statically pruned, 0 constant, 6 relevant, 1 never ran\n"
        ),
        "{err}"
    );
    assert!(err.contains("multiply     matmul.c:27     m"), "{err}");
}

#[test]
fn wrapper_help_and_own_flag_errors() {
    let out = Command::new(CC).arg("--tp-help").output().unwrap();
    assert!(out.status.success());
    let help = text(&out.stdout);
    assert!(help.contains("--tp-mode=taint|denormal"), "{help}");
    assert!(help.contains("--tp-control-flow=on|off"), "{help}");

    let out = Command::new(CC)
        .args(["--tp-bogus", "-c", "x.c"])
        .output()
        .unwrap();
    assert_clean_error(&out, "taintprof-cc: error: unknown option `--tp-bogus`");
    assert!(text(&out.stderr).contains("--tp-verbose"));

    let out = Command::new(CXX).args(["--tp-mode=fast"]).output().unwrap();
    assert_clean_error(&out, "taintprof-c++: error: --tp-mode needs a value");
}

#[test]
fn wrapper_reports_a_missing_clang_exactly() {
    let out = Command::new(CC)
        .args(["-c", "x.c"])
        .env("TAINTPROF_CLANG", "/nonexistent/clang-19")
        .output()
        .unwrap();
    assert_clean_error(&out, "taintprof-cc: error: clang-19");
    assert!(
        text(&out.stderr).contains(
            "not found; install it with: apt-get install clang-19 (Debian/Ubuntu), or set TAINTPROF_CLANG"
        ),
        "{}",
        text(&out.stderr)
    );
}

/// Panics, naming the package, unless clang 19 is installed (`scripts/setup.sh` installs it).
fn require_clang_19() {
    assert!(
        Path::new("/usr/lib/llvm-19/bin/clang").exists(),
        "clang-19 not found (/usr/lib/llvm-19/bin/clang): run scripts/setup.sh or apt-get install clang-19"
    );
}

#[test]
fn wrapper_reports_a_missing_plugin_with_the_fix() {
    require_clang_19();
    let out = Command::new(CC)
        .args(["-c", "x.c"])
        .env("TAINTPROF_PLUGIN", "/nonexistent/libtaintprof_pass.so")
        .output()
        .unwrap();
    assert_clean_error(&out, "libtaintprof_pass.so");
    assert!(text(&out.stderr).contains("TAINTPROF_PLUGIN"));
}

#[test]
fn wrapper_passes_queries_straight_through() {
    require_clang_19();
    // Works even when the plugin and runtime cannot be found: queries need neither.
    let out = Command::new(CC)
        .arg("--version")
        .env("TAINTPROF_PLUGIN", "/nonexistent")
        .env("TAINTPROF_RUNTIME", "/nonexistent")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("clang version 19"));
    let out = Command::new(CXX).arg("-dumpversion").output().unwrap();
    assert!(text(&out.stdout).starts_with("19"));
}

#[test]
fn cxx_wrapper_is_also_reachable_as_taintprof_cxx_plus_plus() {
    let link = Path::new(CXX).with_file_name("taintprof-c++");
    assert!(
        link.exists(),
        "{} should be created by build.rs",
        link.display()
    );
    let out = Command::new(&link).arg("--tp-help").output().unwrap();
    assert!(text(&out.stdout).starts_with("taintprof-c++"));
}
