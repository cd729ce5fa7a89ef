//! Denormal-mode modules: `__tpd_register_module`.
//!
//! Every denormal-mode translation unit registers its `DnModuleDesc` from a constructor
//! (and instrumented code that still finds `base == DN_BASE_UNREGISTERED` calls the hook
//! itself). Registration, under a spin lock:
//!
//! 1. checks magic and ABI version. A mismatch is **fatal** (unlike taint mode, where a
//!    refused module is merely ignored): instrumented code indexes its thread's block
//!    counters with `base`, and a module whose `base` was never assigned would write
//!    outside them. The message names the source file and both versions.
//! 2. assigns `base`: the module's first counter in every thread's block-counter block.
//!    Bases are handed out in registration order; when the total would pass
//!    `DN_THREAD_COUNTERS`, the module gets `DN_THREAD_COUNTERS - n_blocks` (its
//!    counters then share slots with earlier modules: executions become approximate, and
//!    the report says so). A single module with more blocks than that cannot be run
//!    safely (fatal; the pass should refuse to build it).
//! 3. assigns a **site base**: the module's first slot in every thread's site-counter
//!    block ([`MAX_SITES`] slots; past it, sites share one overflow slot, with a warning).
//! 4. computes the module's **block weights** (per block, the lanes of its FP operation
//!    sites — loads and stores are not operations) for `fp_operations`.
//! 5. registers the module's globals and statics as marked arrays.
//!
//! Readers (hooks, sampler, report) take no lock: a table entry is complete before the
//! count is published with a release store, and an open-addressing hash (module pointer
//! → entry) is filled value-first, key-last.

use core::ptr::{self, addr_of, addr_of_mut};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

use taintprof_abi::{
    DnModuleDesc, FpSiteDesc, ABI_VERSION, DN_BASE_UNREGISTERED, DN_MODULE_MAGIC,
    DN_THREAD_COUNTERS, FPSITE_LOAD, FPSITE_STORE,
};
use taintprof_sigsafe::{cstr, Lossy, MmapVec, SpinLock};

/// Most denormal-mode modules.
pub const MAX_MODULES: usize = 1 << 14;
/// Site-counter slots per thread; the last one is the overflow slot.
pub const MAX_SITES: usize = 1 << 20;
/// Slot shared by sites that got no slot of their own.
pub const OVERFLOW_SITE: usize = MAX_SITES - 1;
/// `site_base` of a module whose sites all use the overflow slot.
pub const NO_SITE_BASE: u32 = u32::MAX;

const HASH_CAP: usize = 2 * MAX_MODULES;

