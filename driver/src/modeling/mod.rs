//! `taintprof model`: empirical performance models (Extra-P's PMNF) of measurements,
//! with the taint report as the prior (issue 25, item 3).
//!
//! * `input.rs`: the measurements (Extra-P text, JSON, JSON Lines, a `taintprof
//!   experiment` directory, time records), merged into one experiment;
//! * `prior.rs`: measured call paths matched to the report's contexts and functions,
//!   and the prior of each metric;
//! * `html.rs`: `--html DIR`: plots (inline SVG) and the table;
//! * `branches.rs`: measured branch sides (time mode): the tainted branches that
//!   change side inside the measured range;
//! * this file: modeling every series (black box, and with the prior when one matched),
//!   the warnings in plain words, `--predict`, the table, `--json` and `--extrap`.

pub mod branches;
pub mod html;
pub mod input;
pub mod prior;

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{json, Value};
use taintprof_fit::experiment::Experiment;
use taintprof_fit::json::{model_entry, Entry, Prediction, PriorInfo};
use taintprof_fit::model::fmt_number;
use taintprof_fit::{
    black_box, extrap_file, models_document, with_prior, FitResult, Measurements, WarningKind,
};

use crate::table::{Align, Table};

/// What `taintprof model` was asked for.
#[derive(Clone, Debug, Default)]
pub struct ModelArgs {
    pub inputs: Vec<PathBuf>,
    pub prior: Option<PathBuf>,
    pub metric: Option<String>,
    pub json: Option<PathBuf>,
    pub extrap: Option<PathBuf>,
    pub html: Option<PathBuf>,
    pub predict: Option<String>,
}

/// One modeled series.
#[derive(Clone, Debug)]
pub struct Modeled {
    pub callpath: String,
    pub metric: String,
    pub measurements: Measurements,
    /// The black-box model.
    pub black_box: FitResult,
    /// The model with the taint prior, when one matched.
    pub prior: Option<FitResult>,
    pub info: PriorInfo,
    /// Warnings of the driver: measured branch sides that change inside the measured
    /// range (`branch_changes_side`), else the report's tainted branches on varied
    /// parameters (`tainted_branch`, a possibility).
    pub branch_warnings: Vec<Value>,
    /// Notes for people (why no prior was used, parameters held fixed).
    pub notes: Vec<String>,
}

impl Modeled {
    /// The model shown first: the prior's, else the black box.
    pub fn main(&self) -> &FitResult {
        self.prior.as_ref().unwrap_or(&self.black_box)
    }
}

/// Everything the outputs need.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub experiment: Experiment,
    pub modeled: Vec<Modeled>,
    /// `--predict`: coordinates in the experiment's parameter order.
    pub predict: Option<Vec<f64>>,
}

/// Parses `n=1024,steps=60`.
pub fn parse_predict(s: &str) -> Result<Vec<(String, f64)>, String> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("--predict: `{part}` is not PARAM=VALUE"))?;
        let (k, v) = (k.trim(), v.trim());
        let x: f64 = v
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| format!("--predict: `{v}` (for {k}) is not a number"))?;
        if out.iter().any(|(n, _)| n == k) {
            return Err(format!("--predict: {k} is given twice"));
        }
        out.push((k.to_string(), x));
    }
    if out.is_empty() {
        return Err("--predict: no PARAM=VALUE given".into());
    }
    Ok(out)
}

/// The coordinates of `given` in the order of `params`: every parameter must be given,
/// and nothing else.
pub fn predict_point(given: &[(String, f64)], params: &[String]) -> Result<Vec<f64>, String> {
    if let Some((k, _)) = given.iter().find(|(k, _)| !params.contains(k)) {
        return Err(format!(
            "--predict: {k} is not a parameter of the measurements ({})",
            params.join(", ")
        ));
    }
    params
        .iter()
        .map(|p| {
            given
                .iter()
                .find(|(k, _)| k == p)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    format!(
                        "--predict: {p} is missing (give every measured parameter: {})",
                        params.join(", ")
                    )
                })
        })
        .collect()
}

/// The parameters whose values differ between the points of `m`.
pub fn varied(m: &Measurements) -> Vec<usize> {
    (0..m.params.len())
        .filter(|&d| {
            let first = m.points.first().map(|p| p.coords[d]);
            m.points.iter().any(|p| Some(p.coords[d]) != first)
        })
        .collect()
}

