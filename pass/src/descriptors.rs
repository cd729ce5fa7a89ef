//! Static descriptors (`SrcLoc`, `SiteDesc`, `LoopDesc`, `FuncDesc`, `BranchRec`,
//! `ModuleDesc`), the module constructor that registers them, and the JSON sidecar.
//!
//! Layouts are exactly those of `taintprof_abi` (the runtime reads these bytes; the
//! denormal-mode descriptors are in `crate::denormal::desc`):
//!
//! | ABI struct   | LLVM type                                               |
//! |--------------|---------------------------------------------------------|
//! | `SrcLoc`     | `{ ptr, ptr, ptr, i32, i32, i32, i32 }`                  |
//! | `SiteDesc`   | `{ ptr, i32, i32, ptr }` (chain, n, flags, loop)         |
//! | `LoopDesc`   | `{ ptr, i32, i32, i64, ptr, ptr, ptr, ptr }` (.., parent, func, routine, cost) |
//! | `FuncDesc`   | `{ SrcLoc, i32, i32 }`                                   |
//! | `BranchRec`  | `{ ptr, ptr, i32, i16, i16, i64, i64 }` (mutable)        |
//! | `ModuleDesc` | `{ i32, i32, ptr, ptr, i32, i32, ptr, ptr, i32, i32, ptr }` |
//!
//! The function, loop and branch descriptors live in three arrays whose sizes are known
//! once every function has been analysed (before instrumentation), so instrumented code
//! can refer to `&funcs[i]` / `&loops[j]` / `&branches[k]` as constants while the arrays'
//! contents are filled in at the end. Site descriptors are created on demand and
//! deduplicated by inline chain and loop (two calls with the same chain in the same
//! loop are indistinguishable in a report).
//!
//! Loop references (`SiteDesc::loop_`, `LoopDesc::parent`) name the *logical* loop: the
//! representative of the loops the optimizer made from one source loop (a vector body
//! and its remainder, see `prepare::Sink`), which is the descriptor
//! `__tp_loop_exit` reports, so the runtime finds executions under every reference.

use crate::debugloc::{Namer, SrcLoc};
use crate::ffi;
use crate::ir::{Ir, T, V};
use crate::json::Json;
use crate::prune::Reason;
use std::collections::HashMap;
use std::ffi::CString;
use std::path::Path;
use taintprof_abi as abi;

pub struct DescTypes {
    pub srcloc: T,
    pub site: T,
    pub loopd: T,
    pub func: T,
    pub branch: T,
    pub module: T,
}

/// Field indices of `BranchRec` that instrumented code reads.
pub const BRANCH_FIELD_LABEL: u32 = 3;
pub const BRANCH_FIELD_TAKEN: u32 = 5;

impl DescTypes {
    pub fn new(ir: &Ir) -> DescTypes {
        let (p, i16t, i32t, i64t) = (ir.ptr, ir.i16, ir.i32, ir.i64);
        let srcloc = ir.named_struct("taintprof.SrcLoc", &[p, p, p, i32t, i32t, i32t, i32t]);
        DescTypes {
            srcloc,
            site: ir.named_struct("taintprof.SiteDesc", &[p, i32t, i32t, p]),
            loopd: ir.named_struct("taintprof.LoopDesc", &[p, i32t, i32t, i64t, p, p, p, p]),
            func: ir.named_struct("taintprof.FuncDesc", &[srcloc, i32t, i32t]),
            branch: ir.named_struct("taintprof.BranchRec", &[p, p, i32t, i16t, i16t, i64t, i64t]),
            module: ir.named_struct(
                "taintprof.ModuleDesc",
                &[i32t, i32t, p, p, i32t, i32t, p, p, i32t, i32t, p],
            ),
        }
    }
}

/// What the pass knows about one loop (for the descriptor and the sidecar).
#[derive(Debug, Clone)]
pub struct LoopInfo {
    pub chain: Vec<SrcLoc>,
    pub flags: u32,
    /// The constant trip count, if known in source terms (the flag `LOOP_CONST_TRIP`
    /// can be set without it: a vectorized copy of a constant loop).
    pub const_trip_count: Option<u64>,
    /// Module loop index of the enclosing (logical) loop in the same physical function.
    pub parent: Option<usize>,
    /// Module function index of the physical function (a folded loop: of the function
    /// it was written in, if the module still defines it).
    pub func: Option<usize>,
    /// Library loops: the routine's name and cost formula.
    pub routine: Option<(String, String)>,
}

