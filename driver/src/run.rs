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
//! program, is shown as it is). While the program runs, taintprof ignores
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
/// writes: reports and records).
fn parse_run_file_name<'a>(file_name: &'a str, suffix: &str) -> Option<(&'a str, u32)> {
    let stem = file_name.strip_suffix(suffix)?;
    let (name, pid) = stem.rsplit_once('.')?;
    if name.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name, pid.parse().ok()?))
}

/// Suffix of every raw run record.
pub const RECORD_SUFFIX: &str = ".taintprof.rec";

/// If `file_name` is a raw run record name (`<program>.<pid>.taintprof.rec`) or a
/// denormal record name (`<program>.<pid>.denormal.rec`), its program name and pid.
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
        let what = e.to_string();
        let what = if what.contains(&record.display().to_string()) {
            what
        } else {
            format!("{}: {what}", record.display())
        };
        let hint = match &e {
            taintprof_model::Error::Read(_, taintprof_record::read::Error::NewerVersion { .. }) => {
                ""
            }
            taintprof_model::Error::Read(_, taintprof_record::read::Error::Io(_)) => {
                "; check that the file is readable"
            }
            _ => {
                "; no report can be made from it (was the process killed while writing it?): \
                 run the program again and let it end"
            }
        };
        format!("cannot analyse the run record {what}{hint}")
    })?;
    let mut text = serde_json::to_string_pretty(&value)
        .map_err(|e| format!("cannot write the report of {}: {e}", record.display()))?;
    text.push('\n');
    write_atomically(&target, text.as_bytes()).map_err(|e| {
        format!(
            "cannot write {} (the report of {}): {e}; run `taintprof report {}` instead",
            target.display(),
            record.display(),
            record.display()
        )
    })?;
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
/// ([`report_from_record`]), a denormal record likewise into its denormal report
/// (`crate::denormal::report_from_record`), or the error saying why it could not be.
pub fn reports_of_new_files(new: &[PathBuf]) -> Vec<Result<PathBuf, String>> {
    let mut out = Vec::new();
    for p in new {
        if let Some(json) = crate::denormal::report_path_of_record(p) {
            if !new.contains(&json) {
                out.push(crate::denormal::report_from_record(p));
            }
            continue;
        }
        match report_path_of_record(p) {
            // The runtime (or whatever ran) wrote the report too: shown in its place.
            Some(json) if new.contains(&json) => {}
            Some(_) => out.push(report_from_record(p)),
            None => out.push(Ok(p.clone())),
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
fn signal_name(sig: i32) -> Option<&'static str> {
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
        let dir = std::env::temp_dir().join(format!("taintprof-run-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
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
    fn records_without_a_new_report_are_analysed_in_place() {
        let dir = std::env::temp_dir().join(format!("taintprof-run-rec-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
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
