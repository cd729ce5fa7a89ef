//! Loop sinks (docs/design.md, decision 3: accumulate in registers, report once per
//! loop execution).
//!
//! Each logical loop (see `prepare::Sink`: a natural loop, or the loops the optimizer
//! made from one source loop, such as a vector loop and its remainder) gets an `i16`
//! accumulator, an alloca promoted to SSA registers once instrumentation is done:
//! * it is reset to 0 at the end of every block outside the loop's region with an edge
//!   into it (a new execution of the loop starts there);
//! * every exiting block ORs in the label of its terminator's condition (`br`
//!   condition, `switch` value, `indirectbr` address): these decide how often the loop
//!   iterates;
//! * where an execution ends (a dedicated block on each edge leaving the region, see
//!   `prepare`), `__tp_loop_exit(node, &loopdesc, acc)` reports it once.
//!
//! Library loops (`crate::library`: a `memset` with a variable length, a `qsort`) are
//! one execution per call: right before the call, `__tp_loop_exit(node, &loopdesc,
//! label)` with the union of the labels of the size argument(s), the label the source
//! loop's exit test would have had; for a routine with a communicator (`comm=`), ORed
//! with the label of the process count `p` (`__tp_mpi_size_label`, loaded there). They are not pushed on the loops in flight: the
//! call ends before any report could be written inside it, except from a callback
//! (a `qsort` comparator), and then the loop was reported already.
//!
//! Exits into EH pads (the loop is left by an exception) cannot be given a block of
//! their own and are not reported; a loop with no reportable exit is flagged
//! `LOOP_NO_SINK` by the module driver.

use super::FnInstr;
use crate::ir::terminator_condition;
use crate::ir::{self, B};
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::HashMap;
use taintprof_abi as abi;

