//! The module driver, one for both modes: which functions are instrumented, in which
//! order things happen, and the guarantees that hold whatever the mode.
//!
//! Why one driver: the sequence around the instrumentation is the same for taint and
//! denormal mode, and so are its guarantees (an error leaves the module untouched, the
//! code generator never sees invalid IR, descriptors are registered from a constructor,
//! the sidecar, the phase times). Written once per mode they drifted apart (denormal mode
//! had no phase times, the two checks for an instrumented module differed). What
//! differs between the modes is behind [`ModeInstrumenter`] and [`PlannedModule`]:
//! taint mode in `crate::taint::module`, denormal mode in `crate::denormal::module`.
//!
//! 1. Read the configuration and the function list (`off`: nothing else happens).
//! 2. Skip a module that holds a module descriptor of either mode (already
//!    instrumented: LTO, or the pass run twice).
//! 3. Select the functions ([`should_instrument`]); the mode reads what else it needs
//!    ([`ModeInstrumenter::new`]).
//! 4. Pre-check every function ([`ModeInstrumenter::precheck`]); any error is reported
//!    and the module is left untouched (no half-instrumented IR).
//! 5. Prepare every function (`crate::prepare`: alloca promotion, edge splitting, CFG
//!    and loop analysis).
//! 6. Plan the module ([`ModeInstrumenter::plan`]): the mode's module-level analyses, the
//!    descriptions of functions, loops and sites, the reserved descriptor arrays, the
//!    runtime's declarations.
//! 7. Instrument every function ([`PlannedModule::instrument`]).
//! 8. Fill the descriptors ([`PlannedModule::finish`]) and add the constructor that
//!    registers the module descriptor ([`register_ctor`]).
//! 9. Warn about missing debug info, write the sidecar, print the phase times
//!    (`crate::phases`) and, verbose, the mode's statistics.
//! 10. Verify what changed ([`verify`]): a function that is not valid IR loses its body,
//!     so that clang stops with our message instead of crashing in the code generator.
//!     `lib.rs` does the same after a panic ([`after_panic`]).

use crate::abilist::AbiList;
use crate::config::{Config, Mode};
use crate::denormal::desc::DN_MODULE_GLOBAL;
use crate::denormal::module::DenormalMode;
use crate::descriptors::{register_ctor, sidecar_path, write_atomic, MODULE_GLOBAL};
use crate::ffi;
use crate::ir::{self, Ir, T, V};
use crate::phases;
use crate::prepare::{prepare, Prepared};
use crate::taint::module::TaintMode;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMModuleRef;
use inkwell::llvm_sys::LLVMLinkage;
use std::ffi::CStr;
use std::os::raw::{c_char, c_void};

/// Outcome of running the pass on one module.
pub struct Outcome {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    /// Whether the module was changed (then it is verified).
    pub changed: bool,
}

/// What the driver knows of the module, for the mode.
pub struct Cx<'a> {
    pub m: LLVMModuleRef,
    pub ir: &'a Ir,
    pub cfg: &'a Config,
    pub list: &'a AbiList,
    /// The module's source file name.
    pub source: String,
    /// Clang's optimization level, -1 under opt.
    pub opt_level: i32,
    /// Null or the module's `FunctionAnalysisManager` (ScalarEvolution).
    pub fam: *mut c_void,
    /// Definitions that are not instrumented ([`should_instrument`]).
    pub skipped: usize,
    /// Whether the module has debug info.
    pub has_debug: bool,
}

/// A mode's part of the module-level work, up to the plan. Nothing it does before
/// [`ModeInstrumenter::plan`] changes the module beyond what `new` says.
pub trait ModeInstrumenter<'a>: Sized {
    /// The module once planned.
    type Planned: PlannedModule;
    /// Whether a module without a function to instrument is still described and
    /// registered (denormal mode: its global arrays).
    const EMPTY_MODULES: bool;
    /// What the mode reads besides the configuration and the function list. An error
    /// is reported and the module left as it is.
    fn new(cx: &'a Cx<'a>) -> Result<Self, String>;
    /// Every reason `f` cannot be instrumented in this mode (empty = fine).
    fn precheck(&self, f: V) -> Vec<String>;
    /// Analyse and describe the prepared functions (the same order as selected),
    /// reserve the descriptor arrays, declare the runtime.
    fn plan(self, prepared: &mut [Prepared]) -> Self::Planned;
}

