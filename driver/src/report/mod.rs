//! Reading taint reports (`<prog>.<pid>.taintprof.json`, see `docs/report-schema.md`)
//! and presenting them.
//!
//! - this module: the schema (versions 1 to 4) as Rust types, loading and validation
//!   ([`load`]);
//! - [`summary`]: the presentation model — Table 2 (pruning), Table 3 (coverage, with
//!   user subsets), functions with volumes, pairs, loop nests, contexts and branches,
//!   constant functions, code paths never executed — selected and counted from a
//!   report; every analysis result comes from the runtime;
//! - [`render`]: that model as aligned text (full for `taintprof report`, short for
//!   `taintprof run`); the model itself serializes as the `--json` output;
//! - [`volume`]: the volumes' terms (`volume_terms`), to name the term that couples two
//!   parameters;
//! - [`scorep`]: `--scorep-filter`, a Score-P filter file with the parameter-dependent
//!   functions;
//! - [`design`]: `--design`, the runs an empirical model needs, from the report's pairs.
//!
//! Readers ignore unknown keys (the schema's rule), so a report from a newer runtime of
//! the same schema version reads. Every top-level key the schema documents for the
//! report's version is required ([`required_keys`]): the runtime always writes them, and
//! a report without one (cut, edited, written by another tool) would be shown with
//! wrong counts. Missing keys inside functions and loops take their empty value.
//! Version 1 reports (no model structure) are read too and shown with what they have.

pub mod design;
pub mod render;
pub mod scorep;
pub mod summary;
pub mod volume;
pub mod why;

use serde::Deserialize;
use std::path::Path;

/// The `schema` value of taint reports.
pub const TAINT_SCHEMA: &str = "taintprof.taint";
/// The newest taint report schema version this driver reads.
pub const TAINT_VERSION: u64 = 4;
/// The oldest taint report schema version this driver reads.
pub const MIN_TAINT_VERSION: u64 = 1;

/// The top-level keys every taint report of `version` has (`docs/report-schema.md`):
/// version 2 added `summary`, `coverage` and `recommendation` (which may be `null`).
pub fn required_keys(version: u64) -> impl Iterator<Item = &'static str> {
    const V1: &[&str] = &[
        "schema",
        "version",
        "taintprof_version",
        "program",
        "exit",
        "options",
        "threads",
        "parameters",
        "parameter_info",
        "rejected_parameters",
        "modules",
        "functions",
        "warnings",
    ];
    const ADDED_IN_V2: &[&str] = &["summary", "coverage", "recommendation"];
    let v2 = if version >= 2 { ADDED_IN_V2 } else { &[] };
    V1.iter().chain(v2).copied()
}

/// A taint report as written by the runtime.
#[derive(Debug, Clone, Deserialize)]
pub struct Report {
    pub schema: String,
    pub version: u64,
    #[serde(default)]
    pub taintprof_version: String,
    #[serde(default)]
    pub program: Program,
    /// A merge of several records (added within version 4): how they are numbered and
    /// which they are; `None` for one record.
    #[serde(default)]
    pub merged_from: Option<MergedFrom>,
    #[serde(default)]
    pub exit: Exit,
    #[serde(default)]
    pub options: Options,
    #[serde(default)]
    pub threads: u64,
    #[serde(default)]
    pub parameters: Vec<String>,
    #[serde(default)]
    pub parameter_info: Vec<ParameterInfo>,
    #[serde(default)]
    pub rejected_parameters: Vec<Rejected>,
    #[serde(default)]
    pub modules: Vec<Module>,
    #[serde(default)]
    pub functions: Vec<Function>,
    /// Table 2 of the paper (version 2).
    #[serde(default)]
    pub summary: Option<RunSummary>,
    /// Table 3 of the paper (version 2).
    #[serde(default)]
    pub coverage: Vec<CoverageEntry>,
    /// The best pair and triple of parameters (version 2).
    #[serde(default)]
    pub recommendation: Option<Recommendation>,
    #[serde(default)]
    pub warnings: Vec<String>,
}

impl Report {
    /// Whether the report has the version 2 model structure (classification, volumes,
    /// pairs, branches, summary).
    pub fn has_model(&self) -> bool {
        self.version >= 2
    }
}

/// `summary` (version 2): the rows of the paper's Table 2.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RunSummary {
    #[serde(default)]
    pub functions: FunctionCounts,
    #[serde(default)]
    pub loops: LoopCounts,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, serde::Serialize, PartialEq, Eq)]
