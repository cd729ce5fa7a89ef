//! Branch sinks (Perf-Taint section 4.4): which conditional branches get a `BranchRec`,
//! and the inline fast path that updates it.
//!
//! Every conditional `br` and `switch` of a function that is not statically pruned is a
//! branch sink, except the branches that belong to a loop's own control, so that the
//! list is the same at -O0 and -O2 (the optimizer adds such branches, -O0 has none).
//! [`classify`] sorts them:
//! * exits of a natural loop containing the branch (their labels are loop sinks);
//! * branches in the region of a logical loop that lie outside its member loops (the
//!   vectorizer's middle block and epilogue checks between a vector body and its
//!   remainder);
//! * branches located exactly at a loop's `for`/`while`/`do` keyword (its identity):
//!   at -O0 the only such branch is the loop's own test; at -O2 the optimizer's copies
//!   of it (rotation guards, runtime-unroll remainder checks) keep that location;
//! * guards: a branch outside a logical loop each of whose successors either *enters*
//!   the loop (every path from it reaches the loop's region) or *skips* it
//!   (post-dominates one of the loop's exits), with at least one entering — the
//!   rotation guard `if (n > 0)` that -O2 puts before a `for`, and the vectorizer's
//!   choice between vector and scalar loop. A source `if` whose only content is a loop
//!   is such a branch too: it decides whether the loop runs, which the loop's record
//!   already says.
//!
//! The optimizer's own branches — region machinery and guards all of whose successors
//! enter the loop (vector or scalar? runtime alias and overflow checks) — are also
//! *silent* for control-flow tainting: they choose how a loop runs, not which values
//! flow, and -O0 has nothing like them. A check such as `~(cols*i) < cols-1` would
//! otherwise put the outer loop's label on the scalar remainder's start value and so on
//! the inner loop.
//!
//! Instrumentation (docs/design.md, decision 3, applied to branches: nothing per
//! execution but a check): `taken_bit` is `select(cond, 1, 2)` for a `br`; for a
//! `switch`, each edge to a distinct successor gets a block of its own where the bit is
//! a constant. Then, inline, `label & ~rec.label` and `bit & ~rec.taken` (two relaxed
//! loads); only if one is non-zero, a cold call `__tp_branch_update(&rec, label, bit)`
//! (unlikely branch weights) ORs both in. Executions are not counted.

use super::FnInstr;
use crate::debugloc::Namer;
use crate::descriptors::{Site, BRANCH_FIELD_LABEL, BRANCH_FIELD_TAKEN};
use crate::ir::{self, B, V};
use crate::prepare::Prepared;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::HashMap;
use taintprof_abi as abi;

/// Most successors a `BranchRec` tracks (`taken` is a 64-bit mask).
pub const MAX_SUCC: usize = 64;

/// The distinct successors of a conditional `br` or `switch` terminator, in successor
/// order (`br`: true, false; `switch`: default, cases), or `None` if `t` is not one.
pub fn branch_successors(t: V) -> Option<Vec<B>> {
    let conditional = match ir::opcode(t) {
        // SAFETY: `t` is a live `br` (this arm); LLVM casts it to `BranchInst`.
        Op::LLVMBr => (unsafe { LLVMIsConditional(t) }) != 0,
        Op::LLVMSwitch => true,
        _ => false,
    };
    if !conditional {
        return None;
    }
    let mut out: Vec<B> = Vec::new();
    for s in ir::successors(ir::block_of(t)) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    Some(out)
}

/// What a block's conditional terminator is, for branch sinks and control flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Not a conditional `br`/`switch` with two or more distinct successors.
    None,
    /// A branch sink.
    Sink,
    /// Exits a natural loop containing it.
    LoopExit,
    /// Between the member loops of a logical loop (silent).
    Machinery,
    /// Guards a logical loop: `all_enter` when every successor enters it (the
    /// optimizer's choice of loop version; silent), else enter-or-skip.
    Guard { all_enter: bool },
}

impl Class {
    /// Whether control-flow tainting ignores this decider's label.
    pub fn silent(self) -> bool {
        matches!(self, Class::Machinery | Class::Guard { all_enter: true })
    }
}

