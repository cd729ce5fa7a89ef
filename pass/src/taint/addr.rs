//! Shadow addresses by strength reduction.
//!
//! `shadow(a) = ((a & SHADOW_MASK) << 1) + SHADOW_BASE` costs three instructions per
//! access (`lea`/`and`/address mode), and neither LLVM's loop strength reduction nor
//! its address-mode matching can see through the `and`. Inside one object the mapping
//! is linear, `shadow(p + k) == shadow(p) + 2k` (ARCHITECTURE.md, "Invariants"), so the
//! pass mirrors the pointer arithmetic that leads to each access instead:
//!
//! * a GEP `q = gep p, ...` (offset `C + Σ s_i·x_i` bytes, from LLVM's own offset
//!   arithmetic) gets `shadow(q) = gep i8 shadow(p), 2C` and `gep [2s_i x i8], ·, x_i`,
//!   right after `q`; in a loop that is an induction expression LSR can reduce and
//!   `x86` can fold into the address (`(%base,%j,8)` for a `float` index);
//! * a pointer PHI gets a PHI of the incoming shadow addresses (pointer induction
//!   variables, as C++ iterator loops have), a pointer `select` a `select`;
//! * any other pointer (argument, loaded pointer, call result, `inttoptr`, ...) is a
//!   *root*: the formula, once, right after its definition (arguments: in the entry
//!   block). Constants and the few values after which nothing may be inserted
//!   (allocas — their own visit writes their shadow —, `invoke` results, `musttail`
//!   calls) get the formula at each use, which the final hoisting moves out of loops.
//!
//! Only pointers through which memory is accessed (loads, stores, atomics, masked
//! loads/stores, memory intrinsics) and what they are derived from are planned;
//! everything else keeps computing the formula where it needs it.
//!
//! This relies on a pointer and the pointers derived from it by GEPs lying in the same
//! 16 TiB window (`SHADOW_MASK` + 1), which holds for every object; only pointer
//! arithmetic across objects mapped 16 TiB apart would differ.

