//! Matching measured call paths to the taint report's functions and contexts, and the
//! taint prior (`taintprof_fit::Prior`) each metric gets from the match.
//!
//! A measured call path (`main->init->fill`) matches the contexts of the report whose
//! `callpath` is the same string (`matched_by: "callpath"`; one per call site, their
//! volumes' terms joined); the root (`main`, a
//! function with a context of an empty path) matches that context with its function's
//! volume, and so does the report's program name (the call path of a program's wall
//! time in `taintprof experiment`). Otherwise the call path's last element matches a function by `name` or
//! `linkage`, a C++ name also without its parameter list (`ns::f(int)` matches `ns::f`),
//! and the prior is the union of the terms of every context of that function
//! (`matched_by: "name"`). Without a match the series is modeled as a black box.
//!
//! The prior of metric `visits` is the context's `calls_volume_terms` (how often the
//! context is entered); of `iterations` (time mode counts the loops of the path's own
//! function) the calls volume times the function's `exclusive_volume_terms`; of `time`
//! and any other metric its `total_volume_terms` (calls × the per-call volume: what a
//! measured call path sums).
//! Parameters of the prior that the measurements do not have were held fixed by the
//! experiment: they are dropped from the prior (and named).

use serde_json::Value;
use taintprof_fit::Prior;

/// A volume's terms: each a list of factors `(parameters, power)`; `[[]]` is 1.
pub type Terms = Vec<Vec<(Vec<String>, u32)>>;

/// One calling context of a function in the report.
#[derive(Clone, Debug, Default)]
pub struct Context {
    pub callpath: Option<String>,
    /// The frames' function names (`path[].function`).
    pub path: Vec<String>,
    pub inclusive_params: Vec<String>,
    pub calls: Option<Terms>,
    pub total: Option<Terms>,
}

/// A branch whose condition depends on parameters.
#[derive(Clone, Debug)]
pub struct Branch {
    pub line: u64,
    pub params: Vec<String>,
}

/// One function of the report.
#[derive(Clone, Debug, Default)]
pub struct Function {
    pub name: String,
    pub linkage: String,
    pub constant: bool,
    pub inclusive_params: Vec<String>,
    pub volume: Terms,
    /// `exclusive_volume_terms`: the function's own loops, per call.
    pub exclusive: Terms,
    pub contexts: Vec<Context>,
    pub branches: Vec<Branch>,
}

/// The parts of a taint report (`taintprof.taint`) the modeler uses.
#[derive(Clone, Debug, Default)]
pub struct TaintReport {
    pub functions: Vec<Function>,
    /// `program.name`: the call path `taintprof experiment` gives a program's wall time.
    pub program: String,
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Terms from JSON (`[[{"params": ["n"], "power": 2}, ...], ...]`).
pub fn terms_of(v: &Value) -> Option<Terms> {
    let terms = v.as_array()?;
    terms
        .iter()
        .map(|t| {
            t.as_array()?
                .iter()
                .map(|f| {
                    let params = strings(f.get("params")?);
                    let power = u32::try_from(f.get("power")?.as_u64()?).ok()?;
                    Some((params, power))
                })
                .collect::<Option<Vec<_>>>()
        })
        .collect()
}

impl TaintReport {
    /// Reads the report JSON `text`.
    pub fn parse(text: &str) -> Result<TaintReport, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let functions = doc
            .get("functions")
            .and_then(Value::as_array)
            .ok_or("no `functions` list: not a taint report (taintprof.taint)")?;
        let mut out = Vec::new();
        for f in functions {
            let s = |k: &str| f.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let contexts = f
                .get("contexts")
                .and_then(Value::as_array)
                .map(|cs| {
                    cs.iter()
                        .map(|c| Context {
                            callpath: c.get("callpath").and_then(Value::as_str).map(String::from),
                            path: c
                                .get("path")
                                .and_then(Value::as_array)
                                .map(|p| {
                                    p.iter()
                                        .filter_map(|fr| {
                                            fr.get("function")
                                                .and_then(Value::as_str)
                                                .map(String::from)
                                        })
                                        .collect()
                                })
                                .unwrap_or_default(),
                            inclusive_params: strings(
                                c.get("inclusive_params").unwrap_or(&Value::Null),
                            ),
                            calls: c.get("calls_volume_terms").and_then(terms_of),
                            total: c.get("total_volume_terms").and_then(terms_of),
                        })
                        .collect()
                })
                .unwrap_or_default();
            let branches = f
                .get("branches")
                .and_then(Value::as_array)
                .map(|bs| {
                    bs.iter()
                        .map(|b| Branch {
                            line: b.get("line").and_then(Value::as_u64).unwrap_or(0),
                            params: strings(b.get("params").unwrap_or(&Value::Null)),
                        })
                        .filter(|b| !b.params.is_empty())
                        .collect()
                })
                .unwrap_or_default();
            out.push(Function {
                name: s("name"),
                linkage: s("linkage"),
                constant: f.get("constant").and_then(Value::as_bool).unwrap_or(false),
                inclusive_params: strings(f.get("inclusive_params").unwrap_or(&Value::Null)),
                volume: f.get("volume_terms").and_then(terms_of).unwrap_or_default(),
                exclusive: f
                    .get("exclusive_volume_terms")
                    .and_then(terms_of)
                    .unwrap_or_default(),
                contexts,
                branches,
            });
        }
        let program = doc
            .pointer("/program/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        Ok(TaintReport {
            functions: out,
            program,
        })
    }

    /// Reads the report at `path`.
    pub fn load(path: &std::path::Path) -> Result<TaintReport, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        TaintReport::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// A C++ name without its parameter list and qualifiers: `ns::f(int) const` is `ns::f`.
