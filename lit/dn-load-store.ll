; Denormal mode, loads and stores of FP values: the fast path tests the loaded or
; stored value only — no shadow memory access; the cold region calls `__tpd_load` (which
; reads the shadow tag) / `__tpd_store` (which writes it) with the lanes that are
; denormal. The cold region rematerializes the address and the load (the group has no
; write before its test, so the clone reads what the original read). A store is tested
; before it executes; stores that follow it join its test.
; RUN: %opt_dn_nomem < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; FPSITE_LOAD = 1, FPSITE_STORE = 2.
; CHECK: @taintprof.fpsites = private constant [10 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[LOAD:taintprof.str[.0-9]*]], i16 2, i16 1, i16 1, i16 0, i32 0, i32 0,
; CHECK-SAME: ptr @[[STORE:taintprof.str[.0-9]*]], i16 2, i16 1, i16 2, i16 0, i32 0, i32 1,
; CHECK-SAME: ptr @[[STORE]], i16 2, i16 4, i16 2, i16 0, i32 1, i32 2,
; CHECK-SAME: ptr @[[STORE]], i16 2, i16 4, i16 2, i16 0, i32 1, i32 3,
; CHECK-SAME: ptr @[[LOAD]], i16 3, i16 4, i16 1, i16 0, i32 2, i32 4,
; CHECK-SAME: ptr @[[STORE]], i16 3, i16 4, i16 2, i16 0, i32 2, i32 5,
; CHECK-DAG: @[[LOAD]] = private unnamed_addr constant [5 x i8] c"load\00"
; CHECK-DAG: @[[STORE]] = private unnamed_addr constant [6 x i8] c"store\00"

