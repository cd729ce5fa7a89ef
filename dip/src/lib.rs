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
//! * in the SIGTRAP handler unmask again and clear the trap flag.
//!
//! When no denormal occurs nothing runs at all: no timers, no polling, the program runs
//! at native speed. At exit (or when a signal kills it) the process writes
//! `<prog>.<pid>.dip-raw.json` (see [`report`]); `taintprof-symbolize` turns it into the
//! `taintprof.denormal` report (functions, source lines, disassembly).
//!
//! ## Environment
//!
//! `TAINTPROF_OUT`, `TAINTPROF_DIP_UNDERFLOW`, `TAINTPROF_DIP_INTERVAL_MS`,
//! `TAINTPROF_DIP_X87` and `TAINTPROF_QUIET`: every knob with its default is listed in
//! one place, [`options`]. `LD_PRELOAD` stays set, so `fork`ed and `exec`ed children
//! are profiled as well, each writing its own report.
//!
//! ## Code map
//!
//! | module | owns |
//! |---|---|
//! | [`init`] | constructor, thread start/exit, fork, exit hook |
//! | `handlers` | SIGFPE/SIGTRAP dance, forwarding to the program's handlers, dying right |
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
//! | `taintprof_sigsafe` (crate `sigsafe/`) | what handlers and the report writer may use, shared with the runtime: `mmap` memory, `StackBuf`, errno, the [`diag!`] line writer, the JSON string escaping, the atomic file write |
//!
//! ## Rules
//!
//! Signal handlers and the report writer never allocate or take locks (the count table
//! is lock-free; per-thread state is in a CAS-claimed slot table). No panic crosses an
//! `extern "C"` boundary: handlers use no panicking operations, start-up runs under
//! `catch_unwind`.
//!
//! ## Limits
//!
//! Counts are per instruction execution, not per vector element. Code that runs with
//! our exceptions masked is not seen: signal handlers (Linux starts them with a default
//! MXCSR), glibc's libm internals that save/mask/restore MXCSR around a computation,
//! and everything after the program masks the exceptions itself or sets FTZ/DAZ (the
//! report says so: `fp_environment`). Integer moves of denormal bit patterns never trap
//! (thesis 4.4.6). x87 underflow is not traced (see `x87`).

#![cfg(all(target_arch = "x86_64", target_os = "linux"))]
#![deny(clippy::undocumented_unsafe_blocks)]

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `diag!("format", args...)`: one line on stderr, `taintprof-dip: ...`, with one
/// `write(2)` and SIGPIPE blocked (`taintprof_sigsafe::diag`; async-signal-safe).
#[macro_export]
macro_rules! diag {
    ($($t:tt)*) => {
        ::taintprof_sigsafe::diag::write_line("taintprof-dip", format_args!($($t)*))
    };
}

mod disp;
mod fpenv;
mod fpu;
mod handlers;
pub mod init;
#[cfg(not(test))]
mod interpose;
pub mod options;
mod real;
pub mod report;
mod steps;
mod table;
mod x87;
