//! Creating directories and writing a file atomically.
//!
//! Why: a report must never be seen half written, also when it is written from a
//! fatal-signal handler, when two writers race (an exit racing a signal on another
//! thread, a mid-run report replaced by the final one), or when the directory is shared
//! by many processes (a test suite). One implementation serves the runtime, the
//! preloaded profiler and the symbolizer.
//!
//! Invariants of [`write_atomic`]:
//! * the content goes to a new temporary file in the destination's own directory
//!   (`.<name>.<pid>.<tid>.<n>.tmp`, created with `O_EXCL`, so it is never someone
//!   else's file), which is renamed over the destination only after every byte was
//!   written and the file closed without error: readers see the old file or the whole
//!   new one;
//! * on any failure the temporary file is removed and the destination is untouched;
//! * [`Durability::Rename`] does not `fsync` (a report written at exit or in a dying
//!   process must not wait for the disk; a power loss may lose it, never truncate it);
//!   [`Durability::Fsync`] syncs the file before the rename;
//! * no allocation: paths are built in [`StackBuf`]s, the content streams through an
//!   [`FdSink`] on the stack.

use core::fmt::Write as _;
use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::buf::{Lossy, StackBuf};
use crate::io::FdSink;
use crate::os::{errno, getpid, gettid};

/// Longest path handled (`PATH_MAX` with its NUL).
pub const PATH_MAX: usize = 4096;

/// Creates `dir` and its parents, like `mkdir -p` (mode 0777 before the umask). Errors
/// are ignored: the file write that follows reports them.
pub fn mkdir_p(dir: &[u8]) {
    let mut b = StackBuf::<{ PATH_MAX + 1 }>::new();
    for (i, &c) in dir.iter().enumerate() {
        if c == b'/' && i > 0 {
            b.clear();
            b.push_bytes(dir.get(..i).unwrap_or(&[]));
            if let Some(p) = b.as_cstr() {
                // SAFETY: NUL-terminated path.
                unsafe { libc::mkdir(p, 0o777) };
            }
        }
    }
    b.clear();
    b.push_bytes(dir);
    if let Some(p) = b.as_cstr() {
        // SAFETY: NUL-terminated path.
        unsafe { libc::mkdir(p, 0o777) };
    }
}

/// Whether [`write_atomic`] syncs the file to disk before renaming it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// Atomic for readers, no `fsync` (the runtimes' reports).
    Rename,
    /// `fsync` before the rename (files written outside a dying process).
    Fsync,
}

/// Numbers temporary files of this process apart.
static TMP_COUNTER: AtomicU32 = AtomicU32::new(0);

/// How often a temporary name that already exists (left by a crashed process with the
/// same thread id) is replaced by the next one.
const TMP_ATTEMPTS: u32 = 16;

