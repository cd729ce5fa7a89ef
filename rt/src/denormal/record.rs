//! The denormal record (`<prog>.<pid>.denormal.rec`; format in
//! `taintprof_record::denormal`, `docs/internal/record.md`, "The denormal record"):
//! the raw state of denormal mode, written by the same once-only, atomic machinery as
//! the taint record ([`crate::report`]). The runtime records, the driver analyses
//! (docs/design.md, decision 7): `taintprof-model` makes the `taintprof.denormal`
//! report from it (`taintprof denormals`, `taintprof run`).
//!
//! What is written, in this order: the run (program, argv, pid, thread count, FP
//! operations, whether `TAINTPROF_ALL_SITES` was set), the exit, MXCSR at start and
//! exit; every registered module with every site of it (its position: the last entry of
//! its inline chain; its operation, element type, lanes, flags; its counters summed over
//! threads: block count × lanes, inline and hook counters, the results it created from
//! normal operands among them); the events without a site slot; every marked-array record (id order; name, kind, element type, sizes, shape,
//! where it was declared or allocated, denormal reads and writes, whether it is live);
//! the origin-pair and creator counts of every thread and of the shared tables (a
//! creator's address as the index of the site it is, if it is one); the snapshots as
//! stored; the cumulative origin maps (non-zero elements); the counters the warnings
//! quote. Strings are interned by pointer and written before their first use.
//!
//! Nothing here calls malloc or takes a lock (scratch memory is `mmap`ed); it runs in
//! a signal handler as well as at exit. Its size is bounded by the program (sites,
//! arrays, table capacities, snapshot memory), not by the run's length.

use core::ffi::c_char;
use core::sync::atomic::Ordering::*;

use taintprof_abi::{
    op_lane_words, FpSiteDesc, ABI_VERSION, ARRAY_STACK, DN_OP_CREATED, DN_OP_WORDS, FPSITE_LOAD,
    FPSITE_NO_COUNTERS, FPSITE_STORE,
};
use taintprof_record::denormal::*;
use taintprof_record::{Out, NONE};
use taintprof_sigsafe::{cstr, MmapVec};

use super::arrays::{self, READY};
use super::modules::{self, NO_SITE_BASE, OVERFLOW_SITE};
use super::{fpenv, origins, ranges, snapshot, threads};
use crate::record::PtrMap;
use crate::report::Exit;

/// What the record is about.
pub struct Inputs<'a> {
    pub name: &'a [u8],
    pub path: &'a [u8],
    pub argv: &'a [*const c_char],
    pub pid: i32,
    pub exit: Exit,
}

fn s<'a>(p: *const c_char) -> &'a [u8] {
    // SAFETY: descriptor strings are NUL-terminated or null.
    unsafe { cstr(p) }
}

/// Descriptor strings by pointer → string id (null and empty strings are `NONE`).
struct Strings {
    map: PtrMap,
    ok: bool,
}

impl Strings {
    fn id<O: Out>(&mut self, w: &mut DnWriter<O>, p: *const c_char) -> u32 {
        if p.is_null() {
            return NONE;
        }
        if let Some(id) = self.map.get(p as usize) {
            return id;
        }
        let b = s(p);
        if b.is_empty() {
            return NONE;
        }
        let id = w.string(b);
        if id != NONE && !self.map.insert(p as usize, id) {
            self.ok = false;
        }
        id
    }
}

/// One module's site array: its address range and the global index of its first site.
#[derive(Clone, Copy)]
struct SiteSpan {
    lo: u64,
    hi: u64,
    base: u32,
}

/// The global index of the site at `c` (a creator address), `NONE` if it is none (the
/// same test as `modules::site_at`).
fn site_index(spans: &[SiteSpan], c: u64) -> u32 {
    let sz = core::mem::size_of::<FpSiteDesc>() as u64;
    for sp in spans {
        if c >= sp.lo && c < sp.hi && (c - sp.lo).is_multiple_of(sz) {
            return sp.base + ((c - sp.lo) / sz) as u32;
        }
    }
    NONE
}