/// The class of every block's terminator.
pub fn classify(p: &Prepared) -> Vec<Class> {
    let an = &p.an;
    let n = an.blocks.len();
    let loops = &an.forest.loops;
    let rpo = an.cfg.reverse_post_order();
    let mut exiting = vec![false; n];
    for l in loops {
        for &b in &l.exiting {
            exiting[b] = true;
        }
    }
    let mut machinery = vec![false; n];
    let mut member_bodies: Vec<Vec<bool>> = Vec::new();
    for s in &p.sinks {
        let mut body = vec![false; n];
        for &m in &s.members {
            for &b in &loops[m].blocks {
                body[b] = true;
            }
        }
        for b in 0..n {
            if s.region[b] && !body[b] {
                machinery[b] = true;
            }
        }
        member_bodies.push(body);
    }
    let exit_points: Vec<Vec<usize>> = p
        .sinks
        .iter()
        .map(|s| s.exit_points.iter().map(|b| an.index[b]).collect())
        .collect();
    let loop_keys: Vec<Vec<(u32, u32, usize)>> = (0..loops.len())
        .filter_map(|l| crate::prepare::identity_key(an, l))
        .collect();
    let mut enters: HashMap<usize, Vec<bool>> = HashMap::new();
    let mut out = vec![Class::None; n];
    for &b in &rpo {
        let t = ir::terminator(an.blocks[b]);
        let Some(succs) = branch_successors(t) else {
            continue;
        };
        if succs.len() < 2 {
            continue;
        }
        if exiting[b] {
            out[b] = Class::LoopExit;
            continue;
        }
        if machinery[b] {
            out[b] = Class::Machinery;
            continue;
        }
        let succs: Vec<usize> = succs.iter().map(|s| an.index[s]).collect();
        let mut guard = None;
        for (gi, s) in p.sinks.iter().enumerate() {
            if s.region[b] {
                continue;
            }
            // Cheap pre-filter: a successor in the region or dominating a member header.
            let near = succs.iter().any(|&x| {
                s.region[x]
                    || s.members
                        .iter()
                        .any(|&m| an.dom.dominates(x, loops[m].header))
            });
            if !near {
                continue;
            }
            let e = enters
                .entry(gi)
                .or_insert_with(|| entering_set(p, &s.region, &rpo));
            let n_enter = succs.iter().filter(|&&x| e[x]).count();
            let all = succs
                .iter()
                .all(|&x| e[x] || exit_points[gi].iter().any(|&x2| an.pdom.dominates(x, x2)));
            if all && n_enter > 0 {
                guard = Some(n_enter == succs.len());
                // An all-entering guard of one loop is that for every loop it guards.
                if n_enter == succs.len() {
                    break;
                }
            }
        }
        out[b] = match guard {
            Some(all_enter) => Class::Guard { all_enter },
            None => {
                let key = crate::prepare::location_key(Namer::inst_loc(t));
                if key
                    .is_some_and(|k| k.first().is_some_and(|x| x.0 != 0) && loop_keys.contains(&k))
                {
                    Class::Guard { all_enter: false }
                } else {
                    Class::Sink
                }
            }
        };
    }
    out
}

/// Blocks every path from which reaches `region` (least fixed point, so cycles that
/// avoid the region are not included).
fn entering_set(p: &Prepared, region: &[bool], rpo: &[usize]) -> Vec<bool> {
    let cfg = &p.an.cfg;
    let mut e = region.to_vec();
    loop {
        let mut changed = false;
        for &b in rpo.iter().rev() {
            if e[b] || cfg.succs[b].is_empty() {
                continue;
            }
            if cfg.succs[b].iter().all(|&s| e[s]) {
                e[b] = true;
                changed = true;
            }
        }
        if !changed {
            return e;
        }
    }
}

