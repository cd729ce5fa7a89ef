//! Sampled mode (the default; `TAINTPROF_DIP_EXACT=1` turns it off): bounded overhead.
//!
//! Every denormal event costs two signals (about 16 µs), so a program with hundreds of
//! millions of them would run for hours under the exact profiler. Here the exception is
//! unmasked only in *windows*:
//!
//! * each thread has a CPU-time interval timer (`timer_create(CLOCK_THREAD_CPUTIME_ID)`,
//!   delivered to the thread itself with `SIGEV_THREAD_ID`) that fires every
//!   `TAINTPROF_DIP_PERIOD_MS` (10 ms) of the thread's CPU time, so an idle or blocked
//!   thread costs nothing;
//! * a tick opens a window: `on_tick` unmasks the exception in the interrupted
//!   context's MXCSR (and x87 control word) and gives the thread a quota of `K` events
//!   after a random skip;
//! * a thread starts with a window that counts everything until the first tick (at
//!   most one period of CPU time spent trapping): a short program is counted completely;
//! * every event in a window is counted as in exact mode (SIGFPE, step, SIGTRAP); the
//!   `K`-th masks the exception again (one signal, no step) and closes the window;
//! * `K` is the overhead budget (`TAINTPROF_DIP_OVERHEAD`, 10 % of the CPU time) divided
//!   by the measured cost of one event (CPU time of a full window / `K`), so a window
//!   costs at most about `budget × period`, however dense the events are.
//!
//! A window that is still open at the next tick caught *every* event of its interval:
//! where events are sparser than `K` per period the profile is complete. Where windows
//! fill up, the events after the `K`-th are not seen: the samples are `K` consecutive
//! events after a point in time that does not depend on the program, so their shares by
//! instruction (and line, function) estimate the shares of all events without bias on
//! steady loops. The windows are spread round-robin over [`BATCHES`] batches whose
//! per-instruction counts the report carries, so the symbolizer gives each share a
//! confidence interval from the spread between batches (samples of one window are not
//! independent; batches of many windows nearly are).
//!
//! What a full window cannot tell is how many events were *not* seen: with events a few
//! nanoseconds apart and a trap cost of microseconds, the program time a window covered
//! is far below the precision of any timing of it. The report gives the number the
//! events are at least: each full window's events per CPU second of the window,
//! overhead included (so a lower bound of the rate), over its whole interval.
//!
//! Signal-safety: per-thread state is in a tid-keyed table of slots claimed at thread
//! start (no TLS); the handlers use atomics only.

use core::ffi::{c_int, c_void};
use core::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, Ordering::*};

use taintprof_sigsafe::{errno, gettid, set_errno};

use crate::fpu::*;
use crate::options;

/// Batches the windows are spread over (round robin) for the confidence intervals.
pub const BATCHES: usize = 16;
/// Weight 1 in the fixed-point weighted counts.
pub const WEIGHT_ONE: u32 = 1000;
/// Shortest wait seen from a window's opening to its first event: the fixed cost of
/// returning from the tick and taking the fault (a few µs; 10 µs and more in some
/// virtual machines). `u64::MAX` until the first window saw an event.
pub static MIN_WAIT_NS: AtomicU64 = AtomicU64::new(u64::MAX);
const NSLOTS: usize = 4096;
/// Initial guess of the CPU cost of one event (two signals), replaced by measurements.
const INITIAL_COST_NS: u64 = 20_000;
const MAX_BURST: u64 = 1 << 16;
/// `si_code` of a POSIX timer signal.
const SI_TIMER: c_int = -2;
const SIGEV_THREAD_ID: c_int = 4;

