//! Snapshots: the array counters over time.
//!
//! A snapshot records, for every array that ever saw a denormal, its cumulative
//! denormal reads and writes and its **heatmap for the interval** ending now: the
//! per-element interval counters binned into at most 256 × 256 cells (a 1-D array is
//! folded into a near-square layout, or into the shape given by `tp_array_shape`). The
//! interval is the difference between the threads' cumulative element counters and what
//! the previous snapshot saw (`ArrayRec::take_interval`): nothing is reset under a
//! running thread's feet, so no event is lost or counted twice.
//! Arrays without events in the interval get `"heatmap": null`.
//!
//! Taken by:
//! * `tp_snapshot(label)` (any thread);
//! * the **sampler thread**, started only when `TAINTPROF_SNAPSHOT_OPS=N` is set: every
//!   few milliseconds it sums the block counters × lanes of all threads (the hot path
//!   checks nothing) and takes a snapshot labelled `ops` each time another `N` million FP
//!   operations have run;
//! * **`SIGUSR1`** (installed when the first denormal-mode module registers, if the
//!   signal still has its default action): the snapshot code is async-signal-safe — it
//!   takes no lock but a try-lock of its own, allocates with `mmap` only and reads the
//!   array records lock-free — so the handler takes the snapshot itself. If a snapshot
//!   is already in progress (on this thread, which the signal interrupted, or another),
//!   the handler only sets a flag, and whoever finishes the snapshot in progress takes
//!   the signal's snapshot right after;
//! * the report at exit (label `exit`, or the fatal signal's name).
//!
//! Snapshots are kept in memory (one `mmap` each, linked in a list that the report reads
//! lock-free) up to `TAINTPROF_SNAPSHOT_MEMORY` MiB; past that, further snapshots are
//! skipped (without resetting, so the next one that is kept covers the longer interval)
//! and the report warns. The exit snapshot is always taken.

use core::mem::size_of;
use core::ptr::{self, null_mut};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

use taintprof_sigsafe::{cstr, errno, mmap_anon, round_up, set_errno, SpinLock};

use super::arrays::{self, ArrayRec, READY};
use super::threads;
use crate::options;

pub use taintprof_record::denormal::grid::{fold, Grid};

/// The heatmap grid of a marked array.
pub fn grid_of(rec: &ArrayRec) -> Grid {
    Grid::new(rec.elements.load(Relaxed), rec.shape())
}

// ----------------------------------------------------------------------------------
// Stored snapshots
// ----------------------------------------------------------------------------------

pub const LABEL_MAX: usize = 64;

#[repr(C)]
pub struct SnapHeader {
    next: AtomicPtr<SnapHeader>,
    bytes: usize,
    pub index: u64,
    pub fp_operations: u64,
    pub n_arrays: u64,
    label_len: u64,
    label: [u8; LABEL_MAX],
}

#[repr(C)]
pub struct SnapArray {
    pub id: u32,
    pub has_heatmap: u32,
    pub reads: u64,
    pub writes: u64,
    pub grid: Grid,
    /// Bytes of this entry including its cells.
    size: u64,
}

impl SnapHeader {
    pub fn label(&self) -> &[u8] {
        self.label.get(..self.label_len as usize).unwrap_or(&[])
    }

    /// Calls `f(entry, reads cells, writes cells)` for every array of the snapshot.
    pub fn for_each_array(&self, mut f: impl FnMut(&SnapArray, &[u32], &[u32])) {
        let base = self as *const SnapHeader as usize;
        let mut at = base + size_of::<SnapHeader>();
        for _ in 0..self.n_arrays {
            if at + size_of::<SnapArray>() > base + self.bytes {
                break;
            }
            // SAFETY: inside this snapshot's mapping, written before publication.
            let e = unsafe { &*(at as *const SnapArray) };
            let (r, w): (&[u32], &[u32]) = if e.has_heatmap != 0 {
                let n = e.grid.cells();
                let cells = at + size_of::<SnapArray>();
                // SAFETY: 2n cells follow the entry.
                unsafe {
                    (
                        core::slice::from_raw_parts(cells as *const u32, n),
                        core::slice::from_raw_parts((cells as *const u32).add(n), n),
                    )
                }
            } else {
                (&[], &[])
            };
            f(e, r, w);
            at += e.size as usize;
        }
    }
}

