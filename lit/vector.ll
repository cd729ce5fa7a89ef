; Vectors keep one label per lane: loads, stores, element and shuffle operations.
; Shadow lanes are as wide as the data lanes for 32- and 64-bit elements (<4 x i32> for
; <4 x float>, <4 x i64> for <4 x double>; the label is the low 16 bits, the bits above
; are don't-care), i16 otherwise.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; 4-byte lanes: <16 x i16> viewed as <8 x i32> (two labels per word), even and odd words
; ORed (lane k: words 2k, 2k+1), then x | x >> 16: <4 x i32> lanes. The pointer label is
; splat into every lane.
; CHECK-LABEL: define <4 x float> @load_v4f32(ptr %p)
; CHECK-NEXT: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LP_RAW:%.*]] = load i16, ptr @__tp_arg_tls, align 2
; CHECK-NEXT: [[LP:%.*]] = select i1 {{%.*}}, i16 [[LP_RAW]], i16 0
; (the pass's CSE keeps the first of the two equal bitcasts of the shadow)
; CHECK: [[R:%.*]] = load <16 x i16>, ptr [[SP]], align 2
; CHECK-NEXT: [[W:%.*]] = bitcast <16 x i16> [[R]] to <8 x i32>
; CHECK-NEXT: [[LPW:%.*]] = zext i16 [[LP]] to i32
; CHECK-NEXT: [[LPI:%.*]] = insertelement <4 x i32> poison, i32 [[LPW]], i32 0
; CHECK-NEXT: [[LPS:%.*]] = shufflevector <4 x i32> [[LPI]], <4 x i32> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: [[E:%.*]] = shufflevector <8 x i32> [[W]], <8 x i32> poison, <4 x i32> <i32 0, i32 2, i32 4, i32 6>
; CHECK-NEXT: [[D:%.*]] = shufflevector <8 x i32> [[W]], <8 x i32> poison, <4 x i32> <i32 1, i32 3, i32 5, i32 7>
; CHECK-NEXT: [[O:%.*]] = or <4 x i32> [[E]], [[D]]
; CHECK-NEXT: [[H:%.*]] = lshr <4 x i32> [[O]], <i32 16, i32 16, i32 16, i32 16>
; CHECK-NEXT: [[L:%.*]] = or <4 x i32> [[O]], [[H]]
; CHECK-NEXT: [[V:%.*]] = or <4 x i32> [[LPS]], [[L]]
; CHECK-NEXT: [[RV:%.*]] = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> [[V]])
; CHECK-NEXT: [[RL:%.*]] = trunc i32 [[RV]] to i16
; CHECK-NEXT: store i16 [[RL]], ptr @__tp_ret_tls
define <4 x float> @load_v4f32(ptr %p) {
  %v = load <4 x float>, ptr %p
  ret <4 x float> %v
}

; 8-byte lanes: <32 x i16> viewed as <16 x i32>, even and odd words ORed, viewed as
; <4 x i64> (lane k: words 4k..4k+3), then x | x >> 32, x | x >> 16: <4 x i64> lanes.
; CHECK-LABEL: define <4 x double> @load_v4f64(ptr %p)
; CHECK-NEXT: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[R:%.*]] = load <32 x i16>, ptr [[SP]], align 2
; CHECK: [[W:%.*]] = bitcast <32 x i16> [[R]] to <16 x i32>
; CHECK: [[E:%.*]] = shufflevector <16 x i32> [[W]], <16 x i32> poison, <8 x i32> <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
; CHECK-NEXT: [[D:%.*]] = shufflevector <16 x i32> [[W]], <16 x i32> poison, <8 x i32> <i32 1, i32 3, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
; CHECK-NEXT: [[O:%.*]] = or <8 x i32> [[E]], [[D]]
; CHECK-NEXT: [[Q:%.*]] = bitcast <8 x i32> [[O]] to <4 x i64>
; CHECK-NEXT: [[H:%.*]] = lshr <4 x i64> [[Q]], <i64 32, i64 32, i64 32, i64 32>
; CHECK-NEXT: [[A:%.*]] = or <4 x i64> [[Q]], [[H]]
; CHECK-NEXT: [[H2:%.*]] = lshr <4 x i64> [[A]], <i64 16, i64 16, i64 16, i64 16>
; CHECK-NEXT: [[L:%.*]] = or <4 x i64> [[A]], [[H2]]
; CHECK-NEXT: [[V:%.*]] = or <4 x i64> {{%.*}}, [[L]]
; CHECK-NEXT: [[RV:%.*]] = call i64 @llvm.vector.reduce.or.v4i64(<4 x i64> [[V]])
; CHECK-NEXT: [[RL:%.*]] = trunc i64 [[RV]] to i16
; CHECK-NEXT: store i16 [[RL]], ptr @__tp_ret_tls
define <4 x double> @load_v4f64(ptr %p) {
  %v = load <4 x double>, ptr %p
  ret <4 x double> %v
}

