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
    dip_with(&[], exe, args, dir).0
}

/// Runs `taintprof dip FLAGS` and returns the symbolized report and what it printed
/// on stderr.
fn dip_with(flags: &[&str], exe: &Path, args: &[&str], dir: &Path) -> ((Value, PathBuf), String) {
    // The profiler next to `taintprof` (built apart, by scripts/build-dip.sh): refused
    // when missing or older than its sources.
    dip_library();
    let _ = std::fs::create_dir_all(dir);
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.path().to_string_lossy().ends_with(".dip.json") {
            std::fs::remove_file(e.path()).unwrap();
        }
    }
    let out = run_cmd(
        Command::new(bin_dir().join("taintprof"))
            .arg("dip")
            .args(flags)
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
    (
        (v, report),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
    let ((exact, dip_report), _) = dip_with(&["--exact"], &exe, &args, &dir);
    assert_eq!(exact["sampling"]["mode"], "exact");
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
    assert_eq!(v["comparison"]["sampled"], false);

    // The default, sampled profile of the same run says its counts are estimates.
    let sdir = dir.join("sampled");
    let ((sampled, sampled_report), _) = dip_with(&[], &exe, &args, &sdir);
    assert_eq!(
        sampled["sampling"]["mode"], "sampled",
        "{}",
        sampled["sampling"]
    );
    let out = run_cmd(
        Command::new(bin_dir().join("taintprof"))
            .arg("denormals")
            .arg(&sampled_report)
            .arg("--compare")
            .arg(&compiler_report),
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    if sampled["sampling"]["complete"] == false {
        assert!(
            text.contains("the exception profile is sampled") && text.contains("--exact"),
            "{text}"
        );
        assert!(!text.contains("agree exactly"), "{text}");
    }
}

fn steady_source() -> PathBuf {
    workspace_root().join("dip/tests/programs/steady.c")
}

fn build_steady(dir: &Path) -> PathBuf {
    let exe = dir.join("steady");
    let out = run_cmd(
        Command::new("clang-19")
            .args(["-O2", "-g"])
            .arg(steady_source())
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

/// Per source line: (line, share in percent) as the report gives them: of the counts,
/// or (sampled) of the weighted counts behind the estimates.
fn line_shares(r: &Value) -> Vec<(u64, f64)> {
    let sites = r["sites"].as_array().unwrap();
    let sampled = r["sampling"]["mode"] == "sampled" && r["sampling"]["complete"] == false;
    let mut lines: std::collections::BTreeMap<u64, (u64, Vec<u64>)> = Default::default();
    for s in sites {
        let e = lines.entry(u(&s["line"])).or_default();
        e.0 += u(&s["denormal_operands"]);
        if let Some(w) = s["weighted"].as_array() {
            e.1.resize(w.len().max(e.1.len()), 0);
            for (a, b) in e.1.iter_mut().zip(w) {
                *a += u(b);
            }
        }
    }
    let total: u64 = lines.values().map(|x| x.0).sum();
    let all: u64 = r["batch_weights"]
        .as_array()
        .map(|a| a.iter().map(u).sum())
        .unwrap_or_default();
    lines
        .into_iter()
        .map(|(line, (n, w))| {
            if sampled {
                (
                    line,
                    100.0 * w.iter().sum::<u64>() as f64 / all.max(1) as f64,
                )
            } else {
                (line, 100.0 * n as f64 / total.max(1) as f64)
            }
        })
        .collect()
}

/// `taintprof dip` samples by default: on a loop with a fixed mix of events it
/// names the same top line as `--exact`, with every line's share within 5 points of
/// the exact one, and the report (JSON and text) says it was sampled, how, and gives
/// each share with its 95% interval.
#[test]
fn dip_samples_by_default_and_agrees_with_exact() {
    let dir = scratch_dir("dip-sampled");
    let exe = build_steady(&dir);
    let ((exact, _), _) = dip_with(&["--exact"], &exe, &[], &dir.join("exact"));
    let ((sampled, _), text) = dip_with(&[], &exe, &[], &dir.join("sampled"));
    assert_eq!(exact["sampling"]["mode"], "exact");
    assert_eq!(u(&exact["totals"]["denormal_operands"]), 200_000);
    let sm = &sampled["sampling"];
    assert_eq!(sm["mode"], "sampled", "{sm}");
    assert_eq!(sm["scheme"], "cpu-time windows");
    assert_eq!(sm["complete"], false, "{sm}");
    assert_eq!(sm["confidence"], 0.95);
    assert!(u(&sm["samples"]) < 20_000, "{sm}");
    assert!(u(&sm["events_at_least"]) >= u(&sm["samples"]), "{sm}");
    for s in sampled["sites"].as_array().unwrap() {
        let sh = &s["share"];
        let (p, lo, hi) = (
            sh["percent"].as_f64().unwrap(),
            sh["low"].as_f64().unwrap(),
            sh["high"].as_f64().unwrap(),
        );
        assert!(lo <= p && p <= hi, "{s}");
    }
    let (e, s) = (line_shares(&exact), line_shares(&sampled));
    let top = |v: &[(u64, f64)]| {
        v.iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|x| x.0)
            .unwrap()
    };
    assert_eq!(
        top(&e),
        top(&s),
        "exact {e:?}
sampled {s:?}"
    );
    assert_eq!(
        e.len(),
        s.len(),
        "exact {e:?}
sampled {s:?}"
    );
    for ((le, pe), (ls, ps)) in e.iter().zip(&s) {
        assert_eq!(le, ls);
        assert!(
            (pe - ps).abs() < 5.0,
            "line {le}: exact {pe:.2}%, sampled {ps:.2}%"
        );
    }
    // The text says so too.
    assert!(
        text.lines().any(
            |l| l.trim_start().starts_with("counts") && l.contains("sampled (cpu-time windows")
        ),
        "{text}"
    );
    assert!(text.contains("overhead budget 10%"), "{text}");
    assert!(
        text.contains("denormal-operand exceptions sampled"),
        "{text}"
    );
    assert!(
        text.contains('[') && text.contains('–'),
        "no intervals: {text}"
    );
}

/// `--overhead` takes a whole percentage in 1..=1000 and cannot be combined with
/// `--exact`; anything else is refused before the program runs, with a clear message.
#[test]
fn dip_refuses_bad_overhead_values() {
    let dir = scratch_dir("dip-overhead");
    let marker = dir.join("ran");
    for (flags, want) in [
        (&["--overhead", "0"][..], "between 1 and 1000"),
        (&["--overhead", "1001"][..], "between 1 and 1000"),
        (&["--overhead", "ten"][..], "not a whole number of percent"),
        (&["--overhead", "2.5"][..], "not a whole number of percent"),
        (&["--overhead=-5"][..], "not a whole number of percent"),
        (&["--exact", "--overhead", "20"][..], "cannot be used with"),
    ] {
        let out = run_cmd(
            Command::new(bin_dir().join("taintprof"))
                .arg("dip")
                .args(flags)
                .arg("--")
                .arg("touch")
                .arg(&marker),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flags:?} accepted: {err}");
        assert!(err.contains(want), "{flags:?}: {err}");
        assert!(!marker.exists(), "{flags:?}: the program ran");
    }
    // A good value is passed on to the profiler.
    let exe = build_steady(&dir);
    let ((r, _), _) = dip_with(
        &["--overhead", "25%"],
        &exe,
        &["200", "2000"],
        &dir.join("ok"),
    );
    assert_eq!(r["sampling"]["overhead_pct"], 25, "{}", r["sampling"]);
}
