//! # taintprof-driver
//!
//! The user-facing side of taintprof: the compiler wrappers `taintprof-cc` /
//! `taintprof-c++` and the `taintprof` command (`run`, `report`, `denormals`, `dip`;
//! `bench` runs the separate `taintprof-bench` binary of the `benchkit/` crate, which
//! uses this library). The driver
//! compiles, runs, and reads reports; every analysis result still comes from the pass
//! and the runtime, so nothing here computes labels or loop results (the analysis is
//! to move here, issue 23: docs/design.md, decision 7).
//!
//! Module map:
//!
//! | module | what |
//! |---|---|
//! | [`cc`] | the wrappers: own flags, what to append to clang's command line, running clang |
//! | [`cmdline`] | classifying a `cc` command line (compile, link, shared, preprocess, query) |
//! | [`rsp`] | response files (`@file`) with GNU quoting |
//! | [`locate`] | finding clang 19, the plugin, the runtime and its headers |
//! | [`report`] | reading reports (schema v1 and v2), the summary model, text rendering |
//! | [`report::summary`] | the presentation model: Table 2, Table 3 (+ `--subset`), functions, constant functions, code never executed; the `--json` output |
//! | [`report::render`] | the model as text: `taintprof report` (full) and `taintprof run` (short) |
//! | [`report::scorep`] | `--scorep-filter`: a Score-P filter with the parameter-dependent functions |
//! | [`report::design`] | `--design`: the runs an empirical model needs, from the report's pairs |
//! | [`report::volume`] | the volumes' terms (`volume_terms`): the term that couples two parameters, as text (from the display string for reports older than the terms) |
//! | [`run`] | `taintprof run` (taint and denormal reports) |
//! | [`denormal`] | denormal reports (both modes): loading, the summary model, text, `--html` pages and PNG pictures, `--compare` |
//! | [`experiment`] | `taintprof experiment`: the runs of a grid or of a report's design, repeated, resumable, into Extra-P's JSON (`DIR/measurements.json`) |
//! | [`dip`] | `taintprof dip`: an unmodified binary under the exception profiler (`LD_PRELOAD`), then symbolize and print |
//! | [`modeling`] | `taintprof model`: measurements (Extra-P text, JSON, JSON Lines, experiment directories, time records), the taint prior matched per call path, models, the table, `--json`, `--extrap`, `--html` |
//! | [`html`] | escaping text for the HTML pages |
//! | [`table`] | aligned text columns |
//! | [`time`] | time mode: the selection file of `--tp-prior`/`--tp-filter`, the short profile of a time record |
//! | [`out`] | `errln!`, `err!`, `outln!`, `out!`: messages that never panic on a closed pipe |

// First, so that its macros are in scope in every module below.
#[macro_use]
pub mod out;

pub mod cc;
pub mod cmdline;
pub mod denormal;
pub mod dip;
pub mod experiment;
pub mod html;
pub mod locate;
pub mod modeling;
pub mod mpi;
pub mod report;
pub mod rsp;
pub mod run;
pub mod table;
pub mod time;

/// The exit status a wrapper or `taintprof run` should return for a child's status:
/// its exit code, or 128 + the signal number if a signal killed it (as shells do).
pub fn exit_code(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => code,
        (None, Some(sig)) => 128 + sig,
        (None, None) => 1,
    }
}
