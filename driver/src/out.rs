//! Writing messages without panicking: `eprintln!` and `println!` panic when the stream
//! is a closed pipe (`taintprof run -- ./app 2>&1 | head -1`), which would turn the
//! program's exit status into 101. The driver's messages are best effort: a reader that
//! went away is not an error, so these macros ignore every write error.

use std::fmt;
use std::io::Write;

/// Writes `args` to standard error, ignoring errors (`EPIPE`, `EBADF`, ...).
pub fn write_err(args: fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// Writes `args` to standard output and flushes, ignoring errors.
pub fn write_out(args: fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_fmt(args);
    let _ = out.flush();
}

/// `eprint!` that never panics.
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::out::write_err(format_args!($($arg)*))
    };
}

/// `eprintln!` that never panics.
#[macro_export]
macro_rules! errln {
    () => {
        $crate::out::write_err(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that never panics (and flushes).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write_out(format_args!($($arg)*))
    };
}

/// `println!` that never panics (and flushes).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}
