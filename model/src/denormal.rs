//! The denormal report, offline: the `taintprof.denormal` report (schema version 2,
//! `mode: "compiler"`, `docs/report-schema.md`, "Denormal report") of a denormal record
//! (`taintprof_record::denormal`, written by `rt/src/denormal/record.rs`). The analysis
//! the runtime did at exit before issue 23 (`rt/src/denormal/report.rs`), value for
//! value; its reports were checked equal to the runtime's on every denormal end-to-end
//! program at -O0 and -O2 and on the runtime's unit scenarios before it left the
//! runtime.
//!
//! * `sites`: one row per (function, linkage, file, line, column, op, element type),
//!   merged over descriptors (inlined, unrolled, vectorized and remainder copies; counts
//!   are element-wise, so a row reads the same at -O0 and -O3), summed over threads (the
//!   record's counters are); `lanes` lists the vector widths of the merged copies. Only
//!   rows with denormal events unless `TAINTPROF_ALL_SITES=1` was set in the run,
//!   judged after merging: a quiet scalar remainder still adds its executions to its
//!   vector loop's row. Sorted by function, then by denormal events (operands + results
//!   + loads + stores) descending, then by the row's identity.
//! * `arrays`: every array that saw a denormal, and up to [`QUIET_ARRAYS`] that did not
//!   (`role: none`), in id order. Names that several listed arrays share get `#id`
//!   appended, so that `origins`, `creators` and `origin_maps` stay unambiguous.
//! * `role` ([`role`], the thesis's reading of read/write totals, 6.2.2).
//! * `origins` by count descending; `creators` by array, then count descending; a
//!   creator whose address is not a registered site (a stale tag) is `<unknown>`.
//! * `snapshots` oldest first (the exit snapshot last); `origin_maps` cumulative, binned
//!   into the heatmap grid of the destination array.
//! * `timeline` is always empty (it belongs to exceptions mode).
//! * `tier` ([`tier`]): `full`, or `profile` when a module was built with
//!   `--tp-denormal=profile` (`DN_MODULE_PROFILE`; with full-tier modules beside it, a
//!   warning says that arrays, origins and heatmaps cover only those). A profile-tier
//!   program has no arrays, origins, creators, origin maps or snapshot arrays: they are
//!   empty whatever the record holds.
//! * `created` of a row: its result lanes that were denormal while no operand of the
//!   lane was, summed like the other counts; `creator_sites` lists the rows with
//!   `created > 0`, most first (both tiers).

use std::path::Path;

use serde_json::{json, Map, Value};
use taintprof_abi::{
    fp_type_name, ARRAY_GLOBAL, ARRAY_HEAP, ARRAY_STACK, ARRAY_STATIC, DN_MODULE_PROFILE,
    TAG_ORIGIN_SHIFT,
};
use taintprof_record::denormal::read::{self, DnError, DnRecord};
use taintprof_record::denormal::*;
use taintprof_record::{Exit, NONE};

use crate::run::{exit as exit_json, text};

/// Arrays without denormal events listed at most.
pub const QUIET_ARRAYS: usize = 1000;
/// `source` / `sink` threshold (see [`role`]).
pub const ROLE_RATIO: u64 = 10;
/// The array id of `<other>` (arrays that got no id).
const OTHER: u32 = 0;

/// The role of an array with `r` denormal reads and `w` writes: `none` if `r + w = 0`;
/// `source` if `r ≥ 10·w` (few writes, many reads: denormals written once, read over and
/// over); `sink` if `w ≥ 10·r`; `propagates` otherwise. The factor is an order of
/// magnitude so that stencils (a 5-point stencil reads each element 4 times per write, a
/// 9-point one 8 times) read as propagating.
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

fn kind_name(k: u32) -> &'static str {
    match k {
        k if k == ARRAY_GLOBAL as u32 => "global",
        k if k == ARRAY_STATIC as u32 => "static",
        k if k == ARRAY_STACK as u32 => "stack",
        k if k == ARRAY_HEAP as u32 => "heap",
        _ => "other",
    }
}

/// The report's `tier`: `"full"` when no module of the record was built in the profile
/// tier (`DN_MODULE_PROFILE`), else `"profile"`; and how many modules are profile tier
/// and full tier.
pub fn tier(rec: &DnRecord) -> (&'static str, usize, usize) {
    let profile = rec
        .modules
        .iter()
        .filter(|m| m.info.flags & DN_MODULE_PROFILE != 0)
        .count();
    let full = rec.modules.len() - profile;
    (if profile > 0 { "profile" } else { "full" }, profile, full)
}

/// Origin array id of a tag.
fn tag_origin(t: u64) -> u32 {
    (t >> TAG_ORIGIN_SHIFT) as u32
}

