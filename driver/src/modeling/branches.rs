//! Measured branch sides (time mode's `branch:LINE:COLUMN:SIDE->TARGET` metrics): the
//! tainted branches that change side inside the measured range.
//!
//! A side's *share* at a point is its calls (the activations of the call path that
//! took it) over the call path's visits, both the means of the point's repetitions. A
//! side *changes* when its share is 0 at some points and above 0 at others: the runs
//! execute different code there (an algorithm chosen by size, a special case switched
//! on), and one smooth model across that boundary is a compromise; a segmented model,
//! or a model of the range on one side, needs points near the boundary
//! (`taintprof experiment --adaptive` bisects there: `experiment/adaptive.rs` uses
//! [`transitions`]).
//!
//! The boundary is told per parameter: along each *line* of points (the points that
//! differ only in that parameter), consecutive values whose "taken" differs bracket a
//! change.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use taintprof_fit::experiment::Experiment;
use taintprof_fit::model::fmt_number;
use taintprof_model::time::BranchSide;

/// Whether `metric` is a branch side's (not modeled: read by [`side_changes`]).
pub fn is_branch_metric(metric: &str) -> bool {
    BranchSide::parse_metric(metric).is_some()
}

/// A change of a branch side between two neighbouring values of one parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    /// The parameter's index in the experiment.
    pub param: usize,
    /// The two values (lower first) and whether the side was taken at each.
    pub lo: f64,
    pub hi: f64,
    pub taken_at_lo: bool,
    /// The point at `lo` (its coordinates; the one at `hi` differs only in `param`).
    pub at: Vec<f64>,
}

/// A branch side that changes inside the measured range.
#[derive(Clone, Debug, PartialEq)]
pub struct SideChange {
    pub callpath: String,
    pub line: u32,
    pub column: u32,
    pub side: u32,
    pub target_line: u32,
    /// Points where the side was taken / not taken.
    pub taken: usize,
    pub not_taken: usize,
    pub transitions: Vec<Transition>,
}

/// Per point (experiment index): the mean of its repetitions.
fn means(exp: &Experiment, callpath: &str, metric: &str) -> BTreeMap<usize, f64> {
    exp.series
        .iter()
        .filter(|s| s.callpath == callpath && s.metric == metric)
        .flat_map(|s| s.data.iter())
        .filter(|(_, reps)| !reps.is_empty())
        .map(|(i, reps)| (*i, reps.iter().sum::<f64>() / reps.len() as f64))
        .collect()
}

/// The transitions of a side whose "taken" is known per point (see the module comment).
pub fn transitions(exp: &Experiment, taken: &BTreeMap<usize, bool>) -> Vec<Transition> {
    let mut out = Vec::new();
    for q in 0..exp.params.len() {
        // Lines: points equal in every other parameter.
        let mut lines: BTreeMap<Vec<u64>, Vec<usize>> = BTreeMap::new();
        for &i in taken.keys() {
            let key: Vec<u64> = exp.points[i]
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != q)
                .map(|(_, v)| v.to_bits())
                .collect();
            lines.entry(key).or_default().push(i);
        }
        for line in lines.values_mut() {
            line.sort_by(|&a, &b| exp.points[a][q].total_cmp(&exp.points[b][q]));
            for w in line.windows(2) {
                let (a, b) = (w[0], w[1]);
                if taken[&a] != taken[&b] && exp.points[a][q] != exp.points[b][q] {
                    out.push(Transition {
                        param: q,
                        lo: exp.points[a][q],
                        hi: exp.points[b][q],
                        taken_at_lo: taken[&a],
                        at: exp.points[a].clone(),
                    });
                }
            }
        }
    }
    out
}

