//! The black-box search (no prior), in Extra-P's default search space.
//!
//! 1. Per parameter `x`: the best of the constant and the 56 hypotheses
//!    `c0 + c1 · x^i · log2(x)^j` by leave-one-out cross-validated SMAPE, on one value
//!    per value of `x`: the mean over the other parameters' values, when every value of
//!    `x` was measured with the same other coordinates (a grid; Extra-P's default point
//!    selection: a PMNF sum or product of `x`'s function with the others' keeps that
//!    shape in the mean, and the mean has far less noise than one line); otherwise the
//!    points where every other parameter is at its smallest value. On a grid, the line
//!    at the smallest values sees little of `x` when another factor is small there:
//!    `n^2*m` at the smallest `n` is mostly the constant.
//! 2. On all points: the constant model and, over every non-empty subset of the
//!    parameters whose best function is not constant, every partition of the subset into
//!    products, summed (`f_n·f_m + f_p`, ...; all partitions for up to 3 such parameters,
//!    beyond that only the all-additive and the all-multiplicative combinations of all of
//!    them). Selected by cross-validated SMAPE, ties to fewer terms.

use crate::fit::{better, cv_smape, fit, lack_of_fit_p, stats, Data, Shape};
use crate::model::{exponent_pairs, Factor, Model};
use crate::{noisy_warnings, Error, FitResult, Measurements};

/// Models `m` without a prior.
pub fn black_box(m: &Measurements) -> Result<FitResult, Error> {
    m.validate()?;
    let data = m.data();
    let mut singles: Vec<(usize, Shape)> = Vec::new();
    for l in 0..m.params.len() {
        if let Some(s) = best_single(&data, l) {
            singles.push((l, s));
        }
    }
    let mut hypotheses: Vec<Vec<Shape>> = vec![Vec::new()];
    let k = singles.len();
    if k <= 3 {
        for subset in 1..(1u32 << k) {
            let members: Vec<usize> = (0..k).filter(|i| subset & (1 << i) != 0).collect();
            for partition in partitions(&members) {
                hypotheses.push(
                    partition
                        .iter()
                        .map(|block| block.iter().flat_map(|&i| singles[i].1.clone()).collect())
                        .collect(),
                );
            }
        }
    } else {
        hypotheses.push(singles.iter().map(|(_, s)| s.clone()).collect());
        hypotheses.push(vec![singles.iter().flat_map(|(_, s)| s.clone()).collect()]);
    }
    let (shapes, cv) = select(&data, hypotheses);
    let model = fit(&data, &shapes, None).unwrap_or_else(|| Model::constant(mean_of(&data)));
    let mut st = stats(&model, &data);
    st.cv_smape = cv.is_finite().then_some(cv);
    st.lack_of_fit_p = lack_of_fit_p(&model, &data, 1 + model.terms.len());
    Ok(FitResult {
        model,
        stats: st,
        prior: false,
        spread: None,
        volume_adequate: None,
        loop_levels: false,
        warnings: noisy_warnings(m),
    })
}

fn mean_of(d: &Data) -> f64 {
    d.means.iter().sum::<f64>() / d.len() as f64
}

/// The hypothesis with the best cross-validated SMAPE (ties: fewer terms) and its score.
pub(crate) fn select(data: &Data, hypotheses: Vec<Vec<Shape>>) -> (Vec<Shape>, f64) {
    let mut best: (Vec<Shape>, f64) = (Vec::new(), f64::INFINITY);
    for h in hypotheses {
        let cv = cv_smape(data, &h);
        if better(cv, h.len(), best.1, best.0.len()) {
            best = (h, cv);
        }
    }
    best
}

/// The best single-parameter function of parameter `l` (`None`: constant), on the
/// means over the other parameters ([`averaged`]) or the smallest line.
fn best_single(data: &Data, l: usize) -> Option<Shape> {
    let sub = averaged(data, l).unwrap_or_else(|| smallest_line(data, l));
    let mut hypotheses = vec![Vec::new()];
    for (i, j) in exponent_pairs() {
        hypotheses.push(vec![vec![Factor {
            param: l,
            exponent: i,
            log_exponent: j,
        }]]);
    }
    let (best, _) = select(&sub, hypotheses);
    best.into_iter().next()
}

/// One point per value of parameter `l` (at least 3), its mean the mean of the means of
/// the points with that value, if every value was measured with the same coordinates
/// of the other parameters; else `None`.
fn averaged(data: &Data, l: usize) -> Option<Data> {
    let mut groups: Vec<(f64, Vec<usize>)> = Vec::new();
    for i in 0..data.len() {
        let v = data.coords[i][l];
        match groups.iter_mut().find(|(x, _)| *x == v) {
            Some((_, g)) => g.push(i),
            None => groups.push((v, vec![i])),
        }
    }
    if groups.len() < 3 {
        return None;
    }
    let others = |g: &[usize]| {
        let mut o: Vec<Vec<u64>> = g
            .iter()
            .map(|&i| {
                let c = &data.coords[i];
                (0..c.len())
                    .filter(|&d| d != l)
                    .map(|d| c[d].to_bits())
                    .collect()
            })
            .collect();
        o.sort_unstable();
        o
    };
    let first = others(&groups[0].1);
    if groups.iter().any(|(_, g)| others(g) != first) {
        return None;
    }
    Some(Data::new(
        groups
            .iter()
            .map(|(_, g)| data.coords[g[0]].clone())
            .collect(),
        groups
            .iter()
            .map(|(_, g)| vec![g.iter().map(|&i| data.means[i]).sum::<f64>() / g.len() as f64])
            .collect(),
    ))
}

