//! # taintprof-rt: the runtime linked into instrumented programs
//!
//! `libtaintprof_rt.a` is to taintprof what the compiler-rt sanitizer runtimes are to
//! the sanitizers: a small public C interface (`rt/include/taintprof.h`), a set of hooks
//! that instrumented code calls (named in `taintprof-abi`), and a report written when
//! the program ends. Every knob is an environment variable with a documented default
//! (see [`options`]).
//!
//! ## Map of the crate (one concept per module)
//!
//! | module | concept | hot? |
//! |---|---|---|
//! | [`init`] | start-up from `.preinit_array`: options, program identity, re-execution under an unlimited stack limit, shadow reservation, exit and signal hooks | once |
//! | [`stack`] | an unlimited stack size limit: re-executing with a finite one before the shadow is reserved, restoring the limit afterwards | once |
//! | [`options`] | every environment knob, its default, parsed once at start-up | no |
//! | [`shadow`] | the direct-mapped shadow (one 16-bit label per byte); `__tp_shadow_copy/set/union/or` | yes |
//! | [`params`] | the parameter registry (label bit per name, max 16; the ninth turns the control-flow split off; names checked); `tp_register_variable`, `tp_has_label`, `tp_delete_label` | no |
//! | [`split`] | the control-flow split of labels (data bits and control twins, `__tp_ctrl_shift`), folded where labels are read | no |
//! | [`arena`] | per-thread bump allocator over `mmap`'d chunks (no malloc, no locks) | yes |
//! | [`context`] | per-thread calling-context trees and loop records; `__tp_enter`, `__tp_loop_exit` | **yes** |
//! | [`exits`] | `_exit`, `_Exit`, `quick_exit` and exec wrappers (with `exec_shim.c`): the report before a process ends without exit handlers | no |
//! | [`inflight`] | loops still running when a report is written (signal, `exit` inside a loop, `exec`): the per-thread stacks instrumented code keeps, snapshot for the report | no |
//! | [`modules`] | registered module descriptors; `__tp_register_module` | no |
//! | [`wrappers`] | `__tpw_<name>` wrappers for libc functions that move memory (see `rt/abilist.txt`) | yes |
//! | [`report`] | builds and writes the JSON report (schema `taintprof.taint` v4), atomically, once | no |
//! | [`json`] | a tiny JSON writer (escaping, no allocation) | no |
//! | [`signals`] | fatal-signal handlers that write a partial report and re-raise | no |
//! | [`sys`] | thin syscall helpers: `mmap`-backed vectors, stderr diagnostics, small formatting | no |
//! | [`denormal`] | denormal mode: `__tpd_*` hooks, marked arrays, tags, snapshots, the `taintprof.denormal` report (its own map inside) | **yes** |
//! | `tls.c` | the initial-exec TLS slots (`__tp_arg_tls`, `__tpd_counters_tls`, ...) and accessors | yes |
//! | `exec_shim.c` | the exec-family wrappers (`execl` & co. need C varargs) | no |
//! | `new_shim.c` | C++ `operator new` wrappers (exceptions propagate through C frames) | yes |
//!
//! ## Interfaces
//!
//! * **Public C API** (`rt/include/taintprof.h`): `tp_register_variable`,
//!   `tp_write_report`, `tp_read_label`, `tp_has_label`, `tp_delete_label`; denormal
//!   mode: `tp_array_shape`, `tp_snapshot`; C++ `taintprof::register_variable`,
//!   `taintprof::has_label`, `taintprof::delete_label`, `taintprof::array_shape`,
//!   `taintprof::snapshot`. Perf-Taint compatibility headers in `rt/include/perf-taint/`
//!   (`perf_taint_register_variable`, `perf_taint_has_label`, `perf_taint_delete_label`,
//!   `perf_taint::register_variable`, `perf_taint::has_label`, `perf_taint::delete_label`,
//!   `perf_taint::delete_labels`, the unqualified `register_variable`, `VARIABLE_NAME`,
//!   `EXTRAP`).
//! * **Hooks for instrumented code** (names and signatures in `taintprof-abi`):
//!   `__tp_register_module`, `__tp_enter`, `__tp_loop_exit`, `__tp_shadow_copy`,
//!   `__tp_shadow_set`, `__tp_shadow_union`, `__tp_shadow_or`, `__tp_branch_update`, the
//!   TLS slots of `tls.c` (including `__tp_callee_tls`, read only by instrumented code),
//!   and the `__tpw_<name>` wrappers listed as `wrap` in `rt/abilist.txt`. Denormal mode:
//!   `__tpd_register_module`, `__tpd_thread_counters`, `__tpd_op`, `__tpd_load`,
//!   `__tpd_store`, `__tpd_array_enter/leave`, `__tpd_alloc`, `__tpd_release` and the TLS
//!   slots `__tpd_counters_tls`, `__tpd_arg_tags_tls`, `__tpd_ret_tag_tls`.
//! * **Output**: one JSON report per process, `docs/report-schema.md`: the taint report,
//!   or the denormal report if only denormal-mode modules registered.
//!
//! ## Rules every module follows
//!
//! * No panic crosses the C boundary: every `extern "C"` function is panic-free by
//!   construction (no indexing that can fail, no `unwrap`, no allocation-failure paths
//!   that panic) — and Rust aborts rather than unwinds out of an `extern "C"` function
//!   anyway.
//! * Hot hooks (`__tp_enter`, `__tp_loop_exit`, shadow hooks, wrappers) never call
//!   malloc, never take a lock, and make no system call on their fast path.
//! * The report path (`report`, `json`, `signals`) allocates nothing from malloc and takes
//!   no lock, so it can run from a signal handler: scratch memory comes from `mmap`.
//! * Thread safety: shadow memory is shared; calling-context trees, loop records and
//!   arenas are per thread and published to the report writer with release stores.
//!
//! ## Environment
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `TAINTPROF_OUT` | the working directory at start-up | directory for reports (created if missing) |
//! | `TAINTPROF_QUIET` | `1` if stderr is not a terminal | `1`: do not print where the report was written; `0`: always print it |
//! | `TAINTPROF_REPORT` | `1` | `0`: write no report at all (overhead measurements) |
//! | `TAINTPROF_HANDLE_SIGNALS` | `1` | `0`: install no fatal-signal handlers (no partial reports) |
//! | `TAINTPROF_VERBOSE` | `0` | `1`: print start-up details (shadow range, options) |
//! | `TAINTPROF_UNLIMITED_STACK_MIB` | `8192` | under `ulimit -s unlimited`, the stack limit (MiB) the program is re-executed with so that the shadow fits; the limit is set back to unlimited after; `0`: do not re-execute |
//!
//! ## Linking
//!
//! A program links `libtaintprof_rt.a` followed by the native libraries Rust's standard
//! library needs: `-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc` (from
//! `cargo rustc -p taintprof-rt --release -- --print native-static-libs`), and must be an
//! executable (the shadow is reserved from `.preinit_array`, which shared objects may not
//! have). C++ programs also need libstdc++ (they have it already).

