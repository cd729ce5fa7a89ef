//! The wrappers for real: compile, link and run C and C++ programs with the pass plugin
//! and the runtime, through plain command lines, response files, `make` and CMake, then
//! read the reports.
//!
//! These tests need `libtaintprof_pass.so`, `libtaintprof_rt.a` and
//! `libtaintprof_dip.so` (built by `make build`), `rt/include/taintprof.h`,
//! clang-19, cmake and DFSan's runtime (libclang-rt-19-dev), all of which
//! `scripts/setup.sh` installs or builds. When one of them is absent, the tests that need
//! it fail and name it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use taintprof_driver::locate::Locator;
use taintprof_driver::report::{self, Report};
mod common;
use common::{text, WorkDir};

const CC: &str = env!("CARGO_BIN_EXE_taintprof-cc");
const CXX: &str = env!("CARGO_BIN_EXE_taintprof-cxx");
const TAINTPROF: &str = env!("CARGO_BIN_EXE_taintprof");

/// The artifacts the wrappers will use, or why the tests cannot run.
fn artifacts() -> Result<(), String> {
    let exe_dir = Path::new(CC).parent().map(Path::to_path_buf);
    let locator = Locator::new(
        |k| std::env::var_os(k),
        exe_dir,
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../rt/include")),
    );
    locator.plugin().map_err(|e| e.to_string())?;
    locator.runtime().map_err(|e| e.to_string())?;
    locator.include_dir().map_err(|e| e.to_string())?;
    Ok(())
}

/// A fresh working directory; panics, naming what is missing, if the artifacts are absent.
fn setup(name: &str) -> WorkDir {
    if let Err(why) = artifacts() {
        panic!("{name}: {why}\n(run scripts/setup.sh, or `cargo build --release --workspace`)");
    }
    common::fresh_dir("it", name)
}

fn run_in(dir: &Path, program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env_remove("TAINTPROF_SIDECAR")
        .env_remove("TAINTPROF_SIDECAR_DIR")
        .output()
        .unwrap()
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

fn write(dir: &Path, name: &str, contents: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, contents).unwrap();
    p
}

/// Runs `program args` under `taintprof run --out <dir>/reports` and returns its output
/// and the program's own report.
fn taintprof_run(dir: &Path, program: &str, args: &[&str]) -> (Output, Report) {
    let reports = dir.join("reports");
    let _ = std::fs::remove_dir_all(&reports);
    let mut all = vec!["run", "--out", reports.to_str().unwrap(), "--", program];
    all.extend_from_slice(args);
    let out = ok(run_in(dir, TAINTPROF, &all));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&reports)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".taintprof.json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 1, "one report expected: {files:?}");
    let r = report::load(&files[0]).unwrap();
    (out, r)
}

/// The parameter sets of the loops of function `name`, by source line.
fn loops_of(r: &Report, name: &str) -> Vec<(u32, Vec<String>)> {
    let f = r
        .functions
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| {
            panic!(
                "no function {name} in the report; functions: {:?}",
                r.functions.iter().map(|f| &f.name).collect::<Vec<_>>()
            )
        });
    f.loops
        .iter()
        .map(|l| {
            let mut p = l.params.clone();
            p.sort();
            (l.line, p)
        })
        .collect()
}

fn set(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

const KERNEL_C: &str = r#"
double kernel(const double *a, int n, int reps) {
  double s = 0.0;
  for (int r = 0; r < reps; r++)
    for (int i = 0; i < n; i++)
      s += a[i] * (r + 1);
  return s;
}
"#;

const MAIN_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>
double kernel(const double *a, int n, int reps);
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int reps = argc > 2 ? atoi(argv[2]) : 3;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&reps, sizeof reps, "reps");
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++)
    a[i] = i * 0.5;
  printf("result %.1f\n", kernel(a, n, reps));
  free(a);
  return 0;
}
"#;

