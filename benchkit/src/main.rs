//! `taintprof-bench`: the benchmark harness, also run as `taintprof bench` (the
//! `taintprof` command forwards its arguments here). Errors are one line on stderr
//! (`taintprof-bench: error: ...`) and a non-zero exit status.

use clap::Parser;
use std::path::PathBuf;
use taintprof_bench::modeler::{modeler_bench, ModelerOptions};
use taintprof_bench::{bench, BenchOptions};
use taintprof_driver::errln;

/// Measure slowdowns, peak memory and compile times: native vs taintprof (taint
/// tracking with and without control-flow tainting, denormal tracing, time mode) vs
/// DataFlowSanitizer, Valgrind's floor and the exception profiler, side by side,
/// against the performance targets; writes a PNG chart.
///
/// Also run as `taintprof bench`. Needs taintprof-cc, taintprof-c++ and taintprof next
/// to this executable (`make build` puts them there).
///
/// With --modeler: the empirical modeler against Extra-P 4.2.5 instead (generated
/// measurements with known truth; needs Extra-P, which `make setup` installs); exit
/// status 1 when one of its targets is missed.
#[derive(Parser)]
#[command(name = "taintprof-bench", version)]
struct Cli {
    /// Benchmark the empirical modeler (black box and with the taint prior) against
    /// Extra-P 4.2.5 on generated measurements instead (takes --seeds, --first-seed,
    /// --json, --dir, --quick).
    #[arg(long, conflicts_with_all = ["runs", "callgrind", "workloads", "configs", "timeout", "compile_runs", "chart", "no_chart"])]
    modeler: bool,
    /// With --modeler: seeds (each one Extra-P text file with every function) [default:
    /// 20, or 2 with --quick].
    #[arg(long, value_name = "N", requires = "modeler")]
    seeds: Option<usize>,
    /// With --modeler: the first seed [default: 1].
    #[arg(long, value_name = "N", requires = "modeler")]
    first_seed: Option<u64>,
    /// Runs per workload and configuration (medians are reported) [default: 5, or
    /// 1 with --callgrind].
    #[arg(long, value_name = "N")]
    runs: Option<usize>,
    /// Small inputs and one compile per build: a smoke test in a minute or two.
    #[arg(long)]
    quick: bool,
    /// Count instructions with valgrind --tool=callgrind (smaller inputs) instead of
    /// timing.
    #[arg(long)]
    callgrind: bool,
    /// Write every run's figures to FILE as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Only this workload (repeatable): jacobi, jacobi-denormal, matmul, cg, nbody,
    /// accessors, omp_stencil, mpi_stencil (2 ranks under mpirun.openmpi; needs
    /// openmpi-bin and libopenmpi-dev).
    #[arg(long = "workload", value_name = "NAME")]
    workloads: Vec<String>,
    /// Only this configuration (repeatable): native, taint, taint-nocf, dfsan,
    /// denormal, denormal-profile, time, valgrind-none, dip (sampled), dip-exact. The native baseline
    /// always runs. Default: all (dip-exact skips jacobi-denormal unless named here: it
    /// traps on every denormal; mpi_stencil skips valgrind-none, dip and dip-exact
    /// unless named here, and dfsan always).
    #[arg(long = "config", value_name = "NAME")]
    configs: Vec<String>,
    /// Give up on a run after this many seconds and show "timed out" for its
    /// configuration (default: per configuration; dip and dip-exact 300 s, valgrind-none 600 s,
    /// the others none).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<u64>,
    /// Build in DIR and keep the binaries and reports (default: a temporary
    /// directory, removed afterwards).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Compiles per workload and build for the compile-time table (median) [default:
    /// 3, or 1 with --quick; 0 skips compile times].
    #[arg(long, value_name = "N")]
    compile_runs: Option<usize>,
    /// Write the bar chart (PNG) to FILE [default: next to --json, else bench.png in
    /// --dir, else in the current directory].
    #[arg(long, value_name = "FILE", conflicts_with = "no_chart")]
    chart: Option<PathBuf>,
    /// Write no chart.
    #[arg(long)]
    no_chart: bool,
}

fn main() {
    let cli = Cli::parse();
    let result = if cli.modeler {
        modeler_bench(&ModelerOptions {
            seeds: cli.seeds.unwrap_or(if cli.quick { 2 } else { 20 }),
            first_seed: cli.first_seed.unwrap_or(1),
            json: cli.json,
            dir: cli.dir,
            threads: None,
        })
    } else {
        bench(&BenchOptions {
            runs: cli.runs,
            quick: cli.quick,
            callgrind: cli.callgrind,
            json: cli.json,
            workloads: cli.workloads,
            configs: cli.configs,
            timeout: cli.timeout,
            dir: cli.dir,
            compile_runs: cli.compile_runs,
            chart: cli.chart,
            no_chart: cli.no_chart,
        })
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            errln!("taintprof-bench: error: {e:#}");
            std::process::exit(1);
        }
    }
}
