//! Time profiles: what a `--tp-mode=time` program records, read back per call path
//! (issue 25, item 1). The records are read and merged here (threads summed, the ranks
//! of one MPI run averaged) into one [`TimeProfile`] per run, which `taintprof
//! experiment` and `taintprof model` turn into measurements.
//!
//! This is the interface the experiment runner and the modeler are written against;
//! the record format and its reader are filled in by the time-mode work.

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
/// merges them.
pub fn profile_of_files<P: AsRef<Path>>(paths: &[P]) -> Result<TimeProfile, Error> {
    let first = paths
        .first()
        .map(|p| p.as_ref().to_path_buf())
        .unwrap_or_default();
    Err(Error::Read(first, "time records cannot be read yet".into()))
}