; A copy: the loaded value's tag is what the store passes on.
; CHECK-LABEL: define void @copy(ptr %p, ptr %q, i64 %i)
; CHECK: %v = load float, ptr %a, align 4
; CHECK-NEXT: [[B:%.*]] = bitcast float %v to i32
; CHECK-NEXT: [[A:%.*]] = and i32 [[B]], 2147483647
; CHECK-NEXT: [[U:%.*]] = add i32 [[A]], -1
; CHECK-NEXT: %b = getelementptr inbounds float, ptr %q, i64 %i
; CHECK-NEXT: [[ANY:%.*]] = icmp ult i32 [[U]], 8388607
; CHECK-NEXT: [[F:%.*]] = freeze i1 [[ANY]]
; CHECK-NEXT: br i1 [[F]], label %[[COLD:[0-9]+]], label %[[JOIN:[0-9]+]], !prof
; Nothing on the fast path touches shadow memory (0xfffffffffff mask, 0x100000000000 base).
; CHECK-NOT: 17592186044415
; CHECK: [[COLD]]:
; CHECK-NEXT: [[A2:%.*]] = getelementptr inbounds float, ptr %p, i64 %i
; CHECK-NEXT: [[V2:%.*]] = load float, ptr [[A2]], align 4
; CHECK: [[D:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK-NEXT: [[M:%.*]] = zext i1 [[D]] to i64
; CHECK: call void @__tpd_load(ptr @taintprof.fpsites, ptr [[A2]], i64 [[M]], ptr [[RT:%.*]])
; CHECK-NEXT: [[T:%.*]] = load i32, ptr [[RT]], align 4
; CHECK-NEXT: [[TM:%.*]] = select i1 [[D]], i32 [[T]], i32 0
; CHECK: [[TL:%.*]] = phi i32 [ 0, %[[COLD]] ], [ [[TM]], %{{[0-9]+}} ]
; CHECK-NEXT: [[B2:%.*]] = getelementptr inbounds float, ptr %q, i64 %i
; CHECK-NEXT: [[VB:%.*]] = bitcast float [[V2]] to i32
; CHECK: [[DS:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK-NEXT: [[TS:%.*]] = select i1 [[DS]], i32 [[TL]], i32 0
; CHECK-NEXT: [[MS:%.*]] = zext i1 [[DS]] to i64
; CHECK: store i32 [[TS]], ptr [[OPT:%.*]], align 4
; CHECK-NEXT: call void @__tpd_store(ptr getelementptr inbounds ([10 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), ptr [[B2]], i64 [[MS]], ptr [[OPT]])
; CHECK: [[JOIN]]:
; CHECK-NEXT: store float %v, ptr %b, align 4
; CHECK-NEXT: ret void
define void @copy(ptr %p, ptr %q, i64 %i) {
  %a = getelementptr inbounds float, ptr %p, i64 %i
  %v = load float, ptr %a, align 4
  %b = getelementptr inbounds float, ptr %q, i64 %i
  store float %v, ptr %b, align 4
  ret void
}

; Two stores, one test (before the first); both hooks, in order, in the cold region.
; CHECK-LABEL: define void @two_stores(
; CHECK: call i1 @llvm.vector.reduce.or.v4i1(
; CHECK-NOT: call i1 @llvm.vector.reduce.or
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([10 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2), ptr %p,
; CHECK: [[P1:%.*]] = getelementptr inbounds i8, ptr %p, i64 16
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([10 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3), ptr [[P1]],
; CHECK: store <4 x float> %x, ptr %p, align 4
; CHECK-NEXT: store <4 x float> %y, ptr %p1, align 4
define void @two_stores(ptr %p, <4 x float> %x, <4 x float> %y) {
  %p1 = getelementptr inbounds i8, ptr %p, i64 16
  store <4 x float> %x, ptr %p, align 4
  store <4 x float> %y, ptr %p1, align 4
  ret void
}

; Masked forms: only the active lanes are tested (inactive ones become +inf in the
; filter) and reported; inactive lanes of the loaded value keep the pass-through tag.
; CHECK-LABEL: define <4 x double> @masked(
; CHECK: %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %p, i32 8, <4 x i1> %m, <4 x double> %pt)
; CHECK: select <4 x i1> %m, <4 x double> {{%.*}}, <4 x double> <double 0x7FF0000000000000,
; CHECK: [[D:%.*]] = icmp slt <4 x i64>
; CHECK-NEXT: [[DM:%.*]] = and <4 x i1> [[D]], %m
; CHECK: [[M:%.*]] = zext i4 {{%.*}} to i64
; CHECK: call void @__tpd_load(ptr getelementptr inbounds ([10 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4), ptr %p, i64 [[M]],
; CHECK: [[TL:%.*]] = phi <4 x i32>
; CHECK-NEXT: [[T:%.*]] = select <4 x i1> %m, <4 x i32> [[TL]], <4 x i32> {{%.*}}
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ([10 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5), ptr %p,
; CHECK: call void @llvm.masked.store.v4f64.p0(<4 x double> %v, ptr %p, i32 8, <4 x i1> %m)
define <4 x double> @masked(ptr %p, <4 x i1> %m, <4 x double> %pt) {
  %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %p, i32 8, <4 x i1> %m, <4 x double> %pt)
  call void @llvm.masked.store.v4f64.p0(<4 x double> %v, ptr %p, i32 8, <4 x i1> %m)
  ret <4 x double> %v
}

; Gathers: one hook call per denormal lane, with the lane's pointer minus lane * size
; as the base (the hook's "lane l of contiguous elements at base" is that address);
; each call writes all lanes' tags, so lane l's is copied out right after its call.
; CHECK-LABEL: define <2 x float> @gather(
; CHECK: [[M:%.*]] = zext i2 {{%.*}} to i64
; CHECK: [[B0:%.*]] = and i64 [[M]], 1
; CHECK: [[P0:%.*]] = extractelement <2 x ptr> %ps, i32 0
; CHECK-NEXT: call void @__tpd_load(ptr getelementptr inbounds ([10 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 6), ptr [[P0]], i64 1, ptr [[RT:%[0-9]+]])
; CHECK-NEXT: [[T0:%.*]] = load i32, ptr [[RT]], align 4
; CHECK-NEXT: store i32 [[T0]], ptr [[OPT:%[0-9]+]], align 4
; CHECK: [[B1:%.*]] = and i64 [[M]], 2
; CHECK: [[P1:%.*]] = extractelement <2 x ptr> %ps, i32 1
; CHECK-NEXT: [[BASE:%.*]] = getelementptr inbounds i8, ptr [[P1]], i64 -4
; CHECK-NEXT: call void @__tpd_load(ptr getelementptr inbounds ([10 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 6), ptr [[BASE]], i64 2, ptr [[RT]])
; CHECK-NEXT: [[S1:%.*]] = getelementptr inbounds i32, ptr [[RT]], i64 1
; CHECK-NEXT: [[T1:%.*]] = load i32, ptr [[S1]], align 4
; CHECK-NEXT: [[D1:%.*]] = getelementptr inbounds i32, ptr [[OPT]], i64 1
; CHECK-NEXT: store i32 [[T1]], ptr [[D1]], align 4
; CHECK: load <2 x i32>, ptr [[OPT]], align 4
define <2 x float> @gather(<2 x ptr> %ps, <2 x i1> %m) {
  %v = call <2 x float> @llvm.masked.gather.v2f32.v2p0(<2 x ptr> %ps, i32 4, <2 x i1> %m, <2 x float> zeroinitializer)
  ret <2 x float> %v
}

; CHECK-LABEL: define void @scatter(
; CHECK: [[P1:%.*]] = extractelement <2 x ptr> %ps, i32 1
; CHECK-NEXT: [[BASE:%.*]] = getelementptr inbounds i8, ptr [[P1]], i64 -8
; CHECK-NEXT: call void @__tpd_store(ptr getelementptr inbounds ([10 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 7), ptr [[BASE]], i64 2,
; CHECK: call void @llvm.masked.scatter.v2f64.v2p0(
define void @scatter(<2 x double> %v, <2 x ptr> %ps) {
  call void @llvm.masked.scatter.v2f64.v2p0(<2 x double> %v, <2 x ptr> %ps, i32 8, <2 x i1> <i1 true, i1 true>)
  ret void
}

; Atomic and volatile loads are not executed again in the cold region: it uses the
; loaded value itself.
; CHECK-LABEL: define float @atomic(
; CHECK: %v = load atomic float, ptr %p monotonic, align 4
; CHECK: br i1
; CHECK-NOT: load atomic float
; CHECK: bitcast float %v to i32
; CHECK: call void @__tpd_load(
define float @atomic(ptr %p) {
  %v = load atomic float, ptr %p monotonic, align 4
  ret float %v
}

; CHECK-LABEL: define double @volatile(
; CHECK: %v = load volatile double, ptr %p, align 8
; CHECK-NOT: load volatile double
; CHECK: bitcast double %v to i64
; CHECK: call void @__tpd_load(
define double @volatile(ptr %p) {
  %v = load volatile double, ptr %p, align 8
  ret double %v
}

declare <4 x double> @llvm.masked.load.v4f64.p0(ptr, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.store.v4f64.p0(<4 x double>, ptr, i32, <4 x i1>)
declare <2 x float> @llvm.masked.gather.v2f32.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x float>)
declare void @llvm.masked.scatter.v2f64.v2p0(<2 x double>, <2 x ptr>, i32, <2 x i1>)
