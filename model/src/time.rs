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

/// One side of a tainted branch in one call path: in how many activations the branch
/// went that way (at least once). Divided by the region's visits: the share of calls
/// that took the side, which tells a run that never took it from one that did.
#[derive(Clone, Debug, PartialEq)]
pub struct BranchSide {
    pub file: String,
    /// The branch's line and column.
    pub line: u32,
    pub column: u32,
    /// The side: its index among the branch's distinct successors (`if`: 0 true, 1
    /// false; `switch`: 0 default, then the cases' targets).
    pub side: u32,
    /// First source line of the side's successor (0: unknown).
    pub target_line: u32,
    /// Activations that took the side (summed over threads; the mean over ranks).
    pub calls: f64,
}

impl BranchSide {
    /// The metric name under which `taintprof experiment` stores the side's calls:
    /// `branch:LINE:COLUMN:SIDE->TARGET_LINE` (parsed back by [`BranchSide::parse_metric`]).
    pub fn metric(&self) -> String {
        format!(
            "branch:{}:{}:{}->{}",
            self.line, self.column, self.side, self.target_line
        )
    }

    /// `(line, column, side, target_line)` of a [`BranchSide::metric`] name.
    pub fn parse_metric(metric: &str) -> Option<(u32, u32, u32, u32)> {
        let rest = metric.strip_prefix("branch:")?;
        let (pos, target) = rest.split_once("->")?;
        let mut it = pos.split(':').map(|x| x.parse::<u32>().ok());
        let (line, column, side) = (it.next()??, it.next()??, it.next()??);
        if it.next().is_some() {
            return None;
        }
        Some((line, column, side, target.parse().ok()?))
    }
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
    /// The sides of the recorded branches (a side never taken in the run has calls 0).
    pub branches: Vec<BranchSide>,
}

impl Region {
    /// The region's metrics, as `taintprof experiment` stores them and `taintprof
    /// model` reads them: `time` (inclusive seconds), `visits`, `iterations` (the
    /// counted loops' iterations summed; only when the region has counted loops) and
    /// per recorded branch side its calls ([`BranchSide::metric`]).
    pub fn metrics(&self) -> Vec<(String, f64)> {
        let mut out = vec![
            ("time".to_string(), self.inclusive_seconds),
            ("visits".to_string(), self.visits),
        ];
        if !self.loops.is_empty() {
            let it: u64 = self.loops.iter().map(|l| l.iterations).sum();
            out.push(("iterations".to_string(), it as f64));
        }
        out.extend(self.branches.iter().map(|b| (b.metric(), b.calls)));
        out
    }
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
    /// (file, line, column, side, target line) → activations.
    sides: BTreeMap<(String, u32, u32, u32, u32), f64>,
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
                    let Some(lp) = r.loops.get(l as usize) else {
                        continue;
                    };
                    match lp.side {
                        None => {
                            *a.loops.entry((lp.file.clone(), lp.line)).or_default() += it as f64
                        }
                        Some(sd) => {
                            let key = (
                                lp.file.clone(),
                                lp.line,
                                lp.column,
                                sd.index,
                                sd.target_line,
                            );
                            *a.sides.entry(key).or_default() += it as f64;
                        }
                    }
                }
                // Every side of the function's recorded branches, taken or not: a side
                // never taken is a measurement (0), not a missing one.
                for lp in r.loops.iter().filter(|lp| lp.func == n.func) {
                    if let Some(sd) = lp.side {
                        let key = (
                            lp.file.clone(),
                            lp.line,
                            lp.column,
                            sd.index,
                            sd.target_line,
                        );
                        a.sides.entry(key).or_default();
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
            branches: a
                .sides
                .iter()
                .map(|((file, line, column, side, target), &n)| BranchSide {
                    file: file.clone(),
                    line: *line,
                    column: *column,
                    side: *side,
                    target_line: *target,
                    calls: n / k,
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
        w.branch_side(1, b"h.c", (26, 7), 0, 27);
        w.branch_side(1, b"h.c", (26, 7), 1, 29);
        for t in 0..threads {
            w.thread(pid + t as i32);
            w.node(TM_ROOT, 0, 1, 1_000_000_000);
            w.node(0, 1, 10, step_ns);
            w.count(1, 0, 620);
            w.count(1, 1, 4);
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
        assert_eq!(p.regions[1].loops.len(), 1, "branch sides are not loops");
        let sides: Vec<(String, f64)> = p.regions[1]
            .branches
            .iter()
            .map(|b| (b.metric(), b.calls))
            .collect();
        assert_eq!(
            sides,
            vec![
                ("branch:26:7:0->27".to_string(), 8.0),
                ("branch:26:7:1->29".to_string(), 0.0)
            ]
        );
        assert_eq!(
            BranchSide::parse_metric("branch:26:7:1->29"),
            Some((26, 7, 1, 29))
        );
        assert_eq!(BranchSide::parse_metric("branch:26:7->29"), None);
        assert_eq!(BranchSide::parse_metric("time"), None);
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
