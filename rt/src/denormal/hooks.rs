//! The cold hooks called by denormal-mode instrumented code (signatures in
//! `taintprof-abi`), and the registration of marked arrays.
//!
//! ## Tag semantics
//!
//! * `__tpd_op` (only for modules built with `TAINTPROF_DN_INLINE_OPS=0`, and for the
//!   operations the pass does not count inline, such as reductions, in either tier: by
//!   default the pass emits these semantics inline, see `FpSiteDesc::counters`): counts
//!   the site's denormal operands (per operand and lane), denormal results (per lane)
//!   and created results (result lanes denormal while no operand is denormal in that
//!   lane, `DN_OP_CREATED`). Result tag per lane, where the result is denormal: the tag of
//!   the first denormal operand in that lane if it has a creator (its origin and creator
//!   carry on); else (that operand's origin, **this site**); with no denormal operand,
//!   `(0, this site)` — this site created the denormal from normal operands. Where the
//!   result is normal the tag is 0 (the invariant: tags are non-zero only while denormal).
//! * `__tpd_load`: per denormal lane: counts a denormal load for the site; the tag is the
//!   shadow tag of the element; if the element lies in a marked array A, A gets a
//!   denormal read of that element, the tag's origin becomes A's id, and the creator
//!   count (A, creator) grows by one. A shadow tag without creator (the denormal got into
//!   memory without an instrumented FP store: file input, integer copies, uninstrumented
//!   code) gets **this load** as creator.
//! * `__tpd_store`: per denormal lane: counts a denormal store for the site. A value
//!   tag without creator gets **this store** as creator (the first instrumented place the
//!   denormal was seen). If the destination lies in a marked array D: D gets a denormal
//!   write of the element, the origin pair (D, the tag's origin) and the element's cell of
//!   its origin map grow if the tag has an origin, the creator count (D, creator) grows,
//!   and the shadow tag becomes (D, creator). Otherwise the shadow tag is the value's tag.
//! * Lanes that are not denormal get tag 0 and are not counted.
//!
//! Outside the runtime a tag is 32 bits (origin id, creator index: `creators`): in
//! shadow memory, in the instrumented code's registers and in the hooks' tag buffers.
//! The hooks convert at their edges and work on 64-bit tags (origin id, creator's
//! address) inside.
//!
//! `half` elements have only 2 shadow bytes, too few for a stored tag: their tags are
//! neither read nor written (they are counted, and get the load/store site as creator).
//!
//! ## Cost
//!
//! The Jacobi wavefront calls these hooks some 100 million times (1024², 1000 sweeps),
//! and their time is instructions, not cache misses. So a load or store whose lanes all
//! lie in one cached array window takes a vector fast path: one range lookup for the
//! call, not one per lane, and one creator-table update per run of equal creators.
//! Lane masks are counted through a byte table, because the runtime is built for
//! baseline x86-64, which has no `popcnt`. The slow path, lane by lane, gives the same
//! counts. `docs/performance.md` has the measurements and the floor of this design.
//!
//! Most calls never happen: a contiguous float/double load or store site has an inline
//! memory cache (`taintprof_abi`, "Inline memory caches") that the instrumented code
//! probes first. When a hook handled a chunk whose denormal lanes all lie in one marked
//! non-stack array with one tag, [`fill_cache`] records the window, the thread's
//! counters of the array, the creator slot and (stores) the origin pair and its map, so
//! that the next such chunk is counted without a call. The counts are the hook's: the
//! end-to-end tests require identical reports with and without the caches.

use core::ffi::c_void;
use core::ptr;
use core::sync::atomic::Ordering::*;

use taintprof_abi::{
    dn_shadow_addr, inline_words, AllocSiteDesc, FpArrayDesc, FpSiteDesc,
    ALLOC_SITE_KEEPS_CONTENTS, ALLOC_SITE_VLA, ARRAY_HEAP, ARRAY_STACK, DN_BASE_UNREGISTERED,
    DN_C_ARR_LO, DN_C_CREATOR_COUNT, DN_C_KEY, DN_C_LIMIT, DN_C_LO, DN_C_MATCH, DN_C_PAIR_COUNT,
    DN_C_PAIR_MAP, DN_C_SHARD, DN_C_TAG, DN_THREAD_COUNTERS, FPSITE_LOAD, FPSITE_NO_COUNTERS,
    FPSITE_NO_RESULT, FPSITE_STORE, FP_DOUBLE, FP_FLOAT, FP_HALF, STAG_CREATOR_MASK,
    STAG_ORIGIN_SHIFT, TAG_CREATOR_MASK,
};

