//! Marked arrays: which memory objects are floating-point arrays, their names and
//! element types (DART's "marked memory", thesis 5.5 — here from IR types and debug
//! info at compile time instead of DWARF at run time).
//!
//! * Globals and statics: their IR type, flattened (arrays, nested arrays, structs of
//!   one FP type without padding, FP vectors); plain FP scalars are not arrays. Name,
//!   file and line from the `DIGlobalVariable` (the IR name without debug info).
//! * Stack arrays: `alloca`s of such types (or whose `dbg.declare` variable has an FP
//!   array type); variable-length ones go through the heap hooks.
//! * Heap blocks: allocation calls whose result can be typed ([`decide`]): from the
//!   debug type of a variable the pointer is bound to (`dbg.value`), stored into (a
//!   global, an addressable local, a struct member reached through a constant offset),
//!   else from FP loads and stores through the pointer or pointers derived from it in
//!   the same function, from the debug type of a callee's parameter it is passed to,
//!   or from the allocating function's declared return type when it returns it.

use super::desc::FpArrayInfo;
use super::fptype::{self, FpKind};
use crate::debugloc::{join_file, Namer};
use crate::ffi;
use crate::ir::{self, Ir, T, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMMetadataRef;
use inkwell::llvm_sys::LLVMLinkage as L;
use inkwell::llvm_sys::LLVMOpcode as Op;
use inkwell::llvm_sys::LLVMTypeKind as K;
use taintprof_abi as abi;

/// `(element kind, element count)` if type `t` is laid out as an array of one FP type
/// (scalars count as one element; the caller decides whether that is an array).
pub fn fp_flatten(ir: &Ir, t: T) -> Option<(FpKind, u64)> {
    if let Ok(Some(k)) = fptype::scalar_kind(t) {
        return Some((k, 1));
    }
    match ir::kind(t) {
        K::LLVMVectorTypeKind => {
            let k = fptype::scalar_kind(ir::element_type(t)).ok().flatten()?;
            // Vectors of 80/128-bit elements are packed bitwise, not laid out as arrays.
            (k.bits <= 64).then_some((k, ir::vector_len(t) as u64))
        }
        K::LLVMArrayTypeKind => {
            // SAFETY: `t` is an array type (this arm).
            let n = unsafe { LLVMGetArrayLength2(t) };
            let (k, c) = fp_flatten(ir, ir::element_type(t))?;
            Some((k, c * n))
        }
        K::LLVMStructTypeKind => {
            // SAFETY: `t` is a struct type (this arm).
            let n = unsafe { LLVMCountStructElementTypes(t) };
            let mut kind: Option<FpKind> = None;
            let mut count = 0;
            for i in 0..n {
                // SAFETY: `t` is a struct type (this arm) and `i` < its element count `n`.
                let (k, c) = fp_flatten(ir, unsafe { LLVMStructGetTypeAtIndex(t, i) })?;
                if kind.is_some_and(|x| x != k) {
                    return None;
                }
                kind = Some(k);
                count += c;
            }
            let k = kind?;
            // No padding anywhere: element i is at i * elem_size.
            (ir.alloc_size(t) == count * k.elem_size()).then_some((k, count))
        }
        _ => None,
    }
}

/// Whether `t` is a lone FP scalar (not an array).
fn is_fp_scalar(t: T) -> bool {
    matches!(fptype::scalar_kind(t), Ok(Some(_)))
}

/// A source variable's `(name, function, file, line, type)`.
pub struct VarInfo {
    pub name: String,
    pub function: String,
    pub file: String,
    pub line: u32,
    pub ty: LLVMMetadataRef,
    pub local_to_unit: bool,
    pub in_function: bool,
    /// The DISubprogram the variable belongs to (null at file scope).
    pub scope_sp: LLVMMetadataRef,
}

/// The DISubprogram of the function instruction `i` is in.
pub fn own_subprogram(i: V) -> LLVMMetadataRef {
    if !ir::is_instruction(i) {
        return std::ptr::null_mut();
    }
    // SAFETY: `i` is an instruction (checked above) of a function being planned: its
    // block and function are live (denormal module header).
    let f = unsafe { LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)) };
    // SAFETY: `f` is the live function that contains `i`.
    unsafe { inkwell::llvm_sys::debuginfo::LLVMGetSubprogram(f) }
}

