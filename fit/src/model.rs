//! PMNF models (Extra-P's performance model normal form):
//! `c0 + Σ_k c_k · Π_l x_l^{i_l} · log2(x_l)^{j_l}`, their evaluation and display, and
//! Extra-P's default exponent sets.
//!
//! Display format (also in docs/model-schema.md): terms joined by ` + `, the constant
//! first; a term is its coefficient then its factors, joined by ` * `; a factor is
//! `x` (exponent 1), `x^2` (integer), `x^(3/2)` (a fraction with denominator ≤ 12),
//! `x^1.37` (otherwise), followed by ` * log2(x)` (log exponent 1) or
//! ` * log2(x)^2`; a factor with exponent 0 shows only its logarithm. Numbers have 6
//! significant digits, in exponent notation outside [1e-3, 1e6):
//! `3.1 + 0.02 * n^2 * log2(n) * m`.

/// The exponents `i` of Extra-P's default search space.
pub const POLY_EXPONENTS: [f64; 19] = [
    0.0,
    0.25,
    1.0 / 3.0,
    0.5,
    2.0 / 3.0,
    0.75,
    1.0,
    1.25,
    4.0 / 3.0,
    1.5,
    5.0 / 3.0,
    1.75,
    2.0,
    2.25,
    7.0 / 3.0,
    2.5,
    8.0 / 3.0,
    2.75,
    3.0,
];
/// The log exponents `j` of Extra-P's default search space.
pub const LOG_EXPONENTS: [u32; 3] = [0, 1, 2];

/// Every `(i, j)` of the default search space except `(0, 0)` (56 pairs).
pub fn exponent_pairs() -> Vec<(f64, u32)> {
    let mut v = Vec::new();
    for &i in &POLY_EXPONENTS {
        for &j in &LOG_EXPONENTS {
            if i != 0.0 || j != 0 {
                v.push((i, j));
            }
        }
    }
    v
}

/// `x^exponent · log2(x)^log_exponent` of one parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Factor {
    /// Index into the measurements' `params`.
    pub param: usize,
    pub exponent: f64,
    pub log_exponent: u32,
}

impl Factor {
    pub fn eval(&self, coords: &[f64]) -> f64 {
        let x = coords[self.param];
        let mut v = if self.exponent == 0.0 {
            1.0
        } else {
            x.powf(self.exponent)
        };
        if self.log_exponent > 0 {
            v *= x.log2().powi(self.log_exponent as i32);
        }
        v
    }
}

/// `coefficient · Π factors`.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub coefficient: f64,
    pub factors: Vec<Factor>,
}

impl Term {
    /// The term without its coefficient.
    pub fn basis(factors: &[Factor], coords: &[f64]) -> f64 {
        factors.iter().map(|f| f.eval(coords)).product()
    }

    pub fn eval(&self, coords: &[f64]) -> f64 {
        self.coefficient * Term::basis(&self.factors, coords)
    }
}

/// A PMNF model: `constant + Σ terms`.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub constant: f64,
    pub terms: Vec<Term>,
}

impl Model {
    pub fn constant(c: f64) -> Model {
        Model {
            constant: c,
            terms: Vec::new(),
        }
    }

    /// The model's value at `coords` (one per parameter of the measurements).
    pub fn eval(&self, coords: &[f64]) -> f64 {
        self.constant + self.terms.iter().map(|t| t.eval(coords)).sum::<f64>()
    }

