; Denormal mode is chosen by TAINTPROF_MODE=denormal (as clang runs the pass, at
; OptimizerLast), by the opt pipeline name `taintprof-denormal`, or by the parameter
; `mode=denormal`; the pipeline name wins over the environment. Taint instrumentation
; does not run in denormal mode, and taint mode is unchanged (no denormal hooks).
; Denormal mode handles operation sites inline unless `no-dn-inline-ops` is given; the
; verbose statistics say how many sites were handled inline and how many hook calls
; were emitted (the counted blocks do not include the inline counters).
; RUN: env TAINTPROF_MODE=denormal %opt_taint < %s | %FileCheck %s --check-prefix=DN
; RUN: %opt -passes=taintprof-denormal -S < %s | %FileCheck %s --check-prefix=DN
; RUN: %opt '-passes=taintprof-taint<mode=denormal>' -S < %s | %FileCheck %s --check-prefix=DN
; RUN: env TAINTPROF_MODE=off %opt -passes=taintprof-denormal -S < %s | %FileCheck %s --check-prefix=DN
; RUN: env TAINTPROF_MODE=taint %opt_taint < %s | %FileCheck %s --check-prefix=TAINT
; RUN: env TAINTPROF_MODE=off %opt_taint < %s | %FileCheck %s --check-prefix=OFF
; RUN: env TAINTPROF_MODE=denormal TAINTPROF_VERBOSE=1 %opt_taint -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=VERBOSE
; RUN: env TAINTPROF_VERBOSE=1 %opt_dn_hooks -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=VERBOSE-HOOK
; A module instrumented in either mode is not instrumented again, in either mode (one
; check in the module driver, pass/src/module.rs).
; RUN: env TAINTPROF_VERBOSE=1 %opt '-passes=taintprof-denormal,taintprof-taint' -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=TWICE
; RUN: env TAINTPROF_VERBOSE=1 %opt '-passes=taintprof-taint,taintprof-denormal' -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=TWICE
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; DN: @taintprof.dn_module = internal global %taintprof.DnModuleDesc
; DN-NOT: @taintprof.module =
; The cold region is a function of its own (dn-outline.ll); in it, the fmul's site,
; inline: its counters (1-4, after the block's) and its result tag (its creator index,
; from the module's creator index slot, asked of the runtime on first use).
; DN-NOT: __tp_enter
; DN-NOT: __tp_arg_tls
; DN-NOT: call void @__tpd_op
; DN: call void @f.tp.cold(
; DN: ret float %r
; DN: define internal void @f.tp.cold(
; DN: getelementptr inbounds i64, ptr {{%.*}}, i64 1
; DN: load atomic i32, ptr @taintprof.creator_ix monotonic, align 4
; DN: call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr @taintprof.fpsites)
; DN-NOT: call void @__tpd_op
; DN: ret void

; TAINT: @taintprof.module = internal global %taintprof.ModuleDesc
; TAINT-NOT: __tpd_
; TAINT: load i16, ptr @__tp_arg_tls

; OFF-NOT: __tp

; VERBOSE: taintprof: {{.*}} (opt level opt, denormal mode): 1 functions instrumented (0 skipped), {{.*}} 1 FP sites (1 descriptors) in 1 counted blocks, {{.*}}, 1 cold regions (0 re-testing exactly, 1 outlined), 0 hook calls, 1 operation sites inline, {{[0-9]+}} values rematerialized,
; VERBOSE-HOOK: taintprof: {{.*}} (opt level opt, denormal mode): 1 functions instrumented (0 skipped), {{.*}} 1 FP sites (1 descriptors) in 1 counted blocks, {{.*}}, 1 cold regions (0 re-testing exactly, 0 outlined), 1 hook calls, 0 operation sites inline, {{[0-9]+}} values rematerialized,
; VERBOSE: warning: {{.*}}compiled without debug info
define float @f(float %a) {
  %r = fmul float %a, %a
  ret float %r
}

; TWICE: functions instrumented
; TWICE: already instrumented, skipped
; TWICE-NOT: functions instrumented
