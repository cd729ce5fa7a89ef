//! Time mode (`--tp-mode=time`, `docs/time-mode.md`): the measurement a performance
//! model needs, as Perf-Taint's filtered Score-P run took it.
//!
//! Run at pipeline start (before any inlining, at every optimization level; the shim's
//! `TaintprofTimePass`), like `-finstrument-functions`: an inlined copy carries its
//! enter and exit calls with it, so -O0 and -O2 give the same call paths.
//!
//! * **Selection.** With a selection file (`TAINTPROF_TIME_SELECT`, written by
//!   `taintprof-cc` from a taint report or a Score-P filter): the functions it names by
//!   linkage or source name, plus `main`. Without one: `main`, every defined function
//!   that contains a loop or a call that may hide one, and their callers
//!   ([`default_selection`]).
//! * **Calls.** `__tp_time_enter(&desc)` after the entry block's leading allocas,
//!   `__tp_time_exit(&desc)` before every `ret` (before a `musttail` call that precedes
//!   it). Unwinding and `longjmp` leave without an exit call: the runtime pops to the
//!   matching frame at the next exit.
//! * **Loop counts.** For each counted loop (with a selection file: the loops it lists
//!   for the function, by header line; without one: every natural loop) an `i64` alloca
//!   in the entry block, set to 0 at entry and increased by 1 where the header goes on
//!   into the loop (the start of its in-loop successor, the edge split if that block
//!   has other predecessors), handed to `__tp_time_loop(&loop, count)` before the exit
//!   call. The alloca never escapes, so SROA makes it a register at -O1 and above, and
//!   as an induction variable it costs nothing per iteration once IndVarSimplify has
//!   replaced its exit value (an earlier `+= zext(condition)` in the header made the
//!   vectorizer pick 2 x i64 lanes for a float stencil: 3x slower).
//! * **Branch sides.** For each branch the selection file lists (by line, and column
//!   when it has one; the report's tainted branches), every conditional `br` or
//!   `switch` of the function on that line that is not an exit of a loop containing it
//!   gets an `i8` alloca of side bits, set to 0 at entry and or-ed with the side taken
//!   (`br`: `select(cond, bit(true side), bit(false side))` before the terminator, no
//!   new blocks; `switch`: a constant in an edge block per distinct successor). Before
//!   the exit call each side's bit goes to `__tp_time_loop(&side, bit)`: a side's count
//!   is the number of activations in which the branch went that way at least once,
//!   which is what tells a run that took only one side from one that took both. An
//!   `or` of `i8` bits stays a register at -O1 and above and vectorizes as a narrow
//!   reduction (a counter of executions would be an `i64` add in the loop body).
//!   Distinct successors past the eighth share the eighth bit.
//! * **Inlining as native.** The hooks are `"call-inline-cost"="0"` (free to LLVM's
//!   inline cost model) and the enter call of a function with counted loops carries
//!   `"call-threshold-bonus"` (10 per loop, what the simplified counts cost), so the
//!   inliner makes the native decisions (`lit/time-inline.c`; the C++ `accessors`
//!   workload went from 2.06x to native speed).
//! * **Descriptors.** `TimeFuncDesc`/`TimeLoopDesc` arrays and a `TimeModuleDesc`
//!   (`taintprof_abi`), registered from a constructor (`__tp_time_register_module`).

use crate::debugloc::{loop_location, Namer};
use crate::ffi;
use crate::ir::{self, Ir, B, T, V};
use crate::prepare::analyze;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use inkwell::llvm_sys::prelude::LLVMModuleRef;
use inkwell::llvm_sys::LLVMLinkage;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use taintprof_abi as abi;

/// The module descriptor's global (its presence marks an instrumented module).
pub const TIME_MODULE_GLOBAL: &str = "taintprof.time.module";

/// What to instrument, from `TAINTPROF_TIME_SELECT` (see [`Selection::parse`]).
#[derive(Debug, Default, Clone)]
pub struct Selection {
    /// Function names (linkage or source) to instrument.
    pub functions: HashSet<String>,
    /// Loops to count: function name (linkage or source) → header lines.
    pub loops: HashMap<String, HashSet<u32>>,
    /// Branches whose sides are recorded: function name (linkage or source) → (line,
    /// column; 0: any column).
    pub branches: HashMap<String, HashSet<(u32, u32)>>,
}

