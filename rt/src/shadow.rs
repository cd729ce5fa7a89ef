//! Shadow memory: one 16-bit label per application byte, direct-mapped.
//!
//! ```text
//! shadow(addr) = ((addr & SHADOW_MASK) << 1) + SHADOW_BASE
//!
//!  0x7fff_ffff_ffff +----------------------+
//!                   |  stack, mmap, libs   |  app (high)     -> shadow 0x2e00.. - 0x2fff..
//!  0x5500_0000_0000 +----------------------+
//!                   |  PIE binary + brk    |  app (middle)   -> shadow 0x1a00.. - 0x1dff..
//!  0x3000_0000_0000 +----------------------+
//!                   |  SHADOW (32 TiB)     |  reserved MAP_NORESERVE before main
//!  0x1000_0000_0000 +----------------------+
//!                   |  non-PIE binary, brk |  app (low)      -> shadow 0x1000.. - 0x11ff..
//!  0x0000_0000_0000 +----------------------+
//! ```
//!
//! (The drawing and the constants come from `taintprof-abi`, the contract with the pass,
//! which computes shadow addresses inline in IR.)
//!
//! The whole region is reserved once, before `main`, by [`reserve`] (called from the
//! `.preinit_array` entry in [`crate::init`]) with
//! `mmap(PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE|MAP_FIXED_NOREPLACE)`.
//! Pages are backed only when a label is first written. The region is excluded from
//! core dumps (`MADV_DONTDUMP`) and from transparent huge pages (`MADV_NOHUGEPAGE`,
//! as the sanitizers do: labels are written sparsely, and 2 MiB per touched spot would
//! multiply the memory cost).
//!
//! Denormal mode uses the first half of the same region with one shadow byte per
//! application byte (`taintprof_abi::dn_shadow_addr`: a float's 4 shadow bytes hold its
//! 32-bit stored tag). [`set`] and [`copy`], which the C library wrappers call in both
//! modes, move bytes of that layout once a denormal-mode program registered
//! ([`dn_layout`]); the denormal hooks use [`dn_clear`] and [`dn_copy`] directly.
//!
//! Clearing a large range does not `memset` it: whole shadow pages are given back with
//! `madvise(MADV_DONTNEED)` (they read as zero afterwards), so zeroing or freshly
//! allocating a multi-gigabyte array does not fault in gigabytes of shadow.

use core::ptr;

use taintprof_abi::{dn_shadow_addr, Label, SHADOW_BASE, SHADOW_MASK, SHADOW_SHIFT, SHADOW_SIZE};
use taintprof_sigsafe::{errno, errno_text, round_up, PAGE};

/// Shadow ranges at least this large (in shadow bytes) are cleared with `madvise`
/// instead of `memset`. Below it a `memset` is cheaper than a system call (and a TLB
/// shoot-down in multi-threaded programs).
pub const MADVISE_THRESHOLD: usize = 64 * 1024;

const SHADOW_END: usize = (SHADOW_BASE + SHADOW_SIZE) as usize;

/// Address of the label of application byte `addr`.
#[inline(always)]
pub fn shadow_ptr(addr: usize) -> *mut Label {
    ((((addr as u64) & SHADOW_MASK) << SHADOW_SHIFT) + SHADOW_BASE) as usize as *mut Label
}

/// Shadow of `[addr, addr+n)` as (pointer, label count), clamped to the shadow region
/// so that a wild length can never make us write outside it.
#[inline(always)]
fn range(addr: usize, n: usize) -> (*mut Label, usize) {
    let s = shadow_ptr(addr);
    let room = (SHADOW_END - s as usize) / 2;
    (s, n.min(room))
}

/// Denormal-mode shadow of `[addr, addr+n)` as (pointer, byte count), clamped to the
/// region.
#[inline(always)]
fn dn_range(addr: usize, n: usize) -> (*mut u8, usize) {
    let s = dn_shadow_addr(addr as u64) as usize;
    (s as *mut u8, n.min(SHADOW_END - s))
}

