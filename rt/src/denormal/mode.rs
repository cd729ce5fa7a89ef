//! Which kind of program this is.
//!
//! A module is built in exactly one mode. Taint-mode modules register a `ModuleDesc`
//! (`__tp_register_module`), denormal-mode modules a `DnModuleDesc`
//! (`__tpd_register_module`). Both kinds use the same shadow region with different
//! meanings (16-bit labels per byte vs 32-bit stored tags per element), so a program that links
//! both cannot be analysed: the first registration that mixes modes prints an error
//! naming a source file of each kind, the denormal hooks stop writing shadow memory (so
//! the taint labels stay intact), and the taint report is written with the error in its
//! warnings.
//!
//! The record written at exit is a denormal record iff some denormal module registered
//! and no taint module did.

use core::ffi::c_char;
use core::sync::atomic::{AtomicBool, AtomicPtr, Ordering::*};

use taintprof_sigsafe::{cstr, Lossy};

static FIRST_TAINT: AtomicPtr<c_char> = AtomicPtr::new(core::ptr::null_mut());
static FIRST_DENORMAL: AtomicPtr<c_char> = AtomicPtr::new(core::ptr::null_mut());
static ANY_TAINT: AtomicBool = AtomicBool::new(false);
static ANY_DENORMAL: AtomicBool = AtomicBool::new(false);
static MIXED: AtomicBool = AtomicBool::new(false);

/// Placeholder for modules without a source name.
const UNNAMED: &core::ffi::CStr = c"<unnamed module>";

fn name_or_unnamed(src: *const c_char) -> *mut c_char {
    if src.is_null() {
        UNNAMED.as_ptr() as *mut c_char
    } else {
        src as *mut c_char
    }
}

/// A taint-mode module (source file `src`) registered.
pub fn note_taint_module(src: *const c_char) {
    let _ =
        FIRST_TAINT.compare_exchange(core::ptr::null_mut(), name_or_unnamed(src), AcqRel, Relaxed);
    ANY_TAINT.store(true, SeqCst);
    check();
}

/// A denormal-mode module (source file `src`) registered.
pub fn note_denormal_module(src: *const c_char) {
    let _ = FIRST_DENORMAL.compare_exchange(
        core::ptr::null_mut(),
        name_or_unnamed(src),
        AcqRel,
        Relaxed,
    );
    ANY_DENORMAL.store(true, SeqCst);
    check();
}

fn check() {
    if ANY_TAINT.load(SeqCst) && ANY_DENORMAL.load(SeqCst) && !MIXED.swap(true, SeqCst) {
        let (t, d) = sources();
        crate::diag!(
            "error: this program mixes instrumentation modes: '{}' was built in taint mode and '{}' in denormal mode (--tp-mode=denormal); both use the same shadow memory, so rebuild every file in one mode. The report will be a taint report; denormal data is not recorded",
            Lossy(t),
            Lossy(d)
        );
    }
}

/// The first taint-mode and the first denormal-mode source file (empty if none).
pub fn sources() -> (&'static [u8], &'static [u8]) {
    // SAFETY: module descriptor strings live as long as the process.
    unsafe {
        (
            cstr(FIRST_TAINT.load(Acquire)),
            cstr(FIRST_DENORMAL.load(Acquire)),
        )
    }
}

/// Some denormal-mode module registered.
pub fn any_denormal() -> bool {
    ANY_DENORMAL.load(Relaxed)
}

/// Both kinds of modules registered.
#[inline]
pub fn mixed() -> bool {
    MIXED.load(Relaxed)
}

/// The denormal hooks may write tags into shadow memory (not in a mixed program, where
/// the shadow holds taint labels). Always true in this crate's unit tests, which register
/// modules of both kinds in one process.
#[inline]
pub fn shadow_writes_allowed() -> bool {
    cfg!(test) || !mixed()
}

/// [`report_is_denormal`] with relaxed loads, for the C library wrappers' choice of
/// shadow layout (`crate::shadow::dn_layout`) on every call.
#[inline]
pub fn report_is_denormal_relaxed() -> bool {
    ANY_DENORMAL.load(Relaxed) && !ANY_TAINT.load(Relaxed)
}

/// The record to write is a denormal record.
pub fn report_is_denormal() -> bool {
    ANY_DENORMAL.load(SeqCst) && !ANY_TAINT.load(SeqCst)
}
