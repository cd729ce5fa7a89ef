//! Marked arrays: one record per array, identified by a 16-bit id (the origin field of
//! tags).
//!
//! * **Globals and statics**: one record per live range (a global defined in several
//!   modules is registered once).
//! * **Stack arrays**: one record per `FpArrayDesc` (the variable), shared by all its
//!   instances — every call of the function, on every thread. Its counters are indexed
//!   by element offset within the instance. Ids do not run out in deep or frequent calls.
//! * **Heap blocks**: one record per allocation.
//!
//! Ids are 1..=65535 and are not reused while a tag can refer to them: an array's id
//! gets into a tag only through a denormal load from it or a denormal store into it,
//! both of which mark the record `touched`. A released array that was never touched is
//! recycled (programs that allocate FP temporaries in a loop would otherwise exhaust the
//! ids); a touched one keeps its id and statistics for the report (`live: false`). When
//! no id is left, new arrays share the record **other** (id 0: no origin in tags, totals
//! only, no heatmap), and the report warns.
//!
//! Per array and thread: per-element **cumulative counters** of denormal reads and writes
//! (`u32`, one `mmap` made on the thread's first denormal event in the array, reached
//! through `DnThread::shards` and the thread's range cache). Only their thread writes
//! them, with plain increments; nobody resets them. A snapshot sums them over threads
//! and takes the difference to what the previous snapshot saw (`seen`, per element):
//! that is the **interval** it bins, and it adds it to `flushed_*`. Cumulative totals are
//! `flushed + extra + current interval`. `extra_*` (shared atomics) counts events that
//! have no element counter (record *other*, or counters that could not be mapped).
//!
//! Records live in 256 chunks of 256, mapped on demand and never freed, so readers (the
//! report, possibly in a signal handler) need no lock; mutable fields are atomics.

use core::ffi::c_char;
use core::mem::size_of;
use core::ptr::{self, null_mut};
use core::sync::atomic::{
    fence, AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering::*,
};

use taintprof_abi::{
    AllocSiteDesc, FpArrayDesc, ALLOC_SITE_BY_POINTER, ALLOC_SITE_VLA, ARRAY_HEAP,
};
use taintprof_sigsafe::{cstr, mmap_anon, munmap, Lossy, MmapVec, SpinLock, StackBuf};

use super::threads::DnThread;

/// Largest array id.
pub const MAX_ID: u32 = 65535;
/// Record of arrays that got no id of their own.
pub const OTHER: u32 = 0;
/// Element counters are not mapped for arrays larger than this (bytes of counters).
const MAX_COUNTER_BYTES: u64 = 1 << 36;

/// Record states.
pub const FREE: u32 = 0;
pub const READY: u32 = 2;

pub struct ArrayRec {
    pub state: AtomicU32,
    /// `ARRAY_*`.
    pub kind: AtomicU32,
    /// `FP_*` element type.
    pub elem_ty: AtomicU32,
    pub elem_size: AtomicU64,
    pub elements: AtomicU64,
    /// Start address (globals, heap); 0 for stack arrays.
    pub base: AtomicUsize,
    /// `*const FpArrayDesc` (global, static, stack) or `*const AllocSiteDesc` (heap).
    pub desc: AtomicUsize,
    /// Name from `tp_array_shape` (leaked, NUL-terminated) or null.
    pub name: AtomicPtr<u8>,
    pub rows: AtomicU64,
    pub cols: AtomicU64,
    pub live: AtomicBool,
    pub touched: AtomicBool,
    /// Per element, the cumulative counts (summed over threads) the last snapshot saw:
    /// `2 * elements` (reads, then writes). Null until a snapshot needs it.
    pub seen: AtomicPtr<AtomicU32>,
    /// The interval counters as [`ArrayRec::counters`] last materialized them.
    view: AtomicPtr<AtomicU32>,
    /// Odd while a snapshot moves the interval into `seen` and `flushed_*` (readers of
    /// the totals retry).
    snap_seq: AtomicU64,
    pub flushed_reads: AtomicU64,
    pub flushed_writes: AtomicU64,
    pub extra_reads: AtomicU64,
    pub extra_writes: AtomicU64,
}

