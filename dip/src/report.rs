//! The raw report, `<prog>.<pid>.dip-raw.json` (schema `taintprof.dip-raw`, version 1).
//!
//! Written once per process — at exit (`on_exit`) or when a signal kills it — into
//! `$TAINTPROF_OUT`, atomically: a temporary file in the same directory, then `rename`.
//! The writer streams JSON straight from the count table, `/proc/self/cmdline` and
//! `/proc/self/maps` through a fixed buffer: no allocation, no locks, so the same code
//! runs in a fatal-signal handler (even one that interrupted `malloc`).
//!
//! ```json
//! { "schema": "taintprof.dip-raw", "version": 1, "taintprof_version": "0.1.0",
//!   "program": { "name": "jacobi", "path": "/abs/jacobi", "argv": ["./jacobi"], "pid": 77 },
//!   "exit": { "reason": "exit", "code": 0 },
//!   "threads": 1, "threads_inherited_arming": 0,
//!   "options": { "underflow": false, "x87": true },
//!   "interval_ms": 100, "duration_ms": 2310,
//!   "fp_environment": { "mxcsr": "0x1f80", "x87_cw": "0x037f",
//!                       "armed_mxcsr": "0x1e80", "armed_x87_cw": "0x037d",
//!                       "mxcsr_at_exit": "0x1f80",
//!                       "ftz": false, "daz": false, "masked_again": false,
//!                       "changed_by_program": false, "changes": 0,
//!                       "observations": [ { "at": "exit", "mxcsr": "0x9f80", "x87_cw": "0x037d" } ] },
//!   "timeline": [ { "t_ms": 0, "operands": 1200, "results": 0 } ],
//!   "mappings": [ { "path": "/abs/jacobi", "start": "0x55d0c4a3c000", "end": "0x55d0c4a3d000",
//!                   "offset": "0x1000" } ],
//!   "events": [ { "address": "0x55d0c4a3c1a4", "operands": 1200, "results": 0 } ],
//!   "dropped_events": 0, "timeline_truncated": false,
//!   "x87": { "armed": true, "fld_completes": true,
//!            "replays": { "exact": 0, "adjusted": 0, "unverified": 0 }, "completed_loads": 0 },
//!   "emulated_events": 1200,
//!   "sampling": { "mode": "sampled", "scheme": "cpu-time windows", "period_ms": 10,
//!                 "overhead_pct": 10, "burst": 210, "windows": 31, "full_windows": 30,
//!                 "stray_events": 0, "event_cost_ns": 3100,
//!                 "full": { "samples": 9000, "window_ns": 31000000, "interval_ns": 300000000 },
//!                 "open": { "samples": 12, "interval_ns": 2000000 }, "timer_failures": 0,
//!                 "batch_weights": [ ... 16 ... ], "first_event_wait_us_log2": [ ... 16 ... ] },
//!   "step_slots_exhausted": 0 }
//! ```
//!
//! `emulated_events`: events handled by emulating the instruction instead of stepping
//! it (`emulate`). `sampling`: `{"mode": "exact"}`, or the sampled mode's windows
//! (`sampling`): `burst` the window size (events counted after a random skip of up to
//! as many), `full_windows` the windows that took their quota, `event_cost_ns` the
//! measured CPU cost of one event, `full`/`open` the intervals (a window's opening to
//! the next) whose window filled up or stayed open: the events counted in them, the
//! CPU time until the window was full, the intervals' CPU time;
//! `signal_taken_by_program` that the program installed a handler for the timer's
//! signal (no ticks from then on); `batch_weights` the
//! weighted events of the 16 window batches (weight 1 = 1000), and in sampled mode each
//! event has `"weighted"`, its share of them; `first_event_wait_us_log2` windows by the
//! wait for their first event (bucket i: 2^i to 2^(i+1) µs).
//!
//! `fp_environment.mxcsr`/`x87_cw` are the program's own values at start (before we
//! unmasked anything); `mxcsr_at_exit` the exiting thread's MXCSR at a normal exit (absent
//! when a signal ended the process), as the program would have it without us: the masks
//! we cleared set again, sticky exception flags dropped; `ftz`/`daz` say whether flush-to-zero / denormals-are-zero were
//! seen set at start or at any later observation; `masked_again` whether our exceptions
//! were seen masked; `changed_by_program` is either; `observations` the first distinct
//! changed states and where they were seen. `timeline` lists the non-empty buckets only
//! (`t_ms` = bucket × `interval_ms`). `mappings` are the executable mappings at the time
//! of writing; `events` are absolute instruction addresses.