use super::arrays::{self, NewArray, OTHER};
use super::creators;
use super::modules::{site_base_of, site_slot};
use super::ranges::{self, Hit, Range};
use super::threads::{self, bump, DnThread};
use super::{
    elem_size, is_denormal_f32, is_denormal_f64, make_tag, mode, origins, tag_creator, tag_origin,
};

#[inline(always)]
fn lane_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

#[inline(always)]
fn slot_of(t: &DnThread, s: &FpSiteDesc) -> usize {
    let mut b = t.site_cache.get();
    if b.module != s.module as usize {
        b = site_base_of(s.module);
        t.site_cache.set(b);
    }
    site_slot(b, s.index)
}

/// The stored tag (`u32`, see `creators`) of the element at `a`.
#[inline(always)]
fn read_stored(a: usize) -> u32 {
    // SAFETY: the shadow region covers every application address and is reserved before
    // any instrumented code runs.
    unsafe { ptr::read_unaligned(dn_shadow_addr(a as u64) as usize as *const u32) }
}

/// The tag of the element at `a`, from its stored form.
#[inline(always)]
fn read_tag(a: usize) -> u64 {
    creators::decode(read_stored(a))
}

/// Stores tag `t` for the element at `a` (in its 32-bit form; `th`: the calling
/// thread, whose memo of creator indices saves most lookups).
#[inline(always)]
fn write_tag(th: &DnThread, a: usize, t: u64) {
    // SAFETY: as in `read_stored`.
    unsafe {
        ptr::write_unaligned(
            dn_shadow_addr(a as u64) as usize as *mut u32,
            creators::encode_memo(t, &th.creator_ix),
        )
    }
}

/// The creator this site stands as (`FpSiteDesc::creator`): itself, or the first copy
/// of the same source operation in its module.
#[inline(always)]
fn me(s: &FpSiteDesc) -> u64 {
    let mut p = s as *const FpSiteDesc;
    if s.creator != s.index && !s.module.is_null() {
        // SAFETY: a registered site's module descriptor is static; `creator` is checked
        // against its site count.
        let m = unsafe { &*s.module };
        if s.creator < m.n_sites && !m.sites.is_null() {
            // SAFETY: in bounds of the module's site array.
            p = unsafe { m.sites.add(s.creator as usize) };
        }
    }
    p as u64 & TAG_CREATOR_MASK
}

/// Tag of lane `lane` in a hook's tag buffer (null buffer: 0), as a 64-bit tag.
#[inline(always)]
fn lane_tag(tags: *const u32, lane: usize) -> u64 {
    if tags.is_null() {
        0
    } else {
        // SAFETY: the pass's buffer holds `s->lanes` tags.
        creators::decode(unsafe { *tags.add(lane) })
    }
}

/// The creator of tag `t`, or `me` when it has none (this site is the first instrumented
/// place the denormal was seen).
#[inline(always)]
fn creator_or(t: u64, me: u64) -> u64 {
    match tag_creator(t) {
        0 => me,
        c => c,
    }
}

/// Zeroes `n` tags at `p` (null: nothing).
#[inline(always)]
fn clear_tags(p: *mut u32, n: usize) {
    if !p.is_null() {
        // SAFETY: the caller's buffer holds `n` tags.
        unsafe { ptr::write_bytes(p, 0, n) };
    }
}

/// Set bits of `x`. The runtime is built for baseline x86-64, which has no `popcnt`
/// instruction; lane masks are mostly a byte or less, so a table does them in one load.
#[inline(always)]
fn ones(x: u64) -> u64 {
    static BYTE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u32).count_ones() as u8;
            i += 1;
        }
        t
    };
    if x < 256 {
        BYTE[x as usize] as u64
    } else {
        x.count_ones() as u64
    }
}

/// Counts one denormal read (`write` false) or write of the element at `a` of the array
/// of cached entry `(i, h)`, mapping the thread's counters of the array first if needed.
#[inline(always)]
fn count_element(t: &DnThread, i: usize, h: &mut Hit, a: usize, write: bool) -> u64 {
    let e = h.element(a);
    if h.shard.is_null() {
        h.shard = arrays::make_shard(t, h.id);
        ranges::set_hit_shard(t, i, h.shard);
        if h.shard.is_null() {
            arrays::count_extra(h.id, write);
            return e;
        }
    }
    if e < h.n {
        let k = if write { h.n + e } else { e };
        // SAFETY: the shard holds 2n counters.
        arrays::bump32(unsafe { &*h.shard.add(k as usize) });
    } else {
        arrays::count_extra(h.id, write);
    }
    e
}