#[derive(Debug, Clone)]
pub struct FuncInfo {
    pub loc: SrcLoc,
    pub flags: u32,
    /// Indices into the module's loop array.
    pub loops: Vec<usize>,
    /// Why the function was statically pruned, if it was.
    pub pruned: Option<Reason>,
    /// Number of branch sinks (records in the module's branch array).
    pub branches: usize,
}

/// A source position with the innermost (logical) loop around it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Site {
    pub chain: Vec<SrcLoc>,
    /// Module loop index.
    pub loop_: Option<usize>,
}

/// One branch sink (for its `BranchRec`).
#[derive(Debug, Clone)]
pub struct BranchInfo {
    pub site: Site,
    /// One per distinct successor, in successor order.
    pub succ: Vec<Site>,
    /// `BRANCH_*` flags.
    pub flags: u16,
}

pub const MODULE_GLOBAL: &str = "taintprof.module";

pub struct Descs {
    pub namer: Namer,
    pub ty: DescTypes,
    strings: HashMap<String, V>,
    chains: HashMap<Vec<SrcLoc>, V>,
    sites: HashMap<Site, V>,
    pub funcs: Vec<FuncInfo>,
    pub loops: Vec<LoopInfo>,
    pub branches: Vec<BranchInfo>,
    func_array: Option<(V, T)>,
    loop_array: Option<(V, T)>,
    branch_array: Option<(V, T)>,
    pub module_flags: u32,
    /// Per function (index as `funcs`): its provenance graph (`crate::provenance`),
    /// compact JSON; empty when no sidecar is written.
    pub provenance: Vec<String>,
}

impl Descs {
    pub fn new(ir: &Ir, namer: Namer) -> Descs {
        Descs {
            namer,
            ty: DescTypes::new(ir),
            strings: HashMap::new(),
            chains: HashMap::new(),
            sites: HashMap::new(),
            funcs: Vec::new(),
            loops: Vec::new(),
            branches: Vec::new(),
            provenance: Vec::new(),
            func_array: None,
            loop_array: None,
            branch_array: None,
            module_flags: 0,
        }
    }

    pub(crate) fn string(&mut self, ir: &Ir, s: &str) -> V {
        if let Some(v) = self.strings.get(s) {
            return *v;
        }
        let g = ir.private_global("taintprof.str", ir.cstring(s), true);
        // SAFETY: `g` is the global `private_global` just added to the live module.
        unsafe {
            inkwell::llvm_sys::core::LLVMSetUnnamedAddress(
                g,
                inkwell::llvm_sys::LLVMUnnamedAddr::LLVMGlobalUnnamedAddr,
            )
        };
        self.strings.insert(s.to_string(), g);
        g
    }

    fn srcloc(&mut self, ir: &Ir, l: &SrcLoc) -> V {
        let f = self.string(ir, &l.function);
        let k = self.string(ir, &l.linkage);
        let file = self.string(ir, &l.file);
        ir.cstruct(
            self.ty.srcloc,
            &[
                f,
                k,
                file,
                ir.c32(l.fn_line),
                ir.c32(l.line),
                ir.c32(l.column),
                ir.c32(0),
            ],
        )
    }

    fn chain(&mut self, ir: &Ir, chain: &[SrcLoc]) -> V {
        if let Some(v) = self.chains.get(chain) {
            return *v;
        }
        let elems: Vec<V> = chain.iter().map(|l| self.srcloc(ir, l)).collect();
        let g = ir.private_global("taintprof.chain", ir.carray(self.ty.srcloc, &elems), true);
        self.chains.insert(chain.to_vec(), g);
        g
    }

    /// The `SiteDesc` constant (not a global) for `site`.
    pub(crate) fn site_value(&mut self, ir: &Ir, site: &Site) -> V {
        let c = self.chain(ir, &site.chain);
        let l = match site.loop_ {
            Some(i) => self.loop_ptr(ir, i),
            None => ir.null_ptr(),
        };
        ir.cstruct(
            self.ty.site,
            &[c, ir.c32(site.chain.len() as u32), ir.c32(0), l],
        )
    }

