//! Files written by `taintprof_fit::extrap_text::write_text` are read by the real
//! Extra-P 4.2.5 as written: its `TextFileReader` (through
//! `bench/modeler/extrap_models.py --values`, run by the Python of Extra-P's
//! environment) gives the same parameters, points, call paths, metrics and every
//! repetition bit for bit, and its command line (`extrap --text FILE`) loads and models
//! them. Needs Extra-P (PyPI package `extrap`, installed by `make setup`): without it
//! the tests fail, naming the package.

use std::path::{Path, PathBuf};
use std::process::Command;
use taintprof_fit::extrap_text::{write_text, Series, TextExperiment};
use taintprof_fit::gen::XorShift;
use taintprof_tests::{extrap, extrap_python, run_cmd, workspace_root};

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tp-extrap-text-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Awkward values: many magnitudes, shortest representations of many digits, values
/// that are not exactly decimal.
fn value(rng: &mut XorShift) -> f64 {
    match rng.next_u64() % 6 {
        0 => 0.1 + 0.2,
        1 => rng.uniform(),
        2 => 10f64.powf(rng.range(-12.0, 12.0)),
        3 => (rng.range(1.0, 1e6) * 1000.0).round() / 1000.0,
        4 => rng.range(1e15, 1e17),
        _ => 1.0 / rng.range(1.0, 7.0),
    }
}

/// The full grid of `values`, `callpaths` × `metrics` series, 1 to 5 repetitions per
/// point.
fn experiment(
    params: &[&str],
    values: &[&[f64]],
    callpaths: &[&str],
    metrics: &[&str],
    seed: u64,
) -> TextExperiment {
    let mut points: Vec<Vec<f64>> = vec![Vec::new()];
    for vs in values {
        points = points
            .iter()
            .flat_map(|c| {
                vs.iter().map(move |&v| {
                    let mut c = c.clone();
                    c.push(v);
                    c
                })
            })
            .collect();
    }
    let mut rng = XorShift::new(seed);
    let mut series = Vec::new();
    for c in callpaths {
        for m in metrics {
            series.push(Series {
                callpath: c.to_string(),
                metric: m.to_string(),
                data: (0..points.len())
                    .map(|i| {
                        let reps = 1 + (rng.next_u64() % 5) as usize;
                        (i, (0..reps).map(|_| value(&mut rng)).collect())
                    })
                    .collect(),
            });
        }
    }
    TextExperiment {
        params: params.iter().map(|s| s.to_string()).collect(),
        points,
        series,
    }
}

fn cases() -> Vec<(&'static str, TextExperiment)> {
    vec![
        (
            "three",
            experiment(
                &["n", "m", "p"],
                &[&[16.0, 32.0, 64.0], &[8.0, 16.0, 32.0], &[2.0, 4.0]],
                &["main", "main->solve", "main->solve->kernel"],
                &["time", "visits"],
                1,
            ),
        ),
        (
            "one",
            experiment(
                &["size"],
                &[&[4.0, 8.0, 16.0, 32.0, 64.0]],
                &["main->a"],
                &["time"],
                2,
            ),
        ),
        (
            "four",
            experiment(
                &["a", "b", "c", "d"],
                &[&[1.0, 2.0], &[0.5, 1.5], &[10.0, 20.0], &[1e6, 2e6]],
                &["r", "r->s"],
                &["bytes", "time"],
                3,
            ),
        ),
    ]
}

fn write(dir: &Path, name: &str, e: &TextExperiment) -> PathBuf {
    let f = dir.join(format!("{name}.txt"));
    std::fs::write(&f, write_text(e).unwrap()).unwrap();
    f
}

#[test]
fn extrap_reads_written_files_exactly() {
    let python = extrap_python();
    let dir = tmpdir("values");
    let cases = cases();
    let files: Vec<PathBuf> = cases.iter().map(|(n, e)| write(&dir, n, e)).collect();
    let out = run_cmd(
        Command::new(&python)
            .arg(workspace_root().join("bench/modeler/extrap_models.py"))
            .args(["--values", "--no-models"])
            .args(&files),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["extrap"], "4.2.5");
    let got = v["files"].as_array().unwrap();
    assert_eq!(got.len(), cases.len());
    let mut reps_checked = 0;
    for ((name, e), g) in cases.iter().zip(got) {
        let params: Vec<&str> = g["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        assert_eq!(params, e.params, "{name}");
        let points: Vec<Vec<f64>> = g["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                p.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect()
            })
            .collect();
        assert_eq!(points, e.points, "{name}");
        let series = g["series"].as_array().unwrap();
        assert_eq!(series.len(), e.series.len(), "{name}");
        for (s, w) in series.iter().zip(&e.series) {
            assert_eq!(s["callpath"], w.callpath.as_str(), "{name}");
            assert_eq!(s["metric"], w.metric.as_str(), "{name}");
            let rows = s["values"].as_array().unwrap();
            assert_eq!(rows.len(), w.data.len(), "{name} {}", w.callpath);
            for (row, (i, reps)) in rows.iter().zip(&w.data) {
                let read: Vec<f64> = row
                    .as_array()
                    .unwrap_or_else(|| panic!("{name} {}: no values at point {i}", w.callpath))
                    .iter()
                    .map(|x| x.as_str().unwrap().parse::<f64>().unwrap())
                    .collect();
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&read),
                    bits(reps),
                    "{name} {} / {} point {i}: {read:?} vs {reps:?}",
                    w.callpath,
                    w.metric
                );
                reps_checked += reps.len();
            }
        }
    }
    assert!(reps_checked > 300, "{reps_checked}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn extrap_command_line_loads_and_models_written_files() {
    let extrap = extrap();
    let dir = tmpdir("cli");
    let (name, e) = cases().swap_remove(0);
    let f = write(&dir, name, &e);
    let print = |what: &str| -> Vec<String> {
        let out = run_cmd(
            Command::new(&extrap)
                .args(["--disable-progress", "--text"])
                .arg(&f)
                .args(["--print", what]),
        );
        assert!(
            out.status.success(),
            "extrap --print {what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect()
    };
    assert_eq!(print("parameters"), e.params);
    assert_eq!(print("metrics"), ["time", "visits"]);
    assert_eq!(
        print("callpaths"),
        ["main", "main->solve", "main->solve->kernel"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
