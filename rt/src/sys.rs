//! Thin system helpers shared by the rest of the runtime.
//!
//! Nothing here calls malloc or takes a lock, so all of it is usable from the report
//! path, which may run inside a signal handler:
//!
//! * [`mmap_anon`] / [`munmap`]: anonymous memory straight from the kernel.
//! * [`MmapVec`]: a growable array of `Copy` values backed by `mmap`/`mremap`.
//! * [`StackBuf`]: a fixed-capacity `fmt::Write` buffer on the stack (truncates).
//! * [`diag!`](crate::diag): one diagnostic line on stderr, `taintprof: ...`, written with one `write(2)`.

use core::fmt;
use core::marker::PhantomData;
use core::mem::size_of;
use core::ptr;

/// Page size (x86-64 Linux). Checked against `sysconf` at start-up.
pub const PAGE: usize = 4096;

/// Maps `len` bytes of zeroed, private, anonymous memory (`MAP_NORESERVE`: pages are
/// backed only when touched). Returns null on failure.
pub fn mmap_anon(len: usize) -> *mut u8 {
    if len == 0 {
        return ptr::null_mut();
    }
    // SAFETY: plain anonymous mapping, no address hint.
    let p = unsafe {
        libc::mmap(
            ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        ptr::null_mut()
    } else {
        p.cast()
    }
}

/// Unmaps memory obtained from [`mmap_anon`].
///
/// # Safety
/// `p..p+len` must be a mapping this runtime owns and no longer uses.
pub unsafe fn munmap(p: *mut u8, len: usize) {
    if !p.is_null() && len != 0 {
        // SAFETY: per the contract above.
        unsafe { libc::munmap(p.cast(), len) };
    }
}

/// Rounds `n` up to a multiple of `a` (a power of two); saturates instead of overflowing.
#[inline]
pub const fn round_up(n: usize, a: usize) -> usize {
    match n.checked_add(a - 1) {
        Some(v) => v & !(a - 1),
        None => usize::MAX & !(a - 1),
    }
}

/// The calling thread's kernel thread id.
pub fn gettid() -> i32 {
    // SAFETY: no arguments, cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as i32 }
}

/// A growable array of `Copy` values in its own anonymous mapping. Growth uses
/// `mremap(MREMAP_MAYMOVE)`, so there is no malloc anywhere. Pushing reports failure
/// (out of memory) by returning `false` instead of panicking.
pub struct MmapVec<T: Copy> {
    ptr: *mut T,
    len: usize,
    cap: usize,
    _t: PhantomData<T>,
}

impl<T: Copy> Default for MmapVec<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> MmapVec<T> {
    pub const fn new() -> Self {
        MmapVec {
            ptr: ptr::null_mut(),
            len: 0,
            cap: 0,
            _t: PhantomData,
        }
    }

    fn bytes_for(cap: usize) -> usize {
        round_up(cap.saturating_mul(size_of::<T>().max(1)), PAGE)
    }

    /// Makes room for at least `extra` more elements. Returns false when out of memory.
    pub fn reserve(&mut self, extra: usize) -> bool {
        let need = match self.len.checked_add(extra) {
            Some(n) => n,
            None => return false,
        };
        if need <= self.cap {
            return true;
        }
        let new_cap = need
            .max(self.cap.saturating_mul(2))
            .max(PAGE / size_of::<T>().max(1));
        let new_bytes = Self::bytes_for(new_cap);
        let p = if self.ptr.is_null() {
            mmap_anon(new_bytes)
        } else {
            let old_bytes = Self::bytes_for(self.cap);
            // SAFETY: self.ptr/old_bytes is our mapping.
            let q = unsafe {
                libc::mremap(self.ptr.cast(), old_bytes, new_bytes, libc::MREMAP_MAYMOVE)
            };
            if q == libc::MAP_FAILED {
                ptr::null_mut()
            } else {
                q.cast()
            }
        };
        if p.is_null() {
            return false;
        }
        self.ptr = p.cast();
        self.cap = new_bytes / size_of::<T>().max(1);
        true
    }

    /// Appends `v`; false when out of memory (the value is dropped).
    #[inline]
    pub fn push(&mut self, v: T) -> bool {
        if self.len == self.cap && !self.reserve(1) {
            return false;
        }
        // SAFETY: len < cap after reserve.
        unsafe { self.ptr.add(self.len).write(v) };
        self.len += 1;
        true
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn truncate(&mut self, n: usize) {
        if n < self.len {
            self.len = n;
        }
    }

    /// Keeps the elements `keep` accepts, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut n = 0;
        let v = self.as_mut_slice();
        for i in 0..v.len() {
            if keep(&v[i]) {
                v[n] = v[i];
                n += 1;
            }
        }
        self.truncate(n);
    }

    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: index < old len.
        Some(unsafe { self.ptr.add(self.len).read() })
    }

    pub fn as_slice(&self) -> &[T] {
        if self.ptr.is_null() {
            &[]
        } else {
            // SAFETY: ptr..ptr+len is initialised.
            unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        if self.ptr.is_null() {
            &mut []
        } else {
            // SAFETY: ptr..ptr+len is initialised and uniquely borrowed.
            unsafe { core::slice::from_raw_parts_mut(self.ptr, self.len) }
        }
    }

    /// Resizes to `n` elements, filling new ones with `v`. False when out of memory.
    pub fn resize(&mut self, n: usize, v: T) -> bool {
        if n > self.len && !self.reserve(n - self.len) {
            return false;
        }
        while self.len < n {
            // SAFETY: len < cap.
            unsafe { self.ptr.add(self.len).write(v) };
            self.len += 1;
        }
        self.truncate(n);
        true
    }
}

impl<T: Copy> Drop for MmapVec<T> {
    fn drop(&mut self) {
        if !self.ptr.is_null() {
            // SAFETY: our mapping, no longer borrowed.
            unsafe { munmap(self.ptr.cast(), Self::bytes_for(self.cap)) };
        }
    }
}

/// A fixed-capacity text buffer; writes past the end are silently truncated (at a
/// character boundary) and remembered in `truncated`.
pub struct StackBuf<const N: usize> {
    buf: [u8; N],
    len: usize,
    pub truncated: bool,
}

impl<const N: usize> Default for StackBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> StackBuf<N> {
    pub const fn new() -> Self {
        StackBuf {
            buf: [0; N],
            len: 0,
            truncated: false,
        }
    }
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn clear(&mut self) {
        self.len = 0;
        self.truncated = false;
    }
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
    /// Appends raw bytes (truncating).
    pub fn push_bytes(&mut self, b: &[u8]) {
        let room = N - self.len;
        let n = b.len().min(room);
        if n < b.len() {
            self.truncated = true;
        }
        if let (Some(dst), Some(src)) = (self.buf.get_mut(self.len..self.len + n), b.get(..n)) {
            dst.copy_from_slice(src);
            self.len += n;
        }
    }
    /// The contents followed by a NUL, for system calls. None if there is no room for
    /// the NUL or the text was truncated.
    pub fn as_cstr(&mut self) -> Option<*const libc::c_char> {
        if self.truncated || self.len >= N {
            return None;
        }
        if let Some(b) = self.buf.get_mut(self.len) {
            *b = 0;
        }
        Some(self.buf.as_ptr().cast())
    }
}

impl<const N: usize> fmt::Write for StackBuf<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = N - self.len;
        let mut n = s.len().min(room);
        while n > 0 && !s.is_char_boundary(n) {
            n -= 1;
        }
        if n < s.len() {
            self.truncated = true;
        }
        self.push_bytes(s.as_bytes().get(..n).unwrap_or(&[]));
        Ok(())
    }
}

