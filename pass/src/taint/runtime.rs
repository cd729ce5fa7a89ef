//! Declarations of the runtime's thread-local slots and hooks, exactly as
//! `taintprof_abi` names and types them.

use crate::ir::{Ir, T, V};
use taintprof_abi as abi;

pub use crate::ir::Hook;

pub struct Runtime {
    /// `[64 x i16]`
    pub arg_tls: V,
    pub arg_tls_ty: T,
    pub ret_tls: V,
    /// `[64 x i16]` and `i16`: the `Z` labels of arguments and result (`identity.rs`).
    pub argz_tls: V,
    pub argz_tls_ty: T,
    pub retz_tls: V,
    pub ctrl_tls: V,
    /// `i16` global: the control-label shift (`taintprof_abi::GLOBAL_CTRL_SHIFT`).
    pub ctrl_shift: V,
    /// `i16` global: the label of the process count `p`, 0 until the MPI interception
    /// library registered it (`taintprof_abi::GLOBAL_MPI_SIZE_LABEL`); read before each
    /// call of a routine with a communicator (`crate::library`).
    pub mpi_size_label: V,
    pub va_label_tls: V,
    pub va_bytes_tls: V,
    /// `[64 x ptr]`
    pub byval_tls: V,
    pub byval_tls_ty: T,
    pub ctx_tls: V,
    pub site_tls: V,
    /// `ptr`: the callee of the call in flight (stale-label protection).
    pub callee_tls: V,
    /// `[LOOPS_IN_FLIGHT x {ptr, ptr, i64}]` and its depth (`i64`).
    pub loops_tls: V,
    pub loops_tls_ty: T,
    pub loop_entry_ty: T,
    pub loop_depth_tls: V,
    pub register_module: Hook,
    pub enter: Hook,
    pub loop_exit: Hook,
    pub shadow_copy: Hook,
    pub shadow_set: Hook,
    pub shadow_union: Hook,
    /// The cold path of branch sinks (`cold`, never inlined).
    pub branch_update: Hook,
}

impl Runtime {
    pub fn declare(ir: &Ir) -> Runtime {
        let arg_tls_ty = ir.array_ty(ir.i16, abi::MAX_ARG_SLOTS as u64);
        let byval_tls_ty = ir.array_ty(ir.ptr, abi::MAX_ARG_SLOTS as u64);
        let loop_entry_ty = ir.named_struct("tp.loop_in_flight", &[ir.ptr, ir.ptr, ir.i64]);
        let loops_tls_ty = ir.array_ty(loop_entry_ty, abi::LOOPS_IN_FLIGHT as u64);
        let hook = |name: &str, ret: T, params: &[T], zext_params: &[u32], zext_ret: bool| {
            let ty = ir.fn_ty(ret, params, false);
            let f = ir.function(name, ty);
            // The hooks never unwind (ABI: `extern "C"`, never unwind).
            ir.add_fn_attr(f, "nounwind");
            // u16 labels cross the C ABI zero-extended (as clang does for unsigned short).
            for &i in zext_params {
                ir.add_param_attr(f, i, "zeroext");
            }
            if zext_ret {
                ir.add_ret_attr(f, "zeroext");
            }
            Hook { f, ty }
        };
        Runtime {
            arg_tls: ir.tls_global(abi::TLS_ARG_LABELS, arg_tls_ty),
            arg_tls_ty,
            ret_tls: ir.tls_global(abi::TLS_RET_LABEL, ir.i16),
            argz_tls: ir.tls_global(abi::TLS_ARG_ITER_LABELS, arg_tls_ty),
            argz_tls_ty: arg_tls_ty,
            retz_tls: ir.tls_global(abi::TLS_RET_ITER_LABEL, ir.i16),
            ctrl_tls: ir.tls_global(abi::TLS_CTRL_LABEL, ir.i16),
            ctrl_shift: ir.extern_global(abi::GLOBAL_CTRL_SHIFT, ir.i16),
            mpi_size_label: ir.extern_global(abi::GLOBAL_MPI_SIZE_LABEL, ir.i16),
            va_label_tls: ir.tls_global(abi::TLS_VA_LABEL, ir.i16),
            va_bytes_tls: ir.tls_global(abi::TLS_VA_STACK_BYTES, ir.i64),
            byval_tls: ir.tls_global(abi::TLS_BYVAL_SRC, byval_tls_ty),
            byval_tls_ty,
            ctx_tls: ir.tls_global(abi::TLS_CONTEXT, ir.ptr),
            site_tls: ir.tls_global(abi::TLS_CALL_SITE, ir.ptr),
            callee_tls: ir.tls_global(abi::TLS_CALLEE, ir.ptr),
            loops_tls: ir.tls_global(abi::TLS_LOOPS_IN_FLIGHT, loops_tls_ty),
            loops_tls_ty,
            loop_entry_ty,
            loop_depth_tls: ir.tls_global(abi::TLS_LOOP_DEPTH, ir.i64),
            register_module: hook(abi::HOOK_REGISTER_MODULE, ir.void, &[ir.ptr], &[], false),
            enter: hook(
                abi::HOOK_ENTER,
                ir.ptr,
                &[ir.ptr, ir.ptr, ir.ptr],
                &[],
                false,
            ),
            loop_exit: hook(
                abi::HOOK_LOOP_EXIT,
                ir.void,
                &[ir.ptr, ir.ptr, ir.i16],
                &[2],
                false,
            ),
            shadow_copy: hook(
                abi::HOOK_SHADOW_COPY,
                ir.void,
                &[ir.ptr, ir.ptr, ir.i64],
                &[],
                false,
            ),
            shadow_set: hook(
                abi::HOOK_SHADOW_SET,
                ir.void,
                &[ir.ptr, ir.i16, ir.i64],
                &[1],
                false,
            ),
            shadow_union: hook(abi::HOOK_SHADOW_UNION, ir.i16, &[ir.ptr, ir.i64], &[], true),
            branch_update: {
                let h = hook(
                    abi::HOOK_BRANCH_UPDATE,
                    ir.void,
                    &[ir.ptr, ir.i16, ir.i64],
                    &[1],
                    false,
                );
                ir.add_fn_attr(h.f, "cold");
                ir.add_fn_attr(h.f, "noinline");
                h
            },
        }
    }
}
