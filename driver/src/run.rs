//! `taintprof run`: run an instrumented program, then summarize the report(s) it wrote.
//! Taint reports (`.taintprof.json`), raw run records (`.taintprof.rec`), denormal
//! records (`.denormal.rec`, from builds with `--tp-mode=denormal`) and denormal reports
//! (`.denormal.json`) are recognized.
//!
//! The program runs with `TAINTPROF_OUT` set to the report directory and its output
//! goes straight to the terminal. Afterwards every report that appeared in (or was
//! rewritten in) that directory during the run is summarized on stderr: the program's
//! own first, then those of its child processes. A new record without a new JSON report
//! of the same name (`<prog>.<pid>`) is analysed here (`taintprof_model`) into that
//! report, written next to it ([`report_from_record`]; a denormal record into
//! `<prog>.<pid>.denormal.json`): the runtime writes only the record (a JSON report written by something else, an older runtime or a test's fake
//! program, is shown as it is). The new records of the ranks of one MPI run (one
//! program, the same `mpi.size`, distinct `mpi.rank`s: `taintprof_record::ranks`) are
//! one result instead: merged into one report, `<prog>.mpi<size>.<pid>.taintprof.json`
//! with the pid of the lowest rank (rank 0), next to them ([`report_from_group`]).
//!
//! File names: `<prog>.<pid>.taintprof.rec` (and `.denormal.rec`); a process that knew
//! its MPI rank at start-up writes `<prog>.rank<R>.<pid>...`; before an `exec`
//! `<prog>.before-exec.<pid>...` (`<prog>.before-exec.rank<R>.<pid>...`). Every reader
//! here takes the stem before the suffix (`<prog>[.before-exec][.rank<R>].<pid>`) as a
//! whole: the report of a record has the record's stem. While the program runs, taintprof ignores
//! SIGINT and SIGQUIT (as `system()` does), so Ctrl-C stops the program, and the report
//! it wrote on the way out is still shown.

use crate::report;
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// Suffix of every report file.
pub const REPORT_SUFFIX: &str = ".taintprof.json";

/// If `file_name` is a report name (`<program>.<pid>.taintprof.json`), its program name
/// and pid. Compile-time sidecars (`x.o.taintprof.json`) are not reports.
pub fn parse_report_name(file_name: &str) -> Option<(&str, u32)> {
    parse_run_file_name(file_name, REPORT_SUFFIX)
}

/// `<program>.<pid><suffix>` → program name and pid (the names of every file a run
/// writes: reports and records). The program part keeps what the runtime or the driver
/// put before the pid (`app.rank3`, `app.mpi4`, `app.before-exec`); [`split_program`]
/// takes those apart.
fn parse_run_file_name<'a>(file_name: &'a str, suffix: &str) -> Option<(&'a str, u32)> {
    let stem = file_name.strip_suffix(suffix)?;
    let (name, pid) = stem.rsplit_once('.')?;
    if name.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name, pid.parse().ok()?))
}

/// What the program part of a run file's name ([`parse_run_file_name`]) says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramPart<'a> {
    /// The program's name.
    pub program: &'a str,
    /// Written before an `exec` (`.before-exec`).
    pub before_exec: bool,
    /// The MPI rank the process knew at start-up (`.rank<R>`).
    pub rank: Option<u32>,
    /// A merged report of an MPI run of this size (`.mpi<N>`).
    pub mpi_size: Option<u32>,
}

/// Splits `app.before-exec.rank3` (or `app.mpi4`) into its parts.
pub fn split_program(name: &str) -> ProgramPart<'_> {
    let mut p = ProgramPart {
        program: name,
        before_exec: false,
        rank: None,
        mpi_size: None,
    };
    let number = |s: &str, tag: &str| -> Option<u32> {
        let d = s.strip_prefix(tag)?;
        if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        d.parse().ok()
    };
    if let Some((rest, last)) = p.program.rsplit_once('.') {
        if let Some(r) = number(last, "rank") {
            p.rank = Some(r);
            p.program = rest;
        } else if let Some(n) = number(last, "mpi") {
            p.mpi_size = Some(n);
            p.program = rest;
        }
    }
    if let Some(rest) = p.program.strip_suffix(".before-exec") {
        p.before_exec = true;
        p.program = rest;
    }
    p
}

