//! The driver under awkward conditions: closed pipes, static links, damaged reports,
//! branches without a source line, version and help queries, programs that leave no
//! report. Every test runs the real binaries; those that compile C need clang-19 and the
//! built plugin and runtime (`cargo build --release --workspace`), and fail (never skip)
//! without them.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use taintprof_driver::locate::Locator;
use taintprof_driver::report::{self, Report};
mod common;
use common::{text, WorkDir};

const TAINTPROF: &str = env!("CARGO_BIN_EXE_taintprof");
const CC: &str = env!("CARGO_BIN_EXE_taintprof-cc");
const CXX: &str = env!("CARGO_BIN_EXE_taintprof-cxx");

const OPT_LEVELS: [&str; 2] = ["-O0", "-O2"];

/// Panics, naming what to install or build, unless clang-19, the plugin, the runtime and
/// the headers are all there.
fn require_toolchain() {
    let exe_dir = Path::new(CC).parent().map(Path::to_path_buf);
    let locator = Locator::new(
        |k| std::env::var_os(k),
        exe_dir,
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../rt/include")),
    );
    if let Err(e) = locator.clang(taintprof_driver::locate::Lang::C) {
        panic!("clang-19 not found: apt-get install clang-19 ({e})");
    }
    if let Err(e) = locator.plugin() {
        panic!("run cargo build --release --workspace first: {e}");
    }
    if let Err(e) = locator.runtime() {
        panic!("run cargo build --release --workspace first: {e}");
    }
    if let Err(e) = locator.include_dir() {
        panic!("taintprof.h not found: {e}");
    }
}

fn workdir(name: &str) -> WorkDir {
    common::fresh_dir("robust", name)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

#[track_caller]
fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    out
}

/// Writes `source` as `<dir>/<name>.c` and compiles it with `taintprof-cc` at `opt`
/// plus `extra` into `<dir>/<name><opt>`.
fn build(dir: &Path, name: &str, source: &str, opt: &str, extra: &[&str]) -> PathBuf {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, source).unwrap();
    let exe = dir.join(format!("{name}{opt}"));
    let out = Command::new(CC)
        .arg(opt)
        .args(extra)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .current_dir(dir)
        .env_remove("TAINTPROF_SIDECAR")
        .env_remove("TAINTPROF_SIDECAR_DIR")
        .output()
        .unwrap();
    ok(out);
    exe
}

/// The one `.taintprof.json` report in `dir`.
fn only_report(dir: &Path) -> Report {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".taintprof.json"))
        .collect();
    assert_eq!(files.len(), 1, "one report expected in {dir:?}: {files:?}");
    report::load(&files[0]).unwrap()
}

/// The parameter sets of the loops of `function`, sorted by line.
fn loop_params(r: &Report, function: &str) -> Vec<Vec<String>> {
    let f = r
        .functions
        .iter()
        .find(|f| f.name == function)
        .unwrap_or_else(|| panic!("no function {function} in the report"));
    let mut loops: Vec<_> = f.loops.iter().collect();
    loops.sort_by_key(|l| (l.line, l.column));
    loops
        .iter()
        .map(|l| {
            let mut p = l.params.clone();
            p.sort();
            p
        })
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Two parameters, two loops (one on each), exit status from `argv[3]` (default 0).
const TWO_LOOPS: &str = r#"
#include <stdlib.h>
#include <taintprof.h>

static double sum(int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += i * 0.5;
  return s;
}

static double scale(int m) {
  double s = 1;
  for (int j = 0; j < m; j++)
    s *= 1.0001;
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int m = argc > 2 ? atoi(argv[2]) : 20;
  int status = argc > 3 ? atoi(argv[3]) : 0;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&m, sizeof m, "m");
  volatile double r = sum(n) + scale(m);
  (void)r;
  return status;
}
"#;

// ---------------------------------------------------------------------------------------
// 1. Closed pipes: `taintprof run -- ./app 2>&1 | head -1`, `taintprof report | head`.

