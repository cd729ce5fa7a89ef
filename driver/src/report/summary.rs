//! The presentation model of a taint report: what `taintprof report` shows, and what
//! `taintprof report --json` prints (stable keys, in this order).
//!
//! Everything here is selecting, ordering and counting over the runtime's results: the
//! classification of functions (from `statically_pruned`, `executed`,
//! `inclusive_params`), Table 2 (`summary`), Table 3 (`coverage`), the recommendation,
//! volumes and pairs all come from the report. The driver counts only for `--subset`
//! columns (over the report's `exclusive_params` and loop `params`, as the schema
//! defines coverage) and, for version 1 reports, which have no model structure, for the
//! per-parameter table and the loop row of Table 2.

use super::volume::Term;
use super::{Branch, CallSite, Function, Loop, LoopKind, RankParams, Report};
use serde::Serialize;

/// What to add to the summary beyond the report itself.
#[derive(Debug, Clone, Default)]
pub struct SummaryOptions {
    /// `--subset a,b[,c]` (repeatable): extra coverage columns, as given on the command
    /// line (comma-separated names).
    pub subsets: Vec<String>,
}

/// The summary of one report.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The report file this summary was made from.
    pub report: String,
    /// The report's schema version (1 has no model structure).
    pub schema_version: u64,
    pub program: ProgramSummary,
    /// A report merged from several records (MPI ranks, repeated runs); absent from
    /// the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_from: Option<MergedSummary>,
    pub exit: ExitSummary,
    /// Whether the program ended normally (the report is complete).
    pub complete: bool,
    pub parameters: Vec<String>,
    /// The parameters the runtime registered itself (`p`), registration order; absent
    /// from the JSON when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub implicit_parameters: Vec<String>,
    pub rejected_parameters: Vec<RejectedSummary>,
    pub control_flow: bool,
    pub threads: u64,
    pub modules: Vec<ModuleSummary>,
    /// Table 2 of the paper: what was pruned, what is relevant.
    pub pruning: Pruning,
    /// Table 3 of the paper: coverage per parameter, recommended subsets, `--subset`s.
    pub coverage: Coverage,
    /// The report's best pair and triple (version 2).
    pub recommendation: Option<RecommendationSummary>,
    /// Every function: parameter-dependent ones first (more parameters first, then by
    /// name), then the others in report order.
    pub functions: Vec<FunctionSummary>,
    pub constant_functions: ConstantFunctions,
    /// Loops the optimizer folded (`kind: folded`) in functions that are not
    /// parameter-dependent: what makes such a function look constant may be the
    /// optimizer's doing (their own loop rows say so in the others).
    pub folded: Vec<LoopRef>,
    pub never_executed: NeverExecuted,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProgramSummary {
    pub name: String,
    pub path: String,
    pub argv: Vec<String>,
    pub pid: u64,
    pub taintprof_version: String,
}

/// Where a merged report's records came from (`merged_from`).
#[derive(Debug, Clone, Serialize)]
pub struct MergedSummary {
    /// The records are numbered by their MPI rank (else by their position).
    pub mpi: bool,
    /// Their common `mpi.size`.
    pub mpi_size: Option<u64>,
    /// The records' numbers, ascending.
    pub ranks: Vec<u32>,
    /// `4 ranks (0-3)`, `3 records`.
    pub description: String,
}

