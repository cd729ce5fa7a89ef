//! `taintprof bench --modeler`: the empirical modeler against Extra-P 4.2.5 on generated
//! measurements with known truth (issue 25, item 5).
//!
//! 1. Generate, per seed, every function of the suite ([`suite`]: constant functions,
//!    kernels, contended kernels and their controls, each with its taint prior) and write
//!    them as one Extra-P text file (`taintprof_fit::extrap_text::write_text`), one call
//!    path per function, so that Extra-P starts once per run ([`extrap`]: one Python
//!    process reads and models every file).
//! 2. Read each file back (`read_text`) and model every call path with
//!    `taintprof_fit::black_box` and `taintprof_fit::with_prior`, while Extra-P's
//!    default modeler models the same files.
//! 3. Score the three modelers per function: whether a constant function's model uses
//!    a parameter (a false dependency), whether a kernel's structure is exact (the same
//!    set of terms, each with the same parameters and exponents, [`structure`]), the
//!    relative error of the prediction at twice the largest value of every parameter
//!    against the noise-free truth, and, with the prior, whether a contended kernel was
//!    flagged (`contradicts_prior`) and whether any other function whose prior excludes
//!    a parameter was (a false alarm).
//! 4. Print a table per function and the summary with the targets, met or missed, and
//!    with `--json` write every figure. The run is deterministic (seeded); a missed
//!    target makes the exit status 1.

pub mod extrap;
pub mod suite;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use suite::{Case, Role, SPECS};
use taintprof_driver::table::{Align, Table};
use taintprof_fit::extrap_text::{read_text, write_text, Series, TextExperiment};
use taintprof_fit::{black_box, with_prior, FitResult, Model, WarningKind};

/// What to run.
#[derive(Debug, Clone)]
pub struct ModelerOptions {
    /// Seeds `first_seed .. first_seed + seeds`.
    pub seeds: usize,
    pub first_seed: u64,
    /// Write every figure to this file as JSON.
    pub json: Option<PathBuf>,
    /// Write the text files here and keep them (default: a temporary directory,
    /// removed afterwards).
    pub dir: Option<PathBuf>,
    /// Threads for our modeler (default: the available parallelism).
    pub threads: Option<usize>,
}

impl Default for ModelerOptions {
    fn default() -> Self {
        ModelerOptions {
            seeds: 20,
            first_seed: 1,
            json: None,
            dir: None,
            threads: None,
        }
    }
}

/// The three modelers compared, in the table's order.
pub const MODELERS: [&str; 3] = ["extrap", "black_box", "prior"];
/// Their column titles.
pub const TITLES: [&str; 3] = ["Extra-P 4.2.5", "ours, black box", "ours, taint prior"];

/// A model's structure: its terms with a non-zero coefficient, each the sorted list of
/// its factors `(parameter, exponent × 10⁶ rounded, log exponent)` that are not `x^0`,
/// the terms sorted. The constant is not part of it.
pub type Structure = Vec<Vec<(usize, i64, u32)>>;

pub fn structure(m: &Model) -> Structure {
    let mut s: Structure = m
        .terms
        .iter()
        .filter(|t| t.coefficient != 0.0)
        .map(|t| {
            let mut f: Vec<_> = t
                .factors
                .iter()
                .filter(|f| f.exponent != 0.0 || f.log_exponent != 0)
                .map(|f| (f.param, (f.exponent * 1e6).round() as i64, f.log_exponent))
                .collect();
            f.sort_unstable();
            f
        })
        .filter(|f| !f.is_empty())
        .collect();
    s.sort();
    s
}

/// One modeler's result on one function.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub model: Model,
    /// The model as shown in the tables (ours: `Model::display`; Extra-P: its own string).
    pub display: String,
    pub exact: bool,
    /// Whether the model uses any parameter.
    pub uses_params: bool,
    /// Relative error of the prediction at [`suite::extrapolation_point`].
    pub error: f64,
    /// With the prior: whether a `contradicts_prior` warning was given, and for which
    /// parameters.
    pub contradicts: Vec<String>,
}

