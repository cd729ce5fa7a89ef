//! Issue 25 end to end, as the README shows it: a taint run gives the report; the
//! program rebuilt with `--tp-mode=time --tp-prior REPORT` is run by `taintprof
//! experiment` over the report's design; `taintprof model --prior REPORT` fits each call
//! path. On `examples/heat.c` and on the bench's C++ accessor kernel, at -O0 and -O2.
//!
//! What is asserted is what does not depend on the machine's noise: the visits and loop
//! counts (exact, so their models and predictions are exact or nearly so), the
//! parameters and structure of every model, and that -O0 and -O2 agree on them. How
//! close the *time* predictions come to a measured run is measured, not asserted (the
//! README and the closing note give the figures): a timed assertion would flake on a
//! loaded machine.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use taintprof_tests::*;

const HEAT: &str = "../../examples/heat.c";
const ACCESSORS: &str = "../../bench/workloads/accessors.cpp";

/// The models of one pipeline run, and the table `taintprof model` printed.
struct Models {
    models: Vec<Value>,
    table: String,
    /// The experiment's directory and the prior.
    exp: PathBuf,
    prior: PathBuf,
}

impl Models {
    fn get(&self, callpath: &str, metric: &str) -> &Value {
        self.models
            .iter()
            .find(|m| m["callpath"] == callpath && m["metric"] == metric)
            .unwrap_or_else(|| {
                panic!(
                    "no model of {callpath} / {metric}; have {:?}",
                    self.models
                        .iter()
                        .map(|m| format!("{} / {}", m["callpath"], m["metric"]))
                        .collect::<Vec<_>>()
                )
            })
    }
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The model's factors as (parameter, exponent, log exponent) per term, sorted.
fn structure(m: &Value) -> Vec<Vec<(String, f64, u64)>> {
    let mut terms: Vec<Vec<(String, f64, u64)>> = m["terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let mut f: Vec<(String, f64, u64)> = t["factors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    (
                        f["parameter"].as_str().unwrap().to_string(),
                        f["exponent"].as_f64().unwrap(),
                        f["log_exponent"].as_u64().unwrap(),
                    )
                })
                .collect();
            f.sort_by(|a, b| a.0.cmp(&b.0));
            f
        })
        .collect();
    terms.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
    terms
}

fn prediction(m: &Value) -> f64 {
    m["prediction"]["value"].as_f64().unwrap()
}

