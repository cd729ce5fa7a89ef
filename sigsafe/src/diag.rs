//! One diagnostic line on stderr: `<prefix>: <message>\n`.
//!
//! Why: the runtimes report problems (and where the report went) from start-up code,
//! hooks and signal handlers, where `eprintln!` (locks, allocation) is not allowed.
//!
//! Invariants:
//! * a line is at most [`LINE_MAX`] bytes, formatted on the stack and written with one
//!   `write(2)` call when it fits the pipe buffer, so lines of several threads do not
//!   interleave; a longer message is cut at a character boundary and ends in `...`;
//! * SIGPIPE is blocked around the write, so a closed stderr pipe cannot kill the program
//!   (and change its exit status) because a runtime printed a line; the SIGPIPE that
//!   write raised is consumed, one that was already pending is left alone;
//! * the signal mask is changed with raw `rt_sigprocmask` system calls, not
//!   `pthread_sigmask`: a preloaded runtime (`libtaintprof_dip.so`) interposes that one.

use core::fmt;
use core::fmt::Write as _;

use crate::buf::StackBuf;
use crate::io::write_all;
use crate::os::errno;

/// The longest line written, newline included.
pub const LINE_MAX: usize = 2048;

/// Bytes of the kernel's signal set (`_NSIG / 8` on x86-64 and every other Linux
/// architecture except MIPS); glibc's `sigset_t` is larger and starts with it.
const KERNEL_SIGSET: usize = 8;

/// Writes `<prefix>: <args>\n` to stderr (see the module docs). Never allocates.
pub fn write_line(prefix: &str, args: fmt::Arguments<'_>) {
    let mut b = StackBuf::<LINE_MAX>::new();
    let _ = b.write_str(prefix);
    let _ = b.write_str(": ");
    let _ = b.write_fmt(args);
    if b.truncated || b.len() == LINE_MAX {
        // Room for the marker and the newline, cut at a character boundary.
        let mut n = LINE_MAX - 4;
        while n > 0 && b.as_bytes().get(n).is_some_and(|&c| c & 0xc0 == 0x80) {
            n -= 1;
        }
        b.truncate(n);
        b.push_bytes(b"...");
    }
    b.push_bytes(b"\n");
    write_stderr(b.as_bytes());
}

/// Writes `b` to stderr with SIGPIPE blocked (see the module docs). False if the write
/// failed.
pub fn write_stderr(b: &[u8]) -> bool {
    // SAFETY: signal-mask system calls on the calling thread's own mask, with valid
    // sets; the mask is restored before returning.
    unsafe {
        let mut pipe: libc::sigset_t = core::mem::zeroed();
        let mut old: libc::sigset_t = core::mem::zeroed();
        let mut pending: libc::sigset_t = core::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        let masked = libc::syscall(
            libc::SYS_rt_sigprocmask,
            libc::SIG_BLOCK,
            &pipe as *const libc::sigset_t,
            &mut old as *mut libc::sigset_t,
            KERNEL_SIGSET,
        ) == 0;
        libc::syscall(
            libc::SYS_rt_sigpending,
            &mut pending as *mut libc::sigset_t,
            KERNEL_SIGSET,
        );
        let was_pending = libc::sigismember(&pending, libc::SIGPIPE) == 1;
        let r = write_all(2, b);
        if masked
            && r == Err(libc::EPIPE)
            && !was_pending
            && libc::sigismember(&old, libc::SIGPIPE) == 0
        {
            // Swallow the SIGPIPE our own write raised.
            let zero = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            let e = errno();
            libc::syscall(
                libc::SYS_rt_sigtimedwait,
                &pipe as *const libc::sigset_t,
                core::ptr::null_mut::<libc::siginfo_t>(),
                &zero as *const libc::timespec,
                KERNEL_SIGSET,
            );
            crate::os::set_errno(e);
        }
        if masked {
            libc::syscall(
                libc::SYS_rt_sigprocmask,
                libc::SIG_SETMASK,
                &old as *const libc::sigset_t,
                core::ptr::null_mut::<libc::sigset_t>(),
                KERNEL_SIGSET,
            );
        }
        r.is_ok()
    }
}

/// What the `no_std` runtimes' panic handlers do (`panic = "abort"` builds of `rt/` and
/// `dip/`): one line, `<prefix>: internal error: <message> at <file:line:col>; this is
/// a taintprof bug`, then `abort()`. Never unwinds, so no panic crosses into C.
pub fn internal_error(prefix: &str, info: &core::panic::PanicInfo<'_>) -> ! {
    match info.location() {
        Some(at) => write_line(
            prefix,
            format_args!(
                "internal error: {} at {}; this is a taintprof bug",
                info.message(),
                at
            ),
        ),
        None => write_line(
            prefix,
            format_args!(
                "internal error: {}; this is a taintprof bug",
                info.message()
            ),
        ),
    }
    // SAFETY: terminating the process; abort is async-signal-safe.
    unsafe { libc::abort() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both tests point fd 2 elsewhere for a moment: one at a time.
    static STDERR: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// Runs `f` with stderr redirected into a pipe; returns what it wrote.
    fn capture(f: impl FnOnce()) -> std::vec::Vec<u8> {
        let _one = STDERR.lock().unwrap_or_else(|e| e.into_inner());
        let mut fds = [0i32; 2];
        // SAFETY: plain descriptor juggling on this test's own descriptors (the test
        // harness captures output by other means, fd 2 is restored below).
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            let saved = libc::dup(2);
            libc::dup2(fds[1], 2);
            f();
            libc::dup2(saved, 2);
            libc::close(saved);
            libc::close(fds[1]);
            let mut out = std::vec::Vec::new();
            let mut b = [0u8; 8192];
            loop {
                let n = libc::read(fds[0], b.as_mut_ptr().cast(), b.len());
                if n <= 0 {
                    break;
                }
                out.extend_from_slice(&b[..n as usize]);
            }
            libc::close(fds[0]);
            out
        }
    }

    #[test]
    fn lines_have_the_prefix_and_long_ones_are_cut() {
        let got = capture(|| {
            write_line("taintprof", format_args!("report written to {}", "/tmp/x"));
            let long = "é".repeat(3000);
            write_line("taintprof-dip", format_args!("{long}"));
        });
        let text = std::str::from_utf8(&got).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("taintprof: report written to /tmp/x"));
        let second = lines.next().unwrap();
        assert!(second.starts_with("taintprof-dip: éé"));
        assert!(second.ends_with("é..."));
        assert!(second.len() < LINE_MAX);
        assert!(text.ends_with("...\n"));
    }

    #[test]
    fn a_closed_pipe_neither_kills_nor_leaves_sigpipe_pending() {
        let _one = STDERR.lock().unwrap_or_else(|e| e.into_inner());
        let mut fds = [0i32; 2];
        // SAFETY: as in `capture`; the read end is closed so the write gets EPIPE.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            libc::close(fds[0]);
            let saved = libc::dup(2);
            libc::dup2(fds[1], 2);
            let ok = write_stderr(b"nobody reads this\n");
            libc::dup2(saved, 2);
            libc::close(saved);
            libc::close(fds[1]);
            assert!(!ok);
            let mut pending: libc::sigset_t = core::mem::zeroed();
            libc::sigpending(&mut pending);
            assert_eq!(libc::sigismember(&pending, libc::SIGPIPE), 0);
        }
    }
}
