//! `taintprof`: run instrumented programs, read their reports, benchmark the overhead.
//!
//! Subcommands: `run`, `report`, `experiment`, `model`, `denormals`, `dip`, `bench` (see
//! `taintprof help`). Errors are one line on stderr (`taintprof: error: ...`) and a
//! non-zero exit status. `bench` runs the separate
//! `taintprof-bench` program (next to this one) with its arguments.

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::path::PathBuf;
use taintprof_driver::{denormal, dip, errln, experiment, modeling, report, run};

/// Which input parameters control which loops: run a program built with
/// taintprof-cc / taintprof-c++, then read its report.
#[derive(Parser)]
#[command(name = "taintprof", version, propagate_version = true)]
#[command(
    after_help = "Build with:  taintprof-cc -O2 app.c -o app   (or CC=taintprof-cc make)\n\
Then:        taintprof run -- ./app ARGS\n\n\
Models:      taintprof experiment --out exp --prior app.<pid>.taintprof.json \\\n\
\x20              --design n=32,64,128,256,512 m=1,2,4,8,16 -- ./app {\x1b[0mn} {m}\n\n\
Denormals:   taintprof-cc --tp-mode=denormal -O2 app.c -o app && taintprof run -- ./app\n\
\x20            taintprof dip -- ./unmodified-app ARGS     (no rebuild: CPU exceptions)\n\
\x20            taintprof denormals app.<pid>.denormal.json --html out/"
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
    /// Print a report: what was pruned (Table 2), what depends on each parameter
    /// (Table 3) and the recommended parameters, the parameter-dependent functions with
    /// volumes, pairs, loops, contexts and branches, constant functions, code never
    /// executed. Or derive a Score-P filter or an experiment design from it.
    #[command(after_help = "Examples:\n  \
taintprof report app.4242.taintprof.json\n  \
taintprof report app.4242.taintprof.rec app.4243.taintprof.rec\n  \
taintprof report reports/   (every record in it; the ranks of an MPI run as one)\n  \
taintprof report app.4242.taintprof.json --subset m,n --subset n,k\n  \
taintprof report app.4242.taintprof.json --scorep-filter filter.txt\n  \
taintprof report app.4242.taintprof.json --design m=32,64,128,256,512 n=8,16,32,64,128 k=1,2\n  \
taintprof report app.4242.taintprof.json --why smooth:30 n")]
    Report {
        /// Report files (<program>.<pid>.taintprof.json) or raw run records
        /// (<program>.<pid>.taintprof.rec, <program>.rank<R>.<pid>.taintprof.rec).
        /// Several records are merged into one report: the processes of one run, or
        /// repeated runs of one program. A directory: each of its records is a report,
        /// except that the records of the ranks of one MPI run are merged into one.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print the same summary (or, with --design, the design) as normalized JSON
        /// (stable keys, for scripts): one object for one file, an array for several.
        #[arg(long)]
        json: bool,
        /// Show everything: statically pruned functions by name, every function with
        /// its loops and branches, loop contexts, uncapped lists.
        #[arg(long, short = 'v')]
        verbose: bool,
        /// Add a coverage column for this subset of parameters (repeatable), counted
        /// from the report's per-function and per-loop parameters.
        #[arg(long = "subset", value_name = "A,B[,C]")]
        subsets: Vec<String>,
        /// Write a Score-P filter file that instruments only the parameter-dependent
        /// functions (`-` for standard output).
        #[arg(long, value_name = "OUT")]
        scorep_filter: Option<PathBuf>,
        /// The runs an empirical model needs: give each parameter's values; coupled
        /// (multiplicative) parameters get the full grid, the others one-parameter
        /// sweeps at the others' base values.
        #[arg(long, value_name = "PARAM=V1,V2,...", num_args = 1.., conflicts_with = "subsets")]
        design: Vec<String>,
        /// The value a parameter is held at while others vary (default: its first
        /// value in --design); repeatable.
        #[arg(long = "design-base", value_name = "PARAM=V", requires = "design")]
        design_base: Vec<String>,
        /// Explain one answer: the chain of branches, stores, calls and loads, with
        /// source positions, that brought PARAM to the loop at FUNCTION:LINE. Reads the
        /// build's compile-time sidecars (<object>.taintprof-static.json).
        #[arg(long, num_args = 2, value_names = ["FUNCTION:LINE", "PARAM"],
              conflicts_with_all = ["design", "scorep_filter", "subsets"])]
        why: Vec<String>,
        /// Where the sidecars are for --why (files or directories; repeatable).
        /// Default: the report's directory, the program's directory and the working
        /// directory.
        #[arg(long = "static", value_name = "PATH", requires = "why")]
        statics: Vec<PathBuf>,
    },
    /// Run the experiments of an empirical performance model and write the measurements
    /// in Extra-P's JSON format (DIR/measurements.json).
    ///
    /// The points are the runs of the report's experiment design (--prior with --design,
    /// as `taintprof report --design` prints them) or every combination of --grid's
    /// values. In the command after `--`, {PARAM} stands for the point's value of PARAM,
    /// in any word (`-s{size}` too; {{ and }} are literal braces); every parameter must
    /// appear in it. Each point runs --reps times, repetitions interleaved (every
    /// point once, then every point again, ...), in the working directory, with
    /// TAINTPROF_OUT=DIR/runs/<point>/rep<k> (the run's records, stdout and stderr go
    /// there).
    ///
    /// Measurements: a program built with --tp-mode=time gives each call path's `time`
    /// (inclusive seconds), `visits` and `iterations` (its loops' counts summed); any
    /// other program its wall time, as the metric `time` of one call path named after
    /// the program (the base name of the first word of the command that is not a
    /// launcher such as mpirun, an option, a number or an assignment; --callpath to
    /// choose).
    ///
    /// Failed runs (non-zero exit, a signal, --timeout) are listed at the end with
    /// their command and the end of their stderr, left out of the measurements, and
    /// make the exit status 1. DIR/plan.json holds the plan and DIR/journal.jsonl a
    /// line per finished run: the same command again resumes (finished runs are kept,
    /// failed ones are made again); Ctrl-C stops after killing the running command. A
    /// different plan for the same DIR is refused (--restart starts over).
    // `{n}` is written `{\x1b[0mn}`: clap turns `{n}` into a line break, and the reset
    // between the brace and the name is invisible on a terminal and dropped elsewhere.
    #[command(after_help = "Examples:\n  \
