; A panic inside the pass (provoked half way through instrumenting @half with
; TAINTPROF_TEST_PANIC_IN) is a compile error naming the cause, and the
; half-instrumented body (shadow PHIs without incoming values) is dropped (the module
; driver verifies the module after a panic, pass/src/module.rs): the verifier right
; after the pass finds no broken function and nothing crashes. Denormal mode:
; dn-internal-panic.ll.
; RUN: env TAINTPROF_TEST_PANIC_IN=half not %opt -passes=taintprof-taint,verify -S %s -o %t.ll 2>&1 | %FileCheck %s
; CHECK: taintprof: internal error: TAINTPROF_TEST_PANIC_IN=half: a panic on purpose; dropped the invalid body of `half`. Please report
; CHECK-NOT: Broken
; CHECK-NOT: PLEASE submit a bug report

define i32 @half(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret i32 %i1
}

define i32 @main() {
  %r = call i32 @half(i32 10)
  ret i32 %r
}