/// Writes all of `b` to `fd`, retrying on `EINTR` and short writes. Returns false on error.
pub fn write_all(fd: i32, mut b: &[u8]) -> bool {
    while !b.is_empty() {
        // SAFETY: b is a valid buffer.
        let r = unsafe { libc::write(fd, b.as_ptr().cast(), b.len()) };
        if r < 0 {
            if errno() == libc::EINTR {
                continue;
            }
            return false;
        }
        if r == 0 {
            return false;
        }
        b = b.get(r as usize..).unwrap_or(&[]);
    }
    true
}

/// The calling thread's `errno`.
pub fn errno() -> i32 {
    // SAFETY: __errno_location always returns the thread's errno slot.
    unsafe { *libc::__errno_location() }
}

/// Sets the calling thread's `errno`.
pub fn set_errno(e: i32) {
    // SAFETY: as above.
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
        libc::ENOSPC => "no space left on device (ENOSPC)",
        libc::EROFS => "read-only file system (EROFS)",
        libc::EDQUOT => "disk quota exceeded (EDQUOT)",
        libc::ENAMETOOLONG => "file name too long (ENAMETOOLONG)",
        libc::EMFILE | libc::ENFILE => "too many open files (EMFILE)",
        libc::EIO => "input/output error (EIO)",
        _ => "system error",
    }
}

