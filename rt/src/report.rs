//! What a process writes when it ends: a raw record of the run, never an analysed
//! report. The runtime records, the driver analyses (docs/design.md, decision 7): in
//! taint mode the raw run record (`<prog>.<pid>.taintprof.rec`, [`crate::record`],
//! `docs/internal/record.md`), from which `taintprof-model` makes the taint report
//! (`docs/report-schema.md`) offline (`taintprof report`, `taintprof run`); in denormal
//! mode the denormal record (`<prog>.<pid>.denormal.rec`, [`crate::denormal::record`]),
//! from which it makes the denormal report (`taintprof denormals`, `taintprof run`).
//!
//! ## When
//!
//! * At exit ([`final_report`] from the `on_exit` hook registered at start-up): `exit()`
//!   and a return from `main` both get there, with the exit status.
//! * On a fatal signal ([`on_fatal_signal`], from [`crate::signals`]).
//! * On request: `tp_write_report()` writes the output of the run so far under the same
//!   name; the final one replaces it.
//!
//! The final output is written once per process: an atomic state decides between a
//! racing `exit` and signal, and a signal arriving while another thread writes waits for
//! it (bounded) before the process dies. A mid-run output never replaces a final one.
//!
//! ## Where
//!
//! `$TAINTPROF_OUT/<prog>.<pid>.<suffix>` (default directory: the working directory at
//! start-up; created if missing; `<prog>.before-exec.<pid>` before an `exec`), written to
//! a temporary file in the same directory and renamed into place, then `taintprof:
//! record written to <path> (`taintprof report` reads it)` on stderr (`taintprof
//! denormals` for a denormal record)
//! (`TAINTPROF_QUIET=1` silences it). `<prog>` is the basename of `/proc/self/exe`.
//!
//! ## How
//!
//! Read lock-free from the registered module descriptors and every thread's
//! calling-context tree. Nothing on this path calls malloc or takes a lock (scratch
//! arrays are [`MmapVec`]s, nothing recurses), so it can run inside a signal handler,
//! even one that interrupted malloc.

use core::ffi::c_char;
use core::fmt::Write as _;
use core::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering::*};

use taintprof_abi::ModuleDesc;
use taintprof_sigsafe::file::{mkdir_p, write_atomic, Durability};
use taintprof_sigsafe::json::{Json, Sink};
use taintprof_sigsafe::{
    cstr, errno_text, getpid, gettid, now_ns, sleep_ms, thread_alive, Lossy, MmapVec, StackBuf,
};

use crate::context::{self, ThreadState};
use crate::params::Registry;
use crate::{init, modules, options, signals};

/// The bytes of a NUL-terminated C string (empty for null).
fn s<'a>(p: *const c_char) -> &'a [u8] {
    // SAFETY: argv strings are NUL-terminated or null (then empty).
    unsafe { cstr(p) }
}

/// Why the report is being written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Normal exit with this status (`exit(status)` or a return from `main`).
    Code(i32),
    /// Killed by this signal.
    Signal(i32),
    /// Mid-run report (`tp_write_report`).
    Running,
    /// `_exit(status)` / `_Exit(status)`: no exit handlers run, the runtime's wrapper
    /// writes the report first.
    Immediate(i32),
    /// The process replaces its program (`execve` and friends); the report covers the
    /// run until then.
    Exec,
}

/// The `program` (name, path, argv, pid) and `exit` objects, the same in the taint and
/// the denormal report.
pub fn write_program_and_exit<S: Sink>(
    j: &mut Json<S>,
    name: &[u8],
    path: &[u8],
    argv: &[*const c_char],
    pid: i32,
    exit: Exit,
) {
    j.key("program");
    j.begin_object();
    j.kv_bytes("name", name);
    j.kv_bytes("path", path);
    j.key("argv");
    j.begin_array();
    for &a in argv {
        if !a.is_null() {
            j.bytes(s(a));
        }
    }
    j.end_array();
    j.kv_i64("pid", pid as i64);
    j.end_object();
    j.key("exit");
    j.begin_object();
    match exit {
        Exit::Code(c) => {
            j.kv_str("reason", "exit");
            j.kv_i64("code", (c & 0xff) as i64);
        }
        Exit::Signal(sig) => {
            j.kv_str("reason", "signal");
            j.kv_str("signal", signals::name(sig));
            j.kv_i64("number", sig as i64);
        }
        Exit::Running => j.kv_str("reason", "running"),
        Exit::Immediate(c) => {
            j.kv_str("reason", "_exit");
            j.kv_i64("code", (c & 0xff) as i64);
        }
        Exit::Exec => j.kv_str("reason", "exec"),
    }
    let in_flight = crate::inflight::count();
    if in_flight > 0 {
        j.kv_u64("loops_in_flight", in_flight as u64);
    }
    j.end_object();
}