pub struct Thread {
    tid: AtomicI32,
    /// Kernel timer id, -1 without one.
    timer: AtomicI32,
    /// Events the open window may still take (0: closed).
    quota: AtomicU32,
    /// The window's quota when it opened (its skip included).
    burst: AtomicU32,
    /// Events at the window's start that are not in the weighted counts.
    skip: AtomicU32,
    batch: AtomicU32,
    /// Thread CPU time when the window opened, at its first event, and when it filled
    /// up (0: not full).
    open_ns: AtomicU64,
    first_ns: AtomicU64,
    full_ns: AtomicU64,
    /// Monotonic clock when the window opened (end of the tick handler).
    open_wall: AtomicU64,
    /// The window's weight ([`WEIGHT_ONE`] = 1), fixed at its first event.
    weight: AtomicU32,
    /// The thread's first window ([`open_first`]).
    initial: core::sync::atomic::AtomicBool,
}

impl Thread {
    const fn new() -> Self {
        Thread {
            tid: AtomicI32::new(0),
            timer: AtomicI32::new(-1),
            quota: AtomicU32::new(0),
            burst: AtomicU32::new(0),
            skip: AtomicU32::new(0),
            batch: AtomicU32::new(0),
            open_ns: AtomicU64::new(0),
            first_ns: AtomicU64::new(0),
            full_ns: AtomicU64::new(0),
            open_wall: AtomicU64::new(0),
            weight: AtomicU32::new(WEIGHT_ONE),
            initial: core::sync::atomic::AtomicBool::new(false),
        }
    }
}

static THREADS: [Thread; NSLOTS] = [const { Thread::new() }; NSLOTS];
static TICK_SIG: AtomicI32 = AtomicI32::new(0);

/// Statistics for the report.
pub static WINDOWS: AtomicU64 = AtomicU64::new(0);
pub static FULL_WINDOWS: AtomicU64 = AtomicU64::new(0);
/// Events seen with no window open (the program put back an unmasked environment it
/// had saved): masked again and not counted.
pub static STRAY: AtomicU64 = AtomicU64::new(0);
/// Intervals (window opening to the next) whose window filled up: their samples, the
/// CPU time until the window was full, and the whole interval's CPU time.
pub static FULL_SAMPLES: AtomicU64 = AtomicU64::new(0);
pub static FULL_WINDOW_NS: AtomicU64 = AtomicU64::new(0);
pub static FULL_INTERVAL_NS: AtomicU64 = AtomicU64::new(0);
/// Intervals whose window was still open at the end: every event was counted.
pub static OPEN_SAMPLES: AtomicU64 = AtomicU64::new(0);
pub static OPEN_INTERVAL_NS: AtomicU64 = AtomicU64::new(0);
/// Measured CPU cost of one event (moving average over full windows).
pub static COST_NS: AtomicU64 = AtomicU64::new(INITIAL_COST_NS);
pub static LAST_BURST: AtomicU64 = AtomicU64::new(0);
pub static TIMER_FAILURES: AtomicU64 = AtomicU64::new(0);
/// Windows by the wait for their first event: bucket i counts waits in
/// [2^i, 2^(i+1)) µs (bucket 0 also below 1 µs, the last one everything above).
pub const WAIT_BUCKETS: usize = 16;
pub static WAITS: [AtomicU64; WAIT_BUCKETS] = [const { AtomicU64::new(0) }; WAIT_BUCKETS];
pub static BATCH_WEIGHTS: [AtomicU64; BATCHES] = [const { AtomicU64::new(0) }; BATCHES];

/// Sampled mode (the default).
#[inline]
pub fn sampled() -> bool {
    !options::exact()
}

/// The timer signal (a real-time signal near `SIGRTMAX`), 0 before [`setup`].
pub fn tick_signal() -> c_int {
    TICK_SIG.load(Relaxed)
}

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid out pointer; clock_gettime is async-signal-safe.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (ts.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(ts.tv_nsec as u64)
}

#[inline]
fn start(tid: i32) -> usize {
    (tid as u32 as usize).wrapping_mul(0x9E37_79B9) % NSLOTS
}

fn find(tid: i32) -> Option<&'static Thread> {
    let s = start(tid);
    (0..NSLOTS)
        .map(|i| &THREADS[(s + i) % NSLOTS])
        .find(|t| t.tid.load(Acquire) == tid)
}

