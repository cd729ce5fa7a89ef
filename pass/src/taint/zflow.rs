//! Where a `Z` can travel: which parameters and results of the module's functions may
//! carry labels a loop's back edge gave (`identity.rs`), so that the label ABI moves
//! them only there.
//!
//! `Z = S \ R` (the labels that say *which iteration* a value belongs to) is born in
//! three places only, and moves through magnitude operations:
//!
//! ```text
//!   born:   a PHI in a loop header (its back edge adds no label to R)
//!           a parameter, from the caller's __tp_argz_tls slot
//!           a call's result, from the callee's __tp_retz_tls
//!   moves:  arithmetic, casts, compares, selects, GEPs, PHIs (also through the
//!           condition that picks a join's edge), listed pure calls (`sqrt`)
//!   stops:  loads (memory has one label), identity operations (their S is R),
//!           everything else the pass gives no R of its own
//! ```
//!
//! The analysis runs once per module, before instrumentation, over the prepared
//! functions. A function is *closed* when every use of it is a direct call of its own
//! type in this module (internal linkage): only then are its callers all known, and its
//! parameters carry a `Z` only if some call passes one. Every other function's
//! parameters may. A function's result may carry a `Z` if one of its returns does.
//! Iterated to a fixpoint with a work list (the sets only grow).
//!
//! What the instrumentation does with the answer (`calls.rs`, `mod.rs`):
//! * a caller writes `__tp_argz_tls[k]` for a known callee only where parameter `k` may
//!   carry a `Z` (and the `Z` is not the constant 0);
//! * a callee reads (and clears) only the slots of parameters that may carry one;
//! * a caller reads `__tp_retz_tls` only after a callee whose result may carry one, and
//!   a closed function whose result never does writes no `__tp_retz_tls`.
//!
//! The answers need not match the instrumentation's exactly to be safe: where this
//! analysis says "no", the instrumentation takes `R = S` (every label, as before the
//! identity rule), which over-approximates at identity uses and never drops a label.
//! Callers and callees consult the same table, so the slot protocol stays consistent.

use super::identity::{has_r, is_identity_op};
use crate::abilist::{AbiList, Kind, RetRule};
use crate::callkind::{call_kind, CallKind};
use crate::ir::terminator_condition;
use crate::ir::{self, Ir, V};
use crate::prepare::Prepared;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMLinkage as L;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::{HashMap, HashSet};

/// Which parameters and results may carry a `Z`.
#[derive(Default)]
pub struct ZFlow {
    /// Functions whose every caller is a direct call in this module.
    closed: HashSet<V>,
    /// Per analysed function: whether each parameter may carry a `Z`.
    params: HashMap<V, Vec<bool>>,
    /// Per analysed function: whether its result may carry a `Z`.
    ret: HashMap<V, bool>,
}

/// Whether call `i` certainly runs `f`, a definition this pass instruments, which
/// clears its `Z` argument slots and writes its result's `Z` when asked to: a direct
/// call, of the callee's own type, to a definition no other module can replace.
pub fn instrumented_callee(irb: &Ir, i: V) -> Option<V> {
    let f = ir::called_function(i);
    if f.is_null()
        || !crate::module::should_instrument(irb, f)
        || !matches!(
            ir::linkage(f),
            L::LLVMExternalLinkage | L::LLVMInternalLinkage | L::LLVMPrivateLinkage
        )
    {
        return None;
    }
    // SAFETY: `i` is a live call or invoke and `f` a live function; LLVM casts them.
    let same = unsafe { LLVMGetCalledFunctionType(i) == LLVMGlobalGetValueType(f) };
    same.then_some(f)
}

/// Whether call `i` goes to one of the runtime's wrappers (`__tpw_*`, a listed function
/// redirected by `calls.rs`). They compute their result's label from the argument labels
/// by the function list's rule and never read `__tp_argz_tls`, so a caller writes no
/// `Z` for them (and, with nothing written, has nothing to clear afterwards).
pub fn calls_runtime_wrapper(i: V) -> bool {
    let f = ir::called_function(i);
    !f.is_null() && ir::name_of(f).starts_with(taintprof_abi::WRAPPER_PREFIX)
}

