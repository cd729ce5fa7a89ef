//! Wrappers for library functions that move memory: `__tpw_<name>`.
//!
//! The pass redirects every direct call to a function listed as `wrap` in
//! `rt/abilist.txt` to `__tpw_<name>`, which has the same C signature, calls the real
//! function and then moves shadow memory the way the function moved bytes. The argument
//! labels of the call are in the TLS argument slots (`__tp_arg_tls`); the result label
//! follows the `ret=` rule of the abilist entry (`ret=tls` wrappers store it through
//! `__tp_tls_ret()`).
//!
//! | group | functions | shadow effect | ret |
//! |---|---|---|---|
//! | copies | memcpy, memmove, strcpy, strncpy, strcat, strncat, stpcpy, and the `_FORTIFY_SOURCE` `__*_chk` forms | labels travel with the bytes; `strncpy` padding and terminators written by the call are cleared | `arg0` |
//! | fill | memset, `__memset_chk` | the bytes get the label of the value argument (slot 1) | `arg0` |
//! | duplicate | strdup, strndup | the copy carries the source labels; the rest of the block is cleared | `zero` |
//! | input | fread, read, pread | bytes read from outside carry no parameter: cleared | `union` |
//! | allocation | malloc, calloc, realloc, aligned_alloc, memalign, posix_memalign, valloc, mmap, operator new/new[] (all variants, in `new_shim.c`) | the new block is cleared (usable size), so labels of freed memory never reappear; realloc carries `min(old usable, new size)` bytes of labels to a moved block | `zero` |
//! | parsing | strtol, strtoul, strtoll, strtoull, strtod, strtof, atoi, atol, atoll, atof | none (`*endptr` gets the label of the string pointer) | `tls`: union of the labels of the characters parsed |
//!
//! **Control-flow tainting**: every byte a wrapper writes is a plain overwrite (copies,
//! fills, terminators, padding, bytes read from outside), so it takes no control label
//! (`docs/internal/control-flow.md`, Rule 2: only a store that updates the value it
//! overwrites ORs the caller's `__tp_ctrl_tls`). Fresh allocations stay unlabelled.
//!
//! Every wrapper is panic-free by construction: raw pointer arithmetic with wrapping or
//! saturating operations, no indexing, no allocation.

use core::ffi::{c_char, c_int, c_long, c_longlong, c_ulong, c_ulonglong, c_void};
use core::ptr::null_mut;

use taintprof_sigsafe::{errno, round_up, set_errno, PAGE};

use crate::shadow;
use crate::{arg_label, set_ret_label};