#![deny(unsafe_op_in_unsafe_fn)]
#![allow(clippy::missing_safety_doc)]

pub mod arena;
pub mod context;
pub mod denormal;
pub mod exits;
pub mod inflight;
pub mod init;
pub mod json;
pub mod model;
pub mod modules;
pub mod options;
pub mod params;
pub mod report;
pub mod shadow;
pub mod signals;
pub mod split;
pub mod stack;
pub mod sys;
pub mod volume;
pub mod wrappers;

/// Version of this runtime, written into every report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

// Accessors defined in tls.c.
extern "C" {
    /// `__tp_arg_tls`: labels of the arguments of the call in flight.
    pub fn __tp_tls_args() -> *mut u16;
    /// `__tp_ret_tls`: label of the return value.
    pub fn __tp_tls_ret() -> *mut u16;
    /// `__tp_ctx_tls`: the calling-context node of the running function.
    pub fn __tp_tls_ctx() -> *mut *mut core::ffi::c_void;
    /// `__tp_site_tls`: the call site of the call in flight.
    pub fn __tp_tls_site() -> *mut *const core::ffi::c_void;
    /// `__tp_ctrl_tls`: the control label in force at the call in flight.
    pub fn __tp_tls_ctrl() -> *mut u16;
    /// `__tp_callee_tls`: the function the call in flight calls.
    pub fn __tp_tls_callee() -> *mut *const core::ffi::c_void;
    /// `__tp_loops_tls`: this thread's loops in flight.
    pub fn __tp_tls_loops() -> *mut taintprof_abi::InFlightLoop;
    /// `__tp_loop_depth_tls`: the number of entries pushed on it.
    pub fn __tp_tls_loop_depth() -> *mut u64;
}

/// Label of argument `i` of the call in flight (wrappers use this).
#[inline]
pub(crate) fn arg_label(i: usize) -> u16 {
    if i >= taintprof_abi::MAX_ARG_SLOTS {
        return 0;
    }
    // SAFETY: the TLS array has MAX_ARG_SLOTS entries and lives as long as the thread.
    unsafe { *__tp_tls_args().add(i) }
}

/// Set the return label of the call in flight (wrappers with `ret=tls`).
#[inline]
pub(crate) fn set_ret_label(l: u16) {
    // SAFETY: thread-local u16 slot.
    unsafe { *__tp_tls_ret() = l }
}
