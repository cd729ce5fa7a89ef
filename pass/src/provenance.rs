//! The static provenance graph of a function, for `taintprof report --why`.
//!
//! The report says *that* a parameter reaches a loop; this graph lets the driver say
//! *how*: through which branches, stores, calls and loads, at which source positions.
//! It is built from the function's IR before instrumentation and written into the
//! sidecar; the driver joins the graphs of all modules (through memory keys, call sites
//! and registrations) and searches it backwards from the loop (`driver/src/why.rs`).
//!
//! ```text
//!   node = [kind, position, deps]            (deps: node ids of this function)
//!     "load:KEY"    a value read from memory KEY     deps: the address's sources
//!     "call:NAME"   a call's result                   deps: its arguments' sources
//!     "arg:K"       the function's K-th argument
//!     "phi"         a value merged at a join          deps: incoming values, and the
//!                                                     branches that chose the edge
//!     "branch"      a conditional terminator          deps: its condition's sources,
//!                                                     the branches it depends on
//!     "op"          an operation on two or more sources (one with a single source is
//!                   that source: the graph has no chains of arithmetic)
//!   loops  [function, line, column, roots]   roots: the exit tests' branches and the
//!                                            branches the header depends on
//!   stores [KEY, position, deps]             deps: the value, the enclosing branches
//!   calls  [callee, position, [deps of each argument]]
//!   regs   [name, KEY, position]             tp_register_variable and Perf-Taint's form
//!   ret    deps of what the function returns
//! ```
//!
//! A memory KEY names what an address points into: `g:NAME` (a global), `l:N` (the
//! N-th alloca of this function; `l:hN`: what its N-th call returning a pointer
//! returned, `p = malloc(...)`), `*KEY` (a pointer read from memory KEY, two levels
//! deep: `dom.e[i]`), `s:STRUCT` (a struct reached from another pointer) or `?` (a
//! pointer of unknown origin), then `[]` if an index varies, then `+OFFSET` in bytes
//! from that base. The driver matches a load with the stores and registrations of the
//! same key; `?` matches any base, and `s:`/`*` bases that differ match by offset
//! (over-approximations, which the driver marks). The graph is for explanation only:
//! nothing the runtime reports depends on it.
//!
//! Safety: the graph is built from the function being prepared, before
//! instrumentation; every value, block and type the `unsafe` blocks touch is a live
//! handle of the module the pass manager hands us (see the `ir` module header).

use crate::cdeps::ControlDeps;
use crate::debugloc::Namer;
use crate::ir::{self, Ir, B, V};
use crate::json::escape;
use crate::prepare::Prepared;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMOpcode as Op;
use inkwell::llvm_sys::LLVMTypeKind as K;
use std::collections::HashMap;
use std::fmt::Write;

/// The registration functions: (name, argument holding the address, argument holding
/// the parameter's name).
const REGISTRATIONS: &[(&str, u32, u32)] = &[
    ("tp_register_variable", 0, 2),
    ("perf_taint_register_variable", 0, 2),
];

/// A source position: (index into the function-name table, line, column).
type Pos = (u32, u32, u32);

struct Node {
    kind: String,
    pos: Option<Pos>,
    deps: Vec<u32>,
}

/// Builds the graph of one function.
struct Builder<'a> {
    ir: &'a Ir,
    p: &'a Prepared,
    namer: &'a mut Namer,
    /// Direct control dependences of each block (no closure: chains of branch nodes
    /// walk upwards on their own).
    direct: Vec<Vec<usize>>,
    nodes: Vec<Node>,
    /// Sources of a value: node ids (a value with one source is that node).
    memo: HashMap<V, Vec<u32>>,
    /// Branch node of each decider block.
    branch_of: HashMap<usize, u32>,
    /// Nodes whose deps are still to be computed, with the values they depend on and
    /// the decider blocks whose branches they depend on.
    pending: Vec<(u32, Vec<V>, Vec<usize>)>,
    fns: Vec<(String, String)>,
    fn_index: HashMap<(String, String), u32>,
    allocas: HashMap<V, usize>,
    /// Calls that return a pointer (allocations, mostly), numbered in order.
    news: HashMap<V, usize>,
}

