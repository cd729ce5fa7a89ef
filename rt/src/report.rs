//! The JSON report (`docs/report-schema.md`, schema `taintprof.taint` version 4).
//!
//! ## When
//!
//! * At exit ([`final_report`] from the `on_exit` hook registered at start-up): `exit()`
//!   and a return from `main` both get there, with the exit status.
//! * On a fatal signal ([`on_fatal_signal`], from [`crate::signals`]).
//! * On request: `tp_write_report()` writes a report of the run so far under the same
//!   name; the final report replaces it.
//!
//! The final report is written once per process: an atomic state decides between a
//! racing `exit` and signal, and a signal arriving while another thread writes waits for
//! it (bounded) before the process dies. A mid-run report never replaces a final one.
//!
//! ## Where
//!
//! `$TAINTPROF_OUT/<prog>.<pid>.taintprof.json` (default directory: the working
//! directory at start-up; created if missing), written to a temporary file in the same
//! directory and renamed into place, then `taintprof: report written to <path>` on stderr
//! (`TAINTPROF_QUIET=1` silences it). `<prog>` is the basename of `/proc/self/exe`.
//!
//! Right after the report, every path that writes it also writes the raw run record
//! `<prog>.<pid>.taintprof.rec` ([`crate::record`], `TAINTPROF_RECORD`) under the same
//! rules: inside the same once-only state, from the same snapshot of the loops in flight.
//!
//! ## How
//!
//! The report is built from the registered module descriptors and every thread's
//! calling-context tree, read lock-free. Nothing on this path calls malloc or takes a
//! lock (scratch arrays are [`MmapVec`]s, sorting is in place, nothing recurses), so it
//! can run inside a signal handler, even one that interrupted malloc.
//!
//! [`crate::model`] computes what the report says:
//!
//! 1. **Loops** merged by source identity: the last `SrcLoc` of their inline chain
//!    (linkage name, file, line, column). The same loop can have several descriptors
//!    (inlined copies, versioned loops, linkonce functions in several TUs). Loops without
//!    a line (no debug info) are never merged. `parent_line` from `LoopDesc::parent`.
//! 2. **Functions** as written: each module's `FuncDesc`s plus every function named in a
//!    loop chain, a branch chain or a context path, identified by (linkage name, file).
//! 3. The **logical calling-context tree** (physical nodes mapped back to source
//!    functions through inline chains), with each logical node's loop-nest tree
//!    including the calls made inside loops; from it every context's and function's
//!    parameters and symbolic **volume** ([`crate::volume`]).
//! 4. **Branches** merged by source position.
//!
//! This module then writes it, with `summary` (Table 2 of the Perf-Taint paper),
//! `coverage` (Table 3) and the `recommendation` of a parameter pair and triple.
//! Output order: functions by `file`, `line`, `name`; loops and branches by `line`,
//! `column`; contexts by path (frame by frame; a prefix first).

use core::cmp::Ordering::Equal;
use core::ffi::c_char;
use core::fmt::Write as _;
use core::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering::*};

use taintprof_abi::{
    Label, ModuleDesc, LOOP_FOLDED, LOOP_LIBRARY, MODULE_CONTROL_FLOW, MODULE_NO_DEBUG_INFO,
};
use taintprof_sigsafe::file::{mkdir_p, write_atomic, Durability};
use taintprof_sigsafe::json::{Json, Sink};
use taintprof_sigsafe::{
    errno_text, getpid, gettid, now_ns, sleep_ms, thread_alive, FdSink, Lossy, MmapVec, StackBuf,
};

use crate::context::{self, ThreadState};
use crate::model::{loc, s, Model, NONE};
use crate::params::Registry;
use crate::{init, modules, options, signals, volume};

/// Why the report is being written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Normal exit with this status (`exit(status)` or a return from `main`).
    Code(i32),
    /// Killed by this signal.
    Signal(i32),
    /// Mid-run report (`tp_write_report`).
    Running,
    /// `_exit(status)` / `_Exit(status)`: no exit handlers run, the runtime's wrapper
    /// writes the report first.
    Immediate(i32),
    /// The process replaces its program (`execve` and friends); the report covers the
    /// run until then.
    Exec,
}

/// The `program` (name, path, argv, pid) and `exit` objects, the same in the taint and
/// the denormal report.
pub fn write_program_and_exit<S: Sink>(
    j: &mut Json<S>,
    name: &[u8],
    path: &[u8],
    argv: &[*const c_char],
    pid: i32,
    exit: Exit,
) {
    j.key("program");
    j.begin_object();
    j.kv_bytes("name", name);
    j.kv_bytes("path", path);
    j.key("argv");
    j.begin_array();
    for &a in argv {
        if !a.is_null() {
            j.bytes(s(a));
        }
    }
    j.end_array();
    j.kv_i64("pid", pid as i64);
    j.end_object();
    j.key("exit");
    j.begin_object();
    match exit {
        Exit::Code(c) => {
            j.kv_str("reason", "exit");
            j.kv_i64("code", (c & 0xff) as i64);
        }
        Exit::Signal(sig) => {
            j.kv_str("reason", "signal");
            j.kv_str("signal", signals::name(sig));
            j.kv_i64("number", sig as i64);
        }
        Exit::Running => j.kv_str("reason", "running"),
        Exit::Immediate(c) => {
            j.kv_str("reason", "_exit");
            j.kv_i64("code", (c & 0xff) as i64);
        }
        Exit::Exec => j.kv_str("reason", "exec"),
    }
    let in_flight = crate::inflight::count();
    if in_flight > 0 {
        j.kv_u64("loops_in_flight", in_flight as u64);
    }
    j.end_object();
}

/// Everything a report is built from.
pub struct Inputs<'a> {
    pub name: &'a [u8],
    pub path: &'a [u8],
    pub argv: &'a [*const c_char],
    pub pid: i32,
    pub exit: Exit,
    /// Registered modules, in registration order.
    pub modules: &'a [*const ModuleDesc],
    /// Threads that ran instrumented code, in creation order.
    pub threads: &'a [*const ThreadState],
    pub params: &'a Registry,
    /// Some thread ran out of memory for its context tree.
    pub context_oom: bool,
    /// Include the process-wide list of refused modules in the warnings.
    pub rejected_modules: bool,
}

// ----------------------------------------------------------------------------------
// Building and writing
// ----------------------------------------------------------------------------------

/// Writes the name of parameter `bit` (`#bit` if it has none).
fn param_name(reg: &Registry, bit: u32, put: &mut dyn FnMut(&[u8])) {
    let name = reg.get(bit as usize).map(|p| p.name).unwrap_or(b"");
    if name.is_empty() {
        let mut b = StackBuf::<16>::new();
        let _ = write!(b, "#{bit}");
        put(b.as_bytes());
    } else {
        put(name);
    }
}

/// The array of the names of the parameters in `label`, registration order.
fn write_label<S: Sink>(j: &mut Json<'_, S>, reg: &Registry, label: Label) {
    j.begin_array();
    for bit in 0..16u32 {
        if label & (1 << bit) != 0 {
            param_name(reg, bit, &mut |b| j.bytes(b));
        }
    }
    j.end_array();
}

fn write_params<S: Sink>(j: &mut Json<'_, S>, reg: &Registry, key: &str, label: Label) {
    j.key(key);
    write_label(j, reg, label);
}