/// Writes one diagnostic line, `taintprof: <message>\n`, to stderr with a single
/// `write(2)` (so lines from several threads do not interleave). Never allocates.
pub fn diag_write(args: fmt::Arguments<'_>) {
    use fmt::Write;
    let mut b = StackBuf::<1024>::new();
    let _ = b.write_str("taintprof: ");
    let _ = b.write_fmt(args);
    if b.truncated {
        // Leave room for the marker and the newline.
        b.len = b.len.min(1024 - 5);
        b.push_bytes(b"...");
    }
    b.len = b.len.min(1023);
    b.push_bytes(b"\n");
    write_stderr_no_sigpipe(b.as_bytes());
}

/// Writes to stderr with SIGPIPE blocked, so a closed stderr pipe cannot kill the
/// program (and change its exit status) because the runtime printed a line.
fn write_stderr_no_sigpipe(b: &[u8]) {
    // SAFETY: signal-mask manipulation of the calling thread only (async-signal-safe).
    unsafe {
        let mut pipe: libc::sigset_t = core::mem::zeroed();
        let mut old: libc::sigset_t = core::mem::zeroed();
        let mut pending: libc::sigset_t = core::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old);
        libc::sigpending(&mut pending);
        let was_pending = libc::sigismember(&pending, libc::SIGPIPE) == 1;
        let ok = write_all(2, b);
        if !ok
            && errno() == libc::EPIPE
            && !was_pending
            && libc::sigismember(&old, libc::SIGPIPE) == 0
        {
            // Swallow the SIGPIPE our own write raised.
            let zero = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            libc::sigtimedwait(&pipe, core::ptr::null_mut(), &zero);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, core::ptr::null_mut());
    }
}

/// `diag!("format", args...)`: one line on stderr, prefixed with `taintprof: `.
#[macro_export]
macro_rules! diag {
    ($($t:tt)*) => { $crate::sys::diag_write(format_args!($($t)*)) };
}

/// Reads the NUL-terminated C string at `p` as bytes (empty for null).
///
/// # Safety
/// `p` must be null or point to a NUL-terminated string that outlives the result.
pub unsafe fn cstr<'a>(p: *const libc::c_char) -> &'a [u8] {
    if p.is_null() {
        return &[];
    }
    // SAFETY: per the contract.
    unsafe { core::slice::from_raw_parts(p.cast::<u8>(), libc::strlen(p)) }
}

/// Displays bytes as text, replacing invalid UTF-8 (for diagnostics).
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

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

    #[test]
    fn mmap_vec_grows_and_keeps_contents() {
        let mut v = MmapVec::<u64>::new();
        for i in 0..100_000u64 {
            assert!(v.push(i * 3));
        }
        assert_eq!(v.len(), 100_000);
        assert!(v
            .as_slice()
            .iter()
            .enumerate()
            .all(|(i, &x)| x == i as u64 * 3));
        v.as_mut_slice().sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(v.as_slice()[0], 99_999 * 3);
        assert_eq!(v.pop(), Some(0));
        assert!(v.resize(10, 7));
        assert_eq!(v.len(), 10);
    }

    #[test]
    fn stack_buf_truncates_at_char_boundaries() {
        let mut b = StackBuf::<5>::new();
        let _ = write!(b, "abcé€");
        assert!(b.truncated);
        assert_eq!(b.as_bytes(), "abcé".as_bytes());
        assert!(b.as_cstr().is_none());
        let mut c = StackBuf::<8>::new();
        let _ = write!(c, "{}", 42);
        assert_eq!(c.as_bytes(), b"42");
        assert!(c.as_cstr().is_some());
    }

    #[test]
    fn round_up_saturates() {
        assert_eq!(round_up(1, 4096), 4096);
        assert_eq!(round_up(4096, 4096), 4096);
        assert_eq!(round_up(usize::MAX, 4096), usize::MAX & !4095);
    }
}
