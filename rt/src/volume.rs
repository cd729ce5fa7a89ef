//! Symbolic iteration volumes (`docs/report-schema.md`, "Volumes"; Perf-Taint 4.2–4.3).
//!
//! A volume is a sum of distinct *terms*; a term is a product of *factors*; a factor is
//! the label of one loop's exit conditions: one parameter `p`, or several `(a,b)` (an
//! unresolved joint dependency). Constant loops contribute no factor, and constant terms
//! are dropped, so the constant volume is the empty sum (printed `"1"`).
//!
//! * Nesting multiplies: a loop with label `x` around a body of volume `B` has volume
//!   `x * B` (every term of `B` times `x`), or just `x` when the body is constant.
//! * Sequencing adds: the volume of a list of loop nests is the union of their terms.
//! * Equal factors become powers (`n*n` = `n^2`); equal terms are kept once.
//!
//! Terms live in a [`Pool`], one `mmap`-backed array that only grows: a [`Poly`] is a
//! range of it. Building a new volume appends the terms it needs at the end and
//! normalizes them in place (sort + dedupe), so nothing allocates from malloc and nothing
//! is freed until the report is done.
//!
//! ## Order (what the report prints)
//!
//! * Factors of a term in registration order: a factor's key is the ascending list of its
//!   parameter bits, compared lexicographically (`a` < `(a,b)` < `b`).
//! * Terms largest first: by degree (number of factors, powers counted) descending;
//!   terms of equal degree in registration order of their factor sequences (the same
//!   key, lexicographically): `m*n*k`, `n^2 + n`, `m + n`, `a + (a,b) + b`,
//!   `n^2*iters + n^2 + n + iters + algo`.
//!
//! Limits (both reported through [`Pool::approximate`]): a term keeps at most
//! [`MAX_FACTORS`] distinct factors (a further one is merged into the last, as a joint
//! factor), and a volume at most [`MAX_TERMS`] terms (the largest are kept).

use core::cmp::Ordering::{self, Equal, Greater, Less};

use taintprof_abi::Label;
use taintprof_sigsafe::MmapVec;

/// Distinct factors one term can hold.
pub const MAX_FACTORS: usize = 12;
/// Terms one volume can hold.
pub const MAX_TERMS: usize = 256;

/// One factor of a term: a loop label raised to a power.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Factor {
    pub label: Label,
    pub exp: u16,
}

/// A product of factors (unused slots are all zero, so `==` is term equality).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    n: u8,
    f: [Factor; MAX_FACTORS],
}

/// Factor order: the ascending lists of set bits, lexicographically (a prefix first).
pub fn cmp_label(a: Label, b: Label) -> Ordering {
    let (mut x, mut y) = (a, b);
    loop {
        match (x == 0, y == 0) {
            (true, true) => return Equal,
            (true, false) => return Less,
            (false, true) => return Greater,
            _ => {}
        }
        let (bx, by) = (x.trailing_zeros(), y.trailing_zeros());
        if bx != by {
            return bx.cmp(&by);
        }
        x &= x - 1;
        y &= y - 1;
    }
}

impl Term {
    /// The constant term (no factor).
    pub const ONE: Term = Term {
        n: 0,
        f: [Factor { label: 0, exp: 0 }; MAX_FACTORS],
    };

    /// The term of one loop with label `l` (constant when `l` is empty).
    pub fn single(l: Label) -> Term {
        let mut t = Term::ONE;
        t.mul(l);
        t
    }

    pub fn factors(&self) -> &[Factor] {
        self.f.get(..self.n as usize).unwrap_or(&[])
    }

    pub fn is_one(&self) -> bool {
        self.n == 0
    }

    /// Number of factors, powers counted.
    pub fn degree(&self) -> u32 {
        self.factors().iter().map(|f| f.exp as u32).sum()
    }

    /// Union of the labels of the factors.
    pub fn label(&self) -> Label {
        self.factors().iter().fold(0, |a, f| a | f.label)
    }

    /// Multiplies by a loop with label `l` (a no-op for a constant loop). Returns false
    /// when the term had no room and `l` was merged into its last factor.
    pub fn mul(&mut self, l: Label) -> bool {
        if l == 0 {
            return true;
        }
        let n = self.n as usize;
        let mut at = n;
        for (i, f) in self.factors().iter().enumerate() {
            match cmp_label(f.label, l) {
                Equal => {
                    if let Some(g) = self.f.get_mut(i) {
                        g.exp = g.exp.saturating_add(1);
                    }
                    return true;
                }
                Greater => {
                    at = i;
                    break;
                }
                Less => {}
            }
        }
        if n < MAX_FACTORS {
            // Shift [at, n) one slot right, then insert.
            let mut i = n;
            while i > at {
                let prev = self.f.get(i - 1).copied().unwrap_or_default();
                if let Some(slot) = self.f.get_mut(i) {
                    *slot = prev;
                }
                i -= 1;
            }
            if let Some(slot) = self.f.get_mut(at) {
                *slot = Factor { label: l, exp: 1 };
            }
            self.n += 1;
            return true;
        }
        // Full: merge into the last factor (a joint factor over-approximates both).
        if let Some(last) = self.f.get_mut(n - 1) {
            last.label |= l;
        }
        self.renormalize();
        false
    }

