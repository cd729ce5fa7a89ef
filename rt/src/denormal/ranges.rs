//! Address → marked array.
//!
//! Three places, looked up in this order by the cold hooks:
//!
//! 1. **The calling thread's last hits** (`DnThread::hits`, [`HITS`] entries replaced
//!    round-robin, so that a loop reading one array and writing another hits both):
//!    `[lo, hi) → id` plus what counting an element needs (element size, the thread's
//!    counters of the array). A window of unmarked memory (the gap between ranges) is
//!    cached too, while no other thread has stack arrays that could lie in it (the
//!    thread's own are cut out of the window). All entries are
//!    valid while the global [`GEN`] and the thread's own stack generation are what they
//!    were when the entry was made (checked once per hook call).
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

use taintprof_sigsafe::{mmap_anon, MmapVec, SpinLock};

use super::threads::{self, DnThread};

/// Most live global/heap ranges.
pub const MAX_LIVE: usize = 1 << 20;
/// Most live stack-array instances per thread.
pub const STACK_CAP: usize = 4096;
const NONE: u32 = u32::MAX;

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
/// Bumped whenever the global table changes (invalidates the per-thread hits and the
/// inline memory caches of instrumented code, which read it by its ABI name
/// `__tpd_ranges_gen`). Bit 63 is set for good when block counters are shared between
/// modules ([`poison_inline_caches`]).
#[no_mangle]
pub static __tpd_ranges_gen: AtomicU64 = AtomicU64::new(1);
pub use self::__tpd_ranges_gen as GEN;

/// Bit of [`GEN`] set once inline caches must never hit again.
pub const GEN_POISON: u64 = 1 << 63;

/// Makes every inline memory cache miss from now on, for good: a module's block
/// counters overlap another's (the counter block is full), so a cache's words may be
/// bumped as another module's counters. Caches filled before hold a key without bit 63
/// and can no longer match; the hooks fill no new ones.
pub fn poison_inline_caches() {
    GEN.fetch_or(GEN_POISON, SeqCst);
}

/// Whether inline caches may be filled (see [`poison_inline_caches`]).
pub fn inline_caches_allowed() -> bool {
    GEN.load(Relaxed) & GEN_POISON == 0
}
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
        t = mmap_anon(MAX_LIVE * size_of::<Entry>()).cast();
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

/// A range and the window `[lo, hi)` around an address that maps to it.
type Window = (Range, usize, usize);

/// The innermost live global/heap range containing `a`, with the window around `a`
/// that maps to the same range (the range minus the ranges nested in it), which is what
/// a thread may cache.
fn lookup_window(a: usize) -> Option<Window> {
    lookup_window_or_gap(a).0
}

