//! Denormal reports (`taintprof.denormal` v1, `docs/report-schema.md`): reading them
//! and presenting them — `taintprof denormals`, the short summary of `taintprof run`
//! and `taintprof dip`, and the HTML pages with heatmaps.
//!
//! Both modes share one schema and one set of types, `taintprof_symbolize::report`:
//! `compiler` reports (`<prog>.<pid>.denormal.json`, from programs built with
//! `taintprof-cc --tp-mode=denormal`) and `exceptions` reports (`<prog>.<pid>.dip.json`,
//! from `taintprof dip`).
//!
//! | module | what |
//! |---|---|
//! | this one | loading and validating a report ([`load`], [`parse`]), denormal records analysed into reports ([`report_from_record`]), report file names |
//! | [`summary`] | the presentation model: header (mode, tier), instruction profile by function, creator sites, arrays with their roles, origins, creators, over time; the `--json` output |
//! | [`render`] | the model as text (full and short) |
//! | [`html`] | `--html DIR`: `index.html` with the same tables and the pictures |
//! | [`image`] | drawing: heatmap strips, origin maps, timeline and bar charts, PNG files |
//! | [`compare`] | `taintprof dip --compare`: exception counts against a compiler-mode report, line by line |
//!
//! Compiler-mode programs write a denormal record (`<prog>.<pid>.denormal.rec`), not a
//! report: [`load`] and `taintprof run` ([`report_from_record`]) make the report from
//! it with `taintprof_model::denormal`, the offline analysis. Like the taint report's
//! modules, nothing here derives analysis results: roles, origins and creators come from
//! that analysis; the driver counts and selects for display.

pub mod compare;
pub mod html;
pub mod image;
pub mod render;
pub mod summary;

use std::path::{Path, PathBuf};
pub use taintprof_symbolize::report::DenormalReport;
use taintprof_symbolize::report::{MIN_VERSION, MODE_COMPILER, MODE_EXCEPTIONS, SCHEMA, VERSION};

/// File-name suffix of compiler-mode reports.
pub const COMPILER_SUFFIX: &str = ".denormal.json";
/// File-name suffix of exceptions-mode reports (written by `taintprof dip`).
pub const EXCEPTIONS_SUFFIX: &str = ".dip.json";
/// File-name suffix of the profiler's raw reports (symbolized by `taintprof dip`).
pub const RAW_SUFFIX: &str = ".dip-raw.json";

/// If `file_name` is `<program>.<pid><suffix>`, its program name and pid.
pub fn parse_name<'a>(file_name: &'a str, suffix: &str) -> Option<(&'a str, u32)> {
    let stem = file_name.strip_suffix(suffix)?;
    let (name, pid) = stem.rsplit_once('.')?;
    if name.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name, pid.parse().ok()?))
}

/// File-name suffix of the denormal records compiler-mode programs write (the runtime
/// records, the driver analyses: [`report_from_record`]).
pub const RECORD_SUFFIX: &str = ".denormal.rec";

/// Whether the file at `path` is a denormal record (by its magic number, not its name).
pub fn is_record(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == taintprof_record::denormal::DN_MAGIC)
}

/// The denormal report of the denormal record at `path` (`taintprof_model::denormal`),
/// as a JSON value. The error is one line naming the file and what to do.
pub fn analyse_record(path: &Path) -> Result<serde_json::Value, String> {
    use taintprof_record::denormal::read::DnError;
    taintprof_model::denormal::denormal_report_of_file(path).map_err(|e| {
        let hint = match &e {
            DnError::NewerVersion { .. } => "",
            DnError::Io(_) => "; check that the file is readable",
            _ => "; no report can be made from it (was the process killed while writing it?): run the program again and let it end",
        };
        format!("cannot analyse the denormal record {}: {e}{hint}", path.display())
    })
}

/// The denormal report next to the denormal record `record`: the same directory and
/// `<prog>.<pid>` stem, `.denormal.json` (`None` if `record` is not named like one).
pub fn report_path_of_record(record: &Path) -> Option<PathBuf> {
    let name = record.file_name()?.to_str()?;
    parse_name(name, RECORD_SUFFIX)?;
    let stem = name.strip_suffix(RECORD_SUFFIX)?;
    Some(record.with_file_name(format!("{stem}{COMPILER_SUFFIX}")))
}

/// Analyses the denormal record `record` and writes its report next to it
/// ([`report_path_of_record`]; JSON indented by two spaces down to the rows of its
/// tables, compact below, a final newline: `taintprof_model::denormal::to_text`),
/// atomically.
/// Returns the report's path.
pub fn report_from_record(record: &Path) -> Result<PathBuf, String> {
    let target = report_path_of_record(record).ok_or_else(|| {
        format!(
            "{} is not named like a denormal record (<program>.<pid>{RECORD_SUFFIX})",
            record.display()
        )
    })?;
    let value = analyse_record(record)?;
    let text = taintprof_model::denormal::to_text(&value, 3);
    crate::run::write_atomically(&target, text.as_bytes()).map_err(|e| {
        format!(
            "cannot write {} (the report of {}): {e}; run `taintprof denormals {}` instead",
            target.display(),
            record.display(),
            record.display()
        )
    })?;
    Ok(target)
}