/// Every branch side of `exp` that changes inside the measured range.
pub fn side_changes(exp: &Experiment) -> Vec<SideChange> {
    let mut out = Vec::new();
    for s in &exp.series {
        let Some((line, column, side, target_line)) = BranchSide::parse_metric(&s.metric) else {
            continue;
        };
        let calls = means(exp, &s.callpath, &s.metric);
        let visits = means(exp, &s.callpath, "visits");
        let taken: BTreeMap<usize, bool> = calls
            .iter()
            .filter_map(|(i, &c)| {
                let v = visits.get(i).copied()?;
                (v > 0.0).then_some((*i, c > 0.0))
            })
            .collect();
        let n_taken = taken.values().filter(|&&t| t).count();
        if n_taken == 0 || n_taken == taken.len() {
            continue;
        }
        out.push(SideChange {
            callpath: s.callpath.clone(),
            line,
            column,
            side,
            target_line,
            taken: n_taken,
            not_taken: taken.len() - n_taken,
            transitions: transitions(exp, &taken),
        });
    }
    out
}

/// One warning per branch of `callpath` with a changing side (see
/// [`SideChange::warning`]).
pub fn warnings(changes: &[SideChange], callpath: &str, params: &[String]) -> Vec<Value> {
    let mine: Vec<&SideChange> = changes.iter().filter(|c| c.callpath == callpath).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < mine.len() {
        let same = mine[i..]
            .iter()
            .take_while(|c| (c.line, c.column) == (mine[i].line, mine[i].column))
            .count();
        out.push(mine[i].warning(&mine[i + 1..i + same], params));
        i += same;
    }
    out
}

/// Brackets listed per parameter, at most.
const SHOWN: usize = 3;

impl SideChange {
    /// Where the side goes, for people.
    fn target(&self) -> String {
        if self.target_line == 0 {
            format!("side {}", self.side)
        } else {
            format!("to line {}", self.target_line)
        }
    }

