//! # taintprof-tests: the end-to-end harness
//!
//! End-to-end tests compile real C and C++ programs from `tests/programs/` with the
//! real `taintprof-cc`/`taintprof-c++` (which load the real plugin and link the real
//! runtime), run them, and assert on the JSON report of each run: the runtime's, or,
//! when the runtime wrote only the raw run record, the report the offline analysis
//! (`taintprof_model`) makes of it, written next to the record as `taintprof run` does
//! ([`reports_from_records`]).
//!
//! Loops are found by *markers* in the program source, not by line numbers: a comment
//! `/* @name */` on a line names that line. `report.loop_at("func", "@name")` then
//! returns the loop whose keyword is on that line, so programs can be edited freely.
//!
//! Artifacts come from `<workspace>/target/release` (built by `make test` / `cargo build
//! --release` before the tests run), or from `$TAINTPROF_BIN_DIR`.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Optimization levels every analysis result is checked at.
pub const OPT_LEVELS: [&str; 2] = ["-O0", "-O2"];

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub fn bin_dir() -> PathBuf {
    match std::env::var_os("TAINTPROF_BIN_DIR") {
        Some(d) => PathBuf::from(d),
        None => workspace_root().join("target/release"),
    }
}

pub fn programs_dir() -> PathBuf {
    workspace_root().join("tests/programs")
}

