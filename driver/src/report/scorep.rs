//! `taintprof report FILE --scorep-filter OUT`: a Score-P filter file that instruments
//! only the parameter-dependent functions (Perf-Taint, section 6: selective
//! instrumentation cut LULESH's Score-P overhead up to 45×, and the default Score-P
//! filter missed performance-relevant functions).
//!
//! # Score-P filter files
//!
//! The syntax, as documented in the Score-P user manual ("Filtering"):
//!
//! ```text
//! # a comment: from '#' to the end of the line
//! SCOREP_REGION_NAMES_BEGIN
//!   EXCLUDE *
//!   INCLUDE MANGLED _Z8init_cppR6matrixf
//!   INCLUDE MANGLED main
//! SCOREP_REGION_NAMES_END
//! ```
//!
//! * Region (function) rules go between `SCOREP_REGION_NAMES_BEGIN` and
//!   `SCOREP_REGION_NAMES_END`; a `SCOREP_FILE_NAMES_BEGIN` / `_END` block would filter
//!   by source file (not used here).
//! * A rule is `EXCLUDE` or `INCLUDE` followed by whitespace-separated patterns (which may
//!   continue on the following lines until the next keyword). With `MANGLED` right after
//!   the keyword, the patterns are matched against the mangled (linkage) name instead of
//!   the demangled one — exact, and free of the spaces and parentheses of demangled C++
//!   signatures. For C functions the two are the same.
//! * Patterns are shell wildcards: `*`, `?`, `[...]`; a backslash escapes a wildcard
//!   character (and `#`).
//! * Rules are applied in order and the last rule that matches a region decides; regions
//!   no rule matches are instrumented. Hence `EXCLUDE *` first, then one `INCLUDE` per
//!   function to keep.
//! * The file is used at measurement time with `SCOREP_FILTERING_FILE=FILE`, or at
//!   compile time with `scorep --instrument-filter=FILE` (compiler-plugin
//!   instrumentation: filtered functions get no instrumentation at all, which is where
//!   the overhead savings come from). `scorep-score -f FILE` previews its effect on an
//!   existing profile. MPI and OpenMP regions come from Score-P's adapters and are
//!   controlled separately (e.g. `SCOREP_MPI_ENABLE_GROUPS`).
//!
//! Which functions are included is the report's answer: a non-empty `inclusive_params`
//! (the function's own loops or its callees' depend on a parameter), and the functions
//! that ran but look constant with a loop the optimizer folded (their cost may depend on
//! a parameter nobody can name any more). Functions that never ran in the analysed run
//! are excluded, and the header says how many.

use super::render::{location, Files};
use super::summary::{FunctionClass, FunctionSummary, Summary};
use std::fmt::Write;

/// A generated filter.
#[derive(Debug, Clone)]
pub struct Filter {
    /// The file's contents.
    pub text: String,
    /// Distinct names included.
    pub included: usize,
    /// Functions of the report left out (by the catch-all `EXCLUDE *`).
    pub excluded: usize,
    /// Of the included, functions that look constant but ran with a loop the optimizer
    /// folded.
    pub folded: usize,
    /// Parameter-dependent functions whose names cannot be written as a pattern.
    pub skipped: Vec<String>,
}

