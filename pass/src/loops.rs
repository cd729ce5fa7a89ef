//! Natural loops (Aho et al.), independent of LLVM.
//!
//! A back edge is `t -> h` where `h` dominates `t`. All back edges into one header form
//! one loop; its body is the header plus every block that reaches a latch without
//! passing through the header. Loops nest by body inclusion. Cycles that have no
//! dominating header (irreducible control flow) are not natural loops: Perf-Taint does
//! not model them either; they are counted so that `TAINTPROF_VERBOSE` can say so.
//!
//! For the loop sinks the pass needs, per loop: the exiting blocks (whose terminator
//! conditions decide whether the loop is left), the exit edges (where one execution of
//! the loop ends), and the predecessors of the header outside the loop (where a new
//! execution starts).

use crate::cfg::{Cfg, DomTree};
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loop {
    pub header: usize,
    /// Sources of the back edges, sorted.
    pub latches: Vec<usize>,
    /// All blocks of the loop (including nested loops), sorted.
    pub blocks: Vec<usize>,
    /// Index of the innermost enclosing loop.
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// 1 for outermost loops.
    pub depth: u32,
    /// Blocks in the loop with a successor outside it, sorted.
    pub exiting: Vec<usize>,
    /// `(from, to, successor index in from's terminator)` for every edge leaving the loop.
    pub exit_edges: Vec<(usize, usize, usize)>,
    /// Blocks in the loop that end in `ret`. Always empty for natural loops computed
    /// from a CFG (a `ret` block has no successor, so it cannot reach a latch), kept
    /// so that callers do not have to rely on that.
    pub ret_blocks: Vec<usize>,
    /// Predecessors of the header that are outside the loop, sorted and deduplicated.
    pub entering: Vec<usize>,
}

impl Loop {
    pub fn contains(&self, b: usize) -> bool {
        self.blocks.binary_search(&b).is_ok()
    }
}

#[derive(Debug, Clone, Default)]
pub struct LoopForest {
    /// Loops ordered by header position in the function (outer loops before the loops
    /// they contain when headers tie is impossible: one loop per header).
    pub loops: Vec<Loop>,
    /// Strongly connected regions that are not explained by natural loops.
    pub irreducible_cycles: usize,
}

impl LoopForest {
    /// Loops containing block `b`, innermost first.
    #[cfg(test)]
    pub fn loops_containing(&self, b: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.loops.len())
            .filter(|&l| self.loops[l].contains(b))
            .collect();
        v.sort_by_key(|&l| std::cmp::Reverse(self.loops[l].depth));
        v
    }
}

