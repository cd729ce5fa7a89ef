//! # taintprof-abi: the contract between the pass and the runtime
//!
//! Everything the instrumented program and the runtime must agree on lives here and
//! nowhere else: the shadow-memory mapping, the label type, the names of the
//! thread-local slots and runtime hooks the pass emits calls to, and the layout of the
//! static descriptors (source locations, loops, functions, modules) that the pass emits
//! as constants and the runtime reads when it writes a report.
//!
//! The pass uses the constants to build IR; the runtime uses the `#[repr(C)]` structs
//! to read what the pass built. If you change anything here, bump [`ABI_VERSION`]:
//! the runtime refuses modules built for another version instead of misreading them.
//!
//! ## Shadow memory (taint mode)
//!
//! One 16-bit label per application byte, direct-mapped:
//!
//! ```text
//! shadow(addr) = ((addr & SHADOW_MASK) << 1) + SHADOW_BASE
//!
//!  0x7fff_ffff_ffff +----------------------+
//!                   |  stack, mmap, libs   |  app (high)     -> shadow 0x2e00.. - 0x2fff..
//!  0x5500_0000_0000 +----------------------+
//!                   |  PIE binary + brk    |  app (middle)   -> shadow 0x1a00.. - 0x1dff..
//!  0x3000_0000_0000 +----------------------+
//!                   |  SHADOW (32 TiB)     |  reserved MAP_NORESERVE before main
//!  0x1000_0000_0000 +----------------------+
//!                   |  non-PIE binary, brk |  app (low)      -> shadow 0x1000.. - 0x11ff..
//!  0x0000_0000_0000 +----------------------+
//! ```
//!
//! Masking to 44 bits folds the three application regions into disjoint shadow
//! ranges (the high region masks to 0x0e00..-0x0fff.., the PIE region to 0x0500..,
//! the low region stays below 0x0100..). Objects never straddle a 16 TiB boundary,
//! so `shadow(p + k) == shadow(p) + 2k` inside any object.

#![no_std]

use core::ffi::c_char;

/// Bumped whenever a layout, name or meaning below changes.
pub const ABI_VERSION: u32 = 13;

/// Magic number at the start of every [`ModuleDesc`] ("TPMD").
pub const MODULE_MAGIC: u32 = 0x544d_5044;

/// A label: the set of registered parameters a value depends on, bit `i` = parameter `i`.
pub type Label = u16;
/// Width of [`Label`] in bits, which is also the maximum number of parameters.
pub const LABEL_BITS: u32 = 16;
/// Most parameters that can be registered (one bit each).
pub const MAX_PARAMS: usize = LABEL_BITS as usize;

pub const SHADOW_MASK: u64 = 0x0000_0fff_ffff_ffff;
pub const SHADOW_SHIFT: u32 = 1;
pub const SHADOW_BASE: u64 = 0x1000_0000_0000;
/// Bytes reserved for the shadow region.
pub const SHADOW_SIZE: u64 = (SHADOW_MASK + 1) << SHADOW_SHIFT;

// The shadow region must lie between the low application region (non-PIE binaries and
// their heap, below 1 TiB) and the PIE region (0x55.. on x86-64 Linux).
const _: () = assert!(SHADOW_BASE >= 0x0100_0000_0000);
const _: () = assert!(SHADOW_BASE + SHADOW_SIZE <= 0x5500_0000_0000);

/// Address of the label of application byte `addr`.
#[inline(always)]
pub const fn shadow_addr(addr: u64) -> u64 {
    ((addr & SHADOW_MASK) << SHADOW_SHIFT) + SHADOW_BASE
}

// ## Shadow memory (denormal mode)
//
// One shadow byte per application byte, in the first half of the same region:
//
//   dn_shadow(addr) = (addr & SHADOW_MASK) + SHADOW_BASE
//
// The float or double at `addr` keeps its *stored tag* (`u32`) at `dn_shadow(addr)`:
//
//    31            16 15             0
//   +----------------+----------------+
//   | origin array id| creator index  |     (a double's other 4 shadow bytes: unused)
//   +----------------+----------------+
//
// The creator index is the runtime's number for a creator `FpSiteDesc` (assigned the
// first time a tag needs it: `__tpd_creator_index`, or a hook naming a creator; 0: no
// creator). Tags have this form everywhere: in shadow memory, in registers (`i32`,
// `<N x i32>`), in the hooks' tag buffers and in the call slots. So a vector of floats
// has as many tag bytes as value bytes, and loads and stores move tags unconverted.
// The runtime works on 64-bit tags (origin id, creator's address) internally and
// converts at the hooks (`rt/src/denormal/creators.rs`).
// `shadow(p + k) == shadow(p) + k` inside any object, so copies move shadow bytes 1:1.

/// Address of the stored tag of the FP element at `addr` (denormal mode).
#[inline(always)]
pub const fn dn_shadow_addr(addr: u64) -> u64 {
    (addr & SHADOW_MASK) + SHADOW_BASE
}
/// Bits of a stored tag (in denormal-mode shadow memory) holding the creator index.
pub const STAG_CREATOR_MASK: u32 = 0xffff;
/// Shift of the origin array id in a stored tag.
pub const STAG_ORIGIN_SHIFT: u32 = 16;

/// Number of argument label slots in [`TLS_ARG_LABELS`]. Arguments past the last slot
/// are folded into the last slot (conservative).
pub const MAX_ARG_SLOTS: usize = 64;

// ---------------------------------------------------------------------------------
// Thread-local slots. Defined (initial-exec TLS) by the runtime in rt/src/tls.c and
// accessed directly from instrumented IR.
// ---------------------------------------------------------------------------------

