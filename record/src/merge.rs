//! Merging records (feature `std`): the MPI ranks of one run, repeated runs, the
//! experiments of a performance model.
//!
//! The result, [`Merged`], is what the offline analysis works on (one record is the
//! merge of one):
//!
//! * **Modules** are matched by source path and [`Module::content_hash`] (and their
//!   table sizes): the same translation unit of the same binary in every record,
//!   wherever the binary was installed. Their strings are unified by content; their
//!   site tables, which list the sites a run reached, are unified by content (flags,
//!   loop, inline chain). A source path with two contents (two builds) gives two
//!   modules, and a warning.
//! * **Parameters** are unified by name, in order of first appearance (record 0's
//!   registration order first); every label is rewritten to the unified bits. The
//!   control-flow split survives if every record that registered parameters had it and
//!   at most 8 names result; otherwise the twins are folded onto their parameters.
//!   More than 16 names is an error. Each record's own list stays in its
//!   [`Experiment`]. A parameter's flags are ORed over the records
//!   ([`Merged::param_flags`]: implicit in one record, implicit in the merge).
//! * **Trees** of every thread of every record become one tree, a node per path of
//!   (site, function) from the root (children of the root by function alone, as in the
//!   runtime). Loop records of the same (node, loop) are merged: labels ORed,
//!   executions summed. Folded calls and recursive functions are unions.
//! * **Branch states** of the same branch: labels and taken bits ORed, executions summed.
//! * **In-flight loops** are kept one by one, with their experiment and merged node.
//! * **Per record**, each [`Experiment`] keeps the union of its loop records per merged
//!   loop ([`Experiment::loops`], over all its threads and contexts): what the merged
//!   tree no longer tells apart, so that a merged result can say where records (MPI
//!   ranks) disagree about a loop's parameters.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;

use std::prelude::rust_2021::*;
use std::{format, vec};

use crate::format::*;
use crate::read::{
    content_hash, Bases, BranchEntry, LoopEntry, Module, Modules, Params, Record, Run, SiteEntry,
    Thread, Trailer,
};

/// Why records cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// Nothing to merge.
    NoRecords,
    /// The records registered more distinct parameter names than a label has bits.
    TooManyParameters(Vec<Vec<u8>>),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoRecords => write!(f, "no records to merge"),
            MergeError::TooManyParameters(names) => {
                write!(
                    f,
                    "the records register {} distinct parameters, more than the 16 a label holds:",
                    names.len()
                )?;
                for n in names {
                    write!(f, " {}", String::from_utf8_lossy(n))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// One input record, as far as it is not merged into the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    pub run: Run,
    /// The parameters as this record registered them.
    pub params: Params,
    /// `None` if the record was incomplete.
    pub trailer: Option<Trailer>,
    pub threads: u32,
    pub nodes: u64,
    /// Label bit `b` of this record's labels becomes the bits `label_map[b]` of the
    /// merged labels (0: a bit no parameter of this record has).
    pub label_map: [u16; 16],
    /// Labels that had such unmapped bits (dropped).
    pub unmapped_labels: u64,
    /// This record's loop records per merged loop, over all its threads and contexts
    /// (in-flight loops not included: they are in [`Merged::inflight`]), sorted by loop.
    pub loops: Vec<ExperimentLoop>,
}

/// One loop of one record, its records combined: labels ORed (merged bits), executions
/// summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExperimentLoop {
    /// Global loop index of [`Merged::modules`].
    pub loop_: u32,
    pub label: u16,
    pub executions: u64,
}

/// A loop in flight in one of the records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MergedInFlight {
    /// Index in [`Merged::experiments`].
    pub experiment: u32,
    /// Thread ordinal in that record.
    pub thread: u32,
    pub depth: u32,
    /// Node of [`Merged::tree`].
    pub node: u32,
    /// Global loop index of [`Merged::modules`].
    pub loop_: u32,
    /// Merged label bits.
    pub label: u16,
}