#[test]
fn separate_compile_and_link_then_run() {
    let dir = setup("separate");
    write(&dir, "kernel.c", KERNEL_C);
    write(&dir, "main.c", MAIN_C);
    std::fs::create_dir_all(dir.join("obj")).unwrap();
    ok(run_in(
        &dir,
        CC,
        &["-O2", "-c", "kernel.c", "-o", "obj/kernel.o"],
    ));
    ok(run_in(&dir, CC, &["-O2", "-c", "main.c"]));
    assert!(dir.join("main.o").is_file());
    ok(run_in(&dir, CC, &["obj/kernel.o", "main.o", "-o", "app"]));

    let (out, r) = taintprof_run(&dir, "./app", &["40", "30"]);
    assert_eq!(text(&out.stdout), "result 181350.0\n");
    let err = text(&out.stderr);
    assert!(err.contains("parameters: n, reps"), "{err}");
    assert!(err.contains("full report: taintprof report"), "{err}");

    assert_eq!(r.parameters, vec!["n", "reps"]);
    assert_eq!(r.exit.reason, "exit");
    let k = loops_of(&r, "kernel");
    assert_eq!(k.len(), 2, "{k:?}");
    assert_eq!(k[0].1, set(&["reps"]), "{k:?}");
    assert_eq!(k[1].1, set(&["n"]), "{k:?}");
    let m = loops_of(&r, "main");
    assert_eq!(m, vec![(m[0].0, set(&["n"]))]);
}

#[test]
fn sidecars_go_where_the_objects_go() {
    let dir = setup("sidecars");
    write(&dir, "kernel.c", KERNEL_C);
    write(&dir, "main.c", MAIN_C);
    std::fs::create_dir_all(dir.join("obj")).unwrap();
    ok(run_in(
        &dir,
        CC,
        &["-O2", "-c", "kernel.c", "-o", "obj/kernel.o"],
    ));
    ok(run_in(&dir, CC, &["-O2", "-c", "main.c"]));
    assert!(dir.join("obj/kernel.o.taintprof-static.json").is_file());
    assert!(dir.join("main.o.taintprof-static.json").is_file());
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    ok(run_in(&dir, CC, &["kernel.c", "main.c", "-o", "bin/app"]));
    let sidecars: Vec<String> = std::fs::read_dir(dir.join("bin"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".taintprof-static.json"))
        .collect();
    assert!(!sidecars.is_empty(), "no sidecar next to bin/app");
}

#[test]
fn response_files_with_quotes_and_spaces() {
    let dir = setup("rsp");
    write(&dir, "src dir/kernel.c", KERNEL_C);
    write(&dir, "src dir/main.c", MAIN_C);
    std::fs::create_dir_all(dir.join("out dir")).unwrap();
    write(
        &dir,
        "inner.rsp",
        "\"src dir/main.c\" -o 'out dir/app' -DUNUSED=\"a b\"\n",
    );
    write(
        &dir,
        "args.rsp",
        "-O2 src\\ dir/kernel.c @inner.rsp --tp-mode=taint\n",
    );
    let out = ok(run_in(&dir, CC, &["@args.rsp", "--tp-verbose"]));
    // --tp-verbose shows the expanded command, without the --tp- options.
    let err = text(&out.stderr);
    assert!(err.contains("'src dir/main.c'"), "{err}");
    assert!(err.contains("-fpass-plugin="), "{err}");
    assert!(!err.contains("--tp-mode"), "{err}");
    let (out, r) = taintprof_run(&dir, "out dir/app", &["8", "2"]);
    assert_eq!(text(&out.stdout), "result 42.0\n");
    assert_eq!(loops_of(&r, "kernel").len(), 2);
}

