//! This thread's block counters, as one function sees them.
//!
//! Each thread has its own array of `i64` counters (`__tpd_counters_tls`, made on first
//! use by `__tpd_thread_counters`); a module's counters start at its `base`, set when
//! the module registers. The prologue computes the function's pointer to them once
//! (`counter_base`). Every original block with sites counts its executions
//! (`count_block`); inline sites have words after the module's blocks
//! (`number_inline_counters` in mod.rs): an operation's three counters
//! (`count_op_inline`), a load's or store's count and cache (`word`, see memcache.rs).
//! Per-thread memory: no atomics.

use super::func::DnFn;
use crate::ffi;
use crate::ir::{self, V};
use taintprof_abi as abi;

/// Nibble `k` of it is the number of set bits of `k` (0 to 15).
const NIBBLE_COUNTS: u64 = 0x4332_3221_3221_2110;

impl DnFn<'_> {
    /// The pointer to this function's counters in this thread's block counters
    /// (`counters`), computed at `ip`, after the entry block's allocas.
    pub(super) fn counter_base(&mut self, ip: V) {
        let ir = self.ir;
        self.at(ip);
        // counters = __tpd_counters_tls ?: __tpd_thread_counters()
        let c0 = ir.load(ir.ptr, self.rt.counters_tls, 8);
        let null = ir.icmp_eq(c0, ir.null_ptr());
        let head = ir::block_of(ip);
        // SAFETY: `ip` is a live instruction of the function, `null` an `i1` built before it.
        let cold = unsafe { ffi::tp_split_if_then(null, ip) };
        ir.at_end(cold);
        let th = self.rt.thread_counters;
        let c1 = ir.call(th.ty, th.f, &[]);
        self.ir
            .before_with_records(ir::first_non_phi(ir::block_of(ip)));
        let c = ir.phi(ir.ptr);
        ir.add_incoming(c, c0, head);
        ir.add_incoming(c, c1, cold);
        // base = module.base; unregistered (a constructor of another module ran
        // this code before ours) → register now.
        self.at(ip);
        let bp = self.d.base_ptr(ir);
        let b0 = ir.load_atomic(ir.i64, bp, 8);
        let unreg = ir.icmp_eq(b0, ir.c64(abi::DN_BASE_UNREGISTERED));
        let head = ir::block_of(ip);
        // SAFETY: `ip` is a live instruction of the function, `unreg` an `i1` built before it.
        let cold = unsafe { ffi::tp_split_if_then(unreg, ip) };
        ir.at_end(cold);
        let reg = self.rt.register_module;
        ir.call(reg.ty, reg.f, &[self.d.module()]);
        let b1 = ir.load_atomic(ir.i64, bp, 8);
        self.ir
            .before_with_records(ir::first_non_phi(ir::block_of(ip)));
        let b = ir.phi(ir.i64);
        ir.add_incoming(b, b0, head);
        ir.add_incoming(b, b1, cold);
        self.at(ip);
        let cb = ir.gep(ir.i64, c, &[b]);
        self.counters = Some(cb);
    }

    /// `counters[base + idx] += 1` (per-thread memory: no atomics).
    pub(super) fn count_block(&mut self, idx: u32) {
        let ir = self.ir;
        let cb = self.counters.expect("prologue made the counter pointer");
        let p = ir.gep(ir.i64, cb, &[ir.c64(idx as u64)]);
        let v = ir.load(ir.i64, p, 8);
        ir.store(ir.add(v, ir.c64(1)), p, 8);
    }

    /// Word `k` of the inline words at counter index `ctr` (this thread's block counters).
    pub(super) fn word_ptr(&self, ctr: u32, k: u32) -> V {
        let ir = self.ir;
        let cb = self.counters.expect("functions with sites count blocks");
        ir.gep(ir.i64, cb, &[ir.c64(ctr as u64 + k as u64)])
    }

    pub(super) fn word(&self, ctr: u32, k: u32) -> V {
        self.ir.load(self.ir.i64, self.word_ptr(ctr, k), 8)
    }

    /// The number of set lanes of `lm` (`i1` or `<n x i1>`), as `i64`. Up to 16 lanes
    /// it looks each 4 lanes up in a table of nibbles (`NIBBLE_COUNTS`): three
    /// instructions per 4 lanes on the baseline x86-64 target, which has no `popcnt`
    /// (a `reduce.add` of the widened lanes was a dozen).
    pub(super) fn lane_count(&self, lm: V) -> V {
        let ir = self.ir;
        let t = ir::type_of(lm);
        if !ir::is_vector(t) {
            return ir.zext(lm, ir.i64);
        }
        let n = ir::vector_len(t);
        if n > 16 {
            let ct = ir.vec(ir.i32, n);
            let (f, ft) = ir.intrinsic("llvm.vector.reduce.add", &[ct]);
            return ir.zext(ir.call(ft, f, &[ir.zext(lm, ct)]), ir.i64);
        }
        let bits = ir.zext(ir.bitcast(lm, ir.int_ty(n)), ir.i64);
        let mut total: Option<V> = None;
        for g in 0..n.div_ceil(4) {
            let nib = ir.and(ir.lshr(bits, ir.c64(4 * g as u64)), ir.c64(15));
            let k = ir.and(
                ir.lshr(ir.c64(NIBBLE_COUNTS), ir.shl(nib, ir.c64(2))),
                ir.c64(15),
            );
            total = Some(match total {
                Some(t) => ir.add(t, k),
                None => k,
            });
        }
        total.expect("a vector has lanes")
    }

    /// A load's or store's count of denormal lanes `lm` (`i1` or `<n x i1>`) into word
    /// 0 of its words (what the inline cache's hit adds; the profile tier's only code).
    pub(super) fn count_mem_inline(&self, ctr: u32, lm: V) {
        let ir = self.ir;
        let k = self.lane_count(lm);
        let p = self.word_ptr(ctr, 0);
        let v = ir.load(ir.i64, p, 8);
        ir.store(ir.add(v, k), p, 8);
    }

    /// The counts `__tpd_op` would make, into the site's inline counters
    /// `ctr..ctr+DN_OP_WORDS` of this thread's block counters: denormal operands (set
    /// lanes of the operand masks `ms`), operations with a denormal operand (lanes set
    /// in any of them), denormal results (lanes of `rm`), results created (lanes of
    /// `rm` with no operand lane set). A vector site of `n > 1` lanes adds to its lane
    /// counts instead ([`Self::count_op_lanes`]); `term` ends the block the code goes
    /// into (it may be split).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn count_op_inline(
        &mut self,
        ctr: u32,
        ms: &[V],
        rm: Option<V>,
        vec: bool,
        n: u32,
        term: V,
    ) {
        if vec && n > 1 {
            return self.count_op_lanes(ctr, ms, rm, n, term);
        }
        let ir = self.ir;
        let cb = self.counters.expect("functions with sites count blocks");
        let (wide, any) = if vec {
            (
                ir.vec(ir.i32, n),
                ms.iter().copied().reduce(|a, b| ir.or(a, b)),
            )
        } else {
            (ir.i64, ms.iter().copied().reduce(|a, b| ir.or(a, b)))
        };
        let mut packed = ir.null(wide);
        for &m in ms {
            packed = ir.add(packed, ir.zext(m, wide));
        }
        let shift = |v: V, by: u64| {
            let by = if vec {
                ir.splat(ir.c32(by as u32), n)
            } else {
                ir.c64(by)
            };
            ir.shl(v, by)
        };
        if let Some(a) = any {
            packed = ir.add(packed, shift(ir.zext(a, wide), 8));
        }
        if let Some(r) = rm {
            packed = ir.add(packed, shift(ir.zext(r, wide), 16));
            let created = self.created_lanes(ms, r);
            packed = ir.add(packed, shift(ir.zext(created, wide), 24));
        }
        let total = if vec {
            let (f, ft) = ir.intrinsic("llvm.vector.reduce.add", &[wide]);
            ir.zext(ir.call(ft, f, &[packed]), ir.i64)
        } else {
            packed
        };
        // Sites without an FP result (comparisons, FP→int) have no result counts.
        let counts = if rm.is_some() {
            abi::DN_OP_WORDS as u64
        } else {
            2
        };
        for j in 0..counts {
            let c = if j + 1 == abi::DN_OP_WORDS as u64 {
                ir.lshr(total, ir.c64(8 * j))
            } else {
                ir.and(ir.lshr(total, ir.c64(8 * j)), ir.c64(0xff))
            };
            if ir::is_zero_const(c) {
                continue;
            }
            let p = ir.gep(ir.i64, cb, &[ir.c64(ctr as u64 + j)]);
            let v = ir.load(ir.i64, p, 8);
            ir.store(ir.add(v, c), p, 8);
        }
    }

    /// [`Self::count_op_inline`] for a vector site of `n` lanes: each counter's lanes
    /// are a `<n x i32>` after the site's totals (`taintprof_abi::op_lane_words`), and
    /// each gets its lanes' masks added, with no reduction across lanes: three
    /// instructions per counter, where packing the four counts into one vector, reducing
    /// it and adding its bytes to four totals took some thirty. When a lane of the
    /// operand or result counts reaches 2^31 (the other two never exceed them), a block
    /// of its own adds every lane to the totals and clears them.
    fn count_op_lanes(&mut self, ctr: u32, ms: &[V], rm: Option<V>, n: u32, term: V) {
        let ir = self.ir;
        let cb = self.counters.expect("functions with sites count blocks");
        let lt = ir.vec(ir.i32, n);
        let lanes = ir.gep(ir.i64, cb, &[ir.c64((ctr + abi::DN_OP_WORDS) as u64)]);
        let at = |k: u32| ir.gep(ir.i32, lanes, &[ir.c64((k * n) as u64)]);
        let add = |k: u32, x: V| {
            let p = at(k);
            let l = ir.load(lt, p, 4);
            let v = ir.add(l, x);
            let st = ir.store(v, p, 4);
            // Volatile keeps each counter's load, add and store together (these are
            // this thread's words; no other code reads them meanwhile). Otherwise the
            // scheduler hoists the four loads above the stores and the cold region,
            // short of registers, spills and reloads them: 10 M of Jacobi's 503 M
            // cold-region instructions (512², 300 sweeps).
            // SAFETY: `l` and `st` are the load and store just built.
            unsafe {
                inkwell::llvm_sys::core::LLVMSetVolatile(l, 1);
                inkwell::llvm_sys::core::LLVMSetVolatile(st, 1);
            }
            v
        };
        let zext = |m: V| ir.zext(m, lt);
        let mut operands = ir.null(lt);
        for &m in ms {
            operands = ir.add(operands, zext(m));
        }
        let any = ms.iter().copied().reduce(|a, b| ir.or(a, b));
        let mut watched = add(0, operands);
        if let Some(a) = any {
            add(1, zext(a));
        }
        let mut counters = 2;
        if let Some(r) = rm {
            let created = self.created_lanes(ms, r);
            watched = ir.or(watched, add(2, zext(r)));
            add(3, zext(created));
            counters = abi::DN_OP_WORDS;
        }
        let full = ir.icmp(
            inkwell::llvm_sys::LLVMIntPredicate::LLVMIntSLT,
            watched,
            ir.null(lt),
        );
        let full = ir.icmp_ne(ir.bitcast(full, ir.int_ty(n)), ir.cint(ir.int_ty(n), 0));
        // SAFETY: `term` is a live instruction of the function, `full` an `i1` built before it.
        let bb = unsafe { ffi::tp_split_if_then(full, term) };
        ir.at_end(bb);
        let wide = ir.vec(ir.i64, n);
        let (f, ft) = ir.intrinsic("llvm.vector.reduce.add", &[wide]);
        for k in 0..counters {
            let p = at(k);
            let sum = ir.call(ft, f, &[ir.zext(ir.load(lt, p, 4), wide)]);
            let tp = ir.gep(ir.i64, cb, &[ir.c64((ctr + k) as u64)]);
            let t = ir.load(ir.i64, tp, 8);
            ir.store(ir.add(t, sum), tp, 8);
            ir.store(ir.null(lt), p, 4);
        }
        self.at(term);
    }

    /// The lanes of result mask `r` that an operation with operand masks `ms` created:
    /// denormal with no denormal operand. Constant operands' masks are constants: they
    /// do not count against creation (`FpSiteDesc::const_operands`).
    fn created_lanes(&self, ms: &[V], r: V) -> V {
        let ir = self.ir;
        let live = ms
            .iter()
            .copied()
            .filter(|&m| !ir::is_constant(m))
            .reduce(|a, b| ir.or(a, b));
        match live {
            Some(a) => ir.and(r, ir.not(a)),
            None => r,
        }
    }
}
