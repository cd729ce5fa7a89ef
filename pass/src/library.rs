//! Library loops: calls that are loops over their size (`taintprof_abi::LOOP_LIBRARY`).
//!
//! At -O2 the optimizer turns `for (i < n) a[i] = 0;` into `llvm.memset(a, 0, n*8)` and
//! copy loops into `llvm.memcpy`/`llvm.memmove` (loop idiom recognition): the loop is
//! gone, and with it the only evidence that the function's cost depends on `n`.
//! Programs also call such routines themselves (`memset`, `qsort`, `bsearch`). Each call
//! of
//! * a memory intrinsic whose length is not a compile-time constant, or
//! * a routine of the routine database (`crate::routines`) whose size arguments are not
//!   all constants, or that has a communicator argument (`comm=`: an MPI routine, whose
//!   cost depends on the process count `p` whatever its sizes)
//!
//! is described as a loop of the calling function: at the call's inline chain, inside
//! the innermost natural loop around the call (so nesting multiplies volumes as for any
//! loop), reported by `__tp_loop_exit` right before the call (`taint::sinks`) with the
//! union of the labels of its size arguments. That is the label the source loop's exit
//! test `i < n` would have had: the sinks of natural loops report the data label of the
//! exit condition, not the block's control label, and so do library loops. A routine
//! with a communicator also ORs in the label of the process count `p`, read from the
//! runtime's `__tp_mpi_size_label` right before the call (0 until the MPI interception
//! library registered `p`, `taintprof_abi::GLOBAL_MPI_SIZE_LABEL`).
//!
//! What the optimizer made from a loop is renamed after it (`crate::folded`), so that
//! -O0 (the loop) and -O2 (the intrinsic) name the same source loop.

use crate::abilist::AbiList;
use crate::callkind::{call_kind, CallKind};
use crate::intrinsics::IntrKind;
use crate::ir::{self, V};
use crate::routines::{Routine, Routines};
use inkwell::llvm_sys::LLVMOpcode as Op;

/// A call that is a library loop.
#[derive(Debug, Clone)]
pub struct LibCall {
    pub call: V,
    /// Block index (in the function's analysis) of the call.
    pub block: usize,
    pub routine: Routine,
    /// Its identity: the call's inline chain, the last entry renamed after the source
    /// loop it was made from (`crate::folded::Recorded::made_from`).
    pub chain: Vec<crate::debugloc::SrcLoc>,
    /// Module loop index of its descriptor (set by the module driver).
    pub loop_index: usize,
}

/// The routine call `i` is a loop of, if it is one (see the module comment).
pub fn routine_of(i: V, list: &AbiList, db: &Routines) -> Option<Routine> {
    if !matches!(ir::opcode(i), Op::LLVMCall | Op::LLVMInvoke) {
        return None;
    }
    let r = match call_kind(i, list) {
        CallKind::Intrinsic(IntrKind::Copy | IntrKind::Set, name) => db.for_intrinsic(&name)?,
        CallKind::Intrinsic(..) | CallKind::InlineAsm => return None,
        CallKind::Listed(..) | CallKind::Normal => {
            let f = ir::called_function(i);
            if f.is_null() || !ir::is_declaration(f) {
                return None;
            }
            db.get(&ir::name_of(f))?
        }
    };
    let n = ir::num_call_args(i);
    if r.size_args.iter().chain(&r.comm).any(|&a| a >= n) {
        // Declared with fewer parameters than the database says: not that routine.
        return None;
    }
    // A routine with a communicator costs something in the process count whatever its
    // sizes (`MPI_Barrier` has none, `MPI_Allreduce(&x, &y, 1, ...)` a constant one).
    let constant = r
        .size_args
        .iter()
        .all(|&a| ir::const_int_value(ir::operand(i, a)).is_some());
    (!constant || r.comm.is_some()).then(|| r.clone())
}

/// Whether call `i` calls a memory intrinsic or a routine of the database at all
/// (constant sizes included): the calls the pipeline-start pass records, so that an
/// intrinsic the optimizer *made* (from a loop) can be told from one the program made.
pub fn is_routine_call(i: V, list: &AbiList, db: &Routines) -> bool {
    match call_kind(i, list) {
        CallKind::Intrinsic(IntrKind::Copy | IntrKind::Set, _) => true,
        CallKind::Intrinsic(..) | CallKind::InlineAsm => false,
        CallKind::Listed(..) | CallKind::Normal => {
            let f = ir::called_function(i);
            !f.is_null() && ir::is_declaration(f) && db.get(&ir::name_of(f)).is_some()
        }
    }
}
