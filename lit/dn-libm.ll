; Denormal mode, calls to listed math functions (`pure`/`zero` entries of the function
; list with FP arguments or result): operation sites named `call <name>`, flagged
; FPSITE_CALL (4); their result is checked like an operation's, so the call whose
; result is a new denormal is its creator; no call-ABI traffic (tag slots, callee).
; FP→int functions have no result (FPSITE_CALL | FPSITE_NO_RESULT = 12). Like other
; operation sites they are handled inline (counts into the site's four counters,
; result tags with selects); with `no-dn-inline-ops` (prefix HOOK) they call `__tpd_op`.
; RUN: %opt_dn_nomem < %s | %FileCheck %s
; RUN: %opt_dn_hooks < %s | %FileCheck %s --check-prefix=HOOK
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Three blocks, then four inline counters per call site (3, 7, 11): n_blocks = 15; the
; store has none (-1).
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 4, i32 15,
; CHECK: @taintprof.fpsites = private constant [4 x %taintprof.FpSiteDesc]
; CHECK-SAME: ptr @[[EXPF:taintprof.str[.0-9]*]], i16 2, i16 1, i16 4, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 3, i32 0 }
; CHECK-SAME: ptr @[[STORE:taintprof.str[.0-9]*]], i16 2, i16 1, i16 2, i16 0, i32 0, i32 1, ptr @taintprof.dn_module, i32 -1, i32 1 }
; CHECK-SAME: ptr @[[POW:taintprof.str[.0-9]*]], i16 3, i16 1, i16 4, i16 0, i32 1, i32 2, ptr @taintprof.dn_module, i32 7, i32 2 }
; CHECK-SAME: ptr @[[LROUND:taintprof.str[.0-9]*]], i16 3, i16 1, i16 12, i16 0, i32 2, i32 3, ptr @taintprof.dn_module, i32 11, i32 3 }
; CHECK-DAG: @[[EXPF]] = private unnamed_addr constant [10 x i8] c"call expf\00"
; CHECK-DAG: @[[POW]] = private unnamed_addr constant [9 x i8] c"call pow\00"
; CHECK-DAG: @[[LROUND]] = private unnamed_addr constant [12 x i8] c"call lround\00"
; HOOK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 4, i32 3,
; HOOK: @taintprof.fpsites = private constant [4 x %taintprof.FpSiteDesc]
; HOOK-SAME: i16 2, i16 1, i16 4, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }
; HOOK-SAME: i16 2, i16 1, i16 2, i16 0, i32 0, i32 1, ptr @taintprof.dn_module, i32 -1, i32 1 }
; HOOK-SAME: i16 3, i16 1, i16 4, i16 0, i32 1, i32 2, ptr @taintprof.dn_module, i32 -1, i32 2 }
; HOOK-SAME: i16 3, i16 1, i16 12, i16 0, i32 2, i32 3, ptr @taintprof.dn_module, i32 -1, i32 3 }

