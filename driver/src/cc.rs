//! The compiler wrappers `taintprof-cc` and `taintprof-c++`: drop-in replacements for
//! `cc` / `c++` that compile with clang 19 and the taintprof pass, and link the runtime.
//!
//! What a wrapper does to a command line (see [`plan`]):
//!
//! 1. expand response files ([`crate::rsp`]) and take out its own `--tp-*` flags;
//! 2. classify the rest ([`crate::cmdline`]) — every other argument goes to clang
//!    untouched and in order;
//! 3. append, depending on the action:
//!    - compiling C/C++ (`-c`, `-S`, or sources on a link line):
//!      `-fpass-plugin=<plugin>`, `-I<include dir>`, and `-gline-tables-only` unless the
//!      user chose a debug level with line tables (with `--tp-mode=denormal`: full `-g`,
//!      since arrays are named by their variables, unless the user chose a level); the
//!      pass is told where to write its
//!      compile-time sidecar through `TAINTPROF_SIDECAR` / `TAINTPROF_SIDECAR_DIR`;
//!    - preprocessing: `-I<include dir>` (so `#include <taintprof.h>` resolves);
//!    - linking an executable: the runtime archive, the system libraries it needs
//!      ([`RUNTIME_NATIVE_LIBS`]; in static links libgcc's static unwinder instead of
//!      `libgcc_s`) and dynamic exports of the runtime's symbols, so instrumented shared
//!      libraries loaded by the program find the runtime's hooks (not in static
//!      executables, which load none);
//!    - linking a shared library (`-shared`, `-r`): no runtime;
//!    - queries (`--version`, `-v` alone, `-print-*`, no input): nothing;
//! 4. run clang and exit with its status.
//!
//! This module holds no knowledge of the analysis: the pass and the runtime read the
//! environment variables set here.

use crate::cmdline::{self, Action, CommandLine, DebugLevel};
use crate::locate::{Lang, Locator, NotFound};
use crate::rsp;
use std::path::{Path, PathBuf};
use std::process::Command;

/// System libraries the runtime needs besides libc: its undefined symbols
/// (`llvm-nm-19 -u libtaintprof_rt.a`) are libc's, and `pthread_*` and `dlsym`, which
/// glibc before 2.34 keeps in libpthread and libdl (still on HPC sites' older
/// distributions; empty stubs on newer ones). The runtime is `no_std` with `panic =
/// "abort"`: no unwinder (`-lgcc_s`), no libm, librt or libutil. A C++ program brings
/// libstdc++ itself. Keep in sync with the runtime when it gains dependencies.
pub const RUNTIME_NATIVE_LIBS: &[&str] = &["-lpthread", "-ldl"];

/// Symbol patterns exported from instrumented executables (`--export-dynamic-symbol`),
/// so that instrumented shared libraries resolve the runtime's hooks, thread-local
/// slots (`__tp_*`), wrappers (`__tpw_*`) and public API (`tp_*`) from the program.
pub const RUNTIME_EXPORTS: &[&str] = &["__tp*", "tp_*"];

/// Environment variables read by the pass plugin.
pub const ENV_MODE: &str = "TAINTPROF_MODE";
/// The denormal mode's tier (`full` or `profile`), read by the pass.
pub const ENV_DENORMAL_TIER: &str = "TAINTPROF_DENORMAL";
pub const ENV_CONTROL_FLOW: &str = "TAINTPROF_CONTROL_FLOW";
pub const ENV_SIDECAR: &str = "TAINTPROF_SIDECAR";
pub const ENV_SIDECAR_DIR: &str = "TAINTPROF_SIDECAR_DIR";
pub const ENV_VERBOSE: &str = "TAINTPROF_VERBOSE";
/// Time mode's selection file (`crate::time::selection_file`).
pub const ENV_TIME_SELECT: &str = "TAINTPROF_TIME_SELECT";

/// Above this many bytes of arguments (after expanding response files), clang gets
/// them through a new response file instead of the command line.
const MAX_COMMAND_LINE: usize = 100 * 1024;

/// The wrapper's own flags (`--tp-*`), parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TpOptions {
    /// `--tp-mode=taint|denormal|time` → `TAINTPROF_MODE`.
    pub mode: Option<String>,
    /// `--tp-prior REPORT` (time mode): the taint report that selects what to measure.
    pub prior: Option<PathBuf>,
    /// `--tp-filter FILE` (time mode): a Score-P filter that selects the functions.
    pub filter: Option<PathBuf>,
    /// The selection file made from `prior` or `filter` (`TAINTPROF_TIME_SELECT`).
    pub time_select: Option<PathBuf>,
    /// `--tp-control-flow=on|off` → `TAINTPROF_CONTROL_FLOW`.
    pub control_flow: Option<bool>,
    /// `--tp-denormal=full|profile` → `TAINTPROF_DENORMAL` (implies denormal mode).
    pub denormal_tier: Option<String>,
    /// `--tp-verbose`: print the clang command; `TAINTPROF_VERBOSE=1` for the pass.
    pub verbose: bool,
    /// `--tp-help`.
    pub help: bool,
    /// `--tp-mpi=off`: do not link the MPI interception library (`crate::mpi`).
    pub no_mpi: bool,
}

