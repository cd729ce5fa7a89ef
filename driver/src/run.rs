//! `taintprof run`: run an instrumented program, then summarize the report(s) it wrote.
//! Taint reports (`.taintprof.json`) and denormal reports (`.denormal.json`, from
//! builds with `--tp-mode=denormal`) are both recognized.
//!
//! The program runs with `TAINTPROF_OUT` set to the report directory and its output
//! goes straight to the terminal. Afterwards every report that appeared in (or was
//! rewritten in) that directory during the run is summarized on stderr: the program's
//! own first, then those of its child processes. While the program runs, taintprof
//! ignores SIGINT and SIGQUIT (as `system()` does), so Ctrl-C stops the program, and the
//! report it wrote on the way out is still shown.

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
    let stem = file_name.strip_suffix(REPORT_SUFFIX)?;
    let (name, pid) = stem.rsplit_once('.')?;
    if name.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name, pid.parse().ok()?))
}

/// If `file_name` is a taint or denormal run report, its program name and pid.
pub fn parse_any_report_name(file_name: &str) -> Option<(&str, u32)> {
    parse_report_name(file_name)
        .or_else(|| crate::denormal::parse_name(file_name, crate::denormal::COMPILER_SUFFIX))
}

/// The reports in `dir` with their modification times.
fn reports_in(dir: &Path) -> HashMap<PathBuf, Option<SystemTime>> {
    let mut found = HashMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        if parse_any_report_name(&name.to_string_lossy()).is_some() {
            let mtime = e.metadata().ok().and_then(|m| m.modified().ok());
            found.insert(e.path(), mtime);
        }
    }
    found
}

/// Reports in `dir` that are new or changed compared with `before`; the one of process
/// `pid` first, then by pid.
pub fn new_reports(
    dir: &Path,
    before: &HashMap<PathBuf, Option<SystemTime>>,
    pid: u32,
) -> Vec<PathBuf> {
    let mut new: Vec<(bool, u32, PathBuf)> = reports_in(dir)
        .into_iter()
        .filter(|(p, t)| before.get(p) != Some(t))
        .map(|(p, _)| {
            let file_pid = p
                .file_name()
                .and_then(|n| parse_any_report_name(&n.to_string_lossy()).map(|(_, pid)| pid))
                .unwrap_or(0);
            (file_pid != pid, file_pid, p)
        })
        .collect();
    new.sort();
    new.into_iter().map(|(_, _, p)| p).collect()
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

    let reports = new_reports(&out_dir, &before, pid);
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

fn no_report_message(program: &OsString, dir: &Path, status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    let name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let how = match status.signal() {
        Some(sig) => format!("was killed by signal {sig}"),
        None => format!("exited with code {}", status.code().unwrap_or(0)),
    };
    format!(
        "\ntaintprof: {name} {how} and wrote no report into {}. Possible reasons:\n\
         \x20 - it was not built with taintprof-cc / taintprof-c++ (check: nm {} | grep __tp_register_module)\n\
         \x20 - it died in a way that prevents the report (SIGKILL, an abort inside the runtime, exec without exit)\n\
         \x20 - the directory is not writable by the program (choose another with --out DIR)",
        dir.display(),
        Path::new(program).display()
    )
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
}