const CHUNK: usize = 256;
static CHUNKS: [AtomicPtr<ArrayRec>; 256] = [const { AtomicPtr::new(null_mut()) }; 256];
/// Next never-used id.
static NEXT_ID: AtomicU32 = AtomicU32::new(1);
/// Arrays that got no id (tracked as *other*).
pub static OTHER_ARRAYS: AtomicU64 = AtomicU64::new(0);
/// Ranges released implicitly (their memory was reused without `__tpd_release`).
pub static IMPLICIT_RELEASES: AtomicU64 = AtomicU64::new(0);
pub(crate) static ID_LOCK: SpinLock = SpinLock::new();
struct FreeIds(core::cell::UnsafeCell<MmapVec<u32>>);
// SAFETY: only under ID_LOCK.
unsafe impl Sync for FreeIds {}
static FREE_IDS: FreeIds = FreeIds(core::cell::UnsafeCell::new(MmapVec::new()));

/// The record of `id` (any id up to [`MAX_ID`]; its chunk is mapped on demand).
pub fn rec(id: u32) -> Option<&'static ArrayRec> {
    if id > MAX_ID {
        return None;
    }
    let c = CHUNKS.get(id as usize / CHUNK)?;
    let mut p = c.load(Acquire);
    if p.is_null() {
        let m = mmap_anon(CHUNK * size_of::<ArrayRec>()).cast::<ArrayRec>();
        if m.is_null() {
            return None;
        }
        match c.compare_exchange(null_mut(), m, AcqRel, Acquire) {
            Ok(_) => p = m,
            Err(other) => {
                // SAFETY: our fresh mapping, never published.
                unsafe { munmap(m.cast(), CHUNK * size_of::<ArrayRec>()) };
                p = other;
            }
        }
    }
    // SAFETY: chunk of CHUNK zero-initialised records (all-zero is a valid ArrayRec).
    Some(unsafe { &*p.add(id as usize % CHUNK) })
}

/// The record of `id` if it was ever created (no mapping).
pub fn rec_if_exists(id: u32) -> Option<&'static ArrayRec> {
    if id > MAX_ID {
        return None;
    }
    let p = CHUNKS.get(id as usize / CHUNK)?.load(Acquire);
    // SAFETY: as in `rec`.
    (!p.is_null()).then(|| unsafe { &*p.add(id as usize % CHUNK) })
}

/// Ids handed out so far (exclusive upper bound).
pub fn id_limit() -> u32 {
    NEXT_ID.load(Acquire).min(MAX_ID + 1)
}

/// What a new array is.
pub struct NewArray {
    pub kind: u16,
    pub elem_ty: u16,
    pub elem_size: u64,
    pub elements: u64,
    pub base: usize,
    pub desc: usize,
}

/// Creates a record; returns its id ([`OTHER`] when ids ran out).
pub fn create(a: &NewArray) -> u32 {
    let id = {
        let _g = ID_LOCK.lock();
        // SAFETY: under ID_LOCK.
        let free = unsafe { &mut *FREE_IDS.0.get() };
        match free.pop() {
            Some(id) => id,
            None => {
                let id = NEXT_ID.load(Relaxed);
                if id > MAX_ID {
                    OTHER
                } else {
                    NEXT_ID.store(id + 1, Release);
                    id
                }
            }
        }
    };
    let Some(r) = rec(id) else {
        return OTHER;
    };
    if id == OTHER {
        if OTHER_ARRAYS.fetch_add(1, Relaxed) == 0 {
            crate::diag!(
                "warning: more than {} marked arrays: further arrays are counted together as '<other>'",
                MAX_ID
            );
        }
        init_other(r);
        return OTHER;
    }
    r.state.store(1, Relaxed);
    r.kind.store(a.kind as u32, Relaxed);
    r.elem_ty.store(a.elem_ty as u32, Relaxed);
    r.elem_size.store(a.elem_size.max(1), Relaxed);
    r.elements.store(a.elements, Relaxed);
    r.base.store(a.base, Relaxed);
    r.desc.store(a.desc, Relaxed);
    r.name.store(null_mut(), Relaxed);
    r.rows.store(0, Relaxed);
    r.cols.store(0, Relaxed);
    r.touched.store(false, Relaxed);
    r.seen.store(null_mut(), Relaxed);
    r.view.store(null_mut(), Relaxed);
    r.flushed_reads.store(0, Relaxed);
    r.flushed_writes.store(0, Relaxed);
    r.extra_reads.store(0, Relaxed);
    r.extra_writes.store(0, Relaxed);
    r.live.store(true, Relaxed);
    r.state.store(READY, Release);
    id
}

