//! The model of a run (the port of the runtime's former `rt/src/model.rs`): source loops, functions as
//! written, branches, and the logical calling-context tree with its loop nests and
//! volumes, computed from a [`Merged`] record instead of descriptor pointers.
//!
//! ## From physical to logical
//!
//! The record's tree holds *physical* nodes: one per (call site, compiled function)
//! under a parent. At -O2 callees are inlined, so a physical node holds loops and call
//! sites of several source functions. The report wants the program as written, so the
//! model rebuilds a **logical tree** whose nodes are `(frame path, function as
//! written)` ([`crate::paths`]):
//!
//! * A **loop record** of physical node `N` (path `P`) with inline chain `c[0..k]`
//!   belongs to logical node `(P + c[0..k-1], function of c[k-1])`.
//! * A **physical child** `C` of `N` called at site `s` (chain `s[0..m]`) is the logical
//!   node `(P + s[0..m], C's function)`.
//! * The **logical parent** of `(path, f)` is `(path minus its last frame, function of
//!   that frame)`, so -O0 and -O2 give the same tree. Missing ancestors (inlined
//!   functions without loops of their own) are created on the way.
//! * **Recursion** that inlining unrolled (`f` under `f`) is folded onto the first
//!   activation (the function is then recursive).
//!
//! ## Items and nesting
//!
//! An [`Item`] is a loop of a logical node, or the call edge to a child logical node;
//! each has a parent loop item in the same logical node, or none. A loop's physical
//! parent (`LOOP.parent`) and a call's container (`SITE.loop`) place it; a container in
//! an ancestor logical node (code inlined inside a caller's loop) places the call edge
//! from that ancestor; containers of unrelated nodes are skipped. When copies disagree,
//! the deeper candidate wins and a cycle is refused. Containers that never reported (a
//! loop in flight) become items of their own.
//!
//! ## Volumes
//!
//! Bottom-up over logical nodes (deepest first) and post-order over each node's item
//! forest: a loop item is its label times the union of its children; a call item is the
//! callee's inclusive volume (nothing in the exclusive one); a logical node is the union
//! of its top-level items; a function the union over its calling contexts.
//!
//! The loops in flight when the record was written count as one execution each, with
//! the labels their exit tests had seen (as `Node::for_each_loop` does in the runtime).

use std::cmp::Ordering::{self, Equal};
use std::collections::BTreeMap;

use taintprof_abi::{
    BRANCH_SWITCH, BRANCH_TRUNCATED, FUNC_RECURSIVE_STATIC, FUNC_STATICALLY_PRUNED,
    LOOP_CONST_TRIP, LOOP_FOLDED, LOOP_LIBRARY, LOOP_NO_SINK, LOOP_RECURSION,
};
use taintprof_record::merge::Merged;
use taintprof_record::NONE;

use crate::labels::Layout;
use crate::paths::Paths;
use crate::source::{cmp_fn, cmp_frame, Loc, Program};
use crate::volume::{Poly, Term, Volumes};
use taintprof_record::hash::FastMap;

/// Bound on walks up chains that come from records (never trust them to end).
const WALK_LIMIT: usize = 1 << 16;

/// A source loop: every loop descriptor with its identity (function, line, column).
#[derive(Clone, Debug)]
pub struct LoopGroup {
    /// Last entry of the chain: where the loop is written.
    pub key: Loc,
    /// Function group it is written in.
    pub func: u32,
    pub const_trip: u64,
    /// Trip count known at compile time (statically pruned).
    pub static_const: bool,
    pub no_sink: bool,
    /// A recursion loop (`LOOP_RECURSION`).
    pub recursion: bool,
    /// Some descriptor is a natural loop (neither library nor folded).
    pub natural: bool,
    /// The first library-loop descriptor (global loop index), if any.
    pub library: Option<u32>,
    /// Some descriptor is a folded loop.
    pub any_folded: bool,
    /// Union over all executions and contexts (one bit per parameter).
    pub label: u16,
    /// The parameters of `label` that reached the loop through data flow.
    pub data: u16,
    pub executions: u64,
    /// Enclosing loop group in the same function instance, or [`NONE`].
    pub parent: u32,
    /// Range of [`Model::loop_refs`].
    descs: (u32, u32),
    /// Range of [`Model::loop_contexts`].
    pub contexts: (u32, u32),
}

impl LoopGroup {
    /// Only folded descriptors: the optimizer removed the loop from every copy.
    pub fn folded(&self) -> bool {
        self.any_folded && !self.natural && self.library.is_none()
    }

    /// The report's `kind`: `loop`, `library` or `folded`.
    pub fn kind(&self) -> &'static str {
        if self.natural {
            "loop"
        } else if self.library.is_some() {
            "library"
        } else if self.any_folded {
            "folded"
        } else {
            "loop"
        }
    }
}

/// A function as written: (linkage name, file).
#[derive(Clone, Debug)]
pub struct FnGroup {
    pub loc: Loc,
    has_desc: bool,
    flag_pruned: bool,
    pub recursive_dynamic: bool,
    pub recursive_static: bool,
    pub recursive_logical: bool,
    pub statically_pruned: bool,
    pub executed: bool,
    /// Range of [`Model::loops`].
    pub loops: (u32, u32),
    /// Range of [`Model::branches`].
    pub branches: (u32, u32),
    /// Range of [`Model::fn_contexts`].
    pub contexts: (u32, u32),
    pub excl_label: u16,
    pub incl_label: u16,
    pub incl: Poly,
    pub excl: Poly,
}

impl FnGroup {
    pub fn recursive(&self) -> bool {
        self.recursive_dynamic || self.recursive_static || self.recursive_logical
    }
}

/// A logical calling-context node: `(path, function as written)`.
#[derive(Clone, Debug)]
pub struct LNode {
    pub path: u32,
    pub func: u32,
    /// Logical parent, or [`NONE`] at the top of a thread.
    pub parent: u32,
    /// Recursion folded this node onto that ancestor ([`NONE`] otherwise).
    alias: u32,
    depth: u32,
    /// One bit (function index modulo 64) per function of this node and its ancestors:
    /// without `func`'s bit in its parent's mask, a new node folds onto no ancestor
    /// (no walk up a deep tree for every context).
    fn_mask: u64,
    /// The item of this node's call edge in its parent.
    call_item: u32,
    pub incl_label: u16,
    pub incl: Poly,
    pub excl: Poly,
}