pub fn find_loops(cfg: &Cfg, dom: &DomTree) -> LoopForest {
    let n = cfg.len();
    let preds = cfg.preds();
    // Back edges grouped by header.
    let mut latches: Vec<Vec<usize>> = vec![Vec::new(); n];
    let is_back_edge = |t: usize, h: usize| dom.contains(t) && dom.dominates(h, t);
    for t in 0..n {
        for &h in &cfg.succs[t] {
            if is_back_edge(t, h) && !latches[h].contains(&t) {
                latches[h].push(t);
            }
        }
    }
    let mut loops = Vec::new();
    for h in 0..n {
        if latches[h].is_empty() {
            continue;
        }
        let mut in_loop = vec![false; n];
        in_loop[h] = true;
        let mut work: Vec<usize> = Vec::new();
        for &t in &latches[h] {
            if !in_loop[t] {
                in_loop[t] = true;
                work.push(t);
            }
        }
        while let Some(b) = work.pop() {
            for &p in &preds[b] {
                // Only blocks reachable from the entry belong to loops.
                if !in_loop[p] && dom.contains(p) {
                    in_loop[p] = true;
                    work.push(p);
                }
            }
        }
        let blocks: Vec<usize> = (0..n).filter(|&b| in_loop[b]).collect();
        let mut exit_edges = Vec::new();
        let mut exiting = Vec::new();
        for &b in &blocks {
            let mut any = false;
            for (i, &s) in cfg.succs[b].iter().enumerate() {
                if !in_loop[s] {
                    exit_edges.push((b, s, i));
                    any = true;
                }
            }
            if any {
                exiting.push(b);
            }
        }
        let ret_blocks = cfg
            .returns
            .iter()
            .copied()
            .filter(|&b| in_loop[b])
            .collect();
        let mut entering: Vec<usize> = preds[h]
            .iter()
            .copied()
            .filter(|&p| !in_loop[p] && dom.contains(p))
            .collect();
        entering.sort_unstable();
        entering.dedup();
        let mut l = latches[h].clone();
        l.sort_unstable();
        loops.push(Loop {
            header: h,
            latches: l,
            blocks,
            parent: None,
            children: Vec::new(),
            depth: 1,
            exiting,
            exit_edges,
            ret_blocks,
            entering,
        });
    }
    // Nesting: the parent of a loop is the smallest other loop containing its header.
    for i in 0..loops.len() {
        let mut best: Option<usize> = None;
        for j in 0..loops.len() {
            if i != j
                && loops[j].contains(loops[i].header)
                && loops[j].blocks.len() > loops[i].blocks.len()
            {
                match best {
                    Some(b) if loops[b].blocks.len() <= loops[j].blocks.len() => {}
                    _ => best = Some(j),
                }
            }
        }
        loops[i].parent = best;
    }
    for i in 0..loops.len() {
        if let Some(p) = loops[i].parent {
            loops[p].children.push(i);
        }
        let mut d = 1;
        let mut cur = loops[i].parent;
        while let Some(p) = cur {
            d += 1;
            cur = loops[p].parent;
        }
        loops[i].depth = d;
    }
    LoopForest {
        loops,
        irreducible_cycles: count_irreducible(cfg, dom),
    }
}

