//! Every knob of the profiler, read once from the environment at load time, without
//! allocating (`taintprof_sigsafe::env`).
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `TAINTPROF_OUT` | the working directory at start-up | directory for `<prog>.<pid>.dip-raw.json` (created if missing) |
//! | `TAINTPROF_DIP_UNDERFLOW` | `0` | `1`: also unmask the SSE underflow exception, so instructions producing denormal *results* are counted (`results`) |
//! | `TAINTPROF_DIP_INTERVAL_MS` | `100` | width of a timeline bucket in milliseconds (1 to 3 600 000) |
//! | `TAINTPROF_DIP_X87` | `1` | `0`: leave the x87 unit alone (no `long double` profiling) |
//! | `TAINTPROF_DIP_EXACT` | `0` | `1`: count every event (the exception stays unmasked all the time; about 16 µs per event). `0`: sample them, within the overhead budget (see `sampling`) |
//! | `TAINTPROF_DIP_OVERHEAD` | `10` | sampled mode: the overhead budget, in percent of the program's own CPU time (1 to 1000): the trap time each window may take |
//! | `TAINTPROF_DIP_EMULATE` | `1` | `0`: always step the faulting SSE instruction (two signals per event) instead of emulating the register-to-register ones in the handler (one signal; see `emulate`) |
//! | `TAINTPROF_DIP_PERIOD_MS` | `10` | sampled mode: a sampling window opens every this many milliseconds of each thread's CPU time (1 to 10 000) |
//! | `TAINTPROF_QUIET` | `1` if stderr is not a terminal, else `0` | `1`: do not print where the raw report went; `0`: always print it (as the compiler-mode runtime: build tools and test suites read stderr). The line about a crash is printed unless `1` is given |
//!
//! Boolean values: `1`, `true`, `yes`, `on` are true, `0`, `false`, `no`, `off` false
//! (any case, as for the runtime: `taintprof_sigsafe::env`); unset or empty keeps the
//! default. Other values (e.g. `TAINTPROF_DIP_UNDERFLOW=maybe`, or an interval that is
//! not a plain number of milliseconds) are reported on stderr at start-up and replaced
//! by the default. The variables are read from the environment the loader hands the
//! constructor, so `setenv` inside the program changes nothing. `LD_PRELOAD` is left
//! untouched, so children started with `fork`/`exec` are profiled too, each writing its
//! own report.

use core::ffi::c_char;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use taintprof_sigsafe::env::{lookup, parse_bool, parse_u64};
use taintprof_sigsafe::{cstr, Lossy, StackBuf};

static UNDERFLOW: AtomicBool = AtomicBool::new(false);
static X87: AtomicBool = AtomicBool::new(true);
static QUIET: AtomicBool = AtomicBool::new(false);
/// `TAINTPROF_QUIET=1` given explicitly: silences the crash line too.
static QUIET_ON_SIGNAL: AtomicBool = AtomicBool::new(false);
static INTERVAL_MS: AtomicU64 = AtomicU64::new(DEFAULT_INTERVAL_MS);
static EXACT: AtomicBool = AtomicBool::new(false);
static EMULATE: AtomicBool = AtomicBool::new(true);
static OVERHEAD_PCT: AtomicU64 = AtomicU64::new(DEFAULT_OVERHEAD_PCT);
static PERIOD_MS: AtomicU64 = AtomicU64::new(DEFAULT_PERIOD_MS);

pub const DEFAULT_OVERHEAD_PCT: u64 = 10;
pub const MAX_OVERHEAD_PCT: u64 = 1000;
pub const DEFAULT_PERIOD_MS: u64 = 10;
pub const MAX_PERIOD_MS: u64 = 10_000;

pub const DEFAULT_INTERVAL_MS: u64 = 100;
const MAX_INTERVAL_MS: u64 = 3_600_000;

/// Longest output directory kept (Linux `PATH_MAX`).
const PATH_MAX: usize = 4096;

