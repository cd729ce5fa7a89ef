//! The figures of a bench run: per-cell medians (time or instructions, peak memory),
//! ratios against the baseline, geometric means over the suite, compile times, and
//! the targets the issue sets.

use crate::catalog::{Workload, BASELINE};
use crate::Problem;
use serde::Serialize;
use std::collections::BTreeMap;

/// The constant of the memory target (peak ≤ 3 × native + this): the runtime's
/// per-thread arenas, parameter and module tables, report buffers and the page tables
/// of the shadow mapping, none of which grow with the program's data.
pub const MEMORY_CONSTANT_MIB: f64 = 64.0;
/// The factor of the memory target: one shadow label (2 bytes) per application byte
/// doubles the data, and the original data stays.
pub const MEMORY_FACTOR: f64 = 3.0;

/// One measured run.
#[derive(Debug, Clone, Serialize)]
pub struct Sample {
    pub workload: String,
    pub config: String,
    pub round: usize,
    /// Seconds (wall clock of the whole process), or instructions with `--callgrind`.
    pub value: f64,
    pub checksum: Option<String>,
    /// Peak resident memory of the process, KiB (timed runs only).
    pub peak_rss_kib: Option<u64>,
    /// User + system CPU seconds of the process (timed runs only).
    pub cpu_seconds: Option<f64>,
}

/// A workload × configuration cell.
#[derive(Debug, Clone, Serialize)]
pub struct CellSummary {
    pub workload: String,
    pub config: String,
    /// Median seconds (or instructions).
    pub median: Option<f64>,
    /// `median` / the baseline's.
    pub slowdown: Option<f64>,
    /// Median peak resident memory, MiB.
    pub peak_rss_mib: Option<f64>,
    /// `peak_rss_mib` / the baseline's.
    pub memory_ratio: Option<f64>,
    /// `ok`, `failed`, `build failed`, `timed out`, `not applicable`, `skipped`.
    pub status: String,
    pub error: Option<String>,
}

/// A geometric mean over the workloads a configuration has figures for.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Geomean {
    pub config: String,
    pub value: f64,
    /// The workloads it is over.
    pub workloads: Vec<String>,
    /// Fewer workloads than the suite has.
    pub partial: bool,
}

/// The median (mean of the middle two for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The geometric mean of positive values.
pub fn geomean(values: &[f64]) -> f64 {
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => Some(a / b),
        _ => None,
    }
}

/// Medians and ratios of every cell, workloads outer, configurations inner. A cell with
/// a problem has no figures.
pub fn summarize(
    workloads: &[&str],
    configs: &[&str],
    samples: &[Sample],
    problems: &BTreeMap<(String, String), Problem>,
) -> Vec<CellSummary> {
    fn of<'a>(samples: &'a [Sample], w: &'a str, c: &'a str) -> impl Iterator<Item = &'a Sample> {
        samples
            .iter()
            .filter(move |s| s.workload == w && s.config == c)
    }
    let value = |w: &str, c: &str| median(&of(samples, w, c).map(|s| s.value).collect::<Vec<_>>());
    let mem = |w: &str, c: &str| {
        median(
            &of(samples, w, c)
                .filter_map(|s| s.peak_rss_kib)
                .map(|k| k as f64 / 1024.0)
                .collect::<Vec<_>>(),
        )
    };
    let mut cells = Vec::new();
    for w in workloads {
        let ok = |c: &str| !problems.contains_key(&(w.to_string(), c.to_string()));
        let base = value(w, BASELINE).filter(|_| ok(BASELINE));
        let base_mem = mem(w, BASELINE).filter(|_| ok(BASELINE));
        for c in configs {
            let problem = problems.get(&(w.to_string(), c.to_string()));
            let (median, peak) = if problem.is_some() {
                (None, None)
            } else {
                (value(w, c), mem(w, c))
            };
            cells.push(CellSummary {
                workload: w.to_string(),
                config: c.to_string(),
                median,
                slowdown: ratio(median, base),
                peak_rss_mib: peak,
                memory_ratio: ratio(peak, base_mem),
                status: problem
                    .map(|p| p.status().to_string())
                    .unwrap_or_else(|| "ok".into()),
                error: problem.map(Problem::message),
            });
        }
    }
    cells
}

