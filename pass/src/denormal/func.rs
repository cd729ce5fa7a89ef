//! Denormal instrumentation of one function: [`DnFn`], its state, and the order in
//! which it works. Each concern is an `impl DnFn` block of its own module:
//!
//! | module     | concern                                                                |
//! |------------|------------------------------------------------------------------------|
//! | `fastpath` | groups of sites, their fast-path filter, the branch to the cold region |
//! | `cover`    | fast-path coverage: values the filter proves normal, the exact re-test |
//! | `cold`     | cold regions: rematerialization, exact lane masks, per-site code       |
//! | `memcache` | the inline memory cache of loads and stores, in front of their hooks   |
//! | `counters` | this thread's block counters: the function's base, block and inline counts |
//! | `tags`     | SSA tags: on demand, moves, group joins, tag PHIs, inline result tags  |
//! | `calls`    | the call ABI: argument, parameter and return tags                     |
//! | `copies`   | `memcpy`/`memmove` and floats moved as doubles                         |
//! | `objects`  | stack arrays, VLAs, vectors and heap blocks: registration and release  |
//!
//! Order ([`DnFn::run`]): the prologue (tag buffers, the counter pointer, the anchor
//! lazily computed parameter tags go before); every reachable block in reverse
//! post-order, its count first, then instruction by instruction: an instruction that
//! ends a group closes it (test, cold region) and then passes tags if it is a call or
//! a return. Last the tag PHIs are filled, the memory objects registered, the zero tag
//! PHIs removed and the inserted code simplified.

use super::fastpath::{Closed, Open};
use super::memcache::keepregs_allowed;
use super::runtime::DnRuntime;
use super::{DnStats, FnPlan};
use crate::abilist::AbiList;
use crate::callkind::MEMORY_ATTRS;
use crate::ffi;
use crate::ir::{self, Ir, B, V};
use crate::prepare::{inst_error, Prepared};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use std::collections::{HashMap, HashSet};

/// The instrumentation of one function. Its fields are the state the sibling modules'
/// `impl` blocks share.
pub struct DnFn<'a> {
    pub(super) ir: &'a Ir,
    pub(super) rt: &'a DnRuntime,
    pub(super) d: &'a mut super::desc::DnDescs,
    pub(super) stats: &'a mut DnStats,
    pub(super) p: &'a Prepared,
    pub(super) plan: &'a FnPlan,
    pub(super) list: &'a AbiList,
    /// Functions instrumented in this module (their return tag is always written).
    pub(super) instrumented: &'a HashSet<V>,
    pub(super) f: V,
    /// Original instructions of reachable blocks.
    pub(super) live: HashSet<V>,
    /// Original blocks that are unreachable (never split).
    pub(super) unreachable: HashSet<B>,
    /// Lazily computed parameter tags and the call-site check go before this marker
    /// (right after the prologue); it is deleted at the end.
    pub(super) anchor: V,
    /// Where code is being inserted (restored after out-of-line insertions).
    pub(super) pos: V,
    /// Whether the caller stored this function as the callee (`__tp_callee_tls`): the
    /// condition of every parameter tag (calls.rs).
    pub(super) canary: Option<V>,
    /// This function's block counters in this thread's (counters.rs).
    pub(super) counters: Option<V>,
    /// The cold regions' operand and result tag buffers (cold.rs).
    pub(super) bufs: Option<(V, V)>,
    /// Position-independent tags (parameters, call results, tag PHIs, group joins).
    pub(super) ext: HashMap<V, V>,
    pub(super) pending_phis: Vec<(V, V)>,
    pub(super) tag_phis: Vec<V>,
    pub(super) site_group: HashMap<V, usize>,
    pub(super) groups: Vec<Closed>,
    /// Vector join PHIs → (group, cold tag), so that collapsing one (for a call slot
    /// or `ret`) happens in the cold region, not on the fast path.
    pub(super) joins: HashMap<V, (usize, V)>,
    pub(super) collapsed: HashMap<V, V>,
    pub(super) cur: Open,
    /// Stores tested with the group before an earlier store (see `merge_stores`).
    pub(super) merged: HashSet<V>,
    /// Inline-cache misses call the register-preserving hook entries (x86-64 code
    /// without AVX, see [`keepregs_allowed`]).
    pub(super) keepregs: bool,
    /// Fast-path coverage ([`DnFn::cover`], `Config::dn_cover`).
    pub(super) cover_on: bool,
    /// Cold regions go into functions of their own (`Config::dn_outline`).
    pub(super) outline: bool,
    /// The profile tier (`Config::dn_profile`): sites are counted, nothing else. Every
    /// tag is the constant 0, so the tag code the sites would build folds away; calls
    /// and returns pass no tags, copies move none, no memory object is registered.
    pub(super) profile: bool,
    /// The marked-array table's generation, read at the start of the cold region being
    /// emitted when it has memory sites (`mem_probe` uses it).
    pub(super) region_gen: Option<V>,
    /// Panic half way on purpose (`Config::test_panic_in` names this function).
    test_panic: bool,
    pub warnings: Vec<String>,
}

