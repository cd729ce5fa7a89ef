//! Ends of a process that run no exit handlers: `_exit`, `_Exit`, `quick_exit` and the
//! exec family. Calls to them from instrumented code go to these wrappers
//! (`rt/abilist.txt`, kind `wrap`), which write the report of the run so far first; the
//! exec wrappers themselves are in `exec_shim.c` (the variadic `execl` forms need C)
//! and call [`__tp_before_exec`] and [`__tp_exec_failed`].
//!
//! A program's own fatal-signal handler that ends with `_exit` is covered the same way,
//! as long as the handler is instrumented code. Calls from uninstrumented libraries are
//! not seen: such a process still ends without a report, and `taintprof run` says so.

use core::ffi::c_int;

use crate::report::{self, Exit};

/// `_exit(status)`: the report, then the real `_exit`.
#[no_mangle]
pub extern "C" fn __tpw__exit(status: c_int) -> ! {
    report::final_report(Exit::Immediate(status));
    // SAFETY: ends the process.
    unsafe { libc::_exit(status) }
}

/// `_Exit(status)`: the same as `_exit`.
#[no_mangle]
pub extern "C" fn __tpw__Exit(status: c_int) -> ! {
    report::final_report(Exit::Immediate(status));
    // SAFETY: ends the process.
    unsafe { libc::_exit(status) }
}

/// `quick_exit(status)`: runs the `at_quick_exit` handlers but not ours.
#[no_mangle]
pub extern "C" fn __tpw_quick_exit(status: c_int) -> ! {
    report::final_report(Exit::Immediate(status));
    extern "C" {
        fn quick_exit(status: c_int) -> !;
    }
    // SAFETY: ends the process.
    unsafe { quick_exit(status) }
}

/// Before an exec: the report of the run so far, named `<prog>.before-exec.<pid>` so
/// that the new program's report (same pid) does not replace it. Not in a child made by
/// `fork` (the usual fork-and-exec of a helper program): its state is a copy of the
/// parent's, whose own report covers it.
#[no_mangle]
pub extern "C" fn __tp_before_exec() {
    if !crate::init::is_fork_child() {
        report::final_report(Exit::Exec);
    }
}

/// The exec failed and the program goes on: its report at exit is written as usual.
#[no_mangle]
pub extern "C" fn __tp_exec_failed() {
    report::reopen_after_failed_exec();
}
