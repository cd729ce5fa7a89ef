//! Source identity: turning debug locations into the `SrcLoc` chains of the ABI.
//!
//! A position is described by an inline chain, outermost first: `chain[0]` is a
//! position in the physical function (the one the code was compiled into), each next
//! entry a position inside a function inlined at the previous one, and `chain[n-1]` the
//! position itself in the function it was written in. The chain is the `inlinedAt`
//! list of the `DILocation`, reversed.
//!
//! Loops are identified by the position of their `for`/`while`/`do` keyword: the first
//! `DILocation` operand of the `!llvm.loop` metadata of a latch terminator. Clang emits
//! it whenever debug info is on (also with `-gline-tables-only`), the inliner rewrites
//! it with `inlinedAt`, and the vectorizer keeps it on the vector and remainder loops,
//! so the same source loop gets the same name at `-O0` and `-O2`.

use crate::ffi;
use crate::ir::{self, B, V};
use inkwell::llvm_sys::debuginfo::{LLVMGetSubprogram, LLVMInstructionGetDebugLoc};
use inkwell::llvm_sys::prelude::LLVMMetadataRef;
use std::collections::HashMap;
use std::path::Path;

/// One `SrcLoc` (see `taintprof_abi::SrcLoc`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SrcLoc {
    pub function: String,
    pub linkage: String,
    pub file: String,
    pub fn_line: u32,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone)]
struct SubInfo {
    function: String,
    linkage: String,
    file: String,
    line: u32,
}

/// Builds chains for the functions of one module, caching subprogram lookups.
pub struct Namer {
    module_source: String,
    subs: HashMap<usize, SubInfo>,
}

pub fn join_file(dir: &str, file: &str) -> String {
    if file.is_empty() || dir.is_empty() || Path::new(file).is_absolute() {
        return file.to_string();
    }
    Path::new(dir).join(file).to_string_lossy().into_owned()
}

/// `(source-level name, linkage name)` for a function known by its debug-info name
/// `di_name`, its debug-info linkage name (possibly empty), and its IR name.
pub fn names(di_name: &str, di_linkage: &str, ir_name: Option<&str>) -> (String, String) {
    let linkage = if !di_linkage.is_empty() {
        di_linkage.to_string()
    } else if let Some(n) = ir_name.filter(|n| ffi::demangle(n).is_some()) {
        // -gline-tables-only may omit linkageName; the IR name is the mangled name.
        n.to_string()
    } else if !di_name.is_empty() {
        di_name.to_string()
    } else {
        ir_name.unwrap_or("").to_string()
    };
    let function = ffi::demangle(&linkage).unwrap_or_else(|| {
        if di_name.is_empty() {
            linkage.clone()
        } else {
            di_name.to_string()
        }
    });
    (readable_outlined(function), linkage)
}

/// Clang outlines an OpenMP region of `f` into `f.omp_outlined`; with debug info the
/// body goes to `f.omp_outlined_debug__`, which the wrapper calls (and, optimized,
/// inlines). Reports name both `f.omp_outlined`: the suffix is an artefact of `-g`.
fn readable_outlined(function: String) -> String {
    match function.strip_suffix("_debug__") {
        Some(base) if base.ends_with(".omp_outlined") => base.to_string(),
        _ => function,
    }
}

impl Namer {
    pub fn new(module_source: String) -> Namer {
        Namer {
            module_source,
            subs: HashMap::new(),
        }
    }

    pub fn module_source(&self) -> &str {
        &self.module_source
    }

