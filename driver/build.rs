//! Puts a `taintprof-c++` symlink next to the `taintprof-cxx` binary.
//!
//! Cargo cannot build a binary whose name contains `+` (it is not a valid crate name),
//! but build systems expect a compiler called `taintprof-c++`. The profile directory
//! (`target/<profile>`, where the binaries land) is three levels above `OUT_DIR`. The
//! link may dangle until the binary is built; that is harmless. Failure only warns: the
//! `taintprof-cxx` binary works under its own name.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        return;
    };
    let Some(profile_dir) = PathBuf::from(out_dir).ancestors().nth(3).map(PathBuf::from) else {
        return;
    };
    let link = profile_dir.join("taintprof-c++");
    if std::fs::read_link(&link).is_ok_and(|t| t == std::path::Path::new("taintprof-cxx")) {
        return;
    }
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    if let Err(e) = std::os::unix::fs::symlink("taintprof-cxx", &link) {
        println!(
            "cargo:warning=could not create {}: {e} (use taintprof-cxx instead)",
            link.display()
        );
    }
}
