//! Programs started under an unlimited stack size limit (`ulimit -s unlimited`, common
//! in HPC job scripts).
//!
//! With `RLIMIT_STACK` at `RLIM_INFINITY` the kernel uses the *legacy* mmap layout: the
//! dynamic loader, the shared libraries and every later `mmap` go bottom-up from
//! `TASK_SIZE / 3` ≈ `0x2aaa_aaaa_b000` (plus randomisation), inside the shadow range
//! `[0x1000_0000_0000, 0x3000_0000_0000)`. The shadow cannot be reserved (`EEXIST`), and
//! even where it could, later mappings would start at `0x3000_0000_0000`, whose shadow
//! aliases that of the lowest addresses. The layout is chosen at `execve` time, so the
//! only way out is a new `execve` with a finite limit:
//!
//! 1. [`before_reserve`] (called from `.preinit_array` start-up, before the shadow is
//!    reserved) sees an infinite soft limit and no guard variable. It remembers glibc's
//!    default thread stack size (computed from the limit at start-up:
//!    `pthread_getattr_default_np`), lowers the soft limit to
//!    `TAINTPROF_UNLIMITED_STACK_MIB` (default 8 GiB: the top-down layout keeps a gap of
//!    that size below the stack, so the main thread can still grow that deep), and
//!    re-executes `/proc/self/exe` with the same `argv` and environment plus
//!    `TAINTPROF_REEXEC=<lowered limit>:<thread stack size>`. The pid, open descriptors,
//!    signal dispositions and mask carry over (no handler is installed yet).
//! 2. In the re-executed process (guard present, soft limit equal to the lowered value)
//!    it raises the soft limit back to `RLIM_INFINITY` (allowed: the hard limit did not
//!    change), so the program sees what it was started with (`getrlimit`, `ulimit -s` in
//!    its children) and its main stack may grow; sets glibc's default thread stack size
//!    back to the remembered value (`pthread_setattr_default_np`; otherwise every new
//!    thread would get 8 GiB of stack); and removes the guard from the environment
//!    array in place (the array `environ` and `main`'s `envp` point to), so children
//!    behave like their parent and re-execute themselves if they are instrumented.
//!
//! A guard that does not match (set by hand, or inherited through an environment copy)
//! is removed and never causes a second re-execution, so there is no loop. If lowering
//! the limit or `execve` fails, or `TAINTPROF_UNLIMITED_STACK_MIB=0` turns this off,
//! start-up goes on; the shadow reservation then fails and [`explain_reservation_failure`]
//! says why and what to do (`ulimit -s 8192`).

use core::ffi::c_char;
use core::sync::atomic::{AtomicI32, AtomicU64, AtomicU8, Ordering::Relaxed};

use taintprof_sigsafe::{cstr, errno, errno_text, MmapVec, StackBuf};

use crate::options;

/// Default of `TAINTPROF_UNLIMITED_STACK_MIB`: 8 GiB.
pub const DEFAULT_MIB: u64 = 8192;

/// The guard variable that marks a re-executed process.
pub const GUARD: &str = "TAINTPROF_REEXEC";

/// What start-up did about the stack limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum State {
    /// The limit was finite at `execve`: nothing to do.
    Finite = 0,
    /// This process is the re-execution; the limit is unlimited again.
    Reexecuted = 1,
    /// The limit is unlimited and `TAINTPROF_UNLIMITED_STACK_MIB=0`.
    Disabled = 2,
    /// The limit is unlimited and a guard was already there (no second re-execution).
    GuardPresent = 3,
    /// Lowering the soft limit failed (errno in `ERRNO`).
    SetrlimitFailed = 4,
    /// `execve` failed (errno in `ERRNO`).
    ExecFailed = 5,
    /// No `argv` to re-execute with.
    NoArgv = 6,
}

static STATE: AtomicU8 = AtomicU8::new(State::Finite as u8);
static ERRNO: AtomicI32 = AtomicI32::new(0);
/// The lowered limit the process was re-executed with (bytes; 0 if it was not).
static LOWERED: AtomicU64 = AtomicU64::new(0);

fn set_state(s: State, errno: i32) {
    ERRNO.store(errno, Relaxed);
    STATE.store(s as u8, Relaxed);
}

/// What start-up did about the stack limit.
pub fn state() -> State {
    match STATE.load(Relaxed) {
        1 => State::Reexecuted,
        2 => State::Disabled,
        3 => State::GuardPresent,
        4 => State::SetrlimitFailed,
        5 => State::ExecFailed,
        6 => State::NoArgv,
        _ => State::Finite,
    }
}

extern "C" {
    fn pthread_getattr_default_np(attr: *mut libc::pthread_attr_t) -> libc::c_int;
    fn pthread_setattr_default_np(attr: *const libc::pthread_attr_t) -> libc::c_int;
}