/// The three modelers' results on one function of one seed.
#[derive(Clone, Debug)]
pub struct CaseResult {
    pub seed: u64,
    pub spec: usize,
    pub noise: f64,
    pub truth: String,
    /// Whether the prior leaves out a parameter (the function is a control for false
    /// alarms unless it is contended).
    pub prior_excludes: bool,
    /// In [`MODELERS`] order.
    pub outcomes: [Outcome; 3],
}

impl CaseResult {
    pub fn role(&self) -> Role {
        SPECS[self.spec].role
    }
}

/// `count` of `of`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    pub count: usize,
    pub of: usize,
}

impl Count {
    fn add(&mut self, yes: bool) {
        self.of += 1;
        self.count += usize::from(yes);
    }

    pub fn fraction(self) -> f64 {
        if self.of == 0 {
            0.0
        } else {
            self.count as f64 / self.of as f64
        }
    }

    fn cell(self) -> String {
        format!(
            "{}/{} ({:.0}%)",
            self.count,
            self.of,
            100.0 * self.fraction()
        )
    }

    fn json(self) -> Value {
        json!({"count": self.count, "of": self.of})
    }
}

/// One modeler's figures.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    pub false_dependencies: Count,
    pub exact: Count,
    pub error_median: f64,
    pub error_max: f64,
    pub constant_error_median: f64,
    pub constant_error_max: f64,
    /// With the prior only.
    pub flagged: Option<Count>,
    pub false_alarms: Option<Count>,
    /// Seconds spent modeling (Extra-P: the wall time of its processes, start-up
    /// included, while ours ran too; ours: the sum of each model's time).
    pub seconds: f64,
}

/// A target and whether it was met.
#[derive(Clone, Debug)]
pub struct TargetResult {
    pub id: &'static str,
    pub goal: &'static str,
    pub detail: String,
    pub met: bool,
}

/// Everything a run found.
#[derive(Clone, Debug)]
pub struct ModelerRun {
    pub seeds: Vec<u64>,
    pub cases: Vec<CaseResult>,
    /// In [`MODELERS`] order.
    pub figures: [Figures; 3],
    pub targets: Vec<TargetResult>,
    /// The directory of the text files (removed unless `--dir` named it).
    pub dir: PathBuf,
}

fn median_max(mut v: Vec<f64>) -> (f64, f64) {
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let med = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    (med, v[n - 1])
}

fn rel_error(pred: f64, truth: f64) -> f64 {
    if pred.is_finite() {
        (pred - truth).abs() / truth.abs()
    } else {
        f64::INFINITY
    }
}

fn ours(case: &Case, fit: &FitResult, truth: &Structure, at: &[f64], names: &[String]) -> Outcome {
    let s = structure(&fit.model);
    Outcome {
        display: fit.model.display(names),
        exact: s == *truth,
        uses_params: !s.is_empty(),
        error: rel_error(fit.model.eval(at), case.truth.eval(at)),
        contradicts: fit
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::ContradictsPrior)
            .filter_map(|w| w.parameter.clone())
            .collect(),
        model: fit.model.clone(),
    }
}

/// The text experiment of one seed's functions.
fn experiment(cases: &[Case]) -> TextExperiment {
    let params: Vec<String> = suite::PARAMS.iter().map(|s| s.to_string()).collect();
    let points = cases[0]
        .measurements
        .points
        .iter()
        .map(|p| p.coords.clone())
        .collect();
    TextExperiment {
        params,
        points,
        series: cases
            .iter()
            .map(|c| Series {
                callpath: c.callpath(),
                metric: "time".into(),
                data: c
                    .measurements
                    .points
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (i, p.reps.clone()))
                    .collect(),
            })
            .collect(),
    }
}

