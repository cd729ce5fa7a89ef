//! `taintprof experiment`: runs the experiments an empirical performance model needs and
//! writes the measurements in Extra-P's JSON input format (issue 25, item 2).
//!
//! ```text
//! taintprof experiment --out DIR (--grid n=.. steps=.. | --prior R.json --design n=.. steps=..)
//!                      [--reps 5] [--timeout SECS] -- mpirun -np {p} ./app -s {n} {steps}
//! ```
//!
//! Every (point, repetition) runs once, repetitions interleaved (every point's first
//! repetition, then every point's second, ...: a slow drift of the machine spreads over
//! the points instead of bending one parameter's curve), in the user's working
//! directory, with `TAINTPROF_OUT=DIR/runs/<point>/rep<k>` (its records and its
//! `stdout` and `stderr` go there). After each run its line is appended to the journal
//! and `DIR/measurements.json` is rewritten; running the same command again resumes
//! (finished runs are not made again, failed ones are).
//!
//! | file | what |
//! |---|---|
//! | [`template`] | the command template: `{param}` placeholders, checks, substitution, the program's name |
//! | [`plan`] | the points (`--grid`, or the report's design), `DIR/plan.json`, what differs from a stored plan |
//! | [`journal`] | `DIR/journal.jsonl`: one fsynced line per finished run, a torn last line ignored |
//! | [`child`] | one command: its own process group, output to files, wall time, timeout, SIGINT/SIGTERM |
//! | [`measure`] | a run's metrics: its time records, or its wall time; registered parameter values |
//! | [`output`] | `DIR/measurements.json` (Extra-P JSON) from the journal |
//! | [`progress`] | progress lines, the estimated time left |
//! | [`adaptive`] | `--adaptive`: extra points where the measured curve bends, and bisection where a recorded branch changes side |

pub mod adaptive;
pub mod child;
pub mod journal;
pub mod measure;
pub mod output;
pub mod plan;
pub mod progress;
pub mod template;

use anyhow::{anyhow, bail, Result};
use journal::{Entry, Journal};
use plan::Plan;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use template::Template;

/// The command line of `taintprof experiment`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub out: PathBuf,
    pub prior: Option<PathBuf>,
    pub design: Vec<String>,
    pub design_base: Vec<String>,
    pub grid: Vec<String>,
    pub reps: u32,
    /// Seconds.
    pub timeout: Option<f64>,
    /// The call path of wall-time measurements (default: the program's name).
    pub callpath: Option<String>,
    pub restart: bool,
    pub quiet: bool,
    /// One round of extra points where the curve bends (`adaptive.rs`).
    pub adaptive: bool,
    pub command: Vec<OsString>,
}

/// The files of an experiment directory.
pub const PLAN: &str = "plan.json";
pub const JOURNAL: &str = "journal.jsonl";
pub const MEASUREMENTS: &str = "measurements.json";
pub const RUNS: &str = "runs";

/// How many lines of a failed run's stderr the summary shows.
const STDERR_LINES: usize = 8;

/// A run that failed in this session.
struct Failure {
    label: String,
    rep: u32,
    argv: Vec<String>,
    error: String,
    stderr: PathBuf,
}

/// The plan the command line asks for, and the design's notes.
fn plan_of(o: &Options, words: Vec<String>, template: &Template) -> Result<(Plan, Vec<String>)> {
    let (points, origin, how) = if !o.design.is_empty() {
        let prior = o.prior.as_ref().ok_or_else(|| {
            anyhow!("--design needs --prior REPORT (the taint report it is made from)")
        })?;
        let points = plan::design(prior, &o.design, &o.design_base).map_err(anyhow::Error::msg)?;
        (
            points,
            format!("--design from {}", prior.display()),
            "--design",
        )
    } else if !o.grid.is_empty() {
        let points = plan::grid(&o.grid).map_err(anyhow::Error::msg)?;
        (points, "--grid".to_string(), "--grid")
    } else {
        bail!(
            "which points? give --grid PARAM=V1,V2,... (every combination of the values) or \
             --prior REPORT --design PARAM=V1,V2,... (the runs the report's experiment design needs)"
        );
    };
    template
        .check(&points.params, how)
        .map_err(anyhow::Error::msg)?;
    Ok((
        Plan::new(words, points.params, points.points, o.reps, origin),
        points.notes,
    ))
}

