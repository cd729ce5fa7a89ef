//! The inline memory cache of contiguous float and double loads and stores.
//!
//! A load or store site with a denormal lane would call its hook (`__tpd_load`,
//! `__tpd_store`), which looks the address up in the marked-array registry to find the
//! array's element counters and the tags' creator and origin. The hook leaves what it
//! found in the site's words of the block counters (`fill_cache` in the runtime; the
//! layout is `taintprof_abi`'s "Inline memory caches"). While the registry generation,
//! the array window and the tags of the denormal lanes still match (`probe`), the
//! cold region counts and tags inline (`mem_hit`), as the hook would; on a miss it
//! calls the hook, through its register-preserving entry where the function allows it
//! ([`keepregs_allowed`]), and the hook refills the cache. `TAINTPROF_DN_INLINE_MEM=0`
//! turns the cache off (every load and store calls its hook).

use super::func::DnFn;
use crate::ffi;
use crate::ir::Hook;
use crate::ir::{self, B, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMIntPredicate as IP;
use taintprof_abi as abi;

/// One chunk (at most 16 lanes) of a contiguous load or store site with an inline
/// cache, in the cold region.
pub(super) struct CachedChunk {
    /// The chunk's `FpSiteDesc`.
    pub site: V,
    /// Index of the site's inline words in the block counters.
    pub ctr: u32,
    /// Address of the chunk's first element, and the element size.
    pub p: V,
    pub es: u64,
    /// The chunk's denormal lanes (`i1` or `<n x i1>`), and as the hook's `i64` lane mask.
    pub lm: V,
    pub bits: V,
    /// The end of the block the chunk's code goes into (the block is split around it).
    pub term: V,
    /// A masked store: lanes outside its mask keep their memory, and so their tags.
    pub partial: bool,
}

impl DnFn<'_> {
    /// A load chunk through the cache: its tags from the cache when it holds, else from
    /// the hook (`hook_tags` reads the hook's result buffer `restags`, in the miss block).
    pub(super) fn cached_load(
        &mut self,
        ch: &CachedChunk,
        restags: V,
        hook_tags: impl FnOnce(&Self) -> V,
    ) -> V {
        let ir = self.ir;
        let (hit_bb, miss_bb) = self.probe(ch, None);
        let (hit_end, miss_end) = (ir::terminator(hit_bb), ir::terminator(miss_bb));
        let hit_tags = self.mem_hit(ch.ctr, ch.p, ch.lm, ch.es, hit_bb, None);
        ir.at_end(miss_bb);
        self.miss_call(
            self.rt.load,
            self.rt.load_keepregs,
            &[ch.site, ch.p, ch.bits, restags],
        );
        let hook_tags = hook_tags(self);
        ir.before_with_records(ir::first_non_phi(ir::block_of(ch.term)));
        let t = ir.phi(ir::type_of(hit_tags));
        ir.add_incoming(t, hit_tags, ir::block_of(hit_end));
        ir.add_incoming(t, hook_tags, ir::block_of(miss_end));
        self.at(ch.term);
        t
    }

    /// A store chunk of value tags `tc` through the cache: inline when it holds, else
    /// the hook (with the tags in the operand buffer `optags`).
    pub(super) fn cached_store(&mut self, ch: &CachedChunk, tc: V, optags: V) {
        let ir = self.ir;
        let (hit_bb, miss_bb) = self.probe(ch, Some(tc));
        self.mem_hit(ch.ctr, ch.p, ch.lm, ch.es, hit_bb, Some((tc, ch.partial)));
        ir.at_end(miss_bb);
        self.store_tags(optags, 0, tc);
        self.miss_call(
            self.rt.store,
            self.rt.store_keepregs,
            &[ch.site, ch.p, ch.bits, optags],
        );
        self.at(ch.term);
    }

    /// The cache probe of chunk `ch` before its `term`: its three checks in turn
    /// (`probe_key`, `probe_window`, `probe_tags`), each in a block of its own and each
    /// failing to one miss block. Returns (hit block, miss block); both end in a branch
    /// to the block of `term`. One branch per check costs fewer instructions than
    /// materializing and combining three flags, and the hit is one diamond with the miss,
    /// not a hit test followed by a second miss test.
    fn probe(&mut self, ch: &CachedChunk, store_tags: Option<V>) -> (B, B) {
        let ir = self.ir;
        self.at(ch.term);
        let key_ok = ir.freeze(self.probe_key(ch.ctr, ch.site));
        let (mut checked, mut miss): (B, B) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: `ch.term` is a live instruction of the function, `key_ok` an `i1` built
        // before it; the shim writes both blocks.
        unsafe { ffi::tp_split_if_then_else(key_ok, ch.term, &mut checked, &mut miss) };
        ir.at_end(checked);
        let in_window = ir.freeze(self.probe_window(ch.ctr, ch.p));
        // SAFETY: `checked` ends in the unconditional branch the shim made; `miss` is live.
        let checked = unsafe { ffi::tp_guard_block(checked, in_window, miss) };
        ir.at_end(checked);
        let tags_ok = ir.freeze(self.probe_tags(ch, store_tags));
        // SAFETY: as above.
        let hit = unsafe { ffi::tp_guard_block(checked, tags_ok, miss) };
        (hit, miss)
    }

    /// Calls the hook `plain`, or its register-preserving entry `keep` where allowed
    /// (cold: only when an inline cache misses, or a creator has no index yet).
    pub(super) fn miss_call(&self, plain: Hook, keep: Hook, args: &[V]) -> V {
        let ir = self.ir;
        if self.keepregs {
            let c = ir.call(keep.ty, keep.f, args);
            // SAFETY: a call we just built.
            unsafe { LLVMSetInstructionCallConv(c, abi::CC_PRESERVE_ALL) };
            c
        } else {
            ir.call(plain.ty, plain.f, args)
        }
    }

    /// The inline cache of the load or store site `site` (words at `ctr`) holds while
    /// the table generation and the window match and every denormal lane's tag matches
    /// (a load: the creator bits in shadow memory; a store: the whole tag), so the hook
    /// would give every lane the same tag. The layout is `taintprof_abi`'s "Inline
    /// memory caches"; `fill_cache` in the runtime fills it. These three checks are
    /// [`Self::probe`]'s, in that order.
    ///
    /// The key: the cache was filled for this site under the current table generation.
    fn probe_key(&self, ctr: u32, site: V) -> V {
        let ir = self.ir;
        let site_i = ir.ptrtoint(site, ir.i64);
        // The table generation, read once where the region starts (`region_gen`).
        let gen = match self.region_gen {
            Some(g) => g,
            None => ir.load_atomic(ir.i64, self.rt.ranges_gen, 8),
        };
        ir.icmp_eq(self.word(ctr, abi::DN_C_KEY), ir.xor(gen, site_i))
    }

    /// The window: every lane of the chunk at `p` lies in the cached array.
    fn probe_window(&self, ctr: u32, p: V) -> V {
        let ir = self.ir;
        let pa = ir.ptrtoint(p, ir.i64);
        let rel = ir.sub(pa, self.word(ctr, abi::DN_C_LO));
        ir.icmp(IP::LLVMIntULE, rel, self.word(ctr, abi::DN_C_LIMIT))
    }

    /// The tags: every denormal lane (`ch.lm`) matches the cache's MATCH word. A load
    /// compares the creator index of the stored tags; a store (`store_tags`: the
    /// value's tags) the whole tag.
    fn probe_tags(&self, ch: &CachedChunk, store_tags: Option<V>) -> V {
        let ir = self.ir;
        let (ctr, p, lm, es) = (ch.ctr, ch.p, ch.lm, ch.es);
        let vec = ir::is_vector(ir::type_of(lm));
        let n = if vec {
            ir::vector_len(ir::type_of(lm))
        } else {
            1
        };
        let wide = |c: V| if vec { ir.splat(c, n) } else { c };
        let want = ir.trunc(self.word(ctr, abi::DN_C_MATCH), ir.i32);
        let any_bad = match store_tags {
            // Loads match the creator index of the stored tags in shadow memory
            // (mapped for every address). Lanes that are not denormal do not matter.
            None => {
                let st = self.stored_tags(p, n, vec, es).0;
                let creators = ir.and(st, wide(ir.c32(abi::STAG_CREATOR_MASK)));
                let differs = ir.xor(creators, wide(want));
                let bad = ir.and(differs, ir.sext(lm, ir::type_of(st)));
                ir.icmp_ne(ir.reduce_or(bad), ir.c32(0))
            }
            // Stores match the whole value tags. A lane may also lack the origin
            // (created right here): then it differs from the match in the origin
            // bits exactly.
            Some(tags) => {
                let tt = ir::type_of(tags);
                let differs = ir.xor(tags, wide(want));
                let origin_only = ir.and(want, ir.c32(!abi::STAG_CREATOR_MASK));
                let created = ir.icmp_eq(differs, wide(origin_only));
                let differs = ir.select(created, ir.null(tt), differs);
                let bad = ir.and(differs, ir.sext(lm, tt));
                ir.icmp_ne(ir.reduce_or(bad), ir.c32(0))
            }
        };
        ir.not(any_bad)
    }

    /// What the hook does for a chunk whose cache holds ([`Self::probe`]): the element
    /// counters of the cached array (reads, or writes for a store), the creator count,
    /// the site's inline count; for a store (`store_tags`: the value's tags) the origin
    /// pair and its map for the lanes that have the origin, and the shadow tags of the
    /// denormal lanes. Emitted into block `bb` (it may be split). Returns the lanes'
    /// tags (what a load produces).
    fn mem_hit(&self, ctr: u32, p: V, lm: V, es: u64, bb: B, store: Option<(V, bool)>) -> V {
        let ir = self.ir;
        let at = ir::terminator(bb);
        ir.before(at);
        let vec = ir::is_vector(ir::type_of(lm));
        let n = if vec {
            ir::vector_len(ir::type_of(lm))
        } else {
            1
        };
        let wide = |c: V| if vec { ir.splat(c, n) } else { c };
        let tt = if vec { ir.vec(ir.i32, n) } else { ir.i32 };
        let pa = ir.ptrtoint(p, ir.i64);
        let e = ir.lshr(
            ir.sub(pa, self.word(ctr, abi::DN_C_ARR_LO)),
            ir.c64(es.trailing_zeros() as u64),
        );
        // Byte offset of the element's u32 counter.
        let off = ir.shl(e, ir.c64(2));
        // Lane by lane, not one vector read-modify-write: neighbouring sites of a
        // stencil bump overlapping counters, and a vector load of a counter range a
        // vector store just partly wrote stalls (no store-to-load forwarding).
        let bump = |base: V, lanes: V| {
            let bits = if vec {
                ir.zext(ir.bitcast(lanes, ir.int_ty(n)), ir.i32)
            } else {
                ir.zext(lanes, ir.i32)
            };
            let cp = ir.gep_i8(ir.inttoptr(base, ir.ptr), off);
            for l in 0..n {
                let q = ir.gep(ir.i32, cp, &[ir.c64(l as u64)]);
                let b = ir.and(ir.lshr(bits, ir.c32(l)), ir.c32(1));
                let old = ir.load(ir.i32, q, 4);
                ir.store(ir.add(old, b), q, 4);
            }
        };
        let count = |lanes: V| self.lane_count(lanes);
        let add_to = |at: V, k: V| {
            let v = ir.load(ir.i64, at, 8);
            ir.store(ir.add(v, k), at, 8);
        };
        bump(self.word(ctr, abi::DN_C_SHARD), lm);
        let k = count(lm);
        add_to(
            ir.inttoptr(self.word(ctr, abi::DN_C_CREATOR_COUNT), ir.ptr),
            k,
        );
        add_to(self.word_ptr(ctr, 0), k);
        if let Some((value_tags, partial)) = store {
            let pair = self.word(ctr, abi::DN_C_PAIR_COUNT);
            // The stored tag of every denormal lane is the cache's. Every other lane
            // holds a normal value now, whose tag is never read: 0, so the shadow is
            // written without being read first. Not so for a masked store, whose
            // lanes outside the mask keep their memory and so their tags.
            let stt = if vec { ir.vec(ir.i32, n) } else { ir.i32 };
            let stored = wide(ir.trunc(self.word(ctr, abi::DN_C_TAG), ir.i32));
            let (keep, raw) = if partial && vec {
                let (lanes, raw) = self.stored_tags(p, n, vec, es);
                (lanes, Some(raw))
            } else {
                (ir.null(stt), None)
            };
            let new = ir.select(lm, stored, keep);
            let new = if vec && es == 8 {
                // Doubles: the tags at the even words of `<2n x i32>`; between them 0,
                // or (masked) what was there.
                let other = raw.unwrap_or_else(|| ir.null(ir.vec(ir.i32, 2 * n)));
                let idx: Vec<Option<u32>> = (0..2 * n)
                    .map(|l| Some(if l % 2 == 0 { l / 2 } else { 2 * n + l }))
                    .collect();
                let wide_new = ir.shuffle(
                    new,
                    ir.poison(stt),
                    ir.mask(&(0..2 * n).map(|l| (l < n).then_some(l)).collect::<Vec<_>>()),
                );
                ir.shuffle(wide_new, other, ir.mask(&idx))
            } else {
                new
            };
            ir.store(new, self.shadow_ptr(p), 1);
            // The origin pair, if the cached tag has an origin (null otherwise), for
            // the lanes that carry it (the others were created in place).
            // SAFETY: `at` is a live instruction of the function; the condition is built before it.
            let pb = unsafe { ffi::tp_split_if_then_weighted(ir.icmp_ne(pair, ir.c64(0)), at, 1) };
            ir.at_end(pb);
            let want = ir.trunc(self.word(ctr, abi::DN_C_MATCH), ir.i32);
            let same = ir.icmp_eq(value_tags, wide(want));
            let from_origin = ir.and(lm, same);
            add_to(ir.inttoptr(pair, ir.ptr), count(from_origin));
            bump(self.word(ctr, abi::DN_C_PAIR_MAP), from_origin);
            ir.before(at);
        }
        // The lanes' tags (a load's result; a store's are unused).
        let tag = ir.trunc(self.word(ctr, abi::DN_C_TAG), ir.i32);
        ir.select(lm, wide(tag), ir.null(tt))
    }

    /// The stored tags (`i32`, or `<n x i32>` when `vec`) of the elements (of `es`
    /// bytes) at `p`, and the shadow words they were read from. A float's 4 shadow
    /// bytes are its stored tag, so a vector's are contiguous; a double has 8 shadow
    /// bytes, the tag first, so its lanes' tags are the even words of `<2n x i32>`.
    fn stored_tags(&self, p: V, n: u32, vec: bool, es: u64) -> (V, V) {
        let ir = self.ir;
        let sp = self.shadow_ptr(p);
        if !vec {
            let t = ir.load(ir.i32, sp, 1);
            return (t, t);
        }
        let words = es as u32 / 4;
        let raw = ir.load(ir.vec(ir.i32, n * words), sp, 1);
        if words == 1 {
            return (raw, raw);
        }
        let idx: Vec<Option<u32>> = (0..n).map(|l| Some(l * words)).collect();
        let lanes = ir.shuffle(raw, ir.poison(ir::type_of(raw)), ir.mask(&idx));
        (lanes, raw)
    }

    /// Denormal-mode shadow address of application pointer `p`: one shadow byte per
    /// application byte (`taintprof_abi::dn_shadow_addr`).
    pub(super) fn shadow_ptr(&self, p: V) -> V {
        let ir = self.ir;
        let i = ir.ptrtoint(p, ir.i64);
        let m = ir.and(i, ir.c64(abi::SHADOW_MASK));
        let a = ir.add(m, ir.c64(abi::SHADOW_BASE));
        ir.inttoptr(a, ir.ptr)
    }
}

