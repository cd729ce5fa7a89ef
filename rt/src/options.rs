//! Every run-time knob of the runtime, in one place.
//!
//! All knobs are environment variables, read once at start-up (from the `envp` the
//! dynamic loader passes to `.preinit_array` functions, because `environ` may not be
//! set up yet at that point) and never again: changing the environment with `setenv`
//! inside the program has no effect.
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `TAINTPROF_OUT` | the working directory at start-up | Directory for the report. Created (with parents) if missing. A relative path is taken relative to the working directory at start-up, so a program that `chdir`s still writes where it was started. |
//! | `TAINTPROF_QUIET` | `1` if stderr is not a terminal, else `0` | `1`: do not print `taintprof: record written to ...` (in either mode; nor, when set explicitly, the partial-record line on fatal signals). `0`: always print it. Unset, the line goes only to a terminal: build tools run instrumented helper programs and treat any output on their stderr as failure (Tcl's `exec`, in sqlite's build), and test suites compare it with expected output. Errors are always printed. |
//! | `TAINTPROF_REPORT` | `1` | `1`: write the output of the run whenever and however it ends (exit, fatal signal, `_exit`, before an `exec`, `tp_write_report`), atomically and once: in taint mode the raw run record `<prog>.<pid>.taintprof.rec` ([`crate::record`], `docs/internal/record.md`; `taintprof report` analyses it), in denormal mode the denormal record `<prog>.<pid>.denormal.rec` ([`crate::denormal::record`]; `taintprof denormals` and `taintprof run` analyse it). `0`: write nothing (for overhead measurements). |
//! | `TAINTPROF_HANDLE_SIGNALS` | `1` | `0`: install no handlers for fatal signals; a crashing program then leaves no report. |
//! | `TAINTPROF_VERBOSE` | `0` | `1`: print start-up details (shadow range, report directory) on stderr. |
//! | `TAINTPROF_UNLIMITED_STACK_MIB` | `8192` | Under an unlimited stack size limit (`ulimit -s unlimited`), the kernel's legacy memory layout puts shared libraries where the shadow memory must go, so start-up re-executes the program once with this soft limit in MiB (the kernel then keeps that much room below the main stack) and sets the limit back to unlimited in the new process ([`crate::stack`]). `0`: never re-execute; such a program then stops with an explanation. |
//! | `TAINTPROF_MAX_CONTEXTS` | `32` | Calling contexts listed per function and per loop in the taint report (`0`: all). One context of each distinct parameter set is listed first, then the others in path order up to the limit; `contexts_omitted` counts the rest. Parameters, volumes and executions are computed from every context whatever the limit: a recursive parser's functions have hundreds of thousands of contexts, and listing them all wrote a 7 GB report. |
//! | `TAINTPROF_CONTROL_SPLIT` | `1` | `1`: labels keep apart the parameters a value got through data and those it got only through control flow (a branch, a loop's exit test, a count), so the report can say per loop which parameters came only through control flow (`control_only_params`). This takes two label bits per parameter, so it holds 8 parameters: registering a 9th turns it off for the rest of the run (the report's `control_split` says so). `0`: one bit per parameter from the start, and the report does not make the distinction. Needs no rebuild. |
//! | `TAINTPROF_IMPLICIT_P` | `1` | `1`: in an MPI program (built with `taintprof-cc` in front of `mpicc`, which links the MPI interception library), the value `MPI_Comm_size(MPI_COMM_WORLD, &size)` returns is the implicit parameter `p`, as in the paper: loops over ranks, local shares `n / p` and the cost of MPI calls depend on it. It counts toward the 16 parameters and the report lists it as implicit. `0`: no `p`. |
//! | `TAINTPROF_IMPLICIT_THREADS` | `0` | `1`: the value `omp_get_num_threads()` and `omp_get_max_threads()` return is the implicit parameter `threads` (OpenMP programs). Off by default: most OpenMP codes divide work by the thread count without it being a modelling parameter. |
//!
//! Denormal mode (programs built with `--tp-mode=denormal`) only:
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `TAINTPROF_SNAPSHOT_OPS` | `0` (off) | Take a snapshot of the array counters (heatmaps) every `N` million floating-point operations. A sampler thread, started only when this is set, sums the per-thread block counters every few milliseconds; instrumented code checks nothing. Snapshots are also taken by `tp_snapshot(label)`, by `SIGUSR1` (unless `TAINTPROF_HANDLE_SIGNALS=0` or the program handles it) and at exit. |
//! | `TAINTPROF_SNAPSHOT_MEMORY` | `256` | MiB of memory snapshots may use (up to 2 × 256 × 256 cells of 4 bytes per array per snapshot); further snapshots are skipped (the report warns), the exit snapshot is always taken. |
//! | `TAINTPROF_ALL_SITES` | `0` | `1`: list every instrumented FP site in the report's `sites`, also those that never saw a denormal (by default only sites with denormal events are listed). |
//!
//! Time mode (programs built with `--tp-mode=time`) only:
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `TAINTPROF_TIME_NODES` | `65536` | Calling-context nodes (and loop counts) each thread can hold (`crate::time`); contexts beyond are not timed and the record counts them. |
//!
//! Boolean values: `1`, `true`, `yes`, `on` (any case) are true; `0`, `false`, `no`,
//! `off` and the empty string are false; anything else keeps the default and prints a
//! warning. `TAINTPROF_ABILIST` is read by the compiler pass, not by the runtime.

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use taintprof_sigsafe::{cstr, Lossy, StackBuf};