    /// The `SiteDesc` global for a call or branch at `site` (after [`Descs::reserve`]).
    pub fn site(&mut self, ir: &Ir, site: Site) -> V {
        if let Some(v) = self.sites.get(&site) {
            return *v;
        }
        let init = self.site_value(ir, &site);
        let g = ir.private_global("taintprof.site", init, true);
        self.sites.insert(site, g);
        g
    }

    pub fn n_sites(&self) -> usize {
        self.sites.len()
    }

    /// Create the (still empty) function and loop arrays once their sizes are known.
    pub fn reserve(&mut self, ir: &Ir) {
        let mk = |name: &str, elem: T, n: usize| {
            let t = ir.array_ty(elem, n as u64);
            let c = CString::new(name).unwrap();
            // SAFETY: `ir.m` is the live module, `t` a type of its context and `c` NUL-terminated.
            let g = unsafe { inkwell::llvm_sys::core::LLVMAddGlobal(ir.m, t, c.as_ptr()) };
            (g, t)
        };
        self.func_array = Some(mk("taintprof.funcs", self.ty.func, self.funcs.len()));
        self.loop_array = Some(mk("taintprof.loops", self.ty.loopd, self.loops.len()));
        self.branch_array = Some(mk(
            "taintprof.branches",
            self.ty.branch,
            self.branches.len(),
        ));
    }

    /// `&branches[i]` as a constant.
    pub fn branch_ptr(&self, ir: &Ir, i: usize) -> V {
        let (g, t) = self.branch_array.expect("reserve() first");
        ir.const_elem_ptr(t, g, i as u64)
    }

    /// `&branches[i].<field>` as a constant.
    pub fn branch_field_ptr(&self, ir: &Ir, i: usize, field: u32) -> V {
        let (g, t) = self.branch_array.expect("reserve() first");
        ir.const_gep(t, g, &[0, i as u64, field as u64])
    }

    /// `&funcs[i]` as a constant.
    pub fn func_ptr(&self, ir: &Ir, i: usize) -> V {
        let (g, t) = self.func_array.expect("reserve() first");
        ir.const_elem_ptr(t, g, i as u64)
    }

    /// `&loops[i]` as a constant.
    pub fn loop_ptr(&self, ir: &Ir, i: usize) -> V {
        let (g, t) = self.loop_array.expect("reserve() first");
        ir.const_elem_ptr(t, g, i as u64)
    }

    /// Fill the arrays, emit the `ModuleDesc` (returned: the module driver adds the
    /// constructor that registers it).
    pub fn finish(&mut self, ir: &Ir) -> V {
        use inkwell::llvm_sys::core::*;
        use inkwell::llvm_sys::LLVMLinkage;
        let (fg, lg, bg) = self.fill_tables(ir);
        let (n_funcs, n_loops, n_branches) =
            (self.funcs.len(), self.loops.len(), self.branches.len());
        let source = self.namer.module_source().to_string();
        let src = self.string(ir, &source);
        let loops_ptr = if n_loops == 0 { ir.null_ptr() } else { lg };
        let branches_ptr = if n_branches == 0 { ir.null_ptr() } else { bg };
        let init = ir.cstruct(
            self.ty.module,
            &[
                ir.c32(abi::MODULE_MAGIC),
                ir.c32(abi::ABI_VERSION),
                src,
                fg,
                ir.c32(n_funcs as u32),
                ir.c32(n_loops as u32),
                loops_ptr,
                branches_ptr,
                ir.c32(n_branches as u32),
                ir.c32(self.module_flags),
                ir.null_ptr(),
            ],
        );
        // Mutable: the runtime links registered modules through `next`.
        let md = ir.private_global(MODULE_GLOBAL, init, false);
        // SAFETY: `md` is the global `private_global` just added to the live module.
        unsafe { LLVMSetLinkage(md, LLVMLinkage::LLVMInternalLinkage) };
        md
    }