/// Removes what an earlier experiment left in `dir` (`--restart`): its plan, journal,
/// measurements and run directories, nothing else.
fn clear(dir: &Path) -> Result<()> {
    for f in [PLAN, JOURNAL, MEASUREMENTS] {
        match std::fs::remove_file(dir.join(f)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                bail!("--restart: cannot remove {}: {e}", dir.join(f).display())
            }
            _ => {}
        }
    }
    match std::fs::remove_dir_all(dir.join(RUNS)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            bail!("--restart: cannot remove {}: {e}", dir.join(RUNS).display())
        }
        _ => Ok(()),
    }
}

/// `taintprof experiment`. Returns the exit status: 0, 1 if a run failed, 128 + the
/// signal that stopped it.
pub fn experiment(o: &Options) -> Result<i32> {
    let words: Vec<String> = o
        .command
        .iter()
        .map(|w| {
            w.to_str()
                .map(String::from)
                .ok_or_else(|| anyhow!("the command word {w:?} is not UTF-8"))
        })
        .collect::<Result<_>>()?;
    let template = Template::parse(&words).map_err(anyhow::Error::msg)?;
    if o.reps == 0 {
        bail!("--reps 0: give at least 1 repetition (Extra-P wants several: 5 is the default)");
    }
    let timeout = match o.timeout {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some(std::time::Duration::from_secs_f64(t)),
        Some(t) => bail!("--timeout {t}: give a positive number of seconds"),
    };
    let (asked, notes) = plan_of(o, words, &template)?;

    std::fs::create_dir_all(&o.out)
        .map_err(|e| anyhow!("cannot create {}: {e}", o.out.display()))?;
    let dir = o.out.canonicalize().unwrap_or_else(|_| o.out.clone());
    if o.restart {
        clear(&dir)?;
    }
    let shown = crate::run::display_path(&dir);
    // The stored plan when it is the same (it may hold points --adaptive added).
    let plan = match plan::load(&dir.join(PLAN)).map_err(anyhow::Error::msg)? {
        Some(stored) => {
            let diffs = stored.differences(&asked);
            if diffs.is_empty() {
                stored
            } else if nothing_finished(&dir) {
                // Nothing to lose (e.g. the program was not found): the new plan.
                clear(&dir)?;
                plan::store(&asked, &dir.join(PLAN)).map_err(anyhow::Error::msg)?;
                asked
            } else {
                bail!(
                    "{shown} holds another experiment ({shown}/{PLAN}): {}. \
                     To keep it, use another --out directory; to delete its runs and start over, add --restart",
                    diffs.join("; ")
                );
            }
        }
        None => {
            if dir.join(JOURNAL).exists() {
                bail!(
                    "{shown}/{JOURNAL} exists but {shown}/{PLAN} does not: use another --out directory, or --restart to start over"
                );
            }
            plan::store(&asked, &dir.join(PLAN)).map_err(anyhow::Error::msg)?;
            asked
        }
    };

    let (journal, read) = Journal::open(&dir.join(JOURNAL)).map_err(anyhow::Error::msg)?;
    if read.torn {
        errln!("taintprof: {shown}/{JOURNAL}: the last line was cut off (killed while writing); its run is made again");
    }
    for line in &read.damaged {
        errln!("taintprof: warning: {shown}/{JOURNAL}: line {line} is damaged and ignored; its run is made again");
    }
    let mut env: Vec<(&str, OsString)> = Vec::new();
    if std::env::var_os("TAINTPROF_QUIET").is_none() {
        env.push(("TAINTPROF_QUIET", "1".into()));
    }
    let mut s = Session {
        o,
        template: &template,
        callpath: o
            .callpath
            .clone()
            .unwrap_or_else(|| template.program_name()),
        env,
        timeout,
        measurements: dir.join(MEASUREMENTS),
        dir,
        eta: progress::Eta::new(plan.points.len()),
        plan,
        journal,
        done: BTreeMap::new(),
        failures: Vec::new(),
        warned: Vec::new(),
        stopped: None,
    };
    for e in read.entries {
        if let Some(i) = s.plan.index_of(&e.point) {
            if (1..=s.plan.reps).contains(&e.rep) {
                s.eta.add(i, e.seconds);
                s.done.insert((i, e.rep), e);
            }
        }
    }
    let order = s.order();
    let total = order.len();
    let before = order.iter().filter(|k| s.is_done(k)).count();
    if !o.quiet {
        for note in &notes {
            errln!("taintprof: note: {note}");
        }
        let n = s.plan.points.len();
        if before > 0 {
            errln!("taintprof: resuming {shown}: {before} of {total} runs done");
        } else {
            errln!(
                "taintprof: {n} {} × {} {} = {total} runs into {shown}",
                if n == 1 { "point" } else { "points" },
                s.plan.reps,
                if s.plan.reps == 1 {
                    "repetition"
                } else {
                    "repetitions"
                }
            );
        }
    }
    s.write_measurements()?;

    child::install_stop_handlers();
    s.run_all(&order)?;
    if o.adaptive && s.stopped.is_none() {
        s.adapt()?;
    }
    Ok(s.summary())
}

