//! What `taintprof bench` measures: the workloads and the configurations, one table
//! entry each.
//!
//! To add a workload, put its C file in `bench/workloads/` (registering its parameters
//! with `TP_BENCH_PARAM` from `tp_bench.h` and printing `checksum <value>`) and add an
//! entry to [`WORKLOADS`]. To add a configuration, add an entry to [`CONFIGS`]: how to
//! build ([`Build`]) and how to run ([`Runner`]). Configurations that share a build
//! (e.g. native and native under valgrind) name the same [`Build::id`] and are built once.
//! A configuration that is slow or needs extra tools can be left out of the default set
//! ([`Config::default`]) and given a time limit per run ([`Config::timeout`]).

/// A benchmark program.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    pub name: &'static str,
    /// File name of the source in `bench/workloads/`.
    pub file: &'static str,
    /// The source, embedded so that the installed `taintprof` needs no checkout.
    pub source: &'static str,
    pub about: &'static str,
    /// Arguments for the timed runs.
    pub args: &'static [&'static str],
    /// Arguments for `--quick` (smoke test).
    pub quick_args: &'static [&'static str],
    /// Arguments for `--callgrind` (instruction counts; valgrind is ~50x slower).
    pub callgrind_args: &'static [&'static str],
    /// Extra link flags.
    pub libs: &'static [&'static str],
}

/// The shared header every workload includes.
pub const HEADER: (&str, &str) = (
    "tp_bench.h",
    include_str!("../../../bench/workloads/tp_bench.h"),
);

pub const WORKLOADS: &[Workload] = &[
    Workload {
        name: "jacobi",
        file: "jacobi.c",
        source: include_str!("../../../bench/workloads/jacobi.c"),
        about: "2-D Jacobi stencil, float, n x n grid; parameters n, iterations",
        args: &["1024", "1000"],
        quick_args: &["128", "20"],
        callgrind_args: &["256", "20"],
        libs: &[],
    },
    Workload {
        name: "jacobi-denormal",
        file: "jacobi.c",
        source: include_str!("../../../bench/workloads/jacobi.c"),
        about: "the same stencil with the interior at 0 (thesis 6.4): a wavefront of denormals sweeps the grid",
        args: &["1024", "1000", "0"],
        quick_args: &["256", "120", "0"],
        callgrind_args: &["256", "120", "0"],
        libs: &[],
    },
    Workload {
        name: "matmul",
        file: "matmul.c",
        source: include_str!("../../../bench/workloads/matmul.c"),
        about: "dense matrix multiply, double; parameters m, n, k",
        args: &["1280"],
        quick_args: &["96"],
        callgrind_args: &["160"],
        libs: &[],
    },
];

/// The compiler a build uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compiler {
    /// clang 19, found like the wrappers find it.
    Clang,
    /// `taintprof-cc` next to the `taintprof` executable.
    TaintprofCc,
}

/// How to build a configuration's programs.
#[derive(Debug, Clone, Copy)]
pub struct Build {
    /// Builds with the same id are the same binaries.
    pub id: &'static str,
    pub compiler: Compiler,
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
    /// This `taintprof` executable (for subcommands that run a program).
    Taintprof,
}

/// The reports a configuration's runs write (shown after the runs as proof that
/// they tracked something).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reports {
    None,
    /// `<prog>.<pid>.taintprof.json`: must show parameter-dependent loops.
    Taint,
    /// `<prog>.<pid>.denormal.json` (compiler mode).
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
            hint: "build taintprof first: cargo build --release",
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
            hint: "build taintprof first: cargo build --release",
        },
        runner: Runner::Direct,
        reports: Reports::Taint,
        timeout: None,
        default: true,
    },
    Config {
        name: "dfsan",
        about: "clang-19 -O2 -fsanitize=dataflow",
        build: Build {
            id: "dfsan",
            compiler: Compiler::Clang,
            flags: &["-O2", "-fsanitize=dataflow"],
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
            hint: "does this taintprof's pass support --tp-mode=denormal? build it with: cargo build --release",
        },
        runner: Runner::Direct,
        reports: Reports::Denormal,
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
        default: false,
    },
    Config {
        name: "dip",
        about: "the native binary under taintprof dip (denormal exceptions; a trap per denormal instruction)",
        build: NATIVE_BUILD,
        runner: Runner::Under(Tool::Taintprof, &["dip", "--"]),
        reports: Reports::Dip,
        timeout: Some(300),
        default: false,
    },
];

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
        w.dedup();
        assert_eq!(w.len(), WORKLOADS.len());
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
            let (opts, rest) = crate::cc::split_own_flags(args).unwrap();
            assert!(opts.control_flow.is_some());
            assert_eq!(rest, ["-O2"]);
        }
    }

    #[test]
    fn denormal_configurations() {
        let find = |n: &str| CONFIGS.iter().find(|c| c.name == n).unwrap();
        let d = find("denormal");
        let args: Vec<String> = d.build.flags.iter().map(|s| s.to_string()).collect();
        let (opts, rest) = crate::cc::split_own_flags(args).unwrap();
        assert_eq!(opts.mode.as_deref(), Some("denormal"));
        assert_eq!(rest, ["-O2"]);
        assert_eq!(d.reports, Reports::Denormal);
        // valgrind-none and dip run the native binary; they are opt-in and time-limited.
        for n in ["valgrind-none", "dip"] {
            let c = find(n);
            assert_eq!(c.build.id, NATIVE_BUILD.id);
            assert!(!c.default && c.timeout.is_some(), "{n}");
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
    fn workloads_use_the_registration_macro_and_print_a_checksum() {
        for w in WORKLOADS {
            assert!(w.source.contains("TP_BENCH_PARAM("), "{}", w.name);
            assert!(w.source.contains("\"checksum "), "{}", w.name);
            assert!(w.source.contains("#include \"tp_bench.h\""), "{}", w.name);
        }
    }
}