/// The valid `--tp-` flags, for the help and for errors.
pub const OWN_FLAGS: &[(&str, &str)] = &[
    (
        "--tp-mode=taint|denormal|time",
        "what to instrument for (default: taint; sets TAINTPROF_MODE; denormal adds -g; time measures call paths and loop counts for performance models)",
    ),
    (
        "--tp-prior=REPORT",
        "time mode: measure the functions the taint report REPORT says are not constant, main, the functions on their call paths, and count their loops with parameters (implies --tp-mode=time)",
    ),
    (
        "--tp-filter=FILE",
        "time mode: measure the functions a Score-P filter FILE includes (`taintprof report --scorep-filter`), and main (implies --tp-mode=time)",
    ),
    (
        "--tp-denormal=full|profile",
        "denormal mode's tier (implies --tp-mode=denormal): full (default) traces arrays, heatmaps, origins and creators; profile keeps the instruction profile and the creator sites only, for long runs (sets TAINTPROF_DENORMAL)",
    ),
    (
        "--tp-control-flow=on|off",
        "control-flow tainting (sets TAINTPROF_CONTROL_FLOW)",
    ),
    (
        "--tp-verbose",
        "print the clang command line; the pass reports what it does",
    ),
    (
        "--tp-mpi=auto|off",
        "auto (default): an executable linking libmpi or libmpich gets the MPI interception library (p, labels through MPI calls); off: not",
    ),
    ("--tp-help", "print this help"),
];

/// Takes the `--tp-` flags out of `args`.
pub fn split_own_flags(args: Vec<String>) -> Result<(TpOptions, Vec<String>), String> {
    let mut opts = TpOptions::default();
    let mut rest = Vec::with_capacity(args.len());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(flag) = arg.strip_prefix("--tp-") else {
            rest.push(arg);
            continue;
        };
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        // `--tp-prior FILE` and `--tp-filter FILE` also take their value as the next
        // argument.
        let value = match (name, value) {
            ("prior" | "filter", None) => args.next(),
            (_, v) => v,
        };
        let value = value.as_deref();
        match (name, value) {
            ("mode", Some(v @ ("taint" | "denormal" | "time"))) => opts.mode = Some(v.to_string()),
            ("prior", Some(v)) if !v.is_empty() => opts.prior = Some(PathBuf::from(v)),
            ("filter", Some(v)) if !v.is_empty() => opts.filter = Some(PathBuf::from(v)),
            ("prior" | "filter", _) => {
                return Err(format!("--tp-{name} needs a file (--tp-{name}=FILE)"))
            }
            ("mode", v) => {
                return Err(format!(
                    "--tp-mode needs a value: taint, denormal or time (got {})",
                    v.map_or("nothing".to_string(), |v| format!("`{v}`"))
                ))
            }
            ("denormal", Some(v @ ("full" | "profile"))) => {
                opts.denormal_tier = Some(v.to_string())
            }
            ("denormal", v) => {
                return Err(format!(
                    "--tp-denormal needs a value: full or profile (got {})",
                    v.map_or("nothing".to_string(), |v| format!("`{v}`"))
                ))
            }
            ("control-flow", Some("on")) => opts.control_flow = Some(true),
            ("control-flow", Some("off")) => opts.control_flow = Some(false),
            ("control-flow", v) => {
                return Err(format!(
                    "--tp-control-flow needs a value: on or off (got {})",
                    v.map_or("nothing".to_string(), |v| format!("`{v}`"))
                ))
            }
            ("mpi", Some("auto")) => opts.no_mpi = false,
            ("mpi", Some("off")) => opts.no_mpi = true,
            ("mpi", v) => {
                return Err(format!(
                    "--tp-mpi needs a value: auto or off (got {})",
                    v.map_or("nothing".to_string(), |v| format!("`{v}`"))
                ))
            }
            ("verbose", None) => opts.verbose = true,
            ("help", None) => opts.help = true,
            _ => {
                let valid: Vec<&str> = OWN_FLAGS.iter().map(|(f, _)| *f).collect();
                return Err(format!(
                    "unknown option `{arg}`; the taintprof options are: {}",
                    valid.join(", ")
                ));
            }
        }
    }
    if opts.denormal_tier.is_some() {
        match opts.mode.as_deref() {
            None | Some("denormal") => opts.mode = Some("denormal".into()),
            Some(m) => {
                return Err(format!(
                    "--tp-denormal chooses what denormal mode records; it does not go with --tp-mode={m}"
                ))
            }
        }
    }
    if opts.prior.is_some() || opts.filter.is_some() {
        match opts.mode.as_deref() {
            None | Some("time") => opts.mode = Some("time".into()),
            Some(m) => {
                return Err(format!(
                    "--tp-prior and --tp-filter select what time mode measures; they do not go with --tp-mode={m}"
                ))
            }
        }
        if opts.prior.is_some() && opts.filter.is_some() {
            return Err("--tp-prior and --tp-filter exclude each other: give one".into());
        }
    }
    Ok((opts, rest))
}