/// Suffix of every raw run record.
pub const RECORD_SUFFIX: &str = ".taintprof.rec";

/// If `file_name` is a raw run record name (`<program>.<pid>.taintprof.rec`) or a
/// denormal record name (`<program>.<pid>.denormal.rec`), its program name and pid
/// (`<program>` with its `.rank<R>` if it has one: [`split_program`]).
pub fn parse_record_name(file_name: &str) -> Option<(&str, u32)> {
    parse_run_file_name(file_name, RECORD_SUFFIX)
        .or_else(|| parse_run_file_name(file_name, crate::denormal::RECORD_SUFFIX))
}

/// If `file_name` is a taint or denormal run report, its program name and pid.
pub fn parse_any_report_name(file_name: &str) -> Option<(&str, u32)> {
    parse_report_name(file_name)
        .or_else(|| crate::denormal::parse_name(file_name, crate::denormal::COMPILER_SUFFIX))
}

/// The taint report next to the record `record`: the same directory and
/// `<prog>.<pid>` stem, `.taintprof.json` (`None` if `record` is not a record name).
pub fn report_path_of_record(record: &Path) -> Option<PathBuf> {
    let name = record.file_name()?.to_str()?;
    parse_record_name(name)?;
    let stem = name.strip_suffix(RECORD_SUFFIX)?;
    Some(record.with_file_name(format!("{stem}{REPORT_SUFFIX}")))
}

/// Analyses the raw run record `record` (`taintprof_model`) and writes its taint report
/// next to it ([`report_path_of_record`]) as the runtime writes its own (JSON indented
/// by two spaces, a final newline), atomically: a temporary file in the same directory,
/// renamed into place. Returns the report's path. The error is one line naming the file
/// and what to do.
pub fn report_from_record(record: &Path) -> Result<PathBuf, String> {
    let target = report_path_of_record(record).ok_or_else(|| {
        format!(
            "{} is not named like a run record (<program>.<pid>{RECORD_SUFFIX})",
            record.display()
        )
    })?;
    let value = taintprof_model::taint_report_of_files(&[record]).map_err(|e| {
        let path = record.display().to_string();
        let text = e.to_string();
        let text = if text.contains(&path) {
            text
        } else {
            format!("{path}: {text}")
        };
        format!("cannot analyse the run record {text}{}", analysis_hint(&e))
    })?;
    write_report(&target, &value, &record.display().to_string())?;
    Ok(target)
}

/// What to do about an analysis of records that failed with `e` (`; ...`, or nothing).
fn analysis_hint(e: &taintprof_model::Error) -> &'static str {
    match e {
        taintprof_model::Error::Read(_, taintprof_record::read::Error::NewerVersion { .. }) => "",
        taintprof_model::Error::Read(_, taintprof_record::read::Error::Io(_)) => {
            "; check that the file is readable"
        }
        _ => {
            "; no report can be made from it (was the process killed while writing it?): \
             run the program again and let it end"
        }
    }
}

/// Writes the report `value` to `target` (JSON indented by two spaces, a final
/// newline; atomically). `of`: what it is the report of, for the message.
fn write_report(target: &Path, value: &serde_json::Value, of: &str) -> Result<(), String> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| format!("cannot write the report of {of}: {e}"))?;
    text.push('\n');
    write_atomically(target, text.as_bytes()).map_err(|e| {
        format!(
            "cannot write {} (the report of {of}): {e}; run `taintprof report` on the records instead",
            target.display(),
        )
    })
}

/// Raw run records that make one result: one record, or the ranks of one MPI run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordGroup {
    /// The records, in rank order for an MPI run.
    pub paths: Vec<PathBuf>,
    /// For the ranks of an MPI run (two records or more).
    pub mpi: Option<MpiRun>,
}

/// What the records of an MPI run say about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MpiRun {
    /// The program's name (the records' RUN section).
    pub program: String,
    /// `mpi.size`.
    pub size: u32,
    /// The ranks of the records, ascending.
    pub ranks: Vec<u32>,
    /// The pid of the lowest rank's process.
    pub pid: i32,
}

