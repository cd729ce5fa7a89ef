//! Address → marked array.
//!
//! Three places, looked up in this order by the cold hooks:
//!
//! 1. **The calling thread's last hit** (`DnThread::hit_*`): `[lo, hi) → id`, valid while
//!    the generation it was taken at is current (the global [`GEN`] for global/heap
//!    ranges, the thread's own stack generation for its stack arrays).
//! 2. **The thread's stack list** (its live stack-array instances, pushed by
//!    `__tpd_array_enter`, popped by `__tpd_array_leave`), only if the address lies within
//!    the list's bounds.
//! 3. **The global table** of live global, static and heap ranges: a sorted array read
//!    lock-free under a **seqlock** (writers — registrations and releases, under a spin
//!    lock — make the sequence odd, rewrite the array, make it even; readers retry when
//!    it changed). Ranges nest (a block sub-allocated from a marked pool, a struct inside
//!    a marked array) but never partially overlap: a registration that partially overlaps
//!    a live range (its memory was freed without `__tpd_release`, by uninstrumented code)
//!    releases that range first. Lookup finds the innermost range: entries are sorted by
//!    `lo` ascending, `hi` descending; a binary search finds the last entry starting at or
//!    before the address, and its chain of enclosing entries (`parent`, precomputed) is
//!    walked until one contains the address.
//! 4. **Other threads' stack lists** (a stack array shared with OpenMP workers), if any
//!    thread ever entered a stack array and the address is inside a list's bounds; each
//!    list is read under its own seqlock.
//!
//! A lookup never blocks: a reader that finds the table being rewritten by its own thread
//! (a hook in a signal handler that interrupted a registration) gives up (unmarked), and
//! others spin until the writer finishes (rewrites are short).

use core::cell::Cell;
use core::mem::size_of;
use core::sync::atomic::{fence, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

use super::lock::SpinLock;
use super::threads::{self, DnThread};
use crate::sys::{self, MmapVec};

/// Most live global/heap ranges.
pub const MAX_LIVE: usize = 1 << 20;
/// Most live stack-array instances per thread.
pub const STACK_CAP: usize = 4096;
const NONE: u32 = u32::MAX;
/// Bit that marks a cached hit as one of the thread's own stack arrays.
const STACK_HIT: u64 = 1 << 63;

struct Entry {
    lo: AtomicUsize,
    hi: AtomicUsize,
    id: AtomicU32,
    parent: AtomicU32,
}

/// A range as the writer keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub lo: usize,
    pub hi: usize,
    pub id: u32,
}

static TABLE: AtomicUsize = AtomicUsize::new(0);
static LEN: AtomicUsize = AtomicUsize::new(0);
static SEQ: AtomicU64 = AtomicU64::new(0);
/// Bumped whenever the global table changes (invalidates the per-thread hits).
pub static GEN: AtomicU64 = AtomicU64::new(1);
pub(crate) static LOCK: SpinLock = SpinLock::new();
/// Ranges dropped because the table was full.
pub static TABLE_FULL: AtomicU64 = AtomicU64::new(0);

/// The writer's copy of the table (under [`LOCK`]).
struct Writer {
    ranges: MmapVec<Range>,
    scratch: MmapVec<Range>,
}
struct WriterCell(core::cell::UnsafeCell<Writer>);
// SAFETY: accessed only under LOCK.
unsafe impl Sync for WriterCell {}
static WRITER: WriterCell = WriterCell(core::cell::UnsafeCell::new(Writer {
    ranges: MmapVec::new(),
    scratch: MmapVec::new(),
}));

fn table() -> *const Entry {
    TABLE.load(Acquire) as *const Entry
}

/// Why an existing range was taken out by [`insert`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Displaced {
    /// Same range, registered again (a global defined in several modules).
    Duplicate(u32),
}

