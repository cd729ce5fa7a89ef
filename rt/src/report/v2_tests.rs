//! Schema v2 scenarios: fake descriptors (modules with functions, loops with parents,
//! call sites with containing loops, inline chains, branch records) driven through the
//! real hooks in a fresh thread, then the report made from the raw run record the
//! runtime writes for them (`taintprof_model`, as the driver makes it).
//!
//! Most scenarios are built twice: an "-O0" layout (every function its own physical
//! function and context node) and an "-O2" layout (callees inlined: their loops and
//! call sites carry inline chains), and both must give the same model.

use std::ffi::{CStr, CString};

use serde_json::{json, Value};
use taintprof_abi::{
    BranchRec, FuncDesc, Label, LoopDesc, ModuleDesc, SiteDesc, SrcLoc, ABI_VERSION, BRANCH_SWITCH,
    FUNC_CONTEXT_TRACKED, FUNC_RECURSIVE_STATIC, FUNC_STATICALLY_PRUNED, LOOP_CONST_TRIP,
    LOOP_FOLDED, LOOP_LIBRARY, LOOP_RECURSION, MODULE_MAGIC,
};

use super::{Exit, Inputs};
use crate::context::{self, __tp_enter, __tp_loop_exit, ThreadState};
use crate::params::Registry;
use crate::test_descriptors::model_report;

const FILE: &CStr = c"app.c";

fn cs(s: &str) -> *const libc::c_char {
    CString::new(s).unwrap().into_raw()
}

/// A position in function `f` (defined at line `def`).
fn at(f: &str, def: u32, line: u32) -> SrcLoc {
    let name = cs(f);
    SrcLoc {
        function: name,
        linkage: name,
        file: FILE.as_ptr(),
        fn_line: def,
        line,
        column: 3,
        _reserved: 0,
    }
}

/// A copy of a plain-data SrcLoc (the ABI type is not `Clone`).
fn cp(l: &SrcLoc) -> SrcLoc {
    // SAFETY: SrcLoc is plain data (pointers to leaked strings and integers).
    unsafe { core::ptr::read(l) }
}

fn cpv(v: &[SrcLoc]) -> Vec<SrcLoc> {
    v.iter().map(cp).collect()
}

fn leak_chain(v: Vec<SrcLoc>) -> (*const SrcLoc, u32) {
    let n = v.len() as u32;
    (Box::leak(v.into_boxed_slice()).as_ptr(), n)
}

struct LoopSpec {
    chain: Vec<SrcLoc>,
    flags: u32,
    trip: u64,
    parent: Option<usize>,
    func: usize,
    /// Library loops: routine and cost.
    routine: Option<(&'static str, &'static str)>,
}

struct BranchSpec {
    chain: Vec<SrcLoc>,
    succ: Vec<Vec<SrcLoc>>,
    flags: u16,
    label: Label,
    taken: u64,
}

/// A module under construction: indices refer to its own functions and loops.
#[derive(Default)]
struct ModB {
    funcs: Vec<(SrcLoc, u32)>,
    loops: Vec<LoopSpec>,
    branches: Vec<BranchSpec>,
}

impl ModB {
    fn func(&mut self, name: &str, def: u32, flags: u32) -> usize {
        let mut l = at(name, def, def);
        l.column = 0;
        self.funcs.push((l, flags | FUNC_CONTEXT_TRACKED));
        self.funcs.len() - 1
    }
    fn lp(&mut self, func: usize, chain: Vec<SrcLoc>, parent: Option<usize>) -> usize {
        self.loops.push(LoopSpec {
            chain,
            flags: 0,
            trip: 0,
            parent,
            func,
            routine: None,
        });
        self.loops.len() - 1
    }
    /// A library loop (`LOOP_LIBRARY`) of `routine` with cost `cost`.
    fn lib_lp(
        &mut self,
        func: usize,
        chain: Vec<SrcLoc>,
        parent: Option<usize>,
        routine: &'static str,
        cost: &'static str,
    ) -> usize {
        let i = self.lp(func, chain, parent);
        self.loops[i].flags = LOOP_LIBRARY;
        self.loops[i].routine = Some((routine, cost));
        i
    }
    /// A loop the optimizer folded (`LOOP_FOLDED`).
    fn folded_lp(&mut self, func: usize, chain: Vec<SrcLoc>) -> usize {
        let i = self.lp(func, chain, None);
        self.loops[i].flags = LOOP_FOLDED;
        i
    }
    fn const_lp(&mut self, func: usize, chain: Vec<SrcLoc>, trip: u64) -> usize {
        let i = self.lp(func, chain, None);
        self.loops[i].flags = LOOP_CONST_TRIP;
        self.loops[i].trip = trip;
        i
    }
    fn branch(
        &mut self,
        chain: Vec<SrcLoc>,
        succ: Vec<Vec<SrcLoc>>,
        switch: bool,
        label: Label,
        taken: u64,
    ) {
        self.branches.push(BranchSpec {
            chain,
            succ,
            flags: if switch { BRANCH_SWITCH } else { 0 },
            label,
            taken,
        });
    }

