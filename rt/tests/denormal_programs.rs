//! Integration tests of denormal mode: `tests/c/fake_denormal.c` calls the denormal
//! hooks by hand the way the pass will (declaring the v3 descriptors in C), links the
//! staticlib, runs, and the tests check the report the offline analysis makes of
//! `<prog>.<pid>.denormal.rec` (`taintprof_model::denormal`).
//!
//! Cold-path cost per event (optimized runtime):
//!
//! ```text
//! cargo test -p taintprof-rt --release --test denormal_programs -- --ignored --nocapture
//! ```

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use serde_json::Value;

mod common;

const NATIVE_LIBS: &[&str] = &[
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

/// The runtime archive programs link (`scripts/build-runtime.sh`), checked to be newer
/// than the runtime's sources.
fn staticlib() -> PathBuf {
    taintprof_tests::runtime_archive()
}

fn tmp_root() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("taintprof-rt-dn");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn program() -> &'static Path {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c");
        let exe = tmp_root().join("fake_denormal");
        let st = Command::new("cc")
            .args(["-O2", "-g", "-pthread", "-Wall", "-Wextra", "-I"])
            .arg(&dir)
            .arg("-o")
            .arg(&exe)
            .arg(dir.join("fake_denormal.c"))
            .arg(staticlib())
            .args(NATIVE_LIBS)
            .status()
            .unwrap();
        assert!(st.success(), "cc failed to build fake_denormal.c");
        exe
    })
}

struct Run {
    out: Output,
    dir: PathBuf,
}

impl Run {
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).into_owned()
    }
    fn files(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        v.sort();
        v
    }
    /// The one report of the run, as the offline analysis makes it of the run's one
    /// record: `kind` "denormal", of the denormal record `<prog>.<pid>.denormal.rec` (and
    /// no other file); `kind` "taintprof" (a program that mixes modes), of the raw run
    /// record `<prog>.<pid>.taintprof.rec`.
    fn report(&self, kind: &str) -> Value {
        if kind == "taintprof" {
            let records = common::records_in(&self.dir, &self.stderr());
            assert_eq!(records.len(), 1, "{records:?}\nstderr: {}", self.stderr());
            let name = records[0]
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            assert!(name.starts_with("fake_denormal."), "{name}");
            return common::model_report(&records[0]);
        }
        let files = self.files();
        assert_eq!(files.len(), 1, "{files:?}\nstderr: {}", self.stderr());
        let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("fake_denormal.") && name.ends_with(&format!(".{kind}.rec")),
            "{name}"
        );
        taintprof_tests::denormal_model_report(&files[0])
    }
}

fn run(mode: &str, n: u32, iters: u32, env: &[(&str, &str)]) -> Run {
    static K: AtomicUsize = AtomicUsize::new(0);
    let dir = tmp_root().join(format!(
        "out-{mode}-{}-{}",
        std::process::id(),
        K.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let mut c = Command::new(program());
    c.args([mode, &n.to_string(), &iters.to_string()])
        .env("TAINTPROF_OUT", &dir)
        .env("TAINTPROF_QUIET", "0")
        .env_remove("TAINTPROF_SNAPSHOT_OPS");
    for (k, v) in env {
        c.env(k, v);
    }
    Run {
        out: c.output().unwrap(),
        dir,
    }
}

fn array<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["arrays"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap_or_else(|| panic!("no array {name}"))
}

fn sites<'a>(v: &'a Value, op: &str) -> Vec<&'a Value> {
    v["sites"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["op"] == op && s["function"] == "sweep")
        .collect()
}