fn init_other(r: &ArrayRec) {
    if r.state.load(Acquire) != READY {
        r.kind.store(0, Relaxed);
        r.live.store(true, Relaxed);
        r.state.store(READY, Release);
    }
}

/// An array's range went away (released, or displaced by a reused range). Untouched
/// arrays give their id back.
pub fn released(id: u32) {
    let Some(r) = rec_if_exists(id) else { return };
    if id == OTHER {
        return;
    }
    r.live.store(false, Release);
    if is_vla(id) {
        // Shared by the array's other activations, present and future: kept.
        return;
    }
    if !r.touched.load(Acquire) {
        // Untouched: no thread has counters of it, no tag names it.
        r.state.store(FREE, Release);
        let _g = ID_LOCK.lock();
        // SAFETY: under ID_LOCK.
        unsafe { &mut *FREE_IDS.0.get() }.push(id);
    }
}

fn counter_bytes(elements: u64) -> u64 {
    elements.saturating_mul(2 * size_of::<u32>() as u64)
}

/// Whether the counters of an array of `elements` elements may be mapped.
fn countable(r: &ArrayRec) -> bool {
    let bytes = counter_bytes(r.elements.load(Relaxed));
    bytes > 0 && bytes <= MAX_COUNTER_BYTES && r.kind.load(Relaxed) != 0
}

/// The calling thread's element counters of array `id`, mapped on its first event in
/// the array; null when the array has no element counters (record *other*, too large,
/// out of memory). Marks the array touched.
#[cold]
#[inline(never)]
pub fn make_shard(t: &DnThread, id: u32) -> *mut AtomicU32 {
    let p = t.shard(id);
    if !p.is_null() {
        return p;
    }
    let Some(r) = rec_if_exists(id) else {
        return null_mut();
    };
    r.touch();
    if id == OTHER || !countable(r) {
        return null_mut();
    }
    let bytes = counter_bytes(r.elements.load(Relaxed)) as usize;
    let m = mmap_anon(bytes).cast::<AtomicU32>();
    if !m.is_null() {
        t.set_shard(id, m);
    }
    m
}

/// Counts an event of array `id` that has no element counter.
#[cold]
#[inline(never)]
pub fn count_extra(id: u32, write: bool) {
    if let Some(r) = rec_if_exists(id) {
        r.touch();
        if write {
            r.extra_writes.fetch_add(1, Relaxed);
        } else {
            r.extra_reads.fetch_add(1, Relaxed);
        }
    }
}

/// Owner-only increment of a `u32` counter (no `lock` prefix).
#[inline(always)]
pub fn bump32(c: &AtomicU32) {
    c.store(c.load(Relaxed).wrapping_add(1), Relaxed);
}

/// The element counters of array `id` of every thread that has some.
fn shards_of(id: u32, out: &mut MmapVec<usize>) {
    out.truncate(0);
    super::threads::for_each(|t| {
        let p = t.shard(id);
        if !p.is_null() {
            out.push(p as usize);
        }
    });
}

/// Per element `i`: (reads, writes) counted by all threads so far (wrapping `u32`).
#[inline]
fn cumulative(shards: &[usize], n: usize, i: usize) -> (u32, u32) {
    let (mut r, mut w) = (0u32, 0u32);
    for &p in shards {
        let p = p as *const AtomicU32;
        // SAFETY: each shard has 2n counters; i < n.
        unsafe {
            r = r.wrapping_add((*p.add(i)).load(Relaxed));
            w = w.wrapping_add((*p.add(n + i)).load(Relaxed));
        }
    }
    (r, w)
}

impl ArrayRec {
    #[inline(always)]
    fn touch(&self) {
        if !self.touched.load(Relaxed) {
            self.touched.store(true, Release);
        }
    }

    /// The per-element counts seen by the previous snapshot, mapped on first use.
    fn seen_map(&self) -> *mut AtomicU32 {
        let p = self.seen.load(Acquire);
        if !p.is_null() || !countable(self) {
            return p;
        }
        let bytes = counter_bytes(self.elements.load(Relaxed)) as usize;
        let m = mmap_anon(bytes).cast::<AtomicU32>();
        if m.is_null() {
            return m;
        }
        match self.seen.compare_exchange(null_mut(), m, AcqRel, Acquire) {
            Ok(_) => m,
            Err(other) => {
                // SAFETY: our fresh mapping, never published.
                unsafe { munmap(m.cast(), bytes) };
                other
            }
        }
    }