/// `$TAINTPROF_OUT`, or the working directory at start-up. Written once at load time
/// (before any thread of the program exists), read on the report path.
static mut OUT_DIR: StackBuf<PATH_MAX> = StackBuf::new();

/// The value of `name`, trimmed of ASCII white space (`None` when unset).
///
/// # Safety
/// As [`lookup`]: `envp` is null or the process environment array.
unsafe fn env(envp: *const *const c_char, name: &str) -> Option<&'static [u8]> {
    // SAFETY: forwarded contract.
    unsafe { lookup(envp, name.as_bytes()) }.map(<[u8]>::trim_ascii)
}

/// A boolean knob: unset or empty keeps `default`; anything but the values
/// [`parse_bool`] knows is reported and keeps it too.
///
/// # Safety
/// As [`env`].
unsafe fn flag(envp: *const *const c_char, name: &str, default: bool) -> bool {
    // SAFETY: forwarded contract.
    match unsafe { env(envp, name) } {
        None | Some(b"") => default,
        Some(v) => match parse_bool(v) {
            Some(b) => b,
            None => {
                crate::diag!(
                    "warning: {}={} is not 0 or 1; using {}",
                    name,
                    Lossy(v),
                    default as u8
                );
                default
            }
        },
    }
}

/// A whole-number knob in `1..=max`: unset or empty keeps `default`; anything else is
/// reported and keeps it too.
///
/// # Safety
/// As [`env`].
unsafe fn number(
    envp: *const *const c_char,
    name: &str,
    what: &str,
    max: u64,
    default: u64,
) -> u64 {
    // SAFETY: forwarded contract.
    match unsafe { env(envp, name) } {
        None | Some(b"") => default,
        Some(v) => match parse_u64(v) {
            Some(n) if (1..=max).contains(&n) => n,
            _ => {
                crate::diag!(
                    "warning: {}={} is not {} in 1..={}; using {}",
                    name,
                    Lossy(v),
                    what,
                    max,
                    default
                );
                default
            }
        },
    }
}

