//! Time mode in the driver (`docs/time-mode.md`): the selection file `taintprof-cc
//! --tp-mode=time` hands the pass (`TAINTPROF_TIME_SELECT`, format in
//! `pass/src/time.rs`) from a taint report (`--tp-prior`) or a Score-P filter
//! (`--tp-filter`), and the short profile `taintprof run` prints of a time record.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::table::{Align, Table};

/// The selection of a taint report: the functions with `"constant": false`, `main`,
/// every function on their contexts' paths (so call paths line up with the report's),
/// the loops with parameters of those functions (by header line), and the branches
/// with parameters of every function (by line and column; the pass records the sides
/// of those in selected functions only: a branch in a tiny helper is not worth timing
/// the helper's every call).
pub fn selection_from_report(text: &str, path: &Path) -> Result<String, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        format!(
            "{} is not a taint report (invalid JSON: {e})",
            path.display()
        )
    })?;
    if v.get("schema").and_then(|s| s.as_str()) != Some("taintprof.taint") {
        return Err(format!(
            "{} is not a taint report (no \"schema\": \"taintprof.taint\"); --tp-prior takes the .taintprof.json report of a taint-mode run",
            path.display()
        ));
    }
    let Some(funcs) = v.get("functions").and_then(|f| f.as_array()) else {
        return Err(format!("{}: the report has no `functions`", path.display()));
    };
    let mut fns: BTreeSet<String> = BTreeSet::new();
    let mut loops: BTreeSet<(String, u64)> = BTreeSet::new();
    let mut branches: BTreeSet<(String, u64, u64)> = BTreeSet::new();
    fns.insert("main".into());
    let str_of = |f: &serde_json::Value, k: &str| {
        f.get(k)
            .and_then(|x| x.as_str())
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    for f in funcs {
        let names: Vec<String> = ["linkage", "name"]
            .iter()
            .filter_map(|k| str_of(f, k))
            .collect();
        for b in f
            .get("branches")
            .and_then(|b| b.as_array())
            .into_iter()
            .flatten()
        {
            let tainted = b
                .get("params")
                .and_then(|p| p.as_array())
                .is_some_and(|p| !p.is_empty());
            let pos = |k: &str| b.get(k).and_then(|x| x.as_u64());
            if let (true, Some(line)) = (tainted, pos("line")) {
                for n in &names {
                    branches.insert((n.clone(), line, pos("column").unwrap_or(0)));
                }
            }
        }
        if f.get("constant").and_then(|c| c.as_bool()) != Some(false) {
            continue;
        }
        fns.extend(names.iter().cloned());
        for c in f
            .get("contexts")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            for fr in c
                .get("path")
                .and_then(|p| p.as_array())
                .into_iter()
                .flatten()
            {
                for k in ["linkage", "function"] {
                    if let Some(n) = str_of(fr, k) {
                        fns.insert(n);
                    }
                }
            }
        }
        for l in f
            .get("loops")
            .and_then(|l| l.as_array())
            .into_iter()
            .flatten()
        {
            let tainted = l
                .get("params")
                .and_then(|p| p.as_array())
                .is_some_and(|p| !p.is_empty());
            let is_loop = l.get("kind").and_then(|k| k.as_str()).unwrap_or("loop") == "loop";
            if let (true, true, Some(line)) =
                (tainted, is_loop, l.get("line").and_then(|x| x.as_u64()))
            {
                for n in &names {
                    loops.insert((n.clone(), line));
                }
            }
        }
    }
    let mut s = render(&fns, &loops, &format!("taint report {}", path.display()));
    for (f, l, c) in &branches {
        s.push_str(&format!("branch\t{f}\t{l}\t{c}\n"));
    }
    Ok(s)
}

fn render(fns: &BTreeSet<String>, loops: &BTreeSet<(String, u64)>, from: &str) -> String {
    let mut s = format!("# taintprof time-mode selection, from the {from}\n");
    for f in fns {
        s.push_str(&format!("fn\t{f}\n"));
    }
    for (f, l) in loops {
        s.push_str(&format!("loop\t{f}\t{l}\n"));
    }
    s
}

