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
//! | [`record`] | the raw run record (`docs/internal/record.md`): the live state (modules, parameters, trees, loops in flight, branches, exit) as a `taintprof_record` record, written right after the JSON report by the same paths | no |
//! | [`signals`] | fatal-signal handlers that write a partial report and re-raise | no |
//! | `taintprof_sigsafe` (crate `sigsafe/`) | what may run in a signal handler, shared with `libtaintprof_dip.so`: `mmap` memory and `MmapVec`, `StackBuf`, errno, the [`diag!`] line writer, the JSON writer, the atomic file write, the registration `SpinLock` | no |
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
//!   `__tpd_register_module`, `__tpd_thread_counters`, `__tpd_op`, `__tpd_creator_index`, `__tpd_load`,
//!   `__tpd_store`, `__tpd_array_enter/leave`, `__tpd_alloc`, `__tpd_release` and the TLS
//!   slots `__tpd_counters_tls`, `__tpd_arg_tags_tls`, `__tpd_ret_tag_tls`.
//! * **Output**: one raw record per process (`docs/internal/record.md`), never an
//!   analysed report: the raw run record `<prog>.<pid>.taintprof.rec`, or the denormal
//!   record `<prog>.<pid>.denormal.rec` if only denormal-mode modules registered; the
//!   driver makes the reports of `docs/report-schema.md` from them (`taintprof-model`).
//!
//! ## Rules every module follows
//!
//! * No panic crosses the C boundary: every `extern "C"` function is panic-free by
//!   construction (no indexing that can fail, no `unwrap`, no allocation-failure paths
//!   that panic) — and Rust aborts rather than unwinds out of an `extern "C"` function
//!   anyway. Built with `panic = "abort"` the runtime is `no_std` and its own
//!   `#[panic_handler]` prints one `taintprof: internal error` line and aborts; built
//!   with unwinding panics (the default profile) std's handler does (see "`no_std`").
//! * Hot hooks (`__tp_enter`, `__tp_loop_exit`, shadow hooks, wrappers) never call
//!   malloc, never take a lock, and make no system call on their fast path.
//! * The report path (`report`, `record`, `signals`, the JSON writer of
//!   `taintprof_sigsafe` and the record writer of `taintprof_record`)
//!   allocates nothing from malloc and takes no lock, so it can run from a signal
//!   handler: scratch memory comes from `mmap`.
//! * Nothing allocates from the heap at all: the runtime uses `core`,
//!   `taintprof_sigsafe` and the `no_std` writer of `taintprof_record` only (permanent
//!   records come from `taintprof_sigsafe::leak`),
//!   and its one lock is `taintprof_sigsafe::SpinLock`, taken on registration paths only.
//! * Thread safety: shadow memory is shared; calling-context trees, loop records and
//!   arenas are per thread and published to the report writer with release stores.
//!
//! ## Environment
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `TAINTPROF_OUT` | the working directory at start-up | directory for reports (created if missing) |
//! | `TAINTPROF_QUIET` | `1` if stderr is not a terminal | `1`: do not print where the report was written; `0`: always print it |
//! | `TAINTPROF_REPORT` | `1` | `0`: write no record or report at all (overhead measurements) |
//! | `TAINTPROF_HANDLE_SIGNALS` | `1` | `0`: install no fatal-signal handlers (no partial reports) |
//! | `TAINTPROF_VERBOSE` | `0` | `1`: print start-up details (shadow range, options) |
//! | `TAINTPROF_UNLIMITED_STACK_MIB` | `8192` | under `ulimit -s unlimited`, the stack limit (MiB) the program is re-executed with so that the shadow fits; the limit is set back to unlimited after; `0`: do not re-execute |
//!
//! ## Linking
//!
//! A program links `libtaintprof_rt.a` followed by `-lpthread -ldl` (libc's on glibc
//! 2.34 and later; `taintprof_driver::cc::RUNTIME_NATIVE_LIBS` says why nothing else),
//! and must be an
//! executable (the shadow is reserved from `.preinit_array`, which shared objects may not
//! have). C++ programs also need libstdc++ (they have it already).
//!
//! ## `no_std`
//!
//! The runtime's code uses no `std` and no `alloc` (`#![no_std]` outside unit tests,
//! which use std freely): memory comes from `mmap` (`taintprof_sigsafe`), per-thread
//! pointers live in `tls.c` (`c_tls_ptr!`). Whether std is *linked* into the archive
//! depends on the panic strategy the crate is compiled with, because a `staticlib` with
//! unwinding panics needs std's unwinder (`eh_personality`; rustc: "unwinding panics
//! are not supported without std"), which stable Rust cannot provide otherwise:
//!
//! * `panic = "unwind"`, what `cargo build --release --workspace` uses (the pass plugin
//!   catches panics, and Cargo cannot set `panic` per package; the DIP profiler's
//!   shared object is built apart the same way, `scripts/build-dip.sh`): the
//!   workspace builds this crate as an rlib only, for its unit tests and the tests
//!   crate, where std is there anyway;
//! * `panic = "abort"`: no std at all. This is the archive programs link,
//!   `target/release/libtaintprof_rt.a`, built by `scripts/build-runtime.sh` (`make
//!   build`, `make test`, `scripts/setup.sh`) in a target directory of its own: fat LTO
//!   makes `core`, `libc`, `taintprof_sigsafe` and this crate one object with only what
//!   the hooks reach, without debug information, beside the C objects of `build.rs`
//!   (about 1 MB, against 27 MB for the unwinding staticlib with std). A program needs
//!   only `-lc` next to it, and `fn panic` below is the panic handler.