impl RecordGroup {
    /// Where the group's report goes: next to its (first) record, `<stem>.taintprof.json`
    /// for one record, `<prog>.mpi<size>.<pid>.taintprof.json` for an MPI run (the pid
    /// of its lowest rank, rank 0 in a complete run).
    pub fn report_path(&self) -> Option<PathBuf> {
        let first = self.paths.first()?;
        match &self.mpi {
            None => report_path_of_record(first),
            Some(m) => Some(first.with_file_name(format!(
                "{}.mpi{}.{}{REPORT_SUFFIX}",
                m.program, m.size, m.pid
            ))),
        }
    }

    /// `the 4 records of the MPI run of app (ranks 0-3)`, or the record's path.
    pub fn describe(&self) -> String {
        match &self.mpi {
            None => self
                .paths
                .first()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            Some(m) => format!(
                "the {} records of the MPI run of {} (ranks {})",
                self.paths.len(),
                m.program,
                taintprof_record::ranks::ranges(&m.ranks)
            ),
        }
    }
}

/// Groups the raw run records at `paths` into results (`taintprof_record::ranks`): the
/// ranks of one MPI run together, in rank order; every other record alone (one that
/// cannot be read too: its analysis says why). Groups come in the order of their first
/// record in `paths`. A record whose name carries a rank (`<prog>.rank<R>.<pid>`, what
/// the runtime writes when it has the `mpi.rank` and `mpi.size` attributes) is read
/// once here, one at a time, and again when its group is analysed; any other record
/// is a result of its own without being read here.
pub fn group_record_files(paths: &[PathBuf]) -> Vec<RecordGroup> {
    use taintprof_record::read::Run;
    let ranked = |p: &Path| {
        p.file_name()
            .and_then(|n| n.to_str())
            .and_then(parse_record_name)
            .is_some_and(|(prog, _)| split_program(prog).rank.is_some())
    };
    let runs: Vec<Option<Run>> = paths
        .iter()
        .map(|p| {
            if !ranked(p) {
                return None;
            }
            let r = taintprof_model::read_record(p).ok()?;
            taintprof_record::ranks::groupable(&r).then_some(r.run)
        })
        .collect();
    let refs: Vec<Option<&Run>> = runs.iter().map(Option::as_ref).collect();
    taintprof_record::ranks::group_runs(&refs)
        .into_iter()
        .map(|g| {
            let mpi = g.mpi_size.and_then(|size| {
                let first = runs[*g.members.first()?].as_ref()?;
                Some(MpiRun {
                    program: String::from_utf8_lossy(&first.name).into_owned(),
                    size,
                    ranks: g
                        .members
                        .iter()
                        .filter_map(|&i| taintprof_record::ranks::mpi_rank(runs[i].as_ref()?))
                        .collect(),
                    pid: first.info.pid,
                })
            });
            RecordGroup {
                paths: g.members.iter().map(|&i| paths[i].clone()).collect(),
                mpi,
            }
        })
        .collect()
}

/// Analyses the records of `group` (merged into one result) and writes the report to
/// [`RecordGroup::report_path`]. Returns the report's path, or the one-line error.
pub fn report_from_group(group: &RecordGroup) -> Result<PathBuf, String> {
    if group.mpi.is_none() {
        if let [one] = group.paths.as_slice() {
            return report_from_record(one);
        }
    }
    let what = group.describe();
    let target = group
        .report_path()
        .ok_or_else(|| format!("{what}: no records"))?;
    let value = taintprof_model::taint_report_of_files(&group.paths)
        .map_err(|e| format!("cannot analyse {what}: {e}{}", analysis_hint(&e)))?;
    write_report(&target, &value, &what)?;
    Ok(target)
}

/// Writes `bytes` to `path` through a temporary file in the same directory, renamed
/// into place: readers see the old file or the whole new one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.flush()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The time records (`--tp-mode=time`) in `dir` with their modification times.
fn time_records_in(dir: &Path) -> HashMap<PathBuf, Option<SystemTime>> {
    let mut found = HashMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let p = e.path();
        if taintprof_model::time::is_time_record(&p) {
            let mtime = e.metadata().ok().and_then(|m| m.modified().ok());
            found.insert(p, mtime);
        }
    }
    found
}

/// The reports and raw run records in `dir` with their modification times.
fn reports_in(dir: &Path) -> HashMap<PathBuf, Option<SystemTime>> {
    let mut found = HashMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if parse_any_report_name(&name).is_some() || parse_record_name(&name).is_some() {
            let mtime = e.metadata().ok().and_then(|m| m.modified().ok());
            found.insert(e.path(), mtime);
        }
    }
    found
}