/// Everything a report is built from.
pub struct Inputs<'a> {
    pub name: &'a [u8],
    pub path: &'a [u8],
    pub argv: &'a [*const c_char],
    pub pid: i32,
    pub exit: Exit,
    /// Registered modules, in registration order.
    pub modules: &'a [*const ModuleDesc],
    /// Threads that ran instrumented code, in creation order.
    pub threads: &'a [*const ThreadState],
    pub params: &'a Registry,
    /// Some thread ran out of memory for its context tree.
    pub context_oom: bool,
    /// Include the process-wide list of refused modules in the warnings.
    pub rejected_modules: bool,
}

// ----------------------------------------------------------------------------------
// Files, once-only logic, entry points
// ----------------------------------------------------------------------------------

/// `/proc/self/exe`, and the program name (its basename).
pub(crate) struct ProgramId {
    pub(crate) path: StackBuf<4096>,
    name_at: usize,
}

impl ProgramId {
    pub(crate) fn get() -> Self {
        let mut buf = [0u8; 4096];
        // SAFETY: readlink into a local buffer.
        let n = unsafe {
            libc::readlink(
                c"/proc/self/exe".as_ptr(),
                buf.as_mut_ptr().cast(),
                buf.len(),
            )
        };
        let mut path = StackBuf::new();
        if n > 0 {
            let mut p = buf.get(..n as usize).unwrap_or(&[]);
            if let Some(stripped) = p.strip_suffix(b" (deleted)") {
                p = stripped;
            }
            path.push_bytes(p);
        } else if let Some(&a0) = init::argv().first() {
            path.push_bytes(s(a0));
        }
        if path.is_empty() {
            path.push_bytes(b"unknown");
        }
        let name_at = path
            .as_bytes()
            .iter()
            .rposition(|&c| c == b'/')
            .map(|i| i + 1)
            .unwrap_or(0);
        ProgramId { path, name_at }
    }
    pub(crate) fn name(&self) -> &[u8] {
        match self.path.as_bytes().get(self.name_at..) {
            Some(n) if !n.is_empty() => n,
            _ => b"unknown",
        }
    }
}

/// From this many calling contexts on, writing the report takes long enough to say so
/// (on a terminal; always with `TAINTPROF_VERBOSE=1`).
pub const LARGE_REPORT_CONTEXTS: u64 = 100_000;

pub(crate) fn monotonic_secs() -> f64 {
    now_ns() as f64 * 1e-9
}

/// Announces a report that will take a while to write; returns the start time if so.
fn announce_writing() -> Option<f64> {
    let time = crate::time::active() && modules::count() == 0;
    if time || crate::denormal::mode::report_is_denormal() {
        if !options::verbose() {
            return None;
        }
        crate::diag!(
            "writing the {} record",
            if time { "time" } else { "denormal" }
        );
        return Some(monotonic_secs());
    }
    let contexts = context::context_count();
    let big = contexts >= LARGE_REPORT_CONTEXTS;
    if !(options::verbose() || (big && !options::quiet())) {
        return None;
    }
    crate::diag!(
        "writing the record: {} calling contexts in {} thread{}{}",
        contexts,
        context::thread_count(),
        if context::thread_count() == 1 {
            ""
        } else {
            "s"
        },
        if big { " (this can take a while)" } else { "" }
    );
    Some(monotonic_secs())
}

/// `1.5 MB in 0.42 s`
pub(crate) struct SizeAndTime(pub(crate) u64, pub(crate) f64);
impl core::fmt::Display for SizeAndTime {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let b = self.0;
        if b >= 1 << 20 {
            write!(f, "{:.1} MB", b as f64 / (1u64 << 20) as f64)?;
        } else {
            write!(f, "{:.1} kB", b as f64 / 1024.0)?;
        }
        write!(f, " in {:.2} s", self.1)
    }
}

/// Takes the last snapshot of a denormal-mode run (none for a mid-run output).
fn final_snapshot(exit: Exit) {
    let last = match exit {
        Exit::Code(_) => Some(&b"exit"[..]),
        Exit::Signal(sig) => Some(signals::name(sig).as_bytes()),
        Exit::Immediate(_) => Some(&b"_exit"[..]),
        Exit::Exec => Some(&b"exec"[..]),
        Exit::Running => None,
    };
    if let Some(why) = last {
        crate::denormal::snapshot::take_final(why);
    }
}

/// The report's file sink as the denormal writer's [`taintprof_record::Out`].
struct DnFileOut<'a>(&'a mut taintprof_sigsafe::io::FdSink);

