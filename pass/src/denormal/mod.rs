//! Denormal mode (`TAINTPROF_MODE=denormal`, opt pipeline `taintprof-denormal`): the
//! design is `docs/internal/denormal-mode.md`, the contract the denormal section of
//! `taintprof_abi`. Taint instrumentation does not run in this mode.
//!
//! | module      | concern                                                               |
//! |-------------|-----------------------------------------------------------------------|
//! | `mod.rs`    | planning a function: its sites, counters, arrays, allocation sites    |
//! | `module`    | the mode's module-level steps for `crate::module`: pre-check, plan, statistics |
//! | `fptype`    | FP formats, the `isdenorm` constants                                  |
//! | `classify`  | which instructions are sites (operands, result, op name), allocators, floats moved as doubles |
//! | `func`      | per-function instrumentation: the state, the prologue, the order of the work |
//! | `fastpath`  | groups of sites and their fast-path filter                            |
//! | `cover`     | fast-path coverage: values the filter proves normal                   |
//! | `cold`      | cold regions: rematerialization, exact lane masks, per-site code      |
//! | `memcache`  | the inline memory cache of loads and stores                           |
//! | `counters`  | this thread's block counters: block counts, inline counters           |
//! | `tags`      | SSA tags: on demand, moves, joins, PHIs, inline result tags           |
//! | `calls`     | the call ABI of tags                                                  |
//! | `copies`    | `memcpy`/`memmove`, floats moved as doubles                           |
//! | `objects`   | registration and release of a function's arrays and heap blocks       |
//! | `arrays`    | marked arrays: globals, stack arrays, typing of heap allocations     |
//! | `desc`      | `FpSiteDesc`/`FpArrayDesc`/`AllocSiteDesc`/`DnModuleDesc`, ctor, sidecar |
//! | `runtime`   | declarations of the runtime's TLS slots and hooks                    |
//!
//! Order for a module (the driver is `crate::module`, shared with taint mode; this
//! mode's steps are in `module.rs`): pre-check every function (nothing is changed when
//! something cannot be instrumented); prepare (alloca promotion, so -O0 and -O3 see the
//! same values; CFG and loops, for the sites' innermost loops); describe functions and
//! loops; find the global arrays; plan every function (its sites and their descriptor
//! indices, block counters, stack arrays, typed allocation sites); reserve the
//! descriptor arrays; instrument; fill the descriptors and register the module from a
//! constructor; write the sidecar.
//!
//! ## Safety
//!
//! The `unsafe` blocks of this module and of its sub-modules (the "denormal module
//! header" their SAFETY comments refer to) call llvm_sys and the shim (`crate::ffi`) on
//! the function being planned or instrumented (`DnFn::f`, a definition:
//! `should_instrument` skips declarations), on its blocks and instructions (the
//! original ones and the ones we inserted) and on constants, types and globals of the
//! module. All are live handles of the module the pass manager hands us, valid while
//! the pass runs (see the `ir` module header). The only instructions we erase are our
//! own (zero tag PHIs after their uses are replaced, the entry anchor), and the
//! instruction lists passed to the shim are collected afresh before each call. Each
//! SAFETY comment says which kind of handle the call needs (an instruction, a PHI, an
//! invoke, an `i1` condition computed before the split point) and why we have one.

pub mod arrays;
mod calls;
pub mod classify;
mod cold;
mod copies;
mod counters;
mod cover;
pub mod desc;
mod fastpath;
pub mod fptype;
mod func;
mod memcache;
pub mod module;
mod objects;
pub mod runtime;
mod tags;

use crate::abilist::AbiList;
use crate::debugloc::{line_of, Namer};
use crate::descriptors::Site;
use crate::ir::{self, Ir, B, V};
use crate::prepare::Prepared;
use classify::{alloc_fn, is_free_fn, site_spec, AllocFn, SiteKind, SiteSpec};
use desc::{AllocSiteInfo, DnDescs, FpArrayInfo, FpSiteInfo};
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::{HashMap, HashSet};
use taintprof_abi as abi;

