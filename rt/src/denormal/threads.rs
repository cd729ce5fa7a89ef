//! Per-thread state of denormal mode.
//!
//! Created on a thread's first call to `__tpd_thread_counters` (instrumented code calls
//! it when `__tpd_counters_tls` is still null) or to any cold hook, published on a
//! lock-free list (never popped: finished threads' counts stay in the report), and
//! reached from the hooks through a Rust thread-local pointer.
//!
//! ```text
//!  DnThread (one mmap)                                   THREADS: t3 → t2 → t1
//!   ├─ counters ──► u64[DN_THREAD_COUNTERS]  block counters (separate NORESERVE mmap;
//!   │                                         instrumented code: blk[base+i] += 1)
//!   ├─ sites    ──► SiteCounters[MAX_SITES]  operands/results/loads/stores/created
//!   │                                         per site
//!   ├─ shards   ──► per array id: this thread's cumulative element counters (u32[2n]:
//!   │               reads, then writes), mapped on the thread's first event in the array
//!   ├─ creators:   open addressing (array id, creator) → count
//!   ├─ pairs:      open addressing (dest id, src id) → count, global pair index, this
//!   │              thread's origin map of the pair (u32 per element of dest)
//!   ├─ stack:      live stack-array instances (see `ranges`)
//!   └─ caches:     last module/site base, the last array ranges hit, last creator/pair
//! ```
//!
//! Only the owner writes; counters use relaxed load + store (plain `add`, never a
//! `lock`-prefixed instruction, whatever the number of threads), table slots are
//! published value-first, key-last, and the report and snapshots read everything with
//! relaxed or acquire loads. Element counters and origin maps are cumulative and never
//! reset by another thread: a snapshot takes the difference to what the previous one saw
//! (`arrays`), so an increment racing with a snapshot — on another thread, or in a
//! `SIGUSR1` handler that interrupted the hook — is counted exactly once, in this
//! snapshot or the next. Nothing here calls malloc.

use core::cell::Cell;
use core::mem::size_of;
use core::ptr::{self, null_mut};
use core::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

use taintprof_abi::DN_THREAD_COUNTERS;
use taintprof_sigsafe::{gettid, mmap_anon, round_up};

use super::arrays::MAX_ID;
use super::modules::{SiteBase, MAX_SITES, NO_SITE_BASE};
use super::ranges::{Hit, StackList, HITS};

/// Denormal counters of one site in one thread.
#[repr(C)]
pub struct SiteCounters {
    pub operands: AtomicU64,
    /// Operations (per lane) with at least one denormal operand: the unit of the
    /// CPU's denormal-operand exception, so that `taintprof dip --compare` can match
    /// an exception profile exactly.
    pub operand_ops: AtomicU64,
    pub results: AtomicU64,
    pub loads: AtomicU64,
    pub stores: AtomicU64,
    /// Result lanes that were denormal while no operand of the lane was: the site made
    /// the denormal from normal values (`taintprof_abi::DN_OP_CREATED`).
    pub created: AtomicU64,
}

/// Owner-only increment (a plain load and store: no `lock` prefix).
#[inline(always)]
pub fn bump(c: &AtomicU64, n: u64) {
    c.store(c.load(Relaxed).wrapping_add(n), Relaxed);
}

/// Slots of the per-thread creator table (power of two).
pub const CREATOR_CAP: usize = 4096;
/// Slots of the per-thread origin-pair table (power of two).
pub const PAIR_CAP: usize = 1024;
/// Probes before a per-thread table gives up and the shared overflow table is used.
const PROBES: usize = 32;

#[repr(C)]
pub struct CreatorSlot {
    /// `!(array id << 48 | creator)`; 0 = empty. Published last.
    pub key: AtomicU64,
    pub count: AtomicU64,
}

#[repr(C)]
pub struct PairSlot {
    /// `dest << 16 | src` (dest ≥ 1, so never 0); 0 = empty. Published last.
    pub key: AtomicU64,
    pub count: AtomicU64,
    /// Index of the shared pair record + 1 (0 = none yet).
    pub global: AtomicU32,
    /// This thread's origin map of the pair: `map_len` cumulative counts, one per
    /// element of `dest` (null until the thread's first event of the pair).
    pub map: AtomicPtr<AtomicU32>,
    pub map_len: AtomicU64,
}

/// Key of a creator-table slot.
#[inline(always)]
pub fn creator_key(array: u32, creator: u64) -> u64 {
    !super::make_tag(array, creator)
}