/// A mode's part of the module-level work once planned.
pub trait PlannedModule {
    /// Instrument one prepared function (in the order planned). `Ok`: its warnings;
    /// `Err`: an internal inconsistency (the pre-check rejects what cannot be done).
    fn instrument(&mut self, p: &Prepared) -> Result<Vec<String>, String>;
    /// Fill the descriptors; returns the module descriptor the constructor registers
    /// and the runtime's registering hook (function, type).
    fn finish(&mut self) -> (V, (V, T));
    /// What is missing without debug info (a warning).
    fn without_debug_info(&self) -> &'static str;
    /// The sidecar (compile-time JSON).
    fn sidecar_json(&self) -> String;
    /// The module's statistics and the mode's own notes (`TAINTPROF_VERBOSE=1`).
    fn print_statistics(&self);
}

pub fn module_source(m: LLVMModuleRef) -> String {
    let mut len = 0usize;
    // SAFETY: `m` is the live module the pass manager hands us; LLVM returns a pointer
    // to `len` bytes of its source file name, valid while `m` lives.
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
        // SAFETY: callers pass a live function of the module; the shim casts it to `Function`.
        && unsafe { ffi::tp_function_is_naked(f) } == 0
        && !ir.has_fn_attr(f, "naked")
}

fn functions(m: LLVMModuleRef) -> Vec<V> {
    let mut out = Vec::new();
    // SAFETY: `m` is the live module; its function list is walked to its end.
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            out.push(f);
            f = LLVMGetNextFunction(f);
        }
    }
    out
}

/// Run the pass on module `m`, verify what it changed. `params` are the opt pass
/// parameters (`crate::config`).
pub fn run(m: LLVMModuleRef, opt_level: i32, params: &str, fam: *mut c_void) -> Outcome {
    let mut out = Outcome {
        errors: Vec::new(),
        warnings: Vec::new(),
        changed: false,
    };
    instrument(m, opt_level, params, fam, &mut out);
    if out.changed {
        if let Some(v) = verify(m) {
            out.errors.push(format!(
                "internal error: the instrumented module is not valid IR ({}){}. \
                 Please report this with the input file; meanwhile compile this file \
                 with TAINTPROF_MODE=off",
                v.why,
                v.dropped_note()
            ));
        }
    }
    out
}

fn instrument(m: LLVMModuleRef, opt_level: i32, params: &str, fam: *mut c_void, out: &mut Outcome) {
    let cfg = match Config::load(params) {
        Ok(c) => c,
        Err(e) => return out.errors.push(e),
    };
    // Time mode instruments at pipeline start (`crate::time`), not here.
    if cfg.mode == Mode::Off || cfg.mode == Mode::Time {
        return;
    }
    let list = match AbiList::load(&cfg.abilists) {
        Ok(l) => l,
        Err(e) => return out.errors.push(e),
    };
    // SAFETY: m is the module the pass manager hands us, alive for this call.
    let ir = unsafe { Ir::new(m) };
    let source = module_source(m);
    if [MODULE_GLOBAL, DN_MODULE_GLOBAL]
        .iter()
        .any(|g| !ir.named_global(g).is_null())
    {
        if cfg.verbose {
            eprintln!("taintprof: {source}: already instrumented, skipped");
        }
        return;
    }
    let all = functions(m);
    let fns: Vec<V> = all
        .iter()
        .copied()
        .filter(|&f| should_instrument(&ir, f))
        .collect();
    let skipped = all.iter().filter(|&&f| !ir::is_declaration(f)).count() - fns.len();
    let cx = Cx {
        m,
        ir: &ir,
        cfg: &cfg,
        list: &list,
        source,
        opt_level,
        fam,
        skipped,
        // SAFETY: `m` is the live module the pass manager hands us.
        has_debug: unsafe { ffi::tp_module_has_debug_info(m) } != 0,
    };
    match cfg.mode {
        Mode::Off | Mode::Time => {}
        Mode::Taint => drive::<TaintMode>(&cx, &fns, out),
        Mode::Denormal => drive::<DenormalMode>(&cx, &fns, out),
    }
}