pub fn var_info(namer: &mut Namer, var: LLVMMetadataRef) -> Option<VarInfo> {
    let v = ffi::variable_info(var)?;
    let (function, _) = namer.subprogram(v.scope_sp);
    Some(VarInfo {
        name: v.name.to_string_lossy(),
        function,
        file: join_file(&v.dir.to_string_lossy(), &v.file.to_string_lossy()),
        line: v.line,
        ty: v.ty,
        local_to_unit: v.local_to_unit != 0,
        in_function: !v.scope_sp.is_null(),
        scope_sp: v.scope_sp,
    })
}

fn is_internal(g: V) -> bool {
    matches!(
        ir::linkage(g),
        L::LLVMInternalLinkage | L::LLVMPrivateLinkage
    )
}

/// Every global or static FP array of the module.
pub fn global_arrays(ir: &Ir, namer: &mut Namer, has_debug: bool) -> Vec<FpArrayInfo> {
    let mut out = Vec::new();
    // SAFETY: `ir.m` is the live module (denormal module header).
    let mut g = unsafe { LLVMGetFirstGlobal(ir.m) };
    while !g.is_null() {
        // SAFETY: `g` is a live global variable of the module; null after the last one.
        let next = unsafe { LLVMGetNextGlobal(g) };
        let name = ir::name_of(g);
        // SAFETY: `g` is a live global variable of the module.
        let t = unsafe { LLVMGlobalGetValueType(g) };
        let skip = ir::is_declaration(g)
            // SAFETY: `g` is a live global variable of the module.
            || unsafe { LLVMIsThreadLocal(g) } != 0
            || name.starts_with("llvm.")
            || name.starts_with("taintprof.")
            || name.starts_with("__tp")
            // SAFETY: the type of a global is a pointer type.
            || unsafe { LLVMGetPointerAddressSpace(ir::type_of(g)) } != 0
            || ir::linkage(g) == L::LLVMAvailableExternallyLinkage
            || is_fp_scalar(t);
        if !skip {
            if let Some((elem, elements)) = fp_flatten(ir, t) {
                let var = ffi::global_debug_vars(g)
                    .into_iter()
                    .find_map(|v| var_info(namer, v));
                // Private globals without a variable are the compiler's (initializer
                // copies of local arrays, literals): not the program's arrays.
                if var.is_some() || !(has_debug && ir::linkage(g) == L::LLVMPrivateLinkage) {
                    let static_ = var
                        .as_ref()
                        .map_or(is_internal(g), |v| v.local_to_unit || v.in_function);
                    out.push(FpArrayInfo {
                        name: var.as_ref().map_or(name.clone(), |v| v.name.clone()),
                        function: var.as_ref().map_or(String::new(), |v| v.function.clone()),
                        file: var
                            .as_ref()
                            .map_or(namer.module_source().to_string(), |v| v.file.clone()),
                        line: var.as_ref().map_or(0, |v| v.line),
                        elem,
                        kind: if static_ {
                            abi::ARRAY_STATIC
                        } else {
                            abi::ARRAY_GLOBAL
                        },
                        elements,
                        addr: Some(g),
                    });
                }
            }
        }
        g = next;
    }
    out
}