taintprof experiment --out exp --grid n=32,64,128,256,512 steps=10,20,40 -- ./heat {\x1b[0mn} {steps}\n  \
taintprof experiment --out exp --prior heat.4242.taintprof.json \\\n      \
--design n=32,64,128,256,512 steps=10,20,40,80,160 probes=5,10,20,40,80 \\\n      \
-- ./heat {\x1b[0mn} {steps} {probes}\n  \
taintprof experiment --out exp --reps 3 --timeout 600 \\\n      \
--grid p=2,4,8,16,32 size=100,200,300,400,500 -- mpirun -np {p} ./app -s{size} 100\n\n\
Then: taintprof model --prior heat.4242.taintprof.json exp/measurements.json")]
    Experiment {
        /// The experiment's directory: plan.json, journal.jsonl, measurements.json and
        /// runs/ (created if needed).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The taint report (or raw run record) whose experiment design --design
        /// computes.
        #[arg(long, value_name = "REPORT", requires = "design")]
        prior: Option<PathBuf>,
        /// The values of each parameter; the points are the runs of the prior's
        /// experiment design (coupled parameters on their full grid, the others in
        /// one-parameter sweeps at the others' base values).
        #[arg(long, value_name = "PARAM=V1,V2,...", num_args = 1.., requires = "prior", conflicts_with = "grid")]
        design: Vec<String>,
        /// The value a parameter is held at while others vary (default: its first
        /// value in --design); repeatable.
        #[arg(long = "design-base", value_name = "PARAM=V", requires = "design")]
        design_base: Vec<String>,
        /// The values of each parameter; the points are every combination (the full
        /// factorial, the last parameter fastest).
        #[arg(long, value_name = "PARAM=V1,V2,...", num_args = 1..)]
        grid: Vec<String>,
        /// Repetitions of each point.
        #[arg(long, value_name = "N", default_value_t = 5)]
        reps: u32,
        /// Kill a run (its whole process group) that takes longer than this many
        /// seconds; it counts as failed.
        #[arg(long, value_name = "SECS")]
        timeout: Option<f64>,
        /// The call path of wall-time measurements (default: the program's name).
        #[arg(long, value_name = "NAME")]
        callpath: Option<String>,
        /// After every planned run succeeded, add points once where the measured time
        /// along a parameter bends away from a power law between neighbouring values
        /// (by more than 25 % and more than the repetitions' spread): the geometric
        /// midpoints on both sides, rounded for integer parameters; then run them. With
        /// time records of a build with a taint prior, also bisect (up to 4 rounds)
        /// between neighbouring values where a recorded tainted branch changes side.
        #[arg(long)]
        adaptive: bool,
        /// Delete DIR's plan, journal, measurements and runs first and start over.
        #[arg(long)]
        restart: bool,
        /// No progress lines (warnings, failures and the summary are still printed).
        #[arg(long, short = 'q')]
        quiet: bool,
        /// The command template: the program, its launcher and arguments, with
        /// {PARAM} placeholders.
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "COMMAND"
        )]
        command: Vec<OsString>,
    },
    /// Model measurements empirically (Extra-P's performance model normal form), with a
    /// taint report as the prior: per call path and metric the model with the prior and
    /// the black-box model, their fit, predictions and warnings.
    #[command(after_help = "Examples:\n  \
