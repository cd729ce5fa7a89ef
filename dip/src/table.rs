//! Event counts: a lock-free open-addressing table (instruction address → operand and
//! result events) and the timeline buckets. Both are mapped once at load time
//! (`MAP_NORESERVE`: only touched pages cost memory) and updated from the SIGFPE
//! handler with atomic CAS/adds only, so any number of threads can count at once and a
//! handler that interrupts another never waits.

use core::ptr::null_mut;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

use taintprof_sigsafe::{mmap_anon, munmap, now_ns, remap_zero};

use crate::sampling::{Batch, BATCHES};

/// 2^20 distinct instruction addresses (24 MiB of address space).
pub const TABLE_BITS: u32 = 20;
pub const TABLE_LEN: usize = 1 << TABLE_BITS;
/// Longest probe sequence before an event counts as dropped (keeps the worst case of a
/// nearly full table bounded inside a signal handler).
const MAX_PROBE: usize = 4096;
/// Timeline buckets (2^20: 29 hours at the default 100 ms). Later events go into the
/// last bucket and the report says the timeline was truncated.
pub const BUCKETS: usize = 1 << 20;

#[repr(C)]
pub struct Entry {
    addr: AtomicU64,
    operands: AtomicU64,
    results: AtomicU64,
    /// Sampled mode: the events (operands and results) by window batch
    /// (`sampling::BATCHES`), each weighted by its window's weight (fixed point,
    /// `sampling::WEIGHT_ONE` = 1). Untouched in exact mode.
    batches: [AtomicU64; BATCHES],
}

/// The batch argument of [`record_sample`] in exact mode (no batches).
pub const NO_BATCH: Batch = Batch {
    batch: u32::MAX,
    weight: 0,
};

static TABLE: AtomicPtr<Entry> = AtomicPtr::new(null_mut());
/// Indices of the used table entries, in insertion order (so the report visits only
/// those instead of scanning 24 MiB), and how many there are.
static USED: AtomicPtr<AtomicU32> = AtomicPtr::new(null_mut());
static NUSED: AtomicUsize = AtomicUsize::new(0);
/// `2 * BUCKETS` counters: operands and results of bucket i at 2i and 2i+1.
static TIMELINE: AtomicPtr<AtomicU64> = AtomicPtr::new(null_mut());
static START_NS: AtomicU64 = AtomicU64::new(0);
static INTERVAL_NS: AtomicU64 = AtomicU64::new(100_000_000);
static DROPPED: AtomicU64 = AtomicU64::new(0);
static TRUNCATED: AtomicBool = AtomicBool::new(false);

const TABLE_BYTES: usize = TABLE_LEN * core::mem::size_of::<Entry>();
const TIMELINE_BYTES: usize = 2 * BUCKETS * 8;
const USED_BYTES: usize = TABLE_LEN * 4;

/// Maps the table and the timeline and starts the clock. False if memory is refused.
pub fn init(interval_ms: u64) -> bool {
    INTERVAL_NS.store(interval_ms.max(1) * 1_000_000, Relaxed);
    START_NS.store(now_ns(), Relaxed);
    let t = mmap_anon(TABLE_BYTES);
    let l = mmap_anon(TIMELINE_BYTES);
    let u = mmap_anon(USED_BYTES);
    if t.is_null() || l.is_null() || u.is_null() {
        for (p, n) in [(t, TABLE_BYTES), (l, TIMELINE_BYTES), (u, USED_BYTES)] {
            // SAFETY: our fresh mapping of `n` bytes, never published (null is ignored).
            unsafe { munmap(p, n) };
        }
        return false;
    }
    USED.store(u.cast(), Release);
    TABLE.store(t.cast(), Release);
    TIMELINE.store(l.cast(), Release);
    true
}

/// After `fork`: the child starts counting from zero with its own clock.
pub fn reset() {
    let t = TABLE.load(Acquire);
    // SAFETY: the mapping `init` made with this size; the child's only thread is here,
    // and the counts are to be dropped (the same for the two below).
    if !t.is_null() && !unsafe { remap_zero(t.cast(), TABLE_BYTES) } {
        TABLE.store(null_mut(), Release);
    }
    let l = TIMELINE.load(Acquire);
    // SAFETY: as above.
    if !l.is_null() && !unsafe { remap_zero(l.cast(), TIMELINE_BYTES) } {
        TIMELINE.store(null_mut(), Release);
    }
    let u = USED.load(Acquire);
    // SAFETY: as above.
    if !u.is_null() && !unsafe { remap_zero(u.cast(), USED_BYTES) } {
        USED.store(null_mut(), Release);
    }
    NUSED.store(0, Relaxed);
    DROPPED.store(0, Relaxed);
    TRUNCATED.store(false, Relaxed);
    START_NS.store(now_ns(), Relaxed);
}

#[inline]
fn hash(addr: u64) -> usize {
    // Fibonacci hashing: nearby instruction addresses spread over the table.
    (addr.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_BITS)) as usize
}

/// Counts one event at instruction `addr`: a denormal operand, or (`result`) an
/// underflow. Async-signal-safe, lock-free.
#[cfg(test)]
pub fn record(addr: u64, result: bool) {
    record_sample(addr, result, NO_BATCH)
}