/// A volume as a JSON string value.
fn write_volume<S: Sink>(
    j: &mut Json<'_, S>,
    reg: &Registry,
    terms: &[volume::Term],
    buf: &mut MmapVec<u8>,
) -> bool {
    buf.truncate(0);
    let mut ok = true;
    volume::format(terms, |bit, put| param_name(reg, bit, put), &mut |b| {
        for &c in b {
            ok &= buf.push(c);
        }
    });
    j.bytes(buf.as_slice());
    ok
}

/// Which calling contexts of one function or loop the report lists
/// (`TAINTPROF_MAX_CONTEXTS`): scratch kept across calls, no allocation per call.
#[derive(Default)]
struct Listed {
    /// Per context of the current range when some are left out; empty: all listed.
    keep: MmapVec<bool>,
    /// Distinct labels chosen so far.
    seen: MmapVec<Label>,
    /// Listed when `keep` could not be sized: the first this many.
    first: usize,
}

impl Listed {
    /// Chooses up to `cap` of the contexts `range` (labels `label(k)`, in path order):
    /// the first of each distinct parameter set, then the others in order, so every
    /// parameter set a context has is shown. Returns how many are left out.
    fn choose(&mut self, range: (u32, u32), cap: usize, label: impl Fn(u32) -> Label) -> usize {
        let n = range.1.saturating_sub(range.0) as usize;
        self.keep.truncate(0);
        self.first = usize::MAX;
        if n <= cap {
            return 0;
        }
        if !self.keep.resize(n, false) {
            self.keep.truncate(0);
            self.first = cap;
            return n - cap;
        }
        self.seen.truncate(0);
        let keep = self.keep.as_mut_slice();
        let mut kept = 0;
        for (k, slot) in keep.iter_mut().enumerate() {
            if kept == cap {
                break;
            }
            let l = label(range.0 + k as u32);
            if !self.seen.as_slice().contains(&l) && self.seen.push(l) {
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
        n - kept
    }

    /// Whether context `k` (from the start of the range) is listed.
    fn lists(&self, k: u32) -> bool {
        match self.keep.as_slice() {
            [] => (k as usize) < self.first,
            keep => keep.get(k as usize).copied().unwrap_or(false),
        }
    }
}

/// A context's path: one object per frame. `column` only where another call on the
/// same line makes a context of its own (`line_shared`, from `Paths::line_shared`).
fn write_path<S: Sink>(
    j: &mut Json<'_, S>,
    model: &Model,
    path: u32,
    line_shared: &[bool],
    fbuf: &mut MmapVec<u32>,
) {
    j.key("path");
    j.begin_array();
    model.paths.for_each_prefix(path, fbuf, |id, f| {
        j.begin_object();
        j.kv_bytes("function", s(f.function));
        j.kv_bytes("file", s(f.file));
        j.kv_u64("line", f.line as u64);
        if line_shared.get(id as usize).copied().unwrap_or(false) {
            j.kv_u64("column", f.column as u64);
        }
        j.end_object();
    });
    j.end_array();
}

/// Functions (counted by their own loops) and loops that depend on a parameter of `set`.
fn coverage(model: &Model, set: Label) -> (u64, u64) {
    let f = model
        .funcs
        .as_slice()
        .iter()
        .filter(|g| g.excl_label & set != 0)
        .count();
    let l = model
        .loops
        .as_slice()
        .iter()
        .filter(|g| g.label & set != 0)
        .count();
    (f as u64, l as u64)
}

/// The `k`-subset (k = 2 or 3) of the first `n` parameters covering the most functions
/// (ties: loops, then registration order).
fn recommend(model: &Model, n: u32, k: u32) -> Option<(Label, u64, u64)> {
    let mut best: Option<(Label, u64, u64)> = None;
    let mut consider = |set: Label| {
        let (f, l) = coverage(model, set);
        if best.map(|(_, bf, bl)| (f, l) > (bf, bl)).unwrap_or(true) {
            best = Some((set, f, l));
        }
    };
    for a in 0..n {
        for b in a + 1..n {
            if k == 2 {
                consider(1 << a | 1 << b);
                continue;
            }
            for c in b + 1..n {
                consider(1 << a | 1 << b | 1 << c);
            }
        }
    }
    best
}

fn write_coverage<S: Sink>(j: &mut Json<'_, S>, reg: &Registry, set: Label, f: u64, l: u64) {
    j.begin_object();
    write_params(j, reg, "params", set);
    j.kv_u64("functions", f);
    j.kv_u64("loops", l);
    j.end_object();
}

/// Builds the report from `inp` and writes it to `out`. Never allocates from malloc.
pub fn write_json<S: Sink>(inp: &Inputs<'_>, out: &mut S) {
    let model = Model::build(inp.modules, inp.threads);
    let mut incomplete = false;
    let control_flow = inp.modules.iter().any(|&m| {
        // SAFETY: registered descriptors are valid.
        unsafe { &*m }.flags & MODULE_CONTROL_FLOW != 0
    });

    // Output order of functions.
    let mut order: MmapVec<u32> = MmapVec::new();
    for k in 0..model.funcs.len() {
        incomplete |= !order.push(k as u32);
    }
    {
        let fg = model.funcs.as_slice();
        order.as_mut_slice().sort_unstable_by(|&a, &b| {
            let (Some(x), Some(y)) = (fg.get(a as usize), fg.get(b as usize)) else {
                return Equal;
            };
            let (x, y) = (loc(x.loc), loc(y.loc));
            s(x.file)
                .cmp(s(y.file))
                .then(x.fn_line.cmp(&y.fn_line))
                .then_with(|| s(x.function).cmp(s(y.function)))
                .then_with(|| s(x.linkage).cmp(s(y.linkage)))
        });
    }

    let reg = inp.params;
    let nparams = (reg.len() as u32).min(16);
    let mut j = Json::new(out, 4);
    j.begin_object();
    j.kv_str("schema", "taintprof.taint");
    j.kv_u64("version", 4);
    j.kv_str("taintprof_version", crate::VERSION);

    write_program_and_exit(&mut j, inp.name, inp.path, inp.argv, inp.pid, inp.exit);

    j.key("options");
    j.begin_object();
    j.kv_bool("control_flow", control_flow);
    // Whether loops' labels kept apart what came only through control flow
    // (`crate::split`), and the parameter whose registration turned that off.
    j.kv_bool("control_split", control_flow && crate::split::on());
    j.key("control_split_given_up_at");
    match crate::split::gave_up_at() {
        Some(n) => j.bytes(n),
        None => j.null(),
    }
    j.end_object();

    j.kv_u64("threads", inp.threads.len() as u64);

    j.key("parameters");
    j.begin_array();
    for i in 0..reg.len() {
        if let Some(p) = reg.get(i) {
            j.bytes(p.name);
        }
    }
    j.end_array();
    j.key("parameter_info");
    j.begin_array();
    for i in 0..reg.len() {
        if let Some(p) = reg.get(i) {
            j.begin_object();
            j.kv_bytes("name", p.name);
            j.kv_u64("bit", p.bit as u64);
            j.kv_u64("registrations", p.registrations as u64);
            j.end_object();
        }
    }
    j.end_array();
    j.key("rejected_parameters");
    j.begin_array();
    {
        let mut rej: MmapVec<*const crate::params::Rejected> = MmapVec::new();
        reg.for_each_rejected(|r| incomplete |= !rej.push(r));
        for &r in rej.as_slice().iter().rev() {
            // SAFETY: leaked, immutable.
            let r = unsafe { &*r };
            j.begin_object();
            j.kv_bytes("name", r.name());
            j.kv_str("reason", r.reason().reason());
            j.kv_u64("registrations", r.count() as u64);
            j.end_object();
        }
    }
    j.end_array();

    j.key("modules");
    j.begin_array();
    for &m in inp.modules {
        // SAFETY: registered descriptors are valid.
        let m = unsafe { &*m };
        j.begin_object();
        j.kv_bytes("source", s(m.source_file));
        j.kv_u64("functions", m.n_funcs as u64);
        // Natural loops of the IR; library and folded loops are counted apart.
        let (mut natural, mut library, mut folded) = (0u64, 0u64, 0u64);
        for i in 0..if m.loops.is_null() {
            0
        } else {
            m.n_loops as usize
        } {
            // SAFETY: the module has n_loops descriptors.
            let f = unsafe { (*m.loops.add(i)).flags };
            if f & LOOP_FOLDED != 0 {
                folded += 1;
            } else if f & LOOP_LIBRARY != 0 {
                library += 1;
            } else {
                natural += 1;
            }
        }
        j.kv_u64("loops", natural);
        j.kv_u64("library_loops", library);
        j.kv_u64("folded_loops", folded);
        j.end_object();
    }
    j.end_array();

    let mut fbuf = MmapVec::<u32>::new();
    let line_shared = model.paths.line_shared();
    let mut vbuf = MmapVec::<u8>::new();
    let mut succ = MmapVec::<(u32, bool, bool)>::new();
    let mut listed = Listed::default();
    let cap = options::max_contexts();
    let mut no_sink = 0u64;
    let mut truncated_branches = 0u64;
    j.key("functions");
    j.begin_array();
    for &fi in order.as_slice() {
        let Some(fg) = model.func(fi).copied() else {
            continue;
        };
        let fl = loc(fg.loc);
        j.begin_object();
        j.kv_bytes("name", s(fl.function));
        j.kv_bytes("linkage", s(fl.linkage));
        j.kv_bytes("file", s(fl.file));
        j.kv_u64("line", fl.fn_line as u64);
        j.kv_bool("recursive", fg.recursive());
        j.kv_bool("statically_pruned", fg.statically_pruned);
        j.kv_bool("executed", fg.executed);
        write_params(&mut j, reg, "exclusive_params", fg.excl_label);
        write_params(&mut j, reg, "inclusive_params", fg.incl_label);
        j.kv_bool("constant", fg.incl_label == 0);
        j.key("volume");
        incomplete |= !write_volume(&mut j, reg, model.pool.terms(fg.incl), &mut vbuf);
        j.key("exclusive_volume");
        incomplete |= !write_volume(&mut j, reg, model.pool.terms(fg.excl), &mut vbuf);

        j.key("pairs");
        j.begin_array();
        let mult = volume::multiplicative_pairs(model.pool.terms(fg.incl));
        for a in 0..16u32 {
            if fg.incl_label & (1 << a) == 0 {
                continue;
            }
            for b in a + 1..16u32 {
                if fg.incl_label & (1 << b) == 0 {
                    continue;
                }
                let m = mult
                    .get(a as usize)
                    .map(|m| m & (1 << b) != 0)
                    .unwrap_or(false);
                j.begin_object();
                j.key("a");
                param_name(reg, a, &mut |x| j.bytes(x));
                j.key("b");
                param_name(reg, b, &mut |x| j.bytes(x));
                j.kv_str("kind", if m { "multiplicative" } else { "additive" });
                j.end_object();
            }
        }
        j.end_array();

        j.key("contexts");
        j.begin_array();
        let fn_context = |k: u32| {
            model
                .fn_contexts
                .as_slice()
                .get(k as usize)
                .and_then(|&x| model.lnode(x))
                .copied()
        };
        let omitted = listed.choose(fg.contexts, cap, |k| {
            fn_context(k).map(|ln| ln.incl_label).unwrap_or(0)
        });
        for k in fg.contexts.0..fg.contexts.1 {
            if !listed.lists(k - fg.contexts.0) {
                continue;
            }
            let Some(ln) = fn_context(k) else {
                continue;
            };
            j.begin_object();
            write_path(&mut j, &model, ln.path, line_shared.as_slice(), &mut fbuf);
            write_params(&mut j, reg, "inclusive_params", ln.incl_label);
            j.key("volume");
            incomplete |= !write_volume(&mut j, reg, model.pool.terms(ln.incl), &mut vbuf);
            j.end_object();
        }
        j.end_array();
        if omitted > 0 {
            j.kv_u64("contexts_omitted", omitted as u64);
        }

        j.key("branches");
        j.begin_array();
        for bi in fg.branches.0..fg.branches.1 {
            let Some(bg) = model.branches.as_slice().get(bi as usize).copied() else {
                continue;
            };
            let k = loc(bg.key);
            truncated_branches += bg.truncated as u64;
            j.begin_object();
            j.kv_u64("line", k.line as u64);
            j.kv_u64("column", k.column as u64);
            j.kv_str("kind", if bg.switch { "switch" } else { "if" });
            write_params(&mut j, reg, "params", bg.label);
            j.key("successors");
            j.begin_array();
            incomplete |= !model.branch_successors(&bg, &mut succ);
            for &(line, taken, _) in succ.as_slice() {
                j.begin_object();
                j.kv_u64("line", line as u64);
                j.kv_bool("taken", taken);
                j.end_object();
            }
            j.end_array();
            j.end_object();
        }
        j.end_array();

        j.key("loops");
        j.begin_array();
        for gi in fg.loops.0..fg.loops.1 {
            let Some(g) = model.group(gi).copied() else {
                continue;
            };
            let k = loc(g.key);
            no_sink += g.no_sink as u64;
            j.begin_object();
            j.kv_u64("line", k.line as u64);
            j.kv_u64("column", k.column as u64);
            j.kv_str("kind", g.kind());
            // A loop that some copy of the code kept is a loop: its routine is not shown.
            let library = g.library.filter(|_| g.kind() == "library");
            j.key("routine");
            match library {
                Some(d) => j.bytes(s(d.routine)),
                None => j.null(),
            }
            j.key("cost");
            match library {
                Some(d) => j.bytes(s(d.cost)),
                None => j.null(),
            }
            j.key("parent_line");
            match model.group(g.parent) {
                Some(p) if g.parent != NONE => j.u64(loc(p.key).line as u64),
                _ => j.null(),
            }
            write_params(&mut j, reg, "params", g.label);
            write_params(&mut j, reg, "control_only_params", g.label & !g.data);
            j.kv_u64("executions", g.executions);
            j.key("const_trip_count");
            if g.const_trip != 0 {
                j.u64(g.const_trip);
            } else {
                j.null();
            }
            j.kv_bool("recursion", g.recursion);
            j.key("contexts");
            j.begin_array();
            let loop_context = |c: u32| {
                model
                    .loop_contexts
                    .as_slice()
                    .get(c as usize)
                    .and_then(|&x| model.item(x))
                    .copied()
            };
            let omitted = listed.choose(g.contexts, cap, |c| {
                loop_context(c).map(|it| it.label).unwrap_or(0)
            });
            for c in g.contexts.0..g.contexts.1 {
                if !listed.lists(c - g.contexts.0) {
                    continue;
                }
                let Some(it) = loop_context(c) else {
                    continue;
                };
                let path = model.lnode(it.owner).map(|n| n.path).unwrap_or(0);
                j.begin_object();
                write_path(&mut j, &model, path, line_shared.as_slice(), &mut fbuf);
                write_params(&mut j, reg, "params", it.label);
                j.kv_u64("executions", it.executions);
                j.end_object();
            }
            j.end_array();
            if omitted > 0 {
                j.kv_u64("contexts_omitted", omitted as u64);
            }
            j.end_object();
        }
        j.end_array();
        j.end_object();
    }
    j.end_array();

    // Summary (Table 2).
    let (mut f_static, mut f_dyn, mut f_rel, mut f_never) = (0u64, 0u64, 0u64, 0u64);
    for f in model.funcs.as_slice() {
        if f.statically_pruned {
            f_static += 1;
        } else if !f.executed {
            f_never += 1;
        } else if f.incl_label != 0 {
            f_rel += 1;
        } else {
            f_dyn += 1;
        }
    }
    let (mut l_static, mut l_const, mut l_rel, mut l_never) = (0u64, 0u64, 0u64, 0u64);
    let mut l_folded = 0u64;
    for l in model.loops.as_slice() {
        if l.folded() {
            l_folded += 1;
        } else if l.static_const {
            l_static += 1;
        } else if l.executions == 0 {
            l_never += 1;
        } else if l.label != 0 {
            l_rel += 1;
        } else {
            l_const += 1;
        }
    }
    j.key("summary");
    j.begin_object();
    j.key("functions");
    j.begin_object();
    j.kv_u64("total", model.funcs.len() as u64);
    j.kv_u64("statically_pruned", f_static);
    j.kv_u64("dynamically_pruned", f_dyn);
    j.kv_u64("relevant", f_rel);
    j.kv_u64("never_ran", f_never);
    j.end_object();
    j.key("loops");
    j.begin_object();
    j.kv_u64("total", model.loops.len() as u64);
    j.kv_u64("statically_pruned", l_static);
    j.kv_u64("constant", l_const);
    j.kv_u64("relevant", l_rel);
    j.kv_u64("never_ran", l_never);
    j.kv_u64("folded", l_folded);
    j.end_object();
    j.end_object();

    // Coverage (Table 3) and the recommendation.
    let pair = recommend(&model, nparams, 2);
    let triple = recommend(&model, nparams, 3);
    j.key("coverage");
    j.begin_array();
    for bit in 0..nparams {
        let (f, l) = coverage(&model, 1 << bit);
        write_coverage(&mut j, reg, 1 << bit, f, l);
    }
    for (set, f, l) in [pair, triple].into_iter().flatten() {
        write_coverage(&mut j, reg, set, f, l);
    }
    j.end_array();
    j.key("recommendation");
    j.begin_object();
    for (key, r) in [("pair", pair), ("triple", triple)] {
        j.key(key);
        match r {
            Some((set, f, l)) => write_coverage(&mut j, reg, set, f, l),
            None => j.null(),
        }
    }
    j.end_object();

    // Warnings.
    j.key("warnings");
    j.begin_array();
    let mut warn = |args: core::fmt::Arguments<'_>| {
        let mut b = StackBuf::<1024>::new();
        let _ = b.write_fmt(args);
        j.bytes(b.as_bytes());
    };
    if inp.exit == Exit::Running {
        warn(format_args!(
            "written while the program was still running (tp_write_report); the report written at exit replaces it"
        ));
    }
    let in_flight = crate::inflight::count();
    if in_flight > 0 {
        let when = match inp.exit {
            Exit::Signal(sig) => signals::name(sig),
            Exit::Code(_) => "exit()",
            Exit::Immediate(_) => "_exit()",
            Exit::Exec => "exec",
            Exit::Running => "tp_write_report()",
        };
        warn(format_args!(
            "the run was cut by {} while {} loop execution{} still running: each is counted as executed once, with the labels its exit tests had seen so far; the loops' volumes are those of the part that ran",
            when,
            in_flight,
            if in_flight == 1 { " was" } else { "s were" }
        ));
    }
    if crate::denormal::mode::mixed() {
        let (t, d) = crate::denormal::mode::sources();
        warn(format_args!(
            "this program mixes instrumentation modes: '{}' was built in taint mode and '{}' in denormal mode; rebuild every file in one mode (denormal data is not reported, and taint results may be wrong)",
            Lossy(t),
            Lossy(d)
        ));
    }
    if inp.rejected_modules {
        let mut rej: MmapVec<*const modules::RejectedModule> = MmapVec::new();
        modules::for_each_rejected(|r| incomplete |= !rej.push(r));
        for &r in rej.as_slice().iter().rev() {
            // SAFETY: leaked, immutable.
            let r = unsafe { &*r };
            if r.bad_magic {
                warn(format_args!(
                    "a module descriptor with a bad magic number was ignored"
                ));
            } else {
                warn(format_args!(
                    "module '{}' was ignored: it was instrumented for ABI version {}, this runtime implements version {}",
                    Lossy(r.source),
                    r.abi_version,
                    taintprof_abi::ABI_VERSION
                ));
            }
        }
    }
    for &m in inp.modules {
        // SAFETY: registered descriptors are valid.
        let m = unsafe { &*m };
        if m.flags & MODULE_NO_DEBUG_INFO != 0 {
            warn(format_args!(
                "module '{}' was compiled without debug info: its loops have no source lines (compile with -g)",
                Lossy(s(m.source_file))
            ));
        }
    }
    let mut nrec = 0usize;
    for &fi in order.as_slice() {
        let Some(fg) = model.func(fi) else {
            continue;
        };
        if !fg.recursive() {
            continue;
        }
        nrec += 1;
        if nrec <= 50 {
            let l = loc(fg.loc);
            warn(format_args!(
                "function '{}' ({}:{}) is recursive: its recursive calls are folded onto its first activation, so its parameters and volume over-approximate",
                Lossy(s(l.function)),
                Lossy(s(l.file)),
                l.fn_line
            ));
        }
    }
    if nrec > 50 {
        warn(format_args!(
            "... and {} more recursive functions",
            nrec - 50
        ));
    }
    if no_sink > 0 {
        warn(format_args!(
            "{no_sink} loop(s) have no exit condition the compiler could instrument (left only by exit(), an exception or a goto out): their params are unknown, not empty"
        ));
    }
    if truncated_branches > 0 {
        warn(format_args!(
            "{truncated_branches} switch(es) have more than 64 distinct successors: only the first 64 are listed"
        ));
    }
    if model.pool.approximate {
        warn(format_args!(
            "some volumes hit a size limit ({} terms, {} distinct factors per term): they are approximations",
            volume::MAX_TERMS,
            volume::MAX_FACTORS
        ));
    }
    if inp.context_oom {
        warn(format_args!("the runtime ran out of memory for calling contexts: some loop executions were not recorded"));
    }
    if model.unknown_loops > 0 {
        warn(format_args!(
            "{} loop record(s) refer to loops of modules that were not registered; they are not listed",
            model.unknown_loops
        ));
    }
    if model.unknown_contexts > 0 {
        warn(format_args!(
            "{} calling context(s) of functions of modules that were not registered were skipped, with everything they called",
            model.unknown_contexts
        ));
    }
    if model.malformed_loops > 0 {
        warn(format_args!(
            "{} loop descriptor(s) without a source chain were skipped",
            model.malformed_loops
        ));
    }
    if incomplete || model.incomplete {
        warn(format_args!(
            "the runtime ran out of memory while writing this report: it is incomplete"
        ));
    }
    j.end_array();
    j.end_object();
}

// ----------------------------------------------------------------------------------
// Files, once-only logic, entry points
// ----------------------------------------------------------------------------------

/// `/proc/self/exe`, and the program name (its basename).
pub(crate) struct ProgramId {
    pub(crate) path: StackBuf<4096>,
    name_at: usize,
}

impl ProgramId {
    pub(crate) fn get() -> Self {
        let mut buf = [0u8; 4096];
        // SAFETY: readlink into a local buffer.
        let n = unsafe {
            libc::readlink(
                c"/proc/self/exe".as_ptr(),
                buf.as_mut_ptr().cast(),
                buf.len(),
            )
        };
        let mut path = StackBuf::new();
        if n > 0 {
            let mut p = buf.get(..n as usize).unwrap_or(&[]);
            if let Some(stripped) = p.strip_suffix(b" (deleted)") {
                p = stripped;
            }
            path.push_bytes(p);
        } else if let Some(&a0) = init::argv().first() {
            path.push_bytes(s(a0));
        }
        if path.is_empty() {
            path.push_bytes(b"unknown");
        }
        let name_at = path
            .as_bytes()
            .iter()
            .rposition(|&c| c == b'/')
            .map(|i| i + 1)
            .unwrap_or(0);
        ProgramId { path, name_at }
    }
    pub(crate) fn name(&self) -> &[u8] {
        match self.path.as_bytes().get(self.name_at..) {
            Some(n) if !n.is_empty() => n,
            _ => b"unknown",
        }
    }
}

/// Size of the last report file written.
static LAST_REPORT_BYTES: AtomicU64 = AtomicU64::new(0);

/// From this many calling contexts on, writing the report takes long enough to say so
/// (on a terminal; always with `TAINTPROF_VERBOSE=1`).
pub const LARGE_REPORT_CONTEXTS: u64 = 100_000;

pub(crate) fn monotonic_secs() -> f64 {
    now_ns() as f64 * 1e-9
}

/// Announces a report that will take a while to write; returns the start time if so.
fn announce_writing() -> Option<f64> {
    let contexts = context::context_count();
    let big = contexts >= LARGE_REPORT_CONTEXTS;
    if !(options::verbose() || (big && !options::quiet())) {
        return None;
    }
    crate::diag!(
        "writing the report: {} calling contexts in {} thread{}{}",
        contexts,
        context::thread_count(),
        if context::thread_count() == 1 {
            ""
        } else {
            "s"
        },
        if big { " (this can take a while)" } else { "" }
    );
    Some(monotonic_secs())
}

/// `1.5 MB in 0.42 s`
pub(crate) struct SizeAndTime(pub(crate) u64, pub(crate) f64);
impl core::fmt::Display for SizeAndTime {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let b = self.0;
        if b >= 1 << 20 {
            write!(f, "{:.1} MB", b as f64 / (1u64 << 20) as f64)?;
        } else {
            write!(f, "{:.1} kB", b as f64 / 1024.0)?;
        }
        write!(f, " in {:.2} s", self.1)
    }
}

