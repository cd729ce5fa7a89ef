//! The plan of an experiment (`DIR/plan.json`): the command template, the parameters,
//! the points and the number of repetitions. The points come from `--grid` (the full
//! factorial of the values given) or from `--design` with `--prior` (the runs of the
//! report's experiment design, `crate::report::design`).
//!
//! A directory holds one plan: running the experiment again with the same plan resumes
//! it; a different plan is refused, saying what differs and how to start over.

use crate::report;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What `plan.json` says it is.
pub const FORMAT: &str = "taintprof.experiment-plan";
pub const VERSION: u32 = 1;

/// The experiment's plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub format: String,
    pub version: u32,
    /// The command template, word by word (`crate::experiment::template`).
    pub command: Vec<String>,
    /// The parameters, in the order of each point's values.
    pub params: Vec<String>,
    /// Each point's values as given (the text substituted into the command).
    pub points: Vec<Vec<String>>,
    pub reps: u32,
    /// How the points were chosen (`--grid`, or the design of a report); shown, not
    /// compared.
    pub origin: String,
    /// How many points at the end of `points` `--adaptive` added (not compared).
    #[serde(default)]
    pub added: usize,
    /// Whether `--adaptive` made its round of bends (it makes one).
    #[serde(default)]
    pub adaptive_done: bool,
    /// Rounds of branch-side bisection `--adaptive` made (`adaptive::BISECT_ROUNDS`).
    #[serde(default)]
    pub bisect_rounds: u32,
}

impl Plan {
    pub fn new(
        command: Vec<String>,
        params: Vec<String>,
        points: Vec<Vec<String>>,
        reps: u32,
        origin: String,
    ) -> Plan {
        Plan {
            format: FORMAT.to_string(),
            version: VERSION,
            command,
            params,
            points,
            reps,
            origin,
            added: 0,
            adaptive_done: false,
            bisect_rounds: 0,
        }
    }

    /// The points the command line asked for (without those `--adaptive` added).
    pub fn planned(&self) -> &[Vec<String>] {
        &self.points[..self.points.len() - self.added.min(self.points.len())]
    }

    /// Point `i` as `(param, value)` pairs.
    pub fn values(&self, i: usize) -> Vec<(String, String)> {
        self.params
            .iter()
            .cloned()
            .zip(self.points[i].iter().cloned())
            .collect()
    }

    /// Point `i`'s coordinates (the values as numbers; [`check_numeric`] made sure
    /// they are).
    pub fn coords(&self, i: usize) -> Vec<f64> {
        self.points[i]
            .iter()
            .map(|v| v.parse::<f64>().unwrap_or(f64::NAN))
            .collect()
    }