    /// Fill the function, loop and branch arrays (after [`Descs::reserve`]); returns
    /// the three globals. Denormal mode needs them too: its site descriptors point at
    /// loops, loops at functions.
    pub fn fill_tables(&mut self, ir: &Ir) -> (V, V, V) {
        use inkwell::llvm_sys::core::*;
        use inkwell::llvm_sys::LLVMLinkage;
        let funcs = self.funcs.clone();
        let loops = self.loops.clone();
        let fvals: Vec<V> = funcs
            .iter()
            .map(|f| {
                let loc = self.srcloc(ir, &f.loc);
                // Natural loops only: library and folded loops are not loops of the IR.
                let natural = f
                    .loops
                    .iter()
                    .filter(|&&i| self.loops[i].flags & (abi::LOOP_LIBRARY | abi::LOOP_FOLDED) == 0)
                    .count();
                ir.cstruct(
                    self.ty.func,
                    &[loc, ir.c32(f.flags), ir.c32(natural as u32)],
                )
            })
            .collect();
        let lvals: Vec<V> = loops
            .iter()
            .map(|l| {
                let c = self.chain(ir, &l.chain);
                let parent = match l.parent {
                    Some(p) => self.loop_ptr(ir, p),
                    None => ir.null_ptr(),
                };
                let func = match l.func {
                    Some(f) => self.func_ptr(ir, f),
                    None => ir.null_ptr(),
                };
                let (name, cost) = l.routine.clone().unwrap_or_default();
                let (name, cost) = (self.string(ir, &name), self.string(ir, &cost));
                ir.cstruct(
                    self.ty.loopd,
                    &[
                        c,
                        ir.c32(l.chain.len() as u32),
                        ir.c32(l.flags),
                        ir.c64(l.const_trip_count.unwrap_or(0)),
                        parent,
                        func,
                        name,
                        cost,
                    ],
                )
            })
            .collect();
        let branches = self.branches.clone();
        let bvals: Vec<V> = branches
            .iter()
            .map(|b| {
                let site = self.site(ir, b.site.clone());
                let succs: Vec<V> = b.succ.iter().map(|s| self.site_value(ir, s)).collect();
                let arr =
                    ir.private_global("taintprof.succ", ir.carray(self.ty.site, &succs), true);
                ir.cstruct(
                    self.ty.branch,
                    &[
                        site,
                        arr,
                        ir.c32(succs.len() as u32),
                        ir.c16(0),
                        ir.c16(b.flags),
                        ir.c64(0),
                        ir.c64(0),
                    ],
                )
            })
            .collect();
        let (fg, _) = self.func_array.unwrap();
        let (lg, _) = self.loop_array.unwrap();
        let (bg, _) = self.branch_array.unwrap();
        // SAFETY: `fg`, `lg` and `bg` are the globals `reserve` added to the live module, and
        // the initializers are live constants of their types.
        unsafe {
            LLVMSetInitializer(fg, ir.carray(self.ty.func, &fvals));
            LLVMSetInitializer(lg, ir.carray(self.ty.loopd, &lvals));
            LLVMSetInitializer(bg, ir.carray(self.ty.branch, &bvals));
            for g in [fg, lg] {
                LLVMSetLinkage(g, LLVMLinkage::LLVMPrivateLinkage);
                LLVMSetGlobalConstant(g, 1);
            }
            // Branch records are updated in place by instrumented code and the runtime.
            LLVMSetLinkage(bg, LLVMLinkage::LLVMInternalLinkage);
            LLVMSetAlignment(bg, 8);
        }
        (fg, lg, bg)
    }

