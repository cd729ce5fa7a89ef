//! Text rendering of a [`Summary`]: [`full`] for `taintprof report`, [`short`] for
//! `taintprof run`.

use super::summary::{FunctionSummary, LoopSummary, Summary};
use crate::table::{Align, Table};
use std::fmt::Write;

/// The mark for "depends on no parameter".
pub const NONE: &str = "—";

/// `m, n` or `—`.
pub fn param_set(params: &[String]) -> String {
    if params.is_empty() {
        NONE.to_string()
    } else {
        params.join(", ")
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The whole report.
pub fn full(s: &Summary) -> String {
    let files = Files::new(s);
    let mut out = String::new();
    header(&mut out, s, &files);
    out.push('\n');
    param_table(&mut out, s);
    out.push('\n');
    loops_by_function(&mut out, s, &files);

    if !s.constant_functions.is_empty() {
        let _ = writeln!(
            out,
            "\nFunctions whose loops depend on no parameter ({})",
            s.constant_functions.len()
        );
        let mut t = Table::new(&[Align::Left, Align::Left]);
        for f in &s.constant_functions {
            t.row([f.name.clone(), location(&files, &f.file, f.line)]);
        }
        out.push_str(&t.render("  "));
    }
    if s.functions_without_loops > 0 {
        let _ = writeln!(
            out,
            "\n{} without loops (constant unless they call something that loops)",
            plural(s.functions_without_loops, "function", "functions")
        );
    }
    if !s.never_executed.is_empty() {
        let _ = writeln!(
            out,
            "\nLoops never executed ({}): their parameters are unknown from this run",
            s.never_executed.len()
        );
        let mut t = Table::new(&[Align::Left, Align::Left]);
        for l in &s.never_executed {
            t.row([l.function.clone(), location(&files, &l.file, l.line)]);
        }
        out.push_str(&t.render("  "));
    }
    warnings(&mut out, s);
    out
}

/// The summary printed after `taintprof run`: header line, parameter table, one line
/// per loop.
pub fn short(s: &Summary) -> String {
    let files = Files::new(s);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "taintprof: {} (pid {}): {}; parameters: {}",
        s.program.name,
        s.program.pid,
        s.exit.description,
        if s.parameters.is_empty() {
            "none".to_string()
        } else {
            s.parameters.join(", ")
        }
    );
    if !s.complete {
        out.push_str(
            "  the program did not exit normally: the report holds what was gathered until then\n",
        );
    }
    out.push('\n');
    param_table(&mut out, s);
    if !s.functions.is_empty() {
        out.push('\n');
        match files.base() {
            Some(b) => {
                let _ = writeln!(out, "Loops (sources in {b})");
            }
            None => out.push_str("Loops\n"),
        }
        let mut t = Table::new(&[Align::Left, Align::Left, Align::Left, Align::Left]);
        for f in &s.functions {
            for (i, l) in f.loops.iter().enumerate() {
                let name = if i == 0 {
                    f.name.clone()
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
    let mut extra = Vec::new();
    if !s.never_executed.is_empty() {
        extra.push(format!(
            "{} never ran",
            plural(s.never_executed.len(), "loop", "loops")
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
        if s.parameters.is_empty() {
            "none registered".to_string()
        } else {
            s.parameters.join(", ")
        },
    ]);
    for r in &s.rejected_parameters {
        t.row(["rejected".to_string(), format!("{} ({})", r.name, r.reason)]);
    }
    if !s.modules.is_empty() {
        let mods: Vec<String> = s
            .modules
            .iter()
            .map(|m| {
                format!(
                    "{} ({}, {})",
                    m.source,
                    plural(m.functions as usize, "function", "functions"),
                    plural(m.loops as usize, "loop", "loops")
                )
            })
            .collect();
        t.row(["modules".to_string(), mods.join("; ")]);
    }
    if let Some(b) = files.base() {
        t.row(["sources".to_string(), b.to_string()]);
    }
    t.row([
        "threads".to_string(),
        format!(
            "{}; control-flow tainting {}",
            s.threads,
            if s.control_flow { "on" } else { "off" }
        ),
    ]);
    out.push_str(&t.render("  "));
}

/// The per-parameter table (Perf-Taint, Table 3).
fn param_table(out: &mut String, s: &Summary) {
    out.push_str("Functions and loops whose iteration counts depend on each parameter\n");
    let mut aligns = vec![Align::Left, Align::Right];
    aligns.extend(s.table.parameters.iter().map(|_| Align::Right));
    aligns.push(Align::Right);
    let mut head = vec![String::new(), "total".to_string()];
    head.extend(s.table.parameters.iter().map(|p| p.name.clone()));
    if !s.table.parameters.is_empty() {
        head.push("any".to_string());
    }
    let mut t = Table::new(&aligns).header(head);
    let mut functions = vec!["functions".to_string(), s.table.total_functions.to_string()];
    let mut loops = vec!["loops".to_string(), s.table.total_loops.to_string()];
    for p in &s.table.parameters {
        functions.push(p.functions.to_string());
        loops.push(p.loops.to_string());
    }
    if !s.table.parameters.is_empty() {
        functions.push(s.table.any.functions.to_string());
        loops.push(s.table.any.loops.to_string());
    }
    t.row(functions);
    t.row(loops);
    out.push_str(&t.render("  "));
    if s.parameters.is_empty() {
        out.push_str(
            "  no parameters were registered: mark each one with tp_register_variable(&n, sizeof n, \"n\")\n",
        );
    }
}

/// How source files are shown: the directory holding most of the program's functions
/// is printed once (`sources` in the header) and left out of every location; other
/// files are shown in full with `..` resolved.
pub struct Files {
    base: Option<String>,
}

impl Files {
    pub fn new(s: &Summary) -> Files {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for f in &s.functions {
            let file = normalize(&f.file);
            let Some((dir, _)) = file.rsplit_once('/') else {
                continue;
            };
            if dir.is_empty() {
                continue;
            }
            match counts.iter_mut().find(|(d, _)| d == dir) {
                Some((_, n)) => *n += 1,
                None => counts.push((dir.to_string(), 1)),
            }
        }
        // The first directory with the most functions (report order breaks ties).
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

fn location(files: &Files, file: &str, line: u32) -> String {
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

fn loops_by_function(out: &mut String, s: &Summary, files: &Files) {
    if s.functions.is_empty() {
        out.push_str("No loops were found in instrumented code.\n");
        return;
    }
    out.push_str("Loops by function (parameters each loop's exit conditions depend on)\n");
    // One table for every loop so the columns line up across functions; function
    // headings go between its lines.
    let mut t = Table::new(&[Align::Left, Align::Left, Align::Right, Align::Left]).header([
        "loop",
        "parameters",
        "runs",
        "",
    ]);
    let mut groups = Vec::new();
    for f in &s.functions {
        groups.push(f.loops.len());
        for l in &f.loops {
            let mut notes = Vec::new();
            if l.executions == 0 {
                notes.push("never ran".to_string());
            }
            if let Some(n) = l.const_trip_count {
                notes.push(format!("constant trip count {n}"));
            }
            t.row([
                loop_location(files, f, l),
                param_set(&l.params),
                if l.executions == 0 {
                    NONE.to_string()
                } else {
                    l.executions.to_string()
                },
                notes.join("; "),
            ]);
        }
    }
    let lines = t.lines("    ");
    out.push_str(&lines[0]);
    out.push('\n');
    let mut rows = lines[1..].iter();
    for (f, n) in s.functions.iter().zip(groups) {
        let mut heading = format!("  {}", f.name);
        if f.line != 0 || !f.file.is_empty() {
            let _ = write!(heading, "  ({})", location(files, &f.file, f.line));
        }
        if f.recursive {
            heading.push_str("  recursive: results over-approximate");
        }
        out.push_str(&heading);
        out.push('\n');
        for l in f.loops.iter().take(n) {
            if let Some(row) = rows.next() {
                out.push_str(row);
                out.push('\n');
            }
            if !l.contexts.is_empty() {
                out.push_str("      calling contexts differ:\n");
                let mut ct = Table::new(&[Align::Left, Align::Left, Align::Right]);
                for c in &l.contexts {
                    ct.row([
                        c.path.clone(),
                        param_set(&c.params),
                        plural(c.executions as usize, "run", "runs"),
                    ]);
                }
                out.push_str(&ct.render("        "));
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{parse, summary::summarize};

    const FIXTURE: &str = include_str!("../../tests/fixtures/matmul.4242.taintprof.json");

    fn summary() -> Summary {
        summarize(&parse(FIXTURE).unwrap(), "matmul.4242.taintprof.json")
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
        let mut s = summary();
        s.functions[0].file = "/src/proj/matmul.c".into();
        s.functions[1].file = "/src/proj/matmul.c".into();
        s.functions[2].file = "/usr/include/c++/12/../12/bits/x.h".into();
        let files = Files::new(&s);
        assert_eq!(files.base(), Some("/src/proj/"));
        assert_eq!(files.show("/src/proj/matmul.c"), "matmul.c");
        assert_eq!(files.show("/src/proj/sub/k.c"), "sub/k.c");
        assert_eq!(
            files.show("/usr/include/c++/12/../12/bits/x.h"),
            "/usr/include/c++/12/bits/x.h"
        );
    }

    #[test]
    fn full_report_matches_golden_text() {
        let got = full(&summary());
        let want = include_str!("../../tests/fixtures/matmul.report.txt");
        assert_eq!(got, want, "\n--- got ---\n{got}");
    }

    #[test]
    fn short_summary_matches_golden_text() {
        let got = short(&summary());
        let want = include_str!("../../tests/fixtures/matmul.short.txt");
        assert_eq!(got, want, "\n--- got ---\n{got}");
    }
}
