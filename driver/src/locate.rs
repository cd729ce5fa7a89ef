//! Finding the tools and artifacts the driver needs: clang 19, the pass plugin, the
//! runtime archive and the runtime's include directory.
//!
//! Every item can be forced with an environment variable; otherwise it is searched in a
//! fixed order, and a missing item is an error that names every place looked at and how
//! to fix it:
//!
//! | item | override | then |
//! |---|---|---|
//! | C compiler | `TAINTPROF_CLANG` | `clang-19` on `PATH`, `/usr/lib/llvm-19/bin/clang` |
//! | C++ compiler | `TAINTPROF_CLANGXX` | `clang++-19` on `PATH`, `/usr/lib/llvm-19/bin/clang++` |
//! | plugin `libtaintprof_pass.so` | `TAINTPROF_PLUGIN` | next to the driver's executable, `<exe>/../lib`, `<exe>/../lib/taintprof`, `<exe>/../release` |
//! | runtime `libtaintprof_rt.a` | `TAINTPROF_RUNTIME` | same places as the plugin |
//! | profiler `libtaintprof_dip.so` (`taintprof dip`) | `TAINTPROF_DIP_LIB` | same places as the plugin |
//! | include dir (`taintprof.h`) | `TAINTPROF_INCLUDE` | `<exe>/../include/taintprof`, `<exe>/../include`, the checkout's `rt/include` |
//!
//! `<exe>` is the directory of the running executable with symlinks resolved, so a
//! symlink to the wrappers in `~/bin` still finds a build tree or an installed prefix.
//! `<exe>/../release` covers a debug build of the driver inside a cargo target
//! directory whose pass and runtime were built with `--release`.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// File name of the pass plugin.
pub const PLUGIN_FILE: &str = "libtaintprof_pass.so";
/// File name of the runtime archive.
pub const RUNTIME_FILE: &str = "libtaintprof_rt.a";
/// File name of the exception-based denormal profiler (`taintprof dip`).
pub const DIP_FILE: &str = "libtaintprof_dip.so";
/// The header that marks a valid include directory.
pub const HEADER_FILE: &str = "taintprof.h";

pub const ENV_CLANG: &str = "TAINTPROF_CLANG";
pub const ENV_CLANGXX: &str = "TAINTPROF_CLANGXX";
pub const ENV_PLUGIN: &str = "TAINTPROF_PLUGIN";
pub const ENV_RUNTIME: &str = "TAINTPROF_RUNTIME";
pub const ENV_INCLUDE: &str = "TAINTPROF_INCLUDE";
pub const ENV_DIP_LIB: &str = "TAINTPROF_DIP_LIB";

/// Which clang driver to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    C,
    Cxx,
}

impl Lang {
    /// The wrapper's name in messages.
    pub fn wrapper_name(self) -> &'static str {
        match self {
            Lang::C => "taintprof-cc",
            Lang::Cxx => "taintprof-c++",
        }
    }
}

/// A failed search: what was looked for, where, and how to get it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound {
    pub what: String,
    pub looked: Vec<String>,
    pub hint: String,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} not found", self.what)?;
        if !self.looked.is_empty() {
            write!(f, " (looked in: {})", self.looked.join(", "))?;
        }
        write!(f, "; {}", self.hint)
    }
}

impl std::error::Error for NotFound {}

/// Reads an environment variable.
type EnvFn = Box<dyn Fn(&str) -> Option<OsString>>;

/// The inputs of a search: environment, `PATH` and the driver's own location.
/// [`Locator::from_process`] reads the real ones; tests build their own.
pub struct Locator {
    env: EnvFn,
    exe_dir: Option<PathBuf>,
    /// The source checkout's `rt/include`, baked in at build time (last fallback).
    checkout_include: Option<PathBuf>,
}

impl Locator {
    /// A locator for this process.
    pub fn from_process() -> Locator {
        let exe_dir = std::env::current_exe()
            .ok()
            .and_then(|p| p.canonicalize().ok().or(Some(p)))
            .and_then(|p| p.parent().map(Path::to_path_buf));
        Locator {
            env: Box::new(|k| std::env::var_os(k)),
            exe_dir,
            checkout_include: Some(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("..")
                    .join("rt")
                    .join("include"),
            ),
        }
    }

