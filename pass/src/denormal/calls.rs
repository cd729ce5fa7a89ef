//! The call ABI of tags: arguments, parameters, return values.
//!
//! The caller stores the tags of the FP arguments in `__tpd_arg_tags_tls[i]` (vector:
//! first non-zero lane tag) and itself in `__tp_callee_tls` — unless every argument tag
//! is the constant 0, when it stores null there instead (one store; the callee then
//! reads zeros, never a stale slot). An instrumented function returning FP always
//! stores its return tag; the caller clears the slot first when the callee might not
//! be instrumented, and reads it after the call.

use super::func::DnFn;
use crate::abilist::Kind;
use crate::callkind::MEMORY_ATTRS;
use crate::callkind::{call_kind, CallKind};
use crate::ffi;
use crate::ir::{self, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use taintprof_abi as abi;

impl DnFn<'_> {
    /// After the group ending at `i` closed: a return stores its tag, a call passes its
    /// arguments' tags.
    pub(super) fn after_close(&mut self, i: V) -> Result<(), String> {
        if self.profile {
            // No tags to pass, no shadow for a wrapper or a copy to move.
            return Ok(());
        }
        match ir::opcode(i) {
            Op::LLVMRet => self.visit_ret(i),
            Op::LLVMCall | Op::LLVMInvoke => self.visit_call(i),
            _ => Ok(()),
        }
    }

    fn visit_ret(&mut self, i: V) -> Result<(), String> {
        if ir::num_operands(i) == 0 || !Self::has_tag(ir::type_of(ir::operand(i, 0))) {
            return Ok(());
        }
        // SAFETY: `i` is the live `ret` being visited; null when it starts its block.
        let prev = unsafe { LLVMGetPreviousInstruction(i) };
        if !prev.is_null()
            && ir::opcode(prev) == Op::LLVMCall
            // SAFETY: `prev` is a live, non-null instruction; the shim checks that it is a call.
            && unsafe { ffi::tp_call_is_musttail(prev) } != 0
        {
            // The tail-called function stores its own return tag.
            return Ok(());
        }
        self.at(i);
        let t = self.tag(ir::operand(i, 0), None);
        let t = self.collapse_here(t);
        // The `u32` tag in the slot's low half (all readers read 4 bytes).
        self.ir.store(t, self.rt.ret_tag_tls, 8);
        Ok(())
    }

    fn visit_call(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        if self.plan.sites.contains_key(&i) {
            return Ok(());
        }
        match call_kind(i, self.list) {
            CallKind::InlineAsm => {
                if Self::has_tag(ir::type_of(i)) {
                    self.stats.inline_asm_fp += 1;
                }
                return Ok(());
            }
            CallKind::Intrinsic(_, name) => {
                if name.starts_with("llvm.memcpy") || name.starts_with("llvm.memmove") {
                    self.at(i);
                    self.copy_shadow(ir::operand(i, 0), ir::operand(i, 1), ir::operand(i, 2));
                    self.stats.shadow_copies += 1;
                }
                return Ok(());
            }
            CallKind::Listed(Kind::Pure | Kind::Zero, _) => return Ok(()),
            CallKind::Listed(Kind::Wrap(_), ref name) => {
                // The runtime's wrappers move shadow memory, i.e. tags (memcpy, realloc,
                // fread, ...), exactly as labels in taint mode.
                // SAFETY: `i` is a live call or invoke (`visit_call`); LLVM casts it to `CallBase`.
                let fnty = unsafe { LLVMGetCalledFunctionType(i) };
                let w = ir.function(&format!("{}{name}", abi::WRAPPER_PREFIX), fnty);
                // SAFETY: the called operand of a `CallBase` is its last operand; `w` is a live
                // function of the call's own function type, so the call stays well-typed.
                unsafe { LLVMSetOperand(i, ir::num_operands(i) - 1, w) };
                self.stats.wrapped_calls += 1;
            }
            CallKind::Normal => {}
        }
        // SAFETY: `i` is a live call or invoke; LLVM casts it to `CallBase`.
        let fnty = unsafe { LLVMGetCalledFunctionType(i) };
        // SAFETY: `fnty` is the call's function type.
        let n_fixed = unsafe { LLVMCountParamTypes(fnty) };
        let args: Vec<(u32, V)> = (0..ir::num_call_args(i).min(n_fixed))
            .map(|k| (k, ir::operand(i, k)))
            .filter(|&(_, a)| Self::has_tag(ir::type_of(a)))
            .collect();
        if args.is_empty() {
            return Ok(());
        }
        self.at(i);
        let mut tags = Vec::new();
        for &(k, a) in &args {
            let t = self.tag(a, None);
            self.at(i);
            let c = self.collapse_here(t);
            tags.push((k, c));
        }
        for a in MEMORY_ATTRS {
            ir.remove_call_fn_attr(i, a);
            let callee = ir::called_function(i);
            if !callee.is_null() {
                ir.remove_fn_attr(callee, a);
            }
        }
        if tags.iter().all(|&(_, t)| ir::is_zero_const(t)) {
            // Nothing to pass: make sure the callee does not take stale slots for ours.
            ir.store(ir.null_ptr(), self.rt.callee_tls, 8);
            self.stats.calls_without_tags += 1;
            return Ok(());
        }
        for (k, t) in tags {
            if (k as usize) < abi::DN_MAX_ARG_SLOTS {
                let g = ir.const_elem_ptr(self.rt.arg_tags_ty, self.rt.arg_tags_tls, k as u64);
                ir.store(t, g, 8);
            }
        }
        ir.store(ir::called_value(i), self.rt.callee_tls, 8);
        self.stats.calls_with_tags += 1;
        Ok(())
    }

    /// The tag of parameter `a` (one `i32`): its slot, if this call came from
    /// instrumented code that stored us as the callee.
    pub(super) fn param_tag(&mut self, a: V) -> V {
        if let Some(&t) = self.ext.get(&a) {
            return t;
        }
        let ir = self.ir;
        let k = ir::params(self.f)
            .iter()
            .position(|x| *x == a)
            .expect("parameter of this function");
        if k >= abi::DN_MAX_ARG_SLOTS {
            let z = ir.c32(0);
            self.ext.insert(a, z);
            return z;
        }
        ir.before(self.anchor);
        let ok = match self.canary {
            Some(c) => c,
            None => {
                let c = ir.load(ir.ptr, self.rt.callee_tls, 8);
                let ok = ir.icmp_eq(c, self.f);
                self.canary = Some(ok);
                ok
            }
        };
        let slot = ir.const_elem_ptr(self.rt.arg_tags_ty, self.rt.arg_tags_tls, k as u64);
        let t = ir.select(ok, ir.load(ir.i32, slot, 8), ir.c32(0));
        self.restore();
        self.ext.insert(a, t);
        self.stats.param_tags += 1;
        t
    }

    /// The tag of the result of a call through the tag ABI (one `i32`, read right after
    /// the call).
    pub(super) fn ret_tag(&mut self, call: V) -> V {
        if let Some(&t) = self.ext.get(&call) {
            return t;
        }
        let ir = self.ir;
        // SAFETY: `call` is a live call (checked first); the shim checks it is a `CallInst`.
        if ir::opcode(call) == Op::LLVMCall && unsafe { ffi::tp_call_is_musttail(call) } != 0 {
            return ir.c32(0);
        }
        let callee = ir::called_function(call);
        if callee.is_null() || !self.instrumented.contains(&callee) {
            // An uninstrumented callee leaves the slot as it was: clear it.
            ir.before(call);
            ir.store(ir.c32(0), self.rt.ret_tag_tls, 8);
        }
        if ir::opcode(call) == Op::LLVMInvoke {
            // SAFETY: `call` is a live invoke (checked just above).
            ir.at_start(unsafe { LLVMGetNormalDest(call) });
        } else {
            ir.after(call);
        }
        let t = ir.load(ir.i32, self.rt.ret_tag_tls, 8);
        for a in MEMORY_ATTRS {
            ir.remove_call_fn_attr(call, a);
        }
        self.restore();
        self.ext.insert(call, t);
        self.stats.ret_tags += 1;
        t
    }
}
