//! The generated functions of the modeler benchmark, with known truth: three parameters
//! (`n`, `m`, `p`) × five values × five repetitions, uniform multiplicative noise of
//! 5–20% (the level drawn per function and seed).
//!
//! Every function is a PMNF model (its *truth*, a [`Model`]) with the taint prior the
//! taint analysis would give its code ([`Prior`]: the parameters of its loops' exit
//! conditions, and the volume, one factor per loop). The volume counts loops, so its
//! exponents are integers: a loop over `log2(n)` or `sqrt(n)` steps still depends on `n`
//! and counts as one `n` (`n*log2(n)` has the volume `n^2`, `n^(3/4)*m^2` the volume
//! `n*m^2`); the modeler has to find the true exponents from the measurements, keeping
//! the volume's structure.
//!
//! - *Constant* functions: the prior has no parameter.
//! - *Kernels*: products, sums, fractional exponents and logarithms; one whose volume
//!   has a term the time does not show (a loop over `m` too cheap to measure).
//! - *Contended* kernels: their time grows with `p`, which their prior excludes (the
//!   code's loops do not depend on `p`, contention does); each has a *control*, the
//!   same kernel without contention, with the same prior.
//!
//! The terms' sizes: each term is worth `share` (times a factor in [0.5, 2) drawn per
//! seed unless the function keeps its terms' ratio, as the contended ones do) at the
//! largest measured point, plus a constant of 0.2–2% of the total there.

use taintprof_fit::gen::{generate, XorShift};
use taintprof_fit::{Factor, Measurements, Model, Prior, Term};

/// The parameters.
pub const PARAMS: [&str; 3] = ["n", "m", "p"];
/// Their values (five each; the measured points are the full grid, 125 points).
pub const VALUES: [[f64; 5]; 3] = [
    [16.0, 32.0, 64.0, 128.0, 256.0],
    [8.0, 16.0, 32.0, 64.0, 128.0],
    [2.0, 4.0, 8.0, 16.0, 32.0],
];
/// Repetitions per point.
pub const REPETITIONS: usize = 5;
/// The noise levels' range (relative, uniform; the level drawn per function and seed).
pub const NOISE: (f64, f64) = (0.05, 0.20);

/// Where models are extrapolated to: twice the largest value of every parameter.
pub fn extrapolation_point() -> Vec<f64> {
    VALUES.iter().map(|v| 2.0 * v[4]).collect()
}

/// The largest measured point.
fn largest() -> Vec<f64> {
    VALUES.iter().map(|v| v[4]).collect()
}

/// What a function is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The prior has no parameter; neither has the truth.
    Constant,
    /// The truth has the prior's parameters and term structure.
    Kernel,
    /// A kernel that is the control of a contended one (same prior, no contention).
    Control,
    /// The time grows with a parameter the prior excludes.
    Contended,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Constant => "constant",
            Role::Kernel => "kernel",
            Role::Control => "control",
            Role::Contended => "contended",
        }
    }

    /// Kernels and controls: the functions whose structure is scored.
    pub fn is_kernel(self) -> bool {
        matches!(self, Role::Kernel | Role::Control)
    }
}

/// One factor of a truth term: (parameter index, exponent, log exponent).
type F = (usize, f64, u32);
/// A prior's volume term: (parameters, power) per factor.
type V = &'static [(&'static [&'static str], u32)];

/// One function of the suite, before the seed.
pub struct Spec {
    pub name: &'static str,
    pub role: Role,
    /// The truth's terms with their share of the value at the largest point.
    terms: &'static [(&'static [F], f64)],
    /// Whether each term's share is multiplied by its own factor in [0.5, 2) (else one
    /// factor for all: the terms keep their ratio).
    jitter: bool,
    prior_params: &'static [&'static str],
    prior_volume: &'static [V],
}

const N: usize = 0;
const M: usize = 1;
const P: usize = 2;

