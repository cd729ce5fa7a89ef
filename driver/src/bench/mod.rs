//! `taintprof bench`: how much slower programs run under taint tracking, side by side
//! with a native build and DataFlowSanitizer, in one run.
//!
//! 1. Build every workload in every configuration once ([`catalog`] lists both).
//! 2. Run round-robin: in each round, every workload once in every configuration (the
//!    order of configurations rotates per round), so slow drifts of the machine hit all
//!    configurations alike.
//! 3. Take medians, print workload × configuration (median and slowdown against
//!    `native`) and the geometric mean of the slowdowns per configuration.
//! 4. Check that every configuration printed the same checksum (instrumentation must
//!    not change results) and that the taint configuration's reports tracked the
//!    workloads' parameters.
//!
//! `--callgrind` counts instructions with `valgrind --tool=callgrind` on smaller inputs
//! instead of timing (stable figures, one run by default).
//!
//! A configuration that cannot be measured does not stop the others: a failed build,
//! a failed run, a run stopped at its time limit (`--timeout`, or the configuration's
//! own: `dip` traps on every denormal instruction and may take minutes) and a
//! configuration that does not apply (`dip` under `--callgrind`) each get their own
//! cell (`build failed`, `failed`, `timed out`, `n/a`) and a line saying why.

pub mod catalog;

use crate::locate::{Lang, Locator};
use crate::report;
use crate::table::{Align, Table};
use anyhow::{bail, Context, Result};
use catalog::{
    Build, Compiler, Config, Reports, Runner, Tool, Workload, BASELINE, CONFIGS, WORKLOADS,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Runs per workload and configuration (default 5; 1 with `--callgrind`).
    pub runs: Option<usize>,
    pub quick: bool,
    pub callgrind: bool,
    pub json: Option<PathBuf>,
    /// Subsets by name (empty = all).
    pub workloads: Vec<String>,
    pub configs: Vec<String>,
    /// Seconds per run before it is stopped (overrides the configurations' own limits).
    pub timeout: Option<u64>,
    /// Build directory to use and keep (default: a temporary one, removed afterwards).
    pub dir: Option<PathBuf>,
}

/// Why a cell has no figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    BuildFailed(String),
    Failed(String),
    TimedOut(u64),
    NotApplicable(String),
}

impl Problem {
    /// The table cell.
    pub fn cell(&self) -> String {
        match self {
            Problem::BuildFailed(_) => "build failed".into(),
            Problem::Failed(_) => "failed".into(),
            Problem::TimedOut(s) => format!("timed out (>{s} s)"),
            Problem::NotApplicable(_) => "n/a".into(),
        }
    }

    /// The `status` key of the JSON summary.
    pub fn status(&self) -> &'static str {
        match self {
            Problem::BuildFailed(_) => "build failed",
            Problem::Failed(_) => "failed",
            Problem::TimedOut(_) => "timed out",
            Problem::NotApplicable(_) => "not applicable",
        }
    }

    /// Whether the bench should fail because of it.
    pub fn is_failure(&self) -> bool {
        matches!(self, Problem::BuildFailed(_) | Problem::Failed(_))
    }

    pub fn message(&self) -> String {
        match self {
            Problem::BuildFailed(m) | Problem::Failed(m) | Problem::NotApplicable(m) => m.clone(),
            Problem::TimedOut(s) => {
                format!("stopped after {s} s (--timeout SECONDS sets the limit)")
            }
        }
    }
}

/// A run stopped at its time limit.
#[derive(Debug)]
pub struct TimedOut(pub u64);

impl std::fmt::Display for TimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "timed out after {} s", self.0)
    }
}

impl std::error::Error for TimedOut {}

/// One measurement.
#[derive(Debug, Clone, Serialize)]
pub struct Sample {
    pub workload: String,
    pub config: String,
    pub round: usize,
    /// Seconds (wall clock of the whole process), or instructions with `--callgrind`.
    pub value: f64,
    pub checksum: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct CellSummary {
    workload: String,
    config: String,
    median: Option<f64>,
    slowdown: Option<f64>,
    /// `ok`, `failed`, `build failed`, `timed out`, `not applicable`.
    status: String,
    error: Option<String>,
}

#[derive(Debug, Serialize)]
struct JsonOut<'a> {
    unit: &'a str,
    runs: usize,
    quick: bool,
    machine: Machine,
    configs: Vec<JsonConfig>,
    workloads: Vec<JsonWorkload>,
    samples: &'a [Sample],
    summary: Vec<CellSummary>,
    geomean_slowdown: BTreeMap<String, f64>,
    checksums_agree: bool,
}

