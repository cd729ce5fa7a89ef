//! The fast path: groups of sites and the filter that decides whether a group's cold
//! region runs.
//!
//! The sites of a basic block are cut into *groups* at every instruction that writes
//! memory or may call out (stores, calls, memory intrinsics, fences) and at the
//! terminator. Inside a group, every distinct FP value that is an operand or result of
//! a site is tested once, right where it is defined (or, for operands defined outside
//! the group, right before their first use):
//!
//! ```text
//!   m   = isdenorm(v)            ; per lane: and, add, icmp slt (fptype.rs)
//!   acc = acc | m                ; one accumulator per lane count
//! ```
//!
//! and before the group's last instruction (a store is tested before it executes)
//! `any = reduce.or(acc)` decides, with unlikely branch weights, whether the group's
//! *cold region* runs. That is all the fast path does: no shadow access, no calls, no
//! tag arithmetic (tags are constant 0 there), and the tested values need not stay
//! alive until the test.
//!
//! Values the filter already proves normal are taken out of it again when the group
//! closes (`cover.rs`); `close_group` then emits the test, the branch and the cold
//! region (`cold.rs`).

use super::classify::{self, SiteKind, SiteSpec};
use super::cold::Cold;
use super::fptype::{self, FpKind, DOUBLE};
use super::func::DnFn;
use crate::ffi;
use crate::ir::{self, B, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMIntPredicate as IP;
use inkwell::llvm_sys::LLVMOpcode as Op;
use inkwell::llvm_sys::LLVMRealPredicate as RP;
use std::collections::{BTreeMap, HashMap, HashSet};
use taintprof_abi as abi;

/// A closed group: where its cold region joins the fast path.
pub(super) struct Closed {
    pub(super) head: B,
    /// The start of the cold region when it first re-tests exactly (after a raised
    /// threshold, see [`DnFn::cover`]); it also branches to `tail`, with tags 0.
    pub(super) skip: Option<B>,
    pub(super) tail: B,
    pub(super) cold_end: B,
    /// Tags of the group's site results at the end of the cold region.
    pub(super) tags: HashMap<V, V>,
}

/// How a group's fast-path filter accumulates the values it tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum AccKey {
    /// Vectors of float/double: `u = (bits & abs_mask) - 1` reinterpreted as the FP
    /// type, running minimum `acc = u < acc ? u : acc` (one `minps`/`minpd`; a zero
    /// gives `u` = NaN, which this form ignores), then `acc < MIN_NORMAL`.
    Fp { bits: u32, lanes: u32 },
    /// Everything else (scalars, half vectors, x86_fp80, fp128): the same `u` as an
    /// integer, running `umin`, then `acc <u mant_mask`.
    Int { bits: u32, lanes: u32 },
}

/// One value added to a group's filter, in program order (what [`DnFn::cover`] needs
/// to take it out again).
pub(super) struct TestRec {
    pub(super) v: V,
    pub(super) key: AccKey,
    pub(super) kind: FpKind,
    /// The lanes tested, for masked loads and stores (never a coverage input).
    pub(super) mask: Option<V>,
    /// The filter after and before this value.
    pub(super) acc: V,
    pub(super) prev: Option<V>,
}

/// The group being collected.
#[derive(Default)]
pub(super) struct Open {
    pub(super) sites: Vec<V>,
    pub(super) checked: HashSet<V>,
    pub(super) tests: Vec<TestRec>,
    /// The filters, with the FP format of each.
    pub(super) acc: BTreeMap<AccKey, (V, FpKind)>,
    /// A site has a denormal constant operand: the cold region always runs.
    pub(super) force: bool,
    /// Original instructions of the group (the rematerialization scope).
    pub(super) insts: HashSet<V>,
}