pub use taintprof_record::denormal::grid::{fold, Grid};

/// A site row being merged.
#[derive(Clone, Copy)]
struct Row {
    site: usize,
    c: DnCounts,
    /// Bit `w` for `w` lanes (`w` < 64; wider ones set bit 63).
    widths: u64,
}

impl Row {
    fn events(&self) -> u64 {
        self.c.operands + self.c.results + self.c.loads + self.c.stores
    }
}

fn width_bit(lanes: u16) -> u64 {
    1 << lanes.clamp(1, 63)
}

/// A site's identity in the report: function, linkage, file, line, column, op, element
/// type (not the vector width: the vector loop and its scalar remainder are one row).
type SiteKey<'a> = (&'a [u8], &'a [u8], &'a [u8], u32, u32, &'a [u8], u16);

fn site_key<'a>(r: &'a DnRecord, s: &DnSite) -> SiteKey<'a> {
    if s.rflags & DN_SITE_HAS_LOC != 0 {
        (
            r.str(s.function),
            r.str(s.linkage),
            r.str(s.file),
            s.line,
            s.column,
            r.str(s.op),
            s.ty,
        )
    } else {
        (b"", b"", b"", 0, 0, r.str(s.op), s.ty)
    }
}

/// The names of the listed arrays, disambiguated.
struct Names<'a> {
    rec: &'a DnRecord,
    /// id → (name, duplicate) of the listed arrays.
    listed: std::collections::BTreeMap<u32, (&'a [u8], bool)>,
}

