//! Per-function work before instrumentation: the pre-check (every construct taintprof
//! cannot instrument becomes a compile error *before* anything is changed, so an error
//! never leaves half-instrumented IR behind), promotion of allocas to SSA, CFG edge
//! splitting, and the CFG/loop analysis that the instrumentation uses.

use crate::abilist::AbiList;
use crate::callkind::{call_kind, CallKind};
use crate::cfg::{Cfg, DomTree};
use crate::ffi;
use crate::intrinsics::IntrKind;
use crate::ir::{self, Ir, B, V};
use crate::loops::{find_loops, LoopForest};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::{HashMap, HashSet};

/// A compile error about one instruction (or function).
pub fn inst_error(f: V, i: V, what: &str, hint: &str) -> String {
    format!(
        "in function `{}`: instruction `{}`: {what}. {hint}",
        ir::name_of(f),
        if i.is_null() {
            String::from("<none>")
        } else {
            ir::print_value(i)
        }
    )
}

const PLEASE_REPORT: &str = "This is not supported on this target; please report it to the taintprof developers. \
     Meanwhile, compile this file with TAINTPROF_MODE=off (it will not be analysed) or avoid the construct";

fn has_scalable(ir_ty: inkwell::llvm_sys::prelude::LLVMTypeRef) -> bool {
    ir::is_scalable(ir_ty)
}

/// Every reason this function cannot be instrumented (empty = fine).
pub fn precheck(f: V, list: &AbiList) -> Vec<String> {
    let mut errs = Vec::new();
    for (k, _) in ir::params(f).iter().enumerate() {
        // SAFETY: `f` is a live function of the module and `k` one of its parameter indices
        // (taint module header); the shim checks that `f` is a function.
        if unsafe { ffi::tp_has_unsupported_param_attr(f, k as u32) } != 0 {
            errs.push(format!(
                "in function `{}`: parameter {k} is `inalloca` or `preallocated`. {PLEASE_REPORT}",
                ir::name_of(f)
            ));
        }
    }
    for b in ir::blocks(f) {
        for i in ir::instructions(b) {
            let op = ir::opcode(i);
            match op {
                Op::LLVMCallBr => errs.push(inst_error(
                    f,
                    i,
                    "`callbr` (asm goto) cannot be instrumented",
                    PLEASE_REPORT,
                )),
                Op::LLVMCatchSwitch
                | Op::LLVMCatchPad
                | Op::LLVMCleanupPad
                | Op::LLVMCatchRet
                | Op::LLVMCleanupRet => errs.push(inst_error(
                    f,
                    i,
                    "Windows-style exception handling cannot be instrumented",
                    PLEASE_REPORT,
                )),
                Op::LLVMUserOp1 | Op::LLVMUserOp2 => {
                    errs.push(inst_error(f, i, "unknown instruction", PLEASE_REPORT))
                }
                _ => {}
            }
            let scalable = has_scalable(ir::type_of(i))
                || (0..ir::num_operands(i)).any(|k| {
                    let o = ir::operand(i, k);
                    !o.is_null() && has_scalable(ir::type_of(o))
                });
            if scalable {
                errs.push(inst_error(
                    f,
                    i,
                    "scalable vectors cannot be instrumented",
                    PLEASE_REPORT,
                ));
                continue;
            }
            if op == Op::LLVMCall || op == Op::LLVMInvoke {
                for k in 0..ir::num_call_args(i) {
                    // SAFETY: `i` is a live call or invoke of `f` and `k` < its
                    // argument count; the shim checks that `i` is a call.
                    if unsafe { ffi::tp_has_unsupported_param_attr(i, k) } != 0 {
                        errs.push(inst_error(
                            f,
                            i,
                            &format!("argument {k} is `inalloca` or `preallocated`"),
                            PLEASE_REPORT,
                        ));
                    }
                }
                if let CallKind::Intrinsic(IntrKind::Unsupported, name) = call_kind(i, list) {
                    errs.push(inst_error(
                        f,
                        i,
                        &format!("intrinsic `{name}` accesses memory and taintprof does not know how it moves labels"),
                        PLEASE_REPORT,
                    ));
                }
            }
        }
    }
    errs
}

/// CFG, dominators, post-dominators and loops of a function, with the block numbering
/// they use.
pub struct Analysis {
    pub blocks: Vec<B>,
    pub index: HashMap<B, usize>,
    pub cfg: Cfg,
    pub dom: DomTree,
    pub pdom: DomTree,
    pub forest: LoopForest,
    /// How many CFG edges (with multiplicity) enter each block.
    pub pred_edges: Vec<usize>,
    /// Blocks that only lead to the end of the program (see `Cfg::mark_program_ends`).
    #[allow(dead_code)]
    pub dying: Vec<bool>,
}