    fn build(self) -> Module {
        let funcs: Vec<FuncDesc> = self
            .funcs
            .iter()
            .map(|(l, flags)| FuncDesc {
                loc: cp(l),
                flags: *flags,
                n_loops: 0,
            })
            .collect();
        let nf = funcs.len();
        let funcs = Box::leak(funcs.into_boxed_slice()).as_mut_ptr();
        let mut loops: Vec<LoopDesc> = Vec::new();
        for s in &self.loops {
            let (c, n) = leak_chain(cpv(&s.chain));
            loops.push(LoopDesc {
                chain: c,
                n_chain: n,
                flags: s.flags,
                const_trip_count: s.trip,
                parent: core::ptr::null(),
                func: unsafe { funcs.add(s.func) },
                routine: s.routine.map_or(core::ptr::null(), |r| cs(r.0)),
                cost: s.routine.map_or(core::ptr::null(), |r| cs(r.1)),
            });
        }
        let nl = loops.len();
        let loops = Box::leak(loops.into_boxed_slice()).as_mut_ptr();
        for (i, s) in self.loops.iter().enumerate() {
            if let Some(p) = s.parent {
                unsafe { (*loops.add(i)).parent = loops.add(p) };
            }
        }
        let mut recs: Vec<BranchRec> = Vec::new();
        for b in &self.branches {
            let site = leak_site(cpv(&b.chain), core::ptr::null());
            let succ: Vec<SiteDesc> = b
                .succ
                .iter()
                .map(|c| {
                    let (ch, n) = leak_chain(cpv(c));
                    SiteDesc {
                        chain: ch,
                        n_chain: n,
                        flags: 0,
                        loop_: core::ptr::null(),
                    }
                })
                .collect();
            let n_succ = succ.len() as u32;
            recs.push(BranchRec {
                site,
                succ: Box::leak(succ.into_boxed_slice()).as_ptr(),
                n_succ,
                label: b.label,
                flags: b.flags,
                taken: b.taken,
                executions: (b.taken != 0) as u64,
            });
        }
        let nb = recs.len() as u32;
        let branches = Box::leak(recs.into_boxed_slice()).as_mut_ptr();
        let m = Box::leak(Box::new(ModuleDesc {
            magic: MODULE_MAGIC,
            abi_version: ABI_VERSION,
            source_file: FILE.as_ptr(),
            funcs,
            n_funcs: nf as u32,
            n_loops: nl as u32,
            loops,
            branches,
            n_branches: nb,
            flags: 0,
            next: core::ptr::null_mut(),
        }));
        Module { m, funcs, loops }
    }
}

fn leak_site(chain: Vec<SrcLoc>, loop_: *const LoopDesc) -> *const SiteDesc {
    let (c, n) = leak_chain(chain);
    Box::leak(Box::new(SiteDesc {
        chain: c,
        n_chain: n,
        flags: 0,
        loop_,
    }))
}

#[derive(Clone, Copy)]
struct Module {
    m: *mut ModuleDesc,
    funcs: *mut FuncDesc,
    loops: *mut LoopDesc,
}
unsafe impl Send for Module {}

impl Module {
    fn f(&self, i: usize) -> usize {
        unsafe { self.funcs.add(i) as usize }
    }
    fn l(&self, i: usize) -> usize {
        unsafe { self.loops.add(i) as usize }
    }
    /// A call site with inline chain `chain`, inside loop `in_loop` of the physical
    /// function (if any).
    fn site(&self, chain: Vec<SrcLoc>, in_loop: Option<usize>) -> usize {
        let lp = in_loop
            .map(|i| unsafe { self.loops.add(i) } as *const LoopDesc)
            .unwrap_or(core::ptr::null());
        leak_site(chain, lp) as usize
    }
}

// Simulated execution: a fresh thread per run, so each report sees only its own tree.
fn enter(p: usize, s: usize, f: usize) -> usize {
    unsafe { __tp_enter(p as *mut _, s as *const SiteDesc, f as *const FuncDesc) as usize }
}
fn exit(n: usize, l: usize, label: Label) {
    unsafe { __tp_loop_exit(n as *mut _, l as *const LoopDesc, label) }
}

fn in_thread(f: impl FnOnce() + Send + 'static) -> usize {
    std::thread::spawn(move || {
        f();
        context::current_thread() as usize
    })
    .join()
    .unwrap()
}

fn registry(names: &[&str]) -> &'static Registry {
    let reg: &'static Registry = Box::leak(Box::new(Registry::new()));
    for n in names {
        reg.register(Some(n.as_bytes())).unwrap();
    }
    reg
}

fn report(mods: &[Module], threads: &[usize], reg: &Registry) -> Value {
    let mods: Vec<*const ModuleDesc> = mods.iter().map(|m| m.m as *const ModuleDesc).collect();
    let ths: Vec<*const ThreadState> = threads.iter().map(|&t| t as *const ThreadState).collect();
    let inp = Inputs {
        name: b"app",
        path: b"/bin/app",
        argv: &[],
        pid: 7,
        exit: Exit::Code(0),
        modules: &mods,
        threads: &ths,
        params: reg,
        context_oom: false,
        rejected_modules: false,
    };
    model_report(&inp)
}

fn func<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no function {name} in {:#}", v["functions"]))
}

fn vol(v: &Value, name: &str) -> String {
    func(v, name)["volume"].as_str().unwrap().to_string()
}

/// The model part of a function, for comparing layouts.
fn model_of(v: &Value) -> Value {
    let mut fs: Vec<Value> = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let loops: Vec<Value> = f["loops"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| {
                    json!({"line": l["line"], "parent_line": l["parent_line"], "params": l["params"],
                           "contexts": l["contexts"].as_array().unwrap().iter()
                               .map(|c| json!({"path": c["path"], "params": c["params"]})).collect::<Vec<_>>()})
                })
                .collect();
            json!({
                "name": f["name"], "executed": f["executed"],
                "exclusive_params": f["exclusive_params"], "inclusive_params": f["inclusive_params"],
                "constant": f["constant"], "volume": f["volume"],
                "exclusive_volume": f["exclusive_volume"], "pairs": f["pairs"],
                "contexts": f["contexts"], "branches": f["branches"], "loops": loops,
            })
        })
        .collect();
    fs.sort_by_key(|f| f["name"].as_str().unwrap().to_string());
    Value::Array(fs)
}

// ----------------------------------------------------------------------------------
// matmul: sequenced, nested, joint, two contexts, -O0 and -O2 layouts
// ----------------------------------------------------------------------------------

const M: Label = 0b001;
const N: Label = 0b010;
const K: Label = 0b100;