impl<'a> Names<'a> {
    fn build(rec: &'a DnRecord, ids: &[u32]) -> Names<'a> {
        let name_of = |id: u32| -> &'a [u8] { array_name(rec, id) };
        let mut order: Vec<u32> = ids.to_vec();
        order.sort_by(|&a, &b| name_of(a).cmp(name_of(b)));
        let mut dup = std::collections::BTreeSet::new();
        for w in order.windows(2) {
            if name_of(w[0]) == name_of(w[1]) {
                dup.insert(w[0]);
                dup.insert(w[1]);
            }
        }
        let listed = ids
            .iter()
            .map(|&id| (id, (name_of(id), dup.contains(&id))))
            .collect();
        Names { rec, listed }
    }

    fn get(&self, id: u32) -> Value {
        match self.listed.get(&id) {
            Some(&(name, false)) => text(name).into(),
            Some(&(name, true)) => format!("{}#{id}", text(name)).into(),
            // Not listed: its own name with the id.
            None => format!("{}#{id}", text(array_name(self.rec, id))).into(),
        }
    }
}

/// The name the runtime gave array `id` (empty if it has no record).
fn array_name(rec: &DnRecord, id: u32) -> &[u8] {
    match rec.arrays.binary_search_by_key(&id, |a| a.0.id) {
        Ok(i) => &rec.arrays[i].1,
        Err(_) => &[],
    }
}

/// The `taintprof.denormal` report of a denormal record.
pub fn denormal_report(rec: &DnRecord) -> Value {
    let all_sites = rec.run.flags & DN_RUN_ALL_SITES != 0;
    let env = rec.fpenv;
    let (ftz, daz, changed) = (
        env.flags & DN_FPENV_FTZ != 0,
        env.flags & DN_FPENV_DAZ != 0,
        env.flags & DN_FPENV_CHANGED != 0,
    );

    // ---- sites and totals ----
    let (tier_name, n_profile, n_full) = tier(rec);
    // Only profile-tier modules: nothing carried tags or registered arrays.
    let profile_only = n_profile > 0 && n_full == 0;
    let (mut t_ops, mut t_res, mut t_loads, mut t_stores) = (0u64, 0u64, 0u64, 0u64);
    let mut t_created = 0u64;
    let mut rows: Vec<Row> = Vec::new();
    for (i, s) in rec.sites.iter().enumerate() {
        let r = Row {
            site: i,
            c: s.counts,
            widths: width_bit(s.lanes),
        };
        t_ops += r.c.operands;
        t_res += r.c.results;
        t_loads += r.c.loads;
        t_stores += r.c.stores;
        t_created += r.c.created;
        // Every row until merged: a quiet copy adds its executions to a noisy one.
        if r.c.executions > 0 || r.events() > 0 || all_sites {
            rows.push(r);
        }
    }
    let ov = rec.overflow;
    let overflow_events = ov.operands + ov.results + ov.loads + ov.stores;
    t_ops += ov.operands;
    t_res += ov.results;
    t_loads += ov.loads;
    t_stores += ov.stores;
    t_created += ov.created;
    let key = |r: &Row| site_key(rec, &rec.sites[r.site]);
    rows.sort_by(|a, b| key(a).cmp(&key(b)));
    let mut merged: Vec<Row> = Vec::new();
    for r in rows {
        match merged.last_mut() {
            Some(last) if key(last) == key(&r) => {
                last.c.executions += r.c.executions;
                last.c.operands += r.c.operands;
                last.c.operand_ops += r.c.operand_ops;
                last.c.results += r.c.results;
                last.c.loads += r.c.loads;
                last.c.stores += r.c.stores;
                last.c.created += r.c.created;
                last.widths |= r.widths;
            }
            _ => merged.push(r),
        }
    }
    if !all_sites {
        merged.retain(|r| r.events() > 0);
    }
    merged.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(kb.0)
            .then(b.events().cmp(&a.events()))
            .then_with(|| ka.cmp(&kb))
    });
    let sites: Vec<Value> = merged
        .iter()
        .map(|r| {
            let k = key(r);
            json!({
                "function": text(k.0),
                "linkage": text(k.1),
                "file": text(k.2),
                "line": k.3,
                "column": k.4,
                "op": text(k.5),
                "type": fp_type_name(k.6),
                "lanes": (1..64u64).filter(|w| r.widths & (1 << w) != 0).collect::<Vec<_>>(),
                "executions": r.c.executions,
                "denormal_operands": r.c.operands,
                "operations_with_denormal_operands": r.c.operand_ops,
                "denormal_results": r.c.results,
                "denormal_loads": r.c.loads,
                "denormal_stores": r.c.stores,
                "created": r.c.created,
            })
        })
        .collect();

    // ---- creator sites: the rows that made denormals from normal operands ----
    let mut made: Vec<&Row> = merged.iter().filter(|r| r.c.created > 0).collect();
    made.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        b.c.created
            .cmp(&a.c.created)
            .then_with(|| (ka.2, ka.3, ka.4).cmp(&(kb.2, kb.3, kb.4)))
            .then_with(|| ka.cmp(&kb))
    });
    let creator_sites: Vec<Value> = made
        .iter()
        .map(|r| {
            let k = key(r);
            json!({
                "function": text(k.0),
                "file": text(k.2),
                "line": k.3,
                "column": k.4,
                "op": text(k.5),
                "type": fp_type_name(k.6),
                "created": r.c.created,
            })
        })
        .collect();

    // ---- arrays ----
    let mut listed: Vec<u32> = Vec::new();
    let mut quiet = 0usize;
    let mut quiet_skipped = 0u64;
    for (a, _) in rec.arrays.iter().filter(|_| !profile_only) {
        if a.flags & DN_ARRAY_READY == 0 {
            continue;
        }
        if a.flags & DN_ARRAY_TOUCHED != 0 {
            listed.push(a.id);
        } else if a.id != OTHER {
            if quiet < QUIET_ARRAYS {
                quiet += 1;
                listed.push(a.id);
            } else {
                quiet_skipped += 1;
            }
        }
    }
    let names = Names::build(rec, &listed);
    let arrays: Vec<Value> = listed
        .iter()
        .filter_map(|&id| {
            let i = rec.arrays.binary_search_by_key(&id, |a| a.0.id).ok()?;
            let a = &rec.arrays[i].0;
            let kind = if a.flags & DN_ARRAY_VLA != 0 {
                "stack"
            } else {
                kind_name(a.kind)
            };
            let allocated_at = if a.flags & DN_ARRAY_ALLOCATED_AT != 0 {
                json!({
                    "function": text(rec.str(a.alloc_function)),
                    "file": text(rec.str(a.alloc_file)),
                    "line": a.alloc_line,
                })
            } else {
                Value::Null
            };
            Some(json!({
                "id": id,
                "name": names.get(id),
                "kind": kind,
                "element_type": if id == OTHER { Value::Null } else { fp_type_name(a.elem_ty).into() },
                "elements": a.elements,
                "shape": if a.rows > 0 && a.cols > 0 { json!([a.rows, a.cols]) } else { Value::Null },
                "allocated_at": allocated_at,
                "denormal_reads": a.reads,
                "denormal_writes": a.writes,
                "role": role(a.reads, a.writes),
                "live": a.flags & DN_ARRAY_LIVE != 0,
            }))
        })
        .collect();

    // ---- origins and creators (merged over threads) ----
    let mut pairs: Vec<(u32, u32, u64)> = rec
        .pairs
        .iter()
        .filter(|_| !profile_only)
        .map(|p| (p.dest, p.src, p.count))
        .collect();
    pairs.sort_unstable();
    let mut opairs: Vec<(u32, u32, u64)> = Vec::new();
    for (d, sr, c) in pairs {
        match opairs.last_mut() {
            Some(l) if l.0 == d && l.1 == sr => l.2 += c,
            _ => opairs.push((d, sr, c)),
        }
    }
    opairs.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    let origins: Vec<Value> = opairs
        .iter()
        .map(|&(d, sr, c)| json!({"dest": names.get(d), "src": names.get(sr), "count": c}))
        .collect();

    // (tag, site, count), merged by tag.
    let mut ckeys: Vec<(u64, u32, u64)> = rec
        .creators
        .iter()
        .filter(|_| !profile_only)
        .map(|c| (c.key, c.site, c.count))
        .collect();
    ckeys.sort_unstable_by_key(|c| (c.0, c.1));
    let mut creators: Vec<(u64, u32, u64)> = Vec::new();
    for (k, s, c) in ckeys {
        match creators.last_mut() {
            Some(l) if l.0 == k => l.2 += c,
            _ => creators.push((k, s, c)),
        }
    }
    let located = |site: u32| -> Option<&DnSite> {
        rec.sites
            .get(site as usize)
            .filter(|s| site != NONE && s.rflags & DN_SITE_HAS_LOC != 0)
    };
    // One row per (array, function, file, line, op): copies of one source operation that
    // are distinct creators (another module's copy of a header's inline function,
    // another column of the line) would otherwise read as duplicate rows.
    type CreatorRow<'a> = (u32, &'a [u8], &'a [u8], u32, &'a [u8], u64);
    let row = |k: u64, site: u32| -> CreatorRow<'_> {
        let id = tag_origin(k);
        match located(site) {
            Some(s) => (
                id,
                rec.str(s.function),
                rec.str(s.file),
                s.line,
                rec.str(s.op),
                0,
            ),
            None => (id, b"", b"", 0, b"", k),
        }
    };
    creators.sort_by(|a, b| row(a.0, a.1).cmp(&row(b.0, b.1)).then(a.0.cmp(&b.0)));
    let mut crows: Vec<(u64, u32, u64)> = Vec::new();
    for (k, s, c) in creators {
        match crows.last_mut() {
            Some(l) if row(l.0, l.1) == row(k, s) => l.2 += c,
            _ => crows.push((k, s, c)),
        }
    }
    crows.sort_by(|a, b| {
        tag_origin(a.0)
            .cmp(&tag_origin(b.0))
            .then(b.2.cmp(&a.2))
            .then(a.0.cmp(&b.0))
    });
    let creators: Vec<Value> = crows
        .iter()
        .map(|&(k, site, c)| {
            let mut m = Map::new();
            m.insert("array".into(), names.get(tag_origin(k)));
            match located(site) {
                Some(s) => {
                    m.insert("function".into(), text(rec.str(s.function)).into());
                    m.insert("file".into(), text(rec.str(s.file)).into());
                    m.insert("line".into(), s.line.into());
                    m.insert("op".into(), text(rec.str(s.op)).into());
                }
                None => {
                    m.insert("function".into(), "<unknown>".into());
                    m.insert("file".into(), "".into());
                    m.insert("line".into(), 0.into());
                    let op = rec
                        .sites
                        .get(site as usize)
                        .map_or(&[][..], |s| rec.str(s.op));
                    m.insert("op".into(), text(op).into());
                }
            }
            m.insert("count".into(), c.into());
            Value::Object(m)
        })
        .collect();

    // ---- snapshots ----
    let snapshots: Vec<Value> = rec
        .snapshots
        .iter()
        .map(|h| {
            let arrays: Vec<Value> = h
                .arrays
                .iter()
                .filter(|_| !profile_only)
                .map(|(e, rc, wc)| {
                    json!({
                        "id": e.id,
                        "denormal_reads": e.reads,
                        "denormal_writes": e.writes,
                        "heatmap": if e.has_heatmap {
                            json!({
                                "rows": e.hm_rows,
                                "cols": e.hm_cols,
                                "cell": [e.cell_r, e.cell_c],
                                "reads": rc,
                                "writes": wc,
                            })
                        } else {
                            Value::Null
                        },
                    })
                })
                .collect();
            json!({
                "index": h.info.index,
                "label": text(&h.label),
                "fp_operations": h.info.fp_operations,
                "arrays": arrays,
            })
        })
        .collect();

    // ---- cumulative origin maps ----
    let mut maps: Vec<&read::OriginMap> =
        rec.origin_maps.iter().filter(|_| !profile_only).collect();
    maps.sort_by_key(|m| (m.info.dest, m.info.src));
    let origin_maps: Vec<Value> = maps
        .iter()
        .map(|m| {
            let shape = (m.info.rows > 0 && m.info.cols > 0).then_some((m.info.rows, m.info.cols));
            let g = Grid::new(m.info.elements, shape);
            let mut cells = vec![0u32; g.cells()];
            for &(i, v) in &m.cells {
                if v != 0 {
                    if let Some(o) = cells.get_mut(g.cell(i)) {
                        *o = o.saturating_add(v);
                    }
                }
            }
            json!({
                "dest": names.get(m.info.dest),
                "src": names.get(m.info.src),
                "rows": g.hm_rows,
                "cols": g.hm_cols,
                "cell": [g.cell_r, g.cell_c],
                "counts": cells,
            })
        })
        .collect();

    // ---- warnings ----
    let mut warnings: Vec<String> = Vec::new();
    if ftz || daz {
        warnings.push(format!(
            "nothing to trace: denormals are flushed to zero (MXCSR{}{} set; start {:#x}, exit {:#x}): build without -ffast-math / -Ofast, or clear FTZ and DAZ",
            if ftz { " FTZ" } else { "" },
            if daz { " DAZ" } else { "" },
            env.start,
            env.end
        ));
    }
    if changed {
        warnings.push(format!(
            "the program changed the floating-point control register (MXCSR {:#x} at start, {:#x} at exit)",
            env.start, env.end
        ));
    }
    if rec.exit == Exit::Running {
        warnings.push(
            "written while the program was still running (tp_write_report); the report written at exit replaces it".into(),
        );
    }
    let modules = if rec.has_counter(DN_COUNT_MODULES) {
        rec.counter(DN_COUNT_MODULES)
    } else {
        rec.modules.len() as u64
    };
    if modules == 0 {
        warnings.push("no denormal-mode module registered".into());
    }
    if n_profile > 0 && n_full > 0 {
        warnings.push(format!(
            "{n_profile} of {} modules were built in the profile tier (--tp-denormal=profile): the instruction profile and the creator sites cover every module, but arrays, origins and heatmaps cover only the code of the {n_full} full-tier module(s)",
            n_profile + n_full
        ));
    }
    let cb = rec.counter(DN_COUNT_CLAMPED_BLOCKS);
    if cb > 0 {
        warnings.push(format!(
            "{cb} module(s) share block counters with others (too many basic blocks): their executions and fp_operations are approximate"
        ));
    }
    let cs = rec.counter(DN_COUNT_CLAMPED_SITES);
    if cs > 0 || overflow_events > 0 {
        warnings.push(format!(
            "{cs} module(s) had no room for site counters: {overflow_events} denormal events are in the totals but not in sites"
        ));
    }
    let other = rec.counter(DN_COUNT_OTHER_ARRAYS);
    if other > 0 {
        warnings.push(format!(
            "{other} array(s) got no id (more than {} marked arrays): they are counted together as '<other>', without heatmaps or origins",
            rec.counter(DN_LIMIT_MAX_ID)
        ));
    }
    if quiet_skipped > 0 {
        warnings.push(format!(
            "{quiet_skipped} more array(s) without denormals are not listed"
        ));
    }
    let imp = rec.counter(DN_COUNT_IMPLICIT_RELEASES);
    if imp > 0 {
        warnings.push(format!(
            "{imp} array(s) were released implicitly: their memory was reused without an instrumented free (freed by uninstrumented code?)"
        ));
    }
    let full = rec.counter(DN_COUNT_TABLE_FULL);
    if full > 0 {
        warnings.push(format!(
            "{full} array(s) could not be tracked (too many live arrays, or out of memory)"
        ));
    }
    let sf = rec.counter(DN_COUNT_STACK_FULL);
    if sf > 0 {
        warnings.push(format!(
            "{sf} stack-array instance(s) were not tracked (more than {} live in one thread)",
            rec.counter(DN_LIMIT_STACK_CAP)
        ));
    }
    let dc = rec.counter(DN_COUNT_DROPPED_CREATORS);
    let dp = rec.counter(DN_COUNT_DROPPED_PAIRS);
    if dc > 0 || dp > 0 {
        warnings.push(format!(
            "too many distinct creators or origin pairs: {dc} creator and {dp} origin event(s) were not recorded"
        ));
    }
    let sk = rec.counter(DN_COUNT_SNAPSHOTS_SKIPPED);
    if sk > 0 {
        warnings.push(format!(
            "{sk} snapshot(s) were skipped: the snapshots reached TAINTPROF_SNAPSHOT_MEMORY={} MiB (the next snapshot covers the longer interval)",
            rec.counter(DN_LIMIT_SNAPSHOT_MEMORY_MIB)
        ));
    }
    let sfl = rec.counter(DN_COUNT_SNAPSHOTS_FAILED);
    if sfl > 0 {
        warnings.push(format!(
            "{sfl} snapshot(s) could not be taken (out of memory, or a snapshot in progress when the program ended)"
        ));
    }
    if rec.counter(DN_COUNT_INCOMPLETE) > 0 {
        warnings.push(
            "the runtime ran out of memory while writing this report: it is incomplete".into(),
        );
    }

    json!({
        "schema": "taintprof.denormal",
        "version": 2,
        "mode": "compiler",
        "tier": tier_name,
        "taintprof_version": text(&rec.version),
        "program": {
            "name": text(&rec.name),
            "path": text(&rec.path),
            "argv": rec.argv.iter().map(|a| Value::from(text(a))).collect::<Vec<_>>(),
            "pid": rec.run.pid,
        },
        "exit": exit_json(rec.exit, rec.loops_in_flight as u64),
        "threads": rec.run.threads,
        "fp_environment": {
            "ftz": ftz,
            "daz": daz,
            "mxcsr": format!("{:#x}", env.start),
            "mxcsr_at_exit": format!("{:#x}", env.end),
            "changed_by_program": changed,
        },
        "totals": {
            "fp_operations": rec.run.fp_operations,
            "denormal_operands": t_ops,
            "denormal_results": t_res,
            "denormal_loads": t_loads,
            "denormal_stores": t_stores,
            "created": t_created,
        },
        "sites": sites,
        "arrays": arrays,
        "origins": origins,
        "creators": creators,
        "creator_sites": creator_sites,
        "snapshots": snapshots,
        "origin_maps": origin_maps,
        "timeline": [],
        "warnings": warnings,
    })
}