pub fn analyze(f: V) -> Analysis {
    let blocks = ir::blocks(f);
    let index: HashMap<B, usize> = blocks.iter().enumerate().map(|(i, b)| (*b, i)).collect();
    let mut cfg = Cfg::new(blocks.len());
    for (n, &b) in blocks.iter().enumerate() {
        let t = ir::terminator(b);
        if t.is_null() {
            continue;
        }
        match ir::opcode(t) {
            Op::LLVMRet => {
                cfg.exits.push(n);
                cfg.returns.push(n);
            }
            Op::LLVMResume => {
                cfg.exits.push(n);
                cfg.resumes.push(n);
            }
            Op::LLVMUnreachable => cfg.exits.push(n),
            _ => {}
        }
        for s in ir::successors(b) {
            cfg.edge(n, index[&s]);
        }
        if ir::opcode(t) == Op::LLVMInvoke {
            // SAFETY: `t` is a live invoke (checked just above) of the function being analysed.
            let u = unsafe { LLVMGetUnwindDest(t) };
            cfg.unwind.push((n, index[&u]));
        }
    }
    let mut pred_edges = vec![0; blocks.len()];
    for ss in &cfg.succs {
        for &s in ss {
            pred_edges[s] += 1;
        }
    }
    let dom = cfg.dominators();
    let forest = find_loops(&cfg, &dom);
    let mut in_loop = vec![false; blocks.len()];
    for l in &forest.loops {
        for &b in &l.blocks {
            in_loop[b] = true;
        }
    }
    // Error exits: edges into code that ends the program leave the post-dominator tree,
    // unless they are the only way out of a loop around them.
    let dying = cfg.mark_program_ends(&in_loop, |b, dying| {
        forest
            .loops
            .iter()
            .filter(|l| l.contains(b))
            .all(|l| l.exit_edges.iter().any(|&(_, to, _)| !dying[to]))
    });
    let pdom = cfg.post_dominators();
    Analysis {
        blocks,
        index,
        cfg,
        dom,
        pdom,
        forest,
        pred_edges,
        dying,
    }
}

/// One *logical* loop: the natural loops of a function that share a source identity
/// and follow each other, such as a vectorized loop and its scalar remainder, or the
/// loops that runtime unrolling or loop distribution made from one source loop. One
/// execution of the source loop runs through several of them; it must be reported
/// once, with the union of their exit-condition labels, as at -O0.
///
/// The sink covers a region: the member loops' bodies plus the blocks on forward paths
/// (no back edges) from a member's exit to a member's header (the vectorizer's middle
/// block and scalar preheader). The accumulator is reset on edges entering the region
/// and reported on edges leaving it. A group of one loop is an ordinary natural loop
/// (in reducible code no forward path leads from a loop's exit back to its header).
/// Loops absorbed into a member (see [`absorbed`]: a computed-goto dispatch inside the
/// fetch loop it is the only way out of) are members too; they lie inside its body.
#[derive(Debug, Clone)]
pub struct Sink {
    /// Indices into `an.forest.loops`, the first is the representative whose
    /// `LoopDesc` is reported.
    pub members: Vec<usize>,
    /// Blocks outside the region with an edge into it (reset the accumulator there).
    pub entering: Vec<usize>,
    /// Exiting blocks of the member loops (their conditions are ORed in).
    pub exiting: Vec<usize>,
    /// Blocks at whose first insertion point one execution has ended.
    pub exit_points: Vec<B>,
    /// Depth of the representative (inner groups report first at shared exits).
    pub depth: u32,
    /// The region: `region[b]` for every block of the member loops and the blocks
    /// between them.
    pub region: Vec<bool>,
    /// Every entering block ends in a `br` or `invoke`, so the loop can be recorded as in
    /// flight there (`__tp_loops_tls`), on the edges into the region only.
    pub in_flight: bool,
}

