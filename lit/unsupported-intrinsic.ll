; An intrinsic that touches memory in a way taintprof does not model is an error.
; RUN: not %opt_taint < %s 2>&1 | %FileCheck %s
; CHECK: error: taintprof: in function `rel`: instruction `%v = call ptr @llvm.load.relative.i64(ptr %p, i64 8)`: intrinsic `llvm.load.relative.i64` accesses memory
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define ptr @rel(ptr %p) {
  %v = call ptr @llvm.load.relative.i64(ptr %p, i64 8)
  ret ptr %v
}
declare ptr @llvm.load.relative.i64(ptr, i64)