pub struct Entry {
    desc: AtomicPtr<DnModuleDesc>,
    site_base: AtomicU32,
    n_sites: AtomicU32,
    block_base: AtomicU64,
    /// (absolute block counter index, lanes of the block's operation sites), by index.
    weights: AtomicPtr<(u32, u32)>,
    n_weights: AtomicUsize,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: Entry = Entry {
    desc: AtomicPtr::new(ptr::null_mut()),
    site_base: AtomicU32::new(0),
    n_sites: AtomicU32::new(0),
    block_base: AtomicU64::new(0),
    weights: AtomicPtr::new(ptr::null_mut()),
    n_weights: AtomicUsize::new(0),
};

static ENTRIES: [Entry; MAX_MODULES] = [EMPTY; MAX_MODULES];
static COUNT: AtomicUsize = AtomicUsize::new(0);
static HASH_KEYS: [AtomicUsize; HASH_CAP] = [const { AtomicUsize::new(0) }; HASH_CAP];
static HASH_VALS: [AtomicU32; HASH_CAP] = [const { AtomicU32::new(0) }; HASH_CAP];
static NEXT_BLOCK: AtomicU64 = AtomicU64::new(0);
static NEXT_SITE: AtomicU64 = AtomicU64::new(0);
static LOCK: SpinLock = SpinLock::new();
/// Modules whose block counters overlap others (executions approximate).
static CLAMPED_BLOCKS: AtomicU32 = AtomicU32::new(0);
/// Modules whose sites share the overflow slot.
static CLAMPED_SITES: AtomicU32 = AtomicU32::new(0);
static FIRST: AtomicBool = AtomicBool::new(true);

#[inline]
fn hash(p: usize) -> usize {
    ((p as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize
}

/// Index of registered module `m` in the table.
#[inline]
pub fn find(m: usize) -> Option<usize> {
    if m == 0 {
        return None;
    }
    let start = hash(m);
    for step in 0..HASH_CAP {
        let i = start + step;
        let k = HASH_KEYS.get(i % HASH_CAP)?.load(Acquire);
        if k == m {
            return HASH_VALS
                .get(i % HASH_CAP)
                .map(|v| v.load(Relaxed) as usize);
        }
        if k == 0 {
            return None;
        }
    }
    None
}

fn hash_insert(m: usize, idx: u32) {
    let start = hash(m);
    for step in 0..HASH_CAP {
        let i = start + step;
        let (Some(k), Some(v)) = (HASH_KEYS.get(i % HASH_CAP), HASH_VALS.get(i % HASH_CAP)) else {
            return;
        };
        if k.load(Relaxed) == 0 {
            v.store(idx, Relaxed);
            k.store(m, Release);
            return;
        }
    }
}

fn fatal(args: core::fmt::Arguments<'_>) -> ! {
    crate::diag_line(args);
    crate::diag!("the program cannot run safely and was stopped");
    // SAFETY: terminating the process.
    unsafe { libc::_exit(1) }
}

/// What a hook needs to know about a site's module.
#[derive(Clone, Copy)]
pub struct SiteBase {
    pub module: usize,
    pub site_base: u32,
    pub n_sites: u32,
}

/// Site base of module `m`, registering it first if needed (instrumented code can run
/// before the module's own constructor did).
#[cold]
pub fn site_base_of(m: *const DnModuleDesc) -> SiteBase {
    let idx = match find(m as usize) {
        Some(i) => Some(i),
        // SAFETY: `m` comes from an `FpSiteDesc` emitted by the pass.
        None if !m.is_null() => unsafe { register(m as *mut DnModuleDesc) },
        None => None,
    };
    match idx.and_then(|i| ENTRIES.get(i)) {
        Some(e) => SiteBase {
            module: m as usize,
            site_base: e.site_base.load(Relaxed),
            n_sites: e.n_sites.load(Relaxed),
        },
        None => SiteBase {
            module: m as usize,
            site_base: NO_SITE_BASE,
            n_sites: 0,
        },
    }
}

/// The per-thread site-counter slot of site number `index` of a module.
#[inline(always)]
pub fn site_slot(b: SiteBase, index: u32) -> usize {
    if b.site_base == NO_SITE_BASE || index >= b.n_sites {
        return OVERFLOW_SITE;
    }
    let i = b.site_base as usize + index as usize;
    if i >= OVERFLOW_SITE {
        OVERFLOW_SITE
    } else {
        i
    }
}

/// Registers `m` (see the module documentation); returns its table index.
///
/// # Safety
/// `m` must be null or point to a writable `DnModuleDesc` that lives for the process.
unsafe fn register(m: *mut DnModuleDesc) -> Option<usize> {
    if m.is_null() {
        return None;
    }
    let idx;
    let first;
    {
        let _g = LOCK.lock();
        if let Some(i) = find(m as usize) {
            return Some(i);
        }
        // SAFETY: reading the header fields, which every version shares.
        let (magic, version, src) = unsafe {
            (
                ptr::read(addr_of!((*m).magic)),
                ptr::read(addr_of!((*m).abi_version)),
                ptr::read(addr_of!((*m).source_file)),
            )
        };
        if magic != DN_MODULE_MAGIC {
            fatal(format_args!(
                "taintprof: error: a denormal-mode module descriptor at {:p} has a bad magic number ({:#x}, expected {:#x}): it was not built by a taintprof compiler pass",
                m, magic, DN_MODULE_MAGIC
            ));
        }
        // SAFETY: a valid descriptor's source name.
        let source = unsafe { cstr(src) };
        if version != ABI_VERSION {
            fatal(format_args!(
                "taintprof: error: module '{}' was instrumented (denormal mode) for taintprof ABI version {}, but this runtime implements version {}; rebuild it with the taintprof compiler that matches this runtime",
                Lossy(source),
                version,
                ABI_VERSION
            ));
        }
        // SAFETY: the magic and version say this is our layout.
        let md = unsafe { &*m };
        let n_blocks = md.n_blocks as u64;
        let limit = DN_THREAD_COUNTERS as u64;
        if n_blocks > limit {
            fatal(format_args!(
                "taintprof: error: module '{}' has {} basic blocks with floating-point code, more than the runtime's {} block counters per thread",
                Lossy(source),
                n_blocks,
                limit
            ));
        }
        let mut base = NEXT_BLOCK.load(Relaxed);
        if base + n_blocks > limit {
            base = limit - n_blocks;
            super::ranges::poison_inline_caches();
            if CLAMPED_BLOCKS.fetch_add(1, Relaxed) == 0 {
                crate::diag!(
                    "warning: more than {} basic blocks with floating-point code in denormal-mode modules; module '{}' shares block counters with others (executions are approximate)",
                    limit,
                    Lossy(source)
                );
            }
        } else {
            NEXT_BLOCK.store(base + n_blocks, Relaxed);
        }
        let n_sites = if md.sites.is_null() { 0 } else { md.n_sites };
        let next_site = NEXT_SITE.load(Relaxed);
        let site_base = if next_site + n_sites as u64 > OVERFLOW_SITE as u64 {
            if CLAMPED_SITES.fetch_add(1, Relaxed) == 0 {
                crate::diag!(
                    "warning: more than {} floating-point sites in denormal-mode modules; the sites of module '{}' are counted together",
                    OVERFLOW_SITE,
                    Lossy(source)
                );
            }
            NO_SITE_BASE
        } else {
            NEXT_SITE.store(next_site + n_sites as u64, Relaxed);
            next_site as u32
        };
        idx = COUNT.load(Relaxed);
        let Some(e) = ENTRIES.get(idx) else {
            fatal(format_args!(
                "taintprof: error: more than {} denormal-mode modules",
                MAX_MODULES
            ));
        };
        // Block weights.
        let mut w: MmapVec<(u32, u32)> = MmapVec::new();
        for i in 0..n_sites as usize {
            // SAFETY: `sites` has `n_sites` entries.
            let s = unsafe { &*md.sites.add(i) };
            if s.flags & (FPSITE_LOAD | FPSITE_STORE) != 0 || s.block >= md.n_blocks {
                continue;
            }
            w.push(((base + s.block as u64) as u32, s.lanes.max(1) as u32));
        }
        w.as_mut_slice().sort_unstable();
        let mut merged: MmapVec<(u32, u32)> = MmapVec::new();
        for &(b, l) in w.as_slice() {
            match merged.as_mut_slice().last_mut() {
                Some(last) if last.0 == b => last.1 += l,
                _ => {
                    merged.push((b, l));
                }
            }
        }
        let n_w = merged.len();
        let wp = merged.as_slice().as_ptr() as *mut (u32, u32);
        core::mem::forget(merged); // lives as long as the process
        e.desc.store(m, Relaxed);
        e.site_base.store(site_base, Relaxed);
        e.n_sites.store(n_sites, Relaxed);
        e.block_base.store(base, Relaxed);
        e.weights.store(wp, Relaxed);
        e.n_weights.store(n_w, Relaxed);
        hash_insert(m as usize, idx as u32);
        COUNT.store(idx + 1, Release);
        // SAFETY: `base` and `next` are written by the runtime only; instrumented code
        // reads `base` (an aligned u64) concurrently.
        unsafe {
            AtomicU64::from_ptr(addr_of_mut!((*m).base)).store(base, Release);
            let prev = if idx > 0 {
                ENTRIES
                    .get(idx - 1)
                    .map(|p| p.desc.load(Relaxed))
                    .unwrap_or(ptr::null_mut())
            } else {
                ptr::null_mut()
            };
            ptr::write(addr_of_mut!((*m).next), prev);
        }
        first = FIRST.swap(false, Relaxed);
    }
    // SAFETY: validated above.
    let md = unsafe { &*m };
    super::mode::note_denormal_module(md.source_file);
    if first {
        super::fpenv::at_first_module();
        super::snapshot::at_first_module();
    }
    if !md.arrays.is_null() {
        for i in 0..md.n_arrays as usize {
            // SAFETY: `arrays` has `n_arrays` entries.
            let a = unsafe { &*md.arrays.add(i) };
            super::hooks::register_static_array(a);
        }
    }
    Some(idx)
}

/// `void __tpd_register_module(DnModuleDesc *m)`.
#[no_mangle]
pub unsafe extern "C" fn __tpd_register_module(m: *mut DnModuleDesc) {
    // SAFETY: forwarded contract.
    unsafe { register(m) };
}

/// Number of registered modules.
pub fn count() -> usize {
    COUNT.load(Acquire)
}

/// Registered module number `i`: (descriptor, site base, block base).
pub fn get(i: usize) -> Option<(&'static DnModuleDesc, u32, u64)> {
    if i >= count() {
        return None;
    }
    let e = ENTRIES.get(i)?;
    let d = e.desc.load(Relaxed);
    if d.is_null() {
        return None;
    }
    // SAFETY: registered descriptors live for the process.
    Some((
        unsafe { &*d },
        e.site_base.load(Relaxed),
        e.block_base.load(Relaxed),
    ))
}

/// Calls `f(absolute block index, lanes)` for every block with FP operation sites.
pub fn for_each_weight(mut f: impl FnMut(usize, u64)) {
    for i in 0..count() {
        let Some(e) = ENTRIES.get(i) else { break };
        let p = e.weights.load(Relaxed);
        let n = e.n_weights.load(Relaxed);
        if p.is_null() {
            continue;
        }
        // SAFETY: immutable after publication.
        for &(b, w) in unsafe { core::slice::from_raw_parts(p, n) } {
            f(b as usize, w as u64);
        }
    }
}

/// The registered `FpSiteDesc` at address `c` (a creator from a tag), if it is one.
/// Tags come from shadow memory and may be stale, so the address is checked against
/// every registered module's site array before it is dereferenced.
pub fn site_at(c: u64) -> Option<&'static FpSiteDesc> {
    let sz = core::mem::size_of::<FpSiteDesc>() as u64;
    for i in 0..count() {
        let Some((m, _, _)) = get(i) else { continue };
        if m.sites.is_null() {
            continue;
        }
        let lo = m.sites as u64;
        let hi = lo + m.n_sites as u64 * sz;
        if c >= lo && c < hi && (c - lo).is_multiple_of(sz) {
            // SAFETY: inside the module's site array, on an element boundary.
            return Some(unsafe { &*(c as usize as *const FpSiteDesc) });
        }
    }
    None
}

/// Modules that share block counters / site slots (for warnings).
pub fn clamped() -> (u32, u32) {
    (CLAMPED_BLOCKS.load(Relaxed), CLAMPED_SITES.load(Relaxed))
}

/// Takes the registration lock around `fork` (see [`super::snapshot`]'s fork handlers).
pub(crate) fn fork_lock() -> &'static SpinLock {
    &LOCK
}

/// True if `m` still has the unregistered base (for tests).
pub fn unregistered(m: &DnModuleDesc) -> bool {
    // SAFETY: aligned u64 read.
    unsafe {
        AtomicU64::from_ptr(addr_of!(m.base) as *mut u64).load(Acquire) == DN_BASE_UNREGISTERED
    }
}
