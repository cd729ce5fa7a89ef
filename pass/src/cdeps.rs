//! Control dependence (Ferrante–Ottenstein–Warren), independent of LLVM, and the sets of
//! decisions the control-flow tainting rule applies at joins (`docs/internal/control-flow.md`).
//!
//! A *decider* is a block ending in a conditional terminator (`br` with a condition,
//! `switch`, `indirectbr`). Block `B` is directly control dependent on decider `P` if `P`
//! has a successor `S` such that `B` post-dominates `S` (or is `S`) but does not strictly
//! post-dominate `P`. Computed the classic way: for every edge `P -> S` where `S` does
//! not post-dominate `P`, every node on the post-dominator-tree path from `S` up to (not
//! including) `ipdom(P)` depends on `P`. A loop header depends on its own exiting
//! branches. The post-dominator tree comes from [`Cfg::post_dominators`] (virtual exit,
//! infinite regions joined to it).
//!
//! The rule uses the **transitive** closure `CD*(B)` (the decisions of every region that
//! encloses `B`, however deep): with direct dependence only, a store nested two `if`s
//! deep would miss the outer decision, and the answers would depend on CFG shape (the
//! optimizer merges joins and guards, -O0 does not), so -O0 and -O2 would disagree.
//!
//! At a join `J` reached from `Q` (not a back edge), the decisions "settled between `Q`
//! and `J`" are the deciders of `CD*(Q)` that lie on a path from `idom(J)` to `Q`
//! (`idom(J)` itself, or a block dominated by it that reaches `Q` without passing
//! through it again). In structured code this is `CD(Q) \ CD(J)`; it stays right
//! where that difference is not: an inner loop's entry from its rotation guard
//! (`idom(J)` is the guard, so the enclosing loops' decisions are not added — the inner
//! loop keeps depending on `m` only) and a `switch` case falling through into another
//! (the switch chose between the two incoming values although both blocks depend on it).

use crate::cfg::{Cfg, DomTree};
use crate::loops::LoopForest;

#[derive(Debug, Clone)]
pub struct ControlDeps {
    /// `direct[b]`: the deciders block `b` is directly control dependent on (sorted).
    /// Kept for the unit tests and for debugging; the rule uses `cd`.
    #[cfg_attr(not(test), allow(dead_code))]
    pub direct: Vec<Vec<usize>>,
    /// `cd[b]`: the transitive closure `CD*(b)` of `direct` (sorted).
    pub cd: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
}

fn merge_into(dst: &mut Vec<usize>, src: &[usize]) -> bool {
    let before = dst.len();
    for &x in src {
        if let Err(pos) = dst.binary_search(&x) {
            dst.insert(pos, x);
        }
    }
    dst.len() != before
}

impl ControlDeps {
    /// The direct control dependences alone (`direct` of [`Self::new`], without the
    /// exception paths and the closure): for callers that walk upwards themselves
    /// (`crate::provenance`), without the closure's cost.
    pub fn direct_deps(cfg: &Cfg, pdom: &DomTree, decider: &[bool]) -> Vec<Vec<usize>> {
        let n = cfg.len();
        let mut direct: Vec<Vec<usize>> = vec![Vec::new(); n];
        let rpo = cfg.reverse_post_order();
        let mut reachable = vec![false; n];
        for &b in &rpo {
            reachable[b] = true;
        }
        for p in 0..n {
            if !decider[p] || !reachable[p] || !pdom.contains(p) {
                continue;
            }
            let stop = pdom.idom[p];
            let mut succs = cfg.succs[p].clone();
            succs.sort_unstable();
            succs.dedup();
            for s in succs {
                // A self loop (s == p) makes p depend on itself.
                if !pdom.contains(s) || (s != p && pdom.dominates(s, p)) {
                    continue;
                }
                let mut x = Some(s);
                while let Some(b) = x {
                    if Some(b) == stop || b >= n {
                        break;
                    }
                    direct[b].push(p);
                    x = pdom.idom[b];
                }
            }
        }
        for v in &mut direct {
            v.sort_unstable();
            v.dedup();
        }
        direct
    }

