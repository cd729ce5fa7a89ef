//! What each instruction is to denormal mode. One classification serves the pre-check
//! (every FP-producing construct the pass cannot describe is a compile error naming the
//! function and instruction, before anything is changed) and the instrumentation.
//!
//! *Sites* are the instructions whose FP operands and results are checked:
//!
//! | instruction                                   | operands checked | result |
//! |-----------------------------------------------|------------------|--------|
//! | `fadd fsub fmul fdiv frem fneg fpext fptrunc` | all              | yes    |
//! | FP intrinsics (`sqrt`, `fma`, `fmuladd`, `minnum`, `vector.reduce.fadd`, ...) | FP args | if FP |
//! | calls to `pure`/`zero` list functions with FP args or result (`expf`, `pow`, ...) | FP args | if FP |
//! | `fcmp`, `fptosi`, `fptoui`, FP→int intrinsics (`lround`, `is.fpclass`) | all | no (`FPSITE_NO_RESULT`) |
//! | `load` of FP / FP vectors, `masked.load`, `masked.gather` | —   | the loaded value |
//! | `store` of FP / FP vectors, `masked.store`, `masked.scatter` | the stored value | — |
//! | `atomicrmw` on FP (`fadd`, `fsub`, `fmax`, `fmin`, `xchg`) | the operand and the old value | no |
//!
//! A `double` load that only feeds stores and reads (or whose stores write) the
//! address of a float moves floats, not a double: it and its stores are not sites
//! ([`float_pair_copy`]).
//!
//! Everything else that produces an FP value only moves tags (phi, select, shuffles,
//! element insert/extract, FP→FP bitcasts of one shape, `freeze`, subvector intrinsics)
//! or creates values whose tag is 0 (`sitofp`/`uitofp`: an integer converts to a normal
//! float or zero; int→FP bitcasts; `va_arg`; inline asm; members of aggregates loaded
//! from memory).

use super::fptype::{self, FpKind};
use crate::abilist::{AbiList, Kind};
use crate::callkind::{call_kind, CallKind};
use crate::ffi;
use crate::ir::{self, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use inkwell::llvm_sys::LLVMTypeKind as K;
use taintprof_abi as abi;

/// Most FP operands a site can report (`operand_mask` bit `k * 16 + lane`, k < 4).
pub const MAX_OPERANDS: usize = 3;
/// Lanes per `FpSiteDesc`: wider vectors are described by several descriptors of 16
/// lanes each (same source position and operation, so the report merges them).
pub const CHUNK: u32 = 16;

#[derive(Debug, Clone)]
pub enum SiteKind {
    /// An operation: operands and result in `SiteSpec`.
    Op,
    /// A load of `lanes` contiguous elements at `ptr` (`gather`: one pointer per lane),
    /// of which only the lanes in `mask` are loaded (masked forms; the others come from
    /// `passthru`).
    Load {
        ptr: V,
        mask: Option<V>,
        passthru: Option<V>,
        gather: bool,
    },
    /// A store of `value` (same layout rules as loads).
    Store {
        value: V,
        ptr: V,
        mask: Option<V>,
        scatter: bool,
    },
}

#[derive(Debug, Clone)]
pub struct SiteSpec {
    pub kind: SiteKind,
    /// Operation name for the report (`fadd`, `load`, `sqrt`, `call expf`, ...).
    pub op: String,
    /// FP operands (operation sites), at most [`MAX_OPERANDS`].
    pub operands: Vec<V>,
    /// The FP result (operation and load sites): the instruction itself.
    pub result: Option<V>,
    /// Element type reported for the site: the result's, else the first operand's.
    pub fp: FpKind,
    /// Elements per execution.
    pub lanes: u32,
    /// `FPSITE_*` flags.
    pub flags: u16,
}

impl SiteSpec {
    /// Number of `FpSiteDesc`s (16-lane chunks) this site needs.
    pub fn chunks(&self) -> u32 {
        self.lanes.div_ceil(CHUNK).max(1)
    }
    /// Lanes of chunk `c`.
    pub fn chunk_lanes(&self, c: u32) -> u32 {
        (self.lanes - c * CHUNK).min(CHUNK)
    }
}

fn shape(v: V) -> Result<Option<(FpKind, u32)>, String> {
    fptype::fp_shape(ir::type_of(v))
        .map_err(|t| format!("{t} values have no denormal-mode type code (FP_* in the ABI)"))
}

/// The name an intrinsic is reported under: `llvm.` and the type suffixes dropped
/// (`llvm.fmuladd.v4f32` → `fmuladd`, `llvm.experimental.constrained.fadd.f64` →
/// `constrained.fadd`).
pub fn intrinsic_op_name(name: &str) -> String {
    let s = name.strip_prefix("llvm.").unwrap_or(name);
    let s = s.strip_prefix("experimental.").unwrap_or(s);
    let mut parts: Vec<&str> = s.split('.').collect();
    while parts.len() > 1 && is_type_suffix(parts[parts.len() - 1]) {
        parts.pop();
    }
    parts.join(".")
}

/// `f32`, `v4f32`, `nxv2f64`, `i64`, `p0`, `v8i1`, `f80`, `bf16`, `ppcf128`, ...
fn is_type_suffix(p: &str) -> bool {
    let p = p
        .strip_prefix("nxv")
        .or_else(|| p.strip_prefix('v'))
        .map(|r| r.trim_start_matches(|c: char| c.is_ascii_digit()))
        .filter(|r| !r.is_empty())
        .unwrap_or(p);
    let digits = |r: &str| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit());
    p == "ppcf128"
        || p == "isVoid"
        || p.strip_prefix("bf").is_some_and(digits)
        || p.strip_prefix('f').is_some_and(digits)
        || p.strip_prefix('i').is_some_and(digits)
        || p.strip_prefix('p').is_some_and(digits)
}

