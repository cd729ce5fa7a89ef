//! The libc/libm functions we interpose (exported from the preloaded library, so the
//! program's calls reach them first). Each does its small extra job and calls the real
//! function found with `dlsym(RTLD_NEXT)` ([`crate::real`]).
//!
//! * `sigaction`, `signal`, `bsd_signal`, `sysv_signal`, `__sysv_signal`: for the
//!   signals we manage ([`crate::disp::MANAGED`]) our handler stays installed; the
//!   program's disposition is recorded and reported back to it.
//! * `sigprocmask`, `pthread_sigmask`: SIGFPE and SIGTRAP are never blocked. A blocked
//!   synchronous signal makes the kernel reset the handler and kill the process, and
//!   threads that block "all signals" are common.
//! * `pthread_create`: every new thread gets an alternate signal stack and is armed.
//! * `fesetenv`, `feupdateenv`, `feholdexcept`, `feenableexcept`, `fedisableexcept`,
//!   `fesetexceptflag`: passed through, then the FP environment is observed.
//!
//! Before the constructor has run (another library's constructor may call these), and
//! in unit tests, everything is passed straight through.

use core::ffi::{c_int, c_void};

use taintprof_sigsafe::set_errno;

use crate::fpenv::{self, Where};
use crate::{disp, handlers, init, real};

type Handler = libc::sighandler_t;

/// # Safety
/// As `sigaction(2)`.
#[no_mangle]
pub unsafe extern "C" fn sigaction(
    sig: c_int,
    act: *const libc::sigaction,
    old: *mut libc::sigaction,
) -> c_int {
    if init::active() && sig == crate::sampling::tick_signal() && !act.is_null() {
        crate::sampling::give_up_signal();
    }
    if !init::active() || !disp::managed(sig) {
        return real::sigaction(sig, act, old);
    }
    let _block = real::BlockAll::new();
    let prev = disp::read(sig);
    if !act.is_null() {
        let a = disp::Action::from_sigaction(&*act);
        let rc = handlers::install(sig, &a);
        if rc != 0 {
            return rc;
        }
        disp::write(sig, &a);
    }
    if !old.is_null() {
        *old = prev.to_sigaction();
    }
    0
}

/// # Safety
/// As `sigaction(2)`.
#[no_mangle]
pub unsafe extern "C" fn __sigaction(
    sig: c_int,
    act: *const libc::sigaction,
    old: *mut libc::sigaction,
) -> c_int {
    sigaction(sig, act, old)
}

unsafe fn signal_with(sig: c_int, handler: Handler, flags: c_int, self_mask: bool) -> Handler {
    if handler == libc::SIG_ERR || !(1..=64).contains(&sig) {
        set_errno(libc::EINVAL);
        return libc::SIG_ERR;
    }
    let mut sa: libc::sigaction = core::mem::zeroed();
    sa.sa_sigaction = handler;
    sa.sa_flags = flags;
    libc::sigemptyset(&mut sa.sa_mask);
    if self_mask {
        libc::sigaddset(&mut sa.sa_mask, sig);
    }
    let mut old: libc::sigaction = core::mem::zeroed();
    if sigaction(sig, &sa, &mut old) < 0 {
        return libc::SIG_ERR;
    }
    old.sa_sigaction
}

/// BSD semantics, as glibc's `signal`: restart system calls, block the signal in its
/// handler.
///
/// # Safety
/// As `signal(2)`.
#[no_mangle]
pub unsafe extern "C" fn signal(sig: c_int, handler: Handler) -> Handler {
    if init::active() && sig == crate::sampling::tick_signal() {
        crate::sampling::give_up_signal();
    }
    if !init::active() || !disp::managed(sig) {
        let a = real::SIGNAL.get();
        if a == 0 {
            set_errno(libc::ENOSYS);
            return libc::SIG_ERR;
        }
        let f: unsafe extern "C" fn(c_int, Handler) -> Handler = real::as_fn(a);
        return f(sig, handler);
    }
    signal_with(sig, handler, libc::SA_RESTART, true)
}

/// # Safety
/// As `signal(2)`.
#[no_mangle]
pub unsafe extern "C" fn bsd_signal(sig: c_int, handler: Handler) -> Handler {
    signal(sig, handler)
}

/// System V semantics: one-shot, not blocked in its handler, no restart.
///
/// # Safety
/// As `sysv_signal(3)`.
#[no_mangle]
pub unsafe extern "C" fn sysv_signal(sig: c_int, handler: Handler) -> Handler {
    if init::active() && sig == crate::sampling::tick_signal() {
        crate::sampling::give_up_signal();
    }
    if !init::active() || !disp::managed(sig) {
        let a = real::SYSV_SIGNAL.get();
        if a == 0 {
            set_errno(libc::ENOSYS);
            return libc::SIG_ERR;
        }
        let f: unsafe extern "C" fn(c_int, Handler) -> Handler = real::as_fn(a);
        return f(sig, handler);
    }
    signal_with(sig, handler, libc::SA_RESETHAND | libc::SA_NODEFER, false)
}

/// # Safety
/// As `sysv_signal(3)`.
#[no_mangle]
pub unsafe extern "C" fn __sysv_signal(sig: c_int, handler: Handler) -> Handler {
    sysv_signal(sig, handler)
}

/// `set` without SIGFPE and SIGTRAP when it would block them.
unsafe fn strip(
    how: c_int,
    set: *const libc::sigset_t,
    copy: &mut libc::sigset_t,
) -> *const libc::sigset_t {
    if !init::active() || set.is_null() || !(how == libc::SIG_BLOCK || how == libc::SIG_SETMASK) {
        return set;
    }
    *copy = *set;
    libc::sigdelset(copy, libc::SIGFPE);
    libc::sigdelset(copy, libc::SIGTRAP);
    let tick = crate::sampling::tick_signal();
    if tick > 0 {
        libc::sigdelset(copy, tick);
    }
    copy
}