/// The cached marked-array entry holding every lane of `mask` (contiguous elements of
/// `esz` bytes at `addr`), with the thread's element counters of the array mapped:
/// the vector fast path of `__tpd_load`/`__tpd_store`, which then needs no per-lane
/// lookup. None: some lane is outside the entry (or unmarked, or no counters).
#[inline(always)]
fn span_hit(t: &DnThread, addr: usize, mask: u64, esz: usize) -> Option<Hit> {
    let first = addr.wrapping_add(mask.trailing_zeros() as usize * esz);
    let last = addr.wrapping_add((63 - mask.leading_zeros()) as usize * esz);
    let (i, mut h) = ranges::find_hit(t, first)?;
    if last.wrapping_sub(h.lo) >= h.hi.wrapping_sub(h.lo) || h.shift == ranges::NO_SHIFT {
        return None;
    }
    if h.shard.is_null() {
        h.shard = arrays::make_shard(t, h.id);
        ranges::set_hit_shard(t, i, h.shard);
        if h.shard.is_null() {
            return None;
        }
    }
    Some(h)
}

/// Counts one denormal read (`write` false) or write of the element at `a` of the
/// entry `h` from [`span_hit`] (counters mapped, power-of-two elements). Returns the
/// element's index.
#[inline(always)]
fn span_count(h: &Hit, a: usize, write: bool) -> u64 {
    let e = ((a - h.arr_lo) as u64) >> h.shift;
    if e < h.n {
        let k = if write { h.n + e } else { e };
        // SAFETY: the shard holds 2n counters.
        arrays::bump32(unsafe { &*h.shard.add(k as usize) });
    } else {
        arrays::count_extra(h.id, write);
    }
    e
}

/// Counts a run of `n` events of `array` by one creator (runs of equal creators are
/// counted with one table access).
struct CreatorRun {
    creator: u64,
    n: u64,
}

impl CreatorRun {
    const NEW: CreatorRun = CreatorRun { creator: 0, n: 0 };

    #[inline(always)]
    fn add(&mut self, t: &DnThread, array: u32, creator: u64) {
        if creator != self.creator {
            self.flush(t, array);
            self.creator = creator;
        }
        self.n += 1;
    }

    #[inline(always)]
    fn flush(&mut self, t: &DnThread, array: u32) {
        if self.n != 0 {
            t.count_creator_n(array, self.creator, self.n);
            self.n = 0;
        }
    }
}

// ----------------------------------------------------------------------------------
// Inline memory caches (the layout and the inline code's use: `taintprof_abi`,
// "Inline memory caches")
// ----------------------------------------------------------------------------------

/// The calling thread's inline cache words of load or store site `s`, or null when it
/// has none (hook-only site, other element types, unregistered module).
#[inline(always)]
fn inline_cache(t: &DnThread, s: &FpSiteDesc) -> *mut u64 {
    if s.counters == FPSITE_NO_COUNTERS
        || s.flags & (FPSITE_LOAD | FPSITE_STORE) == 0
        || !(s.ty == FP_FLOAT || s.ty == FP_DOUBLE)
        || s.module.is_null()
    {
        return ptr::null_mut();
    }
    // SAFETY: the pass's module descriptor; `base` is an aligned u64 written by the
    // registration with release ordering.
    let base = unsafe {
        core::sync::atomic::AtomicU64::from_ptr(ptr::addr_of!((*s.module).base) as *mut u64)
            .load(Acquire)
    };
    let words = inline_words(s.flags, s.lanes) as u64;
    if base == DN_BASE_UNREGISTERED
        || base
            .checked_add(s.counters as u64 + words)
            .is_none_or(|end| end > DN_THREAD_COUNTERS as u64)
    {
        return ptr::null_mut();
    }
    // SAFETY: inside the thread's block counters (checked above).
    unsafe { t.counters.add((base + s.counters as u64) as usize) }
}

/// One value seen by every lane of a hook call, if there was one.
#[derive(Clone, Copy)]
enum Same {
    Nothing,
    One(u64),
    Mixed,
}

impl Same {
    #[inline(always)]
    fn add(&mut self, v: u64) {
        *self = match *self {
            Same::Nothing => Same::One(v),
            Same::One(x) if x == v => Same::One(x),
            _ => Same::Mixed,
        }
    }
}

