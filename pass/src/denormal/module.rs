//! Denormal mode's part of the module-level work (`crate::module` drives it).
//!
//! Why here and not in the driver: these steps only exist in denormal mode. The
//! pre-check of what denormal mode cannot instrument ([`precheck`]); then, in
//! [`ModeInstrumenter::plan`]: describe every function and its loops (for the sites'
//! `SiteDesc`s), find the global arrays, plan every function (its sites and their
//! descriptor indices, block counters, stack arrays, typed allocation sites: `Planner`
//! in `mod.rs`), number the inline sites' counters, reserve the descriptor arrays and
//! declare the runtime. Each function is then instrumented by [`DnFn`]; the
//! descriptors filled and registered; the statistics printed.

use super::classify::{self, site_spec};
use super::desc::DnDescs;
use super::func::{dn_error, DnFn};
use super::runtime::DnRuntime;
use super::{arrays, fptype, number_inline_counters, DnStats, FnPlan, Planner};
use crate::abilist::AbiList;
use crate::debugloc::{loop_location, Namer};
use crate::descriptors::{Descs, FuncInfo, LoopInfo};
use crate::ir::{self, T, V};
use crate::module::{Cx, ModeInstrumenter, PlannedModule};
use crate::prepare::Prepared;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::HashSet;
use taintprof_abi as abi;

/// Denormal mode before planning.
pub struct DenormalMode<'a> {
    cx: &'a Cx<'a>,
    stats: DnStats,
}

/// Denormal mode once planned: the module's descriptors, runtime and function plans.
pub struct DenormalPlanned<'a> {
    cx: &'a Cx<'a>,
    d: DnDescs,
    stats: DnStats,
    rt: DnRuntime,
    /// Per function, by `Prepared::func_index`.
    plans: Vec<FnPlan>,
    /// The functions instrumented (their parameters and results carry tags).
    instrumented: HashSet<V>,
}

impl<'a> ModeInstrumenter<'a> for DenormalMode<'a> {
    type Planned = DenormalPlanned<'a>;
    /// Global arrays are registered even from a module without functions.
    const EMPTY_MODULES: bool = true;

    fn new(cx: &'a Cx<'a>) -> Result<Self, String> {
        let stats = DnStats {
            skipped_functions: cx.skipped,
            ..DnStats::default()
        };
        Ok(DenormalMode { cx, stats })
    }

    fn precheck(&self, f: V) -> Vec<String> {
        precheck(f, self.cx.list)
    }

    fn plan(self, prepared: &mut [Prepared]) -> DenormalPlanned<'a> {
        let DenormalMode { cx, mut stats } = self;
        let ir = cx.ir;
        let mut d = DnDescs::new(ir, Descs::new(ir, Namer::new(cx.source.clone())));
        if !cx.has_debug {
            d.module_flags |= abi::MODULE_NO_DEBUG_INFO;
        }
        for (fi, p) in prepared.iter_mut().enumerate() {
            describe_function(&mut d, p, fi);
            stats.promoted_allocas += p.promoted_allocas as usize;
        }
        let profile = cx.cfg.dn_profile;
        if profile {
            // The profile tier marks no arrays (abi::DN_MODULE_PROFILE).
            d.module_flags |= abi::DN_MODULE_PROFILE;
        } else {
            d.arrays = arrays::global_arrays(ir, &mut d.base.namer, cx.has_debug);
        }
        let plans: Vec<FnPlan> = {
            let mut planner = Planner {
                ir,
                list: cx.list,
                d: &mut d,
                stats: &mut stats,
                inline_ops: cx.cfg.dn_inline_ops,
                inline_mem: cx.cfg.dn_inline_mem,
                profile,
            };
            prepared.iter().map(|p| planner.plan(p)).collect()
        };
        number_inline_counters(&mut d);
        d.reserve(ir);
        let rt = DnRuntime::declare(ir);
        let instrumented: HashSet<V> = prepared.iter().map(|p| p.f).collect();
        DenormalPlanned {
            cx,
            d,
            stats,
            rt,
            plans,
            instrumented,
        }
    }
}

