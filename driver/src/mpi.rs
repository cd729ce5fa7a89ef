//! MPI programs: the wrapper links the MPI interception library (`mpi/taintprof_mpi.c`)
//! into executables that link an MPI library.
//!
//! `mpicc` with `OMPI_CC=taintprof-cc` (Open MPI) or `MPICH_CC=taintprof-cc` (MPICH)
//! runs the wrapper with the MPI library's flags appended: `-I<mpi include dirs>` and, at
//! link time, `-L<dir> -lmpi` (Open MPI) or `-lmpich` (MPICH). The interception library
//! defines `MPI_*` over the `PMPI_*` entry points, so it must be compiled against the
//! program's own `mpi.h` (`MPI_Comm` is a pointer in Open MPI and an `int` in MPICH):
//! the wrapper compiles it at link time with the link line's `-I`/`-isystem`/`-D`
//! flags, once per distinct source, flags and `mpi.h` (a cache under
//! `$XDG_CACHE_HOME/taintprof`, else `~/.cache/taintprof`; `TAINTPROF_CACHE_DIR`
//! overrides), and adds the object to the link.
//!
//! Denormal mode has no labels to move, and `--tp-mpi=off` (or `TAINTPROF_MPI=0`)
//! leaves the library out: labels then do not cross MPI calls and `p` is not known.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmdline::{Action, CommandLine};

/// The interception library's source file name (in the checkout's `mpi/`, installed
/// into `share/taintprof/`).
pub const SOURCE_FILE: &str = "taintprof_mpi.c";

/// Libraries whose presence on a link line makes it an MPI link (`-l<name>`, or a path
/// to `lib<name>.so`/`.a`).
const MPI_LIBS: &[&str] = &["mpi", "mpich", "mpi_cxx", "mpicxx", "mpichcxx", "pmpi"];

/// Whether the command line links an executable against an MPI library.
pub fn is_mpi_link(cl: &CommandLine, args: &[String]) -> bool {
    if cl.action != Action::Link {
        return false;
    }
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let lib = if a == "-l" {
            it.next().map(String::as_str)
        } else if let Some(l) = a.strip_prefix("-l") {
            Some(l)
        } else {
            let name = Path::new(a)
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("");
            name.strip_prefix("lib").and_then(|n| {
                n.strip_suffix(".a")
                    .or_else(|| n.strip_suffix(".so"))
                    .or_else(|| n.split_once(".so.").map(|(b, _)| b))
            })
        };
        if lib.is_some_and(|l| MPI_LIBS.contains(&l)) {
            return true;
        }
    }
    false
}

/// The flags of `args` that decide how `mpi.h` reads: include directories and macros.
pub fn header_flags(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        for p in ["-I", "-isystem", "-idirafter", "-D", "-U"] {
            if a == p {
                if let Some(v) = it.next() {
                    out.push(format!("{p}{v}"));
                }
                break;
            }
            if a.starts_with(p) {
                out.push(a.clone());
                break;
            }
        }
    }
    out
}

/// The first `mpi.h` in the include directories of `flags` (part of the cache key).
fn find_header(flags: &[String]) -> Option<PathBuf> {
    flags
        .iter()
        .filter_map(|f| {
            f.strip_prefix("-I")
                .or_else(|| f.strip_prefix("-isystem"))
                .or_else(|| f.strip_prefix("-idirafter"))
        })
        .map(|d| Path::new(d).join("mpi.h"))
        .chain([PathBuf::from("/usr/include/mpi.h")])
        .find(|p| p.is_file())
}

/// FNV-1a, 64 bits: a cache key, not a checksum against tampering.
fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x0100_0000_01b3);
    }
}

fn cache_dir() -> PathBuf {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("TAINTPROF_CACHE_DIR") {
        return d;
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return d.join("taintprof");
    }
    if let Some(h) = var("HOME") {
        return h.join(".cache").join("taintprof");
    }
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    std::env::temp_dir().join(format!("taintprof-cache-{uid}"))
}

/// Which MPI a link line links: `mpich` or `openmpi` (anything else linking `-lmpi`).
fn flavour(args: &[String]) -> &'static str {
    if args
        .iter()
        .any(|a| a == "-lmpich" || a.contains("libmpich.") || a == "mpich")
    {
        "mpich"
    } else {
        "openmpi"
    }
}

