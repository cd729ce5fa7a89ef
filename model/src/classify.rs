//! What the report concludes from the model: the `summary` (Table 2 of the Perf-Taint
//! paper: which functions and loops are pruned, relevant or never ran), the `coverage`
//! of each parameter (Table 3) and the `recommendation` of the parameter pair and
//! triple that cover the most functions (ports of the same parts of `rt/src/report.rs`).

use crate::tree::Model;

/// Table 2: functions and loops by class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub functions: u64,
    pub f_static: u64,
    pub f_dynamic: u64,
    pub f_relevant: u64,
    pub f_never: u64,
    pub loops: u64,
    pub l_static: u64,
    pub l_constant: u64,
    pub l_relevant: u64,
    pub l_never: u64,
    pub l_folded: u64,
}

pub fn summary(model: &Model<'_>) -> Summary {
    let mut s = Summary {
        functions: model.funcs.len() as u64,
        loops: model.loops.len() as u64,
        ..Summary::default()
    };
    for f in &model.funcs {
        if f.statically_pruned {
            s.f_static += 1;
        } else if !f.executed {
            s.f_never += 1;
        } else if f.incl_label != 0 {
            s.f_relevant += 1;
        } else {
            s.f_dynamic += 1;
        }
    }
    for l in &model.loops {
        if l.folded() {
            s.l_folded += 1;
        } else if l.static_const {
            s.l_static += 1;
        } else if l.executions == 0 {
            s.l_never += 1;
        } else if l.label != 0 {
            s.l_relevant += 1;
        } else {
            s.l_constant += 1;
        }
    }
    s
}

/// Functions (counted by their own loops) and loops that depend on a parameter of `set`.
pub fn coverage(model: &Model<'_>, set: u16) -> (u64, u64) {
    let f = model
        .funcs
        .iter()
        .filter(|g| g.excl_label & set != 0)
        .count();
    let l = model.loops.iter().filter(|g| g.label & set != 0).count();
    (f as u64, l as u64)
}

/// The `k`-subset (k = 2 or 3) of the first `n` parameters covering the most functions
/// (ties: loops, then registration order).
pub fn recommend(model: &Model<'_>, n: u32, k: u32) -> Option<(u16, u64, u64)> {
    let mut best: Option<(u16, u64, u64)> = None;
    let mut consider = |set: u16| {
        let (f, l) = coverage(model, set);
        if best.is_none_or(|(_, bf, bl)| (f, l) > (bf, bl)) {
            best = Some((set, f, l));
        }
    };
    for a in 0..n {
        for b in a + 1..n {
            if k == 2 {
                consider(1 << a | 1 << b);
                continue;
            }
            for c in b + 1..n {
                consider(1 << a | 1 << b | 1 << c);
            }
        }
    }
    best
}
