; Denormal mode, a variable-length array allocated on some paths only (a VLA declared
; in a conditional block, as opus's ALLOC macro does): it does not dominate the
; function's return, so the release there goes through a slot that holds the array's
; address once allocated and null before (the runtime ignores null). Naming the alloca
; at the return was invalid IR, and clang crashed in the register allocator on it.
; The pass now also verifies what it produced (see dn-keepregs.ll for the RUN style).
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define float @maybe_vla(
; CHECK: entry:
; CHECK: [[SLOT:%[0-9]+]] = alloca ptr
; CHECK: store ptr null, ptr [[SLOT]]
; CHECK: then:
; CHECK: [[V:%[a-z0-9]+]] = alloca float, i64 %n
; CHECK-NEXT: [[BYTES:%[0-9]+]] = mul i64 %n, 4
; CHECK-NEXT: call ptr @__tpd_alloc(ptr [[V]], i64 [[BYTES]], ptr @{{.*}})
; CHECK-NEXT: store ptr [[V]], ptr [[SLOT]]
; CHECK: done:
; CHECK: [[P:%[0-9]+]] = load ptr, ptr [[SLOT]]
; CHECK-NEXT: call void @__tpd_release(ptr [[P]])
; CHECK-NEXT: ret float
define float @maybe_vla(i64 %n, i1 %c) {
entry:
  br i1 %c, label %then, label %done

then:
  %vla = alloca float, i64 %n, align 16
  store float 1.0, ptr %vla, align 16
  %x = load float, ptr %vla, align 16
  br label %done

done:
  %r = phi float [ %x, %then ], [ 0.0, %entry ]
  ret float %r
}

; A VLA that dominates the return is released directly, with no slot.
; CHECK-LABEL: define float @always_vla(
; CHECK-NOT: alloca ptr
; CHECK: [[W:%[a-z0-9]+]] = alloca float, i64 %n
; CHECK-NOT: alloca ptr
; CHECK: call void @__tpd_release(ptr [[W]])
; CHECK-NEXT: ret float
define float @always_vla(i64 %n) {
entry:
  %vla = alloca float, i64 %n, align 16
  call void @fill(ptr %vla, i64 %n)
  %x = load float, ptr %vla, align 16
  ret float %x
}

declare void @fill(ptr, i64)
