; memcpy/memmove copy shadow (inline for constant sizes, runtime otherwise); memset sets
; the value's label (inline only for label 0); masked load/store/gather/scatter do the
; same operation on shadow with the same mask.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @copy_const(ptr %d, ptr %s)
; CHECK: [[SD:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[SS:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr [[SD]], ptr [[SS]], i64 64, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 32, i1 false)
define void @copy_const(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 32, i1 false)
  ret void
}

; CHECK-LABEL: define void @move_var(ptr %d, ptr %s, i64 %n)
; CHECK: call void @__tp_shadow_copy(ptr %d, ptr %s, i64 %n)
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
define void @move_var(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  ret void
}

; CHECK-LABEL: define void @set_const_zero(ptr %d)
; CHECK: call void @llvm.memset.p0.i64(ptr {{%.*}}, i8 0, i64 200, i1 false)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 100, i1 false)
define void @set_const_zero(ptr %d) {
  call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 100, i1 false)
  ret void
}

; CHECK-LABEL: define void @set_labelled(ptr %d, i8 %v, i64 %n)
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; CHECK: call void @__tp_shadow_set(ptr %d, i16 [[LV]], i64 %n)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %d, i8 %v, i64 %n, i1 false)
define void @set_labelled(ptr %d, i8 %v, i64 %n) {
  call void @llvm.memset.p0.i64(ptr %d, i8 %v, i64 %n, i1 false)
  ret void
}

; CHECK-LABEL: define <4 x double> @mload(ptr %p, <4 x i1> %m, <4 x double> %pt)
; CHECK: [[M:%.*]] = shufflevector <4 x i1> %m, <4 x i1> poison, <32 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1,
; CHECK-NEXT: [[R:%.*]] = call <32 x i16> @llvm.masked.load.v32i16.p0(ptr {{%.*}}, i32 2, <32 x i1> [[M]], <32 x i16> zeroinitializer)
; CHECK: [[L:%.*]] = or <4 x i16>
; CHECK-NEXT: select <4 x i1> %m, <4 x i16> [[L]], <4 x i16>
define <4 x double> @mload(ptr %p, <4 x i1> %m, <4 x double> %pt) {
  %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %p, i32 8, <4 x i1> %m, <4 x double> %pt)
  ret <4 x double> %v
}

; CHECK-LABEL: define void @mstore(ptr %p, <4 x i1> %m, <4 x float> %v)
; CHECK: [[W:%.*]] = bitcast <4 x i64> {{%.*}} to <16 x i16>
; CHECK: [[M:%.*]] = shufflevector <4 x i1> %m, <4 x i1> poison, <16 x i32>
; CHECK-NEXT: call void @llvm.masked.store.v16i16.p0(<16 x i16> [[W]], ptr {{%.*}}, i32 2, <16 x i1> [[M]])
; CHECK-NEXT: call void @llvm.masked.store.v4f32.p0(<4 x float> %v, ptr %p, i32 4, <4 x i1> %m)
define void @mstore(ptr %p, <4 x i1> %m, <4 x float> %v) {
  call void @llvm.masked.store.v4f32.p0(<4 x float> %v, ptr %p, i32 4, <4 x i1> %m)
  ret void
}

; Gather of 8-byte lanes: two i64 gathers at shadow(p) and shadow(p)+8, folded.
; CHECK-LABEL: define <4 x double> @gather(<4 x ptr> %ps, <4 x i1> %m)
; CHECK: [[SP:%.*]] = inttoptr <4 x i64> {{%.*}} to <4 x ptr>
; CHECK-NEXT: [[G0:%.*]] = call <4 x i64> @llvm.masked.gather.v4i64.v4p0(<4 x ptr> [[SP]], i32 2, <4 x i1> %m, <4 x i64> zeroinitializer)
; CHECK-NEXT: [[P1:%.*]] = getelementptr inbounds i8, <4 x ptr> [[SP]], i64 8
; CHECK-NEXT: [[G1:%.*]] = call <4 x i64> @llvm.masked.gather.v4i64.v4p0(<4 x ptr> [[P1]], i32 2, <4 x i1> %m, <4 x i64> zeroinitializer)
; CHECK-NEXT: or <4 x i64> [[G0]], [[G1]]
define <4 x double> @gather(<4 x ptr> %ps, <4 x i1> %m) {
  %v = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %ps, i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
  ret <4 x double> %v
}

; CHECK-LABEL: define void @scatter(<4 x i32> %v, <4 x ptr> %ps, <4 x i1> %m)
; CHECK: [[W:%.*]] = mul <4 x i64> {{%.*}}, <i64 281479271743489,
; CHECK: call void @llvm.masked.scatter.v4i64.v4p0(<4 x i64> [[W]], <4 x ptr> {{%.*}}, i32 2, <4 x i1> %m)
; CHECK-NEXT: call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %ps, i32 4, <4 x i1> %m)
define void @scatter(<4 x i32> %v, <4 x ptr> %ps, <4 x i1> %m) {
  call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %ps, i32 4, <4 x i1> %m)
  ret void
}

; Reductions collapse; pure intrinsics take the union of their arguments, per lane.
; CHECK-LABEL: define double @math(<4 x double> %v, double %x, double %y)
; CHECK: %r = call double @llvm.vector.reduce.fadd.v4f64(double %x, <4 x double> %v)
; CHECK-NEXT: [[RV:%.*]] = call i16 @llvm.vector.reduce.or.v4i16(
; CHECK-NEXT: or i16
; CHECK: %f = call double @llvm.fmuladd.f64(double %r, double %x, double %y)
; CHECK-NEXT: or i16
; CHECK: %w = call <4 x double> @llvm.fabs.v4f64(<4 x double> %v)
; CHECK-NOT: reduce
; CHECK: call void @llvm.assume(i1 true)
; CHECK-NEXT: store i16 {{%.*}}, ptr @__tp_ret_tls
; CHECK-NEXT: ret double
define double @math(<4 x double> %v, double %x, double %y) {
  %r = call double @llvm.vector.reduce.fadd.v4f64(double %x, <4 x double> %v)
  %f = call double @llvm.fmuladd.f64(double %r, double %x, double %y)
  %w = call <4 x double> @llvm.fabs.v4f64(<4 x double> %v)
  call void @llvm.assume(i1 true)
  ret double %f
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare <4 x double> @llvm.masked.load.v4f64.p0(ptr, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.store.v4f32.p0(<4 x float>, ptr, i32, <4 x i1>)
declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.scatter.v4i32.v4p0(<4 x i32>, <4 x ptr>, i32, <4 x i1>)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.fmuladd.f64(double, double, double)
declare <4 x double> @llvm.fabs.v4f64(<4 x double>)
declare void @llvm.assume(i1)
