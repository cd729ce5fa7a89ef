; Denormal mode, floats moved as doubles (FFTW's cpy2d in a single-precision build:
; "copy R[2] as double"): a `double` load from the address of a float, whose only use
; is a store, carries the bits of two floats. It is not a site and neither is its
; store; the store tests the value as <2 x float> and hands a copy holding a denormal
; float to __tpd_copy, as a memcpy of 8 bytes. Checked as a double, a pair whose upper
; float is 0 would read as a denormal double that never existed.
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @pair(ptr %in, ptr %out, i64 %i, i64 %o)
; CHECK-NOT: __tpd_load
; CHECK: [[P:%.*]] = getelementptr inbounds float, ptr %in, i64 %i
; CHECK-NEXT: [[X:%.*]] = load double, ptr [[P]]
; CHECK: [[Q:%.*]] = getelementptr inbounds i8, ptr %out, i64 %o
; CHECK-NEXT: [[F:%.*]] = bitcast double [[X]] to <2 x float>
; CHECK: icmp slt <2 x i32>
; CHECK: br i1 {{%.*}}, label %[[COPY:.*]], label %[[STORE:.*]], !prof
; CHECK: [[COPY]]:
; CHECK-NEXT: call void @__tpd_copy(ptr [[Q]], ptr [[P]], i64 8)
; CHECK: [[STORE]]:
; CHECK-NEXT: store double [[X]], ptr [[Q]]
; CHECK-NOT: __tpd_store
; CHECK: ret void
define void @pair(ptr %in, ptr %out, i64 %i, i64 %o) {
  %p = getelementptr inbounds float, ptr %in, i64 %i
  %x = load double, ptr %p, align 8
  %q = getelementptr inbounds i8, ptr %out, i64 %o
  store double %x, ptr %q, align 8
  ret void
}

; A vector of doubles moved from floats: <4 x float> per <2 x double>.
; CHECK-LABEL: define void @pairs(ptr %in, ptr %out)
; CHECK: bitcast <2 x double> {{%.*}} to <4 x float>
; CHECK: call void @__tpd_copy(ptr %out, ptr {{%.*}}, i64 16)
define void @pairs(ptr %in, ptr %out) {
  %p = getelementptr inbounds [8 x float], ptr %in, i64 0, i64 2
  %x = load <2 x double>, ptr %p, align 8
  store <2 x double> %x, ptr %out, align 8
  ret void
}

; Used in arithmetic, the value is a double: load and store stay sites.
; CHECK-LABEL: define double @used(ptr %in, ptr %out)
; CHECK-NOT: __tpd_copy
; CHECK: bitcast double %x to i64
; CHECK-NOT: __tpd_copy
; CHECK: ret double
define double @used(ptr %in, ptr %out) {
  %x = load double, ptr %in, align 8
  store double %x, ptr %out, align 8
  %y = fmul double %x, 2.0
  ret double %y
}

; A double read from a double and written to a double: a double copy, checked as one.
; CHECK-LABEL: define void @doubles(ptr %in, ptr %out, i64 %i)
; CHECK-NOT: __tpd_copy
; CHECK: bitcast double %x to i64
; CHECK-NOT: __tpd_copy
; CHECK: ret void
define void @doubles(ptr %in, ptr %out, i64 %i) {
  %p = getelementptr inbounds double, ptr %in, i64 %i
  %x = load double, ptr %p, align 8
  store double %x, ptr %out, align 8
  ret void
}

; A store in between could change the source before the copy is counted: not a copy.
; CHECK-LABEL: define void @clobbered(ptr %in, ptr %out, ptr %z, i64 %i)
; CHECK-NOT: __tpd_copy
; CHECK: bitcast double %x to i64
; CHECK-NOT: __tpd_copy
; CHECK: ret void
define void @clobbered(ptr %in, ptr %out, ptr %z, i64 %i) {
  %p = getelementptr inbounds float, ptr %in, i64 %i
  %x = load double, ptr %p, align 8
  store i32 0, ptr %z, align 4
  store double %x, ptr %out, align 8
  ret void
}