; w[i] = expf(x): the call and the store are one group; the call's result tag (computed
; inline; from __tpd_op with the hooks) is what the store hook receives.
; CHECK-LABEL: define void @kernel(ptr %w, float %x)
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: %e = call float @expf(float %x)
; CHECK-NEXT: [[B:%.*]] = bitcast float %e to i32
; CHECK: br i1 {{%.*}}, label %{{[0-9]+}}, label %{{[0-9]+}}, !prof
; The call is not made again in the cold region.
; CHECK-NOT: call float @expf
; CHECK: [[DX:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: [[DR:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %[[AFTER:[0-9]+]], !prof
; CHECK: [[INL]]:
; CHECK-NOT: call
; A denormal result with a normal operand is created here (the fourth counter).
; CHECK: [[NOTX:%.*]] = xor i1 [[DX]], true
; CHECK-NEXT: and i1 [[DR]], [[NOTX]]
; CHECK-NOT: call
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 3
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 4
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 5
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 6
; The call is the creator of a new denormal result (no denormal operand): its creator
; index, from its slot of @taintprof.creator_ix (0: not yet known, asked of the runtime).
; CHECK: [[IX:%.*]] = load atomic i32, ptr @taintprof.creator_ix monotonic, align 4
; CHECK-NEXT: [[IX0:%.*]] = icmp eq i32 [[IX]], 0
; CHECK-NEXT: br i1 [[IX0]], label %{{[0-9]+}}, label %[[HAVEIX:[0-9]+]]
; CHECK: [[HAVEIX]]:
; CHECK-NEXT: [[ME:%.*]] = phi i32 [ [[IX]], %[[INL]] ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK-NEXT: and i32 [[TX:%[0-9]+]], 65535
; CHECK: [[ACC:%.*]] = select i1 [[DX]], i32 {{%.*}}, i32 [[ME]]
; CHECK-NEXT: [[TM:%.*]] = select i1 [[DR]], i32 [[ACC]], i32 0
; CHECK-NEXT: br label %[[AFTER]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: [[T:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[TM]], %[[HAVEIX]] ]
; CHECK: [[ST:%.*]] = select i1 {{%.*}}, i32 [[T]], i32 0
; CHECK-NOT: call void @__tpd_op
; CHECK: store i32 [[ST]], ptr [[BUF:%.*]], align 4
; CHECK-NEXT: call void @__tpd_store(ptr getelementptr inbounds ([4 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), ptr %w, i64 {{%.*}}, ptr [[BUF]])
; CHECK: store float %e, ptr %w
; No call ABI for listed functions.
; CHECK-NOT: __tp_callee_tls
; CHECK: ret void
; HOOK-LABEL: define void @kernel(ptr %w, float %x)
; HOOK: %e = call float @expf(float %x)
; HOOK-NEXT: [[B:%.*]] = bitcast float %e to i32
; HOOK: br i1 {{%.*}}, label %{{[0-9]+}}, label %{{[0-9]+}}, !prof
; HOOK-NOT: call float @expf
; HOOK: [[D:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; HOOK: call void @__tpd_op(ptr @taintprof.fpsites,
; HOOK: [[T:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; HOOK: select i1 {{%.*}}, i32 [[T]], i32 0
; HOOK: call void @__tpd_store(ptr getelementptr inbounds ([4 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), ptr %w,
; HOOK: store float %e, ptr %w
; HOOK-NOT: __tp_callee_tls
; HOOK: ret void
define void @kernel(ptr %w, float %x) {
  %e = call float @expf(float %x)
  store float %e, ptr %w, align 4
  ret void
}

; Two operands: both counted, or-ed for the operation count (and for the created count),
; both in the tag selects.
; CHECK-LABEL: define double @twoargs(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: [[DA:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK: [[DB:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[INL]]:
; CHECK-NEXT: or i1 [[DA]], [[DB]]
; CHECK-NEXT: zext i1 [[DA]] to i64
; CHECK-NEXT: zext i1 [[DB]] to i64
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 7
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 8
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 9
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 10
; CHECK: [[IX:%.*]] = load atomic i32, ptr getelementptr inbounds ([4 x i32], ptr @taintprof.creator_ix, i64 0, i64 2) monotonic, align 4
; CHECK: [[ME:%.*]] = phi i32 [ [[IX]], %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: [[ACB:%.*]] = select i1 [[DB]], i32 {{%.*}}, i32 [[ME]]
; CHECK: [[ACA:%.*]] = select i1 [[DA]], i32 {{%.*}}, i32 [[ACB]]
; CHECK-NEXT: select i1 {{%.*}}, i32 [[ACA]], i32 0
; CHECK-NOT: call void @__tpd_op
; CHECK: ret double %r
; HOOK-LABEL: define double @twoargs(
; HOOK: [[OPM:%.*]] = or i64 {{%.*}}, {{%.*}}
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([4 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 2), i64 [[OPM]],
define double @twoargs(double %a, double %b) {
  %r = call double @pow(double %a, double %b)
  ret double %r
}

; No result: counts only (no result term), no tags.
; CHECK-LABEL: define i64 @toint(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: [[DA:%.*]] = icmp slt i64 {{%.*}}, -9218868437227405313
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[INL]]:
; CHECK-NEXT: [[ZA:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: [[ZANY:%.*]] = zext i1 [[DA]] to i64
; CHECK-NEXT: [[NANY:%.*]] = shl i64 [[ZANY]], 8
; CHECK-NEXT: [[TOT:%.*]] = add i64 [[ZA]], [[NANY]]
; CHECK-NEXT: and i64 [[TOT]], 255
; CHECK-NEXT: getelementptr inbounds i64, ptr [[CB]], i64 11
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 12
; CHECK-NOT: getelementptr inbounds i64, ptr [[CB]], i64 13
; CHECK-NOT: creator_ix
; CHECK-NOT: call void @__tpd_op
; CHECK: ret i64 %r
; HOOK-LABEL: define i64 @toint(
; HOOK: call void @__tpd_op(ptr getelementptr inbounds ([4 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3), i64 {{%.*}}, i64 0,
define i64 @toint(double %a) {
  %r = call i64 @lround(double %a)
  ret i64 %r
}

; Listed functions without FP values are not sites.
; CHECK-LABEL: define i32 @intonly(
; CHECK-NOT: __tpd_op
; CHECK: ret i32 %r
; HOOK-LABEL: define i32 @intonly(
; HOOK-NOT: __tpd_op
; HOOK: ret i32 %r
define i32 @intonly(i32 %a) {
  %r = call i32 @abs(i32 %a)
  ret i32 %r
}

declare float @expf(float) nounwind
declare double @pow(double, double) nounwind
declare i64 @lround(double) nounwind
declare i32 @abs(i32) nounwind