/// Non-trivial SCCs that remain once every back edge is removed: each is a cycle that
/// no natural loop accounts for.
fn count_irreducible(cfg: &Cfg, dom: &DomTree) -> usize {
    let mut g: DiGraph<(), ()> = DiGraph::new();
    for _ in 0..cfg.len() {
        g.add_node(());
    }
    for (t, ss) in cfg.succs.iter().enumerate() {
        if !dom.contains(t) {
            continue;
        }
        for &h in ss {
            if !dom.dominates(h, t) {
                g.add_edge(NodeIndex::new(t), NodeIndex::new(h), ());
            }
        }
    }
    tarjan_scc(&g)
        .into_iter()
        .filter(|scc| scc.len() > 1)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(n: usize, edges: &[(usize, usize)], rets: &[usize]) -> (Cfg, LoopForest) {
        let mut c = Cfg::new(n);
        for &(a, b) in edges {
            c.edge(a, b);
        }
        c.exits = rets.to_vec();
        c.returns = rets.to_vec();
        let d = c.dominators();
        let f = find_loops(&c, &d);
        (c, f)
    }

    #[test]
    fn single_loop_with_preheader_and_exit() {
        // 0 -> 1(header) -> 2(body) -> 1 ; 1 -> 3(ret)
        let (_, f) = build(4, &[(0, 1), (1, 2), (2, 1), (1, 3)], &[3]);
        assert_eq!(f.loops.len(), 1);
        let l = &f.loops[0];
        assert_eq!(l.header, 1);
        assert_eq!(l.latches, vec![2]);
        assert_eq!(l.blocks, vec![1, 2]);
        assert_eq!(l.exiting, vec![1]);
        assert_eq!(l.exit_edges, vec![(1, 3, 1)]);
        assert_eq!(l.entering, vec![0]);
        assert_eq!(l.depth, 1);
        assert!(l.ret_blocks.is_empty());
        assert_eq!(f.irreducible_cycles, 0);
    }

    #[test]
    fn nested_loops() {
        // 0 -> 1(outer hdr) -> 2(inner hdr) -> 3 -> 2 ; 2 -> 4 (outer latch) -> 1 ; 1 -> 5 ret
        let (_, f) = build(
            6,
            &[(0, 1), (1, 2), (2, 3), (3, 2), (2, 4), (4, 1), (1, 5)],
            &[5],
        );
        assert_eq!(f.loops.len(), 2);
        let outer = f.loops.iter().position(|l| l.header == 1).unwrap();
        let inner = f.loops.iter().position(|l| l.header == 2).unwrap();
        assert_eq!(f.loops[outer].blocks, vec![1, 2, 3, 4]);
        assert_eq!(f.loops[inner].blocks, vec![2, 3]);
        assert_eq!(f.loops[inner].parent, Some(outer));
        assert_eq!(f.loops[outer].children, vec![inner]);
        assert_eq!(f.loops[inner].depth, 2);
        assert_eq!(f.loops[inner].exit_edges, vec![(2, 4, 1)]);
        assert_eq!(f.loops[inner].entering, vec![1]);
        assert_eq!(f.loops_containing(3), vec![inner, outer]);
    }

    #[test]
    fn multiple_back_edges_form_one_loop() {
        // 0 -> 1(hdr) -> 2 -> 1 ; 1 -> 3 -> 1 ; 1 -> 4 ret  (a `continue` gives two latches)
        let (_, f) = build(5, &[(0, 1), (1, 2), (2, 1), (1, 3), (3, 1), (1, 4)], &[4]);
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].latches, vec![2, 3]);
        assert_eq!(f.loops[0].blocks, vec![1, 2, 3]);
    }

    #[test]
    fn multiple_exits_including_early_return() {
        // 0 -> 1(hdr) -> 2 -> 3(latch) -> 1 ; 1 -> 5(ret) ; 2 -> 4(ret: `return` inside the loop)
        let (_, f) = build(
            6,
            &[(0, 1), (1, 2), (1, 5), (2, 3), (2, 4), (3, 1)],
            &[4, 5],
        );
        let l = &f.loops[0];
        assert_eq!(l.exiting, vec![1, 2]);
        assert_eq!(l.exit_edges, vec![(1, 5, 1), (2, 4, 1)]);
        assert!(
            !l.contains(4),
            "a ret block is reached by an exit edge, it is not in the loop"
        );
    }

    #[test]
    fn self_loop() {
        let (_, f) = build(3, &[(0, 1), (1, 1), (1, 2)], &[2]);
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.loops[0].blocks, vec![1]);
        assert_eq!(f.loops[0].latches, vec![1]);
        assert_eq!(f.loops[0].exit_edges, vec![(1, 2, 1)]);
    }

    #[test]
    fn irreducible_cycle_is_not_a_loop_but_is_counted() {
        // 0 -> 1, 0 -> 2, 1 <-> 2 : neither 1 nor 2 dominates the other.
        let (_, f) = build(4, &[(0, 1), (0, 2), (1, 2), (2, 1), (1, 3)], &[3]);
        assert!(f.loops.is_empty());
        assert_eq!(f.irreducible_cycles, 1);
    }

    #[test]
    fn loops_in_unreachable_code_are_ignored() {
        // 0 -> 1 ret ; 2 <-> 3 unreachable
        let (_, f) = build(4, &[(0, 1), (2, 3), (3, 2)], &[1]);
        assert!(f.loops.is_empty());
        assert_eq!(f.irreducible_cycles, 0);
    }

    #[test]
    fn switch_with_duplicate_exit_edges() {
        // 0 -> 1(hdr); 1 -> 2 twice (switch cases), 1 -> 1 ; 2 ret
        let (_, f) = build(3, &[(0, 1), (1, 2), (1, 2), (1, 1)], &[2]);
        assert_eq!(f.loops[0].exit_edges, vec![(1, 2, 0), (1, 2, 1)]);
        assert_eq!(f.loops[0].exiting, vec![1]);
    }
}
