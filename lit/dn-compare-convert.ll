; Denormal mode, operand-only sites: `fcmp`, `fptosi` and `fptoui` read FP operands
; and produce no FP value (FPSITE_NO_RESULT = 8, result mask 0, no result tag).
; `sitofp`/`uitofp` are not sites: an integer converts to a normal value or zero.
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: @taintprof.fpsites = private constant [6 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[FCMP:taintprof.str[.0-9]*]], i16 3, i16 1, i16 8, i16 0, i32 0, i32 0,
; CHECK-SAME: ptr @[[FCMP]], i16 2, i16 4, i16 8, i16 0, i32 1, i32 1,
; CHECK-SAME: ptr @[[FPTOSI:taintprof.str[.0-9]*]], i16 2, i16 1, i16 8, i16 0, i32 2, i32 2,
; CHECK-SAME: ptr @[[FPTOUI:taintprof.str[.0-9]*]], i16 3, i16 2, i16 8, i16 0, i32 3, i32 3,
; CHECK-DAG: @[[FCMP]] = private unnamed_addr constant [5 x i8] c"fcmp\00"
; CHECK-DAG: @[[FPTOSI]] = private unnamed_addr constant [7 x i8] c"fptosi\00"
; CHECK-DAG: @[[FPTOUI]] = private unnamed_addr constant [7 x i8] c"fptoui\00"

; CHECK-LABEL: define i1 @cmp(double %a, double %b)
; CHECK: [[UA:%.*]] = add i64 {{%.*}}, -1
; CHECK: [[UB:%.*]] = add i64 {{%.*}}, -1
; CHECK-NEXT: [[M:%.*]] = call i64 @llvm.umin.i64(i64 [[UA]], i64 [[UB]])
; CHECK-NEXT: %c = fcmp olt double %a, %b
; CHECK-NEXT: [[ANY:%.*]] = icmp ult i64 [[M]], 4503599627370495
; CHECK: [[DA:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK: [[DB:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK: [[MA:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: [[MB:%.*]] = zext i1 [[DB]] to i64
; CHECK-NEXT: [[MB16:%.*]] = shl i64 [[MB]], 16
; CHECK-NEXT: [[OPM:%.*]] = or i64 [[MA]], [[MB16]]
; CHECK-NEXT: [[NEED:%.*]] = icmp ne i64 [[OPM]], 0
; CHECK: call void @__tpd_op(ptr @taintprof.fpsites, i64 [[OPM]], i64 0, ptr
; CHECK: ret i1 %c
define i1 @cmp(double %a, double %b) {
  %c = fcmp olt double %a, %b
  ret i1 %c
}

; CHECK-LABEL: define <4 x i1> @vcmp(
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), i64 {{%.*}}, i64 0,
define <4 x i1> @vcmp(<4 x float> %a) {
  %c = fcmp une <4 x float> %a, zeroinitializer
  ret <4 x i1> %c
}

; CHECK-LABEL: define i32 @toint(float %a)
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2), i64 {{%.*}}, i64 0,
; CHECK-NOT: __tpd_ret_tag_tls
; CHECK: ret i32 %i
define i32 @toint(float %a) {
  %i = fptosi float %a to i32
  ret i32 %i
}

; CHECK-LABEL: define <2 x i64> @touint(
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3), i64 {{%.*}}, i64 0,
define <2 x i64> @touint(<2 x double> %a) {
  %i = fptoui <2 x double> %a to <2 x i64>
  ret <2 x i64> %i
}

; No site, no counter, and the result's tag is 0.
; CHECK-LABEL: define double @fromint(i64 %i)
; CHECK-NOT: __tpd_op
; CHECK-NOT: __tpd_counters_tls
; CHECK: %d = sitofp i64 %i to double
; CHECK-NEXT: store i64 0, ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret double %d
define double @fromint(i64 %i) {
  %d = sitofp i64 %i to double
  ret double %d
}

; A comparison with a normal constant tests the variable operand only; with a denormal
; constant the cold region always runs (its hook still only for denormal lanes).
; CHECK-LABEL: define i1 @cmpconst(
; CHECK: [[U:%.*]] = add i32 {{%.*}}, -1
; CHECK-NEXT: %c = fcmp ogt float %a, 1.000000e+00
; CHECK-NEXT: icmp ult i32 [[U]], 8388607
define i1 @cmpconst(float %a) {
  %c = fcmp ogt float %a, 1.0
  ret i1 %c
}

; CHECK-LABEL: define i1 @cmpdenorm(
; CHECK: %c = fcmp ogt float %a, 0x36A0000000000000
; CHECK-NEXT: br i1 true, label
define i1 @cmpdenorm(float %a) {
  %c = fcmp ogt float %a, 0x36A0000000000000
  ret i1 %c
}