/// Several records combined (see the module comment).
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    pub modules: Modules,
    /// Unified parameter names: label bit `i` (and `i + label_shift` if the shift is not
    /// 0) is `params[i]`.
    pub params: Vec<Vec<u8>>,
    /// The flags of `params[i]` (`PARAM_IMPLICIT`, `PARAM_VALUE_CHANGED`), ORed over the
    /// records that registered it.
    pub param_flags: Vec<u16>,
    /// 0 or 8, as [`LabelLayout::shift`].
    pub label_shift: u16,
    pub experiments: Vec<Experiment>,
    /// All threads of all records, one tree (its `info` is all zero).
    pub tree: Thread,
    pub inflight: Vec<MergedInFlight>,
    /// By branch index.
    pub branches: Vec<BranchState>,
    /// What a reader of the result should know (modules kept apart, incomplete
    /// records, dropped label bits).
    pub warnings: Vec<String>,
}

/// A site by content: flags, loop, inline chain (unified string ids).
type SiteKey = (u32, u32, Vec<Loc>);

/// A unified module being built.
struct UModule {
    m: Module,
    strings: HashMap<Vec<u8>, u32>,
    sites: HashMap<SiteKey, u32>,
}

impl UModule {
    fn intern(&mut self, s: &[u8]) -> u32 {
        if let Some(&i) = self.strings.get(s) {
            return i;
        }
        let i = self.m.strings.len() as u32;
        self.m.strings.push(s.to_vec());
        self.strings.insert(s.to_vec(), i);
        i
    }
}

fn map_str(map: &[u32], id: u32) -> u32 {
    if id == NONE {
        NONE
    } else {
        map.get(id as usize).copied().unwrap_or(NONE)
    }
}

fn map_loc(map: &[u32], l: &Loc) -> Loc {
    Loc {
        function: map_str(map, l.function),
        linkage: map_str(map, l.linkage),
        file: map_str(map, l.file),
        ..*l
    }
}

/// Per record: global index of the record → global index of the merge.
#[derive(Default)]
struct GlobalMaps {
    funcs: Vec<u32>,
    loops: Vec<u32>,
    sites: Vec<u32>,
    branches: Vec<u32>,
}

fn map_opt(map: &[u32], i: u32) -> u32 {
    if i == NONE {
        NONE
    } else {
        map.get(i as usize).copied().unwrap_or(NONE)
    }
}

fn map_label(map: &[u16; 16], l: u16) -> u16 {
    let mut out = 0;
    let mut x = l;
    while x != 0 {
        out |= map[x.trailing_zeros() as usize];
        x &= x - 1;
    }
    out
}

