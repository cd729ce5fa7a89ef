; Denormal mode, vectors wider than 16 lanes: the ABI's operand mask has 16 bits per
; operand, so a site of N > 16 lanes is described by ceil(N / 16) FpSiteDescs of 16
; lanes (same source position and operation: the report merges them; executions stay
; block count x lanes). Each chunk has its own hook call with its lanes' masks and, for
; memory, its own address (base + 16 * chunk * element size).
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: @taintprof.fpsites = private constant [6 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[LOAD:taintprof.str[.0-9]*]], i16 2, i16 16, i16 1, i16 0, i32 0, i32 0,
; CHECK-SAME: ptr @[[LOAD]], i16 2, i16 16, i16 1, i16 0, i32 0, i32 1,
; CHECK-SAME: ptr @[[FADD:taintprof.str[.0-9]*]], i16 2, i16 16, i16 0, i16 0, i32 0, i32 2,
; CHECK-SAME: ptr @[[FADD]], i16 2, i16 16, i16 0, i16 0, i32 0, i32 3,
; CHECK-SAME: ptr @[[STORE:taintprof.str[.0-9]*]], i16 2, i16 16, i16 2, i16 0, i32 0, i32 4,
; CHECK-SAME: ptr @[[STORE]], i16 2, i16 16, i16 2, i16 0, i32 0, i32 5,

; CHECK-LABEL: define void @wide(
; CHECK: [[M:%.*]] = icmp slt <32 x i32>
; CHECK: [[LO:%.*]] = shufflevector <32 x i1> [[M]], <32 x i1> poison, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
; CHECK-NEXT: [[LOB:%.*]] = bitcast <16 x i1> [[LO]] to i16
; CHECK-NEXT: [[LOM:%.*]] = zext i16 [[LOB]] to i64
; CHECK: call void @__tpd_load(ptr @taintprof.fpsites, ptr %p, i64 [[LOM]],
; CHECK: [[HI:%.*]] = shufflevector <32 x i1> [[M]], <32 x i1> poison, <16 x i32> <i32 16, i32 17,
; CHECK-NEXT: [[HIB:%.*]] = bitcast <16 x i1> [[HI]] to i16
; CHECK-NEXT: [[HIM:%.*]] = zext i16 [[HIB]] to i64
; CHECK: [[P64:%.*]] = getelementptr inbounds i8, ptr %p, i64 64
; CHECK-NEXT: call void @__tpd_load(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), ptr [[P64]], i64 [[HIM]],
; The chunks' tags are reassembled into the value's <32 x i64> tag.
; CHECK: insertelement <32 x i64> {{%.*}}, i64 {{%.*}}, i32 31
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2),
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3),
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4), ptr %p,
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5), ptr {{%.*}},
define void @wide(ptr %p, <32 x float> %b) {
  %v = load <32 x float>, ptr %p
  %r = fadd <32 x float> %v, %b
  store <32 x float> %r, ptr %p
  ret void
}