/// Records (by number) that saw one parameter set.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RankParamsSummary {
    pub ranks: Vec<u32>,
    pub params: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExitSummary {
    /// `exit`, `signal` or `running` (as in the report).
    pub reason: String,
    pub code: Option<i64>,
    pub signal: Option<String>,
    /// e.g. `exit code 0`, `killed by SIGSEGV (signal 11)`.
    pub description: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct RejectedSummary {
    pub name: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModuleSummary {
    pub source: String,
    pub functions: u64,
    pub loops: u64,
    pub library_loops: u64,
    pub folded_loops: u64,
}

/// Table 2. In version 1 reports only the function total is known (`null` otherwise)
/// and the loop row is counted from the loops.
#[derive(Debug, Clone, Serialize)]
pub struct Pruning {
    pub functions: PruningRow,
    pub loops: PruningRow,
}

/// One row of Table 2. For loops, `ran_constant` is the report's `constant`; for
/// functions its `dynamically_pruned`.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PruningRow {
    pub total: u64,
    pub statically_pruned: Option<u64>,
    pub ran_constant: Option<u64>,
    pub relevant: Option<u64>,
    pub never_ran: Option<u64>,
}

/// Table 3.
#[derive(Debug, Clone, Serialize)]
pub struct Coverage {
    /// Functions whose own loops depend on some parameter; loops that depend on some
    /// parameter.
    pub total: Count,
    /// One column per registered parameter, then the recommended pair and triple, then
    /// each `--subset`.
    pub columns: Vec<CoverageColumn>,
}

#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct Count {
    pub functions: u64,
    pub loops: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct CoverageColumn {
    /// `parameter`, `pair`, `triple` (recommended) or `subset` (`--subset`).
    pub kind: &'static str,
    pub params: Vec<String>,
    pub functions: u64,
    pub loops: u64,
}

impl CoverageColumn {
    /// The column heading, `n,iters`.
    pub fn label(&self) -> String {
        self.params.join(",")
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct RecommendationSummary {
    pub pair: Option<Choice>,
    pub triple: Option<Choice>,
    /// What the choices are out of: the coverage total.
    pub out_of: Count,
}

#[derive(Debug, Clone, Serialize)]
pub struct Choice {
    pub params: Vec<String>,
    pub functions: u64,
    pub loops: u64,
}

/// How a function was classified (Table 2 categories).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FunctionClass {
    /// Ran and depends on a parameter.
    Relevant,
    /// Proved constant at compile time.
    StaticallyPruned,
    /// Ran and depends on no parameter.
    DynamicallyPruned,
    /// Not statically pruned and never executed.
    NeverRan,
    /// Version 1: has loops that ran, none depending on a parameter.
    Constant,
    /// Version 1: has no loops (nothing more is known).
    NoLoops,
}

#[derive(Debug, Clone, Serialize)]
pub struct FunctionSummary {
    pub name: String,
    pub linkage: String,
    pub file: String,
    pub line: u32,
    pub class: FunctionClass,
    pub recursive: bool,
    /// What the function and its callees depend on (version 1: its own loops only).
    pub inclusive_params: Vec<String>,
    /// What the function's own loops depend on.
    pub exclusive_params: Vec<String>,
    /// Which records saw which `exclusive_params` where a merged report's records
    /// disagree (else empty, and absent from the JSON).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclusive_params_by_rank: Vec<RankParamsSummary>,
    /// Iteration volume per call, callees included (version 2).
    pub volume: Option<String>,
    /// `volume` as terms (`None` in reports older than them).
    pub volume_terms: Option<Vec<Term>>,
    /// Over the function's own loops (version 2).
    pub exclusive_volume: Option<String>,
    /// `exclusive_volume` as terms (`None` in reports older than them).
    pub exclusive_volume_terms: Option<Vec<Term>>,
    pub pairs: Vec<PairSummary>,
    /// Per calling context (version 2).
    pub contexts: Vec<FunctionContextSummary>,
    /// Whether the contexts differ in parameters or volume.
    pub contexts_differ: bool,
    /// Contexts the report does not list (the runtime's `TAINTPROF_MAX_CONTEXTS`).
    pub contexts_omitted: u64,
    pub branches: Vec<BranchSummary>,
    pub loops: Vec<LoopSummary>,
}

impl FunctionSummary {
    pub fn is_relevant(&self) -> bool {
        self.class == FunctionClass::Relevant
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PairSummary {
    pub a: String,
    pub b: String,
    /// `multiplicative` or `additive`.
    pub kind: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct FunctionContextSummary {
    /// e.g. `main:48 → compute:20`.
    pub path: String,
    pub inclusive_params: Vec<String>,
    pub volume: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BranchSummary {
    pub line: u32,
    pub column: u32,
    /// `if` or `switch`.
    pub kind: String,
    pub params: Vec<String>,
    pub successors: Vec<SuccessorSummary>,
    /// First lines of the successors never taken, in successor order.
    pub untaken_lines: Vec<u32>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct SuccessorSummary {
    pub line: u32,
    pub taken: bool,
}

impl BranchSummary {
    /// No successor was ever taken: the branch itself never ran.
    pub fn never_reached(&self) -> bool {
        !self.successors.is_empty() && self.successors.iter().all(|s| !s.taken)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct LoopSummary {
    pub line: u32,
    pub column: u32,
    pub parent_line: Option<u32>,
    /// Nesting depth among the function's loops (0 = outermost), from `parent_line`.
    pub depth: usize,
    pub params: Vec<String>,
    /// The parameters of `params` that came only through control flow.
    pub control_only_params: Vec<String>,
    /// Which records saw which `params` where a merged report's records disagree (else
    /// empty, and absent from the JSON).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params_by_rank: Vec<RankParamsSummary>,
    pub executions: u64,
    pub const_trip_count: Option<u64>,
    /// `loop`, `library` (a routine call over its size) or `folded`.
    pub kind: LoopKind,
    /// Library loops: the routine and its cost formula.
    pub routine: Option<String>,
    pub cost: Option<String>,
    /// The function's recursion (a loop over the decisions that choose to recurse).
    pub recursion: bool,
    /// The calling contexts, only when they differ in their parameter sets.
    pub contexts: Vec<LoopContextSummary>,
    /// Contexts the report does not list (the runtime's `TAINTPROF_MAX_CONTEXTS`).
    pub contexts_omitted: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct LoopContextSummary {
    /// e.g. `main:48 → compute:20`.
    pub path: String,
    pub params: Vec<String>,
    pub executions: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct FunctionRef {
    pub name: String,
    pub file: String,
    pub line: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct ConstantFunctions {
    pub statically_pruned: Vec<FunctionRef>,
    /// Ran without depending on any parameter (version 1: functions whose loops ran and
    /// depend on none).
    pub dynamically_pruned: Vec<FunctionRef>,
    /// Version 1: functions without loops (unclassified).
    pub without_loops: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct NeverExecuted {
    /// Branches of functions that ran with a successor never taken: parameter-dependent
    /// ones first, then in report order.
    pub branches: Vec<BranchRef>,
    /// Functions that never ran (not statically pruned).
    pub functions: Vec<FunctionRef>,
    /// Loops that never ran, in functions that did (version 1: all of them).
    pub loops: Vec<LoopRef>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BranchRef {
    pub function: String,
    pub file: String,
    #[serde(flatten)]
    pub branch: BranchSummary,
}

#[derive(Debug, Clone, Serialize)]
pub struct LoopRef {
    pub function: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// Builds the summary with `--subset` columns; fails on an unknown parameter name.
pub fn summarize_with(
    report: &Report,
    source: &str,
    opts: &SummaryOptions,
) -> Result<Summary, String> {
    let mut s = summarize(report, source);
    for spec in &opts.subsets {
        let set = parse_subset(spec, &s.parameters)?;
        if s.coverage.columns.iter().any(|c| c.params == set) {
            continue;
        }
        let c = count_subset(&s, &set);
        s.coverage.columns.push(CoverageColumn {
            kind: "subset",
            params: set,
            functions: c.functions,
            loops: c.loops,
        });
    }
    Ok(s)
}

/// Functions whose own loops (`exclusive_params`) and loops (`params`) depend on at
/// least one parameter of `subset` — the schema's definition of coverage.
pub fn count_subset(s: &Summary, subset: &[String]) -> Count {
    let hits = |set: &[String]| set.iter().any(|p| subset.contains(p));
    Count {
        functions: s
            .functions
            .iter()
            .filter(|f| hits(&f.exclusive_params))
            .count() as u64,
        loops: s
            .functions
            .iter()
            .flat_map(|f| &f.loops)
            .filter(|l| hits(&l.params))
            .count() as u64,
    }
}

/// Builds the summary of `report`, read from the file `source`.
pub fn summarize(report: &Report, source: &str) -> Summary {
    let params = &report.parameters;
    let order = |set: &[String]| order_params(set, params);
    let v2 = report.has_model();

    let mut functions: Vec<FunctionSummary> = report
        .functions
        .iter()
        .map(|f| function_summary(f, v2, params))
        .collect();

    // Table 3 over the report's own per-function and per-loop sets.
    let exclusive_sets: Vec<&Vec<String>> = functions.iter().map(|f| &f.exclusive_params).collect();
    let loop_sets: Vec<Vec<String>> = report
        .functions
        .iter()
        .flat_map(|f| &f.loops)
        .map(|l| order(&l.params))
        .collect();
    let count = |subset: &[String]| -> Count {
        let hits = |set: &[String]| set.iter().any(|p| subset.contains(p));
        Count {
            functions: exclusive_sets.iter().filter(|s| hits(s)).count() as u64,
            loops: loop_sets.iter().filter(|s| hits(s)).count() as u64,
        }
    };
    let total = Count {
        functions: exclusive_sets.iter().filter(|s| !s.is_empty()).count() as u64,
        loops: loop_sets.iter().filter(|s| !s.is_empty()).count() as u64,
    };
    let from_report = |subset: &[String]| -> Option<Count> {
        let want = order(subset);
        report
            .coverage
            .iter()
            .find(|c| order(&c.params) == want)
            .map(|c| Count {
                functions: c.functions,
                loops: c.loops,
            })
    };
    let mut columns = Vec::new();
    for p in params {
        let set = vec![p.clone()];
        let c = if v2 { from_report(&set) } else { None }.unwrap_or_else(|| count(&set));
        columns.push(CoverageColumn {
            kind: "parameter",
            params: set,
            functions: c.functions,
            loops: c.loops,
        });
    }
    let choice = |e: &super::CoverageEntry| Choice {
        params: order(&e.params),
        functions: e.functions,
        loops: e.loops,
    };
    let recommendation = report
        .recommendation
        .as_ref()
        .filter(|_| v2)
        .map(|r| RecommendationSummary {
            pair: r.pair.as_ref().map(choice),
            triple: r.triple.as_ref().map(choice),
            out_of: total,
        })
        .filter(|r| r.pair.is_some() || r.triple.is_some());
    if let Some(r) = &recommendation {
        for (kind, c) in [("pair", &r.pair), ("triple", &r.triple)] {
            if let Some(c) = c {
                columns.push(CoverageColumn {
                    kind,
                    params: c.params.clone(),
                    functions: c.functions,
                    loops: c.loops,
                });
            }
        }
    }

    // Table 2.
    let all_loops = || report.functions.iter().flat_map(|f| &f.loops);
    let pruning = match (&report.summary, v2) {
        (Some(s), true) => Pruning {
            functions: PruningRow {
                total: s.functions.total,
                statically_pruned: Some(s.functions.statically_pruned),
                ran_constant: Some(s.functions.dynamically_pruned),
                relevant: Some(s.functions.relevant),
                never_ran: Some(s.functions.never_ran),
            },
            loops: PruningRow {
                total: s.loops.total,
                statically_pruned: Some(s.loops.statically_pruned),
                ran_constant: Some(s.loops.constant),
                relevant: Some(s.loops.relevant),
                never_ran: Some(s.loops.never_ran),
            },
        },
        _ => {
            // Version 1 (or a report without `summary`): functions are not classified
            // in the report; the loop row is counted from the loops as the schema
            // defines it.
            let n = |p: &dyn Fn(&Loop) -> bool| all_loops().filter(|l| p(l)).count() as u64;
            let fclass =
                |c: FunctionClass| functions.iter().filter(|f| f.class == c).count() as u64;
            Pruning {
                functions: PruningRow {
                    total: functions.len() as u64,
                    statically_pruned: v2.then(|| fclass(FunctionClass::StaticallyPruned)),
                    ran_constant: v2.then(|| fclass(FunctionClass::DynamicallyPruned)),
                    relevant: v2.then(|| fclass(FunctionClass::Relevant)),
                    never_ran: v2.then(|| fclass(FunctionClass::NeverRan)),
                },
                loops: PruningRow {
                    total: all_loops().count() as u64,
                    statically_pruned: Some(n(&|l| l.const_trip_count.is_some())),
                    ran_constant: Some(n(&|l| {
                        l.const_trip_count.is_none() && l.executions > 0 && l.params.is_empty()
                    })),
                    relevant: Some(n(&|l| {
                        l.const_trip_count.is_none() && l.executions > 0 && !l.params.is_empty()
                    })),
                    never_ran: Some(n(&|l| l.const_trip_count.is_none() && l.executions == 0)),
                },
            }
        }
    };

    // Constant functions and code never executed, in report order.
    let fref = |f: &FunctionSummary| FunctionRef {
        name: f.name.clone(),
        file: f.file.clone(),
        line: f.line,
    };
    let mut constant_functions = ConstantFunctions {
        statically_pruned: Vec::new(),
        dynamically_pruned: Vec::new(),
        without_loops: 0,
    };
    let folded: Vec<LoopRef> = functions
        .iter()
        .filter(|f| !f.is_relevant())
        .flat_map(|f| {
            f.loops
                .iter()
                .filter(|l| l.kind == LoopKind::Folded)
                .map(move |l| LoopRef {
                    function: f.name.clone(),
                    file: f.file.clone(),
                    line: l.line,
                    column: l.column,
                })
        })
        .collect();
    let mut never = NeverExecuted {
        branches: Vec::new(),
        functions: Vec::new(),
        loops: Vec::new(),
    };
    for f in &functions {
        match f.class {
            FunctionClass::StaticallyPruned => constant_functions.statically_pruned.push(fref(f)),
            FunctionClass::DynamicallyPruned | FunctionClass::Constant => {
                constant_functions.dynamically_pruned.push(fref(f))
            }
            FunctionClass::NoLoops => constant_functions.without_loops += 1,
            FunctionClass::NeverRan if v2 => never.functions.push(fref(f)),
            FunctionClass::NeverRan | FunctionClass::Relevant => {}
        }
        let ran = matches!(
            f.class,
            FunctionClass::Relevant | FunctionClass::DynamicallyPruned | FunctionClass::Constant
        );
        if ran || !v2 {
            // A folded loop has no code that could run: it is listed apart.
            for l in f
                .loops
                .iter()
                .filter(|l| l.executions == 0 && l.kind != LoopKind::Folded)
            {
                if l.const_trip_count.is_some() && v2 {
                    continue;
                }
                never.loops.push(LoopRef {
                    function: f.name.clone(),
                    file: f.file.clone(),
                    line: l.line,
                    column: l.column,
                });
            }
        }
        if ran {
            for b in f.branches.iter().filter(|b| !b.untaken_lines.is_empty()) {
                never.branches.push(BranchRef {
                    function: f.name.clone(),
                    file: f.file.clone(),
                    branch: b.clone(),
                });
            }
        }
    }
    // Parameter-dependent first; stable, so report order within each group.
    never.branches.sort_by_key(|b| b.branch.params.is_empty());

    // Parameter-dependent functions first: more parameters first, then by name.
    let mut rest = Vec::new();
    let mut relevant = Vec::new();
    for f in functions.drain(..) {
        if f.is_relevant() {
            relevant.push(f);
        } else {
            rest.push(f);
        }
    }
    relevant.sort_by(|a, b| {
        b.inclusive_params
            .len()
            .cmp(&a.inclusive_params.len())
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| a.line.cmp(&b.line))
    });
    relevant.extend(rest);
    let functions = relevant;

    let description = match report.exit.reason.as_str() {
        "exit" => format!("exit code {}", report.exit.code.unwrap_or(0)),
        "signal" => {
            let name = report.exit.signal.as_deref().unwrap_or("a signal");
            match report.exit.number {
                Some(n) => format!("killed by {name} (signal {n})"),
                None => format!("killed by {name}"),
            }
        }
        "running" => "still running (a report written mid-run by tp_write_report)".to_string(),
        "_exit" => format!(
            "_exit({}) (no exit handlers ran; the runtime wrote the report first)",
            report.exit.code.unwrap_or(0)
        ),
        "exec" => {
            "replaced itself with another program (exec); the report covers the run until then"
                .to_string()
        }
        "" => "unknown".to_string(),
        other => other.to_string(),
    };

    Summary {
        report: source.to_string(),
        schema_version: report.version,
        program: ProgramSummary {
            name: report.program.name.clone(),
            path: report.program.path.clone(),
            argv: report.program.argv.clone(),
            pid: report.program.pid,
            taintprof_version: report.taintprof_version.clone(),
        },
        merged_from: report.merged_from.as_ref().map(|m| {
            let mut ranks: Vec<u32> = m.records.iter().map(|r| r.rank).collect();
            ranks.sort_unstable();
            let n = m.records.len();
            let description = if m.by_mpi_rank() {
                format!("{n} ranks ({})", taintprof_record::ranks::ranges(&ranks))
            } else {
                format!("{n} records")
            };
            MergedSummary {
                mpi: m.by_mpi_rank(),
                mpi_size: m.mpi_size,
                ranks,
                description,
            }
        }),
        complete: matches!(report.exit.reason.as_str(), "exit" | "_exit" | "exec"),
        exit: ExitSummary {
            reason: report.exit.reason.clone(),
            code: report.exit.code,
            signal: report.exit.signal.clone(),
            description,
        },
        parameters: params.clone(),
        implicit_parameters: report
            .parameter_info
            .iter()
            .filter(|p| p.implicit)
            .map(|p| p.name.clone())
            .collect(),
        rejected_parameters: report
            .rejected_parameters
            .iter()
            .map(|r| RejectedSummary {
                name: r.name.clone(),
                reason: r.reason.clone(),
            })
            .collect(),
        control_flow: report.options.control_flow,
        threads: report.threads,
        modules: report
            .modules
            .iter()
            .map(|m| ModuleSummary {
                source: m.source.clone(),
                functions: m.functions,
                loops: m.loops,
                library_loops: m.library_loops,
                folded_loops: m.folded_loops,
            })
            .collect(),
        pruning,
        coverage: Coverage { total, columns },
        recommendation,
        functions,
        constant_functions,
        folded,
        never_executed: never,
        warnings: report.warnings.clone(),
    }
}

/// Parses `--subset a,b[,c]` against the registered parameters: names in registration
/// order, without duplicates.
pub fn parse_subset(spec: &str, parameters: &[String]) -> Result<Vec<String>, String> {
    let mut set = Vec::new();
    for name in spec.split(',').map(str::trim) {
        if name.is_empty() {
            return Err(format!(
                "--subset {spec}: empty parameter name; write names separated by commas, e.g. --subset {}",
                example_subset(parameters)
            ));
        }
        if !parameters.iter().any(|p| p == name) {
            return Err(format!(
                "--subset {spec}: unknown parameter `{name}`; {}",
                registered(parameters)
            ));
        }
        set.push(name.to_string());
    }
    Ok(order_params(&set, parameters))
}

/// `the report registers: m, n, k` (or that it registers none).
pub fn registered(parameters: &[String]) -> String {
    if parameters.is_empty() {
        "the report registers no parameters".to_string()
    } else {
        format!("the report registers: {}", parameters.join(", "))
    }
}

fn example_subset(parameters: &[String]) -> String {
    match parameters {
        [a, b, ..] => format!("{a},{b}"),
        _ => "a,b".to_string(),
    }
}

/// `set` in registration order (unknown names last, in their order), without duplicates.
pub fn order_params(set: &[String], parameters: &[String]) -> Vec<String> {
    let mut v = set.to_vec();
    v.sort_by_key(|p| parameters.iter().position(|q| q == p).unwrap_or(usize::MAX));
    let mut seen: Vec<String> = Vec::with_capacity(v.len());
    for p in v {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen
}

fn function_summary(f: &Function, v2: bool, params: &[String]) -> FunctionSummary {
    let order = |set: &[String]| order_params(set, params);
    let loops = loop_summaries(f, params);
    let own: Vec<String> = order(
        &loops
            .iter()
            .flat_map(|l| l.params.clone())
            .collect::<Vec<_>>(),
    );
    let ran_loops = f.loops.iter().any(|l| l.executions > 0);
    let (class, inclusive, exclusive) = if v2 {
        let executed = f.executed.unwrap_or(!f.contexts.is_empty() || ran_loops);
        let inclusive = order(&f.inclusive_params);
        let class = if f.statically_pruned {
            FunctionClass::StaticallyPruned
        } else if !executed {
            FunctionClass::NeverRan
        } else if !inclusive.is_empty() {
            FunctionClass::Relevant
        } else {
            FunctionClass::DynamicallyPruned
        };
        (class, inclusive, order(&f.exclusive_params))
    } else {
        // Version 1: what the function's own loops depend on is all there is.
        let class = if f.loops.is_empty() {
            FunctionClass::NoLoops
        } else if !own.is_empty() {
            FunctionClass::Relevant
        } else if ran_loops {
            FunctionClass::Constant
        } else {
            FunctionClass::NeverRan
        };
        (class, own.clone(), own)
    };

    let contexts: Vec<FunctionContextSummary> = f
        .contexts
        .iter()
        .map(|c| FunctionContextSummary {
            path: render_path(&c.path),
            inclusive_params: order(&c.inclusive_params),
            volume: c.volume.clone(),
        })
        .collect();
    let contexts_differ = contexts
        .windows(2)
        .any(|w| w[0].inclusive_params != w[1].inclusive_params || w[0].volume != w[1].volume);
    let mut pairs: Vec<PairSummary> = f
        .pairs
        .iter()
        .map(|p| PairSummary {
            a: p.a.clone(),
            b: p.b.clone(),
            kind: p.kind.clone(),
        })
        .collect();
    let pos = |n: &str| params.iter().position(|q| q == n).unwrap_or(usize::MAX);
    pairs.sort_by_key(|p| (pos(&p.a), pos(&p.b)));

    FunctionSummary {
        name: f.name.clone(),
        linkage: if f.linkage.is_empty() {
            f.name.clone()
        } else {
            f.linkage.clone()
        },
        file: f.file.clone(),
        line: f.line,
        class,
        recursive: f.recursive,
        inclusive_params: inclusive,
        exclusive_params: exclusive,
        exclusive_params_by_rank: by_rank(&f.exclusive_params_by_rank, params),
        volume: f.volume.clone().filter(|_| v2),
        volume_terms: f.volume_terms.clone().filter(|_| v2),
        exclusive_volume: f.exclusive_volume.clone().filter(|_| v2),
        exclusive_volume_terms: f.exclusive_volume_terms.clone().filter(|_| v2),
        pairs,
        contexts,
        contexts_differ,
        contexts_omitted: f.contexts_omitted,
        branches: f
            .branches
            .iter()
            .map(|b| branch_summary(b, params))
            .collect(),
        loops,
    }
}

fn branch_summary(b: &Branch, params: &[String]) -> BranchSummary {
    BranchSummary {
        line: b.line,
        column: b.column,
        kind: if b.kind.is_empty() {
            "if".to_string()
        } else {
            b.kind.clone()
        },
        params: order_params(&b.params, params),
        successors: b
            .successors
            .iter()
            .map(|s| SuccessorSummary {
                line: s.line,
                taken: s.taken,
            })
            .collect(),
        untaken_lines: b
            .successors
            .iter()
            .filter(|s| !s.taken)
            .map(|s| s.line)
            .collect(),
    }
}

/// The loops of `f` in nest order: each loop followed by the loops nested in it
/// (`parent_line`), outermost loops and siblings in report order (line, column). Usually
/// that is line order, but not always: at -O2 a tail call can become a loop enclosing
/// loops written above it.
fn loop_summaries(f: &Function, params: &[String]) -> Vec<LoopSummary> {
    let n = f.loops.len();
    // The parent of each loop: the first other loop on its `parent_line`.
    let parent: Vec<Option<usize>> = f
        .loops
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let p = l.parent_line?;
            f.loops
                .iter()
                .enumerate()
                .position(|(j, o)| j != i && o.line == p)
        })
        .collect();
    let mut order: Vec<(usize, usize)> = Vec::with_capacity(n);
    let mut visited = vec![false; n];
    // Depth-first from the roots; a malformed report (a cycle of parents) cannot loop
    // forever: every loop is visited once, and loops only reachable through a cycle
    // are appended at depth 0.
    fn visit(
        i: usize,
        depth: usize,
        parent: &[Option<usize>],
        visited: &mut [bool],
        order: &mut Vec<(usize, usize)>,
    ) {
        if visited[i] {
            return;
        }
        visited[i] = true;
        order.push((i, depth));
        for c in 0..parent.len() {
            if parent[c] == Some(i) {
                visit(c, depth + 1, parent, visited, order);
            }
        }
    }
    for i in 0..n {
        if parent[i].is_none() {
            visit(i, 0, &parent, &mut visited, &mut order);
        }
    }
    for i in 0..n {
        visit(i, 0, &parent, &mut visited, &mut order);
    }
    order
        .into_iter()
        .map(|(i, depth)| {
            let l = &f.loops[i];
            LoopSummary {
                line: l.line,
                column: l.column,
                parent_line: l.parent_line,
                depth,
                params: order_params(&l.params, params),
                control_only_params: order_params(&l.control_only_params, params),
                params_by_rank: by_rank(&l.params_by_rank, params),
                executions: l.executions,
                const_trip_count: l.const_trip_count,
                kind: l.kind,
                routine: l.routine.clone(),
                cost: l.cost.clone(),
                recursion: l.recursion,
                contexts: differing_contexts(l, params),
                contexts_omitted: l.contexts_omitted,
            }
        })
        .collect()
}

/// `params_by_rank` with each set in registration order.
fn by_rank(v: &[RankParams], params: &[String]) -> Vec<RankParamsSummary> {
    v.iter()
        .map(|r| RankParamsSummary {
            ranks: r.ranks.clone(),
            params: order_params(&r.params, params),
        })
        .collect()
}

/// The contexts of `l` if they do not all have the same parameter set, else nothing.
fn differing_contexts(l: &Loop, params: &[String]) -> Vec<LoopContextSummary> {
    let sets: Vec<Vec<String>> = l
        .contexts
        .iter()
        .map(|c| order_params(&c.params, params))
        .collect();
    if sets.windows(2).all(|w| w[0] == w[1]) {
        return Vec::new();
    }
    l.contexts
        .iter()
        .zip(sets)
        .map(|(c, params)| LoopContextSummary {
            path: render_path(&c.path),
            params,
            executions: c.executions,
        })
        .collect()
}

/// `main:48 → compute:20` (`both:11:41` where two calls share line 11)
pub fn render_path(path: &[CallSite]) -> String {
    if path.is_empty() {
        return "(thread root)".to_string();
    }
    path.iter()
        .map(|s| match (s.line, s.column) {
            (0, _) => s.function.clone(),
            (line, Some(col)) => format!("{}:{line}:{col}", s.function),
            (line, None) => format!("{}:{line}", s.function),
        })
        .collect::<Vec<_>>()
        .join(" → ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::parse;

    const V2: &str = include_str!("../../tests/fixtures/solver.4711.taintprof.json");
    const V1: &str = include_str!("../../tests/fixtures/matmul.4242.taintprof.json");

    fn v2() -> Summary {
        summarize(&parse(V2).unwrap(), "solver.4711.taintprof.json")
    }

    #[test]
    fn functions_are_classified_and_ordered() {
        let s = v2();
        let names: Vec<(&str, FunctionClass)> = s
            .functions
            .iter()
            .map(|f| (f.name.as_str(), f.class))
            .collect();
        use FunctionClass::*;
        assert_eq!(
            names,
            vec![
                ("main", Relevant),
                ("fill", Relevant),
                ("solve", Relevant),
                ("jacobi", Relevant),
                ("make_stencil", Relevant),
                ("norm", Relevant),
                ("refine", Relevant),
                ("clamp", StaticallyPruned),
                ("print_banner", StaticallyPruned),
                ("gauss_seidel", NeverRan),
                ("checksum", DynamicallyPruned),
                ("usage", NeverRan),
            ]
        );
        let fill = &s.functions[1];
        assert!(fill.contexts_differ);
        assert_eq!(fill.loops[1].depth, 1);
        assert_eq!(fill.loops[1].contexts.len(), 2);
        assert!(!s.functions[2].contexts_differ);
    }

    #[test]
    fn table_2_and_3_come_from_the_report() {
        let s = v2();
        assert_eq!(s.pruning.functions.total, 12);
        assert_eq!(s.pruning.functions.ran_constant, Some(1));
        assert_eq!(s.pruning.loops.never_ran, Some(3));
        assert_eq!(
            s.coverage.total,
            Count {
                functions: 6,
                loops: 8
            }
        );
        let labels: Vec<String> = s.coverage.columns.iter().map(|c| c.label()).collect();
        assert_eq!(labels, ["n", "iters", "algo", "n,iters", "n,iters,algo"]);
        let r = s.recommendation.unwrap();
        assert_eq!(r.pair.unwrap().functions, 5);
    }

    #[test]
    fn subsets_are_counted_from_exclusive_params_and_loops() {
        let r = parse(V2).unwrap();
        let opts = SummaryOptions {
            subsets: vec!["algo,n".into(), "iters".into(), "iters , algo".into()],
        };
        let s = summarize_with(&r, "x", &opts).unwrap();
        let cols: Vec<(String, &str, u64, u64)> = s
            .coverage
            .columns
            .iter()
            .map(|c| (c.label(), c.kind, c.functions, c.loops))
            .collect();
        // `iters` is already a column; the others are counted: n covers fill, jacobi,
        // norm, refine (+ make_stencil for algo); loops 34 35 40 41 54 72 (+ 29).
        assert_eq!(
            &cols[5..],
            &[
                ("n,algo".to_string(), "subset", 5, 7),
                ("iters,algo".to_string(), "subset", 3, 3)
            ]
        );
        for (spec, err) in [
            (
                "n,x",
                "unknown parameter `x`; the report registers: n, iters, algo",
            ),
            ("n,", "empty parameter name"),
        ] {
            let opts = SummaryOptions {
                subsets: vec![spec.into()],
            };
            let e = summarize_with(&r, "x", &opts).unwrap_err();
            assert!(e.contains(err), "{e}");
        }
    }

    #[test]
    fn subset_counts_match_the_reports_own_coverage() {
        // The driver's counting for --subset must agree with the runtime's coverage
        // entries on the same subsets (the schema defines both the same way).
        let r = parse(V2).unwrap();
        let specs: Vec<String> = r.coverage.iter().map(|c| c.params.join(",")).collect();
        for (spec, entry) in specs.iter().zip(&r.coverage) {
            let set = parse_subset(spec, &r.parameters).unwrap();
            let mut r2 = r.clone();
            r2.coverage.clear();
            r2.recommendation = None;
            let s = summarize_with(
                &r2,
                "x",
                &SummaryOptions {
                    subsets: vec![spec.clone()],
                },
            )
            .unwrap();
            let col = s.coverage.columns.iter().find(|c| c.params == set).unwrap();
            assert_eq!(
                (col.functions, col.loops),
                (entry.functions, entry.loops),
                "{spec}"
            );
        }
    }

    #[test]
    fn loops_are_shown_in_nest_order() {
        // At -O2 a tail call (line 76) can become a loop around a loop written above
        // it (line 72); a cycle of parents must not hang.
        let r = parse(&crate::report::complete(
            serde_json::from_str(
                r#"{"schema":"taintprof.taint","version":2,"parameters":["n"],"functions":[
                {"name":"refine","executed":true,"inclusive_params":["n"],"loops":[
                  {"line":72,"parent_line":76,"params":["n"],"executions":7},
                  {"line":76,"params":["n"],"executions":4},
                  {"line":80,"parent_line":72,"executions":7},
                  {"line":90,"parent_line":91},{"line":91,"parent_line":90}]}]}"#,
            )
            .unwrap(),
        ))
        .unwrap();
        let s = summarize(&r, "x");
        let got: Vec<(u32, usize)> = s.functions[0]
            .loops
            .iter()
            .map(|l| (l.line, l.depth))
            .collect();
        assert_eq!(got, vec![(76, 0), (72, 1), (80, 2), (90, 0), (91, 1)]);
    }

    #[test]
    fn never_executed_paths() {
        let s = v2();
        let b: Vec<(&str, u32, &[u32])> = s
            .never_executed
            .branches
            .iter()
            .map(|b| {
                (
                    b.function.as_str(),
                    b.branch.line,
                    b.branch.untaken_lines.as_slice(),
                )
            })
            .collect();
        assert_eq!(
            b,
            vec![
                ("make_stencil", 24, &[27u32, 26][..]),
                ("solve", 61, &[64][..]),
                ("main", 97, &[98][..]),
            ]
        );
        let f: Vec<&str> = s
            .never_executed
            .functions
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        assert_eq!(f, ["gauss_seidel", "usage"]);
        assert!(s.never_executed.loops.is_empty());
    }

    #[test]
    fn version_1_reports_show_what_they_have() {
        let s = summarize(&parse(V1).unwrap(), "m.json");
        assert_eq!(s.schema_version, 1);
        assert!(s.recommendation.is_none());
        assert_eq!(s.pruning.functions.total, 6);
        assert_eq!(s.pruning.functions.relevant, None);
        assert_eq!(s.pruning.loops.total, 8);
        assert_eq!(s.pruning.loops.statically_pruned, Some(1));
        assert_eq!(s.pruning.loops.never_ran, Some(1));
        assert_eq!(s.pruning.loops.relevant, Some(6));
        assert_eq!(
            s.coverage.total,
            Count {
                functions: 3,
                loops: 6
            }
        );
        assert_eq!(s.functions[0].name, "create");
        assert!(s.functions.iter().all(|f| f.volume.is_none()));
        assert_eq!(s.constant_functions.without_loops, 1);
        assert_eq!(s.never_executed.loops.len(), 1);
    }
}
