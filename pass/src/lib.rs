//! # taintprof-pass: the LLVM 19 pass plugin (`libtaintprof_pass.so`)
//!
//! Loaded by `clang-19 -fpass-plugin=` (runs at OptimizerLast, at every optimization
//! level including -O0) or `opt-19 -load-pass-plugin= -passes=taintprof-taint`. It
//! rewrites each function so that labels (bitsets of registered parameters) follow the
//! program's data flow and explicit control flow inline (`docs/internal/control-flow.md`),
//! reports the labels of loop exit conditions once per loop execution and of other
//! conditional branches (branch sinks) in records updated only when something new is
//! seen, and tracks calling contexts. Functions proved constant at compile time
//! (static pruning) keep label propagation but lose every sink and context hook. The
//! contract with the runtime is `taintprof_abi` (`abi/src/lib.rs`); this crate emits
//! exactly what it describes.
//!
//! ## Crate map (one module per concern)
//!
//! | module          | concern                                                             |
//! |-----------------|---------------------------------------------------------------------|
//! | `lib.rs`        | plugin entry points; panics and errors become compile errors        |
//! | `config`        | every knob (environment variables, opt pass parameters)              |
//! | `abilist`       | the function list (`rt/abilist.txt` + `TAINTPROF_ABILIST`)           |
//! | `routines`      | the routine database (`rt/routines.txt` + `TAINTPROF_ROUTINES`)      |
//! | `library`       | library loops: memory intrinsics and routines that loop over a size |
//! | `folded`        | loops recorded before optimization; the ones the optimizer folded    |
//! | `module`        | the module driver of both modes: selection, pre-check, preparation, the verifier; the rest through the mode's `ModeInstrumenter` |
//! | `taint`         | taint mode: its module-level steps (`taint::module`), per-function instrumentation |
//! | `denormal`      | denormal mode: its module-level steps (`denormal::module`), FP sites, tags, marked arrays |
//! | `cfg`           | CFGs, dominator and post-dominator trees (petgraph)                  |
//! | `loops`         | natural loops, nesting, exits                                        |
//! | `cdeps`         | control dependence and the join rule of control-flow tainting        |
//! | `prune`         | static pruning (constant functions) and static recursion             |
//! | `debugloc`      | source identity: inline chains from debug locations                 |
//! | `descriptors`   | `SrcLoc`/`SiteDesc`/`LoopDesc`/`FuncDesc`/`ModuleDesc`, ctor, sidecar |
//! | `sysv`          | SysV x86-64 classification of variadic arguments                    |
//! | `ir`            | thin typed helpers over LLVM's C API                                 |
//! | `ffi`           | the C++ helpers of `shim/plugin.cpp` (what the C API lacks)          |
//! | `json`          | a minimal JSON writer for the sidecar                               |
//! | `time`          | time mode: enter/exit calls and loop counts at pipeline start        |
//!
//! The C++ shim registers the pass with the new pass manager and provides a few
//! helpers (PromoteMemToReg, edge and block splitting, global ctors, debug-info
//! queries, demangling, diagnostics, ScalarEvolution trip counts). All logic is Rust. The plugin does not link LLVM: its
//! LLVM symbols resolve from the clang or opt that loads it.

#![deny(clippy::undocumented_unsafe_blocks)]

mod abilist;
mod callkind;
mod cdeps;
mod cfg;
mod config;
mod debugloc;
mod denormal;
mod descriptors;
mod ffi;
mod folded;
mod intrinsics;
mod ir;
mod json;
mod library;
mod loops;
mod module;
mod phases;
mod prepare;
mod provenance;
mod prune;
mod routines;
mod sysv;
mod taint;
mod time;

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_void};

#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    name: *const c_char,
    version: *const c_char,
    register: unsafe extern "C" fn(*mut c_void),
}

extern "C" {
    fn taintprof_register_callbacks(pb: *mut c_void);
}

unsafe extern "C" fn register(pb: *mut c_void) {
    // The shim only registers callbacks; nothing here can panic.
    taintprof_register_callbacks(pb)
}

/// The plugin entry point clang/opt look up. Must be a Rust `#[no_mangle]` function:
/// a C++ symbol compiled into a Rust cdylib is not exported.
#[no_mangle]
pub extern "C" fn llvmGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: 1,
        name: c"taintprof".as_ptr(),
        version: c"0.1.0".as_ptr(),
        register,
    }
}

fn emit(m: inkwell::llvm_sys::prelude::LLVMModuleRef, msg: &str, error: bool) {
    let c = CString::new(msg.replace('\0', " ")).unwrap();
    // SAFETY: m is the module being processed; the shim copies the message.
    unsafe {
        if error {
            ffi::tp_emit_error(m, c.as_ptr())
        } else {
            ffi::tp_emit_warning(m, c.as_ptr())
        }
    }
}

