//! End to end: programs start and register parameters robustly, whatever the user or
//! the job script does. Real programs (`tests/c/`) are compiled with the real
//! `taintprof-cc`/`taintprof-c++` from `target/release` at `-O0` and `-O2`, run, and
//! checked through their reports and stderr:
//!
//! * unusable parameter names and addresses are refused one line at a time, listed in
//!   the report, and the program goes on;
//! * Perf-Taint's whole annotation API (`has_label`, `delete_label`, `delete_labels`,
//!   the unqualified `register_variable`) builds and works;
//! * under `ulimit -s unlimited` (the legacy mmap layout puts shared libraries inside the
//!   shadow range) programs still run, in taint and denormal mode, and see the
//!   unlimited limit, their arguments and their environment as given.
//!
//! Build first: `cargo build --release --workspace` (the test checks that the runtime
//! and the plugin in `target/release` are newer than their sources).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use taintprof_tests::{bin_dir, compile, scratch_dir, Build, Report, Run, OPT_LEVELS};

mod common;

/// Absolute path of `rt/tests/c/<name>` (the harness takes absolute paths as they are).
fn program(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Panics unless the runtime and the plugin the wrappers use are at least as new as
/// their sources (the plugin embeds `rt/abilist.txt`).
fn check_artifacts_fresh() {
    let rt = Path::new(env!("CARGO_MANIFEST_DIR"));
    let modified = |p: &Path| {
        std::fs::metadata(p)
            .and_then(|m| m.modified())
            .unwrap_or_else(|e| {
                panic!(
                    "{}: {e}; run `cargo build --release --workspace` first",
                    p.display()
                )
            })
    };
    taintprof_tests::check_runtime_archive();
    let plugin = bin_dir().join("libtaintprof_pass.so");
    assert!(
        modified(&plugin) >= modified(&rt.join("abilist.txt")),
        "{} is older than rt/abilist.txt: run `cargo build --release -p taintprof-pass`",
        plugin.display()
    );
}

fn build(src: &str, opt: &str, extra: &[&str]) -> Build {
    check_artifacts_fresh();
    compile(&[&program(src)], opt, extra)
}

/// The report of the run's one raw run record, as the driver makes it.
fn report_of(dir: &Path, sources: &[PathBuf], opt: &str, context: &str) -> Report {
    let records = common::records_in(dir, context);
    assert_eq!(records.len(), 1, "[{opt}] {records:?}\n{context}");
    Report {
        json: common::model_report(&records[0]),
        path: records[0].clone(),
        sources: sources.to_vec(),
        opt: opt.to_string(),
    }
}

/// Runs `b` with `args`, asserts a zero exit status, and returns the run's report
/// (`report_of`).
fn run_ok(b: &Build, args: &[&str]) -> (Report, Run) {
    let run = b.run(args);
    let context = format!(
        "{} {args:?} ({})\nstdout:\n{}\nstderr:\n{}",
        b.exe.display(),
        b.opt,
        run.stdout(),
        run.stderr()
    );
    assert!(
        run.output.status.success(),
        "failed: {:?}\n{context}",
        run.output.status
    );
    (report_of(&run.out_dir, &b.sources, &b.opt, &context), run)
}

fn rejected(r: &Report) -> Vec<(String, String, u64)> {
    let mut v: Vec<(String, String, u64)> = r.json["rejected_parameters"]
        .as_array()
        .unwrap_or_else(|| panic!("no rejected_parameters in {}", r.path.display()))
        .iter()
        .map(|x| {
            (
                x["name"].as_str().unwrap().to_string(),
                x["reason"].as_str().unwrap().to_string(),
                x["registrations"].as_u64().unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn unusable_names_and_addresses_are_refused_and_the_program_goes_on() {
    const CHARS: &str = "the name may only contain ASCII letters, digits and _ . - : [ ] and must start with a letter, a digit or _";
    for opt in OPT_LEVELS {
        let b = build("bad_names.c", opt, &[]);
        let (mut r, run) = run_ok(&b, &["10"]);
        r.sources = vec![PathBuf::from(program("bad_names.c"))];
        assert!(
            run.stdout().starts_with("done "),
            "[{opt}] {}",
            run.stdout()
        );
        assert_eq!(
            r.parameters(),
            ["n"],
            "[{opt}] only the good name is registered"
        );
        r.assert_loop("work", "@work", &["n"]);
        let long = format!("{}...", "x".repeat(64));
        let mut expected: Vec<(String, String, u64)> = [
            ("bad\\nname", CHARS, 2),
            ("say \"v1\"", CHARS, 1),
            ("c,d", CHARS, 1),
            ("ctl\\x01", CHARS, 1),
            (&long, "the name is longer than 64 bytes", 1),
            ("null_address", "the address is a null pointer", 1),
            ("zero_size", "the size is 0", 1),
            (
                "wild_size",
                "the address range is outside the user address space",
                1,
            ),
            ("pt,comma", CHARS, 1),
            ("pt_null", "the address is a null pointer", 1),
        ]
        .iter()
        .map(|(n, why, c)| (n.to_string(), why.to_string(), *c))
        .collect();
        expected.sort();
        assert_eq!(rejected(&r), expected, "[{opt}]");
        // One line per refused name and reason, each a complete error.
        let err = run.stderr();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 10, "[{opt}] stderr:\n{err}");
        for l in &lines {
            assert!(
                l.starts_with("taintprof: error: ") && l.len() < 600,
                "[{opt}] not a one-line error: {l:?}"
            );
        }
        for needle in [
            "'bad\\nname': it contains '\\n' at byte 3",
            "'c,d': it contains ',' at byte 1",
            "'ctl\\x01': it contains '\\x01' at byte 3",
            "...': the name is longer than 64 bytes;",
            "'zero_size': the size is 0 (tp_register_variable ignores the call)",
            "'pt_null': the address is a null pointer (perf_taint_register_variable ignores the call)",
        ] {
            assert!(err.contains(needle), "[{opt}] stderr lacks {needle:?}:\n{err}");
        }
    }
}

#[test]
fn perf_taint_annotations_build_unchanged_and_labels_can_be_queried_and_deleted() {
    for opt in OPT_LEVELS {
        let b = build("perftaint_api.cpp", opt, &[]);
        let (mut r, run) = run_ok(&b, &["30", "40"]);
        r.sources = vec![PathBuf::from(program("perftaint_api.cpp"))];
        assert!(
            run.stdout().contains(
                "n_before=1 n_is_m=0 n_unknown=0 n_after=0 k_before=1 k_after=0 m_still=1"
            ),
            "[{opt}] {}",
            run.stdout()
        );
        assert_eq!(r.parameters(), ["n", "m", "k"], "[{opt}]");
        r.assert_loop("loop_n", "@deleted", &[]);
        r.assert_loop("loop_m", "@kept", &["m"]);
        r.assert_loop("loop_k", "@array", &[]);
        // Branching on a query through an m-dependent pointer depends on nothing.
        r.assert_loop("loop_q", "@query", &[]);
    }
}

/// Runs `exe args` from a shell that first sets `ulimit -s unlimited`; returns the
/// output and the report directory.
fn run_unlimited(exe: &Path, args: &[&str], env: &[(&str, &str)], tag: &str) -> (Output, PathBuf) {
    let out_dir = scratch_dir(tag);
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(r#"ulimit -s unlimited || exit 99; exec "$0" "$@""#)
        .arg(exe)
        .args(args)
        .env("TAINTPROF_OUT", &out_dir)
        .env_remove("TAINTPROF_REEXEC");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run sh (package dash or bash): {e}"));
    assert_ne!(
        out.status.code(),
        Some(99),
        "`ulimit -s unlimited` failed: the hard stack limit is finite here (raise it with `ulimit -Hs unlimited` as root) -- {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out, out_dir)
}

fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}

/// glibc's default thread stack size under `ulimit -s unlimited`, from an
/// uninstrumented program.
fn reference_thread_stack() -> String {
    let dir = scratch_dir("thread_stack_probe");
    let exe = dir.join("thread_stack_probe");
    let st = Command::new("cc")
        .args(["-O2", "-pthread", "-o"])
        .arg(&exe)
        .arg(program("thread_stack_probe.c"))
        .status()
        .unwrap_or_else(|e| panic!("cannot run cc (package gcc or clang): {e}"));
    assert!(st.success(), "cc failed to build thread_stack_probe.c");
    let (out, _) = run_unlimited(&exe, &[], &[], "thread_stack_probe_run");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

const ARGS: [&str; 6] = ["300", "7", "two words", "", "quote\"d", "--flag=x"];

/// Runs `b` under an unlimited stack and checks what the program saw of its start;
/// returns the report directory.
fn check_unlimited_run(b: &Build, what: &str) -> PathBuf {
    let (out, dir) = run_unlimited(
        &b.exe,
        &ARGS,
        &[("UNLIMITED_STACK_MARKER", "kept")],
        &format!("unlimited_{what}{}", b.opt.replace('-', "_")),
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let ctx = format!("[{what} {}]\nstdout:\n{stdout}\nstderr:\n{stderr}", b.opt);
    assert_eq!(
        out.status.code(),
        Some(7),
        "exit status {:?} {ctx}",
        out.status
    );
    assert!(!stderr.contains("error"), "{ctx}");
    let mut expected = vec![
        "stack_soft=unlimited".to_string(),
        "stack_hard=unlimited".to_string(),
        format!("argc={}", ARGS.len() + 1),
        format!("argv[0]=<{}>", b.exe.display()),
    ];
    for (i, a) in ARGS.iter().enumerate() {
        expected.push(format!("argv[{}]=<{a}>", i + 1));
    }
    expected.push("guard_getenv=0 guard_environ=0 guard_envp=0".into());
    expected.push("marker=kept".into());
    expected.push(format!("default_thread_stack={}", reference_thread_stack()));
    let lines: Vec<&str> = stdout.lines().collect();
    for e in &expected {
        assert!(lines.contains(&e.as_str()), "missing {e:?} {ctx}");
    }
    let thread_stack: u64 = lines
        .iter()
        .find_map(|l| l.strip_prefix("thread_stack="))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no thread_stack {ctx}"));
    assert!(
        thread_stack > 0 && thread_stack < 1 << 30,
        "new threads must not get the re-exec's huge stacks: {thread_stack} {ctx}"
    );
    dir
}

#[test]
fn an_unlimited_stack_limit_does_not_stop_taint_mode() {
    for opt in OPT_LEVELS {
        let b = build("unlimited_stack.c", opt, &["-pthread"]);
        let dir = check_unlimited_run(&b, "taint");
        let sources = [PathBuf::from(program("unlimited_stack.c"))];
        let r = report_of(&dir, &sources, opt, "");
        assert_eq!(r.parameters(), ["n"], "[{opt}]");
        r.assert_loop("work", "@work", &["n"]);
        assert_eq!(
            r.json["exit"],
            serde_json::json!({"reason": "exit", "code": 7}),
            "[{opt}]"
        );
        let argv: Vec<&str> = r.json["program"]["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(argv[1..], ARGS, "[{opt}]");
    }
}

#[test]
fn an_unlimited_stack_limit_does_not_stop_denormal_mode() {
    for opt in OPT_LEVELS {
        let b = build(
            "unlimited_stack.c",
            opt,
            &["-pthread", "--tp-mode=denormal"],
        );
        let dir = check_unlimited_run(&b, "denormal");
        let records = files_ending(&dir, ".denormal.rec");
        assert_eq!(records.len(), 1, "[{opt}] {records:?}");
        let v: Value = taintprof_tests::denormal_model_report(&records[0]);
        assert_eq!(v["schema"], "taintprof.denormal");
        let a = v["arrays"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["name"] == "a")
            .unwrap_or_else(|| panic!("[{opt}] no array a: {}", v["arrays"]));
        assert_eq!(a["denormal_reads"], 150, "[{opt}] {a}");
    }
}

#[test]
fn without_the_reexec_an_unlimited_stack_is_explained() {
    let b = build("unlimited_stack.c", "-O2", &["-pthread"]);
    let (out, dir) = run_unlimited(
        &b.exe,
        &ARGS,
        &[("TAINTPROF_UNLIMITED_STACK_MIB", "0")],
        "unlimited_off",
    );
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        out.stdout.is_empty(),
        "the program must not have run: {out:?}"
    );
    for needle in [
        "EEXIST",
        "the stack size limit is unlimited",
        "ulimit -s 8192",
        "TAINTPROF_UNLIMITED_STACK_MIB=0",
    ] {
        assert!(err.contains(needle), "stderr lacks {needle:?}:\n{err}");
    }
    assert!(
        !err.contains("sanitizer"),
        "an unlimited stack is not another sanitizer's fault:\n{err}"
    );
    assert!(files_ending(&dir, ".json").is_empty());
    assert!(files_ending(&dir, ".taintprof.rec").is_empty());
}
