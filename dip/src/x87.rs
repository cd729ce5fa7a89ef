//! Replaying the x87 instruction that raised a denormal-operand exception.
//!
//! The thesis's DIP assumed the x87 restarts the faulting instruction. It does not (on
//! any CPU since the 486 with CR0.NE): a denormal operand is a *pre-computation*
//! exception, so the instruction is abandoned — no result, the register stack
//! unchanged — and the `#MF` fault is taken at the **next** waiting x87 instruction
//! (I2). The faulting instruction (I1) is only known from the x87 instruction pointer
//! (FIP) and its memory operand from the data pointer (FDP), both in the FXSAVE area.
//! Returning to I2 would silently skip I1 and change the program's results.
//!
//! So the SIGFPE handler *replays* I1: RIP := FIP, the exception masked, trap flag set.
//! I1 runs once; the SIGTRAP handler then continues at I2 (the instructions between I1
//! and I2 already ran and must not run again). This is exact when
//!
//! * I2 directly follows I1 (nothing ran in between), or
//! * I1 has no memory operand (x87 registers cannot be changed by non-x87 code), or
//! * its address does not depend on registers (RIP-relative, absolute), or
//! * recomputing its address from the current registers gives FDP again.
//!
//! Otherwise a register the address was computed from changed in between (e.g.
//! `fadds (%rcx); add $4,%rcx; ...; fmul`): the handler sets the base (or index)
//! register so the address equals FDP again for the one replayed instruction and puts
//! the old value back in the SIGTRAP handler. Asynchronous signals are blocked for the
//! step, so nothing else can observe the temporary register.
//!
//! One exception to "abandoned": `FLD m32/m64` of a denormal. On some CPUs (AMD Zen,
//! measured) the load has completed — the value is pushed — when the fault is taken;
//! replaying it would push it twice. Which behaviour the CPU has is found at start-up
//! by [`probe`], and completed loads are counted without a replay.
//!
//! Underflow is *not* traced on the x87: it is a post-computation exception that, for a
//! register destination, has already written a scaled result (so a replay would apply
//! the operation twice), and the thesis's DIP did not trace it either.

/// A decoded x87 instruction: its length and its memory operand, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insn {
    pub len: u64,
    pub mem: Option<Mem>,
    /// `FLD m32fp` or `FLD m64fp` (D9 /0, DD /0).
    pub fld: bool,
}

/// A ModRM memory operand. Registers are x86 encodings 0–15 (rax, rcx, rdx, rbx, rsp,
/// rbp, rsi, rdi, r8–r15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mem {
    pub base: Option<u8>,
    pub index: Option<u8>,
    pub scale: u8,
    pub disp: i64,
    pub rip_relative: bool,
    /// 0x67 prefix: 32-bit address arithmetic.
    pub addr32: bool,
}

