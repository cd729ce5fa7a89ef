//! End-to-end tests of the exception-based denormal profiler.
//!
//! Real C programs from `tests/programs/` are compiled with plain `clang-19` and `gcc`
//! (no taintprof) at `-O0` and `-O2` with `-g`, run natively and with
//! `LD_PRELOAD=libtaintprof_dip.so` (the one `scripts/build-dip.sh` built into
//! `target/release/`; refused when missing or older than the profiler's sources), and
//! the raw report is symbolized with `taintprof-symbolize`. Source lines are found by
//! `/* @marker */` comments, so the programs can be edited freely. Every profiled run's
//! output is compared with the native run: the profiler must not change results.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;
use taintprof_symbolize::report::{DenormalReport, Site};

const COMPILERS: [&str; 2] = ["clang-19", "gcc"];
const OPTS: [&str; 2] = ["-O0", "-O2"];

fn programs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

/// `target/<profile>`: this binary is `target/<profile>/deps/e2e-<hash>`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// The profiler: built apart from the workspace (without std, `panic = "abort"`) by
/// `scripts/build-dip.sh`, which `make build` runs; `cargo test` does not build it.
fn so() -> PathBuf {
    taintprof_tests::dip_library()
}

/// A fresh directory `target/<profile>/dip-tests/<tag>-<pid>-<n>`, kept for inspection
/// while this process lives; the first call removes those of processes that are gone.
fn scratch(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    static SWEEP: std::sync::Once = std::sync::Once::new();
    let root = profile_dir().join("dip-tests");
    SWEEP.call_once(|| taintprof_tests::sweep_stale(&root, "", 1));
    let n = N.fetch_add(1, Ordering::Relaxed);
    let d = root.join(format!("{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

struct Build {
    exe: PathBuf,
    dir: PathBuf,
    src: PathBuf,
    what: String,
}

fn compile(src: &str, cc: &str, opt: &str, extra: &[&str]) -> Build {
    let stem = src.trim_end_matches(".c");
    let dir = scratch(&format!("{stem}-{cc}{opt}"));
    let exe = dir.join(stem);
    let srcp = programs().join(src);
    let out = Command::new(cc)
        .args(["-g", opt])
        .arg(&srcp)
        .arg("-o")
        .arg(&exe)
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cc}: {e}"));
    assert!(
        out.status.success(),
        "{cc} {opt} {src} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Build {
        exe,
        dir,
        src: srcp,
        what: format!("{src} ({cc} {opt})"),
    }
}

fn builds(src: &str, extra: &[&str]) -> Vec<Build> {
    let mut v = Vec::new();
    for cc in COMPILERS {
        for opt in OPTS {
            v.push(compile(src, cc, opt, extra));
        }
    }
    v
}

fn native(b: &Build, args: &[&str]) -> Output {
    Command::new(&b.exe)
        .args(args)
        .current_dir(&b.dir)
        .output()
        .unwrap()
}

struct Run {
    out: Output,
    raws: Vec<PathBuf>,
}

impl Run {
    fn raw(&self) -> &Path {
        assert_eq!(
            self.raws.len(),
            1,
            "expected one raw report, found {:?}\nstderr: {}",
            self.raws,
            String::from_utf8_lossy(&self.out.stderr)
        );
        &self.raws[0]
    }

    fn report(&self) -> DenormalReport {
        let raw = taintprof_symbolize::read_raw(self.raw()).unwrap();
        taintprof_symbolize::symbolize(&raw).unwrap()
    }

    fn raw_json(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.raw()).unwrap()).unwrap()
    }
}

fn profiled(b: &Build, args: &[&str], env: &[(&str, &str)]) -> Run {
    let outdir = b.dir.join("out");
    let _ = std::fs::remove_dir_all(&outdir);
    let mut c = Command::new(&b.exe);
    c.args(args)
        .current_dir(&b.dir)
        .env("LD_PRELOAD", so())
        .env("TAINTPROF_OUT", &outdir)
        .env_remove("TAINTPROF_DIP_UNDERFLOW")
        .env_remove("TAINTPROF_QUIET")
        // These tests count exactly unless they ask for the sampled mode (the
        // profiler's default) themselves.
        .env("TAINTPROF_DIP_EXACT", "1");
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    let mut raws: Vec<PathBuf> = std::fs::read_dir(&outdir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.to_string_lossy().ends_with(".dip-raw.json"))
                .collect()
        })
        .unwrap_or_default();
    raws.sort();
    Run { out, raws }
}

