//! Extra-P 4.2.5, the reference modeler: where it is, and running
//! `bench/modeler/extrap_models.py` (embedded here, written next to the text files) with
//! the Python of its virtual environment, which loads each text file with Extra-P's
//! `TextFileReader`, runs its default modeler and prints the models (and, on request,
//! the values it read) as JSON; the output parsed into [`Model`]s.

use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use taintprof_fit::{Factor, Model, Term};

/// The script, written into the bench's directory before it runs.
pub const SCRIPT: &str = include_str!("../../../bench/modeler/extrap_models.py");
/// The script's file name.
pub const SCRIPT_NAME: &str = "extrap_models.py";
/// The version compared with.
pub const VERSION: &str = "4.2.5";

/// An Extra-P installation: its `extrap` command and the Python that runs it.
#[derive(Clone, Debug)]
pub struct Extrap {
    pub command: PathBuf,
    pub python: PathBuf,
}

/// `$TAINTPROF_EXTRAP`, else `~/.cache/taintprof/extrap-4.2.5/bin/extrap` (where
/// scripts/setup.sh installs it).
pub fn default_command() -> PathBuf {
    std::env::var_os("TAINTPROF_EXTRAP")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/taintprof/extrap-4.2.5/bin/extrap")
        })
}

/// Finds Extra-P ([`default_command`]) and its Python: the interpreter on the
/// command's `#!` line (a pip-installed console script names its environment's), else
/// `python3` next to it. An error names the package and how to install it.
pub fn locate() -> Result<Extrap> {
    let command = default_command();
    if !command.is_file() {
        bail!(
            "{} is missing: the modeler benchmark needs Extra-P {VERSION} (PyPI package `extrap`); \
             run `make setup` (scripts/setup.sh installs it into ~/.cache/taintprof/extrap-{VERSION}) \
             or set TAINTPROF_EXTRAP to its `extrap` command",
            command.display()
        );
    }
    let text = std::fs::read(&command).with_context(|| format!("reading {}", command.display()))?;
    let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
    let shebang = std::str::from_utf8(first)
        .ok()
        .and_then(|l| l.strip_prefix("#!"))
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.contains(' '))
        .map(PathBuf::from)
        .filter(|p| p.is_file());
    let python = shebang.unwrap_or_else(|| command.with_file_name("python3"));
    if !python.is_file() {
        bail!(
            "cannot find the Python of Extra-P's environment (tried the `#!` line of {} and {}); \
             reinstall Extra-P {VERSION} (PyPI package `extrap`) with `make setup`",
            command.display(),
            python.display()
        );
    }
    Ok(Extrap { command, python })
}

/// One call path's (and metric's) result.
#[derive(Clone, Debug, Default)]
pub struct ExtrapSeries {
    pub callpath: String,
    pub metric: String,
    /// The repetitions Extra-P read, per point (with `values`).
    pub values: Option<Vec<Vec<f64>>>,
    /// Extra-P's model (with `models`).
    pub model: Option<Model>,
    /// Extra-P's own display string of the model.
    pub display: String,
    /// Extra-P's predictions at the `at` points.
    pub at: Vec<f64>,
}

/// One file as Extra-P read and modeled it.
#[derive(Clone, Debug, Default)]
pub struct ExtrapFile {
    pub file: String,
    pub parameters: Vec<String>,
    pub points: Vec<Vec<f64>>,
    pub series: Vec<ExtrapSeries>,
}

/// What to ask the script for.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The repetitions as read.
    pub values: bool,
    /// Run the default modeler.
    pub models: bool,
    /// Points to predict at.
    pub at: Vec<Vec<f64>>,
}

impl Extrap {
    /// Writes the script into `dir` and starts it on `files` (stdout and stderr piped:
    /// [`Running::finish`] collects them).
    pub fn start(&self, dir: &Path, files: &[PathBuf], req: &Request) -> Result<Running> {
        let script = dir.join(SCRIPT_NAME);
        std::fs::write(&script, SCRIPT).with_context(|| format!("writing {}", script.display()))?;
        let mut cmd = Command::new(&self.python);
        cmd.arg(&script);
        if req.values {
            cmd.arg("--values");
        }
        if !req.models {
            cmd.arg("--no-models");
        }
        for p in &req.at {
            let s: Vec<String> = p.iter().map(|v| format!("{v:?}")).collect();
            cmd.arg("--at").arg(s.join(","));
        }
        cmd.args(files)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let child = cmd
            .spawn()
            .with_context(|| format!("starting {}", self.python.display()))?;
        Ok(Running {
            child,
            what: format!("{} {}", self.python.display(), script.display()),
        })
    }

    /// [`Extrap::start`], then [`Running::finish`].
    pub fn run(&self, dir: &Path, files: &[PathBuf], req: &Request) -> Result<Vec<ExtrapFile>> {
        self.start(dir, files, req)?.finish()
    }
}

/// The script, running.
pub struct Running {
    child: Child,
    what: String,
}

