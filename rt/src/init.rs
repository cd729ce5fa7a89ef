//! Start-up, before `main` and before every constructor.
//!
//! A `.preinit_array` entry runs `tp_preinit` first thing in the process (glibc calls
//! pre-initialisers with `argc, argv, envp` before any `.init_array` constructor, of the
//! program or of any shared library). It
//!
//! 1. reads every knob ([`crate::options`]) from `envp`,
//! 2. remembers `argc`/`argv` for the report,
//! 3. under an unlimited stack size limit, re-executes the program with a finite one
//!    (whose memory layout leaves the shadow range free), and in the re-executed process
//!    sets the limit back ([`crate::stack`]),
//! 4. reserves the shadow region ([`crate::shadow::reserve_or_die`]) — instrumented
//!    constructors may touch shadow right after,
//! 5. registers the exit hook (`on_exit`, so the report knows the exit status; it runs
//!    for both `exit()` and a return from `main`, after the program's own `atexit`
//!    handlers and static destructors because it was registered first),
//! 6. installs the fatal-signal handlers ([`crate::signals`]).
//!
//! The entry lives in this crate's single object file (`codegen-units = 1`), so any
//! program that references any hook pulls it in from the static archive. `.preinit_array`
//! is only honoured in executables: the runtime cannot live in a shared library (the
//! sanitizers have the same rule).

use core::ffi::{c_char, c_int, c_void};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering::*};

use taintprof_sigsafe::{Lossy, PAGE};

use crate::{options, report, shadow, signals, stack};

static STARTED: AtomicBool = AtomicBool::new(false);
static ARGC: AtomicUsize = AtomicUsize::new(0);
static ARGV: AtomicPtr<*const c_char> = AtomicPtr::new(core::ptr::null_mut());
static START_PID: core::sync::atomic::AtomicI32 = core::sync::atomic::AtomicI32::new(0);

#[used]
#[link_section = ".preinit_array"]
static PREINIT: unsafe extern "C" fn(c_int, *const *const c_char, *const *const c_char) =
    tp_preinit;

/// The `.preinit_array` entry.
unsafe extern "C" fn tp_preinit(
    argc: c_int,
    argv: *const *const c_char,
    envp: *const *const c_char,
) {
    // SAFETY: glibc passes the real argc/argv/envp to pre-initialisers.
    unsafe { start(argc, argv, envp) }
}

/// Runs start-up once.
///
/// # Safety
/// Must be called before other threads exist, with the process's argc/argv/envp (or
/// 0/null/null).
pub unsafe fn start(argc: c_int, argv: *const *const c_char, envp: *const *const c_char) {
    if STARTED.swap(true, AcqRel) {
        return;
    }
    // SAFETY: single-threaded start-up.
    unsafe { options::init(envp) };
    // SAFETY: single-threaded start-up, the process's envp.
    unsafe { crate::record::capture_start(envp) };
    // SAFETY: getpid cannot fail.
    START_PID.store(unsafe { libc::getpid() }, Relaxed);
    if !argv.is_null() && argc > 0 {
        // Keep our own copy of the pointer array: getopt permutes the program's.
        // SAFETY: argv has argc entries.
        let args = unsafe { core::slice::from_raw_parts(argv, argc as usize) };
        let copy: &'static mut [*const c_char] = crate::leak_slice(args);
        ARGC.store(copy.len(), Relaxed);
        ARGV.store(copy.as_mut_ptr(), Release);
    }
    // SAFETY: sysconf is always safe.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if page > 0 && page as usize != PAGE {
        crate::diag!(
            "warning: page size is {} bytes, the runtime assumes {}",
            page,
            PAGE
        );
    }
    // Before anything is mapped or installed: this may replace the process.
    // SAFETY: single-threaded start-up with the process's own arrays (argv is
    // NULL-terminated after argc entries).
    unsafe { stack::before_reserve(if argc > 0 { argv } else { core::ptr::null() }, envp) };
    shadow::reserve_or_die();
    crate::time::at_start();
    crate::denormal::fpenv::at_start();
    if options::verbose() {
        crate::diag!(
            "runtime {} started: shadow [{:#x}, {:#x}), reports to '{}', signals {}",
            crate::VERSION,
            taintprof_abi::SHADOW_BASE,
            taintprof_abi::SHADOW_BASE + taintprof_abi::SHADOW_SIZE,
            Lossy(options::out_dir()),
            if options::handle_signals() {
                "handled"
            } else {
                "not handled"
            }
        );
    }
    // Unit tests of this crate run in an ordinary test binary: no exit report there.
    #[cfg(not(test))]
    {
        extern "C" {
            fn on_exit(f: extern "C" fn(c_int, *mut c_void), arg: *mut c_void) -> c_int;
        }
        // SAFETY: registering a valid exit handler.
        if unsafe { on_exit(at_exit, core::ptr::null_mut()) } != 0 {
            crate::diag!(
                "warning: cannot register the exit handler; no report will be written at exit"
            );
        }
        signals::install();
    }
    #[cfg(test)]
    let _ = (
        at_exit as extern "C" fn(c_int, *mut c_void),
        signals::install as fn(),
    );
}

extern "C" fn at_exit(status: c_int, _arg: *mut c_void) {
    report::final_report(report::Exit::Code(status));
}

/// True in a child made by `fork` (its pid is not the one the program started with).
pub fn is_fork_child() -> bool {
    let start = START_PID.load(Relaxed);
    // SAFETY: getpid cannot fail.
    start != 0 && start != unsafe { libc::getpid() }
}

/// The program's `argv` as captured at start-up (empty if start-up saw none).
pub fn argv() -> &'static [*const c_char] {
    let p = ARGV.load(Acquire);
    if p.is_null() {
        return &[];
    }
    // SAFETY: argv has argc entries and lives for the whole process.
    unsafe { core::slice::from_raw_parts(p as *const *const c_char, ARGC.load(Relaxed)) }
}