/// # Safety
/// As `pthread_sigmask(3)`.
#[no_mangle]
pub unsafe extern "C" fn pthread_sigmask(
    how: c_int,
    set: *const libc::sigset_t,
    old: *mut libc::sigset_t,
) -> c_int {
    let mut copy: libc::sigset_t = core::mem::zeroed();
    let s = strip(how, set, &mut copy);
    real::pthread_sigmask(how, s, old)
}

/// # Safety
/// As `sigprocmask(2)`.
#[no_mangle]
pub unsafe extern "C" fn sigprocmask(
    how: c_int,
    set: *const libc::sigset_t,
    old: *mut libc::sigset_t,
) -> c_int {
    let mut copy: libc::sigset_t = core::mem::zeroed();
    let s = strip(how, set, &mut copy);
    let a = real::SIGPROCMASK.get();
    if a == 0 {
        set_errno(libc::ENOSYS);
        return -1;
    }
    let f: real::SigmaskFn = real::as_fn(a);
    f(how, s, old)
}

type StartFn = extern "C" fn(*mut c_void) -> *mut c_void;

struct Start {
    f: StartFn,
    arg: *mut c_void,
}

extern "C" fn trampoline(p: *mut c_void) -> *mut c_void {
    // SAFETY: p is the `Start` that pthread_create below allocated and initialised,
    // handed over to this thread alone; it is read once and freed.
    let (f, arg) = unsafe {
        let s = p.cast::<Start>().read();
        libc::free(p);
        (s.f, s.arg)
    };
    init::thread_start();
    f(arg)
}

/// # Safety
/// As `pthread_create(3)`.
#[no_mangle]
pub unsafe extern "C" fn pthread_create(
    thread: *mut libc::pthread_t,
    attr: *const libc::pthread_attr_t,
    f: StartFn,
    arg: *mut c_void,
) -> c_int {
    type CreateFn = unsafe extern "C" fn(
        *mut libc::pthread_t,
        *const libc::pthread_attr_t,
        StartFn,
        *mut c_void,
    ) -> c_int;
    let a = real::PTHREAD_CREATE.get();
    if a == 0 {
        return libc::EAGAIN;
    }
    let create: CreateFn = real::as_fn(a);
    if !init::active() {
        return create(thread, attr, f, arg);
    }
    // The program's malloc, as `Box` used it (pthread_create is not async-signal-safe
    // either): the new thread frees it.
    let p = libc::malloc(core::mem::size_of::<Start>()).cast::<Start>();
    if p.is_null() {
        return libc::EAGAIN;
    }
    p.write(Start { f, arg });
    let rc = create(thread, attr, trampoline, p.cast());
    if rc != 0 {
        libc::free(p.cast());
    }
    rc
}

// ---------------------------------------------------------------------------------
// <fenv.h>: pass through, then look at the environment.
// ---------------------------------------------------------------------------------

const FE_UNDERFLOW: c_int = 0x10;

fn after_fe(at: Where) {
    if init::active() {
        fpenv::observe_now(at);
    }
}

macro_rules! fe_wrapper {
    ($name:ident, $real:ident, $at:expr, ($($arg:ident : $ty:ty),*)) => {
        /// Passed through to libm; the FP environment is observed afterwards.
        ///
        /// # Safety
        /// As the libm function.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> c_int {
            let a = real::$real.get();
            if a == 0 {
                return -1;
            }
            let f: unsafe extern "C" fn($($ty),*) -> c_int = real::as_fn(a);
            let r = f($($arg),*);
            after_fe($at);
            r
        }
    };
}

fe_wrapper!(fesetenv, FESETENV, Where::Fesetenv, (env: *const c_void));
fe_wrapper!(feupdateenv, FEUPDATEENV, Where::Feupdateenv, (env: *const c_void));
fe_wrapper!(feholdexcept, FEHOLDEXCEPT, Where::Feholdexcept, (env: *mut c_void));
fe_wrapper!(
    fesetexceptflag,
    FESETEXCEPTFLAG,
    Where::Fesetexceptflag,
    (flag: *const c_void, excepts: c_int)
);

/// Passed through; `FE_UNDERFLOW` makes underflow traps the program's own.
///
/// # Safety
/// As `feenableexcept(3)`.
#[no_mangle]
pub unsafe extern "C" fn feenableexcept(excepts: c_int) -> c_int {
    let a = real::FEENABLEEXCEPT.get();
    if a == 0 {
        return -1;
    }
    let f: unsafe extern "C" fn(c_int) -> c_int = real::as_fn(a);
    let r = f(excepts);
    if r != -1 && excepts & FE_UNDERFLOW != 0 {
        fpenv::set_program_wants_underflow(true);
    }
    after_fe(Where::Feenableexcept);
    r
}

/// # Safety
/// As `fedisableexcept(3)`.
#[no_mangle]
pub unsafe extern "C" fn fedisableexcept(excepts: c_int) -> c_int {
    let a = real::FEDISABLEEXCEPT.get();
    if a == 0 {
        return -1;
    }
    let f: unsafe extern "C" fn(c_int) -> c_int = real::as_fn(a);
    let r = f(excepts);
    if r != -1 && excepts & FE_UNDERFLOW != 0 {
        fpenv::set_program_wants_underflow(false);
    }
    after_fe(Where::Fedisableexcept);
    r
}
