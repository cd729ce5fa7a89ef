; Denormal mode's profile tier (TAINTPROF_DENORMAL=profile, pass parameter dn-profile;
; taintprof-cc --tp-denormal=profile): the sites are the full tier's and count the
; same, but nothing else is traced. The module is flagged DN_MODULE_PROFILE (4) beside
; MODULE_NO_DEBUG_INFO (2) and describes no arrays. No tags: no argument or return tag
; slots, no callee canary, no hooks for loads, stores, copies, allocations or frees,
; no wrapper for malloc, no shadow memory. Loads and stores count their denormal lanes
; inline into word 0 of their words, operations their four counters (a vector
; operation into its per-lane counts, with only a rarely-taken branch to fold them into
; the totals), with no branch per site: a region that was entered exactly counts zeros
; where a site saw nothing.
; RUN: %opt '-passes=taintprof-taint<mode=denormal;dn-profile;no-dn-outline>,verify' -S < %s | %FileCheck %s
; The same module in the full tier traces all of it (the contrast this test rests on).
; RUN: %opt_denormal < %s | %FileCheck %s --check-prefix=FULL
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global [16 x float] zeroinitializer

declare ptr @malloc(i64)
declare void @free(ptr)
declare float @expf(float)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare float @callee(float)

; Sites: the <4 x float> load (words 1..9), the fmul by 0.5 (operand 1 constant:
; const_operands 2; totals 10..13, lane counts 14..21), the <4 x float> store (22..32),
; expf (33..36), the fadd of 1.0 (const_operands 2; 37..40), the store to @g (41..51):
; n_blocks 52.
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 52, ptr null, i32 0, i32 6,
; CHECK: @taintprof.fpsites = private constant [6 x %taintprof.FpSiteDesc]
; CHECK-SAME: i16 2, i16 4, i16 1, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 1, i32 0 }
; CHECK-SAME: i16 2, i16 4, i16 0, i16 2, i32 0, i32 1, ptr @taintprof.dn_module, i32 10, i32 1 }
; CHECK-SAME: i16 2, i16 4, i16 2, i16 0, i32 0, i32 2, ptr @taintprof.dn_module, i32 22, i32 2 }
; CHECK-SAME: i16 2, i16 1, i16 4, i16 0, i32 0, i32 3, ptr @taintprof.dn_module, i32 33, i32 3 }
; CHECK-SAME: i16 2, i16 1, i16 0, i16 2, i32 0, i32 4, ptr @taintprof.dn_module, i32 37, i32 4 }
; CHECK-SAME: i16 2, i16 1, i16 2, i16 0, i32 0, i32 5, ptr @taintprof.dn_module, i32 41, i32 2 }]
; CHECK-NOT: @taintprof.fparrays
; FULL: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 {{[0-9]+}}, ptr @taintprof.fparrays, i32 1, i32 2,

