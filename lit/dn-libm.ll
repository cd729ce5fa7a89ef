; Denormal mode, calls to listed math functions (`pure`/`zero` entries of the function
; list with FP arguments or result): operation sites named `call <name>`, flagged
; FPSITE_CALL (4); their result is checked like an operation's, so the call whose
; result is a new denormal is its creator; no call-ABI traffic (tag slots, callee).
; FP→int functions have no result (FPSITE_CALL | FPSITE_NO_RESULT = 12).
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: @taintprof.fpsites = private constant [4 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[EXPF:taintprof.str[.0-9]*]], i16 2, i16 1, i16 4, i16 0, i32 0, i32 0,
; CHECK-SAME: ptr @[[STORE:taintprof.str[.0-9]*]], i16 2, i16 1, i16 2, i16 0, i32 0, i32 1,
; CHECK-SAME: ptr @[[POW:taintprof.str[.0-9]*]], i16 3, i16 1, i16 4, i16 0, i32 1, i32 2,
; CHECK-SAME: ptr @[[LROUND:taintprof.str[.0-9]*]], i16 3, i16 1, i16 12, i16 0, i32 2, i32 3,
; CHECK-DAG: @[[EXPF]] = private unnamed_addr constant [10 x i8] c"call expf\00"
; CHECK-DAG: @[[POW]] = private unnamed_addr constant [9 x i8] c"call pow\00"
; CHECK-DAG: @[[LROUND]] = private unnamed_addr constant [12 x i8] c"call lround\00"

; w[i] = expf(x): the call and the store are one group; the call's result tag (from
; __tpd_op) is what the store hook receives.
; CHECK-LABEL: define void @kernel(ptr %w, float %x)
; CHECK: %e = call float @expf(float %x)
; CHECK-NEXT: [[B:%.*]] = bitcast float %e to i32
; CHECK: br i1 {{%.*}}, label %{{[0-9]+}}, label %{{[0-9]+}}, !prof
; The call is not made again in the cold region.
; CHECK-NOT: call float @expf
; CHECK: [[D:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: call void @__tpd_op(ptr @taintprof.fpsites,
; CHECK: [[T:%.*]] = phi i64 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: select i1 {{%.*}}, i64 [[T]], i64 0
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([4 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), ptr %w,
; CHECK: store float %e, ptr %w
; No call ABI for listed functions.
; CHECK-NOT: __tp_callee_tls
; CHECK: ret void
define void @kernel(ptr %w, float %x) {
  %e = call float @expf(float %x)
  store float %e, ptr %w, align 4
  ret void
}

; CHECK-LABEL: define double @twoargs(
; CHECK: [[OPM:%.*]] = or i64 {{%.*}}, {{%.*}}
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([4 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2), i64 [[OPM]],
define double @twoargs(double %a, double %b) {
  %r = call double @pow(double %a, double %b)
  ret double %r
}

; CHECK-LABEL: define i64 @toint(
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([4 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3), i64 {{%.*}}, i64 0,
define i64 @toint(double %a) {
  %r = call i64 @lround(double %a)
  ret i64 %r
}

; Listed functions without FP values are not sites.
; CHECK-LABEL: define i32 @intonly(
; CHECK-NOT: __tpd_op
; CHECK: ret i32 %r
define i32 @intonly(i32 %a) {
  %r = call i32 @abs(i32 %a)
  ret i32 %r
}

declare float @expf(float) nounwind
declare double @pow(double, double) nounwind
declare i64 @lround(double) nounwind
declare i32 @abs(i32) nounwind
