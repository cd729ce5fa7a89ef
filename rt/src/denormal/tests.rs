//! Unit tests of denormal mode: fake ABI v3 descriptors drive the hooks the way
//! instrumented code would. Tests share one process (and its registries), so each one
//! uses its own modules, sites and arrays and checks only those.

use core::ffi::{c_char, c_void};
use core::ptr::{null, null_mut};
use core::sync::atomic::Ordering::*;
use std::ffi::CString;

use serde_json::Value;
use taintprof_abi::*;

use super::arrays::{self, OTHER};
use super::hooks::*;
use super::modules::{self, __tpd_register_module};
use super::ranges::{self, Range};
use super::snapshot::{self, Grid};
use super::threads::{self, __tpd_thread_counters};
use super::*;

fn cs(s: &str) -> *const c_char {
    CString::new(s).unwrap().into_raw()
}

fn leak<T>(v: T) -> &'static mut T {
    Box::leak(Box::new(v))
}

struct SiteSpec {
    op: &'static str,
    ty: u16,
    lanes: u16,
    flags: u16,
    block: u32,
    func: &'static str,
    line: u32,
    /// `FpSiteDesc::creator` when not the site itself.
    creator: Option<u32>,
    /// `FpSiteDesc::counters` when the site has inline words.
    counters: Option<u32>,
    /// `FpSiteDesc::const_operands`.
    const_operands: u16,
}

fn sp(op: &'static str, ty: u16, lanes: u16, flags: u16, block: u32, line: u32) -> SiteSpec {
    SiteSpec {
        op,
        ty,
        lanes,
        flags,
        block,
        func: "kernel",
        line,
        creator: None,
        counters: None,
        const_operands: 0,
    }
}

struct Module {
    m: *mut DnModuleDesc,
    sites: &'static [FpSiteDesc],
}

fn module(src: &str, specs: Vec<SiteSpec>, n_blocks: u32, arrays: Vec<FpArrayDesc>) -> Module {
    module_with_flags(src, specs, n_blocks, arrays, 0)
}

/// [`module`] with `DnModuleDesc::flags` (`DN_MODULE_PROFILE`: the profile tier).
fn module_with_flags(
    src: &str,
    specs: Vec<SiteSpec>,
    n_blocks: u32,
    arrays: Vec<FpArrayDesc>,
    flags: u32,
) -> Module {
    let m: *mut DnModuleDesc = leak(DnModuleDesc {
        magic: DN_MODULE_MAGIC,
        abi_version: ABI_VERSION,
        source_file: cs(src),
        sites: null(),
        n_sites: 0,
        n_blocks,
        arrays: null(),
        n_arrays: 0,
        flags,
        base: DN_BASE_UNREGISTERED,
        next: null_mut(),
    });
    let file = cs(src);
    let sites: Vec<FpSiteDesc> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let f = cs(s.func);
            let chain: &'static SrcLoc = leak(SrcLoc {
                function: f,
                linkage: f,
                file,
                fn_line: 1,
                line: s.line,
                column: 7,
                _reserved: 0,
            });
            FpSiteDesc {
                site: SiteDesc {
                    chain,
                    n_chain: 1,
                    flags: 0,
                    loop_: null(),
                },
                op: cs(s.op),
                ty: s.ty,
                lanes: s.lanes,
                flags: s.flags,
                const_operands: s.const_operands,
                block: s.block,
                index: i as u32,
                module: m,
                counters: s.counters.unwrap_or(FPSITE_NO_COUNTERS),
                creator: s.creator.unwrap_or(i as u32),
            }
        })
        .collect();
    let sites: &'static [FpSiteDesc] = Box::leak(sites.into_boxed_slice());
    let arrays: &'static [FpArrayDesc] = Box::leak(arrays.into_boxed_slice());
    // SAFETY: our leaked descriptor.
    unsafe {
        (*m).sites = sites.as_ptr();
        (*m).n_sites = sites.len() as u32;
        (*m).arrays = arrays.as_ptr();
        (*m).n_arrays = arrays.len() as u32;
        __tpd_register_module(m);
    }
    Module { m, sites }
}

fn array_desc(name: &str, kind: u16, ty: u16, elements: u64, addr: *const c_void) -> FpArrayDesc {
    FpArrayDesc {
        name: cs(name),
        function: cs(if kind == ARRAY_GLOBAL { "" } else { "kernel" }),
        file: cs("t.c"),
        line: 3,
        elem_ty: ty,
        kind,
        elem_size: elem_size(ty) as u32,
        _reserved: 0,
        elements,
        addr,
    }
}

fn alloc_site(name: &str, ty: u16, line: u32) -> &'static AllocSiteDesc {
    leak(AllocSiteDesc {
        name: cs(name),
        function: cs("main"),
        file: cs("t.c"),
        line,
        elem_ty: ty,
        flags: 0,
        elem_size: elem_size(ty) as u32,
        _reserved: 0,
    })
}

/// A heap array of `n` floats registered like the pass would after `malloc`.
fn heap_f32(name: &str, n: usize) -> (&'static mut [f32], u32) {
    let v: &'static mut [f32] = Box::leak(vec![0f32; n].into_boxed_slice());
    let site = alloc_site(name, FP_FLOAT, 40);
    unsafe { __tpd_alloc(v.as_mut_ptr().cast(), n * 4, site) };
    let t = threads::current();
    ranges::forget_hit(t);
    let id = ranges::find(t, v.as_ptr() as usize).unwrap().id;
    (v, id)
}

fn site_counts(s: &FpSiteDesc) -> (u64, u64, u64, u64) {
    let i = modules::find(s.module as usize).unwrap();
    let (_, base, _) = modules::get(i).unwrap();
    let slot = base as usize + s.index as usize;
    let mut c = (0, 0, 0, 0);
    threads::for_each(|t| {
        let x = t.site(slot);
        c.0 += x.operands.load(Relaxed);
        c.1 += x.results.load(Relaxed);
        c.2 += x.loads.load(Relaxed);
        c.3 += x.stores.load(Relaxed);
    });
    c
}

fn creator_count(array: u32, creator: &FpSiteDesc) -> u64 {
    let key = threads::creator_key(array, creator as *const _ as u64);
    let mut n = 0;
    threads::for_each(|t| {
        t.for_each_creator(|k, c| {
            if k == key {
                n += c
            }
        })
    });
    origins::for_each_shared_creator(|k, c| {
        if k == key {
            n += c
        }
    });
    n
}

fn pair_count(d: u32, s: u32) -> u64 {
    let mut n = 0;
    threads::for_each(|t| {
        t.for_each_pair(|a, b, c| {
            if (a, b) == (d, s) {
                n += c
            }
        })
    });
    n
}

fn site_ptr(s: &FpSiteDesc) -> u64 {
    s as *const FpSiteDesc as u64
}

/// The tag of the element at `p`, decoded from its 32-bit stored form.
fn shadow_tag(p: *const f32) -> u64 {
    let st = unsafe { core::ptr::read_unaligned(dn_shadow_addr(p as u64) as usize as *const u32) };
    super::creators::decode(st)
}

/// Tags leave the runtime in their 32-bit form (`creators`); these drive the hooks with
/// the 64-bit tags the expectations are written in, converting on the way in and out.
/// Only the buffer entries the hook reads (lanes set in the masks) are converted in;
/// only the entries it wrote come back.
const UNWRITTEN: u32 = 0xdead_beef;

fn lanes_of(s: *const FpSiteDesc) -> usize {
    // SAFETY: the tests pass their own (leaked, live) site descriptors.
    (unsafe { (*s).lanes }.max(1) as usize).min(64)
}

fn to_u64(buf: &[u32], out: *mut u64) {
    for (l, &v) in buf.iter().enumerate() {
        if v != UNWRITTEN {
            // SAFETY: the caller's buffer holds the site's lanes.
            unsafe { *out.add(l) = creators::decode(v) };
        }
    }
}

