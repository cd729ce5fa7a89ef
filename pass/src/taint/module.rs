//! Taint mode's part of the module-level work (`crate::module` drives it): what the
//! instrumentation of each function needs to know of the whole module.
//!
//! Why here and not in the driver: these steps only exist in taint mode. Before
//! planning: the pre-check (`crate::prepare::precheck`), reading what the
//! pipeline-start pass recorded (`crate::folded`; erased whatever happens next) and the
//! routine database. Then, in [`ModeInstrumenter::plan`]:
//!
//! 1. ask ScalarEvolution for constant trip counts, and decide static pruning and
//!    static recursion over the module's call graph (`crate::prune`, [`recursion`]);
//! 2. describe every function, loop (natural, recursion, library and folded loops) and
//!    branch sink (debug info), and each function's provenance graph when a sidecar is
//!    written;
//! 3. reserve the descriptor arrays, declare the runtime, and compute which parameters
//!    and results may carry a `Z` (`zflow`).
//!
//! Each function is then instrumented by [`FnInstr`]; the descriptors filled and
//! registered; the statistics printed.

use super::branches::{self, branch_flags, branch_successors, successor_site, MAX_SUCC};
use super::runtime::Runtime;
use super::zflow::ZFlow;
use super::{FnInstr, Stats};
use crate::abilist::{AbiList, Kind};
use crate::callkind::{call_kind, CallKind};
use crate::cdeps::ControlDeps;
use crate::debugloc::{line_of, loop_location, Namer};
use crate::descriptors::{sidecar_path, BranchInfo, Descs, FuncInfo, LoopInfo, Site};
use crate::ffi;
use crate::folded::{self, Recorded};
use crate::intrinsics::IntrKind;
use crate::ir::{self, terminator_condition, T, V};
use crate::library::{self, LibCall};
use crate::module::{Cx, ModeInstrumenter, PlannedModule};
use crate::prepare::{identity_key, location_key, precheck, Prepared, Recursion};
use crate::prune::{self, Callee, FnFacts, Reason};
use crate::routines::Routines;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::HashMap;
use std::os::raw::c_void;
use taintprof_abi as abi;

/// Taint mode before planning.
pub struct TaintMode<'a> {
    cx: &'a Cx<'a>,
    recorded: Recorded,
    routines: Routines,
    stats: Stats,
}

/// Taint mode once planned: the module's descriptors, runtime and `Z` flow.
pub struct TaintPlanned<'a> {
    cx: &'a Cx<'a>,
    descs: Descs,
    stats: Stats,
    rt: Runtime,
    zflow: ZFlow,
}