use super::FnInstr;
use crate::callkind::{call_kind, CallKind};
use crate::intrinsics::IntrKind;
use crate::ir::{self, B, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::{HashMap, HashSet};

/// Most variable indices of a GEP that is mirrored (more: treated as a root).
const MAX_VARS: usize = 4;

/// How the shadow address of a pointer value is obtained.
enum Kind {
    /// `base + konst + Σ scale·var` bytes.
    Gep {
        base: V,
        konst: i64,
        vars: Vec<(V, i64)>,
    },
    /// Mirrored PHI (incoming values from reachable predecessors).
    Phi,
    /// Mirrored `select`.
    Select,
    /// The formula once, after the definition (or in the entry block for arguments).
    Root,
    /// The formula at each use (constants, allocas, invoke results, ...).
    AtUse,
}

impl FnInstr<'_> {
    /// Scalar pointers through which instruction `i` accesses memory.
    fn access_pointers(&self, i: V) -> Vec<V> {
        let ops: Vec<u32> = match ir::opcode(i) {
            Op::LLVMLoad | Op::LLVMAtomicRMW | Op::LLVMAtomicCmpXchg => vec![0],
            Op::LLVMStore => vec![1],
            Op::LLVMCall => match call_kind(i, self.list) {
                CallKind::Intrinsic(IntrKind::Copy, _) => vec![0, 1],
                CallKind::Intrinsic(IntrKind::Set | IntrKind::MaskedLoad, _) => vec![0],
                CallKind::Intrinsic(IntrKind::MaskedStore, _) => vec![1],
                _ => vec![],
            },
            _ => vec![],
        };
        ops.into_iter()
            .map(|k| ir::operand(i, k))
            .filter(|p| ir::type_of(*p) == self.ir.ptr)
            .collect()
    }

    fn addr_kind(&self, v: V) -> Kind {
        if ir::is_argument(v) {
            return Kind::Root;
        }
        if !ir::is_instruction(v) {
            return Kind::AtUse;
        }
        match ir::opcode(v) {
            Op::LLVMGetElementPtr => {
                let mut vars = [std::ptr::null_mut(); MAX_VARS];
                let mut scales = [0i64; MAX_VARS];
                let mut konst = 0i64;
                // SAFETY: v is a live GEP instruction; the arrays hold MAX_VARS entries.
                let n = unsafe {
                    crate::ffi::tp_gep_decompose(
                        v,
                        vars.as_mut_ptr(),
                        scales.as_mut_ptr(),
                        MAX_VARS as u32,
                        &mut konst,
                    )
                };
                if n < 0 {
                    return Kind::Root;
                }
                let vars = (0..n as usize).map(|k| (vars[k], scales[k])).collect();
                Kind::Gep {
                    base: ir::operand(v, 0),
                    konst,
                    vars,
                }
            }
            Op::LLVMPHI => {
                // Mirrored only if every incoming value's shadow address can be had at
                // the end of its predecessor: not if it is that block's own `invoke`
                // (or `callbr`), whose result exists only on the outgoing edge.
                let ok = self
                    .phi_incoming(v)
                    .iter()
                    .all(|&(x, b)| x != ir::terminator(b));
                if ok {
                    Kind::Phi
                } else {
                    Kind::AtUse
                }
            }
            Op::LLVMSelect => Kind::Select,
            Op::LLVMAlloca | Op::LLVMInvoke | Op::LLVMLandingPad | Op::LLVMCallBr => Kind::AtUse,
            // SAFETY: `v` is a live call (this arm); the shim checks that it is a `CallInst`.
            Op::LLVMCall if unsafe { crate::ffi::tp_call_is_musttail(v) } != 0 => Kind::AtUse,
            _ => Kind::Root,
        }
    }

    /// Incoming `(value, block)` pairs of PHI `phi` from reachable predecessors.
    fn phi_incoming(&self, phi: V) -> Vec<(V, B)> {
        // SAFETY: callers pass a live PHI of the function (`kind` of a PHI; taint module header).
        let n = unsafe { LLVMCountIncoming(phi) };
        (0..n)
            // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
            .map(|k| unsafe { (LLVMGetIncomingValue(phi, k), LLVMGetIncomingBlock(phi, k)) })
            .filter(|(_, b)| self.reachable.contains(b))
            .collect()
    }

    /// Plan and emit the shadow addresses of the pointers memory is accessed through
    /// (see the module doc). `work` is the function's original instructions by block in
    /// reverse post-order. Runs after the prologue, before any instruction is visited.
    pub(crate) fn plan_shadow_ptrs(&mut self, work: &[Vec<V>]) {
        let ir = self.ir;
        // Which pointer values need a planned shadow address.
        let mut need: HashSet<V> = HashSet::new();
        let mut kinds: HashMap<V, Kind> = HashMap::new();
        let mut stack: Vec<V> = work
            .iter()
            .flatten()
            .flat_map(|&i| self.access_pointers(i))
            .collect();
        while let Some(v) = stack.pop() {
            if need.contains(&v) || kinds.contains_key(&v) {
                continue;
            }
            let k = self.addr_kind(v);
            match &k {
                Kind::AtUse => {}
                Kind::Gep { base, .. } => {
                    stack.push(*base);
                    need.insert(v);
                }
                Kind::Phi => {
                    stack.extend(self.phi_incoming(v).iter().map(|x| x.0));
                    need.insert(v);
                }
                Kind::Select => {
                    stack.push(ir::operand(v, 1));
                    stack.push(ir::operand(v, 2));
                    need.insert(v);
                }
                Kind::Root => {
                    need.insert(v);
                }
            }
            kinds.insert(v, k);
        }
        if need.is_empty() {
            return;
        }
        // Arguments: in the entry block, after the allocas.
        let entry = ir::entry_block(self.f);
        // SAFETY: `entry` is the entry block of the definition `self.f` (taint module header).
        let mut ip = unsafe { LLVMGetFirstInstruction(entry) };
        while !ip.is_null() && ir::opcode(ip) == Op::LLVMAlloca {
            ip = ir::next_instruction(ip);
        }
        for a in ir::params(self.f) {
            if need.contains(&a) {
                ir.before(ip);
                let s = self.shadow_formula(a);
                self.sptrs.insert(a, s);
            }
        }
        // Instructions in dominance order (a PHI's back-edge values come later: their
        // PHIs are filled at the end).
        let mut phis: Vec<(V, V)> = Vec::new();
        for &i in work.iter().flatten() {
            if !need.contains(&i) {
                continue;
            }
            let s = match &kinds[&i] {
                Kind::Root => {
                    ir.after(i);
                    self.shadow_formula(i)
                }
                Kind::Gep { base, konst, vars } => {
                    ir.after(i);
                    let mut s = self.addr_at(*base);
                    if *konst != 0 {
                        s = self.gep_bytes(s, ir.c64((2 * *konst) as u64));
                    }
                    for &(x, scale) in vars {
                        let t = ir.array_ty(ir.i8, 2 * scale as u64);
                        s = self.gep_scaled(t, s, x);
                    }
                    s
                }
                Kind::Select => {
                    ir.after(i);
                    let a = self.addr_at(ir::operand(i, 1));
                    let b = self.addr_at(ir::operand(i, 2));
                    ir.select(ir::operand(i, 0), a, b)
                }
                Kind::Phi => {
                    ir.before_with_records(ir::first_non_phi(ir::block_of(i)));
                    let p = ir.phi(ir.ptr);
                    phis.push((i, p));
                    p
                }
                Kind::AtUse => unreachable!("not planned"),
            };
            self.sptrs.insert(i, s);
        }
        for (phi, sp) in phis {
            // SAFETY: `phi` is an original PHI of the function, planned above; still live.
            let n = unsafe { LLVMCountIncoming(phi) };
            let mut done: HashMap<B, V> = HashMap::new();
            for k in 0..n {
                // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
                let (v, b) =
                    unsafe { (LLVMGetIncomingValue(phi, k), LLVMGetIncomingBlock(phi, k)) };
                let s = if let Some(&s) = done.get(&b) {
                    s
                } else if !self.reachable.contains(&b) {
                    ir.poison(ir.ptr)
                } else {
                    ir.at_end(b);
                    self.addr_at(v)
                };
                done.insert(b, s);
                ir.add_incoming(sp, s, b);
            }
        }
    }

    /// The planned shadow address of `v`, or the formula at the builder position.
    fn addr_at(&self, v: V) -> V {
        match self.sptrs.get(&v) {
            Some(&s) => s,
            None => self.shadow_formula(v),
        }
    }

    /// `gep i8, p, off` without `inbounds` (shadow addresses are not in an object LLVM
    /// knows of).
    fn gep_bytes(&self, p: V, off: V) -> V {
        self.gep_scaled(self.ir.i8, p, off)
    }

    fn gep_scaled(&self, t: ir::T, p: V, idx: V) -> V {
        let mut ix = [idx];
        // SAFETY: `self.ir.b` is positioned in a live block; `t` is a live type, `p` and `idx`
        // live values, `ix` a one-element array LLVM copies; the name is NUL-terminated.
        unsafe { LLVMBuildGEP2(self.ir.b, t, p, ix.as_mut_ptr(), 1, c"".as_ptr()) }
    }
}