// The environment look-up and the knob parsers are shared with `libtaintprof_dip.so`.
pub(crate) use taintprof_sigsafe::env::lookup as env_lookup;
pub use taintprof_sigsafe::env::{parse_bool, parse_u64};

/// Longest report directory path we keep (Linux `PATH_MAX`).
pub const PATH_MAX: usize = 4096;

static QUIET: AtomicBool = AtomicBool::new(false);
/// `TAINTPROF_QUIET` set to true explicitly (silences the crash line too).
static QUIET_ON_SIGNAL: AtomicBool = AtomicBool::new(false);
static REPORT: AtomicBool = AtomicBool::new(true);
static HANDLE_SIGNALS: AtomicBool = AtomicBool::new(true);
static VERBOSE: AtomicBool = AtomicBool::new(false);
static SNAPSHOT_OPS: AtomicU64 = AtomicU64::new(0);
static MAX_CONTEXTS: AtomicU64 = AtomicU64::new(32);
static TIME_NODES: AtomicU64 = AtomicU64::new(1 << 16);
static SNAPSHOT_MEMORY: AtomicU64 = AtomicU64::new(256);
static ALL_SITES: AtomicBool = AtomicBool::new(false);
static CONTROL_SPLIT: AtomicBool = AtomicBool::new(true);
static IMPLICIT_P: AtomicBool = AtomicBool::new(true);
static IMPLICIT_THREADS: AtomicBool = AtomicBool::new(false);
static UNLIMITED_STACK_MIB: AtomicU64 = AtomicU64::new(crate::stack::DEFAULT_MIB);

/// The report directory, absolute, fixed at start-up. Written only by [`init`] (which
/// runs before any other thread exists), read afterwards.
struct OutDir(UnsafeCell<StackBuf<PATH_MAX>>);
// SAFETY: written once during single-threaded start-up, read-only afterwards.
unsafe impl Sync for OutDir {}
static OUT_DIR: OutDir = OutDir(UnsafeCell::new(StackBuf::new()));