/// Runs natively and profiled; asserts the same exit status and stdout.
fn compare(b: &Build, args: &[&str], env: &[(&str, &str)]) -> Run {
    let n = native(b, args);
    let p = profiled(b, args, env);
    assert_eq!(
        n.status.code(),
        p.out.status.code(),
        "{}: exit status differs\nstderr: {}",
        b.what,
        String::from_utf8_lossy(&p.out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&n.stdout),
        String::from_utf8_lossy(&p.out.stdout),
        "{}: output differs with the profiler",
        b.what
    );
    p
}

/// Line of `/* @marker */` in `src`.
fn line_of(src: &Path, marker: &str) -> u32 {
    let text = std::fs::read_to_string(src).unwrap();
    let pat = format!("/* {marker} */");
    let i = text
        .lines()
        .position(|l| l.contains(&pat))
        .unwrap_or_else(|| panic!("no {pat} in {}", src.display()));
    i as u32 + 1
}

fn sites_at<'a>(r: &'a DenormalReport, function: &str, src: &Path, line: u32) -> Vec<&'a Site> {
    let name = src.file_name().unwrap().to_str().unwrap();
    r.sites
        .iter()
        .filter(|s| s.function == function && s.line == line && s.file.ends_with(name))
        .collect()
}

fn operands(sites: &[&Site]) -> u64 {
    sites.iter().map(|s| s.denormal_operands).sum()
}

fn results(sites: &[&Site]) -> u64 {
    sites.iter().map(|s| s.denormal_results).sum()
}

fn dump(r: &DenormalReport) -> String {
    taintprof_symbolize::to_json(r)
}

fn check_common(b: &Build, r: &DenormalReport) {
    assert_eq!(r.schema, "taintprof.denormal");
    assert_eq!(r.version, 2);
    assert_eq!(r.mode, "exceptions");
    assert!(r.arrays.is_empty() && r.origins.is_empty() && r.creators.is_empty());
    assert!(r.snapshots.is_empty() && r.origin_maps.is_empty());
    assert_eq!(
        r.totals.denormal_operands,
        r.sites.iter().map(|s| s.denormal_operands).sum::<u64>()
    );
    assert_eq!(
        r.totals.denormal_results,
        r.sites.iter().map(|s| s.denormal_results).sum::<u64>()
    );
    let tl: u64 = r
        .timeline
        .iter()
        .map(|t| t.denormal_operands + t.denormal_results)
        .sum();
    assert_eq!(tl, r.totals.denormal_operands + r.totals.denormal_results);
    let exe = std::fs::canonicalize(&b.exe).unwrap();
    for s in &r.sites {
        assert!(s.executions.is_none() && s.denormal_loads.is_none());
        assert!(
            s.address.as_deref().unwrap_or("").starts_with("0x"),
            "{s:?}"
        );
        if s.module.as_deref() == Some(exe.to_str().unwrap()) {
            assert!(!s.instruction.as_deref().unwrap_or("").is_empty(), "{s:?}");
            assert_ne!(s.function, "??", "{s:?}");
        }
    }
    // Grouped by function: each function's sites are consecutive.
    let mut seen = Vec::new();
    for g in r.function_groups() {
        let key = (g.function.to_string(), g.module.map(str::to_string));
        assert!(!seen.contains(&key), "{key:?} appears twice:\n{}", dump(r));
        seen.push(key);
    }
}