    /// Re-sorts the factors and merges equal labels (after a merge changed a label).
    fn renormalize(&mut self) {
        let n = self.n as usize;
        if let Some(s) = self.f.get_mut(..n) {
            s.sort_unstable_by(|a, b| cmp_label(a.label, b.label));
        }
        let mut w = 0usize;
        for r in 0..n {
            let cur = self.f.get(r).copied().unwrap_or_default();
            if w > 0 {
                if let Some(prev) = self.f.get_mut(w - 1) {
                    if prev.label == cur.label {
                        prev.exp = prev.exp.saturating_add(cur.exp);
                        continue;
                    }
                }
            }
            if let Some(slot) = self.f.get_mut(w) {
                *slot = cur;
            }
            w += 1;
        }
        for slot in self.f.iter_mut().skip(w) {
            *slot = Factor::default();
        }
        self.n = w as u8;
    }
}

/// Print order of terms: `Less` = printed first (largest first, see the module docs).
pub fn cmp_terms(a: &Term, b: &Term) -> Ordering {
    let (da, db) = (a.degree(), b.degree());
    if da != db {
        return db.cmp(&da);
    }
    // Walk both expanded factor sequences (equal length) in step.
    let (mut i, mut ui, mut j, mut uj) = (0usize, 0u16, 0usize, 0u16);
    let (fa, fb) = (a.factors(), b.factors());
    loop {
        let (Some(x), Some(y)) = (fa.get(i), fb.get(j)) else {
            return Equal;
        };
        let c = cmp_label(x.label, y.label);
        if c != Equal {
            return c;
        }
        ui += 1;
        uj += 1;
        if ui >= x.exp {
            i += 1;
            ui = 0;
        }
        if uj >= y.exp {
            j += 1;
            uj = 0;
        }
    }
}

/// A volume: a range of the pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Poly {
    pub start: u32,
    pub len: u32,
}

/// All terms of a report (see the module docs).
#[derive(Default)]
pub struct Pool {
    terms: MmapVec<Term>,
    /// Out of memory: some volumes are incomplete.
    pub failed: bool,
    /// A term or a volume hit its size limit (see the module docs).
    pub approximate: bool,
}

impl Pool {
    pub fn new() -> Self {
        Pool::default()
    }

    pub fn terms(&self, p: Poly) -> &[Term] {
        self.terms
            .as_slice()
            .get(p.start as usize..(p.start as usize).saturating_add(p.len as usize))
            .unwrap_or(&[])
    }

    /// Where the next volume being built starts.
    pub fn mark(&self) -> usize {
        self.terms.len()
    }

    pub fn push(&mut self, t: Term) {
        if !t.is_one() {
            self.failed |= !self.terms.push(t);
        }
    }

    /// Appends a copy of `p`'s terms (a union, once [`Pool::finish`]ed).
    pub fn append(&mut self, p: Poly) {
        for i in p.start as usize..(p.start as usize).saturating_add(p.len as usize) {
            if let Some(t) = self.terms.as_slice().get(i).copied() {
                self.push(t);
            }
        }
    }

    /// Multiplies every term from `start` on by a loop with label `l`.
    pub fn mul_from(&mut self, start: usize, l: Label) {
        if l == 0 {
            return;
        }
        let mut approx = false;
        if let Some(s) = self.terms.as_mut_slice().get_mut(start..) {
            for t in s {
                approx |= !t.mul(l);
            }
        }
        self.approximate |= approx;
    }

    /// Normalizes the terms from `start` on (sort, dedupe, drop constants, cap) into a
    /// volume.
    pub fn finish(&mut self, start: usize) -> Poly {
        let mut w = start;
        if let Some(s) = self.terms.as_mut_slice().get_mut(start..) {
            s.sort_unstable_by(cmp_terms);
            let mut k = 0usize;
            for r in 0..s.len() {
                let cur = s.get(r).copied();
                let Some(cur) = cur else { break };
                if cur.is_one() {
                    continue;
                }
                if k > 0 && s.get(k - 1) == Some(&cur) {
                    continue;
                }
                if let Some(slot) = s.get_mut(k) {
                    *slot = cur;
                }
                k += 1;
            }
            if k > MAX_TERMS {
                k = MAX_TERMS;
                self.approximate = true;
            }
            w = start + k;
        }
        self.terms.truncate(w);
        Poly {
            start: start as u32,
            len: (w - start) as u32,
        }
    }

