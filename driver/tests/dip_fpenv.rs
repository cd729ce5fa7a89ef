//! `taintprof dip` on a program that sets flush-to-zero and denormals-are-zero itself:
//! the FP environment line must show the MXCSR at start and at exit, each with the
//! FTZ/DAZ bits that value really has (it once printed "MXCSR 0x1f80: flush-to-zero
//! ON", the start value next to the flags seen later).
//!
//! Needs `clang-19` and `libtaintprof_dip.so` next to `taintprof` (`make build`, which
//! runs `scripts/build-dip.sh`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const TAINTPROF: &str = env!("CARGO_BIN_EXE_taintprof");

const PROGRAM: &str = r#"
#include <stdio.h>
#include <xmmintrin.h>

static volatile float tiny = 1e-39f;

__attribute__((noinline)) float work(int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += tiny * 0.5f;
  return s;
}

int main(void) {
  float before = work(10);
  _mm_setcsr(_mm_getcsr() | 0x8040);
  float after = work(1000);
  printf("%a %a\n", before, after);
  return 0;
}
"#;

/// `<tmp>/taintprof-dipfp-<name>-<pid>`, kept for inspection; the next run removes it
/// once this process is gone.
fn tempdir(name: &str) -> PathBuf {
    common::scratch_dir("dipfp", name)
}

fn require_dip_lib() {
    taintprof_tests::check_dip_library_at(
        &Path::new(TAINTPROF).with_file_name("libtaintprof_dip.so"),
    );
}

/// Every `0x…` MXCSR value in `line` that is followed by `(FTZ x, DAZ y)` or
/// `: flush-to-zero (FTZ) x, denormals-are-zero (DAZ) y`, with the flags shown for it.
fn values_with_flags(line: &str) -> Vec<(u32, bool, bool)> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("0x") {
        let tail = &rest[i + 2..];
        let hex: String = tail.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
        let after = &tail[hex.len()..];
        // The flags belong to this value if they come before the next value.
        let scope = after.find("0x").map_or(after, |j| &after[..j]);
        let flag = |name: &str| {
            let k = scope.find(name)?;
            let s = scope[k + name.len()..].trim_start();
            Some(s.starts_with("ON"))
        };
        let ftz = flag("FTZ)").or_else(|| flag("FTZ"));
        let daz = flag("DAZ)").or_else(|| flag("DAZ"));
        if let (Ok(v), Some(f), Some(d)) = (u32::from_str_radix(&hex, 16), ftz, daz) {
            out.push((v, f, d));
        }
        rest = after;
    }
    out
}

#[test]
fn mxcsr_values_and_ftz_daz_flags_agree_at_start_and_exit() {
    require_dip_lib();
    let dir = tempdir("ftz");
    let src = dir.join("setftz.c");
    std::fs::write(&src, PROGRAM).unwrap();
    let exe = dir.join("setftz");
    let cc = Command::new("clang-19")
        .args(["-g", "-O2"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run clang-19 (install the clang-19 package): {e}"));
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );

    let out = Command::new(TAINTPROF)
        .arg("dip")
        .arg("--out")
        .arg(&dir)
        .arg("--")
        .arg(&exe)
        .current_dir(&dir)
        .output()
        .unwrap();
    // The program's output is on stdout, the profile on stderr.
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{text}");
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("FP env"))
        .unwrap_or_else(|| panic!("no FP env line:\n{text}"));

    // Start and exit values, each with its own flags.
    assert!(line.contains(" at start"), "{line}");
    assert!(line.contains(" at exit"), "{line}");
    let vals = values_with_flags(line);
    assert_eq!(vals.len(), 2, "start and exit value with flags: {line}");
    for &(v, f, d) in &vals {
        assert_eq!(
            (f, d),
            (v & 0x8000 != 0, v & 0x40 != 0),
            "flags shown for {v:#06x} contradict the value: {line}"
        );
    }
    let (start, exit) = (vals[0], vals[1]);
    assert_eq!(start, (0x1f80, false, false), "start: {line}");
    assert!(exit.1 && exit.2, "exit value with FTZ and DAZ on: {line}");
    assert_eq!(exit.0 & !0x8040, 0x1f80, "exit: {line}");
    assert!(line.contains("changed by the program"), "{line}");

    // The alarm names the values too; none of its values may look unflushed while it
    // claims the flags "are set" with no exit value carrying them.
    let alarm = text
        .lines()
        .find(|l| l.contains("!!") && l.contains("MXCSR"))
        .unwrap_or_else(|| panic!("no FTZ/DAZ alarm:\n{text}"));
    assert!(
        alarm.contains(&format!("{:#06x} at exit", exit.0)),
        "{alarm}"
    );
    assert!(alarm.contains("0x1f80 at start"), "{alarm}");
}