/// A fresh scratch directory under `target/e2e/`, named `<tag>-<pid>-<n>`. A test
/// process keeps its directories for inspection; the next one removes those of
/// processes that are gone ([`sweep_stale_scratch`]).
pub fn scratch_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    static SWEEP: std::sync::Once = std::sync::Once::new();
    let root = workspace_root().join("target/e2e");
    SWEEP.call_once(|| sweep_stale_scratch(&root));
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = root.join(format!("{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An empty directory `<tmp>/taintprof-<prefix>-<name>-<pid>`, kept after the test for
/// inspection (the driver's tests, whose programs want short paths). The first call for
/// a prefix in a test process removes that prefix's entries of processes that are gone
/// ([`sweep_stale`]), so each suite run leaves one set behind instead of adding one more.
pub fn tmp_scratch_dir(prefix: &str, name: &str) -> PathBuf {
    static SWEPT: std::sync::Mutex<BTreeSet<String>> = std::sync::Mutex::new(BTreeSet::new());
    {
        let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
        if swept.insert(prefix.to_string()) {
            sweep_stale(&std::env::temp_dir(), &format!("taintprof-{prefix}-"), 0);
        }
    }
    let dir =
        std::env::temp_dir().join(format!("taintprof-{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Removes the scratch directories whose test process no longer runs (no
/// `/proc/<pid>`). Without this every suite run left its builds behind: 41 GB after a
/// few dozen runs. Directories of a live process (another suite running beside this
/// one, from this or another checkout's harness) are left alone.
fn sweep_stale_scratch(root: &Path) {
    sweep_stale(root, "", 1);
}

/// Removes the entries of `dir` whose name starts with `start` and holds, as its
/// dash-separated field `pid_from_end` from the end (0: the last), the pid of a process
/// that no longer runs (no `/proc/<pid>`). Test scratch directories are named after
/// their process so that each run can remove what earlier runs kept for inspection,
/// leaving those of a live process (a suite running beside this one) alone.
pub fn sweep_stale(dir: &Path, start: &str, pid_from_end: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if !name.starts_with(start) {
            continue;
        }
        let Some(Ok(pid)) = name.rsplit('-').nth(pid_from_end).map(str::parse::<u32>) else {
            continue;
        };
        if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let _ = match e.file_type() {
            Ok(t) if t.is_dir() => std::fs::remove_dir_all(e.path()),
            _ => std::fs::remove_file(e.path()),
        };
    }
}

fn is_cxx(src: &str) -> bool {
    src.ends_with(".cpp") || src.ends_with(".cc") || src.ends_with(".cxx")
}

/// A program compiled with taintprof.
pub struct Build {
    pub exe: PathBuf,
    pub dir: PathBuf,
    pub opt: String,
    pub sources: Vec<PathBuf>,
    runs: AtomicUsize,
}

/// The runtime archive programs link is built apart from the workspace
/// (`scripts/build-runtime.sh`, run by `make build` and `make test`), so `cargo test`
/// alone does not rebuild it. An archive older than the runtime's sources would test
/// an old runtime: refuse it, saying what to run.
pub fn check_runtime_archive() {
    static CHECKED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    let verdict = CHECKED.get_or_init(|| {
        check_built(
            &bin_dir().join("libtaintprof_rt.a"),
            &["rt", "sigsafe", "abi", "record"],
            &["rt/build.rs"],
            "run `make build` (or scripts/build-runtime.sh)",
        )
    });
    if let Err(e) = verdict {
        panic!("{e}");
    }
}

/// The runtime archive programs link (`target/release/libtaintprof_rt.a`), checked to
/// be newer than the runtime's sources.
pub fn runtime_archive() -> PathBuf {
    check_runtime_archive();
    bin_dir().join("libtaintprof_rt.a")
}

/// The profiler `taintprof dip` preloads is built apart from the workspace too
/// (`scripts/build-dip.sh`, run by `make build` and `make test`; the workspace builds
/// `taintprof-dip` as an rlib only). Refuses `so` when it is missing or older than the
/// profiler's sources, saying what to run.
pub fn check_dip_library_at(so: &Path) {
    if let Err(e) = check_built(
        so,
        &["dip", "sigsafe"],
        &["scripts/build-dip.sh"],
        "run `make build` (or scripts/build-dip.sh)",
    ) {
        panic!("{e}");
    }
}

/// The profiler `taintprof dip` preloads (`target/release/libtaintprof_dip.so`),
/// checked to be newer than its sources ([`check_dip_library_at`]).
pub fn dip_library() -> PathBuf {
    let so = bin_dir().join("libtaintprof_dip.so");
    check_dip_library_at(&so);
    so
}

/// `Err` saying what to run when `artifact` is missing or older than a file of the
/// crates `crates` (their `src/` and `Cargo.toml`) or of `files` (relative to the
/// workspace root).
fn check_built(
    artifact: &Path,
    crates: &[&str],
    files: &[&str],
    rebuild: &str,
) -> Result<(), String> {
    let built = std::fs::metadata(artifact)
        .and_then(|m| m.modified())
        .map_err(|_| format!("{} is missing: {rebuild}", artifact.display()))?;
    let root = workspace_root();
    let mut newest: Option<(std::time::SystemTime, PathBuf)> = None;
    let mut stack: Vec<PathBuf> = crates
        .iter()
        .flat_map(|c| [root.join(c).join("src"), root.join(c).join("Cargo.toml")])
        .chain(files.iter().map(|f| root.join(f)))
        .collect();
    while let Some(p) = stack.pop() {
        let Ok(meta) = std::fs::metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            if let Ok(entries) = std::fs::read_dir(&p) {
                stack.extend(entries.flatten().map(|e| e.path()));
            }
        } else if let Ok(t) = meta.modified() {
            if newest.as_ref().is_none_or(|(n, _)| t > *n) {
                newest = Some((t, p));
            }
        }
    }
    match newest {
        Some((t, p)) if t > built => Err(format!(
            "{} is older than {}: {rebuild}",
            artifact.display(),
            p.display()
        )),
        _ => Ok(()),
    }
}

/// Compiles `sources` (relative to `tests/programs/`) at `opt` with extra flags.
/// Panics with clang's output if the compile fails.
pub fn compile(sources: &[&str], opt: &str, extra: &[&str]) -> Build {
    let out = try_compile(sources, opt, extra);
    match out {
        Ok(b) => b,
        Err(msg) => panic!("{msg}"),
    }
}

/// Like [`compile`] but returns the compiler's failure output instead of panicking.
pub fn try_compile(sources: &[&str], opt: &str, extra: &[&str]) -> Result<Build, String> {
    try_compile_env(sources, opt, extra, &[])
}

/// Like [`compile`], with extra environment variables for the compiler (the plugin's
/// `TAINTPROF_*` knobs).
pub fn compile_env(sources: &[&str], opt: &str, extra: &[&str], env: &[(&str, &str)]) -> Build {
    try_compile_env(sources, opt, extra, env).unwrap_or_else(|msg| panic!("{msg}"))
}

/// Like [`try_compile`], with extra environment variables for the compiler.
pub fn try_compile_env(
    sources: &[&str],
    opt: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Result<Build, String> {
    let cxx = sources.iter().any(|s| is_cxx(s));
    let wrapper = bin_dir().join(if cxx { "taintprof-c++" } else { "taintprof-cc" });
    assert!(
        wrapper.exists(),
        "{} is missing: run `make build` (or `make test`) first",
        wrapper.display()
    );
    check_runtime_archive();
    let stem = Path::new(sources[0])
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .to_string();
    let dir = scratch_dir(&format!("{stem}{}", opt.replace('-', "_")));
    let exe = dir.join(&stem);
    let srcs: Vec<PathBuf> = sources.iter().map(|s| programs_dir().join(s)).collect();
    let mut cmd = Command::new(&wrapper);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.arg(opt)
        .args(extra)
        .args(&srcs)
        .arg("-o")
        .arg(&exe)
        .arg("-lm");
    cmd.current_dir(&dir);
    let out = cmd
        .output()
        .expect("cannot run the taintprof compiler wrapper");
    if !out.status.success() {
        return Err(format!(
            "compiling {:?} at {opt} failed:\n{}\n{}",
            sources,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(Build {
        exe,
        dir,
        opt: opt.to_string(),
        sources: srcs,
        runs: AtomicUsize::new(0),
    })
}

/// One run of an instrumented program.
pub struct Run {
    pub output: Output,
    pub out_dir: PathBuf,
    /// Every taint report the process tree wrote.
    pub reports: Vec<PathBuf>,
    /// Every denormal report (`*.denormal.json`) of the process tree: made by the
    /// harness from the denormal records the runtime wrote
    /// ([`denormal_reports_from_records`], as `taintprof run` does).
    pub denormal_reports: Vec<PathBuf>,
    /// The taint reports of [`Run::reports`] the harness made from raw run records
    /// (the runtime wrote the record only): [`reports_from_records`].
    pub made_from_records: Vec<PathBuf>,
    /// The raw run records without a runtime report that could not be analysed, with
    /// the error.
    pub unanalysable_records: Vec<(PathBuf, String)>,
}

impl Run {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }
    /// The single report of this run (panics if there is not exactly one).
    pub fn report(&self) -> Report {
        assert_eq!(
            self.reports.len(),
            1,
            "expected exactly one report in {}, found {:?}{}\nstdout:\n{}\nstderr:\n{}",
            self.out_dir.display(),
            self.reports,
            self.unanalysable_records
                .iter()
                .map(|(p, e)| format!("\n{} could not be analysed: {e}", p.display()))
                .collect::<String>(),
            self.stdout(),
            self.stderr()
        );
        Report::load(&self.reports[0])
    }

    /// The single denormal report of this run, parsed.
    pub fn denormal_report(&self) -> Value {
        assert_eq!(
            self.denormal_reports.len(),
            1,
            "expected exactly one denormal report in {}, found {:?}\nstdout:\n{}\nstderr:\n{}",
            self.out_dir.display(),
            self.denormal_reports,
            self.stdout(),
            self.stderr()
        );
        let text = std::fs::read_to_string(&self.denormal_reports[0]).unwrap();
        let v: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("invalid JSON: {e}\n{text}"));
        assert_eq!(
            v["schema"],
            "taintprof.denormal",
            "{}",
            self.denormal_reports[0].display()
        );
        v
    }
}

impl Build {
    /// `taintprof report <report> --scorep-filter <file>` in this build's directory: the
    /// filter's text (panics with the driver's stderr if it fails).
    pub fn scorep_filter(&self, r: &Report) -> String {
        let filter = self.dir.join("taintprof.filter");
        let out = run_cmd(
            Command::new(bin_dir().join("taintprof"))
                .arg("report")
                .arg(&r.path)
                .arg("--scorep-filter")
                .arg(&filter),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(&filter).unwrap()
    }

    /// `taintprof report <report> --why <at> <param>`, run from the report's directory
    /// (the sidecars are found next to the program): its exit status and output.
    pub fn why(&self, r: &Report, at: &str, param: &str, extra: &[&str]) -> (bool, String) {
        let out = run_cmd(
            Command::new(bin_dir().join("taintprof"))
                .arg("report")
                .arg(&r.path)
                .args(["--why", at, param])
                .args(extra)
                .current_dir(r.path.parent().unwrap()),
        );
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), text)
    }

    /// Runs the program with `args`, reports going to a fresh directory.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_env(args, &[])
    }

    pub fn run_env(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let n = self.runs.fetch_add(1, Ordering::Relaxed);
        let out_dir = self.dir.join(format!("out{n}"));
        std::fs::create_dir_all(&out_dir).unwrap();
        let mut cmd = Command::new(&self.exe);
        cmd.args(args)
            .env("TAINTPROF_OUT", &out_dir)
            .current_dir(&self.dir);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let output = cmd.output().expect("cannot run the instrumented program");
        let (made_from_records, unanalysable_records) = analyse_records(&out_dir);
        denormal_reports_from_records(&out_dir);
        let files_ending = |suffix: &str| {
            let mut v: Vec<PathBuf> = std::fs::read_dir(&out_dir)
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.to_string_lossy().ends_with(suffix))
                .collect();
            v.sort();
            v
        };
        let reports = files_ending(".taintprof.json");
        let denormal_reports = files_ending(".denormal.json");
        Run {
            output,
            out_dir,
            reports,
            denormal_reports,
            made_from_records,
            unanalysable_records,
        }
    }

    /// Runs and asserts a zero exit status; returns the single report.
    pub fn run_ok(&self, args: &[&str]) -> (Report, Run) {
        let run = self.run(args);
        assert!(
            run.output.status.success(),
            "{} {:?} ({}) failed: {:?}\nstdout:\n{}\nstderr:\n{}",
            self.exe.display(),
            args,
            self.opt,
            run.output.status,
            run.stdout(),
            run.stderr()
        );
        let mut report = run.report();
        report.sources = self.sources.clone();
        report.opt = self.opt.clone();
        (report, run)
    }
}

/// A parsed taint report plus the sources it came from (to resolve markers).
pub struct Report {
    pub json: Value,
    pub path: PathBuf,
    pub sources: Vec<PathBuf>,
    pub opt: String,
}

/// A loop of the report.
#[derive(Debug, Clone)]
pub struct Loop {
    pub function: String,
    pub line: u64,
    pub params: BTreeSet<String>,
    pub executions: u64,
    pub contexts: Vec<Context>,
}

#[derive(Debug, Clone)]
pub struct Context {
    /// Call-site lines from the outermost caller inward, as `function:line`.
    pub path: Vec<String>,
    pub params: BTreeSet<String>,
    pub executions: u64,
}

pub fn str_set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// `names(&["m", "n"])` → the set `{m, n}`, for comparisons.
pub fn names(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Whether a report's function `full` name is `name`: equal after stripping the C++
/// signature, ignoring a leading return type (`double sum_all<double>(matrix&)`).
pub fn name_matches(full: &str, name: &str) -> bool {
    let base = base_name(full);
    base == name || base.ends_with(&format!(" {name}"))
}

/// Strips a C++ signature: `matrix::at(unsigned int, unsigned int)` → `matrix::at`.
pub fn base_name(name: &str) -> &str {
    match name.find('(') {
        Some(i) => &name[..i],
        None => name,
    }
}

impl Report {
    /// `taintprof report <this report>`: the text a user reads (panics with the
    /// driver's stderr if it fails).
    pub fn text(&self) -> String {
        let out = run_cmd(
            Command::new(bin_dir().join("taintprof"))
                .arg("report")
                .arg(&self.path),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Loads a taint report: the one the harness made from a run's raw record
    /// ([`reports_from_records`], as `taintprof run` does), or any other.
    pub fn load(path: &Path) -> Report {
        let text = std::fs::read_to_string(path).unwrap();
        let json: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not valid JSON: {e}\n{text}", path.display()));
        assert_eq!(
            json["schema"],
            "taintprof.taint",
            "unexpected schema in {}",
            path.display()
        );
        assert_volume_terms_match(&json, path);
        Report {
            json,
            path: path.to_path_buf(),
            sources: vec![],
            opt: String::new(),
        }
    }

    pub fn parameters(&self) -> Vec<String> {
        self.json["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    }

    /// The line a `/* @marker */` comment is on, searching all sources.
    pub fn marker_line(&self, marker: &str) -> u64 {
        line_of_marker(&self.sources, marker)
    }

    /// The JSON of the loop of `func` at `/* @marker */`, panicking if absent.
    pub fn loop_json(&self, func: &str, marker: &str) -> &Value {
        let line = self.marker_line(marker);
        self.function(func)["loops"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["line"] == line)
            .unwrap_or_else(|| panic!("[{}] no loop of {func} at {marker} (line {line})", self.opt))
    }

    /// The function named `name` (C++: without the signature), panicking if absent.
    pub fn function(&self, name: &str) -> &Value {
        self.json["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| name_matches(f["name"].as_str().unwrap_or(""), name))
            .unwrap_or_else(|| {
                panic!(
                    "[{}] no function {name} in report {}; functions: {:?}",
                    self.opt,
                    self.path.display(),
                    self.function_names()
                )
            })
    }

    pub fn function_names(&self) -> Vec<String> {
        self.json["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap_or("").to_string())
            .collect()
    }

    pub fn loops(&self, func: &str) -> Vec<Loop> {
        self.loops_of(self.function(func), func)
    }

    fn loops_of(&self, f: &Value, func: &str) -> Vec<Loop> {
        f["loops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| Loop {
                function: func.to_string(),
                line: l["line"].as_u64().unwrap(),
                params: str_set(&l["params"]),
                executions: l["executions"].as_u64().unwrap_or(0),
                contexts: l["contexts"]
                    .as_array()
                    .map(|cs| {
                        cs.iter()
                            .map(|c| Context {
                                path: c["path"]
                                    .as_array()
                                    .unwrap()
                                    .iter()
                                    .map(|fr| {
                                        format!(
                                            "{}:{}",
                                            base_name(fr["function"].as_str().unwrap_or("?")),
                                            fr["line"]
                                        )
                                    })
                                    .collect(),
                                params: str_set(&c["params"]),
                                executions: c["executions"].as_u64().unwrap_or(0),
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
            .collect()
    }

    /// The loop of `func` whose keyword is on the line marked `marker`.
    pub fn loop_at(&self, func: &str, marker: &str) -> Loop {
        let line = self.marker_line(marker);
        let loops = self.loops(func);
        loops
            .iter()
            .find(|l| l.line == line)
            .cloned()
            .unwrap_or_else(|| {
                panic!(
                    "[{}] no loop of {func} at line {line} ({marker}); loops at lines {:?}",
                    self.opt,
                    loops.iter().map(|l| l.line).collect::<Vec<_>>()
                )
            })
    }

    /// The loop at the line marked `marker`, in whichever function it is reported (for
    /// outlined code such as OpenMP regions, whose function names are compiler-made).
    pub fn loop_anywhere(&self, marker: &str) -> Loop {
        let line = self.marker_line(marker);
        for f in self.function_names() {
            for l in self.loops_of_full_name(&f) {
                if l.line == line {
                    return l;
                }
            }
        }
        panic!(
            "[{}] no loop at line {line} ({marker}) in any function of {}",
            self.opt,
            self.path.display()
        )
    }

    fn loops_of_full_name(&self, full: &str) -> Vec<Loop> {
        let f = self.json["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == full)
            .unwrap();
        self.loops_of(f, full)
    }

    /// Asserts that the loop at `marker` in `func` depends on exactly `expected`.
    pub fn assert_loop(&self, func: &str, marker: &str, expected: &[&str]) {
        let l = self.loop_at(func, marker);
        assert_eq!(
            l.params,
            names(expected),
            "[{}] loop {func} {marker} (line {}): expected params {:?}, got {:?}",
            self.opt,
            l.line,
            expected,
            l.params
        );
        assert!(
            l.executions > 0,
            "[{}] loop {func} {marker} never ran",
            self.opt
        );
    }
}

/// The display text of volume terms (`docs/report-schema.md`, "Volume terms").
pub fn volume_terms_text(terms: &Value) -> String {
    let terms = terms.as_array().expect("volume_terms is an array");
    terms
        .iter()
        .map(|t| {
            let factors = t.as_array().expect("a term is an array");
            if factors.is_empty() {
                return "1".to_string();
            }
            factors
                .iter()
                .map(|f| {
                    let ps: Vec<&str> = f["params"]
                        .as_array()
                        .expect("params")
                        .iter()
                        .map(|p| p.as_str().unwrap())
                        .collect();
                    let base = match ps.as_slice() {
                        [p] => p.to_string(),
                        _ => format!("({})", ps.join(",")),
                    };
                    match f["power"].as_u64().expect("power") {
                        1 => base,
                        k => format!("{base}^{k}"),
                    }
                })
                .collect::<Vec<_>>()
                .join("*")
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Every volume of `report` (a function's, its own loops', each context's) says what its
/// `volume_terms` say.
fn assert_volume_terms_match(report: &Value, path: &Path) {
    let check = |o: &Value, key: &str| {
        assert_eq!(
            volume_terms_text(&o[format!("{key}_terms")]),
            o[key].as_str().unwrap(),
            "{key} of {} in {}",
            o.get("name").unwrap_or(&Value::Null),
            path.display()
        );
    };
    for f in report["functions"].as_array().into_iter().flatten() {
        check(f, "volume");
        check(f, "exclusive_volume");
        for c in f["contexts"].as_array().into_iter().flatten() {
            check(c, "volume");
        }
    }
}

/// The raw run record next to a taint report: same directory, same `<prog>.<pid>` stem.
pub fn record_path(report: &Path) -> PathBuf {
    let s = report.to_string_lossy();
    PathBuf::from(match s.strip_suffix(".taintprof.json") {
        Some(stem) => format!("{stem}.taintprof.rec"),
        None => format!("{s}.taintprof.rec"),
    })
}

/// What `taintprof run` does after a run, for programs the tests start directly: every
/// raw run record (`<prog>.<pid>.taintprof.rec`, `<prog>.before-exec.<pid>...`) in `dir`
/// without a taint report of the same name next to it is analysed (`taintprof_model`)
/// into that report, written next to it (JSON indented by two spaces and a final
/// newline, as the runtime writes it; through a temporary file renamed into place).
/// Returns the reports made, sorted; panics on a record that cannot be analysed.
pub fn reports_from_records(dir: &Path) -> Vec<PathBuf> {
    let (made, failed) = analyse_records(dir);
    if let Some((rec, e)) = failed.first() {
        panic!("the offline analysis of {} failed: {e}", rec.display());
    }
    made
}

/// [`reports_from_records`], returning the records that could not be analysed (with
/// the error) instead of panicking.
fn analyse_records(dir: &Path) -> (Vec<PathBuf>, Vec<(PathBuf, String)>) {
    let mut records: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".taintprof.rec"))
        .collect();
    records.sort();
    let (mut made, mut failed) = (vec![], vec![]);
    for rec in records {
        let json = report_path(&rec);
        if json.exists() {
            continue;
        }
        let value = match taintprof_model::taint_report_of_files(&[&rec]) {
            Ok(v) => v,
            Err(e) => {
                failed.push((rec, e.to_string()));
                continue;
            }
        };
        let text = serde_json::to_string_pretty(&value).unwrap() + "\n";
        let name = json.file_name().unwrap().to_string_lossy().into_owned();
        let tmp = json.with_file_name(format!(".{name}.tmp"));
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &json))
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", json.display()));
        made.push(json);
    }
    (made, failed)
}

/// The denormal report of the denormal record at `rec` (`<prog>.<pid>.denormal.rec`), as
/// `taintprof run` and `taintprof denormals` make it (`taintprof_model::denormal`).
pub fn denormal_model_report(rec: &Path) -> Value {
    taintprof_model::denormal::denormal_report_of_file(rec)
        .unwrap_or_else(|e| panic!("the offline analysis of {} failed: {e}", rec.display()))
}

/// What `taintprof run` does after a run with the denormal records: every denormal
/// record (`<prog>.<pid>.denormal.rec`) in `dir` without a denormal report of the same
/// name next to it is analysed (`taintprof_model::denormal`) into that report
/// (`<prog>.<pid>.denormal.json`, as `taintprof run` writes it, through a temporary
/// file renamed into place). Returns the reports made, sorted;
/// panics on a record that cannot be analysed.
pub fn denormal_reports_from_records(dir: &Path) -> Vec<PathBuf> {
    let mut records: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".denormal.rec"))
        .collect();
    records.sort();
    let mut made = vec![];
    for rec in records {
        let s = rec.to_string_lossy();
        let json = PathBuf::from(format!(
            "{}.denormal.json",
            s.strip_suffix(".denormal.rec").unwrap_or(&s)
        ));
        if json.exists() {
            continue;
        }
        let text = taintprof_model::denormal::to_text(&denormal_model_report(&rec), 3);
        let name = json.file_name().unwrap().to_string_lossy().into_owned();
        let tmp = json.with_file_name(format!(".{name}.tmp"));
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &json))
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", json.display()));
        made.push(json);
    }
    made
}

/// The taint report next to a raw run record: same directory, same `<prog>.<pid>` stem.
pub fn report_path(record: &Path) -> PathBuf {
    let s = record.to_string_lossy();
    PathBuf::from(match s.strip_suffix(".taintprof.rec") {
        Some(stem) => format!("{stem}.taintprof.json"),
        None => format!("{s}.taintprof.json"),
    })
}

/// A value in one line, cut to a readable length.
fn compact(v: Option<&Value>) -> String {
    let s = v.map_or_else(|| "<missing>".to_string(), |v| v.to_string());
    if s.chars().count() > 400 {
        let cut: String = s.chars().take(400).collect();
        format!("{cut}...")
    } else {
        s
    }
}

/// The first JSON path where `a` and `b` differ, with both values there (compact).
pub fn first_difference(a: &Value, b: &Value, at: &str) -> Option<(String, String, String)> {
    if a == b {
        return None;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let here = format!("{at}.{k}");
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_difference(p, q, &here) {
                            return Some(d);
                        }
                    }
                    (p, q) => return Some((here, compact(p), compact(q))),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if let Some(d) = first_difference(p, q, &format!("{at}[{i}]")) {
                    return Some(d);
                }
            }
            let i = x.len().min(y.len());
            Some((
                format!("{at}[{i}] (lengths {} and {})", x.len(), y.len()),
                compact(x.get(i)),
                compact(y.get(i)),
            ))
        }
        _ => Some((at.to_string(), compact(Some(a)), compact(Some(b)))),
    }
}

/// Whether a Score-P filter's text includes function `f` (`INCLUDE MANGLED f`).
pub fn filter_includes(text: &str, f: &str) -> bool {
    text.lines()
        .any(|l| l.trim() == format!("INCLUDE MANGLED {f}"))
}

/// A denormal report's instruction profile as sorted, comparable lines: position, op,
/// type and every count of each site row (not the vector widths, which differ between
/// optimization levels by design).
pub fn denormal_site_rows(r: &Value) -> Vec<String> {
    let mut rows: Vec<String> = r["sites"]
        .as_array()
        .unwrap_or_else(|| panic!("no `sites` in the denormal report: {r}"))
        .iter()
        .map(|s| {
            format!(
                "{}:{}:{} {} {} exec={} ops={} res={} created={} ld={} st={}",
                s["function"].as_str().unwrap_or("?"),
                s["line"],
                s["column"],
                s["op"].as_str().unwrap_or("?"),
                s["type"].as_str().unwrap_or("?"),
                s["executions"],
                s["denormal_operands"],
                s["denormal_results"],
                s["created"],
                s["denormal_loads"],
                s["denormal_stores"]
            )
        })
        .collect();
    rows.sort();
    rows
}

/// Finds the line (1-based) of `marker` (e.g. `@outer`) in one of `sources`.
pub fn line_of_marker(sources: &[PathBuf], marker: &str) -> u64 {
    let needle = format!("/* {marker} */");
    let mut found = vec![];
    for src in sources {
        let text = std::fs::read_to_string(src).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains(&needle) {
                found.push(i as u64 + 1);
            }
        }
    }
    assert_eq!(
        found.len(),
        1,
        "marker {marker} must appear exactly once in {sources:?}"
    );
    found[0]
}

/// Runs `f` for every optimization level in [`OPT_LEVELS`], compiling `sources` each time.
pub fn at_each_level(sources: &[&str], extra: &[&str], f: impl Fn(&Build)) {
    for opt in OPT_LEVELS {
        let b = compile(sources, opt, extra);
        f(&b);
    }
}

/// Builds `programs/<src>` into the shared library `lib<name>.so` with the wrapper its
/// language needs (`-fPIC -shared`, `opt`, `extra`), in a scratch directory of its own;
/// returns the link flags a program needs to use it (`-L`, `-l`, the rpath).
pub fn compile_shared_library(src: &str, name: &str, opt: &str, extra: &[&str]) -> Vec<String> {
    let wrapper = if is_cxx(src) {
        "taintprof-c++"
    } else {
        "taintprof-cc"
    };
    let dir = scratch_dir(&format!("lib{name}{}", opt.replace('-', "_")));
    let out = run_cmd(
        Command::new(bin_dir().join(wrapper))
            .args(extra)
            .args([opt, "-fPIC", "-shared"])
            .arg(programs_dir().join(src))
            .arg("-o")
            .arg(dir.join(format!("lib{name}.so"))),
    );
    assert!(out.status.success(), "building lib{name}.so: {out:?}");
    let d = dir.display();
    vec![
        format!("-L{d}"),
        format!("-l{name}"),
        format!("-Wl,-rpath,{d}"),
    ]
}

/// Runs a command and returns its output (for tests of the driver commands).
pub fn run_cmd(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// The `taintprof` command under test.
pub fn taintprof_bin() -> PathBuf {
    bin_dir().join("taintprof")
}

/// Runs a command that must succeed; its standard output and error, joined (the
/// assertion message shows them when it fails).
pub fn run_ok_text(cmd: &mut Command) -> String {
    let out = run_cmd(cmd);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

/// Extra-P 4.2.5's command-line program, which `scripts/setup.sh` installs in a virtual
/// environment of its own (its pins need numpy < 1.27): `$TAINTPROF_EXTRAP` if set, else
/// `~/.cache/taintprof/extrap-4.2.5/bin/extrap`. Panics, naming the package and the
/// command that installs it, when it is missing: the tests that compare with Extra-P
/// must not pass without it.
pub fn extrap() -> PathBuf {
    let p = std::env::var_os("TAINTPROF_EXTRAP")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/taintprof/extrap-4.2.5/bin/extrap")
        });
    assert!(
        p.is_file(),
        "{} is missing: these tests need Extra-P 4.2.5 (PyPI package `extrap`); run `make setup` (scripts/setup.sh installs it)",
        p.display()
    );
    p
}

/// The Python of Extra-P's environment (the interpreter on the `#!` line of
/// [`extrap`], else `python3` next to it), which runs `bench/modeler/extrap_models.py`.
pub fn extrap_python() -> PathBuf {
    let e = extrap();
    let text = std::fs::read_to_string(&e).unwrap_or_default();
    let from_shebang = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("#!"))
        .map(|l| PathBuf::from(l.trim()))
        .filter(|p| p.is_file());
    let p = from_shebang.unwrap_or_else(|| e.with_file_name("python3"));
    assert!(
        p.is_file(),
        "{}: no Python next to Extra-P 4.2.5 (PyPI package `extrap`); run `make setup`",
        p.display()
    );
    p
}