/// `[MAX_ARG_SLOTS x i16]`: labels of the arguments of the call in flight.
pub const TLS_ARG_LABELS: &str = "__tp_arg_tls";
/// `i16`: label of the return value. Callers pre-set it to the union of the argument
/// labels so that an uninstrumented callee yields a conservative answer.
pub const TLS_RET_LABEL: &str = "__tp_ret_tls";
/// `[MAX_ARG_SLOTS x i16]`: for each argument of the call in flight, the labels of
/// [`TLS_ARG_LABELS`] that a loop's back edge gave it in the caller and that an identity
/// use (a remainder, a mask, a load address) drops (`Z`; `docs/internal/control-flow.md`,
/// "Loop indices used as identities").
///
/// Invariant: every slot is 0 outside the window between a caller's stores and its
/// callee's prologue. Callers store only the slots whose `Z` may be non-zero (fixed
/// scalar or pointer parameters below the last slot); an instrumented callee reads
/// and then zeroes the slots of its parameters; after a callee that may not be
/// instrumented (indirect, a declaration, a definition another module may replace,
/// a different function type) the caller zeroes the slots it wrote, in both
/// destinations of an `invoke`. A `longjmp` out of such a callee, or a callee whose
/// definition has fewer parameters than its call passes, can leave a slot set: the
/// next callee whose caller did not write it then drops those labels from the `R` of
/// that argument, which only identity operations and load addresses use.
pub const TLS_ARG_ITER_LABELS: &str = "__tp_argz_tls";
/// `i16`: `Z` of the return value (as [`TLS_ARG_ITER_LABELS`]). An instrumented callee
/// writes it at every return; callers pre-set it to 0 (right for an uninstrumented
/// callee) unless the callee is a definition the pass instruments.
pub const TLS_RET_ITER_LABEL: &str = "__tp_retz_tls";
/// `i16` (not thread-local): where the labels that came through control flow go, as
/// a shift. 0: onto the parameters' own bits (one bit per parameter, up to
/// [`MAX_PARAMS`]). [`CTRL_SPLIT_SHIFT`]: onto a twin bit, `bit + 8`, so that a label
/// says which parameters came only through control flow (at most
/// [`MAX_PARAMS_SPLIT`] parameters). Instrumented code turns a control label `c` into
/// `((c | c >> s) & (0xffff >> s)) << s`. Set once by the runtime at start-up
/// (`TAINTPROF_CONTROL_SPLIT`), before `main`.
pub const GLOBAL_CTRL_SHIFT: &str = "__tp_ctrl_shift";
/// The shift of [`GLOBAL_CTRL_SHIFT`] when the control-flow split is on.
pub const CTRL_SPLIT_SHIFT: u32 = 8;
/// Parameters that fit with the control-flow split on.
pub const MAX_PARAMS_SPLIT: usize = 8;
/// `i16`: control label in force at the call site (control-flow tainting): what a store
/// in the callee that updates the value it overwrites ORs in (a plain overwrite takes
/// none; `docs/internal/control-flow.md`, Rule 2).
pub const TLS_CTRL_LABEL: &str = "__tp_ctrl_tls";
/// `i16`: union of the labels of the variadic arguments of the call in flight.
pub const TLS_VA_LABEL: &str = "__tp_va_label_tls";
/// `i64`: bytes of variadic arguments the caller passed on the stack (SysV x86-64).
pub const TLS_VA_STACK_BYTES: &str = "__tp_va_bytes_tls";
/// `[MAX_ARG_SLOTS x ptr]`: for a `byval` argument, the caller's source object, so
/// that the callee can copy its shadow onto its own copy. Null if unknown.
pub const TLS_BYVAL_SRC: &str = "__tp_byval_tls";
/// `ptr`: the calling-context node of the function currently running on this thread.
pub const TLS_CONTEXT: &str = "__tp_ctx_tls";
/// `ptr` to a [`SiteDesc`]: the call site of the call in flight (set by the caller).
pub const TLS_CALL_SITE: &str = "__tp_site_tls";
/// `ptr`: the function the caller is calling (the callee operand of the call). An
/// instrumented callee compares it with its own address at entry: on a mismatch it was
/// called from uninstrumented code (a qsort comparator, a thread start routine, an OpenMP
/// worker) and the argument/control slots hold stale labels of some earlier call, so it
/// treats its arguments and entry control label as unlabelled.
pub const TLS_CALLEE: &str = "__tp_callee_tls";
/// `[LOOPS_IN_FLIGHT x InFlightLoop]`: the loops this thread is executing, outermost
/// first, so that a report written before they end (a signal, `exit()` or `_exit()`
/// inside a loop, `exec`) counts them as executed with the labels seen so far. Entry
/// `i` of the stack lives at index `i & (LOOPS_IN_FLIGHT - 1)`: past that depth the
/// oldest entries are overwritten (and then not counted).
///
/// Where a loop is entered the pass writes `{node, loop, 0}` at index
/// [`TLS_LOOP_DEPTH`] and increments it; every exiting block stores the accumulator
/// into `label`; where the loop is left the depth is reset to the value it had at entry
/// (which also drops entries that an exception or `longjmp` left behind).
pub const TLS_LOOPS_IN_FLIGHT: &str = "__tp_loops_tls";
/// `i64`: the number of entries pushed on [`TLS_LOOPS_IN_FLIGHT`].
pub const TLS_LOOP_DEPTH: &str = "__tp_loop_depth_tls";
/// Capacity of [`TLS_LOOPS_IN_FLIGHT`] (a power of two).
pub const LOOPS_IN_FLIGHT: usize = 256;

/// One entry of [`TLS_LOOPS_IN_FLIGHT`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct InFlightLoop {
    /// The calling-context node of the activation running the loop.
    pub node: *const core::ffi::c_void,
    /// The loop's descriptor (the one `__tp_loop_exit` will report).
    pub desc: *const LoopDesc,
    /// The union of the exit-condition labels seen so far (low 16 bits).
    pub label: u64,
}

// ---------------------------------------------------------------------------------
// Runtime hooks called from instrumented IR (all `extern "C"`, never unwind).
// ---------------------------------------------------------------------------------