#[test]
fn cxx_program_through_the_plus_plus_name() {
    let dir = setup("cxx");
    write(
        &dir,
        "app.cpp",
        r#"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <taintprof.h>
struct Grid {
  std::vector<double> v;
  explicit Grid(int n) : v(n, 1.0) {}
  double sum(int times) const {
    double s = 0;
    for (int t = 0; t < times; t++)
      for (double x : v)
        s += x;
    return s;
  }
};
int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 8;
  int times = argc > 2 ? std::atoi(argv[2]) : 2;
  tp_register_variable(&n, sizeof n, "n");
  tp_register_variable(&times, sizeof times, "times");
  Grid g(n);
  std::printf("sum %.1f\n", g.sum(times));
  return 0;
}
"#,
    );
    let cxx = Path::new(CXX).with_file_name("taintprof-c++");
    ok(run_in(
        &dir,
        &cxx,
        &["-O2", "-std=c++17", "app.cpp", "-o", "app"],
    ));
    let (out, r) = taintprof_run(&dir, "./app", &["16", "3"]);
    assert_eq!(text(&out.stdout), "sum 48.0\n");
    // The schema promises `Grid::sum(int) const`; accept the plain name too.
    let f = r
        .functions
        .iter()
        .find(|f| f.name.contains("sum") && f.file.ends_with("app.cpp"))
        .expect("Grid::sum in the report");
    let mut loops: Vec<Vec<String>> = f
        .loops
        .iter()
        .map(|l| {
            let mut p = l.params.clone();
            p.sort();
            p
        })
        .collect();
    loops.sort();
    assert!(loops.contains(&set(&["times"])), "{loops:?}");
    assert!(
        loops.iter().any(|p| p.contains(&"n".to_string())),
        "{loops:?}"
    );
}

#[test]
fn shared_library_gets_no_runtime_and_resolves_it_from_the_program() {
    let dir = setup("shared");
    write(&dir, "kernel.c", KERNEL_C);
    write(&dir, "main.c", MAIN_C);
    ok(run_in(
        &dir,
        CC,
        &["-O2", "-shared", "-fPIC", "kernel.c", "-o", "libkernel.so"],
    ));
    // The library does not define the runtime: it resolves it from the executable.
    let nm = ok(run_in(
        &dir,
        "nm",
        &["-D", "--defined-only", "libkernel.so"],
    ));
    assert!(
        !text(&nm.stdout).contains("__tp_register_module"),
        "{}",
        text(&nm.stdout)
    );
    ok(run_in(
        &dir,
        CC,
        &[
            "-O2",
            "main.c",
            "-L.",
            "-lkernel",
            "-Wl,-rpath,$ORIGIN",
            "-o",
            "app",
        ],
    ));
    let (out, r) = taintprof_run(&dir, "./app", &["12", "4"]);
    assert_eq!(text(&out.stdout), "result 330.0\n");
    let k = loops_of(&r, "kernel");
    assert_eq!(k.len(), 2, "{k:?}");
    assert_eq!(k[0].1, set(&["reps"]));
    assert_eq!(k[1].1, set(&["n"]));
}

#[test]
fn make_with_cc_taintprof_cc() {
    let dir = setup("make");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/make-project");
    for f in ["Makefile", "main.c", "grid.c", "grid.h"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let out = ok(run_in(&dir, "make", &[&format!("CC={CC}")]));
    let log = text(&out.stdout);
    assert!(log.contains("-c -o grid.o grid.c"), "{log}");
    let (out, r) = taintprof_run(&dir, "./app", &["20", "10", "3"]);
    assert!(text(&out.stdout).starts_with("norm "));
    assert_eq!(r.parameters, vec!["rows", "cols", "sweeps"]);
    let g = loops_of(&r, "grid_smooth");
    let sets: Vec<&Vec<String>> = g.iter().map(|(_, p)| p).collect();
    assert!(sets.contains(&&set(&["sweeps"])), "{g:?}");
    assert!(sets.contains(&&set(&["cols"])), "{g:?}");
    assert!(
        sets.iter().any(|p| p.contains(&"rows".to_string())),
        "{g:?}"
    );
}

/// Panics, naming the package, unless `cmake` runs (`scripts/setup.sh` installs it).
fn require_cmake(name: &str) {
    let runs = Command::new("cmake")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        runs,
        "{name}: cmake not found on PATH: run scripts/setup.sh or apt-get install cmake"
    );
}

