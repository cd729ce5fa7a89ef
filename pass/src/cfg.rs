//! Control-flow graphs and (post-)dominator trees, independent of LLVM.
//!
//! A [`Cfg`] is built from a function's blocks (numbered in layout order, entry = 0) by
//! `crate::prepare`, or by hand in unit tests. Dominators come from petgraph's
//! Cooper–Harvey–Kennedy implementation (`algo::dominators::simple_fast`);
//! post-dominators are dominators of the reversed graph rooted at a virtual exit that
//! every block ending in `ret`/`unreachable`/`resume` flows into.
//!
//! Both trees answer `dominates(a, b)` in O(1) through DFS interval numbering, because
//! the loop analysis and the control-flow tainting ask it in inner loops.
//!
//! Blocks that cannot reach any exit (an infinite loop left only by `exit()` inside a
//! callee that is not `noreturn`, a server's `for (;;)`) would have no post-dominator
//! and so no control dependences. As LLVM's PostDominatorTree does, such a region gets
//! a virtual edge to the exit from its first block in reverse post-order (normally the
//! header of the outermost infinite loop), so that every reachable block is in the tree.

use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::Reversed;

/// A CFG over blocks `0..n`; block 0 is the entry.
#[derive(Debug, Clone, Default)]
pub struct Cfg {
    /// Successors in terminator order (duplicates kept: a `switch` may name a block twice).
    pub succs: Vec<Vec<usize>>,
    /// Blocks that leave the function (`ret`, `unreachable`, `resume`).
    pub exits: Vec<usize>,
    /// Blocks ending in `ret` (a subset of `exits`).
    pub returns: Vec<usize>,
    /// Blocks ending in `resume` (a subset of `exits`).
    pub resumes: Vec<usize>,
    /// Unwind edges (`invoke` to its landing pad), also present in `succs`. The
    /// post-dominator tree ignores them (see [`Cfg::post_dominators`]).
    pub unwind: Vec<(usize, usize)>,
    /// Edges into code that ends the program (an error exit: `exit(3)` after a failed
    /// check), also present in `succs`. The post-dominator tree ignores them, so the
    /// check controls nothing after it; see [`Cfg::mark_program_ends`].
    pub ends_program: Vec<(usize, usize)>,
}

impl Cfg {
    pub fn new(n: usize) -> Cfg {
        Cfg {
            succs: vec![Vec::new(); n],
            exits: Vec::new(),
            returns: Vec::new(),
            resumes: Vec::new(),
            unwind: Vec::new(),
            ends_program: Vec::new(),
        }
    }

    /// Whether the post-dominator tree leaves out edge `b -> s`.
    fn ignored_for_pdom(&self, b: usize, s: usize) -> bool {
        self.unwind.contains(&(b, s)) || self.ends_program.contains(&(b, s))
    }

    /// Finds the edges into code that ends the program and records them in
    /// `ends_program`; returns `dying[b]`.
    ///
    /// A block *dies* if no path from it reaches a `ret` or `resume` (following every
    /// edge, unwind edges too: a throw that is caught is not an end) and it is not in a
    /// loop (`in_loop`): what it leads to is `exit()`, `abort()`, an uncaught throw or an
    /// endless wait, never back to the function's caller. An edge from a live block into a
    /// dying one is a way to end the program, not a way on: a decision whose other side
    /// dies controls nothing after it, and a loop exit into dying code is not a way out
    /// of the loop (`crate::prepare`). Except where a loop has no other way out (an
    /// event loop `for (;;) { if (done) exit(0); ... }`): then those edges are its exits
    /// and stay (`loop_has_live_exit` answers for the loops around a block).
    pub fn mark_program_ends(
        &mut self,
        in_loop: &[bool],
        loop_has_live_exit: impl Fn(usize, &[bool]) -> bool,
    ) -> Vec<bool> {
        let n = self.len();
        let mut live = vec![false; n];
        let preds = self.preds();
        let mut work: Vec<usize> = Vec::new();
        for &b in self.returns.iter().chain(&self.resumes) {
            if !live[b] {
                live[b] = true;
                work.push(b);
            }
        }
        while let Some(b) = work.pop() {
            for &p in &preds[b] {
                if !live[p] {
                    live[p] = true;
                    work.push(p);
                }
            }
        }
        let mut reachable = vec![false; n];
        for b in self.reverse_post_order() {
            reachable[b] = true;
        }
        let dying: Vec<bool> = (0..n)
            .map(|b| reachable[b] && !live[b] && !in_loop.get(b).copied().unwrap_or(false))
            .collect();
        // A function that always dies (a usage() that exits) has nothing to ignore.
        if n == 0 || dying[0] {
            return vec![false; n];
        }
        let mut ends = Vec::new();
        for (b, ss) in self.succs.iter().enumerate() {
            if dying[b] || !reachable[b] {
                continue;
            }
            for &s in ss {
                if dying[s] && loop_has_live_exit(b, &dying) && !ends.contains(&(b, s)) {
                    ends.push((b, s));
                }
            }
        }
        self.ends_program = ends;
        dying
    }

