//! The real libc/libm functions behind the ones we interpose.
//!
//! This library exports `sigaction`, `pthread_sigmask`, `pthread_create`, ... so that the
//! program's calls reach us. A call from *inside* this library to `libc::sigaction`
//! would reach us too (symbol lookup starts at the executable, and we are preloaded),
//! so every internal use goes through the pointers here, found with
//! `dlsym(RTLD_NEXT, name)`: the next definition after ours in the lookup order.

use core::ffi::{c_char, c_int};
use core::sync::atomic::{AtomicUsize, Ordering::*};

use taintprof_sigsafe::set_errno;

pub struct Real {
    name: &'static [u8],
    addr: AtomicUsize,
}

impl Real {
    const fn new(name: &'static [u8]) -> Self {
        Real {
            name,
            addr: AtomicUsize::new(0),
        }
    }

    /// The real function's address, resolved on first use (0 if there is none, e.g.
    /// libm's `fesetenv` in a program that does not load libm).
    pub fn get(&self) -> usize {
        let a = self.addr.load(Acquire);
        if a != 0 {
            return a;
        }
        // SAFETY: NUL-terminated name; RTLD_NEXT from inside this library.
        let p = unsafe { libc::dlsym(libc::RTLD_NEXT, self.name.as_ptr() as *const c_char) };
        let a = p as usize;
        if a != 0 {
            self.addr.store(a, Release);
        }
        a
    }
}

pub static SIGACTION: Real = Real::new(b"sigaction\0");
pub static SIGNAL: Real = Real::new(b"signal\0");
pub static SYSV_SIGNAL: Real = Real::new(b"sysv_signal\0");
pub static SIGPROCMASK: Real = Real::new(b"sigprocmask\0");
pub static PTHREAD_SIGMASK: Real = Real::new(b"pthread_sigmask\0");
pub static PTHREAD_CREATE: Real = Real::new(b"pthread_create\0");
pub static FESETENV: Real = Real::new(b"fesetenv\0");
pub static FEUPDATEENV: Real = Real::new(b"feupdateenv\0");
pub static FEHOLDEXCEPT: Real = Real::new(b"feholdexcept\0");
pub static FEENABLEEXCEPT: Real = Real::new(b"feenableexcept\0");
pub static FEDISABLEEXCEPT: Real = Real::new(b"fedisableexcept\0");
pub static FESETEXCEPTFLAG: Real = Real::new(b"fesetexceptflag\0");

/// Resolves everything now (start-up), so signal handlers never call `dlsym`.
pub fn resolve_all() -> bool {
    for r in [
        &SIGNAL,
        &SYSV_SIGNAL,
        &SIGPROCMASK,
        &PTHREAD_CREATE,
        &FESETENV,
        &FEUPDATEENV,
        &FEHOLDEXCEPT,
        &FEENABLEEXCEPT,
        &FEDISABLEEXCEPT,
        &FESETEXCEPTFLAG,
    ] {
        r.get();
    }
    SIGACTION.get() != 0 && PTHREAD_SIGMASK.get() != 0
}

pub type SigactionFn =
    unsafe extern "C" fn(c_int, *const libc::sigaction, *mut libc::sigaction) -> c_int;
pub type SigmaskFn =
    unsafe extern "C" fn(c_int, *const libc::sigset_t, *mut libc::sigset_t) -> c_int;

/// The real `sigaction` (−1/ENOSYS if it cannot be found).
///
/// # Safety
/// As `sigaction(2)`.
pub unsafe fn sigaction(
    sig: c_int,
    act: *const libc::sigaction,
    old: *mut libc::sigaction,
) -> c_int {
    let a = SIGACTION.get();
    if a == 0 {
        set_errno(libc::ENOSYS);
        return -1;
    }
    let f: SigactionFn = core::mem::transmute::<usize, SigactionFn>(a);
    f(sig, act, old)
}

/// The real `pthread_sigmask` (returns the error number).
///
/// # Safety
/// As `pthread_sigmask(3)`.
pub unsafe fn pthread_sigmask(
    how: c_int,
    set: *const libc::sigset_t,
    old: *mut libc::sigset_t,
) -> c_int {
    let a = PTHREAD_SIGMASK.get();
    if a == 0 {
        return libc::ENOSYS;
    }
    let f: SigmaskFn = core::mem::transmute::<usize, SigmaskFn>(a);
    f(how, set, old)
}

/// Blocks every signal on the calling thread until the guard is dropped.
pub struct BlockAll {
    old: libc::sigset_t,
    ok: bool,
}

impl BlockAll {
    pub fn new() -> Self {
        // SAFETY: plain signal-mask manipulation with valid sets.
        unsafe {
            let mut all: libc::sigset_t = core::mem::zeroed();
            let mut old: libc::sigset_t = core::mem::zeroed();
            libc::sigfillset(&mut all);
            let ok = pthread_sigmask(libc::SIG_SETMASK, &all, &mut old) == 0;
            BlockAll { old, ok }
        }
    }
}

impl Drop for BlockAll {
    fn drop(&mut self) {
        if self.ok {
            // SAFETY: restoring the mask we saved.
            unsafe { pthread_sigmask(libc::SIG_SETMASK, &self.old, core::ptr::null_mut()) };
        }
    }
}

/// Calls a resolved function pointer of type `F` (for the fe* wrappers).
///
/// # Safety
/// `addr` is the address of a function of type `F`, and non-zero.
#[cfg_attr(test, allow(dead_code))]
pub unsafe fn as_fn<F: Copy>(addr: usize) -> F {
    debug_assert_eq!(core::mem::size_of::<F>(), core::mem::size_of::<usize>());
    core::mem::transmute_copy::<usize, F>(&addr)
}