impl ZFlow {
    /// Analyse the module's prepared functions.
    pub fn compute(irb: &Ir, prepared: &[Prepared], list: &AbiList) -> ZFlow {
        let mut z = ZFlow::default();
        let index: HashMap<V, usize> = prepared.iter().enumerate().map(|(k, p)| (p.f, k)).collect();
        for p in prepared {
            let closed = is_closed(irb, p.f);
            if closed {
                z.closed.insert(p.f);
            }
            z.params.insert(p.f, vec![!closed; ir::params(p.f).len()]);
            z.ret.insert(p.f, false);
        }
        // Callers (indices) of each analysed function, to revisit when its result may
        // start carrying a `Z`.
        let mut callers: HashMap<V, Vec<usize>> = HashMap::new();
        for (k, p) in prepared.iter().enumerate() {
            for &blk in &p.an.blocks {
                for i in ir::instructions(blk) {
                    if let Some(g) = known_call(irb, i, &index) {
                        callers.entry(g).or_default().push(k);
                    }
                }
            }
        }
        let mut work: Vec<usize> = (0..prepared.len()).rev().collect();
        let mut queued = vec![true; prepared.len()];
        while let Some(k) = work.pop() {
            queued[k] = false;
            let p = &prepared[k];
            let facts = z.function(irb, p, list, &index);
            let mut wake = Vec::new();
            for (g, arg, carries) in facts.args {
                let v = z.params.get_mut(&g).expect("known callees are analysed");
                if carries && arg < v.len() && !v[arg] {
                    v[arg] = true;
                    wake.push(index[&g]);
                }
            }
            if facts.ret && !z.ret[&p.f] {
                z.ret.insert(p.f, true);
                wake.extend(callers.get(&p.f).into_iter().flatten().copied());
            }
            for w in wake {
                if !queued[w] {
                    queued[w] = true;
                    work.push(w);
                }
            }
        }
        z
    }

    /// Whether parameter `k` of `f` may carry a `Z` (true for functions not analysed).
    pub fn param_may_carry(&self, f: V, k: usize) -> bool {
        self.params
            .get(&f)
            .is_none_or(|v| v.get(k).copied().unwrap_or(true))
    }

    /// Whether the result of `f` may carry a `Z` (true for functions not analysed).
    pub fn result_may_carry(&self, f: V) -> bool {
        self.ret.get(&f).copied().unwrap_or(true)
    }

    /// Whether `f` must write `__tp_retz_tls` at its returns: some caller may read it.
    pub fn writes_result_z(&self, f: V) -> bool {
        !self.closed.contains(&f) || self.result_may_carry(f)
    }

    /// What one function passes on: per call of a known callee and argument, whether
    /// it may carry a `Z`; and whether a return may.
    fn function(&self, irb: &Ir, p: &Prepared, list: &AbiList, index: &HashMap<V, usize>) -> Facts {
        let an = &p.an;
        let params = ir::params(p.f);
        let headers: HashSet<usize> = an.forest.loops.iter().map(|l| l.header).collect();
        let mut mz: HashSet<V> = HashSet::new();
        for (k, a) in params.iter().enumerate() {
            if has_r(ir::type_of(*a)) && self.param_may_carry(p.f, k) {
                mz.insert(*a);
            }
        }
        let insts: Vec<(usize, V)> = an
            .blocks
            .iter()
            .enumerate()
            .flat_map(|(b, &blk)| ir::instructions(blk).into_iter().map(move |i| (b, i)))
            .collect();
        // A join's edge label in `R` comes from the deciding conditions: if any
        // condition may carry a `Z`, every non-header PHI may.
        let mut conds_carry = false;
        loop {
            let before = (mz.len(), conds_carry);
            for &(b, i) in &insts {
                if !mz.contains(&i)
                    && has_r(ir::type_of(i))
                    && self.carries(irb, i, b, &headers, &mz, conds_carry, list, index)
                {
                    mz.insert(i);
                }
                if !conds_carry && is_terminator(i) {
                    conds_carry = terminator_condition(i).is_some_and(|c| mz.contains(&c));
                }
            }
            if (mz.len(), conds_carry) == before {
                break;
            }
        }
        let mut facts = Facts {
            args: Vec::new(),
            ret: false,
        };
        let last = taintprof_abi::MAX_ARG_SLOTS - 1;
        for &(_, i) in &insts {
            match ir::opcode(i) {
                Op::LLVMCall | Op::LLVMInvoke => {
                    let Some(g) = known_call(irb, i, index) else {
                        continue;
                    };
                    let n = (ir::num_call_args(i) as usize).min(last);
                    for k in 0..n {
                        let a = ir::operand(i, k as u32);
                        facts.args.push((g, k, mz.contains(&a)));
                    }
                }
                Op::LLVMRet if ir::num_operands(i) == 1 => {
                    facts.ret |= mz.contains(&ir::operand(i, 0));
                }
                _ => {}
            }
        }
        facts
    }

