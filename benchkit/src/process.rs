//! Running one measured process: its output, wall-clock time, and the resources the
//! kernel accounted to it (peak resident memory and CPU time), with an optional time
//! limit.
//!
//! A process's peak resident memory (`ru_maxrss`) survives `exec`: it includes the
//! memory of the process it was forked from, at the fork. A program started directly by
//! the bench would report at least the bench's own few MiB, so programs are started
//! through `tp_spawn` (`bench/tools/tp_spawn.c`, built by the bench with clang,
//! statically linked when possible): a tiny process that forks the program, reaps it
//! with `wait4` and writes its `ru_maxrss`, CPU and wall-clock times to a file. Linux
//! takes `ru_maxrss` as the maximum over the process and the descendants it waited for,
//! so `taintprof dip -- prog` reports the larger of the driver and the program, and
//! `valgrind prog` the valgrind process, which holds the program. Without the helper
//! ([`Spawn::direct`]) the figures come from the bench's own `wait4` and include its
//! memory at the fork.

use anyhow::{Context, Result};
use std::ffi::OsString;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A run stopped at its time limit.
#[derive(Debug)]
pub struct TimedOut(pub u64);

impl std::fmt::Display for TimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "timed out after {} s", self.0)
    }
}

impl std::error::Error for TimedOut {}

/// What the kernel accounted to a finished process.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Usage {
    /// Peak resident set size in KiB (`ru_maxrss`).
    pub max_rss_kib: u64,
    /// User + system CPU seconds.
    pub cpu_seconds: f64,
}

/// A finished process.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// From just before the process was started until it was reaped.
    pub seconds: f64,
    pub usage: Usage,
}

/// The source of the spawn helper.
pub const SPAWN_SOURCE: &str = include_str!("../../bench/tools/tp_spawn.c");

/// How measured programs are started.
#[derive(Debug, Clone)]
pub struct Spawn {
    /// `tp_spawn`, or `None`: the bench starts programs itself.
    pub helper: Option<PathBuf>,
    /// Why there is no helper (shown with the memory figures).
    pub why_direct: Option<String>,
}

impl Spawn {
    /// Without the helper.
    pub fn direct(why: &str) -> Spawn {
        Spawn {
            helper: None,
            why_direct: Some(why.to_string()),
        }
    }

    /// Builds `tp_spawn` into `dir` with `clang`: static if the C library allows,
    /// dynamic otherwise; direct (with the reason) if neither builds.
    pub fn build(clang: &Path, dir: &Path) -> Spawn {
        let build = || -> Result<PathBuf, String> {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            let src = dir.join("tp_spawn.c");
            let exe = dir.join("tp_spawn");
            std::fs::write(&src, SPAWN_SOURCE).map_err(|e| e.to_string())?;
            let mut last = String::new();
            for extra in [&["-static"][..], &[][..]] {
                let out = Command::new(clang)
                    .args(["-O2", "-w"])
                    .args(extra)
                    .arg(&src)
                    .arg("-o")
                    .arg(&exe)
                    .stdin(Stdio::null())
                    .output()
                    .map_err(|e| format!("cannot run {}: {e}", clang.display()))?;
                if out.status.success() {
                    return Ok(exe);
                }
                last = String::from_utf8_lossy(&out.stderr).into_owned();
            }
            Err(format!("cannot build tp_spawn: {}", last.trim()))
        };
        match build() {
            Ok(exe) => Spawn {
                helper: Some(exe),
                why_direct: None,
            },
            Err(e) => Spawn::direct(&e),
        }
    }

    /// The command that runs `argv` (program first), writing the helper's figures to
    /// `figures`.
    pub fn command(&self, argv: &[OsString], figures: &Path) -> Command {
        match &self.helper {
            Some(h) => {
                let mut c = Command::new(h);
                c.arg(figures).args(argv);
                c
            }
            None => {
                let mut c = Command::new(&argv[0]);
                c.args(&argv[1..]);
                c
            }
        }
    }
}