/// An experiment in progress.
struct Session<'a> {
    o: &'a Options,
    template: &'a Template,
    dir: PathBuf,
    plan: Plan,
    journal: Journal,
    /// `(point, repetition)` → its last journal entry.
    done: BTreeMap<(usize, u32), Entry>,
    eta: progress::Eta,
    failures: Vec<Failure>,
    /// Warnings given once (the parameters whose registered values differ, ...).
    warned: Vec<String>,
    /// The signal that stopped the experiment.
    stopped: Option<i32>,
    /// The call path of wall-time measurements.
    callpath: String,
    env: Vec<(&'static str, OsString)>,
    timeout: Option<std::time::Duration>,
    measurements: PathBuf,
}

impl Session<'_> {
    /// Every run of the plan in the order they are made: the planned points' first
    /// repetitions, then their second, ...; then the same for the points --adaptive
    /// added.
    fn order(&self) -> Vec<(usize, u32)> {
        let planned = self.plan.planned().len();
        let reps = self.plan.reps;
        let sweep =
            |from: usize, to: usize| (1..=reps).flat_map(move |r| (from..to).map(move |i| (i, r)));
        sweep(0, planned)
            .chain(sweep(planned, self.plan.points.len()))
            .collect()
    }

    fn is_done(&self, k: &(usize, u32)) -> bool {
        self.done.get(k).is_some_and(Entry::ok)
    }

    fn write_measurements(&self) -> Result<()> {
        output::write(
            &self.measurements,
            &output::experiment(&self.plan, &self.done),
        )
        .map_err(anyhow::Error::msg)
    }

    /// Makes the runs of `order` that are not done yet, until a stop request.
    fn run_all(&mut self, order: &[(usize, u32)]) -> Result<()> {
        let total = order.len();
        for (k, &(i, rep)) in order.iter().enumerate() {
            if self.is_done(&(i, rep)) {
                continue;
            }
            if let Some(sig) = child::stop_requested() {
                self.stopped = Some(sig);
                break;
            }
            let Some(entry) = self.run_one(i, rep, k + 1, total)? else {
                break;
            };
            let ok = entry.ok();
            let seconds = entry.seconds;
            self.journal.append(&entry).map_err(anyhow::Error::msg)?;
            self.eta.add(i, seconds);
            self.done.insert((i, rep), entry);
            self.write_measurements()?;
            if !self.o.quiet {
                let left = self.eta.left(
                    order[k + 1..]
                        .iter()
                        .filter(|key| !self.is_done(key))
                        .map(|&(i, _)| i),
                );
                let what = if ok {
                    progress::duration(seconds)
                } else {
                    format!(
                        "FAILED ({}) after {}",
                        self.failures.last().map(|f| f.error.as_str()).unwrap_or(""),
                        progress::duration(seconds)
                    )
                };
                let eta_text = match left {
                    Some(s) if k + 1 < total => format!(" (ETA {})", progress::duration(s)),
                    _ => String::new(),
                };
                errln!(
                    "[{}/{total}] {} rep {rep}/{}: {what}{eta_text}",
                    k + 1,
                    self.plan.label(i),
                    self.plan.reps
                );
            }
        }
        Ok(())
    }

    /// Makes run `rep` of point `i` (number `pos` of `total`); `None` if the experiment
    /// was asked to stop while it ran.
    fn run_one(&mut self, i: usize, rep: u32, pos: usize, total: usize) -> Result<Option<Entry>> {
        let run_dir = self
            .dir
            .join(RUNS)
            .join(self.plan.key(i))
            .join(format!("rep{rep}"));
        // What an interrupted or failed earlier attempt left.
        let _ = std::fs::remove_dir_all(&run_dir);
        std::fs::create_dir_all(&run_dir)
            .map_err(|e| anyhow!("cannot create {}: {e}", run_dir.display()))?;
        let values = self.plan.values(i);
        let argv = self.template.substitute(&values);
        let mut env = self.env.clone();
        env.push((taintprof_abi::ENV_OUT_DIR, run_dir.clone().into_os_string()));
        let (stdout, stderr) = (run_dir.join("stdout"), run_dir.join("stderr"));
        let fin = child::run(&child::Spec {
            argv: &argv,
            env: &env,
            stdout: &stdout,
            stderr: &stderr,
            timeout: self.timeout,
        })
        .map_err(anyhow::Error::msg)?;
        let label = self.plan.label(i);
        let mut entry = Entry {
            point: self.plan.points[i].clone(),
            rep,
            status: "failed".to_string(),
            seconds: fin.seconds,
            error: None,
            metrics: Vec::new(),
        };
        match fin.outcome {
            child::Outcome::Stopped(sig) => {
                if !self.o.quiet {
                    errln!(
                        "[{pos}/{total}] {label} rep {rep}/{}: stopped ({})",
                        self.plan.reps,
                        child::signal_name(sig)
                    );
                }
                self.stopped = Some(sig);
                return Ok(None);
            }
            child::Outcome::TimedOut => {
                entry.error = Some(format!(
                    "timed out (--timeout {})",
                    self.o.timeout.unwrap_or_default()
                ))
            }
            child::Outcome::Exited(st) if !st.success() => {
                entry.error = Some(child::describe_status(st))
            }
            child::Outcome::Exited(_) => {
                match measure::measure(&run_dir, fin.seconds, &self.callpath) {
                    Err(e) => entry.error = Some(e),
                    Ok(m) => {
                        self.check(&values, &label, &m, &run_dir);
                        entry.status = "ok".to_string();
                        entry.metrics = m.metrics;
                    }
                }
            }
        }
        if let Some(error) = &entry.error {
            self.failures.push(Failure {
                label,
                rep,
                argv,
                error: error.clone(),
                stderr,
            });
        }
        Ok(Some(entry))
    }

    /// Warnings about a successful run (each once): registered parameter values that
    /// differ from the point's, a program built for the taint analysis.
    fn check(
        &mut self,
        values: &[(String, String)],
        label: &str,
        m: &measure::Measured,
        run_dir: &Path,
    ) {
        for (param, want, got) in measure::mismatches(values, &m.registered) {
            if !self.warned.contains(&param) {
                errln!(
                    "taintprof: warning: {param}: the program registered {got} at the point {label} \
                     (it may round or override the value); the measurements are recorded at {param}={want}"
                );
                self.warned.push(param);
            }
        }
        const TAINT: &str = "taint records";
        if m.source == measure::Source::WallTime
            && !self.warned.iter().any(|w| w == TAINT)
            && has_taint_records(run_dir)
        {
            errln!(
                "taintprof: warning: the program writes taint records: it is built for the taint analysis, \
                 which slows it down; measure a plain build, or one with --tp-mode=time"
            );
            self.warned.push(TAINT.to_string());
        }
    }

    /// `--adaptive` (`adaptive.rs`): once every planned run succeeded, one round of
    /// points where the curve bends, and rounds of bisection where a recorded branch
    /// changes side, each run before the next is chosen (the plan stores what was
    /// done, so an interrupted experiment resumes where it stopped).
    fn adapt(&mut self) -> Result<()> {
        loop {
            let order = self.order();
            if !order.iter().all(|k| self.is_done(k)) {
                errln!("taintprof: --adaptive: no points added while runs are missing or failed (run the same command again)");
                return Ok(());
            }
            let (new, why) = if !self.plan.adaptive_done {
                let stats = adaptive::reference_stats(&self.plan, &self.done);
                let mut new = adaptive::refine(&self.plan.points, &stats);
                let bends = new.len();
                for p in adaptive::bisect_branches(&self.plan, &self.done) {
                    if !new.contains(&p) {
                        new.push(p);
                    }
                }
                self.plan.adaptive_done = true;
                self.plan.bisect_rounds = 1;
                let why = match (bends, new.len() - bends) {
                    (0, 0) => "no bends and no branch changing side",
                    (_, 0) => "where the curve bends",
                    (0, _) => "where a branch changes side",
                    _ => "where the curve bends and where a branch changes side",
                };
                (new, why)
            } else if self.plan.bisect_rounds < adaptive::BISECT_ROUNDS {
                let new = adaptive::bisect_branches(&self.plan, &self.done);
                if new.is_empty() {
                    return Ok(());
                }
                self.plan.bisect_rounds += 1;
                (new, "where a branch changes side")
            } else {
                return Ok(());
            };
            self.plan.added += new.len();
            self.plan.points.extend(new.iter().cloned());
            self.eta = {
                let mut eta = progress::Eta::new(self.plan.points.len());
                for (&(i, _), e) in &self.done {
                    eta.add(i, e.seconds);
                }
                eta
            };
            plan::store(&self.plan, &self.dir.join(PLAN)).map_err(anyhow::Error::msg)?;
            if new.is_empty() {
                errln!("taintprof: --adaptive: {why}; no points added");
                return Ok(());
            }
            let first = self.plan.points.len() - new.len();
            errln!(
                "taintprof: --adaptive: {} {} {why}: {}",
                new.len(),
                if new.len() == 1 {
                    "point added"
                } else {
                    "points added"
                },
                (first..self.plan.points.len())
                    .map(|i| self.plan.label(i))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            let order = self.order();
            self.run_all(&order)?;
            if self.stopped.is_some() {
                return Ok(());
            }
        }
    }

    /// Prints the failures and the summary; returns the exit status.
    fn summary(&self) -> i32 {
        let order = self.order();
        let total = order.len();
        let measured = order.iter().filter(|k| self.is_done(k)).count();
        let file = crate::run::display_path(&self.measurements);
        if !self.failures.is_empty() {
            errln!(
                "\ntaintprof: {} {} failed (left out of the measurements):",
                self.failures.len(),
                if self.failures.len() == 1 {
                    "run"
                } else {
                    "runs"
                }
            );
            for f in &self.failures {
                errln!("  {} rep {}: {}", f.label, f.rep, f.error);
                errln!("    command: {}", template::shell_line(&f.argv));
                let tail = child::tail(&f.stderr, STDERR_LINES);
                if tail.is_empty() {
                    errln!("    (no stderr: {})", crate::run::display_path(&f.stderr));
                } else {
                    errln!("    stderr ({}):", crate::run::display_path(&f.stderr));
                    for line in tail {
                        errln!("    | {line}");
                    }
                }
            }
        }
        if let Some(sig) = self.stopped {
            errln!(
                "\ntaintprof: stopped ({}): {measured} of {total} runs done, in {file}; run the same command again to continue",
                child::signal_name(sig)
            );
            return 128 + sig;
        }
        errln!(
            "\ntaintprof: {measured} of {total} runs measured{}; measurements: {file}",
            if self.failures.is_empty() {
                String::new()
            } else {
                format!(
                    ", {} failed (run the same command again to retry them)",
                    self.failures.len()
                )
            }
        );
        if let Some(note) = partial_callpaths_note(&output::experiment(&self.plan, &self.done)) {
            errln!("{note}");
        }
        let prior = self
            .o
            .prior
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "REPORT.json".to_string());
        errln!("next: taintprof model --prior {prior} {file}");
        if self.failures.is_empty() && measured == total {
            0
        } else {
            1
        }
    }
}