use core::fmt::Write as _;
use core::sync::atomic::{AtomicI32, AtomicU32, Ordering::*};

use taintprof_sigsafe::file::{mkdir_p, write_atomic, Durability};
use taintprof_sigsafe::json::{escape, Sink as _};
use taintprof_sigsafe::{getpid, gettid, read_file, read_some, sleep_ms, FdSink, Lossy, StackBuf};

use crate::handlers::{GAVE_UP, X87_ADJUSTED, X87_COMPLETED, X87_EXACT, X87_UNVERIFIED};
use crate::{disp, fpenv, init, options, sampling, steps, table};

/// Why the report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

/// `format_args!` into the report (the sink remembers write errors itself).
fn put_fmt(out: &mut FdSink, args: core::fmt::Arguments<'_>) {
    let _ = out.write_fmt(args);
}

/// Program identity captured at start-up (before `main` could `chdir` or change
/// `argv[0]`): basename and path of `/proc/self/exe`.
static mut EXE: StackBuf<4096> = StackBuf::new();

pub fn capture_identity() {
    let mut buf = [0u8; 4095];
    // SAFETY: readlink into our buffer.
    let n = unsafe {
        libc::readlink(
            c"/proc/self/exe".as_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
        )
    };
    if n > 0 {
        // SAFETY: single-threaded start-up; nothing reads EXE yet.
        let exe = unsafe { &mut *core::ptr::addr_of_mut!(EXE) };
        exe.clear();
        exe.push_bytes(buf.get(..n as usize).unwrap_or(&[]));
    }
}

fn exe_path() -> &'static [u8] {
    // SAFETY: written once at start-up.
    unsafe { (*core::ptr::addr_of!(EXE)).as_bytes() }
}

fn exe_name() -> &'static [u8] {
    let p = exe_path();
    match p.iter().rposition(|&c| c == b'/') {
        Some(i) => p.get(i + 1..).unwrap_or(p),
        None if p.is_empty() => b"program",
        None => p,
    }
}

fn hex(out: &mut FdSink, v: u64) {
    put_fmt(out, format_args!("\"{:#x}\"", v));
}