/// Inserts `[lo, hi)` for array `id`. Ranges that partially overlap it, or are identical
/// to it, are removed first and passed to `evict` (their arrays are no longer live).
/// Returns false if the table is full.
pub fn insert(r: Range, mut evict: impl FnMut(u32)) -> bool {
    let _g = LOCK.lock();
    // SAFETY: under LOCK.
    let w = unsafe { &mut *WRITER.0.get() };
    w.scratch.truncate(0);
    let mut ok = true;
    let mut pos = None;
    for &e in w.ranges.as_slice() {
        let overlap = e.lo < r.hi && r.lo < e.hi;
        let nested = (e.lo <= r.lo && r.hi <= e.hi) || (r.lo <= e.lo && e.hi <= r.hi);
        let same = e.lo == r.lo && e.hi == r.hi;
        if overlap && (same || !nested) {
            evict(e.id);
            continue;
        }
        if pos.is_none() && (e.lo > r.lo || (e.lo == r.lo && e.hi < r.hi)) {
            pos = Some(());
            ok &= w.scratch.push(r);
        }
        ok &= w.scratch.push(e);
    }
    if pos.is_none() {
        ok &= w.scratch.push(r);
    }
    if !ok || w.scratch.len() > MAX_LIVE {
        TABLE_FULL.fetch_add(1, Relaxed);
        return false;
    }
    core::mem::swap(&mut w.ranges, &mut w.scratch);
    publish(w.ranges.as_slice())
}

/// Removes the range starting at `lo` of an array `accept`s (the innermost such range).
/// Returns its id.
pub fn remove(lo: usize, mut accept: impl FnMut(u32) -> bool) -> Option<u32> {
    let _g = LOCK.lock();
    // SAFETY: under LOCK.
    let w = unsafe { &mut *WRITER.0.get() };
    let at = w
        .ranges
        .as_slice()
        .iter()
        .rposition(|e| e.lo == lo && accept(e.id))?;
    let id = w.ranges.as_slice().get(at)?.id;
    w.scratch.truncate(0);
    for (i, &e) in w.ranges.as_slice().iter().enumerate() {
        if i != at {
            w.scratch.push(e);
        }
    }
    core::mem::swap(&mut w.ranges, &mut w.scratch);
    publish(w.ranges.as_slice());
    Some(id)
}

/// Rewrites the shared table from `v` (sorted) under the seqlock. Caller holds LOCK.
fn publish(v: &[Range]) -> bool {
    let mut t = table() as *mut Entry;
    if t.is_null() {
        t = sys::mmap_anon(MAX_LIVE * size_of::<Entry>()).cast();
        if t.is_null() {
            TABLE_FULL.fetch_add(1, Relaxed);
            return false;
        }
        TABLE.store(t as usize, Release);
    }
    // Parents: the nearest earlier entry containing each entry (ranges are laminar).
    let mut stack = [0u32; 64];
    let mut depth = 0usize;
    let s = SEQ.load(Relaxed);
    SEQ.store(s + 1, Relaxed);
    fence(Release);
    for (i, r) in v.iter().enumerate().take(MAX_LIVE) {
        while depth > 0 {
            let top = stack.get(depth - 1).copied().unwrap_or(0) as usize;
            match v.get(top) {
                Some(p) if p.hi > r.lo => break,
                _ => depth -= 1,
            }
        }
        let parent = if depth > 0 {
            stack.get(depth - 1).copied().unwrap_or(NONE)
        } else {
            NONE
        };
        if depth < stack.len() {
            if let Some(x) = stack.get_mut(depth) {
                *x = i as u32;
            }
            depth += 1;
        }
        // SAFETY: i < MAX_LIVE, the mapping has MAX_LIVE entries.
        let e = unsafe { &*t.add(i) };
        e.lo.store(r.lo, Relaxed);
        e.hi.store(r.hi, Relaxed);
        e.id.store(r.id, Relaxed);
        e.parent.store(parent, Relaxed);
    }
    LEN.store(v.len().min(MAX_LIVE), Relaxed);
    SEQ.store(s + 2, Release);
    GEN.fetch_add(1, Release);
    true
}