/// The graph of function `p.f` as compact JSON. `loops[li]` is the own position
/// (function, line, column) of forest loop `li`, `None` for loops without one.
pub fn function_graph(
    ir: &Ir,
    p: &Prepared,
    namer: &mut Namer,
    loops: &[Option<(String, u32, u32)>],
) -> String {
    let an = &p.an;
    let decider: Vec<bool> = an
        .blocks
        .iter()
        .map(|&b| condition(ir::terminator(b)).is_some())
        .collect();
    let direct = ControlDeps::direct_deps(&an.cfg, &an.pdom, &decider);
    let mut allocas = HashMap::new();
    for (k, i) in ir::instructions(ir::entry_block(p.f))
        .into_iter()
        .enumerate()
    {
        if ir::opcode(i) == Op::LLVMAlloca {
            allocas.insert(i, k);
        }
    }
    let mut news = HashMap::new();
    for &blk in &an.blocks {
        for i in ir::instructions(blk) {
            if matches!(ir::opcode(i), Op::LLVMCall | Op::LLVMInvoke)
                && ir::kind(ir::type_of(i)) == K::LLVMPointerTypeKind
            {
                let k = news.len();
                news.insert(i, k);
            }
        }
    }
    let mut b = Builder {
        ir,
        p,
        namer,
        direct,
        nodes: Vec::new(),
        memo: HashMap::new(),
        branch_of: HashMap::new(),
        pending: Vec::new(),
        fns: Vec::new(),
        fn_index: HashMap::new(),
        allocas,
        news,
    };
    b.build(loops)
}

/// The condition of a conditional terminator (none for a block without one).
fn condition(t: V) -> Option<V> {
    (!t.is_null())
        .then(|| ir::terminator_condition(t))
        .flatten()
}

