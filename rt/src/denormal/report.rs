//! The denormal report: `docs/report-schema.md`, schema `taintprof.denormal` version 2,
//! `mode: "compiler"`, file `<prog>.<pid>.denormal.json` (written by the same once-only,
//! atomic machinery as the taint report, see [`crate::report`]).
//!
//! * `sites`: one entry per (function, file, line, column, op, element type), merged
//!   over descriptors (inlined, unrolled, vectorized and remainder copies: counts are
//!   element-wise, so a row reads the same at -O0 and -O3), summed over threads;
//!   `lanes` lists the vector widths of the merged copies. Only rows with denormal
//!   events unless `TAINTPROF_ALL_SITES=1`, judged after merging: a quiet scalar
//!   remainder still adds its executions to its vector loop's row.
//!   `executions` = block count × lanes.
//!   Sorted by function, then by denormal events (operands + results + loads + stores)
//!   descending.
//! * `arrays`: every array that saw a denormal, and up to [`QUIET_ARRAYS`] that did not
//!   (`role: none`). Names that several listed arrays share get `#id` appended so that
//!   `origins`, `creators` and `origin_maps` stay unambiguous.
//! * `role` (the thesis's reading of read/write totals, 6.2.2), with `R` reads and `W`
//!   writes: `none` if `R + W = 0`; `source` if `R ≥ 10·W` (few writes, many reads:
//!   denormals written once, read over and over); `sink` if `W ≥ 10·R`; `propagates`
//!   otherwise. The factor is an order of magnitude so that stencils (a 5-point stencil
//!   reads each element 4 times per write, a 9-point one 8 times) read as propagating.
//! * `origins` by count descending; `creators` by array, then count descending; a creator
//!   whose address is not a registered site (a stale tag) is listed as `<unknown>`.
//! * `snapshots` oldest first (the exit snapshot last); `origin_maps` cumulative.
//! * `timeline` is always empty (it belongs to exceptions mode).
//!
//! Nothing here calls malloc or takes a lock (scratch memory is `mmap`ed).

use core::ffi::c_char;
use core::fmt::Write as _;
use core::sync::atomic::Ordering::*;

use taintprof_abi::{
    inline_words, FpSiteDesc, SrcLoc, ARRAY_GLOBAL, ARRAY_HEAP, ARRAY_STACK, ARRAY_STATIC,
    FPSITE_LOAD, FPSITE_NO_COUNTERS, FPSITE_STORE,
};
use taintprof_sigsafe::json::{Json, Sink};
use taintprof_sigsafe::{cstr, MmapVec, StackBuf};

use super::arrays::{self, OTHER, READY};
use super::modules::{self, NO_SITE_BASE, OVERFLOW_SITE};
use super::snapshot::{self, Grid};
use super::{fpenv, origins, ranges, threads, type_name};
use crate::report::Exit;

/// Arrays without denormal events listed at most.
pub const QUIET_ARRAYS: usize = 1000;
/// `source` / `sink` threshold (see the module documentation).
pub const ROLE_RATIO: u64 = 10;

/// What the report is about.
pub struct Inputs<'a> {
    pub name: &'a [u8],
    pub path: &'a [u8],
    pub argv: &'a [*const c_char],
    pub pid: i32,
    pub exit: Exit,
}

/// The role of an array with `r` denormal reads and `w` writes.
pub fn role(r: u64, w: u64) -> &'static str {
    if r == 0 && w == 0 {
        "none"
    } else if r >= w.saturating_mul(ROLE_RATIO) {
        "source"
    } else if w >= r.saturating_mul(ROLE_RATIO) {
        "sink"
    } else {
        "propagates"
    }
}

fn s<'a>(p: *const c_char) -> &'a [u8] {
    // SAFETY: descriptor strings are NUL-terminated or null.
    unsafe { cstr(p) }
}

/// The position a site stands for: the last entry of its inline chain.
fn site_loc(d: &FpSiteDesc) -> Option<&'static SrcLoc> {
    if d.site.chain.is_null() || d.site.n_chain == 0 {
        return None;
    }
    // SAFETY: the chain has n_chain entries.
    Some(unsafe { &*d.site.chain.add(d.site.n_chain as usize - 1) })
}