/// Reads and validates a denormal report, or analyses a denormal record into one
/// (detected by its magic number). Errors are one line and name the file.
pub fn load(path: &Path) -> Result<DenormalReport, String> {
    if is_record(path) {
        let value = analyse_record(path)?;
        return parse_value(value).map_err(|e| {
            format!(
                "{}: {e} (a bug in taintprof's analysis: please report it with the record)",
                path.display()
            )
        });
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses and validates a denormal report from JSON text.
pub fn parse(text: &str) -> Result<DenormalReport, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        if text.trim_start().starts_with('{') {
            format!("not valid JSON ({e}); was the report cut short? reports are complete once the program has exited")
        } else {
            format!("not a taintprof report (not JSON: {e})")
        }
    })?;
    parse_value(value)
}

/// Validates a denormal report's JSON value.
pub fn parse_value(value: serde_json::Value) -> Result<DenormalReport, String> {
    let schema = value.get("schema").and_then(|s| s.as_str());
    let version = value.get("version").and_then(|v| v.as_u64());
    match schema {
        None => {
            return Err(format!(
                "not a taintprof report (no \"schema\" key; expected \"{SCHEMA}\")"
            ))
        }
        Some(s) if s == crate::report::TAINT_SCHEMA => {
            return Err(
                "a taint report, not a denormal report: read it with `taintprof report`".into(),
            )
        }
        Some("taintprof.dip-raw") => {
            return Err(
                "a raw report of the exception profiler: `taintprof dip` symbolizes it into <program>.<pid>.dip.json (or run the program with `taintprof dip -- PROG`)".into(),
            )
        }
        Some("taintprof.static") => {
            return Err("a compile-time sidecar written by the pass, not a run report".into())
        }
        Some(s) if s != SCHEMA => {
            return Err(format!(
                "not a denormal report (schema \"{s}\", expected \"{SCHEMA}\")"
            ))
        }
        _ => {}
    }
    match version {
        Some(v) if (u64::from(MIN_VERSION)..=u64::from(VERSION)).contains(&v) => {}
        Some(v) => {
            return Err(format!(
                "denormal report version {v}, but this taintprof reads versions {MIN_VERSION} to {VERSION}; {}",
                if v > u64::from(VERSION) {
                    "use the taintprof that wrote it, or update this one"
                } else {
                    "it was written by an older taintprof"
                }
            ))
        }
        None => return Err("denormal report without a \"version\"".into()),
    }
    let r: DenormalReport =
        serde_json::from_value(value).map_err(|e| format!("malformed denormal report: {e}"))?;
    if r.mode != MODE_COMPILER && r.mode != MODE_EXCEPTIONS {
        return Err(format!(
            "unknown mode \"{}\" (expected \"{MODE_COMPILER}\" or \"{MODE_EXCEPTIONS}\")",
            r.mode
        ));
    }
    Ok(r)
}

/// Whether `text` looks like a denormal report (by its schema key), without checking
/// the rest.
pub fn is_denormal_json(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("schema")?.as_str().map(|s| s == SCHEMA))
        .unwrap_or(false)
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The last component of a path (`/a/b/c.c` → `c.c`).
pub fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(
            parse_name("jacobi.77.denormal.json", COMPILER_SUFFIX),
            Some(("jacobi", 77))
        );
        assert_eq!(
            parse_name("a.b.9.dip.json", EXCEPTIONS_SUFFIX),
            Some(("a.b", 9))
        );
        assert_eq!(parse_name("x.dip.json", EXCEPTIONS_SUFFIX), None);
        assert_eq!(parse_name("p.12.dip-raw.json", RAW_SUFFIX), Some(("p", 12)));
        assert_eq!(parse_name("p.12.dip-raw.json", EXCEPTIONS_SUFFIX), None);
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(4303688), "4,303,688");
    }

    #[test]
    fn wrong_kinds_are_explained() {
        assert!(parse("{\"schema\":\"taintprof.taint\",\"version\":2}")
            .unwrap_err()
            .contains("taintprof report"));
        assert!(parse("{\"schema\":\"taintprof.dip-raw\",\"version\":1}")
            .unwrap_err()
            .contains("taintprof dip"));
        assert!(parse("{\"schema\":\"taintprof.denormal\",\"version\":7}")
            .unwrap_err()
            .contains("version 7"));
        assert!(parse("{\"a\":1}").unwrap_err().contains("no \"schema\""));
        assert!(parse("{\"schema\":").unwrap_err().contains("cut short"));
        assert!(parse("hello").unwrap_err().contains("not JSON"));
        assert!(
            parse("{\"schema\":\"taintprof.denormal\",\"version\":1,\"mode\":\"compiler\"}")
                .unwrap_err()
                .contains("malformed")
        );
    }
}