impl Selection {
    /// The selection file: one entry a line, tab-separated; `#` starts a comment.
    ///
    /// ```text
    /// fn<TAB>NAME                 instrument the function (linkage or source name)
    /// loop<TAB>NAME<TAB>LINE      count the loop whose header is on LINE in NAME
    /// branch<TAB>NAME<TAB>LINE[<TAB>COLUMN]
    ///                             record the sides of the branch at LINE (and COLUMN)
    /// ```
    pub fn parse(text: &str) -> Result<Selection, String> {
        let mut s = Selection::default();
        for (k, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            match f.as_slice() {
                ["fn", name] => {
                    s.functions.insert(name.to_string());
                }
                ["loop", name, l] => {
                    let l: u32 = l
                        .parse()
                        .map_err(|_| format!("line {}: bad loop line {l:?}", k + 1))?;
                    s.loops.entry(name.to_string()).or_default().insert(l);
                }
                ["branch", name, l, rest @ ..] if rest.len() <= 1 => {
                    let num = |x: &str, what: &str| {
                        x.parse::<u32>()
                            .map_err(|_| format!("line {}: bad branch {what} {x:?}", k + 1))
                    };
                    let line = num(l, "line")?;
                    let column = match rest {
                        [c] => num(c, "column")?,
                        _ => 0,
                    };
                    s.branches
                        .entry(name.to_string())
                        .or_default()
                        .insert((line, column));
                }
                _ => {
                    return Err(format!(
                        "line {}: not `fn NAME`, `loop NAME LINE` or `branch NAME LINE [COLUMN]`",
                        k + 1
                    ))
                }
            }
        }
        Ok(s)
    }

    pub fn load(path: &Path) -> Result<Selection, String> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "cannot read the time-mode selection {}: {e}",
                path.display()
            )
        })?;
        Selection::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// One function to instrument.
struct Plan {
    f: V,
    name: String,
    linkage: String,
    file: String,
    line: u32,
    /// Counted loops.
    loops: Vec<Counted>,
    /// Branches whose sides are recorded.
    branches: Vec<Sided>,
}

/// Distinct successors a branch's side bits tell apart (an `i8`); later ones share the
/// last bit.
const MAX_SIDES: usize = 8;

/// A branch whose sides are recorded.
struct Sided {
    /// The conditional `br` or `switch`.
    term: V,
    /// Distinct successors, in successor order (`br`: true, false; `switch`: default,
    /// cases).
    succs: Vec<B>,
    /// Per distinct successor, its side (bit) index: `min(k, MAX_SIDES - 1)`.
    /// Per side: the first source line of its successor (0 for the shared last side
    /// of a wide `switch`).
    side_lines: Vec<u32>,
    file: String,
    line: u32,
    column: u32,
}

impl Sided {
    fn side_of(k: usize) -> usize {
        k.min(MAX_SIDES - 1)
    }
}

/// Where a loop's count is increased by 1: once per iteration, so that the count is an
/// induction variable (`{0,+,1}`) that IndVarSimplify turns into a closed form at -O1
/// and above (no per-iteration cost, no wider vector lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inc {
    /// In the header (every execution of it goes on into the loop).
    Header,
    /// At the start of the header's in-loop successor `k`, its only predecessor.
    Successor(usize),
    /// On the edge from the header to its in-loop successor `k` (split).
    Edge(usize),
}

/// A counted loop: its header, how the header counts, its source position.
struct Counted {
    header: B,
    inc: Inc,
    file: String,
    line: u32,
    column: u32,
}

fn defined_functions(m: LLVMModuleRef) -> Vec<V> {
    let mut out = Vec::new();
    // SAFETY: `m` is the live module; its function list is walked to its end.
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            out.push(f);
            f = LLVMGetNextFunction(f);
        }
    }
    out
}

/// Math routines a call to which hides no loop worth timing.
const CHEAP_LIBRARY: &[&str] = &[
    "sqrt", "cbrt", "hypot", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
    "tanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "fabs", "floor",
    "ceil", "round", "trunc", "fmod", "fmin", "fmax", "abs", "labs",
];