/// Decodes the x87 instruction at `code` (prefixes, D8–DF, ModRM, SIB, displacement).
/// Reads only the bytes the instruction consists of, one at a time, so it never reads
/// past its end. None if it is not an x87 arithmetic/load/store instruction.
///
/// # Safety
/// `code` points to an instruction that was executed (readable code).
pub unsafe fn decode(code: *const u8) -> Option<Insn> {
    let mut i: usize = 0;
    let mut rex: u8 = 0;
    let mut addr32 = false;
    // Legacy prefixes, then REX (which must come last).
    loop {
        let b = *code.add(i);
        match b {
            0x66 | 0xf2 | 0xf3 | 0xf0 | 0x2e | 0x36 | 0x3e | 0x26 | 0x64 | 0x65 => {}
            0x67 => addr32 = true,
            0x40..=0x4f => {
                rex = b;
                i += 1;
                break;
            }
            _ => break,
        }
        i += 1;
        if i > 14 {
            return None;
        }
    }
    let op = *code.add(i);
    if !(0xd8..=0xdf).contains(&op) {
        return None;
    }
    i += 1;
    let modrm = *code.add(i);
    i += 1;
    let md = modrm >> 6;
    let rm = modrm & 7;
    if md == 3 {
        return Some(Insn {
            len: i as u64,
            mem: None,
            fld: false,
        });
    }
    let fld = (op == 0xd9 || op == 0xdd) && (modrm >> 3) & 7 == 0;
    let rex_b = (rex & 1) << 3;
    let rex_x = ((rex >> 1) & 1) << 3;
    let mut mem = Mem {
        base: None,
        index: None,
        scale: 1,
        disp: 0,
        rip_relative: false,
        addr32,
    };
    let mut disp_len = match md {
        1 => 1,
        2 => 4,
        _ => 0,
    };
    if rm == 4 {
        let sib = *code.add(i);
        i += 1;
        let base = sib & 7;
        let index = ((sib >> 3) & 7) | rex_x;
        mem.scale = 1 << (sib >> 6);
        if index != 4 {
            mem.index = Some(index);
        }
        if base == 5 && md == 0 {
            disp_len = 4;
        } else {
            mem.base = Some(base | rex_b);
        }
    } else if rm == 5 && md == 0 {
        mem.rip_relative = true;
        disp_len = 4;
    } else {
        mem.base = Some(rm | rex_b);
    }
    mem.disp = match disp_len {
        1 => *code.add(i) as i8 as i64,
        4 => i32::from_le_bytes([
            *code.add(i),
            *code.add(i + 1),
            *code.add(i + 2),
            *code.add(i + 3),
        ]) as i64,
        _ => 0,
    };
    i += disp_len;
    Some(Insn {
        len: i as u64,
        mem: Some(mem),
        fld,
    })
}

use core::sync::atomic::{AtomicBool, AtomicU32, Ordering::*};

/// 0 = no probe, 1 = probe running, 2 = probe trapped.
pub static PROBE: AtomicU32 = AtomicU32::new(0);
static PROBE_TOP: AtomicU32 = AtomicU32::new(0);
/// Result of the probe: a faulting `FLD m32/m64` has already pushed its value.
static FLD_COMPLETES: AtomicBool = AtomicBool::new(false);

pub fn fld_completes() -> bool {
    FLD_COMPLETES.load(Relaxed)
}

/// Called by the SIGFPE handler while [`probe`] runs: remember TOP, let the probe go on.
pub fn probe_trapped(sw: u16) {
    PROBE_TOP.store(((sw >> 11) & 7) as u32, Relaxed);
    PROBE.store(2, Release);
}

/// Finds out how this CPU reports a denormal `FLD`: with our SIGFPE handler installed,
/// save and reset the x87 state (FNSAVE), unmask DM, load the smallest float denormal,
/// and let the next x87 instruction take the fault. The handler records TOP (0 after
/// the reset; 7 if the value was pushed) and masks DM; FRSTOR puts everything back.
/// False if no fault came (the x87 is then left alone).
pub fn probe() -> bool {
    let mut save = [0u8; 108];
    let den: f32 = f32::from_bits(1);
    let cw: u16 = 0x037f & !crate::fpu::CW_DM;
    PROBE.store(1, Release);
    // SAFETY: FNSAVE/FRSTOR save and restore the whole x87 state around the probe;
    // the buffers live across the asm block.
    unsafe {
        core::arch::asm!(
            "fnsave [{save}]",
            "fldcw [{cw}]",
            "fld dword ptr [{den}]",
            "fld1",
            "frstor [{save}]",
            save = in(reg) save.as_mut_ptr(),
            cw = in(reg) &cw as *const u16,
            den = in(reg) &den as *const f32,
            options(nostack),
        );
    }
    let trapped = PROBE.swap(0, AcqRel) == 2;
    FLD_COMPLETES.store(trapped && PROBE_TOP.load(Relaxed) == 7, Relaxed);
    trapped
}