/// Reports and raw run records in `dir` that are new or changed compared with `before`;
/// those of process `pid` first (its files before an `exec`, then the new program's),
/// then by pid.
pub fn new_reports(
    dir: &Path,
    before: &HashMap<PathBuf, Option<SystemTime>>,
    pid: u32,
) -> Vec<PathBuf> {
    let mut new: Vec<(bool, u32, bool, PathBuf)> = reports_in(dir)
        .into_iter()
        .filter(|(p, t)| before.get(p) != Some(t))
        .map(|(p, _)| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let file_pid = parse_any_report_name(&name)
                .or_else(|| parse_record_name(&name))
                .map_or(0, |(_, pid)| pid);
            // A process's report before an exec comes before the new program's.
            let before_exec = name.contains(".before-exec.");
            (file_pid != pid, file_pid, !before_exec, p)
        })
        .collect();
    new.sort();
    new.into_iter().map(|(_, _, _, p)| p).collect()
}

/// The reports of the new files `new` (in that order): a JSON report as is; a raw run
/// record without a new JSON report of the same name analysed into one
/// ([`report_from_record`]), the records of the ranks of one MPI run into one report
/// ([`group_record_files`], [`report_from_group`]: at the place of its first record),
/// a denormal record likewise into its denormal report
/// (`crate::denormal::report_from_record`), or the error saying why it could not be.
pub fn reports_of_new_files(new: &[PathBuf]) -> Vec<Result<PathBuf, String>> {
    enum Slot {
        Done(Result<PathBuf, String>),
        /// A taint record to analyse: its index among `records`.
        Record(usize),
    }
    let mut slots = Vec::new();
    let mut records: Vec<PathBuf> = Vec::new();
    for p in new {
        if let Some(json) = crate::denormal::report_path_of_record(p) {
            if !new.contains(&json) {
                slots.push(Slot::Done(crate::denormal::report_from_record(p)));
            }
            continue;
        }
        match report_path_of_record(p) {
            // The runtime (or whatever ran) wrote the report too: shown in its place.
            Some(json) if new.contains(&json) => {}
            Some(_) => {
                slots.push(Slot::Record(records.len()));
                records.push(p.clone());
            }
            None => slots.push(Slot::Done(Ok(p.clone()))),
        }
    }
    // Each group's report at the place of its first record.
    let groups = group_record_files(&records);
    let mut at: Vec<Option<usize>> = vec![None; records.len()];
    for (gi, g) in groups.iter().enumerate() {
        if let Some(i) = g
            .paths
            .first()
            .and_then(|f| records.iter().position(|r| r == f))
        {
            at[i] = Some(gi);
        }
    }
    let mut out = Vec::new();
    for slot in slots {
        match slot {
            Slot::Done(r) => out.push(r),
            Slot::Record(i) => {
                if let Some(gi) = at[i] {
                    out.push(report_from_group(&groups[gi]));
                }
            }
        }
    }
    out
}