/// Writes the report for `exit` into its final place, atomically
/// (`taintprof_sigsafe::file::write_atomic`: a temporary file in the same directory,
/// then `rename`). Ok or Err(errno); `path_out` says where either way.
/// A denormal-mode program (see [`crate::denormal::mode`]) gets the denormal report,
/// `<prog>.<pid>.denormal.json`, with a last snapshot unless the report is mid-run.
fn write_file(exit: Exit, path_out: &mut StackBuf<4096>) -> Result<(), i32> {
    let prog = ProgramId::get();
    let pid = getpid();
    let denormal = crate::denormal::mode::report_is_denormal();
    let suffix = if denormal {
        "denormal.json"
    } else {
        "taintprof.json"
    };
    output_path(&prog, pid, exit, suffix, path_out)?;
    let written = write_atomic(path_out.as_bytes(), Durability::Rename, |sink| {
        if denormal {
            let last = match exit {
                Exit::Code(_) => Some(&b"exit"[..]),
                Exit::Signal(sig) => Some(signals::name(sig).as_bytes()),
                Exit::Immediate(_) => Some(&b"_exit"[..]),
                Exit::Exec => Some(&b"exec"[..]),
                Exit::Running => None,
            };
            if let Some(why) = last {
                crate::denormal::snapshot::take_final(why);
            }
            let inp = crate::denormal::report::Inputs {
                name: prog.name(),
                path: prog.path.as_bytes(),
                argv: init::argv(),
                pid,
                exit,
            };
            crate::denormal::report::write_json(&inp, sink);
        } else {
            write_taint(&prog, pid, exit, sink);
        }
    })?;
    LAST_REPORT_BYTES.store(written, Relaxed);
    Ok(())
}

