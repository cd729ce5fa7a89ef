; Denormal mode, less common FP producers:
; * atomicrmw on FP: a site of its own (operand and old value, no result), tested right
;   after it; the value it leaves in memory moves no tag;
; * first-class aggregates holding FP (complex numbers returned in registers) carry one
;   collapsed tag through insertvalue/extractvalue, returns and calls;
; * inline asm and va_arg produce FP values with tag 0 (counted in the verbose stats).
; Operation sites are handled inline (counts into their four counters, result tags
; with selects: with operand tags 0 the result's tag is the site alone); with
; `no-dn-inline-ops` (prefix HOOK) they call `__tpd_op`.
; RUN: %opt_dn_nomem < %s | %FileCheck %s
; RUN: %opt_dn_hooks < %s | %FileCheck %s --check-prefix=HOOK
; RUN: env TAINTPROF_VERBOSE=1 %opt_dn_nomem -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=STATS
; STATS: warning: {{.*}}: 1 inline asm statements produce floating-point values: their tags are 0

; Five blocks; inline counters 5-8 (atomicrmw), 9-12 (fadd), 13-16 (fmul): n_blocks = 17.
; CHECK-DAG: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 5, i32 17,
; CHECK-DAG: @taintprof.fpsites = private constant [5 x %taintprof.FpSiteDesc] [%taintprof.FpSiteDesc { %taintprof.SiteDesc { ptr @taintprof.chain, i32 1, i32 0, ptr null }, ptr @[[RMW:taintprof.str[.0-9]*]], i16 2, i16 1, i16 8, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 5, i32 0 }
; CHECK-DAG: @[[RMW]] = private unnamed_addr constant [15 x i8] c"atomicrmw fadd\00"
; CHECK-DAG: i16 3, i16 1, i16 1, i16 0, i32 1, i32 1, ptr @taintprof.dn_module, i32 -1, i32 1 }
; CHECK-DAG: i16 3, i16 1, i16 2, i16 0, i32 2, i32 2, ptr @taintprof.dn_module, i32 -1, i32 2 }
; CHECK-DAG: i16 2, i16 1, i16 0, i16 0, i32 3, i32 3, ptr @taintprof.dn_module, i32 9, i32 3 }
; CHECK-DAG: i16 3, i16 1, i16 0, i16 0, i32 4, i32 4, ptr @taintprof.dn_module, i32 13, i32 4 }]
; HOOK-DAG: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 5, i32 5,
; HOOK-DAG: @taintprof.fpsites = private constant [5 x %taintprof.FpSiteDesc] [%taintprof.FpSiteDesc { %taintprof.SiteDesc { ptr @taintprof.chain, i32 1, i32 0, ptr null }, ptr @[[RMW:taintprof.str[.0-9]*]], i16 2, i16 1, i16 8, i16 0, i32 0, i32 0, ptr @taintprof.dn_module, i32 -1, i32 0 }
; HOOK-DAG: @[[RMW]] = private unnamed_addr constant [15 x i8] c"atomicrmw fadd\00"

; CHECK-LABEL: define float @atomic(ptr %p, float %x)
; CHECK: [[BX:%.*]] = bitcast float %x to i32
; CHECK: %old = atomicrmw fadd ptr %p, float %x monotonic, align 4
; CHECK-NEXT: bitcast float %old to i32
; CHECK: call i32 @llvm.umin.i32(
; CHECK-NEXT: icmp ult i32
; CHECK-NEXT: freeze i1
; CHECK-NEXT: br i1
; Counts of both operands (no result term), no result tags.
; CHECK: [[DX:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: [[DO:%.*]] = icmp slt i32 {{%.*}}, -2139095041
; CHECK: br i1 {{%.*}}, label %[[INL:[0-9]+]], label %{{[0-9]+}}, !prof
; CHECK: [[INL]]:
; CHECK-NEXT: [[ANY:%.*]] = or i1 [[DX]], [[DO]]
; CHECK-NEXT: [[ZX:%.*]] = zext i1 [[DX]] to i64
; CHECK-NEXT: [[ZO:%.*]] = zext i1 [[DO]] to i64
; CHECK-NEXT: [[NOPS:%.*]] = add i64 [[ZX]], [[ZO]]
; CHECK-NEXT: [[ZANY:%.*]] = zext i1 [[ANY]] to i64
; CHECK-NEXT: [[NANY:%.*]] = shl i64 [[ZANY]], 8
; CHECK-NEXT: [[TOT:%.*]] = add i64 [[NOPS]], [[NANY]]
; CHECK-NEXT: and i64 [[TOT]], 255
; CHECK-NEXT: getelementptr inbounds i64, ptr {{%.*}}, i64 5
; CHECK: getelementptr inbounds i64, ptr {{%.*}}, i64 6
; CHECK-NOT: getelementptr inbounds i64, ptr {{%.*}}, i64 7
; CHECK-NOT: getelementptr inbounds i64, ptr {{%.*}}, i64 8
; CHECK-NOT: ptrtoint
; CHECK-NOT: @taintprof.creator_ix
; CHECK-NOT: call void @__tpd_op
; CHECK: store i32 0, ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret float %old
; HOOK-LABEL: define float @atomic(ptr %p, float %x)
; HOOK: %old = atomicrmw fadd ptr %p, float %x monotonic, align 4
; HOOK: call void @__tpd_op(ptr @taintprof.fpsites, i64 {{%.*}}, i64 0,

; The loaded real part's tag becomes the aggregate's and is returned.
; CHECK-LABEL: define { double, double } @cplx(ptr %p)
; CHECK: call void @__tpd_load(
; CHECK: [[T:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK: [[TJ:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[T]], %{{[0-9]+}} ]
; CHECK-NEXT: store i32 [[TJ]], ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret { double, double } %b

; A returned aggregate's tag reaches the store of a member.
; CHECK-LABEL: define double @usec(ptr %q)
; CHECK: store i32 0, ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: %c = call { double, double } @getc()
; CHECK-NEXT: [[RT:%.*]] = load i32, ptr @__tpd_ret_tag_tls, align 8
; CHECK: select i1 {{%.*}}, i32 [[RT]], i32 0
; CHECK: call void @__tpd_store(

; CHECK-LABEL: define float @asm()
; CHECK: %r = call float asm
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr {{%.*}}, i64 9
; CHECK: [[CI:%.*]] = load atomic i32, ptr getelementptr inbounds ([5 x i32], ptr @taintprof.creator_ix, i64 0, i64 3) monotonic, align 4
; CHECK: [[CC:%.*]] = call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([5 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 3))
; CHECK: [[ME:%.*]] = phi i32 [ [[CI]], %{{[0-9]+}} ], [ [[CC]], %{{[0-9]+}} ]
; CHECK-NEXT: select i1 {{%.*}}, i32 [[ME]], i32 0
; CHECK-NOT: call void @__tpd_op
; CHECK: ret float %s
; HOOK-LABEL: define float @asm()
; HOOK: %r = call float asm
; HOOK: store i32 0, ptr {{%.*}}, align 4
; HOOK: call void @__tpd_op(

; CHECK-LABEL: define double @va(ptr %ap)
; CHECK: %d = va_arg ptr %ap, double
; CHECK-NOT: call void @__tpd_op
; CHECK: getelementptr inbounds i64, ptr {{%.*}}, i64 13
; CHECK: [[CI:%.*]] = load atomic i32, ptr getelementptr inbounds ([5 x i32], ptr @taintprof.creator_ix, i64 0, i64 4) monotonic, align 4
; CHECK: [[CC:%.*]] = call preserve_allcc i32 @__tpd_creator_index_keepregs(ptr getelementptr inbounds ([5 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 4))
; CHECK: [[ME:%.*]] = phi i32 [ [[CI]], %{{[0-9]+}} ], [ [[CC]], %{{[0-9]+}} ]
; CHECK-NEXT: select i1 {{%.*}}, i32 [[ME]], i32 0
; CHECK-NOT: call void @__tpd_op
; CHECK: ret double %e
; HOOK-LABEL: define double @va(ptr %ap)
; HOOK: %d = va_arg ptr %ap, double
; HOOK: store i32 0, ptr {{%.*}}, align 4
; HOOK: call void @__tpd_op(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
define float @atomic(ptr %p, float %x) {
  %old = atomicrmw fadd ptr %p, float %x monotonic
  ret float %old
}
define { double, double } @cplx(ptr %p) {
  %re = load double, ptr %p
  %a = insertvalue { double, double } poison, double %re, 0
  %b = insertvalue { double, double } %a, double 0.0, 1
  ret { double, double } %b
}
declare { double, double } @getc()
define double @usec(ptr %q) {
  %c = call { double, double } @getc()
  %re = extractvalue { double, double } %c, 0
  store double %re, ptr %q
  ret double %re
}
define float @asm() {
  %r = call float asm "movss $$0, $0", "=x"()
  %s = fadd float %r, %r
  ret float %s
}
define double @va(ptr %ap) {
  %d = va_arg ptr %ap, double
  %e = fmul double %d, %d
  ret double %e
}
