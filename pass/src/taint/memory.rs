//! Shadow memory: one `i16` label per application byte at
//! `((addr & SHADOW_MASK) << 1) + SHADOW_BASE` (see `taintprof_abi`).
//!
//! Everything here is inline IR; the runtime is called only for sizes that have no
//! cheap inline form (odd sizes, large or variable lengths). A load of an `S`-byte value
//! reads its `S` labels and ORs them:
//!
//! | S          | shadow access                                                  |
//! |------------|----------------------------------------------------------------|
//! | 1          | `load i16`                                                     |
//! | 2, 4, 8    | two halves (`i16`+`i16`, `i32`+`i32`, `i64`+`i64`), `or`, fold by shifts |
//! | 16..64 pow2| `load <S x i16>`, `llvm.vector.reduce.or`                      |
//! | other      | `__tp_shadow_union(addr, S)`                                   |
//!
//! Folds distribute over `or`, so a union of several loads ORs their raw words first and
//! folds once (`Fold`, `Leaves` in `mod.rs`).
//!
//! Vector values keep one label per lane, in the lane type of `FnInstr::sty` (`<N x i32>`
//! for 4-byte elements, `<N x i64>` for 8-byte ones, label in the low 16 bits): `<N x T>`
//! with `E`-byte elements loads `<N*E x i16>` and folds each lane's `E` labels in the
//! data's own layout ([`FnInstr::fold_lanes`]), so a vectorized loop computes the same
//! labels as its scalar form. Stores repeat each lane's label over its bytes (a
//! lane-repeating shuffle of the `i16` view). Shadow addresses come from `addr.rs`
//! (strength-reduced) or the formula. Shadow accesses use `align 2`.

use super::identity::is_identity_value;
use super::{FnInstr, Fold, Leaves};
use crate::ir::{self, T, V};
use inkwell::llvm_sys::core::*;
use taintprof_abi as abi;

/// Largest size cleared/copied inline; larger ones call the runtime.
const INLINE_MAX: u64 = 256;