/// The help text of the wrappers.
pub fn help(lang: Lang) -> String {
    let name = lang.wrapper_name();
    let cc = match lang {
        Lang::C => "cc",
        Lang::Cxx => "c++",
    };
    let mut s = format!(
        "{name}: a drop-in `{cc}` that compiles with clang 19 and the taintprof pass\n\n\
         Usage: {name} [--tp-OPTIONS] [{cc} arguments ...]\n\n\
         Every argument except the --tp- options goes to clang unchanged. Compiling adds\n\
         the pass plugin, the taintprof include directory and -gline-tables-only (unless\n\
         you chose a -g level); linking an executable adds the taintprof runtime.\n\
         With --tp-mode=denormal the program counts denormal operands and results per\n\
         source site and follows its floating-point arrays (read the report with\n\
         `taintprof denormals`); compiling then adds full -g instead (unless you chose a\n\
         -g level): arrays are named by their variables, which only full debug info has.\n\
         With --tp-mode=time the program measures, per call path of the instrumented\n\
         functions, visits and inclusive and exclusive time, and counts loop iterations\n\
         exactly (a <prog>.<pid>.taintprof-time.rec record; `taintprof run` prints it).\n\
         What is instrumented: with --tp-prior=REPORT the functions the taint report says\n\
         are not constant, main and the functions on their call paths, and their loops\n\
         with parameters are counted; with --tp-filter=FILE the functions a Score-P\n\
         filter includes, and main; with neither, main, every function that contains\n\
         a loop or a call that may hide one (not an intrinsic, a noreturn function or a\n\
         math routine) and their callers, and all their loops. Instrumentation\n\
         happens before inlining, so -O0 and -O2 give the same call paths.\n\n\
         Options:\n"
    );
    for (flag, what) in OWN_FLAGS {
        s.push_str(&format!("  {flag:<26} {what}\n"));
    }
    s.push_str(
        "\nEnvironment:\n\
         \x20 TAINTPROF_CLANG / TAINTPROF_CLANGXX   the clang to run (default: clang-19 / clang++-19)\n\
         \x20 TAINTPROF_PLUGIN                      the pass plugin (libtaintprof_pass.so)\n\
         \x20 TAINTPROF_RUNTIME                     the runtime archive (libtaintprof_rt.a)\n\
         \x20 TAINTPROF_INCLUDE                     the directory with taintprof.h\n\
         \x20 TAINTPROF_ABILIST, TAINTPROF_POINTER_LABELS   read by the pass (see the docs)\n\
         \x20 TAINTPROF_ROUTINES                    extra library routines that loop over a size (rt/routines.txt)\n\
         \x20 TAINTPROF_MPI=0                       like --tp-mpi=off\n\
         \x20 TAINTPROF_MPI_SOURCE                  the MPI interception library's source (taintprof_mpi.c)\n\
         \x20 TAINTPROF_CACHE_DIR                   where it is compiled, once per MPI (default: ~/.cache/taintprof)\n\n\
         Example:  CC=taintprof-cc CXX=taintprof-c++ make && taintprof run -- ./app\n\
         MPI:      OMPI_CC=taintprof-cc mpicc ... (MPICH: MPICH_CC=taintprof-cc mpicc ...)\n",
    );
    s
}

/// Whether a query command line asks for the version (`--version`) and for the help
/// (`--help`, `-help`), which the wrapper completes with its own lines. Other queries
/// (`-dumpversion`, `-print-*`, ...) are clang's alone: tools parse them.
pub fn own_queries(args: &[String]) -> (bool, bool) {
    let version = args.iter().any(|a| a == "--version");
    let help = args.iter().any(|a| a == "--help" || a == "-help");
    (version, help)
}

/// What `--version` adds after clang's version: taintprof's version and what the wrapper
/// uses. After clang's lines, not before: build tools (meson) take the first version
/// number of `cc --version` as the compiler's.
pub fn version_text(lang: Lang, clang: &Path, locator: &Locator) -> String {
    let show = |r: Result<PathBuf, NotFound>| match r {
        Ok(p) => p.display().to_string(),
        Err(e) => format!("not found ({e})"),
    };
    format!(
        "\n{name} (taintprof {version}): clang 19 with the taintprof pass and runtime\n\
         \x20 clang    {clang}\n\
         \x20 plugin   {plugin}\n\
         \x20 runtime  {runtime}\n\
         \x20 include  {include}\n\
         \x20 mpi      {mpi}\n",
        name = lang.wrapper_name(),
        version = env!("CARGO_PKG_VERSION"),
        clang = clang.display(),
        plugin = show(locator.plugin()),
        runtime = show(locator.runtime()),
        include = show(locator.include_dir()),
        mpi = show(locator.mpi_source()),
    )
}

/// What `--help` adds after clang's help: where the wrapper's own options are.
pub fn help_footer(lang: Lang) -> String {
    let name = lang.wrapper_name();
    let flags: Vec<&str> = OWN_FLAGS
        .iter()
        .map(|(f, _)| f.split('=').next().unwrap_or(f))
        .filter(|f| *f != "--tp-help")
        .collect();
    format!(
        "\n{name} (taintprof {version}): the options above are clang's, passed through \
         unchanged. `{name} --tp-help` describes the taintprof options ({}) and environment \
         variables.\n",
        flags.join(", "),
        version = env!("CARGO_PKG_VERSION"),
    )
}

/// Everything the wrapper found on disk that a plan may need.
#[derive(Debug, Clone, Default)]
pub struct Artifacts {
    pub plugin: Option<PathBuf>,
    pub runtime: Option<PathBuf>,
    /// The runtime's export list beside the archive (`libtaintprof_rt.exports`, a
    /// `--dynamic-list`), if there is one; else the symbols are exported by pattern.
    pub runtime_exports: Option<PathBuf>,
    pub include: Option<PathBuf>,
    /// The MPI interception library, compiled for this link's MPI (`crate::mpi`).
    pub mpi_object: Option<PathBuf>,
}

/// What the wrapper will run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// clang arguments (without the program).
    pub args: Vec<String>,
    /// Environment variables to set for clang.
    pub env_set: Vec<(String, String)>,
    /// Environment variables to remove (stale values from a surrounding build).
    pub env_remove: Vec<String>,
    /// Notes for the user (stderr), e.g. about an overridden `-g0`.
    pub notes: Vec<String>,
}

