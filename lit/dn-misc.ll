; Denormal mode, less common FP producers:
; * atomicrmw on FP: a site of its own (operand and old value, no result), tested right
;   after it; the value it leaves in memory moves no tag;
; * first-class aggregates holding FP (complex numbers returned in registers) carry one
;   collapsed tag through insertvalue/extractvalue, returns and calls;
; * inline asm and va_arg produce FP values with tag 0 (counted in the verbose stats).
; RUN: %opt_denormal < %s | %FileCheck %s
; RUN: env TAINTPROF_VERBOSE=1 %opt_denormal -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=STATS
; STATS: warning: {{.*}}: 1 inline asm statements produce floating-point values: their tags are 0

; CHECK-DAG: @taintprof.fpsites = private constant [5 x %taintprof.FpSiteDesc] [%taintprof.FpSiteDesc { %taintprof.SiteDesc { ptr @taintprof.chain, i32 1, i32 0, ptr null }, ptr @[[RMW:taintprof.str[.0-9]*]], i16 2, i16 1, i16 8, i16 0,
; CHECK-DAG: @[[RMW]] = private unnamed_addr constant [15 x i8] c"atomicrmw fadd\00"

; CHECK-LABEL: define float @atomic(ptr %p, float %x)
; CHECK: [[BX:%.*]] = bitcast float %x to i32
; CHECK: %old = atomicrmw fadd ptr %p, float %x monotonic, align 4
; CHECK-NEXT: bitcast float %old to i32
; CHECK: call i32 @llvm.umin.i32(
; CHECK-NEXT: icmp ult i32
; CHECK-NEXT: freeze i1
; CHECK-NEXT: br i1
; CHECK: call void @__tpd_op(ptr @taintprof.fpsites, i64 {{%.*}}, i64 0,

; The loaded real part's tag becomes the aggregate's and is returned.
; CHECK-LABEL: define { double, double } @cplx(ptr %p)
; CHECK: call void @__tpd_load(
; CHECK: [[T:%.*]] = phi i64 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: [[TJ:%.*]] = phi i64 [ 0, %{{[0-9]+}} ], [ [[T]], %{{[0-9]+}} ]
; CHECK-NEXT: store i64 [[TJ]], ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret { double, double } %b

; A returned aggregate's tag reaches the store of a member.
; CHECK-LABEL: define double @usec(ptr %q)
; CHECK: store i64 0, ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: %c = call { double, double } @getc()
; CHECK-NEXT: [[RT:%.*]] = load i64, ptr @__tpd_ret_tag_tls, align 8
; CHECK: select i1 {{%.*}}, i64 [[RT]], i64 0
; CHECK: call void @__tpd_store(

; CHECK-LABEL: define float @asm()
; CHECK: %r = call float asm
; CHECK: store i64 0, ptr {{%.*}}, align 8
; CHECK: call void @__tpd_op(

; CHECK-LABEL: define double @va(ptr %ap)
; CHECK: %d = va_arg ptr %ap, double
; CHECK: store i64 0, ptr {{%.*}}, align 8
; CHECK: call void @__tpd_op(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
define float @atomic(ptr %p, float %x) {
  %old = atomicrmw fadd ptr %p, float %x monotonic
  ret float %old
}
define { double, double } @cplx(ptr %p) {
  %re = load double, ptr %p
  %a = insertvalue { double, double } poison, double %re, 0
  %b = insertvalue { double, double } %a, double 0.0, 1
  ret { double, double } %b
}
declare { double, double } @getc()
define double @usec(ptr %q) {
  %c = call { double, double } @getc()
  %re = extractvalue { double, double } %c, 0
  store double %re, ptr %q
  ret double %re
}
define float @asm() {
  %r = call float asm "movss $$0, $0", "=x"()
  %s = fadd float %r, %r
  ret float %s
}
define double @va(ptr %ap) {
  %d = va_arg ptr %ap, double
  %e = fmul double %d, %d
  ret double %e
}
