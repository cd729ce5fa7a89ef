; select: label(c) | select(c, label(a), label(b)); phi: phi of the incoming labels;
; GEP: base | indices. Induction-variable label PHIs that can only be 0 are removed.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i32 @sel(i1 %c, i32 %a, i32 %b)
; CHECK: [[LC_RAW:%.*]] = load i16, ptr @__tp_arg_tls, align 2
; CHECK-NEXT: [[LC:%.*]] = select i1 {{%.*}}, i16 [[LC_RAW]], i16 0
; CHECK: [[LA_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LA:%.*]] = select i1 {{%.*}}, i16 [[LA_RAW]], i16 0
; CHECK: [[LB_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LB:%.*]] = select i1 {{%.*}}, i16 [[LB_RAW]], i16 0
; CHECK: %r = select i1 %c, i32 %a, i32 %b
; CHECK-NEXT: [[P:%.*]] = select i1 %c, i16 [[LA]], i16 [[LB]]
; CHECK-NEXT: [[R:%.*]] = or i16 [[LC]], [[P]]
; CHECK: store i16 [[R]], ptr @__tp_ret_tls
define i32 @sel(i1 %c, i32 %a, i32 %b) {
  %r = select i1 %c, i32 %a, i32 %b
  ret i32 %r
}

; Vector select with a vector condition: per lane. <2 x double> has i64 shadow lanes;
; the condition's <2 x i16> lanes are widened lane by lane.
; CHECK-LABEL: define <2 x double> @vsel(
; CHECK: [[LC_RAW:%.*]] = load i16, ptr @__tp_arg_tls, align 2
; CHECK-NEXT: [[LC:%.*]] = select i1 {{%.*}}, i16 [[LC_RAW]], i16 0
; CHECK-NEXT: [[LCI:%.*]] = insertelement <2 x i16> poison, i16 [[LC]], i32 0
; CHECK-NEXT: [[SC:%.*]] = shufflevector <2 x i16> [[LCI]], <2 x i16> poison, <2 x i32> zeroinitializer
; CHECK: [[SA:%.*]] = shufflevector <2 x i64> {{%.*}}, <2 x i64> poison, <2 x i32> zeroinitializer
; CHECK: [[SB:%.*]] = shufflevector <2 x i64> {{%.*}}, <2 x i64> poison, <2 x i32> zeroinitializer
; CHECK-NEXT: %r = select <2 x i1> %c, <2 x double> %a, <2 x double> %b
; CHECK-NEXT: [[VP:%.*]] = select <2 x i1> %c, <2 x i64> [[SA]], <2 x i64> [[SB]]
; CHECK-NEXT: [[SCW:%.*]] = zext <2 x i16> [[SC]] to <2 x i64>
; CHECK-NEXT: or <2 x i64> [[SCW]], [[VP]]
define <2 x double> @vsel(<2 x i1> %c, <2 x double> %a, <2 x double> %b) {
  %r = select <2 x i1> %c, <2 x double> %a, <2 x double> %b
  ret <2 x double> %r
}

; CHECK-LABEL: define i32 @phi(i1 %c, i32 %a, i32 %b)
; CHECK: [[LA_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LA:%.*]] = select i1 {{%.*}}, i16 [[LA_RAW]], i16 0
; CHECK: [[LB_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LB:%.*]] = select i1 {{%.*}}, i16 [[LB_RAW]], i16 0
; CHECK: join:
; CHECK-NEXT: %p = phi i32 [ %a, %l ], [ %b, %r ]
; CHECK-NEXT: [[SP:%.*]] = phi i16 [ [[LA]], %l ], [ [[LB]], %r ]
; CHECK: store i16 [[SP]], ptr @__tp_ret_tls
define i32 @phi(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %l, label %r
l:
  br label %join
r:
  br label %join
join:
  %p = phi i32 [ %a, %l ], [ %b, %r ]
  ret i32 %p
}

; CHECK-LABEL: define ptr @gep(ptr %p, i64 %i)
; CHECK: [[LP_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[LP:%.*]] = select i1 {{%.*}}, i16 [[LP_RAW]], i16 0
; CHECK: [[LI_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LI:%.*]] = select i1 {{%.*}}, i16 [[LI_RAW]], i16 0
; CHECK: %q = getelementptr inbounds double, ptr %p, i64 %i
; CHECK-NEXT: [[G:%.*]] = or i16 [[LP]], [[LI]]
; CHECK: store i16 [[G]], ptr @__tp_ret_tls
define ptr @gep(ptr %p, i64 %i) {
  %q = getelementptr inbounds double, ptr %p, i64 %i
  ret ptr %q
}

; Vector GEP: per-lane labels (i64 lanes for pointer vectors): the scalar base's label
; splat, ORed with the index lanes.
; CHECK-LABEL: define <4 x ptr> @vgep(ptr %p, <4 x i64> %i)
; CHECK: [[LP_RAW:%.*]] = load i16, ptr @__tp_arg_tls, align 2
; CHECK-NEXT: [[LP:%.*]] = select i1 {{%.*}}, i16 [[LP_RAW]], i16 0
; CHECK: [[SI:%.*]] = shufflevector <4 x i64> {{%.*}}, <4 x i64> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: %q = getelementptr double, ptr %p, <4 x i64> %i
; CHECK-NEXT: [[LPW:%.*]] = zext i16 [[LP]] to i64
; CHECK-NEXT: [[LPI:%.*]] = insertelement <4 x i64> poison, i64 [[LPW]], i32 0
; CHECK-NEXT: [[SP:%.*]] = shufflevector <4 x i64> [[LPI]], <4 x i64> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: or <4 x i64> [[SP]], [[SI]]
define <4 x ptr> @vgep(ptr %p, <4 x i64> %i) {
  %q = getelementptr double, ptr %p, <4 x i64> %i
  ret <4 x ptr> %q
}

; The counter's label PHI is provably 0 and disappears; the loop's label PHI stays.
; CHECK-LABEL: define i32 @count(i32 %n)
; CHECK: loop:
; CHECK-NEXT: %i = phi i32
; CHECK-NEXT: %s = phi i32
; CHECK-NEXT: phi i16 [ 0, %entry ], [ {{%.*}}, %loop ]
; CHECK-NOT: phi i16
; CHECK: exit:
define i32 @count(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %s1 = add i32 %s, %n
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 10
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %s1
}
