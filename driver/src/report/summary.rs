//! The presentation model of a taint report: what `taintprof report` shows, and what
//! `taintprof report --json` prints (stable keys, in this order).
//!
//! Everything here is counting and selecting over the runtime's results; no label,
//! context or loop result is recomputed.

use super::{Loop, Report};
use serde::Serialize;

/// The summary of one report.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The report file this summary was made from.
    pub report: String,
    pub program: ProgramSummary,
    pub exit: ExitSummary,
    /// Whether the program ended normally (the report is complete).
    pub complete: bool,
    pub parameters: Vec<String>,
    pub rejected_parameters: Vec<RejectedSummary>,
    pub control_flow: bool,
    pub threads: u64,
    pub modules: Vec<ModuleSummary>,
    /// The per-parameter table (the shape of Perf-Taint's Table 3).
    pub table: ParamTable,
    /// Functions that have loops, in report order.
    pub functions: Vec<FunctionSummary>,
    /// Functions without any loop.
    pub functions_without_loops: usize,
    /// Functions with loops that ran, none of them depending on a parameter.
    pub constant_functions: Vec<FunctionRef>,
    /// Loops that never ran in this execution.
    pub never_executed: Vec<LoopRef>,
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

#[derive(Debug, Clone, Serialize)]
pub struct ExitSummary {
    /// `exit` or `signal` (as in the report).
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
}

/// How many functions and loops each parameter affects.
#[derive(Debug, Clone, Serialize)]
pub struct ParamTable {
    /// Functions with at least one loop.
    pub total_functions: usize,
    /// All loops.
    pub total_loops: usize,
    /// One entry per registered parameter, in registration order.
    pub parameters: Vec<ParamCount>,
    /// Functions / loops depending on at least one parameter.
    pub any: Count,
}

#[derive(Debug, Clone, Serialize)]
pub struct ParamCount {
    pub name: String,
    pub functions: usize,
    pub loops: usize,
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Count {
    pub functions: usize,
    pub loops: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct FunctionSummary {
    pub name: String,
    pub file: String,
    pub line: u32,
    pub recursive: bool,
    /// Union of the parameters of the function's loops (report order of `parameters`).
    pub params: Vec<String>,
    pub loops: Vec<LoopSummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LoopSummary {
    pub line: u32,
    pub column: u32,
    pub params: Vec<String>,
    pub executions: u64,
    pub const_trip_count: Option<u64>,
    /// The calling contexts, only when they differ in their parameter sets.
    pub contexts: Vec<ContextSummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ContextSummary {
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
pub struct LoopRef {
    pub function: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// Builds the summary of `report`, read from the file `source`.
pub fn summarize(report: &Report, source: &str) -> Summary {
    let order = |set: &mut Vec<String>| {
        // Keep parameters in registration order, unknown names last, no duplicates.
        set.sort_by_key(|p| {
            report
                .parameters
                .iter()
                .position(|q| q == p)
                .unwrap_or(usize::MAX)
        });
        set.dedup();
    };

    let mut functions = Vec::new();
    let mut constant_functions = Vec::new();
    let mut never_executed = Vec::new();
    let mut functions_without_loops = 0;
    for f in &report.functions {
        if f.loops.is_empty() {
            functions_without_loops += 1;
            continue;
        }
        let mut fparams = Vec::new();
        let mut loops = Vec::new();
        for l in &f.loops {
            let mut params = l.params.clone();
            order(&mut params);
            fparams.extend(params.iter().cloned());
            if l.executions == 0 {
                never_executed.push(LoopRef {
                    function: f.name.clone(),
                    file: f.file.clone(),
                    line: l.line,
                    column: l.column,
                });
            }
            loops.push(LoopSummary {
                line: l.line,
                column: l.column,
                params,
                executions: l.executions,
                const_trip_count: l.const_trip_count,
                contexts: differing_contexts(l)
                    .into_iter()
                    .map(|mut c| {
                        order(&mut c.params);
                        c
                    })
                    .collect(),
            });
        }
        order(&mut fparams);
        let ran = f.loops.iter().any(|l| l.executions > 0);
        if fparams.is_empty() && ran {
            constant_functions.push(FunctionRef {
                name: f.name.clone(),
                file: f.file.clone(),
                line: f.line,
            });
        }
        functions.push(FunctionSummary {
            name: f.name.clone(),
            file: f.file.clone(),
            line: f.line,
            recursive: f.recursive,
            params: fparams,
            loops,
        });
    }

    let count = |p: &dyn Fn(&[String]) -> bool| Count {
        functions: functions.iter().filter(|f| p(&f.params)).count(),
        loops: functions
            .iter()
            .flat_map(|f| &f.loops)
            .filter(|l| p(&l.params))
            .count(),
    };
    let table = ParamTable {
        total_functions: functions.len(),
        total_loops: functions.iter().map(|f| f.loops.len()).sum(),
        parameters: report
            .parameters
            .iter()
            .map(|name| {
                let c = count(&|set: &[String]| set.contains(name));
                ParamCount {
                    name: name.clone(),
                    functions: c.functions,
                    loops: c.loops,
                }
            })
            .collect(),
        any: count(&|set: &[String]| !set.is_empty()),
    };

    let description = match report.exit.reason.as_str() {
        "exit" => format!("exit code {}", report.exit.code.unwrap_or(0)),
        "signal" => {
            let name = report.exit.signal.as_deref().unwrap_or("a signal");
            match report.exit.number {
                Some(n) => format!("killed by {name} (signal {n})"),
                None => format!("killed by {name}"),
            }
        }
        "" => "unknown".to_string(),
        other => other.to_string(),
    };

    Summary {
        report: source.to_string(),
        program: ProgramSummary {
            name: report.program.name.clone(),
            path: report.program.path.clone(),
            argv: report.program.argv.clone(),
            pid: report.program.pid,
            taintprof_version: report.taintprof_version.clone(),
        },
        complete: report.exit.reason == "exit",
        exit: ExitSummary {
            reason: report.exit.reason.clone(),
            code: report.exit.code,
            signal: report.exit.signal.clone(),
            description,
        },
        parameters: report.parameters.clone(),
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
            })
            .collect(),
        table,
        functions,
        functions_without_loops,
        constant_functions,
        never_executed,
        warnings: report.warnings.clone(),
    }
}

/// The contexts of `l` if they do not all have the same parameter set, else nothing.
fn differing_contexts(l: &Loop) -> Vec<ContextSummary> {
    let mut sets = l.contexts.iter().map(|c| {
        let mut s = c.params.clone();
        s.sort();
        s
    });
    let Some(first) = sets.next() else {
        return Vec::new();
    };
    if sets.all(|s| s == first) {
        return Vec::new();
    }
    l.contexts
        .iter()
        .map(|c| ContextSummary {
            path: render_path(&c.path),
            params: c.params.clone(),
            executions: c.executions,
        })
        .collect()
}

/// `main:48 → compute:20`
pub fn render_path(path: &[super::CallSite]) -> String {
    if path.is_empty() {
        return "(thread root)".to_string();
    }
    path.iter()
        .map(|s| {
            if s.line == 0 {
                s.function.clone()
            } else {
                format!("{}:{}", s.function, s.line)
            }
        })
        .collect::<Vec<_>>()
        .join(" → ")
}
