; memcpy/memmove copy shadow (inline for constant sizes, runtime otherwise); memset sets
; the value's label (inline only for label 0); masked load/store/gather/scatter do the
; same operation on shadow with the same mask.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @copy_const(ptr %d, ptr %s)
; CHECK-NEXT: ptrtoint ptr %d to i64
; CHECK: [[SD:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: ptrtoint ptr %s to i64
; CHECK: [[SS:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr [[SD]], ptr [[SS]], i64 64, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 32, i1 false)
define void @copy_const(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 32, i1 false)
  ret void
}

; CHECK-LABEL: define void @move_var(ptr %d, ptr %s, i64 %n)
; CHECK: call void @__tp_shadow_copy(ptr %d, ptr %s, i64 %n)
; A variable length makes the call a library loop (library-loops.ll).
; CHECK-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr {{.*}}@taintprof.loops{{.*}}, i16 {{%.*}})
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
define void @move_var(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  ret void
}

; CHECK-LABEL: define void @set_const_zero(ptr %d)
; CHECK-NEXT: ptrtoint ptr %d to i64
; CHECK: [[SD:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr [[SD]], i8 0, i64 200, i1 false)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 100, i1 false)
define void @set_const_zero(ptr %d) {
  call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 100, i1 false)
  ret void
}

; CHECK-LABEL: define void @set_labelled(ptr %d, i8 %v, i64 %n)
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; CHECK: call void @__tp_shadow_set(ptr %d, i16 [[LV]], i64 %n)
; CHECK-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr {{.*}}@taintprof.loops{{.*}}, i16 {{%.*}})
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %d, i8 %v, i64 %n, i1 false)
define void @set_labelled(ptr %d, i8 %v, i64 %n) {
  call void @llvm.memset.p0.i64(ptr %d, i8 %v, i64 %n, i1 false)
  ret void
}

; Masked load of <4 x double> (i64 shadow lanes): each lane's 8 byte labels are words
; 4k..4k+3 of the raw labels viewed as i32s; OR even and odd words, view as <4 x i64>,
; fold by shifts (the label is the low 16 bits); masked-off lanes take the pass-through
; operand's labels; the pointer label is ORed into every lane.
; CHECK-LABEL: define <4 x double> @mload(ptr %p, <4 x i1> %m, <4 x double> %pt)
; CHECK-NEXT: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LP_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[LP:%.*]] = select i1 {{%.*}}, i16 [[LP_RAW]], i16 0
; CHECK-NEXT: [[LPT_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LPT:%.*]] = select i1 {{%.*}}, i16 [[LPT_RAW]], i16 0
; CHECK-NEXT: [[LPTW:%.*]] = zext i16 [[LPT]] to i64
; CHECK-NEXT: [[LPTI:%.*]] = insertelement <4 x i64> poison, i64 [[LPTW]], i32 0
; CHECK-NEXT: [[SPT:%.*]] = shufflevector <4 x i64> [[LPTI]], <4 x i64> poison, <4 x i32> zeroinitializer
; CHECK: [[M:%.*]] = shufflevector <4 x i1> %m, <4 x i1> poison, <32 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1,
; CHECK-NEXT: [[R:%.*]] = call <32 x i16> @llvm.masked.load.v32i16.p0(ptr [[SP]], i32 2, <32 x i1> [[M]], <32 x i16> zeroinitializer)
; CHECK-NEXT: [[W:%.*]] = bitcast <32 x i16> [[R]] to <16 x i32>
; CHECK-NEXT: [[EV:%.*]] = shufflevector <16 x i32> [[W]], <16 x i32> poison, <8 x i32> <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
; CHECK-NEXT: [[OD:%.*]] = shufflevector <16 x i32> [[W]], <16 x i32> poison, <8 x i32> <i32 1, i32 3, i32 5, i32 7, i32 9, i32 11, i32 13, i32 15>
; CHECK-NEXT: [[EO:%.*]] = or <8 x i32> [[EV]], [[OD]]
; CHECK-NEXT: [[Q:%.*]] = bitcast <8 x i32> [[EO]] to <4 x i64>
; CHECK-NEXT: [[Q32:%.*]] = lshr <4 x i64> [[Q]], <i64 32, i64 32, i64 32, i64 32>
; CHECK-NEXT: [[QA:%.*]] = or <4 x i64> [[Q]], [[Q32]]
; CHECK-NEXT: [[Q16:%.*]] = lshr <4 x i64> [[QA]], <i64 16, i64 16, i64 16, i64 16>
; CHECK-NEXT: [[L:%.*]] = or <4 x i64> [[QA]], [[Q16]]
; CHECK-NEXT: [[SEL:%.*]] = select <4 x i1> %m, <4 x i64> [[L]], <4 x i64> [[SPT]]
; CHECK-NEXT: [[LPW:%.*]] = zext i16 [[LP]] to i64
; CHECK-NEXT: [[LPI:%.*]] = insertelement <4 x i64> poison, i64 [[LPW]], i32 0
; CHECK-NEXT: [[LPS:%.*]] = shufflevector <4 x i64> [[LPI]], <4 x i64> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: [[V:%.*]] = or <4 x i64> [[SEL]], [[LPS]]
; CHECK-NEXT: [[RV:%.*]] = call i64 @llvm.vector.reduce.or.v4i64(<4 x i64> [[V]])
; CHECK-NEXT: [[RL:%.*]] = trunc i64 [[RV]] to i16
; CHECK-NEXT: store i16 [[RL]], ptr @__tp_ret_tls
define <4 x double> @mload(ptr %p, <4 x i1> %m, <4 x double> %pt) {
  %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %p, i32 8, <4 x i1> %m, <4 x double> %pt)
  ret <4 x double> %v
}

