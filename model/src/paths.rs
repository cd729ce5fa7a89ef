//! Hash-consed frame paths (the port of `Paths` in the runtime's former `rt/src/model.rs`).
//!
//! A path is a sequence of frames `{function, file, line, column}`: the call-site chains
//! from a thread's root down to a calling context, each followed by the inline chain of
//! whatever sits in the node. Id 0 is the empty path; every other id is its parent's
//! path followed by one frame, and frames equal by [`cmp_frame`] get the same id, so a
//! logical calling context is a `(path id, function)` pair and two copies of the same
//! source call (inlined, versioned, in another thread) meet.
//!
//! The report lists contexts in content order (frame by frame, a prefix first):
//! [`Paths::ranks`] gives every id its position in that order.

use crate::source::{cmp_frame, Loc};
use taintprof_record::hash::FastMap;

#[derive(Clone, Copy, Debug)]
struct PathEnt {
    parent: u32,
    frame: Loc,
}

/// Frame identity: what [`cmp_frame`] compares.
type FrameKey = (u32, u32, u32, u32, u32);

fn frame_key(f: &Loc) -> FrameKey {
    (f.function, f.file, f.line, f.column, f.linkage)
}

/// Interned paths (see the module comment).
#[derive(Debug)]
pub struct Paths {
    ents: Vec<PathEnt>,
    index: FastMap<(u32, FrameKey), u32>,
}

impl Default for Paths {
    fn default() -> Self {
        Self::new()
    }
}

impl Paths {
    pub fn new() -> Self {
        Paths {
            ents: vec![PathEnt {
                parent: 0,
                frame: Loc::default(),
            }],
            index: FastMap::default(),
        }
    }

    /// Number of ids (the empty path included).
    pub fn len(&self) -> usize {
        self.ents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ents.len() <= 1
    }

    /// The path without its last frame (0 for 0).
    pub fn parent(&self, id: u32) -> u32 {
        self.ents.get(id as usize).map_or(0, |e| e.parent)
    }

    /// The last frame of a non-empty path.
    pub fn frame(&self, id: u32) -> Option<&Loc> {
        if id == 0 {
            return None;
        }
        self.ents.get(id as usize).map(|e| &e.frame)
    }

    /// Makes room for `n` more paths.
    pub fn reserve(&mut self, n: usize) {
        self.ents.reserve(n);
        self.index.reserve(n);
    }

    /// Id of `parent` followed by the frame `f`.
    pub fn intern1(&mut self, parent: u32, f: &Loc) -> u32 {
        // One probe of the index for a hit or a miss.
        let ents = &mut self.ents;
        *self.index.entry((parent, frame_key(f))).or_insert_with(|| {
            ents.push(PathEnt { parent, frame: *f });
            ents.len() as u32 - 1
        })
    }

    /// Id of `parent` followed by `frames`.
    pub fn intern(&mut self, parent: u32, frames: &[Loc]) -> u32 {
        frames.iter().fold(parent, |id, f| self.intern1(id, f))
    }

    /// Like [`Paths::intern`], but only finds paths that exist.
    pub fn find(&self, parent: u32, frames: &[Loc]) -> Option<u32> {
        let mut id = parent;
        for f in frames {
            id = *self.index.get(&(id, frame_key(f)))?;
        }
        Some(id)
    }

    /// The ids of path `id`'s prefixes, root first (each names its last frame).
    pub fn ids_root_first(&self, mut id: u32) -> Vec<u32> {
        let mut out = Vec::new();
        while id != 0 && out.len() < self.ents.len() {
            out.push(id);
            id = self.parent(id);
        }
        out.reverse();
        out
    }

