//! Declarations of the C++ helpers in `shim/plugin.cpp` (what LLVM's C API lacks).
//!
//! Each helper is documented at its definition; the comments here say what the Rust
//! side relies on.

use inkwell::llvm_sys::prelude::{
    LLVMBasicBlockRef, LLVMMetadataRef, LLVMModuleRef, LLVMTypeRef, LLVMValueRef,
};
use std::os::raw::{c_char, c_int, c_uint, c_void};

/// A borrowed string inside LLVM metadata (lives as long as the module).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct TpStr {
    pub ptr: *const c_char,
    pub len: usize,
}

impl TpStr {
    pub fn to_string_lossy(self) -> String {
        if self.ptr.is_null() || self.len == 0 {
            return String::new();
        }
        // SAFETY: the shim returns pointers into MDStrings that outlive this call.
        let bytes = unsafe { std::slice::from_raw_parts(self.ptr as *const u8, self.len) };
        String::from_utf8_lossy(bytes).into_owned()
    }
}

#[repr(C)]
pub struct TpSubprogram {
    pub name: TpStr,
    pub linkage: TpStr,
    pub file: TpStr,
    pub dir: TpStr,
    pub line: c_uint,
}

#[repr(C)]
pub struct TpLocation {
    pub line: c_uint,
    pub column: c_uint,
    pub inlined_at: LLVMMetadataRef,
    pub subprogram: LLVMMetadataRef,
}

/// Bits returned by [`tp_call_memory_effects`].
pub const TP_MEM_READS: c_uint = 1;
pub const TP_MEM_WRITES: c_uint = 2;

extern "C" {
    pub fn tp_emit_error(m: LLVMModuleRef, msg: *const c_char);
    pub fn tp_emit_warning(m: LLVMModuleRef, msg: *const c_char);
    pub fn tp_promote_allocas(f: LLVMValueRef, only: *mut LLVMValueRef, n: c_uint) -> c_uint;
    pub fn tp_split_edge(term: LLVMValueRef, succ: c_uint) -> LLVMBasicBlockRef;
    /// `if (cond) { new block }` before `before`, marked unlikely; returns the new block.
    pub fn tp_split_if_then(cond: LLVMValueRef, before: LLVMValueRef) -> LLVMBasicBlockRef;
    /// One new block on all edges from a `switch` to `succ`; returns it.
    pub fn tp_split_switch_successor(
        switch: LLVMValueRef,
        succ: LLVMBasicBlockRef,
    ) -> LLVMBasicBlockRef;
    /// Constant trip counts (`u64::MAX` = unknown) of the loops with the given headers.
    pub fn tp_loop_trip_counts(
        fam: *mut c_void,
        f: LLVMValueRef,
        headers: *mut LLVMBasicBlockRef,
        n: c_uint,
        out: *mut u64,
    ) -> c_int;
    pub fn tp_simplify(insts: *mut LLVMValueRef, n: c_uint) -> c_uint;
    /// Hoist loop-invariant label code out of loops, collapse label PHI cycles.
    pub fn tp_hoist_labels(f: LLVMValueRef, insts: *mut LLVMValueRef, n: c_uint) -> c_uint;
    pub fn tp_append_global_ctor(m: LLVMModuleRef, f: LLVMValueRef, priority: c_int);
    pub fn tp_call_memory_effects(call: LLVMValueRef) -> c_uint;
    pub fn tp_call_returns_twice(call: LLVMValueRef) -> c_int;
    pub fn tp_call_byval_type(call: LLVMValueRef, i: c_uint) -> LLVMTypeRef;
    pub fn tp_param_byval_type(f: LLVMValueRef, i: c_uint) -> LLVMTypeRef;
    pub fn tp_has_unsupported_param_attr(call_or_fn: LLVMValueRef, i: c_uint) -> c_int;
    pub fn tp_call_is_musttail(call: LLVMValueRef) -> c_int;
    pub fn tp_function_is_naked(f: LLVMValueRef) -> c_int;
    pub fn tp_location_info(loc: LLVMMetadataRef, out: *mut TpLocation) -> c_int;
    pub fn tp_subprogram_info(sp: LLVMMetadataRef, out: *mut TpSubprogram) -> c_int;
    pub fn tp_loop_start_location(term: LLVMValueRef) -> LLVMMetadataRef;
    pub fn tp_demangle(name: *const c_char, len: usize) -> *mut c_char;
    pub fn tp_free(p: *mut c_char);
    pub fn tp_module_has_debug_info(m: LLVMModuleRef) -> c_int;
}

/// Demangle `name` (Itanium C++, Rust, D); `None` if it is not a mangled name.
pub fn demangle(name: &str) -> Option<String> {
    if name.is_empty() {
        return None;
    }
    // SAFETY: the shim copies the input and returns a malloc'd NUL-terminated string.
    unsafe {
        let p = tp_demangle(name.as_ptr() as *const c_char, name.len());
        if p.is_null() {
            return None;
        }
        let s = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
        tp_free(p);
        Some(s)
    }
}
