//! # libtaintprof_dip.so — the exception-based denormal profiler
//!
//! Loaded into an unmodified x86-64 program with `LD_PRELOAD`, it counts, per machine
//! instruction, how often a floating-point instruction read a denormal operand (and,
//! optionally, produced a denormal/tiny result), the way the thesis's DIP (section 4.4,
//! Appendix C) did for 32-bit x87 code — here for SSE/AVX and x87 (`long double`):
//!
//! * unmask the denormal-operand exception (MXCSR.DM and the x87 DM; with
//!   `TAINTPROF_DIP_UNDERFLOW=1` also MXCSR.UM), so a denormal input traps (SIGFPE);
//! * in the SIGFPE handler count the instruction, mask the exception and set the trap
//!   flag in the saved context; the instruction runs once, masked, then traps (SIGTRAP);
//! * in the SIGTRAP handler unmask again and clear the trap flag;
//! * or, for register-to-register SSE arithmetic (the common case in loops), run the
//!   operation in the SIGFPE handler on the saved registers, masked, and continue after
//!   the instruction: one signal per event instead of two ([`emulate`]).
//!
//! By default the events are *sampled* ([`sampling`]): the exception is unmasked only in
//! windows a per-thread CPU-time timer opens every 10 ms, each taking at most as many
//! events as the overhead budget (10 %) pays for, so a program with hundreds of millions
//! of denormal operations runs close to native speed; the report gives each
//! instruction's estimated share with a confidence interval. `TAINTPROF_DIP_EXACT=1`
//! (`taintprof dip --exact`) counts every event. When no denormal occurs nothing runs
//! but the timer's tick (a few µs per 10 ms of CPU time): the program runs at native
//! speed. At exit (or when a signal kills it) the process writes
//! `<prog>.<pid>.dip-raw.json` (see [`report`]); `taintprof-symbolize` turns it into the
//! `taintprof.denormal` report (functions, source lines, disassembly).
//!
//! ## Environment
//!
//! `TAINTPROF_OUT`, `TAINTPROF_DIP_UNDERFLOW`, `TAINTPROF_DIP_INTERVAL_MS`,
//! `TAINTPROF_DIP_X87`, `TAINTPROF_DIP_EXACT`, `TAINTPROF_DIP_OVERHEAD`,
//! `TAINTPROF_DIP_PERIOD_MS`, `TAINTPROF_DIP_EMULATE` and `TAINTPROF_QUIET`: every knob with its default is listed in
//! one place, [`options`]. `LD_PRELOAD` stays set, so `fork`ed and `exec`ed children
//! are profiled as well, each writing its own report.
//!
//! ## Code map
//!
//! | module | owns |
//! |---|---|
//! | [`init`] | constructor, thread start/exit, fork, exit hook |
//! | `handlers` | SIGFPE/SIGTRAP dance, forwarding to the program's handlers, dying right |
//! | [`emulate`] | running a register-to-register SSE instruction in the handler instead of stepping it |
//! | [`sampling`] | sampled mode: per-thread CPU-time timers, windows, their quota, batches and weights |
//! | `x87` | replaying the x87 instruction whose exception was reported late |
//! | `steps` | per-thread step state (tid-keyed slots, no TLS) |
//! | `table` | lock-free address → counts table, timeline buckets |
//! | `fpu` | MXCSR / x87 control bits, arming a thread |
//! | `fpenv` | observing the program's changes to the FP environment |
//! | `disp` | the program's own signal dispositions |
//! | `interpose` | exported `sigaction`, `signal`, `pthread_sigmask`, `pthread_create`, `fe*` |
//! | `real` | the real functions behind them (`dlsym(RTLD_NEXT)`) |
//! | [`report`] | the raw JSON report, written atomically, allocation-free |
//! | [`options`] | the environment knobs, with their defaults |
//! | `taintprof_sigsafe` (crate `sigsafe/`) | what handlers and the report writer may use, shared with the runtime: `mmap` memory, `StackBuf`, errno, the [`diag!`] line writer, the JSON string escaping, the atomic file write, the environment look-up |
//!
//! ## Rules
//!
//! Signal handlers and the report writer never allocate or take locks (the count table
//! is lock-free; per-thread state is in a CAS-claimed slot table). The only heap
//! allocation is the program's `malloc` in the interposed `pthread_create` (the new
//! thread's start routine and argument, freed by that thread), where the program
//! itself calls into libc anyway.
//!
//! No `std`, no `alloc`: the crate is `#![no_std]` outside its unit tests (which use
//! std freely) and uses `core`, `libc` and `taintprof_sigsafe` only (the environment
//! is read from the `envp` the loader passes the constructor, with
//! `taintprof_sigsafe::env`). The shipped object is built with `panic = "abort"`: no
//! panic ever unwinds, into the program's frames or the loader. A panic (a bug: handlers
//! and start-up use no panicking operations by construction) prints one
//! `taintprof-dip: internal error: <message> at <file:line>` line and aborts (`fn
//! panic` below).
//!
//! ## Build
//!
//! `libtaintprof_dip.so` is built apart from the workspace, by `scripts/build-dip.sh`
//! (run by `make build`, `make test`, `make install` and `scripts/setup.sh`) into
//! `target/dip/` and copied to `target/release/`, where the driver and the tests look
//! for it: `panic = "abort"` (a `no_std` cdylib cannot be built with unwinding panics
//! on stable Rust: they need std's unwinder), fat LTO (`core`, `libc`,
//! `taintprof_sigsafe` and this crate become one object, without the landing pads of the
//! precompiled `core`), no debug information (the report names the *program's*
//! addresses, never ours). The object needs only `libc.so.6`, not `libgcc_s`; the
//! script checks that it exports nothing but the interposed functions and needs nothing
//! but versioned libc symbols. The workspace (whose profile unwinds, for the pass plugin
//! and the driver; Cargo cannot set `panic` per package) builds this crate as an rlib,
//! for the unit tests only; that build links std for its panic handler.
//!
//! ## Limits
//!
//! Counts are per instruction execution, not per vector element. Code that runs with
//! our exceptions masked is not seen: signal handlers (Linux starts them with a default
//! MXCSR), glibc's libm internals that save/mask/restore MXCSR around a computation,
//! and everything after the program masks the exceptions itself or sets FTZ/DAZ (the
//! report says so: `fp_environment`). Integer moves of denormal bit patterns never trap
//! (thesis 4.4.6). x87 underflow is not traced (see `x87`). Sampled mode takes the
//! real-time signal `SIGRTMAX-2` for its timers (a program that installs a handler for
//! it gets it: the timers are deleted and a warning says so); it cannot estimate how
//! many events there were where they come faster than the trap cost (the report gives a
//! lower bound, `--exact` the count), and its share intervals cover the sampling error,
//! not the small bias left on loops whose events come in short runs (see `sampling`).