/// What the default selection (no selection file) needs of a function's calls: the
/// functions of the module it calls, and whether it calls anything else that may hide
/// a loop (an indirect call, an external function that is neither an intrinsic, nor
/// `noreturn` (an error path), nor a math routine).
fn calls_of(ir: &Ir, f: V) -> (Vec<V>, bool) {
    let mut defined = Vec::new();
    let mut other = false;
    for b in ir::blocks(f) {
        for i in ir::instructions(b) {
            let op = ir::opcode(i);
            if op != Op::LLVMCall && op != Op::LLVMInvoke && op != Op::LLVMCallBr {
                continue;
            }
            let callee = ir::called_function(i);
            if callee.is_null() {
                other = true;
            } else if ir::intrinsic_id(callee) != 0 {
            } else if !ir::is_declaration(callee) {
                defined.push(callee);
            } else {
                let name = ir::name_of(callee);
                let base = name
                    .strip_suffix('f')
                    .or_else(|| name.strip_suffix('l'))
                    .unwrap_or(&name);
                let cheap = CHEAP_LIBRARY.contains(&name.as_str()) || CHEAP_LIBRARY.contains(&base);
                if !cheap && !ir.has_fn_attr(callee, "noreturn") {
                    other = true;
                }
            }
        }
    }
    (defined, other)
}

/// The default selection (no selection file): `main`, every function with a loop or a
/// call that may hide one (`calls_of`), and every function that calls one of those
/// (a fixpoint over the module's call graph). Tiny accessors that only call other
/// tiny accessors stay out: timing each of their calls made a C++ workload 300x
/// slower, and they are not what a performance model is about.
fn default_selection(ir: &Ir, fns: &[(V, bool)]) -> std::collections::HashSet<V> {
    let mut sel: std::collections::HashSet<V> = HashSet::new();
    let mut callers: HashMap<V, Vec<V>> = HashMap::new();
    let mut work = Vec::new();
    for &(f, has_loop) in fns {
        let (defined, other) = calls_of(ir, f);
        for c in defined {
            callers.entry(c).or_default().push(f);
        }
        if has_loop || other || ir::name_of(f) == "main" {
            sel.insert(f);
            work.push(f);
        }
    }
    while let Some(f) = work.pop() {
        for &c in callers.get(&f).map(Vec::as_slice).unwrap_or(&[]) {
            if sel.insert(c) {
                work.push(c);
            }
        }
    }
    sel
}