/// matmul.c as written:
///
/// ```c
///  5 static float *create(int rows, int cols) {
///  7   for (i < rows)          // L rows
///  8     for (j < cols)        // L cols
/// 12 static void multiply(...) {
/// 14   for (i < m)
/// 15     for (j < n)
/// 17       for (l < k)
/// 22 static double checksum(const float *C, int len) {
/// 24   for (i < len)           // len = m*n
/// 30 int main() {
/// 38   A = create(m, k);
/// 39   B = create(k, n);
/// 41   multiply(A, B, C, m, n, k);
/// 42   checksum(C, m * n);
/// 44   if (verbose) ... else ...   // a branch on no parameter
/// ```
fn matmul_o0() -> (Module, usize) {
    let mut b = ModB::default();
    let main = b.func("main", 30, 0);
    let create = b.func("create", 5, 0);
    let mul = b.func("multiply", 12, 0);
    let chk = b.func("checksum", 22, 0);
    let rows = b.lp(create, vec![at("create", 5, 7)], None);
    let cols = b.lp(create, vec![at("create", 5, 8)], Some(rows));
    let mi = b.lp(mul, vec![at("multiply", 12, 14)], None);
    let mj = b.lp(mul, vec![at("multiply", 12, 15)], Some(mi));
    let ml = b.lp(mul, vec![at("multiply", 12, 17)], Some(mj));
    let ck = b.lp(chk, vec![at("checksum", 22, 24)], None);
    b.branch(
        vec![at("main", 30, 44)],
        vec![vec![at("main", 30, 45)], vec![at("main", 30, 47)]],
        false,
        0,
        0b10,
    );
    let m = b.build();
    let sa = m.site(vec![at("main", 30, 38)], None);
    let sb = m.site(vec![at("main", 30, 39)], None);
    let sm = m.site(vec![at("main", 30, 41)], None);
    let sc = m.site(vec![at("main", 30, 42)], None);
    let t = in_thread(move || {
        let mn = enter(0, 0, m.f(main));
        let c1 = enter(mn, sa, m.f(create));
        exit(c1, m.l(rows), M);
        for _ in 0..3 {
            exit(c1, m.l(cols), K);
        }
        let c2 = enter(mn, sb, m.f(create));
        exit(c2, m.l(rows), K);
        exit(c2, m.l(cols), N);
        let mu = enter(mn, sm, m.f(mul));
        exit(mu, m.l(mi), M);
        exit(mu, m.l(mj), N);
        exit(mu, m.l(ml), K);
        let ch = enter(mn, sc, m.f(chk));
        exit(ch, m.l(ck), M | N);
    });
    (m, t)
}

fn matmul_o2() -> (Module, usize) {
    // Everything inlined into main; the static functions have no out-of-line copy.
    let mut b = ModB::default();
    let main = b.func("main", 30, 0);
    let (ca, cb, cm, cc) = (
        at("main", 30, 38),
        at("main", 30, 39),
        at("main", 30, 41),
        at("main", 30, 42),
    );
    let rows_a = b.lp(main, vec![cp(&ca), at("create", 5, 7)], None);
    let cols_a = b.lp(main, vec![cp(&ca), at("create", 5, 8)], Some(rows_a));
    let rows_b = b.lp(main, vec![cp(&cb), at("create", 5, 7)], None);
    let cols_b = b.lp(main, vec![cp(&cb), at("create", 5, 8)], Some(rows_b));
    let mi = b.lp(main, vec![cp(&cm), at("multiply", 12, 14)], None);
    let mj = b.lp(main, vec![cp(&cm), at("multiply", 12, 15)], Some(mi));
    // The vectorizer versioned the innermost loop: two copies, one logical loop.
    let ml = b.lp(main, vec![cp(&cm), at("multiply", 12, 17)], Some(mj));
    let ml2 = b.lp(main, vec![cp(&cm), at("multiply", 12, 17)], Some(mj));
    let ck = b.lp(main, vec![cp(&cc), at("checksum", 22, 24)], None);
    b.branch(
        vec![at("main", 30, 44)],
        vec![vec![at("main", 30, 45)], vec![at("main", 30, 47)]],
        false,
        0,
        0b10,
    );
    let m = b.build();
    let t = in_thread(move || {
        let mn = enter(0, 0, m.f(main));
        exit(mn, m.l(rows_a), M);
        exit(mn, m.l(cols_a), K);
        exit(mn, m.l(rows_b), K);
        exit(mn, m.l(cols_b), N);
        exit(mn, m.l(mi), M);
        exit(mn, m.l(mj), N);
        exit(mn, m.l(ml), K);
        exit(mn, m.l(ml2), K);
        exit(mn, m.l(ck), M | N);
    });
    (m, t)
}

