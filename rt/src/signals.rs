//! Fatal signals: write a partial report, then die the way the program would have.
//!
//! At start-up the runtime installs one handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL,
//! SIGABRT, SIGTERM, SIGINT, SIGQUIT and SIGHUP (unless `TAINTPROF_HANDLE_SIGNALS=0`),
//! with `SA_ONSTACK` and an alternate signal stack for every thread that runs
//! instrumented code, so even a stack overflow leaves a report. Signals that were
//! ignored when the program started (`nohup`, background jobs) stay ignored.
//!
//! The handler writes the report once (see [`crate::report::final_report`]), prints
//! `taintprof: <prog> received SIGSEGV; partial record written to <path>`, restores the
//! default action and re-raises the signal, so the exit status (and core dump, if
//! enabled) is exactly what it would have been. A program that installs its own handler
//! later replaces ours: that is its choice.

use core::mem::zeroed;
use core::ptr::null_mut;
use core::sync::atomic::{AtomicBool, Ordering::*};

use taintprof_sigsafe::{errno, gettid, mmap_anon, munmap, set_errno};

use crate::{options, report};

/// The signals we handle, with their names.
pub const FATAL: [(libc::c_int, &str); 9] = [
    (libc::SIGSEGV, "SIGSEGV"),
    (libc::SIGBUS, "SIGBUS"),
    (libc::SIGFPE, "SIGFPE"),
    (libc::SIGILL, "SIGILL"),
    (libc::SIGABRT, "SIGABRT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGINT, "SIGINT"),
    (libc::SIGQUIT, "SIGQUIT"),
    (libc::SIGHUP, "SIGHUP"),
];

/// Size of each alternate signal stack (mapped `MAP_NORESERVE`, touched only when used).
pub const ALT_STACK_SIZE: usize = 256 * 1024;

static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Name of a signal number (`"SIG?"` for others).
pub fn name(sig: libc::c_int) -> &'static str {
    FATAL
        .iter()
        .find(|(n, _)| *n == sig)
        .map(|(_, s)| *s)
        .unwrap_or(match sig {
            libc::SIGPIPE => "SIGPIPE",
            libc::SIGALRM => "SIGALRM",
            libc::SIGUSR1 => "SIGUSR1",
            libc::SIGUSR2 => "SIGUSR2",
            libc::SIGKILL => "SIGKILL",
            _ => "SIG?",
        })
}

/// Gives the calling thread an alternate signal stack unless it already has one.
fn ensure_altstack() {
    // SAFETY: querying and setting the calling thread's signal stack.
    unsafe {
        let mut old: libc::stack_t = zeroed();
        if libc::sigaltstack(core::ptr::null(), &mut old) == 0
            && old.ss_flags & libc::SS_DISABLE == 0
        {
            return;
        }
        let mem = mmap_anon(ALT_STACK_SIZE);
        if mem.is_null() {
            return;
        }
        let st = libc::stack_t {
            ss_sp: mem.cast(),
            ss_flags: 0,
            ss_size: ALT_STACK_SIZE,
        };
        if libc::sigaltstack(&st, null_mut()) != 0 {
            munmap(mem, ALT_STACK_SIZE);
        }
    }
}

/// Installs the handlers (start-up; single-threaded).
pub fn install() {
    if !options::handle_signals() {
        return;
    }
    ensure_altstack();
    // SAFETY: plain sigaction calls with a valid handler.
    unsafe {
        let mut sa: libc::sigaction = zeroed();
        sa.sa_sigaction = handler as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_RESTART;
        libc::sigemptyset(&mut sa.sa_mask);
        for (sig, _) in FATAL {
            libc::sigaddset(&mut sa.sa_mask, sig);
        }
        for (sig, _) in FATAL {
            let mut old: libc::sigaction = zeroed();
            if libc::sigaction(sig, core::ptr::null(), &mut old) != 0 {
                continue;
            }
            if old.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            libc::sigaction(sig, &sa, null_mut());
        }
    }
    INSTALLED.store(true, Release);
}

/// Called once per thread when it first runs instrumented code.
pub fn on_new_thread() {
    if INSTALLED.load(Acquire) {
        ensure_altstack();
    }
}

extern "C" fn handler(sig: libc::c_int, _info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    let saved = errno();
    report::on_fatal_signal(sig);
    // SAFETY: restoring the default action and re-raising on this thread. The signal is
    // blocked while we run, so it is delivered (with its default action) as soon as the
    // handler returns; a fault would also simply recur.
    unsafe {
        let mut sa: libc::sigaction = zeroed();
        sa.sa_sigaction = libc::SIG_DFL;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(sig, &sa, null_mut());
        libc::syscall(libc::SYS_tgkill, libc::getpid(), gettid(), sig);
    }
    set_errno(saved);
}