taintprof model runs.txt\n  \
taintprof model --prior app.4242.taintprof.json runs.jsonl --predict n=1024,steps=60\n  \
taintprof model --prior app.4242.taintprof.json exp-dir/ --json models.json --extrap models.extra-p --html models-html\n\n\
Inputs: Extra-P text (.txt), JSON or JSON Lines (.json, .jsonl), a directory written by\n\
`taintprof experiment` (its measurements.json), time records (*.taintprof-time.rec).\n\
Several inputs are merged (they must have the same parameters).")]
    Model {
        /// The measurements (files or directories).
        #[arg(required = true, value_name = "MEASUREMENTS")]
        inputs: Vec<PathBuf>,
        /// The taint report whose volumes are the prior (<program>.<pid>.taintprof.json).
        #[arg(long, value_name = "REPORT.json")]
        prior: Option<PathBuf>,
        /// Model only this metric (time, visits, iterations, or a metric of the input).
        #[arg(long, value_name = "METRIC")]
        metric: Option<String>,
        /// Write the models as JSON (docs/model-schema.md).
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Write an Extra-P experiment (.extra-p) with the measurements and the model
        /// sets "taint prior" and "black box".
        #[arg(long, value_name = "FILE.extra-p")]
        extrap: Option<PathBuf>,
        /// Write DIR/index.html: plots of the measurements against both models.
        #[arg(long, value_name = "DIR")]
        html: Option<PathBuf>,
        /// Predict at a point: every measured parameter's value.
        #[arg(long, value_name = "P=V,...")]
        predict: Option<String>,
    },
    /// Print a denormal report (either mode): the instruction profile by function, the
    /// arrays with their roles, origins, creators, denormals over time, warnings. A
    /// denormal record (what a --tp-mode=denormal program writes) is analysed first.
    #[command(after_help = "Examples:\n  \
taintprof denormals jacobi.4242.denormal.rec\n  \
taintprof denormals jacobi.4242.denormal.json\n  \
taintprof denormals jacobi.4242.denormal.json --html jacobi-html   (open jacobi-html/index.html)\n  \
taintprof denormals stencil.77.dip.json --top 10\n  \
taintprof denormals stencil.77.dip.json --compare stencil.80.denormal.json")]
    Denormals {
        /// The report (<program>.<pid>.denormal.json or <program>.<pid>.dip.json), or a
        /// denormal record (<program>.<pid>.denormal.rec).
        #[arg(value_name = "REPORT")]
        file: PathBuf,
        /// Also write DIR/index.html with the tables and PNG pictures: heatmaps of every
        /// array over time, origin maps, a timeline and the top sites.
        #[arg(long, value_name = "DIR")]
        html: Option<PathBuf>,
        /// Print the summary as normalized JSON (stable keys, for scripts).
        #[arg(long)]
        json: bool,
        /// Show the N sites with the most denormal events (0: all) [default: 30].
        #[arg(long, value_name = "N")]
        top: Option<usize>,
        /// Compare this exceptions-mode report with a compiler-mode report of the same
        /// program, line by line.
        #[arg(long, value_name = "REPORT")]
        compare: Option<PathBuf>,
    },
    /// Profile the denormals of an unmodified, dynamically linked program: run it with
    /// the exception profiler preloaded, then print its instruction profile.
    ///
    /// Writes <program>.<pid>.dip.json (and the raw .dip-raw.json) for each process of
    /// the run and exits with the program's status. Each denormal operand costs a trap
    /// (microseconds): programs with billions of denormal operations take long; use
    /// taintprof-cc --tp-mode=denormal for those.
    #[command(after_help = "Examples:\n  \