/// Fills the inline cache `c` of site `s` after the hook handled a chunk entirely in
/// the array of hit `h`, every denormal lane with tag `tag` (what the hook gave it or
/// wrote), `word` the cache's `DN_C_TAG` (`tag` in 32-bit form) and matching `matched`
/// (also 32-bit; see `taintprof_abi`, "Inline memory caches"); the
/// table generation was `gen` before the lookup. `pair`: for a store whose lanes have
/// an origin, that pair's slot. Leaves the cache empty when the chunk's array or its
/// counters do not allow the inline path (stack array, element size differs, the
/// creator or pair went to a shared overflow table, ...).
#[allow(clippy::too_many_arguments)]
fn fill_cache(
    t: &DnThread,
    c: *mut u64,
    s: &FpSiteDesc,
    gen: u64,
    h: &Hit,
    tag: u64,
    word: u64,
    matched: u64,
    pair: Option<&threads::PairSlot>,
) {
    let put = |w: u32, v: u64| {
        // SAFETY: `inline_cache` checked that the site's words are inside the block.
        unsafe { ptr::write_volatile(c.add(w as usize), v) }
    };
    // Invalidate first: instrumented code in a signal handler must never see the old
    // key with half-written words.
    put(DN_C_KEY, 0);
    core::sync::atomic::compiler_fence(SeqCst);
    let esz = elem_size(s.ty) as u64;
    let store = s.flags & FPSITE_STORE != 0;
    if gen & ranges::GEN_POISON != 0
        || h.id == OTHER
        || h.shard.is_null()
        || h.esz != esz
        || (store && !mode::shadow_writes_allowed())
        || arrays::rec_if_exists(h.id).is_none_or(|r| r.kind.load(Relaxed) == ARRAY_STACK as u32)
    {
        return;
    }
    if t.last_creator_key.get() != threads::creator_key(h.id, tag_creator(tag)) {
        return; // counted in the shared overflow table
    }
    let span = s.lanes.max(1) as u64 * esz;
    let arr_end = (h.arr_lo as u64).saturating_add(h.n.saturating_mul(esz));
    let hi = (h.hi as u64).min(arr_end);
    let lo = h.lo as u64;
    let Some(limit) = hi.checked_sub(lo).and_then(|w| w.checked_sub(span)) else {
        return;
    };
    let mut shard = h.shard as u64;
    let (mut pair_count, mut pair_map) = (0, 0);
    if store {
        // SAFETY: the shard holds 2n counters; writes are the second half.
        shard = unsafe { h.shard.add(h.n as usize) } as u64;
        if (matched as u32) >> STAG_ORIGIN_SHIFT != 0 {
            let Some(p) = pair else { return };
            let m = p.map.load(Relaxed);
            if m.is_null() || p.map_len.load(Relaxed) < h.n {
                return;
            }
            (pair_count, pair_map) = (p.count.as_ptr() as u64, m as u64);
        }
    }
    put(DN_C_LO, lo);
    put(DN_C_LIMIT, limit);
    put(DN_C_ARR_LO, h.arr_lo as u64);
    put(DN_C_SHARD, shard);
    put(DN_C_TAG, word);
    put(DN_C_MATCH, matched);
    // SAFETY: the cached slot is this thread's and lives as long as the process.
    put(DN_C_CREATOR_COUNT, unsafe {
        (*t.last_creator_slot.get()).count.as_ptr() as u64
    });
    if store {
        put(DN_C_PAIR_COUNT, pair_count);
        put(DN_C_PAIR_MAP, pair_map);
    }
    core::sync::atomic::compiler_fence(SeqCst);
    put(DN_C_KEY, gen ^ s as *const FpSiteDesc as u64);
}

