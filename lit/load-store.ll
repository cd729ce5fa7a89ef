; Scalar loads and stores: shadow(addr) = ((addr & 0xfffffffffff) << 1) + 0x100000000000,
; one i16 label per byte. Loads OR the labels of all bytes; stores broadcast the label.
; With shadow-address strength reduction (the default, SR) the shadow address of an
; argument pointer is computed once at the top of the entry block; without it (NOSR,
; pass parameter no-shadow-sr or TAINTPROF_SHADOW_SR=0) at each access. shadow-sr.ll
; tests the derived (GEP, PHI, select) shadow addresses.
; RUN: %opt_dataflow < %s | %FileCheck %s --check-prefixes=CHECK,PTR,SR
; RUN: %opt -passes='taintprof-taint<no-pointer-labels;no-control-flow;no-hoist>' -S < %s | %FileCheck %s --check-prefixes=CHECK,NOPTR,SR
; RUN: env TAINTPROF_POINTER_LABELS=0 TAINTPROF_CONTROL_FLOW=0 TAINTPROF_HOIST=0 %opt_taint < %s | %FileCheck %s --check-prefixes=CHECK,NOPTR,SR
; RUN: %opt -passes='taintprof-taint<no-control-flow;no-hoist;no-shadow-sr>' -S < %s | %FileCheck %s --check-prefixes=CHECK,PTR,NOSR
; RUN: env TAINTPROF_SHADOW_SR=0 %opt_dataflow < %s | %FileCheck %s --check-prefixes=CHECK,PTR,NOSR
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i8 @load1(ptr %p)
; SR-NEXT: [[I:%.*]] = ptrtoint ptr %p to i64
; SR-NEXT: [[M:%.*]] = and i64 [[I]], 17592186044415
; SR-NEXT: [[S:%.*]] = shl i64 [[M]], 1
; SR-NEXT: [[A:%.*]] = add i64 [[S]], 17592186044416
; SR-NEXT: [[SP:%.*]] = inttoptr i64 [[A]] to ptr
; PTR: [[LP_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; PTR-NEXT: [[LP:%.*]] = select i1 {{%.*}}, i16 [[LP_RAW]], i16 0
; NOPTR-NOT: load i16, ptr @__tp_arg_tls
; CHECK: %v = load i8, ptr %p
; NOSR-NEXT: [[I:%.*]] = ptrtoint ptr %p to i64
; NOSR-NEXT: [[M:%.*]] = and i64 [[I]], 17592186044415
; NOSR-NEXT: [[S:%.*]] = shl i64 [[M]], 1
; NOSR-NEXT: [[A:%.*]] = add i64 [[S]], 17592186044416
; NOSR-NEXT: [[SP:%.*]] = inttoptr i64 [[A]] to ptr
; CHECK-NEXT: [[L:%.*]] = load i16, ptr [[SP]], align 2
; PTR-NEXT: [[R:%.*]] = or i16 [[L]], [[LP]]
; PTR: store i16 [[R]], ptr @__tp_ret_tls
; NOPTR: store i16 [[L]], ptr @__tp_ret_tls
define i8 @load1(ptr %p) {
  %v = load i8, ptr %p
  ret i8 %v
}

; 2, 4 and 8 bytes: two halves loaded as integers, ORed, then folded by shifts.
; CHECK-LABEL: define i16 @load2(ptr %p)
; SR-NEXT: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[W0:%.*]] = load i16, ptr [[SP]], align 2
; CHECK-NEXT: [[SP2:%.*]] = getelementptr inbounds i8, ptr [[SP]], i64 2
; CHECK-NEXT: [[W1:%.*]] = load i16, ptr [[SP2]], align 2
; CHECK-NEXT: [[L:%.*]] = or i16 [[W0]], [[W1]]
; PTR-NEXT: [[R:%.*]] = or i16 [[L]], [[LP:%.*]]
; PTR-NEXT: store i16 [[R]], ptr @__tp_ret_tls
; NOPTR-NEXT: store i16 [[L]], ptr @__tp_ret_tls
define i16 @load2(ptr %p) {
  %v = load i16, ptr %p
  ret i16 %v
}

; CHECK-LABEL: define float @load4(ptr %p)
; SR-NEXT: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[W0:%.*]] = load i32, ptr [[SP]], align 2
; CHECK-NEXT: [[SP4:%.*]] = getelementptr inbounds i8, ptr [[SP]], i64 4
; CHECK-NEXT: [[W1:%.*]] = load i32, ptr [[SP4]], align 2
; CHECK-NEXT: [[W:%.*]] = or i32 [[W0]], [[W1]]
; CHECK-NEXT: [[H:%.*]] = lshr i32 [[W]], 16
; CHECK-NEXT: [[O:%.*]] = or i32 [[W]], [[H]]
; CHECK-NEXT: [[L:%.*]] = trunc i32 [[O]] to i16
; PTR-NEXT: [[R:%.*]] = or i16 {{%.*}}, [[L]]
; PTR-NEXT: store i16 [[R]], ptr @__tp_ret_tls
; NOPTR-NEXT: store i16 [[L]], ptr @__tp_ret_tls
define float @load4(ptr %p) {
  %v = load float, ptr %p
  ret float %v
}

