//! Helpers shared by the driver's integration tests.

// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A test's working directory: removed when the test passes, kept for a look when it
/// fails.
pub struct WorkDir(pub PathBuf);

impl std::ops::Deref for WorkDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("test files kept in {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// An empty directory `<tmp>/taintprof-<prefix>-<name>-<pid>`, removed when the test
/// passes ([`WorkDir`]); those a failed test kept go with the next run's sweep.
pub fn fresh_dir(prefix: &str, name: &str) -> WorkDir {
    WorkDir(scratch_dir(prefix, name))
}

/// An empty directory `<tmp>/taintprof-<prefix>-<name>-<pid>`, kept after the test for
/// inspection. The first call for a prefix in a test process removes that prefix's
/// directories of processes that are gone ([`sweep_stale_scratch`]), so each suite run
/// leaves one set behind instead of adding one more.
pub fn scratch_dir(prefix: &str, name: &str) -> PathBuf {
    static SWEPT: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    {
        let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
        if swept.insert(prefix.to_string()) {
            sweep_stale_scratch(&format!("taintprof-{prefix}-"));
        }
    }
    let dir =
        std::env::temp_dir().join(format!("taintprof-{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Removes the `<tmp>/<start>…-<pid>` entries whose test process no longer runs (no
/// `/proc/<pid>`), as `taintprof_tests::scratch_dir` does for `target/e2e`. Entries of a
/// live process (another suite running beside this one) are left alone.
fn sweep_stale_scratch(start: &str) {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if !name.starts_with(start) {
            continue;
        }
        let Some(Ok(pid)) = name.rsplit_once('-').map(|(_, p)| p.parse::<u32>()) else {
            continue;
        };
        if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let _ = match e.file_type() {
            Ok(t) if t.is_dir() => std::fs::remove_dir_all(e.path()),
            _ => std::fs::remove_file(e.path()),
        };
    }
}

/// Bytes a program printed, as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