/// `void __tpd_op(const FpSiteDesc *s, u64 operand_mask, u64 result_mask,
///                const u32 *operand_tags, u32 *result_tags)`.
#[no_mangle]
pub unsafe extern "C" fn __tpd_op(
    s: *const FpSiteDesc,
    operand_mask: u64,
    result_mask: u64,
    operand_tags: *const u32,
    result_tags: *mut u32,
) {
    if s.is_null() {
        return;
    }
    // SAFETY: the pass passes its own site descriptor.
    let s = unsafe { &*s };
    let raw_lanes = s.lanes.max(1) as usize;
    let lanes = raw_lanes.min(64);
    let ob = lane_bits(lanes.min(16));
    let omask = operand_mask & (ob | ob << 16 | ob << 32);
    let rmask = result_mask & lane_bits(lanes);
    let t = threads::current();
    let c = t.site(slot_of(t, s));
    if omask != 0 {
        bump(&c.operands, ones(omask));
        let lanes_hit = (omask | omask >> 16 | omask >> 32) & ob;
        bump(&c.operand_ops, ones(lanes_hit));
    }
    if rmask != 0 {
        bump(&c.results, ones(rmask));
        // Created: denormal result lanes without a denormal operand in the lane (lanes
        // past 16 have no operand bits: created, as their tags say below). A constant
        // operand does not count against it (`FpSiteDesc::const_operands`): its tag
        // names no creator, so the site becomes it.
        let live = (0..3)
            .filter(|k| s.const_operands & (1 << k) == 0)
            .fold(0u64, |m, k| m | (omask >> (16 * k)) & ob);
        let made = rmask & !live;
        if made != 0 {
            bump(&c.created, ones(made));
        }
    }
    if result_tags.is_null() || s.flags & FPSITE_NO_RESULT != 0 {
        return;
    }
    // Every lane is written (0 where the result is normal): no separate clearing.
    let me = me(s);
    for lane in 0..lanes {
        let mut out = 0;
        if rmask >> lane & 1 != 0 {
            out = make_tag(0, me);
            if lane < 16 && !operand_tags.is_null() {
                // The first operand that is denormal in this lane.
                let k = (omask >> lane) & 0x1_0001_0001;
                if k != 0 {
                    let k = (k.trailing_zeros() / 16) as usize;
                    // SAFETY: operand k exists (it is denormal in this lane); the buffer
                    // holds `lanes` tags per operand.
                    let ot = lane_tag(operand_tags, k * raw_lanes + lane);
                    out = if tag_creator(ot) != 0 {
                        ot
                    } else {
                        make_tag(tag_origin(ot), me)
                    };
                }
            }
        }
        // SAFETY: the buffer holds `s->lanes` result tags.
        unsafe { *result_tags.add(lane) = creators::encode_memo(out, &t.creator_ix) };
    }
}

/// `u32 __tpd_creator_index(const FpSiteDesc *creator)`: the creator index of a
/// site that stands as creator, assigned now if it has none (0: all are taken). Inline
/// operation code calls it once per creator and module, and keeps the answer.
#[no_mangle]
pub unsafe extern "C" fn __tpd_creator_index(s: *const FpSiteDesc) -> u32 {
    if s.is_null() {
        return 0;
    }
    // SAFETY: the pass passes its own site descriptor.
    creators::index_of(me(unsafe { &*s }))
}

/// `void __tpd_load(const FpSiteDesc *s, const void *addr, u64 lane_mask, u32 *tags)`.
#[no_mangle]
pub unsafe extern "C" fn __tpd_load(
    s: *const FpSiteDesc,
    addr: *const c_void,
    lane_mask: u64,
    tags: *mut u32,
) {
    if s.is_null() {
        return;
    }
    // SAFETY: the pass passes its own site descriptor.
    let s = unsafe { &*s };
    let lanes = (s.lanes.max(1) as usize).min(64);
    let mask = lane_mask & lane_bits(lanes);
    clear_tags(tags, lanes);
    if mask == 0 {
        return;
    }
    let t = threads::current();
    bump(&t.site(slot_of(t, s)).loads, ones(mask));
    let esz = elem_size(s.ty);
    let me = me(s);
    let half = s.ty == FP_HALF;
    let gen = ranges::GEN.load(Acquire);
    ranges::validate_hits(t);
    if !half {
        if let Some(h) = span_hit(t, addr as usize, mask, esz) {
            // All lanes in one marked array: no per-lane lookup.
            let mut run = CreatorRun::NEW;
            let mut raw = Same::Nothing;
            let mut m = mask;
            while m != 0 {
                let lane = m.trailing_zeros() as usize;
                m &= m - 1;
                let a = (addr as usize).wrapping_add(lane * esz);
                let stored = read_stored(a);
                // The inline cache matches the creator index in shadow memory.
                raw.add((stored & STAG_CREATOR_MASK) as u64);
                let st = creators::decode(stored);
                let creator = creator_or(st, me);
                span_count(&h, a, false);
                run.add(t, h.id, creator);
                if !tags.is_null() {
                    // SAFETY: the buffer holds `s->lanes` tags.
                    unsafe {
                        *tags.add(lane) =
                            creators::encode_memo(make_tag(h.id, creator), &t.creator_ix)
                    };
                }
            }
            run.flush(t, h.id);
            let c = inline_cache(t, s);
            if let (false, Same::One(r)) = (c.is_null(), raw) {
                let tag = make_tag(h.id, run.creator);
                let word = creators::encode_memo(tag, &t.creator_ix) as u64;
                fill_cache(t, c, s, gen, &h, tag, word, r, None);
            }
            return;
        }
    }
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let a = (addr as usize).wrapping_add(lane * esz);
        let st = if half { 0 } else { read_tag(a) };
        let creator = creator_or(st, me);
        let out = match ranges::find_hit(t, a) {
            Some((i, mut h)) => {
                count_element(t, i, &mut h, a, false);
                t.count_creator(h.id, creator);
                make_tag(h.id, creator)
            }
            None => make_tag(tag_origin(st), creator),
        };
        if !tags.is_null() {
            // SAFETY: the buffer holds `s->lanes` tags.
            unsafe { *tags.add(lane) = creators::encode_memo(out, &t.creator_ix) };
        }
    }
}

