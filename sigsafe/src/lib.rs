//! # taintprof-sigsafe: what may run inside a signal handler
//!
//! The shared system layer of taintprof's two in-process runtimes, `libtaintprof_rt.a`
//! (linked into instrumented programs) and `libtaintprof_dip.so` (preloaded into
//! unmodified ones): what compiler-rt's `sanitizer_common` is to the sanitizers. Both
//! write their report from a fatal-signal handler, possibly one that interrupted
//! `malloc` or a lock holder, so the code they share obeys the rules of a handler.
//!
//! ## Rules every module follows
//!
//! * `#![no_std]`, and no `alloc` outside tests: memory comes from `mmap` ([`mem`],
//!   [`vec`], [`leak`]) or the stack ([`buf`]).
//! * Only async-signal-safe calls: system calls (some raw, where a preloaded library may
//!   interpose the libc function, see [`diag`]), the vDSO clock, and pure glibc helpers
//!   (`strlen`, `sigemptyset`).
//! * No lock that a handler could deadlock on: the one lock here ([`lock::SpinLock`])
//!   records its owner, and its documentation says what code in a handler may do with it.
//! * No panics on any path a runtime uses: slices are reached with `get`, arithmetic
//!   saturates or is checked, failures are return values (`Option`, `Result<_, errno>`,
//!   `false`).
//! * Every `unsafe` block says why it is sound (`// SAFETY:`; enforced by clippy).
//!
//! ## Map of the crate
//!
//! | module | owns |
//! |---|---|
//! | [`mem`] | anonymous `mmap`/`munmap`, replacing a mapping by zero pages, page rounding |
//! | [`vec`] | [`MmapVec`]: a growable array in its own mapping (`mremap`) |
//! | [`leak`] | permanent allocations (what `Box::leak` would give, from `mmap`) |
//! | [`buf`] | [`StackBuf`] (fixed text buffer), [`Lossy`] (bytes shown as text), [`cstr`] |
//! | [`env`] | environment knobs: looking a variable up in `envp` (or with `getenv`), parsing booleans and integers |
//! | [`os`] | `errno` and its text, thread and process ids, the monotonic clock, sleeping |
//! | [`io`] | [`write_all`], [`read_some`], [`read_file`], [`FdSink`] (buffered writes to a descriptor) |
//! | [`diag`] | one diagnostic line on stderr with one `write(2)`, SIGPIPE-proof |
//! | [`json`] | the streaming JSON writer ([`json::Json`], [`json::Sink`], [`json::escape`]) |
//! | [`file`](mod@file) | `mkdir -p`, the atomic file write (temporary file + `rename`) |
//! | [`lock`] | [`SpinLock`]: the registration lock, with its rule for signal handlers |

#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(any(test, feature = "alloc"))]
extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod buf;
pub mod diag;
pub mod env;
pub mod file;
pub mod io;
pub mod json;
pub mod leak;
pub mod lock;
pub mod mem;
pub mod os;
pub mod vec;

pub use buf::{cstr, Lossy, StackBuf};
pub use io::{read_file, read_some, write_all, FdSink};
pub use lock::SpinLock;
pub use mem::{mmap_anon, munmap, remap_zero, round_up, PAGE};
pub use os::{errno, errno_text, getpid, gettid, now_ns, set_errno, sleep_ms, thread_alive};
pub use vec::MmapVec;