taintprof dip -- ./stencil 512 300\n  \
taintprof dip --underflow --interval-ms 10 --html out -- ./app input.dat\n  \
taintprof dip --compare app.4242.denormal.json -- ./app")]
    Dip {
        /// Directory for the reports (TAINTPROF_OUT); default: $TAINTPROF_OUT or the
        /// working directory.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Also count instructions producing denormal results (underflow exceptions).
        #[arg(long)]
        underflow: bool,
        /// Width of a timeline interval in milliseconds [default: 100].
        #[arg(long, value_name = "N")]
        interval_ms: Option<u64>,
        /// Count every denormal exception (about 16 µs each: hours for programs with
        /// hundreds of millions of them). Default: sample them within --overhead.
        #[arg(long, conflicts_with = "overhead")]
        exact: bool,
        /// Sampled mode's overhead budget, in percent of the program's CPU time
        /// (1 to 1000) [default: 10].
        #[arg(long, value_name = "PCT", value_parser = dip::parse_overhead)]
        overhead: Option<u64>,
        /// Also write DIR/index.html with the tables and pictures.
        #[arg(long, value_name = "DIR")]
        html: Option<PathBuf>,
        /// Show the N instructions with the most exceptions (0: all) [default: 30].
        #[arg(long, value_name = "N")]
        top: Option<usize>,
        /// Compare the result with a compiler-mode report of the same program
        /// (<program>.<pid>.denormal.json, or its record .denormal.rec), line by line.
        #[arg(long, value_name = "REPORT")]
        compare: Option<PathBuf>,
        /// The program and its arguments.
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "PROG ARGS"
        )]
        command: Vec<OsString>,
    },
    /// Measure slowdowns, peak memory and compile times: native vs taintprof (taint
    /// tracking with and without control-flow tainting, denormal tracing) vs
    /// DataFlowSanitizer, Valgrind's floor and the exception profiler, side by side,
    /// against the performance targets; writes a PNG chart.
    ///
    /// Runs the separate `taintprof-bench` program next to this executable with the
    /// same arguments; `taintprof bench --help` shows its options.
    #[command(disable_help_flag = true, disable_version_flag = true)]
    Bench {
        /// The arguments of taintprof-bench (see `taintprof bench --help`).
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "ARGS"
        )]
        args: Vec<OsString>,
    },
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Run { out, command } => {
            let (prog, args) = command.split_first().expect("clap requires a program");
            run::run(out.as_deref(), prog, args)
        }
        Cmd::Report {
            files,
            json,
            verbose,
            subsets,
            scorep_filter,
            design,
            design_base,
            why,
            statics,
        } => report_command(&ReportArgs {
            files,
            json,
            verbose,
            subsets,
            scorep_filter,
            design,
            design_base,
            why,
            statics,
        }),
        Cmd::Experiment {
            out,
            prior,
            design,
            design_base,
            grid,
            reps,
            timeout,
            callpath,
            adaptive,
            restart,
            quiet,
            command,
        } => experiment::experiment(&experiment::Options {
            out,
            prior,
            design,
            design_base,
            grid,
            reps,
            timeout,
            callpath,
            restart,
            quiet,
            adaptive,
            command,
        }),
        Cmd::Model {
            inputs,
            prior,
            metric,
            json,
            extrap,
            html,
            predict,
        } => model_command(&modeling::ModelArgs {
            inputs,
            prior,
            metric,
            json,
            extrap,
            html,
            predict,
        }),
        Cmd::Denormals {
            file,
            html,
            json,
            top,
            compare,
        } => denormals_command(&file, html.as_deref(), json, top, compare.as_deref()),
        Cmd::Dip {
            out,
            underflow,
            interval_ms,
            exact,
            overhead,
            html,
            top,
            compare,
            command,
        } => {
            let (prog, args) = command.split_first().expect("clap requires a program");
            dip::dip(
                &dip::DipOptions {
                    out,
                    underflow,
                    interval_ms,
                    exact,
                    overhead_pct: overhead,
                    compare,
                    html,
                    top,
                },
                prog,
                args,
            )
        }
        Cmd::Bench { args } => bench_command(&args),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            errln!("taintprof: error: {e:#}");
            std::process::exit(1);
        }
    }
}

