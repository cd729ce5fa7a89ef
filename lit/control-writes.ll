; Rule 2 (docs/internal/control-flow.md): a store that *updates* the value it overwrites
; (`*q += 1`: its value comes from a load of the same address) ORs ctrl(B), the labels of
; every decision around it, because they decided how often it ran; a *plain* overwrite
; (`*p = v`) stores a value that does not depend on that and ORs nothing. A decision that
; merely picks whether an object is written (a solver selector) selects; it does not
; count.
; RUN: %opt '-passes=taintprof-taint<no-hoist>' -S < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Under an `if`: the plain store writes label(v) and nothing of %c; the update ORs the
; decision's label (cl(entry), the label of %c) and the entry label.
; CHECK-LABEL: define void @if_writes(ptr %p, ptr %q, i32 %c, i32 %v)
; CHECK: [[LQ:%[0-9]+]] = select i1 [[OK:%[0-9]+]], i16 {{%[0-9]+}}, i16 0
; CHECK: [[LC:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; CHECK: [[LV:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; CHECK: [[ENTRY:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; The load through %q takes R of the pointer: its label less the Z its caller passed.
; CHECK-NEXT: load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_argz_tls
; CHECK-NEXT: [[ZQ:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; CHECK-NEXT: [[NZ:%[0-9]+]] = xor i16 [[ZQ]], -1
; CHECK-NEXT: [[RQ:%[0-9]+]] = and i16 [[LQ]], [[NZ]]
; CHECK: [[SH:%[0-9]+]] = load i16, ptr @__tp_ctrl_shift
; CHECK-NEXT: [[M:%[0-9]+]] = lshr i16 -1, [[SH]]
; CHECK-NEXT: [[HI:%[0-9]+]] = xor i16 [[M]], -1
; CHECK: then:
; CHECK-NEXT: [[CTRL:%[0-9]+]] = or i16 [[ENTRY]], [[LC]]
; CHECK-NEXT: [[W:%[0-9]+]] = zext i16 [[LV]] to i64
; CHECK-NEXT: [[S:%[0-9]+]] = mul i64 [[W]], 281479271743489
; CHECK-NEXT: store i64 [[S]], ptr
; CHECK-NEXT: store i32 %v, ptr %p
; CHECK: %u = add i32 %o, 1
; The control label moves onto the parameters' twin bits (to_control, the split of
; rt/src/split.rs: (c << shift) | (c & !(0xffff >> shift)), shift = __tp_ctrl_shift).
; CHECK-NEXT: [[UP:%[0-9]+]] = shl i16 [[CTRL]], [[SH]]
; CHECK-NEXT: [[TW:%[0-9]+]] = and i16 [[CTRL]], [[HI]]
; CHECK-NEXT: [[CC:%[0-9]+]] = or i16 [[UP]], [[TW]]
; CHECK-NEXT: [[U:%[0-9]+]] = or i16 [[RQ]], [[CC]]
; CHECK: store i32 %u, ptr %q
define void @if_writes(ptr %p, ptr %q, i32 %c, i32 %v) {
entry:
  %t = icmp ne i32 %c, 0
  br i1 %t, label %then, label %exit
then:
  store i32 %v, ptr %p
  %o = load i32, ptr %q
  %u = add i32 %o, 1
  store i32 %u, ptr %q
  br label %exit
exit:
  ret void
}

; In a loop: the plain store writes label(v) only, the count update ORs the loop's exit
; label and the `if`'s: both decided how often it ran.
; CHECK-LABEL: define void @loop_writes(ptr %p, ptr %q, i32 %n, i32 %c, i32 %v)
; CHECK: [[LQ:%[0-9]+]] = select i1 [[OK:%[0-9]+]], i16 {{%[0-9]+}}, i16 0
; CHECK: [[LN:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; CHECK: [[LC:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; CHECK: [[LV:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; CHECK: [[ENTRY:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; The load through %q takes R of the pointer: its label less the Z its caller passed.
; CHECK-NEXT: load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_argz_tls
; CHECK-NEXT: [[ZQ:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; CHECK-NEXT: [[NZ:%[0-9]+]] = xor i16 [[ZQ]], -1
; CHECK-NEXT: [[RQ:%[0-9]+]] = and i16 [[LQ]], [[NZ]]
; CHECK: [[SH:%[0-9]+]] = load i16, ptr @__tp_ctrl_shift
; CHECK-NEXT: [[M:%[0-9]+]] = lshr i16 -1, [[SH]]
; CHECK-NEXT: [[HI:%[0-9]+]] = xor i16 [[M]], -1
; CHECK: loop:
; CHECK: [[CLH:%[0-9]+]] = or i16 {{%[0-9]+}}, [[LN]]
; CHECK: body:
; CHECK-NEXT: [[C1:%[0-9]+]] = or i16 [[ENTRY]], [[CLH]]
; CHECK-NEXT: [[CTRL:%[0-9]+]] = or i16 [[C1]], [[LC]]
; CHECK-NEXT: [[W:%[0-9]+]] = zext i16 [[LV]] to i64
; CHECK: store i32 %v, ptr %p
; CHECK: %u = add i32 %o, 1
; CHECK-NEXT: [[UP:%[0-9]+]] = shl i16 [[CTRL]], [[SH]]
; CHECK-NEXT: [[TW:%[0-9]+]] = and i16 [[CTRL]], [[HI]]
; CHECK-NEXT: [[CC:%[0-9]+]] = or i16 [[UP]], [[TW]]
; CHECK-NEXT: {{%[0-9]+}} = or i16 {{%[0-9]+}}, [[CC]]
; CHECK: store i32 %u, ptr %q
define void @loop_writes(ptr %p, ptr %q, i32 %n, i32 %c, i32 %v) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %e = icmp slt i32 %i, %n
  br i1 %e, label %test, label %exit
test:
  %t = icmp ne i32 %c, 0
  br i1 %t, label %body, label %latch
body:
  store i32 %v, ptr %p
  %o = load i32, ptr %q
  %u = add i32 %o, 1
  store i32 %u, ptr %q
  br label %latch
latch:
  %i1 = add i32 %i, 1
  br label %loop
exit:
  ret void
}
