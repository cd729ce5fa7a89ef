; Denormal mode, operand-only sites: `fcmp`, `fptosi` and `fptoui` read FP operands
; and produce no FP value (FPSITE_NO_RESULT = 8, no result tag). Inline, their cold
; path only counts (denormal operands, operations with a denormal operand; no result
; term) into the site's four counters, and computes no tags; with `no-dn-inline-ops`
; (prefix HOOK) it calls `__tpd_op` with result mask 0.
; `sitofp`/`uitofp` are not sites: an integer converts to a normal value or zero.
; RUN: %opt_denormal < %s | %FileCheck %s
; RUN: %opt_dn_hooks < %s | %FileCheck %s --check-prefix=HOOK
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Six blocks, then four inline counters per site, those of a vector site followed by its
; lane counts (two words per lane: vcmp's 8 at 14, touint's 4 at 30): 6, 10, 22, 26,
; 34, 38; n_blocks = 42.
; A constant operand (vcmp's zeroinitializer, cmpconst's 1.0, cmpdenorm's denormal) is
; operand 1: const_operands 2.
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 42,
; CHECK: @taintprof.fpsites = private constant [6 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[FCMP:taintprof.str[.0-9]*]], i16 3, i16 1, i16 8, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 6, i32 0 }
; CHECK-SAME: ptr @[[FCMP]], i16 2, i16 4, i16 8, i16 2, i32 1, i32 1, ptr @taintprof.dn_module, i32 10, i32 1 }
; CHECK-SAME: ptr @[[FPTOSI:taintprof.str[.0-9]*]], i16 2, i16 1, i16 8, i16 0, i32 2, i32 2, ptr @taintprof.dn_module, i32 22, i32 2 }
; CHECK-SAME: ptr @[[FPTOUI:taintprof.str[.0-9]*]], i16 3, i16 2, i16 8, i16 0, i32 3, i32 3, ptr @taintprof.dn_module, i32 26, i32 3 }
; CHECK-SAME: ptr @[[FCMP]], i16 2, i16 1, i16 8, i16 2, i32 4, i32 4, ptr @taintprof.dn_module, i32 34, i32 4 }
; CHECK-SAME: ptr @[[FCMP]], i16 2, i16 1, i16 8, i16 2, i32 5, i32 5, ptr @taintprof.dn_module, i32 38, i32 5 }]
; CHECK-DAG: @[[FCMP]] = private unnamed_addr constant [5 x i8] c"fcmp\00"
; CHECK-DAG: @[[FPTOSI]] = private unnamed_addr constant [7 x i8] c"fptosi\00"
; CHECK-DAG: @[[FPTOUI]] = private unnamed_addr constant [7 x i8] c"fptoui\00"
; HOOK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 6,
; HOOK: @taintprof.fpsites = private constant [6 x %taintprof.FpSiteDesc]
; HOOK-SAME: i16 3, i16 1, i16 8, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }
; HOOK-SAME: i16 2, i16 4, i16 8, i16 2, i32 1, i32 1, ptr @taintprof.dn_module, i32 -1, i32 1 }
; HOOK-SAME: i16 2, i16 1, i16 8, i16 0, i32 2, i32 2, ptr @taintprof.dn_module, i32 -1, i32 2 }
; HOOK-SAME: i16 3, i16 2, i16 8, i16 0, i32 3, i32 3, ptr @taintprof.dn_module, i32 -1, i32 3 }
; HOOK-SAME: i16 2, i16 1, i16 8, i16 2, i32 4, i32 4, ptr @taintprof.dn_module, i32 -1, i32 4 }
; HOOK-SAME: i16 2, i16 1, i16 8, i16 2, i32 5, i32 5, ptr @taintprof.dn_module, i32 -1, i32 5 }]