#[test]
fn matmul_volumes_pairs_and_contexts() {
    let reg = registry(&["m", "n", "k"]);
    let (m, t) = matmul_o0();
    let v = report(&[m], &[t], reg);
    assert_eq!(v["version"], 4);
    // Nested multiplies, sequenced adds, joint stays joint, terms largest first.
    assert_eq!(vol(&v, "multiply"), "m*n*k");
    assert_eq!(vol(&v, "checksum"), "(m,n)");
    assert_eq!(
        vol(&v, "create"),
        "m*k + n*k",
        "two contexts, one term each"
    );
    assert_eq!(vol(&v, "main"), "m*n*k + m*k + n*k + (m,n)");
    let main = func(&v, "main");
    assert_eq!(main["exclusive_volume"], "1");
    assert_eq!(main["exclusive_params"], json!([]));
    assert_eq!(main["inclusive_params"], json!(["m", "n", "k"]));
    assert_eq!(main["constant"], false);
    assert_eq!(main["executed"], true);
    assert_eq!(
        main["pairs"],
        json!([
            {"a": "m", "b": "n", "kind": "multiplicative"},
            {"a": "m", "b": "k", "kind": "multiplicative"},
            {"a": "n", "b": "k", "kind": "multiplicative"}
        ])
    );
    let create = func(&v, "create");
    assert_eq!(create["exclusive_volume"], "m*k + n*k");
    assert_eq!(
        create["pairs"],
        json!([
            {"a": "m", "b": "n", "kind": "additive"},
            {"a": "m", "b": "k", "kind": "multiplicative"},
            {"a": "n", "b": "k", "kind": "multiplicative"}
        ])
    );
    assert_eq!(
        create["contexts"],
        json!([
            {"path": [{"function": "main", "file": "app.c", "line": 38}],
             "callpath": "main->create",
             "inclusive_params": ["m", "k"], "volume": "m*k",
             "volume_terms": [[{"params": ["m"], "power": 1}, {"params": ["k"], "power": 1}]],
             "calls_volume": "1", "calls_volume_terms": [[]], "total_volume": "m*k",
             "total_volume_terms": [[{"params": ["m"], "power": 1}, {"params": ["k"], "power": 1}]]},
            {"path": [{"function": "main", "file": "app.c", "line": 39}],
             "callpath": "main->create",
             "inclusive_params": ["n", "k"], "volume": "n*k",
             "volume_terms": [[{"params": ["n"], "power": 1}, {"params": ["k"], "power": 1}]],
             "calls_volume": "1", "calls_volume_terms": [[]], "total_volume": "n*k",
             "total_volume_terms": [[{"params": ["n"], "power": 1}, {"params": ["k"], "power": 1}]]}
        ])
    );
    assert_eq!(
        main["contexts"],
        json!([{"path": [], "callpath": "main", "inclusive_params": ["m", "n", "k"],
        "volume": "m*n*k + m*k + n*k + (m,n)",
        "volume_terms": [
            [{"params": ["m"], "power": 1}, {"params": ["n"], "power": 1},
             {"params": ["k"], "power": 1}],
            [{"params": ["m"], "power": 1}, {"params": ["k"], "power": 1}],
            [{"params": ["n"], "power": 1}, {"params": ["k"], "power": 1}],
            [{"params": ["m", "n"], "power": 1}],
        ],
        "calls_volume": "1", "calls_volume_terms": [[]],
        "total_volume": "m*n*k + m*k + n*k + (m,n)",
        "total_volume_terms": [
            [{"params": ["m"], "power": 1}, {"params": ["n"], "power": 1},
             {"params": ["k"], "power": 1}],
            [{"params": ["m"], "power": 1}, {"params": ["k"], "power": 1}],
            [{"params": ["n"], "power": 1}, {"params": ["k"], "power": 1}],
            [{"params": ["m", "n"], "power": 1}],
        ]}])
    );
    let cl = &create["loops"];
    assert_eq!(cl[0]["line"], 7);
    assert_eq!(cl[0]["parent_line"], Value::Null);
    assert_eq!(cl[1]["line"], 8);
    assert_eq!(cl[1]["parent_line"], 7);
    assert_eq!(cl[1]["params"], json!(["n", "k"]));
    assert_eq!(cl[1]["executions"], 4);
    assert_eq!(func(&v, "multiply")["loops"][2]["parent_line"], 15);
    // The branch in main: no parameter, first successor never taken.
    assert_eq!(
        main["branches"],
        json!([{"line": 44, "column": 3, "kind": "if", "params": [],
                "successors": [{"line": 45, "taken": false}, {"line": 47, "taken": true}]}])
    );
    assert_eq!(func(&v, "multiply")["branches"], json!([]));
}

#[test]
fn inlined_layout_gives_the_same_logical_tree_and_volumes() {
    let reg = registry(&["m", "n", "k"]);
    let (m0, t0) = matmul_o0();
    let (m2, t2) = matmul_o2();
    let v0 = report(&[m0], &[t0], reg);
    let v2 = report(&[m2], &[t2], reg);
    assert_eq!(
        model_of(&v0),
        model_of(&v2),
        "\n-O0: {:#}\n-O2: {:#}",
        v0["functions"],
        v2["functions"]
    );
    // -O2: the versioned innermost loop is one loop, executed twice.
    assert_eq!(func(&v2, "multiply")["loops"][2]["executions"], 2);
    assert_eq!(func(&v2, "create")["statically_pruned"], false);
    assert_eq!(func(&v2, "create")["executed"], true);
}

// ----------------------------------------------------------------------------------
// Calls inside loops, inlined into a caller's loop, powers, two contexts
// ----------------------------------------------------------------------------------

/// ```c
///  3 static void kernel(int len) {
///  4   for (i < len)
///  8 static void step(int len) {      // no loop of its own
///  9   kernel(len);
/// 12 static void sweep(int len) {
/// 13   for (i < len)
/// 14     kernel(len);                  // kernel nested in a loop on the same parameter
/// 20 int main() {
/// 21   for (t < iters)
/// 22     step(n);                      // a call inside a loop multiplies
/// 24   kernel(m);                      // two contexts: m and n
/// 25   sweep(n);
/// ```
fn solver(inline: bool) -> (Module, usize) {
    let mut b = ModB::default();
    let main = b.func("main", 20, 0);
    let tl;
    let (m, t);
    if !inline {
        let kernel = b.func("kernel", 3, 0);
        let step = b.func("step", 8, 0);
        let sweep = b.func("sweep", 12, 0);
        tl = b.lp(main, vec![at("main", 20, 21)], None);
        let kl = b.lp(kernel, vec![at("kernel", 3, 4)], None);
        let sl = b.lp(sweep, vec![at("sweep", 12, 13)], None);
        m = b.build();
        let s22 = m.site(vec![at("main", 20, 22)], Some(tl));
        let s9 = m.site(vec![at("step", 8, 9)], None);
        let s24 = m.site(vec![at("main", 20, 24)], None);
        let s25 = m.site(vec![at("main", 20, 25)], None);
        let s14 = m.site(vec![at("sweep", 12, 14)], Some(sl));
        t = in_thread(move || {
            let mn = enter(0, 0, m.f(main));
            for _ in 0..3 {
                let st = enter(mn, s22, m.f(step));
                let k = enter(st, s9, m.f(kernel));
                exit(k, m.l(kl), N);
            }
            exit(mn, m.l(tl), 0b1000); // iters
            let k = enter(mn, s24, m.f(kernel));
            exit(k, m.l(kl), M);
            let sw = enter(mn, s25, m.f(sweep));
            let k = enter(sw, s14, m.f(kernel));
            exit(k, m.l(kl), N);
            exit(sw, m.l(sl), N);
        });
    } else {
        // step inlined into main's loop, but kernel called out of line from it; sweep's
        // loop inlined into main with kernel inlined into it.
        let kernel = b.func("kernel", 3, 0);
        tl = b.lp(main, vec![at("main", 20, 21)], None);
        let kl = b.lp(kernel, vec![at("kernel", 3, 4)], None);
        let c25 = at("main", 20, 25);
        let sl = b.lp(main, vec![cp(&c25), at("sweep", 12, 13)], None);
        let skl = b.lp(
            main,
            vec![cp(&c25), at("sweep", 12, 14), at("kernel", 3, 4)],
            Some(sl),
        );
        m = b.build();
        let s22_9 = m.site(vec![at("main", 20, 22), at("step", 8, 9)], Some(tl));
        let s24 = m.site(vec![at("main", 20, 24)], None);
        t = in_thread(move || {
            let mn = enter(0, 0, m.f(main));
            for _ in 0..3 {
                let k = enter(mn, s22_9, m.f(kernel));
                exit(k, m.l(kl), N);
            }
            exit(mn, m.l(tl), 0b1000);
            let k = enter(mn, s24, m.f(kernel));
            exit(k, m.l(kl), M);
            for _ in 0..2 {
                exit(mn, m.l(skl), N);
            }
            exit(mn, m.l(sl), N);
        });
    }
    (m, t)
}

