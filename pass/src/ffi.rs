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

/// A source variable (see `tp_variable_info`).
#[repr(C)]
pub struct TpVariable {
    pub name: TpStr,
    pub file: TpStr,
    pub dir: TpStr,
    pub line: c_uint,
    /// Globals: `static` at file or function scope.
    pub local_to_unit: c_int,
    /// The variable's DIType (null if none).
    pub ty: LLVMMetadataRef,
    /// The DISubprogram the variable is declared in (null at file scope).
    pub scope_sp: LLVMMetadataRef,
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
    /// Dominator-scoped common-subexpression elimination (with InstSimplify) among
    /// the pure label operations in `insts` (what the pass inserted in `f`); returns
    /// how many instructions it removed.
    pub fn tp_cse(f: LLVMValueRef, insts: *mut LLVMValueRef, n: c_uint) -> c_uint;
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
    /// The second DILocation of `!llvm.loop` on `term` (the loop statement's end), or null.
    pub fn tp_loop_end_location(term: LLVMValueRef) -> LLVMMetadataRef;
    /// Append `!{a, b}` (`!{a}` when `b` is null) to named metadata `name`.
    pub fn tp_record_add(
        m: LLVMModuleRef,
        name: *const c_char,
        a: LLVMMetadataRef,
        b: LLVMMetadataRef,
    );
    pub fn tp_record_count(m: LLVMModuleRef, name: *const c_char) -> c_uint;
    /// Operands 0 and 1 of entry `i` of named metadata `name` (null when absent).
    pub fn tp_record_get(
        m: LLVMModuleRef,
        name: *const c_char,
        i: c_uint,
        a: *mut LLVMMetadataRef,
        b: *mut LLVMMetadataRef,
    );
    pub fn tp_record_erase(m: LLVMModuleRef, name: *const c_char);
    pub fn tp_demangle(name: *const c_char, len: usize) -> *mut c_char;
    pub fn tp_free(p: *mut c_char);
    pub fn tp_module_has_debug_info(m: LLVMModuleRef) -> c_int;
    /// Turns the definitions the verifier rejects into declarations; returns how many.
    pub fn tp_drop_invalid_bodies(m: LLVMModuleRef) -> u32;
    /// Moves each region (the blocks reachable from `entries[k]` without passing
    /// `exits[k]`, of one function) into a `cold`, `noinline` function of its own,
    /// called in its place; returns how many were moved (the others are unchanged).
    pub fn tp_outline_regions(
        entries: *mut LLVMBasicBlockRef,
        exits: *mut LLVMBasicBlockRef,
        n: c_uint,
    ) -> c_uint;
    /// `if (cond) { then } else { else }` before `before`, `then` likely.
    pub fn tp_split_if_then_else(
        cond: LLVMValueRef,
        before: LLVMValueRef,
        then: *mut LLVMBasicBlockRef,
        els: *mut LLVMBasicBlockRef,
    );
    /// `b` ends in `br dest`: make it `br cond, n, other` (n likely) with `n` a new
    /// block after `b` that branches to `dest`; returns `n`.
    pub fn tp_guard_block(
        b: LLVMBasicBlockRef,
        cond: LLVMValueRef,
        other: LLVMBasicBlockRef,
    ) -> LLVMBasicBlockRef;
    /// As `tp_split_if_then`; `likely` != 0 makes the new block the likely side.
    pub fn tp_split_if_then_weighted(
        cond: LLVMValueRef,
        before: LLVMValueRef,
        likely: c_int,
    ) -> LLVMBasicBlockRef;
    /// DILocalVariables bound to `v` (`declares` != 0: `v` is their address), both
    /// debug-info formats. Returns the total count; writes at most `max`.
    pub fn tp_value_debug_vars(
        v: LLVMValueRef,
        out: *mut LLVMMetadataRef,
        frag_out: *mut i64,
        max: c_uint,
        declares: c_int,
    ) -> c_uint;
    /// DIGlobalVariables describing global `g` as a whole.
    pub fn tp_global_debug_vars(g: LLVMValueRef, out: *mut LLVMMetadataRef, max: c_uint) -> c_uint;
    pub fn tp_variable_info(var: LLVMMetadataRef, out: *mut TpVariable) -> c_int;
    /// Size in bits of the DW_ATE_float type `ty` is after `derefs` pointer levels and
    /// any array levels (0 if none), its name into `name`.
    pub fn tp_ditype_fp(ty: LLVMMetadataRef, derefs: c_uint, name: *mut TpStr) -> c_uint;
    /// The member of struct `ty` (after `derefs` pointer levels) at `offset_bits`: its
    /// type, and its access path into `path` (free with `tp_free`).
    pub fn tp_ditype_member_at(
        ty: LLVMMetadataRef,
        derefs: c_uint,
        offset_bits: u64,
        path: *mut *mut c_char,
    ) -> LLVMMetadataRef;
    pub fn tp_gep_constant_offset(gep: LLVMValueRef, out: *mut i64) -> c_int;
    pub fn tp_ditype_is_array(ty: LLVMMetadataRef) -> c_int;
    pub fn tp_ditype_is_reference(ty: LLVMMetadataRef) -> c_int;
    /// Size in bits of the element type of the `std::vector` of an FP type at
    /// `offset_bits` of what `ty` designates after `derefs` pointer levels (0 if none),
    /// its name into `name`, the member path into `path` (free with `tp_free`).
    pub fn tp_ditype_fp_vector_at(
        ty: LLVMMetadataRef,
        derefs: c_uint,
        offset_bits: u64,
        path: *mut *mut c_char,
        name: *mut TpStr,
    ) -> c_uint;
    /// The debug return type of function `f`, or null.
    pub fn tp_function_return_ditype(f: LLVMValueRef) -> LLVMMetadataRef;
    /// Taint mode: GEP instruction `g` as `*konst + sum scales[i] * vars[i]` bytes from
    /// its pointer operand; the number of pairs (at most `max`), or -1.
    pub fn tp_gep_decompose(
        g: LLVMValueRef,
        vars: *mut LLVMValueRef,
        scales: *mut i64,
        max: c_uint,
        konst: *mut i64,
    ) -> c_int;
}

