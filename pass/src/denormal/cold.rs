//! Cold regions: what runs when a group's filter fires.
//!
//! The cold region recomputes what it needs instead of keeping values alive on the fast
//! path: pure instructions and simple loads of the group are cloned (*rematerialized*;
//! the group contains no writes, so a cloned load reads what the original read). Then,
//! site by site in program order, it computes the exact lane masks, and if a site has a
//! denormal operand or result: an operation site updates its three inline counters
//! (`FpSiteDesc::counters`, in this thread's block counters) and computes its result
//! tags with selects, with no call (`count_op_inline` in counters.rs, `op_tags_inline`
//! in tags.rs; a call per operation and the spills around it were most of the cold
//! cost). A contiguous float or double load or store first probes its inline memory
//! cache (memcache.rs; `mem_probe`: the array window, creator and origin the runtime
//! saw last time, in the site's words of the block counters) and on a hit counts and
//! tags inline (`mem_hit`); otherwise, and for gathers, scatters and other types, it
//! calls `__tpd_load`/`__tpd_store` with the tags in a stack buffer (they need the
//! marked-array registry; the hook refills the cache). Counts are exact although the fast-path test is shared: a site is counted
//! only when its own masks are non-zero. `TAINTPROF_DN_INLINE_OPS=0` calls the hooks
//! for everything (the reference); `TAINTPROF_DN_INLINE_MEM=0` only for memory.

