; Loop sinks: an i16 accumulator per loop (in registers after promotion), reset on
; entry from outside, ORed with the exit condition's label in every exiting block, and
; reported once per loop execution on every exit edge (split when the exit block is
; shared), innermost loop first.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Descriptors: no debug info here, so every loop has LOOP_NO_DEBUG_LOC (1); the loop
; left only by an exception also has LOOP_NO_SINK (4). Each names its physical function
; (simple, nested, nested, only_throws) and its enclosing loop (the inner loop of
; @nested, loop 2, is in loop 1). Data flow only (control-flow.ll covers control flow).
; CHECK: @taintprof.loops = private constant [4 x %taintprof.LoopDesc] [%taintprof.LoopDesc { ptr @taintprof.chain{{[.0-9]*}}, i32 1, i32 1, i64 0, ptr null, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr @taintprof.chain{{[.0-9]*}}, i32 1, i32 1, i64 0, ptr null, ptr getelementptr inbounds ([3 x %taintprof.FuncDesc], ptr @taintprof.funcs, i64 0, i64 1), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr @taintprof.chain{{[.0-9]*}}, i32 1, i32 1, i64 0, ptr getelementptr inbounds ([4 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 1), ptr getelementptr inbounds ([3 x %taintprof.FuncDesc], ptr @taintprof.funcs, i64 0, i64 1), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr @taintprof.chain{{[.0-9]*}}, i32 1, i32 5, i64 0, ptr null, ptr getelementptr inbounds ([3 x %taintprof.FuncDesc], ptr @taintprof.funcs, i64 0, i64 2), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }]

; CHECK-LABEL: define void @simple(i32 %n)
; CHECK: [[LN_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[LN:%.*]] = select i1 {{%.*}}, i16 [[LN_RAW]], i16 0
; CHECK: [[NODE:%.*]] = call ptr @__tp_enter(
; Entering the loop pushes {node, loop, 0} on the thread's loops in flight (so that a
; report written while it runs counts it); every exit test stores the labels seen so
; far there; leaving it restores the depth it had at entry.
; CHECK: [[DEPTH:%.*]] = load i64, ptr @__tp_loop_depth_tls
; CHECK-NEXT: [[IDX:%.*]] = and i64 [[DEPTH]], 255
; CHECK-NEXT: [[ENTRY:%.*]] = getelementptr inbounds [256 x %tp.loop_in_flight], ptr @__tp_loops_tls, i64 0, i64 [[IDX]]
; CHECK-NEXT: store ptr [[NODE]], ptr [[ENTRY]]
; CHECK-NEXT: [[DESC:%.*]] = getelementptr inbounds %tp.loop_in_flight, ptr [[ENTRY]], i32 0, i32 1
; CHECK-NEXT: store ptr @taintprof.loops, ptr [[DESC]]
; CHECK-NEXT: [[LAB0:%.*]] = getelementptr inbounds %tp.loop_in_flight, ptr [[ENTRY]], i32 0, i32 2
; CHECK-NEXT: store i64 0, ptr [[LAB0]]
; CHECK-NEXT: [[DEPTH1:%.*]] = add i64 [[DEPTH]], 1
; CHECK-NEXT: store i64 [[DEPTH1]], ptr @__tp_loop_depth_tls
; CHECK: loop:
; CHECK: [[ACC:%.*]] = phi i16 [ 0, %entry ], [ [[NEXT:%.*]], %loop ]
; CHECK: %c = icmp slt i32 %i1, %n
; CHECK-NEXT: [[NEXT]] = or i16 [[ACC]], [[LN]]
; CHECK-NEXT: [[SEEN:%.*]] = zext i16 [[NEXT]] to i64
; CHECK-NEXT: store i64 [[SEEN]], ptr [[LAB0]]
; CHECK-NEXT: br i1 %c, label %loop, label %exit
; CHECK: exit:
; CHECK-NEXT: store i64 [[DEPTH]], ptr @__tp_loop_depth_tls
; CHECK-NEXT: call void @__tp_loop_exit(ptr [[NODE]], ptr @taintprof.loops, i16 [[NEXT]])
define void @simple(i32 %n) {
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

; Nested loops; the inner loop's condition depends on %m, the outer's on %n. The edge
; from the inner latch to the shared block %ret leaves both loops: it gets its own block
; reporting the inner loop, then the outer loop.
; CHECK-LABEL: define i32 @nested(i32 %n, i32 %m, i1 %early)
; CHECK: [[LN_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[LN:%.*]] = select i1 {{%.*}}, i16 [[LN_RAW]], i16 0
; CHECK: [[LM_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LM:%.*]] = select i1 {{%.*}}, i16 [[LM_RAW]], i16 0
; CHECK: [[LE_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LE:%.*]] = select i1 {{%.*}}, i16 [[LE_RAW]], i16 0
; CHECK: [[NODE:%.*]] = call ptr @__tp_enter(
; CHECK: outer:
; CHECK: [[OACC:%.*]] = phi i16 [ 0, %entry ], [ [[ONEXT:%.*]], %outer.latch ]
; The block `inner` is exiting for both loops (its edge to %ret leaves both).
; CHECK: inner:
; CHECK-DAG: [[IACC:%.*]] = phi i16 [ 0, %outer ], [ [[INEXT:%.*]], %inner.latch ]
; CHECK-DAG: [[OACC1:%.*]] = phi i16 [ [[OACC]], %outer ], [ [[OE:%.*]], %inner.latch ]
; CHECK-DAG: [[OE]] = or i16 [[OACC1]], [[LE]]
; CHECK-DAG: [[IE:%.*]] = or i16 [[IACC]], [[LE]]
; CHECK: inner.latch:
; CHECK: [[INEXT]] = or i16 [[IE]], [[LM]]
; CHECK: br i1 %ic, label %inner, label %outer.latch
; CHECK: outer.latch:
; CHECK-NEXT: store i64 {{%.*}}, ptr @__tp_loop_depth_tls
; CHECK-NEXT: call void @__tp_loop_exit(ptr [[NODE]], ptr getelementptr inbounds ([{{[0-9]+}} x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 [[INNER:[0-9]+]]), i16 [[INEXT]])
; CHECK: [[ONEXT]] = or i16 [[OE]], [[LN]]
; CHECK: ret.tp.edge:
; CHECK-NEXT: store i64 [[INNER_DEPTH:%.*]], ptr @__tp_loop_depth_tls
; CHECK-NEXT: call void @__tp_loop_exit(ptr [[NODE]], ptr getelementptr inbounds ([{{[0-9]+}} x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 [[INNER]]), i16 [[IE]])
; CHECK-NEXT: store i64 [[OUTER_DEPTH:%.*]], ptr @__tp_loop_depth_tls
; CHECK-NEXT: call void @__tp_loop_exit(ptr [[NODE]], ptr getelementptr inbounds ([{{[0-9]+}} x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 [[OUTER:[0-9]+]]), i16 [[OE]])
; CHECK-NEXT: br label %ret
; CHECK: ret.tp.edge{{[0-9]+}}:
; CHECK-NEXT: store i64 [[OUTER_DEPTH]], ptr @__tp_loop_depth_tls
; CHECK-NEXT: call void @__tp_loop_exit(ptr [[NODE]], ptr getelementptr inbounds ([{{[0-9]+}} x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 [[OUTER]]), i16 [[ONEXT]])
; CHECK-NEXT: br label %ret
define i32 @nested(i32 %n, i32 %m, i1 %early) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j1, %inner.latch ]
  br i1 %early, label %ret, label %inner.latch
inner.latch:
  %j1 = add i32 %j, 1
  %ic = icmp slt i32 %j1, %m
  br i1 %ic, label %inner, label %outer.latch
outer.latch:
  %i1 = add i32 %i, 1
  %oc = icmp slt i32 %i1, %n
  br i1 %oc, label %outer, label %ret
ret:
  %r = phi i32 [ -1, %inner ], [ %i1, %outer.latch ]
  ret i32 %r
}

; A loop left only by an exception has no reportable exit: it is flagged LOOP_NO_SINK
; (flags = 4) in its descriptor and no __tp_loop_exit is emitted for it.
; CHECK-LABEL: define void @only_throws()
; CHECK-NOT: __tp_loop_exit
; CHECK: resume
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)
define void @only_throws() personality ptr @__gxx_personality_v0 {
entry:
  br label %loop
loop:
  invoke void @may_throw() to label %loop unwind label %lpad
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

