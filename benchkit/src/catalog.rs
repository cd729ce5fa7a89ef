//! What `taintprof bench` measures: the workloads and the configurations, one table
//! entry each.
//!
//! To add a workload, put its C or C++ file in `bench/workloads/` (registering its
//! parameters with `TP_BENCH_PARAM` from `tp_bench.h`, naming its arrays with
//! `TP_BENCH_ARRAY` and printing `checksum <value>`) and add an entry to [`WORKLOADS`].
//! To add a configuration, add an entry to [`CONFIGS`]: how to build ([`Build`]) and how
//! to run ([`Runner`]). Configurations that share a build (e.g. native and native under
//! valgrind) name the same [`Build::id`] and are built once. A configuration that is
//! slow or needs extra tools can be left out of the default set ([`Config::default`]) and
//! given a time limit per run ([`Config::timeout`]); a workload can leave a configuration
//! out of the default set ([`Workload::skip_by_default`]) or exclude one it cannot run
//! under at all ([`Workload::not_applicable`]).
//!
//! An MPI workload ([`Workload::mpi_ranks`]) is built in every configuration with Open
//! MPI's compile and link flags (asked of [`MPICC`] when the bench runs) and runs under
//! [`MPIRUN`] ([`mpirun_args`]): its times, the native baseline's included, are those of
//! the whole `mpirun`.

use taintprof_driver::locate::Lang;

/// A benchmark program.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    pub name: &'static str,
    /// File name of the source in `bench/workloads/`.
    pub file: &'static str,
    /// The source, embedded so that the installed `taintprof` needs no checkout.
    pub source: &'static str,
    pub about: &'static str,
    /// C or C++: which clang driver and which taintprof wrapper build it.
    pub lang: Lang,
    /// Arguments for the timed runs (sized for 0.3 to 1 s natively).
    pub args: &'static [&'static str],
    /// Arguments for `--quick` (smoke test).
    pub quick_args: &'static [&'static str],
    /// Arguments for `--callgrind` (instruction counts; valgrind is ~50x slower).
    pub callgrind_args: &'static [&'static str],
    /// Compile flags every configuration adds (e.g. `-fopenmp`).
    pub flags: &'static [&'static str],
    /// Extra link flags.
    pub libs: &'static [&'static str],
    /// Environment of every run (e.g. a fixed thread count).
    pub env: &'static [(&'static str, &'static str)],
    /// Whether the workload's inputs produce denormals (the `dip` target excludes it).
    pub denormals: bool,
    /// Configurations that run this workload only when asked for by name
    /// (`--config NAME`), with the reason shown in their cell otherwise.
    pub skip_by_default: &'static [(&'static str, &'static str)],
    /// Configurations that cannot run this workload, even when asked for (their cell
    /// says `n/a`, the reason is under the table; nothing is built for them).
    pub not_applicable: &'static [(&'static str, &'static str)],
    /// An MPI program: built with the MPI compile and link flags, every configuration's
    /// binary run on this many processes under `mpirun` ([`mpirun_args`]).
    pub mpi_ranks: Option<usize>,
}

impl Workload {
    /// Why `config` is left out of a default run of this workload, if it is.
    pub fn skipped_by_default(&self, config: &str) -> Option<&'static str> {
        self.skip_by_default
            .iter()
            .find(|(c, _)| *c == config)
            .map(|(_, why)| *why)
    }

    /// Why `config` cannot run this workload at all, if it cannot.
    pub fn not_applicable_to(&self, config: &str) -> Option<&'static str> {
        self.not_applicable
            .iter()
            .find(|(c, _)| *c == config)
            .map(|(_, why)| *why)
    }
}

/// Open MPI's compiler wrapper: `--showme:compile` and `--showme:link` give the flags
/// an MPI workload is built with, by every configuration's compiler (taintprof-cc sees
/// `-lmpi` on the link line and links its MPI interception library).
pub const MPICC: &str = "mpicc.openmpi";
/// Open MPI's launcher.
pub const MPIRUN: &str = "mpirun.openmpi";
/// The Debian packages of both.
pub const MPI_PACKAGES: &str = "openmpi-bin libopenmpi-dev";