    fn sub(&mut self, sp: LLVMMetadataRef, phys: V) -> SubInfo {
        let key = sp as usize;
        if let Some(s) = self.subs.get(&key) {
            return s.clone();
        }
        let mut out = ffi::TpSubprogram {
            name: ffi::TpStr {
                ptr: std::ptr::null(),
                len: 0,
            },
            linkage: ffi::TpStr {
                ptr: std::ptr::null(),
                len: 0,
            },
            file: ffi::TpStr {
                ptr: std::ptr::null(),
                len: 0,
            },
            dir: ffi::TpStr {
                ptr: std::ptr::null(),
                len: 0,
            },
            line: 0,
        };
        // SAFETY: sp is a DISubprogram of the module (or the shim returns 0).
        let ok = unsafe { ffi::tp_subprogram_info(sp, &mut out) } != 0;
        let info = if ok {
            // SAFETY: `phys` is non-null: a live function of the module (the function being
            // described, `func_loc`/`chain`); LLVM casts it to `Function`.
            let is_phys = !phys.is_null() && unsafe { LLVMGetSubprogram(phys) } == sp;
            let ir_name = if is_phys {
                Some(ir::name_of(phys))
            } else {
                None
            };
            let (function, linkage) = names(
                &out.name.to_string_lossy(),
                &out.linkage.to_string_lossy(),
                ir_name.as_deref(),
            );
            SubInfo {
                function,
                linkage,
                file: join_file(&out.dir.to_string_lossy(), &out.file.to_string_lossy()),
                line: out.line,
            }
        } else {
            SubInfo {
                function: String::new(),
                linkage: String::new(),
                file: self.module_source.clone(),
                line: 0,
            }
        };
        self.subs.insert(key, info.clone());
        info
    }

    /// `(source-level function name, file)` of DISubprogram `sp` (empty if null).
    pub fn subprogram(&mut self, sp: LLVMMetadataRef) -> (String, String) {
        if sp.is_null() {
            return (String::new(), String::new());
        }
        let s = self.sub(sp, std::ptr::null_mut());
        (s.function, s.file)
    }

    /// The `SrcLoc` of function `f` itself (its definition).
    pub fn function_loc(&mut self, f: V) -> SrcLoc {
        // SAFETY: f is a function of the module.
        let sp = unsafe { LLVMGetSubprogram(f) };
        if sp.is_null() {
            let (function, linkage) = names("", "", Some(&ir::name_of(f)));
            return SrcLoc {
                function,
                linkage,
                file: self.module_source.clone(),
                fn_line: 0,
                line: 0,
                column: 0,
            };
        }
        let s = self.sub(sp, f);
        SrcLoc {
            function: s.function,
            linkage: s.linkage,
            file: s.file,
            fn_line: s.line,
            line: s.line,
            column: 0,
        }
    }

    /// The inline chain of debug location `loc` in physical function `phys`, outermost
    /// first. A null `loc` gives the one-entry chain "somewhere in `phys`" (line 0).
    pub fn chain(&mut self, loc: LLVMMetadataRef, phys: V) -> Vec<SrcLoc> {
        let mut out = Vec::new();
        let mut cur = loc;
        // Bounded: inline depth is finite, but never trust metadata with a loop.
        while !cur.is_null() && out.len() < 256 {
            let mut li = ffi::TpLocation {
                line: 0,
                column: 0,
                inlined_at: std::ptr::null_mut(),
                subprogram: std::ptr::null_mut(),
            };
            // SAFETY: cur is a DILocation (or the shim returns 0).
            if unsafe { ffi::tp_location_info(cur, &mut li) } == 0 {
                break;
            }
            let s = if li.subprogram.is_null() {
                let f = self.function_loc(phys);
                SubInfo {
                    function: f.function,
                    linkage: f.linkage,
                    file: f.file,
                    line: f.fn_line,
                }
            } else {
                self.sub(li.subprogram, phys)
            };
            out.push(SrcLoc {
                function: s.function,
                linkage: s.linkage,
                file: s.file,
                fn_line: s.line,
                line: li.line,
                column: li.column,
            });
            cur = li.inlined_at;
        }
        if out.is_empty() {
            out.push(self.function_loc(phys));
            let l = out.last_mut().unwrap();
            l.line = 0;
            l.column = 0;
        }
        out.reverse();
        out
    }

