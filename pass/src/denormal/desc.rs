//! Denormal-mode descriptors (`taintprof_abi`, denormal section), their emission, the
//! registering constructor and the sidecar.
//!
//! | ABI struct      | LLVM type                                                   |
//! |-----------------|-------------------------------------------------------------|
//! | `FpSiteDesc`    | `{ SiteDesc, ptr, i16, i16, i16, i16, i32, i32, ptr }`       |
//! | `FpArrayDesc`   | `{ ptr, ptr, ptr, i32, i16, i16, i32, i32, i64, ptr }`       |
//! | `AllocSiteDesc` | `{ ptr, ptr, ptr, i32, i16, i16, i32, i32 }`                 |
//! | `DnModuleDesc`  | `{ i32, i32, ptr, ptr, i32, i32, ptr, i32, i32, i64, ptr }`  |
//!
//! The site array's size is known once every function has been planned (before any
//! instrumentation), so instrumented code refers to `&sites[i]` as a constant while
//! the contents are filled at the end. `SiteDesc`s inside the sites point at the
//! module's `LoopDesc`s (innermost logical loop), which point at `FuncDesc`s: those two
//! tables are emitted as in taint mode (`Descs::fill_tables`), without a `ModuleDesc`.

use super::fptype::FpKind;
use crate::descriptors::{Descs, Site};
use crate::ir::{Ir, T, V};
use crate::json::Json;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::LLVMLinkage;
use taintprof_abi as abi;

/// Name of the `DnModuleDesc` global (also marks a module as instrumented).
pub const DN_MODULE_GLOBAL: &str = "taintprof.dn_module";
/// Field index of `DnModuleDesc::base`.
pub const MODULE_FIELD_BASE: u32 = 9;

pub struct DnTypes {
    pub site: T,
    pub array: T,
    pub alloc: T,
    pub module: T,
}

impl DnTypes {
    pub fn new(ir: &Ir, site_desc: T) -> DnTypes {
        let (p, i16t, i32t, i64t) = (ir.ptr, ir.i16, ir.i32, ir.i64);
        DnTypes {
            site: ir.named_struct(
                "taintprof.FpSiteDesc",
                &[
                    site_desc, p, i16t, i16t, i16t, i16t, i32t, i32t, p, i32t, i32t,
                ],
            ),
            array: ir.named_struct(
                "taintprof.FpArrayDesc",
                &[p, p, p, i32t, i16t, i16t, i32t, i32t, i64t, p],
            ),
            alloc: ir.named_struct(
                "taintprof.AllocSiteDesc",
                &[p, p, p, i32t, i16t, i16t, i32t, i32t],
            ),
            module: ir.named_struct(
                "taintprof.DnModuleDesc",
                &[i32t, i32t, p, p, i32t, i32t, p, i32t, i32t, i64t, p],
            ),
        }
    }
}

/// One `FpSiteDesc`.
#[derive(Debug, Clone)]
pub struct FpSiteInfo {
    pub site: Site,
    pub op: String,
    pub fp: FpKind,
    pub lanes: u16,
    pub flags: u16,
    /// Block counter index.
    pub block: u32,
    /// First of the site's inline counters (`FpSiteDesc::counters`), or
    /// `FPSITE_NO_COUNTERS`.
    pub counters: u32,
    /// Bit `k`: operand `k` is a constant (`FpSiteDesc::const_operands`).
    pub const_operands: u16,
}

/// A marked array known at compile time (`FpArrayDesc`).
#[derive(Debug, Clone)]
pub struct FpArrayInfo {
    pub name: String,
    pub function: String,
    pub file: String,
    pub line: u32,
    pub elem: FpKind,
    /// `ARRAY_*`.
    pub kind: u16,
    pub elements: u64,
    /// The global (globals and statics); `None` for stack templates.
    pub addr: Option<V>,
}

/// An FP-typed allocation site (`AllocSiteDesc`).
#[derive(Debug, Clone)]
pub struct AllocSiteInfo {
    pub name: String,
    pub function: String,
    pub file: String,
    pub line: u32,
    pub elem: FpKind,
    /// The allocator called (sidecar); "alloca" marks a variable-length array, whose
    /// descriptor gets `ALLOC_SITE_VLA`; "std::vector *" a vector named through a
    /// pointer or reference (`ALLOC_SITE_BY_POINTER`); "realloc" and "reallocarray"
    /// keep the block's contents (`ALLOC_SITE_KEEPS_CONTENTS`).
    pub allocator: String,
    /// How the element type was found (sidecar only): `debug-info`, `fp-use`, ...
    pub typed_by: &'static str,
}

