//! Denormal instrumentation of one function.
//!
//! ## Fast path
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
//! Not every value is tested: a sum, difference, negation or constant multiple of
//! values tested in the group is *covered* by their tests, whose threshold is raised to
//! match (see [`DnFn::cover`]); a cold region entered through a raised threshold first
//! re-tests every value exactly and leaves when nothing is denormal.
//!
//! ## Cold region
//!
//! The cold region recomputes what it needs instead of keeping values alive on the fast
//! path: pure instructions and simple loads of the group are cloned (*rematerialized*;
//! the group contains no writes, so a cloned load reads what the original read). Then,
//! site by site in program order, it computes the exact lane masks, and if a site has a
//! denormal operand or result: an operation site updates its three inline counters
//! (`FpSiteDesc::counters`, in this thread's block counters) and computes its result
//! tags with selects, with no call (`count_op_inline`, `op_tags_inline`; a call per
//! operation and the spills around it were most of the cold cost). A contiguous float
//! or double load or store first probes its inline memory cache (`mem_probe`: the
//! array window, creator and origin the runtime saw last time, in the site's words of
//! the block counters) and on a hit counts and tags inline (`mem_hit`); otherwise, and
//! for gathers, scatters and other types, it calls `__tpd_load`/`__tpd_store` with the
//! tags in a stack buffer (they need the marked-array registry; the hook refills the
//! cache). Counts are exact although the fast-path test is shared: a site is counted
//! only when its own masks are non-zero. `TAINTPROF_DN_INLINE_OPS=0` calls the hooks
//! for everything (the reference); `TAINTPROF_DN_INLINE_MEM=0` only for memory.
//!
//! ## Tags
//!
//! Tags are SSA values (`i64`, `<N x i64>` for vectors, one collapsed `i64` for
//! aggregates holding FP), created on demand and only for values some consumer needs:
//! a site result's tag is the cold region's, seen after the group through a PHI
//! `[0, fast], [t, cold]`; phis, selects, shuffles and element moves of FP values move
//! tags; parameters and call results read the thread-local slots. Consumers (hooks,
//! argument and return slots) only rely on a tag while its value is denormal, and the
//! hooks receive tags masked by the denormal lanes, so a stale or over-approximated tag
//! of a normal value is never used.
//!
//! ## Calls
//!
//! The caller stores the tags of the FP arguments in `__tpd_arg_tags_tls[i]` (vector:
//! first non-zero lane tag) and itself in `__tp_callee_tls` — unless every argument tag
//! is the constant 0, when it stores null there instead (one store; the callee then
//! reads zeros, never a stale slot). An instrumented function returning FP always
//! stores its return tag; the caller clears the slot first when the callee might not
//! be instrumented, and reads it after the call.

use super::classify::{self, SiteKind, SiteSpec, CHUNK};
use super::fptype::{self, FpKind, DOUBLE};
use super::runtime::DnRuntime;
use super::{DnStats, FnPlan};
use crate::abilist::{AbiList, Kind};
use crate::ffi;
use crate::ir::{self, Ir, B, T, V};
use crate::taint::calls::{call_kind, CallKind};
use crate::taint::prepare::{inst_error, Prepared};
use crate::taint::runtime::Hook;
use crate::taint::MEMORY_ATTRS;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMIntPredicate as IP;
use inkwell::llvm_sys::LLVMOpcode as Op;
use inkwell::llvm_sys::LLVMRealPredicate as RP;
use inkwell::llvm_sys::LLVMTypeKind as K;
use std::collections::{BTreeMap, HashMap, HashSet};
use taintprof_abi as abi;

/// Largest operand tag buffer: `[MAX_OPERANDS * CHUNK x i64]`; result tags:
/// `[CHUNK x i64]` (each function allocates what its widest site needs).
const OPTAGS: u64 = (classify::MAX_OPERANDS as u64) * CHUNK as u64;
const RESTAGS: u64 = CHUNK as u64;

/// A closed group: where its cold region joins the fast path.
struct Closed {
    head: B,
    /// The start of the cold region when it first re-tests exactly (after a raised
    /// threshold, see [`DnFn::cover`]); it also branches to `tail`, with tags 0.
    skip: Option<B>,
    tail: B,
    cold_end: B,
    /// Tags of the group's site results at the end of the cold region.
    tags: HashMap<V, V>,
}

/// How a group's fast-path filter accumulates the values it tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum AccKey {
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
struct TestRec {
    v: V,
    key: AccKey,
    kind: FpKind,
    /// The lanes tested, for masked loads and stores (never a coverage input).
    mask: Option<V>,
    /// The filter after and before this value.
    acc: V,
    prev: Option<V>,
}

/// The group being collected.
#[derive(Default)]
struct Open {
    sites: Vec<V>,
    checked: HashSet<V>,
    tests: Vec<TestRec>,
    /// The filters, with the FP format of each.
    acc: BTreeMap<AccKey, (V, FpKind)>,
    /// A site has a denormal constant operand: the cold region always runs.
    force: bool,
    /// Original instructions of the group (the rematerialization scope).
    insts: HashSet<V>,
}

/// State of one cold region while it is emitted.
struct Cold {
    insts: HashSet<V>,
    clones: HashMap<V, V>,
    /// Tags computed in the region (site results, moves of the group's values).
    tags: HashMap<V, V>,
    /// The region's closing `br` (moves to the newest block on each inner split).
    term: V,
}

pub struct DnFn<'a> {
    ir: &'a Ir,
    rt: &'a DnRuntime,
    d: &'a mut super::desc::DnDescs,
    stats: &'a mut DnStats,
    p: &'a Prepared,
    plan: &'a FnPlan,
    list: &'a AbiList,
    /// Functions instrumented in this module (their return tag is always written).
    instrumented: &'a HashSet<V>,
    f: V,
    /// Original instructions of reachable blocks.
    live: HashSet<V>,
    /// Original blocks that are unreachable (never split).
    unreachable: HashSet<B>,
    /// Lazily computed parameter tags and the call-site check go before this marker
    /// (right after the prologue); it is deleted at the end.
    anchor: V,
    /// Where code is being inserted (restored after out-of-line insertions).
    pos: V,
    canary: Option<V>,
    counters: Option<V>,
    bufs: Option<(V, V)>,
    /// Position-independent tags (parameters, call results, tag PHIs, group joins).
    ext: HashMap<V, V>,
    pending_phis: Vec<(V, V)>,
    tag_phis: Vec<V>,
    site_group: HashMap<V, usize>,
    groups: Vec<Closed>,
    /// Vector join PHIs → (group, cold tag), so that collapsing one (for a call slot
    /// or `ret`) happens in the cold region, not on the fast path.
    joins: HashMap<V, (usize, V)>,
    collapsed: HashMap<V, V>,
    cur: Open,
    /// Stores tested with the group before an earlier store (see `merge_stores`).
    merged: HashSet<V>,
    /// Inline-cache misses call the register-preserving hook entries (x86-64 code
    /// without AVX, see [`keepregs_allowed`]).
    keepregs: bool,
    /// Fast-path coverage ([`DnFn::cover`], `Config::dn_cover`).
    cover_on: bool,
    pub warnings: Vec<String>,
}

