; Denormal mode moves each cold region into a function of its own (TAINTPROF_DN_OUTLINE,
; default on; pass parameter no-dn-outline keeps it inline, as the other dn-*.ll tests
; do to read it in place): LLVM's CodeExtractor turns the region the group's filter
; branch enters into `<function>.tp.cold`, internal, `cold noinline`, called in its
; place with the values it uses (the loaded address, the phi, the counters, the tag
; buffer) and a pointer through which the tag it makes comes back. Inline, the region
; shared the loop's registers and spilled; called, only the entry pays. Both tiers.
; RUN: %opt -passes=taintprof-denormal,verify -S < %s | %FileCheck %s
; RUN: %opt '-passes=taintprof-taint<mode=denormal;dn-profile>,verify' -S < %s | %FileCheck %s --check-prefix=PROFILE
; RUN: env TAINTPROF_VERBOSE=1 %opt -passes=taintprof-denormal -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=STATS
; RUN: env TAINTPROF_DN_OUTLINE=0 TAINTPROF_VERBOSE=1 %opt -passes=taintprof-denormal -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=INLINE
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define float @f(ptr %p, i64 %n, float %a)
; CHECK: loop:
; The fast path: the filter, then the call on the unlikely side.
; CHECK: call i32 @llvm.umin.i32(
; CHECK: br i1 {{%.*}}, label %[[REPL:.*]], label %[[JOIN:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; CHECK: [[REPL]]:
; CHECK: call void @f.tp.cold(ptr %p, i64 %i, float %acc, ptr {{%.*}}, i32 {{%.*}}, ptr {{%.*}}, ptr [[OUT:%.*]])
; CHECK-NEXT: [[TAG:%.*]] = load i32, ptr [[OUT]]
; CHECK: br label %[[JOIN]]
; CHECK-NOT: call {{.*}}@__tpd_load
; The fmul's tag, from the region or 0, is the return tag.
; CHECK: [[JOIN]]:
; CHECK-NEXT: [[T:%.*]] = phi i32 [ 0, %loop ], [ [[TAG]], %[[REPL]] ]
; CHECK: exit:
; CHECK-NEXT: store i32 {{%.*}}, ptr @__tpd_ret_tag_tls
; CHECK-NEXT: ret float %r
; The region: the exact masks, the load's cache and hook, the fmul's counters and tag.
; CHECK: define internal void @f.tp.cold(ptr %p, i64 %i, float %acc, ptr %0, i32 %1, ptr %2, ptr %.out) [[ATTRS:#[0-9]+]]
; CHECK-DAG: store i32 {{%.*}}, ptr %.out
; CHECK-DAG: call preserve_allcc void @__tpd_load_keepregs(ptr @taintprof.fpsites,
; CHECK: ret void
; CHECK: attributes [[ATTRS]] = { cold noinline }

; The profile tier's region makes no tag: nothing comes back.
; PROFILE-LABEL: define float @f(
; PROFILE: call void @f.tp.cold(ptr %p, i64 %i, ptr {{%.*}}, float %acc)
; PROFILE-NEXT: br label
; PROFILE: define internal void @f.tp.cold(
; PROFILE-NOT: call
; PROFILE: ret void

; STATS: 1 cold regions (0 re-testing exactly, 1 outlined)
; INLINE: 1 cold regions (0 re-testing exactly, 0 outlined)
define float @f(ptr %p, i64 %n, float %a) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ %a, %entry ], [ %r, %loop ]
  %q = getelementptr float, ptr %p, i64 %i
  %v = load float, ptr %q
  %r = fmul float %v, %acc
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret float %r
}
