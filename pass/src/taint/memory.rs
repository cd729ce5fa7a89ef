//! Shadow memory: one `i16` label per application byte at
//! `((addr & SHADOW_MASK) << 1) + SHADOW_BASE` (see `taintprof_abi`).
//!
//! Everything here is inline IR; the runtime is called only for sizes that have no
//! cheap inline form (odd sizes, large or variable lengths). A load of an `S`-byte value
//! reads its `S` labels and ORs them:
//!
//! | S          | shadow access                                         |
//! |------------|-------------------------------------------------------|
//! | 1          | `load i16`                                            |
//! | 2, 4       | `load i32` / `load i64`, fold by shifts               |
//! | 8..64 pow2 | `load <S x i16>`, `llvm.vector.reduce.or`             |
//! | other      | `__tp_shadow_union(addr, S)`                          |
//!
//! Vector values keep one label per lane: `<N x T>` with `E`-byte elements loads
//! `<N*E x i16>` and folds each lane's `E` labels (bitcast to `<N x i32>`/`<N x i64>`
//! and shift for E = 2, 4; `<2N x i64>` then OR of even/odd lanes for E = 8), so a
//! vectorized loop computes the same labels as its scalar form. Stores broadcast
//! each label to all bytes of its lane (multiply by 0x0001_0001... or a lane-repeating
//! shuffle). Shadow accesses use `align 2`.

use super::FnInstr;
use crate::ir::{self, T, V};
use inkwell::llvm_sys::core::*;
use taintprof_abi as abi;

/// Largest size cleared/copied inline; larger ones call the runtime.
const INLINE_MAX: u64 = 256;
/// Largest size whose labels get the control label ORed in inline.
const OR_INLINE_MAX: u64 = 128;