unsafe fn op64(s: *const FpSiteDesc, om: u64, rm: u64, ops: *const u64, out: *mut u64) {
    let n = lanes_of(s);
    let mut o32 = vec![0u32; 3 * n];
    for k in 0..3 {
        for l in 0..n.min(16) {
            if om >> (16 * k + l) & 1 != 0 && !ops.is_null() {
                o32[k * n + l] = creators::encode(unsafe { *ops.add(k * n + l) });
            }
        }
    }
    let mut r32 = vec![UNWRITTEN; n];
    unsafe { __tpd_op(s, om, rm, o32.as_ptr(), r32.as_mut_ptr()) };
    to_u64(&r32, out);
}

unsafe fn load64(s: *const FpSiteDesc, addr: *const c_void, mask: u64, tags: *mut u64) {
    let mut t32 = vec![UNWRITTEN; lanes_of(s)];
    unsafe { __tpd_load(s, addr, mask, t32.as_mut_ptr()) };
    to_u64(&t32, tags);
}

unsafe fn store64(s: *const FpSiteDesc, addr: *mut c_void, mask: u64, tags: *const u64) {
    let n = lanes_of(s);
    let t32: Vec<u32> = (0..n)
        .map(|l| {
            if mask >> l & 1 != 0 && !tags.is_null() {
                creators::encode(unsafe { *tags.add(l) })
            } else {
                0
            }
        })
        .collect();
    unsafe { __tpd_store(s, addr, mask, t32.as_ptr()) };
}

const DENORM: f32 = 1.0e-40;

#[test]
fn denormal_predicates_and_tags() {
    assert!(is_denormal_f32(DENORM));
    assert!(!is_denormal_f32(0.0));
    assert!(!is_denormal_f32(f32::MIN_POSITIVE));
    assert!(is_denormal_f32(-f32::MIN_POSITIVE / 2.0));
    assert!(is_denormal_f64(1e-310));
    assert!(!is_denormal_f64(1e-300));
    let t = make_tag(7, 0x5555_1234_5678);
    assert_eq!(tag_origin(t), 7);
    assert_eq!(tag_creator(t), 0x5555_1234_5678);
    assert_eq!(make_tag(0x1_0003, 1 << 50), 3 << 48);
    assert_eq!(elem_size(FP_DOUBLE), 8);
    assert_eq!(taintprof_abi::fp_type_name(FP_FLOAT), "float");
}

#[test]
fn registration_assigns_bases_and_counters() {
    let a = module(
        "reg_a.c",
        vec![sp("fadd", FP_FLOAT, 1, 0, 2, 10)],
        3,
        vec![],
    );
    let b = module(
        "reg_b.c",
        vec![sp("fmul", FP_FLOAT, 4, 0, 0, 11)],
        5,
        vec![],
    );
    let (ma, mb) = unsafe { (&*a.m, &*b.m) };
    assert!(!modules::unregistered(ma) && !modules::unregistered(mb));
    // Disjoint ranges of block counters.
    assert!(ma.base + 3 <= mb.base || mb.base + 5 <= ma.base);
    // Registering again changes nothing.
    let base = ma.base;
    unsafe { __tpd_register_module(a.m) };
    assert_eq!(unsafe { &*a.m }.base, base);
    // The thread's counter block, also in the TLS slot.
    let blk = __tpd_thread_counters();
    extern "C" {
        fn __tpd_tls_counters() -> *mut *mut u64;
    }
    assert_eq!(unsafe { *__tpd_tls_counters() }, blk);
    assert_eq!(__tpd_thread_counters(), blk);
    // Instrumented code: blk[base + block] += 1; fp_operations = count × lanes.
    let _serial = FP_OPERATIONS_DELTA
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let before = threads::fp_operations();
    unsafe {
        *blk.add(mb.base as usize) += 10; // fmul <4 x float> block 0
        *blk.add(ma.base as usize + 1) += 100; // a block without operations
    }
    assert_eq!(threads::fp_operations() - before, 40);
    // Creator addresses are validated before use.
    assert!(modules::site_at(site_ptr(&a.sites[0])).is_some());
    assert!(modules::site_at(site_ptr(&a.sites[0]) + 8).is_none());
    assert!(modules::site_at(0x1234).is_none());
}

#[test]
fn op_tags_create_and_carry() {
    let m = module(
        "op.c",
        vec![
            sp("fmul", FP_FLOAT, 1, 0, 0, 20),
            sp("fadd", FP_FLOAT, 4, 0, 0, 21),
            sp("fcmp", FP_FLOAT, 1, FPSITE_NO_RESULT, 0, 22),
        ],
        1,
        vec![],
    );
    let (mul, add, cmp) = (&m.sites[0], &m.sites[1], &m.sites[2]);
    let me = site_ptr(mul);
    let mut out = [9u64; 4];
    unsafe {
        // Only the result is denormal: this site creates it.
        op64(mul, 0, 1, [0u64, 0].as_ptr(), out.as_mut_ptr());
        assert_eq!(out[0], make_tag(0, me));
        // A denormal operand with a creator: its tag carries (origin and creator).
        let carried = make_tag(5, 0x7000_0000_1000);
        op64(mul, 1 << 16, 1, [0u64, carried].as_ptr(), out.as_mut_ptr());
        assert_eq!(out[0], carried);
        // A denormal operand without creator (origin only): this site becomes creator.
        op64(mul, 1, 1, [make_tag(9, 0), 0].as_ptr(), out.as_mut_ptr());
        assert_eq!(out[0], make_tag(9, me));
        // Denormal operand, normal result: tag 0.
        op64(mul, 1, 0, [carried, 0].as_ptr(), out.as_mut_ptr());
        assert_eq!(out[0], 0);
        // The first denormal operand wins.
        op64(
            mul,
            1 | 1 << 16,
            1,
            [make_tag(1, 0x10), make_tag(2, 0x20)].as_ptr(),
            out.as_mut_ptr(),
        );
        assert_eq!(out[0], make_tag(1, 0x10));
    }
    assert_eq!(site_counts(mul), (5, 4, 0, 0));
    // Vectors: per lane. Lane 1: operand 1 denormal (tagged); lane 2: only the result;
    // lane 3: operand 0 denormal, normal result.
    let tags: [u64; 8] = [0, 0, 0, make_tag(3, 0x30), 0, make_tag(4, 0x40), 0, 0];
    unsafe {
        op64(
            add,
            (1 << 3) | (1 << (16 + 1)),
            0b0110,
            tags.as_ptr(),
            out.as_mut_ptr(),
        );
    }
    assert_eq!(
        out,
        [0, make_tag(4, 0x40), make_tag(0, site_ptr(add)), 0],
        "lane 0 normal, lane 1 carried from operand 1, lane 2 created, lane 3 normal"
    );
    assert_eq!(site_counts(add), (2, 2, 0, 0));
    // Operand-only sites count operands and write no tags.
    let mut untouched = [7u64; 1];
    unsafe {
        op64(
            cmp,
            0b11 | 1 << 16,
            0,
            tags.as_ptr(),
            untouched.as_mut_ptr(),
        )
    };
    assert_eq!(untouched, [7]);
    assert_eq!(
        site_counts(cmp).0,
        2,
        "lanes past the site's width are ignored"
    );
}