/// The benchmark harness, a program of its own (the `benchkit/` crate): `taintprof
/// bench ARGS` is `taintprof-bench ARGS`.
const BENCH_PROGRAM: &str = "taintprof-bench";

/// `taintprof bench`: replaces this process with the `taintprof-bench` in this
/// executable's directory, so that its output, signals and exit status are the
/// command's own. Returns only if that program is missing or cannot be started.
fn bench_command(args: &[OsString]) -> anyhow::Result<i32> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe()
        .map_err(|e| anyhow::anyhow!("cannot find the taintprof executable: {e}"))?;
    // The real file's directory, also when taintprof was started through a symlink.
    let exe = exe.canonicalize().unwrap_or(exe);
    let program = exe.with_file_name(BENCH_PROGRAM);
    if !program.is_file() {
        anyhow::bail!(
            "{} not found (`taintprof bench` runs it); build it with `make build`",
            program.display()
        );
    }
    let e = std::process::Command::new(&program).args(args).exec();
    anyhow::bail!("cannot run {}: {e}", program.display())
}

/// `taintprof model`.
fn model_command(a: &modeling::ModelArgs) -> anyhow::Result<i32> {
    let (text, messages) = modeling::model_command(a).map_err(anyhow::Error::msg)?;
    print(&text)?;
    for m in messages {
        errln!("{m}");
    }
    Ok(0)
}

/// `taintprof denormals`.
fn denormals_command(
    file: &std::path::Path,
    html: Option<&std::path::Path>,
    json: bool,
    top: Option<usize>,
    compare: Option<&std::path::Path>,
) -> anyhow::Result<i32> {
    let r = denormal::load(file).map_err(anyhow::Error::msg)?;
    let name = file.display().to_string();
    let opts = denormal::summary::SummaryOptions {
        top: match top {
            None => Some(denormal::summary::DEFAULT_TOP),
            Some(0) => None,
            Some(n) => Some(n),
        },
    };
    let comparison = match compare {
        Some(c) => {
            let other = denormal::load(c).map_err(anyhow::Error::msg)?;
            Some(
                denormal::compare::compare(&r, &name, &other, &c.display().to_string())
                    .map_err(anyhow::Error::msg)?,
            )
        }
        None => None,
    };
    let s = denormal::summary::summarize(&r, &name, &opts);
    if json {
        let text = match &comparison {
            None => serde_json::to_string_pretty(&s)?,
            Some(c) => serde_json::to_string_pretty(&serde_json::json!({
                "summary": s,
                "comparison": c,
            }))?,
        };
        print(&(text + "\n"))?;
    } else {
        let mut text = denormal::render::full(&s);
        if let Some(c) = &comparison {
            text.push('\n');
            text.push_str(&denormal::compare::render(c));
        }
        print(&text)?;
    }
    if let Some(dir) = html {
        let w = denormal::html::write(&r, &s, dir).map_err(anyhow::Error::msg)?;
        errln!(
            "taintprof: wrote {} and {} picture{}",
            w.index.display(),
            w.images.len(),
            if w.images.len() == 1 { "" } else { "s" }
        );
    }
    Ok(0)
}

struct ReportArgs {
    files: Vec<PathBuf>,
    json: bool,
    verbose: bool,
    subsets: Vec<String>,
    scorep_filter: Option<PathBuf>,
    design: Vec<String>,
    design_base: Vec<String>,
    why: Vec<String>,
    statics: Vec<PathBuf>,
}