/// Whether `f` may call the register-preserving hook entries
/// (`abi::HOOK_DN_LOAD_KEEPREGS`): they keep the 128-bit vector registers only, so the
/// function must not use AVX. Clang writes every enabled feature into
/// `target-features`; a CPU other than the baseline ones could imply AVX without
/// naming it, so only those qualify.
pub(super) fn keepregs_allowed(f: V) -> bool {
    let attr = |key: &str| -> Option<String> {
        // SAFETY: reading a string attribute of a function of the module.
        unsafe {
            let a = LLVMGetStringAttributeAtIndex(
                f,
                inkwell::llvm_sys::LLVMAttributeFunctionIndex,
                key.as_ptr().cast(),
                key.len() as u32,
            );
            if a.is_null() {
                return None;
            }
            let mut len = 0u32;
            let p = LLVMGetStringAttributeValue(a, &mut len);
            let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len as usize);
            Some(String::from_utf8_lossy(bytes).into_owned())
        }
    };
    let cpu_ok = attr("target-cpu")
        .is_none_or(|c| matches!(c.as_str(), "x86-64" | "x86-64-v2" | "generic" | ""));
    let no_avx =
        attr("target-features").is_none_or(|fs| !fs.split(',').any(|x| x.starts_with("+avx")));
    cpu_ok && no_avx
}
