//! # taintprof-model: the offline taint analysis
//!
//! The runtime records a run (`taintprof-record`, `docs/internal/record.md`); this crate
//! analyses records offline (docs/design.md, decision 7): from one record, or several
//! merged ([`taintprof_record::merge::merge`]), it computes the model of the run and
//! writes the `taintprof.taint` JSON report (`docs/report-schema.md`). Until stop 33 the
//! runtime computed the same at exit (`rt/src/model.rs`, `volume.rs`, since deleted);
//! this crate is its port, and before the runtime's analysis was removed every
//! end-to-end report was checked equal to this crate's, key for key.
//!
//! * [`source`]: the record's modules resolved: strings unified and ordered, global
//!   indices for functions, loops, sites and branches.
//! * [`labels`]: raw labels folded one bit per parameter (the control-flow split).
//! * [`paths`]: hash-consed frame paths and their content order.
//! * [`tree`]: loop groups, functions as written, branches, the logical
//!   calling-context tree, loop nests and volumes.
//! * [`volume`]: the symbolic volume algebra.
//! * [`classify`]: summary, coverage, recommendation.
//! * [`run`]: what the report says about the run (program, exit, options, parameters,
//!   the trailer's warnings).
//! * [`ranks`]: where merged records (MPI ranks) disagree about a loop's parameters.
//! * [`json`]: the report itself.
//! * [`time`]: time profiles (`--tp-mode=time`) per call path.
//!
//! Std only, no unsafe code; indices into the [`Merged`] record instead of pointers.

#![forbid(unsafe_code)]

pub mod classify;
pub mod denormal;
pub mod json;
pub mod labels;
pub mod paths;
pub mod ranks;
pub mod run;
pub mod source;
pub mod time;
pub mod tree;
pub mod volume;

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;
use taintprof_record::merge::{merge, MergeError, Merged};
use taintprof_record::read::{self, Record};

/// Why no report could be made.
#[derive(Debug)]
pub enum Error {
    /// A record could not be read.
    Read(PathBuf, read::Error),
    /// A record has no trailer (the writer stopped before the end): the run's exit is
    /// unknown.
    Incomplete(PathBuf),
    /// The records cannot be merged.
    Merge(MergeError),
    /// The first record has no trailer (its exit is unknown).
    NoTrailer,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(p, e) => write!(f, "{}: {e}", p.display()),
            Error::Incomplete(p) => write!(
                f,
                "{}: the record is incomplete (no trailer): the writer stopped before the end",
                p.display()
            ),
            Error::Merge(e) => write!(f, "{e}"),
            Error::NoTrailer => write!(
                f,
                "the first record has no trailer: how the run ended is unknown"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// The `taintprof.taint` report of `merged` (one record, or several merged).
pub fn taint_report(merged: &Merged) -> Result<Value, Error> {
    if run::trailer(merged).is_none() {
        return Err(Error::NoTrailer);
    }
    let program = source::Program::new(merged);
    let model = tree::Model::build(&program, merged);
    Ok(json::report(&model, merged))
}

/// Merges `records` and makes their report.
pub fn taint_report_of_records(records: &[Record]) -> Result<Value, Error> {
    let merged = merge(records).map_err(Error::Merge)?;
    taint_report(&merged)
}

/// Reads the complete record at `path` (the errors [`taint_report_of_files`] gives).
pub fn read_record(path: &Path) -> Result<Record, Error> {
    read::read_file(path).map_err(|e| match e {
        read::Error::Truncated { kind: None, .. } => Error::Incomplete(path.to_path_buf()),
        e => Error::Read(path.to_path_buf(), e),
    })
}

/// Reads the complete records at `paths`, merges them and makes their report.
pub fn taint_report_of_files<P: AsRef<Path>>(paths: &[P]) -> Result<Value, Error> {
    let mut records = Vec::with_capacity(paths.len());
    for p in paths {
        records.push(read_record(p.as_ref())?);
    }
    let merged = merge(&records).map_err(Error::Merge)?;
    // The merge copied what the analysis needs: the records' memory goes back before
    // the model takes its own (millions of contexts for a big run).
    drop(records);
    taint_report(&merged)
}