    /// The union of `polys`, as a new volume.
    pub fn union(&mut self, polys: impl Iterator<Item = Poly>) -> Poly {
        let start = self.mark();
        for p in polys {
            self.append(p);
        }
        self.finish(start)
    }
}

/// `mult[a]` has bit `b` set when parameters `a` and `b` occur in one term.
pub fn multiplicative_pairs(terms: &[Term]) -> [Label; 16] {
    let mut mult = [0 as Label; 16];
    for t in terms {
        let l = t.label();
        for (a, m) in mult.iter_mut().enumerate() {
            if l & (1 << a) != 0 {
                *m |= l;
            }
        }
    }
    mult
}

/// Writes a volume (`"1"` when it has no term) through `put`, naming parameter bits
/// with `name`.
pub fn format(
    terms: &[Term],
    mut name: impl FnMut(u32, &mut dyn FnMut(&[u8])),
    put: &mut dyn FnMut(&[u8]),
) {
    if terms.is_empty() {
        put(b"1");
        return;
    }
    for (ti, t) in terms.iter().enumerate() {
        if ti > 0 {
            put(b" + ");
        }
        for (fi, f) in t.factors().iter().enumerate() {
            if fi > 0 {
                put(b"*");
            }
            let joint = f.label.count_ones() > 1;
            if joint {
                put(b"(");
            }
            let mut first = true;
            for bit in 0..16u32 {
                if f.label & (1 << bit) != 0 {
                    if !first {
                        put(b",");
                    }
                    first = false;
                    name(bit, put);
                }
            }
            if joint {
                put(b")");
            }
            if f.exp > 1 {
                let mut buf = [0u8; 20];
                put(b"^");
                put(taintprof_sigsafe::json::fmt_u64(f.exp as u64, &mut buf));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Label = 1;
    const B: Label = 2;
    const C: Label = 4;

    fn show(pool: &Pool, p: Poly) -> String {
        let names = ["a", "b", "c", "d"];
        let mut out = Vec::new();
        format(
            pool.terms(p),
            |bit, put| put(names.get(bit as usize).unwrap_or(&"?").as_bytes()),
            &mut |b| out.extend_from_slice(b),
        );
        String::from_utf8(out).unwrap()
    }

    fn poly(pool: &mut Pool, terms: &[&[Label]]) -> Poly {
        let s = pool.mark();
        for t in terms {
            let mut x = Term::ONE;
            for &l in *t {
                x.mul(l);
            }
            pool.push(x);
        }
        pool.finish(s)
    }

    #[test]
    fn factor_and_term_order_follow_the_schema_examples() {
        assert_eq!(cmp_label(A, A | B), Less);
        assert_eq!(cmp_label(A | B, B), Less);
        let mut p = Pool::new();
        let x = poly(&mut p, &[&[A], &[B], &[A | B]]);
        assert_eq!(show(&p, x), "a + (a,b) + b");
        let y = poly(&mut p, &[&[B], &[B, B]]);
        assert_eq!(show(&p, y), "b^2 + b");
        let z = poly(&mut p, &[&[C, A, B]]);
        assert_eq!(show(&p, z), "a*b*c");
        let e = poly(&mut p, &[&[], &[0]]);
        assert_eq!(show(&p, e), "1");
    }

    #[test]
    fn nesting_multiplies_and_sequencing_dedupes() {
        let mut p = Pool::new();
        let body = poly(&mut p, &[&[B], &[C], &[B]]);
        assert_eq!(body.len, 2);
        let s = p.mark();
        p.append(body);
        p.mul_from(s, A);
        let nest = p.finish(s);
        assert_eq!(show(&p, nest), "a*b + a*c");
        let all = p.union([nest, body, nest].into_iter());
        assert_eq!(show(&p, all), "a*b + a*c + b + c");
        let m = multiplicative_pairs(p.terms(all));
        assert_eq!(m[0], A | B | C);
        assert_eq!(m[1] & C, 0);
    }

    #[test]
    fn limits_are_approximations_not_failures() {
        let mut t = Term::ONE;
        for i in 0..16u16 {
            t.mul(1 << i);
        }
        assert_eq!(t.factors().len(), MAX_FACTORS);
        assert_eq!(t.label(), 0xffff);
        let mut p = Pool::new();
        let s = p.mark();
        for i in 0..(MAX_TERMS as u32 + 50) {
            let mut x = Term::ONE;
            for b in 0..16 {
                if i & (1 << b) != 0 {
                    x.mul(1 << b);
                }
            }
            p.push(x);
        }
        let v = p.finish(s);
        assert_eq!(v.len as usize, MAX_TERMS);
        assert!(p.approximate);
        // Largest first: the kept terms have the highest degrees.
        assert!(p.terms(v).first().unwrap().degree() >= p.terms(v).last().unwrap().degree());
    }
}