#[derive(Debug, Serialize)]
struct JsonConfig {
    name: String,
    about: String,
}

#[derive(Debug, Serialize)]
struct JsonWorkload {
    name: String,
    about: String,
    args: Vec<String>,
}

#[derive(Debug, Serialize)]
struct Machine {
    cpu: String,
    cores: usize,
}

/// Runs the benchmark; returns the exit status (non-zero if anything failed or
/// disagreed).
pub fn bench(opts: &BenchOptions) -> Result<i32> {
    let workloads = select(WORKLOADS, &opts.workloads, |w| w.name, "workload")?;
    let mut configs = select(CONFIGS, &opts.configs, |c| c.name, "configuration")?;
    if opts.configs.is_empty() {
        configs.retain(|c| c.default);
    }
    if !configs.iter().any(|c| c.name == BASELINE) {
        // Slowdowns need the baseline.
        configs.insert(0, *CONFIGS.iter().find(|c| c.name == BASELINE).unwrap());
    }
    let runs = opts.runs.unwrap_or(if opts.callgrind { 1 } else { 5 });
    if runs == 0 {
        bail!("--runs must be at least 1");
    }
    if opts.timeout == Some(0) {
        bail!("--timeout must be at least 1 second");
    }
    let unit = if opts.callgrind {
        "instructions"
    } else {
        "seconds"
    };

    let locator = Locator::from_process();
    let tools = Tools::find(&locator, &configs, opts.callgrind)?;
    let (dir, temporary) = match &opts.dir {
        Some(d) => (d.clone(), false),
        None => (
            std::env::temp_dir().join(format!("taintprof-bench-{}", std::process::id())),
            true,
        ),
    };
    let _cleanup = temporary.then(|| RemoveOnDrop(dir.clone()));
    let src = dir.join("src");
    std::fs::create_dir_all(&src)
        .with_context(|| format!("cannot create build directory {}", dir.display()))?;
    std::fs::write(src.join(catalog::HEADER.0), catalog::HEADER.1)?;
    for w in &workloads {
        std::fs::write(src.join(w.file), w.source)?;
    }

    // 1. Build each distinct build once.
    let mut builds: Vec<Build> = Vec::new();
    for c in &configs {
        if !builds.iter().any(|b| b.id == c.build.id) {
            builds.push(c.build);
        }
    }
    eprintln!(
        "taintprof bench: building {} workload(s) in {} configuration(s) in {}",
        workloads.len(),
        configs.len(),
        dir.display()
    );
    let mut errors: BTreeMap<(String, String), Problem> = BTreeMap::new();
    for b in &builds {
        for w in &workloads {
            if let Err(e) = build(&tools, b, w, &src, &binary(&dir, b, w)) {
                let msg = format!("{e:#}");
                eprintln!("  build {} / {} failed", b.id, w.name);
                for c in configs.iter().filter(|c| c.build.id == b.id) {
                    errors.insert(
                        (w.name.to_string(), c.name.to_string()),
                        Problem::BuildFailed(msg.clone()),
                    );
                }
            }
        }
    }
    for c in &configs {
        if let Some(why) = not_applicable(c, opts.callgrind) {
            for w in &workloads {
                errors
                    .entry((w.name.to_string(), c.name.to_string()))
                    .or_insert_with(|| Problem::NotApplicable(why.clone()));
            }
        }
    }

    // 2. Run round-robin.
    let args_of = |w: &Workload| -> Vec<String> {
        let a = if opts.callgrind {
            w.callgrind_args
        } else if opts.quick {
            w.quick_args
        } else {
            w.args
        };
        a.iter().map(|s| s.to_string()).collect()
    };
    let mut samples: Vec<Sample> = Vec::new();
    eprintln!(
        "taintprof bench: {runs} round(s); each round runs every workload once in every configuration"
    );
    for round in 0..runs {
        for w in &workloads {
            let mut line = format!("  round {}/{runs}  {:<15}", round + 1, w.name);
            for i in 0..configs.len() {
                let c = &configs[(i + round) % configs.len()];
                let key = (w.name.to_string(), c.name.to_string());
                if errors.contains_key(&key) {
                    continue;
                }
                let reports = report_dir(&dir, c, w);
                match run_once(
                    &tools,
                    c,
                    &binary(&dir, &c.build, w),
                    &args_of(w),
                    &reports,
                    opts.callgrind,
                    opts.timeout.or(c.timeout),
                ) {
                    Ok((value, checksum)) => {
                        line.push_str(&format!("  {} {}", c.name, format_value(value, unit)));
                        samples.push(Sample {
                            workload: w.name.to_string(),
                            config: c.name.to_string(),
                            round: round + 1,
                            value,
                            checksum,
                        });
                    }
                    Err(e) => {
                        let p = match e.downcast_ref::<TimedOut>() {
                            Some(t) => Problem::TimedOut(t.0),
                            None => Problem::Failed(format!("{e:#}")),
                        };
                        line.push_str(&format!("  {} {}", c.name, p.cell()));
                        errors.insert(key, p);
                    }
                }
            }
            eprintln!("{line}");
        }
    }

    // 3. Medians and slowdowns.
    let mut cells = Vec::new();
    for w in &workloads {
        let base = median_of(&samples, w.name, BASELINE);
        for c in &configs {
            let median = median_of(&samples, w.name, c.name);
            let problem = errors
                .get(&(w.name.to_string(), c.name.to_string()))
                .cloned();
            cells.push(CellSummary {
                workload: w.name.to_string(),
                config: c.name.to_string(),
                median: if problem.is_some() { None } else { median },
                slowdown: match (median, base, &problem) {
                    (Some(m), Some(b), None) if b > 0.0 => Some(m / b),
                    _ => None,
                },
                status: problem
                    .as_ref()
                    .map(|p| p.status().to_string())
                    .unwrap_or_else(|| "ok".into()),
                error: problem.map(|p| p.message()),
            });
        }
    }
    let mut geomeans = BTreeMap::new();
    for c in &configs {
        let s: Vec<f64> = cells
            .iter()
            .filter(|x| x.config == c.name)
            .filter_map(|x| x.slowdown)
            .collect();
        if s.len() == workloads.len() && !s.is_empty() {
            geomeans.insert(c.name.to_string(), geomean(&s));
        }
    }

    println!();
    println!(
        "{}, median of {runs} run{} per cell (round-robin); slowdown vs {BASELINE}",
        if opts.callgrind {
            "Instructions (valgrind --tool=callgrind)"
        } else {
            "Wall-clock seconds"
        },
        if runs == 1 { "" } else { "s" },
    );
    print!(
        "{}",
        results_table(&workloads, &configs, &cells, &errors, &geomeans, unit, &args_of)
    );
    println!();
    let mut t = Table::new(&[Align::Left, Align::Left]);
    for c in &configs {
        t.row([c.name.to_string(), c.about.to_string()]);
    }
    print!("{}", t.render("  "));

    let mut status = 0;
    if !errors.is_empty() {
        if errors.values().any(Problem::is_failure) {
            status = 1;
        }
        println!();
        println!("Not measured");
        for ((w, c), p) in &errors {
            println!("  {w} / {c}: {}: {}", p.cell(), p.message());
        }
    }

    // 4. Checksums and taint reports.
    let agree = check_checksums(&samples, &workloads);
    if !agree {
        status = 1;
    }
    for c in configs.iter().filter(|c| c.reports == Reports::Taint) {
        if errors.keys().any(|(_, cn)| cn == c.name) {
            continue;
        }
        if !show_taint_reports(&dir, c, &workloads)? {
            status = 1;
        }
    }
    for c in configs
        .iter()
        .filter(|c| matches!(c.reports, Reports::Denormal | Reports::Dip))
    {
        let measured: Vec<Workload> = workloads
            .iter()
            .filter(|w| !errors.contains_key(&(w.name.to_string(), c.name.to_string())))
            .copied()
            .collect();
        if measured.is_empty() {
            continue;
        }
        if !show_denormal_reports(&dir, c, &measured) {
            status = 1;
        }
    }

    if let Some(path) = &opts.json {
        let out = JsonOut {
            unit,
            runs,
            quick: opts.quick,
            machine: machine(),
            configs: configs
                .iter()
                .map(|c| JsonConfig {
                    name: c.name.to_string(),
                    about: c.about.to_string(),
                })
                .collect(),
            workloads: workloads
                .iter()
                .map(|w| JsonWorkload {
                    name: w.name.to_string(),
                    about: w.about.to_string(),
                    args: args_of(w),
                })
                .collect(),
            samples: &samples,
            summary: cells,
            geomean_slowdown: geomeans,
            checksums_agree: agree,
        };
        let text = serde_json::to_string_pretty(&out)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("\nEvery run's figures: {}", path.display());
    }
    if !temporary {
        println!("Binaries and reports kept in {}", dir.display());
    }
    Ok(status)
}

