//! The model structure of a report (schema v2), computed at report time.
//!
//! Everything here runs on the report path: no malloc, no lock, no recursion (the writer
//! may run on a 256 KiB alternate signal stack). Arrays are [`MmapVec`]s; lookups are
//! open-addressing [`Index`]es over them; trees are walked with explicit stacks.
//!
//! ## From physical to logical
//!
//! The context trees (`crate::context`) hold *physical* nodes: one per (call site,
//! compiled function) under a parent. At -O2 callees are inlined, so a physical node
//! holds loops and call sites of several source functions. The report wants the
//! program as written, so it rebuilds a **logical tree** whose nodes are
//! `(frame path, function as written)`:
//!
//! * A **path** is a sequence of frames `{function, file, line}` (hash-consed one frame
//!   per entry in [`Paths`]): the site chains of the physical nodes from the root, each
//!   followed by the inline chain of whatever sits in the node.
//! * A **loop** record of physical node `N` (path `P`) with inline chain `c[0..k]`
//!   belongs to logical node `(P + c[0..k-1], function of c[k-1])`.
//! * A **physical child** `C` of `N` called at site `s` (chain `s[0..m]`) is the logical
//!   node `(P + s[0..m], C's function)`.
//! * The **logical parent** of `(path, f)` is `(path minus its last frame, function of
//!   that frame)` — so the logical tree follows from paths alone, and -O0 (every function
//!   its own physical node) and -O2 (inlined) give the same tree. Missing ancestors
//!   (inlined functions without loops of their own) are created on the way.
//! * **Recursion** that inlining unrolled into the logical tree (`f` under `f`) is folded
//!   onto the first activation, as the physical trees fold it (the function is then
//!   marked recursive). How deep it went is not lost: the pass gives a recursive
//!   function a *recursion loop* (`LOOP_RECURSION`) around its body, reported once per
//!   activation with the labels of the decisions to recurse, which nests like any loop
//!   here (`docs/internal/control-flow.md`, "Recursion").
//!
//! ## Items and nesting
//!
//! Inside a logical node the volume needs the loop-nest tree, including calls: an
//! [`Item`] is a loop of a logical node, or the call edge to a child logical node. Each
//! item has a parent loop item in the same logical node, or none (top level):
//!
//! * a loop's physical parent (`LoopDesc::parent`) in the same logical node is its parent;
//! * a call's container (`SiteDesc::loop_`) in the calling logical node is its parent;
//! * a physical container that belongs to an *ancestor* logical node (code inlined inside
//!   a caller's loop) puts the call edge from that ancestor (towards the item) inside it;
//! * containers in unrelated logical nodes are skipped over (their own physical parent is
//!   tried instead).
//!
//! When copies disagree (versioned loops, several inlined copies), the deeper candidate
//! wins; a candidate that would make a cycle is ignored. Containers that never reported
//! (a loop still running at a mid-run report) are created as items of their own.
//!
//! ## Volumes
//!
//! Bottom-up over logical nodes (deepest first) and, inside each, post-order over its
//! item forest ([`crate::volume`]): a loop item is its label times the union of its
//! children (or just its label); a call item is the callee's inclusive volume (and
//! nothing in the exclusive volume); a logical node is the union of its top-level items.
//! A function's volume is the union over its logical nodes (its calling contexts).

use core::cmp::Ordering::{self, Equal};
use core::ffi::c_char;
use core::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use taintprof_abi::{
    BranchRec, FuncDesc, Label, LoopDesc, ModuleDesc, SiteDesc, SrcLoc, BRANCH_SWITCH,
    BRANCH_TRUNCATED, FUNC_RECURSIVE_STATIC, FUNC_STATICALLY_PRUNED, LOOP_CONST_TRIP, LOOP_FOLDED,
    LOOP_LIBRARY, LOOP_NO_SINK, LOOP_RECURSION,
};
use taintprof_sigsafe::{cstr, MmapVec};

use crate::context::{Node, ThreadState};
use crate::volume::{Poly, Pool, Term};

/// "No index".
pub const NONE: u32 = u32::MAX;

/// Bound on walks up chains that come from descriptors (never trust them to end).
const WALK_LIMIT: usize = 1 << 16;

// ----------------------------------------------------------------------------------
// Source identity
// ----------------------------------------------------------------------------------

#[inline]
pub(crate) fn s<'a>(p: *const c_char) -> &'a [u8] {
    // SAFETY: descriptor strings are NUL-terminated or null (then empty).
    unsafe { cstr(p) }
}

#[inline]
pub(crate) fn loc<'a>(p: *const SrcLoc) -> &'a SrcLoc {
    // SAFETY: only called on pointers into descriptor chains.
    unsafe { &*p }
}

/// `n` entries of an inline chain (empty for null).
pub(crate) fn chain<'a>(p: *const SrcLoc, n: u32) -> &'a [SrcLoc] {
    if p.is_null() || n == 0 {
        return &[];
    }
    // SAFETY: the pass emits `n` consecutive SrcLocs.
    unsafe { core::slice::from_raw_parts(p, n as usize) }
}

/// Function identity: (linkage name, file).
pub fn cmp_fn(a: &SrcLoc, b: &SrcLoc) -> Ordering {
    s(a.linkage)
        .cmp(s(b.linkage))
        .then_with(|| s(a.file).cmp(s(b.file)))
}

/// One path frame: (function, file, line, column), then the linkage name. The column
/// tells apart two calls on one line (`return work(a) + work(b);`): merged, they would
/// make `a` and `b` look multiplicative.
pub fn cmp_frame(a: &SrcLoc, b: &SrcLoc) -> Ordering {
    s(a.function)
        .cmp(s(b.function))
        .then_with(|| s(a.file).cmp(s(b.file)))
        .then(a.line.cmp(&b.line))
        .then(a.column.cmp(&b.column))
        .then_with(|| s(a.linkage).cmp(s(b.linkage)))
}