/// Per-module counters (printed with `TAINTPROF_VERBOSE=1`).
#[derive(Debug, Default)]
pub struct DnStats {
    pub functions: usize,
    pub skipped_functions: usize,
    pub promoted_allocas: usize,
    pub sites_instrumented: usize,
    pub checks: usize,
    /// Values left out of the fast-path filter because it proves them normal.
    pub covered: usize,
    /// Cold regions that first re-test exactly (their filter's threshold was raised).
    pub exact_retests: usize,
    /// Cold regions moved into functions of their own (`DnFn::outline_cold_regions`).
    pub outlined: usize,
    pub merged_stores: usize,
    pub cold_regions: usize,
    pub hook_calls: usize,
    pub rematerialized: usize,
    pub param_tags: usize,
    pub ret_tags: usize,
    pub calls_with_tags: usize,
    pub calls_without_tags: usize,
    pub wrapped_calls: usize,
    pub shadow_copies: usize,
    pub float_pair_copies: usize,
    pub zero_tag_phis: usize,
    pub simplified: usize,
    pub stack_arrays: usize,
    pub vlas: usize,
    pub typed_allocations: usize,
    pub untyped_allocations: usize,
    pub releases: usize,
    pub inline_asm_fp: usize,
    pub invoke_sites: usize,
    /// Operation sites (16-lane chunks) handled inline, without `__tpd_op`.
    pub inline_op_sites: usize,
}

/// A site of the function being instrumented.
pub struct PlannedSite {
    pub spec: SiteSpec,
    /// Index of its first `FpSiteDesc` (one per 16-lane chunk, consecutive).
    pub first_desc: usize,
}

/// A fixed-size stack array: its `FpArrayDesc` template and where it comes into and
/// goes out of scope (`lifetime.start`/`end`; without markers, the function's entry).
pub struct StackArray {
    pub alloca: V,
    pub desc: V,
    pub starts: Vec<V>,
    pub ends: Vec<V>,
}

/// A `std::vector` of an FP type at address `obj` (a local vector, or a member): after
/// each call given that address, its elements' heap array takes the user's name for it
/// (`site`: an `AllocSiteDesc` naming `v`, `g.cells` or `this->cells`) unless it has a
/// better one. Without inlining (`-O0`) the elements are allocated in the library's
/// allocator, whose site names no variable.
pub struct Container {
    pub obj: V,
    pub site: V,
    pub calls: Vec<V>,
}

/// A variable-length stack array: registered like a heap block.
pub struct Vla {
    pub alloca: V,
    pub site: V,
    pub elem_size: u64,
    /// `llvm.stackrestore` calls that free it.
    pub restores: Vec<V>,
    /// Returns it dominates: released there directly.
    pub rets: Vec<V>,
    /// Returns it does not dominate (it was allocated on some paths only, such as a
    /// VLA declared in a conditional block): released there through a slot that holds
    /// its address once allocated, null before. Naming the alloca there would be
    /// invalid IR (a use not dominated by its definition).
    pub late_rets: Vec<V>,
}

/// A call to an allocation function; `site` is set when the block was typed as FP.
pub struct AllocCall {
    pub call: V,
    pub kind: AllocFn,
    pub site: Option<V>,
}

#[derive(Default)]
pub struct FnPlan {
    pub sites: HashMap<V, PlannedSite>,
    /// Block counter index of every original block with sites.
    pub counters: HashMap<B, u32>,
    pub stack_arrays: Vec<StackArray>,
    pub vlas: Vec<Vla>,
    pub allocs: Vec<AllocCall>,
    pub frees: Vec<V>,
    /// Floats moved as doubles ([`classify::float_pair_copy`]): each store of such a
    /// copy -> the address its value was loaded from. Neither the load nor the store is
    /// a site.
    pub pair_copies: HashMap<V, V>,
    pub containers: Vec<Container>,
}

impl FnPlan {
    /// Sizes (in tags) of the cold regions' operand and result buffers: enough for the
    /// widest site of the function (a scalar-only function needs a few words of stack,
    /// not 64), `None` without sites.
    fn buffer_slots(&self) -> Option<(u64, u64)> {
        let mut op = 1u64;
        let mut res = 1u64;
        for ps in self.sites.values() {
            let lanes = ps.spec.chunk_lanes(0) as u64;
            let operands = (ps.spec.operands.len() as u64).max(1);
            op = op.max(operands * lanes);
            res = res.max(lanes);
        }
        (!self.sites.is_empty()).then_some((op, res))
    }
}

