//! The program as the record describes it, resolved for the analysis: every module's
//! strings unified into one table ordered by content, and the functions, loops, sites
//! and branches of all modules in one global index space each (the record's global
//! indices: a module's base plus the local index). References between descriptors
//! (`LOOP.parent`, `SITE.loop`, `BRANCH.site`, successors) are module-local in the
//! record and global here.
//!
//! Why a sorted string table: the runtime compares source positions by their strings'
//! bytes (the runtime's former `model.rs`, `cmp_fn`, `cmp_frame`); with string ids ordered like their
//! bytes, a [`Loc`] compares by integers and is `Copy`, which keeps the logical tree of
//! millions of contexts cheap.

use std::cmp::Ordering;

use taintprof_record::merge::Merged;
use taintprof_record::NONE;

/// A source position (the runtime's `SrcLoc`) with strings as ids of
/// [`Program::strings`] (id order is byte order; the empty string is id 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    pub function: u32,
    pub linkage: u32,
    pub file: u32,
    pub fn_line: u32,
    pub line: u32,
    pub column: u32,
}

/// Function identity: (linkage name, file).
pub fn cmp_fn(a: &Loc, b: &Loc) -> Ordering {
    (a.linkage, a.file).cmp(&(b.linkage, b.file))
}

/// Frame identity and order: function, file, line, column, then linkage name.
pub fn cmp_frame(a: &Loc, b: &Loc) -> Ordering {
    (a.function, a.file, a.line, a.column, a.linkage)
        .cmp(&(b.function, b.file, b.line, b.column, b.linkage))
}

/// A function descriptor (`FuncDesc`).
#[derive(Clone, Copy, Debug)]
pub struct FuncInfo {
    pub loc: Loc,
    pub flags: u32,
}

/// A loop descriptor (`LoopDesc`) with its inline chain.
#[derive(Clone, Debug)]
pub struct LoopInfo {
    pub flags: u32,
    pub const_trip: u64,
    /// Enclosing loop, global index ([`NONE`]).
    pub parent: u32,
    /// Library loops: routine and cost (string ids; the empty string if none).
    pub routine: u32,
    pub cost: u32,
    pub chain: Vec<Loc>,
}

/// A call or branch position (`SiteDesc`) with its inline chain.
#[derive(Clone, Debug)]
pub struct SiteInfo {
    /// Innermost loop around it, global index ([`NONE`]).
    pub loop_: u32,
    pub chain: Vec<Loc>,
}

/// A branch (the static half of `BranchRec`).
#[derive(Clone, Debug)]
pub struct BranchInfo {
    pub flags: u16,
    /// Global site index.
    pub site: u32,
    /// Global site indices of the successors.
    pub succ: Vec<u32>,
}

/// The module tables of a [`Merged`], resolved (see the module comment).
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Every string of every module, sorted and unique; id 0 is the empty string.
    pub strings: Vec<Vec<u8>>,
    pub funcs: Vec<FuncInfo>,
    pub loops: Vec<LoopInfo>,
    pub sites: Vec<SiteInfo>,
    pub branches: Vec<BranchInfo>,
}

impl Program {
    pub fn new(merged: &Merged) -> Program {
        let mut strings: Vec<Vec<u8>> = vec![Vec::new()];
        for m in &merged.modules.list {
            strings.extend(m.strings.iter().cloned());
        }
        strings.sort_unstable();
        strings.dedup();
        let mut p = Program {
            strings,
            ..Program::default()
        };
        for m in &merged.modules.list {
            let ids: Vec<u32> = m
                .strings
                .iter()
                .map(|s| p.strings.binary_search(s).map_or(0, |i| i as u32))
                .collect();
            let sid = |id: u32| -> u32 {
                if id == NONE {
                    0
                } else {
                    ids.get(id as usize).copied().unwrap_or(0)
                }
            };
            let loc = |l: &taintprof_record::Loc| Loc {
                function: sid(l.function),
                linkage: sid(l.linkage),
                file: sid(l.file),
                fn_line: l.fn_line,
                line: l.line,
                column: l.column,
            };
            let global = |base: u32, local: u32| {
                if local == NONE {
                    NONE
                } else {
                    base + local
                }
            };
            let b = m.base;
            debug_assert_eq!(b.funcs as usize, p.funcs.len());
            for f in &m.funcs {
                p.funcs.push(FuncInfo {
                    loc: loc(&f.loc),
                    flags: f.flags,
                });
            }
            for l in &m.loops {
                p.loops.push(LoopInfo {
                    flags: l.desc.flags,
                    const_trip: l.desc.const_trip_count,
                    parent: global(b.loops, l.desc.parent),
                    routine: sid(l.desc.routine),
                    cost: sid(l.desc.cost),
                    chain: l.chain.iter().map(loc).collect(),
                });
            }
            for s in &m.sites {
                p.sites.push(SiteInfo {
                    loop_: global(b.loops, s.site.loop_),
                    chain: s.chain.iter().map(loc).collect(),
                });
            }
            for br in &m.branches {
                p.branches.push(BranchInfo {
                    flags: br.branch.flags,
                    site: global(b.sites, br.branch.site),
                    succ: br.succ.iter().map(|&s| global(b.sites, s)).collect(),
                });
            }
        }
        p
    }

    /// The bytes of string `id` (empty if out of range).
    pub fn str(&self, id: u32) -> &[u8] {
        self.strings.get(id as usize).map_or(&[][..], |s| &s[..])
    }

    /// The chain of site `s` (empty for [`NONE`]).
    pub fn site_chain(&self, s: u32) -> &[Loc] {
        self.sites.get(s as usize).map_or(&[][..], |x| &x.chain[..])
    }
}