/// [`lookup_window`], and if no range contains `a`, the gap `[lo, hi)` around it that no
/// range intersects (`(0, 0)` when the table is being rewritten by this thread).
fn lookup_window_or_gap(a: usize) -> (Option<Window>, (usize, usize)) {
    let t = table();
    if t.is_null() {
        return (None, (0, usize::MAX));
    }
    let mut spins = 0u32;
    loop {
        let s1 = SEQ.load(Acquire);
        if s1 & 1 == 1 {
            if LOCK.held_by_me() {
                return (None, (0, 0));
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
        let mut gap_hi = usize::MAX;
        // Nested ranges passed on the way up end at or before `a`.
        let mut wlo = 0usize;
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
        if l < n {
            // SAFETY: l < n.
            gap_hi = unsafe { &*t.add(l) }.lo.load(Relaxed);
        }
        // The walk reached the outermost range (or there was none to walk).
        let mut complete = l == 0;
        if l > 0 {
            let mut j = (l - 1) as u32;
            for _ in 0..64 {
                if j as usize >= n {
                    complete = true;
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
            // A walk cut short (64 levels) proves nothing about the gap.
            let gap = if found.is_none() && complete && wlo <= a && a < gap_hi {
                (wlo, gap_hi)
            } else {
                (0, 0)
            };
            return (found, gap);
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

    /// Bounds `[min_lo, max_hi)` of the live entries (owner; empty when none).
    fn bounds(&self) -> (usize, usize) {
        (self.min_lo.load(Relaxed), self.max_hi.load(Relaxed))
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

/// Entries of the per-thread cache of array ranges hit (`DnThread::hits`).
pub const HITS: usize = 4;
/// `Hit::shift` of arrays whose element size is not a power of two.
pub const NO_SHIFT: u32 = u32::MAX;

/// A cached array range: addresses in the window `[lo, hi)` belong to array `id`
/// (`[arr_lo, arr_hi)`; the window leaves out the ranges nested in it), with what the
/// hooks need to count an element: its size and the calling thread's counters.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub lo: usize,
    pub hi: usize,
    pub arr_lo: usize,
    pub arr_hi: usize,
    pub id: u32,
    /// log2 of the element size, or [`NO_SHIFT`] (divide by `esz`).
    pub shift: u32,
    pub esz: u64,
    /// Elements of the array (the length of `shard`'s halves).
    pub n: u64,
    /// The thread's element counters of the array (`arrays::shard`), null until the
    /// first event through this entry.
    pub shard: *mut AtomicU32,
}

impl Hit {
    pub const EMPTY: Hit = Hit {
        lo: 0,
        hi: 0,
        arr_lo: 0,
        arr_hi: 0,
        id: 0,
        shift: NO_SHIFT,
        esz: 1,
        n: 0,
        shard: core::ptr::null_mut(),
    };

    pub fn range(&self) -> Range {
        Range {
            lo: self.arr_lo,
            hi: self.arr_hi,
            id: self.id,
        }
    }

    /// Index of the element at `a` (inside the array).
    #[inline(always)]
    pub fn element(&self, a: usize) -> u64 {
        let off = (a - self.arr_lo) as u64;
        if self.shift != NO_SHIFT {
            off >> self.shift
        } else {
            off / self.esz
        }
    }
}

/// What the cached hits of `t` are valid for: the global table's generation plus the
/// thread's stack-list generation (both only grow, so the sum changes with either).
#[inline(always)]
fn hit_key(t: &DnThread) -> u64 {
    GEN.load(Relaxed)
        .wrapping_add(t.stack.gen.get())
        .wrapping_add(threads::ANY_STACK.load(Relaxed) as u64)
}

/// `Hit::id` of a cached window of unmarked memory.
const UNMARKED: u32 = u32::MAX;

/// Drops `t`'s cached hits if the ranges changed since they were taken. The hooks call
/// it once per call, then [`find_hit`] per element.
#[inline(always)]
pub fn validate_hits(t: &DnThread) {
    let k = hit_key(t);
    if k != t.hit_key.get() {
        forget_hit(t);
        t.hit_key.set(k);
    }
}

/// The marked array containing `a`, as seen by thread `t`: a cached entry (after
/// [`validate_hits`]), else the lookup, whose result is cached. `None`: unmarked.
#[inline(always)]
pub fn find_hit(t: &DnThread, a: usize) -> Option<(usize, Hit)> {
    for (i, c) in t.hits.iter().enumerate() {
        // Test the window in place; copy the entry only when it is the one.
        // SAFETY: owner-only cell, no reference to its contents is alive.
        let (lo, hi) = unsafe { ((*c.as_ptr()).lo, (*c.as_ptr()).hi) };
        if a.wrapping_sub(lo) < hi.wrapping_sub(lo) {
            let h = c.get();
            return (h.id != UNMARKED).then_some((i, h));
        }
    }
    find_slow(t, a)
}

/// The marked array containing `a`, as seen by thread `t` (its id and range). Uses and
/// refreshes `t`'s cache.
#[inline]
pub fn find(t: &DnThread, a: usize) -> Option<Range> {
    validate_hits(t);
    find_hit(t, a).map(|(_, h)| h.range())
}

#[inline(never)]
fn find_slow(t: &DnThread, a: usize) -> Option<(usize, Hit)> {
    if let Some(r) = t.stack.lookup_own(a) {
        return Some(remember(t, r, r.lo, r.hi));
    }
    let (found, gap) = lookup_window_or_gap(a);
    if let Some((r, wlo, whi)) = found {
        return Some(remember(t, r, wlo, whi));
    }
    if !threads::other_threads_have_stacks(t) {
        // Unmarked: remember the gap, minus the bounds of our own stack arrays (there
        // are none on other threads, and another thread's first one changes the key).
        // A program with stack arrays on one thread (most) keeps this cache: without
        // it, every denormal in unmarked memory (a struct's fields, an untyped block)
        // cost a full lookup (LAME's ReplayGain filters: a third of the run).
        let (mut lo, mut hi) = gap;
        let (slo, shi) = t.stack.bounds();
        if slo < shi && lo < shi && slo < hi {
            if a < slo {
                hi = slo;
            } else if a >= shi {
                lo = shi;
            } else {
                return None;
            }
        }
        if lo <= a && a < hi {
            let h = Hit {
                lo,
                hi,
                id: UNMARKED,
                ..Hit::EMPTY
            };
            let i = t.hit_next.get() as usize % HITS;
            t.hit_next.set(((i + 1) % HITS) as u32);
            if let Some(c) = t.hits.get(i) {
                c.set(h);
            }
        }
        return None;
    }
    let mut found = None;
    threads::for_each(|o| {
        if found.is_none() && !core::ptr::eq(o, t) && !o.stack.is_empty() {
            found = o.stack.lookup_other(a);
        }
    });
    // Not cached: another thread's stack changes without our knowing.
    found.map(|r| (HITS, hit_for(t, r, a, a + 1)))
}

fn hit_for(t: &DnThread, r: Range, wlo: usize, whi: usize) -> Hit {
    let mut h = Hit {
        lo: wlo,
        hi: whi,
        arr_lo: r.lo,
        arr_hi: r.hi,
        id: r.id,
        ..Hit::EMPTY
    };
    if let Some(rec) = super::arrays::rec_if_exists(r.id) {
        let esz = rec.elem_size.load(Relaxed).max(1);
        h.esz = esz;
        h.shift = if esz.is_power_of_two() {
            esz.trailing_zeros()
        } else {
            NO_SHIFT
        };
        h.n = rec.elements.load(Relaxed);
        h.shard = t.shard(r.id);
    }
    h
}

fn remember(t: &DnThread, r: Range, wlo: usize, whi: usize) -> (usize, Hit) {
    let h = hit_for(t, r, wlo, whi);
    let i = t.hit_next.get() as usize % HITS;
    t.hit_next.set(((i + 1) % HITS) as u32);
    if let Some(c) = t.hits.get(i) {
        c.set(h);
    }
    (i, h)
}

/// Updates the counters pointer of cached entry `i` (after they were mapped).
#[inline]
pub fn set_hit_shard(t: &DnThread, i: usize, shard: *mut AtomicU32) {
    if let Some(c) = t.hits.get(i) {
        let mut h = c.get();
        h.shard = shard;
        c.set(h);
    }
}

/// Forgets `t`'s cached hits.
pub fn forget_hit(t: &DnThread) {
    for c in t.hits.iter() {
        c.set(Hit::EMPTY);
    }
}
