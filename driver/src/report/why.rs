//! `taintprof report --why FUNCTION:LINE PARAM`: the chain that brought a parameter's
//! label to a loop.
//!
//! The run report says *that* `PARAM` reaches the loop. The compile-time sidecars hold
//! each function's provenance graph (`pass/src/provenance.rs`): loads, calls,
//! arguments, merges and branches, with source positions, plus the stores, call sites
//! and registrations of every function. This module joins the graphs of all sidecars
//! into one program graph and searches it backwards, from the loop's exit tests to a
//! registration of `PARAM`, preferring data steps over control steps and exact memory
//! matches over matches by offset (a cheapest-path search). The chain it prints is a
//! path the analysis could have taken; where memory is matched by offset only (a
//! pointer of unknown origin), the step says so.

use super::{Loop, Report};
use serde_json::Value;
use std::collections::{BinaryHeap, HashMap};
use std::path::{Path, PathBuf};

/// One step kind of the program graph.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Load(String),
    Call(String),
    Arg(usize),
    Phi,
    Branch,
    Op,
    Store(String),
    Reg(String),
    /// Argument `k` of a call to `callee`, as passed at a call site.
    Pass(String, usize),
}

#[derive(Debug, Clone)]
struct Pos {
    function: String,
    file: String,
    line: u32,
    column: u32,
}

#[derive(Debug, Clone)]
struct Node {
    kind: Kind,
    pos: Option<Pos>,
    deps: Vec<usize>,
    /// Index into `Program::funcs` of the function whose graph holds the node.
    owner: usize,
}

struct Func {
    name: String,
    linkage: String,
    /// Argument nodes by index.
    args: HashMap<usize, usize>,
    ret: Vec<usize>,
}

struct LoopRoots {
    function: String,
    line: u32,
    roots: Vec<usize>,
}

/// The joined graphs of all sidecars.
#[derive(Default)]
pub struct Program {
    nodes: Vec<Node>,
    funcs: Vec<Func>,
    loops: Vec<LoopRoots>,
    /// Store and registration nodes by the offset part of their memory key (`[]+8`),
    /// then by the key (a load only compares keys with its own offset part).
    writes: HashMap<String, HashMap<String, Vec<usize>>>,
    /// Argument nodes of call sites by (callee linkage name, argument index).
    passes: HashMap<(String, usize), Vec<usize>>,
    /// Defined functions by linkage name.
    defined: HashMap<String, Vec<usize>>,
    /// How many sidecars had a provenance graph.
    pub sidecars: usize,
}

/// A memory key split into its base and `[]+offset` part (`g:grid[]+8` → (`g:grid`,
/// `[]+8`)).
fn split_key(k: &str) -> (&str, &str) {
    let plus = k.rfind('+').unwrap_or(k.len());
    let at = if k[..plus].ends_with("[]") {
        plus - 2
    } else {
        plus
    };
    (&k[..at], &k[at..])
}

/// Whether a read of `load` may see a write to `store`: `Some(true)` for the same
/// named memory, `Some(false)` only by offset (through a pointer of unknown origin,
/// or two struct or pointed-to bases that may be one object), `None` if not.
fn keys_match(load: &str, store: &str) -> Option<bool> {
    let (lb, lo) = split_key(load);
    let (sb, so) = split_key(store);
    if lo != so {
        return None;
    }
    bases_match(lb, sb)
}

fn bases_match(a: &str, b: &str) -> Option<bool> {
    if a == "?" || b == "?" {
        return Some(false);
    }
    let named = |x: &str| x.starts_with("g:") || x.starts_with('l');
    if named(a) || named(b) {
        return (a == b).then_some(true);
    }
    match (a.strip_prefix('*'), b.strip_prefix('*')) {
        (Some(x), Some(y)) => keys_match(x, y),
        // A struct reached from an argument may be the one a pointer in memory names.
        _ if a == b => Some(true),
        _ => Some(false),
    }
}