    /// The compile-time JSON view (schema `taintprof.static`, version 1; keys are only
    /// ever added).
    pub fn sidecar_json(&self) -> String {
        let loc_json = |l: &SrcLoc| {
            Json::obj()
                .str("function", &l.function)
                .str("linkage", &l.linkage)
                .str("file", &l.file)
                .num("line", l.line as u64)
                .num("column", l.column as u64)
        };
        let own_line = |l: &LoopInfo| l.chain.last().map(|c| c.line as u64);
        let mut funcs = Vec::new();
        for (fi, f) in self.funcs.iter().enumerate() {
            let loops: Vec<Json> = f
                .loops
                .iter()
                .map(|&i| {
                    let l = &self.loops[i];
                    let own = l.chain.last().cloned().unwrap_or_else(|| f.loc.clone());
                    Json::obj()
                        .num("line", own.line as u64)
                        .num("column", own.column as u64)
                        .boolean("constant_trip", l.flags & abi::LOOP_CONST_TRIP != 0)
                        .opt_num("const_trip_count", l.const_trip_count)
                        .opt_num(
                            "parent_line",
                            l.parent.and_then(|p| own_line(&self.loops[p])),
                        )
                        .boolean("has_debug_loc", l.flags & abi::LOOP_NO_DEBUG_LOC == 0)
                        .boolean("has_sink", l.flags & abi::LOOP_NO_SINK == 0)
                        .boolean("recursion", l.flags & abi::LOOP_RECURSION != 0)
                        .str("kind", loop_kind(l.flags))
                        .opt_str("routine", l.routine.as_ref().map(|r| r.0.as_str()))
                        .opt_str("cost", l.routine.as_ref().map(|r| r.1.as_str()))
                        .arr("inline_chain", l.chain.iter().map(loc_json).collect())
                })
                .collect();
            let mut fj = Json::obj()
                .str("name", &f.loc.function)
                .str("linkage", &f.loc.linkage)
                .str("file", &f.loc.file)
                .num("line", f.loc.fn_line as u64)
                .boolean("context_tracked", f.flags & abi::FUNC_CONTEXT_TRACKED != 0)
                .boolean("statically_pruned", f.pruned.is_some())
                .opt_str("prune_reason", f.pruned.map(Reason::as_str))
                .boolean("recursive", f.flags & abi::FUNC_RECURSIVE_STATIC != 0)
                .num("branches", f.branches as u64)
                .arr("loops", loops);
            if let Some(g) = self.provenance.get(fi).filter(|g| !g.is_empty()) {
                fj = fj.raw("provenance", g.clone());
            }
            funcs.push(fj);
        }
        Json::obj()
            .str("schema", "taintprof.static")
            .num("version", 2)
            .num("abi_version", abi::ABI_VERSION as u64)
            .str("source", self.namer.module_source())
            .boolean(
                "debug_info",
                self.module_flags & abi::MODULE_NO_DEBUG_INFO == 0,
            )
            .boolean(
                "control_flow",
                self.module_flags & abi::MODULE_CONTROL_FLOW != 0,
            )
            .arr("functions", funcs)
            .render()
    }
}

/// `loop` (a natural loop), `library` or `folded` (see `taintprof_abi::LoopDesc`).
pub fn loop_kind(flags: u32) -> &'static str {
    if flags & abi::LOOP_FOLDED != 0 {
        "folded"
    } else if flags & abi::LOOP_LIBRARY != 0 {
        "library"
    } else {
        "loop"
    }
}

/// The module constructor: `void taintprof.module_ctor() { register(md); }`, at priority
/// 1: before ordinary constructors (65535) that may run instrumented code, after the
/// runtime's own set-up (.preinit_array).
pub fn register_ctor(ir: &Ir, register: (V, T), md: V) {
    use inkwell::llvm_sys::core::*;
    use inkwell::llvm_sys::LLVMLinkage;
    let ctor_ty = ir.fn_ty(ir.void, &[], false);
    let ctor = ir.function("taintprof.module_ctor", ctor_ty);
    // SAFETY: `ctor` is a live function of the module (`ir.function`), `ir.ctx` the
    // module's context and `ir.b` our builder; the block name is NUL-terminated.
    unsafe {
        LLVMSetLinkage(ctor, LLVMLinkage::LLVMInternalLinkage);
        let bb = LLVMAppendBasicBlockInContext(ir.ctx, ctor, c"entry".as_ptr());
        LLVMPositionBuilderAtEnd(ir.b, bb);
        // The builder still carries the debug location of the last instrumented
        // instruction (another function's scope): the ctor has no debug info.
        LLVMSetCurrentDebugLocation2(ir.b, std::ptr::null_mut());
    }
    ir.add_fn_attr(ctor, "nounwind");
    ir.call(register.1, register.0, &[md]);
    ir.ret_void();
    // SAFETY: `ir.m` is the live module and `ctor` a function defined in it just above.
    unsafe { ffi::tp_append_global_ctor(ir.m, ctor, 1) };
}

/// Where the sidecar goes: `TAINTPROF_SIDECAR`, else `<TAINTPROF_SIDECAR_DIR>/<stem>.o.taintprof-static.json`.
pub fn sidecar_path(cfg: &crate::config::Config, source: &str) -> Option<std::path::PathBuf> {
    if let Some(p) = &cfg.sidecar {
        return Some(p.clone());
    }
    let dir = cfg.sidecar_dir.as_ref()?;
    let stem = Path::new(source)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "module".into());
    Some(dir.join(format!("{stem}.o.taintprof-static.json")))
}

/// Write `text` to `path` atomically (temporary file in the same directory + rename).
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