/// The functions, in the order they are written to each seed's file.
pub const SPECS: &[Spec] = &[
    Spec {
        name: "n^2*m",
        role: Role::Kernel,
        terms: &[(&[(N, 2.0, 0), (M, 1.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n", "m"],
        prior_volume: &[&[(&["n"], 2), (&["m"], 1)]],
    },
    Spec {
        name: "n*log2(n)+m",
        role: Role::Kernel,
        terms: &[(&[(N, 1.0, 1)], 1.0), (&[(M, 1.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n", "m"],
        prior_volume: &[&[(&["n"], 2)], &[(&["m"], 1)]],
    },
    Spec {
        name: "n^(3/2)",
        role: Role::Kernel,
        terms: &[(&[(N, 1.5, 0)], 1.0)],
        jitter: true,
        prior_params: &["n"],
        prior_volume: &[&[(&["n"], 2)]],
    },
    Spec {
        name: "n^(3/4)*m^2",
        role: Role::Kernel,
        terms: &[(&[(N, 0.75, 0), (M, 2.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n", "m"],
        prior_volume: &[&[(&["n"], 1), (&["m"], 2)]],
    },
    Spec {
        name: "n+m+p",
        role: Role::Kernel,
        terms: &[
            (&[(N, 1.0, 0)], 1.0),
            (&[(M, 1.0, 0)], 1.0),
            (&[(P, 1.0, 0)], 1.0),
        ],
        jitter: true,
        prior_params: &["n", "m", "p"],
        prior_volume: &[&[(&["n"], 1)], &[(&["m"], 1)], &[(&["p"], 1)]],
    },
    Spec {
        name: "n*m*p",
        role: Role::Kernel,
        terms: &[(&[(N, 1.0, 0), (M, 1.0, 0), (P, 1.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n", "m", "p"],
        prior_volume: &[&[(&["n"], 1), (&["m"], 1), (&["p"], 1)]],
    },
    Spec {
        name: "n^2+m*p",
        role: Role::Kernel,
        terms: &[(&[(N, 2.0, 0)], 1.0), (&[(M, 1.0, 0), (P, 1.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n", "m", "p"],
        prior_volume: &[&[(&["n"], 2)], &[(&["m"], 1), (&["p"], 1)]],
    },
    Spec {
        name: "log2(n)*m",
        role: Role::Kernel,
        terms: &[(&[(N, 0.0, 1), (M, 1.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n", "m"],
        prior_volume: &[&[(&["n"], 1), (&["m"], 1)]],
    },
    Spec {
        name: "n^3",
        role: Role::Kernel,
        terms: &[(&[(N, 3.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n"],
        prior_volume: &[&[(&["n"], 3)]],
    },
    Spec {
        name: "n*m+p*log2(p)",
        role: Role::Kernel,
        terms: &[(&[(N, 1.0, 0), (M, 1.0, 0)], 1.0), (&[(P, 1.0, 1)], 1.0)],
        jitter: true,
        prior_params: &["n", "m", "p"],
        prior_volume: &[&[(&["n"], 1), (&["m"], 1)], &[(&["p"], 2)]],
    },
    Spec {
        name: "n^(1/2)*m*p",
        role: Role::Kernel,
        terms: &[(&[(N, 0.5, 0), (M, 1.0, 0), (P, 1.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n", "m", "p"],
        prior_volume: &[&[(&["n"], 1), (&["m"], 1), (&["p"], 1)]],
    },
    Spec {
        name: "n^2*log2(n)",
        role: Role::Kernel,
        terms: &[(&[(N, 2.0, 1)], 1.0)],
        jitter: true,
        prior_params: &["n"],
        prior_volume: &[&[(&["n"], 3)]],
    },
    Spec {
        // The volume has a loop over m whose cost the measurements cannot see.
        name: "n^2 (volume n^2+m)",
        role: Role::Kernel,
        terms: &[(&[(N, 2.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n", "m"],
        prior_volume: &[&[(&["n"], 2)], &[(&["m"], 1)]],
    },
    Spec {
        name: "n^2",
        role: Role::Control,
        terms: &[(&[(N, 2.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n"],
        prior_volume: &[&[(&["n"], 2)]],
    },
    Spec {
        name: "n*m",
        role: Role::Control,
        terms: &[(&[(N, 1.0, 0), (M, 1.0, 0)], 1.0)],
        jitter: true,
        prior_params: &["n", "m"],
        prior_volume: &[&[(&["n"], 1), (&["m"], 1)]],
    },
    Spec {
        // n^2 * (1 + 0.1 * log2(p)): 1.1 to 1.5 times the control's time.
        name: "n^2*(1+0.1*log2(p))",
        role: Role::Contended,
        terms: &[(&[(N, 2.0, 0)], 1.0), (&[(N, 2.0, 0), (P, 0.0, 1)], 0.5)],
        jitter: false,
        prior_params: &["n"],
        prior_volume: &[&[(&["n"], 2)]],
    },
    Spec {
        // n * m * (1 + 0.02 * p): 1.04 to 1.64 times the control's time.
        name: "n*m*(1+0.02*p)",
        role: Role::Contended,
        terms: &[
            (&[(N, 1.0, 0), (M, 1.0, 0)], 1.0),
            (&[(N, 1.0, 0), (M, 1.0, 0), (P, 1.0, 0)], 0.64),
        ],
        jitter: false,
        prior_params: &["n", "m"],
        prior_volume: &[&[(&["n"], 1), (&["m"], 1)]],
    },
    Spec {
        name: "constant a",
        role: Role::Constant,
        terms: &[],
        jitter: false,
        prior_params: &[],
        prior_volume: &[],
    },
    Spec {
        name: "constant b",
        role: Role::Constant,
        terms: &[],
        jitter: false,
        prior_params: &[],
        prior_volume: &[],
    },
    Spec {
        name: "constant c",
        role: Role::Constant,
        terms: &[],
        jitter: false,
        prior_params: &[],
        prior_volume: &[],
    },
];

/// One function of one seed: truth, prior, noise level and measurements.
pub struct Case {
    /// Index into [`SPECS`].
    pub spec: usize,
    pub seed: u64,
    pub noise: f64,
    pub truth: Model,
    pub prior: Prior,
    pub measurements: Measurements,
}

impl Case {
    pub fn name(&self) -> &'static str {
        SPECS[self.spec].name
    }

    pub fn role(&self) -> Role {
        SPECS[self.spec].role
    }

    /// The call path it is written under.
    pub fn callpath(&self) -> String {
        format!("main->f{:02}", self.spec)
    }
}

fn term(factors: &[F], coefficient: f64) -> Term {
    Term {
        coefficient,
        factors: factors
            .iter()
            .map(|&(param, exponent, log_exponent)| Factor {
                param,
                exponent,
                log_exponent,
            })
            .collect(),
    }
}

/// The functions of one seed (every one of [`SPECS`], with its own stream of random
/// numbers: `seed` and the function's index).
pub fn cases(seed: u64) -> Vec<Case> {
    SPECS
        .iter()
        .enumerate()
        .map(|(i, s)| case(seed, i, s))
        .collect()
}

fn case(seed: u64, index: usize, s: &Spec) -> Case {
    let mut rng = XorShift::new(seed.wrapping_mul(1 << 16).wrapping_add(index as u64));
    let noise = rng.range(NOISE.0, NOISE.1);
    let at = largest();
    let truth = if s.terms.is_empty() {
        // Constants from 1 ms to 10 s, log-uniform.
        Model::constant(10f64.powf(rng.range(-3.0, 1.0)))
    } else {
        let scale = rng.range(0.5, 2.0);
        let terms: Vec<Term> = s
            .terms
            .iter()
            .map(|&(factors, share)| {
                let w = share * if s.jitter { rng.range(0.5, 2.0) } else { scale };
                let unit = term(factors, 1.0).eval(&at);
                term(factors, w / unit)
            })
            .collect();
        let total: f64 = terms.iter().map(|t| t.eval(&at)).sum();
        Model {
            constant: total * rng.range(0.002, 0.02),
            terms,
        }
    };
    let prior = Prior::of(s.prior_params, s.prior_volume);
    let values: Vec<Vec<f64>> = VALUES.iter().map(|v| v.to_vec()).collect();
    let measurements = generate(
        &PARAMS,
        &values,
        REPETITIONS,
        noise,
        |c| truth.eval(c),
        &mut rng,
    );
    Case {
        spec: index,
        seed,
        noise,
        truth,
        prior,
        measurements,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_shaped() {
        let a = cases(3);
        let b = cases(3);
        assert_eq!(a.len(), SPECS.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.measurements, y.measurements);
            assert_eq!(x.measurements.points.len(), 125);
            assert!(x.measurements.points.iter().all(|p| p.reps.len() == 5));
            assert!((NOISE.0..NOISE.1).contains(&x.noise));
        }
        assert_ne!(cases(4)[0].measurements, a[0].measurements);
        // Each term is worth its share (times at most 2) at the largest point.
        let at = largest();
        for c in &a {
            for t in &c.truth.terms {
                let v = t.eval(&at);
                assert!(v > 0.0 && v <= 2.0, "{}: {v}", c.name());
            }
        }
        // The contended kernel grows by 1.5 over p at the largest n.
        let x = a.iter().find(|c| c.role() == Role::Contended).unwrap();
        let lo = x.truth.eval(&[256.0, 128.0, 1.0]);
        let hi = x.truth.eval(&[256.0, 128.0, 32.0]);
        assert!((hi / lo - 1.5).abs() < 0.03, "{}", hi / lo);
    }
}
