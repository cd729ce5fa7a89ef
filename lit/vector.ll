; Vectors keep one label per lane: loads, stores, element and shuffle operations.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; 4-byte lanes: <16 x i16> viewed as <4 x i64>, folded by shifts.
; CHECK-LABEL: define <4 x float> @load_v4f32(ptr %p)
; CHECK: [[R:%.*]] = load <16 x i16>, ptr {{%.*}}, align 2
; CHECK-NEXT: [[W:%.*]] = bitcast <16 x i16> [[R]] to <4 x i64>
; CHECK-NEXT: [[H:%.*]] = lshr <4 x i64> [[W]], <i64 32, i64 32, i64 32, i64 32>
; CHECK-NEXT: [[O:%.*]] = or <4 x i64> [[W]], [[H]]
; CHECK-NEXT: [[H2:%.*]] = lshr <4 x i64> [[O]], <i64 16, i64 16, i64 16, i64 16>
; CHECK-NEXT: [[O2:%.*]] = or <4 x i64> [[O]], [[H2]]
; CHECK-NEXT: trunc <4 x i64> [[O2]] to <4 x i16>
define <4 x float> @load_v4f32(ptr %p) {
  %v = load <4 x float>, ptr %p
  ret <4 x float> %v
}

; 8-byte lanes: <2N x i64>, folded, then even and odd lanes ORed.
; CHECK-LABEL: define <4 x double> @load_v4f64(ptr %p)
; CHECK: [[R:%.*]] = load <32 x i16>, ptr {{%.*}}, align 2
; CHECK-NEXT: bitcast <32 x i16> [[R]] to <8 x i64>
; CHECK: [[T:%.*]] = trunc <8 x i64> {{%.*}} to <8 x i16>
; CHECK-NEXT: [[E:%.*]] = shufflevector <8 x i16> [[T]], <8 x i16> poison, <4 x i32> <i32 0, i32 2, i32 4, i32 6>
; CHECK-NEXT: [[D:%.*]] = shufflevector <8 x i16> [[T]], <8 x i16> poison, <4 x i32> <i32 1, i32 3, i32 5, i32 7>
; CHECK-NEXT: or <4 x i16> [[E]], [[D]]
define <4 x double> @load_v4f64(ptr %p) {
  %v = load <4 x double>, ptr %p
  ret <4 x double> %v
}

; CHECK-LABEL: define <8 x i16> @load_v8i16(ptr %p)
; CHECK: [[R:%.*]] = load <16 x i16>, ptr {{%.*}}, align 2
; CHECK-NEXT: [[W:%.*]] = bitcast <16 x i16> [[R]] to <8 x i32>
; CHECK-NEXT: lshr <8 x i32> [[W]], <i32 16,
; CHECK: trunc <8 x i32> {{%.*}} to <8 x i16>
define <8 x i16> @load_v8i16(ptr %p) {
  %v = load <8 x i16>, ptr %p
  ret <8 x i16> %v
}

; 1-byte lanes: the raw labels are the lane labels.
; CHECK-LABEL: define <16 x i8> @load_v16i8(ptr %p)
; CHECK: [[R:%.*]] = load <16 x i16>, ptr {{%.*}}, align 2
; CHECK: or <16 x i16> [[R]],
define <16 x i8> @load_v16i8(ptr %p) {
  %v = load <16 x i8>, ptr %p
  ret <16 x i8> %v
}

; Lanes that are not whole bytes: collapse, then splat.
; CHECK-LABEL: define <8 x i1> @load_v8i1(ptr %p)
; CHECK: [[L:%.*]] = load i16, ptr {{%.*}}, align 2
; CHECK-NEXT: insertelement <8 x i16> poison, i16 [[L]], i32 0
define <8 x i1> @load_v8i1(ptr %p) {
  %v = load <8 x i1>, ptr %p
  ret <8 x i1> %v
}

