//! The measurements `taintprof model` reads: Extra-P's text format, its JSON and JSON
//! Lines formats, a directory written by `taintprof experiment` (its
//! `measurements.json`), and time records (`*.taintprof-time.rec`, one run each, or the
//! ranks of one MPI run). Several inputs are merged into one experiment; they must have
//! the same parameters.
//!
//! The format is told by the extension (`.txt`, `.json`, `.jsonl`, `.taintprof-time.rec`)
//! and, for any other name, by the content: a text whose first non-blank, non-comment
//! line starts with `{` is JSON or JSON Lines, otherwise Extra-P's text format. Errors
//! name the file and, where the reader knows it, the line.

use std::path::{Path, PathBuf};

use taintprof_fit::experiment::Experiment;
use taintprof_fit::{extrap_json, extrap_text};
use taintprof_model::time;

/// The measurements file of a `taintprof experiment` directory.
pub const EXPERIMENT_FILE: &str = "measurements.json";

/// The branch sides of a `taintprof experiment` directory (time records of a build with
/// a prior; `modeling::branches`), in the same format but apart: their zeros (a side
/// not taken) make Extra-P's modeler divide by zero. Read with [`EXPERIMENT_FILE`],
/// whether the directory or that file is given.
pub const BRANCH_SIDES_FILE: &str = "branch-sides.json";

/// `file` and, when it is an experiment's [`EXPERIMENT_FILE`], its sibling
/// [`BRANCH_SIDES_FILE`] if there is one.
fn with_branch_sides(file: &Path, parts: &mut Vec<(String, Experiment)>) -> Result<(), String> {
    parts.push((file.display().to_string(), read_file(file)?));
    if file.file_name().is_some_and(|n| n == EXPERIMENT_FILE) {
        let sides = file.with_file_name(BRANCH_SIDES_FILE);
        if sides.is_file() {
            parts.push((sides.display().to_string(), read_file(&sides)?));
        }
    }
    Ok(())
}

/// An input's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    TimeRecords,
}

/// The format of `path` with content `text` (see the module comment).
pub fn detect(path: &Path, text: &str) -> Format {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    if time::is_time_record(path) {
        return Format::TimeRecords;
    }
    if name.ends_with(".json") || name.ends_with(".jsonl") {
        return Format::Json;
    }
    if name.ends_with(".txt") {
        return Format::Text;
    }
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    if first.is_some_and(|l| l.starts_with('{')) {
        Format::Json
    } else {
        Format::Text
    }
}

/// Reads one measurements file (not a time record).
pub fn read_file(path: &Path) -> Result<Experiment, String> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown}: not UTF-8 text"))?;
    match detect(path, &text) {
        Format::Text => extrap_text::read_text(&text).map_err(|e| format!("{shown}: {e}")),
        Format::Json => extrap_json::read_json(&text).map_err(|e| format!("{shown}: {e}")),
        Format::TimeRecords => unreachable!("time records are read by read_time_records"),
    }
}

/// The experiment of time profiles: one point per run (its parameters' values), the
/// runs at one point its repetitions; per region its metrics
/// (`taintprof_model::time::Region::metrics`).
pub fn experiment_of_profiles(
    profiles: &[(String, time::TimeProfile)],
) -> Result<Experiment, String> {
    let Some((_, first)) = profiles.first() else {
        return Err("no time profiles".into());
    };
    let params: Vec<String> = first.params.iter().map(|(n, _)| n.clone()).collect();
    let mut exp = Experiment::new(params.clone());
    for (name, p) in profiles {
        let names: Vec<&String> = p.params.iter().map(|(n, _)| n).collect();
        if names.len() != params.len() || names.iter().zip(&params).any(|(a, b)| *a != b) {
            return Err(format!(
                "{name}: parameters {} differ from {} of {}",
                list(names.iter().map(|s| s.as_str())),
                list(params.iter().map(String::as_str)),
                profiles[0].0
            ));
        }
        let coords: Vec<f64> = p.params.iter().map(|(_, v)| *v).collect();
        for r in &p.regions {
            for (metric, value) in r.metrics() {
                exp.add(&r.callpath, &metric, &coords, &[value]);
            }
        }
    }
    Ok(exp)
}

fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "(none)".into()
    } else {
        v.join(", ")
    }
}

