//! Explicit control-flow tainting, exactly the rule of `docs/internal/control-flow.md`
//! (with the transitive control dependence and join sets of `crate::cdeps`).
//!
//! * For every decider `P` some rule needs, an `i16` slot `cl(P)` (an alloca zeroed at
//!   entry, stored with the label of `P`'s condition just before `P`'s terminator,
//!   promoted to SSA registers once the function is instrumented): "the label of `P`'s
//!   condition the last time `P` ran in this activation".
//! * `ctrl(B) = entry | OR cl(P), P ∈ CD*(B)`, computed once at the top of each block
//!   that needs it — blocks with stores, memory-writing intrinsics or calls through the
//!   label ABI — and nowhere else. `entry` is `__tp_ctrl_tls` read in the prologue.
//!   Where a dominator's `ctrl(D)` is provably the same prefix, `ctrl(B)` extends it
//!   instead of ORing every slot again (see `Reuse` at the end of this file).
//! * Rule 1: a PHI's incoming shadow from `Q` is ORed with the label of `Q`'s own
//!   condition and the `cl(P)` of [`ControlDeps::edge_deciders`], computed at the end of
//!   `Q` (once per edge).
//! * Rule 2: stores and masked stores that update the value they overwrite
//!   (`memory::updates_itself`) and atomics OR `ctrl(B)` into the labels they write
//!   (`memory.rs`, `calls.rs`); plain overwrites (other stores, scatters, memory
//!   intrinsics, runtime wrappers) OR nothing. An update of a stack slot of this
//!   activation ORs only the decisions made since the slot came alive: its
//!   `lifetime.start`, or a dominating plain overwrite of the whole slot
//!   ([`FnInstr::local_slot_control_label`]).
//! * Rule 3: calls through the label ABI store `ctrl(B)` into `__tp_ctrl_tls`
//!   (`calls.rs`); `ret` ORs `cl(P), P ∈ CD*(B)` — not `entry`.
//!
//! Two refinements of the documented rule, both so that -O0 and -O2 agree:
//! * control dependence is transitive and exception edges do not cut it (`crate::cdeps`);
//! * deciders the optimizer added to run a loop differently (the vectorizer's checks,
//!   the blocks between a vector body and its remainder: `branches::Class::silent`)
//!   contribute no label; they stay in the dependence structure, so the decisions
//!   around them still reach the blocks they control.
//!
//! Cost: after promotion every `cl(P)` is an SSA value (often just the label of the
//! loop's bound, defined before the loop), so a store in a loop body pays one `or` (a
//! splat too for vector stores), a call two TLS stores; blocks without stores, calls or
//! PHIs pay nothing.

use super::memory::updates_itself;
use super::FnInstr;
use crate::cdeps::ControlDeps;
use crate::cfg::{Cfg, DomTree};
use crate::ir::{self, terminator_condition, B, T, V};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::{BTreeSet, HashMap};

/// What [`FnInstr::control_analyze`] decides before the prologue: the dependences,
/// the blocks that need `ctrl(B)`, the deciders that need a slot.
pub type Plan = (ControlDeps, Vec<usize>, BTreeSet<usize>);

/// Per-function state of control-flow tainting.
pub struct Control {
    pub deps: ControlDeps,
    /// Decider block index -> its `cl` slot (alloca).
    slots: HashMap<usize, V>,
    /// Block index -> `ctrl(B)` (`i16`).
    ctrl: HashMap<usize, V>,
    /// (from, to, shadow type) -> edge label.
    edges: HashMap<(usize, usize, T), V>,
    /// (from, to) -> edge label with the condition's `R` (`identity.rs`), where it
    /// differs from the `i16` one.
    redges: HashMap<(usize, usize), V>,
    /// `entry`: the control label at the call site that called this activation.
    entry: V,
    /// The control-label shift (`__tp_ctrl_shift`) and `!(0xffff >> shift)`, the twin
    /// bits' mask, computed in the prologue.
    shift: (V, V),
}