#![cfg_attr(not(test), no_std)]
#![deny(unsafe_op_in_unsafe_fn)]
#![allow(clippy::missing_safety_doc)]

// Unwinding panics in a staticlib need std's unwinder; nothing else of std is used.
#[cfg(all(not(test), panic = "unwind"))]
extern crate std;

/// The panic handler of a `no_std` build (`panic = "abort"`): one diagnostic line, then
/// `abort()`. It never unwinds, so no panic crosses into C. A report being written when
/// the panic happened is lost (the fatal-signal handler sees `SIGABRT` on the writing
/// thread and says so); otherwise `SIGABRT` writes the partial report as for any crash.
#[cfg(all(not(test), panic = "abort"))]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    taintprof_sigsafe::diag::internal_error("taintprof", info)
}

/// The unwinding personality `core` refers to (it is precompiled with unwinding panics,
/// so its landing pads name `rust_eh_personality`, which only std defines) in a
/// `no_std` build. Nothing in the runtime unwinds (panics abort, the runtime calls no
/// code that throws), so reaching it is a bug: say so and abort, as unwinding out of an
/// `extern "C"` function would with std.
#[cfg(all(not(test), panic = "abort"))]
#[no_mangle]
extern "C" fn rust_eh_personality() -> ! {
    diag!("internal error: an exception is unwinding through the runtime; this is a taintprof bug");
    // SAFETY: terminating the process.
    unsafe { libc::abort() }
}

/// `diag!("format", args...)`: one line on stderr, `taintprof: ...`, with one `write(2)`
/// and SIGPIPE blocked (`taintprof_sigsafe::diag`). Never allocates.
#[macro_export]
macro_rules! diag {
    ($($t:tt)*) => { $crate::diag_line(format_args!($($t)*)) };
}

/// The function behind [`diag!`].
#[doc(hidden)]
pub fn diag_line(args: core::fmt::Arguments<'_>) {
    taintprof_sigsafe::diag::write_line("taintprof", args);
}

pub mod arena;
pub mod context;
pub mod denormal;
pub mod exits;
pub mod inflight;
pub mod init;
pub mod modules;
pub mod mpi;
pub mod options;
pub mod params;
pub mod record;
pub mod report;
pub mod shadow;
pub mod signals;
pub mod split;
pub mod stack;
#[cfg(test)]
mod test_descriptors;
pub mod time;
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

/// A pointer-sized initial-exec thread-local variable defined in `tls.c`, read and
/// written inline: `mov` through its GOT TP offset and `%fs`, the code C emits for it
/// (and the linker relaxes to one `%fs` access in an executable). This is how the
/// `no_std` runtime keeps per-thread pointers on its hot paths without a call:
/// `thread_local!` is std's and `#[thread_local]` is unstable. x86-64 only, like the
/// shadow mapping.
///
/// `c_tls_ptr!(pub mod name = c_symbol: Type);` gives `name::get() -> *mut Type` and
/// `name::set(*mut Type)`.
macro_rules! c_tls_ptr {
    ($(#[$m:meta])* $vis:vis mod $name:ident = $sym:ident : $t:ty;) => {
        $(#[$m])*
        $vis mod $name {
            #[allow(unused_imports)]
            use super::*;

            extern "C" {
                /// Only its address is used, by the `asm!` below (Rust does not know
                /// the symbol is thread-local, so it must never be read directly).
                static $sym: u8;
            }

            /// The calling thread's value (null until set).
            #[inline(always)]
            pub fn get() -> *mut $t {
                let v: *mut $t;
                // SAFETY: `$sym` is a pointer-sized initial-exec TLS variable of tls.c,
                // so its GOT entry holds its offset from the thread pointer (%fs); the
                // asm reads 8 bytes of the calling thread's block and nothing else.
                unsafe {
                    core::arch::asm!(
                        "mov {v}, qword ptr [rip + {s}@GOTTPOFF]",
                        "mov {v}, qword ptr fs:[{v}]",
                        v = out(reg) v,
                        s = sym $sym,
                        options(nostack, preserves_flags, readonly, pure),
                    );
                }
                v
            }

            /// Sets the calling thread's value.
            #[inline(always)]
            pub fn set(p: *mut $t) {
                // SAFETY: as in `get`; writes the 8 bytes of the calling thread's slot.
                unsafe {
                    core::arch::asm!(
                        "mov {t}, qword ptr [rip + {s}@GOTTPOFF]",
                        "mov qword ptr fs:[{t}], {v}",
                        t = out(reg) _,
                        v = in(reg) p,
                        s = sym $sym,
                        options(nostack, preserves_flags),
                    );
                }
            }
        }
    };
}
pub(crate) use c_tls_ptr;

/// Moves `v` into permanent memory (`taintprof_sigsafe::leak`, the runtime's
/// `Box::leak`). Running out of memory there ends the process as `Box::leak` would,
/// with a diagnostic first.
pub(crate) fn leak<T>(v: T) -> &'static mut T {
    match taintprof_sigsafe::leak::leak(v) {
        Some(r) => r,
        None => leak_failed(),
    }
}

/// A permanent copy of `s` (see [`leak`]).
pub(crate) fn leak_slice<T: Copy>(s: &[T]) -> &'static mut [T] {
    match taintprof_sigsafe::leak::leak_slice(s) {
        Some(r) => r,
        None => leak_failed(),
    }
}

#[cold]
fn leak_failed() -> ! {
    diag!("error: out of memory for a permanent runtime record; stopping");
    // SAFETY: terminating the process (the SIGABRT handler writes a partial report).
    unsafe { libc::abort() }
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