/// `void __tp_register_module(ModuleDesc *m)`: from each module's constructor.
pub const HOOK_REGISTER_MODULE: &str = "__tp_register_module";
/// `void *__tp_enter(void *parent, const SiteDesc *site, const FuncDesc *f)`:
/// returns the calling-context node for `f` called from `site` under `parent`
/// (null parent = this thread's root).
pub const HOOK_ENTER: &str = "__tp_enter";
/// `void __tp_loop_exit(void *node, const LoopDesc *loop, u16 label)`: one execution
/// of `loop` ended; `label` is the union of its exit-condition labels over that execution.
pub const HOOK_LOOP_EXIT: &str = "__tp_loop_exit";
/// `void __tp_shadow_copy(void *dst, const void *src, size_t n)` (memmove semantics).
pub const HOOK_SHADOW_COPY: &str = "__tp_shadow_copy";
/// `void __tp_shadow_set(void *dst, u16 label, size_t n)`.
pub const HOOK_SHADOW_SET: &str = "__tp_shadow_set";
/// `u16 __tp_shadow_union(const void *p, size_t n)`: OR of the labels of `n` bytes.
pub const HOOK_SHADOW_UNION: &str = "__tp_shadow_union";
/// `void __tp_shadow_or(void *dst, u16 label, size_t n)`: OR `label` into the labels of
/// `n` bytes (control-flow tainting of memory written by intrinsics and wrappers).
pub const HOOK_SHADOW_OR: &str = "__tp_shadow_or";
/// `void __tp_branch_update(BranchRec *b, u16 label, u64 taken_bit)`: the cold path of a
/// branch sink, called only when `label` adds bits to `b->label` or `taken_bit` is new in
/// `b->taken`; ORs both in atomically.
pub const HOOK_BRANCH_UPDATE: &str = "__tp_branch_update";
/// `u16 __tp_mpi_size_label`: the label of the implicit parameter `p` (the size of
/// `MPI_COMM_WORLD`) once the MPI interception library registered it, else 0. The pass
/// ORs it into the label of every call of a routine whose database entry names a
/// communicator (`comm=` in `rt/routines.txt`): its cost depends on the process count.
pub const GLOBAL_MPI_SIZE_LABEL: &str = "__tp_mpi_size_label";
/// Prefix of runtime wrappers: a call to `memcpy` becomes a call to `__tpw_memcpy`
/// with the same signature; the wrapper does the work and moves shadow.
pub const WRAPPER_PREFIX: &str = "__tpw_";

/// Environment variable naming the report directory (default: working directory).
pub const ENV_OUT_DIR: &str = "TAINTPROF_OUT";

// ---------------------------------------------------------------------------------
// Static descriptors, emitted by the pass as internal constants. Strings are
// NUL-terminated; a missing string is an empty string, never null.
// ---------------------------------------------------------------------------------

/// One position in source, in the function it was written in.
/// LLVM type: `{ ptr, ptr, ptr, i32, i32, i32, i32 }`.
#[repr(C)]
#[derive(Debug)]
pub struct SrcLoc {
    /// Source-level name, demangled for C++ (e.g. `matrix::at(unsigned int, unsigned int)`).
    pub function: *const c_char,
    /// Linkage (mangled) name, or the plain name for C.
    pub linkage: *const c_char,
    /// File as recorded in debug info (absolute, or relative to the compile directory).
    pub file: *const c_char,
    /// Line of the function's definition.
    pub fn_line: u32,
    /// Line and column of this position (0 when there was no debug info).
    pub line: u32,
    pub column: u32,
    pub _reserved: u32,
}

/// An inline chain: `chain[0]` is a position in the physical function (the one the
/// code was compiled into); each next entry is a position inside a function inlined
/// at the previous one; `chain[n-1]` is the position itself, in the function it was
/// written in. Without inlining `n == 1`.
/// LLVM type: `{ ptr, i32, i32, ptr }`.
#[repr(C)]
#[derive(Debug)]
pub struct SiteDesc {
    pub chain: *const SrcLoc,
    pub n_chain: u32,
    pub flags: u32,
    /// The innermost natural loop of the physical function that contains this position,
    /// or null. For a call site this is where the callee's loop nest hangs in the
    /// program's loop-nest tree (nesting multiplies).
    pub loop_: *const LoopDesc,
}

/// A loop. `chain[n-1]` is the loop's `for`/`while`/`do` keyword in the function it
/// was written in; earlier entries are the inline call sites that put it into the
/// physical function. LLVM type: `{ ptr, i32, i32, i64, ptr, ptr, ptr, ptr }`.
///
/// Three kinds share the layout (see the flags): a natural loop of the physical
/// function; a *library loop* ([`LOOP_LIBRARY`]): a call of a memory intrinsic with a
/// variable length or of a routine of the pass's routine database, one execution per
/// call, labelled by its size argument(s), at the call's position (or, for an
/// intrinsic the optimizer made from a loop, at that loop's keyword); a *folded loop*
/// ([`LOOP_FOLDED`]): a source loop that was there before optimization and is gone
/// (closed form, full unrolling, deletion), never reported by `__tp_loop_exit`.
#[repr(C)]
#[derive(Debug)]
pub struct LoopDesc {
    pub chain: *const SrcLoc,
    pub n_chain: u32,
    /// `LOOP_*` flags.
    pub flags: u32,
    /// Trip count proved constant at compile time, or 0 if unknown.
    pub const_trip_count: u64,
    /// The enclosing natural loop in the same physical function, or null.
    pub parent: *const LoopDesc,
    /// The physical function the loop was compiled into. For a folded loop: the
    /// function it was written in if the module still defines it, else null.
    pub func: *const FuncDesc,
    /// Library loops: the routine's name (`memset`, `qsort`, ...); empty otherwise.
    /// Added at the end so that the fields above keep their offsets.
    pub routine: *const c_char,
    /// Library loops: the routine's cost in its size `n` as written in the routine
    /// database (`n`, `n log n`, `log n`); empty otherwise. Shown, never computed with.
    pub cost: *const c_char,
}

/// The loop has no debug location; `line` is 0 and it is named by its index.
pub const LOOP_NO_DEBUG_LOC: u32 = 1 << 0;
/// The trip count is a compile-time constant: it depends on no parameter.
pub const LOOP_CONST_TRIP: u32 = 1 << 1;
/// The pass found no exit condition it could instrument (for example, the loop is
/// left only by `exit()` or an exception).
pub const LOOP_NO_SINK: u32 = 1 << 2;
/// Not a natural loop but the *recursion loop* of a recursive function: it encloses the
/// whole body (every top-level loop and every call outside loops nests in it) and
/// reports, once per activation, the labels of the decisions that choose to recurse
/// (`docs/internal/control-flow.md`, "Recursion"). Located at that decision.
pub const LOOP_RECURSION: u32 = 1 << 5;
/// A library loop: a memory intrinsic with a variable length, or a call of a routine
/// of the routine database (`qsort`, `memcmp`, ...), reported once per call with the
/// label of its size; `routine` and `cost` name it.
pub const LOOP_LIBRARY: u32 = 1 << 3;
/// A source loop the optimizer folded (closed form, full unrolling with a constant
/// trip count, or deletion): recorded before optimization, gone after it. No code
/// reports it; its parameters are unknown.
pub const LOOP_FOLDED: u32 = 1 << 4;