/// Writes the file `path` atomically (see the module docs): `body` streams the content
/// into the sink. Returns the number of bytes written, or the errno of the first
/// failure (`ENAMETOOLONG` for a path of [`PATH_MAX`] bytes or more, `EISDIR` for one
/// ending in `/`). The directory must exist ([`mkdir_p`]).
pub fn write_atomic(
    path: &[u8],
    durability: Durability,
    body: impl FnOnce(&mut FdSink),
) -> Result<u64, i32> {
    let (dir, name) = match path.iter().rposition(|&c| c == b'/') {
        Some(i) => (
            path.get(..i + 1).unwrap_or(&[]),
            path.get(i + 1..).unwrap_or(&[]),
        ),
        None => (&b""[..], path),
    };
    if name.is_empty() {
        return Err(libc::EISDIR);
    }
    let mut dst = StackBuf::<PATH_MAX>::new();
    dst.push_bytes(path);
    let Some(dst_c) = dst.as_cstr() else {
        return Err(libc::ENAMETOOLONG);
    };
    let mut tmp = StackBuf::<PATH_MAX>::new();
    let mut fd = -1;
    for _ in 0..TMP_ATTEMPTS {
        tmp.clear();
        tmp.push_bytes(dir);
        let _ = write!(
            tmp,
            ".{}.{}.{}.{}.tmp",
            Lossy(name),
            getpid(),
            gettid(),
            TMP_COUNTER.fetch_add(1, Relaxed)
        );
        let Some(tmp_c) = tmp.as_cstr() else {
            return Err(libc::ENAMETOOLONG);
        };
        // SAFETY: NUL-terminated path; the descriptor is closed below.
        fd = unsafe {
            libc::open(
                tmp_c,
                libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC,
                0o644,
            )
        };
        if fd >= 0 || errno() != libc::EEXIST {
            break;
        }
    }
    if fd < 0 {
        return Err(errno().max(1));
    }
    let Some(tmp_c) = tmp.as_cstr() else {
        return Err(libc::ENAMETOOLONG);
    };
    let mut sink = FdSink::new(fd);
    body(&mut sink);
    sink.flush();
    let mut err = sink.error().unwrap_or(0);
    // SAFETY: our descriptor.
    if err == 0 && durability == Durability::Fsync && unsafe { libc::fsync(fd) } != 0 {
        err = errno().max(1);
    }
    // SAFETY: our descriptor, closed exactly once.
    let closed = unsafe { libc::close(fd) };
    if err == 0 && closed != 0 {
        err = errno().max(1);
    }
    if err == 0 {
        // SAFETY: NUL-terminated paths.
        if unsafe { libc::rename(tmp_c, dst_c) } == 0 {
            return Ok(sink.written());
        }
        err = errno().max(1);
    }
    // SAFETY: NUL-terminated path of our temporary file.
    unsafe { libc::unlink(tmp_c) };
    Err(err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Sink as _;
    use std::os::unix::ffi::OsStrExt;
    use std::path::PathBuf;
    use std::string::String;
    use std::vec::Vec;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(std::format!(
            "taintprof-sigsafe-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn entries(d: &PathBuf) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_replace_atomically_and_leave_no_temporary_file() {
        let d = scratch("atomic").join("a/b");
        mkdir_p(d.as_os_str().as_bytes());
        assert!(d.is_dir());
        let f = d.join("r.json");
        let p = f.as_os_str().as_bytes();
        let n = write_atomic(p, Durability::Rename, |s| s.put(b"{\"v\": 1}\n")).unwrap();
        assert_eq!(n, 9);
        assert_eq!(std::fs::read(&f).unwrap(), b"{\"v\": 1}\n");
        let big = std::vec![b'x'; 100_000];
        let n = write_atomic(p, Durability::Fsync, |s| s.put(&big)).unwrap();
        assert_eq!(n, 100_000);
        assert_eq!(std::fs::read(&f).unwrap().len(), 100_000);
        assert_eq!(entries(&d), ["r.json"]);
        let _ = std::fs::remove_dir_all(scratch("atomic"));
    }

    #[test]
    fn failures_leave_the_destination_alone() {
        let d = scratch("fail");
        mkdir_p(d.as_os_str().as_bytes());
        let f = d.join("r.json");
        let p = f.as_os_str().as_bytes();
        write_atomic(p, Durability::Rename, |s| s.put(b"old")).unwrap();
        // The destination is a non-empty directory: the rename fails.
        let sub = d.join("dir.json");
        std::fs::create_dir_all(sub.join("x")).unwrap();
        let e = write_atomic(sub.as_os_str().as_bytes(), Durability::Rename, |s| {
            s.put(b"new")
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read(&f).unwrap(), b"old");
        assert_eq!(entries(&d), ["dir.json", "r.json"]);
        // No such directory, a name ending in '/', a path too long.
        let missing = d.join("nope/r.json");
        assert_eq!(
            write_atomic(missing.as_os_str().as_bytes(), Durability::Rename, |_| {}),
            Err(libc::ENOENT)
        );
        assert_eq!(
            write_atomic(b"/tmp/", Durability::Rename, |_| {}),
            Err(libc::EISDIR)
        );
        let long = std::vec![b'a'; PATH_MAX + 10];
        assert_eq!(
            write_atomic(&long, Durability::Rename, |_| {}),
            Err(libc::ENAMETOOLONG)
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