impl FnInstr<'_> {
    /// Shadow address of application pointer `p` (scalar or vector of pointers): the
    /// one planned for `p` (`addr.rs`), or the formula at the builder position.
    pub(crate) fn shadow_ptr(&self, p: V) -> V {
        match self.sptrs.get(&p) {
            Some(&s) => s,
            None => self.shadow_formula(p),
        }
    }

    /// `((p & SHADOW_MASK) << 1) + SHADOW_BASE`, at the builder position.
    pub(crate) fn shadow_formula(&self, p: V) -> V {
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

    /// Per-lane labels from raw byte labels `raw: <n*es x i16>`, in the lane type of
    /// [`Self::sty`] (don't-care bits above the low 16 of wide lanes):
    ///
    /// * 4-byte lanes: view as `<2n x i32>` (two labels per word), OR the even and odd
    ///   words, then `x | x >> 16` (SSE2: `shufps` ×2, `por`, `psrld`, `por`);
    /// * 8-byte lanes: view as `<4n x i32>`, OR even and odd words, view the result as
    ///   `<n x i64>`, then `x | x >> 32`, `x | x >> 16`;
    /// * 2-byte lanes: `<n x i32>`, `x | x >> 16`, truncated to `i16` lanes.
    pub(crate) fn fold_lanes(&self, raw: V, n: u32, es: u64) -> V {
        let ir = self.ir;
        let words = |k: u32| -> V {
            // `raw` as `<k x i32>`, and its even and odd words ORed: `<k/2 x i32>`.
            let w = ir.bitcast(raw, ir.vec(ir.i32, k));
            let even: Vec<Option<u32>> = (0..k / 2).map(|j| Some(2 * j)).collect();
            let odd: Vec<Option<u32>> = (0..k / 2).map(|j| Some(2 * j + 1)).collect();
            let p = ir.poison(ir::type_of(w));
            let a = ir.shuffle(w, p, ir.mask(&even));
            let b = ir.shuffle(w, p, ir.mask(&odd));
            ir.or(a, b)
        };
        match es {
            1 => raw,
            2 => self.fold32(ir.bitcast(raw, ir.vec(ir.i32, n))),
            4 => {
                let x = words(2 * n);
                ir.or(x, ir.lshr(x, ir.csplat(ir.i32, n, 16)))
            }
            8 => {
                let x = words(4 * n);
                let q = ir.bitcast(x, ir.vec(ir.i64, n));
                let a = ir.or(q, ir.lshr(q, ir.csplat(ir.i64, n, 32)));
                ir.or(a, ir.lshr(a, ir.csplat(ir.i64, n, 16)))
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

    /// Raw byte labels `<n*es x i16>` from per-lane labels `lanes` (in the lane type
    /// of [`Self::sty`]): one shuffle that repeats each lane's low `i16` `es` times.
    pub(crate) fn expand_lanes(&self, lanes: V, n: u32, es: u64) -> V {
        let ir = self.ir;
        let raw_ty = ir.vec(ir.i16, n * es as u32);
        if ir::is_zero_const(lanes) {
            return ir.null(raw_ty);
        }
        if es == 1 {
            return lanes;
        }
        // Lane k's label is i16 number k * (lane bits / 16) of the lanes viewed as i16s.
        let lt = ir::element_type(ir::type_of(lanes));
        let per = (ir.scalar_bits(lt) / 16) as u32;
        let v = ir.bitcast(lanes, ir.vec(ir.i16, n * per));
        let m: Vec<Option<u32>> = (0..n * es as u32)
            .map(|k| Some(k / es as u32 * per))
            .collect();
        ir.shuffle(v, ir.poison(ir::type_of(v)), ir.mask(&m))
    }

    /// Union of the labels of `size` bytes at application address `addr`, as an `i16`.
    pub(crate) fn load_label_bytes(&self, addr: V, size: u64) -> V {
        let (l, _) = self.load_label_bytes_raw(addr, size);
        l
    }

    /// As [`Self::load_label_bytes`], also returning the raw words and their fold when
    /// the label is a fold of them (sizes 4 and 8). Scalar sizes OR two halves loaded
    /// as integers first (`or` with a memory operand on x86), then fold by shifts.
    fn load_label_bytes_raw(&self, addr: V, size: u64) -> (V, Option<(Fold, V)>) {
        let ir = self.ir;
        let halves = |t: T, half: u64| -> V {
            let sa = self.shadow_ptr(addr);
            let a = ir.load(t, sa, 2);
            let b = ir.load(t, ir.gep_i8(sa, ir.c64(2 * half)), 2);
            ir.or(a, b)
        };
        let folded = |raw: V, f: Fold| (self.fold_raw(raw, f), Some((f, raw)));
        match size {
            0 => (ir.c16(0), None),
            1 => (ir.load(ir.i16, self.shadow_ptr(addr), 2), None),
            2 => (halves(ir.i16, 1), None),
            4 => folded(halves(ir.i32, 2), Fold::Fold32),
            8 => folded(halves(ir.i64, 4), Fold::Fold64),
            16 | 32 | 64 => (
                ir.reduce_or(ir.load(ir.vec(ir.i16, size as u32), self.shadow_ptr(addr), 2)),
                None,
            ),
            _ => (
                ir.call(
                    self.rt.shadow_union.ty,
                    self.rt.shadow_union.f,
                    &[addr, ir.c64(size)],
                ),
                None,
            ),
        }
    }

    /// Fold raw shadow words `raw` as `f` says.
    pub(crate) fn fold_raw(&self, raw: V, f: Fold) -> V {
        match f {
            Fold::Lanes { n, es } => self.fold_lanes(raw, n, es),
            Fold::Fold32 => self.fold32(raw),
            Fold::Fold64 => self.fold64(raw),
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
        self.load_shadow_raw(addr, t).0
    }

    /// As [`Self::load_shadow`], also returning the raw shadow words and their fold
    /// when the labels are a fold of them (for [`FnInstr::union`]).
    fn load_shadow_raw(&self, addr: V, t: T) -> (V, Option<(Fold, V)>) {
        let ir = self.ir;
        if let Some((n, es)) = self.lane_layout(t) {
            let sa = self.shadow_ptr(addr);
            let raw = ir.load(ir.vec(ir.i16, n * es as u32), sa, 2);
            let lanes = self.fold_lanes(raw, n, es);
            return match es {
                2 | 4 | 8 => (lanes, Some((Fold::Lanes { n, es }, raw))),
                _ => (lanes, None),
            };
        }
        let (l, raw) = self.load_label_bytes_raw(addr, ir.store_size(t));
        if ir::is_vector(t) {
            return (self.adapt(l, self.sty(t)), None);
        }
        (l, raw)
    }

    /// Store labels `s` (in `t`'s shadow type) for a value of type `t` at `addr`.
    pub(crate) fn store_shadow(&self, addr: V, t: T, s: V) {
        let ir = self.ir;
        if let Some((n, es)) = self.lane_layout(t) {
            let lanes = self.adapt(s, self.sty(t));
            let raw = self.expand_lanes(lanes, n, es);
            ir.store(raw, self.shadow_ptr(addr), 2);
            return;
        }
        let l = self.collapse(s);
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
        let (mut s, raw) = self.load_shadow_raw(p, t);
        if let Some((f, raw)) = raw {
            let mut l = Leaves::default();
            l.add_raw(f, raw);
            self.leaves.borrow_mut().insert(s, l);
        }
        // `table[k]` depends on `k`, unless every entry is the same constant (the
        // optimizer folds such a load at -O2; Perf-Taint's "bound read from constant
        // data"): then which entry was read changes nothing.
        // The address is an identity: its `R`, without the labels a loop's back edge
        // gave the index (`list[i]` does not depend on how many `i` there are;
        // `identity.rs`).
        if self.cfg.pointer_labels && !reads_uniform_constant(p, t) {
            let sp = if ir::is_vector(ir::type_of(p)) {
                self.shadow(p)?
            } else {
                self.address_label(p, ir::block_of(i))?
            };
            s = self.union(&[s, sp], self.sty(t));
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
        // Rule 2: memory outlives the region. A store that updates the value it
        // overwrites (`count++`) ORs every decision around it: they decided how often
        // it ran, and the result counts that. A plain overwrite stores a value that does
        // not depend on how often or whether it ran; it ORs nothing (whether an object
        // was written at all is a selection, like a solver selector). In a stack slot of
        // this activation, which lives inside the enclosing regions, an update ORs only
        // the decisions made since the slot came alive. Not for pointers: which object a
        // decision picked is an identity, not a magnitude
        // (docs/internal/control-flow.md, Rule 2, "Pointers").
        // A value made by an identity operation (`seed = (a * seed + c) % m`) names
        // rather than counts: its store is a plain overwrite (`identity.rs`).
        let s = if ir::is_pointer_like(t) || !updates_itself(v, p) || is_identity_value(v) {
            s
        } else {
            match self.local_slot_control_label(i, p) {
                Some(c) => {
                    self.stats.control_writes += 1;
                    let c = self.to_control(c);
                    self.union(&[s, c], ir::type_of(s))
                }
                None => self.with_control(i, s),
            }
        };
        // A constant stored says nothing but where it was stored: a terminator, a
        // sentinel (`code[n] = OP_HALT`, `s[len] = 0`). Its position is its meaning, so
        // it carries the labels of its address (those of a load's, `identity.rs`): a
        // loop that scans for it runs as far as the position says.
        let s = if self.cf.is_some()
            // SAFETY: `v` is the live value operand of the store `i` (taint module header).
            && unsafe { !LLVMIsAConstant(v).is_null() }
            && !ir::is_vector(ir::type_of(p))
        {
            let a = self.address_label(p, ir::block_of(i))?;
            self.union(&[s, a], ir::type_of(s))
        } else {
            s
        };
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
        let mut s = ir.or(self.collapse(old), self.label(cmp)?);
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
        // SAFETY: `i` is a live alloca (`visit_alloca` is called for allocas only).
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

/// `p` without casts and all-zero GEPs: the address a load or store really uses.
fn strip_address(mut p: V) -> V {
    use inkwell::llvm_sys::LLVMOpcode as Op;
    for _ in 0..8 {
        // SAFETY: `p` is a live, non-null value (an address operand, or an operand of one).
        if !ir::is_instruction(p) && unsafe { LLVMIsAConstantExpr(p) }.is_null() {
            break;
        }
        match ir::opcode(p) {
            Op::LLVMBitCast | Op::LLVMAddrSpaceCast => p = ir::operand(p, 0),
            Op::LLVMGetElementPtr
                if (1..ir::num_operands(p)).all(|k| ir::is_zero_const(ir::operand(p, k))) =>
            {
                p = ir::operand(p, 0)
            }
            _ => break,
        }
    }
    p
}

/// Whether two addresses are the same: the same value, or GEPs of the same base with
/// the same indices (what `-O0` emits twice for `a[i] += d`).
fn same_address(a: V, b: V) -> bool {
    use inkwell::llvm_sys::LLVMOpcode as Op;
    let (a, b) = (strip_address(a), strip_address(b));
    if a == b {
        return true;
    }
    ir::is_instruction(a)
        && ir::is_instruction(b)
        && ir::opcode(a) == Op::LLVMGetElementPtr
        && ir::opcode(b) == Op::LLVMGetElementPtr
        && ir::num_operands(a) == ir::num_operands(b)
        // SAFETY: `a` and `b` are GEP instructions (checked just above).
        && unsafe { LLVMGetGEPSourceElementType(a) == LLVMGetGEPSourceElementType(b) }
        && (0..ir::num_operands(a)).all(|k| ir::operand(a, k) == ir::operand(b, k))
}

/// Whether the value `v` stored through `p` was computed from what `p` held: a load
/// (or masked load) of the same address among its operands, through arithmetic,
/// casts, selects, PHIs and intrinsics (`count++`, `a[i] += d`, `regElemSize(r)++`,
/// `x = fmax(x, y)`). Such a store *updates* the value, so every decision that chose
/// whether it ran changed the result; a plain overwrite does not depend on the
/// decisions that merely chose whether it ran (Rule 2). Bounded: 64 values.
pub(crate) fn updates_itself(v: V, p: V) -> bool {
    use inkwell::llvm_sys::LLVMOpcode as Op;
    let mut stack = vec![v];
    let mut seen = std::collections::HashSet::new();
    while let Some(x) = stack.pop() {
        if !ir::is_instruction(x) || !seen.insert(x) || seen.len() > 64 {
            continue;
        }
        match ir::opcode(x) {
            Op::LLVMLoad => {
                if same_address(ir::operand(x, 0), p) {
                    return true;
                }
            }
            Op::LLVMCall => {
                let callee = ir::called_function(x);
                let name = if callee.is_null() {
                    String::new()
                } else {
                    ir::name_of(callee)
                };
                if name.starts_with("llvm.masked.load") {
                    if same_address(ir::operand(x, 0), p) {
                        return true;
                    }
                } else {
                    // A helper (`*p = add(*p, 1)`) may compute the update: look at its
                    // arguments too, so that -O0 (a call) and -O2 (inlined) agree.
                    for k in 0..ir::num_call_args(x) {
                        stack.push(ir::operand(x, k));
                    }
                }
            }
            Op::LLVMInvoke => {
                for k in 0..ir::num_call_args(x) {
                    stack.push(ir::operand(x, k));
                }
            }
            Op::LLVMAlloca | Op::LLVMLandingPad => {}
            _ => {
                for k in 0..ir::num_operands(x) {
                    stack.push(ir::operand(x, k));
                }
            }
        }
    }
    false
}

/// Whether a load of type `t` through `p` reads a constant global (through GEPs and
/// casts) whose entries of type `t` are all the same constant (`static const int
/// sizes[4] = {8, 8, 8, 8}`, a zero-initialised constant table).
fn reads_uniform_constant(p: V, t: T) -> bool {
    use inkwell::llvm_sys::LLVMOpcode as Op;
    let mut base = p;
    for _ in 0..16 {
        // SAFETY: `base` is a live, non-null value (an address operand, or an operand of one).
        let is_expr = !unsafe { LLVMIsAConstantExpr(base) }.is_null();
        if !(ir::is_instruction(base) || is_expr) {
            break;
        }
        match ir::opcode(base) {
            Op::LLVMGetElementPtr | Op::LLVMBitCast | Op::LLVMAddrSpaceCast => {
                base = ir::operand(base, 0)
            }
            _ => return false,
        }
    }
    // SAFETY: `base` is a live, non-null value.
    if unsafe { LLVMIsAGlobalVariable(base) }.is_null()
        // SAFETY: `base` is a global variable (the test above is false).
        || unsafe { LLVMIsGlobalConstant(base) } == 0
        // SAFETY: `base` is a global variable (the first test is false).
        || unsafe { LLVMIsDeclaration(base) } != 0
    {
        return false;
    }
    // SAFETY: `base` is a global variable that is not a declaration (checked above).
    let init = unsafe { LLVMGetInitializer(base) };
    if init.is_null() {
        return false;
    }
    // SAFETY: `init` is the global's live, non-null initializer.
    if unsafe { LLVMIsNull(init) } != 0 {
        return true;
    }
    // Every leaf of type `t`, and all the same uniqued constant.
    let mut leaf: Option<V> = None;
    let mut stack = vec![init];
    let mut visited = 0usize;
    while let Some(c) = stack.pop() {
        visited += 1;
        if visited > 4096 {
            return false;
        }
        let ct = ir::type_of(c);
        if ct == t {
            match leaf {
                None => leaf = Some(c),
                Some(l) if l == c => {}
                Some(_) => return false,
            }
            continue;
        }
        let n = match ir::kind(ct) {
            // SAFETY: `ct` is an array type (this arm).
            inkwell::llvm_sys::LLVMTypeKind::LLVMArrayTypeKind => unsafe {
                LLVMGetArrayLength2(ct)
            },
            _ => return false,
        };
        for k in 0..n.min(4096) {
            // SAFETY: `c` is a live constant (the initializer or one of its elements); LLVM
            // returns null for an index past its elements.
            let e = unsafe { LLVMGetAggregateElement(c, k as u32) };
            if e.is_null() {
                return false;
            }
            stack.push(e);
        }
    }
    leaf.is_some()
}