/// The external programs the selected configurations need.
struct Tools {
    clang: PathBuf,
    taintprof_cc: Option<PathBuf>,
    valgrind: Option<PathBuf>,
    taintprof: Option<PathBuf>,
}

impl Tools {
    fn find(locator: &Locator, configs: &[Config], callgrind: bool) -> Result<Tools> {
        let clang = locator.clang(Lang::C).map_err(|e| anyhow::anyhow!("{e}"))?;
        let taintprof_cc = if configs
            .iter()
            .any(|c| c.build.compiler == Compiler::TaintprofCc)
        {
            let p = locator
                .exe_dir()
                .map(|d| d.join("taintprof-cc"))
                .filter(|p| p.is_file())
                .with_context(|| {
                    "taintprof-cc not found next to the taintprof executable; build it with `cargo build --release`"
                })?;
            Some(p)
        } else {
            None
        };
        let needs_valgrind = callgrind
            || configs
                .iter()
                .any(|c| matches!(c.runner, Runner::Under(Tool::Valgrind, _)));
        let valgrind =
            if needs_valgrind {
                Some(locator.search_path("valgrind").context(
                    "valgrind not found on PATH; install it with: apt-get install valgrind",
                )?)
            } else {
                None
            };
        Ok(Tools {
            clang,
            taintprof_cc,
            valgrind,
            taintprof: std::env::current_exe().ok(),
        })
    }
}

