; Indirect calls among the users of a stack slot. Both modes scan a slot's users for
; `llvm.lifetime.start`/`end` by the callee's name; an indirect call has no callee
; function, and asking for its name crashed clang (libsamplerate's
; `src_callback_read` passes `&data` to the user's callback and so did not build).
; RUN: %opt '-passes=taintprof-taint<no-hoist>,verify' -S < %s | %FileCheck %s
; RUN: %opt_denormal < %s | %FileCheck %s --check-prefix=DN
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Taint mode, Rule 2 for a local slot: the plain store of `n` under `if (m > 0)` takes
; `n`'s label only (the decision picks whether the slot is written; it is no loop), and
; the callback is still called through the pointer.
; CHECK-LABEL: define void @callback_user(ptr %fn, i32 %n, i32 %m)
; CHECK: [[LN:%[0-9]+]] = select i1 [[OK:%[0-9]+]], i16 {{%[0-9]+}}, i16 0
; CHECK: [[LM:%[0-9]+]] = select i1 [[OK]], i16 {{%[0-9]+}}, i16 0
; CHECK: then:
; CHECK-NEXT: [[W:%[0-9]+]] = zext i16 [[LN]] to i64
; CHECK-NEXT: [[S:%[0-9]+]] = mul i64 [[W]], 281479271743489
; CHECK: store i64 [[S]], ptr
; CHECK-NEXT: store i32 %n, ptr %data
; CHECK: join:
; CHECK: call void %fn(ptr %data)
define void @callback_user(ptr %fn, i32 %n, i32 %m) {
entry:
  %data = alloca i32
  call void @llvm.lifetime.start.p0(i64 4, ptr %data)
  %c = icmp sgt i32 %m, 0
  br i1 %c, label %then, label %join
then:
  store i32 %n, ptr %data
  br label %join
join:
  call void %fn(ptr %data)
  call void @llvm.lifetime.end.p0(i64 4, ptr %data)
  ret void
}

; Denormal mode: a float stack array filled by a callback is a marked array for the
; time it is alive, and its load and the multiplication are sites.
; DN-LABEL: define float @callback_fills(ptr %fn)
; DN: call void @llvm.lifetime.start.p0(i64 16, ptr %buf)
; DN-NEXT: call void @__tpd_array_enter(ptr %buf, ptr
; DN: call void %fn(ptr %buf)
; DN: %v = load float, ptr %buf
; DN: %r = fmul float %v, 2.0
; DN: call void @__tpd_array_leave(ptr %buf)
; DN-NEXT: call void @llvm.lifetime.end.p0(i64 16, ptr %buf)
define float @callback_fills(ptr %fn) {
entry:
  %buf = alloca [4 x float]
  call void @llvm.lifetime.start.p0(i64 16, ptr %buf)
  call void %fn(ptr %buf)
  %v = load float, ptr %buf
  %r = fmul float %v, 2.0
  call void @llvm.lifetime.end.p0(i64 16, ptr %buf)
  ret float %r
}

declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