/// Groups time records into runs: the ranks of one MPI run
/// (`<prog>.rank<R>.<pid>.taintprof-time.rec`) by program, every other record alone.
fn group_time_records(paths: &[PathBuf]) -> Vec<Vec<PathBuf>> {
    let mut groups: Vec<(Option<String>, Vec<PathBuf>)> = Vec::new();
    for p in paths {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let key = name.find(".rank").map(|i| {
            format!(
                "{}/{}",
                p.parent().unwrap_or(Path::new("")).display(),
                &name[..i]
            )
        });
        match groups.iter_mut().find(|(k, _)| key.is_some() && *k == key) {
            Some((_, g)) => g.push(p.clone()),
            None => groups.push((key, vec![p.clone()])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// Merges `b` (read from `name`) into `a` (read from `a_name`): same parameters, in the
/// same order.
pub fn merge(a: &mut Experiment, a_name: &str, b: Experiment, name: &str) -> Result<(), String> {
    if a.params != b.params {
        return Err(format!(
            "parameter mismatch: {name} has {}, but {a_name} has {}",
            list(b.params.iter().map(String::as_str)),
            list(a.params.iter().map(String::as_str))
        ));
    }
    for s in &b.series {
        for (i, reps) in &s.data {
            a.add(&s.callpath, &s.metric, &b.points[*i], reps);
        }
    }
    Ok(())
}

/// Reads every input and merges them into one experiment.
pub fn read_inputs(paths: &[PathBuf]) -> Result<Experiment, String> {
    let mut parts: Vec<(String, Experiment)> = Vec::new();
    let mut records: Vec<PathBuf> = Vec::new();
    for p in paths {
        let shown = p.display().to_string();
        if p.is_dir() {
            let f = p.join(EXPERIMENT_FILE);
            if f.is_file() {
                with_branch_sides(&f, &mut parts)?;
                continue;
            }
            let mut recs: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("cannot read {shown}: {e}"))?
                .flatten()
                .map(|e| e.path())
                .filter(|q| q.is_file() && time::is_time_record(q))
                .collect();
            if recs.is_empty() {
                return Err(format!(
                    "{shown}: no {EXPERIMENT_FILE} (what `taintprof experiment` writes) and no time records (*.taintprof-time.rec) in this directory"
                ));
            }
            recs.sort();
            records.extend(recs);
        } else if !p.exists() {
            return Err(format!("{shown}: no such file or directory"));
        } else if time::is_time_record(p) {
            records.push(p.clone());
        } else {
            with_branch_sides(p, &mut parts)?;
        }
    }
    if !records.is_empty() {
        let mut profiles = Vec::new();
        for g in group_time_records(&records) {
            let name = g[0].display().to_string();
            let prof = time::profile_of_files(&g).map_err(|e| e.to_string())?;
            profiles.push((name, prof));
        }
        let name = if records.len() == 1 {
            records[0].display().to_string()
        } else {
            format!("{} time records", records.len())
        };
        parts.push((name, experiment_of_profiles(&profiles)?));
    }
    let mut it = parts.into_iter();
    let Some((first_name, mut exp)) = it.next() else {
        return Err("no measurements given".into());
    };
    for (name, e) in it {
        merge(&mut exp, &first_name, e, &name)?;
    }
    if exp.series.is_empty() {
        return Err(format!("{first_name}: no measurements"));
    }
    Ok(exp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use taintprof_model::time::{LoopCount, Region, TimeProfile};

    #[test]
    fn formats_by_name_and_content() {
        assert_eq!(detect(Path::new("a.jsonl"), ""), Format::Json);
        assert_eq!(detect(Path::new("a.txt"), "{"), Format::Text);
        assert_eq!(
            detect(Path::new("a.data"), "# c\n\n {\"x\": 1}"),
            Format::Json
        );
        assert_eq!(detect(Path::new("a.data"), "PARAMETER n"), Format::Text);
        assert_eq!(
            detect(Path::new("x.rank0.12.taintprof-time.rec"), ""),
            Format::TimeRecords
        );
    }

    #[test]
    fn rank_records_are_one_run() {
        let g = group_time_records(&[
            PathBuf::from("d/a.rank0.1.taintprof-time.rec"),
            PathBuf::from("d/a.rank1.2.taintprof-time.rec"),
            PathBuf::from("d/a.3.taintprof-time.rec"),
            PathBuf::from("d/a.4.taintprof-time.rec"),
        ]);
        assert_eq!(g.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 1, 1]);
    }

    fn profile(n: f64, t: f64) -> (String, TimeProfile) {
        (
            format!("run{n}"),
            TimeProfile {
                program: "p".into(),
                argv: vec![],
                params: vec![("n".into(), n)],
                ranks: 1,
                wall_seconds: t,
                regions: vec![Region {
                    callpath: "main->f".into(),
                    visits: 2.0,
                    inclusive_seconds: t,
                    exclusive_seconds: t,
                    loops: vec![
                        LoopCount {
                            file: "a.c".into(),
                            line: 3,
                            iterations: 10,
                        },
                        LoopCount {
                            file: "a.c".into(),
                            line: 4,
                            iterations: 5,
                        },
                    ],
                    branches: vec![],
                }],
            },
        )
    }

    #[test]
    fn profiles_become_three_metrics() {
        let e = experiment_of_profiles(&[profile(2.0, 1.0), profile(2.0, 1.5), profile(4.0, 3.0)])
            .unwrap();
        assert_eq!(e.points, vec![vec![2.0], vec![4.0]]);
        assert_eq!(
            e.series("main->f", "time").unwrap().data,
            vec![(0, vec![1.0, 1.5]), (1, vec![3.0])]
        );
        assert_eq!(
            e.series("main->f", "iterations").unwrap().data[0].1,
            vec![15.0, 15.0]
        );
        let mut other = profile(2.0, 1.0);
        other.1.params[0].0 = "m".into();
        let err = experiment_of_profiles(&[profile(2.0, 1.0), other]).unwrap_err();
        assert!(err.contains("differ"), "{err}");
    }

    #[test]
    fn merge_needs_the_same_parameters() {
        let mut a = Experiment::new(vec!["n".into()]);
        a.add("main", "time", &[1.0], &[1.0]);
        let mut b = Experiment::new(vec!["n".into()]);
        b.add("main", "time", &[1.0], &[2.0]);
        merge(&mut a, "a", b, "b").unwrap();
        assert_eq!(a.series[0].data, vec![(0, vec![1.0, 2.0])]);
        let c = Experiment::new(vec!["m".into()]);
        let err = merge(&mut a, "a.txt", c, "c.txt").unwrap_err();
        assert_eq!(err, "parameter mismatch: c.txt has m, but a.txt has n");
    }
}
