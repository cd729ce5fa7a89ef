//! Where the records of a merged result disagree: each record's parameter set of every
//! loop (and of every function's own loops), and the report's `merged_from`,
//! `params_by_rank` and `exclusive_params_by_rank` (`docs/report-schema.md`).
//!
//! A merged loop's `params` is the union over the records. Each record's own set comes
//! from its [`Experiment::loops`] (its loop records per merged loop, which the merge
//! keeps apart) and its loops in flight, folded one bit per parameter and united over
//! the loop's descriptors as the loop group unites them; a function's own set is the
//! union over its loops. Records are shown by [`rank_ids`]: their `mpi.rank` when every
//! record has a distinct one, else their index among the merged records. Only the
//! records that ran a loop take part in its comparison: a rank that never reached it
//! (the loop of rank 0's input parsing, a receive loop on the rank that receives) says
//! nothing about its parameters; one that ran it without parameters has the empty set.
//!
//! The cost is one `u16` per loop group and record, and one pass over the records' own
//! loop lists: nothing per calling context.

use serde_json::{json, Value};
use taintprof_record::merge::{Experiment, Merged};
use taintprof_record::ranks::{self, rank_ids, RankIds};

use crate::labels::Layout;
use crate::run::text;
use crate::tree::Model;

/// Each record's parameter set of each loop group (see the module comment).
pub struct ByRank {
    pub ids: RankIds,
    /// Record (experiment) indices by ascending id.
    order: Vec<usize>,
    /// `sets[g * n + e]`: the parameters of loop group `g` in record `e` (empty with
    /// fewer than two records).
    sets: Vec<u16>,
    /// `ran[g * n + e]`: record `e` ran loop group `g` (an execution, or in flight).
    ran: Vec<bool>,
    n: usize,
}

/// Records that saw one parameter set: their ids (ascending) and the set.
pub type Agreement = (Vec<u32>, u16);

impl ByRank {
    pub fn build(model: &Model<'_>, merged: &Merged) -> ByRank {
        let n = merged.experiments.len();
        let ids = rank_ids(merged.experiments.iter().map(|e| &e.run));
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&e| (ids.ids[e], e));
        if n < 2 {
            return ByRank {
                ids,
                order,
                sets: Vec::new(),
                ran: Vec::new(),
                n,
            };
        }
        let layout = Layout {
            shift: merged.label_shift,
        };
        let mut sets = vec![0u16; model.loops.len() * n];
        let mut ran = vec![false; model.loops.len() * n];
        for (e, x) in merged.experiments.iter().enumerate() {
            for l in &x.loops {
                if let Some(g) = model.loop_group_of(l.loop_) {
                    sets[g as usize * n + e] |= layout.params(l.label);
                    ran[g as usize * n + e] |= l.executions > 0;
                }
            }
        }
        for f in &merged.inflight {
            if let Some(g) = model.loop_group_of(f.loop_) {
                let at = g as usize * n + f.experiment as usize;
                if let (Some(s), Some(r)) = (sets.get_mut(at), ran.get_mut(at)) {
                    *s |= layout.params(f.label);
                    *r = true;
                }
            }
        }
        ByRank {
            ids,
            order,
            sets,
            ran,
            n,
        }
    }

    /// The parameters of loop group `g` in record `e`.
    pub fn loop_set(&self, g: u32, e: usize) -> u16 {
        self.sets.get(g as usize * self.n + e).copied().unwrap_or(0)
    }

    /// Whether record `e` ran loop group `g`.
    pub fn loop_ran(&self, g: u32, e: usize) -> bool {
        self.ran
            .get(g as usize * self.n + e)
            .copied()
            .unwrap_or(false)
    }

    /// Groups the records that `ran(e)` by the set `set(e)`; `None` if fewer than two
    /// records ran or they all agree. Entries by their first id.
    fn split(
        &self,
        ran: impl Fn(usize) -> bool,
        set: impl Fn(usize) -> u16,
    ) -> Option<Vec<Agreement>> {
        if self.n < 2 {
            return None;
        }
        let mut out: Vec<Agreement> = Vec::new();
        for &e in &self.order {
            if !ran(e) {
                continue;
            }
            let s = set(e);
            match out.iter_mut().find(|(_, x)| *x == s) {
                Some((ids, _)) => ids.push(self.ids.ids[e]),
                None => out.push((vec![self.ids.ids[e]], s)),
            }
        }
        (out.len() > 1).then_some(out)
    }

    /// How the records' sets of loop group `g` differ (`None`: they agree).
    pub fn loop_disagreement(&self, g: u32) -> Option<Vec<Agreement>> {
        self.split(|e| self.loop_ran(g, e), |e| self.loop_set(g, e))
    }

    /// How the records' sets of function `f`'s own loops differ (`None`: they agree).
    pub fn function_disagreement(&self, model: &Model<'_>, f: u32) -> Option<Vec<Agreement>> {
        let (a, b) = model.funcs.get(f as usize)?.loops;
        self.split(
            |e| (a..b).any(|g| self.loop_ran(g, e)),
            |e| (a..b).fold(0, |acc, g| acc | self.loop_set(g, e)),
        )
    }
}

/// `params_by_rank` (and `exclusive_params_by_rank`): `[{"ranks": [...], "params":
/// [...]}, ...]` with `names(set)` naming a set.
pub fn agreements_json(a: &[Agreement], names: impl Fn(u16) -> Value) -> Value {
    Value::Array(
        a.iter()
            .map(|(ids, set)| json!({"ranks": ids, "params": names(*set)}))
            .collect(),
    )
}

/// The report's `merged_from` (absent for one record): how the records are numbered
/// (`rank_source` `"mpi.rank"` or `"index"`), their common `mpi.size` (or null), and
/// each record's number and pid, in merge order.
pub fn merged_from(merged: &Merged, ids: &RankIds) -> Option<Value> {
    let ex: &[Experiment] = &merged.experiments;
    if ex.len() < 2 {
        return None;
    }
    let sizes: Vec<Option<u32>> = ex.iter().map(|e| ranks::mpi_size(&e.run)).collect();
    let size = match sizes.first() {
        Some(Some(s)) if sizes.iter().all(|x| *x == Some(*s)) => Value::from(*s),
        _ => Value::Null,
    };
    let records: Vec<Value> = ex
        .iter()
        .zip(&ids.ids)
        .map(|(e, id)| json!({"rank": id, "pid": e.run.info.pid, "program": text(&e.run.name)}))
        .collect();
    Some(json!({
        "rank_source": if ids.mpi { "mpi.rank" } else { "index" },
        "mpi_size": size,
        "records": records,
    }))
}