/// Per-thread state.
#[repr(C)]
pub struct DnThread {
    /// Next thread on [`THREADS`]. Immutable after publication.
    pub next: *mut DnThread,
    /// Order of creation.
    pub index: u32,
    pub tid: i32,
    /// Block counters (`u64[DN_THREAD_COUNTERS]`).
    pub counters: *mut u64,
    /// Site counters (`SiteCounters[MAX_SITES]`).
    pub sites: *mut SiteCounters,
    pub creators: *mut CreatorSlot,
    pub pairs: *mut PairSlot,
    /// This thread's element counters per array id (`MAX_ID + 1` pointers, each to
    /// `2 * elements` cumulative `u32`: reads, then writes; null until the thread's
    /// first event in the array).
    pub shards: *mut AtomicPtr<AtomicU32>,
    pub stack: StackList,
    // ---- owner-only caches ----
    pub site_cache: Cell<SiteBase>,
    /// The last array ranges hit (see `ranges::find_hit`), valid while `hit_key`
    /// equals `ranges::hit_key(self)`.
    pub hits: [Cell<Hit>; HITS],
    pub hit_key: Cell<u64>,
    /// Next entry of `hits` to replace.
    pub hit_next: Cell<u32>,
    /// Last creator key and its slot.
    pub last_creator_key: Cell<u64>,
    pub last_creator_slot: Cell<*const CreatorSlot>,
    /// Last origin pair key and its slot.
    pub last_pair_key: Cell<u64>,
    pub last_pair_slot: Cell<*const PairSlot>,
    /// This thread entered a stack array once (counted in [`ANY_STACK`]).
    pub stack_ever: Cell<bool>,
    /// Creator indices this thread used last (`creators::encode_memo`).
    pub creator_ix: super::creators::Memo,
}

static THREADS: AtomicPtr<DnThread> = AtomicPtr::new(null_mut());
static THREAD_COUNT: AtomicU32 = AtomicU32::new(0);
/// Creator / pair events that found no slot anywhere.
pub static DROPPED_CREATORS: AtomicU64 = AtomicU64::new(0);

crate::c_tls_ptr! {
    /// The calling thread's state (`__tpd_thread_state_tls` of tls.c).
    mod current_tls = __tpd_thread_state_tls: DnThread;
}

extern "C" {
    fn __tpd_tls_counters() -> *mut *mut u64;
}

/// The calling thread's state, created on first use.
#[inline(always)]
pub fn current() -> &'static DnThread {
    let t = current_tls::get();
    if t.is_null() {
        create()
    } else {
        // SAFETY: thread states are never freed.
        unsafe { &*t }
    }
}

/// The calling thread's state if it has one.
#[inline]
pub fn current_if_any() -> Option<&'static DnThread> {
    let t = current_tls::get();
    // SAFETY: never freed.
    (!t.is_null()).then(|| unsafe { &*t })
}

fn out_of_memory(what: &str) -> ! {
    crate::diag!(
        "error: out of memory for the denormal-mode {} of a thread",
        what
    );
    // SAFETY: aborting (the SIGABRT handler writes a partial report).
    unsafe { libc::abort() }
}

