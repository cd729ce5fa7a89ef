//! Symbolic iteration volumes (`docs/report-schema.md`, "Volumes"; the port of
//! the runtime's former `rt/src/volume.rs`, whose semantics and print order it keeps exactly).
//!
//! A volume is a sum of distinct *terms*; a term is a product of *factors*; a factor is
//! the label of one loop's exit conditions: one parameter, or several `(a,b)` (a joint
//! dependency). Constant loops contribute no factor and constant terms are dropped, so
//! the constant volume is the empty sum (printed `"1"`). Nesting multiplies, sequencing
//! adds (union), equal factors become powers.
//!
//! Order: factors of a term by their ascending bit lists (`a` < `(a,b)` < `b`); terms
//! largest degree first, equal degrees by their factor sequences. Limits (reported as
//! [`Volumes::approximate`]): [`MAX_FACTORS`] distinct factors per term (a further one
//! merges into the last), [`MAX_TERMS`] terms per volume (the largest are kept).
//!
//! Here a volume is an owned, normalized `Vec<Term>` ([`Poly`]); the runtime keeps the
//! same terms in one mmap-backed pool.

use std::cmp::Ordering::{self, Equal, Greater, Less};

/// Distinct factors one term can hold.
pub const MAX_FACTORS: usize = 12;
/// Terms one volume can hold.
pub const MAX_TERMS: usize = 256;

/// One factor of a term: a loop label raised to a power.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Factor {
    pub label: u16,
    pub exp: u16,
}

/// A product of factors (unused slots are all zero, so `==` is term equality).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Term {
    n: u8,
    f: [Factor; MAX_FACTORS],
}

/// A normalized volume: sorted, no duplicates, no constant term.
pub type Poly = Vec<Term>;