/// Reads the denormal record at `path` and makes its report.
pub fn denormal_report_of_file(path: &Path) -> Result<Value, DnError> {
    Ok(denormal_report(&read::read_file(path)?))
}

/// The report as text the way the runtime wrote it: containers indented by two spaces
/// down to `pretty_depth` levels, compact below (heatmaps and origin maps stay one line
/// each), and a final newline.
pub fn to_text(v: &Value, pretty_depth: usize) -> String {
    fn write(out: &mut String, v: &Value, depth: usize, pretty: usize) {
        let newline = |out: &mut String, d: usize| {
            if depth < pretty {
                out.push('\n');
                for _ in 0..d {
                    out.push_str("  ");
                }
            }
        };
        match v {
            Value::Object(m) => {
                out.push('{');
                for (i, (k, x)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, depth + 1);
                    out.push_str(&Value::from(k.as_str()).to_string());
                    out.push_str(if depth < pretty { ": " } else { ":" });
                    write(out, x, depth + 1, pretty);
                }
                if !m.is_empty() {
                    newline(out, depth);
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, depth + 1);
                    write(out, x, depth + 1, pretty);
                }
                if !a.is_empty() {
                    newline(out, depth);
                }
                out.push(']');
            }
            x => out.push_str(&x.to_string()),
        }
    }
    let mut out = String::new();
    write(&mut out, v, 0, pretty_depth);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_indented_down_to_the_rows_and_compact_below() {
        let v = json!({"a": [{"b": [1, 2], "c": {"d": null}}], "e": [], "f": "x\"y"});
        let t = to_text(&v, 3);
        let back: Value = serde_json::from_str(&t).unwrap();
        assert_eq!(back, v);
        assert_eq!(
            t,
            "{\n  \"a\": [\n    {\n      \"b\": [1,2],\n      \"c\": {\"d\":null}\n    }\n  ],\n  \"e\": [],\n  \"f\": \"x\\\"y\"\n}\n"
        );
    }

    /// Writes a record through the runtime's writer and reads it back.
    struct Rec {
        w: DnWriter<Vec<u8>>,
        strs: Vec<(String, u32)>,
    }

    impl Rec {
        fn new() -> Rec {
            let mut w = DnWriter::new(Vec::new());
            w.run(
                &DnRun {
                    pid: 7,
                    abi_version: 11,
                    threads: 1,
                    flags: 0,
                    fp_operations: 1000,
                },
                b"p",
                b"/p",
                b"0",
            );
            w.exit(Exit::Normal(0), 0);
            Rec { w, strs: vec![] }
        }

        fn s(&mut self, x: &str) -> u32 {
            if let Some(&(_, id)) = self.strs.iter().find(|(k, _)| k == x) {
                return id;
            }
            let id = self.w.string(x.as_bytes());
            self.strs.push((x.to_string(), id));
            id
        }

        fn module(&mut self, flags: u32, sites: &[(&str, u32, u32, &str, u16, DnCounts)]) {
            let src = self.s("k.c");
            self.w.module(&DnModule {
                n_sites: sites.len() as u32,
                n_blocks: 1,
                flags,
                source: src,
            });
            for &(f, line, column, op, lanes, counts) in sites {
                let (f, file, op) = (self.s(f), src, self.s(op));
                self.w.site(&DnSite {
                    function: f,
                    linkage: f,
                    file,
                    line,
                    column,
                    op,
                    ty: taintprof_abi::FP_FLOAT,
                    lanes,
                    flags: 0,
                    rflags: DN_SITE_HAS_LOC,
                    counts,
                });
            }
        }

        /// An array with a denormal, its origin pair, creator, snapshot and origin map.
        fn array_data(&mut self) {
            let name = b"grid";
            self.w.array(
                &DnArray {
                    id: 1,
                    kind: ARRAY_HEAP as u32,
                    elem_ty: taintprof_abi::FP_FLOAT,
                    flags: DN_ARRAY_READY | DN_ARRAY_TOUCHED,
                    elements: 4,
                    reads: 3,
                    writes: 1,
                    alloc_function: NONE,
                    alloc_file: NONE,
                    ..DnArray::default()
                },
                name,
            );
            self.w.pair(&DnPair {
                dest: 1,
                src: 1,
                count: 1,
            });
            self.w.creator(&DnCreator {
                key: 1 << 48,
                site: 0,
                count: 4,
            });
            self.w.snapshot(
                &DnSnapshot {
                    index: 0,
                    fp_operations: 1000,
                },
                b"exit",
            );
            self.w.snap_array(
                &DnSnapArray {
                    id: 1,
                    has_heatmap: true,
                    reads: 3,
                    writes: 1,
                    hm_rows: 2,
                    hm_cols: 2,
                    cell_r: 1,
                    cell_c: 1,
                },
                &[1, 1, 1, 0],
                &[1, 0, 0, 0],
            );
            self.w.origin_map(
                &DnOriginMap {
                    dest: 1,
                    src: 1,
                    elements: 4,
                    rows: 0,
                    cols: 0,
                },
                [(0u64, 1u32)].into_iter(),
            );
        }

        fn report(mut self, overflow: DnOverflow) -> Value {
            self.w.overflow(&overflow);
            let f = self.w.finish();
            assert!(f.ok);
            denormal_report(&read::read(&f.out).unwrap())
        }
    }

    fn counts(results: u64, created: u64) -> DnCounts {
        DnCounts {
            executions: 10,
            operands: results - created,
            operand_ops: results - created,
            results,
            created,
            ..DnCounts::default()
        }
    }

    fn tier_warnings(v: &Value) -> Vec<&str> {
        v["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|w| w.as_str())
            .filter(|w| w.contains("profile tier"))
            .collect()
    }

    #[test]
    fn without_profile_modules_the_tier_is_full_with_everything() {
        let mut r = Rec::new();
        r.module(0, &[("f", 3, 5, "fmul", 1, counts(4, 4))]);
        r.array_data();
        let v = r.report(DnOverflow::default());
        assert_eq!(v["tier"], "full");
        assert!(tier_warnings(&v).is_empty(), "{v}");
        assert_eq!(v["arrays"].as_array().unwrap().len(), 1);
        assert_eq!(v["origins"].as_array().unwrap().len(), 1);
        assert_eq!(v["creators"].as_array().unwrap().len(), 1);
        assert_eq!(v["origin_maps"].as_array().unwrap().len(), 1);
        assert_eq!(v["snapshots"][0]["arrays"].as_array().unwrap().len(), 1);
        // The keys in the schema's order: `tier` after `mode`, `creator_sites` after
        // `creators`, `created` last in totals and sites.
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(&keys[..4], ["schema", "version", "mode", "tier"]);
        let at = |k: &str| keys.iter().position(|x| *x == k).unwrap();
        assert_eq!(at("creator_sites"), at("creators") + 1);
        assert_eq!(
            v["totals"].as_object().unwrap().keys().next_back().unwrap(),
            "created"
        );
        assert_eq!(
            v["sites"][0]
                .as_object()
                .unwrap()
                .keys()
                .next_back()
                .unwrap(),
            "created"
        );
    }

    #[test]
    fn profile_modules_only_make_the_profile_tier_without_arrays() {
        let mut r = Rec::new();
        r.module(DN_MODULE_PROFILE, &[("f", 3, 5, "fmul", 1, counts(4, 4))]);
        r.module(DN_MODULE_PROFILE, &[("g", 9, 1, "fadd", 1, counts(2, 0))]);
        // Whatever a record holds besides, a profile-tier program has no arrays.
        r.array_data();
        let v = r.report(DnOverflow::default());
        assert_eq!(v["tier"], "profile");
        assert!(tier_warnings(&v).is_empty(), "{v}");
        for k in ["arrays", "origins", "creators", "origin_maps"] {
            assert_eq!(v[k], json!([]), "{k}");
        }
        assert_eq!(v["snapshots"][0]["label"], "exit");
        assert_eq!(v["snapshots"][0]["arrays"], json!([]));
        // The instruction profile and the creator sites stay.
        assert_eq!(v["sites"].as_array().unwrap().len(), 2);
        assert_eq!(v["creator_sites"][0]["function"], "f");
        assert_eq!(v["creator_sites"].as_array().unwrap().len(), 1);
        assert_eq!(v["totals"]["created"], 4);
    }

    #[test]
    fn profile_and_full_modules_together_are_the_profile_tier_with_a_warning() {
        let mut r = Rec::new();
        r.module(DN_MODULE_PROFILE, &[("f", 3, 5, "fmul", 1, counts(4, 4))]);
        r.module(0, &[("g", 9, 1, "fadd", 1, counts(2, 1))]);
        r.module(DN_MODULE_PROFILE, &[]);
        r.array_data();
        let v = r.report(DnOverflow::default());
        assert_eq!(v["tier"], "profile");
        let w = tier_warnings(&v);
        assert_eq!(w.len(), 1, "{v}");
        assert!(
            w[0].starts_with("2 of 3 modules were built in the profile tier"),
            "{}",
            w[0]
        );
        assert!(
            w[0].contains(
                "arrays, origins and heatmaps cover only the code of the 1 full-tier module"
            ),
            "{}",
            w[0]
        );
        // The full-tier module's arrays are reported.
        assert_eq!(v["arrays"][0]["name"], "grid");
        assert_eq!(v["origin_maps"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn creator_sites_are_the_rows_that_created_denormals_merged_and_sorted() {
        let mut r = Rec::new();
        r.module(
            0,
            &[
                // A vectorized copy and its remainder: one row, their counts summed.
                ("f", 20, 3, "fmul", 4, counts(8, 3)),
                ("f", 20, 3, "fmul", 1, counts(5, 4)),
                // Another row with as many created results, at an earlier position.
                ("g", 10, 9, "call expf", 1, counts(7, 7)),
                ("g", 11, 2, "fdiv", 1, counts(9, 0)),
                ("h", 30, 1, "fsub", 1, counts(1, 1)),
            ],
        );
        let v = r.report(DnOverflow {
            results: 2,
            created: 2,
            ..DnOverflow::default()
        });
        let fmul = v["sites"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["op"] == "fmul")
            .unwrap();
        assert_eq!(fmul["lanes"], json!([1, 4]));
        assert_eq!(fmul["created"], 7);
        assert_eq!(fmul["denormal_results"], 13);
        let made: Vec<(&str, u64, u64)> = v["creator_sites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["op"].as_str().unwrap(),
                    c["line"].as_u64().unwrap(),
                    c["created"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            made,
            [("call expf", 10, 7), ("fmul", 20, 7), ("fsub", 30, 1)]
        );
        let row = &v["creator_sites"][1];
        let keys: Vec<&str> = row
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(
            keys,
            ["function", "file", "line", "column", "op", "type", "created"]
        );
        assert_eq!(
            (row["function"].as_str(), row["file"].as_str()),
            (Some("f"), Some("k.c"))
        );
        assert_eq!(
            (row["column"].as_u64(), row["type"].as_str()),
            (Some(3), Some("float"))
        );
        // Totals: every site's created results and those without a site slot.
        assert_eq!(v["totals"]["created"], 3 + 4 + 7 + 1 + 2);
        // No created results: no creator sites.
        let mut r = Rec::new();
        r.module(0, &[("g", 11, 2, "fdiv", 1, counts(9, 0))]);
        let v = r.report(DnOverflow::default());
        assert_eq!(v["creator_sites"], json!([]));
        assert_eq!(v["sites"][0]["created"], 0);
        assert_eq!(v["tier"], "full");
    }

    #[test]
    fn roles_and_grids() {
        assert_eq!(role(0, 0), "none");
        assert_eq!(role(10, 1), "source");
        assert_eq!(role(1, 10), "sink");
        assert_eq!(role(5, 1), "propagates");
        let g = Grid::new(512 * 512, None);
        assert_eq!((g.hm_rows, g.hm_cols, g.cell_r, g.cell_c), (256, 256, 2, 2));
        assert_eq!(g.cell(512 * 512 - 1), 256 * 256 - 1);
        assert_eq!(fold(10), (3, 4));
    }
}