/// Steps 3 (the mode's part) to 9 of the module header, for mode `M`.
fn drive<'a, M: ModeInstrumenter<'a>>(cx: &'a Cx<'a>, fns: &[V], out: &mut Outcome) {
    let mode = match M::new(cx) {
        Ok(mode) => mode,
        Err(e) => return out.errors.push(e),
    };
    phases::start(cx.cfg.time_phases);
    phases::time("precheck", || {
        for &f in fns {
            out.errors.extend(mode.precheck(f));
        }
    });
    if !out.errors.is_empty() || (fns.is_empty() && !M::EMPTY_MODULES) {
        return;
    }
    out.changed = true;
    let mut prepared: Vec<Prepared> = phases::time("prepare", || {
        fns.iter().map(|&f| prepare(cx.ir, f)).collect()
    });
    let mut planned = mode.plan(&mut prepared);
    let instrument = phases::Lap::new("instrument");
    for p in &prepared {
        match planned.instrument(p) {
            Ok(w) => out.warnings.extend(w),
            Err(e) => out.errors.push(e),
        }
    }
    drop(instrument);
    phases::time("descriptors", || {
        let (md, register) = planned.finish();
        register_ctor(cx.ir, register, md);
    });
    if !cx.has_debug {
        out.warnings.push(format!(
            "{}: compiled without debug info: {}",
            cx.source,
            planned.without_debug_info()
        ));
    }
    if let Some(path) = sidecar_path(cx.cfg, &cx.source) {
        let _t = phases::Lap::new("sidecar");
        if let Err(e) = write_atomic(&path, &planned.sidecar_json()) {
            out.errors
                .push(format!("cannot write the sidecar {}: {e}", path.display()));
        }
    }
    if let Some(line) = phases::finish(&cx.source) {
        eprintln!("{line}");
    }
    if cx.cfg.verbose {
        planned.print_statistics();
        for w in &out.warnings {
            eprintln!("taintprof: warning: {w}");
        }
    }
}

/// What [`verify`] found in a module that is not valid IR.
pub struct Invalid {
    /// The verifier's first complaint.
    pub why: String,
    /// The functions whose bodies were dropped (their names).
    pub dropped: Vec<String>,
}

impl Invalid {
    /// `"; dropped the invalid body of `f`"` (for the error message), or nothing.
    pub fn dropped_note(&self) -> String {
        const SHOWN: usize = 5;
        let mut names: Vec<String> = self
            .dropped
            .iter()
            .take(SHOWN)
            .map(|n| format!("`{n}`"))
            .collect();
        if self.dropped.len() > SHOWN {
            names.push(format!("{} more", self.dropped.len() - SHOWN));
        }
        match self.dropped.len() {
            0 => String::new(),
            1 => format!("; dropped the invalid body of {}", names[0]),
            _ => format!("; dropped the invalid bodies of {}", names.join(", ")),
        }
    }
}

/// Runs the verifier on `m`; if the module is not valid IR, drops the body of every
/// function the verifier rejects (`tp_drop_invalid_bodies`): without this, a bug of the
/// pass surfaced as a crash somewhere in the code generator, with no hint of the cause.
/// Checked after every instrumentation and after a panic.
pub fn verify(m: LLVMModuleRef) -> Option<Invalid> {
    use inkwell::llvm_sys::analysis::{
        LLVMVerifierFailureAction, LLVMVerifyFunction, LLVMVerifyModule,
    };
    let mut msg: *mut c_char = std::ptr::null_mut();
    // SAFETY: m is the live module; the verifier allocates `msg`, which we dispose of.
    let broken = unsafe {
        LLVMVerifyModule(
            m,
            LLVMVerifierFailureAction::LLVMReturnStatusAction,
            &mut msg,
        )
    } != 0;
    let text = if msg.is_null() {
        String::new()
    } else {
        // SAFETY: a NUL-terminated message owned by LLVM until disposed of.
        let t = unsafe { CStr::from_ptr(msg) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: `msg` is the non-null message LLVM allocated above, disposed of exactly once.
        unsafe { LLVMDisposeMessage(msg) };
        t
    };
    if !broken {
        return None;
    }
    let first = text.lines().take(2).collect::<Vec<_>>().join(": ");
    let invalid = |f: V| {
        // SAFETY: `f` is a live function definition of `m`; the verifier only reads it.
        let broken =
            unsafe { LLVMVerifyFunction(f, LLVMVerifierFailureAction::LLVMReturnStatusAction) };
        broken != 0
    };
    let dropped = functions(m)
        .into_iter()
        .filter(|&f| !ir::is_declaration(f) && invalid(f))
        .map(ir::name_of)
        .collect();
    // SAFETY: m is the live module; no Rust code holds values of the dropped bodies
    // (the instrumentation is over, or was abandoned by a panic).
    unsafe { ffi::tp_drop_invalid_bodies(m) };
    Some(Invalid {
        why: first.chars().take(300).collect(),
        dropped,
    })
}

/// After a panic inside the pass: a function may be left half instrumented. As after a
/// bug found by the verifier, the code generator must not see it (it would crash there,
/// far from the cause): [`verify`], and say what was dropped (the note to add to the
/// error, empty if the module is valid).
pub fn after_panic(m: LLVMModuleRef) -> String {
    verify(m).map(|v| v.dropped_note()).unwrap_or_default()
}