/// Called by the shim's pipeline-start pass (at -O1 and above) for each module, before
/// any optimization: records the source positions of its loops and routine calls
/// (`folded::record`). Returns 0; 2 after an internal panic (nothing is recorded then,
/// and no loop is reported folded). Configuration errors are left to
/// `taintprof_run_module`, which reports them.
///
/// # Safety
/// `m` must be the live module the pass manager is running on.
#[no_mangle]
pub unsafe extern "C" fn taintprof_record_loops(
    m: inkwell::llvm_sys::prelude::LLVMModuleRef,
    _opt_level: c_int,
) -> c_int {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let Ok(cfg) = config::Config::load("") else {
            return;
        };
        if cfg.mode != config::Mode::Taint || !cfg.folded {
            return;
        }
        let (Ok(list), Ok(db)) = (
            abilist::AbiList::load(&cfg.abilists),
            routines::Routines::load(&cfg.routines),
        ) else {
            return;
        };
        folded::record(m, &list, &db);
    }));
    match result {
        Ok(()) => 0,
        Err(_) => {
            // Drop a partial record: an incomplete list would report loops as folded
            // that are not.
            // SAFETY: m is the live module.
            unsafe {
                ffi::tp_record_erase(m, folded::SRC_LOOPS.as_ptr());
                ffi::tp_record_erase(m, folded::SRC_CALLS.as_ptr());
            }
            2
        }
    }
}

/// Called by the shim's pipeline-start time pass (every optimization level, and
/// `opt -passes=taintprof-time`) for each module: in time mode (`TAINTPROF_MODE=time`
/// or the parameter `mode=time`) instruments it (`crate::time`); otherwise nothing.
/// Returns 0, 1 if errors were reported, 2 after an internal panic.
///
/// # Safety
/// `m` must be the live module the pass manager is running on, `params` null or a
/// NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn taintprof_time_module(
    m: inkwell::llvm_sys::prelude::LLVMModuleRef,
    params: *const c_char,
) -> c_int {
    let params = if params.is_null() {
        String::new()
    } else {
        // SAFETY: the shim passes a NUL-terminated string it owns for this call.
        unsafe { CStr::from_ptr(params) }
            .to_string_lossy()
            .into_owned()
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let cfg = config::Config::load(&params)?;
        if cfg.mode != config::Mode::Time {
            return Ok(false);
        }
        time::run(m, cfg.time_select.as_deref())
    }));
    match result {
        Ok(Ok(changed)) => {
            if changed {
                if let Some(v) = module::verify(m) {
                    emit(
                        m,
                        &format!(
                            "internal error: the time-instrumented module is not valid IR ({}){}",
                            v.why,
                            v.dropped_note()
                        ),
                        true,
                    );
                    return 1;
                }
            }
            0
        }
        Ok(Err(e)) => {
            emit(m, &e, true);
            1
        }
        Err(_) => {
            let dropped = std::panic::catch_unwind(|| module::after_panic(m)).unwrap_or_default();
            emit(
                m,
                &format!("internal error in time mode{dropped}; compile this file with TAINTPROF_MODE=off"),
                true,
            );
            2
        }
    }
}

/// Called by the shim for each module. Returns 0 on success, 1 if errors were
/// reported, 2 after an internal panic (also reported as a compile error).
///
/// # Safety
/// `m` must be the live module the pass manager is running on, `params` null or a
/// NUL-terminated string, and `fam` null or the module's `FunctionAnalysisManager`
/// (the shim guarantees all three).
#[no_mangle]
pub unsafe extern "C" fn taintprof_run_module(
    m: inkwell::llvm_sys::prelude::LLVMModuleRef,
    opt_level: c_int,
    params: *const c_char,
    fam: *mut c_void,
) -> c_int {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let params = if params.is_null() {
            String::new()
        } else {
            // SAFETY: the shim passes a NUL-terminated string it owns for this call.
            unsafe { CStr::from_ptr(params) }
                .to_string_lossy()
                .into_owned()
        };
        module::run(m, opt_level, &params, fam)
    }));
    match result {
        Ok(out) => {
            for e in &out.errors {
                emit(m, e, true);
            }
            if out.errors.is_empty() {
                0
            } else {
                1
            }
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            // A panic can leave a function half instrumented: as after a bug found by
            // the verifier, the code generator must not see it (it would crash there,
            // far from the cause). `module::after_panic` verifies the module and drops
            // the invalid bodies; the error says which.
            let dropped = std::panic::catch_unwind(|| module::after_panic(m)).unwrap_or_default();
            let _ = std::panic::catch_unwind(|| {
                emit(
                    m,
                    &format!(
                        "internal error: {what}{dropped}. Please report this with the input \
                         file; meanwhile compile this file with TAINTPROF_MODE=off"
                    ),
                    true,
                )
            });
            2
        }
    }
}