impl DnFn<'_> {
    /// A group's test runs before its first store `w`. The FP stores that follow `w`
    /// (with only pure, non-FP-site instructions in between) and whose operands are
    /// already computed before `w` join the group: their values are tested with it and
    /// their hooks run in its cold region, in program order, before any of the stores
    /// executes (the hooks write shadow tags only). A vectorized loop body with several
    /// stores then has one branch, not one per store.
    pub(super) fn merge_stores(&mut self, w: V) {
        let mut x = ir::next_instruction(w);
        // SAFETY: `x` is a live, non-null instruction of the block.
        while !x.is_null() && unsafe { LLVMIsATerminatorInst(x).is_null() } {
            if let Some(ps) = self.plan.sites.get(&x) {
                let SiteKind::Store {
                    value, ptr, mask, ..
                } = ps.spec.kind
                else {
                    return;
                };
                let ready = [Some(value), Some(ptr), mask]
                    .into_iter()
                    .flatten()
                    .all(|o| self.defined_before(o, w));
                if !ready {
                    return;
                }
                let spec = ps.spec.clone();
                self.add_site(x, &spec, w);
                self.merged.insert(x);
                self.stats.merged_stores += 1;
            } else if !self.pure_non_site(x) {
                return;
            }
            x = ir::next_instruction(x);
        }
    }

    /// Whether `v` is available at `w` in `w`'s block: not an instruction of that
    /// block at or after `w`.
    fn defined_before(&self, v: V, w: V) -> bool {
        if !ir::is_instruction(v) || ir::block_of(v) != ir::block_of(w) {
            return true;
        }
        let mut i = w;
        while !i.is_null() {
            if i == v {
                return false;
            }
            i = ir::next_instruction(i);
        }
        true
    }

    /// Instructions a merged store may be separated from the first store by: no
    /// memory access, no call, no site.
    fn pure_non_site(&self, x: V) -> bool {
        !self.plan.sites.contains_key(&x)
            && ir::opcode(x) != Op::LLVMLoad
            && ir::opcode(x) != Op::LLVMCall
            && ir::opcode(x) != Op::LLVMInvoke
            && !self.ends_group(x, None)
            && self.rematerializable(x)
    }

    /// Whether `i` must be preceded by the test of the current group: it writes
    /// memory (the cold region's cloned loads must read what the originals read, and a
    /// store's hook runs before the store), may call instrumented code (which reads
    /// shadow tags and slots), or ends the block.
    pub(super) fn ends_group(&self, i: V, site: Option<&SiteSpec>) -> bool {
        match (ir::opcode(i), site) {
            (Op::LLVMCall, Some(s)) => matches!(s.kind, SiteKind::Store { .. }),
            // SAFETY: `i` is a live, non-null instruction being visited.
            _ => classify::may_write_memory(i) || unsafe { !LLVMIsATerminatorInst(i).is_null() },
        }
    }

    /// The FP values a site tests: operands (and the stored value) before `at`, the
    /// result right after the site.
    pub(super) fn add_site(&mut self, i: V, spec: &SiteSpec, at: V) {
        let mut operands: Vec<V> = spec.operands.clone();
        let mut opmask = None;
        if let SiteKind::Store { value, mask, .. } = spec.kind {
            operands.push(value);
            opmask = mask;
        }
        for o in operands {
            if self.cur.checked.contains(&o) {
                continue;
            }
            if opmask.is_none() && self.implied(o, 0) {
                self.cur.checked.insert(o);
                continue;
            }
            // An operand that is the site itself (the old value of an atomicrmw) is
            // tested after it.
            self.at(if o == i { ir::next_instruction(i) } else { at });
            self.test(o, opmask);
            if opmask.is_none() {
                self.cur.checked.insert(o);
            }
        }
        if let Some(r) = spec.result {
            self.at(ir::next_instruction(i));
            let mask = match spec.kind {
                SiteKind::Load { mask, .. } => mask,
                _ => None,
            };
            self.test(r, mask);
            if mask.is_none() {
                // Tested in all lanes; a masked load's result was only tested in the
                // loaded lanes, a later use may see the others.
                self.cur.checked.insert(r);
            }
        }
        self.cur.sites.push(i);
        self.stats.sites_instrumented += 1;
    }

    /// Whether the group's filter already covers `v`: a move (select, shuffle, element
    /// insert/extract, freeze, FP bitcast) of the group whose FP inputs are tested in
    /// it or are normal constants. The filter asks whether *any* tested lane is
    /// denormal, and every lane of a move is some lane of its inputs.
    fn implied(&self, v: V, depth: u32) -> bool {
        if depth > 8 || !ir::is_instruction(v) || !self.cur.insts.contains(&v) {
            return false;
        }
        let inputs: &[u32] = match ir::opcode(v) {
            Op::LLVMSelect => &[1, 2],
            Op::LLVMShuffleVector | Op::LLVMInsertElement => &[0, 1],
            Op::LLVMExtractElement | Op::LLVMFreeze => &[0],
            Op::LLVMBitCast if fptype::is_fp(ir::type_of(ir::operand(v, 0))) => &[0],
            _ => return false,
        };
        inputs.iter().all(|&k| {
            let o = ir::operand(v, k);
            ir::is_undef_like(o)
                || (ir::is_constant(o) && ir::is_zero_const(self.lane_mask(o)))
                || self.cur.checked.contains(&o)
                || self.implied(o, depth + 1)
        })
    }

    /// Add FP value `v` (the lanes in `mask`, if any) to the group's filter.
    fn test(&mut self, v: V, mask: Option<V>) {
        if ir::is_undef_like(v) {
            return;
        }
        if ir::is_constant(v) {
            // Decided now: a normal constant never needs the cold region, a denormal
            // one always does.
            let m = self.lane_mask(v);
            if !ir::is_zero_const(m) {
                self.cur.force = true;
            }
            return;
        }
        self.stats.checks += 1;
        let (key, kind, acc, prev) = self.accumulate(v, mask, &self.cur.acc);
        self.cur.acc.insert(key, (acc, kind));
        self.cur.tests.push(TestRec {
            v,
            key,
            kind,
            mask,
            acc,
            prev,
        });
    }

    /// One more link of a filter chain in `accs` for non-constant FP value `v` (the
    /// lanes in `mask`, if any): returns the filter it belongs to, the FP format, the
    /// new link and the previous one (none for the first link of an integer filter).
    pub(super) fn accumulate(
        &self,
        v: V,
        mask: Option<V>,
        accs: &BTreeMap<AccKey, (V, FpKind)>,
    ) -> (AccKey, FpKind, V, Option<V>) {
        let ir = self.ir;
        let t = ir::type_of(v);
        let (k, n) = fptype::fp_shape(t)
            .ok()
            .flatten()
            .expect("pre-check: supported FP value");
        let vec_n = if ir::is_vector(t) { n } else { 0 };
        let it = ir.int_ty(k.bits);
        let c = |x: u128| ir.cvec(ir.cwide(it, x), vec_n);
        let bits = ir.bitcast(v, if vec_n > 0 { ir.vec(it, n) } else { it });
        let a = ir.and(bits, c(k.abs_mask()));
        // u = abs - 1: denormals → [0, mant), zeros → all ones (ignored by the minimum).
        let u = ir.add(a, c(u128::MAX >> (128 - k.bits)));
        if vec_n > 0 && (k == fptype::FLOAT || k == DOUBLE) {
            let key = AccKey::Fp {
                bits: k.bits,
                lanes: n,
            };
            let u = ir.bitcast(u, t);
            let inf = ir.cvec(
                // SAFETY: `t` is a float or double vector type here: its element type is FP.
                unsafe { LLVMConstReal(ir::element_type(t), f64::INFINITY) },
                n,
            );
            let u = match mask {
                Some(m) => ir.select(m, u, inf),
                None => u,
            };
            let prev = accs.get(&key).map_or(inf, |x| x.0);
            // `u < prev ? u : prev` is x86's `minps u, prev`: a NaN `u` keeps `prev`.
            let lt = ir.fcmp(RP::LLVMRealOLT, u, prev);
            (key, k, ir.select(lt, u, prev), Some(prev))
        } else {
            let key = AccKey::Int {
                bits: k.bits,
                lanes: n,
            };
            let ones = c(u128::MAX >> (128 - k.bits));
            let u = match mask {
                Some(m) => ir.select(m, u, ones),
                None => u,
            };
            let prev = accs.get(&key).map(|x| x.0);
            let acc = match prev {
                Some(prev) => {
                    let (f, ft) = ir.intrinsic("llvm.umin", &[ir::type_of(u)]);
                    ir.call(ft, f, &[prev, u])
                }
                None => u,
            };
            (key, k, acc, prev)
        }
    }

    /// Whether the group's filter saw a value with `0 < |v| < 2^e` (`e`: the format's
    /// smallest normal exponent, or larger for the inputs of covered values, see
    /// [`cover`](Self::cover); `None` for formats that are not covered): `i1`.
    pub(super) fn filter_result(&self, key: AccKey, acc: V, k: FpKind, e: Option<i32>) -> V {
        let ir = self.ir;
        let t = ir::type_of(acc);
        let vec_n = if ir::is_vector(t) {
            ir::vector_len(t)
        } else {
            0
        };
        let m = match key {
            AccKey::Fp { .. } => {
                let et = ir::element_type(t);
                let (emin, _) = k.coverable().expect("float or double filter");
                let min = 2f64.powi(e.unwrap_or(emin));
                // acc < 2^e: exact without DAZ except that ±2^e itself passes (a
                // harmless false positive); with DAZ the denormal `u`s read as 0 and
                // still pass.
                ir.fcmp(
                    RP::LLVMRealOLT,
                    acc,
                    // SAFETY: `et` is the FP element type of the vector accumulator `acc`
                    // (`AccKey::Fp` keys are made for float and double vectors only).
                    ir.cvec(unsafe { LLVMConstReal(et, min) }, vec_n),
                )
            }
            AccKey::Int { bits, .. } => {
                let it = ir.int_ty(bits);
                // u = |v| - 1 <u 2^e - 1.
                let limit = match e {
                    Some(e) => k.pow2_bits(e) - 1,
                    None => k.mant_mask,
                };
                ir.icmp(IP::LLVMIntULT, acc, ir.cvec(ir.cwide(it, limit), vec_n))
            }
        };
        ir.reduce_or(m)
    }

    pub(super) fn close_group(&mut self, t: V) -> Result<(), String> {
        let ir = self.ir;
        let mut cur = std::mem::take(&mut self.cur);
        if cur.sites.is_empty() {
            return Ok(());
        }
        let limits = if cur.force {
            HashMap::new()
        } else {
            self.cover(&mut cur)
        };
        self.at(t);
        let mut any = ir.cint(ir.i1, cur.force as u64);
        let mut raised = false;
        if !cur.force {
            for (&key, &(acc, k)) in cur.acc.iter() {
                let e = k.coverable().map(|(emin, _)| {
                    let e = limits.get(&key).copied().unwrap_or(emin);
                    raised |= e > emin;
                    e
                });
                let r = self.filter_result(key, acc, k, e);
                any = ir.or(any, r);
            }
        }
        if ir::is_zero_const(any) {
            // Only constant, normal operands: these sites can never see a denormal.
            return Ok(());
        }
        let any = ir.freeze(any);
        let head = ir::block_of(t);
        // SAFETY: `t` is a live instruction of the function and `any` an `i1` computed before it.
        let cold_bb = unsafe { ffi::tp_split_if_then(any, t) };
        let tail = ir::block_of(t);
        let mut cold = Cold {
            insts: cur.insts,
            clones: HashMap::new(),
            tags: HashMap::new(),
            term: ir::terminator(cold_bb),
        };
        let skip = if raised {
            // A raised threshold also lets through values in [2^-126, 2^e): first ask
            // exactly, and leave at once when nothing is denormal (the region's
            // per-site code costs several times this test).
            self.at(cold.term);
            let exact = self.exact_any(&cur.tests, &mut cold);
            // SAFETY: `cold.term` is the region's `br tail`; the split puts it in a
            // block of its own whose only other entry is the one redirected here.
            unsafe {
                ffi::tp_split_if_then_weighted(exact, cold.term, 1);
                LLVMSetSuccessor(ir::terminator(cold_bb), 1, tail);
            }
            self.stats.exact_retests += 1;
            Some(cold_bb)
        } else {
            None
        };
        // The marked-array table's generation, for every inline memory cache of the
        // region: read once here rather than at each probe (an atomic load is never
        // merged). A region runs no code that changes the table.
        self.region_gen = (!self.profile && self.group_has_memory_site(&cur.sites)).then(|| {
            self.at(cold.term);
            ir.load_atomic(ir.i64, self.rt.ranges_gen, 8)
        });
        for &s in &cur.sites {
            self.emit_cold(s, &mut cold)?;
        }
        self.region_gen = None;
        let cold_end = ir::block_of(cold.term);
        let gid = self.groups.len();
        let mut tags = HashMap::new();
        for &s in &cur.sites {
            if let Some(r) = self.plan.sites[&s].spec.result {
                if let Some(&tg) = cold.tags.get(&r) {
                    tags.insert(r, tg);
                }
                self.site_group.insert(r, gid);
            }
        }
        self.groups.push(Closed {
            head,
            skip,
            tail,
            cold_end,
            tags,
        });
        self.stats.cold_regions += 1;
        self.at(t);
        Ok(())
    }
}

impl DnFn<'_> {
    /// Whether sites `sites` include a contiguous load or store with an inline memory
    /// cache (inline words: `FpSiteDesc::counters`).
    fn group_has_memory_site(&self, sites: &[V]) -> bool {
        sites.iter().any(|s| {
            self.plan.sites.get(s).is_some_and(|p| {
                matches!(
                    p.spec.kind,
                    SiteKind::Load { gather: false, .. } | SiteKind::Store { scatter: false, .. }
                ) && self
                    .d
                    .sites
                    .get(p.first_desc)
                    .is_some_and(|d| d.counters != abi::FPSITE_NO_COUNTERS)
            })
        })
    }
}