/// The selection of a Score-P filter file (`taintprof report --scorep-filter`): the
/// names its `INCLUDE` rules list in the region block (exact names; wildcard patterns
/// are an error), plus `main`. No loop is counted.
pub fn selection_from_filter(text: &str, path: &Path) -> Result<String, String> {
    let mut fns: BTreeSet<String> = BTreeSet::new();
    fns.insert("main".into());
    let mut in_block = false;
    let mut including = false;
    let mut seen_block = false;
    for line in text.lines() {
        let line = strip_comment(line);
        for tok in line.split_whitespace() {
            match tok {
                "SCOREP_REGION_NAMES_BEGIN" => {
                    in_block = true;
                    seen_block = true;
                }
                "SCOREP_REGION_NAMES_END" => in_block = false,
                _ if !in_block => {}
                "INCLUDE" => including = true,
                "EXCLUDE" => including = false,
                "MANGLED" => {}
                pat if including => {
                    if pat.chars().any(|c| matches!(c, '*' | '?' | '[')) {
                        return Err(format!(
                            "{}: INCLUDE pattern `{pat}` has a wildcard; time mode takes exact function names",
                            path.display()
                        ));
                    }
                    fns.insert(pat.replace('\\', ""));
                }
                _ => {}
            }
        }
    }
    if !seen_block {
        return Err(format!(
            "{} is not a Score-P filter file (no SCOREP_REGION_NAMES_BEGIN)",
            path.display()
        ));
    }
    Ok(render(
        &fns,
        &BTreeSet::new(),
        &format!("Score-P filter {}", path.display()),
    ))
}

/// The line without its comment (`#` not escaped by a backslash).
fn strip_comment(line: &str) -> &str {
    let b = line.as_bytes();
    for i in 0..b.len() {
        if b[i] == b'#' && (i == 0 || b[i - 1] != b'\\') {
            return &line[..i];
        }
    }
    line
}

/// Reads `--tp-prior` or `--tp-filter` and writes the selection file the pass reads
/// (in the temporary directory, named by its content, so every compile of a build
/// shares it); its path.
pub fn selection_file(prior: Option<&Path>, filter: Option<&Path>) -> Result<PathBuf, String> {
    let (path, is_prior) = match (prior, filter) {
        (Some(p), None) => (p, true),
        (None, Some(f)) => (f, false),
        (Some(_), Some(_)) => return Err("--tp-prior and --tp-filter exclude each other".into()),
        (None, None) => return Err("no selection".into()),
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "cannot read the {} {}: {e}",
            if is_prior {
                "taint report (--tp-prior)"
            } else {
                "filter (--tp-filter)"
            },
            path.display()
        )
    })?;
    let sel = if is_prior {
        selection_from_report(&text, path)?
    } else {
        selection_from_filter(&text, path)?
    };
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    sel.hash(&mut h);
    let dir = std::env::temp_dir();
    let file = dir.join(format!("taintprof-time-select-{:016x}.txt", h.finish()));
    if std::fs::read_to_string(&file).ok().as_deref() != Some(sel.as_str()) {
        let tmp = dir.join(format!(
            ".taintprof-time-select-{:016x}.{}",
            h.finish(),
            std::process::id()
        ));
        std::fs::write(&tmp, &sel)
            .and_then(|_| std::fs::rename(&tmp, &file))
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    Ok(file)
}

