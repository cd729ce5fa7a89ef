//! Emulating the faulting SSE instruction in the SIGFPE handler, so that an event costs
//! one signal instead of two (no trap flag, no SIGTRAP).
//!
//! Only the common, easy case: a legacy-encoded (not VEX) SSE/SSE2 arithmetic
//! instruction between two XMM registers (`addps %xmm2,%xmm4`, `mulsd %xmm1,%xmm0`,
//! `cvtss2sd %xmm1,%xmm1`, ...): ModRM with `mod = 3`, so no memory operand and no
//! general register is involved, and the registers are in the saved FXSAVE area. The
//! handler runs the same operation on copies of the two registers with the program's
//! MXCSR (rounding, FTZ, DAZ) and every exception masked, writes the destination back
//! into the context, adds the exception flags it raised (DE excepted, as after a
//! step), and moves RIP past the instruction. The result is the one the instruction
//! computes with the exception masked: what it would have been without the profiler.
//!
//! Everything else is stepped as before (`handlers`): memory operands, VEX/EVEX (AVX
//! state lives beyond the FXSAVE area), other opcodes, x87, a program that unmasked
//! other exceptions itself (an emulated instruction must not hide its exception), and
//! `TAINTPROF_DIP_UNDERFLOW=1` (the step catches the underflow of the same
//! instruction).

use core::arch::asm;

use crate::fpu::{MX_DE, MX_FLAGS};

/// The instruction at the fault, if it can be emulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insn {
    pub len: u64,
    pub op: Op,
    pub dst: usize,
    pub src: usize,
}

/// Operation (opcode 0F xx) and form (prefix: none = packed single, 66 = packed
/// double, F3 = scalar single, F2 = scalar double).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    pub opcode: u8,
    pub prefix: u8,
}

const OPCODES: [u8; 8] = [0x51, 0x58, 0x59, 0x5a, 0x5c, 0x5d, 0x5e, 0x5f];

/// Decodes the instruction at `code` (at most 15 bytes, read one at a time).
///
/// # Safety
/// `code` points to the instruction that faulted (readable code).
pub unsafe fn decode(code: *const u8) -> Option<Insn> {
    let mut i = 0usize;
    let mut prefix = 0u8;
    while let p @ (0x66 | 0xf2 | 0xf3) = *code.add(i) {
        if prefix != 0 && prefix != p {
            return None; // conflicting mandatory prefixes: leave it to the step
        }
        prefix = p;
        i += 1;
        if i > 4 {
            return None;
        }
    }
    let mut rex = 0u8;
    if (0x40..=0x4f).contains(&*code.add(i)) {
        rex = *code.add(i);
        i += 1;
    }
    if *code.add(i) != 0x0f {
        return None;
    }
    let opcode = *code.add(i + 1);
    if !OPCODES.contains(&opcode) {
        return None;
    }
    let modrm = *code.add(i + 2);
    if modrm >> 6 != 3 {
        return None;
    }
    let dst = (((modrm >> 3) & 7) | ((rex & 4) << 1)) as usize;
    let src = ((modrm & 7) | ((rex & 1) << 3)) as usize;
    Some(Insn {
        len: (i + 3) as u64,
        op: Op { opcode, prefix },
        dst,
        src,
    })
}

macro_rules! run {
    ($insn:literal, $d:expr, $s:expr, $mx:expr) => {{
        let mut out: u32 = 0;
        let mut saved: u32 = 0;
        // SAFETY: loads MXCSR (a valid value: the program's control bits), computes on
        // the two 16-byte buffers, stores MXCSR and restores the handler's.
        unsafe {
            asm!(
                "stmxcsr [{saved}]",
                "ldmxcsr [{mx}]",
                "movups xmm1, [{d}]",
                "movups xmm0, [{s}]",
                concat!($insn, " xmm1, xmm0"),
                "movups [{d}], xmm1",
                "stmxcsr [{out}]",
                "ldmxcsr [{saved}]",
                saved = in(reg) &mut saved as *mut u32,
                mx = in(reg) &$mx as *const u32,
                d = in(reg) $d.as_mut_ptr(),
                s = in(reg) $s.as_ptr(),
                out = in(reg) &mut out as *mut u32,
                out("xmm0") _,
                out("xmm1") _,
                options(nostack),
            );
        }
        out
    }};
}