/// How the metric changes with parameter `q`, from its lowest to its highest value, the
/// other parameters equal: `(lowest, highest, change in %)`, the ratio of the means
/// averaged geometrically over the groups of points.
pub fn effect(m: &Measurements, q: usize) -> Option<(f64, f64, f64)> {
    use std::collections::BTreeMap;
    let mut groups: BTreeMap<Vec<u64>, Vec<(f64, f64)>> = BTreeMap::new();
    for p in &m.points {
        let key: Vec<u64> = (0..p.coords.len())
            .filter(|&d| d != q)
            .map(|d| p.coords[d].to_bits())
            .collect();
        let mean = p.reps.iter().sum::<f64>() / p.reps.len() as f64;
        groups.entry(key).or_default().push((p.coords[q], mean));
    }
    let (mut log_sum, mut n) = (0.0, 0usize);
    let (mut lo_all, mut hi_all) = (f64::INFINITY, f64::NEG_INFINITY);
    for g in groups.values() {
        let lo = g.iter().min_by(|a, b| a.0.total_cmp(&b.0))?;
        let hi = g.iter().max_by(|a, b| a.0.total_cmp(&b.0))?;
        if lo.0 == hi.0 || lo.1 <= 0.0 || hi.1 <= 0.0 {
            continue;
        }
        lo_all = lo_all.min(lo.0);
        hi_all = hi_all.max(hi.0);
        log_sum += (hi.1 / lo.1).ln();
        n += 1;
    }
    (n > 0).then(|| (lo_all, hi_all, ((log_sum / n as f64).exp() - 1.0) * 100.0))
}