/// The short profile of a time profile: the top call paths by inclusive time.
pub fn render_short(p: &taintprof_model::time::TimeProfile, shown: usize) -> String {
    let mut regions: Vec<&taintprof_model::time::Region> = p.regions.iter().collect();
    regions.sort_by(|a, b| b.inclusive_seconds.total_cmp(&a.inclusive_seconds));
    let mut t = Table::new(&[Align::Left, Align::Right, Align::Right, Align::Right]).header([
        "call path",
        "visits",
        "inclusive s",
        "exclusive s",
    ]);
    for r in regions.iter().take(shown) {
        t.row([
            crate::table::shown_callpath(&r.callpath),
            format!("{}", r.visits),
            format!("{:.6}", r.inclusive_seconds),
            format!("{:.6}", r.exclusive_seconds),
        ]);
    }
    let params: Vec<String> = p.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let mut s = format!(
        "time profile: {} call paths, wall {:.3} s{}{}\n",
        p.regions.len(),
        p.wall_seconds,
        if p.ranks > 1 {
            format!(", mean of {} ranks", p.ranks)
        } else {
            String::new()
        },
        if params.is_empty() {
            String::new()
        } else {
            format!(", parameters {}", params.join(" "))
        }
    );
    s.push_str(&t.render("  "));
    if p.regions.len() > shown {
        s.push_str(&format!("({} more call paths)\n", p.regions.len() - shown));
    }
    s.push_str(&render_branches(&regions[..regions.len().min(shown)]));
    s
}

/// One line per recorded branch of `regions`: in how many of the call path's calls
/// each side was taken.
fn render_branches(regions: &[&taintprof_model::time::Region]) -> String {
    let mut s = String::new();
    for r in regions {
        let mut i = 0;
        while i < r.branches.len() {
            let b = &r.branches[i];
            let same = r.branches[i..]
                .iter()
                .take_while(|o| (o.line, o.column, &o.file) == (b.line, b.column, &b.file))
                .count();
            let sides: Vec<String> = r.branches[i..i + same]
                .iter()
                .map(|o| {
                    let to = if o.target_line == 0 {
                        format!("side {}", o.side)
                    } else {
                        format!("to line {}", o.target_line)
                    };
                    format!("{to} in {} of {} calls", o.calls, r.visits)
                })
                .collect();
            s.push_str(&format!(
                "  branch {}:{}:{} in {}: {}\n",
                b.file.rsplit('/').next().unwrap_or(&b.file),
                b.line,
                b.column,
                crate::table::shown_callpath(&r.callpath),
                sides.join(", ")
            ));
            i += same;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_selection() {
        let r = r#"{"schema":"taintprof.taint","functions":[
            {"name":"step","linkage":"_Z4stepv","constant":false,
             "contexts":[{"path":[{"function":"solve"}]}],
             "loops":[{"line":24,"kind":"loop","params":["n"]},{"line":30,"kind":"loop","params":[]}],
             "branches":[{"line":26,"column":9,"params":["n"]},{"line":28,"column":5,"params":[]}]},
            {"name":"probe","linkage":"probe","constant":true,"loops":[],
             "branches":[{"line":40,"column":7,"params":["m"]}]}]}"#;
        let s = selection_from_report(r, Path::new("r.json")).unwrap();
        assert!(s.contains("fn\t_Z4stepv\n") && s.contains("fn\tstep\n"));
        assert!(s.contains("fn\tsolve\n") && s.contains("fn\tmain\n"));
        assert!(!s.contains("fn\tprobe"));
        // Tainted branches of every function (the pass keeps those it instruments).
        assert!(s.contains("branch\tstep\t26\t9\n") && !s.contains("\t28\t"));
        assert!(s.contains("branch\tprobe\t40\t7\n"));
        assert!(s.contains("loop\tstep\t24\n") && !s.contains("\t30\n"));
        assert!(selection_from_report("{}", Path::new("r.json")).is_err());
        assert!(selection_from_report("nope", Path::new("r.json")).is_err());
    }

    #[test]
    fn filter_selection() {
        let f = "# c\nSCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *\n  INCLUDE MANGLED _Z4initv # x\n  INCLUDE MANGLED main\nSCOREP_REGION_NAMES_END\n";
        let s = selection_from_filter(f, Path::new("f")).unwrap();
        assert!(s.contains("fn\t_Z4initv\n") && s.contains("fn\tmain\n"));
        assert!(!s.contains("fn\t*"));
        assert!(selection_from_filter("INCLUDE x", Path::new("f")).is_err());
        assert!(selection_from_filter(
            "SCOREP_REGION_NAMES_BEGIN\nINCLUDE a*\nSCOREP_REGION_NAMES_END",
            Path::new("f")
        )
        .is_err());
    }
}