impl FnInstr<'_> {
    pub(crate) fn loop_sinks(&mut self) -> Result<(), String> {
        let ir = self.ir;
        let p = self.p;
        if p.sinks.is_empty() {
            return Ok(());
        }
        let node = self.node.expect("functions with loops are context-tracked");
        // Exit blocks shared by several loops (an edge leaving nested loops at once):
        // report innermost first.
        let mut at_block: HashMap<B, Vec<usize>> = HashMap::new();
        let mut order: Vec<B> = Vec::new();
        for (si, s) in p.sinks.iter().enumerate() {
            let acc = self.accs[si];
            let in_flight = self.in_flight[si];
            // A loop made from recursion reports as the recursion loop.
            let ld = self.descs.loop_ptr(ir, p.loop_base + p.rep(s.members[0]));
            for &e in &s.entering {
                ir.at_end(p.an.blocks[e]);
                ir.store(ir.c16(0), acc, 2);
                if let Some((entry_slot, depth_slot)) = in_flight {
                    // Push {node, loop, 0} on this thread's loops in flight.
                    let rt = self.rt;
                    let d = ir.load(ir.i64, rt.loop_depth_tls, 8);
                    let i = ir.and(d, ir.c64(abi::LOOPS_IN_FLIGHT as u64 - 1));
                    let entry = ir.gep(rt.loops_tls_ty, rt.loops_tls, &[ir.c64(0), i]);
                    let field = |k: u32| ir.gep(rt.loop_entry_ty, entry, &[ir.c32(0), ir.c32(k)]);
                    ir.store(node, field(0), 8);
                    ir.store(ld, field(1), 8);
                    ir.store(ir.c64(0), field(2), 8);
                    let entered = self.entered_region(e, si);
                    ir.store(ir.add(d, entered), rt.loop_depth_tls, 8);
                    ir.store(entry, entry_slot, 8);
                    ir.store(d, depth_slot, 8);
                }
            }
            for &x in &s.exiting {
                let t = ir::terminator(p.an.blocks[x]);
                let Some(c) = terminator_condition(t) else {
                    continue;
                };
                let l = self.label(c)?;
                if ir::is_zero_const(l) {
                    continue;
                }
                ir.before(t);
                let a = ir.load(ir.i16, acc, 2);
                let seen = ir.or(a, l);
                ir.store(seen, acc, 2);
                if let Some((entry_slot, _)) = in_flight {
                    // The labels seen so far, for a report written before the loop ends.
                    let entry = ir.load(ir.ptr, entry_slot, 8);
                    let field = ir.gep(self.rt.loop_entry_ty, entry, &[ir.c32(0), ir.c32(2)]);
                    ir.store(ir.zext(seen, ir.i64), field, 8);
                }
            }
            for &b in &s.exit_points {
                let v = at_block.entry(b).or_default();
                if v.is_empty() {
                    order.push(b);
                }
                v.push(si);
            }
        }
        for b in order {
            let mut ss = at_block.remove(&b).unwrap();
            ss.sort_by_key(|&s| std::cmp::Reverse(p.sinks[s].depth));
            ir.at_start(b);
            for si in ss {
                let acc = self.accs[si];
                if let Some((_, depth_slot)) = self.in_flight[si] {
                    // Pop: back to the depth at entry.
                    let d = ir.load(ir.i64, depth_slot, 8);
                    ir.store(d, self.rt.loop_depth_tls, 8);
                }
                let a = ir.load(ir.i16, acc, 2);
                let ld = self
                    .descs
                    .loop_ptr(ir, p.loop_base + p.rep(p.sinks[si].members[0]));
                ir.call(self.rt.loop_exit.ty, self.rt.loop_exit.f, &[node, ld, a]);
            }
        }
        Ok(())
    }

    pub(crate) fn library_sinks(&mut self) -> Result<(), String> {
        let (ir, p) = (self.ir, self.p);
        let Some(node) = self.node else {
            return Ok(());
        };
        for c in &p.library {
            let mut labels = Vec::new();
            for &a in &c.routine.size_args {
                labels.push(self.label(ir::operand(c.call, a))?);
            }
            ir.before(c.call);
            let mut l = self.union(&labels, ir.i16);
            if c.routine.comm.is_some() {
                // Its cost depends on the process count too: `p`'s label as of now (a
                // plain load: written once, when the MPI library registers `p`).
                let p_label = ir.load(ir.i16, self.rt.mpi_size_label, 2);
                l = ir.or(l, p_label);
            }
            let ld = self.descs.loop_ptr(ir, c.loop_index);
            ir.call(self.rt.loop_exit.ty, self.rt.loop_exit.f, &[node, ld, l]);
        }
        Ok(())
    }

    /// At the end of entering block `e` of sink `si`: 1 (`i64`) if control goes on into
    /// the loop's region, else 0. A conditional `br` may go elsewhere (a loop guard): the
    /// entry is written either way, but the depth counts it only when the loop is
    /// entered. (Splitting the edge instead would move the guard's decision away from the
    /// header's phis, which the control-flow rule reads.)
    fn entered_region(&self, e: usize, si: usize) -> ir::V {
        let (ir, p) = (self.ir, self.p);
        let b = p.an.blocks[e];
        let t = ir::terminator(b);
        let succs = ir::successors(b);
        if ir::opcode(t) == Op::LLVMBr && succs.len() == 2 {
            let inside = |k: usize| {
                p.an.index
                    .get(&succs[k])
                    .is_some_and(|&i| p.sinks[si].region[i])
            };
            let cond = ir::operand(t, 0);
            match (inside(0), inside(1)) {
                (true, false) => return ir.zext(cond, ir.i64),
                (false, true) => return ir.zext(ir.not(cond), ir.i64),
                _ => {}
            }
        }
        ir.c64(1)
    }
}

impl FnInstr<'_> {
    /// The recursion loop's report (`prepare::Recursion`), emitted before a `ret` at the
    /// builder position: one execution per activation, labelled with `OR cl(P)` over the
    /// deciders `P ∈ CD*(B)` of every block `B` with a recursive call: whatever chose,
    /// in this activation, whether to recurse (not `entry`: the caller's decisions did
    /// not choose the depth). Needs control-flow tainting (the `cl` slots); without it
    /// the recursion loop never reports and multiplies by nothing.
    pub(crate) fn recursion_exit(&self) {
        let p = self.p;
        let (Some(rec), Some(ri), Some(node)) = (&p.recursion, p.recursion_index(), self.node)
        else {
            return;
        };
        if p.pruned.is_some() {
            return;
        }
        let Some(l) = self.recursion_label(&rec.call_blocks) else {
            return;
        };
        let ir = self.ir;
        let ld = self.descs.loop_ptr(ir, p.loop_base + ri);
        ir.call(self.rt.loop_exit.ty, self.rt.loop_exit.f, &[node, ld, l]);
    }
}