/// A function ready to be instrumented.
pub struct Prepared {
    pub f: V,
    pub an: Analysis,
    pub sinks: Vec<Sink>,
    /// Region exit edges into EH pads (cannot be split; a loop execution ending by an
    /// exception is not reported).
    pub skipped_eh_exits: usize,
    /// Region exit edges out of `indirectbr` into shared blocks (cannot be split).
    pub skipped_indirect_exits: usize,
    /// Calls `__tp_enter`: every function that is not statically pruned (set by the
    /// module driver once pruning is decided).
    pub tracked: bool,
    pub promoted_allocas: u32,
    /// Index of this function in the module's function array.
    pub func_index: usize,
    /// Index of this function's first loop in the module's loop array.
    pub loop_base: usize,
    /// Statically pruned (no sinks, no context), and why (set by the module driver).
    pub pruned: Option<crate::prune::Reason>,
    /// In a call-graph cycle of the module.
    pub recursive: bool,
    /// Per loop (index into `an.forest.loops`): trip count proved constant (`Some`),
    /// with its value when it is the source loop's (see `taint::module::trip_counts`).
    pub trip: Vec<Option<Option<u64>>>,
    /// Per block: the innermost natural loop containing it.
    pub innermost: Vec<Option<usize>>,
    /// Branch sinks: (block index, index in the module's branch array).
    pub branch_sinks: Vec<(usize, usize)>,
    /// Per block: its terminator is a decider whose label control-flow tainting
    /// ignores (the optimizer's loop machinery, see `branches::Class::silent`).
    pub silent: Vec<bool>,
    /// The recursion loop, for a function in a cycle of the module's call graph (set by
    /// the module driver; never in denormal mode).
    pub recursion: Option<Recursion>,
    /// Calls that are library loops (`crate::library`), set by the module driver.
    pub library: Vec<crate::library::LibCall>,
}

/// The *recursion loop* of a recursive function (`docs/internal/control-flow.md`,
/// "Recursion"): a logical loop that encloses the whole body (every top-level loop and
/// every call outside loops), reported once per activation at each `ret` with the
/// labels of the decisions that choose to recurse. Its descriptor comes after the
/// function's natural loops (function loop index `an.forest.loops.len()`).
#[derive(Debug, Clone)]
pub struct Recursion {
    /// Blocks with a call into the function's call-graph cycle, sorted.
    pub call_blocks: Vec<usize>,
    /// Those calls.
    pub calls: Vec<V>,
    /// Where the recursion loop is located: the decision nearest above the first
    /// recursive call (its terminator's debug location), else that call's.
    pub loc: inkwell::llvm_sys::prelude::LLVMMetadataRef,
    /// Top-level natural loops that *are* the recursion: tail-recursion elimination
    /// turned recursive calls into their back edges. Their sinks report as the recursion
    /// loop (nested in it, fib would read `k^2` at -O2).
    pub aliases: Vec<usize>,
}

impl Prepared {
    /// The sink that reports loop `li`, and whether `li` is its representative.
    pub fn sink_of(&self, li: usize) -> Option<&Sink> {
        self.sinks.iter().find(|s| s.members.contains(&li))
    }

    /// The representative of the logical loop that loop `li` belongs to (the loop whose
    /// descriptor `__tp_loop_exit` reports).
    /// A loop made from recursion reports as the recursion loop (function loop index
    /// [`Prepared::recursion_index`]).
    pub fn rep(&self, li: usize) -> usize {
        let r = self.sink_of(li).map_or(li, |s| s.members[0]);
        match &self.recursion {
            Some(rec) if rec.aliases.contains(&r) => self.an.forest.loops.len(),
            _ => r,
        }
    }

    /// Function loop index of the recursion loop, if the function has one.
    pub fn recursion_index(&self) -> Option<usize> {
        self.recursion.as_ref().map(|_| self.an.forest.loops.len())
    }

    /// Number of loop descriptors of this function: its natural loops and the recursion
    /// loop.
    pub fn n_loop_descs(&self) -> usize {
        self.an.forest.loops.len() + self.recursion.is_some() as usize
    }

    /// Module loop index of the logical natural loop innermost around block `b`, if any
    /// (never the recursion loop, unless a loop made from the recursion is around `b`).
    pub fn natural_loop_around(&self, b: usize) -> Option<usize> {
        self.innermost
            .get(b)
            .copied()
            .flatten()
            .map(|l| self.loop_base + self.rep(l))
    }

    /// Module loop index of the logical loop innermost around block `b`, if any: a
    /// natural loop, else the recursion loop (which encloses the whole body).
    pub fn loop_around(&self, b: usize) -> Option<usize> {
        self.innermost
            .get(b)
            .copied()
            .flatten()
            .map(|l| self.rep(l))
            .or(self.recursion_index())
            .map(|l| self.loop_base + l)
    }
}

