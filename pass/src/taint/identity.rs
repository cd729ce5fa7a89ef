//! Iteration identities: the second label of a scalar, `R`.
//!
//! Rule 1 gives a loop header's PHIs the labels of the decisions that kept the loop
//! iterating (the back edge's label): the index `i` of `for (i < n)` carries `n`. That
//! is right where `i` is a *magnitude* (a triangular `for (j < i)`, a count, a sum) and
//! wrong where it is an *identity*: a random seed made from `i`, the element `list[i]`
//! of a list, a material `seed % NMAT`. Every scalar therefore has two labels:
//!
//! ```text
//!   S  = the shadow (shadows[v]): everything, as before
//!   R  ⊆ S: the labels that do not come from a back edge of a loop the value is
//!        still inside of (Z = S \ R, "which iteration this is")
//! ```
//!
//! * a header PHI's back-edge incoming takes no edge label in `R`;
//! * magnitude operations (arithmetic, casts, compares, GEPs) take the union of their
//!   operands' `R`, as `S` takes theirs;
//! * *identity operations* name their operand instead of measuring it, and use only
//!   `R` for `S` as well: remainders, `xor`, masks of low bits ([`is_identity_op`]), and
//!   the address of a load (its pointer label is `R` of the address, `memory.rs`);
//! * a value used outside a loop it was computed in has `R = S` there: the back edges
//!   are behind it, and what they gave (the loop's exit tests) is a magnitude of the
//!   loop's data (the result of a search);
//! * memory has one label: a store writes `S`;
//! * calls pass `Z` of each argument in `__tp_argz_tls` and of the result in
//!   `__tp_retz_tls` (0 means `R = S`, which is what uninstrumented code leaves).
//!
//! `R` is only materialised where it differs from `S` (`rshadows` holds those values);
//! everywhere else `R` is `S` and costs nothing. Vectors and aggregates have `R = S`.
//! See `docs/internal/control-flow.md`, "Loop indices used as identities".

use super::FnInstr;
use crate::ir::{self, B, V};
use crate::prepare::inst_error;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;

/// Whether instruction `i` names its operands rather than measuring them: `x % m`,
/// `x ^ y`, `x & (2^k - 1)`. Its result's labels are its operands' `R`. The masks
/// `0xffff` and `0xffffffff` are left out: at -O2 they are how a 16- or 32-bit value is
/// zero-extended (an `int` loop index widened to 64 bits), a magnitude.
pub(crate) fn is_identity_op(i: V) -> bool {
    match ir::opcode(i) {
        Op::LLVMURem | Op::LLVMSRem | Op::LLVMXor => true,
        Op::LLVMAnd => [0, 1].iter().any(|&k| {
            ir::const_int_value(ir::operand(i, k)).is_some_and(|c| {
                c != 0
                    && c != u64::MAX
                    && c != 0xffff
                    && c != 0xffff_ffff
                    && c & c.wrapping_add(1) == 0
            })
        }),
        _ => false,
    }
}

/// Whether `v`, after casts, is the result of an identity operation (a store of such a
/// value is not an update that counts how often it ran: `seed = (a * seed + c) % m`).
pub(crate) fn is_identity_value(mut v: V) -> bool {
    for _ in 0..8 {
        if !ir::is_instruction(v) {
            return false;
        }
        match ir::opcode(v) {
            Op::LLVMTrunc | Op::LLVMZExt | Op::LLVMSExt | Op::LLVMBitCast => v = ir::operand(v, 0),
            _ => return is_identity_op(v),
        }
    }
    false
}

/// Whether values of type `t` have an `R` of their own (scalars and pointers).
pub(crate) fn has_r(t: inkwell::llvm_sys::prelude::LLVMTypeRef) -> bool {
    use inkwell::llvm_sys::LLVMTypeKind as K;
    !ir::is_vector(t)
        && !matches!(
            ir::kind(t),
            K::LLVMVoidTypeKind | K::LLVMStructTypeKind | K::LLVMArrayTypeKind
        )
}