    /// `decider[b]` says which blocks end in a conditional terminator. Blocks
    /// unreachable from the entry get no dependences.
    pub fn new(cfg: &Cfg, pdom: &DomTree, decider: Vec<bool>) -> ControlDeps {
        let n = cfg.len();
        let direct = Self::direct_deps(cfg, pdom, &decider);
        let rpo = cfg.reverse_post_order();
        let mut reachable = vec![false; n];
        for &b in &rpo {
            reachable[b] = true;
        }
        // Exception paths. Post-dominance ignores unwind edges, so a landing pad and
        // the blocks reached only through it have no dependences of their own: they
        // inherit those of the invokes that unwind to them (an exception can only be
        // raised where the invoke ran), propagated along the blocks that are not
        // reachable without unwinding.
        let mut inherit: Vec<Vec<usize>> = vec![Vec::new(); n];
        if !cfg.unwind.is_empty() {
            let mut normal = vec![false; n];
            let mut work = vec![0usize];
            if n > 0 {
                normal[0] = true;
            }
            while let Some(b) = work.pop() {
                for &s in &cfg.succs[b] {
                    if !normal[s] && !cfg.unwind.contains(&(b, s)) {
                        normal[s] = true;
                        work.push(s);
                    }
                }
            }
            for &(i, l) in &cfg.unwind {
                if !normal[l] && reachable[i] {
                    inherit[l].push(i);
                }
            }
            for &b in &rpo {
                if normal[b] {
                    continue;
                }
                for &s in &cfg.succs[b] {
                    if !normal[s] && s != b {
                        inherit[s].push(b);
                    }
                }
            }
        }
        // Transitive closure: CD*(b) = CD(b) ∪ CD*(p) for p in CD(b) (plus, for
        // exception-only blocks, CD*(i) ∪ {i's deciders} of the blocks they inherit
        // from). Sets are small (the nesting depth of b), so sorted vectors iterated to
        // a fixed point in reverse post-order converge in a few rounds.
        let mut cd = direct.clone();
        loop {
            let mut changed = false;
            for &b in &rpo {
                let mut acc = cd[b].clone();
                for &p in &direct[b] {
                    if p != b {
                        changed |= merge_into(&mut acc, &cd[p]);
                    }
                }
                for &i in &inherit[b] {
                    if i != b {
                        changed |= merge_into(&mut acc, &cd[i]);
                    }
                }
                cd[b] = acc;
            }
            if !changed {
                break;
            }
        }
        ControlDeps {
            direct,
            cd,
            preds: cfg.preds(),
        }
    }