/// Runs `program` with `args`, writing reports into `out` (default: working
/// directory), prints the summaries and returns the program's exit status.
pub fn run(out: Option<&Path>, program: &OsString, args: &[OsString]) -> Result<i32> {
    let out_dir = match out {
        Some(d) => {
            std::fs::create_dir_all(d)
                .with_context(|| format!("cannot create report directory {}", d.display()))?;
            d.to_path_buf()
        }
        None => std::env::current_dir().context("cannot read the working directory")?,
    };
    let out_dir = out_dir.canonicalize().unwrap_or(out_dir);
    let before = reports_in(&out_dir);
    let time_before = time_records_in(&out_dir);

    let mut cmd = Command::new(program);
    cmd.args(args).env(taintprof_abi::ENV_OUT_DIR, &out_dir);
    if std::env::var_os("TAINTPROF_QUIET").is_none() {
        // taintprof prints where the reports are; the runtime need not.
        cmd.env("TAINTPROF_QUIET", "1");
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => bail!("cannot run {}: {e}", Path::new(program).display()),
    };
    let pid = child.id();
    let status = {
        let _guard = IgnoreInterrupts::new();
        child.wait().context("waiting for the program")?
    };
    let code = crate::exit_code(status);

    let reports = reports_of_new_files(&new_reports(&out_dir, &before, pid));
    let mut new_time: Vec<PathBuf> = time_records_in(&out_dir)
        .into_iter()
        .filter(|(p, t)| time_before.get(p) != Some(t))
        .map(|(p, _)| p)
        .collect();
    new_time.sort();
    for group in taintprof_model::time::group_time_records(&new_time) {
        errln!();
        match taintprof_model::time::profile_of_files(&group) {
            Ok(p) => {
                err!("{}", crate::time::render_short(&p, 10));
                let names: Vec<String> = group.iter().map(|g| display_path(g)).collect();
                errln!("time record: {}", names.join(" "));
            }
            Err(e) => errln!("taintprof: error: {e}"),
        }
    }
    if reports.is_empty() && !new_time.is_empty() {
        return Ok(code);
    }
    if reports.is_empty() {
        errln!("{}", no_report_message(program, &out_dir, status));
        return Ok(code);
    }
    for (i, path) in reports.iter().enumerate() {
        errln!();
        if i == 0 && reports.len() > 1 {
            errln!(
                "taintprof: {} reports were written during the run",
                reports.len()
            );
        }
        let path = match path {
            Ok(p) => p,
            Err(e) => {
                errln!("taintprof: error: {e}");
                continue;
            }
        };
        let is_denormal = path.file_name().is_some_and(|n| {
            n.to_string_lossy()
                .ends_with(crate::denormal::COMPILER_SUFFIX)
        });
        if is_denormal {
            match crate::denormal::load(path) {
                Ok(r) => {
                    let s = crate::denormal::summary::summarize(
                        &r,
                        &display_path(path),
                        &Default::default(),
                    );
                    err!("{}", crate::denormal::render::short(&s));
                }
                Err(e) => errln!("taintprof: error: {e}"),
            }
            continue;
        }
        match report::load(path) {
            Ok(r) => {
                let s = report::summary::summarize(&r, &display_path(path));
                err!("{}", report::render::short(&s));
            }
            Err(e) => errln!("taintprof: error: {e}"),
        }
    }
    Ok(code)
}

/// `path` relative to the working directory when it is inside it.
pub(crate) fn display_path(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| {
            let cwd = cwd.canonicalize().unwrap_or(cwd);
            path.strip_prefix(&cwd).ok().map(Path::to_path_buf)
        })
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

/// Byte strings only the taintprof runtime puts into a program: the hook instrumented
/// code registers its modules with (a dynamic symbol of every instrumented executable,
/// since the wrappers export `__tp*`), and the name of a runtime knob (read-only data,
/// which survives `strip`, for static executables).
const RUNTIME_MARKERS: &[&str] = &[
    taintprof_abi::HOOK_REGISTER_MODULE,
    "TAINTPROF_HANDLE_SIGNALS",
];

/// What the bytes of the program's executable say about its instrumentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instrumentation {
    /// An executable containing the taintprof runtime.
    Instrumented,
    /// An ELF executable without it.
    Plain,
    /// A script (`#!`): what it runs decides.
    Script,
    /// Not found or not readable, or not ELF.
    Unknown,
}

/// The file `program` names, as `Command` finds it: a path if it contains a `/`,
/// otherwise the first executable of that name on `PATH`.
fn resolve_program(program: &OsString) -> Option<PathBuf> {
    let p = Path::new(program);
    if program.as_encoded_bytes().contains(&b'/') {
        return Some(p.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(p))
        .find(|c| c.is_file())
}

/// Whether the executable `path` contains the taintprof runtime: a search of its bytes
/// for [`RUNTIME_MARKERS`], read in chunks.
pub fn instrumentation(path: &Path) -> Instrumentation {
    use std::io::Read;
    let Ok(mut f) = std::fs::File::open(path) else {
        return Instrumentation::Unknown;
    };
    let longest = RUNTIME_MARKERS.iter().map(|m| m.len()).max().unwrap_or(0);
    let mut buf = vec![0u8; 1 << 20];
    // The last `longest - 1` bytes of the previous chunk come first, so a marker
    // across two chunks is found.
    let mut kept = 0;
    let mut first = true;
    loop {
        let n = match f.read(&mut buf[kept..]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Instrumentation::Unknown,
        };
        let have = kept + n;
        if first && have >= 4 {
            first = false;
            if buf.starts_with(b"#!") {
                return Instrumentation::Script;
            }
            if !buf.starts_with(b"\x7fELF") {
                return Instrumentation::Unknown;
            }
        }
        let window = &buf[..have];
        if RUNTIME_MARKERS
            .iter()
            .any(|m| window.windows(m.len()).any(|w| w == m.as_bytes()))
        {
            return Instrumentation::Instrumented;
        }
        kept = (longest - 1).min(have);
        buf.copy_within(have - kept..have, 0);
    }
    if first {
        Instrumentation::Unknown
    } else {
        Instrumentation::Plain
    }
}

/// The name of signal `sig` (`SIGKILL`), for the common ones.
pub fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return None,
    })
}

