//! # taintprof-bench
//!
//! `taintprof bench`: what taint tracking and denormal tracing cost, side by side with a
//! native build, DataFlowSanitizer, Valgrind's floor and the exception profiler, in one
//! run.
//!
//! The harness is its own binary, `taintprof-bench` (`src/main.rs`), kept out of the
//! user-facing `taintprof`; `taintprof bench ARGS` runs the `taintprof-bench` next to
//! it with the same arguments. It finds `taintprof-cc`, `taintprof-c++`, `taintprof`,
//! the plugin and the runtime next to its own executable, and shares the driver's code
//! (the [`taintprof_driver`] library) for locating tools, reading reports and drawing.
//!
//! 1. Build every workload in every configuration once ([`catalog`] lists both).
//! 2. Time compiling each workload with plain `clang-19 -O2` and with the plugin (taint
//!    and denormal mode), round-robin, `--compile-runs` times (median).
//! 3. Run round-robin: in each round, every workload once in every configuration (in
//!    an order shuffled per round and workload, [`run_order`]), so slow drifts of the
//!    machine hit all configurations alike and no configuration always runs right after
//!    the same one (after `valgrind-none` the kernel is still reclaiming its memory,
//!    which cost the next run up to 15% when the order only rotated). Each run's wall-clock time and peak resident memory (the
//!    child's `ru_maxrss`, [`process`]) are recorded.
//! 4. Take medians ([`stats`]), print workload × configuration (median and slowdown
//!    against `native`), the peak memory (and its ratio to native), the compile times,
//!    the geometric means, and the targets: met or missed.
//! 5. Check that every configuration printed the same checksum (instrumentation must
//!    not change results) and show what the taint and denormal runs found.
//! 6. Write the PNG bar chart ([`chart`]) and, with `--json`, every figure.
//!
//! `--modeler` runs another benchmark instead: the empirical modeler (`taintprof-fit`)
//! against Extra-P 4.2.5 on generated measurements with known truth ([`modeler`]).
//!
//! `--callgrind` counts instructions with `valgrind --tool=callgrind` on smaller inputs
//! instead of timing (stable figures, one run by default; no memory figures).
//!
//! An MPI workload ([`Workload::mpi_ranks`]) is built with Open MPI's compile and link
//! flags (`mpicc.openmpi --showme:compile`, `--showme:link`) by every configuration's
//! compiler, and every configuration runs under `mpirun` ([`catalog::mpirun_args`]),
//! the native baseline too: its times are the whole `mpirun`'s (start-up included), its
//! peak memory the largest process's (a rank or `mpirun`), its instruction count the
//! ranks' sum. Every rank writes a record; the taint configurations' report is the
//! last run's records merged into one (the parameters then include the process count
//! `p`).
//!
//! A configuration that cannot be measured does not stop the others: a failed build,
//! a failed run, a run stopped at its time limit (`--timeout`, or the configuration's
//! own: `dip-exact` traps on every denormal instruction and may take minutes), a
//! configuration that does not apply (`dip` under `--callgrind`, a missing `valgrind`,
//! `dfsan` on the MPI workload) and one a workload leaves out of the default set
//! (`dip-exact` on `jacobi-denormal`) each get their own cell (`build failed`, `failed`, `timed out`, `n/a`, `skipped`) and a line saying
//! why. Missed targets do not change the exit status (timings are noisy); failures and
//! checksum mismatches do.

pub mod catalog;
pub mod chart;
pub mod modeler;
pub mod process;
pub mod stats;

use anyhow::{bail, Context, Result};
use catalog::{
    Build, Compiler, Config, Reports, Runner, Tool, Workload, BASELINE, COMPILE_TIMED, CONFIGS,
    PLAIN_BUILD, SUPPORT_FILES, WORKLOADS,
};
pub use process::TimedOut;
use serde::Serialize;
pub use stats::{geomean, median, Sample};
use stats::{CellSummary, CompileSample, CompileTimes, Geomean, Target};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use taintprof_driver::denormal;
use taintprof_driver::locate::{Lang, Locator};
use taintprof_driver::report;
use taintprof_driver::table::{Align, Table};

/// What to measure.
#[derive(Debug, Clone, Default)]
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
    /// Compiles per workload and build for the compile times (default 3, 1 with
    /// `--quick`; 0: no compile times).
    pub compile_runs: Option<usize>,
    /// Where to write the PNG chart (default: next to `--json`, else `bench.png` in
    /// `--dir`, else in the current directory).
    pub chart: Option<PathBuf>,
    /// Write no chart.
    pub no_chart: bool,
}

/// Why a cell has no figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    BuildFailed(String),
    Failed(String),
    TimedOut(u64),
    NotApplicable(String),
    /// Left out of the default set for this workload (runs when asked for by name).
    Skipped(String),
}

impl Problem {
    /// The table cell.
    pub fn cell(&self) -> String {
        match self {
            Problem::BuildFailed(_) => "build failed".into(),
            Problem::Failed(_) => "failed".into(),
            Problem::TimedOut(s) => format!("timed out (>{s} s)"),
            Problem::NotApplicable(_) => "n/a".into(),
            Problem::Skipped(_) => "skipped".into(),
        }
    }

    /// The `status` key of the JSON summary.
    pub fn status(&self) -> &'static str {
        match self {
            Problem::BuildFailed(_) => "build failed",
            Problem::Failed(_) => "failed",
            Problem::TimedOut(_) => "timed out",
            Problem::NotApplicable(_) => "not applicable",
            Problem::Skipped(_) => "skipped",
        }
    }

    /// Whether the bench should fail because of it.
    pub fn is_failure(&self) -> bool {
        matches!(self, Problem::BuildFailed(_) | Problem::Failed(_))
    }

    pub fn message(&self) -> String {
        match self {
            Problem::BuildFailed(m)
            | Problem::Failed(m)
            | Problem::NotApplicable(m)
            | Problem::Skipped(m) => m.clone(),
            Problem::TimedOut(s) => {
                format!("stopped after {s} s (--timeout SECONDS sets the limit)")
            }
        }
    }
}

/// Everything a run measured, as written by `--json`.
#[derive(Debug, Serialize)]
pub struct JsonOut<'a> {
    /// `seconds` or `instructions`.
    pub unit: &'a str,
    pub runs: usize,
    pub quick: bool,
    pub callgrind: bool,
    pub command: String,
    pub machine: Machine,
    pub configs: Vec<JsonConfig>,
    pub workloads: Vec<JsonWorkload>,
    pub samples: &'a [Sample],
    pub summary: &'a [CellSummary],
    /// Configuration → geometric mean of its slowdowns (over the workloads it has
    /// figures for; `geomeans` says which).
    pub geomean_slowdown: BTreeMap<String, f64>,
    pub geomeans: JsonGeomeans<'a>,
    /// Compile times (`null` with `--compile-runs 0`).
    pub compile: Option<&'a CompileTimes>,
    pub memory_constant_mib: f64,
    pub targets: &'a [Target],
    pub checksums_agree: bool,
    /// The PNG chart written, if any.
    pub chart: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct JsonGeomeans<'a> {
    pub slowdown: &'a [Geomean],
    pub memory_ratio: &'a [Geomean],
}

#[derive(Debug, Serialize)]
pub struct JsonConfig {
    pub name: String,
    pub about: String,
}

#[derive(Debug, Serialize)]
pub struct JsonWorkload {
    pub name: String,
    pub about: String,
    pub args: Vec<String>,
    pub language: &'static str,
    pub denormals: bool,
    /// MPI processes the workload runs on (under `mpirun`), if it is an MPI program.
    pub mpi_ranks: Option<usize>,
}

/// The machine a run was taken on.
#[derive(Debug, Clone, Serialize)]
pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub memory_mib: u64,
    pub kernel: String,
    pub clang: String,
    /// 1-, 5- and 15-minute load averages when the bench started (a busy machine makes
    /// noisy timings).
    pub load_average: String,
}

/// The cell key: (workload, configuration).
type Key = (String, String);

