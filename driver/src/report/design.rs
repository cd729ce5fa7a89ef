//! `taintprof report FILE --design PARAM=v1,v2,... [PARAM=...]`: the runs an empirical
//! model (Extra-P) needs, derived from the report's `pairs` (Perf-Taint, sections 5 and
//! 6, "Parameter dependencies": parameters that are only additive can be modeled from
//! one-parameter sweeps; only multiplicative ones need every combination).
//!
//! The rule:
//!
//! 1. A parameter named on the command line is *relevant* if some function depends on
//!    it (`inclusive_params`); otherwise it is *irrelevant* and held at its base value.
//! 2. The *coupling graph* has an edge between two relevant parameters if any function's
//!    `pairs` calls them `multiplicative`. Each connected component is a group.
//! 3. A group of two or more parameters is measured on the full grid of its parameters'
//!    values; a group of one is a one-parameter sweep. Every parameter outside the group
//!    is held at its *base value*: the first value listed, or the one given with
//!    `--design-base PARAM=v` (which must be one of the listed values, so the base run
//!    is shared by every group).
//! 4. The runs are the union of the groups' runs, the all-base run first, without
//!    duplicates; the full factorial (every combination of every parameter) is printed
//!    for comparison.
//!
//! Parameters that are registered and relevant but not named stay at whatever the
//! program uses; the design says so. Parameters that select code paths (branch
//! `params`) are pointed out: runs that vary them may execute different code.

use super::render::{location, Files};
use super::summary::{order_params, registered, FunctionSummary, Summary};
use super::volume::coupling_term_of;
use crate::table::{Align, Table};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::fmt::Write;

/// Refuse designs with more runs than this (they would not be run anyway).
pub const MAX_RUNS: u64 = 1_000_000;

/// Extra-P fits a parameter from at least this many values.
pub const MIN_VALUES: usize = 5;

/// The parsed command line: `--design` and `--design-base` assignments.
#[derive(Debug, Clone, Default)]
pub struct DesignRequest {
    /// `PARAM=v1,v2,...`, in command-line order.
    pub values: Vec<(String, Vec<String>)>,
    /// `PARAM=v`.
    pub bases: Vec<(String, String)>,
}

impl DesignRequest {
    /// Parses the arguments of `--design` and `--design-base`.
    pub fn parse(design: &[String], bases: &[String]) -> Result<DesignRequest, String> {
        let mut req = DesignRequest {
            values: parse_value_lists(design, "--design")?,
            ..DesignRequest::default()
        };
        for spec in bases {
            let (name, values) = assignment(spec, "--design-base")?;
            if values.len() != 1 {
                return Err(format!(
                    "--design-base {spec}: give one value (the base value of {name})"
                ));
            }
            if req.bases.iter().any(|(n, _)| *n == name) {
                return Err(format!("--design-base: {name} is given twice"));
            }
            let Some((_, listed)) = req.values.iter().find(|(n, _)| *n == name) else {
                return Err(format!(
                    "--design-base {spec}: {name} is not in --design; list its values there first"
                ));
            };
            if !listed.contains(&values[0]) {
                return Err(format!(
                    "--design-base {spec}: {} is not one of the values of {name} ({})",
                    values[0],
                    listed.join(", ")
                ));
            }
            req.bases.push((name, values[0].clone()));
        }
        Ok(req)
    }
}

/// The arguments of `flag` (`--design`, and `taintprof experiment --grid`): each
/// `PARAM=V1,V2,...`, no parameter twice, no value twice in a list.
pub fn parse_value_lists(
    specs: &[String],
    flag: &str,
) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut lists: Vec<(String, Vec<String>)> = Vec::new();
    for spec in specs {
        let (name, values) = assignment(spec, flag)?;
        if lists.iter().any(|(n, _)| *n == name) {
            return Err(format!("{flag}: {name} is given twice"));
        }
        let mut seen: Vec<&str> = Vec::new();
        for v in &values {
            if seen.contains(&v.as_str()) {
                return Err(format!("{flag} {spec}: value {v} is listed twice"));
            }
            seen.push(v);
        }
        lists.push((name, values));
    }
    Ok(lists)
}

