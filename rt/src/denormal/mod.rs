//! # Denormal mode (`docs/internal/denormal-mode.md`)
//!
//! Programs built with `taintprof-cc --tp-mode=denormal` count, for every floating-point
//! operation, how often it saw denormal operands and produced denormal results, follow
//! every FP array (global, static, stack, heap) and count denormal reads and writes per
//! element over time, and carry with every denormal value a 64-bit **tag**: the origin
//! array it was loaded from (bits 63..48) and the creator site that first produced it
//! (bits 47..0, the address of its `FpSiteDesc`). Tags are non-zero only while a value
//! is denormal. In memory the tag of the FP element at `a` is its 32-bit *stored tag*
//! (origin id, creator index: [`creators`]) at `dn_shadow_addr(a)`, one shadow byte per
//! application byte.
//!
//! A module built in the profile tier (`DN_MODULE_PROFILE`, `--tp-denormal=profile`)
//! only counts: its loads and stores count inline (word 0 of their counters), its
//! operations inline or through `__tpd_op`; it registers no arrays and reads or writes
//! no tags, so the registry, the shadow tags, origins and heatmaps stay empty for it
//! (the shadow region is still reserved at start-up, `MAP_NORESERVE`, before any module
//! says its tier). The record passes the module's flags on; the model makes the tier.
//!
//! Instrumented code does the fast path (denormal checks, block counters). This module
//! is the **cold path** (the hooks run once per denormal event — tens of millions of
//! times in the Jacobi wavefront, so they take no lock, call no malloc and use per-thread
//! caches) and the record of it all. It analyses nothing: the report is made offline
//! from the record (`taintprof-model`, docs/design.md, decision 7).
//!
//! ## Map (one concept per module)
//!
//! | module | concept | hot? |
//! |---|---|---|
//! | [`mode`] | which kind of program this is (taint / denormal / mixed = error) | no |
//! | [`creators`] | stored tags: a tag's 32-bit form in shadow memory, creator indices | cold |
//! | `taintprof_sigsafe::SpinLock` | the spin lock registration paths use (never the hooks); it records its owner so signal-time code backs off | no |
//! | [`modules`] | `__tpd_register_module`: block bases, site bases, block weights, creator-site validation | lookup yes |
//! | [`threads`] | per-thread state: block counters (`__tpd_thread_counters`), site counters, creator and origin-pair tables, stack-array list, caches | **yes** |
//! | [`arrays`] | marked-array records: ids, names, shapes, per-element interval counters; `tp_array_shape` | **yes** |
//! | [`ranges`] | address → marked array: the global live-range table (seqlock, lock-free reads), per-thread stack lists, the last-hit cache | **yes** |
//! | [`origins`] | (destination, source) pairs and their per-element origin maps; overflow tables | **yes** |
//! | [`hooks`] | `__tpd_op`, `__tpd_load`, `__tpd_store`, `__tpd_array_enter/leave`, `__tpd_alloc/release` | **yes** |
//! | [`keepregs`] | `__tpd_load_keepregs`, `__tpd_store_keepregs`: the memory hooks behind entries that preserve all registers (called with `preserve_allcc`) | on cache misses |
//! | [`snapshot`] | snapshots and heatmap binning; `tp_snapshot`, the ops sampler thread, `SIGUSR1` | no |
//! | [`fpenv`] | MXCSR (FTZ/DAZ) at start and exit | no |
//! | [`record`] | the denormal record (`<prog>.<pid>.denormal.rec`): the raw state above, written at exit; `taintprof-model` makes the `taintprof.denormal` report from it | no |
//!
//! ## Counting strategy (why per thread / why atomics)
//!
//! * **Block counters** are per thread (the ABI: instrumented code does `blk[base+i] += 1`).
//! * **Site denormal counters** (operands, results, loads, stores, created results) are
//!   per thread too, indexed by `site_base(module) + site.index`: every thread in the
//!   Jacobi wavefront hits the same handful of sites, and a shared relaxed atomic there
//!   would bounce one cache line between all cores on every event. The owner updates
//!   them with a relaxed load + store (a plain `add`); the record sums over threads.
//! * **Creator counts** and **origin-pair counts** are per thread (small open-addressing
//!   tables, owner-only writes) for the same reason, merged offline (the record has each table).
//! * **Per-element counters** (array heatmaps, origin maps) are shared relaxed atomics:
//!   per-thread copies would multiply memory by the thread count, and different threads
//!   mostly touch different elements, so there is little contention.
//! * **Array totals** are not counted separately: they are the per-element interval
//!   counters plus what earlier snapshots flushed, summed when needed.

pub mod arrays;
pub mod creators;
pub mod fpenv;
pub mod hooks;
pub mod keepregs;
pub mod mode;
pub mod modules;
pub mod origins;
pub mod ranges;
pub mod record;
pub mod snapshot;
pub mod threads;

#[cfg(test)]
mod tests;

use taintprof_abi::{
    FP_DOUBLE, FP_FLOAT, FP_FP128, FP_HALF, FP_X86_FP80, TAG_CREATOR_MASK, TAG_ORIGIN_SHIFT,
};

/// Origin array id of a tag (0 = none).
#[inline(always)]
pub fn tag_origin(t: u64) -> u32 {
    (t >> TAG_ORIGIN_SHIFT) as u32
}

/// Creator (address of an `FpSiteDesc`, 0 = none) of a tag.
#[inline(always)]
pub fn tag_creator(t: u64) -> u64 {
    t & TAG_CREATOR_MASK
}

/// A tag from an origin array id and a creator address.
#[inline(always)]
pub fn make_tag(origin: u32, creator: u64) -> u64 {
    ((origin as u64 & 0xffff) << TAG_ORIGIN_SHIFT) | (creator & TAG_CREATOR_MASK)
}

/// Bytes of one element of `FP_*` type `ty` in memory (its alloc size).
#[inline]
pub fn elem_size(ty: u16) -> usize {
    match ty {
        FP_HALF => 2,
        FP_FLOAT => 4,
        FP_DOUBLE => 8,
        FP_X86_FP80 | FP_FP128 => 16,
        _ => 4,
    }
}

/// True for a denormal `f32` (exponent bits zero, mantissa non-zero).
#[inline]
pub fn is_denormal_f32(x: f32) -> bool {
    let b = x.to_bits();
    b & 0x7f80_0000 == 0 && b & 0x007f_ffff != 0
}

/// True for a denormal `f64`.
#[inline]
pub fn is_denormal_f64(x: f64) -> bool {
    let b = x.to_bits();
    b & 0x7ff0_0000_0000_0000 == 0 && b & 0x000f_ffff_ffff_ffff != 0
}