/// Per configuration, the geometric mean of `field` over the cells that have it.
pub fn geomeans(
    cells: &[CellSummary],
    configs: &[&str],
    suite: usize,
    field: impl Fn(&CellSummary) -> Option<f64>,
) -> Vec<Geomean> {
    let mut out = Vec::new();
    for c in configs {
        let (names, values): (Vec<String>, Vec<f64>) = cells
            .iter()
            .filter(|x| x.config == *c)
            .filter_map(|x| {
                field(x)
                    .filter(|v| *v > 0.0)
                    .map(|v| (x.workload.clone(), v))
            })
            .unzip();
        if !values.is_empty() {
            out.push(Geomean {
                config: c.to_string(),
                value: geomean(&values),
                partial: names.len() < suite,
                workloads: names,
            });
        }
    }
    out
}

/// One compile (compile + link) of a workload.
#[derive(Debug, Clone, Serialize)]
pub struct CompileSample {
    pub workload: String,
    /// `plain` or the configuration name.
    pub build: String,
    pub round: usize,
    pub seconds: f64,
}

/// A workload × build cell of the compile-time table.
#[derive(Debug, Clone, Serialize)]
pub struct CompileCell {
    pub workload: String,
    pub build: String,
    pub median: Option<f64>,
    /// `median` / the plain build's.
    pub ratio: Option<f64>,
    pub error: Option<String>,
}

/// Compile times of the plugin's builds against plain clang.
#[derive(Debug, Clone, Serialize)]
pub struct CompileTimes {
    pub runs: usize,
    /// The baseline's build id (`plain`: `clang-19 -O2`).
    pub baseline: String,
    /// The timed builds, baseline first.
    pub builds: Vec<String>,
    pub samples: Vec<CompileSample>,
    pub cells: Vec<CompileCell>,
    pub geomean_ratio: Vec<Geomean>,
}

impl CompileTimes {
    /// Medians, ratios and geometric means from the samples; `errors` are builds that
    /// failed (by workload and build).
    pub fn new(
        runs: usize,
        baseline: &str,
        builds: &[&str],
        workloads: &[&str],
        samples: Vec<CompileSample>,
        errors: &BTreeMap<(String, String), String>,
    ) -> CompileTimes {
        let med = |w: &str, b: &str| {
            if errors.contains_key(&(w.to_string(), b.to_string())) {
                return None;
            }
            median(
                &samples
                    .iter()
                    .filter(|s| s.workload == w && s.build == b)
                    .map(|s| s.seconds)
                    .collect::<Vec<_>>(),
            )
        };
        let mut cells = Vec::new();
        for w in workloads {
            let base = med(w, baseline);
            for b in builds {
                let m = med(w, b);
                cells.push(CompileCell {
                    workload: w.to_string(),
                    build: b.to_string(),
                    median: m,
                    ratio: ratio(m, base),
                    error: errors.get(&(w.to_string(), b.to_string())).cloned(),
                });
            }
        }
        let as_summary: Vec<CellSummary> = cells
            .iter()
            .map(|c| CellSummary {
                workload: c.workload.clone(),
                config: c.build.clone(),
                median: c.median,
                slowdown: c.ratio,
                peak_rss_mib: None,
                memory_ratio: None,
                status: String::new(),
                error: None,
            })
            .collect();
        let timed: Vec<&str> = builds.iter().copied().filter(|b| *b != baseline).collect();
        CompileTimes {
            runs,
            baseline: baseline.to_string(),
            builds: builds.iter().map(|b| b.to_string()).collect(),
            geomean_ratio: geomeans(&as_summary, &timed, workloads.len(), |c| c.slowdown),
            samples,
            cells,
        }
    }
}