static LOCK: SpinLock = SpinLock::new();
static HEAD: AtomicPtr<SnapHeader> = AtomicPtr::new(null_mut());
static TAIL: AtomicPtr<SnapHeader> = AtomicPtr::new(null_mut());
static COUNT: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicUsize = AtomicUsize::new(0);
/// Snapshots skipped for lack of memory budget.
pub static SKIPPED: AtomicU64 = AtomicU64::new(0);
/// Snapshots that could not be taken (out of memory, lock busy at exit).
pub static FAILED: AtomicU64 = AtomicU64::new(0);
/// A `SIGUSR1` snapshot is waiting.
static PENDING_SIGNAL: AtomicBool = AtomicBool::new(false);

/// Calls `f` for every stored snapshot, oldest first (lock-free).
pub fn for_each(mut f: impl FnMut(&SnapHeader)) {
    let mut p = HEAD.load(Acquire);
    while !p.is_null() {
        // SAFETY: snapshots are never freed; fields are immutable after publication.
        let h = unsafe { &*p };
        f(h);
        p = h.next.load(Acquire);
    }
}

fn entry_size(g: &Grid) -> usize {
    round_up(size_of::<SnapArray>() + 2 * g.cells() * size_of::<u32>(), 8)
}

/// Takes a snapshot. The caller holds [`LOCK`]. `budgeted`: may be skipped when the
/// memory budget is used up (the exit snapshot is not).
fn take_locked(label: &[u8], budgeted: bool) -> bool {
    let fp_operations = threads::fp_operations();
    let limit = arrays::id_limit();
    let touched = |id: u32| -> Option<&'static ArrayRec> {
        arrays::rec_if_exists(id)
            .filter(|r| r.state.load(Acquire) == READY && r.touched.load(Acquire))
    };
    let mut size = size_of::<SnapHeader>();
    for id in 0..limit {
        if let Some(r) = touched(id) {
            size += entry_size(&grid_of(r));
        }
    }
    let budget = options::snapshot_memory_mib().saturating_mul(1 << 20) as usize;
    if budgeted && BYTES.load(Relaxed) + size > budget {
        if SKIPPED.fetch_add(1, Relaxed) == 0 {
            crate::diag!(
                "warning: snapshots use more than TAINTPROF_SNAPSHOT_MEMORY={} MiB; further snapshots are skipped until exit",
                options::snapshot_memory_mib()
            );
        }
        return false;
    }
    let mem = mmap_anon(size);
    if mem.is_null() {
        FAILED.fetch_add(1, Relaxed);
        return false;
    }
    let base = mem as usize;
    let mut at = base + size_of::<SnapHeader>();
    let mut n = 0u64;
    for id in 0..limit {
        let Some(r) = touched(id) else { continue };
        let g = grid_of(r);
        let full = entry_size(&g);
        if at + full > base + size {
            break; // an array grew a shape since the size pass; stop safely
        }
        let cells = g.cells();
        let cells_at = (at + size_of::<SnapArray>()) as *mut u32;
        // SAFETY: 2 * cells u32 inside the mapping.
        let (rc, wc) = unsafe {
            (
                core::slice::from_raw_parts_mut(cells_at, cells),
                core::slice::from_raw_parts_mut(cells_at.add(cells), cells),
            )
        };
        let (sr, sw) = r.take_interval(id, |i, vr, vw| {
            let cell = g.cell(i as u64);
            if vr != 0 {
                if let Some(o) = rc.get_mut(cell) {
                    *o = o.saturating_add(vr);
                }
            }
            if vw != 0 {
                if let Some(o) = wc.get_mut(cell) {
                    *o = o.saturating_add(vw);
                }
            }
        });
        // `take_interval` added the interval to the flushed totals (only the snapshot
        // lock's holder changes them).
        let fr = r.flushed_reads.load(Relaxed);
        let fw = r.flushed_writes.load(Relaxed);
        let has = sr + sw > 0;
        let entry_bytes = if has {
            full
        } else {
            round_up(size_of::<SnapArray>(), 8)
        };
        // SAFETY: inside the mapping (full >= the header's size).
        unsafe {
            ptr::write(
                at as *mut SnapArray,
                SnapArray {
                    id,
                    has_heatmap: has as u32,
                    reads: fr + r.extra_reads.load(Relaxed),
                    writes: fw + r.extra_writes.load(Relaxed),
                    grid: g,
                    size: entry_bytes as u64,
                },
            );
        }
        at += entry_bytes;
        n += 1;
    }
    let mut lb = [0u8; LABEL_MAX];
    let ll = label.len().min(LABEL_MAX);
    if let (Some(d), Some(s)) = (lb.get_mut(..ll), label.get(..ll)) {
        d.copy_from_slice(s);
    }
    let h = mem.cast::<SnapHeader>();
    // SAFETY: the header at the start of the mapping.
    unsafe {
        ptr::write(
            h,
            SnapHeader {
                next: AtomicPtr::new(null_mut()),
                bytes: size,
                index: COUNT.load(Relaxed),
                fp_operations,
                n_arrays: n,
                label_len: ll as u64,
                label: lb,
            },
        );
    }
    COUNT.fetch_add(1, Relaxed);
    BYTES.fetch_add(at - base, Relaxed);
    let tail = TAIL.load(Relaxed);
    if tail.is_null() {
        HEAD.store(h, Release);
    } else {
        // SAFETY: snapshots are never freed.
        unsafe { (*tail).next.store(h, Release) };
    }
    TAIL.store(h, Relaxed);
    true
}