impl Program {
    /// Read every sidecar under `paths` (files, or directories searched one level deep
    /// for `*.taintprof-static.json`).
    pub fn load(paths: &[PathBuf]) -> Result<Program, String> {
        let mut files = Vec::new();
        for p in paths {
            if p.is_dir() {
                let Ok(rd) = std::fs::read_dir(p) else {
                    continue;
                };
                let mut found: Vec<PathBuf> = rd
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|f| {
                        f.file_name().is_some_and(|n| {
                            n.to_string_lossy().ends_with(".taintprof-static.json")
                        })
                    })
                    .collect();
                found.sort();
                files.extend(found);
            } else if p.is_file() {
                files.push(p.clone());
            }
        }
        files.dedup();
        let mut prog = Program::default();
        for f in &files {
            let text = std::fs::read_to_string(f)
                .map_err(|e| format!("cannot read {}: {e}", f.display()))?;
            let v: Value = serde_json::from_str(&text)
                .map_err(|e| format!("{}: not a taintprof sidecar: {e}", f.display()))?;
            if v["schema"] != "taintprof.static" {
                continue;
            }
            let before = prog.funcs.len();
            for func in v["functions"].as_array().into_iter().flatten() {
                prog.add_function(func);
            }
            if prog.funcs.len() > before {
                prog.sidecars += 1;
            }
        }
        Ok(prog)
    }

    fn add_function(&mut self, f: &Value) {
        let g = &f["provenance"];
        if !g.is_object() {
            return;
        }
        let fi = self.funcs.len();
        let linkage = f["linkage"].as_str().unwrap_or_default().to_string();
        self.funcs.push(Func {
            name: f["name"].as_str().unwrap_or_default().to_string(),
            linkage: linkage.clone(),
            args: HashMap::new(),
            ret: Vec::new(),
        });
        self.defined.entry(linkage).or_default().push(fi);
        let fns: Vec<(String, String)> = g["fns"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                (
                    p[0].as_str().unwrap_or_default().to_string(),
                    p[1].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect();
        let pos = |p: &Value| -> Option<Pos> {
            let a = p.as_array()?;
            let (func, file) = fns.get(a.first()?.as_u64()? as usize)?;
            Some(Pos {
                function: func.clone(),
                file: file.clone(),
                line: a.get(1)?.as_u64()? as u32,
                column: a.get(2)?.as_u64()? as u32,
            })
        };
        let base = self.nodes.len();
        let ids = |v: &Value| -> Vec<usize> {
            v.as_array()
                .into_iter()
                .flatten()
                .filter_map(|d| d.as_u64().map(|d| base + d as usize))
                .collect()
        };
        // Locals are only this function's.
        let local = |k: &str| -> String {
            match k.strip_prefix("l:") {
                Some(rest) => format!("l{fi}:{rest}"),
                None => k.to_string(),
            }
        };
        for n in g["nodes"].as_array().into_iter().flatten() {
            let k = n[0].as_str().unwrap_or_default();
            let kind = if let Some(key) = k.strip_prefix("load:") {
                Kind::Load(local(key))
            } else if let Some(c) = k.strip_prefix("call:") {
                Kind::Call(c.to_string())
            } else if let Some(a) = k.strip_prefix("arg:") {
                Kind::Arg(a.parse().unwrap_or(0))
            } else if k == "phi" {
                Kind::Phi
            } else if k == "branch" {
                Kind::Branch
            } else {
                Kind::Op
            };
            if let Kind::Arg(a) = kind {
                self.funcs[fi].args.insert(a, self.nodes.len());
            }
            self.nodes.push(Node {
                kind,
                pos: pos(&n[1]),
                deps: ids(&n[2]),
                owner: fi,
            });
        }
        self.funcs[fi].ret = ids(&g["ret"]);
        for l in g["loops"].as_array().into_iter().flatten() {
            self.loops.push(LoopRoots {
                function: l[0].as_str().unwrap_or_default().to_string(),
                line: l[1].as_u64().unwrap_or(0) as u32,
                roots: ids(&l[3]),
            });
        }
        for s in g["stores"].as_array().into_iter().flatten() {
            let key = local(s[0].as_str().unwrap_or_default());
            let id = self.nodes.len();
            self.nodes.push(Node {
                kind: Kind::Store(key.clone()),
                pos: pos(&s[1]),
                deps: ids(&s[2]),
                owner: fi,
            });
            self.add_write(key, id);
        }
        for r in g["regs"].as_array().into_iter().flatten() {
            let key = local(r[1].as_str().unwrap_or_default());
            let id = self.nodes.len();
            self.nodes.push(Node {
                kind: Kind::Reg(r[0].as_str().unwrap_or_default().to_string()),
                pos: pos(&r[2]),
                deps: Vec::new(),
                owner: fi,
            });
            self.add_write(key, id);
        }
        for c in g["calls"].as_array().into_iter().flatten() {
            let callee = c[0].as_str().unwrap_or_default().to_string();
            for (k, a) in c[2].as_array().into_iter().flatten().enumerate() {
                let deps = ids(a);
                if deps.is_empty() {
                    continue;
                }
                let id = self.nodes.len();
                self.nodes.push(Node {
                    kind: Kind::Pass(callee.clone(), k),
                    pos: pos(&c[1]),
                    deps,
                    owner: fi,
                });
                self.passes.entry((callee.clone(), k)).or_default().push(id);
            }
        }
    }

    fn add_write(&mut self, key: String, id: usize) {
        let rest = split_key(&key).1.to_string();
        self.writes
            .entry(rest)
            .or_default()
            .entry(key)
            .or_default()
            .push(id);
    }

    /// The sources of node `n`, each with the cost of the step and whether it matched
    /// memory by offset only.
    fn sources(&self, n: usize, skip_fn: &dyn Fn(usize) -> bool) -> Vec<(usize, u32, bool)> {
        let node = &self.nodes[n];
        let mut out = Vec::new();
        let dep_cost = |d: usize| match self.nodes[d].kind {
            Kind::Branch => 3,
            _ => 1,
        };
        match &node.kind {
            Kind::Load(key) => {
                let same_offset = self.writes.get(split_key(key).1).into_iter().flatten();
                for (k, ws) in same_offset {
                    let Some(exact) = keys_match(key, k) else {
                        continue;
                    };
                    for &w in ws {
                        if skip_fn(self.nodes[w].owner) {
                            continue;
                        }
                        out.push((w, if exact { 1 } else { 4 }, !exact));
                    }
                }
                for &d in &node.deps {
                    out.push((d, 2 + dep_cost(d), false));
                }
            }
            Kind::Call(callee) => match self.defined.get(callee) {
                Some(fs) => {
                    for &f in fs {
                        for &r in &self.funcs[f].ret {
                            out.push((r, 1, false));
                        }
                    }
                }
                None => out.extend(node.deps.iter().map(|&d| (d, dep_cost(d), false))),
            },
            Kind::Arg(a) => {
                let key = (self.funcs[node.owner].linkage.clone(), *a);
                for &p in self.passes.get(&key).into_iter().flatten() {
                    if !skip_fn(self.nodes[p].owner) {
                        out.push((p, 1, false));
                    }
                }
            }
            Kind::Reg(_) => {}
            _ => out.extend(node.deps.iter().map(|&d| (d, dep_cost(d), false))),
        }
        out
    }

    /// The loops whose own function is `function` (or its linkage name) and whose line
    /// is `line`.
    fn loop_roots(&self, function: &str, line: u32) -> Vec<usize> {
        let mut roots: Vec<usize> = self
            .loops
            .iter()
            .filter(|l| l.line == line && names_match(&l.function, function))
            .flat_map(|l| l.roots.iter().copied())
            .collect();
        roots.sort_unstable();
        roots.dedup();
        roots
    }

    /// The cheapest chain from the loop's roots back to a registration of `param`,
    /// ordered from the loop to the registration; each step with whether memory was
    /// matched by offset only.
    fn chain(
        &self,
        roots: &[usize],
        param: &str,
        skip_fn: &dyn Fn(usize) -> bool,
    ) -> Option<Vec<(usize, bool)>> {
        let n = self.nodes.len();
        let mut dist = vec![u32::MAX; n];
        let mut from: Vec<Option<(usize, bool)>> = vec![None; n];
        let mut heap = BinaryHeap::new();
        for &r in roots {
            dist[r] = 0;
            heap.push(std::cmp::Reverse((0u32, r)));
        }
        while let Some(std::cmp::Reverse((d, x))) = heap.pop() {
            if d > dist[x] {
                continue;
            }
            if matches!(&self.nodes[x].kind, Kind::Reg(p) if p == param) {
                // `from[s] = (x, vague)`: the step from `x` (nearer the loop) to `s`;
                // each node of the path carries the flag of the step into it.
                let mut path = Vec::new();
                let mut cur = x;
                loop {
                    match from[cur] {
                        Some((prev, vague)) => {
                            path.push((cur, vague));
                            cur = prev;
                        }
                        None => {
                            path.push((cur, false));
                            break;
                        }
                    }
                }
                path.reverse();
                return Some(path);
            }
            for (s, c, vague) in self.sources(x, skip_fn) {
                let nd = d + c;
                if nd < dist[s] {
                    dist[s] = nd;
                    from[s] = Some((x, vague));
                    heap.push(std::cmp::Reverse((nd, s)));
                }
            }
        }
        None
    }
}

/// Whether a sidecar function name (`smooth`, `Grid::sweep`, `_Z5sweepv`) names what
/// the user typed (`smooth`, `Grid::sweep`, `sweep`).
fn names_match(have: &str, want: &str) -> bool {
    let base = |s: &str| s.split('(').next().unwrap_or(s).trim().to_string();
    let h = base(have);
    let w = base(want);
    h == w || h.rsplit("::").next() == Some(&w) || have == want
}

/// What a `--why` request asks.
#[derive(Debug)]
pub struct WhyRequest {
    pub function: String,
    pub line: u32,
    pub param: String,
}

impl WhyRequest {
    /// Parse `FUNCTION:LINE` and `PARAM`.
    pub fn parse(at: &str, param: &str) -> Result<WhyRequest, String> {
        let (f, l) = at.rsplit_once(':').ok_or_else(|| {
            format!("--why {at:?}: expected FUNCTION:LINE (a loop as the report lists it, e.g. smooth:30)")
        })?;
        let line = l
            .parse::<u32>()
            .map_err(|_| format!("--why {at:?}: {l:?} is not a line number"))?;
        if f.is_empty() {
            return Err(format!("--why {at:?}: the function name is missing"));
        }
        Ok(WhyRequest {
            function: f.to_string(),
            line,
            param: param.to_string(),
        })
    }
}

/// Where to look for sidecars when none are given: the report's directory, the
/// program's directory, and the working directory.
pub fn default_sidecar_dirs(report_file: &Path, r: &Report) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let parent = |p: &Path| {
        p.parent()
            .map(|d| {
                if d.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    d.to_path_buf()
                }
            })
            .unwrap_or_else(|| PathBuf::from("."))
    };
    dirs.push(parent(report_file));
    if !r.program.path.is_empty() {
        dirs.push(parent(Path::new(&r.program.path)));
    }
    dirs.push(PathBuf::from("."));
    let mut seen = Vec::new();
    dirs.retain(|d| {
        let c = d.canonicalize().unwrap_or_else(|_| d.clone());
        if seen.contains(&c) {
            false
        } else {
            seen.push(c);
            true
        }
    });
    dirs
}