/// A performance target and how the run did against it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Target {
    /// Short identifier: `taint-vs-dfsan`, `denormal`, `dip`, `compile-taint`,
    /// `compile-denormal`, `memory-taint`, `memory-denormal`.
    pub id: String,
    /// What it asks, in words.
    pub goal: String,
    /// The figure compared with `limit` (a geometric mean, or a ratio of two).
    pub measured: Option<f64>,
    pub limit: f64,
    /// The measured figures in words.
    pub detail: String,
    /// The workloads the geometric mean is over.
    pub workloads: Vec<String>,
    /// `None`: not measured in this run.
    pub met: Option<bool>,
    /// Exclusions, partial sets, or why it is not measured.
    pub note: Option<String>,
    /// How `measured` is computed, when it is not simply the geometric mean.
    pub how: Option<String>,
}

fn cell<'a>(cells: &'a [CellSummary], w: &str, c: &str) -> Option<&'a CellSummary> {
    cells.iter().find(|x| x.workload == w && x.config == c)
}

fn not_measured(id: &str, goal: String, limit: f64, why: &str) -> Target {
    Target {
        id: id.into(),
        goal,
        measured: None,
        limit,
        detail: "—".into(),
        workloads: Vec::new(),
        met: None,
        note: Some(why.into()),
        how: None,
    }
}

/// "over 5 of 7 workloads (omp_stencil, cg missing)" when not all of `suite` are in
/// `used`.
fn partial_note(suite: &[&str], used: &[String]) -> Option<String> {
    let missing: Vec<&str> = suite
        .iter()
        .copied()
        .filter(|w| !used.iter().any(|u| u == w))
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "over {} of {} workloads (no figures for {})",
            used.len(),
            suite.len(),
            missing.join(", ")
        )
    })
}