impl<'a> ModeInstrumenter<'a> for TaintMode<'a> {
    type Planned = TaintPlanned<'a>;
    const EMPTY_MODULES: bool = false;

    fn new(cx: &'a Cx<'a>) -> Result<Self, String> {
        // Read (and erase) what the pipeline-start pass recorded, whatever happens next.
        let recorded = Recorded::take(cx.m, &mut Namer::new(cx.source.clone()));
        let routines = Routines::load(&cx.cfg.routines)?;
        let stats = Stats {
            skipped_functions: cx.skipped,
            ..Stats::default()
        };
        Ok(TaintMode {
            cx,
            recorded,
            routines,
            stats,
        })
    }

    fn precheck(&self, f: V) -> Vec<String> {
        precheck(f, self.cx.list)
    }

    fn plan(self, prepared: &mut [Prepared]) -> TaintPlanned<'a> {
        let TaintMode {
            cx,
            recorded,
            routines,
            mut stats,
        } = self;
        let (ir, cfg, list, source) = (cx.ir, cx.cfg, cx.list, &cx.source);
        let fns: Vec<V> = prepared.iter().map(|p| p.f).collect();
        crate::phases::time("trip counts", || {
            for p in prepared.iter_mut() {
                p.trip = trip_counts(cx.fam, p);
            }
        });
        crate::phases::time("pruning", || {
            decide_pruning(prepared, &fns, list, &routines, &mut stats)
        });
        let mut descs = Descs::new(ir, Namer::new(cx.source.clone()));
        if !cx.has_debug {
            descs.module_flags |= abi::MODULE_NO_DEBUG_INFO;
        }
        if cfg.control_flow {
            descs.module_flags |= abi::MODULE_CONTROL_FLOW;
        }
        let mut loop_base = 0;
        for (fi, p) in prepared.iter_mut().enumerate() {
            p.func_index = fi;
            p.loop_base = loop_base;
            loop_base += p.n_loop_descs();
            if p.pruned.is_none() {
                p.library = library_calls(p, list, &routines, &recorded, &mut descs.namer);
                for (k, c) in p.library.iter_mut().enumerate() {
                    c.loop_index = loop_base + k;
                }
                loop_base += p.library.len();
            }
        }
        for p in prepared.iter_mut() {
            let fi = p.func_index;
            let loc = descs.namer.function_loc(p.f);
            let mut loops = Vec::new();
            let all = &p.an.forest.loops;
            for (li, l) in all.iter().enumerate() {
                // A loop reported as another (a member of a logical loop, a loop absorbed
                // into its parent, a loop made from the recursion) is named as that one, so
                // that the report does not list a copy that never runs.
                let rep = p.rep(li);
                let dl = match &p.recursion {
                    Some(rec) if Some(rep) == p.recursion_index() => rec.loc,
                    _ => {
                        let r = &all[rep];
                        let latch_terms: Vec<V> = r
                            .latches
                            .iter()
                            .map(|&b| ir::terminator(p.an.blocks[b]))
                            .collect();
                        loop_location(&latch_terms, p.an.blocks[r.header])
                    }
                };
                let mut flags = 0;
                let chain = if dl.is_null() {
                    flags |= abi::LOOP_NO_DEBUG_LOC;
                    stats.loops_without_debug_loc += 1;
                    descs.namer.chain(std::ptr::null_mut(), p.f)
                } else {
                    descs.namer.chain(dl, p.f)
                };
                // Loops of pruned functions have no sink by design, not for want of one.
                if p.pruned.is_none() && p.sink_of(li).is_none_or(|s| s.exit_points.is_empty()) {
                    flags |= abi::LOOP_NO_SINK;
                    stats.loops_without_sink += 1;
                }
                if p.trip[li].is_some() {
                    flags |= abi::LOOP_CONST_TRIP;
                    stats.const_trip_loops += 1;
                }
                // Top-level loops nest in the recursion loop, except the loops that are
                // the recursion (tail-recursion elimination): they report as it.
                // The parent: the innermost enclosing loop of another logical loop.
                let mut up = l.parent;
                while let Some(pl) = up.filter(|&pl| p.rep(pl) == rep) {
                    up = all[pl].parent;
                }
                let parent = match up {
                    Some(pl) => Some(p.rep(pl)),
                    None if Some(rep) == p.recursion_index() => None,
                    None => p.recursion_index(),
                };
                loops.push(descs.loops.len());
                descs.loops.push(LoopInfo {
                    chain,
                    flags,
                    const_trip_count: p.trip[li].flatten(),
                    parent: parent.map(|pl| p.loop_base + pl),
                    func: Some(fi),
                    routine: None,
                });
            }
            if let Some(rec) = &p.recursion {
                let chain = descs.namer.chain(rec.loc, p.f);
                let mut flags = abi::LOOP_RECURSION;
                if rec.loc.is_null() {
                    flags |= abi::LOOP_NO_DEBUG_LOC;
                }
                loops.push(descs.loops.len());
                descs.loops.push(LoopInfo {
                    chain,
                    flags,
                    const_trip_count: None,
                    parent: None,
                    func: Some(fi),
                    routine: None,
                });
            }
            for c in &p.library {
                debug_assert_eq!(c.loop_index, descs.loops.len());
                loops.push(descs.loops.len());
                let mut flags = abi::LOOP_LIBRARY;
                if Namer::inst_loc(c.call).is_null() {
                    flags |= abi::LOOP_NO_DEBUG_LOC;
                }
                descs.loops.push(LoopInfo {
                    chain: c.chain.clone(),
                    flags,
                    const_trip_count: None,
                    parent: p.loop_around(c.block),
                    func: Some(fi),
                    routine: Some((c.routine.name.clone(), c.routine.cost.clone())),
                });
                stats.library_loops += 1;
            }
            let mut flags = 0;
            if p.tracked {
                flags |= abi::FUNC_CONTEXT_TRACKED;
            }
            if p.pruned.is_some() {
                flags |= abi::FUNC_STATICALLY_PRUNED;
            }
            if p.recursive {
                flags |= abi::FUNC_RECURSIVE_STATIC;
            }
            // Branch sinks: described now, while successor blocks still hold only the
            // program's instructions (their first debug location is the successor's).
            let classes = branches::classify(p);
            p.silent = classes.iter().map(|c| c.silent()).collect();
            let mut n_branches = 0;
            if p.pruned.is_none() {
                let sinks: Vec<usize> = (0..classes.len())
                    .filter(|&b| classes[b] == branches::Class::Sink)
                    .collect();
                for b in sinks {
                    let t = ir::terminator(p.an.blocks[b]);
                    let succs = branch_successors(t).expect("selected branches are conditional");
                    let flags = branch_flags(t, succs.len());
                    let site = Site {
                        chain: descs.namer.chain(Namer::inst_loc(t), p.f),
                        loop_: p.loop_around(b),
                    };
                    let succ = succs
                        .iter()
                        .take(MAX_SUCC)
                        .map(|&s| successor_site(p, &mut descs.namer, s))
                        .collect();
                    p.branch_sinks.push((b, descs.branches.len()));
                    descs.branches.push(BranchInfo { site, succ, flags });
                    n_branches += 1;
                }
            }
            descs.funcs.push(FuncInfo {
                loc,
                flags,
                loops,
                pruned: p.pruned,
                branches: n_branches,
            });
            stats.functions += 1;
            stats.context_tracked += p.tracked as usize;
            stats.loops += p.an.forest.loops.len();
            stats.irreducible_cycles += p.an.forest.irreducible_cycles;
            stats.promoted_allocas += p.promoted_allocas as usize;
            stats.eh_exit_edges += p.skipped_eh_exits;
            stats.indirect_exit_edges += p.skipped_indirect_exits;
        }
        // Source loops that are gone: neither a natural loop nor a library loop has their
        // position any more.
        let present: std::collections::HashSet<folded::Key> = descs
            .loops
            .iter()
            .filter_map(|l| l.chain.last())
            .map(folded::key)
            .collect();
        let gone: Vec<_> = recorded.folded(&present).cloned().collect();
        for mut pos in gone {
            // The function it was written in, if the module still defines it: its own
            // names, so that the runtime files the loop under the same function.
            let defined: Vec<usize> = (0..descs.funcs.len())
                .filter(|&f| {
                    let l = &descs.funcs[f].loc;
                    l.file == pos.file && l.fn_line == pos.fn_line
                })
                .collect();
            let func = match defined[..] {
                [f] => Some(f),
                _ => defined
                    .iter()
                    .copied()
                    .find(|&f| descs.funcs[f].loc.linkage == pos.linkage),
            };
            if let Some(f) = func {
                pos.function = descs.funcs[f].loc.function.clone();
                pos.linkage = descs.funcs[f].loc.linkage.clone();
                let i = descs.loops.len();
                descs.funcs[f].loops.push(i);
            }
            descs.loops.push(LoopInfo {
                chain: vec![pos],
                flags: abi::LOOP_FOLDED,
                const_trip_count: None,
                parent: None,
                func,
                routine: None,
            });
            stats.folded_loops += 1;
        }
        if sidecar_path(cfg, source).is_some() {
            // Before instrumentation: the graph is of the program's own IR.
            let _t = crate::phases::Lap::new("provenance");
            for p in prepared.iter() {
                let own: Vec<Option<(String, u32, u32)>> = (0..p.an.forest.loops.len())
                    .map(|li| {
                        let d = *descs.funcs[p.func_index].loops.get(li)?;
                        let l = descs.loops[d].chain.last()?;
                        (l.line != 0).then(|| (l.function.clone(), l.line, l.column))
                    })
                    .collect();
                let g = crate::provenance::function_graph(ir, p, &mut descs.namer, &own);
                descs.provenance.push(g);
            }
        }
        descs.reserve(ir);
        let rt = Runtime::declare(ir);
        let zflow = crate::phases::time("zflow", || match cfg.control_flow {
            true => ZFlow::compute(ir, prepared, list),
            false => ZFlow::default(),
        });
        TaintPlanned {
            cx,
            descs,
            stats,
            rt,
            zflow,
        }
    }
}