impl Control {
    pub fn slots(&self) -> Vec<V> {
        self.slots.values().copied().collect()
    }

    /// Every cached label value (`ctrl(B)`, edge labels), for redirecting the ones
    /// about to be erased.
    pub(crate) fn for_each_label_mut(&mut self, f: impl Fn(&mut V)) {
        self.ctrl.values_mut().for_each(&f);
        self.edges.values_mut().for_each(&f);
        self.redges.values_mut().for_each(&f);
    }
}

/// The alloca `p` points into, following GEPs and casts (not PHIs or selects).
fn stack_slot(p: V) -> Option<V> {
    let mut v = p;
    for _ in 0..32 {
        if !ir::is_instruction(v) {
            return None;
        }
        match ir::opcode(v) {
            Op::LLVMAlloca => return Some(v),
            Op::LLVMGetElementPtr | Op::LLVMBitCast | Op::LLVMAddrSpaceCast => {
                v = ir::operand(v, 0)
            }
            _ => return None,
        }
    }
    None
}

impl FnInstr<'_> {
    /// Whether instruction `i` writes labels (or passes the control label) so that
    /// its block needs `ctrl(B)`.
    fn needs_ctrl(&self, i: V) -> bool {
        use crate::abilist::Kind;
        use crate::callkind::{call_kind, CallKind};
        use crate::intrinsics::IntrKind;
        match ir::opcode(i) {
            Op::LLVMStore | Op::LLVMAtomicRMW | Op::LLVMAtomicCmpXchg => true,
            Op::LLVMCall | Op::LLVMInvoke => matches!(
                call_kind(i, self.list),
                CallKind::Normal
                    | CallKind::Listed(Kind::Wrap(_), _)
                    | CallKind::Intrinsic(
                        IntrKind::Copy
                            | IntrKind::Set
                            | IntrKind::MaskedStore
                            | IntrKind::MaskedScatter,
                        _
                    )
            ),
            _ => false,
        }
    }

    /// Analyse control dependence and decide which blocks need `ctrl(B)` and which
    /// deciders need a slot (silent ones never do). Runs before the prologue.
    pub(crate) fn control_analyze(&mut self) -> Plan {
        let an = &self.p.an;
        let decider: Vec<bool> = an
            .blocks
            .iter()
            .map(|&b| terminator_condition(ir::terminator(b)).is_some())
            .collect();
        let silent = |p: &usize| self.p.silent.get(*p).copied().unwrap_or(false);
        let deps = ControlDeps::new(&an.cfg, &an.pdom, decider);
        let rpo = an.cfg.reverse_post_order();
        let all_preds = an.cfg.preds();
        let mut needy = Vec::new();
        let mut need: BTreeSet<usize> = BTreeSet::new();
        for &b in &rpo {
            let bb = an.blocks[b];
            let insts = ir::instructions(bb);
            if insts.iter().any(|&i| self.needs_ctrl(i)) {
                needy.push(b);
                need.extend(deps.cd[b].iter().filter(|p| !silent(p)));
            }
            let t = ir::terminator(bb);
            if ir::opcode(t) == Op::LLVMRet && ir::num_operands(t) == 1 {
                need.extend(deps.cd[b].iter().filter(|p| !silent(p)));
            }
            // The recursion loop reads the deciders of the recursive calls at every ret.
            if self
                .p
                .recursion
                .as_ref()
                .is_some_and(|r| r.call_blocks.binary_search(&b).is_ok())
            {
                need.extend(deps.cd[b].iter().filter(|p| !silent(p)));
            }
            if insts.first().is_some_and(|&i| ir::is_phi(i)) {
                let mut preds: Vec<usize> = all_preds[b]
                    .iter()
                    .copied()
                    .filter(|&q| an.dom.contains(q))
                    .collect();
                preds.sort_unstable();
                preds.dedup();
                for q in preds {
                    let ps = deps.edge_deciders(q, b, &an.dom, &an.forest);
                    need.extend(ps.iter().filter(|p| !silent(p)));
                }
            }
        }
        (deps, needy, need)
    }

    /// Prologue part: the slots, as allocas at the builder position (the top of the
    /// entry block); the prologue zeroes them after the leading allocas.
    pub(crate) fn control_make_slots(&mut self, need: &BTreeSet<usize>) -> HashMap<usize, V> {
        let ir = self.ir;
        need.iter().map(|&p| (p, ir.alloca(ir.i16))).collect()
    }

    /// Install the analysis and the slots; then, with `entry` (the control label at the
    /// call site that called us), compute `ctrl(B)` at the top
    /// of every block that needs it.
    pub(crate) fn control_install(
        &mut self,
        deps: ControlDeps,
        slots: HashMap<usize, V>,
        entry: V,
        shift: (V, V),
        needy: &[usize],
    ) {
        self.stats.control_slots += slots.len();
        self.cf = Some(Control {
            deps,
            slots,
            ctrl: HashMap::new(),
            edges: HashMap::new(),
            redges: HashMap::new(),
            entry,
            shift,
        });
        // The entry block first, at the end of the prologue (its top holds allocas);
        // `needy` is in reverse post-order, so dominators come before what they
        // dominate and their `ctrl` can be reused.
        let mut order: Vec<usize> = needy.to_vec();
        order.sort_by_key(|&b| b != 0);
        let mut reuse = Reuse::new(&self.p.an.cfg);
        for b in order {
            let bb = self.p.an.blocks[b];
            if b != 0 {
                self.ir.at_start(bb);
            }
            let cf = self.cf.as_ref().unwrap();
            let slotted = |p: &usize| cf.slots.contains_key(p);
            let cds: Vec<usize> = cf.deps.cd[b].iter().copied().filter(slotted).collect();
            let base = reuse.base(b, &cds, &self.p.an.dom, cf);
            let (mut c, rest) = match base {
                Some((c, dcd)) => {
                    self.stats.control_reused += 1;
                    (
                        c,
                        cds.iter()
                            .copied()
                            .filter(|p| dcd.binary_search(p).is_err())
                            .collect(),
                    )
                }
                None => (entry, cds),
            };
            for p in rest {
                let l = self.cl_load(p);
                c = self.ir.or(c, l);
            }
            self.cf.as_mut().unwrap().ctrl.insert(b, c);
        }
    }

    /// Load `cl(p)` at the builder position (0 if `p` has no slot: no rule needed it,
    /// or `p` is silent).
    fn cl_load(&self, p: usize) -> V {
        let cf = self.cf.as_ref().expect("control flow on");
        match cf.slots.get(&p) {
            Some(&s) => self.ir.load(self.ir.i16, s, 2),
            None => self.ir.c16(0),
        }
    }

    /// `ctrl(B)` for block `b` (ORed into every label written in `b`, stored into
    /// `__tp_ctrl_tls` before calls). `None` when control-flow tainting is off.
    pub(crate) fn block_control_label(&self, b: B) -> Option<V> {
        let cf = self.cf.as_ref()?;
        let idx = self.p.an.index.get(&b)?;
        cf.ctrl.get(idx).copied()
    }

    /// Rule 2 for an update through `ptr` in block `b`, when `ptr` points into a stack slot
    /// of this activation (an alloca, through GEPs and casts): `OR cl(P)` for `P ∈ CD*(b)`
    /// minus the deciders that also control where the slot comes alive. The slot cannot
    /// outlive the activation (nor, with `lifetime.start` inside a loop, one iteration),
    /// so its readers all run inside those regions: the same reason SSA values do not
    /// take the labels of the regions that enclose them. An address-taken local thus
    /// behaves like the register it would be without `&` (and `-O0`, where the slot
    /// lives in the callee, agrees with `-O2`, where inlining put it into the caller's
    /// loop). `None` if `ptr` is not such a slot (the full `ctrl(B)` applies).
    pub(crate) fn local_slot_control_label(&self, update: V, ptr: V) -> Option<V> {
        let b = ir::block_of(update);
        let cf = self.cf.as_ref()?;
        let slot = stack_slot(ptr)?;
        let an = &self.p.an;
        let idx = *an.index.get(&b)?;
        // Deciders that control every point where the slot comes alive (lifetime.start,
        // else the entry block, which no decider controls).
        let mut births = Vec::new();
        for user in ir::users(slot) {
            if ir::is_instruction(user)
                && ir::opcode(user) == Op::LLVMCall
                && ir::name_of(ir::called_function(user)).starts_with("llvm.lifetime.start")
            {
                births.push(ir::block_of(user));
            }
        }
        let mut enclosing: Option<BTreeSet<usize>> = None;
        for lb in births {
            let set: BTreeSet<usize> = match an.index.get(&lb) {
                Some(&l) => cf.deps.cd[l].iter().copied().collect(),
                None => BTreeSet::new(), // unreachable block: be conservative
            };
            enclosing = Some(match enclosing {
                None => set,
                Some(e) => e.intersection(&set).copied().collect(),
            });
        }
        let mut enclosing = enclosing.unwrap_or_default();
        // A plain overwrite of the whole slot that dominates the update is a birth too:
        // what the slot held before it no longer matters (`uint64_t seed = 1070;` in a
        // loop body, then `seed = next(seed)`; -O0 has no lifetime markers).
        if let Some(d) = self.rebirth_before(slot, update) {
            enclosing.extend(cf.deps.cd[d].iter().copied());
        }
        let mut c = self.ir.c16(0);
        for &p in &cf.deps.cd[idx] {
            if !enclosing.contains(&p) {
                let l = self.cl_load(p);
                c = self.ir.or(c, l);
            }
        }
        Some(c)
    }

    /// A control label as it joins a value: `(c << s) | (c & hi)` with the runtime's
    /// shift `s` and `hi = !(0xffff >> s)` (both read in the prologue): with the split
    /// on (`s` = 8) every parameter in `c` lands on its twin bit, so that a value's label
    /// tells the parameters it got through data (low byte) from those it got through a
    /// decision (high byte); with `s` = 0 this is `c`. Idempotent, and it distributes
    /// over `or` (the shim's loop clean-up relies on both). Emitted at the builder's
    /// position.
    pub(crate) fn to_control(&self, c: V) -> V {
        let Some(cf) = self.cf.as_ref() else {
            return c;
        };
        if ir::is_zero_const(c) || !self.cfg.split {
            return c;
        }
        let ir = self.ir;
        let (s, hi) = cf.shift;
        ir.or(ir.shl(c, s), ir.and(c, hi))
    }

    /// The block index of the nearest plain store that overwrites all of `slot` (an
    /// alloca) and dominates instruction `update`.
    fn rebirth_before(&self, slot: V, update: V) -> Option<usize> {
        let b = ir::block_of(update);
        let an = &self.p.an;
        let bi = *an.index.get(&b)?;
        // SAFETY: `slot` is a live alloca: the only caller gets it from `stack_slot`.
        let size = self.ir.alloc_size(unsafe { LLVMGetAllocatedType(slot) });
        let mut best: Option<(usize, usize)> = None; // (dominator depth, block)
        for user in ir::users(slot) {
            if !ir::is_instruction(user)
                || ir::opcode(user) != Op::LLVMStore
                || ir::operand(user, 1) != slot
            {
                continue;
            }
            let v = ir::operand(user, 0);
            if self.ir.store_size(ir::type_of(v)) != size
                || (updates_itself(v, slot) && !super::identity::is_identity_value(v))
            {
                continue;
            }
            let Some(&d) = an.index.get(&ir::block_of(user)) else {
                continue;
            };
            let before = if d == bi {
                let mut x = ir::next_instruction(user);
                while !x.is_null() && x != update {
                    x = ir::next_instruction(x);
                }
                !x.is_null()
            } else {
                an.dom.dominates(d, bi)
            };
            if !before {
                continue;
            }
            let depth = {
                let mut k = 0;
                let mut x = d;
                while let Some(Some(p)) = an.dom.idom.get(x) {
                    k += 1;
                    x = *p;
                }
                k
            };
            if best.is_none_or(|(bd, _)| depth > bd) {
                best = Some((depth, d));
            }
        }
        best.map(|x| x.1)
    }

    /// The label `ret` in block `b` adds to the returned value: `OR cl(P), P ∈ CD*(b)`
    /// (the function's own decisions; the caller already knows `entry`). Emitted at the
    /// builder position.
    pub(crate) fn ret_control_label(&self, b: B) -> Option<V> {
        let cf = self.cf.as_ref()?;
        let idx = *self.p.an.index.get(&b)?;
        let mut c = self.ir.c16(0);
        for &p in &cf.deps.cd[idx] {
            let l = self.cl_load(p);
            c = self.ir.or(c, l);
        }
        Some(c)
    }

    /// The recursion loop's label, emitted at the builder position: `OR cl(P)` for the
    /// deciders `P ∈ CD*(B)` of the blocks `B` in `blocks` (each slot once). When no
    /// decider with a slot controls them (every recursive call of this function is
    /// unconditional: another function of the cycle decides, `a() { if (x) b(); }
    /// b() { a(); }`), `entry`: the decisions that led to this call, the cycle's
    /// included (over-approximated by the caller's enclosing ones). `None` when
    /// control-flow tainting is off.
    pub(crate) fn recursion_label(&self, blocks: &[usize]) -> Option<V> {
        let cf = self.cf.as_ref()?;
        let mut ps: BTreeSet<usize> = BTreeSet::new();
        for &b in blocks {
            ps.extend(cf.deps.cd[b].iter().copied());
        }
        ps.retain(|p| cf.slots.contains_key(p));
        if ps.is_empty() {
            return Some(cf.entry);
        }
        let mut c = self.ir.c16(0);
        for p in ps {
            let l = self.cl_load(p);
            c = self.ir.or(c, l);
        }
        Some(c)
    }

    /// Rule 1: the extra label of the CFG edge `from -> to`, in shadow type `st`,
    /// emitted at the end of `from` once per edge and type.
    pub(crate) fn edge_label(&mut self, from: B, to: B, st: T) -> Result<Option<V>, String> {
        if self.cf.is_none() {
            return Ok(None);
        }
        let an = &self.p.an;
        let (Some(&q), Some(&j)) = (an.index.get(&from), an.index.get(&to)) else {
            return Ok(None);
        };
        if let Some(&v) = self.cf.as_ref().unwrap().edges.get(&(q, j, st)) {
            return Ok(Some(v));
        }
        let scalar = match self.cf.as_ref().unwrap().edges.get(&(q, j, self.ir.i16)) {
            Some(&v) => v,
            None => {
                let e = self.edge_label_with(q, j, false)?;
                let i16t = self.ir.i16;
                self.cf.as_mut().unwrap().edges.insert((q, j, i16t), e);
                e
            }
        };
        self.ir.at_end(from);
        let v = self.adapt(scalar, st);
        self.cf.as_mut().unwrap().edges.insert((q, j, st), v);
        Ok(Some(v))
    }

    /// The edge label of `from -> to` (`i16`) with the `R` of the deciding condition
    /// (`identity.rs`): the same value as [`Self::edge_label`] where that `R` is its
    /// shadow.
    pub(crate) fn edge_label_r(&mut self, from: B, to: B) -> Result<Option<V>, String> {
        if self.cf.is_none() {
            return Ok(None);
        }
        let an = &self.p.an;
        let (Some(&q), Some(&j)) = (an.index.get(&from), an.index.get(&to)) else {
            return Ok(None);
        };
        // The same label as Rule 1's unless the edge's condition or a dominating
        // decider's has an `R` of its own.
        let mut conds: Vec<V> = terminator_condition(ir::terminator(from))
            .into_iter()
            .collect();
        {
            let cf = self.cf.as_ref().unwrap();
            for p in cf.deps.edge_deciders(q, j, &an.dom, &an.forest) {
                if an.dom.dominates(p, q) {
                    conds.extend(terminator_condition(ir::terminator(an.blocks[p])));
                }
            }
        }
        let mut same = true;
        for c in conds {
            if self.rlabel_differs(c)? {
                same = false;
                break;
            }
        }
        if same {
            return self.edge_label(from, to, self.ir.i16);
        }
        if let Some(&v) = self.cf.as_ref().unwrap().redges.get(&(q, j)) {
            return Ok(Some(v));
        }
        let e = self.edge_label_with(q, j, true)?;
        self.cf.as_mut().unwrap().redges.insert((q, j), e);
        Ok(Some(e))
    }

    /// Emit the `i16` label of edge `q -> j` at the end of `q`: its condition's label
    /// (`R` of it if `r`) and the `cl` of the deciders Rule 1 names.
    fn edge_label_with(&mut self, q: usize, j: usize, r: bool) -> Result<V, String> {
        let an = &self.p.an;
        let from = an.blocks[q];
        let ps = {
            let cf = self.cf.as_ref().unwrap();
            cf.deps.edge_deciders(q, j, &an.dom, &an.forest)
        };
        let t = ir::terminator(from);
        self.ir.at_end(from);
        let silent = self.p.silent.get(q).copied().unwrap_or(false);
        // A check whose other side ends the program decides nothing here
        // (`Cfg::mark_program_ends`): only a block with two ways on does.
        let mut ways_on: Vec<usize> = an.cfg.succs[q]
            .iter()
            .copied()
            .filter(|&s| !an.cfg.ends_program.contains(&(q, s)))
            .collect();
        ways_on.sort_unstable();
        ways_on.dedup();
        let decides = ways_on.len() > 1;
        let mut e = match terminator_condition(t) {
            Some(c) if !silent && decides && r => self.rlabel_at(c, from)?,
            Some(c) if !silent && decides => self.label(c)?,
            _ => self.ir.c16(0),
        };
        for p in ps {
            // With `r`, a decider that dominates the edge gives the `R` of its
            // condition, which is available here; others give their `cl` slot.
            let cond = terminator_condition(ir::terminator(an.blocks[p]));
            let l = match cond {
                Some(c) if r && an.dom.dominates(p, q) => self.rlabel_at(c, from)?,
                _ => self.cl_load(p),
            };
            e = self.ir.or(e, l);
        }
        Ok(self.to_control(e))
    }

    /// Store `cl(P)` for every slot: the label of `P`'s condition, just before `P`'s
    /// terminator (after everything else the block computes).
    pub(crate) fn control_store_slots(&mut self) -> Result<(), String> {
        let Some(cf) = self.cf.as_ref() else {
            return Ok(());
        };
        let mut slots: Vec<(usize, V)> = cf.slots.iter().map(|(&p, &s)| (p, s)).collect();
        slots.sort_unstable_by_key(|x| x.0);
        for (p, s) in slots {
            let t = ir::terminator(self.p.an.blocks[p]);
            let c = terminator_condition(t).expect("slots belong to deciders");
            let l = self.label(c)?;
            self.ir.before(t);
            self.ir.store(l, s, 2);
        }
        Ok(())
    }
}

