; Denormal mode's profile tier (TAINTPROF_DENORMAL=profile, pass parameter dn-profile;
; taintprof-cc --tp-denormal=profile): the sites are the full tier's and count the
; same, but nothing else is traced. The module is flagged DN_MODULE_PROFILE (4) beside
; MODULE_NO_DEBUG_INFO (2) and describes no arrays. No tags: no argument or return tag
; slots, no callee canary, no hooks for loads, stores, copies, allocations or frees,
; no wrapper for malloc, no shadow memory. Loads and stores count their denormal lanes
; inline into word 0 of their words, operations their four counters, with no branch
; per site: a region that was entered exactly counts zeros where a site saw nothing.
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
; const_operands 2; words 10..13), the <4 x float> store (14..24), expf (25..28), the
; fadd of 1.0 (const_operands 2; 29..32), the store to @g (33..43): n_blocks 44.
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 12, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 44, ptr null, i32 0, i32 6,
; CHECK: @taintprof.fpsites = private constant [6 x %taintprof.FpSiteDesc]
; CHECK-SAME: i16 2, i16 4, i16 1, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 1, i32 0 }
; CHECK-SAME: i16 2, i16 4, i16 0, i16 2, i32 0, i32 1, ptr @taintprof.dn_module, i32 10, i32 1 }
; CHECK-SAME: i16 2, i16 4, i16 2, i16 0, i32 0, i32 2, ptr @taintprof.dn_module, i32 14, i32 2 }
; CHECK-SAME: i16 2, i16 1, i16 4, i16 0, i32 0, i32 3, ptr @taintprof.dn_module, i32 25, i32 3 }
; CHECK-SAME: i16 2, i16 1, i16 0, i16 2, i32 0, i32 4, ptr @taintprof.dn_module, i32 29, i32 4 }
; CHECK-SAME: i16 2, i16 1, i16 2, i16 0, i32 0, i32 5, ptr @taintprof.dn_module, i32 33, i32 2 }]
; CHECK-NOT: @taintprof.fparrays
; FULL: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 12, ptr @{{.*}}, ptr @taintprof.fpsites, i32 6, i32 {{[0-9]+}}, ptr @taintprof.fparrays, i32 1, i32 2,

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
; The fmul's four counters (created: result lanes without a denormal operand; the
; constant 0.5 does not count), in the same block.
; CHECK-NOT: br
; CHECK: and <4 x i1>
; CHECK: shl <4 x i32> {{%.*}}, <i32 24, i32 24, i32 24, i32 24>
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 10
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 11
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 12
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 13
; The store's count into word 14.
; CHECK-NOT: br
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 14
; CHECK: store <4 x float> %w, ptr %h
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %h, i64 16, i1 false)
; CHECK: %e = call float @expf(float %x)
; CHECK: %c = call float @callee(float %e)
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 33
; CHECK: call void @free(ptr %h)
; CHECK-NOT: call {{.*}}@__tpd_{{(load|store|copy|alloc|release|op|array|name)}}
; CHECK: ret float %s

; FULL-LABEL: define float @f(
; FULL: call ptr @__tpd_alloc(
; FULL: call void @__tpd_copy(
; FULL: store i64 {{.*}}, ptr @__tpd_arg_tags_tls
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