fn select<T: Copy>(
    all: &[T],
    wanted: &[String],
    name: impl Fn(&T) -> &'static str,
    what: &str,
) -> Result<Vec<T>> {
    if wanted.is_empty() {
        return Ok(all.to_vec());
    }
    let mut out = Vec::new();
    for w in wanted {
        match all.iter().find(|x| name(x) == w) {
            Some(x) => out.push(*x),
            None => bail!(
                "unknown {what} `{w}`; choose from: {}",
                all.iter().map(&name).collect::<Vec<_>>().join(", ")
            ),
        }
    }
    Ok(out)
}

fn binary(dir: &Path, b: &Build, w: &Workload) -> PathBuf {
    dir.join(b.id).join(w.name)
}

fn report_dir(dir: &Path, c: &Config, w: &Workload) -> PathBuf {
    dir.join("reports").join(c.name).join(w.name)
}

fn build(tools: &Tools, b: &Build, w: &Workload, src: &Path, out: &Path) -> Result<()> {
    std::fs::create_dir_all(out.parent().unwrap())?;
    let compiler = match b.compiler {
        Compiler::Clang => tools.clang.clone(),
        Compiler::TaintprofCc => tools.taintprof_cc.clone().expect("located in Tools::find"),
    };
    let mut cmd = Command::new(&compiler);
    cmd.args(b.flags);
    if let Some(d) = b.define {
        cmd.arg(format!("-D{d}"));
    }
    cmd.arg(format!("-I{}", src.display()))
        .arg(src.join(w.file))
        .arg("-o")
        .arg(out)
        .args(w.libs)
        // The build's sidecars go next to the binary, not into the user's directory.
        .current_dir(out.parent().unwrap());
    let started = Instant::now();
    let output = cmd
        .output()
        .with_context(|| format!("cannot run {}", compiler.display()))?;
    if !output.status.success() {
        bail!(
            "building {} for {} failed ({}):\n{}\n{}",
            w.name,
            b.id,
            b.hint,
            crate::cc::display_command(
                &compiler,
                &[],
                &cmd.get_args()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
            ),
            tail(&String::from_utf8_lossy(&output.stderr), 20)
        );
    }
    eprintln!(
        "  built {:<13} {:<15} in {:.1} s",
        b.id,
        w.name,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Why a configuration cannot be measured in this mode, if it cannot.
fn not_applicable(c: &Config, callgrind: bool) -> Option<String> {
    match c.runner {
        Runner::Under(Tool::Taintprof, _) if callgrind => Some(format!(
            "{} runs under taintprof, whose traps callgrind cannot count",
            c.name
        )),
        _ => None,
    }
}

/// Runs one program once: (seconds or instructions, checksum). With a time limit, a
/// run that exceeds it is killed (its whole process group: `taintprof dip` and the
/// program it runs) and the error is [`TimedOut`].
#[allow(clippy::too_many_arguments)]
fn run_once(
    tools: &Tools,
    c: &Config,
    exe: &Path,
    args: &[String],
    reports: &Path,
    callgrind: bool,
    timeout: Option<u64>,
) -> Result<(f64, Option<String>)> {
    std::fs::create_dir_all(reports)?;
    let argv = command_line(tools, c.runner, exe, callgrind)?;
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]);
    cmd.args(args)
        .env(taintprof_abi::ENV_OUT_DIR, reports)
        .env("TAINTPROF_QUIET", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let output = output_with_timeout(&mut cmd, timeout)
        .with_context(|| format!("cannot run {}", exe.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        bail!(
            "{} exited with status {}: {}",
            exe.display(),
            crate::exit_code(output.status),
            tail(&stderr, 5)
        );
    }
    let checksum = stdout
        .lines()
        .find_map(|l| l.strip_prefix("checksum "))
        .map(|s| s.trim().to_string());
    let value = if callgrind {
        parse_callgrind(&stderr).with_context(|| {
            format!(
                "no instruction count in callgrind's output: {}",
                tail(&stderr, 5)
            )
        })?
    } else {
        seconds
    };
    Ok((value, checksum))
}

/// Like `Command::output`, but with a time limit: the child runs in its own process
/// group, which is killed when the limit passes (the error is then [`TimedOut`]).
fn output_with_timeout(cmd: &mut Command, timeout: Option<u64>) -> Result<std::process::Output> {
    let Some(limit) = timeout else {
        return Ok(cmd.output()?);
    };
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    let mut child = cmd.spawn()?;
    let pgid = child.id() as libc::pid_t;
    let mut out_pipe = child.stdout.take();
    let mut err_pipe = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        if let Some(p) = out_pipe.as_mut() {
            let _ = p.read_to_end(&mut b);
        }
        b
    });
    let err_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        if let Some(p) = err_pipe.as_mut() {
            let _ = p.read_to_end(&mut b);
        }
        b
    });
    let deadline = Instant::now() + std::time::Duration::from_secs(limit);
    let status = loop {
        if let Some(st) = child.try_wait()? {
            break st;
        }
        if Instant::now() >= deadline {
            // SAFETY: kill(2) on the process group this function created for its own
            // child; no memory is involved.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
            let _ = child.wait();
            let _ = out_reader.join();
            let _ = err_reader.join();
            return Err(TimedOut(limit).into());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Ok(std::process::Output {
        status,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    })
}

/// The command (program first) that runs `exe` for a configuration with `runner`,
/// without the workload's arguments.
fn command_line(
    tools: &Tools,
    runner: Runner,
    exe: &Path,
    callgrind: bool,
) -> Result<Vec<OsString>> {
    let tool_path = |t: Tool| -> Result<OsString> {
        let p = match t {
            Tool::Valgrind => tools.valgrind.as_ref(),
            Tool::Taintprof => tools.taintprof.as_ref(),
        };
        p.map(|p| p.clone().into_os_string())
            .with_context(|| format!("{t:?} not found"))
    };
    let mut argv: Vec<OsString> = Vec::new();
    if callgrind {
        argv.push(tool_path(Tool::Valgrind)?);
        match runner {
            Runner::Direct => {}
            // A valgrind configuration counted by callgrind: callgrind replaces its tool.
            Runner::Under(Tool::Valgrind, extra) => argv.extend(
                extra
                    .iter()
                    .filter(|a| !a.starts_with("--tool="))
                    .map(OsString::from),
            ),
            Runner::Under(t, _) => bail!("{t:?} runs cannot be counted with --callgrind"),
        }
        argv.extend(["--tool=callgrind", "--callgrind-out-file=/dev/null"].map(OsString::from));
    } else if let Runner::Under(t, extra) = runner {
        argv.push(tool_path(t)?);
        argv.extend(extra.iter().map(OsString::from));
    }
    argv.push(exe.as_os_str().to_owned());
    Ok(argv)
}

/// The `Collected : N` figure callgrind prints at exit.
pub fn parse_callgrind(stderr: &str) -> Option<f64> {
    stderr.lines().find_map(|l| {
        let (_, rest) = l.split_once("Collected :")?;
        rest.trim().replace(',', "").parse::<f64>().ok()
    })
}

fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

fn median_of(samples: &[Sample], workload: &str, config: &str) -> Option<f64> {
    let v: Vec<f64> = samples
        .iter()
        .filter(|s| s.workload == workload && s.config == config)
        .map(|s| s.value)
        .collect();
    median(&v)
}

/// The median (mean of the middle two for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The geometric mean of positive values.
pub fn geomean(values: &[f64]) -> f64 {
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

/// `0.412 s` or `1.23 G`.
pub fn format_value(v: f64, unit: &str) -> String {
    if unit == "instructions" {
        if v >= 1e9 {
            format!("{:.2} G", v / 1e9)
        } else if v >= 1e6 {
            format!("{:.1} M", v / 1e6)
        } else {
            format!("{v:.0}")
        }
    } else if v < 10.0 {
        format!("{v:.3} s")
    } else {
        format!("{v:.1} s")
    }
}

fn results_table(
    workloads: &[Workload],
    configs: &[Config],
    cells: &[CellSummary],
    problems: &BTreeMap<(String, String), Problem>,
    geomeans: &BTreeMap<String, f64>,
    unit: &str,
    args_of: &dyn Fn(&Workload) -> Vec<String>,
) -> String {
    let mut aligns = vec![Align::Left, Align::Left];
    let mut head = vec!["workload".to_string(), "args".to_string()];
    for c in configs {
        aligns.push(Align::Right);
        aligns.push(Align::Right);
        head.push(c.name.to_string());
        head.push(String::new());
    }
    let mut t = Table::new(&aligns).header(head);
    for w in workloads {
        let mut row = vec![w.name.to_string(), args_of(w).join(" ")];
        for c in configs {
            let cell = cells
                .iter()
                .find(|x| x.workload == w.name && x.config == c.name);
            match cell {
                Some(CellSummary {
                    median: Some(m),
                    slowdown,
                    ..
                }) => {
                    row.push(format_value(*m, unit));
                    row.push(slowdown.map(|s| format!("{s:.2}×")).unwrap_or_default());
                }
                Some(CellSummary { error: Some(_), .. }) => {
                    row.push(
                        problems
                            .get(&(w.name.to_string(), c.name.to_string()))
                            .map(Problem::cell)
                            .unwrap_or_else(|| "failed".to_string()),
                    );
                    row.push(String::new());
                }
                _ => {
                    row.push("—".to_string());
                    row.push(String::new());
                }
            }
        }
        t.row(row);
    }
    let mut row = vec!["geomean".to_string(), String::new()];
    for c in configs {
        row.push(String::new());
        row.push(
            geomeans
                .get(c.name)
                .map(|g| format!("{g:.2}×"))
                .unwrap_or_else(|| "—".to_string()),
        );
    }
    t.row(row);
    t.render("  ")
}

/// Prints whether all configurations printed the same checksum per workload.
fn check_checksums(samples: &[Sample], workloads: &[Workload]) -> bool {
    let mut ok = true;
    let mut lines = Vec::new();
    for w in workloads {
        let mut by_value: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for s in samples.iter().filter(|s| s.workload == w.name) {
            let v = s
                .checksum
                .clone()
                .unwrap_or_else(|| "(none printed)".to_string());
            let configs = by_value.entry(v).or_default();
            if !configs.contains(&s.config) {
                configs.push(s.config.clone());
            }
        }
        match by_value.len() {
            0 => {}
            1 => {
                let (v, _) = by_value.iter().next().unwrap();
                lines.push(format!("  {:<15} {v}  (all configurations agree)", w.name));
            }
            _ => {
                ok = false;
                lines.push(format!(
                    "  {:<15} MISMATCH: instrumentation changed the result",
                    w.name
                ));
                for (v, cs) in &by_value {
                    lines.push(format!("                  {v}  from {}", cs.join(", ")));
                }
            }
        }
    }
    println!();
    println!("Checksums");
    for l in lines {
        println!("{l}");
    }
    ok
}

/// Shows what the last report of each workload tracked: the parameter-dependent
/// functions with their volumes (version 2 reports) or the loops with their parameters
/// (version 1); false if a report is missing or nothing depends on a parameter. Says so
/// when the report's control-flow setting is not the configuration's.
fn show_taint_reports(dir: &Path, c: &Config, workloads: &[Workload]) -> Result<bool> {
    println!();
    println!(
        "What the {} runs tracked (parameter-dependent functions and loops)",
        c.name
    );
    let mut ok = true;
    let mut t = Table::new(&[Align::Left; 5]);
    let mut notes = Vec::new();
    for w in workloads {
        let rdir = report_dir(dir, c, w);
        let newest = std::fs::read_dir(&rdir)
            .ok()
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| crate::run::parse_report_name(&e.file_name().to_string_lossy()).is_some())
            .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok());
        let Some(entry) = newest else {
            println!("  {}: no report in {}", w.name, rdir.display());
            ok = false;
            continue;
        };
        let r = match report::load(&entry.path()) {
            Ok(r) => r,
            Err(e) => {
                println!("  {}: {e}", w.name);
                ok = false;
                continue;
            }
        };
        if let Some(want) = expected_control_flow(c) {
            if r.options.control_flow != want {
                notes.push(format!(
                    "{} / {}: the report says control-flow tainting was {}, but the configuration asks for {} (does the pass read TAINTPROF_CONTROL_FLOW?)",
                    w.name,
                    c.name,
                    on_off(r.options.control_flow),
                    on_off(want)
                ));
            }
        }
        let s = report::summary::summarize(&r, &entry.path().display().to_string());
        let mut rows = Vec::new();
        for f in s.functions.iter().filter(|f| f.is_relevant()) {
            let file = f.file.rsplit('/').next().unwrap_or(&f.file);
            if let Some(v) = &f.volume {
                rows.push([
                    f.name.clone(),
                    format!("{file}:{}", f.line),
                    report::render::param_set(&f.inclusive_params),
                    v.clone(),
                ]);
                continue;
            }
            for l in f.loops.iter().filter(|l| !l.params.is_empty()) {
                rows.push([
                    f.name.clone(),
                    format!("{file}:{}", l.line),
                    report::render::param_set(&l.params),
                    String::new(),
                ]);
            }
        }
        if rows.is_empty() {
            ok = false;
            t.row([
                w.name.to_string(),
                "no loop depends on a parameter: taint tracking recorded nothing".to_string(),
            ]);
        }
        for (i, [name, at, params, volume]) in rows.into_iter().enumerate() {
            let first = if i == 0 {
                w.name.to_string()
            } else {
                String::new()
            };
            t.row([first, name, at, params, volume]);
        }
    }
    print!("{}", t.render("  "));
    for n in notes {
        println!("  note: {n}");
    }
    Ok(ok)
}