/// Whether debug type `ty` (typedefs and qualifiers stripped) is an array type.
/// Whether `ty` is a C++ reference (`T &`, `T &&`).
pub fn ditype_is_reference(ty: LLVMMetadataRef) -> bool {
    // SAFETY: a DIType of the module or null (the shim checks).
    !ty.is_null() && unsafe { tp_ditype_is_reference(ty) } != 0
}

pub fn ditype_is_array(ty: LLVMMetadataRef) -> bool {
    // SAFETY: ty is null or metadata of the module; the shim checks its kind.
    !ty.is_null() && unsafe { tp_ditype_is_array(ty) } != 0
}

/// The constant byte offset of a GEP (instruction or constant expression).
pub fn gep_constant_offset(gep: LLVMValueRef) -> Option<i64> {
    let mut off = 0i64;
    // SAFETY: gep is a live value; the shim checks that it is a GEP.
    (unsafe { tp_gep_constant_offset(gep, &mut off) } != 0).then_some(off)
}

impl TpStr {
    pub const EMPTY: TpStr = TpStr {
        ptr: std::ptr::null(),
        len: 0,
    };
}

/// Debug variables bound to `v` (see [`tp_value_debug_vars`]).
pub fn value_debug_vars(v: LLVMValueRef, declares: bool) -> Vec<LLVMMetadataRef> {
    value_debug_vars_frag(v, declares)
        .into_iter()
        .filter(|x| x.1.is_none())
        .map(|x| x.0)
        .collect()
}