; 2-byte lanes: <8 x i32>, x | x >> 16, truncated to i16 lanes.
; CHECK-LABEL: define <8 x i16> @load_v8i16(ptr %p)
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[R:%.*]] = load <16 x i16>, ptr [[SP]], align 2
; CHECK: [[W:%.*]] = bitcast <16 x i16> [[R]] to <8 x i32>
; CHECK-NEXT: [[H:%.*]] = lshr <8 x i32> [[W]], <i32 16,
; CHECK-NEXT: [[O:%.*]] = or <8 x i32> [[W]], [[H]]
; CHECK: [[L:%.*]] = trunc <8 x i32> [[O]] to <8 x i16>
; CHECK: or <8 x i16> {{%.*}}, [[L]]
define <8 x i16> @load_v8i16(ptr %p) {
  %v = load <8 x i16>, ptr %p
  ret <8 x i16> %v
}

; 1-byte lanes: the raw labels are the lane labels.
; CHECK-LABEL: define <16 x i8> @load_v16i8(ptr %p)
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[R:%.*]] = load <16 x i16>, ptr [[SP]], align 2
; CHECK: or <16 x i16> {{%.*}}, [[R]]
define <16 x i8> @load_v16i8(ptr %p) {
  %v = load <16 x i8>, ptr %p
  ret <16 x i8> %v
}

; Lanes that are not whole bytes: collapse, then splat.
; CHECK-LABEL: define <8 x i1> @load_v8i1(ptr %p)
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[L:%.*]] = load i16, ptr [[SP]], align 2
; CHECK-NEXT: insertelement <8 x i16> poison, i16 [[L]], i32 0
define <8 x i1> @load_v8i1(ptr %p) {
  %v = load <8 x i1>, ptr %p
  ret <8 x i1> %v
}

; Stores: one shuffle repeats each lane's low i16 over the lane's bytes (the lanes
; viewed as i16s: lane k's label is i16 number k * (lane bits / 16)).
; CHECK-LABEL: define void @store_v4f32(ptr %p, <4 x float> %v)
; CHECK-NEXT: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; CHECK-NEXT: [[LVW:%.*]] = zext i16 [[LV]] to i32
; CHECK-NEXT: [[LVI:%.*]] = insertelement <4 x i32> poison, i32 [[LVW]], i32 0
; CHECK-NEXT: [[LVS:%.*]] = shufflevector <4 x i32> [[LVI]], <4 x i32> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: [[B:%.*]] = bitcast <4 x i32> [[LVS]] to <8 x i16>
; CHECK-NEXT: [[S:%.*]] = shufflevector <8 x i16> [[B]], <8 x i16> poison, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 2, i32 2, i32 2, i32 2, i32 4, i32 4, i32 4, i32 4, i32 6, i32 6, i32 6, i32 6>
; CHECK-NEXT: store <16 x i16> [[S]], ptr [[SP]], align 2
; CHECK-NEXT: store <4 x float> %v, ptr %p
define void @store_v4f32(ptr %p, <4 x float> %v) {
  store <4 x float> %v, ptr %p
  ret void
}

; CHECK-LABEL: define void @store_v2f64(ptr %p, <2 x double> %v)
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LVS:%.*]] = shufflevector <2 x i64> {{%.*}}, <2 x i64> poison, <2 x i32> zeroinitializer
; CHECK-NEXT: [[B:%.*]] = bitcast <2 x i64> [[LVS]] to <8 x i16>
; CHECK-NEXT: [[S:%.*]] = shufflevector <8 x i16> [[B]], <8 x i16> poison, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4, i32 4>
; CHECK-NEXT: store <16 x i16> [[S]], ptr [[SP]], align 2
; CHECK-NEXT: store <2 x double> %v, ptr %p
define void @store_v2f64(ptr %p, <2 x double> %v) {
  store <2 x double> %v, ptr %p
  ret void
}

