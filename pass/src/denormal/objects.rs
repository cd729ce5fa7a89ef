//! Memory objects of one function: where its stack arrays, variable-length arrays,
//! `std::vector` element arrays and heap blocks are registered with the runtime and
//! released. Counts and heatmaps are per array element, so the runtime must know which
//! array an address belongs to while the array lives. Positions only: what is an
//! array, and its type and name, are decided when the function is planned (mod.rs,
//! arrays.rs).

use super::classify;
use super::func::DnFn;
use crate::ffi;
use crate::ir::{self, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;

impl DnFn<'_> {
    pub(super) fn memory_objects(&mut self) -> Result<(), String> {
        let ir = self.ir;
        let plan = self.plan;
        let rets: Vec<V> = ir::blocks(self.f)
            .into_iter()
            .map(ir::terminator)
            .filter(|t| !t.is_null() && ir::opcode(*t) == Op::LLVMRet)
            .collect();
        // Stack arrays: enter at the alloca (or each lifetime.start), leave at each
        // lifetime.end and before every return (a second leave is ignored).
        for sa in &plan.stack_arrays {
            let h = self.rt.array_enter;
            if sa.starts.is_empty() {
                ir.before(self.anchor);
                ir.call(h.ty, h.f, &[sa.alloca, sa.desc]);
            }
            for &s in &sa.starts {
                ir.after(s);
                ir.call(h.ty, h.f, &[sa.alloca, sa.desc]);
            }
            let l = self.rt.array_leave;
            for &e in &sa.ends {
                ir.before(e);
                ir.call(l.ty, l.f, &[sa.alloca]);
            }
            for &r in &rets {
                ir.before(r);
                ir.call(l.ty, l.f, &[sa.alloca]);
            }
            self.stats.stack_arrays += 1;
        }
        // std::vectors (local or members) name their elements' arrays after every call
        // given their address (construction, growth, assignment). After an invoke: at
        // the top of its normal destination when that has no other predecessor.
        for c in &plan.containers {
            let h = self.rt.name_container;
            for &call in &c.calls {
                if ir::opcode(call) == Op::LLVMInvoke {
                    // SAFETY: `call` is a live invoke (checked just above).
                    let dest = unsafe { LLVMGetNormalDest(call) };
                    // SAFETY: the block's uses are the terminators that branch to it.
                    let only_pred = unsafe {
                        let u = LLVMGetFirstUse(LLVMBasicBlockAsValue(dest));
                        !u.is_null() && LLVMGetNextUse(u).is_null()
                    };
                    if !only_pred {
                        continue;
                    }
                    ir.before(ir::first_non_phi(dest));
                } else {
                    ir.after(call);
                }
                ir.call(h.ty, h.f, &[c.obj, c.site]);
            }
        }
        // Variable-length stack arrays: registered like heap blocks (their size is only
        // known at run time), released at the stackrestore that frees them and before
        // every return. A return the array does not dominate releases what a slot
        // holds: null (ignored by the runtime) unless the array was allocated.
        for v in &plan.vlas {
            let slot = (!v.late_rets.is_empty()).then(|| {
                // A static alloca at the top of the entry block; null before the body.
                // SAFETY: `self.f` is a definition: its entry block has a first instruction.
                ir.before(unsafe { LLVMGetFirstInstruction(ir::entry_block(self.f)) });
                let slot = ir.alloca(ir.ptr);
                ir.before(self.anchor);
                ir.store(ir.null(ir.ptr), slot, 8);
                slot
            });
            ir.after(v.alloca);
            let bytes = ir.mul(
                ir.zext(ir::operand(v.alloca, 0), ir.i64),
                ir.c64(v.elem_size),
            );
            let h = self.rt.alloc;
            ir.call(h.ty, h.f, &[v.alloca, bytes, v.site]);
            if let Some(slot) = slot {
                ir.store(v.alloca, slot, 8);
            }
            let r = self.rt.release;
            for &x in v.restores.iter().chain(v.rets.iter()) {
                ir.before(x);
                ir.call(r.ty, r.f, &[v.alloca]);
            }
            if let Some(slot) = slot {
                for &x in &v.late_rets {
                    ir.before(x);
                    let p = ir.load(ir.ptr, slot, 8);
                    ir.call(r.ty, r.f, &[p]);
                }
            }
            self.stats.vlas += 1;
        }
        for fr in &plan.frees {
            ir.before(*fr);
            let r = self.rt.release;
            ir.call(r.ty, r.f, &[ir::operand(*fr, 0)]);
            self.stats.releases += 1;
        }
        for a in &plan.allocs {
            self.alloc_hook(a)?;
        }
        Ok(())
    }

    fn alloc_hook(&mut self, a: &super::AllocCall) -> Result<(), String> {
        use classify::AllocFn as A;
        let ir = self.ir;
        let c = a.call;
        let arg = |k: u32| ir.zext(ir::operand(c, k), ir.i64);
        if matches!(a.kind, A::Realloc | A::ReallocArray) {
            // The old block goes away (or moves): release it before.
            ir.before(c);
            let r = self.rt.release;
            ir.call(r.ty, r.f, &[ir::operand(c, 0)]);
            self.stats.releases += 1;
        }
        let Some(site) = a.site else {
            return Ok(());
        };
        // After the call (for an invoke, in its normal destination, which `prepare`
        // gave an edge of its own).
        let ip = if ir::opcode(c) == Op::LLVMInvoke {
            // SAFETY: `c` is a live invoke (checked first).
            ir::first_insertion_point(unsafe { LLVMGetNormalDest(c) })
        } else {
            ir::next_instruction(c)
        };
        ir.before(ip);
        let (block, ok) = match a.kind {
            A::PosixMemalign => {
                let ok = ir.icmp_eq(c, ir.cint(ir::type_of(c), 0));
                (None, ok)
            }
            _ => (Some(c), ir.icmp_ne(c, ir.null_ptr())),
        };
        let bytes = match a.kind {
            A::Size0 => arg(0),
            A::Size1 | A::Realloc => arg(1),
            A::Calloc => ir.mul(arg(0), arg(1)),
            A::ReallocArray => ir.mul(arg(1), arg(2)),
            A::PosixMemalign => arg(2),
        };
        // SAFETY: `ip` is a live instruction of the function and `ok` an `i1` computed before it.
        let bb = unsafe { ffi::tp_split_if_then_weighted(ok, ip, 1) };
        ir.at_end(bb);
        let block = match block {
            Some(b) => b,
            None => ir.load(ir.ptr, ir::operand(c, 0), 8),
        };
        let h = self.rt.alloc;
        ir.call(h.ty, h.f, &[block, bytes, site]);
        self.stats.typed_allocations += 1;
        Ok(())
    }
}