/// Which artifacts a command line needs.
pub fn needs(cl: &CommandLine) -> (bool, bool, bool) {
    let instrument = cl.has_instrumentable_source()
        && matches!(
            cl.action,
            Action::Compile | Action::Link | Action::SharedLink
        );
    let plugin = instrument;
    let include = instrument || cl.action == Action::Preprocess;
    let runtime = cl.action == Action::Link;
    (plugin, runtime, include)
}

/// Decides the clang command for an expanded, classified command line. Pure: every
/// input is a parameter, so tests can check every case.
pub fn plan(
    args: &[String],
    cl: &CommandLine,
    opts: &TpOptions,
    art: &Artifacts,
    cwd: &Path,
) -> Plan {
    let mut out = Plan {
        args: args.to_vec(),
        env_set: Vec::new(),
        env_remove: Vec::new(),
        notes: Vec::new(),
    };
    if cl.action == Action::Query {
        return out;
    }
    let (need_plugin, need_runtime, need_include) = needs(cl);

    if need_plugin {
        if let Some(p) = &art.plugin {
            out.args.push(format!("-fpass-plugin={}", p.display()));
        }
    }
    if need_include {
        if let Some(dir) = &art.include {
            out.args.push(format!("-I{}", dir.display()));
        }
    }
    let denormal = opts.mode.as_deref() == Some("denormal");
    if need_plugin && denormal {
        match cl.debug {
            Some(DebugLevel::Full) => {}
            Some(DebugLevel::LineTables) => out.notes.push(
                "note: line tables only (as you chose): denormal mode names arrays by their allocation sites instead of their variables; -g gives the names".into(),
            ),
            Some(DebugLevel::None) => {
                out.args.push("-g".into());
                out.notes.push(
                    "note: -g0 overridden with -g: denormal mode names sites by source lines and arrays by their variables".into(),
                );
            }
            Some(DebugLevel::LineDirectives) => {
                out.args.push("-g".into());
                out.notes.push(
                    "note: -gline-directives-only extended to -g: denormal mode names sites by source lines and arrays by their variables".into(),
                );
            }
            None => out.args.push("-g".into()),
        }
    } else if need_plugin {
        match cl.debug {
            Some(level) if level.has_line_tables() => {}
            Some(DebugLevel::None) => {
                out.args.push("-gline-tables-only".into());
                out.notes.push(
                    "note: -g0 overridden with -gline-tables-only: taintprof names loops by their source lines".into(),
                );
            }
            Some(_) => {
                out.args.push("-gline-tables-only".into());
                out.notes.push(
                    "note: -gline-directives-only extended to -gline-tables-only: taintprof names loops by their source lines".into(),
                );
            }
            None => out.args.push("-gline-tables-only".into()),
        }
    }
    if need_plugin {
        // Line tables alone carry no linkage names for inlined C++ functions, so a loop
        // inlined from `matrix::at` would be reported as plain `at`. This flag adds them
        // (and discriminators) without changing the generated code (checked on the test
        // programs and the bench workloads: identical machine code).
        out.args.push("-fdebug-info-for-profiling".into());
        if cl.lto {
            out.notes.push(
                "warning: -flto is not supported: the pass runs before link-time optimization and code optimized at link time may lose its instrumentation".into(),
            );
        }
        // Where the pass writes its compile-time sidecar; stale values from a
        // surrounding build must not leak in.
        out.env_remove = vec![ENV_SIDECAR.into(), ENV_SIDECAR_DIR.into()];
        out.env_set.push(sidecar(cl, cwd));
        if let Some(mode) = &opts.mode {
            out.env_set.push((ENV_MODE.into(), mode.clone()));
        }
        if let Some(tier) = &opts.denormal_tier {
            out.env_set.push((ENV_DENORMAL_TIER.into(), tier.clone()));
        }
        out.env_remove.push(ENV_TIME_SELECT.into());
        if let Some(sel) = &opts.time_select {
            out.env_set
                .push((ENV_TIME_SELECT.into(), sel.display().to_string()));
        }
        if let Some(cf) = opts.control_flow {
            out.env_set.push((
                ENV_CONTROL_FLOW.into(),
                if cf { "on" } else { "off" }.into(),
            ));
        }
        if opts.verbose {
            out.env_set.push((ENV_VERBOSE.into(), "1".into()));
        }
    }
    if need_runtime {
        if let Some(rt) = &art.runtime {
            // After `-x c`, clang would read the archive as C source.
            if cl.trailing_language.is_some() {
                out.args.push("-x".into());
                out.args.push("none".into());
            }
            if let Some(o) = &art.mpi_object {
                out.args.push(o.display().to_string());
            }
            out.args.push(rt.display().to_string());
            // Pull in the runtime even if no object references it (a program whose
            // instrumented code lives in shared libraries).
            out.args.push(format!(
                "-Wl,--undefined={}",
                taintprof_abi::HOOK_REGISTER_MODULE
            ));
            // A static executable loads no instrumented libraries, and exporting the
            // runtime's initial-exec TLS slots from a static PIE leaves TPOFF
            // relocations that glibc cannot apply before TLS exists (a crash at start).
            if !cl.static_exe {
                match &art.runtime_exports {
                    // The exact names (`scripts/build-runtime.sh`): cheaper for the linker.
                    Some(list) => out
                        .args
                        .push(format!("-Wl,--dynamic-list={}", list.display())),
                    None => {
                        for sym in RUNTIME_EXPORTS {
                            out.args.push(format!("-Wl,--export-dynamic-symbol={sym}"));
                        }
                    }
                }
            }
            out.args
                .extend(RUNTIME_NATIVE_LIBS.iter().map(|s| s.to_string()));
        }
    }
    out
}