/// Writes `text` to standard output; a closed pipe (`| head`) is not an error.
fn print(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e.into()),
    }
}

fn report_command(a: &ReportArgs) -> anyhow::Result<i32> {
    if !a.why.is_empty() {
        return why_command(a);
    }
    if a.scorep_filter.is_none() && a.design.is_empty() {
        return print_reports(a);
    }
    // Parse the command line before reading anything.
    let request = if a.design.is_empty() {
        None
    } else {
        Some(
            report::design::DesignRequest::parse(&a.design, &a.design_base)
                .map_err(anyhow::Error::msg)?,
        )
    };
    let (name, r) = load_one(&a.files, "--scorep-filter and --design")?;
    let s = report::summary::summarize(&r, &name);
    if let Some(out) = &a.scorep_filter {
        let f = report::scorep::filter(&s).map_err(anyhow::Error::msg)?;
        if out.as_os_str() == "-" {
            print(&f.text)?;
        } else {
            std::fs::write(out, &f.text)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
            errln!(
                "taintprof: wrote {}: {} parameter-dependent {} included{}, {} excluded{}",
                out.display(),
                f.included,
                if f.included == 1 {
                    "function"
                } else {
                    "functions"
                },
                if f.folded > 0 {
                    format!(" ({} of them for a loop the optimizer folded)", f.folded)
                } else {
                    String::new()
                },
                f.excluded,
                if f.skipped.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; {} could not be written as a pattern (see the file's header)",
                        f.skipped.len()
                    )
                }
            );
        }
    }
    if let Some(req) = request {
        let d = report::design::design(&s, &req).map_err(anyhow::Error::msg)?;
        if a.json {
            print(&(serde_json::to_string_pretty(&d)? + "\n"))?;
        } else {
            print(&report::design::render(&d, &s))?;
        }
    }
    Ok(0)
}

/// `--why FUNCTION:LINE PARAM`: one report, the sidecars of its build.
fn why_command(a: &ReportArgs) -> anyhow::Result<i32> {
    use report::why;
    if a.files.len() != 1 {
        anyhow::bail!("--why reads one report, but {} were given", a.files.len());
    }
    let req = why::WhyRequest::parse(&a.why[0], &a.why[1]).map_err(anyhow::Error::msg)?;
    let file = &a.files[0];
    let r = report::load(file)?;
    let dirs = if a.statics.is_empty() {
        why::default_sidecar_dirs(file, &r)
    } else {
        for p in &a.statics {
            if !p.exists() {
                anyhow::bail!("--static {}: no such file or directory", p.display());
            }
        }
        a.statics.clone()
    };
    let prog = why::Program::load(&dirs).map_err(anyhow::Error::msg)?;
    let text = why::explain(&r, &prog, &req).map_err(anyhow::Error::msg)?;
    print(&text)?;
    Ok(0)
}

/// The reports named on the command line, each with the name it is shown under. JSON
/// reports are read one by one; raw run records (`.taintprof.rec`) are merged into one
/// report, at the place of the first (the records of one run's processes, or of
/// repeated runs, are one result: `taintprof_record::merge`). A directory gives the
/// reports of its records as `taintprof run` makes them ([`load_directory`]).
fn load_inputs(files: &[PathBuf]) -> Vec<(String, Result<report::Report, String>)> {
    let records: Vec<&PathBuf> = files.iter().filter(|f| report::is_record(f)).collect();
    let mut out = Vec::new();
    let mut records_done = false;
    for file in files {
        if file.is_dir() {
            out.extend(load_directory(file));
            continue;
        }
        if report::is_record(file) {
            if !records_done {
                records_done = true;
                let name = match records.as_slice() {
                    [one] => one.display().to_string(),
                    many => format!("{} records merged", many.len()),
                };
                out.push((
                    name,
                    report::load_records(&records).map_err(|e| e.to_string()),
                ));
            }
            continue;
        }
        out.push((
            file.display().to_string(),
            report::load(file).map_err(|e| e.to_string()),
        ));
    }
    out
}