/// What a stack allocation is, if it is an FP array: `(kind, elements, variable)`.
/// `elements` is `None` for a variable-length array.
pub fn stack_array(
    ir: &Ir,
    namer: &mut Namer,
    alloca: V,
    static_: bool,
) -> Option<(FpKind, Option<u64>, Option<VarInfo>)> {
    // SAFETY: `alloca` is a live alloca (the only caller, `plan_alloca`, gets allocas).
    let t = unsafe { LLVMGetAllocatedType(alloca) };
    let var = ffi::value_debug_vars(alloca, true)
        .into_iter()
        .find_map(|v| var_info(namer, v));
    // With debug info, an alloca that is no source variable is a compiler temporary
    // (argument copies, coercions, return slots): not one of the program's arrays.
    if var.is_none() && namer_has_debug(alloca) {
        return None;
    }
    let count = ir::const_int_value(ir::operand(alloca, 0));
    // Stack arrays are allocas of array type (of FP, or of structs of one FP type);
    // a lone struct (a `_Complex double`, a `vec3`) is a value, not an array.
    let by_ir = if ir::kind(t) == K::LLVMArrayTypeKind || count != Some(1) {
        fp_flatten(ir, t)
    } else {
        None
    };
    let (k, per) = match by_ir {
        Some(x) => x,
        None if fp_flatten(ir, t).is_some() && !is_fp_scalar(t) => return None,
        None => {
            // Type-erased allocas (`[16 x i8]`): the variable's debug type decides (an
            // array of FP; `ditype_fp` looks through array levels).
            let ty = var.as_ref()?.ty;
            if !ffi::ditype_is_array(ty) {
                return None;
            }
            let (bits, name) = ffi::ditype_fp(ty, 0)?;
            let k = fptype::kind_of_debug_type(bits, &name)?;
            let size = ir.alloc_size(t);
            if size < k.elem_size() || !size.is_multiple_of(k.elem_size()) {
                return None;
            }
            (k, size / k.elem_size())
        }
    };
    if static_ {
        let n = per * count?;
        // A lone scalar is not an array (and is promoted to a register anyway).
        if n <= 1 && is_fp_scalar(t) {
            return None;
        }
        Some((k, Some(n), var))
    } else {
        Some((k, None, var))
    }
}

/// Whether the function of instruction `i` has debug info (a DISubprogram).
fn namer_has_debug(i: V) -> bool {
    // SAFETY: `i` is an alloca of a function being planned: its block and function are live.
    let f = unsafe { LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)) };
    // SAFETY: `f` is the live function that contains `i`.
    !unsafe { inkwell::llvm_sys::debuginfo::LLVMGetSubprogram(f) }.is_null()
}

/// One piece of evidence about the element type of an allocated block.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// A source variable the pointer is bound to or stored in; `kind` is the FP type
    /// its debug type points to (if it is a pointer to FP). `inlined`: the variable
    /// belongs to a function inlined into the allocating one (a library helper's
    /// parameter such as `std::uninitialized_fill`'s `__first`), not to the allocating
    /// function itself or to file scope.
    Debug {
        name: String,
        kind: Option<FpKind>,
        inlined: bool,
    },
    /// An FP load or store through the pointer (or one derived from it), or the debug
    /// type of a parameter it is passed to.
    FpUse(FpKind),
}

/// The element type and name of an allocation from its evidence: the first variable
/// with an FP pointer type; else the FP type all uses agree on; else untyped
/// (conflicting uses: a byte buffer reused for several types is not one array).
///
/// The name is the first variable of the allocating function itself (or a global) the
/// pointer is bound to, one with an FP pointer type first, else whatever its type
/// says: after inlining, `std::vector<double> v`
/// gets its buffer from `operator new` in the user's function, where the pointer is
/// bound to a part of `v` (whose library type the debug info may not resolve) and to
/// the parameters of inlined library helpers (`__first`, typed `double *`); the user
/// wrote `v`. Failing that, the typing variable's name, else any variable's.
pub fn decide(evidence: &[Evidence]) -> Option<(FpKind, String, &'static str)> {
    let own = |typed: bool| {
        evidence.iter().find_map(|e| match e {
            Evidence::Debug {
                name,
                kind,
                inlined: false,
            } if (kind.is_some() || !typed) && !reserved(name) => Some(name.clone()),
            _ => None,
        })
    };
    let own_name = own(true).or_else(|| own(false));
    // A library's parameter (`__result`, `__first`) names nothing the user wrote, nor
    // does `this` of a method inlined here (`*this` of `vector::_M_realloc_insert`):
    // the array is then named after its allocation site, or by a container variable
    // later.
    let named = |name: &String, inlined: bool| {
        let this = name == "this" || name == "*this" || name.starts_with("this->");
        if reserved(name) || (inlined && this) {
            String::new()
        } else {
            name.clone()
        }
    };
    for e in evidence {
        if let Evidence::Debug {
            name,
            kind: Some(k),
            inlined,
        } = e
        {
            let name = own_name.unwrap_or_else(|| named(name, *inlined));
            return Some((*k, name, "debug-info"));
        }
    }
    let mut kind: Option<FpKind> = None;
    for e in evidence {
        if let Evidence::FpUse(k) = e {
            if kind.is_some_and(|x| x != *k) {
                return None;
            }
            kind = Some(*k);
        }
    }
    let name = own_name
        .or_else(|| {
            evidence.iter().find_map(|e| match e {
                Evidence::Debug { name, inlined, .. } => Some(named(name, *inlined)),
                _ => None,
            })
        })
        .unwrap_or_default();
    kind.map(|k| (k, name, "fp-use"))
}

