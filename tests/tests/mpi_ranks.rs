//! End to end: the ranks of one MPI run are one result. A real program compiled with
//! the real plugin at -O0 and -O2 is run four times by a shell script, as `mpirun -np
//! 4` would start it (`OMPI_COMM_WORLD_RANK=0..3`, `OMPI_COMM_WORLD_SIZE=4`; no MPI
//! library needed), under `taintprof run`:
//!
//! * each process names its record with its rank (`mpiapp.rank<R>.<pid>.taintprof.rec`);
//! * `taintprof run` merges the four into one report, `mpiapp.mpi4.<pid of rank
//!   0>.taintprof.json`, writes no report per rank, and prints one summary that says
//!   `merged from 4 ranks (0-3)`;
//! * every loop's parameters in it are the union of the ranks' own (each record
//!   analysed alone);
//! * where the ranks disagree, `params_by_rank` says which saw what: the loop in `work`
//!   runs on `n` in even ranks and on `n` and `rank` in odd ones (the rank read with
//!   `getenv` and registered); the loop `root` runs in rank 0 only, which is no
//!   disagreement (the ranks that never reached it say nothing about it);
//! * `taintprof report DIR` shows the same merged result, with `ranks disagree` lines.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use taintprof_tests::*;

const PROGRAM: &str = r#"
#include <stdlib.h>
#include <taintprof.h>

static volatile long sink;

static int env_int(const char *name) {
    const char *v = getenv(name);
    return v ? atoi(v) : 0;
}

__attribute__((noinline)) static void work(int len) {
    for (int i = 0; i < len; i++) /* @work */
        sink += i;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10;
    int rank = env_int("OMPI_COMM_WORLD_RANK");
    /* The same rank, not registered: decisions on it give no label. */
    int myrank = env_int("OMPI_COMM_WORLD_RANK");
    tp_register_variable(&n, sizeof n, "n");
    tp_register_variable(&rank, sizeof rank, "rank");
    for (int i = 0; i < n; i++) /* @all */
        sink += i;
    int len = n;
    if (myrank % 2 == 1)
        len = n + rank;
    work(len);
    if (myrank == 0)
        for (int i = 0; i < n; i++) /* @root */
            sink += 2 * i;
    return 0;
}
"#;

/// The program's source, written once per test process.
fn source() -> PathBuf {
    let dir = scratch_dir("mpiapp-src");
    let src = dir.join("mpiapp.c");
    std::fs::write(&src, PROGRAM).unwrap();
    src
}

/// The files in `dir` whose names end with `suffix`, sorted.
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}

fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// `taintprof run --out OUT -- sh SCRIPT`, the script running `exe` as ranks 0 to 3:
/// (stderr, the report directory).
fn run_four_ranks(b: &Build) -> (String, PathBuf) {
    let out = b.dir.join("ranks");
    let _ = std::fs::remove_dir_all(&out);
    let script = b.dir.join("mpirun.sh");
    std::fs::write(
        &script,
        format!(
            "for r in 0 1 2 3; do\n  OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=4 '{}' 40 || exit 1\ndone\n",
            b.exe.display()
        ),
    )
    .unwrap();
    let o = run_cmd(
        Command::new(bin_dir().join("taintprof"))
            .arg("run")
            .arg("--out")
            .arg(&out)
            .args(["--", "sh"])
            .arg(&script)
            .current_dir(&b.dir),
    );
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        o.status.success(),
        "[{}] taintprof run failed: {stderr}",
        b.opt
    );
    (stderr, out)
}