#[test]
fn loads_and_stores_through_marked_arrays() {
    let m = module(
        "ls.c",
        vec![
            sp("load", FP_FLOAT, 1, FPSITE_LOAD, 0, 30),
            sp("fmul", FP_FLOAT, 1, 0, 0, 31),
            sp("store", FP_FLOAT, 1, FPSITE_STORE, 0, 32),
            sp("load", FP_FLOAT, 4, FPSITE_LOAD, 0, 33),
        ],
        1,
        vec![],
    );
    let (ld, mul, st, ld4) = (&m.sites[0], &m.sites[1], &m.sites[2], &m.sites[3]);
    let (src, sid) = heap_f32("src_ls", 64);
    let (dst, did) = heap_f32("dst_ls", 64);
    let tmp: &'static mut [f32] = Box::leak(vec![0f32; 4].into_boxed_slice());
    assert_ne!(sid, did);
    src[5] = DENORM;
    let mut t = [0u64; 4];
    unsafe {
        // Denormal data that arrived without an instrumented store (shadow tag 0): the
        // load becomes its creator, the array its origin.
        load64(ld, src.as_ptr().add(5).cast(), 1, t.as_mut_ptr());
        assert_eq!(t[0], make_tag(sid, site_ptr(ld)));
        // An operation on it carries the tag; the store into dst records the pair.
        let mut r = [0u64; 1];
        op64(mul, 1, 1, t.as_ptr(), r.as_mut_ptr());
        assert_eq!(r[0], t[0]);
        store64(st, dst.as_mut_ptr().add(7).cast(), 1, r.as_ptr());
    }
    assert_eq!(shadow_tag(&dst[7]), make_tag(did, site_ptr(ld)));
    assert_eq!(pair_count(did, sid), 1);
    assert_eq!(creator_count(sid, ld), 1);
    assert_eq!(creator_count(did, ld), 1);
    let (rs, rd) = (arrays::rec(sid).unwrap(), arrays::rec(did).unwrap());
    assert_eq!(rs.totals(), (1, 0));
    assert_eq!(rd.totals(), (0, 1));
    // Origin map of (dst, src): element 7.
    let gi = origins::pair_index(did, sid).unwrap();
    let p = origins::pair(gi).unwrap();
    assert_eq!(p.counts().len(), 64);
    assert_eq!(p.counts()[7].load(Relaxed), 1);
    assert_eq!(p.counts().iter().map(|c| c.load(Relaxed)).sum::<u32>(), 1);
    // Loading it back: the shadow tag's creator is kept, the origin becomes dst.
    unsafe { load64(ld, dst.as_ptr().add(7).cast(), 1, t.as_mut_ptr()) };
    assert_eq!(t[0], make_tag(did, site_ptr(ld)));
    // Unmarked memory: the tag is stored as it is and comes back unchanged.
    let carried = make_tag(sid, site_ptr(mul));
    unsafe {
        store64(st, tmp.as_mut_ptr().cast(), 1, [carried].as_ptr());
        load64(ld, tmp.as_ptr().cast(), 1, t.as_mut_ptr());
    }
    assert_eq!(shadow_tag(tmp.as_ptr()), carried);
    assert_eq!(t[0], carried);
    // A value without a tag stored anywhere gets the store as creator.
    unsafe { store64(st, tmp.as_mut_ptr().add(1).cast(), 1, [0u64].as_ptr()) };
    assert_eq!(shadow_tag(&tmp[1]), make_tag(0, site_ptr(st)));
    // Vector load: lanes 0 and 2 denormal; lane 1 normal gets tag 0.
    src[8] = DENORM;
    src[10] = DENORM;
    unsafe { load64(ld4, src.as_ptr().add(8).cast(), 0b0101, t.as_mut_ptr()) };
    assert_eq!(
        t,
        [
            make_tag(sid, site_ptr(ld4)),
            0,
            make_tag(sid, site_ptr(ld4)),
            0
        ]
    );
    assert_eq!(site_counts(ld4).2, 2);
    assert_eq!(site_counts(ld), (0, 0, 3, 0));
    assert_eq!(site_counts(st), (0, 0, 0, 3));
    assert_eq!(rs.totals(), (3, 0));
    // Interval counters per element.
    let c = rs.counters();
    assert_eq!(unsafe { &*c.add(5) }.load(Relaxed), 1);
    assert_eq!(unsafe { &*c.add(8) }.load(Relaxed), 1);
    assert_eq!(unsafe { &*c.add(9) }.load(Relaxed), 0);
}

#[test]
fn array_registry_nesting_adjacency_release_and_recycling() {
    let pool: &'static mut [f64] = Box::leak(vec![0f64; 100].into_boxed_slice());
    let base = pool.as_ptr() as usize;
    let site = alloc_site("", FP_DOUBLE, 77);
    let t = threads::current();
    unsafe {
        // A pool, a block inside it, and two adjacent blocks.
        __tpd_alloc(pool.as_mut_ptr().cast(), 800, site);
        __tpd_alloc((base + 80) as *mut c_void, 80, site);
        __tpd_alloc((base + 400) as *mut c_void, 40, site);
        __tpd_alloc((base + 440) as *mut c_void, 40, site);
    }
    ranges::forget_hit(t);
    let id = |a: usize| ranges::find(t, a).map(|r| r.id);
    let (outer, inner, left, right) = (
        id(base).unwrap(),
        id(base + 80).unwrap(),
        id(base + 400).unwrap(),
        id(base + 440).unwrap(),
    );
    assert!(
        outer != inner && left != right && inner != left,
        "{outer} {inner} {left} {right}"
    );
    assert_eq!(id(base + 159), Some(inner));
    assert_eq!(id(base + 160), Some(outer), "just past the inner block");
    assert_eq!(id(base + 439), Some(left));
    assert_eq!(id(base + 479), Some(right));
    assert_eq!(id(base + 480), Some(outer));
    assert_eq!(id(base + 800), None);
    let r = ranges::lookup_global(base + 90).unwrap();
    assert_eq!((r.lo, r.hi), (base + 80, base + 160));
    // Heap arrays without a variable name are named after the allocation site.
    let mut name = Vec::new();
    arrays::rec(outer)
        .unwrap()
        .write_name(outer, &mut |b| name.extend_from_slice(b));
    assert_eq!(name, b"<main:77>");
    // A denormal event in `left`, then release everything.
    let m = module(
        "reg_rel.c",
        vec![sp("store", FP_DOUBLE, 1, FPSITE_STORE, 0, 5)],
        1,
        vec![],
    );
    unsafe {
        store64(&m.sites[0], (base + 408) as *mut c_void, 1, [0u64].as_ptr());
        __tpd_release((base + 400) as *mut c_void);
        __tpd_release((base + 80) as *mut c_void);
        __tpd_release((base + 12345) as *mut c_void); // not a block: ignored
    }
    ranges::forget_hit(t);
    assert_eq!(
        id(base + 408),
        Some(outer),
        "the released block's range is gone"
    );
    assert_eq!(id(base + 90), Some(outer));
    // The touched array keeps its id and statistics; the untouched one was recycled.
    let l = arrays::rec(left).unwrap();
    assert!(!l.live.load(Relaxed));
    assert_eq!(l.state.load(Relaxed), arrays::READY);
    assert_eq!(l.totals(), (0, 1));
    // Recycled: free, or already reused by an array of a test running in parallel.
    let r = arrays::rec(inner).unwrap();
    assert!(
        r.state.load(Relaxed) == arrays::FREE || r.base.load(Relaxed) != base + 80,
        "the untouched array's record was not recycled"
    );
    unsafe {
        __tpd_release((base + 440) as *mut c_void);
        __tpd_release(base as *mut c_void);
    }
    ranges::forget_hit(t);
    assert_eq!(id(base), None);
}

#[test]
fn a_reused_range_releases_the_old_array() {
    let buf: &'static mut [f32] = Box::leak(vec![0f32; 32].into_boxed_slice());
    let p = buf.as_mut_ptr().cast::<c_void>();
    let before = arrays::IMPLICIT_RELEASES.load(Relaxed);
    unsafe {
        __tpd_alloc(p, 128, alloc_site("first", FP_FLOAT, 1));
        // Freed by uninstrumented code, reallocated partly overlapping.
        __tpd_alloc(
            p.cast::<u8>().add(64).cast(),
            128,
            alloc_site("second", FP_FLOAT, 2),
        );
    }
    assert!(arrays::IMPLICIT_RELEASES.load(Relaxed) > before);
    let t = threads::current();
    ranges::forget_hit(t);
    assert!(ranges::find(t, buf.as_ptr() as usize).is_none());
    let r = ranges::find(t, buf.as_ptr() as usize + 64).unwrap();
    let mut name = Vec::new();
    arrays::rec(r.id)
        .unwrap()
        .write_name(r.id, &mut |b| name.extend_from_slice(b));
    assert_eq!(name, b"second");
    unsafe { __tpd_release(p.cast::<u8>().add(64).cast()) };
}