impl FnInstr<'_> {
    /// The innermost loop (forest index) of every block index.
    pub(crate) fn innermost_loops(&self) -> Vec<Option<usize>> {
        let f = &self.p.an.forest;
        let mut of: Vec<Option<usize>> = vec![None; self.p.an.blocks.len()];
        for (l, lp) in f.loops.iter().enumerate() {
            for &b in &lp.blocks {
                if of[b].is_none_or(|o| f.loops[o].depth < lp.depth) {
                    of[b] = Some(l);
                }
            }
        }
        of
    }

    /// The loops (forest indices, innermost first) that contain the definition of `v`
    /// but not block `at`.
    fn exited_loops(&self, v: V, at: B) -> Vec<usize> {
        if !ir::is_instruction(v) {
            return Vec::new();
        }
        let an = &self.p.an;
        let (Some(&d), Some(&u)) = (an.index.get(&ir::block_of(v)), an.index.get(&at)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut l = self.loop_of.get(d).copied().flatten();
        while let Some(k) = l {
            if an.forest.loops[k].contains(u) {
                break;
            }
            out.push(k);
            l = an.forest.loops[k].parent;
        }
        out
    }

    /// Load (at the builder's position) the `R` of loop `l`'s exit tests since it was
    /// last entered, from a slot its exiting blocks update (promoted to registers at the
    /// end).
    fn rexit_load(&self, l: usize) -> V {
        let slot = self.rexit_slot(l);
        self.ir.load(self.ir.i16, slot, 2)
    }

    /// The `R` exit-test slot of loop `l`, created on first use: zero at the function's
    /// entry and whenever the loop is entered, ORed with the `R` of the exit test in
    /// every exiting block. Built with a builder of its own, so the caller's position
    /// stays where it is.
    fn rexit_slot(&self, l: usize) -> V {
        if let Some(&s) = self.rexit.borrow().get(&l) {
            return s;
        }
        let ir = self.ir;
        let an = &self.p.an;
        let lp = &an.forest.loops[l];
        let slot;
        // SAFETY: a builder of our own in the module's context, disposed of at the end;
        // `entry` is the entry block of the definition `self.f` (so it has a first
        // instruction) and each entering block a live block with a terminator.
        unsafe {
            let b = LLVMCreateBuilderInContext(ir.ctx);
            let entry = ir::entry_block(self.f);
            LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
            slot = LLVMBuildAlloca(b, ir.i16, c"".as_ptr());
            let zero = ir.c16(0);
            LLVMBuildStore(b, zero, slot);
            for &e in &lp.entering {
                let t = ir::terminator(an.blocks[e]);
                LLVMPositionBuilderBefore(b, t);
                LLVMBuildStore(b, zero, slot);
            }
            LLVMDisposeBuilder(b);
        }
        self.rexit.borrow_mut().insert(l, slot);
        for &x in &lp.exiting {
            if !self.rexit_update(slot, x) {
                self.rexit_pending.borrow_mut().push((slot, x));
            }
        }
        slot
    }

    /// In exiting block `x`: `slot |= R(exit test)`. False if the test has no label
    /// yet (not visited): then it is done after the visit.
    fn rexit_update(&self, slot: V, x: usize) -> bool {
        let ir = self.ir;
        let blk = self.p.an.blocks[x];
        let t = ir::terminator(blk);
        let Some(c) = ir::terminator_condition(t) else {
            return true;
        };
        // Not visited yet: done after the visit. Checked here rather than by the
        // `Err` of `label`, whose message prints the instruction (LLVM's slot tracker
        // walks the whole function and module for that: quadratic on large files).
        if ir::is_instruction(c)
            && !self.shadows.contains_key(&c)
            && self.reachable.contains(&ir::block_of(c))
        {
            return false;
        }
        // The exit test's `R` where it is computed (inside the loop); a test that
        // itself comes from an inner loop counts with its shadow.
        let rc = match self.exited_loops(c, blk).is_empty() {
            true => self.rlabel_inside(c),
            false => self.label(c),
        };
        let Ok(rc) = rc else { return false };
        if ir::is_zero_const(rc) {
            return true;
        }
        // SAFETY: a builder of our own in the module's context, disposed of at the end; `t` is
        // the live terminator of the exiting block, `slot` our `i16` alloca and `rc` a
        // live `i16` label.
        unsafe {
            let b = LLVMCreateBuilderInContext(ir.ctx);
            LLVMPositionBuilderBefore(b, t);
            let old = LLVMBuildLoad2(b, ir.i16, slot, c"".as_ptr());
            let new = LLVMBuildOr(b, old, rc, c"".as_ptr());
            LLVMBuildStore(b, new, slot);
            LLVMDisposeBuilder(b);
        }
        true
    }

    /// After the visit: the exit-test updates that had to wait for their labels.
    pub(crate) fn flush_rexit_pending(&self) -> Result<(), String> {
        let pending = std::mem::take(&mut *self.rexit_pending.borrow_mut());
        for (slot, x) in pending {
            if !self.rexit_update(slot, x) {
                return Err(inst_error(
                    self.f,
                    ir::terminator(self.p.an.blocks[x]),
                    "internal error: loop exit test without a label",
                    "Please report this",
                ));
            }
        }
        Ok(())
    }

    /// The exit-test slots created, to be promoted with the other label slots.
    pub(crate) fn rexit_slots(&self) -> Vec<V> {
        self.rexit.borrow().values().copied().collect()
    }

    /// `R` of operand `v` as used in block `at` (`i16`), emitted at the builder's
    /// position. A value used outside loops it was computed in adds the `R` of their
    /// exit tests (what the back edges gave it, seen from outside, is a magnitude of
    /// the loop's data: the result of a search); where its `R` is its shadow, it stays
    /// the shadow.
    pub(crate) fn rlabel_at(&self, v: V, at: B) -> Result<V, String> {
        if self.cf.is_none() || !has_r(ir::type_of(v)) {
            return self.label(v);
        }
        let r = self.rlabel_inside(v)?;
        let exited = self.exited_loops(v, at);
        if exited.is_empty() {
            return Ok(r);
        }
        let s = self.label(v)?;
        if r == s {
            return Ok(s);
        }
        let mut r = r;
        for l in exited {
            // What the back edges gave, seen from outside: a control label.
            let e = self.rexit_load(l);
            let e = self.to_control(e);
            r = self.ir.or(r, e);
        }
        Ok(r)
    }

    /// `R` of `v` where it is defined (no loop exits crossed).
    fn rlabel_inside(&self, v: V) -> Result<V, String> {
        if let Some(&r) = self.rshadows.get(&v) {
            return Ok(r);
        }
        if ir::is_argument(v) {
            let k = ir::params(self.f).iter().position(|p| *p == v);
            if let Some(&Some(r)) = k.and_then(|k| self.arg_r.get(k)) {
                return Ok(r);
            }
        }
        self.label(v)
    }

    /// Whether `R` of `v` where it is defined may differ from its shadow (emits
    /// nothing).
    pub(crate) fn rlabel_differs(&self, v: V) -> Result<bool, String> {
        if self.cf.is_none() || !has_r(ir::type_of(v)) {
            return Ok(false);
        }
        Ok(self.rlabel_inside(v)? != self.label(v)?)
    }

    /// `R` of operand `k` of instruction `i`.
    pub(crate) fn rlabel_of(&self, i: V, k: u32) -> Result<V, String> {
        self.rlabel_at(ir::operand(i, k), ir::block_of(i))
    }

    /// Whether some operand of `i` (among `ops`) has an `R` of its own (emits nothing:
    /// used outside its loop, an operand's `R` differs exactly when it did inside).
    fn operands_differ(&self, i: V, ops: &[u32]) -> Result<bool, String> {
        for &k in ops {
            if self.rlabel_differs(ir::operand(i, k))? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// After the visit of `i` set its `S` (builder still right after `i`): record its
    /// `R` where it differs. Calls, loads and PHIs are handled where they are visited.
    pub(crate) fn visit_r(&mut self, i: V) -> Result<(), String> {
        if self.cf.is_none() || !has_r(ir::type_of(i)) || is_identity_op(i) {
            return Ok(());
        }
        let op = ir::opcode(i);
        let ops: Vec<u32> = match op {
            Op::LLVMSelect => vec![0, 1, 2],
            Op::LLVMFNeg | Op::LLVMFreeze => vec![0],
            _ if ir::is_cast_op(op) => vec![0],
            _ if ir::is_binary_op(op) => vec![0, 1],
            Op::LLVMGetElementPtr => (0..ir::num_operands(i)).collect(),
            _ => return Ok(()),
        };
        if ops.iter().any(|&k| !has_r(ir::type_of(ir::operand(i, k))))
            || !self.operands_differ(i, &ops)?
        {
            return Ok(());
        }
        let ir = self.ir;
        let r = if op == Op::LLVMSelect {
            let c = ir::operand(i, 0);
            let ra = self.rlabel_of(i, 1)?;
            let rb = self.rlabel_of(i, 2)?;
            let picked = ir.select(c, ra, rb);
            if ir::is_pointer_like(ir::type_of(i)) {
                picked
            } else {
                ir.or(self.rlabel_of(i, 0)?, picked)
            }
        } else {
            let mut ls = Vec::with_capacity(ops.len());
            for &k in &ops {
                ls.push(self.rlabel_of(i, k)?);
            }
            self.union(&ls, ir.i16)
        };
        self.rshadows.insert(i, r);
        Ok(())
    }

    /// `S` of an identity operation: the union of its operands' `R`.
    pub(crate) fn identity_shadow(&self, i: V) -> Result<V, String> {
        let a = self.rlabel_of(i, 0)?;
        let b = self.rlabel_of(i, 1)?;
        Ok(self.union(&[a, b], self.ir.i16))
    }

    /// A placeholder `R` PHI for the scalar PHI `i` (filled by [`Self::fill_rphis`]),
    /// inserted where the builder is (with the shadow PHIs).
    pub(crate) fn visit_phi_r(&mut self, i: V) {
        if self.cf.is_none() || !has_r(ir::type_of(i)) {
            return;
        }
        let rp = self.ir.phi(self.ir.i16);
        self.rphis.push((i, rp));
        self.rshadows.insert(i, rp);
    }

    /// `R` of the result of call `i` from the `Z` its callee returned (builder right
    /// after the call, before anything else can call out).
    pub(crate) fn call_result_r(&mut self, i: V) {
        if self.cf.is_none() || !has_r(ir::type_of(i)) {
            return;
        }
        let ir = self.ir;
        let z = ir.load(ir.i16, self.rt.retz_tls, 2);
        let s = match self.label(i) {
            Ok(s) => s,
            Err(_) => return,
        };
        let r = ir.and(s, ir.not(z));
        self.rshadows.insert(i, r);
    }

    /// `R` of the result of a call to a listed pure function (`sqrt`, `pow`): the union
    /// of its arguments' `R`, as its shadow is the union of their labels.
    pub(crate) fn pure_call_r(&mut self, i: V, labels: &[V]) -> Result<(), String> {
        if self.cf.is_none() || !has_r(ir::type_of(i)) {
            return Ok(());
        }
        let mut rs = Vec::with_capacity(labels.len());
        for k in 0..labels.len() {
            rs.push(self.rlabel_of(i, k as u32)?);
        }
        if rs.as_slice() != labels {
            let r = self.union(&rs, self.ir.i16);
            self.rshadows.insert(i, r);
        }
        Ok(())
    }

    /// `Z` of operand `v` used in block `at`, as `S ^ R`; the constant 0 where `R = S`.
    /// The callee takes `R = S & !Z`, which is `S & R` whether `Z` is `S ^ R` or
    /// `S & !R` (bit by bit: where `S` is 0 both give 0, where it is 1 both give `R`),
    /// so one operation does.
    pub(crate) fn zlabel_at(&self, v: V, at: B) -> Result<V, String> {
        let s = self.label(v)?;
        let r = self.rlabel_at(v, at)?;
        if r == s {
            return Ok(self.ir.c16(0));
        }
        Ok(self.ir.xor(s, r))
    }

    /// Fill the `R` PHIs. A back edge into a loop header adds nothing (that is what `R`
    /// leaves out); other edges add the edge label of Rule 1 with the deciding
    /// condition's `R`. PHIs whose `R` turns out to be their `S` are replaced by it.
    pub(crate) fn fill_rphis(&mut self) -> Result<(), String> {
        let ir = self.ir;
        let rphis = std::mem::take(&mut self.rphis);
        let mut kept = Vec::new();
        for &(phi, rp) in &rphis {
            // SAFETY: `phi` is an original PHI recorded by `visit_phi_r`, still live.
            let n = unsafe { LLVMCountIncoming(phi) };
            let to = ir::block_of(phi);
            let sp = self.shadows[&phi];
            let selects = super::phi_selects(phi);
            let pointer = ir::is_pointer_like(ir::type_of(phi));
            let single_entry = {
                let mut entries: Vec<B> = (0..n)
                    // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
                    .map(|k| unsafe { LLVMGetIncomingBlock(phi, k) })
                    .filter(|&b| !self.is_back_edge(b, to))
                    .collect();
                entries.dedup();
                entries.len() == 1
            };
            let mut incoming: Vec<(V, B)> = Vec::new();
            let mut same = ir::type_of(sp) == ir.i16;
            for k in 0..n {
                // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
                let v = unsafe { LLVMGetIncomingValue(phi, k) };
                // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
                let from = unsafe { LLVMGetIncomingBlock(phi, k) };
                if let Some(&(r, _)) = incoming.iter().find(|x| x.1 == from) {
                    incoming.push((r, from));
                    continue;
                }
                ir.at_end(from);
                let mut r = self.rlabel_at(v, to)?;
                if r != self.label(v)? {
                    same = false;
                }
                if !pointer && selects {
                    let drops = self.is_back_edge(from, to)
                        || (single_entry && self.heads_loop_around(to, to));
                    if drops {
                        // A back edge gives `R` nothing; nor does the one way into a
                        // loop (its guard, `if (n > 0)` before a rotated loop, is the
                        // loop's first exit test: -O0 makes it in the header).
                        if self
                            .edge_label(from, to, ir.i16)?
                            .is_some_and(|e| !ir::is_zero_const(e))
                        {
                            same = false;
                        }
                    } else if let Some(e) = self.edge_label_r(from, to)? {
                        if Some(e) != self.edge_label(from, to, ir.i16)? {
                            same = false;
                        }
                        ir.at_end(from);
                        r = ir.or(r, e);
                    }
                }
                incoming.push((r, from));
            }
            if same {
                self.redirect_labels(|v| (v == rp).then_some(sp));
                // SAFETY: `rp` and `sp` are live `i16` values; every map entry naming `rp` was
                // redirected to `sp` just above.
                unsafe { LLVMReplaceAllUsesWith(rp, sp) };
                // SAFETY: `rp` has no uses left (replaced above) and no map names it any more.
                unsafe { LLVMInstructionEraseFromParent(rp) };
                continue;
            }
            for (r, from) in incoming {
                ir.add_incoming(rp, r, from);
            }
            kept.push((phi, rp));
        }
        self.remove_zero_phis(&kept);
        Ok(())
    }

    /// Whether `from -> to` is a back edge of the natural loop headed by `to`.
    fn is_back_edge(&self, from: B, to: B) -> bool {
        let an = &self.p.an;
        let (Some(&q), Some(&j)) = (an.index.get(&from), an.index.get(&to)) else {
            return false;
        };
        an.dom.dominates(j, q) && an.forest.loops.iter().any(|l| l.header == j)
    }
}

impl FnInstr<'_> {
    /// The pointer label of a load through `p` in block `at`: `R` of the address, and
    /// nothing for indices that are an induction variable of a loop around the load (or
    /// a constant offset or multiple of one). Such an index only says which iteration
    /// reads: `list[i]`, `a[2 * i + 1]`. Structural, so that -O2's unrolled loops (a
    /// remainder loop whose index starts where the unrolled part stopped, a magnitude
    /// of the trip count) and -O0's single loop agree.
    pub(crate) fn address_label(&self, p: V, at: B) -> Result<V, String> {
        if self.cf.is_none() || !ir::is_instruction(p) || ir::opcode(p) != Op::LLVMGetElementPtr {
            return self.rlabel_at(p, at);
        }
        let mut ls = vec![self.address_label(ir::operand(p, 0), at)?];
        for k in 1..ir::num_operands(p) {
            let idx = ir::operand(p, k);
            if !self.is_induction_offset(idx, at) {
                ls.push(self.rlabel_at(idx, at)?);
            }
        }
        Ok(self.union(&ls, self.ir.i16))
    }

    /// Whether `v` is `c1 * iv + c0` (through casts, constant adds, multiplies, shifts
    /// and disjoint ors) for an induction variable `iv` of a loop that contains `at`.
    fn is_induction_offset(&self, v: V, at: B) -> bool {
        let Some(phi) = strip_affine(v) else {
            return false;
        };
        if ir::opcode(phi) != Op::LLVMPHI || !self.heads_loop_around(ir::block_of(phi), at) {
            return false;
        }
        let h = ir::block_of(phi);
        // SAFETY: `phi` is a live PHI (checked just above).
        let n = unsafe { LLVMCountIncoming(phi) };
        let mut stepped = false;
        for k in 0..n {
            // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
            let from = unsafe { LLVMGetIncomingBlock(phi, k) };
            if !self.is_back_edge(from, h) {
                continue;
            }
            // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
            let x = unsafe { LLVMGetIncomingValue(phi, k) };
            if strip_affine(x) != Some(phi) || x == phi {
                return false;
            }
            stepped = true;
        }
        stepped
    }

    /// Whether block `h` heads a natural loop that contains block `at`.
    fn heads_loop_around(&self, h: B, at: B) -> bool {
        let an = &self.p.an;
        let (Some(&h), Some(&a)) = (an.index.get(&h), an.index.get(&at)) else {
            return false;
        };
        an.forest
            .loops
            .iter()
            .any(|l| l.header == h && l.contains(a))
    }
}

/// `v` with casts and affine steps by constants stripped (`sext (2 * i + 1)` → `i`).
fn strip_affine(mut v: V) -> Option<V> {
    for _ in 0..16 {
        if !ir::is_instruction(v) {
            return None;
        }
        match ir::opcode(v) {
            Op::LLVMSExt | Op::LLVMZExt | Op::LLVMTrunc => v = ir::operand(v, 0),
            Op::LLVMAdd | Op::LLVMSub | Op::LLVMMul | Op::LLVMShl | Op::LLVMOr => {
                let (a, b) = (ir::operand(v, 0), ir::operand(v, 1));
                if ir::const_int_value(b).is_some() {
                    v = a;
                } else if ir::const_int_value(a).is_some() && ir::opcode(v) != Op::LLVMShl {
                    v = b;
                } else {
                    return None;
                }
            }
            _ => return Some(v),
        }
    }
    None
}