/// Instrument module `m` in time mode. Errors are returned as messages (the module is
/// left untouched then).
pub fn run(m: LLVMModuleRef, select: Option<&Path>) -> Result<bool, String> {
    let selection = match select {
        Some(p) => Some(Selection::load(p)?),
        None => None,
    };
    // SAFETY: `m` is the live module the pass manager hands us, alive for this call.
    let ir = unsafe { Ir::new(m) };
    if !ir.named_global(TIME_MODULE_GLOBAL).is_null()
        || !ir.named_global(crate::descriptors::MODULE_GLOBAL).is_null()
    {
        return Ok(false);
    }
    let source = crate::module::module_source(m);
    let mut namer = Namer::new(source.clone());
    let mut plans: Vec<Plan> = Vec::new();
    let candidates: Vec<(V, crate::prepare::Analysis)> = defined_functions(m)
        .into_iter()
        .filter(|&f| crate::module::should_instrument(&ir, f) && !ir::blocks(f).is_empty())
        .map(|f| (f, analyze(f)))
        .collect();
    let default = selection.is_none().then(|| {
        let fns: Vec<(V, bool)> = candidates
            .iter()
            .map(|(f, an)| (*f, !an.forest.loops.is_empty()))
            .collect();
        default_selection(&ir, &fns)
    });
    for (f, an) in &candidates {
        let f = *f;
        let loc = namer.function_loc(f);
        let ir_name = ir::name_of(f);
        let is_main = ir_name == "main";
        let selected = match &selection {
            Some(s) => {
                is_main
                    || s.functions.contains(&loc.linkage)
                    || s.functions.contains(&loc.function)
                    || s.functions.contains(&ir_name)
            }
            None => default.as_ref().is_some_and(|d| d.contains(&f)),
        };
        if !selected {
            continue;
        }
        let wanted: Option<HashSet<u32>> = selection.as_ref().map(|s| {
            [&loc.linkage, &loc.function, &ir_name]
                .iter()
                .filter_map(|n| s.loops.get(*n))
                .flatten()
                .copied()
                .collect()
        });
        let mut loops = Vec::new();
        let mut seen: HashSet<(u32, u32)> = HashSet::new();
        for l in &an.forest.loops {
            let header = an.blocks[l.header];
            let latch_terms: Vec<V> = l
                .latches
                .iter()
                .map(|&b| ir::terminator(an.blocks[b]))
                .collect();
            let dl = loop_location(&latch_terms, header);
            let Some(pos) = namer.position(dl) else {
                continue;
            };
            if let Some(w) = &wanted {
                if !w.contains(&pos.line) {
                    continue;
                }
            }
            // One count per source loop (a header is a loop's identity here: nothing
            // has copied loops yet at pipeline start).
            if !seen.insert((pos.line, pos.column)) {
                continue;
            }
            let t = ir::terminator(header);
            let succ = ir::successors(header);
            let inside = match (ir::opcode(t), ir::terminator_condition(t), succ.as_slice()) {
                (Op::LLVMBr, Some(_), [a, b]) => {
                    match (l.contains(an.index[a]), l.contains(an.index[b])) {
                        (true, false) => Some(0),
                        (false, true) => Some(1),
                        _ => None,
                    }
                }
                _ => None,
            };
            let inc = match inside {
                None => Inc::Header,
                Some(k) => {
                    let s = an.index[&succ[k]];
                    if an.pred_edges[s] == 1 && !ir::is_eh_pad_block(succ[k]) {
                        Inc::Successor(k)
                    } else {
                        Inc::Edge(k)
                    }
                }
            };
            loops.push(Counted {
                header,
                inc,
                file: pos.file,
                line: pos.line,
                column: pos.column,
            });
        }
        let wanted_branches: HashSet<(u32, u32)> = selection
            .as_ref()
            .map(|s| {
                [&loc.linkage, &loc.function, &ir_name]
                    .iter()
                    .filter_map(|n| s.branches.get(*n))
                    .flatten()
                    .copied()
                    .collect()
            })
            .unwrap_or_default();
        let branches = if wanted_branches.is_empty() {
            Vec::new()
        } else {
            sided_branches(an, &mut namer, &wanted_branches)
        };
        plans.push(Plan {
            f,
            name: loc.function,
            linkage: loc.linkage,
            file: loc.file,
            line: loc.fn_line,
            loops,
            branches,
        });
    }
    let wrapped = wrap_process_ends(&ir, m);
    if plans.is_empty() {
        return Ok(wrapped);
    }
    instrument(&ir, &source, &plans);
    Ok(true)
}

/// The branches of a function to record (see the module comment): conditional `br`s
/// and `switch`es with two or more distinct successors, not exits of a loop containing
/// them, at a wanted `(line, column)`; a wanted position whose column matches no branch
/// (the report came from another optimization level, which may place a condition's
/// branch elsewhere on its line) takes every branch on its line.
fn sided_branches(
    an: &crate::prepare::Analysis,
    namer: &mut Namer,
    wanted: &HashSet<(u32, u32)>,
) -> Vec<Sided> {
    let mut found: Vec<Sided> = Vec::new();
    for (bi, &b) in an.blocks.iter().enumerate() {
        let t = ir::terminator(b);
        if t.is_null() {
            continue;
        }
        let Some(succs) = crate::taint::branches::branch_successors(t) else {
            continue;
        };
        if succs.len() < 2 {
            continue;
        }
        let exits_a_loop = an.forest.loops.iter().any(|l| {
            l.contains(bi)
                && succs
                    .iter()
                    .any(|s| an.index.get(s).is_some_and(|&k| !l.contains(k)))
        });
        if exits_a_loop {
            continue;
        }
        let Some(pos) = namer.position(Namer::inst_loc(t)) else {
            continue;
        };
        let mut side_lines = vec![0u32; succs.len().min(MAX_SIDES)];
        for (k, &sb) in succs.iter().enumerate() {
            if k >= MAX_SIDES - 1 && succs.len() > MAX_SIDES {
                continue;
            }
            side_lines[Sided::side_of(k)] = ir::instructions(sb)
                .into_iter()
                .map(Namer::inst_loc)
                .find(|l| !l.is_null())
                .and_then(|l| namer.position(l))
                .map_or(0, |p| p.line);
        }
        found.push(Sided {
            term: t,
            succs,
            side_lines,
            file: pos.file,
            line: pos.line,
            column: pos.column,
        });
    }
    let at: HashSet<(u32, u32)> = found.iter().map(|b| (b.line, b.column)).collect();
    found.retain(|br| {
        wanted
            .iter()
            .any(|&(l, c)| l == br.line && (c == 0 || c == br.column || !at.contains(&(l, c))))
    });
    found
}