fn claim(tid: i32) -> Option<&'static Thread> {
    if let Some(t) = find(tid) {
        return Some(t);
    }
    let s = start(tid);
    for i in 0..NSLOTS {
        let t = &THREADS[(s + i) % NSLOTS];
        if t.tid.load(Relaxed) == 0 && t.tid.compare_exchange(0, tid, AcqRel, Relaxed).is_ok() {
            t.timer.store(-1, Relaxed);
            t.quota.store(0, Relaxed);
            t.full_ns.store(0, Relaxed);
            return Some(t);
        }
    }
    None
}

/// The window size: the budget's share of a period over the cost of one event.
///
/// A window traps its random skip (on average half the size) and then the size: 1.5
/// sizes on average, all within the budget.
pub fn burst() -> u32 {
    let period = options::period_ms().saturating_mul(1_000_000);
    let pct = options::overhead_pct();
    let budget = period.saturating_mul(pct) / (100 + pct);
    let cost = COST_NS.load(Relaxed).max(1);
    (budget * 2 / (3 * cost)).clamp(1, MAX_BURST) as u32
}

static RNG: AtomicU64 = AtomicU64::new(0x2545_F491_4F6C_DD1D);

/// A pseudo-random number in `0..n` (xorshift; racy between threads, which is fine).
fn random_below(n: u32) -> u32 {
    let mut x = RNG.load(Relaxed);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    RNG.store(x, Relaxed);
    ((x >> 32) % n.max(1) as u64) as u32
}

/// Opens a window on `t`.
///
/// The window first skips a random number of events (0 to its size − 1: counted as
/// events, but not in the weighted counts the shares come from), then takes its size:
/// a tick almost always falls between events — in a loop, in the normal work between
/// two denormal ones — so without the skip every window would start at the same
/// phase of the loop (the first denormal instruction after the work) and, unless its
/// size is a multiple of the loop's events, over-count the instructions at that phase.
fn open(t: &Thread, now: u64) {
    let k = burst();
    let skip = random_below(k);
    LAST_BURST.store(k as u64, Relaxed);
    let w = WINDOWS.fetch_add(1, Relaxed);
    t.batch.store((w % BATCHES as u64) as u32, Relaxed);
    t.skip.store(skip, Relaxed);
    let k = k + skip;
    t.burst.store(k, Relaxed);
    t.open_ns.store(now, Relaxed);
    t.full_ns.store(0, Relaxed);
    t.weight.store(WEIGHT_ONE, Relaxed);
    t.initial.store(false, Relaxed);
    t.quota.store(k, Release);
    t.open_wall.store(taintprof_sigsafe::now_ns(), Relaxed);
}

/// The weight of a window whose first event came `wait` ns after it opened.
///
/// The tick falls at a point in time, not at an event: a window opened in a stretch
/// without events catches the first events after it — where the next cluster of events
/// *begins*, whatever its mix is in the middle. Converting time points to events
/// needs the local event rate at the tick, which a short wait shows: a wait close to
/// the fixed cost of the signals (`MIN_WAIT_NS`) means the tick fell among events
/// (weight 1); a longer one that it fell in a gap, the longer the less weight:
/// `(2 × MIN_WAIT_NS / wait)⁶`, at most 1 (the sixth power: on Jacobi the third left
/// the line shares up to 4 points off, the sixth 2.3). On a steady loop every window has the same
/// mix whatever its weight, so the shares stay unbiased.
pub fn weight_for(wait: u64) -> u32 {
    let min = MIN_WAIT_NS.fetch_min(wait.max(1), Relaxed).min(wait.max(1));
    let t = min.saturating_mul(2).max(2_000) as f64;
    let w = wait as f64;
    if w <= t {
        WEIGHT_ONE
    } else {
        let r = t / w;
        ((WEIGHT_ONE as f64) * (r * r * r) * (r * r * r)).max(1.0) as u32
    }
}

/// Quota of a thread's first window: everything until its timer's first tick.
const FIRST_QUOTA: u32 = 1 << 30;

