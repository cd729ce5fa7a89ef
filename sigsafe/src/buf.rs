//! Fixed-size text on the stack, and bytes shown as text.
//!
//! Why: diagnostics and file names are formatted in signal handlers, where `String` is
//! not available; program-supplied bytes (paths, names) need not be UTF-8.
//!
//! Invariants: a [`StackBuf`] never holds more than `N` bytes and never fails: output
//! past the end is dropped (at a character boundary when it comes as `&str`) and
//! remembered in `truncated`, so callers decide whether a cut text is still usable (a
//! path is not: [`StackBuf::as_cstr`] refuses it).

use core::fmt;

/// A fixed-capacity text buffer; writes past the end are silently truncated (at a
/// character boundary for `fmt::Write`) and remembered in `truncated`.
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

    /// Empties the buffer and forgets an earlier truncation.
    pub fn clear(&mut self) {
        self.len = 0;
        self.truncated = false;
    }

    /// Keeps the first `n` bytes (`truncated` is left as it is).
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

    /// The contents followed by a NUL, for system calls. None if the text was truncated
    /// or there is no room left for the NUL (`N` bytes of text).
    pub fn as_cstr(&mut self) -> Option<*const libc::c_char> {
        if self.truncated {
            return None;
        }
        *self.buf.get_mut(self.len)? = 0;
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

/// Displays bytes as text, replacing each invalid UTF-8 sequence by U+FFFD.
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

/// The NUL-terminated C string at `p` as bytes, without the NUL (empty for null).
///
/// # Safety
/// `p` must be null or point to a NUL-terminated string that outlives the result.
#[inline]
pub unsafe fn cstr<'a>(p: *const libc::c_char) -> &'a [u8] {
    if p.is_null() {
        return &[];
    }
    // SAFETY: per the contract, `strlen(p)` bytes are readable and stay valid for 'a.
    unsafe { core::slice::from_raw_parts(p.cast::<u8>(), libc::strlen(p)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

    #[test]
    fn truncates_at_char_boundaries() {
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
    fn cstr_needs_room_for_the_nul() {
        let mut b = StackBuf::<4>::new();
        b.push_bytes(b"abc");
        let p = b.as_cstr().unwrap();
        // SAFETY: just NUL-terminated.
        assert_eq!(unsafe { cstr(p) }, b"abc");
        b.push_bytes(b"d");
        assert!(!b.truncated);
        assert!(b.as_cstr().is_none());
        b.push_bytes(b"e");
        assert!(b.truncated);
        b.clear();
        assert!(b.is_empty() && !b.truncated);
        b.push_bytes(b"xyz");
        b.truncate(1);
        assert_eq!(b.as_bytes(), b"x");
        // SAFETY: null is allowed.
        assert_eq!(unsafe { cstr(core::ptr::null()) }, b"");
    }

    #[test]
    fn lossy_replaces_invalid_utf8() {
        let mut b = StackBuf::<64>::new();
        let _ = write!(b, "{}", Lossy(b"a\xffb\xe2\x82"));
        assert_eq!(b.as_bytes(), "a\u{fffd}b\u{fffd}".as_bytes());
    }
}