impl PlannedModule for TaintPlanned<'_> {
    fn instrument(&mut self, p: &Prepared) -> Result<Vec<String>, String> {
        let cx = self.cx;
        FnInstr::new(
            cx.ir,
            &self.rt,
            cx.cfg,
            cx.list,
            &mut self.descs,
            &mut self.stats,
            p,
            &self.zflow,
        )
        .run()
    }

    fn finish(&mut self) -> (V, (V, T)) {
        let md = self.descs.finish(self.cx.ir);
        (md, (self.rt.register_module.f, self.rt.register_module.ty))
    }

    fn without_debug_info(&self) -> &'static str {
        "loops are named by index only (add -g or -gline-tables-only)"
    }

    fn sidecar_json(&self) -> String {
        self.descs.sidecar_json()
    }

    fn print_statistics(&self) {
        let (cfg, source, opt_level) = (self.cx.cfg, &self.cx.source, self.cx.opt_level);
        let (stats, descs) = (&self.stats, &self.descs);
        eprintln!(
        "taintprof: {source} (opt level {}): {} functions instrumented ({} context-tracked, {} skipped), \
         {} statically pruned ({} without loops, {} with constant trip counts), {} recursive, \
         {} loops ({} constant trip count, {} without sink, {} without debug location), {} irreducible cycles ignored, \
         {} branch sinks ({} cold calls), control flow {} ({} slots, {} block labels extending a dominator's, {} labelled writes, {} control-passing calls), \
         {} allocas promoted, {} loads, {} stores, {} calls through the label ABI, {} listed calls, \
         {} call sites, {} library loops, {} folded loops, {} zero label PHIs removed, {} inserted instructions simplified away, {} hoisted out of loops, {} loop exits into EH pads not reported, \
         {} indirectbr loop exits not reported",
        if opt_level < 0 { "opt".to_string() } else { opt_level.to_string() },
        stats.functions,
        stats.context_tracked,
        stats.skipped_functions,
        stats.pruned_no_loops + stats.pruned_const_trips,
        stats.pruned_no_loops,
        stats.pruned_const_trips,
        stats.recursive,
        stats.loops,
        stats.const_trip_loops,
        stats.loops_without_sink,
        stats.loops_without_debug_loc,
        stats.irreducible_cycles,
        stats.branch_sinks,
        stats.cold_calls,
        if cfg.control_flow { "on" } else { "off" },
        stats.control_slots,
        stats.control_reused,
        stats.control_writes,
        stats.control_calls,
        stats.promoted_allocas,
        stats.loads,
        stats.stores,
        stats.calls,
        stats.listed_calls,
        descs.n_sites(),
        stats.library_loops,
        stats.folded_loops,
        stats.zero_shadow_phis,
        stats.simplified,
        stats.hoisted,
        stats.eh_exit_edges,
        stats.indirect_exit_edges,
    );
        for f in &descs.funcs {
            if let Some(r) = f.pruned {
                eprintln!(
                    "taintprof: {source}: `{}` statically pruned ({})",
                    f.loc.function,
                    r.as_str()
                );
            }
        }
        if stats.inline_asm > 0 {
            eprintln!(
            "taintprof: warning: {source}: {} inline asm calls: their results get the union of their operands' labels; memory they write keeps its old labels",
            stats.inline_asm
        );
        }
    }
}