    /// Position `loc` in the function it was written in (the last entry of its inline
    /// chain), without a physical function: `None` when `loc` is not a DILocation with
    /// a subprogram or has no line. Used for what the pipeline-start pass recorded
    /// (`crate::folded`), whose functions may since have been inlined and deleted.
    pub fn position(&mut self, loc: LLVMMetadataRef) -> Option<SrcLoc> {
        let mut li = ffi::TpLocation {
            line: 0,
            column: 0,
            inlined_at: std::ptr::null_mut(),
            subprogram: std::ptr::null_mut(),
        };
        // SAFETY: loc is metadata of the module (the shim checks it is a DILocation).
        if loc.is_null() || unsafe { ffi::tp_location_info(loc, &mut li) } == 0 {
            return None;
        }
        if li.subprogram.is_null() || li.line == 0 {
            return None;
        }
        let s = self.sub(li.subprogram, std::ptr::null_mut());
        Some(SrcLoc {
            function: s.function,
            linkage: s.linkage,
            file: s.file,
            fn_line: s.line,
            line: li.line,
            column: li.column,
        })
    }

    /// Debug location of an instruction (null if none).
    pub fn inst_loc(i: V) -> LLVMMetadataRef {
        // SAFETY: i is an instruction.
        unsafe { LLVMInstructionGetDebugLoc(i) }
    }
}

/// The identity location of a loop, in order of preference:
/// 1. the `!llvm.loop` start location of a latch terminator (the `for`/`while`/`do`
///    keyword; clang emits it whenever debug info is on);
/// 2. the debug location of a latch terminator: loops cloned without their location
///    operands (e.g. the runtime-unrolling remainder, whose `!llvm.loop` only says
///    `unroll.disable`) keep clang's back-edge branch location, which is the loop
///    statement's position, so they get the same identity as the main loop;
/// 3. the location of the header's first instruction that has one.
///
/// Returns null when there is no debug location at all.
pub fn loop_location(latch_terms: &[V], header: B) -> LLVMMetadataRef {
    for &t in latch_terms {
        // SAFETY: t is a terminator instruction.
        let l = unsafe { ffi::tp_loop_start_location(t) };
        if !l.is_null() {
            return l;
        }
    }
    for &t in latch_terms {
        let l = Namer::inst_loc(t);
        if !l.is_null() && line_of(l) != 0 {
            return l;
        }
    }
    for i in ir::instructions(header) {
        let l = Namer::inst_loc(i);
        if !l.is_null() && line_of(l) != 0 {
            return l;
        }
    }
    std::ptr::null_mut()
}

/// Line of a `DILocation` (0 if none).
pub fn line_of(loc: LLVMMetadataRef) -> u32 {
    let mut li = ffi::TpLocation {
        line: 0,
        column: 0,
        inlined_at: std::ptr::null_mut(),
        subprogram: std::ptr::null_mut(),
    };
    // SAFETY: loc is a DILocation (or the shim returns 0 and line stays 0).
    unsafe { ffi::tp_location_info(loc, &mut li) };
    li.line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openmp_regions_are_named_without_the_debug_suffix() {
        // `names` itself needs LLVM's demangler, which only the loaded plugin has.
        let r = |f: &str| readable_outlined(f.to_string());
        assert_eq!(r("main.omp_outlined_debug__"), "main.omp_outlined");
        assert_eq!(r("step.omp_outlined"), "step.omp_outlined");
        assert_eq!(r("my_debug__"), "my_debug__");
    }

    #[test]
    fn relative_files_are_joined_with_the_compile_directory() {
        assert_eq!(join_file("/src", "a.c"), "/src/a.c");
        assert_eq!(join_file("/src", "/abs/a.c"), "/abs/a.c");
        assert_eq!(join_file("", "a.c"), "a.c");
    }
}
