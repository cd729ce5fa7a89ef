//! Reading and writing file descriptors.
//!
//! Why: reports are streamed to a file from a signal handler; `std::fs` allocates and
//! `stdio` locks.
//!
//! Invariants: errors are errno values (`Result<_, i32>`, never 0 in an `Err`); `EINTR`
//! and short transfers are retried; nothing here opens a descriptor it does not close.

use core::fmt;

use crate::buf::StackBuf;
use crate::json::Sink;
use crate::os::errno;

/// Writes all of `b` to `fd`, retrying on `EINTR` and short writes. `Err(errno)` on
/// failure (`EIO` if the descriptor stopped taking bytes).
pub fn write_all(fd: i32, mut b: &[u8]) -> Result<(), i32> {
    while !b.is_empty() {
        // SAFETY: b is valid for b.len() bytes.
        let r = unsafe { libc::write(fd, b.as_ptr().cast(), b.len()) };
        if r < 0 {
            let e = errno();
            if e == libc::EINTR {
                continue;
            }
            return Err(e.max(1));
        }
        if r == 0 {
            return Err(libc::EIO);
        }
        b = b.get(r as usize..).unwrap_or(&[]);
    }
    Ok(())
}

/// One `read(2)` into `buf`, retried on `EINTR`: the number of bytes read, 0 at the end
/// of the file, or `None` on an error.
pub fn read_some(fd: i32, buf: &mut [u8]) -> Option<usize> {
    loop {
        // SAFETY: `buf` is writable for `buf.len()` bytes.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 && errno() == libc::EINTR {
            continue;
        }
        return usize::try_from(n).ok();
    }
}

/// Reads the start of a (small) file, e.g. `/proc/self/cmdline`, into `buf`; returns
/// the number of bytes read (the file may be longer than `buf`). None if it cannot be
/// opened (or the path does not fit 511 bytes).
pub fn read_file(path: &[u8], buf: &mut [u8]) -> Option<usize> {
    let mut p = StackBuf::<512>::new();
    p.push_bytes(path);
    let c = p.as_cstr()?;
    // SAFETY: NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { libc::open(c, libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return None;
    }
    let mut len = 0;
    while len < buf.len() {
        let Some(rest) = buf.get_mut(len..) else {
            break;
        };
        match read_some(fd, rest) {
            Some(n) if n > 0 => len += n,
            _ => break,
        }
    }
    // SAFETY: our descriptor.
    unsafe { libc::close(fd) };
    Some(len)
}

/// Size of the buffer of an [`FdSink`] (it lives on the writer's stack).
pub const FD_SINK_BUF: usize = 16 * 1024;

/// Buffered writes to a file descriptor that remember the first error (later output is
/// dropped). A JSON [`Sink`] and a `fmt::Write`r. Nothing is written until the buffer
/// fills or [`FdSink::flush`] is called; dropping it does not flush.
pub struct FdSink {
    fd: i32,
    buf: [u8; FD_SINK_BUF],
    len: usize,
    err: i32,
    written: u64,
}

impl FdSink {
    pub const fn new(fd: i32) -> Self {
        FdSink {
            fd,
            buf: [0; FD_SINK_BUF],
            len: 0,
            err: 0,
            written: 0,
        }
    }

    /// Hands the buffered bytes to the descriptor.
    pub fn flush(&mut self) {
        if self.err == 0 && self.len > 0 {
            match write_all(self.fd, self.buf.get(..self.len).unwrap_or(&[])) {
                Ok(()) => self.written += self.len as u64,
                Err(e) => self.err = e,
            }
        }
        self.len = 0;
    }

    /// The first error (an errno value), if there was one.
    pub fn error(&self) -> Option<i32> {
        (self.err != 0).then_some(self.err)
    }

    /// Bytes handed to the descriptor so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// The bytes buffered and not yet flushed.
    pub fn pending(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

impl Sink for FdSink {
    fn put(&mut self, mut b: &[u8]) {
        while !b.is_empty() {
            if self.len == self.buf.len() {
                self.flush();
            }
            let n = b.len().min(self.buf.len() - self.len);
            if let (Some(dst), Some(src)) = (self.buf.get_mut(self.len..self.len + n), b.get(..n)) {
                dst.copy_from_slice(src);
            }
            self.len += n;
            b = b.get(n..).unwrap_or(&[]);
        }
    }
}

impl fmt::Write for FdSink {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.put(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write as _;
    use std::vec::Vec;

    fn pipe() -> (i32, i32) {
        let mut fds = [0i32; 2];
        // SAFETY: valid out array.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        (fds[0], fds[1])
    }

    fn read_all(fd: i32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut b = [0u8; 4096];
        loop {
            // SAFETY: valid buffer.
            let n = unsafe { libc::read(fd, b.as_mut_ptr().cast(), b.len()) };
            if n <= 0 {
                return out;
            }
            out.extend_from_slice(&b[..n as usize]);
        }
    }

    #[test]
    fn sink_buffers_flushes_and_counts() {
        let (r, w) = pipe();
        let reader = std::thread::spawn(move || read_all(r));
        let mut s = FdSink::new(w);
        let big = [b'x'; 40_000];
        s.put(b"start ");
        s.put(&big);
        let _ = write!(s, " end {}", 42);
        assert!(!s.pending().is_empty());
        s.flush();
        assert_eq!(s.error(), None);
        assert_eq!(s.written(), 6 + 40_000 + 7);
        // SAFETY: our descriptor.
        unsafe { libc::close(w) };
        let got = reader.join().unwrap();
        assert_eq!(got.len(), 40_013);
        assert!(got.starts_with(b"start xx") && got.ends_with(b"x end 42"));
        // SAFETY: our descriptor.
        unsafe { libc::close(r) };
    }

    #[test]
    fn errors_are_remembered() {
        let mut s = FdSink::new(-1);
        s.put(b"lost");
        s.flush();
        assert_eq!(s.error(), Some(libc::EBADF));
        assert_eq!(s.written(), 0);
        assert_eq!(write_all(-1, b"x"), Err(libc::EBADF));
        assert_eq!(write_all(-1, b""), Ok(()));
    }

    #[test]
    fn reads_files() {
        let mut b = [0u8; 64];
        let n = read_file(b"/proc/self/cmdline", &mut b).unwrap();
        assert!(n > 0);
        assert!(read_file(b"/nonexistent/x", &mut b).is_none());
        let mut tiny = [0u8; 3];
        assert_eq!(read_file(b"/proc/self/maps", &mut tiny), Some(3));
    }
}