; Stores: 4-byte lanes multiply by 0x0001000100010001, 8-byte lanes repeat by shuffle.
; CHECK-LABEL: define void @store_v4f32(ptr %p, <4 x float> %v)
; CHECK: [[Z:%.*]] = zext <4 x i16> {{%.*}} to <4 x i64>
; CHECK-NEXT: [[M:%.*]] = mul <4 x i64> [[Z]], <i64 281479271743489,
; CHECK-NEXT: [[B:%.*]] = bitcast <4 x i64> [[M]] to <16 x i16>
; CHECK: store <16 x i16> [[B]], ptr {{%.*}}, align 2
; CHECK-NEXT: store <4 x float> %v, ptr %p
define void @store_v4f32(ptr %p, <4 x float> %v) {
  store <4 x float> %v, ptr %p
  ret void
}

; CHECK-LABEL: define void @store_v2f64(ptr %p, <2 x double> %v)
; CHECK: [[S:%.*]] = shufflevector <2 x i16> {{%.*}}, <2 x i16> poison, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
; CHECK: store <16 x i16> [[S]], ptr {{%.*}}, align 2
define void @store_v2f64(ptr %p, <2 x double> %v) {
  store <2 x double> %v, ptr %p
  ret void
}

; CHECK-LABEL: define void @store_v8i16(ptr %p, <8 x i16> %v)
; CHECK: zext <8 x i16> {{%.*}} to <8 x i32>
; CHECK-NEXT: mul <8 x i32> {{%.*}}, <i32 65537,
; CHECK: store <16 x i16>
define void @store_v8i16(ptr %p, <8 x i16> %v) {
  store <8 x i16> %v, ptr %p
  ret void
}

; extractelement / insertelement / shufflevector are lane-wise on the shadows; a
; variable index ORs its label in.
; CHECK-LABEL: define float @elements(ptr %p, ptr %q, float %f, i32 %i)
; CHECK: [[LI_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 3)
; CHECK-NEXT: [[LI:%.*]] = select i1 {{%.*}}, i16 [[LI_RAW]], i16 0
; CHECK: %v = load <4 x float>, ptr %p
; CHECK: [[SV:%.*]] = or <4 x i16>
; CHECK: %e = extractelement <4 x float> %v, i32 %i
; CHECK-NEXT: [[X:%.*]] = extractelement <4 x i16> [[SV]], i32 %i
; CHECK-NEXT: or i16 [[X]], [[LI]]
; CHECK: %w = insertelement <4 x float> %v, float %f, i32 1
; CHECK-NEXT: [[W:%.*]] = insertelement <4 x i16> [[SV]], i16 {{%.*}}, i32 1
; CHECK: %s = shufflevector <4 x float> %w, <4 x float> %v, <2 x i32> <i32 7, i32 poison>
; CHECK-NEXT: [[S:%.*]] = shufflevector <4 x i16> [[W]], <4 x i16> [[SV]], <2 x i32> <i32 7, i32 poison>
; CHECK: store <2 x float> %s, ptr %q
define float @elements(ptr %p, ptr %q, float %f, i32 %i) {
  %v = load <4 x float>, ptr %p
  %e = extractelement <4 x float> %v, i32 %i
  %w = insertelement <4 x float> %v, float %f, i32 1
  %s = shufflevector <4 x float> %w, <4 x float> %v, <2 x i32> <i32 7, i32 poison>
  store <2 x float> %s, ptr %q
  ret float %e
}

; Aggregates: one collapsed label.
; CHECK-LABEL: define i32 @aggregates(i32 %a, i64 %b)
; CHECK: [[LA_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[LA:%.*]] = select i1 {{%.*}}, i16 [[LA_RAW]], i16 0
; CHECK: [[LB_RAW:%.*]] = load i16, ptr getelementptr
; CHECK-NEXT: [[LB:%.*]] = select i1 {{%.*}}, i16 [[LB_RAW]], i16 0
; CHECK: %x = insertvalue { i32, i64 } undef, i32 %a, 0
; CHECK: %y = insertvalue { i32, i64 } %x, i64 %b, 1
; CHECK-NEXT: [[Y:%.*]] = or i16 [[LA]], [[LB]]
; CHECK: %z = extractvalue { i32, i64 } %y, 0
; CHECK: store i16 [[Y]], ptr @__tp_ret_tls
define i32 @aggregates(i32 %a, i64 %b) {
  %x = insertvalue { i32, i64 } undef, i32 %a, 0
  %y = insertvalue { i32, i64 } %x, i64 %b, 1
  %z = extractvalue { i32, i64 } %y, 0
  ret i32 %z
}