/// Opens a thread's first window: it counts every event until the first tick (at
/// most one period of CPU time spent trapping, however dense the events), so a short
/// program or thread is counted completely. Its events are counted but carry no weight
/// (they are all "skipped"): the shares of a profile whose later windows fill up come
/// from those windows only, which start at points in time the program does not choose.
fn open_first(t: &Thread, now: u64) {
    t.batch.store(0, Relaxed);
    t.skip.store(FIRST_QUOTA, Relaxed);
    t.burst.store(FIRST_QUOTA, Relaxed);
    t.open_ns.store(now, Relaxed);
    t.full_ns.store(0, Relaxed);
    t.weight.store(0, Relaxed);
    t.initial.store(true, Relaxed);
    t.quota.store(FIRST_QUOTA, Release);
    t.open_wall.store(taintprof_sigsafe::now_ns(), Relaxed);
}

/// Accounts for the interval that ends at `now` (the window opened at its start).
fn close_interval(t: &Thread, now: u64) {
    let k = t.burst.load(Relaxed) as u64;
    if k == 0 {
        return;
    }
    let taken = k.saturating_sub(t.quota.load(Relaxed) as u64);
    let open = t.open_ns.load(Relaxed);
    let full = t.full_ns.load(Relaxed);
    if full != 0 {
        FULL_SAMPLES.fetch_add(taken, Relaxed);
        FULL_WINDOW_NS.fetch_add(full.saturating_sub(open), Relaxed);
        FULL_INTERVAL_NS.fetch_add(now.saturating_sub(open), Relaxed);
    } else {
        OPEN_SAMPLES.fetch_add(taken, Relaxed);
        OPEN_INTERVAL_NS.fetch_add(now.saturating_sub(open), Relaxed);
    }
    t.burst.store(0, Relaxed);
    t.quota.store(0, Relaxed);
}

/// The window batch and weight an event is counted with (`batch` is
/// `table::NO_BATCH` in exact mode).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Batch {
    pub batch: u32,
    pub weight: u32,
}

/// What an event in sampled mode is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Take {
    /// Count it (in this batch, with this weight) and step as in exact mode; the
    /// window stays open.
    Sample(Batch),
    /// Count it; it fills the window: mask the exception again, do not step.
    Last(Batch),
    /// No window open: mask, do not count.
    Stray,
}

/// Takes one event from the calling thread's window (from the SIGFPE handler).
pub fn take(tid: i32) -> Take {
    let Some(t) = find(tid) else {
        STRAY.fetch_add(1, Relaxed);
        return Take::Stray;
    };
    let q = t.quota.load(Relaxed);
    if q == 0 {
        STRAY.fetch_add(1, Relaxed);
        return Take::Stray;
    }
    let k = t.burst.load(Relaxed).max(1) as u64;
    if q as u64 == k && !t.initial.load(Relaxed) {
        // The first event of the window: how long after the opening did it come?
        let wait = taintprof_sigsafe::now_ns().saturating_sub(t.open_wall.load(Relaxed));
        t.weight.store(weight_for(wait), Relaxed);
        let us = wait / 1000;
        let i = (64 - us.leading_zeros() as usize)
            .saturating_sub(1)
            .min(WAIT_BUCKETS - 1);
        if let Some(w) = WAITS.get(i) {
            w.fetch_add(1, Relaxed);
        }
        t.first_ns.store(thread_cpu_ns(), Relaxed);
    }
    let skipping = k - (q as u64) < t.skip.load(Relaxed) as u64;
    let b = Batch {
        batch: t.batch.load(Relaxed),
        weight: if skipping { 0 } else { t.weight.load(Relaxed) },
    };
    if let Some(s) = BATCH_WEIGHTS.get(b.batch as usize) {
        s.fetch_add(b.weight as u64, Relaxed);
    }
    t.quota.store(q - 1, Relaxed);
    if q > 1 {
        return Take::Sample(b);
    }
    let now = thread_cpu_ns();
    t.full_ns.store(now.max(1), Relaxed);
    FULL_WINDOWS.fetch_add(1, Relaxed);
    // The cost of one event: from the window's first event to its last, over the
    // events in between (the program time before the first is not the events' cost).
    let per = if k >= 2 {
        now.saturating_sub(t.first_ns.load(Relaxed)) / (k - 1)
    } else {
        0
    };
    if per > 0 {
        // Moving average (7/8 old): racy between threads, which only blurs it.
        let old = COST_NS.load(Relaxed);
        COST_NS.store((old * 7 + per) / 8, Relaxed);
    }
    Take::Last(b)
}

