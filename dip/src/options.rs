//! Every knob of the profiler, read once from the environment at load time.
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `TAINTPROF_OUT` | the working directory at start-up | directory for `<prog>.<pid>.dip-raw.json` (created if missing) |
//! | `TAINTPROF_DIP_UNDERFLOW` | `0` | `1`: also unmask the SSE underflow exception, so instructions producing denormal *results* are counted (`results`) |
//! | `TAINTPROF_DIP_INTERVAL_MS` | `100` | width of a timeline bucket in milliseconds (1 to 3 600 000) |
//! | `TAINTPROF_DIP_X87` | `1` | `0`: leave the x87 unit alone (no `long double` profiling) |
//! | `TAINTPROF_QUIET` | `1` if stderr is not a terminal, else `0` | `1`: do not print where the raw report went; `0`: always print it (as the compiler-mode runtime: build tools and test suites read stderr). The line about a crash is printed unless `1` is given |
//!
//! Values other than those listed (e.g. `TAINTPROF_DIP_UNDERFLOW=yes`) are reported on
//! stderr at start-up and replaced by the default. `LD_PRELOAD` is left untouched, so
//! children started with `fork`/`exec` are profiled too, each writing its own report.

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use taintprof_sigsafe::StackBuf;

static UNDERFLOW: AtomicBool = AtomicBool::new(false);
static X87: AtomicBool = AtomicBool::new(true);
static QUIET: AtomicBool = AtomicBool::new(false);
/// `TAINTPROF_QUIET=1` given explicitly: silences the crash line too.
static QUIET_ON_SIGNAL: AtomicBool = AtomicBool::new(false);
static INTERVAL_MS: AtomicU64 = AtomicU64::new(DEFAULT_INTERVAL_MS);

pub const DEFAULT_INTERVAL_MS: u64 = 100;
const MAX_INTERVAL_MS: u64 = 3_600_000;

/// `$TAINTPROF_OUT`, or the working directory at start-up. Written once at load time
/// (before any thread of the program exists), read on the report path.
static mut OUT_DIR: StackBuf<4096> = StackBuf::new();

fn env(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

fn flag(name: &str, default: bool) -> bool {
    match env(name).as_deref().map(str::trim) {
        None | Some("") => default,
        Some("1") | Some("true") | Some("yes") | Some("on") => true,
        Some("0") | Some("false") | Some("no") | Some("off") => false,
        Some(v) => {
            crate::diag!(
                "warning: {}={} is not 0 or 1; using {}",
                name,
                v,
                default as u8
            );
            default
        }
    }
}

/// Reads the environment. Called once from the constructor.
pub fn load() {
    UNDERFLOW.store(flag("TAINTPROF_DIP_UNDERFLOW", false), Relaxed);
    X87.store(flag("TAINTPROF_DIP_X87", true), Relaxed);
    // SAFETY: isatty only inspects descriptor 2.
    let not_a_terminal = unsafe { libc::isatty(2) } == 0;
    QUIET.store(flag("TAINTPROF_QUIET", not_a_terminal), Relaxed);
    // Only an explicit true silences the crash line (`flag` above already warned about
    // a bad value).
    let explicit_true = matches!(
        env("TAINTPROF_QUIET").as_deref().map(str::trim),
        Some("1" | "true" | "yes" | "on")
    );
    QUIET_ON_SIGNAL.store(explicit_true, Relaxed);
    let iv = match env("TAINTPROF_DIP_INTERVAL_MS") {
        None => DEFAULT_INTERVAL_MS,
        Some(v) => match v.trim().parse::<u64>() {
            Ok(n) if (1..=MAX_INTERVAL_MS).contains(&n) => n,
            _ => {
                crate::diag!(
                    "warning: TAINTPROF_DIP_INTERVAL_MS={} is not a number of milliseconds in 1..={}; using {}",
                    v,
                    MAX_INTERVAL_MS,
                    DEFAULT_INTERVAL_MS
                );
                DEFAULT_INTERVAL_MS
            }
        },
    };
    INTERVAL_MS.store(iv, Relaxed);
    let dir = match env("TAINTPROF_OUT") {
        Some(d) if !d.is_empty() => d,
        _ => std::env::current_dir()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| ".".to_string()),
    };
    // SAFETY: single-threaded start-up; nothing reads OUT_DIR yet.
    unsafe {
        let b = &mut *core::ptr::addr_of_mut!(OUT_DIR);
        b.clear();
        b.push_bytes(dir.as_bytes());
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