/// Where FP site `i` is in the source. Its own debug location if that names a line;
/// the optimizer gives line 0 to what it hoists or merges (an invariant `x * 1e-39f`
/// taken out of its loop), and a report row at "line 0" tells the user nothing. Then:
/// the nearest user, through the lane moves and merges the vectorizer adds (splats,
/// phis, selects, which carry the loop's line), that names a line — the statement that
/// consumes the value, usually the one it was written in; else the first located of
/// those moves; else the next located instruction of its block.
fn site_location(i: V) -> inkwell::llvm_sys::prelude::LLVMMetadataRef {
    let located = |x: V| {
        let l = Namer::inst_loc(x);
        (!l.is_null() && line_of(l) != 0).then_some(l)
    };
    if let Some(l) = located(i) {
        return l;
    }
    let moves = |x: V| {
        matches!(
            ir::opcode(x),
            Op::LLVMInsertElement
                | Op::LLVMShuffleVector
                | Op::LLVMExtractElement
                | Op::LLVMPHI
                | Op::LLVMSelect
                | Op::LLVMBitCast
        )
    };
    let mut fallback = None;
    let mut queue = std::collections::VecDeque::from([i]);
    let mut seen = HashSet::from([i]);
    while let Some(v) = queue.pop_front() {
        if seen.len() > 64 {
            break;
        }
        for user in ir::users(v) {
            if !ir::is_instruction(user) || !seen.insert(user) {
                continue;
            }
            match (located(user), moves(user)) {
                (Some(l), false) => return l,
                (l, true) => {
                    fallback = fallback.or(l);
                    queue.push_back(user);
                }
                (None, false) => {}
            }
        }
    }
    if let Some(l) = fallback {
        return l;
    }
    let mut next = ir::next_instruction(i);
    while !next.is_null() {
        if let Some(l) = located(next) {
            return l;
        }
        next = ir::next_instruction(next);
    }
    Namer::inst_loc(i)
}

/// Whether instruction `a` dominates instruction `b` (original CFG of `p`).
fn inst_dominates(p: &Prepared, a: V, b: V) -> bool {
    let (ba, bb) = (ir::block_of(a), ir::block_of(b));
    if ba == bb {
        let mut i = a;
        while !i.is_null() {
            if i == b {
                return true;
            }
            i = ir::next_instruction(i);
        }
        return false;
    }
    match (p.an.index.get(&ba), p.an.index.get(&bb)) {
        (Some(&x), Some(&y)) => p.an.dom.dominates(x, y),
        _ => false,
    }
}

struct Planner<'a> {
    ir: &'a Ir,
    list: &'a AbiList,
    d: &'a mut DnDescs,
    stats: &'a mut DnStats,
    /// Operation sites get inline counters (`Config::dn_inline_ops`).
    inline_ops: bool,
    /// Loads and stores get inline caches (`Config::dn_inline_mem`, with `inline_ops`).
    inline_mem: bool,
    /// The profile tier (`Config::dn_profile`): no arrays, allocation sites or copies
    /// are planned, and every load and store site counts inline.
    profile: bool,
}