/// `<dir>/<prog>[.before-exec].<pid>.<suffix>` in the report directory (created if
/// missing), into `path_out`: the name of every file this process writes for `exit`
/// (`suffix` `taintprof.json` or `denormal.json` for the report, `taintprof.rec` for
/// the raw run record). `Err(ENAMETOOLONG)` if it does not fit.
pub(crate) fn output_path(
    prog: &ProgramId,
    pid: i32,
    exit: Exit,
    suffix: &str,
    path_out: &mut StackBuf<4096>,
) -> Result<(), i32> {
    let od = options::out_dir();
    let dir: &[u8] = if od.is_empty() { b"." } else { od };
    mkdir_p(dir);
    path_out.clear();
    // Before an exec the pid stays and the new program may have the same name: the
    // report of the part before it gets a name of its own.
    let before_exec = if exit == Exit::Exec {
        ".before-exec"
    } else {
        ""
    };
    let _ = write!(
        path_out,
        "{}/{}{}.{}.{}",
        Lossy(dir),
        Lossy(prog.name()),
        before_exec,
        pid,
        suffix
    );
    if path_out.truncated {
        return Err(libc::ENAMETOOLONG);
    }
    Ok(())
}

/// Calls `f` with the inputs of this process's taint report (and raw run record): the
/// registered modules in registration order, every thread in creation order.
pub(crate) fn with_inputs<R>(
    prog: &ProgramId,
    pid: i32,
    exit: Exit,
    f: impl FnOnce(&Inputs<'_>) -> R,
) -> R {
    let mut mods: MmapVec<*const ModuleDesc> = MmapVec::new();
    modules::for_each(|m| {
        mods.push(m);
    });
    mods.as_mut_slice().reverse();
    let mut threads: MmapVec<*const ThreadState> = MmapVec::new();
    context::for_each_thread(|t| {
        threads.push(t);
    });
    threads.as_mut_slice().reverse();
    let inp = Inputs {
        name: prog.name(),
        path: prog.path.as_bytes(),
        argv: init::argv(),
        pid,
        exit,
        modules: mods.as_slice(),
        threads: threads.as_slice(),
        params: &crate::params::REGISTRY,
        context_oom: context::out_of_memory(),
        rejected_modules: true,
    };
    f(&inp)
}

/// The taint report of this process into `sink`.
fn write_taint(prog: &ProgramId, pid: i32, exit: Exit, sink: &mut FdSink) {
    with_inputs(prog, pid, exit, |inp| write_json(inp, sink));
}

/// What writing the report and the record for one exit did.
struct Written {
    report: Result<(), i32>,
    /// Seconds the report took (when they are shown).
    report_secs: Option<f64>,
    record: crate::record::Outcome,
    record_secs: Option<f64>,
}

/// Writes the JSON report and, right after it, the raw run record ([`crate::record`]),
/// both from one snapshot of the loops in flight. `timed`: measure each (the messages
/// show the times).
fn write_outputs(
    exit: Exit,
    timed: bool,
    path: &mut StackBuf<4096>,
    rec_path: &mut StackBuf<4096>,
) -> Written {
    let taint = !crate::denormal::mode::report_is_denormal();
    if taint {
        crate::inflight::snapshot();
    }
    let t0 = timed.then(monotonic_secs);
    let report = write_file(exit, path);
    let t1 = timed.then(monotonic_secs);
    WRITING_RECORD.store(true, SeqCst);
    let record = crate::record::write_file(exit, rec_path);
    WRITING_RECORD.store(false, SeqCst);
    let t2 = timed.then(monotonic_secs);
    if taint {
        crate::inflight::clear();
    }
    Written {
        report,
        report_secs: t0.zip(t1).map(|(a, b)| b - a),
        record,
        record_secs: t1.zip(t2).map(|(a, b)| b - a),
    }
}

/// The record is being written: the report before it is complete (what a crash of the
/// writer loses).
static WRITING_RECORD: AtomicBool = AtomicBool::new(false);

/// 0 = not written, 1 = being written (by `FINAL_TID`), 2 = done.
static FINAL_STATE: AtomicU32 = AtomicU32::new(0);
static FINAL_TID: AtomicI32 = AtomicI32::new(0);
/// Thread writing a mid-run report (0 = none).
static MIDRUN_WRITER: AtomicI32 = AtomicI32::new(0);

/// What a final-report attempt did.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Written,
    Failed,
    Disabled,
    /// Another caller wrote (or is writing) the final report.
    AlreadyDone,
    /// This thread was already writing it (the runtime crashed while writing).
    Reentered,
}

