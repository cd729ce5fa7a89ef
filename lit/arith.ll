; Binary operators, casts, compares: label = OR of the operand labels; constants are 0.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i32 @add(i32 %a, i32 %b)
; CHECK: [[LA_RAW:%.*]] = load i16, ptr @__tp_arg_tls, align 2
; CHECK-NEXT: [[LA:%.*]] = select i1 {{%.*}}, i16 [[LA_RAW]], i16 0
; CHECK: [[LB_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1), align 2
; CHECK-NEXT: [[LB:%.*]] = select i1 {{%.*}}, i16 [[LB_RAW]], i16 0
; CHECK: %s = add i32 %a, %b
; CHECK-NEXT: [[S:%.*]] = or i16 [[LA]], [[LB]]
; CHECK-NEXT: %t = mul i32 %s, 3
; CHECK-NEXT: %u = sitofp i32 %t to double
; CHECK-NEXT: %c = fcmp olt double %u, 1.0
; CHECK-NEXT: %z = zext i1 %c to i32
; CHECK-NEXT: store i16 [[S]], ptr @__tp_ret_tls, align 2
; CHECK-NEXT: ret i32 %z
define i32 @add(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  %t = mul i32 %s, 3
  %u = sitofp i32 %t to double
  %c = fcmp olt double %u, 1.0
  %z = zext i1 %c to i32
  ret i32 %z
}

; Leaf functions without loops or calls are not context-tracked.
; CHECK-NOT: __tp_enter

; CHECK-LABEL: define <4 x i32> @vadd(<4 x i32> %a, <4 x i32> %b, ptr %p)
; Vector arguments: the slot label is splat to every lane.
; CHECK: [[A0_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[A0:%.*]] = select i1 {{%.*}}, i16 [[A0_RAW]], i16 0
; CHECK: [[AI:%.*]] = insertelement <4 x i16> poison, i16 [[A0]], i32 0
; CHECK: [[AS:%.*]] = shufflevector <4 x i16> [[AI]], <4 x i16> poison, <4 x i32> zeroinitializer
; CHECK: [[BS:%.*]] = shufflevector
; CHECK: %s = add <4 x i32> %a, %b
; CHECK-NEXT: [[VS:%.*]] = or <4 x i16> [[AS]], [[BS]]
; A bitcast that changes the lane count collapses and splats.
; CHECK: %c = bitcast <4 x i32> %s to <2 x i64>
; CHECK-NEXT: [[R:%.*]] = call i16 @llvm.vector.reduce.or.v4i16(<4 x i16> [[VS]])
; CHECK-NEXT: [[RI:%.*]] = insertelement <2 x i16> poison, i16 [[R]], i32 0
; CHECK-NEXT: [[RS:%.*]] = shufflevector <2 x i16> [[RI]], <2 x i16> poison, <2 x i32> zeroinitializer
; CHECK: shufflevector <2 x i16> [[RS]], <2 x i16> poison, <16 x i32>
; CHECK: store <2 x i64> %c, ptr %p
; CHECK: ret <4 x i32> %s
define <4 x i32> @vadd(<4 x i32> %a, <4 x i32> %b, ptr %p) {
  %s = add <4 x i32> %a, %b
  %c = bitcast <4 x i32> %s to <2 x i64>
  store <2 x i64> %c, ptr %p
  ret <4 x i32> %s
}
