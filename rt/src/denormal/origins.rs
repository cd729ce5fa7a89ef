//! Origins: for each store of a denormal into a marked array `dest` whose tag names an
//! origin array `src`, the pair (dest, src) is counted (per thread, see
//! [`super::threads`]) and the element of `dest` it landed in is counted in the pair's
//! **origin map** (cumulative, `u32` per element of `dest`). Each thread keeps its own
//! map of a pair in its pair slot (plain increments, mapped on its first event of the
//! pair); [`Pair::counts`] sums them.
//!
//! Shared pair records live in a fixed open-addressing table (lock-free insert by CAS on
//! the key): they name the pairs for the report and hold a shared map (relaxed atomics)
//! for the events of threads whose own pair table was full. This module also holds the
//! shared overflow table for creator counts that did not fit a thread's own table.

use core::mem::size_of;
use core::ptr::null_mut;
use core::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, Ordering::*};

use taintprof_sigsafe::{mmap_anon, munmap, MmapVec};

use super::arrays::{self, bump32};
use super::threads::{bump, DnThread, PairSlot};

/// Most (dest, src) pairs with origin maps.
pub const PAIR_CAP: usize = 4096;

pub struct Pair {
    /// `dest << 16 | src`; 0 = empty.
    pub key: AtomicU64,
    /// Elements of `dest` when the map was made.
    pub elements: AtomicU64,
    pub map: AtomicPtr<AtomicU32>,
    /// Events of this pair that no thread table could count (thread table full).
    pub overflow: AtomicU64,
    /// The merged map as [`Pair::counts`] last computed it.
    view: AtomicPtr<AtomicU32>,
    view_len: AtomicU64,
}

static PAIRS: [Pair; PAIR_CAP] = [const {
    Pair {
        key: AtomicU64::new(0),
        elements: AtomicU64::new(0),
        map: AtomicPtr::new(null_mut()),
        overflow: AtomicU64::new(0),
        view: AtomicPtr::new(null_mut()),
        view_len: AtomicU64::new(0),
    }
}; PAIR_CAP];
/// Pair events that found no shared record.
pub static DROPPED_PAIRS: AtomicU64 = AtomicU64::new(0);

/// Index of the shared record of (dest, src), created if needed.
pub fn pair_index(dest: u32, src: u32) -> Option<usize> {
    let key = ((dest as u64) << 16) | src as u64;
    let start = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize;
    for step in 0..PAIR_CAP {
        let i = start + step;
        let p = PAIRS.get(i % PAIR_CAP)?;
        let k = p.key.load(Acquire);
        if k == key {
            return Some(i % PAIR_CAP);
        }
        if k == 0 {
            match p.key.compare_exchange(0, key, AcqRel, Acquire) {
                Ok(_) => return Some(i % PAIR_CAP),
                Err(k2) if k2 == key => return Some(i % PAIR_CAP),
                Err(_) => {}
            }
        }
    }
    None
}

/// Shared pair record `i`.
pub fn pair(i: usize) -> Option<&'static Pair> {
    PAIRS.get(i)
}

/// Calls `f(dest, src, record)` for every shared pair.
pub fn for_each_pair(mut f: impl FnMut(u32, u32, &Pair)) {
    for p in PAIRS.iter() {
        let k = p.key.load(Acquire);
        if k != 0 {
            f((k >> 16) as u32, (k & 0xffff) as u32, p);
        }
    }
}

impl Pair {
    /// Counts one denormal stored into element `e` of `dest` from `src`.
    #[inline]
    pub fn hit(&self, dest: &arrays::ArrayRec, e: u64) {
        let mut m = self.map.load(Acquire);
        if m.is_null() {
            m = self.map_for(dest);
            if m.is_null() {
                return;
            }
        }
        if e < self.elements.load(Relaxed) {
            // SAFETY: e < elements of the map.
            unsafe { &*m.add(e as usize) }.fetch_add(1, Relaxed);
        }
    }

    #[cold]
    #[inline(never)]
    fn map_for(&self, dest: &arrays::ArrayRec) -> *mut AtomicU32 {
        let n = dest.elements.load(Relaxed);
        let bytes = n.saturating_mul(size_of::<u32>() as u64);
        if n == 0 || bytes > 1 << 36 {
            return null_mut();
        }
        let m = mmap_anon(bytes as usize).cast::<AtomicU32>();
        if m.is_null() {
            return null_mut();
        }
        // Elements first: readers load `map` with acquire before `elements`.
        let _ = self.elements.compare_exchange(0, n, AcqRel, Acquire);
        match self.map.compare_exchange(null_mut(), m, AcqRel, Acquire) {
            Ok(_) => m,
            Err(other) => {
                // SAFETY: our fresh mapping, never published.
                unsafe { munmap(m.cast(), bytes as usize) };
                other
            }
        }
    }