impl PlannedModule for DenormalPlanned<'_> {
    fn instrument(&mut self, p: &Prepared) -> Result<Vec<String>, String> {
        let cx = self.cx;
        let plan = &self.plans[p.func_index];
        let result = DnFn::new(
            cx.ir,
            &self.rt,
            &mut self.d,
            &mut self.stats,
            p,
            plan,
            cx.list,
            &self.instrumented,
        )
        .with_cover(cx.cfg.dn_cover)
        .with_profile(cx.cfg.dn_profile)
        .with_outline(cx.cfg.dn_outline)
        .with_test_panic(cx.cfg.test_panic_in.as_deref())
        .run();
        self.stats.functions += 1;
        result
    }

    fn finish(&mut self) -> (V, (V, T)) {
        let md = self.d.finish(self.cx.ir);
        (md, (self.rt.register_module.f, self.rt.register_module.ty))
    }

    fn without_debug_info(&self) -> &'static str {
        "arrays are named by their IR names and allocation sites, sites have no source lines (denormal mode wants -g)"
    }

    fn sidecar_json(&self) -> String {
        self.d.sidecar_json()
    }

    fn print_statistics(&self) {
        let (source, opt_level) = (&self.cx.source, self.cx.opt_level);
        let (stats, d) = (&self.stats, &self.d);
        let heap = d.allocs.len() - stats.vlas;
        eprintln!(
        "taintprof: {source} (opt level {}, denormal mode): {} functions instrumented ({} skipped), {} allocas promoted, \
         {} FP sites ({} descriptors) in {} counted blocks, {} fast-path tests ({} values covered by them), {} stores merged into a preceding test, {} cold regions ({} re-testing exactly, {} outlined), {} hook calls, {} operation sites inline, {} values rematerialized, \
         {} parameter tags, {} call result tags, {} calls passing tags ({} without), {} wrapped calls, {} shadow copies, {} floats-as-double copies, \
         {} zero tag PHIs removed, {} inserted instructions simplified away; \
         arrays: {} global/static, {} stack, {} variable-length; allocations: {} typed ({} sites), {} untyped; {} releases",
        if opt_level < 0 { "opt".to_string() } else { opt_level.to_string() },
        stats.functions,
        stats.skipped_functions,
        stats.promoted_allocas,
        stats.sites_instrumented,
        d.sites.len(),
        d.counted_blocks(),
        stats.checks,
        stats.covered,
        stats.merged_stores,
        stats.cold_regions,
        stats.exact_retests,
        stats.outlined,
        stats.hook_calls,
        stats.inline_op_sites,
        stats.rematerialized,
        stats.param_tags,
        stats.ret_tags,
        stats.calls_with_tags,
        stats.calls_without_tags,
        stats.wrapped_calls,
        stats.shadow_copies,
        stats.float_pair_copies,
        stats.zero_tag_phis,
        stats.simplified,
        d.arrays.len(),
        stats.stack_arrays,
        stats.vlas,
        stats.typed_allocations,
        heap,
        stats.untyped_allocations,
        stats.releases,
    );
        if stats.inline_asm_fp > 0 {
            eprintln!(
            "taintprof: warning: {source}: {} inline asm statements produce floating-point values: their tags are 0",
            stats.inline_asm_fp
        );
        }
        if stats.invoke_sites > 0 {
            eprintln!(
            "taintprof: warning: {source}: {} calls to listed math functions have an unwind edge: not checked as operations",
            stats.invoke_sites
        );
        }
    }
}

/// Every reason `f` cannot be instrumented in denormal mode (empty = fine).
fn precheck(f: V, list: &AbiList) -> Vec<String> {
    let mut errs = Vec::new();
    for b in ir::blocks(f) {
        for i in ir::instructions(b) {
            let op = ir::opcode(i);
            match op {
                Op::LLVMCallBr => {
                    errs.push(dn_error(f, i, "`callbr` (asm goto) cannot be instrumented"))
                }
                Op::LLVMCatchSwitch
                | Op::LLVMCatchPad
                | Op::LLVMCleanupPad
                | Op::LLVMCatchRet
                | Op::LLVMCleanupRet => errs.push(dn_error(
                    f,
                    i,
                    "Windows-style exception handling cannot be instrumented",
                )),
                _ => {}
            }
            let scalable = ir::is_scalable(ir::type_of(i))
                || (0..ir::num_operands(i)).any(|k| {
                    let o = ir::operand(i, k);
                    !o.is_null() && ir::is_scalable(ir::type_of(o))
                });
            if scalable {
                errs.push(dn_error(f, i, "scalable vectors cannot be instrumented"));
                continue;
            }
            if let Err(e) = site_spec(i, list) {
                errs.push(dn_error(f, i, &e));
                continue;
            }
            if fptype::is_fp(ir::type_of(i)) && !classify::handles_fp_result(op) {
                errs.push(dn_error(
                    f,
                    i,
                    "this instruction produces a floating-point value denormal mode does not know how to check",
                ));
            }
        }
    }
    errs
}

/// Describe the function and its loops for the `SiteDesc`s of its sites.
fn describe_function(d: &mut DnDescs, p: &mut Prepared, func_index: usize) {
    p.func_index = func_index;
    p.loop_base = d.base.loops.len();
    let loc = d.base.namer.function_loc(p.f);
    let mut loops = Vec::new();
    for l in p.an.forest.loops.iter() {
        let latch_terms: Vec<V> = l
            .latches
            .iter()
            .map(|&b| ir::terminator(p.an.blocks[b]))
            .collect();
        let dl = loop_location(&latch_terms, p.an.blocks[l.header]);
        let mut flags = 0;
        if dl.is_null() {
            flags |= abi::LOOP_NO_DEBUG_LOC;
        }
        let chain = d.base.namer.chain(dl, p.f);
        loops.push(d.base.loops.len());
        d.base.loops.push(LoopInfo {
            chain,
            flags,
            const_trip_count: None,
            parent: l.parent.map(|pl| p.loop_base + p.rep(pl)),
            func: Some(func_index),
            routine: None,
        });
    }
    d.base.funcs.push(FuncInfo {
        loc,
        flags: 0,
        loops,
        pruned: None,
        branches: 0,
    });
}