/// `TAINTPROF_QUIET`, defaulting to whether stderr is not a terminal.
pub fn quiet() -> bool {
    QUIET.load(Relaxed)
}
/// Whether the line about a partial report written on a fatal signal is silenced: only
/// by an explicit `TAINTPROF_QUIET=1` (a crash is news wherever stderr goes).
pub fn quiet_on_signal() -> bool {
    QUIET_ON_SIGNAL.load(Relaxed)
}
/// `TAINTPROF_REPORT`.
pub fn report_enabled() -> bool {
    REPORT.load(Relaxed)
}
/// `TAINTPROF_HANDLE_SIGNALS`.
pub fn handle_signals() -> bool {
    HANDLE_SIGNALS.load(Relaxed)
}
/// `TAINTPROF_VERBOSE`.
pub fn verbose() -> bool {
    VERBOSE.load(Relaxed)
}

/// `TAINTPROF_UNLIMITED_STACK_MIB` (MiB; 0 = never re-execute).
pub fn unlimited_stack_mib() -> u64 {
    UNLIMITED_STACK_MIB.load(Relaxed)
}

/// `TAINTPROF_MAX_CONTEXTS` (contexts listed per function and loop; `usize::MAX` for 0).
pub fn max_contexts() -> usize {
    match MAX_CONTEXTS.load(Relaxed) {
        0 => usize::MAX,
        n => usize::try_from(n).unwrap_or(usize::MAX),
    }
}

/// `TAINTPROF_TIME_NODES` (time mode: nodes per thread, at least 16, at most 2^28).
pub fn time_nodes() -> usize {
    TIME_NODES.load(Relaxed).clamp(16, 1 << 28) as usize
}

/// `TAINTPROF_SNAPSHOT_OPS` (millions of FP operations between snapshots; 0 = off).
pub fn snapshot_ops_millions() -> u64 {
    SNAPSHOT_OPS.load(Relaxed)
}
/// `TAINTPROF_SNAPSHOT_MEMORY` (MiB).
pub fn snapshot_memory_mib() -> u64 {
    SNAPSHOT_MEMORY.load(Relaxed)
}
/// `TAINTPROF_ALL_SITES`.
pub fn all_sites() -> bool {
    ALL_SITES.load(Relaxed)
}

/// `TAINTPROF_CONTROL_SPLIT`: labels keep the parameters that came only through control
/// flow on twin bits ([`crate::split`]).
pub fn control_split() -> bool {
    CONTROL_SPLIT.load(Relaxed)
}

/// `TAINTPROF_IMPLICIT_P`: `MPI_Comm_size(MPI_COMM_WORLD)` gives the implicit parameter
/// `p` ([`crate::mpi`]).
pub fn implicit_p() -> bool {
    IMPLICIT_P.load(Relaxed)
}

/// `TAINTPROF_IMPLICIT_THREADS`: the OpenMP thread count is the implicit parameter
/// `threads` ([`crate::mpi`]).
pub fn implicit_threads() -> bool {
    IMPLICIT_THREADS.load(Relaxed)
}

/// The report directory (absolute when start-up found the working directory), or empty
/// when start-up did not run: then the report goes to the current working directory.
pub fn out_dir() -> &'static [u8] {
    // SAFETY: see OutDir.
    unsafe { (*OUT_DIR.0.get()).as_bytes() }
}

/// # Safety
/// See [`env_lookup`].
unsafe fn bool_knob(envp: *const *const libc::c_char, name: &str, slot: &AtomicBool) {
    // SAFETY: forwarded contract.
    if let Some(v) = unsafe { env_lookup(envp, name.as_bytes()) } {
        match parse_bool(v) {
            Some(b) => slot.store(b, Relaxed),
            None => crate::diag!(
                "warning: {}={} is not a boolean (use 1 or 0); keeping the default ({})",
                name,
                Lossy(v),
                if slot.load(Relaxed) { 1 } else { 0 }
            ),
        }
    }
}

