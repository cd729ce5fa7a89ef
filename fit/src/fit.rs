//! Fitting one hypothesis (a list of term shapes, plus the constant): least squares with
//! non-negative coefficients (`crate::nnls`) on the points' repetition means, each point
//! weighted by `1/mean²` (relative errors); the fit statistics, leave-one-out
//! cross-validation, the lack-of-fit F-test against the spread between repetitions, and
//! the extra-sum-of-squares F-test of one term against the same spread.

use crate::model::{Factor, Model, Term};
use crate::nnls::nnls;
use crate::stats::f_sf;

/// The factors of one term, without its coefficient.
pub type Shape = Vec<Factor>;

/// Points ready for fitting: coordinates (one per parameter of the measurements), the
/// repetitions and their means.
#[derive(Clone, Debug)]
pub struct Data {
    pub coords: Vec<Vec<f64>>,
    pub reps: Vec<Vec<f64>>,
    pub means: Vec<f64>,
}

impl Data {
    pub fn new(coords: Vec<Vec<f64>>, reps: Vec<Vec<f64>>) -> Data {
        let means = reps.iter().map(|r| mean(r)).collect();
        Data {
            coords,
            reps,
            means,
        }
    }

    pub fn len(&self) -> usize {
        self.means.len()
    }

    pub fn is_empty(&self) -> bool {
        self.means.is_empty()
    }

    /// The points at `idx`.
    pub fn subset(&self, idx: &[usize]) -> Data {
        Data {
            coords: idx.iter().map(|&i| self.coords[i].clone()).collect(),
            reps: idx.iter().map(|&i| self.reps[i].clone()).collect(),
            means: idx.iter().map(|&i| self.means[i]).collect(),
        }
    }
}

pub fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Sample coefficient of variation (`n - 1`); 0 for fewer than 2 values.
pub fn cv(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let m = mean(v);
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64;
    if m == 0.0 {
        0.0
    } else {
        var.sqrt() / m.abs()
    }
}

fn weight(mean: f64) -> f64 {
    if mean.abs() > 0.0 {
        1.0 / mean.abs()
    } else {
        1.0
    }
}

/// Fits `c0 + Σ c_k · shape_k` on the means of `data` except point `skip`.
/// `None` when a basis value is not finite (a logarithm of a non-positive value).
pub fn fit(data: &Data, shapes: &[Shape], skip: Option<usize>) -> Option<Model> {
    let rows: Vec<usize> = (0..data.len()).filter(|&i| Some(i) != skip).collect();
    let mut cols = vec![rows
        .iter()
        .map(|&i| weight(data.means[i]))
        .collect::<Vec<f64>>()];
    for s in shapes {
        cols.push(
            rows.iter()
                .map(|&i| Term::basis(s, &data.coords[i]) * weight(data.means[i]))
                .collect(),
        );
    }
    let b: Vec<f64> = rows
        .iter()
        .map(|&i| data.means[i] * weight(data.means[i]))
        .collect();
    let c = nnls(&cols, &b)?;
    Some(Model {
        constant: c[0],
        terms: shapes
            .iter()
            .zip(&c[1..])
            .map(|(s, &coefficient)| Term {
                coefficient,
                factors: s.clone(),
            })
            .collect(),
    })
}

/// One point's symmetric absolute percentage error.
fn ape(pred: f64, actual: f64) -> f64 {
    let d = pred.abs() + actual.abs();
    if d == 0.0 {
        0.0
    } else {
        200.0 * (pred - actual).abs() / d
    }
}

/// SMAPE (%) of `model` on the means of `data`.
pub fn smape(model: &Model, data: &Data) -> f64 {
    let s: f64 = (0..data.len())
        .map(|i| ape(model.eval(&data.coords[i]), data.means[i]))
        .sum();
    s / data.len() as f64
}

/// Leave-one-out cross-validated SMAPE (%) of a hypothesis; infinite when it cannot be
/// fitted or there are fewer points than coefficients plus one.
pub fn cv_smape(data: &Data, shapes: &[Shape]) -> f64 {
    let n = data.len();
    if n < shapes.len() + 2 {
        return f64::INFINITY;
    }
    let mut s = 0.0;
    for i in 0..n {
        let Some(m) = fit(data, shapes, Some(i)) else {
            return f64::INFINITY;
        };
        s += ape(m.eval(&data.coords[i]), data.means[i]);
    }
    s / n as f64
}

