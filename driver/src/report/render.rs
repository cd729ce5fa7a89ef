//! Text rendering of a [`Summary`]: [`full`] for `taintprof report`, [`short`] for
//! `taintprof run`.
//!
//! The full report, in order: header; Table 2 (what was pruned); Table 3 (coverage per
//! parameter, the recommended pair and triple, `--subset` columns) with the
//! recommendation; the parameter-dependent functions (parameters, volume, pairs, loop
//! nest, differing contexts, recursion, parameter-dependent branches); constant
//! functions; code paths never executed; warnings. Version 1 reports show the parts
//! they have.

use super::summary::{
    BranchSummary, Coverage, FunctionClass, FunctionSummary, LoopSummary, ModuleSummary,
    PairSummary, PruningRow, RankParamsSummary, Summary,
};
use super::LoopKind;
use crate::table::{shown_name, Align, Table};
use std::fmt::Write;

/// The mark for "depends on no parameter" / "unknown".
pub const NONE: &str = "—";

/// How much to show.
#[derive(Debug, Clone, Copy)]
pub struct RenderOptions {
    /// List everything: statically pruned functions by name, every function (not only
    /// parameter-dependent ones), loop contexts, uncapped lists.
    pub verbose: bool,
    /// Longest list shown without `verbose` before "... and N more".
    pub cap: usize,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            verbose: false,
            cap: 10,
        }
    }
}

/// `m, n` or `—`.
pub fn param_set(params: &[String]) -> String {
    if params.is_empty() {
        NONE.to_string()
    } else {
        params.join(", ")
    }
}

