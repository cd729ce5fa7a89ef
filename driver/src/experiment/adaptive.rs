//! `--adaptive`: one round of extra points where the measured curve bends, after every
//! run of the plan succeeded.
//!
//! The rule, per parameter: the points that differ only in that parameter form a line
//! (at least three points, in value order). At each interior point `x_i` the mean
//! `y_i` of the reference metric (below) is compared with the interpolation, linear in
//! log-log, between its neighbours `(x_{i-1}, y_{i-1})` and `(x_{i+1}, y_{i+1})`: a
//! power law `y = c·x^a` between them is a straight line there. If `|ln y_i − ln ŷ_i|`
//! exceeds `ln(1 + BEND)` (25 %) and the largest relative spread of the three points'
//! repetitions ((max − min) / mean: a bend must stand out of the noise), the
//! curve bends near `x_i`, and the geometric midpoints `√(x_{i-1}·x_i)` and
//! `√(x_i·x_{i+1})` are added (rounded to integers when the parameter's values are
//! integers; a midpoint that rounds onto a measured value is skipped). Values must be
//! positive (log scale).
//!
//! The reference metric is `time` of the call path with the largest total mean time (a
//! run measured by its wall time has one call path; with time records it is the root).
//! One round of bends: the points added are stored in the plan and run like the others.
//!
//! **Branch sides** (time records of a build with a taint prior): where a recorded
//! tainted branch changes side between two neighbouring values of a parameter
//! (`modeling::branches::transitions`), the midpoint between them is added (geometric
//! for positive values, rounded for integers), and again after those runs, up to
//! [`BISECT_ROUNDS`] rounds or until the bracket holds no more integer: the boundary
//! is bisected, so a segmented model knows where its pieces meet.

use super::journal::Entry;
use super::plan::Plan;
use std::collections::BTreeMap;

/// The relative deviation from the log-log interpolation that counts as a bend.
pub const BEND: f64 = 0.25;

/// Rounds of bisection at a changing branch side.
pub const BISECT_ROUNDS: u32 = 4;

/// The midpoint of `(lo, hi)`: geometric for positive values, arithmetic otherwise;
/// rounded when `integers`; `None` when no value lies strictly between.
fn midpoint(lo: f64, hi: f64, integers: bool) -> Option<String> {
    let mid = if lo > 0.0 && hi > 0.0 {
        (lo * hi).sqrt()
    } else {
        (lo + hi) / 2.0
    };
    if integers {
        let r = mid.round();
        (r > lo && r < hi).then(|| format!("{}", r as i64))
    } else {
        (mid > lo && mid < hi).then(|| format!("{mid}"))
    }
}

/// The points that bisect the brackets where a recorded branch changes side (see the
/// module comment), not already in `plan`.
pub fn bisect_branches(plan: &Plan, done: &BTreeMap<(usize, u32), Entry>) -> Vec<Vec<String>> {
    let exp = super::output::experiment(plan, done);
    let mut added: Vec<Vec<String>> = Vec::new();
    for change in crate::modeling::branches::side_changes(&exp) {
        for t in &change.transitions {
            let q = t.param;
            let Some(k) = (0..plan.points.len()).find(|&k| plan.coords(k) == t.at) else {
                continue;
            };
            let integers = plan.points.iter().all(|pt| pt[q].parse::<i64>().is_ok());
            let Some(value) = midpoint(t.lo, t.hi, integers) else {
                continue;
            };
            let mut pt = plan.points[k].clone();
            pt[q] = value;
            if !plan.points.contains(&pt) && !added.contains(&pt) {
                added.push(pt);
            }
        }
    }
    added
}

/// The repetitions of one point, summarized.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stat {
    pub mean: f64,
    /// (max − min) / mean.
    pub spread: f64,
}

impl Stat {
    pub fn of(reps: &[f64]) -> Option<Stat> {
        if reps.is_empty() {
            return None;
        }
        let mean = reps.iter().sum::<f64>() / reps.len() as f64;
        let max = reps.iter().copied().fold(f64::MIN, f64::max);
        let min = reps.iter().copied().fold(f64::MAX, f64::min);
        (mean > 0.0).then(|| Stat {
            mean,
            spread: (max - min) / mean,
        })
    }
}

/// Each point's [`Stat`] of the reference metric (see the module comment).
pub fn reference_stats(plan: &Plan, done: &BTreeMap<(usize, u32), Entry>) -> Vec<Option<Stat>> {
    let exp = super::output::experiment(plan, done);
    let best = exp
        .series
        .iter()
        .filter(|s| s.metric == "time")
        .max_by(|a, b| {
            let total = |s: &taintprof_fit::experiment::Series| {
                s.data
                    .iter()
                    .map(|(_, r)| r.iter().sum::<f64>() / r.len().max(1) as f64)
                    .sum::<f64>()
            };
            total(a).total_cmp(&total(b))
        });
    let mut stats = vec![None; plan.points.len()];
    if let Some(s) = best {
        for (i, reps) in &s.data {
            // The experiment's points are the plan's measured points, in plan order.
            let coords = &exp.points[*i];
            if let Some(k) = (0..plan.points.len()).find(|&k| plan.coords(k) == *coords) {
                stats[k] = Stat::of(reps);
            }
        }
    }
    stats
}