; CHECK-LABEL: define double @load8(ptr %p)
; SR-NEXT: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[W0:%.*]] = load i64, ptr [[SP]], align 2
; CHECK-NEXT: [[SP8:%.*]] = getelementptr inbounds i8, ptr [[SP]], i64 8
; CHECK-NEXT: [[W1:%.*]] = load i64, ptr [[SP8]], align 2
; CHECK-NEXT: [[W:%.*]] = or i64 [[W0]], [[W1]]
; CHECK-NEXT: [[H:%.*]] = lshr i64 [[W]], 32
; CHECK-NEXT: [[O:%.*]] = or i64 [[W]], [[H]]
; CHECK-NEXT: [[H2:%.*]] = lshr i64 [[O]], 16
; CHECK-NEXT: [[O2:%.*]] = or i64 [[O]], [[H2]]
; CHECK-NEXT: [[L:%.*]] = trunc i64 [[O2]] to i16
; PTR-NEXT: [[R:%.*]] = or i16 {{%.*}}, [[L]]
; PTR-NEXT: store i16 [[R]], ptr @__tp_ret_tls
; NOPTR-NEXT: store i16 [[L]], ptr @__tp_ret_tls
define double @load8(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}

; CHECK-LABEL: define i128 @load16(ptr %p)
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: load <16 x i16>, ptr [[SP]], align 2
; CHECK-NEXT: call i16 @llvm.vector.reduce.or.v16i16
define i128 @load16(ptr %p) {
  %v = load i128, ptr %p
  ret i128 %v
}

; A 32-byte first-class aggregate: one collapsed label.
; CHECK-LABEL: define { i64, i64, i64, i64 } @load32(ptr %p)
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: load <32 x i16>, ptr [[SP]], align 2
; CHECK-NEXT: call i16 @llvm.vector.reduce.or.v32i16
define { i64, i64, i64, i64 } @load32(ptr %p) {
  %v = load { i64, i64, i64, i64 }, ptr %p
  ret { i64, i64, i64, i64 } %v
}

; Odd sizes call the runtime.
; CHECK-LABEL: define x86_fp80 @load10(ptr %p)
; CHECK: call i16 @__tp_shadow_union(ptr %p, i64 10)
define x86_fp80 @load10(ptr %p) {
  %v = load x86_fp80, ptr %p
  ret x86_fp80 %v
}

; Stores never add the pointer's label.
; CHECK-LABEL: define void @store1(ptr %p, i8 %v)
; SR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; NOSR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: store i16 [[LV]], ptr [[SP]], align 2
; CHECK-NEXT: store i8 %v, ptr %p
define void @store1(ptr %p, i8 %v) {
  store i8 %v, ptr %p
  ret void
}

