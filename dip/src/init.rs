//! Start-up (a constructor in `.init_array`, run by the dynamic loader before the
//! program's own constructors and `main`), threads, fork and exit.
//!
//! Order at start-up matters:
//! 1. options, real functions, program identity, count table and clock;
//! 2. the program's FP environment as it is (recorded as "at start");
//! 3. an alternate signal stack for this thread, then our handlers — the dispositions
//!    found (e.g. SIG_IGN inherited from `nohup`) become the program's;
//! 4. only then unmask the exceptions: from here on a denormal traps.
//! 5. `pthread_atfork` (a child counts from zero) and `on_exit` (the report).

use core::ffi::{c_char, c_int, c_void};
use core::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::*};

use taintprof_sigsafe::{mmap_anon, munmap};

use crate::fpenv::{self, Where};
use crate::{disp, fpu, handlers, options, real, report, sampling, steps, table};

static ACTIVE: AtomicBool = AtomicBool::new(false);
static THREADS: AtomicU32 = AtomicU32::new(1);
/// Threads that started already armed (inherited the creator's MXCSR/x87 control).
static INHERITED: AtomicU32 = AtomicU32::new(0);
/// pthread key whose destructor runs at thread exit (value: the alternate stack).
static KEY: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Size of each thread's alternate signal stack (`MAP_NORESERVE`: touched only when a
/// handler runs on it; the report writer needs about 80 KiB of it).
pub const ALT_STACK_SIZE: usize = 256 * 1024;

/// Whether the profiler is set up (interposed functions pass through until then).
pub fn active() -> bool {
    ACTIVE.load(Acquire)
}

/// Threads seen: the initial one plus every `pthread_create`d one that started.
pub fn threads() -> u32 {
    THREADS.load(Relaxed)
}

/// Created threads that were armed before we armed them (inherited from the creator).
pub fn threads_inherited_arming() -> u32 {
    INHERITED.load(Relaxed)
}

#[cfg(not(test))]
#[used]
#[link_section = ".init_array"]
static INIT: extern "C" fn(c_int, *mut *mut c_char, *mut *mut c_char) = constructor;

/// The loader calls `.init_array` functions with `argc`, `argv` and `envp` (glibc).
/// Nothing here may panic; if something did, the panic handler would end the process
/// with an `internal error` line (panics abort, they never unwind into the loader).
#[cfg_attr(test, allow(dead_code))]
extern "C" fn constructor(_argc: c_int, _argv: *mut *mut c_char, envp: *mut *mut c_char) {
    start(envp.cast_const().cast());
}

fn start(envp: *const *const c_char) {
    if ACTIVE.load(Acquire) {
        return;
    }
    // SAFETY: `envp` is the loader's environment array (or null), and no thread of the
    // program exists yet (constructors run before `main`).
    unsafe { options::load(envp) };
    if !real::resolve_all() {
        crate::diag!("error: cannot find sigaction/pthread_sigmask in libc; not profiling");
        return;
    }
    report::capture_identity();
    if !table::init(options::interval_ms()) {
        crate::diag!("error: cannot map the count table; not profiling");
        return;
    }
    fpenv::set_start(fpu::get_mxcsr(), fpu::get_x87_cw());
    ensure_altstack();
    if sampling::sampled() && !sampling::setup() {
        crate::diag!("warning: cannot install the sampling timer's signal handler; sampling only the start of each thread");
    }
    {
        let _block = real::BlockAll::new();
        for &(sig, _) in disp::MANAGED.iter() {
            // SAFETY: `libc::sigaction` is a plain C struct (the handler is a `usize`): all
            // zero bytes is a valid value, filled in by the query below.
            let mut old: libc::sigaction = unsafe { core::mem::zeroed() };
            // SAFETY: `sig` is one of our managed signal numbers, a null `act` only queries,
            // and `old` is a writable `sigaction` on our stack (`real::sigaction` returns -1
            // if the real function was not resolved).
            if unsafe { real::sigaction(sig, core::ptr::null(), &mut old) } != 0 {
                continue;
            }
            let a = disp::Action::from_sigaction(&old);
            disp::write(sig, &a);
            if handlers::install(sig, &a) != 0 {
                crate::diag!("warning: cannot install a handler for {}", disp::name(sig));
            }
        }
    }
    // SAFETY: creating a key with a valid destructor.
    unsafe {
        let mut key: libc::pthread_key_t = 0;
        if libc::pthread_key_create(&mut key, Some(thread_exit)) == 0 {
            KEY.store(key as usize, Release);
        }
        libc::pthread_atfork(None, None, Some(after_fork_child));
    }
    ACTIVE.store(true, Release);
    if options::x87() {
        let ok = crate::x87::probe();
        fpu::X87_USABLE.store(ok, Relaxed);
        if !ok {
            crate::diag!("warning: the x87 denormal exception does not trap here; long double is not profiled");
        }
    }
    fpu::arm_thread();
    sampling::thread_begin();
    fpenv::set_armed(fpu::get_mxcsr(), fpu::get_x87_cw());
    fpenv::observe_now(Where::Start);
    extern "C" {
        fn on_exit(f: extern "C" fn(c_int, *mut c_void), arg: *mut c_void) -> c_int;
    }
    // SAFETY: registering a valid exit handler.
    if unsafe { on_exit(at_exit, core::ptr::null_mut()) } != 0 {
        crate::diag!("warning: cannot register the exit handler; no report at exit");
    }
}

