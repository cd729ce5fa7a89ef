//! `taintprof dip --compare REPORT`: the exception profile of a run next to a
//! compiler-mode report of the same program, matched by source line (file name and
//! line), with the reasons the two can differ:
//!
//! * exceptions count once per *instruction* execution, the compiler once per vector
//!   *element*: a packed `addps` with four denormal lanes is one exception, four
//!   compiler operands;
//! * moves never trap: loads, stores and integer copies (`memcpy`, struct copies) of
//!   denormals are compiler-mode `loads`/`stores` only;
//! * denormal results are underflow exceptions, traced only with `--underflow`;
//! * code the compiler did not instrument (libm internals, other libraries) shows up in
//!   exceptions mode only; the compiler counts a libm call at its call site
//!   (`call expf`);
//! * optimization levels differ in what is kept in registers, so build both the same
//!   way (the same `-O` level) for line-by-line agreement.

use super::{basename, thousands as th, DenormalReport};
use crate::table::{Align, Table};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, Serialize)]
pub struct CompilerSide {
    /// Distinct FP operations (`fadd`, `call expf`; loads and stores are counted apart).
    pub ops: Vec<String>,
    /// Distinct types (`float`, `<4 x float>`).
    pub types: Vec<String>,
    pub operands: u64,
    pub results: u64,
    pub loads: u64,
    pub stores: u64,
    pub vector: bool,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct ExceptionSide {
    pub instructions: usize,
    /// Distinct mnemonics (`addps`, `mulss`).
    pub mnemonics: Vec<String>,
    pub operand_exceptions: u64,
    pub underflow_exceptions: u64,
    pub packed: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct LineRow {
    pub source: String,
    pub function: String,
    pub compiler: Option<CompilerSide>,
    pub exceptions: Option<ExceptionSide>,
    /// Exception operands / compiler operands.
    pub ratio: Option<f64>,
    pub verdict: String,
    /// Note codes, explained by [`NOTES`].
    pub notes: Vec<char>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub exceptions_file: String,
    pub compiler_file: String,
    pub underflow_traced: bool,
    pub rows: Vec<LineRow>,
    pub agree: usize,
    /// Set when the two reports are of different programs or inputs, or the exception
    /// profile is sampled.
    pub note: Option<String>,
    /// The exception profile is sampled: its counts are the events seen in the
    /// sampling windows, estimates of shares rather than counts; no line can agree.
    pub sampled: bool,
}

/// The note codes.
pub const NOTES: &[(char, &str)] = &[
    ('v', "vector code: an exception counts a whole packed instruction, the compiler each element (up to 4× or 8× more)"),
    ('m', "only loads/stores here: moves and integer copies of denormals never trap"),
    ('u', "denormal results are underflow exceptions, not traced in this run (taintprof dip --underflow)"),
    ('x', "no instrumented operation on this line: library code (e.g. inside libm) or code built without taintprof"),
    ('c', "no exception here: the values were normal in registers (x87 80-bit), the exceptions were masked (FTZ/DAZ, fesetenv), or the builds differ"),
];

fn key(file: &str, line: u32) -> (String, u32) {
    (basename(file).to_string(), line)
}

fn mnemonic(instruction: &str) -> String {
    instruction
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string()
}

fn packed(m: &str) -> bool {
    let m = m.trim_start_matches('v');
    (m.ends_with("ps") || m.ends_with("pd")) && !m.starts_with("mov")
}

/// Compares an exceptions-mode report with a compiler-mode report.
pub fn compare(
    exc: &DenormalReport,
    exc_file: &str,
    comp: &DenormalReport,
    comp_file: &str,
) -> Result<Comparison, String> {
    if exc.mode != "exceptions" {
        return Err(format!(
            "{exc_file} is a {} report; --compare needs the exception profile of this run",
            exc.mode
        ));
    }
    if comp.mode != "compiler" {
        return Err(format!(
            "{comp_file} is an {}-mode report; --compare needs a compiler-mode report (<program>.<pid>.denormal.json from taintprof-cc --tp-mode=denormal)",
            comp.mode
        ));
    }
    let underflow_traced = !exc
        .warnings
        .iter()
        .any(|w| w.contains("--underflow") || w.contains("UNDERFLOW"));
    let mut rows: BTreeMap<(String, u32), LineRow> = BTreeMap::new();
    let blank = |source: String, function: &str| LineRow {
        source,
        function: function.to_string(),
        compiler: None,
        exceptions: None,
        ratio: None,
        verdict: String::new(),
        notes: Vec::new(),
    };
    for s in comp.sites.iter().filter(|s| s.events() > 0 && s.line > 0) {
        let k = key(&s.file, s.line);
        let r = rows
            .entry(k.clone())
            .or_insert_with(|| blank(format!("{}:{}", k.0, k.1), &s.function));
        let c = r.compiler.get_or_insert_with(CompilerSide::default);
        if !c.ops.contains(&s.op) && !s.op.is_empty() && s.op != "load" && s.op != "store" {
            c.ops.push(s.op.clone());
        }
        let ty = super::summary::shown_type(&s.ty, &s.lanes);
        if !c.types.contains(&ty) && !ty.is_empty() {
            c.types.push(ty);
        }
        // The CPU raises one denormal-operand exception per instruction, however many
        // of its operands are denormal: compare with operations that had any denormal
        // operand when the report has that count (compiler mode), else with operands.
        c.operands += s
            .operations_with_denormal_operands
            .unwrap_or(s.denormal_operands);
        c.results += s.denormal_results;
        c.loads += s.denormal_loads.unwrap_or(0);
        c.stores += s.denormal_stores.unwrap_or(0);
        c.vector |= s.ty.starts_with('<') || s.lanes.iter().any(|&w| w > 1);
    }
    for s in exc.sites.iter().filter(|s| s.events() > 0) {
        let k = if s.line > 0 {
            key(&s.file, s.line)
        } else {
            (format!("{} (no line)", s.function), 0)
        };
        let r = rows.entry(k.clone()).or_insert_with(|| {
            blank(
                if k.1 > 0 {
                    format!("{}:{}", k.0, k.1)
                } else {
                    k.0.clone()
                },
                &s.function,
            )
        });
        let e = r.exceptions.get_or_insert_with(ExceptionSide::default);
        e.instructions += 1;
        let m = mnemonic(s.instruction.as_deref().unwrap_or(""));
        e.packed |= packed(&m);
        if !m.is_empty() && !e.mnemonics.contains(&m) {
            e.mnemonics.push(m);
        }
        e.operand_exceptions += s.denormal_operands;
        e.underflow_exceptions += s.denormal_results;
    }
    let mut out: Vec<LineRow> = rows.into_values().collect();
    let mut agree = 0;
    let sampled = exc.sampled();
    let (exc_total, comp_total) = (
        out.iter()
            .filter_map(|r| r.exceptions.as_ref())
            .map(|e| e.operand_exceptions)
            .sum::<u64>()
            .max(1) as f64,
        out.iter()
            .filter_map(|r| r.compiler.as_ref())
            .map(|c| c.operands)
            .sum::<u64>()
            .max(1) as f64,
    );
    for r in &mut out {
        match (&r.compiler, &r.exceptions) {
            (Some(c), Some(e)) if sampled => {
                // Counts of a sampled profile are a fraction of the events: set the
                // line's share of the samples against its share of the compiler's.
                r.verdict = format!(
                    "sampled: {:.1}% of exc. (compiler {:.1}%)",
                    100.0 * e.operand_exceptions as f64 / exc_total,
                    100.0 * c.operands as f64 / comp_total
                );
            }
            (Some(c), Some(e)) => {
                if c.operands > 0 {
                    r.ratio = Some(e.operand_exceptions as f64 / c.operands as f64);
                }
                let close = |a: u64, b: u64| {
                    let (a, b) = (a as f64, b as f64);
                    (a - b).abs() <= 0.05 * a.max(b)
                };
                let ops_ok = close(e.operand_exceptions, c.operands);
                let res_ok = !underflow_traced || close(e.underflow_exceptions, c.results);
                if ops_ok && res_ok {
                    r.verdict = if e.operand_exceptions == c.operands
                        && (!underflow_traced || e.underflow_exceptions == c.results)
                    {
                        "agree exactly".into()
                    } else {
                        "agree".into()
                    };
                    agree += 1;
                } else if let Some(q) = r.ratio {
                    r.verdict = if q < 1.0 {
                        format!("exceptions {:.2}× fewer", 1.0 / q.max(1e-12))
                    } else {
                        format!("exceptions {q:.2}× more")
                    };
                } else {
                    r.verdict = "differ".into();
                }
                if (c.vector || e.packed) && !ops_ok {
                    r.notes.push('v');
                }
                if !underflow_traced && c.results > 0 {
                    r.notes.push('u');
                }
            }
            (Some(c), None) => {
                r.verdict = "compiler only".into();
                if c.operands == 0 && c.results == 0 {
                    r.notes.push('m');
                } else if c.operands == 0 && !underflow_traced {
                    r.notes.push('u');
                } else {
                    r.notes.push('c');
                }
            }
            (None, Some(_)) => {
                r.verdict = "exceptions only".into();
                r.notes.push('x');
            }
            (None, None) => {}
        }
    }
    // Most events first.
    out.sort_by_key(|r| {
        std::cmp::Reverse(
            r.compiler
                .as_ref()
                .map(|c| c.operands + c.results + c.loads + c.stores)
                .unwrap_or(0)
                + r.exceptions
                    .as_ref()
                    .map(|e| e.operand_exceptions + e.underflow_exceptions)
                    .unwrap_or(0),
        )
    });
    let note = if exc.program.name != comp.program.name {
        Some(format!(
            "the reports are of different programs ({} and {}): lines match by file name and number only",
            exc.program.name, comp.program.name
        ))
    } else if exc.program.argv.get(1..) != comp.program.argv.get(1..) {
        Some(format!(
            "the runs had different arguments ({} vs {}): counts scale with the input",
            exc.program.argv.get(1..).unwrap_or(&[]).join(" "),
            comp.program.argv.get(1..).unwrap_or(&[]).join(" ")
        ))
    } else {
        None
    };
    let note = if sampled {
        let s = "the exception profile is sampled: its counts are the events seen in the sampling windows, estimates of where the events are, not how many (run taintprof dip --exact to compare counts)";
        Some(match note {
            Some(n) => format!("{s}; {n}"),
            None => s.to_string(),
        })
    } else {
        note
    };
    Ok(Comparison {
        note,
        sampled,
        exceptions_file: exc_file.to_string(),
        compiler_file: comp_file.to_string(),
        underflow_traced,
        rows: out,
        agree,
    })
}

/// The comparison as text.
pub fn render(c: &Comparison) -> String {
    let mut o = format!(
        "Comparison by source line: exceptions ({}) vs compiler mode ({})\n",
        c.exceptions_file, c.compiler_file
    );
    let mut t = Table::new(&[
        Align::Left,
        Align::Left,
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Left,
        Align::Left,
    ])
    .header([
        "line",
        "function",
        "compiler ops",
        "operands",
        "results",
        "loads/stores",
        "instructions",
        "operand exc.",
        "underflow exc.",
        "",
        "notes",
    ]);
    let mut used: Vec<char> = Vec::new();
    for r in &c.rows {
        let (cops, cop, cres, cls) = match &r.compiler {
            Some(x) => (
                format!("{} {}", x.ops.join(","), x.types.join(","))
                    .trim()
                    .to_string(),
                th(x.operands),
                th(x.results),
                format!("{}/{}", th(x.loads), th(x.stores)),
            ),
            None => Default::default(),
        };
        let (ins, eop, eres) = match &r.exceptions {
            Some(x) => (
                format!("{}× {}", x.instructions, x.mnemonics.join(" ")),
                th(x.operand_exceptions),
                th(x.underflow_exceptions),
            ),
            None => Default::default(),
        };
        for n in &r.notes {
            if !used.contains(n) {
                used.push(*n);
            }
        }
        t.row([
            r.source.clone(),
            r.function.clone(),
            cops,
            cop,
            cres,
            cls,
            ins,
            eop,
            eres,
            r.verdict.clone(),
            r.notes.iter().collect::<String>(),
        ]);
    }
    if let Some(n) = &c.note {
        o.push_str(&format!("  note: {n}\n"));
    }
    o.push_str(&t.render("  "));
    let both = c
        .rows
        .iter()
        .filter(|r| r.compiler.is_some() && r.exceptions.is_some())
        .count();
    if c.sampled {
        o.push_str(&format!(
            "  {both} lines seen by both: the sampled counts are estimates and cannot agree; shares are compared instead\n"
        ));
    } else {
        o.push_str(&format!(
            "  {} of {} lines seen by both agree (operand counts within 5%{})\n",
            c.agree,
            both,
            if c.underflow_traced {
                ", underflow exceptions vs denormal results too"
            } else {
                "; underflow was not traced"
            }
        ));
    }
    for (code, text) in NOTES {
        if used.contains(code) {
            o.push_str(&format!("  {code}: {text}\n"));
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::super::summary::fixtures::report;
    use super::*;
    use taintprof_symbolize::report::Site;

    /// An exception profile of `k.c` matching the fixture's sites.
    fn exceptions() -> DenormalReport {
        let site = |line: u32, ins: &str, operands: u64, results: u64| Site {
            function: "compute".into(),
            file: "/src/k.c".into(),
            line,
            instruction: Some(ins.into()),
            denormal_operands: operands,
            denormal_results: results,
            ..Site::default()
        };
        let mut r = report(None, false, false);
        r.mode = "exceptions".into();
        r.tier = None;
        r.sites = vec![
            site(14, "mulss %xmm1,%xmm0", 4, 4),
            site(12, "call expf", 0, 7),
        ];
        r
    }

    #[test]
    fn compare_reads_the_sites_of_both_tiers() {
        let exc = exceptions();
        for (tier, arrays) in [(Some("profile"), false), (Some("full"), true), (None, true)] {
            let comp = report(tier, true, arrays);
            let c = compare(&exc, "k.6.dip.json", &comp, "k.5.denormal.json").unwrap();
            let row = c.rows.iter().find(|r| r.source == "k.c:14").unwrap();
            assert_eq!(row.verdict, "agree exactly", "{tier:?}");
            assert_eq!(row.compiler.as_ref().unwrap().operands, 4);
            assert!(c
                .rows
                .iter()
                .any(|r| r.source == "k.c:13" && r.verdict == "compiler only"));
            assert!(render(&c).contains("k.c:14"));
        }
    }
}