    /// Every id's children (the ids one frame longer), sorted by frame, in one array:
    /// the children of `id` are `kids[start[id]..start[id + 1]]`. Children of one id
    /// have distinct frames ([`Paths::intern1`]), so the order is total.
    fn sorted_children(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.ents.len();
        let mut start = vec![0u32; n + 1];
        for e in self.ents.iter().skip(1) {
            start[e.parent as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut kids = vec![0u32; n.saturating_sub(1)];
        for (id, e) in self.ents.iter().enumerate().skip(1) {
            let f = &mut fill[e.parent as usize];
            kids[*f as usize] = id as u32;
            *f += 1;
        }
        for w in start.windows(2) {
            kids[w[0] as usize..w[1] as usize].sort_unstable_by(|&x, &y| {
                cmp_frame(&self.ents[x as usize].frame, &self.ents[y as usize].frame)
            });
        }
        (start, kids)
    }

    /// For every id, whether its last frame shares (parent, function, file, line) with
    /// another path that differs only in the column: two calls on one line. Only those
    /// frames show their column in the report.
    pub fn line_shared(&self) -> Vec<bool> {
        self.order().1
    }

    /// Every id's position in content order: a preorder walk of the path tree with each
    /// node's children sorted by frame.
    pub fn ranks(&self) -> Vec<u32> {
        self.order().0
    }

    /// [`Paths::ranks`] and [`Paths::line_shared`] from one sort of the children.
    pub fn order(&self) -> (Vec<u32>, Vec<bool>) {
        let n = self.ents.len();
        let (start, kids) = self.sorted_children();
        let kids_of = |id: u32| &kids[start[id as usize] as usize..start[id as usize + 1] as usize];
        // Sorted by (function, file, line, column, linkage), the children that share
        // (function, file, line) are neighbours: runs of two or more.
        let line = |id: u32| {
            let f = &self.ents[id as usize].frame;
            (f.function, f.file, f.line)
        };
        let mut shared = vec![false; n];
        for w in start.windows(2) {
            let row = &kids[w[0] as usize..w[1] as usize];
            let mut i = 0;
            while i < row.len() {
                let mut e = i + 1;
                while e < row.len() && line(row[e]) == line(row[i]) {
                    e += 1;
                }
                if e - i > 1 {
                    for &id in &row[i..e] {
                        shared[id as usize] = true;
                    }
                }
                i = e;
            }
        }
        let mut rank = vec![u32::MAX; n];
        let mut stack = vec![0u32];
        let mut next = 0u32;
        while let Some(id) = stack.pop() {
            rank[id as usize] = next;
            next += 1;
            stack.extend(kids_of(id).iter().rev());
        }
        (rank, shared)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(function: u32, line: u32, column: u32) -> Loc {
        Loc {
            function,
            linkage: function,
            file: 1,
            fn_line: 1,
            line,
            column,
        }
    }

    #[test]
    fn equal_frames_share_ids_and_ranks_follow_content() {
        let mut p = Paths::new();
        let a = p.intern(0, &[l(2, 10, 1), l(3, 5, 1)]);
        let b = p.intern(0, &[l(2, 10, 1), l(3, 5, 1)]);
        assert_eq!(a, b);
        let c = p.intern(0, &[l(2, 9, 1)]);
        let d = p.intern(0, &[l(2, 10, 1)]);
        assert_eq!(p.parent(a), d);
        assert_eq!(p.find(0, &[l(2, 10, 1), l(3, 5, 1)]), Some(a));
        assert_eq!(p.find(0, &[l(2, 11, 1)]), None);
        let r = p.ranks();
        // Line 9 before line 10; a prefix before its extensions.
        assert!(r[c as usize] < r[d as usize]);
        assert!(r[d as usize] < r[a as usize]);
        assert_eq!(p.ids_root_first(a), vec![d, a]);
        // Two calls on one line.
        let e = p.intern1(0, &l(2, 10, 7));
        let shared = p.line_shared();
        assert!(shared[d as usize] && shared[e as usize]);
        assert!(!shared[c as usize] && !shared[a as usize]);
    }

    /// Content order of two paths, computed directly: frame by frame from the root
    /// ([`cmp_frame`]), a prefix first.
    fn cmp_paths(p: &Paths, a: u32, b: u32) -> std::cmp::Ordering {
        let frames = |id| -> Vec<Loc> {
            p.ids_root_first(id)
                .into_iter()
                .map(|i| *p.frame(i).unwrap())
                .collect()
        };
        let (fa, fb) = (frames(a), frames(b));
        for (x, y) in fa.iter().zip(&fb) {
            let c = cmp_frame(x, y);
            if c != std::cmp::Ordering::Equal {
                return c;
            }
        }
        fa.len().cmp(&fb.len())
    }

    // Ported from the runtime's former `rt/src/model.rs` (`path_ranks_follow_content_order`).
    #[test]
    fn path_ranks_follow_content_order() {
        // Frames in three functions at a few lines (function ids 1..3 in name order).
        let frames = [l(2, 9, 1), l(2, 4, 1), l(3, 7, 1), l(3, 3, 1), l(1, 2, 1)];
        // Every path of up to four frames, interned in a scrambled order.
        let mut p = Paths::new();
        let mut ids = Vec::new();
        let mut x = 7u32;
        for _ in 0..400 {
            let mut id = 0;
            for _ in 0..(x % 4 + 1) {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345) >> 1;
                id = p.intern1(id, &frames[(x % 5) as usize]);
            }
            ids.push(id);
        }
        ids.push(0);
        let r = p.ranks();
        for &a in &ids {
            for &b in &ids {
                assert_eq!(
                    r[a as usize].cmp(&r[b as usize]),
                    cmp_paths(&p, a, b),
                    "paths {a} and {b}"
                );
            }
        }
    }
}
