//! Static descriptors (`SrcLoc`, `SiteDesc`, `LoopDesc`, `FuncDesc`, `ModuleDesc`),
//! the module constructor that registers them, and the JSON sidecar.
//!
//! Layouts are exactly those of `taintprof_abi` (the runtime reads these bytes):
//!
//! | ABI struct   | LLVM type                                               |
//! |--------------|---------------------------------------------------------|
//! | `SrcLoc`     | `{ ptr, ptr, ptr, i32, i32, i32, i32 }`                  |
//! | `SiteDesc`   | `{ ptr, i32, i32 }`                                      |
//! | `LoopDesc`   | `{ ptr, i32, i32, i64 }`                                 |
//! | `FuncDesc`   | `{ SrcLoc, i32, i32 }`                                   |
//! | `ModuleDesc` | `{ i32, i32, ptr, ptr, i32, i32, ptr, ptr, i32, i32, ptr }` |
//!
//! The function and loop descriptors live in two arrays whose sizes are known once
//! every function has been analysed (before instrumentation), so instrumented code can
//! refer to `&funcs[i]` / `&loops[j]` as constants while the arrays' contents are
//! filled in at the end. Site descriptors are created on demand and deduplicated by
//! inline chain (two calls with the same chain are indistinguishable in a report).

use crate::debugloc::{Namer, SrcLoc};
use crate::ffi;
use crate::ir::{Ir, T, V};
use crate::json::Json;
use std::collections::HashMap;
use std::ffi::CString;
use std::path::Path;
use taintprof_abi as abi;

pub struct DescTypes {
    pub srcloc: T,
    pub site: T,
    pub loopd: T,
    pub func: T,
    pub module: T,
}

