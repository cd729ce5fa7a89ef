//! End to end, the exception-based profiler (issue 5) through `taintprof dip`, on
//! binaries built with plain clang-19 and no taintprof, and its cross-check with the
//! compiler-mode report of the same program.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use taintprof_tests::*;

/// Builds `tests/programs/<src>` with plain clang-19 (the annotations compile away).
fn plain_build(src: &str, opt: &str, dir: &Path) -> PathBuf {
    let exe = dir.join(format!("{}-plain", src.trim_end_matches(".c")));
    let out = run_cmd(
        Command::new("clang-19")
            .args([opt, "-g", "-DTAINTPROF_DISABLE"])
            .arg(format!(
                "-I{}",
                workspace_root().join("rt/include").display()
            ))
            .arg(programs_dir().join(src))
            .arg("-o")
            .arg(&exe),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Runs `taintprof dip` and returns the symbolized report.
fn dip(exe: &Path, args: &[&str], dir: &Path) -> (Value, PathBuf) {
    // The profiler next to `taintprof` (built apart, by scripts/build-dip.sh): refused
    // when missing or older than its sources.
    dip_library();
    let out = run_cmd(
        Command::new(bin_dir().join("taintprof"))
            .arg("dip")
            .arg("--out")
            .arg(dir)
            .arg("--")
            .arg(exe)
            .args(args),
    );
    assert!(
        out.status.success(),
        "taintprof dip failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let report = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".dip.json"))
        .expect("taintprof dip wrote no .dip.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(v["schema"], "taintprof.denormal");
    assert_eq!(v["mode"], "exceptions");
    (v, report)
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or(0)
}

#[test]
fn dip_names_the_stencil_line_of_an_uninstrumented_jacobi() {
    let dir = scratch_dir("dip-jacobi");
    let exe = plain_build("jacobi_dn.c", "-O2", &dir);
    let (r, _) = dip(&exe, &["0.0", "100", "256"], &dir);
    let line = line_of_marker(&[programs_dir().join("jacobi_dn.c")], "@stencil");
    let on_line: u64 = r["sites"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["function"] == "sweep" && s["line"] == line)
        .map(|s| u(&s["denormal_operands"]))
        .sum();
    assert!(
        on_line > 0,
        "no exceptions on the stencil line {line}: {}",
        r["sites"]
    );
    for s in r["sites"].as_array().unwrap() {
        assert!(
            s["instruction"].as_str().is_some_and(|i| !i.is_empty()),
            "disassembly missing: {s}"
        );
    }
}

#[test]
fn dip_reports_nothing_without_denormals() {
    let dir = scratch_dir("dip-normal");
    let exe = plain_build("jacobi_dn.c", "-O2", &dir);
    let (r, _) = dip(&exe, &["0.1", "100", "256"], &dir);
    assert!(r["sites"].as_array().unwrap().is_empty(), "{}", r["sites"]);
    assert_eq!(u(&r["totals"]["denormal_operands"]), 0);
}

/// The thesis's 6.4.3: at -O0 every FP operation is its own instruction, so the CPU's
/// denormal-operand exceptions and the compiler-mode count of operations with a
/// denormal operand must agree exactly, line by line.
#[test]
fn at_o0_exceptions_and_compiler_mode_agree_exactly() {
    let dir = scratch_dir("dip-compare");
    let args = ["0.0", "100", "256"];
    let exe = plain_build("jacobi_dn.c", "-O0", &dir);
    let (_, dip_report) = dip(&exe, &args, &dir);
    let inst = compile(&["jacobi_dn.c"], "-O0", &["--tp-mode=denormal"]);
    let run = inst.run(&args);
    assert!(run.output.status.success(), "{}", run.stderr());
    let compiler_report = run.denormal_reports[0].clone();
    let out = run_cmd(
        Command::new(bin_dir().join("taintprof"))
            .arg("denormals")
            .arg(&dip_report)
            .arg("--compare")
            .arg(&compiler_report)
            .arg("--json"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["comparison"]["rows"].as_array().unwrap();
    let both: Vec<&Value> = rows
        .iter()
        .filter(|r| !r["compiler"].is_null() && !r["exceptions"].is_null())
        .collect();
    assert!(both.len() >= 2, "too few lines seen by both: {rows:?}");
    for r in both {
        assert_eq!(
            u(&r["exceptions"]["operand_exceptions"]),
            u(&r["compiler"]["operands"]),
            "line {} differs: {r}",
            r["source"]
        );
        assert_eq!(r["verdict"], "agree exactly", "{r}");
    }
}