/// Why `program` (which ended with `status`) left no report in `dir`: what its
/// executable tells (instrumented or not) and how it ended decide the hint.
fn no_report_message(program: &OsString, dir: &Path, status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    let name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let how = match status.signal() {
        Some(sig) => match signal_name(sig) {
            Some(s) => format!("was killed by signal {sig} ({s})"),
            None => format!("was killed by signal {sig}"),
        },
        None => format!("exited with code {}", status.code().unwrap_or(0)),
    };
    let file = resolve_program(program);
    let kind = file
        .as_deref()
        .map_or(Instrumentation::Unknown, instrumentation);
    let shown = file
        .as_deref()
        .unwrap_or_else(|| Path::new(program))
        .display()
        .to_string();
    let mut lines = vec![format!(
        "\ntaintprof: {name} {how} and wrote no report into {}.",
        dir.display()
    )];
    match kind {
        Instrumentation::Instrumented => {
            let why = match status.signal() {
                Some(libc::SIGKILL) => "SIGKILL cannot be caught (out of memory, a time limit, \
                     kill -9?): let it end normally, or call tp_write_report() where a report \
                     so far is wanted"
                    .to_string(),
                Some(sig) => format!(
                    "taintprof did not handle signal {sig}: with TAINTPROF_HANDLE_SIGNALS=0 in \
                     the environment, or when the program installs its own handler or blocks \
                     the signal, a crash writes no report; unset it, or call tp_write_report() \
                     before the crash"
                ),
                None => "a program ending through _exit() (or exec of another program, or a \
                     vfork child) skips them: end with exit() or a return from main, or call \
                     tp_write_report() before _exit/exec"
                    .to_string(),
            };
            lines.push(format!(
                "  {name} is instrumented ({shown} contains the taintprof runtime), so it ended \
                 without running its exit handlers, which write the report: _exit(), exec, \
                 SIGKILL, or a crash with TAINTPROF_HANDLE_SIGNALS=0."
            ));
            lines.push(format!("  Here: {why}."));
            lines.push(
                "  Else, if the directory is not writable by the program, choose another with \
                 --out DIR."
                    .to_string(),
            );
        }
        Instrumentation::Plain => lines.push(format!(
            "  {name} was not built with taintprof-cc / taintprof-c++: {shown} contains no \
             taintprof runtime. Rebuild it with them (CC=taintprof-cc CXX=taintprof-c++); \
             instrumented programs it starts write their own reports."
        )),
        Instrumentation::Script => lines.push(format!(
            "  {shown} is a script: the programs it runs wrote no report either. They were not \
             built with taintprof-cc / taintprof-c++, or ended without running exit handlers \
             (_exit, exec, SIGKILL, a crash with TAINTPROF_HANDLE_SIGNALS=0), or cannot write \
             into the directory (choose another with --out DIR)."
        )),
        Instrumentation::Unknown => {
            lines.push("  Possible reasons:".to_string());
            lines.push(format!(
                "  - it was not built with taintprof-cc / taintprof-c++ (check: nm {shown} | grep {})",
                taintprof_abi::HOOK_REGISTER_MODULE
            ));
            lines.push(
                "  - it ended without running exit handlers (_exit, exec, SIGKILL, a crash with \
                 TAINTPROF_HANDLE_SIGNALS=0)"
                    .to_string(),
            );
            lines.push(
                "  - the directory is not writable by the program (choose another with --out DIR)"
                    .to_string(),
            );
        }
    }
    lines.join("\n")
}