/// Intrinsics that only move lanes: tags follow them (the same intrinsic applied to
/// the tag vectors), they are not operations.
pub fn is_shape_intrinsic(name: &str) -> bool {
    [
        "llvm.vector.extract.",
        "llvm.vector.insert.",
        "llvm.vector.reverse.",
        "llvm.experimental.vector.reverse.",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// Intrinsics with no FP meaning even when an operand is FP (debug info, markers).
fn is_inert_intrinsic(name: &str) -> bool {
    [
        "llvm.dbg.",
        "llvm.lifetime.",
        "llvm.assume",
        "llvm.experimental.noalias.scope.decl",
        "llvm.invariant.",
        "llvm.pseudoprobe",
        "llvm.donothing",
        "llvm.sideeffect",
        "llvm.var.annotation",
        "llvm.codeview.annotation",
        "llvm.memcpy",
        "llvm.memmove",
        "llvm.memset",
        "llvm.prefetch",
        "llvm.stacksave",
        "llvm.stackrestore",
        "llvm.va_",
        "llvm.instrprof.",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// Check the operand/result shapes of an operation site and build its spec.
fn op_site(
    op: String,
    operands: Vec<V>,
    result: Option<V>,
    flags: u16,
) -> Result<Option<SiteSpec>, String> {
    if operands.len() > MAX_OPERANDS {
        return Err(format!(
            "{} floating-point operands (denormal mode reports at most {MAX_OPERANDS} per operation)",
            operands.len()
        ));
    }
    let mut shapes = Vec::new();
    for &o in &operands {
        shapes.push(shape(o)?.expect("FP operand"));
    }
    let rshape = match result {
        Some(r) => Some(shape(r)?.expect("FP result")),
        None => None,
    };
    let lanes = shapes
        .iter()
        .chain(rshape.iter())
        .map(|s| s.1)
        .max()
        .unwrap_or(1);
    if shapes
        .iter()
        .chain(rshape.iter())
        .any(|s| s.1 != 1 && s.1 != lanes)
    {
        return Err("operands and result have different vector lengths".into());
    }
    let fp = match (rshape, shapes.first()) {
        (Some(r), _) => r.0,
        (None, Some(o)) => o.0,
        (None, None) => return Ok(None),
    };
    let mut flags = flags;
    if result.is_none() {
        flags |= abi::FPSITE_NO_RESULT;
    }
    Ok(Some(SiteSpec {
        kind: SiteKind::Op,
        op,
        operands,
        result,
        fp,
        lanes,
        flags,
    }))
}

/// Memory sites: FP scalars and vectors whose elements are laid out as an array.
fn memory_shape(v: V) -> Result<Option<(FpKind, u32)>, String> {
    let s = shape(v)?;
    if let Some((k, n)) = s {
        if n > 1 && k.bits >= 80 {
            return Err(format!(
                "vectors of {} in memory are not laid out as arrays (denormal mode cannot attribute their lanes)",
                k.name
            ));
        }
    }
    Ok(s)
}

fn fp_args(i: V) -> Result<Vec<V>, String> {
    let mut out = Vec::new();
    for k in 0..ir::num_call_args(i) {
        let a = ir::operand(i, k);
        if fptype::is_fp(ir::type_of(a)) {
            shape(a)?;
            out.push(a);
        }
    }
    Ok(out)
}

/// A copy of floats moved as `double`s, as in FFTW's `cpy2d` ("copy R[2] as double"):
/// a plain load of `double` or `<N x double>` whose only uses are plain stores of it
/// later in the same block, with nothing in between that may write memory, where the
/// load's address or every store's address is float-typed (see [`float_typed`]).
/// Returns those stores.
///
/// The bits are pairs of floats, not doubles: checked as doubles, a pair whose upper
/// float is 0 and lower one is not reads as a denormal double, and the report would
/// list `double` loads and stores of denormals that never existed. Such a load and its
/// stores are therefore not sites; each store checks the value as floats and hands a
/// copy holding a denormal float to `__tpd_copy`, as a `memcpy` does (copies.rs).
pub fn float_pair_copy(load: V) -> Option<Vec<V>> {
    if ir::opcode(load) != Op::LLVMLoad || !plain_access(load) {
        return None;
    }
    let t = ir::type_of(load);
    let elem = if ir::is_vector(t) {
        ir::element_type(t)
    } else {
        t
    };
    if ir::kind(elem) != K::LLVMDoubleTypeKind {
        return None;
    }
    let b = ir::block_of(load);
    let mut stores = Vec::new();
    for user in ir::users(load) {
        let ok = ir::is_instruction(user)
            && ir::opcode(user) == Op::LLVMStore
            && ir::operand(user, 0) == load
            && ir::operand(user, 1) != load
            && ir::block_of(user) == b
            && plain_access(user);
        if !ok {
            return None;
        }
        stores.push(user);
    }
    // The optimizer often leaves only one side typed: strides known at compile time
    // become byte offsets (`getelementptr i8`) from a pointer argument.
    let typed = float_typed(ir::operand(load, 0))
        || stores.iter().all(|&st| float_typed(ir::operand(st, 1)));
    if stores.is_empty() || !typed {
        return None;
    }
    // Nothing between the load and its last store may change memory (the copy hook
    // reads the source when the store runs), except those stores themselves.
    let mut x = ir::next_instruction(load);
    let mut left = stores.len();
    while left > 0 {
        if x.is_null() {
            return None; // a store before the load: a use in a loop through a phi
        }
        if stores.contains(&x) {
            left -= 1;
        } else if may_write_memory(x) {
            return None;
        }
        x = ir::next_instruction(x);
    }
    Some(stores)
}

/// Not volatile, not atomic.
fn plain_access(i: V) -> bool {
    use inkwell::llvm_sys::LLVMAtomicOrdering as AO;
    // SAFETY: `i` is a load or store.
    unsafe { LLVMGetVolatile(i) == 0 && LLVMGetOrdering(i) == AO::LLVMAtomicOrderingNotAtomic }
}

/// Whether address `p` is computed as the address of a `float` (an array element or
/// member of type `float`): a `getelementptr` over `float` or an array of floats,
/// possibly followed by constant byte offsets (`getelementptr i8`, which the optimizer
/// makes of constant offsets).
pub fn float_typed(mut p: V) -> bool {
    for _ in 0..8 {
        let gep = if ir::is_instruction(p) {
            ir::opcode(p) == Op::LLVMGetElementPtr
        } else {
            // SAFETY: `p` is a live value; its opcode is read only once it is known to be a
            // constant expression.
            unsafe {
                !LLVMIsAConstantExpr(p).is_null() && LLVMGetConstOpcode(p) == Op::LLVMGetElementPtr
            }
        };
        if !gep {
            return false;
        }
        // SAFETY: `p` is a GEP (instruction or constant expression).
        let mut t = unsafe { LLVMGetGEPSourceElementType(p) };
        // SAFETY: `t` is an integer type (checked first in this condition).
        if ir::kind(t) == K::LLVMIntegerTypeKind && unsafe { LLVMGetIntTypeWidth(t) } == 8 {
            p = ir::operand(p, 0);
            continue;
        }
        while ir::kind(t) == K::LLVMArrayTypeKind {
            t = ir::element_type(t);
        }
        return ir::kind(t) == K::LLVMFloatTypeKind;
    }
    false
}

/// Whether instruction `x` may write memory (conservatively: any call but intrinsics
/// that only read or have no memory effects). Such an instruction also ends a group of
/// fast-path tests (fastpath.rs).
pub fn may_write_memory(x: V) -> bool {
    match ir::opcode(x) {
        Op::LLVMStore
        | Op::LLVMAtomicRMW
        | Op::LLVMAtomicCmpXchg
        | Op::LLVMFence
        | Op::LLVMVAArg
        | Op::LLVMInvoke
        | Op::LLVMCallBr => true,
        Op::LLVMCall => {
            let f = ir::called_function(x);
            if f.is_null() || ir::intrinsic_id(f) == 0 {
                return true;
            }
            // SAFETY: `x` is a call instruction.
            let mem = unsafe { ffi::tp_call_memory_effects(x) };
            mem & ffi::TP_MEM_WRITES != 0
        }
        _ => false,
    }
}

/// The site `i` is, if any. `Err` is a compile error (the reason; the caller names the
/// function and instruction).
pub fn site_spec(i: V, list: &AbiList) -> Result<Option<SiteSpec>, String> {
    let op = ir::opcode(i);
    let opnd = |k: u32| ir::operand(i, k);
    let fp_result = || -> Result<Option<V>, String> { Ok(shape(i)?.map(|_| i)) };
    match op {
        Op::LLVMFAdd | Op::LLVMFSub | Op::LLVMFMul | Op::LLVMFDiv | Op::LLVMFRem => {
            let name = match op {
                Op::LLVMFAdd => "fadd",
                Op::LLVMFSub => "fsub",
                Op::LLVMFMul => "fmul",
                Op::LLVMFDiv => "fdiv",
                _ => "frem",
            };
            op_site(name.into(), vec![opnd(0), opnd(1)], fp_result()?, 0)
        }
        Op::LLVMFNeg => op_site("fneg".into(), vec![opnd(0)], fp_result()?, 0),
        Op::LLVMFPExt => op_site("fpext".into(), vec![opnd(0)], fp_result()?, 0),
        Op::LLVMFPTrunc => op_site("fptrunc".into(), vec![opnd(0)], fp_result()?, 0),
        Op::LLVMFCmp => op_site("fcmp".into(), vec![opnd(0), opnd(1)], None, 0),
        Op::LLVMFPToSI => op_site("fptosi".into(), vec![opnd(0)], None, 0),
        Op::LLVMFPToUI => op_site("fptoui".into(), vec![opnd(0)], None, 0),
        Op::LLVMLoad => {
            let Some((fp, lanes)) = memory_shape(i)? else {
                return Ok(None);
            };
            Ok(Some(SiteSpec {
                kind: SiteKind::Load {
                    ptr: opnd(0),
                    mask: None,
                    passthru: None,
                    gather: false,
                },
                op: "load".into(),
                operands: Vec::new(),
                result: Some(i),
                fp,
                lanes,
                flags: abi::FPSITE_LOAD,
            }))
        }
        Op::LLVMStore => {
            let Some((fp, lanes)) = memory_shape(opnd(0))? else {
                return Ok(None);
            };
            Ok(Some(SiteSpec {
                kind: SiteKind::Store {
                    value: opnd(0),
                    ptr: opnd(1),
                    mask: None,
                    scatter: false,
                },
                op: "store".into(),
                operands: Vec::new(),
                result: None,
                fp,
                lanes,
                flags: abi::FPSITE_STORE,
            }))
        }
        Op::LLVMAtomicRMW => {
            let v = opnd(1);
            if !fptype::is_fp(ir::type_of(v)) {
                return Ok(None);
            }
            // SAFETY: `i` is a live atomicrmw (this arm).
            let name = match unsafe { LLVMGetAtomicRMWBinOp(i) } {
                inkwell::llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFAdd => "fadd",
                inkwell::llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFSub => "fsub",
                inkwell::llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFMax => "fmax",
                inkwell::llvm_sys::LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFMin => "fmin",
                _ => "xchg",
            };
            // The new value never exists as an SSA value: the operand and the old value
            // are checked, the value left in memory is not (nor does its shadow tag move).
            op_site(format!("atomicrmw {name}"), vec![v, i], None, 0)
        }
        Op::LLVMCall | Op::LLVMInvoke => call_site(i, list),
        _ => Ok(None),
    }
}

fn call_site(i: V, list: &AbiList) -> Result<Option<SiteSpec>, String> {
    match call_kind(i, list) {
        CallKind::Intrinsic(_, name) => intrinsic_site(i, &name),
        CallKind::Listed(Kind::Pure | Kind::Zero, name) => {
            let args = fp_args(i)?;
            let result = if fptype::is_fp(ir::type_of(i)) {
                shape(i)?;
                Some(i)
            } else {
                None
            };
            if args.is_empty() && result.is_none() {
                return Ok(None);
            }
            op_site(format!("call {name}"), args, result, abi::FPSITE_CALL)
        }
        _ => Ok(None),
    }
}

fn intrinsic_site(i: V, name: &str) -> Result<Option<SiteSpec>, String> {
    let opnd = |k: u32| ir::operand(i, k);
    if is_inert_intrinsic(name) || is_shape_intrinsic(name) {
        return Ok(None);
    }
    if name.starts_with("llvm.masked.load.") || name.starts_with("llvm.masked.gather.") {
        let Some((fp, lanes)) = memory_shape(i)? else {
            return Ok(None);
        };
        let gather = name.starts_with("llvm.masked.gather.");
        return Ok(Some(SiteSpec {
            kind: SiteKind::Load {
                ptr: opnd(0),
                mask: Some(opnd(2)),
                passthru: Some(opnd(3)),
                gather,
            },
            op: "load".into(),
            operands: Vec::new(),
            result: Some(i),
            fp,
            lanes,
            flags: abi::FPSITE_LOAD,
        }));
    }
    if name.starts_with("llvm.masked.store.") || name.starts_with("llvm.masked.scatter.") {
        let Some((fp, lanes)) = memory_shape(opnd(0))? else {
            return Ok(None);
        };
        return Ok(Some(SiteSpec {
            kind: SiteKind::Store {
                value: opnd(0),
                ptr: opnd(1),
                mask: Some(opnd(3)),
                scatter: name.starts_with("llvm.masked.scatter."),
            },
            op: "store".into(),
            operands: Vec::new(),
            result: None,
            fp,
            lanes,
            flags: abi::FPSITE_STORE,
        }));
    }
    let args = fp_args(i)?;
    let rty = ir::type_of(i);
    let result = if fptype::is_fp(rty) {
        shape(i)?;
        Some(i)
    } else if ir::kind(rty) == K::LLVMStructTypeKind && fptype::aggregate_has_fp(rty) {
        if name.starts_with("llvm.frexp.") {
            // The mantissa is in [0.5, 1) (or 0, inf, NaN): never denormal.
            None
        } else {
            return Err(format!(
                "intrinsic `{name}` returns floating-point values in a structure, which denormal mode does not check"
            ));
        }
    } else {
        None
    };
    if args.is_empty() && result.is_none() {
        return Ok(None);
    }
    // SAFETY: `i` is a live call to an intrinsic (the caller's invariant): a `CallBase`.
    let mem = unsafe { ffi::tp_call_memory_effects(i) };
    if mem & (ffi::TP_MEM_READS | ffi::TP_MEM_WRITES) != 0 {
        return Err(format!(
            "intrinsic `{name}` accesses memory holding floating-point values in a way denormal mode does not model"
        ));
    }
    op_site(intrinsic_op_name(name), args, result, 0)
}

/// Opcodes that may produce an FP value and are handled (as sites, tag moves, or tag 0).
pub fn handles_fp_result(op: Op) -> bool {
    matches!(
        op,
        Op::LLVMFNeg
            | Op::LLVMFAdd
            | Op::LLVMFSub
            | Op::LLVMFMul
            | Op::LLVMFDiv
            | Op::LLVMFRem
            | Op::LLVMFPTrunc
            | Op::LLVMFPExt
            | Op::LLVMUIToFP
            | Op::LLVMSIToFP
            | Op::LLVMBitCast
            | Op::LLVMLoad
            | Op::LLVMCall
            | Op::LLVMInvoke
            | Op::LLVMPHI
            | Op::LLVMSelect
            | Op::LLVMExtractElement
            | Op::LLVMInsertElement
            | Op::LLVMShuffleVector
            | Op::LLVMExtractValue
            | Op::LLVMInsertValue
            | Op::LLVMVAArg
            | Op::LLVMFreeze
            | Op::LLVMAtomicRMW
    )
}

/// Allocation functions whose result can become a marked heap array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllocFn {
    /// `malloc(n)`, `valloc(n)`, `operator new(n, ...)`: bytes = arg 0.
    Size0,
    /// `aligned_alloc(a, n)`, `memalign(a, n)`: bytes = arg 1.
    Size1,
    /// `calloc(n, size)`: bytes = arg 0 × arg 1.
    Calloc,
    /// `realloc(p, n)`: the old block is released, bytes = arg 1.
    Realloc,
    /// `reallocarray(p, n, size)`: released, bytes = arg 1 × arg 2.
    ReallocArray,
    /// `posix_memalign(&p, a, n)`: the block is `*arg 0` when it returns 0; bytes = arg 2.
    PosixMemalign,
}

/// The allocation function `name` is (C library, C++ `operator new`/`new[]` in all
/// their variants: `_Znwm`, `_Znam`, nothrow, align_val_t, 32-bit `j` forms).
pub fn alloc_fn(name: &str) -> Option<AllocFn> {
    Some(match name {
        "malloc" | "valloc" | "pvalloc" => AllocFn::Size0,
        "aligned_alloc" | "memalign" => AllocFn::Size1,
        "calloc" => AllocFn::Calloc,
        "realloc" => AllocFn::Realloc,
        "reallocarray" => AllocFn::ReallocArray,
        "posix_memalign" => AllocFn::PosixMemalign,
        n if ["_Znwm", "_Znam", "_Znwj", "_Znaj"]
            .iter()
            .any(|p| n.starts_with(p)) =>
        {
            AllocFn::Size0
        }
        _ => return None,
    })
}

/// Deallocation functions: `free`, C++ `operator delete`/`delete[]` (all variants).
pub fn is_free_fn(name: &str) -> bool {
    name == "free" || name.starts_with("_ZdlPv") || name.starts_with("_ZdaPv")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intrinsic_names() {
        assert_eq!(intrinsic_op_name("llvm.sqrt.f32"), "sqrt");
        assert_eq!(intrinsic_op_name("llvm.fmuladd.v4f32"), "fmuladd");
        assert_eq!(
            intrinsic_op_name("llvm.vector.reduce.fadd.v8f64"),
            "vector.reduce.fadd"
        );
        assert_eq!(
            intrinsic_op_name("llvm.experimental.constrained.fadd.f64"),
            "constrained.fadd"
        );
        assert_eq!(intrinsic_op_name("llvm.lround.i64.f64"), "lround");
        assert_eq!(intrinsic_op_name("llvm.is.fpclass.v2f64"), "is.fpclass");
        assert_eq!(intrinsic_op_name("llvm.powi.f32.i32"), "powi");
        assert_eq!(intrinsic_op_name("llvm.minnum.f80"), "minnum");
        assert_eq!(intrinsic_op_name("llvm.fptosi.sat.i32.f32"), "fptosi.sat");
        assert_eq!(intrinsic_op_name("llvm.exp10.f128"), "exp10");
    }

    #[test]
    fn allocation_functions() {
        assert_eq!(alloc_fn("malloc"), Some(AllocFn::Size0));
        assert_eq!(alloc_fn("calloc"), Some(AllocFn::Calloc));
        assert_eq!(alloc_fn("realloc"), Some(AllocFn::Realloc));
        assert_eq!(alloc_fn("posix_memalign"), Some(AllocFn::PosixMemalign));
        assert_eq!(alloc_fn("aligned_alloc"), Some(AllocFn::Size1));
        assert_eq!(alloc_fn("_Znam"), Some(AllocFn::Size0));
        assert_eq!(
            alloc_fn("_ZnwmSt11align_val_tRKSt9nothrow_t"),
            Some(AllocFn::Size0)
        );
        assert_eq!(alloc_fn("mallocx"), None);
        assert!(is_free_fn("free"));
        assert!(is_free_fn("_ZdaPv"));
        assert!(is_free_fn("_ZdlPvmSt11align_val_t"));
        assert!(!is_free_fn("freeze"));
    }
}
