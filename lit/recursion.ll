; The recursion loop (docs/internal/control-flow.md, "Recursion"): a function in a cycle
; of the module's call graph gets one more LoopDesc, flagged LOOP_RECURSION (32; 33 with
; LOOP_NO_DEBUG_LOC, as here), after its natural loops. Every `ret` reports it with
; __tp_loop_exit and the label of the decisions that choose to recurse: the cl slots of
; the deciders of the recursive calls' blocks (here the label of %x, the argument the
; condition reads), not the entry control label. Top-level loops and calls outside loops
; nest in it; calls that continue the recursion do not (mutual recursion would
; multiply), and a function outside any cycle has none.
; RUN: %opt_rules -S < %s | %FileCheck %s
; RUN: env TAINTPROF_SIDECAR=%t.json %opt -passes=taintprof-taint -disable-output < %s
; RUN: %FileCheck %s --check-prefix=JSON < %t.json
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Loops, in module order: even's (0) and odd's (1) recursion loops; rec's (2); loop's
; natural loop (3), nested in loop's recursion loop (4).
; CHECK-DAG: @taintprof.loops = private constant [5 x %taintprof.LoopDesc] [%taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 33, i64 0, ptr null, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 33, i64 0, ptr null, ptr getelementptr {{.*}} i64 1), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 33, i64 0, ptr null, ptr getelementptr {{.*}} i64 2), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 1, i64 0, ptr getelementptr inbounds ([5 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 4), ptr getelementptr {{.*}} i64 3), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 33, i64 0, ptr null, ptr getelementptr {{.*}} i64 3), ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }]
; The call to @ext outside loops in @even is in even's recursion loop (0); the call to
; @odd, which continues the recursion, is in no loop (the first site without one).
; CHECK-DAG: [[EXT_SITE:@taintprof.site[.0-9]*]] = private constant %taintprof.SiteDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 0, ptr @taintprof.loops }
; CHECK-DAG: [[ODD_SITE:@taintprof.site[.0-9]*]] = private constant %taintprof.SiteDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 0, ptr null }

; Mutual recursion: even and odd each have a recursion loop.
; CHECK-LABEL: define i32 @even(i32 %m)
; CHECK: store ptr [[EXT_SITE]], ptr @__tp_site_tls
; CHECK: call void @ext(
; CHECK: store ptr [[ODD_SITE]], ptr @__tp_site_tls
; CHECK: call i32 @odd(
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr @taintprof.loops, i16
define i32 @even(i32 %m) {
entry:
  call void @ext(i32 %m)
  %z = icmp eq i32 %m, 0
  br i1 %z, label %yes, label %no
no:
  %m1 = sub i32 %m, 1
  %r = call i32 @odd(i32 %m1)
  ret i32 %r
yes:
  ret i32 1
}

; CHECK-LABEL: define i32 @odd(i32 %m)
; CHECK: call void @__tp_loop_exit({{.*}}i64 1){{.*}})
define i32 @odd(i32 %m) {
entry:
  %z = icmp eq i32 %m, 0
  br i1 %z, label %yes, label %no
no:
  %m1 = sub i32 %m, 1
  %r = call i32 @even(i32 %m1)
  ret i32 %r
yes:
  ret i32 0
}

; rec(x) { if (x > 0) return rec(x - 1); return 0; }: both returns report the recursion
; loop with the label of %x (the condition's; the slot is promoted), not the caller's
; control label ([[ENTRY]], read from __tp_ctrl_tls).
; CHECK-LABEL: define i32 @rec(i32 %x)
; CHECK: [[LX:%.*]] = select i1 {{%.*}}, i16 {{%.*}}, i16 0
; CHECK: [[ENTRY:%.*]] = select i1 {{%.*}}, i16 {{%.*}}, i16 0
; CHECK: [[NODE:%.*]] = call ptr @__tp_enter(
; CHECK: br i1 %c, label %more, label %done
; CHECK: more:
; CHECK: call i32 @rec(
; CHECK: call void @__tp_loop_exit(ptr [[NODE]], ptr getelementptr inbounds ([5 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 2), i16 [[LX]])
; CHECK: ret i32 %r
; CHECK: done:
; CHECK: call void @__tp_loop_exit(ptr [[NODE]], ptr getelementptr inbounds ([5 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 2), i16 [[LX]])
; CHECK: ret i32 0
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

; A natural loop in a recursive function nests in its recursion loop (LoopDesc 3's parent
; is 4, above); the recursion loop reports at the ret with the guard's label.
; CHECK-LABEL: define void @loop(i32 %n)
; CHECK: call void @__tp_loop_exit({{.*}}i64 3){{.*}})
; CHECK: call void @__tp_loop_exit({{.*}}i64 4){{.*}})
; CHECK: ret void
define void @loop(i32 %n) {
entry:
  br label %hdr
hdr:
  %i = phi i32 [ 0, %entry ], [ %i1, %hdr ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %hdr, label %after
after:
  %more = icmp sgt i32 %n, 1
  br i1 %more, label %again, label %done
again:
  %h = sdiv i32 %n, 2
  call void @loop(i32 %h)
  br label %done
done:
  ret void
}

; Not recursive: no recursion loop, no report.
; CHECK-LABEL: define i32 @caller(i32 %k)
; CHECK-NOT: __tp_loop_exit
; CHECK: ret i32
define i32 @caller(i32 %k) {
  %r = call i32 @rec(i32 %k)
  ret i32 %r
}

declare void @ext(i32)

; JSON: "name": "even",
; JSON: "recursive": true,
; JSON: "loops": [
; JSON-NEXT: {
; JSON-NEXT: "line": 0,
; JSON: "recursion": true,
; JSON: "name": "caller",
; JSON: "recursive": false,
; JSON: "loops": []