/// glibc's default stack size for new threads (0 if unknown).
fn default_thread_stack() -> usize {
    // SAFETY: a zeroed attribute object is filled by glibc and destroyed after use.
    unsafe {
        let mut attr: libc::pthread_attr_t = core::mem::zeroed();
        if pthread_getattr_default_np(&mut attr) != 0 {
            return 0;
        }
        let mut size = 0usize;
        let r = libc::pthread_attr_getstacksize(&attr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        if r == 0 {
            size
        } else {
            0
        }
    }
}

/// Sets glibc's default stack size for new threads; returns whether it did.
fn set_default_thread_stack(size: usize) -> bool {
    // SAFETY: as above.
    unsafe {
        let mut attr: libc::pthread_attr_t = core::mem::zeroed();
        if pthread_getattr_default_np(&mut attr) != 0 {
            return false;
        }
        let ok = libc::pthread_attr_setstacksize(&mut attr, size) == 0
            && pthread_setattr_default_np(&attr) == 0;
        libc::pthread_attr_destroy(&mut attr);
        ok
    }
}

fn stack_limit() -> Option<libc::rlimit> {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct.
    (unsafe { libc::getrlimit(libc::RLIMIT_STACK, &mut rl) } == 0).then_some(rl)
}

/// Whether the stack size limit is unlimited right now.
pub fn unlimited_now() -> bool {
    stack_limit().is_some_and(|rl| rl.rlim_cur == libc::RLIM_INFINITY)
}

/// Parses the guard's value, `<lowered limit>:<thread stack size>`.
pub fn parse_guard(v: &[u8]) -> Option<(u64, u64)> {
    let colon = v.iter().position(|&c| c == b':')?;
    let limit = options::parse_u64(v.get(..colon)?)?;
    let threads = options::parse_u64(v.get(colon + 1..)?)?;
    Some((limit, threads))
}

/// Whether the `NAME=value` entry `e` is the guard.
fn is_guard(e: &[u8]) -> bool {
    e.starts_with(GUARD.as_bytes()) && e.get(GUARD.len()) == Some(&b'=')
}

/// Removes every guard entry from the NULL-terminated environment array, in place.
///
/// # Safety
/// `envp` must be null or the process's writable environment array.
unsafe fn remove_guard(envp: *const *const c_char) {
    if envp.is_null() {
        return;
    }
    let env = envp as *mut *const c_char;
    let (mut from, mut to) = (0usize, 0usize);
    loop {
        // SAFETY: indices stay inside the array up to its terminator.
        let e = unsafe { *env.add(from) };
        if e.is_null() {
            break;
        }
        // SAFETY: entries are NUL-terminated strings.
        if !is_guard(unsafe { cstr(e) }) {
            // SAFETY: to <= from.
            unsafe { *env.add(to) = e };
            to += 1;
        }
        from += 1;
    }
    // SAFETY: to <= from, the terminator's index.
    unsafe { *env.add(to) = core::ptr::null() };
}

/// Handles an unlimited stack limit before the shadow is reserved: re-executes the
/// program with a finite limit, or, in the re-executed process, restores what the
/// program must see. See the module documentation.
///
/// # Safety
/// Single-threaded start-up; `argv` (NULL-terminated) and `envp` are the process's own
/// arrays, or null.
pub unsafe fn before_reserve(argv: *const *const c_char, envp: *const *const c_char) {
    let Some(rl) = stack_limit() else { return };
    // SAFETY: forwarded contract.
    let guard = unsafe { options::env_lookup(envp, GUARD.as_bytes()) };
    if let Some(value) = guard {
        let parsed = parse_guard(value);
        // SAFETY: forwarded contract (the value is not used after this).
        unsafe { remove_guard(envp) };
        match parsed {
            Some((lowered, threads)) if rl.rlim_cur == lowered => {
                restore(rl, lowered, threads);
                return;
            }
            _ if rl.rlim_cur == libc::RLIM_INFINITY => {
                // Not ours to follow, and never a second re-execution.
                set_state(State::GuardPresent, 0);
                return;
            }
            _ => return,
        }
    }
    if rl.rlim_cur != libc::RLIM_INFINITY {
        return;
    }
    let mib = options::unlimited_stack_mib();
    if mib == 0 {
        set_state(State::Disabled, 0);
        return;
    }
    if argv.is_null() {
        set_state(State::NoArgv, 0);
        return;
    }
    let lowered = mib.saturating_mul(1 << 20).min(rl.rlim_max);
    let threads = default_thread_stack();
    let low = libc::rlimit {
        rlim_cur: lowered,
        rlim_max: rl.rlim_max,
    };
    // The new environment: the old one without guards, plus ours.
    let mut entry = StackBuf::<96>::new();
    {
        use core::fmt::Write;
        let _ = write!(entry, "{GUARD}={lowered}:{threads}");
    }
    let Some(entry) = entry.as_cstr() else {
        set_state(State::ExecFailed, libc::E2BIG);
        return;
    };
    let mut env: MmapVec<*const c_char> = MmapVec::new();
    let mut complete = true;
    let mut e = envp;
    while !e.is_null() {
        // SAFETY: a NULL-terminated array.
        let s = unsafe { *e };
        if s.is_null() {
            break;
        }
        // SAFETY: NUL-terminated entries.
        if !is_guard(unsafe { cstr(s) }) {
            complete &= env.push(s);
        }
        // SAFETY: still inside the array.
        e = unsafe { e.add(1) };
    }
    complete &= env.push(entry);
    complete &= env.push(core::ptr::null());
    if !complete {
        set_state(State::ExecFailed, libc::ENOMEM);
        return;
    }
    // SAFETY: setrlimit reads the struct.
    if unsafe { libc::setrlimit(libc::RLIMIT_STACK, &low) } != 0 {
        set_state(State::SetrlimitFailed, errno());
        return;
    }
    // SAFETY: argv and env are NULL-terminated arrays of NUL-terminated strings.
    unsafe { libc::execve(c"/proc/self/exe".as_ptr(), argv, env.as_slice().as_ptr()) };
    // Still here: execve failed. Put the limit back as the user set it.
    let err = errno();
    // SAFETY: as above.
    unsafe { libc::setrlimit(libc::RLIMIT_STACK, &rl) };
    set_state(State::ExecFailed, err);
}

/// In the re-executed process: the limit back to unlimited, the thread stack size back
/// to what glibc chose under it.
fn restore(rl: libc::rlimit, lowered: u64, threads: u64) {
    LOWERED.store(lowered, Relaxed);
    set_state(State::Reexecuted, 0);
    let unlimited = libc::rlimit {
        rlim_cur: libc::RLIM_INFINITY,
        rlim_max: rl.rlim_max,
    };
    // SAFETY: setrlimit reads the struct.
    if unsafe { libc::setrlimit(libc::RLIMIT_STACK, &unlimited) } != 0 {
        let e = errno();
        crate::diag!(
            "warning: re-executed with a stack size limit of {} MiB (an unlimited limit puts shared libraries where the shadow memory goes), but cannot set it back to unlimited: {} (errno {}); the program sees the finite limit",
            lowered >> 20,
            errno_text(e),
            e
        );
    }
    if threads > 0 && !set_default_thread_stack(threads as usize) {
        crate::diag!(
            "warning: cannot set the default thread stack size back to {} bytes after re-executing; new threads get {} bytes",
            threads,
            default_thread_stack()
        );
    }
    if options::verbose() {
        crate::diag!(
            "re-executed with a stack size limit of {} MiB (the unlimited limit's memory layout overlaps the shadow); limit set back to unlimited, default thread stack {} bytes",
            lowered >> 20,
            default_thread_stack()
        );
    }
}

/// Explains a failed shadow reservation (`EEXIST`) caused by an unlimited stack limit;
/// returns false (printing nothing) if the limit is not the cause.
pub fn explain_reservation_failure() -> bool {
    let state = state();
    if state == State::Reexecuted || !unlimited_now() {
        return false;
    }
    crate::diag!(
        "the stack size limit is unlimited (`ulimit -s unlimited`): with it, the kernel maps shared libraries from 0x2aaaaaaab000 up, inside that range"
    );
    let e = ERRNO.load(Relaxed);
    match state {
        State::Disabled => crate::diag!(
            "the runtime re-executes such programs with a finite limit, but TAINTPROF_UNLIMITED_STACK_MIB=0 turned that off"
        ),
        State::GuardPresent => crate::diag!(
            "the runtime re-executes such programs with a finite limit, but {} was already set in the environment, so it did not (it never re-executes twice)",
            GUARD
        ),
        State::SetrlimitFailed => crate::diag!(
            "the runtime re-executes such programs with a finite limit, but lowering the limit failed: {} (errno {})",
            errno_text(e),
            e
        ),
        State::ExecFailed => crate::diag!(
            "the runtime re-executes such programs with a finite limit, but execve(/proc/self/exe) failed: {} (errno {}); is /proc mounted?",
            errno_text(e),
            e
        ),
        State::NoArgv => crate::diag!(
            "the runtime re-executes such programs with a finite limit, but start-up got no argv to do it with"
        ),
        State::Finite | State::Reexecuted => {}
    }
    let deep = match options::unlimited_stack_mib() {
        0 => DEFAULT_MIB,
        n => n,
    };
    crate::diag!(
        "set a finite limit before running the program: `ulimit -s 8192` (8 MiB, the usual default), or `ulimit -s {}` ({} MiB) for a deep main stack",
        deep.saturating_mul(1024),
        deep
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guards_parse() {
        assert_eq!(parse_guard(b"8589934592:2097152"), Some((8 << 30, 2 << 20)));
        assert_eq!(parse_guard(b"8589934592"), None);
        assert_eq!(parse_guard(b"x:1"), None);
        assert_eq!(parse_guard(b":"), None);
    }

    #[test]
    fn guards_are_removed_in_place() {
        let a = c"A=1";
        let g = c"TAINTPROF_REEXEC=1:2";
        let b = c"TAINTPROF_REEXECX=3";
        let mut env = [
            a.as_ptr(),
            g.as_ptr(),
            b.as_ptr(),
            g.as_ptr(),
            core::ptr::null(),
        ];
        unsafe { remove_guard(env.as_mut_ptr() as *const *const c_char) };
        assert_eq!(env[0], a.as_ptr());
        assert_eq!(env[1], b.as_ptr());
        assert!(env[2].is_null());
    }
}