/// Runs `op` on `d` (destination, also the first source) and `s` with MXCSR `mx`;
/// returns MXCSR afterwards. None for an opcode/prefix pair we do not run.
pub fn execute(op: Op, d: &mut [u8; 16], s: &[u8; 16], mx: u32) -> Option<u32> {
    Some(match (op.opcode, op.prefix) {
        (0x51, 0x00) => run!("sqrtps", d, s, mx),
        (0x51, 0x66) => run!("sqrtpd", d, s, mx),
        (0x51, 0xf3) => run!("sqrtss", d, s, mx),
        (0x51, 0xf2) => run!("sqrtsd", d, s, mx),
        (0x58, 0x00) => run!("addps", d, s, mx),
        (0x58, 0x66) => run!("addpd", d, s, mx),
        (0x58, 0xf3) => run!("addss", d, s, mx),
        (0x58, 0xf2) => run!("addsd", d, s, mx),
        (0x59, 0x00) => run!("mulps", d, s, mx),
        (0x59, 0x66) => run!("mulpd", d, s, mx),
        (0x59, 0xf3) => run!("mulss", d, s, mx),
        (0x59, 0xf2) => run!("mulsd", d, s, mx),
        (0x5a, 0x00) => run!("cvtps2pd", d, s, mx),
        (0x5a, 0x66) => run!("cvtpd2ps", d, s, mx),
        (0x5a, 0xf3) => run!("cvtss2sd", d, s, mx),
        (0x5a, 0xf2) => run!("cvtsd2ss", d, s, mx),
        (0x5c, 0x00) => run!("subps", d, s, mx),
        (0x5c, 0x66) => run!("subpd", d, s, mx),
        (0x5c, 0xf3) => run!("subss", d, s, mx),
        (0x5c, 0xf2) => run!("subsd", d, s, mx),
        (0x5d, 0x00) => run!("minps", d, s, mx),
        (0x5d, 0x66) => run!("minpd", d, s, mx),
        (0x5d, 0xf3) => run!("minss", d, s, mx),
        (0x5d, 0xf2) => run!("minsd", d, s, mx),
        (0x5e, 0x00) => run!("divps", d, s, mx),
        (0x5e, 0x66) => run!("divpd", d, s, mx),
        (0x5e, 0xf3) => run!("divss", d, s, mx),
        (0x5e, 0xf2) => run!("divsd", d, s, mx),
        (0x5f, 0x00) => run!("maxps", d, s, mx),
        (0x5f, 0x66) => run!("maxpd", d, s, mx),
        (0x5f, 0xf3) => run!("maxss", d, s, mx),
        (0x5f, 0xf2) => run!("maxsd", d, s, mx),
        _ => return None,
    })
}

/// All six exception masks.
const ALL_MASKS: u32 = 0x1f80;

