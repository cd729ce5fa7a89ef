; Variadic calls leave the union of the variadic labels in __tp_va_label_tls and the
; SysV stack bytes of the variadic part in __tp_va_bytes_tls; the callee captures both
; at entry and labels the va_list areas at va_start. byval arguments leave the source
; pointer in __tp_byval_tls[i]; the callee copies its shadow and clears the slot.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.S = type { [5 x i64] }

declare i32 @printf(ptr, ...)
declare void @takes_byval(ptr byval(%struct.S) align 8)

; fmt + 7 ints: fmt and 5 ints in registers, 2 ints (16 bytes) on the stack.
; CHECK-LABEL: define void @vcall(ptr %fmt, i32 %a, double %d)
; CHECK: [[LA_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LA:%.*]] = select i1 {{%.*}}, i16 [[LA_RAW]], i16 0
; CHECK: [[LD_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LD:%.*]] = select i1 {{%.*}}, i16 [[LD_RAW]], i16 0
; CHECK: [[VA:%.*]] = or i16 [[LA]], [[LD]]
; CHECK-NEXT: store i16 [[VA]], ptr @__tp_va_label_tls, align 2
; CHECK-NEXT: store i64 16, ptr @__tp_va_bytes_tls, align 8
; CHECK: call i32 (ptr, ...) @printf(ptr %fmt, i32 %a, i32 %a, i32 %a, i32 %a, i32 %a, i32 %a, i32 %a, double %d)
define void @vcall(ptr %fmt, i32 %a, double %d) {
  call i32 (ptr, ...) @printf(ptr %fmt, i32 %a, i32 %a, i32 %a, i32 %a, i32 %a, i32 %a, i32 %a, double %d)
  ret void
}

; The variadic label and byte count count only if the call was meant for us (a stale
; byte count would clear the labels of part of the caller's frame).
; CHECK-LABEL: define i32 @variadic(i32 %n, ...)
; CHECK: [[OK:%.*]] = icmp eq ptr {{%.*}}, @variadic
; CHECK: [[VL_RAW:%.*]] = load i16, ptr @__tp_va_label_tls, align 2
; CHECK-NEXT: [[VL:%.*]] = select i1 [[OK]], i16 [[VL_RAW]], i16 0
; CHECK-NEXT: [[VB_RAW:%.*]] = load i64, ptr @__tp_va_bytes_tls, align 8
; CHECK-NEXT: [[VB:%.*]] = select i1 [[OK]], i64 [[VB_RAW]], i64 0
; CHECK: call void @llvm.va_start.p0(ptr %ap)
; CHECK-NEXT: [[P16:%.*]] = getelementptr inbounds i8, ptr %ap, i64 16
; CHECK-NEXT: [[RSA:%.*]] = load ptr, ptr [[P16]], align 8
; CHECK-NEXT: call void @__tp_shadow_set(ptr [[RSA]], i16 [[VL]], i64 176)
; CHECK-NEXT: [[P8:%.*]] = getelementptr inbounds i8, ptr %ap, i64 8
; CHECK-NEXT: [[OVF:%.*]] = load ptr, ptr [[P8]], align 8
; CHECK-NEXT: call void @__tp_shadow_set(ptr [[OVF]], i16 [[VL]], i64 [[VB]])
; va_copy copies the 24-byte va_list's own shadow.
; CHECK: call void @llvm.memmove.p0.p0.i64(ptr {{%.*}}, ptr {{%.*}}, i64 48, i1 false)
; CHECK-NEXT: call void @llvm.va_copy.p0(ptr %aq, ptr %ap)
define i32 @variadic(i32 %n, ...) {
  %ap = alloca [1 x { i32, i32, ptr, ptr }], align 16
  %aq = alloca [1 x { i32, i32, ptr, ptr }], align 16
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_copy.p0(ptr %aq, ptr %ap)
  %v = va_arg ptr %ap, i32
  call void @llvm.va_end.p0(ptr %aq)
  call void @llvm.va_end.p0(ptr %ap)
  ret i32 %v
}

; CHECK-LABEL: define void @pass_byval(ptr %s)
; CHECK: store ptr %s, ptr @__tp_byval_tls, align 8
; CHECK: call void @takes_byval(ptr byval(%struct.S) align 8 %s)
define void @pass_byval(ptr %s) {
  call void @takes_byval(ptr byval(%struct.S) align 8 %s)
  ret void
}

; CHECK-LABEL: define i64 @get_byval(ptr byval(%struct.S) align 8 %s)
; CHECK: [[OK:%.*]] = icmp eq ptr {{%.*}}, @get_byval
; CHECK: [[SRC_RAW:%.*]] = load ptr, ptr @__tp_byval_tls, align 8
; CHECK-NEXT: [[SRC:%.*]] = select i1 [[OK]], ptr [[SRC_RAW]], ptr null
; CHECK-NEXT: [[NUL:%.*]] = icmp eq ptr [[SRC]], null
; CHECK-NEXT: [[FROM:%.*]] = select i1 [[NUL]], ptr @taintprof.zero, ptr [[SRC]]
; CHECK: ptrtoint ptr [[FROM]] to i64
; CHECK: [[SFROM:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr {{%.*}}, ptr [[SFROM]], i64 80, i1 false)
; CHECK-NEXT: store ptr null, ptr @__tp_byval_tls, align 8
define i64 @get_byval(ptr byval(%struct.S) align 8 %s) {
  %v = load i64, ptr %s
  ret i64 %v
}

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_copy.p0(ptr, ptr)
declare void @llvm.va_end.p0(ptr)