/// `taintprof report ARGS` from `dir`: (success, stdout, stderr).
fn report(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let o = run_cmd(
        Command::new(bin_dir().join("taintprof"))
            .arg("report")
            .args(args)
            .current_dir(dir),
    );
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn the_ranks_of_one_run_make_one_report() {
    let src = source();
    let src = src.to_str().unwrap();
    at_each_level(&[src], &[], |b| {
        let opt = &b.opt;
        let (stderr, out) = run_four_ranks(b);

        // One record per rank, named with its rank; no report per rank.
        let recs = files(&out, ".taintprof.rec");
        let ranks: Vec<String> = recs
            .iter()
            .map(|p| name(p).split('.').nth(1).unwrap_or("").to_string())
            .collect();
        assert_eq!(
            ranks,
            ["rank0", "rank1", "rank2", "rank3"],
            "[{opt}] {recs:?}"
        );
        let jsons = files(&out, ".taintprof.json");
        assert_eq!(jsons.len(), 1, "[{opt}] {jsons:?}\n{stderr}");
        let merged_path = &jsons[0];
        let rank0_pid = name(&recs[0])
            .strip_prefix("mpiapp.rank0.")
            .and_then(|s| s.strip_suffix(".taintprof.rec"))
            .unwrap()
            .to_string();
        assert_eq!(
            name(merged_path),
            format!("mpiapp.mpi4.{rank0_pid}.taintprof.json"),
            "[{opt}]"
        );

        // One summary, saying it is the merge of the four ranks.
        assert_eq!(
            stderr.matches("merged from 4 ranks (0-3)").count(),
            1,
            "[{opt}] {stderr}"
        );
        assert_eq!(
            stderr.matches("taintprof: mpiapp (pid").count(),
            1,
            "[{opt}] {stderr}"
        );
        assert!(!stderr.contains("reports were written"), "[{opt}] {stderr}");
        assert!(stderr.contains(&name(merged_path)), "[{opt}] {stderr}");
        assert!(
            stderr.contains("1 loop whose parameters differ between ranks"),
            "[{opt}] {stderr}"
        );

        let mut r = Report::load(merged_path);
        r.sources = b.sources.clone();
        r.opt = opt.clone();
        assert_eq!(r.json["program"]["pid"].to_string(), rank0_pid, "[{opt}]");
        assert_eq!(r.json["merged_from"]["rank_source"], "mpi.rank", "[{opt}]");
        assert_eq!(r.json["merged_from"]["mpi_size"], 4, "[{opt}]");

        // Every loop's parameters are the union of the ranks' own.
        let alone: Vec<Report> = recs
            .iter()
            .map(|rec| {
                let mut x = Report {
                    json: taintprof_model::taint_report_of_files(&[rec]).unwrap(),
                    path: rec.clone(),
                    sources: b.sources.clone(),
                    opt: opt.clone(),
                };
                x.sources = b.sources.clone();
                x
            })
            .collect();
        for (func, marker) in [("main", "@all"), ("work", "@work"), ("main", "@root")] {
            let union: BTreeSet<String> = alone
                .iter()
                .flat_map(|x| x.loop_at(func, marker).params)
                .collect();
            assert_eq!(
                r.loop_at(func, marker).params,
                union,
                "[{opt}] {func} {marker}"
            );
        }
        assert_eq!(
            r.loop_at("work", "@work").params,
            names(&["n", "rank"]),
            "[{opt}]"
        );

        // Where they disagree, which rank saw what.
        assert!(
            r.loop_json("main", "@all").get("params_by_rank").is_none(),
            "[{opt}]"
        );
        assert_eq!(
            r.loop_json("work", "@work")["params_by_rank"],
            json!([
                {"ranks": [0, 2], "params": ["n"]},
                {"ranks": [1, 3], "params": ["n", "rank"]},
            ]),
            "[{opt}]"
        );
        // Only rank 0 ran `root`: the ranks that never reached it are no disagreement.
        assert!(
            r.loop_json("main", "@root").get("params_by_rank").is_none(),
            "[{opt}]"
        );
        assert_eq!(
            r.function("work")["exclusive_params_by_rank"],
            r.loop_json("work", "@work")["params_by_rank"],
            "[{opt}]"
        );

        // `taintprof report DIR`: the same merge, one report, the disagreement shown.
        let dir = out.to_str().unwrap();
        let (ok, text, err) = report(&out, &[dir]);
        assert!(ok, "[{opt}] {err}");
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with("taintprof report "))
                .count(),
            1,
            "[{opt}] {text}"
        );
        assert!(
            text.contains("from 4 ranks (0-3) of an MPI run of 4"),
            "[{opt}] {text}"
        );
        assert!(
            text.contains("ranks disagree: 0,2: n; 1,3: n, rank"),
            "[{opt}] {text}"
        );
        assert!(!text.contains("ranks disagree: 0: n"), "[{opt}] {text}");
        assert!(
            text.contains("ranks disagree (own loops): 0,2: n; 1,3: n, rank"),
            "[{opt}] {text}"
        );
        // Its JSON summary is one object, with the loop's disagreement.
        let (ok, js, err) = report(&out, &["--json", dir]);
        assert!(ok, "[{opt}] {err}");
        let v: Value = serde_json::from_str(&js).unwrap();
        assert!(v.is_object(), "[{opt}] {js}");
        assert_eq!(v["merged_from"]["description"], "4 ranks (0-3)", "[{opt}]");
        // The records named on the command line merge the same way.
        let rec_args: Vec<String> = recs.iter().map(|p| name(p)).collect();
        let rec_args: Vec<&str> = rec_args.iter().map(String::as_str).collect();
        let (ok, js2, err) = report(&out, &[&["--json"][..], &rec_args].concat());
        assert!(ok, "[{opt}] {err}");
        let v2: Value = serde_json::from_str(&js2).unwrap();
        assert!(v2.is_object(), "[{opt}] one merged summary: {js2}");
        assert_eq!(v2["functions"], v["functions"], "[{opt}]");
        // The merged JSON report reads like its records.
        let (ok, js3, err) = report(&out, &["--json", &name(merged_path)]);
        assert!(ok, "[{opt}] {err}");
        let v3: Value = serde_json::from_str(&js3).unwrap();
        assert_eq!(v3["functions"], v["functions"], "[{opt}]");
    });
}

#[test]
fn a_rank_without_partners_keeps_its_own_report() {
    let src = source();
    let b = compile(&[src.to_str().unwrap()], "-O0", &[]);
    let out = b.dir.join("one");
    let o = run_cmd(
        Command::new(bin_dir().join("taintprof"))
            .arg("run")
            .arg("--out")
            .arg(&out)
            .arg("--")
            .arg(&b.exe)
            .arg("12")
            .env("PMI_RANK", "2")
            .env("PMI_SIZE", "8")
            .current_dir(&b.dir),
    );
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{stderr}");
    let jsons = files(&out, ".taintprof.json");
    assert_eq!(jsons.len(), 1, "{jsons:?}");
    let n = name(&jsons[0]);
    assert!(n.starts_with("mpiapp.rank2.") && !n.contains(".mpi"), "{n}");
    assert!(!stderr.contains("merged from"), "{stderr}");
    let r = Report::load(&jsons[0]);
    assert!(r.json.get("merged_from").is_none());
}