#[test]
fn calls_inside_loops_multiply_and_contexts_add() {
    let reg = registry(&["m", "n", "k", "iters"]);
    for inline in [false, true] {
        let (m, t) = solver(inline);
        let v = report(&[m], &[t], reg);
        let what = if inline { "-O2" } else { "-O0" };
        assert_eq!(vol(&v, "kernel"), "m + n", "{what}: two contexts add");
        assert_eq!(vol(&v, "step"), "n", "{what}");
        assert_eq!(
            vol(&v, "sweep"),
            "n^2",
            "{what}: equal factors become powers"
        );
        assert_eq!(func(&v, "sweep")["exclusive_volume"], "n", "{what}");
        assert_eq!(
            vol(&v, "main"),
            "n^2 + n*iters + m",
            "{what}: step(n) inside the iters loop multiplies across the call"
        );
        assert_eq!(func(&v, "main")["exclusive_volume"], "iters", "{what}");
        let kc = func(&v, "kernel")["contexts"].as_array().unwrap().clone();
        let paths: Vec<String> = kc
            .iter()
            .map(|c| {
                c["path"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| format!("{}:{}", f["function"].as_str().unwrap(), f["line"]))
                    .collect::<Vec<_>>()
                    .join(">")
            })
            .collect();
        assert_eq!(
            paths,
            ["main:22>step:9", "main:24", "main:25>sweep:14"],
            "{what}"
        );
        assert_eq!(kc[1]["volume"], "m", "{what}");
        let step = func(&v, "step");
        assert_eq!(step["executed"], true, "{what}: step ran (it is on a path)");
        assert_eq!(step["exclusive_params"], json!([]), "{what}");
        assert_eq!(step["inclusive_params"], json!(["n"]), "{what}");
        assert_eq!(
            func(&v, "main")["pairs"],
            json!([
                {"a": "m", "b": "n", "kind": "additive"},
                {"a": "m", "b": "iters", "kind": "additive"},
                {"a": "n", "b": "iters", "kind": "multiplicative"}
            ]),
            "{what}"
        );
    }
    let (m0, t0) = solver(false);
    let (m2, t2) = solver(true);
    assert_eq!(
        model_of(&report(&[m0], &[t0], reg)),
        model_of(&report(&[m2], &[t2], reg))
    );
}

// ----------------------------------------------------------------------------------
// Classification, summary, coverage, recommendation, recursion, branches
// ----------------------------------------------------------------------------------