/// `mpirun`'s flags besides `-np`: more ranks than cores are allowed (a 2-core machine
/// runs 2 ranks beside the bench) and root may run them (containers); the MPI
/// end-to-end tests run with the same flags. (Not `--mca btl_vader_single_copy_mechanism
/// none`, which avoids cross-process copies where ptrace is refused but makes Open MPI's
/// `MPI_Win_create` fail.)
pub const MPIRUN_FLAGS: &[&str] = &["--oversubscribe", "--allow-run-as-root"];

/// The environment of every `mpirun` (Open MPI also wants root's consent here).
pub const MPI_ENV: &[(&str, &str)] = &[
    ("OMPI_ALLOW_RUN_AS_ROOT", "1"),
    ("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
];

/// The launcher's arguments for `ranks` processes, before the command it runs.
pub fn mpirun_args(ranks: usize) -> Vec<String> {
    let mut a: Vec<String> = MPIRUN_FLAGS.iter().map(|s| s.to_string()).collect();
    a.push("-np".into());
    a.push(ranks.to_string());
    a
}

/// The shared header every workload includes.
pub const HEADER: (&str, &str) = (
    "tp_bench.h",
    include_str!("../../bench/workloads/tp_bench.h"),
);

/// DataFlowSanitizer's ABI list for the C++ and OpenMP runtimes (the `dfsan` build
/// passes it with `-fsanitize-ignorelist`).
pub const DFSAN_ABILIST: (&str, &str) = (
    "dfsan_abilist.txt",
    include_str!("../../bench/workloads/dfsan_abilist.txt"),
);

/// Files written next to the workloads' sources before building; `{src}` in a build
/// flag is that directory.
pub const SUPPORT_FILES: &[(&str, &str)] = &[HEADER, DFSAN_ABILIST];

const JACOBI: &str = include_str!("../../bench/workloads/jacobi.c");

/// Why `dip-exact` skips the denormal workload unless asked for.
const DIP_TRAPS: &str = "dip-exact traps once per instruction with a denormal operand \
     (some 40 million at the default size, 16 µs each): the run would take over ten \
     minutes; ask for it with `--config dip-exact` (it stops at the configuration's \
     300 s limit); the default `dip` samples them";

pub const WORKLOADS: &[Workload] = &[
    Workload {
        name: "jacobi",
        file: "jacobi.c",
        source: JACOBI,
        about: "2-D Jacobi stencil, float, n x n grid, interior 0.5 (no denormals); parameters n, iterations",
        lang: Lang::C,
        args: &["1024", "1000"],
        quick_args: &["128", "20"],
        callgrind_args: &["256", "20"],
        flags: &[],
        libs: &[],
        env: &[],
        denormals: false,
        skip_by_default: &[],
        not_applicable: &[],
        mpi_ranks: None,
    },
    Workload {
        name: "jacobi-denormal",
        file: "jacobi.c",
        source: JACOBI,
        about: "the same stencil with the interior at 0 (thesis 6.4): a wavefront of denormals sweeps the grid",
        lang: Lang::C,
        args: &["1024", "1000", "0"],
        quick_args: &["256", "120", "0"],
        callgrind_args: &["256", "120", "0"],
        flags: &[],
        libs: &[],
        env: &[],
        denormals: true,
        skip_by_default: &[("dip-exact", DIP_TRAPS)],
        not_applicable: &[],
        mpi_ranks: None,
    },
    Workload {
        name: "matmul",
        file: "matmul.c",
        source: include_str!("../../bench/workloads/matmul.c"),
        about: "dense matrix multiply, double; parameters m, n, k",
        lang: Lang::C,
        args: &["1280"],
        quick_args: &["96"],
        callgrind_args: &["160"],
        flags: &[],
        libs: &[],
        env: &[],
        denormals: false,
        skip_by_default: &[],
        not_applicable: &[],
        mpi_ranks: None,
    },
    Workload {
        name: "cg",
        file: "cg.c",
        source: include_str!("../../bench/workloads/cg.c"),
        about: "conjugate gradients on the 5-point Poisson matrix in CSR (SpMV, dots, axpys), double; parameters n (grid n x n), iters",
        lang: Lang::C,
        args: &["700", "100"],
        quick_args: &["64", "20"],
        callgrind_args: &["128", "20"],
        flags: &[],
        libs: &["-lm"],
        env: &[],
        denormals: false,
        skip_by_default: &[],
        not_applicable: &[],
        mpi_ranks: None,
    },
    Workload {
        name: "nbody",
        file: "nbody.c",
        source: include_str!("../../bench/workloads/nbody.c"),
        about: "n-body steps, all-pairs softened gravity, leapfrog, double; parameters n, steps",
        lang: Lang::C,
        args: &["1200", "60"],
        quick_args: &["128", "10"],
        callgrind_args: &["256", "4"],
        flags: &[],
        libs: &["-lm"],
        env: &[],
        denormals: false,
        skip_by_default: &[],
        not_applicable: &[],
        mpi_ranks: None,
    },
    Workload {
        name: "accessors",
        file: "accessors.cpp",
        source: include_str!("../../bench/workloads/accessors.cpp"),
        about: "C++ templates: matrix<T> with at()/getRows()/getColumns(), a clamped accessor, a 5x5 convolution and a matrix-vector product over row iterators; parameters n, reps",
        lang: Lang::Cxx,
        args: &["1024", "24"],
        quick_args: &["128", "4"],
        callgrind_args: &["256", "2"],
        flags: &[],
        libs: &[],
        env: &[],
        denormals: false,
        skip_by_default: &[],
        not_applicable: &[],
        mpi_ranks: None,
    },
    Workload {
        name: "omp_stencil",
        file: "omp_stencil.c",
        source: include_str!("../../bench/workloads/omp_stencil.c"),
        about: "OpenMP 2-D heat stencil (parallel for over rows, 2 threads), double; parameters n, iters",
        lang: Lang::C,
        args: &["2048", "80"],
        quick_args: &["256", "10"],
        callgrind_args: &["512", "4"],
        flags: &["-fopenmp"],
        libs: &[],
        env: &[("OMP_NUM_THREADS", "2")],
        denormals: false,
        skip_by_default: &[],
        not_applicable: &[],
        mpi_ranks: None,
    },
    Workload {
        name: "mpi_stencil",
        file: "mpi_stencil.c",
        source: include_str!("../../bench/workloads/mpi_stencil.c"),
        about: "MPI 2-D heat stencil, rows over 2 ranks under mpirun (halo exchange with MPI_Sendrecv, MPI_Allreduce of the residual each iteration), double; parameters n, iters and the implicit p",
        lang: Lang::C,
        args: &["2048", "60"],
        quick_args: &["256", "10"],
        callgrind_args: &["1024", "8"],
        flags: &[],
        libs: &[],
        env: &[],
        denormals: false,
        skip_by_default: &[
            ("valgrind-none", MPI_VALGRIND),
            ("dip", MPI_DIP),
            ("dip-exact", MPI_DIP),
        ],
        not_applicable: &[("dfsan", MPI_DFSAN)],
        mpi_ranks: Some(2),
    },
];

/// Why DFSan cannot run the MPI workload.
const MPI_DFSAN: &str = "DataFlowSanitizer cannot run an MPI program: libmpi is not \
     instrumented, so the program does not link (DFSan calls MPI_Init.dfsan and the \
     like), and declared uninstrumented in an ABI list its routines would drop the \
     labels: they would not cross ranks";
/// Why the Valgrind floor skips the MPI workload unless asked for.
const MPI_VALGRIND: &str = "the Valgrind floor is that of a Valgrind-based denormal \
     tracer (DART), and this stencil has no denormals; ask for it with \
     `--config valgrind-none` (valgrind on every rank, under mpirun)";
/// Why dip skips the MPI workload unless asked for.
const MPI_DIP: &str = "the stencil has no denormals for the exception profiler to \
     find; ask for it with `--config dip` (taintprof dip on every rank, under mpirun)";

/// The compiler a build uses (the C or C++ one, after the workload's [`Lang`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compiler {
    /// clang 19 (`clang-19` / `clang++-19`), found like the wrappers find it.
    Clang,
    /// `taintprof-cc` / `taintprof-c++` next to the `taintprof-bench` executable.
    TaintprofCc,
}

