//! `taintprof dip -- PROG ARGS`: profile the denormals of an unmodified, dynamically
//! linked x86-64 program with the exception-based profiler.
//!
//! 1. Check the program: an ELF file without a program interpreter (`PT_INTERP`) is
//!    statically linked and cannot be preloaded — say so instead of running it
//!    unprofiled. Scripts are fine: the interpreter and its children are profiled.
//! 2. Run it with `LD_PRELOAD=libtaintprof_dip.so` (found like the plugin, see
//!    [`crate::locate`]), `TAINTPROF_OUT` and the profiler's knobs; stdio is the
//!    terminal's; Ctrl-C stops the program, not taintprof.
//! 3. Symbolize every raw report the run wrote (`<prog>.<pid>.dip-raw.json`, children's
//!    too) into `<prog>.<pid>.dip.json` with `taintprof_symbolize::symbolize_file`, and
//!    print the tables of `taintprof denormals` on stderr (the program's stdout stays
//!    clean); `--html DIR` also writes the pages, `--compare` sets the result against a
//!    compiler-mode report.
//! 4. Exit with the program's status.

use crate::denormal::{self, compare, html, render, summary};
use crate::locate::Locator;
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// What `taintprof dip` was asked to do.
#[derive(Debug, Clone, Default)]
pub struct DipOptions {
    /// Report directory (default: `$TAINTPROF_OUT`, else the working directory).
    pub out: Option<PathBuf>,
    /// Also count underflow exceptions (denormal results).
    pub underflow: bool,
    /// Timeline interval.
    pub interval_ms: Option<u64>,
    /// Count every event (`TAINTPROF_DIP_EXACT=1`); default: sampled.
    pub exact: bool,
    /// Sampled mode's overhead budget, percent (`TAINTPROF_DIP_OVERHEAD`).
    pub overhead_pct: Option<u64>,
    /// A compiler-mode report to compare with.
    pub compare: Option<PathBuf>,
    /// Write the HTML pages here.
    pub html: Option<PathBuf>,
    /// Sites to show (`None`: the default; `Some(0)`: all).
    pub top: Option<usize>,
}

/// Largest timeline interval the profiler accepts.
pub const MAX_INTERVAL_MS: u64 = 3_600_000;
/// Largest overhead budget the profiler accepts, percent.
pub const MAX_OVERHEAD_PCT: u64 = 1000;

/// `--overhead PCT`: a whole number of percent in 1..=1000, with or without `%`.
pub fn parse_overhead(s: &str) -> std::result::Result<u64, String> {
    let t = s.trim();
    let t = t.strip_suffix('%').unwrap_or(t).trim_end();
    match t.parse::<u64>() {
        Ok(n) if (1..=MAX_OVERHEAD_PCT).contains(&n) => Ok(n),
        Ok(n) => Err(format!(
            "the overhead budget must be between 1 and {MAX_OVERHEAD_PCT} percent (got {n}); use --exact to count every event"
        )),
        Err(_) => Err(format!(
            "`{s}` is not a whole number of percent (e.g. --overhead 10 for 10% over the program's own time)"
        )),
    }
}

/// What kind of executable a file is, as far as preloading goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Executable {
    /// A dynamically linked x86-64 ELF executable: can be preloaded.
    Dynamic,
    /// An x86-64 ELF file without a program interpreter: statically linked.
    Static,
    /// A 32-bit ELF file.
    Elf32,
    /// An ELF file for another machine (`e_machine`).
    OtherMachine(u16),
    /// Not ELF (e.g. a script): the kernel runs its interpreter, which is preloaded.
    NotElf,
}

const PT_INTERP: u32 = 3;
const EM_X86_64: u16 = 62;