/// Runs the `SIGUSR1` snapshot if one is waiting and the lock is free.
fn drain() {
    while PENDING_SIGNAL.load(Acquire) {
        let Some(g) = LOCK.try_lock() else { return };
        if PENDING_SIGNAL.swap(false, AcqRel) {
            take_locked(b"SIGUSR1", true);
        }
        drop(g);
    }
}

/// Takes a snapshot now (waits for one in progress on another thread). Returns false if
/// it was skipped or failed.
pub fn take(label: &[u8]) -> bool {
    if LOCK.held_by_me() {
        return false;
    }
    let g = LOCK.lock();
    // The exit (or fatal-signal) snapshot is the last one: a sampler tick or a
    // SIGUSR1 racing with exit must not append a snapshot after it.
    if FINAL_TAKEN.load(Acquire) {
        drop(g);
        return false;
    }
    let ok = take_locked(label, true);
    drop(g);
    drain();
    ok
}

/// The exit snapshot (not budgeted; waits up to 2 s for a snapshot in progress).
pub fn take_final(label: &[u8]) -> bool {
    let Some(g) = LOCK.lock_for(2000) else {
        FAILED.fetch_add(1, Relaxed);
        return false;
    };
    FINAL_TAKEN.store(true, Release);
    let ok = take_locked(label, false);
    drop(g);
    ok
}

/// Set (under the snapshot lock) once the final snapshot is taken.
static FINAL_TAKEN: AtomicBool = AtomicBool::new(false);

/// Number of snapshots stored.
pub fn count() -> u64 {
    COUNT.load(Relaxed)
}

/// `void tp_snapshot(const char *label)`: take a snapshot now.
#[no_mangle]
pub unsafe extern "C" fn tp_snapshot(label: *const core::ffi::c_char) {
    // SAFETY: the caller passes a NUL-terminated string or null.
    let l = unsafe { cstr(label) };
    take(if l.is_empty() { b"tp_snapshot" } else { l });
}

// ----------------------------------------------------------------------------------
// SIGUSR1, the sampler thread, fork
// ----------------------------------------------------------------------------------

static STARTED: AtomicBool = AtomicBool::new(false);
static SAMPLER: AtomicU32 = AtomicU32::new(0);

extern "C" fn on_sigusr1(_sig: libc::c_int, _i: *mut libc::siginfo_t, _c: *mut libc::c_void) {
    let saved = errno();
    PENDING_SIGNAL.store(true, Release);
    drain();
    set_errno(saved);
}