impl Planner<'_> {
    fn plan(&mut self, p: &Prepared) -> FnPlan {
        let mut plan = FnPlan::default();
        let f = p.f;
        let entry = ir::entry_block(f);
        let rpo = p.an.cfg.reverse_post_order();
        let mut restores: Vec<V> = Vec::new();
        if !self.profile {
            self.containers(p, &mut plan);
        }
        let mut not_sites: HashSet<V> = HashSet::new();
        for &bi in &rpo {
            for i in ir::instructions(p.an.blocks[bi]) {
                if let Some(stores) = classify::float_pair_copy(i) {
                    // Not sites in either tier (the profiles must match); the profile
                    // tier has no tags or arrays for their copy to move or count.
                    not_sites.insert(i);
                    for s in stores {
                        not_sites.insert(s);
                        if !self.profile {
                            plan.pair_copies.insert(s, ir::operand(i, 0));
                        }
                    }
                }
            }
        }
        self.stats.float_pair_copies += plan.pair_copies.len();
        for &bi in &rpo {
            let b = p.an.blocks[bi];
            for i in ir::instructions(b) {
                let op = ir::opcode(i);
                if not_sites.contains(&i) {
                    continue;
                }
                if let Ok(Some(spec)) = site_spec(i, self.list) {
                    if op == Op::LLVMInvoke {
                        // A listed libm function called with an unwind edge: its result
                        // cannot be tested before the block ends; it goes through the
                        // call ABI like any call.
                        self.stats.invoke_sites += 1;
                    } else {
                        self.add_site(&mut plan, p, bi, b, i, spec);
                    }
                }
                if self.profile {
                    continue;
                }
                match op {
                    Op::LLVMCall | Op::LLVMInvoke => {
                        let callee = ir::called_function(i);
                        if callee.is_null() {
                            continue;
                        }
                        let name = ir::name_of(callee);
                        if name == "llvm.stackrestore" || name.starts_with("llvm.stackrestore.") {
                            restores.push(i);
                        } else if is_free_fn(&name) && ir::num_call_args(i) >= 1 {
                            plan.frees.push(i);
                        } else if let Some(kind) = alloc_fn(&name) {
                            let site = self.type_allocation(p, i, kind, &name);
                            plan.allocs.push(AllocCall {
                                call: i,
                                kind,
                                site,
                            });
                        }
                    }
                    Op::LLVMAlloca => {
                        let static_ =
                            b == entry && ir::const_int_value(ir::operand(i, 0)).is_some();
                        self.plan_alloca(&mut plan, p, i, static_);
                    }
                    _ => {}
                }
            }
        }
        // A stackrestore frees the variable-length arrays allocated after its
        // stacksave: the save dominates the array, the array dominates the restore.
        for v in plan.vlas.iter_mut() {
            for &r in &restores {
                let s = ir::operand(r, 0);
                let is_save = ir::is_instruction(s)
                    && ir::opcode(s) == Op::LLVMCall
                    && ir::name_of(ir::called_function(s)).starts_with("llvm.stacksave");
                if is_save && inst_dominates(p, s, v.alloca) && inst_dominates(p, v.alloca, r) {
                    v.restores.push(r);
                }
            }
            for &bi in &rpo {
                let t = ir::terminator(p.an.blocks[bi]);
                if t.is_null() || ir::opcode(t) != Op::LLVMRet {
                    continue;
                }
                if inst_dominates(p, v.alloca, t) {
                    v.rets.push(t);
                } else {
                    v.late_rets.push(t);
                }
            }
        }
        plan
    }

    fn add_site(&mut self, plan: &mut FnPlan, p: &Prepared, bi: usize, b: B, i: V, spec: SiteSpec) {
        let d = &mut *self.d;
        let next = d.n_blocks;
        let block = *plan.counters.entry(b).or_insert_with(|| {
            d.n_blocks += 1;
            next
        });
        let chain = d.base.namer.chain(site_location(i), p.f);
        let site = Site {
            chain,
            loop_: p.loop_around(bi),
        };
        let first = d.sites.len();
        // The profile tier counts every load and store inline (word 0 of its words):
        // it has no hook to call for them.
        let inline = match spec.kind {
            SiteKind::Load { .. } | SiteKind::Store { .. } if self.profile => true,
            _ => {
                self.inline_ops
                    && match spec.kind {
                        SiteKind::Op => lane_shaped(&spec),
                        SiteKind::Load { gather, .. } => {
                            self.inline_mem && !gather && inline_mem_type(&spec)
                        }
                        SiteKind::Store { scatter, .. } => {
                            self.inline_mem && !scatter && inline_mem_type(&spec)
                        }
                    }
            }
        };
        // A denormal constant operand does not keep the site from creating: the
        // denormal enters the computation here (the full tier's tags agree: a
        // constant's tag names no creator, so the site becomes it).
        let const_operands = spec
            .operands
            .iter()
            .take(16)
            .enumerate()
            .filter(|(_, &o)| ir::is_constant(o))
            .fold(0u16, |m, (k, _)| m | 1 << k);
        for c in 0..spec.chunks() {
            // Inline counters are numbered after all blocks (`number_inline_counters`).
            let counters = if inline {
                INLINE_COUNTERS_PENDING
            } else {
                abi::FPSITE_NO_COUNTERS
            };
            d.sites.push(FpSiteInfo {
                site: site.clone(),
                op: spec.op.clone(),
                fp: spec.fp,
                lanes: spec.chunk_lanes(c) as u16,
                flags: spec.flags,
                block,
                counters,
                const_operands,
            });
        }
        if inline && matches!(spec.kind, SiteKind::Op) {
            self.stats.inline_op_sites += spec.chunks() as usize;
        }
        plan.sites.insert(
            i,
            PlannedSite {
                spec,
                first_desc: first,
            },
        );
    }

    /// `(function, file, line)` of instruction `i` in the function it was written in.
    fn written_at(&mut self, p: &Prepared, i: V) -> (String, String, u32) {
        let chain = self.d.base.namer.chain(Namer::inst_loc(i), p.f);
        let l = chain.last().expect("chains are never empty");
        (l.function.clone(), l.file.clone(), l.line)
    }

    /// Where allocation call `i` was written, as a user reads it: the innermost frame of
    /// its inline chain outside the system's headers. `std::vector<float> v(n)` at -O2
    /// calls `operator new` in `std::allocator<float>::allocate`, inlined into the
    /// user's function: the site is the line of `v`, not `new_allocator.h`. Without
    /// inlining there is no such frame, and the library's line it is.
    fn allocated_at(&mut self, p: &Prepared, i: V) -> (String, String, u32) {
        let chain = self.d.base.namer.chain(Namer::inst_loc(i), p.f);
        let l = chain
            .iter()
            .rev()
            .find(|l| !is_system_header(&l.file))
            .or(chain.last())
            .expect("chains are never empty");
        (l.function.clone(), l.file.clone(), l.line)
    }

    fn plan_alloca(&mut self, plan: &mut FnPlan, p: &Prepared, a: V, static_: bool) {
        let Some((elem, elements, var)) =
            arrays::stack_array(self.ir, &mut self.d.base.namer, a, static_)
        else {
            return;
        };
        let (function, file, line) = self.written_at(p, a);
        match elements {
            Some(n) => {
                let info = FpArrayInfo {
                    name: var
                        .as_ref()
                        .map_or_else(|| ir::name_of(a), |v| v.name.clone()),
                    function: var
                        .as_ref()
                        .map(|v| v.function.clone())
                        .filter(|f| !f.is_empty())
                        .unwrap_or(function),
                    file: var.as_ref().map_or(file, |v| v.file.clone()),
                    line: var.as_ref().map_or(line, |v| v.line),
                    elem,
                    kind: abi::ARRAY_STACK,
                    elements: n,
                    addr: None,
                };
                let desc = self.d.stack_template(self.ir, info);
                let mut starts = Vec::new();
                let mut ends = Vec::new();
                for user in ir::users(a) {
                    if !ir::is_instruction(user) || ir::opcode(user) != Op::LLVMCall {
                        continue;
                    }
                    let n = ir::name_of(ir::called_function(user));
                    if n.starts_with("llvm.lifetime.start") {
                        starts.push(user);
                    } else if n.starts_with("llvm.lifetime.end") {
                        ends.push(user);
                    }
                }
                plan.stack_arrays.push(StackArray {
                    alloca: a,
                    desc,
                    starts,
                    ends,
                });
            }
            None => {
                let info = AllocSiteInfo {
                    name: var.as_ref().map_or_else(String::new, |v| v.name.clone()),
                    function,
                    file,
                    line,
                    elem,
                    allocator: "alloca".into(),
                    typed_by: if var.is_some() {
                        "debug-info"
                    } else {
                        "ir-type"
                    },
                };
                let site = self.d.alloc_site(self.ir, info);
                plan.vlas.push(Vla {
                    alloca: a,
                    site,
                    elem_size: elem.elem_size(),
                    restores: Vec::new(),
                    rets: Vec::new(),
                    late_rets: Vec::new(),
                });
            }
        }
    }

    /// The `AllocSiteDesc` of an allocation call whose block could be typed as FP.
    /// Every `std::vector` of an FP type whose address a call of the function is given
    /// (a local vector, a member of an object a variable holds or points to), with
    /// those calls.
    fn containers(&mut self, p: &Prepared, plan: &mut FnPlan) {
        // The library's own functions (the vector's members, called with `this`) name
        // nothing: the user's code names its vectors.
        let own = self.d.base.namer.function_loc(p.f);
        if own.file.is_empty() || is_system_header(&own.file) {
            return;
        }
        let mut found: Vec<(V, Vec<V>)> = Vec::new();
        for &b in &p.an.blocks {
            for call in ir::instructions(b) {
                if !matches!(ir::opcode(call), Op::LLVMCall | Op::LLVMInvoke) {
                    continue;
                }
                let f = ir::called_function(call);
                if f.is_null() || ir::intrinsic_id(f) != 0 {
                    continue;
                }
                for k in 0..ir::num_call_args(call) {
                    let a = ir::operand(call, k);
                    if ir::type_of(a) != self.ir.ptr {
                        continue;
                    }
                    match found.iter_mut().find(|(x, _)| *x == a) {
                        Some((_, calls)) if !calls.contains(&call) => calls.push(call),
                        Some(_) => {}
                        None => found.push((a, vec![call])),
                    }
                }
            }
        }
        for (obj, calls) in found {
            let own = arrays::own_subprogram(calls[0]);
            let Some((name, elem, var, by_pointer)) =
                arrays::fp_vector_at(&mut self.d.base.namer, obj, own)
            else {
                continue;
            };
            // A declared variable gives its own line; `this` (artificial, line 0) the
            // first call's.
            let (function, file, line) = if var.line != 0 {
                (var.function, var.file, var.line)
            } else {
                self.allocated_at(p, calls[0])
            };
            let info = AllocSiteInfo {
                name,
                function,
                file,
                line,
                elem,
                allocator: if by_pointer {
                    "std::vector *".into()
                } else {
                    "std::vector".into()
                },
                typed_by: "debug-info",
            };
            let site = self.d.alloc_site(self.ir, info);
            plan.containers.push(Container { obj, site, calls });
        }
    }

    fn type_allocation(&mut self, p: &Prepared, call: V, kind: AllocFn, name: &str) -> Option<V> {
        let roots: Vec<V> = if kind == AllocFn::PosixMemalign {
            // The block comes back through `*memptr`: the variable `memptr` points to,
            // and the pointers loaded from it.
            let mp = ir::operand(call, 0);
            let mut r = Vec::new();
            for user in ir::users(mp) {
                if ir::is_instruction(user)
                    && ir::opcode(user) == Op::LLVMLoad
                    && ir::type_of(user) == self.ir.ptr
                {
                    r.push(user);
                }
            }
            r
        } else {
            vec![call]
        };
        let mut ev = Vec::new();
        if kind == AllocFn::PosixMemalign {
            // The callee stores the block at `memptr`: the variable or member there.
            ev.extend(arrays::stored_into(
                &mut self.d.base.namer,
                ir::operand(call, 0),
                arrays::own_subprogram(call),
            ));
        }
        ev.extend(arrays::evidence(&mut self.d.base.namer, &roots));
        let Some((elem, var, typed_by)) = arrays::decide(&ev) else {
            self.stats.untyped_allocations += 1;
            return None;
        };
        let (function, file, line) = self.allocated_at(p, call);
        let info = AllocSiteInfo {
            name: var,
            function,
            file,
            line,
            elem,
            allocator: crate::ffi::demangle(name).unwrap_or_else(|| name.to_string()),
            typed_by,
        };
        Some(self.d.alloc_site(self.ir, info))
    }
}

