; Denormal mode, the inline memory cache of a masked store (llvm.masked.store). A plain
; store's cache hit writes the stored tag of each denormal lane and 0 to the others
; without reading the shadow: the others now hold normal values (dn-mem-cache.ll). A
; masked store leaves the memory of the lanes outside its mask as it was, denormals and
; their tags included, so its hit reads the stored tags first and keeps them in the
; lanes that are not denormal.
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @masked(
; The store's hit: the cache's stored tag where the value is denormal, the old stored
; tags elsewhere.
; CHECK: call preserve_allcc void @__tpd_load_keepregs(
; CHECK: trunc i64 {{%[0-9]+}} to i32
; CHECK: [[OLD:%[0-9]+]] = load <4 x i32>, ptr {{%[0-9]+}}, align 1
; CHECK-NEXT: [[NEW:%[0-9]+]] = select <4 x i1> {{%[0-9]+}}, <4 x i32> {{%[0-9]+}}, <4 x i32> [[OLD]]
; CHECK: store <4 x i32> [[NEW]], ptr {{%[0-9]+}}, align 1
; CHECK: call preserve_allcc void @__tpd_store_keepregs(
define void @masked(ptr %p, ptr %q, <4 x i1> %m) {
entry:
  %v = load <4 x float>, ptr %p, align 4
  call void @llvm.masked.store.v4f32.p0(<4 x float> %v, ptr %q, i32 4, <4 x i1> %m)
  ret void
}

; Doubles: the old words come back between the new tags.
; CHECK-LABEL: define void @masked_dbl(
; CHECK: call preserve_allcc void @__tpd_load_keepregs(
; CHECK: trunc i64 {{%[0-9]+}} to i32
; CHECK: [[OLDD:%[0-9]+]] = load <4 x i32>, ptr {{%[0-9]+}}, align 1
; CHECK: [[NEWD:%[0-9]+]] = shufflevector <4 x i32> {{%[0-9]+}}, <4 x i32> [[OLDD]], <4 x i32> <i32 0, i32 5, i32 1, i32 7>
; CHECK: store <4 x i32> [[NEWD]], ptr {{%[0-9]+}}, align 1
; CHECK: call preserve_allcc void @__tpd_store_keepregs(
define void @masked_dbl(ptr %p, ptr %q, <2 x i1> %m) {
entry:
  %v = load <2 x double>, ptr %p, align 8
  call void @llvm.masked.store.v2f64.p0(<2 x double> %v, ptr %q, i32 8, <2 x i1> %m)
  ret void
}

declare void @llvm.masked.store.v4f32.p0(<4 x float>, ptr, i32, <4 x i1>)
declare void @llvm.masked.store.v2f64.p0(<2 x double>, ptr, i32, <2 x i1>)