/// Ignores SIGINT and SIGQUIT while alive, like `system()`.
pub(crate) struct IgnoreInterrupts {
    old_int: libc::sighandler_t,
    old_quit: libc::sighandler_t,
}

impl IgnoreInterrupts {
    pub(crate) fn new() -> IgnoreInterrupts {
        // SAFETY: setting a signal disposition to SIG_IGN is async-signal-safe and has no
        // memory-safety requirements; the previous handlers are restored on drop.
        unsafe {
            IgnoreInterrupts {
                old_int: libc::signal(libc::SIGINT, libc::SIG_IGN),
                old_quit: libc::signal(libc::SIGQUIT, libc::SIG_IGN),
            }
        }
    }
}

impl Drop for IgnoreInterrupts {
    fn drop(&mut self) {
        // SAFETY: restores the dispositions returned by `signal` in `new`.
        unsafe {
            libc::signal(libc::SIGINT, self.old_int);
            libc::signal(libc::SIGQUIT, self.old_quit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_names() {
        assert_eq!(
            parse_report_name("matmul.4242.taintprof.json"),
            Some(("matmul", 4242))
        );
        assert_eq!(
            parse_report_name("a.b.c.17.taintprof.json"),
            Some(("a.b.c", 17))
        );
        assert_eq!(parse_report_name("kernel.o.taintprof.json"), None);
        assert_eq!(parse_report_name("x.taintprof.json"), None);
        assert_eq!(parse_report_name(".12.taintprof.json"), None);
        assert_eq!(parse_report_name("m.12.json"), None);
    }

    #[test]
    fn new_reports_own_pid_first() {
        let dir = taintprof_tests::tmp_scratch_dir("run", "reports");
        std::fs::write(dir.join("old.5.taintprof.json"), "{}").unwrap();
        let before = reports_in(&dir);
        std::fs::write(dir.join("child.3.taintprof.json"), "{}").unwrap();
        std::fs::write(dir.join("main.9.taintprof.json"), "{}").unwrap();
        std::fs::write(dir.join("k.o.taintprof-static.json"), "{}").unwrap();
        std::fs::write(dir.join("main.9.denormal.json"), "{}").unwrap();
        std::fs::write(dir.join("main.9.dip-raw.json"), "{}").unwrap();
        let got = new_reports(&dir, &before, 9);
        let names: Vec<String> = got
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(names[..2].contains(&"main.9.taintprof.json".to_string()));
        assert!(names[..2].contains(&"main.9.denormal.json".to_string()));
        assert_eq!(names[2], "child.3.taintprof.json");
    }

    #[test]
    fn record_names() {
        assert_eq!(
            parse_record_name("matmul.4242.taintprof.rec"),
            Some(("matmul", 4242))
        );
        assert_eq!(
            parse_record_name("m.before-exec.7.taintprof.rec"),
            Some(("m.before-exec", 7))
        );
        assert_eq!(parse_record_name("x.taintprof.rec"), None);
        assert_eq!(parse_record_name("m.7.taintprof.json"), None);
        assert_eq!(
            report_path_of_record(Path::new("/d/m.before-exec.7.taintprof.rec")),
            Some(PathBuf::from("/d/m.before-exec.7.taintprof.json"))
        );
        assert_eq!(report_path_of_record(Path::new("/d/m.7.json")), None);
    }

    #[test]
    fn rank_and_merged_names_keep_their_stem() {
        assert_eq!(
            parse_record_name("app.rank3.4242.taintprof.rec"),
            Some(("app.rank3", 4242))
        );
        assert_eq!(
            parse_record_name("app.rank0.9.denormal.rec"),
            Some(("app.rank0", 9))
        );
        assert_eq!(
            parse_report_name("app.mpi4.4242.taintprof.json"),
            Some(("app.mpi4", 4242))
        );
        assert_eq!(
            report_path_of_record(Path::new("/d/app.before-exec.rank2.7.taintprof.rec")),
            Some(PathBuf::from("/d/app.before-exec.rank2.7.taintprof.json"))
        );
        let p = split_program("a.b.before-exec.rank12");
        assert_eq!(
            (p.program, p.before_exec, p.rank, p.mpi_size),
            ("a.b", true, Some(12), None)
        );
        let p = split_program("app.mpi4");
        assert_eq!((p.program, p.rank, p.mpi_size), ("app", None, Some(4)));
        // Not a rank: part of the program's name.
        let p = split_program("app.ranking");
        assert_eq!((p.program, p.rank), ("app.ranking", None));
        assert_eq!(split_program("app").program, "app");
    }

    /// A minimal complete record of `app` (pid `pid`) with these RUN attributes.
    fn tiny_record(pid: i32, attrs: &[(&str, String)]) -> Vec<u8> {
        let mut w = taintprof_record::Writer::new(Vec::new());
        w.begin_run(
            &taintprof_record::RunInfo {
                pid,
                abi_version: taintprof_abi::ABI_VERSION,
                mode: taintprof_record::MODE_TAINT,
                start_time_ns: pid as u64,
            },
            b"app",
            b"/x/app",
            b"0.1.0",
        );
        for (k, v) in attrs {
            w.attr(k.as_bytes(), v.as_bytes());
        }
        w.begin_trailer(taintprof_record::Exit::Normal(0));
        let f = w.finish();
        assert!(f.ok && f.complete);
        f.out
    }

    #[test]
    fn the_ranks_of_one_mpi_run_make_one_report() {
        let dir = taintprof_tests::tmp_scratch_dir("run", "mpi");
        let before = reports_in(&dir);
        for (rank, pid) in [(1, 51), (0, 50), (2, 52)] {
            let attrs = [
                ("mpi.rank", rank.to_string()),
                ("mpi.size", "3".to_string()),
            ];
            std::fs::write(
                dir.join(format!("app.rank{rank}.{pid}.taintprof.rec")),
                tiny_record(pid, &attrs),
            )
            .unwrap();
        }
        // A process of the run that is no rank keeps its own report.
        std::fs::write(dir.join("helper.60.taintprof.rec"), tiny_record(60, &[])).unwrap();
        let new = new_reports(&dir, &before, 1);
        let got = reports_of_new_files(&new);
        let names: Vec<String> = got
            .iter()
            .map(|r| {
                r.as_ref()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(
            names,
            ["app.mpi3.50.taintprof.json", "helper.60.taintprof.json"]
        );
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(&names[0])).unwrap()).unwrap();
        assert_eq!(v["program"]["pid"], 50, "rank 0 first");
        let ranks: Vec<u64> = v["merged_from"]["records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["rank"].as_u64().unwrap())
            .collect();
        assert_eq!(ranks, [0, 1, 2]);
        // No report per rank.
        assert!(!dir.join("app.rank0.50.taintprof.json").exists());
        let groups = group_record_files(&new);
        assert_eq!(groups.len(), 2);
        assert_eq!(
            groups[0].describe(),
            "the 3 records of the MPI run of app (ranks 0-2)"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn records_without_a_new_report_are_analysed_in_place() {
        let dir = taintprof_tests::tmp_scratch_dir("run", "rec");
        // A stale report of the same name from before the run does not count.
        std::fs::write(dir.join("main.9.taintprof.json"), "{}").unwrap();
        let before = reports_in(&dir);
        std::fs::write(dir.join("child.3.taintprof.json"), "{}").unwrap();
        std::fs::write(dir.join("child.3.taintprof.rec"), "not read").unwrap();
        // Cut short after the magic number: cannot be analysed.
        let mut cut = crate::report::RECORD_MAGIC.to_vec();
        cut.extend_from_slice(&[0; 5]);
        std::fs::write(dir.join("main.9.taintprof.rec"), &cut).unwrap();
        let new = new_reports(&dir, &before, 9);
        let names: Vec<String> = new
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "main.9.taintprof.rec",
                "child.3.taintprof.json",
                "child.3.taintprof.rec"
            ]
        );
        let got = reports_of_new_files(&new);
        assert_eq!(got.len(), 2, "{got:?}");
        let e = got[0].as_ref().unwrap_err();
        assert!(
            e.contains("main.9.taintprof.rec") && e.contains("run the program again"),
            "{e}"
        );
        assert!(!e.contains('\n'), "{e}");
        assert_eq!(
            got[1].as_ref().unwrap(),
            &dir.join("child.3.taintprof.json")
        );
        // The stale report stays as it was, and no temporary file is left.
        assert_eq!(
            std::fs::read_to_string(dir.join("main.9.taintprof.json")).unwrap(),
            "{}"
        );
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 4);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
