//! The floating-point environment: MXCSR's FTZ (flush-to-zero, bit 15) and DAZ
//! (denormals-are-zero, bit 6). With either set the CPU never produces or sees denormals
//! in SSE/AVX code and there is nothing to trace; the report says so.
//!
//! MXCSR is read at start-up (`.preinit_array`), again when the first denormal-mode
//! module registers (after `-ffast-math`'s `crtfastmath.o` constructor may have set
//! FTZ/DAZ) and at exit. `changed_by_program` compares the control bits (6..=15) of the
//! first and last readings; the sticky exception flags (0..=5) are ignored.

use core::sync::atomic::{AtomicBool, AtomicU32, Ordering::*};

pub const FTZ: u32 = 1 << 15;
pub const DAZ: u32 = 1 << 6;
const CONTROL: u32 = 0xffc0;

static START: AtomicU32 = AtomicU32::new(0x1f80);
static SEEN_START: AtomicBool = AtomicBool::new(false);
/// FTZ/DAZ bits seen at any reading.
static SEEN_FLAGS: AtomicU32 = AtomicU32::new(0);

/// The calling thread's MXCSR.
pub fn mxcsr() -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut v: u32 = 0;
        // SAFETY: stmxcsr stores 4 bytes to a valid local.
        unsafe {
            core::arch::asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack, preserves_flags));
        }
        v
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0x1f80
    }
}

/// Start-up reading.
pub fn at_start() {
    let v = mxcsr();
    START.store(v, Relaxed);
    SEEN_START.store(true, Relaxed);
    SEEN_FLAGS.fetch_or(v & (FTZ | DAZ), Relaxed);
}

/// Reading when the first denormal-mode module registers.
pub fn at_first_module() {
    let v = mxcsr();
    if !SEEN_START.swap(true, Relaxed) {
        START.store(v, Relaxed);
    }
    let f = v & (FTZ | DAZ);
    if f != 0 && SEEN_FLAGS.fetch_or(f, Relaxed) & (FTZ | DAZ) == 0 {
        crate::diag!(
            "warning: nothing to trace: denormals are flushed to zero (MXCSR {:#x}:{}{}); build without -ffast-math / -Ofast, or clear FTZ and DAZ",
            v,
            if v & FTZ != 0 { " FTZ" } else { "" },
            if v & DAZ != 0 { " DAZ" } else { "" }
        );
    }
}

/// What the report says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    pub start: u32,
    pub end: u32,
    pub ftz: bool,
    pub daz: bool,
    pub changed: bool,
}

/// Reads MXCSR now (exit) and combines it with the start.
pub fn at_exit() -> Env {
    let end = mxcsr();
    let start = START.load(Relaxed);
    let seen = SEEN_FLAGS.fetch_or(end & (FTZ | DAZ), Relaxed) | (end & (FTZ | DAZ));
    Env {
        start,
        end,
        ftz: seen & FTZ != 0,
        daz: seen & DAZ != 0,
        changed: (start ^ end) & CONTROL != 0,
    }
}