impl Running {
    /// Waits for the script and parses its output.
    pub fn finish(self) -> Result<Vec<ExtrapFile>> {
        let out = self
            .child
            .wait_with_output()
            .with_context(|| format!("waiting for {}", self.what))?;
        if !out.status.success() {
            bail!(
                "{} failed ({}): {}",
                self.what,
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        let v: Value = serde_json::from_slice(&out.stdout)
            .with_context(|| format!("the output of {} is not JSON", self.what))?;
        parse(&v).with_context(|| format!("reading the output of {}", self.what))
    }
}

fn num(v: &Value, what: &str) -> Result<f64> {
    v.as_f64()
        .with_context(|| format!("{what}: not a number: {v}"))
}

fn numbers(v: &Value, what: &str) -> Result<Vec<f64>> {
    v.as_array()
        .with_context(|| format!("{what}: not a list"))?
        .iter()
        .map(|x| num(x, what))
        .collect()
}

fn model(v: &Value) -> Result<Model> {
    let mut terms = Vec::new();
    for t in v["terms"].as_array().context("model: no terms")? {
        let mut factors = Vec::new();
        for f in t["factors"].as_array().context("term: no factors")? {
            let log = num(&f["log_exponent"], "log_exponent")?;
            if log < 0.0 || log.fract() != 0.0 {
                bail!("log exponent {log}: not a whole number");
            }
            factors.push(Factor {
                param: f["parameter"]
                    .as_u64()
                    .context("factor: no parameter index")? as usize,
                exponent: num(&f["exponent"], "exponent")?,
                log_exponent: log as u32,
            });
        }
        terms.push(Term {
            coefficient: num(&t["coefficient"], "coefficient")?,
            factors,
        });
    }
    Ok(Model {
        constant: num(&v["constant"], "constant")?,
        terms,
    })
}

/// Parses the script's output (its format is in the script's documentation).
pub fn parse(v: &Value) -> Result<Vec<ExtrapFile>> {
    let version = v["extrap"].as_str().unwrap_or("?");
    if version != VERSION {
        bail!("Extra-P {version} found; the comparison is with Extra-P {VERSION} (PyPI package `extrap`)");
    }
    let mut files = Vec::new();
    for f in v["files"].as_array().context("no files")? {
        let mut series = Vec::new();
        for s in f["series"].as_array().context("no series")? {
            let values = match s.get("values") {
                None => None,
                Some(rows) => Some(
                    rows.as_array()
                        .context("values: not a list")?
                        .iter()
                        .map(|row| {
                            row.as_array()
                                .context("values: a point without a list")?
                                .iter()
                                .map(|x| {
                                    let t = x.as_str().context("values: not a string")?;
                                    t.parse::<f64>()
                                        .with_context(|| format!("values: `{t}` is not a number"))
                                })
                                .collect::<Result<Vec<f64>>>()
                        })
                        .collect::<Result<Vec<_>>>()?,
                ),
            };
            let m = s.get("model").map(model).transpose()?;
            series.push(ExtrapSeries {
                callpath: s["callpath"].as_str().unwrap_or_default().to_string(),
                metric: s["metric"].as_str().unwrap_or_default().to_string(),
                values,
                display: s["model"]["display"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                model: m,
                at: match s.get("at") {
                    Some(a) => numbers(a, "at")?,
                    None => Vec::new(),
                },
            });
        }
        files.push(ExtrapFile {
            file: f["file"].as_str().unwrap_or_default().to_string(),
            parameters: f["parameters"]
                .as_array()
                .context("no parameters")?
                .iter()
                .map(|p| p.as_str().unwrap_or_default().to_string())
                .collect(),
            points: f["points"]
                .as_array()
                .context("no points")?
                .iter()
                .map(|p| numbers(p, "point"))
                .collect::<Result<_>>()?,
            series,
        });
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_models_and_values() {
        let v: Value = serde_json::from_str(
            r#"{"extrap": "4.2.5", "files": [{"file": "a.txt", "parameters": ["n", "m"],
                "points": [[1.0, 2.0], [3.0, 4.0]],
                "series": [{"callpath": "main->f", "metric": "time",
                            "values": [["1.5", "0.30000000000000004"], ["2.0"]],
                            "model": {"constant": 1.0, "display": "1 + 2 * n^(3/2) * log2(m)^(1)",
                                      "terms": [{"coefficient": 2.0, "factors": [
                                          {"parameter": 0, "exponent": 1.5, "log_exponent": 0.0},
                                          {"parameter": 1, "exponent": 0.0, "log_exponent": 1.0}]}]},
                            "at": [7.0]}]}]}"#,
        )
        .unwrap();
        let f = parse(&v).unwrap();
        let s = &f[0].series[0];
        assert_eq!(f[0].parameters, ["n", "m"]);
        assert_eq!(f[0].points[1], [3.0, 4.0]);
        assert_eq!(s.values.as_ref().unwrap()[0][1], 0.1 + 0.2);
        let m = s.model.as_ref().unwrap();
        assert_eq!(m.display(&f[0].parameters), "1 + 2 * n^(3/2) * log2(m)");
        assert_eq!(s.at, [7.0]);
        let mut old = v.clone();
        old["extrap"] = "4.2.4".into();
        assert!(parse(&old)
            .unwrap_err()
            .to_string()
            .contains("PyPI package `extrap`"));
    }
}