    /// Takes the interval: calls `f(element, reads, writes)` for every element with
    /// events since the previous call, records them as seen, adds them to `flushed_*`,
    /// and returns the interval's (reads, writes). The caller holds the snapshot lock
    /// (one taker at a time).
    pub fn take_interval(&self, id: u32, f: impl FnMut(usize, u32, u32)) -> (u64, u64) {
        let mut shards: MmapVec<usize> = MmapVec::new();
        shards_of(id, &mut shards);
        if shards.is_empty() {
            return (0, 0);
        }
        let seen = self.seen_map();
        if seen.is_null() {
            return (0, 0);
        }
        let s = self.snap_seq.load(Relaxed);
        self.snap_seq.store(s + 1, Relaxed);
        fence(Release);
        let (sr, sw) = self.move_interval(shards.as_slice(), seen, f);
        self.flushed_reads.fetch_add(sr, Relaxed);
        self.flushed_writes.fetch_add(sw, Relaxed);
        self.snap_seq.store(s + 2, Release);
        (sr, sw)
    }

    fn move_interval(
        &self,
        shards: &[usize],
        seen: *mut AtomicU32,
        mut f: impl FnMut(usize, u32, u32),
    ) -> (u64, u64) {
        let n = self.elements.load(Relaxed) as usize;
        let (mut sr, mut sw) = (0u64, 0u64);
        for i in 0..n {
            let (cr, cw) = cumulative(shards, n, i);
            // SAFETY: 2n counters.
            let (pr, pw) = unsafe { (&*seen.add(i), &*seen.add(n + i)) };
            let dr = cr.wrapping_sub(pr.load(Relaxed));
            let dw = cw.wrapping_sub(pw.load(Relaxed));
            if dr | dw != 0 {
                pr.store(cr, Relaxed);
                pw.store(cw, Relaxed);
                sr += dr as u64;
                sw += dw as u64;
                f(i, dr, dw);
            }
        }
        (sr, sw)
    }

    /// The current interval's (reads, writes) of every element, without taking it.
    fn for_each_pending(&self, id: u32, mut f: impl FnMut(usize, u32, u32)) {
        let mut shards: MmapVec<usize> = MmapVec::new();
        shards_of(id, &mut shards);
        if shards.is_empty() {
            return;
        }
        let seen = self.seen.load(Acquire);
        let n = self.elements.load(Relaxed) as usize;
        for i in 0..n {
            let (cr, cw) = cumulative(shards.as_slice(), n, i);
            let (pr, pw) = if seen.is_null() {
                (0, 0)
            } else {
                // SAFETY: 2n counters.
                unsafe {
                    (
                        (*seen.add(i)).load(Relaxed),
                        (*seen.add(n + i)).load(Relaxed),
                    )
                }
            };
            f(i, cr.wrapping_sub(pr), cw.wrapping_sub(pw));
        }
    }

    /// The current interval counters (`2 * elements`: reads, then writes), summed over
    /// threads into a buffer of the record (for tests and diagnostics; null if the array
    /// has no element counters).
    pub fn counters(&self) -> *const AtomicU32 {
        if !countable(self) {
            return ptr::null();
        }
        let n = self.elements.load(Relaxed) as usize;
        let mut v = self.view.load(Acquire);
        if v.is_null() {
            v = mmap_anon(counter_bytes(n as u64) as usize).cast();
            if v.is_null() {
                return ptr::null();
            }
            self.view.store(v, Release);
        }
        let id = self.id();
        self.for_each_pending(id, |i, r, w| {
            // SAFETY: 2n counters.
            unsafe {
                (*v.add(i)).store(r, Relaxed);
                (*v.add(n + i)).store(w, Relaxed);
            }
        });
        v
    }

    /// This record's id.
    fn id(&self) -> u32 {
        for (c, p) in CHUNKS.iter().enumerate() {
            let base = p.load(Acquire);
            if base.is_null() {
                continue;
            }
            let off = (self as *const ArrayRec as usize).wrapping_sub(base as usize);
            if off < CHUNK * size_of::<ArrayRec>() {
                return (c * CHUNK + off / size_of::<ArrayRec>()) as u32;
            }
        }
        OTHER
    }

