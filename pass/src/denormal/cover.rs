//! Fast-path coverage: fewer values in a group's filter.
//!
//! Not every value is tested: a sum, difference, negation or constant multiple of
//! values tested in the group is *covered* by their tests, whose threshold is raised to
//! match (see [`DnFn::cover`]); a cold region entered through a raised threshold first
//! re-tests every value exactly and leaves when nothing is denormal.
//!
//! Each test costs a few instructions on the fast path, which every execution runs;
//! the cold region, which re-tests exactly, runs only when the filter fires. The
//! argument is at [`DnFn::cover`]; `Config::dn_cover` turns it off.

use super::cold::Cold;
use super::fastpath::{AccKey, Open, TestRec};
use super::fptype::FpKind;
use super::func::DnFn;
use crate::ir::{self, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::{BTreeMap, HashMap, HashSet};

/// How far above the plain threshold [`DnFn::cover`] may raise a filter's threshold
/// exponent (`2^-95` for floats, with the plain `2^-103` of covered sums): inputs between
/// `2^-126` and the threshold run the cold region for nothing.
const COVER_RAISE: i32 = 8;

impl DnFn<'_> {
    /// Fast-path coverage: take out of the group's filter the values the filter
    /// already proves normal, and return the threshold exponent each filter then
    /// needs.
    ///
    /// A float is a multiple of `2^g` if it is zero or `|v| >= 2^(g+23)` (double:
    /// `+52`): its last mantissa bit is worth at least `2^g`. Sums and differences
    /// of multiples of `2^g` are multiples of `2^g`, and rounding keeps them so (the
    /// exact result is representable below `2^(g+24)`, and above it the rounded
    /// float's last bit is worth more); a product with a constant `m·2^k` (`m` odd)
    /// is a multiple of `2^(g+k)`. A non-zero multiple of `2^-126` is normal. So
    /// when the filter tests the inputs of `r = a + b` with the threshold `2^(g+23)`
    /// for `g >= -126` instead of `2^-126`, `r` cannot be denormal if the filter
    /// passes, and `r` needs no test of its own. Chains work backwards: in
    /// `0.25 * ((a + b) + c)` only `a`, `b` and `c` are tested, against `2^-101`.
    ///
    /// Only the fast path changes: the cold region tests every value exactly, so
    /// counts are the same; a larger threshold only sends values in
    /// `[2^-126, 2^e)` to the cold region, which finds nothing there. Inputs must be
    /// tested in every lane in this group; the threshold is capped at
    /// `COVER_RAISE` above the plain one.
    pub(super) fn cover(&mut self, cur: &mut Open) -> HashMap<AccKey, i32> {
        let mut limits: HashMap<AccKey, i32> = HashMap::new();
        let index: HashMap<V, usize> = cur
            .tests
            .iter()
            .enumerate()
            .filter(|(_, t)| t.mask.is_none() && t.kind.coverable().is_some())
            .map(|(i, t)| (t.v, i))
            .collect();
        let mut need: HashMap<V, i32> = HashMap::new();
        let mut covered: Vec<usize> = Vec::new();
        for (idx, t) in cur.tests.iter().enumerate().rev() {
            let Some((emin, mant)) = t.kind.coverable() else {
                continue;
            };
            let needed = need.get(&t.v).copied();
            if self.cover_on && t.mask.is_none() {
                let g = needed.map_or(emin, |n| n.max(emin));
                if let Some(inputs) = cover_inputs(t.v, &cur.insts) {
                    let ok = inputs.iter().all(|&(o, k)| {
                        let want = g.saturating_sub(k);
                        if ir::is_constant(o) {
                            const_granularity(o).is_some_and(|cg| cg >= want)
                        } else {
                            index.get(&o).is_some_and(|&j| j < idx) && want <= emin + COVER_RAISE
                        }
                    });
                    if ok {
                        for &(o, k) in &inputs {
                            if !ir::is_constant(o) {
                                let want = g.saturating_sub(k);
                                let e = need.entry(o).or_insert(want);
                                *e = (*e).max(want);
                            }
                        }
                        covered.push(idx);
                        continue;
                    }
                }
            }
            let e = needed.map_or(emin, |n| (n + mant).max(emin));
            let l = limits.entry(t.key).or_insert(emin);
            *l = (*l).max(e);
        }
        // Unlink the covered tests from their filter chains (latest first, so that a
        // replaced link is replaced again if it was covered too).
        let mut replaced: HashMap<V, V> = HashMap::new();
        for &idx in &covered {
            let t = &cur.tests[idx];
            let ir = self.ir;
            let prev = t.prev.unwrap_or_else(|| {
                let ty = ir::type_of(t.acc);
                let AccKey::Int { .. } = t.key else {
                    unreachable!("float filters start at infinity")
                };
                // umin's neutral element.
                ir.cvec(
                    ir.cwide(ir.int_ty(t.kind.bits), u128::MAX >> (128 - t.kind.bits)),
                    if ir::is_vector(ty) {
                        ir::vector_len(ty)
                    } else {
                        0
                    },
                )
            });
            // SAFETY: `acc` is an instruction this pass made for the filter; its only
            // users are the next link and (for the last) nothing but `cur.acc`.
            unsafe { LLVMReplaceAllUsesWith(t.acc, prev) };
            replaced.insert(t.acc, prev);
            self.erase_dead(t.acc, &[t.v, prev]);
            self.stats.checks -= 1;
            self.stats.covered += 1;
        }
        for (acc, _) in cur.acc.values_mut() {
            while let Some(&p) = replaced.get(acc) {
                *acc = p;
            }
        }
        limits
    }

    /// Whether any value the group's filter was asked about (covered or not) is
    /// denormal in a tested lane, computed at the start of the cold region with the
    /// plain thresholds: `i1`. Its clones are the region's (`c`): the site code reuses
    /// them instead of loading and computing the group's values a second time. The
    /// second copy kept fewer values alive across the region, but recomputed every
    /// operation on denormal operands, which the CPU does slowly: on Jacobi's
    /// wavefront the shared clones cost 4% less time (the region 472 M → 455 M
    /// instructions, 512², 300 sweeps).
    pub(super) fn exact_any(&mut self, tests: &[TestRec], c: &mut Cold) -> V {
        let ir = self.ir;
        let own = c;
        let mut accs: BTreeMap<AccKey, (V, FpKind)> = BTreeMap::new();
        for t in tests {
            let v = self.cold_value(t.v, own);
            let mask = t.mask.map(|m| self.cold_value(m, own));
            ir.before(own.term);
            let (key, kind, acc, _) = self.accumulate(v, mask, &accs);
            accs.insert(key, (acc, kind));
        }
        let mut any = ir.cint(ir.i1, 0);
        for (key, (acc, k)) in accs {
            let r = self.filter_result(key, acc, k, None);
            any = ir.or(any, r);
        }
        ir.freeze(any)
    }

    /// Erase `x` and the instructions that fed only it, down to (not including) the
    /// values in `keep` (the tested value, the previous link of the filter, which has
    /// no user when `x` was the last) and anything of the original function.
    fn erase_dead(&self, x: V, keep: &[V]) {
        let mut work = vec![x];
        let mut erased: HashSet<V> = HashSet::new();
        while let Some(i) = work.pop() {
            if erased.contains(&i)
                || keep.contains(&i)
                || self.live.contains(&i)
                || !ir::is_instruction(i)
            {
                continue;
            }
            // SAFETY: instructions of this function; erased only when unused.
            unsafe {
                if !LLVMGetFirstUse(i).is_null() {
                    continue;
                }
                let n = ir::num_operands(i);
                let ops: Vec<V> = (0..n).map(|k| ir::operand(i, k)).collect();
                LLVMInstructionEraseFromParent(i);
                erased.insert(i);
                work.extend(ops);
            }
        }
    }
}

