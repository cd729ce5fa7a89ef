//! Running one command of an experiment: in a process group of its own (so that a
//! launcher's processes, `mpirun` and its ranks, are stopped together), its output into
//! files, its wall time taken by a thread blocked in `wait` (the moment it ends, not
//! the next poll), a timeout, and stopping on SIGINT/SIGTERM.
//!
//! The child is in another process group than the terminal's foreground group, so
//! Ctrl-C reaches only taintprof: [`install_stop_handlers`] records the signal, and the
//! running command's group gets SIGTERM, then SIGKILL after [`GRACE`]. Should taintprof
//! itself be killed (SIGKILL), the command gets SIGTERM from the kernel
//! (`PR_SET_PDEATHSIG`).

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// How long a command stopped with SIGTERM has before SIGKILL.
pub const GRACE: Duration = Duration::from_secs(2);

/// How often the wait checks for a timeout or a stop request.
const POLL: Duration = Duration::from_millis(20);

/// The signal that asked the experiment to stop (0: none).
static STOP: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_stop(sig: libc::c_int) {
    STOP.store(sig, Ordering::SeqCst);
}

/// Makes SIGINT, SIGTERM and SIGHUP stop the experiment after the running command
/// ([`stop_requested`]) instead of killing taintprof.
pub fn install_stop_handlers() {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the handler only stores into an atomic (async-signal-safe); the
        // sigaction struct is zero-initialized, then filled in.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut sa.sa_mask);
            sa.sa_flags = libc::SA_RESTART;
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// The signal that asked the experiment to stop, if one did.
pub fn stop_requested() -> Option<i32> {
    match STOP.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// It ended by itself.
    Exited(ExitStatus),
    /// It ran longer than the timeout and was killed.
    TimedOut,
    /// The experiment was asked to stop (this signal) and the command was killed.
    Stopped(i32),
}

/// A finished command.
#[derive(Debug, Clone, Copy)]
pub struct Finished {
    pub outcome: Outcome,
    /// From just before the start to the end of the process.
    pub seconds: f64,
}

/// What to run.
pub struct Spec<'a> {
    pub argv: &'a [String],
    pub env: &'a [(&'a str, OsString)],
    pub stdout: &'a Path,
    pub stderr: &'a Path,
    pub timeout: Option<Duration>,
}

fn kill_group(pgid: i32, sig: i32) {
    // SAFETY: kill(2) has no memory-safety requirements; a group that is gone (ESRCH)
    // is fine.
    unsafe {
        libc::kill(-pgid, sig);
    }
}

/// Runs the command of `spec` to its end (or its timeout, or a stop request). An error
/// is a command that could not be started at all.
pub fn run(spec: &Spec) -> Result<Finished, String> {
    let (prog, args) = spec
        .argv
        .split_first()
        .ok_or_else(|| "empty command".to_string())?;
    let open = |p: &Path| {
        std::fs::File::create(p).map_err(|e| format!("cannot create {}: {e}", p.display()))
    };
    let mut cmd = Command::new(prog);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(open(spec.stdout)?)
        .stderr(open(spec.stderr)?)
        .process_group(0);
    for (k, v) in spec.env {
        cmd.env(k, v);
    }
    // SAFETY: only async-signal-safe calls between fork and exec (prctl, getppid,
    // _exit); nothing allocates.
    let parent = std::process::id() as libc::pid_t;
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run `{prog}`: {e}"))?;
    let pgid = child.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let status = child.wait();
        let _ = tx.send((status, Instant::now()));
    });
    let deadline = spec.timeout.map(|t| start + t);
    let mut killed: Option<(Outcome, Instant)> = None;
    let (status, end) = loop {
        match rx.recv_timeout(POLL) {
            Ok(r) => break r,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err("lost the command's status".to_string())
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        let now = Instant::now();
        match killed {
            None => {
                let why = if let Some(sig) = stop_requested() {
                    Some(Outcome::Stopped(sig))
                } else if deadline.is_some_and(|d| now >= d) {
                    Some(Outcome::TimedOut)
                } else {
                    None
                };
                if let Some(why) = why {
                    kill_group(pgid, libc::SIGTERM);
                    killed = Some((why, now));
                }
            }
            Some((_, at)) if now >= at + GRACE => kill_group(pgid, libc::SIGKILL),
            Some(_) => {}
        }
    };
    let _ = waiter.join();
    let seconds = end.duration_since(start).as_secs_f64();
    let status = status.map_err(|e| format!("waiting for `{prog}`: {e}"))?;
    Ok(Finished {
        outcome: match killed {
            Some((why, _)) => {
                // What the leader left behind in its group.
                kill_group(pgid, libc::SIGKILL);
                why
            }
            None => Outcome::Exited(status),
        },
        seconds,
    })
}

/// `exit status 3`, `killed by signal 11 (SIGSEGV)`.
pub fn describe_status(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit status {c}"),
        (None, Some(s)) => format!("killed by signal {s} ({})", signal_name(s)),
        _ => "ended abnormally".to_string(),
    }
}

/// `SIGTERM` for 15 (the names `taintprof run` knows, [`crate::run::signal_name`];
/// `signal N` otherwise).
pub fn signal_name(sig: i32) -> String {
    crate::run::signal_name(sig).map_or_else(|| format!("signal {sig}"), str::to_string)
}

/// The last `lines` lines of the file at `path` (at most its last 4 KiB).
pub fn tail(path: &Path, lines: usize) -> Vec<String> {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let from = len.saturating_sub(4096);
    let mut buf = Vec::new();
    if f.seek(SeekFrom::Start(from)).is_err() || f.read_to_end(&mut buf).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&buf);
    let all: Vec<&str> = text.lines().collect();
    // A partial first line (cut by the 4 KiB) is dropped.
    let skip = usize::from(from > 0 && all.len() > 1);
    let all = &all[skip..];
    all[all.len().saturating_sub(lines)..]
        .iter()
        .map(|s| s.to_string())
        .collect()
}