/// Writes the record of the run so far through `out`.
pub fn write_record<O: Out>(inp: &Inputs<'_>, out: O) -> DnFinished<O> {
    let mut incomplete = false;
    let env = fpenv::at_exit();
    let mut w = DnWriter::new(out);
    w.run(
        &DnRun {
            pid: inp.pid,
            abi_version: ABI_VERSION,
            threads: threads::count(),
            flags: if crate::options::all_sites() {
                DN_RUN_ALL_SITES
            } else {
                0
            },
            fp_operations: threads::fp_operations(),
        },
        inp.name,
        inp.path,
        crate::VERSION.as_bytes(),
    );
    for &a in inp.argv {
        if !a.is_null() {
            w.arg(s(a));
        }
    }
    w.exit(
        crate::record::exit_of(inp.exit),
        crate::inflight::count() as u32,
    );
    w.fpenv(&DnFpEnv {
        start: env.start,
        end: env.end,
        flags: (if env.ftz { DN_FPENV_FTZ } else { 0 })
            | (if env.daz { DN_FPENV_DAZ } else { 0 })
            | (if env.changed { DN_FPENV_CHANGED } else { 0 }),
    });

    let mut strs = Strings {
        map: PtrMap::new(),
        ok: true,
    };
    strs.ok = strs.map.reset(1024);

    // ---- modules and sites ----
    let mut spans: MmapVec<SiteSpan> = MmapVec::new();
    let mut global = 0u32;
    for mi in 0..modules::count() {
        let Some((m, site_base, block_base)) = modules::get(mi) else {
            continue;
        };
        if m.sites.is_null() {
            continue;
        }
        let source = strs.id(&mut w, m.source_file);
        w.module(&DnModule {
            n_sites: m.n_sites,
            n_blocks: m.n_blocks,
            flags: m.flags,
            source,
        });
        let lo = m.sites as u64;
        incomplete |= !spans.push(SiteSpan {
            lo,
            hi: lo + m.n_sites as u64 * core::mem::size_of::<FpSiteDesc>() as u64,
            base: global,
        });
        global = global.saturating_add(m.n_sites);
        for k in 0..m.n_sites as usize {
            // SAFETY: `sites` has n_sites entries.
            let d = unsafe { &*m.sites.add(k) };
            let mut c = DnCounts::default();
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
            // Sites counted inline (FpSiteDesc::counters): an operation's
            // `DN_OP_WORDS` counters, a load's or store's count (word 0; in the full
            // tier its cache words follow, which are not read here, so a profile-tier
            // module may give such a site that one word only).
            let words = if d.flags & (FPSITE_LOAD | FPSITE_STORE) != 0 {
                1
            } else {
                DN_OP_WORDS + op_lane_words(d.lanes)
            };
            let lanes_counted = if op_lane_words(d.lanes) > 0 {
                d.lanes as usize
            } else {
                0
            };
            let inline = (d.counters != FPSITE_NO_COUNTERS
                && d.counters
                    .checked_add(words)
                    .is_some_and(|e| e <= m.n_blocks))
            .then(|| block_base as usize + d.counters as usize);
            threads::for_each(|t| {
                if d.block < m.n_blocks {
                    c.executions += t.block(block_base as usize + d.block as usize) * lanes;
                }
                match inline {
                    Some(i) if d.flags & FPSITE_LOAD != 0 => c.loads += t.block(i),
                    Some(i) if d.flags & FPSITE_STORE != 0 => c.stores += t.block(i),
                    Some(i) => {
                        // Each counter: its total, plus its lane counts if it has them
                        // (`u32` number `k * lanes + l` after the totals: two per word,
                        // little-endian).
                        let counter = |k: usize| {
                            let lanes_at = i + DN_OP_WORDS as usize;
                            t.block(i + k)
                                + (k * lanes_counted..(k + 1) * lanes_counted)
                                    .map(|x| {
                                        t.block(lanes_at + x / 2) >> (32 * (x % 2)) & 0xffff_ffff
                                    })
                                    .sum::<u64>()
                        };
                        c.operands += counter(0);
                        c.operand_ops += counter(1);
                        c.results += counter(2);
                        c.created += counter(DN_OP_CREATED as usize);
                    }
                    None => {}
                }
                if let Some(x) = slot {
                    let sc = t.site(x);
                    c.operands += sc.operands.load(Relaxed);
                    c.operand_ops += sc.operand_ops.load(Relaxed);
                    c.results += sc.results.load(Relaxed);
                    c.loads += sc.loads.load(Relaxed);
                    c.stores += sc.stores.load(Relaxed);
                    c.created += sc.created.load(Relaxed);
                }
            });
            let chain = d.site.chain;
            let n = d.site.n_chain;
            let mut site = DnSite {
                function: NONE,
                linkage: NONE,
                file: NONE,
                line: 0,
                column: 0,
                op: NONE,
                ty: d.ty,
                lanes: d.lanes,
                flags: d.flags,
                rflags: 0,
                counts: c,
            };
            if !chain.is_null() && n > 0 {
                // SAFETY: the chain has n_chain entries; the last is the position.
                let l = unsafe { &*chain.add(n as usize - 1) };
                site.function = strs.id(&mut w, l.function);
                site.linkage = strs.id(&mut w, l.linkage);
                site.file = strs.id(&mut w, l.file);
                site.line = l.line;
                site.column = l.column;
                site.rflags = DN_SITE_HAS_LOC;
            }
            site.op = strs.id(&mut w, d.op);
            w.site(&site);
        }
    }
    let mut ov = DnOverflow::default();
    threads::for_each(|t| {
        let c = t.site(OVERFLOW_SITE);
        ov.operands += c.operands.load(Relaxed);
        ov.results += c.results.load(Relaxed);
        ov.loads += c.loads.load(Relaxed);
        ov.stores += c.stores.load(Relaxed);
        ov.created += c.created.load(Relaxed);
    });
    w.overflow(&ov);

    // ---- arrays ----
    let mut live_stack = [0u64; 1024];
    threads::for_each(|t| {
        t.stack.for_each_live(|id| {
            if let Some(x) = live_stack.get_mut(id as usize / 64) {
                *x |= 1 << (id % 64);
            }
        })
    });
    let mut name: MmapVec<u8> = MmapVec::new();
    for id in 0..arrays::id_limit() {
        let Some(r) = arrays::rec_if_exists(id) else {
            continue;
        };
        let ready = r.state.load(Acquire) == READY;
        let kind = r.kind.load(Relaxed);
        let mut a = DnArray {
            id,
            kind,
            elem_ty: r.elem_ty.load(Relaxed) as u16,
            flags: 0,
            elements: r.elements.load(Relaxed),
            rows: 0,
            cols: 0,
            reads: 0,
            writes: 0,
            alloc_function: NONE,
            alloc_file: NONE,
            alloc_line: 0,
        };
        if ready {
            a.flags |= DN_ARRAY_READY;
            if r.touched.load(Acquire) {
                a.flags |= DN_ARRAY_TOUCHED;
            }
            let live = if kind == ARRAY_STACK as u32 {
                live_stack
                    .get(id as usize / 64)
                    .map(|x| x >> (id % 64) & 1 != 0)
                    .unwrap_or(false)
            } else {
                r.live.load(Acquire)
            };
            if live {
                a.flags |= DN_ARRAY_LIVE;
            }
            (a.reads, a.writes) = r.totals();
        }
        if arrays::is_vla(id) {
            a.flags |= DN_ARRAY_VLA;
        }
        if let Some((rows, cols)) = r.shape() {
            (a.rows, a.cols) = (rows, cols);
        }
        if let Some(d) = r.array_desc() {
            a.flags |= DN_ARRAY_ALLOCATED_AT;
            a.alloc_function = strs.id(&mut w, d.function);
            a.alloc_file = strs.id(&mut w, d.file);
            a.alloc_line = d.line;
        } else if let Some(x) = r.alloc_site() {
            a.flags |= DN_ARRAY_ALLOCATED_AT;
            a.alloc_function = strs.id(&mut w, x.function);
            a.alloc_file = strs.id(&mut w, x.file);
            a.alloc_line = x.line;
        }
        name.truncate(0);
        r.write_name(id, &mut |b| {
            for &c in b {
                incomplete |= !name.push(c);
            }
        });
        w.array(&a, name.as_slice());
    }

    // ---- origin pairs and creators ----
    threads::for_each(|t| t.for_each_pair(|dest, src, count| w.pair(&DnPair { dest, src, count })));
    origins::for_each_pair(|dest, src, p| {
        let count = p.overflow.load(Relaxed);
        if count > 0 {
            w.pair(&DnPair { dest, src, count });
        }
    });
    let spans = spans.as_slice();
    let mut creator = |key: u64, count: u64| {
        // The tables keep the complement of the tag (`threads::creator_key`).
        let tag = !key;
        w.creator(&DnCreator {
            key: tag,
            site: site_index(spans, super::tag_creator(tag)),
            count,
        });
    };
    threads::for_each(|t| t.for_each_creator(&mut creator));
    origins::for_each_shared_creator(&mut creator);

    // ---- snapshots ----
    snapshot::for_each(|h| {
        w.snapshot(
            &DnSnapshot {
                index: h.index,
                fp_operations: h.fp_operations,
            },
            h.label(),
        );
        h.for_each_array(|e, rc, wc| {
            w.snap_array(
                &DnSnapArray {
                    id: e.id,
                    has_heatmap: e.has_heatmap != 0,
                    reads: e.reads,
                    writes: e.writes,
                    hm_rows: e.grid.hm_rows,
                    hm_cols: e.grid.hm_cols,
                    cell_r: e.grid.cell_r,
                    cell_c: e.grid.cell_c,
                },
                rc,
                wc,
            );
        });
    });

    // ---- cumulative origin maps ----
    origins::for_each_pair(|dest, src, p| {
        let counts = p.counts();
        if counts.is_empty() {
            return;
        }
        let (rows, cols) = arrays::rec_if_exists(dest)
            .and_then(|r| r.shape())
            .unwrap_or((0, 0));
        w.origin_map(
            &DnOriginMap {
                dest,
                src,
                elements: p.elements.load(Relaxed),
                rows,
                cols,
            },
            counts
                .iter()
                .enumerate()
                .map(|(i, x)| (i as u64, x.load(Relaxed)))
                .filter(|&(_, v)| v != 0),
        );
    });

    // ---- counters ----
    let (cb, cs) = modules::clamped();
    for (code, v) in [
        (DN_COUNT_MODULES, modules::count() as u64),
        (DN_COUNT_CLAMPED_BLOCKS, cb as u64),
        (DN_COUNT_CLAMPED_SITES, cs as u64),
        (DN_COUNT_OTHER_ARRAYS, arrays::OTHER_ARRAYS.load(Relaxed)),
        (
            DN_COUNT_IMPLICIT_RELEASES,
            arrays::IMPLICIT_RELEASES.load(Relaxed),
        ),
        (DN_COUNT_TABLE_FULL, ranges::TABLE_FULL.load(Relaxed)),
        (DN_COUNT_STACK_FULL, ranges::STACK_FULL.load(Relaxed)),
        (
            DN_COUNT_DROPPED_CREATORS,
            threads::DROPPED_CREATORS.load(Relaxed),
        ),
        (DN_COUNT_DROPPED_PAIRS, origins::DROPPED_PAIRS.load(Relaxed)),
        (DN_COUNT_SNAPSHOTS_SKIPPED, snapshot::SKIPPED.load(Relaxed)),
        (DN_COUNT_SNAPSHOTS_FAILED, snapshot::FAILED.load(Relaxed)),
        (DN_LIMIT_MAX_ID, arrays::MAX_ID as u64),
        (DN_LIMIT_STACK_CAP, ranges::STACK_CAP as u64),
        (
            DN_LIMIT_SNAPSHOT_MEMORY_MIB,
            crate::options::snapshot_memory_mib(),
        ),
        (DN_COUNT_INCOMPLETE, (incomplete || !strs.ok) as u64),
    ] {
        w.counter(code, v);
    }
    w.finish()
}
