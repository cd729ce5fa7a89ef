//! Calls: the thread-local label ABI, the function list, intrinsics, varargs.
//!
//! Caller side of an ordinary call (docs/design.md, decision 4):
//! * each argument's collapsed label goes into `__tp_arg_tls[i]` (arguments past the
//!   last slot are ORed into it);
//! * with control-flow tainting, each argument's `Z` (the labels a loop's back edge gave
//!   it, `identity.rs`) goes into `__tp_argz_tls[i]`, and `__tp_retz_tls` is pre-set to 0;
//! * `__tp_ret_tls` is pre-set to the union of the argument labels, the conservative
//!   answer if the callee is not instrumented (an instrumented callee overwrites it);
//! * `byval` arguments leave their source pointer in `__tp_byval_tls[i]`;
//! * variadic calls leave the union of the variadic labels in `__tp_va_label_tls` and
//!   the number of variadic bytes passed on the stack in `__tp_va_bytes_tls`;
//! * in context-tracked functions, the call's `SiteDesc` goes into `__tp_site_tls`;
//! * with control-flow tainting, `ctrl(B)` of the call's block goes into
//!   `__tp_ctrl_tls` (Rule 3: the callee's, or the wrapper's, writes carry it);
//! * the called operand goes into `__tp_callee_tls`, so that the callee can tell this
//!   call from one made by uninstrumented code (see the prologue in `taint/mod.rs`);
//! * afterwards the result's label is loaded from `__tp_ret_tls` (for `invoke`, in the
//!   normal destination, which `prepare` made a block of its own when needed).

use super::FnInstr;
use crate::abilist::{Kind, RetRule};
use crate::callkind::{call_kind, CallKind};
use crate::debugloc::Namer;
use crate::descriptors::Site;
use crate::ffi;
use crate::intrinsics::IntrKind;
use crate::ir::{self, T, V};
use crate::sysv::{variadic_stack_bytes, AbiArg};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::{LLVMOpcode as Op, LLVMTypeKind as K};
use taintprof_abi as abi;