    /// `n=64 steps=10`: point `i` for messages.
    pub fn label(&self, i: usize) -> String {
        self.values(i)
            .iter()
            .map(|(p, v)| format!("{p}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `n=64,steps=10`: point `i`'s directory under `DIR/runs/`.
    pub fn key(&self, i: usize) -> String {
        self.values(i)
            .iter()
            .map(|(p, v)| format!("{p}={v}"))
            .collect::<Vec<_>>()
            .join(",")
            .replace('/', "_")
    }

    /// The index of the point with these values.
    pub fn index_of(&self, values: &[String]) -> Option<usize> {
        self.points.iter().position(|p| p.as_slice() == values)
    }

    /// What differs between the stored plan `self` and `now`, one phrase per
    /// difference (empty: the same plan).
    pub fn differences(&self, now: &Plan) -> Vec<String> {
        let mut out = Vec::new();
        if self.command != now.command {
            out.push(format!(
                "the command was `{}`, now `{}`",
                super::template::shell_line(&self.command),
                super::template::shell_line(&now.command)
            ));
        }
        if self.params != now.params {
            out.push(format!(
                "the parameters were {}, now {}",
                self.params.join(", "),
                now.params.join(", ")
            ));
        } else if self.planned() != now.planned() {
            let first = self
                .planned()
                .iter()
                .zip(now.planned())
                .position(|(a, b)| a != b)
                .unwrap_or(self.planned().len().min(now.planned().len()));
            let show = |p: &Plan| {
                if first < p.planned().len() {
                    p.label(first)
                } else {
                    "none".to_string()
                }
            };
            out.push(format!(
                "the points differ: {} stored, {} now; point {} was {}, now {}",
                self.planned().len(),
                now.planned().len(),
                first + 1,
                show(self),
                show(now)
            ));
        }
        if self.reps != now.reps {
            out.push(format!(
                "the repetitions were {}, now {}",
                self.reps, now.reps
            ));
        }
        out
    }
}

/// The points an experiment's command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Points {
    /// The parameters, in the order of each point's values.
    pub params: Vec<String>,
    pub points: Vec<Vec<String>>,
    /// What the design says about itself (for the user).
    pub notes: Vec<String>,
}

/// Refuses values that are not finite numbers: Extra-P models numeric parameters.
pub fn check_numeric(lists: &[(String, Vec<String>)], flag: &str) -> Result<(), String> {
    for (name, values) in lists {
        for v in values {
            if !v.parse::<f64>().is_ok_and(f64::is_finite) {
                return Err(format!(
                    "{flag} {name}={}: `{v}` is not a number (the parameters of a performance model are numbers)",
                    values.join(",")
                ));
            }
        }
    }
    Ok(())
}

/// `--grid PARAM=V1,V2,... ...`: the parameters in command-line order and every
/// combination of their values (the last parameter fastest).
pub fn grid(specs: &[String]) -> Result<Points, String> {
    let lists = report::design::parse_value_lists(specs, "--grid")?;
    if lists.is_empty() {
        return Err("--grid needs at least one PARAM=V1,V2,...".to_string());
    }
    check_numeric(&lists, "--grid")?;
    let total = lists
        .iter()
        .fold(1u64, |acc, (_, v)| acc.saturating_mul(v.len() as u64));
    if total > report::design::MAX_RUNS {
        return Err(format!(
            "--grid has {total} points (more than {}); use fewer values, or --design to run only what the model needs",
            report::design::MAX_RUNS
        ));
    }
    let params: Vec<String> = lists.iter().map(|(n, _)| n.clone()).collect();
    let mut points = Vec::new();
    let mut idx = vec![0usize; lists.len()];
    loop {
        points.push(
            lists
                .iter()
                .zip(&idx)
                .map(|((_, v), &i)| v[i].clone())
                .collect(),
        );
        let mut k = lists.len();
        loop {
            if k == 0 {
                return Ok(Points {
                    params,
                    points,
                    notes: Vec::new(),
                });
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < lists[k].1.len() {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// `--prior REPORT --design ... [--design-base ...]`: the parameters (registration
/// order) and the design's runs, computed from the report as `taintprof report
/// --design` does; the design's notes are returned for the user.
pub fn design(prior: &Path, specs: &[String], bases: &[String]) -> Result<Points, String> {
    let req = report::design::DesignRequest::parse(specs, bases)?;
    check_numeric(&req.values, "--design")?;
    let r = report::load(prior).map_err(|e| format!("--prior: {e}"))?;
    let s = report::summary::summarize(&r, &prior.display().to_string());
    let d = report::design::design(&s, &req)?;
    let params: Vec<String> = d.parameters.iter().map(|p| p.name.clone()).collect();
    let points = d
        .runs
        .iter()
        .map(|r| r.values.iter().map(|(_, v)| v.clone()).collect())
        .collect();
    Ok(Points {
        params,
        points,
        notes: d.notes,
    })
}

/// Reads the plan stored in `path` (`None` if there is none).
pub fn load(path: &Path) -> Result<Option<Plan>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let plan: Plan = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: not an experiment plan ({e}); use another --out directory, or --restart to replace it",
            path.display()
        )
    })?;
    if plan.format != FORMAT || plan.version > VERSION {
        return Err(format!(
            "{}: a {} version {} file, not a version {VERSION} experiment plan; use another --out directory",
            path.display(),
            plan.format,
            plan.version
        ));
    }
    Ok(Some(plan))
}

/// Writes the plan to `path` (atomically).
pub fn store(plan: &Plan, path: &Path) -> Result<(), String> {
    let text = serde_json::to_string_pretty(plan).expect("a plan is strings and numbers") + "\n";
    crate::run::write_atomically(path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn grid_is_the_full_factorial_last_fastest() {
        let Points { params, points, .. } = grid(&s(&["n=1,2", "m=10,20,30"])).unwrap();
        assert_eq!(params, ["n", "m"]);
        assert_eq!(
            points,
            vec![
                s(&["1", "10"]),
                s(&["1", "20"]),
                s(&["1", "30"]),
                s(&["2", "10"]),
                s(&["2", "20"]),
                s(&["2", "30"]),
            ]
        );
        assert!(grid(&s(&["n=a,2"]))
            .unwrap_err()
            .contains("`a` is not a number"));
        assert!(grid(&s(&["n=1", "n=2"]))
            .unwrap_err()
            .contains("--grid: n is given twice"));
    }

    #[test]
    fn differences_say_what_changed() {
        let a = Plan::new(
            s(&["./app", "{n}"]),
            s(&["n"]),
            vec![s(&["1"]), s(&["2"])],
            3,
            "--grid".into(),
        );
        assert!(a.differences(&a.clone()).is_empty());
        let mut b = a.clone();
        b.points[1] = s(&["4"]);
        b.reps = 5;
        b.origin = "other".into();
        let d = b.differences(&a);
        assert_eq!(
            d,
            [
                "the points differ: 2 stored, 2 now; point 2 was n=4, now n=2",
                "the repetitions were 5, now 3"
            ]
        );
        assert_eq!(a.key(1), "n=2");
    }
}
