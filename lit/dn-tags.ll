; Denormal mode, tags as SSA values: `i32` per scalar FP value, `<N x i32>` per vector.
; They are created only where a consumer needs them (a hook, a call slot, a return)
; and move through phi, select, shuffles, element inserts/extracts and FP→FP bitcasts
; of one shape. An int→FP bitcast makes a value with tag 0; a tag PHI whose inputs are
; all 0 is removed. A move of values the group already tests needs no test itself.
; The result tags of an operation are computed inline from its operand tags (selects,
; no hook); with `no-dn-inline-ops` (prefix HOOK) they come from `__tpd_op`.
; RUN: env TAINTPROF_DN_COVER=0 %opt_dn_nomem < %s | %FileCheck %s
; RUN: env TAINTPROF_DN_COVER=0 %opt_dn_hooks < %s | %FileCheck %s --check-prefix=HOOK
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; The select is covered by the tests of %a and %b (two values, one umin); in the cold
; region the store's tags are the select of the loads' tags.
; CHECK-LABEL: define void @sel(
; CHECK: [[M:%.*]] = call i32 @llvm.umin.i32(
; CHECK-NEXT: %s = select i1 %c, float %a, float %b
; CHECK-NEXT: icmp ult i32 [[M]], 8388607
; CHECK: call void @__tpd_load(ptr @taintprof.fpsites,
; CHECK: [[TA:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: call void @__tpd_load(
; CHECK: [[TB:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: [[TS:%.*]] = select i1 %c, i32 [[TA]], i32 [[TB]]
; CHECK-NEXT: select i1 {{%.*}}, i32 [[TS]], i32 0
; CHECK: call void @__tpd_store(
define void @sel(ptr %p, ptr %q, i1 %c) {
  %a = load float, ptr %p
  %b = load float, ptr %q
  %s = select i1 %c, float %a, float %b
  store float %s, ptr %q
  ret void
}

; A reduction: the accumulator's tag is a loop PHI fed by the group's join; the
; operand tags of the fadd are the accumulator's and the load's, and its inline result
; tag (site 4, counters 8-10) is what the join receives.
; CHECK-LABEL: define float @sum(
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: loop:
; CHECK: %acc = phi float [ 0.000000e+00, %{{[0-9]+}} ], [ %acc1, %[[LATCH:[0-9]+]] ]
; CHECK-NEXT: [[TACC:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[TJOIN:%[0-9]+]], %[[LATCH]] ]
; CHECK: call void @__tpd_load(
; CHECK: [[TX:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: [[DA:%.*]] = icmp slt i32
; CHECK: [[DX:%.*]] = icmp slt i32
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 8
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 9
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 10
; The site's own creator index: read from its slot in @taintprof.creator_ix, asked of
; the runtime the first time (the slot is still 0).
; CHECK: [[CI:%.*]] = load atomic i32, ptr getelementptr inbounds ([12 x i32], ptr @taintprof.creator_ix, i64 0, i64 4) monotonic, align 4
; CHECK: [[CC:%.*]] = call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([12 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4))
; CHECK: [[ME:%.*]] = phi i32 [ [[CI]], %{{[0-9]+}} ], [ [[CC]], %{{[0-9]+}} ]
; The load's tag always has a creator (no creator test); the accumulator's may not
; (its PHI starts from a constant).
; CHECK-NEXT: [[ACX:%.*]] = select i1 [[DX]], i32 [[TX]], i32 [[ME]]
; CHECK-NEXT: and i32 [[TACC]], 65535
; CHECK: [[ACA:%.*]] = select i1 [[DA]], i32 {{%.*}}, i32 [[ACX]]
; CHECK-NEXT: [[TR:%.*]] = select i1 {{%.*}}, i32 [[ACA]], i32 0
; CHECK-NEXT: br label %[[AFTER:[0-9]+]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: [[TC:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[TR]], %{{[0-9]+}} ]
; CHECK-NOT: call void @__tpd_op
; CHECK: [[LATCH]]:
; CHECK-NEXT: [[TJOIN]] = phi i32 [ 0, %loop ], [ [[TC]], %[[AFTER]] ]
; CHECK-NEXT: br i1 %done, label %exit, label %loop
; CHECK: exit:
; CHECK-NEXT: store i32 [[TJOIN]], ptr @__tpd_ret_tag_tls, align 8
; HOOK-LABEL: define float @sum(
; HOOK: loop:
; HOOK: %acc = phi float [ 0.000000e+00, %{{[0-9]+}} ], [ %acc1, %[[LATCH:[0-9]+]] ]
; HOOK-NEXT: [[TACC:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[TJOIN:%[0-9]+]], %[[LATCH]] ]
; HOOK: call void @__tpd_load(
; HOOK: [[TX:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; HOOK: select i1 {{%.*}}, i32 [[TACC]], i32 0
; HOOK-NEXT: store i32
; HOOK-NEXT: select i1 {{%.*}}, i32 [[TX]], i32 0
; HOOK: call void @__tpd_op(
; HOOK: [[LATCH]]:
; HOOK-NEXT: [[TJOIN]] = phi i32 [ 0, %loop ], [ {{%.*}}, %{{[0-9]+}} ]
; HOOK-NEXT: br i1 %done, label %exit, label %loop
; HOOK: exit:
; HOOK-NEXT: store i32 [[TJOIN]], ptr @__tpd_ret_tag_tls, align 8
define float @sum(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %a = getelementptr float, ptr %p, i64 %i
  %x = load float, ptr %a
  %acc1 = fadd float %acc, %x
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret float %acc1
}

; A diamond: the returned value's tag is a PHI of the two loads' joins.
; CHECK-LABEL: define double @diamond(
; CHECK: then:
; CHECK: call void @__tpd_load(
; CHECK: else:
; CHECK: call void @__tpd_load(
; CHECK: join:
; CHECK-NEXT: %v = phi double [ %a, %{{[0-9]+}} ], [ %b, %{{[0-9]+}} ]
; CHECK-NEXT: [[T:%.*]] = phi i32 [ {{%.*}}, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK-NEXT: store i32 [[T]], ptr @__tpd_ret_tag_tls
define double @diamond(i1 %c, ptr %p, ptr %q) {
entry:
  br i1 %c, label %then, label %else
then:
  %a = load double, ptr %p
  br label %join
else:
  %b = load double, ptr %q
  br label %join
join:
  %v = phi double [ %a, %then ], [ %b, %else ]
  ret double %v
}

; Shuffles and element moves apply to the tag vectors the same way.
; CHECK-LABEL: define void @lanes(
; CHECK: call void @__tpd_load(
; CHECK: [[TV:%.*]] = phi <4 x i32>
; CHECK: [[TSH:%.*]] = shufflevector <4 x i32> [[TV]], <4 x i32> zeroinitializer, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
; CHECK-NEXT: [[TE:%.*]] = extractelement <4 x i32> [[TSH]], i32 1
; CHECK: [[TI:%.*]] = insertelement <2 x i32> zeroinitializer, i32 [[TE]], i32 0
; CHECK: select <2 x i1> {{%.*}}, <2 x i32> [[TI]], <2 x i32> zeroinitializer
; CHECK: call void @__tpd_store(
define void @lanes(ptr %p, ptr %q) {
  %v = load <4 x float>, ptr %p
  %r = shufflevector <4 x float> %v, <4 x float> zeroinitializer, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %e = extractelement <4 x float> %r, i32 1
  %w = insertelement <2 x float> zeroinitializer, float %e, i32 0
  store <2 x float> %w, ptr %q
  ret void
}

; Float bits moved as integers: the value converted back has tag 0 (whoever sees it
; denormal first names itself creator); FP→FP bitcasts of one shape keep the tag.
; CHECK-LABEL: define void @bits(
; CHECK: call void @__tpd_store(ptr getelementptr inbounds ({{.*}}), ptr %q, i64 {{%.*}}, ptr
; CHECK-NOT: phi i32
; CHECK: ret void
define void @bits(ptr %q, i32 %i) {
  %f = bitcast i32 %i to float
  store float %f, ptr %q
  ret void
}

; CHECK-LABEL: define <2 x double> @samebits(
; CHECK: call void @__tpd_load(
; CHECK: [[T:%.*]] = phi <2 x i32> [ zeroinitializer, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: extractelement <2 x i32> [[T]], i32 0
define <2 x double> @samebits(ptr %p) {
  %v = load <2 x double>, ptr %p
  %w = bitcast <2 x double> %v to <2 x double>
  ret <2 x double> %w
}

; Values no consumer needs carry no tag at all: a loop PHI of constants and integer
; work make no tag PHI.
; CHECK-LABEL: define float @counted(
; CHECK: loop:
; CHECK-NEXT: %i = phi i64
; CHECK-NEXT: %f = phi float
; CHECK-NEXT: getelementptr inbounds i64, ptr
define float @counted(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %f = phi float [ 1.0, %entry ], [ 2.0, %loop ]
  %g = fmul float %f, 3.0
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret float %f
}