#[test]
fn globals_register_once_and_stack_arrays_share_a_record() {
    static mut GRID: [f64; 16] = [0.0; 16];
    let addr = core::ptr::addr_of!(GRID) as *const c_void;
    let g = array_desc("grid", ARRAY_GLOBAL, FP_DOUBLE, 16, addr);
    let g2 = array_desc("grid", ARRAY_GLOBAL, FP_DOUBLE, 16, addr);
    module("glob1.c", vec![], 0, vec![g]);
    module("glob2.c", vec![], 0, vec![g2]);
    let t = threads::current();
    ranges::forget_hit(t);
    let r = ranges::find(t, addr as usize + 8).unwrap();
    assert_eq!((r.lo, r.hi), (addr as usize, addr as usize + 128));
    let mut n = 0;
    ranges::for_each_global(|x| n += (x.lo == addr as usize) as usize);
    assert_eq!(n, 1, "the same global from two modules is one array");

    // A stack array: every instance maps to the variable's record.
    let d: &'static FpArrayDesc = leak(array_desc("tmp", ARRAY_STACK, FP_FLOAT, 8, null()));
    let mut a = [0f32; 8];
    let mut b = [0f32; 8];
    unsafe {
        __tpd_array_enter(a.as_mut_ptr().cast(), d);
        let id1 = ranges::find(t, a.as_ptr() as usize + 4).unwrap().id;
        __tpd_array_enter(b.as_mut_ptr().cast(), d);
        let id2 = ranges::find(t, b.as_ptr() as usize).unwrap().id;
        assert_eq!(id1, id2);
        assert_eq!(ranges::find(t, a.as_ptr() as usize).unwrap().id, id1);
        // Another thread sees this thread's stack array (OpenMP shared locals).
        let addr_b = b.as_ptr() as usize;
        let seen =
            std::thread::spawn(move || ranges::find(threads::current(), addr_b + 8).map(|r| r.id))
                .join()
                .unwrap();
        assert_eq!(seen, Some(id1));
        // Leaving `a` also drops `b`, entered after it (its leave was skipped).
        __tpd_array_leave(a.as_mut_ptr().cast());
        assert!(ranges::find(t, b.as_ptr() as usize).is_none());
        assert!(ranges::find(t, a.as_ptr() as usize).is_none());
    }
}

#[test]
fn another_threads_first_stack_array_is_found_in_a_window_this_thread_cached() {
    // With stack arrays on this thread only, a lookup of unmarked memory caches the
    // window around it (this thread's own arrays cut out). Another thread's first stack
    // array, entered inside that window, must invalidate it.
    let t = threads::current();
    let d: &'static FpArrayDesc = leak(array_desc("mine", ARRAY_STACK, FP_FLOAT, 4, null()));
    let mut mine = [0f32; 4];
    let buf: &'static mut [f32] = Box::leak(vec![0f32; 64].into_boxed_slice());
    let base = buf.as_mut_ptr() as usize;
    unsafe { __tpd_array_enter(mine.as_mut_ptr().cast(), d) };
    ranges::forget_hit(t);
    assert!(ranges::find(t, base + 64).is_none(), "unmarked");
    let (entered_tx, entered) = std::sync::mpsc::channel();
    let (done, done_rx) = std::sync::mpsc::channel::<()>();
    let other = std::thread::spawn(move || {
        let theirs: &'static FpArrayDesc =
            leak(array_desc("theirs", ARRAY_STACK, FP_FLOAT, 64, null()));
        unsafe { __tpd_array_enter(base as *mut c_void, theirs) };
        entered_tx.send(()).unwrap();
        done_rx.recv().unwrap();
        unsafe { __tpd_array_leave(base as *mut c_void) };
    });
    entered.recv().unwrap();
    let seen = ranges::find(t, base + 64).map(|r| (r.lo, r.hi));
    done.send(()).unwrap();
    other.join().unwrap();
    unsafe { __tpd_array_leave(mine.as_mut_ptr().cast()) };
    assert_eq!(seen, Some((base, base + 256)));
}

#[test]
fn shapes_before_and_after_registration() {
    let (v, id) = heap_f32("flat", 1000);
    unsafe { arrays::tp_array_shape(v.as_ptr().add(10).cast(), 20, 50, cs("field")) };
    let r = arrays::rec(id).unwrap();
    assert_eq!(r.shape(), Some((20, 50)));
    let mut name = Vec::new();
    r.write_name(id, &mut |b| name.extend_from_slice(b));
    assert_eq!(name, b"field");
    // Before: the shape waits for an array registered at that address.
    let w: &'static mut [f32] = Box::leak(vec![0f32; 600].into_boxed_slice());
    unsafe {
        arrays::tp_array_shape(w.as_ptr().cast(), 30, 20, cs("later"));
        __tpd_alloc(w.as_mut_ptr().cast(), 2400, alloc_site("w", FP_FLOAT, 9));
    }
    let t = threads::current();
    ranges::forget_hit(t);
    let id2 = ranges::find(t, w.as_ptr() as usize).unwrap().id;
    let r2 = arrays::rec(id2).unwrap();
    assert_eq!(r2.shape(), Some((30, 20)));
    let mut name = Vec::new();
    r2.write_name(id2, &mut |b| name.extend_from_slice(b));
    assert_eq!(name, b"later");
}

/// `threads::fp_operations()` is one process-wide sum over every counter block: the
/// tests that check how much it grew hold this, so that a test running beside them does
/// not add its own operations to the difference.
static FP_OPERATIONS_DELTA: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn counters_are_per_thread_and_summed() {
    let m = module(
        "thr.c",
        vec![
            sp("fadd", FP_FLOAT, 1, 0, 0, 50),
            sp("load", FP_FLOAT, 1, FPSITE_LOAD, 0, 51),
        ],
        1,
        vec![],
    );
    let (v, id) = heap_f32("shared", 256);
    for x in v.iter_mut() {
        *x = DENORM;
    }
    let addr = v.as_ptr() as usize;
    let sites = m.sites.as_ptr() as usize;
    let base = unsafe { &*m.m }.base as usize;
    let _serial = FP_OPERATIONS_DELTA
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let before = threads::fp_operations();
    let hs: Vec<_> = (0..4)
        .map(|k| {
            std::thread::spawn(move || {
                let sites = sites as *const FpSiteDesc;
                let blk = __tpd_thread_counters();
                let mut t = [0u64];
                for i in 0..1000usize {
                    unsafe {
                        *blk.add(base) += 1;
                        op64(sites, 1, 0, [0u64].as_ptr(), t.as_mut_ptr());
                        load64(
                            sites.add(1),
                            (addr + 4 * ((i + 64 * k) % 256)) as *const c_void,
                            1,
                            t.as_mut_ptr(),
                        );
                    }
                }
            })
        })
        .collect();
    for h in hs {
        h.join().unwrap();
    }
    assert_eq!(site_counts(&m.sites[0]).0, 4000);
    assert_eq!(site_counts(&m.sites[1]).2, 4000);
    assert_eq!(threads::fp_operations() - before, 4000);
    assert_eq!(arrays::rec(id).unwrap().totals(), (4000, 0));
    assert_eq!(creator_count(id, &m.sites[1]), 4000);
}

#[test]
fn grids_fold_and_bin() {
    assert_eq!(snapshot::fold(262144), (512, 512));
    assert_eq!(snapshot::fold(10), (3, 4));
    assert_eq!(snapshot::fold(1), (1, 1));
    assert_eq!(snapshot::fold(12), (3, 4));
    let g = Grid::new(512 * 512, None);
    assert_eq!((g.hm_rows, g.hm_cols, g.cell_r, g.cell_c), (256, 256, 2, 2));
    assert_eq!(g.cell(0), 0);
    assert_eq!(g.cell(1), 0);
    assert_eq!(g.cell(2), 1);
    assert_eq!(g.cell(512), 0);
    assert_eq!(g.cell(1024), 256);
    let g = Grid::new(1000, Some((10, 100)));
    assert_eq!((g.hm_rows, g.hm_cols, g.cell_r, g.cell_c), (10, 100, 1, 1));
    assert_eq!(g.cell(105), 105);
    let g = Grid::new(7, Some((2, 3)));
    assert_eq!(
        g.cell(6),
        3,
        "elements past rows × cols land in the last row"
    );
    let g = Grid::new(1000, Some((1, 1000)));
    assert_eq!((g.hm_rows, g.hm_cols, g.cell_c), (1, 250, 4));
    let mut out = vec![0u32; g.cells()];
    g.bin(&[1, 2, 3, 4, 5, 0, 0, 0, 9], &mut out);
    assert_eq!(&out[..3], &[10, 5, 9]);
}