/// Shows what the last denormal report of each workload found (the configuration's
/// proof that it traced): totals, the top site, the busiest array. False if a report
/// is missing or unreadable.
fn show_denormal_reports(dir: &Path, c: &Config, workloads: &[Workload]) -> bool {
    println!();
    println!("What the {} runs found (denormal reports)", c.name);
    let suffix = if c.reports == Reports::Dip {
        crate::denormal::EXCEPTIONS_SUFFIX
    } else {
        crate::denormal::COMPILER_SUFFIX
    };
    let mut ok = true;
    let dip = c.reports == Reports::Dip;
    let mut head = vec![
        "workload",
        if dip { "operand exc." } else { "operands" },
        if dip { "underflow exc." } else { "results" },
        "top site",
    ];
    if !dip {
        head.push("busiest array");
    }
    let mut t = Table::new(&[
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Left,
        Align::Left,
    ])
    .header(head);
    for w in workloads {
        let rdir = report_dir(dir, c, w);
        let newest = std::fs::read_dir(&rdir)
            .ok()
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                crate::denormal::parse_name(&e.file_name().to_string_lossy(), suffix).is_some()
            })
            .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok());
        let Some(entry) = newest else {
            t.row([
                w.name.to_string(),
                String::new(),
                String::new(),
                format!("no report in {}", rdir.display()),
            ]);
            ok = false;
            continue;
        };
        let r = match crate::denormal::load(&entry.path()) {
            Ok(r) => r,
            Err(e) => {
                t.row([w.name.to_string(), String::new(), String::new(), e]);
                ok = false;
                continue;
            }
        };
        let s = crate::denormal::summary::summarize(
            &r,
            &entry.path().display().to_string(),
            &crate::denormal::summary::SummaryOptions { top: Some(1) },
        );
        let top = s
            .functions
            .first()
            .and_then(|f| f.sites.first().map(|x| (f, x)))
            .map(|(f, x)| {
                format!(
                    "{} {} {} ({})",
                    f.function,
                    x.source,
                    x.instruction.clone().unwrap_or_else(|| x.op.clone()),
                    crate::denormal::thousands(x.events)
                )
            })
            .unwrap_or_else(|| "no denormals".into());
        let arr = s
            .arrays
            .first()
            .filter(|a| a.denormal_reads + a.denormal_writes > 0)
            .map(|a| {
                format!(
                    "{}: {} reads, {} writes ({})",
                    a.name,
                    crate::denormal::thousands(a.denormal_reads),
                    crate::denormal::thousands(a.denormal_writes),
                    a.role
                )
            })
            .unwrap_or_default();
        t.row([
            w.name.to_string(),
            crate::denormal::thousands(s.totals.denormal_operands),
            crate::denormal::thousands(s.totals.denormal_results),
            top,
            arr,
        ]);
    }
    print!("{}", t.render("  "));
    ok
}

