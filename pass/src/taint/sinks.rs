//! Loop sinks (DESIGN decision 3: accumulate in registers, report once per loop
//! execution).
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
//! Exits into EH pads (the loop is left by an exception) cannot be given a block of
//! their own and are not reported; a loop with no reportable exit is flagged
//! `LOOP_NO_SINK` by the module driver.

use super::control::terminator_condition;
use super::FnInstr;
use crate::ir::{self, B};
use std::collections::HashMap;

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
            for &e in &s.entering {
                ir.at_end(p.an.blocks[e]);
                ir.store(ir.c16(0), acc, 2);
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
                ir.store(ir.or(a, l), acc, 2);
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
                let a = ir.load(ir.i16, acc, 2);
                let ld = self
                    .descs
                    .loop_ptr(ir, p.loop_base + p.sinks[si].members[0]);
                ir.call(self.rt.loop_exit.ty, self.rt.loop_exit.f, &[node, ld, a]);
            }
        }
        Ok(())
    }
}
