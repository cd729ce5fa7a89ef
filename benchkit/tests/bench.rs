//! `taintprof-bench` (what `taintprof bench` runs) for real: a `--quick` run of every
//! workload in the native, taint and denormal configurations, with compile times, the
//! chart and the JSON.
//!
//! Needs `taintprof-cc`, `taintprof-cxx`, `libtaintprof_pass.so` and `libtaintprof_rt.a`
//! next to `taintprof-bench` (built by `make build`),
//! `rt/include/taintprof.h`, clang-19 and Open MPI for the MPI workload (`mpicc.openmpi`,
//! `mpirun.openmpi`; `scripts/setup.sh` installs and builds them all). When one of them
//! is absent the test fails and names it.

use std::path::{Path, PathBuf};
use std::process::Command;
use taintprof_driver::locate::{Lang, Locator};

const BENCH: &str = env!("CARGO_BIN_EXE_taintprof-bench");

const WORKLOADS: [&str; 8] = [
    "jacobi",
    "jacobi-denormal",
    "matmul",
    "cg",
    "nbody",
    "accessors",
    "omp_stencil",
    "mpi_stencil",
];

/// Why the real run cannot happen, if it cannot.
fn missing_artifacts() -> Option<String> {
    let locator = Locator::new(
        |k| std::env::var_os(k),
        Path::new(BENCH).parent().map(Path::to_path_buf),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../rt/include")),
    );
    let next_to_bench = |name: &str| {
        let p = Path::new(BENCH).with_file_name(name);
        (!p.is_file()).then(|| format!("{} not found", p.display()))
    };
    if let Some(e) = ["taintprof-cc", "taintprof-cxx"]
        .into_iter()
        .find_map(next_to_bench)
    {
        return Some(e);
    }
    if let Some(p) = ["mpicc.openmpi", "mpirun.openmpi"]
        .into_iter()
        .find(|p| locator.search_path(p).is_none())
    {
        return Some(format!(
            "{p} not found on PATH (the MPI workload): apt-get install openmpi-bin libopenmpi-dev"
        ));
    }
    let checks = [
        locator.plugin().err(),
        locator.runtime().err(),
        locator.include_dir().err(),
        locator.clang(Lang::C).err(),
        locator.clang(Lang::Cxx).err(),
    ];
    checks.into_iter().flatten().next().map(|e| e.to_string())
}

struct WorkDir(PathBuf);