/// `PARAM=v1,v2,...` → (PARAM, values).
fn assignment(spec: &str, flag: &str) -> Result<(String, Vec<String>), String> {
    let Some((name, values)) = spec.split_once('=') else {
        return Err(format!(
            "{flag} takes PARAM=V1,V2,... (e.g. {flag} n=32,64,128); got `{spec}`{}",
            if spec.ends_with(".json") {
                " — put the report file before --design"
            } else {
                ""
            }
        ));
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("{flag} {spec}: no parameter name before `=`"));
    }
    if values.trim().is_empty() {
        return Err(format!("{flag} {spec}: no values after `=`"));
    }
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(format!("{flag} {spec}: empty value in the list"));
    }
    Ok((name.to_string(), values))
}

/// The experiment design.
#[derive(Debug, Clone, Serialize)]
pub struct Design {
    /// The report file.
    pub report: String,
    /// The analysed run's command line.
    pub program: String,
    /// The parameters of the design, in registration order.
    pub parameters: Vec<DesignParam>,
    /// Groups of relevant parameters: coupled (2+) or single (sweep).
    pub groups: Vec<Group>,
    /// Registered parameters some function depends on that the design does not vary.
    pub not_in_design: Vec<NotInDesign>,
    pub runs: Vec<Run>,
    pub run_count: u64,
    /// Runs of the full factorial design (saturating).
    pub full_factorial: u64,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DesignParam {
    pub name: String,
    pub values: Vec<String>,
    pub base: String,
    /// `coupled`, `additive` or `irrelevant`.
    pub role: &'static str,
    /// Index into `groups` (relevant parameters).
    pub group: Option<usize>,
    /// Functions that depend on the parameter (`inclusive_params`).
    pub functions: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Group {
    pub params: Vec<String>,
    /// `coupled` (full grid) or `single` (one-parameter sweep).
    pub kind: &'static str,
    /// Runs this group adds beyond the runs before it.
    pub new_runs: u64,
    /// Why the parameters are coupled: one multiplicative pair per edge.
    pub couplings: Vec<Coupling>,
}

impl Group {
    /// `n × iters` or `algo`.
    pub fn label(&self) -> String {
        self.params.join(" × ")
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Coupling {
    pub a: String,
    pub b: String,
    /// A function whose `pairs` call them multiplicative.
    pub function: String,
    pub file: String,
    pub line: u32,
    /// The term of its volume where both occur.
    pub term: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct NotInDesign {
    pub name: String,
    pub functions: usize,
    /// Design parameters it is multiplicative with.
    pub coupled_with: Vec<String>,
}

/// One run: every design parameter's value (a JSON object in parameter order), and
/// which group it belongs to (`base` for the all-base run).
#[derive(Debug, Clone)]
pub struct Run {
    pub values: Vec<(String, String)>,
    pub varies: String,
}

impl Serialize for Run {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Values<'a>(&'a [(String, String)]);
        impl Serialize for Values<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(self.0.len()))?;
                for (k, v) in self.0 {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("values", &Values(&self.values))?;
        m.serialize_entry("varies", &self.varies)?;
        m.end()
    }
}

/// Whether `f`'s pairs call `a` and `b` multiplicative.
fn multiplies(f: &FunctionSummary, a: &str, b: &str) -> bool {
    f.pairs
        .iter()
        .any(|p| p.kind == "multiplicative" && ((p.a == a && p.b == b) || (p.a == b && p.b == a)))
}

/// The design for the report summarized in `s`.
pub fn design(s: &Summary, req: &DesignRequest) -> Result<Design, String> {
    if s.schema_version < 2 {
        return Err(format!(
            "{}: a version {} report has no parameter pairs; the experiment design needs a version 2 report: rebuild and rerun the program with this taintprof",
            s.report, s.schema_version
        ));
    }
    if req.values.is_empty() {
        return Err("--design needs at least one PARAM=V1,V2,...".to_string());
    }
    for (name, _) in &req.values {
        if !s.parameters.contains(name) {
            if let Some(r) = s.rejected_parameters.iter().find(|r| r.name == *name) {
                return Err(format!(
                    "--design: {name} was not registered in this run ({}); {}",
                    r.reason,
                    registered(&s.parameters)
                ));
            }
            return Err(format!(
                "--design: unknown parameter `{name}`; {}",
                registered(&s.parameters)
            ));
        }
    }

    // Design parameters in registration order.
    let names = order_params(
        &req.values
            .iter()
            .map(|(n, _)| n.clone())
            .collect::<Vec<_>>(),
        &s.parameters,
    );
    // Every name comes from `req.values`, and `assignment` refuses empty lists.
    let values_of = |n: &str| -> &[String] {
        req.values
            .iter()
            .find(|(m, _)| m == n)
            .map(|(_, v)| v.as_slice())
            .unwrap_or(&[])
    };
    let base_of = |n: &str| -> String {
        req.bases
            .iter()
            .find(|(m, _)| m == n)
            .map(|(_, v)| v.clone())
            .or_else(|| values_of(n).first().cloned())
            .unwrap_or_default()
    };
    let depends = |p: &str| {
        s.functions
            .iter()
            .filter(|f| f.inclusive_params.iter().any(|q| q == p))
            .count()
    };
    let relevant: Vec<String> = names.iter().filter(|n| depends(n) > 0).cloned().collect();

    // Connected components of the coupling graph (union-find over `relevant`).
    let mut parent: Vec<usize> = (0..relevant.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..relevant.len() {
        for j in i + 1..relevant.len() {
            if s.functions
                .iter()
                .any(|f| multiplies(f, &relevant[i], &relevant[j]))
            {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                if a != b {
                    parent[b.max(a)] = a.min(b);
                }
            }
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    for (i, name) in relevant.iter().enumerate() {
        let r = find(&mut parent, i);
        match roots.iter().position(|x| *x == r) {
            Some(g) => groups[g].params.push(name.clone()),
            None => {
                roots.push(r);
                groups.push(Group {
                    params: vec![name.clone()],
                    kind: "single",
                    new_runs: 0,
                    couplings: Vec::new(),
                });
            }
        }
    }
    for g in &mut groups {
        if g.params.len() > 1 {
            g.kind = "coupled";
        }
        for i in 0..g.params.len() {
            for j in i + 1..g.params.len() {
                let (a, b) = (&g.params[i], &g.params[j]);
                if let Some(c) = explain(s, a, b) {
                    g.couplings.push(c);
                }
            }
        }
    }

    // Size check before listing anything.
    let mut total: u64 = 1;
    for g in &groups {
        let grid = g
            .params
            .iter()
            .fold(1u64, |acc, p| acc.saturating_mul(values_of(p).len() as u64));
        total = total.saturating_add(grid.saturating_sub(1));
    }
    if total > MAX_RUNS {
        return Err(format!(
            "the design has {total} runs (more than {MAX_RUNS}); use fewer values for the coupled parameters"
        ));
    }
    let full_factorial = names
        .iter()
        .fold(1u64, |acc, p| acc.saturating_mul(values_of(p).len() as u64));

    // The runs: the all-base run, then each group's grid (odometer order, the last
    // parameter fastest) with everything else at base.
    let base: Vec<(String, String)> = names.iter().map(|n| (n.clone(), base_of(n))).collect();
    let mut runs = vec![Run {
        values: base.clone(),
        varies: "base".to_string(),
    }];
    for g in &mut groups {
        let lists: Vec<&[String]> = g.params.iter().map(|p| values_of(p)).collect();
        if lists.iter().any(|l| l.is_empty()) {
            continue;
        }
        let mut idx = vec![0usize; lists.len()];
        let before = runs.len();
        loop {
            let mut values = base.clone();
            for (k, p) in g.params.iter().enumerate() {
                if let Some(slot) = values.iter_mut().find(|(n, _)| n == p) {
                    slot.1 = lists[k][idx[k]].clone();
                }
            }
            if !runs.iter().any(|r| r.values == values) {
                runs.push(Run {
                    values,
                    varies: g.label(),
                });
            }
            // Next combination: the last parameter fastest.
            let mut done = true;
            let mut k = lists.len();
            while k > 0 {
                k -= 1;
                idx[k] += 1;
                if idx[k] < lists[k].len() {
                    done = false;
                    break;
                }
                idx[k] = 0;
            }
            if done {
                break;
            }
        }
        g.new_runs = (runs.len() - before) as u64;
    }

    let parameters: Vec<DesignParam> = names
        .iter()
        .map(|n| {
            let group = groups.iter().position(|g| g.params.contains(n));
            DesignParam {
                name: n.clone(),
                values: values_of(n).to_vec(),
                base: base_of(n),
                role: match group {
                    None => "irrelevant",
                    Some(g) if groups[g].kind == "coupled" => "coupled",
                    Some(_) => "additive",
                },
                group,
                functions: depends(n),
            }
        })
        .collect();

    let not_in_design: Vec<NotInDesign> = s
        .parameters
        .iter()
        .filter(|p| !names.contains(p) && depends(p) > 0)
        .map(|p| NotInDesign {
            name: p.clone(),
            functions: depends(p),
            coupled_with: names
                .iter()
                .filter(|n| s.functions.iter().any(|f| multiplies(f, p, n)))
                .cloned()
                .collect(),
        })
        .collect();

    // Notes.
    let files = &Files::new(s);
    let mut notes = Vec::new();
    if !s.complete {
        notes.push(format!(
            "the analysed run did not finish ({}): dependencies of code it had not reached are missing",
            s.exit.description
        ));
    }
    for p in &names {
        // Parameter-dependent branches with a side this run never took: other values
        // may run code the analysis never saw.
        let sites: Vec<String> = s
            .never_executed
            .branches
            .iter()
            .filter(|b| b.branch.params.contains(p))
            .map(|b| {
                format!(
                    "{} in {}",
                    location(files, &b.file, b.branch.line),
                    b.function
                )
            })
            .collect();
        if sites.is_empty() {
            continue;
        }
        let shown: Vec<String> = sites.iter().take(3).cloned().collect();
        let more = if sites.len() > 3 {
            format!(" and {} more", sites.len() - 3)
        } else {
            String::new()
        };
        notes.push(format!(
            "{p} decides branches with a side this run never took ({}{more}): other values of {p} may run code the analysis has not seen; check that every run takes the same path, or model each path separately",
            shown.join(", ")
        ));
    }
    for d in &parameters {
        if d.role != "irrelevant" && d.values.len() < MIN_VALUES {
            notes.push(format!(
                "Extra-P fits a parameter from at least {MIN_VALUES} values (Perf-Taint used 5); {} has {}",
                d.name,
                d.values.len()
            ));
        }
        if d.role == "irrelevant" && d.values.len() > 1 {
            notes.push(format!(
                "{} is irrelevant: its other values ({}) are not run",
                d.name,
                d.values
                    .iter()
                    .filter(|v| **v != d.base)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    for n in &not_in_design {
        notes.push(format!(
            "{} is not in the design but {} {} on it{}: every run keeps the program's value",
            n.name,
            n.functions,
            if n.functions == 1 {
                "function depends"
            } else {
                "functions depend"
            },
            if n.coupled_with.is_empty() {
                String::new()
            } else {
                format!(" (multiplicative with {})", n.coupled_with.join(", "))
            }
        ));
    }

    let program = if s.program.argv.is_empty() {
        s.program.name.clone()
    } else {
        s.program.argv.join(" ")
    };
    Ok(Design {
        report: s.report.clone(),
        program,
        parameters,
        groups,
        not_in_design,
        run_count: runs.len() as u64,
        runs,
        full_factorial,
        notes,
    })
}

/// A function that couples `a` and `b`, and the term of its volume where they meet:
/// preferably one whose own loops couple them, then one whose volume shows the term,
/// then the one depending on the fewest parameters.
fn explain(s: &Summary, a: &str, b: &str) -> Option<Coupling> {
    let mut best: Option<((bool, bool, usize), Coupling)> = None;
    for f in s.functions.iter().filter(|f| multiplies(f, a, b)) {
        let own = coupling_term_of(
            f.exclusive_volume_terms.as_deref(),
            f.exclusive_volume.as_deref(),
            a,
            b,
        );
        let incl = coupling_term_of(f.volume_terms.as_deref(), f.volume.as_deref(), a, b);
        let rank = (own.is_none(), incl.is_none(), f.inclusive_params.len());
        if best.as_ref().map_or(true, |(r, _)| rank < *r) {
            best = Some((
                rank,
                Coupling {
                    a: a.to_string(),
                    b: b.to_string(),
                    function: f.name.clone(),
                    file: f.file.clone(),
                    line: f.line,
                    term: own.or(incl),
                },
            ));
        }
    }
    best.map(|(_, c)| c)
}

fn numeric(values: &[&str]) -> bool {
    values.iter().all(|v| v.parse::<f64>().is_ok())
}

/// The design as text.
pub fn render(d: &Design, s: &Summary) -> String {
    let files = Files::new(s);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Experiment design for {} (from {})",
        d.program, d.report
    );
    out.push('\n');

    out.push_str("Parameters\n");
    let mut t = Table::new(&[Align::Left, Align::Left, Align::Left, Align::Left])
        .header(["", "values", "base", "role"]);
    for p in &d.parameters {
        let role = match (p.role, p.group) {
            ("coupled", Some(g)) => {
                let others: Vec<&str> = d.groups[g]
                    .params
                    .iter()
                    .filter(|q| **q != p.name)
                    .map(String::as_str)
                    .collect();
                format!("coupled with {}: full grid", others.join(", "))
            }
            ("additive", _) => "additive: one-parameter sweep".to_string(),
            _ => "irrelevant: no function depends on it; held at base".to_string(),
        };
        t.row([p.name.clone(), p.values.join(", "), p.base.clone(), role]);
    }
    out.push_str(&t.render("  "));
    out.push_str("  base: the value held while other parameters vary (the first listed; --design-base PARAM=V)\n");

    let coupled: Vec<&Group> = d.groups.iter().filter(|g| g.kind == "coupled").collect();
    let single: Vec<&Group> = d.groups.iter().filter(|g| g.kind == "single").collect();
    if !coupled.is_empty() || !single.is_empty() {
        out.push_str("\nWhy (from the report's pairs)\n");
        let mut t = Table::new(&[Align::Left, Align::Left]);
        for g in &coupled {
            for c in &g.couplings {
                let mut why = format!(
                    "multiplicative in {} ({})",
                    c.function,
                    location(&files, &c.file, c.line)
                );
                if let Some(term) = &c.term {
                    let _ = write!(why, ": volume term {term}");
                }
                t.row([format!("{} × {}", c.a, c.b), why]);
            }
        }
        for g in &single {
            t.row([
                g.params[0].clone(),
                if d.groups.len() > 1 {
                    "never multiplicative with another design parameter: additive".to_string()
                } else {
                    "the only relevant design parameter".to_string()
                },
            ]);
        }
        out.push_str(&t.render("  "));
    }

    let _ = writeln!(out, "\nRuns ({})", d.run_count);
    let cols: Vec<&DesignParam> = d.parameters.iter().collect();
    let mut aligns = vec![Align::Right];
    for (i, _) in cols.iter().enumerate() {
        let vals: Vec<&str> = d.runs.iter().map(|r| r.values[i].1.as_str()).collect();
        aligns.push(if numeric(&vals) {
            Align::Right
        } else {
            Align::Left
        });
    }
    aligns.push(Align::Left);
    let mut head = vec!["run".to_string()];
    head.extend(cols.iter().map(|p| p.name.clone()));
    head.push("varies".to_string());
    let mut t = Table::new(&aligns).header(head);
    for (i, r) in d.runs.iter().enumerate() {
        let mut row = vec![(i + 1).to_string()];
        row.extend(r.values.iter().map(|(_, v)| v.clone()));
        row.push(r.varies.clone());
        t.row(row);
    }
    out.push_str(&t.render("  "));

    let sizes: Vec<String> = d
        .parameters
        .iter()
        .map(|p| p.values.len().to_string())
        .collect();
    let _ = writeln!(
        out,
        "\n{} {} instead of {} for the full factorial ({})",
        d.run_count,
        if d.run_count == 1 { "run" } else { "runs" },
        d.full_factorial,
        sizes.join(" × ")
    );
    if !d.notes.is_empty() {
        out.push_str("\nNotes\n");
        for n in &d.notes {
            let _ = writeln!(out, "  - {n}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{parse, summary::summarize};

    const V2: &str = include_str!("../../tests/fixtures/solver.4711.taintprof.json");

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn req(design: &[&str], bases: &[&str]) -> DesignRequest {
        DesignRequest::parse(&strings(design), &strings(bases)).unwrap()
    }

    /// `(a, b, kind)`.
    type TestPair<'a> = (&'a str, &'a str, &'a str);
    /// `(name, inclusive params, volume, pairs)`.
    type TestFunction<'a> = (&'a str, &'a [&'a str], &'a str, &'a [TestPair<'a>]);

    /// A report with parameters `params` and one function per [`TestFunction`].
    fn report(params: &[&str], functions: &[TestFunction]) -> Summary {
        let fs: Vec<serde_json::Value> = functions
            .iter()
            .enumerate()
            .map(|(i, (name, inc, vol, pairs))| {
                serde_json::json!({
                    "name": name, "linkage": name, "file": "/p/app.c", "line": 10 * (i + 1),
                    "executed": true, "inclusive_params": inc, "exclusive_params": inc,
                    "volume": vol, "exclusive_volume": vol,
                    "pairs": pairs.iter().map(|(a, b, k)| serde_json::json!({"a": a, "b": b, "kind": k})).collect::<Vec<_>>(),
                })
            })
            .collect();
        let v = serde_json::json!({
            "schema": "taintprof.taint", "version": 2, "parameters": params,
            "program": {"name": "app", "argv": ["./app"]}, "exit": {"reason": "exit", "code": 0},
            "functions": fs,
        });
        summarize(
            &parse(&crate::report::complete(v)).unwrap(),
            "app.1.taintprof.json",
        )
    }

    fn run_values(d: &Design) -> Vec<Vec<&str>> {
        d.runs
            .iter()
            .map(|r| r.values.iter().map(|(_, v)| v.as_str()).collect())
            .collect()
    }

    #[test]
    fn coupled_pair_gets_the_full_grid() {
        let s = report(
            &["m", "n"],
            &[("mm", &["m", "n"], "m*n", &[("m", "n", "multiplicative")])],
        );
        let d = design(&s, &req(&["n=1,2,3", "m=10,20"], &[])).unwrap();
        assert_eq!(d.groups.len(), 1);
        assert_eq!(d.groups[0].kind, "coupled");
        assert_eq!(d.run_count, 6);
        assert_eq!(d.full_factorial, 6);
        // Registration order (m before n), odometer order, base first.
        assert_eq!(
            run_values(&d),
            vec![
                vec!["10", "1"],
                vec!["10", "2"],
                vec!["10", "3"],
                vec!["20", "1"],
                vec!["20", "2"],
                vec!["20", "3"],
            ]
        );
        let c = &d.groups[0].couplings[0];
        assert_eq!(
            (c.function.as_str(), c.term.as_deref()),
            ("mm", Some("m*n"))
        );
    }

    #[test]
    fn additive_parameters_get_sweeps() {
        let s = report(
            &["a", "b", "c"],
            &[(
                "f",
                &["a", "b", "c"],
                "a + b + c",
                &[
                    ("a", "b", "additive"),
                    ("a", "c", "additive"),
                    ("b", "c", "additive"),
                ],
            )],
        );
        let d = design(
            &s,
            &req(&["a=1,2,3,4,5", "b=1,2,3,4,5", "c=7,8,9,10,11"], &["b=3"]),
        )
        .unwrap();
        assert!(d.groups.iter().all(|g| g.kind == "single"));
        // 1 base + 4 + 4 + 4 instead of 125.
        assert_eq!(d.run_count, 13);
        assert_eq!(d.full_factorial, 125);
        assert_eq!(run_values(&d)[0], vec!["1", "3", "7"]);
        assert_eq!(run_values(&d)[1], vec!["2", "3", "7"]);
        assert!(d.runs.iter().all(|r| {
            let differ = r
                .values
                .iter()
                .zip(&d.runs[0].values)
                .filter(|(x, y)| x != y)
                .count();
            differ <= 1
        }));
        assert!(d.notes.is_empty(), "{:?}", d.notes);
    }

    #[test]
    fn mixed_coupling_irrelevant_and_missing_parameters() {
        let s = report(
            &["p", "size", "iters", "debug", "k"],
            &[
                (
                    "kernel",
                    &["p", "size"],
                    "p*size^3",
                    &[("p", "size", "multiplicative")],
                ),
                ("io", &["iters"], "iters", &[]),
                (
                    "other",
                    &["size", "k"],
                    "size*k",
                    &[("size", "k", "multiplicative")],
                ),
                (
                    "main",
                    &["p", "size", "iters", "k"],
                    "p*size^3 + size*k + iters",
                    &[
                        ("p", "size", "multiplicative"),
                        ("p", "iters", "additive"),
                        ("size", "iters", "additive"),
                        ("size", "k", "multiplicative"),
                    ],
                ),
            ],
        );
        let d = design(
            &s,
            &req(&["iters=1,2", "size=5,6,7", "p=1,8", "debug=0,1"], &[]),
        )
        .unwrap();
        let roles: Vec<(&str, &str)> = d
            .parameters
            .iter()
            .map(|p| (p.name.as_str(), p.role))
            .collect();
        assert_eq!(
            roles,
            vec![
                ("p", "coupled"),
                ("size", "coupled"),
                ("iters", "additive"),
                ("debug", "irrelevant")
            ]
        );
        // p × size grid (6) + iters sweep (1 more); debug held at 0.
        assert_eq!(d.run_count, 7);
        assert_eq!(d.full_factorial, 24);
        assert!(d.runs.iter().all(|r| r.values[3].1 == "0"));
        // The coupling is explained by the function whose own loops couple them.
        assert_eq!(d.groups[0].couplings[0].function, "kernel");
        assert_eq!(d.groups[0].couplings[0].term.as_deref(), Some("p*size^3"));
        assert_eq!(d.not_in_design.len(), 1);
        assert_eq!(d.not_in_design[0].coupled_with, ["size"]);
        let notes = d.notes.join("\n");
        assert!(
            notes.contains("debug is irrelevant: its other values (1) are not run"),
            "{notes}"
        );
        assert!(
            notes.contains(
                "k is not in the design but 2 functions depend on it (multiplicative with size)"
            ),
            "{notes}"
        );
        assert!(
            notes.contains("Extra-P fits a parameter from at least 5 values"),
            "{notes}"
        );
    }

    #[test]
    fn transitive_coupling_makes_one_group() {
        let s = report(
            &["a", "b", "c"],
            &[
                ("f", &["a", "b"], "a*b", &[("a", "b", "multiplicative")]),
                ("g", &["b", "c"], "(b,c)", &[("b", "c", "multiplicative")]),
            ],
        );
        let d = design(&s, &req(&["a=1,2", "b=1,2", "c=1,2"], &[])).unwrap();
        assert_eq!(d.groups.len(), 1);
        assert_eq!(d.run_count, 8);
        assert_eq!(d.groups[0].couplings.len(), 2);
        assert_eq!(d.groups[0].couplings[1].term.as_deref(), Some("(b,c)"));
    }

    #[test]
    fn the_coupling_term_comes_from_the_volume_terms() {
        // A report with `volume_terms`: they name the term; the display strings (here
        // replaced by text no parser would read) are not looked at.
        let f = |name: &str, own: serde_json::Value, incl: serde_json::Value| {
            serde_json::json!({
                "name": name, "linkage": name, "file": "/p/app.c", "line": 10,
                "executed": true, "inclusive_params": ["m", "n", "k"],
                "exclusive_params": ["m", "n", "k"],
                "volume": "?", "volume_terms": incl,
                "exclusive_volume": "?", "exclusive_volume_terms": own,
                "pairs": [{"a": "m", "b": "n", "kind": "multiplicative"},
                          {"a": "n", "b": "k", "kind": "multiplicative"}],
            })
        };
        let n2k = serde_json::json!([
            [{"params": ["n"], "power": 2}, {"params": ["k"], "power": 1}],
            [{"params": ["m", "n"], "power": 1}],
        ]);
        let v = serde_json::json!({
            "schema": "taintprof.taint", "version": 4, "parameters": ["m", "n", "k"],
            "program": {"name": "app", "argv": ["./app"]}, "exit": {"reason": "exit", "code": 0},
            "functions": [f("solve", serde_json::json!([[]]), n2k)],
        });
        let s = summarize(
            &parse(&crate::report::complete(v)).unwrap(),
            "app.1.taintprof.json",
        );
        let d = design(&s, &req(&["m=1,2", "n=1,2", "k=1,2"], &[])).unwrap();
        let terms: Vec<(&str, &str, Option<&str>)> = d.groups[0]
            .couplings
            .iter()
            .map(|c| (c.a.as_str(), c.b.as_str(), c.term.as_deref()))
            .collect();
        assert_eq!(
            terms,
            [("m", "n", Some("(m,n)")), ("n", "k", Some("n^2*k"))]
        );
    }

    #[test]
    fn fixture_design_text() {
        let s = summarize(&parse(V2).unwrap(), "solver.4711.taintprof.json");
        let d = design(
            &s,
            &req(
                &["n=32,64,128,256,512", "iters=10,20,40,80,160", "algo=0,1"],
                &[],
            ),
        )
        .unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/solver.design.txt");
        let got = render(&d, &s);
        if std::env::var_os("TAINTPROF_BLESS").is_some() {
            std::fs::write(&path, &got).unwrap();
        }
        assert_eq!(
            got,
            std::fs::read_to_string(&path).unwrap_or_default(),
            "\n{got}"
        );
        assert_eq!(d.run_count, 26);
        assert_eq!(d.full_factorial, 50);
    }

    #[test]
    fn json_runs_keep_parameter_order() {
        let s = report(
            &["z", "a"],
            &[("f", &["z", "a"], "z*a", &[("z", "a", "multiplicative")])],
        );
        let d = design(&s, &req(&["a=1", "z=2"], &[])).unwrap();
        let j = serde_json::to_string(&d.runs[0]).unwrap();
        assert_eq!(j, r#"{"values":{"z":"2","a":"1"},"varies":"base"}"#);
    }

    #[test]
    fn errors_are_clear() {
        let s = summarize(&parse(V2).unwrap(), "solver.4711.taintprof.json");
        let e = |design: &[&str], bases: &[&str]| -> String {
            match DesignRequest::parse(&strings(design), &strings(bases)) {
                Err(e) => e,
                Ok(r) => self::design(&s, &r).unwrap_err(),
            }
        };
        assert_eq!(
            e(&["x=1,2"], &[]),
            "--design: unknown parameter `x`; the report registers: n, iters, algo"
        );
        assert!(e(&["n"], &[]).contains("--design takes PARAM=V1,V2,..."));
        assert!(
            e(&["solver.4711.taintprof.json"], &[]).contains("put the report file before --design")
        );
        assert!(e(&["n="], &[]).contains("no values after `=`"));
        assert!(e(&["n=1,,2"], &[]).contains("empty value"));
        assert!(e(&["=1"], &[]).contains("no parameter name"));
        assert!(e(&["n=1,2,1"], &[]).contains("value 1 is listed twice"));
        assert!(e(&["n=1", "n=2"], &[]).contains("n is given twice"));
        assert!(e(&["n=1,2"], &["iters=3"]).contains("iters is not in --design"));
        assert!(e(&["n=1,2"], &["n=3"]).contains("3 is not one of the values of n (1, 2)"));
        assert!(e(&["n=1,2"], &["n=1,2"]).contains("give one value"));

        let v1 = summarize(
            &parse(include_str!(
                "../../tests/fixtures/matmul.4242.taintprof.json"
            ))
            .unwrap(),
            "m.json",
        );
        let err = design(&v1, &req(&["m=1,2"], &[])).unwrap_err();
        assert!(
            err.contains("version 1 report has no parameter pairs"),
            "{err}"
        );

        let mut big = s.clone();
        big.functions[0].pairs.clear();
        let many: Vec<String> = (0..1001).map(|i| i.to_string()).collect();
        let r = DesignRequest::parse(
            &[
                format!("n={}", many.join(",")),
                format!("iters={}", many.join(",")),
            ],
            &[],
        )
        .unwrap();
        assert!(design(&s, &r).unwrap_err().contains("more than 1000000"));
    }

    #[test]
    fn rejected_parameters_are_named_as_such() {
        let r = parse(&crate::report::complete(serde_json::from_str(r#"{"schema":"taintprof.taint","version":2,"parameters":["a"],
                "rejected_parameters":[{"name":"p17","reason":"at most 16 parameters can be registered"}],
                "functions":[]}"#).unwrap()))
        .unwrap();
        let s = summarize(&r, "x.json");
        let e = design(&s, &req(&["p17=1,2"], &[])).unwrap_err();
        assert!(
            e.contains(
                "p17 was not registered in this run (at most 16 parameters can be registered)"
            ),
            "{e}"
        );
    }
}