    /// Cumulative (reads, writes) so far.
    pub fn totals(&self) -> (u64, u64) {
        let id = self.id();
        let mut tries = 0u32;
        loop {
            let s1 = self.snap_seq.load(Acquire);
            let mut r = self.flushed_reads.load(Relaxed) + self.extra_reads.load(Relaxed);
            let mut w = self.flushed_writes.load(Relaxed) + self.extra_writes.load(Relaxed);
            self.for_each_pending(id, |_, x, y| {
                r += x as u64;
                w += y as u64;
            });
            fence(Acquire);
            tries += 1;
            // A snapshot that never finishes (this thread, interrupted in one by a fatal
            // signal) does not hang the report.
            if (s1 & 1 == 0 && self.snap_seq.load(Relaxed) == s1) || tries > 10_000 {
                return (r, w);
            }
            core::hint::spin_loop();
        }
    }

    /// The `FpArrayDesc` of a global, static or stack array.
    pub fn array_desc(&self) -> Option<&'static FpArrayDesc> {
        let d = self.desc.load(Relaxed);
        if d == 0 || self.kind.load(Relaxed) == ARRAY_HEAP as u32 || self.kind.load(Relaxed) == 0 {
            return None;
        }
        // SAFETY: descriptors live for the process.
        Some(unsafe { &*(d as *const FpArrayDesc) })
    }

    /// The allocation site of a heap array.
    pub fn alloc_site(&self) -> Option<&'static AllocSiteDesc> {
        let d = self.desc.load(Relaxed);
        if d == 0 || self.kind.load(Relaxed) != ARRAY_HEAP as u32 {
            return None;
        }
        // SAFETY: descriptors live for the process.
        Some(unsafe { &*(d as *const AllocSiteDesc) })
    }

    /// The shape given by `tp_array_shape`, if any.
    pub fn shape(&self) -> Option<(u64, u64)> {
        let (r, c) = (self.rows.load(Relaxed), self.cols.load(Relaxed));
        (r > 0 && c > 0).then_some((r, c))
    }

    /// Writes the array's name: the `tp_array_shape` name, else the variable, else
    /// `<function:line>` of the allocation site.
    pub fn write_name(&self, id: u32, put: &mut dyn FnMut(&[u8])) {
        let n = self.name.load(Acquire);
        if !n.is_null() {
            // SAFETY: leaked NUL-terminated copy.
            put(unsafe { cstr(n as *const c_char) });
            return;
        }
        if id == OTHER {
            put(b"<other>");
            return;
        }
        if let Some(d) = self.array_desc() {
            // SAFETY: descriptor strings.
            let name = unsafe { cstr(d.name) };
            if !name.is_empty() {
                put(name);
                return;
            }
        }
        if let Some(s) = self.alloc_site() {
            // SAFETY: descriptor strings.
            let name = unsafe { cstr(s.name) };
            if !name.is_empty() {
                put(name);
                return;
            }
            let mut b = StackBuf::<512>::new();
            use core::fmt::Write;
            // SAFETY: descriptor strings.
            let f = unsafe { cstr(s.function) };
            let _ = write!(b, "<{}:{}>", Lossy(f), s.line);
            put(b.as_bytes());
            return;
        }
        let mut b = StackBuf::<32>::new();
        use core::fmt::Write;
        let _ = write!(b, "<array {}>", id);
        put(b.as_bytes());
    }
}

// ----------------------------------------------------------------------------------
// Stack-array records: one per FpArrayDesc
// ----------------------------------------------------------------------------------

const STACK_HASH: usize = 1 << 14;
static STACK_KEYS: [AtomicUsize; STACK_HASH] = [const { AtomicUsize::new(0) }; STACK_HASH];
static STACK_IDS: [AtomicU32; STACK_HASH] = [const { AtomicU32::new(0) }; STACK_HASH];

