//! End to end: `make install` and the CMake package. The already-built artifacts
//! (`bin_dir()`, `NO_BUILD=1`: the tests never run cargo) are installed into a temporary
//! prefix; the layout is checked, the installed wrappers must find everything inside the
//! prefix, and `examples/cmake` (`find_package(taintprof)`, `taintprof_instrument(app)`)
//! is configured against the prefix, built, run and its report read.
//!
//! Needs `cmake` (the Debian package `cmake`, installed by `scripts/setup.sh`): without
//! it the tests fail, they do not skip.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use taintprof_tests::*;

/// Files `make install` must lay out, relative to the prefix.
const LAYOUT: [&str; 19] = [
    "bin/taintprof",
    "bin/taintprof-cc",
    "bin/taintprof-cxx",
    "bin/taintprof-c++",
    "bin/taintprof-bench",
    "lib/libtaintprof_pass.so",
    "lib/libtaintprof_rt.a",
    "lib/libtaintprof_rt.exports",
    "lib/libtaintprof_dip.so",
    "include/taintprof/taintprof.h",
    "include/taintprof/perf-taint/PerfTaint.h",
    "include/taintprof/perf-taint/PerfTaint.hpp",
    "share/cmake/taintprof/taintprofConfig.cmake",
    "share/cmake/taintprof/taintprofConfigVersion.cmake",
    "share/cmake/taintprof/taintprof-launcher.sh",
    "share/cmake/taintprof/taintprof-toolchain.cmake",
    "share/taintprof/abilist.txt",
    "share/taintprof/routines.txt",
    "share/taintprof/taintprof_mpi.c",
];

/// Environment variables that would make a wrapper, cmake or make look elsewhere than
/// the prefix (or that a surrounding `make test` passes down).
const SCRUB: [&str; 10] = [
    "TAINTPROF_PLUGIN",
    "TAINTPROF_MPI_SOURCE",
    "TAINTPROF_RUNTIME",
    "TAINTPROF_INCLUDE",
    "TAINTPROF_DIP_LIB",
    "TAINTPROF_ROOT",
    "TAINTPROF_MODE",
    "MAKEFLAGS",
    "MFLAGS",
    "MAKELEVEL",
];

fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    for k in SCRUB {
        cmd.env_remove(k);
    }
    cmd
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(what: &str, cmd: &mut Command) -> Output {
    let out = run_cmd(cmd);
    assert!(
        out.status.success(),
        "{what} failed: {cmd:?}\n{}",
        text(&out)
    );
    out
}

/// Fails, naming the Debian package, unless `cmake` runs.
fn require_cmake() {
    let runs = Command::new("cmake")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        runs,
        "cmake not found on PATH: install the Debian package `cmake` \
         (apt-get install cmake, or run scripts/setup.sh / `make setup`)"
    );
}

/// `make install` of the built artifacts with `vars` (`PREFIX=...`, `DESTDIR=...`).
fn make_install(vars: &[String]) -> Output {
    ok(
        "make install",
        command("make")
            .arg("-C")
            .arg(workspace_root())
            .arg("install")
            .arg("NO_BUILD=1")
            .arg(format!("BUILD_DIR={}", bin_dir().display()))
            .args(vars),
    )
}

/// One installation shared by the tests of this file: `<scratch>/prefix`.
fn prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let prefix = scratch_dir("install").join("prefix");
        make_install(&[format!("PREFIX={}", prefix.display())]);
        prefix
    })
}

fn assert_layout(root: &Path) {
    for f in LAYOUT {
        assert!(
            root.join(f).exists(),
            "{} is missing after make install",
            root.join(f).display()
        );
    }
    // The C++ wrapper is a relative link, so the tree can move.
    assert_eq!(
        std::fs::read_link(root.join("bin/taintprof-c++")).unwrap(),
        Path::new("taintprof-cxx")
    );
}

/// What a wrapper's `--version` says it found (`plugin`, `runtime`, `include`, the MPI
/// interception library's source `mpi`).
fn found_by(wrapper: &Path) -> Vec<(String, String)> {
    let out = ok("taintprof-cc --version", command(wrapper).arg("--version"));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let (k, v) = l.trim().split_once(' ')?;
            ["plugin", "runtime", "include", "mpi"]
                .contains(&k)
                .then(|| (k.to_string(), v.trim().to_string()))
        })
        .collect()
}