#[test]
fn stencil_names_functions_lines_and_instructions() {
    for b in builds("stencil.c", &[]) {
        let run = compare(&b, &["150", "80", "0.0"], &[]);
        let r = run.report();
        check_common(&b, &r);
        let sweep = sites_at(&r, "sweep", &b.src, line_of(&b.src, "@stencil"));
        let halve = sites_at(&r, "halve", &b.src, line_of(&b.src, "@halve"));
        assert!(operands(&sweep) > 1000, "{}: sweep\n{}", b.what, dump(&r));
        assert!(operands(&halve) > 0, "{}: halve\n{}", b.what, dump(&r));
        assert!(
            sweep
                .iter()
                .all(|s| ["fadd", "fmul", "load"].contains(&s.op.as_str()) || s.ty == "float"),
            "{}: {sweep:?}",
            b.what
        );
        assert!(
            halve.iter().any(|s| s.ty == "double"),
            "{}: {halve:?}",
            b.what
        );
        assert_eq!(results(&sweep), 0);
        assert!(!r.fp_environment.ftz && !r.fp_environment.daz);
        assert!(
            !r.fp_environment.changed_by_program,
            "{}\n{}",
            b.what,
            dump(&r)
        );
        assert_eq!(r.exit.reason, "exit");
        assert_eq!(r.exit.code, Some(0));
        assert_eq!(r.threads, 1);
        assert!(r.warnings.iter().any(|w| w.contains("--underflow")));
        // The stencil dominates the profile.
        let g = &r.function_groups()[0];
        assert_eq!(g.function, "sweep", "{}", dump(&r));
        assert!(g.percent > 50.0);
        let raw = run.raw_json();
        assert_eq!(raw["schema"], "taintprof.dip-raw");
        assert!(raw["mappings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["path"].as_str().unwrap().ends_with("/stencil")));
    }
}

#[test]
fn underflow_option_counts_results_on_the_producing_line() {
    for b in builds("stencil.c", &[]) {
        let run = compare(
            &b,
            &["150", "80", "0.0"],
            &[("TAINTPROF_DIP_UNDERFLOW", "1")],
        );
        let r = run.report();
        check_common(&b, &r);
        let halve = sites_at(&r, "halve", &b.src, line_of(&b.src, "@halve"));
        assert!(results(&halve) > 0, "{}: halve\n{}", b.what, dump(&r));
        let sweep = sites_at(&r, "sweep", &b.src, line_of(&b.src, "@stencil"));
        assert!(results(&sweep) > 0, "{}: sweep\n{}", b.what, dump(&r));
        assert!(operands(&sweep) > 0);
        assert!(!r.warnings.iter().any(|w| w.contains("--underflow")));
        assert!(!r.fp_environment.changed_by_program, "{}", dump(&r));
    }
}

#[test]
fn no_denormals_no_events() {
    for b in builds("stencil.c", &[]) {
        let run = compare(
            &b,
            &["150", "80", "0.1", "10"],
            &[("TAINTPROF_DIP_UNDERFLOW", "1")],
        );
        let raw = run.raw_json();
        assert_eq!(raw["events"], serde_json::json!([]), "{}", b.what);
        // TAINTPROF_QUIET unset and stderr a pipe: the report line stays off stderr.
        let stderr = String::from_utf8_lossy(&run.out.stderr);
        assert!(
            !stderr.contains("raw report written"),
            "{}: {stderr}",
            b.what
        );
        let r = run.report();
        check_common(&b, &r);
        assert!(r.sites.is_empty());
        assert_eq!(r.totals.denormal_operands + r.totals.denormal_results, 0);
        assert!(!r.timeline.is_empty());
    }
}

#[test]
fn every_thread_is_profiled() {
    for b in builds("threads.c", &["-pthread"]) {
        let reps = 500u64;
        let run = compare(&b, &["500"], &[]);
        let r = run.report();
        check_common(&b, &r);
        assert_eq!(r.threads, 5, "{}", b.what);
        for (k, f) in ["work0", "work1", "work2", "work3"].iter().enumerate() {
            let sites = sites_at(&r, f, &b.src, line_of(&b.src, &format!("@w{k}")));
            assert!(
                operands(&sites) >= reps,
                "{}: {f} has {} events\n{}",
                b.what,
                operands(&sites),
                dump(&r)
            );
        }
        let raw = run.raw_json();
        assert_eq!(raw["threads_inherited_arming"], 4, "{}", b.what);
    }
}

#[test]
fn the_programs_own_signal_handlers_still_run() {
    for b in builds("ownfpe.c", &["-lm"]) {
        let run = compare(&b, &[], &[]);
        let stdout = String::from_utf8_lossy(&run.out.stdout).to_string();
        assert!(
            stdout.starts_with("handler=1 code=FPE_FLTDIV q=inf trap=1 query=1"),
            "{}: {stdout}",
            b.what
        );
        let r = run.report();
        check_common(&b, &r);
        let work = sites_at(&r, "denormal_work", &b.src, line_of(&b.src, "@work"));
        assert!(operands(&work) >= 200, "{}\n{}", b.what, dump(&r));
        assert!(!r.fp_environment.changed_by_program, "{}", dump(&r));
    }
}

#[test]
fn ftz_daz_set_by_the_program_is_reported() {
    for b in builds("ftz.c", &[]) {
        let run = compare(&b, &[], &[]);
        let r = run.report();
        check_common(&b, &r);
        assert!(r.fp_environment.ftz && r.fp_environment.daz, "{}", dump(&r));
        assert!(r.fp_environment.changed_by_program);
        assert_eq!(r.fp_environment.mxcsr, "0x1f80");
        assert!(
            r.warnings.iter().any(|w| w.contains("flush-to-zero")),
            "{}",
            dump(&r)
        );
        // Only the calls before _mm_setcsr trap.
        let work = sites_at(&r, "work", &b.src, line_of(&b.src, "@work"));
        assert!(
            operands(&work) >= 10 && operands(&work) < 100,
            "{}",
            dump(&r)
        );

        let clean = compare(&b, &["0"], &[]).report();
        assert!(!clean.fp_environment.changed_by_program, "{}", dump(&clean));
        assert!(!clean.warnings.iter().any(|w| w.contains("flush-to-zero")));
    }
}

#[test]
fn fast_math_start_up_code_is_reported() {
    for cc in COMPILERS {
        let b = compile("fastmath.c", cc, "-O2", &["-ffast-math"]);
        let r = compare(&b, &[], &[]).report();
        check_common(&b, &r);
        assert!(
            r.fp_environment.ftz && r.fp_environment.changed_by_program,
            "{cc}\n{}",
            dump(&r)
        );
        assert!(
            r.warnings
                .iter()
                .any(|w| w.contains("flush-to-zero") && w.contains("-ffast-math")),
            "{cc}\n{}",
            dump(&r)
        );
    }
}

#[test]
fn libm_sites_are_named_after_the_libm_function() {
    for b in builds("libm.c", &["-lm"]) {
        let run = compare(&b, &["200"], &[("TAINTPROF_DIP_UNDERFLOW", "1")]);
        let r = run.report();
        check_common(&b, &r);
        let libm: Vec<&Site> = r
            .sites
            .iter()
            .filter(|s| s.module.as_deref().unwrap_or("").contains("libm.so"))
            .collect();
        assert!(!libm.is_empty(), "{}\n{}", b.what, dump(&r));
        // expf's and exp's own instructions produce the denormal results: the
        // underflowing conversion in expf's implementation (__expf_fma, or whichever
        // variant the IFUNC chose) and the scaling in exp's `specialcase` (e_exp.c).
        assert!(results(&libm) >= 2 * 200, "{}: {libm:#?}", b.what);
        assert!(
            libm_debug_info_installed(),
            "no debug info for libm: apt-get install libc6-dbg (a dependency of valgrind, \
             which scripts/setup.sh installs)"
        );
        let expf: Vec<&Site> = libm
            .iter()
            .copied()
            .filter(|s| s.function.contains("expf"))
            .collect();
        assert!(results(&expf) >= 200, "{}: {libm:#?}", b.what);
        let exp: Vec<&Site> = libm
            .iter()
            .copied()
            .filter(|s| s.file.ends_with("/e_exp.c") || s.function.contains("__exp"))
            .collect();
        assert!(results(&exp) >= 200, "{}: {libm:#?}", b.what);
        assert!(libm.iter().all(|s| s.line > 0), "{}: {libm:#?}", b.what);
        assert!(libm
            .iter()
            .all(|s| !s.instruction.as_deref().unwrap_or("").is_empty()));
    }
}

/// Debian's libc6-dbg (a dependency of valgrind) has libm's debug info, with the
/// local names of IFUNC implementations such as `__expf_fma`.
fn libm_debug_info_installed() -> bool {
    let Ok(out) = Command::new("readelf")
        .args(["-n", "/lib/x86_64-linux-gnu/libm.so.6"])
        .output()
    else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(id) = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Build ID: "))
    else {
        return false;
    };
    id.len() > 2
        && Path::new(&format!(
            "/usr/lib/debug/.build-id/{}/{}.debug",
            &id[..2],
            &id[2..]
        ))
        .exists()
}

#[test]
fn a_crash_still_leaves_a_raw_report() {
    for b in builds("crash.c", &[]) {
        let run = compare(&b, &[], &[]);
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(run.out.status.signal(), Some(libc_sigsegv()), "{}", b.what);
        let stderr = String::from_utf8_lossy(&run.out.stderr);
        assert!(stderr.contains("received SIGSEGV"), "{}: {stderr}", b.what);
        let r = run.report();
        check_common(&b, &r);
        assert_eq!(r.exit.reason, "signal");
        assert_eq!(r.exit.signal.as_deref(), Some("SIGSEGV"));
        assert_eq!(r.exit.number, Some(11));
        assert!(r.warnings.iter().any(|w| w.contains("killed by SIGSEGV")));
        let work = sites_at(&r, "main", &b.src, line_of(&b.src, "@work"));
        assert!(operands(&work) >= 100, "{}\n{}", b.what, dump(&r));
    }
}

fn libc_sigsegv() -> i32 {
    11
}

#[test]
fn long_double_x87_operands_are_caught() {
    for b in builds("longdouble.c", &[]) {
        let run = compare(&b, &["10"], &[]);
        let r = run.report();
        check_common(&b, &r);
        let dot = sites_at(&r, "dot", &b.src, line_of(&b.src, "@dot"));
        assert!(operands(&dot) > 0, "{}\n{}", b.what, dump(&r));
        assert!(
            dot.iter().all(|s| s.ty == "x86_fp80" || s.ty == "float"),
            "{dot:?}"
        );
        let fsum = sites_at(&r, "fsum", &b.src, line_of(&b.src, "@fsum"));
        assert!(operands(&fsum) >= 10 * 32, "{}\n{}", b.what, dump(&r));
        let raw = run.raw_json();
        assert_eq!(raw["x87"]["armed"], true);
        assert_eq!(raw["x87"]["replays"]["unverified"], 0, "{}", b.what);
    }
}

/// The thesis's setting: the stencil on the x87 (gcc's -mfpmath=387). Denormal loads
/// and arithmetic with memory operands whose address registers have moved on by the
/// time the fault is reported: the replay must give bit-identical results.
#[test]
fn x87_replay_keeps_results_exact() {
    for opt in OPTS {
        let b = compile("stencil.c", "gcc", opt, &["-mfpmath=387"]);
        let run = compare(&b, &["150", "80", "0.0", "1060"], &[]);
        let r = run.report();
        check_common(&b, &r);
        let sweep = sites_at(&r, "sweep", &b.src, line_of(&b.src, "@stencil"));
        assert!(operands(&sweep) > 1000, "{}\n{}", b.what, dump(&r));
        assert!(sweep
            .iter()
            .all(|s| s.instruction.as_deref().unwrap_or("").starts_with('f')));
    }
}

#[test]
fn forked_and_execed_children_write_their_own_reports() {
    for b in builds("forker.c", &[]) {
        let run = compare(&b, &[], &[]);
        assert_eq!(run.raws.len(), 3, "{}: {:?}", b.what, run.raws);
        let mut pids = Vec::new();
        let mut counts = Vec::new();
        for raw in &run.raws {
            let r = taintprof_symbolize::symbolize(&taintprof_symbolize::read_raw(raw).unwrap())
                .unwrap();
            pids.push(r.program.pid);
            let work = sites_at(&r, "work", &b.src, line_of(&b.src, "@work"));
            counts.push(operands(&work));
        }
        pids.sort();
        pids.dedup();
        assert_eq!(pids.len(), 3);
        // work(10), work(20), work(30): the same events per iteration in each process.
        counts.sort();
        assert!(counts[0] >= 10, "{}: {counts:?}", b.what);
        assert_eq!(
            [counts[1], counts[2]],
            [2 * counts[0], 3 * counts[0]],
            "{}",
            b.what
        );
    }
}

/// Without debug information sites are named from the symbol table (no source lines),
/// and a warning says so.
#[test]
fn without_debug_info_the_symbol_table_names_functions() {
    for cc in COMPILERS {
        let b = compile("stencil.c", cc, "-O2", &["-g0"]);
        let r = compare(&b, &["150", "80", "0.0"], &[]).report();
        check_common(&b, &r);
        let sweep: Vec<&Site> = r.sites.iter().filter(|s| s.function == "sweep").collect();
        assert!(operands(&sweep) > 1000, "{cc}\n{}", dump(&r));
        assert!(sweep.iter().all(|s| s.line == 0 && s.file.is_empty()));
        assert!(
            r.warnings
                .iter()
                .any(|w| w.starts_with("no debug information for") && w.contains("/stencil")),
            "{cc}\n{}",
            dump(&r)
        );
    }
}

/// The share of all events on `line` (percent): of the counts, or the sampled
/// profile's estimate with its interval.
fn line_share(r: &DenormalReport, b: &Build, line: u32) -> taintprof_symbolize::report::Share {
    let name = b.src.file_name().unwrap().to_str().unwrap();
    let on = || {
        r.sites
            .iter()
            .filter(move |s| s.line == line && s.file.ends_with(name))
    };
    if r.sampled() {
        r.share_of_sites(on())
    } else {
        let p =
            100.0 * on().map(|s| s.events()).sum::<u64>() as f64 / r.total_events().max(1) as f64;
        taintprof_symbolize::report::Share {
            percent: p,
            low: p,
            high: p,
        }
    }
}

const SAMPLED: (&str, &str) = ("TAINTPROF_DIP_EXACT", "0");

/// The default, sampled mode on a loop whose events always come in the same mix (3:1
/// on two lines, between stretches of normal work): the estimated shares are those
/// of the exact count, within their 95% interval, from a small fraction of the events.
#[test]
fn sampled_shares_of_a_steady_loop_match_the_exact_count() {
    for b in builds("steady.c", &[]) {
        let exact = compare(&b, &[], &[]).report();
        assert_eq!(exact.sampling.as_ref().unwrap().mode, "exact");
        assert!(!exact.sampled());
        assert_eq!(exact.totals.denormal_operands, 4 * 50_000, "{}", b.what);
        let run = compare(&b, &[], &[SAMPLED]);
        let r = run.report();
        check_common(&b, &r);
        let sm = r.sampling.clone().unwrap();
        assert_eq!(sm.mode, "sampled", "{}", b.what);
        assert!(r.sampled() && !sm.complete, "{}: {sm:?}", b.what);
        assert!(sm.full_windows >= 5, "{}: {sm:?}", b.what);
        assert!(
            sm.samples * 10 < exact.totals.denormal_operands,
            "{}: {sm:?}",
            b.what
        );
        assert!(sm.events_at_least >= sm.samples);
        assert!(sm.events_at_least <= exact.totals.denormal_operands);
        assert!(r.warnings.iter().any(|w| w.starts_with("sampled profile")));
        let (three, one) = (line_of(&b.src, "@three"), line_of(&b.src, "@one"));
        for (line, want) in [(three, 75.0), (one, 25.0)] {
            let e = line_share(&exact, &b, line);
            assert!((e.percent - want).abs() < 1e-9, "{}: {e:?}", b.what);
            let s = line_share(&r, &b, line);
            assert!(
                (s.percent - e.percent).abs() < 5.0,
                "{}: line {line}: sampled {s:?}, exact {e:?}\n{}",
                b.what,
                dump(&r)
            );
            assert!(s.low <= s.percent && s.percent <= s.high, "{s:?}");
            assert!(s.high - s.low < 15.0, "{}: {s:?}", b.what);
        }
        // Each site carries its share and the weighted counts behind it.
        for s in &r.sites {
            let sh = s.share.expect("sampled sites have a share");
            assert!(sh.low <= sh.percent && sh.percent <= sh.high);
            assert_eq!(s.weighted.len(), 16);
        }
        let raw = run.raw_json();
        assert_eq!(raw["sampling"]["mode"], "sampled");
        assert_eq!(raw["sampling"]["period_ms"], 10);
        assert_eq!(raw["sampling"]["overhead_pct"], 10);
    }
}

/// A program with few events is counted completely even in sampled mode: no window
/// fills up, and the report says the counts are exact.
#[test]
fn sampled_mode_counts_sparse_events_completely() {
    for b in builds("steady.c", &[]) {
        // 40 iterations: 160 events, fewer than one window takes.
        let r = compare(
            &b,
            &["40", "2000"],
            &[SAMPLED, ("TAINTPROF_DIP_OVERHEAD", "100")],
        )
        .report();
        check_common(&b, &r);
        let sm = r.sampling.clone().unwrap();
        assert_eq!(sm.mode, "sampled");
        assert!(sm.complete, "{}: {sm:?}", b.what);
        assert!(!r.sampled());
        assert_eq!(r.totals.denormal_operands, 160, "{}\n{}", b.what, dump(&r));
        assert!(r
            .sites
            .iter()
            .all(|s| s.share.is_none() && s.weighted.is_empty()));
    }
}

/// x87 code in sampled mode: the replay still keeps results exact (compare checks the
/// output), and the long double lines are sampled.
#[test]
fn sampled_mode_keeps_x87_working() {
    for b in builds("longdouble.c", &[]) {
        let r = compare(&b, &["10"], &[SAMPLED]).report();
        check_common(&b, &r);
        assert_eq!(r.sampling.as_ref().unwrap().mode, "sampled");
        // A short run: the window at start sees the first events (in `dot`).
        let dot = sites_at(&r, "dot", &b.src, line_of(&b.src, "@dot"));
        let fsum = sites_at(&r, "fsum", &b.src, line_of(&b.src, "@fsum"));
        assert!(
            operands(&dot) + operands(&fsum) > 0,
            "{}\n{}",
            b.what,
            dump(&r)
        );
    }
    for opt in OPTS {
        let b = compile("stencil.c", "gcc", opt, &["-mfpmath=387"]);
        let r = compare(&b, &["150", "80", "0.0", "1060"], &[SAMPLED]).report();
        check_common(&b, &r);
        let sweep = sites_at(&r, "sweep", &b.src, line_of(&b.src, "@stencil"));
        assert!(operands(&sweep) > 0, "{}\n{}", b.what, dump(&r));
    }
}

/// Every thread gets its own windows (and timer) in sampled mode.
#[test]
fn sampled_mode_samples_every_thread() {
    for b in builds("threads.c", &["-pthread"]) {
        let r = compare(&b, &["500"], &[SAMPLED]).report();
        check_common(&b, &r);
        assert_eq!(r.threads, 5, "{}", b.what);
        for (k, f) in ["work0", "work1", "work2", "work3"].iter().enumerate() {
            let sites = sites_at(&r, f, &b.src, line_of(&b.src, &format!("@w{k}")));
            assert!(operands(&sites) > 0, "{}: {f}\n{}", b.what, dump(&r));
        }
        assert!(!r.fp_environment.changed_by_program, "{}", dump(&r));
    }
}

/// Emulating a register-to-register SSE instruction in the handler (one signal per
/// event) counts exactly what stepping it (two signals) counts, with the same results.
#[test]
fn emulated_and_stepped_events_count_the_same() {
    for b in builds("stencil.c", &[]) {
        let args = ["150", "80", "0.0"];
        // (Each run replaces the build's output directory: read before the next.)
        let stepped = compare(&b, &args, &[("TAINTPROF_DIP_EMULATE", "0")]);
        assert_eq!(stepped.raw_json()["emulated_events"], 0, "{}", b.what);
        let s = stepped.report();
        let emulated = compare(&b, &args, &[]);
        let e = emulated.report();
        let counts = |r: &DenormalReport| {
            let mut v: Vec<(Option<String>, u64, u64)> = r
                .sites
                .iter()
                .map(|x| (x.address.clone(), x.denormal_operands, x.denormal_results))
                .collect();
            v.sort();
            v
        };
        assert_eq!(counts(&s), counts(&e), "{}", b.what);
        if b.what.contains("-O2") {
            // Optimized code keeps operands in registers: events are emulated (most
            // of them with clang, which loads first; gcc reads memory operands).
            let n = emulated.raw_json()["emulated_events"].as_u64().unwrap();
            let share = if b.what.contains("clang") { 2 } else { 20 };
            assert!(
                n * share > e.totals.denormal_operands,
                "{}: {n} of {} emulated",
                b.what,
                e.totals.denormal_operands
            );
        }
    }
}

/// A program that installs its own handler for the sampling timer's signal gets it:
/// the profiler deletes its timers, says so, and the handler sees only the program's
/// own signal.
#[test]
fn the_timer_signal_is_handed_over_to_a_program_that_wants_it() {
    for b in builds("ownrt.c", &[]) {
        let run = compare(&b, &[], &[SAMPLED]);
        let out = String::from_utf8_lossy(&run.out.stdout).to_string();
        assert!(out.contains("handler calls = 1"), "{}: {out}", b.what);
        let stderr = String::from_utf8_lossy(&run.out.stderr);
        assert!(
            stderr.contains("uses the sampling timer's signal"),
            "{stderr}"
        );
        assert_eq!(run.raw_json()["sampling"]["signal_taken_by_program"], true);
        let r = run.report();
        check_common(&b, &r);
        assert!(
            r.warnings
                .iter()
                .any(|w| w.contains("sampling timer's signal")),
            "{}",
            dump(&r)
        );
    }
}