impl DescTypes {
    pub fn new(ir: &Ir) -> DescTypes {
        let (p, i32t, i64t) = (ir.ptr, ir.i32, ir.i64);
        let srcloc = ir.named_struct("taintprof.SrcLoc", &[p, p, p, i32t, i32t, i32t, i32t]);
        DescTypes {
            srcloc,
            site: ir.named_struct("taintprof.SiteDesc", &[p, i32t, i32t]),
            loopd: ir.named_struct("taintprof.LoopDesc", &[p, i32t, i32t, i64t]),
            func: ir.named_struct("taintprof.FuncDesc", &[srcloc, i32t, i32t]),
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
    pub const_trip_count: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct FuncInfo {
    pub loc: SrcLoc,
    pub flags: u32,
    /// Indices into the module's loop array.
    pub loops: Vec<usize>,
}

pub const MODULE_GLOBAL: &str = "taintprof.module";

pub struct Descs {
    pub namer: Namer,
    pub ty: DescTypes,
    strings: HashMap<String, V>,
    chains: HashMap<Vec<SrcLoc>, V>,
    sites: HashMap<Vec<SrcLoc>, V>,
    pub funcs: Vec<FuncInfo>,
    pub loops: Vec<LoopInfo>,
    func_array: Option<(V, T)>,
    loop_array: Option<(V, T)>,
    pub module_flags: u32,
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
            func_array: None,
            loop_array: None,
            module_flags: 0,
        }
    }

    fn string(&mut self, ir: &Ir, s: &str) -> V {
        if let Some(v) = self.strings.get(s) {
            return *v;
        }
        let g = ir.private_global("taintprof.str", ir.cstring(s), true);
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

    /// The `SiteDesc` for a call with debug location chain `chain`.
    pub fn site(&mut self, ir: &Ir, chain: Vec<SrcLoc>) -> V {
        if let Some(v) = self.sites.get(&chain) {
            return *v;
        }
        let c = self.chain(ir, &chain);
        let init = ir.cstruct(self.ty.site, &[c, ir.c32(chain.len() as u32), ir.c32(0)]);
        let g = ir.private_global("taintprof.site", init, true);
        self.sites.insert(chain, g);
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
            let g = unsafe { inkwell::llvm_sys::core::LLVMAddGlobal(ir.m, t, c.as_ptr()) };
            (g, t)
        };
        self.func_array = Some(mk("taintprof.funcs", self.ty.func, self.funcs.len()));
        self.loop_array = Some(mk("taintprof.loops", self.ty.loopd, self.loops.len()));
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

    /// Fill the arrays, emit the `ModuleDesc` and the constructor that registers it.
    pub fn finish(&mut self, ir: &Ir, rt_register: (V, T)) {
        use inkwell::llvm_sys::core::*;
        use inkwell::llvm_sys::LLVMLinkage;
        let funcs = self.funcs.clone();
        let loops = self.loops.clone();
        let fvals: Vec<V> = funcs
            .iter()
            .map(|f| {
                let loc = self.srcloc(ir, &f.loc);
                ir.cstruct(
                    self.ty.func,
                    &[loc, ir.c32(f.flags), ir.c32(f.loops.len() as u32)],
                )
            })
            .collect();
        let lvals: Vec<V> = loops
            .iter()
            .map(|l| {
                let c = self.chain(ir, &l.chain);
                ir.cstruct(
                    self.ty.loopd,
                    &[
                        c,
                        ir.c32(l.chain.len() as u32),
                        ir.c32(l.flags),
                        ir.c64(l.const_trip_count.unwrap_or(0)),
                    ],
                )
            })
            .collect();
        let (fg, _) = self.func_array.unwrap();
        let (lg, _) = self.loop_array.unwrap();
        unsafe {
            LLVMSetInitializer(fg, ir.carray(self.ty.func, &fvals));
            LLVMSetInitializer(lg, ir.carray(self.ty.loopd, &lvals));
            for g in [fg, lg] {
                LLVMSetLinkage(g, LLVMLinkage::LLVMPrivateLinkage);
                LLVMSetGlobalConstant(g, 1);
            }
        }
        let source = self.namer.module_source().to_string();
        let src = self.string(ir, &source);
        let loops_ptr = if loops.is_empty() { ir.null_ptr() } else { lg };
        let init = ir.cstruct(
            self.ty.module,
            &[
                ir.c32(abi::MODULE_MAGIC),
                ir.c32(abi::ABI_VERSION),
                src,
                fg,
                ir.c32(funcs.len() as u32),
                ir.c32(loops.len() as u32),
                loops_ptr,
                ir.null_ptr(),
                ir.c32(0),
                ir.c32(self.module_flags),
                ir.null_ptr(),
            ],
        );
        // Mutable: the runtime links registered modules through `next`.
        let md = ir.private_global(MODULE_GLOBAL, init, false);
        unsafe { LLVMSetLinkage(md, LLVMLinkage::LLVMInternalLinkage) };
        // The constructor: `void taintprof.module_ctor() { __tp_register_module(&md); }`.
        let ctor_ty = ir.fn_ty(ir.void, &[], false);
        let ctor = ir.function("taintprof.module_ctor", ctor_ty);
        unsafe {
            LLVMSetLinkage(ctor, LLVMLinkage::LLVMInternalLinkage);
            let bb = LLVMAppendBasicBlockInContext(ir.ctx, ctor, c"entry".as_ptr());
            LLVMPositionBuilderAtEnd(ir.b, bb);
            // The builder still carries the debug location of the last instrumented
            // instruction (another function's scope): the ctor has no debug info.
            LLVMSetCurrentDebugLocation2(ir.b, std::ptr::null_mut());
        }
        ir.add_fn_attr(ctor, "nounwind");
        ir.call(rt_register.1, rt_register.0, &[md]);
        ir.ret_void();
        // Priority 1: before ordinary constructors (65535) that may run instrumented
        // code, after the runtime's own set-up (.preinit_array).
        unsafe { ffi::tp_append_global_ctor(ir.m, ctor, 1) };
    }

    /// The compile-time JSON view (schema `taintprof.static`, version 1).
    pub fn sidecar_json(&self) -> String {
        let loc_json = |l: &SrcLoc| {
            Json::obj()
                .str("function", &l.function)
                .str("linkage", &l.linkage)
                .str("file", &l.file)
                .num("line", l.line as u64)
                .num("column", l.column as u64)
        };
        let mut funcs = Vec::new();
        for f in &self.funcs {
            let loops: Vec<Json> = f
                .loops
                .iter()
                .map(|&i| {
                    let l = &self.loops[i];
                    let own = l.chain.last().cloned().unwrap_or_else(|| f.loc.clone());
                    Json::obj()
                        .num("line", own.line as u64)
                        .num("column", own.column as u64)
                        .opt_num("const_trip_count", l.const_trip_count)
                        .boolean("has_debug_loc", l.flags & abi::LOOP_NO_DEBUG_LOC == 0)
                        .boolean("has_sink", l.flags & abi::LOOP_NO_SINK == 0)
                        .arr("inline_chain", l.chain.iter().map(loc_json).collect())
                })
                .collect();
            funcs.push(
                Json::obj()
                    .str("name", &f.loc.function)
                    .str("linkage", &f.loc.linkage)
                    .str("file", &f.loc.file)
                    .num("line", f.loc.fn_line as u64)
                    .boolean("context_tracked", f.flags & abi::FUNC_CONTEXT_TRACKED != 0)
                    .arr("loops", loops),
            );
        }
        Json::obj()
            .str("schema", "taintprof.static")
            .num("version", 1)
            .num("abi_version", abi::ABI_VERSION as u64)
            .str("source", self.namer.module_source())
            .boolean(
                "debug_info",
                self.module_flags & abi::MODULE_NO_DEBUG_INFO == 0,
            )
            .arr("functions", funcs)
            .render()
    }
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