    /// A locator with a given environment (a closure) and executable directory.
    pub fn new(
        env: impl Fn(&str) -> Option<OsString> + 'static,
        exe_dir: Option<PathBuf>,
        checkout_include: Option<PathBuf>,
    ) -> Locator {
        Locator {
            env: Box::new(env),
            exe_dir,
            checkout_include,
        }
    }

    fn var(&self, name: &str) -> Option<OsString> {
        (self.env)(name).filter(|v| !v.is_empty())
    }

    /// The directory of the running executable.
    pub fn exe_dir(&self) -> Option<&Path> {
        self.exe_dir.as_deref()
    }

    /// clang 19 for `lang`.
    pub fn clang(&self, lang: Lang) -> Result<PathBuf, NotFound> {
        let (var, name, llvm_name) = match lang {
            Lang::C => (ENV_CLANG, "clang-19", "clang"),
            Lang::Cxx => (ENV_CLANGXX, "clang++-19", "clang++"),
        };
        let hint =
            format!("install it with: apt-get install clang-19 (Debian/Ubuntu), or set {var}");
        if let Some(v) = self.var(var) {
            return self.program_from_env(var, v, name, &hint);
        }
        if let Some(found) = self.search_path(name) {
            return Ok(found);
        }
        let fixed = Path::new("/usr/lib/llvm-19/bin").join(llvm_name);
        if fixed.is_file() {
            return Ok(fixed);
        }
        // The places are well known (PATH and the Debian location): keep the message short.
        Err(NotFound {
            what: name.to_string(),
            looked: Vec::new(),
            hint,
        })
    }

    /// The pass plugin.
    pub fn plugin(&self) -> Result<PathBuf, NotFound> {
        self.artifact(ENV_PLUGIN, PLUGIN_FILE, "the taintprof pass plugin")
    }

    /// The runtime archive.
    pub fn runtime(&self) -> Result<PathBuf, NotFound> {
        self.artifact(ENV_RUNTIME, RUNTIME_FILE, "the taintprof runtime")
    }

    /// The exception-based denormal profiler, preloaded by `taintprof dip`.
    pub fn dip_lib(&self) -> Result<PathBuf, NotFound> {
        self.artifact(ENV_DIP_LIB, DIP_FILE, "the denormal exception profiler")
    }

    /// The source of the MPI interception library (`crate::mpi`), compiled at link time
    /// against the program's MPI: `share/taintprof/` of an install, or the checkout's
    /// `mpi/`.
    pub fn mpi_source(&self) -> Result<PathBuf, NotFound> {
        let file = crate::mpi::SOURCE_FILE;
        let mut candidates = Vec::new();
        if let Some(exe) = &self.exe_dir {
            candidates.push(exe.join("../share/taintprof").join(file));
            candidates.push(exe.join("../../mpi").join(file));
        }
        if let Some(dir) = &self.checkout_include {
            candidates.push(dir.join("../../mpi").join(file));
        }
        self.file_from(
            "TAINTPROF_MPI_SOURCE",
            format!("the MPI interception library ({file})"),
            candidates,
            "install taintprof with its share directory (make install), or set TAINTPROF_MPI_SOURCE".into(),
        )
    }

    /// The directory holding `taintprof.h` (and `perf-taint/`).
    pub fn include_dir(&self) -> Result<PathBuf, NotFound> {
        let what = format!("the taintprof headers ({HEADER_FILE})");
        if let Some(v) = self.var(ENV_INCLUDE) {
            let dir = PathBuf::from(v);
            return if dir.join(HEADER_FILE).is_file() {
                Ok(dir)
            } else {
                Err(NotFound {
                    what,
                    looked: vec![format!("{ENV_INCLUDE}={}", dir.display())],
                    hint: format!("{ENV_INCLUDE} must name a directory containing {HEADER_FILE}"),
                })
            };
        }
        let mut candidates = Vec::new();
        if let Some(exe) = &self.exe_dir {
            candidates.push(exe.join("../include/taintprof"));
            candidates.push(exe.join("../include"));
        }
        if let Some(dir) = &self.checkout_include {
            candidates.push(dir.clone());
        }
        for c in &candidates {
            if c.join(HEADER_FILE).is_file() {
                return Ok(normalize(c));
            }
        }
        Err(NotFound {
            what,
            looked: candidates
                .iter()
                .map(|c| normalize(c).display().to_string())
                .collect(),
            hint: format!(
                "install taintprof with its include directory, or set {ENV_INCLUDE} to the taintprof checkout's rt/include"
            ),
        })
    }