/// The functions that end or replace the process without exit handlers: calls go to
/// the runtime's wrappers (`__tpw_<name>`, `rt/src/exits.rs`, `exec_shim.c`; `wrap` in
/// `rt/abilist.txt`), which write the record first.
const PROCESS_ENDS: &[&str] = &[
    "_exit",
    "_Exit",
    "quick_exit",
    "execv",
    "execve",
    "execvp",
    "execvpe",
    "execl",
    "execlp",
    "execle",
    "fexecve",
];

/// Redirects every use of a declared [`PROCESS_ENDS`] function to its wrapper.
fn wrap_process_ends(ir: &Ir, m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for f in defined_or_declared(m) {
        let name = ir::name_of(f);
        if !ir::is_declaration(f) || !PROCESS_ENDS.contains(&name.as_str()) {
            continue;
        }
        // SAFETY: `f` is a live function of the module; its value type is its
        // function type, which the wrapper shares.
        let fnty = unsafe { LLVMGlobalGetValueType(f) };
        let w = ir.function(&format!("__tpw_{name}"), fnty);
        // SAFETY: both are live functions of one type; every use of `f` may take `w`.
        unsafe { LLVMReplaceAllUsesWith(f, w) };
        changed = true;
    }
    changed
}

fn defined_or_declared(m: LLVMModuleRef) -> Vec<V> {
    defined_functions(m)
}

/// The module's strings, one private global each.
#[derive(Default)]
struct Strings(HashMap<String, V>);

impl Strings {
    fn get(&mut self, ir: &Ir, s: &str) -> V {
        *self.0.entry(s.to_string()).or_insert_with(|| {
            let g = ir.private_global("taintprof.time.str", ir.cstring(s), true);
            // SAFETY: `g` is the global just created.
            unsafe {
                LLVMSetUnnamedAddress(g, inkwell::llvm_sys::LLVMUnnamedAddr::LLVMGlobalUnnamedAddr)
            };
            g
        })
    }
}