/// The shadow holds denormal mode's stored tags (a denormal-mode program, not mixed
/// with taint-mode modules), so the wrappers' [`set`] and [`copy`] move bytes of that
/// layout. Never in this crate's unit tests, which register modules of both kinds in
/// one process and test the wrappers against the taint layout.
#[inline]
pub fn dn_layout() -> bool {
    !cfg!(test) && crate::denormal::mode::report_is_denormal_relaxed()
}

/// Reserves the shadow region. Returns the errno on failure (and, for a kernel that
/// ignores `MAP_FIXED_NOREPLACE` and maps elsewhere, `EEXIST`).
pub fn reserve() -> Result<(), i32> {
    // SAFETY: MAP_FIXED_NOREPLACE never replaces an existing mapping.
    let p = unsafe {
        libc::mmap(
            SHADOW_BASE as usize as *mut libc::c_void,
            SHADOW_SIZE as usize,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE
                | libc::MAP_ANONYMOUS
                | libc::MAP_NORESERVE
                | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(errno());
    }
    if p as u64 != SHADOW_BASE {
        // Pre-4.17 kernels treat the address as a hint only.
        // SAFETY: the mapping we just got and nobody uses.
        unsafe { libc::munmap(p, SHADOW_SIZE as usize) };
        return Err(libc::EEXIST);
    }
    // Best effort: neither failure matters for correctness.
    // SAFETY: advice on our own mapping.
    unsafe {
        libc::madvise(p, SHADOW_SIZE as usize, libc::MADV_DONTDUMP);
        libc::madvise(p, SHADOW_SIZE as usize, libc::MADV_NOHUGEPAGE);
    }
    Ok(())
}

/// Reserves the shadow or ends the process with an explanation.
pub fn reserve_or_die() {
    if let Err(e) = reserve() {
        crate::diag!(
            "error: cannot reserve the shadow memory region [{:#x}, {:#x}) (32 TiB of address space, MAP_NORESERVE|MAP_FIXED_NOREPLACE): {}",
            SHADOW_BASE,
            SHADOW_BASE + SHADOW_SIZE,
            errno_text(e)
        );
        if e == libc::ENOMEM {
            crate::diag!(
                "the virtual memory size is probably limited: run `ulimit -v unlimited` (or raise the container's address-space limit) and try again"
            );
        } else if e == libc::EEXIST && crate::stack::explain_reservation_failure() {
            // An unlimited stack size limit (explained); not another tool's fault.
        } else if e == libc::EEXIST {
            crate::diag!(
                "something already occupies that range: another sanitizer runtime (ASan, MSan, TSan, DFSan) linked into the same program, a tool such as valgrind, or a kernel older than 4.17; build without other sanitizers and run the program natively"
            );
        } else {
            crate::diag!("check `ulimit -v` and whether another sanitizer runtime is linked into the program");
        }
        crate::diag!("the program was not run because it was built with taintprof and cannot work without its shadow memory");
        // SAFETY: terminating the process before main.
        unsafe { libc::_exit(1) };
    }
}

/// Zeroes `n` labels at `s`, returning whole pages to the kernel when the range is large.
///
/// # Safety
/// `s..s+n` must lie inside the reserved shadow region.
pub unsafe fn clear_labels(s: *mut Label, n: usize) {
    // SAFETY: the caller's range, in bytes.
    unsafe { clear_bytes(s.cast(), n * 2) }
}

/// Zeroes `bytes` shadow bytes at `s` (pages given back when the range is large).
///
/// # Safety
/// `s..s+bytes` must lie inside the reserved shadow region.
unsafe fn clear_bytes(s: *mut u8, bytes: usize) {
    if bytes < MADVISE_THRESHOLD {
        // SAFETY: inside the shadow region.
        unsafe { ptr::write_bytes(s.cast::<u8>(), 0, bytes) };
        return;
    }
    let start = s as usize;
    let end = start + bytes;
    let page_start = round_up(start, PAGE);
    let page_end = end & !(PAGE - 1);
    // SAFETY: all three pieces are inside the shadow region.
    unsafe {
        ptr::write_bytes(start as *mut u8, 0, page_start - start);
        if libc::madvise(
            page_start as *mut libc::c_void,
            page_end - page_start,
            libc::MADV_DONTNEED,
        ) != 0
        {
            ptr::write_bytes(page_start as *mut u8, 0, page_end - page_start);
        }
        ptr::write_bytes(page_end as *mut u8, 0, end - page_end);
    }
}

/// True if all `n` labels at `s` are zero. Reading untouched shadow maps the shared zero
/// page, so this costs no memory.
///
/// # Safety
/// `s..s+n` must lie inside the reserved shadow region.
unsafe fn all_zero(s: *const u8, bytes: usize) -> bool {
    // SAFETY: inside the shadow region.
    let b = unsafe { core::slice::from_raw_parts(s, bytes) };
    // Check in blocks so a labelled byte ends the scan early.
    b.chunks(4096)
        .all(|c| c.iter().fold(0u8, |a, &x| a | x) == 0)
}

/// Sets the labels of `[addr, addr+n)` to `label` (0 clears, with `madvise` when large).
///
/// # Safety
/// Any address is accepted (the shadow covers the whole address space); `n` is clamped.
#[inline]
pub unsafe fn set(addr: usize, label: Label, n: usize) {
    if dn_layout() {
        // Stored tags never come from labels (denormal mode has none): a clear.
        // SAFETY: the caller's contract.
        unsafe { dn_clear(addr, n) };
        return;
    }
    let (s, n) = range(addr, n);
    if n == 0 {
        return;
    }
    if label == 0 {
        // SAFETY: range() keeps s..s+n inside the region.
        unsafe { clear_labels(s, n) };
    } else {
        // SAFETY: as above.
        unsafe { core::slice::from_raw_parts_mut(s, n) }.fill(label);
    }
}

/// Copies the labels of `[src, src+n)` onto `[dst, dst+n)` (memmove semantics: the
/// ranges may overlap). A large copy of unlabelled memory becomes a clear, so it does
/// not fault in the destination's shadow.
///
/// # Safety
/// See [`set`].
#[inline]
pub unsafe fn copy(dst: usize, src: usize, n: usize) {
    if dn_layout() {
        // SAFETY: the caller's contract.
        unsafe { dn_copy(dst, src, n) };
        return;
    }
    let (d, nd) = range(dst, n);
    let (s, ns) = range(src, n);
    let n = nd.min(ns);
    // SAFETY: both ranges inside the region (clamped above).
    unsafe { copy_bytes(d.cast(), s.cast(), n * 2) }
}

/// Clears the denormal-mode shadow (stored tags) of `[addr, addr+n)`.
///
/// # Safety
/// See [`set`].
pub unsafe fn dn_clear(addr: usize, n: usize) {
    let (s, b) = dn_range(addr, n);
    // SAFETY: clamped to the region.
    unsafe { clear_bytes(s, b) }
}

/// Copies the denormal-mode shadow (stored tags) of `[src, src+n)` onto `[dst, dst+n)`
/// (memmove semantics).
///
/// # Safety
/// See [`set`].
pub unsafe fn dn_copy(dst: usize, src: usize, n: usize) {
    let (d, nd) = dn_range(dst, n);
    let (s, ns) = dn_range(src, n);
    // SAFETY: both ranges clamped to the region.
    unsafe { copy_bytes(d, s, nd.min(ns)) }
}

/// Moves `bytes` shadow bytes from `s` to `d`; a large copy of zeros becomes a clear,
/// so it does not fault in the destination's shadow.
///
/// # Safety
/// Both ranges inside the region.
unsafe fn copy_bytes(d: *mut u8, s: *const u8, bytes: usize) {
    if bytes == 0 || ptr::eq(d, s) {
        return;
    }
    // SAFETY: the caller's ranges.
    unsafe {
        if bytes >= MADVISE_THRESHOLD && all_zero(s, bytes) {
            clear_bytes(d, bytes);
        } else {
            ptr::copy(s, d, bytes);
        }
    }
}

/// Union (bitwise OR) of the labels of `[addr, addr+n)`.
///
/// # Safety
/// See [`set`].
#[inline]
pub unsafe fn union(addr: usize, n: usize) -> Label {
    let (s, n) = range(addr, n);
    if n == 0 {
        return 0;
    }
    // SAFETY: inside the region.
    let labels = unsafe { core::slice::from_raw_parts(s, n) };
    labels.iter().fold(0, |a, &b| a | b)
}

/// ORs `label` into the labels of `[addr, addr+n)` (control-flow tainting of memory
/// written under a labelled condition). A zero label touches nothing.
///
/// # Safety
/// See [`set`].
#[inline]
pub unsafe fn or(addr: usize, label: Label, n: usize) {
    if label == 0 {
        return;
    }
    let (s, n) = range(addr, n);
    if n == 0 {
        return;
    }
    // SAFETY: range() keeps s..s+n inside the region.
    for l in unsafe { core::slice::from_raw_parts_mut(s, n) } {
        *l |= label;
    }
}

/// `void __tp_shadow_or(void *dst, uint16_t label, size_t n)`.
#[no_mangle]
pub unsafe extern "C" fn __tp_shadow_or(dst: *mut libc::c_void, label: Label, n: usize) {
    // SAFETY: any address is valid for the shadow.
    unsafe { or(dst as usize, label, n) }
}

/// `void __tp_shadow_copy(void *dst, const void *src, size_t n)`: memmove semantics.
#[no_mangle]
pub unsafe extern "C" fn __tp_shadow_copy(
    dst: *mut libc::c_void,
    src: *const libc::c_void,
    n: usize,
) {
    // SAFETY: any address is valid for the shadow.
    unsafe { copy(dst as usize, src as usize, n) }
}

/// `void __tp_shadow_set(void *dst, uint16_t label, size_t n)`.
#[no_mangle]
pub unsafe extern "C" fn __tp_shadow_set(dst: *mut libc::c_void, label: Label, n: usize) {
    // SAFETY: any address is valid for the shadow.
    unsafe { set(dst as usize, label, n) }
}

/// `uint16_t *__tp_shadow_ptr(const void *p)`: the labels of the bytes from `p` on, one
/// `u16` per byte, contiguous for contiguous bytes (the MPI library's shadow windows
/// expose them to other ranks).
#[no_mangle]
pub extern "C" fn __tp_shadow_ptr(p: *const libc::c_void) -> *mut Label {
    shadow_ptr(p as usize)
}

/// `uint16_t __tp_shadow_union(const void *p, size_t n)`.
#[no_mangle]
pub unsafe extern "C" fn __tp_shadow_union(p: *const libc::c_void, n: usize) -> Label {
    // SAFETY: any address is valid for the shadow.
    unsafe { union(p as usize, n) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels_of(buf: &[u8]) -> Vec<u16> {
        (0..buf.len())
            .map(|i| unsafe { *shadow_ptr(buf.as_ptr() as usize + i) })
            .collect()
    }

    #[test]
    fn mapping_matches_the_abi() {
        for a in [0usize, 0x40_0000, 0x5555_5555_4000, 0x7fff_ffff_f000] {
            assert_eq!(shadow_ptr(a) as u64, taintprof_abi::shadow_addr(a as u64));
        }
    }

    #[test]
    fn denormal_layout_moves_one_shadow_byte_per_byte() {
        let buf = [0u8; 64];
        let p = buf.as_ptr() as usize;
        let tag = |a: usize| unsafe {
            ptr::read_unaligned(dn_shadow_addr(a as u64) as usize as *const u32)
        };
        let put = |a: usize, t: u32| unsafe {
            ptr::write_unaligned(dn_shadow_addr(a as u64) as usize as *mut u32, t)
        };
        unsafe {
            dn_clear(p, 64);
            put(p, 0x0001_0007);
            put(p + 4, 0x0002_0009);
            // Overlapping, forward: the two tags move 8 bytes up, as their floats would.
            dn_copy(p + 8, p, 16);
            assert_eq!((tag(p + 8), tag(p + 12)), (0x0001_0007, 0x0002_0009));
            assert_eq!(tag(p + 16), 0);
            dn_clear(p + 4, 8);
            assert_eq!((tag(p), tag(p + 4), tag(p + 8)), (0x0001_0007, 0, 0));
            assert_eq!(tag(p + 12), 0x0002_0009);
            dn_clear(p, 64);
        }
    }

    #[test]
    fn set_and_union() {
        let buf = vec![0u8; 64];
        let p = buf.as_ptr() as usize;
        unsafe {
            set(p, 0, 64);
            set(p + 8, 0b100, 8);
            set(p + 20, 0b1, 1);
            assert_eq!(union(p, 64), 0b101);
            assert_eq!(union(p, 8), 0);
            assert_eq!(union(p + 15, 2), 0b100);
            assert_eq!(union(p + 20, 0), 0);
            set(p + 8, 0, 8);
            assert_eq!(union(p, 64), 0b1);
            set(p, 0, 64);
        }
        assert!(labels_of(&buf).iter().all(|&l| l == 0));
    }

    #[test]
    fn copy_handles_overlap_both_ways() {
        let buf = vec![0u8; 32];
        let p = buf.as_ptr() as usize;
        unsafe {
            set(p, 0, 32);
            for i in 0..8 {
                set(p + i, 1 << i, 1);
            }
            // Forward overlap: dst after src.
            copy(p + 4, p, 8);
            let l = labels_of(&buf);
            assert_eq!(&l[4..12], &[1, 2, 4, 8, 16, 32, 64, 128]);
            assert_eq!(&l[0..4], &[1, 2, 4, 8]);
            // Backward overlap: dst before src.
            copy(p, p + 4, 8);
            let l = labels_of(&buf);
            assert_eq!(&l[0..8], &[1, 2, 4, 8, 16, 32, 64, 128]);
            set(p, 0, 32);
        }
    }

    #[test]
    fn large_clear_gives_pages_back() {
        // 8 MiB of application memory = 16 MiB of shadow.
        let n = 8 << 20;
        let buf = vec![0u8; n];
        let p = buf.as_ptr() as usize;
        unsafe {
            set(p, 0x8000, n);
            assert_eq!(union(p, n), 0x8000);
            set(p + 1, 0, n - 2);
            // Whole pages in the middle really were dropped (mincore: not resident).
            // Check before reading them again (a read maps the shared zero page).
            let mid = round_up(shadow_ptr(p + 4096) as usize, PAGE);
            let mut vec = [0u8; 16];
            assert_eq!(
                libc::mincore(mid as *mut libc::c_void, 16 * PAGE, vec.as_mut_ptr()),
                0
            );
            assert!(
                vec.iter().all(|&v| v & 1 == 0),
                "cleared shadow pages are still resident"
            );
            assert_eq!(union(p + 1, n - 2), 0);
            assert_eq!(union(p, 1), 0x8000);
            assert_eq!(union(p + n - 1, 1), 0x8000);
            // A large copy of unlabelled memory is a clear as well.
            let other = vec![0u8; n];
            let q = other.as_ptr() as usize;
            set(q, 0, n);
            set(p, 3, n);
            copy(p, q, n);
            assert_eq!(union(p, n), 0);
            // And a large copy of labelled memory copies.
            set(q + 12345, 0x40, 1);
            copy(p, q, n);
            assert_eq!(union(p + 12345, 1), 0x40);
            assert_eq!(union(p, n), 0x40);
            set(p, 0, n);
            set(q, 0, n);
        }
    }

    #[test]
    fn or_adds_bits_and_zero_touches_nothing() {
        let buf = vec![0u8; 16];
        let p = buf.as_ptr() as usize;
        unsafe {
            set(p, 0b1, 16);
            __tp_shadow_or(p as *mut _, 0b100, 8);
            assert_eq!(union(p, 8), 0b101);
            assert_eq!(union(p + 8, 8), 0b1);
            or(p, 0, 16);
            assert_eq!(labels_of(&buf)[15], 0b1);
            set(p, 0, 16);
        }
    }

    #[test]
    fn wild_lengths_are_clamped() {
        unsafe {
            // Near the top of the address space: the clamp keeps us inside the region.
            let top = 0x0fff_ffff_fff0usize;
            set(top, 1, usize::MAX / 4);
            assert_eq!(union(top, 16), 1);
            set(top, 0, 16);
        }
    }
}