#[test]
fn summary_coverage_recommendation_recursion_and_branches() {
    let reg = registry(&["size", "p", "regions", "iters"]);
    let (size, p, regions, iters): (Label, Label, Label, Label) = (1, 2, 4, 8);
    let mut b = ModB::default();
    let main = b.func("main", 100, 0);
    let getter = b.func("get_x", 10, FUNC_STATICALLY_PRUNED); // ran, pruned
    let unused = b.func("unused", 20, 0); // never ran
    let helper = b.func("helper", 30, 0); // ran, no parameter: dynamically pruned
    let rec = b.func("walk", 40, 0); // recursive at run time
    let srec = b.func("qsort_r", 50, FUNC_RECURSIVE_STATIC); // recursive in the call graph
    let calc = b.func("calc", 60, 0);
    let il = b.lp(main, vec![at("main", 100, 101)], None);
    let cst = b.const_lp(getter, vec![at("get_x", 10, 11)], 4);
    let ul = b.lp(unused, vec![at("unused", 20, 21)], None);
    let hl = b.lp(helper, vec![at("helper", 30, 31)], None);
    let rl = b.lp(rec, vec![at("walk", 40, 41)], None);
    let c1 = b.lp(calc, vec![at("calc", 60, 61)], None);
    let c2 = b.lp(calc, vec![at("calc", 60, 65)], None);
    let c3 = b.lp(calc, vec![at("calc", 60, 66)], Some(c2));
    // A switch selecting the algorithm by `regions`; two inlined copies of one `if`.
    b.branch(
        vec![at("calc", 60, 70)],
        vec![
            vec![at("calc", 60, 71)],
            vec![at("calc", 60, 72)],
            vec![at("calc", 60, 72)],
            vec![at("calc", 60, 74)],
        ],
        true,
        regions,
        0b0010,
    );
    b.branch(
        vec![at("main", 100, 110), at("calc", 60, 80)],
        vec![
            vec![at("main", 100, 110), at("calc", 60, 81)],
            vec![at("main", 100, 111)],
        ],
        false,
        size,
        0b01,
    );
    b.branch(
        vec![at("main", 100, 112), at("calc", 60, 80)],
        vec![
            vec![at("main", 100, 112), at("calc", 60, 81)],
            vec![at("main", 100, 113)],
        ],
        false,
        p,
        0b00,
    );
    let m = b.build();
    let _ = (srec, ul);
    let s_get = m.site(vec![at("main", 100, 102)], Some(il));
    let s_help = m.site(vec![at("main", 100, 103)], None);
    let s_rec = m.site(vec![at("main", 100, 104)], None);
    let s_rec2 = m.site(vec![at("walk", 40, 45)], Some(rl));
    let s_sr = m.site(vec![at("main", 100, 105)], None);
    let s_calc = m.site(vec![at("main", 100, 106)], None);
    let t = in_thread(move || {
        let mn = enter(0, 0, m.f(main));
        let g = enter(mn, s_get, m.f(getter));
        exit(g, m.l(cst), 0);
        exit(mn, m.l(il), iters);
        let h = enter(mn, s_help, m.f(helper));
        exit(h, m.l(hl), 0);
        let r = enter(mn, s_rec, m.f(rec));
        let r2 = enter(r, s_rec2, m.f(rec));
        assert_eq!(r, r2);
        exit(r, m.l(rl), size);
        let _q = enter(mn, s_sr, m.f(srec));
        let c = enter(mn, s_calc, m.f(calc));
        exit(c, m.l(c1), size | p);
        exit(c, m.l(c2), size);
        exit(c, m.l(c3), regions);
    });
    let v = report(&[m], &[t], reg);

    let f = |n: &str| func(&v, n).clone();
    assert_eq!(f("get_x")["statically_pruned"], true);
    assert_eq!(f("get_x")["constant"], true);
    assert_eq!(f("get_x")["volume"], "1");
    assert_eq!(f("unused")["executed"], false);
    assert_eq!(f("unused")["volume"], "1");
    assert_eq!(f("unused")["contexts"], json!([]));
    assert_eq!(f("helper")["constant"], true);
    assert_eq!(f("calc")["volume"], "size*regions + (size,p)");
    assert_eq!(
        f("calc")["exclusive_params"],
        json!(["size", "p", "regions"])
    );
    assert_eq!(
        f("calc")["pairs"],
        json!([
            {"a": "size", "b": "p", "kind": "multiplicative"},
            {"a": "size", "b": "regions", "kind": "multiplicative"},
            {"a": "p", "b": "regions", "kind": "additive"}
        ])
    );
    assert_eq!(f("walk")["recursive"], true);
    assert_eq!(f("qsort_r")["recursive"], true);
    assert_eq!(f("calc")["recursive"], false);
    let warnings = v["warnings"].to_string();
    for name in ["walk", "qsort_r"] {
        assert!(
            warnings.contains(&format!("'{name}'")) && warnings.contains("over-approximate"),
            "{warnings}"
        );
    }
    assert!(!warnings.contains("'calc'"));

    // Branches: the switch keeps duplicate successor lines in order; the two inlined
    // copies of calc:80 are one branch with labels and taken bits merged per line.
    assert_eq!(
        f("calc")["branches"],
        json!([
            {"line": 70, "column": 3, "kind": "switch", "params": ["regions"],
             "successors": [{"line": 71, "taken": false}, {"line": 72, "taken": true},
                            {"line": 72, "taken": false}, {"line": 74, "taken": false}]},
            {"line": 80, "column": 3, "kind": "if", "params": ["size", "p"],
             "successors": [{"line": 81, "taken": true}, {"line": 111, "taken": false},
                            {"line": 113, "taken": false}]}
        ])
    );

    // Table 2: each row adds up.
    let s = &v["summary"];
    assert_eq!(
        s["functions"],
        json!({"total": 7, "statically_pruned": 1, "dynamically_pruned": 2, "relevant": 3, "never_ran": 1})
    );
    assert_eq!(
        s["loops"],
        json!({"total": 8, "statically_pruned": 1, "constant": 1, "relevant": 5, "never_ran": 1, "folded": 0})
    );
    for k in ["functions", "loops"] {
        let o = s[k].as_object().unwrap();
        let parts: u64 = o
            .iter()
            .filter(|(k, _)| *k != "total")
            .map(|(_, v)| v.as_u64().unwrap())
            .sum();
        assert_eq!(parts, o["total"].as_u64().unwrap(), "{k}");
    }

    // Table 3: functions by their own loops, loops by their params.
    let cov = v["coverage"].as_array().unwrap();
    assert_eq!(cov.len(), 4 + 2);
    assert_eq!(
        cov[0],
        json!({"params": ["size"], "functions": 2, "loops": 3})
    );
    assert_eq!(cov[1], json!({"params": ["p"], "functions": 1, "loops": 1}));
    assert_eq!(
        cov[2],
        json!({"params": ["regions"], "functions": 1, "loops": 1})
    );
    assert_eq!(
        cov[3],
        json!({"params": ["iters"], "functions": 1, "loops": 1})
    );
    assert_eq!(
        v["recommendation"]["pair"],
        json!({"params": ["size", "iters"], "functions": 3, "loops": 4}),
    );
    assert_eq!(
        v["recommendation"]["triple"],
        json!({"params": ["size", "regions", "iters"], "functions": 3, "loops": 5}),
        "equal on functions: more loops win"
    );
    assert_eq!(cov[4], v["recommendation"]["pair"]);
    assert_eq!(cov[5], v["recommendation"]["triple"]);
}

#[test]
fn recommendation_is_null_with_too_few_parameters() {
    let reg = registry(&["n"]);
    let mut b = ModB::default();
    let main = b.func("main", 1, 0);
    let l = b.lp(main, vec![at("main", 1, 2)], None);
    let m = b.build();
    let t = in_thread(move || {
        let mn = enter(0, 0, m.f(main));
        exit(mn, m.l(l), 1);
    });
    let v = report(&[m], &[t], reg);
    assert_eq!(v["recommendation"], json!({"pair": null, "triple": null}));
    assert_eq!(
        v["coverage"],
        json!([{"params": ["n"], "functions": 1, "loops": 1}])
    );
    assert_eq!(vol(&v, "main"), "n");
}

/// Recursion that inlining unrolled (`walk` inlined into itself) folds like the
/// physical trees fold it.
#[test]
fn recursion_unrolled_by_inlining_is_folded() {
    let reg = registry(&["n"]);
    let mut b = ModB::default();
    let main = b.func("main", 1, 0);
    let walk = b.func("walk", 10, 0);
    let l = b.lp(walk, vec![at("walk", 10, 11)], None);
    let l2 = b.lp(walk, vec![at("walk", 10, 12), at("walk", 10, 11)], Some(l));
    let m = b.build();
    let s = m.site(vec![at("main", 1, 3)], None);
    let t = in_thread(move || {
        let mn = enter(0, 0, m.f(main));
        let w = enter(mn, s, m.f(walk));
        exit(w, m.l(l), 1);
        exit(w, m.l(l2), 1);
    });
    let v = report(&[m], &[t], reg);
    let w = func(&v, "walk");
    assert_eq!(w["recursive"], true);
    assert_eq!(w["contexts"].as_array().unwrap().len(), 1, "{w:#}");
    assert_eq!(w["volume"], "n", "as -O0 folds the recursive call");
    assert!(v["warnings"].to_string().contains("'walk'"));
}