/// The innermost live global/heap range containing `a`.
pub fn lookup_global(a: usize) -> Option<Range> {
    lookup_window(a).map(|(r, _, _)| r)
}

/// The innermost live global/heap range containing `a`, with the window around `a`
/// that maps to the same range (the range minus the ranges nested in it), which is what
/// a thread may cache.
fn lookup_window(a: usize) -> Option<(Range, usize, usize)> {
    let t = table();
    if t.is_null() {
        return None;
    }
    let mut spins = 0u32;
    loop {
        let s1 = SEQ.load(Acquire);
        if s1 & 1 == 1 {
            if LOCK.held_by_me() {
                return None;
            }
            spins += 1;
            if spins > 1000 {
                // SAFETY: plain system call.
                unsafe { libc::sched_yield() };
            }
            core::hint::spin_loop();
            continue;
        }
        let n = LEN.load(Relaxed).min(MAX_LIVE);
        let mut found = None;
        // Last entry with lo <= a.
        let (mut l, mut h) = (0usize, n);
        while l < h {
            let m = (l + h) / 2;
            // SAFETY: m < n <= MAX_LIVE.
            if unsafe { &*t.add(m) }.lo.load(Relaxed) <= a {
                l = m + 1;
            } else {
                h = m;
            }
        }
        if l > 0 {
            let mut j = (l - 1) as u32;
            // Nested ranges passed on the way up end at or before `a`.
            let mut wlo = 0usize;
            for _ in 0..64 {
                if j as usize >= n {
                    break;
                }
                // SAFETY: j < n.
                let e = unsafe { &*t.add(j as usize) };
                let (lo, hi) = (e.lo.load(Relaxed), e.hi.load(Relaxed));
                if lo <= a && a < hi {
                    // The next range starting after `a` (if nested) ends the window.
                    let next = if l < n {
                        // SAFETY: l < n.
                        unsafe { &*t.add(l) }.lo.load(Relaxed)
                    } else {
                        usize::MAX
                    };
                    found = Some((
                        Range {
                            lo,
                            hi,
                            id: e.id.load(Relaxed),
                        },
                        wlo.max(lo),
                        next.min(hi),
                    ));
                    break;
                }
                wlo = wlo.max(hi);
                j = e.parent.load(Relaxed);
            }
        }
        fence(Acquire);
        if SEQ.load(Relaxed) == s1 {
            return found;
        }
    }
}

/// Live global/heap ranges (a lock-free copy, for tests and the report).
pub fn for_each_global(mut f: impl FnMut(Range)) {
    let t = table();
    if t.is_null() {
        return;
    }
    let mut buf: MmapVec<Range> = MmapVec::new();
    for _ in 0..100 {
        let s1 = SEQ.load(Acquire);
        if s1 & 1 == 1 {
            core::hint::spin_loop();
            continue;
        }
        buf.truncate(0);
        let n = LEN.load(Relaxed).min(MAX_LIVE);
        for i in 0..n {
            // SAFETY: i < n.
            let e = unsafe { &*t.add(i) };
            buf.push(Range {
                lo: e.lo.load(Relaxed),
                hi: e.hi.load(Relaxed),
                id: e.id.load(Relaxed),
            });
        }
        fence(Acquire);
        if SEQ.load(Relaxed) == s1 {
            break;
        }
    }
    for &r in buf.as_slice() {
        f(r);
    }
}

// ----------------------------------------------------------------------------------
// Per-thread stack lists
// ----------------------------------------------------------------------------------

#[repr(C)]
pub struct StackEntry {
    lo: AtomicUsize,
    hi: AtomicUsize,
    id: AtomicU32,
}

