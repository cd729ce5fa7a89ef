; Denormal mode, descriptors: the LLVM types are exactly those of taintprof_abi's
; denormal section; the module gets a DnModuleDesc (and no taint ModuleDesc) registered
; by a priority-1 constructor; each site's SiteDesc carries its inline chain (here a
; load of `sweep` inlined into `main`) and its innermost loop, whose LoopDesc points to
; its FuncDesc, as in taint mode. Operation sites handled inline name their four
; counters, numbered after the module's blocks; loads and stores have none (-1).
; RUN: %opt_dn_nomem < %inputs/dn-arrays-O2.ll | %FileCheck %s
; RUN: %opt_dn_nomem < %s | %FileCheck %s --check-prefix=NODEBUG
; RUN: %opt_dn_nomem < %inputs/dn-arrays-O2.ll | %FileCheck %s --check-prefix=NOTAINT
; No taint-mode descriptors or hooks in a denormal-mode module.
; NOTAINT-NOT: %taintprof.ModuleDesc =
; NOTAINT-NOT: @__tp_enter
; NOTAINT-NOT: @__tp_loop_exit
; NOTAINT-NOT: @__tp_arg_tls

; CHECK-DAG: %taintprof.DnModuleDesc = type { i32, i32, ptr, ptr, i32, i32, ptr, i32, i32, i64, ptr }
; CHECK-DAG: %taintprof.FpArrayDesc = type { ptr, ptr, ptr, i32, i16, i16, i32, i32, i64, ptr }
; CHECK-DAG: %taintprof.AllocSiteDesc = type { ptr, ptr, ptr, i32, i16, i16, i32, i32 }
; CHECK-DAG: %taintprof.FpSiteDesc = type { %taintprof.SiteDesc, ptr, i16, i16, i16, i16, i32, i32, ptr, i32, i32 }
; CHECK-DAG: %taintprof.SiteDesc = type { ptr, i32, i32, ptr }
; CHECK-DAG: %taintprof.SrcLoc = type { ptr, ptr, ptr, i32, i32, i32, i32 }
; CHECK-DAG: %taintprof.LoopDesc = type { ptr, i32, i32, i64, ptr, ptr, ptr, ptr }
; CHECK-DAG: %taintprof.FuncDesc = type { %taintprof.SrcLoc, i32, i32 }
; magic "TPDN", ABI 13, source, sites, 80 sites, 217 block counters (13 counted blocks,
; then 4 for each of the 31 inline operation sites, and the lane counts of the vector
; ones: 4 more for each of the 4 with 2 lanes, 8 for each of the 8 with 4), 4 arrays, flags 0, base
; DN_BASE_UNREGISTERED, next null; mutable (the runtime writes base and next).
; CHECK-DAG: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @[[SRC:taintprof.str[.0-9]*]], ptr @taintprof.fpsites, i32 80, i32 217, ptr @taintprof.fparrays, i32 4, i32 0, i64 -1, ptr null }, align 8
; CHECK-DAG: @[[SRC]] = private unnamed_addr constant [12 x i8] c"dn-arrays.c\00"
; The vectorized load of `src[(i - 1) * n + j]` (line 19, column 33) in `sweep`, inlined
; at line 53 of `main`: FP_FLOAT, 4 lanes, FPSITE_LOAD, block 10, index 43, no inline
; counters.
; CHECK-DAG: %taintprof.FpSiteDesc { %taintprof.SiteDesc { ptr @[[CHAIN:taintprof.chain[.0-9]*]], i32 2, i32 0, ptr getelementptr inbounds ([11 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 [[LOOP:[0-9]+]]) }, ptr @[[LOAD:taintprof.str[.0-9]*]], i16 2, i16 4, i16 1, i16 0, i32 10, i32 43, ptr @taintprof.dn_module, i32 -1, i32 43 }
; The first two sites, operations of 2 doubles (counters 13-16 and 21-24, right after
; the blocks, each followed by 4 words of lane counts); the third, a store
; (FPSITE_STORE = 2): none; the last, an operation without result (FPSITE_NO_RESULT =
; 8): the last four counters, 213-216. The operations' operands
; are not constants (const_operands 0) except the last's operand 1 (`fcmp ogt double
; %137, 0.0`): const_operands 2.
; CHECK-DAG: i16 3, i16 2, i16 0, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 13, i32 0 }
; The second is an unrolled copy of the first and the fourth of the third (a store), so
; they have the first copy as creator (the last field); so does the scalar remainder
; copy (site 4, one lane, in block 1).
; CHECK-DAG: i16 3, i16 2, i16 0, i16 0, i32 0, i32 1, ptr @taintprof.dn_module, i32 21, i32 0 }
; CHECK-DAG: i16 3, i16 2, i16 2, i16 0, i32 0, i32 2, ptr @taintprof.dn_module, i32 -1, i32 2 }
; CHECK-DAG: i16 3, i16 2, i16 2, i16 0, i32 0, i32 3, ptr @taintprof.dn_module, i32 -1, i32 2 }
; CHECK-DAG: i16 3, i16 1, i16 0, i16 0, i32 1, i32 4, ptr @taintprof.dn_module, i32 29, i32 0 }
; CHECK-DAG: i16 3, i16 1, i16 8, i16 2, i32 12, i32 79, ptr @taintprof.dn_module, i32 213, i32 79 }]
; CHECK-DAG: @[[CHAIN]] = private constant [2 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr @[[MAIN:taintprof.str[.0-9]*]], ptr @[[MAIN]], ptr @[[FILE:taintprof.str[.0-9]*]], i32 40, i32 53, i32 3, i32 0 }, %taintprof.SrcLoc { ptr @[[SWEEP:taintprof.str[.0-9]*]], ptr @[[SWEEP]], ptr @[[FILE]], i32 16, i32 19, i32 33, i32 0 }]
; CHECK-DAG: @[[MAIN]] = private unnamed_addr constant [5 x i8] c"main\00"
; CHECK-DAG: @[[SWEEP]] = private unnamed_addr constant [6 x i8] c"sweep\00"
; CHECK-DAG: @[[LOAD]] = private unnamed_addr constant [5 x i8] c"load\00"
; CHECK-DAG: @taintprof.loops = private constant [11 x %taintprof.LoopDesc]
; CHECK-DAG: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @taintprof.module_ctor, ptr null }]
; CHECK-LABEL: define internal void @taintprof.module_ctor()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__tpd_register_module(ptr @taintprof.dn_module)
; CHECK-NEXT: ret void

; Without debug info: MODULE_NO_DEBUG_INFO (2), sites named by function, line 0. One
; block, then the fmul's four inline counters (1-4).
; NODEBUG: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 1, i32 5, ptr null, i32 0, i32 2, i64 -1, ptr null }
; NODEBUG: @taintprof.fpsites = private constant [1 x %taintprof.FpSiteDesc] [%taintprof.FpSiteDesc { %taintprof.SiteDesc { ptr @[[CH:taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null },
; NODEBUG-SAME: i16 2, i16 1, i16 0, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 1, i32 0 }]
; NODEBUG: @[[CH]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr @[[F:taintprof.str[.0-9]*]], ptr @[[F]], ptr @{{.*}}, i32 0, i32 0, i32 0, i32 0 }]
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define float @nodebug(float %x) {
  %r = fmul float %x, %x
  ret float %r
}