#[allow(clashing_extern_declarations)]
mod real {
    use super::*;
    extern "C" {
        pub fn memcpy(d: *mut c_void, s: *const c_void, n: usize) -> *mut c_void;
        pub fn memmove(d: *mut c_void, s: *const c_void, n: usize) -> *mut c_void;
        pub fn memset(d: *mut c_void, c: c_int, n: usize) -> *mut c_void;
        pub fn strcpy(d: *mut c_char, s: *const c_char) -> *mut c_char;
        pub fn strncpy(d: *mut c_char, s: *const c_char, n: usize) -> *mut c_char;
        pub fn strcat(d: *mut c_char, s: *const c_char) -> *mut c_char;
        pub fn strncat(d: *mut c_char, s: *const c_char, n: usize) -> *mut c_char;
        pub fn stpcpy(d: *mut c_char, s: *const c_char) -> *mut c_char;
        pub fn strdup(s: *const c_char) -> *mut c_char;
        pub fn strndup(s: *const c_char, n: usize) -> *mut c_char;
        pub fn strlen(s: *const c_char) -> usize;
        pub fn strnlen(s: *const c_char, n: usize) -> usize;
        pub fn fread(p: *mut c_void, size: usize, n: usize, f: *mut libc::FILE) -> usize;
        pub fn read(fd: c_int, p: *mut c_void, n: usize) -> isize;
        pub fn pread(fd: c_int, p: *mut c_void, n: usize, off: libc::off_t) -> isize;
        pub fn malloc(n: usize) -> *mut c_void;
        pub fn calloc(n: usize, size: usize) -> *mut c_void;
        pub fn realloc(p: *mut c_void, n: usize) -> *mut c_void;
        pub fn aligned_alloc(al: usize, n: usize) -> *mut c_void;
        pub fn memalign(al: usize, n: usize) -> *mut c_void;
        pub fn posix_memalign(pp: *mut *mut c_void, al: usize, n: usize) -> c_int;
        pub fn valloc(n: usize) -> *mut c_void;
        pub fn malloc_usable_size(p: *mut c_void) -> usize;
        pub fn mmap(
            a: *mut c_void,
            n: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            off: libc::off_t,
        ) -> *mut c_void;
        pub fn strtol(s: *const c_char, e: *mut *mut c_char, base: c_int) -> c_long;
        pub fn strtoul(s: *const c_char, e: *mut *mut c_char, base: c_int) -> c_ulong;
        pub fn strtoll(s: *const c_char, e: *mut *mut c_char, base: c_int) -> c_longlong;
        pub fn strtoull(s: *const c_char, e: *mut *mut c_char, base: c_int) -> c_ulonglong;
        pub fn strtod(s: *const c_char, e: *mut *mut c_char) -> f64;
        pub fn strtof(s: *const c_char, e: *mut *mut c_char) -> f32;
        pub fn __memcpy_chk(d: *mut c_void, s: *const c_void, n: usize, dl: usize) -> *mut c_void;
        pub fn __memmove_chk(d: *mut c_void, s: *const c_void, n: usize, dl: usize) -> *mut c_void;
        pub fn __memset_chk(d: *mut c_void, c: c_int, n: usize, dl: usize) -> *mut c_void;
        pub fn __strcpy_chk(d: *mut c_char, s: *const c_char, dl: usize) -> *mut c_char;
        pub fn __strncpy_chk(d: *mut c_char, s: *const c_char, n: usize, dl: usize) -> *mut c_char;
        pub fn __strcat_chk(d: *mut c_char, s: *const c_char, dl: usize) -> *mut c_char;
        pub fn __strncat_chk(d: *mut c_char, s: *const c_char, n: usize, dl: usize) -> *mut c_char;
        pub fn __stpcpy_chk(d: *mut c_char, s: *const c_char, dl: usize) -> *mut c_char;
    }
}

#[inline(always)]
fn a<T>(p: *const T) -> usize {
    p as usize
}

/// Clears the shadow of a fresh heap block from byte `from` to its usable end.
#[inline]
unsafe fn clear_block_from(p: *mut c_void, from: usize) {
    if p.is_null() {
        return;
    }
    // SAFETY: p is a live malloc block.
    let usable = unsafe { real::malloc_usable_size(p) };
    if usable > from {
        // SAFETY: any address is valid for the shadow.
        unsafe { shadow::set(a(p).wrapping_add(from), 0, usable - from) };
    }
}

/// Called by the C `operator new` wrappers: clears the shadow of `n` bytes at `p`
/// (null-safe). `operator new` may be replaced by the program, so the block's usable size
/// is not asked from malloc.
#[no_mangle]
pub unsafe extern "C" fn __tp_alloc_clear(p: *mut c_void, n: usize) {
    if !p.is_null() {
        // SAFETY: any address is valid for the shadow.
        unsafe { shadow::set(a(p), 0, n) };
    }
}

// ----------------------------------------------------------------------------------
// Copies and fills
// ----------------------------------------------------------------------------------