/// Whether the candidate (`cv`, `terms`) beats the incumbent: a lower cross-validated
/// SMAPE, and on a tie (within 1e-9 relative) fewer terms.
pub fn better(cv: f64, terms: usize, best_cv: f64, best_terms: usize) -> bool {
    if !cv.is_finite() {
        return false;
    }
    if !best_cv.is_finite() {
        return true;
    }
    let tie = (cv - best_cv).abs() <= 1e-9 * best_cv.abs().max(1e-12);
    if tie {
        terms < best_terms
    } else {
        cv < best_cv
    }
}

/// The statistics of a fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct FitStats {
    /// Residual sum of squares of the points' means (absolute, unweighted).
    pub rss: f64,
    /// SMAPE (%) of the points' means.
    pub smape: f64,
    /// Adjusted R² of the points' means (`R²` itself when there are too few points).
    pub adj_r2: f64,
    /// Leave-one-out cross-validated SMAPE (%) on the data the model was fitted on.
    pub cv_smape: Option<f64>,
    /// The p-value of the lack-of-fit F-test (`None`: no repetitions to test against).
    pub lack_of_fit_p: Option<f64>,
}

/// RSS, SMAPE and adjusted R² of `model` on the means of `data`.
pub fn stats(model: &Model, data: &Data) -> FitStats {
    let n = data.len() as f64;
    let ybar = data.means.iter().sum::<f64>() / n;
    let mut rss = 0.0;
    let mut tss = 0.0;
    for i in 0..data.len() {
        rss += (data.means[i] - model.eval(&data.coords[i])).powi(2);
        tss += (data.means[i] - ybar).powi(2);
    }
    let r2 = if tss > 0.0 {
        1.0 - rss / tss
    } else if rss == 0.0 {
        1.0
    } else {
        0.0
    };
    let p = model.terms.len() as f64;
    let adj_r2 = if n - p - 1.0 > 0.0 {
        1.0 - (1.0 - r2) * (n - 1.0) / (n - p - 1.0)
    } else {
        r2
    };
    FitStats {
        rss,
        smape: smape(model, data),
        adj_r2,
        cv_smape: None,
        lack_of_fit_p: None,
    }
}

/// The weighted residual sum of squares of `model` on the points' means, each point's
/// squared relative residual counted once per repetition: `Σ_i n_i ((ȳ_i - f_i)/ȳ_i)²`
/// (the numerator of the lack-of-fit test and of the extra-sum-of-squares test).
pub fn weighted_rss(model: &Model, data: &Data) -> f64 {
    (0..data.len())
        .map(|i| {
            let r = (data.means[i] - model.eval(&data.coords[i])) * weight(data.means[i]);
            data.reps[i].len() as f64 * r * r
        })
        .sum()
}

/// The pure error of the repetitions, relative to each point's mean:
/// `(Σ_ij ((y_ij - ȳ_i)/ȳ_i)², N - m)`; `None` without a repetition.
pub fn pure_error(data: &Data) -> Option<(f64, usize)> {
    let total: usize = data.reps.iter().map(Vec::len).sum();
    if total <= data.len() {
        return None;
    }
    let ss = (0..data.len())
        .map(|i| {
            let w = weight(data.means[i]);
            data.reps[i]
                .iter()
                .map(|y| ((y - data.means[i]) * w).powi(2))
                .sum::<f64>()
        })
        .sum();
    Some((ss, total - data.len()))
}

/// The extra-sum-of-squares F-test of one term, against the pure error of the
/// repetitions: `F = (RSS_without - RSS_with) / (SS_pe / (N - m))` on 1 and `N - m`
/// degrees of freedom (RSS as [`weighted_rss`]). The pure error does not depend on
/// either model, so a full model that lacks fit does not make a term look
/// insignificant. Returns the p-value; `None` without repetitions.
pub fn term_p(with: &Model, without: &Model, data: &Data) -> Option<f64> {
    let (ss_pe, df) = pure_error(data)?;
    let extra = (weighted_rss(without, data) - weighted_rss(with, data)).max(0.0);
    if ss_pe == 0.0 {
        return Some(if extra <= 1e-24 { 1.0 } else { 0.0 });
    }
    Some(f_sf(extra / (ss_pe / df as f64), 1.0, df as f64))
}

