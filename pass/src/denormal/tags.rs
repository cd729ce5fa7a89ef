//! SSA tags: where a denormal value was created and where it came from.
//!
//! Tags are SSA values (`i32`, `<N x i32>` for vectors, one collapsed `i32` for
//! aggregates holding FP) in the stored-tag form of shadow memory: origin array id in
//! the high 16 bits, the creator's index (`__tpd_creator_index`) in the low 16. They
//! are created on demand and only for values some consumer needs: a site result's tag
//! is the cold region's, seen after the group through a PHI `[0, fast], [t, cold]`;
//! phis, selects, shuffles and element moves of FP values move tags; parameters and
//! call results read the thread-local slots. Consumers (hooks,
//! argument and return slots) only rely on a tag while its value is denormal, and the
//! hooks receive tags masked by the denormal lanes, so a stale or over-approximated tag
//! of a normal value is never used.

use super::classify::{self, SiteKind};
use super::cold::Cold;
use super::fptype;
use super::func::DnFn;
use crate::abilist::Kind;
use crate::callkind::{call_kind, CallKind};
use crate::ffi;
use crate::ir::{self, B, T, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use inkwell::llvm_sys::LLVMTypeKind as K;
use std::collections::{HashMap, HashSet};
use taintprof_abi as abi;

impl DnFn<'_> {
    /// The tag type of values of type `t`: `i32`, `<N x i32>` for FP vectors, `i32`
    /// for aggregates holding FP (collapsed). 32 bits, the form shadow memory stores:
    /// a vector's tags fit the registers its values do, and loads and stores move them
    /// without converting.
    pub(super) fn tag_ty(&self, t: T) -> T {
        if ir::is_vector(t) && fptype::is_fp(t) {
            self.ir.vec(self.ir.i32, ir::vector_len(t))
        } else {
            self.ir.i32
        }
    }

    fn zero_tag(&self, v: V) -> V {
        self.ir.null(self.tag_ty(ir::type_of(v)))
    }

    pub(super) fn has_tag(t: T) -> bool {
        fptype::is_fp(t)
            || matches!(ir::kind(t), K::LLVMStructTypeKind | K::LLVMArrayTypeKind)
                && fptype::aggregate_has_fp(t)
    }

    /// The tag of FP (or FP-holding aggregate) value `v` at the current position;
    /// `cold` is the region being emitted, if any.
    pub(super) fn tag(&mut self, v: V, mut cold: Option<&mut Cold>) -> V {
        if let Some(c) = cold.as_deref_mut() {
            if let Some(&t) = c.tags.get(&v) {
                return t;
            }
        }
        if !Self::has_tag(ir::type_of(v)) {
            return self.ir.c32(0);
        }
        if self.profile {
            return self.zero_tag(v);
        }
        if ir::is_argument(v) {
            // One tag per argument slot; spread over a vector's lanes where it is used.
            let t = self.param_tag(v);
            return self.adapt(t, self.tag_ty(ir::type_of(v)));
        }
        if !ir::is_instruction(v) || !self.live.contains(&v) {
            return self.zero_tag(v);
        }
        let internal = cold.as_deref().is_some_and(|c| c.insts.contains(&v));
        if !internal {
            if let Some(&t) = self.ext.get(&v) {
                // Call results are cached as the slot's one `i32`.
                return self.adapt(t, self.tag_ty(ir::type_of(v)));
            }
            if let Some(&g) = self.site_group.get(&v) {
                return self.join_tag(v, g);
            }
        }
        let op = ir::opcode(v);
        match op {
            Op::LLVMPHI => self.phi_tag(v),
            Op::LLVMCall | Op::LLVMInvoke => {
                let f = ir::called_function(v);
                if !f.is_null() && classify::is_shape_intrinsic(&ir::name_of(f)) {
                    let t = self.prop_tag(v, cold.as_deref_mut(), internal);
                    if let (true, Some(c)) = (internal, cold) {
                        c.tags.insert(v, t);
                    }
                    return t;
                }
                if internal || self.plan.sites.contains_key(&v) {
                    // A site's result tag comes from its cold region (the lookups
                    // above); none was made: it is 0 (calls inside a group are sites).
                    return self.zero_tag(v);
                }
                match call_kind(v, self.list) {
                    CallKind::Normal | CallKind::Listed(Kind::Wrap(_), _) => {
                        let t = self.ret_tag(v);
                        self.adapt(t, self.tag_ty(ir::type_of(v)))
                    }
                    _ => self.zero_tag(v),
                }
            }
            Op::LLVMSelect
            | Op::LLVMExtractElement
            | Op::LLVMInsertElement
            | Op::LLVMShuffleVector
            | Op::LLVMBitCast
            | Op::LLVMFreeze
            | Op::LLVMExtractValue
            | Op::LLVMInsertValue => {
                let t = self.prop_tag(v, cold.as_deref_mut(), internal);
                if let (true, Some(c)) = (internal, cold) {
                    c.tags.insert(v, t);
                }
                t
            }
            _ => self.zero_tag(v),
        }
    }

    /// A non-tag operand of a tag move: cloned in the cold region for the group's own
    /// instructions.
    fn plain(&mut self, v: V, cold: Option<&mut Cold>, internal: bool) -> V {
        match cold {
            Some(c) if internal => {
                let x = self.cold_value(v, c);
                self.at(c.term);
                x
            }
            _ => v,
        }
    }

    /// Tags through instructions that move FP values.
    fn prop_tag(&mut self, v: V, mut cold: Option<&mut Cold>, internal: bool) -> V {
        let ir = self.ir;
        let tt = self.tag_ty(ir::type_of(v));
        let opnd = |k: u32| ir::operand(v, k);
        match ir::opcode(v) {
            Op::LLVMSelect => {
                let ta = self.tag(opnd(1), cold.as_deref_mut());
                let tb = self.tag(opnd(2), cold.as_deref_mut());
                let ta = self.adapt(ta, tt);
                let tb = self.adapt(tb, tt);
                if ir::is_zero_const(ta) && ir::is_zero_const(tb) {
                    return ir.null(tt);
                }
                let cnd = self.plain(opnd(0), cold, internal);
                ir.select(cnd, ta, tb)
            }
            Op::LLVMFreeze => {
                let t = self.tag(opnd(0), cold);
                self.adapt(t, tt)
            }
            Op::LLVMBitCast => {
                // FP→FP of the same lane count keeps the tag; anything else
                // reinterprets bits (an int→FP bitcast makes a value nobody created:
                // the first operation that sees it denormal names itself creator).
                let from = ir::type_of(opnd(0));
                let to = ir::type_of(v);
                let lanes = |t: T| {
                    if ir::is_vector(t) {
                        ir::vector_len(t)
                    } else {
                        1
                    }
                };
                if fptype::is_fp(from) && fptype::is_fp(to) && lanes(from) == lanes(to) {
                    let t = self.tag(opnd(0), cold);
                    self.adapt(t, tt)
                } else {
                    ir.null(tt)
                }
            }
            Op::LLVMExtractElement => {
                let t = self.tag(opnd(0), cold.as_deref_mut());
                if ir::is_zero_const(t) {
                    return ir.null(tt);
                }
                let idx = self.plain(opnd(1), cold, internal);
                ir.extract_element(t, idx)
            }
            Op::LLVMInsertElement => {
                let tv = self.tag(opnd(0), cold.as_deref_mut());
                let te = self.tag(opnd(1), cold.as_deref_mut());
                if ir::is_zero_const(tv) && ir::is_zero_const(te) {
                    return ir.null(tt);
                }
                let idx = self.plain(opnd(2), cold, internal);
                ir.insert_element(self.adapt(tv, tt), te, idx)
            }
            Op::LLVMShuffleVector => {
                let t1 = self.tag(opnd(0), cold.as_deref_mut());
                let t2 = self.tag(opnd(1), cold);
                if ir::is_zero_const(t1) && ir::is_zero_const(t2) {
                    return ir.null(tt);
                }
                // SAFETY: `v` is a live shufflevector (this arm).
                let n = unsafe { LLVMGetNumMaskElements(v) };
                // SAFETY: a constant query without arguments.
                let undef = unsafe { LLVMGetUndefMaskElem() };
                let lanes: Vec<Option<u32>> = (0..n)
                    .map(|k| {
                        // SAFETY: `v` is a shufflevector and `k` < its mask length `n`.
                        let m = unsafe { LLVMGetMaskValue(v, k) };
                        (m != undef && m >= 0).then_some(m as u32)
                    })
                    .collect();
                ir.shuffle(t1, t2, ir.mask(&lanes))
            }
            Op::LLVMExtractValue => {
                let t = self.tag(opnd(0), cold);
                self.adapt(t, tt)
            }
            Op::LLVMInsertValue => {
                let ta = self.tag(opnd(0), cold.as_deref_mut());
                let te = if Self::has_tag(ir::type_of(opnd(1))) {
                    let t = self.tag(opnd(1), cold);
                    self.collapse(t)
                } else {
                    ir.c32(0)
                };
                if ir::is_zero_const(te) {
                    return ta;
                }
                if ir::is_zero_const(ta) {
                    return te;
                }
                ir.select(ir.icmp_ne(te, ir.c32(0)), te, ta)
            }
            Op::LLVMCall => {
                // Subvector moves: the same intrinsic on the tag vectors.
                let name = ir::name_of(ir::called_function(v));
                let t0 = self.tag(opnd(0), cold.as_deref_mut());
                if name.contains(".reverse.") {
                    if ir::is_zero_const(t0) {
                        return ir.null(tt);
                    }
                    let (f, ft) = ir.intrinsic("llvm.vector.reverse", &[tt]);
                    return ir.call(ft, f, &[t0]);
                }
                if name.starts_with("llvm.vector.extract.") {
                    if ir::is_zero_const(t0) {
                        return ir.null(tt);
                    }
                    let (f, ft) = ir.intrinsic("llvm.vector.extract", &[tt, ir::type_of(t0)]);
                    return ir.call(ft, f, &[t0, opnd(1)]);
                }
                // llvm.vector.insert(vec, subvec, idx)
                let t1 = self.tag(opnd(1), cold);
                if ir::is_zero_const(t0) && ir::is_zero_const(t1) {
                    return ir.null(tt);
                }
                let (f, ft) = ir.intrinsic("llvm.vector.insert", &[tt, ir::type_of(t1)]);
                ir.call(ft, f, &[t0, t1, opnd(2)])
            }
            _ => ir.null(tt),
        }
    }

    /// Convert tag `t` to tag type `to` (scalar ↔ vector: collapse / splat).
    pub(super) fn adapt(&self, t: V, to: T) -> V {
        let ir = self.ir;
        let from = ir::type_of(t);
        if from == to {
            return t;
        }
        if ir::is_zero_const(t) {
            return ir.null(to);
        }
        let s = self.collapse(t);
        if ir::is_vector(to) {
            ir.splat(s, ir::vector_len(to))
        } else {
            s
        }
    }

    /// One `i32` for a tag at the current position: the first non-zero lane of a
    /// vector tag. A group's vector join is collapsed in its cold region instead (a
    /// scalar join PHI), so that calls and returns of vectors cost nothing extra on the
    /// fast path.
    pub(super) fn collapse_here(&mut self, t: V) -> V {
        if let Some(&x) = self.collapsed.get(&t) {
            return x;
        }
        let Some(&(g, cold_t)) = self.joins.get(&t) else {
            return self.collapse(t);
        };
        let term = ir::terminator(self.groups[g].cold_end);
        self.ir.before(term);
        let c = self.collapse(cold_t);
        let ph = self.join_phi(g, c);
        self.collapsed.insert(t, ph);
        ph
    }

    /// One `i32` for a tag: the first non-zero lane of a vector tag.
    fn collapse(&self, t: V) -> V {
        let ir = self.ir;
        let ty = ir::type_of(t);
        if !ir::is_vector(ty) {
            return t;
        }
        if ir::is_zero_const(t) {
            return ir.c32(0);
        }
        let n = ir::vector_len(ty);
        let mut r = ir.extract_element(t, ir.c32(n - 1));
        for k in (0..n - 1).rev() {
            let e = ir.extract_element(t, ir.c32(k));
            r = ir.select(ir.icmp_ne(e, ir.c32(0)), e, r);
        }
        r
    }

    /// The tag of a site result after its group: `phi [0, fast], [t, cold]` at the
    /// group's join.
    fn join_tag(&mut self, v: V, g: usize) -> V {
        let gr = &self.groups[g];
        let t = match gr.tags.get(&v) {
            Some(&t) if !ir::is_zero_const(t) => t,
            _ => {
                let z = self.zero_tag(v);
                self.ext.insert(v, z);
                return z;
            }
        };
        let ph = self.join_phi(g, t);
        if ir::is_vector(ir::type_of(t)) {
            self.joins.insert(ph, (g, t));
        }
        self.ext.insert(v, ph);
        ph
    }

    /// `phi [0, head], ([0, skip],) [t, cold_end]` at the start of group `g`'s join block.
    fn join_phi(&mut self, g: usize, t: V) -> V {
        let ir = self.ir;
        let gr = &self.groups[g];
        let (head, skip, tail, cold_end) = (gr.head, gr.skip, gr.tail, gr.cold_end);
        ir.before_with_records(ir::first_non_phi(tail));
        let ph = ir.phi(ir::type_of(t));
        ir.add_incoming(ph, ir.null(ir::type_of(t)), head);
        if let Some(skip) = skip {
            ir.add_incoming(ph, ir.null(ir::type_of(t)), skip);
        }
        ir.add_incoming(ph, t, cold_end);
        self.tag_phis.push(ph);
        self.restore();
        ph
    }

    fn phi_tag(&mut self, p: V) -> V {
        let ir = self.ir;
        ir.before_with_records(ir::first_non_phi(ir::block_of(p)));
        let t = ir.phi(self.tag_ty(ir::type_of(p)));
        self.restore();
        self.ext.insert(p, t);
        self.pending_phis.push((p, t));
        self.tag_phis.push(t);
        t
    }

    pub(super) fn fill_phis(&mut self) {
        let ir = self.ir;
        while let Some((p, tp)) = self.pending_phis.pop() {
            // SAFETY: `p` is an original PHI of the function, queued by `phi_tag`; still live.
            let n = unsafe { LLVMCountIncoming(p) };
            let mut done: HashMap<B, V> = HashMap::new();
            for k in 0..n {
                // SAFETY: `p` is a live PHI and `k` < its incoming count `n`.
                let v = unsafe { LLVMGetIncomingValue(p, k) };
                // SAFETY: `p` is a live PHI and `k` < its incoming count `n`.
                let from = unsafe { LLVMGetIncomingBlock(p, k) };
                let t = if let Some(&t) = done.get(&from) {
                    t
                } else if self.unreachable.contains(&from) {
                    ir.null(ir::type_of(tp))
                } else {
                    self.at(ir::terminator(from));
                    let t = self.tag(v, None);
                    self.adapt(t, ir::type_of(tp))
                };
                done.insert(from, t);
                ir.add_incoming(tp, t, from);
            }
        }
    }

    /// Tag PHIs whose incoming tags are all zero (or such PHIs) are zero.
    pub(super) fn remove_zero_phis(&mut self) {
        let phis = std::mem::take(&mut self.tag_phis);
        let mut zero: HashSet<V> = phis.iter().copied().collect();
        loop {
            let mut changed = false;
            for &p in &phis {
                if !zero.contains(&p) {
                    continue;
                }
                // SAFETY: `p` is one of our tag PHIs; none is erased before the loop below.
                let n = unsafe { LLVMCountIncoming(p) };
                let ok = (0..n).all(|k| {
                    // SAFETY: `p` is a live PHI and `k` < its incoming count `n`.
                    let v = unsafe { LLVMGetIncomingValue(p, k) };
                    ir::is_zero_const(v) || zero.contains(&v)
                });
                if !ok {
                    zero.remove(&p);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for &p in &phis {
            if zero.contains(&p) {
                let z = self.ir.null(ir::type_of(p));
                // SAFETY: `p` is a live tag PHI, listed once (each is pushed when created);
                // its uses are replaced first, and no map is read after this last step.
                unsafe {
                    LLVMReplaceAllUsesWith(p, z);
                    LLVMInstructionEraseFromParent(p);
                }
                self.stats.zero_tag_phis += 1;
            }
        }
    }

    /// Tag `t` where lane mask `lm` says the value is denormal, 0 elsewhere: what the
    /// hooks receive, so that a stale or over-approximated tag of a normal value never
    /// reaches the runtime.
    pub(super) fn masked(&self, t: V, lm: V) -> V {
        let ir = self.ir;
        if ir::is_zero_const(t) || ir::is_zero_const(lm) {
            return ir.null(ir::type_of(t));
        }
        let t = self.shaped(t, lm);
        ir.select(lm, t, ir.null(ir::type_of(t)))
    }

    /// Tag `t` in the shape of lane mask `lm` (`<N x i32>` or `i32`), unmasked.
    pub(super) fn shaped(&self, t: V, lm: V) -> V {
        let ir = self.ir;
        if ir::is_vector(ir::type_of(lm)) {
            self.adapt(t, ir.vec(ir.i32, ir::vector_len(ir::type_of(lm))))
        } else {
            self.adapt(t, ir.i32)
        }
    }

    /// The creator index (`i32`) of the creator of site `i`, before `term`: the
    /// module's slot for it (`taintprof.creator_ix`), which `__tpd_creator_index` fills
    /// the first time any thread needs it, in a block of its own. Index 0 (the runtime
    /// ran out) makes tags without a creator: the next operation adopts them.
    pub(super) fn creator_index(&mut self, i: usize, term: V) -> V {
        let ir = self.ir;
        self.at(term);
        let slot = self.d.creator_ix_ptr(ir, i);
        let ix0 = ir.load_atomic(ir.i32, slot, 4);
        let head = ir::block_of(term);
        let unset = ir.icmp_eq(ix0, ir.c32(0));
        // SAFETY: `term` is a live instruction of the function, `unset` an `i1` built before it.
        let bb = unsafe { ffi::tp_split_if_then(unset, term) };
        ir.at_end(bb);
        let ix1 = self.miss_call(
            self.rt.creator_index,
            self.rt.creator_index_keepregs,
            &[self.d.creator_ptr(ir, i)],
        );
        let st = ir.store(ix1, slot, 4);
        // SAFETY: `st` is the store just built. Threads racing here may store different
        // indices; each decodes to this creator.
        unsafe {
            LLVMSetOrdering(
                st,
                inkwell::llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic,
            )
        };
        ir.before_with_records(ir::first_non_phi(ir::block_of(term)));
        let ix = ir.phi(ir.i32);
        ir.add_incoming(ix, ix0, head);
        ir.add_incoming(ix, ix1, bb);
        self.at(term);
        ix
    }

    /// The result tags `__tpd_op` would write for a chunk whose site's creator has
    /// index `me` (`i32`, [`Self::creator_index`]; result lane mask `rm`, operand masks
    /// `ms` and tags `ts` from [`Self::op_chunks`]; a tag is read only in the lanes its
    /// mask sets), with selects: where the result is denormal, the tag of the first
    /// operand that is denormal in that lane if it has a creator; that operand's origin
    /// with this site as creator if not; `(0, this site)` with no denormal operand. 0
    /// where the result is normal. Operands whose `known` is set
    /// ([`Self::creator_known`]) skip the creator test: it cannot fail for them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn op_tags_inline(
        &self,
        me: V,
        rm: V,
        ms: &[V],
        ts: &[V],
        known: &[bool],
        vec: bool,
        n: u32,
    ) -> V {
        let ir = self.ir;
        let tt = if vec { ir.vec(ir.i32, n) } else { ir.i32 };
        let wide = |c: V| if vec { ir.splat(c, n) } else { c };
        let me = wide(me);
        let creator_mask = wide(ir.c32(abi::STAG_CREATOR_MASK));
        let zero = ir.null(tt);
        let mut acc = me;
        // Last operand first, so that the first denormal operand has the last word.
        for ((&m, &t), &known) in ms.iter().zip(ts).zip(known).rev() {
            if ir::is_zero_const(m) {
                continue;
            }
            if known {
                acc = ir.select(m, t, acc);
                continue;
            }
            // No creator: the tag is its origin alone, and this site becomes the creator.
            let orphan = ir.icmp_eq(ir.and(t, creator_mask), zero);
            let adopted = ir.or(t, ir.select(orphan, me, zero));
            acc = ir.select(m, adopted, acc);
        }
        ir.select(rm, acc, zero)
    }

    /// Whether `v`, wherever it is denormal, has a tag with a creator: true of the
    /// results of operation and load sites (the inline code and the hooks always name
    /// one) and of what only moves them (phis, selects, lanes moves, FP bitcasts of the
    /// same lane count); undefined lanes count as known. False for arguments, call
    /// results, constants and bit reinterpretations, whose tags may be 0. Phi cycles
    /// are assumed known while they are being looked at (the greatest fixpoint: a cycle
    /// brings in nothing of its own).
    pub(super) fn creator_known(&self, v: V, visiting: &mut HashSet<V>) -> bool {
        if ir::is_undef_like(v) {
            return true;
        }
        if !ir::is_instruction(v) || visiting.len() > 64 {
            return false;
        }
        if let Some(site) = self.plan.sites.get(&v) {
            return match site.spec.kind {
                SiteKind::Op => site.spec.result == Some(v),
                SiteKind::Load { passthru, .. } => {
                    site.spec.result == Some(v)
                        && passthru.is_none_or(|p| self.creator_known(p, visiting))
                }
                SiteKind::Store { .. } => false,
            };
        }
        let opnd = |k: u32| ir::operand(v, k);
        match ir::opcode(v) {
            Op::LLVMPHI => {
                if !visiting.insert(v) {
                    return true;
                }
                // SAFETY: `v` is a live PHI (this arm).
                let n = unsafe { LLVMCountIncoming(v) };
                // SAFETY: `v` is a live PHI and `k` < its incoming count `n`.
                (0..n).all(|k| self.creator_known(unsafe { LLVMGetIncomingValue(v, k) }, visiting))
            }
            Op::LLVMSelect => {
                self.creator_known(opnd(1), visiting) && self.creator_known(opnd(2), visiting)
            }
            Op::LLVMFreeze | Op::LLVMExtractElement => self.creator_known(opnd(0), visiting),
            Op::LLVMInsertElement | Op::LLVMShuffleVector => {
                self.creator_known(opnd(0), visiting) && self.creator_known(opnd(1), visiting)
            }
            Op::LLVMBitCast => {
                let (from, to) = (ir::type_of(opnd(0)), ir::type_of(v));
                let lanes = |t: T| {
                    if ir::is_vector(t) {
                        ir::vector_len(t)
                    } else {
                        1
                    }
                };
                fptype::is_fp(from)
                    && fptype::is_fp(to)
                    && lanes(from) == lanes(to)
                    && self.creator_known(opnd(0), visiting)
            }
            _ => false,
        }
    }
}