/// A function defined in the module. LLVM type: `{ SrcLoc, i32, i32 }`.
#[repr(C)]
#[derive(Debug)]
pub struct FuncDesc {
    pub loc: SrcLoc,
    /// `FUNC_*` flags.
    pub flags: u32,
    /// Number of natural loops the pass found in the physical function (after
    /// inlining; library and folded loops are not counted).
    pub n_loops: u32,
}

/// The function is instrumented for calling contexts (calls `__tp_enter`).
pub const FUNC_CONTEXT_TRACKED: u32 = 1 << 0;
/// Proved constant at compile time: no loops, or only constant-trip loops, and no
/// calls to anything non-trivial (Perf-Taint's static pruning).
pub const FUNC_STATICALLY_PRUNED: u32 = 1 << 1;
/// The function calls itself directly or through functions of the same module
/// (a cycle in the module's call graph); the runtime also detects recursion dynamically.
pub const FUNC_RECURSIVE_STATIC: u32 = 1 << 2;

/// `BranchRec::flags`: the branch is a `switch`.
pub const BRANCH_SWITCH: u16 = 1 << 0;
/// `BranchRec::flags`: more successors than could be tracked (only the first 64 are).
pub const BRANCH_TRUNCATED: u16 = 1 << 1;

/// Per-branch record for branch sinks: every conditional `br` and `switch` that is not
/// an exit of a loop containing it (updated in place by instrumented code).
/// LLVM type: `{ ptr, ptr, i32, i16, i16, i64, i64 }`.
#[repr(C)]
#[derive(Debug)]
pub struct BranchRec {
    /// Source position of the branch (inline chain); its `loop_` is the innermost loop
    /// containing the branch.
    pub site: *const SiteDesc,
    /// `n_succ` source positions, one per distinct successor block (its first
    /// instruction with a debug location), in successor order: for `br`, [true, false];
    /// for `switch`, [default, case 1, case 2, ...] with duplicate targets merged.
    pub succ: *const SiteDesc,
    /// Number of distinct successors tracked (at most 64).
    pub n_succ: u32,
    /// Union of condition labels seen (atomic OR).
    pub label: u16,
    pub flags: u16,
    /// Bit `i` set once successor `i` was taken (atomic OR).
    pub taken: u64,
    /// Executions (relaxed, approximate under contention).
    pub executions: u64,
}

/// One instrumented module (translation unit). The runtime links registered modules
/// through `next`. LLVM type:
/// `{ i32, i32, ptr, ptr, i32, i32, ptr, ptr, i32, i32, ptr }`.
#[repr(C)]
#[derive(Debug)]
pub struct ModuleDesc {
    pub magic: u32,
    pub abi_version: u32,
    /// Source file name of the module.
    pub source_file: *const c_char,
    pub funcs: *const FuncDesc,
    pub n_funcs: u32,
    pub n_loops: u32,
    pub loops: *const LoopDesc,
    pub branches: *mut BranchRec,
    pub n_branches: u32,
    /// `MODULE_*` flags.
    pub flags: u32,
    /// Written by the runtime only.
    pub next: *mut ModuleDesc,
}

/// The module was instrumented with control-flow tainting.
pub const MODULE_CONTROL_FLOW: u32 = 1 << 0;
/// The module was compiled without debug info: loops carry no source lines.
pub const MODULE_NO_DEBUG_INFO: u32 = 1 << 1;

// =================================================================================
// Denormal mode (docs/internal/denormal-mode.md). A module is built in exactly one
// mode; a denormal-mode module registers a `DnModuleDesc` instead of a `ModuleDesc`,
// and the runtime refuses to mix modes in one program.
//
// Tags: every FP value has a 32-bit tag, non-zero only while the value is denormal:
// bits 31..16 = origin array id (0 = none), bits 15..0 = creator index (0 = none; see
// "Shadow memory (denormal mode)" above). In memory the tag of the FP element at `a`
// is the `u32` at `dn_shadow_addr(a)`. The runtime's internal 64-bit form is below
// (`TAG_*`): origin id, creator's `FpSiteDesc` address.
// =================================================================================

/// Magic number at the start of every [`DnModuleDesc`] ("TPDN").
pub const DN_MODULE_MAGIC: u32 = 0x4e44_5054;
/// `DnModuleDesc::flags` (beside [`MODULE_NO_DEBUG_INFO`]): the module was built in the
/// profile tier (`taintprof-cc --tp-denormal=profile`, `TAINTPROF_DENORMAL=profile`). It
/// counts its sites only: every load and store site counts inline (word 0 of its
/// words, no hook, no cache), operations count inline (or through `__tpd_op`); nothing
/// carries tags, no array is registered, no shadow memory is read or written, copies
/// and calls pass no tags. The report has the instruction profile and the creator
/// sites (the operations' fourth counter), no arrays, origins or heatmaps.
pub const DN_MODULE_PROFILE: u32 = 1 << 2;
/// Bits of the runtime's internal 64-bit tag holding the creator's `FpSiteDesc` address.
pub const TAG_CREATOR_MASK: u64 = (1 << 48) - 1;
/// Shift of the origin array id in a tag.
pub const TAG_ORIGIN_SHIFT: u32 = 48;
/// Most FP argument tag slots passed across calls.
pub const DN_MAX_ARG_SLOTS: usize = 64;
/// Counters in each thread's block-counter block (`u64` each; reserved with
/// MAP_NORESERVE, touched only where blocks execute). Block indices past it are clamped
/// into the last counter by the runtime's registration (it warns).
pub const DN_THREAD_COUNTERS: usize = 1 << 23;
/// Value of `DnModuleDesc::base` before the runtime registered the module.
pub const DN_BASE_UNREGISTERED: u64 = u64::MAX;

