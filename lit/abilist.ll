; The function list: `pure` (union of argument labels, no TLS traffic), `zero` (label
; 0), `wrap` (call __tpw_<name> through the normal ABI; result per ret=). Extra lists in
; TAINTPROF_ABILIST override the embedded one. A malformed list is a compile error
; naming the file and line.
; RUN: env TAINTPROF_ABILIST=%inputs/extra-abilist.txt %opt_dataflow < %s | %FileCheck %s
; RUN: env TAINTPROF_ABILIST=%inputs/bad-abilist.txt not %opt_dataflow < %s 2>&1 | %FileCheck %s --check-prefix=BAD
; BAD: error: taintprof: {{.*}}bad-abilist.txt:3: unknown kind `whatever` for `frob`
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare double @my_pure(double, double)
declare i32 @my_zero(i32)
declare i32 @my_union(i32, i32)
declare i32 @my_tls(i32)
declare ptr @my_arg1(ptr, ptr)
declare ptr @memcpy(ptr, ptr, i64)
declare ptr @malloc(i64)
declare double @sqrt(double)

; CHECK-LABEL: define double @pure(double %x, double %y)
; CHECK: [[LX_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[LX:%.*]] = select i1 {{%.*}}, i16 [[LX_RAW]], i16 0
; CHECK: [[LY_RAW:%.*]] = load i16, ptr getelementptr
; CHECK-NEXT: [[LY:%.*]] = select i1 {{%.*}}, i16 [[LY_RAW]], i16 0
; CHECK-NOT: __tp_enter
; CHECK-NOT: store i16 {{.*}} @__tp_arg_tls
; CHECK: %r = call double @my_pure(double %x, double %y)
; CHECK-NEXT: [[U:%.*]] = or i16 [[LX]], [[LY]]
; sqrt is `zero` here (the extra list overrides the embedded `sqrt pure`).
; CHECK-NEXT: %s = call double @sqrt(double %r)
; CHECK-NEXT: %t = fadd double %r, %s
; CHECK-NEXT: store i16 [[U]], ptr @__tp_ret_tls
define double @pure(double %x, double %y) {
  %r = call double @my_pure(double %x, double %y)
  %s = call double @sqrt(double %r)
  %t = fadd double %r, %s
  ret double %t
}

; CHECK-LABEL: define i32 @zero(i32 %x)
; CHECK: %r = call i32 @my_zero(i32 %x)
; CHECK-NEXT: store i16 0, ptr @__tp_ret_tls
define i32 @zero(i32 %x) {
  %r = call i32 @my_zero(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: define ptr @wraps(ptr %d, ptr %s, i64 %n, i32 %a, i32 %b)
; CHECK: [[LD_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; CHECK-NEXT: [[LD:%.*]] = select i1 {{%.*}}, i16 [[LD_RAW]], i16 0
; CHECK: [[LS_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LS:%.*]] = select i1 {{%.*}}, i16 [[LS_RAW]], i16 0
; CHECK: [[LA_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 3)
; CHECK-NEXT: [[LA:%.*]] = select i1 {{%.*}}, i16 [[LA_RAW]], i16 0
; CHECK: [[LB_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 4)
; CHECK-NEXT: [[LB:%.*]] = select i1 {{%.*}}, i16 [[LB_RAW]], i16 0
; memcpy: embedded `wrap ret=arg0`.
; CHECK: store i16 [[LD]], ptr @__tp_arg_tls
; CHECK: store ptr @taintprof.site{{.*}}, ptr @__tp_site_tls
; CHECK-NEXT: store ptr @__tpw_memcpy, ptr @__tp_callee_tls
; memcpy with a variable length is also a library loop (rt/routines.txt).
; CHECK-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr {{.*}}@taintprof.loops{{.*}}, i16 {{%.*}})
; CHECK-NEXT: %m = call ptr @__tpw_memcpy(ptr %d, ptr %s, i64 %n)
; CHECK-NOT: load i16, ptr @__tp_ret_tls
; malloc: embedded `wrap ret=zero`.
; CHECK: %p = call ptr @__tpw_malloc(i64 %n)
; CHECK-NOT: load i16, ptr @__tp_ret_tls
; `ret=union`: the result's label is the union of the argument labels, the one the
; call already computed for `__tp_ret_tls` (the pass's CSE keeps one copy).
; CHECK: [[U:%.*]] = or i16 [[LA]], [[LB]]
; CHECK-NEXT: store i16 [[U]], ptr @__tp_ret_tls
; CHECK: %u = call i32 @__tpw_my_union(i32 %a, i32 %b)
; CHECK-NOT: load i16, ptr @__tp_ret_tls
; CHECK: %t = call i32 @__tpw_my_tls(i32 %a)
; CHECK-NEXT: [[T:%.*]] = load i16, ptr @__tp_ret_tls
; CHECK: or i16 [[U]], [[T]]
; CHECK: %q = call ptr @__tpw_my_arg1(ptr %d, ptr %s)
; CHECK-NOT: load i16, ptr @__tp_ret_tls
; CHECK: store i16 [[LS]], ptr @__tp_ret_tls
; CHECK-NEXT: store ptr
; CHECK-NEXT: ret ptr %q
define ptr @wraps(ptr %d, ptr %s, i64 %n, i32 %a, i32 %b) {
  %m = call ptr @memcpy(ptr %d, ptr %s, i64 %n)
  %p = call ptr @malloc(i64 %n)
  %u = call i32 @my_union(i32 %a, i32 %b)
  %t = call i32 @my_tls(i32 %a)
  %ut = add i32 %u, %t
  store i32 %ut, ptr %m
  %q = call ptr @my_arg1(ptr %d, ptr %s)
  ret ptr %q
}

; The wrappers are declared with the callee's type.
; CHECK-DAG: declare ptr @__tpw_memcpy(ptr, ptr, i64)
; CHECK-DAG: declare ptr @__tpw_malloc(i64)