/// The helper's line: `<max_rss_kib> <user_s> <system_s> <wall_s>`.
pub fn parse_figures(line: &str) -> Option<(Usage, f64)> {
    let v: Vec<&str> = line.split_whitespace().collect();
    if v.len() != 4 {
        return None;
    }
    let kib = v[0].parse::<u64>().ok()?;
    let user = v[1].parse::<f64>().ok()?;
    let sys = v[2].parse::<f64>().ok()?;
    let wall = v[3].parse::<f64>().ok()?;
    Some((
        Usage {
            max_rss_kib: kib,
            cpu_seconds: user + sys,
        },
        wall,
    ))
}

/// Runs `spawn.command(argv)` like [`run_measured`]; with the helper, the figures are
/// the helper's (the program's alone).
pub fn run_spawned(
    spawn: &Spawn,
    argv: &[OsString],
    setup: impl FnOnce(&mut Command),
    figures: &Path,
    timeout: Option<u64>,
) -> Result<Finished> {
    let _ = std::fs::remove_file(figures);
    let mut cmd = spawn.command(argv, figures);
    setup(&mut cmd);
    let mut f = run_measured(&mut cmd, timeout)?;
    if spawn.helper.is_some() {
        let line = std::fs::read_to_string(figures).unwrap_or_default();
        let _ = std::fs::remove_file(figures);
        match parse_figures(&line) {
            Some((usage, wall)) => {
                f.usage = usage;
                f.seconds = wall;
            }
            None if f.status.code() == Some(127) => {
                // The program did not start; its error is in stderr.
            }
            None => anyhow::bail!(
                "tp_spawn wrote no figures to {} (status {})",
                figures.display(),
                taintprof_driver::exit_code(f.status)
            ),
        }
    }
    Ok(f)
}

/// Runs `cmd` (its stdout and stderr must be piped or null) to completion. With a time
/// limit the child runs in its own process group, which is killed (SIGKILL) when the
/// limit passes, and the error is [`TimedOut`].
pub fn run_measured(cmd: &mut Command, timeout: Option<u64>) -> Result<Finished> {
    use std::io::Read;
    if timeout.is_some() {
        // Tools that run the program as a child (`taintprof dip`) are killed with it.
        cmd.process_group(0);
    }
    let started = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut b = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut b);
            }
            b
        })
    };
    let out_reader = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err_reader = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );

    // The child is reaped here, with wait4, and never through `child` (whose drop does
    // not wait), so the rusage is the one of this process.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = wait4(pid);
        let _ = tx.send((r, Instant::now()));
    });
    let reaped = match timeout {
        None => rx.recv().ok(),
        Some(limit) => match rx.recv_timeout(Duration::from_secs(limit)) {
            Ok(r) => Some(r),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // SAFETY: kill(2) on the process group created for this child above; no
                // memory is involved.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
                let _ = rx.recv();
                let _ = out_reader.join();
                let _ = err_reader.join();
                return Err(TimedOut(limit).into());
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
        },
    };
    let (result, ended) = reaped.context("the thread waiting for the child stopped")?;
    let (raw, usage) = result.with_context(|| format!("cannot wait for process {pid}"))?;
    Ok(Finished {
        status: ExitStatus::from_raw(raw),
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        seconds: ended.duration_since(started).as_secs_f64(),
        usage,
    })
}