#[test]
fn snapshots_bin_and_reset_interval_counters() {
    let m = module(
        "snap.c",
        vec![
            sp("load", FP_FLOAT, 1, FPSITE_LOAD, 0, 60),
            sp("store", FP_FLOAT, 1, FPSITE_STORE, 0, 61),
        ],
        1,
        vec![],
    );
    let (v, id) = heap_f32("snapped", 100);
    unsafe { arrays::tp_array_shape(v.as_ptr().cast(), 10, 10, null()) };
    let mut t = [0u64];
    unsafe {
        for _ in 0..3 {
            load64(&m.sites[0], v.as_ptr().add(11).cast(), 1, t.as_mut_ptr());
        }
        store64(&m.sites[1], v.as_mut_ptr().add(99).cast(), 1, t.as_ptr());
    }
    assert!(snapshot::take(b"first"));
    unsafe { load64(&m.sites[0], v.as_ptr().cast(), 1, t.as_mut_ptr()) };
    // SIGUSR1 while a snapshot is in progress: deferred, then taken by the holder.
    {
        let g = snapshot::lock_for_tests();
        snapshot::signal_for_tests();
        drop(g);
        snapshot::drain_for_tests();
    }
    unsafe { snapshot::tp_snapshot(cs("quiet")) };
    let mut found = Vec::new();
    snapshot::for_each(|h| {
        h.for_each_array(|e, r, w| {
            if e.id == id {
                found.push((
                    h.label().to_vec(),
                    e.reads,
                    e.writes,
                    e.grid,
                    r.to_vec(),
                    w.to_vec(),
                ));
            }
        })
    });
    let labels: Vec<&[u8]> = found.iter().map(|f| f.0.as_slice()).collect();
    let i = labels.iter().position(|l| *l == b"first").unwrap();
    assert_eq!(&labels[i..i + 3], &[&b"first"[..], b"SIGUSR1", b"quiet"]);
    let (_, r, w, g, rc, wc) = &found[i];
    assert_eq!((*r, *w), (3, 1));
    assert_eq!((g.hm_rows, g.hm_cols), (10, 10));
    assert_eq!(rc[11], 3);
    assert_eq!(wc[99], 1);
    assert_eq!(rc.iter().sum::<u32>(), 3);
    // The interval counters were reset: the next snapshot holds only the new read, and
    // the cumulative totals go on.
    let (_, r, w, _, rc, _) = &found[i + 1];
    assert_eq!((*r, *w), (4, 1));
    assert_eq!(rc[0], 1);
    assert_eq!(rc.iter().sum::<u32>(), 1);
    // No events in the interval: no heatmap.
    let (_, r, _, _, rc, wc) = &found[i + 2];
    assert_eq!(*r, 4);
    assert!(rc.is_empty() && wc.is_empty());
    assert_eq!(arrays::rec(id).unwrap().totals(), (4, 1));
}

#[test]
fn roles_follow_the_read_write_ratio() {
    use taintprof_model::denormal::role;
    assert_eq!(role(0, 0), "none");
    assert_eq!(role(100, 0), "source");
    assert_eq!(role(100, 10), "source");
    assert_eq!(
        role(8_914_864, 2_228_716),
        "propagates",
        "jacobi: 4 reads per write"
    );
    assert_eq!(role(80, 10), "propagates", "a 9-point stencil");
    assert_eq!(role(10, 100), "sink");
    assert_eq!(role(0, 5), "sink");
    assert_eq!(role(5, 5), "propagates");
}

#[test]
fn other_array_has_no_id_in_tags() {
    assert_eq!(OTHER, 0);
    assert_eq!(make_tag(OTHER, 0x40), 0x40);
}

/// Writes the report into memory and parses it.
#[test]
fn copies_of_one_operation_are_one_creator() {
    // Two modules with the same source operation (a header's inline function), the
    // second with a vector copy and a scalar remainder copy of it.
    let specs = |copies: bool| {
        let mut v = vec![sp("fmul", FP_FLOAT, 4, 0, 0, 40)];
        if copies {
            v.push(SiteSpec {
                creator: Some(0),
                ..sp("fmul", FP_FLOAT, 1, 0, 0, 40)
            });
        }
        v.push(sp("store", FP_FLOAT, 1, FPSITE_STORE, 0, 41));
        v
    };
    let m1 = module("dup.h", specs(false), 1, vec![]);
    let m2 = module("dup.h", specs(true), 1, vec![]);
    let (dst, did) = heap_f32("dup_dst", 4);
    let mut t = [0u64; 4];
    unsafe {
        // The remainder copy creates a denormal as its first copy.
        op64(&m2.sites[1], 0, 1, [0u64, 0].as_ptr(), t.as_mut_ptr());
        assert_eq!(t[0], make_tag(0, site_ptr(&m2.sites[0])));
        store64(&m2.sites[2], dst.as_mut_ptr().cast(), 1, t.as_ptr());
        // The other module's copy is a creator of its own.
        op64(&m1.sites[0], 0, 1, [0u64, 0].as_ptr(), t.as_mut_ptr());
        assert_eq!(t[0], make_tag(0, site_ptr(&m1.sites[0])));
        store64(&m1.sites[1], dst.as_mut_ptr().add(1).cast(), 1, t.as_ptr());
    }
    assert_eq!(creator_count(did, &m2.sites[0]), 1);
    assert_eq!(creator_count(did, &m1.sites[0]), 1);
    // Two creators (one per module), one report row.
    let rep = report_json();
    let rows: Vec<&Value> = rep["creators"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["array"] == "dup_dst")
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["line"], 40);
    assert_eq!(rows[0]["op"], "fmul");
    assert_eq!(rows[0]["count"], 2);
}

#[test]
fn store_caches_hold_lanes_created_in_place_next_to_the_origin() {
    // A vector store site with its inline words after one block counter.
    let m = module(
        "cache.c",
        vec![
            sp("fmul", FP_FLOAT, 4, 0, 0, 50),
            SiteSpec {
                counters: Some(1),
                ..sp("store", FP_FLOAT, 4, FPSITE_STORE, 0, 51)
            },
        ],
        1 + DN_STORE_WORDS,
        vec![],
    );
    let (mul, st) = (&m.sites[0], &m.sites[1]);
    let (src, sid) = heap_f32("cache_src", 4);
    let (dst, did) = heap_f32("cache_dst", 64);
    let (oth, oid) = heap_f32("cache_other", 4);
    let _ = (src, oth);
    let c = unsafe { __tpd_thread_counters().add((*m.m).base as usize + st.counters as usize) };
    let word = |w: u32| unsafe { *c.add(w as usize) };
    let me = site_ptr(mul);
    // Lanes 0 and 2 came from cache_src, lane 1 was created by the fmul (no origin),
    // lane 3 is normal: one creator, one origin: the cache holds (src, fmul).
    let tags = [make_tag(sid, me), make_tag(0, me), make_tag(sid, me), 0];
    unsafe { store64(st, dst.as_mut_ptr().cast(), 0b0111, tags.as_ptr()) };
    assert_ne!(word(DN_C_KEY), 0, "filled");
    // The cache's words hold tags in their 32-bit form, as the inline code has them.
    let w32 = |t: u64| super::creators::encode(t) as u64;
    assert_eq!(word(DN_C_MATCH), w32(make_tag(sid, me)));
    // A store's cache holds the stored tag its inline code writes.
    assert_eq!(word(DN_C_TAG), w32(make_tag(did, me)));
    assert_eq!(
        super::creators::decode(word(DN_C_TAG) as u32),
        make_tag(did, me)
    );
    assert_ne!(word(DN_C_PAIR_COUNT), 0);
    assert_eq!(pair_count(did, sid), 2, "only the lanes with the origin");
    assert_eq!(creator_count(did, mul), 3);
    // Only created lanes: the cache holds (0, fmul), without a pair.
    let fresh = [make_tag(0, me); 4];
    unsafe { store64(st, dst.as_mut_ptr().add(8).cast(), 0b1111, fresh.as_ptr()) };
    assert_ne!(word(DN_C_KEY), 0);
    assert_eq!(word(DN_C_MATCH), w32(make_tag(0, me)));
    assert_eq!(word(DN_C_PAIR_COUNT), 0);
    // Two origins: not cached (the inline code counts one pair only); the entry
    // before stays.
    let two = [make_tag(sid, me), make_tag(oid, me), 0, 0];
    unsafe { store64(st, dst.as_mut_ptr().add(16).cast(), 0b0011, two.as_ptr()) };
    assert_eq!(word(DN_C_MATCH), w32(make_tag(0, me)));
    assert_eq!(pair_count(did, oid), 1);
}