/// How to build a configuration's programs.
#[derive(Debug, Clone, Copy)]
pub struct Build {
    /// Builds with the same id are the same binaries.
    pub id: &'static str,
    pub compiler: Compiler,
    /// Flags before the workload's own; `{src}` is the directory of the sources and
    /// [`SUPPORT_FILES`].
    pub flags: &'static [&'static str],
    /// Selects the parameter registration in `tp_bench.h`.
    pub define: Option<&'static str>,
    /// Shown when the build fails.
    pub hint: &'static str,
}

/// How to run a configuration's programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    /// Run the program itself.
    Direct,
    /// `<tool> <args> <program> <program args>`, e.g.
    /// `Under(Tool::Valgrind, &["--tool=none"])` or `Under(Tool::Taintprof, &["dip", "--"])`.
    Under(Tool, &'static [&'static str]),
}

/// A program that runs the measured program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `valgrind` on `PATH`.
    Valgrind,
    /// The `taintprof` executable next to `taintprof-bench` (for subcommands that run
    /// a program).
    Taintprof,
}

/// The reports a configuration's runs write (shown after the runs as proof that
/// they tracked something).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reports {
    None,
    /// `<prog>.<pid>.taintprof.json`, or the raw run record `<prog>.<pid>.taintprof.rec`
    /// alone (analysed by the bench): must show parameter-dependent loops. An MPI
    /// workload's ranks write a record each: the last run's are merged into one report.
    Taint,
    /// `<prog>.<pid>.denormal.rec` (compiler mode; its report made by the bench).
    Denormal,
    /// `<prog>.<pid>.dip.json` (exceptions mode, written by `taintprof dip`).
    Dip,
}