/// The record id of stack array `d` (created on its first instance). Lock-free when it
/// exists.
#[inline]
pub fn stack_record(d: &FpArrayDesc) -> u32 {
    let key = d as *const FpArrayDesc as usize;
    shared_record(&STACK_KEYS, &STACK_IDS, key, || {
        create(&NewArray {
            kind: d.kind,
            elem_ty: d.elem_ty,
            elem_size: if d.elem_size > 0 {
                d.elem_size as u64
            } else {
                super::elem_size(d.elem_ty) as u64
            },
            elements: d.elements,
            base: 0,
            desc: key,
        })
    })
}

/// Smallest size class of a variable-length array, in elements.
pub const VLA_MIN_CLASS: u64 = 16;

/// The size class of a VLA activation of `elements`: the next power of two, at least
/// [`VLA_MIN_CLASS`]. A class's record has that many element counters, so every
/// activation of the class fits.
pub fn vla_class(elements: u64) -> u64 {
    elements
        .max(VLA_MIN_CLASS)
        .checked_next_power_of_two()
        .unwrap_or(1 << 63)
}

const VLA_HASH: usize = 1 << 12;
static VLA_KEYS: [AtomicUsize; VLA_HASH] = [const { AtomicUsize::new(0) }; VLA_HASH];
static VLA_IDS: [AtomicU32; VLA_HASH] = [const { AtomicU32::new(0) }; VLA_HASH];

/// The record id shared by the activations of the variable-length array of `site`
/// (`ALLOC_SITE_VLA`) whose size class is `class` ([`vla_class`]): created by the first
/// one, never released (like a fixed-size stack array's record). Lock-free when it
/// exists.
pub fn vla_record(site: &AllocSiteDesc, class: u64) -> u32 {
    // Site descriptors are 8-byte aligned and below 2^47: the class's log2 fits above.
    let key = (site as *const AllocSiteDesc as usize) ^ ((class.trailing_zeros() as usize) << 52);
    shared_record(&VLA_KEYS, &VLA_IDS, key, || {
        create(&NewArray {
            kind: ARRAY_HEAP,
            elem_ty: site.elem_ty,
            elem_size: if site.elem_size > 0 {
                site.elem_size as u64
            } else {
                super::elem_size(site.elem_ty) as u64
            },
            elements: class,
            base: 0,
            desc: site as *const AllocSiteDesc as usize,
        })
    })
}

/// Heap array `id` takes allocation site `var` (a local `std::vector`'s name and
/// position, `__tpd_name_container`) when its own site names no variable: the
/// library's allocator allocated it (`std::__new_allocator<float>::allocate` at -O0),
/// or when it names the vector only through a pointer and `var` names the vector
/// itself. A name from `tp_array_shape` or another variable is kept.
pub fn name_by_container(id: u32, var: &'static AllocSiteDesc) {
    let Some(r) = rec_if_exists(id).filter(|_| id != OTHER) else {
        return;
    };
    if !r.name.load(Acquire).is_null() {
        return;
    }
    let Some(site) = r.alloc_site() else {
        return;
    };
    // SAFETY: descriptor strings.
    let anonymous = unsafe { cstr(site.name) }.is_empty();
    // `out` (a callee's reference) gives way to `grown` (the caller's vector).
    let weaker = site.flags & ALLOC_SITE_BY_POINTER != 0 && var.flags & ALLOC_SITE_BY_POINTER == 0;
    if (anonymous || weaker) && site.flags & ALLOC_SITE_VLA == 0 && site.elem_ty == var.elem_ty {
        r.desc.store(var as *const AllocSiteDesc as usize, Release);
    }
}

/// Whether record `id` is shared by the activations of a variable-length array.
pub fn is_vla(id: u32) -> bool {
    rec_if_exists(id)
        .and_then(|r| r.alloc_site())
        .is_some_and(|s| s.flags & ALLOC_SITE_VLA != 0)
}

/// The id `make` created for `key` in the open-addressing table `keys`/`ids` (ids stored
/// plus one), creating it on the first call; [`OTHER`] when the table is full.
fn shared_record(
    keys: &[AtomicUsize],
    ids: &[AtomicU32],
    key: usize,
    make: impl FnOnce() -> u32,
) -> u32 {
    let len = keys.len().min(ids.len());
    let start = ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize;
    for step in 0..64 {
        let i = (start + step) % len.max(1);
        let (Some(k), Some(v)) = (keys.get(i), ids.get(i)) else {
            break;
        };
        let cur = k.load(Acquire);
        if cur == 0 && k.compare_exchange(0, key, AcqRel, Acquire).is_ok() {
            let id = make();
            v.store(id + 1, Release);
            return id;
        }
        if k.load(Acquire) == key {
            // The thread that claimed the key publishes `id + 1` right after.
            loop {
                let x = v.load(Acquire);
                if x != 0 {
                    return x - 1;
                }
                core::hint::spin_loop();
            }
        }
    }
    OTHER
}

