; Denormal mode never instruments integer loads and stores, even of float bit patterns
; (all non-zero 32-bit integers below 0x800000 look like float denormals: integer
; copies must not be mistaken for FP traffic, unlike in a binary-level tracer). The
; float a copy produces gets tag 0 (`bitcast i32 → float`); the FP operation that
; first sees it denormal counts it and names itself creator: inline, its operand tags
; are the constant 0, so its result tag folds to this site alone; with
; `no-dn-inline-ops` (prefix HOOK) `__tpd_op` gets operand tags 0.
; RUN: env TAINTPROF_DN_COVER=0 %opt_denormal < %s | %FileCheck %s
; RUN: env TAINTPROF_DN_COVER=0 %opt_dn_hooks < %s | %FileCheck %s --check-prefix=HOOK
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; One block, then the fadd's four inline counters (1-4).
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 1, i32 5,
; CHECK: @taintprof.fpsites = private constant [1 x %taintprof.FpSiteDesc]
; CHECK-SAME: i16 2, i16 1, i16 0, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 1, i32 0 }]
; HOOK: @taintprof.fpsites = private constant [1 x %taintprof.FpSiteDesc]
; HOOK-SAME: i16 2, i16 1, i16 0, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }]
; CHECK-LABEL: define void @intcopy(ptr %p, ptr %q)
; CHECK-NEXT: %v = load i32, ptr %p, align 4
; CHECK-NEXT: store i32 %v, ptr %q, align 4
; CHECK-NEXT: %w = load <4 x i32>, ptr %p, align 16
; CHECK-NEXT: store <4 x i32> %w, ptr %q, align 16
; CHECK-NEXT: ret void
; HOOK-LABEL: define void @intcopy(ptr %p, ptr %q)
; HOOK-NEXT: %v = load i32, ptr %p, align 4
; HOOK-NEXT: store i32 %v, ptr %q, align 4
; HOOK-NEXT: %w = load <4 x i32>, ptr %p, align 16
; HOOK-NEXT: store <4 x i32> %w, ptr %q, align 16
; HOOK-NEXT: ret void
define void @intcopy(ptr %p, ptr %q) {
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %q, align 4
  %w = load <4 x i32>, ptr %p, align 16
  store <4 x i32> %w, ptr %q, align 16
  ret void
}

; The one site: the fadd of the reinterpreted bits (its operand tag is 0).
; CHECK-LABEL: define float @reinterpret(ptr %p)
; CHECK: [[CB:%.*]] = getelementptr inbounds i64, ptr {{%.*}}, i64 {{%.*}}
; CHECK: %v = load i32, ptr %p, align 4
; CHECK-NEXT: %f = bitcast i32 %v to float
; CHECK: %r = fadd float %f, %f
; CHECK: [[R2:%.*]] = fadd float
; CHECK: bitcast float [[R2]] to i32
; CHECK: [[DR:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %[[AFTER:[0-9]+]], !prof
; CHECK: [[INL]]:
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 1
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 2
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 3
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 4
; CHECK: [[CI:%.*]] = load atomic i32, ptr @taintprof.creator_ix monotonic, align 4
; CHECK-NEXT: [[CZ:%.*]] = icmp eq i32 [[CI]], 0
; CHECK-NEXT: br i1 [[CZ]], label %{{[0-9]+}}, label %[[MRG:[0-9]+]], !prof
; CHECK: [[CN:%.*]] = call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr @taintprof.fpsites)
; CHECK-NEXT: store atomic i32 [[CN]], ptr @taintprof.creator_ix monotonic, align 4
; CHECK: [[MRG]]:
; CHECK-NEXT: [[ME:%.*]] = phi i32 [ [[CI]], %[[INL]] ], [ [[CN]], %{{[0-9]+}} ]
; CHECK-NEXT: [[TM:%.*]] = select i1 [[DR]], i32 [[ME]], i32 0
; CHECK-NEXT: br label %[[AFTER]]
; CHECK: [[AFTER]]:
; CHECK-NEXT: [[TC:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[TM]], %[[MRG]] ]
; CHECK-NOT: call void @__tpd_op
; CHECK: [[TJ:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[TC]], %[[AFTER]] ]
; CHECK-NEXT: store i32 [[TJ]], ptr @__tpd_ret_tag_tls, align 8
; HOOK-LABEL: define float @reinterpret(ptr %p)
; HOOK: %v = load i32, ptr %p, align 4
; HOOK-NEXT: %f = bitcast i32 %v to float
; HOOK: %r = fadd float %f, %f
; HOOK: store i32 0, ptr [[OPT:%[0-9]+]], align 4
; HOOK-NEXT: [[S1:%.*]] = getelementptr inbounds i32, ptr [[OPT]], i64 1
; HOOK-NEXT: store i32 0, ptr [[S1]], align 4
; HOOK-NEXT: call void @__tpd_op(ptr @taintprof.fpsites,
define float @reinterpret(ptr %p) {
  %v = load i32, ptr %p, align 4
  %f = bitcast i32 %v to float
  %r = fadd float %f, %f
  ret float %r
}
