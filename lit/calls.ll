; The call ABI: argument labels into __tp_arg_tls[i], the union into __tp_ret_tls (the
; answer if the callee is not instrumented), the call site into __tp_site_tls, the
; called operand into __tp_callee_tls, and the result's label loaded from __tp_ret_tls
; afterwards. Arguments past slot 63 are ORed into slot 63. Memory-effect attributes are
; dropped (TLS traffic crosses the call). The callee compares __tp_callee_tls with its
; own address at entry and takes its argument labels only on a match (stale-label
; protection: called from uninstrumented code, the slots hold another call's labels).
; Data flow only here; control-flow.ll tests the control label across calls.
; RUN: %opt_dataflow < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; SiteDescs (no debug info here: a one-entry chain naming the function, line 0).
; CHECK-DAG: %taintprof.SiteDesc = type { ptr, i32, i32, ptr }
; CHECK-DAG: @taintprof.site = private constant %taintprof.SiteDesc { ptr [[CH:@taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null }
; CHECK-DAG: [[CH]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[FN:@taintprof.str[.0-9]*]], ptr [[FN]], ptr {{@taintprof.str[.0-9]*}}, i32 0, i32 0, i32 0, i32 0 }]
; CHECK-DAG: [[FN]] = private unnamed_addr constant [7 x i8] c"caller\00"
; The declaration loses its memory(none) claim.
; CHECK: declare i32 @ext(i32, <2 x double>, i32){{$}}
declare i32 @ext(i32, <2 x double>, i32) memory(none)

; CHECK-LABEL: define i32 @caller(i32 %a, <2 x double> %v, ptr %fp)
; CHECK: [[LA_RAW:%.*]] = load i16, ptr @__tp_arg_tls, align 2
; CHECK-NEXT: [[LA:%.*]] = select i1 {{%.*}}, i16 [[LA_RAW]], i16 0
; The <2 x double> argument's label, splat to its (i64-wide) lanes, then collapsed for
; the call.
; CHECK-NEXT: [[LV_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1), align 2
; CHECK-NEXT: [[LV_ARG:%.*]] = select i1 {{%.*}}, i16 [[LV_RAW]], i16 0
; CHECK-NEXT: [[LVW:%.*]] = zext i16 [[LV_ARG]] to i64
; CHECK-NEXT: [[LVI:%.*]] = insertelement <2 x i64> poison, i64 [[LVW]], i32 0
; CHECK-NEXT: [[LVS:%.*]] = shufflevector <2 x i64> [[LVI]], <2 x i64> poison, <2 x i32> zeroinitializer
; CHECK: [[NODE:%.*]] = call ptr @__tp_enter(
; CHECK: [[LV64:%.*]] = call i64 @llvm.vector.reduce.or.v2i64(<2 x i64> [[LVS]])
; CHECK-NEXT: [[LV:%.*]] = trunc i64 [[LV64]] to i16
; CHECK-NEXT: store i16 [[LA]], ptr @__tp_arg_tls, align 2
; CHECK-NEXT: store i16 [[LV]], ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1), align 2
; CHECK-NEXT: store i16 0, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2), align 2
; CHECK-NEXT: [[U:%.*]] = or i16 [[LA]], [[LV]]
; CHECK-NEXT: store i16 [[U]], ptr @__tp_ret_tls, align 2
; CHECK-NEXT: store ptr @taintprof.site{{.*}}, ptr @__tp_site_tls, align 8
; CHECK-NEXT: store ptr @ext, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: %r = call i32 @ext(i32 %a, <2 x double> %v, i32 7){{$}}
; CHECK-NEXT: [[LR:%.*]] = load i16, ptr @__tp_ret_tls, align 2
; Indirect calls use the same ABI.
; CHECK: store i16 [[LR]], ptr @__tp_arg_tls, align 2
; CHECK: store ptr @taintprof.site{{.*}}, ptr @__tp_site_tls, align 8
; CHECK-NEXT: store ptr %fp, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: %s = call i32 %fp(i32 %r)
; CHECK-NEXT: load i16, ptr @__tp_ret_tls
define i32 @caller(i32 %a, <2 x double> %v, ptr %fp) {
  %r = call i32 @ext(i32 %a, <2 x double> %v, i32 7)
  %s = call i32 %fp(i32 %r)
  ret i32 %s
}

; The callee side: labels from the slots at entry (if the call was meant for us), the
; result's label into the return slot before `ret`, the context restored.
; CHECK-LABEL: define i32 @callee(i32 %x)
; CHECK-NEXT: [[CALLEE:%.*]] = load ptr, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: [[OK:%.*]] = icmp eq ptr [[CALLEE]], @callee
; CHECK-NEXT: [[LX_RAW:%.*]] = load i16, ptr @__tp_arg_tls, align 2
; CHECK-NEXT: [[LX:%.*]] = select i1 [[OK]], i16 [[LX_RAW]], i16 0
; CHECK-NEXT: [[PARENT:%.*]] = load ptr, ptr @__tp_ctx_tls, align 8
; CHECK-NEXT: [[SITE:%.*]] = load ptr, ptr @__tp_site_tls, align 8
; CHECK-NEXT: [[NODE:%.*]] = call ptr @__tp_enter(ptr [[PARENT]], ptr [[SITE]], ptr getelementptr inbounds ([{{[0-9]+}} x %taintprof.FuncDesc], ptr @taintprof.funcs, i64 0, i64 1))
; CHECK-NEXT: store ptr [[NODE]], ptr @__tp_ctx_tls, align 8
; CHECK: call void @sink(i32 %x)
; CHECK: store i16 [[LX]], ptr @__tp_ret_tls, align 2
; CHECK-NEXT: store ptr [[PARENT]], ptr @__tp_ctx_tls, align 8
; CHECK-NEXT: ret i32 %x
define i32 @callee(i32 %x) {
  call void @sink(i32 %x)
  ret i32 %x
}

declare void @sink(i32)

; 70 arguments: slots 0..62 directly, 63..69 ORed into slot 63.
; CHECK-LABEL: define void @many(i16 %a, i16 %b)
; CHECK: store i16 [[A:%.*]], ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 62)
; CHECK-NEXT: [[O:%.*]] = or i16 [[B:%.*]], [[A]]
; CHECK-NEXT: store i16 [[O]], ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 63)
; CHECK-NOT: i64 64)
; CHECK: call void @seventy(
define void @many(i16 %a, i16 %b) {
  call void @seventy(i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a,
                     i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a,
                     i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a,
                     i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a,
                     i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a,
                     i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a,
                     i16 %a, i16 %a, i16 %a, i16 %b, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a, i16 %a)
  ret void
}
declare void @seventy(i16, i16, i16, i16, i16, i16, i16, i16, i16, i16,
                      i16, i16, i16, i16, i16, i16, i16, i16, i16, i16,
                      i16, i16, i16, i16, i16, i16, i16, i16, i16, i16,
                      i16, i16, i16, i16, i16, i16, i16, i16, i16, i16,
                      i16, i16, i16, i16, i16, i16, i16, i16, i16, i16,
                      i16, i16, i16, i16, i16, i16, i16, i16, i16, i16,
                      i16, i16, i16, i16, i16, i16, i16, i16, i16, i16)