    pub fn len(&self) -> usize {
        self.succs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.succs.is_empty()
    }

    pub fn edge(&mut self, from: usize, to: usize) {
        self.succs[from].push(to);
    }

    /// Predecessors of every block (each edge once per occurrence).
    pub fn preds(&self) -> Vec<Vec<usize>> {
        let mut p = vec![Vec::new(); self.len()];
        for (b, ss) in self.succs.iter().enumerate() {
            for &s in ss {
                p[s].push(b);
            }
        }
        p
    }

    /// The graph, with a virtual exit node (post-dominators: then without unwind
    /// edges) or without (dominators: every edge).
    fn graph(&self, virtual_exit: bool, extra_exits: &[usize]) -> DiGraph<(), ()> {
        let n = self.len() + virtual_exit as usize;
        let mut g = DiGraph::with_capacity(n, n * 2);
        for _ in 0..n {
            g.add_node(());
        }
        for (b, ss) in self.succs.iter().enumerate() {
            for &s in ss {
                if virtual_exit && self.ignored_for_pdom(b, s) {
                    continue;
                }
                g.add_edge(NodeIndex::new(b), NodeIndex::new(s), ());
            }
        }
        if virtual_exit {
            let v = NodeIndex::new(self.len());
            for &e in self.exits.iter().chain(extra_exits) {
                g.add_edge(NodeIndex::new(e), v, ());
            }
        }
        g
    }

    /// Blocks reachable from the entry, in reverse post-order.
    pub fn reverse_post_order(&self) -> Vec<usize> {
        if self.is_empty() {
            return Vec::new();
        }
        let mut seen = vec![false; self.len()];
        let mut post = Vec::with_capacity(self.len());
        // Iterative DFS: (block, next successor index).
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            if *i < self.succs[b].len() {
                let s = self.succs[b][*i];
                *i += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        post.reverse();
        post
    }

    pub fn dominators(&self) -> DomTree {
        let g = self.graph(false, &[]);
        let d = simple_fast(&g, NodeIndex::new(0));
        let idom = (0..self.len())
            .map(|b| d.immediate_dominator(NodeIndex::new(b)).map(|x| x.index()))
            .collect();
        DomTree::from_idoms(idom, Some(0))
    }

    /// Blocks reachable from the entry that cannot reach an exit get a virtual exit
    /// edge from the first of them in reverse post-order, repeatedly, until every
    /// reachable block reaches an exit. Returns those blocks.
    pub fn virtual_exits(&self) -> Vec<usize> {
        let mut preds = vec![Vec::new(); self.len()];
        for (b, ss) in self.succs.iter().enumerate() {
            for &s in ss {
                if !self.ignored_for_pdom(b, s) {
                    preds[s].push(b);
                }
            }
        }
        let mut reaches = vec![false; self.len()];
        let mut work: Vec<usize> = Vec::new();
        let mark = |b: usize, reaches: &mut Vec<bool>, work: &mut Vec<usize>| {
            if !reaches[b] {
                reaches[b] = true;
                work.push(b);
            }
        };
        for &e in &self.exits {
            mark(e, &mut reaches, &mut work);
        }
        let mut extra = Vec::new();
        let rpo = self.reverse_post_order();
        let mut next = 0;
        loop {
            while let Some(b) = work.pop() {
                for &p in &preds[b] {
                    mark(p, &mut reaches, &mut work);
                }
            }
            while next < rpo.len() && reaches[rpo[next]] {
                next += 1;
            }
            if next == rpo.len() {
                break;
            }
            extra.push(rpo[next]);
            mark(rpo[next], &mut reaches, &mut work);
        }
        extra
    }

    /// Post-dominator tree over the normal (non-unwind) edges. Node `self.len()` is the
    /// virtual exit (the root). Regions that cannot reach an exit are joined to it by
    /// [`Cfg::virtual_exits`]; blocks unreachable from the entry may still be missing
    /// from the tree.
    ///
    /// Unwind edges are left out: with them, every block after a call that may throw
    /// would be "not post-dominated" (the exception path escapes), and in C++ code
    /// nothing after an `invoke` would depend on the loop or `if` around it.
    pub fn post_dominators(&self) -> DomTree {
        let extra = self.virtual_exits();
        let g = self.graph(true, &extra);
        let root = NodeIndex::new(self.len());
        let d = simple_fast(Reversed(&g), root);
        let idom = (0..=self.len())
            .map(|b| d.immediate_dominator(NodeIndex::new(b)).map(|x| x.index()))
            .collect();
        DomTree::from_idoms(idom, Some(self.len()))
    }
}

/// A (post-)dominator tree with O(1) dominance queries.
#[derive(Debug, Clone)]
pub struct DomTree {
    /// Immediate dominator of each node (`None` for the root and unreachable nodes).
    pub idom: Vec<Option<usize>>,
    #[allow(dead_code)]
    root: Option<usize>,
    /// DFS entry/exit numbers in the tree; `u32::MAX` for nodes not in the tree.
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl DomTree {
    fn from_idoms(idom: Vec<Option<usize>>, root: Option<usize>) -> DomTree {
        let n = idom.len();
        let mut children = vec![Vec::new(); n];
        for (b, p) in idom.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(b);
            }
        }
        let mut pre = vec![u32::MAX; n];
        let mut post = vec![u32::MAX; n];
        if let Some(r) = root {
            let mut clock = 0u32;
            let mut stack = vec![(r, 0usize)];
            pre[r] = clock;
            clock += 1;
            while let Some(&mut (b, ref mut i)) = stack.last_mut() {
                if *i < children[b].len() {
                    let c = children[b][*i];
                    *i += 1;
                    pre[c] = clock;
                    clock += 1;
                    stack.push((c, 0));
                } else {
                    post[b] = clock;
                    clock += 1;
                    stack.pop();
                }
            }
        }
        DomTree {
            idom,
            root,
            pre,
            post,
        }
    }

