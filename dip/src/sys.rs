//! Async-signal-safe helpers: raw memory, time, errno, fixed buffers, diagnostics.
//!
//! Everything here may run inside a signal handler: no allocation, no locks, only
//! system calls that POSIX lists as async-signal-safe (or the vDSO clock).

use core::fmt;
use core::ptr::null_mut;

/// Thread id of the caller (`gettid`).
#[inline]
pub fn gettid() -> i32 {
    // SAFETY: gettid cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as i32 }
}

/// Process id of the caller (a raw syscall: glibc's cached value is right after fork too,
/// but this needs no reasoning about it).
#[inline]
pub fn getpid() -> i32 {
    // SAFETY: getpid cannot fail.
    unsafe { libc::syscall(libc::SYS_getpid) as i32 }
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

#[inline]
pub fn errno() -> i32 {
    // SAFETY: errno location of the calling thread.
    unsafe { *libc::__errno_location() }
}

#[inline]
pub fn set_errno(v: i32) {
    // SAFETY: errno location of the calling thread.
    unsafe { *libc::__errno_location() = v };
}

/// Anonymous private mapping, reserved lazily (`MAP_NORESERVE`): pages cost memory only
/// once touched. Null on failure.
pub fn mmap_anon(size: usize) -> *mut u8 {
    // SAFETY: a fresh anonymous mapping.
    let p = unsafe {
        libc::mmap(
            null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        null_mut()
    } else {
        p.cast()
    }
}

/// Replaces `[p, p + size)` (a mapping made by [`mmap_anon`]) by fresh zero pages.
pub fn remap_zero(p: *mut u8, size: usize) -> bool {
    // SAFETY: p..p+size is one of our own mappings; MAP_FIXED replaces it atomically.
    let q = unsafe {
        libc::mmap(
            p.cast(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
            -1,
            0,
        )
    };
    q == p.cast()
}

pub fn munmap(p: *mut u8, size: usize) {
    // SAFETY: unmapping our own mapping.
    unsafe { libc::munmap(p.cast(), size) };
}

/// Writes all of `buf` to `fd`, retrying on EINTR and short writes. Err(errno).
pub fn write_all(fd: i32, mut buf: &[u8]) -> Result<(), i32> {
    while !buf.is_empty() {
        // SAFETY: buf is valid for buf.len() bytes.
        let n = unsafe { libc::write(fd, buf.as_ptr().cast(), buf.len()) };
        if n < 0 {
            let e = errno();
            if e == libc::EINTR {
                continue;
            }
            return Err(e);
        }
        if n == 0 {
            return Err(libc::EIO);
        }
        buf = buf.get(n as usize..).unwrap_or(&[]);
    }
    Ok(())
}

/// A fixed-size text buffer usable in signal handlers. Output beyond the capacity is
/// dropped and remembered in `truncated`; one byte is always kept for a NUL terminator.
pub struct StackBuf<const N: usize> {
    buf: [u8; N],
    len: usize,
    pub truncated: bool,
}

impl<const N: usize> StackBuf<N> {
    pub const fn new() -> Self {
        StackBuf {
            buf: [0; N],
            len: 0,
            truncated: false,
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
        self.truncated = false;
    }

    pub fn push_bytes(&mut self, b: &[u8]) {
        let room = N.saturating_sub(1).saturating_sub(self.len);
        let n = b.len().min(room);
        if n < b.len() {
            self.truncated = true;
        }
        if let (Some(dst), Some(src)) = (self.buf.get_mut(self.len..self.len + n), b.get(..n)) {
            dst.copy_from_slice(src);
            self.len += n;
        }
    }

    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// NUL-terminated pointer to the contents (None if truncated).
    pub fn as_cstr(&mut self) -> Option<*const libc::c_char> {
        if self.truncated {
            return None;
        }
        *self.buf.get_mut(self.len)? = 0;
        Some(self.buf.as_ptr().cast())
    }
}

impl<const N: usize> Default for StackBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> fmt::Write for StackBuf<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_bytes(s.as_bytes());
        Ok(())
    }
}

/// Displays bytes as text, replacing invalid UTF-8 by U+FFFD.
pub struct Lossy<'a>(pub &'a [u8]);

impl fmt::Display for Lossy<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.0.utf8_chunks() {
            f.write_str(chunk.valid())?;
            if !chunk.invalid().is_empty() {
                f.write_str("\u{fffd}")?;
            }
        }
        Ok(())
    }
}

/// Length of a NUL-terminated string (0 for null).
///
/// # Safety
/// `p` is null or points to a NUL-terminated string.
pub unsafe fn cstr<'a>(p: *const libc::c_char) -> &'a [u8] {
    if p.is_null() {
        return &[];
    }
    core::ffi::CStr::from_ptr(p).to_bytes()
}

/// Writes one line `taintprof-dip: ...` to stderr (async-signal-safe).
#[macro_export]
macro_rules! diag {
    ($($arg:tt)*) => {{
        use core::fmt::Write as _;
        let mut b = $crate::sys::StackBuf::<2048>::new();
        let _ = write!(b, "taintprof-dip: ");
        let _ = write!(b, $($arg)*);
        b.push_bytes(b"\n");
        let _ = $crate::sys::write_all(2, b.as_bytes());
    }};
}

/// Sleeps for `ms` milliseconds (async-signal-safe).
pub fn sleep_ms(ms: u64) {
    let ts = libc::timespec {
        tv_sec: (ms / 1000) as libc::time_t,
        tv_nsec: ((ms % 1000) * 1_000_000) as libc::c_long,
    };
    // SAFETY: plain nanosleep.
    unsafe { libc::nanosleep(&ts, null_mut()) };
}

/// Reads a whole small file (e.g. `/proc/self/cmdline`) into `buf`; returns the length
/// read (the file may be longer than `buf`).
pub fn read_file(path: &[u8], buf: &mut [u8]) -> Option<usize> {
    let mut p = StackBuf::<512>::new();
    p.push_bytes(path);
    let c = p.as_cstr()?;
    // SAFETY: NUL-terminated path; our descriptor.
    let fd = unsafe { libc::open(c, libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return None;
    }
    let mut len = 0;
    while len < buf.len() {
        let Some(rest) = buf.get_mut(len..) else {
            break;
        };
        // SAFETY: rest is valid for rest.len() bytes.
        let n = unsafe { libc::read(fd, rest.as_mut_ptr().cast(), rest.len()) };
        if n < 0 && errno() == libc::EINTR {
            continue;
        }
        if n <= 0 {
            break;
        }
        len += n as usize;
    }
    // SAFETY: our descriptor.
    unsafe { libc::close(fd) };
    Some(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

    #[test]
    fn stackbuf_truncates_and_terminates() {
        let mut b = StackBuf::<8>::new();
        let _ = write!(b, "abc");
        assert_eq!(b.as_bytes(), b"abc");
        assert!(b.as_cstr().is_some());
        let _ = write!(b, "defghij");
        assert_eq!(b.as_bytes(), b"abcdefg");
        assert!(b.truncated);
        assert!(b.as_cstr().is_none());
    }

    #[test]
    fn lossy_replaces_invalid_utf8() {
        let mut b = StackBuf::<64>::new();
        let _ = write!(b, "{}", Lossy(b"a\xffb"));
        assert_eq!(b.as_bytes(), "a\u{fffd}b".as_bytes());
    }
}