impl taintprof_record::Out for DnFileOut<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> bool {
        self.0.put(bytes);
        self.0.error().is_none()
    }
}

/// Writes the denormal record (`<prog>[.rank<R>].<pid>.denormal.rec`,
/// [`crate::denormal::record`]) for `exit` into its final place, atomically. The number
/// of bytes, or Err(errno); `path_out` says where either way.
fn write_denormal_record(exit: Exit, path_out: &mut StackBuf<4096>) -> Result<u64, i32> {
    let prog = ProgramId::get();
    let pid = getpid();
    // With the MPI rank in the name, as the raw run record's.
    crate::record::output_path(&prog, pid, exit, "denormal.rec", path_out)?;
    write_atomic(path_out.as_bytes(), Durability::Rename, |sink| {
        let inp = crate::denormal::record::Inputs {
            name: prog.name(),
            path: prog.path.as_bytes(),
            argv: init::argv(),
            pid,
            exit,
        };
        crate::denormal::record::write_record(&inp, DnFileOut(sink));
    })
}

/// `<dir>/<prog>[.before-exec].<pid>.<suffix>` in the report directory (created if
/// missing), into `path_out`: the name of every file this process writes for `exit`
/// (`suffix` `taintprof.rec` for the raw run record, `denormal.rec` for the denormal
/// record). `Err(ENAMETOOLONG)` if it does not fit.
pub(crate) fn output_path(
    prog: &ProgramId,
    pid: i32,
    exit: Exit,
    suffix: &str,
    path_out: &mut StackBuf<4096>,
) -> Result<(), i32> {
    let od = options::out_dir();
    let dir: &[u8] = if od.is_empty() { b"." } else { od };
    mkdir_p(dir);
    path_out.clear();
    // Before an exec the pid stays and the new program may have the same name: the
    // report of the part before it gets a name of its own.
    let before_exec = if exit == Exit::Exec {
        ".before-exec"
    } else {
        ""
    };
    let _ = write!(
        path_out,
        "{}/{}{}.{}.{}",
        Lossy(dir),
        Lossy(prog.name()),
        before_exec,
        pid,
        suffix
    );
    if path_out.truncated {
        return Err(libc::ENAMETOOLONG);
    }
    Ok(())
}

/// Calls `f` with the inputs of this process's taint report (and raw run record): the
/// registered modules in registration order, every thread in creation order.
pub(crate) fn with_inputs<R>(
    prog: &ProgramId,
    pid: i32,
    exit: Exit,
    f: impl FnOnce(&Inputs<'_>) -> R,
) -> R {
    let mut mods: MmapVec<*const ModuleDesc> = MmapVec::new();
    modules::for_each(|m| {
        mods.push(m);
    });
    mods.as_mut_slice().reverse();
    let mut threads: MmapVec<*const ThreadState> = MmapVec::new();
    context::for_each_thread(|t| {
        threads.push(t);
    });
    threads.as_mut_slice().reverse();
    let inp = Inputs {
        name: prog.name(),
        path: prog.path.as_bytes(),
        argv: init::argv(),
        pid,
        exit,
        modules: mods.as_slice(),
        threads: threads.as_slice(),
        params: &crate::params::REGISTRY,
        context_oom: context::out_of_memory(),
        rejected_modules: true,
    };
    f(&inp)
}

/// What writing this process's output for one exit did.
struct Written {
    /// Bytes written, or the errno.
    result: Result<u64, i32>,
    /// Seconds it took (when they are shown).
    secs: Option<f64>,
    /// The file is the denormal record (denormal mode); else the raw run record.
    denormal: bool,
    /// The file is the time record (time mode).
    time: bool,
}

/// Writes this process's output for `exit` into `path`: in taint mode the raw run
/// record ([`crate::record`]) from one snapshot of the loops in flight (the driver makes
/// the report from it, `taintprof report`); in denormal mode the denormal record, after
/// the last snapshot ([`crate::denormal::record`]; `taintprof denormals`).
/// `timed`: measure it (the message shows the time).
fn write_outputs(exit: Exit, timed: bool, path: &mut StackBuf<4096>) -> Written {
    let t0 = timed.then(monotonic_secs);
    // Time mode: only time-mode modules registered (a program is built in one mode).
    if crate::time::active() && modules::count() == 0 {
        WRITING_RECORD.store(true, SeqCst);
        let result = write_time_record(exit, path);
        WRITING_RECORD.store(false, SeqCst);
        return Written {
            result,
            secs: t0.map(|a| monotonic_secs() - a),
            denormal: false,
            time: true,
        };
    }
    if crate::denormal::mode::report_is_denormal() {
        final_snapshot(exit);
        WRITING_RECORD.store(true, SeqCst);
        let result = write_denormal_record(exit, path);
        WRITING_RECORD.store(false, SeqCst);
        return Written {
            result,
            secs: t0.map(|a| monotonic_secs() - a),
            denormal: true,
            time: false,
        };
    }
    crate::inflight::snapshot();
    WRITING_RECORD.store(true, SeqCst);
    let result = crate::record::write_file(exit, path);
    WRITING_RECORD.store(false, SeqCst);
    crate::inflight::clear();
    Written {
        result,
        secs: t0.map(|a| monotonic_secs() - a),
        denormal: false,
        time: false,
    }
}

/// Writes the time record (`<prog>[.rank<R>].<pid>.taintprof-time.rec`,
/// [`crate::time::record`]) for `exit`, atomically. The number of bytes, or Err(errno).
fn write_time_record(exit: Exit, path_out: &mut StackBuf<4096>) -> Result<u64, i32> {
    let prog = ProgramId::get();
    let pid = getpid();
    crate::record::output_path(&prog, pid, exit, "taintprof-time.rec", path_out)?;
    write_atomic(path_out.as_bytes(), Durability::Rename, |sink| {
        let inp = crate::time::record::Inputs {
            name: prog.name(),
            path: prog.path.as_bytes(),
            argv: init::argv(),
            pid,
            exit,
        };
        crate::time::record::write_record(&inp, DnFileOut(sink));
    })
}

/// The record is being written (what a crash of the writer loses).
static WRITING_RECORD: AtomicBool = AtomicBool::new(false);

/// 0 = not written, 1 = being written (by `FINAL_TID`), 2 = done.
static FINAL_STATE: AtomicU32 = AtomicU32::new(0);
static FINAL_TID: AtomicI32 = AtomicI32::new(0);
/// Thread writing a mid-run report (0 = none).
static MIDRUN_WRITER: AtomicI32 = AtomicI32::new(0);

/// What a final-report attempt did.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Written,
    Failed,
    Disabled,
    /// Another caller wrote (or is writing) the final report.
    AlreadyDone,
    /// This thread was already writing it (the runtime crashed while writing).
    Reentered,
}