/// A vectorized loop and its scalar remainder (same source operation, 4 and 1 lanes)
/// are one row with the executions of both, even when the remainder saw no denormal.
#[test]
fn vector_and_scalar_copies_of_an_operation_are_one_site_row() {
    let m = module(
        "lanes.c",
        vec![
            sp("fmul", FP_FLOAT, 4, 0, 0, 40),
            sp("fmul", FP_FLOAT, 1, 0, 1, 40),
            sp("fmul", FP_DOUBLE, 1, 0, 1, 40),
        ],
        2,
        vec![],
    );
    let blk = __tpd_thread_counters();
    unsafe {
        *blk.add((*m.m).base as usize) += 10; // the vector loop: 10 × 4 lanes
        *blk.add((*m.m).base as usize + 1) += 3; // the remainder: 3 × 1
        let mut r = [0u64; 4];
        op64(&m.sites[0], 0, 0b0110, [0u64; 4].as_ptr(), r.as_mut_ptr());
    }
    let v = report_json();
    let rows: Vec<&Value> = v["sites"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["file"] == "lanes.c")
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["type"], "float");
    assert_eq!(rows[0]["lanes"], serde_json::json!([1, 4]));
    assert_eq!(rows[0]["executions"], 43);
    assert_eq!(rows[0]["denormal_results"], 2);
}

/// The denormal report of the process so far, as the driver makes it.
fn report_json() -> Value {
    model_report()
}

/// The denormal report as the driver makes it: the runtime's record of the process so
/// far (`super::record::write_record`, into memory), read back and analysed by
/// `taintprof_model`.
fn model_report() -> Value {
    let inp = super::record::Inputs {
        name: b"unit",
        path: b"/x/unit",
        argv: &[],
        pid: 1,
        exit: crate::report::Exit::Code(0),
    };
    let f = super::record::write_record(&inp, Vec::new());
    assert!(f.ok, "the record is complete");
    let r = taintprof_record::denormal::read::read(&f.out)
        .unwrap_or_else(|e| panic!("the denormal record: {e}"));
    taintprof_model::denormal::denormal_report(&r)
}