    /// The warning (`branch_changes_side`, docs/model-schema.md) in `params`' names,
    /// told by this side; `others`: the branch's other sides that change with it.
    pub fn warning(&self, others: &[&SideChange], params: &[String]) -> Value {
        let mut by_param: BTreeMap<usize, Vec<&Transition>> = BTreeMap::new();
        for t in &self.transitions {
            let v = by_param.entry(t.param).or_default();
            if !v.iter().any(|o| (o.lo, o.hi) == (t.lo, t.hi)) {
                v.push(t);
            }
        }
        let mut parts = Vec::new();
        let mut between = Vec::new();
        for (q, ts) in &by_param {
            let name = &params[*q];
            let mut shown: Vec<String> = ts
                .iter()
                .take(SHOWN)
                .map(|t| {
                    let (from, to) = if t.taken_at_lo {
                        ("taken", "not")
                    } else {
                        ("not taken", "taken")
                    };
                    format!(
                        "{from} at {name}={}, {to} at {name}={}",
                        fmt_number(t.lo),
                        fmt_number(t.hi)
                    )
                })
                .collect();
            if ts.len() > SHOWN {
                shown.push(format!("{} more", ts.len() - SHOWN));
            }
            parts.push(shown.join("; "));
            for t in ts {
                between.push(json!({"parameter": name, "from": t.lo, "to": t.hi}));
            }
        }
        let names: Vec<&String> = by_param.keys().map(|&q| &params[q]).collect();
        let also: Vec<String> = others.iter().map(|o| o.target()).collect();
        // Between neighbouring integers there is no boundary to look for: the parameter
        // selects the code (a method, a solver).
        let selector = !self.transitions.is_empty()
            && self
                .transitions
                .iter()
                .all(|t| t.lo.fract() == 0.0 && t.hi.fract() == 0.0 && t.hi - t.lo <= 1.0);
        let advice = if selector {
            "the parameter selects the code: model each of its values apart"
        } else {
            "the runs execute different code across that boundary, and one model over the whole range is a compromise; measure more points near it (taintprof experiment --adaptive) or model each side's range apart"
        };
        let detail = format!(
            "the branch at line {}:{} changes side inside the measured range: it goes {} at {} of {} points, not at the others ({}){}: {advice}",
            self.line,
            self.column,
            self.target(),
            self.taken,
            self.taken + self.not_taken,
            if parts.is_empty() {
                "not along one parameter alone".to_string()
            } else {
                parts.join("; ")
            },
            if also.is_empty() {
                String::new()
            } else {
                format!("; its side {} changes too", also.join(", "))
            }
        );
        json!({
            "kind": "branch_changes_side",
            "parameter": names.first().map(|s| s.as_str()),
            "parameters": names,
            "line": self.line,
            "column": self.column,
            "target_line": self.target_line,
            "between": between,
            "detail": detail,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// n = 100..600 step 100, method 1 and 2; the size branch goes to line 48 above
    /// n = 300, to line 50 at and below.
    fn experiment() -> Experiment {
        let mut e = Experiment::new(vec!["n".into(), "method".into()]);
        for method in [1.0, 2.0] {
            for n in [100.0, 200.0, 300.0, 400.0, 500.0, 600.0] {
                let c = [n, method];
                let big = n > 300.0;
                e.add("main->solve", "visits", &c, &[3.0]);
                e.add("main->solve", "time", &c, &[n * 1e-6]);
                let blocked = if big { 3.0 } else { 0.0 };
                e.add("main->solve", "branch:47:7:0->48", &c, &[blocked]);
                e.add("main->solve", "branch:47:7:1->50", &c, &[3.0 - blocked]);
                // The selector's sides never change along n.
                let one = if method == 1.0 { 3.0 } else { 0.0 };
                e.add("main->solve", "branch:51:3:1->53", &c, &[one]);
            }
        }
        e
    }

    #[test]
    fn a_side_that_changes_with_n_is_bracketed() {
        let e = experiment();
        let ch = side_changes(&e);
        let size: Vec<&SideChange> = ch.iter().filter(|c| c.line == 47).collect();
        assert_eq!(size.len(), 2, "{ch:?}");
        let to48 = size.iter().find(|c| c.target_line == 48).unwrap();
        assert_eq!((to48.taken, to48.not_taken), (6, 6));
        // Bracketed between 300 and 400, once per method line, only along n.
        assert_eq!(to48.transitions.len(), 2);
        assert!(to48
            .transitions
            .iter()
            .all(|t| t.param == 0 && t.lo == 300.0 && t.hi == 400.0 && !t.taken_at_lo));
        let w = to48.warning(&[], &e.params);
        assert_eq!(w["kind"], "branch_changes_side");
        assert_eq!(w["parameter"], "n");
        assert_eq!(w["between"].as_array().unwrap().len(), 1);
        let d = w["detail"].as_str().unwrap();
        assert!(d.contains("line 47:7 changes side inside the measured range: it goes to line 48 at 6 of 12 points"), "{d}");
        assert!(d.contains("not taken at n=300, taken at n=400"), "{d}");
        // The selector changes with method, not n: bracketed along method.
        let sel: Vec<&SideChange> = ch.iter().filter(|c| c.line == 51).collect();
        assert_eq!(sel.len(), 1);
        assert!(sel[0].transitions.iter().all(|t| t.param == 1));
        let w = sel[0].warning(&[], &e.params);
        assert_eq!(w["parameter"], "method");
        assert!(w["detail"]
            .as_str()
            .unwrap()
            .contains("the parameter selects the code"));
        assert!(!d.contains("selects"), "{d}");
        // One warning per branch, told by its first side.
        let ws = warnings(&ch, "main->solve", &e.params);
        assert_eq!(ws.len(), 2, "{ws:?}");
        assert_eq!(ws[0]["target_line"], 48);
        assert!(ws[0]["detail"]
            .as_str()
            .unwrap()
            .contains("its side to line 50 changes too"));
        assert!(is_branch_metric("branch:51:3:1->53") && !is_branch_metric("time"));
    }

    #[test]
    fn sides_that_never_change_say_nothing() {
        let mut e = Experiment::new(vec!["n".into()]);
        for n in [1.0, 2.0, 4.0] {
            e.add("main->f", "visits", &[n], &[2.0]);
            e.add("main->f", "branch:3:4:0->5", &[n], &[2.0]);
            e.add("main->f", "branch:3:4:1->7", &[n], &[0.0]);
            // Taken in some calls only: still taken.
            e.add("main->f", "branch:9:4:0->10", &[n], &[n.min(1.0)]);
        }
        assert!(side_changes(&e).is_empty());
    }
}