fn report_error(path: &StackBuf<4096>, err: i32) {
    crate::diag!(
        "error: could not write the report to {}: {} (errno {}); set TAINTPROF_OUT to a writable directory",
        Lossy(path.as_bytes()),
        errno_text(err),
        err
    );
}

/// Writes the final report, once per process. `exit` says why.
pub fn final_report(exit: Exit) -> Outcome {
    if !options::report_enabled() {
        return Outcome::Disabled;
    }
    let me = gettid();
    match FINAL_STATE.compare_exchange(0, 1, SeqCst, SeqCst) {
        Ok(_) => FINAL_TID.store(me, SeqCst),
        Err(1) => {
            if FINAL_TID.load(SeqCst) == me {
                return Outcome::Reentered;
            }
            // Another thread is writing: give it time before this thread dies.
            for _ in 0..10_000 {
                if FINAL_STATE.load(SeqCst) == 2 {
                    break;
                }
                sleep_ms(1);
            }
            return Outcome::AlreadyDone;
        }
        Err(_) => return Outcome::AlreadyDone,
    }
    // A mid-run report in flight on another thread must not land after ours.
    for _ in 0..5_000 {
        let w = MIDRUN_WRITER.load(SeqCst);
        if w == 0 || w == me || !thread_alive(w) {
            break;
        }
        sleep_ms(1);
    }
    let mut path = StackBuf::<4096>::new();
    let mut rec_path = StackBuf::<4096>::new();
    let started = announce_writing();
    let w = write_outputs(exit, started.is_some(), &mut path, &mut rec_path);
    FINAL_STATE.store(2, SeqCst);
    let outcome = match w.report {
        Ok(()) => {
            let mut took = StackBuf::<64>::new();
            if let Some(secs) = w.report_secs {
                let _ = write!(
                    took,
                    " ({})",
                    SizeAndTime(LAST_REPORT_BYTES.load(Relaxed), secs)
                );
            }
            match exit {
                Exit::Signal(sig) if !options::quiet_on_signal() => {
                    let prog = ProgramId::get();
                    crate::diag!(
                        "{} received {}; partial report written to {}{}",
                        Lossy(prog.name()),
                        signals::name(sig),
                        Lossy(path.as_bytes()),
                        Lossy(took.as_bytes())
                    )
                }
                Exit::Signal(_) => {}
                _ if !options::quiet() || started.is_some() => {
                    crate::diag!(
                        "report written to {}{}",
                        Lossy(path.as_bytes()),
                        Lossy(took.as_bytes())
                    )
                }
                _ => {}
            }
            Outcome::Written
        }
        Err(e) => {
            if let Exit::Signal(sig) = exit {
                crate::diag!(
                    "received {}; no report could be written",
                    signals::name(sig)
                );
            }
            report_error(&path, e);
            Outcome::Failed
        }
    };
    // The record's line follows the report's, under the same rule.
    let announce = match exit {
        Exit::Signal(_) => !options::quiet_on_signal(),
        _ => !options::quiet() || started.is_some(),
    };
    crate::record::announce(&w.record, &rec_path, announce, w.record_secs);
    outcome
}