fn instrument(ir: &Ir, source: &str, plans: &[Plan]) {
    let func_ty = ir.named_struct(
        "taintprof.time.FuncDesc",
        &[ir.ptr, ir.ptr, ir.ptr, ir.i32, ir.i32],
    );
    let loop_ty = ir.named_struct(
        "taintprof.time.LoopDesc",
        &[
            ir.ptr, ir.ptr, ir.i32, ir.i32, ir.i32, ir.i32, ir.i32, ir.i32,
        ],
    );
    let mod_ty = ir.named_struct(
        "taintprof.time.ModuleDesc",
        &[
            ir.i32, ir.i32, ir.ptr, ir.ptr, ir.i32, ir.i32, ir.ptr, ir.ptr,
        ],
    );
    let n_funcs = plans.len() as u64;
    let n_loops: u64 = plans
        .iter()
        .map(|p| {
            p.loops.len() as u64
                + p.branches
                    .iter()
                    .map(|b| b.side_lines.len() as u64)
                    .sum::<u64>()
        })
        .sum();
    let funcs_arr_ty = ir.array_ty(func_ty, n_funcs);
    let loops_arr_ty = ir.array_ty(loop_ty, n_loops);
    let mk_global = |name: &str, t: T| {
        let c = std::ffi::CString::new(name).unwrap();
        // SAFETY: `ir.m` is the live module, `t` a type of its context.
        unsafe {
            let g = LLVMAddGlobal(ir.m, t, c.as_ptr());
            LLVMSetLinkage(g, LLVMLinkage::LLVMPrivateLinkage);
            g
        }
    };
    let funcs_g = mk_global("taintprof.time.funcs", funcs_arr_ty);
    let loops_g = mk_global("taintprof.time.loops", loops_arr_ty);
    let mut strs = Strings::default();
    let mut cstr_global = |ir: &Ir, s: &str| strs.get(ir, s);
    let mut func_vals = Vec::new();
    let mut loop_vals = Vec::new();
    let mut loop_ptrs: Vec<Vec<V>> = Vec::new();
    for (k, p) in plans.iter().enumerate() {
        let fptr = ir.const_elem_ptr(funcs_arr_ty, funcs_g, k as u64);
        func_vals.push(ir.cstruct(
            func_ty,
            &[
                cstr_global(ir, &p.name),
                cstr_global(ir, &p.linkage),
                cstr_global(ir, &p.file),
                ir.c32(p.line),
                ir.c32(p.loops.len() as u32),
            ],
        ));
        let mut ptrs = Vec::new();
        // One `TimeLoopDesc`: (file, line, column), kind, side, target line.
        let mut desc = |file: &str, (line, column): (u32, u32), kind: u32, side: u32, target| {
            ptrs.push(ir.const_elem_ptr(loops_arr_ty, loops_g, loop_vals.len() as u64));
            let file = cstr_global(ir, file);
            loop_vals.push(ir.cstruct(
                loop_ty,
                &[
                    fptr,
                    file,
                    ir.c32(line),
                    ir.c32(column),
                    ir.c32(kind),
                    ir.c32(side),
                    ir.c32(target),
                    ir.c32(0),
                ],
            ));
        };
        for l in &p.loops {
            desc(&l.file, (l.line, l.column), abi::TIME_KIND_LOOP, 0, 0);
        }
        // Then each branch's sides, in order (`instrument_function` takes them so).
        for b in &p.branches {
            for (side, &target) in b.side_lines.iter().enumerate() {
                let kind = abi::TIME_KIND_BRANCH_SIDE;
                desc(&b.file, (b.line, b.column), kind, side as u32, target);
            }
        }
        loop_ptrs.push(ptrs);
    }
    // SAFETY: the globals were created above with these array types.
    unsafe {
        LLVMSetInitializer(funcs_g, ir.carray(func_ty, &func_vals));
        LLVMSetInitializer(loops_g, ir.carray(loop_ty, &loop_vals));
    }
    let md = ir.cstruct(
        mod_ty,
        &[
            ir.c32(abi::TIME_MODULE_MAGIC),
            ir.c32(abi::TIME_ABI_VERSION),
            cstr_global(ir, source),
            ir.const_elem_ptr(funcs_arr_ty, funcs_g, 0),
            ir.c32(n_funcs as u32),
            ir.c32(n_loops as u32),
            ir.const_elem_ptr(loops_arr_ty, loops_g, 0),
            ir.null_ptr(),
        ],
    );
    let md_g = ir.private_global(TIME_MODULE_GLOBAL, md, false);
    // SAFETY: `md_g` is the global just created.
    unsafe { LLVMSetLinkage(md_g, LLVMLinkage::LLVMInternalLinkage) };

    let hook_ty = ir.fn_ty(ir.void, &[ir.ptr], false);
    let loop_hook_ty = ir.fn_ty(ir.void, &[ir.ptr, ir.i64], false);
    let enter = ir.function(abi::HOOK_TIME_ENTER, hook_ty);
    let exit = ir.function(abi::HOOK_TIME_EXIT, hook_ty);
    let lhook = ir.function(abi::HOOK_TIME_LOOP, loop_hook_ty);
    // The hooks touch only the runtime's own memory (descriptors are passed as keys,
    // never read by the hooks): saying so keeps LICM, GVN and the vectorizer working
    // around an inlined callee's enter and exit calls (an opaque call made a C++
    // accessor workload 1.8x slower).
    for h in [enter, exit, lhook] {
        ir.add_fn_attr(h, "nounwind");
        ir.add_fn_attr(h, "willreturn");
        // The inliner's cost model (`InlineCost.cpp`) charges a call of a declared
        // function its arguments plus `CallPenalty` (about 35 for enter or exit, 45 for
        // a loop call): enough to keep a kernel out of its caller that native inlines
        // (the C++ `accessors` workload: `convolve` out of line, its 5 x 5 loops no
        // longer unrolled, 2.06x). `call-inline-cost` (LLVM 14 and later; read from the
        // callee when the call site has none) overrides a call's cost: 0 makes the
        // hooks free to the inliner, so it decides as it does natively.
        ir.add_fn_string_attr(h, "call-inline-cost", "0");
        let name = "memory";
        // SAFETY: `h` is a live declaration; `memory` is an integer attribute whose value
        // is LLVM's MemoryEffects encoding: 2 bits (ModRef) per location, argmem at bit
        // 0, inaccessiblemem at bit 2, other at bit 4; 3 << 2 = inaccessiblemem readwrite.
        unsafe {
            let k = LLVMGetEnumAttributeKindForName(
                name.as_ptr() as *const std::os::raw::c_char,
                name.len(),
            );
            let a = LLVMCreateEnumAttribute(ir.ctx, k, 3 << 2);
            LLVMAddAttributeAtIndex(h, inkwell::llvm_sys::LLVMAttributeFunctionIndex, a);
        }
    }
    for (k, p) in plans.iter().enumerate() {
        let fptr = ir.const_elem_ptr(funcs_arr_ty, funcs_g, k as u64);
        instrument_function(
            ir,
            p,
            fptr,
            &loop_ptrs[k],
            (hook_ty, enter, exit),
            (loop_hook_ty, lhook),
        );
    }
    let reg_ty = ir.fn_ty(ir.void, &[ir.ptr], false);
    let reg = ir.function(abi::HOOK_TIME_REGISTER_MODULE, reg_ty);
    crate::descriptors::register_ctor(ir, (reg, reg_ty), md_g);
}