/// `ptr`: this thread's block-counter block (`u64[DN_THREAD_COUNTERS]`), null until the
/// thread first runs instrumented code.
pub const TLS_DN_COUNTERS: &str = "__tpd_counters_tls";
/// `[DN_MAX_ARG_SLOTS x i64]`: tags of the FP arguments of the call in flight (argument
/// `i` in slot `i`, its `u32` tag in the slot's low half; vector arguments carry their
/// first non-zero lane tag).
pub const TLS_DN_ARG_TAGS: &str = "__tpd_arg_tags_tls";
/// `i64`: tag of the FP return value (the `u32` tag in its low half).
pub const TLS_DN_RET_TAG: &str = "__tpd_ret_tag_tls";

/// `void __tpd_register_module(DnModuleDesc *m)`: from the module constructor (and
/// from instrumented code that finds `base == DN_BASE_UNREGISTERED`); sets `m->base`.
pub const HOOK_DN_REGISTER_MODULE: &str = "__tpd_register_module";
/// `u64 *__tpd_thread_counters(void)`: cold; creates this thread's counter block,
/// stores it in `__tpd_counters_tls` and returns it.
pub const HOOK_DN_THREAD_COUNTERS: &str = "__tpd_thread_counters";
/// `void __tpd_op(const FpSiteDesc *s, u64 operand_mask, u64 result_mask,
///                const u32 *operand_tags, u32 *result_tags)`: cold path of an FP
/// operation with a denormal operand or result. Lanes are numbered `0..s->lanes`;
/// `operand_mask` bit `k * 16 + lane` = operand `k` (at most 3) is denormal in `lane`;
/// `result_mask` bit `lane` = the result is denormal in `lane`; `operand_tags[k *
/// s->lanes + lane]` are the operand tags; the hook writes `s->lanes` result tags
/// (0 where the result is normal).
///
/// Sites whose `FpSiteDesc::counters` is set never call it: the pass emits the same
/// semantics inline (the counts into the site's block counters, the result tags with
/// vector selects). The pass does that for every operation site unless
/// `TAINTPROF_DN_INLINE_OPS=0`, which keeps the call (the reference the end-to-end tests
/// compare the inline code with).
pub const HOOK_DN_OP: &str = "__tpd_op";
/// `u32 __tpd_creator_index(const FpSiteDesc *creator)`: the creator index of a site
/// that stands as creator (`FpSiteDesc::creator` resolved), assigning one the first
/// time; 0 once all 65,535 are taken (the runtime says so once). The inline operation
/// code calls it when its module's slot for the creator still holds 0, and keeps the
/// answer there.
pub const HOOK_DN_CREATOR_INDEX: &str = "__tpd_creator_index";
/// `void __tpd_load(const FpSiteDesc *s, const void *addr, u64 lane_mask, u32 *tags)`:
/// cold path of an FP load of `s->lanes` contiguous elements at `addr` of which the
/// lanes in `lane_mask` are denormal; writes their tags (from shadow memory and the
/// marked-array registry).
pub const HOOK_DN_LOAD: &str = "__tpd_load";
/// `void __tpd_store(const FpSiteDesc *s, void *addr, u64 lane_mask, const u32 *tags)`:
/// cold path of an FP store whose lanes in `lane_mask` are denormal.
pub const HOOK_DN_STORE: &str = "__tpd_store";
/// `__tpd_load` and `__tpd_store` behind entries that preserve every register the
/// caller can hold values in: all general-purpose registers and `xmm0`–`xmm15` (the
/// runtime's `denormal::keepregs`). The pass calls them with LLVM's `preserve_allcc`
/// ([`CC_PRESERVE_ALL`]) when an inline memory cache misses, so that the values of the
/// cold region stay in registers across the rare call instead of being spilled and
/// reloaded around it on every cache hit. Only from functions compiled without AVX:
/// the entries save the 128-bit registers, and the hooks may run libc code that
/// clobbers the upper halves of `ymm` registers.
pub const HOOK_DN_LOAD_KEEPREGS: &str = "__tpd_load_keepregs";
pub const HOOK_DN_STORE_KEEPREGS: &str = "__tpd_store_keepregs";
/// `__tpd_creator_index` behind the same kind of entry, keeping every register but
/// `rax` (its result), so that the inline operation code's rare call for a creator's
/// index spills nothing on the path that does not call.
pub const HOOK_DN_CREATOR_INDEX_KEEPREGS: &str = "__tpd_creator_index_keepregs";
/// LLVM's number for the `preserve_allcc` calling convention (`CallingConv::PreserveAll`).
pub const CC_PRESERVE_ALL: u32 = 15;
/// `u64`: generation of the runtime's table of marked global/static/heap arrays, bumped
/// whenever it changes (a registration, a release). The inline memory caches below are
/// valid only while it is what it was when they were filled.
pub const DN_RANGES_GEN: &str = "__tpd_ranges_gen";