#[derive(Clone, Copy)]
struct SiteRow {
    d: *const FpSiteDesc,
    exec: u64,
    ops: u64,
    /// Lanes with at least one denormal operand (the exception profiler's unit).
    op_ops: u64,
    res: u64,
    loads: u64,
    stores: u64,
    /// The vector widths of the merged copies: bit `w` for `w` lanes (`w` < 64; wider
    /// ones set bit 63).
    widths: u64,
}

impl SiteRow {
    fn events(&self) -> u64 {
        self.ops + self.res + self.loads + self.stores
    }
}

fn width_bit(lanes: u16) -> u64 {
    1 << lanes.clamp(1, 63)
}

/// Identity of a site in the report: function, linkage, file, line, column, op, element
/// type. Not the vector width: the vector loop and its scalar remainder are one row.
type SiteKey<'a> = (&'a [u8], &'a [u8], &'a [u8], u32, u32, &'a [u8], u16);

fn site_key(d: &FpSiteDesc) -> SiteKey<'_> {
    match site_loc(d) {
        Some(l) => (
            s(l.function),
            s(l.linkage),
            s(l.file),
            l.line,
            l.column,
            s(d.op),
            d.ty,
        ),
        None => (b"", b"", b"", 0, 0, s(d.op), d.ty),
    }
}

/// What a `creators` row shows of creator tag `k`: (array, function, file, line, op);
/// tags whose creator is not a registered site with a position stay apart.
type CreatorRow = (u32, &'static [u8], &'static [u8], u32, &'static [u8], u64);

fn creator_row(k: u64) -> CreatorRow {
    let id = super::tag_origin(k);
    match modules::site_at(super::tag_creator(k)).and_then(|d| site_loc(d).map(|l| (d, l))) {
        Some((d, l)) => (id, s(l.function), s(l.file), l.line, s(d.op), 0),
        None => (id, b"", b"", 0, b"", k),
    }
}

fn kind_name(k: u32) -> &'static str {
    match k as u16 {
        ARRAY_GLOBAL => "global",
        ARRAY_STATIC => "static",
        ARRAY_STACK => "stack",
        ARRAY_HEAP => "heap",
        _ => "other",
    }
}

/// Names of listed arrays, disambiguated.
struct Names {
    bytes: MmapVec<u8>,
    /// (id, start, len, duplicate)
    idx: MmapVec<(u32, u32, u32, bool)>,
}

impl Names {
    fn build(ids: &[u32]) -> Names {
        let mut n = Names {
            bytes: MmapVec::new(),
            idx: MmapVec::new(),
        };
        for &id in ids {
            let start = n.bytes.len() as u32;
            if let Some(r) = arrays::rec_if_exists(id) {
                r.write_name(id, &mut |b| {
                    for &c in b {
                        n.bytes.push(c);
                    }
                });
            }
            n.idx.push((id, start, n.bytes.len() as u32 - start, false));
        }
        // Mark duplicates: sort a copy by name.
        let mut order: MmapVec<u32> = MmapVec::new();
        for i in 0..n.idx.len() {
            order.push(i as u32);
        }
        {
            let (bytes, idx) = (n.bytes.as_slice(), n.idx.as_slice());
            let name = |i: u32| -> &[u8] {
                idx.get(i as usize)
                    .and_then(|&(_, st, l, _)| bytes.get(st as usize..(st + l) as usize))
                    .unwrap_or(&[])
            };
            order
                .as_mut_slice()
                .sort_unstable_by(|&a, &b| name(a).cmp(name(b)));
            let o = order.as_slice();
            let mut dup: MmapVec<u32> = MmapVec::new();
            for w in o.windows(2) {
                if let [a, b] = *w {
                    if name(a) == name(b) {
                        dup.push(a);
                        dup.push(b);
                    }
                }
            }
            for &i in dup.as_slice() {
                if let Some(e) = n.idx.as_mut_slice().get_mut(i as usize) {
                    e.3 = true;
                }
            }
        }
        n.idx.as_mut_slice().sort_unstable_by_key(|e| e.0);
        n
    }