/// A thread's live stack-array instances, most recent last. The owner pushes and pops;
/// other threads read under `seq`.
pub struct StackList {
    entries: *mut StackEntry,
    seq: AtomicU64,
    len: AtomicUsize,
    /// Bounds of the live entries (reset when the list empties).
    min_lo: AtomicUsize,
    max_hi: AtomicUsize,
    /// Instances not pushed because the list was full (owner only).
    overflow: Cell<usize>,
    /// Bumped on every change (owner only; validates cached hits).
    gen: Cell<u64>,
}

/// Instances dropped because some thread's stack list was full.
pub static STACK_FULL: AtomicU64 = AtomicU64::new(0);

impl StackList {
    pub fn bytes() -> usize {
        STACK_CAP * size_of::<StackEntry>()
    }

    pub fn new(entries: *mut StackEntry) -> Self {
        StackList {
            entries,
            seq: AtomicU64::new(0),
            len: AtomicUsize::new(0),
            min_lo: AtomicUsize::new(usize::MAX),
            max_hi: AtomicUsize::new(0),
            overflow: Cell::new(0),
            gen: Cell::new(0),
        }
    }

    fn entry(&self, i: usize) -> &StackEntry {
        // SAFETY: callers keep i < STACK_CAP.
        unsafe { &*self.entries.add(i.min(STACK_CAP - 1)) }
    }

    fn begin(&self) -> u64 {
        let s = self.seq.load(Relaxed);
        self.seq.store(s + 1, Relaxed);
        fence(Release);
        self.gen.set(self.gen.get() + 1);
        s
    }

    fn end(&self, s: u64) {
        self.seq.store(s + 2, Release);
    }

    /// Owner: a stack array `[lo, hi)` of array `id` comes into scope. `sp` approximates
    /// the stack pointer: instances entirely below it belong to frames that are gone
    /// (unwinding skipped their release) and are dropped, as are instances the new one
    /// overlaps.
    pub fn push(&self, lo: usize, hi: usize, id: u32, sp: usize) {
        let s = self.begin();
        let mut n = self.len.load(Relaxed);
        while n > 0 {
            let e = self.entry(n - 1);
            let (elo, ehi) = (e.lo.load(Relaxed), e.hi.load(Relaxed));
            if ehi <= sp || (elo < hi && lo < ehi) {
                n -= 1;
            } else {
                break;
            }
        }
        if n == 0 {
            self.min_lo.store(usize::MAX, Relaxed);
            self.max_hi.store(0, Relaxed);
        }
        if n < STACK_CAP {
            let e = self.entry(n);
            e.lo.store(lo, Relaxed);
            e.hi.store(hi, Relaxed);
            e.id.store(id, Relaxed);
            n += 1;
            if lo < self.min_lo.load(Relaxed) {
                self.min_lo.store(lo, Relaxed);
            }
            if hi > self.max_hi.load(Relaxed) {
                self.max_hi.store(hi, Relaxed);
            }
        } else {
            self.overflow.set(self.overflow.get() + 1);
            STACK_FULL.fetch_add(1, Relaxed);
        }
        self.len.store(n, Relaxed);
        self.end(s);
    }

    /// Owner: the stack array at `lo` goes out of scope (with everything pushed after
    /// it: their releases were skipped).
    pub fn pop(&self, lo: usize) {
        let n = self.len.load(Relaxed);
        let mut at = None;
        for i in (0..n).rev() {
            if self.entry(i).lo.load(Relaxed) == lo {
                at = Some(i);
                break;
            }
        }
        match at {
            Some(i) => {
                let s = self.begin();
                self.len.store(i, Relaxed);
                if i == 0 {
                    self.min_lo.store(usize::MAX, Relaxed);
                    self.max_hi.store(0, Relaxed);
                }
                self.end(s);
            }
            None => {
                let o = self.overflow.get();
                if o > 0 {
                    self.overflow.set(o - 1);
                }
            }
        }
    }

