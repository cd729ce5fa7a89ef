//! `errno`, thread and process ids, time and sleeping.
//!
//! Why: these are the few libc services the runtimes need in a signal handler, and the
//! libc versions are either not async-signal-safe (`strerror`, which may load locale
//! data) or subtly stateful (glibc caches the pid; `gettid` needs a recent glibc).
//!
//! Invariants: every function here is a system call, the vDSO clock or a read of the
//! thread's `errno` slot; none fails in a way that needs handling.

/// The calling thread's `errno`.
#[inline]
pub fn errno() -> i32 {
    // SAFETY: __errno_location always returns the calling thread's errno slot.
    unsafe { *libc::__errno_location() }
}

/// Sets the calling thread's `errno` (wrappers restore it around runtime work).
#[inline]
pub fn set_errno(e: i32) {
    // SAFETY: as in `errno`.
    unsafe { *libc::__errno_location() = e }
}

/// Human-readable text for an errno value (static strings; no `strerror` locale calls).
pub fn errno_text(e: i32) -> &'static str {
    match e {
        libc::ENOMEM => "out of memory (ENOMEM)",
        libc::EEXIST => "something is already mapped or present there (EEXIST)",
        libc::EINVAL => "invalid argument (EINVAL)",
        libc::EACCES => "permission denied (EACCES)",
        libc::EPERM => "operation not permitted (EPERM)",
        libc::ENOENT => "no such file or directory (ENOENT)",
        libc::ENOTDIR => "a path component is not a directory (ENOTDIR)",
        libc::EISDIR => "is a directory (EISDIR)",
        libc::ENOSPC => "no space left on device (ENOSPC)",
        libc::EROFS => "read-only file system (EROFS)",
        libc::EDQUOT => "disk quota exceeded (EDQUOT)",
        libc::ENAMETOOLONG => "file name too long (ENAMETOOLONG)",
        libc::EMFILE | libc::ENFILE => "too many open files (EMFILE)",
        libc::EIO => "input/output error (EIO)",
        _ => "system error",
    }
}

/// The calling thread's kernel thread id (raw `gettid`).
#[inline]
pub fn gettid() -> i32 {
    // SAFETY: no arguments, cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as i32 }
}

/// The process id (a raw system call: glibc's cached value is right after `fork` too,
/// but this needs no reasoning about it).
#[inline]
pub fn getpid() -> i32 {
    // SAFETY: no arguments, cannot fail.
    unsafe { libc::syscall(libc::SYS_getpid) as i32 }
}

/// Whether thread `tid` of this process still exists (`tgkill` with signal 0; a
/// permission error counts as alive).
pub fn thread_alive(tid: i32) -> bool {
    // SAFETY: signal 0 only checks existence.
    let r = unsafe { libc::syscall(libc::SYS_tgkill, getpid(), tid, 0) };
    r == 0 || errno() != libc::ESRCH
}

/// Monotonic time in nanoseconds (vDSO `clock_gettime`, async-signal-safe).
#[inline]
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid out pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    (ts.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(ts.tv_nsec as u64)
}

/// Sleeps for about `ms` milliseconds (`nanosleep`; a signal may end it early).
pub fn sleep_ms(ms: u64) {
    let ts = libc::timespec {
        tv_sec: (ms / 1000) as libc::time_t,
        tv_nsec: ((ms % 1000) * 1_000_000) as libc::c_long,
    };
    // SAFETY: plain nanosleep with a valid request and no remainder pointer.
    unsafe { libc::nanosleep(&ts, core::ptr::null_mut()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_errno_and_time() {
        // SAFETY: getpid cannot fail.
        assert_eq!(getpid(), unsafe { libc::getpid() });
        assert!(gettid() > 0);
        assert!(thread_alive(gettid()));
        assert!(!thread_alive(i32::MAX));
        set_errno(libc::ENOSPC);
        assert_eq!(errno(), libc::ENOSPC);
        assert_eq!(errno_text(libc::ENOSPC), "no space left on device (ENOSPC)");
        assert_eq!(errno_text(-1), "system error");
        let t0 = now_ns();
        sleep_ms(2);
        assert!(now_ns() - t0 >= 2_000_000);
    }
}