// ---- Inline memory caches -------------------------------------------------------
//
// A contiguous float or double load or store site with `FpSiteDesc::counters` set owns
// `DN_LOAD_WORDS` / `DN_STORE_WORDS` words of each thread's block counters from that
// index on. Word 0 counts the site's denormal loads (stores) made inline; the others
// are a one-entry cache that the runtime fills when the hook (`__tpd_load` /
// `__tpd_store`) handled a chunk whose denormal lanes all lie in one marked non-stack
// array and all had the same tag (loads: the same creator bits in shadow memory).
// While the cache holds, the instrumented code does what the hook would, with no call:
//
//   valid:   cache[KEY] == __tpd_ranges_gen ^ (u64)site
//            && (addr - cache[LO]) <=u cache[LIMIT]          (all lanes inside)
//            && every denormal lane's tag matches (u32)cache[MATCH]: loads, the
//               creator index of the stored tag (stag & STAG_CREATOR_MASK); stores,
//               the whole value tag, or its creator bits alone
//               (a lane created where it is stored, next to lanes that came from the
//               origin: a stencil's wavefront)
//   element  e = (addr - cache[ARR_LO]) >> log2(element size)
//   counters ((u32 *)cache[SHARD])[e + lane] += 1 per denormal lane   (reads; stores:
//            the write half, already offset by the array's length)
//            *(u64 *)cache[CREATOR_COUNT] += denormal lanes; cache[0] += the same
//   loads    tag = (u32)cache[TAG] per denormal lane (the array's id and the creator)
//   stores   if cache[PAIR_COUNT]: for the lanes whose tag is cache[MATCH] itself
//            (they have its origin), *(u64 *)cache[PAIR_COUNT] += lanes and
//            ((u32 *)cache[PAIR_MAP])[e + lane] += 1; the stored tag of each denormal
//            lane becomes (u32)cache[TAG], of every other lane of the chunk 0 (a
//            masked store: the lanes outside its mask keep theirs)
//
// Anything else (a different array, creator or origin, a chunk crossing the array's
// end, a changed table) calls the hook, which counts and refills the cache.
/// Words of a load site's inline counter and cache.
pub const DN_LOAD_WORDS: u32 = 9;
/// Words of a store site's inline counter and cache.
pub const DN_STORE_WORDS: u32 = 11;
/// Cache word: `__tpd_ranges_gen ^ site address` when filled.
pub const DN_C_KEY: u32 = 1;
/// Cache word: lowest chunk address of the cached window.
pub const DN_C_LO: u32 = 2;
/// Cache word: a chunk at `addr` lies inside iff `addr - LO <= LIMIT` (unsigned).
pub const DN_C_LIMIT: u32 = 3;
/// Cache word: address of the array's element 0.
pub const DN_C_ARR_LO: u32 = 4;
/// Cache word: this thread's `u32` element counters of the array (reads, or writes).
pub const DN_C_SHARD: u32 = 5;
/// Cache word: the tag (`u32`) the hook gives the lanes (loads), or the one it writes
/// to shadow memory (stores).
pub const DN_C_TAG: u32 = 6;
/// Cache word: what every denormal lane's tag must be (see above).
pub const DN_C_MATCH: u32 = 7;
/// Cache word: `u64 *` count of (array, creator) in this thread's creator table.
pub const DN_C_CREATOR_COUNT: u32 = 8;
/// Cache word (stores): `u64 *` count of the pair (array, origin), null without origin.
pub const DN_C_PAIR_COUNT: u32 = 9;
/// Cache word (stores): this thread's `u32` origin map of the pair (one per element).
pub const DN_C_PAIR_MAP: u32 = 10;
/// `void __tpd_array_enter(void *addr, const FpArrayDesc *a)` /
/// `void __tpd_array_leave(void *addr)`: a stack array comes into / goes out of scope.
pub const HOOK_DN_ARRAY_ENTER: &str = "__tpd_array_enter";
pub const HOOK_DN_ARRAY_LEAVE: &str = "__tpd_array_leave";
/// `void *__tpd_alloc(void *block, size_t bytes, const AllocSiteDesc *site)`: called
/// right after a successful allocation at an FP-typed site (any allocator); registers the
/// block as a marked heap array and returns `block`. `void __tpd_release(void *block)`:
/// right before `free`/`delete[]`/`realloc` of any block (unknown blocks are ignored).
pub const HOOK_DN_ALLOC: &str = "__tpd_alloc";
/// `void __tpd_copy(void *dst, const void *src, size_t n)`: denormal mode's memcpy and
/// memmove, called right before the copy. Moves the tags like `__tp_shadow_copy`, and
/// counts the copy's denormal elements as an element-wise copy loop's loads and stores
/// would be counted: reads of the source's marked array, writes of the destination's,
/// the origin pair and the creators (elements typed by the marked array involved).
pub const HOOK_DN_COPY: &str = "__tpd_copy";
/// `void __tpd_name_container(void *obj, const AllocSiteDesc *var)`: after a call that
/// was given the address of a local `std::vector` of an FP type (`obj`, whose first
/// word points to its elements), when the elements' marked heap array still has the
/// name of a library allocator's site (code that was not inlined: `-O0`), it takes the
/// variable's name and position from `var`.
pub const HOOK_DN_NAME_CONTAINER: &str = "__tpd_name_container";
pub const HOOK_DN_RELEASE: &str = "__tpd_release";

/// An FP operation, load or store at a source position. LLVM type:
/// `{ SiteDesc, ptr, i16, i16, i16, i16, i32, i32, ptr, i32, i32 }`.
#[repr(C)]
#[derive(Debug)]
pub struct FpSiteDesc {
    /// Source position (inline chain, innermost loop).
    pub site: SiteDesc,
    /// Operation name for the report: `fadd`, `load`, `store`, `sqrt`, `call expf`, ...
    pub op: *const c_char,
    /// `FP_*` element type.
    pub ty: u16,
    /// Elements per execution (1 for scalars, N for `<N x T>`).
    pub lanes: u16,
    /// `FPSITE_*` flags.
    pub flags: u16,
    /// Bit `k`: operand `k` is a constant. A denormal constant does not keep a site from
    /// having created the denormal results it makes (the fourth counter, and
    /// `__tpd_op`'s count of them): its tag names no creator, so the site becomes it.
    pub const_operands: u16,
    /// Index of the site's basic block in the module's block counters.
    pub block: u32,
    /// Index of the site in the module's site array.
    pub index: u32,
    pub module: *const DnModuleDesc,
    /// [`FPSITE_NO_COUNTERS`], or the index (in the module's block counters) of the
    /// site's [`DN_OP_WORDS`] inline counters (and lane counts, [`op_lane_words`]):
    /// denormal operands, operations with a denormal operand, denormal results,
    /// denormal results made from normal operands only (the site *created* them). An operation site with inline counters is handled
    /// entirely by the instrumented code (counts and result tags, see [`HOOK_DN_OP`]);
    /// the runtime adds these counters to the site's row of the report. A load or
    /// store site with it set owns [`DN_LOAD_WORDS`] / [`DN_STORE_WORDS`] words there:
    /// its inline count of denormal loads (stores) and its inline memory cache.
    pub counters: u32,
    /// Index in the module's site array of the site that stands as this one's creator:
    /// the first with the same source position (inline chain), operation and element
    /// type. Vectorized, unrolled and peeled copies of one source operation are one
    /// creator. Tags carry that site's creator index; `index` when the site is its own.
    pub creator: u32,
}

/// `FpSiteDesc::counters` of a site counted by the hooks only.
pub const FPSITE_NO_COUNTERS: u32 = u32::MAX;

/// Inline counters of an operation site: denormal operands, operations with a denormal
/// operand, denormal results, results created (denormal with no denormal operand).
pub const DN_OP_WORDS: u32 = 4;
/// Index of the created-results counter among an operation site's inline counters.
pub const DN_OP_CREATED: u32 = 3;

