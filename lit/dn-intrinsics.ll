; Denormal mode, intrinsics: every intrinsic with an FP result or FP operands is an
; operation site named after the intrinsic without `llvm.` and type suffixes. FP→int
; intrinsics have no result (FPSITE_NO_RESULT = 8). Operands of different widths share
; the site's lanes: a scalar operand is lane 0 (reductions: the start value is operand
; 0 in slot 0, the vector operand 1 in slots 4..7). Subvector intrinsics only move
; lanes: their tags are the same intrinsic applied to the tag vectors.
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: @taintprof.fpsites = private constant [9 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[SQRT:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0,
; CHECK-SAME: ptr @[[FMA:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0,
; CHECK-SAME: ptr @[[FMULADD:taintprof.str[.0-9]*]], i16 3, i16 1, i16 0, i16 0,
; CHECK-SAME: ptr @[[MINNUM:taintprof.str[.0-9]*]], i16 2, i16 1, i16 0, i16 0,
; CHECK-SAME: ptr @[[REDUCE:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0,
; CHECK-SAME: ptr @[[CLASS:taintprof.str[.0-9]*]], i16 3, i16 1, i16 8, i16 0,
; CHECK-SAME: ptr @[[LROUND:taintprof.str[.0-9]*]], i16 3, i16 1, i16 8, i16 0,
; CHECK-SAME: ptr @[[FREXP:taintprof.str[.0-9]*]], i16 3, i16 1, i16 8, i16 0,
; CHECK-SAME: ptr @[[FADD:taintprof.str[.0-9]*]], i16 2, i16 4, i16 0, i16 0,
; CHECK-DAG: @[[SQRT]] = private unnamed_addr constant [5 x i8] c"sqrt\00"
; CHECK-DAG: @[[FMA]] = private unnamed_addr constant [4 x i8] c"fma\00"
; CHECK-DAG: @[[FMULADD]] = private unnamed_addr constant [8 x i8] c"fmuladd\00"
; CHECK-DAG: @[[MINNUM]] = private unnamed_addr constant [7 x i8] c"minnum\00"
; CHECK-DAG: @[[REDUCE]] = private unnamed_addr constant [19 x i8] c"vector.reduce.fadd\00"
; CHECK-DAG: @[[CLASS]] = private unnamed_addr constant [11 x i8] c"is.fpclass\00"
; CHECK-DAG: @[[LROUND]] = private unnamed_addr constant [7 x i8] c"lround\00"
; CHECK-DAG: @[[FREXP]] = private unnamed_addr constant [6 x i8] c"frexp\00"

; CHECK-LABEL: define double @sqrt(
; CHECK: %r = call double @llvm.sqrt.f64(double %x)
; CHECK: [[R2:%.*]] = call double @llvm.sqrt.f64(double %x)
; CHECK: call void @__tpd_op(ptr @taintprof.fpsites,
define double @sqrt(double %x) {
  %r = call double @llvm.sqrt.f64(double %x)
  ret double %r
}

; Three operands: bits 0-3, 16-19, 32-35 of the operand mask; slots 0, 4, 8.
; CHECK-LABEL: define <4 x float> @fma(
; CHECK: [[M1:%.*]] = shl i64 {{%.*}}, 16
; CHECK: [[M2:%.*]] = shl i64 {{%.*}}, 32
; CHECK: store <4 x i64> {{%.*}}, ptr [[OPT:%[0-9]+]], align 8
; CHECK-NEXT: [[S1:%.*]] = getelementptr inbounds i64, ptr [[OPT]], i64 4
; CHECK-NEXT: store <4 x i64> {{%.*}}, ptr [[S1]], align 8
; CHECK-NEXT: [[S2:%.*]] = getelementptr inbounds i64, ptr [[OPT]], i64 8
; CHECK-NEXT: store <4 x i64> {{%.*}}, ptr [[S2]], align 8
; CHECK-NEXT: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1),
define <4 x float> @fma(<4 x float> %a, <4 x float> %b, <4 x float> %c) {
  %r = call <4 x float> @llvm.fma.v4f32(<4 x float> %a, <4 x float> %b, <4 x float> %c)
  ret <4 x float> %r
}

; CHECK-LABEL: define double @fmuladd(
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2),
define double @fmuladd(double %a, double %b, double %c) {
  %r = call double @llvm.fmuladd.f64(double %a, double %b, double %c)
  ret double %r
}

; CHECK-LABEL: define float @minnum(
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3),
define float @minnum(float %a, float %b) {
  %r = call float @llvm.minnum.f32(float %a, float %b)
  ret float %r
}

; A reduction: 4 lanes; the scalar start value is lane 0 of operand 0, the vector is
; operand 1; the scalar result is lane 0 of the result.
; CHECK-LABEL: define float @reduce(
; CHECK: [[DS:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: [[DV:%.*]] = icmp slt <4 x i32>
; CHECK: [[DR:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: [[MS:%.*]] = zext i1 [[DS]] to i64
; CHECK-NEXT: [[IV:%.*]] = bitcast <4 x i1> [[DV]] to i4
; CHECK-NEXT: [[MV:%.*]] = zext i4 [[IV]] to i64
; CHECK-NEXT: [[MV16:%.*]] = shl i64 [[MV]], 16
; CHECK-NEXT: [[OPM:%.*]] = or i64 [[MS]], [[MV16]]
; CHECK-NEXT: [[RESM:%.*]] = zext i1 [[DR]] to i64
; CHECK: store i64 {{%.*}}, ptr [[OPT:%[0-9]+]], align 8
; CHECK-NEXT: [[S1:%.*]] = getelementptr inbounds i64, ptr [[OPT]], i64 4
; CHECK-NEXT: store <4 x i64> {{%.*}}, ptr [[S1]], align 8
; CHECK-NEXT: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4), i64 [[OPM]], i64 [[RESM]],
; CHECK-NEXT: load i64, ptr
define float @reduce(float %s, <4 x float> %v) {
  %r = call float @llvm.vector.reduce.fadd.v4f32(float %s, <4 x float> %v)
  ret float %r
}

; FP→int: operands only (result mask 0).
; CHECK-LABEL: define i1 @cls(
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5), i64 {{%.*}}, i64 0,
; CHECK-NOT: store i64 {{.*}} @__tpd_ret_tag_tls
define i1 @cls(double %x) {
  %r = call i1 @llvm.is.fpclass.f64(double %x, i32 3)
  ret i1 %r
}

; CHECK-LABEL: define i64 @lround(
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 6), i64 {{%.*}}, i64 0,
define i64 @lround(double %x) {
  %r = call i64 @llvm.lround.i64.f64(double %x)
  ret i64 %r
}

; frexp's mantissa is never denormal: the operand only.
; CHECK-LABEL: define i32 @frexp(
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 7), i64 {{%.*}}, i64 0,
define i32 @frexp(double %x) {
  %r = call { double, i32 } @llvm.frexp.f64.i32(double %x)
  %e = extractvalue { double, i32 } %r, 1
  ret i32 %e
}

; A subvector of a parameter: no site; its tag is the parameter's tag through the same
; intrinsic on <8 x i64>.
; CHECK-LABEL: define <4 x float> @sub(
; CHECK: %r = call <4 x float> @llvm.vector.extract.v4f32.v8f32(<8 x float> %v, i64 4)
; CHECK: [[TV:%.*]] = shufflevector <8 x i64> {{%.*}}, <8 x i64> poison, <8 x i32> zeroinitializer
; CHECK-NEXT: [[TR:%.*]] = call <4 x i64> @llvm.vector.extract.v4i64.v8i64(<8 x i64> [[TV]], i64 4)
; CHECK-NEXT: select <4 x i1> {{%.*}}, <4 x i64> [[TR]], <4 x i64> zeroinitializer
; CHECK: call void @__tpd_op(ptr getelementptr inbounds ([9 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 8),
define <4 x float> @sub(<8 x float> %v) {
  %r = call <4 x float> @llvm.vector.extract.v4f32.v8f32(<8 x float> %v, i64 4)
  %s = fadd <4 x float> %r, %r
  ret <4 x float> %s
}

; Debug-info and marker intrinsics are not sites even with FP arguments.
; CHECK-LABEL: define void @markers(
; CHECK-NOT: __tpd_op
; CHECK: ret void
define void @markers(ptr %p) {
  call void @llvm.lifetime.start.p0(i64 4, ptr %p)
  call void @llvm.lifetime.end.p0(i64 4, ptr %p)
  ret void
}

declare double @llvm.sqrt.f64(double)
declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)
declare double @llvm.fmuladd.f64(double, double, double)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
declare i1 @llvm.is.fpclass.f64(double, i32)
declare i64 @llvm.lround.i64.f64(double)
declare { double, i32 } @llvm.frexp.f64.i32(double)
declare <4 x float> @llvm.vector.extract.v4f32.v8f32(<8 x float>, i64)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
