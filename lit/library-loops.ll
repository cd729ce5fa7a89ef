; Library loops (pass/src/library.rs): a memory intrinsic with a variable length, and a
; call of a routine of the routine database (rt/routines.txt) with a variable size, is
; a loop of its function: a LoopDesc flagged LOOP_LIBRARY (8) with the routine's name
; and cost, reported by one __tp_loop_exit right before the call with the label of its
; size argument(s). A constant length is no loop. The parent of a library loop is the
; natural loop around the call. TAINTPROF_ROUTINES adds entries and removes them.
; RUN: %opt_dataflow < %s | %FileCheck %s
; RUN: echo 'my_sort n=0 cost="n^2"' > %t.routines
; RUN: echo 'memset none' >> %t.routines
; RUN: env TAINTPROF_ROUTINES=%t.routines %opt_dataflow < %s | %FileCheck %s --check-prefix=USER
; RUN: env TAINTPROF_SIDECAR=%t.json %opt -passes=taintprof-taint -disable-output < %s
; RUN: %FileCheck %s --check-prefix=JSON < %t.json
; RUN: echo 'qsort n=x' > %t.bad
; RUN: env TAINTPROF_ROUTINES=%t.bad not %opt -passes=taintprof-taint -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=BAD
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Loops in module order: set_var's memset, sort's qsort, zeroed's calloc, the natural
; loop of in_loop, then its memset (parent: that loop).
; CHECK-DAG: @taintprof.loops = private constant [5 x %taintprof.LoopDesc] [%taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr null, ptr @taintprof.funcs, ptr [[MEMSET:@taintprof.str[.0-9]*]], ptr [[LINEAR:@taintprof.str[.0-9]*]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr null, ptr getelementptr {{.*}} i64 2), ptr [[QSORT:@taintprof.str[.0-9]*]], ptr [[NLOGN:@taintprof.str[.0-9]*]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr null, ptr getelementptr {{.*}} i64 3), ptr [[CALLOC:@taintprof.str[.0-9]*]], ptr [[LINEAR]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 1, i64 0, ptr null, ptr getelementptr {{.*}} i64 4), ptr [[EMPTY:@taintprof.str[.0-9]*]], ptr [[EMPTY]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr getelementptr inbounds ([5 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 3), ptr getelementptr {{.*}} i64 4), ptr [[MEMSET]], ptr [[LINEAR]] }]
; CHECK-DAG: [[MEMSET]] = private unnamed_addr constant [7 x i8] c"memset\00"
; CHECK-DAG: [[LINEAR]] = private unnamed_addr constant [2 x i8] c"n\00"
; CHECK-DAG: [[QSORT]] = private unnamed_addr constant [6 x i8] c"qsort\00"
; CHECK-DAG: [[NLOGN]] = private unnamed_addr constant [8 x i8] c"n log n\00"
; CHECK-DAG: [[CALLOC]] = private unnamed_addr constant [7 x i8] c"calloc\00"
; CHECK-DAG: [[EMPTY]] = private unnamed_addr constant [1 x i8] zeroinitializer

; The label of the length %n (argument 1) goes to __tp_loop_exit, before the memset.
; CHECK-LABEL: define void @set_var(ptr %p, i64 %n)
; CHECK: [[LN_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LN:%.*]] = select i1 {{%.*}}, i16 [[LN_RAW]], i16 0
; CHECK: [[NODE:%.*]] = call ptr @__tp_enter(
; CHECK: call void @__tp_loop_exit(ptr [[NODE]], ptr @taintprof.loops, i16 [[LN]])
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
define void @set_var(ptr %p, i64 %n) {
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
  ret void
}

; A constant length is no loop: no hook, and the function stays statically pruned.
; CHECK-LABEL: define void @set_const(ptr %p)
; CHECK-NOT: __tp_loop_exit
; CHECK-NOT: __tp_enter
; CHECK: ret void
define void @set_const(ptr %p) {
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 128, i1 false)
  ret void
}

; qsort(base, n, size, cmp): the size is argument 1.
; CHECK-LABEL: define void @sort(ptr %a, i64 %n, ptr %cmp)
; CHECK: [[SN_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[SN:%.*]] = select i1 {{%.*}}, i16 [[SN_RAW]], i16 0
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr getelementptr inbounds ([5 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 1), i16 [[SN]])
; CHECK-NEXT: call void @qsort(ptr %a, i64 %n, i64 8, ptr %cmp)
define void @sort(ptr %a, i64 %n, ptr %cmp) {
  call void @qsort(ptr %a, i64 %n, i64 8, ptr %cmp)
  ret void
}

; calloc(a, b): the size is the product, its label the union.
; CHECK-LABEL: define ptr @zeroed(i64 %a, i64 %b)
; CHECK: [[CA_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[CA:%.*]] = select i1 {{%.*}}, i16 [[CA_RAW]], i16 0
; CHECK-NEXT: [[CB_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[CB:%.*]] = select i1 {{%.*}}, i16 [[CB_RAW]], i16 0
; (the union the call computed for `__tp_ret_tls`: the pass's CSE keeps one copy)
; CHECK: [[CAB:%.*]] = or i16 [[CA]], [[CB]]
; CHECK: store ptr @__tpw_calloc, ptr @__tp_callee_tls
; CHECK-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr getelementptr inbounds ([5 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 2), i16 [[CAB]])
; CHECK-NEXT: %r = call ptr @__tpw_calloc(i64 %a, i64 %b)
define ptr @zeroed(i64 %a, i64 %b) {
  %r = call ptr @calloc(i64 %a, i64 %b)
  ret ptr %r
}

; A memset in a loop: reported once per call, inside the loop (its parent).
; CHECK-LABEL: define void @in_loop(ptr %p, i64 %n, i64 %steps)
; CHECK: loop:
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr getelementptr inbounds ([5 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 4), i16
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
define void @in_loop(ptr %p, i64 %n, i64 %steps) {
entry:
  br label %loop
loop:
  %t = phi i64 [ 0, %entry ], [ %t1, %loop ]
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
  %t1 = add i64 %t, 1
  %c = icmp ult i64 %t1, %steps
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A routine the user added is a loop; the memset the user removed is not.
; USER-LABEL: define void @set_var(ptr %p, i64 %n)
; USER-NOT: __tp_loop_exit
; USER: ret void
; USER-LABEL: define void @mine(ptr %a, i64 %n)
; USER: call void @__tp_loop_exit(
; USER-NEXT: call void @my_sort(ptr %a, i64 %n)
define void @mine(ptr %a, i64 %n) {
  call void @my_sort(ptr %a, i64 %n)
  ret void
}

; The sidecar names the kind, routine and cost of every loop.
; JSON: "kind": "library",
; JSON-NEXT: "routine": "memset",
; JSON-NEXT: "cost": "n",
; JSON: "kind": "library",
; JSON-NEXT: "routine": "qsort",
; JSON-NEXT: "cost": "n log n",
; JSON: "kind": "loop",
; JSON-NEXT: "routine": null,
; JSON-NEXT: "cost": null,

; BAD: error: {{.*}}.bad:1: `n=x`: expected 0-based argument indices

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @qsort(ptr, i64, i64, ptr)
declare ptr @calloc(i64, i64)
declare void @my_sort(ptr, i64)