/// A loop of a logical node, or a call edge to a child logical node.
#[derive(Clone, Debug)]
pub struct Item {
    /// Loop group, or [`NONE`] for a call item.
    pub group: u32,
    /// For a call item: the callee logical node.
    pub callee: u32,
    /// The logical node the item sits in.
    pub owner: u32,
    /// Enclosing loop item in `owner`, or [`NONE`].
    pub parent: u32,
    pub label: u16,
    pub data: u16,
    pub executions: u64,
    /// A loop record exists (not only created as a container).
    pub recorded: bool,
    pub incl_label: u16,
    /// Inclusive volume of a loop item while the volumes are computed (a call item's is
    /// its callee's `incl`, not copied here). Both volumes of an item are freed once its
    /// logical node's are known: the model keeps the volumes of logical nodes and
    /// functions only.
    pub incl: Poly,
    pub excl: Poly,
}

impl Item {
    fn new(group: u32, callee: u32, owner: u32) -> Item {
        Item {
            group,
            callee,
            owner,
            parent: NONE,
            label: 0,
            data: 0,
            executions: 0,
            recorded: false,
            incl_label: 0,
            incl: Vec::new(),
            excl: Vec::new(),
        }
    }
}

/// A source branch (all records with its position, merged).
#[derive(Clone, Debug)]
pub struct BranchGroup {
    pub key: Loc,
    pub func: u32,
    /// Range of [`Model::branch_refs`].
    refs: (u32, u32),
    pub label: u16,
    pub switch: bool,
    pub truncated: bool,
    pub executed: bool,
}

#[derive(Clone, Copy, Debug)]
struct LoopRef {
    /// Global loop index.
    desc: u32,
    key: Loc,
}

#[derive(Clone, Copy, Debug)]
struct BranchRef {
    /// Global branch index.
    branch: u32,
    key: Loc,
}

/// A physical node with its path.
#[derive(Clone, Copy, Debug)]
struct PNode {
    /// Index in the merged tree.
    node: u32,
    path: u32,
    /// Path of the physical parent (0 for the root).
    parent_path: u32,
    /// Global site index of the call, if it has a chain ([`NONE`] otherwise).
    site: u32,
}

/// Everything the report says (see the module comment).
pub struct Model<'a> {
    pub program: &'a Program,
    merged: &'a Merged,
    layout: Layout,
    loop_refs: Vec<LoopRef>,
    /// Global loop → loop group ([`NONE`]: no chain).
    by_desc: Vec<u32>,
    pub loops: Vec<LoopGroup>,
    pub funcs: Vec<FnGroup>,
    pub paths: Paths,
    /// [`Paths::line_shared`] (computed with the ranks).
    pub line_shared: Vec<bool>,
    pnodes: Vec<PNode>,
    pub lnodes: Vec<LNode>,
    lnode_index: FastMap<(u32, u32), u32>,
    pub items: Vec<Item>,
    item_index: FastMap<(u32, u32), u32>,
    branch_refs: Vec<BranchRef>,
    pub branches: Vec<BranchGroup>,
    /// Recorded loop items, by loop group, then path.
    pub loop_contexts: Vec<u32>,
    /// Logical nodes (not folded) by function, then path.
    pub fn_contexts: Vec<u32>,
    pub volumes: Volumes,
    /// Loop records of loops without a source chain.
    pub unknown_loops: u64,
    /// Loop descriptors without a source chain.
    pub malformed_loops: u64,
    /// (node, loop) → (label union, entries) of the loops in flight.
    inflight: BTreeMap<(u32, u32), (u16, u64)>,
    /// Reused by [`Model::ensure`].
    ensure_scratch: Vec<(u32, u32)>,
}