/// Runs the benchmark (no printing).
pub fn run(opts: &ModelerOptions) -> Result<ModelerRun> {
    if opts.seeds == 0 {
        bail!("--seeds must be at least 1");
    }
    let ex = extrap::locate()?;
    let (dir, keep) = match &opts.dir {
        Some(d) => (d.clone(), true),
        None => (
            std::env::temp_dir().join(format!("taintprof-bench-modeler-{}", std::process::id())),
            false,
        ),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let result = run_in(opts, &ex, &dir);
    if !keep {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

fn run_in(opts: &ModelerOptions, ex: &extrap::Extrap, dir: &std::path::Path) -> Result<ModelerRun> {
    let seeds: Vec<u64> = (0..opts.seeds as u64)
        .map(|i| opts.first_seed + i)
        .collect();
    let at = suite::extrapolation_point();
    // 1. Generate and write.
    let mut all: Vec<Vec<Case>> = Vec::new();
    let mut files = Vec::new();
    for &seed in &seeds {
        let cases = suite::cases(seed);
        let text = write_text(&experiment(&cases)).map_err(anyhow::Error::msg)?;
        let file = dir.join(format!("seed-{seed}.txt"));
        std::fs::write(&file, text).with_context(|| format!("writing {}", file.display()))?;
        files.push(file);
        all.push(cases);
    }
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    // 2. Extra-P in the background (one process per thread, each on every
    //    `threads`-th file), ours meanwhile.
    let started = Instant::now();
    let procs = threads.min(files.len());
    let mut running = Vec::new();
    for j in 0..procs {
        let mine: Vec<PathBuf> = files.iter().skip(j).step_by(procs).cloned().collect();
        let req = extrap::Request {
            values: false,
            models: true,
            at: vec![at.clone()],
        };
        running.push(ex.start(dir, &mine, &req)?);
    }
    let mut jobs = Vec::new();
    for (k, file) in files.iter().enumerate() {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let exp = read_text(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        for (i, case) in all[k].iter().enumerate() {
            let s = exp
                .series
                .iter()
                .find(|s| s.callpath == case.callpath())
                .with_context(|| format!("{}: no {}", file.display(), case.callpath()))?;
            jobs.push((k, i, s.measurements(&exp)));
        }
    }
    let next = AtomicUsize::new(0);
    type Fits = (FitResult, FitResult, f64, f64);
    let done: Mutex<Vec<Option<Fits>>> = Mutex::new(vec![None; jobs.len()]);
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(jobs.len()) {
            scope.spawn(|| loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                let Some((k, i, m)) = jobs.get(j) else { break };
                let case = &all[*k][*i];
                let t0 = Instant::now();
                let b = black_box(m);
                let t1 = Instant::now();
                let p = with_prior(m, &case.prior);
                let t2 = Instant::now();
                match (b, p) {
                    (Ok(b), Ok(p)) => {
                        done.lock().unwrap()[j] =
                            Some((b, p, (t1 - t0).as_secs_f64(), (t2 - t1).as_secs_f64()));
                    }
                    (Err(e), _) | (_, Err(e)) => {
                        *failed.lock().unwrap() =
                            Some(anyhow::anyhow!("seed {} {}: {e}", case.seed, case.name()));
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap() {
        return Err(e);
    }
    let mut extrap_files = vec![extrap::ExtrapFile::default(); files.len()];
    for (j, r) in running.into_iter().enumerate() {
        let got = r.finish()?;
        let want = files.iter().skip(j).step_by(procs).count();
        if got.len() != want {
            bail!("Extra-P gave {} files for {want}", got.len());
        }
        for (n, f) in got.into_iter().enumerate() {
            extrap_files[j + n * procs] = f;
        }
    }
    let extrap_seconds = started.elapsed().as_secs_f64();
    // 3. Score.
    let names: Vec<String> = suite::PARAMS.iter().map(|s| s.to_string()).collect();
    let fits = done.into_inner().unwrap();
    let mut cases = Vec::new();
    let (mut bb_seconds, mut prior_seconds) = (0.0, 0.0);
    for (j, (k, i, _)) in jobs.iter().enumerate() {
        let case = &all[*k][*i];
        let (b, p, tb, tp) = fits[j].as_ref().expect("every job ran");
        bb_seconds += tb;
        prior_seconds += tp;
        let ef = &extrap_files[*k];
        if ef.parameters != names || ef.points.len() != case.measurements.points.len() {
            bail!(
                "Extra-P read {} with parameters {:?} and {} points; written: {:?}, {}",
                ef.file,
                ef.parameters,
                ef.points.len(),
                names,
                case.measurements.points.len()
            );
        }
        let es = ef
            .series
            .iter()
            .find(|s| s.callpath == case.callpath())
            .with_context(|| {
                format!("Extra-P has no model of {} in {}", case.callpath(), ef.file)
            })?;
        let em = es
            .model
            .clone()
            .with_context(|| format!("Extra-P gave no model of {}", case.callpath()))?;
        let pred = *es.at.first().context("Extra-P gave no prediction")?;
        let mine = em.eval(&at);
        if (mine - pred).abs() > 1e-6 * pred.abs().max(1e-300) {
            bail!(
                "{} in {}: Extra-P's model `{}` read as `{}` predicts {mine}, Extra-P {pred}",
                case.callpath(),
                ef.file,
                es.display,
                em.display(&names)
            );
        }
        let truth = structure(&case.truth);
        let es_struct = structure(&em);
        let e_out = Outcome {
            display: es.display.clone(),
            exact: es_struct == truth,
            uses_params: !es_struct.is_empty(),
            error: rel_error(pred, case.truth.eval(&at)),
            contradicts: Vec::new(),
            model: em,
        };
        let mut kept: Vec<&str> = case.prior.params.iter().map(String::as_str).collect();
        for t in &case.prior.volume_terms {
            for (ps, _) in t {
                kept.extend(ps.iter().map(String::as_str));
            }
        }
        cases.push(CaseResult {
            seed: case.seed,
            spec: case.spec,
            noise: case.noise,
            truth: case.truth.display(&names),
            prior_excludes: suite::PARAMS.iter().any(|p| !kept.contains(p)),
            outcomes: [
                e_out,
                ours(case, b, &truth, &at, &names),
                ours(case, p, &truth, &at, &names),
            ],
        });
    }
    let mut figures: [Figures; 3] = Default::default();
    for (k, f) in figures.iter_mut().enumerate() {
        let mut kernel_errors = Vec::new();
        let mut constant_errors = Vec::new();
        let (mut flagged, mut alarms) = (Count::default(), Count::default());
        for c in &cases {
            let o = &c.outcomes[k];
            match c.role() {
                Role::Constant => {
                    f.false_dependencies.add(o.uses_params);
                    constant_errors.push(o.error);
                }
                Role::Kernel | Role::Control => {
                    f.exact.add(o.exact);
                    kernel_errors.push(o.error);
                }
                Role::Contended => flagged.add(o.contradicts.iter().any(|p| p == "p")),
            }
            if c.role() != Role::Contended && c.prior_excludes {
                alarms.add(!o.contradicts.is_empty());
            }
        }
        (f.error_median, f.error_max) = median_max(kernel_errors);
        (f.constant_error_median, f.constant_error_max) = median_max(constant_errors);
        if MODELERS[k] == "prior" {
            f.flagged = Some(flagged);
            f.false_alarms = Some(alarms);
        }
    }
    figures[0].seconds = extrap_seconds;
    figures[1].seconds = bb_seconds;
    figures[2].seconds = prior_seconds;
    let targets = targets(&figures);
    Ok(ModelerRun {
        seeds,
        cases,
        figures,
        targets,
        dir: dir.to_path_buf(),
    })
}

fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:.1}%", 100.0 * v)
    } else {
        "∞".into()
    }
}

/// The targets (issue 25, item 5), on the prior's figures.
pub fn targets(f: &[Figures; 3]) -> Vec<TargetResult> {
    let (e, p) = (&f[0], &f[2]);
    let flagged = p.flagged.unwrap_or_default();
    let alarms = p.false_alarms.unwrap_or_default();
    vec![
        TargetResult {
            id: "false_dependencies",
            goal: "no false dependency on a taint-constant function (prior)",
            detail: format!(
                "{} of {}",
                p.false_dependencies.count, p.false_dependencies.of
            ),
            met: p.false_dependencies.count == 0,
        },
        TargetResult {
            id: "exact_structures",
            goal: ">= 90% of kernels' structures exact (prior)",
            detail: p.exact.cell(),
            met: p.exact.of > 0 && p.exact.count * 10 >= p.exact.of * 9,
        },
        TargetResult {
            id: "extrapolation_error",
            goal: "median extrapolation error no worse than Extra-P's",
            detail: format!("{} vs {}", pct(p.error_median), pct(e.error_median)),
            met: p.error_median <= e.error_median,
        },
        TargetResult {
            id: "contended_flagged",
            goal: "every contended kernel flagged (prior)",
            detail: format!("{} of {}", flagged.count, flagged.of),
            met: flagged.of > 0 && flagged.count == flagged.of,
        },
        TargetResult {
            id: "false_alarms",
            goal: "<= 1% false alarms (prior)",
            detail: flagged_cell(alarms),
            met: alarms.count * 100 <= alarms.of,
        },
    ]
}

fn flagged_cell(c: Count) -> String {
    format!("{} of {} ({:.1}%)", c.count, c.of, 100.0 * c.fraction())
}

/// The per-function table: exact structures and median extrapolation errors.
pub fn functions_table(run: &ModelerRun) -> String {
    let mut t = Table::new(&[
        Align::Left,
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Right,
    ])
    .header([
        "function",
        "role",
        "exact: Extra-P",
        "black box",
        "prior",
        "median error: Extra-P",
        "black box",
        "prior",
    ]);
    for (i, s) in SPECS.iter().enumerate() {
        let rows: Vec<&CaseResult> = run.cases.iter().filter(|c| c.spec == i).collect();
        let mut cells = vec![s.name.to_string(), s.role.name().to_string()];
        for k in 0..3 {
            cells.push(match s.role {
                Role::Constant => {
                    let deps = rows.iter().filter(|c| c.outcomes[k].uses_params).count();
                    format!("{deps} dep.")
                }
                _ => format!(
                    "{}/{}",
                    rows.iter().filter(|c| c.outcomes[k].exact).count(),
                    rows.len()
                ),
            });
        }
        for k in 0..3 {
            let (m, _) = median_max(rows.iter().map(|c| c.outcomes[k].error).collect());
            cells.push(pct(m));
        }
        t.row(cells);
    }
    t.render("  ")
}

/// The summary table: figures side by side with the targets.
pub fn summary_table(run: &ModelerRun) -> String {
    let f = &run.figures;
    let mut t = Table::new(&[
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Left,
        Align::Left,
    ])
    .header(["", TITLES[0], TITLES[1], TITLES[2], "target", ""]);
    let result = |id: &str| {
        let x = run.targets.iter().find(|t| t.id == id).unwrap();
        if x.met { "met" } else { "MISSED" }.to_string()
    };
    let each = |g: &dyn Fn(&Figures) -> String| -> Vec<String> { f.iter().map(g).collect() };
    let mut row = |label: &str, cells: Vec<String>, target: &str, res: String| {
        let mut r = vec![label.to_string()];
        r.extend(cells);
        r.push(target.to_string());
        r.push(res);
        t.row(r);
    };
    row(
        "false dependencies, constant functions",
        each(&|x| x.false_dependencies.cell()),
        "0 (prior)",
        result("false_dependencies"),
    );
    row(
        "exact structures, kernels",
        each(&|x| x.exact.cell()),
        ">= 90% (prior)",
        result("exact_structures"),
    );
    row(
        "extrapolation error, kernels: median",
        each(&|x| pct(x.error_median)),
        "prior <= Extra-P",
        result("extrapolation_error"),
    );
    row(
        "                              max",
        each(&|x| pct(x.error_max)),
        "",
        String::new(),
    );
    row(
        "extrapolation error, constants: median",
        each(&|x| pct(x.constant_error_median)),
        "",
        String::new(),
    );
    row(
        "                                max",
        each(&|x| pct(x.constant_error_max)),
        "",
        String::new(),
    );
    row(
        "contended kernels flagged",
        each(&|x| {
            x.flagged
                .map_or("-".into(), |c| format!("{}/{}", c.count, c.of))
        }),
        "all (prior)",
        result("contended_flagged"),
    );
    row(
        "false alarms (prior excludes a parameter)",
        each(&|x| x.false_alarms.map_or("-".into(), flagged_cell)),
        "<= 1% (prior)",
        result("false_alarms"),
    );
    row(
        "modeling time",
        each(&|x| format!("{:.1} s", x.seconds)),
        "",
        String::new(),
    );
    let mut s = t.render("  ");
    s.push_str(
        "  (modeling time: Extra-P's is the wall-clock time of its processes, start-up included; \
         ours the sum of the models' times)\n",
    );
    s
}

/// Every figure as JSON.
pub fn to_json(run: &ModelerRun, command: &str) -> Value {
    let names: Vec<String> = suite::PARAMS.iter().map(|s| s.to_string()).collect();
    let figures: serde_json::Map<String, Value> = MODELERS
        .iter()
        .zip(&run.figures)
        .map(|(name, f)| {
            let num = |v: f64| serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number);
            (
                name.to_string(),
                json!({
                    "false_dependencies": f.false_dependencies.json(),
                    "exact_structures": f.exact.json(),
                    "extrapolation_error": {
                        "kernels": {"median": num(f.error_median), "max": num(f.error_max)},
                        "constants": {"median": num(f.constant_error_median), "max": num(f.constant_error_max)},
                    },
                    "contended_flagged": f.flagged.map(Count::json),
                    "false_alarms": f.false_alarms.map(Count::json),
                    "seconds": num(f.seconds),
                }),
            )
        })
        .collect();
    let cases: Vec<Value> = run
        .cases
        .iter()
        .map(|c| {
            let models: serde_json::Map<String, Value> = MODELERS
                .iter()
                .zip(&c.outcomes)
                .map(|(name, o)| {
                    (
                        name.to_string(),
                        json!({
                            "model": o.display,
                            "exact": o.exact,
                            "uses_parameters": o.uses_params,
                            "extrapolation_error": serde_json::Number::from_f64(o.error)
                                .map_or(Value::Null, Value::Number),
                            "contradicts_prior": o.contradicts,
                        }),
                    )
                })
                .collect();
            json!({
                "seed": c.seed,
                "function": SPECS[c.spec].name,
                "role": c.role().name(),
                "noise": c.noise,
                "truth": c.truth,
                "prior_excludes_a_parameter": c.prior_excludes,
                "models": models,
            })
        })
        .collect();
    json!({
        "command": command,
        "extrap": extrap::VERSION,
        "seeds": run.seeds,
        "parameters": names,
        "values": suite::VALUES,
        "repetitions": suite::REPETITIONS,
        "noise": [suite::NOISE.0, suite::NOISE.1],
        "extrapolation_point": suite::extrapolation_point(),
        "modelers": MODELERS.iter().zip(TITLES).map(|(n, t)| json!({"name": n, "title": t})).collect::<Vec<_>>(),
        "figures": figures,
        "targets": run.targets.iter().map(|t| json!({
            "id": t.id, "goal": t.goal, "detail": t.detail, "met": t.met,
        })).collect::<Vec<_>>(),
        "cases": cases,
    })
}

/// `taintprof bench --modeler`: runs, prints, writes `--json`; the exit status is 1
/// when a target is missed.
pub fn modeler_bench(opts: &ModelerOptions) -> Result<i32> {
    let command: Vec<String> = std::env::args().collect();
    let command = command.join(" ");
    eprintln!(
        "modeler benchmark: {} seeds x {} functions, {} parameters x 5 values x {} repetitions, noise {:.0}-{:.0}%; Extra-P {} and ours",
        opts.seeds,
        SPECS.len(),
        suite::PARAMS.len(),
        suite::REPETITIONS,
        100.0 * suite::NOISE.0,
        100.0 * suite::NOISE.1,
        extrap::VERSION
    );
    let run = run(opts)?;
    println!(
        "Modeler benchmark: seeds {}..{}, {} functions each ({} parameters n, m, p x 5 values x {} repetitions, {:.0}-{:.0}% noise); extrapolation to {:?}",
        run.seeds[0],
        run.seeds[run.seeds.len() - 1],
        SPECS.len(),
        suite::PARAMS.len(),
        suite::REPETITIONS,
        100.0 * suite::NOISE.0,
        100.0 * suite::NOISE.1,
        suite::extrapolation_point()
    );
    println!();
    println!("Per function (exact structures, or dependencies found on constant functions; median extrapolation error)");
    print!("{}", functions_table(&run));
    println!();
    println!("Summary");
    print!("{}", summary_table(&run));
    if let Some(path) = &opts.json {
        let text = serde_json::to_string_pretty(&to_json(&run, &command))?;
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
        println!();
        println!("Figures written to {}", path.display());
    }
    if opts.dir.is_some() {
        println!("Text files in {}", run.dir.display());
    }
    Ok(if run.targets.iter().all(|t| t.met) {
        0
    } else {
        1
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use taintprof_fit::{Factor, Term};

    fn f(param: usize, exponent: f64, log_exponent: u32) -> Factor {
        Factor {
            param,
            exponent,
            log_exponent,
        }
    }

    #[test]
    fn structures_ignore_order_constants_and_zero_terms() {
        let a = Model {
            constant: 1.0,
            terms: vec![
                Term {
                    coefficient: 2.0,
                    factors: vec![f(1, 1.0, 0), f(0, 0.75, 0)],
                },
                Term {
                    coefficient: 0.0,
                    factors: vec![f(2, 1.0, 0)],
                },
                Term {
                    coefficient: 3.0,
                    factors: vec![f(2, 0.0, 0)],
                },
            ],
        };
        let b = Model {
            constant: 5.0,
            terms: vec![Term {
                coefficient: -1.0,
                factors: vec![f(0, 3.0 / 4.0, 0), f(1, 1.0, 0), f(2, 0.0, 0)],
            }],
        };
        assert_eq!(structure(&a), structure(&b));
        assert_eq!(
            structure(&a),
            vec![vec![(0, 750_000, 0), (1, 1_000_000, 0)]]
        );
        assert!(structure(&Model::constant(3.0)).is_empty());
    }

    #[test]
    fn targets_on_figures() {
        let mut f: [Figures; 3] = Default::default();
        f[0].error_median = 0.05;
        f[2] = Figures {
            false_dependencies: Count { count: 0, of: 10 },
            exact: Count { count: 9, of: 10 },
            error_median: 0.04,
            flagged: Some(Count { count: 4, of: 4 }),
            false_alarms: Some(Count { count: 1, of: 100 }),
            ..Default::default()
        };
        assert!(targets(&f).iter().all(|t| t.met), "{:?}", targets(&f));
        f[2].exact.count = 8;
        f[2].false_alarms = Some(Count { count: 2, of: 100 });
        let missed: Vec<_> = targets(&f)
            .into_iter()
            .filter(|t| !t.met)
            .map(|t| t.id)
            .collect();
        assert_eq!(missed, ["exact_structures", "false_alarms"]);
    }
}