    fn put(&self, id: u32, out: &mut dyn FnMut(&[u8])) {
        let i = self.idx.as_slice().binary_search_by_key(&id, |e| e.0);
        match i.ok().and_then(|i| self.idx.as_slice().get(i)) {
            Some(&(_, st, l, dup)) => {
                let name = self
                    .bytes
                    .as_slice()
                    .get(st as usize..(st + l) as usize)
                    .unwrap_or(&[]);
                if dup {
                    let mut b = StackBuf::<600>::new();
                    b.push_bytes(name);
                    let _ = write!(b, "#{}", id);
                    out(b.as_bytes());
                } else {
                    out(name);
                }
            }
            None => {
                // Not listed (should not happen): its own name with the id.
                let mut b = StackBuf::<600>::new();
                if let Some(r) = arrays::rec_if_exists(id) {
                    r.write_name(id, &mut |x| b.push_bytes(x));
                }
                let _ = write!(b, "#{}", id);
                out(b.as_bytes());
            }
        }
    }
}

fn write_grid<S: Sink>(j: &mut Json<'_, S>, g: &Grid) {
    j.kv_u64("rows", g.hm_rows);
    j.kv_u64("cols", g.hm_cols);
    j.key("cell");
    j.begin_array();
    j.u64(g.cell_r);
    j.u64(g.cell_c);
    j.end_array();
}

fn write_cells<S: Sink>(j: &mut Json<'_, S>, key: &str, v: &[u32]) {
    j.key(key);
    j.begin_array();
    for &x in v {
        j.u64(x as u64);
    }
    j.end_array();
}