pub fn without_args(name: &str) -> &str {
    let mut s = name.trim_end();
    for q in [" const", " volatile", " &&", " &"] {
        if let Some(r) = s.strip_suffix(q) {
            s = r.trim_end();
        }
    }
    if !s.ends_with(')') {
        return name;
    }
    let mut depth = 0i32;
    for (i, c) in s.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return s[..i].trim_end();
                }
            }
            _ => {}
        }
    }
    name
}

/// How a call path matched.
#[derive(Clone, Debug)]
pub struct Match<'a> {
    /// `"callpath"` or `"name"`.
    pub by: &'static str,
    pub function: &'a Function,
    /// The calls volume (`None`: the report has none).
    pub calls: Option<Terms>,
    /// The total volume (`None`: the report has none).
    pub total: Option<Terms>,
    pub inclusive_params: Vec<String>,
}

fn normalized(t: &[(Vec<String>, u32)]) -> Vec<(Vec<String>, u32)> {
    let mut t: Vec<(Vec<String>, u32)> = t
        .iter()
        .map(|(ps, k)| {
            let mut ps = ps.clone();
            ps.sort();
            (ps, *k)
        })
        .collect();
    t.sort();
    t
}

/// The union of several volumes' terms (equal terms once, in their first order).
fn union(all: impl Iterator<Item = Terms>) -> Terms {
    let mut out: Terms = Vec::new();
    let mut seen = Vec::new();
    for terms in all {
        for t in terms {
            let key = normalized(&t);
            if !seen.contains(&key) {
                seen.push(key);
                out.push(t);
            }
        }
    }
    out
}

fn push_unique(v: &mut Vec<String>, items: &[String]) {
    for i in items {
        if !v.contains(i) {
            v.push(i.clone());
        }
    }
}