; CHECK-LABEL: define i1 @cmp(double %a, double %b)
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: [[UA:%.*]] = add i64 {{%.*}}, -1
; CHECK: [[UB:%.*]] = add i64 {{%.*}}, -1
; CHECK-NEXT: [[M:%.*]] = call i64 @llvm.umin.i64(i64 [[UA]], i64 [[UB]])
; CHECK-NEXT: %c = fcmp olt double %a, %b
; CHECK-NEXT: [[ANY:%.*]] = icmp ult i64 [[M]], 4503599627370495
; CHECK: [[DA:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK: [[DB:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; The cold path runs when an operand is denormal (no result mask).
; CHECK-NEXT: [[MA:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: [[MB:%.*]] = zext i1 [[DB]] to i64
; CHECK-NEXT: [[MB16:%.*]] = shl i64 [[MB]], 16
; CHECK-NEXT: [[OPM:%.*]] = or i64 [[MA]], [[MB16]]
; CHECK-NEXT: [[NEED:%.*]] = icmp ne i64 [[OPM]], 0
; CHECK-NEXT: [[NF:%.*]] = freeze i1 [[NEED]]
; CHECK-NEXT: br i1 [[NF]], label %[[INL:[0-9]+]], label %[[AFTER:[0-9]+]], !prof
; Counts only: operands, "any operand" << 8, no result term; counters 6, 7, 8, 9.
; CHECK: [[INL]]:
; CHECK-NEXT: [[ANYOP:%.*]] = or i1 [[DA]], [[DB]]
; CHECK-NEXT: [[ZA:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: [[ZB:%.*]] = zext i1 [[DB]] to i64
; CHECK-NEXT: [[NOPS:%.*]] = add i64 [[ZA]], [[ZB]]
; CHECK-NEXT: [[ZANY:%.*]] = zext i1 [[ANYOP]] to i64
; CHECK-NEXT: [[NANY:%.*]] = shl i64 [[ZANY]], 8
; CHECK-NEXT: [[TOT:%.*]] = add i64 [[NOPS]], [[NANY]]
; CHECK-NEXT: [[K0:%.*]] = and i64 [[TOT]], 255
; CHECK-NEXT: [[P0:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 6
; CHECK-NEXT: [[V0:%.*]] = load i64, ptr [[P0]], align 8
; CHECK-NEXT: [[S0:%.*]] = add i64 [[V0]], [[K0]]
; CHECK-NEXT: store i64 [[S0]], ptr [[P0]], align 8
; CHECK-NEXT: [[SH1:%.*]] = lshr i64 [[TOT]], 8
; CHECK-NEXT: [[K1:%.*]] = and i64 [[SH1]], 255
; CHECK-NEXT: [[P1:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 7
; CHECK-NEXT: [[V1:%.*]] = load i64, ptr [[P1]], align 8
; CHECK-NEXT: [[S1:%.*]] = add i64 [[V1]], [[K1]]
; CHECK-NEXT: store i64 [[S1]], ptr [[P1]], align 8
; No result counts (counters 8 and 9 stay unused) and no result tags.
; CHECK-NEXT: br label %[[AFTER]]
; CHECK-NOT: call void @__tpd_op
; CHECK-NOT: __tpd_ret_tag_tls
; CHECK: ret i1 %c
; HOOK-LABEL: define i1 @cmp(double %a, double %b)
; HOOK: %c = fcmp olt double %a, %b
; HOOK: [[DA:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; HOOK: [[DB:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; HOOK: [[MA:%.*]] = zext i1 [[DA]] to i64
; HOOK-NEXT: [[MB:%.*]] = zext i1 [[DB]] to i64
; HOOK-NEXT: [[MB16:%.*]] = shl i64 [[MB]], 16
; HOOK-NEXT: [[OPM:%.*]] = or i64 [[MA]], [[MB16]]
; HOOK-NEXT: [[NEED:%.*]] = icmp ne i64 [[OPM]], 0
; HOOK: call void @__tpd_op(ptr @taintprof.fpsites, i64 [[OPM]], i64 0, ptr
; HOOK: ret i1 %c
define i1 @cmp(double %a, double %b) {
  %c = fcmp olt double %a, %b
  ret i1 %c
}

; A constant operand that is never denormal is left out of the counts.
; CHECK-LABEL: define <4 x i1> @vcmp(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: [[DA:%.*]] = icmp slt <4 x i32>
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %{{[0-9]+}}, !prof
; Each lane adds to its own lane count (operands at word 14, operations with a denormal
; operand 2 words on), no reduction; a lane of the operand count reaching 2^31 folds the
; lanes into the totals (words 10 and 11; no result counters).
; CHECK: [[INL]]:
; CHECK-NEXT: [[LA:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 14
; CHECK-NEXT: [[ZA:%.*]] = zext <4 x i1> [[DA]] to <4 x i32>
; CHECK-NEXT: [[OA:%.*]] = load volatile <4 x i32>, ptr [[LA]], align 4
; CHECK-NEXT: [[NA:%.*]] = add <4 x i32> [[OA]], [[ZA]]
; CHECK-NEXT: store volatile <4 x i32> [[NA]], ptr [[LA]], align 4
; CHECK-NEXT: [[ZANY:%.*]] = zext <4 x i1> [[DA]] to <4 x i32>
; CHECK-NEXT: [[LANY:%.*]] = getelementptr inbounds i32, ptr [[LA]], i64 4
; CHECK-NEXT: [[OANY:%.*]] = load volatile <4 x i32>, ptr [[LANY]], align 4
; CHECK-NEXT: [[NANY:%.*]] = add <4 x i32> [[OANY]], [[ZANY]]
; CHECK-NEXT: store volatile <4 x i32> [[NANY]], ptr [[LANY]], align 4
; CHECK-NEXT: [[FULL:%.*]] = icmp slt <4 x i32> [[NA]], zeroinitializer
; CHECK-NEXT: [[FB:%.*]] = bitcast <4 x i1> [[FULL]] to i4
; CHECK-NEXT: [[F:%.*]] = icmp ne i4 [[FB]], 0
; CHECK-NEXT: br i1 [[F]], label %[[FOLD:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[FOLD]]:
; CHECK: call i64 @llvm.vector.reduce.add.v4i64(<4 x i64>
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 10
; CHECK: store <4 x i32> zeroinitializer, ptr [[LA]], align 4
; CHECK: call i64 @llvm.vector.reduce.add.v4i64(<4 x i64>
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 11
; CHECK: store <4 x i32> zeroinitializer, ptr {{%.*}}, align 4
; CHECK-NOT: getelementptr inbounds i64, ptr [[CB]], i64 12
; CHECK-NOT: call void @__tpd_op
; CHECK: ret <4 x i1> %c
; HOOK-LABEL: define <4 x i1> @vcmp(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), i64 {{%.*}}, i64 0,
define <4 x i1> @vcmp(<4 x float> %a) {
  %c = fcmp une <4 x float> %a, zeroinitializer
  ret <4 x i1> %c
}

; CHECK-LABEL: define i32 @toint(float %a)
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 22
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 23
; CHECK-NOT: getelementptr inbounds i64, ptr [[CB]], i64 24
; CHECK-NOT: call void @__tpd_op
; CHECK-NOT: __tpd_ret_tag_tls
; CHECK: ret i32 %i
; HOOK-LABEL: define i32 @toint(float %a)
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2), i64 {{%.*}}, i64 0,
; HOOK-NOT: __tpd_ret_tag_tls
; HOOK: ret i32 %i
define i32 @toint(float %a) {
  %i = fptosi float %a to i32
  ret i32 %i
}

; CHECK-LABEL: define <2 x i64> @touint(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK-NOT: call void @__tpd_op
; CHECK: [[L:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 30
; CHECK: load <2 x i32>, ptr [[L]], align 4
; CHECK: call i64 @llvm.vector.reduce.add.v2i64(<2 x i64>
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 26
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 27
; CHECK-NOT: getelementptr inbounds i64, ptr [[CB]], i64 28
; CHECK-NOT: call void @__tpd_op
; CHECK: ret <2 x i64> %i
; HOOK-LABEL: define <2 x i64> @touint(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3), i64 {{%.*}}, i64 0,
define <2 x i64> @touint(<2 x double> %a) {
  %i = fptoui <2 x double> %a to <2 x i64>
  ret <2 x i64> %i
}

; No site, no counter, and the result's tag is 0.
; CHECK-LABEL: define double @fromint(i64 %i)
; CHECK-NOT: __tpd_op
; CHECK-NOT: __tpd_counters_tls
; CHECK: %d = sitofp i64 %i to double
; CHECK-NEXT: store i32 0, ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret double %d
define double @fromint(i64 %i) {
  %d = sitofp i64 %i to double
  ret double %d
}

; A comparison with a normal constant tests the variable operand only; with a denormal
; constant the cold region always runs (the hook gets the masks of the denormal lanes,
; which include the constant's; inline, the constant counts as one denormal operand
; and makes every execution an operation with a denormal operand: + 1 and + 1 << 8).
; CHECK-LABEL: define i1 @cmpconst(
; CHECK: [[U:%.*]] = add i32 {{%.*}}, -1
; CHECK-NEXT: %c = fcmp ogt float %a, 1.000000e+00
; CHECK-NEXT: icmp ult i32 [[U]], 8388607
define i1 @cmpconst(float %a) {
  %c = fcmp ogt float %a, 1.0
  ret i1 %c
}

; CHECK-LABEL: define i1 @cmpdenorm(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: %c = fcmp ogt float %a, 0x36A0000000000000
; CHECK-NEXT: br i1 true, label
; CHECK: [[DA:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK-NEXT: br i1 true, label %[[INL:[0-9]+]], label
; CHECK: [[INL]]:
; CHECK-NEXT: [[ZA:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: [[NOPS:%.*]] = add i64 [[ZA]], 1
; CHECK-NEXT: [[TOT:%.*]] = add i64 [[NOPS]], 256
; CHECK-NEXT: and i64 [[TOT]], 255
; CHECK-NEXT: getelementptr inbounds i64, ptr [[CB]], i64 38
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 39
; CHECK-NOT: getelementptr inbounds i64, ptr [[CB]], i64 40
; CHECK-NOT: call void @__tpd_op
; CHECK: ret i1 %c
; HOOK-LABEL: define i1 @cmpdenorm(
; HOOK: %c = fcmp ogt float %a, 0x36A0000000000000
; HOOK-NEXT: br i1 true, label
; HOOK: [[M:%.*]] = or i64 {{%.*}}, 65536
; HOOK-NEXT: br i1 true, label
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([6 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 5), i64 [[M]], i64 0,
define i1 @cmpdenorm(float %a) {
  %c = fcmp ogt float %a, 0x36A0000000000000
  ret i1 %c
}
