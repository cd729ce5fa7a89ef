//! Anonymous memory straight from the kernel.
//!
//! Why: malloc is off limits (a signal handler may have interrupted it, and the runtime
//! must not perturb the program's heap), so every runtime data structure lives in
//! private anonymous mappings.
//!
//! Invariants: mappings are `PROT_READ | PROT_WRITE`, private and `MAP_NORESERVE` (pages
//! cost memory only once touched, and read as zero until then); a failed mapping is a
//! null pointer, never `MAP_FAILED`.

use core::ptr;

/// Page size (x86-64 Linux). The runtimes check it against `sysconf` at start-up.
pub const PAGE: usize = 4096;

/// Rounds `n` up to a multiple of `a` (a power of two); saturates instead of overflowing.
#[inline]
pub const fn round_up(n: usize, a: usize) -> usize {
    match n.checked_add(a - 1) {
        Some(v) => v & !(a - 1),
        None => usize::MAX & !(a - 1),
    }
}

fn map(addr: *mut u8, len: usize, fixed: bool) -> *mut u8 {
    let flags = libc::MAP_PRIVATE
        | libc::MAP_ANONYMOUS
        | libc::MAP_NORESERVE
        | if fixed { libc::MAP_FIXED } else { 0 };
    // SAFETY: an anonymous mapping; with MAP_FIXED the callers guarantee that
    // `addr..addr+len` is their own mapping (see `remap_zero`).
    let p = unsafe {
        libc::mmap(
            addr.cast(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            flags,
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

/// Maps `len` bytes of zeroed, private, anonymous memory (`MAP_NORESERVE`). Returns null
/// on failure or when `len` is 0.
pub fn mmap_anon(len: usize) -> *mut u8 {
    if len == 0 {
        return ptr::null_mut();
    }
    map(ptr::null_mut(), len, false)
}

/// Unmaps memory obtained from [`mmap_anon`]. Null or empty ranges are ignored.
///
/// # Safety
/// `p..p+len` must be a mapping the caller owns and no longer uses.
pub unsafe fn munmap(p: *mut u8, len: usize) {
    if !p.is_null() && len != 0 {
        // SAFETY: per the contract above.
        unsafe { libc::munmap(p.cast(), len) };
    }
}

/// Replaces `[p, p + len)` by fresh zero pages in one step (`MAP_FIXED`): the cheapest
/// way to clear a large, sparsely touched table (the pages it had go back to the
/// kernel). Returns false if the kernel refused, leaving the old contents.
///
/// # Safety
/// `p..p+len` must be a mapping the caller made with [`mmap_anon`] (page aligned), and
/// nothing may rely on its old contents; other threads may read it meanwhile (they see
/// old or zero values) but must not write it.
pub unsafe fn remap_zero(p: *mut u8, len: usize) -> bool {
    !p.is_null() && len != 0 && map(p, len, true) == p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_up_saturates() {
        assert_eq!(round_up(0, 4096), 0);
        assert_eq!(round_up(1, 4096), 4096);
        assert_eq!(round_up(4096, 4096), 4096);
        assert_eq!(round_up(usize::MAX, 4096), usize::MAX & !4095);
    }

    #[test]
    fn mappings_are_zeroed_and_remap_clears_them() {
        assert!(mmap_anon(0).is_null());
        let len = 3 * PAGE;
        let p = mmap_anon(len);
        assert!(!p.is_null());
        // SAFETY: our fresh mapping of `len` bytes.
        let s = unsafe { core::slice::from_raw_parts_mut(p, len) };
        assert!(s.iter().all(|&b| b == 0));
        s.fill(7);
        // SAFETY: our mapping; nothing relies on its contents.
        assert!(unsafe { remap_zero(p, len) });
        // SAFETY: still our mapping, now zero pages.
        let s = unsafe { core::slice::from_raw_parts(p, len) };
        assert!(s.iter().all(|&b| b == 0));
        // SAFETY: our mapping, no longer used.
        unsafe { munmap(p, len) };
        // SAFETY: ignored.
        unsafe { munmap(core::ptr::null_mut(), 0) };
    }
}