fn has_phi(b: B) -> bool {
    // SAFETY: `b` is a live block of the function being prepared (taint module header).
    let i = unsafe { LLVMGetFirstInstruction(b) };
    !i.is_null() && ir::is_phi(i)
}

/// Source identity of a loop as a comparable key: (line, column, subprogram) along the
/// inline chain. `None` without debug location (such loops are never grouped).
pub(crate) fn identity_key(an: &Analysis, li: usize) -> Option<Vec<(u32, u32, usize)>> {
    let l = &an.forest.loops[li];
    let terms: Vec<V> = l
        .latches
        .iter()
        .map(|&b| ir::terminator(an.blocks[b]))
        .collect();
    location_key(crate::debugloc::loop_location(&terms, an.blocks[l.header]))
}

/// A debug location as a comparable key: (line, column, subprogram) along the inline
/// chain; `None` for no location.
pub(crate) fn location_key(
    mut loc: inkwell::llvm_sys::prelude::LLVMMetadataRef,
) -> Option<Vec<(u32, u32, usize)>> {
    if loc.is_null() {
        return None;
    }
    let mut key = Vec::new();
    while !loc.is_null() && key.len() < 256 {
        let mut li = ffi::TpLocation {
            line: 0,
            column: 0,
            inlined_at: std::ptr::null_mut(),
            subprogram: std::ptr::null_mut(),
        };
        // SAFETY: `loc` is non-null metadata of the module (a location, or what the previous
        // one was inlined at); the shim checks it is a DILocation and fills `li`.
        if unsafe { ffi::tp_location_info(loc, &mut li) } == 0 {
            break;
        }
        key.push((li.line, li.column, li.subprogram as usize));
        loc = li.inlined_at;
    }
    Some(key)
}

/// The loop each loop is *absorbed into*: a loop `P` that is left only from inside one
/// of its child loops `C` (every exiting block of `P` is a block of `C`) has no decision
/// of its own; it goes around only when `C` is left towards `P`'s back edges. Such a `P`
/// and `C` are one cycle with two ways into `C`'s header, not a nest: a threaded
/// interpreter's fetch loop (`for (;;) { goto *labels[op]; ... continue; ... }`) around
/// its `goto *` dispatch. Nested, the `n` dispatches of an `n`-instruction program read
/// `n^2`; absorbed, `C` becomes a member of `P`'s logical loop (`P` is reported, with
/// both loops' exit labels) and the dispatch reads `n`.
///
/// `absorbed[c] == Some(p)` for such a child; chains (`P ⊃ C ⊃ D`) are followed by
/// [`absorbing_root`]. A parent without exiting blocks (left only by `exit()` or an
/// exception) absorbs nothing: nothing says its iterations are the child's.
fn absorbed(an: &Analysis) -> Vec<Option<usize>> {
    let loops = &an.forest.loops;
    let mut out = vec![None; loops.len()];
    for (p, lp) in loops.iter().enumerate() {
        if lp.exiting.is_empty() {
            continue;
        }
        for &c in &lp.children {
            if lp.exiting.iter().all(|&x| loops[c].contains(x)) {
                out[c] = Some(p);
                break;
            }
        }
    }
    out
}

/// The loop `l` is finally absorbed into (itself if none).
fn absorbing_root(absorbed: &[Option<usize>], mut l: usize) -> usize {
    for _ in 0..absorbed.len() {
        match absorbed[l] {
            Some(p) => l = p,
            None => break,
        }
    }
    l
}