/// `void __tpd_store(const FpSiteDesc *s, void *addr, u64 lane_mask, const u32 *tags)`.
#[no_mangle]
pub unsafe extern "C" fn __tpd_store(
    s: *const FpSiteDesc,
    addr: *mut c_void,
    lane_mask: u64,
    tags: *const u32,
) {
    if s.is_null() {
        return;
    }
    // SAFETY: the pass passes its own site descriptor.
    let s = unsafe { &*s };
    let lanes = (s.lanes.max(1) as usize).min(64);
    let mask = lane_mask & lane_bits(lanes);
    if mask == 0 {
        return;
    }
    let t = threads::current();
    bump(&t.site(slot_of(t, s)).stores, ones(mask));
    let esz = elem_size(s.ty);
    let me = me(s);
    let write = s.ty != FP_HALF && mode::shadow_writes_allowed();
    let gen = ranges::GEN.load(Acquire);
    ranges::validate_hits(t);
    if s.ty != FP_HALF {
        if let Some(h) = span_hit(t, addr as usize, mask, esz) {
            // All lanes in one marked array: no per-lane lookup.
            let mut run = CreatorRun::NEW;
            // The inline cache matches one creator, and lanes with one origin or none.
            let (mut creators, mut origins) = (Same::Nothing, Same::Nothing);
            let mut m = mask;
            while m != 0 {
                let lane = m.trailing_zeros() as usize;
                m &= m - 1;
                let a = (addr as usize).wrapping_add(lane * esz);
                let tin = lane_tag(tags, lane);
                let creator = creator_or(tin, me);
                let e = span_count(&h, a, true);
                let src = tag_origin(tin);
                if src != 0 && h.id != OTHER {
                    origins::count_pair(t, h.id, src, h.n, e);
                }
                creators.add(tag_creator(tin));
                if src != 0 {
                    origins.add(src as u64);
                }
                run.add(t, h.id, creator);
                if write {
                    write_tag(t, a, make_tag(h.id, creator));
                }
            }
            run.flush(t, h.id);
            let c = inline_cache(t, s);
            let origin = match origins {
                Same::Nothing => Some(0),
                Same::One(o) => Some(o as u32),
                Same::Mixed => None,
            };
            if let (false, Same::One(cr), Some(o)) = (c.is_null(), creators, origin) {
                let matched = make_tag(o, cr);
                let pair = (o != 0).then(|| t.pair_if_exists(h.id, o)).flatten();
                // The cache's tag is what the inline code writes to shadow memory.
                let tag = make_tag(h.id, creator_or(matched, me));
                let stored = creators::encode_memo(tag, &t.creator_ix) as u64;
                let matched = creators::encode_memo(matched, &t.creator_ix) as u64;
                fill_cache(t, c, s, gen, &h, tag, stored, matched, pair);
            }
            return;
        }
    }
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let a = (addr as usize).wrapping_add(lane * esz);
        let tin = lane_tag(tags, lane);
        let creator = creator_or(tin, me);
        let new = match ranges::find_hit(t, a) {
            Some((i, mut h)) => {
                let e = count_element(t, i, &mut h, a, true);
                let src = tag_origin(tin);
                if src != 0 && h.id != OTHER {
                    origins::count_pair(t, h.id, src, h.n, e);
                }
                t.count_creator(h.id, creator);
                make_tag(h.id, creator)
            }
            None => make_tag(tag_origin(tin), creator),
        };
        if write {
            write_tag(t, a, new);
        }
    }
}

// ----------------------------------------------------------------------------------
// Marked arrays
// ----------------------------------------------------------------------------------

fn evicted(id: u32) {
    arrays::IMPLICIT_RELEASES.fetch_add(1, Relaxed);
    arrays::released(id);
}

/// Registers a global or static array of a module (at module registration). A range
/// registered already (the same global from another module) is kept as it is.
pub fn register_static_array(d: &FpArrayDesc) {
    if d.addr.is_null() {
        return;
    }
    let esz = if d.elem_size > 0 {
        d.elem_size as u64
    } else {
        elem_size(d.elem_ty) as u64
    };
    let bytes = d.elements.saturating_mul(esz);
    let lo = d.addr as usize;
    let Some(hi) = lo.checked_add(bytes as usize).filter(|_| bytes > 0) else {
        return;
    };
    if let Some(r) = ranges::lookup_global(lo) {
        if r.lo == lo && r.hi == hi {
            return;
        }
    }
    let id = arrays::create(&NewArray {
        kind: d.kind,
        elem_ty: d.elem_ty,
        elem_size: esz,
        elements: d.elements,
        base: lo,
        desc: d as *const FpArrayDesc as usize,
    });
    if !ranges::insert(Range { lo, hi, id }, evicted) {
        arrays::released(id);
        return;
    }
    arrays::apply_pending(lo, id);
}

