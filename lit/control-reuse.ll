; ctrl(B) extends a dominator's ctrl(D) when that is the same label
; (pass/src/taint/control.rs, `Reuse`): CD*(D) ⊆ CD*(B) and no path from the top of D
; to the top of B runs a decider of CD*(D), so the slots D read still hold. Otherwise
; B ORs every slot itself (SQLite's interpreter loop: 392,206 `or`s before this).
; The stores here update what they overwrite (`*p += v`), so they OR the full ctrl(B)
; (a plain overwrite ORs only the loops' decisions, ctrl_loop(B)).
; RUN: %opt_rules < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Nested ifs: each block's ctrl is its dominator's plus one decision.
; CHECK-LABEL: define void @chain(
; CHECK: A:
; CHECK-NEXT: [[CA:%.*]] = or i16 [[ENTRY:%.*]], {{%.*}}
; CHECK: B:
; CHECK-NEXT: [[CB:%.*]] = or i16 [[CA]], {{%.*}}
; CHECK-NOT: or i16 [[ENTRY]]
; CHECK: C:
; CHECK-NEXT: or i16 [[CB]], {{%.*}}
define void @chain(ptr %p, i32 %a, i32 %b, i32 %c) {
entry:
  %ca = icmp ne i32 %a, 0
  br i1 %ca, label %A, label %exit
A:
  %old1 = load i32, ptr %p
  %upd1 = add i32 %old1, 1
  store i32 %upd1, ptr %p
  %cb = icmp ne i32 %b, 0
  br i1 %cb, label %B, label %exit
B:
  %old2 = load i32, ptr %p
  %upd2 = add i32 %old2, 2
  store i32 %upd2, ptr %p
  %cc = icmp ne i32 %c, 0
  br i1 %cc, label %C, label %exit
C:
  %old3 = load i32, ptr %p
  %upd3 = add i32 %old3, 3
  store i32 %upd3, ptr %p
  br label %exit
exit:
  ret void
}

; A top-tested loop: the header h depends on its own decision, which runs after h's
; ctrl read the slot (last iteration's label). The body must read the new one, not
; reuse ctrl(h).
; CHECK-LABEL: define void @loop(
; CHECK: h:
; CHECK-NEXT: [[SLOT:%.*]] = phi i16 [ 0, %entry ], [ [[NEW:%.*]], %body ]
; CHECK: or i16 [[ENTRY:%.*]], [[SLOT]]
; CHECK: [[NEW]] = or i16
; CHECK: body:
; CHECK-NEXT: or i16 [[ENTRY]], [[NEW]]
define void @loop(ptr %p, i32 %n, i32 %x) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %old4 = load i32, ptr %p
  %upd4 = add i32 %old4, %i
  store i32 %upd4, ptr %p
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %old5 = load i32, ptr %p
  %upd5 = add i32 %old5, %x
  store i32 %upd5, ptr %p
  %i1 = add i32 %i, 1
  br label %h
exit:
  ret void
}