pub struct FunctionCounts {
    #[serde(default)]
    pub total: u64,
    #[serde(default)]
    pub statically_pruned: u64,
    #[serde(default)]
    pub dynamically_pruned: u64,
    #[serde(default)]
    pub relevant: u64,
    #[serde(default)]
    pub never_ran: u64,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, serde::Serialize, PartialEq, Eq)]
pub struct LoopCounts {
    #[serde(default)]
    pub total: u64,
    #[serde(default)]
    pub statically_pruned: u64,
    #[serde(default)]
    pub constant: u64,
    #[serde(default)]
    pub relevant: u64,
    #[serde(default)]
    pub never_ran: u64,
    /// Loops the optimizer folded (`kind: folded`); absent in older reports: 0.
    #[serde(default)]
    pub folded: u64,
}

/// `coverage[]` (version 2): functions (by their own loops) and loops that depend on at
/// least one of `params`.
#[derive(Debug, Clone, Deserialize)]
pub struct CoverageEntry {
    #[serde(default)]
    pub params: Vec<String>,
    #[serde(default)]
    pub functions: u64,
    #[serde(default)]
    pub loops: u64,
}

/// `recommendation` (version 2).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Recommendation {
    #[serde(default)]
    pub pair: Option<CoverageEntry>,
    #[serde(default)]
    pub triple: Option<CoverageEntry>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Program {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub path: String,
    #[serde(default)]
    pub argv: Vec<String>,
    #[serde(default)]
    pub pid: u64,
}

/// `merged_from`: the records a merged report was made from.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MergedFrom {
    /// `mpi.rank` (the records' numbers are their MPI ranks) or `index` (their
    /// positions among the merged records).
    #[serde(default)]
    pub rank_source: String,
    /// The records' common `mpi.size`, if they have one.
    #[serde(default)]
    pub mpi_size: Option<u64>,
    #[serde(default)]
    pub records: Vec<MergedRecord>,
}

impl MergedFrom {
    /// The records' numbers are MPI ranks.
    pub fn by_mpi_rank(&self) -> bool {
        self.rank_source == "mpi.rank"
    }
}

/// `merged_from.records[]`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MergedRecord {
    #[serde(default)]
    pub rank: u32,
    #[serde(default)]
    pub pid: i64,
    #[serde(default)]
    pub program: String,
}

