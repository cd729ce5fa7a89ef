//! The `taintprof.taint` JSON report (`docs/report-schema.md`, version 4) of a model:
//! the port of the runtime's former `write_json` (`rt/src/report.rs`), key for key, as a
//! [`serde_json::Value`], plus what was added after it: every volume's terms as data
//! (`volume_terms`, `exclusive_volume_terms`, next to the display strings).
//!
//! Of a merge of several records it also says where they came from (`merged_from`) and,
//! per loop and per function's own loops, which records saw which parameters where
//! they disagree (`params_by_rank`, `exclusive_params_by_rank`: [`crate::ranks`]).
//!
//! Output order (as the runtime's): functions by file, line, name, linkage name; loops
//! and branches by line and column within their function; contexts by path (frame by
//! frame, a prefix first), at most `TAINTPROF_MAX_CONTEXTS` of them per function and
//! loop (the first of each distinct parameter set first, then the others in order;
//! `contexts_omitted` counts the rest).
//!
//! Key order: that of the schema's tables (serde_json's `preserve_order`: objects keep
//! the order keys are inserted in, here and in every crate built with this one).

use serde_json::{json, Map, Value};
use taintprof_abi::{LOOP_FOLDED, LOOP_LIBRARY, MODULE_CONTROL_FLOW, MODULE_NO_DEBUG_INFO};
use taintprof_record::merge::Merged;
use taintprof_record::{Exit, NONE};

use crate::classify::{coverage, recommend, summary};
use crate::ranks::{agreements_json, merged_from, ByRank};
use crate::run::{self, text};
use crate::tree::Model;
use crate::volume::{self, Term, MAX_FACTORS, MAX_TERMS};

/// Writes values that name parameters.
struct Names {
    names: Vec<String>,
}

impl Names {
    /// The name of parameter `bit` (`#bit` if it has none).
    fn name(&self, bit: u32) -> String {
        match self.names.get(bit as usize) {
            Some(n) if !n.is_empty() => n.clone(),
            _ => format!("#{bit}"),
        }
    }

    /// The names of the parameters in `label`, registration order.
    fn label(&self, label: u16) -> Value {
        Value::Array(
            (0..16u32)
                .filter(|b| label & (1 << b) != 0)
                .map(|b| Value::from(self.name(b)))
                .collect(),
        )
    }

    fn volume(&self, terms: &[Term]) -> Value {
        Value::from(volume::format(terms, |b| self.name(b)))
    }

    /// A volume as data (`docs/report-schema.md`, "Volume terms"): an array of terms in
    /// print order, each an array of factors `{"params": [...], "power": k}` (several
    /// `params`: a joint factor). The constant volume (printed `1`) is one term without
    /// factors, `[[]]`, so that every volume is the sum of its terms' products.
    fn volume_terms(&self, terms: &[Term]) -> Value {
        if terms.is_empty() {
            return json!([[]]);
        }
        Value::Array(
            terms
                .iter()
                .map(|t| {
                    Value::Array(
                        t.factors()
                            .iter()
                            .map(|f| json!({"params": self.label(f.label), "power": f.exp}))
                            .collect(),
                    )
                })
                .collect(),
        )
    }

    fn coverage(&self, set: u16, f: u64, l: u64) -> Value {
        json!({"params": self.label(set), "functions": f, "loops": l})
    }
}

/// Chooses up to `cap` of `n` contexts with labels `label(k)` (in path order): the
/// first of each distinct parameter set, then the others in order. Returns which are
/// listed and how many are left out.
fn choose(n: usize, cap: usize, label: impl Fn(usize) -> u16) -> (Vec<bool>, usize) {
    if n <= cap {
        return (vec![true; n], 0);
    }
    let mut keep = vec![false; n];
    let mut seen: Vec<u16> = Vec::new();
    let mut kept = 0;
    for (k, slot) in keep.iter_mut().enumerate() {
        if kept == cap {
            break;
        }
        let l = label(k);
        if !seen.contains(&l) {
            seen.push(l);
            *slot = true;
            kept += 1;
        }
    }
    for slot in keep.iter_mut() {
        if kept == cap {
            break;
        }
        if !*slot {
            *slot = true;
            kept += 1;
        }
    }
    (keep, n - kept)
}