/// Before the C library copies `n` bytes from `s` to `d`: in a denormal-mode program
/// the copy goes through the same accounting as a `memcpy` intrinsic (`__tpd_copy`: the
/// tags move, and the denormal elements of marked arrays count as read and written),
/// and true is returned; otherwise the caller copies the labels after the copy.
fn denormal_copy(d: *mut c_void, s: *const c_void, n: usize) -> bool {
    if !crate::denormal::mode::report_is_denormal() {
        return false;
    }
    // SAFETY: the program is about to copy these bytes.
    unsafe { crate::denormal::hooks::__tpd_copy(d, s, n) };
    true
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_memcpy(d: *mut c_void, s: *const c_void, n: usize) -> *mut c_void {
    // SAFETY: same contract as memcpy.
    unsafe {
        let dn = denormal_copy(d, s, n);
        let r = real::memcpy(d, s, n);
        if !dn {
            shadow::copy(a(d), a(s), n);
        }
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_memmove(d: *mut c_void, s: *const c_void, n: usize) -> *mut c_void {
    // SAFETY: same contract as memmove.
    unsafe {
        let dn = denormal_copy(d, s, n);
        let r = real::memmove(d, s, n);
        if !dn {
            shadow::copy(a(d), a(s), n);
        }
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_memset(d: *mut c_void, c: c_int, n: usize) -> *mut c_void {
    let l = arg_label(1);
    // SAFETY: same contract as memset.
    unsafe {
        let r = real::memset(d, c, n);
        shadow::set(a(d), l, n);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw___memcpy_chk(
    d: *mut c_void,
    s: *const c_void,
    n: usize,
    dl: usize,
) -> *mut c_void {
    // SAFETY: same contract as __memcpy_chk (which aborts on overflow).
    unsafe {
        let dn = denormal_copy(d, s, n);
        let r = real::__memcpy_chk(d, s, n, dl);
        if !dn {
            shadow::copy(a(d), a(s), n);
        }
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw___memmove_chk(
    d: *mut c_void,
    s: *const c_void,
    n: usize,
    dl: usize,
) -> *mut c_void {
    // SAFETY: same contract as __memmove_chk.
    unsafe {
        let dn = denormal_copy(d, s, n);
        let r = real::__memmove_chk(d, s, n, dl);
        if !dn {
            shadow::copy(a(d), a(s), n);
        }
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw___memset_chk(
    d: *mut c_void,
    c: c_int,
    n: usize,
    dl: usize,
) -> *mut c_void {
    let l = arg_label(1);
    // SAFETY: same contract as __memset_chk.
    unsafe {
        let r = real::__memset_chk(d, c, n, dl);
        shadow::set(a(d), l, n);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_strcpy(d: *mut c_char, s: *const c_char) -> *mut c_char {
    // SAFETY: same contract as strcpy.
    unsafe {
        let n = real::strlen(s).wrapping_add(1);
        let r = real::strcpy(d, s);
        shadow::copy(a(d), a(s), n);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw___strcpy_chk(
    d: *mut c_char,
    s: *const c_char,
    dl: usize,
) -> *mut c_char {
    // SAFETY: same contract as __strcpy_chk.
    unsafe {
        let n = real::strlen(s).wrapping_add(1);
        let r = real::__strcpy_chk(d, s, dl);
        shadow::copy(a(d), a(s), n);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_stpcpy(d: *mut c_char, s: *const c_char) -> *mut c_char {
    // SAFETY: same contract as stpcpy.
    unsafe {
        let n = real::strlen(s).wrapping_add(1);
        let r = real::stpcpy(d, s);
        shadow::copy(a(d), a(s), n);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw___stpcpy_chk(
    d: *mut c_char,
    s: *const c_char,
    dl: usize,
) -> *mut c_char {
    // SAFETY: same contract as __stpcpy_chk.
    unsafe {
        let n = real::strlen(s).wrapping_add(1);
        let r = real::__stpcpy_chk(d, s, dl);
        shadow::copy(a(d), a(s), n);
        r
    }
}

/// strncpy copies `strnlen(s, n)` bytes and pads the rest of the `n` with NULs.
unsafe fn strncpy_shadow(d: *mut c_char, s: *const c_char, n: usize, len: usize) {
    // SAFETY: any address is valid for the shadow.
    unsafe {
        shadow::copy(a(d), a(s), len);
        if len < n {
            shadow::set(a(d).wrapping_add(len), 0, n - len);
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_strncpy(d: *mut c_char, s: *const c_char, n: usize) -> *mut c_char {
    // SAFETY: same contract as strncpy.
    unsafe {
        let len = real::strnlen(s, n);
        let r = real::strncpy(d, s, n);
        strncpy_shadow(d, s, n, len);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw___strncpy_chk(
    d: *mut c_char,
    s: *const c_char,
    n: usize,
    dl: usize,
) -> *mut c_char {
    // SAFETY: same contract as __strncpy_chk.
    unsafe {
        let len = real::strnlen(s, n);
        let r = real::__strncpy_chk(d, s, n, dl);
        strncpy_shadow(d, s, n, len);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_strcat(d: *mut c_char, s: *const c_char) -> *mut c_char {
    // SAFETY: same contract as strcat.
    unsafe {
        let dl = real::strlen(d);
        let sl = real::strlen(s);
        let r = real::strcat(d, s);
        shadow::copy(a(d).wrapping_add(dl), a(s), sl.wrapping_add(1));
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw___strcat_chk(
    d: *mut c_char,
    s: *const c_char,
    dl_max: usize,
) -> *mut c_char {
    // SAFETY: same contract as __strcat_chk.
    unsafe {
        let dl = real::strlen(d);
        let sl = real::strlen(s);
        let r = real::__strcat_chk(d, s, dl_max);
        shadow::copy(a(d).wrapping_add(dl), a(s), sl.wrapping_add(1));
        r
    }
}

/// strncat appends `strnlen(s, n)` bytes and a NUL.
unsafe fn strncat_shadow(d: *mut c_char, dl: usize, s: *const c_char, sl: usize) {
    let at = a(d).wrapping_add(dl);
    // SAFETY: any address is valid for the shadow.
    unsafe {
        shadow::copy(at, a(s), sl);
        shadow::set(at.wrapping_add(sl), 0, 1);
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_strncat(d: *mut c_char, s: *const c_char, n: usize) -> *mut c_char {
    // SAFETY: same contract as strncat.
    unsafe {
        let dl = real::strlen(d);
        let sl = real::strnlen(s, n);
        let r = real::strncat(d, s, n);
        strncat_shadow(d, dl, s, sl);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw___strncat_chk(
    d: *mut c_char,
    s: *const c_char,
    n: usize,
    dl_max: usize,
) -> *mut c_char {
    // SAFETY: same contract as __strncat_chk.
    unsafe {
        let dl = real::strlen(d);
        let sl = real::strnlen(s, n);
        let r = real::__strncat_chk(d, s, n, dl_max);
        strncat_shadow(d, dl, s, sl);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_strdup(s: *const c_char) -> *mut c_char {
    // SAFETY: same contract as strdup.
    unsafe {
        let n = real::strlen(s).wrapping_add(1);
        let q = real::strdup(s);
        if !q.is_null() {
            shadow::copy(a(q), a(s), n);
            clear_block_from(q.cast(), n);
        }
        q
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_strndup(s: *const c_char, n: usize) -> *mut c_char {
    // SAFETY: same contract as strndup.
    unsafe {
        let len = real::strnlen(s, n);
        let q = real::strndup(s, n);
        if !q.is_null() {
            shadow::copy(a(q), a(s), len);
            clear_block_from(q.cast(), len);
        }
        q
    }
}

// ----------------------------------------------------------------------------------
// Input
// ----------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn __tpw_fread(
    p: *mut c_void,
    size: usize,
    n: usize,
    f: *mut libc::FILE,
) -> usize {
    // SAFETY: same contract as fread.
    unsafe {
        let r = real::fread(p, size, n, f);
        shadow::set(a(p), 0, r.saturating_mul(size));
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_read(fd: c_int, p: *mut c_void, n: usize) -> isize {
    // SAFETY: same contract as read.
    unsafe {
        let r = real::read(fd, p, n);
        if r > 0 {
            let e = errno();
            shadow::set(a(p), 0, r as usize);
            set_errno(e);
        }
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_pread(
    fd: c_int,
    p: *mut c_void,
    n: usize,
    off: libc::off_t,
) -> isize {
    // SAFETY: same contract as pread.
    unsafe {
        let r = real::pread(fd, p, n, off);
        if r > 0 {
            let e = errno();
            shadow::set(a(p), 0, r as usize);
            set_errno(e);
        }
        r
    }
}

// ----------------------------------------------------------------------------------
// Allocation
// ----------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn __tpw_malloc(n: usize) -> *mut c_void {
    // SAFETY: same contract as malloc.
    unsafe {
        let q = real::malloc(n);
        clear_block_from(q, 0);
        q
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_calloc(n: usize, size: usize) -> *mut c_void {
    // SAFETY: same contract as calloc.
    unsafe {
        let q = real::calloc(n, size);
        clear_block_from(q, 0);
        q
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_realloc(p: *mut c_void, n: usize) -> *mut c_void {
    // SAFETY: same contract as realloc; p's shadow stays readable after it is freed.
    unsafe {
        let old = if p.is_null() {
            0
        } else {
            real::malloc_usable_size(p)
        };
        let q = real::realloc(p, n);
        if q.is_null() {
            return q;
        }
        let keep = old.min(n);
        if q != p {
            shadow::copy(a(q), a(p), keep);
        }
        clear_block_from(q, keep);
        q
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_aligned_alloc(al: usize, n: usize) -> *mut c_void {
    // SAFETY: same contract as aligned_alloc.
    unsafe {
        let q = real::aligned_alloc(al, n);
        clear_block_from(q, 0);
        q
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_memalign(al: usize, n: usize) -> *mut c_void {
    // SAFETY: same contract as memalign.
    unsafe {
        let q = real::memalign(al, n);
        clear_block_from(q, 0);
        q
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_valloc(n: usize) -> *mut c_void {
    // SAFETY: same contract as valloc.
    unsafe {
        let q = real::valloc(n);
        clear_block_from(q, 0);
        q
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_posix_memalign(pp: *mut *mut c_void, al: usize, n: usize) -> c_int {
    // SAFETY: same contract as posix_memalign.
    unsafe {
        let r = real::posix_memalign(pp, al, n);
        if r == 0 && !pp.is_null() {
            clear_block_from(*pp, 0);
            // The pointer stored in *pp carries no label.
            shadow::set(a(pp), 0, core::mem::size_of::<*mut c_void>());
        }
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_mmap(
    addr: *mut c_void,
    n: usize,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    off: libc::off_t,
) -> *mut c_void {
    // SAFETY: same contract as mmap.
    unsafe {
        let q = real::mmap(addr, n, prot, flags, fd, off);
        if q != libc::MAP_FAILED {
            shadow::set(a(q), 0, round_up(n, PAGE));
        }
        q
    }
}

// ----------------------------------------------------------------------------------
// Parsing: the result depends on the characters parsed.
// ----------------------------------------------------------------------------------

/// Union of the labels of `[s, e)`; stores the end pointer (labelled like `s`) if asked.
#[inline]
unsafe fn parsed(s: *const c_char, e: *mut c_char, endp: *mut *mut c_char) {
    // SAFETY: endp is null or writable per the C contract; shadow accepts any address.
    unsafe {
        if !endp.is_null() {
            *endp = e;
            shadow::set(a(endp), arg_label(0), core::mem::size_of::<*mut c_char>());
        }
        let n = a(e).saturating_sub(a(s));
        set_ret_label(if n > 0 { shadow::union(a(s), n) } else { 0 });
    }
}

macro_rules! strto_int {
    ($name:ident, $real:ident, $t:ty) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            s: *const c_char,
            endp: *mut *mut c_char,
            base: c_int,
        ) -> $t {
            let mut e: *mut c_char = null_mut();
            // SAFETY: same contract as the real function.
            unsafe {
                let r = real::$real(s, &mut e, base);
                parsed(s, e, endp);
                r
            }
        }
    };
}

strto_int!(__tpw_strtol, strtol, c_long);
strto_int!(__tpw_strtoul, strtoul, c_ulong);
strto_int!(__tpw_strtoll, strtoll, c_longlong);
strto_int!(__tpw_strtoull, strtoull, c_ulonglong);

#[no_mangle]
pub unsafe extern "C" fn __tpw_strtod(s: *const c_char, endp: *mut *mut c_char) -> f64 {
    let mut e: *mut c_char = null_mut();
    // SAFETY: same contract as strtod.
    unsafe {
        let r = real::strtod(s, &mut e);
        parsed(s, e, endp);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_strtof(s: *const c_char, endp: *mut *mut c_char) -> f32 {
    let mut e: *mut c_char = null_mut();
    // SAFETY: same contract as strtof.
    unsafe {
        let r = real::strtof(s, &mut e);
        parsed(s, e, endp);
        r
    }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_atoi(s: *const c_char) -> c_int {
    // SAFETY: atoi(s) is (int)strtol(s, NULL, 10) in glibc.
    unsafe { __tpw_strtol(s, null_mut(), 10) as c_int }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_atol(s: *const c_char) -> c_long {
    // SAFETY: atol(s) is strtol(s, NULL, 10).
    unsafe { __tpw_strtol(s, null_mut(), 10) }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_atoll(s: *const c_char) -> c_longlong {
    // SAFETY: atoll(s) is strtoll(s, NULL, 10).
    unsafe { __tpw_strtoll(s, null_mut(), 10) }
}

#[no_mangle]
pub unsafe extern "C" fn __tpw_atof(s: *const c_char) -> f64 {
    // SAFETY: atof(s) is strtod(s, NULL).
    unsafe { __tpw_strtod(s, null_mut()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shadow::{set, union};

    fn lab(p: *const u8, n: usize) -> u16 {
        unsafe { union(p as usize, n) }
    }
    fn set_arg(i: usize, l: u16) {
        unsafe { *crate::__tp_tls_args().add(i) = l };
    }
    fn ret() -> u16 {
        unsafe { *crate::__tp_tls_ret() }
    }

    #[test]
    fn memcpy_memmove_memset_move_labels() {
        let src = [1u8; 16];
        let mut dst = [0u8; 16];
        unsafe {
            set(src.as_ptr() as usize, 0, 16);
            set(src.as_ptr() as usize + 4, 0b10, 4);
            set(dst.as_ptr() as usize, 0b1000, 16);
            __tpw_memcpy(dst.as_mut_ptr().cast(), src.as_ptr().cast(), 16);
            assert_eq!(dst, src);
            assert_eq!(lab(dst.as_ptr(), 4), 0);
            assert_eq!(lab(dst.as_ptr().add(4), 4), 0b10);
            __tpw_memmove(dst.as_mut_ptr().add(2).cast(), dst.as_ptr().cast(), 8);
            assert_eq!(lab(dst.as_ptr().add(6), 1), 0b10);
            set_arg(1, 0b100);
            __tpw_memset(dst.as_mut_ptr().cast(), 7, 8);
            assert_eq!(dst[..8], [7; 8]);
            assert_eq!(lab(dst.as_ptr(), 8), 0b100);
            set_arg(1, 0);
            __tpw_memset(dst.as_mut_ptr().cast(), 0, 16);
            assert_eq!(lab(dst.as_ptr(), 16), 0);
            set(src.as_ptr() as usize, 0, 16);
        }
    }

    #[test]
    fn string_functions_move_labels() {
        let s = *b"hello\0";
        let mut d = [b'x'; 32];
        unsafe {
            set(s.as_ptr() as usize, 0b1, 6);
            set(d.as_ptr() as usize, 0b1000_0000, 32);
            __tpw_strcpy(d.as_mut_ptr().cast(), s.as_ptr().cast());
            assert_eq!(lab(d.as_ptr(), 6), 0b1);
            assert_eq!(lab(d.as_ptr().add(6), 1), 0b1000_0000);
            let t = *b"ab\0";
            set(t.as_ptr() as usize, 0b10, 3);
            __tpw_strcat(d.as_mut_ptr().cast(), t.as_ptr().cast());
            assert_eq!(&d[..8], b"helloab\0");
            assert_eq!(lab(d.as_ptr().add(5), 3), 0b10);
            __tpw_strncpy(d.as_mut_ptr().cast(), t.as_ptr().cast(), 10);
            assert_eq!(lab(d.as_ptr(), 2), 0b10);
            assert_eq!(lab(d.as_ptr().add(2), 8), 0, "padding is cleared");
            assert_eq!(lab(d.as_ptr().add(10), 1), 0b1000_0000);
            __tpw_strncat(d.as_mut_ptr().cast(), s.as_ptr().cast(), 3);
            assert_eq!(&d[..6], b"abhel\0");
            assert_eq!(lab(d.as_ptr().add(2), 3), 0b1);
            assert_eq!(lab(d.as_ptr().add(5), 1), 0);
            let end = __tpw_stpcpy(d.as_mut_ptr().cast(), s.as_ptr().cast());
            assert_eq!(end as usize, d.as_ptr() as usize + 5);
            let q = __tpw_strdup(s.as_ptr().cast());
            assert_eq!(lab(q.cast(), 6), 0b1);
            libc::free(q.cast());
            let q = __tpw_strndup(s.as_ptr().cast(), 2);
            assert_eq!(lab(q.cast(), 2), 0b1);
            assert_eq!(lab(q.cast::<u8>().add(2), 1), 0);
            libc::free(q.cast());
            set(s.as_ptr() as usize, 0, 6);
            set(t.as_ptr() as usize, 0, 3);
            set(d.as_ptr() as usize, 0, 32);
        }
    }

    fn set_ctrl(l: u16) {
        unsafe { *crate::__tp_tls_ctrl() = l };
    }

    /// A library call under a decision (`if (method == 0) memcpy(...)`, or in a loop):
    /// every byte it writes is a plain overwrite, so it keeps the labels of what was
    /// written and takes none of the caller's control label (Rule 2).
    #[test]
    fn written_bytes_take_no_control_label() {
        let src = *b"abcdefgh\0";
        let mut dst = [0u8; 32];
        unsafe {
            set(src.as_ptr() as usize, 0b1, 9);
            set(dst.as_ptr() as usize, 0, 32);
            set_ctrl(0b1000);
            __tpw_memcpy(dst.as_mut_ptr().cast(), src.as_ptr().cast(), 4);
            assert_eq!(lab(dst.as_ptr(), 4), 0b1);
            assert_eq!(lab(dst.as_ptr().add(4), 28), 0);
            set_arg(1, 0b10);
            __tpw_memset(dst.as_mut_ptr().add(8).cast(), 0, 4);
            assert_eq!(lab(dst.as_ptr().add(8), 4), 0b10);
            set_arg(1, 0);
            __tpw_strcpy(dst.as_mut_ptr().add(16).cast(), src.as_ptr().cast());
            assert_eq!(lab(dst.as_ptr().add(16), 9), 0b1);
            let q = __tpw_strdup(src.as_ptr().cast());
            assert_eq!(lab(q.cast(), 9), 0b1);
            libc::free(q.cast());
            set(dst.as_ptr() as usize, 0b100, 4);
            let fd = libc::open(c"/proc/self/cmdline".as_ptr(), libc::O_RDONLY);
            let n = __tpw_read(fd, dst.as_mut_ptr().cast(), 4);
            assert!(n > 0);
            assert_eq!(lab(dst.as_ptr(), n as usize), 0, "input carries no label");
            libc::close(fd);
            let p = __tpw_malloc(16) as *mut u8;
            assert_eq!(lab(p, 16), 0, "fresh blocks stay unlabelled");
            set(p as usize, 0b1, 16);
            let q = __tpw_realloc(p.cast(), 1 << 20) as *mut u8;
            assert_eq!(lab(q, 16), 0b1, "a moved block's copied bytes");
            libc::free(q.cast());
            set_ctrl(0);
            set(src.as_ptr() as usize, 0, 9);
            set(dst.as_ptr() as usize, 0, 32);
        }
    }

    #[test]
    fn allocations_come_back_unlabelled() {
        unsafe {
            for _ in 0..4 {
                let p = __tpw_malloc(100) as *mut u8;
                set(p as usize, 0xffff, 100);
                libc::free(p.cast());
                let q = __tpw_malloc(100) as *mut u8;
                assert_eq!(lab(q, real::malloc_usable_size(q.cast())), 0);
                libc::free(q.cast());
            }
            let p = __tpw_calloc(10, 10) as *mut u8;
            assert_eq!(lab(p, 100), 0);
            set(p as usize, 0b11, 100);
            // Grow (likely moves): the first 100 bytes keep their labels, the tail is clear.
            let q = __tpw_realloc(p.cast(), 1 << 20) as *mut u8;
            assert_eq!(lab(q, 100), 0b11);
            assert_eq!(lab(q.add(100), (1 << 20) - 100), 0);
            // Shrink.
            let r = __tpw_realloc(q.cast(), 10) as *mut u8;
            assert_eq!(lab(r, 10), 0b11);
            libc::free(r.cast());
            let mut pp: *mut c_void = null_mut();
            set(&pp as *const _ as usize, 0b1, 8);
            assert_eq!(__tpw_posix_memalign(&mut pp, 64, 256), 0);
            assert_eq!(pp as usize % 64, 0);
            assert_eq!(lab(pp.cast(), 256), 0);
            assert_eq!(lab(&pp as *const _ as *const u8, 8), 0);
            libc::free(pp);
            for q in [
                __tpw_aligned_alloc(64, 128),
                __tpw_memalign(64, 128),
                __tpw_valloc(128),
            ] {
                assert!(!q.is_null());
                assert_eq!(lab(q.cast(), 128), 0);
                libc::free(q);
            }
            let m = __tpw_mmap(
                null_mut(),
                8192,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert_ne!(m, libc::MAP_FAILED);
            assert_eq!(lab(m.cast(), 8192), 0);
            libc::munmap(m, 8192);
        }
    }

    #[test]
    fn reads_clear_labels() {
        let mut buf = [0u8; 64];
        let f = c"/proc/self/cmdline";
        unsafe {
            set(buf.as_ptr() as usize, 0b1, 64);
            let fd = libc::open(f.as_ptr(), libc::O_RDONLY);
            assert!(fd >= 0);
            let n = __tpw_read(fd, buf.as_mut_ptr().cast(), 8);
            assert!(n > 0);
            assert_eq!(lab(buf.as_ptr(), n as usize), 0);
            assert_eq!(lab(buf.as_ptr().add(8), 1), 0b1);
            set(buf.as_ptr() as usize, 0b1, 64);
            let n = __tpw_pread(fd, buf.as_mut_ptr().cast(), 4, 0);
            assert_eq!(n, 4);
            assert_eq!(lab(buf.as_ptr(), 4), 0);
            libc::close(fd);
            let fp = libc::fopen(f.as_ptr(), c"r".as_ptr());
            set(buf.as_ptr() as usize, 0b1, 64);
            let n = __tpw_fread(buf.as_mut_ptr().cast(), 1, 5, fp);
            assert_eq!(n, 5);
            assert_eq!(lab(buf.as_ptr(), 5), 0);
            assert_eq!(lab(buf.as_ptr().add(5), 1), 0b1);
            libc::fclose(fp);
            set(buf.as_ptr() as usize, 0, 64);
        }
    }

    #[test]
    fn parsing_returns_the_union_of_the_parsed_characters() {
        let s = *b"  -123xyz\0";
        let d = *b"2.5e3 rest\0";
        unsafe {
            set(s.as_ptr() as usize, 0, 10);
            set(s.as_ptr() as usize + 4, 0b10, 1); // the '1'
            set(s.as_ptr() as usize + 6, 0b100, 1); // 'x', not parsed
            let mut e: *mut c_char = null_mut();
            set_arg(0, 0b1000);
            assert_eq!(__tpw_strtol(s.as_ptr().cast(), &mut e, 10), -123);
            assert_eq!(e as usize, s.as_ptr() as usize + 6);
            assert_eq!(ret(), 0b10);
            assert_eq!(
                lab(&e as *const _ as *const u8, 8),
                0b1000,
                "*endptr is labelled like the string pointer"
            );
            set_arg(0, 0);
            assert_eq!(__tpw_atoi(s.as_ptr().cast()), -123);
            assert_eq!(ret(), 0b10);
            assert_eq!(__tpw_atol(s.as_ptr().cast()), -123);
            assert_eq!(__tpw_atoll(s.as_ptr().cast()), -123);
            assert_eq!(__tpw_strtoul(c"77".as_ptr(), null_mut(), 8), 63);
            assert_eq!(ret(), 0);
            assert_eq!(
                __tpw_strtoull(s.as_ptr().add(3).cast(), null_mut(), 10),
                123
            );
            assert_eq!(__tpw_strtoll(s.as_ptr().cast(), null_mut(), 0), -123);
            set(d.as_ptr() as usize, 0b1_0000, 10);
            assert_eq!(__tpw_strtod(d.as_ptr().cast(), null_mut()), 2500.0);
            assert_eq!(ret(), 0b1_0000);
            assert_eq!(__tpw_strtof(d.as_ptr().cast(), null_mut()), 2500.0);
            assert_eq!(__tpw_atof(d.as_ptr().cast()), 2500.0);
            // Nothing parsed: no label.
            assert_eq!(__tpw_strtol(c"zz".as_ptr(), null_mut(), 10), 0);
            assert_eq!(ret(), 0);
            set(s.as_ptr() as usize, 0, 10);
            set(d.as_ptr() as usize, 0, 10);
        }
    }
}