/// An identifier reserved to the implementation (`__first`, `_Tp`): the C and C++
/// libraries' own names, never a user's variable.
fn reserved(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 2 && b[0] == b'_' && (b[1] == b'_' || b[1].is_ascii_uppercase())
}

fn fp_of_debug_type(ty: LLVMMetadataRef, derefs: u32) -> Option<FpKind> {
    let (bits, name) = ffi::ditype_fp(ty, derefs)?;
    fptype::kind_of_debug_type(bits, &name)
}

/// Scalar FP kind of a value type (vectors: their element).
fn use_kind(t: T) -> Option<FpKind> {
    fptype::fp_shape(t).ok().flatten().map(|(k, _)| k)
}

/// Evidence for the block whose pointer is `root` (an allocation's result, or values
/// loaded from `posix_memalign`'s `memptr`), gathered in the allocating function.
pub fn evidence(namer: &mut Namer, roots: &[V]) -> Vec<Evidence> {
    let mut out = Vec::new();
    // The pointer and pointers derived from it (same function; bounded).
    let mut derived: Vec<(V, bool)> = roots.iter().map(|&r| (r, true)).collect();
    let mut seen: std::collections::HashSet<V> = roots.iter().copied().collect();
    let mut k = 0;
    while k < derived.len() && derived.len() < 512 {
        let (d, exact) = derived[k];
        k += 1;
        if exact {
            let own = own_subprogram(d);
            let mut vars: Vec<(bool, Evidence)> = Vec::new();
            for (var, frag) in ffi::value_debug_vars_frag(d, false) {
                let Some(v) = var_info(namer, var) else {
                    continue;
                };
                let inlined = is_inlined(&v, own);
                let ev = match frag {
                    None => Evidence::Debug {
                        kind: fp_of_debug_type(v.ty, 1),
                        name: v.name,
                        inlined,
                    },
                    // A member of a structure variable split into registers (SROA):
                    // `f.data`.
                    Some(off) => match ffi::ditype_member_at(v.ty, 0, off) {
                        Some((mty, path)) => Evidence::Debug {
                            kind: fp_of_debug_type(mty, 1),
                            name: format!("{}.{path}", v.name),
                            inlined,
                        },
                        // A part of a variable whose type's members the debug info does
                        // not lay out (a library class: `std::vector<double> v`'s
                        // start pointer): the variable's name, no type.
                        None => Evidence::Debug {
                            kind: None,
                            name: v.name,
                            inlined,
                        },
                    },
                };
                vars.push((!inlined, ev));
            }
            // The allocating function's own variables first (an inlined callee's
            // parameter bound to the same pointer is a second name for it).
            vars.sort_by_key(|(mine, _)| !mine);
            out.extend(vars.into_iter().map(|(_, e)| e));
        }
        for user in ir::users(d) {
            if !ir::is_instruction(user) {
                continue;
            }
            match ir::opcode(user) {
                Op::LLVMGetElementPtr
                | Op::LLVMBitCast
                | Op::LLVMAddrSpaceCast
                | Op::LLVMPHI
                | Op::LLVMSelect
                | Op::LLVMFreeze => {
                    if ir::opcode(user) == Op::LLVMGetElementPtr && ir::operand(user, 0) != d {
                        continue;
                    }
                    if seen.insert(user) {
                        let same = ir::opcode(user) != Op::LLVMGetElementPtr
                            || ffi::gep_constant_offset(user) == Some(0);
                        derived.push((user, exact && same));
                    }
                }
                Op::LLVMLoad => {
                    if let Some(kd) = use_kind(ir::type_of(user)) {
                        out.push(Evidence::FpUse(kd));
                    }
                }
                Op::LLVMStore => {
                    let (val, ptr) = (ir::operand(user, 0), ir::operand(user, 1));
                    if ptr == d {
                        if let Some(kd) = use_kind(ir::type_of(val)) {
                            out.push(Evidence::FpUse(kd));
                        }
                    } else if val == d && exact {
                        out.extend(stored_into(namer, ptr, own_subprogram(user)));
                    }
                }
                Op::LLVMRet if exact => {
                    // Returned (an allocator wrapper such as `T *alloc(n)`, or
                    // `std::allocator<double>::allocate` when not inlined): the
                    // function's declared return type.
                    // SAFETY: `user` is a live `ret` (this arm) in a block of a function.
                    let f = unsafe { LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) };
                    // SAFETY: `f` is the live function of that `ret`; the shim checks its kind.
                    let rt = unsafe { ffi::tp_function_return_ditype(f) };
                    if let Some(kd) = fp_of_debug_type(rt, 1) {
                        out.push(Evidence::FpUse(kd));
                    }
                }
                Op::LLVMCall | Op::LLVMInvoke => {
                    let f = ir::called_function(user);
                    if f.is_null() {
                        continue;
                    }
                    let name = ir::name_of(f);
                    if name.starts_with("llvm.masked.") {
                        let t = if name.contains("store") {
                            ir::type_of(ir::operand(user, 0))
                        } else {
                            ir::type_of(user)
                        };
                        if let Some(kd) = use_kind(t) {
                            out.push(Evidence::FpUse(kd));
                        }
                        continue;
                    }
                    if ir::is_declaration(f) {
                        continue;
                    }
                    // Passed to a function of this module: its parameter's debug type.
                    let params = ir::params(f);
                    for a in 0..ir::num_call_args(user) {
                        if ir::operand(user, a) != d || a as usize >= params.len() {
                            continue;
                        }
                        for var in ffi::value_debug_vars(params[a as usize], false) {
                            if let Some(kd) =
                                var_info(namer, var).and_then(|v| fp_of_debug_type(v.ty, 1))
                            {
                                out.push(Evidence::FpUse(kd));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Whether variable `v` belongs to a function inlined into the one whose DISubprogram
/// is `own` (globals and the function's own locals do not).
fn is_inlined(v: &VarInfo, own: LLVMMetadataRef) -> bool {
    !v.scope_sp.is_null() && v.scope_sp != own
}

/// The `std::vector` of an FP type at address `ptr`, as the user names it: a local or
/// global vector (`v`, `ptr` its address), or a member of an object a variable holds
/// or points to (`g.cells`, `this->cells`, `ptr` a constant offset from it). Returns
/// the name, the element type, the variable, and whether the vector is reached through
/// a pointer or reference (a callee's view of someone else's vector).
pub fn fp_vector_at(
    namer: &mut Namer,
    ptr: V,
    own: LLVMMetadataRef,
) -> Option<(String, FpKind, VarInfo, bool)> {
    let gep = if ir::is_instruction(ptr) {
        ir::opcode(ptr) == Op::LLVMGetElementPtr
    } else {
        // SAFETY: `ptr` is a live, non-null value; its opcode is read only once it is known
        // to be a constant expression.
        unsafe {
            !LLVMIsAConstantExpr(ptr).is_null() && LLVMGetConstOpcode(ptr) == Op::LLVMGetElementPtr
        }
    };
    let (base, off) = if gep {
        match ffi::gep_constant_offset(ptr) {
            Some(o) if o >= 0 => (ir::operand(ptr, 0), o as u64),
            _ => return None,
        }
    } else {
        (ptr, 0)
    };
    // The variable at `base` and the pointer levels from `base` to its object: 0 for an
    // addressable local or a global (`base` is its address), 1 for a pointer variable.
    let mut vars: Vec<(LLVMMetadataRef, u32)> = Vec::new();
    // SAFETY: `base` is a live, non-null value (an address, or the base of a GEP).
    if unsafe { !LLVMIsAGlobalVariable(base).is_null() } {
        vars.extend(ffi::global_debug_vars(base).into_iter().map(|v| (v, 0)));
    } else {
        vars.extend(
            ffi::value_debug_vars(base, true)
                .into_iter()
                .map(|v| (v, 0)),
        );
        vars.extend(
            ffi::value_debug_vars(base, false)
                .into_iter()
                .map(|v| (v, 1)),
        );
    }
    for (v, derefs) in vars {
        // The library's own variables, the compiler's (`__range1` of a range-for), and
        // `this` of a method inlined here (an inlined `vector` constructor's) are not
        // the user's name for the vector.
        let library = |x: &VarInfo| {
            super::is_system_header(&x.file)
                || reserved(&x.name)
                || (x.name == "this" && is_inlined(x, own))
        };
        let Some(var) = var_info(namer, v).filter(|x| !library(x)) else {
            continue;
        };
        let Some((bits, ty_name, path)) = ffi::ditype_fp_vector_at(var.ty, derefs, off) else {
            continue;
        };
        let Some(k) = fptype::kind_of_debug_type(bits, &ty_name) else {
            continue;
        };
        // A reference reads like the object itself (`out`, `out.cells`); a pointer is
        // dereferenced (`*p`, `p->cells`).
        let by_ref = derefs > 0 && ffi::ditype_is_reference(var.ty);
        let name = match (path.is_empty(), derefs, by_ref) {
            (true, 0, _) | (true, _, true) => var.name.clone(),
            (true, _, false) => format!("*{}", var.name),
            (false, 0, _) | (false, _, true) => format!("{}.{path}", var.name),
            (false, _, false) => format!("{}->{path}", var.name),
        };
        return Some((name, k, var, derefs > 0));
    }
    None
}

/// Evidence from storing the block's pointer at `ptr`, in the function whose
/// DISubprogram is `own`: a global or local variable of pointer-to-FP type, or a member
/// of a structure.
pub fn stored_into(namer: &mut Namer, ptr: V, own: LLVMMetadataRef) -> Vec<Evidence> {
    let mut out = Vec::new();
    // The variable at `base` with its debug type, and how many pointer levels lead
    // from `base` to the variable's object: 0 for a global or an addressable local
    // (`base` is the variable's address), 1 for a pointer variable (`base` is its
    // value).
    let variables = |namer: &mut Namer, base: V| -> Vec<(VarInfo, u32, bool)> {
        let mut v = Vec::new();
        // SAFETY: `base` is a live, non-null value (an address, or the base of a GEP).
        if unsafe { !LLVMIsAGlobalVariable(base).is_null() } {
            for var in ffi::global_debug_vars(base) {
                if let Some(x) = var_info(namer, var) {
                    v.push((x, 0, false));
                }
            }
            if v.is_empty() {
                v.push((
                    VarInfo {
                        name: ir::name_of(base),
                        function: String::new(),
                        file: String::new(),
                        line: 0,
                        ty: std::ptr::null_mut(),
                        local_to_unit: false,
                        in_function: false,
                        scope_sp: std::ptr::null_mut(),
                    },
                    0,
                    false,
                ));
            }
        } else {
            for var in ffi::value_debug_vars(base, true) {
                if let Some(x) = var_info(namer, var) {
                    v.push((x, 0, false));
                }
            }
            for var in ffi::value_debug_vars(base, false) {
                if let Some(x) = var_info(namer, var) {
                    v.push((x, 1, true));
                }
            }
        }
        v
    };
    // The pointer variable itself (`p = malloc(..)` with `p` in memory).
    for (var, derefs, _) in variables(namer, ptr) {
        let inlined = is_inlined(&var, own);
        if derefs == 0 {
            out.push(Evidence::Debug {
                kind: fp_of_debug_type(var.ty, 1),
                name: var.name,
                inlined,
            });
        } else if let Some(k) = fp_of_debug_type(var.ty, 2) {
            // `*pp = malloc(..)` with `pp` a `float **`.
            out.push(Evidence::Debug {
                kind: Some(k),
                name: format!("*{}", var.name),
                inlined,
            });
        }
    }
    // A member: `s.data = malloc(..)`, `s->data = malloc(..)`.
    let (base, off) = if ir::is_instruction(ptr) && ir::opcode(ptr) == Op::LLVMGetElementPtr
        // SAFETY: `ptr` is a live, non-null value (the address a pointer is stored at).
        || unsafe { !LLVMIsAConstantExpr(ptr).is_null() }
            // SAFETY: `ptr` is a constant expression (the test on the line above).
            && unsafe { LLVMGetConstOpcode(ptr) } == Op::LLVMGetElementPtr
    {
        match ffi::gep_constant_offset(ptr) {
            Some(o) if o >= 0 => (ir::operand(ptr, 0), o as u64),
            _ => return out,
        }
    } else {
        (ptr, 0)
    };
    for (var, derefs, arrow) in variables(namer, base) {
        if let Some((mty, path)) = ffi::ditype_member_at(var.ty, derefs, off) {
            if let Some(k) = fp_of_debug_type(mty, 1) {
                let sep = if arrow { "->" } else { "." };
                out.push(Evidence::Debug {
                    kind: Some(k),
                    name: format!("{}{sep}{path}", var.name),
                    inlined: is_inlined(&var, own),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::fptype::{DOUBLE, FLOAT};
    use super::*;

    fn dbg(name: &str, kind: Option<FpKind>) -> Evidence {
        Evidence::Debug {
            name: name.into(),
            kind,
            inlined: false,
        }
    }

    fn inlined(name: &str, kind: Option<FpKind>) -> Evidence {
        Evidence::Debug {
            name: name.into(),
            kind,
            inlined: true,
        }
    }

    #[test]
    fn debug_info_wins() {
        let e = [
            Evidence::FpUse(DOUBLE),
            dbg("buf", None),
            dbg("a", Some(FLOAT)),
        ];
        assert_eq!(decide(&e), Some((FLOAT, "a".into(), "debug-info")));
    }

    #[test]
    fn fp_uses_type_an_untyped_pointer() {
        // `void *buf = malloc(n); ((float *)buf)[i] = ...`: named after the variable.
        let e = [
            dbg("buf", None),
            Evidence::FpUse(FLOAT),
            Evidence::FpUse(FLOAT),
        ];
        assert_eq!(decide(&e), Some((FLOAT, "buf".into(), "fp-use")));
        // Without any variable (no -g): typed, unnamed.
        assert_eq!(
            decide(&[Evidence::FpUse(DOUBLE)]),
            Some((DOUBLE, String::new(), "fp-use"))
        );
    }

    #[test]
    fn conflicting_uses_leave_the_block_untyped() {
        let e = [Evidence::FpUse(FLOAT), Evidence::FpUse(DOUBLE)];
        assert_eq!(decide(&e), None);
        // ... unless a variable's type says what it is.
        let e = [
            Evidence::FpUse(FLOAT),
            Evidence::FpUse(DOUBLE),
            dbg("d", Some(DOUBLE)),
        ];
        assert_eq!(decide(&e), Some((DOUBLE, "d".into(), "debug-info")));
    }

    #[test]
    fn nothing_known_is_untyped() {
        assert_eq!(decide(&[]), None);
        assert_eq!(decide(&[dbg("p", None)]), None);
    }

    #[test]
    fn the_allocating_functions_own_variable_names_the_block() {
        // `std::vector<double> v(n)` at -O2: the buffer is bound to a part of `v`
        // (untyped: a library class) and to an inlined helper's `__first` (typed).
        let e = [
            dbg("v", None),
            inlined("__first", Some(DOUBLE)),
            inlined("__p", Some(DOUBLE)),
        ];
        assert_eq!(decide(&e), Some((DOUBLE, "v".into(), "debug-info")));
        // An own variable with an FP type still beats an untyped own one.
        let e = [
            dbg("raw", None),
            inlined("r", Some(FLOAT)),
            dbg("x", Some(FLOAT)),
        ];
        assert_eq!(decide(&e), Some((FLOAT, "x".into(), "debug-info")));
        // Only inlined variables: the typing one, as before.
        let e = [inlined("tmp", None), inlined("r", Some(FLOAT))];
        assert_eq!(decide(&e), Some((FLOAT, "r".into(), "debug-info")));
    }
}
