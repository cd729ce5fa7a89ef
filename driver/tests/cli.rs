//! The `taintprof` command and the wrappers' own behaviour, run as processes. Nothing
//! here needs the pass plugin or the runtime: reports come from fixtures, programs from
//! `/bin/sh`.

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

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taintprof-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
fn report_json_is_normalized_and_stable() {
    let file = fixture("matmul.4242.taintprof.json");
    let out = taintprof(&["report", "--json", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Top-level keys, in the order printed.
    let raw = text(&out.stdout);
    let keys: Vec<&str> = raw
        .lines()
        .filter_map(|l| l.strip_prefix("  \""))
        .filter_map(|l| l.split_once("\":").map(|(k, _)| k))
        .collect();
    assert_eq!(
        keys,
        vec![
            "report",
            "program",
            "exit",
            "complete",
            "parameters",
            "rejected_parameters",
            "control_flow",
            "threads",
            "modules",
            "table",
            "functions",
            "functions_without_loops",
            "constant_functions",
            "never_executed",
            "warnings"
        ]
    );
    assert_eq!(v["table"]["total_loops"], 8);
    assert_eq!(v["table"]["parameters"][2]["name"], "k");
    assert_eq!(v["table"]["parameters"][2]["functions"], 2);
    assert_eq!(v["exit"]["code"], 0);
    let create = &v["functions"][0];
    assert_eq!(create["name"], "create");
    assert_eq!(create["loops"][0]["contexts"][1]["path"], "main:48");
    // Contexts that agree are not repeated.
    assert_eq!(
        v["functions"][2]["loops"][0]["contexts"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    assert_eq!(v["constant_functions"][0]["name"], "init_table");
    assert_eq!(v["never_executed"][0]["function"], "cleanup");
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
    assert!(err.contains("functions      5  3  3  2    3"), "{err}");
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

#[test]
fn wrapper_reports_a_missing_plugin_with_the_fix() {
    if !Path::new("/usr/lib/llvm-19/bin/clang").exists() {
        eprintln!("skipping: clang 19 is not installed");
        return;
    }
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
    if !Path::new("/usr/lib/llvm-19/bin/clang").exists() {
        eprintln!("skipping: clang 19 is not installed");
        return;
    }
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
