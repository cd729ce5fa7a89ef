; Static pruning (Perf-Taint 5.1): a function with no loops, or only loops whose trip
; count ScalarEvolution proves constant, whose calls are all trivial (intrinsics with
; constant lengths, pure/zero list entries, other pruned functions of the module) and
; which is not recursive gets FUNC_STATICALLY_PRUNED (2) and no __tp_enter, loop sinks or
; branch sinks; its labels still flow. Constant-trip loops get LOOP_CONST_TRIP (2) and
; their count (body executions, the same for a top-tested -O0 loop and a rotated -O2
; one) in any function; in a function that is not pruned they keep their sink.
; FUNC_RECURSIVE_STATIC (4) marks call-graph cycles. The sidecar says why.
; RUN: %opt -passes=taintprof-taint,verify -S < %s | %FileCheck %s
; RUN: env TAINTPROF_SIDECAR=%t.json %opt -passes=taintprof-taint -disable-output < %s
; RUN: %FileCheck %s --check-prefix=JSON < %t.json
; RUN: env TAINTPROF_VERBOSE=1 %opt -passes=taintprof-taint -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=STATS
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function flags, in module order: leaf 2, const_top 2, const_rotated 2, calls_leaf 2,
; calls_ext 1, rec 5 (tracked | recursive, with its recursion loop), param_loop 1,
; var_memset 1, uses_const 1,
; pure_call 2, const_vectorized 2.
; CHECK-DAG: @taintprof.funcs = private constant [11 x %taintprof.FuncDesc] [%taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 2, i32 0 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 2, i32 1 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 2, i32 1 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 2, i32 0 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 1, i32 0 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 5, i32 1 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 1, i32 1 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 1, i32 0 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 1, i32 1 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 2, i32 0 }, %taintprof.FuncDesc { %taintprof.SrcLoc { {{.*}} }, i32 2, i32 1 }]
; Loops: const_top (10 iterations), const_rotated (10), rec's recursion loop
; (LOOP_RECURSION | LOOP_NO_DEBUG_LOC = 33, never constant), param_loop (unknown: 0, no
; flag besides LOOP_NO_DEBUG_LOC = 1), var_memset's memset (a library loop: LOOP_LIBRARY
; | LOOP_NO_DEBUG_LOC = 9, routine "memset", cost "n"), uses_const (10, with its sink), const_vectorized
; (constant, but a vectorized copy: its own count, 25, is not the source loop's, so 0).
; CHECK-DAG: @taintprof.loops = private constant [7 x %taintprof.LoopDesc] [%taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 3, i64 10, ptr null, ptr getelementptr {{.*}} i64 1), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 3, i64 10, ptr null, ptr getelementptr {{.*}} i64 2), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 33, i64 0, ptr null, ptr getelementptr {{.*}} i64 5), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 1, i64 0, ptr null, ptr getelementptr {{.*}} i64 6), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr null, ptr getelementptr {{.*}} i64 7), ptr [[MEMSET:@taintprof.str[.0-9]*]], ptr [[COST:@taintprof.str[.0-9]*]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 3, i64 10, ptr null, ptr getelementptr {{.*}} i64 8), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 3, i64 0, ptr null, ptr getelementptr {{.*}} i64 10), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }]
; CHECK-DAG: [[MEMSET]] = private unnamed_addr constant [7 x i8] c"memset\00"
; CHECK-DAG: [[COST]] = private unnamed_addr constant [2 x i8] c"n\00"

; No loops, no calls: pruned, no context; its label still flows.
; CHECK-LABEL: define i32 @leaf(i32 %x)
; CHECK-NOT: __tp_enter
; CHECK: [[LX:%.*]] = select i1
; CHECK: store i16 [[LX]], ptr @__tp_ret_tls
define i32 @leaf(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

; for (i = 0; i < 10; i++) as at -O0: BTC 10, 10 body executions. No sink, no context.
; CHECK-LABEL: define i32 @const_top(i32 %x)
; CHECK-NOT: __tp_enter
; CHECK-NOT: __tp_loop_exit
; CHECK: ret i32
define i32 @const_top(i32 %x) {
entry:
  br label %hdr
hdr:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %s = phi i32 [ %x, %entry ], [ %s1, %latch ]
  %c = icmp slt i32 %i, 10
  br i1 %c, label %latch, label %exit
latch:
  %s1 = mul i32 %s, 3
  %i1 = add nsw i32 %i, 1
  br label %hdr
exit:
  ret i32 %s
}

; The same loop rotated, as at -O2: BTC 9, still 10 body executions.
; CHECK-LABEL: define i32 @const_rotated(i32 %x)
; CHECK-NOT: __tp_enter
; CHECK-NOT: __tp_loop_exit
; CHECK: ret i32
define i32 @const_rotated(i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ %x, %entry ], [ %s1, %loop ]
  %s1 = mul i32 %s, 3
  %i1 = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i1, 10
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %s1
}

