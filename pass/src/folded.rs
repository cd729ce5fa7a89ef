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
//! Positions are compared in the function they were written in (file, definition line,
//! line, column: the last entry of an inline chain, see [`Key`]), so inlining does not
//! matter. Cost:
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

/// A position's identity in the function it was written in: file, the function's
/// definition line, line, column. Not the function's name: a name can be spelled two
/// ways (the IR's mangled name for a compiled function, the debug-info name for one that
/// was inlined away, when `-gline-tables-only` omits linkage names), and a mismatch
/// would report a surviving loop as folded. Two functions defined on one line (template
/// instances) share keys: a loop folded in one and kept in the other counts as kept.
pub type Key = (String, u32, u32, u32);

pub fn key(l: &SrcLoc) -> Key {
    (l.file.clone(), l.fn_line, l.line, l.column)
}

/// Same function as written (see [`Key`]).
fn same_function(a: &SrcLoc, b: &SrcLoc) -> bool {
    a.file == b.file && a.fn_line == b.fn_line
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
                .filter(|e| same_function(e, &pos))
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
            .filter(|l| same_function(&l.pos, pos))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn at(f: &str, line: u32, column: u32) -> SrcLoc {
        SrcLoc {
            function: f.into(),
            linkage: f.into(),
            file: "a.c".into(),
            fn_line: 1,
            line,
            column,
        }
    }

    fn recorded() -> Recorded {
        // f: for (t) at 3:5 .. 9:5 { for (i) at 4:9 .. 5:20; memset(...) at 7:9 }
        let mut r = Recorded::default();
        r.loops.push(RecLoop {
            pos: at("f", 3, 5),
            end: (9, 5),
        });
        r.loops.push(RecLoop {
            pos: at("f", 4, 9),
            end: (5, 20),
        });
        r.calls.insert(key(&at("f", 7, 9)));
        r
    }

    #[test]
    fn a_call_the_optimizer_made_is_named_after_the_innermost_loop_around_it() {
        let r = recorded();
        // The store of the inner loop's body, turned into a memset.
        assert_eq!(r.made_from(&at("f", 5, 13)), Some(&at("f", 4, 9)));
        // Between the loops: the outer one.
        assert_eq!(r.made_from(&at("f", 6, 9)), Some(&at("f", 3, 5)));
    }

    #[test]
    fn calls_the_program_wrote_and_calls_outside_loops_keep_their_position() {
        let r = recorded();
        assert_eq!(r.made_from(&at("f", 7, 9)), None, "recorded call");
        assert_eq!(r.made_from(&at("f", 12, 3)), None, "after the loops");
        let mut g = at("g", 5, 13);
        g.fn_line = 20;
        assert_eq!(r.made_from(&g), None, "another function");
        assert_eq!(Recorded::default().made_from(&at("f", 5, 13)), None);
    }

    #[test]
    fn loops_without_a_surviving_position_are_folded() {
        let r = recorded();
        let present: HashSet<Key> = [key(&at("f", 3, 5))].into_iter().collect();
        let folded: Vec<&SrcLoc> = r.folded(&present).collect();
        assert_eq!(folded, [&at("f", 4, 9)]);
    }
}