/// Sharing `ctrl(B)` with a dominator. `ctrl(B) = entry | OR cl(P), P ∈ CD*(B)` reads
/// each slot at the top of `B`. A dominator `D` whose `ctrl(D)` is already computed
/// read the slots of `CD*(D)` at its own top; those reads are the values `B` would read
/// when no path from the top of `D` to the top of `B` stores any of those slots, i.e.
/// runs the terminator of a decider in `CD*(D)` (`D` itself included; such a path
/// never re-enters `D`, since every run of `B` is preceded by a last run of `D`). If
/// also `CD*(D) ⊆ CD*(B)`, then `ctrl(B) = ctrl(D) | OR cl(P), P ∈ CD*(B) \ CD*(D)`,
/// the same label with fewer `or`s. In a large interpreter loop (SQLite's
/// `sqlite3VdbeExec`) most blocks depend on some hundred deciders and this is the
/// difference between some 400,000 `or`s and a few per block.
struct Reuse<'a> {
    cfg: &'a Cfg,
    preds: Vec<Vec<usize>>,
    /// Per dominator tried: the blocks reachable from its successors without entering
    /// it (shared by every block it dominates).
    fwd: HashMap<usize, Vec<bool>>,
    /// Graph steps left for the searches, so that huge functions stay cheap to
    /// compile; when it runs out every block ORs its full set, as before.
    budget: usize,
}