fn point_text(params: &[String], coords: &[f64]) -> String {
    params
        .iter()
        .zip(coords)
        .map(|(p, c)| format!("{p}={}", fmt_number(*c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The fit's warnings rewritten for people (the statistic kept in parentheses).
fn plain_warnings(r: &mut FitResult, m: &Measurements, function: Option<&str>) {
    for w in &mut r.warnings {
        match w.kind {
            WarningKind::ContradictsPrior => {
                let q = w.parameter.clone().unwrap_or_default();
                let shape = m
                    .params
                    .iter()
                    .position(|p| *p == q)
                    .and_then(|i| effect(m, i))
                    .map(|(lo, hi, pct)| {
                        format!(
                            "{} with {q} by ~{:.0}% from {q}={} to {q}={}",
                            if pct >= 0.0 { "grows" } else { "shrinks" },
                            pct.abs(),
                            fmt_number(lo),
                            fmt_number(hi)
                        )
                    })
                    .unwrap_or_else(|| format!("varies with {q}"));
                let who = function.map_or("this code".to_string(), |f| format!("`{f}`"));
                w.detail = format!(
                    "{shape}, but the taint says {who} does not depend on {q}: contention, or a perturbed experiment? ({})",
                    w.detail
                );
            }
            WarningKind::Noisy => {
                let at = w
                    .point
                    .as_ref()
                    .map(|c| point_text(&m.params, c))
                    .unwrap_or_default();
                w.detail = format!(
                    "noisy at {at}: the repetitions vary by more than 10% ({}); repeat the runs or use a quieter machine",
                    w.detail
                );
            }
            WarningKind::NoRepetitions => {
                w.detail = "one run per point: the volume's exponents were kept without checking them against the spread between runs; repeat each run (3 to 5 times)".into();
            }
        }
    }
}

/// Models every series of `exp` (of `metric`, if given).
pub fn model_all(
    exp: &Experiment,
    report: Option<&prior::TaintReport>,
    metric: Option<&str>,
) -> Result<Vec<Modeled>, String> {
    let mut out = Vec::new();
    // Branch sides are not modeled (unless asked for by name): they are read for the
    // warnings.
    let mut series: Vec<&taintprof_fit::experiment::Series> = exp
        .series
        .iter()
        .filter(|s| metric.map_or(!branches::is_branch_metric(&s.metric), |m| s.metric == m))
        .collect();
    let changes = branches::side_changes(exp);
    // The branches measured per call path (line): their sides are known, so the
    // report's possibility is replaced by what was measured.
    let measured: std::collections::BTreeSet<(&str, u32)> = exp
        .series
        .iter()
        .filter_map(|s| {
            taintprof_model::time::BranchSide::parse_metric(&s.metric)
                .map(|(line, ..)| (s.callpath.as_str(), line))
        })
        .collect();
    if series.is_empty() {
        return Err(format!(
            "no measurements of metric `{}` (the inputs have: {})",
            metric.unwrap_or(""),
            exp.metrics().join(", ")
        ));
    }
    // Grouped by call path, first appearance order.
    let mut order: Vec<&str> = Vec::new();
    for s in &series {
        if !order.contains(&s.callpath.as_str()) {
            order.push(&s.callpath);
        }
    }
    series.sort_by_key(|s| order.iter().position(|c| *c == s.callpath));
    for s in series {
        let m = s.measurements(exp);
        let name = |e: taintprof_fit::Error| format!("{} / {}: {e}", s.callpath, s.metric);
        let mut bb = black_box(&m).map_err(name)?;
        plain_warnings(&mut bb, &m, None);
        let mut info = PriorInfo {
            matched_by: "none",
            ..PriorInfo::default()
        };
        let mut notes = Vec::new();
        let mut prior_result = None;
        let mut branch_warnings = branches::warnings(&changes, &s.callpath, &exp.params);
        if let Some(report) = report {
            match prior::find(report, &s.callpath) {
                None => notes.push(format!(
                    "no taint prior: `{}` matches no context or function of the report",
                    s.callpath
                )),
                Some(mt) => {
                    info.matched_by = mt.by;
                    info.function = Some(mt.function.name.clone());
                    if mt.by == "name" {
                        notes.push(format!(
                            "prior matched by name: `{}` (the report has no context with this call path; its contexts' volumes joined)",
                            mt.function.name
                        ));
                    }
                    let vary: Vec<&String> = varied(&m).into_iter().map(|i| &m.params[i]).collect();
                    for b in &mt.function.branches {
                        if measured.contains(&(s.callpath.as_str(), b.line as u32)) {
                            continue;
                        }
                        for p in b.params.iter().filter(|p| vary.contains(p)) {
                            branch_warnings.push(json!({
                                "kind": "tainted_branch",
                                "parameter": p,
                                "line": b.line,
                                "detail": format!(
                                    "the report says `{}` has a branch on {p} (line {}): runs may take different sides inside the measured range of {p}, and a segmented model may need more points",
                                    mt.function.name, b.line
                                ),
                            }));
                        }
                    }
                    // A measured parameter with one value was held fixed too: the prior
                    // keeps only the varied ones (a factor of a fixed parameter is a
                    // constant, collinear with the constant term).
                    let varied_names: Vec<String> = vary.iter().map(|p| p.to_string()).collect();
                    match prior::prior_for(&mt, &s.metric, &varied_names) {
                        None => notes.push(format!(
                            "no taint prior: the report has no {} volume for `{}` (a report older than call-path volumes?)",
                            if s.metric == "visits" { "calls" } else { "total" },
                            mt.function.name
                        )),
                        Some((p, held)) => {
                            if !held.is_empty() {
                                notes.push(format!(
                                    "the report depends on {} which the experiment did not vary: held fixed, dropped from the prior",
                                    held.join(", ")
                                ));
                            }
                            info.held_fixed = held;
                            info.constant = p.constant;
                            info.volume = Some(prior::volume_text(&p.volume_terms));
                            match with_prior(&m, &p) {
                                Ok(mut r) => {
                                    plain_warnings(&mut r, &m, Some(&mt.function.name));
                                    info.used = true;
                                    prior_result = Some(r);
                                }
                                Err(e) => notes.push(format!("the prior could not be used: {e}")),
                            }
                        }
                    }
                }
            }
        }
        out.push(Modeled {
            callpath: s.callpath.clone(),
            metric: s.metric.clone(),
            measurements: m,
            black_box: bb,
            prior: prior_result,
            info,
            branch_warnings,
            notes,
        });
    }
    Ok(out)
}

/// The short "how" of a model for the table.
fn how(d: &Modeled, prior_row: bool) -> String {
    if !prior_row {
        return if d.prior.is_some() {
            "black box (for comparison)".into()
        } else if d.info.matched_by == "none" {
            "black box (no taint match)".into()
        } else {
            "black box (prior not used)".into()
        };
    }
    let r = d.prior.as_ref().expect("a prior row");
    let by = if d.info.matched_by == "name" {
        "matched by name"
    } else {
        "call path"
    };
    match &r.spread {
        Some(s) => format!(
            "constant by taint: {} ± {:.1}% ({by})",
            fmt_number(s.mean),
            s.cv * 100.0
        ),
        None => format!("taint prior ({by})"),
    }
}

/// Noisy points listed one by one up to this many.
const NOISY_LISTED: usize = 3;

/// The notes and warnings of a series, for people; `with_branches`: also the branch
/// warnings (said once per call path, with its first series).
fn messages(d: &Modeled, with_branches: bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for n in &d.notes {
        lines.push(format!("note: {n}"));
    }
    // Noisy points: each one when there are few, else one line that counts them (the
    // JSON keeps every point).
    let mut noisy: Vec<&taintprof_fit::Warning> = d
        .main()
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Noisy)
        .collect();
    if d.prior.is_some() {
        // The black box's own noisy points are the same data: said once.
        for w in d.black_box.warnings.iter() {
            if w.kind == WarningKind::Noisy && !noisy.contains(&w) {
                noisy.push(w);
            }
        }
    }
    for w in d
        .main()
        .warnings
        .iter()
        .filter(|w| w.kind != WarningKind::Noisy)
    {
        lines.push(format!("warning: {}", w.detail));
    }
    if noisy.len() <= NOISY_LISTED {
        lines.extend(noisy.iter().map(|w| format!("warning: {}", w.detail)));
    } else {
        let points = d.measurements.points.len();
        let shown: Vec<String> = noisy
            .iter()
            .take(NOISY_LISTED)
            .filter_map(|w| w.point.as_ref())
            .map(|c| point_text(&d.measurements.params, c))
            .collect();
        lines.push(format!(
            "warning: noisy at {} of {points} points ({}; and {} more): the repetitions vary by more than 10%; repeat the runs or use a quieter machine",
            noisy.len(),
            shown.join("; "),
            noisy.len() - shown.len()
        ));
    }
    for w in d.branch_warnings.iter().filter(|_| with_branches) {
        lines.push(format!(
            "warning: {}",
            w["detail"].as_str().unwrap_or_default()
        ));
    }
    lines
}

/// The text: per call path a table of its metrics' models (the prior's, then the black
/// box), each series' notes and warnings below its rows.
pub fn render(o: &Outcome) -> String {
    let params = &o.experiment.params;
    let predict_head = o
        .predict
        .as_ref()
        .map(|c| format!("at {}", point_text(params, c)));
    let mut s = String::new();
    let mut i = 0;
    while i < o.modeled.len() {
        let callpath = &o.modeled[i].callpath;
        let group: Vec<&Modeled> = o.modeled[i..]
            .iter()
            .take_while(|d| &d.callpath == callpath)
            .collect();
        i += group.len();
        let mut head = vec!["  metric", "model", "params", "SMAPE", "adj R²"];
        let mut aligns = vec![
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Right,
        ];
        if let Some(h) = &predict_head {
            head.push(h);
            aligns.push(Align::Right);
        }
        head.push("how");
        aligns.push(Align::Left);
        let mut t = Table::new(&aligns).header(head);
        // After which table line each series' messages go.
        let mut after: Vec<(usize, Vec<String>)> = Vec::new();
        for (k, d) in group.iter().enumerate() {
            let mut rows: Vec<(&FitResult, bool)> = Vec::new();
            if let Some(p) = &d.prior {
                rows.push((p, true));
            }
            rows.push((&d.black_box, false));
            for (r, prior_row) in rows {
                let used: Vec<String> = r
                    .model
                    .params()
                    .iter()
                    .map(|&k| params[k].clone())
                    .collect();
                let mut cells = vec![
                    format!("  {}", d.metric),
                    r.model.display(params),
                    if used.is_empty() {
                        "-".into()
                    } else {
                        used.join(",")
                    },
                    format!("{:.2}%", r.stats.smape),
                    // No "-0.0000" for a constant model of varying data.
                    format!("{:.4}", r.stats.adj_r2).replace("-0.0000", "0.0000"),
                ];
                if let Some(c) = &o.predict {
                    cells.push(fmt_number(r.model.eval(c)));
                }
                cells.push(how(d, prior_row));
                t.row(cells);
            }
            after.push((t.len(), messages(d, k == 0)));
        }
        if !s.is_empty() {
            s.push('\n');
        }
        let _ = writeln!(s, "{}", crate::table::shown_callpath(callpath));
        let lines = t.lines("");
        let _ = writeln!(s, "{}", lines[0]);
        let mut next = 1;
        for (upto, msgs) in after {
            while next <= upto {
                let _ = writeln!(s, "{}", lines[next]);
                next += 1;
            }
            for m in msgs {
                let _ = writeln!(s, "    {m}");
            }
        }
    }
    s
}

/// The `--json` document.
pub fn json_document(o: &Outcome) -> Value {
    let params = &o.experiment.params;
    let models = o
        .modeled
        .iter()
        .map(|d| {
            let prediction = o.predict.as_ref().map(|c| Prediction {
                point: params.iter().cloned().zip(c.iter().copied()).collect(),
                value: d.main().model.eval(c),
                black_box: d.prior.as_ref().map(|_| d.black_box.model.eval(c)),
            });
            model_entry(&Entry {
                callpath: &d.callpath,
                metric: &d.metric,
                params,
                model: d.main(),
                black_box: d.prior.as_ref().map(|_| &d.black_box),
                prior: &d.info,
                extra_warnings: &d.branch_warnings,
                prediction: prediction.as_ref(),
            })
        })
        .collect();
    models_document(models)
}

/// The `--extrap` file: the measurements (but branch sides), and the model sets "taint prior" (only when a
/// report was given; series without a prior carry their black-box model there too) and
/// "black box".
pub fn extrap_bytes(o: &Outcome, with_prior_set: bool) -> Vec<u8> {
    let set = |prior: bool| extrap_file::ModelSet {
        name: if prior { "taint prior" } else { "black box" },
        models: o
            .modeled
            .iter()
            .map(|d| {
                let r = if prior { d.main() } else { &d.black_box };
                extrap_file::SetModel {
                    callpath: &d.callpath,
                    metric: &d.metric,
                    model: &r.model,
                    stats: &r.stats,
                }
            })
            .collect(),
    };
    let mut sets = Vec::new();
    if with_prior_set {
        sets.push(set(true));
    }
    sets.push(set(false));
    // Without the branch sides (not modeled; their zeros make Extra-P's modeler divide
    // by zero when it re-models a file).
    let (_, measured) = crate::experiment::output::split_branch_sides(&o.experiment);
    extrap_file::write_experiment(&measured, &sets)
}

fn write(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Runs `taintprof model`: returns the text for standard output and the messages for
/// standard error.
pub fn model_command(a: &ModelArgs) -> Result<(String, Vec<String>), String> {
    let given = a.predict.as_deref().map(parse_predict).transpose()?;
    let report = a
        .prior
        .as_deref()
        .map(prior::TaintReport::load)
        .transpose()?;
    let mut exp = input::read_inputs(&a.inputs)?;
    exp.sort_data();
    let predict = given
        .as_ref()
        .map(|g| predict_point(g, &exp.params))
        .transpose()?;
    let modeled = model_all(&exp, report.as_ref(), a.metric.as_deref())?;
    let o = Outcome {
        experiment: exp,
        modeled,
        predict,
    };
    let mut messages = Vec::new();
    if let Some(p) = &a.json {
        let text = serde_json::to_string_pretty(&json_document(&o)).expect("JSON") + "\n";
        write(p, text.as_bytes())?;
        messages.push(format!("taintprof: wrote {}", p.display()));
    }
    if let Some(p) = &a.extrap {
        write(p, &extrap_bytes(&o, report.is_some()))?;
        messages.push(format!(
            "taintprof: wrote {} (open it with `extrap --experiment {}` or Extra-P's GUI)",
            p.display(),
            p.display()
        ));
    }
    if let Some(dir) = &a.html {
        let index = html::write(&o, dir)?;
        messages.push(format!("taintprof: wrote {}", index.display()));
    }
    Ok((render(&o), messages))
}

#[cfg(test)]
mod tests {
    use super::*;
    use taintprof_fit::Point;

    #[test]
    fn predict_parsing_and_checks() {
        let g = parse_predict("n=1024, steps=60").unwrap();
        assert_eq!(g, vec![("n".into(), 1024.0), ("steps".into(), 60.0)]);
        assert!(parse_predict("n").unwrap_err().contains("PARAM=VALUE"));
        assert!(parse_predict("n=x").unwrap_err().contains("not a number"));
        let params = vec!["steps".to_string(), "n".to_string()];
        assert_eq!(predict_point(&g, &params).unwrap(), vec![60.0, 1024.0]);
        let err = predict_point(&g[..1], &params).unwrap_err();
        assert!(err.contains("steps is missing"), "{err}");
        let err = predict_point(&parse_predict("n=1,steps=2,p=3").unwrap(), &params).unwrap_err();
        assert!(err.contains("p is not a parameter"), "{err}");
    }

    #[test]
    fn effect_of_a_parameter() {
        let m = Measurements {
            params: vec!["n".into(), "p".into()],
            points: [
                (1.0, 1.0, 10.0),
                (1.0, 4.0, 15.0),
                (2.0, 1.0, 20.0),
                (2.0, 4.0, 30.0),
            ]
            .iter()
            .map(|&(n, p, v)| Point {
                coords: vec![n, p],
                reps: vec![v],
            })
            .collect(),
        };
        let (lo, hi, pct) = effect(&m, 1).unwrap();
        assert_eq!((lo, hi), (1.0, 4.0));
        assert!((pct - 50.0).abs() < 1e-9);
        assert_eq!(varied(&m), vec![0, 1]);
    }
}