/// A context's call path as performance tools name it: the path's functions from the
/// root, then the function itself, joined by `->` (`main->solve->sweep`).
fn callpath(model: &Model<'_>, path: u32, function: u32) -> String {
    let p = model.program;
    let mut out = String::new();
    for id in model.paths.ids_root_first(path) {
        if let Some(f) = model.paths.frame(id) {
            out.push_str(&text(p.str(f.function)));
            out.push_str("->");
        }
    }
    out.push_str(&text(p.str(function)));
    out
}

/// A context's path: one object per frame; `column` only where another call on the
/// same line makes a context of its own.
fn path_json(model: &Model<'_>, path: u32, line_shared: &[bool]) -> Value {
    let p = model.program;
    Value::Array(
        model
            .paths
            .ids_root_first(path)
            .into_iter()
            .filter_map(|id| {
                let f = model.paths.frame(id)?;
                let mut o = Map::new();
                o.insert("function".into(), text(p.str(f.function)).into());
                o.insert("file".into(), text(p.str(f.file)).into());
                o.insert("line".into(), f.line.into());
                if line_shared.get(id as usize).copied().unwrap_or(false) {
                    o.insert("column".into(), f.column.into());
                }
                Some(Value::Object(o))
            })
            .collect(),
    )
}

/// The report of `model` (built from `merged`).
pub fn report(model: &Model<'_>, merged: &Merged) -> Value {
    let p = model.program;
    let names = Names {
        names: merged.params.iter().map(|n| text(n)).collect(),
    };
    let first = &merged.experiments[0];
    let exit = run::trailer(merged).map_or(Exit::Running, |t| t.exit);
    let in_flight = run::loops_in_flight(merged);
    let control_flow = merged
        .modules
        .list
        .iter()
        .any(|m| m.info.flags & MODULE_CONTROL_FLOW != 0);
    let nparams = (merged.params.len() as u32).min(16);
    let cap = run::max_contexts(merged);
    let tw = run::trailer_warnings(merged);
    let by_rank = ByRank::build(model, merged);

    let mut order: Vec<u32> = (0..model.funcs.len() as u32).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&model.funcs[a as usize].loc, &model.funcs[b as usize].loc);
        (x.file, x.fn_line, x.function, x.linkage).cmp(&(y.file, y.fn_line, y.function, y.linkage))
    });

    let mut j = Map::new();
    j.insert("schema".into(), "taintprof.taint".into());
    j.insert("version".into(), 4.into());
    j.insert("taintprof_version".into(), text(&first.run.version).into());
    j.insert("program".into(), run::program(first));
    if let Some(m) = merged_from(merged, &by_rank.ids) {
        j.insert("merged_from".into(), m);
    }
    j.insert("exit".into(), run::exit(exit, in_flight));
    j.insert(
        "options".into(),
        json!({
            "control_flow": control_flow,
            "control_split": control_flow && run::control_split(merged),
            "control_split_given_up_at": run::split_given_up_at(merged),
        }),
    );
    let threads: u64 = merged.experiments.iter().map(|e| e.threads as u64).sum();
    j.insert("threads".into(), threads.into());
    j.insert(
        "parameters".into(),
        Value::Array(merged.params.iter().map(|n| text(n).into()).collect()),
    );
    j.insert("parameter_info".into(), run::parameter_info(merged));
    j.insert(
        "rejected_parameters".into(),
        run::rejected_parameters(merged),
    );

    let modules: Vec<Value> = merged
        .modules
        .list
        .iter()
        .map(|m| {
            // Natural loops of the IR; library and folded loops are counted apart.
            let (mut natural, mut library, mut folded) = (0u64, 0u64, 0u64);
            for l in &m.loops {
                if l.desc.flags & LOOP_FOLDED != 0 {
                    folded += 1;
                } else if l.desc.flags & LOOP_LIBRARY != 0 {
                    library += 1;
                } else {
                    natural += 1;
                }
            }
            json!({
                "source": text(&m.source),
                "functions": m.funcs.len(),
                "loops": natural,
                "library_loops": library,
                "folded_loops": folded,
            })
        })
        .collect();
    j.insert("modules".into(), Value::Array(modules));

    let line_shared = &model.line_shared;
    let mut no_sink = 0u64;
    let mut truncated_branches = 0u64;
    let mut functions = Vec::with_capacity(order.len());
    for &fi in &order {
        let fg = &model.funcs[fi as usize];
        let fl = &fg.loc;
        let mut f = Map::new();
        f.insert("name".into(), text(p.str(fl.function)).into());
        f.insert("linkage".into(), text(p.str(fl.linkage)).into());
        f.insert("file".into(), text(p.str(fl.file)).into());
        f.insert("line".into(), fl.fn_line.into());
        f.insert("recursive".into(), fg.recursive().into());
        f.insert("statically_pruned".into(), fg.statically_pruned.into());
        f.insert("executed".into(), fg.executed.into());
        f.insert("exclusive_params".into(), names.label(fg.excl_label));
        if let Some(a) = by_rank.function_disagreement(model, fi) {
            f.insert(
                "exclusive_params_by_rank".into(),
                agreements_json(&a, |s| names.label(s)),
            );
        }
        f.insert("inclusive_params".into(), names.label(fg.incl_label));
        f.insert("constant".into(), (fg.incl_label == 0).into());
        f.insert("volume".into(), names.volume(&fg.incl));
        f.insert("volume_terms".into(), names.volume_terms(&fg.incl));
        f.insert("exclusive_volume".into(), names.volume(&fg.excl));
        f.insert(
            "exclusive_volume_terms".into(),
            names.volume_terms(&fg.excl),
        );

        let mult = volume::multiplicative_pairs(&fg.incl);
        let mut pairs = Vec::new();
        for a in 0..16u32 {
            if fg.incl_label & (1 << a) == 0 {
                continue;
            }
            for b in a + 1..16u32 {
                if fg.incl_label & (1 << b) == 0 {
                    continue;
                }
                let m = mult[a as usize] & (1 << b) != 0;
                pairs.push(json!({
                    "a": names.name(a),
                    "b": names.name(b),
                    "kind": if m { "multiplicative" } else { "additive" },
                }));
            }
        }
        f.insert("pairs".into(), Value::Array(pairs));

        let mut scratch = volume::Volumes::default();
        let ctx = &model.fn_contexts[fg.contexts.0 as usize..fg.contexts.1 as usize];
        let (keep, omitted) = choose(ctx.len(), cap, |k| model.lnodes[ctx[k] as usize].incl_label);
        let contexts: Vec<Value> = ctx
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(&x, _)| {
                let ln = &model.lnodes[x as usize];
                let calls = model.calls_term(x);
                let calls_poly = volume::times(&mut scratch, &[], &calls);
                let total = volume::times(&mut scratch, &ln.incl, &calls);
                json!({
                    "path": path_json(model, ln.path, line_shared),
                    "callpath": callpath(model, ln.path, fl.function),
                    "inclusive_params": names.label(ln.incl_label),
                    "volume": names.volume(&ln.incl),
                    "volume_terms": names.volume_terms(&ln.incl),
                    "calls_volume": names.volume(&calls_poly),
                    "calls_volume_terms": names.volume_terms(&calls_poly),
                    "total_volume": names.volume(&total),
                    "total_volume_terms": names.volume_terms(&total),
                })
            })
            .collect();
        f.insert("contexts".into(), Value::Array(contexts));
        if omitted > 0 {
            f.insert("contexts_omitted".into(), omitted.into());
        }

        let mut branches = Vec::new();
        for bg in &model.branches[fg.branches.0 as usize..fg.branches.1 as usize] {
            truncated_branches += bg.truncated as u64;
            let succ: Vec<Value> = model
                .branch_successors(bg)
                .into_iter()
                .map(|(line, taken)| json!({"line": line, "taken": taken}))
                .collect();
            branches.push(json!({
                "line": bg.key.line,
                "column": bg.key.column,
                "kind": if bg.switch { "switch" } else { "if" },
                "params": names.label(bg.label),
                "successors": succ,
            }));
        }
        f.insert("branches".into(), Value::Array(branches));

        let mut loops = Vec::new();
        for (gi, g) in (fg.loops.0..).zip(&model.loops[fg.loops.0 as usize..fg.loops.1 as usize]) {
            no_sink += g.no_sink as u64;
            let mut l = Map::new();
            l.insert("line".into(), g.key.line.into());
            l.insert("column".into(), g.key.column.into());
            l.insert("kind".into(), g.kind().into());
            // A loop that some copy of the code kept is a loop: no routine is shown.
            let library = g
                .library
                .filter(|_| g.kind() == "library")
                .map(|d| &p.loops[d as usize]);
            l.insert(
                "routine".into(),
                library.map_or(Value::Null, |d| text(p.str(d.routine)).into()),
            );
            l.insert(
                "cost".into(),
                library.map_or(Value::Null, |d| text(p.str(d.cost)).into()),
            );
            l.insert(
                "parent_line".into(),
                match model.group(g.parent) {
                    Some(pg) if g.parent != NONE => pg.key.line.into(),
                    _ => Value::Null,
                },
            );
            l.insert("params".into(), names.label(g.label));
            l.insert("control_only_params".into(), names.label(g.label & !g.data));
            if let Some(a) = by_rank.loop_disagreement(gi) {
                l.insert(
                    "params_by_rank".into(),
                    agreements_json(&a, |s| names.label(s)),
                );
            }
            l.insert("executions".into(), g.executions.into());
            l.insert(
                "const_trip_count".into(),
                if g.const_trip != 0 {
                    g.const_trip.into()
                } else {
                    Value::Null
                },
            );
            l.insert("recursion".into(), g.recursion.into());
            let ctx = &model.loop_contexts[g.contexts.0 as usize..g.contexts.1 as usize];
            let (keep, omitted) = choose(ctx.len(), cap, |k| model.items[ctx[k] as usize].label);
            let contexts: Vec<Value> = ctx
                .iter()
                .zip(&keep)
                .filter(|(_, &k)| k)
                .map(|(&x, _)| {
                    let it = &model.items[x as usize];
                    let path = model.lnode(it.owner).map_or(0, |n| n.path);
                    json!({
                        "path": path_json(model, path, line_shared),
                        "params": names.label(it.label),
                        "executions": it.executions,
                    })
                })
                .collect();
            l.insert("contexts".into(), Value::Array(contexts));
            if omitted > 0 {
                l.insert("contexts_omitted".into(), omitted.into());
            }
            loops.push(Value::Object(l));
        }
        f.insert("loops".into(), Value::Array(loops));
        functions.push(Value::Object(f));
    }
    j.insert("functions".into(), Value::Array(functions));

    let s = summary(model);
    j.insert(
        "summary".into(),
        json!({
            "functions": {
                "total": s.functions,
                "statically_pruned": s.f_static,
                "dynamically_pruned": s.f_dynamic,
                "relevant": s.f_relevant,
                "never_ran": s.f_never,
            },
            "loops": {
                "total": s.loops,
                "statically_pruned": s.l_static,
                "constant": s.l_constant,
                "relevant": s.l_relevant,
                "never_ran": s.l_never,
                "folded": s.l_folded,
            },
        }),
    );

    let pair = recommend(model, nparams, 2);
    let triple = recommend(model, nparams, 3);
    let mut cov: Vec<Value> = (0..nparams)
        .map(|bit| {
            let (f, l) = coverage(model, 1 << bit);
            names.coverage(1 << bit, f, l)
        })
        .collect();
    for (set, f, l) in [pair, triple].into_iter().flatten() {
        cov.push(names.coverage(set, f, l));
    }
    j.insert("coverage".into(), Value::Array(cov));
    let rec =
        |r: Option<(u16, u64, u64)>| r.map_or(Value::Null, |(set, f, l)| names.coverage(set, f, l));
    j.insert(
        "recommendation".into(),
        json!({"pair": rec(pair), "triple": rec(triple)}),
    );

    // Warnings, in the runtime's order.
    let mut w: Vec<String> = Vec::new();
    if exit == Exit::Running {
        w.push("written while the program was still running (tp_write_report); the report written at exit replaces it".into());
    }
    if in_flight > 0 {
        let when = match exit {
            Exit::Signal(sig) => run::signal_name(sig),
            Exit::Normal(_) => "exit()",
            Exit::Immediate(_) => "_exit()",
            Exit::Exec => "exec",
            Exit::Running => "tp_write_report()",
            Exit::Unknown(..) => "an unknown event",
        };
        w.push(format!(
            "the run was cut by {} while {} loop execution{} still running: each is counted as executed once, with the labels its exit tests had seen so far; the loops' volumes are those of the part that ran",
            when,
            in_flight,
            if in_flight == 1 { " was" } else { "s were" }
        ));
    }
    if let Some(m) = &tw.mixed {
        w.push(format!(
            "this program mixes instrumentation modes: {m}; rebuild every file in one mode (denormal data is not reported, and taint results may be wrong)"
        ));
    }
    for r in &tw.rejected_modules {
        match r {
            None => w.push("a module descriptor with a bad magic number was ignored".into()),
            Some((src, abi)) => w.push(format!(
                "module '{src}' was ignored: it was instrumented for ABI version {abi}, this runtime implements version {}",
                first.run.info.abi_version
            )),
        }
    }
    for m in &merged.modules.list {
        if m.info.flags & MODULE_NO_DEBUG_INFO != 0 {
            w.push(format!(
                "module '{}' was compiled without debug info: its loops have no source lines (compile with -g)",
                text(&m.source)
            ));
        }
    }
    let mut nrec = 0usize;
    for &fi in &order {
        let fg = &model.funcs[fi as usize];
        if !fg.recursive() {
            continue;
        }
        nrec += 1;
        if nrec <= 50 {
            let l = &fg.loc;
            w.push(format!(
                "function '{}' ({}:{}) is recursive: its recursive calls are folded onto its first activation, so its parameters and volume over-approximate",
                text(p.str(l.function)),
                text(p.str(l.file)),
                l.fn_line
            ));
        }
    }
    if nrec > 50 {
        w.push(format!("... and {} more recursive functions", nrec - 50));
    }
    if no_sink > 0 {
        w.push(format!(
            "{no_sink} loop(s) have no exit condition the compiler could instrument (left only by exit(), an exception or a goto out): their params are unknown, not empty"
        ));
    }
    if truncated_branches > 0 {
        w.push(format!(
            "{truncated_branches} switch(es) have more than 64 distinct successors: only the first 64 are listed"
        ));
    }
    if model.volumes.approximate {
        w.push(format!(
            "some volumes hit a size limit ({MAX_TERMS} terms, {MAX_FACTORS} distinct factors per term): they are approximations"
        ));
    }
    if tw.context_oom {
        w.push("the runtime ran out of memory for calling contexts: some loop executions were not recorded".into());
    }
    let unknown_loops = model.unknown_loops + tw.unknown_loops;
    if unknown_loops > 0 {
        w.push(format!(
            "{unknown_loops} loop record(s) refer to loops of modules that were not registered; they are not listed"
        ));
    }
    if tw.unknown_contexts > 0 {
        w.push(format!(
            "{} calling context(s) of functions of modules that were not registered were skipped, with everything they called",
            tw.unknown_contexts
        ));
    }
    if model.malformed_loops > 0 {
        w.push(format!(
            "{} loop descriptor(s) without a source chain were skipped",
            model.malformed_loops
        ));
    }
    if merged.experiments.len() > 1 {
        // What the merge noticed (modules kept apart, dropped label bits): only a merge
        // of several records has such news; the runtime's report has none.
        w.extend(merged.warnings.iter().cloned());
    }
    j.insert(
        "warnings".into(),
        Value::Array(w.into_iter().map(Value::from).collect()),
    );
    Value::Object(j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::volume::Volumes;

    fn names() -> Names {
        Names {
            names: (0..16)
                .map(|b| {
                    ["n", "m", "a", "b"]
                        .get(b)
                        .map_or(format!("p{b}"), |s| s.to_string())
                })
                .collect(),
        }
    }

    /// A term of loops with these labels, nested.
    fn term(labels: &[u16]) -> Term {
        let mut t = Term::ONE;
        for &l in labels {
            t.mul(l);
        }
        t
    }

    const N: u16 = 1;
    const M: u16 = 2;
    const A: u16 = 4;
    const B: u16 = 8;

    #[test]
    fn a_volume_s_terms_are_its_factors_with_powers() {
        let mut v = Volumes::default();
        let p = v.finish(vec![term(&[M, N, N])]);
        let names = names();
        assert_eq!(names.volume(&p), "n^2*m");
        assert_eq!(
            serde_json::to_string(&names.volume_terms(&p)).unwrap(),
            r#"[[{"params":["n"],"power":2},{"params":["m"],"power":1}]]"#
        );
    }

    #[test]
    fn a_joint_factor_names_all_its_parameters_in_one_factor() {
        let mut v = Volumes::default();
        let p = v.finish(vec![term(&[A]), term(&[N | M, B]), term(&[N | M, N | M])]);
        let names = names();
        assert_eq!(names.volume(&p), "(n,m)^2 + (n,m)*b + a");
        assert_eq!(
            names.volume_terms(&p),
            json!([
                [{"params": ["n", "m"], "power": 2}],
                [{"params": ["n", "m"], "power": 1}, {"params": ["b"], "power": 1}],
                [{"params": ["a"], "power": 1}],
            ])
        );
    }

    #[test]
    fn the_constant_volume_is_one_term_without_factors() {
        let mut v = Volumes::default();
        let p = v.finish(vec![term(&[]), term(&[0])]);
        assert!(p.is_empty());
        let names = names();
        assert_eq!(names.volume(&p), "1");
        assert_eq!(names.volume_terms(&p), json!([[]]));
    }

    #[test]
    fn approximate_volumes_show_their_merged_factor_and_kept_terms() {
        // Sixteen distinct factors in one term: the last five are merged into one joint
        // factor, as the display string shows.
        let mut v = Volumes::default();
        let all: Vec<u16> = (0..16).map(|b| 1 << b).collect();
        let p = v.nest(vec![term(&all[..15])], all[15]);
        assert!(v.approximate);
        let names = names();
        let terms = names.volume_terms(&p);
        let factors = terms[0].as_array().unwrap();
        assert_eq!(factors.len(), MAX_FACTORS);
        assert_eq!(factors[0], json!({"params": ["n"], "power": 1}));
        assert_eq!(
            factors[MAX_FACTORS - 1],
            json!({"params": ["p11", "p12", "p13", "p14", "p15"], "power": 1})
        );
        assert!(names
            .volume(&p)
            .as_str()
            .unwrap()
            .ends_with("*(p11,p12,p13,p14,p15)"));
        // More terms than a volume holds: the largest are kept, in print order.
        let mut v = Volumes::default();
        let many = (1..=(MAX_TERMS as u32 + 9))
            .map(|i| {
                term(
                    &(0..16)
                        .filter(|b| i & (1 << b) != 0)
                        .map(|b| 1 << b)
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        let p = v.finish(many);
        assert!(v.approximate);
        let terms = names.volume_terms(&p);
        assert_eq!(terms.as_array().unwrap().len(), MAX_TERMS);
        let shown: Vec<String> = terms
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let f: Vec<&str> = t
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f["params"][0].as_str().unwrap())
                    .collect();
                f.join("*")
            })
            .collect();
        assert_eq!(names.volume(&p), shown.join(" + ").as_str());
    }
}
