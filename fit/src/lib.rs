//! Empirical performance models of measurements in Extra-P's performance model normal
//! form (PMNF), as a black box or from a function's taint prior (issue 25, item 3).
//!
//! Map of the crate:
//! - `model.rs`: `Model`, `Term`, `Factor`, evaluation, the display string, the default
//!   exponent sets;
//! - `nnls.rs`: non-negative least squares (Lawson–Hanson, Householder QR);
//! - `stats.rs`: the F distribution (regularized incomplete beta function);
//! - `fit.rs`: fitting one hypothesis (relative weighting), statistics, leave-one-out
//!   cross-validation, the lack-of-fit test;
//! - `search.rs`: the black-box search (no prior);
//! - `prior.rs`: modeling with a taint prior: pooling, the volume's exponents, their
//!   lack-of-fit test and the exponent search, and the validity warnings;
//! - `json.rs`: one model as JSON, and a command's entry around it (docs/model-schema.md,
//!   version 2);
//! - `experiment.rs`: an experiment: several call paths and metrics over one set of
//!   points, as every input format holds them;
//! - `extrap_text.rs`: Extra-P's text input format, read and written;
//! - `extrap_json.rs`: Extra-P's JSON (current and legacy) and JSON Lines formats, read
//!   and written;
//! - `extrap_file.rs`: Extra-P's experiment file (`.extra-p`: measurements and model
//!   sets), written;
//! - `gen.rs`: seeded generated measurements with known truth (xorshift), for tests and
//!   benchmarks.
//!
//! Entry points: [`black_box`] and [`with_prior`], both giving a [`FitResult`], and
//! [`model_json`].

pub mod experiment;
pub mod extrap_file;
pub mod extrap_json;
pub mod extrap_text;
pub mod fit;
pub mod gen;
pub mod json;
pub mod model;
pub mod nnls;
pub mod prior;
pub mod search;
pub mod stats;

pub use fit::FitStats;
pub use json::{model_json, models_document};
pub use model::{Factor, Model, Term};
pub use prior::{with_prior, Prior};
pub use search::black_box;

/// Measurements of one metric of one call path.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurements {
    /// Parameter names.
    pub params: Vec<String>,
    pub points: Vec<Point>,
}

/// One measured point.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// One value per parameter of the measurements.
    pub coords: Vec<f64>,
    /// The repetitions of the metric (at least one).
    pub reps: Vec<f64>,
}

/// Why measurements cannot be modeled.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// No points.
    Empty,
    /// Point `index` has the wrong number of coordinates, no repetitions, or a value that
    /// is not finite.
    BadPoint(usize),
    /// A parameter of the prior is not a parameter of the measurements.
    UnknownParam(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Empty => write!(f, "no measured points"),
            Error::BadPoint(i) => write!(
                f,
                "point {i}: wrong number of coordinates, no repetitions, or a value that is not finite"
            ),
            Error::UnknownParam(p) => write!(f, "the prior's parameter `{p}` was not measured"),
        }
    }
}

impl std::error::Error for Error {}

impl Measurements {
    /// Checks the shape of every point.
    pub fn validate(&self) -> Result<(), Error> {
        if self.points.is_empty() {
            return Err(Error::Empty);
        }
        for (i, p) in self.points.iter().enumerate() {
            if p.coords.len() != self.params.len()
                || p.reps.is_empty()
                || p.coords.iter().chain(&p.reps).any(|v| !v.is_finite())
            {
                return Err(Error::BadPoint(i));
            }
        }
        Ok(())
    }

    /// The points as fitting data, unpooled.
    pub(crate) fn data(&self) -> fit::Data {
        fit::Data::new(
            self.points.iter().map(|p| p.coords.clone()).collect(),
            self.points.iter().map(|p| p.reps.clone()).collect(),
        )
    }
}

/// The kind of a warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarningKind {
    /// The measurements vary with a parameter the taint prior excludes (`parameter`).
    ContradictsPrior,
    /// A point's repetitions have a coefficient of variation above 0.1 (`point`).
    Noisy,
    /// No point has two repetitions: the lack-of-fit test could not run, the volume's
    /// exponents were kept untested.
    NoRepetitions,
}

impl WarningKind {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::ContradictsPrior => "contradicts_prior",
            WarningKind::Noisy => "noisy",
            WarningKind::NoRepetitions => "no_repetitions",
        }
    }
}

/// A validity warning.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    pub kind: WarningKind,
    /// The parameter concerned (`contradicts_prior`).
    pub parameter: Option<String>,
    /// The point concerned (`noisy`): its coordinates.
    pub point: Option<Vec<f64>>,
    /// One line for people.
    pub detail: String,
}

/// The mean and spread of a function the taint proves constant.
#[derive(Clone, Debug, PartialEq)]
pub struct Spread {
    /// The mean of every repetition of every point.
    pub mean: f64,
    /// Their coefficient of variation.
    pub cv: f64,
}

/// A fitted model and what was found on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct FitResult {
    pub model: Model,
    pub stats: FitStats,
    /// Whether the taint prior was used.
    pub prior: bool,
    /// Set for a function the prior proves constant.
    pub spread: Option<Spread>,
    /// With a prior that is not constant: whether the volume's own exponents passed the
    /// lack-of-fit test (`None`: untested, no repetitions).
    pub volume_adequate: Option<bool>,
    /// With a prior: the volume's exponents failed the lack-of-fit test, and passed it
    /// with the loop levels' own terms added (`prior.rs`, "Loop levels").
    pub loop_levels: bool,
    pub warnings: Vec<Warning>,
}

/// `noisy` warnings: points whose repetitions' coefficient of variation exceeds 0.1.
pub(crate) fn noisy_warnings(m: &Measurements) -> Vec<Warning> {
    m.points
        .iter()
        .filter_map(|p| {
            let c = fit::cv(&p.reps);
            (c > 0.1).then(|| Warning {
                kind: WarningKind::Noisy,
                parameter: None,
                point: Some(p.coords.clone()),
                detail: format!("coefficient of variation {c:.3} > 0.1"),
            })
        })
        .collect()
}