fn report_error(w: &Written, path: &StackBuf<4096>, err: i32) {
    crate::diag!(
        "error: could not write the {} to {}: {} (errno {}); set TAINTPROF_OUT to a writable directory",
        what(w),
        Lossy(path.as_bytes()),
        errno_text(err),
        err
    );
}

/// What was written, for messages.
fn what(_: &Written) -> &'static str {
    "record"
}

/// ` (`taintprof report` reads it)` after a record's line (`taintprof denormals` for a
/// denormal record): a user who ran the program directly learns what to do with the
/// file.
struct ReadHint<'a>(&'a Written);
impl core::fmt::Display for ReadHint<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.0.time {
            f.write_str(" (`taintprof run` shows it)")
        } else if self.0.denormal {
            f.write_str(" (`taintprof denormals` reads it)")
        } else {
            f.write_str(" (`taintprof report` reads it)")
        }
    }
}

/// Writes the final report, once per process. `exit` says why.
pub fn final_report(exit: Exit) -> Outcome {
    if !options::report_enabled() {
        return Outcome::Disabled;
    }
    let me = gettid();
    match FINAL_STATE.compare_exchange(0, 1, SeqCst, SeqCst) {
        Ok(_) => FINAL_TID.store(me, SeqCst),
        Err(1) => {
            if FINAL_TID.load(SeqCst) == me {
                return Outcome::Reentered;
            }
            // Another thread is writing: give it time before this thread dies.
            for _ in 0..10_000 {
                if FINAL_STATE.load(SeqCst) == 2 {
                    break;
                }
                sleep_ms(1);
            }
            return Outcome::AlreadyDone;
        }
        Err(_) => return Outcome::AlreadyDone,
    }
    // A mid-run report in flight on another thread must not land after ours.
    for _ in 0..5_000 {
        let w = MIDRUN_WRITER.load(SeqCst);
        if w == 0 || w == me || !thread_alive(w) {
            break;
        }
        sleep_ms(1);
    }
    let mut path = StackBuf::<4096>::new();
    let started = announce_writing();
    let w = write_outputs(exit, started.is_some(), &mut path);
    FINAL_STATE.store(2, SeqCst);
    match w.result {
        Ok(bytes) => {
            let mut took = StackBuf::<64>::new();
            if let Some(secs) = w.secs {
                let _ = write!(took, " ({})", SizeAndTime(bytes, secs));
            }
            match exit {
                Exit::Signal(sig) if !options::quiet_on_signal() => {
                    let prog = ProgramId::get();
                    crate::diag!(
                        "{} received {}; partial {} written to {}{}{}",
                        Lossy(prog.name()),
                        signals::name(sig),
                        what(&w),
                        Lossy(path.as_bytes()),
                        Lossy(took.as_bytes()),
                        ReadHint(&w)
                    )
                }
                Exit::Signal(_) => {}
                _ if !options::quiet() || started.is_some() => {
                    crate::diag!(
                        "{} written to {}{}{}",
                        what(&w),
                        Lossy(path.as_bytes()),
                        Lossy(took.as_bytes()),
                        ReadHint(&w)
                    )
                }
                _ => {}
            }
            Outcome::Written
        }
        Err(e) => {
            if let Exit::Signal(sig) = exit {
                crate::diag!(
                    "received {}; no {} could be written",
                    signals::name(sig),
                    what(&w)
                );
            }
            report_error(&w, &path, e);
            Outcome::Failed
        }
    }
}