/// Classifies the bytes of an executable (its first few kilobytes suffice).
pub fn classify_executable(bytes: &[u8]) -> Executable {
    if bytes.len() < 20 || &bytes[..4] != b"\x7fELF" {
        return Executable::NotElf;
    }
    let little = bytes[5] == 1;
    let u16_at = |o: usize| -> Option<u16> {
        let b: [u8; 2] = bytes.get(o..o + 2)?.try_into().ok()?;
        Some(if little {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        })
    };
    let u32_at = |o: usize| -> Option<u32> {
        let b: [u8; 4] = bytes.get(o..o + 4)?.try_into().ok()?;
        Some(if little {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        })
    };
    let u64_at = |o: usize| -> Option<u64> {
        let b: [u8; 8] = bytes.get(o..o + 8)?.try_into().ok()?;
        Some(if little {
            u64::from_le_bytes(b)
        } else {
            u64::from_be_bytes(b)
        })
    };
    if bytes[4] != 2 {
        return Executable::Elf32;
    }
    let machine = u16_at(18).unwrap_or(0);
    if machine != EM_X86_64 {
        return Executable::OtherMachine(machine);
    }
    let (Some(phoff), Some(phentsize), Some(phnum)) = (u64_at(32), u16_at(54), u16_at(56)) else {
        return Executable::Static;
    };
    for i in 0..u64::from(phnum) {
        let off = phoff.saturating_add(i.saturating_mul(u64::from(phentsize)));
        match usize::try_from(off).ok().and_then(u32_at) {
            Some(PT_INTERP) => return Executable::Dynamic,
            Some(_) => {}
            // Program headers beyond what was read: assume dynamic (the usual case)
            // rather than refuse a program we could profile.
            None => return Executable::Dynamic,
        }
    }
    Executable::Static
}

/// Reads enough of `path` to classify it.
pub fn executable_kind(path: &Path) -> std::io::Result<Executable> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 16384];
    let mut n = 0;
    while n < buf.len() {
        let k = f.read(&mut buf[n..])?;
        if k == 0 {
            break;
        }
        n += k;
    }
    buf.truncate(n);
    Ok(classify_executable(&buf))
}

/// The program file `program` names: a path, or a name looked up on `PATH`.
pub fn resolve_program(program: &Path) -> Result<PathBuf> {
    if program.as_os_str().is_empty() {
        bail!("no program given: taintprof dip -- PROG ARGS");
    }
    if program.components().count() > 1 || program.is_absolute() {
        if !program.exists() {
            bail!("cannot run {}: no such file", program.display());
        }
        return Ok(program.to_path_buf());
    }
    Locator::from_process()
        .search_path(&program.to_string_lossy())
        .with_context(|| format!("cannot run {}: not found on PATH", program.display()))
}

/// Checks that `program` can be profiled by preloading; the error says why not.
pub fn check_program(program: &Path) -> Result<()> {
    let kind =
        executable_kind(program).with_context(|| format!("cannot read {}", program.display()))?;
    match kind {
        Executable::Dynamic | Executable::NotElf => Ok(()),
        Executable::Static => bail!(
            "{} is statically linked (no program interpreter), so LD_PRELOAD cannot load the profiler into it; link it dynamically, or build it with `taintprof-cc --tp-mode=denormal` for the compiler-mode profile",
            program.display()
        ),
        Executable::Elf32 => bail!(
            "{} is a 32-bit program; the denormal exception profiler runs x86-64 programs only",
            program.display()
        ),
        Executable::OtherMachine(m) => bail!(
            "{} is not an x86-64 program (ELF machine {m}); the denormal exception profiler runs x86-64 programs only",
            program.display()
        ),
    }
}

/// Raw reports in `dir` with their modification times.
fn raw_reports_in(dir: &Path) -> HashMap<PathBuf, Option<SystemTime>> {
    let mut found = HashMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        if denormal::parse_name(&name.to_string_lossy(), denormal::RAW_SUFFIX).is_some() {
            let mtime = e.metadata().ok().and_then(|m| m.modified().ok());
            found.insert(e.path(), mtime);
        }
    }
    found
}

/// Raw reports new or changed since `before`: process `pid`'s first, then by pid.
fn new_raw_reports(
    dir: &Path,
    before: &HashMap<PathBuf, Option<SystemTime>>,
    pid: u32,
) -> Vec<PathBuf> {
    let mut new: Vec<(bool, u32, PathBuf)> = raw_reports_in(dir)
        .into_iter()
        .filter(|(p, t)| before.get(p) != Some(t))
        .map(|(p, _)| {
            let file_pid = p
                .file_name()
                .and_then(|n| {
                    denormal::parse_name(&n.to_string_lossy(), denormal::RAW_SUFFIX)
                        .map(|(_, pid)| pid)
                })
                .unwrap_or(0);
            (file_pid != pid, file_pid, p)
        })
        .collect();
    new.sort();
    new.into_iter().map(|(_, _, p)| p).collect()
}