#[cold]
#[inline(never)]
fn create() -> &'static DnThread {
    let head = round_up(size_of::<DnThread>(), 64);
    let creators_bytes = CREATOR_CAP * size_of::<CreatorSlot>();
    let pairs_bytes = PAIR_CAP * size_of::<PairSlot>();
    let stack_bytes = StackList::bytes();
    let total = head + creators_bytes + pairs_bytes + stack_bytes;
    let mem = mmap_anon(total);
    let counters = mmap_anon(DN_THREAD_COUNTERS * size_of::<u64>());
    let sites = mmap_anon(MAX_SITES * size_of::<SiteCounters>());
    let shards = mmap_anon((MAX_ID as usize + 1) * size_of::<usize>());
    if mem.is_null() || counters.is_null() || sites.is_null() || shards.is_null() {
        out_of_memory("counters");
    }
    let t = mem.cast::<DnThread>();
    // SAFETY: fresh zeroed mapping large enough for the header and the tables.
    unsafe {
        let creators = mem.add(head);
        let pairs = creators.add(creators_bytes);
        let stack = pairs.add(pairs_bytes);
        ptr::write(
            t,
            DnThread {
                next: null_mut(),
                index: THREAD_COUNT.fetch_add(1, Relaxed),
                tid: gettid(),
                counters: counters.cast(),
                sites: sites.cast(),
                creators: creators.cast(),
                pairs: pairs.cast(),
                shards: shards.cast(),
                stack: StackList::new(stack.cast()),
                site_cache: Cell::new(SiteBase {
                    module: 0,
                    site_base: NO_SITE_BASE,
                    n_sites: 0,
                }),
                hits: [const { Cell::new(Hit::EMPTY) }; HITS],
                hit_key: Cell::new(u64::MAX),
                hit_next: Cell::new(0),
                last_creator_key: Cell::new(0),
                last_creator_slot: Cell::new(ptr::null()),
                last_pair_key: Cell::new(0),
                last_pair_slot: Cell::new(ptr::null()),
                stack_ever: Cell::new(false),
                creator_ix: super::creators::Memo::new(),
            },
        );
        let mut h = THREADS.load(Relaxed);
        loop {
            (*t).next = h;
            match THREADS.compare_exchange_weak(h, t, Release, Relaxed) {
                Ok(_) => break,
                Err(x) => h = x,
            }
        }
    }
    current_tls::set(t);
    crate::signals::on_new_thread();
    // SAFETY: published, never freed.
    unsafe { &*t }
}

/// `uint64_t *__tpd_thread_counters(void)`: this thread's block counters (created on
/// first use), also stored in `__tpd_counters_tls`.
#[no_mangle]
pub extern "C" fn __tpd_thread_counters() -> *mut u64 {
    let t = current();
    // SAFETY: the TLS slot of this thread.
    unsafe { *__tpd_tls_counters() = t.counters };
    t.counters
}

/// Calls `f` for every thread that ran denormal-mode code (lock-free).
pub fn for_each(mut f: impl FnMut(&DnThread)) {
    let mut t = THREADS.load(Acquire);
    while !t.is_null() {
        // SAFETY: never freed; `next` is immutable after publication.
        let ts = unsafe { &*t };
        f(ts);
        t = ts.next;
    }
}

/// Threads that ran denormal-mode code.
pub fn count() -> u32 {
    THREAD_COUNT.load(Relaxed)
}

impl DnThread {
    /// This thread's element counters of array `id` (null if it has none yet).
    #[inline(always)]
    pub fn shard(&self, id: u32) -> *mut AtomicU32 {
        if id > MAX_ID {
            return null_mut();
        }
        // SAFETY: the table has MAX_ID + 1 entries.
        unsafe { &*self.shards.add(id as usize) }.load(Acquire)
    }

    /// Publishes this thread's element counters of array `id` (owner only).
    pub fn set_shard(&self, id: u32, p: *mut AtomicU32) {
        if id <= MAX_ID {
            // SAFETY: as in `shard`.
            unsafe { &*self.shards.add(id as usize) }.store(p, Release);
        }
    }

    /// This thread's counters of site slot `i` (`i < MAX_SITES`).
    #[inline(always)]
    pub fn site(&self, i: usize) -> &SiteCounters {
        // SAFETY: `sites` has MAX_SITES entries; callers pass a slot from `site_slot`.
        unsafe { &*self.sites.add(i.min(MAX_SITES - 1)) }
    }

    /// Block counter `i`, read by another thread (sampler, report).
    #[inline]
    pub fn block(&self, i: usize) -> u64 {
        if i >= DN_THREAD_COUNTERS {
            return 0;
        }
        // SAFETY: inside the counter block; instrumented code writes it with plain
        // stores, we read with an atomic load.
        unsafe { AtomicU64::from_ptr(self.counters.add(i)).load(Relaxed) }
    }

    /// Counts one more denormal access of array `array` attributed to `creator`.
    #[inline]
    pub fn count_creator(&self, array: u32, creator: u64) {
        self.count_creator_n(array, creator, 1);
    }

    /// Counts `n` more denormal accesses of array `array` attributed to `creator`.
    #[inline]
    pub fn count_creator_n(&self, array: u32, creator: u64, n: u64) {
        let key = creator_key(array, creator);
        if key == self.last_creator_key.get() {
            // SAFETY: the cached slot is ours.
            bump(unsafe { &(*self.last_creator_slot.get()).count }, n);
            return;
        }
        self.count_creator_slow(key, n);
    }