/// Debug variables bound to `v`, each with the byte offset of the fragment `v` is
/// (`None`: the whole variable).
pub fn value_debug_vars_frag(
    v: LLVMValueRef,
    declares: bool,
) -> Vec<(LLVMMetadataRef, Option<u64>)> {
    let mut out = [std::ptr::null_mut(); 8];
    let mut frag = [-1i64; 8];
    // SAFETY: v is a live value; the shim writes at most 8 entries to each array.
    let n = unsafe {
        tp_value_debug_vars(v, out.as_mut_ptr(), frag.as_mut_ptr(), 8, declares as c_int)
    };
    (0..(n as usize).min(8))
        .map(|k| (out[k], (frag[k] >= 0).then_some(frag[k] as u64 / 8)))
        .collect()
}

/// Debug variables describing global `g`.
pub fn global_debug_vars(g: LLVMValueRef) -> Vec<LLVMMetadataRef> {
    let mut out = [std::ptr::null_mut(); 4];
    // SAFETY: g is a live global; the shim writes at most 4 entries.
    let n = unsafe { tp_global_debug_vars(g, out.as_mut_ptr(), 4) };
    out[..(n as usize).min(4)].to_vec()
}

/// Information about a DIVariable, `None` if `var` is not one.
pub fn variable_info(var: LLVMMetadataRef) -> Option<TpVariable> {
    let mut out = TpVariable {
        name: TpStr::EMPTY,
        file: TpStr::EMPTY,
        dir: TpStr::EMPTY,
        line: 0,
        local_to_unit: 0,
        ty: std::ptr::null_mut(),
        scope_sp: std::ptr::null_mut(),
    };
    // SAFETY: var is metadata of the module (or the shim returns 0).
    (unsafe { tp_variable_info(var, &mut out) } != 0).then_some(out)
}

/// `(bits, name)` of the FP type `ty` designates after `derefs` pointer levels and any
/// array levels.
pub fn ditype_fp(ty: LLVMMetadataRef, derefs: u32) -> Option<(u32, String)> {
    if ty.is_null() {
        return None;
    }
    let mut name = TpStr::EMPTY;
    // SAFETY: ty is a DIType of the module (the shim checks).
    let bits = unsafe { tp_ditype_fp(ty, derefs, &mut name) };
    (bits != 0).then(|| (bits, name.to_string_lossy()))
}

/// `(element bits, element type name, member path)` of the `std::vector` of an FP type
/// at byte `offset` of what `ty` designates after `derefs` pointer levels (the path is
/// empty for the object itself).
pub fn ditype_fp_vector_at(
    ty: LLVMMetadataRef,
    derefs: u32,
    offset: u64,
) -> Option<(u32, String, String)> {
    if ty.is_null() {
        return None;
    }
    let mut name = TpStr::EMPTY;
    let mut path: *mut c_char = std::ptr::null_mut();
    // SAFETY: ty is a DIType of the module (the shim checks); path is malloc'd or null.
    let bits = unsafe { tp_ditype_fp_vector_at(ty, derefs, offset * 8, &mut path, &mut name) };
    let p = if path.is_null() {
        String::new()
    } else {
        // SAFETY: NUL-terminated, from strdup; freed right after.
        let s = unsafe { std::ffi::CStr::from_ptr(path) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: `path` is the non-null `malloc`ed string the shim returned; freed once.
        unsafe { tp_free(path) };
        s
    };
    (bits != 0).then(|| (bits, name.to_string_lossy(), p))
}

/// The member of struct type `ty` (after `derefs` pointer levels) at byte `offset`:
/// `(member type, access path)`.
pub fn ditype_member_at(
    ty: LLVMMetadataRef,
    derefs: u32,
    offset: u64,
) -> Option<(LLVMMetadataRef, String)> {
    if ty.is_null() {
        return None;
    }
    let mut path: *mut c_char = std::ptr::null_mut();
    // SAFETY: ty is a DIType of the module; the shim returns a malloc'd path or null.
    let m = unsafe { tp_ditype_member_at(ty, derefs, offset * 8, &mut path) };
    if m.is_null() || path.is_null() {
        return None;
    }
    // SAFETY: path is a NUL-terminated string from strdup.
    let p = unsafe { std::ffi::CStr::from_ptr(path) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: `path` is the non-null `malloc`ed string the shim returned; freed once.
    unsafe { tp_free(path) };
    Some((m, p))
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