fn write_json(out: &mut FdSink, exit: Exit, pid: i32) {
    out.put(
        b"{\n  \"schema\": \"taintprof.dip-raw\",\n  \"version\": 1,\n  \"taintprof_version\": ",
    );
    escape(out, crate::VERSION.as_bytes());
    out.put(b",\n  \"program\": { \"name\": ");
    escape(out, exe_name());
    out.put(b", \"path\": ");
    escape(out, exe_path());
    out.put(b", \"argv\": [");
    let mut cmd = [0u8; 32768];
    let n = read_file(b"/proc/self/cmdline", &mut cmd).unwrap_or(0);
    let args = cmd.get(..n).unwrap_or(&[]);
    let args = args.strip_suffix(b"\0").unwrap_or(args);
    if !args.is_empty() {
        for (i, a) in args.split(|&c| c == 0).enumerate() {
            if i > 0 {
                out.put(b", ");
            }
            escape(out, a);
        }
    }
    put_fmt(out, format_args!("], \"pid\": {} }},\n  \"exit\": ", pid));
    match exit {
        Exit::Code(c) => put_fmt(
            out,
            format_args!("{{ \"reason\": \"exit\", \"code\": {} }}", c & 0xff),
        ),
        Exit::Signal(s) => {
            out.put(b"{ \"reason\": \"signal\", \"signal\": ");
            escape(out, disp::name(s).as_bytes());
            put_fmt(out, format_args!(", \"number\": {} }}", s));
        }
    }
    put_fmt(out, format_args!(
        ",\n  \"threads\": {},\n  \"threads_inherited_arming\": {},\n  \"options\": {{ \"underflow\": {}, \"x87\": {} }},\n  \"interval_ms\": {},\n  \"duration_ms\": {},\n",
        init::threads(),
        init::threads_inherited_arming(),
        options::underflow(),
        options::x87(),
        options::interval_ms(),
        table::elapsed_ms()
    ));
    let f = fpenv::summary();
    put_fmt(
        out,
        format_args!(
            "  \"fp_environment\": {{ \"mxcsr\": \"{:#06x}\", \"x87_cw\": \"{:#06x}\", ",
            f.start_mx, f.start_cw
        ),
    );
    put_fmt(
        out,
        format_args!(
            "\"armed_mxcsr\": \"{:#06x}\", \"armed_x87_cw\": \"{:#06x}\", ",
            f.armed_mx, f.armed_cw
        ),
    );
    if let Some(mx) = f.exit_mx {
        put_fmt(out, format_args!("\"mxcsr_at_exit\": \"{:#06x}\", ", mx));
    }
    put_fmt(out, format_args!(
        "\"ftz\": {}, \"daz\": {}, \"masked_again\": {}, \"changed_by_program\": {}, \"changes\": {},\n    \"observations\": [",
        f.ftz,
        f.daz,
        f.masked,
        f.ftz || f.daz || f.masked,
        f.changed
    ));
    let mut first = true;
    fpenv::for_each_observation(|at, mx, cw| {
        out.put(if first { b"\n      " } else { b",\n      " });
        first = false;
        out.put(b"{ \"at\": ");
        escape(out, at.name().as_bytes());
        put_fmt(
            out,
            format_args!(
                ", \"mxcsr\": \"{:#06x}\", \"x87_cw\": \"{:#06x}\" }}",
                mx, cw
            ),
        );
    });
    out.put(b"] },\n  \"timeline\": [");
    let iv = options::interval_ms();
    let mut first = true;
    table::for_each_bucket(table::current_bucket(), |b, o, r| {
        out.put(if first { b"\n    " } else { b",\n    " });
        first = false;
        put_fmt(
            out,
            format_args!(
                "{{ \"t_ms\": {}, \"operands\": {}, \"results\": {} }}",
                (b as u64).saturating_mul(iv),
                o,
                r
            ),
        );
    });
    out.put(b"],\n  \"mappings\": [");
    write_mappings(out);
    out.put(b"],\n  \"events\": [");
    let mut first = true;
    let sampled = sampling::sampled();
    table::for_each_event_batches(|a, o, r, b| {
        out.put(if first { b"\n    " } else { b",\n    " });
        first = false;
        out.put(b"{ \"address\": ");
        hex(out, a);
        put_fmt(
            out,
            format_args!(", \"operands\": {}, \"results\": {}", o, r),
        );
        if sampled {
            out.put(b", \"weighted\": [");
            for (i, n) in b.iter().enumerate() {
                put_fmt(out, format_args!("{}{}", if i > 0 { "," } else { "" }, n));
            }
            out.put(b"]");
        }
        out.put(b" }");
    });
    put_fmt(
        out,
        format_args!(
            "],\n  \"dropped_events\": {},\n  \"timeline_truncated\": {},\n",
            table::dropped(),
            table::timeline_truncated()
        ),
    );
    put_fmt(out, format_args!(
        "  \"x87\": {{ \"armed\": {}, \"fld_completes\": {}, \"replays\": {{ \"exact\": {}, \"adjusted\": {}, \"unverified\": {} }}, \"completed_loads\": {} }},\n",
        crate::fpu::armed_cw_masks() != 0,
        crate::x87::fld_completes(),
        X87_EXACT.load(Relaxed),
        X87_ADJUSTED.load(Relaxed),
        X87_UNVERIFIED.load(Relaxed),
        X87_COMPLETED.load(Relaxed)
    ));
    write_sampling(out);
    put_fmt(
        out,
        format_args!(
            "  \"step_slots_exhausted\": {}\n}}\n",
            steps::exhausted() + GAVE_UP.load(Relaxed)
        ),
    );
}

