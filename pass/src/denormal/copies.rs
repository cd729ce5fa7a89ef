//! Copies: tags travel with the bytes they describe.
//!
//! `memcpy`/`memmove` move the shadow tags, as labels move in taint mode; a copy that
//! may hold a float goes to `__tpd_copy`, which also counts its denormal elements when
//! it copies from or into a marked array (the element-wise loop the optimizer turned
//! into the `memcpy` would have been counted). Floats moved as a `double`
//! ([`float_pair_copy`](super::classify::float_pair_copy)) are tested as floats, and
//! only a copy holding a denormal goes to `__tpd_copy`.

use super::func::DnFn;
use crate::ffi;
use crate::ir::{self, V};
use inkwell::llvm_sys::core::*;

impl DnFn<'_> {
    /// memcpy/memmove: tags travel with the copied bytes, as labels do in taint mode.
    /// A copy that may hold a float goes to `__tpd_copy`, which also counts its
    /// denormal elements when it copies from or into a marked array (an element-wise
    /// copy loop at -O0 is counted, and -O2 turns it into this memcpy); copies of
    /// fewer than 4 bytes move the shadow inline.
    pub(super) fn copy_shadow(&self, dst: V, src: V, n: V) {
        let ir = self.ir;
        match ir::const_int_value(n) {
            Some(0) => {}
            Some(c) if c < 4 => {
                let (f, ft) = ir.intrinsic("llvm.memmove", &[ir.ptr, ir.ptr, ir.i64]);
                let (sd, ss) = (self.shadow_ptr(dst), self.shadow_ptr(src));
                // One shadow byte per byte (denormal mode's mapping).
                ir.call(ft, f, &[sd, ss, ir.c64(c), ir.cint(ir.i1, 0)]);
            }
            _ => {
                let n64 = ir.zext(n, ir.i64);
                let h = self.rt.copy;
                ir.call(h.ty, h.f, &[dst, src, n64]);
            }
        }
    }

    /// The store `st` of a copy of floats moved as a `double` (see
    /// [`classify::float_pair_copy`](super::classify::float_pair_copy)), its value
    /// loaded from `src`: the value is checked as floats, and only a copy holding a
    /// denormal float goes to `__tpd_copy` (counts for marked arrays, tags moved), as a
    /// `memcpy` would. A copy of normal floats needs nothing: tags matter only while a
    /// value is denormal.
    pub(super) fn float_pair_copy(&mut self, st: V, src: V) {
        let ir = self.ir;
        self.at(st);
        let v = ir::operand(st, 0);
        let t = ir::type_of(v);
        let doubles = if ir::is_vector(t) {
            ir::vector_len(t)
        } else {
            1
        };
        // SAFETY: the module's context.
        let f32 = unsafe { LLVMFloatTypeInContext(ir.ctx) };
        let floats = ir.bitcast(v, ir.vec(f32, 2 * doubles));
        let lanes = self.lane_mask(floats);
        let bits = ir.bitcast(lanes, ir.int_ty(2 * doubles));
        let any = ir.freeze(ir.icmp_ne(bits, ir.cint(ir.int_ty(2 * doubles), 0)));
        // SAFETY: `st` is a live store of the function and `any` an `i1` computed before it.
        let copy_bb = unsafe { ffi::tp_split_if_then(any, st) };
        ir.before(ir::terminator(copy_bb));
        let h = self.rt.copy;
        ir.call(
            h.ty,
            h.f,
            &[ir::operand(st, 1), src, ir.c64(8 * doubles as u64)],
        );
        self.at(st);
    }
}