/// The control-flow setting a configuration builds with, if it says.
fn expected_control_flow(c: &Config) -> Option<bool> {
    c.build.flags.iter().find_map(|f| match *f {
        "--tp-control-flow=on" => Some(true),
        "--tp-control-flow=off" => Some(false),
        _ => None,
    })
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

fn machine() -> Machine {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|l| l.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_default();
    Machine {
        cpu,
        cores: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
    }
}

struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Tools {
        Tools {
            clang: "/usr/bin/clang-19".into(),
            taintprof_cc: None,
            valgrind: Some("/usr/bin/valgrind".into()),
            taintprof: Some("/opt/tp/taintprof".into()),
        }
    }

    fn argv(runner: Runner, callgrind: bool) -> Vec<String> {
        command_line(&tools(), runner, Path::new("/b/prog"), callgrind)
            .unwrap()
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn runners_build_their_command_lines() {
        assert_eq!(argv(Runner::Direct, false), ["/b/prog"]);
        assert_eq!(
            argv(Runner::Under(Tool::Valgrind, &["--tool=none"]), false),
            ["/usr/bin/valgrind", "--tool=none", "/b/prog"]
        );
        assert_eq!(
            argv(Runner::Under(Tool::Taintprof, &["dip", "--"]), false),
            ["/opt/tp/taintprof", "dip", "--", "/b/prog"]
        );
        assert_eq!(
            argv(Runner::Direct, true),
            [
                "/usr/bin/valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                "/b/prog"
            ]
        );
        assert_eq!(
            argv(
                Runner::Under(Tool::Valgrind, &["--tool=none", "--fair-sched=yes"]),
                true
            ),
            [
                "/usr/bin/valgrind",
                "--fair-sched=yes",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                "/b/prog"
            ]
        );
        assert!(command_line(
            &tools(),
            Runner::Under(Tool::Taintprof, &["dip"]),
            Path::new("/b/prog"),
            true
        )
        .is_err());
    }

    #[test]
    fn medians_and_geomeans() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert!((geomean(&[2.0, 8.0]) - 4.0).abs() < 1e-12);
    }

    #[test]
    fn callgrind_summary_line() {
        let err = "==12== Events    : Ir\n==12== Collected : 123,456,789\n==12==\n";
        assert_eq!(parse_callgrind(err), Some(123_456_789.0));
        assert_eq!(parse_callgrind("nothing"), None);
    }

    #[test]
    fn value_formatting() {
        assert_eq!(format_value(0.41234, "seconds"), "0.412 s");
        assert_eq!(format_value(12.34, "seconds"), "12.3 s");
        assert_eq!(format_value(2.5e9, "instructions"), "2.50 G");
        assert_eq!(format_value(3.25e6, "instructions"), "3.2 M");
    }

    #[test]
    fn selection_by_name() {
        let w = select(WORKLOADS, &["matmul".to_string()], |w| w.name, "workload").unwrap();
        assert_eq!(w.len(), 1);
        let e = select(CONFIGS, &["nope".to_string()], |c| c.name, "configuration")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown configuration `nope`") && e.contains("native"),
            "{e}"
        );
    }
}
