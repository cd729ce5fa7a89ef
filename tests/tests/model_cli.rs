//! `taintprof model` end to end (issue 25, item 3), running the real `taintprof` binary:
//! generated measurements (seeded) in Extra-P's text, JSON and JSON Lines formats give
//! the same models; a hand-written taint report as the prior (a constant function, a
//! kernel `n^2*m`, a contended function, a function matched by name, a parameter held
//! fixed); `--predict`, `--json`, `--html`; the `.extra-p` file read back by Extra-P
//! 4.2.5 itself, and Extra-P reading our JSON and JSON Lines; one-line errors.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use taintprof_fit::experiment::Experiment;
use taintprof_fit::gen::{generate, XorShift};
use taintprof_fit::{extrap_json, extrap_text, Factor, Model, Term};
use taintprof_tests::*;

/// Runs `taintprof model ARGS`: (success, stdout, stderr).
fn model(args: &[&str], dir: &Path) -> (bool, String, String) {
    let out = run_cmd(
        Command::new(taintprof_bin())
            .arg("model")
            .args(args)
            .current_dir(dir),
    );
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn model_ok(args: &[&str], dir: &Path) -> String {
    let (ok, out, err) = model(args, dir);
    assert!(ok, "taintprof model {args:?} failed:\n{err}");
    out
}

/// The experiment: n and m on a 5 x 5 grid, three repetitions, 2% noise.
///
/// * `main->kernel` = 2 + 0.5·n²·m (the report: n^2*m);
/// * `main->setup` = 0.25 (the report: constant);
/// * `main->comm` = 0.01·n·(1 + 0.4·m) (the report: n; contention grows with m);
/// * `main->ns::halo` = 3·n (the report's function `ns::halo(int)`, matched by name);
/// * `main` = the sum, plus 5 (the report: n^2*m + n + q, q held fixed).
fn experiment() -> Experiment {
    let ns = vec![16.0, 32.0, 64.0, 128.0, 256.0];
    let ms = vec![1.0, 2.0, 4.0, 8.0, 16.0];
    let mut rng = XorShift::new(25);
    let mut e = Experiment::new(vec!["n".into(), "m".into()]);
    let truths: Vec<(&str, Truth)> = vec![
        (
            "main",
            Box::new(|c| {
                5.0 + 2.0
                    + 0.5 * c[0] * c[0] * c[1]
                    + 0.25
                    + 0.01 * c[0] * (1.0 + 0.4 * c[1])
                    + 3.0 * c[0]
            }),
        ),
        ("main->kernel", Box::new(|c| 2.0 + 0.5 * c[0] * c[0] * c[1])),
        ("main->setup", Box::new(|_| 0.25)),
        ("main->comm", Box::new(|c| 0.01 * c[0] * (1.0 + 0.4 * c[1]))),
        ("main->ns::halo", Box::new(|c| 3.0 * c[0])),
    ];
    for (cp, f) in truths {
        let m = generate(
            &["n", "m"],
            &[ns.clone(), ms.clone()],
            3,
            0.02,
            |c| f(c),
            &mut rng,
        );
        for p in &m.points {
            e.add(cp, "time", &p.coords, &p.reps);
        }
    }
    e
}

/// The true function of a generated series.
type Truth = Box<dyn Fn(&[f64]) -> f64>;

fn terms(t: &[&[(&[&str], u32)]]) -> Value {
    Value::Array(
        t.iter()
            .map(|t| {
                Value::Array(
                    t.iter()
                        .map(|(ps, k)| json!({"params": ps, "power": k}))
                        .collect(),
                )
            })
            .collect(),
    )
}

/// A hand-written taint report with the keys the modeler reads.
fn report() -> Value {
    let ctx = |cp: &str, path: &[&str], incl: &[&str], calls: Value, total: Value| {
        json!({"callpath": cp, "path": path.iter().map(|f| json!({"function": f})).collect::<Vec<_>>(),
               "inclusive_params": incl, "calls_volume_terms": calls, "total_volume_terms": total})
    };
    json!({"schema": "taintprof.taint", "functions": [
        {"name": "main", "linkage": "main", "constant": false, "inclusive_params": ["n", "m", "q"],
         "volume_terms": terms(&[&[(&["n"], 2), (&["m"], 1)], &[(&["n"], 1)], &[(&["q"], 1)]]),
         "contexts": [ctx("main", &[], &["n", "m", "q"], terms(&[&[]]),
                          terms(&[&[(&["n"], 2), (&["m"], 1)], &[(&["n"], 1)], &[(&["q"], 1)]]))],
         "branches": []},
        {"name": "kernel", "linkage": "kernel", "constant": false, "inclusive_params": ["n"],
         "volume_terms": terms(&[&[(&["n"], 2)]]),
         "contexts": [ctx("main->kernel", &["main"], &["n", "m"], terms(&[&[(&["m"], 1)]]),
                          terms(&[&[(&["n"], 2), (&["m"], 1)]]))],
         "branches": [{"line": 12, "params": ["n"]}, {"line": 13, "params": []}]},
        {"name": "setup", "linkage": "setup", "constant": true, "inclusive_params": [],
         "volume_terms": terms(&[&[]]),
         "contexts": [ctx("main->setup", &["main"], &[], terms(&[&[]]), terms(&[&[]]))],
         "branches": []},
        {"name": "comm", "linkage": "comm", "constant": false, "inclusive_params": ["n"],
         "volume_terms": terms(&[&[(&["n"], 1)]]),
         "contexts": [ctx("main->comm", &["main"], &["n"], terms(&[&[]]), terms(&[&[(&["n"], 1)]]))],
         "branches": []},
        {"name": "ns::halo(int)", "linkage": "_ZN2ns4haloEi", "constant": false, "inclusive_params": ["n"],
         "volume_terms": terms(&[&[(&["n"], 1)]]),
         "contexts": [ctx("main->exchange->ns::halo(int)", &["main", "exchange"], &["n"], terms(&[&[]]),
                          terms(&[&[(&["n"], 1)]]))],
         "branches": []}
    ]})
}

/// A scratch directory with the experiment as `exp.txt`, `exp.json`, `exp.jsonl` and the
/// report as `prior.json`.
fn setup(tag: &str) -> (PathBuf, Experiment) {
    let dir = scratch_dir(tag);
    let mut e = experiment();
    e.sort_data();
    std::fs::write(dir.join("exp.txt"), extrap_text::write_text(&e).unwrap()).unwrap();
    std::fs::write(dir.join("exp.json"), extrap_json::write_json(&e)).unwrap();
    std::fs::write(dir.join("exp.jsonl"), extrap_json::write_jsonl(&e)).unwrap();
    std::fs::write(
        dir.join("prior.json"),
        serde_json::to_string_pretty(&report()).unwrap(),
    )
    .unwrap();
    (dir, e)
}

fn load(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn entry<'a>(doc: &'a Value, callpath: &str) -> &'a Value {
    doc["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["callpath"] == callpath && m["metric"] == "time")
        .unwrap_or_else(|| panic!("no model of {callpath} in {doc}"))
}

/// A model from its JSON terms, over `params`.
fn model_of(v: &Value, params: &[&str]) -> Model {
    Model {
        constant: v["constant_term"].as_f64().unwrap(),
        terms: v["terms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| Term {
                coefficient: t["coefficient"].as_f64().unwrap(),
                factors: t["factors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| Factor {
                        param: params.iter().position(|p| f["parameter"] == *p).unwrap(),
                        exponent: f["exponent"].as_f64().unwrap(),
                        log_exponent: f["log_exponent"].as_u64().unwrap() as u32,
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The structure of a model: `(parameter, exponent, log exponent)` per factor (in
/// parameter-name order), per term.
fn structure(v: &Value) -> Vec<Vec<(String, f64, u64)>> {
    v["terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            t["factors"]
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
                .collect::<Vec<_>>()
        })
        .map(|mut t| {
            t.sort_by(|a, b| a.0.cmp(&b.0));
            t
        })
        .collect()
}

#[test]
fn text_json_and_json_lines_give_the_same_models() {
    let (dir, _) = setup("model-formats");
    let mut docs = Vec::new();
    for f in ["exp.txt", "exp.json", "exp.jsonl"] {
        let out = format!("{f}.models.json");
        model_ok(&["--prior", "prior.json", f, "--json", &out], &dir);
        docs.push(load(&dir.join(out)));
    }
    assert_eq!(docs[0]["models"].as_array().unwrap().len(), 5);
    assert_eq!(docs[0], docs[1], "text and JSON differ");
    assert_eq!(docs[0], docs[2], "text and JSON Lines differ");
    // A directory written by `taintprof experiment`: its measurements.json.
    std::fs::create_dir_all(dir.join("expdir")).unwrap();
    std::fs::copy(dir.join("exp.json"), dir.join("expdir/measurements.json")).unwrap();
    model_ok(
        &["--prior", "prior.json", "expdir", "--json", "dir.json"],
        &dir,
    );
    assert_eq!(
        docs[0],
        load(&dir.join("dir.json")),
        "the directory differs"
    );
    // Two files of the same parameters are merged: the repetitions add up.
    model_ok(&["exp.txt", "exp.json", "--json", "twice.json"], &dir);
    let twice = load(&dir.join("twice.json"));
    assert_eq!(twice["models"].as_array().unwrap().len(), 5);
}

#[test]
fn the_prior_constant_kernel_contention_name_match_and_predictions() {
    let (dir, _) = setup("model-prior");
    let table = model_ok(
        &[
            "--prior",
            "prior.json",
            "exp.json",
            "--json",
            "m.json",
            "--predict",
            "n=512,m=32",
        ],
        &dir,
    );
    let doc = load(&dir.join("m.json"));
    assert_eq!(doc["schema"], "taintprof.model");
    assert_eq!(doc["version"], 2);

    // The constant function: a constant model with the prior, and the table says so.
    let setup_m = entry(&doc, "main->setup");
    assert_eq!(setup_m["terms"], json!([]));
    assert_eq!(setup_m["prior"]["used"], true);
    assert_eq!(setup_m["prior"]["constant"], true);
    assert!((setup_m["constant_term"].as_f64().unwrap() / 0.25 - 1.0).abs() < 0.01);
    assert!(table.contains("constant by taint: 0.25"), "{table}");

    // The kernel n^2*m, exactly.
    let kernel = entry(&doc, "main->kernel");
    assert_eq!(
        structure(kernel),
        vec![vec![("m".to_string(), 1.0, 0), ("n".to_string(), 2.0, 0)]],
        "{kernel}"
    );
    let c = kernel["terms"][0]["coefficient"].as_f64().unwrap();
    assert!((c / 0.5 - 1.0).abs() < 0.02, "coefficient {c}");
    assert_eq!(kernel["prior"]["matched_by"], "callpath");
    assert_eq!(kernel["prior"]["volume"], "n^2*m");
    // Its branch on n: a possibility, said in the JSON and the table.
    let w = kernel["warnings"].as_array().unwrap();
    assert!(
        w.iter()
            .any(|w| w["kind"] == "tainted_branch" && w["parameter"] == "n"),
        "{kernel}"
    );
    assert!(table.contains("has a branch on n (line 12)"), "{table}");

    // Contention: contradicts_prior names m, in the JSON and the table.
    let comm = entry(&doc, "main->comm");
    let w: Vec<&Value> = comm["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["kind"] == "contradicts_prior")
        .collect();
    assert_eq!(w.len(), 1, "{comm}");
    assert_eq!(w[0]["parameter"], "m");
    assert!(
        table.contains("grows with m by ~") && table.contains("does not depend on m"),
        "{table}"
    );
    assert!(entry(&doc, "main->kernel")["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|w| w["kind"] != "contradicts_prior"));

    // Matched by name (ns::halo against ns::halo(int)), and said so.
    let halo = entry(&doc, "main->ns::halo");
    assert_eq!(halo["prior"]["matched_by"], "name");
    assert_eq!(halo["prior"]["function"], "ns::halo(int)");
    assert_eq!(structure(halo), vec![vec![("n".to_string(), 1.0, 0)]]);
    assert!(table.contains("matched by name"), "{table}");

    // The root: main's volume with q (not measured) held fixed.
    let main = entry(&doc, "main");
    assert_eq!(main["prior"]["held_fixed"], json!(["q"]));
    assert!(table.contains("held fixed"), "{table}");

    // --predict: the values are the models' own at the point.
    for m in doc["models"].as_array().unwrap() {
        let at = [512.0, 32.0];
        assert_eq!(m["prediction"]["point"], json!({"n": 512.0, "m": 32.0}));
        let want = model_of(m, &["n", "m"]).eval(&at);
        let got = m["prediction"]["value"].as_f64().unwrap();
        assert!(
            (got - want).abs() <= 1e-12 * want.abs().max(1.0),
            "{got} {want}"
        );
        let bb = model_of(&m["black_box"], &["n", "m"]).eval(&at);
        let got = m["prediction"]["black_box"].as_f64().unwrap();
        assert!((got - bb).abs() <= 1e-12 * bb.abs().max(1.0), "{got} {bb}");
    }
    let kernel_at = model_of(kernel, &["n", "m"]).eval(&[512.0, 32.0]);
    assert!(
        (kernel_at / (2.0 + 0.5 * 512.0 * 512.0 * 32.0) - 1.0).abs() < 0.03,
        "{kernel_at}"
    );
    assert!(table.contains("at n=512, m=32"), "{table}");
}

#[test]
fn json_has_every_schema_key() {
    let (dir, _) = setup("model-schema");
    model_ok(
        &[
            "--prior",
            "prior.json",
            "exp.txt",
            "--json",
            "m.json",
            "--predict",
            "n=64,m=4",
        ],
        &dir,
    );
    let doc = load(&dir.join("m.json"));
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&doc), ["schema", "version", "models"]);
    for m in doc["models"].as_array().unwrap() {
        assert_eq!(
            keys(m),
            [
                "callpath",
                "metric",
                "model",
                "params",
                "constant_term",
                "terms",
                "fit",
                "warnings",
                "prior",
                "black_box",
                "prediction"
            ],
            "{m}"
        );
        for k in ["smape", "adj_r2", "rss"] {
            assert!(m["fit"][k].is_number(), "{k} in {m}");
        }
        assert_eq!(
            keys(&m["prior"]),
            [
                "used",
                "matched_by",
                "function",
                "constant",
                "volume",
                "held_fixed"
            ]
        );
        for t in m["terms"].as_array().unwrap() {
            assert_eq!(keys(t), ["coefficient", "factors"]);
            for f in t["factors"].as_array().unwrap() {
                assert_eq!(keys(f), ["parameter", "exponent", "log_exponent"]);
            }
        }
        for w in m["warnings"].as_array().unwrap() {
            assert!(w["kind"].is_string() && w["detail"].is_string(), "{w}");
            if w["kind"] == "contradicts_prior" || w["kind"] == "tainted_branch" {
                assert!(w["parameter"].is_string(), "{w}");
            }
        }
        assert_eq!(
            keys(&m["black_box"]),
            [
                "model",
                "params",
                "constant_term",
                "terms",
                "fit",
                "warnings"
            ]
        );
        assert_eq!(keys(&m["prediction"]), ["point", "value", "black_box"]);
    }
    // Without a prior: black box only, `black_box` null, prior unused.
    model_ok(&["exp.txt", "--json", "bb.json"], &dir);
    let bb = load(&dir.join("bb.json"));
    for m in bb["models"].as_array().unwrap() {
        assert_eq!(m["prior"]["used"], false);
        assert_eq!(m["prior"]["matched_by"], "none");
        assert!(m["black_box"].is_null());
        assert!(m.get("prediction").is_none());
    }
}

#[test]
fn html_plots_every_call_path_with_both_curves() {
    let (dir, _) = setup("model-html");
    model_ok(&["--prior", "prior.json", "exp.txt", "--html", "h"], &dir);
    let page = std::fs::read_to_string(dir.join("h/index.html")).unwrap();
    for cp in [
        "main",
        "main-&gt;kernel",
        "main-&gt;setup",
        "main-&gt;comm",
        "main-&gt;ns::halo",
    ] {
        let at = page
            .find(&format!("<h2>{cp}</h2>"))
            .unwrap_or_else(|| panic!("no section {cp}"));
        let section = &page[at..];
        let end = section[4..].find("<h2>").map_or(section.len(), |e| e + 4);
        let section = &section[..end];
        // Two varied parameters: two plots, each with both curves.
        assert_eq!(section.matches("<svg").count(), 2, "{cp}");
        assert_eq!(
            section.matches("data-curve=\"taint prior\"").count(),
            2,
            "{cp}"
        );
        assert_eq!(
            section.matches("data-curve=\"black box\"").count(),
            2,
            "{cp}"
        );
    }
    assert!(!page.contains("<script"), "no scripts");
    assert!(!page.contains("main->"), "call paths are escaped");
    assert!(page.contains("warning: grows with m"));
}

/// The Python of the `extrap` program's virtual environment.
fn extrap_python() -> PathBuf {
    let e = extrap();
    let py = e.with_file_name("python");
    assert!(
        py.is_file(),
        "{} is missing next to {}",
        py.display(),
        e.display()
    );
    py
}

fn python(script: &str, args: &[&Path]) -> Value {
    let out = run_cmd(
        Command::new(extrap_python())
            .arg("-c")
            .arg(script)
            .args(args),
    );
    assert!(
        out.status.success(),
        "python failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Reads an `.extra-p` file with Extra-P and prints its parameters, measurements (mean,
/// repetitions) and, per model set, each model's string and values at the measured
/// points.
const READ_EXPERIMENT: &str = r#"
import sys, json, warnings
warnings.simplefilter("ignore")
from extrap.fileio.experiment_io import read_experiment
e = read_experiment(sys.argv[1])
one = len(e.parameters) == 1
out = {"parameters": [str(p) for p in e.parameters], "measurements": {}, "sets": {}}
for (cp, mt), ms in e.measurements.items():
    out["measurements"][f"{cp}|{mt}"] = [[list(map(float, m.coordinate)), float(m.mean), int(m.repetitions)] for m in ms]
for g in e.modelers:
    s = {}
    for (cp, mt), model in g.models.items():
        f = model.hypothesis.function
        vals = [float(f.evaluate(float(m.coordinate[0]) if one else list(m.coordinate))) for m in e.measurements[(cp, mt)]]
        s[f"{cp}|{mt}"] = {"model": f.to_string(*e.parameters), "values": vals}
    out["sets"][g.name] = s
print(json.dumps(out))
"#;

#[test]
fn extrap_reads_the_experiment_file_with_both_model_sets() {
    let (dir, e) = setup("model-extrap");
    model_ok(
        &[
            "--prior",
            "prior.json",
            "exp.txt",
            "--json",
            "m.json",
            "--extrap",
            "m.extra-p",
        ],
        &dir,
    );
    let doc = load(&dir.join("m.json"));
    let got = python(READ_EXPERIMENT, &[&dir.join("m.extra-p")]);
    assert_eq!(got["parameters"], json!(["n", "m"]));
    let sets = got["sets"].as_object().unwrap();
    assert_eq!(
        sets.keys().collect::<Vec<_>>(),
        ["taint prior", "black box"]
    );
    for s in &e.series {
        let key = format!("{}|{}", s.callpath, s.metric);
        let ms = got["measurements"][&key].as_array().unwrap();
        assert_eq!(ms.len(), s.data.len(), "{key}");
        for (m, (i, reps)) in ms.iter().zip(&s.data) {
            let coords: Vec<f64> = m[0]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            assert_eq!(coords, e.points[*i]);
            let mean = reps.iter().sum::<f64>() / reps.len() as f64;
            assert!((m[1].as_f64().unwrap() - mean).abs() <= 1e-12 * mean.abs());
            assert_eq!(m[2].as_u64().unwrap() as usize, reps.len());
        }
        let ours = entry(&doc, &s.callpath);
        for (set, model) in [("taint prior", ours), ("black box", &ours["black_box"])] {
            let theirs = &sets[set][&key];
            let ours = model_of(model, &["n", "m"]);
            for ((i, _), v) in s.data.iter().zip(theirs["values"].as_array().unwrap()) {
                let want = ours.eval(&e.points[*i]);
                let v = v.as_f64().unwrap();
                assert!(
                    (v - want).abs() <= 1e-9 * want.abs().max(1e-12),
                    "{set} {key}: Extra-P's {} gives {v}, ours {want}",
                    theirs["model"]
                );
            }
        }
    }
}

#[test]
fn extrap_reads_one_parameter_experiment_files_too() {
    let dir = scratch_dir("model-extrap-one");
    let mut rng = XorShift::new(7);
    let m = generate(
        &["p"],
        &[vec![2.0, 4.0, 8.0, 16.0, 32.0]],
        2,
        0.01,
        |c| 1.0 + c[0] * c[0].log2(),
        &mut rng,
    );
    let mut e = Experiment::new(vec!["p".into()]);
    for pt in &m.points {
        e.add("main", "time", &pt.coords, &pt.reps);
    }
    std::fs::write(dir.join("one.jsonl"), extrap_json::write_jsonl(&e)).unwrap();
    model_ok(
        &["one.jsonl", "--extrap", "one.extra-p", "--json", "one.json"],
        &dir,
    );
    let got = python(READ_EXPERIMENT, &[&dir.join("one.extra-p")]);
    let sets = got["sets"].as_object().unwrap();
    assert_eq!(
        sets.keys().collect::<Vec<_>>(),
        ["black box"],
        "no report: no prior set"
    );
    let ours = model_of(entry(&load(&dir.join("one.json")), "main"), &["p"]);
    for (pt, v) in m
        .points
        .iter()
        .zip(sets["black box"]["main|time"]["values"].as_array().unwrap())
    {
        let want = ours.eval(&pt.coords);
        assert!((v.as_f64().unwrap() - want).abs() <= 1e-9 * want.abs());
    }
}

/// Reads a JSON or JSON Lines input file with Extra-P's JSON reader (what `extrap
/// --json` does before modeling) and prints every measurement's coordinate, mean,
/// minimum, maximum and repetitions (its JSON Lines reader keeps no values).
const READ_JSON: &str = r#"
import sys, json, warnings
warnings.simplefilter("ignore")
from extrap.fileio.file_reader.json_file_reader import JsonFileReader
e = JsonFileReader().read_experiment(sys.argv[1])
out = {"parameters": [str(p) for p in e.parameters], "measurements": {}}
for (cp, mt), ms in e.measurements.items():
    out["measurements"][f"{cp}|{mt}"] = sorted([list(map(float, m.coordinate)), float(m.mean), float(m.minimum), float(m.maximum), int(m.repetitions)] for m in ms)
print(json.dumps(out))
"#;

#[test]
fn extrap_reads_our_json_and_json_lines() {
    let (dir, e) = setup("model-extrap-json");
    for f in ["exp.json", "exp.jsonl"] {
        let got = python(READ_JSON, &[&dir.join(f)]);
        assert_eq!(got["parameters"], json!(["n", "m"]), "{f}");
        assert_eq!(
            got["measurements"].as_object().unwrap().len(),
            e.series.len()
        );
        for s in &e.series {
            let key = format!("{}|{}", s.callpath, s.metric);
            let mut want: Vec<(Vec<f64>, &Vec<f64>)> = s
                .data
                .iter()
                .map(|(i, reps)| (e.points[*i].clone(), reps))
                .collect();
            want.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
            let theirs = got["measurements"][&key].as_array().unwrap();
            assert_eq!(theirs.len(), want.len(), "{f} {key}");
            for (t, (coords, reps)) in theirs.iter().zip(want) {
                let c: Vec<f64> = t[0]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|y| y.as_f64().unwrap())
                    .collect();
                assert_eq!(c, coords, "{f} {key}");
                let mean = reps.iter().sum::<f64>() / reps.len() as f64;
                let min = reps.iter().copied().fold(f64::INFINITY, f64::min);
                let max = reps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                assert!(
                    (t[1].as_f64().unwrap() / mean - 1.0).abs() < 1e-14,
                    "{f} {key}: mean {t}"
                );
                assert_eq!(t[2].as_f64().unwrap(), min, "{f} {key}");
                assert_eq!(t[3].as_f64().unwrap(), max, "{f} {key}");
                assert_eq!(t[4].as_u64().unwrap() as usize, reps.len(), "{f} {key}");
            }
        }
    }
}

#[test]
fn bad_inputs_are_one_line_errors() {
    let (dir, _) = setup("model-errors");
    let one_line = |args: &[&str], want: &[&str]| {
        let (ok, _, err) = model(args, &dir);
        assert!(!ok, "{args:?} succeeded");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        for w in want {
            assert!(err.contains(w), "{args:?}: `{w}` not in {err}");
        }
    };
    one_line(&["missing.txt"], &["missing.txt", "no such file"]);
    std::fs::write(
        dir.join("bad.txt"),
        "PARAMETER n\nPOINTS 1 2\nREGION r\nMETRIC time\nDATA 1\nDATA x\n",
    )
    .unwrap();
    one_line(&["bad.txt"], &["bad.txt", "line 6", "`x`"]);
    let line =
        "{\"params\": {\"k\": 1}, \"callpath\": \"main\", \"metric\": \"time\", \"value\": 1}\n";
    std::fs::write(dir.join("other.jsonl"), line.repeat(2)).unwrap();
    one_line(
        &["exp.txt", "other.jsonl"],
        &["parameter mismatch", "other.jsonl", "exp.txt"],
    );
    one_line(
        &["exp.txt", "--predict", "n=4"],
        &["--predict", "m is missing"],
    );
    one_line(
        &["exp.txt", "--predict", "n=4,m=2,z=1"],
        &["z is not a parameter"],
    );
    one_line(
        &["exp.txt", "--metric", "visits"],
        &["no measurements of metric `visits`"],
    );
    one_line(&["exp.txt", "--prior", "nothere.json"], &["nothere.json"]);
    std::fs::write(
        dir.join("bad.jsonl"),
        "{\"params\": {\"n\": 1}, \"value\": 1}\n{\"params\": {\"n\": 2}}\n",
    )
    .unwrap();
    one_line(&["bad.jsonl"], &["bad.jsonl", "line 2", "`value`"]);
}

/// The prior of a real taint report (`examples/heat.c` at -O2): its contexts' call
/// paths, calls and total volumes, against measurements generated for them (n and steps
/// varied, probes held at 5).
#[test]
fn the_real_report_of_heat_is_the_prior() {
    let b = compile(&["../../examples/heat.c"], "-O2", &[]);
    let (r, _) = b.run_ok(&["64", "10", "5"]);
    let dir = scratch_dir("model-heat");
    let mut rng = XorShift::new(3);
    // probes measured but held at one value: dropped from the prior like a parameter
    // the measurements do not have.
    let mut e = Experiment::new(vec!["n".into(), "steps".into(), "probes".into()]);
    let grid = [
        vec![32.0, 64.0, 128.0, 256.0, 512.0],
        vec![10.0, 20.0, 40.0, 80.0, 160.0],
        vec![5.0],
    ];
    let series: Vec<(&str, &str, Truth)> = vec![
        // init is called twice from main: two contexts, one call path.
        ("main->init", "time", Box::new(|c| 2.0e-8 * c[0] * c[0])),
        ("main->init", "visits", Box::new(|_| 2.0)),
        (
            "main->step",
            "time",
            Box::new(|c| 1.0e-4 + 3.0e-8 * c[0] * c[0] * c[1]),
        ),
        ("main->step", "visits", Box::new(|c| c[1])),
        (
            "main",
            "time",
            Box::new(|c| 1.0e-3 + 3.0e-8 * c[0] * c[0] * (c[1] + 2.0)),
        ),
    ];
    for (cp, metric, f) in &series {
        let noise = if *metric == "visits" { 0.0 } else { 0.02 };
        let m = generate(
            &["n", "steps", "probes"],
            &grid,
            3,
            noise,
            |c| f(c),
            &mut rng,
        );
        for p in &m.points {
            e.add(cp, metric, &p.coords, &p.reps);
        }
    }
    std::fs::write(dir.join("heat.json"), extrap_json::write_json(&e)).unwrap();
    let report = r.path.to_str().unwrap();
    // (--html: constant series plotted, a range of rounding errors once hung the ticks.)
    let table = model_ok(
        &[
            "--prior",
            report,
            "heat.json",
            "--json",
            "m.json",
            "--html",
            "h",
        ],
        &dir,
    );
    let page = std::fs::read_to_string(dir.join("h/index.html")).unwrap();
    assert_eq!(page.matches("<svg").count(), 10);
    let doc = load(&dir.join("m.json"));
    let get = |cp: &str, metric: &str| -> Value {
        doc["models"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["callpath"] == cp && m["metric"] == metric)
            .unwrap_or_else(|| panic!("no {cp} / {metric}"))
            .clone()
    };
    let step = get("main->step", "time");
    assert_eq!(step["prior"]["matched_by"], "callpath", "{step}");
    assert_eq!(step["prior"]["volume"], "n^2*steps");
    assert_eq!(
        structure(&step),
        vec![vec![
            ("n".to_string(), 2.0, 0),
            ("steps".to_string(), 1.0, 0)
        ]]
    );
    let visits = get("main->step", "visits");
    assert_eq!(visits["prior"]["volume"], "steps");
    assert_eq!(
        structure(&visits),
        vec![vec![("steps".to_string(), 1.0, 0)]]
    );
    let init = get("main->init", "visits");
    assert_eq!(init["prior"]["constant"], true, "{init}");
    assert_eq!(init["constant_term"], 2.0);
    let init_time = get("main->init", "time");
    assert_eq!(init_time["prior"]["volume"], "n^2");
    assert_eq!(structure(&init_time), vec![vec![("n".to_string(), 2.0, 0)]]);
    let main = get("main", "time");
    assert_eq!(main["prior"]["held_fixed"], json!(["probes"]), "{main}");
    assert_eq!(main["prior"]["volume"], "n^2*steps + n^2");
    assert!(
        table.contains("probes which the experiment did not vary"),
        "{table}"
    );
}