/// The reports of the raw run records in `dir` (`*.taintprof.rec`, in name order): the
/// records of the ranks of one MPI run merged into one, every other record alone
/// (`run::group_record_files`, the grouping of `taintprof run`).
fn load_directory(dir: &std::path::Path) -> Vec<(String, Result<report::Report, String>)> {
    let shown = dir.display().to_string();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => return vec![(shown.clone(), Err(format!("cannot read {shown}: {e}")))],
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().ends_with(run::RECORD_SUFFIX))
        })
        .collect();
    paths.sort();
    if paths.is_empty() {
        return vec![(
            shown.clone(),
            Err(format!(
                "{shown}: no raw run records (*{}) in this directory (`taintprof run --out {shown}` writes them there)",
                run::RECORD_SUFFIX
            )),
        )];
    }
    let groups = run::group_record_files(&paths);
    groups
        .iter()
        .map(|g| {
            let name = match (&g.mpi, g.paths.as_slice()) {
                (None, [one]) => one.display().to_string(),
                (Some(m), _) => {
                    // `DIR/app.rank*.taintprof.rec` when that is exactly this run's
                    // records (a name to give `taintprof report` again).
                    let prefix = format!("{}.rank", m.program);
                    let by_name = paths.iter().filter(|p| {
                        p.file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
                    });
                    if by_name.clone().count() == g.paths.len()
                        && by_name.clone().all(|p| g.paths.contains(p))
                    {
                        dir.join(format!("{prefix}*{}", run::RECORD_SUFFIX))
                            .display()
                            .to_string()
                    } else {
                        format!(
                            "{shown}: {} ranks {} ({} records merged)",
                            m.program,
                            taintprof_record::ranks::ranges(&m.ranks),
                            g.paths.len()
                        )
                    }
                }
                (None, many) => format!("{shown}: {} records merged", many.len()),
            };
            (
                name,
                report::load_records(&g.paths).map_err(|e| e.to_string()),
            )
        })
        .collect()
}

/// The one report a command reads (--scorep-filter, --design, --why): one JSON report,
/// or any number of records merged into one.
fn load_one(files: &[PathBuf], what: &str) -> anyhow::Result<(String, report::Report)> {
    let mut inputs = load_inputs(files);
    if inputs.len() != 1 {
        anyhow::bail!(
            "{what} read one report, but {} were given (the raw records of one program count as one: they are merged)",
            inputs.len()
        );
    }
    let (name, r) = inputs.remove(0);
    Ok((name, r.map_err(anyhow::Error::msg)?))
}

/// Prints each report (text or JSON); a file that cannot be read is reported and the
/// others are still printed. Fails if any file failed.
fn print_reports(a: &ReportArgs) -> anyhow::Result<i32> {
    let opts = report::summary::SummaryOptions {
        subsets: a.subsets.clone(),
    };
    let render = report::render::RenderOptions {
        verbose: a.verbose,
        ..Default::default()
    };
    let inputs = load_inputs(&a.files);
    let mut summaries = Vec::new();
    let mut failed = 0;
    for (name, loaded) in &inputs {
        let loaded = loaded.as_ref().map_err(|e| e.clone()).and_then(|r| {
            report::summary::summarize_with(r, name, &opts).map_err(|e| format!("{name}: {e}"))
        });
        match loaded {
            Ok(s) => summaries.push(s),
            Err(e) if inputs.len() == 1 => anyhow::bail!("{e}"),
            // `taintprof report app.*.taintprof.json` also matches the sidecar app.o....
            Err(e) if e.contains("compile-time sidecar") => {
                errln!("taintprof: skipped {name}: a compile-time sidecar, not a run report")
            }
            Err(e) => {
                errln!("taintprof: error: {e}");
                failed += 1;
            }
        }
    }
    let text = if a.json {
        if inputs.len() == 1 {
            serde_json::to_string_pretty(&summaries[0])? + "\n"
        } else {
            serde_json::to_string_pretty(&summaries)? + "\n"
        }
    } else {
        summaries
            .iter()
            .map(|s| report::render::full_with(s, &render))
            .collect::<Vec<_>>()
            .join("\n")
    };
    print(&text)?;
    Ok(if failed > 0 { 1 } else { 0 })
}