/// Whether `file` is one of the system's headers (the C and C++ standard libraries,
/// the compilers' own), not the user's code.
pub(super) fn is_system_header(file: &str) -> bool {
    ["/usr/include/", "/usr/lib/", "/usr/local/include/"]
        .iter()
        .any(|p| file.starts_with(p))
        || file.contains("/include/c++/")
}

/// `FpSiteInfo::counters` of an inline site before `number_inline_counters`.
const INLINE_COUNTERS_PENDING: u32 = abi::FPSITE_NO_COUNTERS - 1;

/// Gives every inline site its words (`abi::inline_words`: an operation's three
/// counters, a load's or store's count and cache) in the block-counter space after the
/// module's blocks (so block numbers do not depend on the inline sites).
fn number_inline_counters(d: &mut DnDescs) {
    d.counted_blocks = d.n_blocks;
    for i in 0..d.sites.len() {
        if d.sites[i].counters == INLINE_COUNTERS_PENDING {
            d.sites[i].counters = d.n_blocks;
            d.n_blocks += abi::inline_words(d.sites[i].flags, d.sites[i].lanes);
        }
    }
}

/// Loads and stores handled inline while their cache holds: contiguous float and
/// double (the element sizes the inline element index is written for).
fn inline_mem_type(spec: &SiteSpec) -> bool {
    spec.fp.code == abi::FP_FLOAT || spec.fp.code == abi::FP_DOUBLE
}

/// Whether every operand of operation site `spec` has its result's shape (both scalars,
/// or vectors of the same length): then lane `l` of the result comes from lane `l` of
/// the operands, which is what the inline result tags compute. Others (reductions, ...)
/// call `__tpd_op`. Sites without an FP result need no tags.
fn lane_shaped(spec: &SiteSpec) -> bool {
    let Some(r) = spec.result else {
        return true;
    };
    let shape = |v: V| {
        let t = ir::type_of(v);
        ir::is_vector(t).then(|| ir::vector_len(t))
    };
    spec.operands.iter().all(|&o| shape(o) == shape(r))
}