fn key(w: &str, c: &str) -> Key {
    (w.to_string(), c.to_string())
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
    let compile_runs = opts.compile_runs.unwrap_or(if opts.quick { 1 } else { 3 });
    let unit = if opts.callgrind {
        "instructions"
    } else {
        "seconds"
    };

    let locator = Locator::from_process();
    let need_mpi = workloads.iter().any(|w| w.mpi_ranks.is_some());
    let tools = Tools::find(&locator, opts.callgrind, need_mpi)?;
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
    for (name, text) in SUPPORT_FILES {
        std::fs::write(src.join(name), text)?;
    }
    for w in &workloads {
        std::fs::write(src.join(w.file), w.source)?;
    }
    let machine = machine(&tools.clang);
    eprintln!(
        "taintprof bench: {} ({} cores, {} MiB), {}, load average {}",
        machine.cpu, machine.cores, machine.memory_mib, machine.clang, machine.load_average
    );
    let spawn = process::Spawn::build(&tools.clang, &dir.join("tools"));
    if let Some(why) = &spawn.why_direct {
        eprintln!("taintprof bench: starting programs directly (peak memory includes the bench's own at the fork): {why}");
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
    let mut errors: BTreeMap<Key, Problem> = BTreeMap::new();
    for c in &configs {
        let explicit = opts.configs.iter().any(|n| n == c.name);
        for w in &workloads {
            let k = key(w.name, c.name);
            if let Some(why) = w.not_applicable_to(c.name) {
                errors.insert(k, Problem::NotApplicable(why.to_string()));
            } else if let Some(why) = not_applicable(&tools, c, opts.callgrind) {
                errors.insert(k, Problem::NotApplicable(why));
            } else if let Some(why) = w.skipped_by_default(c.name).filter(|_| !explicit) {
                errors.insert(k, Problem::Skipped(why.to_string()));
            }
        }
    }
    for b in &builds {
        for w in &workloads {
            let users: Vec<&Config> = configs.iter().filter(|c| c.build.id == b.id).collect();
            if users
                .iter()
                .all(|c| errors.contains_key(&key(w.name, c.name)))
            {
                // No configuration runs this binary (not applicable, skipped).
                continue;
            }
            match build(&tools, b, w, &src, &binary(&dir, b, w)) {
                Ok(s) => eprintln!("  built {:<13} {:<15} in {s:.1} s", b.id, w.name),
                Err(e) => {
                    let msg = format!("{e:#}");
                    eprintln!("  build {} / {} failed", b.id, w.name);
                    for c in users {
                        errors
                            .entry(key(w.name, c.name))
                            .or_insert_with(|| Problem::BuildFailed(msg.clone()));
                    }
                }
            }
        }
    }

    // 2. Compile times.
    let compile = if compile_runs == 0 {
        None
    } else {
        let timed: Vec<(&str, Build)> = std::iter::once(("plain", PLAIN_BUILD))
            .chain(
                configs
                    .iter()
                    .filter(|c| COMPILE_TIMED.contains(&c.name))
                    .map(|c| (c.name, c.build)),
            )
            .collect();
        (timed.len() > 1)
            .then(|| compile_times(&tools, &timed, &workloads, &src, &dir, compile_runs))
    };

    // 3. Run round-robin.
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
    // The records each MPI taint cell's last successful run wrote (one per rank).
    let mut last_records: BTreeMap<Key, Vec<PathBuf>> = BTreeMap::new();
    eprintln!(
        "taintprof bench: {runs} round(s); each round runs every workload once in every configuration"
    );
    for round in 0..runs {
        for (wi, w) in workloads.iter().enumerate() {
            let mut line = format!("  round {}/{runs}  {:<15}", round + 1, w.name);
            for i in run_order(configs.len(), round, wi) {
                let c = &configs[i];
                let k = key(w.name, c.name);
                if errors.contains_key(&k) {
                    continue;
                }
                let reports = report_dir(&dir, c, w);
                let merged = w.mpi_ranks.is_some() && c.reports == Reports::Taint;
                let before = merged.then(|| record_files(&reports));
                match run_once(
                    &tools,
                    &spawn,
                    &dir.join("tools")
                        .join(format!("figures.{}.{}", c.name, w.name)),
                    c,
                    w,
                    &binary(&dir, &c.build, w),
                    &args_of(w),
                    &reports,
                    opts.callgrind,
                    opts.timeout.or(c.timeout),
                ) {
                    Ok(m) => {
                        if let Some(before) = &before {
                            last_records
                                .insert(k.clone(), new_files(before, &record_files(&reports)));
                        }
                        line.push_str(&format!("  {} {}", c.name, format_value(m.value, unit)));
                        samples.push(Sample {
                            workload: w.name.to_string(),
                            config: c.name.to_string(),
                            round: round + 1,
                            value: m.value,
                            checksum: m.checksum,
                            peak_rss_kib: m.usage.map(|u| u.max_rss_kib),
                            cpu_seconds: m.usage.map(|u| u.cpu_seconds),
                        });
                    }
                    Err(e) => {
                        let p = match e.downcast_ref::<TimedOut>() {
                            Some(t) => Problem::TimedOut(t.0),
                            None => Problem::Failed(format!("{e:#}")),
                        };
                        line.push_str(&format!("  {} {}", c.name, p.cell()));
                        errors.insert(k, p);
                    }
                }
            }
            eprintln!("{line}");
        }
    }

    // 4. Medians, ratios, geometric means, targets.
    let wnames: Vec<&str> = workloads.iter().map(|w| w.name).collect();
    let cnames: Vec<&str> = configs.iter().map(|c| c.name).collect();
    let cells = stats::summarize(&wnames, &cnames, &samples, &errors);
    let slow_g = stats::geomeans(&cells, &cnames, wnames.len(), |c| c.slowdown);
    let mem_g = stats::geomeans(&cells, &cnames, wnames.len(), |c| c.memory_ratio);
    let targets = stats::targets(&cells, &workloads, compile.as_ref());

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
        results_table(&workloads, &configs, &cells, &errors, &slow_g, unit)
    );
    if slow_g.iter().any(|g| g.partial) {
        println!("  * over the workloads the configuration has figures for (see Not measured)");
    }
    if !opts.callgrind {
        println!();
        println!(
            "Peak resident memory (MiB, median; the process's ru_maxrss, shadow memory included), ratio vs {BASELINE}"
        );
        print!(
            "{}",
            memory_table(&workloads, &configs, &cells, &errors, &mem_g)
        );
        if configs
            .iter()
            .any(|c| matches!(c.runner, Runner::Under(..)))
        {
            println!("  valgrind-none and dip: the tool's process (valgrind holds the program; dip: the larger of the driver and the program)");
        }
        if workloads.iter().any(|w| w.mpi_ranks.is_some()) {
            println!("  MPI workloads: the largest process (a rank or mpirun), not the ranks' sum");
        }
        if let Some(why) = &spawn.why_direct {
            println!("  note: programs were started directly, so every figure includes the bench's own memory at the fork ({why})");
        }
    }
    if let Some(ct) = &compile {
        println!();
        println!(
            "Compile time (compile + link, wall clock), median of {} compile{}; ratio vs clang-19 -O2",
            ct.runs,
            if ct.runs == 1 { "" } else { "s" }
        );
        print!("{}", compile_table(&workloads, ct));
    }
    println!();
    println!(
        "Targets (geometric means over the suite; missed targets do not fail the bench{})",
        if opts.quick {
            "; --quick inputs are too small for these figures"
        } else {
            ""
        }
    );
    print!("{}", targets_table(&targets));

    println!();
    println!("Configurations");
    let mut t = Table::new(&[Align::Left, Align::Left]);
    for c in &configs {
        t.row([c.name.to_string(), c.about.to_string()]);
    }
    print!("{}", t.render("  "));
    println!("Workloads");
    let mut t = Table::new(&[Align::Left, Align::Left, Align::Left]);
    for w in &workloads {
        let mut args = args_of(w).join(" ");
        if let Some(n) = w.mpi_ranks {
            args = format!("{args} ({n} ranks)");
        }
        t.row([w.name.to_string(), args, w.about.to_string()]);
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

    // 5. Checksums and reports.
    let agree = check_checksums(&samples, &workloads);
    if !agree {
        status = 1;
    }
    for c in configs.iter().filter(|c| c.reports == Reports::Taint) {
        let measured: Vec<Workload> = workloads
            .iter()
            .filter(|w| !errors.contains_key(&key(w.name, c.name)))
            .copied()
            .collect();
        if measured.is_empty() {
            continue;
        }
        if !show_taint_reports(&dir, c, &measured, &last_records)? {
            status = 1;
        }
    }
    for c in configs
        .iter()
        .filter(|c| matches!(c.reports, Reports::Denormal | Reports::Dip))
    {
        let measured: Vec<Workload> = workloads
            .iter()
            .filter(|w| !errors.contains_key(&key(w.name, c.name)))
            .copied()
            .collect();
        if measured.is_empty() {
            continue;
        }
        if !show_denormal_reports(&dir, c, &measured) {
            status = 1;
        }
    }

    // 6. Chart and JSON.
    println!();
    let chart_path = if opts.no_chart {
        None
    } else {
        Some(
            opts.chart
                .clone()
                .unwrap_or_else(|| match (&opts.json, &opts.dir) {
                    (Some(j), _) => j.with_extension("png"),
                    (None, Some(d)) => d.join("bench.png"),
                    (None, None) => PathBuf::from("bench.png"),
                }),
        )
    };
    if let Some(path) = &chart_path {
        let what = if opts.callgrind {
            "instructions"
        } else {
            "slowdown"
        };
        let (cv, _) = draw_chart(
            &format!("taintprof bench: {what} vs native"),
            &format!(
                "median of {runs} run{} per bar, log scale{}; {}",
                if runs == 1 { "" } else { "s" },
                if opts.quick { ", --quick inputs" } else { "" },
                machine.cpu
            ),
            &workloads,
            &configs,
            &cells,
            &slow_g,
        );
        cv.save(path).map_err(anyhow::Error::msg)?;
        println!("Chart: {}", path.display());
    }
    if let Some(path) = &opts.json {
        let out = JsonOut {
            unit,
            runs,
            quick: opts.quick,
            callgrind: opts.callgrind,
            command: std::env::args().collect::<Vec<_>>().join(" "),
            machine: machine.clone(),
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
                    language: match w.lang {
                        Lang::C => "c",
                        Lang::Cxx => "c++",
                    },
                    denormals: w.denormals,
                    mpi_ranks: w.mpi_ranks,
                })
                .collect(),
            samples: &samples,
            summary: &cells,
            geomean_slowdown: slow_g.iter().map(|g| (g.config.clone(), g.value)).collect(),
            geomeans: JsonGeomeans {
                slowdown: &slow_g,
                memory_ratio: &mem_g,
            },
            compile: compile.as_ref(),
            memory_constant_mib: stats::MEMORY_CONSTANT_MIB,
            targets: &targets,
            checksums_agree: agree,
            chart: chart_path.as_ref().map(|p| p.display().to_string()),
        };
        let text = serde_json::to_string_pretty(&out)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("Every run's figures: {}", path.display());
    }
    if !temporary {
        println!("Binaries and reports kept in {}", dir.display());
    }
    Ok(status)
}