/// How many dominators up from `B` are tried.
const REUSE_TRIES: usize = 4;
/// Search steps per function (some 0.1 s at worst).
const REUSE_BUDGET: usize = 100_000_000;
/// Bytes of remembered forward sets.
const REUSE_MEMO_BYTES: usize = 64 << 20;

impl<'a> Reuse<'a> {
    fn new(cfg: &'a Cfg) -> Reuse<'a> {
        Reuse {
            cfg,
            preds: cfg.preds(),
            fwd: HashMap::new(),
            budget: REUSE_BUDGET,
        }
    }

    /// The nearest usable dominator of `b`: its `ctrl` and slotted `CD*`.
    fn base(
        &mut self,
        b: usize,
        cds: &[usize],
        dom: &DomTree,
        cf: &Control,
    ) -> Option<(V, Vec<usize>)> {
        let mut d = b;
        for _ in 0..REUSE_TRIES {
            d = dom.idom.get(d).copied().flatten()?;
            let Some(&c) = cf.ctrl.get(&d) else { continue };
            let dcd: Vec<usize> = cf.deps.cd[d]
                .iter()
                .copied()
                .filter(|p| cf.slots.contains_key(p))
                .collect();
            if !dcd.iter().all(|p| cds.binary_search(p).is_ok()) {
                continue;
            }
            if dcd.is_empty() || !self.stored_between(d, b, &dcd) {
                return Some((c, dcd));
            }
        }
        None
    }

    /// Whether a path from the top of `d` to the top of `b` (not re-entering `d`) may
    /// run the terminator of a block in `deciders` (sorted). `d`'s own terminator
    /// always runs. Conservatively true when the search budget is spent.
    fn stored_between(&mut self, d: usize, b: usize, deciders: &[usize]) -> bool {
        if deciders.binary_search(&d).is_ok() {
            return true;
        }
        let n = self.cfg.len();
        if self.budget < 4 * n {
            return true;
        }
        let mut stack: Vec<usize> = Vec::new();
        let mut steps = n;
        if !self.fwd.contains_key(&d) {
            if (self.fwd.len() + 1) * n > REUSE_MEMO_BYTES {
                self.fwd.clear();
            }
            // Blocks reachable from d's successors without entering d.
            let mut fwd = vec![false; n];
            for &s in &self.cfg.succs[d] {
                if s != d && !fwd[s] {
                    fwd[s] = true;
                    stack.push(s);
                }
            }
            while let Some(x) = stack.pop() {
                steps += 1 + self.cfg.succs[x].len();
                for &s in &self.cfg.succs[x] {
                    if s != d && !fwd[s] {
                        fwd[s] = true;
                        stack.push(s);
                    }
                }
            }
            self.fwd.insert(d, fwd);
        }
        let fwd = &self.fwd[&d];
        // Of those, the blocks from which b is reachable (one edge or more) without
        // entering d: exactly the blocks whose terminators may run in between.
        let mut bwd = vec![false; n];
        for &q in &self.preds[b] {
            if q != d && fwd[q] && !bwd[q] {
                bwd[q] = true;
                stack.push(q);
            }
        }
        let mut hit = false;
        while let Some(x) = stack.pop() {
            steps += 1 + self.preds[x].len();
            if deciders.binary_search(&x).is_ok() {
                hit = true;
                break;
            }
            for &q in &self.preds[x] {
                if q != d && fwd[q] && !bwd[q] {
                    bwd[q] = true;
                    stack.push(q);
                }
            }
        }
        self.budget = self.budget.saturating_sub(steps);
        hit
    }
}