/// Lane counts of a vector operation site counted inline (`lanes > 1`), in words after
/// its [`DN_OP_WORDS`] totals: for each of the four counters `k`, one `u32` per lane
/// (lane `l` of counter `k` at byte `8 * DN_OP_WORDS + 4 * (k * lanes + l)`). The
/// inline code adds each lane's mask to its lane, with no reduction across lanes; when a
/// lane of the operand or result counts reaches 2^31 (the others never exceed those) it
/// adds all lanes to the totals and clears them. A counter's value is its total plus the
/// sum of its lanes.
pub const fn op_lane_words(lanes: u16) -> u32 {
    if lanes > 1 {
        2 * lanes as u32
    } else {
        0
    }
}

/// Block-counter words owned by a site with `FpSiteDesc::counters` set, by its
/// `FPSITE_*` flags and lanes: [`DN_OP_WORDS`] counters for an operation and its lane
/// counts ([`op_lane_words`]), the inline count and cache of a load or store.
pub const fn inline_words(flags: u16, lanes: u16) -> u32 {
    if flags & FPSITE_LOAD != 0 {
        DN_LOAD_WORDS
    } else if flags & FPSITE_STORE != 0 {
        DN_STORE_WORDS
    } else {
        DN_OP_WORDS + op_lane_words(lanes)
    }
}

pub const FP_HALF: u16 = 1;
pub const FP_FLOAT: u16 = 2;
pub const FP_DOUBLE: u16 = 3;
pub const FP_X86_FP80: u16 = 4;
pub const FP_FP128: u16 = 5;

/// The report's name of an `FP_*` element type (`docs/report-schema.md`).
pub fn fp_type_name(ty: u16) -> &'static str {
    match ty {
        FP_HALF => "half",
        FP_FLOAT => "float",
        FP_DOUBLE => "double",
        FP_X86_FP80 => "x86_fp80",
        FP_FP128 => "fp128",
        _ => "fp?",
    }
}

/// The site is a load.
pub const FPSITE_LOAD: u16 = 1 << 0;
/// The site is a store.
pub const FPSITE_STORE: u16 = 1 << 1;
/// The site is a call to a library function (libm) checked like an operation.
pub const FPSITE_CALL: u16 = 1 << 2;
/// The site only reads operands (fcmp, FP→int): it has no FP result.
pub const FPSITE_NO_RESULT: u16 = 1 << 3;

/// A floating-point array known at compile time: a global or static (with `addr`), or a
/// stack array (`addr` null; the address comes with `__tpd_array_enter`). LLVM type:
/// `{ ptr, ptr, ptr, i32, i16, i16, i32, i32, i64, ptr }`.
#[repr(C)]
#[derive(Debug)]
pub struct FpArrayDesc {
    /// Variable name from debug info.
    pub name: *const c_char,
    /// Function it is declared in (source-level name), empty for globals.
    pub function: *const c_char,
    pub file: *const c_char,
    pub line: u32,
    /// `FP_*` element type.
    pub elem_ty: u16,
    /// `ARRAY_*` kind.
    pub kind: u16,
    pub elem_size: u32,
    pub _reserved: u32,
    pub elements: u64,
    pub addr: *const core::ffi::c_void,
}

pub const ARRAY_GLOBAL: u16 = 1;
pub const ARRAY_STATIC: u16 = 2;
pub const ARRAY_STACK: u16 = 3;
pub const ARRAY_HEAP: u16 = 4;

/// An allocation site whose block the pass typed as an FP array. LLVM type:
/// `{ ptr, ptr, ptr, i32, i16, i16, i32, i32 }`.
#[repr(C)]
#[derive(Debug)]
pub struct AllocSiteDesc {
    /// The variable the pointer is stored in, else empty (the runtime then names the
    /// array `<function:line>`).
    pub name: *const c_char,
    pub function: *const c_char,
    pub file: *const c_char,
    pub line: u32,
    /// `FP_*` element type.
    pub elem_ty: u16,
    /// `ALLOC_SITE_*` flags.
    pub flags: u16,
    pub elem_size: u32,
    pub _reserved: u32,
}

/// `AllocSiteDesc::flags`: the site is a variable-length stack array (an `alloca` of
/// run-time size). Its activations share one array record per size class (the next
/// power of two of the element count, at least 16), as a fixed-size stack array's
/// activations share one: a VLA in a function called 20 000 times is one array of the
/// report, not 20 000.
pub const ALLOC_SITE_VLA: u16 = 1;
/// `AllocSiteDesc::flags`: the site names a `std::vector` through a pointer or
/// reference (`out`, `this->cells`; `__tpd_name_container`). A name from the variable
/// that holds the vector itself (`grown`, whose address was passed on) replaces it.
pub const ALLOC_SITE_BY_POINTER: u16 = 2;
/// `AllocSiteDesc::flags`: the allocator keeps the block's contents (`realloc`,
/// `reallocarray`). `__tpd_alloc` then leaves the block's shadow as the allocation
/// wrapper left it (the stored tags of the moved contents, the rest cleared) instead of
/// clearing it: the tags of a grown array's denormals would be lost.
pub const ALLOC_SITE_KEEPS_CONTENTS: u16 = 4;

/// One denormal-mode module. LLVM type:
/// `{ i32, i32, ptr, ptr, i32, i32, ptr, i32, i32, i64, ptr }`.
#[repr(C)]
#[derive(Debug)]
pub struct DnModuleDesc {
    pub magic: u32,
    pub abi_version: u32,
    pub source_file: *const c_char,
    pub sites: *const FpSiteDesc,
    pub n_sites: u32,
    /// Number of block counters the module uses (indices `0..n_blocks`).
    pub n_blocks: u32,
    /// Globals and statics (kind `ARRAY_GLOBAL`/`ARRAY_STATIC`).
    pub arrays: *const FpArrayDesc,
    pub n_arrays: u32,
    pub flags: u32,
    /// Written by the runtime: the module's first counter in every thread's block
    /// (`DN_BASE_UNREGISTERED` until registered).
    pub base: u64,
    /// Written by the runtime only.
    pub next: *mut DnModuleDesc,
}

