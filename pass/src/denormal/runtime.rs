//! Declarations of the denormal-mode runtime: thread-local slots and hooks, exactly as
//! `taintprof_abi` names and types them (denormal-mode section).

use crate::ir::Hook;
use crate::ir::{Ir, T, V};
use inkwell::llvm_sys::core::LLVMSetFunctionCallConv;
use taintprof_abi as abi;

pub struct DnRuntime {
    /// `ptr`: this thread's block counters.
    pub counters_tls: V,
    /// `[DN_MAX_ARG_SLOTS x i64]`
    pub arg_tags_tls: V,
    pub arg_tags_ty: T,
    /// `i64`
    pub ret_tag_tls: V,
    /// `ptr`: the callee of the call in flight (shared with taint mode).
    pub callee_tls: V,
    /// `i64`: the generation of the runtime's array table (inline memory caches).
    pub ranges_gen: V,
    pub register_module: Hook,
    pub thread_counters: Hook,
    pub op: Hook,
    /// `__tpd_creator_index`: a creator site's 16-bit index, the creator field of tags;
    /// and its register-preserving entry (`preserve_allcc`, in functions without AVX).
    pub creator_index: Hook,
    pub creator_index_keepregs: Hook,
    pub load: Hook,
    pub store: Hook,
    /// `__tpd_load` / `__tpd_store` behind register-preserving entries, declared
    /// `preserve_allcc` (inline-cache misses in functions without AVX).
    pub load_keepregs: Hook,
    pub store_keepregs: Hook,
    pub array_enter: Hook,
    pub array_leave: Hook,
    pub alloc: Hook,
    pub release: Hook,
    /// `__tpd_copy`: memcpy/memmove that may hold an FP element (tags and counts).
    pub copy: Hook,
    /// `__tpd_name_container`: a local `std::vector` names its elements' heap array.
    pub name_container: Hook,
}

impl DnRuntime {
    pub fn declare(ir: &Ir) -> DnRuntime {
        let arg_tags_ty = ir.array_ty(ir.i64, abi::DN_MAX_ARG_SLOTS as u64);
        let hook = |name: &str, ret: T, params: &[T], cold: bool| {
            let ty = ir.fn_ty(ret, params, false);
            let f = ir.function(name, ty);
            // ABI: `extern "C"`, never unwind.
            ir.add_fn_attr(f, "nounwind");
            if cold {
                // Only ever reached when a denormal was seen (or once per thread and
                // module): keep the calls out of the hot code's layout and register
                // allocation decisions.
                ir.add_fn_attr(f, "cold");
                ir.add_fn_attr(f, "noinline");
            }
            Hook { f, ty }
        };
        let keepregs = |h: Hook| {
            // SAFETY: setting the calling convention of our own declaration.
            unsafe { LLVMSetFunctionCallConv(h.f, abi::CC_PRESERVE_ALL) };
            // Called through the GOT, bound when the module is loaded, never through a
            // lazy PLT entry: the dynamic linker's lazy resolver (`_dl_runtime_resolve`)
            // saves only the argument registers and clobbers `r10`, which
            // `preserve_allcc` callers keep values in. Instrumented shared libraries
            // crashed on their first cache miss (speexdsp's `testdenoise`).
            ir.add_fn_attr(h.f, "nonlazybind");
            h
        };
        let (p, i64t, void) = (ir.ptr, ir.i64, ir.void);
        DnRuntime {
            counters_tls: ir.tls_global(abi::TLS_DN_COUNTERS, p),
            arg_tags_tls: ir.tls_global(abi::TLS_DN_ARG_TAGS, arg_tags_ty),
            arg_tags_ty,
            ret_tag_tls: ir.tls_global(abi::TLS_DN_RET_TAG, i64t),
            callee_tls: ir.tls_global(abi::TLS_CALLEE, p),
            ranges_gen: ir.extern_global(abi::DN_RANGES_GEN, i64t),
            register_module: hook(abi::HOOK_DN_REGISTER_MODULE, void, &[p], true),
            thread_counters: hook(abi::HOOK_DN_THREAD_COUNTERS, p, &[], true),
            op: hook(abi::HOOK_DN_OP, void, &[p, i64t, i64t, p, p], true),
            creator_index: hook(abi::HOOK_DN_CREATOR_INDEX, ir.i32, &[p], true),
            creator_index_keepregs: keepregs(hook(
                abi::HOOK_DN_CREATOR_INDEX_KEEPREGS,
                ir.i32,
                &[p],
                true,
            )),
            load: hook(abi::HOOK_DN_LOAD, void, &[p, p, i64t, p], true),
            store: hook(abi::HOOK_DN_STORE, void, &[p, p, i64t, p], true),
            load_keepregs: keepregs(hook(
                abi::HOOK_DN_LOAD_KEEPREGS,
                void,
                &[p, p, i64t, p],
                true,
            )),
            store_keepregs: keepregs(hook(
                abi::HOOK_DN_STORE_KEEPREGS,
                void,
                &[p, p, i64t, p],
                true,
            )),
            array_enter: hook(abi::HOOK_DN_ARRAY_ENTER, void, &[p, p], false),
            array_leave: hook(abi::HOOK_DN_ARRAY_LEAVE, void, &[p], false),
            alloc: hook(abi::HOOK_DN_ALLOC, p, &[p, i64t, p], false),
            release: hook(abi::HOOK_DN_RELEASE, void, &[p], false),
            copy: hook(abi::HOOK_DN_COPY, void, &[p, p, i64t], false),
            name_container: hook(abi::HOOK_DN_NAME_CONTAINER, void, &[p, p], false),
        }
    }
}
