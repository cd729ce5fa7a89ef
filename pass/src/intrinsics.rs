//! How each intrinsic moves labels. One classification is used both by the pre-check
//! (which turns unknown memory-touching intrinsics into compile errors before anything
//! is changed) and by the instrumentation.

use crate::ffi::{TP_MEM_READS, TP_MEM_WRITES};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntrKind {
    /// No label effect; a result (if any) has label 0.
    NoEffect,
    /// Result = union of the argument labels (per lane when shapes allow).
    Union,
    /// Result = union of all lanes of all arguments (vector reductions).
    Reduce,
    /// `memcpy`-like: shadow of `n` bytes copied from arg 1 to arg 0.
    Copy,
    /// `memset`-like: shadow of `n` bytes at arg 0 set to the label of arg 1.
    Set,
    MaskedLoad,
    MaskedStore,
    MaskedGather,
    MaskedScatter,
    VaStart,
    VaCopy,
    VaEnd,
    /// Touches memory in a way taintprof does not model: compile error.
    Unsupported,
}

const NO_EFFECT: &[&str] = &[
    "llvm.dbg.",
    "llvm.lifetime.",
    "llvm.assume",
    "llvm.experimental.noalias.scope.decl",
    "llvm.invariant.",
    "llvm.prefetch",
    "llvm.pseudoprobe",
    "llvm.donothing",
    "llvm.sideeffect",
    "llvm.stacksave",
    "llvm.stackrestore",
    "llvm.var.annotation",
    "llvm.codeview.annotation",
    "llvm.trap",
    "llvm.debugtrap",
    "llvm.ubsantrap",
    "llvm.instrprof.",
    "llvm.clear_cache",
];

/// Intrinsics that return (a function of) their argument even though they are marked
/// as touching memory.
const UNION: &[&str] = &[
    "llvm.annotation",
    "llvm.ptr.annotation",
    "llvm.launder.invariant.group",
    "llvm.strip.invariant.group",
];

/// Classify intrinsic `name` whose call has memory effects `mem` (see
/// `tp_call_memory_effects`: inaccessible memory is already ignored).
pub fn classify(name: &str, mem: u32) -> IntrKind {
    let starts = |p: &&str| name.starts_with(*p);
    if NO_EFFECT.iter().any(starts) {
        return IntrKind::NoEffect;
    }
    if UNION.iter().any(starts) {
        return IntrKind::Union;
    }
    if name.starts_with("llvm.memcpy.") || name.starts_with("llvm.memmove.") {
        return IntrKind::Copy;
    }
    if name.starts_with("llvm.memset.") {
        return IntrKind::Set;
    }
    if name.starts_with("llvm.masked.load.") {
        return IntrKind::MaskedLoad;
    }
    if name.starts_with("llvm.masked.store.") {
        return IntrKind::MaskedStore;
    }
    if name.starts_with("llvm.masked.gather.") {
        return IntrKind::MaskedGather;
    }
    if name.starts_with("llvm.masked.scatter.") {
        return IntrKind::MaskedScatter;
    }
    if name.starts_with("llvm.vector.reduce.") {
        return IntrKind::Reduce;
    }
    if name.starts_with("llvm.va_start") {
        return IntrKind::VaStart;
    }
    if name.starts_with("llvm.va_copy") {
        return IntrKind::VaCopy;
    }
    if name.starts_with("llvm.va_end") {
        return IntrKind::VaEnd;
    }
    if mem & (TP_MEM_READS | TP_MEM_WRITES) == 0 {
        return IntrKind::Union;
    }
    IntrKind::Unsupported
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification() {
        assert_eq!(classify("llvm.memcpy.p0.p0.i64", 3), IntrKind::Copy);
        assert_eq!(classify("llvm.memcpy.inline.p0.p0.i64", 3), IntrKind::Copy);
        assert_eq!(classify("llvm.memmove.p0.p0.i64", 3), IntrKind::Copy);
        assert_eq!(classify("llvm.memset.p0.i64", 2), IntrKind::Set);
        assert_eq!(classify("llvm.fmuladd.f64", 0), IntrKind::Union);
        assert_eq!(
            classify("llvm.vector.reduce.fadd.v4f64", 0),
            IntrKind::Reduce
        );
        assert_eq!(classify("llvm.lifetime.start.p0", 3), IntrKind::NoEffect);
        assert_eq!(classify("llvm.va_start.p0", 3), IntrKind::VaStart);
        assert_eq!(
            classify("llvm.masked.gather.v4f64.v4p0", 1),
            IntrKind::MaskedGather
        );
        assert_eq!(classify("llvm.load.relative.i64", 1), IntrKind::Unsupported);
        assert_eq!(
            classify("llvm.experimental.constrained.fadd.f64", 0),
            IntrKind::Union
        );
    }
}