fn install_sigusr1() {
    if !options::handle_signals() {
        return;
    }
    // SAFETY: plain sigaction calls.
    unsafe {
        let mut old: libc::sigaction = core::mem::zeroed();
        if libc::sigaction(libc::SIGUSR1, ptr::null(), &mut old) != 0
            || old.sa_sigaction != libc::SIG_DFL
        {
            return;
        }
        let mut sa: libc::sigaction = core::mem::zeroed();
        sa.sa_sigaction = on_sigusr1 as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART | libc::SA_ONSTACK;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGUSR1, &sa, ptr::null_mut());
    }
}

fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Poll period of the sampler (grows if summing the counters takes long).
const POLL_NS: u64 = 5_000_000;

extern "C" fn sampler_main(_arg: *mut libc::c_void) -> *mut libc::c_void {
    // SAFETY: blocking every signal in this thread (they belong to the program's
    // threads).
    unsafe {
        let mut all: libc::sigset_t = core::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_BLOCK, &all, ptr::null_mut());
    }
    let step = options::snapshot_ops_millions()
        .saturating_mul(1_000_000)
        .max(1);
    let mut next = step;
    let mut period = POLL_NS;
    loop {
        let ts = libc::timespec {
            tv_sec: (period / 1_000_000_000) as libc::time_t,
            tv_nsec: (period % 1_000_000_000) as libc::c_long,
        };
        // SAFETY: plain nanosleep.
        unsafe { libc::nanosleep(&ts, ptr::null_mut()) };
        let t0 = now_ns();
        let ops = threads::fp_operations();
        let spent = now_ns().saturating_sub(t0);
        period = POLL_NS.max(spent.saturating_mul(10));
        if ops >= next {
            take(b"ops");
            next = (ops / step + 1).saturating_mul(step);
        }
        drain();
    }
}

fn start_sampler() {
    if options::snapshot_ops_millions() == 0 || SAMPLER.swap(1, AcqRel) != 0 {
        return;
    }
    // SAFETY: creating a detached thread with default attributes.
    unsafe {
        let mut tid: libc::pthread_t = core::mem::zeroed();
        if libc::pthread_create(&mut tid, ptr::null(), sampler_main, ptr::null_mut()) == 0 {
            libc::pthread_detach(tid);
        } else {
            SAMPLER.store(0, Release);
            crate::diag!("warning: cannot start the snapshot sampler thread; TAINTPROF_SNAPSHOT_OPS is ignored");
        }
    }
}

extern "C" fn fork_prepare() {
    LOCK.lock().forget();
    super::modules::fork_lock().lock().forget();
    super::ranges::LOCK.lock().forget();
    arrays::ID_LOCK.lock().forget();
    arrays::PENDING_LOCK.lock().forget();
}

extern "C" fn fork_release() {
    // SAFETY: this thread took them all in fork_prepare (in the child it is the only
    // thread).
    unsafe {
        arrays::PENDING_LOCK.force_unlock();
        arrays::ID_LOCK.force_unlock();
        super::ranges::LOCK.force_unlock();
        super::modules::fork_lock().force_unlock();
        LOCK.force_unlock();
    }
}

extern "C" fn fork_child() {
    fork_release();
    // The sampler thread does not exist in the child.
    SAMPLER.store(0, Release);
}

/// When the first denormal-mode module registers: `SIGUSR1`, the sampler, fork handlers.
pub fn at_first_module() {
    if STARTED.swap(true, AcqRel) {
        return;
    }
    #[cfg(not(test))]
    {
        install_sigusr1();
        // SAFETY: registering plain handlers.
        unsafe { libc::pthread_atfork(Some(fork_prepare), Some(fork_release), Some(fork_child)) };
        start_sampler();
    }
    #[cfg(test)]
    let _ = (
        install_sigusr1 as fn(),
        start_sampler as fn(),
        fork_prepare as extern "C" fn(),
        fork_child as extern "C" fn(),
    );
}

/// Simulates a `SIGUSR1` (tests).
#[cfg(test)]
pub(crate) fn signal_for_tests() {
    on_sigusr1(libc::SIGUSR1, ptr::null_mut(), ptr::null_mut());
}

/// Holds the snapshot lock (tests of the deferred path).
#[cfg(test)]
pub(crate) fn lock_for_tests() -> taintprof_sigsafe::lock::Guard<'static> {
    LOCK.lock()
}

/// Runs a waiting signal snapshot (tests).
#[cfg(test)]
pub(crate) fn drain_for_tests() {
    drain();
}