    fn artifact(&self, var: &str, file: &str, what: &str) -> Result<PathBuf, NotFound> {
        let mut candidates = Vec::new();
        if let Some(exe) = &self.exe_dir {
            candidates.push(exe.join(file));
            candidates.push(exe.join("../lib").join(file));
            candidates.push(exe.join("../lib/taintprof").join(file));
            candidates.push(exe.join("../release").join(file));
        }
        self.file_from(
            var,
            format!("{what} ({file})"),
            candidates,
            format!("build it with `make build` in the taintprof checkout, or set {var}"),
        )
    }

    /// The file `var` names (which must exist), else the first of `candidates` that
    /// exists; else what was looked for, where, and `hint`.
    fn file_from(
        &self,
        var: &str,
        what: String,
        candidates: Vec<PathBuf>,
        hint: String,
    ) -> Result<PathBuf, NotFound> {
        if let Some(v) = self.var(var) {
            let p = PathBuf::from(v);
            return if p.is_file() {
                Ok(p)
            } else {
                Err(NotFound {
                    what,
                    looked: vec![format!("{var}={}", p.display())],
                    hint: format!("{var} must name an existing file, or unset it"),
                })
            };
        }
        if let Some(c) = candidates.iter().find(|c| c.is_file()) {
            return Ok(normalize(c));
        }
        Err(NotFound {
            what,
            looked: candidates
                .iter()
                .map(|c| normalize(c).display().to_string())
                .collect(),
            hint,
        })
    }

    fn program_from_env(
        &self,
        var: &str,
        value: OsString,
        name: &str,
        hint: &str,
    ) -> Result<PathBuf, NotFound> {
        let p = PathBuf::from(&value);
        let found = if p.components().count() > 1 || p.is_absolute() {
            p.is_file().then_some(p.clone())
        } else {
            self.search_path(&p.to_string_lossy())
        };
        found.ok_or_else(|| NotFound {
            what: format!("{name} ({var}={})", p.display()),
            looked: Vec::new(),
            hint: hint.to_string(),
        })
    }

    /// `name` in the directories of `PATH` (an executable file).
    pub fn search_path(&self, name: &str) -> Option<PathBuf> {
        let path = self.var("PATH")?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| is_executable(p))
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The canonical path if it exists, else `p` with `.` and `..` removed lexically, for
/// readable paths in commands and messages.
fn normalize(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| {
        use std::path::Component;
        let mut out = PathBuf::new();
        for c in p.components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir => {
                    if !out.pop() {
                        out.push("..");
                    }
                }
                other => out.push(other.as_os_str()),
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn locator(vars: &[(&str, &Path)], exe_dir: Option<&Path>) -> Locator {
        let map: HashMap<String, OsString> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_os_str().to_owned()))
            .collect();
        Locator::new(
            move |k| map.get(k).cloned(),
            exe_dir.map(Path::to_path_buf),
            None,
        )
    }

    fn tempdir(name: &str) -> PathBuf {
        taintprof_tests::tmp_scratch_dir("locate", name)
    }

