//! Taint instrumentation (data flow), per function.
//!
//! Every SSA value gets a shadow value: `i16` for scalars and pointers, one label per
//! lane for fixed vectors (so vectorized and scalar code compute the same labels; lanes
//! as wide as 32- and 64-bit elements, see [`FnInstr::sty`]), one collapsed `i16` for
//! first-class aggregates, `0` for constants. Shadows
//! are created in reverse post-order, so operands are done before their users; PHIs
//! get placeholder shadow PHIs that are filled once all blocks are done (as DFSan does).
//!
//! Modules:
//! * `module`     — taint mode's module-level steps, called by the module driver
//!   (`crate::module`, shared with denormal mode): trip counts, pruning, recursion
//!   loops, descriptions of functions, loops and branch sinks, `Z` flow, statistics;
//! * `crate::prepare` (shared with denormal mode) — pre-check, alloca promotion, edge
//!   splitting, CFG/loop analysis;
//! * `memory`     — shadow memory: address mapping, label loads/stores of every size;
//! * `addr`       — shadow addresses derived along the pointer arithmetic;
//! * `calls`      — the thread-local call ABI, the function list, intrinsics, varargs;
//! * `control`    — explicit control-flow tainting (`cl` slots, `ctrl(B)`, join labels);
//! * `identity`   — the second label `R` of scalars: loop indices used as identities;
//! * `sinks`      — loop accumulators and `__tp_loop_exit`, calling contexts;
//! * `branches`   — branch sinks (`BranchRec`s), which branches get one;
//! * `intrinsics` — which intrinsic moves labels how;
//! * `runtime`    — declarations of the runtime's TLS slots and hooks.
//!
//! Order inside one function (see [`FnInstr::run`]): analysis of control dependence,
//! prologue, visit every instruction, fill PHIs (with join labels), store the `cl`
//! slots, loop sinks, branch sinks; then the steps that change the CFG (splitting
//! blocks for cold calls), then promotion of our allocas, then simplification of what
//! we inserted. Nothing before the CFG step may split blocks: the block numbering of
//! the analysis is used throughout.
//!
//! Statically pruned functions (`crate::prune`) get everything but the sinks and the
//! calling context: labels must flow through them.
//!
//! ## Safety
//!
//! The `unsafe` blocks of this module and of its sub-modules (the "taint module
//! header" their SAFETY comments refer to) call llvm_sys and the shim (`crate::ffi`) on
//! the function being instrumented (`FnInstr::f`, a definition: `should_instrument`
//! skips declarations), on its blocks and instructions (the original ones and the ones
//! we inserted) and on constants, types and globals of the module. All are live
//! handles of the module the pass manager hands us, valid while the pass runs (see the
//! `ir` module header). A handle we erase is first removed from every map that could
//! hand it out again (`redirect_labels`), and the instruction lists passed to the shim
//! are collected afresh after each step that erases (promotion, simplification,
//! hoisting). Each SAFETY comment says which kind of handle the call needs (an
//! instruction, a PHI, a conditional branch, a call) and why we have one; arrays passed
//! to the shim are Rust buffers passed with their length.

mod addr;
pub mod branches;
pub mod calls;
pub(crate) mod control;
mod identity;
mod memory;
pub mod module;
pub mod runtime;
mod sinks;
pub mod zflow;

use crate::abilist::AbiList;
use crate::callkind::MEMORY_ATTRS;
use crate::config::Config;
use crate::descriptors::Descs;
use crate::ir::{self, Ir, B, T, V};
use crate::prepare::{inst_error, Prepared};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use runtime::{Hook, Runtime};
use std::collections::{HashMap, HashSet};

/// Per-module counters (printed with `TAINTPROF_VERBOSE=1`).
#[derive(Debug, Default)]
pub struct Stats {
    pub functions: usize,
    pub skipped_functions: usize,
    pub context_tracked: usize,
    pub loops: usize,
    pub loops_without_sink: usize,
    pub loops_without_debug_loc: usize,
    pub irreducible_cycles: usize,
    pub promoted_allocas: usize,
    pub loads: usize,
    pub stores: usize,
    pub calls: usize,
    pub listed_calls: usize,
    pub inline_asm: usize,
    pub eh_exit_edges: usize,
    pub indirect_exit_edges: usize,
    pub zero_shadow_phis: usize,
    pub simplified: usize,
    pub pruned_no_loops: usize,
    pub pruned_const_trips: usize,
    pub recursive: usize,
    pub const_trip_loops: usize,
    pub control_slots: usize,
    /// Blocks whose `ctrl(B)` extends a dominator's instead of ORing every slot.
    pub control_reused: usize,
    pub control_writes: usize,
    pub control_calls: usize,
    pub branch_sinks: usize,
    pub cold_calls: usize,
    pub hoisted: usize,
    /// Calls reported as library loops (`crate::library`).
    pub library_loops: usize,
    /// Source loops the optimizer folded (`crate::folded`).
    pub folded_loops: usize,
}

/// Most leaves a union collects (longer chains are ORed as they come).
const MAX_LEAVES: usize = 24;

/// How raw shadow words loaded for one access become its label(s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fold {
    /// `<n*es x i16>` byte labels to `n` lanes ([`FnInstr::fold_lanes`]).
    Lanes { n: u32, es: u64 },
    /// `i32` (two byte labels) to `i16`.
    Fold32,
    /// `i64` (four byte labels) to `i16`.
    Fold64,
}

/// The leaves of a union (see [`FnInstr::union`]), all for one shadow type.
#[derive(Debug, Clone, Default)]
pub(crate) struct Leaves {
    /// `i16` labels (splatted once for vector targets).
    scalars: Vec<V>,
    /// Shadows of the target type.
    vectors: Vec<V>,
    /// Raw shadow words by fold: ORed, then folded once.
    groups: Vec<(Fold, Vec<V>)>,
}