fn cmake_build(name: &str, configure: &[&str]) {
    let dir = setup(name);
    require_cmake(name);
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cmake/example");
    let build = dir.join("build");
    let bin_dir = Path::new(CC).parent().unwrap();
    let mut args = vec![
        "-S".to_string(),
        example.display().to_string(),
        "-B".to_string(),
        build.display().to_string(),
    ];
    args.extend(
        configure
            .iter()
            .map(|a| a.replace("{bin}", &bin_dir.display().to_string())),
    );
    let out = Command::new("cmake")
        .args(&args)
        .env("TAINTPROF_ROOT", bin_dir)
        .output()
        .unwrap();
    let out = ok(out);
    assert!(
        text(&out.stdout).contains("The C compiler identification is Clang 19"),
        "{}",
        text(&out.stdout)
    );
    ok(Command::new("cmake")
        .args(["--build", build.to_str().unwrap()])
        .output()
        .unwrap());
    let (out, r) = taintprof_run(&dir, build.join("heat").to_str().unwrap(), &["50", "7"]);
    assert!(text(&out.stdout).starts_with("sum "));
    assert_eq!(r.parameters, vec!["n", "steps"]);
    let stencil = loops_of(&r, "stencil_step");
    assert_eq!(stencil.len(), 1);
    assert_eq!(stencil[0].1, set(&["n"]));
}

#[test]
fn cmake_with_the_toolchain_file() {
    let toolchain =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../cmake/taintprof-toolchain.cmake");
    cmake_build(
        "cmake-toolchain",
        &[&format!("-DCMAKE_TOOLCHAIN_FILE={}", toolchain.display())],
    );
}

#[test]
fn cmake_toolchain_mode_variable() {
    let dir = setup("cmake-mode");
    require_cmake("cmake-mode");
    let toolchain =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../cmake/taintprof-toolchain.cmake");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cmake/example");
    let configure = |build: &str, mode: &str| {
        Command::new("cmake")
            .arg("-S")
            .arg(&example)
            .arg("-B")
            .arg(dir.join(build))
            .arg(format!("-DCMAKE_TOOLCHAIN_FILE={}", toolchain.display()))
            .arg(format!("-DTAINTPROF_MODE={mode}"))
            .env("TAINTPROF_ROOT", Path::new(CC).parent().unwrap())
            .output()
            .unwrap()
    };
    ok(configure("b1", "taint"));
    let cache = std::fs::read_to_string(dir.join("b1/CMakeCache.txt")).unwrap();
    assert!(
        cache.contains("CMAKE_C_FLAGS:STRING=--tp-mode=taint\n"),
        "once"
    );
    assert!(cache.contains("CMAKE_CXX_FLAGS:STRING=--tp-mode=taint\n"));
    let out = configure("b2", "fast");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("TAINTPROF_MODE must be taint, denormal or time"));
    ok(configure("b4", "time"));
    let cache = std::fs::read_to_string(dir.join("b4/CMakeCache.txt")).unwrap();
    assert!(cache.contains("CMAKE_C_FLAGS:STRING=--tp-mode=time\n"));
    ok(configure("b3", "denormal"));
    ok(Command::new("cmake")
        .args(["--build", dir.join("b3").to_str().unwrap()])
        .output()
        .unwrap());
}

#[test]
fn cmake_with_compiler_variables() {
    cmake_build(
        "cmake-vars",
        &[
            "-DCMAKE_C_COMPILER={bin}/taintprof-cc",
            "-DCMAKE_CXX_COMPILER={bin}/taintprof-c++",
        ],
    );
}