/// The include flags of the MPI that `args` link, from its own compiler wrapper, when the
/// link line names none (CMake's `find_package(MPI)` passes the include directories to
/// compiles only, and links the library by its path): Open MPI's `mpicc --showme:compile`,
/// MPICH's `mpicc -compile-info`, preferring Debian's `mpicc.openmpi`/`mpicc.mpich`.
fn flags_from_mpicc(args: &[String]) -> Vec<String> {
    let (query, names): (&[&str], [&str; 2]) = if flavour(args) == "mpich" {
        (&["-compile-info"], ["mpicc.mpich", "mpicc"])
    } else {
        (&["--showme:compile"], ["mpicc.openmpi", "mpicc"])
    };
    for name in names {
        let Ok(out) = Command::new(name)
            .args(query)
            .env_remove("OMPI_CC")
            .env_remove("MPICH_CC")
            .output()
        else {
            continue;
        };
        if !out.status.success() {
            continue;
        }
        let words: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .map(String::from)
            .collect();
        let flags = header_flags(&words);
        if find_header(&flags).is_some() {
            return flags;
        }
    }
    Vec::new()
}

/// The interception library compiled with `clang` against the MPI headers `args`
/// name (or, if it names none, those of the MPI it links): the cached object, compiled
/// first if needed. An error says what failed.
pub fn object(clang: &Path, source: &Path, args: &[String]) -> Result<PathBuf, String> {
    let src =
        std::fs::read(source).map_err(|e| format!("cannot read {}: {e}", source.display()))?;
    let mut flags = header_flags(args);
    if find_header(&flags).is_none() {
        flags.extend(flags_from_mpicc(args));
    }
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    fnv(&mut h, &src);
    fnv(&mut h, clang.as_os_str().as_encoded_bytes());
    for f in &flags {
        fnv(&mut h, f.as_bytes());
        fnv(&mut h, &[0]);
    }
    if let Some(hdr) = find_header(&flags) {
        fnv(&mut h, &std::fs::read(&hdr).unwrap_or_default());
    }
    let dir = cache_dir();
    let obj = dir.join(format!("taintprof_mpi-{h:016x}.o"));
    if obj.is_file() {
        return Ok(obj);
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot create the cache directory {}: {e}", dir.display()))?;
    let tmp = dir.join(format!(
        "taintprof_mpi-{h:016x}.{}.tmp.o",
        std::process::id()
    ));
    let out = Command::new(clang)
        // C whatever the wrapper's language: clang++ would compile the file as C++ and
        // mangle the MPI_* names it must define.
        .args(["-O2", "-fPIC", "-w", "-x", "c", "-c"])
        .arg(source)
        .args(&flags)
        .arg("-o")
        .arg(&tmp)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", clang.display()))?;
    if !out.status.success() {
        let _ = std::fs::remove_file(&tmp);
        let err = String::from_utf8_lossy(&out.stderr);
        let first: Vec<&str> = err.lines().take(6).collect();
        return Err(format!(
            "compiling {} against this MPI failed:\n{}",
            source.display(),
            first.join("\n")
        ));
    }
    // Atomic: a concurrent build (make -j) finds either no object or a whole one.
    std::fs::rename(&tmp, &obj).map_err(|e| format!("cannot write {}: {e}", obj.display()))?;
    Ok(obj)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmdline::classify;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn mpi_links_are_recognised_by_their_libraries() {
        let yes = [
            "a.o -o a -L/usr/lib/x86_64-linux-gnu/openmpi/lib -lmpi",
            "a.o -o a -lmpich",
            "a.o -o a -l mpi",
            "a.o -o a /opt/mpi/lib/libmpi.so.40",
            "a.c -o a -lmpi_cxx -lmpi",
        ];
        for l in yes {
            let a = args(l);
            assert!(is_mpi_link(&classify(&a), &a), "{l}");
        }
        let no = [
            "-c a.c -o a.o -lmpi",
            "a.o -o a -lm -lmpfr",
            "a.o -o a -lmpi_extra",
            "-shared a.o -o liba.so -lmpi",
        ];
        for l in no {
            let a = args(l);
            assert!(!is_mpi_link(&classify(&a), &a), "{l}");
        }
    }

    #[test]
    fn header_flags_keep_include_dirs_and_macros_only() {
        let a = args("-O2 -I/x -I /y -isystem /z -DA=1 -D B -Wall a.o -lmpi -o a");
        assert_eq!(
            header_flags(&a),
            ["-I/x", "-I/y", "-isystem/z", "-DA=1", "-DB"]
        );
    }
}