    /// Deciders (other than `q` itself, whose own condition the caller adds directly)
    /// whose labels the incoming value of a PHI in `j` from predecessor `q` carries
    /// (Rule 1):
    /// * back edge `q -> j` (`j` dominates `q` and heads natural loop `l`): the
    ///   deciders of `CD*(q)` inside `l` — the loop kept iterating because of these;
    /// * any other edge: the deciders of `CD*(q)` settled between `idom(j)` and `q`
    ///   (see the module documentation).
    pub fn edge_deciders(
        &self,
        q: usize,
        j: usize,
        dom: &DomTree,
        forest: &LoopForest,
    ) -> Vec<usize> {
        if dom.dominates(j, q) {
            if let Some(l) = forest.loops.iter().find(|l| l.header == j) {
                return self.cd[q]
                    .iter()
                    .copied()
                    .filter(|&p| p != q && l.contains(p))
                    .collect();
            }
        }
        let Some(d) = dom.idom.get(j).copied().flatten() else {
            return Vec::new();
        };
        let cands: Vec<usize> = self.cd[q]
            .iter()
            .copied()
            .filter(|&p| p != q && (p == d || dom.dominates(d, p)))
            .collect();
        if cands.is_empty() || q == d {
            return cands.into_iter().filter(|&p| p == d).collect();
        }
        // Blocks that reach q without passing through d: backward search from q that
        // stays inside d's dominance region and stops at d.
        let mut seen = vec![false; self.preds.len()];
        let mut work = vec![q];
        seen[q] = true;
        while let Some(b) = work.pop() {
            for &p in &self.preds[b] {
                if p != d && !seen[p] && dom.dominates(d, p) {
                    seen[p] = true;
                    work.push(p);
                }
            }
        }
        cands.into_iter().filter(|&p| p == d || seen[p]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loops::find_loops;

    struct G {
        cfg: Cfg,
        dom: DomTree,
        forest: LoopForest,
        cd: ControlDeps,
    }

    /// `deciders`: blocks with a conditional terminator.
    fn build(n: usize, edges: &[(usize, usize)], exits: &[usize], deciders: &[usize]) -> G {
        let mut cfg = Cfg::new(n);
        for &(a, b) in edges {
            cfg.edge(a, b);
        }
        cfg.exits = exits.to_vec();
        cfg.returns = exits.to_vec();
        let dom = cfg.dominators();
        let forest = find_loops(&cfg, &dom);
        let pdom = cfg.post_dominators();
        let mut d = vec![false; n];
        for &b in deciders {
            d[b] = true;
        }
        let cd = ControlDeps::new(&cfg, &pdom, d);
        G {
            cfg,
            dom,
            forest,
            cd,
        }
    }

    impl G {
        fn edge(&self, q: usize, j: usize) -> Vec<usize> {
            self.cd.edge_deciders(q, j, &self.dom, &self.forest)
        }
    }

    #[test]
    fn if_else_join() {
        // 0: if (b) -> 1 (d++) | 2 (d--) ; 1,2 -> 3 (join, ret)
        let g = build(4, &[(0, 1), (0, 2), (1, 3), (2, 3)], &[3], &[0]);
        assert_eq!(g.cd.cd[1], vec![0]);
        assert_eq!(g.cd.cd[2], vec![0]);
        assert!(g.cd.cd[0].is_empty() && g.cd.cd[3].is_empty());
        // The join's incoming values carry the branch's label.
        assert_eq!(g.edge(1, 3), vec![0]);
        assert_eq!(g.edge(2, 3), vec![0]);
    }

    #[test]
    fn if_without_else_joins_from_the_decider_itself() {
        // 0: if (c) -> 1 ; 0 -> 2 ; 1 -> 2 (ret). The edge 0 -> 2 adds 0's own condition
        // (the caller does that); no other decider.
        let g = build(3, &[(0, 1), (0, 2), (1, 2)], &[2], &[0]);
        assert_eq!(g.cd.cd[1], vec![0]);
        assert!(g.edge(0, 2).is_empty());
        assert_eq!(g.edge(1, 2), vec![0]);
    }

    #[test]
    fn nested_ifs_merged_into_one_join() {
        // if (a) { if (b) x = 1; else x = 2; } else x = 3;  with one join (SimplifyCFG):
        // 0 (a) -> 1 (b) | 4 ; 1 -> 2 | 3 ; 2, 3, 4 -> 5 ret
        let g = build(
            6,
            &[(0, 1), (0, 4), (1, 2), (1, 3), (2, 5), (3, 5), (4, 5)],
            &[5],
            &[0, 1],
        );
        assert_eq!(g.cd.direct[2], vec![1]);
        assert_eq!(g.cd.cd[2], vec![0, 1], "transitive: x = 1 needs a and b");
        assert_eq!(g.edge(2, 5), vec![0, 1]);
        assert_eq!(g.edge(4, 5), vec![0]);
    }

    #[test]
    fn top_tested_loop_header_depends_on_itself() {
        // 0 -> 1 (header: i < n) -> 2 (body) -> 1 ; 1 -> 3 (ret)
        let g = build(4, &[(0, 1), (1, 2), (2, 1), (1, 3)], &[3], &[1]);
        assert_eq!(g.cd.cd[1], vec![1]);
        assert_eq!(g.cd.cd[2], vec![1]);
        assert!(g.cd.cd[3].is_empty());
        // Back edge 2 -> 1 carries the exit condition; the entry edge carries nothing.
        assert_eq!(g.edge(2, 1), vec![1]);
        assert!(g.edge(0, 1).is_empty());
    }

    #[test]
    fn nested_loops_keep_their_own_labels() {
        // for (i < n) for (j < m), as at -O0:
        // 0 -> 1 (outer hdr, i<n) -> 2 (outer body: j = 0) -> 3 (inner hdr, j<m)
        // 3 -> 4 (inner body/latch) -> 3 ; 3 -> 5 (outer latch: i++) -> 1 ; 1 -> 6 ret
        let g = build(
            7,
            &[
                (0, 1),
                (1, 2),
                (2, 3),
                (3, 4),
                (4, 3),
                (3, 5),
                (5, 1),
                (1, 6),
            ],
            &[6],
            &[1, 3],
        );
        assert_eq!(g.cd.direct[2], vec![1]);
        assert_eq!(g.cd.direct[3], vec![1, 3]);
        assert_eq!(g.cd.direct[4], vec![3]);
        assert_eq!(
            g.cd.cd[4],
            vec![1, 3],
            "a store in the inner body gets n and m"
        );
        assert_eq!(g.cd.cd[5], vec![1]);
        // Inner header: entry edge from 2 gets nothing (1 encloses both), the back edge
        // gets the inner condition only.
        assert!(g.edge(2, 3).is_empty());
        assert_eq!(g.edge(4, 3), vec![3]);
        // Outer header: the back edge gets the outer condition (a triangular j < i then
        // depends on n), not the inner one.
        assert_eq!(g.edge(5, 1), vec![1]);
        assert!(g.edge(0, 1).is_empty());
    }

    #[test]
    fn rotated_nested_loops_as_at_o2() {
        // 0 guard (n>0) -> 1 outer hdr -> 2 inner guard (m>0) -> 3 inner body (latch:
        // j<m) -> 3 | 4 ; 2 -> 4 ; 4 outer latch (i<n) -> 1 | 5 ; 0 -> 5 ret
        let g = build(
            6,
            &[
                (0, 1),
                (0, 5),
                (1, 2),
                (2, 3),
                (2, 4),
                (3, 3),
                (3, 4),
                (4, 1),
                (4, 5),
            ],
            &[5],
            &[0, 2, 3, 4],
        );
        assert_eq!(g.cd.direct[3], vec![2, 3]);
        assert_eq!(g.cd.direct[1], vec![0, 4]);
        assert_eq!(g.cd.cd[3], vec![0, 2, 3, 4]);
        // Inner self loop: the back edge carries its own condition (added by the
        // caller), nothing else.
        assert!(g.edge(3, 3).is_empty());
        // Outer back edge from the latch: only the latch's own condition.
        assert!(g.edge(4, 1).is_empty());
        // Entry into the inner loop from its guard: the guard's own condition only (the
        // caller adds it); in particular not the outer loop's decisions (CD(2) \ CD(3)
        // would have added 0 and 4, i.e. n, to the inner loop).
        assert!(g.edge(2, 3).is_empty());
        // Leaving the inner loop into the outer latch: the inner guard's decision (the
        // latch's own is added by the caller); not the outer latch's previous decision.
        assert_eq!(g.edge(3, 4), vec![2]);
    }

    #[test]
    fn early_return_inside_a_loop() {
        // 0 -> 1 (hdr: i<len) -> 2 (if data==key) -> 4 ret ; 2 -> 3 (latch) -> 1 ; 1 -> 5 ret
        let g = build(
            6,
            &[(0, 1), (1, 2), (1, 5), (2, 3), (2, 4), (3, 1)],
            &[4, 5],
            &[1, 2],
        );
        assert_eq!(g.cd.cd[2], vec![1, 2]);
        assert_eq!(g.cd.cd[3], vec![1, 2]);
        assert_eq!(g.cd.cd[4], vec![1, 2]);
        // The header runs again only if the early return was not taken, so it depends on
        // both; so does the return after the loop.
        assert_eq!(g.cd.direct[1], vec![2]);
        assert_eq!(g.cd.cd[1], vec![1, 2]);
        assert_eq!(g.cd.direct[5], vec![1]);
        assert_eq!(g.cd.cd[5], vec![1, 2]);
        // The back edge carries both decisions that kept the loop going.
        assert_eq!(g.edge(3, 1), vec![1, 2]);
    }

    #[test]
    fn switch_cases_and_fallthrough() {
        // 0: switch -> 3 (default), 1, 2 ; 1 -> 2 (fallthrough) ; 2, 3 -> 4 ret
        let g = build(
            5,
            &[(0, 3), (0, 1), (0, 2), (1, 2), (2, 4), (3, 4)],
            &[4],
            &[0],
        );
        assert_eq!(g.cd.cd[1], vec![0]);
        assert_eq!(g.cd.cd[2], vec![0]);
        assert_eq!(g.cd.cd[3], vec![0]);
        assert!(g.cd.cd[4].is_empty());
        // Block 2 depends on the switch too, but the switch chose between arriving from
        // 1 and arriving directly.
        assert_eq!(g.edge(1, 2), vec![0]);
        assert_eq!(g.edge(3, 4), vec![0]);
        assert_eq!(g.edge(2, 4), vec![0]);
    }

    #[test]
    fn exception_paths_do_not_cut_dependences() {
        // if (c) { r = f(); } (an invoke) ; join: phi(r, 0) ; the landing pad resumes.
        // 0 (c) -> 1 (invoke) | 3 ; 1 -> 2 (normal) ; 1 -> 4 (unwind) ; 2 -> 3 ret ;
        // 4 resume
        let mut cfg = Cfg::new(5);
        for (a, b) in [(0, 1), (0, 3), (1, 2), (1, 4), (2, 3)] {
            cfg.edge(a, b);
        }
        cfg.exits = vec![3, 4];
        cfg.returns = vec![3];
        cfg.unwind = vec![(1, 4)];
        let dom = cfg.dominators();
        let forest = find_loops(&cfg, &dom);
        let pdom = cfg.post_dominators();
        let cd = ControlDeps::new(&cfg, &pdom, vec![true, false, false, false, false]);
        assert_eq!(cd.cd[1], vec![0]);
        assert_eq!(cd.cd[2], vec![0], "the normal path still depends on c");
        assert_eq!(cd.cd[4], vec![0], "the landing pad inherits the invoke's");
        assert!(cd.cd[3].is_empty());
        assert_eq!(cd.edge_deciders(2, 3, &dom, &forest), vec![0]);
    }

    #[test]
    fn infinite_loop_blocks_still_have_dependences() {
        // 0 -> 1 (hdr) -> 2 (if c) -> 3 -> 1 ; 2 -> 1 ; never exits. 0 -> 4 ret too.
        let g = build(
            5,
            &[(0, 1), (0, 4), (1, 2), (2, 3), (2, 1), (3, 1)],
            &[4],
            &[0, 2],
        );
        assert_eq!(g.cd.direct[3], vec![2]);
        assert_eq!(g.cd.cd[1], vec![0]);
        assert_eq!(g.cfg.len(), 5);
    }
}