// ----------------------------------------------------------------------------------
// tp_array_shape
// ----------------------------------------------------------------------------------

/// Shapes given for addresses no array starts at (yet).
struct Pending {
    addr: usize,
    rows: u64,
    cols: u64,
    name: *mut u8,
}
struct PendingList(core::cell::UnsafeCell<MmapVec<Pending>>);
// SAFETY: only under PENDING_LOCK.
unsafe impl Sync for PendingList {}
impl Clone for Pending {
    fn clone(&self) -> Self {
        *self
    }
}
impl Copy for Pending {}
static PENDING: PendingList = PendingList(core::cell::UnsafeCell::new(MmapVec::new()));
pub(crate) static PENDING_LOCK: SpinLock = SpinLock::new();
static PENDING_COUNT: AtomicUsize = AtomicUsize::new(0);

fn apply(r: &ArrayRec, rows: u64, cols: u64, name: *mut u8) {
    if rows > 0 && cols > 0 {
        r.rows.store(rows, Relaxed);
        r.cols.store(cols, Relaxed);
    }
    if !name.is_null() {
        r.name.store(name, Release);
    }
}

/// A new array starts at `addr`: applies a shape given before it existed.
pub fn apply_pending(addr: usize, id: u32) {
    if PENDING_COUNT.load(Relaxed) == 0 || id == OTHER {
        return;
    }
    let _g = PENDING_LOCK.lock();
    // SAFETY: under PENDING_LOCK.
    let v = unsafe { &mut *PENDING.0.get() };
    let Some(i) = v.as_slice().iter().position(|p| p.addr == addr) else {
        return;
    };
    let p = v.as_slice()[i];
    let last = v.len() - 1;
    v.as_mut_slice().swap(i, last);
    v.pop();
    PENDING_COUNT.store(v.len(), Relaxed);
    if let Some(r) = rec_if_exists(id) {
        apply(r, p.rows, p.cols, p.name);
    }
}

/// `void tp_array_shape(const void *ptr, size_t rows, size_t cols, const char *name)`:
/// names the marked array that contains `ptr` and gives it a `rows × cols` shape (for
/// heatmaps). `name` may be null (keep the name) and `rows`/`cols` 0 (keep the shape).
/// If no marked array contains `ptr` yet, the shape applies to the next array
/// registered at exactly `ptr`.
#[no_mangle]
pub unsafe extern "C" fn tp_array_shape(
    p: *const core::ffi::c_void,
    rows: usize,
    cols: usize,
    name: *const c_char,
) {
    if p.is_null() {
        return;
    }
    let name_copy: *mut u8 = if name.is_null() {
        null_mut()
    } else {
        // SAFETY: the caller passes a NUL-terminated string.
        let b = unsafe { cstr(name) };
        let b = b.get(..b.len().min(255)).unwrap_or(&[]);
        let mut v = StackBuf::<256>::new();
        v.push_bytes(b);
        v.push_bytes(&[0]);
        crate::leak_slice(v.as_bytes()).as_mut_ptr()
    };
    let (rows, cols) = (rows as u64, cols as u64);
    let t = super::threads::current();
    super::ranges::forget_hit(t);
    if let Some(r) = super::ranges::find(t, p as usize) {
        if let Some(rec) = rec_if_exists(r.id).filter(|_| r.id != OTHER) {
            apply(rec, rows, cols, name_copy);
            return;
        }
    }
    let _g = PENDING_LOCK.lock();
    // SAFETY: under PENDING_LOCK.
    let v = unsafe { &mut *PENDING.0.get() };
    if let Some(x) = v.as_mut_slice().iter_mut().find(|x| x.addr == p as usize) {
        x.rows = rows;
        x.cols = cols;
        if !name_copy.is_null() {
            x.name = name_copy;
        }
    } else {
        v.push(Pending {
            addr: p as usize,
            rows,
            cols,
            name: name_copy,
        });
    }
    PENDING_COUNT.store(v.len(), Relaxed);
}