/// Whether the calling thread's window is open (the SIGTRAP handler unmasks again only
/// then).
pub fn window_open(tid: i32) -> bool {
    find(tid).is_some_and(|t| t.quota.load(Relaxed) > 0)
}

/// The timer signal's handler: opens a window in the interrupted context.
extern "C" fn on_tick(_sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
    let saved = errno();
    // SAFETY: the kernel passes a valid siginfo and ucontext.
    unsafe {
        if !info.is_null() && (*info).si_code == SI_TIMER && !ctx.is_null() {
            tick(ctx.cast());
        }
    }
    set_errno(saved);
}

unsafe fn tick(uc: *mut libc::ucontext_t) {
    let Some(t) = find(gettid()) else {
        return;
    };
    let fp = (*uc).uc_mcontext.fpregs;
    if fp.is_null() {
        return;
    }
    let now = thread_cpu_ns();
    close_interval(t, now);
    crate::fpenv::observe(crate::fpenv::Where::Handler, (*fp).mxcsr, (*fp).cwd);
    // Unmask in the context the kernel puts back: drop stale flags first (a denormal
    // seen while masked set DE; on the x87 a set flag under a clear mask is a pending
    // exception that would fault at once, reported at some old instruction).
    let m = armed_mx_masks();
    let flags = if m & MX_UM != 0 { MX_DE | MX_UE } else { MX_DE };
    (*fp).mxcsr &= !flags & !m;
    let cw = armed_cw_masks();
    if cw != 0 {
        let ncw = (*fp).cwd & !cw;
        (*fp).cwd = ncw;
        (*fp).swd = x87_fix_summary(ncw, (*fp).swd & !SW_DE);
    }
    open(t, now);
}

/// Kernel `struct sigevent` (64 bytes) with `SIGEV_THREAD_ID`.
#[repr(C)]
struct KSigevent {
    value: u64,
    signo: c_int,
    notify: c_int,
    tid: c_int,
    _pad: [c_int; 11],
}

/// The program installs a handler for the timer signal itself: it is the program's
/// now. Every thread's timer is deleted (POSIX timer ids are process-wide) and no new
/// one is made; windows open only at thread start from here on. Called from the
/// interposed `sigaction`/`signal` before the program's handler is installed.
pub fn give_up_signal() {
    if TICK_SIG.swap(0, Relaxed) == 0 {
        return;
    }
    let k = burst();
    for t in THREADS.iter() {
        let id = t.timer.swap(-1, Relaxed);
        if id >= 0 {
            // SAFETY: one of our timers.
            unsafe { libc::syscall(libc::SYS_timer_delete, id) };
        }
        // A first window waits for a tick that will not come: bound it.
        if t.initial.load(Relaxed) {
            let _ = t.quota.fetch_update(Relaxed, Relaxed, |q| Some(q.min(k)));
        }
    }
    GAVE_UP_SIGNAL.store(true, Relaxed);
    crate::diag!("warning: the program uses the sampling timer's signal; sampling only the start of each thread from now on (taintprof dip --exact counts every event)");
}

/// The program took the timer signal ([`give_up_signal`]).
pub static GAVE_UP_SIGNAL: core::sync::atomic::AtomicBool =
    core::sync::atomic::AtomicBool::new(false);