/// Constant trip counts of `p`'s loops (ScalarEvolution through the shim): `None` not
/// constant; `Some(None)` constant, but the loop is a copy the optimizer transformed
/// (vectorized, unrolled, peeled, or one of several loops made from one source loop),
/// whose own count is not the source loop's; `Some(Some(n))` n body executions.
fn trip_counts(fam: *mut c_void, p: &Prepared) -> Vec<Option<Option<u64>>> {
    let loops = &p.an.forest.loops;
    if loops.is_empty() {
        return Vec::new();
    }
    let mut headers: Vec<_> = loops.iter().map(|l| p.an.blocks[l.header]).collect();
    let mut out = vec![u64::MAX; loops.len()];
    // SAFETY: fam is null or the module's FunctionAnalysisManager; p.f is a definition
    // of the module; both arrays have loops.len() elements.
    unsafe {
        ffi::tp_loop_trip_counts(
            fam,
            p.f,
            headers.as_mut_ptr(),
            headers.len() as u32,
            out.as_mut_ptr(),
        )
    };
    out.into_iter()
        .enumerate()
        .map(|(li, c)| match c {
            u64::MAX => None,
            c if c == u64::MAX - 1 => Some(None),
            _ if p.sink_of(li).is_some_and(|s| s.members.len() > 1) => Some(None),
            c => Some(Some(c)),
        })
        .collect()
}