/// The answer as text.
pub fn explain(r: &Report, prog: &Program, req: &WhyRequest) -> Result<String, String> {
    if !r.parameters.iter().any(|p| p == &req.param) {
        return Err(format!(
            "{:?} is not a parameter of this run; the parameters are: {}",
            req.param,
            r.parameters.join(", ")
        ));
    }
    let found: Vec<(&super::Function, &Loop)> = r
        .functions
        .iter()
        .filter(|f| names_match(&f.name, &req.function) || f.linkage == req.function)
        .flat_map(|f| f.loops.iter().map(move |l| (f, l)))
        .filter(|(_, l)| l.line == req.line)
        .collect();
    if found.is_empty() {
        let lines: Vec<String> = r
            .functions
            .iter()
            .filter(|f| names_match(&f.name, &req.function) || f.linkage == req.function)
            .flat_map(|f| f.loops.iter().map(|l| l.line.to_string()))
            .collect();
        return Err(if lines.is_empty() {
            format!("the report has no function {:?} with loops", req.function)
        } else {
            format!(
                "{} has no loop at line {}; its loops are at lines {}",
                req.function,
                req.line,
                lines.join(", ")
            )
        });
    }
    let (func, lp) = found[0];
    let mut out = String::new();
    let title = format!("{}:{}", func.name, req.line);
    if !lp.params.iter().any(|p| p == &req.param) {
        out.push_str(&format!(
            "The loop at {title} does not depend on {} in this run (its parameters: {}).\n",
            req.param,
            if lp.params.is_empty() {
                "none".to_string()
            } else {
                lp.params.join(", ")
            }
        ));
        return Ok(out);
    }
    if prog.sidecars == 0 {
        return Err(
            "no compile-time sidecars with provenance graphs were found \
             (<object>.taintprof-static.json, written by taintprof-cc next to each object); \
             give their files or directories with --static, or rebuild with this version"
                .to_string(),
        );
    }
    let roots = prog.loop_roots(&func.name, req.line);
    if roots.is_empty() {
        return Err(format!(
            "the sidecars have no graph for the loop at {title}: were they written by the \
             build that made this program? (give them with --static)"
        ));
    }
    // Functions that did not run cannot have passed the label on.
    let not_run: Vec<&str> = r
        .functions
        .iter()
        .filter(|f| f.executed == Some(false))
        .map(|f| f.linkage.as_str())
        .collect();
    let skip_fn = |fi: usize| not_run.contains(&prog.funcs[fi].linkage.as_str());
    let how = if lp.control_only_params.iter().any(|p| p == &req.param) {
        " (only through control flow)"
    } else {
        ""
    };
    out.push_str(&format!(
        "Why the loop at {title} depends on {}{how}:\n\n",
        req.param
    ));
    let Some(chain) = prog.chain(&roots, &req.param, &skip_fn) else {
        out.push_str(&format!(
            "  No chain back to the registration of {} was found in the sidecars' graphs.\n  \
             The label came through something they do not follow: a pointer kept in memory,\n  \
             a library call, or code built without taintprof-cc.\n",
            req.param
        ));
        return Ok(out);
    };
    let mut sources = SourceCache::default();
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut first = true;
    for (k, &(n, vague)) in chain.iter().enumerate() {
        let node = &prog.nodes[n];
        let next = chain.get(k + 1).map(|&(x, _)| &prog.nodes[x]);
        let what = match &node.kind {
            Kind::Branch if first => "the loop's exit test".to_string(),
            Kind::Branch => "decided by the branch".to_string(),
            Kind::Load(key) => {
                let through = next.is_some_and(|x| matches!(x.kind, Kind::Store(_) | Kind::Reg(_)));
                format!(
                    "{}{}",
                    describe_read(key),
                    if through { "" } else { ", at an index from" }
                )
            }
            Kind::Pass(c, k) => format!("passed as argument {} to {}", k + 1, short(c, prog)),
            Kind::Store(_) if vague => {
                "stored here (matched by offset: a pointer of unknown origin)".to_string()
            }
            Kind::Store(_) => "stored here".to_string(),
            Kind::Reg(p) => format!("registered as {p:?}"),
            Kind::Call(c) if prog.defined.contains_key(c) => {
                format!("returned by {}", short(c, prog))
            }
            Kind::Call(c) => format!("the result of {c}, from its arguments"),
            Kind::Arg(a) => format!("argument {} of {}", a + 1, prog.funcs[node.owner].name),
            Kind::Phi => "merged at a join".to_string(),
            Kind::Op => continue,
        };
        first = false;
        let (at, text) = match &node.pos {
            Some(p) => (
                format!(
                    "{}:{}:{} in {}",
                    Path::new(&p.file)
                        .file_name()
                        .map(|f| f.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    p.line,
                    p.column,
                    p.function
                ),
                sources.line(&p.file, p.line),
            ),
            None => (format!("in {}", prog.funcs[node.owner].name), String::new()),
        };
        // Steps without a position repeat nothing useful when the next has one.
        if node.pos.is_none() && matches!(node.kind, Kind::Phi) {
            continue;
        }
        rows.push((what, at, text));
    }
    let w = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    for (k, (what, at, text)) in rows.iter().enumerate() {
        let arrow = if k == 0 { "   " } else { "<- " };
        out.push_str(&format!("  {arrow}{what:<w$}  {at}\n"));
        if !text.is_empty() {
            out.push_str(&format!("         | {text}\n"));
        }
    }
    out.push_str(
        "\n  (a path through the static graph, from the loop back to the registration; \
         memory matched by offset and calls from several sites may make it one of several)\n",
    );
    Ok(out)
}

/// A load's memory key in words.
fn describe_read(key: &str) -> String {
    let (base, rest) = split_key(key);
    let off = rest.trim_start_matches("[]+");
    let off = off.trim_start_matches('+');
    let elem = if rest.starts_with("[]") {
        "an element of "
    } else {
        ""
    };
    if let Some(g) = base.strip_prefix("g:") {
        format!("read {elem}`{g}`")
    } else if let Some(st) = base.strip_prefix("s:") {
        format!("read {elem}a field of `{st}` (offset {off})")
    } else if let Some(inner) = base.strip_prefix('*') {
        let (ib, _) = split_key(inner);
        let what = match ib.strip_prefix("g:") {
            Some(g) => format!("`{g}`"),
            None => "a pointer in memory".to_string(),
        };
        format!("read {elem}what {what} points to")
    } else if base.contains(":h") {
        format!("read {elem}memory allocated there")
    } else if base.starts_with('l') {
        format!("read {elem}a local variable")
    } else {
        format!("read {elem}memory through a pointer")
    }
}

fn short(c: &str, prog: &Program) -> String {
    prog.defined
        .get(c)
        .and_then(|fs| fs.first())
        .map(|&f| prog.funcs[f].name.clone())
        .unwrap_or_else(|| c.to_string())
}

/// Source lines, read once per file.
#[derive(Default)]
struct SourceCache {
    files: HashMap<String, Option<Vec<String>>>,
}

impl SourceCache {
    fn line(&mut self, file: &str, line: u32) -> String {
        let lines = self.files.entry(file.to_string()).or_insert_with(|| {
            std::fs::read_to_string(file)
                .ok()
                .map(|t| t.lines().map(str::to_string).collect())
        });
        lines
            .as_ref()
            .and_then(|l| l.get(line.checked_sub(1)? as usize))
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_match_exactly_or_by_offset_through_unknown_pointers() {
        assert_eq!(keys_match("g:n+0", "g:n+0"), Some(true));
        assert_eq!(keys_match("g:n+0", "g:m+0"), None);
        assert_eq!(keys_match("?+8", "l3:5+8"), Some(false));
        assert_eq!(keys_match("s:mesh+8", "s:grid+8"), Some(false));
        assert_eq!(keys_match("s:mesh+8", "g:n+8"), None);
        assert_eq!(keys_match("?[]+0", "?+0"), None);
        assert_eq!(keys_match("?[]+0", "g:a[]+0"), Some(false));
        assert_eq!(keys_match("*g:dom+8[]+0", "*g:dom+8[]+0"), Some(true));
        assert_eq!(keys_match("*g:dom+8[]+0", "*g:dom+16[]+0"), None);
        assert_eq!(keys_match("*?+8[]+0", "*g:dom+8[]+0"), Some(false));
        assert_eq!(keys_match("s:mesh+8", "s:mesh+8"), Some(true));
        assert_eq!(keys_match("*g:p+0+8", "s:mesh+8"), Some(false));
    }

    #[test]
    fn why_requests_name_a_loop_and_a_parameter() {
        let r = WhyRequest::parse("Grid::sweep:30", "n").unwrap();
        assert_eq!(
            (r.function.as_str(), r.line, r.param.as_str()),
            ("Grid::sweep", 30, "n")
        );
        assert!(WhyRequest::parse("sweep", "n")
            .unwrap_err()
            .contains("FUNCTION:LINE"));
        assert!(WhyRequest::parse("sweep:x", "n")
            .unwrap_err()
            .contains("line number"));
        assert!(names_match("Grid::sweep(int)", "sweep"));
        assert!(names_match("smooth", "smooth"));
        assert!(!names_match("smoothe", "smooth"));
    }
}