/// Runs `program` under the profiler; returns its exit status.
pub fn dip(opts: &DipOptions, program: &OsString, args: &[OsString]) -> Result<i32> {
    if let Some(ms) = opts.interval_ms {
        if !(1..=MAX_INTERVAL_MS).contains(&ms) {
            bail!("--interval-ms must be between 1 and {MAX_INTERVAL_MS} (got {ms})");
        }
    }
    // Everything that can fail before the run fails now.
    let compiler_report = match &opts.compare {
        Some(p) => {
            let r = denormal::load(p).map_err(anyhow::Error::msg)?;
            if r.mode != "compiler" {
                bail!(
                    "--compare {}: an {}-mode report; compare with a compiler-mode report (<program>.<pid>.denormal.json, from a build with taintprof-cc --tp-mode=denormal)",
                    p.display(),
                    r.mode
                );
            }
            Some((r, p.display().to_string()))
        }
        None => None,
    };
    let exe = resolve_program(Path::new(program))?;
    check_program(&exe)?;
    let lib = Locator::from_process()
        .dip_lib()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let out_dir = match opts
        .out
        .clone()
        .or_else(|| std::env::var_os(taintprof_abi::ENV_OUT_DIR).map(PathBuf::from))
        .filter(|p| !p.as_os_str().is_empty())
    {
        Some(d) => {
            std::fs::create_dir_all(&d)
                .with_context(|| format!("cannot create report directory {}", d.display()))?;
            d
        }
        None => std::env::current_dir().context("cannot read the working directory")?,
    };
    let out_dir = out_dir.canonicalize().unwrap_or(out_dir);
    let before = raw_reports_in(&out_dir);

    let mut preload = lib.clone().into_os_string();
    if let Some(old) = std::env::var_os("LD_PRELOAD").filter(|v| !v.is_empty()) {
        preload.push(":");
        preload.push(old);
    }
    let mut cmd = Command::new(program);
    cmd.args(args)
        .env("LD_PRELOAD", &preload)
        .env(taintprof_abi::ENV_OUT_DIR, &out_dir);
    if opts.underflow {
        cmd.env("TAINTPROF_DIP_UNDERFLOW", "1");
    }
    if let Some(ms) = opts.interval_ms {
        cmd.env("TAINTPROF_DIP_INTERVAL_MS", ms.to_string());
    }
    if opts.exact && opts.overhead_pct.is_some() {
        bail!("--overhead applies to the sampled mode; --exact counts every event");
    }
    if let Some(p) = opts.overhead_pct {
        if !(1..=MAX_OVERHEAD_PCT).contains(&p) {
            bail!("--overhead must be between 1 and {MAX_OVERHEAD_PCT} percent (got {p})");
        }
        cmd.env("TAINTPROF_DIP_OVERHEAD", p.to_string());
    }
    // Always explicit: a TAINTPROF_DIP_EXACT inherited from the environment must not
    // decide the mode behind the command line's back.
    cmd.env("TAINTPROF_DIP_EXACT", if opts.exact { "1" } else { "0" });
    if std::env::var_os("TAINTPROF_QUIET").is_none() {
        cmd.env("TAINTPROF_QUIET", "1");
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => bail!("cannot run {}: {e}", exe.display()),
    };
    let pid = child.id();
    let status = {
        let _guard = crate::run::IgnoreInterrupts::new();
        child.wait().context("waiting for the program")?
    };
    let code = crate::exit_code(status);

    let raws = new_raw_reports(&out_dir, &before, pid);
    if raws.is_empty() {
        use std::os::unix::process::ExitStatusExt;
        let how = match status.signal() {
            Some(sig) => format!("was killed by signal {sig}"),
            None => format!("exited with code {}", status.code().unwrap_or(0)),
        };
        errln!(
            "\ntaintprof dip: {} {how} and the profiler wrote no report into {}. Possible reasons:\n\
             \x20 - it died in a way that prevents the report (SIGKILL, exec of a statically linked program)\n\
             \x20 - it is setuid/setgid or otherwise ignores LD_PRELOAD\n\
             \x20 - the directory is not writable by the program (choose another with --out DIR)",
            Path::new(program).display(),
            out_dir.display()
        );
        return Ok(code);
    }
    let sopts = summary::SummaryOptions {
        top: match opts.top {
            None => Some(summary::DEFAULT_TOP),
            Some(0) => None,
            Some(n) => Some(n),
        },
    };
    if raws.len() > 1 {
        errln!(
            "\ntaintprof dip: {} processes wrote reports during the run",
            raws.len()
        );
    }
    let mut first: Option<(denormal::DenormalReport, String)> = None;
    let mut failed = false;
    for raw in &raws {
        match taintprof_symbolize::symbolize_file(raw) {
            Ok((report, path)) => {
                let shown = crate::run::display_path(&path);
                let s = summary::summarize(&report, &shown, &sopts);
                errln!();
                err!("{}", render::full(&s));
                if let Some(dir) = &opts.html {
                    let dir = if raws.len() > 1 {
                        dir.join(format!("{}.{}", report.program.name, report.program.pid))
                    } else {
                        dir.clone()
                    };
                    match html::write(&report, &s, &dir) {
                        Ok(w) => errln!(
                            "\ntaintprof dip: wrote {} ({} pictures)",
                            crate::run::display_path(&w.index),
                            w.images.len()
                        ),
                        Err(e) => {
                            errln!("taintprof: error: {e}");
                            failed = true;
                        }
                    }
                }
                if first.is_none() {
                    first = Some((report, shown));
                }
            }
            Err(e) => {
                errln!("taintprof: error: cannot symbolize {}: {e}", raw.display());
                failed = true;
            }
        }
    }
    if let (Some((comp, comp_file)), Some((exc, exc_file))) = (&compiler_report, &first) {
        match compare::compare(exc, exc_file, comp, comp_file) {
            Ok(c) => {
                errln!();
                err!("{}", compare::render(&c));
            }
            Err(e) => {
                errln!("taintprof: error: {e}");
                failed = true;
            }
        }
    }
    if failed && code == 0 {
        return Ok(1);
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elf(class: u8, machine: u16, phdrs: &[u32]) -> Vec<u8> {
        let mut b = vec![0u8; 64 + 56 * phdrs.len()];
        b[..4].copy_from_slice(b"\x7fELF");
        b[4] = class;
        b[5] = 1;
        b[18..20].copy_from_slice(&machine.to_le_bytes());
        b[32..40].copy_from_slice(&64u64.to_le_bytes());
        b[54..56].copy_from_slice(&56u16.to_le_bytes());
        b[56..58].copy_from_slice(&(phdrs.len() as u16).to_le_bytes());
        for (i, t) in phdrs.iter().enumerate() {
            let o = 64 + 56 * i;
            b[o..o + 4].copy_from_slice(&t.to_le_bytes());
        }
        b
    }

    #[test]
    fn classifies_executables() {
        assert_eq!(
            classify_executable(&elf(2, EM_X86_64, &[6, 3, 1])),
            Executable::Dynamic
        );
        assert_eq!(
            classify_executable(&elf(2, EM_X86_64, &[1, 1, 4])),
            Executable::Static
        );
        assert_eq!(classify_executable(&elf(1, 3, &[3])), Executable::Elf32);
        assert_eq!(
            classify_executable(&elf(2, 183, &[3])),
            Executable::OtherMachine(183)
        );
        assert_eq!(
            classify_executable(b"#!/bin/sh\necho\n"),
            Executable::NotElf
        );
        assert_eq!(classify_executable(b""), Executable::NotElf);
        // Program headers cut off: assume dynamic.
        let mut cut = elf(2, EM_X86_64, &[1, 3]);
        cut.truncate(70);
        assert_eq!(classify_executable(&cut), Executable::Dynamic);
    }

    #[test]
    fn overhead_values() {
        assert_eq!(parse_overhead("10"), Ok(10));
        assert_eq!(parse_overhead(" 25% "), Ok(25));
        assert_eq!(parse_overhead("1000"), Ok(1000));
        assert!(parse_overhead("0")
            .unwrap_err()
            .contains("between 1 and 1000"));
        assert!(parse_overhead("1001")
            .unwrap_err()
            .contains("between 1 and 1000"));
        assert!(parse_overhead("ten")
            .unwrap_err()
            .contains("not a whole number"));
        assert!(parse_overhead("1.5")
            .unwrap_err()
            .contains("not a whole number"));
        assert!(parse_overhead("-3")
            .unwrap_err()
            .contains("not a whole number"));
    }

    #[test]
    fn this_test_binary_is_dynamic() {
        let me = std::env::current_exe().unwrap();
        assert_eq!(executable_kind(&me).unwrap(), Executable::Dynamic);
    }
}