/// The inline threshold bonus per counted loop (two of LLVM's `InstrCost`): what a
/// loop's count costs the inliner once simplified (see `instrument_function`).
const LOOP_INLINE_BONUS: u64 = 10;

fn set_loc_of(ir: &Ir, i: V) {
    // SAFETY: `i` is a live instruction (or null: no location), `ir.b` our builder.
    unsafe {
        let l = if i.is_null() {
            std::ptr::null_mut()
        } else {
            LLVMInstructionGetDebugLoc(i)
        };
        LLVMSetCurrentDebugLocation2(ir.b, l);
    }
}

fn instrument_function(
    ir: &Ir,
    p: &Plan,
    fptr: V,
    loop_ptrs: &[V],
    (hook_ty, enter, exit): (T, V, V),
    (loop_hook_ty, lhook): (T, V),
) {
    let entry = ir::entry_block(p.f);
    // After the leading allocas of the entry block.
    let mut at = ir::first_insertion_point(entry);
    while !at.is_null() && ir::opcode(at) == Op::LLVMAlloca {
        at = ir::next_instruction(at);
    }
    // Returns, collected before anything is inserted.
    let rets: Vec<V> = ir::blocks(p.f)
        .into_iter()
        .map(ir::terminator)
        .filter(|&t| !t.is_null() && ir::opcode(t) == Op::LLVMRet)
        .collect();
    let debug_at = ir::instructions(entry)
        .into_iter()
        .find(|&i| !Namer::inst_loc(i).is_null())
        .unwrap_or(std::ptr::null_mut());
    ir.before(at);
    set_loc_of(ir, debug_at);
    let counters: Vec<V> = p
        .loops
        .iter()
        .map(|_| {
            ir.before(ir::first_insertion_point(entry));
            ir.alloca(ir.i64)
        })
        .collect();
    let flags: Vec<V> = p
        .branches
        .iter()
        .map(|_| {
            ir.before(ir::first_insertion_point(entry));
            ir.alloca(ir.i8)
        })
        .collect();
    ir.before(at);
    for &c in &counters {
        ir.store(ir.c64(0), c, 8);
    }
    for &fl in &flags {
        ir.store(ir.cint(ir.i8, 0), fl, 1);
    }
    let call = ir.call(hook_ty, enter, &[fptr]);
    if !p.loops.is_empty() || !p.branches.is_empty() {
        // The hooks are free to the inliner (`call-inline-cost`, in `instrument`); what
        // is left is what a loop count costs once simplified: an add per iteration of
        // the enclosing loop and a trip count (a zext, a max), 2.5 to 12.5 (0.5 to 2.5
        // instructions) per counted loop on the bench suite. The enter call, the first
        // the inliner visits, raises the threshold by that much for the function, so
        // that it is inlined where it is natively (convolve in `accessors`: cost 175
        // natively, 220 counted, threshold 225).
        // A recorded branch costs about as much (a select and an or).
        let bonus = LOOP_INLINE_BONUS * (p.loops.len() + p.branches.len()) as u64;
        ir.add_call_string_attr(call, "call-threshold-bonus", &bonus.to_string());
    }
    for (l, &c) in p.loops.iter().zip(&counters) {
        let t = ir::terminator(l.header);
        match l.inc {
            Inc::Header => ir.before(t),
            Inc::Successor(k) => ir.at_start(ir::successors(l.header)[k]),
            Inc::Edge(k) => {
                // SAFETY: `t` is the header's live `br`; `k` one of its successors.
                let b = unsafe { ffi::tp_split_edge(t, k as u32) };
                ir.at_start(b)
            }
        }
        set_loc_of(ir, t);
        let old = ir.load(ir.i64, c, 8);
        let new = ir.add(old, ir.c64(1));
        ir.store(new, c, 8);
    }
    for (b, &fl) in p.branches.iter().zip(&flags) {
        let set = |bits: V| {
            let old = ir.load(ir.i8, fl, 1);
            let new = ir.or(old, bits);
            ir.store(new, fl, 1);
        };
        let bit = |k: usize| ir.cint(ir.i8, 1u64 << Sided::side_of(k));
        if ir::opcode(b.term) == Op::LLVMBr {
            // Two distinct successors (`sided_branches`): true is side 0, false side 1.
            ir.before(b.term);
            set_loc_of(ir, b.term);
            let cond = ir::operand(b.term, 0);
            set(ir.select(cond, bit(0), bit(1)));
        } else {
            for (k, &s) in b.succs.iter().enumerate() {
                // SAFETY: `b.term` is a live `switch` and `s` one of its successors.
                let e = unsafe { ffi::tp_split_switch_successor(b.term, s) };
                ir.before(ir::terminator(e));
                set_loc_of(ir, b.term);
                set(bit(k));
            }
        }
    }
    let side_ptrs = &loop_ptrs[p.loops.len()..];
    for r in rets {
        let mut before = r;
        let prev = prev_instruction(r);
        if !prev.is_null() && ir::opcode(prev) == Op::LLVMCall && is_musttail(prev) {
            before = prev;
        }
        ir.before(before);
        set_loc_of(ir, r);
        for (&c, &lp) in counters.iter().zip(loop_ptrs) {
            let n = ir.load(ir.i64, c, 8);
            ir.call(loop_hook_ty, lhook, &[lp, n]);
        }
        let mut sides = side_ptrs.iter();
        for (b, &fl) in p.branches.iter().zip(&flags) {
            let bits = ir.load(ir.i8, fl, 1);
            for side in 0..b.side_lines.len() {
                let one = ir.and(
                    ir.lshr(bits, ir.cint(ir.i8, side as u64)),
                    ir.cint(ir.i8, 1),
                );
                let n = ir.zext(one, ir.i64);
                let sp = *sides.next().expect("a descriptor per side");
                ir.call(loop_hook_ty, lhook, &[sp, n]);
            }
        }
        ir.call(hook_ty, exit, &[fptr]);
    }
    set_loc_of(ir, std::ptr::null_mut());
}

fn prev_instruction(i: V) -> V {
    // SAFETY: `i` is a live instruction.
    unsafe { LLVMGetPreviousInstruction(i) }
}

fn is_musttail(call: V) -> bool {
    // SAFETY: `call` is a live call instruction.
    unsafe {
        LLVMGetTailCallKind(call) == inkwell::llvm_sys::LLVMTailCallKind::LLVMTailCallKindMustTail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_file() {
        let s = Selection::parse("# c\nfn\tmain\nfn\t_Z4stepv\nloop\tstep\t24\n\n").unwrap();
        assert!(s.functions.contains("_Z4stepv"));
        assert!(s.loops["step"].contains(&24));
        assert!(Selection::parse("bogus line\n").is_err());
        assert!(Selection::parse("loop\tf\tx\n").is_err());
    }
}