// =================================================================================
// Time mode (`--tp-mode=time`, docs/time-mode.md): measurement for performance models.
// The pass (pipeline start, before inlining) calls `__tp_time_enter(f)` at the entry of
// each selected function and `__tp_time_exit(f)` before each of its returns, with `f`
// the function's `TimeFuncDesc`; the iterations of the selected loops are counted in a
// local register and handed over with `__tp_time_loop(l, count)` just before the exit
// call. The sides of the selected branches are recorded the same way: a local bit set
// per side taken, and `__tp_time_loop(side, 0 or 1)` per side before the exit call (a
// `TimeLoopDesc` of kind `TIME_KIND_BRANCH_SIDE`: the count is the number of
// activations in which that side was taken). A time-mode module registers a
// `TimeModuleDesc` from a constructor.
// =================================================================================

/// Magic number at the start of every [`TimeModuleDesc`] ("TPTM").
pub const TIME_MODULE_MAGIC: u32 = 0x4d54_5054;
/// Version of the time-mode descriptors (checked at registration).
pub const TIME_ABI_VERSION: u32 = 2;
/// [`TimeLoopDesc::kind`]: a loop (the count is its iterations).
pub const TIME_KIND_LOOP: u32 = 0;
/// [`TimeLoopDesc::kind`]: one side (successor) of a branch (the count is the number of
/// activations of the function in which the branch went that way).
pub const TIME_KIND_BRANCH_SIDE: u32 = 1;
/// `void __tp_time_register_module(TimeModuleDesc *)`.
pub const HOOK_TIME_REGISTER_MODULE: &str = "__tp_time_register_module";
/// `void __tp_time_enter(const TimeFuncDesc *)`.
pub const HOOK_TIME_ENTER: &str = "__tp_time_enter";
/// `void __tp_time_exit(const TimeFuncDesc *)`.
pub const HOOK_TIME_EXIT: &str = "__tp_time_exit";
/// `void __tp_time_loop(const TimeLoopDesc *, u64 iterations)`.
pub const HOOK_TIME_LOOP: &str = "__tp_time_loop";

/// A function instrumented in time mode. LLVM type: `{ ptr, ptr, ptr, i32, i32 }`.
#[repr(C)]
#[derive(Debug)]
pub struct TimeFuncDesc {
    /// Source-level name (demangled for C++), the name the taint report uses.
    pub name: *const c_char,
    /// Linkage (symbol) name.
    pub linkage: *const c_char,
    /// Source file of the definition.
    pub file: *const c_char,
    /// Line of the definition.
    pub line: u32,
    /// Loops of the function whose iterations are counted.
    pub n_loops: u32,
}

/// A loop whose iterations are counted, or a branch side whose activations are.
/// LLVM type: `{ ptr, ptr, i32, i32, i32, i32, i32, i32 }`.
#[repr(C)]
#[derive(Debug)]
pub struct TimeLoopDesc {
    /// The function the loop or branch is in.
    pub func: *const TimeFuncDesc,
    /// Source file of the loop header (its keyword) or the branch.
    pub file: *const c_char,
    pub line: u32,
    pub column: u32,
    /// [`TIME_KIND_LOOP`] or [`TIME_KIND_BRANCH_SIDE`].
    pub kind: u32,
    /// Branch sides: the successor's index among the branch's distinct successors.
    pub side: u32,
    /// Branch sides: the first source line of the successor (0: unknown).
    pub target_line: u32,
    pub reserved: u32,
}

/// One time-mode module. LLVM type: `{ i32, i32, ptr, ptr, i32, i32, ptr, ptr }`.
#[repr(C)]
#[derive(Debug)]
pub struct TimeModuleDesc {
    pub magic: u32,
    pub abi_version: u32,
    pub source_file: *const c_char,
    pub funcs: *const TimeFuncDesc,
    pub n_funcs: u32,
    pub n_loops: u32,
    pub loops: *const TimeLoopDesc,
    /// Written by the runtime only.
    pub next: *mut TimeModuleDesc,
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use core::mem::size_of;

    #[test]
    fn layouts_match_the_llvm_types_the_pass_emits() {
        assert_eq!(size_of::<SrcLoc>(), 40);
        assert_eq!(size_of::<TimeFuncDesc>(), 32);
        assert_eq!(size_of::<TimeLoopDesc>(), 40);
        assert_eq!(size_of::<TimeModuleDesc>(), 48);
        assert_eq!(size_of::<SiteDesc>(), 24);
        assert_eq!(size_of::<LoopDesc>(), 56);
        assert_eq!(size_of::<FuncDesc>(), 48);
        assert_eq!(size_of::<BranchRec>(), 40);
        assert_eq!(size_of::<ModuleDesc>(), 64);
        assert_eq!(size_of::<FpSiteDesc>(), 64);
        assert_eq!(size_of::<FpArrayDesc>(), 56);
        assert_eq!(size_of::<AllocSiteDesc>(), 40);
        assert_eq!(size_of::<DnModuleDesc>(), 64);
    }

    #[test]
    fn application_regions_map_into_the_reserved_shadow_region_disjointly() {
        let end = SHADOW_BASE + SHADOW_SIZE;
        for &a in &[
            0u64,
            0x40_0000,
            0x5555_5555_4000,
            0x7fff_ffff_f000,
            0x7f00_0000_0000,
        ] {
            let s = shadow_addr(a);
            assert!(s >= SHADOW_BASE && s < end, "{a:#x} -> {s:#x}");
            // Denormal mode's 1:1 mapping stays inside the region, with room for a
            // stored tag (4 bytes) of the last element.
            let d = dn_shadow_addr(a);
            assert!(d >= SHADOW_BASE && d + 4 <= end, "{a:#x} -> {d:#x}");
        }
        assert_eq!(
            dn_shadow_addr(0x5555_5555_4004),
            dn_shadow_addr(0x5555_5555_4000) + 4
        );
        // Low, PIE and high regions land in different shadow ranges.
        assert_ne!(
            shadow_addr(0x40_0000) >> 40,
            shadow_addr(0x5555_5555_4000) >> 40
        );
        assert_ne!(
            shadow_addr(0x5555_5555_4000) >> 40,
            shadow_addr(0x7fff_0000_0000) >> 40
        );
        // Offsets inside an object stay contiguous in shadow.
        assert_eq!(
            shadow_addr(0x7fff_0000_0010),
            shadow_addr(0x7fff_0000_0000) + 0x20
        );
    }
}