impl FnInstr<'_> {
    /// Position the builder right after call `i` (in the normal destination for an
    /// invoke). Returns false when nothing may follow (`musttail`).
    fn after_call(&self, i: V) -> bool {
        if ir::opcode(i) == Op::LLVMInvoke {
            // SAFETY: `i` is a live invoke (checked just above).
            self.ir.at_start(unsafe { LLVMGetNormalDest(i) });
            return true;
        }
        // SAFETY: `i` is a live instruction; the shim checks that it is a `CallInst`.
        if unsafe { ffi::tp_call_is_musttail(i) } != 0 {
            return false;
        }
        self.ir.after(i);
        true
    }

    fn arg_labels(&self, i: V) -> Result<Vec<V>, String> {
        (0..ir::num_call_args(i))
            .map(|k| self.label(ir::operand(i, k)))
            .collect()
    }

    fn has_result(i: V) -> bool {
        ir::kind(ir::type_of(i)) != K::LLVMVoidTypeKind
    }

    pub(crate) fn visit_call(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        let kind = call_kind(i, self.list);
        let rty = ir::type_of(i);
        let target = self.sty(rty);
        match kind {
            CallKind::InlineAsm => {
                self.stats.inline_asm += 1;
                if Self::has_result(i) && self.after_call(i) {
                    let labels = self.arg_labels(i)?;
                    let s = self.union(&labels, target);
                    self.set_shadow(i, s);
                }
                return Ok(());
            }
            CallKind::Intrinsic(k, name) => return self.visit_intrinsic(i, k, &name),
            CallKind::Listed(Kind::Pure, _) => {
                self.stats.listed_calls += 1;
                if Self::has_result(i) && self.after_call(i) {
                    let labels = self.arg_labels(i)?;
                    let s = self.union(&labels, target);
                    self.set_shadow(i, s);
                    self.pure_call_r(i, &labels)?;
                }
                return Ok(());
            }
            CallKind::Listed(Kind::Zero, _) => {
                self.stats.listed_calls += 1;
                self.set_shadow(i, ir.null(target));
                return Ok(());
            }
            CallKind::Listed(Kind::Wrap(_), ref name) => {
                // Redirect to the runtime's wrapper, same function type.
                // SAFETY: `i` is a live call or invoke (`visit_call`); LLVM casts it to `CallBase`.
                let fnty = unsafe { LLVMGetCalledFunctionType(i) };
                let w = ir.function(&format!("{}{name}", abi::WRAPPER_PREFIX), fnty);
                // SAFETY: the called operand of a `CallBase` is its last operand; `w` is a live
                // function of the call's own function type, so the call stays well-typed.
                unsafe { LLVMSetOperand(i, ir::num_operands(i) - 1, w) };
                self.stats.listed_calls += 1;
            }
            CallKind::Normal => {}
        }
        self.stats.calls += 1;
        // The callee reads the argument slots and writes the return slot: a call-site
        // or callee `memory(...)` claim would let code generation move our TLS accesses
        // across the call.
        for a in crate::callkind::MEMORY_ATTRS {
            ir.remove_call_fn_attr(i, a);
            let callee = ir::called_function(i);
            if !callee.is_null() {
                ir.remove_fn_attr(callee, a);
            }
        }
        let labels = self.arg_labels(i)?;
        let rule = match kind {
            CallKind::Listed(Kind::Wrap(r), _) => r,
            _ => RetRule::Tls,
        };
        // Whether the result's `R` comes from the callee's `__tp_retz_tls` (`zflow.rs`).
        let reads_z = self.cf.is_some()
            && Self::has_result(i)
            && super::identity::has_r(rty)
            && super::zflow::reads_result_z(ir, self.zflow, i, &kind, rule);
        ir.before(i);
        let written = self.store_call_abi(i, &labels, reads_z)?;
        self.clear_argz_after(i, &written);
        // SAFETY: `i` is a live call or invoke; the shim casts it to `CallBase`.
        let returns_twice = unsafe { ffi::tp_call_returns_twice(i) } != 0;
        if (Self::has_result(i) || returns_twice) && self.after_call(i) {
            if Self::has_result(i) {
                let s = match rule {
                    RetRule::Tls => {
                        let l = ir.load(ir.i16, self.rt.ret_tls, 2);
                        self.adapt(l, target)
                    }
                    RetRule::Zero => ir.null(target),
                    RetRule::Union => self.union(&labels, target),
                    RetRule::Arg(n) => match labels.get(n as usize) {
                        Some(l) => self.adapt(*l, target),
                        None => self.union(&labels, target),
                    },
                };
                self.set_shadow(i, s);
                if reads_z {
                    self.call_result_r(i);
                }
            }
            if returns_twice {
                // setjmp returns a second time after a longjmp from deeper frames
                // that did not restore the context.
                if let Some(node) = self.node {
                    ir.store(node, self.rt.ctx_tls, 8);
                }
            }
        } else if Self::has_result(i) {
            self.set_shadow(i, ir.null(target));
        }
        Ok(())
    }

    /// Caller-side TLS stores for call `i` (builder positioned before the call);
    /// `reads_z`: the caller will read the result's `Z`. Returns the `__tp_argz_tls`
    /// slots written that the caller must clear after the call (the callee may not be
    /// instrumented).
    fn store_call_abi(&mut self, i: V, labels: &[V], reads_z: bool) -> Result<Vec<V>, String> {
        let ir = self.ir;
        let rt = self.rt;
        let last = abi::MAX_ARG_SLOTS - 1;
        for (k, l) in labels.iter().enumerate().take(last) {
            let g = ir.const_elem_ptr(rt.arg_tls_ty, rt.arg_tls, k as u64);
            ir.store(*l, g, 2);
        }
        if labels.len() > last {
            let overflow = self.union(&labels[last..], ir.i16);
            let g = ir.const_elem_ptr(rt.arg_tls_ty, rt.arg_tls, last as u64);
            ir.store(overflow, g, 2);
        }
        let all = self.union(labels, ir.i16);
        ir.store(all, rt.ret_tls, 2);
        // SAFETY: `i` is a live call or invoke; LLVM casts it to `CallBase`.
        let fnty = unsafe { LLVMGetCalledFunctionType(i) };
        // SAFETY: `fnty` is the call's function type.
        let n_fixed = unsafe { LLVMCountParamTypes(fnty) } as usize;
        // The labels a back edge gave each argument (`identity.rs`): only the ones that
        // may be non-zero are written, since every slot is 0 outside a call's window
        // (`__tp_argz_tls` in `abi`): the callee clears the slots of its parameters,
        // and after a callee that may not be instrumented the caller does. A known
        // callee gets only the parameters `zflow.rs` says may carry a `Z` (it reads
        // only those), a runtime wrapper none (it never reads them). The result's `Z`
        // is pre-set to 0 where it is read after a callee that may not be
        // instrumented; an instrumented one writes it.
        let mut written = Vec::new();
        if self.cf.is_some() && !super::zflow::calls_runtime_wrapper(i) {
            let at = ir::block_of(i);
            let known = super::zflow::instrumented_callee(ir, i);
            for k in 0..labels.len().min(last).min(n_fixed) {
                let a = ir::operand(i, k as u32);
                if !super::identity::has_r(ir::type_of(a))
                    || known.is_some_and(|g| !self.zflow.param_may_carry(g, k))
                {
                    continue;
                }
                let z = self.zlabel_at(a, at)?;
                if ir::is_zero_const(z) {
                    continue;
                }
                let g = ir.const_elem_ptr(rt.argz_tls_ty, rt.argz_tls, k as u64);
                ir.store(z, g, 2);
                written.push(g);
            }
            if known.is_none() && reads_z {
                ir.store(ir.c16(0), rt.retz_tls, 2);
            }
            if known.is_some() {
                written.clear();
            }
        }
        // byval sources, and the ABI view of every argument for varargs.
        // SAFETY: `fnty` is the call's function type.
        let vararg = unsafe { LLVMIsFunctionVarArg(fnty) } != 0;
        let mut abi_args = Vec::new();
        for k in 0..labels.len() {
            let a = ir::operand(i, k as u32);
            // SAFETY: `i` is a live call and `k` < its argument count (`labels` has one entry
            // per argument, `arg_labels`).
            let bt = unsafe { ffi::tp_call_byval_type(i, k as u32) };
            if !bt.is_null() && k < abi::MAX_ARG_SLOTS {
                let g = ir.const_elem_ptr(rt.byval_tls_ty, rt.byval_tls, k as u64);
                ir.store(a, g, 8);
            }
            if vararg {
                abi_args.push(self.abi_arg(ir::type_of(a), bt));
            }
        }
        if vararg {
            let split = n_fixed.min(abi_args.len());
            let va = self.union(&labels[split..], ir.i16);
            ir.store(va, rt.va_label_tls, 2);
            let bytes = variadic_stack_bytes(&abi_args[..split], &abi_args[split..]);
            ir.store(ir.c64(bytes), rt.va_bytes_tls, 8);
        }
        if self.node.is_some() {
            let chain = self.descs.namer.chain(Namer::inst_loc(i), self.f);
            let b = self.p.an.index.get(&ir::block_of(i)).copied();
            // A call that continues the recursion is not *in* the recursion loop: its
            // iterations are those calls (with mutual recursion, is_odd nested in
            // is_even's recursion loop would read m^2).
            let loop_ = if self
                .p
                .recursion
                .as_ref()
                .is_some_and(|r| r.calls.contains(&i))
            {
                b.and_then(|b| self.p.natural_loop_around(b))
            } else {
                b.and_then(|b| self.p.loop_around(b))
            };
            let site = self.descs.site(ir, Site { chain, loop_ });
            ir.store(site, rt.site_tls, 8);
        }
        if let Some(c) = self.block_control_label(ir::block_of(i)) {
            self.stats.control_calls += 1;
            ir.store(c, rt.ctrl_tls, 2);
        }
        ir.store(ir::called_value(i), rt.callee_tls, 8);
        Ok(written)
    }

    /// After call `i` to a callee that may not be instrumented: zero the `Z` slots the
    /// call wrote (in both destinations of an invoke: an exception leaves them too).
    fn clear_argz_after(&self, i: V, written: &[V]) {
        if written.is_empty() {
            return;
        }
        let ir = self.ir;
        let mut at = Vec::new();
        if ir::opcode(i) == Op::LLVMInvoke {
            // SAFETY: `i` is a live invoke (checked just above).
            unsafe { at.extend([LLVMGetNormalDest(i), LLVMGetUnwindDest(i)]) };
        } else if !self.after_call(i) {
            return;
        }
        let store = |g: &V| {
            ir.store(ir.c16(0), *g, 2);
        };
        if at.is_empty() {
            written.iter().for_each(store);
        }
        for b in at {
            ir.at_start(b);
            written.iter().for_each(store);
        }
    }

    fn abi_arg(&self, t: T, byval: T) -> AbiArg {
        let ir = self.ir;
        if !byval.is_null() {
            return AbiArg::Memory {
                size: ir.alloc_size(byval),
                align: ir.abi_align(byval),
            };
        }
        match ir::kind(t) {
            // SAFETY: `t` is an integer type (this match arm).
            K::LLVMIntegerTypeKind => AbiArg::Int(unsafe { LLVMGetIntTypeWidth(t) }),
            K::LLVMPointerTypeKind => AbiArg::Int(64),
            K::LLVMHalfTypeKind | K::LLVMBFloatTypeKind => AbiArg::Float(16),
            K::LLVMFloatTypeKind => AbiArg::Float(32),
            K::LLVMDoubleTypeKind => AbiArg::Float(64),
            K::LLVMFP128TypeKind => AbiArg::Float(128),
            K::LLVMX86_FP80TypeKind => AbiArg::X87,
            K::LLVMVectorTypeKind => AbiArg::Vector(ir.store_size(t)),
            _ => AbiArg::Memory {
                size: ir.alloc_size(t),
                align: ir.abi_align(t),
            },
        }
    }

    fn visit_intrinsic(&mut self, i: V, k: IntrKind, name: &str) -> Result<(), String> {
        let ir = self.ir;
        let rty = ir::type_of(i);
        let target = self.sty(rty);
        let op = |n: u32| ir::operand(i, n);
        match k {
            IntrKind::NoEffect => {
                if Self::has_result(i) {
                    self.set_shadow(i, ir.null(target));
                }
            }
            IntrKind::Union | IntrKind::Reduce => {
                if Self::has_result(i) {
                    ir.after(i);
                    let mut shadows = Vec::new();
                    for n in 0..ir::num_call_args(i) {
                        let s = self.shadow(op(n))?;
                        shadows.push(if k == IntrKind::Reduce { self.collapse(s) } else { s });
                    }
                    let s = self.union(&shadows, target);
                    self.set_shadow(i, s);
                }
            }
            IntrKind::Copy => {
                ir.before(i);
                let len = op(2);
                let n = ir::const_int_value(len);
                // Rule 2: a copy overwrites, so the bytes get the copied labels only.
                self.copy_shadow(op(0), op(1), len, n);
            }
            IntrKind::Set => {
                ir.before(i);
                let l = self.label(op(1))?;
                let len = op(2);
                let n = ir::const_int_value(len);
                // Rule 2: a fill overwrites, so the bytes get the value's label only.
                match n {
                    Some(k @ (1 | 2 | 4 | 8 | 16 | 32 | 64)) => self.store_label_bytes(op(0), k, l),
                    _ => self.set_shadow_bytes(op(0), l, len, n),
                }
            }
            IntrKind::MaskedLoad => self.visit_masked_load(i)?,
            IntrKind::MaskedStore => self.visit_masked_store(i)?,
            IntrKind::MaskedGather => self.visit_gather(i)?,
            IntrKind::MaskedScatter => self.visit_scatter(i)?,
            IntrKind::VaStart => {
                // Label the register save area (176 bytes at reg_save_area, offset 16 of
                // the SysV va_list) and the variadic stack bytes at overflow_arg_area
                // (offset 8) with the variadic label captured at entry.
                if let (Some(l), Some(n)) = (self.va_label, self.va_bytes) {
                    ir.after(i);
                    let ap = op(0);
                    let rsa = ir.load(ir.ptr, ir.gep_i8(ap, ir.c64(16)), 8);
                    ir.call(self.rt.shadow_set.ty, self.rt.shadow_set.f, &[rsa, l, ir.c64(176)]);
                    let ovf = ir.load(ir.ptr, ir.gep_i8(ap, ir.c64(8)), 8);
                    ir.call(self.rt.shadow_set.ty, self.rt.shadow_set.f, &[ovf, l, n]);
                }
            }
            IntrKind::VaCopy => {
                // The va_list itself (24 bytes on SysV x86-64); the areas it points to
                // keep their labels.
                ir.before(i);
                self.copy_shadow(op(0), op(1), ir.c64(24), Some(24));
            }
            IntrKind::VaEnd => {}
            IntrKind::Unsupported => {
                return Err(crate::prepare::inst_error(
                    self.f,
                    i,
                    &format!("intrinsic `{name}` accesses memory and taintprof does not know how it moves labels"),
                    "Please report this",
                ))
            }
        }
        Ok(())
    }

    /// Expand a lane mask `<n x i1>` to `<n*es x i1>`.
    fn expand_mask(&self, mask: V, n: u32, es: u64) -> V {
        if es == 1 {
            return mask;
        }
        let m: Vec<Option<u32>> = (0..n * es as u32).map(|k| Some(k / es as u32)).collect();
        self.ir
            .shuffle(mask, self.ir.poison(ir::type_of(mask)), self.ir.mask(&m))
    }

    /// `llvm.masked.load(ptr, align, mask, passthru)`: the same masked load on shadow.
    fn visit_masked_load(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        ir.after(i);
        let (p, mask, pass) = (ir::operand(i, 0), ir::operand(i, 2), ir::operand(i, 3));
        let t = ir::type_of(i);
        let target = self.sty(t);
        let loaded = match self.lane_layout(t) {
            Some((n, es)) => {
                let raw_ty = ir.vec(ir.i16, n * es as u32);
                let (f, ft) = ir.intrinsic("llvm.masked.load", &[raw_ty, ir.ptr]);
                let raw = ir.call(
                    ft,
                    f,
                    &[
                        self.shadow_ptr(p),
                        ir.c32(2),
                        self.expand_mask(mask, n, es),
                        ir.null(raw_ty),
                    ],
                );
                self.fold_lanes(raw, n, es)
            }
            None => {
                // Lanes that are not whole bytes: over-approximate with all bytes.
                let l = self.load_label_bytes(p, ir.store_size(t));
                self.adapt(l, target)
            }
        };
        let sp = self.adapt(self.shadow(pass)?, target);
        let mut s = ir.select(mask, loaded, sp);
        if self.cfg.pointer_labels {
            s = ir.or(s, self.adapt(self.shadow(p)?, target));
        }
        self.stats.loads += 1;
        self.set_shadow(i, s);
        Ok(())
    }

    /// `llvm.masked.store(val, ptr, align, mask)`.
    fn visit_masked_store(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        ir.before(i);
        let (v, p, mask) = (ir::operand(i, 0), ir::operand(i, 1), ir::operand(i, 3));
        let t = ir::type_of(v);
        let s = self.shadow(v)?;
        let plain = !super::memory::updates_itself(v, p);
        let s = self.with_write_control(i, s, plain);
        match self.lane_layout(t) {
            Some((n, es)) => {
                let raw = self.expand_lanes(self.adapt(s, self.sty(t)), n, es);
                let (f, ft) = ir.intrinsic("llvm.masked.store", &[ir::type_of(raw), ir.ptr]);
                ir.call(
                    ft,
                    f,
                    &[
                        raw,
                        self.shadow_ptr(p),
                        ir.c32(2),
                        self.expand_mask(mask, n, es),
                    ],
                );
            }
            None => {
                // Not lane-addressable: label the whole range (over-approximation).
                let l = self.collapse(s);
                self.store_label_bytes(p, ir.store_size(t), l);
            }
        }
        self.stats.stores += 1;
        Ok(())
    }

    /// Chunks used to gather/scatter `es` label bytes per lane: `(chunk type, bytes per
    /// chunk)`. i64 chunks when possible, else i32 or i16.
    fn chunking(&self, es: u64) -> (T, u64) {
        let ir = self.ir;
        if es.is_multiple_of(4) {
            (ir.i64, 4)
        } else if es == 2 {
            (ir.i32, 2)
        } else {
            (ir.i16, 1)
        }
    }

    /// `llvm.masked.gather(ptrs, align, mask, passthru)`: gather the labels.
    fn visit_gather(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        ir.after(i);
        let (ptrs, mask, pass) = (ir::operand(i, 0), ir::operand(i, 2), ir::operand(i, 3));
        let t = ir::type_of(i);
        let n = ir::vector_len(t);
        let es = ir.store_size(ir::element_type(t));
        let target = self.sty(t);
        let sptrs = self.shadow_ptr(ptrs);
        let (ct, cb) = self.chunking(es);
        let vt = ir.vec(ct, n);
        let (f, ft) = ir.intrinsic("llvm.masked.gather", &[vt, ir::type_of(sptrs)]);
        let mut acc = ir.null(vt);
        for c in 0..es / cb {
            let pc = if c == 0 {
                sptrs
            } else {
                ir.gep_i8(sptrs, ir.c64(2 * cb * c))
            };
            let g = ir.call(ft, f, &[pc, ir.c32(2), mask, ir.null(vt)]);
            acc = ir.or(acc, g);
        }
        let lanes = match cb {
            4 => self.fold64(acc),
            2 => self.fold32(acc),
            _ => acc,
        };
        let lanes = self.adapt(lanes, target);
        let sp = self.adapt(self.shadow(pass)?, target);
        let mut s = ir.select(mask, lanes, sp);
        if self.cfg.pointer_labels {
            s = ir.or(s, self.adapt(self.shadow(ptrs)?, target));
        }
        self.stats.loads += 1;
        self.set_shadow(i, s);
        Ok(())
    }

    /// `llvm.masked.scatter(val, ptrs, align, mask)`: scatter each lane's label to all
    /// of its bytes.
    fn visit_scatter(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        ir.before(i);
        let (v, ptrs, mask) = (ir::operand(i, 0), ir::operand(i, 1), ir::operand(i, 3));
        let t = ir::type_of(v);
        let n = ir::vector_len(t);
        let es = ir.store_size(ir::element_type(t));
        let s = self.adapt(self.shadow(v)?, ir.vec(ir.i16, n));
        let s = self.with_write_control(i, s, true);
        let sptrs = self.shadow_ptr(ptrs);
        let (ct, cb) = self.chunking(es);
        let vt = ir.vec(ct, n);
        let wide = match cb {
            4 => ir.mul(ir.zext(s, vt), ir.csplat(ir.i64, n, 0x0001_0001_0001_0001)),
            2 => ir.mul(ir.zext(s, vt), ir.csplat(ir.i32, n, 0x0001_0001)),
            _ => s,
        };
        let (f, ft) = ir.intrinsic("llvm.masked.scatter", &[vt, ir::type_of(sptrs)]);
        for c in 0..es / cb {
            let pc = if c == 0 {
                sptrs
            } else {
                ir.gep_i8(sptrs, ir.c64(2 * cb * c))
            };
            ir.call(ft, f, &[wide, pc, ir.c32(2), mask]);
        }
        self.stats.stores += 1;
        Ok(())
    }
}