/// Merges `records` (see the module comment).
pub fn merge(records: &[Record]) -> Result<Merged, MergeError> {
    if records.is_empty() {
        return Err(MergeError::NoRecords);
    }
    let mut warnings = Vec::new();

    // Parameters.
    let mut names: Vec<Vec<u8>> = Vec::new();
    for r in records {
        let mut ps: Vec<_> = r.params.params.iter().collect();
        ps.sort_by_key(|p| p.info.bit);
        for p in ps {
            if !names.contains(&p.name) {
                names.push(p.name.clone());
            }
        }
    }
    if names.len() > 16 {
        return Err(MergeError::TooManyParameters(names));
    }
    let mut param_flags = vec![0u16; names.len()];
    for p in records.iter().flat_map(|r| &r.params.params) {
        if let Some(i) = names.iter().position(|n| *n == p.name) {
            param_flags[i] |= p.info.flags;
        }
    }
    let split = CTRL_SHIFT;
    let shift = if names.len() <= 8
        && records
            .iter()
            .filter(|r| !r.params.params.is_empty())
            .all(|r| r.params.layout.shift == split)
    {
        split
    } else {
        0
    };
    let label_maps: Vec<[u16; 16]> = records
        .iter()
        .map(|r| {
            let mut map = [0u16; 16];
            for (b, slot) in map.iter_mut().enumerate() {
                let b = b as u16;
                let s = r.params.layout.shift;
                let (p, control) = if s > 0 && b >= s {
                    (b - s, true)
                } else {
                    (b, false)
                };
                let Some(q) = r
                    .params
                    .params
                    .iter()
                    .find(|x| x.info.bit == p as u32)
                    .and_then(|x| names.iter().position(|n| *n == x.name))
                else {
                    continue;
                };
                let q = q as u16 + if control && shift > 0 { shift } else { 0 };
                *slot = 1 << q;
            }
            map
        })
        .collect();

    // Modules.
    let mut unified: Vec<UModule> = Vec::new();
    let mut by_key: HashMap<(Vec<u8>, u64, usize, usize, usize), usize> = HashMap::new();
    let mut hash_of_source: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut warned_sources: HashSet<Vec<u8>> = HashSet::new();
    // Per record, per module: (unified module, site map).
    let mut module_maps: Vec<Vec<(usize, Vec<u32>)>> = Vec::new();
    for r in records {
        let mut maps = Vec::new();
        for m in &r.modules.list {
            let key = (
                m.source.clone(),
                m.content_hash,
                m.funcs.len(),
                m.loops.len(),
                m.branches.len(),
            );
            let first = *hash_of_source
                .entry(m.source.clone())
                .or_insert(m.content_hash);
            if first != m.content_hash && warned_sources.insert(m.source.clone()) {
                warnings.push(format!(
                    "module '{}' differs between records (another build): its versions are kept apart",
                    String::from_utf8_lossy(&m.source)
                ));
            }
            let (u, new) = match by_key.get(&key) {
                Some(&u) => (u, false),
                None => {
                    let u = unified.len();
                    by_key.insert(key, u);
                    unified.push(UModule {
                        m: Module {
                            info: m.info,
                            source: m.source.clone(),
                            object: m.object.clone(),
                            build_id: m.build_id.clone(),
                            ..Module::default()
                        },
                        strings: HashMap::new(),
                        sites: HashMap::new(),
                    });
                    (u, true)
                }
            };
            let um = &mut unified[u];
            let sid: Vec<u32> = m.strings.iter().map(|s| um.intern(s)).collect();
            let site_map: Vec<u32> = m
                .sites
                .iter()
                .map(|s| {
                    let chain: Vec<Loc> = s.chain.iter().map(|l| map_loc(&sid, l)).collect();
                    let key = (s.site.flags, s.site.loop_, chain);
                    if let Some(&i) = um.sites.get(&key) {
                        return i;
                    }
                    let i = um.m.sites.len() as u32;
                    um.m.sites.push(SiteEntry {
                        site: s.site,
                        chain: key.2.clone(),
                    });
                    um.sites.insert(key, i);
                    i
                })
                .collect();
            if new {
                um.m.funcs = m
                    .funcs
                    .iter()
                    .map(|f| Func {
                        loc: map_loc(&sid, &f.loc),
                        ..*f
                    })
                    .collect();
                um.m.loops = m
                    .loops
                    .iter()
                    .map(|l| LoopEntry {
                        desc: Loop {
                            routine: map_str(&sid, l.desc.routine),
                            cost: map_str(&sid, l.desc.cost),
                            ..l.desc
                        },
                        chain: l.chain.iter().map(|c| map_loc(&sid, c)).collect(),
                    })
                    .collect();
                um.m.branches = m
                    .branches
                    .iter()
                    .map(|b| BranchEntry {
                        branch: Branch {
                            site: map_opt(&site_map, b.branch.site),
                            ..b.branch
                        },
                        succ: b.succ.iter().map(|&s| map_opt(&site_map, s)).collect(),
                    })
                    .collect();
            }
            maps.push((u, site_map));
        }
        module_maps.push(maps);
    }
    let mut modules = Modules::default();
    let mut base = Bases::default();
    for um in unified {
        let mut m = um.m;
        m.base = base;
        m.content_hash = content_hash(&m);
        base.funcs += m.funcs.len() as u32;
        base.loops += m.loops.len() as u32;
        base.sites += m.sites.len() as u32;
        base.branches += m.branches.len() as u32;
        modules.list.push(m);
    }
    let global: Vec<GlobalMaps> = records
        .iter()
        .zip(&module_maps)
        .map(|(r, maps)| {
            let mut g = GlobalMaps::default();
            for (m, (u, site_map)) in r.modules.list.iter().zip(maps) {
                let ub = modules.list[*u].base;
                g.funcs
                    .extend((0..m.funcs.len() as u32).map(|i| ub.funcs + i));
                g.loops
                    .extend((0..m.loops.len() as u32).map(|i| ub.loops + i));
                g.branches
                    .extend((0..m.branches.len() as u32).map(|i| ub.branches + i));
                g.sites.extend(site_map.iter().map(|&s| ub.sites + s));
            }
            g
        })
        .collect();

    // Trees, in-flight loops, branches.
    let mut nodes: Vec<Node> = vec![Node::ROOT];
    let mut index: IntMap<(u32, u32, u32), u32> = IntMap::default();
    // (merged node, loop record) pairs, sorted and combined at the end (cheaper than a
    // map of millions of entries).
    let mut loops: Vec<(u32, LoopRecord)> = Vec::new();
    // The merged tree of similar runs is about as big as the largest record's.
    index.reserve(records.iter().map(Record::node_count).max().unwrap_or(0));
    loops.reserve(
        records
            .iter()
            .flat_map(|r| &r.threads)
            .map(|t| t.loops.len())
            .sum(),
    );
    let mut folded: BTreeSet<Folded> = BTreeSet::new();
    let mut recursive: BTreeSet<u32> = BTreeSet::new();
    let mut inflight = Vec::new();
    let mut branches: IntMap<u32, BranchState> = IntMap::default();
    let mut experiments = Vec::new();
    for (ri, r) in records.iter().enumerate() {
        let g = &global[ri];
        let lmap = &label_maps[ri];
        let mapped: u16 = (0..16)
            .filter(|&b| lmap[b] != 0)
            .fold(0, |a, b| a | (1 << b));
        let mut unmapped = 0u64;
        let mut label = |l: u16| {
            if l & !mapped != 0 {
                unmapped += 1;
            }
            map_label(lmap, l)
        };
        let mut node_maps: Vec<Vec<u32>> = Vec::with_capacity(r.threads.len());
        let mut own: IntMap<u32, (u16, u64)> = IntMap::default();
        for t in &r.threads {
            let mut nm: Vec<u32> = Vec::with_capacity(t.nodes.len());
            for (i, n) in t.nodes.iter().enumerate() {
                let m = if i == 0 {
                    0
                } else {
                    let parent = nm.get(n.parent as usize).copied().unwrap_or(0);
                    let key = (parent, map_opt(&g.sites, n.site), map_opt(&g.funcs, n.func));
                    *index.entry(key).or_insert_with(|| {
                        nodes.push(Node {
                            parent: key.0,
                            site: key.1,
                            func: key.2,
                        });
                        nodes.len() as u32 - 1
                    })
                };
                nm.push(m);
                for rec in t.loops_of(i as u32) {
                    let lr = LoopRecord {
                        loop_: map_opt(&g.loops, rec.loop_),
                        label: label(rec.label),
                        ..*rec
                    };
                    let e = own.entry(lr.loop_).or_default();
                    e.0 |= lr.label;
                    e.1 = e.1.saturating_add(lr.executions);
                    loops.push((m, lr));
                }
            }
            for f in &t.folded {
                folded.insert(Folded {
                    node: nm.get(f.node as usize).copied().unwrap_or(0),
                    site: map_opt(&g.sites, f.site),
                    func: map_opt(&g.funcs, f.func),
                });
            }
            recursive.extend(t.recursive.iter().map(|&f| map_opt(&g.funcs, f)));
            node_maps.push(nm);
        }
        for e in &r.inflight {
            let Some(&node) = node_maps
                .get(e.thread as usize)
                .and_then(|nm| nm.get(e.node as usize))
            else {
                continue;
            };
            inflight.push(MergedInFlight {
                experiment: ri as u32,
                thread: e.thread,
                depth: e.depth,
                node,
                loop_: map_opt(&g.loops, e.loop_),
                label: label(e.label),
            });
        }
        for s in &r.branches {
            let b = map_opt(&g.branches, s.branch);
            let e = branches.entry(b).or_insert(BranchState {
                branch: b,
                ..BranchState::default()
            });
            e.label |= label(s.label);
            e.flags |= s.flags;
            e.taken |= s.taken;
            e.executions = e.executions.saturating_add(s.executions);
        }
        if unmapped > 0 {
            warnings.push(format!(
                "record {ri}: {unmapped} label(s) had bits of no registered parameter; those bits were dropped"
            ));
        }
        if r.trailer.is_none() {
            warnings.push(format!(
                "record {ri} ('{}', pid {}) is incomplete: the writer stopped before its trailer",
                String::from_utf8_lossy(&r.run.name),
                r.run.info.pid
            ));
        }
        let mut own: Vec<ExperimentLoop> = own
            .into_iter()
            .map(|(loop_, (label, executions))| ExperimentLoop {
                loop_,
                label,
                executions,
            })
            .collect();
        own.sort_unstable_by_key(|l| l.loop_);
        experiments.push(Experiment {
            run: r.run.clone(),
            params: r.params.clone(),
            trailer: r.trailer.clone(),
            threads: r.threads.len() as u32,
            nodes: r.node_count() as u64,
            label_map: *lmap,
            unmapped_labels: unmapped,
            loops: own,
        });
    }
    let names_differ = records.iter().any(|r| r.run.name != records[0].run.name);
    if names_differ {
        warnings.push("the records come from programs with different names".to_string());
    }

    loops.sort_unstable_by_key(|(n, r)| (*n, r.loop_));
    let mut recs: Vec<(u32, LoopRecord)> = Vec::with_capacity(loops.len());
    for (n, r) in loops {
        match recs.last_mut() {
            Some((m, e)) if *m == n && e.loop_ == r.loop_ => {
                e.label |= r.label;
                e.flags |= r.flags;
                e.executions = e.executions.saturating_add(r.executions);
            }
            _ => recs.push((n, r)),
        }
    }
    let mut loop_start = Vec::with_capacity(nodes.len() + 1);
    let mut k = 0usize;
    for n in 0..nodes.len() as u32 {
        loop_start.push(k as u32);
        while recs.get(k).is_some_and(|(m, _)| *m == n) {
            k += 1;
        }
    }
    loop_start.push(k as u32);
    let tree = Thread {
        info: ThreadInfo::default(),
        nodes,
        loop_start,
        loops: recs.into_iter().map(|(_, r)| r).collect(),
        folded: folded.into_iter().collect(),
        recursive: recursive.into_iter().collect(),
    };
    let mut branches: Vec<BranchState> = branches.into_values().collect();
    branches.sort_unstable_by_key(|b| b.branch);
    Ok(Merged {
        modules,
        params: names,
        param_flags,
        label_shift: shift,
        experiments,
        tree,
        inflight,
        branches,
        warnings,
    })
}

/// `taintprof_abi::CTRL_SPLIT_SHIFT` (this crate does not depend on the ABI crate).
const CTRL_SHIFT: u16 = 8;

use crate::hash::FastMap as IntMap;
