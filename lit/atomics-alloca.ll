; atomicrmw: result = memory labels, memory labels |= operand label. cmpxchg: result =
; memory | compare label; memory |= new-value label. alloca: pointer label 0 and the
; object's labels are cleared (inline up to 256 bytes, runtime above, runtime for
; dynamic allocas).
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i32 @rmw(ptr %p, i32 %v)
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; CHECK: [[OLD:%.*]] = trunc i64 {{%.*}} to i16
; CHECK-NEXT: [[NEW:%.*]] = or i16 [[OLD]], [[LV]]
; CHECK-NEXT: [[Z:%.*]] = zext i16 [[NEW]] to i64
; CHECK-NEXT: [[M:%.*]] = mul i64 [[Z]], 281479271743489
; CHECK: store i64 [[M]], ptr {{%.*}}, align 2
; CHECK: %r = atomicrmw add ptr %p, i32 %v seq_cst
define i32 @rmw(ptr %p, i32 %v) {
  %r = atomicrmw add ptr %p, i32 %v seq_cst
  ret i32 %r
}

; CHECK-LABEL: define i64 @cas(ptr %p, i64 %c, i64 %n)
; CHECK: [[LC_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LC:%.*]] = select i1 {{%.*}}, i16 [[LC_RAW]], i16 0
; CHECK: [[LN_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LN:%.*]] = select i1 {{%.*}}, i16 [[LN_RAW]], i16 0
; CHECK: [[OLD:%.*]] = call i16 @llvm.vector.reduce.or.v8i16
; CHECK-NEXT: [[UPD:%.*]] = or i16 [[OLD]], [[LN]]
; CHECK: store <8 x i16>
; CHECK-NEXT: [[R:%.*]] = or i16 [[OLD]], [[LC]]
; CHECK: %x = cmpxchg ptr %p, i64 %c, i64 %n seq_cst seq_cst
define i64 @cas(ptr %p, i64 %c, i64 %n) {
  %x = cmpxchg ptr %p, i64 %c, i64 %n seq_cst seq_cst
  %v = extractvalue { i64, i1 } %x, 0
  ret i64 %v
}

; CHECK-LABEL: define void @allocas(i64 %n)
; CHECK: %small = alloca [10 x i32]
; CHECK-NEXT: ptrtoint ptr %small to i64
; CHECK: call void @llvm.memset.p0.i64(ptr {{%.*}}, i8 0, i64 80, i1 false)
; CHECK-NEXT: %one = alloca double
; CHECK-NEXT: ptrtoint ptr %one to i64
; CHECK: store <8 x i16> zeroinitializer, ptr
; CHECK-NEXT: %big = alloca [1000 x i8]
; CHECK-NEXT: call void @__tp_shadow_set(ptr %big, i16 0, i64 1000)
; CHECK: %dyn = alloca i32, i64 %n
; CHECK-NEXT: [[N:%.*]] = mul i64 %n, 4
; CHECK-NEXT: call void @__tp_shadow_set(ptr %dyn, i16 0, i64 [[N]])
define void @allocas(i64 %n) {
entry:
  %small = alloca [10 x i32]
  %one = alloca double
  %big = alloca [1000 x i8]
  call void @use(ptr %small, ptr %one, ptr %big)
  br label %next
next:
  %dyn = alloca i32, i64 %n
  call void @use(ptr %dyn, ptr null, ptr null)
  ret void
}

declare void @use(ptr, ptr, ptr)
