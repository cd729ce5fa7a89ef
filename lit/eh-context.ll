; invoke: the result's label is loaded in the normal destination, on an edge block of its
; own when the destination is shared. landingpad: label 0, and the context node is
; re-installed after it. After a returns_twice call (setjmp) the node is re-installed too.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i32 @may_throw(i32)
declare i32 @__gxx_personality_v0(...)
declare i32 @setjmp(ptr) returns_twice

; CHECK-LABEL: define i32 @inv(i32 %a, i1 %c)
; CHECK: [[NODE:%.*]] = call ptr @__tp_enter(
; CHECK: store i16 {{%.*}}, ptr @__tp_arg_tls
; CHECK: %r = invoke i32 @may_throw(i32 %a)
; CHECK-NEXT: to label %[[EDGE:.*]] unwind label %lpad
; CHECK: [[EDGE]]:
; CHECK-NEXT: [[LR:%.*]] = load i16, ptr @__tp_ret_tls, align 2
; CHECK-NEXT: br label %join
; CHECK: join:
; CHECK-NEXT: %p = phi i32 [ %r, %[[EDGE]] ], [ 0, %other ]
; CHECK-NEXT: phi i16 [ [[LR]], %[[EDGE]] ], [ 0, %other ]
; CHECK: lpad:
; CHECK-NEXT: %lp = landingpad { ptr, i32 }
; CHECK-NEXT: cleanup
; CHECK-NEXT: store ptr [[NODE]], ptr @__tp_ctx_tls, align 8
define i32 @inv(i32 %a, i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %call, label %other
call:
  %r = invoke i32 @may_throw(i32 %a) to label %join unwind label %lpad
other:
  br label %join
join:
  %p = phi i32 [ %r, %call ], [ 0, %other ]
  ret i32 %p
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define i32 @sj(ptr %buf)
; CHECK: [[NODE:%.*]] = call ptr @__tp_enter(
; CHECK: %r = call i32 @setjmp(ptr %buf)
; CHECK-NEXT: load i16, ptr @__tp_ret_tls
; CHECK-NEXT: store ptr [[NODE]], ptr @__tp_ctx_tls, align 8
define i32 @sj(ptr %buf) {
  %r = call i32 @setjmp(ptr %buf)
  ret i32 %r
}