impl Leaves {
    fn add_scalar(&mut self, v: V) {
        if !ir::is_zero_const(v) && !self.scalars.contains(&v) {
            self.scalars.push(v);
        }
    }
    fn add_vector(&mut self, v: V) {
        if !ir::is_zero_const(v) && !self.vectors.contains(&v) {
            self.vectors.push(v);
        }
    }
    pub(crate) fn add_raw(&mut self, f: Fold, raw: V) {
        match self.groups.iter_mut().find(|g| g.0 == f) {
            Some(g) => {
                if !g.1.contains(&raw) {
                    g.1.push(raw)
                }
            }
            None => self.groups.push((f, vec![raw])),
        }
    }
    fn merge(&mut self, o: &Leaves) {
        for &v in &o.scalars {
            self.add_scalar(v);
        }
        for &v in &o.vectors {
            self.add_vector(v);
        }
        for (f, raws) in &o.groups {
            for &r in raws {
                self.add_raw(*f, r);
            }
        }
    }
    fn size(&self) -> usize {
        self.scalars.len()
            + self.vectors.len()
            + self.groups.iter().map(|g| g.1.len()).sum::<usize>()
    }
}

/// A runtime call to put behind `if (cond)` before `before` once block-based work is
/// done (branch-sink updates).
pub(crate) struct Deferred {
    pub cond: V,
    pub before: V,
    pub hook: Hook,
    pub args: Vec<V>,
}

pub struct FnInstr<'a> {
    pub(crate) ir: &'a Ir,
    pub(crate) rt: &'a Runtime,
    pub(crate) cfg: &'a Config,
    pub(crate) list: &'a AbiList,
    pub(crate) descs: &'a mut Descs,
    pub(crate) stats: &'a mut Stats,
    pub(crate) p: &'a Prepared,
    /// Which parameters and results may carry a `Z` (`zflow.rs`).
    pub(crate) zflow: &'a zflow::ZFlow,
    pub(crate) f: V,
    shadows: HashMap<V, V>,
    /// `R` labels (`identity.rs`) of the values whose `R` differs from their shadow.
    rshadows: HashMap<V, V>,
    /// Placeholder `R` PHIs, filled after the shadow PHIs.
    rphis: Vec<(V, V)>,
    /// `R` of each parameter where it may differ from its shadow.
    arg_r: Vec<Option<V>>,
    /// Innermost loop (forest index) of each block index.
    loop_of: Vec<Option<usize>>,
    /// Per loop: the slot holding the `R` of its exit tests (`identity.rs`).
    rexit: std::cell::RefCell<HashMap<usize, V>>,
    /// Exit-test updates (slot, exiting block) waiting for the test's label.
    rexit_pending: std::cell::RefCell<Vec<(V, usize)>>,
    /// Planned shadow addresses of pointers (`addr.rs`).
    sptrs: HashMap<V, V>,
    /// Leaf sets of union results (see [`FnInstr::union`]); only used while visiting.
    leaves: std::cell::RefCell<HashMap<V, Leaves>>,
    phis: Vec<(V, V)>,
    reachable: HashSet<B>,
    arg_shadows: Vec<V>,
    /// Union of the variadic arguments' labels, captured at entry (variadic functions).
    pub(crate) va_label: Option<V>,
    /// Bytes of variadic arguments on the stack, captured at entry.
    pub(crate) va_bytes: Option<V>,
    /// Calling-context node of this activation and of the caller (tracked functions).
    pub(crate) node: Option<V>,
    pub(crate) parent: Option<V>,
    /// Per-sink (logical loop) `i16` accumulator allocas (promoted at the end).
    pub(crate) accs: Vec<V>,
    /// Per-sink allocas of the loop's in-flight entry (`ptr`) and of the depth at entry
    /// (`i64`), for sinks recorded as in flight (promoted at the end).
    pub(crate) in_flight: Vec<Option<(V, V)>>,
    /// Private all-zero objects by size (shadow source for null `byval` slots).
    zero_objs: HashMap<u64, V>,
    /// Control-flow tainting state (`None` when off).
    pub(crate) cf: Option<control::Control>,
    /// Conditional cold calls to insert at the end.
    pub(crate) deferred: Vec<Deferred>,
    pub warnings: Vec<String>,
}