/// After a failed exec (whose report was written as the final one): the program goes
/// on, so its report at exit must be written too.
pub fn reopen_after_failed_exec() {
    let _ = FINAL_STATE.compare_exchange(2, 0, SeqCst, SeqCst);
}

/// From the fatal-signal handler.
pub fn on_fatal_signal(sig: i32) {
    if final_report(Exit::Signal(sig)) == Outcome::Reentered {
        if WRITING_RECORD.load(SeqCst) {
            crate::diag!(
                "error: {} while writing the raw run record; the report was written, the record is lost (this is a taintprof bug)",
                signals::name(sig)
            );
        } else {
            crate::diag!(
                "error: {} while writing the report; the report is lost (this is a taintprof bug)",
                signals::name(sig)
            );
        }
    }
}

/// Writes a report of the run so far (mid-run). Returns true if one was written.
pub fn midrun_report() -> bool {
    if !options::report_enabled() {
        return false;
    }
    let me = gettid();
    loop {
        if FINAL_STATE.load(SeqCst) != 0 {
            return false;
        }
        match MIDRUN_WRITER.compare_exchange(0, me, SeqCst, SeqCst) {
            Ok(_) => break,
            Err(w) if w == me => return false,
            Err(w) => {
                if !thread_alive(w) {
                    let _ = MIDRUN_WRITER.compare_exchange(w, 0, SeqCst, SeqCst);
                } else {
                    sleep_ms(1);
                }
            }
        }
    }
    let mut ok = false;
    if FINAL_STATE.load(SeqCst) == 0 {
        let mut path = StackBuf::<4096>::new();
        let mut rec_path = StackBuf::<4096>::new();
        let w = write_outputs(Exit::Running, false, &mut path, &mut rec_path);
        match w.report {
            Ok(()) => {
                ok = true;
                if !options::quiet() {
                    crate::diag!("report written to {}", Lossy(path.as_bytes()));
                }
            }
            Err(e) => report_error(&path, e),
        }
        crate::record::announce(&w.record, &rec_path, !options::quiet(), None);
    }
    MIDRUN_WRITER.store(0, SeqCst);
    ok
}

/// `void tp_write_report(void)`: write a report of the run so far now. The report
/// written at exit replaces it (same file name).
#[no_mangle]
pub extern "C" fn tp_write_report() {
    midrun_report();
}