/// A recursion loop (`LOOP_RECURSION`, as the pass emits it for a V-cycle): the smooth
/// loop and the call outside loops nest in it, the recursive call (folded) is in no
/// loop; every activation reports it with the decision's label. Volume `levels*n`,
/// and the report marks the loop.
#[test]
fn recursion_loops_multiply_what_they_enclose() {
    let reg = registry(&["levels", "n"]);
    let (levels, n): (Label, Label) = (1, 2);
    let mut b = ModB::default();
    let main = b.func("main", 1, 0);
    let vcycle = b.func("vcycle", 10, FUNC_RECURSIVE_STATIC);
    let smooth = b.func("smooth", 20, 0);
    let rec = b.lp(vcycle, vec![at("vcycle", 10, 12)], None);
    b.loops[rec].flags = LOOP_RECURSION;
    let sl = b.lp(smooth, vec![at("smooth", 20, 21)], None);
    let m = b.build();
    let to_vcycle = m.site(vec![at("main", 1, 3)], None);
    let to_smooth = m.site(vec![at("vcycle", 10, 11)], Some(rec));
    let to_self = m.site(vec![at("vcycle", 10, 13)], None);
    let t = in_thread(move || {
        let mn = enter(0, 0, m.f(main));
        let mut v = enter(mn, to_vcycle, m.f(vcycle));
        for _ in 0..3 {
            let s = enter(v, to_smooth, m.f(smooth));
            exit(s, m.l(sl), n);
            v = enter(v, to_self, m.f(vcycle));
        }
        // Each activation returns and reports the decision to recurse.
        for _ in 0..4 {
            exit(v, m.l(rec), levels);
        }
    });
    let v = report(&[m], &[t], reg);
    let vc = func(&v, "vcycle");
    assert_eq!(vc["volume"], "levels*n", "{vc:#}");
    assert_eq!(vc["constant"], false);
    let loops = vc["loops"].as_array().unwrap();
    assert_eq!(loops.len(), 1, "{vc:#}");
    assert_eq!(loops[0]["recursion"], true);
    assert_eq!(loops[0]["params"], json!(["levels"]));
    assert_eq!(loops[0]["executions"], 4);
    assert_eq!(func(&v, "smooth")["loops"][0]["recursion"], false);
    assert_eq!(vol(&v, "main"), "levels*n");
}

#[test]
fn json_shape_follows_the_schema() {
    let reg = registry(&["m", "n", "k"]);
    let (m, t) = matmul_o0();
    let v = report(&[m], &[t], reg);
    let keys = |o: &Value| -> Vec<String> { o.as_object().unwrap().keys().cloned().collect() };
    let mut top = keys(&v);
    top.sort();
    let mut want = vec![
        "schema",
        "version",
        "taintprof_version",
        "program",
        "exit",
        "options",
        "threads",
        "parameters",
        "parameter_info",
        "rejected_parameters",
        "modules",
        "functions",
        "summary",
        "coverage",
        "recommendation",
        "warnings",
    ];
    want.sort();
    assert_eq!(top, want);
    for f in v["functions"].as_array().unwrap() {
        let mut k = keys(f);
        k.sort();
        let mut want = vec![
            "name",
            "linkage",
            "file",
            "line",
            "recursive",
            "statically_pruned",
            "executed",
            "exclusive_params",
            "inclusive_params",
            "constant",
            "volume",
            "volume_terms",
            "exclusive_volume",
            "exclusive_volume_terms",
            "pairs",
            "contexts",
            "branches",
            "loops",
        ];
        want.sort();
        assert_eq!(k, want);
        for l in f["loops"].as_array().unwrap() {
            let mut k = keys(l);
            k.sort();
            assert_eq!(
                k,
                [
                    "column",
                    "const_trip_count",
                    "contexts",
                    "control_only_params",
                    "cost",
                    "executions",
                    "kind",
                    "line",
                    "params",
                    "parent_line",
                    "recursion",
                    "routine"
                ]
            );
        }
        for c in f["contexts"].as_array().unwrap() {
            let mut k = keys(c);
            k.sort();
            assert_eq!(
                k,
                [
                    "callpath",
                    "calls_volume",
                    "calls_volume_terms",
                    "inclusive_params",
                    "path",
                    "total_volume",
                    "total_volume_terms",
                    "volume",
                    "volume_terms"
                ]
            );
        }
        assert_eq!(
            f["constant"],
            f["inclusive_params"].as_array().unwrap().is_empty()
        );
    }
    let mut k = keys(&v["summary"]);
    k.sort();
    assert_eq!(k, ["functions", "loops"]);
    // (The key order, that of the schema's tables, is checked on a real program's report
    // in `model/tests/key_order.rs`.)
}

/// `cargo test -p taintprof-rt --lib print_matmul_report -- --ignored --nocapture`
/// prints the report of the inlined (-O2) matmul layout.
#[test]
#[ignore]
fn print_matmul_report() {
    let reg = registry(&["m", "n", "k"]);
    let (m, t) = matmul_o2();
    let mods = [m.m as *const ModuleDesc];
    let ths = [t as *const ThreadState];
    let argv = [
        c"./matmul".as_ptr(),
        c"24".as_ptr(),
        c"16".as_ptr(),
        c"12".as_ptr(),
    ];
    let inp = Inputs {
        name: b"matmul",
        path: b"/abs/matmul",
        argv: &argv,
        pid: 4242,
        exit: Exit::Code(0),
        modules: &mods,
        threads: &ths,
        params: reg,
        context_oom: false,
        rejected_modules: false,
    };
    println!(
        "{}",
        serde_json::to_string_pretty(&model_report(&inp)).unwrap()
    );
}