#[test]
fn the_report_has_the_schema_keys_and_this_tests_data() {
    let m = module(
        "json.c",
        vec![
            sp("load", FP_FLOAT, 1, FPSITE_LOAD, 0, 70),
            sp("fmul", FP_FLOAT, 1, 0, 0, 71),
            sp("store", FP_FLOAT, 1, FPSITE_STORE, 0, 72),
            sp("fadd", FP_FLOAT, 1, 0, 1, 73),
        ],
        2,
        vec![],
    );
    let (ld, mul, st) = (&m.sites[0], &m.sites[1], &m.sites[2]);
    let (src, sid) = heap_f32("json_src", 16);
    let (dst, _did) = heap_f32("json_dst", 16);
    let blk = __tpd_thread_counters();
    unsafe {
        *blk.add((*m.m).base as usize) += 5;
        let mut t = [0u64];
        let mut r = [0u64];
        op64(mul, 0, 1, [0u64, 0].as_ptr(), r.as_mut_ptr()); // creates
        store64(st, src.as_mut_ptr().cast(), 1, r.as_ptr());
        for _ in 0..4 {
            load64(ld, src.as_ptr().cast(), 1, t.as_mut_ptr());
        }
        op64(mul, 1, 1, t.as_ptr(), r.as_mut_ptr());
        store64(st, dst.as_mut_ptr().add(3).cast(), 1, r.as_ptr());
    }
    assert_eq!(sid, arrays::rec(sid).map(|_| sid).unwrap());
    let v = report_json();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    for k in [
        "schema",
        "version",
        "mode",
        "taintprof_version",
        "program",
        "exit",
        "threads",
        "fp_environment",
        "totals",
        "sites",
        "arrays",
        "origins",
        "creators",
        "creator_sites",
        "snapshots",
        "origin_maps",
        "timeline",
        "warnings",
        "tier",
    ] {
        assert!(keys.contains(&k), "missing {k} in {keys:?}");
    }
    assert_eq!(keys.len(), 19, "{keys:?}");
    assert_eq!(v["schema"], "taintprof.denormal");
    assert_eq!(v["version"], 2);
    assert_eq!(v["mode"], "compiler");
    assert_eq!(v["exit"], serde_json::json!({"reason": "exit", "code": 0}));
    for k in ["ftz", "daz", "mxcsr", "changed_by_program"] {
        assert!(v["fp_environment"].get(k).is_some(), "{k}");
    }
    assert!(v["fp_environment"]["mxcsr"]
        .as_str()
        .unwrap()
        .starts_with("0x"));
    assert!(v["timeline"].as_array().unwrap().is_empty());
    let sites: Vec<&Value> = v["sites"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["file"] == "json.c")
        .collect();
    assert_eq!(sites.len(), 3, "the fadd never saw a denormal: {sites:?}");
    // Sorted by events within the function: the loads (4) first.
    assert_eq!(sites[0]["op"], "load");
    assert_eq!(sites[0]["denormal_loads"], 4);
    assert_eq!(sites[1]["denormal_results"], 2);
    assert_eq!(sites[1]["executions"], 5);
    assert_eq!(sites[1]["type"], "float");
    assert_eq!(sites[1]["column"], 7);
    assert_eq!(sites[1]["function"], "kernel");
    // Sorted: whether a parsed object keeps its keys' order depends on serde_json's
    // `preserve_order`, which the model crate turns on for every crate built with it.
    let mut keys: Vec<&str> = sites[0]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    keys.sort();
    let mut want = [
        "function",
        "linkage",
        "file",
        "line",
        "column",
        "op",
        "type",
        "lanes",
        "executions",
        "denormal_operands",
        "operations_with_denormal_operands",
        "denormal_results",
        "denormal_loads",
        "denormal_stores",
        "created",
    ];
    want.sort();
    assert_eq!(keys, want);
    // The fmul made its result from normal operands once (the hook counts it).
    assert_eq!(sites[1]["created"], 1);
    assert_eq!(sites[0]["created"], 0);
    let made: Vec<&Value> = v["creator_sites"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["file"] == "json.c")
        .collect();
    assert_eq!(made.len(), 1, "{made:?}");
    assert_eq!(made[0]["op"], "fmul");
    assert_eq!(made[0]["line"], 71);
    assert_eq!(made[0]["created"], 1);
    let arr = |name: &str| -> Value {
        v["arrays"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no array {name}"))
    };
    let a = arr("json_src");
    assert_eq!(a["kind"], "heap");
    assert_eq!(a["element_type"], "float");
    assert_eq!(a["elements"], 16);
    assert_eq!(a["shape"], Value::Null);
    assert_eq!(
        a["allocated_at"],
        serde_json::json!({"function": "main", "file": "t.c", "line": 40})
    );
    assert_eq!(
        (a["denormal_reads"].as_u64(), a["denormal_writes"].as_u64()),
        (Some(4), Some(1))
    );
    assert_eq!(a["role"], "propagates");
    assert_eq!(a["live"], true);
    let mut keys: Vec<&str> = a.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort();
    let mut want = [
        "id",
        "name",
        "kind",
        "element_type",
        "elements",
        "shape",
        "allocated_at",
        "denormal_reads",
        "denormal_writes",
        "role",
        "live",
    ];
    want.sort();
    assert_eq!(keys, want);
    assert_eq!(arr("json_dst")["role"], "sink");
    let o: Vec<&Value> = v["origins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["dest"] == "json_dst")
        .collect();
    assert_eq!(o.len(), 1);
    assert_eq!(o[0]["src"], "json_src");
    assert_eq!(o[0]["count"], 1);
    let c: Vec<&Value> = v["creators"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["array"] == "json_src")
        .collect();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0]["op"], "fmul");
    assert_eq!(c[0]["line"], 71);
    assert_eq!(c[0]["file"], "json.c");
    assert_eq!(c[0]["count"], 5, "1 write + 4 reads");
    let om: Vec<&Value> = v["origin_maps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["dest"] == "json_dst")
        .collect();
    assert_eq!(om.len(), 1);
    assert_eq!(
        (om[0]["rows"].as_u64(), om[0]["cols"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(om[0]["cell"], serde_json::json!([1, 1]));
    assert_eq!(om[0]["counts"][3], 1);
    let tot = &v["totals"];
    for k in [
        "fp_operations",
        "denormal_operands",
        "denormal_results",
        "denormal_loads",
        "denormal_stores",
        "created",
    ] {
        assert!(tot[k].as_u64().is_some(), "{k}");
    }
}

#[test]
fn duplicate_names_are_disambiguated() {
    let (_a, ia) = heap_f32("twin", 4);
    let (_b, ib) = heap_f32("twin", 4);
    let m = module(
        "twin.c",
        vec![sp("store", FP_FLOAT, 1, FPSITE_STORE, 0, 1)],
        1,
        vec![],
    );
    unsafe {
        store64(&m.sites[0], _a.as_mut_ptr().cast(), 1, [0u64].as_ptr());
        store64(&m.sites[0], _b.as_mut_ptr().cast(), 1, [0u64].as_ptr());
    }
    let v = report_json();
    let names: Vec<String> = v["arrays"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["name"].as_str())
        .filter(|n| n.starts_with("twin"))
        .map(String::from)
        .collect();
    assert!(names.contains(&format!("twin#{ia}")), "{names:?}");
    assert!(names.contains(&format!("twin#{ib}")), "{names:?}");
}

#[test]
fn lookups_while_other_threads_allocate() {
    let (v, id) = heap_f32("steady", 64);
    let addr = v.as_ptr() as usize;
    let stop = std::sync::Arc::new(core::sync::atomic::AtomicBool::new(false));
    let s2 = stop.clone();
    let churn = std::thread::spawn(move || {
        let site = alloc_site("churn", FP_FLOAT, 3);
        let mut n = 0;
        while !s2.load(Relaxed) && n < 2000 {
            let b: Vec<f32> = vec![0.0; 8];
            unsafe {
                __tpd_alloc(b.as_ptr() as *mut c_void, 32, site);
                __tpd_release(b.as_ptr() as *mut c_void);
            }
            n += 1;
        }
    });
    let t = threads::current();
    for i in 0..20000 {
        ranges::forget_hit(t);
        let r: Option<Range> = ranges::find(t, addr + 4 * (i % 64));
        assert_eq!(r.map(|r| r.id), Some(id));
    }
    stop.store(true, Relaxed);
    churn.join().unwrap();
}

#[test]
fn unknown_creators_in_stale_tags_are_not_dereferenced() {
    let m = module(
        "stale.c",
        vec![sp("store", FP_FLOAT, 1, FPSITE_STORE, 0, 1)],
        1,
        vec![],
    );
    let (v, id) = heap_f32("stale_dst", 4);
    // A garbage creator address (as a stale shadow tag could hold).
    unsafe {
        store64(
            &m.sites[0],
            v.as_mut_ptr().cast(),
            1,
            [make_tag(0, 0x10)].as_ptr(),
        )
    };
    let rep = report_json();
    let c: Vec<&Value> = rep["creators"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["array"] == "stale_dst")
        .collect();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0]["function"], "<unknown>");
    let _ = id;
}

/// The vector fast path of loads and stores (all lanes in one cached array window) and
/// the lane-by-lane path (lanes straddling two arrays) count the same things.
#[test]
fn vector_lanes_within_and_across_arrays() {
    let m = module(
        "vec.c",
        vec![
            sp("load", FP_FLOAT, 4, FPSITE_LOAD, 0, 50),
            sp("store", FP_FLOAT, 4, FPSITE_STORE, 0, 51),
            sp("fmul", FP_FLOAT, 1, 0, 0, 52),
        ],
        1,
        vec![],
    );
    let (ld, st, mul) = (&m.sites[0], &m.sites[1], &m.sites[2]);
    // Two adjacent heap arrays of 8 floats in one block.
    let v: &'static mut [f32] = Box::leak(vec![0f32; 16].into_boxed_slice());
    let site = alloc_site("halves", FP_FLOAT, 53);
    unsafe {
        __tpd_alloc(v.as_mut_ptr().cast(), 32, site);
        __tpd_alloc(v.as_mut_ptr().add(8).cast(), 32, site);
    }
    let t0 = threads::current();
    ranges::forget_hit(t0);
    let a = ranges::find(t0, v.as_ptr() as usize).unwrap().id;
    let b = ranges::find(t0, &v[8] as *const f32 as usize).unwrap().id;
    assert_ne!(a, b);
    let (src, sid) = heap_f32("src_vec", 8);
    src[0] = DENORM;
    let mut from_src = [0u64; 4];
    let mut made = [0u64; 1];
    unsafe {
        load64(ld, src.as_ptr().cast(), 1, from_src.as_mut_ptr());
        op64(mul, 0, 1, core::ptr::null(), made.as_mut_ptr());
    }
    let (c_ld, c_mul) = (from_src[0], made[0]);
    assert_eq!(c_ld, make_tag(sid, site_ptr(ld)));
    assert_eq!(c_mul, make_tag(0, site_ptr(mul)));
    // Inside a: lanes 0, 1 and 3 of v[2..6], creators ld, ld, mul (two runs).
    let tags = [c_ld, c_ld, 0, c_mul];
    unsafe { store64(st, v.as_mut_ptr().add(2).cast(), 0b1011, tags.as_ptr()) };
    // Across a and b: v[6..10], lanes 1 and 2 (v[7] in a, v[8] in b).
    unsafe {
        store64(
            st,
            v.as_mut_ptr().add(6).cast(),
            0b0110,
            [0, c_ld, c_ld, 0].as_ptr(),
        )
    };
    assert_eq!(shadow_tag(&v[2]), make_tag(a, site_ptr(ld)));
    assert_eq!(shadow_tag(&v[5]), make_tag(a, site_ptr(mul)));
    assert_eq!(shadow_tag(&v[7]), make_tag(a, site_ptr(ld)));
    assert_eq!(shadow_tag(&v[8]), make_tag(b, site_ptr(ld)));
    assert_eq!(creator_count(a, ld), 3);
    assert_eq!(creator_count(a, mul), 1);
    assert_eq!(creator_count(b, ld), 1);
    // Origins: only tags with an origin (src) make pairs.
    assert_eq!(pair_count(a, sid), 3);
    assert_eq!(pair_count(b, sid), 1);
    let (ra, rb) = (arrays::rec(a).unwrap(), arrays::rec(b).unwrap());
    assert_eq!(ra.totals(), (0, 4));
    assert_eq!(rb.totals(), (0, 1));
    // Loads back: inside a (fast path) and across a and b (lane by lane).
    v[2] = DENORM;
    v[5] = DENORM;
    v[7] = DENORM;
    v[8] = DENORM;
    let mut t = [0u64; 4];
    unsafe { load64(ld, v.as_ptr().add(2).cast(), 0b1001, t.as_mut_ptr()) };
    assert_eq!(
        t,
        [make_tag(a, site_ptr(ld)), 0, 0, make_tag(a, site_ptr(mul))]
    );
    unsafe { load64(ld, v.as_ptr().add(6).cast(), 0b0110, t.as_mut_ptr()) };
    assert_eq!(
        t,
        [0, make_tag(a, site_ptr(ld)), make_tag(b, site_ptr(ld)), 0]
    );
    assert_eq!(ra.totals(), (3, 4));
    assert_eq!(rb.totals(), (1, 1));
    let ca = ra.counters();
    // Element counters: reads first, then writes (n = 8).
    for (e, reads, writes) in [(2, 1, 1), (3, 0, 1), (5, 1, 1), (7, 1, 1), (6, 0, 0)] {
        assert_eq!(unsafe { &*ca.add(e) }.load(Relaxed), reads, "a[{e}] reads");
        assert_eq!(
            unsafe { &*ca.add(8 + e) }.load(Relaxed),
            writes,
            "a[{e}] writes"
        );
    }
    assert_eq!(site_counts(ld).2, 1 + 2 + 2);
    assert_eq!(site_counts(st).3, 3 + 2);
}

#[test]
fn vla_activations_share_a_record_per_size_class() {
    assert_eq!(
        [1, 16, 17, 64, 65, 1000].map(arrays::vla_class),
        [16, 16, 32, 64, 128, 1024]
    );
    let site = leak(AllocSiteDesc {
        flags: ALLOC_SITE_VLA,
        ..*alloc_site("vla", FP_FLOAT, 91)
    });
    let a: &'static mut [f32] = Box::leak(vec![0f32; 400].into_boxed_slice());
    let base = a.as_ptr() as usize;
    let t = threads::current();
    let id_at = |p: usize| {
        ranges::forget_hit(t);
        ranges::find(t, p).map(|r| r.id)
    };
    // Three activations at different addresses: 20 and 30 elements share class 32,
    // 100 elements is class 128.
    let (first, second, big) = unsafe {
        __tpd_alloc(base as *mut c_void, 20 * 4, site);
        let first = id_at(base).unwrap();
        __tpd_release(base as *mut c_void);
        assert_eq!(id_at(base), None, "released with its activation");
        __tpd_alloc((base + 400) as *mut c_void, 30 * 4, site);
        let second = id_at(base + 400).unwrap();
        __tpd_alloc((base + 800) as *mut c_void, 100 * 4, site);
        let big = id_at(base + 800).unwrap();
        (first, second, big)
    };
    assert_eq!(first, second, "one record per size class");
    assert_ne!(first, big);
    assert!(arrays::is_vla(first) && arrays::is_vla(big));
    let r = arrays::rec(first).unwrap();
    assert_eq!(r.elements.load(Relaxed), 32);
    assert!(
        r.live.load(Relaxed),
        "the second activation is still in scope"
    );
    unsafe {
        __tpd_release((base + 400) as *mut c_void);
        __tpd_release((base + 800) as *mut c_void);
    }
    // The records outlive their activations (like a fixed-size stack array's).
    assert!(!r.live.load(Relaxed));
    assert!(arrays::rec_if_exists(first).is_some() && arrays::is_vla(first));
}

/// The record's counts of the sites of source file `file` (the process so far).
fn recorded_sites(file: &str) -> Vec<(String, taintprof_record::denormal::DnCounts)> {
    let inp = super::record::Inputs {
        name: b"unit",
        path: b"/x/unit",
        argv: &[],
        pid: 1,
        exit: crate::report::Exit::Code(0),
    };
    let f = super::record::write_record(&inp, Vec::new());
    assert!(f.ok);
    let r = taintprof_record::denormal::read::read(&f.out).unwrap();
    r.sites
        .iter()
        .filter(|s| r.str(s.file) == file.as_bytes())
        .map(|s| (String::from_utf8_lossy(r.str(s.op)).into_owned(), s.counts))
        .collect()
}

/// `__tpd_op` counts a result lane as created when no operand is denormal in that lane.
#[test]
fn the_op_hook_counts_results_created_from_normal_operands_per_lane() {
    let mut by_constant = sp("fmul", FP_FLOAT, 4, 0, 0, 92);
    by_constant.const_operands = 2;
    let m = module(
        "created.c",
        vec![
            sp("fadd", FP_FLOAT, 4, 0, 0, 90),
            sp("fcmp", FP_FLOAT, 4, FPSITE_NO_RESULT, 0, 91),
            by_constant,
        ],
        1,
        vec![],
    );
    let (add, cmp, mulc) = (&m.sites[0], &m.sites[1], &m.sites[2]);
    let mut r = [0u64; 4];
    unsafe {
        // Lane 0: operand 0 and the result denormal (carried, not created); lane 1: only
        // the result (created); lane 2: operand 2 and the result (not created); lane 3:
        // operand 1 denormal, the result normal.
        op64(
            add,
            1 | 1 << (16 + 3) | 1 << (32 + 2),
            0b0111,
            [0u64; 12].as_ptr(),
            r.as_mut_ptr(),
        );
        // Every result lane denormal, no operand: four created.
        op64(add, 0, 0b1111, [0u64; 12].as_ptr(), r.as_mut_ptr());
        // Operands only: nothing created.
        op64(cmp, 0b1111, 0, [0u64; 12].as_ptr(), r.as_mut_ptr());
        // Times a denormal constant (operand 1): the constant does not count against
        // creation (lanes 0..3), operand 0 does (lane 0).
        op64(
            mulc,
            1 | 0b1111 << 16,
            0b1111,
            [0u64; 12].as_ptr(),
            r.as_mut_ptr(),
        );
    }
    let slot = |s: &FpSiteDesc| {
        let i = modules::find(s.module as usize).unwrap();
        modules::get(i).unwrap().1 as usize + s.index as usize
    };
    let t = threads::current();
    assert_eq!(t.site(slot(add)).created.load(Relaxed), 5);
    assert_eq!(t.site(slot(add)).results.load(Relaxed), 7);
    assert_eq!(t.site(slot(cmp)).created.load(Relaxed), 0);
    assert_eq!(t.site(slot(mulc)).created.load(Relaxed), 3);
    let rows = recorded_sites("created.c");
    assert_eq!(rows[0].0, "fadd");
    assert_eq!((rows[0].1.created, rows[0].1.results), (5, 7));
    assert_eq!(rows[1].1.created, 0);
}

/// Inline counters: an operation's fourth word is its created count, and a vector
/// operation's counters are their totals plus their lane counts; a profile-tier
/// module's loads and stores count into their word 0 (which may be the only word they
/// own), and the module's flags reach the record and the report's tier.
#[test]
fn inline_created_counts_and_profile_tier_modules_are_recorded() {
    let mut op = sp("fmul", FP_FLOAT, 4, 0, 0, 80);
    op.counters = Some(1); // totals in words 1..=4, lane counts in 5..=12
    assert_eq!(inline_words(0, 4), 12);
    let mut ld = sp("load", FP_FLOAT, 4, FPSITE_LOAD, 0, 81);
    ld.counters = Some(13); // one word: the last of the module
    let mut st = sp("store", FP_DOUBLE, 1, FPSITE_STORE, 0, 82);
    st.counters = Some(14);
    let m = module_with_flags("profile.c", vec![op, ld, st], 15, vec![], DN_MODULE_PROFILE);
    let blk = __tpd_thread_counters();
    let base = unsafe { &*m.m }.base as usize;
    unsafe {
        *blk.add(base) += 10;
        for (w, v) in [(1, 6), (2, 5), (3, 4), (4, 3), (13, 2), (14, 1)] {
            *blk.add(base + w) += v;
        }
        // Counter k's lane k holds 10 (k + 1): `u32` number 4k + k after the totals,
        // in the low or the high half of its word.
        let lanes = blk.add(base + 5).cast::<u32>();
        for k in 0..4 {
            *lanes.add(4 * k + k) = 10 * (k as u32 + 1);
        }
    }
    let rows = recorded_sites("profile.c");
    let c = |op: &str| rows.iter().find(|r| r.0 == op).unwrap().1;
    assert_eq!(
        (
            c("fmul").operands,
            c("fmul").operand_ops,
            c("fmul").results,
            c("fmul").created
        ),
        (6 + 10, 5 + 20, 4 + 30, 3 + 40)
    );
    assert_eq!(c("fmul").executions, 40);
    assert_eq!((c("load").loads, c("load").created), (2, 0));
    assert_eq!(c("store").stores, 1);
    let v = model_report();
    // Whatever else this process registered, a profile-tier module makes it "profile".
    assert_eq!(v["tier"], "profile");
    let row = v["sites"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["file"] == "profile.c" && s["op"] == "fmul")
        .cloned()
        .unwrap();
    assert_eq!(row["created"], 3 + 40);
    assert!(v["creator_sites"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["file"] == "profile.c" && c["created"] == 3 + 40 && c["op"] == "fmul"));
}