#[cfg(test)]
mod v2_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::__tp_enter;
    use crate::context::__tp_loop_exit;
    use core::ffi::CStr;
    use serde_json::Value;
    use taintprof_abi::{
        FuncDesc, LoopDesc, SiteDesc, SrcLoc, ABI_VERSION, LOOP_CONST_TRIP, MODULE_MAGIC,
    };

    use crate::test_descriptors::{leak, leak_chain as chain, src_loc as l};
    fn site(v: Vec<SrcLoc>) -> usize {
        let (c, n) = chain(v);
        leak(SiteDesc {
            chain: c,
            n_chain: n,
            flags: 0,
            loop_: core::ptr::null(),
        })
    }
    fn lp(v: Vec<SrcLoc>, flags: u32, trip: u64) -> LoopDesc {
        let (c, n) = chain(v);
        LoopDesc {
            chain: c,
            n_chain: n,
            flags,
            const_trip_count: trip,
            parent: core::ptr::null(),
            func: core::ptr::null(),
            routine: core::ptr::null(),
            cost: core::ptr::null(),
        }
    }
    fn fd(loc: SrcLoc) -> FuncDesc {
        FuncDesc {
            loc,
            flags: 1,
            n_loops: 0,
        }
    }
    fn module(src: &'static CStr, funcs: Vec<FuncDesc>, loops: Vec<LoopDesc>, flags: u32) -> usize {
        let nf = funcs.len() as u32;
        let nl = loops.len() as u32;
        leak(ModuleDesc {
            magic: MODULE_MAGIC,
            abi_version: ABI_VERSION,
            source_file: src.as_ptr(),
            funcs: Box::leak(funcs.into_boxed_slice()).as_ptr(),
            n_funcs: nf,
            n_loops: nl,
            loops: Box::leak(loops.into_boxed_slice()).as_ptr(),
            branches: core::ptr::null_mut(),
            n_branches: 0,
            flags,
            next: core::ptr::null_mut(),
        })
    }
    fn enter(p: usize, s: usize, f: usize) -> usize {
        unsafe { __tp_enter(p as *mut _, s as *const SiteDesc, f as *const FuncDesc) as usize }
    }
    fn exit(n: usize, l: usize, label: Label) {
        unsafe { __tp_loop_exit(n as *mut _, l as *const LoopDesc, label) }
    }
    fn current() -> usize {
        context::current_thread() as usize
    }

    struct World {
        m1: usize,
        m2: usize,
        f_main: usize,
        f_kernel: usize,
        f_rec: usize,
        f_helper: usize,
        l1: usize,
        a: usize,
        b: usize,
        s48: usize,
        s50: usize,
        s52: usize,
        s60: usize,
    }

    fn world() -> World {
        let p = c"prog.c";
        let m1 = module(
            c"prog.c",
            vec![
                fd(l(c"main", p, 40, 40, 1)),
                fd(l(c"kernel", p, 10, 10, 1)),
                fd(l(c"rec", p, 30, 30, 1)),
            ],
            vec![
                lp(vec![l(c"kernel", p, 10, 12, 3)], 0, 0),
                lp(vec![l(c"kernel", p, 10, 15, 5)], LOOP_CONST_TRIP, 8),
                // helper's loop inlined into kernel at 13:7.
                lp(
                    vec![l(c"kernel", p, 10, 13, 7), l(c"helper", p, 3, 5, 3)],
                    0,
                    0,
                ),
                // A loop without debug info.
                lp(vec![l(c"rec", p, 30, 0, 0)], 0, 0),
            ],
            0,
        );
        // helper's out-of-line copy in another TU (linkonce).
        let m2 = module(
            c"other.c",
            vec![fd(l(c"helper", p, 3, 3, 1))],
            vec![lp(vec![l(c"helper", p, 3, 5, 3)], 0, 0)],
            MODULE_NO_DEBUG_INFO,
        );
        let md = |m: usize| unsafe { &*(m as *const ModuleDesc) };
        let f = |m: usize, i: usize| unsafe { md(m).funcs.add(i) } as usize;
        let lo = |m: usize, i: usize| unsafe { md(m).loops.add(i) } as usize;
        World {
            m1,
            m2,
            f_main: f(m1, 0),
            f_kernel: f(m1, 1),
            f_rec: f(m1, 2),
            f_helper: f(m2, 0),
            l1: lo(m1, 0),
            a: lo(m1, 2),
            b: lo(m2, 0),
            s48: site(vec![l(c"main", p, 40, 48, 5)]),
            s50: site(vec![l(c"main", p, 40, 50, 5)]),
            s52: site(vec![l(c"main", p, 40, 52, 5)]),
            s60: site(vec![l(c"rec", p, 30, 33, 9)]),
        }
    }

    /// The report of `inp` as the driver makes it: the model of the runtime's record.
    fn run(inp: &Inputs<'_>) -> Value {
        crate::test_descriptors::model_report(inp)
    }

    fn build() -> (World, Vec<usize>, &'static Registry) {
        let w = world();
        let reg: &'static Registry = Box::leak(Box::new(Registry::new()));
        for n in ["n", "m", "k"] {
            reg.register(Some(n.as_bytes())).unwrap();
        }
        let (f_main, f_kernel, f_rec, f_helper) = (w.f_main, w.f_kernel, w.f_rec, w.f_helper);
        let (l1, a, b, s48, s50, s52, s60) = (w.l1, w.a, w.b, w.s48, w.s50, w.s52, w.s60);
        let t1 = std::thread::spawn(move || {
            let m = enter(0, s60, f_main); // root child: the site is ignored
            let k = enter(m, s48, f_kernel);
            exit(k, l1, 0b001);
            exit(k, a, 0b010);
            let k2 = enter(m, s50, f_kernel);
            exit(k2, l1, 0);
            let h = enter(m, s52, f_helper);
            exit(h, b, 0);
            let r = enter(m, s48, f_rec);
            let r2 = enter(r, s60, f_rec);
            assert_eq!(r, r2);
            current()
        })
        .join()
        .unwrap();
        let t2 = std::thread::spawn(move || {
            let m = enter(0, 0, f_main);
            let k = enter(m, s48, f_kernel);
            exit(k, l1, 0b100);
            current()
        })
        .join()
        .unwrap();
        (w, vec![t1, t2], reg)
    }

    fn inputs<'a>(
        w: &'a World,
        mods: &'a [*const ModuleDesc],
        threads: &'a [*const ThreadState],
        reg: &'a Registry,
        exit: Exit,
    ) -> Inputs<'a> {
        let _ = w;
        Inputs {
            name: b"prog",
            path: b"/bin/prog",
            argv: &[],
            pid: 42,
            exit,
            modules: mods,
            threads,
            params: reg,
            context_oom: false,
            rejected_modules: false,
        }
    }

    fn find<'a>(v: &'a Value, name: &str) -> &'a Value {
        v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("no function {name}"))
    }

    #[test]
    fn report_structure_merging_and_contexts() {
        let (w, threads, reg) = build();
        let mods = [w.m1 as *const ModuleDesc, w.m2 as *const ModuleDesc];
        let ths: Vec<*const ThreadState> =
            threads.iter().map(|&t| t as *const ThreadState).collect();
        let v = run(&inputs(&w, &mods, &ths, reg, Exit::Code(3)));

        assert_eq!(v["schema"], "taintprof.taint");
        assert_eq!(v["version"], 4);
        assert_eq!(v["taintprof_version"], crate::VERSION);
        assert_eq!(v["program"]["name"], "prog");
        assert_eq!(v["program"]["pid"], 42);
        assert_eq!(v["exit"], serde_json::json!({"reason": "exit", "code": 3}));
        assert_eq!(v["threads"], 2);
        assert_eq!(v["parameters"], serde_json::json!(["n", "m", "k"]));
        assert_eq!(
            v["parameter_info"][1],
            serde_json::json!({"name": "m", "bit": 1, "registrations": 1})
        );
        assert_eq!(
            v["modules"][0],
            serde_json::json!({"source": "prog.c", "functions": 3, "loops": 4, "library_loops": 0, "folded_loops": 0})
        );
        assert_eq!(v["modules"][1]["source"], "other.c");
        assert_eq!(v["options"]["control_flow"], false);

        // Functions: every written function once, sorted by file, line, name.
        let names: Vec<&str> = v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["helper", "kernel", "rec", "main"]);

        let kernel = find(&v, "kernel");
        assert_eq!(kernel["recursive"], false);
        assert_eq!(kernel["line"], 10);
        let kl = kernel["loops"].as_array().unwrap();
        assert_eq!(
            kl.len(),
            2,
            "helper's inlined loop belongs to helper, not kernel"
        );
        assert_eq!(
            (kl[0]["line"].as_u64(), kl[0]["column"].as_u64()),
            (Some(12), Some(3))
        );
        assert_eq!(kl[0]["params"], serde_json::json!(["n", "k"]));
        assert_eq!(kl[0]["executions"], 3);
        assert!(kl[0]["const_trip_count"].is_null());
        let ctx = kl[0]["contexts"].as_array().unwrap();
        assert_eq!(ctx.len(), 2, "the two threads' main@48 contexts merge");
        assert_eq!(
            ctx[0]["path"],
            serde_json::json!([{"function": "main", "file": "prog.c", "line": 48}])
        );
        assert_eq!(ctx[0]["params"], serde_json::json!(["n", "k"]));
        assert_eq!(ctx[0]["executions"], 2);
        assert_eq!(ctx[1]["path"][0]["line"], 50);
        assert_eq!(ctx[1]["params"], serde_json::json!([]));
        // The loop that never ran is there, with its constant trip count.
        assert_eq!(kl[1]["line"], 15);
        assert_eq!(kl[1]["executions"], 0);
        assert_eq!(kl[1]["const_trip_count"], 8);
        assert_eq!(kl[1]["contexts"], serde_json::json!([]));
        assert_eq!(kl[1]["params"], serde_json::json!([]));

        // helper: one loop from two descriptors (inlined copy + out-of-line copy).
        let helper = find(&v, "helper");
        let hl = helper["loops"].as_array().unwrap();
        assert_eq!(hl.len(), 1);
        assert_eq!(hl[0]["line"], 5);
        assert_eq!(hl[0]["executions"], 2);
        assert_eq!(hl[0]["params"], serde_json::json!(["m"]));
        let hc = hl[0]["contexts"].as_array().unwrap();
        assert_eq!(hc.len(), 2);
        assert_eq!(
            hc[0]["path"],
            serde_json::json!([
                {"function": "main", "file": "prog.c", "line": 48},
                {"function": "kernel", "file": "prog.c", "line": 13}
            ]),
            "node path, then the loop's inline chain minus its last entry"
        );
        assert_eq!(hc[0]["params"], serde_json::json!(["m"]));
        assert_eq!(
            hc[1]["path"],
            serde_json::json!([{"function": "main", "file": "prog.c", "line": 52}])
        );

        let rec = find(&v, "rec");
        assert_eq!(rec["recursive"], true);
        assert_eq!(rec["loops"][0]["line"], 0);
        assert_eq!(rec["loops"][0]["executions"], 0);
        assert_eq!(find(&v, "main")["loops"], serde_json::json!([]));

        let warnings: Vec<&str> = v["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("'rec'") && w.contains("recursive")),
            "{warnings:?}"
        );
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("other.c") && w.contains("debug info")),
            "{warnings:?}"
        );
        assert_eq!(v["rejected_parameters"], serde_json::json!([]));
    }

    #[test]
    fn report_without_threads_lists_every_loop_unexecuted() {
        let w = world();
        let reg = Registry::new();
        let mods = [w.m2 as *const ModuleDesc, w.m1 as *const ModuleDesc];
        let v = run(&inputs(&w, &mods, &[], &reg, Exit::Signal(libc::SIGSEGV)));
        assert_eq!(
            v["exit"],
            serde_json::json!({"reason": "signal", "signal": "SIGSEGV", "number": 11})
        );
        assert_eq!(v["threads"], 0);
        let total: usize = v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["loops"].as_array().unwrap().len())
            .sum();
        assert_eq!(total, 4, "5 descriptors, 4 distinct loops");
        for f in v["functions"].as_array().unwrap() {
            for l in f["loops"].as_array().unwrap() {
                assert_eq!(l["executions"], 0);
            }
        }
    }

    #[test]
    fn running_reports_say_so_and_strange_names_are_escaped() {
        let reg = Registry::new();
        reg.register_unchecked(b"we\"ird\nname\xff");
        for i in 0..16 {
            let _ = reg.register(Some(format!("x{i}").as_bytes()));
        }
        let argv = [c"./prog".as_ptr(), c"a\tb".as_ptr(), core::ptr::null()];
        let inp = Inputs {
            name: b"pr\"og",
            path: b"/tmp/pr\"og",
            argv: &argv,
            pid: 1,
            exit: Exit::Running,
            modules: &[],
            threads: &[],
            params: &reg,
            context_oom: true,
            rejected_modules: false,
        };
        let v = run(&inp);
        assert_eq!(v["exit"]["reason"], "running");
        assert_eq!(v["program"]["name"], "pr\"og");
        assert_eq!(v["program"]["argv"], serde_json::json!(["./prog", "a\tb"]));
        assert_eq!(v["parameters"][0], "we\"ird\nname\u{fffd}");
        assert_eq!(v["rejected_parameters"][0]["name"], "x15");
        assert_eq!(
            v["rejected_parameters"][0]["reason"],
            "at most 16 parameters can be registered"
        );
        let warnings = v["warnings"].to_string();
        assert!(warnings.contains("still running"));
        assert!(warnings.contains("out of memory for calling contexts"));
    }

    #[test]
    fn contexts_merge_by_content_across_threads_and_descriptors() {
        let w = world();
        let reg = Registry::new();
        let (f_main, f_kernel, l1, s48) = (w.f_main, w.f_kernel, w.l1, w.s48);
        let ths: Vec<usize> = (0..8)
            .map(|t| {
                std::thread::spawn(move || {
                    let m = enter(0, 0, f_main);
                    // A fresh SiteDesc whose content equals s48 (another descriptor, same site).
                    let mut cur = m;
                    for _ in 0..50 {
                        let s = site(vec![l(c"main", c"prog.c", 40, 48, 5)]);
                        let next = enter(cur, s, f_kernel);
                        // kernel -> kernel would fold (recursion); use it once only.
                        if next == cur {
                            break;
                        }
                        cur = next;
                    }
                    for _ in 0..=t {
                        exit(cur, l1, 1);
                    }
                    let k = enter(m, s48, f_kernel);
                    exit(k, l1, 0);
                    current()
                })
                .join()
                .unwrap()
            })
            .collect();
        let mods = [w.m1 as *const ModuleDesc, w.m2 as *const ModuleDesc];
        let tp: Vec<*const ThreadState> = ths.iter().map(|&t| t as *const ThreadState).collect();
        let v = run(&inputs(&w, &mods, &tp, &reg, Exit::Code(0)));
        let kl = &find(&v, "kernel")["loops"][0];
        // Every thread: main@48 -> kernel (recursion folds the second kernel) once with
        // label 1 and t+1 executions, then once more with label 0: one merged context.
        assert_eq!(kl["contexts"].as_array().unwrap().len(), 1, "{}", kl);
        assert_eq!(kl["executions"], (1..=8).sum::<u64>() + 8);
        assert_eq!(v["threads"], 8);
    }
}
