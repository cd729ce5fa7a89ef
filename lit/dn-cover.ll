; Denormal mode, fast-path coverage (`cover` in pass/src/denormal/func.rs): a sum,
; difference or negation of values the filter tests, or their product with a constant
; m * 2^k, is not tested itself. Its inputs are tested against a raised threshold
; instead: a float that is 0 or at least 2^(g+23) is a multiple of 2^g, sums keep that
; and a product with 2^k shifts it by k, and a non-zero multiple of 2^-126 is normal.
; `0.25 * ((a + b) + c)` needs a, b and c to be multiples of 2^-124: the filter compares
; with 2^-101 (0x39A0000000000000) and tests nothing else. Because a raised threshold
; lets through values in [2^-126, 2^-101), the cold region first re-tests every value
; exactly (against 2^-126) and leaves for the join when none is denormal; the join's tag
; PHIs get a zero entry for that edge. Products of two values and constants with a long
; mantissa (1/3, a division by 3) are tested as before. Doubles: `-(a - b) / 4.0` raises
; the threshold to 2^-968. With `no-dn-cover` (prefix PLAIN) every value is tested
; against the smallest normal and there is no re-test.
; RUN: %opt_denormal < %s | %FileCheck %s
; RUN: %opt -passes='taintprof-taint<mode=denormal;no-dn-cover;no-dn-outline>,verify' -S < %s | %FileCheck %s --check-prefix=PLAIN
; RUN: env TAINTPROF_DN_COVER=0 %opt_denormal < %s | %FileCheck %s --check-prefix=PLAIN
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @chain(
; CHECK: %a = load <4 x float>, ptr %p
; CHECK: [[F1:%.*]] = select <4 x i1> {{%.*}}, <4 x float> {{%.*}}, <4 x float> <float 0x7FF0000000000000,
; CHECK: %b = load <4 x float>, ptr %pb
; CHECK: %c = load <4 x float>, ptr %pc
; CHECK: [[F3:%.*]] = select <4 x i1> {{%.*}}, <4 x float> {{%.*}}, <4 x float> {{%.*}}
; CHECK-NEXT: %s1 = fadd <4 x float> %a, %b
; CHECK-NEXT: %s2 = fadd <4 x float> %s1, %c
; CHECK-NEXT: %r = fmul <4 x float> %s2,
; CHECK-NEXT: [[ANY:%.*]] = fcmp olt <4 x float> [[F3]], <float 0x39A0000000000000, float 0x39A0000000000000, float 0x39A0000000000000, float 0x39A0000000000000>
; CHECK-NEXT: [[RED:%.*]] = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> [[ANY]])
; CHECK-NEXT: [[FR:%.*]] = freeze i1 [[RED]]
; CHECK-NEXT: br i1 [[FR]], label %[[COLD:[0-9]+]], label %[[JOIN:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; The cold region re-tests the loads and the covered sums and product exactly.
; CHECK: [[COLD]]:
; CHECK: [[X1:%.*]] = fadd <4 x float>
; CHECK: [[X2:%.*]] = fadd <4 x float> [[X1]],
; CHECK: [[X3:%.*]] = fmul <4 x float> [[X2]],
; CHECK-NEXT: bitcast <4 x float> [[X3]] to <4 x i32>
; CHECK: [[EX:%.*]] = fcmp olt <4 x float> {{%.*}}, <float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000, float 0x3810000000000000>
; CHECK-NEXT: [[EXR:%.*]] = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> [[EX]])
; CHECK-NEXT: [[EXF:%.*]] = freeze i1 [[EXR]]
; CHECK-NEXT: br i1 [[EXF]], label %{{[0-9]+}}, label %[[JOIN]], !prof [[LIKELY:![0-9]+]]
; Then the sites as usual: the store's inline cache.
; CHECK: load atomic i64, ptr @__tpd_ranges_gen
; CHECK: [[JOIN]]:
; CHECK-NEXT: store <4 x float> %r, ptr %pr
; PLAIN-LABEL: define void @chain(
; PLAIN: %s1 = fadd <4 x float> %a, %b
; PLAIN-NEXT: bitcast <4 x float> %s1 to <4 x i32>
; PLAIN: %s2 = fadd <4 x float> %s1, %c
; PLAIN-NEXT: bitcast <4 x float> %s2 to <4 x i32>
; PLAIN: %r = fmul <4 x float> %s2,
; PLAIN-NEXT: bitcast <4 x float> %r to <4 x i32>
; PLAIN: fcmp olt <4 x float> {{%.*}}, <float 0x3810000000000000,
; PLAIN-NEXT: call i1 @llvm.vector.reduce.or.v4i1
; PLAIN-NEXT: freeze
; PLAIN-NEXT: br i1 {{%.*}}, label %[[PCOLD:[0-9]+]], label
; PLAIN: [[PCOLD]]:
; PLAIN-NOT: 0x3810000000000000
; PLAIN: load atomic i64, ptr @__tpd_ranges_gen
define void @chain(ptr %p) {
entry:
  %pb = getelementptr inbounds i8, ptr %p, i64 16
  %pc = getelementptr inbounds i8, ptr %p, i64 32
  %pr = getelementptr inbounds i8, ptr %p, i64 48
  %a = load <4 x float>, ptr %p, align 4
  %b = load <4 x float>, ptr %pb, align 4
  %c = load <4 x float>, ptr %pc, align 4
  %s1 = fadd <4 x float> %a, %b
  %s2 = fadd <4 x float> %s1, %c
  %r = fmul <4 x float> %s2, <float 2.500000e-01, float 2.500000e-01, float 2.500000e-01, float 2.500000e-01>
  store <4 x float> %r, ptr %pr, align 4
  ret void
}

; Scalars (an integer filter: u <u 2^e - 1): a and b against 2^-103, then the exact
; re-test against 2^-126; the return tag's join has three entries.
; CHECK-LABEL: define float @ret(
; CHECK: %s = fsub float %a, %b
; CHECK-NEXT: %r = fadd float %s, 1.000000e+00
; CHECK-NEXT: icmp ult i32 {{%.*}}, 201326591
; CHECK-NEXT: freeze
; CHECK-NEXT: br i1 {{%.*}}, label %[[RCOLD:[0-9]+]], label %[[RJOIN:[0-9]+]]
; CHECK: [[RCOLD]]:
; CHECK: icmp ult i32 {{%.*}}, 8388607
; CHECK-NEXT: freeze
; CHECK-NEXT: br i1 {{%.*}}, label %{{[0-9]+}}, label %[[RJOIN]]
; CHECK: [[RJOIN]]:
; CHECK-NEXT: [[RT:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ 0, %[[RCOLD]] ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK-NEXT: store i32 [[RT]], ptr @__tpd_ret_tag_tls
; PLAIN-LABEL: define float @ret(
; PLAIN: %r = fadd float %s, 1.000000e+00
; PLAIN-NEXT: bitcast float %r to i32
; PLAIN: icmp ult i32 {{%.*}}, 8388607
; PLAIN-NOT: 201326591
; PLAIN-LABEL: define <2 x double> @dchain(
define float @ret(float %a, float %b) {
entry:
  %s = fsub float %a, %b
  %r = fadd float %s, 1.000000e+00
  ret float %r
}

; CHECK-LABEL: define <2 x double> @dchain(
; CHECK: %s = fsub <2 x double> %a, %b
; CHECK-NEXT: %n = fneg <2 x double> %s
; CHECK-NEXT: %r = fdiv <2 x double> %n,
; CHECK-NEXT: fcmp olt <2 x double> {{%.*}}, <double 0x370000000000000, double 0x370000000000000>
; PLAIN: fcmp olt <2 x double> {{%.*}}, <double 0x10000000000000, double 0x10000000000000>
define <2 x double> @dchain(<2 x double> %a, <2 x double> %b) {
entry:
  %s = fsub <2 x double> %a, %b
  %n = fneg <2 x double> %s
  %r = fdiv <2 x double> %n, <double 4.000000e+00, double 4.000000e+00>
  ret <2 x double> %r
}

; Not covered: the products and the quotient are tested against the smallest normal.
; CHECK-LABEL: define float @product(
; CHECK: %r = fmul float %a, %b
; CHECK-NEXT: bitcast float %r to i32
; CHECK: icmp ult i32 {{%.*}}, 8388607
; CHECK-LABEL: define float @third(
; CHECK: %r = fmul float %a,
; CHECK-NEXT: bitcast float %r to i32
; CHECK: icmp ult i32 {{%.*}}, 8388607
; CHECK-LABEL: define float @div3(
; CHECK: %r = fdiv float %a, 3.000000e+00
; CHECK-NEXT: bitcast float %r to i32
; CHECK: icmp ult i32 {{%.*}}, 8388607

; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
; CHECK: [[LIKELY]] = !{!"branch_weights", i32 1048575, i32 1}
define float @product(float %a, float %b) {
entry:
  %r = fmul float %a, %b
  ret float %r
}

define float @third(float %a) {
entry:
  %r = fmul float %a, 0x3FD5555560000000
  ret float %r
}

define float @div3(float %a) {
entry:
  %r = fdiv float %a, 3.000000e+00
  ret float %r
}