/// Writes the report.
pub fn write_json<S: Sink>(inp: &Inputs<'_>, out: &mut S) {
    let mut incomplete = false;
    let env = fpenv::at_exit();

    // ---- sites and totals ----
    let all_sites = crate::options::all_sites();
    let mut rows: MmapVec<SiteRow> = MmapVec::new();
    let (mut t_ops, mut t_res, mut t_loads, mut t_stores) = (0u64, 0u64, 0u64, 0u64);
    let mut overflow_events = 0u64;
    for mi in 0..modules::count() {
        let Some((m, site_base, block_base)) = modules::get(mi) else {
            continue;
        };
        if m.sites.is_null() {
            continue;
        }
        for k in 0..m.n_sites as usize {
            // SAFETY: `sites` has n_sites entries.
            let d = unsafe { &*m.sites.add(k) };
            let mut r = SiteRow {
                d,
                exec: 0,
                ops: 0,
                op_ops: 0,
                res: 0,
                loads: 0,
                stores: 0,
                widths: width_bit(d.lanes),
            };
            let slot = if site_base == NO_SITE_BASE {
                None
            } else {
                Some(modules::site_slot(
                    modules::SiteBase {
                        module: 0,
                        site_base,
                        n_sites: m.n_sites,
                    },
                    k as u32,
                ))
                .filter(|&x| x != OVERFLOW_SITE)
            };
            let lanes = d.lanes.max(1) as u64;
            // Sites counted inline (FpSiteDesc::counters): an operation's three
            // counters, a load's or store's count (then its cache words).
            let words = inline_words(d.flags);
            let inline = (d.counters != FPSITE_NO_COUNTERS
                && d.counters
                    .checked_add(words)
                    .is_some_and(|e| e <= m.n_blocks))
            .then(|| block_base as usize + d.counters as usize);
            threads::for_each(|t| {
                if d.block < m.n_blocks {
                    r.exec += t.block(block_base as usize + d.block as usize) * lanes;
                }
                match inline {
                    Some(c) if d.flags & FPSITE_LOAD != 0 => r.loads += t.block(c),
                    Some(c) if d.flags & FPSITE_STORE != 0 => r.stores += t.block(c),
                    Some(c) => {
                        r.ops += t.block(c);
                        r.op_ops += t.block(c + 1);
                        r.res += t.block(c + 2);
                    }
                    None => {}
                }
                if let Some(x) = slot {
                    let c = t.site(x);
                    r.ops += c.operands.load(Relaxed);
                    r.op_ops += c.operand_ops.load(Relaxed);
                    r.res += c.results.load(Relaxed);
                    r.loads += c.loads.load(Relaxed);
                    r.stores += c.stores.load(Relaxed);
                }
            });
            t_ops += r.ops;
            t_res += r.res;
            t_loads += r.loads;
            t_stores += r.stores;
            // Every row until merged: a quiet copy adds its executions to a noisy one.
            if r.exec > 0 || r.events() > 0 || all_sites {
                incomplete |= !rows.push(r);
            }
        }
    }
    threads::for_each(|t| {
        let c = t.site(OVERFLOW_SITE);
        let (a, b, l, st) = (
            c.operands.load(Relaxed),
            c.results.load(Relaxed),
            c.loads.load(Relaxed),
            c.stores.load(Relaxed),
        );
        overflow_events += a + b + l + st;
        t_ops += a;
        t_res += b;
        t_loads += l;
        t_stores += st;
    });
    // Merge rows with the same identity.
    {
        let v = rows.as_mut_slice();
        // SAFETY (closures): row descriptors are registered sites.
        v.sort_unstable_by(|a, b| unsafe { site_key(&*a.d).cmp(&site_key(&*b.d)) });
    }
    let mut merged: MmapVec<SiteRow> = MmapVec::new();
    for &r in rows.as_slice() {
        match merged.as_mut_slice().last_mut() {
            // SAFETY: registered sites.
            Some(last) if unsafe { site_key(&*last.d) == site_key(&*r.d) } => {
                last.exec += r.exec;
                last.ops += r.ops;
                last.op_ops += r.op_ops;
                last.res += r.res;
                last.loads += r.loads;
                last.stores += r.stores;
                last.widths |= r.widths;
            }
            _ => incomplete |= !merged.push(r),
        }
    }
    if !all_sites {
        merged.retain(|r| r.events() > 0);
    }
    merged.as_mut_slice().sort_unstable_by(|a, b| {
        // SAFETY: registered sites.
        let (ka, kb) = unsafe { (site_key(&*a.d), site_key(&*b.d)) };
        ka.0.cmp(kb.0)
            .then(b.events().cmp(&a.events()))
            .then_with(|| ka.cmp(&kb))
    });

    // ---- arrays ----
    let mut live_stack = [0u64; 1024];
    threads::for_each(|t| {
        t.stack.for_each_live(|id| {
            if let Some(w) = live_stack.get_mut(id as usize / 64) {
                *w |= 1 << (id % 64);
            }
        })
    });
    let mut listed: MmapVec<u32> = MmapVec::new();
    let mut quiet = 0usize;
    let mut quiet_skipped = 0u64;
    for id in 0..arrays::id_limit() {
        let Some(r) = arrays::rec_if_exists(id) else {
            continue;
        };
        if r.state.load(Acquire) != READY {
            continue;
        }
        if r.touched.load(Acquire) {
            incomplete |= !listed.push(id);
        } else if id != OTHER {
            if quiet < QUIET_ARRAYS {
                quiet += 1;
                incomplete |= !listed.push(id);
            } else {
                quiet_skipped += 1;
            }
        }
    }
    let names = Names::build(listed.as_slice());

    // ---- origins and creators (merged over threads) ----
    let mut pairs: MmapVec<(u32, u32, u64)> = MmapVec::new();
    threads::for_each(|t| {
        t.for_each_pair(|d, sr, c| {
            incomplete |= !pairs.push((d, sr, c));
        })
    });
    origins::for_each_pair(|d, sr, p| {
        let o = p.overflow.load(Relaxed);
        if o > 0 {
            incomplete |= !pairs.push((d, sr, o));
        }
    });
    pairs.as_mut_slice().sort_unstable();
    let mut opairs: MmapVec<(u32, u32, u64)> = MmapVec::new();
    for &(d, sr, c) in pairs.as_slice() {
        match opairs.as_mut_slice().last_mut() {
            Some(l) if l.0 == d && l.1 == sr => l.2 += c,
            _ => incomplete |= !opairs.push((d, sr, c)),
        }
    }
    opairs
        .as_mut_slice()
        .sort_unstable_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));

    let mut ckeys: MmapVec<(u64, u64)> = MmapVec::new();
    threads::for_each(|t| t.for_each_creator(|k, c| incomplete |= !ckeys.push((!k, c))));
    origins::for_each_shared_creator(|k, c| incomplete |= !ckeys.push((!k, c)));
    ckeys.as_mut_slice().sort_unstable();
    let mut creators: MmapVec<(u64, u64)> = MmapVec::new();
    for &(k, c) in ckeys.as_slice() {
        match creators.as_mut_slice().last_mut() {
            Some(l) if l.0 == k => l.1 += c,
            _ => incomplete |= !creators.push((k, c)),
        }
    }
    // One row per (array, function, file, line, op): copies of one source operation
    // that are distinct creators (another module's copy of a header's inline function,
    // another column of the line) would otherwise read as duplicate rows.
    creators
        .as_mut_slice()
        .sort_unstable_by(|a, b| creator_row(a.0).cmp(&creator_row(b.0)));
    let mut rows: MmapVec<(u64, u64)> = MmapVec::new();
    for &(k, c) in creators.as_slice() {
        match rows.as_mut_slice().last_mut() {
            Some(l) if creator_row(l.0) == creator_row(k) => l.1 += c,
            _ => incomplete |= !rows.push((k, c)),
        }
    }
    let mut creators = rows;
    creators.as_mut_slice().sort_unstable_by(|a, b| {
        super::tag_origin(a.0)
            .cmp(&super::tag_origin(b.0))
            .then(b.1.cmp(&a.1))
            .then(a.0.cmp(&b.0))
    });

    // ---- write ----
    let mut j = Json::new(out, 2);
    j.begin_object();
    j.kv_str("schema", "taintprof.denormal");
    j.kv_u64("version", 2);
    j.kv_str("mode", "compiler");
    j.kv_str("taintprof_version", crate::VERSION);
    crate::report::write_program_and_exit(&mut j, inp.name, inp.path, inp.argv, inp.pid, inp.exit);
    j.kv_u64("threads", threads::count() as u64);
    j.key("fp_environment");
    j.begin_object();
    j.kv_bool("ftz", env.ftz);
    j.kv_bool("daz", env.daz);
    let mut hx = StackBuf::<16>::new();
    let _ = write!(hx, "{:#x}", env.start);
    j.kv_bytes("mxcsr", hx.as_bytes());
    let mut hx = StackBuf::<16>::new();
    let _ = write!(hx, "{:#x}", env.end);
    j.kv_bytes("mxcsr_at_exit", hx.as_bytes());
    j.kv_bool("changed_by_program", env.changed);
    j.end_object();
    j.key("totals");
    j.begin_object();
    j.kv_u64("fp_operations", threads::fp_operations());
    j.kv_u64("denormal_operands", t_ops);
    j.kv_u64("denormal_results", t_res);
    j.kv_u64("denormal_loads", t_loads);
    j.kv_u64("denormal_stores", t_stores);
    j.end_object();

    j.key("sites");
    j.begin_array();
    for r in merged.as_slice() {
        // SAFETY: registered site.
        let d = unsafe { &*r.d };
        j.begin_object();
        match site_loc(d) {
            Some(l) => {
                j.kv_bytes("function", s(l.function));
                j.kv_bytes("linkage", s(l.linkage));
                j.kv_bytes("file", s(l.file));
                j.kv_u64("line", l.line as u64);
                j.kv_u64("column", l.column as u64);
            }
            None => {
                j.kv_str("function", "");
                j.kv_str("linkage", "");
                j.kv_str("file", "");
                j.kv_u64("line", 0);
                j.kv_u64("column", 0);
            }
        }
        j.kv_bytes("op", s(d.op));
        j.kv_str("type", type_name(d.ty));
        j.key("lanes");
        j.begin_array();
        for w in (1..64).filter(|w| r.widths & (1 << w) != 0) {
            j.u64(w);
        }
        j.end_array();
        j.kv_u64("executions", r.exec);
        j.kv_u64("denormal_operands", r.ops);
        j.kv_u64("operations_with_denormal_operands", r.op_ops);
        j.kv_u64("denormal_results", r.res);
        j.kv_u64("denormal_loads", r.loads);
        j.kv_u64("denormal_stores", r.stores);
        j.end_object();
    }
    j.end_array();

    j.key("arrays");
    j.begin_array();
    for &id in listed.as_slice() {
        let Some(r) = arrays::rec_if_exists(id) else {
            continue;
        };
        let (rd, wr) = r.totals();
        let kind = r.kind.load(Relaxed);
        j.begin_object();
        j.kv_u64("id", id as u64);
        j.key("name");
        names.put(id, &mut |b| j.bytes(b));
        // A VLA's shared record is a heap-like record of a stack array.
        let kind_str = if arrays::is_vla(id) {
            "stack"
        } else {
            kind_name(kind)
        };
        j.kv_str("kind", kind_str);
        if id == OTHER {
            j.key("element_type");
            j.null();
        } else {
            j.kv_str("element_type", type_name(r.elem_ty.load(Relaxed) as u16));
        }
        j.kv_u64("elements", r.elements.load(Relaxed));
        j.key("shape");
        match r.shape() {
            Some((a, b)) => {
                j.begin_array();
                j.u64(a);
                j.u64(b);
                j.end_array();
            }
            None => j.null(),
        }
        j.key("allocated_at");
        if let Some(d) = r.array_desc() {
            j.begin_object();
            j.kv_bytes("function", s(d.function));
            j.kv_bytes("file", s(d.file));
            j.kv_u64("line", d.line as u64);
            j.end_object();
        } else if let Some(a) = r.alloc_site() {
            j.begin_object();
            j.kv_bytes("function", s(a.function));
            j.kv_bytes("file", s(a.file));
            j.kv_u64("line", a.line as u64);
            j.end_object();
        } else {
            j.null();
        }
        j.kv_u64("denormal_reads", rd);
        j.kv_u64("denormal_writes", wr);
        j.kv_str("role", role(rd, wr));
        let live = if kind == ARRAY_STACK as u32 {
            live_stack
                .get(id as usize / 64)
                .map(|w| w >> (id % 64) & 1 != 0)
                .unwrap_or(false)
        } else {
            r.live.load(Acquire)
        };
        j.kv_bool("live", live);
        j.end_object();
    }
    j.end_array();

    j.key("origins");
    j.begin_array();
    for &(d, sr, c) in opairs.as_slice() {
        j.begin_object();
        j.key("dest");
        names.put(d, &mut |b| j.bytes(b));
        j.key("src");
        names.put(sr, &mut |b| j.bytes(b));
        j.kv_u64("count", c);
        j.end_object();
    }
    j.end_array();

    j.key("creators");
    j.begin_array();
    for &(k, c) in creators.as_slice() {
        let id = super::tag_origin(k);
        let site = modules::site_at(super::tag_creator(k));
        j.begin_object();
        j.key("array");
        names.put(id, &mut |b| j.bytes(b));
        match site.and_then(|d| site_loc(d).map(|l| (d, l))) {
            Some((d, l)) => {
                j.kv_bytes("function", s(l.function));
                j.kv_bytes("file", s(l.file));
                j.kv_u64("line", l.line as u64);
                j.kv_bytes("op", s(d.op));
            }
            None => {
                j.kv_str("function", "<unknown>");
                j.kv_str("file", "");
                j.kv_u64("line", 0);
                j.kv_bytes("op", site.map(|d| s(d.op)).unwrap_or(b""));
            }
        }
        j.kv_u64("count", c);
        j.end_object();
    }
    j.end_array();

    j.key("snapshots");
    j.begin_array();
    snapshot::for_each(|h| {
        j.begin_object();
        j.kv_u64("index", h.index);
        j.kv_bytes("label", h.label());
        j.kv_u64("fp_operations", h.fp_operations);
        j.key("arrays");
        j.begin_array();
        h.for_each_array(|e, rc, wc| {
            j.begin_object();
            j.kv_u64("id", e.id as u64);
            j.kv_u64("denormal_reads", e.reads);
            j.kv_u64("denormal_writes", e.writes);
            j.key("heatmap");
            if e.has_heatmap != 0 {
                j.begin_object();
                write_grid(&mut j, &e.grid);
                write_cells(&mut j, "reads", rc);
                write_cells(&mut j, "writes", wc);
                j.end_object();
            } else {
                j.null();
            }
            j.end_object();
        });
        j.end_array();
        j.end_object();
    });
    j.end_array();

    j.key("origin_maps");
    j.begin_array();
    let mut cells: MmapVec<u32> = MmapVec::new();
    let mut maps: MmapVec<(u32, u32, usize)> = MmapVec::new();
    origins::for_each_pair(|d, sr, p| {
        if !p.counts().is_empty() {
            maps.push((d, sr, p as *const origins::Pair as usize));
        }
    });
    maps.as_mut_slice().sort_unstable_by_key(|m| (m.0, m.1));
    for &(d, sr, p) in maps.as_slice() {
        // SAFETY: shared pair records live for the process.
        let p = unsafe { &*(p as *const origins::Pair) };
        let g = match arrays::rec_if_exists(d) {
            Some(r) => Grid::new(p.elements.load(Relaxed), r.shape()),
            None => Grid::new(p.elements.load(Relaxed), None),
        };
        cells.truncate(0);
        if !cells.resize(g.cells(), 0) {
            incomplete = true;
            continue;
        }
        for (i, x) in p.counts().iter().enumerate() {
            let v = x.load(Relaxed);
            if v != 0 {
                if let Some(o) = cells.as_mut_slice().get_mut(g.cell(i as u64)) {
                    *o = o.saturating_add(v);
                }
            }
        }
        j.begin_object();
        j.key("dest");
        names.put(d, &mut |b| j.bytes(b));
        j.key("src");
        names.put(sr, &mut |b| j.bytes(b));
        write_grid(&mut j, &g);
        write_cells(&mut j, "counts", cells.as_slice());
        j.end_object();
    }
    j.end_array();

    j.key("timeline");
    j.begin_array();
    j.end_array();

    // ---- warnings ----
    j.key("warnings");
    j.begin_array();
    let mut warn = |args: core::fmt::Arguments<'_>| {
        let mut b = StackBuf::<1024>::new();
        let _ = b.write_fmt(args);
        j.bytes(b.as_bytes());
    };
    if env.ftz || env.daz {
        warn(format_args!(
            "nothing to trace: denormals are flushed to zero (MXCSR{}{} set; start {:#x}, exit {:#x}): build without -ffast-math / -Ofast, or clear FTZ and DAZ",
            if env.ftz { " FTZ" } else { "" },
            if env.daz { " DAZ" } else { "" },
            env.start,
            env.end
        ));
    }
    if env.changed {
        warn(format_args!(
            "the program changed the floating-point control register (MXCSR {:#x} at start, {:#x} at exit)",
            env.start, env.end
        ));
    }
    if inp.exit == Exit::Running {
        warn(format_args!(
            "written while the program was still running (tp_write_report); the report written at exit replaces it"
        ));
    }
    if modules::count() == 0 {
        warn(format_args!("no denormal-mode module registered"));
    }
    let (cb, cs) = modules::clamped();
    if cb > 0 {
        warn(format_args!(
            "{cb} module(s) share block counters with others (too many basic blocks): their executions and fp_operations are approximate"
        ));
    }
    if cs > 0 || overflow_events > 0 {
        warn(format_args!(
            "{cs} module(s) had no room for site counters: {overflow_events} denormal events are in the totals but not in sites"
        ));
    }
    let other = arrays::OTHER_ARRAYS.load(Relaxed);
    if other > 0 {
        warn(format_args!(
            "{other} array(s) got no id (more than {} marked arrays): they are counted together as '<other>', without heatmaps or origins",
            arrays::MAX_ID
        ));
    }
    if quiet_skipped > 0 {
        warn(format_args!(
            "{quiet_skipped} more array(s) without denormals are not listed"
        ));
    }
    let imp = arrays::IMPLICIT_RELEASES.load(Relaxed);
    if imp > 0 {
        warn(format_args!(
            "{imp} array(s) were released implicitly: their memory was reused without an instrumented free (freed by uninstrumented code?)"
        ));
    }
    let full = ranges::TABLE_FULL.load(Relaxed);
    if full > 0 {
        warn(format_args!(
            "{full} array(s) could not be tracked (too many live arrays, or out of memory)"
        ));
    }
    let sf = ranges::STACK_FULL.load(Relaxed);
    if sf > 0 {
        warn(format_args!(
            "{sf} stack-array instance(s) were not tracked (more than {} live in one thread)",
            ranges::STACK_CAP
        ));
    }
    let dc = threads::DROPPED_CREATORS.load(Relaxed);
    let dp = origins::DROPPED_PAIRS.load(Relaxed);
    if dc > 0 || dp > 0 {
        warn(format_args!(
            "too many distinct creators or origin pairs: {dc} creator and {dp} origin event(s) were not recorded"
        ));
    }
    let sk = snapshot::SKIPPED.load(Relaxed);
    if sk > 0 {
        warn(format_args!(
            "{sk} snapshot(s) were skipped: the snapshots reached TAINTPROF_SNAPSHOT_MEMORY={} MiB (the next snapshot covers the longer interval)",
            crate::options::snapshot_memory_mib()
        ));
    }
    let sfl = snapshot::FAILED.load(Relaxed);
    if sfl > 0 {
        warn(format_args!(
            "{sfl} snapshot(s) could not be taken (out of memory, or a snapshot in progress when the program ended)"
        ));
    }
    if incomplete {
        warn(format_args!(
            "the runtime ran out of memory while writing this report: it is incomplete"
        ));
    }
    j.end_array();
    j.end_object();
}