/// Per site, the index of the first site with the same source position (inline chain),
/// operation and element type: the vectorized, unrolled and peeled copies of one source
/// operation create denormals as one creator (`FpSiteDesc::creator`), so the report
/// lists it once and the tags of their lanes agree (which the inline memory caches need
/// to hit).
fn creator_indices(sites: &[FpSiteInfo]) -> Vec<u32> {
    let mut first: std::collections::HashMap<(&[crate::debugloc::SrcLoc], &str, u16), u32> =
        std::collections::HashMap::new();
    sites
        .iter()
        .enumerate()
        .map(|(i, s)| {
            *first
                .entry((&s.site.chain[..], &s.op[..], s.fp.code))
                .or_insert(i as u32)
        })
        .collect()
}

pub fn array_kind_name(k: u16) -> &'static str {
    match k {
        abi::ARRAY_GLOBAL => "global",
        abi::ARRAY_STATIC => "static",
        abi::ARRAY_STACK => "stack",
        _ => "heap",
    }
}

pub struct DnDescs {
    pub base: Descs,
    pub ty: DnTypes,
    pub sites: Vec<FpSiteInfo>,
    pub n_blocks: u32,
    /// Basic blocks counted (the inline sites' words follow them up to `n_blocks`); set
    /// when the inline words are numbered.
    pub counted_blocks: u32,
    /// Globals and statics (listed in the module descriptor).
    pub arrays: Vec<FpArrayInfo>,
    /// Stack-array templates and their globals.
    pub stack: Vec<(FpArrayInfo, V)>,
    pub allocs: Vec<(AllocSiteInfo, V)>,
    pub module_flags: u32,
    /// Per site: the index of the site that stands as its creator (`FpSiteDesc::creator`),
    /// set by [`Self::reserve`].
    creators: Vec<u32>,
    site_array: Option<(V, T)>,
    /// `[n_sites x i32]`, zero-initialized: per creator site, its creator index once the
    /// runtime gave it one (`__tpd_creator_index`, on the first denormal it creates).
    creator_ix: Option<(V, T)>,
    module: V,
}

impl DnDescs {
    /// Declares the (still empty) `DnModuleDesc` global right away: instrumented code
    /// refers to it (`base`, registration) before it is filled.
    pub fn new(ir: &Ir, base: Descs) -> DnDescs {
        let ty = DnTypes::new(ir, base.ty.site);
        let c = std::ffi::CString::new(DN_MODULE_GLOBAL).unwrap();
        // SAFETY: `ir.m` is the live module, `ty.module` a type of its context, `c` NUL-terminated.
        let module = unsafe { LLVMAddGlobal(ir.m, ty.module, c.as_ptr()) };
        // SAFETY: `module` is the global added to the live module just above.
        unsafe {
            LLVMSetLinkage(module, LLVMLinkage::LLVMInternalLinkage);
            LLVMSetAlignment(module, 8);
        }
        DnDescs {
            base,
            ty,
            sites: Vec::new(),
            n_blocks: 0,
            counted_blocks: 0,
            arrays: Vec::new(),
            stack: Vec::new(),
            allocs: Vec::new(),
            module_flags: 0,
            creators: Vec::new(),
            site_array: None,
            creator_ix: None,
            module,
        }
    }

    pub fn module(&self) -> V {
        self.module
    }

    /// `&module.base` as a constant.
    pub fn base_ptr(&self, ir: &Ir) -> V {
        // Struct field indices must be i32 constants.
        let mut ix = [ir.c64(0), ir.c32(MODULE_FIELD_BASE)];
        // SAFETY: `self.module` is our global of type `self.ty.module` and `ix` two live
        // integer constants (field `MODULE_FIELD_BASE` exists); LLVM copies `ix`.
        unsafe { LLVMConstInBoundsGEP2(self.ty.module, self.module, ix.as_mut_ptr(), 2) }
    }