/// As `record`, also counting the event in window batch `batch` (sampled mode; exact
/// mode passes [`NO_BATCH`]).
pub fn record_sample(addr: u64, result: bool, batch: Batch) {
    count_time(result);
    let t = TABLE.load(Acquire);
    if t.is_null() || addr == 0 {
        DROPPED.fetch_add(1, Relaxed);
        return;
    }
    let mut i = hash(addr);
    for _ in 0..MAX_PROBE {
        // SAFETY: i < TABLE_LEN and the table has TABLE_LEN entries.
        let e = unsafe { &*t.add(i) };
        let mut k = e.addr.load(Acquire);
        if k == 0 {
            k = match e.addr.compare_exchange(0, addr, AcqRel, Acquire) {
                Ok(_) => {
                    note_used(i);
                    addr
                }
                Err(other) => other,
            };
        }
        if k == addr {
            if result {
                e.results.fetch_add(1, Relaxed);
            } else {
                e.operands.fetch_add(1, Relaxed);
            }
            if let Some(b) = e.batches.get(batch.batch as usize) {
                b.fetch_add(batch.weight as u64, Relaxed);
            }
            return;
        }
        i = (i + 1) & (TABLE_LEN - 1);
    }
    DROPPED.fetch_add(1, Relaxed);
}

fn note_used(i: usize) {
    let u = USED.load(Acquire);
    let n = NUSED.fetch_add(1, AcqRel);
    if !u.is_null() && n < TABLE_LEN {
        // SAFETY: n < TABLE_LEN entries of the USED array.
        unsafe { &*u.add(n) }.store(i as u32 + 1, Release);
    }
}

fn count_time(result: bool) {
    let l = TIMELINE.load(Acquire);
    // SAFETY: as above.
    if l.is_null() {
        return;
    }
    let dt = now_ns().saturating_sub(START_NS.load(Relaxed));
    let mut b = (dt / INTERVAL_NS.load(Relaxed).max(1)) as usize;
    if b >= BUCKETS {
        b = BUCKETS - 1;
        TRUNCATED.store(true, Relaxed);
    }
    // SAFETY: 2b+1 < 2*BUCKETS.
    unsafe { &*l.add(2 * b + result as usize) }.fetch_add(1, Relaxed);
}

/// Calls `f(address, operands, results)` for every counted instruction (table order).
#[cfg(test)]
pub fn for_each_event(mut f: impl FnMut(u64, u64, u64)) {
    for_each_event_batches(|a, o, r, _| f(a, o, r))
}

/// As [`for_each_event`], with the event's counts by window batch (sampled mode).
pub fn for_each_event_batches(mut f: impl FnMut(u64, u64, u64, &[u64; BATCHES])) {
    let t = TABLE.load(Acquire);
    let u = USED.load(Acquire);
    // SAFETY: as above.
    if t.is_null() || u.is_null() {
        return;
    }
    let n = NUSED.load(Acquire).min(TABLE_LEN);
    for k in 0..n {
        // SAFETY: k < TABLE_LEN entries of USED. A slot whose index is not written yet
        // (a handler between its CAS and note_used) reads 0 and is skipped; its entry
        // is then missed only if the report is written at that very instant.
        let i = unsafe { &*u.add(k) }.load(Acquire) as usize;
        if i == 0 || i > TABLE_LEN {
            continue;
        }
        // SAFETY: i - 1 < TABLE_LEN.
        let e = unsafe { &*t.add(i - 1) };
        let a = e.addr.load(Acquire);
        if a != 0 {
            let mut b = [0u64; BATCHES];
            for (d, s) in b.iter_mut().zip(e.batches.iter()) {
                *d = s.load(Relaxed);
            }
            f(a, e.operands.load(Relaxed), e.results.load(Relaxed), &b);
        }
    }
}

/// Calls `f(bucket, operands, results)` for every non-empty timeline bucket up to
/// `last` (inclusive), in order.
pub fn for_each_bucket(last: usize, mut f: impl FnMut(usize, u64, u64)) {
    let l = TIMELINE.load(Acquire);
    // SAFETY: as above.
    if l.is_null() {
        return;
    }
    for b in 0..=last.min(BUCKETS - 1) {
        // SAFETY: 2b+1 < 2*BUCKETS.
        let (o, r) = unsafe {
            (
                (*l.add(2 * b)).load(Relaxed),
                (*l.add(2 * b + 1)).load(Relaxed),
            )
        };
        if o != 0 || r != 0 {
            f(b, o, r);
        }
    }
}

/// Milliseconds since start (or since fork, in a child).
pub fn elapsed_ms() -> u64 {
    now_ns().saturating_sub(START_NS.load(Relaxed)) / 1_000_000
}

/// The bucket the current time falls into.
pub fn current_bucket() -> usize {
    let dt = now_ns().saturating_sub(START_NS.load(Relaxed));
    ((dt / INTERVAL_NS.load(Relaxed).max(1)) as usize).min(BUCKETS - 1)
}

pub fn dropped() -> u64 {
    DROPPED.load(Relaxed)
}

pub fn timeline_truncated() -> bool {
    TRUNCATED.load(Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_address_from_many_threads() {
        assert!(init(100));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| {
                    for i in 0..1000u64 {
                        record(0x1000 + (i % 10) * 4, i % 3 == 0);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let mut n = 0;
        let (mut ops, mut res) = (0, 0);
        for_each_event(|a, o, r| {
            assert!((0x1000..0x1000 + 40).contains(&a));
            n += 1;
            ops += o;
            res += r;
        });
        assert_eq!(n, 10);
        assert_eq!(ops + res, 4000);
        assert_eq!(res, 4 * 334);
        let mut tl = 0;
        for_each_bucket(current_bucket(), |_, o, r| tl += o + r);
        assert_eq!(tl, 4000);
        assert_eq!(dropped(), 0);
    }
}