/// The inputs of `v` if [`DnFn::cover`] can reason about it, each with the exponent
/// `k` its multiple-of-`2^g` argument shifts by (`r` is a multiple of `2^g` if each
/// input is one of `2^(g - k)`): sums, differences and negations (`k = 0`),
/// products with a constant `m·2^k` and quotients by a constant power of two. Only
/// instructions of the group (`insts`).
fn cover_inputs(v: V, insts: &HashSet<V>) -> Option<Vec<(V, i32)>> {
    if !ir::is_instruction(v) || !insts.contains(&v) {
        return None;
    }
    let op = |k| ir::operand(v, k);
    match ir::opcode(v) {
        Op::LLVMFAdd | Op::LLVMFSub => Some(vec![(op(0), 0), (op(1), 0)]),
        Op::LLVMFNeg => Some(vec![(op(0), 0)]),
        Op::LLVMFMul => {
            let (x, c) = if ir::is_constant(op(1)) {
                (op(0), op(1))
            } else if ir::is_constant(op(0)) {
                (op(1), op(0))
            } else {
                return None;
            };
            if ir::is_constant(x) {
                return None;
            }
            Some(vec![(x, const_granularity(c)?)])
        }
        Op::LLVMFDiv => {
            let c = op(1);
            if !ir::is_constant(c) || ir::is_constant(op(0)) {
                return None;
            }
            let k = const_power_of_two(c)?;
            Some(vec![(op(0), -k)])
        }
        _ => None,
    }
}