extern "C" fn at_exit(status: c_int, _arg: *mut c_void) {
    report::final_report(report::Exit::Code(status));
}

/// Gives the calling thread an alternate signal stack unless it has one; returns the
/// stack we mapped (null if none was needed or possible).
fn ensure_altstack() -> *mut u8 {
    // SAFETY: querying and setting the calling thread's signal stack.
    unsafe {
        let mut old: libc::stack_t = core::mem::zeroed();
        if libc::sigaltstack(core::ptr::null(), &mut old) == 0
            && old.ss_flags & libc::SS_DISABLE == 0
        {
            return core::ptr::null_mut();
        }
        let mem = mmap_anon(ALT_STACK_SIZE);
        if mem.is_null() {
            return mem;
        }
        let st = libc::stack_t {
            ss_sp: mem.cast(),
            ss_flags: 0,
            ss_size: ALT_STACK_SIZE,
        };
        if libc::sigaltstack(&st, core::ptr::null_mut()) != 0 {
            munmap(mem, ALT_STACK_SIZE);
            return core::ptr::null_mut();
        }
        mem
    }
}

/// Start of every thread made by `pthread_create` (from our trampoline, before the
/// program's start routine). New threads inherit the creating thread's MXCSR and x87
/// control word on Linux, so they are normally armed already; arming again is cheap and
/// covers a creator that had masked them.
pub fn thread_start() {
    THREADS.fetch_add(1, Relaxed);
    if fpu::thread_is_armed() {
        INHERITED.fetch_add(1, Relaxed);
    }
    fpenv::observe_now(Where::ThreadStart);
    let stack = ensure_altstack();
    let key = KEY.load(Acquire);
    if key != usize::MAX {
        // A non-null value makes the destructor run at thread exit (even with a null
        // stack we want the exit observation, so use a marker).
        let v: *const c_void = if stack.is_null() {
            no_stack_marker()
        } else {
            stack.cast()
        };
        // SAFETY: our key.
        unsafe { libc::pthread_setspecific(key as libc::pthread_key_t, v) };
    }
    fpu::arm_thread();
    sampling::thread_begin();
}

static NO_STACK: u8 = 0;

/// The key's value for a thread whose alternate stack is not ours.
fn no_stack_marker() -> *const c_void {
    core::ptr::addr_of!(NO_STACK).cast()
}

/// Thread exit (pthread key destructor): look at the FP environment the thread ends
/// with and free its alternate stack.
extern "C" fn thread_exit(v: *mut c_void) {
    sampling::thread_end();
    fpenv::observe_now(Where::ThreadExit);
    if !v.is_null() && v.cast_const() != no_stack_marker() {
        // SAFETY: disabling this thread's alternate stack before unmapping it; no
        // handler can be running on it here.
        unsafe {
            let st = libc::stack_t {
                ss_sp: core::ptr::null_mut(),
                ss_flags: libc::SS_DISABLE,
                ss_size: 0,
            };
            let mut cur: libc::stack_t = core::mem::zeroed();
            if libc::sigaltstack(core::ptr::null(), &mut cur) == 0
                && cur.ss_sp == v
                && libc::sigaltstack(&st, core::ptr::null_mut()) == 0
            {
                munmap(v.cast(), ALT_STACK_SIZE);
            }
        }
    }
}

/// In the child of `fork`: a new process with its own report, counting from zero. The
/// forking thread's alternate stack and arming are inherited.
extern "C" fn after_fork_child() {
    table::reset();
    steps::reset();
    fpenv::reset();
    report::reset();
    THREADS.store(1, Relaxed);
    INHERITED.store(0, Relaxed);
    if sampling::sampled() {
        // POSIX timers are not inherited: a new one, and a window open as at start.
        fpu::arm_thread();
        sampling::after_fork();
    }
}