/// Whether the journal in `dir` has no finished run.
fn nothing_finished(dir: &Path) -> bool {
    std::fs::metadata(dir.join(JOURNAL)).map_or(true, |m| m.len() == 0)
}

/// Whether the run left raw taint records (`.taintprof.rec`) in `dir`.
fn has_taint_records(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|d| {
        d.flatten().any(|e| {
            e.file_name()
                .to_string_lossy()
                .ends_with(crate::run::RECORD_SUFFIX)
        })
    })
}

/// A note when some call path was measured at fewer points than the experiment has (a
/// function that runs only on one side of a branch): Extra-P rejects such a file
/// ("the number of measurements ... does not match the number of coordinates");
/// `taintprof model` models each call path on the points it has.
fn partial_callpaths_note(exp: &taintprof_fit::experiment::Experiment) -> Option<String> {
    let points = exp.points.len();
    let mut partial: Vec<(&str, usize)> = Vec::new();
    for s in exp.series.iter().filter(|s| s.metric == "time") {
        if s.data.len() < points && !partial.iter().any(|(c, _)| *c == s.callpath) {
            partial.push((&s.callpath, s.data.len()));
        }
    }
    let (first, at) = *partial.first()?;
    Some(format!(
        "note: {} measured at only some of the {points} points ({} at {at}{}): Extra-P refuses such a file; taintprof model models each call path on the points it has",
        if partial.len() == 1 {
            "1 call path was".to_string()
        } else {
            format!("{} call paths were", partial.len())
        },
        crate::table::shown_callpath(first),
        if partial.len() > 1 { ", ..." } else { "" }
    ))
}

#[cfg(test)]
mod partial_tests {
    use super::*;

    #[test]
    fn call_paths_missing_at_some_points_are_noted() {
        let mut e = taintprof_fit::experiment::Experiment::new(vec!["n".into()]);
        for n in [1.0, 2.0, 4.0] {
            e.add("main", "time", &[n], &[1.0]);
            if n > 1.0 {
                e.add("main->big", "time", &[n], &[1.0]);
            }
        }
        let note = partial_callpaths_note(&e).unwrap();
        assert!(
            note.contains("1 call path was measured at only some of the 3 points (main->big at 2)"),
            "{note}"
        );
        let mut full = taintprof_fit::experiment::Experiment::new(vec!["n".into()]);
        full.add("main", "time", &[1.0], &[1.0]);
        assert_eq!(partial_callpaths_note(&full), None);
    }
}
