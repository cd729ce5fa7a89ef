//! Time profiles: what a `--tp-mode=time` program records, read back per call path
//! (issue 25, item 1). The records are read and merged here (threads summed, the ranks
//! of one MPI run averaged) into one [`TimeProfile`] per run, which `taintprof
//! experiment` and `taintprof model` turn into measurements.
//!
//! The record is `taintprof_record::time` (`rt/src/time/`, `docs/time-mode.md`).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The iterations of one tainted loop in one call path (exact: no noise).
#[derive(Clone, Debug, PartialEq)]
pub struct LoopCount {
    /// Source file of the loop header.
    pub file: String,
    /// Line of the loop header.
    pub line: u32,
    /// Iterations summed over every visit of the call path.
    pub iterations: u64,
}

/// One call path of the run: the instrumented functions from `main` down, by the names
/// the taint report uses (`main->solve->sweep`).
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    pub callpath: String,
    /// Calls of the path's last function in this context (summed over threads; the mean
    /// over ranks).
    pub visits: f64,
    /// Inclusive time in seconds (the same sums).
    pub inclusive_seconds: f64,
    /// Inclusive minus the instrumented callees' inclusive time.
    pub exclusive_seconds: f64,
    pub loops: Vec<LoopCount>,
}

/// One run of a time-mode program.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeProfile {
    pub program: String,
    pub argv: Vec<String>,
    /// The registered parameters and their values (the first registration's value),
    /// registration order; MPI's implicit `p` included.
    pub params: Vec<(String, f64)>,
    /// MPI ranks merged (1 without MPI).
    pub ranks: u32,
    /// Wall time of the process from the runtime's start to its record (the mean over
    /// ranks).
    pub wall_seconds: f64,
    /// Regions in call-path order (a parent before its children).
    pub regions: Vec<Region>,
}