    /// The indices of the parameters the model uses, sorted.
    pub fn params(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .terms
            .iter()
            .flat_map(|t| t.factors.iter().map(|f| f.param))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The display string (format in the module's documentation); `names` are the
    /// measurements' parameter names.
    pub fn display(&self, names: &[String]) -> String {
        let mut s = fmt_number(self.constant);
        for t in &self.terms {
            s.push_str(" + ");
            s.push_str(&fmt_number(t.coefficient));
            for f in &t.factors {
                let name = names.get(f.param).map(String::as_str).unwrap_or("?");
                if f.exponent != 0.0 {
                    s.push_str(" * ");
                    s.push_str(name);
                    s.push_str(&fmt_exponent(f.exponent));
                }
                if f.log_exponent > 0 {
                    s.push_str(&format!(" * log2({name})"));
                    if f.log_exponent > 1 {
                        s.push_str(&format!("^{}", f.log_exponent));
                    }
                }
            }
        }
        s
    }
}

/// `""` for 1, `^2`, `^(3/2)`, or `^1.37`.
fn fmt_exponent(e: f64) -> String {
    if e == 1.0 {
        return String::new();
    }
    for q in 1..=12u32 {
        let p = e * q as f64;
        if (p - p.round()).abs() < 1e-9 {
            let p = p.round() as i64;
            return if q == 1 {
                format!("^{p}")
            } else {
                format!("^({p}/{q})")
            };
        }
    }
    format!("^{}", fmt_number(e))
}

/// 6 significant digits, trailing zeros dropped; exponent notation outside [1e-3, 1e6).
pub fn fmt_number(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if !v.is_finite() {
        return format!("{v}");
    }
    let a = v.abs();
    if (1e-3..1e6).contains(&a) {
        let digits = (5 - a.log10().floor() as i32).max(0) as usize;
        let s = format!("{v:.digits$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    } else {
        let s = format!("{v:.5e}");
        let (mantissa, exp) = s.split_once('e').unwrap();
        let mantissa = if mantissa.contains('.') {
            mantissa.trim_end_matches('0').trim_end_matches('.')
        } else {
            mantissa
        };
        format!("{mantissa}e{exp}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["n".into(), "m".into()]
    }

    #[test]
    fn eval_and_display() {
        let m = Model {
            constant: 3.1,
            terms: vec![
                Term {
                    coefficient: 0.02,
                    factors: vec![
                        Factor {
                            param: 0,
                            exponent: 2.0,
                            log_exponent: 1,
                        },
                        Factor {
                            param: 1,
                            exponent: 1.0,
                            log_exponent: 0,
                        },
                    ],
                },
                Term {
                    coefficient: 1.5e-7,
                    factors: vec![Factor {
                        param: 1,
                        exponent: 1.5,
                        log_exponent: 2,
                    }],
                },
            ],
        };
        assert_eq!(
            m.display(&names()),
            "3.1 + 0.02 * n^2 * log2(n) * m + 1.5e-7 * m^(3/2) * log2(m)^2"
        );
        let v = m.eval(&[8.0, 4.0]);
        let want = 3.1 + 0.02 * 64.0 * 3.0 * 4.0 + 1.5e-7 * 8.0 * 4.0;
        assert!((v - want).abs() < 1e-12);
        assert_eq!(m.params(), vec![0, 1]);
    }

    #[test]
    fn log_only_factor_and_numbers() {
        let m = Model {
            constant: 0.0,
            terms: vec![Term {
                coefficient: 1234567.0,
                factors: vec![Factor {
                    param: 0,
                    exponent: 0.0,
                    log_exponent: 1,
                }],
            }],
        };
        assert_eq!(m.display(&names()), "0 + 1.23457e6 * log2(n)");
        assert_eq!(fmt_number(0.5), "0.5");
        assert_eq!(fmt_number(-42.0), "-42");
        assert_eq!(fmt_number(1.0 / 3.0), "0.333333");
        assert_eq!(fmt_exponent(0.25), "^(1/4)");
        assert_eq!(fmt_exponent(7.0 / 3.0), "^(7/3)");
        assert_eq!(fmt_exponent(1.37), "^1.37");
    }

    #[test]
    fn search_space() {
        let p = exponent_pairs();
        assert_eq!(p.len(), 19 * 3 - 1);
        assert!(!p.contains(&(0.0, 0)));
    }
}
