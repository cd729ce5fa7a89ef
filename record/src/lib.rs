//! # taintprof-record: the raw run record
//!
//! What the runtime writes at exit and on fatal signals instead of the analysed report
//! (issue 23; docs/design.md, decision 7): the run as observed — module descriptors,
//! per-thread calling-context trees with their loop records, branch records,
//! parameters, loops still in flight, how the run ended — with every pointer turned
//! into an index. The driver reads records, merges several (MPI ranks, repeated runs,
//! the experiments of a performance model) and analyses them offline. The full
//! specification is `docs/internal/record.md`.
//!
//! * [`write`] (`no_std`, no allocation, no unsafe): the streaming [`Writer`] the
//!   runtime calls, section by section, through a tiny [`Out`] sink. It keeps counters
//!   only, so a record of any size costs constant memory, and it can run in a signal
//!   handler.
//! * [`read`] (feature `std`, on by default): [`read::read`] / [`read::read_prefix`]
//!   into owned structs, with errors that name the section and the byte.
//! * [`merge`] (feature `std`): [`merge::merge`] of several records into one tree.
//! * [`ranks`] (feature `std`): the MPI ranks of records: which records are one MPI run
//!   ([`ranks::group`]), the number each record of a merge is shown under.
//!
//! ## Layout
//!
//! ```text
//!  file    := header record*
//!  header  := 89 'T' 'P' 'R' 'E' 'C' 0d 0a | major u16 | minor u16 | 0d 0c 0b 0a
//!             (16 bytes; every integer of the file is little-endian: the last four
//!              bytes are 0x0a0b0c0d written little-endian)
//!  record  := tag u8 | len ULEB128 (1-5 bytes) | body[len]
//!             tag 0x01 BEGIN {kind u16, 0 u16, ordinal u32}   tag 0x02 END {records u64}
//!             tags 0x10.. are the section's own; unknown tags and unknown trailing
//!             bytes of a body are skipped, so versions can add both
//!
//!  BEGIN(RUN,0)     RUN_INFO {pid, abi_version, mode, start_time_ns}
//!                   NAME, PATH, VERSION, ARG*, ATTR*                              END
//!  BEGIN(MODULE,1)  MOD_INFO {flags, abi_version}, SOURCE, [OBJECT], [BUILD_ID]
//!                   STR*          string id = position among the module's STRs
//!                   FUNC*         Loc{fn,linkage,file str; fn_line,line,col} flags n_loops
//!                   LOOP*         flags n trip parent func routine cost | Loc * n
//!                   SITE*         flags n loop | Loc * n
//!                   BRANCH*       flags site n | site * n                         END
//!  BEGIN(MODULE,2)  ...           (one section per module, registration order)
//!  BEGIN(PARAMS)    LABEL_LAYOUT {shift, flags} gave_up_at
//!                   PARAM* {bit, registrations, flags, value} name
//!                   REJECTED* {reason, count} name                                END
//!  BEGIN(THREAD)    THREAD_INFO {tid, index, flags}
//!                   NODE {parent, site, func}  LOOP_REC {loop, label u16, flags u16,
//!                   NODE ...                             executions u64}*  ...
//!                   FOLDED {node, site, func}*  RECURSIVE {func}*                 END
//!  BEGIN(THREAD)    ...           (one section per thread)
//!  BEGIN(IN-FLIGHT) INFLIGHT {thread, depth, node, loop, label}*                  END
//!  BEGIN(BRANCHES)  BRANCH_STATE {branch, label, flags, taken u64, executions u64}* END
//!  BEGIN(TRAILER)   EXIT {kind, code}, ATTR*, WARNING {code, value} text*         END
//!
//!  indices:  string ids are per module; functions, loops, sites and branches of a
//!            module are numbered 0.. inside it (LOOP.parent, LOOP.func, SITE.loop,
//!            BRANCH sites) and globally in section order everywhere else (NODE,
//!            LOOP_REC, FOLDED, INFLIGHT, BRANCH_STATE): global = the counts of the
//!            modules before + local.  Nodes: 0 is the thread's root, a parent
//!            always precedes its children (preorder).  NONE = 0xffff_ffff.
//!  sizes:    NODE 14 bytes, LOOP_REC 18 bytes with tag and length: a 2M-node tree with
//!            one loop record per node is 64 MB.
//! ```
//!
//! A reader keeps every section whose END it read: a record cut anywhere (a crash
//! while writing, a full disk) still gives its run, its modules and every complete
//! thread, and says where it was cut.
//!
//! ## Rules
//!
//! * The core is `#![no_std]` and allocation-free; `std` is used only by the reader
//!   and the merge (feature `std`) and by tests.
//! * No unsafe code.
//! * The byte layout is written field by field; no struct is ever transmuted.

#![no_std]
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod denormal;
pub mod format;
#[cfg(feature = "std")]
pub mod hash;
#[cfg(feature = "std")]
pub mod merge;
#[cfg(feature = "std")]
pub mod ranks;
#[cfg(feature = "std")]
pub mod read;
pub mod time;
pub mod write;

pub use format::*;
pub use write::{CountOut, Finished, Out, SliceOut, Writer};

#[cfg(feature = "std")]
pub use write::IoOut;