/// The installed wrappers find the plugin, the runtime and the headers in `root`, not in
/// the checkout they were built from.
fn assert_wrappers_use(root: &Path) {
    let root = root.canonicalize().unwrap();
    for wrapper in ["taintprof-cc", "taintprof-c++"] {
        let found = found_by(&root.join("bin").join(wrapper));
        assert_eq!(found.len(), 4, "{wrapper} --version: {found:?}");
        for (what, path) in &found {
            assert!(
                Path::new(path).starts_with(&root),
                "{wrapper} uses the {what} {path}, outside {}",
                root.display()
            );
        }
    }
}

/// Configures `examples/cmake` against the installed prefix into `build` with `extra`.
fn configure(build: &Path, extra: &[&str]) -> Output {
    require_cmake();
    run_cmd(
        command("cmake")
            .arg("-S")
            .arg(workspace_root().join("examples/cmake"))
            .arg("-B")
            .arg(build)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix().display()))
            .args(extra),
    )
}

/// Configures and builds `examples/cmake`; returns the verbose build output.
fn build_example(build: &Path, extra: &[&str]) -> String {
    let out = configure(build, extra);
    assert!(
        out.status.success(),
        "configuring examples/cmake: {}",
        text(&out)
    );
    let cache = std::fs::read_to_string(build.join("CMakeCache.txt")).unwrap();
    let dir = prefix().join("share/cmake/taintprof");
    assert!(
        cache.contains(&format!("taintprof_DIR:PATH={}\n", dir.display())),
        "find_package(taintprof) did not use the installed package {}",
        dir.display()
    );
    let out = ok(
        "building examples/cmake",
        command("cmake").arg("--build").arg(build).arg("--verbose"),
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs the example's `app` with `TAINTPROF_OUT=<out>`: the files it wrote there (and
/// the taint report of a raw run record the runtime wrote without one).
fn run_app(build: &Path, out: &Path, arg: &str) -> Vec<PathBuf> {
    std::fs::create_dir_all(out).unwrap();
    let run = ok(
        "app",
        command(build.join("app"))
            .arg(arg)
            .env("TAINTPROF_OUT", out)
            .current_dir(build),
    );
    assert!(
        String::from_utf8_lossy(&run.stdout).starts_with(&format!("H({arg}) = ")),
        "{}",
        text(&run)
    );
    // A runtime that writes only the raw run record: its report, as `taintprof run`
    // makes it.
    reports_from_records(out);
    denormal_reports_from_records(out);
    let mut files: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn install_then_build_the_cmake_example_against_the_prefix() {
    let prefix = prefix();
    assert_layout(prefix);
    assert_wrappers_use(prefix);

    let tmp = prefix.parent().unwrap();
    let build = tmp.join("build");
    let log = build_example(&build, &[]);
    let launcher = prefix.join("share/cmake/taintprof/taintprof-launcher.sh");
    let cc = prefix.join("bin/taintprof-cc");
    let through_wrapper = format!("{} {} --tp-mode=taint --", launcher.display(), cc.display());
    let compile = log
        .lines()
        .find(|l| l.contains(" -c ") && l.ends_with("app.c"));
    let link = log.lines().find(|l| l.contains("app.c.o -o app"));
    for (what, line) in [("compiled", compile), ("linked", link)] {
        assert!(
            line.is_some_and(|l| l.contains(&through_wrapper)),
            "app was not {what} through {}:\n{log}",
            cc.display()
        );
    }

    let out = tmp.join("out");
    let files = run_app(&build, &out, "300");
    let reports: Vec<&PathBuf> = files
        .iter()
        .filter(|p| p.to_string_lossy().ends_with(".taintprof.json"))
        .collect();
    assert_eq!(reports.len(), 1, "reports in {}: {files:?}", out.display());
    let mut report = Report::load(reports[0]);
    report.sources = vec![workspace_root().join("examples/cmake/app.c")];
    report.opt = "Release".to_string();
    assert_eq!(report.parameters(), vec!["n".to_string()]);
    report.assert_loop("main", "@harmonic", &["n"]);

    // The installed `taintprof` reads it.
    let shown = ok(
        "taintprof report",
        command(prefix.join("bin/taintprof"))
            .arg("report")
            .arg(reports[0]),
    );
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.contains("parameters    n"), "{shown}");
}

#[test]
fn denormal_and_time_modes() {
    let tmp = prefix().parent().unwrap();

    let build = tmp.join("build-denormal");
    let log = build_example(&build, &["-DAPP_MODE=denormal"]);
    assert!(log.contains("--tp-mode=denormal --"), "{log}");
    let out = tmp.join("out-denormal");
    let files = run_app(&build, &out, "200");
    assert!(
        files.len() == 2
            && files[0].to_string_lossy().ends_with(".denormal.json")
            && files[1].to_string_lossy().ends_with(".denormal.rec"),
        "a denormal-mode build writes one denormal record (and its report is made from it): {files:?}"
    );

    // Time mode: a time record, selected by a taint report of the same program
    // (PRIOR) or by the default rule.
    let taint_build = tmp.join("build-taint-for-prior");
    build_example(&taint_build, &[]);
    let taint_out = tmp.join("out-taint-for-prior");
    let prior = run_app(&taint_build, &taint_out, "300")
        .into_iter()
        .find(|f| f.to_string_lossy().ends_with(".taintprof.json"))
        .expect("the taint build's report");
    for (name, extra) in [
        ("build-time", vec!["-DAPP_MODE=time".to_string()]),
        (
            "build-time-prior",
            vec![
                "-DAPP_MODE=time".to_string(),
                format!("-DAPP_PRIOR={}", prior.display()),
            ],
        ),
    ] {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let build = tmp.join(name);
        let log = build_example(&build, &extra);
        assert!(log.contains("--tp-mode=time"), "{log}");
        assert_eq!(
            log.contains("--tp-prior="),
            name.ends_with("prior"),
            "{log}"
        );
        let files = run_app(&build, &tmp.join(format!("out-{name}")), "200");
        assert!(
            files.len() == 1 && files[0].to_string_lossy().ends_with(".taintprof-time.rec"),
            "a time-mode build writes one time record: {files:?}"
        );
        let p = taintprof_model::time::profile_of_files(&files).unwrap();
        assert!(
            p.regions.iter().any(|r| r.callpath == "main"),
            "{:?}",
            p.regions
        );
    }
    let out = configure(
        &tmp.join("build-time-missing"),
        &[
            "-DAPP_MODE=time",
            "-DAPP_PRIOR=/nonexistent/app.1.taintprof.json",
        ],
    );
    assert!(
        !out.status.success(),
        "a missing PRIOR must fail: {}",
        text(&out)
    );
    let err = String::from_utf8_lossy(&out.stderr)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        err.contains("PRIOR /nonexistent/app.1.taintprof.json does not exist"),
        "{err}"
    );

    let out = configure(&tmp.join("build-bad"), &["-DAPP_MODE=fast"]);
    assert!(!out.status.success(), "MODE fast must fail: {}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        err.contains("MODE must be taint, denormal or time (got 'fast')"),
        "{err}"
    );
}

#[test]
fn destdir_stages_a_tree_that_works_where_it_lands() {
    // PREFIX names a directory that does not exist: the staged tree must not need it.
    let stage = scratch_dir("install-destdir");
    let prefix = "/opt/taintprof-test-never-created";
    make_install(&[
        format!("DESTDIR={}", stage.display()),
        format!("PREFIX={prefix}"),
    ]);
    assert!(!Path::new(prefix).exists());
    let root = stage.join(prefix.trim_start_matches('/'));
    assert_layout(&root);
    assert_wrappers_use(&root);
    let version =
        std::fs::read_to_string(root.join("share/cmake/taintprof/taintprofConfigVersion.cmake"))
            .unwrap();
    assert!(
        version.contains(&format!(
            "set(PACKAGE_VERSION \"{}\")",
            env!("CARGO_PKG_VERSION")
        )),
        "{version}"
    );
}