impl<'a> Model<'a> {
    /// Builds the model of `merged` (with `program`, its resolved tables).
    pub fn build(program: &'a Program, merged: &'a Merged) -> Model<'a> {
        let mut inflight: BTreeMap<(u32, u32), (u16, u64)> = BTreeMap::new();
        for e in &merged.inflight {
            let x = inflight.entry((e.node, e.loop_)).or_default();
            x.0 |= e.label;
            x.1 += 1;
        }
        let mut m = Model {
            program,
            merged,
            layout: Layout {
                shift: merged.label_shift,
            },
            loop_refs: Vec::new(),
            by_desc: vec![NONE; program.loops.len()],
            loops: Vec::new(),
            funcs: Vec::new(),
            paths: Paths::new(),
            line_shared: Vec::new(),
            pnodes: Vec::new(),
            lnodes: Vec::new(),
            lnode_index: FastMap::default(),
            items: Vec::new(),
            item_index: FastMap::default(),
            branch_refs: Vec::new(),
            branches: Vec::new(),
            loop_contexts: Vec::new(),
            fn_contexts: Vec::new(),
            volumes: Volumes::default(),
            unknown_loops: 0,
            malformed_loops: 0,
            inflight,
            ensure_scratch: Vec::new(),
        };
        m.collect_loops();
        m.walk_tree();
        m.collect_branches();
        m.build_functions();
        m.link_loops();
        m.group_branches();
        m.build_logical();
        m.derive_pruning();
        m.compute_volumes();
        m.aggregate();
        m
    }

    // -- lookups ---------------------------------------------------------------------

    /// The function group of a source position's function ([`NONE`] if unknown).
    pub fn fn_of(&self, l: &Loc) -> u32 {
        self.funcs
            .binary_search_by(|g| cmp_fn(&g.loc, l))
            .map_or(NONE, |i| i as u32)
    }

    fn group_of(&self, lp: u32) -> Option<u32> {
        self.by_desc
            .get(lp as usize)
            .copied()
            .filter(|&g| g != NONE)
    }

    /// The loop group of global loop `lp` (none for a loop without a source chain).
    pub fn loop_group_of(&self, lp: u32) -> Option<u32> {
        self.group_of(lp)
    }

    /// How often logical node `z` is entered, per entry of its thread's root: the
    /// product of the loops around its call site, and around the call sites of its
    /// ancestors, along its path. A call placed in an ancestor's loop (code inlined
    /// there) counts that ancestor's loops from the ancestor on, once.
    pub fn calls_term(&self, z: u32) -> Term {
        let mut t = Term::ONE;
        let mut node = z;
        for _ in 0..WALK_LIMIT {
            let Some(n) = self.lnodes.get(node as usize) else {
                break;
            };
            let Some(call) = self.items.get(n.call_item as usize) else {
                break;
            };
            let mut it = call.parent;
            for _ in 0..WALK_LIMIT {
                let Some(lp) = self.items.get(it as usize) else {
                    break;
                };
                t.mul(lp.label);
                it = lp.parent;
            }
            node = call.owner;
        }
        t
    }

    pub fn group(&self, g: u32) -> Option<&LoopGroup> {
        self.loops.get(g as usize)
    }

    pub fn lnode(&self, i: u32) -> Option<&LNode> {
        self.lnodes.get(i as usize)
    }

    pub fn item(&self, i: u32) -> Option<&Item> {
        self.items.get(i as usize)
    }

    fn chain(&self, lp: u32) -> &'a [Loc] {
        let p: &'a Program = self.program;
        p.loops.get(lp as usize).map_or(&[][..], |l| &l.chain[..])
    }

    // -- 1. loops --------------------------------------------------------------------

    fn cmp_loop(a: &LoopRef, b: &LoopRef) -> Ordering {
        cmp_source_identity(&a.key, &b.key, a.desc, b.desc)
    }

    fn collect_loops(&mut self) {
        for (i, l) in self.program.loops.iter().enumerate() {
            match l.chain.last() {
                Some(&key) => self.loop_refs.push(LoopRef {
                    desc: i as u32,
                    key,
                }),
                None => self.malformed_loops += 1,
            }
        }
        self.loop_refs
            .sort_by(|a, b| Self::cmp_loop(a, b).then(a.desc.cmp(&b.desc)));
        let mut prev: Option<LoopRef> = None;
        for (i, lr) in self.loop_refs.iter().enumerate() {
            if prev.is_none_or(|p| Self::cmp_loop(&p, lr) != Equal) {
                self.loops.push(LoopGroup {
                    key: lr.key,
                    func: NONE,
                    const_trip: 0,
                    static_const: false,
                    no_sink: false,
                    recursion: false,
                    natural: false,
                    library: None,
                    any_folded: false,
                    label: 0,
                    data: 0,
                    executions: 0,
                    parent: NONE,
                    descs: (i as u32, i as u32),
                    contexts: (0, 0),
                });
            }
            prev = Some(*lr);
            let gi = self.loops.len() - 1;
            let d = &self.program.loops[lr.desc as usize];
            let g = &mut self.loops[gi];
            if d.flags & LOOP_LIBRARY != 0 {
                g.library = g.library.or(Some(lr.desc));
            } else if d.flags & LOOP_FOLDED != 0 {
                g.any_folded = true;
            } else {
                g.natural = true;
            }
            if d.const_trip != 0 {
                g.const_trip = d.const_trip;
            }
            g.static_const |= d.const_trip != 0 || d.flags & LOOP_CONST_TRIP != 0;
            g.no_sink |= d.flags & LOOP_NO_SINK != 0;
            g.recursion |= d.flags & LOOP_RECURSION != 0;
            g.descs.1 = i as u32 + 1;
            self.by_desc[lr.desc as usize] = gi as u32;
        }
    }

    // -- 2. the physical tree --------------------------------------------------------

    fn walk_tree(&mut self) {
        let tree = &self.merged.tree;
        let mut paths_of: Vec<u32> = vec![0; tree.nodes.len()];
        // About a path per node (one rehash of millions of entries less per doubling).
        self.paths.reserve(tree.nodes.len());
        self.pnodes.reserve_exact(tree.nodes.len());
        for (i, n) in tree.nodes.iter().enumerate() {
            if i == 0 {
                self.pnodes.push(PNode {
                    node: 0,
                    path: 0,
                    parent_path: 0,
                    site: NONE,
                });
                continue;
            }
            let parent = n.parent as usize;
            let ppath = paths_of.get(parent).copied().unwrap_or(0);
            let chain = self.program.site_chain(n.site);
            let (path, site) = if !chain.is_empty() {
                (self.paths.intern(ppath, chain), n.site)
            } else if parent == 0 {
                (ppath, NONE)
            } else {
                // Called from an unknown place in the parent: the parent's function,
                // at its definition.
                let pf = tree.nodes[parent].func;
                let loc = self.program.funcs[pf as usize].loc;
                (self.paths.intern1(ppath, &loc), NONE)
            };
            paths_of[i] = path;
            self.pnodes.push(PNode {
                node: i as u32,
                path,
                parent_path: ppath,
                site,
            });
        }
    }

    fn collect_branches(&mut self) {
        for (i, b) in self.program.branches.iter().enumerate() {
            if let Some(&key) = self.program.site_chain(b.site).last() {
                self.branch_refs.push(BranchRef {
                    branch: i as u32,
                    key,
                });
            }
        }
        let p = self.program;
        self.branch_refs.sort_by(|a, b| {
            Self::cmp_branch(a, b)
                .then_with(|| {
                    let cx = p.site_chain(p.branches[a.branch as usize].site);
                    let cy = p.site_chain(p.branches[b.branch as usize].site);
                    for (x, y) in cx.iter().zip(cy) {
                        let c = cmp_frame(x, y).then(x.column.cmp(&y.column));
                        if c != Equal {
                            return c;
                        }
                    }
                    cx.len().cmp(&cy.len())
                })
                .then(a.branch.cmp(&b.branch))
        });
    }

    /// Branch identity: function, line, column (branches without a line only equal
    /// themselves).
    fn cmp_branch(a: &BranchRef, b: &BranchRef) -> Ordering {
        cmp_source_identity(&a.key, &b.key, a.branch, b.branch)
    }

    // -- 3. functions ----------------------------------------------------------------

    fn build_functions(&mut self) {
        let p = self.program;
        // Every function described, and every function named in a loop chain, a branch
        // chain or a context path.
        // A group takes the first of its positions in this order (what a stable sort of
        // all of them kept): one map entry per function instead of sorting the millions
        // of frames of the context paths.
        let mut first: FastMap<(u32, u32), Loc> = FastMap::default();
        let mut see = |l: &Loc| {
            first.entry((l.linkage, l.file)).or_insert(*l);
        };
        p.funcs.iter().for_each(|f| see(&f.loc));
        for lr in &self.loop_refs {
            p.loops[lr.desc as usize].chain.iter().for_each(&mut see);
        }
        for br in &self.branch_refs {
            p.site_chain(p.branches[br.branch as usize].site)
                .iter()
                .for_each(&mut see);
        }
        for id in 1..self.paths.len() as u32 {
            if let Some(f) = self.paths.frame(id) {
                see(f);
            }
        }
        // Keys are distinct: the order of `cmp_fn` is total on them.
        let mut fn_locs: Vec<Loc> = first.into_values().collect();
        fn_locs.sort_unstable_by(cmp_fn);
        for l in fn_locs {
            self.funcs.push(FnGroup {
                loc: l,
                has_desc: false,
                flag_pruned: true,
                recursive_dynamic: false,
                recursive_static: false,
                recursive_logical: false,
                statically_pruned: false,
                executed: false,
                loops: (0, 0),
                branches: (0, 0),
                contexts: (0, 0),
                excl_label: 0,
                incl_label: 0,
                incl: Vec::new(),
                excl: Vec::new(),
            });
        }
        for fd in &p.funcs {
            let fi = self.fn_of(&fd.loc);
            if let Some(g) = self.funcs.get_mut(fi as usize) {
                g.has_desc = true;
                g.flag_pruned &= fd.flags & FUNC_STATICALLY_PRUNED != 0;
                g.recursive_static |= fd.flags & FUNC_RECURSIVE_STATIC != 0;
            }
        }
        for &f in &self.merged.tree.recursive {
            let Some(fd) = p.funcs.get(f as usize) else {
                continue;
            };
            let fi = self.fn_of(&fd.loc);
            if let Some(g) = self.funcs.get_mut(fi as usize) {
                g.recursive_dynamic = true;
            }
        }
        // Loop and branch ranges: both lists are sorted by function first.
        let (mut j, mut k) = (0usize, 0usize);
        for fi in 0..self.funcs.len() {
            let fl = self.funcs[fi].loc;
            let start = j;
            while j < self.loops.len() && cmp_fn(&self.loops[j].key, &fl) == Equal {
                self.loops[j].func = fi as u32;
                j += 1;
            }
            let bstart = k;
            while k < self.branch_refs.len() && cmp_fn(&self.branch_refs[k].key, &fl) == Equal {
                k += 1;
            }
            self.funcs[fi].loops = (start as u32, j as u32);
            // Branch refs for now; group_branches turns them into group ranges.
            self.funcs[fi].branches = (bstart as u32, k as u32);
        }
    }

    /// `parent` of every loop group: the nearest enclosing loop of the same function
    /// instance (same inline chain prefix).
    fn link_loops(&mut self) {
        let p = self.program;
        for gi in 0..self.loops.len() {
            let (a, b) = self.loops[gi].descs;
            let mut best = NONE;
            for r in &self.loop_refs[a as usize..b as usize] {
                let d = &p.loops[r.desc as usize];
                let mut pl = d.parent;
                let mut guard = 0;
                while pl != NONE && guard < WALK_LIMIT {
                    guard += 1;
                    let Some(pg) = self.group_of(pl) else { break };
                    let pd = &p.loops[pl as usize];
                    if pd.chain.len() > d.chain.len() {
                        pl = pd.parent;
                        continue;
                    }
                    if pd.chain.len() == d.chain.len()
                        && same_instance(&d.chain, &pd.chain)
                        && pg as usize != gi
                    {
                        if best == NONE {
                            best = pg;
                        } else {
                            // Several copies disagree: the innermost-looking one.
                            let (ka, kb) =
                                (&self.loops[best as usize].key, &self.loops[pg as usize].key);
                            if (kb.line, kb.column) > (ka.line, ka.column) {
                                best = pg;
                            }
                        }
                    }
                    break;
                }
            }
            self.loops[gi].parent = best;
        }
    }

    fn branch_state(&self, b: u32) -> (u16, u64, u64) {
        let v = &self.merged.branches;
        match v.binary_search_by_key(&b, |s| s.branch) {
            Ok(i) => (v[i].label, v[i].taken, v[i].executions),
            Err(_) => (0, 0, 0),
        }
    }

    fn group_branches(&mut self) {
        let p = self.program;
        let mut prev: Option<BranchRef> = None;
        for i in 0..self.branch_refs.len() {
            let br = self.branch_refs[i];
            if prev.is_none_or(|q| Self::cmp_branch(&q, &br) != Equal) {
                let func = self.fn_of(&br.key);
                self.branches.push(BranchGroup {
                    key: br.key,
                    func,
                    refs: (i as u32, i as u32),
                    label: 0,
                    switch: false,
                    truncated: false,
                    executed: false,
                });
            }
            prev = Some(br);
            let info = &p.branches[br.branch as usize];
            let (label, taken, execs) = self.branch_state(br.branch);
            let ran = taken != 0 || execs != 0;
            let layout = self.layout;
            if let Some(g) = self.branches.last_mut() {
                g.refs.1 = i as u32 + 1;
                g.label |= layout.params(label);
                g.switch |= info.flags & BRANCH_SWITCH != 0;
                g.truncated |= info.flags & BRANCH_TRUNCATED != 0;
                g.executed |= ran;
            }
            if ran {
                // Code inlined into a function ran, so every function on the chain ran.
                for l in p.site_chain(info.site) {
                    let fi = self.fn_of(l);
                    if let Some(f) = self.funcs.get_mut(fi as usize) {
                        f.executed = true;
                    }
                }
            }
        }
        // Function ranges: from branch-ref ranges to branch-group ranges.
        let mut gi = 0usize;
        for fi in 0..self.funcs.len() {
            let start = gi;
            while gi < self.branches.len() && self.branches[gi].func == fi as u32 {
                gi += 1;
            }
            let executed = self.branches[start..gi].iter().any(|b| b.executed);
            let g = &mut self.funcs[fi];
            g.branches = (start as u32, gi as u32);
            g.executed |= executed;
        }
    }

    /// Successors of a branch group, merged over its records: `(line, taken)` in order.
    pub fn branch_successors(&self, bg: &BranchGroup) -> Vec<(u32, bool)> {
        let p = self.program;
        let mut out: Vec<(u32, bool, bool)> = Vec::new();
        for br in &self.branch_refs[bg.refs.0 as usize..bg.refs.1 as usize] {
            let info = &p.branches[br.branch as usize];
            let (_, taken, _) = self.branch_state(br.branch);
            let depth = p.site_chain(info.site).len() as u32;
            // Each record matches every merged successor at most once.
            for e in &mut out {
                e.2 = false;
            }
            for (i, &s) in info.succ.iter().take(64).enumerate() {
                let line = successor_line(&bg.key, depth, p.site_chain(s));
                let t = taken & (1u64 << i) != 0;
                match out.iter_mut().find(|e| e.0 == line && !e.2) {
                    Some(e) => {
                        e.1 |= t;
                        e.2 = true;
                    }
                    None => out.push((line, t, true)),
                }
            }
        }
        out.into_iter().map(|(l, t, _)| (l, t)).collect()
    }

    // -- 4. the logical tree ---------------------------------------------------------

    fn lookup(&self, path: u32, func: u32) -> Option<u32> {
        self.lnode_index.get(&(path, func)).copied()
    }

    fn resolve(&self, i: u32) -> u32 {
        match self.lnode(i) {
            Some(n) if n.alias != NONE => n.alias,
            _ => i,
        }
    }

    /// Function group of the last frame of a non-empty path.
    fn frame_fn(&self, path: u32) -> u32 {
        self.paths.frame(path).map_or(NONE, |f| self.fn_of(f))
    }

    /// The logical node `(path, func)` (folded onto an ancestor for recursion), created
    /// with its missing ancestors. [`NONE`] when unknown.
    fn ensure(&mut self, path: u32, func: u32) -> u32 {
        if func == NONE {
            return NONE;
        }
        if let Some(i) = self.lookup(path, func) {
            return self.resolve(i);
        }
        // The missing ancestors (a buffer kept between calls: this runs per context).
        let mut scratch = std::mem::take(&mut self.ensure_scratch);
        scratch.clear();
        scratch.push((path, func));
        // The logical parent of the topmost missing node, when the walk found it (what
        // `logical_parent` would look up again).
        let mut top_parent = Some(NONE);
        let mut p = path;
        let mut guard = 0;
        while p != 0 {
            if guard == WALK_LIMIT {
                top_parent = None;
                break;
            }
            guard += 1;
            let (pp, pf) = (self.paths.parent(p), self.frame_fn(p));
            if pf == NONE {
                break;
            }
            if let Some(i) = self.lookup(pp, pf) {
                top_parent = Some(self.resolve(i));
                break;
            }
            scratch.push((pp, pf));
            p = pp;
        }
        // Top down: each node created is the logical parent of the next (the frame of
        // a pushed path names a known function).
        let mut parent = NONE;
        if let Some(&(p, _)) = scratch.last() {
            parent = top_parent.unwrap_or_else(|| self.logical_parent(p));
        }
        while let Some((p, f)) = scratch.pop() {
            parent = self.create(p, f, parent);
        }
        self.ensure_scratch = scratch;
        parent
    }

    /// The logical parent of a node with path `path`, if it exists.
    fn logical_parent(&self, path: u32) -> u32 {
        if path == 0 {
            return NONE;
        }
        let (pp, pf) = (self.paths.parent(path), self.frame_fn(path));
        if pf == NONE {
            NONE
        } else {
            self.lookup(pp, pf).map_or(NONE, |i| self.resolve(i))
        }
    }

    /// Creates the logical node `(path, func)` under `parent` (its
    /// [`Model::logical_parent`]); returns it, or the ancestor it is folded onto.
    fn create(&mut self, path: u32, func: u32, parent: u32) -> u32 {
        // Recursion unrolled by inlining: fold onto the first activation.
        let mut alias = NONE;
        let mut a = parent;
        let mut guard = 0;
        let bit = 1u64 << (func % 64);
        let above = self.lnode(parent).map_or(0, |n| n.fn_mask);
        if above & bit == 0 {
            a = NONE; // no ancestor runs `func`: nothing to walk
        }
        while a != NONE && guard < WALK_LIMIT {
            guard += 1;
            match self.lnode(a) {
                Some(n) if n.func == func => {
                    alias = a;
                    break;
                }
                Some(n) => a = n.parent,
                None => break,
            }
        }
        let depth = self.lnode(parent).map_or(0, |n| n.depth + 1);
        let id = self.lnodes.len() as u32;
        self.lnodes.push(LNode {
            path,
            func,
            parent,
            alias,
            depth,
            fn_mask: above | bit,
            call_item: NONE,
            incl_label: 0,
            incl: Vec::new(),
            excl: Vec::new(),
        });
        self.lnode_index.insert((path, func), id);
        if alias != NONE {
            if let Some(f) = self.funcs.get_mut(func as usize) {
                f.recursive_logical = true;
            }
            return alias;
        }
        if parent != NONE {
            let it = self.new_item(Item::new(NONE, id, parent));
            self.lnodes[id as usize].call_item = it;
        }
        id
    }

    fn new_item(&mut self, it: Item) -> u32 {
        self.items.push(it);
        self.items.len() as u32 - 1
    }

    /// The loop item of group `g` in logical node `x`, created on first use.
    fn loop_item(&mut self, x: u32, g: u32) -> u32 {
        // One probe of the index for a hit or a miss.
        let items = &mut self.items;
        *self.item_index.entry((x, g)).or_insert_with(|| {
            items.push(Item::new(g, NONE, x));
            items.len() as u32 - 1
        })
    }

    /// If `a` is a proper ancestor of `x`: the child of `a` on the way to `x`.
    fn child_towards(&self, a: u32, x: u32) -> Option<u32> {
        let da = self.lnode(a)?.depth;
        let mut cur = x;
        let mut n = self.lnode(cur)?;
        if n.depth <= da {
            return None;
        }
        while n.depth > da + 1 {
            cur = n.parent;
            n = self.lnode(cur)?;
        }
        (n.parent == a).then_some(cur)
    }

    fn item_parent(&self, i: u32) -> u32 {
        self.item(i).map_or(NONE, |t| t.parent)
    }

    /// Whether `anc` is `start` or one of its item ancestors.
    fn item_is_ancestor(&self, anc: u32, start: u32) -> bool {
        let mut a = start;
        let mut guard = 0;
        while a != NONE && guard < WALK_LIMIT {
            if a == anc {
                return true;
            }
            a = self.item_parent(a);
            guard += 1;
        }
        false
    }

    /// Makes `cand` the parent loop of `item`, unless that makes a cycle or the current
    /// parent is deeper.
    fn set_parent(&mut self, item: u32, cand: u32) {
        if item == cand || item == NONE || cand == NONE {
            return;
        }
        if self.item_is_ancestor(item, cand) {
            return;
        }
        let Some(cur) = self.item(item).map(|t| t.parent) else {
            return;
        };
        let replace =
            cur == NONE || cur == cand || self.item_is_ancestor(cur, self.item_parent(cand));
        if replace {
            self.items[item as usize].parent = cand;
        }
    }

    /// Places `item` (sitting in logical node `x`) under its physical container loop
    /// `c`, a loop of the physical node whose path is `phys_path`.
    fn place(&mut self, item: u32, x: u32, phys_path: u32, mut c: u32) {
        let mut guard = 0;
        while c != NONE && guard < WALK_LIMIT {
            guard += 1;
            let Some(g) = self.group_of(c) else { return };
            let chain = self.chain(c);
            let next = self.program.loops[c as usize].parent;
            let f = self.loops[g as usize].func;
            let x2 = self
                .paths
                .find(phys_path, &chain[..chain.len() - 1])
                .and_then(|p| self.lookup(p, f))
                .map(|i| self.resolve(i));
            match x2 {
                Some(x2) if x2 == x => {
                    let li = self.loop_item(x, g);
                    self.set_parent(item, li);
                    return;
                }
                Some(x2) => {
                    if let Some(a) = self.child_towards(x2, x) {
                        let ci = self.lnodes[a as usize].call_item;
                        if ci != NONE {
                            let li = self.loop_item(x2, g);
                            self.set_parent(ci, li);
                        }
                        return;
                    }
                }
                None => {}
            }
            c = next;
        }
    }

    /// The loop records of merged node `n` with the loops in flight added:
    /// `(loop, raw label, executions)`.
    fn loops_of(&self, n: u32) -> Vec<(u32, u16, u64)> {
        let raw = self.merged.tree.loops_of(n);
        let mut out: Vec<(u32, u16, u64)> = raw
            .iter()
            .map(|r| {
                let (l, k) = self
                    .inflight
                    .get(&(n, r.loop_))
                    .copied()
                    .unwrap_or_default();
                (r.loop_, r.label | l, r.executions.wrapping_add(k))
            })
            .collect();
        for (&(_, lp), &(label, k)) in self.inflight.range((n, 0)..=(n, u32::MAX)) {
            if !raw.iter().any(|r| r.loop_ == lp) {
                out.push((lp, label, k));
            }
        }
        out
    }

    fn build_logical(&mut self) {
        // About one logical node per physical node, a call item for each and a loop item
        // per loop record: room made once rather than by doubling (rehashing) millions
        // of entries. Capacity not written to costs no memory.
        let n = self.pnodes.len();
        let records = self.merged.tree.loops.len();
        self.lnodes.reserve(n);
        self.lnode_index.reserve(n);
        self.items.reserve(n + records);
        self.item_index.reserve(records);
        let merged: &'a Merged = self.merged;
        for pi in 0..self.pnodes.len() {
            let pn = self.pnodes[pi];
            if pn.node != 0 {
                let fd = self.merged.tree.nodes[pn.node as usize].func;
                let f = self.fn_of(&self.program.funcs[fd as usize].loc);
                let z = self.ensure(pn.path, f);
                if let Some(zn) = self.lnode(z) {
                    let (zpath, zparent, ci) = (zn.path, zn.parent, zn.call_item);
                    if zpath == pn.path && ci != NONE && zparent != NONE && pn.site != NONE {
                        let container = self.program.sites[pn.site as usize].loop_;
                        self.place(ci, zparent, pn.parent_path, container);
                    }
                }
            }
            if self.inflight.is_empty() {
                // What `loops_of` gives without loops in flight, without a copy.
                for r in merged.tree.loops_of(pn.node) {
                    self.add_loop_record(pn.path, r.loop_, r.label, r.executions);
                }
            } else {
                for (lp, label, execs) in self.loops_of(pn.node) {
                    self.add_loop_record(pn.path, lp, label, execs);
                }
            }
        }
        // The indices and the physical nodes only serve to build the logical tree: their
        // memory goes back before the volumes take theirs.
        self.lnode_index = FastMap::default();
        self.item_index = FastMap::default();
        self.pnodes = Vec::new();
    }

    fn add_loop_record(&mut self, phys_path: u32, lp: u32, label: u16, execs: u64) {
        let Some(g) = self.group_of(lp) else {
            self.unknown_loops += 1;
            return;
        };
        let chain = self.chain(lp);
        let path = self.paths.intern(phys_path, &chain[..chain.len() - 1]);
        let f = self.loops[g as usize].func;
        let x = self.ensure(path, f);
        if x == NONE {
            return;
        }
        let li = self.loop_item(x, g);
        let layout = self.layout;
        let t = &mut self.items[li as usize];
        t.label |= layout.params(label);
        t.data |= layout.data(label);
        t.executions = t.executions.wrapping_add(execs);
        t.recorded = true;
        let parent = self.program.loops[lp as usize].parent;
        self.place(li, x, phys_path, parent);
    }

    /// Static pruning of functions the pass never saw out of line (inlined everywhere):
    /// only constant-trip loops, and no call to a function that is not pruned.
    fn derive_pruning(&mut self) {
        for fi in 0..self.funcs.len() {
            let f = &self.funcs[fi];
            let pruned = if f.has_desc {
                f.flag_pruned
            } else {
                self.loops[f.loops.0 as usize..f.loops.1 as usize]
                    .iter()
                    .all(|l| l.static_const)
            };
            self.funcs[fi].statically_pruned = pruned;
        }
        for _round in 0..64 {
            let mut changed = false;
            for i in 0..self.lnodes.len() {
                let z = &self.lnodes[i];
                if z.alias != NONE || z.parent == NONE {
                    continue;
                }
                let Some(y) = self.lnode(z.parent) else {
                    continue;
                };
                let callee_pruned = self
                    .funcs
                    .get(z.func as usize)
                    .is_some_and(|f| f.statically_pruned);
                let yf = y.func as usize;
                if let Some(caller) = self.funcs.get_mut(yf) {
                    if !caller.has_desc && caller.statically_pruned && !callee_pruned {
                        caller.statically_pruned = false;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    // -- 5. volumes ------------------------------------------------------------------

    fn compute_volumes(&mut self) {
        // Children lists in one array (compressed rows, item order within a row): rows
        // `0..ni` hold each item's child items, rows `ni..ni + nl` each logical node's
        // top-level items. Millions of small vectors cost more than the volumes.
        let (ni, nl) = (self.items.len(), self.lnodes.len());
        let row_of = |t: &Item| {
            if t.parent != NONE {
                t.parent as usize
            } else {
                ni + t.owner as usize
            }
        };
        let mut start = vec![0u32; ni + nl + 1];
        for t in &self.items {
            start[row_of(t) + 1] += 1;
        }
        for r in 0..ni + nl {
            start[r + 1] += start[r];
        }
        let mut list = vec![0u32; ni];
        let mut fill = start.clone();
        for (id, t) in self.items.iter().enumerate() {
            let r = row_of(t);
            list[fill[r] as usize] = id as u32;
            fill[r] += 1;
        }
        drop(fill);
        let row = |r: usize| &list[start[r] as usize..start[r + 1] as usize];
        // Deepest logical nodes first (a call item needs its callee's volume), equal
        // depths by index: the order of a stable sort by decreasing depth, by buckets.
        let max_depth = self.lnodes.iter().map(|n| n.depth).max().unwrap_or(0) as usize;
        let mut at = vec![0usize; max_depth + 2];
        for n in &self.lnodes {
            at[max_depth - n.depth as usize + 1] += 1;
        }
        for d in 0..=max_depth {
            at[d + 1] += at[d];
        }
        let mut order = vec![0u32; nl];
        for (z, n) in self.lnodes.iter().enumerate() {
            let b = &mut at[max_depth - n.depth as usize];
            order[*b] = z as u32;
            *b += 1;
        }
        let mut stack: Vec<(u32, bool)> = Vec::new();
        for z in order {
            if self.lnodes[z as usize].alias != NONE {
                continue;
            }
            // Post-order over the item forest of z.
            stack.clear();
            stack.extend(row(ni + z as usize).iter().map(|&t| (t, false)));
            let mut guard = 0usize;
            while let Some((it, done)) = stack.pop() {
                guard += 1;
                if guard > ni * 2 + 16 {
                    break; // never trust a structure to be a forest
                }
                if done {
                    self.compute_item(it, row(it as usize));
                    continue;
                }
                stack.push((it, true));
                stack.extend(row(it as usize).iter().map(|&c| (c, false)));
            }
            let tops = row(ni + z as usize);
            let il = tops
                .iter()
                .fold(0, |a, &t| a | self.items[t as usize].incl_label);
            let (items, lnodes) = (&self.items, &self.lnodes);
            let incl = self
                .volumes
                .union(tops.iter().map(|&t| item_incl(items, lnodes, t)));
            let excl = self
                .volumes
                .union(tops.iter().map(|&t| &self.items[t as usize].excl));
            let n = &mut self.lnodes[z as usize];
            n.incl = incl;
            n.excl = excl;
            n.incl_label = il;
            // The items' volumes only served z's (the report shows nodes' and functions'
            // volumes, not items'): free them now rather than keep millions of them.
            let mut k = 0;
            stack.clear();
            stack.extend(tops.iter().map(|&t| (t, false)));
            while let Some((it, _)) = stack.pop() {
                k += 1;
                if k > ni * 2 + 16 {
                    break;
                }
                let t = &mut self.items[it as usize];
                t.incl = Vec::new();
                t.excl = Vec::new();
                stack.extend(row(it as usize).iter().map(|&c| (c, false)));
            }
        }
    }

    fn compute_item(&mut self, it: u32, children: &[u32]) {
        let t = &self.items[it as usize];
        if t.group == NONE {
            // The volume stays the callee's (`item_incl`), not a copy of it.
            let il = self.lnode(t.callee).map_or(0, |n| n.incl_label);
            self.items[it as usize].incl_label = il;
            return;
        }
        let label = t.label;
        let mut il = label;
        let mut body_incl = Vec::new();
        let mut body_excl = Vec::new();
        for &c in children {
            let x = &self.items[c as usize];
            body_incl.extend_from_slice(item_incl(&self.items, &self.lnodes, c));
            body_excl.extend_from_slice(&x.excl);
            il |= x.incl_label;
        }
        let incl = self.volumes.nest(body_incl, label);
        let excl = self.volumes.nest(body_excl, label);
        let x = &mut self.items[it as usize];
        x.incl = incl;
        x.excl = excl;
        x.incl_label = il;
    }

    // -- 6. per loop and per function ------------------------------------------------

    fn aggregate(&mut self) {
        let (ranks, line_shared) = self.paths.order();
        self.line_shared = line_shared;
        let rank = |p: u32| ranks.get(p as usize).copied().unwrap_or(u32::MAX);
        // Loop contexts: recorded loop items by (group, path).
        let mut lc: Vec<u32> = (0..self.items.len() as u32)
            .filter(|&i| {
                let t = &self.items[i as usize];
                t.group != NONE && t.recorded
            })
            .collect();
        let path_of = |i: u32| self.lnodes[self.items[i as usize].owner as usize].path;
        // Keys computed once, sorted with the index as the last key: the same order as a
        // stable sort of the ascending indices (the keys are distinct anyway: one loop
        // item per logical node and group, one logical node per path and function).
        let key = |i: u32| (self.items[i as usize].group as u64) << 32 | rank(path_of(i)) as u64;
        let mut keyed: Vec<(u64, u32)> = lc.iter().map(|&i| (key(i), i)).collect();
        keyed.sort_unstable();
        lc.clear();
        lc.extend(keyed.iter().map(|&(_, i)| i));
        drop(keyed);
        let mut i = 0usize;
        while i < lc.len() {
            let g = self.items[lc[i] as usize].group;
            let mut e = i;
            let (mut label, mut data, mut execs) = (0u16, 0u16, 0u64);
            while e < lc.len() && self.items[lc[e] as usize].group == g {
                let t = &self.items[lc[e] as usize];
                label |= t.label;
                data |= t.data;
                execs = execs.wrapping_add(t.executions);
                e += 1;
            }
            let grp = &mut self.loops[g as usize];
            grp.label = label;
            grp.data = data;
            grp.executions = execs;
            grp.contexts = (i as u32, e as u32);
            i = e;
        }
        self.loop_contexts = lc;
        // Function contexts: logical nodes (not folded) by (function, path).
        let mut fc: Vec<u32> = (0..self.lnodes.len() as u32)
            .filter(|&i| self.lnodes[i as usize].alias == NONE)
            .collect();
        // As for the loop contexts: keys computed once, ties (none) by index.
        let mut keyed: Vec<(u64, u32)> = fc
            .iter()
            .map(|&i| {
                let n = &self.lnodes[i as usize];
                ((n.func as u64) << 32 | rank(n.path) as u64, i)
            })
            .collect();
        keyed.sort_unstable();
        fc.clear();
        fc.extend(keyed.iter().map(|&(_, i)| i));
        drop(keyed);
        let mut i = 0usize;
        while i < fc.len() {
            let f = self.lnodes[fc[i] as usize].func;
            let mut e = i;
            let mut il = 0u16;
            while e < fc.len() && self.lnodes[fc[e] as usize].func == f {
                il |= self.lnodes[fc[e] as usize].incl_label;
                e += 1;
            }
            let ctx = &fc[i..e];
            let incl = self
                .volumes
                .union(ctx.iter().map(|&x| &self.lnodes[x as usize].incl));
            let excl = self
                .volumes
                .union(ctx.iter().map(|&x| &self.lnodes[x as usize].excl));
            if let Some(g) = self.funcs.get_mut(f as usize) {
                g.contexts = (i as u32, e as u32);
                g.executed = true;
                g.incl = incl;
                g.excl = excl;
                g.incl_label = il;
            }
            i = e;
        }
        self.fn_contexts = fc;
        // Exclusive params: the function's own loops, over every context.
        for fi in 0..self.funcs.len() {
            let (a, b) = self.funcs[fi].loops;
            let el = self.loops[a as usize..b as usize]
                .iter()
                .fold(0, |acc, l| acc | l.label);
            let g = &mut self.funcs[fi];
            g.excl_label = el;
            g.incl_label |= el;
        }
    }
}

/// The inclusive volume of item `i`: its own for a loop, the callee's for a call.
fn item_incl<'b>(items: &'b [Item], lnodes: &'b [LNode], i: u32) -> &'b Poly {
    static EMPTY: Poly = Vec::new();
    match items.get(i as usize) {
        Some(t) if t.group == NONE => lnodes.get(t.callee as usize).map_or(&EMPTY, |n| &n.incl),
        Some(t) => &t.incl,
        None => &EMPTY,
    }
}

/// Same function instance: equal inline chain prefixes and the same written function.
fn same_instance(x: &[Loc], y: &[Loc]) -> bool {
    if x.len() != y.len() || x.is_empty() {
        return false;
    }
    let n = x.len() - 1;
    x.iter()
        .zip(y)
        .take(n)
        .all(|(p, q)| cmp_frame(p, q) == Equal)
        && matches!((x.last(), y.last()), (Some(p), Some(q)) if cmp_fn(p, q) == Equal)
}

/// The line of a successor position as seen from the branch's function: the entry of
/// its inline chain at the branch's depth if that is in the same function, else the
/// deepest entry in that function, else its last entry.
fn successor_line(branch: &Loc, depth: u32, sc: &[Loc]) -> u32 {
    if depth >= 1 {
        if let Some(e) = sc.get(depth as usize - 1) {
            if cmp_fn(e, branch) == Equal {
                return e.line;
            }
        }
    }
    if let Some(e) = sc.iter().rev().find(|e| cmp_fn(e, branch) == Equal) {
        return e.line;
    }
    sc.last().map_or(0, |e| e.line)
}

/// The identity of a loop or branch as written: function, line, column; one without a
/// line (no debug info) equals only itself (`ia`, `ib`: its global index).
fn cmp_source_identity(x: &Loc, y: &Loc, ia: u32, ib: u32) -> Ordering {
    cmp_fn(x, y)
        .then(x.line.cmp(&y.line))
        .then(x.column.cmp(&y.column))
        .then_with(|| if x.line == 0 { ia.cmp(&ib) } else { Equal })
}