; Calling a pruned function of the module is trivial (labels still cross the call).
; CHECK-LABEL: define i32 @calls_leaf(i32 %x)
; CHECK-NOT: __tp_enter
; CHECK-NOT: __tp_site_tls
; CHECK: store ptr @leaf, ptr @__tp_callee_tls
; CHECK-NEXT: %r = call i32 @leaf(i32 %x)
define i32 @calls_leaf(i32 %x) {
  %r = call i32 @leaf(i32 %x)
  ret i32 %r
}

; Calling a function defined elsewhere is not.
; CHECK-LABEL: define void @calls_ext(i32 %x)
; CHECK: call ptr @__tp_enter(
define void @calls_ext(i32 %x) {
  call void @ext(i32 %x)
  ret void
}

; Recursion: flagged, never pruned (its recursion loop: lit/recursion.ll).
; CHECK-LABEL: define i32 @rec(i32 %x)
; CHECK: call ptr @__tp_enter(
define i32 @rec(i32 %x) {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %more, label %done
more:
  %y = sub i32 %x, 1
  %r = call i32 @rec(i32 %y)
  ret i32 %r
done:
  ret i32 0
}

; A loop bounded by a parameter: not pruned, loop sink.
; CHECK-LABEL: define void @param_loop(i32 %n)
; CHECK: call ptr @__tp_enter(
; CHECK: call void @__tp_loop_exit(
define void @param_loop(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; memset with a variable length is a loop the optimizer turned into a call: not trivial.
; CHECK-LABEL: define void @var_memset(ptr %p, i64 %n)
; CHECK: call ptr @__tp_enter(
define void @var_memset(ptr %p, i64 %n) {
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
  ret void
}

; A constant-trip loop in a function that is not pruned keeps its sink (executions are
; counted; the runtime knows the count is constant from the descriptor).
; CHECK-LABEL: define void @uses_const(i32 %x)
; CHECK: call ptr @__tp_enter(
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr getelementptr inbounds ([7 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 5), i16
define void @uses_const(i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @ext(i32 %i)
  %i1 = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i1, 10
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; `pure` entries of the function list are trivial.
; CHECK-LABEL: define double @pure_call(double %x)
; CHECK-NOT: __tp_enter
; CHECK: call double @sqrt(double %x)
define double @pure_call(double %x) {
  %r = call double @sqrt(double %x)
  ret double %r
}

; A loop the vectorizer made (4 lanes at a time, 25 iterations for 100 elements).
; CHECK-LABEL: define void @const_vectorized(ptr %p)
; CHECK-NOT: __tp_enter
; CHECK: ret void
define void @const_vectorized(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %a = getelementptr inbounds i32, ptr %p, i64 %i
  store <4 x i32> zeroinitializer, ptr %a
  %i1 = add nuw nsw i64 %i, 4
  %c = icmp ult i64 %i1, 100
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.isvectorized", i32 1}

declare void @ext(i32)
declare double @sqrt(double)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; JSON: "name": "leaf",
; JSON: "context_tracked": false,
; JSON-NEXT: "statically_pruned": true,
; JSON-NEXT: "prune_reason": "no loops",
; JSON-NEXT: "recursive": false,
; JSON: "name": "const_top",
; JSON: "statically_pruned": true,
; JSON-NEXT: "prune_reason": "constant trip counts",
; JSON: "constant_trip": true,
; JSON-NEXT: "const_trip_count": 10,
; JSON: "name": "rec",
; JSON: "statically_pruned": false,
; JSON-NEXT: "prune_reason": null,
; JSON-NEXT: "recursive": true,
; JSON: "name": "param_loop",
; JSON: "statically_pruned": false,
; JSON: "const_trip_count": null,

; STATS: 11 functions instrumented (5 context-tracked, 0 skipped), 6 statically pruned (3 without loops, 3 with constant trip counts), 1 recursive, 5 loops (4 constant trip count,
; STATS: `leaf` statically pruned (no loops)
; STATS: `const_top` statically pruned (constant trip counts)
