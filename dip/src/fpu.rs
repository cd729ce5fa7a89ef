//! The two floating-point units of x86-64 and how we arm them.
//!
//! * **SSE/AVX** (every `float`/`double` operation on x86-64): control and status in
//!   MXCSR. Exceptions are *precise*: an unmasked exception faults on the instruction
//!   that detects it (`#XM`, trap 19), before anything is written, with RIP pointing at
//!   that instruction. Returning from the signal handler executes it again.
//! * **x87** (`long double`): control word + status word. Exceptions are *delayed*: the
//!   faulting instruction sets the flag (and the error summary ES) without completing,
//!   and the fault (`#MF`, trap 16) is taken at the *next* waiting x87 instruction. RIP
//!   then points at that next instruction; the faulting one is in the x87 instruction
//!   pointer (FIP, saved by FXSAVE) and its memory operand in the data pointer (FDP).
//!   See `x87.rs` for how the faulting instruction is replayed.
//!
//! Linux reports both denormal-operand (DE) and underflow (UE) as `FPE_FLTUND`, so the
//! handler decides from the saved status flags, never from `si_code`.

use core::arch::asm;

// MXCSR flags (sticky), masks and modes.
pub const MX_IE: u32 = 1 << 0;
pub const MX_DE: u32 = 1 << 1;
pub const MX_ZE: u32 = 1 << 2;
pub const MX_OE: u32 = 1 << 3;
pub const MX_UE: u32 = 1 << 4;
pub const MX_FLAGS: u32 = 0x3f;
pub const MX_DAZ: u32 = 1 << 6;
pub const MX_DM: u32 = 1 << 8;
pub const MX_UM: u32 = 1 << 11;
pub const MX_FTZ: u32 = 1 << 15;
/// Exceptions whose flag is set and whose mask is clear.
#[inline]
pub fn mx_pending(mx: u32) -> u32 {
    mx & !(mx >> 7) & MX_FLAGS
}

// x87 status word (flags in the low 6 bits, stack fault, error summary, busy).
pub const SW_IE: u16 = 1 << 0;
pub const SW_DE: u16 = 1 << 1;
pub const SW_ZE: u16 = 1 << 2;
pub const SW_OE: u16 = 1 << 3;
pub const SW_UE: u16 = 1 << 4;
pub const SW_PE: u16 = 1 << 5;
pub const SW_ES: u16 = 1 << 7;
pub const SW_B: u16 = 1 << 15;
// x87 control word: the masks use the same bit positions as the flags.
pub const CW_DM: u16 = 1 << 1;
#[inline]
pub fn x87_pending(cw: u16, sw: u16) -> u16 {
    sw & !cw & 0x3f
}

/// Recomputes the error summary (ES) and busy (B) bits after changing flags or masks:
/// the x87 raises `#MF` at the next waiting instruction whenever ES is set, so a
/// status word that still says "pending" after we handled the exception would fault
/// again immediately.
#[inline]
pub fn x87_fix_summary(cw: u16, sw: u16) -> u16 {
    if x87_pending(cw, sw) == 0 {
        sw & !(SW_ES | SW_B)
    } else {
        sw | SW_ES | SW_B
    }
}

// Traps as the kernel reports them in `uc_mcontext.gregs[REG_TRAPNO]`.
pub const TRAP_MF: i64 = 16;
pub const TRAP_XM: i64 = 19;
/// EFLAGS trap flag: the CPU raises a debug exception (SIGTRAP) after the next
/// instruction completes.
pub const EFLAGS_TF: i64 = 1 << 8;

#[inline]
pub fn get_mxcsr() -> u32 {
    let mut v: u32 = 0;
    // SAFETY: stores MXCSR into a local.
    unsafe { asm!("stmxcsr [{}]", in(reg) &mut v as *mut u32, options(nostack, preserves_flags)) };
    v
}

#[inline]
pub fn set_mxcsr(v: u32) {
    // SAFETY: loads a valid MXCSR (callers only toggle architectural bits).
    unsafe { asm!("ldmxcsr [{}]", in(reg) &v as *const u32, options(nostack, preserves_flags)) };
}