impl Builder<'_> {
    fn build(&mut self, loops: &[Option<(String, u32, u32)>]) -> String {
        let p = self.p;
        let an = &p.an;
        let mut loop_rows = Vec::new();
        for (li, l) in an.forest.loops.iter().enumerate() {
            let Some(Some((func, line, col))) = loops.get(li) else {
                continue;
            };
            let mut roots = Vec::new();
            for &x in &l.exiting {
                if let Some(n) = self.branch(x) {
                    roots.push(n);
                }
            }
            for &d in &self.direct[l.header].clone() {
                if !l.contains(d) {
                    if let Some(n) = self.branch(d) {
                        roots.push(n);
                    }
                }
            }
            roots.sort_unstable();
            roots.dedup();
            loop_rows.push((func.clone(), *line, *col, roots));
        }
        let mut stores = Vec::new();
        let mut calls = Vec::new();
        let mut regs = Vec::new();
        let mut rets: Vec<u32> = Vec::new();
        for (bi, &blk) in an.blocks.iter().enumerate() {
            for i in ir::instructions(blk) {
                match ir::opcode(i) {
                    Op::LLVMStore => {
                        let mut deps = self.sources(ir::operand(i, 0));
                        deps.extend(self.enclosing_branches(bi));
                        if deps.is_empty() {
                            continue;
                        }
                        deps.sort_unstable();
                        deps.dedup();
                        let key = self.mem_key(ir::operand(i, 1));
                        // -O2 merges stores of both sides of an `if` into one store
                        // without a position: then the value's.
                        let value = ir::operand(i, 0);
                        let pos = match self.pos(i) {
                            None if ir::is_instruction(value) => self.pos(value),
                            p => p,
                        };
                        stores.push((key, pos, deps));
                    }
                    Op::LLVMCall | Op::LLVMInvoke => {
                        let callee = ir::called_function(i);
                        if callee.is_null() || ir::intrinsic_id(callee) != 0 {
                            continue;
                        }
                        let name = ir::name_of(callee);
                        if let Some(&(_, a, n)) = REGISTRATIONS.iter().find(|r| r.0 == name) {
                            if ir::num_call_args(i) > a.max(n) {
                                let key = self.mem_key(ir::operand(i, a));
                                let pname =
                                    const_string(ir::operand(i, n)).unwrap_or_else(|| "?".into());
                                let pos = self.pos(i);
                                regs.push((pname, key, pos));
                            }
                            continue;
                        }
                        let mut args = Vec::new();
                        for k in 0..ir::num_call_args(i) {
                            args.push(self.sources(ir::operand(i, k)));
                        }
                        let pos = self.pos(i);
                        calls.push((name, pos, args));
                    }
                    Op::LLVMRet if ir::num_operands(i) == 1 => {
                        rets.extend(self.sources(ir::operand(i, 0)));
                    }
                    _ => {}
                }
            }
        }
        self.drain();
        rets.sort_unstable();
        rets.dedup();

        let mut s = String::with_capacity(64 * self.nodes.len() + 256);
        s.push_str("{\"fns\":[");
        for (k, (f, file)) in self.fns.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            s.push('[');
            escape(f, &mut s);
            s.push(',');
            escape(file, &mut s);
            s.push(']');
        }
        s.push_str("],\"nodes\":[");
        for (k, n) in self.nodes.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            s.push('[');
            escape(&n.kind, &mut s);
            s.push(',');
            write_pos(&mut s, n.pos);
            s.push(',');
            write_ids(&mut s, &n.deps);
            s.push(']');
        }
        s.push_str("],\"loops\":[");
        for (k, (f, line, col, roots)) in loop_rows.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            s.push('[');
            escape(f, &mut s);
            let _ = write!(s, ",{line},{col},");
            write_ids(&mut s, roots);
            s.push(']');
        }
        s.push_str("],\"stores\":[");
        for (k, (key, pos, deps)) in stores.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            s.push('[');
            escape(key, &mut s);
            s.push(',');
            write_pos(&mut s, *pos);
            s.push(',');
            write_ids(&mut s, deps);
            s.push(']');
        }
        s.push_str("],\"calls\":[");
        for (k, (callee, pos, args)) in calls.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            s.push('[');
            escape(callee, &mut s);
            s.push(',');
            write_pos(&mut s, *pos);
            s.push_str(",[");
            for (j, a) in args.iter().enumerate() {
                if j > 0 {
                    s.push(',');
                }
                write_ids(&mut s, a);
            }
            s.push_str("]]");
        }
        s.push_str("],\"regs\":[");
        for (k, (name, key, pos)) in regs.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            s.push('[');
            escape(name, &mut s);
            s.push(',');
            escape(key, &mut s);
            s.push(',');
            write_pos(&mut s, *pos);
            s.push(']');
        }
        s.push_str("],\"ret\":");
        write_ids(&mut s, &rets);
        s.push('}');
        s
    }

    /// The position of instruction `i`, if it has a debug location.
    fn pos(&mut self, i: V) -> Option<Pos> {
        let loc = self.namer.position(Namer::inst_loc(i))?;
        let key = (loc.function, loc.file);
        let next = self.fns.len() as u32;
        let f = *self.fn_index.entry(key.clone()).or_insert_with(|| {
            self.fns.push(key);
            next
        });
        Some((f, loc.line, loc.column))
    }

    fn node(&mut self, kind: String, at: Option<V>) -> u32 {
        let pos = at.and_then(|i| self.pos(i));
        self.nodes.push(Node {
            kind,
            pos,
            deps: Vec::new(),
        });
        (self.nodes.len() - 1) as u32
    }

    /// The branch node of decider block `b` (created on first use; its deps later).
    fn branch(&mut self, b: usize) -> Option<u32> {
        if let Some(&n) = self.branch_of.get(&b) {
            return Some(n);
        }
        let t = ir::terminator(self.p.an.blocks[b]);
        let c = condition(t)?;
        let n = self.node("branch".into(), Some(t));
        self.branch_of.insert(b, n);
        let up = self.direct[b].clone();
        self.pending.push((n, vec![c], up));
        Some(n)
    }

    /// The branch nodes block `bi` is directly control dependent on.
    fn enclosing_branches(&mut self, bi: usize) -> Vec<u32> {
        let ds = self.direct[bi].clone();
        ds.into_iter().filter_map(|d| self.branch(d)).collect()
    }

    /// Complete the deps of pending nodes (which may create more).
    fn drain(&mut self) {
        while let Some((n, vals, blocks)) = self.pending.pop() {
            let mut deps = Vec::new();
            for v in vals {
                deps.extend(self.sources(v));
            }
            for b in blocks {
                if let Some(x) = self.branch(b) {
                    deps.push(x);
                }
            }
            deps.sort_unstable();
            deps.dedup();
            deps.retain(|&d| d != n);
            self.nodes[n as usize].deps = deps;
        }
    }

    /// The sources of value `v` (iterative: operand chains at -O2 are long).
    fn sources(&mut self, v: V) -> Vec<u32> {
        let mut stack: Vec<(V, bool)> = vec![(v, false)];
        while let Some((x, expanded)) = stack.pop() {
            if self.memo.contains_key(&x) && !expanded {
                continue;
            }
            if !expanded {
                if let Some(s) = self.leaf(x) {
                    self.memo.insert(x, s);
                    continue;
                }
                // A transparent operation: its operands first.
                stack.push((x, true));
                self.memo.insert(x, Vec::new()); // in progress (cycles end here)
                for k in 0..ir::num_operands(x) {
                    let o = ir::operand(x, k);
                    if !self.memo.contains_key(&o) {
                        stack.push((o, false));
                    }
                }
                continue;
            }
            let mut u: Vec<u32> = Vec::new();
            for k in 0..ir::num_operands(x) {
                if let Some(s) = self.memo.get(&ir::operand(x, k)) {
                    u.extend_from_slice(s);
                }
            }
            u.sort_unstable();
            u.dedup();
            let s = if u.len() > 1 {
                let n = self.node("op".into(), None);
                self.nodes[n as usize].deps = u;
                vec![n]
            } else {
                u
            };
            self.memo.insert(x, s);
        }
        self.memo.get(&v).cloned().unwrap_or_default()
    }

    /// The sources of `v` if it is not a transparent operation: nothing for constants,
    /// a node for arguments, loads, calls and PHIs.
    fn leaf(&mut self, v: V) -> Option<Vec<u32>> {
        if ir::is_argument(v) {
            let k = ir::params(self.p.f)
                .iter()
                .position(|&a| a == v)
                .unwrap_or(0);
            let n = self.node(format!("arg:{k}"), None);
            return Some(vec![n]);
        }
        if !ir::is_instruction(v) {
            return Some(Vec::new());
        }
        let blk = ir::block_of(v);
        match ir::opcode(v) {
            Op::LLVMLoad => {
                let p = ir::operand(v, 0);
                let key = self.mem_key(p);
                let n = self.node(format!("load:{key}"), Some(v));
                self.pending.push((n, vec![p], Vec::new()));
                Some(vec![n])
            }
            Op::LLVMCall | Op::LLVMInvoke => {
                let callee = ir::called_function(v);
                let name = if callee.is_null() {
                    String::new()
                } else {
                    ir::name_of(callee)
                };
                let n = self.node(format!("call:{name}"), Some(v));
                let args = (0..ir::num_call_args(v))
                    .map(|k| ir::operand(v, k))
                    .collect();
                self.pending.push((n, args, Vec::new()));
                Some(vec![n])
            }
            Op::LLVMPHI => {
                let n = self.node("phi".into(), Some(v));
                let p = self.p;
                let an = &p.an;
                if !an.index.contains_key(&blk) {
                    return Some(vec![n]);
                }
                let mut vals = Vec::new();
                let mut deciders = Vec::new();
                // SAFETY: `v` is a live PHI (this arm) of the function (module header).
                let count = unsafe { LLVMCountIncoming(v) };
                for k in 0..count {
                    // SAFETY: `v` is a live PHI and `k` < its incoming count.
                    vals.push(unsafe { LLVMGetIncomingValue(v, k) });
                    // SAFETY: `v` is a live PHI and `k` < its incoming count.
                    let from: B = unsafe { LLVMGetIncomingBlock(v, k) };
                    if let Some(&q) = an.index.get(&from) {
                        // The edge's own branch and what it depends on (Rule 1's
                        // deciders are among these and their ancestors).
                        if condition(ir::terminator(from)).is_some() {
                            deciders.push(q);
                        }
                        deciders.extend(self.direct[q].iter().copied());
                    }
                }
                self.pending.push((n, vals, deciders));
                Some(vec![n])
            }
            Op::LLVMAlloca => Some(Vec::new()),
            _ => None,
        }
    }

    /// The memory key of address `p` (see the module documentation).
    fn mem_key(&self, p: V) -> String {
        self.mem_key_depth(p, 0)
    }

    fn mem_key_depth(&self, p: V, depth: u32) -> String {
        let mut v = p;
        let mut off: i64 = 0;
        let mut var = false;
        let mut sname: Option<String> = None;
        for _ in 0..32 {
            let op = if ir::is_instruction(v) {
                Some(ir::opcode(v))
            // SAFETY: `v` is a live, non-null value (an address, or an operand of one).
            } else if unsafe { !LLVMIsAConstantExpr(v).is_null() } {
                // SAFETY: `v` is a constant expression (checked on the line above).
                Some(unsafe { LLVMGetConstOpcode(v) })
            } else {
                None
            };
            match op {
                Some(Op::LLVMGetElementPtr) => {
                    // SAFETY: `v` is a GEP instruction or constant expression (this arm); LLVM
                    // casts it to `GEPOperator`.
                    let mut t = unsafe { LLVMGetGEPSourceElementType(v) };
                    for k in 1..ir::num_operands(v) {
                        let idx = ir::operand(v, k);
                        let c = ir::const_int_value(idx).map(|c| c as i64);
                        if k == 1 {
                            match c {
                                Some(c) => off += c * self.ir.alloc_size(t) as i64,
                                None => var = true,
                            }
                            continue;
                        }
                        match ir::kind(t) {
                            K::LLVMStructTypeKind => {
                                let f = c.unwrap_or(0) as u32;
                                off += self.ir.field_offset(t, f) as i64;
                                if let Some(n) = struct_name(t) {
                                    sname = Some(n);
                                }
                                // SAFETY: `t` is a struct type (this arm) and `f` one of
                                // its field indices (a GEP's struct indices are
                                // in-range constants in valid IR).
                                t = unsafe { LLVMStructGetTypeAtIndex(t, f) };
                            }
                            K::LLVMArrayTypeKind | K::LLVMVectorTypeKind => {
                                t = ir::element_type(t);
                                match c {
                                    Some(c) => off += c * self.ir.alloc_size(t) as i64,
                                    None => var = true,
                                }
                            }
                            _ => break,
                        }
                    }
                    v = ir::operand(v, 0);
                }
                Some(Op::LLVMBitCast | Op::LLVMAddrSpaceCast) => v = ir::operand(v, 0),
                _ => break,
            }
        }
        // SAFETY: `v` is a live, non-null value (module header).
        let base = if unsafe { !LLVMIsAGlobalVariable(v).is_null() } {
            format!("g:{}", ir::name_of(v))
        } else if let Some(k) = self.allocas.get(&v) {
            format!("l:{k}")
        } else if let Some(k) = self.news.get(&v) {
            format!("l:h{k}")
        } else if depth < 2 && ir::is_instruction(v) && ir::opcode(v) == Op::LLVMLoad {
            // A pointer read from memory: named by where it was read (`dom.e[i]`).
            format!("*{}", self.mem_key_depth(ir::operand(v, 0), depth + 1))
        } else if let Some(n) = sname {
            format!("s:{n}")
        } else {
            "?".to_string()
        };
        format!("{base}{}+{off}", if var { "[]" } else { "" })
    }
}