/// The lack-of-fit F-test of `model` (with `coefficients` fitted values, constant
/// included) against the pure error of the repetitions, on relative residuals
/// (each point's residuals divided by its mean, matching the fit's weighting):
/// `F = (Σ_i n_i r_i² / (m - p)) / (Σ_ij e_ij² / (N - m))`. Returns the p-value; `None`
/// when either degree of freedom is zero.
pub fn lack_of_fit_p(model: &Model, data: &Data, coefficients: usize) -> Option<f64> {
    let m = data.len();
    let total: usize = data.reps.iter().map(Vec::len).sum();
    if m <= coefficients || total <= m {
        return None;
    }
    let mut ss_lof = 0.0;
    let mut ss_pe = 0.0;
    for i in 0..m {
        let w = weight(data.means[i]);
        let r = (data.means[i] - model.eval(&data.coords[i])) * w;
        ss_lof += data.reps[i].len() as f64 * r * r;
        ss_pe += data.reps[i]
            .iter()
            .map(|y| ((y - data.means[i]) * w).powi(2))
            .sum::<f64>();
    }
    let (d1, d2) = ((m - coefficients) as f64, (total - m) as f64);
    if ss_pe == 0.0 {
        return Some(if ss_lof <= 1e-24 { 1.0 } else { 0.0 });
    }
    Some(f_sf((ss_lof / d1) / (ss_pe / d2), d1, d2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(param: usize, exponent: f64, log_exponent: u32) -> Shape {
        vec![Factor {
            param,
            exponent,
            log_exponent,
        }]
    }

    fn data(f: impl Fn(f64) -> f64, noise: &[f64]) -> Data {
        let xs = [2.0, 4.0, 8.0, 16.0, 32.0];
        Data::new(
            xs.iter().map(|&x| vec![x]).collect(),
            xs.iter()
                .map(|&x| noise.iter().map(|e| f(x) * (1.0 + e)).collect())
                .collect(),
        )
    }

    #[test]
    fn exact_fit_and_stats() {
        let d = data(|x| 1.0 + 0.5 * x * x, &[0.0]);
        let m = fit(&d, &[shape(0, 2.0, 0)], None).unwrap();
        assert!((m.constant - 1.0).abs() < 1e-9 && (m.terms[0].coefficient - 0.5).abs() < 1e-9);
        let s = stats(&m, &d);
        assert!(s.rss < 1e-12 && s.smape < 1e-9 && (s.adj_r2 - 1.0).abs() < 1e-12);
        assert!(cv_smape(&d, &[shape(0, 2.0, 0)]) < 1e-6);
        // A wrong exponent cross-validates worse.
        assert!(cv_smape(&d, &[shape(0, 1.0, 0)]) > 1.0);
    }

    #[test]
    fn lack_of_fit_detects_a_wrong_shape() {
        let noise = [-0.02, 0.0, 0.02, 0.01, -0.01];
        let d = data(|x| x * x, &noise);
        let right = fit(&d, &[shape(0, 2.0, 0)], None).unwrap();
        let wrong = fit(&d, &[shape(0, 1.0, 0)], None).unwrap();
        assert!(lack_of_fit_p(&right, &d, 2).unwrap() > 0.05);
        assert!(lack_of_fit_p(&wrong, &d, 2).unwrap() < 1e-6);
        // No repetitions: no test.
        let single = data(|x| x, &[0.0]);
        let m = fit(&single, &[shape(0, 1.0, 0)], None).unwrap();
        assert_eq!(lack_of_fit_p(&m, &single, 2), None);
    }

    #[test]
    fn relative_weighting() {
        // One point 1000 times larger with the same relative error must not dominate:
        // a relative fit of y = x (exact except 10% on the large point) keeps the slope
        // that fits the small points.
        let d = Data::new(
            vec![vec![1.0], vec![2.0], vec![3.0], vec![1000.0]],
            vec![vec![1.0], vec![2.0], vec![3.0], vec![1100.0]],
        );
        let m = fit(&d, &[shape(0, 1.0, 0)], None).unwrap();
        assert!((m.terms[0].coefficient - 1.0).abs() < 0.05, "{m:?}");
    }

    #[test]
    fn ties_prefer_fewer_terms() {
        assert!(better(1.0, 1, 1.0, 2));
        assert!(!better(1.0, 2, 1.0, 1));
        assert!(better(0.5, 3, 1.0, 1));
        assert!(!better(f64::INFINITY, 0, 1.0, 1));
        assert!(better(1.0, 3, f64::INFINITY, 0));
    }
}
