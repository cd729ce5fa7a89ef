; What cannot be instrumented is a compile error naming the function and the
; instruction, reported before anything is changed; so are bad settings.
; RUN: not %opt_taint < %s 2>&1 | %FileCheck %s
; CHECK: error: taintprof: in function `asmgoto`: instruction `callbr void asm "", "!i"()
; CHECK-SAME: `callbr` (asm goto) cannot be instrumented. This is not supported on this target; please report it
; CHECK-SAME: TAINTPROF_MODE=off
;
; Denormal mode (selected by the environment, as clang runs the pass) refuses the same
; construct with its own advice.
; RUN: env TAINTPROF_MODE=denormal not %opt_taint < %s 2>&1 | %FileCheck %s --check-prefix=DENORMAL
; DENORMAL: error: taintprof: in function `asmgoto`: instruction `callbr void asm "", "!i"()
; DENORMAL-SAME: `callbr` (asm goto) cannot be instrumented. Denormal mode cannot instrument this
;
; RUN: not %opt -passes='taintprof-denormal<frobnicate>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=DPARAM
; DPARAM: error: taintprof: unknown pass parameter `frobnicate`
;
; RUN: env TAINTPROF_MODE=off %opt_taint < %s | %FileCheck %s --check-prefix=OFF
; OFF-NOT: __tp_
;
; RUN: not %opt -passes='taintprof-taint<frobnicate>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=PARAM
; PARAM: error: taintprof: unknown pass parameter `frobnicate`
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @asmgoto() {
entry:
  callbr void asm "", "!i"() to label %a [label %b]
a:
  ret void
b:
  ret void
}