fn fnv(mut h: u64, b: &[u8]) -> u64 {
    for &x in b {
        h = (h ^ x as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

#[inline]
fn mix(a: u32, b: u32) -> u64 {
    ((a as u64) << 32 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5bd1_e995
}

// ----------------------------------------------------------------------------------
// An open-addressing index of ids, keyed by a caller-supplied hash and equality
// ----------------------------------------------------------------------------------

#[derive(Default)]
struct Index {
    /// (hash, id + 1); id + 1 == 0 is an empty slot.
    slots: MmapVec<(u64, u32)>,
    len: usize,
    failed: bool,
}

/// The first slot for hash `h` in a table of `mask + 1` slots. The callers' hashes
/// need not have random low bits (`mix` multiplies, which leaves the low 32 bits
/// depending on `func` alone: every node of a recursive parser's function started at
/// one slot, and writing muparser's report took minutes of probing), so the slot comes
/// from the high bits of one more multiplication, which depend on all of `h`.
fn first_slot(h: u64, mask: usize) -> usize {
    ((h ^ (h >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
}

fn index_put(t: &mut MmapVec<(u64, u32)>, h: u64, v: u32) {
    let cap = t.len();
    if cap == 0 {
        return;
    }
    let mask = cap - 1;
    let mut i = first_slot(h, mask);
    for _ in 0..cap {
        match t.as_mut_slice().get_mut(i) {
            Some(slot) if slot.1 == 0 => {
                *slot = (h, v);
                return;
            }
            Some(_) => {}
            None => return,
        }
        i = (i + 1) & mask;
    }
}

impl Index {
    fn find(&self, h: u64, mut eq: impl FnMut(u32) -> bool) -> Option<u32> {
        let t = self.slots.as_slice();
        if t.is_empty() {
            return None;
        }
        let mask = t.len() - 1;
        let mut i = first_slot(h, mask);
        for _ in 0..t.len() {
            let (sh, v) = t.get(i).copied().unwrap_or((0, 0));
            if v == 0 {
                return None;
            }
            if sh == h && eq(v - 1) {
                return Some(v - 1);
            }
            i = (i + 1) & mask;
        }
        None
    }

    fn insert(&mut self, h: u64, id: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            let size = (self.slots.len() * 2).max(1024);
            let mut n = MmapVec::new();
            if !n.resize(size, (0u64, 0u32)) {
                self.failed = true;
                return;
            }
            for &(sh, v) in self.slots.as_slice() {
                if v != 0 {
                    index_put(&mut n, sh, v);
                }
            }
            self.slots = n;
        }
        index_put(&mut self.slots, h, id + 1);
        self.len += 1;
    }
}

// ----------------------------------------------------------------------------------
// Hash-consed frame paths
// ----------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct PathEnt {
    parent: u32,
    frame: *const SrcLoc,
    depth: u32,
}

/// Interned paths: id 0 is the empty path; every other id is its parent's path followed
/// by one frame. Paths with equal frames (by [`cmp_frame`]) get the same id.
pub struct Paths {
    ents: MmapVec<PathEnt>,
    index: Index,
    /// Content hash of each frame descriptor interned so far, by address: a frame's
    /// hash reads its function and file names, and a program with millions of calling
    /// paths interns the same few thousand descriptors over and over.
    frame_hashes: MmapVec<(usize, u64)>,
    frame_index: Index,
    pub failed: bool,
}

impl Default for Paths {
    fn default() -> Self {
        Self::new()
    }
}

impl Paths {
    pub fn new() -> Self {
        let mut p = Paths {
            ents: MmapVec::new(),
            index: Index::default(),
            frame_hashes: MmapVec::new(),
            frame_index: Index::default(),
            failed: false,
        };
        p.failed |= !p.ents.push(PathEnt {
            parent: 0,
            frame: core::ptr::null(),
            depth: 0,
        });
        p
    }

    /// Hash of a frame's content: function, file, line, column (what [`cmp_frame`]
    /// compares, but the linkage name).
    fn content_hash(f: &SrcLoc) -> u64 {
        let mut h = fnv(0xcbf2_9ce4_8422_2325u64, s(f.function));
        h = fnv(h, &[0xff]);
        h = fnv(h, s(f.file));
        h = fnv(h, &f.line.to_le_bytes());
        fnv(h, &f.column.to_le_bytes())
    }

    /// Hash of path `parent` followed by a frame of content hash `fh`.
    fn hash(parent: u32, fh: u64) -> u64 {
        fh ^ (parent as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// [`Paths::content_hash`] of the descriptor at `f`, computed once per address.
    fn frame_hash(&mut self, f: *const SrcLoc) -> u64 {
        let key = (f as usize as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let known = self.frame_hashes.as_slice();
        let at = self.frame_index.find(key, |i| {
            known.get(i as usize).is_some_and(|e| e.0 == f as usize)
        });
        if let Some(&(_, h)) = at.and_then(|i| known.get(i as usize)) {
            return h;
        }
        let h = Self::content_hash(loc(f));
        let id = self.frame_hashes.len() as u32;
        if self.frame_hashes.push((f as usize, h)) {
            self.frame_index.insert(key, id);
        }
        h
    }

    pub fn len(&self) -> usize {
        self.ents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ents.len() <= 1
    }

    /// The path without its last frame (0 for 0).
    pub fn parent(&self, id: u32) -> u32 {
        self.ents
            .as_slice()
            .get(id as usize)
            .map(|e| e.parent)
            .unwrap_or(0)
    }

    /// The last frame of a non-empty path.
    pub fn frame(&self, id: u32) -> Option<&SrcLoc> {
        let e = self.ents.as_slice().get(id as usize)?;
        if id == 0 || e.frame.is_null() {
            None
        } else {
            Some(loc(e.frame))
        }
    }

    pub fn depth(&self, id: u32) -> u32 {
        self.ents
            .as_slice()
            .get(id as usize)
            .map(|e| e.depth)
            .unwrap_or(0)
    }

    /// The path `parent` followed by frame `f` (content hash `fh`), if interned.
    fn find1(&self, parent: u32, f: &SrcLoc, fh: u64) -> Option<u32> {
        let ents = self.ents.as_slice();
        self.index.find(Self::hash(parent, fh), |id| {
            ents.get(id as usize)
                .map(|e| {
                    e.parent == parent
                        && (core::ptr::eq(e.frame, f) || cmp_frame(loc(e.frame), f) == Equal)
                })
                .unwrap_or(false)
        })
    }

    /// Id of `parent` followed by the frame `f`.
    pub fn intern1(&mut self, parent: u32, f: *const SrcLoc) -> u32 {
        if f.is_null() {
            return parent;
        }
        let fh = self.frame_hash(f);
        if let Some(id) = self.find1(parent, loc(f), fh) {
            return id;
        }
        let id = self.ents.len() as u32;
        let depth = self.depth(parent) + 1;
        if !self.ents.push(PathEnt {
            parent,
            frame: f,
            depth,
        }) {
            self.failed = true;
            return parent;
        }
        self.index.insert(Self::hash(parent, fh), id);
        self.failed |= self.index.failed;
        id
    }

    /// Id of `parent` followed by the `n` frames at `frames`.
    pub fn intern(&mut self, parent: u32, frames: *const SrcLoc, n: u32) -> u32 {
        let mut id = parent;
        for f in chain(frames, n) {
            id = self.intern1(id, f);
        }
        id
    }

    /// Like [`Paths::intern`], but only finds paths that exist.
    pub fn find(&self, parent: u32, frames: *const SrcLoc, n: u32) -> Option<u32> {
        let mut id = parent;
        for f in chain(frames, n) {
            id = self.find1(id, f, Self::content_hash(f))?;
        }
        Some(id)
    }

    /// For every path id, whether its last frame shares (parent, function, file, line)
    /// with another path that differs only in the column: two calls on one line. Only
    /// those frames need their column in the report. Empty if scratch memory ran out.
    pub fn line_shared(&self) -> MmapVec<bool> {
        let n = self.ents.len();
        let mut flags: MmapVec<bool> = MmapVec::new();
        let mut ids: MmapVec<u32> = MmapVec::new();
        if !flags.resize(n, false) || !ids.reserve(n) {
            return MmapVec::new();
        }
        for id in 1..n as u32 {
            if self.frame(id).is_some() {
                ids.push(id);
            }
        }
        let same_line = |a: u32, b: u32| -> Ordering {
            match (self.frame(a), self.frame(b)) {
                (Some(x), Some(y)) => self.parent(a).cmp(&self.parent(b)).then_with(|| {
                    s(x.function)
                        .cmp(s(y.function))
                        .then_with(|| s(x.file).cmp(s(y.file)))
                        .then(x.line.cmp(&y.line))
                }),
                _ => Equal,
            }
        };
        ids.as_mut_slice()
            .sort_unstable_by(|&a, &b| same_line(a, b));
        let v = ids.as_slice();
        let mut i = 0;
        while i < v.len() {
            let mut k = i + 1;
            while k < v.len() && same_line(v[i], v[k]) == Equal {
                k += 1;
            }
            if k - i > 1 {
                for &id in &v[i..k] {
                    if let Some(f) = flags.as_mut_slice().get_mut(id as usize) {
                        *f = true;
                    }
                }
            }
            i = k;
        }
        flags
    }

    /// Calls `f` on every path id of path `id` (each names its last frame), root first
    /// (`buf` is scratch).
    pub fn for_each_prefix(
        &self,
        id: u32,
        buf: &mut MmapVec<u32>,
        mut f: impl FnMut(u32, &SrcLoc),
    ) {
        self.ids_root_first(id, buf);
        for &e in buf.as_slice() {
            if let Some(fr) = self.frame(e) {
                f(e, fr);
            }
        }
    }

    /// Calls `f` on every frame of path `id`, root first (`buf` is scratch).
    pub fn for_each_frame(&self, id: u32, buf: &mut MmapVec<u32>, mut f: impl FnMut(&SrcLoc)) {
        self.ids_root_first(id, buf);
        for &e in buf.as_slice() {
            if let Some(fr) = self.frame(e) {
                f(fr);
            }
        }
    }

    fn ids_root_first(&self, mut id: u32, out: &mut MmapVec<u32>) {
        out.truncate(0);
        let mut guard = 0;
        while id != 0 && guard < WALK_LIMIT {
            if !out.push(id) {
                break;
            }
            id = self.parent(id);
            guard += 1;
        }
        out.as_mut_slice().reverse();
    }

    /// Content order of two paths: frame by frame, a prefix first.
    pub fn cmp(&self, a: u32, b: u32, ba: &mut MmapVec<u32>, bb: &mut MmapVec<u32>) -> Ordering {
        if a == b {
            return Equal;
        }
        self.ids_root_first(a, ba);
        self.ids_root_first(b, bb);
        let (x, y) = (ba.as_slice(), bb.as_slice());
        for (&i, &j) in x.iter().zip(y) {
            if i == j {
                continue;
            }
            if let (Some(fi), Some(fj)) = (self.frame(i), self.frame(j)) {
                let c = cmp_frame(fi, fj);
                if c != Equal {
                    return c;
                }
            }
        }
        x.len().cmp(&y.len())
    }

    /// Every path's position in content order ([`Paths::cmp`]): a preorder walk of the
    /// path tree with each node's children sorted by frame. Sorting contexts by rank
    /// instead of with `cmp` saves walking both paths to the root at every comparison
    /// (a recursive parser's 2.4 M contexts took 15 s to sort). `None` if out of memory.
    pub fn ranks(&self) -> Option<MmapVec<u32>> {
        let n = self.ents.len();
        let ents = self.ents.as_slice();
        // Children of each path, grouped by parent (counting sort into `kids`).
        let mut start: MmapVec<u32> = MmapVec::new();
        let mut kids: MmapVec<u32> = MmapVec::new();
        if !start.resize(n + 1, 0) || !kids.resize(n, 0) {
            return None;
        }
        {
            let st = start.as_mut_slice();
            for e in ents.iter().skip(1) {
                st[e.parent as usize + 1] += 1;
            }
            for p in 0..n {
                st[p + 1] += st[p];
            }
        }
        let mut fill: MmapVec<u32> = MmapVec::new();
        if !fill.resize(n, 0) {
            return None;
        }
        for (id, e) in ents.iter().enumerate().skip(1) {
            let p = e.parent as usize;
            let at = start.as_slice()[p] + fill.as_slice()[p];
            fill.as_mut_slice()[p] += 1;
            kids.as_mut_slice()[at as usize] = id as u32;
        }
        for p in 0..n {
            let (a, b) = (
                start.as_slice()[p] as usize,
                start.as_slice()[p + 1] as usize,
            );
            kids.as_mut_slice()[a..b].sort_unstable_by(|&x, &y| {
                match (self.frame(x), self.frame(y)) {
                    (Some(fx), Some(fy)) => cmp_frame(fx, fy),
                    _ => x.cmp(&y),
                }
            });
        }
        // Preorder from the empty path; children pushed last-first.
        let mut rank: MmapVec<u32> = MmapVec::new();
        let mut stack: MmapVec<u32> = MmapVec::new();
        if !rank.resize(n, u32::MAX) || !stack.push(0) {
            return None;
        }
        let mut next = 0u32;
        while let Some(&id) = stack.as_slice().last() {
            stack.truncate(stack.len() - 1);
            rank.as_mut_slice()[id as usize] = next;
            next += 1;
            let (a, b) = (
                start.as_slice()[id as usize] as usize,
                start.as_slice()[id as usize + 1] as usize,
            );
            for k in (a..b).rev() {
                if !stack.push(kids.as_slice()[k]) {
                    return None;
                }
            }
        }
        Some(rank)
    }
}

// ----------------------------------------------------------------------------------
// What the report lists
// ----------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct LoopRef {
    desc: *const LoopDesc,
    /// Last entry of the chain: where the loop is written.
    key: *const SrcLoc,
}

/// Loop identity: function, line, column; loops without a line only equal themselves.
fn cmp_loop(a: &LoopRef, b: &LoopRef) -> Ordering {
    let (x, y) = (loc(a.key), loc(b.key));
    cmp_fn(x, y)
        .then(x.line.cmp(&y.line))
        .then(x.column.cmp(&y.column))
        .then_with(|| {
            if x.line == 0 {
                (a.desc as usize).cmp(&(b.desc as usize))
            } else {
                Equal
            }
        })
}

/// A source loop (all descriptors with its identity).
#[derive(Clone, Copy)]
pub struct LoopGroup {
    pub key: *const SrcLoc,
    /// Function group it is written in.
    pub func: u32,
    pub const_trip: u64,
    /// Trip count known at compile time (statically pruned).
    pub static_const: bool,
    pub no_sink: bool,
    /// A recursion loop (`LOOP_RECURSION`): the function's recursion, counted as a loop
    /// over the decisions that choose to recurse.
    pub recursion: bool,
    /// Some descriptor is a natural loop (neither library nor folded).
    pub natural: bool,
    /// The first library-loop descriptor (`LOOP_LIBRARY`: its routine and cost), if any.
    pub library: Option<&'static LoopDesc>,
    /// Some descriptor is a folded loop (`LOOP_FOLDED`).
    pub any_folded: bool,
    /// Union over all executions and contexts.
    pub label: Label,
    /// The parameters of `label` that reached the loop through data flow in some
    /// execution ([`crate::split`]); the rest came only through control flow.
    pub data: Label,
    pub executions: u64,
    /// Enclosing loop group in the same function instance, or [`NONE`].
    pub parent: u32,
    descs: (u32, u32),
    /// Range of [`Model::loop_contexts`].
    pub contexts: (u32, u32),
}

impl LoopGroup {
    /// Only folded descriptors: the optimizer removed the loop from every copy of the
    /// code (a copy that kept it, in another module, makes it an ordinary loop).
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

/// A function as written.
#[derive(Clone, Copy)]
pub struct FnGroup {
    pub loc: *const SrcLoc,
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
    pub excl_label: Label,
    pub incl_label: Label,
    pub incl: Poly,
    pub excl: Poly,
}

impl FnGroup {
    pub fn recursive(&self) -> bool {
        self.recursive_dynamic || self.recursive_static || self.recursive_logical
    }
}

/// A logical calling-context node: `(path, function as written)`.
#[derive(Clone, Copy)]
pub struct LNode {
    pub path: u32,
    pub func: u32,
    /// Logical parent, or [`NONE`] at the top of a thread (main, a start routine).
    pub parent: u32,
    /// Recursion folded this node onto that ancestor ([`NONE`] otherwise).
    alias: u32,
    /// Depth in the logical tree.
    depth: u32,
    /// The item of this node's call edge in its parent.
    call_item: u32,
    pub incl_label: Label,
    pub incl: Poly,
    pub excl: Poly,
}

/// A loop of a logical node, or a call edge to a child logical node.
#[derive(Clone, Copy)]
pub struct Item {
    /// Loop group, or [`NONE`] for a call item.
    pub group: u32,
    /// For a call item: the callee logical node.
    pub callee: u32,
    /// The logical node the item sits in.
    pub owner: u32,
    /// Enclosing loop item in `owner`, or [`NONE`] (top level).
    pub parent: u32,
    pub label: Label,
    /// The parameters of `label` that reached the loop through data flow
    /// ([`crate::split`]); the rest came only through control flow.
    pub data: Label,
    pub executions: u64,
    /// A loop record exists (not only created as a container).
    pub recorded: bool,
    pub incl_label: Label,
    pub incl: Poly,
    pub excl: Poly,
}

#[derive(Clone, Copy)]
struct BranchRef {
    rec: *const BranchRec,
    key: *const SrcLoc,
}

/// Branch identity: function, line, column (branches without a line only equal
/// themselves).
fn cmp_branch(a: &BranchRef, b: &BranchRef) -> Ordering {
    let (x, y) = (loc(a.key), loc(b.key));
    cmp_fn(x, y)
        .then(x.line.cmp(&y.line))
        .then(x.column.cmp(&y.column))
        .then_with(|| {
            if x.line == 0 {
                (a.rec as usize).cmp(&(b.rec as usize))
            } else {
                Equal
            }
        })
}

/// Identity, then the whole inline chain: copies of one branch merge in a stable order.
fn cmp_branch_copies(a: &BranchRef, b: &BranchRef) -> Ordering {
    cmp_branch(a, b).then_with(|| {
        // SAFETY: checked non-empty chains (collect_branches).
        let (x, y) = unsafe { (&*(*a.rec).site, &*(*b.rec).site) };
        let (cx, cy) = (chain(x.chain, x.n_chain), chain(y.chain, y.n_chain));
        for (p, q) in cx.iter().zip(cy) {
            let c = cmp_frame(p, q).then(p.column.cmp(&q.column));
            if c != Equal {
                return c;
            }
        }
        cx.len().cmp(&cy.len())
    })
}

/// A source branch (all records with its position, merged).
#[derive(Clone, Copy)]
pub struct BranchGroup {
    pub key: *const SrcLoc,
    pub func: u32,
    recs: (u32, u32),
    pub label: Label,
    pub switch: bool,
    pub truncated: bool,
    pub executed: bool,
}

#[derive(Clone, Copy)]
struct PNode {
    node: *const Node,
    path: u32,
    /// Path of the physical parent ([`NONE`] for a thread's root).
    parent_path: u32,
    site: *const SiteDesc,
}

/// Everything the report says, computed from descriptors and context trees.
pub struct Model {
    loop_refs: MmapVec<LoopRef>,
    by_desc: MmapVec<(usize, u32)>,
    valid_funcs: MmapVec<usize>,
    pub loops: MmapVec<LoopGroup>,
    pub funcs: MmapVec<FnGroup>,
    pub paths: Paths,
    pnodes: MmapVec<PNode>,
    pub lnodes: MmapVec<LNode>,
    lnode_index: Index,
    pub items: MmapVec<Item>,
    item_index: Index,
    item_children: MmapVec<u32>,
    item_child_start: MmapVec<u32>,
    lnode_top: MmapVec<u32>,
    lnode_top_start: MmapVec<u32>,
    branch_refs: MmapVec<BranchRef>,
    pub branches: MmapVec<BranchGroup>,
    /// Recorded loop items, by loop group, then path.
    pub loop_contexts: MmapVec<u32>,
    /// Logical nodes (not folded) by function, then path.
    pub fn_contexts: MmapVec<u32>,
    pub pool: Pool,
    scratch: MmapVec<(u32, u32)>,
    stack: MmapVec<(u32, bool)>,
    pub buf_a: MmapVec<u32>,
    pub buf_b: MmapVec<u32>,
    /// Loop records of loops no registered module describes.
    pub unknown_loops: u64,
    /// Loop descriptors without a source chain.
    pub malformed_loops: u64,
    /// Calling contexts of functions no registered module describes (skipped).
    pub unknown_contexts: u64,
    /// Out of memory somewhere: the report is incomplete.
    pub incomplete: bool,
}

impl Model {
    fn empty() -> Self {
        Model {
            loop_refs: MmapVec::new(),
            by_desc: MmapVec::new(),
            valid_funcs: MmapVec::new(),
            loops: MmapVec::new(),
            funcs: MmapVec::new(),
            paths: Paths::new(),
            pnodes: MmapVec::new(),
            lnodes: MmapVec::new(),
            lnode_index: Index::default(),
            items: MmapVec::new(),
            item_index: Index::default(),
            item_children: MmapVec::new(),
            item_child_start: MmapVec::new(),
            lnode_top: MmapVec::new(),
            lnode_top_start: MmapVec::new(),
            branch_refs: MmapVec::new(),
            branches: MmapVec::new(),
            loop_contexts: MmapVec::new(),
            fn_contexts: MmapVec::new(),
            pool: Pool::new(),
            scratch: MmapVec::new(),
            stack: MmapVec::new(),
            buf_a: MmapVec::new(),
            buf_b: MmapVec::new(),
            unknown_loops: 0,
            malformed_loops: 0,
            unknown_contexts: 0,
            incomplete: false,
        }
    }

    /// Builds the model of `modules` (registration order) and `threads`.
    pub fn build(modules: &[*const ModuleDesc], threads: &[*const ThreadState]) -> Model {
        let mut m = Model::empty();
        m.collect_loops(modules);
        m.collect_valid_funcs(modules);
        m.walk_trees(threads);
        m.collect_branches(modules);
        m.build_functions(modules, threads);
        m.link_loops();
        m.group_branches();
        m.build_logical();
        m.derive_pruning();
        m.compute_volumes();
        m.aggregate();
        m.incomplete |= m.paths.failed
            || m.lnode_index.failed
            || m.item_index.failed
            || m.paths.index.failed
            || m.pool.failed;
        m
    }

    // -- accessors -------------------------------------------------------------------

    pub fn lnode(&self, i: u32) -> Option<&LNode> {
        self.lnodes.as_slice().get(i as usize)
    }
    fn lnode_mut(&mut self, i: u32) -> Option<&mut LNode> {
        self.lnodes.as_mut_slice().get_mut(i as usize)
    }
    pub fn item(&self, i: u32) -> Option<&Item> {
        self.items.as_slice().get(i as usize)
    }
    fn item_mut(&mut self, i: u32) -> Option<&mut Item> {
        self.items.as_mut_slice().get_mut(i as usize)
    }
    pub fn func(&self, i: u32) -> Option<&FnGroup> {
        self.funcs.as_slice().get(i as usize)
    }
    fn func_mut(&mut self, i: u32) -> Option<&mut FnGroup> {
        self.funcs.as_mut_slice().get_mut(i as usize)
    }
    pub fn group(&self, i: u32) -> Option<&LoopGroup> {
        self.loops.as_slice().get(i as usize)
    }

    /// The loop group of a descriptor of a registered module.
    pub fn group_of(&self, d: *const LoopDesc) -> Option<u32> {
        let v = self.by_desc.as_slice();
        v.binary_search_by(|e| e.0.cmp(&(d as usize)))
            .ok()
            .and_then(|i| v.get(i))
            .map(|e| e.1)
    }

    /// The function group of a source position's function ([`NONE`] if unknown).
    pub fn fn_of(&self, l: &SrcLoc) -> u32 {
        self.funcs
            .as_slice()
            .binary_search_by(|g| cmp_fn(loc(g.loc), l))
            .map(|i| i as u32)
            .unwrap_or(NONE)
    }

    fn valid_func(&self, f: *const FuncDesc) -> bool {
        !f.is_null()
            && self
                .valid_funcs
                .as_slice()
                .binary_search(&(f as usize))
                .is_ok()
    }

    // -- 1. loops ----------------------------------------------------------------------

    fn collect_loops(&mut self, modules: &[*const ModuleDesc]) {
        for &m in modules {
            // SAFETY: registered descriptors are valid.
            let m = unsafe { &*m };
            if m.loops.is_null() {
                continue;
            }
            for i in 0..m.n_loops as usize {
                // SAFETY: the module has n_loops descriptors.
                let d = unsafe { m.loops.add(i) };
                // SAFETY: as above.
                let dd = unsafe { &*d };
                if dd.chain.is_null() || dd.n_chain == 0 {
                    self.malformed_loops += 1;
                    continue;
                }
                // SAFETY: n_chain entries.
                let key = unsafe { dd.chain.add(dd.n_chain as usize - 1) };
                self.incomplete |= !self.loop_refs.push(LoopRef { desc: d, key });
            }
        }
        self.loop_refs.as_mut_slice().sort_unstable_by(cmp_loop);
        let mut prev: Option<LoopRef> = None;
        for (i, lr) in self.loop_refs.as_slice().iter().enumerate() {
            if prev.map(|p| cmp_loop(&p, lr) != Equal).unwrap_or(true) {
                self.incomplete |= !self.loops.push(LoopGroup {
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
            let gi = self.loops.len().saturating_sub(1);
            // SAFETY: valid descriptor (checked above).
            let d: &'static LoopDesc = unsafe { &*lr.desc };
            if let Some(g) = self.loops.as_mut_slice().get_mut(gi) {
                if d.flags & LOOP_LIBRARY != 0 {
                    g.library = g.library.or(Some(d));
                } else if d.flags & LOOP_FOLDED != 0 {
                    g.any_folded = true;
                } else {
                    g.natural = true;
                }
                if d.const_trip_count != 0 {
                    g.const_trip = d.const_trip_count;
                }
                g.static_const |= d.const_trip_count != 0 || d.flags & LOOP_CONST_TRIP != 0;
                g.no_sink |= d.flags & LOOP_NO_SINK != 0;
                g.recursion |= d.flags & LOOP_RECURSION != 0;
                g.descs.1 = i as u32 + 1;
            }
            self.incomplete |= !self.by_desc.push((lr.desc as usize, gi as u32));
        }
        self.by_desc.as_mut_slice().sort_unstable();
    }

    fn collect_valid_funcs(&mut self, modules: &[*const ModuleDesc]) {
        for &m in modules {
            // SAFETY: registered descriptors are valid.
            let m = unsafe { &*m };
            if m.funcs.is_null() {
                continue;
            }
            for i in 0..m.n_funcs as usize {
                // SAFETY: n_funcs descriptors.
                self.incomplete |= !self.valid_funcs.push(unsafe { m.funcs.add(i) } as usize);
            }
        }
        self.valid_funcs.as_mut_slice().sort_unstable();
    }

    // -- 2. physical trees -------------------------------------------------------------

    fn walk_trees(&mut self, threads: &[*const ThreadState]) {
        let mut stack: MmapVec<(*const Node, u32, u32, *const SiteDesc)> = MmapVec::new();
        for &t in threads {
            // SAFETY: thread states are never freed.
            let ts = unsafe { &*t };
            stack.truncate(0);
            self.incomplete |= !stack.push((&ts.root as *const Node, 0, NONE, core::ptr::null()));
            while let Some((n, path, parent_path, site)) = stack.pop() {
                self.incomplete |= !self.pnodes.push(PNode {
                    node: n,
                    path,
                    parent_path,
                    site,
                });
                // SAFETY: nodes are never freed.
                let node = unsafe { &*n };
                node.for_each_child(|site, f, child| {
                    if !self.valid_func(f) {
                        self.unknown_contexts += 1;
                        return;
                    }
                    // SAFETY: SiteDescs passed to __tp_enter are valid descriptors.
                    let sd = if site.is_null() {
                        None
                    } else {
                        Some(unsafe { &*site })
                    };
                    let cpath = match sd {
                        Some(sd) if !sd.chain.is_null() && sd.n_chain > 0 => {
                            self.paths.intern(path, sd.chain, sd.n_chain)
                        }
                        _ if node.is_root() => path,
                        // Called from an unknown place in the parent (no site): the
                        // parent's function, at its definition.
                        // SAFETY: non-root nodes have a valid function (checked when
                        // they were pushed).
                        _ => self.paths.intern1(path, unsafe { &(*node.func).loc }),
                    };
                    let site = match sd {
                        Some(sd) if !sd.chain.is_null() && sd.n_chain > 0 => site,
                        _ => core::ptr::null(),
                    };
                    self.incomplete |= !stack.push((child as *const Node, cpath, path, site));
                });
            }
        }
    }

    fn collect_branches(&mut self, modules: &[*const ModuleDesc]) {
        for &m in modules {
            // SAFETY: registered descriptors are valid.
            let m = unsafe { &*m };
            if m.branches.is_null() {
                continue;
            }
            for i in 0..m.n_branches as usize {
                // SAFETY: n_branches records.
                let rec = unsafe { m.branches.add(i) } as *const BranchRec;
                // SAFETY: the site pointer is immutable; its descriptor is valid.
                let site = unsafe { (*rec).site };
                if site.is_null() {
                    continue;
                }
                // SAFETY: as above.
                let sd = unsafe { &*site };
                if sd.chain.is_null() || sd.n_chain == 0 {
                    continue;
                }
                // SAFETY: n_chain entries.
                let key = unsafe { sd.chain.add(sd.n_chain as usize - 1) };
                self.incomplete |= !self.branch_refs.push(BranchRef { rec, key });
            }
        }
        self.branch_refs
            .as_mut_slice()
            .sort_unstable_by(cmp_branch_copies);
    }

    // -- 3. functions ------------------------------------------------------------------

    fn build_functions(&mut self, modules: &[*const ModuleDesc], threads: &[*const ThreadState]) {
        let mut fn_locs: MmapVec<*const SrcLoc> = MmapVec::new();
        let mut ok = true;
        for &m in modules {
            // SAFETY: registered descriptors are valid.
            let m = unsafe { &*m };
            if !m.funcs.is_null() {
                for i in 0..m.n_funcs as usize {
                    // SAFETY: n_funcs descriptors.
                    ok &= fn_locs.push(unsafe { &(*m.funcs.add(i)).loc });
                }
            }
        }
        // Every function named in a loop chain, a branch chain or a context path.
        for lr in self.loop_refs.as_slice() {
            // SAFETY: checked non-empty chains.
            let d = unsafe { &*lr.desc };
            for l in chain(d.chain, d.n_chain) {
                ok &= fn_locs.push(l);
            }
        }
        for br in self.branch_refs.as_slice() {
            // SAFETY: checked in collect_branches.
            let sd = unsafe { &*(*br.rec).site };
            for l in chain(sd.chain, sd.n_chain) {
                ok &= fn_locs.push(l);
            }
        }
        for id in 1..self.paths.len() as u32 {
            if let Some(f) = self.paths.frame(id) {
                ok &= fn_locs.push(f);
            }
        }
        self.incomplete |= !ok;
        fn_locs
            .as_mut_slice()
            .sort_unstable_by(|a, b| cmp_fn(loc(*a), loc(*b)));
        for &l in fn_locs.as_slice() {
            let same = self
                .funcs
                .as_slice()
                .last()
                .map(|g| cmp_fn(loc(g.loc), loc(l)) == Equal)
                .unwrap_or(false);
            if !same {
                self.incomplete |= !self.funcs.push(FnGroup {
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
                    incl: Poly::default(),
                    excl: Poly::default(),
                });
            }
        }
        drop(fn_locs);
        for &m in modules {
            // SAFETY: registered descriptors are valid.
            let m = unsafe { &*m };
            if m.funcs.is_null() {
                continue;
            }
            for i in 0..m.n_funcs as usize {
                // SAFETY: n_funcs descriptors.
                let fd = unsafe { &*m.funcs.add(i) };
                let fi = self.fn_of(&fd.loc);
                if let Some(g) = self.func_mut(fi) {
                    g.has_desc = true;
                    g.flag_pruned &= fd.flags & FUNC_STATICALLY_PRUNED != 0;
                    g.recursive_static |= fd.flags & FUNC_RECURSIVE_STATIC != 0;
                }
            }
        }
        for &t in threads {
            // SAFETY: thread states are never freed.
            let ts = unsafe { &*t };
            ts.for_each_recursive(|f| {
                if !self.valid_func(f) {
                    return;
                }
                // SAFETY: a FuncDesc of a registered module.
                let fi = self.fn_of(unsafe { &(*f).loc });
                if let Some(g) = self.func_mut(fi) {
                    g.recursive_dynamic = true;
                }
            });
        }
        // Loop and branch ranges: both lists are sorted by function first.
        let mut j = 0usize;
        let mut k = 0usize;
        for fi in 0..self.funcs.len() {
            let Some(fl) = self.funcs.as_slice().get(fi).map(|g| g.loc) else {
                break;
            };
            let start = j;
            while self
                .loops
                .as_slice()
                .get(j)
                .map(|g| cmp_fn(loc(g.key), loc(fl)) == Equal)
                .unwrap_or(false)
            {
                if let Some(g) = self.loops.as_mut_slice().get_mut(j) {
                    g.func = fi as u32;
                }
                j += 1;
            }
            let bstart = k;
            while self
                .branch_refs
                .as_slice()
                .get(k)
                .map(|b| cmp_fn(loc(b.key), loc(fl)) == Equal)
                .unwrap_or(false)
            {
                k += 1;
            }
            if let Some(g) = self.funcs.as_mut_slice().get_mut(fi) {
                g.loops = (start as u32, j as u32);
                // Branch refs for now; group_branches turns them into group ranges.
                g.branches = (bstart as u32, k as u32);
            }
        }
    }

    /// `parent` of every loop group: the nearest enclosing loop of the same function
    /// instance (same inline chain prefix).
    fn link_loops(&mut self) {
        for gi in 0..self.loops.len() {
            let Some(g) = self.loops.as_slice().get(gi).copied() else {
                break;
            };
            let mut best = NONE;
            for r in self
                .loop_refs
                .as_slice()
                .get(g.descs.0 as usize..g.descs.1 as usize)
                .unwrap_or(&[])
            {
                // SAFETY: registered descriptors.
                let d = unsafe { &*r.desc };
                let mut p = d.parent;
                let mut guard = 0;
                while !p.is_null() && guard < WALK_LIMIT {
                    guard += 1;
                    let Some(pg) = self.group_of(p) else { break };
                    // SAFETY: a registered descriptor (found in by_desc).
                    let pd = unsafe { &*p };
                    if pd.n_chain > d.n_chain {
                        p = pd.parent;
                        continue;
                    }
                    if pd.n_chain == d.n_chain && same_instance(d, pd) && pg as usize != gi {
                        if best == NONE {
                            best = pg;
                        } else if let (Some(a), Some(b)) = (self.group(best), self.group(pg)) {
                            // Several copies disagree: the innermost-looking one.
                            let (ka, kb) = (loc(a.key), loc(b.key));
                            if (kb.line, kb.column) > (ka.line, ka.column) {
                                best = pg;
                            }
                        }
                    }
                    break;
                }
            }
            if let Some(g) = self.loops.as_mut_slice().get_mut(gi) {
                g.parent = best;
            }
        }
    }

    fn group_branches(&mut self) {
        let mut prev: Option<BranchRef> = None;
        for (i, br) in self.branch_refs.as_slice().iter().enumerate() {
            if prev.map(|p| cmp_branch(&p, br) != Equal).unwrap_or(true) {
                let func = self
                    .funcs
                    .as_slice()
                    .binary_search_by(|g| cmp_fn(loc(g.loc), loc(br.key)))
                    .map(|x| x as u32)
                    .unwrap_or(NONE);
                self.incomplete |= !self.branches.push(BranchGroup {
                    key: br.key,
                    func,
                    recs: (i as u32, i as u32),
                    label: 0,
                    switch: false,
                    truncated: false,
                    executed: false,
                });
            }
            prev = Some(*br);
            let rec = br.rec;
            // SAFETY: a live record, updated concurrently with atomic ORs.
            let (label, flags, taken, execs) = unsafe {
                (
                    AtomicU16::from_ptr(core::ptr::addr_of!((*rec).label) as *mut u16)
                        .load(Relaxed),
                    (*rec).flags,
                    AtomicU64::from_ptr(core::ptr::addr_of!((*rec).taken) as *mut u64)
                        .load(Relaxed),
                    AtomicU64::from_ptr(core::ptr::addr_of!((*rec).executions) as *mut u64)
                        .load(Relaxed),
                )
            };
            if let Some(g) = self.branches.as_mut_slice().last_mut() {
                g.recs.1 = i as u32 + 1;
                g.label |= crate::split::params(label);
                g.switch |= flags & BRANCH_SWITCH != 0;
                g.truncated |= flags & BRANCH_TRUNCATED != 0;
                g.executed |= taken != 0 || execs != 0;
            }
            if taken != 0 || execs != 0 {
                // Code inlined into a function ran, so every function on the chain ran.
                // SAFETY: checked in collect_branches.
                let sd = unsafe { &*(*rec).site };
                for l in chain(sd.chain, sd.n_chain) {
                    let fi = self.fn_of(l);
                    if let Some(f) = self.funcs.as_mut_slice().get_mut(fi as usize) {
                        f.executed = true;
                    }
                }
            }
        }
        // Function ranges: from branch-ref ranges to branch-group ranges.
        let mut gi = 0usize;
        for fi in 0..self.funcs.len() {
            let start = gi;
            while self
                .branches
                .as_slice()
                .get(gi)
                .map(|b| b.func == fi as u32)
                .unwrap_or(false)
            {
                gi += 1;
            }
            let executed = self
                .branches
                .as_slice()
                .get(start..gi)
                .unwrap_or(&[])
                .iter()
                .any(|b| b.executed);
            if let Some(g) = self.funcs.as_mut_slice().get_mut(fi) {
                g.branches = (start as u32, gi as u32);
                g.executed |= executed;
            }
        }
    }

    /// Successors of a branch group, merged over its records: `(line, taken, _)` in
    /// order (the third field is scratch). False when out of memory.
    pub fn branch_successors(
        &self,
        bg: &BranchGroup,
        out: &mut MmapVec<(u32, bool, bool)>,
    ) -> bool {
        out.truncate(0);
        let mut ok = true;
        let key = loc(bg.key);
        for br in self
            .branch_refs
            .as_slice()
            .get(bg.recs.0 as usize..bg.recs.1 as usize)
            .unwrap_or(&[])
        {
            let rec = br.rec;
            // SAFETY: a live record (see group_branches).
            let (succ, n, taken, depth) = unsafe {
                (
                    (*rec).succ,
                    (*rec).n_succ.min(64),
                    AtomicU64::from_ptr(core::ptr::addr_of!((*rec).taken) as *mut u64)
                        .load(Relaxed),
                    (*(*rec).site).n_chain,
                )
            };
            if succ.is_null() {
                continue;
            }
            // Each record matches every merged successor at most once.
            for e in out.as_mut_slice() {
                e.2 = false;
            }
            for i in 0..n as usize {
                // SAFETY: n_succ successor positions.
                let sd = unsafe { &*succ.add(i) };
                let line = successor_line(key, depth, chain(sd.chain, sd.n_chain));
                let t = taken & (1u64 << i) != 0;
                // The first unmatched successor with this line (duplicates in order).
                match out.as_mut_slice().iter_mut().find(|e| e.0 == line && !e.2) {
                    Some(e) => {
                        e.1 |= t;
                        e.2 = true;
                    }
                    None => ok &= out.push((line, t, true)),
                }
            }
        }
        ok
    }

    // -- 4. the logical tree -----------------------------------------------------------

    fn lookup(&self, path: u32, func: u32) -> Option<u32> {
        let ln = self.lnodes.as_slice();
        self.lnode_index.find(mix(path, func), |id| {
            ln.get(id as usize)
                .map(|n| n.path == path && n.func == func)
                .unwrap_or(false)
        })
    }

    fn resolve(&self, i: u32) -> u32 {
        match self.lnode(i) {
            Some(n) if n.alias != NONE => n.alias,
            _ => i,
        }
    }

    /// Function group of the last frame of a non-empty path.
    fn frame_fn(&self, path: u32) -> u32 {
        self.paths
            .frame(path)
            .map(|f| self.fn_of(f))
            .unwrap_or(NONE)
    }

    /// The logical node `(path, func)` (folded onto an ancestor for recursion), created
    /// with its missing ancestors. [`NONE`] when out of memory or unknown.
    fn ensure(&mut self, path: u32, func: u32) -> u32 {
        if func == NONE {
            return NONE;
        }
        if let Some(i) = self.lookup(path, func) {
            return self.resolve(i);
        }
        self.scratch.truncate(0);
        self.incomplete |= !self.scratch.push((path, func));
        let mut p = path;
        let mut guard = 0;
        while p != 0 && guard < WALK_LIMIT {
            guard += 1;
            let (pp, pf) = (self.paths.parent(p), self.frame_fn(p));
            if pf == NONE || self.lookup(pp, pf).is_some() {
                break;
            }
            self.incomplete |= !self.scratch.push((pp, pf));
            p = pp;
        }
        while let Some((p, f)) = self.scratch.pop() {
            self.create(p, f);
        }
        self.lookup(path, func)
            .map(|i| self.resolve(i))
            .unwrap_or(NONE)
    }

    fn create(&mut self, path: u32, func: u32) {
        let parent = if path == 0 {
            NONE
        } else {
            let (pp, pf) = (self.paths.parent(path), self.frame_fn(path));
            if pf == NONE {
                NONE
            } else {
                self.lookup(pp, pf).map(|i| self.resolve(i)).unwrap_or(NONE)
            }
        };
        // Recursion unrolled by inlining: fold onto the first activation.
        let mut alias = NONE;
        let mut a = parent;
        let mut guard = 0;
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
        let depth = self.lnode(parent).map(|n| n.depth + 1).unwrap_or(0);
        let id = self.lnodes.len() as u32;
        if !self.lnodes.push(LNode {
            path,
            func,
            parent,
            alias,
            depth,
            call_item: NONE,
            incl_label: 0,
            incl: Poly::default(),
            excl: Poly::default(),
        }) {
            self.incomplete = true;
            return;
        }
        self.lnode_index.insert(mix(path, func), id);
        if alias != NONE {
            if let Some(f) = self.func_mut(func) {
                f.recursive_logical = true;
            }
            return;
        }
        if parent != NONE {
            let it = self.new_item(Item {
                group: NONE,
                callee: id,
                owner: parent,
                parent: NONE,
                label: 0,
                data: 0,
                executions: 0,
                recorded: false,
                incl_label: 0,
                incl: Poly::default(),
                excl: Poly::default(),
            });
            if let Some(n) = self.lnode_mut(id) {
                n.call_item = it;
            }
        }
    }

    fn new_item(&mut self, it: Item) -> u32 {
        let id = self.items.len() as u32;
        if !self.items.push(it) {
            self.incomplete = true;
            return NONE;
        }
        id
    }

    /// The loop item of group `g` in logical node `x`, created on first use.
    fn loop_item(&mut self, x: u32, g: u32) -> u32 {
        let items = self.items.as_slice();
        let h = mix(x, g) ^ 0x1234_5678;
        if let Some(i) = self.item_index.find(h, |id| {
            items
                .get(id as usize)
                .map(|t| t.owner == x && t.group == g)
                .unwrap_or(false)
        }) {
            return i;
        }
        let id = self.new_item(Item {
            group: g,
            callee: NONE,
            owner: x,
            parent: NONE,
            label: 0,
            data: 0,
            executions: 0,
            recorded: false,
            incl_label: 0,
            incl: Poly::default(),
            excl: Poly::default(),
        });
        if id != NONE {
            self.item_index.insert(h, id);
        }
        id
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

    /// Makes `cand` the parent loop of `item`, unless that makes a cycle or the current
    /// parent is deeper.
    fn set_parent(&mut self, item: u32, cand: u32) {
        if item == cand || item == NONE || cand == NONE {
            return;
        }
        // Cycle: is `item` an ancestor of `cand`?
        let mut a = cand;
        let mut guard = 0;
        while a != NONE && guard < WALK_LIMIT {
            if a == item {
                return;
            }
            a = self.item(a).map(|t| t.parent).unwrap_or(NONE);
            guard += 1;
        }
        let Some(cur) = self.item(item).map(|t| t.parent) else {
            return;
        };
        let replace = if cur == NONE || cur == cand {
            true
        } else {
            // Replace only by a descendant of the current parent (deeper).
            let mut a = self.item(cand).map(|t| t.parent).unwrap_or(NONE);
            let mut guard = 0;
            let mut below = false;
            while a != NONE && guard < WALK_LIMIT {
                if a == cur {
                    below = true;
                    break;
                }
                a = self.item(a).map(|t| t.parent).unwrap_or(NONE);
                guard += 1;
            }
            below
        };
        if replace {
            if let Some(t) = self.item_mut(item) {
                t.parent = cand;
            }
        }
    }

    /// Places `item` (sitting in logical node `x`) under its physical container loop
    /// `c`, a loop of the physical node whose path is `phys_path`.
    fn place(&mut self, item: u32, x: u32, phys_path: u32, mut c: *const LoopDesc) {
        let mut guard = 0;
        while !c.is_null() && guard < WALK_LIMIT {
            guard += 1;
            let Some(g) = self.group_of(c) else { return };
            // SAFETY: a registered descriptor (found in by_desc), n_chain >= 1.
            let d = unsafe { &*c };
            let next = d.parent;
            let Some(f) = self.group(g).map(|l| l.func) else {
                return;
            };
            let x2 = self
                .paths
                .find(phys_path, d.chain, d.n_chain - 1)
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
                        let ci = self.lnode(a).map(|n| n.call_item).unwrap_or(NONE);
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

    fn build_logical(&mut self) {
        for pi in 0..self.pnodes.len() {
            let Some(pn) = self.pnodes.as_slice().get(pi).copied() else {
                break;
            };
            // SAFETY: nodes are never freed.
            let node = unsafe { &*pn.node };
            if !node.is_root() {
                // SAFETY: checked valid when walking the tree.
                let f = self.fn_of(unsafe { &(*node.func).loc });
                let z = self.ensure(pn.path, f);
                let (zpath, zparent, ci) = self
                    .lnode(z)
                    .map(|n| (n.path, n.parent, n.call_item))
                    .unwrap_or((NONE, NONE, NONE));
                if zpath == pn.path && ci != NONE && zparent != NONE && !pn.site.is_null() {
                    // SAFETY: a valid SiteDesc of the parent's (registered) module.
                    let container = unsafe { (*pn.site).loop_ };
                    self.place(ci, zparent, pn.parent_path, container);
                }
            }
            node.for_each_loop(|lp, label, executions| {
                self.add_loop_record(pn.path, lp, label, executions)
            });
        }
    }

    fn add_loop_record(&mut self, phys_path: u32, lp: *const LoopDesc, label: Label, execs: u64) {
        let Some(g) = self.group_of(lp) else {
            self.unknown_loops += 1;
            return;
        };
        // SAFETY: a registered descriptor, n_chain >= 1.
        let d = unsafe { &*lp };
        let path = self.paths.intern(phys_path, d.chain, d.n_chain - 1);
        let f = self.group(g).map(|l| l.func).unwrap_or(NONE);
        let x = self.ensure(path, f);
        if x == NONE {
            return;
        }
        let li = self.loop_item(x, g);
        if let Some(t) = self.item_mut(li) {
            t.label |= crate::split::params(label);
            t.data |= crate::split::data(label);
            t.executions = t.executions.wrapping_add(execs);
            t.recorded = true;
        } else {
            return;
        }
        self.place(li, x, phys_path, d.parent);
    }

    /// Static pruning of functions the pass never saw out of line (inlined everywhere):
    /// only constant-trip loops, and no call to a function that is not pruned.
    fn derive_pruning(&mut self) {
        for fi in 0..self.funcs.len() {
            let Some(f) = self.funcs.as_slice().get(fi).copied() else {
                break;
            };
            let pruned = if f.has_desc {
                f.flag_pruned
            } else {
                self.loops
                    .as_slice()
                    .get(f.loops.0 as usize..f.loops.1 as usize)
                    .unwrap_or(&[])
                    .iter()
                    .all(|l| l.static_const)
            };
            if let Some(g) = self.funcs.as_mut_slice().get_mut(fi) {
                g.statically_pruned = pruned;
            }
        }
        for _round in 0..64 {
            let mut changed = false;
            for i in 0..self.lnodes.len() {
                let Some(z) = self.lnodes.as_slice().get(i).copied() else {
                    break;
                };
                if z.alias != NONE || z.parent == NONE {
                    continue;
                }
                let Some(y) = self.lnode(z.parent).copied() else {
                    continue;
                };
                let callee_pruned = self
                    .func(z.func)
                    .map(|f| f.statically_pruned)
                    .unwrap_or(false);
                if let Some(caller) = self.func_mut(y.func) {
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

    // -- 5. volumes --------------------------------------------------------------------

    /// Children lists (CSR): item -> child items; logical node -> top-level items.
    fn build_children(&mut self) {
        let (ni, nl) = (self.items.len(), self.lnodes.len());
        let mut ok = self.item_child_start.resize(ni + 1, 0);
        ok &= self.lnode_top_start.resize(nl + 1, 0);
        ok &= self.item_children.resize(ni, 0);
        ok &= self.lnode_top.resize(ni, 0);
        if !ok {
            self.incomplete = true;
            self.item_child_start.truncate(0);
            self.lnode_top_start.truncate(0);
            return;
        }
        for t in self.items.as_slice() {
            let (v, k) = if t.parent != NONE {
                (&mut self.item_child_start, t.parent)
            } else {
                (&mut self.lnode_top_start, t.owner)
            };
            if let Some(c) = v.as_mut_slice().get_mut(k as usize + 1) {
                *c += 1;
            }
        }
        for v in [&mut self.item_child_start, &mut self.lnode_top_start] {
            let s = v.as_mut_slice();
            for i in 1..s.len() {
                let prev = s.get(i - 1).copied().unwrap_or(0);
                if let Some(x) = s.get_mut(i) {
                    *x += prev;
                }
            }
        }
        // Fill, using a cursor copy of the starts.
        let mut cur_i: MmapVec<u32> = MmapVec::new();
        let mut cur_l: MmapVec<u32> = MmapVec::new();
        for &x in self.item_child_start.as_slice() {
            ok &= cur_i.push(x);
        }
        for &x in self.lnode_top_start.as_slice() {
            ok &= cur_l.push(x);
        }
        self.incomplete |= !ok;
        for (id, t) in self.items.as_slice().iter().enumerate() {
            let (cur, out, k) = if t.parent != NONE {
                (&mut cur_i, &mut self.item_children, t.parent)
            } else {
                (&mut cur_l, &mut self.lnode_top, t.owner)
            };
            if let Some(c) = cur.as_mut_slice().get_mut(k as usize) {
                if let Some(slot) = out.as_mut_slice().get_mut(*c as usize) {
                    *slot = id as u32;
                }
                *c += 1;
            }
        }
    }

    fn children_of(&self, item: u32) -> &[u32] {
        let st = self.item_child_start.as_slice();
        match (st.get(item as usize), st.get(item as usize + 1)) {
            (Some(&a), Some(&b)) => self
                .item_children
                .as_slice()
                .get(a as usize..b as usize)
                .unwrap_or(&[]),
            _ => &[],
        }
    }

    fn top_of(&self, lnode: u32) -> &[u32] {
        let st = self.lnode_top_start.as_slice();
        match (st.get(lnode as usize), st.get(lnode as usize + 1)) {
            (Some(&a), Some(&b)) => self
                .lnode_top
                .as_slice()
                .get(a as usize..b as usize)
                .unwrap_or(&[]),
            _ => &[],
        }
    }

    fn compute_volumes(&mut self) {
        self.build_children();
        // Deepest logical nodes first: a call item needs its callee's volume.
        let mut order: MmapVec<u32> = MmapVec::new();
        for i in 0..self.lnodes.len() as u32 {
            self.incomplete |= !order.push(i);
        }
        {
            let ln = self.lnodes.as_slice();
            order.as_mut_slice().sort_unstable_by(|&a, &b| {
                let da = ln.get(a as usize).map(|n| n.depth).unwrap_or(0);
                let db = ln.get(b as usize).map(|n| n.depth).unwrap_or(0);
                db.cmp(&da)
            });
        }
        for &z in order.as_slice() {
            if self.lnode(z).map(|n| n.alias != NONE).unwrap_or(true) {
                continue;
            }
            // Post-order over the item forest of z.
            self.stack.truncate(0);
            let mut ok = true;
            for i in 0..self.top_of(z).len() {
                if let Some(&t) = self.top_of(z).get(i) {
                    ok &= self.stack.push((t, false));
                }
            }
            let mut guard = 0usize;
            while let Some((it, done)) = self.stack.pop() {
                guard += 1;
                if guard > self.items.len() * 2 + 16 {
                    break; // never trust a structure to be a forest
                }
                if done {
                    self.compute_item(it);
                    continue;
                }
                ok &= self.stack.push((it, true));
                for i in 0..self.children_of(it).len() {
                    if let Some(&c) = self.children_of(it).get(i) {
                        ok &= self.stack.push((c, false));
                    }
                }
            }
            self.incomplete |= !ok;
            let start = self.pool.mark();
            let mut il = 0;
            for i in 0..self.top_of(z).len() {
                let Some(&t) = self.top_of(z).get(i) else {
                    break;
                };
                if let Some(x) = self.item(t).copied() {
                    self.pool.append(x.incl);
                    il |= x.incl_label;
                }
            }
            let incl = self.pool.finish(start);
            let start = self.pool.mark();
            for i in 0..self.top_of(z).len() {
                let Some(&t) = self.top_of(z).get(i) else {
                    break;
                };
                if let Some(x) = self.item(t).copied() {
                    self.pool.append(x.excl);
                }
            }
            let excl = self.pool.finish(start);
            if let Some(n) = self.lnode_mut(z) {
                n.incl = incl;
                n.excl = excl;
                n.incl_label = il;
            }
        }
    }

    fn compute_item(&mut self, it: u32) {
        let Some(t) = self.item(it).copied() else {
            return;
        };
        if t.group == NONE {
            let (incl, il) = self
                .lnode(t.callee)
                .map(|n| (n.incl, n.incl_label))
                .unwrap_or_default();
            if let Some(x) = self.item_mut(it) {
                x.incl = incl;
                x.incl_label = il;
                x.excl = Poly::default();
            }
            return;
        }
        let mut il = t.label;
        // Inclusive: label times the union of all children.
        let start = self.pool.mark();
        for i in 0..self.children_of(it).len() {
            let Some(&c) = self.children_of(it).get(i) else {
                break;
            };
            if let Some(x) = self.item(c).copied() {
                self.pool.append(x.incl);
                il |= x.incl_label;
            }
        }
        let incl = self.nest(start, t.label);
        // Exclusive: the same over loop children only.
        let start = self.pool.mark();
        for i in 0..self.children_of(it).len() {
            let Some(&c) = self.children_of(it).get(i) else {
                break;
            };
            if let Some(x) = self.item(c).copied() {
                self.pool.append(x.excl);
            }
        }
        let excl = self.nest(start, t.label);
        if let Some(x) = self.item_mut(it) {
            x.incl = incl;
            x.excl = excl;
            x.incl_label = il;
        }
    }

    /// The volume of a loop with label `l` around the body appended from `start` on.
    fn nest(&mut self, start: usize, l: Label) -> Poly {
        let body = self.pool.finish(start);
        if body.len == 0 {
            self.pool.push(Term::single(l));
        } else {
            self.pool.mul_from(start, l);
        }
        self.pool.finish(start)
    }

    // -- 6. per function ---------------------------------------------------------------

    fn aggregate(&mut self) {
        // Out of memory for the ranks: the same order, by walking paths.
        let ranks = self.paths.ranks();
        // Loop contexts: recorded loop items by (group, path).
        for (i, t) in self.items.as_slice().iter().enumerate() {
            if t.group != NONE && t.recorded {
                self.incomplete |= !self.loop_contexts.push(i as u32);
            }
        }
        {
            let (items, ln, paths) = (self.items.as_slice(), self.lnodes.as_slice(), &self.paths);
            let (ba, bb) = (&mut self.buf_a, &mut self.buf_b);
            let ranks = ranks.as_ref().map(|r| r.as_slice());
            let mut by_content = |a: u32, b: u32| match ranks {
                Some(r) => r.get(a as usize).cmp(&r.get(b as usize)),
                None => paths.cmp(a, b, ba, bb),
            };
            let path_of = |i: u32| {
                items
                    .get(i as usize)
                    .and_then(|t| ln.get(t.owner as usize))
                    .map(|n| n.path)
                    .unwrap_or(0)
            };
            let group_of = |i: u32| items.get(i as usize).map(|t| t.group).unwrap_or(NONE);
            self.loop_contexts
                .as_mut_slice()
                .sort_unstable_by(|&a, &b| {
                    group_of(a)
                        .cmp(&group_of(b))
                        .then_with(|| by_content(path_of(a), path_of(b)))
                });
        }
        let mut i = 0usize;
        let n = self.loop_contexts.len();
        while i < n {
            let g = self
                .loop_contexts
                .as_slice()
                .get(i)
                .and_then(|&x| self.item(x))
                .map(|t| t.group)
                .unwrap_or(NONE);
            let mut e = i;
            let (mut label, mut data, mut execs) = (0, 0, 0u64);
            while let Some(t) = self
                .loop_contexts
                .as_slice()
                .get(e)
                .and_then(|&x| self.item(x))
            {
                if t.group != g {
                    break;
                }
                label |= t.label;
                data |= t.data;
                execs = execs.wrapping_add(t.executions);
                e += 1;
            }
            if e == i {
                break;
            }
            if let Some(grp) = self.loops.as_mut_slice().get_mut(g as usize) {
                grp.label = label;
                grp.data = data;
                grp.executions = execs;
                grp.contexts = (i as u32, e as u32);
            }
            i = e;
        }
        // Function contexts: logical nodes (not folded) by (function, path).
        for (i, nd) in self.lnodes.as_slice().iter().enumerate() {
            if nd.alias == NONE {
                self.incomplete |= !self.fn_contexts.push(i as u32);
            }
        }
        {
            let (ln, paths) = (self.lnodes.as_slice(), &self.paths);
            let (ba, bb) = (&mut self.buf_a, &mut self.buf_b);
            let ranks = ranks.as_ref().map(|r| r.as_slice());
            let mut by_content = |a: u32, b: u32| match ranks {
                Some(r) => r.get(a as usize).cmp(&r.get(b as usize)),
                None => paths.cmp(a, b, ba, bb),
            };
            let key = |i: u32| {
                ln.get(i as usize)
                    .map(|n| (n.func, n.path))
                    .unwrap_or((NONE, 0))
            };
            self.fn_contexts.as_mut_slice().sort_unstable_by(|&a, &b| {
                let (fa, pa) = key(a);
                let (fb, pb) = key(b);
                fa.cmp(&fb).then_with(|| by_content(pa, pb))
            });
        }
        let mut i = 0usize;
        let n = self.fn_contexts.len();
        while i < n {
            let f = self
                .fn_contexts
                .as_slice()
                .get(i)
                .and_then(|&x| self.lnode(x))
                .map(|l| l.func)
                .unwrap_or(NONE);
            let mut e = i;
            let mut il = 0;
            while let Some(l) = self
                .fn_contexts
                .as_slice()
                .get(e)
                .and_then(|&x| self.lnode(x))
            {
                if l.func != f {
                    break;
                }
                il |= l.incl_label;
                e += 1;
            }
            if e == i {
                break;
            }
            let start = self.pool.mark();
            for k in i..e {
                let Some(p) = self
                    .fn_contexts
                    .as_slice()
                    .get(k)
                    .and_then(|&x| self.lnode(x))
                    .map(|l| l.incl)
                else {
                    continue;
                };
                self.pool.append(p);
            }
            let incl = self.pool.finish(start);
            let start = self.pool.mark();
            for k in i..e {
                let Some(p) = self
                    .fn_contexts
                    .as_slice()
                    .get(k)
                    .and_then(|&x| self.lnode(x))
                    .map(|l| l.excl)
                else {
                    continue;
                };
                self.pool.append(p);
            }
            let excl = self.pool.finish(start);
            if let Some(g) = self.func_mut(f) {
                g.contexts = (i as u32, e as u32);
                g.executed = true;
                g.incl = incl;
                g.excl = excl;
                g.incl_label = il;
            }
            i = e;
        }
        // Exclusive params: the function's own loops, over every context.
        for fi in 0..self.funcs.len() {
            let Some(f) = self.funcs.as_slice().get(fi).copied() else {
                break;
            };
            let el = self
                .loops
                .as_slice()
                .get(f.loops.0 as usize..f.loops.1 as usize)
                .unwrap_or(&[])
                .iter()
                .fold(0, |a, l| a | l.label);
            if let Some(g) = self.funcs.as_mut_slice().get_mut(fi) {
                g.excl_label = el;
                g.incl_label |= el;
            }
        }
    }
}

/// Same function instance: equal inline chain prefixes and the same written function.
fn same_instance(a: &LoopDesc, b: &LoopDesc) -> bool {
    let (x, y) = (chain(a.chain, a.n_chain), chain(b.chain, b.n_chain));
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
fn successor_line(branch: &SrcLoc, depth: u32, sc: &[SrcLoc]) -> u32 {
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
    sc.last().map(|e| e.line).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Average distance from each key's first slot to where it sits.
    fn mean_displacement(ix: &Index) -> f64 {
        let t = ix.slots.as_slice();
        let mask = t.len() - 1;
        let (mut sum, mut n) = (0usize, 0usize);
        for (i, &(h, v)) in t.iter().enumerate() {
            if v != 0 {
                sum += i.wrapping_sub(first_slot(h, mask)) & mask;
                n += 1;
            }
        }
        sum as f64 / n as f64
    }

    #[test]
    fn many_paths_of_one_function_spread_over_the_index() {
        // A recursive parser: one function, tens of thousands of calling paths.
        let mut ix = Index::default();
        let n = 50_000u32;
        for path in 0..n {
            ix.insert(mix(path, 7), path);
        }
        assert!(!ix.failed);
        let d = mean_displacement(&ix);
        assert!(d < 4.0, "mean probe distance {d}");
        for path in (0..n).step_by(997) {
            assert_eq!(ix.find(mix(path, 7), |id| id == path), Some(path));
        }
        assert_eq!(ix.find(mix(n, 7), |id| id == n), None);
    }

    #[test]
    fn path_ranks_follow_content_order() {
        // Frames in three functions at a few lines, leaked for the test's lifetime.
        let frame = |f: &'static core::ffi::CStr, line: u32| -> *const SrcLoc {
            Box::into_raw(Box::new(SrcLoc {
                function: f.as_ptr(),
                linkage: f.as_ptr(),
                file: c"app.c".as_ptr(),
                fn_line: 1,
                line,
                column: 1,
                _reserved: 0,
            }))
        };
        let frames = [
            frame(c"main", 9),
            frame(c"main", 4),
            frame(c"walk", 7),
            frame(c"walk", 3),
            frame(c"leaf", 2),
        ];
        // Every path of up to four frames, interned in a scrambled order.
        let mut p = Paths::new();
        let mut ids = Vec::new();
        let mut x = 7u32;
        for _ in 0..400 {
            let mut id = 0;
            for _ in 0..(x % 4 + 1) {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345) >> 1;
                id = p.intern1(id, frames[(x % 5) as usize]);
            }
            ids.push(id);
        }
        ids.push(0);
        let ranks = p.ranks().expect("memory for the ranks");
        let r = ranks.as_slice();
        let (mut ba, mut bb) = (MmapVec::new(), MmapVec::new());
        for &a in &ids {
            for &b in &ids {
                assert_eq!(
                    r[a as usize].cmp(&r[b as usize]),
                    p.cmp(a, b, &mut ba, &mut bb),
                    "paths {a} and {b}"
                );
            }
        }
    }
}