; CHECK-LABEL: define float @f(
; CHECK-NOT: call {{.*}}@__tpd_{{(load|store|copy|alloc|release|op|array|name)}}
; CHECK-NOT: __tpd_arg_tags_tls
; CHECK-NOT: __tpd_ret_tag_tls
; CHECK-NOT: __tp_callee_tls
; CHECK-NOT: __tpw_
; CHECK-NOT: 17592186044415
; CHECK: %h = call ptr @malloc(i64 64)
; The load's count: its denormal lanes, summed, into word 1 (its word 0), no branch.
; CHECK: [[LM:%.*]] = icmp slt <4 x i32> {{%.*}}, <i32 -2139095041,
; (The number of lanes: each 4 lanes looked up in a table of nibble counts.)
; CHECK-NEXT: [[BITS:%.*]] = bitcast <4 x i1> [[LM]] to i4
; CHECK-NEXT: [[Z:%.*]] = zext i4 [[BITS]] to i64
; CHECK-NEXT: [[NIB:%.*]] = and i64 [[Z]], 15
; CHECK-NEXT: [[SH:%.*]] = shl i64 [[NIB]], 2
; CHECK-NEXT: [[T:%.*]] = lshr i64 4841987667533046032, [[SH]]
; CHECK-NEXT: [[K64:%.*]] = and i64 [[T]], 15
; CHECK-NEXT: [[W:%.*]] = getelementptr inbounds i64, ptr [[CB:%.*]], i64 1
; CHECK-NEXT: [[O:%.*]] = load i64, ptr [[W]], align 8
; CHECK-NEXT: [[N:%.*]] = add i64 [[O]], [[K64]]
; CHECK-NEXT: store i64 [[N]], ptr [[W]], align 8
; The fmul's four counters, in the same block: each a <4 x i32> of lane counts after
; its totals (words 14..21; counter k's lanes at i32 4*k), no reduction across lanes
; (created: result lanes without a denormal operand; the constant 0.5 does not count).
; CHECK-NOT: br
; CHECK: [[LANES:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 14
; CHECK-NEXT: [[OPS:%.*]] = zext <4 x i1> [[OM:%.*]] to <4 x i32>
; CHECK-NEXT: [[L0:%.*]] = load volatile <4 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: [[N0:%.*]] = add <4 x i32> [[L0]], [[OPS]]
; CHECK-NEXT: store volatile <4 x i32> [[N0]], ptr [[LANES]], align 4
; CHECK-NEXT: [[ANY:%.*]] = zext <4 x i1> [[OM]] to <4 x i32>
; CHECK-NEXT: [[P1:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 4
; CHECK-NEXT: [[L1:%.*]] = load volatile <4 x i32>, ptr [[P1]], align 4
; CHECK-NEXT: [[N1:%.*]] = add <4 x i32> [[L1]], [[ANY]]
; CHECK-NEXT: store volatile <4 x i32> [[N1]], ptr [[P1]], align 4
; CHECK-NEXT: [[NOTO:%.*]] = xor <4 x i1> [[OM]], <i1 true, i1 true, i1 true, i1 true>
; CHECK-NEXT: [[CR:%.*]] = and <4 x i1> [[RM:%.*]], [[NOTO]]
; CHECK-NEXT: [[RES:%.*]] = zext <4 x i1> [[RM]] to <4 x i32>
; CHECK-NEXT: [[P2:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 8
; CHECK-NEXT: [[L2:%.*]] = load volatile <4 x i32>, ptr [[P2]], align 4
; CHECK-NEXT: [[N2:%.*]] = add <4 x i32> [[L2]], [[RES]]
; CHECK-NEXT: store volatile <4 x i32> [[N2]], ptr [[P2]], align 4
; CHECK-NEXT: [[WATCH:%.*]] = or <4 x i32> [[N0]], [[N2]]
; CHECK-NEXT: [[CRZ:%.*]] = zext <4 x i1> [[CR]] to <4 x i32>
; CHECK-NEXT: [[P3:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 12
; CHECK-NEXT: [[L3:%.*]] = load volatile <4 x i32>, ptr [[P3]], align 4
; CHECK-NEXT: [[N3:%.*]] = add <4 x i32> [[L3]], [[CRZ]]
; CHECK-NEXT: store volatile <4 x i32> [[N3]], ptr [[P3]], align 4
; A lane of the operand or result counts at 2^31: fold every lane into the totals
; (words 10..13) and clear them, in a rarely-taken block.
; CHECK-NEXT: [[NEG:%.*]] = icmp slt <4 x i32> [[WATCH]], zeroinitializer
; CHECK-NEXT: [[FBITS:%.*]] = bitcast <4 x i1> [[NEG]] to i4
; CHECK-NEXT: [[OVER:%.*]] = icmp ne i4 [[FBITS]], 0
; CHECK-NEXT: br i1 [[OVER]], label %[[FOLD:[0-9]+]], label %[[CONT:[0-9]+]], !prof [[RARE:![0-9]+]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[FOLD]]:
; CHECK-NEXT: [[F0:%.*]] = load <4 x i32>, ptr [[LANES]], align 4
; CHECK-NEXT: [[F0W:%.*]] = zext <4 x i32> [[F0]] to <4 x i64>
; CHECK-NEXT: [[S0:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[F0W]])
; CHECK-NEXT: [[T0:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 10
; CHECK-NEXT: [[T0O:%.*]] = load i64, ptr [[T0]], align 8
; CHECK-NEXT: [[T0N:%.*]] = add i64 [[T0O]], [[S0]]
; CHECK-NEXT: store i64 [[T0N]], ptr [[T0]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[LANES]], align 4
; CHECK-NEXT: [[Q1:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 4
; CHECK-NEXT: [[F1:%.*]] = load <4 x i32>, ptr [[Q1]], align 4
; CHECK-NEXT: [[F1W:%.*]] = zext <4 x i32> [[F1]] to <4 x i64>
; CHECK-NEXT: [[S1:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[F1W]])
; CHECK-NEXT: [[T1:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 11
; CHECK-NEXT: [[T1O:%.*]] = load i64, ptr [[T1]], align 8
; CHECK-NEXT: [[T1N:%.*]] = add i64 [[T1O]], [[S1]]
; CHECK-NEXT: store i64 [[T1N]], ptr [[T1]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[Q1]], align 4
; CHECK-NEXT: [[Q2:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 8
; CHECK-NEXT: [[F2:%.*]] = load <4 x i32>, ptr [[Q2]], align 4
; CHECK-NEXT: [[F2W:%.*]] = zext <4 x i32> [[F2]] to <4 x i64>
; CHECK-NEXT: [[S2:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[F2W]])
; CHECK-NEXT: [[T2:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 12
; CHECK-NEXT: [[T2O:%.*]] = load i64, ptr [[T2]], align 8
; CHECK-NEXT: [[T2N:%.*]] = add i64 [[T2O]], [[S2]]
; CHECK-NEXT: store i64 [[T2N]], ptr [[T2]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[Q2]], align 4
; CHECK-NEXT: [[Q3:%.*]] = getelementptr inbounds i32, ptr [[LANES]], i64 12
; CHECK-NEXT: [[F3:%.*]] = load <4 x i32>, ptr [[Q3]], align 4
; CHECK-NEXT: [[F3W:%.*]] = zext <4 x i32> [[F3]] to <4 x i64>
; CHECK-NEXT: [[S3:%.*]] = call i64 @llvm.vector.reduce.add.v4i64(<4 x i64> [[F3W]])
; CHECK-NEXT: [[T3:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 13
; CHECK-NEXT: [[T3O:%.*]] = load i64, ptr [[T3]], align 8
; CHECK-NEXT: [[T3N:%.*]] = add i64 [[T3O]], [[S3]]
; CHECK-NEXT: store i64 [[T3N]], ptr [[T3]], align 8
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr [[Q3]], align 4
; CHECK-NEXT: br label %[[CONT]]
; CHECK-EMPTY:
; CHECK-NEXT: {{^}}[[CONT]]:
; The store's count into word 22, with no other branch.
; CHECK-NOT: br
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 22
; CHECK: store <4 x float> %w, ptr %h
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %h, i64 16, i1 false)
; CHECK: %e = call float @expf(float %x)
; CHECK: %c = call float @callee(float %e)
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 41
; CHECK: call void @free(ptr %h)
; CHECK-NOT: call {{.*}}@__tpd_{{(load|store|copy|alloc|release|op|array|name)}}
; CHECK: ret float %s
; CHECK: [[RARE]] = !{!"branch_weights", i32 1, i32 1048575}

; FULL-LABEL: define float @f(
; FULL: call ptr @__tpd_alloc(
; FULL: call void @__tpd_copy(
; FULL: store i32 {{.*}}, ptr @__tpd_arg_tags_tls
; FULL: call void @__tpd_release(
define float @f(ptr %p, ptr %q, i64 %i, float %x) {
entry:
  %h = call ptr @malloc(i64 64)
  %a = getelementptr float, ptr %p, i64 %i
  %v = load <4 x float>, ptr %a, align 4
  %w = fmul <4 x float> %v, <float 0.5, float 0.5, float 0.5, float 0.5>
  store <4 x float> %w, ptr %h, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %h, i64 16, i1 false)
  %e = call float @expf(float %x)
  %c = call float @callee(float %e)
  %s = fadd float %c, 1.0
  store float %s, ptr @g
  call void @free(ptr %h)
  ret float %s
}
