//! Extra-P's text input format: reading measurements from it and writing them to it, so
//! that the same files feed this crate and Extra-P (issue 25, "Input").
//!
//! The format, as Extra-P 4.2.5 reads it (`extrap/fileio/file_reader/text_file_reader.py`):
//!
//! ```text
//! # a comment
//! PARAMETER n
//! PARAMETER m                  (or both on one line: PARAMETER n m)
//! POINTS ( 10 1 ) ( 20 1 ) ( 10 2 ) ( 20 2 )     (one parameter: POINTS 10 20 40)
//! REGION main->solve           (the call path; resets the point counter)
//! METRIC time                  (resets the point counter too)
//! DATA 1.02 0.98 1.01          (the repetitions at the next point, in POINTS order)
//! DATA 2.10 2.05 2.02
//! ```
//!
//! Fields are separated by any whitespace; blank lines and lines starting with `#` are
//! skipped; `POINTS` lines add to the points; a `DATA` line beyond the last point, a
//! `DATA` line before any parameter, a coordinate with the wrong number of values and an
//! unknown field are errors that name the line. Extra-P accepts at most four parameters;
//! so does this reader, so that every file it accepts Extra-P accepts too.

use std::fmt::Write as _;

pub use crate::experiment::{Experiment, Series};

/// The most parameters the format holds (Extra-P's limit).
pub const MAX_PARAMETERS: usize = 4;

/// The experiment type this format reads and writes (named for the format before the
/// JSON readers shared it).
pub type TextExperiment = Experiment;

/// Why a text file cannot be read, with its 1-based line.
#[derive(Clone, Debug, PartialEq)]
pub struct TextError {
    pub line: usize,
    pub what: String,
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

fn number(s: &str, line: usize) -> Result<f64, TextError> {
    s.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| TextError {
            line,
            what: format!("`{s}` is not a finite number"),
        })
}

/// Reads an experiment in Extra-P's text format.
pub fn read_text(text: &str) -> Result<TextExperiment, TextError> {
    let mut exp = TextExperiment::default();
    let (mut callpath, mut metric) = (String::new(), String::new());
    let mut next_point = 0usize;
    let mut current: Option<usize> = None;
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (field, value) = trimmed
            .split_once(char::is_whitespace)
            .map(|(f, v)| (f, v.trim()))
            .unwrap_or((trimmed, ""));
        let err = |what: String| TextError { line, what };
        match field {
            "PARAMETER" => {
                exp.params
                    .extend(value.split_whitespace().map(String::from));
                if exp.params.len() > MAX_PARAMETERS {
                    return Err(err(format!(
                        "{} parameters: the format holds at most {MAX_PARAMETERS}",
                        exp.params.len()
                    )));
                }
            }
            "POINTS" => {
                let n = exp.params.len();
                if n == 0 {
                    return Err(err("POINTS before any PARAMETER".into()));
                }
                if value.contains('(') {
                    for tuple in value.split(')') {
                        let tuple = tuple.trim().trim_start_matches('(').trim();
                        if tuple.is_empty() {
                            continue;
                        }
                        let coords = tuple
                            .split_whitespace()
                            .map(|v| number(v, line))
                            .collect::<Result<Vec<f64>, _>>()?;
                        if coords.len() != n {
                            return Err(err(format!(
                                "the point ({tuple}) has {} values for {n} parameters",
                                coords.len()
                            )));
                        }
                        exp.points.push(coords);
                    }
                } else if n == 1 {
                    for v in value.split_whitespace() {
                        exp.points.push(vec![number(v, line)?]);
                    }
                } else {
                    return Err(err(format!(
                        "with {n} parameters, points are tuples: POINTS ( 1 2 ) ( 3 4 )"
                    )));
                }
            }
            "REGION" | "METRIC" => {
                if field == "REGION" {
                    callpath = value.to_string();
                } else {
                    metric = value.to_string();
                }
                next_point = 0;
                current = None;
            }
            "DATA" => {
                if exp.params.is_empty() {
                    return Err(err("DATA before any PARAMETER".into()));
                }
                if next_point >= exp.points.len() {
                    return Err(err(format!(
                        "more DATA lines than the {} POINTS for {callpath} / {metric}",
                        exp.points.len()
                    )));
                }
                let reps = value
                    .split_whitespace()
                    .map(|v| number(v, line))
                    .collect::<Result<Vec<f64>, _>>()?;
                if reps.is_empty() {
                    return Err(err("DATA without values".into()));
                }
                let s = match current {
                    Some(s) => s,
                    None => {
                        let found = exp
                            .series
                            .iter()
                            .position(|s| s.callpath == callpath && s.metric == metric);
                        let s = found.unwrap_or_else(|| {
                            exp.series.push(Series {
                                callpath: callpath.clone(),
                                metric: metric.clone(),
                                data: Vec::new(),
                            });
                            exp.series.len() - 1
                        });
                        current = Some(s);
                        s
                    }
                };
                exp.series[s].data.push((next_point, reps));
                next_point += 1;
            }
            other => return Err(err(format!("unknown field `{other}`"))),
        }
    }
    if exp.params.is_empty() {
        return Err(TextError {
            line: 0,
            what: "no PARAMETER".into(),
        });
    }
    Ok(exp)
}