/// `params_by_rank[]` of a loop (`exclusive_params_by_rank[]` of a function): the
/// records (by their `merged_from` number) that saw this parameter set.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RankParams {
    #[serde(default)]
    pub ranks: Vec<u32>,
    #[serde(default)]
    pub params: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Exit {
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub code: Option<i64>,
    #[serde(default)]
    pub signal: Option<String>,
    #[serde(default)]
    pub number: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Options {
    #[serde(default)]
    pub control_flow: bool,
    /// Version 4: loops' labels kept apart the parameters that came only through
    /// control flow (`loops[].control_only_params`); absent: `false`.
    #[serde(default)]
    pub control_split: bool,
    /// Version 4: the parameter whose registration (the ninth) turned that off.
    #[serde(default)]
    pub control_split_given_up_at: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ParameterInfo {
    pub name: String,
    #[serde(default)]
    pub bit: u32,
    #[serde(default)]
    pub registrations: u64,
    /// Registered by the runtime itself (`p`, the size of `MPI_COMM_WORLD`); added
    /// within version 4, absent: `false`.
    #[serde(default)]
    pub implicit: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Rejected {
    pub name: String,
    #[serde(default)]
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Module {
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub functions: u64,
    #[serde(default)]
    pub loops: u64,
    /// Library loops (memset, qsort, ... calls); absent in older reports: 0.
    #[serde(default)]
    pub library_loops: u64,
    /// Loops the optimizer folded; absent in older reports: 0.
    #[serde(default)]
    pub folded_loops: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Function {
    pub name: String,
    #[serde(default)]
    pub linkage: String,
    #[serde(default)]
    pub file: String,
    #[serde(default)]
    pub line: u32,
    #[serde(default)]
    pub recursive: bool,
    /// Version 2: proved constant at compile time.
    #[serde(default)]
    pub statically_pruned: bool,
    /// Version 2: the function ran. `None` in version 1 reports.
    #[serde(default)]
    pub executed: Option<bool>,
    /// Version 2: union of the parameters of the function's own loops.
    #[serde(default)]
    pub exclusive_params: Vec<String>,
    /// A merged report whose records disagree about `exclusive_params`: which records
    /// saw which set (added within version 4; empty: they agree, or one record).
    #[serde(default)]
    pub exclusive_params_by_rank: Vec<RankParams>,
    /// Version 2: `exclusive_params` plus everything its callees depend on.
    #[serde(default)]
    pub inclusive_params: Vec<String>,
    /// Version 2: `inclusive_params` is empty.
    #[serde(default)]
    pub constant: Option<bool>,
    /// Version 2: symbolic iteration volume per call, callees included.
    #[serde(default)]
    pub volume: Option<String>,
    /// `volume` as terms (added within version 4; `None` in older reports).
    #[serde(default)]
    pub volume_terms: Option<Vec<volume::Term>>,
    /// Version 2: the same over the function's own loops.
    #[serde(default)]
    pub exclusive_volume: Option<String>,
    /// `exclusive_volume` as terms (added within version 4; `None` in older reports).
    #[serde(default)]
    pub exclusive_volume_terms: Option<Vec<volume::Term>>,
    /// Version 2: how each pair of `inclusive_params` combines.
    #[serde(default)]
    pub pairs: Vec<Pair>,
    /// Version 2: per calling context.
    #[serde(default)]
    pub contexts: Vec<FunctionContext>,
    /// Contexts the runtime did not list (`TAINTPROF_MAX_CONTEXTS`); absent: 0.
    #[serde(default)]
    pub contexts_omitted: u64,
    /// Version 2: conditional branches and switches that are not loop exits.
    #[serde(default)]
    pub branches: Vec<Branch>,
    #[serde(default)]
    pub loops: Vec<Loop>,
}

/// `functions[].pairs[]`.
#[derive(Debug, Clone, Deserialize)]
pub struct Pair {
    pub a: String,
    pub b: String,
    /// `multiplicative` or `additive`.
    #[serde(default)]
    pub kind: String,
}

impl Pair {
    pub fn is_multiplicative(&self) -> bool {
        self.kind == "multiplicative"
    }
}

/// `functions[].contexts[]`.
#[derive(Debug, Clone, Deserialize)]
pub struct FunctionContext {
    #[serde(default)]
    pub path: Vec<CallSite>,
    #[serde(default)]
    pub inclusive_params: Vec<String>,
    #[serde(default)]
    pub volume: Option<String>,
}

/// `functions[].branches[]`.
#[derive(Debug, Clone, Deserialize)]
pub struct Branch {
    #[serde(default)]
    pub line: u32,
    #[serde(default)]
    pub column: u32,
    /// `if` or `switch`.
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub params: Vec<String>,
    #[serde(default)]
    pub successors: Vec<Successor>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Successor {
    #[serde(default)]
    pub line: u32,
    #[serde(default)]
    pub taken: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Loop {
    #[serde(default)]
    pub line: u32,
    #[serde(default)]
    pub column: u32,
    /// `loop` (natural), `library` (a routine call over its size) or `folded` (gone at
    /// -O2: closed form, unrolled or deleted); absent in older reports: `loop`.
    #[serde(default)]
    pub kind: LoopKind,
    /// Library loops: the routine (`qsort`) and its cost formula (`n log n`).
    #[serde(default)]
    pub routine: Option<String>,
    #[serde(default)]
    pub cost: Option<String>,
    /// Version 3: the function's recursion, counted as a loop over the decisions that
    /// choose to recurse (located at that decision); absent in older reports: `false`.
    #[serde(default)]
    pub recursion: bool,
    /// Version 2: the line of the enclosing loop in the same function.
    #[serde(default)]
    pub parent_line: Option<u32>,
    #[serde(default)]
    pub params: Vec<String>,
    /// Version 4: the parameters of `params` that reached the loop only through control
    /// flow (a decision, a loop's exit test, a count), never through data.
    #[serde(default)]
    pub control_only_params: Vec<String>,
    /// A merged report whose records disagree about `params`: which records saw which
    /// set (added within version 4; empty: they agree, or one record).
    #[serde(default)]
    pub params_by_rank: Vec<RankParams>,
    #[serde(default)]
    pub executions: u64,
    #[serde(default)]
    pub const_trip_count: Option<u64>,
    #[serde(default)]
    pub contexts: Vec<Context>,
    /// Contexts the runtime did not list (`TAINTPROF_MAX_CONTEXTS`); absent: 0.
    #[serde(default)]
    pub contexts_omitted: u64,
}

/// `loops[].kind`.
#[derive(Debug, Clone, Copy, Default, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LoopKind {
    #[default]
    Loop,
    Library,
    Folded,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Context {
    #[serde(default)]
    pub path: Vec<CallSite>,
    #[serde(default)]
    pub params: Vec<String>,
    #[serde(default)]
    pub executions: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CallSite {
    #[serde(default)]
    pub function: String,
    #[serde(default)]
    pub file: String,
    #[serde(default)]
    pub line: u32,
    /// Present only where two calls on one line have contexts of their own.
    #[serde(default)]
    pub column: Option<u32>,
}

/// Why a file could not be read as a report. The messages are one line and say what to
/// do.
#[derive(Debug)]
pub enum LoadError {
    Io(String),
    /// The file is the pass's compile-time sidecar (`<object>.taintprof-static.json`).
    Sidecar(String),
    Json(String),
    WrongKind(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(m)
            | LoadError::Sidecar(m)
            | LoadError::Json(m)
            | LoadError::WrongKind(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for LoadError {}

/// The first bytes of a raw run record (`<prog>.<pid>.taintprof.rec`,
/// `docs/internal/record.md`).
pub const RECORD_MAGIC: &[u8] = b"\x89TPREC\r\n";

/// Whether the file at `path` is a raw run record (by its magic number, not its name).
pub fn is_record(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == RECORD_MAGIC)
}

/// Reads and validates the report in `path`: a JSON report, or a raw run record that
/// the model crate analyses into one (`taintprof_model`).
pub fn load(path: &Path) -> Result<Report, LoadError> {
    if is_record(path) {
        return load_records(&[path]);
    }
    if crate::denormal::is_record(path) {
        return Err(LoadError::WrongKind(format!(
            "{}: a denormal record: read it with `taintprof denormals FILE` (--html DIR for the pictures)",
            path.display()
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| LoadError::Io(format!("cannot read {}: {e}", path.display())))?;
    parse(&text).map_err(|e| match e {
        LoadError::Io(m) => LoadError::Io(m),
        LoadError::Sidecar(m) => LoadError::Sidecar(format!("{}: {m}", path.display())),
        LoadError::Json(m) => LoadError::Json(format!("{}: {m}", path.display())),
        LoadError::WrongKind(m) => LoadError::WrongKind(format!("{}: {m}", path.display())),
    })
}

/// The report of the raw run records at `paths`, merged into one (one run's record, the
/// records of the processes of one run, or repeated runs of one program): the analysis
/// the runtime used to make at exit, made here (`taintprof_model`).
pub fn load_records<P: AsRef<Path>>(paths: &[P]) -> Result<Report, LoadError> {
    let value = taintprof_model::taint_report_of_files(paths).map_err(|e| {
        LoadError::Io(match paths {
            [_] => e.to_string(),
            _ => format!(
                "cannot analyse the {} records {}: {e}",
                paths.len(),
                paths
                    .iter()
                    .map(|p| p.as_ref().display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    })?;
    let name = match paths {
        [p] => p.as_ref().display().to_string(),
        _ => format!("{} records", paths.len()),
    };
    validate(value).map_err(|e| match e {
        LoadError::Json(m) => LoadError::Json(format!(
            "{name}: {m} (a bug in taintprof's analysis: please report it with the record)"
        )),
        e => e,
    })
}

/// Parses and validates a report from JSON text.
pub fn parse(text: &str) -> Result<Report, LoadError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        if text.trim_start().starts_with('{') {
            LoadError::Json(format!(
                "not valid JSON ({e}); was the report cut short? reports are complete once the program has exited"
            ))
        } else {
            LoadError::Json(format!("not a taintprof report (not JSON: {e})"))
        }
    })?;
    validate(value)
}

/// Checks the schema, version and required keys of a report and reads it.
fn validate(value: serde_json::Value) -> Result<Report, LoadError> {
    let schema = value.get("schema").and_then(|s| s.as_str());
    let version = value.get("version").and_then(|v| v.as_u64());
    match (schema, version) {
        (None, _) => {
            return Err(LoadError::WrongKind(format!(
                "not a taintprof report (no \"schema\" key; expected \"{TAINT_SCHEMA}\")"
            )))
        }
        (Some("taintprof.static"), _) => {
            return Err(LoadError::Sidecar(
                "a compile-time sidecar written by the pass, not a run report; run the program to get <program>.<pid>.taintprof.json".to_string(),
            ))
        }
        (Some("taintprof.denormal"), _) => {
            return Err(LoadError::WrongKind(
                "a denormal report (\"taintprof.denormal\"): read it with `taintprof denormals FILE` (--html DIR for the pictures)".to_string(),
            ))
        }
        (Some(s), _) if s != TAINT_SCHEMA => {
            return Err(LoadError::WrongKind(if s.starts_with("taintprof.") {
                format!("a \"{s}\" report; this version of taintprof reads \"{TAINT_SCHEMA}\" reports only")
            } else {
                format!("not a taintprof report (schema \"{s}\", expected \"{TAINT_SCHEMA}\")")
            }))
        }
        (Some(_), None) => {
            return Err(LoadError::WrongKind(
                "taint report without a \"version\"".to_string(),
            ))
        }
        (Some(_), Some(v)) if !(MIN_TAINT_VERSION..=TAINT_VERSION).contains(&v) => {
            return Err(LoadError::WrongKind(format!(
                "taint report version {v}, but this taintprof reads versions {MIN_TAINT_VERSION} to {TAINT_VERSION}; {}",
                if v > TAINT_VERSION {
                    "use the taintprof that wrote it, or update this one"
                } else {
                    "it was written by an older taintprof"
                }
            )))
        }
        _ => {}
    }
    let version = version.unwrap_or(TAINT_VERSION);
    if let Some(key) = required_keys(version).find(|k| value.get(*k).is_none()) {
        return Err(LoadError::Json(format!(
            "malformed taint report: the required key \"{key}\" is missing (every version {version} report has it; was the file edited or written by another tool?)"
        )));
    }
    serde_json::from_value(value)
        .map_err(|e| LoadError::Json(format!("malformed taint report: {e}")))
}

/// `v` (a JSON object) with every required top-level key it lacks added with an empty
/// value, as text: minimal reports for unit tests.
#[cfg(test)]
pub(crate) fn complete(mut v: serde_json::Value) -> String {
    let version = v["version"].as_u64().unwrap_or(TAINT_VERSION);
    let obj = v.as_object_mut().expect("a JSON object");
    for key in required_keys(version) {
        let empty = match key {
            "taintprof_version" => serde_json::json!(""),
            "threads" => serde_json::json!(0),
            "program" | "exit" | "options" | "summary" => serde_json::json!({}),
            "recommendation" => serde_json::Value::Null,
            _ => serde_json::json!([]),
        };
        obj.entry(key.to_string()).or_insert(empty);
    }
    v.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_other_files_clearly() {
        let e = parse("{\"a\": 1}").unwrap_err().to_string();
        assert!(e.contains("not a taintprof report"), "{e}");
        let e = parse("[1,2]").unwrap_err().to_string();
        assert!(e.contains("not a taintprof report"), "{e}");
        let e = parse("{\"schema\":\"taintprof.taint\",\"version\":5}")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("version 5") && e.contains("reads versions 1 to 4"),
            "{e}"
        );
        let e = parse("{\"schema\":\"taintprof.taint\",\"version\":0}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("older taintprof"), "{e}");
        let e = parse("{\"schema\":\"taintprof.denormal\",\"version\":1}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("a denormal report"), "{e}");
        assert!(e.contains("taintprof denormals FILE"), "{e}");
        let e = parse("{\"schema\":\"taintprof.static\",\"version\":1}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("sidecar"), "{e}");
        let e = parse("{\"schema\":\"taintprof.taint\",")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not valid JSON"), "{e}");
        let e = parse(&complete(serde_json::json!({
            "schema": "taintprof.taint", "version": 1, "functions": 3
        })))
        .unwrap_err()
        .to_string();
        assert!(e.contains("malformed taint report"), "{e}");
    }

    #[test]
    fn every_documented_key_is_required() {
        for version in [1, 2] {
            let full = serde_json::from_str::<serde_json::Value>(&complete(
                serde_json::json!({"schema": "taintprof.taint", "version": version}),
            ))
            .unwrap();
            parse(&full.to_string()).unwrap();
            for key in required_keys(version) {
                if ["schema", "version"].contains(&key) {
                    continue;
                }
                let mut v = full.clone();
                v.as_object_mut().unwrap().remove(key);
                let e = parse(&v.to_string()).unwrap_err().to_string();
                assert!(e.contains(&format!("\"{key}\" is missing")), "{e}");
            }
        }
        // `recommendation` may be null, but not absent.
        let mut v: serde_json::Value = serde_json::from_str(&complete(
            serde_json::json!({"schema": "taintprof.taint", "version": 2}),
        ))
        .unwrap();
        v["recommendation"] = serde_json::Value::Null;
        assert!(parse(&v.to_string()).unwrap().recommendation.is_none());
    }

    #[test]
    fn minimal_report_reads_with_defaults_and_unknown_keys() {
        let r = parse(&complete(serde_json::json!({
            "schema": "taintprof.taint", "version": 1, "future_key": {"x": 1},
            "functions": [{"name": "f", "loops": [{"line": 3, "extra": true}]}]
        })))
        .unwrap();
        assert_eq!(r.functions[0].loops[0].line, 3);
        assert!(r.functions[0].loops[0].params.is_empty());
        assert_eq!(r.exit.reason, "");
    }
}