impl<'a> FnInstr<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ir: &'a Ir,
        rt: &'a Runtime,
        cfg: &'a Config,
        list: &'a AbiList,
        descs: &'a mut Descs,
        stats: &'a mut Stats,
        p: &'a Prepared,
        zflow: &'a zflow::ZFlow,
    ) -> FnInstr<'a> {
        FnInstr {
            zflow,
            ir,
            rt,
            cfg,
            list,
            descs,
            stats,
            p,
            f: p.f,
            shadows: HashMap::new(),
            rshadows: HashMap::new(),
            rphis: Vec::new(),
            arg_r: Vec::new(),
            loop_of: Vec::new(),
            rexit: Default::default(),
            rexit_pending: Default::default(),
            sptrs: HashMap::new(),
            leaves: Default::default(),
            phis: Vec::new(),
            reachable: HashSet::new(),
            arg_shadows: Vec::new(),
            va_label: None,
            va_bytes: None,
            node: None,
            parent: None,
            accs: Vec::new(),
            in_flight: Vec::new(),
            zero_objs: HashMap::new(),
            cf: None,
            deferred: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Instrument the function. Errors are internal inconsistencies (the pre-check
    /// already rejected what cannot be instrumented).
    pub fn run(mut self) -> Result<Vec<String>, String> {
        let rpo = self.p.an.cfg.reverse_post_order();
        for &b in &rpo {
            self.reachable.insert(self.p.an.blocks[b]);
        }
        // Snapshot the original instructions first: the prologue and the shadow code
        // inserted while visiting must not be visited themselves.
        let work: Vec<Vec<V>> = rpo
            .iter()
            .map(|&b| ir::instructions(self.p.an.blocks[b]))
            .collect();
        let originals: HashSet<V> = ir::blocks(self.f)
            .into_iter()
            .flat_map(ir::instructions)
            .collect();
        let plan = if self.cfg.control_flow {
            self.loop_of = self.innermost_loops();
            Some(self.control_analyze())
        } else {
            None
        };
        let visit = crate::phases::Lap::new("visit");
        self.prologue(plan);
        if self.cfg.shadow_sr {
            self.plan_shadow_ptrs(&work);
        }
        for insts in work {
            for i in insts {
                self.visit(i)?;
            }
        }
        self.flush_rexit_pending()?;
        drop(visit);
        // Shadow PHIs still have no incoming values here: the body is invalid IR.
        if self.cfg.test_panic_in.as_deref() == Some(ir::name_of(self.f).as_str()) {
            panic!(
                "TAINTPROF_TEST_PANIC_IN={}: a panic on purpose",
                ir::name_of(self.f)
            );
        }
        let fill = crate::phases::Lap::new("fill and sinks");
        // Leaves may name shadow PHIs that `fill_phis` replaces by 0.
        self.leaves.borrow_mut().clear();
        self.fill_phis()?;
        self.fill_rphis()?;
        self.control_store_slots()?;
        if self.p.pruned.is_none() {
            self.loop_sinks()?;
            self.library_sinks()?;
            self.branch_sinks()?;
        }
        // From here on blocks are split: no more block-indexed work.
        self.run_deferred();
        drop(fill);
        // Put the loop accumulators and the control slots into registers
        // (docs/design.md, decision 3).
        // (Promoted first, the exit-test slots' PHIs end up after the others.)
        // The slots kept in hash maps are put in function order: the order of the
        // allocas decides the order of the PHIs promotion creates, and hash-map order
        // changes from run to run (the same source must give the same IR).
        let pos = alloca_positions(self.f);
        let mut a = in_order(self.rexit_slots(), &pos);
        a.extend(self.accs.iter().copied());
        a.extend(self.in_flight.iter().flatten().flat_map(|&(e, d)| [e, d]));
        if let Some(cf) = &self.cf {
            a.extend(in_order(cf.slots(), &pos));
        }
        if !a.is_empty() {
            let _t = crate::phases::Lap::new("promote");
            // SAFETY: `self.f` is the function being instrumented and `a` lists allocas we
            // inserted in it (taint module header); the shim reads `a.len()` entries.
            unsafe { crate::ffi::tp_promote_allocas(self.f, a.as_mut_ptr(), a.len() as u32) };
        }
        // Nothing optimizes after OptimizerLast: the code we inserted is cleaned up here,
        // and only it.
        let f = self.f;
        let ours_now = || -> Vec<V> {
            crate::phases::time("clean-up: collect", || {
                ir::blocks(f)
                    .into_iter()
                    .flat_map(ir::instructions)
                    .filter(|i| !originals.contains(i))
                    .collect()
            })
        };
        // Nor does LICM run: move loop-invariant label code (control labels, splats of
        // bound labels) to preheaders, and collapse induction-variable label cycles.
        if self.cfg.hoist {
            let mut ours = ours_now();
            // SAFETY: `self.f` is live and `ours` was collected after the last simplification
            // erased anything; the shim reads `ours.len()` entries.
            let hoisted = crate::phases::time("clean-up: hoist", || unsafe {
                crate::ffi::tp_hoist_labels(f, ours.as_mut_ptr(), ours.len() as u32)
            });
            self.stats.hoisted += hoisted as usize;
        }
        // Nor do InstSimplify, EarlyCSE and DCE: fold what became trivial (ORs with
        // labels that turned out to be 0), merge what repeats itself (the union for `S`
        // and for `R` of the same operands, `to_control` of one label at each use: every
        // repeat is code the back end compiles, docs/performance.md, stop 31), and delete
        // what nothing uses (unused slot loads).
        let mut ours = ours_now();
        // SAFETY: `self.f` is live and `ours` lists the instructions we inserted in it,
        // collected after the last change; the shim reads `ours.len()` entries and erases
        // only among them.
        let removed = crate::phases::time("clean-up: cse", || unsafe {
            crate::ffi::tp_cse(f, ours.as_mut_ptr(), ours.len() as u32)
        });
        self.stats.simplified += removed as usize;
        Ok(self.warnings)
    }

    /// Insert the deferred conditional calls (splits blocks).
    fn run_deferred(&mut self) {
        let ir = self.ir;
        for d in std::mem::take(&mut self.deferred) {
            // SAFETY: `d.before` is a live instruction of `self.f` (a terminator; earlier
            // splits only move it to a new block) and `d.cond` an `i1` computed before it.
            let bb = unsafe { crate::ffi::tp_split_if_then(d.cond, d.before) };
            ir.at_end(bb);
            ir.call(d.hook.ty, d.hook.f, &d.args);
            self.stats.cold_calls += 1;
        }
    }

    /// `ctrl(B)` of the block of instruction `i`, adapted to shadow type `t`, ORed into
    /// `s` (Rule 2 for updates: atomics); `s` unchanged when control-flow tainting is off.
    pub(crate) fn with_control(&mut self, i: V, s: V) -> V {
        self.with_write_control(i, s, false)
    }

    /// Rule 2 for a write of `s` by instruction `i`: nothing if the write is a `plain`
    /// overwrite, `ctrl(B)` if it updates the value it replaces.
    pub(crate) fn with_write_control(&mut self, i: V, s: V, plain: bool) -> V {
        if plain {
            return s;
        }
        match self.block_control_label(ir::block_of(i)) {
            Some(c) => {
                self.stats.control_writes += 1;
                let c = self.to_control(c);
                self.union(&[s, c], ir::type_of(s))
            }
            None => s,
        }
    }

    // ----- shadows of values -----

    pub(crate) fn zero(&self, t: T) -> V {
        self.ir.null(self.sty(t))
    }

    /// The shadow of any operand.
    pub(crate) fn shadow(&self, v: V) -> Result<V, String> {
        let t = ir::type_of(v);
        if ir::is_instruction(v) {
            if let Some(s) = self.shadows.get(&v) {
                return Ok(*s);
            }
            if !self.reachable.contains(&ir::block_of(v)) {
                // Defined in unreachable code: never executes.
                return Ok(self.zero(t));
            }
            return Err(inst_error(
                self.f,
                v,
                "internal error: value used before its label was computed",
                "Please report this",
            ));
        }
        if ir::is_argument(v) {
            let idx = self.param_index(v);
            return Ok(self.arg_shadows[idx]);
        }
        // Constants, globals, functions, metadata, inline asm: label 0.
        Ok(self.zero(t))
    }

    fn param_index(&self, a: V) -> usize {
        ir::params(self.f)
            .iter()
            .position(|p| *p == a)
            .expect("argument of this function")
    }

    /// Collapsed (`i16`) shadow of `v`.
    pub(crate) fn label(&self, v: V) -> Result<V, String> {
        Ok(self.collapse(self.shadow(v)?))
    }

    /// The shadow type of application type `t`: `i16` for scalars, pointers and
    /// aggregates; for a fixed vector one lane per element, as wide as the element when
    /// it has 32 or 64 bits (`<N x i32>` for `<N x float>`, `<N x i64>` for
    /// `<N x double>` and pointer vectors), `i16` lanes otherwise. Wide lanes hold the
    /// label in their low 16 bits; the bits above are don't-care (folding a lane's
    /// byte labels leaves partial unions there), so every place that needs an `i16`
    /// truncates ([`Self::collapse`], `extractelement`, [`Self::adapt`]). Lanes as wide
    /// as the data let the vector code fold and broadcast labels with shifts and
    /// shuffles in the data's own layout, without packing to and from `i16` lanes.
    pub(crate) fn sty(&self, t: T) -> T {
        if ir::is_vector(t) {
            let n = ir::vector_len(t);
            self.ir.vec(self.lane_ty(ir::element_type(t)), n)
        } else {
            self.ir.i16
        }
    }

    /// The shadow lane type of vector element type `e` (see [`Self::sty`]).
    pub(crate) fn lane_ty(&self, e: T) -> T {
        match self.ir.scalar_bits(e) {
            32 => self.ir.i32,
            64 => self.ir.i64,
            _ => self.ir.i16,
        }
    }

    /// OR all lanes of shadow `s` into one `i16` label (scalars pass through).
    pub(crate) fn collapse(&self, s: V) -> V {
        let r = self.ir.reduce_or(s);
        if ir::type_of(r) == self.ir.i16 {
            r
        } else {
            self.ir.trunc(r, self.ir.i16)
        }
    }

    /// Convert shadow `s` to shadow type `target`: the same type passes through, the
    /// same number of lanes converts lane by lane (truncate or zero-extend), otherwise
    /// collapse and (for vector targets) splat.
    pub(crate) fn adapt(&self, s: V, target: T) -> V {
        let ir = self.ir;
        let st = ir::type_of(s);
        if st == target {
            return s;
        }
        if ir::is_zero_const(s) {
            return ir.null(target);
        }
        if ir::is_vector(target) {
            let n = ir::vector_len(target);
            let et = ir::element_type(target);
            if ir::is_vector(st) && ir::vector_len(st) == n {
                let (sw, tw) = (ir.scalar_bits(ir::element_type(st)), ir.scalar_bits(et));
                return if sw > tw {
                    ir.trunc(s, target)
                } else {
                    ir.zext(s, target)
                };
            }
            let scalar = ir.zext(self.collapse(s), et);
            return ir.splat(scalar, n);
        }
        self.collapse(s)
    }

    /// Union of shadows, adapted to shadow type `target`.
    ///
    /// Unions are built from *leaf sets* ([`Leaves`]): the shadow of a load is "fold
    /// these raw shadow words", and folding (ORing the byte labels of a value together)
    /// distributes over OR, so the union of several loaded values ORs their raw words
    /// first and folds once (`fold(a) | fold(b) == fold(a | b)`). Scalar labels (pointer
    /// labels, control labels, splatted scalar operands) are ORed as `i16` and splatted
    /// once; repeated leaves are dropped. The result remembers its leaves, so a chain of
    /// unions (`a + b + c + d`) folds once at every point its value is needed; what the
    /// chain computed in between and nothing uses is deleted by `tp_simplify`.
    pub(crate) fn union(&self, shadows: &[V], target: T) -> V {
        let ir = self.ir;
        let mut distinct: Vec<V> = Vec::new();
        for &s in shadows {
            // The same label twice (one value passed twice) needs no second OR.
            if !distinct.contains(&s) && !ir::is_zero_const(s) {
                distinct.push(s);
            }
        }
        match distinct.as_slice() {
            [] => return ir.null(target),
            [s] => return self.adapt(*s, target),
            _ => {}
        }
        let mut acc = Leaves::default();
        for &s in &distinct {
            let st = ir::type_of(s);
            if st == target {
                if let Some(l) = self.leaves.borrow().get(&s) {
                    acc.merge(l);
                    continue;
                }
            }
            if !ir::is_vector(target) {
                acc.add_scalar(self.collapse(s));
            } else if st == target {
                acc.add_vector(s);
            } else if ir::is_vector(st) && ir::vector_len(st) == ir::vector_len(target) {
                acc.add_vector(self.adapt(s, target));
            } else {
                acc.add_scalar(self.collapse(s));
            }
        }
        if acc.size() > MAX_LEAVES {
            // Long chains: stop collecting (a union of `n` leaves emits `n` ORs).
            let mut r = ir.null(target);
            for &s in &distinct {
                r = ir.or(r, self.adapt(s, target));
            }
            return r;
        }
        self.materialize(acc, target)
    }

    /// Emit the union of leaf set `l` in shadow type `target` and remember its leaves.
    pub(crate) fn materialize(&self, l: Leaves, target: T) -> V {
        let ir = self.ir;
        let mut sc = ir.c16(0);
        for &x in &l.scalars {
            sc = ir.or(sc, x);
        }
        let mut r = if ir::is_vector(target) {
            if ir::is_zero_const(sc) {
                ir.null(target)
            } else {
                let et = ir::element_type(target);
                ir.splat(ir.zext(sc, et), ir::vector_len(target))
            }
        } else {
            sc
        };
        for &v in &l.vectors {
            r = ir.or(r, v);
        }
        for (fold, raws) in &l.groups {
            let mut x = raws[0];
            for &y in &raws[1..] {
                x = ir.or(x, y);
            }
            r = ir.or(r, self.fold_raw(x, *fold));
        }
        if !l.groups.is_empty() && !ir::is_zero_const(r) {
            self.leaves.borrow_mut().insert(r, l);
        }
        r
    }

    /// Union of the shadows of operands `ops` of `i`, for `i`'s result type.
    fn union_operands(&self, i: V, ops: &[u32]) -> Result<V, String> {
        let target = self.sty(ir::type_of(i));
        let mut s = Vec::new();
        for &k in ops {
            s.push(self.shadow(ir::operand(i, k))?);
        }
        Ok(self.union(&s, target))
    }

    pub(crate) fn set_shadow(&mut self, i: V, s: V) {
        self.shadows.insert(i, s);
    }

    // ----- the prologue -----

    fn prologue(&mut self, plan: Option<control::Plan>) {
        let ir = self.ir;
        let cf_on = plan.is_some();
        // The instrumented function reads and writes thread-local label slots and
        // shadow memory: attributes such as `memory(argmem: read)` or `memory(none)`
        // inferred for the original code are no longer true, and code generation
        // would be allowed to reorder our TLS accesses around calls to it.
        for a in MEMORY_ATTRS {
            ir.remove_fn_attr(self.f, a);
        }
        let entry = ir::entry_block(self.f);
        // Accumulators and control slots first, at the very top (static allocas).
        // SAFETY: `entry` is the entry block of the definition `self.f`: it has at least a
        // terminator.
        let first = unsafe { LLVMGetFirstInstruction(entry) };
        ir.before(first);
        if self.p.pruned.is_none() {
            for s in &self.p.sinks {
                let a = ir.alloca(ir.i16);
                self.accs.push(a);
                self.in_flight
                    .push(s.in_flight.then(|| (ir.alloca(ir.ptr), ir.alloca(ir.i64))));
            }
        }
        let slots = plan
            .as_ref()
            .map(|(_, _, need)| self.control_make_slots(need));
        // Then everything else after the entry block's leading allocas.
        // SAFETY: `entry` is the entry block of the definition `self.f` (taint module header).
        let mut ip = unsafe { LLVMGetFirstInstruction(entry) };
        while !ip.is_null() && ir::opcode(ip) == Op::LLVMAlloca {
            ip = ir::next_instruction(ip);
        }
        ir.before(ip);
        for &a in &self.accs {
            ir.store(ir.c16(0), a, 2);
        }
        if let Some(sl) = &slots {
            let mut v: Vec<(&usize, &V)> = sl.iter().collect();
            v.sort_unstable_by_key(|x| *x.0);
            for (_, &a) in v {
                ir.store(ir.c16(0), a, 2);
            }
        }
        let params = ir::params(self.f);
        // SAFETY: `self.f` is a live function (taint module header).
        let fnty = unsafe { LLVMGlobalGetValueType(self.f) };
        // SAFETY: `fnty` is the function type of `self.f`.
        let vararg = unsafe { LLVMIsFunctionVarArg(fnty) } != 0;
        // Stale-label protection. The label slots are only meaningful if the caller is
        // instrumented code that just filled them for this very call. A function called
        // from uninstrumented code — a qsort comparator, a thread start routine, an
        // OpenMP outlined region run by a worker, `main` called by libc, a constructor —
        // would otherwise read labels left behind by some earlier, unrelated call on
        // this thread and invent dependences. Callers store the called operand in
        // `__tp_callee_tls` before each call through the label ABI; if it is not us, the
        // arguments, byval sources, variadic label and entry control label are 0.
        let needs_canary = !params.is_empty() || vararg || plan.is_some();
        let ok = if needs_canary {
            let callee = ir.load(ir.ptr, self.rt.callee_tls, 8);
            Some(ir.icmp_eq(callee, self.f))
        } else {
            None
        };
        let guard = |v: V, zero: V| match ok {
            Some(ok) => ir.select(ok, v, zero),
            None => v,
        };
        // Argument labels: read before anything can call out and overwrite the slots.
        let mut pending_r = Vec::with_capacity(params.len());
        for (k, p) in params.iter().enumerate() {
            let slot = k.min(taintprof_abi::MAX_ARG_SLOTS - 1) as u64;
            let g = ir.const_elem_ptr(self.rt.arg_tls_ty, self.rt.arg_tls, slot);
            let l = guard(ir.load(ir.i16, g, 2), ir.c16(0));
            let st = self.sty(ir::type_of(*p));
            self.arg_shadows.push(self.adapt(l, st));
            let carries = identity::has_r(ir::type_of(*p)) && self.zflow.param_may_carry(self.f, k);
            pending_r.push((cf_on && carries).then_some((slot, l)));
        }
        if vararg {
            self.va_label = Some(guard(ir.load(ir.i16, self.rt.va_label_tls, 2), ir.c16(0)));
            // With a stale byte count va_start would clear the labels of a random
            // stretch of the caller's frame.
            self.va_bytes = Some(guard(ir.load(ir.i64, self.rt.va_bytes_tls, 8), ir.c64(0)));
        }
        // byval parameters: copy the shadow of the caller's object onto our copy.
        for (k, p) in params.iter().enumerate() {
            // SAFETY: `self.f` is a live function and `k` one of its parameter indices.
            let bt = unsafe { crate::ffi::tp_param_byval_type(self.f, k as u32) };
            if bt.is_null() || k >= taintprof_abi::MAX_ARG_SLOTS {
                continue;
            }
            let n = ir.alloc_size(bt);
            let slot = ir.const_elem_ptr(self.rt.byval_tls_ty, self.rt.byval_tls, k as u64);
            let src = guard(ir.load(ir.ptr, slot, 8), ir.null_ptr());
            // A null slot (uninstrumented caller) means "unknown": copy from an all-zero
            // object instead of branching.
            let zero_obj = self.zero_object(n);
            let is_null = ir.icmp_eq(src, ir.null_ptr());
            let from = ir.select(is_null, zero_obj, src);
            self.copy_shadow(*p, from, ir.c64(n), Some(n));
            ir.store(ir.null_ptr(), slot, 8);
        }
        let entry_label = plan
            .as_ref()
            .map(|_| guard(ir.load(ir.i16, self.rt.ctrl_tls, 2), ir.c16(0)));
        // Each argument's `R = S & !Z` (`identity.rs`); unused loads are simplified away.
        // Then the slots are cleared: a caller writes only the `Z` that may be non-zero,
        // so every slot must be 0 again once its callee has read it (`abi`,
        // `TLS_ARG_ITER_LABELS`).
        let mut read = Vec::new();
        for r in pending_r {
            self.arg_r.push(r.map(|(slot, l)| {
                let g = ir.const_elem_ptr(self.rt.argz_tls_ty, self.rt.argz_tls, slot);
                let z = guard(ir.load(ir.i16, g, 2), ir.c16(0));
                if slot < (taintprof_abi::MAX_ARG_SLOTS - 1) as u64 {
                    read.push(g);
                }
                ir.and(l, ir.not(z))
            }));
        }
        for g in read {
            ir.store(ir.c16(0), g, 2);
        }
        if self.p.tracked {
            let parent = ir.load(ir.ptr, self.rt.ctx_tls, 8);
            let site = ir.load(ir.ptr, self.rt.site_tls, 8);
            let fd = self.descs.func_ptr(ir, self.p.func_index);
            let node = ir.call(self.rt.enter.ty, self.rt.enter.f, &[parent, site, fd]);
            ir.store(node, self.rt.ctx_tls, 8);
            self.parent = Some(parent);
            self.node = Some(node);
        }
        if let (Some((deps, needy, _)), Some(slots), Some(e)) = (plan, slots, entry_label) {
            let shift = ir.load(ir.i16, self.rt.ctrl_shift, 2);
            let hi = ir.not(ir.lshr(ir.c16(0xffff), shift));
            self.control_install(deps, slots, e, (shift, hi), &needy);
        }
    }

    fn zero_object(&mut self, n: u64) -> V {
        if let Some(v) = self.zero_objs.get(&n) {
            return *v;
        }
        let t = self.ir.array_ty(self.ir.i8, n);
        let g = self
            .ir
            .private_global("taintprof.zero", self.ir.null(t), true);
        self.zero_objs.insert(n, g);
        g
    }

    // ----- per instruction -----

    fn visit(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        let op = ir::opcode(i);
        match op {
            Op::LLVMRet => self.visit_ret(i)?,
            Op::LLVMBr
            | Op::LLVMSwitch
            | Op::LLVMIndirectBr
            | Op::LLVMUnreachable
            | Op::LLVMResume
            | Op::LLVMFence => {}
            Op::LLVMCall | Op::LLVMInvoke => self.visit_call(i)?,
            Op::LLVMFNeg | Op::LLVMFreeze => {
                ir.after(i);
                let s = self.union_operands(i, &[0])?;
                self.set_shadow(i, s);
            }
            _ if ir::is_binary_op(op) => {
                ir.after(i);
                // A remainder, xor or low-bit mask names its operand: the labels a back
                // edge gave it say which iteration this is, not how big (`identity.rs`).
                let s = if self.cf.is_some()
                    && identity::has_r(ir::type_of(i))
                    && identity::is_identity_op(i)
                {
                    self.identity_shadow(i)?
                } else {
                    self.union_operands(i, &[0, 1])?
                };
                self.set_shadow(i, s);
            }
            _ if ir::is_cast_op(op) => {
                // `adapt` collapses and splats when a bitcast changes the lane count.
                ir.after(i);
                let s = self.union_operands(i, &[0])?;
                self.set_shadow(i, s);
            }
            Op::LLVMSelect => {
                ir.after(i);
                let target = self.sty(ir::type_of(i));
                let c = ir::operand(i, 0);
                let sa = self.adapt(self.shadow(ir::operand(i, 1))?, target);
                let sb = self.adapt(self.shadow(ir::operand(i, 2))?, target);
                let picked = if ir::is_zero_const(sa) && ir::is_zero_const(sb) {
                    sa
                } else {
                    ir.select(c, sa, sb)
                };
                // Like a PHI (Rule 1, "Pointers"): a condition that picks one object
                // over another selects an identity, and -O0 writes it as a PHI.
                let s = if ir::is_pointer_like(ir::type_of(i)) {
                    picked
                } else {
                    let sc = self.adapt(self.shadow(c)?, target);
                    ir.or(sc, picked)
                };
                self.set_shadow(i, s);
            }
            Op::LLVMPHI => {
                let b = ir::block_of(i);
                ir.before_with_records(ir::first_non_phi(b));
                let sp = ir.phi(self.sty(ir::type_of(i)));
                self.phis.push((i, sp));
                self.set_shadow(i, sp);
                self.visit_phi_r(i);
            }
            Op::LLVMGetElementPtr => {
                ir.after(i);
                let n: Vec<u32> = (0..ir::num_operands(i)).collect();
                let s = self.union_operands(i, &n)?;
                self.set_shadow(i, s);
            }
            Op::LLVMExtractElement => {
                ir.after(i);
                let sv = self.shadow(ir::operand(i, 0))?;
                let e = if ir::is_zero_const(sv) {
                    ir.c16(0)
                } else {
                    let e = ir.extract_element(sv, ir::operand(i, 1));
                    if ir::type_of(e) == ir.i16 {
                        e
                    } else {
                        ir.trunc(e, ir.i16)
                    }
                };
                let s = ir.or(e, self.label(ir::operand(i, 1))?);
                self.set_shadow(i, s);
            }
            Op::LLVMInsertElement => {
                ir.after(i);
                let target = self.sty(ir::type_of(i));
                let sv = self.adapt(self.shadow(ir::operand(i, 0))?, target);
                let se = self.label(ir::operand(i, 1))?;
                let r = if ir::is_zero_const(sv) && ir::is_zero_const(se) {
                    sv
                } else {
                    let se = ir.zext(se, ir::element_type(target));
                    ir.insert_element(sv, se, ir::operand(i, 2))
                };
                let sidx = self.label(ir::operand(i, 2))?;
                let s = ir.or(r, self.adapt(sidx, target));
                self.set_shadow(i, s);
            }
            Op::LLVMShuffleVector => {
                ir.after(i);
                let s1 = self.shadow(ir::operand(i, 0))?;
                let s2 = self.shadow(ir::operand(i, 1))?;
                let target = self.sty(ir::type_of(i));
                let s = if ir::is_zero_const(s1) && ir::is_zero_const(s2) {
                    ir.null(target)
                } else {
                    // SAFETY: `i` is a live shufflevector (this match arm).
                    let n = unsafe { LLVMGetNumMaskElements(i) };
                    // SAFETY: a constant query without arguments.
                    let undef = unsafe { LLVMGetUndefMaskElem() };
                    let lanes: Vec<Option<u32>> = (0..n)
                        .map(|k| {
                            // SAFETY: `i` is a shufflevector and `k` < its mask length `n`.
                            let m = unsafe { LLVMGetMaskValue(i, k) };
                            if m == undef || m < 0 {
                                None
                            } else {
                                Some(m as u32)
                            }
                        })
                        .collect();
                    ir.shuffle(s1, s2, ir.mask(&lanes))
                };
                self.set_shadow(i, s);
            }
            Op::LLVMExtractValue => {
                ir.after(i);
                let s = self.union_operands(i, &[0])?;
                self.set_shadow(i, s);
            }
            Op::LLVMInsertValue => {
                ir.after(i);
                let s = self.union_operands(i, &[0, 1])?;
                self.set_shadow(i, s);
            }
            Op::LLVMLoad => self.visit_load(i)?,
            Op::LLVMStore => self.visit_store(i)?,
            Op::LLVMAtomicRMW => self.visit_atomicrmw(i)?,
            Op::LLVMAtomicCmpXchg => self.visit_cmpxchg(i)?,
            Op::LLVMAlloca => self.visit_alloca(i),
            Op::LLVMLandingPad => {
                self.set_shadow(i, ir.c16(0));
                if let Some(node) = self.node {
                    // An exception unwound through callees that did not restore the
                    // context: we are running again.
                    ir.after(i);
                    ir.store(node, self.rt.ctx_tls, 8);
                }
            }
            Op::LLVMVAArg => {
                ir.after(i);
                let target = self.sty(ir::type_of(i));
                let s = match self.va_label {
                    Some(l) => self.adapt(l, target),
                    None => ir.null(target),
                };
                self.set_shadow(i, s);
            }
            _ => {
                return Err(inst_error(
                    self.f,
                    i,
                    "taintprof does not know how this instruction moves labels",
                    "Please report this; meanwhile compile this file with TAINTPROF_MODE=off",
                ))
            }
        }
        self.visit_r(i)?;
        Ok(())
    }

    fn visit_ret(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        // A `musttail` call must be immediately followed by the `ret`: restore the
        // context before the call and let the callee set the return label.
        // SAFETY: `i` is the live `ret` being visited; null when it starts its block.
        let prev = unsafe { LLVMGetPreviousInstruction(i) };
        let musttail = !prev.is_null()
            && ir::opcode(prev) == Op::LLVMCall
            // SAFETY: `prev` is a live, non-null instruction; the shim checks that it is a call.
            && unsafe { crate::ffi::tp_call_is_musttail(prev) } != 0;
        if musttail {
            ir.before(prev);
            self.recursion_exit();
        } else {
            ir.before(i);
            self.recursion_exit();
            if ir::num_operands(i) == 1 {
                let mut l = self.label(ir::operand(i, 0))?;
                // Rule 3: returning from different places is a join (not for pointers,
                // see Rule 1 in `fill_phis`).
                let v = ir::operand(i, 0);
                let mut r = self.rlabel_at(v, ir::block_of(i))?;
                let differs = r != l;
                if !ir::is_pointer_like(ir::type_of(v)) {
                    if let Some(c) = self.ret_control_label(ir::block_of(i)) {
                        let c = self.to_control(c);
                        l = ir.or(l, c);
                        r = ir.or(r, c);
                    }
                }
                ir.store(l, self.rt.ret_tls, 2);
                // `Z` of the result (`identity.rs`): always written where a caller may
                // read it, or it would read what a callee of ours left.
                if self.cf.is_some() && self.zflow.writes_result_z(self.f) {
                    // `l ^ r` rather than `l & !r`: the caller takes `S & !Z`, which
                    // is `l & r` either way.
                    let z = if differs { ir.xor(l, r) } else { ir.c16(0) };
                    ir.store(z, self.rt.retz_tls, 2);
                }
            }
        }
        if let Some(parent) = self.parent {
            ir.store(parent, self.rt.ctx_tls, 8);
        }
        Ok(())
    }

    fn fill_phis(&mut self) -> Result<(), String> {
        let ir = self.ir;
        let phis = std::mem::take(&mut self.phis);
        for &(phi, sp) in &phis {
            // SAFETY: `phi` is a PHI of `self.f` recorded by `visit` (`self.phis`), still live.
            let n = unsafe { LLVMCountIncoming(phi) };
            let to = ir::block_of(phi);
            // A block named twice (a switch with two cases to one target) must get the
            // same incoming value each time.
            let mut done: HashMap<B, V> = HashMap::new();
            // A join of one value (`if (x) r = 2; else r = 2;`, or `v` and the PHI
            // itself around a loop) selects nothing: Rule 1 adds no label.
            let selects = phi_selects(phi);
            for k in 0..n {
                // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
                let v = unsafe { LLVMGetIncomingValue(phi, k) };
                // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
                let from = unsafe { LLVMGetIncomingBlock(phi, k) };
                if let Some(&s) = done.get(&from) {
                    ir.add_incoming(sp, s, from);
                    continue;
                }
                let mut s = self.adapt(self.shadow(v)?, ir::type_of(sp));
                // Rule 1 does not apply to pointers: a decision that picks one object
                // over another (swapped buffers, a selected solver's data) selects an
                // identity; what is then read from the object carries its own labels.
                let pointer = ir::is_pointer_like(ir::type_of(phi));
                if let Some(e) = (!pointer && selects)
                    .then(|| self.edge_label(from, to, ir::type_of(sp)))
                    .transpose()?
                    .flatten()
                {
                    ir.at_end(from);
                    s = ir.or(s, e);
                }
                done.insert(from, s);
                ir.add_incoming(sp, s, from);
            }
        }
        self.remove_zero_phis(&phis);
        Ok(())
    }

    /// Replace, in every map that holds label values (shadows, `R` labels, cached
    /// edge and block labels), each value `v` for which `to(v)` says so: the value is
    /// about to be erased.
    pub(crate) fn redirect_labels(&mut self, to: impl Fn(V) -> Option<V>) {
        let fix = |x: &mut V| {
            if let Some(n) = to(*x) {
                *x = n;
            }
        };
        self.shadows.values_mut().for_each(fix);
        self.rshadows.values_mut().for_each(fix);
        if let Some(cf) = self.cf.as_mut() {
            cf.for_each_label_mut(fix);
        }
    }

    /// Shadow PHIs whose incoming values are all zero or other such PHIs (induction
    /// variables, loop counters) are zero: replace them, so that the hot loops do not
    /// carry label PHIs that can only ever be 0. Optimistic fixpoint.
    fn remove_zero_phis(&mut self, phis: &[(V, V)]) {
        let mut zero: HashSet<V> = phis.iter().map(|p| p.1).collect();
        loop {
            let mut changed = false;
            for &(_, sp) in phis {
                if !zero.contains(&sp) {
                    continue;
                }
                // SAFETY: `sp` is one of our shadow PHIs; none is erased before the loop below.
                let n = unsafe { LLVMCountIncoming(sp) };
                let ok = (0..n).all(|k| {
                    // SAFETY: `sp` is a live PHI and `k` < its incoming count `n`.
                    let v = unsafe { LLVMGetIncomingValue(sp, k) };
                    ir::is_zero_const(v) || zero.contains(&v)
                });
                if !ok {
                    zero.remove(&sp);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if zero.is_empty() {
            return;
        }
        // Shadows of other values, and cached edge and block labels, may *be* one of
        // these PHIs (an OR with 0 folds to its other operand): redirect every map entry
        // before erasing.
        let ir = self.ir;
        self.redirect_labels(|v| zero.contains(&v).then(|| ir.null(ir::type_of(v))));
        for &(_, sp) in phis {
            if zero.contains(&sp) {
                let z = self.ir.null(ir::type_of(sp));
                // SAFETY: `sp` is a live shadow PHI listed once in `phis`; every map entry
                // naming it was redirected to 0 above, so nothing hands it out once erased.
                unsafe {
                    LLVMReplaceAllUsesWith(sp, z);
                    LLVMInstructionEraseFromParent(sp);
                }
                self.stats.zero_shadow_phis += 1;
            }
        }
    }
}

/// Whether PHI `phi` selects between values (Rule 1 gives it edge labels). A join of
/// one value (`if (x) r = 2; else r = 2;`, or `v` and the PHI itself around a loop)
/// selects nothing. Nor does a join of loads, which only picks which memory was read:
/// the -O2 form of a load through a selected pointer (GVN forwarding `u->n` through a
/// loop that swaps `u` and `v`), which Rule 1 leaves alone ("Pointers"); the values
/// carry the labels of the memory they were read from.
pub(crate) fn phi_selects(phi: V) -> bool {
    // SAFETY: callers pass a live PHI of the function (taint module header).
    let n = unsafe { LLVMCountIncoming(phi) };
    let mut values: Vec<V> = (0..n)
        // SAFETY: `phi` is a live PHI and `k` < its incoming count `n`.
        .map(|k| unsafe { LLVMGetIncomingValue(phi, k) })
        .filter(|&v| v != phi)
        .collect();
    values.sort_unstable();
    values.dedup();
    let from_memory = values
        .iter()
        .all(|&v| ir::is_instruction(v) && ir::opcode(v) == Op::LLVMLoad);
    values.len() > 1 && !from_memory
}

/// The position of every alloca of `f` in function order.
fn alloca_positions(f: V) -> HashMap<V, usize> {
    let mut pos = HashMap::new();
    for b in ir::blocks(f) {
        for i in ir::instructions(b) {
            if ir::opcode(i) == Op::LLVMAlloca {
                let n = pos.len();
                pos.insert(i, n);
            }
        }
    }
    pos
}

/// `slots` sorted by their position in the function (`alloca_positions`).
fn in_order(mut slots: Vec<V>, pos: &HashMap<V, usize>) -> Vec<V> {
    slots.sort_by_key(|v| pos.get(v).copied().unwrap_or(usize::MAX));
    slots
}
