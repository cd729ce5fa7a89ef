; Denormal mode, heap allocations without debug info: a block is typed by the FP loads
; and stores through its pointer (or pointers derived from it) in the allocating
; function; conflicting FP types or no FP use leave it untyped (no registration).
; Every allocator of the function list is recognized: malloc, aligned_alloc,
; posix_memalign (the block read back from *memptr when it returned 0), C++ operator
; new[] (here invoked: registered in the normal destination); free and delete[] release.
; RUN: %opt_denormal < %s | %FileCheck %s
; RUN: env TAINTPROF_VERBOSE=1 %opt_denormal -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=STATS
; STATS: allocations: 4 typed (4 sites), 2 untyped; 2 releases

; Unnamed (empty string), function, no file line, FP_* type and element size.
; CHECK-DAG: @[[BYUSE:taintprof.alloc_site]] = private constant %taintprof.AllocSiteDesc { ptr @[[EMPTY:taintprof.str]], ptr @{{taintprof.str.[0-9]+}}, ptr @{{taintprof.str.[0-9]+}}, i32 0, i16 3, i16 0, i32 8, i32 0 }
; CHECK-DAG: @[[EMPTY]] = private unnamed_addr constant [1 x i8] zeroinitializer
; CHECK-DAG: @[[ALIGNED:taintprof.alloc_site.[0-9]+]] = private constant %taintprof.AllocSiteDesc { ptr @[[EMPTY]], ptr @{{.*}}, ptr @{{.*}}, i32 0, i16 2, i16 0, i32 4, i32 0 }
; CHECK-DAG: @[[MEMALIGN:taintprof.alloc_site.[0-9]+]] = private constant %taintprof.AllocSiteDesc { ptr @[[EMPTY]], ptr @{{.*}}, ptr @{{.*}}, i32 0, i16 3, i16 0, i32 8, i32 0 }
; CHECK-DAG: @[[NEW:taintprof.alloc_site.[0-9]+]] = private constant %taintprof.AllocSiteDesc { ptr @[[EMPTY]], ptr @{{.*}}, ptr @{{.*}}, i32 0, i16 2, i16 0, i32 4, i32 0 }

; CHECK-LABEL: define void @byuse(i64 %n)
; CHECK: %p = call ptr @__tpw_malloc(i64 %n)
; CHECK: call ptr @__tpd_alloc(ptr %p, i64 %n, ptr @[[BYUSE]])
; CHECK: call void @__tpd_release(ptr %p)
; CHECK-NEXT: call void @free(ptr %p)

; CHECK-LABEL: define void @conflict(i64 %n)
; CHECK-NOT: __tpd_alloc
; CHECK: ret void
; CHECK-LABEL: define void @untyped(i64 %n)
; CHECK-NOT: __tpd_alloc
; CHECK: ret void

; CHECK-LABEL: define void @aligned(i64 %n)
; CHECK: %p = call ptr @__tpw_aligned_alloc(i64 64, i64 %n)
; CHECK: call ptr @__tpd_alloc(ptr %p, i64 %n, ptr @[[ALIGNED]])
; CHECK: %r = call i32 @__tpw_posix_memalign(ptr %slot, i64 64, i64 %n)
; CHECK-NEXT: [[OK:%.*]] = icmp eq i32 %r, 0
; CHECK-NEXT: br i1 [[OK]], label %[[REG:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[REG]]:
; CHECK-NEXT: [[B:%.*]] = load ptr, ptr %slot, align 8
; CHECK-NEXT: call ptr @__tpd_alloc(ptr [[B]], i64 %n, ptr @[[MEMALIGN]])

; CHECK-LABEL: define void @cxx(i64 %n)
; CHECK: %p = invoke ptr @__tpw__Znam(i64 %n)
; CHECK: ok:
; CHECK-NEXT: [[OK:%.*]] = icmp ne ptr %p, null
; CHECK: call ptr @__tpd_alloc(ptr %p, i64 %n, ptr @[[NEW]])
; CHECK: call void @__tpd_release(ptr %p)
; CHECK-NEXT: call void @_ZdaPv(ptr %p)
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
declare ptr @malloc(i64)
declare ptr @aligned_alloc(i64, i64)
declare i32 @posix_memalign(ptr, i64, i64)
declare void @free(ptr)
declare ptr @_Znam(i64)
declare void @_ZdaPv(ptr)
declare i32 @__gxx_personality_v0(...)
define void @byuse(i64 %n) {
  %p = call ptr @malloc(i64 %n)
  %q = getelementptr inbounds double, ptr %p, i64 3
  store double 1.0, ptr %q
  call void @free(ptr %p)
  ret void
}
define void @conflict(i64 %n) {
  %p = call ptr @malloc(i64 %n)
  store double 1.0, ptr %p
  %q = getelementptr inbounds i8, ptr %p, i64 8
  store float 1.0, ptr %q
  ret void
}
define void @untyped(i64 %n) {
  %p = call ptr @malloc(i64 %n)
  store i32 1, ptr %p
  ret void
}
define void @aligned(i64 %n) {
  %p = call ptr @aligned_alloc(i64 64, i64 %n)
  %v = load <4 x float>, ptr %p
  store <4 x float> %v, ptr %p
  %slot = alloca ptr
  %r = call i32 @posix_memalign(ptr %slot, i64 64, i64 %n)
  %b = load ptr, ptr %slot
  store double 0.0, ptr %b
  ret void
}
define void @cxx(i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %p = invoke ptr @_Znam(i64 %n) to label %ok unwind label %lp
ok:
  store float 2.0, ptr %p
  call void @_ZdaPv(ptr %p)
  ret void
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}
