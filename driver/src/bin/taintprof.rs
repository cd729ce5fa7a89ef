//! `taintprof`: run instrumented programs, read their reports, benchmark the overhead.
//!
//! Subcommands: `run`, `report`, `bench` (see `taintprof help`). Errors are one line on
//! stderr (`taintprof: error: ...`) and a non-zero exit status.

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::path::PathBuf;
use taintprof_driver::{bench, report, run};

/// Which input parameters control which loops: run a program built with
/// taintprof-cc / taintprof-c++, then read its report.
#[derive(Parser)]
#[command(name = "taintprof", version, propagate_version = true)]
#[command(
    after_help = "Build with:  taintprof-cc -O2 app.c -o app   (or CC=taintprof-cc make)\n\
Then:        taintprof run -- ./app ARGS"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run an instrumented program and summarize the report(s) it writes.
    ///
    /// Exits with the program's status (128 + signal number if a signal killed it).
    Run {
        /// Directory for the reports (TAINTPROF_OUT); default: the working directory.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// The program and its arguments.
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "PROG ARGS"
        )]
        command: Vec<OsString>,
    },
    /// Print a report: per-parameter table, loops by function, constant functions.
    Report {
        /// Report files (<program>.<pid>.taintprof.json).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print the same summary as normalized JSON (stable keys, for scripts): one
        /// object for one file, an array of objects for several.
        #[arg(long)]
        json: bool,
    },
    /// Measure slowdowns: native vs taintprof vs DataFlowSanitizer, side by side.
    Bench {
        /// Runs per workload and configuration (medians are reported) [default: 5, or
        /// 1 with --callgrind].
        #[arg(long, value_name = "N")]
        runs: Option<usize>,
        /// Small inputs: a smoke test in seconds.
        #[arg(long)]
        quick: bool,
        /// Count instructions with valgrind --tool=callgrind (smaller inputs) instead of
        /// timing.
        #[arg(long)]
        callgrind: bool,
        /// Write every run's figures to FILE as JSON.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Only this workload (repeatable): jacobi, matmul.
        #[arg(long = "workload", value_name = "NAME")]
        workloads: Vec<String>,
        /// Only this configuration (repeatable): native, taint, dfsan. The native
        /// baseline always runs.
        #[arg(long = "config", value_name = "NAME")]
        configs: Vec<String>,
        /// Build in DIR and keep the binaries and reports (default: a temporary
        /// directory, removed afterwards).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Run { out, command } => {
            let (prog, args) = command.split_first().expect("clap requires a program");
            run::run(out.as_deref(), prog, args)
        }
        Cmd::Report { files, json } => print_reports(&files, json),
        Cmd::Bench {
            runs,
            quick,
            callgrind,
            json,
            workloads,
            configs,
            dir,
        } => bench::bench(&bench::BenchOptions {
            runs,
            quick,
            callgrind,
            json,
            workloads,
            configs,
            dir,
        }),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("taintprof: error: {e:#}");
            std::process::exit(1);
        }
    }
}

/// Prints each report (text or JSON); a file that cannot be read is reported and the
/// others are still printed. Fails if any file failed.
fn print_reports(files: &[PathBuf], json: bool) -> anyhow::Result<i32> {
    let mut summaries = Vec::new();
    let mut failed = 0;
    for file in files {
        match report::load(file) {
            Ok(r) => summaries.push(report::summary::summarize(&r, &file.display().to_string())),
            Err(e) if files.len() == 1 => return Err(e.into()),
            // `taintprof report app.*.taintprof.json` also matches the sidecar app.o....
            Err(report::LoadError::Sidecar(_)) => eprintln!(
                "taintprof: skipped {}: a compile-time sidecar, not a run report",
                file.display()
            ),
            Err(e) => {
                eprintln!("taintprof: error: {e}");
                failed += 1;
            }
        }
    }
    let text = if json {
        if files.len() == 1 {
            serde_json::to_string_pretty(&summaries[0])? + "\n"
        } else {
            serde_json::to_string_pretty(&summaries)? + "\n"
        }
    } else {
        summaries
            .iter()
            .map(report::render::full)
            .collect::<Vec<_>>()
            .join("\n")
    };
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth a message.
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e.into()),
    }
    Ok(if failed > 0 { 1 } else { 0 })
}