/// After a failed exec (whose report was written as the final one): the program goes
/// on, so its report at exit must be written too.
pub fn reopen_after_failed_exec() {
    let _ = FINAL_STATE.compare_exchange(2, 0, SeqCst, SeqCst);
}

/// From the fatal-signal handler.
pub fn on_fatal_signal(sig: i32) {
    if final_report(Exit::Signal(sig)) == Outcome::Reentered {
        if WRITING_RECORD.load(SeqCst) {
            crate::diag!(
                "error: {} while writing the raw run record; the record is lost (this is a taintprof bug)",
                signals::name(sig)
            );
        } else {
            crate::diag!(
                "error: {} while writing the report; the report is lost (this is a taintprof bug)",
                signals::name(sig)
            );
        }
    }
}

/// Writes a report of the run so far (mid-run). Returns true if one was written.
pub fn midrun_report() -> bool {
    if !options::report_enabled() {
        return false;
    }
    let me = gettid();
    loop {
        if FINAL_STATE.load(SeqCst) != 0 {
            return false;
        }
        match MIDRUN_WRITER.compare_exchange(0, me, SeqCst, SeqCst) {
            Ok(_) => break,
            Err(w) if w == me => return false,
            Err(w) => {
                if !thread_alive(w) {
                    let _ = MIDRUN_WRITER.compare_exchange(w, 0, SeqCst, SeqCst);
                } else {
                    sleep_ms(1);
                }
            }
        }
    }
    let mut ok = false;
    if FINAL_STATE.load(SeqCst) == 0 {
        let mut path = StackBuf::<4096>::new();
        let w = write_outputs(Exit::Running, false, &mut path);
        match w.result {
            Ok(_) => {
                ok = true;
                if !options::quiet() {
                    crate::diag!(
                        "{} written to {}{}",
                        what(&w),
                        Lossy(path.as_bytes()),
                        ReadHint(&w)
                    );
                }
            }
            Err(e) => report_error(&w, &path, e),
        }
    }
    MIDRUN_WRITER.store(0, SeqCst);
    ok
}

/// `void tp_write_report(void)`: write a report of the run so far now. The report
/// written at exit replaces it (same file name).
#[no_mangle]
pub extern "C" fn tp_write_report() {
    midrun_report();
}