/// The sidecar variable for a compile: one object named by `-o` → that object's name
/// plus `.taintprof-static.json`; otherwise the directory the objects (or the executable) go to.
fn sidecar(cl: &CommandLine, cwd: &Path) -> (String, String) {
    let compiled = cl.compiled_inputs().count();
    let out = cl.output.as_deref().filter(|o| *o != "-");
    if cl.action == Action::Compile {
        if let (Some(o), 1) = (out, compiled) {
            let path = cwd.join(format!("{o}.taintprof-static.json"));
            return (ENV_SIDECAR.into(), path.display().to_string());
        }
        return (ENV_SIDECAR_DIR.into(), cwd.display().to_string());
    }
    // Compile and link in one step: next to the executable.
    let dir = out
        .map(|o| cwd.join(o))
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| cwd.to_path_buf());
    (ENV_SIDECAR_DIR.into(), dir.display().to_string())
}

/// The wrapper's `main`: returns the process exit status.
pub fn main(lang: Lang) -> i32 {
    let name = lang.wrapper_name();
    match run(lang) {
        Ok(code) => code,
        Err(msg) => {
            errln!("{name}: error: {msg}");
            1
        }
    }
}

fn run(lang: Lang) -> Result<i32, String> {
    let raw: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| format!("argument is not valid UTF-8: {}", a.to_string_lossy()))
        })
        .collect::<Result<_, _>>()?;
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read working directory: {e}"))?;
    let had_rsp = raw.iter().any(|a| a.starts_with('@'));
    let expanded = rsp::expand(&raw, &cwd).map_err(|e| e.to_string())?;
    let (mut opts, args) = split_own_flags(expanded)?;
    if opts.help {
        out!("{}", help(lang));
        return Ok(0);
    }
    let cl = cmdline::classify(&args);
    if opts.prior.is_some() || opts.filter.is_some() {
        let abs = |p: &Option<PathBuf>| p.as_ref().map(|p| cwd.join(p));
        opts.time_select = Some(crate::time::selection_file(
            abs(&opts.prior).as_deref(),
            abs(&opts.filter).as_deref(),
        )?);
    }
    let locator = Locator::from_process();
    let clang = locator.clang(lang).map_err(|e| e.to_string())?;
    if cl.action == Action::Query {
        let (version, help) = own_queries(&args);
        if version || help {
            // clang answers first, then the wrapper adds its part.
            let status = Command::new(&clang)
                .args(&args)
                .status()
                .map_err(|e| format!("cannot run {}: {e}", clang.display()))?;
            if version {
                out!("{}", version_text(lang, &clang, &locator));
            }
            if help {
                out!("{}", help_footer(lang));
            }
            return Ok(crate::exit_code(status));
        }
    }
    let (need_plugin, need_runtime, need_include) = needs(&cl);
    let found = |r: Result<PathBuf, NotFound>| r.map(Some).map_err(|e| e.to_string());
    let art = Artifacts {
        plugin: if need_plugin {
            found(locator.plugin())?
        } else {
            None
        },
        runtime: if need_runtime {
            found(locator.runtime())?
        } else {
            None
        },
        include: if need_include {
            found(locator.include_dir())?
        } else {
            None
        },
        mpi_object: None,
        runtime_exports: None,
    };
    let mut art = art;
    art.runtime_exports = art
        .runtime
        .as_ref()
        .map(|rt| rt.with_extension("exports"))
        .filter(|l| l.is_file());
    let denormal = opts.mode.as_deref() == Some("denormal")
        || std::env::var(ENV_MODE).is_ok_and(|m| m == "denormal");
    let mpi_off = opts.no_mpi
        || std::env::var("TAINTPROF_MPI").is_ok_and(|v| matches!(v.as_str(), "0" | "off" | "no"));
    if need_runtime && !denormal && !mpi_off && crate::mpi::is_mpi_link(&cl, &args) {
        let built = locator
            .mpi_source()
            .map_err(|e| e.to_string())
            .and_then(|src| crate::mpi::object(&clang, &src, &args));
        match built {
            Ok(o) => art.mpi_object = Some(o),
            Err(e) => errln!(
                "{}: warning: {e}\n{}: the program links without the MPI interception library: labels will not cross MPI calls and the process count p is not known (--tp-mpi=off silences this)",
                lang.wrapper_name(),
                lang.wrapper_name()
            ),
        }
    }
    let plan = plan(&args, &cl, &opts, &art, &cwd);
    for note in &plan.notes {
        errln!("{}: {note}", lang.wrapper_name());
    }

    let mut cmd = Command::new(&clang);
    for k in &plan.env_remove {
        cmd.env_remove(k);
    }
    for (k, v) in &plan.env_set {
        cmd.env(k, v);
    }
    let total: usize = plan.args.iter().map(|a| a.len() + 1).sum();
    let rsp_file = if had_rsp && total > MAX_COMMAND_LINE {
        let path = std::env::temp_dir().join(format!(
            "{}-{}.rsp",
            lang.wrapper_name(),
            std::process::id()
        ));
        std::fs::write(&path, rsp::write(&plan.args))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        cmd.arg(format!("@{}", path.display()));
        Some(path)
    } else {
        cmd.args(&plan.args);
        None
    };
    if opts.verbose {
        errln!(
            "{}: {}",
            lang.wrapper_name(),
            display_command(&clang, &plan.env_set, &plan.args)
        );
    }
    match rsp_file {
        None => {
            use std::os::unix::process::CommandExt;
            let err = cmd.exec();
            Err(format!("cannot run {}: {err}", clang.display()))
        }
        Some(path) => {
            let status = cmd.status();
            let _ = std::fs::remove_file(&path);
            let status = status.map_err(|e| format!("cannot run {}: {e}", clang.display()))?;
            Ok(crate::exit_code(status))
        }
    }
}