    #[inline(never)]
    fn count_creator_slow(&self, key: u64, n: u64) {
        let mask = CREATOR_CAP - 1;
        let start = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize;
        for step in 0..PROBES {
            let i = start + step;
            // SAFETY: the table has CREATOR_CAP slots.
            let s = unsafe { &*self.creators.add(i & mask) };
            let k = s.key.load(Relaxed);
            if k == key {
                bump(&s.count, n);
                self.last_creator_key.set(key);
                self.last_creator_slot.set(s);
                return;
            }
            if k == 0 {
                s.count.store(n, Relaxed);
                s.key.store(key, Release);
                self.last_creator_key.set(key);
                self.last_creator_slot.set(s);
                return;
            }
        }
        super::origins::count_creator_shared(key, n);
    }

    /// Calls `f(key, count)` for every creator slot (see [`creator_key`]).
    pub fn for_each_creator(&self, mut f: impl FnMut(u64, u64)) {
        for i in 0..CREATOR_CAP {
            // SAFETY: in bounds.
            let s = unsafe { &*self.creators.add(i) };
            let k = s.key.load(Acquire);
            if k != 0 {
                f(k, s.count.load(Relaxed));
            }
        }
    }

    /// The slot of origin pair (dest, src), created if needed; None when full.
    #[inline]
    pub fn pair(&self, dest: u32, src: u32) -> Option<&PairSlot> {
        let key = ((dest as u64) << 16) | src as u64;
        if key == self.last_pair_key.get() {
            // SAFETY: the cached slot is ours.
            return Some(unsafe { &*self.last_pair_slot.get() });
        }
        let s = self.pair_slow(key)?;
        self.last_pair_key.set(key);
        self.last_pair_slot.set(s);
        Some(s)
    }

    /// The slot of `dest << 16 | src` (see [`DnThread::pair`]) if it exists (no insert).
    pub fn pair_if_exists(&self, dest: u32, src: u32) -> Option<&PairSlot> {
        let key = ((dest as u64) << 16) | src as u64;
        let mask = PAIR_CAP - 1;
        let start = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize;
        for step in 0..PROBES {
            // SAFETY: the table has PAIR_CAP slots.
            let s = unsafe { &*self.pairs.add((start + step) & mask) };
            let k = s.key.load(Acquire);
            if k == key {
                return Some(s);
            }
            if k == 0 {
                return None;
            }
        }
        None
    }

    #[inline(never)]
    fn pair_slow(&self, key: u64) -> Option<&PairSlot> {
        let mask = PAIR_CAP - 1;
        let start = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize;
        for step in 0..PROBES {
            let i = start + step;
            // SAFETY: the table has PAIR_CAP slots.
            let s = unsafe { &*self.pairs.add(i & mask) };
            let k = s.key.load(Relaxed);
            if k == key {
                return Some(s);
            }
            if k == 0 {
                s.key.store(key, Release);
                return Some(s);
            }
        }
        None
    }

    /// Calls `f(dest, src, count)` for every origin pair slot.
    pub fn for_each_pair(&self, mut f: impl FnMut(u32, u32, u64)) {
        for i in 0..PAIR_CAP {
            // SAFETY: in bounds.
            let s = unsafe { &*self.pairs.add(i) };
            let k = s.key.load(Acquire);
            if k != 0 {
                f((k >> 16) as u32, (k & 0xffff) as u32, s.count.load(Relaxed));
            }
        }
    }
}

/// Sum over threads of `Σ block count × lanes` over blocks with FP operations.
pub fn fp_operations() -> u64 {
    let mut total = 0u64;
    for_each(|t| {
        super::modules::for_each_weight(|b, w| {
            total = total.wrapping_add(t.block(b).wrapping_mul(w));
        });
    });
    total
}

/// Number of stack-array instances live on all threads (for `live` in the report).
pub fn any_stack_arrays() -> bool {
    ANY_STACK.load(Relaxed) != 0
}

/// How many threads ever entered a stack array. Non-zero enables cross-thread stack
/// lookups; while no thread but the caller has, a window of unmarked memory can be
/// cached (`ranges::find_slow`). A change invalidates every thread's cached windows
/// (it is part of `ranges::hit_key`).
pub static ANY_STACK: AtomicUsize = AtomicUsize::new(0);

/// Whether a thread other than `t` ever entered a stack array.
#[inline]
pub fn other_threads_have_stacks(t: &DnThread) -> bool {
    ANY_STACK.load(Relaxed) > t.stack_ever.get() as usize
}
