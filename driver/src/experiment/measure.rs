//! The measurements of one finished run.
//!
//! * A program built with `--tp-mode=time` writes time records into the run's
//!   directory (`taintprof_model::time::is_time_record`); they are read and merged
//!   (`taintprof_model::time::profile_of_files`) into per-call-path metrics: `time`
//!   (inclusive seconds), `visits`, `iterations` (the loop counts of the call path
//!   summed) when the call path has loops, and the calls that took each side of a
//!   recorded branch (`branch:LINE:COLUMN:SIDE->TARGET`). The parameter values the program
//!   registered are returned for the check against the point's.
//! * Without time records (an uninstrumented program, or one built for the taint
//!   analysis), the command's wall time as taintprof measured it is the metric `time`
//!   of one call path: the program's name (`Template::program_name`), or `--callpath`.

use super::journal::Metric;
use std::path::{Path, PathBuf};

/// Where a run's measurements came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// These time records.
    TimeRecords(usize),
    /// The wall time of the command.
    WallTime,
}

/// A run's measurements.
#[derive(Debug, Clone)]
pub struct Measured {
    pub metrics: Vec<Metric>,
    /// The parameters the program registered (time records only).
    pub registered: Vec<(String, f64)>,
    pub source: Source,
}

/// The time records in `dir`, in name order.
pub fn time_records(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| taintprof_model::time::is_time_record(p))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The measurements of the run whose records are in `dir` and whose command took
/// `wall_seconds`; `callpath`: the call path of the wall time.
pub fn measure(dir: &Path, wall_seconds: f64, callpath: &str) -> Result<Measured, String> {
    let records = time_records(dir);
    if records.is_empty() {
        return Ok(Measured {
            metrics: vec![Metric {
                callpath: callpath.to_string(),
                metric: "time".to_string(),
                value: wall_seconds,
            }],
            registered: Vec::new(),
            source: Source::WallTime,
        });
    }
    let profile = taintprof_model::time::profile_of_files(&records)
        .map_err(|e| format!("cannot read the run's time records: {e}"))?;
    Ok(Measured {
        metrics: metrics_of(&profile),
        registered: profile.params.clone(),
        source: Source::TimeRecords(records.len()),
    })
}

/// The metrics of a time profile, call path by call path ([`Region::metrics`]).
///
/// [`Region::metrics`]: taintprof_model::time::Region::metrics
pub fn metrics_of(profile: &taintprof_model::time::TimeProfile) -> Vec<Metric> {
    let mut out = Vec::new();
    for r in &profile.regions {
        for (metric, value) in r.metrics() {
            out.push(Metric {
                callpath: r.callpath.clone(),
                metric,
                value,
            });
        }
    }
    out
}

/// The parameters whose registered value differs from the point's: `(param, point's
/// value, registered value)`.
pub fn mismatches(
    point: &[(String, String)],
    registered: &[(String, f64)],
) -> Vec<(String, String, f64)> {
    let mut out = Vec::new();
    for (name, value) in point {
        let Some((_, got)) = registered.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let want = value.parse::<f64>().unwrap_or(f64::NAN);
        let tolerance = 1e-9 * want.abs().max(1.0);
        if (want - got).abs() > tolerance {
            out.push((name.clone(), value.clone(), *got));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use taintprof_model::time::{LoopCount, Region, TimeProfile};

    #[test]
    fn regions_become_metrics() {
        let region = |callpath: &str, loops: Vec<LoopCount>| Region {
            callpath: callpath.into(),
            visits: 2.0,
            inclusive_seconds: 1.5,
            exclusive_seconds: 0.5,
            loops,
            branches: vec![],
        };
        let lc = |line, iterations| LoopCount {
            file: "a.c".into(),
            line,
            iterations,
        };
        let p = TimeProfile {
            program: "app".into(),
            argv: vec![],
            params: vec![("n".into(), 64.0)],
            ranks: 1,
            wall_seconds: 2.0,
            regions: vec![
                region("main", vec![]),
                region("main->step", vec![lc(3, 10), lc(4, 100)]),
            ],
        };
        let m: Vec<(String, String, f64)> = metrics_of(&p)
            .into_iter()
            .map(|m| (m.callpath, m.metric, m.value))
            .collect();
        assert_eq!(
            m,
            vec![
                ("main".into(), "time".into(), 1.5),
                ("main".into(), "visits".into(), 2.0),
                ("main->step".into(), "time".into(), 1.5),
                ("main->step".into(), "visits".into(), 2.0),
                ("main->step".into(), "iterations".into(), 110.0),
            ]
        );
        let point = vec![
            ("n".to_string(), "64".to_string()),
            ("m".into(), "3".into()),
        ];
        assert!(mismatches(&point, &p.params).is_empty());
        let point = vec![("n".to_string(), "65".to_string())];
        assert_eq!(
            mismatches(&point, &p.params),
            vec![("n".into(), "65".into(), 64.0)]
        );
    }
}