/// Why a time profile could not be read.
#[derive(Debug)]
pub enum Error {
    Read(PathBuf, String),
    /// The records are not of one run (different programs or ranks missing).
    Mismatch(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(p, e) => write!(f, "{}: {e}", p.display()),
            Error::Mismatch(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

/// Whether `path` is named like a time record (`<prog>[.rank<R>].<pid>.taintprof-time.rec`).
pub fn is_time_record(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".taintprof-time.rec"))
}

/// Reads the time records of one run (one per process; the ranks of an MPI run) and
/// merges them: each record's threads summed by call path, then the records averaged
/// (`ranks` = the number of records).
pub fn profile_of_files<P: AsRef<Path>>(paths: &[P]) -> Result<TimeProfile, Error> {
    let mut records = Vec::new();
    for p in paths {
        let p = p.as_ref();
        let r = taintprof_record::time::read_file(p).map_err(|e| Error::Read(p.into(), e))?;
        records.push(r);
    }
    profile_of_records(&records)
}

/// Sums per call path: visits, inclusive ns, loop counts by (file, line).
#[derive(Default)]
struct Acc {
    visits: f64,
    inclusive_ns: f64,
    loops: BTreeMap<(String, u32), f64>,
}

/// [`profile_of_files`] of records already read.
pub fn profile_of_records(
    records: &[taintprof_record::time::TmRecord],
) -> Result<TimeProfile, Error> {
    let Some(first) = records.first() else {
        return Err(Error::Mismatch("no time record".into()));
    };
    if let Some(other) = records.iter().find(|r| r.path != first.path) {
        return Err(Error::Mismatch(format!(
            "the time records are of different programs ({} and {})",
            first.path, other.path
        )));
    }
    let ranks = records.len();
    // Keyed by the path's names: a parent sorts before its children.
    let mut acc: BTreeMap<Vec<String>, Acc> = BTreeMap::new();
    let mut wall = 0.0;
    for r in records {
        wall += r.run.wall_ns as f64 * 1e-9;
        for t in &r.threads {
            let mut paths: Vec<Vec<String>> = Vec::with_capacity(t.nodes.len());
            for n in &t.nodes {
                let name = r
                    .funcs
                    .get(n.func as usize)
                    .map(|f| f.name.clone())
                    .unwrap_or_default();
                let mut path = if n.parent == taintprof_record::time::TM_ROOT {
                    Vec::new()
                } else {
                    paths.get(n.parent as usize).cloned().unwrap_or_default()
                };
                path.push(name);
                let a = acc.entry(path.clone()).or_default();
                a.visits += n.visits as f64;
                a.inclusive_ns += n.inclusive_ns as f64;
                for &(l, it) in &n.counts {
                    if let Some(lp) = r.loops.get(l as usize) {
                        *a.loops.entry((lp.file.clone(), lp.line)).or_default() += it as f64;
                    }
                }
                paths.push(path);
            }
        }
    }
    let k = ranks as f64;
    let mut regions = Vec::with_capacity(acc.len());
    for (path, a) in &acc {
        let children: f64 = acc
            .range(path.clone()..)
            .skip(1)
            .take_while(|(p, _)| p.starts_with(path))
            .filter(|(p, _)| p.len() == path.len() + 1)
            .map(|(_, c)| c.inclusive_ns)
            .sum();
        let inclusive = a.inclusive_ns / k * 1e-9;
        regions.push(Region {
            callpath: path.join("->"),
            visits: a.visits / k,
            inclusive_seconds: inclusive,
            exclusive_seconds: ((a.inclusive_ns - children) / k * 1e-9).max(0.0),
            loops: a
                .loops
                .iter()
                .map(|((file, line), &n)| LoopCount {
                    file: file.clone(),
                    line: *line,
                    iterations: (n / k).round() as u64,
                })
                .collect(),
        });
    }
    let params = first
        .params
        .iter()
        .map(|p| {
            let v = match p.value {
                taintprof_record::Value::None => f64::NAN,
                taintprof_record::Value::Int(i) => i as f64,
                taintprof_record::Value::Uint(u) => u as f64,
                taintprof_record::Value::Float(f) => f,
            };
            (p.name.clone(), v)
        })
        .collect();
    Ok(TimeProfile {
        program: first.path.clone(),
        argv: first.argv.clone(),
        params,
        ranks: ranks as u32,
        wall_seconds: wall / k,
        regions,
    })
}

/// The time records among `paths` that belong together: the ranks of one MPI run (the
/// same program and the `.rank<R>.` names) are one group, every other record its own.
pub fn group_time_records(paths: &[PathBuf]) -> Vec<Vec<PathBuf>> {
    let mut groups: Vec<Vec<PathBuf>> = Vec::new();
    let mut by_prog: BTreeMap<String, usize> = BTreeMap::new();
    for p in paths.iter().filter(|p| is_time_record(p)) {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match name.find(".rank") {
            Some(i) => {
                let key = format!(
                    "{}/{}",
                    p.parent()
                        .map(|d| d.display().to_string())
                        .unwrap_or_default(),
                    &name[..i]
                );
                match by_prog.get(&key) {
                    Some(&g) => groups[g].push(p.clone()),
                    None => {
                        by_prog.insert(key, groups.len());
                        groups.push(vec![p.clone()]);
                    }
                }
            }
            None => groups.push(vec![p.clone()]),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use taintprof_record::time::*;
    use taintprof_record::{Exit, IoOut};

    fn record(pid: i32, step_ns: u64, threads: usize) -> taintprof_record::time::TmRecord {
        let mut w = TmWriter::new(IoOut(Vec::new()));
        w.run(
            &TmRun {
                pid,
                threads: threads as u32,
                exit: Exit::Normal(0),
                wall_ns: 2_000_000_000,
            },
            b"heat",
            b"/x/heat",
            b"0",
        );
        w.param(b"n", 1, 64, 0);
        w.func(b"main", b"main", b"h.c", 41);
        w.func(b"step", b"step", b"h.c", 23);
        w.loop_(1, b"h.c", 24, 3);
        for t in 0..threads {
            w.thread(pid + t as i32);
            w.node(TM_ROOT, 0, 1, 1_000_000_000);
            w.node(0, 1, 10, step_ns);
            w.count(1, 0, 620);
        }
        let b = w.finish().out.0;
        read(&b).unwrap()
    }

    #[test]
    fn threads_sum_and_ranks_average() {
        let p = profile_of_records(&[record(1, 400_000_000, 2)]).unwrap();
        assert_eq!(p.regions.len(), 2);
        assert_eq!(p.regions[0].callpath, "main");
        assert_eq!(p.regions[1].callpath, "main->step");
        assert_eq!(p.regions[1].visits, 20.0);
        assert_eq!(p.regions[1].loops[0].iterations, 1240);
        assert!((p.regions[0].exclusive_seconds - 1.2).abs() < 1e-9);
        assert_eq!(p.params, vec![("n".to_string(), 64.0)]);
        let p =
            profile_of_records(&[record(1, 400_000_000, 1), record(2, 200_000_000, 1)]).unwrap();
        assert_eq!(p.ranks, 2);
        assert!((p.regions[1].inclusive_seconds - 0.3).abs() < 1e-9);
        assert_eq!(p.regions[1].visits, 10.0);
        assert!((p.wall_seconds - 2.0).abs() < 1e-9);
    }

    #[test]
    fn unreadable_files_name_the_file() {
        let e = profile_of_files(&["/nonexistent/x.1.taintprof-time.rec"]).unwrap_err();
        assert!(
            e.to_string()
                .contains("/nonexistent/x.1.taintprof-time.rec"),
            "{e}"
        );
    }
}
