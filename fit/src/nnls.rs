//! Non-negative least squares: Lawson and Hanson's active-set method, for the few columns
//! (at most about 10) of one hypothesis. Columns are scaled to unit norm first (which
//! keeps the sign constraints) and every inner least-squares problem is solved by
//! Householder QR, so `x^3 * log2(x)^2` next to a constant column stays well conditioned.

/// Solves `min ||A c - b||` subject to `c >= 0`. `a` holds the columns (each of `b.len()`
/// rows). Returns `None` when a column or `b` is not finite.
pub fn nnls(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = a.len();
    let m = b.len();
    if a.iter()
        .any(|c| c.len() != m || c.iter().any(|v| !v.is_finite()))
        || b.iter().any(|v| !v.is_finite())
    {
        return None;
    }
    // Unit-norm columns; a zero column keeps coefficient 0.
    let norms: Vec<f64> = a
        .iter()
        .map(|c| c.iter().map(|v| v * v).sum::<f64>().sqrt())
        .collect();
    let cols: Vec<Vec<f64>> = a
        .iter()
        .zip(&norms)
        .map(|(c, &s)| {
            c.iter()
                .map(|v| if s > 0.0 { v / s } else { 0.0 })
                .collect()
        })
        .collect();
    let usable: Vec<bool> = norms.iter().map(|&s| s > 0.0).collect();

    let tol = 1e-12 * (1.0 + b.iter().map(|v| v * v).sum::<f64>().sqrt());
    let mut x = vec![0.0; n];
    let mut passive = vec![false; n];
    let gradient = |x: &[f64]| -> Vec<f64> {
        let r: Vec<f64> = (0..m)
            .map(|i| b[i] - (0..n).map(|j| cols[j][i] * x[j]).sum::<f64>())
            .collect();
        cols.iter()
            .map(|c| c.iter().zip(&r).map(|(u, v)| u * v).sum())
            .collect()
    };
    for _outer in 0..3 * n + 3 {
        let w = gradient(&x);
        let next = (0..n)
            .filter(|&j| !passive[j] && usable[j] && w[j] > tol)
            .max_by(|&i, &j| w[i].total_cmp(&w[j]));
        let Some(j) = next else { break };
        passive[j] = true;
        for _inner in 0..3 * n + 3 {
            let p: Vec<usize> = (0..n).filter(|&k| passive[k]).collect();
            let sub: Vec<&[f64]> = p.iter().map(|&k| cols[k].as_slice()).collect();
            let Some(zp) = least_squares(&sub, b) else {
                // Dependent columns: drop the one just added.
                passive[j] = false;
                break;
            };
            let mut z = vec![0.0; n];
            for (&k, &v) in p.iter().zip(&zp) {
                z[k] = v;
            }
            if p.iter().all(|&k| z[k] > 0.0) {
                x = z;
                break;
            }
            // Step towards z as far as feasibility allows.
            let alpha = p
                .iter()
                .filter(|&&k| z[k] <= 0.0)
                .map(|&k| x[k] / (x[k] - z[k]))
                .fold(f64::INFINITY, f64::min);
            for k in 0..n {
                x[k] += alpha * (z[k] - x[k]);
                if passive[k] && x[k] <= 1e-15 {
                    passive[k] = false;
                    x[k] = 0.0;
                }
            }
        }
    }
    Some(
        x.iter()
            .zip(&norms)
            .map(|(&v, &s)| if s > 0.0 { v / s } else { 0.0 })
            .collect(),
    )
}

/// Unconstrained least squares by Householder QR; `None` if the columns are dependent.
#[allow(clippy::needless_range_loop)] // Index loops read best in linear algebra.
pub fn least_squares(cols: &[&[f64]], b: &[f64]) -> Option<Vec<f64>> {
    let k = cols.len();
    let m = b.len();
    if k == 0 {
        return Some(Vec::new());
    }
    if k > m {
        return None;
    }
    // Row-major copy.
    let mut r: Vec<Vec<f64>> = (0..m)
        .map(|i| cols.iter().map(|c| c[i]).collect())
        .collect();
    let mut y = b.to_vec();
    for j in 0..k {
        let norm = (j..m).map(|i| r[i][j] * r[i][j]).sum::<f64>().sqrt();
        if norm < 1e-12 {
            return None;
        }
        let alpha = if r[j][j] > 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = (j..m).map(|i| r[i][j]).collect();
        v[0] -= alpha;
        let vv: f64 = v.iter().map(|t| t * t).sum();
        if vv == 0.0 {
            continue;
        }
        for c in j..k {
            let s: f64 = (j..m).map(|i| v[i - j] * r[i][c]).sum::<f64>() * 2.0 / vv;
            for i in j..m {
                r[i][c] -= s * v[i - j];
            }
        }
        let s: f64 = (j..m).map(|i| v[i - j] * y[i]).sum::<f64>() * 2.0 / vv;
        for i in j..m {
            y[i] -= s * v[i - j];
        }
    }
    let mut x = vec![0.0; k];
    for j in (0..k).rev() {
        let s: f64 = (j + 1..k).map(|c| r[j][c] * x[c]).sum();
        if r[j][j].abs() < 1e-12 {
            return None;
        }
        x[j] = (y[j] - s) / r[j][j];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_positive_solution() {
        // b = 2 + 3 t on t = 0..5.
        let t: Vec<f64> = (0..6).map(f64::from).collect();
        let a = vec![vec![1.0; 6], t.clone()];
        let b: Vec<f64> = t.iter().map(|v| 2.0 + 3.0 * v).collect();
        let c = nnls(&a, &b).unwrap();
        assert!(
            (c[0] - 2.0).abs() < 1e-9 && (c[1] - 3.0).abs() < 1e-9,
            "{c:?}"
        );
    }

    #[test]
    fn negative_coefficient_clamped() {
        // Unconstrained: b = 10 - t (slope -1); with c >= 0 the slope is 0 and the
        // constant is the mean.
        let t: Vec<f64> = (0..5).map(f64::from).collect();
        let a = vec![vec![1.0; 5], t.clone()];
        let b: Vec<f64> = t.iter().map(|v| 10.0 - v).collect();
        let c = nnls(&a, &b).unwrap();
        assert_eq!(c[1], 0.0);
        assert!((c[0] - 8.0).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn kkt_conditions_on_a_mixed_problem() {
        let rows = 8;
        let a: Vec<Vec<f64>> = (0..3)
            .map(|j| {
                (0..rows)
                    .map(|i| ((i * 7 + j * 3) % 5) as f64 + 0.5 * j as f64)
                    .collect()
            })
            .collect();
        let b: Vec<f64> = (0..rows).map(|i| (i as f64 - 3.0).powi(2) - 4.0).collect();
        let c = nnls(&a, &b).unwrap();
        let r: Vec<f64> = (0..rows)
            .map(|i| b[i] - (0..3).map(|j| a[j][i] * c[j]).sum::<f64>())
            .collect();
        for j in 0..3 {
            let w: f64 = (0..rows).map(|i| a[j][i] * r[i]).sum();
            assert!(c[j] >= 0.0);
            // Gradient zero on the passive set, non-positive on the active set.
            if c[j] > 0.0 {
                assert!(w.abs() < 1e-8, "{j}: {w}");
            } else {
                assert!(w < 1e-8, "{j}: {w}");
            }
        }
    }

    #[test]
    fn non_finite_input() {
        assert!(nnls(&[vec![1.0, f64::NAN]], &[1.0, 2.0]).is_none());
    }
}