/// What a call means for static pruning.
fn callee_of(i: V, list: &AbiList, db: &Routines, index: &HashMap<V, usize>) -> Callee {
    // A library loop (a routine call with a variable size) is a loop of the caller.
    if library::routine_of(i, list, db).is_some() {
        return Callee::NonTrivial;
    }
    match call_kind(i, list) {
        CallKind::InlineAsm => Callee::NonTrivial,
        // A memory intrinsic with a variable length is a loop the optimizer turned into
        // a call (loop idiom recognition): not constant, and not at -O0 either.
        CallKind::Intrinsic(IntrKind::Copy | IntrKind::Set, _)
            if ir::const_int_value(ir::operand(i, 2)).is_none() =>
        {
            Callee::NonTrivial
        }
        CallKind::Intrinsic(..) => Callee::Trivial,
        CallKind::Listed(Kind::Pure | Kind::Zero, _) => Callee::Trivial,
        CallKind::Listed(Kind::Wrap(_), _) => Callee::NonTrivial,
        CallKind::Normal => {
            let f = ir::called_function(i);
            match index.get(&f) {
                Some(&t) if !f.is_null() => Callee::Local(t),
                _ => Callee::NonTrivial,
            }
        }
    }
}

/// Static pruning and static recursion for every prepared function.
fn decide_pruning(
    prepared: &mut [Prepared],
    fns: &[V],
    list: &AbiList,
    db: &Routines,
    stats: &mut Stats,
) {
    let index: HashMap<V, usize> = fns.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    let facts: Vec<FnFacts> = prepared
        .iter()
        .map(|p| {
            let mut calls = Vec::new();
            for b in p.an.cfg.reverse_post_order() {
                for i in ir::instructions(p.an.blocks[b]) {
                    if matches!(ir::opcode(i), Op::LLVMCall | Op::LLVMInvoke) {
                        calls.push(callee_of(i, list, db, &index));
                    }
                }
            }
            FnFacts {
                loops: p.an.forest.loops.len(),
                const_loops: p.trip.iter().filter(|t| t.is_some()).count(),
                calls,
            }
        })
        .collect();
    let decisions = prune::decide(&facts);
    for (fi, p) in prepared.iter_mut().enumerate() {
        let d = decisions[fi];
        if d.recursive && d.pruned.is_none() {
            p.recursion = recursion(p, |i| match callee_of(i, list, db, &index) {
                Callee::Local(t) => decisions[t].scc == d.scc,
                _ => false,
            });
        }
        p.pruned = d.pruned;
        p.recursive = d.recursive;
        p.tracked = d.pruned.is_none();
        match d.pruned {
            Some(Reason::NoLoops) => stats.pruned_no_loops += 1,
            Some(Reason::ConstantTripCounts) => stats.pruned_const_trips += 1,
            None => {}
        }
        stats.recursive += d.recursive as usize;
    }
}

