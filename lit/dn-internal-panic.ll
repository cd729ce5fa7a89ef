; Denormal mode, a panic inside the pass (provoked half way through instrumenting
; @half with TAINTPROF_TEST_PANIC_IN: tag PHIs created, not yet filled) is a compile
; error naming the cause, and the half-instrumented body is dropped (the module driver
; verifies the module after a panic, pass/src/module.rs, in both modes): the verifier
; right after the pass finds no broken function and nothing crashes. Taint mode:
; internal-panic.ll.
; RUN: env TAINTPROF_TEST_PANIC_IN=half not %opt -passes=taintprof-denormal,verify -S %s -o %t.ll 2>&1 | %FileCheck %s
; CHECK: taintprof: internal error: TAINTPROF_TEST_PANIC_IN=half: a panic on purpose; dropped the invalid body of `half`. Please report
; CHECK-NOT: Broken
; CHECK-NOT: PLEASE submit a bug report
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @half(double %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ %x, %entry ], [ %s1, %loop ]
  %s1 = fmul double %s, 5.000000e-01
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret double %s1
}

define double @main() {
  %r = call double @half(double 1.0, i32 10)
  ret double %r
}