/// `gregs` index of an x86 register encoding.
pub const GREG_OF_ENC: [usize; 16] = [
    libc::REG_RAX as usize,
    libc::REG_RCX as usize,
    libc::REG_RDX as usize,
    libc::REG_RBX as usize,
    libc::REG_RSP as usize,
    libc::REG_RBP as usize,
    libc::REG_RSI as usize,
    libc::REG_RDI as usize,
    libc::REG_R8 as usize,
    libc::REG_R9 as usize,
    libc::REG_R10 as usize,
    libc::REG_R11 as usize,
    libc::REG_R12 as usize,
    libc::REG_R13 as usize,
    libc::REG_R14 as usize,
    libc::REG_R15 as usize,
];

/// How to replay I1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replay {
    /// Run I1 again as it is: it reads exactly what it read the first time.
    Exact,
    /// Set `gregs[reg] = value` for the replay (and put the old value back after).
    Adjust { reg: usize, value: u64 },
    /// No way found to make the replay read the same operand; it is replayed anyway (the
    /// report counts these).
    Unverified,
    /// The instruction has completed (a denormal `FLD` on CPUs where it does): no replay.
    Completed,
}

fn reg(gregs: &[i64; 23], enc: u8) -> u64 {
    GREG_OF_ENC
        .get(enc as usize)
        .and_then(|&g| gregs.get(g))
        .map_or(0, |&v| v as u64)
}

fn effective(m: &Mem, gregs: &[i64; 23], next_ip: u64) -> u64 {
    let mut ea = m.disp as u64;
    if m.rip_relative {
        ea = ea.wrapping_add(next_ip);
    }
    if let Some(b) = m.base {
        ea = ea.wrapping_add(reg(gregs, b));
    }
    if let Some(x) = m.index {
        ea = ea.wrapping_add(reg(gregs, x).wrapping_mul(m.scale as u64));
    }
    if m.addr32 {
        ea &= 0xffff_ffff;
    }
    ea
}