/// Factor order: the ascending lists of set bits, lexicographically (a prefix first).
pub fn cmp_label(a: u16, b: u16) -> Ordering {
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
    pub fn single(l: u16) -> Term {
        let mut t = Term::ONE;
        t.mul(l);
        t
    }

    pub fn factors(&self) -> &[Factor] {
        &self.f[..self.n as usize]
    }

    pub fn is_one(&self) -> bool {
        self.n == 0
    }

    /// Number of factors, powers counted.
    pub fn degree(&self) -> u32 {
        self.factors().iter().map(|f| f.exp as u32).sum()
    }

    /// Union of the labels of the factors.
    pub fn label(&self) -> u16 {
        self.factors().iter().fold(0, |a, f| a | f.label)
    }

    /// Multiplies by a loop with label `l` (a no-op for a constant loop). Returns false
    /// when the term had no room and `l` was merged into its last factor.
    pub fn mul(&mut self, l: u16) -> bool {
        if l == 0 {
            return true;
        }
        let n = self.n as usize;
        let mut at = n;
        for i in 0..n {
            match cmp_label(self.f[i].label, l) {
                Equal => {
                    self.f[i].exp = self.f[i].exp.saturating_add(1);
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
            self.f.copy_within(at..n, at + 1);
            self.f[at] = Factor { label: l, exp: 1 };
            self.n += 1;
            return true;
        }
        // Full: merge into the last factor (a joint factor over-approximates both).
        self.f[n - 1].label |= l;
        self.renormalize();
        false
    }

    /// Re-sorts the factors and merges equal labels (after a merge changed a label).
    fn renormalize(&mut self) {
        let n = self.n as usize;
        self.f[..n].sort_unstable_by(|a, b| cmp_label(a.label, b.label));
        let mut w = 0usize;
        for r in 0..n {
            let cur = self.f[r];
            if w > 0 && self.f[w - 1].label == cur.label {
                self.f[w - 1].exp = self.f[w - 1].exp.saturating_add(cur.exp);
                continue;
            }
            self.f[w] = cur;
            w += 1;
        }
        for slot in &mut self.f[w..] {
            *slot = Factor::default();
        }
        self.n = w as u8;
    }
}

/// Print order of terms: `Less` = printed first (largest first).
pub fn cmp_terms(a: &Term, b: &Term) -> Ordering {
    let (da, db) = (a.degree(), b.degree());
    if da != db {
        return db.cmp(&da);
    }
    // Both expanded factor sequences (equal length), in step; lazily: this comparator
    // sorts the unions of millions of contexts, where collecting the sequences into
    // vectors made allocation the analysis' main cost.
    let expand = |t: &Term| {
        let t = *t;
        (0..t.n as usize).flat_map(move |i| std::iter::repeat_n(t.f[i].label, t.f[i].exp as usize))
    };
    for (p, q) in expand(a).zip(expand(b)) {
        let c = cmp_label(p, q);
        if c != Equal {
            return c;
        }
    }
    Equal
}

/// Builds volumes and remembers whether any hit a limit.
#[derive(Debug, Default)]
pub struct Volumes {
    /// A term or a volume hit its size limit.
    pub approximate: bool,
    /// The terms of a union in the making, kept between calls (a model makes millions
    /// of unions; each result is then allocated once, at its size).
    scratch: Vec<Term>,
}

impl Volumes {
    /// Normalizes `terms` (sort, dedupe, drop constants, cap) into a volume.
    pub fn finish(&mut self, mut terms: Vec<Term>) -> Poly {
        self.normalize(&mut terms);
        terms
    }

    /// [`Volumes::finish`] in place.
    fn normalize(&mut self, terms: &mut Vec<Term>) {
        terms.retain(|t| !t.is_one());
        // Equal neighbours (a union of many contexts with one volume) first: the stable
        // sort keeps them neighbours, so the result is the same, with less to sort.
        terms.dedup();
        terms.sort_by(cmp_terms);
        terms.dedup();
        if terms.len() > MAX_TERMS {
            terms.truncate(MAX_TERMS);
            self.approximate = true;
        }
    }

    /// The union of `polys`.
    pub fn union<'a>(&mut self, polys: impl IntoIterator<Item = &'a Poly>) -> Poly {
        let mut v = std::mem::take(&mut self.scratch);
        v.clear();
        for p in polys {
            // A term equal to the one before it goes (see `finish`): the union of the
            // million contexts of one function then stays as small as its result.
            for t in p {
                if v.last() != Some(t) {
                    v.push(*t);
                }
            }
        }
        self.normalize(&mut v);
        let out = v.to_vec();
        self.scratch = v;
        out
    }

    /// The volume of a loop with label `l` around a body of terms `body` (not yet
    /// normalized): `l` times the body, or just `l` when the body is constant.
    pub fn nest(&mut self, body: Vec<Term>, l: u16) -> Poly {
        let mut body = self.finish(body);
        if body.is_empty() {
            // One term, room for one (a first push would make room for four).
            body.reserve_exact(1);
            body.push(Term::single(l));
        } else if l != 0 {
            for t in &mut body {
                self.approximate |= !t.mul(l);
            }
        }
        self.normalize(&mut body);
        // Volumes stay in the model: no spare capacity.
        body.shrink_to_fit();
        body
    }
}

/// `poly` times the term `by` (a product of loop labels), normalized: what a volume per
/// call becomes summed over `by` calls.
pub fn times(v: &mut Volumes, poly: &[Term], by: &Term) -> Poly {
    let base: &[Term] = if poly.is_empty() { &[Term::ONE] } else { poly };
    let terms = base
        .iter()
        .map(|t| {
            let mut t = *t;
            for f in by.factors() {
                for _ in 0..f.exp {
                    t.mul(f.label);
                }
            }
            t
        })
        .collect();
    v.finish(terms)
}

/// `mult[a]` has bit `b` set when parameters `a` and `b` occur in one term.
pub fn multiplicative_pairs(terms: &[Term]) -> [u16; 16] {
    let mut mult = [0u16; 16];
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

/// A volume as text (`"1"` when it has no term), naming parameter bits with `name`.
pub fn format(terms: &[Term], name: impl Fn(u32) -> String) -> String {
    if terms.is_empty() {
        return "1".to_string();
    }
    let mut out = String::new();
    for (ti, t) in terms.iter().enumerate() {
        if ti > 0 {
            out.push_str(" + ");
        }
        for (fi, f) in t.factors().iter().enumerate() {
            if fi > 0 {
                out.push('*');
            }
            let joint = f.label.count_ones() > 1;
            if joint {
                out.push('(');
            }
            let names: Vec<String> = (0..16u32)
                .filter(|b| f.label & (1 << b) != 0)
                .map(&name)
                .collect();
            out.push_str(&names.join(","));
            if joint {
                out.push(')');
            }
            if f.exp > 1 {
                out.push('^');
                out.push_str(&f.exp.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: u16 = 1;
    const B: u16 = 2;
    const C: u16 = 4;

    fn show(p: &[Term]) -> String {
        let names = ["a", "b", "c", "d"];
        format(p, |b| names.get(b as usize).unwrap_or(&"?").to_string())
    }

    fn poly(v: &mut Volumes, terms: &[&[u16]]) -> Poly {
        let ts = terms
            .iter()
            .map(|t| {
                let mut x = Term::ONE;
                for &l in *t {
                    x.mul(l);
                }
                x
            })
            .collect();
        v.finish(ts)
    }

    #[test]
    fn factor_and_term_order_follow_the_schema_examples() {
        assert_eq!(cmp_label(A, A | B), Less);
        assert_eq!(cmp_label(A | B, B), Less);
        let mut v = Volumes::default();
        assert_eq!(
            show(&poly(&mut v, &[&[A], &[B], &[A | B]])),
            "a + (a,b) + b"
        );
        assert_eq!(show(&poly(&mut v, &[&[B], &[B, B]])), "b^2 + b");
        assert_eq!(show(&poly(&mut v, &[&[C, A, B]])), "a*b*c");
        assert_eq!(show(&poly(&mut v, &[&[], &[0]])), "1");
        assert!(!v.approximate);
    }

    #[test]
    fn nesting_multiplies_and_sequencing_dedupes() {
        let mut v = Volumes::default();
        let body = poly(&mut v, &[&[B], &[C], &[B]]);
        assert_eq!(body.len(), 2);
        let nest = v.nest(body.clone(), A);
        assert_eq!(show(&nest), "a*b + a*c");
        let all = v.union([&nest, &body, &nest]);
        assert_eq!(show(&all), "a*b + a*c + b + c");
        let m = multiplicative_pairs(&all);
        assert_eq!(m[0], A | B | C);
        assert_eq!(m[1] & C, 0);
        // A loop around a constant body is its own factor; a constant loop around a
        // body leaves the body.
        assert_eq!(show(&v.nest(Vec::new(), B)), "b");
        assert_eq!(show(&v.nest(body.clone(), 0)), "b + c");
        assert_eq!(show(&v.nest(Vec::new(), 0)), "1");
        // Powers: n around n.
        let n2 = v.nest(v.clone_poly(&[Term::single(A)]), A);
        assert_eq!(show(&n2), "a^2");
    }

    impl Volumes {
        fn clone_poly(&self, p: &[Term]) -> Vec<Term> {
            p.to_vec()
        }
    }

    #[test]
    fn limits_are_approximations_not_failures() {
        let mut t = Term::ONE;
        for i in 0..16u16 {
            t.mul(1 << i);
        }
        assert_eq!(t.factors().len(), MAX_FACTORS);
        assert_eq!(t.label(), 0xffff);
        let mut v = Volumes::default();
        let terms = (0..(MAX_TERMS as u32 + 50))
            .map(|i| {
                let mut x = Term::ONE;
                for b in 0..16 {
                    if i & (1 << b) != 0 {
                        x.mul(1 << b);
                    }
                }
                x
            })
            .collect();
        let p = v.finish(terms);
        assert_eq!(p.len(), MAX_TERMS);
        assert!(v.approximate);
        assert!(p.first().unwrap().degree() >= p.last().unwrap().degree());
    }
}