/// `taintprof run` whose stderr is a pipe nobody reads (the read end is closed before
/// anything is written) passes on the program's exit status instead of panicking (101).
#[test]
fn run_with_closed_stderr_returns_the_program_status() {
    require_toolchain();
    let dir = workdir("closed-stderr");
    let exe = build(&dir, "exits3", TWO_LOOPS, "-O0", &[]);
    // Writes a report: the summary goes to the closed stderr.
    let mut child = Command::new(TAINTPROF)
        .arg("run")
        .arg("--out")
        .arg(dir.join("reports"))
        .arg("--")
        .arg(&exe)
        .args(["5", "7", "3"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(3), "{status:?}");
    // A program that writes no report: the hint goes to the closed stderr.
    let mut child = Command::new(TAINTPROF)
        .args(["run", "--out"])
        .arg(dir.join("reports"))
        .args(["--", "/bin/sh", "-c", "exit 3"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(3));

    // The shell way: the summary is cut after one byte.
    let script = format!(
        "'{TAINTPROF}' run --out '{}' -- '{}' 5 7 3 2>&1 | head -c1 >/dev/null; \
         echo \"status=${{PIPESTATUS[0]}}\"",
        dir.join("reports").display(),
        exe.display()
    );
    let out = ok(Command::new("bash").args(["-c", &script]).output().unwrap());
    assert_eq!(text(&out.stdout), "status=3\n", "{}", text(&out.stderr));
}

/// `taintprof report` into a closed pipe (`| head`) ends quietly with status 0, and
/// so does an error message into a closed stderr (status 1, not 101).
#[test]
fn report_into_a_closed_pipe_does_not_panic() {
    let file = fixture("solver.4711.taintprof.json");
    for json in [false, true] {
        let mut cmd = Command::new(TAINTPROF);
        cmd.arg("report").arg(&file);
        if json {
            cmd.arg("--json");
        }
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Two files, one unreadable: its error goes to a closed stderr.
    let mut child = Command::new(TAINTPROF)
        .arg("report")
        .arg(&file)
        .arg("/no/such/report.1.taintprof.json")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

// ---------------------------------------------------------------------------------------
// 2. Static links.

/// `taintprof-cc -static` links (no `-lgcc_s`), and the static program runs and writes
/// the same parameter sets as a dynamic one, at -O0 and -O2; `-static-pie` too.
#[test]
fn static_programs_build_run_and_report() {
    require_toolchain();
    let dir = workdir("static");
    for flag in ["-static", "-static-pie"] {
        for opt in OPT_LEVELS {
            let name = format!("prog{}", flag.replace('-', "_"));
            let exe = build(&dir, &name, TWO_LOOPS, opt, &[flag]);
            let bytes = std::fs::read(&exe).unwrap();
            assert!(
                !bytes.windows(7).any(|w| w == b"ld-linux"),
                "{flag} {opt}: the program names a dynamic loader"
            );
            let reports = dir.join(format!("reports{name}{opt}"));
            let out = Command::new(TAINTPROF)
                .arg("run")
                .arg("--out")
                .arg(&reports)
                .arg("--")
                .arg(&exe)
                .args(["30", "40", "0"])
                .output()
                .unwrap();
            ok(out);
            let r = only_report(&reports);
            assert_eq!(r.parameters, strings(&["n", "m"]), "{flag} {opt}");
            assert_eq!(
                loop_params(&r, "sum"),
                vec![strings(&["n"])],
                "{flag} {opt}"
            );
            assert_eq!(
                loop_params(&r, "scale"),
                vec![strings(&["m"])],
                "{flag} {opt}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// 3. Reports missing a required key.

/// A report without `functions` (or `parameters`, or `summary` in version 2) is a
/// one-line error naming the key and the file, with a non-zero status; `taintprof run`
/// says the same for such a report.
#[test]
fn report_missing_a_required_key_is_an_error() {
    let dir = workdir("missing-key");
    let full: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("solver.4711.taintprof.json")).unwrap(),
    )
    .unwrap();
    for key in ["functions", "parameters", "summary", "exit"] {
        let mut v = full.clone();
        v.as_object_mut().unwrap().remove(key).unwrap();
        let file = dir.join(format!("no-{key}.1.taintprof.json"));
        std::fs::write(&file, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        for json in [false, true] {
            let mut cmd = Command::new(TAINTPROF);
            cmd.arg("report").arg(&file);
            if json {
                cmd.arg("--json");
            }
            let out = cmd.output().unwrap();
            let err = text(&out.stderr);
            assert!(
                !out.status.success(),
                "{key}: accepted:\n{}",
                text(&out.stdout)
            );
            assert!(out.stdout.is_empty(), "{key}: {}", text(&out.stdout));
            assert_eq!(err.lines().count(), 1, "{key}: {err}");
            assert!(err.starts_with("taintprof: error: "), "{err}");
            assert!(err.contains(&format!("\"{key}\"")), "{key}: {err}");
            assert!(err.contains(&file.display().to_string()), "{key}: {err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    }
    // Version 1 reports never had `summary`: still read.
    ok(Command::new(TAINTPROF)
        .arg("report")
        .arg(fixture("matmul.4242.taintprof.json"))
        .output()
        .unwrap());
}

// ---------------------------------------------------------------------------------------
// 4. Branches without a source line.

/// A branch whose line is 0 (no debug location) is not printed as `line 0:`: the text
/// names the function and its line instead; the JSON keeps the branch as it is.
#[test]
fn branches_without_a_line_name_their_function() {
    let dir = workdir("line0");
    let mut v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("solver.4711.taintprof.json")).unwrap(),
    )
    .unwrap();
    // Every branch (and the successors of the first) loses its position.
    let mut first = true;
    let mut functions_with_branches = Vec::new();
    for f in v["functions"].as_array_mut().unwrap() {
        let name = f["name"].as_str().unwrap().to_string();
        let line = f["line"].as_u64().unwrap();
        let Some(branches) = f["branches"].as_array_mut() else {
            continue;
        };
        if !branches.is_empty() {
            functions_with_branches.push((name, line));
        }
        for b in branches {
            b["line"] = 0.into();
            b["column"] = 0.into();
            if first {
                for s in b["successors"].as_array_mut().unwrap() {
                    s["line"] = 0.into();
                }
                first = false;
            }
        }
    }
    assert!(!functions_with_branches.is_empty());
    let file = dir.join("solver.4711.taintprof.json");
    std::fs::write(&file, serde_json::to_string_pretty(&v).unwrap()).unwrap();

    for verbose in [false, true] {
        let mut cmd = Command::new(TAINTPROF);
        cmd.arg("report").arg(&file);
        if verbose {
            cmd.arg("-v");
        }
        let out = ok(cmd.output().unwrap());
        let t = text(&out.stdout);
        assert!(!t.contains("line 0"), "{t}");
        assert!(!t.contains("solver.c:0"), "{t}");
        assert!(!t.contains(" 0 (default)"), "{t}");
        // `solve`'s branch depends on `algo`: shown even without -v.
        let (_, solve_line) = functions_with_branches
            .iter()
            .find(|(n, _)| n == "solve")
            .expect("solve has branches");
        let want =
            format!("in solve (no line; the function starts at line {solve_line}): if on {{algo}}");
        assert!(t.contains(&want), "expected `{want}` in:\n{t}");
    }
    let out = ok(Command::new(TAINTPROF)
        .arg("run")
        .arg("--")
        .args(["/bin/sh", "-c"])
        .arg(format!(
            "cp '{}' \"$TAINTPROF_OUT/x.$$.taintprof.json\"",
            file.display()
        ))
        .current_dir(&*dir)
        .output()
        .unwrap());
    assert!(
        !text(&out.stderr).contains("line 0"),
        "{}",
        text(&out.stderr)
    );

    let out = ok(Command::new(TAINTPROF)
        .args(["report", "--json"])
        .arg(&file)
        .output()
        .unwrap());
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let solve = j["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "solve")
        .unwrap();
    assert!(!solve["branches"].as_array().unwrap().is_empty());
    for b in solve["branches"].as_array().unwrap() {
        assert_eq!(b["line"], 0, "{b}");
    }
}

// ---------------------------------------------------------------------------------------
// 5. `--version` and `--help` of the wrappers.

/// `taintprof-cc --version` prints clang's version and taintprof's (with the plugin and
/// runtime it uses); `--help` prints clang's help and points to `--tp-help`. Same for the
/// C++ wrapper under both its names.
#[test]
fn wrapper_version_and_help_mention_taintprof() {
    require_toolchain();
    let cxx_link = Path::new(CXX).with_file_name("taintprof-c++");
    let version = env!("CARGO_PKG_VERSION");
    for (wrapper, name) in [
        (PathBuf::from(CC), "taintprof-cc"),
        (PathBuf::from(CXX), "taintprof-c++"),
        (cxx_link, "taintprof-c++"),
    ] {
        let out = ok(Command::new(&wrapper).arg("--version").output().unwrap());
        let t = text(&out.stdout);
        // clang's own lines come first: build tools (meson) take the first version
        // number of `cc --version` as the compiler's.
        let first = t.lines().next().unwrap_or("");
        assert!(first.contains("clang version 19"), "{t}");
        assert!(t.contains(&format!("{name} (taintprof {version})")), "{t}");
        assert!(t.contains("libtaintprof_pass.so"), "{t}");
        assert!(t.contains("libtaintprof_rt.a"), "{t}");

        let out = ok(Command::new(&wrapper).arg("--help").output().unwrap());
        let t = text(&out.stdout);
        assert!(t.contains("OVERVIEW: clang LLVM compiler"), "{t}");
        assert!(
            t.contains(&format!("{name} --tp-help")),
            "{}",
            &t[t.len().saturating_sub(600)..]
        );

        // Queries that tools parse stay clang's alone.
        let out = ok(Command::new(&wrapper).arg("-dumpversion").output().unwrap());
        assert!(text(&out.stdout).starts_with("19"), "{}", text(&out.stdout));
    }
}

// ---------------------------------------------------------------------------------------
// 6. Programs that leave no report: the hint tells why.

const SELF_KILL: &str = r#"
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <taintprof.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  tp_register_variable(&n, sizeof n, "n");
  volatile double s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  if (argc > 2 && argv[2][0] == 'k')
    kill(getpid(), SIGKILL);
  /* Ends the process without exit handlers and without the runtime's _exit wrapper,
   * as an _exit called from uninstrumented code does. */
  syscall(SYS_exit_group, 0);
  return 1;
}
"#;

/// An instrumented program killed by SIGKILL, or ending with `exit_group` outside the
/// runtime's `_exit` wrapper (as uninstrumented code calling `_exit` does), is said to be
/// instrumented and to have ended without running its exit handlers; only a program
/// built without taintprof is said not to be built with taintprof-cc.
#[test]
fn no_report_hint_tells_instrumented_from_plain_programs() {
    require_toolchain();
    let dir = workdir("no-report");
    for opt in OPT_LEVELS {
        let exe = build(&dir, "selfkill", SELF_KILL, opt, &[]);
        for (how, status) in [("k", 128 + 9), ("x", 0)] {
            let out = Command::new(TAINTPROF)
                .args(["run", "--out"])
                .arg(dir.join("reports"))
                .arg("--")
                .arg(&exe)
                .args(["10", how])
                .output()
                .unwrap();
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(status), "{err}");
            assert!(err.contains("wrote no report"), "{err}");
            assert!(
                !err.contains("not built with taintprof"),
                "{opt} {how}: {err}"
            );
            assert!(err.contains("is instrumented"), "{opt} {how}: {err}");
            assert!(err.contains("exit handlers"), "{opt} {how}: {err}");
            if how == "k" {
                assert!(err.contains("SIGKILL"), "{err}");
            } else {
                assert!(err.contains("_exit"), "{err}");
            }
        }
    }

    // The same program built with plain clang (the header's no-op API).
    let src = dir.join("selfkill.c");
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rt/include");
    let plain = dir.join("plain");
    let clang = Locator::from_process()
        .clang(taintprof_driver::locate::Lang::C)
        .unwrap_or_else(|e| panic!("clang-19 not found: apt-get install clang-19 ({e})"));
    ok(Command::new(clang)
        .args(["-O2", "-DTAINTPROF_DISABLE"])
        .arg(format!("-I{}", include.display()))
        .arg(&src)
        .arg("-o")
        .arg(&plain)
        .output()
        .unwrap());
    let out = Command::new(TAINTPROF)
        .args(["run", "--out"])
        .arg(dir.join("reports"))
        .arg("--")
        .arg(&plain)
        .args(["10", "k"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(128 + 9), "{err}");
    assert!(err.contains("not built with taintprof-cc"), "{err}");
    assert!(!err.contains("is instrumented"), "{err}");
}

// ---------------------------------------------------------------------------------------
// 5. A runtime that writes only the raw run record.

/// `taintprof run` of a program that leaves a raw run record and no JSON report writes
/// the report of the record next to it (what the runtime would have written, value for
/// value) and summarizes it; a record that cannot be analysed gets a one-line error
/// naming it, and the other reports are still shown.
#[test]
fn run_analyses_records_left_without_a_report() {
    require_toolchain();
    let dir = workdir("records-only");
    let exe = build(&dir, "prog", TWO_LOOPS, "-O2", &[]);
    // A real run: the runtime's report and record.
    let first = dir.join("first");
    std::fs::create_dir_all(&first).unwrap();
    ok(Command::new(&exe)
        .args(["30", "40", "0"])
        .env("TAINTPROF_OUT", &first)
        .env("TAINTPROF_QUIET", "1")
        .output()
        .unwrap());
    let only = |suffix: &str| -> PathBuf {
        let v: Vec<PathBuf> = std::fs::read_dir(&first)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(suffix))
            .collect();
        assert_eq!(v.len(), 1, "{suffix} in {first:?}: {v:?}");
        v.into_iter().next().unwrap()
    };
    let rec = only(".taintprof.rec");
    // What the runtime wrote as its report (the offline analysis of its record, which
    // the end-to-end tests check equal, when it writes the record only).
    let runtime: serde_json::Value = match std::fs::read_to_string(rec.with_extension("json")) {
        Ok(t) => serde_json::from_str(&t).unwrap(),
        Err(_) => taintprof_model::taint_report_of_files(&[&rec]).unwrap(),
    };

    // A "program" that leaves only that record (under its own pid), and a record cut
    // short (of its child, pid 7).
    let bytes = std::fs::read(&rec).unwrap();
    std::fs::write(dir.join("cut.rec"), &bytes[..bytes.len() / 2]).unwrap();
    let reports = dir.join("reports");
    let out = Command::new(TAINTPROF)
        .args(["run", "--out"])
        .arg(&reports)
        .args(["--", "/bin/sh", "-c"])
        .arg(format!(
            "cp '{}' \"$TAINTPROF_OUT/prog.$$.taintprof.rec\"; \
             cp '{}' \"$TAINTPROF_OUT/prog.7.taintprof.rec\"; exit 4",
            rec.display(),
            dir.join("cut.rec").display()
        ))
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(
        err.contains("2 reports were written during the run"),
        "{err}"
    );
    let made: Vec<PathBuf> = std::fs::read_dir(&reports)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".taintprof.json"))
        .collect();
    assert_eq!(made.len(), 1, "{made:?}");
    let name = made[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("prog.") && name != "prog.7.taintprof.json",
        "{name}"
    );
    // Only the reports and records: no temporary file is left.
    assert_eq!(std::fs::read_dir(&reports).unwrap().count(), 3);
    // The runtime's report, value for value, as the runtime lays it out.
    let text_made = std::fs::read_to_string(&made[0]).unwrap();
    assert!(text_made.starts_with("{\n  \"") && text_made.ends_with("}\n"));
    let value: serde_json::Value = serde_json::from_str(&text_made).unwrap();
    assert_eq!(value, runtime);
    let r = report::load(&made[0]).unwrap();
    assert_eq!(loop_params(&r, "sum"), vec![strings(&["n"])]);
    // Summarized: the own process first, then the error about the cut record.
    let summary = err.find(" (pid ").unwrap_or_else(|| panic!("{err}"));
    let error_line = err
        .lines()
        .find(|l| l.contains("prog.7.taintprof.rec"))
        .unwrap_or_else(|| panic!("no error about the cut record:\n{err}"));
    assert!(error_line.starts_with("taintprof: error: "), "{error_line}");
    assert!(error_line.contains("run the program again"), "{error_line}");
    assert!(err.find(error_line).unwrap() > summary, "{err}");
    assert!(!reports.join("prog.7.taintprof.json").exists());
}
