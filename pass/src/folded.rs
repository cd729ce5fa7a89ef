//! Loops the optimizer folded away (`taintprof_abi::LOOP_FOLDED`).
//!
//! At -O2, `for (i < k) s += i;` becomes a closed form, a loop with a small constant
//! trip count is fully unrolled, a loop whose result is unused is deleted: the loop is
//! gone, and the function it was in would look constant. So at -O1 and above a
//! pipeline-start pass ([`record`], registered in the shim) writes down, before any
//! optimization, the source positions of
//! * every loop clang named with `!llvm.loop` (every `for`/`while`/`do` when debug info
//!   is on): its start (the keyword) and end locations, into the named metadata
//!   [`SRC_LOOPS`] (`!{!DILocation start, !DILocation end}`);
//! * every call of a memory intrinsic or of a routine of the routine database, into
//!   [`SRC_CALLS`] (`!{!DILocation}`).
//!
//! At OptimizerLast ([`Recorded::take`], which also erases both nodes) the module driver
//! uses them twice:
//! * a library call whose position was not recorded was made by the optimizer, from the
//!   innermost recorded loop whose source range contains it: it is named after that
//!   loop ([`Recorded::made_from`]), so `-O0` (the loop) and `-O2` (the `memset`) report
//!   the same loop;
//! * every recorded loop whose position no surviving natural loop and no library loop
//!   of the module has ([`Recorded::folded`]) becomes a descriptor flagged
//!   `LOOP_FOLDED`, in the function it was written in.
//!
//! Positions are compared in the function they were written in (linkage name, file,
//! line, column: the last entry of an inline chain), so inlining does not matter. Cost:
//! one walk over the instructions (terminators and calls only look at metadata), no
//! analysis; the metadata holds references to existing `DILocation`s only.

use crate::abilist::AbiList;
use crate::debugloc::{Namer, SrcLoc};
use crate::ffi;

use crate::routines::Routines;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMMetadataRef, LLVMModuleRef};
use std::collections::HashSet;
use std::ffi::CStr;

pub const SRC_LOOPS: &CStr = c"taintprof.src_loops";
pub const SRC_CALLS: &CStr = c"taintprof.src_calls";

/// A position's identity in the function it was written in.
pub type Key = (String, String, u32, u32);

pub fn key(l: &SrcLoc) -> Key {
    (l.linkage.clone(), l.file.clone(), l.line, l.column)
}

/// The pipeline-start pass: record loop and routine-call positions of module `m`.
pub fn record(m: LLVMModuleRef, list: &AbiList, db: &Routines) {
    let mut seen: HashSet<LLVMMetadataRef> = HashSet::new();
    // SAFETY: m is the live module; we only read instructions and add named metadata.
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let mut b = LLVMGetFirstBasicBlock(f);
            while !b.is_null() {
                let t = LLVMGetBasicBlockTerminator(b);
                let start = if t.is_null() {
                    std::ptr::null_mut()
                } else {
                    ffi::tp_loop_start_location(t)
                };
                if !start.is_null() && seen.insert(start) {
                    let end = ffi::tp_loop_end_location(t);
                    ffi::tp_record_add(m, SRC_LOOPS.as_ptr(), start, end);
                }
                let mut i = LLVMGetFirstInstruction(b);
                while !i.is_null() {
                    let call = !LLVMIsACallInst(i).is_null() || !LLVMIsAInvokeInst(i).is_null();
                    if call && crate::library::is_routine_call(i, list, db) {
                        let loc = Namer::inst_loc(i);
                        if !loc.is_null() && seen.insert(loc) {
                            ffi::tp_record_add(m, SRC_CALLS.as_ptr(), loc, std::ptr::null_mut());
                        }
                    }
                    i = LLVMGetNextInstruction(i);
                }
                b = LLVMGetNextBasicBlock(b);
            }
            f = LLVMGetNextFunction(f);
        }
    }
}

/// A loop as written: its keyword and the end of its statement.
#[derive(Debug, Clone)]
pub struct RecLoop {
    pub pos: SrcLoc,
    /// (line, column) of the end; the start's when clang gave no end.
    pub end: (u32, u32),
}

/// What the pipeline-start pass recorded (empty at -O0 and under `opt`).
#[derive(Debug, Default)]
pub struct Recorded {
    pub loops: Vec<RecLoop>,
    calls: HashSet<Key>,
}

impl Recorded {
    /// Read and erase the records of module `m`.
    pub fn take(m: LLVMModuleRef, namer: &mut Namer) -> Recorded {
        let mut r = Recorded::default();
        let mut keys: HashSet<Key> = HashSet::new();
        let get = |name: &CStr, i: u32| {
            let (mut a, mut b) = (std::ptr::null_mut(), std::ptr::null_mut());
            // SAFETY: m is the live module; the shim checks the index.
            unsafe { ffi::tp_record_get(m, name.as_ptr(), i, &mut a, &mut b) };
            (a, b)
        };
        // SAFETY: as above.
        let n = unsafe { ffi::tp_record_count(m, SRC_LOOPS.as_ptr()) };
        for i in 0..n {
            let (start, end) = get(SRC_LOOPS, i);
            let Some(pos) = namer.position(start) else {
                continue;
            };
            if !keys.insert(key(&pos)) {
                continue;
            }
            let end = namer
                .position(end)
                .filter(|e| e.linkage == pos.linkage && e.file == pos.file)
                .map_or((pos.line, pos.column), |e| (e.line, e.column));
            r.loops.push(RecLoop { pos, end });
        }
        // SAFETY: as above.
        let n = unsafe { ffi::tp_record_count(m, SRC_CALLS.as_ptr()) };
        for i in 0..n {
            if let Some(pos) = namer.position(get(SRC_CALLS, i).0) {
                r.calls.insert(key(&pos));
            }
        }
        // SAFETY: as above; nothing refers to the named nodes.
        unsafe {
            ffi::tp_record_erase(m, SRC_LOOPS.as_ptr());
            ffi::tp_record_erase(m, SRC_CALLS.as_ptr());
        }
        r
    }

    /// The source loop a library call at `pos` (its position as written) was made
    /// from: `None` when the program wrote the call itself (its position was
    /// recorded) or no recorded loop contains it.
    pub fn made_from(&self, pos: &SrcLoc) -> Option<&SrcLoc> {
        if self.loops.is_empty() || pos.line == 0 || self.calls.contains(&key(pos)) {
            return None;
        }
        let at = (pos.line, pos.column);
        self.loops
            .iter()
            .filter(|l| l.pos.linkage == pos.linkage && l.pos.file == pos.file)
            .filter(|l| (l.pos.line, l.pos.column) <= at && at <= l.end)
            // Innermost: the one that starts last.
            .max_by_key(|l| (l.pos.line, l.pos.column))
            .map(|l| &l.pos)
    }

    /// The recorded loops none of whose positions is in `present` (the identities of
    /// the module's natural and library loops after optimization).
    pub fn folded<'a>(&'a self, present: &'a HashSet<Key>) -> impl Iterator<Item = &'a SrcLoc> {
        self.loops
            .iter()
            .map(|l| &l.pos)
            .filter(move |p| !present.contains(&key(p)))
    }
}