/// Writes `exp` in Extra-P's text format. Every series must have data at every point,
/// in point order (the format pairs DATA lines with points by position); a series
/// that does not is an error naming it.
pub fn write_text(exp: &TextExperiment) -> Result<String, String> {
    if exp.params.is_empty() || exp.params.len() > MAX_PARAMETERS {
        return Err(format!(
            "{} parameters: the format holds 1 to {MAX_PARAMETERS}",
            exp.params.len()
        ));
    }
    let mut out = String::new();
    for p in &exp.params {
        let _ = writeln!(out, "PARAMETER {p}");
    }
    out.push_str("POINTS");
    for c in &exp.points {
        if exp.params.len() == 1 {
            let _ = write!(out, " {}", c[0]);
        } else {
            out.push_str(" (");
            for v in c {
                let _ = write!(out, " {v}");
            }
            out.push_str(" )");
        }
    }
    out.push('\n');
    for s in &exp.series {
        let in_order = s.data.len() == exp.points.len()
            && s.data.iter().enumerate().all(|(k, (i, _))| k == *i);
        if !in_order {
            return Err(format!(
                "{} / {}: the text format needs data at every point, in order",
                s.callpath, s.metric
            ));
        }
        let _ = writeln!(out, "REGION {}", s.callpath);
        let _ = writeln!(out, "METRIC {}", s.metric);
        for (_, reps) in &s.data {
            out.push_str("DATA");
            for r in reps {
                // Rust's shortest round-trip representation: reads back bit for bit.
                let _ = write!(out, " {r:?}");
            }
            out.push('\n');
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "\
# two parameters
PARAMETER n
PARAMETER m

POINTS ( 10 1 ) ( 20 1 )
POINTS ( 10 2 ) ( 20 2 )
REGION main->solve
METRIC time
DATA 1.0 1.1
DATA 2.0  2.1
DATA 3 3.5
DATA 4e0 4.5
METRIC visits
DATA 1
DATA 1
DATA 2
DATA 2
REGION main
METRIC time
DATA 9 9 9
";

    #[test]
    fn reads_parameters_points_regions_metrics_and_repetitions() {
        let e = read_text(TWO).unwrap();
        assert_eq!(e.params, ["n", "m"]);
        assert_eq!(
            e.points,
            [
                vec![10.0, 1.0],
                vec![20.0, 1.0],
                vec![10.0, 2.0],
                vec![20.0, 2.0]
            ]
        );
        assert_eq!(e.series.len(), 3);
        let s = &e.series[0];
        assert_eq!(
            (s.callpath.as_str(), s.metric.as_str()),
            ("main->solve", "time")
        );
        assert_eq!(s.data[1], (1, vec![2.0, 2.1]));
        assert_eq!(s.data[3], (3, vec![4.0, 4.5]));
        assert_eq!(e.series[1].metric, "visits");
        // A series with fewer DATA lines than points covers the first points.
        assert_eq!(e.series[2].data, [(0, vec![9.0, 9.0, 9.0])]);
        let m = e.series[0].measurements(&e);
        assert_eq!(m.params, ["n", "m"]);
        assert_eq!(m.points[2].coords, [10.0, 2.0]);
        assert_eq!(m.points[2].reps, [3.0, 3.5]);
    }

    #[test]
    fn one_parameter_points_are_plain_numbers() {
        let e =
            read_text("PARAMETER p\nPOINTS 4 8 16\nREGION r\nMETRIC t\nDATA 1\nDATA 2\nDATA 4\n")
                .unwrap();
        assert_eq!(e.points, [vec![4.0], vec![8.0], vec![16.0]]);
        assert_eq!(e.series[0].data.len(), 3);
        let e = read_text("PARAMETER n m\nPOINTS (1 2)(3 4)\nDATA 5\n").unwrap();
        assert_eq!(e.params, ["n", "m"]);
        assert_eq!(e.points, [vec![1.0, 2.0], vec![3.0, 4.0]]);
        assert_eq!(e.series[0].callpath, "");
    }

    #[test]
    fn malformed_files_are_errors_with_their_line() {
        let cases = [
            (
                "PARAMETER n\nPOINTS 1 2\nDATA 1\nDATA 2\nDATA 3\n",
                5,
                "more DATA lines",
            ),
            ("DATA 1\n", 1, "before any PARAMETER"),
            ("PARAMETER n\nPOINTS 1 x\n", 2, "`x` is not a finite number"),
            (
                "PARAMETER n m\nPOINTS ( 1 ) ( 2 3 )\n",
                2,
                "has 1 values for 2 parameters",
            ),
            ("PARAMETER n m\nPOINTS 1 2\n", 2, "points are tuples"),
            (
                "PARAMETER n\nPOINTS 1\nDATA inf\n",
                3,
                "not a finite number",
            ),
            ("PARAMETER n\nPOINTS 1\nDATA\n", 3, "DATA without values"),
            (
                "PARAMETER n\nEXPERIMENT x\n",
                2,
                "unknown field `EXPERIMENT`",
            ),
            ("PARAMETER a b c d e\n", 1, "at most 4"),
            ("# nothing\n", 0, "no PARAMETER"),
        ];
        for (text, line, what) in cases {
            let e = read_text(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.what.contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn written_files_read_back_the_same() {
        let e = read_text(TWO).unwrap();
        // The last series covers one point only: the format cannot say which.
        assert!(write_text(&e).unwrap_err().contains("main / time"));
        let mut complete = e.clone();
        complete.series.pop();
        complete.series[0].data[0].1 = vec![0.1 + 0.2, 1e-300, 12345.678901234567];
        let text = write_text(&complete).unwrap();
        assert_eq!(read_text(&text).unwrap(), complete);
        let one =
            read_text("PARAMETER p\nPOINTS 4 8\nREGION r\nMETRIC t\nDATA 1 2\nDATA 3\n").unwrap();
        let text = write_text(&one).unwrap();
        assert!(text.contains("POINTS 4 8\n"), "{text}");
        assert_eq!(read_text(&text).unwrap(), one);
    }
}