/// Group the loops into logical loops and compute each group's region.
fn groups(an: &Analysis) -> Vec<(Vec<usize>, Vec<bool>)> {
    let loops = &an.forest.loops;
    let n = an.blocks.len();
    let keys: Vec<_> = (0..loops.len()).map(|l| identity_key(an, l)).collect();
    let preds = an.cfg.preds();
    let back = |t: usize, h: usize| an.dom.dominates(h, t);
    let absorbed = absorbed(an);
    let mut assigned = vec![false; loops.len()];
    // Absorbed loops join their root's group (below), never start one.
    for l in 0..loops.len() {
        assigned[l] = absorbed[l].is_some();
    }
    let mut out = Vec::new();
    for l in 0..loops.len() {
        if assigned[l] {
            continue;
        }
        // Candidates: same identity, same parent loop (siblings), not yet grouped.
        let same: Vec<usize> = (l..loops.len())
            .filter(|&m| {
                !assigned[m]
                    && (m == l
                        || (keys[l].is_some()
                            && keys[m] == keys[l]
                            && loops[m].parent == loops[l].parent))
            })
            .collect();
        let mut body = vec![false; n];
        for &m in &same {
            for &b in &loops[m].blocks {
                body[b] = true;
            }
        }
        // Forward from member exits, without back edges, outside the bodies.
        let mut fwd = vec![false; n];
        let mut work: Vec<usize> = Vec::new();
        for &m in &same {
            for &(_, to, _) in &loops[m].exit_edges {
                if !body[to] && !fwd[to] {
                    fwd[to] = true;
                    work.push(to);
                }
            }
        }
        while let Some(b) = work.pop() {
            for &s in &an.cfg.succs[b] {
                if !body[s] && !fwd[s] && !back(b, s) {
                    fwd[s] = true;
                    work.push(s);
                }
            }
        }
        // Backward from member headers, without back edges, outside the bodies.
        let mut bwd = vec![false; n];
        for &m in &same {
            work.push(loops[m].header);
        }
        while let Some(b) = work.pop() {
            for &p in &preds[b] {
                if !body[p] && !bwd[p] && !back(p, b) && an.dom.contains(p) {
                    bwd[p] = true;
                    work.push(p);
                }
            }
        }
        let region: Vec<bool> = (0..n).map(|b| body[b] || (fwd[b] && bwd[b])).collect();
        // Members: the loops of `same` that this region connects. A sibling copy with
        // no path to or from the others (e.g. one of two unswitched versions) stays a
        // group of its own.
        let connected: Vec<usize> = same
            .iter()
            .copied()
            .filter(|&m| {
                // Connected: entered from the region, or leaving into it.
                m == l
                    || preds[loops[m].header]
                        .iter()
                        .any(|&p| region[p] && !loops[m].contains(p))
                    || loops[m].exit_edges.iter().any(|&(_, to, _)| region[to])
            })
            .collect();
        let region = if connected.len() == same.len() {
            region
        } else {
            // Recompute for the connected subset only (rare: at most one extra pass).
            let mut r = vec![false; n];
            for &m in &connected {
                for &b in &loops[m].blocks {
                    r[b] = true;
                }
            }
            for b in 0..n {
                if !body[b] && fwd[b] && bwd[b] {
                    r[b] = true;
                }
            }
            r
        };
        for &m in &connected {
            assigned[m] = true;
        }
        // The loops absorbed into the members (inside their bodies: the region is
        // unchanged) report as the members do.
        let mut members = connected;
        for c in 0..loops.len() {
            if absorbed[c].is_some() && members.contains(&absorbing_root(&absorbed, c)) {
                members.push(c);
            }
        }
        out.push((members, region));
    }
    out
}

/// Compute the sinks; with `split`, region exits into shared blocks get a block of
/// their own first (then the caller re-analyses).
fn sinks(
    an: &Analysis,
    split: bool,
    done: &mut HashSet<(usize, usize)>,
) -> (Vec<Sink>, usize, usize, bool) {
    let (mut eh, mut indirect, mut changed) = (0, 0, false);
    let mut out = Vec::new();
    let preds = an.cfg.preds();
    for (members, region) in groups(an) {
        let loops = &an.forest.loops;
        let mut entering: Vec<usize> = Vec::new();
        let mut exit_points: Vec<B> = Vec::new();
        for b in 0..an.blocks.len() {
            if !region[b] {
                continue;
            }
            for &p in &preds[b] {
                if !region[p] && an.dom.contains(p) && !entering.contains(&p) {
                    entering.push(p);
                }
            }
            for (idx, &to) in an.cfg.succs[b].iter().enumerate() {
                if region[to] {
                    continue;
                }
                let tb = an.blocks[to];
                let term = ir::terminator(an.blocks[b]);
                if ir::is_eh_pad_block(tb) {
                    eh += 1;
                    continue;
                }
                if an.pred_edges[to] == 1 {
                    if !exit_points.contains(&tb) {
                        exit_points.push(tb);
                    }
                    continue;
                }
                match ir::opcode(term) {
                    Op::LLVMIndirectBr | Op::LLVMCallBr => indirect += 1,
                    _ if split => {
                        if done.insert((b, idx)) {
                            // SAFETY: `term` is the live terminator of `an.blocks[b]` and
                            // `idx` the number of its successor `to` (`analyze` records
                            // successors in order, with repeats).
                            unsafe { ffi::tp_split_edge(term, idx as u32) };
                            changed = true;
                        }
                    }
                    // After splitting, every splittable exit edge has a dedicated block.
                    _ => unreachable!("region exit edge was not split"),
                }
            }
        }
        entering.sort_unstable();
        // The loop is pushed on the loops in flight where it is entered, only when it is
        // entered: after a `br` (conditionally on its condition) or an `invoke`.
        let in_flight = entering.iter().all(|&p| {
            matches!(
                ir::opcode(ir::terminator(an.blocks[p])),
                Op::LLVMBr | Op::LLVMInvoke
            )
        });
        // A block whose every way out of the region ends the program (an error exit
        // inside the loop) does not decide how often the loop runs: its condition is not
        // an exit condition.
        let mut exiting: Vec<usize> = members
            .iter()
            .flat_map(|&m| loops[m].exiting.iter().copied())
            .filter(|&x| {
                let mut out = an.cfg.succs[x].iter().filter(|&&to| !region[to]).peekable();
                out.peek().is_none() || !out.all(|&to| an.cfg.ends_program.contains(&(x, to)))
            })
            .collect();
        exiting.sort_unstable();
        exiting.dedup();
        let depth = loops[members[0]].depth;
        out.push(Sink {
            members,
            entering,
            exiting,
            exit_points,
            depth,
            region,
            in_flight,
        });
    }
    (out, eh, indirect, changed)
}