/// Escapes the wildcard characters of a Score-P pattern; `None` if the name contains
/// whitespace (patterns are separated by whitespace).
pub fn pattern(name: &str) -> Option<String> {
    if name.is_empty() || name.chars().any(char::is_whitespace) {
        return None;
    }
    let mut p = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\' | '#') {
            p.push('\\');
        }
        p.push(c);
    }
    Some(p)
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// The filter for the report summarized in `s`.
pub fn filter(s: &Summary) -> Result<Filter, String> {
    if s.schema_version < 2 {
        return Err(format!(
            "{}: a version {} report has no inclusive parameters (what a function and its callees depend on); the Score-P filter needs a version 2 report: rebuild and rerun the program with this taintprof",
            s.report, s.schema_version
        ));
    }
    let relevant: Vec<_> = s.functions.iter().filter(|f| f.is_relevant()).collect();
    if relevant.is_empty() {
        return Err(format!(
            "{}: no function depends on a registered parameter{}, so the filter would exclude everything; register the parameters with tp_register_variable before the work starts",
            s.report,
            if s.parameters.is_empty() {
                " (none was registered)"
            } else {
                ""
            }
        ));
    }

    // Functions that ran and look constant only because the optimizer folded a loop of
    // theirs (a closed form, a full unroll): their cost may depend on a parameter the
    // report cannot name, so they are measured rather than silently dropped.
    let folded: Vec<_> = s
        .functions
        .iter()
        .filter(|f| {
            !f.is_relevant()
                && f.class != FunctionClass::NeverRan
                && s.folded
                    .iter()
                    .any(|l| l.function == f.name && l.file == f.file)
        })
        .collect();

    let files = Files::new(s);
    let mut names: Vec<String> = Vec::new();
    let mut skipped = Vec::new();
    for f in relevant.iter().chain(&folded) {
        match pattern(&f.linkage) {
            Some(p) => {
                if !names.contains(&p) {
                    names.push(p);
                }
            }
            None => skipped.push(f.name.clone()),
        }
    }
    names.sort();
    let is_folded = |f: &FunctionSummary| folded.iter().any(|g| std::ptr::eq(*g, f));
    let count = |c: FunctionClass| {
        s.functions
            .iter()
            .filter(|f| f.class == c && !is_folded(f))
            .count()
    };
    let excluded = s.functions.len() - relevant.len() - folded.len();

    let mut t = String::new();
    let version = if s.program.taintprof_version.is_empty() {
        String::new()
    } else {
        format!(" {}", s.program.taintprof_version)
    };
    let _ = writeln!(
        t,
        "# Score-P filter generated by taintprof{version} from {}",
        one_line(&s.report)
    );
    let argv = if s.program.argv.is_empty() {
        s.program.name.clone()
    } else {
        s.program.argv.join(" ")
    };
    let _ = writeln!(t, "# program:    {}", one_line(&argv));
    let _ = writeln!(t, "# parameters: {}", one_line(&s.parameters.join(", ")));
    let _ = writeln!(
        t,
        "# includes {} {} whose loops, or whose callees' loops, depend on a parameter;",
        relevant.len(),
        if relevant.len() == 1 {
            "function"
        } else {
            "functions"
        }
    );
    if !folded.is_empty() {
        let _ = writeln!(
            t,
            "# also includes {} that ran with a loop the optimizer folded (its parameters are unknown);",
            if folded.len() == 1 {
                "1 function".to_string()
            } else {
                format!("{} functions", folded.len())
            }
        );
    }
    let _ = writeln!(
        t,
        "# excludes the other {excluded} of the report ({} statically pruned, {} dynamically pruned,",
        count(FunctionClass::StaticallyPruned),
        count(FunctionClass::DynamicallyPruned),
    );
    let _ = writeln!(
        t,
        "# {} never ran in this run) and every function taintprof did not instrument.",
        count(FunctionClass::NeverRan)
    );
    if count(FunctionClass::NeverRan) > 0 {
        t.push_str("# Functions that never ran may matter for other inputs: analyse a run that reaches them.\n");
    }
    if !s.complete {
        let _ = writeln!(
            t,
            "# The analysed run did not finish ({}): functions it had not reached are excluded.",
            one_line(&s.exit.description)
        );
    }
    for name in &skipped {
        let _ = writeln!(
            t,
            "# NOT included (its name contains whitespace, which a pattern cannot hold): {}",
            one_line(name)
        );
    }
    t.push_str("#\n");
    t.push_str("# Use at run time:      SCOREP_FILTERING_FILE=<this file>\n");
    t.push_str("# or when compiling:    scorep --instrument-filter=<this file> <compiler> ...\n");
    t.push_str(
        "# Rules apply in order and the last match wins: exclude everything, then include\n",
    );
    t.push_str("# each function by its mangled (linkage) name.\n");
    t.push_str("#\n");
    let mut table = crate::table::Table::new(&[
        crate::table::Align::Left,
        crate::table::Align::Left,
        crate::table::Align::Left,
        crate::table::Align::Left,
    ])
    .header(["function", "defined at", "parameters", "volume"]);
    for f in &relevant {
        table.row([
            one_line(&f.name),
            location(&files, &f.file, f.line),
            f.inclusive_params.join(", "),
            one_line(f.volume.as_deref().unwrap_or("")),
        ]);
    }
    for f in &folded {
        table.row([
            one_line(&f.name),
            location(&files, &f.file, f.line),
            "?".to_string(),
            "folded by the optimizer".to_string(),
        ]);
    }
    for l in table.lines("#   ") {
        t.push_str(&l);
        t.push('\n');
    }
    t.push_str("SCOREP_REGION_NAMES_BEGIN\n");
    t.push_str("  EXCLUDE *\n");
    for n in &names {
        let _ = writeln!(t, "  INCLUDE MANGLED {n}");
    }
    t.push_str("SCOREP_REGION_NAMES_END\n");
    Ok(Filter {
        text: t,
        included: names.len(),
        excluded,
        folded: folded.len(),
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{parse, summary::summarize};

    const V2: &str = include_str!("../../tests/fixtures/solver.4711.taintprof.json");
    const V1: &str = include_str!("../../tests/fixtures/matmul.4242.taintprof.json");

    #[test]
    fn filter_for_the_v2_fixture_is_exact() {
        let s = summarize(&parse(V2).unwrap(), "solver.4711.taintprof.json");
        let f = filter(&s).unwrap();
        assert_eq!(f.included, 7);
        assert_eq!(f.excluded, 5);
        assert_eq!(
            f.text,
            "# Score-P filter generated by taintprof 0.1.0 from solver.4711.taintprof.json
# program:    ./solver 64 100 0
# parameters: n, iters, algo
# includes 7 functions whose loops, or whose callees' loops, depend on a parameter;
# excludes the other 5 of the report (2 statically pruned, 1 dynamically pruned,
# 2 never ran in this run) and every function taintprof did not instrument.
# Functions that never ran may matter for other inputs: analyse a run that reaches them.
#
# Use at run time:      SCOREP_FILTERING_FILE=<this file>
# or when compiling:    scorep --instrument-filter=<this file> <compiler> ...
# Rules apply in order and the last match wins: exclude everything, then include
# each function by its mangled (linkage) name.
#
#   function      defined at   parameters      volume
#   main          solver.c:96  n, iters, algo  n^2*iters + n^2 + n + iters + algo
#   fill          solver.c:33  n, iters        n^2 + iters
#   solve         solver.c:59  n, iters        n^2*iters + n
#   jacobi        solver.c:39  n               n^2
#   make_stencil  solver.c:23  algo            algo
#   norm          solver.c:52  n               n
#   refine        solver.c:71  n               n
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *
  INCLUDE MANGLED fill
  INCLUDE MANGLED jacobi
  INCLUDE MANGLED main
  INCLUDE MANGLED make_stencil
  INCLUDE MANGLED norm
  INCLUDE MANGLED refine
  INCLUDE MANGLED solve
SCOREP_REGION_NAMES_END
"
        );
    }

    #[test]
    fn cxx_functions_use_their_mangled_names() {
        let r = parse(&crate::report::complete(serde_json::from_str(r#"{"schema":"taintprof.taint","version":2,"parameters":["m","n"],
                "program":{"name":"mm","argv":["./mm"]},"exit":{"reason":"signal","signal":"SIGSEGV","number":11},
                "functions":[
                 {"name":"init_cpp(matrix&, float)","linkage":"_Z8init_cppR6matrixf","file":"/p/mm.cpp","line":3,
                  "executed":true,"inclusive_params":["m","n"],"exclusive_params":["m","n"],"volume":"m*n"},
                 {"name":"operator[]","linkage":"_ZN6matrixixEj","file":"/p/mm.cpp","line":9,
                  "executed":true,"statically_pruned":true},
                 {"name":"weird name","linkage":"","file":"/p/mm.cpp","line":12,
                  "executed":true,"inclusive_params":["m"]},
                 {"name":"main","linkage":"main","file":"/p/mm.cpp","line":20,
                  "executed":true,"inclusive_params":["m","n"],"volume":"m*n"}]}"#).unwrap()))
        .unwrap();
        let f = filter(&summarize(&r, "mm.1.taintprof.json")).unwrap();
        assert!(f.text.ends_with(
            "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *\n  INCLUDE MANGLED _Z8init_cppR6matrixf\n  INCLUDE MANGLED main\nSCOREP_REGION_NAMES_END\n"
        ), "{}", f.text);
        assert!(f
            .text
            .contains("# The analysed run did not finish (killed by SIGSEGV (signal 11))"));
        assert!(f.text.contains("# NOT included (its name contains whitespace, which a pattern cannot hold): weird name"));
        assert_eq!(f.skipped, ["weird name"]);
        assert_eq!((f.included, f.excluded), (2, 1));
    }

    #[test]
    fn patterns_escape_wildcards() {
        assert_eq!(pattern("main").as_deref(), Some("main"));
        assert_eq!(
            pattern("a*b?[c]\\#").as_deref(),
            Some("a\\*b\\?\\[c\\]\\\\\\#")
        );
        assert_eq!(pattern("operator new"), None);
        assert_eq!(pattern(""), None);
    }

    #[test]
    fn version_1_and_empty_reports_are_refused_clearly() {
        let s = summarize(&parse(V1).unwrap(), "m.json");
        let e = filter(&s).unwrap_err();
        assert!(
            e.contains("version 1 report") && e.contains("version 2"),
            "{e}"
        );
        let r = parse(&crate::report::complete(serde_json::from_str(r#"{"schema":"taintprof.taint","version":2,"functions":[{"name":"main","executed":true}]}"#).unwrap()))
            .unwrap();
        let e = filter(&summarize(&r, "x.json")).unwrap_err();
        assert!(e.contains("none was registered"), "{e}");
    }
}