#[test]
fn recommendation_ties_go_to_registration_order() {
    let reg = registry(&["a", "b", "c"]);
    let mut b = ModB::default();
    let main = b.func("main", 1, 0);
    let fs: Vec<usize> = ["fa", "fb", "fc"]
        .iter()
        .enumerate()
        .map(|(i, n)| b.func(n, 10 * (i as u32 + 1), 0))
        .collect();
    let ls: Vec<usize> = ["fa", "fb", "fc"]
        .iter()
        .enumerate()
        .map(|(i, n)| {
            b.lp(
                fs[i],
                vec![at(n, 10 * (i as u32 + 1), 10 * (i as u32 + 1) + 1)],
                None,
            )
        })
        .collect();
    let m = b.build();
    let sites: Vec<usize> = (0..3)
        .map(|i| m.site(vec![at("main", 1, 2 + i)], None))
        .collect();
    let (fs2, ls2, sites2) = (fs.clone(), ls.clone(), sites.clone());
    let t = in_thread(move || {
        let mn = enter(0, 0, m.f(main));
        for i in 0..3 {
            let n = enter(mn, sites2[i], m.f(fs2[i]));
            exit(n, m.l(ls2[i]), 1 << i);
        }
    });
    let v = report(&[m], &[t], reg);
    assert_eq!(
        v["recommendation"]["pair"],
        json!({"params": ["a", "b"], "functions": 2, "loops": 2})
    );
    assert_eq!(
        v["recommendation"]["triple"],
        json!({"params": ["a", "b", "c"], "functions": 3, "loops": 3})
    );
    assert_eq!(vol(&v, "main"), "a + b + c");
    assert_eq!(
        func(&v, "main")["pairs"],
        json!([
            {"a": "a", "b": "b", "kind": "additive"},
            {"a": "a", "b": "c", "kind": "additive"},
            {"a": "b", "b": "c", "kind": "additive"}
        ])
    );
}

/// A function whose code only ran inlined (no loop, no call of its own) is known to
/// have run when a branch inlined through it ran.
#[test]
fn functions_on_the_inline_chain_of_a_taken_branch_ran() {
    let reg = registry(&["n"]);
    let mut b = ModB::default();
    let main = b.func("main", 1, 0);
    b.branch(
        vec![at("main", 1, 2), at("mid", 10, 11), at("leaf", 20, 21)],
        vec![
            vec![at("main", 1, 2), at("mid", 10, 11), at("leaf", 20, 22)],
            vec![at("main", 1, 4)],
        ],
        false,
        1,
        0b01,
    );
    b.branch(
        vec![at("main", 1, 3), at("other", 30, 31)],
        vec![
            vec![at("main", 1, 3), at("other", 30, 32)],
            vec![at("main", 1, 5)],
        ],
        false,
        0,
        0,
    );
    let m = b.build();
    let t = in_thread(move || {
        enter(0, 0, m.f(main));
    });
    let v = report(&[m], &[t], reg);
    for (name, ran) in [
        ("main", true),
        ("mid", true),
        ("leaf", true),
        ("other", false),
    ] {
        assert_eq!(func(&v, name)["executed"], ran, "{name}");
    }
    assert_eq!(
        func(&v, "leaf")["branches"],
        json!([{"line": 21, "column": 3, "kind": "if", "params": ["n"],
                "successors": [{"line": 22, "taken": true}, {"line": 4, "taken": false}]}])
    );
    assert_eq!(func(&v, "leaf")["volume"], "1", "a branch is not a loop");
    // Inlined everywhere, no loop, no call: statically pruned, like the pass would.
    assert_eq!(func(&v, "other")["statically_pruned"], true);
    assert_eq!(v["summary"]["functions"]["never_ran"], 0);
}

/// A `memcpy` inside a time loop (a library loop whose parent is the time loop), a
/// `qsort` at top level, and a loop the optimizer folded in another function.
#[test]
fn library_and_folded_loops_have_their_kind_routine_cost_and_volume() {
    const N: Label = 1;
    const STEPS: Label = 2;
    let reg = registry(&["n", "steps"]);
    let mut b = ModB::default();
    let main = b.func("main", 30, 0);
    let sum = b.func("sum_k", 5, FUNC_STATICALLY_PRUNED);
    let time = b.lp(main, vec![at("main", 30, 32)], None);
    let copy = b.lib_lp(main, vec![at("main", 30, 33)], Some(time), "memcpy", "n");
    let sort = b.lib_lp(main, vec![at("main", 30, 36)], None, "qsort", "n log n");
    b.folded_lp(sum, vec![at("sum_k", 5, 7)]);
    let m = b.build();
    let t = in_thread(move || {
        let mn = enter(0, 0, m.f(main));
        for _ in 0..3 {
            exit(mn, m.l(copy), N);
        }
        exit(mn, m.l(time), STEPS);
        exit(mn, m.l(sort), N);
    });
    let v = report(&[m], &[t], reg);
    let main_f = func(&v, "main");
    let loops = main_f["loops"].as_array().unwrap();
    let at_line = |l: u64| loops.iter().find(|x| x["line"] == l).unwrap();
    assert_eq!(at_line(32)["kind"], "loop");
    assert!(at_line(32)["routine"].is_null() && at_line(32)["cost"].is_null());
    assert_eq!(at_line(33)["kind"], "library");
    assert_eq!(at_line(33)["routine"], "memcpy");
    assert_eq!(at_line(33)["cost"], "n");
    assert_eq!(at_line(33)["params"], json!(["n"]));
    assert_eq!(at_line(33)["parent_line"], 32);
    assert_eq!(at_line(33)["executions"], 3);
    assert_eq!(at_line(36)["routine"], "qsort");
    assert_eq!(at_line(36)["cost"], "n log n");
    assert_eq!(vol(&v, "main"), "n*steps + n");
    let sum_f = func(&v, "sum_k");
    let fl = &sum_f["loops"][0];
    assert_eq!(fl["kind"], "folded");
    assert_eq!(fl["line"], 7);
    assert_eq!(fl["params"], json!([]));
    assert_eq!(fl["executions"], 0);
    assert_eq!(v["summary"]["loops"]["folded"], 1);
    assert_eq!(v["summary"]["loops"]["never_ran"], 0);
    assert_eq!(v["modules"][0]["loops"], 1);
    assert_eq!(v["modules"][0]["library_loops"], 2);
    assert_eq!(v["modules"][0]["folded_loops"], 1);
}