/// `"sampling"`: the mode, and in sampled mode the windows and what they saw.
fn write_sampling(out: &mut FdSink) {
    use crate::sampling::*;
    put_fmt(
        out,
        format_args!(
            "  \"emulated_events\": {},\n",
            crate::handlers::EMULATED.load(Relaxed)
        ),
    );
    if !sampled() {
        out.put(b"  \"sampling\": { \"mode\": \"exact\" },\n");
        return;
    }
    let g = |a: &core::sync::atomic::AtomicU64| a.load(Relaxed);
    put_fmt(out, format_args!(
        "  \"sampling\": {{ \"mode\": \"sampled\", \"scheme\": \"cpu-time windows\", \"period_ms\": {}, \"overhead_pct\": {}, \"burst\": {}, \"windows\": {}, \"full_windows\": {}, \"stray_events\": {}, \"event_cost_ns\": {},\n",
        options::period_ms(),
        options::overhead_pct(),
        g(&LAST_BURST),
        g(&WINDOWS),
        g(&FULL_WINDOWS),
        g(&STRAY),
        g(&COST_NS),
    ));
    put_fmt(out, format_args!(
        "    \"full\": {{ \"samples\": {}, \"window_ns\": {}, \"interval_ns\": {} }}, \"open\": {{ \"samples\": {}, \"interval_ns\": {} }}, \"timer_failures\": {}, \"signal_taken_by_program\": {},\n    \"batch_weights\": [",
        g(&FULL_SAMPLES),
        g(&FULL_WINDOW_NS),
        g(&FULL_INTERVAL_NS),
        g(&OPEN_SAMPLES),
        g(&OPEN_INTERVAL_NS),
        g(&TIMER_FAILURES),
        GAVE_UP_SIGNAL.load(Relaxed),
    ));
    for (i, b) in BATCH_WEIGHTS.iter().enumerate() {
        put_fmt(
            out,
            format_args!("{}{}", if i > 0 { "," } else { "" }, g(b)),
        );
    }
    out.put(b"],\n    \"first_event_wait_us_log2\": [");
    for (i, b) in WAITS.iter().enumerate() {
        put_fmt(
            out,
            format_args!("{}{}", if i > 0 { "," } else { "" }, g(b)),
        );
    }
    out.put(b"] },\n");
}

/// Streams the executable mappings of `/proc/self/maps`.
fn write_mappings(out: &mut FdSink) {
    // SAFETY: NUL-terminated path; our descriptor.
    let fd = unsafe {
        libc::open(
            c"/proc/self/maps".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return;
    }
    let mut buf = [0u8; 8192];
    let mut len = 0usize;
    let mut first = true;
    let mut eof = false;
    while !eof || len > 0 {
        if !eof && len < buf.len() {
            let Some(rest) = buf.get_mut(len..) else {
                break;
            };
            match read_some(fd, rest) {
                Some(n) if n > 0 => len += n,
                _ => eof = true,
            }
        }
        let data = buf.get(..len).unwrap_or(&[]);
        let (line, consumed) = match data.iter().position(|&c| c == b'\n') {
            Some(i) => (data.get(..i).unwrap_or(&[]), i + 1),
            None if eof || len == buf.len() => (data, len),
            None => continue,
        };
        if let Some(m) = parse_maps_line(line) {
            if m.exec {
                out.put(if first { b"\n    " } else { b",\n    " });
                first = false;
                out.put(b"{ \"path\": ");
                escape(out, m.path);
                out.put(b", \"start\": ");
                hex(out, m.start);
                out.put(b", \"end\": ");
                hex(out, m.end);
                out.put(b", \"offset\": ");
                hex(out, m.offset);
                out.put(b" }");
            }
        }
        buf.copy_within(consumed..len, 0);
        len -= consumed;
    }
    // SAFETY: our descriptor.
    unsafe { libc::close(fd) };
}

/// One line of `/proc/self/maps`.
#[derive(Debug, PartialEq, Eq)]
pub struct MapsLine<'a> {
    pub start: u64,
    pub end: u64,
    pub exec: bool,
    pub offset: u64,
    pub path: &'a [u8],
}

fn parse_hex(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 16 {
        return None;
    }
    let mut v: u64 = 0;
    for &c in s {
        let d = (c as char).to_digit(16)? as u64;
        v = (v << 4) | d;
    }
    Some(v)
}

/// `start-end perms offset dev inode    path` (the path may contain spaces and is
/// absent for anonymous mappings).
pub fn parse_maps_line(line: &[u8]) -> Option<MapsLine<'_>> {
    let mut rest = line;
    let mut field = || -> Option<&[u8]> {
        while rest.first() == Some(&b' ') {
            rest = rest.get(1..)?;
        }
        let end = rest.iter().position(|&c| c == b' ').unwrap_or(rest.len());
        let f = rest.get(..end)?;
        rest = rest.get(end..)?;
        Some(f)
    };
    let range = field()?;
    let perms = field()?;
    let offset = field()?;
    let _dev = field()?;
    let _inode = field()?;
    let dash = range.iter().position(|&c| c == b'-')?;
    let start = parse_hex(range.get(..dash)?)?;
    let end = parse_hex(range.get(dash + 1..)?)?;
    let path = {
        let mut p = rest;
        while p.first() == Some(&b' ') {
            p = p.get(1..)?;
        }
        p
    };
    Some(MapsLine {
        start,
        end,
        exec: perms.get(2) == Some(&b'x'),
        offset: parse_hex(offset)?,
        path,
    })
}