/// Reads the environment. Called once from the constructor, with the `envp` the loader
/// passed it (null: `getenv`).
///
/// # Safety
/// `envp` is null or the process environment array; no other thread of the program
/// runs yet.
pub unsafe fn load(envp: *const *const c_char) {
    // SAFETY: isatty only inspects descriptor 2.
    let not_a_terminal = unsafe { libc::isatty(2) } == 0;
    // SAFETY: forwarded contract.
    let (underflow, x87, quiet, exact) = unsafe {
        (
            flag(envp, "TAINTPROF_DIP_UNDERFLOW", false),
            flag(envp, "TAINTPROF_DIP_X87", true),
            flag(envp, "TAINTPROF_QUIET", not_a_terminal),
            flag(envp, "TAINTPROF_DIP_EXACT", false),
        )
    };
    EXACT.store(exact, Relaxed);
    // SAFETY: forwarded contract.
    EMULATE.store(
        unsafe { flag(envp, "TAINTPROF_DIP_EMULATE", true) },
        Relaxed,
    );
    // SAFETY: forwarded contract.
    let pct = unsafe {
        number(
            envp,
            "TAINTPROF_DIP_OVERHEAD",
            "a percentage",
            MAX_OVERHEAD_PCT,
            DEFAULT_OVERHEAD_PCT,
        )
    };
    OVERHEAD_PCT.store(pct, Relaxed);
    // SAFETY: forwarded contract.
    let period = unsafe {
        number(
            envp,
            "TAINTPROF_DIP_PERIOD_MS",
            "a number of milliseconds",
            MAX_PERIOD_MS,
            DEFAULT_PERIOD_MS,
        )
    };
    PERIOD_MS.store(period, Relaxed);

    UNDERFLOW.store(underflow, Relaxed);
    X87.store(x87, Relaxed);
    QUIET.store(quiet, Relaxed);
    // Only an explicit true silences the crash line (`flag` above already warned about
    // a bad value).
    // SAFETY: forwarded contract.
    let explicit_true =
        unsafe { env(envp, "TAINTPROF_QUIET") }.is_some_and(|v| parse_bool(v) == Some(true));
    QUIET_ON_SIGNAL.store(explicit_true, Relaxed);
    // SAFETY: forwarded contract.
    let iv = match unsafe { env(envp, "TAINTPROF_DIP_INTERVAL_MS") } {
        None => DEFAULT_INTERVAL_MS,
        Some(v) => match parse_u64(v) {
            Some(n) if (1..=MAX_INTERVAL_MS).contains(&n) => n,
            _ => {
                crate::diag!(
                    "warning: TAINTPROF_DIP_INTERVAL_MS={} is not a number of milliseconds in 1..={}; using {}",
                    Lossy(v),
                    MAX_INTERVAL_MS,
                    DEFAULT_INTERVAL_MS
                );
                DEFAULT_INTERVAL_MS
            }
        },
    };
    INTERVAL_MS.store(iv, Relaxed);
    // SAFETY: single-threaded start-up; nothing reads OUT_DIR yet.
    let dir = unsafe { &mut *core::ptr::addr_of_mut!(OUT_DIR) };
    dir.clear();
    // SAFETY: forwarded contract (the value is not trimmed: a path may end in a space).
    match unsafe { lookup(envp, b"TAINTPROF_OUT") } {
        Some(d) if d.len() >= PATH_MAX => crate::diag!(
            "warning: TAINTPROF_OUT is longer than {} bytes; the report goes to the working directory",
            PATH_MAX - 1
        ),
        Some(d) => dir.push_bytes(d),
        None => {}
    }
    if dir.is_empty() {
        let mut cwd = [0u8; PATH_MAX];
        // SAFETY: cwd is a writable buffer of PATH_MAX bytes.
        let r = unsafe { libc::getcwd(cwd.as_mut_ptr().cast(), cwd.len()) };
        if !r.is_null() {
            // SAFETY: getcwd wrote a NUL-terminated string into cwd.
            dir.push_bytes(unsafe { cstr(r) });
        }
        // Otherwise empty: `out_dir` says ".".
    }
}

pub fn underflow() -> bool {
    UNDERFLOW.load(Relaxed)
}

pub fn x87() -> bool {
    X87.load(Relaxed)
}

pub fn quiet() -> bool {
    QUIET.load(Relaxed)
}

/// Whether the line about a report written on a fatal signal is silenced: only by an
/// explicit `TAINTPROF_QUIET=1`.
pub fn quiet_on_signal() -> bool {
    QUIET_ON_SIGNAL.load(Relaxed)
}

/// `TAINTPROF_DIP_EXACT=1`: every event counted (else sampled).
pub fn exact() -> bool {
    EXACT.load(Relaxed)
}

/// `TAINTPROF_DIP_EMULATE` (default on): emulate simple SSE instructions instead of
/// stepping them.
pub fn emulate() -> bool {
    EMULATE.load(Relaxed)
}

/// Sampled mode's overhead budget, percent.
pub fn overhead_pct() -> u64 {
    OVERHEAD_PCT.load(Relaxed)
}

/// Sampled mode's window period, milliseconds of thread CPU time.
pub fn period_ms() -> u64 {
    PERIOD_MS.load(Relaxed)
}

pub fn interval_ms() -> u64 {
    INTERVAL_MS.load(Relaxed)
}

/// The output directory (never empty after [`load`]).
pub fn out_dir() -> &'static [u8] {
    // SAFETY: written only by `load` before the program runs.
    let b = unsafe { &*core::ptr::addr_of!(OUT_DIR) };
    if b.as_bytes().is_empty() {
        b"."
    } else {
        b.as_bytes()
    }
}
