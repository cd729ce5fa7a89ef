//! `DIR/measurements.json`: the successful runs of the journal in Extra-P's JSON input
//! format, current form (`taintprof_fit::extrap_json::write_json`): the plan's
//! parameters, and per call path and metric the repetitions at each point, in the
//! plan's point order and repetition order. Failed runs are left out. Written after
//! every run, atomically, so a killed experiment still has a complete file. Branch
//! sides (time records of a build with a prior) go to `DIR/branch-sides.json`, in the
//! same format ([`write`]).

use super::journal::Entry;
use super::plan::Plan;
use std::collections::BTreeMap;
use std::path::Path;
use taintprof_fit::experiment::Experiment;

/// The experiment of the finished runs `done` (`(point index, repetition)` → the last
/// journal entry of that run).
pub fn experiment(plan: &Plan, done: &BTreeMap<(usize, u32), Entry>) -> Experiment {
    let mut exp = Experiment::new(plan.params.clone());
    for i in 0..plan.points.len() {
        let coords = plan.coords(i);
        for rep in 1..=plan.reps {
            let Some(e) = done.get(&(i, rep)).filter(|e| e.ok()) else {
                continue;
            };
            for m in &e.metrics {
                exp.add(&m.callpath, &m.metric, &coords, &[m.value]);
            }
        }
    }
    exp
}

/// Writes the measurements file; the branch sides, if any, go to its sibling
/// `branch-sides.json` (`modeling::input::BRANCH_SIDES_FILE`: Extra-P cannot model
/// their zeros), which `taintprof model` reads with it.
pub fn write(path: &Path, exp: &Experiment) -> Result<(), String> {
    let (sides, rest) = split_branch_sides(exp);
    let put = |path: &Path, exp: &Experiment| {
        let text = taintprof_fit::extrap_json::write_json(exp);
        crate::run::write_atomically(path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    put(path, &rest)?;
    if !sides.series.is_empty() {
        put(
            &path.with_file_name(crate::modeling::input::BRANCH_SIDES_FILE),
            &sides,
        )?;
    }
    Ok(())
}

/// `exp` split into its branch-side series and the others (same parameters and
/// points).
pub fn split_branch_sides(exp: &Experiment) -> (Experiment, Experiment) {
    let (sides, rest): (Vec<_>, Vec<_>) = exp
        .series
        .iter()
        .cloned()
        .partition(|s| crate::modeling::branches::is_branch_metric(&s.metric));
    let with = |series| Experiment {
        params: exp.params.clone(),
        points: exp.points.clone(),
        series,
    };
    (with(sides), with(rest))
}

#[cfg(test)]
mod tests {
    use super::super::journal::Metric;
    use super::*;

    #[test]
    fn failed_runs_are_left_out_and_reps_are_in_order() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let plan = Plan::new(
            s(&["./a", "{n}"]),
            s(&["n"]),
            vec![s(&["1"]), s(&["2"])],
            2,
            "--grid".into(),
        );
        let e = |p: &str, rep: u32, ok: bool, v: f64| Entry {
            point: s(&[p]),
            rep,
            status: if ok { "ok" } else { "failed" }.into(),
            seconds: v,
            error: None,
            metrics: vec![Metric {
                callpath: "a".into(),
                metric: "time".into(),
                value: v,
            }],
        };
        let mut done = BTreeMap::new();
        done.insert((1, 2), e("2", 2, true, 4.0));
        done.insert((0, 1), e("1", 1, true, 1.0));
        done.insert((1, 1), e("2", 1, true, 3.0));
        done.insert((0, 2), e("1", 2, false, 9.0));
        let exp = experiment(&plan, &done);
        assert_eq!(exp.points, vec![vec![1.0], vec![2.0]]);
        assert_eq!(
            exp.series[0].data,
            vec![(0, vec![1.0]), (1, vec![3.0, 4.0])]
        );
        let back =
            taintprof_fit::extrap_json::read_json(&taintprof_fit::extrap_json::write_json(&exp))
                .unwrap();
        assert_eq!(back.series("a", "time").unwrap().data.len(), 2);
    }
}