/// The match of the measured `callpath` (see the module comment).
pub fn find<'a>(report: &'a TaintReport, callpath: &str) -> Option<Match<'a>> {
    // Every context with this call path: one per call site (`init` called twice from
    // `main` is two contexts `main->init`), and the measured call path sums them all.
    for f in &report.functions {
        let same: Vec<&Context> = f
            .contexts
            .iter()
            .filter(|c| c.callpath.as_deref() == Some(callpath))
            .collect();
        if same.is_empty() {
            continue;
        }
        let root = same.iter().all(|c| c.path.is_empty());
        let joined = |get: &dyn Fn(&Context) -> Option<Terms>| -> Option<Terms> {
            let v: Option<Vec<Terms>> = same.iter().map(|c| get(c)).collect();
            v.map(|v| union(v.into_iter()))
        };
        let mut inclusive = Vec::new();
        for c in &same {
            push_unique(&mut inclusive, &c.inclusive_params);
        }
        return Some(Match {
            by: "callpath",
            function: f,
            calls: joined(&|c| c.calls.clone()).or_else(|| root.then(|| vec![vec![]])),
            total: joined(&|c| c.total.clone()).or_else(|| root.then(|| f.volume.clone())),
            inclusive_params: inclusive,
        });
    }
    let parts: Vec<&str> = callpath.split("->").map(str::trim).collect();
    let mut last = *parts.last()?;
    // A program's wall time (`taintprof experiment` without time records names it
    // after the program): the whole run, main's root context.
    if parts.len() == 1 && !report.program.is_empty() && last == report.program {
        last = "main";
    }
    // The root: a call path of one function that has a context of an empty path.
    if parts.len() == 1 {
        if let Some(f) = report.functions.iter().find(|f| {
            (f.name == last || f.linkage == last) && f.contexts.iter().any(|c| c.path.is_empty())
        }) {
            let c = f
                .contexts
                .iter()
                .find(|c| c.path.is_empty())
                .expect("found");
            return Some(Match {
                by: "callpath",
                function: f,
                calls: Some(c.calls.clone().unwrap_or_else(|| vec![vec![]])),
                total: Some(c.total.clone().unwrap_or_else(|| f.volume.clone())),
                inclusive_params: f.inclusive_params.clone(),
            });
        }
    }
    let f = report
        .functions
        .iter()
        .find(|f| f.name == last || f.linkage == last)
        .or_else(|| {
            let bare = without_args(last);
            report
                .functions
                .iter()
                .find(|f| without_args(&f.name) == bare)
        })?;
    let all = |get: fn(&Context) -> Option<Terms>| -> Option<Terms> {
        let v: Option<Vec<Terms>> = f.contexts.iter().map(get).collect();
        v.filter(|v| !v.is_empty()).map(|v| union(v.into_iter()))
    };
    let mut inclusive = f.inclusive_params.clone();
    for c in &f.contexts {
        push_unique(&mut inclusive, &c.inclusive_params);
    }
    Some(Match {
        by: "name",
        function: f,
        calls: all(|c| c.calls.clone()),
        total: all(|c| c.total.clone()),
        inclusive_params: inclusive,
    })
}

/// The product of two volumes (each a sum of terms; `[[]]` or `[]` is 1): every pair of
/// terms multiplied, equal factors' powers added.
fn times(a: &Terms, b: &Terms) -> Terms {
    let one: Terms = vec![vec![]];
    let a = if a.is_empty() { &one } else { a };
    let b = if b.is_empty() { &one } else { b };
    let mut out: Vec<Vec<(Vec<String>, u32)>> = Vec::new();
    for x in a {
        for y in b {
            let mut t: Vec<(Vec<String>, u32)> = normalized(x);
            for (ps, k) in normalized(y) {
                match t.iter_mut().find(|(q, _)| *q == ps) {
                    Some((_, e)) => *e += k,
                    None => t.push((ps, k)),
                }
            }
            out.push(normalized(&t));
        }
    }
    union(std::iter::once(out))
}

/// The prior of `metric` from a match, over the `measured` parameters, with the
/// parameters held fixed (in the prior, not measured). `None`: the report has no volume
/// for this metric.
pub fn prior_for(m: &Match, metric: &str, measured: &[String]) -> Option<(Prior, Vec<String>)> {
    let visits = metric == "visits";
    let terms = if visits {
        m.calls.clone()?
    } else if metric == "iterations" {
        // A call path's own loops only (time mode counts the loops of the path's last
        // function): calls x the function's exclusive volume.
        times(m.calls.as_ref()?, &m.function.exclusive)
    } else {
        m.total.clone()?
    };
    let mut params: Vec<String> = Vec::new();
    for t in &terms {
        for (ps, _) in t {
            push_unique(&mut params, ps);
        }
    }
    if !visits && metric != "iterations" {
        push_unique(&mut params, &m.inclusive_params);
    }
    let held: Vec<String> = params
        .iter()
        .filter(|p| !measured.contains(p))
        .cloned()
        .collect();
    params.retain(|p| measured.contains(p));
    let kept: Terms = union(std::iter::once(
        terms
            .iter()
            .map(|t| {
                t.iter()
                    .filter_map(|(ps, k)| {
                        let ps: Vec<String> = ps
                            .iter()
                            .filter(|p| measured.contains(p))
                            .cloned()
                            .collect();
                        (!ps.is_empty()).then_some((ps, *k))
                    })
                    .collect()
            })
            .collect(),
    ));
    let volume_terms: Terms = kept.into_iter().filter(|t| !t.is_empty()).collect();
    let constant = volume_terms.is_empty() && params.is_empty();
    Some((
        Prior {
            params,
            constant,
            volume_terms,
        },
        held,
    ))
}