/// A column of the bench table.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    pub name: &'static str,
    pub about: &'static str,
    pub build: Build,
    pub runner: Runner,
    pub reports: Reports,
    /// Seconds after which a run is stopped and the cell shows "timed out"
    /// (`--timeout` overrides); `None`: no limit.
    pub timeout: Option<u64>,
    /// Part of the default set (without `--config`).
    pub default: bool,
}

/// The baseline every slowdown is relative to.
pub const BASELINE: &str = "native";

pub const NATIVE_BUILD: Build = Build {
    id: "native",
    compiler: Compiler::Clang,
    // Debug info changes no code; it lets `dip` name source lines.
    flags: &["-O2", "-g"],
    define: None,
    hint: "is clang-19 installed? (apt-get install clang-19)",
};

pub const CONFIGS: &[Config] = &[
    Config {
        name: "native",
        about: "clang-19 -O2 -g",
        build: NATIVE_BUILD,
        runner: Runner::Direct,
        reports: Reports::None,
        timeout: None,
        default: true,
    },
    Config {
        name: "taint",
        about: "taintprof-cc -O2 --tp-control-flow=on (data- and control-flow tainting)",
        build: Build {
            id: "taint",
            compiler: Compiler::TaintprofCc,
            flags: &["-O2", "--tp-control-flow=on"],
            define: Some("TP_BENCH_TAINT"),
            hint: "build taintprof first: make build",
        },
        runner: Runner::Direct,
        reports: Reports::Taint,
        timeout: None,
        default: true,
    },
    Config {
        name: "taint-nocf",
        about: "taintprof-cc -O2 --tp-control-flow=off (data flow only)",
        build: Build {
            id: "taint-nocf",
            compiler: Compiler::TaintprofCc,
            flags: &["-O2", "--tp-control-flow=off"],
            define: Some("TP_BENCH_TAINT"),
            hint: "build taintprof first: make build",
        },
        runner: Runner::Direct,
        reports: Reports::Taint,
        timeout: None,
        default: true,
    },
    Config {
        name: "dfsan",
        about: "clang-19 -O2 -fsanitize=dataflow (the same variables labelled, one label bit each)",
        build: Build {
            id: "dfsan",
            compiler: Compiler::Clang,
            // clang's own ABI list (libc) stays in effect; ours adds the C++ and
            // OpenMP runtimes.
            flags: &[
                "-O2",
                "-fsanitize=dataflow",
                "-fsanitize-ignorelist={src}/dfsan_abilist.txt",
            ],
            define: Some("TP_BENCH_DFSAN"),
            hint: "DataFlowSanitizer needs its runtime: apt-get install libclang-rt-19-dev",
        },
        runner: Runner::Direct,
        reports: Reports::None,
        timeout: None,
        default: true,
    },
    Config {
        name: "denormal",
        about: "taintprof-cc -O2 --tp-mode=denormal (compiler-mode denormal tracing: every FP operation checked, arrays, origins)",
        build: Build {
            id: "denormal",
            compiler: Compiler::TaintprofCc,
            flags: &["-O2", "--tp-mode=denormal"],
            define: Some("TP_BENCH_DENORMAL"),
            hint: "does this taintprof's pass support --tp-mode=denormal? build it with: make build",
        },
        runner: Runner::Direct,
        reports: Reports::Denormal,
        timeout: None,
        default: true,
    },
    Config {
        name: "denormal-profile",
        about: "taintprof-cc -O2 --tp-denormal=profile (denormal mode's profile tier: every FP operation checked and counted, creator sites; no arrays, tags or origins)",
        build: Build {
            id: "denormal-profile",
            compiler: Compiler::TaintprofCc,
            flags: &["-O2", "--tp-denormal=profile"],
            define: Some("TP_BENCH_DENORMAL"),
            hint: "does this taintprof's pass support --tp-denormal=profile? build it with: make build",
        },
        runner: Runner::Direct,
        reports: Reports::Denormal,
        timeout: None,
        default: true,
    },
    Config {
        name: "time",
        about: "taintprof-cc -O2 --tp-mode=time (time mode without a prior: every function with a loop or a call timed per call path, every loop counted; docs/time-mode.md)",
        build: Build {
            id: "time",
            compiler: Compiler::TaintprofCc,
            flags: &["-O2", "--tp-mode=time"],
            define: Some("TP_BENCH_TAINT"),
            hint: "does this taintprof's pass support --tp-mode=time? build it with: make build",
        },
        runner: Runner::Direct,
        reports: Reports::None,
        timeout: None,
        default: true,
    },
    Config {
        name: "valgrind-none",
        about: "the native binary under valgrind --tool=none: the floor of any Valgrind-based tracer (DART)",
        build: NATIVE_BUILD,
        runner: Runner::Under(Tool::Valgrind, &["--tool=none"]),
        reports: Reports::None,
        timeout: Some(600),
        default: true,
    },
    Config {
        name: "dip",
        about: "the native binary under taintprof dip (denormal exceptions, sampled within a 10% overhead budget)",
        build: NATIVE_BUILD,
        runner: Runner::Under(Tool::Taintprof, &["dip", "--"]),
        reports: Reports::Dip,
        timeout: Some(300),
        default: true,
    },
    Config {
        name: "dip-exact",
        about: "the native binary under taintprof dip --exact (every denormal exception counted: a trap per denormal instruction)",
        build: NATIVE_BUILD,
        runner: Runner::Under(Tool::Taintprof, &["dip", "--exact", "--"]),
        reports: Reports::Dip,
        timeout: Some(300),
        default: true,
    },
];

