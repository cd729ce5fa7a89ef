; atomicrmw: result = memory labels, memory labels |= operand label. cmpxchg: result =
; memory | compare label; memory |= new-value label. alloca: pointer label 0 and the
; object's labels are cleared (inline up to 256 bytes, runtime above, runtime for
; dynamic allocas).
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i32 @rmw(ptr %p, i32 %v)
; Shadow address of %p (an argument): the mapping, once, in the entry block.
; CHECK-NEXT: [[PI:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT: [[PM:%.*]] = and i64 [[PI]], 17592186044415
; CHECK-NEXT: [[PS:%.*]] = shl i64 [[PM]], 1
; CHECK-NEXT: [[PA:%.*]] = add i64 [[PS]], 17592186044416
; CHECK-NEXT: [[SP:%.*]] = inttoptr i64 [[PA]] to ptr
; CHECK: [[LP_RAW:%.*]] = load i16, ptr @__tp_arg_tls, align 2
; CHECK-NEXT: [[LP:%.*]] = select i1 {{%.*}}, i16 [[LP_RAW]], i16 0
; CHECK: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LV:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; The old labels of the 4 bytes: two i32 halves (2 labels each) ORed, then folded.
; CHECK: [[H0:%.*]] = load i32, ptr [[SP]], align 2
; CHECK-NEXT: [[SP4:%.*]] = getelementptr inbounds i8, ptr [[SP]], i64 4
; CHECK-NEXT: [[H1:%.*]] = load i32, ptr [[SP4]], align 2
; CHECK-NEXT: [[H:%.*]] = or i32 [[H0]], [[H1]]
; CHECK-NEXT: [[HS:%.*]] = lshr i32 [[H]], 16
; CHECK-NEXT: [[HF:%.*]] = or i32 [[H]], [[HS]]
; CHECK-NEXT: [[OLD:%.*]] = trunc i32 [[HF]] to i16
; CHECK-NEXT: [[NEW:%.*]] = or i16 [[OLD]], [[LV]]
; CHECK-NEXT: [[Z:%.*]] = zext i16 [[NEW]] to i64
; CHECK-NEXT: [[M:%.*]] = mul i64 [[Z]], 281479271743489
; CHECK-NEXT: store i64 [[M]], ptr [[SP]], align 2
; The result: old memory labels | pointer label.
; CHECK-NEXT: [[R:%.*]] = or i16 [[OLD]], [[LP]]
; CHECK-NEXT: %r = atomicrmw add ptr %p, i32 %v seq_cst
; CHECK-NEXT: store i16 [[R]], ptr @__tp_ret_tls
define i32 @rmw(ptr %p, i32 %v) {
  %r = atomicrmw add ptr %p, i32 %v seq_cst
  ret i32 %r
}

; CHECK-LABEL: define i64 @cas(ptr %p, i64 %c, i64 %n)
; Shadow address of %p (an argument): the mapping, once, in the entry block.
; CHECK-NEXT: [[PI:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT: [[PM:%.*]] = and i64 [[PI]], 17592186044415
; CHECK-NEXT: [[PS:%.*]] = shl i64 [[PM]], 1
; CHECK-NEXT: [[PA:%.*]] = add i64 [[PS]], 17592186044416
; CHECK-NEXT: [[SP:%.*]] = inttoptr i64 [[PA]] to ptr
; CHECK: [[LP_RAW:%.*]] = load i16, ptr @__tp_arg_tls, align 2
; CHECK-NEXT: [[LP:%.*]] = select i1 {{%.*}}, i16 [[LP_RAW]], i16 0
; CHECK: [[LC_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LC:%.*]] = select i1 {{%.*}}, i16 [[LC_RAW]], i16 0
; CHECK: [[LN_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LN:%.*]] = select i1 {{%.*}}, i16 [[LN_RAW]], i16 0
; The old labels of the 8 bytes: two i64 halves (4 labels each) ORed, then folded.
; CHECK: [[H0:%.*]] = load i64, ptr [[SP]], align 2
; CHECK-NEXT: [[SP8:%.*]] = getelementptr inbounds i8, ptr [[SP]], i64 8
; CHECK-NEXT: [[H1:%.*]] = load i64, ptr [[SP8]], align 2
; CHECK-NEXT: [[H:%.*]] = or i64 [[H0]], [[H1]]
; CHECK-NEXT: [[HS32:%.*]] = lshr i64 [[H]], 32
; CHECK-NEXT: [[HF32:%.*]] = or i64 [[H]], [[HS32]]
; CHECK-NEXT: [[HS16:%.*]] = lshr i64 [[HF32]], 16
; CHECK-NEXT: [[HF:%.*]] = or i64 [[HF32]], [[HS16]]
; CHECK-NEXT: [[OLD:%.*]] = trunc i64 [[HF]] to i16
; CHECK-NEXT: [[UPD:%.*]] = or i16 [[OLD]], [[LN]]
; CHECK-NEXT: [[UI:%.*]] = insertelement <8 x i16> poison, i16 [[UPD]], i32 0
; CHECK-NEXT: [[US:%.*]] = shufflevector <8 x i16> [[UI]], <8 x i16> poison, <8 x i32> zeroinitializer
; CHECK-NEXT: store <8 x i16> [[US]], ptr [[SP]], align 2
; CHECK-NEXT: [[R:%.*]] = or i16 [[OLD]], [[LC]]
; CHECK-NEXT: [[R2:%.*]] = or i16 [[R]], [[LP]]
; CHECK-NEXT: %x = cmpxchg ptr %p, i64 %c, i64 %n seq_cst seq_cst
; CHECK: store i16 [[R2]], ptr @__tp_ret_tls
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