/// Decides how to replay the instruction `insn` at `fip` whose fault was reported at
/// `rip`, given FDP and the registers now.
pub fn plan(insn: Option<Insn>, fip: u64, rip: u64, fdp: u64, gregs: &[i64; 23]) -> Replay {
    let Some(insn) = insn else {
        return Replay::Unverified;
    };
    if insn.fld && fld_completes() {
        return Replay::Completed;
    }
    let next = fip.wrapping_add(insn.len);
    let Some(m) = insn.mem else {
        return Replay::Exact;
    };
    if next == rip || m.rip_relative || (m.base.is_none() && m.index.is_none()) {
        return Replay::Exact;
    }
    let mask = if m.addr32 { 0xffff_ffff } else { u64::MAX };
    let want = fdp & mask;
    if effective(&m, gregs, next) == want {
        return Replay::Exact;
    }
    // Solve for the base register, else for the index register, and check the result
    // (the same register may be both base and index).
    let mut candidates: [Option<(u8, u64)>; 2] = [None, None];
    if let Some(b) = m.base {
        let idx = m
            .index
            .map_or(0, |x| reg(gregs, x).wrapping_mul(m.scale as u64));
        candidates[0] = Some((b, want.wrapping_sub(idx).wrapping_sub(m.disp as u64)));
    }
    if let Some(x) = m.index {
        let base = m.base.map_or(0, |b| reg(gregs, b));
        let rest = want.wrapping_sub(base).wrapping_sub(m.disp as u64) & mask;
        if rest % m.scale as u64 == 0 {
            candidates[1] = Some((x, rest / m.scale as u64));
        }
    }
    for (enc, value) in candidates.into_iter().flatten() {
        let Some(&g) = GREG_OF_ENC.get(enc as usize) else {
            continue;
        };
        let mut trial = *gregs;
        if let Some(slot) = trial.get_mut(g) {
            *slot = value as i64;
        }
        if effective(&m, &trial, next) == want {
            return Replay::Adjust { reg: g, value };
        }
    }
    Replay::Unverified
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(bytes: &[u8]) -> Option<Insn> {
        let mut v = bytes.to_vec();
        v.resize(16, 0x90);
        // SAFETY: 16 readable bytes.
        unsafe { decode(v.as_ptr()) }
    }

    #[test]
    fn decodes_common_forms() {
        // faddp %st,%st(1): de c1
        assert_eq!(
            dec(&[0xde, 0xc1]),
            Some(Insn {
                len: 2,
                mem: None,
                fld: false
            })
        );
        // flds (%rax): d9 00; fldl 8(%rax): dd 40 08; fldt (%rax): db 28
        assert!(dec(&[0xd9, 0x00]).unwrap().fld);
        assert!(dec(&[0xdd, 0x40, 0x08]).unwrap().fld);
        assert!(!dec(&[0xdb, 0x28]).unwrap().fld);
        // fldt 0x2d3e(%rip): db 2d 3e 2d 00 00
        let i = dec(&[0xdb, 0x2d, 0x3e, 0x2d, 0, 0]).unwrap();
        assert_eq!(i.len, 6);
        assert!(i.mem.unwrap().rip_relative);
        assert_eq!(i.mem.unwrap().disp, 0x2d3e);
        // fadds (%rcx): d8 01
        let i = dec(&[0xd8, 0x01]).unwrap();
        assert_eq!(i.len, 2);
        assert_eq!(i.mem.unwrap().base, Some(1));
        // fldt -0x20(%rbp): db 6d e0
        let i = dec(&[0xdb, 0x6d, 0xe0]).unwrap();
        assert_eq!((i.len, i.mem.unwrap().disp), (3, -0x20));
        // fldt (%rax,%rdx,1) with REX.B/X: 42 db 2c 10 => base rax, index r10? (rex.x)
        let i = dec(&[0x42, 0xdb, 0x2c, 0x10]).unwrap();
        assert_eq!(i.len, 4);
        assert_eq!(i.mem.unwrap().base, Some(0));
        assert_eq!(i.mem.unwrap().index, Some(10));
        // fmuls 0x10(%rsp): d8 4c 24 10
        let i = dec(&[0xd8, 0x4c, 0x24, 0x10]).unwrap();
        assert_eq!(
            (i.len, i.mem.unwrap().base, i.mem.unwrap().index),
            (4, Some(4), None)
        );
        // fldl 0x8(,%rax,8): dd 04 c5 08 00 00 00
        let i = dec(&[0xdd, 0x04, 0xc5, 8, 0, 0, 0]).unwrap();
        assert_eq!(i.len, 7);
        assert_eq!((i.mem.unwrap().base, i.mem.unwrap().index), (None, Some(0)));
        assert_eq!(dec(&[0x0f, 0x58, 0xc1]), None);
    }

    #[test]
    fn plans_replays() {
        let mut g = [0i64; 23];
        let rcx = GREG_OF_ENC[1];
        g[rcx] = 0x1004;
        let fadds_rcx = dec(&[0xd8, 0x01]);
        // Adjacent: exact.
        assert_eq!(plan(fadds_rcx, 0x100, 0x102, 0x1000, &g), Replay::Exact);
        // rcx advanced by 4 in between: adjust it back for the replay.
        assert_eq!(
            plan(fadds_rcx, 0x100, 0x110, 0x1000, &g),
            Replay::Adjust {
                reg: rcx,
                value: 0x1000
            }
        );
        // Registers unchanged: exact.
        assert_eq!(plan(fadds_rcx, 0x100, 0x110, 0x1004, &g), Replay::Exact);
        // No memory operand: exact.
        assert_eq!(plan(dec(&[0xde, 0xc1]), 0x100, 0x120, 0, &g), Replay::Exact);
        // Index only, unreachable by an integral index.
        let by_index = dec(&[0xdd, 0x04, 0xc5, 8, 0, 0, 0]);
        assert_eq!(plan(by_index, 0x100, 0x120, 0x1003, &g), Replay::Unverified);
        assert_eq!(
            plan(by_index, 0x100, 0x120, 8 + 8 * 0x201, &g),
            Replay::Adjust {
                reg: GREG_OF_ENC[0],
                value: 0x201
            }
        );
        assert_eq!(plan(None, 0x100, 0x120, 0, &g), Replay::Unverified);
    }
}