    /// Whether instruction `i` (in block index `b`) may carry a `Z`, given what may.
    #[allow(clippy::too_many_arguments)]
    fn carries(
        &self,
        irb: &Ir,
        i: V,
        b: usize,
        headers: &HashSet<usize>,
        mz: &HashSet<V>,
        conds_carry: bool,
        list: &AbiList,
        index: &HashMap<V, usize>,
    ) -> bool {
        let any =
            |ops: std::ops::Range<u32>| ops.into_iter().any(|k| mz.contains(&ir::operand(i, k)));
        let op = ir::opcode(i);
        match op {
            Op::LLVMPHI => {
                if headers.contains(&b) || conds_carry {
                    return true;
                }
                // SAFETY: `i` is a live PHI (this match arm).
                let n = unsafe { LLVMCountIncoming(i) };
                // SAFETY: `i` is a live PHI and `k` < its incoming count.
                (0..n).any(|k| mz.contains(&unsafe { LLVMGetIncomingValue(i, k) }))
            }
            Op::LLVMCall | Op::LLVMInvoke => match call_kind(i, list) {
                CallKind::Listed(Kind::Pure, _) => any(0..ir::num_call_args(i)),
                CallKind::Normal => match known_call(irb, i, index) {
                    Some(g) => self.result_may_carry(g),
                    None => true,
                },
                // Runtime wrappers, intrinsics, inline assembly: no `R` of their own.
                _ => false,
            },
            Op::LLVMLoad => false,
            _ if ir::is_binary_op(op) => !is_identity_op(i) && any(0..2),
            _ if ir::is_cast_op(op) => any(0..1),
            Op::LLVMSelect => any(0..3),
            Op::LLVMFNeg | Op::LLVMFreeze => any(0..1),
            Op::LLVMGetElementPtr => any(0..ir::num_operands(i)),
            _ => false,
        }
    }
}

/// Whether a result of a call may carry a `Z` that the caller should read: the call
/// reads `__tp_retz_tls` (a callee of the label ABI, not a runtime wrapper) and the
/// callee is not known to return none.
pub fn reads_result_z(irb: &Ir, z: &ZFlow, i: V, kind: &CallKind, rule: RetRule) -> bool {
    if rule != RetRule::Tls || matches!(kind, CallKind::Listed(..)) {
        return false;
    }
    match instrumented_callee(irb, i) {
        Some(g) => z.result_may_carry(g),
        None => true,
    }
}

/// What [`ZFlow::function`] found.
struct Facts {
    /// (callee, argument index, may carry a `Z`) for each argument of each known call.
    args: Vec<(V, usize, bool)>,
    /// Whether a return may carry a `Z`.
    ret: bool,
}

/// Whether every use of `f` is a direct call of its own type (so all its callers are
/// in this module and known): internal or private linkage, address never taken.
fn is_closed(irb: &Ir, f: V) -> bool {
    if !matches!(
        ir::linkage(f),
        L::LLVMInternalLinkage | L::LLVMPrivateLinkage
    ) {
        return false;
    }
    ir::users(f).into_iter().all(|u| {
        ir::is_instruction(u)
            && matches!(ir::opcode(u), Op::LLVMCall | Op::LLVMInvoke)
            && ir::called_value(u) == f
            && (0..ir::num_call_args(u)).all(|k| ir::operand(u, k) != f)
            && instrumented_callee(irb, u) == Some(f)
    })
}

/// The analysed function call `i` certainly runs, if any.
fn known_call(irb: &Ir, i: V, index: &HashMap<V, usize>) -> Option<V> {
    if !matches!(ir::opcode(i), Op::LLVMCall | Op::LLVMInvoke) {
        return None;
    }
    instrumented_callee(irb, i).filter(|g| index.contains_key(g))
}

fn is_terminator(i: V) -> bool {
    // SAFETY: `i` is a live instruction.
    unsafe { !LLVMIsATerminatorInst(i).is_null() }
}