    /// The per-element map, summed over the shared map and every thread's own map of
    /// the pair, into a buffer of the record (empty until the first event). For the
    /// report and tests: one caller at a time.
    pub fn counts(&self) -> &[AtomicU32] {
        let k = self.key.load(Acquire);
        let (dest, src) = ((k >> 16) as u32, (k & 0xffff) as u32);
        let mut maps: MmapVec<(usize, usize)> = MmapVec::new();
        let shared = self.map.load(Acquire);
        if !shared.is_null() {
            maps.push((shared as usize, self.elements.load(Relaxed) as usize));
        }
        super::threads::for_each(|t| {
            if let Some(p) = t.pair_if_exists(dest, src) {
                let m = p.map.load(Acquire);
                if !m.is_null() {
                    maps.push((m as usize, p.map_len.load(Relaxed) as usize));
                }
            }
        });
        let Some(n) = maps.as_slice().iter().map(|m| m.1).max() else {
            return &[];
        };
        let mut v = self.view.load(Acquire);
        if v.is_null() || (self.view_len.load(Relaxed) as usize) < n {
            v = mmap_anon(n.max(1) * size_of::<u32>()).cast();
            if v.is_null() {
                return &[];
            }
            self.view.store(v, Release);
            self.view_len.store(n as u64, Relaxed);
        }
        for i in 0..n {
            let mut c = 0u32;
            for &(m, len) in maps.as_slice() {
                if i < len {
                    // SAFETY: `len` counters.
                    c = c.wrapping_add(unsafe { &*(m as *const AtomicU32).add(i) }.load(Relaxed));
                }
            }
            // SAFETY: the view has at least n counters.
            unsafe { &*v.add(i) }.store(c, Relaxed);
        }
        // SAFETY: n counters, written above.
        unsafe { core::slice::from_raw_parts(v, n) }
    }
}

/// Counts one denormal stored into element `e` of `dest` (an array of `n` elements)
/// from `src`, in thread `t`'s tables.
#[inline]
pub fn count_pair(t: &DnThread, dest: u32, src: u32, n: u64, e: u64) {
    let Some(p) = t.pair(dest, src) else {
        count_pair_shared(dest, src, e);
        return;
    };
    bump(&p.count, 1);
    let mut m = p.map.load(Relaxed);
    if m.is_null() {
        m = thread_map(p, dest, src, n);
        if m.is_null() {
            return;
        }
    }
    if e < p.map_len.load(Relaxed) {
        // SAFETY: map_len counters.
        bump32(unsafe { &*m.add(e as usize) });
    }
}

/// First event of a pair in a thread: the shared record (so the report lists the pair)
/// and the thread's map.
#[cold]
#[inline(never)]
fn thread_map(p: &PairSlot, dest: u32, src: u32, n: u64) -> *mut AtomicU32 {
    if p.global.load(Relaxed) == 0 {
        if let Some(i) = pair_index(dest, src) {
            p.global.store(i as u32 + 1, Relaxed);
            if let Some(g) = pair(i) {
                let _ = g.elements.compare_exchange(0, n, AcqRel, Acquire);
            }
        }
    }
    let bytes = n.saturating_mul(size_of::<u32>() as u64);
    if p.global.load(Relaxed) == 0 {
        // No shared record to report the map under (table full).
        DROPPED_PAIRS.fetch_add(1, Relaxed);
        return null_mut();
    }
    if n == 0 || bytes > 1 << 36 {
        return null_mut();
    }
    let m = mmap_anon(bytes as usize).cast::<AtomicU32>();
    if m.is_null() {
        DROPPED_PAIRS.fetch_add(1, Relaxed);
        return m;
    }
    p.map_len.store(n, Relaxed);
    p.map.store(m, Release);
    m
}

/// A pair event of a thread whose own pair table is full: the shared record.
#[cold]
#[inline(never)]
fn count_pair_shared(dest: u32, src: u32, e: u64) {
    let Some(p) = pair_index(dest, src).and_then(pair) else {
        DROPPED_PAIRS.fetch_add(2, Relaxed);
        return;
    };
    p.overflow.fetch_add(1, Relaxed);
    match super::arrays::rec_if_exists(dest) {
        Some(r) => p.hit(r, e),
        None => {
            DROPPED_PAIRS.fetch_add(1, Relaxed);
        }
    }
}

// ----------------------------------------------------------------------------------
// Shared overflow table for creator counts
// ----------------------------------------------------------------------------------

const CREATOR_CAP: usize = 1 << 14;

struct CreatorSlot {
    key: AtomicU64,
    count: AtomicU64,
}

static CREATORS: [CreatorSlot; CREATOR_CAP] = [const {
    CreatorSlot {
        key: AtomicU64::new(0),
        count: AtomicU64::new(0),
    }
}; CREATOR_CAP];

/// Counts `n` events of creator key `key` (see `threads::creator_key`) in the shared
/// table.
#[cold]
pub fn count_creator_shared(key: u64, n: u64) {
    let start = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize;
    for step in 0..CREATOR_CAP {
        let i = start + step;
        let Some(s) = CREATORS.get(i % CREATOR_CAP) else {
            break;
        };
        let k = s.key.load(Acquire);
        if k == key {
            s.count.fetch_add(n, Relaxed);
            return;
        }
        if k == 0 {
            match s.key.compare_exchange(0, key, AcqRel, Acquire) {
                Ok(_) => {
                    s.count.fetch_add(n, Relaxed);
                    return;
                }
                Err(k2) if k2 == key => {
                    s.count.fetch_add(n, Relaxed);
                    return;
                }
                Err(_) => {}
            }
        }
    }
    super::threads::DROPPED_CREATORS.fetch_add(n, Relaxed);
}

/// Calls `f(key, count)` for every shared creator slot.
pub fn for_each_shared_creator(mut f: impl FnMut(u64, u64)) {
    for s in CREATORS.iter() {
        let k = s.key.load(Acquire);
        if k != 0 {
            f(k, s.count.load(Relaxed));
        }
    }
}