/// Chooses the timer signal and installs its handler (sampled mode, at start-up).
pub fn setup() -> bool {
    let sig = libc::SIGRTMAX() - 2;
    if sig <= libc::SIGRTMIN() {
        return false;
    }
    TICK_SIG.store(sig, Relaxed);
    // SAFETY: installing a handler with a fully initialized struct.
    unsafe {
        let mut sa: libc::sigaction = core::mem::zeroed();
        sa.sa_sigaction = on_tick as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART | libc::SA_ONSTACK;
        libc::sigemptyset(&mut sa.sa_mask);
        crate::real::sigaction(sig, &sa, core::ptr::null_mut()) == 0
    }
}

/// Start of a thread (the initial one at start-up, every created one, the child of a
/// fork): its slot, an open window and its timer. Called with the thread armed.
pub fn thread_begin() {
    if !sampled() {
        return;
    }
    let tid = gettid();
    let Some(t) = claim(tid) else {
        TIMER_FAILURES.fetch_add(1, Relaxed);
        return;
    };
    let now = thread_cpu_ns();
    if tick_signal() == 0 {
        // No ticks to close a first window: an ordinary one.
        open(t, now);
        return;
    }
    open_first(t, now);
    let mut sev = KSigevent {
        value: 0,
        signo: tick_signal(),
        notify: SIGEV_THREAD_ID,
        tid,
        _pad: [0; 11],
    };
    let mut id: c_int = -1;
    let period = options::period_ms();
    let its = libc::itimerspec {
        it_interval: libc::timespec {
            tv_sec: (period / 1000) as libc::time_t,
            tv_nsec: ((period % 1000) * 1_000_000) as libc::c_long,
        },
        it_value: libc::timespec {
            tv_sec: (period / 1000) as libc::time_t,
            tv_nsec: ((period % 1000) * 1_000_000) as libc::c_long,
        },
    };
    // SAFETY: raw timer system calls with valid pointers (the kernel's sigevent layout).
    unsafe {
        if libc::syscall(
            libc::SYS_timer_create,
            libc::CLOCK_THREAD_CPUTIME_ID,
            &mut sev as *mut KSigevent,
            &mut id as *mut c_int,
        ) != 0
        {
            TIMER_FAILURES.fetch_add(1, Relaxed);
            open(t, now);
            return;
        }
        if libc::syscall(
            libc::SYS_timer_settime,
            id,
            0,
            &its as *const libc::itimerspec,
            core::ptr::null_mut::<libc::itimerspec>(),
        ) != 0
        {
            TIMER_FAILURES.fetch_add(1, Relaxed);
            libc::syscall(libc::SYS_timer_delete, id);
            open(t, now);
            return;
        }
    }
    t.timer.store(id, Relaxed);
}

/// End of a thread: account for its last interval, delete its timer, free its slot.
pub fn thread_end() {
    if !sampled() {
        return;
    }
    let Some(t) = find(gettid()) else {
        return;
    };
    let id = t.timer.swap(-1, Relaxed);
    if id >= 0 {
        // SAFETY: our timer.
        unsafe { libc::syscall(libc::SYS_timer_delete, id) };
    }
    close_interval(t, thread_cpu_ns());
    t.tid.store(0, Release);
}

/// Before the report: account for the calling thread's current interval (its window
/// closes; later events, in exit handlers, are not counted).
pub fn account_current() {
    if !sampled() {
        return;
    }
    if let Some(t) = find(gettid()) {
        close_interval(t, thread_cpu_ns());
    }
}

/// In the child of `fork`: timers are not inherited; only the forking thread exists.
pub fn after_fork() {
    for t in THREADS.iter() {
        t.tid.store(0, Relaxed);
        t.timer.store(-1, Relaxed);
    }
    for s in [
        &WINDOWS,
        &FULL_WINDOWS,
        &STRAY,
        &FULL_SAMPLES,
        &FULL_WINDOW_NS,
        &FULL_INTERVAL_NS,
        &OPEN_SAMPLES,
        &OPEN_INTERVAL_NS,
        &TIMER_FAILURES,
    ] {
        s.store(0, Relaxed);
    }
    for b in BATCH_WEIGHTS.iter().chain(WAITS.iter()) {
        b.store(0, Relaxed);
    }
    thread_begin();
}