impl Drop for WorkDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("bench files kept in {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut r = png::Decoder::new(f).read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn quick_run_of_every_workload_in_native_taint_and_denormal() {
    if let Some(why) = missing_artifacts() {
        panic!("{why}\n(run scripts/setup.sh, or `make build`)");
    }
    let dir =
        WorkDir(std::env::temp_dir().join(format!("taintprof-bench-it-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&dir.0);
    std::fs::create_dir_all(&dir.0).unwrap();
    let json = dir.0.join("bench.json");
    let chart = dir.0.join("chart.png");
    let out = Command::new(BENCH)
        .args(["--quick", "--runs", "1", "--compile-runs", "1"])
        .args([
            "--config", "native", "--config", "taint", "--config", "denormal",
        ])
        .arg("--dir")
        .arg(dir.0.join("build"))
        .arg("--json")
        .arg(&json)
        .arg("--chart")
        .arg(&chart)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "taintprof-bench failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );

    // The text: every workload in the tables, checksums agree, targets listed.
    for w in WORKLOADS {
        assert!(
            stdout.contains(&format!("  {w:<15} ")),
            "{w} missing:\n{stdout}"
        );
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("  {w} "))
                    && l.contains("(all configurations agree)")),
            "checksums of {w}:\n{stdout}"
        );
    }
    for section in [
        "Wall-clock seconds",
        "Peak resident memory",
        "Compile time",
        "Targets",
        "What the taint runs tracked",
        "What the denormal runs found",
    ] {
        assert!(stdout.contains(section), "{section}:\n{stdout}");
    }
    assert!(!stdout.contains("Not measured"), "{stdout}");

    // The JSON: every cell measured, with time and memory; compile times; targets.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["checksums_agree"], true);
    let cells = v["summary"].as_array().unwrap();
    assert_eq!(cells.len(), WORKLOADS.len() * 3);
    for c in cells {
        assert_eq!(c["status"], "ok", "{c}");
        assert!(c["median"].as_f64().unwrap() > 0.0, "{c}");
        assert!(c["slowdown"].as_f64().unwrap() > 0.0, "{c}");
        let mib = c["peak_rss_mib"].as_f64().unwrap();
        // The program's own peak: more than nothing, less than the bench's build tree.
        assert!(mib > 0.2 && mib < 1024.0, "{c}");
    }
    // Shadow memory: the taint build of the largest quick input peaks above native.
    let mem = |w: &str, c: &str| {
        cells
            .iter()
            .find(|x| x["workload"] == w && x["config"] == c)
            .unwrap()["peak_rss_mib"]
            .as_f64()
            .unwrap()
    };
    assert!(mem("omp_stencil", "taint") > mem("omp_stencil", "native"));
    let compile = &v["compile"];
    assert_eq!(
        compile["builds"],
        serde_json::json!(["plain", "taint", "denormal"])
    );
    assert_eq!(
        compile["cells"].as_array().unwrap().len(),
        WORKLOADS.len() * 3
    );
    for c in compile["cells"].as_array().unwrap() {
        assert!(c["median"].as_f64().unwrap() > 0.0, "{c}");
    }
    let targets = v["targets"].as_array().unwrap();
    let ids: Vec<&str> = targets.iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "taint-vs-dfsan",
            "denormal",
            "time",
            "dip",
            "compile-taint",
            "compile-denormal",
            "memory-taint",
            "memory-denormal"
        ]
    );
    let by_id = |id: &str| targets.iter().find(|t| t["id"] == id).unwrap();
    // Measured here: denormal, compile times, memory; not: dfsan, dip (not selected).
    for id in [
        "denormal",
        "compile-taint",
        "compile-denormal",
        "memory-taint",
        "memory-denormal",
    ] {
        assert!(by_id(id)["met"].is_boolean(), "{id}: {}", by_id(id));
    }
    for id in ["taint-vs-dfsan", "dip"] {
        assert!(by_id(id)["met"].is_null(), "{id}");
    }

    // The chart: a PNG with bars in the configurations' colors.
    assert_eq!(v["chart"], chart.display().to_string());
    let (w, h, px) = decode_png(&chart);
    assert!(w >= 600 && h >= 400, "{w}x{h}");
    let count = |rgb: [u8; 3]| px.chunks(3).filter(|p| *p == rgb).count();
    for config in ["native", "taint", "denormal"] {
        let c = taintprof_bench::chart::color_of(config, 0);
        // 9 groups (8 workloads + geomean) of bars at least 12 px wide and a few high.
        assert!(count(c) > 8 * 12 * 3, "{config}: {} pixels", count(c));
    }

    // The taint runs tracked the workloads' parameters.
    for needle in [
        "cg.c",
        "nbody.c",
        "accessors.cpp",
        "omp_stencil.c",
        "mpi_stencil.c",
    ] {
        assert!(stdout.contains(needle), "{needle}:\n{stdout}");
    }
    // The MPI workload's report: both ranks' records merged, with the process count p
    // among the parameters.
    let merged = stdout
        .lines()
        .find(|l| l.contains("mpi_stencil / taint: the records of the last run's 2 ranks merged"))
        .unwrap_or_else(|| panic!("no merged MPI report:\n{stdout}"));
    let params = merged.rsplit_once("parameters ").unwrap().1;
    let mut params: Vec<&str> = params.split(", ").collect();
    params.sort_unstable();
    assert_eq!(params, ["iters", "n", "p"], "{merged}");
}

#[test]
fn bench_flag_errors_are_clear() {
    let out = Command::new(BENCH)
        .args(["--chart", "x.png", "--no-chart"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--no-chart") && err.contains("--chart"),
        "{err}"
    );
    let out = Command::new(BENCH)
        .args(["--compile-runs", "x"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--compile-runs"));
}