fn struct_name(t: inkwell::llvm_sys::prelude::LLVMTypeRef) -> Option<String> {
    // SAFETY: the only caller passes a struct type; LLVM returns its name or null.
    let p = unsafe { LLVMGetStructName(t) };
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` is non-null: the name of a named struct type, NUL-terminated (a
    // string map key of the context) and alive as long as the module.
    let s = unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy();
    // `struct.Domain`, `class.Domain` → `Domain`: C and C++ spell the same type alike.
    let s = s
        .strip_prefix("struct.")
        .or_else(|| s.strip_prefix("class."))
        .or_else(|| s.strip_prefix("union."))
        .unwrap_or(&s);
    Some(s.to_string())
}

/// The string a constant pointer points to (`"n"` in `tp_register_variable(&n, 8, "n")`);
/// `Some("")` for `""` (a zero-filled array), `None` when it is not a constant string.
fn const_string(v: V) -> Option<String> {
    let mut g = v;
    for _ in 0..4 {
        // SAFETY: `g` is a live, non-null value (a call argument or a constant's operand).
        if unsafe { !LLVMIsAGlobalVariable(g).is_null() } {
            break;
        }
        if !ir::is_constant_expr(g) {
            return None;
        }
        g = ir::operand(g, 0);
    }
    // SAFETY: `g` is a live value; the check makes the cast below valid.
    if unsafe { LLVMIsAGlobalVariable(g).is_null() } {
        return None;
    }
    // SAFETY: `g` is a global variable (checked above).
    let init = unsafe { LLVMGetInitializer(g) };
    if init.is_null() {
        return None;
    }
    // SAFETY: `init` is a live constant. `""` compiles to a zero-filled array, which is
    // not a `ConstantDataSequential` (the only kind `LLVMGetAsString` may be given).
    if unsafe { !LLVMIsAConstantAggregateZero(init).is_null() } {
        return Some(String::new());
    }
    // SAFETY: `init` is a live constant; both checks make the cast below valid.
    let is_string = unsafe {
        !LLVMIsAConstantDataSequential(init).is_null() && LLVMIsConstantString(init) != 0
    };
    if !is_string {
        return None;
    }
    let mut len = 0usize;
    // SAFETY: `init` is a `ConstantDataSequential` string (checked above).
    let p = unsafe { LLVMGetAsString(init, &mut len) };
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` points to `len` bytes of the constant, alive with the module.
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
    let bytes = bytes.split(|&c| c == 0).next().unwrap_or(&[]);
    Some(String::from_utf8_lossy(bytes).into_owned())
}

fn write_pos(s: &mut String, p: Option<Pos>) {
    match p {
        Some((f, l, c)) => {
            let _ = write!(s, "[{f},{l},{c}]");
        }
        None => s.push_str("null"),
    }
}

fn write_ids(s: &mut String, ids: &[u32]) {
    s.push('[');
    for (k, d) in ids.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        let _ = write!(s, "{d}");
    }
    s.push(']');
}
