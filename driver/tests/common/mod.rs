//! Helpers shared by the driver's integration tests.

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

/// An empty directory `<tmp>/taintprof-<prefix>-<name>-<pid>`.
pub fn fresh_dir(prefix: &str, name: &str) -> WorkDir {
    let dir =
        std::env::temp_dir().join(format!("taintprof-{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    WorkDir(dir)
}

/// Bytes a program printed, as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