/// # Safety
/// See [`env_lookup`].
unsafe fn u64_knob(envp: *const *const libc::c_char, name: &str, slot: &AtomicU64) {
    // SAFETY: forwarded contract.
    if let Some(v) = unsafe { env_lookup(envp, name.as_bytes()) } {
        match parse_u64(v) {
            Some(n) => slot.store(n, Relaxed),
            None => crate::diag!(
                "warning: {}={} is not a non-negative integer; keeping the default ({})",
                name,
                Lossy(v),
                slot.load(Relaxed)
            ),
        }
    }
}

/// Reads every knob. Called once from start-up, before `main` and before any thread
/// exists.
///
/// # Safety
/// `envp` must be null or the process environment array; no other thread may run.
pub unsafe fn init(envp: *const *const libc::c_char) {
    // SAFETY: forwarded contract (for all calls below).
    // SAFETY: isatty only inspects descriptor 2.
    QUIET.store(unsafe { libc::isatty(2) } == 0, Relaxed);
    // SAFETY: forwarded contract (for all calls below).
    unsafe {
        bool_knob(envp, "TAINTPROF_QUIET", &QUIET);
        // Only a valid true silences the crash line (not a default, nor `maybe`).
        let explicit = env_lookup(envp, b"TAINTPROF_QUIET").and_then(parse_bool);
        QUIET_ON_SIGNAL.store(explicit == Some(true), Relaxed);
        bool_knob(envp, "TAINTPROF_REPORT", &REPORT);
        bool_knob(envp, "TAINTPROF_HANDLE_SIGNALS", &HANDLE_SIGNALS);
        bool_knob(envp, "TAINTPROF_VERBOSE", &VERBOSE);
        u64_knob(envp, "TAINTPROF_MAX_CONTEXTS", &MAX_CONTEXTS);
        u64_knob(envp, "TAINTPROF_TIME_NODES", &TIME_NODES);
        u64_knob(envp, "TAINTPROF_UNLIMITED_STACK_MIB", &UNLIMITED_STACK_MIB);
        u64_knob(envp, "TAINTPROF_SNAPSHOT_OPS", &SNAPSHOT_OPS);
        u64_knob(envp, "TAINTPROF_SNAPSHOT_MEMORY", &SNAPSHOT_MEMORY);
        bool_knob(envp, "TAINTPROF_ALL_SITES", &ALL_SITES);
        bool_knob(envp, "TAINTPROF_CONTROL_SPLIT", &CONTROL_SPLIT);
        bool_knob(envp, "TAINTPROF_IMPLICIT_P", &IMPLICIT_P);
        bool_knob(envp, "TAINTPROF_IMPLICIT_THREADS", &IMPLICIT_THREADS);
    }
    crate::split::set(CONTROL_SPLIT.load(Relaxed));
    // SAFETY: single-threaded start-up, nobody reads OUT_DIR yet.
    let dir = unsafe { &mut *OUT_DIR.0.get() };
    dir.clear();
    // SAFETY: forwarded contract.
    let out = unsafe { env_lookup(envp, taintprof_abi::ENV_OUT_DIR.as_bytes()) }.unwrap_or(&[]);
    if !out.starts_with(b"/") {
        let mut cwd = [0u8; PATH_MAX];
        // SAFETY: cwd is a writable buffer of PATH_MAX bytes.
        let r = unsafe { libc::getcwd(cwd.as_mut_ptr().cast(), cwd.len()) };
        if !r.is_null() {
            // SAFETY: getcwd wrote a NUL-terminated string.
            dir.push_bytes(unsafe { cstr(r) });
        } else {
            dir.push_bytes(b".");
        }
        if !out.is_empty() {
            dir.push_bytes(b"/");
        }
    }
    dir.push_bytes(out);
    // Drop trailing slashes (but keep "/").
    while dir.len() > 1 && dir.as_bytes().last() == Some(&b'/') {
        dir.truncate(dir.len() - 1);
    }
    if dir.truncated {
        crate::diag!(
            "warning: {} is too long; reports go to the working directory",
            taintprof_abi::ENV_OUT_DIR
        );
        dir.clear();
    }
}
