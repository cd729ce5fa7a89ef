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
; The shadow address of %p (an argument: computed once in the entry block).
; CHECK: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; Vector arguments: the slot label is splat to every lane; lanes of 32-bit elements are
; i32 wide (label in the low 16 bits).
; CHECK: [[A0_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[A0:%.*]] = select i1 {{%.*}}, i16 [[A0_RAW]], i16 0
; CHECK-NEXT: [[A0W:%.*]] = zext i16 [[A0]] to i32
; CHECK-NEXT: [[AI:%.*]] = insertelement <4 x i32> poison, i32 [[A0W]], i32 0
; CHECK-NEXT: [[AS:%.*]] = shufflevector <4 x i32> [[AI]], <4 x i32> poison, <4 x i32> zeroinitializer
; CHECK: [[B0_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[B0:%.*]] = select i1 {{%.*}}, i16 [[B0_RAW]], i16 0
; CHECK-NEXT: [[B0W:%.*]] = zext i16 [[B0]] to i32
; CHECK-NEXT: [[BI:%.*]] = insertelement <4 x i32> poison, i32 [[B0W]], i32 0
; CHECK-NEXT: [[BS:%.*]] = shufflevector <4 x i32> [[BI]], <4 x i32> poison, <4 x i32> zeroinitializer
; CHECK: %s = add <4 x i32> %a, %b
; CHECK-NEXT: [[VS:%.*]] = or <4 x i32> [[AS]], [[BS]]
; A bitcast that changes the lane count collapses and splats (into <2 x i64> lanes);
; the store repeats each lane's low i16 over its 8 bytes (i16 0 and 4 of the lanes).
; CHECK: %c = bitcast <4 x i32> %s to <2 x i64>
; CHECK-NEXT: [[R32:%.*]] = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> [[VS]])
; CHECK-NEXT: [[R:%.*]] = trunc i32 [[R32]] to i16
; CHECK-NEXT: [[RW:%.*]] = zext i16 [[R]] to i64
; CHECK-NEXT: [[RI:%.*]] = insertelement <2 x i64> poison, i64 [[RW]], i32 0
; CHECK-NEXT: [[RS:%.*]] = shufflevector <2 x i64> [[RI]], <2 x i64> poison, <2 x i32> zeroinitializer
; CHECK-NEXT: [[RB:%.*]] = bitcast <2 x i64> [[RS]] to <8 x i16>
; CHECK-NEXT: [[RAW:%.*]] = shufflevector <8 x i16> [[RB]], <8 x i16> poison, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4>
; CHECK-NEXT: store <16 x i16> [[RAW]], ptr [[SP]], align 2
; CHECK-NEXT: store <2 x i64> %c, ptr %p
; The return label is the union of the lanes' low 16 bits.
; CHECK-NEXT: [[RL32:%.*]] = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> [[VS]])
; CHECK-NEXT: [[RL:%.*]] = trunc i32 [[RL32]] to i16
; CHECK-NEXT: store i16 [[RL]], ptr @__tp_ret_tls
; CHECK: ret <4 x i32> %s
define <4 x i32> @vadd(<4 x i32> %a, <4 x i32> %b, ptr %p) {
  %s = add <4 x i32> %a, %b
  %c = bitcast <4 x i32> %s to <2 x i64>
  store <2 x i64> %c, ptr %p
  ret <4 x i32> %s
}