/// Taint run → time build with the prior → experiment → models.
fn pipeline(
    src: &str,
    opt: &str,
    extra: &[&str],
    taint_args: &[&str],
    design: &[&str],
    template: &[&str],
    predict: &str,
) -> Models {
    let taint = compile(&[src], opt, extra);
    let (_, run) = taint.run_ok(taint_args);
    let prior = run.reports[0].clone();
    let prior_arg = format!("--tp-prior={}", prior.display());
    let mut flags: Vec<&str> = extra.to_vec();
    flags.push(&prior_arg);
    let timed = compile(&[src], opt, &flags);
    let exp = timed.dir.join("experiment");
    let mut cmd = Command::new(taintprof_bin());
    cmd.arg("experiment")
        .arg("--quiet")
        .arg("--out")
        .arg(&exp)
        .arg("--prior")
        .arg(&prior)
        .arg("--design")
        .args(design)
        .args(["--reps", "3", "--"])
        .arg(&timed.exe)
        .args(template)
        .current_dir(&timed.dir);
    let said = run_ok_text(&mut cmd);
    assert!(said.contains("runs measured"), "{said}");
    let json = timed.dir.join("models.json");
    let table = run_ok_text(
        Command::new(taintprof_bin())
            .arg("model")
            .arg("--prior")
            .arg(&prior)
            .arg(&exp)
            .arg("--json")
            .arg(&json)
            .arg("--predict")
            .arg(predict),
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(doc["schema"], "taintprof.model");
    Models {
        models: doc["models"].as_array().unwrap().clone(),
        table,
        exp,
        prior,
    }
}

/// heat's exact counts: step runs `steps` times, (n-2) + (n-2)^2 iterations a call.
fn heat_step_iterations(n: f64, steps: f64) -> f64 {
    ((n - 2.0) + (n - 2.0) * (n - 2.0)) * steps
}

fn check_heat(m: &Models, opt: &str) {
    // Every call path of the prior was measured and matched by its call path.
    for path in ["main", "main->step", "main->init"] {
        let t = m.get(path, "time");
        assert_eq!(t["prior"]["used"], true, "[{opt}] {path}: {t}");
        assert_eq!(t["prior"]["matched_by"], "callpath", "[{opt}] {path}");
    }
    // step: visits are exactly `steps`; its time and its loops scale with n and steps
    // (the count is (n-2)^2*steps + (n-2)*steps: c*n^2*steps, the prior's one term,
    // comes within 5% at twice the largest n)
    // only (probes is excluded by the taint, whatever the noise says).
    let visits = m.get("main->step", "visits");
    assert_eq!(
        structure(visits),
        vec![vec![("steps".to_string(), 1.0, 0)]],
        "[{opt}] {visits}"
    );
    assert!((prediction(visits) - 64.0).abs() < 1e-6, "[{opt}] {visits}");
    let time = m.get("main->step", "time");
    assert_eq!(strs(&time["params"]), ["n", "steps"], "[{opt}] {time}");
    assert_eq!(strs(&time["prior"]["held_fixed"]).len(), 0);
    // The volume n^2*steps is the prior's only term, so the time model has one term,
    // a product of n and steps: c*n^2*steps when the lack-of-fit test accepts the
    // volume's exponents (on a quiet machine, the README's run), else the same
    // structure with searched exponents (noise, or the (n-2)^2 of the real count at
    // small n, can reject them; the exponents are not asserted for that reason).
    let s = structure(time);
    assert_eq!(s.len(), 1, "[{opt}] {time}");
    let factors: Vec<&str> = s[0].iter().map(|f| f.0.as_str()).collect();
    assert_eq!(factors, ["n", "steps"], "[{opt}] {time}");
    let iters = m.get("main->step", "iterations");
    assert_eq!(strs(&iters["params"]), ["n", "steps"], "[{opt}] {iters}");
    let truth = heat_step_iterations(256.0, 64.0);
    let err = (prediction(iters) - truth).abs() / truth;
    assert!(
        err < 0.05,
        "[{opt}] iterations at n=256: {} vs {truth}",
        prediction(iters)
    );
    // init: twice per run, n^2.
    let visits = m.get("main->init", "visits");
    assert!(structure(visits).is_empty(), "[{opt}] {visits}");
    assert!((prediction(visits) - 2.0).abs() < 1e-9, "[{opt}] {visits}");
    assert_eq!(visits["prior"]["constant"], true);
    let time = m.get("main->init", "time");
    assert_eq!(strs(&time["params"]), ["n"], "[{opt}] {time}");
    // main's own loops: steps + probes, exactly.
    let own = m.get("main", "iterations");
    assert_eq!(
        structure(own),
        vec![
            vec![("probes".to_string(), 1.0, 0)],
            vec![("steps".to_string(), 1.0, 0)]
        ],
        "[{opt}] {own}"
    );
    assert!(
        (prediction(own) - (64.0 + 5.0)).abs() < 1e-6,
        "[{opt}] {own}"
    );
    assert!(m.table.contains("main->step"), "{}", m.table);
}

/// The time records of every run, read directly by `taintprof model` (each record a
/// run, its coordinates the registered values), give the same models of the exact
/// counts as the experiment's measurements.json.
fn same_models_from_the_time_records(m: &Models, opt: &str) {
    let mut records = Vec::new();
    for point in std::fs::read_dir(m.exp.join("runs")).unwrap().flatten() {
        for rep in std::fs::read_dir(point.path()).unwrap().flatten() {
            for f in std::fs::read_dir(rep.path()).unwrap().flatten() {
                if taintprof_model::time::is_time_record(&f.path()) {
                    records.push(f.path());
                }
            }
        }
    }
    assert_eq!(records.len(), 29 * 3, "[{opt}] one record per run");
    let json = m.exp.join("from-records.json");
    run_ok_text(
        Command::new(taintprof_bin())
            .arg("model")
            .arg("--prior")
            .arg(&m.prior)
            .arg("--json")
            .arg(&json)
            .arg("--predict")
            .arg("n=256,steps=64,probes=5")
            .args(&records),
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let direct = Models {
        models: doc["models"].as_array().unwrap().clone(),
        table: String::new(),
        exp: m.exp.clone(),
        prior: m.prior.clone(),
    };
    for path in ["main", "main->step", "main->init"] {
        for metric in ["visits", "iterations"] {
            let (a, b) = (m.get(path, metric), direct.get(path, metric));
            assert_eq!(structure(a), structure(b), "[{opt}] {path} {metric}");
            assert!(
                (prediction(a) - prediction(b)).abs() <= 1e-6 * prediction(a).abs().max(1.0),
                "[{opt}] {path} {metric}: {a} vs {b}"
            );
        }
    }
}

#[test]
fn heat_experiment_and_models_at_o0_and_o2() {
    let mut exact = Vec::new();
    for opt in ["-O0", "-O2"] {
        let m = pipeline(
            HEAT,
            opt,
            &[],
            &["64", "10", "5"],
            &[
                "n=32,48,64,96,128",
                "steps=4,8,16,32,64",
                "probes=5,10,20,40,80",
            ],
            &["{n}", "{steps}", "{probes}"],
            "n=256,steps=64,probes=5",
        );
        check_heat(&m, opt);
        same_models_from_the_time_records(&m, opt);
        exact.push(
            ["main->step", "main->init", "main"]
                .iter()
                .flat_map(|p| {
                    ["visits", "iterations"].map(|k| {
                        let x = m.get(p, k);
                        (p.to_string(), k, structure(x), prediction(x).round() as i64)
                    })
                })
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(
        exact[0], exact[1],
        "-O0 and -O2 models of exact counts differ"
    );
}

fn accessor_flags() -> Vec<String> {
    let dir: &Path = &workspace_root().join("bench/workloads");
    vec!["-DTP_BENCH_TAINT".into(), format!("-I{}", dir.display())]
}

#[test]
fn accessor_kernel_experiment_and_models_at_o0_and_o2() {
    let flags = accessor_flags();
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let mut exact = Vec::new();
    for opt in ["-O0", "-O2"] {
        let m = pipeline(
            ACCESSORS,
            opt,
            &flags,
            &["32", "2"],
            &["n=16,24,32,48,64", "reps=1,2,3,4,6"],
            &["{n}", "{reps}"],
            "n=128,reps=6",
        );
        // The templated convolution: called once per repetition, n^2 a call.
        let conv = m
            .models
            .iter()
            .find(|x| {
                x["metric"] == "visits"
                    && x["callpath"]
                        .as_str()
                        .is_some_and(|c| c.starts_with("main->") && c.contains("convolve<"))
            })
            .unwrap_or_else(|| panic!("[{opt}] no convolve call path:\n{}", m.table));
        let path = conv["callpath"].as_str().unwrap().to_string();
        assert_eq!(conv["prior"]["matched_by"], "callpath", "[{opt}] {conv}");
        assert_eq!(
            structure(conv),
            vec![vec![("reps".to_string(), 1.0, 0)]],
            "[{opt}] {conv}"
        );
        assert!((prediction(conv) - 6.0).abs() < 1e-6, "[{opt}] {conv}");
        let time = m.get(&path, "time");
        assert_eq!(strs(&time["params"]), ["n", "reps"], "[{opt}] {time}");
        let iters = m.get(&path, "iterations");
        assert_eq!(strs(&iters["params"]), ["n", "reps"], "[{opt}] {iters}");
        exact.push((
            path.clone(),
            structure(conv),
            structure(iters),
            prediction(iters).round() as i64,
        ));
    }
    assert_eq!(exact[0], exact[1], "-O0 and -O2 differ");
}