/// Promote allocas, split edges, analyse. `ir` must belong to `f`'s module.
pub fn prepare(ir: &Ir, f: V) -> Prepared {
    let _ = ir;
    // Promote allocas to SSA at every optimization level. At -O2 this is a no-op
    // (SROA/mem2reg already ran). At -O0 every local lives in an alloca; without this
    // the instrumented code would move every label through shadow memory (slow) and
    // -O0 and -O2 builds would see different value flows. Debug info is kept
    // (dbg.declare becomes dbg.value). Functions that call setjmp are left alone (the
    // shim refuses): after a longjmp, promoted locals could change value.
    // SAFETY: `f` is a live function (taint module header); a null list with length 0
    // asks the shim to promote every promotable alloca.
    let promoted = unsafe { ffi::tp_promote_allocas(f, std::ptr::null_mut(), 0) };

    // Invoke results get their label from the return TLS slot in the normal
    // destination; give every such edge a block of its own when the destination is
    // shared or has PHIs (which may use the result along this edge).
    let an0 = analyze(f);
    for (n, &b) in an0.blocks.iter().enumerate() {
        let _ = n;
        let t = ir::terminator(b);
        if t.is_null() || ir::opcode(t) != Op::LLVMInvoke {
            continue;
        }
        // Only invokes whose result label (or returns_twice context restore) must be
        // placed after the call need a place of their own.
        let has_result =
            ir::kind(ir::type_of(t)) != inkwell::llvm_sys::LLVMTypeKind::LLVMVoidTypeKind;
        // SAFETY: `t` is a live invoke (checked above); the shim casts it to `CallBase`.
        if !has_result && unsafe { ffi::tp_call_returns_twice(t) } == 0 {
            continue;
        }
        // SAFETY: `t` is a live invoke (checked above).
        let nd = unsafe { LLVMGetNormalDest(t) };
        if an0.pred_edges[an0.index[&nd]] > 1 || has_phi(nd) {
            // SAFETY: `t` is a live invoke; successor 0 is its normal destination.
            unsafe { ffi::tp_split_edge(t, 0) };
        }
    }

    let an1 = analyze(f);
    let mut done = HashSet::new();
    let (_, _, _, changed) = sinks(&an1, true, &mut done);
    let an = if changed { analyze(f) } else { an1 };
    let (sinks, eh, indirect, _) = sinks(&an, false, &mut done);

    let mut innermost: Vec<Option<usize>> = vec![None; an.blocks.len()];
    for (li, l) in an.forest.loops.iter().enumerate() {
        for &b in &l.blocks {
            match innermost[b] {
                Some(o) if an.forest.loops[o].depth >= l.depth => {}
                _ => innermost[b] = Some(li),
            }
        }
    }
    let n_loops = an.forest.loops.len();
    Prepared {
        f,
        an,
        sinks,
        skipped_eh_exits: eh,
        skipped_indirect_exits: indirect,
        tracked: true,
        promoted_allocas: promoted,
        func_index: 0,
        loop_base: 0,
        pruned: None,
        recursive: false,
        trip: vec![None; n_loops],
        innermost,
        branch_sinks: Vec::new(),
        silent: Vec::new(),
        recursion: None,
        library: Vec::new(),
    }
}