/// The points where the other parameters are at their smallest values (all points when
/// that line has fewer than 3 distinct values of `l`).
fn smallest_line(data: &Data, l: usize) -> Data {
    let dims = data.coords.first().map_or(0, Vec::len);
    let first: Vec<f64> = (0..dims)
        .map(|d| {
            data.coords
                .iter()
                .map(|c| c[d])
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    let line: Vec<usize> = (0..data.len())
        .filter(|&i| (0..dims).all(|d| d == l || data.coords[i][d] == first[d]))
        .collect();
    let mut values: Vec<f64> = line.iter().map(|&i| data.coords[i][l]).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    if values.len() >= 3 {
        data.subset(&line)
    } else {
        data.clone()
    }
}

/// Every partition of `items` into non-empty blocks.
pub(crate) fn partitions(items: &[usize]) -> Vec<Vec<Vec<usize>>> {
    let Some((&first, rest)) = items.split_first() else {
        return vec![Vec::new()];
    };
    let mut out = Vec::new();
    for p in partitions(rest) {
        // `first` in a block of its own, or added to each existing block.
        let mut alone = vec![vec![first]];
        alone.extend(p.iter().cloned());
        out.push(alone);
        for b in 0..p.len() {
            let mut q = p.clone();
            q[b].insert(0, first);
            out.push(q);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point;

    #[test]
    fn partition_counts_are_bell_numbers() {
        assert_eq!(partitions(&[]).len(), 1);
        assert_eq!(partitions(&[0]).len(), 1);
        assert_eq!(partitions(&[0, 1]).len(), 2);
        assert_eq!(partitions(&[0, 1, 2]).len(), 5);
        assert_eq!(partitions(&[0, 1, 2, 3]).len(), 15);
    }

    #[test]
    fn noise_free_single_parameter() {
        let m = Measurements {
            params: vec!["n".into()],
            points: [4.0, 8.0, 16.0, 32.0, 64.0]
                .iter()
                .map(|&n: &f64| Point {
                    coords: vec![n],
                    reps: vec![5.0 + 0.25 * n.powf(1.5)],
                })
                .collect(),
        };
        let r = black_box(&m).unwrap();
        assert_eq!(r.model.terms.len(), 1, "{}", r.model.display(&m.params));
        let f = &r.model.terms[0].factors[0];
        assert_eq!((f.exponent, f.log_exponent), (1.5, 0));
        assert!((r.model.terms[0].coefficient - 0.25).abs() < 1e-6);
    }

    #[test]
    fn single_functions_from_the_means_over_the_other_parameters() {
        // n^2*m plus a constant of 1% of the largest value: on the line at the smallest
        // n, the constant is 2.5 times the m term at its largest. The means over n
        // still show m.
        let mut rng = crate::gen::XorShift::new(5);
        let m = crate::gen::generate(
            &["n", "m"],
            &[
                vec![16.0, 32.0, 64.0, 128.0, 256.0],
                vec![8.0, 16.0, 32.0, 64.0, 128.0],
            ],
            5,
            0.1,
            |c| 0.01 + c[0] * c[0] * c[1] / (256.0 * 256.0 * 128.0),
            &mut rng,
        );
        let r = black_box(&m).unwrap();
        let mut got: Vec<(usize, f64, u32)> = r
            .model
            .terms
            .iter()
            .flat_map(|t| {
                t.factors
                    .iter()
                    .map(|f| (f.param, f.exponent, f.log_exponent))
            })
            .collect();
        got.sort_by(|a, b| a.partial_cmp(b).unwrap());
        // One product of n and m, m's exponent exact (n's may be a neighbour of 2 under
        // 10% noise: n^(7/4)*log2(n) here).
        assert_eq!(r.model.terms.len(), 1, "{}", r.model.display(&m.params));
        assert_eq!(got.len(), 2, "{}", r.model.display(&m.params));
        assert_eq!(got[0].0, 0);
        assert_eq!(got[1], (1, 1.0, 0));
        // Off a grid (a point missing), the smallest line is used.
        let data = m.data();
        assert!(averaged(&data, 1).is_some());
        let fewer = data.subset(&(1..data.len()).collect::<Vec<_>>());
        assert!(averaged(&fewer, 1).is_none());
    }

    #[test]
    fn noise_free_product_of_two_parameters() {
        let mut points = Vec::new();
        for n in [2.0, 4.0, 8.0, 16.0, 32.0] {
            for p in [1.0, 2.0, 3.0, 4.0, 5.0] {
                points.push(Point {
                    coords: vec![n, p],
                    reps: vec![1.0 + n * n * p],
                });
            }
        }
        let m = Measurements {
            params: vec!["n".into(), "p".into()],
            points,
        };
        let r = black_box(&m).unwrap();
        assert_eq!(r.model.display(&m.params), "1 + 1 * n^2 * p");
    }
}