fn labels(v: &Value) -> Vec<String> {
    v["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["label"].as_str().unwrap().to_string())
        .collect()
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn jacobi_report_reads_like_the_thesis() {
    let n = 64u64;
    let iters = 100u64;
    let r = run("basic", n as u32, iters as u32, &[]);
    assert!(r.out.status.success(), "{}", r.stderr());
    let v = r.report("denormal");
    assert_eq!(v["schema"], "taintprof.denormal");
    assert_eq!(v["mode"], "compiler");
    assert_eq!(v["exit"], serde_json::json!({"reason": "exit", "code": 0}));
    assert_eq!(v["program"]["name"], "fake_denormal");
    assert_eq!(v["threads"], 1);
    assert_eq!(v["fp_environment"]["ftz"], false);
    assert_eq!(v["warnings"], serde_json::json!([]), "{}", v["warnings"]);
    let cells = (n - 2) * (n - 2) * iters;
    assert_eq!(v["totals"]["fp_operations"], 4 * cells);
    // Instruction profile (Table 6.3): the loads and the fadds see denormal operands,
    // the fmul creates denormal results, the store writes them.
    let loads = sites(&v, "load");
    assert_eq!(loads.len(), 1);
    assert_eq!(u(&loads[0]["executions"]), cells);
    let fadds = sites(&v, "fadd");
    assert_eq!(fadds.len(), 3);
    for f in &fadds {
        assert_eq!(u(&f["executions"]), cells);
        assert!(u(&f["denormal_operands"]) > 0);
    }
    let fmul = sites(&v, "fmul")[0];
    let store = sites(&v, "store")[0];
    assert!(u(&fmul["denormal_results"]) > 0);
    assert!(u(&store["denormal_stores"]) >= u(&fmul["denormal_results"]));
    // Sites are sorted by function, then by events.
    let order: Vec<(String, u64)> = v["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["function"].as_str().unwrap().to_string(),
                u(&s["denormal_operands"])
                    + u(&s["denormal_results"])
                    + u(&s["denormal_loads"])
                    + u(&s["denormal_stores"]),
            )
        })
        .collect();
    for w in order.windows(2) {
        assert!(
            w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 >= w[1].1),
            "{order:?}"
        );
    }
    let sum = |k: &str| -> u64 {
        v["sites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| u(&s[k]))
            .sum()
    };
    for k in [
        "denormal_operands",
        "denormal_results",
        "denormal_loads",
        "denormal_stores",
    ] {
        assert_eq!(sum(k), u(&v["totals"][k]), "{k}");
    }
    // Arrays (Table 6.4): a and b split the loads and stores, 4 reads per write, both
    // propagate; the seeds are a source; the stack array received 8 denormals.
    let (a, b) = (array(&v, "a"), array(&v, "b"));
    for x in [a, b] {
        assert_eq!(x["kind"], "heap");
        assert_eq!(x["shape"], serde_json::json!([64, 64]));
        assert_eq!(x["role"], "propagates");
        assert_eq!(x["live"], false);
        let (rd, wr) = (u(&x["denormal_reads"]), u(&x["denormal_writes"]));
        assert!(rd > 3 * wr && rd < 5 * wr, "{rd} {wr}");
    }
    assert_eq!(a["allocated_at"]["line"], 40);
    let seeds = array(&v, "seeds");
    assert_eq!(
        (seeds["kind"].as_str(), seeds["role"].as_str()),
        (Some("global"), Some("source"))
    );
    assert_eq!(u(&seeds["denormal_reads"]), iters + 8);
    let tmp = array(&v, "tmp");
    assert_eq!(tmp["kind"], "stack");
    assert_eq!(u(&tmp["denormal_writes"]), 8);
    assert_eq!(tmp["role"], "sink");
    assert_eq!(tmp["allocated_at"]["function"], "corner");
    let loads_total: u64 = ["a", "b", "seeds"]
        .iter()
        .map(|n| u(&array(&v, n)["denormal_reads"]))
        .sum();
    assert_eq!(loads_total, u(&v["totals"]["denormal_loads"]));
    // Origins: a's denormals come from b and vice versa.
    let origin = |d: &str, s: &str| -> u64 {
        v["origins"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["dest"] == d && o["src"] == s)
            .map(|o| u(&o["count"]))
            .unwrap_or(0)
    };
    assert!(origin("a", "b") > 0 && origin("b", "a") > 0);
    assert_eq!(origin("tmp", "seeds"), 8);
    // Creators: the fmul made the denormals of a and b; the seeds' came from file-like
    // data, first seen by their load.
    let creators = v["creators"].as_array().unwrap();
    let top_a = creators.iter().find(|c| c["array"] == "a").unwrap();
    assert_eq!(
        (top_a["op"].as_str(), top_a["line"].as_u64()),
        (Some("fmul"), Some(23))
    );
    let seed_c = creators.iter().find(|c| c["array"] == "seeds").unwrap();
    assert_eq!(
        (seed_c["function"].as_str(), seed_c["op"].as_str()),
        (Some("seed"), Some("load"))
    );
    // One exit snapshot with 64 x 64 heatmaps whose reads add up to the totals.
    assert_eq!(labels(&v), ["exit"]);
    let snap = &v["snapshots"][0];
    assert_eq!(u(&snap["fp_operations"]), 4 * cells);
    let sa = snap["arrays"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == a["id"])
        .unwrap();
    assert_eq!(
        (u(&sa["heatmap"]["rows"]), u(&sa["heatmap"]["cols"])),
        (64, 64)
    );
    assert_eq!(sa["heatmap"]["cell"], serde_json::json!([1, 1]));
    let hr: u64 = sa["heatmap"]["reads"]
        .as_array()
        .unwrap()
        .iter()
        .map(u)
        .sum();
    assert_eq!(hr, u(&a["denormal_reads"]));
    // The edges never hold denormals; the wavefront does.
    let hw: Vec<u64> = sa["heatmap"]["writes"]
        .as_array()
        .unwrap()
        .iter()
        .map(u)
        .collect();
    assert_eq!(hw[0], 0);
    assert!(hw.iter().any(|&x| x > 0));
    // Origin map of a from b, cumulative.
    let om = v["origin_maps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["dest"] == "a" && o["src"] == "b")
        .unwrap();
    let total: u64 = om["counts"].as_array().unwrap().iter().map(u).sum();
    assert_eq!(total, origin("a", "b"));
    assert!(
        r.stderr()
            .contains("denormal.rec (`taintprof denormals` reads it)"),
        "{}",
        r.stderr()
    );
}

#[test]
fn a_crash_leaves_a_partial_denormal_report() {
    let r = run("crash", 64, 40, &[]);
    assert_eq!(r.out.status.signal(), Some(11), "{}", r.stderr());
    let v = r.report("denormal");
    assert_eq!(
        v["exit"],
        serde_json::json!({"reason": "signal", "signal": "SIGSEGV", "number": 11})
    );
    assert_eq!(labels(&v), ["SIGSEGV"]);
    assert_eq!(array(&v, "a")["live"], true);
    assert!(u(&v["totals"]["denormal_loads"]) > 0);
    assert!(r
        .stderr()
        .contains("received SIGSEGV; partial record written to"));
}

#[test]
fn mixing_modes_is_an_error_and_the_report_says_so() {
    let r = run("mixed", 32, 4, &[]);
    assert!(r.out.status.success(), "{}", r.stderr());
    let err = r.stderr();
    assert!(
        err.contains("mixes instrumentation modes")
            && err.contains("'taint_part.c'")
            && err.contains("'fake_denormal.c'"),
        "{err}"
    );
    let v = r.report("taintprof");
    assert_eq!(v["schema"], "taintprof.taint");
    let w = v["warnings"].to_string();
    assert!(
        w.contains("mixes instrumentation modes") && w.contains("taint_part.c"),
        "{w}"
    );
}

#[test]
fn sigusr1_and_tp_snapshot_take_snapshots() {
    let r = run("sigusr1", 64, 30, &[]);
    assert!(r.out.status.success(), "{}", r.stderr());
    let v = r.report("denormal");
    assert_eq!(labels(&v), ["SIGUSR1", "SIGUSR1", "exit"]);
    let r = run("snapshot", 64, 50, &[]);
    assert!(r.out.status.success(), "{}", r.stderr());
    let v = r.report("denormal");
    assert_eq!(labels(&v), ["iter", "iter", "iter", "iter", "iter", "exit"]);
    // Intervals add up to the cumulative totals; totals grow.
    let a = array(&v, "a");
    let id = &a["id"];
    let mut sum = 0;
    let mut last = 0;
    let mut ops = 0;
    for s in v["snapshots"].as_array().unwrap() {
        assert!(u(&s["fp_operations"]) >= ops);
        ops = u(&s["fp_operations"]);
        if let Some(e) = s["arrays"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| &x["id"] == id)
        {
            if !e["heatmap"].is_null() {
                sum += e["heatmap"]["writes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(u)
                    .sum::<u64>();
            }
            assert!(u(&e["denormal_writes"]) >= last);
            last = u(&e["denormal_writes"]);
            assert_eq!(last, sum);
        }
    }
    assert_eq!(sum, u(&a["denormal_writes"]));
}

#[test]
fn the_ops_sampler_takes_snapshots() {
    let r = run("ops", 64, 200, &[("TAINTPROF_SNAPSHOT_OPS", "1")]);
    assert!(r.out.status.success(), "{}", r.stderr());
    let v = r.report("denormal");
    let l = labels(&v);
    assert!(l.iter().filter(|x| *x == "ops").count() >= 2, "{l:?}");
    assert_eq!(l.last().map(String::as_str), Some("exit"));
    let ops: Vec<u64> = v["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["label"] == "ops")
        .map(|s| u(&s["fp_operations"]))
        .collect();
    assert!(ops[0] >= 1_000_000, "{ops:?}");
}

#[test]
fn threads_are_counted_and_summed() {
    let n = 66u64;
    let iters = 40u64;
    let r = run("threads", n as u32, iters as u32, &[]);
    assert!(r.out.status.success(), "{}", r.stderr());
    let v = r.report("denormal");
    assert_eq!(v["threads"], 5, "main (tp_array_shape) and four workers");
    let cells = (n - 2) * (n - 2) * iters;
    assert_eq!(u(&v["totals"]["fp_operations"]), 4 * cells);
    assert_eq!(u(&sites(&v, "load")[0]["executions"]), cells);
    let single = run("basic", n as u32, iters as u32, &[]);
    let s = single.report("denormal");
    // The threads compute the same values (no seed/corner calls here), so the wavefront
    // is the same: the sweep's denormal loads match a single-threaded run's except for
    // the seeded cell.
    let tl = u(&sites(&v, "load")[0]["denormal_loads"]);
    let sl = u(&sites(&s, "load")[0]["denormal_loads"]);
    assert!(tl > 0 && sl > 0, "{tl} {sl}");
}

#[test]
fn flush_to_zero_is_reported() {
    let r = run("ftz", 64, 20, &[]);
    assert!(r.out.status.success(), "{}", r.stderr());
    let v = r.report("denormal");
    assert_eq!(v["fp_environment"]["ftz"], true);
    assert_eq!(v["fp_environment"]["daz"], true);
    assert_eq!(v["fp_environment"]["changed_by_program"], true);
    assert!(
        v["warnings"].to_string().contains("flushed to zero"),
        "{}",
        v["warnings"]
    );
}

/// The thesis's jacobi (6.4: 512 × 512 floats, edges 1.0, interior 0.0, 768 iterations),
/// instrumented by hand exactly as the pass instruments it, reproduces DART's Table 6.3
/// (denormal loads per load, denormal results per fadd/fmul, stores) and Table 6.4
/// (loads and stores per array) to the event: SSE float arithmetic rounds like DART's
/// 32-bit simulation.
#[test]
fn thesis_jacobi_tables_6_3_and_6_4() {
    let r = run("thesis", 512, 768, &[("TAINTPROF_QUIET", "1")]);
    assert!(r.out.status.success(), "{}", r.stderr());
    let v = r.report("denormal");
    let t = &v["totals"];
    assert_eq!(u(&t["denormal_loads"]), 17_908_672);
    assert_eq!(u(&t["denormal_results"]), 17_252_622);
    assert_eq!(u(&t["denormal_stores"]), 4_477_184);
    let res: Vec<u64> = sites(&v, "fadd")
        .iter()
        .map(|s| u(&s["denormal_results"]))
        .collect();
    assert_eq!(res, [4_306_412, 4_252_566, 4_216_460]);
    assert_eq!(u(&sites(&v, "fmul")[0]["denormal_results"]), 4_477_184);
    let mut arrays: Vec<(u64, u64)> = ["a", "b"]
        .iter()
        .map(|n| {
            let a = array(&v, n);
            (u(&a["denormal_reads"]), u(&a["denormal_writes"]))
        })
        .collect();
    arrays.sort();
    assert_eq!(arrays, [(8_914_864, 2_228_716), (8_993_808, 2_248_468)]);
}

/// Prints the cold-path cost per event. Meaningful with `--release`.
#[test]
#[ignore = "a benchmark that prints timings and asserts nothing: run it with --ignored --release"]
fn bench_cold_path() {
    let r = run("bench", 64, 20_000_000, &[("TAINTPROF_QUIET", "1")]);
    println!("{}", String::from_utf8_lossy(&r.out.stdout));
}