/// A command as a shell line: `VAR=value ... program args`, quoted where needed.
pub fn display_command(program: &Path, env: &[(String, String)], args: &[String]) -> String {
    let mut parts: Vec<String> = env
        .iter()
        .map(|(k, v)| format!("{k}={}", shell_quote(v)))
        .collect();
    parts.push(shell_quote(&program.display().to_string()));
    parts.extend(args.iter().map(|a| shell_quote(a)));
    parts.join(" ")
}

/// Quotes `s` for a POSIX shell if it needs it.
pub fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    fn art() -> Artifacts {
        Artifacts {
            plugin: Some("/tp/libtaintprof_pass.so".into()),
            runtime: Some("/tp/libtaintprof_rt.a".into()),
            include: Some("/tp/include".into()),
            mpi_object: None,
            runtime_exports: None,
        }
    }

    fn plan_for(line: &str) -> Plan {
        let (opts, a) = split_own_flags(args(line)).unwrap();
        let cl = cmdline::classify(&a);
        plan(&a, &cl, &opts, &art(), Path::new("/work"))
    }

    fn env(p: &Plan, k: &str) -> Option<String> {
        p.env_set
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    }

    #[test]
    fn own_flags_are_removed_and_parsed() {
        let (o, rest) = split_own_flags(args(
            "-O2 --tp-mode=denormal -c --tp-control-flow=off a.c --tp-verbose",
        ))
        .unwrap();
        assert_eq!(rest, args("-O2 -c a.c"));
        assert_eq!(o.mode.as_deref(), Some("denormal"));
        assert_eq!(o.control_flow, Some(false));
        assert!(o.verbose);
        assert!(!o.help);
        assert!(!o.no_mpi);
        let (o, rest) = split_own_flags(args("a.o --tp-mpi=off -lmpi")).unwrap();
        assert_eq!(rest, args("a.o -lmpi"));
        assert!(o.no_mpi);
        let (o, _) = split_own_flags(args("--tp-mpi=off --tp-mpi=auto")).unwrap();
        assert!(!o.no_mpi);
    }

    #[test]
    fn unknown_or_bad_own_flags_are_errors() {
        let e = split_own_flags(args("--tp-frobnicate -c a.c")).unwrap_err();
        assert!(e.contains("unknown option `--tp-frobnicate`"), "{e}");
        assert!(
            e.contains("--tp-mode=taint|denormal") && e.contains("--tp-help"),
            "{e}"
        );
        assert!(split_own_flags(args("--tp-mode=fast")).is_err());
        let (o, _) = split_own_flags(args("--tp-denormal=profile a.c")).unwrap();
        assert_eq!(o.mode.as_deref(), Some("denormal"));
        assert_eq!(o.denormal_tier.as_deref(), Some("profile"));
        let (o, _) = split_own_flags(args("--tp-mode=denormal --tp-denormal=full a.c")).unwrap();
        assert_eq!(o.denormal_tier.as_deref(), Some("full"));
        assert!(split_own_flags(args("--tp-denormal=cheap")).is_err());
        assert!(split_own_flags(args("--tp-denormal")).is_err());
        assert!(split_own_flags(args("--tp-mode=time --tp-denormal=profile")).is_err());
        assert!(split_own_flags(args("--tp-mode")).is_err());
        assert!(split_own_flags(args("--tp-control-flow=maybe")).is_err());
        assert!(split_own_flags(args("--tp-verbose=1")).is_err());
        assert!(split_own_flags(args("--tp-mpi=on")).is_err());
        assert!(split_own_flags(args("--tp-mpi")).is_err());
        // Not ours: passes through.
        let (_, rest) = split_own_flags(args("--t -tp-x --tpx")).unwrap();
        assert_eq!(rest, args("--t -tp-x --tpx"));
    }

    #[test]
    fn compile_with_output_gets_plugin_include_lines_and_sidecar_file() {
        let p = plan_for("-O2 -c kernel.c -o obj/kernel.o");
        assert_eq!(
            p.args,
            args("-O2 -c kernel.c -o obj/kernel.o -fpass-plugin=/tp/libtaintprof_pass.so -I/tp/include -gline-tables-only -fdebug-info-for-profiling")
        );
        assert_eq!(
            env(&p, ENV_SIDECAR).as_deref(),
            Some("/work/obj/kernel.o.taintprof-static.json")
        );
        assert_eq!(env(&p, ENV_SIDECAR_DIR), None);
        // A stale selection of a surrounding build never reaches the pass.
        assert_eq!(
            p.env_remove,
            vec![ENV_SIDECAR, ENV_SIDECAR_DIR, ENV_TIME_SELECT]
        );
        assert!(p.notes.is_empty());
    }

    #[test]
    fn time_mode_flags() {
        let (o, rest) = split_own_flags(args("--tp-prior r.json -O2 -c a.c")).unwrap();
        assert_eq!(o.mode.as_deref(), Some("time"));
        assert_eq!(o.prior.as_deref(), Some(Path::new("r.json")));
        assert_eq!(rest, args("-O2 -c a.c"));
        let (o, _) = split_own_flags(args("--tp-mode=time --tp-filter=f.txt a.c")).unwrap();
        assert_eq!(o.filter.as_deref(), Some(Path::new("f.txt")));
        assert!(split_own_flags(args("--tp-prior")).is_err());
        assert!(split_own_flags(args("--tp-prior=a --tp-filter=b")).is_err());
        assert!(split_own_flags(args("--tp-mode=taint --tp-prior=a")).is_err());
        let (o, _) = split_own_flags(args("--tp-mode=time a.c")).unwrap();
        assert_eq!(o.mode.as_deref(), Some("time"));
    }

    #[test]
    fn compile_without_output_uses_sidecar_dir() {
        let p = plan_for("-c a.c b.c");
        assert_eq!(env(&p, ENV_SIDECAR_DIR).as_deref(), Some("/work"));
        assert_eq!(env(&p, ENV_SIDECAR), None);
        let p = plan_for("-c a.c");
        assert_eq!(env(&p, ENV_SIDECAR_DIR).as_deref(), Some("/work"));
    }

    #[test]
    fn absolute_output_is_kept() {
        let p = plan_for("-c a.c -o /tmp/x/a.o");
        assert_eq!(
            env(&p, ENV_SIDECAR).as_deref(),
            Some("/tmp/x/a.o.taintprof-static.json")
        );
    }

    #[test]
    fn user_debug_levels() {
        let p = plan_for("-g -c a.c");
        assert!(!p.args.contains(&"-gline-tables-only".to_string()));
        let p = plan_for("-g1 -c a.c");
        assert!(!p.args.contains(&"-gline-tables-only".to_string()));
        let p = plan_for("-g0 -c a.c");
        assert!(p.args.contains(&"-gline-tables-only".to_string()));
        assert_eq!(p.args.last().unwrap(), "-fdebug-info-for-profiling");
        assert_eq!(p.notes.len(), 1);
        assert!(p.notes[0].contains("-g0 overridden"), "{:?}", p.notes);
    }

    #[test]
    fn link_of_sources_compiles_and_links_runtime() {
        let p = plan_for("-O2 main.c util.c -o bin/app -lm");
        let tail: Vec<&str> = p.args.iter().map(String::as_str).collect();
        assert_eq!(&tail[..5], &["-O2", "main.c", "util.c", "-o", "bin/app"]);
        assert!(tail.contains(&"-fpass-plugin=/tp/libtaintprof_pass.so"));
        assert!(tail.contains(&"/tp/libtaintprof_rt.a"));
        assert!(tail.contains(&"-Wl,--export-dynamic-symbol=__tp*"));
        assert!(tail.contains(&"-Wl,--undefined=__tp_register_module"));
        // With the runtime's export list beside it: exact names instead of patterns.
        let (opts, a) = split_own_flags(args("-O2 main.c -o app")).unwrap();
        let cl = cmdline::classify(&a);
        let mut with_list = art();
        with_list.runtime_exports = Some("/tp/libtaintprof_rt.exports".into());
        let q = plan(&a, &cl, &opts, &with_list, Path::new("/tmp/x"));
        assert!(q
            .args
            .contains(&"-Wl,--dynamic-list=/tp/libtaintprof_rt.exports".to_string()));
        assert!(!q.args.iter().any(|x| x.contains("--export-dynamic-symbol")));
        // The runtime comes after the user's libraries, then its own dependencies.
        let rt = tail
            .iter()
            .position(|a| *a == "/tp/libtaintprof_rt.a")
            .unwrap();
        let lm = tail.iter().position(|a| *a == "-lm").unwrap();
        assert!(lm < rt);
        assert_eq!(tail.last().unwrap(), RUNTIME_NATIVE_LIBS.last().unwrap());
        assert_eq!(env(&p, ENV_SIDECAR_DIR).as_deref(), Some("/work/bin"));
    }

    #[test]
    fn static_links_export_nothing() {
        for flag in ["-static", "--static", "-static-pie", "-static-libgcc", ""] {
            let p = plan_for(&format!("-O2 {flag} main.c -o app"));
            // The runtime needs no unwinder, static or not.
            assert!(
                !p.args.iter().any(|a| a == "-lgcc_s" || a == "-lgcc_eh"),
                "{flag}: {:?}",
                p.args
            );
            assert!(p.args.iter().any(|a| a == "-lpthread"), "{flag}");
        }
        // Static executables export nothing; -static-libgcc alone still does.
        let exports = |p: &Plan| p.args.iter().any(|a| a.starts_with("-Wl,--export"));
        assert!(!exports(&plan_for("-static main.c -o app")));
        assert!(!exports(&plan_for("-static-pie main.c -o app")));
        assert!(exports(&plan_for("-static-libgcc main.c -o app")));
    }

    #[test]
    fn link_without_output_puts_sidecars_in_cwd() {
        let p = plan_for("main.c");
        assert_eq!(env(&p, ENV_SIDECAR_DIR).as_deref(), Some("/work"));
    }

    #[test]
    fn link_of_objects_only_adds_runtime_but_no_plugin() {
        let p = plan_for("a.o b.o -o app");
        assert!(!p.args.iter().any(|a| a.starts_with("-fpass-plugin")));
        assert!(!p.args.iter().any(|a| a.starts_with("-I")));
        assert!(!p.args.iter().any(|a| a == "-gline-tables-only"));
        assert!(p.args.contains(&"/tp/libtaintprof_rt.a".to_string()));
        assert!(p.env_set.is_empty());
    }

    #[test]
    fn shared_link_gets_no_runtime() {
        let p = plan_for("-shared -fPIC lib.c -o libx.so");
        assert!(p.args.iter().any(|a| a.starts_with("-fpass-plugin")));
        assert!(!p.args.iter().any(|a| a.ends_with("libtaintprof_rt.a")));
        assert!(!p.args.iter().any(|a| a.starts_with("-Wl,--export")));
        let p = plan_for("-shared a.o -o libx.so");
        assert_eq!(p.args, args("-shared a.o -o libx.so"));
    }

    #[test]
    fn preprocess_gets_include_only() {
        let p = plan_for("-E a.c");
        assert_eq!(p.args, args("-E a.c -I/tp/include"));
        assert!(p.env_set.is_empty());
        let p = plan_for("-MM a.c");
        assert_eq!(p.args, args("-MM a.c -I/tp/include"));
    }

    #[test]
    fn queries_are_untouched() {
        for line in [
            "--version",
            "-v",
            "-dumpmachine",
            "",
            "-print-file-name=crt1.o",
        ] {
            let p = plan_for(line);
            assert_eq!(p.args, args(line), "{line}");
            assert!(p.env_set.is_empty() && p.env_remove.is_empty());
        }
    }

    #[test]
    fn runtime_after_x_language_is_protected() {
        let p = plan_for("-x c prog.txt -o prog");
        let i = p.args.iter().position(|a| a == "none").unwrap();
        assert_eq!(p.args[i - 1], "-x");
        assert_eq!(p.args[i + 1], "/tp/libtaintprof_rt.a");
        let p = plan_for("-x c prog.txt -x none -o prog");
        assert_eq!(p.args.iter().filter(|a| *a == "none").count(), 1);
    }

    #[test]
    fn own_flags_become_environment() {
        let p = plan_for("--tp-mode=denormal --tp-control-flow=on --tp-verbose -c a.c");
        assert_eq!(env(&p, ENV_MODE).as_deref(), Some("denormal"));
        assert_eq!(env(&p, ENV_CONTROL_FLOW).as_deref(), Some("on"));
        assert_eq!(env(&p, ENV_VERBOSE).as_deref(), Some("1"));
        // Unset flags leave the user's environment alone.
        let p = plan_for("-c a.c");
        assert_eq!(env(&p, ENV_MODE), None);
        assert_eq!(env(&p, ENV_CONTROL_FLOW), None);
    }

    #[test]
    fn denormal_mode_adds_full_debug_info_unless_a_level_was_chosen() {
        let p = plan_for("--tp-denormal=profile -O2 -c a.c -o a.o");
        assert_eq!(env(&p, ENV_MODE).as_deref(), Some("denormal"));
        assert_eq!(env(&p, ENV_DENORMAL_TIER).as_deref(), Some("profile"));
        let p = plan_for("--tp-mode=denormal -O2 -c a.c -o a.o");
        assert_eq!(env(&p, ENV_DENORMAL_TIER), None);
        assert_eq!(env(&p, ENV_MODE).as_deref(), Some("denormal"));
        assert!(p.args.contains(&"-g".to_string()), "{:?}", p.args);
        assert!(!p.args.contains(&"-gline-tables-only".to_string()));
        assert!(p.notes.is_empty());
        // The same runtime is linked as in taint mode.
        let p = plan_for("--tp-mode=denormal -O2 a.c -o app");
        assert!(p.args.contains(&"-g".to_string()));
        assert!(p.args.contains(&"/tp/libtaintprof_rt.a".to_string()));
        // A level the user chose stays (with a note when it has no variable names).
        let p = plan_for("--tp-mode=denormal -g3 -c a.c");
        assert!(!p
            .args
            .iter()
            .any(|a| a == "-g" || a == "-gline-tables-only"));
        assert!(p.notes.is_empty());
        let p = plan_for("--tp-mode=denormal -gline-tables-only -c a.c");
        assert!(!p.args.iter().any(|a| a == "-g"));
        assert!(p.notes[0].contains("allocation sites"), "{:?}", p.notes);
        let p = plan_for("--tp-mode=denormal -g0 -c a.c");
        assert_eq!(p.args.iter().filter(|a| *a == "-g").count(), 1);
        assert!(
            p.notes[0].contains("-g0 overridden with -g"),
            "{:?}",
            p.notes
        );
        // Linking objects only: no debug flags.
        let p = plan_for("--tp-mode=denormal a.o -o app");
        assert!(!p.args.iter().any(|a| a.starts_with("-g")));
        assert!(help(Lang::C).contains("compiling then adds full -g"));
    }

    #[test]
    fn assembly_only_is_not_instrumented() {
        let p = plan_for("-c start.S -o start.o");
        assert_eq!(p.args, args("-c start.S -o start.o"));
    }

    #[test]
    fn lto_warns() {
        let p = plan_for("-flto -c a.c");
        assert!(p.notes.iter().any(|n| n.contains("-flto")));
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("-O2"), "-O2");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(
            display_command(
                Path::new("/usr/bin/clang-19"),
                &[("K".into(), "v w".into())],
                &args("-c a.c")
            ),
            "K='v w' /usr/bin/clang-19 -c a.c"
        );
    }

    #[test]
    fn help_lists_every_flag() {
        let h = help(Lang::Cxx);
        for (f, _) in OWN_FLAGS {
            assert!(h.contains(f), "{f}");
        }
        assert!(h.starts_with("taintprof-c++"));
    }

    #[test]
    fn version_and_help_queries_are_completed() {
        assert_eq!(own_queries(&args("--version")), (true, false));
        assert_eq!(own_queries(&args("--help")), (false, true));
        assert_eq!(own_queries(&args("-dumpversion")), (false, false));
        assert_eq!(
            own_queries(&args("-print-file-name=crt1.o")),
            (false, false)
        );
        let f = help_footer(Lang::C);
        assert!(f.contains("`taintprof-cc --tp-help`"), "{f}");
        assert!(
            f.contains("--tp-mode") && f.contains("--tp-control-flow"),
            "{f}"
        );
    }
}