/// `void __tpd_array_enter(void *addr, const FpArrayDesc *a)`: a stack array comes into
/// scope. One record per variable (`FpArrayDesc`), shared by its instances.
#[no_mangle]
pub unsafe extern "C" fn __tpd_array_enter(addr: *mut c_void, a: *const FpArrayDesc) {
    if addr.is_null() || a.is_null() {
        return;
    }
    // SAFETY: the pass passes its own descriptor.
    let d = unsafe { &*a };
    let esz = if d.elem_size > 0 {
        d.elem_size as u64
    } else {
        elem_size(d.elem_ty) as u64
    };
    let bytes = d.elements.saturating_mul(esz);
    let lo = addr as usize;
    let Some(hi) = lo.checked_add(bytes as usize).filter(|_| bytes > 0) else {
        return;
    };
    let id = arrays::stack_record(d);
    let t = threads::current();
    let marker = 0u8;
    let sp = core::hint::black_box(&marker) as *const u8 as usize;
    t.stack.push(lo, hi, id, sp);
    if !t.stack_ever.get() {
        t.stack_ever.set(true);
        threads::ANY_STACK.fetch_add(1, Relaxed);
    }
    arrays::apply_pending(lo, id);
}

/// `void __tpd_array_leave(void *addr)`: the stack array at `addr` goes out of scope.
#[no_mangle]
pub unsafe extern "C" fn __tpd_array_leave(addr: *mut c_void) {
    if let Some(t) = threads::current_if_any() {
        t.stack.pop(addr as usize);
    }
}

/// `void *__tpd_alloc(void *block, size_t bytes, const AllocSiteDesc *site)`: a heap
/// block allocated at an FP-typed site becomes a marked array. Its shadow tags are
/// cleared (tags of the memory's previous life must not reappear), unless the allocator
/// kept the contents (`ALLOC_SITE_KEEPS_CONTENTS`: realloc). Returns `block`.
#[no_mangle]
pub unsafe extern "C" fn __tpd_alloc(
    block: *mut c_void,
    bytes: usize,
    site: *const AllocSiteDesc,
) -> *mut c_void {
    if block.is_null() || site.is_null() {
        return block;
    }
    // SAFETY: the pass passes its own descriptor.
    let sd = unsafe { &*site };
    let esz = if sd.elem_size > 0 {
        sd.elem_size as usize
    } else {
        elem_size(sd.elem_ty)
    };
    let elements = bytes / esz;
    let lo = block as usize;
    let Some(hi) = lo.checked_add(bytes).filter(|_| elements > 0) else {
        return block;
    };
    // A block that keeps its contents (realloc) keeps their tags: its wrapper moved them
    // and cleared the rest.
    if mode::shadow_writes_allowed() && sd.flags & ALLOC_SITE_KEEPS_CONTENTS == 0 {
        // SAFETY: any address range is valid for the shadow.
        unsafe { crate::shadow::dn_clear(lo, bytes) };
    }
    let id = if sd.flags & ALLOC_SITE_VLA != 0 {
        // A VLA's activations share a record per size class (see `vla_record`).
        let id = arrays::vla_record(sd, arrays::vla_class(elements as u64));
        if let Some(r) = arrays::rec_if_exists(id) {
            r.live.store(true, Release);
        }
        id
    } else {
        arrays::create(&NewArray {
            kind: ARRAY_HEAP,
            elem_ty: sd.elem_ty,
            elem_size: esz as u64,
            elements: elements as u64,
            base: lo,
            desc: site as usize,
        })
    };
    if !ranges::insert(Range { lo, hi, id }, evicted) {
        arrays::released(id);
        return block;
    }
    arrays::apply_pending(lo, id);
    block
}