/// The FP values of constant `c` (scalar, or each lane of a vector; `None` for
/// undef lanes).
fn const_lanes(c: V) -> Option<Vec<Option<f64>>> {
    let t = ir::type_of(c);
    let one = |x: V| -> Option<Option<f64>> {
        if ir::is_undef_like(x) {
            return Some(None);
        }
        // SAFETY: `x` is a live, non-null constant (a lane of `c`).
        if unsafe { LLVMIsAConstantFP(x).is_null() } {
            return None;
        }
        let mut loses = 0;
        // SAFETY: a ConstantFP.
        Some(Some(unsafe { LLVMConstRealGetDouble(x, &mut loses) }))
    };
    if !ir::is_vector(t) {
        return Some(vec![one(c)?]);
    }
    (0..ir::vector_len(t))
        .map(|l| {
            // SAFETY: a constant of vector type.
            let e = unsafe { LLVMGetAggregateElement(c, l) };
            if e.is_null() {
                None
            } else {
                one(e)
            }
        })
        .collect()
}

/// The largest `k` such that every lane of constant `c` is a multiple of `2^k`
/// (zero and undef lanes: any); `None` unless every lane is finite.
fn const_granularity(c: V) -> Option<i32> {
    let mut g = i32::MAX;
    for x in const_lanes(c)?.into_iter().flatten() {
        if !x.is_finite() {
            return None;
        }
        if x != 0.0 {
            g = g.min(f64_granularity(x));
        }
    }
    Some(g)
}

/// `k` if every lane of constant `c` is `±2^k`.
fn const_power_of_two(c: V) -> Option<i32> {
    let mut k = None;
    for x in const_lanes(c)? {
        let x = x?;
        let e = f64_granularity(x);
        if !x.is_finite() || x == 0.0 || x.abs() != 2f64.powi(e) || k.is_some_and(|k| k != e) {
            return None;
        }
        k = Some(e);
    }
    k
}

/// The exponent of the lowest set bit of finite non-zero `x`.
fn f64_granularity(x: f64) -> i32 {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    e + m.trailing_zeros() as i32
}

#[cfg(test)]
mod tests {
    use super::f64_granularity;

    #[test]
    fn granularity_is_the_exponent_of_the_lowest_set_bit() {
        assert_eq!(f64_granularity(1.0), 0);
        assert_eq!(f64_granularity(0.25), -2);
        assert_eq!(f64_granularity(-0.75), -2);
        assert_eq!(f64_granularity(6.0), 1);
        // 1/3 as a float: 0xAAAAAB * 2^-25.
        assert_eq!(f64_granularity((1.0f32 / 3.0) as f64), -25);
        assert_eq!(f64_granularity(f64::MIN_POSITIVE), -1022);
        assert_eq!(f64_granularity(f64::from_bits(1)), -1074);
        assert_eq!(f64_granularity(f32::MIN_POSITIVE as f64), -126);
    }
}
