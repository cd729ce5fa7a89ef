//! What a call is, for instrumentation purposes: inline assembly, an intrinsic (with
//! its class), a declaration listed in the function list (`abilist.rs`), or an ordinary
//! call. Shared by the taint and denormal instrumentations, which both also strip the
//! memory attributes listed here from the functions and calls they instrument.

use crate::abilist::{AbiList, Kind};
use crate::ffi;
use crate::intrinsics::{classify, IntrKind};
use crate::ir::{self, V};
use inkwell::llvm_sys::core::*;

/// Function attributes that claim (part of) memory is not accessed. Instrumented code
/// reads and writes shadow memory and thread-local slots, so they are no longer true,
/// and code generation would be allowed to move those accesses across the call.
pub(crate) const MEMORY_ATTRS: &[&str] = &["memory", "nosync", "nofree"];

/// What a call is, for label purposes.
pub enum CallKind {
    InlineAsm,
    /// An intrinsic, with its name.
    Intrinsic(IntrKind, String),
    /// A direct call to a declaration listed in the function list.
    Listed(Kind, String),
    /// Anything else: the label ABI.
    Normal,
}

pub fn call_kind(call: V, list: &AbiList) -> CallKind {
    let callee = ir::called_value(call);
    // SAFETY: `callee` is the non-null called operand of the live call `call`.
    if unsafe { !LLVMIsAInlineAsm(callee).is_null() } {
        return CallKind::InlineAsm;
    }
    let f = ir::called_function(call);
    if f.is_null() {
        return CallKind::Normal;
    }
    let name = ir::name_of(f);
    if ir::intrinsic_id(f) != 0 {
        // SAFETY: `call` is a live call (callers' invariant); the shim casts it to `CallBase`.
        let mem = unsafe { ffi::tp_call_memory_effects(call) };
        return CallKind::Intrinsic(classify(&name, mem), name);
    }
    if ir::is_declaration(f) {
        if let Some(k) = list.get(&name) {
            return CallKind::Listed(k, name);
        }
    }
    CallKind::Normal
}