/// The source position of a branch successor: its first instruction with a debug
/// location (line != 0), following blocks that only forward control (`br label`).
pub fn successor_site(p: &Prepared, namer: &mut Namer, start: B) -> Site {
    let mut cur = start;
    for _ in 0..16 {
        for i in ir::instructions(cur) {
            if ir::is_phi(i) {
                continue;
            }
            let loc = Namer::inst_loc(i);
            if !loc.is_null() && crate::debugloc::line_of(loc) != 0 {
                return Site {
                    chain: namer.chain(loc, p.f),
                    loop_: p.loop_around(p.an.index[&ir::block_of(i)]),
                };
            }
        }
        let t = ir::terminator(cur);
        // SAFETY: `t` is the live terminator of `cur`, a `br` (checked first).
        if ir::opcode(t) == Op::LLVMBr && unsafe { LLVMIsConditional(t) } == 0 {
            cur = ir::successors(cur)[0];
        } else {
            break;
        }
    }
    Site {
        chain: namer.chain(std::ptr::null_mut(), p.f),
        loop_: p.loop_around(p.an.index[&start]),
    }
}

impl FnInstr<'_> {
    /// Emit the check for branch record `rec` at the builder position: the `i1` that is
    /// true when `label` or `bit` is new to the record.
    fn branch_check(&self, rec: usize, label: V, bit: V) -> V {
        let ir = self.ir;
        let taken_p = self.descs.branch_field_ptr(ir, rec, BRANCH_FIELD_TAKEN);
        let taken = ir.load_atomic(ir.i64, taken_p, 8);
        let mut need = ir.and(bit, ir.not(taken));
        if !ir::is_zero_const(label) {
            let label_p = self.descs.branch_field_ptr(ir, rec, BRANCH_FIELD_LABEL);
            let seen = ir.load_atomic(ir.i16, label_p, 2);
            let new = ir.and(label, ir.not(seen));
            need = ir.or(need, ir.zext(new, ir.i64));
        }
        ir.icmp_ne(need, ir.c64(0))
    }

    /// Record the cold update for later: `if (need) __tp_branch_update(rec, label, bit)`
    /// before `before` (blocks are split once every block-based step is done).
    fn defer_branch_update(&mut self, need: V, before: V, rec: usize, label: V, bit: V) {
        let ir = self.ir;
        let recp = self.descs.branch_ptr(ir, rec);
        let h = self.rt.branch_update;
        self.deferred.push(super::Deferred {
            cond: need,
            before,
            hook: h,
            args: vec![recp, label, bit],
        });
    }

    /// Instrument every branch sink of the function.
    pub(crate) fn branch_sinks(&mut self) -> Result<(), String> {
        let ir = self.ir;
        let sinks = self.p.branch_sinks.clone();
        for (b, rec) in sinks {
            let bb = self.p.an.blocks[b];
            let t = ir::terminator(bb);
            let succs = branch_successors(t).expect("branch sinks are conditional terminators");
            let cond = ir::operand(t, 0);
            let label = self.label(cond)?;
            self.stats.branch_sinks += 1;
            if ir::opcode(t) == Op::LLVMBr {
                ir.before(t);
                let bit = ir.select(cond, ir.c64(1), ir.c64(2));
                let need = self.branch_check(rec, label, bit);
                self.defer_branch_update(need, t, rec, label, bit);
                continue;
            }
            // switch: one edge block per distinct successor, where the bit is constant.
            if succs.len() > MAX_SUCC {
                // Successors past the 64th are not tracked; their label still is.
                ir.before(t);
                let need = self.branch_check(rec, label, ir.c64(0));
                self.defer_branch_update(need, t, rec, label, ir.c64(0));
            }
            for (k, &s) in succs.iter().enumerate().take(MAX_SUCC) {
                // SAFETY: `t` is a live `switch` (`branch_successors` and the `br` case above) and
                // `s` one of its successors.
                let e = unsafe { crate::ffi::tp_split_switch_successor(t, s) };
                let et = ir::terminator(e);
                ir.before(et);
                let bit = ir.c64(1u64 << k);
                let need = self.branch_check(rec, label, bit);
                self.defer_branch_update(need, et, rec, label, bit);
            }
        }
        Ok(())
    }
}

/// `BRANCH_*` flags for a terminator with `n` distinct successors.
pub fn branch_flags(t: V, n: usize) -> u16 {
    let mut f = 0;
    if ir::opcode(t) == Op::LLVMSwitch {
        f |= abi::BRANCH_SWITCH;
    }
    if n > MAX_SUCC {
        f |= abi::BRANCH_TRUNCATED;
    }
    f
}
