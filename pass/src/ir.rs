//! A thin, typed layer over LLVM's C API (`inkwell::llvm_sys`) for building and
//! inspecting IR inside the plugin.
//!
//! Why not inkwell's safe wrappers everywhere: instrumentation needs instruction-level
//! queries and edits (opcodes, operands, shuffle masks, atomic orderings, metadata,
//! replacing a call's callee, inserting before arbitrary instructions, intrinsic
//! declarations by name) that inkwell either does not expose or exposes behind
//! lifetime-typed wrappers that cannot be built from the raw `LLVMModuleRef` a pass
//! receives. Keeping every raw call in this one module keeps the `unsafe` surface
//! small: callers pass handles obtained from LLVM for the module being processed, and
//! the helpers never outlive that module.
//!
//! Folding: nothing runs after this pass at OptimizerLast, so the helpers fold the cheap
//! cases themselves (OR with a zero shadow, identical operands) instead of leaving
//! work for an optimizer that will not come.
//!
//! ## Safety
//!
//! Every `V`, `T` and `B` these helpers receive is a live handle of the module the pass
//! manager hands us (or of its context): a value, type or block obtained from LLVM
//! during this pass run and not erased since. LLVM keeps them alive until the pass
//! returns, so llvm_sys calls on them are sound while it runs. `Ir` owns its builder
//! (disposed of in `Drop`) and holds the module, its context and its data layout, which
//! live as long as the module (the contract of [`Ir::new`]). The builder is only used
//! after it was positioned in a block of the module. LLVM's C API casts without
//! checking in release builds, so a helper that needs a particular kind of handle (an
//! instruction, a call, a PHI, a function definition, a vector type) says so in its
//! SAFETY comment, and callers pass only such handles. Arrays handed to LLVM are Rust
//! buffers passed with their length, alive for the call; LLVM copies them. Names are
//! NUL-terminated (`CString`, `c""` literals) or passed with their length.

#![allow(clippy::missing_safety_doc)]

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::{LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMStoreSizeOfType};
use inkwell::llvm_sys::{LLVMLinkage, LLVMOpcode, LLVMThreadLocalMode, LLVMTypeKind};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{CStr, CString};
use std::os::raw::c_char;

pub type V = LLVMValueRef;
pub type T = LLVMTypeRef;
pub type B = LLVMBasicBlockRef;

const NONAME: *const c_char = c"".as_ptr();