/// The compile-time baseline: plain `clang-19 -O2` (no debug info, no plugin).
pub const PLAIN_BUILD: Build = Build {
    id: "plain",
    compiler: Compiler::Clang,
    flags: &["-O2"],
    define: None,
    hint: "is clang-19 installed? (apt-get install clang-19)",
};

/// The configurations whose builds are timed against [`PLAIN_BUILD`] (the plugin's
/// compile-time overhead), when they are among the selected configurations.
pub const COMPILE_TIMED: &[&str] = &["taint", "denormal"];

/// Replaces `{src}` in a build flag.
pub fn expand_flag(flag: &str, src: &std::path::Path) -> String {
    flag.replace("{src}", &src.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_the_baseline_exists() {
        let mut names: Vec<&str> = CONFIGS.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CONFIGS.len());
        assert!(CONFIGS.iter().any(|c| c.name == BASELINE));
        let mut w: Vec<&str> = WORKLOADS.iter().map(|w| w.name).collect();
        w.sort();
        w.dedup();
        assert_eq!(w.len(), WORKLOADS.len());
    }

    #[test]
    fn the_suite_is_the_issues() {
        let names: Vec<&str> = WORKLOADS.iter().map(|w| w.name).collect();
        assert_eq!(
            names,
            [
                "jacobi",
                "jacobi-denormal",
                "matmul",
                "cg",
                "nbody",
                "accessors",
                "omp_stencil",
                "mpi_stencil"
            ]
        );
        let configs: Vec<&str> = CONFIGS.iter().map(|c| c.name).collect();
        assert_eq!(
            configs,
            [
                "native",
                "taint",
                "taint-nocf",
                "dfsan",
                "denormal",
                "denormal-profile",
                "time",
                "valgrind-none",
                "dip",
                "dip-exact"
            ]
        );
        // The default set is all of them (dip-exact skips jacobi-denormal by itself,
        // the MPI workload skips dfsan, valgrind-none, dip and dip-exact).
        assert!(CONFIGS.iter().all(|c| c.default));
        let find = |n: &str| WORKLOADS.iter().find(|w| w.name == n).unwrap();
        assert_eq!(find("accessors").lang, Lang::Cxx);
        assert!(find("accessors").file.ends_with(".cpp"));
        let omp = find("omp_stencil");
        assert!(omp.flags.contains(&"-fopenmp"));
        assert!(omp.source.contains("#pragma omp parallel for"));
        assert!(omp.env.contains(&("OMP_NUM_THREADS", "2")));
        assert!(find("cg").source.contains("rowptr"));
        assert!(find("nbody").source.contains("double"));
        for n in ["cg", "nbody"] {
            assert!(find(n).libs.contains(&"-lm"), "{n}");
        }
        // Only the denormal variant produces denormals; the sampled dip runs it (its
        // overhead is bounded), the exact one is skipped there; both skip the MPI
        // workload.
        for w in WORKLOADS {
            assert_eq!(w.denormals, w.name == "jacobi-denormal", "{}", w.name);
            assert_eq!(
                w.skipped_by_default("dip").is_some(),
                w.name == "mpi_stencil",
                "{}",
                w.name
            );
            assert_eq!(
                w.skipped_by_default("dip-exact").is_some(),
                ["jacobi-denormal", "mpi_stencil"].contains(&w.name),
                "{}",
                w.name
            );
            for (c, why) in w.skip_by_default {
                assert!(CONFIGS.iter().any(|x| x.name == *c), "{c}");
                assert!(why.contains("--config"), "{why}");
            }
            for (c, why) in w.not_applicable {
                assert!(CONFIGS.iter().any(|x| x.name == *c), "{c}");
                assert!(!why.contains("--config"), "{why}");
                // Never both.
                assert!(w.skipped_by_default(c).is_none(), "{c}");
            }
            // The baseline and the taint configurations run every workload.
            for c in [BASELINE, "taint", "taint-nocf"] {
                assert!(w.not_applicable_to(c).is_none(), "{} / {c}", w.name);
                assert!(w.skipped_by_default(c).is_none(), "{} / {c}", w.name);
            }
            assert_eq!(w.mpi_ranks.is_some(), w.name == "mpi_stencil", "{}", w.name);
        }
    }

    #[test]
    fn the_mpi_workload() {
        let w = WORKLOADS.iter().find(|w| w.name == "mpi_stencil").unwrap();
        // Two ranks: the machines the bench runs on have two cores.
        assert_eq!(w.mpi_ranks, Some(2));
        assert_eq!(w.lang, Lang::C);
        // Rank 0 registers the parameters and broadcasts them; halos and a residual
        // every iteration; only rank 0 prints the checksum.
        for needle in [
            "MPI_Init(",
            "MPI_Comm_size(MPI_COMM_WORLD, &p)",
            "if (rank == 0) {\n    int n",
            "MPI_Bcast(params",
            "MPI_Sendrecv(",
            "MPI_Allreduce(&mine, &residual",
            "MPI_Finalize()",
        ] {
            assert!(w.source.contains(needle), "{needle}");
        }
        let print = w.source.find("printf(\"checksum ").unwrap();
        let guard = w.source[..print].rfind("if (rank == 0)").unwrap();
        assert!(
            !w.source[guard..print].contains('}'),
            "the checksum line is rank 0's"
        );
        // DFSan cannot link against an uninstrumented libmpi: not applicable (even when
        // asked for); the tools that would run on every rank are skipped by default.
        assert!(w.not_applicable_to("dfsan").is_some());
        for c in ["valgrind-none", "dip", "dip-exact"] {
            assert!(w.skipped_by_default(c).is_some(), "{c}");
        }
        // Denormal mode runs it (no MPI library to link: no labels to move).
        assert!(w.not_applicable_to("denormal").is_none());
        assert!(w.skipped_by_default("denormal").is_none());
        // The launcher: ranks, oversubscription, root.
        assert_eq!(
            mpirun_args(2),
            ["--oversubscribe", "--allow-run-as-root", "-np", "2"]
        );
        assert_eq!((MPICC, MPIRUN), ("mpicc.openmpi", "mpirun.openmpi"));
        assert_eq!(MPI_PACKAGES, "openmpi-bin libopenmpi-dev");
    }

    #[test]
    fn every_workload_has_three_input_sizes() {
        for w in WORKLOADS {
            for a in [w.args, w.quick_args, w.callgrind_args] {
                assert!(!a.is_empty(), "{}", w.name);
                assert!(
                    a.iter().all(|x| x.parse::<f64>().is_ok()),
                    "{}: {a:?}",
                    w.name
                );
            }
            // Quick inputs are smaller than the timed ones (first parameter: the size).
            let size = |a: &[&str]| a[0].parse::<f64>().unwrap();
            assert!(size(w.quick_args) < size(w.args), "{}", w.name);
            assert!(size(w.callgrind_args) <= size(w.args), "{}", w.name);
        }
    }

    #[test]
    fn compile_times_compare_the_plugins_modes_with_plain_clang() {
        assert_eq!(PLAIN_BUILD.compiler, Compiler::Clang);
        assert_eq!(PLAIN_BUILD.flags, ["-O2"]);
        assert_eq!(PLAIN_BUILD.define, None);
        for n in COMPILE_TIMED {
            let c = CONFIGS.iter().find(|c| c.name == *n).unwrap();
            assert_eq!(c.build.compiler, Compiler::TaintprofCc, "{n}");
            assert!(c.build.flags.contains(&"-O2"));
        }
        assert_eq!(
            expand_flag(
                "-fsanitize-ignorelist={src}/x.txt",
                std::path::Path::new("/s")
            ),
            "-fsanitize-ignorelist=/s/x.txt"
        );
    }

    #[test]
    fn control_flow_is_measured_on_and_off_with_the_same_program() {
        let find = |n: &str| CONFIGS.iter().find(|c| c.name == n).unwrap();
        let (on, off) = (find("taint"), find("taint-nocf"));
        assert!(on.build.flags.contains(&"--tp-control-flow=on"));
        assert!(off.build.flags.contains(&"--tp-control-flow=off"));
        assert_eq!(on.build.define, off.build.define);
        assert_eq!(on.build.compiler, off.build.compiler);
        assert_ne!(on.build.id, off.build.id);
        assert!(on.reports == Reports::Taint && off.reports == Reports::Taint);
        // The flags are the wrapper's own (it consumes them; clang never sees them).
        for c in [on, off] {
            let args: Vec<String> = c.build.flags.iter().map(|s| s.to_string()).collect();
            let (opts, rest) = taintprof_driver::cc::split_own_flags(args).unwrap();
            assert!(opts.control_flow.is_some());
            assert_eq!(rest, ["-O2"]);
        }
    }

    #[test]
    fn denormal_configurations() {
        let find = |n: &str| CONFIGS.iter().find(|c| c.name == n).unwrap();
        let d = find("denormal");
        let args: Vec<String> = d.build.flags.iter().map(|s| s.to_string()).collect();
        let (opts, rest) = taintprof_driver::cc::split_own_flags(args).unwrap();
        assert_eq!(opts.mode.as_deref(), Some("denormal"));
        assert_eq!(rest, ["-O2"]);
        assert_eq!(d.reports, Reports::Denormal);
        // valgrind-none and dip run the native binary; they are time-limited.
        for n in ["valgrind-none", "dip", "dip-exact"] {
            let c = find(n);
            assert_eq!(c.build.id, NATIVE_BUILD.id);
            assert!(c.timeout.is_some(), "{n}");
        }
        assert_eq!(
            find("valgrind-none").runner,
            Runner::Under(Tool::Valgrind, &["--tool=none"])
        );
        assert_eq!(
            find("dip").runner,
            Runner::Under(Tool::Taintprof, &["dip", "--"])
        );
        assert_eq!(find("dip").reports, Reports::Dip);
        assert_eq!(
            find("dip-exact").runner,
            Runner::Under(Tool::Taintprof, &["dip", "--exact", "--"])
        );
        assert_eq!(find("dip-exact").reports, Reports::Dip);
        // The baseline is in the default set.
        assert!(find(BASELINE).default);
    }

    #[test]
    fn jacobi_variants_share_the_source_and_differ_in_the_interior() {
        let find = |n: &str| WORKLOADS.iter().find(|w| w.name == n).unwrap();
        let (plain, den) = (find("jacobi"), find("jacobi-denormal"));
        assert_eq!(plain.file, den.file);
        // The default interior (no third argument) is normal; the variant's is 0.
        assert_eq!(plain.args.len(), 2);
        for a in [den.args, den.quick_args, den.callgrind_args] {
            assert_eq!(a.len(), 3);
            assert_eq!(a[2], "0");
            // Denormals appear only once the wavefront is ~64 cells in.
            assert!(a[0].parse::<u32>().unwrap() >= 256, "{a:?}");
            assert!(a[1].parse::<u32>().unwrap() >= 100, "{a:?}");
        }
        assert!(plain.source.contains("argv[3]"));
    }

    #[test]
    fn workloads_use_the_registration_macros_and_print_a_checksum() {
        for w in WORKLOADS {
            assert!(w.source.contains("TP_BENCH_PARAM("), "{}", w.name);
            assert!(w.source.contains("\"checksum "), "{}", w.name);
            assert!(w.source.contains("#include \"tp_bench.h\""), "{}", w.name);
            // Denormal mode: named arrays and snapshots over time.
            assert!(w.source.contains("TP_BENCH_ARRAY("), "{}", w.name);
            if w.name != "matmul" {
                assert!(w.source.contains("TP_BENCH_SNAPSHOT_ITER("), "{}", w.name);
            }
        }
    }
}