; Masked store of <4 x float> (i32 shadow lanes): each lane's low i16 (i16 number 2k of
; the lanes) repeated over its 4 bytes.
; CHECK-LABEL: define void @mstore(ptr %p, <4 x i1> %m, <4 x float> %v)
; CHECK-NEXT: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; CHECK-NEXT: [[LVW:%.*]] = zext i16 [[LV]] to i32
; CHECK-NEXT: [[LVI:%.*]] = insertelement <4 x i32> poison, i32 [[LVW]], i32 0
; CHECK-NEXT: [[LVS:%.*]] = shufflevector <4 x i32> [[LVI]], <4 x i32> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: [[B:%.*]] = bitcast <4 x i32> [[LVS]] to <8 x i16>
; CHECK-NEXT: [[W:%.*]] = shufflevector <8 x i16> [[B]], <8 x i16> poison, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 2, i32 2, i32 2, i32 2, i32 4, i32 4, i32 4, i32 4, i32 6, i32 6, i32 6, i32 6>
; CHECK-NEXT: [[M:%.*]] = shufflevector <4 x i1> %m, <4 x i1> poison, <16 x i32>
; CHECK-NEXT: call void @llvm.masked.store.v16i16.p0(<16 x i16> [[W]], ptr [[SP]], i32 2, <16 x i1> [[M]])
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
; CHECK-NEXT: [[G:%.*]] = or <4 x i64> [[G0]], [[G1]]
; CHECK-NEXT: [[G32:%.*]] = lshr <4 x i64> [[G]], <i64 32, i64 32, i64 32, i64 32>
; CHECK-NEXT: [[GA:%.*]] = or <4 x i64> [[G]], [[G32]]
; CHECK-NEXT: [[G16:%.*]] = lshr <4 x i64> [[GA]], <i64 16, i64 16, i64 16, i64 16>
; CHECK-NEXT: [[GB:%.*]] = or <4 x i64> [[GA]], [[G16]]
; CHECK-NEXT: [[GT:%.*]] = trunc <4 x i64> [[GB]] to <4 x i16>
; CHECK-NEXT: [[GL:%.*]] = zext <4 x i16> [[GT]] to <4 x i64>
; CHECK-NEXT: select <4 x i1> %m, <4 x i64> [[GL]], <4 x i64> zeroinitializer
define <4 x double> @gather(<4 x ptr> %ps, <4 x i1> %m) {
  %v = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %ps, i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
  ret <4 x double> %v
}

; Scatter of 4-byte lanes: the i32 shadow lanes truncated to their labels, each repeated
; over the lane's 4 bytes (one i64 per lane).
; CHECK-LABEL: define void @scatter(<4 x i32> %v, <4 x ptr> %ps, <4 x i1> %m)
; CHECK: [[T:%.*]] = trunc <4 x i32> {{%.*}} to <4 x i16>
; CHECK: [[Z:%.*]] = zext <4 x i16> [[T]] to <4 x i64>
; CHECK-NEXT: [[W:%.*]] = mul <4 x i64> [[Z]], <i64 281479271743489,
; CHECK: call void @llvm.masked.scatter.v4i64.v4p0(<4 x i64> [[W]], <4 x ptr> {{%.*}}, i32 2, <4 x i1> %m)
; CHECK-NEXT: call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %ps, i32 4, <4 x i1> %m)
define void @scatter(<4 x i32> %v, <4 x ptr> %ps, <4 x i1> %m) {
  call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %ps, i32 4, <4 x i1> %m)
  ret void
}

; Reductions collapse; pure intrinsics take the union of their arguments, per lane.
; CHECK-LABEL: define double @math(<4 x double> %v, double %x, double %y)
; CHECK: %r = call double @llvm.vector.reduce.fadd.v4f64(double %x, <4 x double> %v)
; CHECK-NEXT: [[RV64:%.*]] = call i64 @llvm.vector.reduce.or.v4i64(
; CHECK-NEXT: [[RV:%.*]] = trunc i64 [[RV64]] to i16
; CHECK-NEXT: or i16 {{%.*}}, [[RV]]
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