    /// Create the site array once its size is known (after planning).
    pub fn reserve(&mut self, ir: &Ir) {
        self.base.reserve(ir);
        self.creators = creator_indices(&self.sites);
        let t = ir.array_ty(self.ty.site, self.sites.len() as u64);
        let c = std::ffi::CString::new("taintprof.fpsites").unwrap();
        // SAFETY: `ir.m` is the live module, `t` a type of its context, `c` NUL-terminated.
        let g = unsafe { LLVMAddGlobal(ir.m, t, c.as_ptr()) };
        self.site_array = Some((g, t));
        let t = ir.array_ty(ir.i32, self.sites.len() as u64);
        let c = std::ffi::CString::new("taintprof.creator_ix").unwrap();
        // SAFETY: as above; the initializer is a constant of the global's type.
        unsafe {
            let g = LLVMAddGlobal(ir.m, t, c.as_ptr());
            LLVMSetInitializer(g, ir.null(t));
            LLVMSetLinkage(g, LLVMLinkage::LLVMPrivateLinkage);
            LLVMSetAlignment(g, 4);
            self.creator_ix = Some((g, t));
        }
    }

    /// `&sites[i]` as a constant.
    pub fn site_ptr(&self, ir: &Ir, i: usize) -> V {
        let (g, t) = self.site_array.expect("reserve() first");
        ir.const_elem_ptr(t, g, i as u64)
    }

    /// The site that stands as creator for site `i`, as a constant (its address is the
    /// creator in tags).
    pub fn creator_ptr(&self, ir: &Ir, i: usize) -> V {
        self.site_ptr(ir, self.creators[i] as usize)
    }

    /// The slot of the creator index of site `i`'s creator, as a constant: 0 until
    /// the runtime assigned one.
    pub fn creator_ix_ptr(&self, ir: &Ir, i: usize) -> V {
        let (g, t) = self.creator_ix.expect("reserve() first");
        ir.const_elem_ptr(t, g, self.creators[i] as u64)
    }

    fn array_value(&mut self, ir: &Ir, a: &FpArrayInfo) -> V {
        let name = self.base.string(ir, &a.name);
        let function = self.base.string(ir, &a.function);
        let file = self.base.string(ir, &a.file);
        ir.cstruct(
            self.ty.array,
            &[
                name,
                function,
                file,
                ir.c32(a.line),
                ir.c16(a.elem.code),
                ir.c16(a.kind),
                ir.c32(a.elem.elem_size() as u32),
                ir.c32(0),
                ir.c64(a.elements),
                a.addr.unwrap_or_else(|| ir.null_ptr()),
            ],
        )
    }

    /// The constant `FpArrayDesc` template of a stack array (`addr` null).
    pub fn stack_template(&mut self, ir: &Ir, a: FpArrayInfo) -> V {
        let init = self.array_value(ir, &a);
        let g = ir.private_global("taintprof.stack_array", init, true);
        self.stack.push((a, g));
        g
    }

    /// The constant `AllocSiteDesc` of an allocation site.
    pub fn alloc_site(&mut self, ir: &Ir, a: AllocSiteInfo) -> V {
        let name = self.base.string(ir, &a.name);
        let function = self.base.string(ir, &a.function);
        let file = self.base.string(ir, &a.file);
        let init = ir.cstruct(
            self.ty.alloc,
            &[
                name,
                function,
                file,
                ir.c32(a.line),
                ir.c16(a.elem.code),
                ir.c16(match a.allocator.as_str() {
                    "alloca" => abi::ALLOC_SITE_VLA,
                    "std::vector *" => abi::ALLOC_SITE_BY_POINTER,
                    "realloc" | "reallocarray" => abi::ALLOC_SITE_KEEPS_CONTENTS,
                    _ => 0,
                }),
                ir.c32(a.elem.elem_size() as u32),
                ir.c32(0),
            ],
        );
        let g = ir.private_global("taintprof.alloc_site", init, true);
        self.allocs.push((a, g));
        g
    }

