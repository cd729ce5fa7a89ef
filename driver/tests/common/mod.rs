//! Helpers shared by the driver's integration tests.

// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

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
/// inspection; each run sweeps what runs that are gone kept
/// (`taintprof_tests::tmp_scratch_dir`).
pub fn scratch_dir(prefix: &str, name: &str) -> PathBuf {
    taintprof_tests::tmp_scratch_dir(prefix, name)
}

/// Bytes a program printed, as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