/// Emulates the instruction at RIP in the saved context if it is one we can; true if
/// done (the context then continues after it, with the exception still armed).
///
/// # Safety
/// `uc` is the SIGFPE handler's context with non-null `fpregs`; `mx` its MXCSR, whose
/// pending exception is our denormal one.
pub unsafe fn try_emulate(uc: *mut libc::ucontext_t, mx: u32) -> bool {
    // The program's own masks, ours set: anything it unmasked itself is left to the
    // real instruction (stepped).
    let ours = crate::fpu::armed_mx_masks();
    if (mx | ours) & ALL_MASKS != ALL_MASKS {
        return false;
    }
    let rip = (*uc).uc_mcontext.gregs[libc::REG_RIP as usize] as u64;
    if rip == 0 {
        return false;
    }
    let Some(insn) = decode(rip as *const u8) else {
        return false;
    };
    let fp = (*uc).uc_mcontext.fpregs;
    let xmm = &mut (*fp)._xmm;
    let (Some(d), Some(s)) = (xmm.get(insn.dst), xmm.get(insn.src)) else {
        return false;
    };
    let mut dv = [0u8; 16];
    let mut sv = [0u8; 16];
    for (k, w) in d.element.iter().enumerate() {
        dv[k * 4..k * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    for (k, w) in s.element.iter().enumerate() {
        sv[k * 4..k * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    // The program's control bits (rounding, FTZ, DAZ), every exception masked, no flags.
    let run_mx = (mx | ALL_MASKS) & !MX_FLAGS;
    let Some(after) = execute(insn.op, &mut dv, &sv, run_mx) else {
        return false;
    };
    let Some(d) = xmm.get_mut(insn.dst) else {
        return false;
    };
    for (k, w) in d.element.iter_mut().enumerate() {
        *w = u32::from_le_bytes([dv[k * 4], dv[k * 4 + 1], dv[k * 4 + 2], dv[k * 4 + 3]]);
    }
    // Sticky flags the instruction raised, as the program would see them; DE cleared
    // as after a step (a stale DE must never be taken for a new one).
    (*fp).mxcsr = (mx | (after & MX_FLAGS)) & !MX_DE;
    (*uc).uc_mcontext.gregs[libc::REG_RIP as usize] = (rip + insn.len) as i64;
    true
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
    fn decodes_register_forms_only() {
        // addps %xmm2,%xmm4: 0f 58 e2
        assert_eq!(
            dec(&[0x0f, 0x58, 0xe2]),
            Some(Insn {
                len: 3,
                op: Op {
                    opcode: 0x58,
                    prefix: 0
                },
                dst: 4,
                src: 2
            })
        );
        // mulsd %xmm9,%xmm12: f2 45 0f 59 e1
        let i = dec(&[0xf2, 0x45, 0x0f, 0x59, 0xe1]).unwrap();
        assert_eq!((i.len, i.dst, i.src, i.op.prefix), (5, 12, 9, 0xf2));
        // cvtss2sd %xmm1,%xmm1: f3 0f 5a c9
        let i = dec(&[0xf3, 0x0f, 0x5a, 0xc9]).unwrap();
        assert_eq!((i.len, i.dst, i.src), (4, 1, 1));
        // addps (%rax),%xmm0: memory operand, stepped instead.
        assert_eq!(dec(&[0x0f, 0x58, 0x00]), None);
        // vaddps: VEX, stepped.
        assert_eq!(dec(&[0xc5, 0xf8, 0x58, 0xc1]), None);
        // ucomiss: sets flags, not emulated.
        assert_eq!(dec(&[0x0f, 0x2e, 0xc1]), None);
    }

    #[test]
    fn executes_with_the_programs_rounding_and_reports_flags() {
        let den = f32::from_bits(1);
        let mut d = [0u8; 16];
        let mut s = [0u8; 16];
        for k in 0..4 {
            d[k * 4..k * 4 + 4].copy_from_slice(&1.5f32.to_le_bytes());
            s[k * 4..k * 4 + 4].copy_from_slice(&den.to_le_bytes());
        }
        let op = Op {
            opcode: 0x58,
            prefix: 0,
        };
        let after = execute(op, &mut d, &s, 0x1f80).unwrap();
        assert_eq!(after & MX_DE, MX_DE, "the denormal operand raised DE");
        assert_ne!(after & 0x20, 0, "and PE: 1.5 + tiny is inexact");
        assert_eq!(f32::from_le_bytes([d[0], d[1], d[2], d[3]]), 1.5);
        // Round up (RC = 10): 1.5 + tiny becomes the next float above 1.5.
        let mut d2 = [0u8; 16];
        d2[..4].copy_from_slice(&1.5f32.to_le_bytes());
        execute(op, &mut d2, &s, 0x1f80 | 0x4000).unwrap();
        assert!(f32::from_le_bytes([d2[0], d2[1], d2[2], d2[3]]) > 1.5);
        // DAZ: the denormal reads as zero, no DE.
        let mut d3 = [0u8; 16];
        let after = execute(op, &mut d3, &s, 0x1f80 | 0x40).unwrap();
        assert_eq!(after & MX_DE, 0);
        assert_eq!(f32::from_le_bytes([d3[0], d3[1], d3[2], d3[3]]), 0.0);
        assert_eq!(
            execute(
                Op {
                    opcode: 0x2e,
                    prefix: 0
                },
                &mut d,
                &s,
                0x1f80
            ),
            None
        );
    }
}