/// The recursion loop of a recursive function (`prepare::Recursion`), or `None` if no
/// call of it continues the recursion (the cycle goes through an indirect call or a
/// call the pass does not see). `recursive_call` says whether a call instruction calls a
/// function of the same call-graph cycle.
fn recursion(p: &Prepared, recursive_call: impl Fn(V) -> bool) -> Option<Recursion> {
    let an = &p.an;
    let rpo = an.cfg.reverse_post_order();
    // (block, call) of every recursive call, in reverse post-order.
    let mut calls: Vec<(usize, V)> = Vec::new();
    for &b in &rpo {
        for i in ir::instructions(an.blocks[b]) {
            if matches!(ir::opcode(i), Op::LLVMCall | Op::LLVMInvoke) && recursive_call(i) {
                calls.push((b, i));
            }
        }
    }
    if calls.is_empty() {
        return None;
    }
    let mut call_blocks: Vec<usize> = calls.iter().map(|c| c.0).collect();
    call_blocks.sort_unstable();
    call_blocks.dedup();
    // Location: the decision nearest above the first recursive call written in this
    // function (calls of copies inlined into it come after): the innermost dominator of
    // its block that the block is directly control dependent on (the block itself if it
    // heads a loop that tail-recursion elimination made). That is where the -O2 loop
    // made by tail-recursion elimination is located too (its rotated back-edge branch is
    // the decision's), so both levels name the recursion alike. Without such a decision,
    // the call's own position.
    let (b, call) = calls
        .iter()
        .copied()
        .find(|&(_, i)| !is_inlined(Namer::inst_loc(i)))
        .unwrap_or(calls[0]);
    let decider: Vec<bool> = an
        .blocks
        .iter()
        .map(|&blk| terminator_condition(ir::terminator(blk)).is_some())
        .collect();
    let deps = ControlDeps::new(&an.cfg, &an.pdom, decider);
    let direct = &deps.direct[b];
    let located = |d: usize| {
        let l = Namer::inst_loc(ir::terminator(an.blocks[d]));
        (!l.is_null() && line_of(l) != 0).then_some(l)
    };
    let mut loc = None;
    let mut cur = Some(b);
    for _ in 0..an.blocks.len() {
        let Some(d) = cur else { break };
        if direct.binary_search(&d).is_ok() {
            loc = located(d);
            if loc.is_some() {
                break;
            }
        }
        cur = an.dom.idom[d];
    }
    let loc = loc
        .or_else(|| direct.iter().find_map(|&d| located(d)))
        .unwrap_or_else(|| Namer::inst_loc(call));
    let key = location_key(loc);
    let aliases = (0..an.forest.loops.len())
        .filter(|&li| an.forest.loops[li].parent.is_none())
        .filter(|&li| key.is_some() && identity_key(an, li) == key)
        .collect();
    Some(Recursion {
        call_blocks,
        calls: calls.iter().map(|c| c.1).collect(),
        loc,
        aliases,
    })
}

/// Whether a debug location is inside code inlined into the function.
fn is_inlined(loc: inkwell::llvm_sys::prelude::LLVMMetadataRef) -> bool {
    if loc.is_null() {
        return false;
    }
    let mut li = ffi::TpLocation {
        line: 0,
        column: 0,
        inlined_at: std::ptr::null_mut(),
        subprogram: std::ptr::null_mut(),
    };
    // SAFETY: loc is a DILocation (or the shim returns 0).
    unsafe { ffi::tp_location_info(loc, &mut li) != 0 && !li.inlined_at.is_null() }
}

/// The library loops of `p` (`crate::library`), in block order, with their identities.
/// A call the optimizer made from a source loop that is still a natural loop of this
/// function (loop idiom recognition took one store out of a loop that stays) is left
/// out: that loop reports its executions itself, with its exit test's labels.
fn library_calls(
    p: &Prepared,
    list: &AbiList,
    db: &Routines,
    recorded: &Recorded,
    namer: &mut Namer,
) -> Vec<LibCall> {
    let mut natural: Option<std::collections::HashSet<folded::Key>> = None;
    let mut out = Vec::new();
    for b in 0..p.an.blocks.len() {
        if !p.an.dom.contains(b) {
            continue;
        }
        for i in ir::instructions(p.an.blocks[b]) {
            let Some(routine) = library::routine_of(i, list, db) else {
                continue;
            };
            let mut chain = namer.chain(Namer::inst_loc(i), p.f);
            if let Some(src) = chain.last().and_then(|l| recorded.made_from(l)) {
                let (line, column) = (src.line, src.column);
                let natural = natural.get_or_insert_with(|| {
                    p.an.forest
                        .loops
                        .iter()
                        .filter_map(|l| {
                            let t: Vec<V> = l
                                .latches
                                .iter()
                                .map(|&b| ir::terminator(p.an.blocks[b]))
                                .collect();
                            let dl = loop_location(&t, p.an.blocks[l.header]);
                            (!dl.is_null()).then(|| namer.chain(dl, p.f))
                        })
                        .filter_map(|c| c.last().map(folded::key))
                        .collect()
                });
                let last = chain.last_mut().expect("chains are never empty");
                last.line = line;
                last.column = column;
                if natural.contains(&folded::key(last)) {
                    continue;
                }
            }
            out.push(LibCall {
                call: i,
                block: b,
                routine,
                chain,
                loop_index: 0,
            });
        }
    }
    out
}