/// Writes the report file atomically (`taintprof_sigsafe::file::write_atomic`: a
/// temporary file in the same directory, then `rename`). Err(errno); `path` says where
/// either way.
fn write_file(exit: Exit, path: &mut StackBuf<4096>) -> Result<(), i32> {
    let pid = getpid();
    let dir = options::out_dir();
    mkdir_p(dir);
    path.clear();
    let _ = write!(
        path,
        "{}/{}.{}.dip-raw.json",
        Lossy(dir),
        Lossy(exe_name()),
        pid
    );
    if path.truncated {
        return Err(libc::ENAMETOOLONG);
    }
    write_atomic(path.as_bytes(), Durability::Rename, |out| {
        write_json(out, exit, pid)
    })
    .map(|_| ())
}

/// 0 = not written, 1 = being written (by `WRITER_TID`), 2 = done.
static STATE: AtomicU32 = AtomicU32::new(0);
static WRITER_TID: AtomicI32 = AtomicI32::new(0);

/// After `fork`: the child writes its own report.
pub fn reset() {
    STATE.store(0, SeqCst);
    WRITER_TID.store(0, SeqCst);
}

/// Writes the report once per process. A second caller (exit racing a signal on
/// another thread) waits for the first to finish (bounded) and returns.
pub fn final_report(exit: Exit) {
    if !init::active() {
        return;
    }
    let me = gettid();
    match STATE.compare_exchange(0, 1, SeqCst, SeqCst) {
        Ok(_) => WRITER_TID.store(me, SeqCst),
        Err(1) => {
            if WRITER_TID.load(SeqCst) == me {
                crate::diag!(
                    "error: {} while writing the raw report; the report is lost (this is a taintprof bug)",
                    match exit {
                        Exit::Signal(s) => disp::name(s),
                        Exit::Code(_) => "exit",
                    }
                );
                return;
            }
            for _ in 0..10_000 {
                if STATE.load(SeqCst) == 2 {
                    break;
                }
                sleep_ms(1);
            }
            return;
        }
        Err(_) => return,
    }
    sampling::account_current();
    if let Exit::Code(_) = exit {
        fpenv::observe_now(fpenv::Where::Exit);
        fpenv::set_exit(crate::fpu::get_mxcsr());
    }
    let mut path = StackBuf::<4096>::new();
    let r = write_file(exit, &mut path);
    STATE.store(2, SeqCst);
    match r {
        Ok(()) => match exit {
            Exit::Signal(s) if !options::quiet_on_signal() => crate::diag!(
                "{} received {}; raw report written to {}",
                Lossy(exe_name()),
                disp::name(s),
                Lossy(path.as_bytes())
            ),
            Exit::Code(_) if !options::quiet() => {
                crate::diag!("raw report written to {}", Lossy(path.as_bytes()))
            }
            _ => {}
        },
        Err(e) => crate::diag!(
            "error: could not write the raw report to {} (errno {}); set TAINTPROF_OUT to a writable directory",
            Lossy(path.as_bytes()),
            e
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_maps_lines() {
        let l = b"7f1c2a400000-7f1c2a425000 r-xp 00002000 08:01 1234    /usr/lib/x86_64-linux-gnu/libm.so.6";
        let m = parse_maps_line(l).unwrap();
        assert_eq!(m.start, 0x7f1c2a400000);
        assert_eq!(m.end, 0x7f1c2a425000);
        assert!(m.exec);
        assert_eq!(m.offset, 0x2000);
        assert_eq!(m.path, b"/usr/lib/x86_64-linux-gnu/libm.so.6");
        let a = parse_maps_line(b"7ffd1000-7ffd2000 rw-p 00000000 00:00 0").unwrap();
        assert!(!a.exec);
        assert_eq!(a.path, b"");
        let s = parse_maps_line(b"1000-2000 r-xp 00000000 08:01 5 /tmp/a b (deleted)").unwrap();
        assert_eq!(s.path, b"/tmp/a b (deleted)");
        assert!(parse_maps_line(b"garbage").is_none());
    }

    #[test]
    fn json_strings_are_escaped() {
        let mut o: Vec<u8> = Vec::new();
        escape(&mut o, b"a\"b\\c\n\x01\xff");
        assert_eq!(
            core::str::from_utf8(&o).unwrap(),
            "\"a\\\"b\\\\c\\n\\u0001\\ufffd\""
        );
        let back: String = serde_json::from_slice(&o).unwrap();
        assert_eq!(back, "a\"b\\c\n\u{1}\u{fffd}");
    }
}