use super::classify::{self, SiteKind, CHUNK};
use super::fptype::{self, FpKind};
use super::func::DnFn;
use super::memcache::CachedChunk;
use crate::ffi;
use crate::ir::{self, T, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMIntPredicate as IP;
use inkwell::llvm_sys::LLVMOpcode as Op;
use inkwell::llvm_sys::LLVMTypeKind as K;
use std::collections::{HashMap, HashSet};
use taintprof_abi as abi;

/// Largest operand tag buffer: `[MAX_OPERANDS * CHUNK x i32]`; result tags:
/// `[CHUNK x i32]` (each function allocates what its widest site needs).
const OPTAGS: u64 = (classify::MAX_OPERANDS as u64) * CHUNK as u64;
const RESTAGS: u64 = CHUNK as u64;

/// State of one cold region while it is emitted.
pub(super) struct Cold {
    pub(super) insts: HashSet<V>,
    pub(super) clones: HashMap<V, V>,
    /// Tags computed in the region (site results, moves of the group's values).
    pub(super) tags: HashMap<V, V>,
    /// The region's closing `br` (moves to the newest block on each inner split).
    pub(super) term: V,
}

impl DnFn<'_> {
    /// Allocates `bufs` before `ip`, `slots` tags each (`FnPlan::buffer_slots`).
    pub(super) fn tag_buffers(&mut self, ip: V, (op_slots, res_slots): (u64, u64)) {
        let ir = self.ir;
        // Tag buffers of the cold paths: static allocas at the very top.
        debug_assert!(op_slots <= OPTAGS && res_slots <= RESTAGS);
        ir.before(ip);
        let o = ir.alloca(ir.array_ty(ir.i32, op_slots));
        let r = ir.alloca(ir.array_ty(ir.i32, res_slots));
        // SAFETY: `o` and `r` are the allocas built just above.
        unsafe {
            LLVMSetAlignment(o, 16);
            LLVMSetAlignment(r, 16);
        }
        self.bufs = Some((o, r));
    }

    fn bufs(&self) -> (V, V) {
        self.bufs.expect("functions with sites have tag buffers")
    }

    /// Moves each group's cold region (what its filter branch enters, up to the join)
    /// into a `cold`, `noinline` function of its own, called in its place (LLVM's
    /// `CodeExtractor`: the values it uses become arguments, the tags it makes come back
    /// through pointers). Why: inline, the region shares the registers of the loop
    /// around it, where the fast path's constants and values hold most of them; the
    /// region spilled and reloaded a quarter of its instructions, and the loop's own
    /// code got worse for its presence. Called, it has every register, and the loop pays
    /// a call (and saving its vector registers) per entry into the region only.
    /// `jacobi-denormal`: full tier 2.0× → 1.35× its hand-written floor, profile tier
    /// 1.31× → 1.12× (docs/performance.md). A region the extractor refuses (an alloca,
    /// an exception pad inside) stays inline. Runs last: the regions are complete and
    /// simplified.
    pub(super) fn outline_cold_regions(&mut self) {
        let (mut entries, mut exits): (Vec<_>, Vec<_>) = self
            .groups
            .iter()
            .filter_map(|g| {
                let t = ir::terminator(g.head);
                // SAFETY: `t` is the group's filter branch, a live terminator: the
                // region and the join.
                unsafe {
                    if LLVMGetNumSuccessors(t) != 2 {
                        return None;
                    }
                    let entry = LLVMGetSuccessor(t, 0);
                    (entry != g.tail).then_some((entry, g.tail))
                }
            })
            .unzip();
        // SAFETY: `entries` and `exits` hold `len` live blocks of this function each: a
        // region only its filter branch enters, and the join it leaves to only.
        let moved = unsafe {
            ffi::tp_outline_regions(
                entries.as_mut_ptr(),
                exits.as_mut_ptr(),
                entries.len() as u32,
            )
        };
        self.stats.outlined += moved as usize;
    }

    /// Per-lane `isdenorm(v)`: `i1` or `<N x i1>`.
    pub(super) fn lane_mask(&self, v: V) -> V {
        let ir = self.ir;
        let t = ir::type_of(v);
        let (k, n) = fptype::fp_shape(t)
            .ok()
            .flatten()
            .expect("pre-check: supported FP value");
        let vec_n = if ir::is_vector(t) { n } else { 0 };
        if ir::is_undef_like(v) {
            return ir.null(if vec_n > 0 { ir.vec(ir.i1, n) } else { ir.i1 });
        }
        let it = ir.int_ty(k.bits);
        let c = |x: u128| ir.cvec(ir.cwide(it, x), vec_n);
        let bits = ir.bitcast(v, if vec_n > 0 { ir.vec(it, n) } else { it });
        let a = ir.and(bits, c(k.abs_mask()));
        let s = ir.add(a, c(k.bias()));
        ir.icmp(IP::LLVMIntSLT, s, c(k.limit()))
    }

    /// The value of `v` usable in the cold region: a clone for the group's pure
    /// instructions and simple loads, else `v` itself.
    pub(super) fn cold_value(&mut self, v: V, c: &mut Cold) -> V {
        if !ir::is_instruction(v) || !c.insts.contains(&v) {
            return v;
        }
        if let Some(&x) = c.clones.get(&v) {
            return x;
        }
        if !self.rematerializable(v) {
            return v;
        }
        let n = ir::num_operands(v);
        let ops: Vec<V> = (0..n)
            .map(|k| self.cold_value(ir::operand(v, k), c))
            .collect();
        self.at(c.term);
        let x = self.ir.clone_here(v);
        for (k, o) in ops.into_iter().enumerate() {
            if o != ir::operand(v, k as u32) {
                // SAFETY: `x` is a clone of `v`, with the same operand count, and `k` < that
                // count; `o` is a live value of the operand's type.
                unsafe { LLVMSetOperand(x, k as u32, o) };
            }
        }
        c.clones.insert(v, x);
        self.stats.rematerialized += 1;
        x
    }

    pub(super) fn rematerializable(&self, v: V) -> bool {
        match ir::opcode(v) {
            // SAFETY: `v` is a live load (this arm).
            Op::LLVMLoad => unsafe {
                LLVMGetVolatile(v) == 0
                    && LLVMGetOrdering(v)
                        == inkwell::llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
            },
            Op::LLVMCall => {
                let f = ir::called_function(v);
                !f.is_null()
                    && ir::intrinsic_id(f) != 0
                    && !ir::name_of(f).starts_with("llvm.experimental.constrained.")
                    // SAFETY: `v` is a live call (this arm); the shim casts it to `CallBase`.
                    && unsafe { ffi::tp_call_memory_effects(v) } == 0
                    && ir::kind(ir::type_of(v)) != K::LLVMVoidTypeKind
            }
            Op::LLVMFNeg
            | Op::LLVMFAdd
            | Op::LLVMFSub
            | Op::LLVMFMul
            | Op::LLVMFDiv
            | Op::LLVMFRem
            | Op::LLVMAdd
            | Op::LLVMSub
            | Op::LLVMMul
            | Op::LLVMShl
            | Op::LLVMLShr
            | Op::LLVMAShr
            | Op::LLVMAnd
            | Op::LLVMOr
            | Op::LLVMXor
            | Op::LLVMGetElementPtr
            | Op::LLVMICmp
            | Op::LLVMFCmp
            | Op::LLVMSelect
            | Op::LLVMExtractElement
            | Op::LLVMInsertElement
            | Op::LLVMShuffleVector
            | Op::LLVMExtractValue
            | Op::LLVMInsertValue
            | Op::LLVMFreeze => true,
            op => ir::is_cast_op(op),
        }
    }

    /// Lanes `off..off+n` of lane mask `m` (`i1` or `<N x i1>`) as an `i64` bit mask.
    fn mask_bits(&self, m: V, off: u32, n: u32) -> V {
        let ir = self.ir;
        let t = ir::type_of(m);
        if !ir::is_vector(t) {
            return if off == 0 {
                ir.zext(m, ir.i64)
            } else {
                ir.c64(0)
            };
        }
        let part = self.lanes_of(m, off, n);
        let bits = ir.bitcast(part, ir.int_ty(n));
        ir.zext(bits, ir.i64)
    }

    /// Lanes `off..off+n` of vector `v` (itself when that is all of it).
    fn lanes_of(&self, v: V, off: u32, n: u32) -> V {
        let ir = self.ir;
        let t = ir::type_of(v);
        if off == 0 && ir::vector_len(t) == n {
            return v;
        }
        let idx: Vec<Option<u32>> = (off..off + n).map(Some).collect();
        ir.shuffle(v, ir.poison(t), ir.mask(&idx))
    }

    /// Chunk `c` (lanes `off..off+n`) of the tag/mask of a value with `lanes`
    /// lanes in a site of `n` lanes: vectors are cut, scalars belong to chunk 0 (lane
    /// 0), as `i32` when `n == 1` or the value is scalar.
    fn chunk(&self, v: V, off: u32, n: u32, zero: V) -> V {
        let t = ir::type_of(v);
        if !ir::is_vector(t) {
            return if off == 0 { v } else { zero };
        }
        self.lanes_of(v, off, n)
    }

    /// Store `t` (tag chunk: `i32` or `<n x i32>`) at `buf[slot]`.
    pub(super) fn store_tags(&self, buf: V, slot: u64, t: V) {
        let ir = self.ir;
        let p = ir.gep(ir.i32, buf, &[ir.c64(slot)]);
        ir.store(t, p, 4);
    }

    /// The cold code of site `i`. Everything the hooks need (rematerialized values,
    /// lane masks, operand tags) is computed on the region's spine, before `c.term`,
    /// where it dominates the rest of the region; only the buffer stores, the hook call
    /// and the result-tag load sit in the conditional hook block.
    pub(super) fn emit_cold(&mut self, i: V, c: &mut Cold) -> Result<(), String> {
        let ir = self.ir;
        let ps = &self.plan.sites[&i];
        let spec = ps.spec.clone();
        let first = ps.first_desc;
        let (optags, restags) = self.bufs();
        // Values on the spine.
        let ops: Vec<V> = spec
            .operands
            .iter()
            .map(|&o| self.cold_value(o, c))
            .collect();
        let (subject, ptr, mask, passthru) = match &spec.kind {
            SiteKind::Op => (spec.result.map(|r| self.cold_value(r, c)), None, None, None),
            SiteKind::Load {
                ptr,
                mask,
                passthru,
                ..
            } => (
                Some(self.cold_value(i, c)),
                Some(self.cold_value(*ptr, c)),
                mask.map(|m| self.cold_value(m, c)),
                *passthru,
            ),
            SiteKind::Store {
                value, ptr, mask, ..
            } => (
                Some(self.cold_value(*value, c)),
                Some(self.cold_value(*ptr, c)),
                mask.map(|m| self.cold_value(m, c)),
                None,
            ),
        };
        self.at(c.term);
        let op_lms: Vec<V> = ops.iter().map(|&o| self.lane_mask(o)).collect();
        let subject_lm = subject.map(|v| {
            let lm = self.lane_mask(v);
            match mask {
                Some(m) => ir.and(lm, m),
                None => lm,
            }
        });
        // Operand tags, unmasked: the inline operation code reads a tag only in the
        // lanes where its operand is denormal; the hook gets them masked (below).
        let mut op_tags: Vec<V> = Vec::new();
        for (k, &o) in spec.operands.iter().enumerate() {
            let t = self.tag(o, Some(c));
            self.at(c.term);
            op_tags.push(self.shaped(t, op_lms[k]));
        }
        let store_tags = if let SiteKind::Store { value, .. } = spec.kind {
            let t = self.tag(value, Some(c));
            self.at(c.term);
            Some(self.masked(t, subject_lm.unwrap()))
        } else {
            None
        };
        let pass_tag = match passthru {
            Some(pt) => {
                let t = self.tag(pt, Some(c));
                self.at(c.term);
                Some(t)
            }
            None => None,
        };
        let mut chunk_tags: Vec<(V, u32)> = Vec::new();
        for ch in 0..spec.chunks() {
            let n = spec.chunk_lanes(ch);
            let off = ch * CHUNK;
            let site = self.d.site_ptr(ir, first + ch as usize);
            self.at(c.term);
            let mut opmask = ir.c64(0);
            for (k, &lm) in op_lms.iter().enumerate() {
                let bits = self.mask_bits(lm, off, n);
                let sh = if k == 0 {
                    bits
                } else {
                    ir.shl(bits, ir.c64(16 * k as u64))
                };
                opmask = ir.or(opmask, sh);
            }
            // For loads and stores this is the hook's lane mask.
            let resmask = match subject_lm {
                Some(lm) => self.mask_bits(lm, off, n),
                None => ir.c64(0),
            };
            let need = ir.icmp_ne(ir.or(opmask, resmask), ir.c64(0));
            if ir::is_zero_const(need) {
                continue;
            }
            let pre = ir::block_of(c.term);
            // An operation site with inline counters needs no hook; a load or store with
            // them calls it only when its inline cache misses.
            let ctr = Some(self.d.sites[first + ch as usize].counters)
                .filter(|&c| c != abi::FPSITE_NO_COUNTERS);
            // The profile tier's inline sites only add counts (zero when the site saw
            // no denormal): no branch, which the lanes of a wavefront would mispredict.
            let branchless = self.profile && ctr.is_some();
            let term = if branchless {
                c.term
            } else {
                let need = ir.freeze(need);
                // SAFETY: `c.term` is a live instruction of the function (the cold
                // region's terminator) and `need` an `i1` computed before it.
                let hook_bb = unsafe { ffi::tp_split_if_then(need, c.term) };
                ir::terminator(hook_bb)
            };
            self.at(term);
            let inline_ctr = ctr.filter(|_| matches!(spec.kind, SiteKind::Op));
            let mem_ctr = ctr.filter(|_| !matches!(spec.kind, SiteKind::Op));
            if inline_ctr.is_none() {
                self.stats.hook_calls += 1;
            }
            let es = spec.fp.elem_size();
            let addr = |p: V| {
                if off == 0 {
                    p
                } else {
                    ir.gep_i8(p, ir.c64(off as u64 * es))
                }
            };
            let mut result_tags: Option<V> = None;
            match &spec.kind {
                SiteKind::Load { .. } | SiteKind::Store { .. } if self.profile => {
                    // The profile tier: the count only (every load and store site has
                    // its words there). Loaded values carry no tag.
                    let lm = self.chunk(subject_lm.unwrap(), off, n, ir.cint(ir.i1, 0));
                    self.count_mem_inline(mem_ctr.expect("profile tier: planned inline"), lm);
                }
                SiteKind::Op if inline_ctr.is_some() => {
                    let ctr = inline_ctr.unwrap_or(abi::FPSITE_NO_COUNTERS);
                    let vec =
                        spec.lanes > 1 || op_lms.iter().any(|&m| ir::is_vector(ir::type_of(m)));
                    let (ms, ts) = self.op_chunks(&op_lms, &op_tags, off, n, vec);
                    let rm = subject_lm.map(|lm| self.chunk(lm, off, n, ir.cint(ir.int_ty(1), 0)));
                    self.count_op_inline(ctr, &ms, rm, vec, n, term);
                    if let (Some(_), Some(rm), false) = (spec.result, rm, self.profile) {
                        let me = self.creator_index(first + ch as usize, term);
                        let known: Vec<bool> = spec
                            .operands
                            .iter()
                            .map(|&o| self.creator_known(o, &mut HashSet::new()))
                            .collect();
                        result_tags = Some(self.op_tags_inline(me, rm, &ms, &ts, &known, vec, n));
                    }
                }
                SiteKind::Op => {
                    for (k, &t) in op_tags.iter().enumerate() {
                        let tc = self.chunk(self.masked(t, op_lms[k]), off, n, ir.c32(0));
                        self.store_tags(optags, (k as u64) * n as u64, tc);
                    }
                    let h = self.rt.op;
                    ir.call(h.ty, h.f, &[site, opmask, resmask, optags, restags]);
                    if let (Some(r), Some(lm)) = (spec.result, subject_lm) {
                        result_tags = Some(self.load_result_tags(restags, r, lm, off, n));
                    }
                }
                SiteKind::Load { gather: false, .. } if mem_ctr.is_some() => {
                    let ctr = mem_ctr.unwrap_or_default();
                    let p = addr(ptr.unwrap());
                    let lm = self.chunk(subject_lm.unwrap(), off, n, ir.cint(ir.i1, 0));
                    let ch = CachedChunk {
                        site,
                        ctr,
                        p,
                        es,
                        lm,
                        bits: resmask,
                        term,
                        partial: false,
                    };
                    let t = self.cached_load(&ch, restags, |s| {
                        s.load_result_tags(restags, i, subject_lm.unwrap(), off, n)
                    });
                    result_tags = Some(t);
                }
                SiteKind::Store {
                    scatter: false,
                    mask,
                    ..
                } if mem_ctr.is_some() => {
                    let ctr = mem_ctr.unwrap_or_default();
                    let p = addr(ptr.unwrap());
                    let lm = self.chunk(subject_lm.unwrap(), off, n, ir.cint(ir.i1, 0));
                    let tc = self.chunk(store_tags.unwrap(), off, n, ir.c32(0));
                    let ch = CachedChunk {
                        site,
                        ctr,
                        p,
                        es,
                        lm,
                        bits: resmask,
                        term,
                        partial: mask.is_some(),
                    };
                    self.cached_store(&ch, tc, optags);
                }
                SiteKind::Load { gather, .. } => {
                    let p = ptr.unwrap();
                    let from = if *gather {
                        // The hook writes all `lanes` tags of each call (0 outside its
                        // mask): copy lane l's out right after its call.
                        self.per_lane(term, p, resmask, off, n, spec.fp, |s, base, bit, l| {
                            let h = s.rt.load;
                            s.ir.call(h.ty, h.f, &[site, base, bit, restags]);
                            let src = s.ir.gep(s.ir.i32, restags, &[s.ir.c64(l as u64)]);
                            let t = s.ir.load(s.ir.i32, src, 4);
                            let dst = s.ir.gep(s.ir.i32, optags, &[s.ir.c64(l as u64)]);
                            s.ir.store(t, dst, 4);
                        });
                        optags
                    } else {
                        let h = self.rt.load;
                        ir.call(h.ty, h.f, &[site, addr(p), resmask, restags]);
                        restags
                    };
                    self.at(term);
                    result_tags = Some(self.load_result_tags(from, i, subject_lm.unwrap(), off, n));
                }
                SiteKind::Store { scatter, .. } => {
                    let tc = self.chunk(store_tags.unwrap(), off, n, ir.c32(0));
                    self.store_tags(optags, 0, tc);
                    let p = ptr.unwrap();
                    if *scatter {
                        self.per_lane(term, p, resmask, off, n, spec.fp, |s, base, bit, _| {
                            let h = s.rt.store;
                            s.ir.call(h.ty, h.f, &[site, base, bit, optags]);
                        });
                    } else {
                        let h = self.rt.store;
                        ir.call(h.ty, h.f, &[site, addr(p), resmask, optags]);
                    }
                }
            }
            self.at(c.term);
            if let Some(rt) = result_tags {
                let from = ir::block_of(term);
                ir.before_with_records(ir::first_non_phi(ir::block_of(c.term)));
                let ph = ir.phi(ir::type_of(rt));
                ir.add_incoming(ph, ir.null(ir::type_of(rt)), pre);
                ir.add_incoming(ph, rt, from);
                chunk_tags.push((ph, off));
                self.at(c.term);
            }
        }
        let Some(r) = spec.result else {
            return Ok(());
        };
        let tt = self.tag_ty(ir::type_of(r));
        let mut full = if chunk_tags.is_empty() {
            ir.null(tt)
        } else if chunk_tags.len() == 1 && ir::type_of(chunk_tags[0].0) == tt {
            chunk_tags[0].0
        } else {
            // Reassemble the chunks (cold code: element by element).
            let mut acc = ir.null(tt);
            for &(t, off) in &chunk_tags {
                let ct = ir::type_of(t);
                if !ir::is_vector(tt) {
                    acc = if ir::is_vector(ct) {
                        ir.extract_element(t, ir.c32(0))
                    } else {
                        t
                    };
                    continue;
                }
                let m = if ir::is_vector(ct) {
                    ir::vector_len(ct)
                } else {
                    1
                };
                for l in 0..m {
                    let e = if ir::is_vector(ct) {
                        ir.extract_element(t, ir.c32(l))
                    } else {
                        t
                    };
                    acc = ir.insert_element(acc, e, ir.c32(off + l));
                }
            }
            acc
        };
        if let (Some(tp), Some(mk)) = (pass_tag, mask) {
            // Inactive lanes of a masked load hold the pass-through value and its tag.
            if !ir::is_zero_const(tp) {
                full = ir.select(mk, full, self.adapt(tp, tt));
            }
        }
        c.tags.insert(r, full);
        Ok(())
    }

    /// Chunk `off..off+n` of every operand's lane mask and tag, in the shape of
    /// the site's lanes: `<n x i1>`/`<n x i32>` when `vec` (a scalar operand of a vector
    /// operation belongs to lane 0), else `i1`/`i32`.
    fn op_chunks(&self, lms: &[V], tags: &[V], off: u32, n: u32, vec: bool) -> (Vec<V>, Vec<V>) {
        let ir = self.ir;
        let i1 = ir.int_ty(1);
        let mut ms = Vec::new();
        let mut ts = Vec::new();
        for (&lm, &t) in lms.iter().zip(tags) {
            let m = self.chunk(lm, off, n, ir.cint(i1, 0));
            let t = self.chunk(t, off, n, ir.c32(0));
            let lane0 = |v: V, et: T| {
                if vec && !ir::is_vector(ir::type_of(v)) {
                    ir.insert_element(ir.null(ir.vec(et, n)), v, ir.c32(0))
                } else {
                    v
                }
            };
            ms.push(lane0(m, i1));
            ts.push(lane0(t, ir.i32));
        }
        (ms, ts)
    }

    /// For gathers and scatters: per lane `l` of the chunk whose bit is set in `bits`,
    /// call `f(base, 1 << l, l)` with `base = ptrs[off + l] - l * elem_size`, so that
    /// the hook's "element `l` of contiguous lanes at `base`" is exactly that lane's
    /// address.
    #[allow(clippy::too_many_arguments)]
    fn per_lane(
        &mut self,
        term: V,
        ptrs: V,
        bits: V,
        off: u32,
        n: u32,
        fp: FpKind,
        f: impl Fn(&Self, V, V, u32),
    ) {
        let ir = self.ir;
        for l in 0..n {
            self.at(term);
            let bit = ir.c64(1u64 << l);
            let set = ir.icmp_ne(ir.and(bits, bit), ir.c64(0));
            // SAFETY: `term` is a live instruction of the function, `set` an `i1` built before it.
            let bb = unsafe { ffi::tp_split_if_then(set, term) };
            ir.at_end(bb);
            let p = ir.extract_element(ptrs, ir.c32(off + l));
            let base = ir.gep_i8(p, ir.c64((l as u64 * fp.elem_size()).wrapping_neg()));
            f(self, base, bit, l);
        }
        self.at(term);
    }

    /// Result tags from the hook's buffer, masked by the denormal lanes.
    fn load_result_tags(&self, restags: V, r: V, lm: V, off: u32, n: u32) -> V {
        let ir = self.ir;
        let rt = ir::type_of(r);
        let t = if ir::is_vector(rt) {
            ir.load(ir.vec(ir.i32, n), restags, 4)
        } else {
            ir.load(ir.i32, restags, 4)
        };
        let m = if ir::is_vector(ir::type_of(lm)) {
            self.lanes_of(lm, off, n)
        } else {
            lm
        };
        ir.select(m, t, ir.null(ir::type_of(t)))
    }
}