#[test]
fn exit_status_and_diagnostics_are_clangs() {
    let dir = setup("status");
    write(&dir, "bad.c", "int main(void) { return x; }\n");
    let out = run_in(&dir, CC, &["-c", "bad.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("use of undeclared identifier 'x'"));
}

#[test]
fn preprocessing_finds_the_header_and_g0_is_overridden() {
    let dir = setup("pp");
    write(&dir, "main.c", MAIN_C);
    let out = ok(run_in(&dir, CC, &["-E", "main.c"]));
    assert!(text(&out.stdout).contains("tp_register_variable"));
    let out = ok(run_in(
        &dir,
        CC,
        &["-O2", "-g0", "-c", "main.c", "-o", "m.o"],
    ));
    assert!(
        text(&out.stderr).contains("-g0 overridden with -gline-tables-only"),
        "{}",
        text(&out.stderr)
    );
    let sections = ok(run_in(&dir, "readelf", &["-S", "m.o"]));
    assert!(text(&sections.stdout).contains(".debug_line"));
}

#[test]
fn bench_quick_measures_and_checks_all_configurations() {
    let dir = setup("bench");
    let json = dir.join("bench.json");
    let mut args = vec![
        "bench".to_string(),
        "--quick".into(),
        "--runs".into(),
        "2".into(),
        "--json".into(),
        json.display().to_string(),
    ];
    // The taint configurations (the denormal ones have their own test below).
    args.extend(
        [
            "--config",
            "native",
            "--config",
            "taint",
            "--config",
            "taint-nocf",
        ]
        .map(String::from),
    );
    let dfsan = Path::new("/usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.dfsan-x86_64.a");
    assert!(
        dfsan.exists(),
        "{} not found: run scripts/setup.sh or apt-get install libclang-rt-19-dev",
        dfsan.display()
    );
    args.extend(["--config".into(), "dfsan".into()]);
    let out = ok(Command::new(TAINTPROF).args(&args).output().unwrap());
    let stdout = text(&out.stdout);
    assert!(stdout.contains("geomean"), "{stdout}");
    assert!(stdout.contains("(all configurations agree)"), "{stdout}");
    assert!(!stdout.contains("MISMATCH"), "{stdout}");
    assert!(stdout.contains("What the taint runs tracked"), "{stdout}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let configs = v["configs"].as_array().unwrap().len();
    let workloads = v["workloads"].as_array().unwrap().len();
    // Every cell has two samples but those whose configuration cannot run the workload
    // (DFSan and the MPI workload: libmpi is not instrumented).
    let mpi_workloads = v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["mpi_ranks"].is_u64())
        .count();
    let dfsan = v["configs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] == "dfsan")
        .count();
    let not_applicable = mpi_workloads * dfsan;
    assert_eq!(
        v["samples"].as_array().unwrap().len(),
        2 * (workloads * configs - not_applicable)
    );
    assert_eq!(v["checksums_agree"], true);
}

#[test]
fn bench_denormal_configurations() {
    let dir = setup("bench-denormal");
    let json = dir.join("bench.json");
    let mut args: Vec<String> = [
        "bench",
        "--quick",
        "--runs",
        "1",
        "--workload",
        "jacobi",
        "--workload",
        "jacobi-denormal",
        "--config",
        "native",
        "--config",
        "dip",
        "--timeout",
        "120",
        "--json",
    ]
    .map(String::from)
    .to_vec();
    args.push(json.display().to_string());
    args.extend(["--config".into(), "denormal".into()]);
    // dip needs the profiler next to the driver (`make build` puts it there).
    match Locator::new(
        |k| std::env::var_os(k),
        Path::new(TAINTPROF).parent().map(Path::to_path_buf),
        None,
    )
    .dip_lib()
    {
        Ok(so) => taintprof_tests::check_dip_library_at(&so),
        Err(e) => panic!("{e}\n(run `make build`, or scripts/build-dip.sh)"),
    }
    let out = Command::new(TAINTPROF).args(&args).output().unwrap();
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("jacobi-denormal"), "{stdout}");
    assert!(stdout.contains("(all configurations agree)"), "{stdout}");
    assert!(stdout.contains("What the dip runs found"), "{stdout}");
    // The plain jacobi has no denormals; the variant has them on the stencil line.
    assert!(stdout.contains("no denormals"), "{stdout}");
    assert!(stdout.contains(" jacobi.c:"), "{stdout}");
    assert!(stdout.contains("What the denormal runs found"), "{stdout}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(v["summary"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["status"] == "ok"));
}

#[test]
fn a_program_killed_by_a_signal_still_gets_its_summary() {
    let dir = setup("signal");
    write(
        &dir,
        "crash.c",
        r#"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  tp_register_variable(&n, sizeof n, "n");
  volatile double s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  printf("s=%g\n", s);
  fflush(stdout);
  raise(SIGSEGV);
  return 0;
}
"#,
    );
    ok(run_in(&dir, CC, &["-O1", "crash.c", "-o", "crash"]));
    let out = run_in(&dir, TAINTPROF, &["run", "--", "./crash", "7"]);
    assert_eq!(out.status.code(), Some(128 + 11));
    assert_eq!(text(&out.stdout), "s=21\n");
    let err = text(&out.stderr);
    assert!(err.contains("killed by SIGSEGV (signal 11)"), "{err}");
    assert!(
        err.contains("functions: 1 total, 0 statically pruned, 0 dynamically pruned, 1 relevant"),
        "{err}"
    );
    assert!(err.contains("  main  crash.c:6  n  n\n"), "{err}");
}

#[test]
fn very_long_response_files_reach_clang_through_a_response_file() {
    let dir = setup("longrsp");
    write(&dir, "kernel.c", KERNEL_C);
    // ~150 KB of arguments: more than the wrapper puts on a command line.
    let mut rsp = String::new();
    for i in 0..4000 {
        rsp.push_str(&format!(
            "-DTAINTPROF_TEST_MACRO_NUMBER_{i}=\"value {i}\"\n"
        ));
    }
    rsp.push_str("-c kernel.c -o kernel.o\n");
    write(&dir, "long.rsp", &rsp);
    let out = ok(run_in(&dir, CC, &["--tp-verbose", "@long.rsp"]));
    assert!(dir.join("kernel.o").is_file());
    assert!(text(&out.stderr).contains("-fpass-plugin="));
    // The temporary response file is gone.
    let leftovers: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with("taintprof-cc-") && n.ends_with(".rsp")
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

const JACOBI_DN_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <taintprof.h>
void tp_array_shape(const void *p, size_t rows, size_t cols, const char *name);
void tp_snapshot(const char *label);
static void sweep(const float *prev, float *cur, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      cur[i * n + j] = 0.25f * (prev[(i - 1) * n + j] + prev[(i + 1) * n + j] + prev[i * n + j - 1] + prev[i * n + j + 1]);
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 192;
  int iters = argc > 2 ? atoi(argv[2]) : 120;
  float *a = malloc(sizeof(float) * n * n), *b = malloc(sizeof(float) * n * n);
  tp_array_shape(a, n, n, "a");
  tp_array_shape(b, n, n, "b");
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i * n + j] = b[i * n + j] = (i == 0 || j == 0 || i == n - 1 || j == n - 1) ? 1.0f : 0.0f;
  for (int it = 0; it < iters; it += 2) {
    sweep(a, b, n);
    sweep(b, a, n);
    if (it % 40 == 38) {
      char l[32];
      snprintf(l, sizeof l, "iter %d", it + 2);
      tp_snapshot(l);
    }
  }
  double s = 0;
  for (int i = 0; i < n * n; i++) s += a[i];
  printf("sum %.6f\n", s);
  free(a);
  free(b);
  return 0;
}
"#;

/// The whole denormal path with the real pass and runtime: build with
/// `--tp-mode=denormal`, run, read the report as text and as HTML.
#[test]
fn denormal_mode_build_run_and_report() {
    let dir = setup("denormal-e2e");
    write(&dir, "jacobi.c", JACOBI_DN_C);
    let out = ok(run_in(
        &dir,
        CC,
        &[
            "--tp-mode=denormal",
            "--tp-verbose",
            "-O2",
            "jacobi.c",
            "-o",
            "jacobi",
        ],
    ));
    // Full debug info for the array names.
    assert!(text(&out.stderr).contains(" -g "), "{}", text(&out.stderr));
    let out = run_in(&dir, TAINTPROF, &["run", "--out", "r", "--", "./jacobi"]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(text(&out.stdout).starts_with("sum "));
    assert!(err.contains("Denormal report: r/jacobi."), "{err}");
    assert!(err.contains("sweep"), "{err}");
    let report = std::fs::read_dir(dir.join("r"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".denormal.json"))
        .expect("a denormal report");
    let out = ok(run_in(
        &dir,
        TAINTPROF,
        &["denormals", report.to_str().unwrap(), "--html", "h"],
    ));
    let s = text(&out.stdout);
    eprintln!("{s}");
    assert!(s.contains("mode     compiler"), "{s}");
    assert!(s.contains("jacobi.c:9:"), "the stencil line: {s}");
    assert!(s.contains("Arrays:"), "{s}");
    for name in ["a", "b"] {
        assert!(
            s.lines().any(|l| l.starts_with(&format!("  {name} "))),
            "array {name}: {s}"
        );
    }
    let index = std::fs::read_to_string(dir.join("h/index.html")).unwrap();
    assert!(index.contains("heat-"), "heatmaps");
}
