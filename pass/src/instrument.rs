//! The module driver: which functions are instrumented, in which order things happen.
//!
//! 1. Read the configuration and the function list.
//! 2. Pre-check every function; any error is reported and the module is left
//!    untouched (no half-instrumented IR).
//! 3. Prepare every function (alloca promotion, edge splitting, CFG and loop
//!    analysis) and name its loops from debug info.
//! 4. Reserve the descriptor arrays, declare the runtime, instrument every function.
//! 5. Fill the descriptors, add the registering constructor, write the sidecar.

use crate::abilist::AbiList;
use crate::config::{Config, Mode};
use crate::debugloc::{loop_location, Namer};
use crate::descriptors::{sidecar_path, write_atomic, Descs, FuncInfo, LoopInfo, MODULE_GLOBAL};
use crate::ffi;
use crate::ir::{self, Ir, V};
use crate::taint::prepare::{precheck, prepare, Prepared};
use crate::taint::runtime::Runtime;
use crate::taint::{FnInstr, Stats};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMModuleRef;
use inkwell::llvm_sys::LLVMLinkage;
use taintprof_abi as abi;

/// Outcome of running the pass on one module.
pub struct Outcome {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

fn module_source(m: LLVMModuleRef) -> String {
    let mut len = 0usize;
    unsafe {
        let p = LLVMGetSourceFileName(m, &mut len);
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// Whether `f` is a function definition taintprof instruments.
pub fn should_instrument(ir: &Ir, f: V) -> bool {
    let name = ir::name_of(f);
    !ir::is_declaration(f)
        && ir::linkage(f) != LLVMLinkage::LLVMAvailableExternallyLinkage
        && !name.starts_with("__tp")
        && !name.starts_with("tp_")
        && !name.starts_with("taintprof.")
        && unsafe { ffi::tp_function_is_naked(f) } == 0
        && !ir.has_fn_attr(f, "naked")
}

fn functions(m: LLVMModuleRef) -> Vec<V> {
    let mut out = Vec::new();
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            out.push(f);
            f = LLVMGetNextFunction(f);
        }
    }
    out
}

pub fn run(m: LLVMModuleRef, opt_level: i32, params: &str) -> Outcome {
    let mut out = Outcome {
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let cfg = match Config::load(params) {
        Ok(c) => c,
        Err(e) => {
            out.errors.push(e);
            return out;
        }
    };
    match cfg.mode {
        Mode::Off => return out,
        Mode::Denormal => {
            out.errors.push(
                "denormal mode is not available in this build (TAINTPROF_MODE=denormal); use TAINTPROF_MODE=taint or off"
                    .into(),
            );
            return out;
        }
        Mode::Taint => {}
    }
    let list = match AbiList::load(&cfg.abilists) {
        Ok(l) => l,
        Err(e) => {
            out.errors.push(e);
            return out;
        }
    };
    // SAFETY: m is the module the pass manager hands us, alive for this call.
    let ir = unsafe { Ir::new(m) };
    let source = module_source(m);
    if !ir.named_global(MODULE_GLOBAL).is_null() {
        if cfg.verbose {
            eprintln!("taintprof: {source}: already instrumented, skipped");
        }
        return out;
    }
    let mut stats = Stats::default();
    let all = functions(m);
    let fns: Vec<V> = all
        .iter()
        .copied()
        .filter(|&f| should_instrument(&ir, f))
        .collect();
    stats.skipped_functions = all.iter().filter(|&&f| !ir::is_declaration(f)).count() - fns.len();
    for &f in &fns {
        out.errors.extend(precheck(f, &list));
    }
    if !out.errors.is_empty() || fns.is_empty() {
        return out;
    }

    let mut prepared: Vec<Prepared> = fns.iter().map(|&f| prepare(&ir, f, &list)).collect();
    let mut descs = Descs::new(&ir, Namer::new(source.clone()));
    let has_debug = unsafe { ffi::tp_module_has_debug_info(m) } != 0;
    if !has_debug {
        descs.module_flags |= abi::MODULE_NO_DEBUG_INFO;
    }
    for (fi, p) in prepared.iter_mut().enumerate() {
        p.func_index = fi;
        p.loop_base = descs.loops.len();
        let loc = descs.namer.function_loc(p.f);
        let mut loops = Vec::new();
        for (li, l) in p.an.forest.loops.iter().enumerate() {
            let latch_terms: Vec<V> = l
                .latches
                .iter()
                .map(|&b| ir::terminator(p.an.blocks[b]))
                .collect();
            let dl = loop_location(&latch_terms, p.an.blocks[l.header]);
            let mut flags = 0;
            let chain = if dl.is_null() {
                flags |= abi::LOOP_NO_DEBUG_LOC;
                stats.loops_without_debug_loc += 1;
                descs.namer.chain(std::ptr::null_mut(), p.f)
            } else {
                descs.namer.chain(dl, p.f)
            };
            if p.sink_of(li).is_none_or(|s| s.exit_points.is_empty()) {
                flags |= abi::LOOP_NO_SINK;
                stats.loops_without_sink += 1;
            }
            loops.push(descs.loops.len());
            descs.loops.push(LoopInfo {
                chain,
                flags,
                const_trip_count: None,
            });
        }
        let flags = if p.tracked {
            abi::FUNC_CONTEXT_TRACKED
        } else {
            0
        };
        descs.funcs.push(FuncInfo { loc, flags, loops });
        stats.functions += 1;
        stats.context_tracked += p.tracked as usize;
        stats.loops += p.an.forest.loops.len();
        stats.irreducible_cycles += p.an.forest.irreducible_cycles;
        stats.promoted_allocas += p.promoted_allocas as usize;
        stats.eh_exit_edges += p.skipped_eh_exits;
        stats.indirect_exit_edges += p.skipped_indirect_exits;
    }
    descs.reserve(&ir);
    let rt = Runtime::declare(&ir);
    for p in &prepared {
        let fi = FnInstr::new(&ir, &rt, &cfg, &list, &mut descs, &mut stats, p);
        match fi.run() {
            Ok(w) => out.warnings.extend(w),
            Err(e) => out.errors.push(e),
        }
    }
    descs.finish(&ir, (rt.register_module.f, rt.register_module.ty));

    if !has_debug {
        out.warnings.push(format!(
            "{source}: compiled without debug info: loops are named by index only (add -g or -gline-tables-only)"
        ));
    }
    if let Some(path) = sidecar_path(&cfg, &source) {
        if let Err(e) = write_atomic(&path, &descs.sidecar_json()) {
            out.errors
                .push(format!("cannot write the sidecar {}: {e}", path.display()));
        }
    }
    if cfg.verbose {
        eprintln!(
            "taintprof: {source} (opt level {}): {} functions instrumented ({} context-tracked, {} skipped), \
             {} loops ({} without sink, {} without debug location), {} irreducible cycles ignored, \
             {} allocas promoted, {} loads, {} stores, {} calls through the label ABI, {} listed calls, \
             {} call sites, {} zero label PHIs removed, {} inserted instructions simplified away, {} loop exits into EH pads not reported, \
             {} indirectbr loop exits not reported",
            if opt_level < 0 { "opt".to_string() } else { opt_level.to_string() },
            stats.functions,
            stats.context_tracked,
            stats.skipped_functions,
            stats.loops,
            stats.loops_without_sink,
            stats.loops_without_debug_loc,
            stats.irreducible_cycles,
            stats.promoted_allocas,
            stats.loads,
            stats.stores,
            stats.calls,
            stats.listed_calls,
            descs.n_sites(),
            stats.zero_shadow_phis,
            stats.simplified,
            stats.eh_exit_edges,
            stats.indirect_exit_edges,
        );
        if stats.inline_asm > 0 {
            eprintln!(
                "taintprof: warning: {source}: {} inline asm calls: their results get the union of their operands' labels; memory they write keeps its old labels",
                stats.inline_asm
            );
        }
        for w in &out.warnings {
            eprintln!("taintprof: warning: {w}");
        }
    }
    out
}