/// The name of a value (empty if unnamed).
pub fn name_of(v: V) -> String {
    // Null is "no value", e.g. `called_function` of an indirect call: no name.
    if v.is_null() {
        return String::new();
    }
    let mut len = 0usize;
    // SAFETY: v is a live value; LLVM returns a pointer into its name storage.
    unsafe {
        let p = LLVMGetValueName2(v, &mut len);
        if p.is_null() || len == 0 {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// The IR text of a value (for error messages).
pub fn print_value(v: V) -> String {
    // SAFETY: LLVMPrintValueToString returns an owned C string we dispose.
    unsafe {
        let p = LLVMPrintValueToString(v);
        // One line: multi-line instructions (invoke, callbr, switch) are joined.
        let s = CStr::from_ptr(p)
            .to_string_lossy()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        LLVMDisposeMessage(p);
        s
    }
}

/// The opcode of an instruction or a constant expression. Anything else (arguments,
/// globals, plain constants) gets `LLVMUserOp1`, which no caller matches: LLVM's
/// `LLVMGetInstructionOpcode` returns 0 for those, which is no `LLVMOpcode` variant.
pub fn opcode(i: V) -> LLVMOpcode {
    if is_instruction(i) {
        // SAFETY: `i` is a live instruction (checked above; module header).
        unsafe { LLVMGetInstructionOpcode(i) }
    } else if is_constant_expr(i) {
        // SAFETY: `i` is a live constant expression (checked above).
        unsafe { LLVMGetConstOpcode(i) }
    } else {
        LLVMOpcode::LLVMUserOp1
    }
}

/// Whether `v` is a constant expression (`getelementptr (...)`, `bitcast (...)`).
pub fn is_constant_expr(v: V) -> bool {
    // SAFETY: `v` is a live value (module header).
    unsafe { !LLVMIsAConstantExpr(v).is_null() }
}

/// Whether `op` is a cast (one operand, the value converted).
pub fn is_cast_op(op: LLVMOpcode) -> bool {
    use LLVMOpcode as Op;
    matches!(
        op,
        Op::LLVMTrunc
            | Op::LLVMZExt
            | Op::LLVMSExt
            | Op::LLVMFPToUI
            | Op::LLVMFPToSI
            | Op::LLVMUIToFP
            | Op::LLVMSIToFP
            | Op::LLVMFPTrunc
            | Op::LLVMFPExt
            | Op::LLVMPtrToInt
            | Op::LLVMIntToPtr
            | Op::LLVMBitCast
            | Op::LLVMAddrSpaceCast
    )
}

/// Whether `op` is a binary operator or a compare (two operands, both read).
pub fn is_binary_op(op: LLVMOpcode) -> bool {
    use LLVMOpcode as Op;
    matches!(
        op,
        Op::LLVMAdd
            | Op::LLVMFAdd
            | Op::LLVMSub
            | Op::LLVMFSub
            | Op::LLVMMul
            | Op::LLVMFMul
            | Op::LLVMUDiv
            | Op::LLVMSDiv
            | Op::LLVMFDiv
            | Op::LLVMURem
            | Op::LLVMSRem
            | Op::LLVMFRem
            | Op::LLVMShl
            | Op::LLVMLShr
            | Op::LLVMAShr
            | Op::LLVMAnd
            | Op::LLVMOr
            | Op::LLVMXor
            | Op::LLVMICmp
            | Op::LLVMFCmp
    )
}

pub fn type_of(v: V) -> T {
    // SAFETY: `v` is a live value (module header).
    unsafe { LLVMTypeOf(v) }
}

pub fn kind(t: T) -> LLVMTypeKind {
    // SAFETY: `t` is a live type of the module's context (module header).
    unsafe { LLVMGetTypeKind(t) }
}

pub fn is_vector(t: T) -> bool {
    kind(t) == LLVMTypeKind::LLVMVectorTypeKind
}

/// A pointer or a vector of pointers.
pub fn is_pointer_like(t: T) -> bool {
    let k = if is_vector(t) {
        kind(element_type(t))
    } else {
        kind(t)
    };
    k == inkwell::llvm_sys::LLVMTypeKind::LLVMPointerTypeKind
}

pub fn is_scalable(t: T) -> bool {
    kind(t) == LLVMTypeKind::LLVMScalableVectorTypeKind
}

pub fn vector_len(t: T) -> u32 {
    // SAFETY: callers pass a fixed vector type (they check `is_vector` first); LLVM casts to it.
    unsafe { LLVMGetVectorSize(t) }
}

pub fn element_type(t: T) -> T {
    // SAFETY: callers pass a vector or array type (LLVM casts to `VectorType` otherwise).
    unsafe { LLVMGetElementType(t) }
}

pub fn num_operands(i: V) -> u32 {
    // SAFETY: `i` is a live instruction or constant expression, i.e. a `User` (module header).
    unsafe { LLVMGetNumOperands(i) as u32 }
}

pub fn operand(i: V, n: u32) -> V {
    // SAFETY: `i` is a live `User` (module header) and callers pass `n < num_operands(i)`.
    unsafe { LLVMGetOperand(i, n) }
}

pub fn block_of(i: V) -> B {
    // SAFETY: `i` is a live instruction (module header); LLVM casts to `Instruction`.
    unsafe { LLVMGetInstructionParent(i) }
}

pub fn terminator(b: B) -> V {
    // SAFETY: `b` is a live block (module header); null if it has no terminator yet.
    unsafe { LLVMGetBasicBlockTerminator(b) }
}

/// The condition deciding where terminator `t` goes, if it has one (the control
/// dependence of both modes' analyses, the provenance graph and the recursion loop use
/// it).
pub fn terminator_condition(t: V) -> Option<V> {
    match opcode(t) {
        // SAFETY: `t` is a live `br` (this arm); the condition is read only if it is
        // conditional.
        LLVMOpcode::LLVMBr if unsafe { LLVMIsConditional(t) } != 0 => {
            // SAFETY: `t` is a live conditional `br` (guard above).
            Some(unsafe { LLVMGetCondition(t) })
        }
        LLVMOpcode::LLVMSwitch | LLVMOpcode::LLVMIndirectBr => Some(operand(t, 0)),
        _ => None,
    }
}

pub fn next_instruction(i: V) -> V {
    // SAFETY: `i` is a live instruction (module header); null after the last one.
    unsafe { LLVMGetNextInstruction(i) }
}

/// The users of `v`, one per use, in use-list order (snapshotted, so that changing
/// the IR does not disturb iteration).
pub fn users(v: V) -> Vec<V> {
    let mut out = Vec::new();
    // SAFETY: `v` is a live value; its uses are live IR.
    unsafe {
        let mut u = LLVMGetFirstUse(v);
        while !u.is_null() {
            out.push(LLVMGetUser(u));
            u = LLVMGetNextUse(u);
        }
    }
    out
}

/// All instructions of a block, snapshotted (so that inserting does not disturb
/// iteration).
pub fn instructions(b: B) -> Vec<V> {
    let mut out = Vec::new();
    // SAFETY: `v` is a live value (module header); each use and its user are live IR.
    unsafe {
        let mut i = LLVMGetFirstInstruction(b);
        while !i.is_null() {
            out.push(i);
            i = LLVMGetNextInstruction(i);
        }
    }
    out
}

pub fn blocks(f: V) -> Vec<B> {
    let mut out = Vec::new();
    // SAFETY: `b` is a live block (module header); its instruction list is walked to its end.
    unsafe {
        let mut b = LLVMGetFirstBasicBlock(f);
        while !b.is_null() {
            out.push(b);
            b = LLVMGetNextBasicBlock(b);
        }
    }
    out
}

pub fn entry_block(f: V) -> B {
    // SAFETY: `f` is a live function definition (module header: only definitions are
    // instrumented); a declaration has no entry block.
    unsafe { LLVMGetEntryBasicBlock(f) }
}

pub fn successors(b: B) -> Vec<B> {
    let t = terminator(b);
    if t.is_null() {
        return Vec::new();
    }
    // SAFETY: `b` is a live block; `t` is its (non-null) terminator and `i` < its successor count.
    unsafe {
        (0..LLVMGetNumSuccessors(t))
            .map(|i| LLVMGetSuccessor(t, i))
            .collect()
    }
}

pub fn params(f: V) -> Vec<V> {
    // SAFETY: `f` is a live function (module header); `i` < its parameter count.
    unsafe {
        let n = LLVMCountParams(f);
        (0..n).map(|i| LLVMGetParam(f, i)).collect()
    }
}

pub fn is_declaration(f: V) -> bool {
    // SAFETY: `f` is a live global value (module header).
    unsafe { LLVMIsDeclaration(f) != 0 }
}

pub fn linkage(g: V) -> LLVMLinkage {
    // SAFETY: `g` is a live global value (module header).
    unsafe { LLVMGetLinkage(g) }
}

pub fn is_instruction(v: V) -> bool {
    // SAFETY: `v` is a live, non-null value (module header).
    unsafe { !LLVMIsAInstruction(v).is_null() }
}

pub fn is_argument(v: V) -> bool {
    // SAFETY: `v` is a live, non-null value (module header).
    unsafe { !LLVMIsAArgument(v).is_null() }
}

pub fn is_function(v: V) -> bool {
    // SAFETY: `v` is a live, non-null value (module header).
    unsafe { !LLVMIsAFunction(v).is_null() }
}

pub fn is_constant(v: V) -> bool {
    // SAFETY: `v` is a live value (module header).
    unsafe { LLVMIsConstant(v) != 0 }
}

/// Whether `v` is `undef`/`poison` (or a constant vector with such lanes).
pub fn is_undef_like(v: V) -> bool {
    // SAFETY: `v` is a live value (module header); operands are read only after `v` was seen to
    // be a `ConstantVector`, and `k` stays below its operand count.
    unsafe {
        if LLVMIsUndef(v) != 0 || LLVMIsPoison(v) != 0 {
            return true;
        }
        if LLVMIsAConstantVector(v).is_null() {
            return false;
        }
        (0..LLVMGetNumOperands(v) as u32).any(|k| is_undef_like(LLVMGetOperand(v, k)))
    }
}

pub fn is_phi(v: V) -> bool {
    // SAFETY: `v` is a live, non-null value (module header).
    unsafe { !LLVMIsAPHINode(v).is_null() }
}

pub fn is_eh_pad_block(b: B) -> bool {
    let first = first_non_phi(b);
    !first.is_null()
        && matches!(
            opcode(first),
            LLVMOpcode::LLVMLandingPad
                | LLVMOpcode::LLVMCatchSwitch
                | LLVMOpcode::LLVMCatchPad
                | LLVMOpcode::LLVMCleanupPad
        )
}

/// The first instruction of `b` that is not a PHI node (null for an empty block).
pub fn first_non_phi(b: B) -> V {
    // SAFETY: `b` is a live block (module header); the walk stops at the first non-PHI or the end.
    unsafe {
        let mut i = LLVMGetFirstInstruction(b);
        while !i.is_null() && !LLVMIsAPHINode(i).is_null() {
            i = LLVMGetNextInstruction(i);
        }
        i
    }
}

/// The first position in `b` where ordinary instructions may be inserted: after PHIs
/// and after a landingpad.
pub fn first_insertion_point(b: B) -> V {
    let i = first_non_phi(b);
    if !i.is_null() && opcode(i) == LLVMOpcode::LLVMLandingPad {
        return next_instruction(i);
    }
    i
}

/// The called operand of a call/invoke.
pub fn called_value(call: V) -> V {
    // SAFETY: callers pass a live call, invoke or callbr (module header); LLVM casts to `CallBase`.
    unsafe { LLVMGetCalledValue(call) }
}

/// The called function if the call is direct, else null.
pub fn called_function(call: V) -> V {
    let c = called_value(call);
    if is_function(c) {
        c
    } else {
        std::ptr::null_mut()
    }
}

pub fn num_call_args(call: V) -> u32 {
    // SAFETY: `call` is a live call, invoke or funclet pad (module header).
    unsafe { LLVMGetNumArgOperands(call) }
}

pub fn intrinsic_id(f: V) -> u32 {
    // SAFETY: `f` is a live value (module header); LLVM answers 0 for non-functions.
    unsafe { LLVMGetIntrinsicID(f) }
}

/// Constant integer value if `v` is a `ConstantInt` that fits in u64.
pub fn const_int_value(v: V) -> Option<u64> {
    // SAFETY: `v` is a live value; it is read as a `ConstantInt` only after `LLVMIsAConstantInt`.
    unsafe {
        if LLVMIsAConstantInt(v).is_null() {
            return None;
        }
        Some(LLVMConstIntGetZExtValue(v))
    }
}

/// Whether `v` is a constant whose every bit is zero (`0`, `zeroinitializer`, null).
pub fn is_zero_const(v: V) -> bool {
    // SAFETY: `v` is a live value (module header); `LLVMIsNull` answers false for non-constants.
    unsafe { LLVMIsConstant(v) != 0 && LLVMIsNull(v) != 0 }
}

/// Declarations of intrinsics by (name, overload types): (function, function type).
type IntrinsicCache = HashMap<(String, Vec<T>), (V, T)>;

/// Per-module IR builder and type cache.
pub struct Ir {
    pub ctx: LLVMContextRef,
    pub m: LLVMModuleRef,
    pub b: LLVMBuilderRef,
    td: inkwell::llvm_sys::target::LLVMTargetDataRef,
    pub void: T,
    pub i1: T,
    pub i8: T,
    pub i16: T,
    pub i32: T,
    pub i64: T,
    pub ptr: T,
    intrinsics: RefCell<IntrinsicCache>,
}

impl Drop for Ir {
    fn drop(&mut self) {
        // SAFETY: the builder was created by us and is not used after drop.
        unsafe { LLVMDisposeBuilder(self.b) }
    }
}

impl Ir {
    /// # Safety
    /// `m` must be a live module for the lifetime of the returned value.
    pub unsafe fn new(m: LLVMModuleRef) -> Ir {
        let ctx = LLVMGetModuleContext(m);
        Ir {
            ctx,
            m,
            b: LLVMCreateBuilderInContext(ctx),
            td: LLVMGetModuleDataLayout(m),
            void: LLVMVoidTypeInContext(ctx),
            i1: LLVMInt1TypeInContext(ctx),
            i8: LLVMInt8TypeInContext(ctx),
            i16: LLVMInt16TypeInContext(ctx),
            i32: LLVMInt32TypeInContext(ctx),
            i64: LLVMInt64TypeInContext(ctx),
            ptr: LLVMPointerTypeInContext(ctx, 0),
            intrinsics: RefCell::new(HashMap::new()),
        }
    }

    // ----- types and sizes -----

    pub fn vec(&self, elem: T, n: u32) -> T {
        // SAFETY: `elem` is a live type of the module's context (module header).
        unsafe { LLVMVectorType(elem, n) }
    }

    pub fn fn_ty(&self, ret: T, params: &[T], vararg: bool) -> T {
        let mut p = params.to_vec();
        // SAFETY: `ret` and the parameter types are live (module header); `p` outlives the
        // call and LLVM copies it.
        unsafe { LLVMFunctionType(ret, p.as_mut_ptr(), p.len() as u32, vararg as i32) }
    }

    /// A named struct type (reused if the module already has one with this name and
    /// the same body).
    pub fn named_struct(&self, name: &str, fields: &[T]) -> T {
        let cname = CString::new(name).unwrap();
        // SAFETY: `self.ctx` is the module's context and `cname` a NUL-terminated string; a named
        // type is a struct type, and `f` outlives the call (LLVM copies the field list).
        unsafe {
            let existing = LLVMGetTypeByName2(self.ctx, cname.as_ptr());
            if !existing.is_null() && LLVMCountStructElementTypes(existing) as usize == fields.len()
            {
                return existing;
            }
            let t = LLVMStructCreateNamed(self.ctx, cname.as_ptr());
            let mut f = fields.to_vec();
            LLVMStructSetBody(t, f.as_mut_ptr(), f.len() as u32, 0);
            t
        }
    }

    pub fn array_ty(&self, elem: T, n: u64) -> T {
        // SAFETY: `elem` is a live type of the module's context (module header).
        unsafe { LLVMArrayType2(elem, n) }
    }

    /// Bytes a store of `t` writes.
    pub fn store_size(&self, t: T) -> u64 {
        // SAFETY: `self.td` is the module's data layout and `t` a sized type of its context.
        unsafe { LLVMStoreSizeOfType(self.td, t) }
    }

    /// Bytes an object of type `t` occupies (alloca size).
    /// Byte offset of field `k` in struct type `t`.
    pub fn field_offset(&self, t: T, k: u32) -> u64 {
        // SAFETY: `self.td` is the module's data layout; callers pass a struct type `t` and
        // one of its field indices `k`.
        unsafe { inkwell::llvm_sys::target::LLVMOffsetOfElement(self.td, t, k) }
    }

    pub fn alloc_size(&self, t: T) -> u64 {
        // SAFETY: `self.td` is the module's data layout and `t` a sized type of its context.
        unsafe { LLVMABISizeOfType(self.td, t) }
    }

    /// ABI alignment of `t` in bytes.
    pub fn abi_align(&self, t: T) -> u64 {
        // SAFETY: `self.td` is the module's data layout and `t` a sized type of its context.
        unsafe { inkwell::llvm_sys::target::LLVMABIAlignmentOfType(self.td, t) as u64 }
    }

    pub fn scalar_bits(&self, t: T) -> u64 {
        // SAFETY: `self.td` is the module's data layout and `t` a sized type of its context.
        unsafe { inkwell::llvm_sys::target::LLVMSizeOfTypeInBits(self.td, t) }
    }

    // ----- constants -----

    pub fn c16(&self, v: u16) -> V {
        // SAFETY: `self.i16` is an integer type of the module's context.
        unsafe { LLVMConstInt(self.i16, v as u64, 0) }
    }
    pub fn c32(&self, v: u32) -> V {
        // SAFETY: `self.i32` is an integer type of the module's context.
        unsafe { LLVMConstInt(self.i32, v as u64, 0) }
    }
    pub fn c64(&self, v: u64) -> V {
        // SAFETY: `self.i64` is an integer type of the module's context.
        unsafe { LLVMConstInt(self.i64, v, 0) }
    }
    pub fn cint(&self, t: T, v: u64) -> V {
        // SAFETY: callers pass an integer (or integer vector) type `t` of the module's context.
        unsafe { LLVMConstInt(t, v, 0) }
    }
    pub fn null(&self, t: T) -> V {
        // SAFETY: `t` is a live type of the module's context (module header).
        unsafe { LLVMConstNull(t) }
    }
    pub fn poison(&self, t: T) -> V {
        // SAFETY: `t` is a live type of the module's context (module header).
        unsafe { LLVMGetPoison(t) }
    }
    pub fn null_ptr(&self) -> V {
        self.null(self.ptr)
    }
    /// A constant vector splat of integer `v` of type `elem`.
    pub fn csplat(&self, elem: T, n: u32, v: u64) -> V {
        let mut e: Vec<V> = (0..n).map(|_| self.cint(elem, v)).collect();
        // SAFETY: `e` holds `n` live constants of one type and outlives the call (LLVM copies it).
        unsafe { LLVMConstVector(e.as_mut_ptr(), n) }
    }
    /// A constant `<n x i32>` shuffle mask (`None` = poison lane).
    pub fn mask(&self, lanes: &[Option<u32>]) -> V {
        let mut e: Vec<V> = lanes
            .iter()
            .map(|l| match l {
                Some(x) => self.c32(*x),
                None => self.poison(self.i32),
            })
            .collect();
        // SAFETY: `e` holds `e.len()` live `i32` constants and outlives the call (LLVM copies it).
        unsafe { LLVMConstVector(e.as_mut_ptr(), e.len() as u32) }
    }
    pub fn cstring(&self, s: &str) -> V {
        // SAFETY: `self.ctx` is the module's context; LLVM copies the `s.len()` bytes of `s`.
        unsafe { LLVMConstStringInContext2(self.ctx, s.as_ptr() as *const c_char, s.len(), 0) }
    }
    pub fn cstruct(&self, t: T, vals: &[V]) -> V {
        let mut v = vals.to_vec();
        // SAFETY: `t` is a live struct type and `v` its field constants; LLVM copies the list.
        unsafe { LLVMConstNamedStruct(t, v.as_mut_ptr(), v.len() as u32) }
    }
    pub fn carray(&self, elem: T, vals: &[V]) -> V {
        let mut v = vals.to_vec();
        // SAFETY: `elem` is a live type and `v` constants of it; LLVM copies the list.
        unsafe { LLVMConstArray2(elem, v.as_mut_ptr(), v.len() as u64) }
    }
    /// `getelementptr inbounds (ty, g, idx0, idx1, ...)` as a constant (i32 indices
    /// after the first, as struct field indices require).
    pub fn const_gep(&self, ty: T, g: V, idx: &[u64]) -> V {
        let mut ix: Vec<V> = idx
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                if k < 2 {
                    self.c64(i)
                } else {
                    self.c32(i as u32)
                }
            })
            .collect();
        // SAFETY: `g` is a live constant pointer and `ix` live integer constants; LLVM copies `ix`.
        unsafe { LLVMConstInBoundsGEP2(ty, g, ix.as_mut_ptr(), ix.len() as u32) }
    }
    /// `getelementptr inbounds (ty, g, 0, idx)` as a constant.
    pub fn const_elem_ptr(&self, array_ty: T, g: V, idx: u64) -> V {
        let mut ix = [self.c64(0), self.c64(idx)];
        // SAFETY: `g` is a live constant pointer, `ix` two live `i64` constants; LLVM copies `ix`.
        unsafe { LLVMConstInBoundsGEP2(array_ty, g, ix.as_mut_ptr(), 2) }
    }

    // ----- globals and functions -----

    pub fn named_global(&self, name: &str) -> V {
        let c = CString::new(name).unwrap();
        // SAFETY: `self.m` is the live module (module header) and `c` a NUL-terminated name.
        unsafe { LLVMGetNamedGlobal(self.m, c.as_ptr()) }
    }

    /// Declare (or find) an external initial-exec thread-local global.
    pub fn tls_global(&self, name: &str, t: T) -> V {
        let g = self.extern_global(name, t);
        // SAFETY: `g` is a global variable of the module (`extern_global` finds or adds one).
        unsafe {
            LLVMSetThreadLocal(g, 1);
            LLVMSetThreadLocalMode(g, LLVMThreadLocalMode::LLVMInitialExecTLSModel);
        }
        g
    }

    /// Declare (or find) an external global (defined by the runtime).
    pub fn extern_global(&self, name: &str, t: T) -> V {
        let existing = self.named_global(name);
        if !existing.is_null() {
            return existing;
        }
        let c = CString::new(name).unwrap();
        // SAFETY: `self.m` is the live module, `t` a type of its context and `c` NUL-terminated.
        unsafe {
            let g = LLVMAddGlobal(self.m, t, c.as_ptr());
            LLVMSetLinkage(g, LLVMLinkage::LLVMExternalLinkage);
            g
        }
    }

    /// An internal (private-linkage, unnamed_addr) global with an initializer.
    pub fn private_global(&self, name: &str, init: V, constant: bool) -> V {
        let c = CString::new(name).unwrap();
        // SAFETY: `self.m` is the live module, `init` a live constant (its type is the global's)
        // and `c` NUL-terminated.
        unsafe {
            let g = LLVMAddGlobal(self.m, LLVMTypeOf(init), c.as_ptr());
            LLVMSetInitializer(g, init);
            LLVMSetLinkage(g, LLVMLinkage::LLVMPrivateLinkage);
            LLVMSetGlobalConstant(g, constant as i32);
            g
        }
    }

    /// Declare (or find) a function named `name` of type `fnty`.
    pub fn function(&self, name: &str, fnty: T) -> V {
        let c = CString::new(name).unwrap();
        // SAFETY: `self.m` is the live module, `fnty` a function type and `c` NUL-terminated.
        unsafe {
            let f = LLVMGetNamedFunction(self.m, c.as_ptr());
            if !f.is_null() {
                return f;
            }
            LLVMAddFunction(self.m, c.as_ptr(), fnty)
        }
    }

    pub fn add_fn_attr(&self, f: V, attr: &str) {
        // SAFETY: `f` is a live function (module header); `enum_attr` returns a live attribute.
        unsafe {
            LLVMAddAttributeAtIndex(
                f,
                inkwell::llvm_sys::LLVMAttributeFunctionIndex,
                self.enum_attr(attr),
            )
        }
    }

    fn string_attr(&self, key: &str, value: &str) -> LLVMAttributeRef {
        // SAFETY: LLVM copies the `key.len()` and `value.len()` bytes it reads into the
        // module's context `self.ctx`.
        unsafe {
            LLVMCreateStringAttribute(
                self.ctx,
                key.as_ptr() as *const c_char,
                key.len() as u32,
                value.as_ptr() as *const c_char,
                value.len() as u32,
            )
        }
    }

    /// Add the string attribute `key`=`value` to function `f`.
    pub fn add_fn_string_attr(&self, f: V, key: &str, value: &str) {
        let a = self.string_attr(key, value);
        // SAFETY: `f` is a live function; `a` a live attribute of its context.
        unsafe { LLVMAddAttributeAtIndex(f, inkwell::llvm_sys::LLVMAttributeFunctionIndex, a) }
    }

    /// Add the string attribute `key`=`value` to call `call`'s function attributes.
    pub fn add_call_string_attr(&self, call: V, key: &str, value: &str) {
        let a = self.string_attr(key, value);
        // SAFETY: `call` is a live call instruction; `a` a live attribute of its context.
        unsafe { LLVMAddCallSiteAttribute(call, inkwell::llvm_sys::LLVMAttributeFunctionIndex, a) }
    }

    fn enum_attr(&self, attr: &str) -> LLVMAttributeRef {
        // SAFETY: LLVM reads the `attr.len()` bytes of `attr`; `self.ctx` is the module's context.
        // Callers pass enum attribute names LLVM knows (string literals: `nounwind`, ...).
        unsafe {
            let k = LLVMGetEnumAttributeKindForName(attr.as_ptr() as *const c_char, attr.len());
            LLVMCreateEnumAttribute(self.ctx, k, 0)
        }
    }

    /// Add enum attribute `attr` to parameter `i` (0-based) of function `f`.
    pub fn add_param_attr(&self, f: V, i: u32, attr: &str) {
        // SAFETY: `f` is a live function with a parameter `i` (callers' invariant).
        unsafe { LLVMAddAttributeAtIndex(f, i + 1, self.enum_attr(attr)) }
    }

    pub fn add_ret_attr(&self, f: V, attr: &str) {
        // SAFETY: `f` is a live function (module header); `enum_attr` returns a live attribute.
        unsafe {
            LLVMAddAttributeAtIndex(
                f,
                inkwell::llvm_sys::LLVMAttributeReturnIndex,
                self.enum_attr(attr),
            )
        }
    }

    /// Remove function-level enum attribute `attr` from function `f`.
    pub fn remove_fn_attr(&self, f: V, attr: &str) {
        // SAFETY: `f` is a live function (module header); LLVM reads `attr.len()` bytes of `attr`.
        unsafe {
            let k = LLVMGetEnumAttributeKindForName(attr.as_ptr() as *const c_char, attr.len());
            LLVMRemoveEnumAttributeAtIndex(f, inkwell::llvm_sys::LLVMAttributeFunctionIndex, k);
        }
    }

    /// Remove function-level enum attribute `attr` from call `c`.
    pub fn remove_call_fn_attr(&self, c: V, attr: &str) {
        // SAFETY: `c` is a live call or invoke (module header); LLVM reads `attr.len()`
        // bytes of `attr`.
        unsafe {
            let k = LLVMGetEnumAttributeKindForName(attr.as_ptr() as *const c_char, attr.len());
            LLVMRemoveCallSiteEnumAttribute(c, inkwell::llvm_sys::LLVMAttributeFunctionIndex, k);
        }
    }

    /// Whether function `f` has enum attribute `attr`.
    pub fn has_fn_attr(&self, f: V, attr: &str) -> bool {
        // SAFETY: `f` is a live function (module header); LLVM reads `attr.len()` bytes of `attr`.
        unsafe {
            let k = LLVMGetEnumAttributeKindForName(attr.as_ptr() as *const c_char, attr.len());
            !LLVMGetEnumAttributeAtIndex(f, inkwell::llvm_sys::LLVMAttributeFunctionIndex, k)
                .is_null()
        }
    }

    /// Declaration of intrinsic `name` overloaded on `tys`, with its function type.
    pub fn intrinsic(&self, name: &str, tys: &[T]) -> (V, T) {
        let key = (name.to_string(), tys.to_vec());
        if let Some(x) = self.intrinsics.borrow().get(&key) {
            return *x;
        }
        // SAFETY: `self.m` is the live module; LLVM reads `name.len()` bytes of `name`, the id is
        // checked non-zero, `t` outlives the call and `f` is the declaration LLVM returns.
        unsafe {
            let id = LLVMLookupIntrinsicID(name.as_ptr() as *const c_char, name.len());
            assert!(id != 0, "unknown intrinsic {name}");
            let mut t = tys.to_vec();
            let f = LLVMGetIntrinsicDeclaration(self.m, id, t.as_mut_ptr(), t.len());
            let ft = LLVMGlobalGetValueType(f);
            self.intrinsics.borrow_mut().insert(key, (f, ft));
            (f, ft)
        }
    }

    // ----- positioning -----

    /// Insert before instruction `i`.
    pub fn before(&self, i: V) {
        // SAFETY: `self.b` is our builder and `i` a live instruction in a block (module header).
        unsafe { LLVMPositionBuilderBefore(self.b, i) }
    }

    /// Insert before instruction `i` *and* the debug records attached to it: PHI
    /// nodes must not end up carrying debug records.
    pub fn before_with_records(&self, i: V) {
        // SAFETY: `self.b` is our builder and `i` a live instruction in a block (module header).
        unsafe { LLVMPositionBuilderBeforeInstrAndDbgRecords(self.b, i) }
    }

    /// Insert immediately after instruction `i` (which must not be a terminator).
    pub fn after(&self, i: V) {
        let n = next_instruction(i);
        assert!(!n.is_null(), "cannot insert after a terminator");
        self.before(n)
    }

    /// Insert at the first insertion point of block `b`.
    pub fn at_start(&self, b: B) {
        let i = first_insertion_point(b);
        if i.is_null() {
            // SAFETY: `self.b` is our builder and `b` a live block (module header).
            unsafe { LLVMPositionBuilderAtEnd(self.b, b) }
        } else {
            self.before(i)
        }
    }

    /// Insert before the terminator of `b`.
    pub fn at_end(&self, b: B) {
        self.before(terminator(b))
    }

    // ----- instructions (all fold trivial cases) -----

    pub fn or(&self, a: V, b: V) -> V {
        if is_zero_const(a) || a == b {
            return b;
        }
        if is_zero_const(b) {
            return a;
        }
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildOr(self.b, a, b, NONAME) }
    }
    pub fn and(&self, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildAnd(self.b, a, b, NONAME) }
    }
    pub fn shl(&self, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildShl(self.b, a, b, NONAME) }
    }
    pub fn lshr(&self, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildLShr(self.b, a, b, NONAME) }
    }
    pub fn add(&self, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildAdd(self.b, a, b, NONAME) }
    }
    pub fn sub(&self, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildSub(self.b, a, b, NONAME) }
    }
    pub fn xor(&self, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildXor(self.b, a, b, NONAME) }
    }
    pub fn mul(&self, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildMul(self.b, a, b, NONAME) }
    }
    pub fn trunc(&self, v: V, t: T) -> V {
        // SAFETY: `self.b` is positioned in a live block; `v` and `t` are live (module header).
        unsafe { LLVMBuildTrunc(self.b, v, t, NONAME) }
    }
    pub fn zext(&self, v: V, t: T) -> V {
        if type_of(v) == t {
            return v;
        }
        // SAFETY: `self.b` is positioned in a live block; `v` and `t` are live (module header).
        unsafe { LLVMBuildZExt(self.b, v, t, NONAME) }
    }
    pub fn sext(&self, v: V, t: T) -> V {
        if type_of(v) == t {
            return v;
        }
        // SAFETY: `self.b` is positioned in a live block; `v` and `t` are live (module header).
        unsafe { LLVMBuildSExt(self.b, v, t, NONAME) }
    }
    pub fn bitcast(&self, v: V, t: T) -> V {
        if type_of(v) == t {
            return v;
        }
        // SAFETY: `self.b` is positioned in a live block; `v` and `t` are live (module header).
        unsafe { LLVMBuildBitCast(self.b, v, t, NONAME) }
    }
    pub fn ptrtoint(&self, v: V, t: T) -> V {
        // SAFETY: `self.b` is positioned in a live block; `v` and `t` are live (module header).
        unsafe { LLVMBuildPtrToInt(self.b, v, t, NONAME) }
    }
    pub fn inttoptr(&self, v: V, t: T) -> V {
        // SAFETY: `self.b` is positioned in a live block; `v` and `t` are live (module header).
        unsafe { LLVMBuildIntToPtr(self.b, v, t, NONAME) }
    }
    /// `!a` (all bits flipped).
    pub fn not(&self, a: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` is a live value (module header).
        unsafe { LLVMBuildNot(self.b, a, NONAME) }
    }
    pub fn icmp_eq(&self, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe {
            LLVMBuildICmp(
                self.b,
                inkwell::llvm_sys::LLVMIntPredicate::LLVMIntEQ,
                a,
                b,
                NONAME,
            )
        }
    }
    pub fn icmp_ne(&self, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe {
            LLVMBuildICmp(
                self.b,
                inkwell::llvm_sys::LLVMIntPredicate::LLVMIntNE,
                a,
                b,
                NONAME,
            )
        }
    }
    pub fn select(&self, c: V, a: V, b: V) -> V {
        if a == b {
            return a;
        }
        // SAFETY: `self.b` is positioned in a live block; `c`, `a` and `b` are live values.
        unsafe { LLVMBuildSelect(self.b, c, a, b, NONAME) }
    }
    pub fn extract_element(&self, v: V, idx: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `v` and `idx` are live values.
        unsafe { LLVMBuildExtractElement(self.b, v, idx, NONAME) }
    }
    pub fn insert_element(&self, v: V, e: V, idx: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `v`, `e` and `idx` are live values.
        unsafe { LLVMBuildInsertElement(self.b, v, e, idx, NONAME) }
    }
    pub fn shuffle(&self, a: V, b: V, mask: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a`, `b` and `mask` are live values.
        unsafe { LLVMBuildShuffleVector(self.b, a, b, mask, NONAME) }
    }
    pub fn phi(&self, t: T) -> V {
        // SAFETY: `self.b` is positioned at the top of a live block; `t` is a live type.
        unsafe { LLVMBuildPhi(self.b, t, NONAME) }
    }
    pub fn add_incoming(&self, phi: V, v: V, b: B) {
        let mut vs = [v];
        let mut bs = [b];
        // SAFETY: `phi` is a live PHI, `v` and `b` a live value and block; LLVM copies the
        // one-element arrays.
        unsafe { LLVMAddIncoming(phi, vs.as_mut_ptr(), bs.as_mut_ptr(), 1) }
    }
    pub fn alloca(&self, t: T) -> V {
        // SAFETY: `self.b` is positioned in a live block; `t` is a live sized type.
        unsafe { LLVMBuildAlloca(self.b, t, NONAME) }
    }
    pub fn load(&self, t: T, p: V, align: u32) -> V {
        // SAFETY: `self.b` is positioned in a live block; `p` is a live pointer value;
        // `l` is the load just built.
        unsafe {
            let l = LLVMBuildLoad2(self.b, t, p, NONAME);
            LLVMSetAlignment(l, align);
            l
        }
    }
    /// A relaxed (`monotonic`) atomic load: for records other threads update.
    pub fn load_atomic(&self, t: T, p: V, align: u32) -> V {
        let l = self.load(t, p, align);
        // SAFETY: `l` is the load `self.load` just built.
        unsafe {
            LLVMSetOrdering(
                l,
                inkwell::llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic,
            )
        };
        l
    }
    pub fn store(&self, v: V, p: V, align: u32) -> V {
        // SAFETY: `self.b` is positioned in a live block; `v` and `p` are live values;
        // `s` is the store just built.
        unsafe {
            let s = LLVMBuildStore(self.b, v, p);
            LLVMSetAlignment(s, align);
            s
        }
    }
    pub fn gep_i8(&self, p: V, off: V) -> V {
        let mut ix = [off];
        // SAFETY: `self.b` is positioned in a live block; `p` and `off` are live; LLVM copies `ix`.
        unsafe { LLVMBuildInBoundsGEP2(self.b, self.i8, p, ix.as_mut_ptr(), 1, NONAME) }
    }
    pub fn call(&self, fnty: T, f: V, args: &[V]) -> V {
        let mut a = args.to_vec();
        // SAFETY: `self.b` is positioned in a live block; `f` is a live callee of type `fnty` and
        // `a` its live arguments; LLVM copies `a`.
        unsafe { LLVMBuildCall2(self.b, fnty, f, a.as_mut_ptr(), a.len() as u32, NONAME) }
    }
    pub fn ret_void(&self) -> V {
        // SAFETY: `self.b` is positioned at the end of a live block.
        unsafe { LLVMBuildRetVoid(self.b) }
    }

    pub fn icmp(&self, p: inkwell::llvm_sys::LLVMIntPredicate, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildICmp(self.b, p, a, b, NONAME) }
    }
    pub fn fcmp(&self, p: inkwell::llvm_sys::LLVMRealPredicate, a: V, b: V) -> V {
        // SAFETY: `self.b` is positioned in a live block; `a` and `b` are live values of one type.
        unsafe { LLVMBuildFCmp(self.b, p, a, b, NONAME) }
    }
    /// `freeze v` (constants other than undef/poison are returned as they are).
    pub fn freeze(&self, v: V) -> V {
        // SAFETY: `v` is a live value and `self.b` is positioned in a live block (module header).
        unsafe {
            if LLVMIsConstant(v) != 0 && LLVMIsUndef(v) == 0 && LLVMIsPoison(v) == 0 {
                return v;
            }
            LLVMBuildFreeze(self.b, v, NONAME)
        }
    }
    /// The integer type of `bits` bits.
    pub fn int_ty(&self, bits: u32) -> T {
        // SAFETY: `self.ctx` is the module's context.
        unsafe { LLVMIntTypeInContext(self.ctx, bits) }
    }
    /// An integer constant of any width up to 128 bits.
    pub fn cwide(&self, t: T, v: u128) -> V {
        let words = [v as u64, (v >> 64) as u64];
        // SAFETY: `t` is a live integer type; `words` holds the 2 words LLVM reads.
        unsafe { LLVMConstIntOfArbitraryPrecision(t, 2, words.as_ptr()) }
    }
    /// `n` copies of constant `c` as a constant vector (`c` itself for `n == 0`).
    pub fn cvec(&self, c: V, n: u32) -> V {
        if n == 0 {
            return c;
        }
        let mut e: Vec<V> = (0..n).map(|_| c).collect();
        // SAFETY: `e` holds `n` copies of the live constant `c`; LLVM copies it.
        unsafe { LLVMConstVector(e.as_mut_ptr(), n) }
    }
    pub fn gep(&self, elem: T, p: V, idx: &[V]) -> V {
        let mut ix = idx.to_vec();
        // SAFETY: `self.b` is positioned in a live block; `elem` is a live type, `p` and `ix` live
        // values; LLVM copies `ix`.
        unsafe { LLVMBuildInBoundsGEP2(self.b, elem, p, ix.as_mut_ptr(), ix.len() as u32, NONAME) }
    }
    /// Insert a clone of instruction `i` at the builder's position.
    pub fn clone_here(&self, i: V) -> V {
        // SAFETY: `i` is a live instruction and `self.b` is positioned in a live block; `c` is new.
        unsafe {
            let c = LLVMInstructionClone(i);
            LLVMInsertIntoBuilder(self.b, c);
            c
        }
    }

    /// Splat scalar `s` to an `n`-lane vector.
    pub fn splat(&self, s: V, n: u32) -> V {
        let vt = self.vec(type_of(s), n);
        if is_zero_const(s) {
            return self.null(vt);
        }
        let ins = self.insert_element(self.poison(vt), s, self.c32(0));
        self.shuffle(ins, self.poison(vt), self.mask(&vec![Some(0); n as usize]))
    }

    /// OR-reduce a vector to a scalar (`llvm.vector.reduce.or`); scalars pass through.
    pub fn reduce_or(&self, v: V) -> V {
        let t = type_of(v);
        if !is_vector(t) {
            return v;
        }
        if is_zero_const(v) {
            return self.null(element_type(t));
        }
        let (f, ft) = self.intrinsic("llvm.vector.reduce.or", &[t]);
        self.call(ft, f, &[v])
    }
}

/// A declared runtime hook: the function and its type (what `LLVMBuildCall2` needs).
/// Declared by the taint and the denormal runtimes' tables (`taint/runtime.rs`,
/// `denormal/runtime.rs`).
#[derive(Clone, Copy)]
pub struct Hook {
    pub f: V,
    pub ty: T,
}