impl FnInstr<'_> {
    /// Shadow address of application pointer `p` (scalar or vector of pointers).
    pub(crate) fn shadow_ptr(&self, p: V) -> V {
        let ir = self.ir;
        let t = ir::type_of(p);
        if ir::is_vector(t) {
            let n = ir::vector_len(t);
            let i = ir.ptrtoint(p, ir.vec(ir.i64, n));
            let m = ir.and(i, ir.csplat(ir.i64, n, abi::SHADOW_MASK));
            let s = ir.shl(m, ir.csplat(ir.i64, n, abi::SHADOW_SHIFT as u64));
            let a = ir.add(s, ir.csplat(ir.i64, n, abi::SHADOW_BASE));
            return ir.inttoptr(a, ir.vec(ir.ptr, n));
        }
        let i = ir.ptrtoint(p, ir.i64);
        let m = ir.and(i, ir.c64(abi::SHADOW_MASK));
        let s = ir.shl(m, ir.c64(abi::SHADOW_SHIFT as u64));
        let a = ir.add(s, ir.c64(abi::SHADOW_BASE));
        ir.inttoptr(a, ir.ptr)
    }

    /// `(lanes, bytes per lane)` if `t` is a vector whose lanes are whole bytes.
    pub(crate) fn lane_layout(&self, t: T) -> Option<(u32, u64)> {
        if !ir::is_vector(t) {
            return None;
        }
        let n = ir::vector_len(t);
        let e = ir::element_type(t);
        let bits = self.ir.scalar_bits(e);
        let es = self.ir.store_size(e);
        if !bits.is_multiple_of(8) || bits / 8 != es || self.ir.store_size(t) != es * n as u64 {
            return None;
        }
        Some((n, es))
    }

    /// Fold `x | x>>32 | x>>16` on i64 lanes (or a scalar), truncated to i16 lanes.
    pub(crate) fn fold64(&self, x: V) -> V {
        let ir = self.ir;
        let t = ir::type_of(x);
        let (c32, c16, to) = if ir::is_vector(t) {
            let n = ir::vector_len(t);
            (
                ir.csplat(ir.i64, n, 32),
                ir.csplat(ir.i64, n, 16),
                ir.vec(ir.i16, n),
            )
        } else {
            (ir.c64(32), ir.c64(16), ir.i16)
        };
        let a = ir.or(x, ir.lshr(x, c32));
        let b = ir.or(a, ir.lshr(a, c16));
        ir.trunc(b, to)
    }

    /// Fold `x | x>>16` on i32 lanes (or a scalar), truncated to i16 lanes.
    pub(crate) fn fold32(&self, x: V) -> V {
        let ir = self.ir;
        let t = ir::type_of(x);
        let (c16, to) = if ir::is_vector(t) {
            let n = ir::vector_len(t);
            (ir.csplat(ir.i32, n, 16), ir.vec(ir.i16, n))
        } else {
            (ir.cint(ir.i32, 16), ir.i16)
        };
        let a = ir.or(x, ir.lshr(x, c16));
        ir.trunc(a, to)
    }

    /// Per-lane labels from raw byte labels `raw: <n*es x i16>`.
    pub(crate) fn fold_lanes(&self, raw: V, n: u32, es: u64) -> V {
        let ir = self.ir;
        match es {
            1 => raw,
            2 => self.fold32(ir.bitcast(raw, ir.vec(ir.i32, n))),
            4 => self.fold64(ir.bitcast(raw, ir.vec(ir.i64, n))),
            8 => {
                let w = self.fold64(ir.bitcast(raw, ir.vec(ir.i64, 2 * n)));
                let even: Vec<Option<u32>> = (0..n).map(|k| Some(2 * k)).collect();
                let odd: Vec<Option<u32>> = (0..n).map(|k| Some(2 * k + 1)).collect();
                let p = ir.poison(ir::type_of(w));
                let a = ir.shuffle(w, p, ir.mask(&even));
                let b = ir.shuffle(w, p, ir.mask(&odd));
                ir.or(a, b)
            }
            _ => {
                let p = ir.poison(ir::type_of(raw));
                let mut acc = ir.null(ir.vec(ir.i16, n));
                for k in 0..es as u32 {
                    let m: Vec<Option<u32>> = (0..n).map(|l| Some(l * es as u32 + k)).collect();
                    acc = ir.or(acc, ir.shuffle(raw, p, ir.mask(&m)));
                }
                acc
            }
        }
    }

    /// Raw byte labels `<n*es x i16>` from per-lane labels `lanes: <n x i16>`.
    pub(crate) fn expand_lanes(&self, lanes: V, n: u32, es: u64) -> V {
        let ir = self.ir;
        let raw_ty = ir.vec(ir.i16, n * es as u32);
        if ir::is_zero_const(lanes) {
            return ir.null(raw_ty);
        }
        match es {
            1 => lanes,
            2 => {
                let w = ir.zext(lanes, ir.vec(ir.i32, n));
                ir.bitcast(ir.mul(w, ir.csplat(ir.i32, n, 0x0001_0001)), raw_ty)
            }
            4 => {
                let w = ir.zext(lanes, ir.vec(ir.i64, n));
                ir.bitcast(
                    ir.mul(w, ir.csplat(ir.i64, n, 0x0001_0001_0001_0001)),
                    raw_ty,
                )
            }
            _ => {
                let m: Vec<Option<u32>> = (0..n * es as u32).map(|k| Some(k / es as u32)).collect();
                ir.shuffle(lanes, ir.poison(ir::type_of(lanes)), ir.mask(&m))
            }
        }
    }

    /// Union of the labels of `size` bytes at application address `addr`, as an `i16`.
    pub(crate) fn load_label_bytes(&self, addr: V, size: u64) -> V {
        let ir = self.ir;
        let sa = || self.shadow_ptr(addr);
        match size {
            0 => ir.c16(0),
            1 => ir.load(ir.i16, sa(), 2),
            2 => self.fold32(ir.load(ir.i32, sa(), 2)),
            4 => self.fold64(ir.load(ir.i64, sa(), 2)),
            8 | 16 | 32 | 64 => ir.reduce_or(ir.load(ir.vec(ir.i16, size as u32), sa(), 2)),
            _ => ir.call(
                self.rt.shadow_union.ty,
                self.rt.shadow_union.f,
                &[addr, ir.c64(size)],
            ),
        }
    }

    /// Set the labels of `size` bytes at `addr` to `label` (`i16`).
    pub(crate) fn store_label_bytes(&self, addr: V, size: u64, label: V) {
        let ir = self.ir;
        let sa = || self.shadow_ptr(addr);
        let zero = ir::is_zero_const(label);
        match size {
            0 => {}
            1 => {
                ir.store(label, sa(), 2);
            }
            2 => {
                let v = if zero {
                    ir.cint(ir.i32, 0)
                } else {
                    ir.mul(ir.zext(label, ir.i32), ir.cint(ir.i32, 0x0001_0001))
                };
                ir.store(v, sa(), 2);
            }
            4 => {
                let v = if zero {
                    ir.c64(0)
                } else {
                    ir.mul(ir.zext(label, ir.i64), ir.c64(0x0001_0001_0001_0001))
                };
                ir.store(v, sa(), 2);
            }
            8 | 16 | 32 | 64 => {
                let v = ir.splat(label, size as u32);
                ir.store(v, sa(), 2);
            }
            _ if zero && size <= INLINE_MAX => self.memset_shadow(sa(), ir.c64(2 * size)),
            _ => {
                ir.call(
                    self.rt.shadow_set.ty,
                    self.rt.shadow_set.f,
                    &[addr, label, ir.c64(size)],
                );
            }
        }
    }

    /// `llvm.memset(sa, 0, len)` on shadow memory.
    fn memset_shadow(&self, sa: V, len: V) {
        let ir = self.ir;
        let (f, ft) = ir.intrinsic("llvm.memset", &[ir.ptr, ir.i64]);
        ir.call(ft, f, &[sa, ir.cint(ir.i8, 0), len, ir.cint(ir.i1, 0)]);
    }

    /// Labels of a value of type `t` loaded from `addr`, in `t`'s shadow type.
    pub(crate) fn load_shadow(&self, addr: V, t: T) -> V {
        let ir = self.ir;
        if let Some((n, es)) = self.lane_layout(t) {
            let sa = self.shadow_ptr(addr);
            let raw = ir.load(ir.vec(ir.i16, n * es as u32), sa, 2);
            return self.fold_lanes(raw, n, es);
        }
        let l = self.load_label_bytes(addr, ir.store_size(t));
        self.adapt(l, ir.shadow_ty(t))
    }

    /// Store labels `s` (in `t`'s shadow type) for a value of type `t` at `addr`.
    pub(crate) fn store_shadow(&self, addr: V, t: T, s: V) {
        let ir = self.ir;
        if let Some((n, es)) = self.lane_layout(t) {
            let lanes = self.adapt(s, ir.vec(ir.i16, n));
            let raw = self.expand_lanes(lanes, n, es);
            ir.store(raw, self.shadow_ptr(addr), 2);
            return;
        }
        let l = ir.reduce_or(s);
        self.store_label_bytes(addr, ir.store_size(t), l);
    }

    /// Copy the labels of `n` bytes from `src` to `dst` (memmove semantics).
    pub(crate) fn copy_shadow(&self, dst: V, src: V, n: V, const_n: Option<u64>) {
        let ir = self.ir;
        match const_n {
            Some(0) => {}
            Some(c) => {
                let (f, ft) = ir.intrinsic("llvm.memmove", &[ir.ptr, ir.ptr, ir.i64]);
                let (sd, ss) = (self.shadow_ptr(dst), self.shadow_ptr(src));
                ir.call(ft, f, &[sd, ss, ir.c64(2 * c), ir.cint(ir.i1, 0)]);
            }
            None => {
                let n64 = ir.zext(n, ir.i64);
                ir.call(
                    self.rt.shadow_copy.ty,
                    self.rt.shadow_copy.f,
                    &[dst, src, n64],
                );
            }
        }
    }

    /// OR `label` (`i16`, the control label) into the labels of `n` bytes at `dst`
    /// (memory written by an intrinsic under control, Rule 2). Inline for constant
    /// sizes up to [`OR_INLINE_MAX`] bytes (vector load, or, store per chunk); otherwise
    /// `if (label != 0) __tp_shadow_or(dst, label, n)` as a cold call inserted before
    /// `before` at the end (it splits the block).
    pub(crate) fn or_label_bytes(
        &mut self,
        before: V,
        dst: V,
        label: V,
        n: V,
        const_n: Option<u64>,
    ) {
        let ir = self.ir;
        if ir::is_zero_const(label) || const_n == Some(0) {
            return;
        }
        self.stats.control_writes += 1;
        if let Some(c) = const_n.filter(|&c| c <= OR_INLINE_MAX) {
            let base = self.shadow_ptr(dst);
            let mut off = 0u64;
            while off < c {
                let lanes = [32u64, 16, 8, 4, 2, 1]
                    .into_iter()
                    .find(|&k| k <= c - off)
                    .unwrap();
                let p = if off == 0 {
                    base
                } else {
                    ir.gep_i8(base, ir.c64(2 * off))
                };
                let (t, l) = if lanes == 1 {
                    (ir.i16, label)
                } else {
                    let vt = ir.vec(ir.i16, lanes as u32);
                    (vt, ir.splat(label, lanes as u32))
                };
                let old = ir.load(t, p, 2);
                ir.store(ir.or(old, l), p, 2);
                off += lanes;
            }
            return;
        }
        let need = ir.icmp_ne(label, ir.c16(0));
        let n64 = ir.zext(n, ir.i64);
        self.deferred.push(super::Deferred {
            cond: need,
            before,
            hook: self.rt.shadow_or,
            args: vec![dst, label, n64],
        });
    }

    /// Set the labels of `n` bytes at `dst` to `label` (`i16`).
    pub(crate) fn set_shadow_bytes(&self, dst: V, label: V, n: V, const_n: Option<u64>) {
        let ir = self.ir;
        if ir::is_zero_const(label) {
            if let Some(c) = const_n {
                if c <= INLINE_MAX {
                    self.store_label_bytes(dst, c, label);
                    return;
                }
            }
            let sa = self.shadow_ptr(dst);
            let n64 = ir.zext(n, ir.i64);
            self.memset_shadow(sa, ir.shl(n64, ir.c64(1)));
            return;
        }
        let n64 = ir.zext(n, ir.i64);
        ir.call(
            self.rt.shadow_set.ty,
            self.rt.shadow_set.f,
            &[dst, label, n64],
        );
    }

    pub(crate) fn visit_load(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        ir.after(i);
        let p = ir::operand(i, 0);
        let t = ir::type_of(i);
        let mut s = self.load_shadow(p, t);
        if self.cfg.pointer_labels {
            let pl = self.adapt(self.shadow(p)?, ir.shadow_ty(t));
            s = ir.or(s, pl);
        }
        self.stats.loads += 1;
        self.set_shadow(i, s);
        Ok(())
    }

    pub(crate) fn visit_store(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        ir.before(i);
        let v = ir::operand(i, 0);
        let p = ir::operand(i, 1);
        let t = ir::type_of(v);
        let s = self.shadow(v)?;
        // Rule 2: memory outlives the region; the full control label applies.
        let s = self.with_control(i, s);
        self.store_shadow(p, t, s);
        self.stats.stores += 1;
        Ok(())
    }

    /// `atomicrmw`: result = old memory labels; memory labels |= operand label.
    pub(crate) fn visit_atomicrmw(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        ir.before(i);
        let p = ir::operand(i, 0);
        let v = ir::operand(i, 1);
        let t = ir::type_of(v);
        let old = self.load_shadow(p, t);
        let new = ir.or(old, self.adapt(self.shadow(v)?, ir::type_of(old)));
        let new = self.with_control(i, new);
        self.store_shadow(p, t, new);
        let mut s = old;
        if self.cfg.pointer_labels {
            s = ir.or(s, self.adapt(self.shadow(p)?, ir::type_of(old)));
        }
        self.set_shadow(i, s);
        self.stats.loads += 1;
        self.stats.stores += 1;
        Ok(())
    }

    /// `cmpxchg`: result = memory labels | compare label (collapsed, the result is a
    /// `{T, i1}` pair); memory labels |= new-value label (conservative on failure).
    pub(crate) fn visit_cmpxchg(&mut self, i: V) -> Result<(), String> {
        let ir = self.ir;
        ir.before(i);
        let p = ir::operand(i, 0);
        let cmp = ir::operand(i, 1);
        let new = ir::operand(i, 2);
        let t = ir::type_of(cmp);
        let old = self.load_shadow(p, t);
        let updated = ir.or(old, self.adapt(self.shadow(new)?, ir::type_of(old)));
        let updated = self.with_control(i, updated);
        self.store_shadow(p, t, updated);
        let mut s = ir.or(ir.reduce_or(old), self.label(cmp)?);
        if self.cfg.pointer_labels {
            s = ir.or(s, self.label(p)?);
        }
        self.set_shadow(i, s);
        self.stats.loads += 1;
        self.stats.stores += 1;
        Ok(())
    }

    /// `alloca`: the pointer has label 0; clear the labels of the new object so that
    /// stale labels of an earlier frame never leak into this one.
    pub(crate) fn visit_alloca(&mut self, i: V) {
        let ir = self.ir;
        self.set_shadow(i, ir.c16(0));
        if self.accs.contains(&i) {
            return;
        }
        ir.after(i);
        let t = unsafe { LLVMGetAllocatedType(i) };
        let elem = ir.alloc_size(t);
        let count = ir::operand(i, 0);
        match ir::const_int_value(count) {
            Some(c) if elem * c <= INLINE_MAX => {
                let n = elem * c;
                self.set_shadow_bytes(i, ir.c16(0), ir.c64(n), Some(n));
            }
            Some(c) => {
                ir.call(
                    self.rt.shadow_set.ty,
                    self.rt.shadow_set.f,
                    &[i, ir.c16(0), ir.c64(elem * c)],
                );
            }
            None => {
                let n = ir.mul(ir.zext(count, ir.i64), ir.c64(elem));
                ir.call(
                    self.rt.shadow_set.ty,
                    self.rt.shadow_set.f,
                    &[i, ir.c16(0), n],
                );
            }
        }
    }
}