#[cfg(test)]
mod v2_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::__tp_enter;
    use crate::context::__tp_loop_exit;
    use core::ffi::CStr;
    use serde_json::Value;
    use taintprof_abi::{
        FuncDesc, Label, LoopDesc, SiteDesc, SrcLoc, ABI_VERSION, LOOP_CONST_TRIP, MODULE_MAGIC,
        MODULE_NO_DEBUG_INFO,
    };

    use crate::test_descriptors::{leak, leak_chain as chain, src_loc as l};
    fn site(v: Vec<SrcLoc>) -> usize {
        let (c, n) = chain(v);
        leak(SiteDesc {
            chain: c,
            n_chain: n,
            flags: 0,
            loop_: core::ptr::null(),
        })
    }
    fn lp(v: Vec<SrcLoc>, flags: u32, trip: u64) -> LoopDesc {
        let (c, n) = chain(v);
        LoopDesc {
            chain: c,
            n_chain: n,
            flags,
            const_trip_count: trip,
            parent: core::ptr::null(),
            func: core::ptr::null(),
            routine: core::ptr::null(),
            cost: core::ptr::null(),
        }
    }
    fn fd(loc: SrcLoc) -> FuncDesc {
        FuncDesc {
            loc,
            flags: 1,
            n_loops: 0,
        }
    }
    fn module(src: &'static CStr, funcs: Vec<FuncDesc>, loops: Vec<LoopDesc>, flags: u32) -> usize {
        let nf = funcs.len() as u32;
        let nl = loops.len() as u32;
        leak(ModuleDesc {
            magic: MODULE_MAGIC,
            abi_version: ABI_VERSION,
            source_file: src.as_ptr(),
            funcs: Box::leak(funcs.into_boxed_slice()).as_ptr(),
            n_funcs: nf,
            n_loops: nl,
            loops: Box::leak(loops.into_boxed_slice()).as_ptr(),
            branches: core::ptr::null_mut(),
            n_branches: 0,
            flags,
            next: core::ptr::null_mut(),
        })
    }
    fn enter(p: usize, s: usize, f: usize) -> usize {
        unsafe { __tp_enter(p as *mut _, s as *const SiteDesc, f as *const FuncDesc) as usize }
    }
    fn exit(n: usize, l: usize, label: Label) {
        unsafe { __tp_loop_exit(n as *mut _, l as *const LoopDesc, label) }
    }
    fn current() -> usize {
        context::current_thread() as usize
    }

    struct World {
        m1: usize,
        m2: usize,
        f_main: usize,
        f_kernel: usize,
        f_rec: usize,
        f_helper: usize,
        l1: usize,
        a: usize,
        b: usize,
        s48: usize,
        s50: usize,
        s52: usize,
        s60: usize,
    }

    fn world() -> World {
        let p = c"prog.c";
        let m1 = module(
            c"prog.c",
            vec![
                fd(l(c"main", p, 40, 40, 1)),
                fd(l(c"kernel", p, 10, 10, 1)),
                fd(l(c"rec", p, 30, 30, 1)),
            ],
            vec![
                lp(vec![l(c"kernel", p, 10, 12, 3)], 0, 0),
                lp(vec![l(c"kernel", p, 10, 15, 5)], LOOP_CONST_TRIP, 8),
                // helper's loop inlined into kernel at 13:7.
                lp(
                    vec![l(c"kernel", p, 10, 13, 7), l(c"helper", p, 3, 5, 3)],
                    0,
                    0,
                ),
                // A loop without debug info.
                lp(vec![l(c"rec", p, 30, 0, 0)], 0, 0),
            ],
            0,
        );
        // helper's out-of-line copy in another TU (linkonce).
        let m2 = module(
            c"other.c",
            vec![fd(l(c"helper", p, 3, 3, 1))],
            vec![lp(vec![l(c"helper", p, 3, 5, 3)], 0, 0)],
            MODULE_NO_DEBUG_INFO,
        );
        let md = |m: usize| unsafe { &*(m as *const ModuleDesc) };
        let f = |m: usize, i: usize| unsafe { md(m).funcs.add(i) } as usize;
        let lo = |m: usize, i: usize| unsafe { md(m).loops.add(i) } as usize;
        World {
            m1,
            m2,
            f_main: f(m1, 0),
            f_kernel: f(m1, 1),
            f_rec: f(m1, 2),
            f_helper: f(m2, 0),
            l1: lo(m1, 0),
            a: lo(m1, 2),
            b: lo(m2, 0),
            s48: site(vec![l(c"main", p, 40, 48, 5)]),
            s50: site(vec![l(c"main", p, 40, 50, 5)]),
            s52: site(vec![l(c"main", p, 40, 52, 5)]),
            s60: site(vec![l(c"rec", p, 30, 33, 9)]),
        }
    }

    /// The report of `inp` as the driver makes it: the model of the runtime's record.
    fn run(inp: &Inputs<'_>) -> Value {
        crate::test_descriptors::model_report(inp)
    }

    fn build() -> (World, Vec<usize>, &'static Registry) {
        let w = world();
        let reg: &'static Registry = Box::leak(Box::new(Registry::new()));
        for n in ["n", "m", "k"] {
            reg.register(Some(n.as_bytes())).unwrap();
        }
        let (f_main, f_kernel, f_rec, f_helper) = (w.f_main, w.f_kernel, w.f_rec, w.f_helper);
        let (l1, a, b, s48, s50, s52, s60) = (w.l1, w.a, w.b, w.s48, w.s50, w.s52, w.s60);
        let t1 = std::thread::spawn(move || {
            let m = enter(0, s60, f_main); // root child: the site is ignored
            let k = enter(m, s48, f_kernel);
            exit(k, l1, 0b001);
            exit(k, a, 0b010);
            let k2 = enter(m, s50, f_kernel);
            exit(k2, l1, 0);
            let h = enter(m, s52, f_helper);
            exit(h, b, 0);
            let r = enter(m, s48, f_rec);
            let r2 = enter(r, s60, f_rec);
            assert_eq!(r, r2);
            current()
        })
        .join()
        .unwrap();
        let t2 = std::thread::spawn(move || {
            let m = enter(0, 0, f_main);
            let k = enter(m, s48, f_kernel);
            exit(k, l1, 0b100);
            current()
        })
        .join()
        .unwrap();
        (w, vec![t1, t2], reg)
    }

    fn inputs<'a>(
        w: &'a World,
        mods: &'a [*const ModuleDesc],
        threads: &'a [*const ThreadState],
        reg: &'a Registry,
        exit: Exit,
    ) -> Inputs<'a> {
        let _ = w;
        Inputs {
            name: b"prog",
            path: b"/bin/prog",
            argv: &[],
            pid: 42,
            exit,
            modules: mods,
            threads,
            params: reg,
            context_oom: false,
            rejected_modules: false,
        }
    }

    fn find<'a>(v: &'a Value, name: &str) -> &'a Value {
        v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("no function {name}"))
    }

    #[test]
    fn report_structure_merging_and_contexts() {
        let (w, threads, reg) = build();
        let mods = [w.m1 as *const ModuleDesc, w.m2 as *const ModuleDesc];
        let ths: Vec<*const ThreadState> =
            threads.iter().map(|&t| t as *const ThreadState).collect();
        let v = run(&inputs(&w, &mods, &ths, reg, Exit::Code(3)));

        assert_eq!(v["schema"], "taintprof.taint");
        assert_eq!(v["version"], 4);
        assert_eq!(v["taintprof_version"], crate::VERSION);
        assert_eq!(v["program"]["name"], "prog");
        assert_eq!(v["program"]["pid"], 42);
        assert_eq!(v["exit"], serde_json::json!({"reason": "exit", "code": 3}));
        assert_eq!(v["threads"], 2);
        assert_eq!(v["parameters"], serde_json::json!(["n", "m", "k"]));
        assert_eq!(
            v["parameter_info"][1],
            serde_json::json!({"name": "m", "bit": 1, "registrations": 1})
        );
        assert_eq!(
            v["modules"][0],
            serde_json::json!({"source": "prog.c", "functions": 3, "loops": 4, "library_loops": 0, "folded_loops": 0})
        );
        assert_eq!(v["modules"][1]["source"], "other.c");
        assert_eq!(v["options"]["control_flow"], false);

        // Functions: every written function once, sorted by file, line, name.
        let names: Vec<&str> = v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["helper", "kernel", "rec", "main"]);

        let kernel = find(&v, "kernel");
        assert_eq!(kernel["recursive"], false);
        assert_eq!(kernel["line"], 10);
        let kl = kernel["loops"].as_array().unwrap();
        assert_eq!(
            kl.len(),
            2,
            "helper's inlined loop belongs to helper, not kernel"
        );
        assert_eq!(
            (kl[0]["line"].as_u64(), kl[0]["column"].as_u64()),
            (Some(12), Some(3))
        );
        assert_eq!(kl[0]["params"], serde_json::json!(["n", "k"]));
        assert_eq!(kl[0]["executions"], 3);
        assert!(kl[0]["const_trip_count"].is_null());
        let ctx = kl[0]["contexts"].as_array().unwrap();
        assert_eq!(ctx.len(), 2, "the two threads' main@48 contexts merge");
        assert_eq!(
            ctx[0]["path"],
            serde_json::json!([{"function": "main", "file": "prog.c", "line": 48}])
        );
        assert_eq!(ctx[0]["params"], serde_json::json!(["n", "k"]));
        assert_eq!(ctx[0]["executions"], 2);
        assert_eq!(ctx[1]["path"][0]["line"], 50);
        assert_eq!(ctx[1]["params"], serde_json::json!([]));
        // The loop that never ran is there, with its constant trip count.
        assert_eq!(kl[1]["line"], 15);
        assert_eq!(kl[1]["executions"], 0);
        assert_eq!(kl[1]["const_trip_count"], 8);
        assert_eq!(kl[1]["contexts"], serde_json::json!([]));
        assert_eq!(kl[1]["params"], serde_json::json!([]));

        // helper: one loop from two descriptors (inlined copy + out-of-line copy).
        let helper = find(&v, "helper");
        let hl = helper["loops"].as_array().unwrap();
        assert_eq!(hl.len(), 1);
        assert_eq!(hl[0]["line"], 5);
        assert_eq!(hl[0]["executions"], 2);
        assert_eq!(hl[0]["params"], serde_json::json!(["m"]));
        let hc = hl[0]["contexts"].as_array().unwrap();
        assert_eq!(hc.len(), 2);
        assert_eq!(
            hc[0]["path"],
            serde_json::json!([
                {"function": "main", "file": "prog.c", "line": 48},
                {"function": "kernel", "file": "prog.c", "line": 13}
            ]),
            "node path, then the loop's inline chain minus its last entry"
        );
        assert_eq!(hc[0]["params"], serde_json::json!(["m"]));
        assert_eq!(
            hc[1]["path"],
            serde_json::json!([{"function": "main", "file": "prog.c", "line": 52}])
        );

        let rec = find(&v, "rec");
        assert_eq!(rec["recursive"], true);
        assert_eq!(rec["loops"][0]["line"], 0);
        assert_eq!(rec["loops"][0]["executions"], 0);
        assert_eq!(find(&v, "main")["loops"], serde_json::json!([]));

        let warnings: Vec<&str> = v["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("'rec'") && w.contains("recursive")),
            "{warnings:?}"
        );
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("other.c") && w.contains("debug info")),
            "{warnings:?}"
        );
        assert_eq!(v["rejected_parameters"], serde_json::json!([]));
    }

    #[test]
    fn report_without_threads_lists_every_loop_unexecuted() {
        let w = world();
        let reg = Registry::new();
        let mods = [w.m2 as *const ModuleDesc, w.m1 as *const ModuleDesc];
        let v = run(&inputs(&w, &mods, &[], &reg, Exit::Signal(libc::SIGSEGV)));
        assert_eq!(
            v["exit"],
            serde_json::json!({"reason": "signal", "signal": "SIGSEGV", "number": 11})
        );
        assert_eq!(v["threads"], 0);
        let total: usize = v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["loops"].as_array().unwrap().len())
            .sum();
        assert_eq!(total, 4, "5 descriptors, 4 distinct loops");
        for f in v["functions"].as_array().unwrap() {
            for l in f["loops"].as_array().unwrap() {
                assert_eq!(l["executions"], 0);
            }
        }
    }

    #[test]
    fn running_reports_say_so_and_strange_names_are_escaped() {
        let reg = Registry::new();
        reg.register_unchecked(b"we\"ird\nname\xff");
        for i in 0..16 {
            let _ = reg.register(Some(format!("x{i}").as_bytes()));
        }
        let argv = [c"./prog".as_ptr(), c"a\tb".as_ptr(), core::ptr::null()];
        let inp = Inputs {
            name: b"pr\"og",
            path: b"/tmp/pr\"og",
            argv: &argv,
            pid: 1,
            exit: Exit::Running,
            modules: &[],
            threads: &[],
            params: &reg,
            context_oom: true,
            rejected_modules: false,
        };
        let v = run(&inp);
        assert_eq!(v["exit"]["reason"], "running");
        assert_eq!(v["program"]["name"], "pr\"og");
        assert_eq!(v["program"]["argv"], serde_json::json!(["./prog", "a\tb"]));
        assert_eq!(v["parameters"][0], "we\"ird\nname\u{fffd}");
        assert_eq!(v["rejected_parameters"][0]["name"], "x15");
        assert_eq!(
            v["rejected_parameters"][0]["reason"],
            "at most 16 parameters can be registered"
        );
        let warnings = v["warnings"].to_string();
        assert!(warnings.contains("still running"));
        assert!(warnings.contains("out of memory for calling contexts"));
    }

    #[test]
    fn contexts_merge_by_content_across_threads_and_descriptors() {
        let w = world();
        let reg = Registry::new();
        let (f_main, f_kernel, l1, s48) = (w.f_main, w.f_kernel, w.l1, w.s48);
        let ths: Vec<usize> = (0..8)
            .map(|t| {
                std::thread::spawn(move || {
                    let m = enter(0, 0, f_main);
                    // A fresh SiteDesc whose content equals s48 (another descriptor, same site).
                    let mut cur = m;
                    for _ in 0..50 {
                        let s = site(vec![l(c"main", c"prog.c", 40, 48, 5)]);
                        let next = enter(cur, s, f_kernel);
                        // kernel -> kernel would fold (recursion); use it once only.
                        if next == cur {
                            break;
                        }
                        cur = next;
                    }
                    for _ in 0..=t {
                        exit(cur, l1, 1);
                    }
                    let k = enter(m, s48, f_kernel);
                    exit(k, l1, 0);
                    current()
                })
                .join()
                .unwrap()
            })
            .collect();
        let mods = [w.m1 as *const ModuleDesc, w.m2 as *const ModuleDesc];
        let tp: Vec<*const ThreadState> = ths.iter().map(|&t| t as *const ThreadState).collect();
        let v = run(&inputs(&w, &mods, &tp, &reg, Exit::Code(0)));
        let kl = &find(&v, "kernel")["loops"][0];
        // Every thread: main@48 -> kernel (recursion folds the second kernel) once with
        // label 1 and t+1 executions, then once more with label 0: one merged context.
        assert_eq!(kl["contexts"].as_array().unwrap().len(), 1, "{}", kl);
        assert_eq!(kl["executions"], (1..=8).sum::<u64>() + 8);
        assert_eq!(v["threads"], 8);
    }
}
