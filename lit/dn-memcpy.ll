; Denormal mode, memory intrinsics: memcpy/memmove go to __tpd_copy, which moves the
; shadow (tags travel with the copied floats) and counts the copy's denormal elements
; when it reads or writes a marked array, as the element-wise loop it stands for would
; be counted (-O2 turns such loops into memcpy). Copies shorter than a float only move
; the shadow, inline (denormal mode's shadow has 1 byte per byte). memset needs nothing (a stale tag under a
; normal value is never read). Calls to the C library's copies go to the runtime's
; wrappers, which move shadow too.
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @copies(ptr %d, ptr %s, i64 %n)
; CHECK: [[DI:%.*]] = ptrtoint ptr %d to i64
; CHECK-NEXT: [[DM:%.*]] = and i64 [[DI]], 17592186044415
; CHECK-NEXT: [[DA:%.*]] = add i64 [[DM]], 17592186044416
; CHECK-NEXT: [[DP:%.*]] = inttoptr i64 [[DA]] to ptr
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr [[DP]], ptr [[SP]], i64 2, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 2, i1 false)
; CHECK-NEXT: call void @__tpd_copy(ptr %d, ptr %s, i64 64)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 64, i1 false)
; CHECK-NEXT: call void @__tpd_copy(ptr %d, ptr %s, i64 %n)
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 %n, i1 false)
; CHECK-NEXT: call ptr @__tpw_memcpy(ptr %d, ptr %s, i64 %n)
; CHECK-NEXT: ret void
define void @copies(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 2, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 64, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 %n, i1 false)
  %r = call ptr @memcpy(ptr %d, ptr %s, i64 %n)
  ret void
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare ptr @memcpy(ptr, ptr, i64)