#![cfg(all(target_arch = "x86_64", target_os = "linux"))]
#![cfg_attr(not(test), no_std)]
#![deny(clippy::undocumented_unsafe_blocks)]

// An unwinding build (the workspace's rlib, never the shipped object) takes std's panic
// handler; nothing else of std is used.
#[cfg(all(not(test), panic = "unwind"))]
extern crate std;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The panic handler of the shipped object (`panic = "abort"`, `no_std`): one
/// `taintprof-dip: internal error: ...` line with the location, then `abort()`. It
/// never unwinds, so no panic crosses into the program or the loader. Nothing of the
/// profiler is meant to panic (handlers use no panicking operations). The `SIGABRT`
/// that follows is handled as any crash: the raw report of the counts so far is
/// written and the process dies of `SIGABRT`, unless the panic happened while that
/// report was being written (then it says the report is lost). A program that catches
/// `SIGABRT` itself gets its handler called, as for its own `abort()`.
#[cfg(all(not(test), panic = "abort"))]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    taintprof_sigsafe::diag::internal_error("taintprof-dip", info)
}

// Unlike the runtime archive, the object defines no `rust_eh_personality` for the
// landing pads of the precompiled `core`: fat LTO with `panic = "abort"` removes them
// (scripts/build-dip.sh fails if the object still needs it), and a definition would be
// exported, interposing the personality of a Rust program linked to a shared std.

/// `diag!("format", args...)`: one line on stderr, `taintprof-dip: ...`, with one
/// `write(2)` and SIGPIPE blocked (`taintprof_sigsafe::diag`; async-signal-safe).
#[macro_export]
macro_rules! diag {
    ($($t:tt)*) => {
        ::taintprof_sigsafe::diag::write_line("taintprof-dip", format_args!($($t)*))
    };
}

mod disp;
pub mod emulate;
mod fpenv;
mod fpu;
mod handlers;
pub mod init;
#[cfg(not(test))]
mod interpose;
pub mod options;
mod real;
pub mod report;
pub mod sampling;
mod steps;
mod table;
mod x87;