    /// Whether node `n` is in the tree (reachable from the root).
    pub fn contains(&self, n: usize) -> bool {
        self.pre[n] != u32::MAX
    }

    /// Whether `a` dominates `b` (reflexive). False if either is not in the tree.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.contains(a)
            && self.contains(b)
            && self.pre[a] <= self.pre[b]
            && self.post[b] <= self.post[a]
    }

    #[allow(dead_code)]
    pub fn root(&self) -> Option<usize> {
        self.root
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(n: usize, edges: &[(usize, usize)], exits: &[usize]) -> Cfg {
        let mut c = Cfg::new(n);
        for &(a, b) in edges {
            c.edge(a, b);
        }
        c.exits = exits.to_vec();
        c.returns = exits.to_vec();
        c
    }

    #[test]
    fn diamond_dominators_and_post_dominators() {
        // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3 ; 3 returns
        let c = cfg(4, &[(0, 1), (0, 2), (1, 3), (2, 3)], &[3]);
        let d = c.dominators();
        assert_eq!(d.idom, vec![None, Some(0), Some(0), Some(0)]);
        assert!(d.dominates(0, 3) && !d.dominates(1, 3) && d.dominates(3, 3));
        let p = c.post_dominators();
        // Virtual exit is node 4.
        assert_eq!(p.idom[3], Some(4));
        assert_eq!(p.idom[1], Some(3));
        assert_eq!(p.idom[0], Some(3));
        assert!(p.dominates(3, 0) && !p.dominates(1, 0));
    }

    #[test]
    fn post_dominators_with_several_exits() {
        // 0 -> 1 (ret), 0 -> 2 -> 3 (unreachable)
        let c = cfg(4, &[(0, 1), (0, 2), (2, 3)], &[1, 3]);
        let p = c.post_dominators();
        assert_eq!(
            p.idom[0],
            Some(4),
            "no single block post-dominates the entry"
        );
        assert_eq!(p.idom[2], Some(3));
        assert!(p.dominates(3, 2));
    }

    #[test]
    fn infinite_loop_joins_the_virtual_exit_and_unreachable_blocks_are_skipped() {
        // 0 -> 1 -> 1 (infinite), 0 -> 2 (ret); 3 unreachable -> 2
        let c = cfg(4, &[(0, 1), (1, 1), (0, 2), (3, 2)], &[2]);
        assert_eq!(c.virtual_exits(), vec![1]);
        let p = c.post_dominators();
        assert!(p.contains(1));
        assert_eq!(p.idom[1], Some(4));
        assert_eq!(p.idom[0], Some(4));
        let d = c.dominators();
        assert!(!d.contains(3));
        assert!(!d.dominates(0, 3));
        assert_eq!(c.reverse_post_order().len(), 3);
    }

    #[test]
    fn infinite_nested_region_gets_one_virtual_exit_at_its_first_block() {
        // 0 -> 1(ret) ; 0 -> 2 -> 3 -> 2 ; 3 -> 4 -> 2 : {2,3,4} never reaches an exit.
        let c = cfg(5, &[(0, 1), (0, 2), (2, 3), (3, 2), (3, 4), (4, 2)], &[1]);
        assert_eq!(c.virtual_exits(), vec![2]);
        let p = c.post_dominators();
        assert!((0..5).all(|b| p.contains(b)));
        assert!(p.dominates(2, 3) && p.dominates(2, 4));
    }

    #[test]
    fn rpo_visits_definitions_before_uses() {
        let c = cfg(5, &[(0, 1), (1, 2), (2, 1), (1, 3), (0, 4), (4, 3)], &[3]);
        let rpo = c.reverse_post_order();
        assert_eq!(rpo[0], 0);
        let pos = |b| rpo.iter().position(|&x| x == b).unwrap();
        assert!(pos(1) < pos(2));
        assert!(pos(1) < pos(3) && pos(4) < pos(3));
    }
}