impl<'a> DnFn<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ir: &'a Ir,
        rt: &'a DnRuntime,
        d: &'a mut super::desc::DnDescs,
        stats: &'a mut DnStats,
        p: &'a Prepared,
        plan: &'a FnPlan,
        list: &'a AbiList,
        instrumented: &'a HashSet<V>,
    ) -> DnFn<'a> {
        let f = p.f;
        DnFn {
            ir,
            rt,
            d,
            stats,
            p,
            plan,
            list,
            instrumented,
            f,
            live: HashSet::new(),
            unreachable: HashSet::new(),
            anchor: std::ptr::null_mut(),
            pos: std::ptr::null_mut(),
            canary: None,
            counters: None,
            bufs: None,
            ext: HashMap::new(),
            pending_phis: Vec::new(),
            tag_phis: Vec::new(),
            site_group: HashMap::new(),
            groups: Vec::new(),
            joins: HashMap::new(),
            collapsed: HashMap::new(),
            cur: Open::default(),
            merged: HashSet::new(),
            keepregs: keepregs_allowed(f),
            cover_on: true,
            profile: false,
            outline: false,
            region_gen: None,
            test_panic: false,
            warnings: Vec::new(),
        }
    }

    /// Turn fast-path coverage ([`DnFn::cover`]) on or off.
    pub fn with_cover(mut self, on: bool) -> Self {
        self.cover_on = on;
        self
    }

    /// Outline the cold regions ([`DnFn::outline`]).
    pub fn with_outline(mut self, on: bool) -> Self {
        self.outline = on;
        self
    }

    /// Build the profile tier ([`DnFn::profile`]).
    pub fn with_profile(mut self, on: bool) -> Self {
        self.profile = on;
        self
    }

    /// Panic half way (tag PHIs created, not yet filled) if `name` is this function's
    /// (`TAINTPROF_TEST_PANIC_IN`, `lit/dn-internal-panic.ll`).
    pub fn with_test_panic(mut self, name: Option<&str>) -> Self {
        self.test_panic = name == Some(ir::name_of(self.f).as_str());
        self
    }

    /// Insert before `i` from now on.
    pub(super) fn at(&mut self, i: V) {
        self.pos = i;
        self.ir.before(i);
    }

    /// Insert at the current position again (after inserting elsewhere).
    pub(super) fn restore(&self) {
        self.ir.before(self.pos);
    }

    /// Instrument the function; returns its warnings.
    pub fn run(mut self) -> Result<Vec<String>, String> {
        let rpo = self.p.an.cfg.reverse_post_order();
        let reach: HashSet<usize> = rpo.iter().copied().collect();
        for (n, &b) in self.p.an.blocks.iter().enumerate() {
            if !reach.contains(&n) {
                self.unreachable.insert(b);
            }
        }
        let work: Vec<(B, Vec<V>)> = rpo
            .iter()
            .map(|&b| (self.p.an.blocks[b], ir::instructions(self.p.an.blocks[b])))
            .collect();
        for (_, insts) in &work {
            self.live.extend(insts.iter().copied());
        }
        let originals: HashSet<V> = ir::blocks(self.f)
            .into_iter()
            .flat_map(ir::instructions)
            .collect();
        self.prologue();
        let entry = ir::entry_block(self.f);
        for (b, insts) in &work {
            if let Some(&idx) = self.plan.counters.get(b) {
                let ip = if *b == entry {
                    self.anchor
                } else {
                    ir::first_insertion_point(*b)
                };
                self.at(ip);
                self.count_block(idx);
            }
            for &i in insts {
                self.visit(i)?;
            }
            debug_assert!(self.cur.sites.is_empty());
        }
        // Tag PHIs still have no incoming values here: the body is invalid IR.
        if self.test_panic {
            panic!(
                "TAINTPROF_TEST_PANIC_IN={}: a panic on purpose",
                ir::name_of(self.f)
            );
        }
        self.fill_phis();
        self.memory_objects()?;
        self.remove_zero_phis();
        // SAFETY: `self.anchor` is our `freeze poison` placeholder in the entry block, used
        // only as an insertion point (no uses); erased once, nothing refers to it after.
        unsafe { LLVMInstructionEraseFromParent(self.anchor) };
        let mut ours: Vec<V> = ir::blocks(self.f)
            .into_iter()
            .flat_map(ir::instructions)
            .filter(|i| !originals.contains(i))
            .collect();
        // SAFETY: `ours` lists live instructions we inserted, collected just now; the shim
        // reads `ours.len()` entries.
        let removed = unsafe { ffi::tp_simplify(ours.as_mut_ptr(), ours.len() as u32) };
        self.stats.simplified += removed as usize;
        if self.outline {
            self.outline_cold_regions();
        }
        Ok(self.warnings)
    }

    /// The entry block's additions: tag buffers, the counter pointer, the anchor.
    fn prologue(&mut self) {
        let ir = self.ir;
        // The function now calls hooks and touches thread-local slots: inferred
        // `memory(...)` claims are no longer true.
        for a in MEMORY_ATTRS {
            ir.remove_fn_attr(self.f, a);
        }
        let entry = ir::entry_block(self.f);
        // SAFETY: `entry` is the entry block of the definition `self.f` (denormal module header).
        let mut ip = unsafe { LLVMGetFirstInstruction(entry) };
        if let Some(slots) = self.plan.buffer_slots() {
            self.tag_buffers(ip, slots);
        }
        while !ip.is_null() && ir::opcode(ip) == Op::LLVMAlloca {
            ip = ir::next_instruction(ip);
        }
        if !self.plan.counters.is_empty() {
            self.counter_base(ip);
        }
        self.at(ip);
        self.anchor = ir.freeze(ir.poison(ir.i1));
        self.pos = self.anchor;
    }

    /// Original instruction `i`, in order: it joins the current group, or ends it.
    fn visit(&mut self, i: V) -> Result<(), String> {
        let op = ir::opcode(i);
        if op == Op::LLVMPHI || op == Op::LLVMLandingPad {
            return Ok(());
        }
        let site = self.plan.sites.get(&i);
        if let (Op::LLVMAtomicRMW, Some(s)) = (op, site) {
            // A read-modify-write of FP memory: the old value exists only after it.
            // The group before it ends here; it forms a group of its own, tested right
            // after it (nothing in it is executed again in the cold region).
            let spec = s.spec.clone();
            let next = ir::next_instruction(i);
            self.close_group(i)?;
            self.cur.insts.insert(i);
            self.add_site(i, &spec, i);
            return self.close_group(next);
        }
        if self.ends_group(i, site.map(|s| &s.spec)) {
            if let Some(s) = site {
                if !self.merged.contains(&i) {
                    let spec = s.spec.clone();
                    self.add_site(i, &spec, i);
                    self.merge_stores(i);
                }
            }
            self.close_group(i)?;
            if let Some(&src) = self.plan.pair_copies.get(&i) {
                self.float_pair_copy(i, src);
            }
            self.after_close(i)?;
        } else {
            self.cur.insts.insert(i);
            if let Some(s) = site {
                let spec = s.spec.clone();
                self.add_site(i, &spec, i);
            }
        }
        Ok(())
    }
}

/// A compile error about instruction `i` of function `f` in denormal mode.
pub fn dn_error(f: V, i: V, what: &str) -> String {
    inst_error(
        f,
        i,
        what,
        "Denormal mode cannot instrument this; compile this file with TAINTPROF_MODE=off (it will not be analysed) or avoid the construct",
    )
}