/// Geometric mean of a configuration's slowdowns over `suite`.
fn slowdown_target(
    id: &str,
    goal: String,
    limit: f64,
    cells: &[CellSummary],
    config: &str,
    suite: &[&str],
    excluded: Option<String>,
) -> Target {
    let (used, values): (Vec<String>, Vec<f64>) = suite
        .iter()
        .filter_map(|w| {
            cell(cells, w, config)
                .and_then(|c| c.slowdown)
                .map(|s| (w.to_string(), s))
        })
        .unzip();
    if values.is_empty() {
        return not_measured(
            id,
            goal,
            limit,
            &format!("not measured: no {config} figures in this run"),
        );
    }
    let g = geomean(&values);
    let note = [excluded, partial_note(suite, &used)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
    Target {
        id: id.into(),
        goal,
        measured: Some(g),
        limit,
        detail: format!("{g:.2}×"),
        workloads: used,
        met: Some(g <= limit),
        note: (!note.is_empty()).then(|| note.join("; ")),
        how: None,
    }
}

/// The targets of the issue, from the cells (and the compile times, if measured).
pub fn targets(
    cells: &[CellSummary],
    workloads: &[Workload],
    compile: Option<&CompileTimes>,
) -> Vec<Target> {
    let suite: Vec<&str> = workloads.iter().map(|w| w.name).collect();
    let mut out = Vec::new();

    // 1. Taint mode at most half of DFSan's slowdown, over the workloads both ran.
    {
        let goal = "taint slowdown ≤ ½ × dfsan slowdown".to_string();
        let (used, pairs): (Vec<String>, Vec<(f64, f64)>) = suite
            .iter()
            .filter_map(|w| {
                let t = cell(cells, w, "taint")?.slowdown?;
                let d = cell(cells, w, "dfsan")?.slowdown?;
                Some((w.to_string(), (t, d)))
            })
            .unzip();
        if pairs.is_empty() {
            out.push(not_measured(
                "taint-vs-dfsan",
                goal,
                0.5,
                "not measured: needs taint and dfsan figures for a workload",
            ));
        } else {
            let t = geomean(&pairs.iter().map(|p| p.0).collect::<Vec<_>>());
            let d = geomean(&pairs.iter().map(|p| p.1).collect::<Vec<_>>());
            out.push(Target {
                id: "taint-vs-dfsan".into(),
                goal,
                measured: Some(t / d),
                limit: 0.5,
                detail: format!("taint {t:.2}× / dfsan {d:.2}× = {:.2}", t / d),
                note: partial_note(&suite, &used)
                    .map(|n| format!("{n}: the workloads where both ran")),
                workloads: used,
                met: Some(t / d <= 0.5),
                how: Some(
                    "taint vs dfsan: geomean of taint's slowdowns ÷ geomean of dfsan's, over the workloads both ran; at most 0.5".into(),
                ),
            });
        }
    }

    // 2. Denormal mode at most 4× native over the whole suite.
    out.push(slowdown_target(
        "denormal",
        "denormal mode ≤ 4× native".into(),
        4.0,
        cells,
        "denormal",
        &suite,
        None,
    ));

    // 2b. Time mode (measurement for performance models) within 5% of native.
    out.push(slowdown_target(
        "time",
        "time mode ≤ 1.05× native".into(),
        1.05,
        cells,
        "time",
        &suite,
        None,
    ));

    // 3. dip within 5% of native when no denormals occur.
    {
        let clean: Vec<&str> = workloads
            .iter()
            .filter(|w| !w.denormals)
            .map(|w| w.name)
            .collect();
        let excluded: Vec<&str> = workloads
            .iter()
            .filter(|w| w.denormals)
            .map(|w| w.name)
            .collect();
        out.push(slowdown_target(
            "dip",
            "dip ≤ 1.05× native without denormals".into(),
            1.05,
            cells,
            "dip",
            &clean,
            (!excluded.is_empty()).then(|| format!("{} excluded (denormals)", excluded.join(", "))),
        ));
    }

    // 4. Compile time at most 2× plain clang, per plugin mode.
    for mode in ["taint", "denormal"] {
        let id = format!("compile-{mode}");
        let goal = format!("compile time, {mode} ≤ 2× clang-19 -O2");
        let g = compile.and_then(|c| c.geomean_ratio.iter().find(|g| g.config == mode));
        match g {
            None => out.push(not_measured(
                &id,
                goal,
                2.0,
                if compile.is_none() {
                    "not measured: compile times were not taken (--compile-runs 0)"
                } else {
                    "not measured: no compile times for this mode"
                },
            )),
            Some(g) => out.push(Target {
                id,
                goal,
                measured: Some(g.value),
                limit: 2.0,
                detail: format!("{:.2}×", g.value),
                note: partial_note(&suite, &g.workloads),
                workloads: g.workloads.clone(),
                met: Some(g.value <= 2.0),
                how: None,
            }),
        }
    }

    // 5. Peak memory at most 3× native plus a constant.
    for mode in ["taint", "denormal"] {
        let id = format!("memory-{mode}");
        let goal =
            format!("peak memory, {mode} ≤ {MEMORY_FACTOR}× native + {MEMORY_CONSTANT_MIB} MiB");
        let mut used = Vec::new();
        let mut allowance = Vec::new();
        let mut plain = Vec::new();
        let mut over = Vec::new();
        for w in &suite {
            let (Some(n), Some(m)) = (
                cell(cells, w, BASELINE).and_then(|c| c.peak_rss_mib),
                cell(cells, w, mode).and_then(|c| c.peak_rss_mib),
            ) else {
                continue;
            };
            if n <= 0.0 {
                continue;
            }
            let a = m / (MEMORY_FACTOR * n + MEMORY_CONSTANT_MIB);
            if a > 1.0 {
                over.push(format!("{w} {m:.0} MiB vs {n:.0} MiB native"));
            }
            used.push(w.to_string());
            allowance.push(a);
            plain.push(m / n);
        }
        if used.is_empty() {
            out.push(not_measured(
                &id,
                goal,
                1.0,
                "not measured: peak memory is taken in timed runs of native and this mode",
            ));
            continue;
        }
        let a = geomean(&allowance);
        let mut notes = Vec::new();
        notes.extend(partial_note(&suite, &used));
        if !over.is_empty() {
            notes.push(format!("above the allowance: {}", over.join(", ")));
        }
        out.push(Target {
            id,
            goal,
            measured: Some(a),
            limit: 1.0,
            detail: format!(
                "{a:.2} of the allowance (peak {:.2}× native)",
                geomean(&plain)
            ),
            workloads: used,
            met: Some(a <= 1.0),
            note: (!notes.is_empty()).then(|| notes.join("; ")),
            how: Some(format!(
                "memory: geomean over the workloads of peak ÷ ({MEMORY_FACTOR} × native peak + {MEMORY_CONSTANT_MIB} MiB), at most 1 ({MEMORY_CONSTANT_MIB} MiB: the runtime's arenas, tables and report buffers)"
            )),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::WORKLOADS;

    fn sample(w: &str, c: &str, v: f64, kib: u64) -> Sample {
        Sample {
            workload: w.into(),
            config: c.into(),
            round: 1,
            value: v,
            checksum: None,
            peak_rss_kib: Some(kib),
            cpu_seconds: None,
        }
    }

    #[test]
    fn medians_and_geomeans() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert!((geomean(&[2.0, 8.0]) - 4.0).abs() < 1e-12);
    }

    #[test]
    fn cells_have_median_time_and_memory_and_ratios() {
        let mut s = Vec::new();
        for (v, k) in [(1.0, 10240), (3.0, 30720), (2.0, 20480)] {
            s.push(sample("a", "native", v, k));
        }
        for (v, k) in [(8.0, 61440), (4.0, 40960), (6.0, 81920)] {
            s.push(sample("a", "taint", v, k));
        }
        s.push(sample("a", "dfsan", 100.0, 1));
        let mut problems = BTreeMap::new();
        problems.insert(
            ("a".to_string(), "dfsan".to_string()),
            Problem::Failed("boom".into()),
        );
        let cells = summarize(&["a"], &["native", "taint", "dfsan"], &s, &problems);
        assert_eq!(cells.len(), 3);
        let t = &cells[1];
        assert_eq!(t.median, Some(6.0));
        assert_eq!(t.slowdown, Some(3.0));
        assert_eq!(t.peak_rss_mib, Some(60.0));
        assert_eq!(t.memory_ratio, Some(3.0));
        assert_eq!(t.status, "ok");
        assert_eq!(cells[0].slowdown, Some(1.0));
        // A problem cell has no figures, whatever samples exist.
        let d = &cells[2];
        assert_eq!((d.median, d.slowdown, d.peak_rss_mib), (None, None, None));
        assert_eq!(d.status, "failed");
        assert_eq!(d.error.as_deref(), Some("boom"));
    }

    #[test]
    fn geomeans_say_when_they_are_partial() {
        let s = vec![
            sample("a", "native", 1.0, 1024),
            sample("b", "native", 1.0, 1024),
            sample("a", "taint", 2.0, 1024),
            sample("b", "taint", 8.0, 1024),
            sample("a", "dfsan", 9.0, 1024),
        ];
        let mut p = BTreeMap::new();
        p.insert(
            ("b".to_string(), "dfsan".to_string()),
            Problem::NotApplicable("x".into()),
        );
        let cells = summarize(&["a", "b"], &["native", "taint", "dfsan"], &s, &p);
        let g = geomeans(&cells, &["native", "taint", "dfsan"], 2, |c| c.slowdown);
        assert_eq!(g.len(), 3);
        assert!((g[1].value - 4.0).abs() < 1e-12 && !g[1].partial);
        assert_eq!(g[2].workloads, ["a"]);
        assert!(g[2].partial);
    }

    #[test]
    fn compile_times_take_medians_and_ratios() {
        let mut samples = Vec::new();
        for (r, (p, t)) in [(1.0, 1.5), (1.2, 2.0), (0.8, 1.9)].iter().enumerate() {
            samples.push(CompileSample {
                workload: "a".into(),
                build: "plain".into(),
                round: r + 1,
                seconds: *p,
            });
            samples.push(CompileSample {
                workload: "a".into(),
                build: "taint".into(),
                round: r + 1,
                seconds: *t,
            });
        }
        let mut errors = BTreeMap::new();
        errors.insert(("a".to_string(), "denormal".to_string()), "no".to_string());
        let c = CompileTimes::new(
            3,
            "plain",
            &["plain", "taint", "denormal"],
            &["a"],
            samples,
            &errors,
        );
        assert_eq!(c.cells.len(), 3);
        assert_eq!(c.cells[0].median, Some(1.0));
        assert_eq!(c.cells[1].median, Some(1.9));
        assert!((c.cells[1].ratio.unwrap() - 1.9).abs() < 1e-12);
        assert_eq!(c.cells[2].error.as_deref(), Some("no"));
        assert_eq!(c.geomean_ratio.len(), 1);
        assert_eq!(c.geomean_ratio[0].config, "taint");
    }

    fn cell_of(w: &str, c: &str, slowdown: f64, mem: f64) -> CellSummary {
        CellSummary {
            workload: w.into(),
            config: c.into(),
            median: Some(slowdown),
            slowdown: Some(slowdown),
            peak_rss_mib: Some(mem),
            memory_ratio: None,
            status: "ok".into(),
            error: None,
        }
    }

    #[test]
    fn targets_from_cells() {
        let ws: Vec<Workload> = WORKLOADS
            .iter()
            .filter(|w| ["jacobi", "jacobi-denormal", "matmul"].contains(&w.name))
            .copied()
            .collect();
        let mut cells = Vec::new();
        for (w, native_mem) in [
            ("jacobi", 10.0),
            ("jacobi-denormal", 10.0),
            ("matmul", 100.0),
        ] {
            cells.push(cell_of(w, "native", 1.0, native_mem));
            cells.push(cell_of(w, "taint", 4.0, 3.0 * native_mem));
            cells.push(cell_of(w, "denormal", 2.0, 400.0));
            cells.push(cell_of(
                w,
                "dip",
                if w == "jacobi-denormal" { 900.0 } else { 1.02 },
                native_mem,
            ));
        }
        // dfsan only on two of them.
        cells.push(cell_of("jacobi", "dfsan", 16.0, 20.0));
        cells.push(cell_of("matmul", "dfsan", 9.0, 200.0));
        let t = targets(&cells, &ws, None);
        let find = |id: &str| t.iter().find(|x| x.id == id).unwrap();

        let tv = find("taint-vs-dfsan");
        // taint 4 / dfsan geomean(16, 9) = 12 -> 1/3: met.
        assert!((tv.measured.unwrap() - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(tv.met, Some(true));
        assert_eq!(tv.workloads, ["jacobi", "matmul"]);
        assert!(tv.note.as_ref().unwrap().contains("jacobi-denormal"));

        assert_eq!(find("denormal").met, Some(true));
        assert_eq!(find("denormal").workloads.len(), 3);

        let dip = find("dip");
        assert!((dip.measured.unwrap() - 1.02).abs() < 1e-9, "{dip:?}");
        assert_eq!(dip.met, Some(true));
        assert!(!dip.workloads.contains(&"jacobi-denormal".to_string()));
        assert!(dip
            .note
            .as_ref()
            .unwrap()
            .contains("jacobi-denormal excluded"));

        assert_eq!(find("compile-taint").met, None);

        // taint memory exactly 3x: within 3x + 64 MiB.
        let m = find("memory-taint");
        assert_eq!(m.met, Some(true));
        assert!(m.measured.unwrap() < 1.0);
        // denormal 400 MiB: above 3 * 10 + 64 for the jacobis, within 3 * 100 + 64 for
        // matmul; the geomean is above 1.
        let d = find("memory-denormal");
        assert_eq!(d.met, Some(false), "{d:?}");
        assert!(d
            .note
            .as_ref()
            .unwrap()
            .contains("above the allowance: jacobi 400 MiB"));
    }

    #[test]
    fn targets_without_figures_say_so() {
        let t = targets(&[], WORKLOADS, None);
        assert_eq!(t.len(), 8);
        for x in &t {
            assert_eq!(x.met, None, "{x:?}");
            assert!(
                x.note.as_ref().unwrap().starts_with("not measured"),
                "{x:?}"
            );
            assert!(x.how.is_none());
        }
    }
}