; CHECK-LABEL: define void @store2(ptr %p, i16 %v)
; SR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; CHECK-NEXT: [[Z:%.*]] = zext i16 [[LV]] to i32
; CHECK-NEXT: [[M:%.*]] = mul i32 [[Z]], 65537
; NOSR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: store i32 [[M]], ptr [[SP]], align 2
; CHECK-NEXT: store i16 %v, ptr %p
define void @store2(ptr %p, i16 %v) {
  store i16 %v, ptr %p
  ret void
}

; CHECK-LABEL: define void @store4(ptr %p, i32 %v)
; SR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; CHECK-NEXT: [[Z:%.*]] = zext i16 [[LV]] to i64
; CHECK-NEXT: [[M:%.*]] = mul i64 [[Z]], 281479271743489
; NOSR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: store i64 [[M]], ptr [[SP]], align 2
define void @store4(ptr %p, i32 %v) {
  store i32 %v, ptr %p
  ret void
}

; CHECK-LABEL: define void @store8(ptr %p, double %v)
; SR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; CHECK-NEXT: [[I:%.*]] = insertelement <8 x i16> poison, i16 [[LV]], i32 0
; CHECK-NEXT: [[S:%.*]] = shufflevector <8 x i16> [[I]], <8 x i16> poison, <8 x i32> zeroinitializer
; NOSR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: store <8 x i16> [[S]], ptr [[SP]], align 2
define void @store8(ptr %p, double %v) {
  store double %v, ptr %p
  ret void
}

; Constants have label 0.
; CHECK-LABEL: define void @store_const(ptr %p)
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: store <8 x i16> zeroinitializer, ptr [[SP]], align 2
; CHECK-NEXT: store i64 42, ptr %p
define void @store_const(ptr %p) {
  store i64 42, ptr %p
  ret void
}

; CHECK-LABEL: define void @store10(ptr %p, x86_fp80 %v)
; CHECK: call void @__tp_shadow_set(ptr %p, i16 {{%.*}}, i64 10)
define void @store10(ptr %p, x86_fp80 %v) {
  store x86_fp80 %v, ptr %p
  ret void
}

; Volatile and atomic loads are instrumented like ordinary ones.
; Both accesses use the one shadow address of %p (with SR by construction, without it
; through the pass's CSE); the union of the two loaded values ORs their raw shadow
; words and folds once.
; CHECK-LABEL: define i32 @volatile_atomic(ptr %p)
; SR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: %a = load volatile i32, ptr %p
; NOSR-NEXT: ptrtoint ptr %p
; NOSR: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: [[A0:%.*]] = load i32, ptr [[SP]], align 2
; CHECK-NEXT: [[SPA:%.*]] = getelementptr inbounds i8, ptr [[SP]], i64 4
; CHECK-NEXT: [[A1:%.*]] = load i32, ptr [[SPA]], align 2
; CHECK-NEXT: [[A:%.*]] = or i32 [[A0]], [[A1]]
; CHECK-NEXT: %b = load atomic i32, ptr %p seq_cst, align 4
; CHECK-NEXT: [[B0:%.*]] = load i32, ptr [[SP]], align 2
; CHECK-NEXT: [[B1:%.*]] = load i32, ptr [[SPA]], align 2
; CHECK-NEXT: [[B:%.*]] = or i32 [[B0]], [[B1]]
; CHECK-NEXT: %c = add i32 %a, %b
; CHECK-NEXT: [[AB:%.*]] = or i32 [[A]], [[B]]
; CHECK-NEXT: [[H:%.*]] = lshr i32 [[AB]], 16
; CHECK-NEXT: [[F:%.*]] = or i32 [[AB]], [[H]]
; CHECK-NEXT: [[L:%.*]] = trunc i32 [[F]] to i16
; PTR-NEXT: [[R:%.*]] = or i16 {{%.*}}, [[L]]
; PTR-NEXT: store i16 [[R]], ptr @__tp_ret_tls
; NOPTR-NEXT: store i16 [[L]], ptr @__tp_ret_tls
define i32 @volatile_atomic(ptr %p) {
  %a = load volatile i32, ptr %p
  %b = load atomic i32, ptr %p seq_cst, align 4
  %c = add i32 %a, %b
  ret i32 %c
}