; CHECK-LABEL: define void @store_v8i16(ptr %p, <8 x i16> %v)
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LVS:%.*]] = shufflevector <8 x i16> {{%.*}}, <8 x i16> poison, <8 x i32> zeroinitializer
; CHECK-NEXT: [[S:%.*]] = shufflevector <8 x i16> [[LVS]], <8 x i16> poison, <16 x i32> <i32 0, i32 0, i32 1, i32 1, i32 2, i32 2, i32 3, i32 3, i32 4, i32 4, i32 5, i32 5, i32 6, i32 6, i32 7, i32 7>
; CHECK-NEXT: store <16 x i16> [[S]], ptr [[SP]], align 2
; CHECK-NEXT: store <8 x i16> %v, ptr %p
define void @store_v8i16(ptr %p, <8 x i16> %v) {
  store <8 x i16> %v, ptr %p
  ret void
}

; extractelement / insertelement / shufflevector are lane-wise on the shadows; a
; variable index ORs its label in.
; CHECK-LABEL: define float @elements(ptr %p, ptr %q, float %f, i32 %i)
; CHECK-NEXT: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: ptrtoint ptr %q to i64
; CHECK: [[SQ:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LF_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LF:%.*]] = select i1 {{%.*}}, i16 [[LF_RAW]], i16 0
; CHECK-NEXT: [[LI_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 3)
; CHECK-NEXT: [[LI:%.*]] = select i1 {{%.*}}, i16 [[LI_RAW]], i16 0
; CHECK-NEXT: %v = load <4 x float>, ptr %p
; CHECK-NEXT: load <16 x i16>, ptr [[SP]], align 2
; CHECK: [[H:%.*]] = lshr <4 x i32> {{%.*}}, <i32 16, i32 16, i32 16, i32 16>
; CHECK-NEXT: [[L:%.*]] = or <4 x i32> {{%.*}}, [[H]]
; CHECK-NEXT: [[SV:%.*]] = or <4 x i32> {{%.*}}, [[L]]
; CHECK-NEXT: %e = extractelement <4 x float> %v, i32 %i
; CHECK-NEXT: [[X:%.*]] = extractelement <4 x i32> [[SV]], i32 %i
; CHECK-NEXT: [[XT:%.*]] = trunc i32 [[X]] to i16
; CHECK-NEXT: [[E:%.*]] = or i16 [[XT]], [[LI]]
; CHECK-NEXT: %w = insertelement <4 x float> %v, float %f, i32 1
; CHECK-NEXT: [[LFW:%.*]] = zext i16 [[LF]] to i32
; CHECK-NEXT: [[W:%.*]] = insertelement <4 x i32> [[SV]], i32 [[LFW]], i32 1
; CHECK-NEXT: %s = shufflevector <4 x float> %w, <4 x float> %v, <2 x i32> <i32 7, i32 poison>
; CHECK-NEXT: [[S:%.*]] = shufflevector <4 x i32> [[W]], <4 x i32> [[SV]], <2 x i32> <i32 7, i32 poison>
; <2 x float> store: lane k's label is i16 number 2k of the lanes viewed as <4 x i16>.
; CHECK-NEXT: [[SB:%.*]] = bitcast <2 x i32> [[S]] to <4 x i16>
; CHECK-NEXT: [[SR:%.*]] = shufflevector <4 x i16> [[SB]], <4 x i16> poison, <8 x i32> <i32 0, i32 0, i32 0, i32 0, i32 2, i32 2, i32 2, i32 2>
; CHECK-NEXT: store <8 x i16> [[SR]], ptr [[SQ]], align 2
; CHECK-NEXT: store <2 x float> %s, ptr %q
; CHECK-NEXT: store i16 [[E]], ptr @__tp_ret_tls
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