    fn touch(p: &Path, exec: bool) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, b"").unwrap();
        if exec {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    #[test]
    fn env_override_wins_for_artifacts() {
        let d = tempdir("env");
        let plugin = d.join("custom/plug.so");
        touch(&plugin, false);
        let rt = d.join("custom/rt.a");
        touch(&rt, false);
        let inc = d.join("inc");
        touch(&inc.join(HEADER_FILE), false);
        // Also a plugin next to the exe, which must lose against the override.
        touch(&d.join("bin").join(PLUGIN_FILE), false);
        let l = locator(
            &[
                (ENV_PLUGIN, &plugin),
                (ENV_RUNTIME, &rt),
                (ENV_INCLUDE, &inc),
            ],
            Some(&d.join("bin")),
        );
        assert_eq!(l.plugin().unwrap(), plugin);
        assert_eq!(l.runtime().unwrap(), rt);
        assert_eq!(l.include_dir().unwrap(), inc);
    }

    #[test]
    fn env_override_to_a_missing_file_is_an_error() {
        let d = tempdir("env-missing");
        let l = locator(&[(ENV_PLUGIN, &d.join("nope.so"))], None);
        let e = l.plugin().unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("TAINTPROF_PLUGIN="), "{msg}");
        assert!(msg.contains("nope.so"), "{msg}");
    }

    #[test]
    fn artifacts_next_to_the_executable_then_lib_dirs() {
        let d = tempdir("exe");
        let bin = d.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        touch(&d.join("lib/taintprof").join(PLUGIN_FILE), false);
        touch(&d.join("lib").join(RUNTIME_FILE), false);
        touch(&d.join("include/taintprof").join(HEADER_FILE), false);
        let l = locator(&[], Some(&bin));
        assert_eq!(
            l.plugin().unwrap(),
            d.join("lib/taintprof")
                .join(PLUGIN_FILE)
                .canonicalize()
                .unwrap()
        );
        assert_eq!(
            l.runtime().unwrap(),
            d.join("lib").join(RUNTIME_FILE).canonicalize().unwrap()
        );
        assert_eq!(
            l.include_dir().unwrap(),
            d.join("include/taintprof").canonicalize().unwrap()
        );
        // Next to the executable beats ../lib.
        touch(&bin.join(RUNTIME_FILE), false);
        assert_eq!(
            l.runtime().unwrap(),
            bin.join(RUNTIME_FILE).canonicalize().unwrap()
        );
    }

    #[test]
    fn debug_build_finds_release_artifacts() {
        let d = tempdir("cargo");
        let debug = d.join("target/debug");
        std::fs::create_dir_all(&debug).unwrap();
        touch(&d.join("target/release").join(PLUGIN_FILE), false);
        let l = locator(&[], Some(&debug));
        assert!(l
            .plugin()
            .unwrap()
            .ends_with("target/release/libtaintprof_pass.so"));
    }

    #[test]
    fn missing_artifact_names_places_and_fix() {
        let d = tempdir("none");
        let l = locator(&[], Some(&d));
        let msg = l.runtime().unwrap_err().to_string();
        assert!(msg.contains("(libtaintprof_rt.a) not found"), "{msg}");
        assert!(msg.contains("make build"), "{msg}");
        assert!(msg.contains("TAINTPROF_RUNTIME"), "{msg}");
        assert!(msg.contains(&d.display().to_string()), "{msg}");
        assert!(!msg.contains(".."), "paths are shown normalized: {msg}");
        let msg = l.include_dir().unwrap_err().to_string();
        assert!(msg.contains("TAINTPROF_INCLUDE"), "{msg}");
    }

    #[test]
    fn clang_from_env_then_path() {
        let d = tempdir("clang");
        let mine = d.join("my-clang");
        touch(&mine, true);
        let l = locator(&[(ENV_CLANG, &mine)], None);
        assert_eq!(l.clang(Lang::C).unwrap(), mine);

        let pathdir = d.join("pathbin");
        touch(&pathdir.join("clang++-19"), true);
        let l = locator(&[("PATH", &pathdir)], None);
        assert_eq!(l.clang(Lang::Cxx).unwrap(), pathdir.join("clang++-19"));

        // A bare name in the override is looked up on PATH.
        let l = locator(
            &[("PATH", &pathdir), (ENV_CLANGXX, Path::new("clang++-19"))],
            None,
        );
        assert_eq!(l.clang(Lang::Cxx).unwrap(), pathdir.join("clang++-19"));

        // Not executable: not found on PATH.
        touch(&pathdir.join("clang-19"), false);
        let l = locator(&[("PATH", &pathdir)], None);
        match l.clang(Lang::C) {
            Ok(p) => assert_eq!(p, Path::new("/usr/lib/llvm-19/bin/clang")),
            Err(e) => assert!(e.to_string().contains("apt-get install clang-19")),
        }
    }

    #[test]
    fn clang_missing_message() {
        let d = tempdir("noclang");
        let l = locator(&[(ENV_CLANG, &d.join("absent-clang"))], None);
        let msg = l.clang(Lang::C).unwrap_err().to_string();
        assert!(msg.starts_with("clang-19 (TAINTPROF_CLANG="), "{msg}");
        assert!(msg.contains(") not found; "), "{msg}");
        assert!(
            msg.contains(
                "install it with: apt-get install clang-19 (Debian/Ubuntu), or set TAINTPROF_CLANG"
            ),
            "{msg}"
        );
    }
}