/// The points to add (see the module comment): `points` are the plan's, `stats` their
/// reference statistics.
pub fn refine(points: &[Vec<String>], stats: &[Option<Stat>]) -> Vec<Vec<String>> {
    let nparams = points.first().map_or(0, Vec::len);
    let num = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
    let mut added: Vec<Vec<String>> = Vec::new();
    for p in 0..nparams {
        // Lines: the points with the same values of every other parameter.
        let mut lines: BTreeMap<Vec<&str>, Vec<usize>> = BTreeMap::new();
        for (i, pt) in points.iter().enumerate() {
            let key: Vec<&str> = pt
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != p)
                .map(|(_, v)| v.as_str())
                .collect();
            lines.entry(key).or_default().push(i);
        }
        for line in lines.values_mut() {
            line.sort_by(|&a, &b| num(&points[a][p]).total_cmp(&num(&points[b][p])));
            if line.len() < 3 {
                continue;
            }
            let integers = line.iter().all(|&i| points[i][p].parse::<i64>().is_ok());
            for w in line.windows(3) {
                let xs: Vec<f64> = w.iter().map(|&i| num(&points[i][p])).collect();
                let Some(st) = w
                    .iter()
                    .map(|&i| stats.get(i).copied().flatten())
                    .collect::<Option<Vec<Stat>>>()
                else {
                    continue;
                };
                if !xs.iter().all(|&x| x.is_finite() && x > 0.0) {
                    continue;
                }
                let (l0, l1, l2) = (xs[0].ln(), xs[1].ln(), xs[2].ln());
                let t = (l1 - l0) / (l2 - l0);
                let predicted = st[0].mean.ln() + t * (st[2].mean.ln() - st[0].mean.ln());
                let deviation = (st[1].mean.ln() - predicted).abs();
                let noise = st.iter().map(|s| s.spread).fold(0.0, f64::max);
                if deviation <= (1.0 + BEND).ln() || deviation <= noise {
                    continue;
                }
                for (a, b) in [(xs[0], xs[1]), (xs[1], xs[2])] {
                    let Some(value) = midpoint(a, b, integers) else {
                        continue;
                    };
                    let mut pt = points[w[1]].clone();
                    pt[p] = value;
                    if !points.contains(&pt) && !added.contains(&pt) {
                        added.push(pt);
                    }
                }
            }
        }
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[&[&str]]) -> Vec<Vec<String>> {
        v.iter()
            .map(|p| p.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    fn st(mean: f64) -> Option<Stat> {
        Some(Stat { mean, spread: 0.01 })
    }

    #[test]
    fn a_bend_gets_the_midpoints_around_it() {
        // y = x up to 4, then x^3 / 16: a bend at 4 only.
        let points = pts(&[
            &["1", "7"],
            &["2", "7"],
            &["4", "7"],
            &["8", "7"],
            &["16", "7"],
        ]);
        let stats = [st(1.0), st(2.0), st(4.0), st(32.0), st(256.0)];
        assert_eq!(refine(&points, &stats), pts(&[&["3", "7"], &["6", "7"]]));
        // A power law throughout: nothing to add.
        let stats = [st(1.0), st(4.0), st(16.0), st(64.0), st(256.0)];
        assert!(refine(&points, &stats).is_empty());
        // Within the noise: nothing either.
        let noisy = |m| {
            Some(Stat {
                mean: m,
                spread: 1.0,
            })
        };
        let stats = [
            noisy(1.0),
            noisy(2.0),
            noisy(4.0),
            noisy(32.0),
            noisy(256.0),
        ];
        assert!(refine(&points, &stats).is_empty());
    }

    #[test]
    fn midpoints_bisect_and_stop_at_adjacent_integers() {
        assert_eq!(midpoint(256.0, 512.0, true).as_deref(), Some("362"));
        assert_eq!(midpoint(300.0, 301.0, true), None);
        assert_eq!(midpoint(0.0, 4.0, true).as_deref(), Some("2"));
        assert_eq!(midpoint(1.0, 4.0, false).as_deref(), Some("2"));
    }

    #[test]
    fn lines_are_per_parameter_and_fractions_stay_fractions() {
        let points = pts(&[&["0.5", "1"], &["1", "1"], &["2", "1"], &["1", "2"]]);
        let stats = [st(1.0), st(1.0), st(4.0), st(1.0)];
        let added = refine(&points, &stats);
        assert_eq!(added.len(), 2, "{added:?}");
        assert_eq!(added[0][1], "1");
        assert!((added[0][0].parse::<f64>().unwrap() - 0.5f64.sqrt()).abs() < 1e-12);
        assert_eq!(
            Stat::of(&[1.0, 3.0]),
            Some(Stat {
                mean: 2.0,
                spread: 1.0
            })
        );
    }
}