/// The external programs the configurations need; a missing optional one is the
/// reason shown in the cells that need it.
struct Tools {
    clang: PathBuf,
    clangxx: Result<PathBuf, String>,
    taintprof_cc: Result<PathBuf, String>,
    taintprof_cxx: Result<PathBuf, String>,
    valgrind: Result<PathBuf, String>,
    taintprof: Result<PathBuf, String>,
    /// Open MPI, looked for only when an MPI workload is selected (its error is then
    /// the MPI workload's build error).
    mpi: Result<Mpi, String>,
}

/// Open MPI: its launcher and the flags its compiler wrapper adds.
#[derive(Debug, Clone)]
struct Mpi {
    mpirun: PathBuf,
    /// `mpicc.openmpi --showme:compile`.
    compile: Vec<String>,
    /// `mpicc.openmpi --showme:link`.
    link: Vec<String>,
}

impl Mpi {
    fn find(locator: &Locator) -> Result<Mpi, String> {
        let install = format!(
            "install Open MPI with: apt-get install {}",
            catalog::MPI_PACKAGES
        );
        let on_path = |name: &str| {
            locator.search_path(name).ok_or_else(|| {
                format!("{name} not found on PATH (needed by the MPI workloads); {install}")
            })
        };
        let mpicc = on_path(catalog::MPICC)?;
        let mpirun = on_path(catalog::MPIRUN)?;
        let showme = |what: &str| -> Result<Vec<String>, String> {
            let out = Command::new(&mpicc)
                .arg(format!("--showme:{what}"))
                .stdin(Stdio::null())
                .output()
                .map_err(|e| format!("cannot run {}: {e}; {install}", mpicc.display()))?;
            if !out.status.success() {
                return Err(format!(
                    "{} --showme:{what} failed ({}): {}; {install}",
                    mpicc.display(),
                    taintprof_driver::exit_code(out.status),
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
            Ok(String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .map(str::to_string)
                .collect())
        };
        let compile = showme("compile")?;
        let link = showme("link")?;
        if !link.iter().any(|f| f.starts_with("-lmpi")) {
            return Err(format!(
                "{} --showme:link names no MPI library (-lmpi): {}",
                mpicc.display(),
                link.join(" ")
            ));
        }
        Ok(Mpi {
            mpirun,
            compile,
            link,
        })
    }
}

impl Tools {
    fn find(locator: &Locator, callgrind: bool, need_mpi: bool) -> Result<Tools> {
        let clang = locator.clang(Lang::C).map_err(|e| anyhow::anyhow!("{e}"))?;
        let clangxx = locator.clang(Lang::Cxx).map_err(|e| e.to_string());
        let next_to_us = |names: &[&str], what: &str| -> Result<PathBuf, String> {
            locator
                .exe_dir()
                .and_then(|d| names.iter().map(|n| d.join(n)).find(|p| p.is_file()))
                .ok_or_else(|| {
                    format!("{what} not found next to the taintprof-bench executable; build it with `make build`")
                })
        };
        let valgrind = locator.search_path("valgrind").ok_or_else(|| {
            "valgrind not found on PATH; install it with: apt-get install valgrind".to_string()
        });
        if callgrind {
            if let Err(e) = &valgrind {
                bail!("--callgrind needs valgrind: {e}");
            }
        }
        Ok(Tools {
            clang,
            clangxx,
            taintprof_cc: next_to_us(&["taintprof-cc"], "taintprof-cc"),
            taintprof_cxx: next_to_us(&["taintprof-c++", "taintprof-cxx"], "taintprof-c++"),
            valgrind,
            taintprof: next_to_us(&["taintprof"], "taintprof"),
            mpi: if need_mpi {
                Mpi::find(locator)
            } else {
                Err("no MPI workload selected".into())
            },
        })
    }

    fn compiler(&self, c: Compiler, lang: Lang) -> Result<PathBuf, String> {
        match (c, lang) {
            (Compiler::Clang, Lang::C) => Ok(self.clang.clone()),
            (Compiler::Clang, Lang::Cxx) => self.clangxx.clone(),
            (Compiler::TaintprofCc, Lang::C) => self.taintprof_cc.clone(),
            (Compiler::TaintprofCc, Lang::Cxx) => self.taintprof_cxx.clone(),
        }
    }

    fn tool(&self, t: Tool) -> Result<&PathBuf, &String> {
        match t {
            Tool::Valgrind => self.valgrind.as_ref(),
            Tool::Taintprof => self.taintprof.as_ref(),
        }
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
    let mut out: Vec<T> = Vec::new();
    for w in wanted {
        match all.iter().find(|x| name(x) == w) {
            Some(x) => {
                if !out.iter().any(|o| name(o) == w) {
                    out.push(*x);
                }
            }
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

/// The command line that builds `w` with `b` into `out` (compiler first).
fn build_command(
    tools: &Tools,
    b: &Build,
    w: &Workload,
    src: &Path,
    out: &Path,
) -> Result<Vec<OsString>, String> {
    let compiler = tools.compiler(b.compiler, w.lang)?;
    let mpi = match w.mpi_ranks {
        Some(_) => Some(tools.mpi.as_ref().map_err(String::clone)?),
        None => None,
    };
    let mut argv: Vec<OsString> = vec![compiler.into_os_string()];
    argv.extend(b.flags.iter().map(|f| catalog::expand_flag(f, src).into()));
    if let Some(d) = b.define {
        argv.push(format!("-D{d}").into());
    }
    argv.extend(w.flags.iter().map(OsString::from));
    if let Some(m) = mpi {
        argv.extend(m.compile.iter().map(OsString::from));
    }
    argv.push(format!("-I{}", src.display()).into());
    argv.push(src.join(w.file).into_os_string());
    argv.push("-o".into());
    argv.push(out.as_os_str().to_owned());
    argv.extend(w.libs.iter().map(OsString::from));
    // `-lmpi` on the link line: taintprof-cc links its MPI interception library.
    if let Some(m) = mpi {
        argv.extend(m.link.iter().map(OsString::from));
    }
    Ok(argv)
}

/// Builds one workload; the seconds it took.
fn build(tools: &Tools, b: &Build, w: &Workload, src: &Path, out: &Path) -> Result<f64> {
    std::fs::create_dir_all(out.parent().unwrap())?;
    let argv = build_command(tools, b, w, src, out)
        .map_err(|e| anyhow::anyhow!("cannot build {} for {}: {e}", w.name, b.id))?;
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        // The build's sidecars go next to the binary, not into the user's directory.
        .current_dir(out.parent().unwrap())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let f = process::run_measured(&mut cmd, None)
        .with_context(|| format!("cannot run {}", Path::new(&argv[0]).display()))?;
    if !f.status.success() {
        let mut hint = b.hint.to_string();
        if w.flags.contains(&"-fopenmp") {
            hint.push_str("; OpenMP needs libomp: apt-get install libomp-19-dev");
        }
        if w.mpi_ranks.is_some() {
            hint.push_str(&format!(
                "; MPI programs need Open MPI: apt-get install {}",
                catalog::MPI_PACKAGES
            ));
        }
        bail!(
            "building {} for {} failed ({hint}):\n{}\n{}",
            w.name,
            b.id,
            taintprof_driver::cc::display_command(
                Path::new(&argv[0]),
                &[],
                &argv[1..]
                    .iter()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
            ),
            tail(&String::from_utf8_lossy(&f.stderr), 20)
        );
    }
    Ok(f.seconds)
}

/// Compiles every workload `runs` times with each of `timed` (the baseline first),
/// round-robin with the order rotating, into `dir/compile/`.
fn compile_times(
    tools: &Tools,
    timed: &[(&str, Build)],
    workloads: &[Workload],
    src: &Path,
    dir: &Path,
    runs: usize,
) -> CompileTimes {
    eprintln!(
        "taintprof bench: timing compiles ({} with {}), {runs} round(s)",
        timed[0].0,
        timed[1..]
            .iter()
            .map(|t| t.0)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut samples = Vec::new();
    let mut errors: BTreeMap<Key, String> = BTreeMap::new();
    for round in 0..runs {
        for w in workloads {
            let mut line = format!("  compile {}/{runs}  {:<15}", round + 1, w.name);
            for i in 0..timed.len() {
                let (name, b) = &timed[(i + round) % timed.len()];
                let k = key(w.name, name);
                if errors.contains_key(&k) {
                    continue;
                }
                let out = dir.join("compile").join(name).join(w.name);
                match build(tools, b, w, src, &out) {
                    Ok(s) => {
                        line.push_str(&format!("  {name} {s:.2} s"));
                        samples.push(CompileSample {
                            workload: w.name.to_string(),
                            build: name.to_string(),
                            round: round + 1,
                            seconds: s,
                        });
                    }
                    Err(e) => {
                        line.push_str(&format!("  {name} failed"));
                        errors.insert(k, format!("{e:#}"));
                    }
                }
            }
            eprintln!("{line}");
        }
    }
    let names: Vec<&str> = timed.iter().map(|t| t.0).collect();
    let wnames: Vec<&str> = workloads.iter().map(|w| w.name).collect();
    CompileTimes::new(runs, timed[0].0, &names, &wnames, samples, &errors)
}

/// Why a configuration cannot be measured in this mode or on this machine, if it
/// cannot.
fn not_applicable(tools: &Tools, c: &Config, callgrind: bool) -> Option<String> {
    match c.runner {
        Runner::Under(Tool::Taintprof, _) if callgrind => Some(format!(
            "{} runs under taintprof, whose traps callgrind cannot count",
            c.name
        )),
        Runner::Under(t, _) => tools.tool(t).err().cloned(),
        Runner::Direct => None,
    }
}

/// One run's figures.
struct Measured {
    /// Seconds or instructions.
    value: f64,
    checksum: Option<String>,
    /// The process's resources (timed runs only: under callgrind they are valgrind's).
    usage: Option<process::Usage>,
}

/// Runs one program once (through `spawn`, which writes its figures to `figures`).
/// With a time limit, a run that exceeds it is killed (its whole process group:
/// `taintprof dip` and the program it runs) and the error is [`TimedOut`].
#[allow(clippy::too_many_arguments)]
fn run_once(
    tools: &Tools,
    spawn: &process::Spawn,
    figures: &Path,
    c: &Config,
    w: &Workload,
    exe: &Path,
    args: &[String],
    reports: &Path,
    callgrind: bool,
    timeout: Option<u64>,
) -> Result<Measured> {
    std::fs::create_dir_all(reports)?;
    let mut argv = command_line(tools, c.runner, exe, callgrind, w.mpi_ranks)?;
    argv.extend(args.iter().map(OsString::from));
    let mpi_env = if w.mpi_ranks.is_some() {
        catalog::MPI_ENV
    } else {
        &[]
    };
    let f = process::run_spawned(
        spawn,
        &argv,
        |cmd| {
            // mpirun passes its environment on to the ranks it starts.
            cmd.env(taintprof_abi::ENV_OUT_DIR, reports)
                .env("TAINTPROF_QUIET", "1")
                .envs(mpi_env.iter().copied())
                .envs(w.env.iter().copied())
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
        },
        figures,
        timeout,
    )
    .with_context(|| format!("cannot run {}", exe.display()))?;
    let stdout = String::from_utf8_lossy(&f.stdout);
    let stderr = String::from_utf8_lossy(&f.stderr);
    if !f.status.success() {
        bail!(
            "{} exited with status {}: {}",
            exe.display(),
            taintprof_driver::exit_code(f.status),
            tail(&stderr, 5)
        );
    }
    let checksum = stdout
        .lines()
        .find_map(|l| l.strip_prefix("checksum "))
        .map(|s| s.trim().to_string());
    if callgrind {
        let value = parse_callgrind(&stderr).with_context(|| {
            format!(
                "no instruction count in callgrind's output: {}",
                tail(&stderr, 5)
            )
        })?;
        Ok(Measured {
            value,
            checksum,
            usage: None,
        })
    } else {
        Ok(Measured {
            value: f.seconds,
            checksum,
            usage: Some(f.usage),
        })
    }
}

/// The command (program first) that runs `exe` for a configuration with `runner`,
/// without the workload's arguments. An MPI workload (`mpi_ranks`) runs the whole of
/// it on each of its ranks under `mpirun` (`mpirun ... valgrind --tool=none exe`).
fn command_line(
    tools: &Tools,
    runner: Runner,
    exe: &Path,
    callgrind: bool,
    mpi_ranks: Option<usize>,
) -> Result<Vec<OsString>> {
    let tool_path = |t: Tool| -> Result<OsString> {
        tools
            .tool(t)
            .map(|p| p.clone().into_os_string())
            .map_err(|e| anyhow::anyhow!("{e}"))
    };
    let mut argv: Vec<OsString> = Vec::new();
    if let Some(ranks) = mpi_ranks {
        let mpi = tools.mpi.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?;
        argv.push(mpi.mpirun.clone().into_os_string());
        argv.extend(catalog::mpirun_args(ranks).into_iter().map(OsString::from));
    }
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

/// The `Collected : N` figure callgrind prints at exit; summed if there are several
/// (one per rank of an MPI workload, each under its own callgrind).
pub fn parse_callgrind(stderr: &str) -> Option<f64> {
    let counts: Vec<f64> = stderr
        .lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once("Collected :")?;
            rest.trim().replace(',', "").parse::<f64>().ok()
        })
        .collect();
    (!counts.is_empty()).then(|| counts.iter().sum())
}

fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
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

/// `3.10×` (with `*` when the geometric mean is over fewer workloads than the suite).
fn format_geomean(g: Option<&Geomean>) -> String {
    match g {
        Some(g) => format!("{:.2}×{}", g.value, if g.partial { "*" } else { "" }),
        None => "—".to_string(),
    }
}

/// A cell's figure as text and its ratio to the baseline.
type Figure<'a> = dyn Fn(&CellSummary) -> Option<(String, Option<f64>)> + 'a;

/// The two cells of a workload × configuration: figure and ratio, or the problem.
fn cell_pair(
    cell: Option<&CellSummary>,
    problem: Option<&Problem>,
    figure: impl Fn(&CellSummary) -> Option<(String, Option<f64>)>,
) -> [String; 2] {
    if let Some(p) = problem {
        return [p.cell(), String::new()];
    }
    match cell.and_then(figure) {
        Some((v, r)) => [v, r.map(|r| format!("{r:.2}×")).unwrap_or_default()],
        None => ["—".to_string(), String::new()],
    }
}

fn grid_table(
    workloads: &[Workload],
    configs: &[Config],
    cells: &[CellSummary],
    problems: &BTreeMap<Key, Problem>,
    geomeans: &[Geomean],
    figure: &Figure<'_>,
) -> String {
    let mut aligns = vec![Align::Left];
    let mut head = vec!["workload".to_string()];
    for c in configs {
        aligns.push(Align::Right);
        aligns.push(Align::Right);
        head.push(c.name.to_string());
        head.push(String::new());
    }
    let mut t = Table::new(&aligns).header(head);
    for w in workloads {
        let mut row = vec![w.name.to_string()];
        for c in configs {
            let cell = cells
                .iter()
                .find(|x| x.workload == w.name && x.config == c.name);
            row.extend(cell_pair(cell, problems.get(&key(w.name, c.name)), figure));
        }
        t.row(row);
    }
    let mut row = vec!["geomean".to_string()];
    for c in configs {
        row.push(String::new());
        row.push(format_geomean(geomeans.iter().find(|g| g.config == c.name)));
    }
    t.row(row);
    t.render("  ")
}

fn results_table(
    workloads: &[Workload],
    configs: &[Config],
    cells: &[CellSummary],
    problems: &BTreeMap<Key, Problem>,
    geomeans: &[Geomean],
    unit: &str,
) -> String {
    grid_table(workloads, configs, cells, problems, geomeans, &|c| {
        c.median.map(|m| (format_value(m, unit), c.slowdown))
    })
}

fn memory_table(
    workloads: &[Workload],
    configs: &[Config],
    cells: &[CellSummary],
    problems: &BTreeMap<Key, Problem>,
    geomeans: &[Geomean],
) -> String {
    grid_table(workloads, configs, cells, problems, geomeans, &|c| {
        c.peak_rss_mib.map(|m| (format!("{m:.1}"), c.memory_ratio))
    })
}

fn compile_table(workloads: &[Workload], ct: &CompileTimes) -> String {
    let mut aligns = vec![Align::Left];
    let mut head = vec!["workload".to_string()];
    for b in &ct.builds {
        aligns.push(Align::Right);
        head.push(if *b == ct.baseline {
            "clang-19 -O2".to_string()
        } else {
            b.clone()
        });
        if *b != ct.baseline {
            aligns.push(Align::Right);
            head.push(String::new());
        }
    }
    let mut t = Table::new(&aligns).header(head);
    for w in workloads {
        let mut row = vec![w.name.to_string()];
        for b in &ct.builds {
            let c = ct
                .cells
                .iter()
                .find(|c| c.workload == w.name && c.build == *b);
            let (v, r) = match c {
                Some(c) if c.error.is_some() => ("build failed".to_string(), String::new()),
                Some(c) => (
                    c.median
                        .map(|m| format!("{m:.2} s"))
                        .unwrap_or_else(|| "—".into()),
                    c.ratio.map(|r| format!("{r:.2}×")).unwrap_or_default(),
                ),
                None => ("—".into(), String::new()),
            };
            row.push(v);
            if *b != ct.baseline {
                row.push(r);
            }
        }
        t.row(row);
    }
    let mut row = vec!["geomean".to_string()];
    for b in &ct.builds {
        row.push(String::new());
        if *b != ct.baseline {
            row.push(format_geomean(
                ct.geomean_ratio.iter().find(|g| g.config == *b),
            ));
        }
    }
    t.row(row);
    t.render("  ")
}

fn targets_table(targets: &[Target]) -> String {
    let mut t = Table::new(&[Align::Left, Align::Left, Align::Left]);
    let mut notes = Vec::new();
    for how in targets.iter().filter_map(|x| x.how.as_ref()) {
        let line = format!("  {how}");
        if !notes.contains(&line) {
            notes.push(line);
        }
    }
    for x in targets {
        let result = match x.met {
            Some(true) => "met",
            Some(false) => "MISSED",
            None => "not measured",
        };
        t.row([x.goal.clone(), x.detail.clone(), result.to_string()]);
        if let Some(n) = &x.note {
            notes.push(format!("  {}: {n}", x.id));
        }
    }
    let mut s = t.render("  ");
    for n in notes {
        s.push_str(&n);
        s.push('\n');
    }
    s
}

/// The chart of slowdowns: a group per workload, a bar per configuration, and the
/// geometric means as the last group. Returns it and the bars drawn.
fn draw_chart(
    title: &str,
    subtitle: &str,
    workloads: &[Workload],
    configs: &[Config],
    cells: &[CellSummary],
    geomeans: &[Geomean],
) -> (denormal::image::Canvas, Vec<chart::Bar>) {
    let series: Vec<chart::Series> = configs
        .iter()
        .enumerate()
        .map(|(i, c)| chart::Series {
            name: c.name.to_string(),
            color: chart::color_of(c.name, i),
        })
        .collect();
    let mut groups: Vec<chart::Group> = workloads
        .iter()
        .map(|w| chart::Group {
            label: w.name.to_string(),
            values: configs
                .iter()
                .map(|c| {
                    cells
                        .iter()
                        .find(|x| x.workload == w.name && x.config == c.name)
                        .and_then(|x| x.slowdown)
                })
                .collect(),
        })
        .collect();
    groups.push(chart::Group {
        label: "geomean".to_string(),
        values: configs
            .iter()
            .map(|c| {
                geomeans
                    .iter()
                    .find(|g| g.config == c.name)
                    .map(|g| g.value)
            })
            .collect(),
    });
    chart::slowdown_chart(title, subtitle, &series, &groups)
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

/// Rows per workload in the table of what the taint runs tracked.
const MAX_REPORT_ROWS: usize = 5;

/// `name` cut to `max` characters with `…` (C++ signatures are long).
fn clip_name(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        name.to_string()
    } else {
        let mut s: String = name.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}

/// Shows what the last report of each workload tracked: the parameter-dependent
/// functions with their volumes (version 2 reports) or the loops with their parameters
/// (version 1); false if a report is missing or nothing depends on a parameter. Says so
/// when the report's control-flow setting is not the configuration's. An MPI workload's
/// report is the records of its last run (`last_records`, one per rank) merged; a note
/// names them and the merged report's parameters.
fn show_taint_reports(
    dir: &Path,
    c: &Config,
    workloads: &[Workload],
    last_records: &BTreeMap<Key, Vec<PathBuf>>,
) -> Result<bool> {
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
        let (loaded, shown) = if let Some(ranks) = w.mpi_ranks {
            let records = last_records
                .get(&key(w.name, c.name))
                .cloned()
                .unwrap_or_default();
            if records.is_empty() {
                println!("  {}: no record in {}", w.name, rdir.display());
                ok = false;
                continue;
            }
            if records.len() != ranks {
                ok = false;
                notes.push(format!(
                    "{} / {}: the last run on {ranks} ranks wrote {} record(s)",
                    w.name,
                    c.name,
                    records.len()
                ));
            }
            let shown = records
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" ");
            (report::load_records(&records), shown)
        } else {
            let Some(path) = last_taint_report(&rdir) else {
                println!("  {}: no report in {}", w.name, rdir.display());
                ok = false;
                continue;
            };
            (report::load(&path), path.display().to_string())
        };
        let r = match loaded {
            Ok(r) => r,
            Err(e) => {
                println!("  {}: {e}", w.name);
                ok = false;
                continue;
            }
        };
        if let Some(ranks) = w.mpi_ranks {
            notes.push(format!(
                "{} / {}: the records of the last run's {ranks} ranks merged (taintprof report {shown}): parameters {}",
                w.name,
                c.name,
                r.parameters.join(", ")
            ));
        }
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
        let s = report::summary::summarize(&r, &shown);
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
        let more = rows.len().saturating_sub(MAX_REPORT_ROWS);
        for (i, [name, at, params, volume]) in rows.into_iter().take(MAX_REPORT_ROWS).enumerate() {
            let first = if i == 0 {
                w.name.to_string()
            } else {
                String::new()
            };
            t.row([first, clip_name(&name, 60), at, params, volume]);
        }
        if more > 0 {
            t.row([
                String::new(),
                format!("(and {more} more: taintprof report {shown})"),
            ]);
        }
    }
    print!("{}", t.render("  "));
    for n in notes {
        println!("  note: {n}");
    }
    Ok(ok)
}

/// The taint report of the last run whose files are in `dir`: its JSON report, or its
/// raw run record (`.taintprof.rec`, which `report::load` analyses) when the runtime
/// wrote no JSON. The last run's files are the newest: a record and the JSON report of
/// the same name written right before or after it (nothing else between) are one run's.
fn last_taint_report(dir: &Path) -> Option<PathBuf> {
    use taintprof_driver::run::{parse_record_name, parse_report_name, report_path_of_record};
    let mut files: Vec<(Option<std::time::SystemTime>, PathBuf)> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            parse_report_name(&name).is_some() || parse_record_name(&name).is_some()
        })
        .map(|e| (e.metadata().and_then(|m| m.modified()).ok(), e.path()))
        .collect();
    files.sort();
    let (_, newest) = files.pop()?;
    let Some(json) = report_path_of_record(&newest) else {
        return Some(newest);
    };
    match files.pop() {
        Some((_, before)) if before == json => Some(json),
        _ => Some(newest),
    }
}

/// The raw run records in `dir` and when each was last written.
fn record_files(dir: &Path) -> BTreeMap<PathBuf, Option<std::time::SystemTime>> {
    use taintprof_driver::run::parse_record_name;
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| parse_record_name(&e.file_name().to_string_lossy()).is_some())
        .map(|e| (e.path(), e.metadata().and_then(|m| m.modified()).ok()))
        .collect()
}

/// The files of `after` that are not in `before`, or were written again since (a run's
/// records, from listings before and after it; sorted).
fn new_files(
    before: &BTreeMap<PathBuf, Option<std::time::SystemTime>>,
    after: &BTreeMap<PathBuf, Option<std::time::SystemTime>>,
) -> Vec<PathBuf> {
    after
        .iter()
        .filter(|(p, t)| before.get(*p) != Some(t))
        .map(|(p, _)| p.clone())
        .collect()
}

/// Shows what the last denormal report of each workload found (the configuration's
/// proof that it traced): totals, the top site, the busiest array. False if a report
/// is missing or unreadable.
fn show_denormal_reports(dir: &Path, c: &Config, workloads: &[Workload]) -> bool {
    println!();
    println!("What the {} runs found (denormal reports)", c.name);
    // Compiler mode: the denormal record the runtime writes (analysed by `load`).
    let suffix = if c.reports == Reports::Dip {
        denormal::EXCEPTIONS_SUFFIX
    } else {
        denormal::RECORD_SUFFIX
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
            .filter(|e| denormal::parse_name(&e.file_name().to_string_lossy(), suffix).is_some())
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
        let r = match denormal::load(&entry.path()) {
            Ok(r) => r,
            Err(e) => {
                t.row([w.name.to_string(), String::new(), String::new(), e]);
                ok = false;
                continue;
            }
        };
        let s = denormal::summary::summarize(
            &r,
            &entry.path().display().to_string(),
            &denormal::summary::SummaryOptions { top: Some(1) },
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
                    denormal::thousands(x.events)
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
                    denormal::thousands(a.denormal_reads),
                    denormal::thousands(a.denormal_writes),
                    a.role
                )
            })
            .unwrap_or_default();
        t.row([
            w.name.to_string(),
            denormal::thousands(s.totals.denormal_operands),
            denormal::thousands(s.totals.denormal_results),
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

fn machine(clang: &Path) -> Machine {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|l| l.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_default();
    let memory_mib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|l| l.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map(|k| k / 1024)
        .unwrap_or(0);
    let first_line = |s: String| s.lines().next().unwrap_or("").trim().to_string();
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(first_line)
        .unwrap_or_default();
    let load_average = std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    let clang = Command::new(clang)
        .arg("--version")
        .output()
        .ok()
        .map(|o| first_line(String::from_utf8_lossy(&o.stdout).into_owned()))
        .unwrap_or_default();
    Machine {
        cpu,
        cores: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        memory_mib,
        kernel,
        clang,
        load_average,
    }
}

struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The order in which round `round` runs the `n` configurations of workload `w`: a
/// permutation shuffled deterministically (Fisher–Yates driven by a fixed xorshift
/// seeded with the round and the workload), so reruns of the bench run in the same order.
fn run_order(n: usize, round: usize, w: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ ((round as u64) << 32) ^ (w as u64 + 1);
    for i in (1..n).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let j = (x % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    #[test]
    fn run_orders_are_permutations_that_vary_the_predecessors() {
        let mut predecessors = std::collections::BTreeSet::new();
        for round in 0..5 {
            let o = super::run_order(7, round, 0);
            let mut sorted = o.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..7).collect::<Vec<_>>());
            assert_eq!(o, super::run_order(7, round, 0), "deterministic");
            let p = o.iter().position(|&c| c == 6).unwrap();
            predecessors.insert(if p == 0 { None } else { Some(o[p - 1]) });
        }
        assert!(predecessors.len() >= 3, "{predecessors:?}");
    }

    use super::*;

    #[test]
    fn the_last_runs_report_is_its_json_or_its_record() {
        use std::time::{Duration, SystemTime};
        let dir = std::env::temp_dir().join(format!("taintprof-bench-last-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let t0 = SystemTime::now() - Duration::from_secs(100);
        let put = |name: &str, secs: u64| {
            let p = dir.join(name);
            std::fs::write(&p, "x").unwrap();
            let f = std::fs::File::options().write(true).open(&p).unwrap();
            f.set_modified(t0 + Duration::from_secs(secs)).unwrap();
            p
        };
        assert_eq!(last_taint_report(&dir), None);
        // An older run: report and record.
        put("w.1.taintprof.json", 1);
        put("w.1.taintprof.rec", 2);
        assert_eq!(
            last_taint_report(&dir),
            Some(dir.join("w.1.taintprof.json"))
        );
        // The runtime wrote only the record.
        put("w.2.taintprof.rec", 3);
        assert_eq!(last_taint_report(&dir), Some(dir.join("w.2.taintprof.rec")));
        // A stale report of the same name from before does not stand for the record.
        put("w.3.taintprof.json", 4);
        put("w.2.taintprof.rec", 5);
        assert_eq!(last_taint_report(&dir), Some(dir.join("w.2.taintprof.rec")));
        // Both, written at the same time.
        put("w.4.taintprof.json", 6);
        put("w.4.taintprof.rec", 6);
        assert_eq!(
            last_taint_report(&dir),
            Some(dir.join("w.4.taintprof.json"))
        );
        put("w.5.taintprof.json", 7);
        assert_eq!(
            last_taint_report(&dir),
            Some(dir.join("w.5.taintprof.json"))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn tools() -> Tools {
        Tools {
            clang: "/usr/bin/clang-19".into(),
            clangxx: Ok("/usr/bin/clang++-19".into()),
            taintprof_cc: Ok("/opt/tp/taintprof-cc".into()),
            taintprof_cxx: Ok("/opt/tp/taintprof-c++".into()),
            valgrind: Ok("/usr/bin/valgrind".into()),
            taintprof: Ok("/opt/tp/taintprof".into()),
            mpi: Ok(Mpi {
                mpirun: "/usr/bin/mpirun.openmpi".into(),
                compile: vec!["-I/usr/lib/openmpi/include".into()],
                link: vec!["-L/usr/lib/openmpi/lib".into(), "-lmpi".into()],
            }),
        }
    }

    fn strings(v: Vec<OsString>) -> Vec<String> {
        v.into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    fn argv(runner: Runner, callgrind: bool) -> Vec<String> {
        strings(command_line(&tools(), runner, Path::new("/b/prog"), callgrind, None).unwrap())
    }

    fn config(name: &str) -> Config {
        *CONFIGS.iter().find(|c| c.name == name).unwrap()
    }

    fn workload(name: &str) -> Workload {
        *WORKLOADS.iter().find(|w| w.name == name).unwrap()
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
            true,
            None
        )
        .is_err());
    }

    #[test]
    fn mpi_workloads_run_every_configuration_under_mpirun() {
        let w = workload("mpi_stencil");
        assert_eq!(w.mpi_ranks, Some(2));
        let mpi = |runner: Runner, callgrind: bool| {
            strings(
                command_line(
                    &tools(),
                    runner,
                    Path::new("/b/prog"),
                    callgrind,
                    w.mpi_ranks,
                )
                .unwrap(),
            )
        };
        let mpirun = [
            "/usr/bin/mpirun.openmpi",
            "--oversubscribe",
            "--allow-run-as-root",
            "-np",
            "2",
        ];
        let with = |rest: &[&str]| -> Vec<String> {
            mpirun.iter().chain(rest).map(|s| s.to_string()).collect()
        };
        // The native baseline runs under mpirun too, like every other configuration.
        for c in ["native", "taint", "taint-nocf", "denormal"] {
            assert_eq!(mpi(config(c).runner, false), with(&["/b/prog"]), "{c}");
        }
        // A tool runs on every rank, under mpirun.
        assert_eq!(
            mpi(config("valgrind-none").runner, false),
            with(&["/usr/bin/valgrind", "--tool=none", "/b/prog"])
        );
        assert_eq!(
            mpi(config("dip").runner, false),
            with(&["/opt/tp/taintprof", "dip", "--", "/b/prog"])
        );
        assert_eq!(
            mpi(Runner::Direct, true),
            with(&[
                "/usr/bin/valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                "/b/prog"
            ])
        );
        // Root may run the ranks (flag and environment).
        for v in ["OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] {
            assert!(catalog::MPI_ENV.contains(&(v, "1")), "{v}");
        }
        // Without Open MPI the command is an error naming the packages.
        let mut t = tools();
        let no_mpi = Locator::new(|v| (v == "PATH").then(|| "/nonexistent".into()), None, None);
        t.mpi = Mpi::find(&no_mpi);
        let e = command_line(&t, Runner::Direct, Path::new("/b/prog"), false, Some(2))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("mpicc.openmpi") && e.contains("apt-get install openmpi-bin libopenmpi-dev"),
            "{e}"
        );
        // Non-MPI workloads are not affected.
        assert_eq!(
            strings(command_line(&t, Runner::Direct, Path::new("/b/prog"), false, None).unwrap()),
            ["/b/prog"]
        );
    }

    #[test]
    fn mpi_workloads_build_with_the_mpi_flags_in_every_configuration() {
        let w = workload("mpi_stencil");
        for b in CONFIGS
            .iter()
            .map(|c| c.build)
            .chain(std::iter::once(PLAIN_BUILD))
        {
            let a =
                strings(build_command(&tools(), &b, &w, Path::new("/s"), Path::new("/o")).unwrap());
            let pos = |f: &str| {
                a.iter()
                    .position(|x| x == f)
                    .unwrap_or_else(|| panic!("{f}: {a:?}"))
            };
            // Compile flags before the source, link flags after it (so -lmpi follows the
            // object that needs it, and taintprof-cc sees an MPI link).
            assert!(
                pos("-I/usr/lib/openmpi/include") < pos("/s/mpi_stencil.c"),
                "{a:?}"
            );
            assert!(
                pos("/s/mpi_stencil.c") < pos("-L/usr/lib/openmpi/lib"),
                "{a:?}"
            );
            assert_eq!(a.last().unwrap(), "-lmpi");
        }
        // Other workloads get no MPI flags.
        let a = strings(
            build_command(
                &tools(),
                &catalog::NATIVE_BUILD,
                &workload("jacobi"),
                Path::new("/s"),
                Path::new("/o"),
            )
            .unwrap(),
        );
        assert!(!a.iter().any(|x| x.contains("mpi")), "{a:?}");
        // Without Open MPI the MPI workload's build fails, naming what to install.
        let mut t = tools();
        t.mpi = Err("mpicc.openmpi not found on PATH (needed by the MPI workloads); install Open MPI with: apt-get install openmpi-bin libopenmpi-dev".into());
        let e = build_command(
            &t,
            &config("taint").build,
            &w,
            Path::new("/s"),
            Path::new("/o"),
        )
        .unwrap_err();
        assert!(
            e.contains("apt-get install openmpi-bin libopenmpi-dev"),
            "{e}"
        );
        assert!(build_command(
            &t,
            &config("taint").build,
            &workload("cg"),
            Path::new("/s"),
            Path::new("/o")
        )
        .is_ok());
    }

    #[test]
    fn a_runs_records_are_the_files_it_wrote() {
        use std::time::{Duration, SystemTime};
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1000);
        let at = |entries: &[(&str, u64)]| -> BTreeMap<PathBuf, Option<SystemTime>> {
            entries
                .iter()
                .map(|(n, s)| (PathBuf::from(n), Some(t0 + Duration::from_secs(*s))))
                .collect()
        };
        let before = at(&[("w.1.taintprof.rec", 1), ("w.2.taintprof.rec", 1)]);
        // Two ranks wrote records; one of them reused an old name (pid reuse).
        let after = at(&[
            ("w.1.taintprof.rec", 1),
            ("w.2.taintprof.rec", 5),
            ("w.7.taintprof.rec", 5),
        ]);
        assert_eq!(
            new_files(&before, &after),
            [
                PathBuf::from("w.2.taintprof.rec"),
                PathBuf::from("w.7.taintprof.rec")
            ]
        );
        assert!(new_files(&after, &after).is_empty());
    }

    #[test]
    fn every_workload_has_a_build_recipe_in_every_configuration() {
        let src = Path::new("/b/src");
        for w in WORKLOADS {
            for b in CONFIGS
                .iter()
                .map(|c| c.build)
                .chain(std::iter::once(PLAIN_BUILD))
            {
                let a =
                    strings(build_command(&tools(), &b, w, src, Path::new("/b/out/prog")).unwrap());
                let compiler = a[0].rsplit('/').next().unwrap().to_string();
                let want = match (b.compiler, w.lang) {
                    (Compiler::Clang, Lang::C) => "clang-19",
                    (Compiler::Clang, Lang::Cxx) => "clang++-19",
                    (Compiler::TaintprofCc, Lang::C) => "taintprof-cc",
                    (Compiler::TaintprofCc, Lang::Cxx) => "taintprof-c++",
                };
                assert_eq!(compiler, want, "{} / {}", w.name, b.id);
                assert!(a.contains(&"-O2".to_string()), "{a:?}");
                assert!(a.contains(&format!("/b/src/{}", w.file)), "{a:?}");
                assert!(a.contains(&"-I/b/src".to_string()), "{a:?}");
                for f in w.flags.iter().chain(w.libs) {
                    assert!(a.contains(&f.to_string()), "{} / {}: {f}", w.name, b.id);
                }
                if let Some(d) = b.define {
                    assert!(a.contains(&format!("-D{d}")));
                }
                // No placeholder is left; DFSan gets the ABI list written next to the
                // sources.
                assert!(a.iter().all(|x| !x.contains("{src}")), "{a:?}");
                if b.id == "dfsan" {
                    assert!(a.contains(&"-fsanitize-ignorelist=/b/src/dfsan_abilist.txt".into()));
                }
            }
        }
        // The abilist is among the files written, and declares the runtimes the C++ and
        // OpenMP workloads call.
        assert!(SUPPORT_FILES.iter().any(|(n, _)| *n == "dfsan_abilist.txt"));
        for f in ["fun:_Znwm=uninstrumented", "fun:__kmpc_*=uninstrumented"] {
            assert!(catalog::DFSAN_ABILIST.1.contains(f), "{f}");
        }
    }

    #[test]
    fn a_missing_compiler_is_the_builds_error() {
        let mut t = tools();
        t.taintprof_cxx = Err("taintprof-c++ not found".into());
        let e = build_command(
            &t,
            &config("taint").build,
            &workload("accessors"),
            Path::new("/s"),
            Path::new("/o"),
        )
        .unwrap_err();
        assert!(e.contains("taintprof-c++ not found"));
        // C workloads are not affected.
        assert!(build_command(
            &t,
            &config("taint").build,
            &workload("cg"),
            Path::new("/s"),
            Path::new("/o")
        )
        .is_ok());
    }

    #[test]
    fn missing_tools_and_callgrind_make_cells_not_applicable() {
        let mut t = tools();
        assert_eq!(not_applicable(&t, &config("valgrind-none"), false), None);
        assert!(not_applicable(&t, &config("dip"), true)
            .unwrap()
            .contains("callgrind"));
        t.valgrind =
            Err("valgrind not found on PATH; install it with: apt-get install valgrind".into());
        assert!(not_applicable(&t, &config("valgrind-none"), false)
            .unwrap()
            .contains("apt-get install valgrind"));
        assert_eq!(not_applicable(&t, &config("taint"), false), None);
    }

    #[test]
    fn callgrind_summary_line() {
        let err = "==12== Events    : Ir\n==12== Collected : 123,456,789\n==12==\n";
        assert_eq!(parse_callgrind(err), Some(123_456_789.0));
        assert_eq!(parse_callgrind("nothing"), None);
        // Under mpirun every rank has its own callgrind: the ranks' sum.
        let two = "==12== Collected : 1,000\n==13== Collected : 234\n";
        assert_eq!(parse_callgrind(two), Some(1234.0));
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
        // Repeats are ignored.
        let c = select(
            CONFIGS,
            &["taint".to_string(), "taint".to_string()],
            |c| c.name,
            "configuration",
        )
        .unwrap();
        assert_eq!(c.len(), 1);
        let e = select(CONFIGS, &["nope".to_string()], |c| c.name, "configuration")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown configuration `nope`") && e.contains("native"),
            "{e}"
        );
    }

    /// A synthetic run: three workloads, four configurations, one of them failed.
    fn synthetic() -> (
        Vec<Workload>,
        Vec<Config>,
        Vec<CellSummary>,
        BTreeMap<Key, Problem>,
    ) {
        let ws: Vec<Workload> = ["jacobi", "cg", "omp_stencil"]
            .iter()
            .map(|n| workload(n))
            .collect();
        let cs: Vec<Config> = ["native", "taint", "dfsan", "denormal"]
            .iter()
            .map(|n| config(n))
            .collect();
        let mut samples = Vec::new();
        for (i, w) in ws.iter().enumerate() {
            for (j, c) in cs.iter().enumerate() {
                samples.push(Sample {
                    workload: w.name.into(),
                    config: c.name.into(),
                    round: 1,
                    value: 0.5 * (1.0 + j as f64 * (i + 1) as f64),
                    checksum: Some("1".into()),
                    peak_rss_kib: Some(10240 * (1 + j as u64)),
                    cpu_seconds: Some(0.5),
                });
            }
        }
        let mut p = BTreeMap::new();
        p.insert(
            key("omp_stencil", "dfsan"),
            Problem::BuildFailed("no libomp".into()),
        );
        let cells = stats::summarize(
            &ws.iter().map(|w| w.name).collect::<Vec<_>>(),
            &cs.iter().map(|c| c.name).collect::<Vec<_>>(),
            &samples,
            &p,
        );
        (ws, cs, cells, p)
    }

    #[test]
    fn tables_show_figures_problems_and_partial_geomeans() {
        let (ws, cs, cells, p) = synthetic();
        let names: Vec<&str> = cs.iter().map(|c| c.name).collect();
        let g = stats::geomeans(&cells, &names, ws.len(), |c| c.slowdown);
        let t = results_table(&ws, &cs, &cells, &p, &g, "seconds");
        assert!(t.contains("build failed"), "{t}");
        assert!(t.contains("2.00×"), "{t}");
        // dfsan's geomean is over two of three workloads: marked.
        let dfsan = g.iter().find(|g| g.config == "dfsan").unwrap();
        assert!(dfsan.partial);
        assert!(t.contains(&format!("{:.2}×*", dfsan.value)), "{t}");
        let m = stats::geomeans(&cells, &names, ws.len(), |c| c.memory_ratio);
        let t = memory_table(&ws, &cs, &cells, &p, &m);
        assert!(
            t.contains("10.0") && t.contains("20.0") && t.contains("2.00×"),
            "{t}"
        );
    }

    #[test]
    fn targets_are_printed_with_their_result() {
        let (ws, _, cells, _) = synthetic();
        let targets = stats::targets(&cells, &ws, None);
        let t = targets_table(&targets);
        assert!(t.contains("taint slowdown ≤ ½ × dfsan slowdown"), "{t}");
        assert!(t.contains("MISSED") || t.contains("met"), "{t}");
        assert!(t.contains("not measured"), "{t}");
        assert!(t.contains("64 MiB"), "{t}");
    }

    #[test]
    fn json_has_every_section() {
        let (ws, cs, cells, _) = synthetic();
        let names: Vec<&str> = cs.iter().map(|c| c.name).collect();
        let g = stats::geomeans(&cells, &names, ws.len(), |c| c.slowdown);
        let m = stats::geomeans(&cells, &names, ws.len(), |c| c.memory_ratio);
        let compile = CompileTimes::new(
            3,
            "plain",
            &["plain", "taint"],
            &["jacobi"],
            vec![
                CompileSample {
                    workload: "jacobi".into(),
                    build: "plain".into(),
                    round: 1,
                    seconds: 0.1,
                },
                CompileSample {
                    workload: "jacobi".into(),
                    build: "taint".into(),
                    round: 1,
                    seconds: 0.15,
                },
            ],
            &BTreeMap::new(),
        );
        let targets = stats::targets(&cells, &ws, Some(&compile));
        let out = JsonOut {
            unit: "seconds",
            runs: 1,
            quick: true,
            callgrind: false,
            command: "taintprof bench".into(),
            machine: machine(Path::new("/nonexistent/clang")),
            configs: vec![],
            workloads: vec![],
            samples: &[],
            summary: &cells,
            geomean_slowdown: g.iter().map(|x| (x.config.clone(), x.value)).collect(),
            geomeans: JsonGeomeans {
                slowdown: &g,
                memory_ratio: &m,
            },
            compile: Some(&compile),
            memory_constant_mib: stats::MEMORY_CONSTANT_MIB,
            targets: &targets,
            checksums_agree: true,
            chart: Some("bench.png".into()),
        };
        let v: serde_json::Value = serde_json::to_value(&out).unwrap();
        for k in [
            "unit",
            "runs",
            "machine",
            "samples",
            "summary",
            "geomean_slowdown",
            "geomeans",
            "compile",
            "memory_constant_mib",
            "targets",
            "checksums_agree",
            "chart",
        ] {
            assert!(v.get(k).is_some(), "{k}");
        }
        let cell = &v["summary"][1];
        for k in [
            "median",
            "slowdown",
            "peak_rss_mib",
            "memory_ratio",
            "status",
        ] {
            assert!(cell.get(k).is_some(), "{k}: {cell}");
        }
        assert_eq!(v["compile"]["geomean_ratio"][0]["config"], "taint");
        assert!((v["compile"]["geomean_ratio"][0]["value"].as_f64().unwrap() - 1.5).abs() < 1e-9);
        let t = v["targets"].as_array().unwrap();
        assert_eq!(t.len(), 8);
        let ct = t.iter().find(|x| x["id"] == "compile-taint").unwrap();
        assert_eq!(ct["met"], true);
        for k in [
            "goal",
            "measured",
            "limit",
            "detail",
            "workloads",
            "met",
            "note",
            "how",
        ] {
            assert!(ct.get(k).is_some(), "{k}");
        }
        assert!(v["geomeans"]["slowdown"][2]["partial"].as_bool().unwrap());
        assert!(v["machine"]["cpu"].is_string());
    }

    #[test]
    fn chart_png_has_a_bar_per_figure() {
        let (ws, cs, cells, _) = synthetic();
        let names: Vec<&str> = cs.iter().map(|c| c.name).collect();
        let g = stats::geomeans(&cells, &names, ws.len(), |c| c.slowdown);
        let (cv, bars) = draw_chart("title", "subtitle", &ws, &cs, &cells, &g);
        let bytes = cv.png().unwrap();
        let mut r = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (cv.w, cv.h));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        // 4 groups (3 workloads + geomean) of 4 bars fit side by side.
        assert!(info.width >= 4 * 4 * 12 && info.height >= 340, "{info:?}");
        let pixel = |x: u32, y: u32| -> [u8; 3] {
            let i = (y as usize * info.line_size) + 3 * x as usize;
            [buf[i], buf[i + 1], buf[i + 2]]
        };

        // A bar per figure: every (workload, configuration) cell and every geomean,
        // except omp_stencil under dfsan, which failed to build.
        assert_eq!(bars.len(), 4 * 4 - 1);
        assert!(
            !bars.iter().any(|b| b.group < ws.len()
                && ws[b.group].name == "omp_stencil"
                && cs[b.series].name == "dfsan"),
            "{bars:?}"
        );
        // Each bar shows its cell's slowdown (the last group: the geomeans).
        for b in &bars {
            let want = if b.group < ws.len() {
                cells
                    .iter()
                    .find(|x| x.workload == ws[b.group].name && x.config == cs[b.series].name)
                    .and_then(|x| x.slowdown)
                    .unwrap()
            } else {
                g.iter()
                    .find(|x| x.config == cs[b.series].name)
                    .unwrap()
                    .value
            };
            assert_eq!(b.value, want, "{b:?}");
        }
        // In the decoded PNG every bar is drawn in its configuration's color, from the
        // axis up.
        let bg = denormal::image::WHITE;
        for b in &bars {
            assert!(b.rect.w >= 12 && b.rect.h > 0, "{b:?}");
            assert!(b.rect.x + b.rect.w <= info.width && b.rect.y + b.rect.h <= info.height);
            let color = chart::color_of(cs[b.series].name, b.series);
            assert_ne!(color, bg);
            for y in b.rect.y..b.rect.y + b.rect.h {
                for x in b.rect.x..b.rect.x + b.rect.w {
                    assert_eq!(pixel(x, y), color, "({x}, {y}) of {b:?}");
                }
            }
        }
        // Taller bar, larger slowdown, within a group.
        let jac: Vec<&chart::Bar> = bars.iter().filter(|b| b.group == 0).collect();
        assert_eq!(jac.len(), 4);
        assert!(jac
            .windows(2)
            .all(|p| p[0].value < p[1].value && p[0].rect.h < p[1].rect.h));
    }
}