/// Blocks until `pid` ends; its raw wait status and resource usage.
fn wait4(pid: libc::pid_t) -> std::io::Result<(i32, Usage)> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain old data; wait4 fills it for the child it reaps.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 on our own child, with valid pointers to locals.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
        if r == pid {
            let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
            return Ok((
                status,
                Usage {
                    max_rss_kib: ru.ru_maxrss.max(0) as u64,
                    cpu_seconds: secs(ru.ru_utime) + secs(ru.ru_stime),
                },
            ));
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("/bin/sh");
        c.args(["-c", script])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    #[test]
    fn output_status_and_time() {
        let f = run_measured(&mut sh("echo out; echo err >&2; sleep 0.2; exit 3"), None).unwrap();
        assert_eq!(f.stdout, b"out\n");
        assert_eq!(f.stderr, b"err\n");
        assert_eq!(f.status.code(), Some(3));
        assert!(f.seconds >= 0.2 && f.seconds < 5.0, "{}", f.seconds);
        assert!(f.usage.max_rss_kib > 0);
    }

    #[test]
    fn peak_memory_is_the_childs() {
        // dd fills a 64 MiB buffer (from /dev/zero), so it peaks above that; a trivial
        // child far below (this test process itself may be large: it must not count).
        let big = run_measured(
            &mut sh("exec dd if=/dev/zero of=/dev/null bs=64M count=1"),
            None,
        )
        .unwrap();
        assert!(
            big.status.success(),
            "{}",
            String::from_utf8_lossy(&big.stderr)
        );
        assert!(big.usage.max_rss_kib >= 64 << 10, "{:?}", big.usage);
        let small = run_measured(&mut sh("true"), None).unwrap();
        assert!(small.usage.max_rss_kib < 32 << 10, "{:?}", small.usage);
    }

    #[test]
    fn figures_line() {
        assert_eq!(
            parse_figures("2048 0.5 0.25 1.5\n"),
            Some((
                Usage {
                    max_rss_kib: 2048,
                    cpu_seconds: 0.75
                },
                1.5
            ))
        );
        assert_eq!(parse_figures(""), None);
        assert_eq!(parse_figures("1 2 3"), None);
    }

    #[test]
    fn the_helper_reports_the_programs_own_memory_and_status() {
        let clang = Path::new("/usr/bin/clang-19");
        assert!(
            clang.exists(),
            "clang-19 not found (/usr/bin/clang-19), needed to build tp_spawn: run scripts/setup.sh or apt-get install clang-19"
        );
        let dir = std::env::temp_dir().join(format!("tp-spawn-test-{}", std::process::id()));
        let spawn = Spawn::build(clang, &dir);
        assert!(spawn.helper.is_some(), "{:?}", spawn.why_direct);
        let figures = dir.join("figures");
        let run = |script: &str| {
            let argv: Vec<OsString> = ["/bin/sh", "-c", script].map(OsString::from).to_vec();
            run_spawned(
                &spawn,
                &argv,
                |c| {
                    c.stdin(Stdio::null())
                        .stdout(Stdio::piped())
                        .stderr(Stdio::piped());
                },
                &figures,
                Some(60),
            )
            .unwrap()
        };
        // A trivial program peaks at its own megabyte or two, however large the bench
        // (this test process) is.
        let f = run("exit 3");
        assert_eq!(f.status.code(), Some(3));
        assert!(
            f.usage.max_rss_kib > 0 && f.usage.max_rss_kib < 4 << 10,
            "{:?}",
            f.usage
        );
        let f = run("exec dd if=/dev/zero of=/dev/null bs=64M count=1");
        assert!(f.usage.max_rss_kib >= 64 << 10, "{:?}", f.usage);
        let f = run("sleep 0.2; echo hi");
        assert_eq!(f.stdout, b"hi\n");
        assert!(f.seconds >= 0.2 && f.seconds < 5.0);
        let f = run("kill -TERM $$");
        assert_eq!(taintprof_driver::exit_code(f.status), 128 + 15);
        let argv: Vec<OsString> = vec!["/no/such/program".into()];
        let f = run_spawned(
            &spawn,
            &argv,
            |c| {
                c.stdout(Stdio::piped()).stderr(Stdio::piped());
            },
            &figures,
            None,
        )
        .unwrap();
        assert_eq!(f.status.code(), Some(127));
        assert!(String::from_utf8_lossy(&f.stderr).contains("cannot run /no/such/program"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn time_limit_kills_the_process_group() {
        let started = Instant::now();
        let e = run_measured(&mut sh("sleep 30 & sleep 30; wait"), Some(1)).unwrap_err();
        assert!(e.downcast_ref::<TimedOut>().is_some(), "{e}");
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