#[inline]
pub fn get_x87_cw() -> u16 {
    let mut v: u16 = 0;
    // SAFETY: stores the x87 control word into a local (no-wait form: never faults).
    unsafe { asm!("fnstcw [{}]", in(reg) &mut v as *mut u16, options(nostack, preserves_flags)) };
    v
}

/// The 28-byte x87 environment (FNSTENV/FLDENV, 32-bit layout).
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct X87Env {
    cw: u16,
    _r0: u16,
    sw: u16,
    _r1: u16,
    tw: u16,
    _r2: u16,
    fip: u32,
    fcs_fop: u32,
    fdp: u32,
    fds: u32,
}

/// Clears `flags` in the x87 status word and the `masks` bits in the control word.
///
/// Stale flags must go first: an x87 flag that is set while its mask is clear is a
/// pending exception, and the next x87 instruction would fault on it, pointing at some
/// old instruction. FNSTENV masks all x87 exceptions as a side effect, and FLDENV puts
/// back the environment we edited.
pub fn x87_unmask(masks: u16, flags: u16) {
    let mut env = X87Env::default();
    // SAFETY: env is 28 writable bytes; FLDENV loads what FNSTENV stored, edited.
    unsafe {
        asm!("fnstenv [{}]", in(reg) &mut env as *mut X87Env, options(nostack, preserves_flags));
        env.sw &= !flags;
        env.cw &= !masks;
        env.sw = x87_fix_summary(env.cw, env.sw);
        asm!("fldenv [{}]", in(reg) &env as *const X87Env, options(nostack, preserves_flags));
    }
}

/// The MXCSR bits we unmask (DM, and UM with `TAINTPROF_DIP_UNDERFLOW=1`).
pub fn armed_mx_masks() -> u32 {
    if crate::options::underflow() {
        MX_DM | MX_UM
    } else {
        MX_DM
    }
}

/// The x87 control-word bits we unmask (DM only: see `x87.rs` for why underflow is not
/// traced on the x87).
pub fn armed_cw_masks() -> u16 {
    if crate::options::x87() && X87_USABLE.load(core::sync::atomic::Ordering::Relaxed) {
        CW_DM
    } else {
        0
    }
}

/// Whether the start-up probe saw the x87 trap as expected (see `x87::probe`).
pub static X87_USABLE: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// Arms the calling thread: clears our flags (so a stale DE/UE cannot be mistaken for
/// a new one) and unmasks our exceptions. Everything else the thread had (rounding,
/// FTZ/DAZ, the program's own unmasked exceptions) is kept.
pub fn arm_thread() {
    let m = armed_mx_masks();
    let flags = if m & MX_UM != 0 { MX_DE | MX_UE } else { MX_DE };
    set_mxcsr(get_mxcsr() & !flags & !m);
    let cw = armed_cw_masks();
    if cw != 0 {
        x87_unmask(cw, SW_DE);
    }
}

/// Whether the calling thread is armed (every bit we unmask is unmasked).
pub fn thread_is_armed() -> bool {
    get_mxcsr() & armed_mx_masks() == 0 && get_x87_cw() & armed_cw_masks() == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_is_flag_and_unmasked() {
        // DE set, DM clear; ZE set but masked.
        let mx = 0x1f80 & !MX_DM | MX_DE | MX_ZE;
        assert_eq!(mx_pending(mx), MX_DE);
        assert_eq!(mx_pending(0x1f80 | MX_DE), 0);
    }

    #[test]
    fn summary_follows_pending() {
        let cw = 0x037f & !CW_DM;
        assert_eq!(x87_fix_summary(cw, SW_DE) & SW_ES, SW_ES);
        assert_eq!(x87_fix_summary(cw, SW_ES | SW_B | SW_PE), SW_PE);
    }

    #[test]
    fn mxcsr_roundtrip() {
        let old = get_mxcsr();
        set_mxcsr(old | MX_FTZ);
        assert_eq!(get_mxcsr() & MX_FTZ, MX_FTZ);
        set_mxcsr(old);
        assert_eq!(get_mxcsr(), old);
        assert_eq!(get_x87_cw() & 0x3f, 0x3f);
    }
}