    /// Fill the site array, the global-array table and the module descriptor (returned:
    /// the module driver adds the constructor that registers it).
    pub fn finish(&mut self, ir: &Ir) -> V {
        self.base.fill_tables(ir);
        let (sg, _) = self.site_array.expect("reserve() first");
        let module = self.module;
        let sites = self.sites.clone();
        let svals: Vec<V> = sites
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let sd = self.base.site_value(ir, &s.site);
                let op = self.base.string(ir, &s.op);
                ir.cstruct(
                    self.ty.site,
                    &[
                        sd,
                        op,
                        ir.c16(s.fp.code),
                        ir.c16(s.lanes),
                        ir.c16(s.flags),
                        ir.c16(s.const_operands),
                        ir.c32(s.block),
                        ir.c32(i as u32),
                        module,
                        ir.c32(s.counters),
                        ir.c32(self.creators[i]),
                    ],
                )
            })
            .collect();
        // SAFETY: `sg` is the site array `reserve` added to the live module; the initializer
        // is a live constant.
        unsafe {
            LLVMSetInitializer(sg, ir.carray(self.ty.site, &svals));
            LLVMSetLinkage(sg, LLVMLinkage::LLVMPrivateLinkage);
            LLVMSetGlobalConstant(sg, 1);
        }
        let arrays = self.arrays.clone();
        let avals: Vec<V> = arrays.iter().map(|a| self.array_value(ir, a)).collect();
        let arrays_ptr = if avals.is_empty() {
            ir.null_ptr()
        } else {
            ir.private_global("taintprof.fparrays", ir.carray(self.ty.array, &avals), true)
        };
        let source = self.base.namer.module_source().to_string();
        let src = self.base.string(ir, &source);
        let sites_ptr = if sites.is_empty() { ir.null_ptr() } else { sg };
        let init = ir.cstruct(
            self.ty.module,
            &[
                ir.c32(abi::DN_MODULE_MAGIC),
                ir.c32(abi::ABI_VERSION),
                src,
                sites_ptr,
                ir.c32(sites.len() as u32),
                ir.c32(self.n_blocks),
                arrays_ptr,
                ir.c32(arrays.len() as u32),
                ir.c32(self.module_flags),
                ir.c64(abi::DN_BASE_UNREGISTERED),
                ir.null_ptr(),
            ],
        );
        // SAFETY: `module` is our global of type `ty.module`; `init` is a constant of that type.
        unsafe { LLVMSetInitializer(module, init) };
        module
    }

    /// Counted basic blocks (`n_blocks` less the inline sites' words).
    pub fn counted_blocks(&self) -> u32 {
        self.counted_blocks
    }

    /// The compile-time JSON view (schema `taintprof.static`, version 1, `"mode":
    /// "denormal"`).
    pub fn sidecar_json(&self) -> String {
        let mut by_op: std::collections::BTreeMap<&str, u64> = Default::default();
        for s in &self.sites {
            *by_op.entry(s.op.as_str()).or_default() += 1;
        }
        let ops: Vec<Json> = by_op
            .iter()
            .map(|(op, n)| Json::obj().str("op", op).num("sites", *n))
            .collect();
        let array = |a: &FpArrayInfo| {
            Json::obj()
                .str("name", &a.name)
                .str("kind", array_kind_name(a.kind))
                .str("element_type", a.elem.name)
                .num("elements", a.elements)
                .str("function", &a.function)
                .str("file", &a.file)
                .num("line", a.line as u64)
        };
        let mut arrays: Vec<Json> = self.arrays.iter().map(array).collect();
        arrays.extend(self.stack.iter().map(|(a, _)| array(a)));
        let allocs: Vec<Json> = self
            .allocs
            .iter()
            .map(|(a, _)| {
                Json::obj()
                    .str("name", &a.name)
                    .str("allocator", &a.allocator)
                    .str("element_type", a.elem.name)
                    .str("typed_by", a.typed_by)
                    .str("function", &a.function)
                    .str("file", &a.file)
                    .num("line", a.line as u64)
            })
            .collect();
        let funcs: Vec<Json> = self
            .base
            .funcs
            .iter()
            .map(|f| {
                Json::obj()
                    .str("name", &f.loc.function)
                    .str("linkage", &f.loc.linkage)
                    .str("file", &f.loc.file)
                    .num("line", f.loc.fn_line as u64)
            })
            .collect();
        Json::obj()
            .str("schema", "taintprof.static")
            .num("version", 1)
            .num("abi_version", abi::ABI_VERSION as u64)
            .str("mode", "denormal")
            .str("source", self.base.namer.module_source())
            .boolean(
                "debug_info",
                self.module_flags & abi::MODULE_NO_DEBUG_INFO == 0,
            )
            .num("sites", self.sites.len() as u64)
            .num("blocks", self.counted_blocks() as u64)
            .arr("operations", ops)
            .arr("arrays", arrays)
            .arr("allocation_sites", allocs)
            .arr("functions", funcs)
            .render()
    }
}