    /// Owner-side lookup (no seqlock needed).
    fn lookup_own(&self, a: usize) -> Option<Range> {
        if a < self.min_lo.load(Relaxed) || a >= self.max_hi.load(Relaxed) {
            return None;
        }
        let n = self.len.load(Relaxed);
        for i in (0..n).rev() {
            let e = self.entry(i);
            let (lo, hi) = (e.lo.load(Relaxed), e.hi.load(Relaxed));
            if lo <= a && a < hi {
                return Some(Range {
                    lo,
                    hi,
                    id: e.id.load(Relaxed),
                });
            }
        }
        None
    }

    /// Lookup from another thread (under the list's seqlock; gives up after a while).
    fn lookup_other(&self, a: usize) -> Option<Range> {
        for _ in 0..1000 {
            let s1 = self.seq.load(Acquire);
            if s1 & 1 == 1 {
                core::hint::spin_loop();
                continue;
            }
            let mut found = None;
            if a >= self.min_lo.load(Relaxed) && a < self.max_hi.load(Relaxed) {
                let n = self.len.load(Relaxed).min(STACK_CAP);
                for i in (0..n).rev() {
                    let e = self.entry(i);
                    let (lo, hi) = (e.lo.load(Relaxed), e.hi.load(Relaxed));
                    if lo <= a && a < hi {
                        found = Some(Range {
                            lo,
                            hi,
                            id: e.id.load(Relaxed),
                        });
                        break;
                    }
                }
            }
            fence(Acquire);
            if self.seq.load(Relaxed) == s1 {
                return found;
            }
        }
        None
    }

    /// Calls `f(id)` for every live instance (report: which stack arrays are live).
    pub fn for_each_live(&self, mut f: impl FnMut(u32)) {
        let n = self.len.load(Acquire).min(STACK_CAP);
        for i in 0..n {
            f(self.entry(i).id.load(Relaxed));
        }
    }

    /// Number of live instances.
    pub fn len(&self) -> usize {
        self.len.load(Relaxed)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The marked array containing `a`, as seen by thread `t` (its id and the element
/// range). Uses and refreshes `t`'s last-hit cache.
#[inline]
pub fn find(t: &DnThread, a: usize) -> Option<Range> {
    let g = t.hit_gen.get();
    if a >= t.hit_lo.get() && a < t.hit_hi.get() {
        let valid = if g & STACK_HIT != 0 {
            g == STACK_HIT | t.stack.gen.get()
        } else {
            g == GEN.load(Relaxed)
        };
        if valid {
            return Some(Range {
                lo: t.hit_arr_lo.get(),
                hi: t.hit_arr_hi.get(),
                id: t.hit_id.get(),
            });
        }
    }
    find_slow(t, a)
}

#[inline(never)]
fn find_slow(t: &DnThread, a: usize) -> Option<Range> {
    if let Some(r) = t.stack.lookup_own(a) {
        remember(t, r, r.lo, r.hi, STACK_HIT | t.stack.gen.get());
        return Some(r);
    }
    let gen = GEN.load(Acquire);
    if let Some((r, wlo, whi)) = lookup_window(a) {
        remember(t, r, wlo, whi, gen);
        return Some(r);
    }
    if threads::ANY_STACK.load(Relaxed) != 0 {
        let mut found = None;
        threads::for_each(|o| {
            if found.is_none() && !core::ptr::eq(o, t) && !o.stack.is_empty() {
                found = o.stack.lookup_other(a);
            }
        });
        return found;
    }
    None
}

fn remember(t: &DnThread, r: Range, wlo: usize, whi: usize, gen: u64) {
    t.hit_lo.set(wlo);
    t.hit_hi.set(whi);
    t.hit_arr_lo.set(r.lo);
    t.hit_arr_hi.set(r.hi);
    t.hit_id.set(r.id);
    t.hit_gen.set(gen);
}

/// Forgets `t`'s cached hit (tests).
pub fn forget_hit(t: &DnThread) {
    t.hit_gen.set(u64::MAX);
    t.hit_hi.set(0);
}
