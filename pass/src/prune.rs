//! Static pruning (Perf-Taint section 5.1), independent of LLVM.
//!
//! A function is *statically pruned* — proved to cost a constant independent of every
//! parameter — when
//! * it has no natural loops, or only loops whose trip count is a compile-time
//!   constant (ScalarEvolution, see `shim/plugin.cpp: tp_loop_trip_counts`), and
//! * every call it makes is trivial: an intrinsic (except memory intrinsics with a
//!   variable length, which are loops the optimizer turned into calls), a `pure` or
//!   `zero` function-list entry, or a call to another statically pruned function of the
//!   same module, and
//! * it is not recursive (not in a cycle of the module's call graph).
//!
//! Indirect calls, calls to functions defined elsewhere and `wrap` entries (memcpy,
//! fread, ...) are not trivial: their cost may depend on a parameter. The rule is a
//! greatest fixed point over the module's call graph: start from every function whose
//! own loops and calls allow it, then drop functions calling a dropped one until
//! nothing changes.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

/// What one call is, for pruning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Callee {
    /// Intrinsic, `pure`/`zero` entry: constant cost, no parameter-dependent work.
    Trivial,
    /// A direct call to function `i` of the module (an index into the facts slice).
    Local(usize),
    /// Indirect calls, external functions, `wrap` entries, inline asm, variable-length
    /// memory intrinsics.
    NonTrivial,
}

/// What the pass knows about one function before deciding.
#[derive(Debug, Clone, Default)]
pub struct FnFacts {
    /// Number of natural loops.
    pub loops: usize,
    /// Number of those with a compile-time constant trip count.
    pub const_loops: usize,
    pub calls: Vec<Callee>,
}

/// Why a function was pruned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    NoLoops,
    ConstantTripCounts,
}

impl Reason {
    /// The sidecar's `prune_reason`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NoLoops => "no loops",
            Reason::ConstantTripCounts => "constant trip counts",
        }
    }
}

/// The decision for one function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub pruned: Option<Reason>,
    /// In a cycle of the module's call graph (calls itself, directly or through other
    /// functions of the module).
    pub recursive: bool,
    /// The strongly connected component of the call graph the function is in: a call
    /// to a function of the same component continues a recursion.
    pub scc: usize,
}

/// Decide for every function of a module.
pub fn decide(facts: &[FnFacts]) -> Vec<Decision> {
    let n = facts.len();
    // Call graph and its cycles.
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n, n);
    for _ in 0..n {
        g.add_node(());
    }
    let mut self_call = vec![false; n];
    for (f, ff) in facts.iter().enumerate() {
        for c in &ff.calls {
            if let Callee::Local(t) = *c {
                if t == f {
                    self_call[f] = true;
                }
                g.add_edge(NodeIndex::new(f), NodeIndex::new(t), ());
            }
        }
    }
    let mut recursive = self_call;
    let mut component = vec![0; n];
    for (c, scc) in tarjan_scc(&g).into_iter().enumerate() {
        for &v in &scc {
            component[v.index()] = c;
        }
        if scc.len() > 1 {
            for v in scc {
                recursive[v.index()] = true;
            }
        }
    }
    // Greatest fixed point.
    let mut ok: Vec<bool> = (0..n)
        .map(|f| {
            !recursive[f]
                && facts[f].const_loops == facts[f].loops
                && !facts[f].calls.contains(&Callee::NonTrivial)
        })
        .collect();
    loop {
        let mut changed = false;
        for f in 0..n {
            if ok[f]
                && facts[f]
                    .calls
                    .iter()
                    .any(|c| matches!(*c, Callee::Local(t) if !ok[t]))
            {
                ok[f] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..n)
        .map(|f| Decision {
            pruned: ok[f].then(|| {
                if facts[f].loops == 0 {
                    Reason::NoLoops
                } else {
                    Reason::ConstantTripCounts
                }
            }),
            recursive: recursive[f],
            scc: component[f],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Callee::*;

    fn f(loops: usize, const_loops: usize, calls: &[Callee]) -> FnFacts {
        FnFacts {
            loops,
            const_loops,
            calls: calls.to_vec(),
        }
    }

    fn pruned(d: &[Decision]) -> Vec<Option<Reason>> {
        d.iter().map(|x| x.pruned).collect()
    }

    #[test]
    fn leaves_and_constant_loops_are_pruned() {
        let d = decide(&[
            f(0, 0, &[]),
            f(2, 2, &[Trivial]),
            f(1, 0, &[]),
            f(0, 0, &[NonTrivial]),
        ]);
        assert_eq!(
            pruned(&d),
            vec![
                Some(Reason::NoLoops),
                Some(Reason::ConstantTripCounts),
                None,
                None
            ]
        );
        assert!(d.iter().all(|x| !x.recursive));
    }

    #[test]
    fn calls_to_pruned_functions_are_trivial_and_non_pruned_ones_are_not() {
        // 0 -> 1 -> 2 (leaf) : all pruned. 3 -> 4 (has a parameter loop): neither.
        // 5 -> 3 : not pruned either (transitively).
        let d = decide(&[
            f(0, 0, &[Local(1)]),
            f(1, 1, &[Local(2)]),
            f(0, 0, &[]),
            f(0, 0, &[Local(4)]),
            f(1, 0, &[]),
            f(0, 0, &[Trivial, Local(3)]),
        ]);
        assert_eq!(
            pruned(&d),
            vec![
                Some(Reason::NoLoops),
                Some(Reason::ConstantTripCounts),
                Some(Reason::NoLoops),
                None,
                None,
                None
            ]
        );
    }

    #[test]
    fn recursion_is_flagged_and_never_pruned() {
        // 0 calls itself; 1 <-> 2 mutually recursive; 3 calls 1 (not recursive itself).
        let d = decide(&[
            f(0, 0, &[Local(0)]),
            f(0, 0, &[Local(2)]),
            f(0, 0, &[Local(1)]),
            f(0, 0, &[Local(1)]),
        ]);
        assert_eq!(
            d.iter().map(|x| x.recursive).collect::<Vec<_>>(),
            vec![true, true, true, false]
        );
        assert_eq!(pruned(&d), vec![None, None, None, None]);
        // Calls inside a cycle stay in one component; 3 is in a component of its own.
        assert_eq!(d[1].scc, d[2].scc);
        assert_ne!(d[3].scc, d[1].scc);
        assert_ne!(d[0].scc, d[1].scc);
    }
}