/// `void __tpd_release(void *block)`: before `free`/`delete[]`/`realloc` of any block;
/// blocks that are not marked heap arrays are ignored (decided without a lock).
#[no_mangle]
pub unsafe extern "C" fn __tpd_release(block: *mut c_void) {
    if block.is_null() {
        return;
    }
    let lo = block as usize;
    // Lock-free check first: most freed blocks are not marked arrays.
    // (The innermost range containing `lo` starts at `lo` iff some range does.)
    if ranges::lookup_global(lo).map(|r| r.lo) != Some(lo) {
        return;
    }
    let heap = |id: u32| {
        id == OTHER
            || arrays::rec_if_exists(id)
                .map(|r| r.kind.load(Relaxed) == ARRAY_HEAP as u32)
                .unwrap_or(false)
    };
    if let Some(id) = ranges::remove(lo, heap) {
        arrays::released(id);
    }
}

/// `void __tpd_name_container(void *obj, const AllocSiteDesc *var)`: `obj` is a local
/// `std::vector` of an FP type, right after a call that was given its address; its
/// first word points to its elements (libstdc++ and libc++ alike).
#[no_mangle]
pub unsafe extern "C" fn __tpd_name_container(obj: *const c_void, var: *const AllocSiteDesc) {
    if obj.is_null() || var.is_null() {
        return;
    }
    // SAFETY: the pass passes the address of the vector object, a live alloca.
    let begin = unsafe { ptr::read(obj as *const usize) };
    if begin == 0 {
        return;
    }
    let t = threads::current();
    ranges::validate_hits(t);
    if let Some((_, h)) = ranges::find_hit(t, begin) {
        // SAFETY: the pass's descriptor lives as long as the module.
        arrays::name_by_container(h.id, unsafe { &*var });
    }
}

/// `void __tpd_copy(void *dst, const void *src, size_t n)`: memcpy/memmove in denormal
/// mode, called right before the copy (the source still holds what is copied). The
/// tags move with the bytes; and when the source or the destination lies in a marked
/// array, the copy counts like the element-wise loop it stands for (the optimizer turns
/// such loops into `memcpy`, so -O0 and -O2 agree): each denormal element is a read of
/// the source's array, a write of the destination's with the origin pair (destination,
/// source) and its creator, and the destination's tag names its array.
#[no_mangle]
pub unsafe extern "C" fn __tpd_copy(dst: *mut c_void, src: *const c_void, n: usize) {
    let (d, s) = (dst as usize, src as usize);
    if n == 0 || d == s {
        return;
    }
    if !mode::shadow_writes_allowed() {
        // The shadow holds taint labels (a program mixing modes is refused).
        // SAFETY: any address range is valid for the shadow.
        unsafe { crate::shadow::copy(d, s, n) };
        return;
    }
    // SAFETY: as above.
    unsafe { crate::shadow::dn_copy(d, s, n) };
    let t = threads::current();
    ranges::validate_hits(t);
    // The element type: the destination's array's, else the source's.
    let ty = [d, s]
        .iter()
        .find_map(|&a| ranges::find_hit(t, a))
        .and_then(|(_, h)| arrays::rec_if_exists(h.id))
        .map(|r| r.elem_ty.load(Relaxed) as u16);
    let Some(ty @ (FP_FLOAT | FP_DOUBLE)) = ty else {
        return;
    };
    let esz = elem_size(ty);
    for k in 0..n / esz {
        let (sa, da) = (s + k * esz, d + k * esz);
        // SAFETY: the program is about to copy these bytes: they are readable.
        let denormal = unsafe {
            if ty == FP_FLOAT {
                is_denormal_f32(ptr::read_unaligned(sa as *const f32))
            } else {
                is_denormal_f64(ptr::read_unaligned(sa as *const f64))
            }
        };
        if !denormal {
            continue;
        }
        // The element's tag, already moved to the destination's shadow. No tag: no
        // floating-point code of the program stored a denormal there. A copy is bytes,
        // and a block followed as floats may hold integers (a struct's int fields)
        // whose small values look like denormal floats bit for bit; they are not
        // counted. (A denormal that came from outside, through I/O or uninstrumented
        // code, is counted where a float load first reads it.)
        let tin = read_tag(da);
        if tin == 0 {
            continue;
        }
        let creator = tag_creator(tin);
        let origin = match ranges::find_hit(t, sa) {
            Some((i, mut h)) => {
                count_element(t, i, &mut h, sa, false);
                if creator != 0 {
                    t.count_creator(h.id, creator);
                }
                h.id
            }
            None => tag_origin(tin),
        };
        if let Some((i, mut h)) = ranges::find_hit(t, da) {
            let e = count_element(t, i, &mut h, da, true);
            if origin != 0 && h.id != OTHER {
                origins::count_pair(t, h.id, origin, h.n, e);
            }
            if creator != 0 {
                t.count_creator(h.id, creator);
            }
            write_tag(t, da, make_tag(h.id, creator));
        } else {
            write_tag(t, da, make_tag(origin, creator));
        }
    }
}
