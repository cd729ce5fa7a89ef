; Denormal mode never instruments integer loads and stores, even of float bit patterns
; (all non-zero 32-bit integers below 0x800000 look like float denormals: integer
; copies must not be mistaken for FP traffic, unlike in a binary-level tracer). The
; float a copy produces gets tag 0 (`bitcast i32 → float`); the FP operation that
; first sees it denormal counts it and names itself creator.
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: @taintprof.fpsites = private constant [1 x %taintprof.FpSiteDesc]
; CHECK-LABEL: define void @intcopy(ptr %p, ptr %q)
; CHECK-NEXT: %v = load i32, ptr %p, align 4
; CHECK-NEXT: store i32 %v, ptr %q, align 4
; CHECK-NEXT: %w = load <4 x i32>, ptr %p, align 16
; CHECK-NEXT: store <4 x i32> %w, ptr %q, align 16
; CHECK-NEXT: ret void
define void @intcopy(ptr %p, ptr %q) {
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %q, align 4
  %w = load <4 x i32>, ptr %p, align 16
  store <4 x i32> %w, ptr %q, align 16
  ret void
}

; The one site: the fadd of the reinterpreted bits (its operand tag is 0).
; CHECK-LABEL: define float @reinterpret(ptr %p)
; CHECK: %v = load i32, ptr %p, align 4
; CHECK-NEXT: %f = bitcast i32 %v to float
; CHECK: %r = fadd float %f, %f
; CHECK: store i64 0, ptr [[OPT:%[0-9]+]], align 8
; CHECK-NEXT: [[S1:%.*]] = getelementptr inbounds i64, ptr [[OPT]], i64 1
; CHECK-NEXT: store i64 0, ptr [[S1]], align 8
; CHECK-NEXT: call void @__tpd_op(ptr @taintprof.fpsites,
define float @reinterpret(ptr %p) {
  %v = load i32, ptr %p, align 4
  %f = bitcast i32 %v to float
  %r = fadd float %f, %f
  ret float %r
}