/// The registered parameters, implicit ones marked: `n, iters, p (implicit)`; `none`
/// (`none_text`) if there are none.
pub fn parameters_text(s: &Summary, none_text: &str) -> String {
    if s.parameters.is_empty() {
        return none_text.to_string();
    }
    s.parameters
        .iter()
        .map(|p| {
            if s.implicit_parameters.contains(p) {
                format!("{p} (implicit)")
            } else {
                p.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `ranks disagree: 0,2: n; 1,3: n, p` (`records disagree` when the records of the
/// merge are not MPI ranks), or `None` when there is nothing to say.
pub fn disagreement_text(s: &Summary, by_rank: &[RankParamsSummary]) -> Option<String> {
    if by_rank.is_empty() {
        return None;
    }
    let who = match &s.merged_from {
        Some(m) if !m.mpi => "records",
        _ => "ranks",
    };
    let parts: Vec<String> = by_rank
        .iter()
        .map(|r| {
            format!(
                "{}: {}",
                taintprof_record::ranks::ranges(&r.ranks),
                param_set(&r.params)
            )
        })
        .collect();
    Some(format!("{who} disagree: {}", parts.join("; ")))
}

/// `{m, n}`.
fn braced(params: &[String]) -> String {
    format!("{{{}}}", params.join(", "))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The whole report with default options.
pub fn full(s: &Summary) -> String {
    full_with(s, &RenderOptions::default())
}

/// The whole report.
pub fn full_with(s: &Summary, o: &RenderOptions) -> String {
    let files = Files::new(s);
    let mut out = String::new();
    header(&mut out, s, &files);
    out.push('\n');
    pruning_table(&mut out, s);
    out.push('\n');
    coverage_table(&mut out, s);
    if let Some(line) = recommendation_line(s) {
        let _ = writeln!(out, "  {line}");
    }
    out.push('\n');
    functions_section(&mut out, s, &files, o);
    constant_section(&mut out, s, &files, o);
    folded_section(&mut out, s, &files, o);
    never_executed_section(&mut out, s, &files, o);
    warnings(&mut out, s);
    next_steps(&mut out, s);
    out
}

/// The summary printed after `taintprof run`: header line, Table 2, Table 3, the volume
/// of each parameter-dependent function (version 2) or one line per loop (version 1).
pub fn short(s: &Summary) -> String {
    let files = Files::new(s);
    let mut out = String::new();
    let merged = s
        .merged_from
        .as_ref()
        .map(|m| format!("; merged from {}", m.description))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "taintprof: {} (pid {}): {}{merged}; parameters: {}",
        s.program.name,
        s.program.pid,
        s.exit.description,
        parameters_text(s, "none")
    );
    if !s.complete {
        out.push_str(
            "  the program did not exit normally: the report holds what was gathered until then\n",
        );
    }
    pruning_lines(&mut out, s);
    out.push('\n');
    coverage_table(&mut out, s);
    if s.schema_version >= 2 {
        let relevant: Vec<&FunctionSummary> =
            s.functions.iter().filter(|f| f.is_relevant()).collect();
        if !relevant.is_empty() {
            out.push('\n');
            out.push_str("Parameter-dependent functions: iteration volume per call\n");
            let mut t = Table::new(&[Align::Left, Align::Left, Align::Left, Align::Left]);
            let cap = 15;
            for f in relevant.iter().take(cap) {
                t.row([
                    shown_name(&f.name),
                    location(&files, &f.file, f.line),
                    param_set(&f.inclusive_params),
                    f.volume.clone().unwrap_or_else(|| NONE.to_string()),
                ]);
            }
            out.push_str(&t.render("  "));
            if relevant.len() > cap {
                let _ = writeln!(out, "  ... and {} more", relevant.len() - cap);
            }
        }
    } else if !s.functions.is_empty() {
        out.push('\n');
        match files.base() {
            Some(b) => {
                let _ = writeln!(out, "Loops (sources in {b})");
            }
            None => out.push_str("Loops\n"),
        }
        let mut t = Table::new(&[Align::Left, Align::Left, Align::Left, Align::Left]);
        for f in s.functions.iter().filter(|f| !f.loops.is_empty()) {
            for (i, l) in f.loops.iter().enumerate() {
                let name = if i == 0 {
                    shown_name(&f.name)
                } else {
                    String::new()
                };
                t.row([
                    name,
                    loop_location(&files, f, l),
                    param_set(&l.params),
                    if l.executions == 0 {
                        "(never ran)".to_string()
                    } else {
                        String::new()
                    },
                ]);
            }
        }
        out.push_str(&t.render("  "));
    }
    if let Some(line) = recommendation_line(s) {
        let _ = writeln!(out, "{line}");
    }
    let mut extra = Vec::new();
    let paths = s.never_executed.branches.len();
    if paths > 0 {
        extra.push(format!(
            "{} never taken",
            plural(paths, "branch side", "branch sides")
        ));
    }
    if !s.never_executed.functions.is_empty() {
        extra.push(format!(
            "{} never called",
            plural(s.never_executed.functions.len(), "function", "functions")
        ));
    }
    if !s.never_executed.loops.is_empty() {
        extra.push(format!(
            "{} never ran",
            plural(s.never_executed.loops.len(), "loop", "loops")
        ));
    }
    if !s.warnings.is_empty() {
        extra.push(plural(s.warnings.len(), "warning", "warnings"));
    }
    if !s.rejected_parameters.is_empty() {
        extra.push(format!(
            "{} rejected",
            plural(s.rejected_parameters.len(), "parameter", "parameters")
        ));
    }
    let differ = s
        .functions
        .iter()
        .flat_map(|f| &f.loops)
        .filter(|l| !l.params_by_rank.is_empty())
        .count();
    if differ > 0 {
        let who = match &s.merged_from {
            Some(m) if !m.mpi => "records",
            _ => "ranks",
        };
        extra.push(format!(
            "{} whose parameters differ between {who}",
            plural(differ, "loop", "loops")
        ));
    }
    out.push('\n');
    if !extra.is_empty() {
        let _ = write!(out, "{}; ", extra.join(", "));
    }
    let _ = writeln!(out, "full report: taintprof report {}", s.report);
    out
}

fn header(out: &mut String, s: &Summary, files: &Files) {
    let _ = writeln!(out, "taintprof report {}", s.report);
    let mut t = Table::new(&[Align::Left, Align::Left]);
    let cmd = if s.program.argv.is_empty() {
        s.program.name.clone()
    } else {
        s.program
            .argv
            .iter()
            .map(|a| crate::cc::shell_quote(a))
            .collect::<Vec<_>>()
            .join(" ")
    };
    t.row(["program".to_string(), cmd]);
    if !s.program.path.is_empty() {
        t.row([
            "executable".to_string(),
            format!("{} (pid {})", s.program.path, s.program.pid),
        ]);
    }
    let mut exit = s.exit.description.clone();
    if !s.complete {
        exit.push_str(": the report holds what was gathered until then");
    }
    t.row(["exit".to_string(), exit]);
    t.row([
        "parameters".to_string(),
        parameters_text(s, "none registered"),
    ]);
    if let Some(m) = &s.merged_from {
        let what = match (m.mpi, m.mpi_size) {
            (true, Some(n)) => format!("from {} of an MPI run of {n}", m.description),
            (true, None) => format!("from {}", m.description),
            (false, _) => format!(
                "from {} (numbered {} in the order they were given)",
                m.description,
                taintprof_record::ranks::ranges(&m.ranks)
            ),
        };
        t.row(["merged".to_string(), what]);
    }
    for r in &s.rejected_parameters {
        t.row(["rejected".to_string(), format!("{} ({})", r.name, r.reason)]);
    }
    if !s.modules.is_empty() {
        t.row(["modules".to_string(), modules_line(&s.modules, files)]);
    }
    if let Some(b) = files.base() {
        t.row(["sources".to_string(), b.to_string()]);
    }
    t.row(["threads".to_string(), s.threads.to_string()]);
    t.row([
        "control flow".to_string(),
        if s.control_flow {
            "tainted (labels also flow through branches)".to_string()
        } else {
            "not tainted (data flow only; built with --tp-control-flow=off)".to_string()
        },
    ]);
    if s.schema_version < 2 {
        t.row([
            "schema".to_string(),
            format!(
                "version {}: no function classification, volumes, pairs or branches (rerun with this taintprof)",
                s.schema_version
            ),
        ]);
    }
    out.push_str(&t.render("  "));
}

/// The line under a list of calling contexts the runtime cut short.
fn more_contexts(omitted: u64) -> Option<String> {
    (omitted > 0).then(|| {
        format!(
            "… and {} not listed (TAINTPROF_MAX_CONTEXTS; parameters and volumes count them all)",
            plural(omitted as usize, "more context", "more contexts")
        )
    })
}

/// The header's `modules` row. Function and loop counts are what the compiler produced
/// after inlining and loop transformations (vector bodies, remainders), not source
/// counts. A few modules are listed one by one; a real project's dozens are summed,
/// with the first names, so that the header stays a header.
fn modules_line(modules: &[ModuleSummary], files: &Files) -> String {
    const LISTED: usize = 4;
    // Library calls and folded loops only when there are some (older reports: never).
    let counts = |functions: u64, loops: u64, library: u64, folded: u64| {
        let mut c = format!(
            "compiled: {}, {}",
            plural(functions as usize, "function", "functions"),
            plural(loops as usize, "IR loop", "IR loops")
        );
        if library > 0 {
            let _ = write!(
                c,
                ", {}",
                plural(library as usize, "library loop", "library loops")
            );
        }
        if folded > 0 {
            let _ = write!(c, ", {folded} folded");
        }
        c
    };
    if modules.len() <= LISTED {
        let mods: Vec<String> = modules
            .iter()
            .map(|m| {
                format!(
                    "{} ({})",
                    files.show(&m.source),
                    counts(m.functions, m.loops, m.library_loops, m.folded_loops)
                )
            })
            .collect();
        return mods.join("; ");
    }
    let functions = modules.iter().map(|m| m.functions).sum();
    let loops = modules.iter().map(|m| m.loops).sum();
    let library = modules.iter().map(|m| m.library_loops).sum();
    let folded = modules.iter().map(|m| m.folded_loops).sum();
    let names: Vec<String> = modules[..LISTED - 1]
        .iter()
        .map(|m| files.show(&m.source))
        .collect();
    format!(
        "{} modules ({}): {} and {} more",
        modules.len(),
        counts(functions, loops, library, folded),
        names.join(", "),
        modules.len() - (LISTED - 1)
    )
}

fn cell(v: Option<u64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| NONE.to_string())
}

/// Table 2.
fn pruning_table(out: &mut String, s: &Summary) {
    out.push_str("What the analysis pruned (Perf-Taint, Table 2)\n");
    let mut t = Table::new(&[
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Right,
    ])
    .header([
        "",
        "total",
        "statically pruned",
        "ran, constant",
        "relevant",
        "never ran",
    ]);
    let row = |name: &str, r: &PruningRow| {
        vec![
            name.to_string(),
            r.total.to_string(),
            cell(r.statically_pruned),
            cell(r.ran_constant),
            cell(r.relevant),
            cell(r.never_ran),
        ]
    };
    t.row(row("functions", &s.pruning.functions));
    t.row(row("loops", &s.pruning.loops));
    out.push_str(&t.render("  "));
    out.push_str(
        "  statically pruned: proved constant at compile time; ran, constant: depended on no\n  parameter in this run (functions: dynamically pruned); relevant: ran and depends on one\n",
    );
    if s.schema_version < 2 {
        out.push_str(
            "  (version 1 report: functions are not classified; loops counted from the report)\n",
        );
    }
}

/// The two Table 2 lines of `taintprof run`.
fn pruning_lines(out: &mut String, s: &Summary) {
    let f = &s.pruning.functions;
    let l = &s.pruning.loops;
    if f.relevant.is_some() {
        let _ = writeln!(
            out,
            "  functions: {} total, {} statically pruned, {} dynamically pruned, {} relevant, {} never ran",
            f.total,
            cell(f.statically_pruned),
            cell(f.ran_constant),
            cell(f.relevant),
            cell(f.never_ran)
        );
    } else {
        let _ = writeln!(
            out,
            "  functions: {} total (not classified in a version 1 report)",
            f.total
        );
    }
    let _ = writeln!(
        out,
        "  loops:     {} total, {} statically pruned, {} constant, {} relevant, {} never ran",
        l.total,
        cell(l.statically_pruned),
        cell(l.ran_constant),
        cell(l.relevant),
        cell(l.never_ran)
    );
}

/// Table 3.
fn coverage_table(out: &mut String, s: &Summary) {
    let c: &Coverage = &s.coverage;
    out.push_str(
        "What depends on each parameter (Perf-Taint, Table 3; functions counted by their own loops)\n",
    );
    let mut aligns = vec![Align::Left, Align::Right];
    aligns.extend(c.columns.iter().map(|_| Align::Right));
    let mut head = vec![String::new(), "total".to_string()];
    head.extend(c.columns.iter().map(|col| col.label()));
    let mut t = Table::new(&aligns).header(head);
    let mut functions = vec!["functions".to_string(), c.total.functions.to_string()];
    let mut loops = vec!["loops".to_string(), c.total.loops.to_string()];
    for col in &c.columns {
        functions.push(col.functions.to_string());
        loops.push(col.loops.to_string());
    }
    t.row(functions);
    t.row(loops);
    out.push_str(&t.render("  "));
    let labels = |k: &str| -> Vec<String> {
        c.columns
            .iter()
            .filter(|x| x.kind == k)
            .map(|x| x.label())
            .collect()
    };
    let recommended: Vec<String> = labels("pair").into_iter().chain(labels("triple")).collect();
    let subsets = labels("subset");
    if !recommended.is_empty() || !subsets.is_empty() {
        let mut note = "  total: any parameter".to_string();
        if !recommended.is_empty() {
            let _ = write!(
                note,
                "; {}: the recommended {}",
                recommended.join(" and "),
                match (labels("pair").is_empty(), labels("triple").is_empty()) {
                    (false, false) => "pair and triple",
                    (false, true) => "pair",
                    _ => "triple",
                }
            );
        }
        if !subsets.is_empty() {
            let _ = write!(note, "; {}: --subset", subsets.join(" and "));
        }
        out.push_str(&note);
        out.push('\n');
    }
    if s.parameters.is_empty() {
        out.push_str(
            "  no parameters were registered: mark each one with tp_register_variable(&n, sizeof n, \"n\")\n",
        );
    }
}

/// `recommended: model with (m, n) — covers 12 of 14 parameter-dependent functions`
pub fn recommendation_line(s: &Summary) -> Option<String> {
    let r = s.recommendation.as_ref()?;
    let total = r.out_of.functions;
    let mut line = match &r.pair {
        Some(p) => format!(
            "recommended: model with ({}) — covers {} of {} parameter-dependent {}",
            p.params.join(", "),
            p.functions,
            total,
            if total == 1 { "function" } else { "functions" }
        ),
        None => String::new(),
    };
    if let Some(t) = &r.triple {
        let better = r.pair.as_ref().map_or(true, |p| t.functions > p.functions);
        if line.is_empty() {
            line = format!(
                "recommended: model with ({}) — covers {} of {} parameter-dependent functions",
                t.params.join(", "),
                t.functions,
                total
            );
        } else if better {
            let _ = write!(
                line,
                "; with ({}): {} of {}",
                t.params.join(", "),
                t.functions,
                total
            );
        } else {
            line.push_str("; a third parameter covers no more");
        }
    }
    Some(line)
}

/// `n×iters multiplicative; n+algo, iters+algo additive`
pub fn pairs_text(pairs: &[PairSummary]) -> String {
    let mult: Vec<String> = pairs
        .iter()
        .filter(|p| p.kind == "multiplicative")
        .map(|p| format!("{}×{}", p.a, p.b))
        .collect();
    let add: Vec<String> = pairs
        .iter()
        .filter(|p| p.kind == "additive")
        .map(|p| format!("{}+{}", p.a, p.b))
        .collect();
    let other: Vec<String> = pairs
        .iter()
        .filter(|p| p.kind != "multiplicative" && p.kind != "additive")
        .map(|p| format!("{} and {} ({})", p.a, p.b, p.kind))
        .collect();
    let mut parts = Vec::new();
    if !mult.is_empty() {
        parts.push(format!("{} multiplicative", mult.join(", ")));
    }
    if !add.is_empty() {
        parts.push(format!("{} additive", add.join(", ")));
    }
    parts.extend(other);
    parts.join("; ")
}

/// Where a branch of `f` is: `line 61`, or for a branch without a debug location
/// (line 0) the nearest known position, its function: `in solve (no line; the function
/// starts at line 55)`.
pub fn branch_position(f: &FunctionSummary, b: &BranchSummary) -> String {
    match (b.line, f.line) {
        (0, 0) => format!("in {} (no line)", shown_name(&f.name)),
        (0, l) => format!(
            "in {} (no line; the function starts at line {l})",
            shown_name(&f.name)
        ),
        (l, _) => format!("line {l}"),
    }
}

/// `if on {algo}; never took the branch at line 64`. Successors without a source line
/// (line 0) are counted, not named.
pub fn branch_text(b: &BranchSummary) -> String {
    let what = if b.params.is_empty() {
        format!("{} (no parameter)", b.kind)
    } else {
        format!("{} on {}", b.kind, braced(&b.params))
    };
    let switch = b.kind == "switch";
    let outcome = if b.never_reached() {
        "never reached".to_string()
    } else if b.untaken_lines.is_empty() {
        if switch {
            "took every case"
        } else {
            "took both ways"
        }
        .to_string()
    } else {
        // For a switch the first successor is the default.
        let default_line = if switch {
            b.successors.first().map(|s| s.line)
        } else {
            None
        };
        let unlocated = b.untaken_lines.iter().filter(|l| **l == 0).count();
        let mut lines: Vec<u32> = b
            .untaken_lines
            .iter()
            .copied()
            .filter(|l| *l != 0)
            .collect();
        lines.sort_unstable();
        lines.dedup();
        let list: Vec<String> = lines
            .iter()
            .map(|l| {
                if Some(*l) == default_line && b.successors.first().is_some_and(|s| !s.taken) {
                    format!("{l} (default)")
                } else {
                    l.to_string()
                }
            })
            .collect();
        let (one, many) = if switch {
            ("case", "cases")
        } else {
            ("branch", "branches")
        };
        let without = |n: usize| {
            if n == 1 {
                format!("a {one} without a source line")
            } else {
                format!("{n} {many} without a source line")
            }
        };
        match (list.len(), unlocated) {
            (0, n) => format!("never took {}", without(n)),
            (1, 0) => format!("never took the {one} at line {}", list[0]),
            (_, 0) => format!("never took the {many} at lines {}", list.join(", ")),
            (1, n) => format!(
                "never took the {one} at line {} and {}",
                list[0],
                without(n)
            ),
            (_, n) => format!(
                "never took the {many} at lines {} and {}",
                list.join(", "),
                without(n)
            ),
        }
    };
    format!("{what}; {outcome}")
}

fn runs(n: u64) -> String {
    match n {
        0 => "never ran".to_string(),
        1 => "1 run".to_string(),
        n => format!("{n} runs"),
    }
}

/// The per-function blocks.
fn functions_section(out: &mut String, s: &Summary, files: &Files, o: &RenderOptions) {
    let relevant: Vec<&FunctionSummary> = s.functions.iter().filter(|f| f.is_relevant()).collect();
    let others: Vec<&FunctionSummary> = s
        .functions
        .iter()
        .filter(|f| !f.is_relevant() && (s.schema_version >= 2 || !f.loops.is_empty()))
        .collect();
    if relevant.is_empty() {
        out.push_str(if s.parameters.is_empty() {
            "No function depends on a parameter: none was registered.\n"
        } else {
            "No function depends on a registered parameter in this run.\n"
        });
    } else {
        let _ = writeln!(
            out,
            "Parameter-dependent functions ({}), most parameters first",
            relevant.len()
        );
        for f in &relevant {
            function_block(out, s, f, files, o);
        }
    }
    if o.verbose && !others.is_empty() {
        let _ = writeln!(out, "\nOther functions ({})", others.len());
        for f in &others {
            function_block(out, s, f, files, o);
        }
    }
}

/// Key column of a function block: four spaces, then a key padded to 12.
const KEY_INDENT: &str = "    ";
const KEY_WIDTH: usize = 12;

fn keyed(out: &mut String, key: &str, lines: &[String]) {
    for (i, l) in lines.iter().enumerate() {
        let k = if i == 0 { key } else { "" };
        let line = format!("{KEY_INDENT}{k:<KEY_WIDTH$}{l}");
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

fn function_block(
    out: &mut String,
    s: &Summary,
    f: &FunctionSummary,
    files: &Files,
    o: &RenderOptions,
) {
    let mut heading = format!("  {}", shown_name(&f.name));
    if f.line != 0 || !f.file.is_empty() {
        let _ = write!(heading, "  {}", location(files, &f.file, f.line));
    }
    match f.class {
        FunctionClass::StaticallyPruned => heading.push_str("  statically pruned"),
        FunctionClass::DynamicallyPruned => heading.push_str("  ran, constant"),
        FunctionClass::NeverRan => heading.push_str("  never ran"),
        _ => {}
    }
    if f.recursive {
        heading.push_str(if s.schema_version >= 2 {
            "  recursive: parameters and volume over-approximate"
        } else {
            "  recursive: parameters over-approximate"
        });
    }
    out.push_str(&heading);
    out.push('\n');
    let v2 = s.schema_version >= 2;

    if f.is_relevant() {
        let mut p = param_set(&f.inclusive_params);
        if v2 && f.exclusive_params != f.inclusive_params {
            if f.exclusive_params.is_empty() {
                p.push_str(" (through callees; own loops: none)");
            } else {
                let _ = write!(p, " (own loops: {})", f.exclusive_params.join(", "));
            }
        }
        keyed(out, "parameters", &[p]);
    }
    if let Some(d) = disagreement_text(s, &f.exclusive_params_by_rank) {
        keyed(
            out,
            "",
            &[d.replacen(" disagree:", " disagree (own loops):", 1)],
        );
    }
    if let Some(v) = &f.volume {
        if f.is_relevant() || v != "1" {
            let mut line = v.clone();
            if let Some(x) = &f.exclusive_volume {
                if x != v {
                    let x = if x == "1" { "constant" } else { x };
                    let _ = write!(line, " (own loops: {x})");
                }
            }
            keyed(out, "volume", &[line]);
        }
    }
    if !f.pairs.is_empty() {
        keyed(out, "pairs", &[pairs_text(&f.pairs)]);
    }

    if !f.loops.is_empty() {
        let shared_line = |l: &LoopSummary| f.loops.iter().filter(|x| x.line == l.line).count() > 1;
        let mut t = Table::new(&[Align::Left, Align::Left, Align::Right, Align::Left]);
        // Loop contexts (when they differ) go under their loop row.
        let mut after: Vec<Vec<String>> = Vec::new();
        for l in &f.loops {
            let mut label = format!("{}line {}", "  ".repeat(l.depth), l.line);
            if l.line == 0 {
                label = format!("{}(no debug info)", "  ".repeat(l.depth));
            } else if shared_line(l) {
                let _ = write!(label, ":{}", l.column);
            }
            let mut notes = Vec::new();
            if let Some(n) = l.const_trip_count {
                notes.push(format!("constant trip count {n}"));
            }
            if l.recursion {
                notes.push(RECURSION_TEXT.to_string());
            }
            if !l.control_only_params.is_empty() && l.kind != LoopKind::Folded {
                notes.push(format!(
                    "{CONTROL_ONLY_TEXT}: {}",
                    l.control_only_params.join(", ")
                ));
            }
            match l.kind {
                LoopKind::Library => notes.push(library_text(l)),
                LoopKind::Folded => notes.push(FOLDED_TEXT.to_string()),
                LoopKind::Loop => {}
            }
            let (params, ran) = if l.kind == LoopKind::Folded {
                ("?".to_string(), String::new())
            } else {
                (param_set(&l.params), runs(l.executions))
            };
            t.row([label, params, ran, notes.join("; ")]);
            let mut extra = Vec::new();
            if let Some(d) = disagreement_text(s, &l.params_by_rank) {
                extra.push(format!("{}  {d}", "  ".repeat(l.depth)));
            }
            if !l.contexts.is_empty() && (!v2 || o.verbose) {
                let mut ct = Table::new(&[Align::Left, Align::Left, Align::Right]);
                for c in &l.contexts {
                    ct.row([c.path.clone(), param_set(&c.params), runs(c.executions)]);
                }
                extra.push(format!(
                    "{}  calling contexts differ:",
                    "  ".repeat(l.depth)
                ));
                extra.extend(ct.lines(&format!("{}    ", "  ".repeat(l.depth))));
                if let Some(more) = more_contexts(l.contexts_omitted) {
                    extra.push(format!("{}    {more}", "  ".repeat(l.depth)));
                }
            }
            after.push(extra);
        }
        let mut lines = Vec::new();
        for (row, extra) in t.lines("").into_iter().zip(after) {
            lines.push(row);
            lines.extend(extra);
        }
        keyed(out, "loops", &lines);
    }

    if f.contexts_differ || (o.verbose && f.contexts.len() > 1) {
        let mut t = Table::new(&[Align::Left, Align::Left, Align::Left]);
        for c in &f.contexts {
            t.row([
                c.path.clone(),
                param_set(&c.inclusive_params),
                c.volume.clone().unwrap_or_default(),
            ]);
        }
        let mut lines = t.lines("");
        lines.extend(more_contexts(f.contexts_omitted));
        keyed(out, "contexts", &lines);
    }

    let branches: Vec<String> = f
        .branches
        .iter()
        .filter(|b| !b.params.is_empty() || o.verbose)
        .map(|b| format!("{}: {}", branch_position(f, b), branch_text(b)))
        .collect();
    if !branches.is_empty() {
        keyed(out, "branches", &branches);
    }
}

/// What a recursion loop is (`recursion: true`): its line is the decision to recurse.
const RECURSION_TEXT: &str = "recursion: the depth, decided here";

/// Parameters of a loop that came only through control flow (`control_only_params`):
/// a decision, a loop's exit test or a count brought them, no data path did.
const CONTROL_ONLY_TEXT: &str = "only through control flow";

/// What a folded loop is (`kind: folded`), after its position.
const FOLDED_TEXT: &str =
    "folded by the optimizer: its cost is a closed form or it was deleted; parameters unknown";

/// `qsort over {n} (n log n)`.
fn library_text(l: &LoopSummary) -> String {
    let routine = l.routine.as_deref().unwrap_or("library routine");
    let size = if l.params.is_empty() {
        "a size that depends on no parameter".to_string()
    } else {
        format!("{{{}}}", l.params.join(", "))
    };
    // A linear cost is what "over" says already; others are shown as the database
    // writes them, in the routine's size n.
    match l.cost.as_deref() {
        Some(c) if !c.is_empty() && c != "n" => format!("{routine} over {size} ({c})"),
        _ => format!("{routine} over {size}"),
    }
}

/// Loops the optimizer folded in functions that are not parameter-dependent: such a
/// function is constant as compiled, which says nothing about the loop as written.
fn folded_section(out: &mut String, s: &Summary, files: &Files, o: &RenderOptions) {
    if s.folded.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nLoops folded by the optimizer ({}): the functions are not simply constant",
        s.folded.len()
    );
    let cap = if o.verbose { usize::MAX } else { o.cap };
    let mut t = Table::new(&[Align::Left, Align::Left, Align::Left]);
    for l in s.folded.iter().take(cap) {
        t.row([
            shown_name(&l.function),
            location(files, &l.file, l.line),
            format!(
                "folded by the optimizer (line {}): its cost is a closed form or it was deleted; parameters unknown",
                l.line
            ),
        ]);
    }
    out.push_str(&t.render("  "));
    if s.folded.len() > cap {
        let _ = writeln!(
            out,
            "  ... and {} more (--verbose lists all)",
            s.folded.len() - cap
        );
    }
}

fn constant_section(out: &mut String, s: &Summary, files: &Files, o: &RenderOptions) {
    let c = &s.constant_functions;
    if s.schema_version < 2 {
        if !c.dynamically_pruned.is_empty() {
            let _ = writeln!(
                out,
                "\nFunctions whose loops depend on no parameter ({})",
                c.dynamically_pruned.len()
            );
            let mut t = Table::new(&[Align::Left, Align::Left]);
            for f in &c.dynamically_pruned {
                t.row([shown_name(&f.name), location(files, &f.file, f.line)]);
            }
            out.push_str(&t.render("  "));
        }
        if c.without_loops > 0 {
            let _ = writeln!(
                out,
                "\n{} without loops (constant unless they call something that loops)",
                plural(c.without_loops, "function", "functions")
            );
        }
        return;
    }
    let total = c.statically_pruned.len() + c.dynamically_pruned.len();
    if total == 0 {
        return;
    }
    let _ = writeln!(
        out,
        "\nConstant functions: depend on no parameter ({total}; their models are constant)"
    );
    let list = |out: &mut String, refs: &[super::summary::FunctionRef], indent: &str| {
        let cap = if o.verbose { usize::MAX } else { o.cap };
        let mut t = Table::new(&[Align::Left, Align::Left]);
        for f in refs.iter().take(cap) {
            t.row([shown_name(&f.name), location(files, &f.file, f.line)]);
        }
        out.push_str(&t.render(indent));
        if refs.len() > cap {
            let _ = writeln!(
                out,
                "{indent}... and {} more (--verbose lists all)",
                refs.len() - cap
            );
        }
    };
    if !c.statically_pruned.is_empty() {
        if o.verbose {
            let _ = writeln!(
                out,
                "  statically pruned ({}): proved constant at compile time",
                c.statically_pruned.len()
            );
            list(out, &c.statically_pruned, "    ");
        } else {
            let _ = writeln!(
                out,
                "  statically pruned ({}): proved constant at compile time (--verbose lists them)",
                c.statically_pruned.len()
            );
        }
    }
    if !c.dynamically_pruned.is_empty() {
        let _ = writeln!(
            out,
            "  dynamically pruned ({}): ran, and no loop in them or their callees depended on a parameter",
            c.dynamically_pruned.len()
        );
        list(out, &c.dynamically_pruned, "    ");
    }
}

fn never_executed_section(out: &mut String, s: &Summary, files: &Files, o: &RenderOptions) {
    let n = &s.never_executed;
    if n.branches.is_empty() && n.functions.is_empty() && n.loops.is_empty() {
        return;
    }
    let cap = if o.verbose { usize::MAX } else { o.cap };
    let more = |out: &mut String, total: usize| {
        if total > cap {
            let _ = writeln!(
                out,
                "    ... and {} more (--verbose lists all)",
                total - cap
            );
        }
    };
    out.push_str("\nCode paths never executed in this run (other inputs may behave differently)\n");
    if !n.branches.is_empty() {
        let dependent = n
            .branches
            .iter()
            .filter(|b| !b.branch.params.is_empty())
            .count();
        let _ = writeln!(
            out,
            "  branches with a side never taken ({}, {} parameter-dependent)",
            n.branches.len(),
            dependent
        );
        let mut t = Table::new(&[Align::Left, Align::Left, Align::Left]);
        for b in n.branches.iter().take(cap) {
            t.row([
                location(files, &b.file, b.branch.line),
                b.function.clone(),
                branch_text(&b.branch),
            ]);
        }
        out.push_str(&t.render("    "));
        more(out, n.branches.len());
    }
    if !n.functions.is_empty() {
        let _ = writeln!(out, "  functions never called ({})", n.functions.len());
        let mut t = Table::new(&[Align::Left, Align::Left]);
        for f in n.functions.iter().take(cap) {
            t.row([location(files, &f.file, f.line), shown_name(&f.name)]);
        }
        out.push_str(&t.render("    "));
        more(out, n.functions.len());
    }
    if !n.loops.is_empty() {
        let _ = writeln!(
            out,
            "  loops never run ({}): their parameters are unknown from this run",
            n.loops.len()
        );
        let mut t = Table::new(&[Align::Left, Align::Left]);
        for l in n.loops.iter().take(cap) {
            t.row([location(files, &l.file, l.line), l.function.clone()]);
        }
        out.push_str(&t.render("    "));
        more(out, n.loops.len());
    }
}

fn warnings(out: &mut String, s: &Summary) {
    if s.warnings.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nWarnings ({})", s.warnings.len());
    for w in &s.warnings {
        let _ = writeln!(out, "  - {w}");
    }
}

fn next_steps(out: &mut String, s: &Summary) {
    if s.schema_version < 2 {
        return;
    }
    let relevant = s.functions.iter().filter(|f| f.is_relevant()).count();
    if relevant == 0 {
        return;
    }
    let example: Vec<String> = s
        .recommendation
        .as_ref()
        .and_then(|r| r.pair.as_ref())
        .map(|p| p.params.clone())
        .unwrap_or_else(|| s.parameters.iter().take(2).cloned().collect())
        .iter()
        .map(|p| format!("{p}=V1,V2,..."))
        .collect();
    let _ = writeln!(
        out,
        "\nNext: taintprof report {} --design {}   (the runs an empirical model needs)\n      taintprof report {} --scorep-filter filter.txt   (Score-P instruments only the {} {})",
        s.report,
        example.join(" "),
        s.report,
        relevant,
        if relevant == 1 { "relevant function" } else { "relevant functions" }
    );
}

/// How source files are shown: the directory holding most of the program's functions
/// is printed once (`sources` in the header) and left out of every location; other
/// files are shown in full with `..` resolved. The system's headers do not count: a
/// C++ program's template instantiations from `/usr/include/c++` outnumber its own
/// functions, and the user's directory is the one worth leaving out.
pub struct Files {
    base: Option<String>,
}

impl Files {
    pub fn new(s: &Summary) -> Files {
        Files::from_files(s.functions.iter().map(|f| f.file.as_str()))
    }

    /// From the files of the program's functions, in report order.
    pub fn from_files<'a>(files: impl Iterator<Item = &'a str>) -> Files {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for f in files {
            let file = normalize(f);
            let Some((dir, _)) = file.rsplit_once('/') else {
                continue;
            };
            if dir.is_empty() || is_system_header(&file) {
                continue;
            }
            match counts.iter_mut().find(|(d, _)| d == dir) {
                Some((_, n)) => *n += 1,
                None => counts.push((dir.to_string(), 1)),
            }
        }
        // The deepest directory that holds (with its subdirectories) nine in ten of the
        // program's functions: a project's top directory when its sources are spread
        // over subdirectories (opus: `celt/`, `silk/`, `src/`), its only directory when
        // they are not. Failing that (sources in unrelated places), the first directory
        // with the most functions (report order breaks ties).
        let total: usize = counts.iter().map(|(_, n)| n).sum();
        let mut deepest: Option<(&str, usize)> = None;
        for (d, _) in &counts {
            let mut a = d.as_str();
            while !a.is_empty() {
                let under: usize = counts
                    .iter()
                    .filter(|(e, _)| {
                        e == a || (e.starts_with(a) && e.as_bytes().get(a.len()) == Some(&b'/'))
                    })
                    .map(|(_, n)| n)
                    .sum();
                let depth = a.matches('/').count();
                if under * 10 >= total * 9 && deepest.map_or(true, |(_, k)| depth > k) {
                    deepest = Some((a, depth));
                }
                a = a.rsplit_once('/').map_or("", |(p, _)| p);
            }
        }
        if let Some((d, _)) = deepest {
            return Files {
                base: Some(format!("{d}/")),
            };
        }
        let mut best: Option<(String, usize)> = None;
        for (d, n) in counts {
            if best.as_ref().map_or(true, |(_, m)| n > *m) {
                best = Some((d, n));
            }
        }
        Files {
            base: best.map(|(d, _)| format!("{d}/")),
        }
    }

    /// The directory left out of locations, with a trailing `/`.
    pub fn base(&self) -> Option<&str> {
        self.base.as_deref()
    }

    /// How `file` is shown.
    pub fn show(&self, file: &str) -> String {
        let file = normalize(file);
        match &self.base {
            Some(b) => file.strip_prefix(b.as_str()).unwrap_or(&file).to_string(),
            None => file,
        }
    }
}

/// Whether `file` is one of the system's headers (C and C++ standard libraries, the
/// compilers' own), not the user's code. (The pass has the same rule for allocation
/// sites, `pass/src/denormal/mod.rs`.)
fn is_system_header(file: &str) -> bool {
    ["/usr/include/", "/usr/lib/", "/usr/local/include/"]
        .iter()
        .any(|p| file.starts_with(p))
        || file.contains("/include/c++/")
}

/// `file` with `.` and `..` components resolved lexically.
pub fn normalize(file: &str) -> String {
    if !file.contains("/.") && !file.starts_with('.') {
        return file.to_string();
    }
    let absolute = file.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for c in file.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            c => parts.push(c),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// `file:line` as shown (the common source directory left out).
pub fn location(files: &Files, file: &str, line: u32) -> String {
    let file = files.show(file);
    match (file.is_empty(), line) {
        (true, 0) => "(no debug info)".to_string(),
        (true, l) => format!("line {l}"),
        (false, 0) => file.to_string(),
        (false, l) => format!("{file}:{l}"),
    }
}

/// `file:line`, with `:column` when another loop of the function starts on that line.
fn loop_location(files: &Files, f: &FunctionSummary, l: &LoopSummary) -> String {
    let shared = f.loops.iter().filter(|o| o.line == l.line).count() > 1;
    let base = location(files, &f.file, l.line);
    if shared && l.line != 0 {
        format!("{base}:{}", l.column)
    } else {
        base
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::parse;
    use crate::report::summary::{summarize, summarize_with, SummaryOptions};

    const V1: &str = include_str!("../../tests/fixtures/matmul.4242.taintprof.json");
    const V2: &str = include_str!("../../tests/fixtures/solver.4711.taintprof.json");

    fn v1() -> Summary {
        summarize(&parse(V1).unwrap(), "matmul.4242.taintprof.json")
    }

    fn v2() -> Summary {
        summarize(&parse(V2).unwrap(), "solver.4711.taintprof.json")
    }

    /// Compares with a golden file; `TAINTPROF_BLESS=1` rewrites it instead.
    fn golden(got: &str, name: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        if std::env::var_os("TAINTPROF_BLESS").is_some() {
            std::fs::write(&path, got).unwrap();
            return;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(got, want, "\n--- got ({name}) ---\n{got}");
    }

    /// The lines from the one starting with `from` up to (excluding) the next blank line.
    fn section(text: &str, from: &str) -> String {
        let start = text
            .find(from)
            .unwrap_or_else(|| panic!("no `{from}` in:\n{text}"));
        let rest = &text[start..];
        let end = rest.find("\n\n").map(|e| e + 1).unwrap_or(rest.len());
        rest[..end].to_string()
    }

    /// A merged report of four MPI ranks with an implicit `p` and a loop the ranks
    /// disagree about.
    fn merged_ranks() -> Summary {
        let v = serde_json::json!({
            "schema": "taintprof.taint", "version": 4,
            "program": {"name": "app", "argv": ["./app"], "pid": 10},
            "merged_from": {"rank_source": "mpi.rank", "mpi_size": 4, "records": [
                {"rank": 0, "pid": 10}, {"rank": 1, "pid": 11},
                {"rank": 2, "pid": 12}, {"rank": 3, "pid": 13}]},
            "exit": {"reason": "exit", "code": 0},
            "parameters": ["n", "iters", "p"],
            "parameter_info": [
                {"name": "n", "bit": 0, "registrations": 4, "implicit": false},
                {"name": "iters", "bit": 1, "registrations": 4},
                {"name": "p", "bit": 2, "registrations": 4, "implicit": true}],
            "functions": [{
                "name": "halo", "linkage": "halo", "file": "/s/app.c", "line": 5,
                "executed": true, "inclusive_params": ["n", "p"],
                "exclusive_params": ["n", "p"],
                "exclusive_params_by_rank": [
                    {"ranks": [0, 2], "params": ["n"]},
                    {"ranks": [1, 3], "params": ["n", "p"]}],
                "volume": "(n,p)", "exclusive_volume": "(n,p)",
                "loops": [{"line": 6, "column": 3, "params": ["n", "p"],
                    "params_by_rank": [
                        {"ranks": [0, 2], "params": ["n"]},
                        {"ranks": [3, 1], "params": ["p", "n"]}],
                    "executions": 4}]
            }],
        });
        summarize(
            &parse(&crate::report::complete(v)).unwrap(),
            "app.mpi4.10.taintprof.json",
        )
    }

    #[test]
    fn implicit_parameters_and_ranks_that_disagree_are_shown() {
        let s = merged_ranks();
        assert_eq!(s.implicit_parameters, ["p"]);
        assert_eq!(s.merged_from.as_ref().unwrap().description, "4 ranks (0-3)");
        // Sets in registration order.
        assert_eq!(
            s.functions[0].loops[0].params_by_rank[1].params,
            ["n".to_string(), "p".to_string()]
        );
        let full = full(&s);
        assert!(
            full.contains("  parameters    n, iters, p (implicit)\n"),
            "{full}"
        );
        assert!(
            full.contains("  merged        from 4 ranks (0-3) of an MPI run of 4\n"),
            "{full}"
        );
        assert!(
            full.contains("ranks disagree (own loops): 0,2: n; 1,3: n, p\n"),
            "{full}"
        );
        assert!(
            full.contains("\n                  ranks disagree: 0,2: n; 1,3: n, p\n"),
            "{full}"
        );
        let short = short(&s);
        assert!(
            short.starts_with(
                "taintprof: app (pid 10): exit code 0; merged from 4 ranks (0-3); parameters: n, iters, p (implicit)\n"
            ),
            "{short}"
        );
        assert!(
            short.contains("1 loop whose parameters differ between ranks"),
            "{short}"
        );
        // Records that are not ranks are "records", numbered by position.
        let mut s = s;
        if let Some(m) = s.merged_from.as_mut() {
            m.mpi = false;
            m.description = "4 records".to_string();
        }
        let full = full_with(&s, &RenderOptions::default());
        assert!(
            full.contains("records disagree: 0,2: n; 1,3: n, p"),
            "{full}"
        );
        assert!(full.contains("from 4 records (numbered 0-3"), "{full}");
        // Without merge keys nothing of this is printed.
        let plain = full_with(&v2(), &RenderOptions::default());
        assert!(!plain.contains("disagree") && !plain.contains("implicit"));
        assert!(!plain.contains("  merged "));
    }

    #[test]
    fn paths_are_normalized_for_display() {
        assert_eq!(
            normalize("/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/x.h"),
            "/usr/include/c++/12/x.h"
        );
        assert_eq!(normalize("./a/./b.c"), "a/b.c");
        assert_eq!(normalize("../x/../y.c"), "../y.c");
        assert_eq!(normalize("/a/b.c"), "/a/b.c");
        assert_eq!(normalize("b.c"), "b.c");
    }

    #[test]
    fn the_main_source_directory_is_factored_out() {
        let files = Files::from_files(
            [
                "/src/proj/matmul.c",
                "/src/proj/matmul.c",
                "/usr/include/c++/12/../12/bits/x.h",
            ]
            .into_iter(),
        );
        assert_eq!(files.base(), Some("/src/proj/"));
        assert_eq!(files.show("/src/proj/matmul.c"), "matmul.c");
        assert_eq!(files.show("/src/proj/sub/k.c"), "sub/k.c");
        assert_eq!(
            files.show("/usr/include/c++/12/../12/bits/x.h"),
            "/usr/include/c++/12/bits/x.h"
        );
        // A C++ program: more instantiated library functions than its own.
        let files = Files::from_files(
            [
                "/usr/include/c++/12/bits/stl_vector.h",
                "/usr/include/c++/12/bits/stl_vector.h",
                "/usr/include/c++/12/bits/basic_string.h",
                "/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/bits/new_allocator.h",
                "/src/parser/parser.cpp",
            ]
            .into_iter(),
        );
        assert_eq!(files.base(), Some("/src/parser/"));
        // Sources in subdirectories of one project: its top directory.
        let opus = [
            "/b/opus/celt/bands.c",
            "/b/opus/celt/celt.c",
            "/b/opus/silk/float/a.c",
            "/b/opus/silk/b.c",
            "/b/opus/silk/c.c",
            "/b/opus/src/opus.c",
        ];
        let files = Files::from_files(opus.into_iter());
        assert_eq!(files.base(), Some("/b/opus/"));
        assert_eq!(files.show("/b/opus/silk/float/a.c"), "silk/float/a.c");
        // Nine in ten in one directory, one file elsewhere: that directory.
        let mostly: Vec<String> = (0..9)
            .map(|k| format!("/p/q/f{k}.c"))
            .chain(["/opt/lib/x.c".to_string()])
            .collect();
        let files = Files::from_files(mostly.iter().map(String::as_str));
        assert_eq!(files.base(), Some("/p/q/"));
        // Unrelated places, none with nine in ten: the directory with the most.
        let files = Files::from_files(["/a/x.c", "/a/y.c", "/c/z.c"].into_iter());
        assert_eq!(files.base(), Some("/a/"));
        // `/ab` is not under `/a`.
        let files = Files::from_files(["/w/a/x.c", "/w/ab/y.c"].into_iter());
        assert_eq!(files.base(), Some("/w/"));
    }

    #[test]
    fn v2_full_report_matches_golden_text() {
        golden(&full(&v2()), "solver.report.txt");
    }

    #[test]
    fn v2_verbose_report_matches_golden_text() {
        let o = RenderOptions {
            verbose: true,
            ..RenderOptions::default()
        };
        golden(&full_with(&v2(), &o), "solver.report.verbose.txt");
    }

    #[test]
    fn v2_short_summary_matches_golden_text() {
        golden(&short(&v2()), "solver.short.txt");
    }

    #[test]
    fn v1_full_report_matches_golden_text() {
        golden(&full(&v1()), "matmul.report.txt");
    }

    #[test]
    fn v1_short_summary_matches_golden_text() {
        golden(&short(&v1()), "matmul.short.txt");
    }

    #[test]
    fn header_says_whether_control_flow_was_tainted() {
        let mut s = v2();
        let h = section(&full(&s), "taintprof report");
        assert!(
            h.contains("  control flow  tainted (labels also flow through branches)\n"),
            "{h}"
        );
        s.control_flow = false;
        let h = section(&full(&s), "taintprof report");
        assert!(
            h.contains("not tainted (data flow only; built with --tp-control-flow=off)"),
            "{h}"
        );
        assert!(!h.contains("schema"), "{h}");
    }

    #[test]
    fn table_2_section() {
        assert_eq!(
            section(&full(&v2()), "What the analysis pruned"),
            "What the analysis pruned (Perf-Taint, Table 2)
             total  statically pruned  ran, constant  relevant  never ran
  functions     12                  2              1         7          2
  loops         13                  1              1         8          3
  statically pruned: proved constant at compile time; ran, constant: depended on no
  parameter in this run (functions: dynamically pruned); relevant: ran and depends on one
"
        );
    }

    #[test]
    fn table_3_section_with_subsets() {
        let r = parse(V2).unwrap();
        let s = summarize_with(
            &r,
            "solver.4711.taintprof.json",
            &SummaryOptions {
                subsets: vec!["iters,algo".into()],
            },
        )
        .unwrap();
        assert_eq!(
            section(&full(&s), "What depends on each parameter"),
            "What depends on each parameter (Perf-Taint, Table 3; functions counted by their own loops)
             total  n  iters  algo  n,iters  n,iters,algo  iters,algo
  functions      6  4      2     1        5             6           3
  loops          8  6      2     1        7             8           3
  total: any parameter; n,iters and n,iters,algo: the recommended pair and triple; iters,algo: --subset
  recommended: model with (n, iters) — covers 5 of 6 parameter-dependent functions; with (n, iters, algo): 6 of 6
"
        );
    }

    /// One function block: its heading line and the indented lines under it.
    fn block(text: &str, heading: &str) -> String {
        let start = text
            .find(&format!("\n{heading}"))
            .unwrap_or_else(|| panic!("no `{heading}` in:\n{text}"))
            + 1;
        let mut out = String::new();
        for (i, l) in text[start..].lines().enumerate() {
            if i > 0 && !l.starts_with("    ") {
                break;
            }
            out.push_str(l);
            out.push('\n');
        }
        out
    }

    #[test]
    fn function_blocks() {
        let text = full(&v2());
        assert_eq!(
            block(&text, "  solve  "),
            "  solve  solver.c:59
    parameters  n, iters (own loops: iters)
    volume      n^2*iters + n (own loops: iters)
    pairs       n×iters multiplicative
    loops       line 60  iters  1 run
    branches    line 61: if on {algo}; never took the branch at line 64
                line 65: if on {iters}; took both ways
"
        );
        assert_eq!(
            block(&text, "  fill  "),
            "  fill  solver.c:33
    parameters  n, iters
    volume      n^2 + iters
    pairs       n+iters additive
    loops       line 34    n, iters    2 runs
                  line 35  n         164 runs
    contexts    main:112  n      n^2
                main:113  iters  iters
"
        );
        assert_eq!(
            block(&text, "  main  "),
            "  main  solver.c:96
    parameters  n, iters, algo (through callees; own loops: none)
    volume      n^2*iters + n^2 + n + iters + algo (own loops: constant)
    pairs       n×iters multiplicative; n+algo, iters+algo additive
"
        );
        assert_eq!(
            block(&text, "  refine  "),
            "  refine  solver.c:71  recursive: parameters and volume over-approximate
    parameters  n
    volume      n
    loops       line 72  n  7 runs
    branches    line 74: if on {n}; took both ways
"
        );
    }

    #[test]
    fn branch_descriptions() {
        let s = v2();
        let stencil = s
            .functions
            .iter()
            .find(|f| f.name == "make_stencil")
            .unwrap();
        assert_eq!(
            branch_text(&stencil.branches[0]),
            "switch on {algo}; never took the cases at lines 26, 27 (default)"
        );
        let mut b = stencil.branches[0].clone();
        for x in &mut b.successors {
            x.taken = false;
        }
        b.untaken_lines = b.successors.iter().map(|s| s.line).collect();
        assert_eq!(branch_text(&b), "switch on {algo}; never reached");
        for x in &mut b.successors {
            x.taken = true;
        }
        b.untaken_lines.clear();
        b.params.clear();
        assert_eq!(branch_text(&b), "switch (no parameter); took every case");
    }

    #[test]
    fn constant_and_never_executed_sections() {
        let text = full(&v2());
        assert_eq!(
            section(&text, "Constant functions"),
            "Constant functions: depend on no parameter (3; their models are constant)
  statically pruned (2): proved constant at compile time (--verbose lists them)
  dynamically pruned (1): ran, and no loop in them or their callees depended on a parameter
    checksum  solver.c:80
"
        );
        assert_eq!(
            section(&text, "Code paths never executed"),
            "Code paths never executed in this run (other inputs may behave differently)
  branches with a side never taken (3, 2 parameter-dependent)
    solver.c:24  make_stencil  switch on {algo}; never took the cases at lines 26, 27 (default)
    solver.c:61  solve         if on {algo}; never took the branch at line 64
    solver.c:97  main          if (no parameter); never took the branch at line 98
  functions never called (2)
    solver.c:46  gauss_seidel
    solver.c:89  usage
"
        );
    }

    #[test]
    fn long_lists_are_capped_unless_verbose() {
        let s = v2();
        let capped = RenderOptions {
            verbose: false,
            cap: 2,
        };
        let text = full_with(&s, &capped);
        let never = section(&text, "Code paths never executed");
        assert!(
            never.contains("    ... and 1 more (--verbose lists all)\n"),
            "{never}"
        );
        assert!(!never.contains("solver.c:97"), "{never}");
        let all = full_with(
            &s,
            &RenderOptions {
                verbose: true,
                cap: 2,
            },
        );
        assert!(section(&all, "Code paths never executed").contains("solver.c:97"));
        assert!(all.contains("  statically pruned (2): proved constant at compile time\n    clamp         solver.c:15\n    print_banner  solver.c:17\n"), "{all}");
    }

    #[test]
    fn recommendation_wording() {
        let mut s = v2();
        assert_eq!(
            recommendation_line(&s).unwrap(),
            "recommended: model with (n, iters) — covers 5 of 6 parameter-dependent functions; with (n, iters, algo): 6 of 6"
        );
        if let Some(r) = &mut s.recommendation {
            if let Some(t) = &mut r.triple {
                t.functions = 5;
            }
        }
        assert!(recommendation_line(&s)
            .unwrap()
            .ends_with("; a third parameter covers no more"));
        s.recommendation = None;
        assert_eq!(recommendation_line(&s), None);
    }

    #[test]
    fn a_few_modules_are_listed_and_many_are_summed() {
        let m = |source: &str, functions, loops| ModuleSummary {
            source: source.to_string(),
            functions,
            loops,
            library_loops: 0,
            folded_loops: 0,
        };
        let files = Files::from_files(["/p/a.c", "/p/b.c"].into_iter());
        let few = [m("/p/a.c", 1, 0), m("/p/b.c", 3, 2)];
        assert_eq!(
            modules_line(&few, &files),
            "a.c (compiled: 1 function, 0 IR loops); b.c (compiled: 3 functions, 2 IR loops)"
        );
        let mut lib = m("/p/b.c", 3, 2);
        lib.library_loops = 2;
        lib.folded_loops = 1;
        assert_eq!(
            modules_line(&[lib], &files),
            "b.c (compiled: 3 functions, 2 IR loops, 2 library loops, 1 folded)"
        );
        let many: Vec<ModuleSummary> = (0..31).map(|k| m(&format!("/p/m{k}.c"), 2, 1)).collect();
        assert_eq!(
            modules_line(&many, &files),
            "31 modules (compiled: 62 functions, 31 IR loops): m0.c, m1.c, m2.c and 28 more"
        );
    }
}