impl<'a> DnFn<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ir: &'a Ir,
        rt: &'a DnRuntime,
        d: &'a mut super::desc::DnDescs,
        stats: &'a mut DnStats,
        p: &'a Prepared,
        plan: &'a FnPlan,
        list: &'a AbiList,
        instrumented: &'a HashSet<V>,
    ) -> DnFn<'a> {
        let f = p.f;
        DnFn {
            ir,
            rt,
            d,
            stats,
            p,
            plan,
            list,
            instrumented,
            f,
            live: HashSet::new(),
            unreachable: HashSet::new(),
            anchor: std::ptr::null_mut(),
            pos: std::ptr::null_mut(),
            canary: None,
            counters: None,
            bufs: None,
            ext: HashMap::new(),
            pending_phis: Vec::new(),
            tag_phis: Vec::new(),
            site_group: HashMap::new(),
            groups: Vec::new(),
            joins: HashMap::new(),
            collapsed: HashMap::new(),
            cur: Open::default(),
            merged: HashSet::new(),
            keepregs: keepregs_allowed(f),
            cover_on: true,
            warnings: Vec::new(),
        }
    }

    /// Turn fast-path coverage ([`DnFn::cover`]) on or off.
    pub fn with_cover(mut self, on: bool) -> Self {
        self.cover_on = on;
        self
    }

    /// Calls the memory hook `plain`, or its register-preserving entry `keep` where
    /// allowed (cold: only when an inline cache misses).
    fn miss_call(&self, plain: Hook, keep: Hook, args: &[V]) {
        let ir = self.ir;
        if self.keepregs {
            let c = ir.call(keep.ty, keep.f, args);
            // SAFETY: a call we just built.
            unsafe { LLVMSetInstructionCallConv(c, abi::CC_PRESERVE_ALL) };
        } else {
            ir.call(plain.ty, plain.f, args);
        }
    }

    /// Insert before `i` from now on.
    fn at(&mut self, i: V) {
        self.pos = i;
        self.ir.before(i);
    }

    fn restore(&self) {
        self.ir.before(self.pos);
    }

    pub fn run(mut self) -> Result<Vec<String>, String> {
        let rpo = self.p.an.cfg.reverse_post_order();
        let reach: HashSet<usize> = rpo.iter().copied().collect();
        for (n, &b) in self.p.an.blocks.iter().enumerate() {
            if !reach.contains(&n) {
                self.unreachable.insert(b);
            }
        }
        let work: Vec<(B, Vec<V>)> = rpo
            .iter()
            .map(|&b| (self.p.an.blocks[b], ir::instructions(self.p.an.blocks[b])))
            .collect();
        for (_, insts) in &work {
            self.live.extend(insts.iter().copied());
        }
        let originals: HashSet<V> = ir::blocks(self.f)
            .into_iter()
            .flat_map(ir::instructions)
            .collect();
        self.prologue();
        let entry = ir::entry_block(self.f);
        for (b, insts) in &work {
            if let Some(&idx) = self.plan.counters.get(b) {
                let ip = if *b == entry {
                    self.anchor
                } else {
                    ir::first_insertion_point(*b)
                };
                self.at(ip);
                self.count_block(idx);
            }
            for &i in insts {
                self.visit(i)?;
            }
            debug_assert!(self.cur.sites.is_empty());
        }
        self.fill_phis();
        self.memory_objects()?;
        self.remove_zero_phis();
        unsafe { LLVMInstructionEraseFromParent(self.anchor) };
        let mut ours: Vec<V> = ir::blocks(self.f)
            .into_iter()
            .flat_map(ir::instructions)
            .filter(|i| !originals.contains(i))
            .collect();
        let removed = unsafe { ffi::tp_simplify(ours.as_mut_ptr(), ours.len() as u32) };
        self.stats.simplified += removed as usize;
        Ok(self.warnings)
    }

    // ----- prologue -----

    fn prologue(&mut self) {
        let ir = self.ir;
        // The function now calls hooks and touches thread-local slots: inferred
        // `memory(...)` claims are no longer true.
        for a in MEMORY_ATTRS {
            ir.remove_fn_attr(self.f, a);
        }
        let entry = ir::entry_block(self.f);
        let mut ip = unsafe { LLVMGetFirstInstruction(entry) };
        if let Some((op_slots, res_slots)) = self.plan.buffer_slots() {
            // Tag buffers of the cold paths: static allocas at the very top.
            debug_assert!(op_slots <= OPTAGS && res_slots <= RESTAGS);
            ir.before(ip);
            let o = ir.alloca(ir.array_ty(ir.i64, op_slots));
            let r = ir.alloca(ir.array_ty(ir.i64, res_slots));
            unsafe {
                LLVMSetAlignment(o, 16);
                LLVMSetAlignment(r, 16);
            }
            self.bufs = Some((o, r));
        }
        while !ip.is_null() && ir::opcode(ip) == Op::LLVMAlloca {
            ip = ir::next_instruction(ip);
        }
        if !self.plan.counters.is_empty() {
            self.at(ip);
            // counters = __tpd_counters_tls ?: __tpd_thread_counters()
            let c0 = ir.load(ir.ptr, self.rt.counters_tls, 8);
            let null = ir.icmp_eq(c0, ir.null_ptr());
            let head = ir::block_of(ip);
            let cold = unsafe { ffi::tp_split_if_then(null, ip) };
            ir.at_end(cold);
            let th = self.rt.thread_counters;
            let c1 = ir.call(th.ty, th.f, &[]);
            self.ir
                .before_with_records(ir::first_non_phi(ir::block_of(ip)));
            let c = ir.phi(ir.ptr);
            ir.add_incoming(c, c0, head);
            ir.add_incoming(c, c1, cold);
            // base = module.base; unregistered (a constructor of another module ran
            // this code before ours) → register now.
            self.at(ip);
            let bp = self.d.base_ptr(ir);
            let b0 = ir.load_atomic(ir.i64, bp, 8);
            let unreg = ir.icmp_eq(b0, ir.c64(abi::DN_BASE_UNREGISTERED));
            let head = ir::block_of(ip);
            let cold = unsafe { ffi::tp_split_if_then(unreg, ip) };
            ir.at_end(cold);
            let reg = self.rt.register_module;
            ir.call(reg.ty, reg.f, &[self.d.module()]);
            let b1 = ir.load_atomic(ir.i64, bp, 8);
            self.ir
                .before_with_records(ir::first_non_phi(ir::block_of(ip)));
            let b = ir.phi(ir.i64);
            ir.add_incoming(b, b0, head);
            ir.add_incoming(b, b1, cold);
            self.at(ip);
            let cb = ir.gep(ir.i64, c, &[b]);
            self.counters = Some(cb);
        }
        self.at(ip);
        self.anchor = ir.freeze(ir.poison(ir.i1));
        self.pos = self.anchor;
    }

    /// `counters[base + idx] += 1` (per-thread memory: no atomics).
    fn count_block(&mut self, idx: u32) {
        let ir = self.ir;
        let cb = self.counters.expect("prologue made the counter pointer");
        let p = ir.gep(ir.i64, cb, &[ir.c64(idx as u64)]);
        let v = ir.load(ir.i64, p, 8);
        ir.store(ir.add(v, ir.c64(1)), p, 8);
    }

    // ----- visiting -----

    fn visit(&mut self, i: V) -> Result<(), String> {
        let op = ir::opcode(i);
        if op == Op::LLVMPHI || op == Op::LLVMLandingPad {
            return Ok(());
        }
        let site = self.plan.sites.get(&i);
        if let (Op::LLVMAtomicRMW, Some(s)) = (op, site) {
            // A read-modify-write of FP memory: the old value exists only after it.
            // The group before it ends here; it forms a group of its own, tested right
            // after it (nothing in it is executed again in the cold region).
            let spec = s.spec.clone();
            let next = ir::next_instruction(i);
            self.close_group(i)?;
            self.cur.insts.insert(i);
            self.add_site(i, &spec, i);
            return self.close_group(next);
        }
        if self.ends_group(i, site.map(|s| &s.spec)) {
            if let Some(s) = site {
                if !self.merged.contains(&i) {
                    let spec = s.spec.clone();
                    self.add_site(i, &spec, i);
                    self.merge_stores(i);
                }
            }
            self.close_group(i)?;
            if let Some(&src) = self.plan.pair_copies.get(&i) {
                self.float_pair_copy(i, src);
            }
            self.after_close(i)?;
        } else {
            self.cur.insts.insert(i);
            if let Some(s) = site {
                let spec = s.spec.clone();
                self.add_site(i, &spec, i);
            }
        }
        Ok(())
    }

    /// A group's test runs before its first store `w`. The FP stores that follow `w`
    /// (with only pure, non-FP-site instructions in between) and whose operands are
    /// already computed before `w` join the group: their values are tested with it and
    /// their hooks run in its cold region, in program order, before any of the stores
    /// executes (the hooks write shadow tags only). A vectorized loop body with several
    /// stores then has one branch, not one per store.
    fn merge_stores(&mut self, w: V) {
        let mut x = ir::next_instruction(w);
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
    fn ends_group(&self, i: V, site: Option<&SiteSpec>) -> bool {
        match (ir::opcode(i), site) {
            (Op::LLVMCall, Some(s)) => matches!(s.kind, SiteKind::Store { .. }),
            _ => classify::may_write_memory(i) || unsafe { !LLVMIsATerminatorInst(i).is_null() },
        }
    }

    /// The FP values a site tests: operands (and the stored value) before `at`, the
    /// result right after the site.
    fn add_site(&mut self, i: V, spec: &SiteSpec, at: V) {
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
    fn accumulate(
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
    fn filter_result(&self, key: AccKey, acc: V, k: FpKind, e: Option<i32>) -> V {
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

    /// Fast-path coverage: take out of the group's filter the values the filter
    /// already proves normal, and return the threshold exponent each filter then
    /// needs.
    ///
    /// A float is a multiple of `2^g` if it is zero or `|v| >= 2^(g+23)` (double:
    /// `+52`): its last mantissa bit is worth at least `2^g`. Sums and differences
    /// of multiples of `2^g` are multiples of `2^g`, and rounding keeps them so (the
    /// exact result is representable below `2^(g+24)`, and above it the rounded
    /// float's last bit is worth more); a product with a constant `m·2^k` (`m` odd)
    /// is a multiple of `2^(g+k)`. A non-zero multiple of `2^-126` is normal. So
    /// when the filter tests the inputs of `r = a + b` with the threshold `2^(g+23)`
    /// for `g >= -126` instead of `2^-126`, `r` cannot be denormal if the filter
    /// passes, and `r` needs no test of its own. Chains work backwards: in
    /// `0.25 * ((a + b) + c)` only `a`, `b` and `c` are tested, against `2^-101`.
    ///
    /// Only the fast path changes: the cold region tests every value exactly, so
    /// counts are the same; a larger threshold only sends values in
    /// `[2^-126, 2^e)` to the cold region, which finds nothing there. Inputs must be
    /// tested in every lane in this group; the threshold is capped at
    /// `COVER_RAISE` above the plain one.
    fn cover(&mut self, cur: &mut Open) -> HashMap<AccKey, i32> {
        let mut limits: HashMap<AccKey, i32> = HashMap::new();
        let index: HashMap<V, usize> = cur
            .tests
            .iter()
            .enumerate()
            .filter(|(_, t)| t.mask.is_none() && t.kind.coverable().is_some())
            .map(|(i, t)| (t.v, i))
            .collect();
        let mut need: HashMap<V, i32> = HashMap::new();
        let mut covered: Vec<usize> = Vec::new();
        for (idx, t) in cur.tests.iter().enumerate().rev() {
            let Some((emin, mant)) = t.kind.coverable() else {
                continue;
            };
            let needed = need.get(&t.v).copied();
            if self.cover_on && t.mask.is_none() {
                let g = needed.map_or(emin, |n| n.max(emin));
                if let Some(inputs) = cover_inputs(t.v, &cur.insts) {
                    let ok = inputs.iter().all(|&(o, k)| {
                        let want = g.saturating_sub(k);
                        if ir::is_constant(o) {
                            const_granularity(o).is_some_and(|cg| cg >= want)
                        } else {
                            index.get(&o).is_some_and(|&j| j < idx) && want <= emin + COVER_RAISE
                        }
                    });
                    if ok {
                        for &(o, k) in &inputs {
                            if !ir::is_constant(o) {
                                let want = g.saturating_sub(k);
                                let e = need.entry(o).or_insert(want);
                                *e = (*e).max(want);
                            }
                        }
                        covered.push(idx);
                        continue;
                    }
                }
            }
            let e = needed.map_or(emin, |n| (n + mant).max(emin));
            let l = limits.entry(t.key).or_insert(emin);
            *l = (*l).max(e);
        }
        // Unlink the covered tests from their filter chains (latest first, so that a
        // replaced link is replaced again if it was covered too).
        let mut replaced: HashMap<V, V> = HashMap::new();
        for &idx in &covered {
            let t = &cur.tests[idx];
            let ir = self.ir;
            let prev = t.prev.unwrap_or_else(|| {
                let ty = ir::type_of(t.acc);
                let AccKey::Int { .. } = t.key else {
                    unreachable!("float filters start at infinity")
                };
                // umin's neutral element.
                ir.cvec(
                    ir.cwide(ir.int_ty(t.kind.bits), u128::MAX >> (128 - t.kind.bits)),
                    if ir::is_vector(ty) {
                        ir::vector_len(ty)
                    } else {
                        0
                    },
                )
            });
            // SAFETY: `acc` is an instruction this pass made for the filter; its only
            // users are the next link and (for the last) nothing but `cur.acc`.
            unsafe { LLVMReplaceAllUsesWith(t.acc, prev) };
            replaced.insert(t.acc, prev);
            self.erase_dead(t.acc, &[t.v, prev]);
            self.stats.checks -= 1;
            self.stats.covered += 1;
        }
        for (acc, _) in cur.acc.values_mut() {
            while let Some(&p) = replaced.get(acc) {
                *acc = p;
            }
        }
        limits
    }

    /// Whether any value the group's filter was asked about (covered or not) is
    /// denormal in a tested lane, computed at the start of the cold region with the
    /// plain thresholds: `i1`. Its values are cloned for this test alone (the site code
    /// clones its own), so that none of them stays alive across the region.
    fn exact_any(&mut self, tests: &[TestRec], c: &Cold) -> V {
        let ir = self.ir;
        let mut own = Cold {
            insts: c.insts.clone(),
            clones: HashMap::new(),
            tags: HashMap::new(),
            term: c.term,
        };
        let mut accs: BTreeMap<AccKey, (V, FpKind)> = BTreeMap::new();
        for t in tests {
            let v = self.cold_value(t.v, &mut own);
            let mask = t.mask.map(|m| self.cold_value(m, &mut own));
            ir.before(c.term);
            let (key, kind, acc, _) = self.accumulate(v, mask, &accs);
            accs.insert(key, (acc, kind));
        }
        let mut any = ir.cint(ir.i1, 0);
        for (key, (acc, k)) in accs {
            let r = self.filter_result(key, acc, k, None);
            any = ir.or(any, r);
        }
        ir.freeze(any)
    }

    /// Erase `x` and the instructions that fed only it, down to (not including) the
    /// values in `keep` (the tested value, the previous link of the filter, which has
    /// no user when `x` was the last) and anything of the original function.
    fn erase_dead(&self, x: V, keep: &[V]) {
        let mut work = vec![x];
        let mut erased: HashSet<V> = HashSet::new();
        while let Some(i) = work.pop() {
            if erased.contains(&i)
                || keep.contains(&i)
                || self.live.contains(&i)
                || !ir::is_instruction(i)
            {
                continue;
            }
            // SAFETY: instructions of this function; erased only when unused.
            unsafe {
                if !LLVMGetFirstUse(i).is_null() {
                    continue;
                }
                let n = ir::num_operands(i);
                let ops: Vec<V> = (0..n).map(|k| ir::operand(i, k)).collect();
                LLVMInstructionEraseFromParent(i);
                erased.insert(i);
                work.extend(ops);
            }
        }
    }

    /// Per-lane `isdenorm(v)`: `i1` or `<N x i1>`.
    fn lane_mask(&self, v: V) -> V {
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

    // ----- groups -----

    fn close_group(&mut self, t: V) -> Result<(), String> {
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
            let exact = self.exact_any(&cur.tests, &cold);
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
        for &s in &cur.sites {
            self.emit_cold(s, &mut cold)?;
        }
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

    /// The value of `v` usable in the cold region: a clone for the group's pure
    /// instructions and simple loads, else `v` itself.
    fn cold_value(&mut self, v: V, c: &mut Cold) -> V {
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
                unsafe { LLVMSetOperand(x, k as u32, o) };
            }
        }
        c.clones.insert(v, x);
        self.stats.rematerialized += 1;
        x
    }

    fn rematerializable(&self, v: V) -> bool {
        match ir::opcode(v) {
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
            | Op::LLVMTrunc
            | Op::LLVMZExt
            | Op::LLVMSExt
            | Op::LLVMFPToUI
            | Op::LLVMFPToSI
            | Op::LLVMUIToFP
            | Op::LLVMSIToFP
            | Op::LLVMFPTrunc
            | Op::LLVMFPExt
            | Op::LLVMPtrToInt
            | Op::LLVMIntToPtr
            | Op::LLVMBitCast
            | Op::LLVMAddrSpaceCast
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
            _ => false,
        }
    }

    fn bufs(&self) -> (V, V) {
        self.bufs.expect("functions with sites have tag buffers")
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
    /// 0), as `i64` when `n == 1` or the value is scalar.
    fn chunk(&self, v: V, off: u32, n: u32, zero: V) -> V {
        let t = ir::type_of(v);
        if !ir::is_vector(t) {
            return if off == 0 { v } else { zero };
        }
        self.lanes_of(v, off, n)
    }

    /// Store `t` (tag chunk: `i64` or `<n x i64>`) at `buf[slot]`.
    fn store_tags(&self, buf: V, slot: u64, t: V) {
        let ir = self.ir;
        let p = ir.gep(ir.i64, buf, &[ir.c64(slot)]);
        ir.store(t, p, 8);
    }

    /// The cold code of site `i`. Everything the hooks need (rematerialized values,
    /// lane masks, operand tags) is computed on the region's spine, before `c.term`,
    /// where it dominates the rest of the region; only the buffer stores, the hook call
    /// and the result-tag load sit in the conditional hook block.
    fn emit_cold(&mut self, i: V, c: &mut Cold) -> Result<(), String> {
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
            let need = ir.freeze(need);
            let hook_bb = unsafe { ffi::tp_split_if_then(need, c.term) };
            let term = ir::terminator(hook_bb);
            self.at(term);
            // An operation site with inline counters needs no hook; a load or store with
            // them calls it only when its inline cache misses.
            let ctr = Some(self.d.sites[first + ch as usize].counters)
                .filter(|&c| c != abi::FPSITE_NO_COUNTERS);
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
                SiteKind::Op if inline_ctr.is_some() => {
                    let ctr = inline_ctr.unwrap_or(abi::FPSITE_NO_COUNTERS);
                    let vec =
                        spec.lanes > 1 || op_lms.iter().any(|&m| ir::is_vector(ir::type_of(m)));
                    let (ms, ts) = self.op_chunks(&op_lms, &op_tags, off, n, vec);
                    let rm = subject_lm.map(|lm| self.chunk(lm, off, n, ir.cint(ir.int_ty(1), 0)));
                    self.count_op_inline(ctr, &ms, rm, vec, n);
                    if let (Some(_), Some(rm)) = (spec.result, rm) {
                        let creator = self.d.creator_ptr(ir, first + ch as usize);
                        let known: Vec<bool> = spec
                            .operands
                            .iter()
                            .map(|&o| self.creator_known(o, &mut HashSet::new()))
                            .collect();
                        result_tags =
                            Some(self.op_tags_inline(creator, rm, &ms, &ts, &known, vec, n));
                    }
                }
                SiteKind::Op => {
                    for (k, &t) in op_tags.iter().enumerate() {
                        let tc = self.chunk(self.masked(t, op_lms[k]), off, n, ir.c64(0));
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
                    let head = ir::block_of(term);
                    let hit = self.mem_probe(ctr, site, p, lm, None, es);
                    let hit_bb = unsafe { ffi::tp_split_if_then_weighted(hit, term, 1) };
                    let hit_tags = self.mem_hit(ctr, p, lm, es, hit_bb, None);
                    let tail = ir::block_of(term);
                    ir.before_with_records(ir::first_non_phi(tail));
                    let t1 = ir.phi(ir::type_of(hit_tags));
                    ir.add_incoming(t1, hit_tags, hit_bb);
                    ir.add_incoming(t1, ir.null(ir::type_of(hit_tags)), head);
                    self.at(term);
                    let miss_bb = unsafe { ffi::tp_split_if_then(ir.not(hit), term) };
                    ir.at_end(miss_bb);
                    self.miss_call(
                        self.rt.load,
                        self.rt.load_keepregs,
                        &[site, p, resmask, restags],
                    );
                    let hook_tags = self.load_result_tags(restags, i, subject_lm.unwrap(), off, n);
                    let tail2 = ir::block_of(term);
                    ir.before_with_records(ir::first_non_phi(tail2));
                    let t2 = ir.phi(ir::type_of(hit_tags));
                    ir.add_incoming(t2, hook_tags, miss_bb);
                    ir.add_incoming(t2, t1, tail);
                    self.at(term);
                    result_tags = Some(t2);
                }
                SiteKind::Store { scatter: false, .. } if mem_ctr.is_some() => {
                    let ctr = mem_ctr.unwrap_or_default();
                    let p = addr(ptr.unwrap());
                    let lm = self.chunk(subject_lm.unwrap(), off, n, ir.cint(ir.i1, 0));
                    let tc = self.chunk(store_tags.unwrap(), off, n, ir.c64(0));
                    let hit = self.mem_probe(ctr, site, p, lm, Some(tc), es);
                    let hit_bb = unsafe { ffi::tp_split_if_then_weighted(hit, term, 1) };
                    self.mem_hit(ctr, p, lm, es, hit_bb, Some(tc));
                    self.at(term);
                    let miss_bb = unsafe { ffi::tp_split_if_then(ir.not(hit), term) };
                    ir.at_end(miss_bb);
                    self.store_tags(optags, 0, tc);
                    self.miss_call(
                        self.rt.store,
                        self.rt.store_keepregs,
                        &[site, p, resmask, optags],
                    );
                    self.at(term);
                }
                SiteKind::Load { gather, .. } => {
                    let p = ptr.unwrap();
                    let from = if *gather {
                        // The hook writes all `lanes` tags of each call (0 outside its
                        // mask): copy lane l's out right after its call.
                        self.per_lane(term, p, resmask, off, n, spec.fp, |s, base, bit, l| {
                            let h = s.rt.load;
                            s.ir.call(h.ty, h.f, &[site, base, bit, restags]);
                            let src = s.ir.gep(s.ir.i64, restags, &[s.ir.c64(l as u64)]);
                            let t = s.ir.load(s.ir.i64, src, 8);
                            let dst = s.ir.gep(s.ir.i64, optags, &[s.ir.c64(l as u64)]);
                            s.ir.store(t, dst, 8);
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
                    let tc = self.chunk(store_tags.unwrap(), off, n, ir.c64(0));
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

    /// Word `k` of the inline words at counter index `ctr` (this thread's block counters).
    fn word_ptr(&self, ctr: u32, k: u32) -> V {
        let ir = self.ir;
        let cb = self.counters.expect("functions with sites count blocks");
        ir.gep(ir.i64, cb, &[ir.c64(ctr as u64 + k as u64)])
    }

    fn word(&self, ctr: u32, k: u32) -> V {
        self.ir.load(self.ir.i64, self.word_ptr(ctr, k), 8)
    }

    /// Whether the inline cache of the load or store site `site` (words at `ctr`) holds
    /// for a chunk at `p` with denormal lanes `lm` (`i1` or `<n x i1>`): the table
    /// generation and the window match, and every denormal lane's tag matches (a load:
    /// the creator bits in shadow memory; a store with tags `store_tags`: the whole
    /// tag), so the hook would give every lane the same tag. The layout is
    /// `taintprof_abi`'s "Inline memory caches"; `fill_cache` in the runtime fills it.
    fn mem_probe(&self, ctr: u32, site: V, p: V, lm: V, store_tags: Option<V>, es: u64) -> V {
        let ir = self.ir;
        let vec = ir::is_vector(ir::type_of(lm));
        let n = if vec {
            ir::vector_len(ir::type_of(lm))
        } else {
            1
        };
        let wide = |c: V| if vec { ir.splat(c, n) } else { c };
        let site_i = ir.ptrtoint(site, ir.i64);
        let gen = ir.load_atomic(ir.i64, self.rt.ranges_gen, 8);
        let key_ok = ir.icmp_eq(self.word(ctr, abi::DN_C_KEY), ir.xor(gen, site_i));
        let pa = ir.ptrtoint(p, ir.i64);
        let rel = ir.sub(pa, self.word(ctr, abi::DN_C_LO));
        let in_window = ir.icmp(IP::LLVMIntULE, rel, self.word(ctr, abi::DN_C_LIMIT));
        let tt = if vec { ir.vec(ir.i64, n) } else { ir.i64 };
        // Loads match the creator bits of the shadow tags (mapped for every address);
        // stores the whole value tags. Lanes that are not denormal do not matter.
        let tags = match store_tags {
            Some(t) => t,
            None => ir.and(
                self.shadow_tags(p, tt, es).0,
                wide(ir.c64(abi::TAG_CREATOR_MASK)),
            ),
        };
        let want = self.word(ctr, abi::DN_C_MATCH);
        let differs = ir.xor(tags, wide(want));
        let differs = if store_tags.is_some() {
            // A store lane may also lack the origin (created right here): then it
            // differs from the match in the origin bits exactly.
            let origin_only = ir.and(want, ir.c64(!abi::TAG_CREATOR_MASK));
            let created = ir.icmp_eq(differs, wide(origin_only));
            ir.select(created, ir.null(tt), differs)
        } else {
            differs
        };
        let bad = ir.and(differs, ir.sext(lm, tt));
        let any_bad = ir.icmp_ne(ir.reduce_or(bad), ir.c64(0));
        let hit = ir.and(ir.and(key_ok, in_window), ir.not(any_bad));
        ir.freeze(hit)
    }

    /// What the hook does for a chunk whose cache holds (`mem_probe`): the element
    /// counters of the cached array (reads, or writes for a store), the creator count,
    /// the site's inline count; for a store (`store_tags`: the value's tags) the origin
    /// pair and its map for the lanes that have the origin, and the shadow tags of the
    /// denormal lanes. Emitted into block `bb` (it may be split). Returns the lanes'
    /// tags (what a load produces).
    fn mem_hit(&self, ctr: u32, p: V, lm: V, es: u64, bb: B, store_tags: Option<V>) -> V {
        let ir = self.ir;
        let at = ir::terminator(bb);
        ir.before(at);
        let vec = ir::is_vector(ir::type_of(lm));
        let n = if vec {
            ir::vector_len(ir::type_of(lm))
        } else {
            1
        };
        let wide = |c: V| if vec { ir.splat(c, n) } else { c };
        let (ct, tt) = if vec {
            (ir.vec(ir.i32, n), ir.vec(ir.i64, n))
        } else {
            (ir.i32, ir.i64)
        };
        let pa = ir.ptrtoint(p, ir.i64);
        let e = ir.lshr(
            ir.sub(pa, self.word(ctr, abi::DN_C_ARR_LO)),
            ir.c64(es.trailing_zeros() as u64),
        );
        // Byte offset of the element's u32 counter.
        let off = ir.shl(e, ir.c64(2));
        // Lane by lane, not one vector read-modify-write: neighbouring sites of a
        // stencil bump overlapping counters, and a vector load of a counter range a
        // vector store just partly wrote stalls (no store-to-load forwarding).
        let bump = |base: V, lanes: V| {
            let bits = if vec {
                ir.zext(ir.bitcast(lanes, ir.int_ty(n)), ir.i32)
            } else {
                ir.zext(lanes, ir.i32)
            };
            let cp = ir.gep_i8(ir.inttoptr(base, ir.ptr), off);
            for l in 0..n {
                let q = ir.gep(ir.i32, cp, &[ir.c64(l as u64)]);
                let b = ir.and(ir.lshr(bits, ir.c32(l)), ir.c32(1));
                let old = ir.load(ir.i32, q, 4);
                ir.store(ir.add(old, b), q, 4);
            }
        };
        let count = |lanes: V| {
            if vec {
                let (f, ft) = ir.intrinsic("llvm.vector.reduce.add", &[ct]);
                ir.zext(ir.call(ft, f, &[ir.zext(lanes, ct)]), ir.i64)
            } else {
                ir.zext(lanes, ir.i64)
            }
        };
        let add_to = |at: V, k: V| {
            let v = ir.load(ir.i64, at, 8);
            ir.store(ir.add(v, k), at, 8);
        };
        bump(self.word(ctr, abi::DN_C_SHARD), lm);
        let k = count(lm);
        add_to(
            ir.inttoptr(self.word(ctr, abi::DN_C_CREATOR_COUNT), ir.ptr),
            k,
        );
        add_to(self.word_ptr(ctr, 0), k);
        let tags = ir.select(lm, wide(self.word(ctr, abi::DN_C_TAG)), ir.null(tt));
        if let Some(value_tags) = store_tags {
            let pair = self.word(ctr, abi::DN_C_PAIR_COUNT);
            let (old, raw) = self.shadow_tags(p, tt, es);
            let new = ir.select(lm, tags, old);
            let new = if raw == old {
                new
            } else {
                // Doubles: put the tags back at the even words, the odd ones unchanged.
                let w = ir::vector_len(ir::type_of(raw));
                let pad: Vec<Option<u32>> = (0..w).map(|l| (l < n).then_some(l)).collect();
                let wide = ir.shuffle(new, ir.poison(tt), ir.mask(&pad));
                let idx: Vec<Option<u32>> = (0..w)
                    .map(|l| Some(if l % 2 == 0 { l / 2 } else { w + l }))
                    .collect();
                ir.shuffle(wide, raw, ir.mask(&idx))
            };
            ir.store(new, self.shadow_ptr(p), 1);
            // The origin pair, if the cached tag has an origin (null otherwise), for
            // the lanes that carry it (the others were created in place).
            let pb = unsafe { ffi::tp_split_if_then_weighted(ir.icmp_ne(pair, ir.c64(0)), at, 1) };
            ir.at_end(pb);
            let same = ir.icmp_eq(value_tags, wide(self.word(ctr, abi::DN_C_MATCH)));
            let from_origin = ir.and(lm, same);
            add_to(ir.inttoptr(pair, ir.ptr), count(from_origin));
            bump(self.word(ctr, abi::DN_C_PAIR_MAP), from_origin);
            ir.before(at);
        }
        tags
    }

    /// The shadow tags of the elements (of `es` bytes) at `p`, as `tt` (`i64` or
    /// `<n x i64>`), and the raw shadow words they were taken from. A float's 8 shadow
    /// bytes are its tag, so a vector's tags are contiguous; a double has 16 shadow
    /// bytes, the tag first, so its lanes' tags are the even words of `<2n x i64>`.
    fn shadow_tags(&self, p: V, tt: T, es: u64) -> (V, V) {
        let ir = self.ir;
        let sp = self.shadow_ptr(p);
        if !ir::is_vector(tt) || es == 4 {
            let t = ir.load(tt, sp, 1);
            return (t, t);
        }
        let n = ir::vector_len(tt);
        let words = es as u32 / 4;
        let raw = ir.load(ir.vec(ir.i64, n * words), sp, 1);
        let idx: Vec<Option<u32>> = (0..n).map(|l| Some(l * words)).collect();
        (
            ir.shuffle(raw, ir.poison(ir::type_of(raw)), ir.mask(&idx)),
            raw,
        )
    }

    /// Chunk `off..off+n` of every operand's lane mask and tag, in the shape of
    /// the site's lanes: `<n x i1>`/`<n x i64>` when `vec` (a scalar operand of a vector
    /// operation belongs to lane 0), else `i1`/`i64`.
    fn op_chunks(&self, lms: &[V], tags: &[V], off: u32, n: u32, vec: bool) -> (Vec<V>, Vec<V>) {
        let ir = self.ir;
        let i1 = ir.int_ty(1);
        let mut ms = Vec::new();
        let mut ts = Vec::new();
        for (&lm, &t) in lms.iter().zip(tags) {
            let m = self.chunk(lm, off, n, ir.cint(i1, 0));
            let t = self.chunk(t, off, n, ir.c64(0));
            let lane0 = |v: V, et: T| {
                if vec && !ir::is_vector(ir::type_of(v)) {
                    ir.insert_element(ir.null(ir.vec(et, n)), v, ir.c32(0))
                } else {
                    v
                }
            };
            ms.push(lane0(m, i1));
            ts.push(lane0(t, ir.i64));
        }
        (ms, ts)
    }

    /// The counts `__tpd_op` would make, into the site's inline counters `ctr..ctr+3`
    /// of this thread's block counters: denormal operands (set lanes of the operand
    /// masks `ms`), operations with a denormal operand (lanes set in any of them),
    /// denormal results (lanes of `rm`). Vectors pack the three per-lane counts into
    /// bytes of one `i32` lane (at most 48, 16, 16) and need one `reduce.add`; the
    /// baseline x86-64 target has no `popcnt`.
    fn count_op_inline(&self, ctr: u32, ms: &[V], rm: Option<V>, vec: bool, n: u32) {
        let ir = self.ir;
        let cb = self.counters.expect("functions with sites count blocks");
        let (wide, any) = if vec {
            (
                ir.vec(ir.i32, n),
                ms.iter().copied().reduce(|a, b| ir.or(a, b)),
            )
        } else {
            (ir.i64, ms.iter().copied().reduce(|a, b| ir.or(a, b)))
        };
        let mut packed = ir.null(wide);
        for &m in ms {
            packed = ir.add(packed, ir.zext(m, wide));
        }
        let shift = |v: V, by: u64| {
            let by = if vec {
                ir.splat(ir.c32(by as u32), n)
            } else {
                ir.c64(by)
            };
            ir.shl(v, by)
        };
        if let Some(a) = any {
            packed = ir.add(packed, shift(ir.zext(a, wide), 8));
        }
        if let Some(r) = rm {
            packed = ir.add(packed, shift(ir.zext(r, wide), 16));
        }
        let total = if vec {
            let (f, ft) = ir.intrinsic("llvm.vector.reduce.add", &[wide]);
            ir.zext(ir.call(ft, f, &[packed]), ir.i64)
        } else {
            packed
        };
        // Sites without an FP result (comparisons, FP→int) have no result count.
        let counts = if rm.is_some() { 3 } else { 2 };
        for j in 0..counts {
            let c = ir.and(ir.lshr(total, ir.c64(8 * j)), ir.c64(0xff));
            let c = if j == 2 {
                ir.lshr(total, ir.c64(16))
            } else {
                c
            };
            if ir::is_zero_const(c) {
                continue;
            }
            let p = ir.gep(ir.i64, cb, &[ir.c64(ctr as u64 + j)]);
            let v = ir.load(ir.i64, p, 8);
            ir.store(ir.add(v, c), p, 8);
        }
    }

    /// The result tags `__tpd_op` would write for a chunk whose site has creator
    /// `creator` (`FpSiteDesc::creator`; result lane mask `rm`, operand masks `ms` and tags `ts` from [`Self::op_chunks`]; a tag is read only in the lanes its mask sets),
    /// with selects: where the result is denormal, the tag of the first operand that
    /// is denormal in that lane if it has a creator; that operand's origin with this
    /// site as creator if not; `(0, this site)` with no denormal operand. 0 where the
    /// result is normal. Operands whose `known` is set ([`Self::creator_known`]) skip
    /// the creator test: it cannot fail for them.
    #[allow(clippy::too_many_arguments)]
    fn op_tags_inline(
        &self,
        creator: V,
        rm: V,
        ms: &[V],
        ts: &[V],
        known: &[bool],
        vec: bool,
        n: u32,
    ) -> V {
        let ir = self.ir;
        let tt = if vec { ir.vec(ir.i64, n) } else { ir.i64 };
        let wide = |c: V| if vec { ir.splat(c, n) } else { c };
        let me = wide(ir.and(ir.ptrtoint(creator, ir.i64), ir.c64(abi::TAG_CREATOR_MASK)));
        let creator_mask = wide(ir.c64(abi::TAG_CREATOR_MASK));
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
    fn creator_known(&self, v: V, visiting: &mut HashSet<V>) -> bool {
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
                let n = unsafe { LLVMCountIncoming(v) };
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
            ir.load(ir.vec(ir.i64, n), restags, 8)
        } else {
            ir.load(ir.i64, restags, 8)
        };
        let m = if ir::is_vector(ir::type_of(lm)) {
            self.lanes_of(lm, off, n)
        } else {
            lm
        };
        ir.select(m, t, ir.null(ir::type_of(t)))
    }

    /// Tag `t` where lane mask `lm` says the value is denormal, 0 elsewhere: what the
    /// hooks receive, so that a stale or over-approximated tag of a normal value never
    /// reaches the runtime.
    fn masked(&self, t: V, lm: V) -> V {
        let ir = self.ir;
        if ir::is_zero_const(t) || ir::is_zero_const(lm) {
            return ir.null(ir::type_of(t));
        }
        let t = self.shaped(t, lm);
        ir.select(lm, t, ir.null(ir::type_of(t)))
    }

    /// Tag `t` in the shape of lane mask `lm` (`<N x i64>` or `i64`), unmasked.
    fn shaped(&self, t: V, lm: V) -> V {
        let ir = self.ir;
        if ir::is_vector(ir::type_of(lm)) {
            self.adapt(t, ir.vec(ir.i64, ir::vector_len(ir::type_of(lm))))
        } else {
            self.adapt(t, ir.i64)
        }
    }

    // ----- tags -----

    /// The tag type of values of type `t`: `i64`, `<N x i64>` for FP vectors, `i64`
    /// for aggregates holding FP (collapsed).
    fn tag_ty(&self, t: T) -> T {
        if ir::is_vector(t) && fptype::is_fp(t) {
            self.ir.vec(self.ir.i64, ir::vector_len(t))
        } else {
            self.ir.i64
        }
    }

    fn zero_tag(&self, v: V) -> V {
        self.ir.null(self.tag_ty(ir::type_of(v)))
    }

    fn has_tag(t: T) -> bool {
        fptype::is_fp(t)
            || matches!(ir::kind(t), K::LLVMStructTypeKind | K::LLVMArrayTypeKind)
                && fptype::aggregate_has_fp(t)
    }

    /// The tag of FP (or FP-holding aggregate) value `v` at the current position;
    /// `cold` is the region being emitted, if any.
    fn tag(&mut self, v: V, mut cold: Option<&mut Cold>) -> V {
        if let Some(c) = cold.as_deref_mut() {
            if let Some(&t) = c.tags.get(&v) {
                return t;
            }
        }
        if !Self::has_tag(ir::type_of(v)) {
            return self.ir.c64(0);
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
                // Call results are cached as the slot's one `i64`.
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
                let n = unsafe { LLVMGetNumMaskElements(v) };
                let undef = unsafe { LLVMGetUndefMaskElem() };
                let lanes: Vec<Option<u32>> = (0..n)
                    .map(|k| {
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
                    ir.c64(0)
                };
                if ir::is_zero_const(te) {
                    return ta;
                }
                if ir::is_zero_const(ta) {
                    return te;
                }
                ir.select(ir.icmp_ne(te, ir.c64(0)), te, ta)
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
    fn adapt(&self, t: V, to: T) -> V {
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

    /// One `i64` for a tag at the current position: the first non-zero lane of a
    /// vector tag. A group's vector join is collapsed in its cold region instead (a
    /// scalar join PHI), so that calls and returns of vectors cost nothing extra on the
    /// fast path.
    fn collapse_here(&mut self, t: V) -> V {
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

    /// One `i64` for a tag: the first non-zero lane of a vector tag.
    fn collapse(&self, t: V) -> V {
        let ir = self.ir;
        let ty = ir::type_of(t);
        if !ir::is_vector(ty) {
            return t;
        }
        if ir::is_zero_const(t) {
            return ir.c64(0);
        }
        let n = ir::vector_len(ty);
        let mut r = ir.extract_element(t, ir.c32(n - 1));
        for k in (0..n - 1).rev() {
            let e = ir.extract_element(t, ir.c32(k));
            r = ir.select(ir.icmp_ne(e, ir.c64(0)), e, r);
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

    fn fill_phis(&mut self) {
        let ir = self.ir;
        while let Some((p, tp)) = self.pending_phis.pop() {
            let n = unsafe { LLVMCountIncoming(p) };
            let mut done: HashMap<B, V> = HashMap::new();
            for k in 0..n {
                let v = unsafe { LLVMGetIncomingValue(p, k) };
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
    fn remove_zero_phis(&mut self) {
        let phis = std::mem::take(&mut self.tag_phis);
        let mut zero: HashSet<V> = phis.iter().copied().collect();
        loop {
            let mut changed = false;
            for &p in &phis {
                if !zero.contains(&p) {
                    continue;
                }
                let n = unsafe { LLVMCountIncoming(p) };
                let ok = (0..n).all(|k| {
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
                unsafe {
                    LLVMReplaceAllUsesWith(p, z);
                    LLVMInstructionEraseFromParent(p);
                }
                self.stats.zero_tag_phis += 1;
            }
        }
    }

    /// The tag of parameter `a` (one `i64`): its slot, if this call came from
    /// instrumented code that stored us as the callee.
    fn param_tag(&mut self, a: V) -> V {
        if let Some(&t) = self.ext.get(&a) {
            return t;
        }
        let ir = self.ir;
        let k = ir::params(self.f)
            .iter()
            .position(|x| *x == a)
            .expect("parameter of this function");
        if k >= abi::DN_MAX_ARG_SLOTS {
            let z = ir.c64(0);
            self.ext.insert(a, z);
            return z;
        }
        ir.before(self.anchor);
        let ok = match self.canary {
            Some(c) => c,
            None => {
                let c = ir.load(ir.ptr, self.rt.callee_tls, 8);
                let ok = ir.icmp_eq(c, self.f);
                self.canary = Some(ok);
                ok
            }
        };
        let slot = ir.const_elem_ptr(self.rt.arg_tags_ty, self.rt.arg_tags_tls, k as u64);
        let t = ir.select(ok, ir.load(ir.i64, slot, 8), ir.c64(0));
        self.restore();
        self.ext.insert(a, t);
        self.stats.param_tags += 1;
        t
    }

    /// The tag of the result of a call through the tag ABI (one `i64`, read right after
    /// the call).
    fn ret_tag(&mut self, call: V) -> V {
        if let Some(&t) = self.ext.get(&call) {
            return t;
        }
        let ir = self.ir;
        if ir::opcode(call) == Op::LLVMCall && unsafe { ffi::tp_call_is_musttail(call) } != 0 {
            return ir.c64(0);
        }
        let callee = ir::called_function(call);
        if callee.is_null() || !self.instrumented.contains(&callee) {
            // An uninstrumented callee leaves the slot as it was: clear it.
            ir.before(call);
            ir.store(ir.c64(0), self.rt.ret_tag_tls, 8);
        }
        if ir::opcode(call) == Op::LLVMInvoke {
            ir.at_start(unsafe { LLVMGetNormalDest(call) });
        } else {
            ir.after(call);
        }
        let t = ir.load(ir.i64, self.rt.ret_tag_tls, 8);
        for a in MEMORY_ATTRS {
            ir.remove_call_fn_attr(call, a);
        }
        self.restore();
        self.ext.insert(call, t);
        self.stats.ret_tags += 1;
        t
    }

    // ----- after a group: calls, returns, memory intrinsics -----

    fn after_close(&mut self, i: V) -> Result<(), String> {
        match ir::opcode(i) {
            Op::LLVMRet => self.visit_ret(i),
            Op::LLVMCall | Op::LLVMInvoke => self.visit_call(i),
            _ => Ok(()),
        }
    }

    fn visit_ret(&mut self, i: V) -> Result<(), String> {
        if ir::num_operands(i) == 0 || !Self::has_tag(ir::type_of(ir::operand(i, 0))) {
            return Ok(());
        }
        let prev = unsafe { LLVMGetPreviousInstruction(i) };
        if !prev.is_null()
            && ir::opcode(prev) == Op::LLVMCall
            && unsafe { ffi::tp_call_is_musttail(prev) } != 0
        {
            // The tail-called function stores its own return tag.
            return Ok(());
        }
        self.at(i);
        let t = self.tag(ir::operand(i, 0), None);
        let t = self.collapse_here(t);
        self.ir.store(t, self.rt.ret_tag_tls, 8);
        Ok(())
    }

    fn visit_call(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        if self.plan.sites.contains_key(&i) {
            return Ok(());
        }
        match call_kind(i, self.list) {
            CallKind::InlineAsm => {
                if Self::has_tag(ir::type_of(i)) {
                    self.stats.inline_asm_fp += 1;
                }
                return Ok(());
            }
            CallKind::Intrinsic(_, name) => {
                if name.starts_with("llvm.memcpy") || name.starts_with("llvm.memmove") {
                    self.at(i);
                    self.copy_shadow(ir::operand(i, 0), ir::operand(i, 1), ir::operand(i, 2));
                    self.stats.shadow_copies += 1;
                }
                return Ok(());
            }
            CallKind::Listed(Kind::Pure | Kind::Zero, _) => return Ok(()),
            CallKind::Listed(Kind::Wrap(_), ref name) => {
                // The runtime's wrappers move shadow memory, i.e. tags (memcpy, realloc,
                // fread, ...), exactly as labels in taint mode.
                let fnty = unsafe { LLVMGetCalledFunctionType(i) };
                let w = ir.function(&format!("{}{name}", abi::WRAPPER_PREFIX), fnty);
                unsafe { LLVMSetOperand(i, ir::num_operands(i) - 1, w) };
                self.stats.wrapped_calls += 1;
            }
            CallKind::Normal => {}
        }
        let fnty = unsafe { LLVMGetCalledFunctionType(i) };
        let n_fixed = unsafe { LLVMCountParamTypes(fnty) };
        let args: Vec<(u32, V)> = (0..ir::num_call_args(i).min(n_fixed))
            .map(|k| (k, ir::operand(i, k)))
            .filter(|&(_, a)| Self::has_tag(ir::type_of(a)))
            .collect();
        if args.is_empty() {
            return Ok(());
        }
        self.at(i);
        let mut tags = Vec::new();
        for &(k, a) in &args {
            let t = self.tag(a, None);
            self.at(i);
            let c = self.collapse_here(t);
            tags.push((k, c));
        }
        for a in MEMORY_ATTRS {
            ir.remove_call_fn_attr(i, a);
            let callee = ir::called_function(i);
            if !callee.is_null() {
                ir.remove_fn_attr(callee, a);
            }
        }
        if tags.iter().all(|&(_, t)| ir::is_zero_const(t)) {
            // Nothing to pass: make sure the callee does not take stale slots for ours.
            ir.store(ir.null_ptr(), self.rt.callee_tls, 8);
            self.stats.calls_without_tags += 1;
            return Ok(());
        }
        for (k, t) in tags {
            if (k as usize) < abi::DN_MAX_ARG_SLOTS {
                let g = ir.const_elem_ptr(self.rt.arg_tags_ty, self.rt.arg_tags_tls, k as u64);
                ir.store(t, g, 8);
            }
        }
        ir.store(ir::called_value(i), self.rt.callee_tls, 8);
        self.stats.calls_with_tags += 1;
        Ok(())
    }

    /// Shadow address of application pointer `p` (the taint-mode mapping).
    pub(super) fn shadow_ptr(&self, p: V) -> V {
        let ir = self.ir;
        let i = ir.ptrtoint(p, ir.i64);
        let m = ir.and(i, ir.c64(abi::SHADOW_MASK));
        let s = ir.shl(m, ir.c64(abi::SHADOW_SHIFT as u64));
        let a = ir.add(s, ir.c64(abi::SHADOW_BASE));
        ir.inttoptr(a, ir.ptr)
    }

    /// memcpy/memmove: tags travel with the copied bytes, as labels do in taint mode.
    /// A copy that may hold a float goes to `__tpd_copy`, which also counts its
    /// denormal elements when it copies from or into a marked array (an element-wise
    /// copy loop at -O0 is counted, and -O2 turns it into this memcpy); copies of
    /// fewer than 4 bytes move the shadow inline.
    fn copy_shadow(&self, dst: V, src: V, n: V) {
        let ir = self.ir;
        match ir::const_int_value(n) {
            Some(0) => {}
            Some(c) if c < 4 => {
                let (f, ft) = ir.intrinsic("llvm.memmove", &[ir.ptr, ir.ptr, ir.i64]);
                let (sd, ss) = (self.shadow_ptr(dst), self.shadow_ptr(src));
                ir.call(
                    ft,
                    f,
                    &[sd, ss, ir.c64(c << abi::SHADOW_SHIFT), ir.cint(ir.i1, 0)],
                );
            }
            _ => {
                let n64 = ir.zext(n, ir.i64);
                let h = self.rt.copy;
                ir.call(h.ty, h.f, &[dst, src, n64]);
            }
        }
    }

    /// The store `st` of a copy of floats moved as a `double` (see
    /// [`classify::float_pair_copy`]), its value loaded from `src`: the value is
    /// checked as floats, and only a copy holding a denormal float goes to
    /// `__tpd_copy` (counts for marked arrays, tags moved), as a `memcpy` would. A copy
    /// of normal floats needs nothing: tags matter only while a value is denormal.
    fn float_pair_copy(&mut self, st: V, src: V) {
        let ir = self.ir;
        self.at(st);
        let v = ir::operand(st, 0);
        let t = ir::type_of(v);
        let doubles = if ir::is_vector(t) {
            ir::vector_len(t)
        } else {
            1
        };
        // SAFETY: the module's context.
        let f32 = unsafe { LLVMFloatTypeInContext(ir.ctx) };
        let floats = ir.bitcast(v, ir.vec(f32, 2 * doubles));
        let lanes = self.lane_mask(floats);
        let bits = ir.bitcast(lanes, ir.int_ty(2 * doubles));
        let any = ir.freeze(ir.icmp_ne(bits, ir.cint(ir.int_ty(2 * doubles), 0)));
        let copy_bb = unsafe { ffi::tp_split_if_then(any, st) };
        ir.before(ir::terminator(copy_bb));
        let h = self.rt.copy;
        ir.call(
            h.ty,
            h.f,
            &[ir::operand(st, 1), src, ir.c64(8 * doubles as u64)],
        );
        self.at(st);
    }

    // ----- arrays and allocations (positions only; typing is in arrays.rs) -----

    fn memory_objects(&mut self) -> Result<(), String> {
        let ir = self.ir;
        let plan = self.plan;
        let rets: Vec<V> = ir::blocks(self.f)
            .into_iter()
            .map(ir::terminator)
            .filter(|t| !t.is_null() && ir::opcode(*t) == Op::LLVMRet)
            .collect();
        // Stack arrays: enter at the alloca (or each lifetime.start), leave at each
        // lifetime.end and before every return (a second leave is ignored).
        for sa in &plan.stack_arrays {
            let h = self.rt.array_enter;
            if sa.starts.is_empty() {
                ir.before(self.anchor);
                ir.call(h.ty, h.f, &[sa.alloca, sa.desc]);
            }
            for &s in &sa.starts {
                ir.after(s);
                ir.call(h.ty, h.f, &[sa.alloca, sa.desc]);
            }
            let l = self.rt.array_leave;
            for &e in &sa.ends {
                ir.before(e);
                ir.call(l.ty, l.f, &[sa.alloca]);
            }
            for &r in &rets {
                ir.before(r);
                ir.call(l.ty, l.f, &[sa.alloca]);
            }
            self.stats.stack_arrays += 1;
        }
        // std::vectors (local or members) name their elements' arrays after every call
        // given their address (construction, growth, assignment). After an invoke: at
        // the top of its normal destination when that has no other predecessor.
        for c in &plan.containers {
            let h = self.rt.name_container;
            for &call in &c.calls {
                if ir::opcode(call) == Op::LLVMInvoke {
                    let dest = unsafe { LLVMGetNormalDest(call) };
                    // SAFETY: the block's uses are the terminators that branch to it.
                    let only_pred = unsafe {
                        let u = LLVMGetFirstUse(LLVMBasicBlockAsValue(dest));
                        !u.is_null() && LLVMGetNextUse(u).is_null()
                    };
                    if !only_pred {
                        continue;
                    }
                    ir.before(ir::first_non_phi(dest));
                } else {
                    ir.after(call);
                }
                ir.call(h.ty, h.f, &[c.obj, c.site]);
            }
        }
        // Variable-length stack arrays: registered like heap blocks (their size is only
        // known at run time), released at the stackrestore that frees them and before
        // every return. A return the array does not dominate releases what a slot
        // holds: null (ignored by the runtime) unless the array was allocated.
        for v in &plan.vlas {
            let slot = (!v.late_rets.is_empty()).then(|| {
                // A static alloca at the top of the entry block; null before the body.
                ir.before(unsafe { LLVMGetFirstInstruction(ir::entry_block(self.f)) });
                let slot = ir.alloca(ir.ptr);
                ir.before(self.anchor);
                ir.store(ir.null(ir.ptr), slot, 8);
                slot
            });
            ir.after(v.alloca);
            let bytes = ir.mul(
                ir.zext(ir::operand(v.alloca, 0), ir.i64),
                ir.c64(v.elem_size),
            );
            let h = self.rt.alloc;
            ir.call(h.ty, h.f, &[v.alloca, bytes, v.site]);
            if let Some(slot) = slot {
                ir.store(v.alloca, slot, 8);
            }
            let r = self.rt.release;
            for &x in v.restores.iter().chain(v.rets.iter()) {
                ir.before(x);
                ir.call(r.ty, r.f, &[v.alloca]);
            }
            if let Some(slot) = slot {
                for &x in &v.late_rets {
                    ir.before(x);
                    let p = ir.load(ir.ptr, slot, 8);
                    ir.call(r.ty, r.f, &[p]);
                }
            }
            self.stats.vlas += 1;
        }
        for fr in &plan.frees {
            ir.before(*fr);
            let r = self.rt.release;
            ir.call(r.ty, r.f, &[ir::operand(*fr, 0)]);
            self.stats.releases += 1;
        }
        for a in &plan.allocs {
            self.alloc_hook(a)?;
        }
        Ok(())
    }

    fn alloc_hook(&mut self, a: &super::AllocCall) -> Result<(), String> {
        use classify::AllocFn as A;
        let ir = self.ir;
        let c = a.call;
        let arg = |k: u32| ir.zext(ir::operand(c, k), ir.i64);
        if matches!(a.kind, A::Realloc | A::ReallocArray) {
            // The old block goes away (or moves): release it before.
            ir.before(c);
            let r = self.rt.release;
            ir.call(r.ty, r.f, &[ir::operand(c, 0)]);
            self.stats.releases += 1;
        }
        let Some(site) = a.site else {
            return Ok(());
        };
        // After the call (for an invoke, in its normal destination, which `prepare`
        // gave an edge of its own).
        let ip = if ir::opcode(c) == Op::LLVMInvoke {
            ir::first_insertion_point(unsafe { LLVMGetNormalDest(c) })
        } else {
            ir::next_instruction(c)
        };
        ir.before(ip);
        let (block, ok) = match a.kind {
            A::PosixMemalign => {
                let ok = ir.icmp_eq(c, ir.cint(ir::type_of(c), 0));
                (None, ok)
            }
            _ => (Some(c), ir.icmp_ne(c, ir.null_ptr())),
        };
        let bytes = match a.kind {
            A::Size0 => arg(0),
            A::Size1 | A::Realloc => arg(1),
            A::Calloc => ir.mul(arg(0), arg(1)),
            A::ReallocArray => ir.mul(arg(1), arg(2)),
            A::PosixMemalign => arg(2),
        };
        let bb = unsafe { ffi::tp_split_if_then_weighted(ok, ip, 1) };
        ir.at_end(bb);
        let block = match block {
            Some(b) => b,
            None => ir.load(ir.ptr, ir::operand(c, 0), 8),
        };
        let h = self.rt.alloc;
        ir.call(h.ty, h.f, &[block, bytes, site]);
        self.stats.typed_allocations += 1;
        Ok(())
    }
}

/// Whether `f` may call the register-preserving hook entries
/// (`abi::HOOK_DN_LOAD_KEEPREGS`): they keep the 128-bit vector registers only, so the
/// function must not use AVX. Clang writes every enabled feature into
/// `target-features`; a CPU other than the baseline ones could imply AVX without
/// naming it, so only those qualify.
/// How far above the plain threshold [`DnFn::cover`] may raise a filter's threshold
/// exponent (`2^-95` for floats, with the plain `2^-103` of covered sums): inputs between
/// `2^-126` and the threshold run the cold region for nothing.
const COVER_RAISE: i32 = 8;

/// The inputs of `v` if [`DnFn::cover`] can reason about it, each with the exponent
/// `k` its multiple-of-`2^g` argument shifts by (`r` is a multiple of `2^g` if each
/// input is one of `2^(g - k)`): sums, differences and negations (`k = 0`),
/// products with a constant `m·2^k` and quotients by a constant power of two. Only
/// instructions of the group (`insts`).
fn cover_inputs(v: V, insts: &HashSet<V>) -> Option<Vec<(V, i32)>> {
    if !ir::is_instruction(v) || !insts.contains(&v) {
        return None;
    }
    let op = |k| ir::operand(v, k);
    match ir::opcode(v) {
        Op::LLVMFAdd | Op::LLVMFSub => Some(vec![(op(0), 0), (op(1), 0)]),
        Op::LLVMFNeg => Some(vec![(op(0), 0)]),
        Op::LLVMFMul => {
            let (x, c) = if ir::is_constant(op(1)) {
                (op(0), op(1))
            } else if ir::is_constant(op(0)) {
                (op(1), op(0))
            } else {
                return None;
            };
            if ir::is_constant(x) {
                return None;
            }
            Some(vec![(x, const_granularity(c)?)])
        }
        Op::LLVMFDiv => {
            let c = op(1);
            if !ir::is_constant(c) || ir::is_constant(op(0)) {
                return None;
            }
            let k = const_power_of_two(c)?;
            Some(vec![(op(0), -k)])
        }
        _ => None,
    }
}

/// The FP values of constant `c` (scalar, or each lane of a vector; `None` for
/// undef lanes).
fn const_lanes(c: V) -> Option<Vec<Option<f64>>> {
    let t = ir::type_of(c);
    let one = |x: V| -> Option<Option<f64>> {
        if ir::is_undef_like(x) {
            return Some(None);
        }
        if unsafe { LLVMIsAConstantFP(x).is_null() } {
            return None;
        }
        let mut loses = 0;
        // SAFETY: a ConstantFP.
        Some(Some(unsafe { LLVMConstRealGetDouble(x, &mut loses) }))
    };
    if !ir::is_vector(t) {
        return Some(vec![one(c)?]);
    }
    (0..ir::vector_len(t))
        .map(|l| {
            // SAFETY: a constant of vector type.
            let e = unsafe { LLVMGetAggregateElement(c, l) };
            if e.is_null() {
                None
            } else {
                one(e)
            }
        })
        .collect()
}

/// The largest `k` such that every lane of constant `c` is a multiple of `2^k`
/// (zero and undef lanes: any); `None` unless every lane is finite.
fn const_granularity(c: V) -> Option<i32> {
    let mut g = i32::MAX;
    for x in const_lanes(c)?.into_iter().flatten() {
        if !x.is_finite() {
            return None;
        }
        if x != 0.0 {
            g = g.min(f64_granularity(x));
        }
    }
    Some(g)
}

/// `k` if every lane of constant `c` is `±2^k`.
fn const_power_of_two(c: V) -> Option<i32> {
    let mut k = None;
    for x in const_lanes(c)? {
        let x = x?;
        let e = f64_granularity(x);
        if !x.is_finite() || x == 0.0 || x.abs() != 2f64.powi(e) || k.is_some_and(|k| k != e) {
            return None;
        }
        k = Some(e);
    }
    k
}

/// The exponent of the lowest set bit of finite non-zero `x`.
fn f64_granularity(x: f64) -> i32 {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    e + m.trailing_zeros() as i32
}

fn keepregs_allowed(f: V) -> bool {
    let attr = |key: &str| -> Option<String> {
        // SAFETY: reading a string attribute of a function of the module.
        unsafe {
            let a = LLVMGetStringAttributeAtIndex(
                f,
                inkwell::llvm_sys::LLVMAttributeFunctionIndex,
                key.as_ptr().cast(),
                key.len() as u32,
            );
            if a.is_null() {
                return None;
            }
            let mut len = 0u32;
            let p = LLVMGetStringAttributeValue(a, &mut len);
            let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len as usize);
            Some(String::from_utf8_lossy(bytes).into_owned())
        }
    };
    let cpu_ok = attr("target-cpu")
        .is_none_or(|c| matches!(c.as_str(), "x86-64" | "x86-64-v2" | "generic" | ""));
    let no_avx =
        attr("target-features").is_none_or(|fs| !fs.split(',').any(|x| x.starts_with("+avx")));
    cpu_ok && no_avx
}

/// A compile error about instruction `i` of function `f` in denormal mode.
pub fn dn_error(f: V, i: V, what: &str) -> String {
    inst_error(
        f,
        i,
        what,
        "Denormal mode cannot instrument this; compile this file with TAINTPROF_MODE=off (it will not be analysed) or avoid the construct",
    )
}

#[cfg(test)]
mod tests {
    use super::f64_granularity;

    #[test]
    fn granularity_is_the_exponent_of_the_lowest_set_bit() {
        assert_eq!(f64_granularity(1.0), 0);
        assert_eq!(f64_granularity(0.25), -2);
        assert_eq!(f64_granularity(-0.75), -2);
        assert_eq!(f64_granularity(6.0), 1);
        // 1/3 as a float: 0xAAAAAB * 2^-25.
        assert_eq!(f64_granularity((1.0f32 / 3.0) as f64), -25);
        assert_eq!(f64_granularity(f64::MIN_POSITIVE), -1022);
        assert_eq!(f64_granularity(f64::from_bits(1)), -1074);
        assert_eq!(f64_granularity(f32::MIN_POSITIVE as f64), -126);
    }
}