/// A volume as text: `n^2*steps + probes`; `1` for a constant.
pub fn volume_text(terms: &Terms) -> String {
    let shown: Vec<String> = terms
        .iter()
        .map(|t| {
            if t.is_empty() {
                return "1".to_string();
            }
            t.iter()
                .map(|(ps, k)| {
                    let base = if ps.len() == 1 {
                        ps[0].clone()
                    } else {
                        format!("({})", ps.join(","))
                    };
                    if *k == 1 {
                        base
                    } else {
                        format!("{base}^{k}")
                    }
                })
                .collect::<Vec<_>>()
                .join("*")
        })
        .collect();
    if shown.is_empty() {
        "1".into()
    } else {
        shown.join(" + ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = r#"{"program": {"name": "app"}, "functions": [
      {"name": "main", "linkage": "main", "constant": false, "inclusive_params": ["n", "q"],
       "volume_terms": [[{"params": ["n"], "power": 1}], [{"params": ["q"], "power": 1}]],
       "contexts": [{"path": [], "inclusive_params": ["n", "q"]}], "branches": []},
      {"name": "ns::work(int)", "linkage": "_ZN2ns4workEi", "constant": false,
       "inclusive_params": ["n"], "volume_terms": [[{"params": ["n"], "power": 2}]],
       "exclusive_volume_terms": [[{"params": ["n"], "power": 1}]],
       "contexts": [
         {"callpath": "main->ns::work(int)", "path": [{"function": "main"}], "inclusive_params": ["n"],
          "calls_volume_terms": [[{"params": ["q"], "power": 1}]],
          "total_volume_terms": [[{"params": ["n"], "power": 2}, {"params": ["q"], "power": 1}]]},
         {"callpath": "main->g->ns::work(int)", "path": [{"function": "main"}, {"function": "g"}],
          "inclusive_params": ["n"], "calls_volume_terms": [[]],
          "total_volume_terms": [[{"params": ["n"], "power": 2}]]}],
       "branches": [{"line": 7, "params": ["n"]}, {"line": 8, "params": []}]}]}"#;

    #[test]
    fn names_without_arguments() {
        assert_eq!(without_args("ns::f(int)"), "ns::f");
        assert_eq!(without_args("ns::f(std::pair<int, int>) const"), "ns::f");
        assert_eq!(without_args("A::operator()(int)"), "A::operator()");
        assert_eq!(without_args("f"), "f");
    }

    #[test]
    fn callpath_name_and_root_matches() {
        let r = TaintReport::parse(REPORT).unwrap();
        assert_eq!(r.functions[1].branches.len(), 1);
        let m = find(&r, "main->ns::work(int)").unwrap();
        assert_eq!(m.by, "callpath");
        let measured = vec!["n".to_string(), "q".to_string()];
        let (p, held) = prior_for(&m, "time", &measured).unwrap();
        assert_eq!(volume_text(&p.volume_terms), "n^2*q");
        assert!(held.is_empty() && !p.constant);
        let (p, _) = prior_for(&m, "visits", &measured).unwrap();
        assert_eq!(volume_text(&p.volume_terms), "q");
        assert_eq!(p.params, vec!["q"]);
        // Loop counts are the function's own loops: calls x its exclusive volume.
        let (p, _) = prior_for(&m, "iterations", &measured).unwrap();
        assert_eq!(volume_text(&p.volume_terms), "n*q");
        assert_eq!(p.params, vec!["n", "q"]);

        // By name, also without the argument list: the union of the contexts.
        let m = find(&r, "main->h->ns::work").unwrap();
        assert_eq!(m.by, "name");
        let (p, _) = prior_for(&m, "time", &measured).unwrap();
        assert_eq!(volume_text(&p.volume_terms), "n^2*q + n^2");

        // The program's wall time is the root's.
        let m = find(&r, "app").unwrap();
        assert_eq!((m.by, m.function.name.as_str()), ("callpath", "main"));
        assert!(find(&r, "other").is_none());

        // The root uses main's volume; q held fixed is dropped and named.
        let m = find(&r, "main").unwrap();
        assert_eq!(m.by, "callpath");
        let (p, held) = prior_for(&m, "time", &["n".to_string()]).unwrap();
        assert_eq!(volume_text(&p.volume_terms), "n");
        assert_eq!(held, vec!["q"]);
        assert_eq!(p.params, vec!["n"]);
        let (p, _) = prior_for(&m, "visits", &["n".to_string()]).unwrap();
        assert!(p.constant);

        assert!(find(&r, "main->other").is_none());
    }
}
