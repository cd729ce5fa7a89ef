; Denormal mode, execution counts: every basic block with FP sites has a per-thread
; counter (`counters[base + block] += 1`, plain load/add/store); a site's executions are
; its block's count times its lanes. At entry, a function with sites loads the thread's
; counter block (null: cold call to __tpd_thread_counters) and the module's base
; (DN_BASE_UNREGISTERED: cold call to __tpd_register_module, then reload).
; Sites handled inline have more words each (FpSiteDesc::counters), numbered after all
; the module's blocks in the same counter space: an operation four counters, updated
; in its cold region; a contiguous float/double load or store its inline count and its
; inline memory cache (9 and 11 words, see dn-load-store.ll). An operation's fourth
; counter counts the results it created (denormal, with no denormal operand).
; RUN: %opt_denormal < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Sites: entry's fadd → block 0; loop's fmul and load → block 1 (shared). Inline
; words after the 2 blocks: the fadd's 2-5, the load's 6-14, the fmul's 15-18;
; n_blocks = 2 + 4 + 9 + 4. The fadd's operand 1 (1.0) is a constant: const_operands 2.
; CHECK: @taintprof.dn_module = internal global %taintprof.DnModuleDesc { i32 1313099860, i32 13, ptr @{{.*}}, ptr @taintprof.fpsites, i32 3, i32 19,
; CHECK: @taintprof.fpsites = private constant [3 x %taintprof.FpSiteDesc]
; CHECK-SAME: i16 2, i16 1, i16 0, i16 2, i32 0, i32 0, ptr @taintprof.dn_module, i32 2, i32 0 }
; CHECK-SAME: i16 2, i16 1, i16 1, i16 0, i32 1, i32 1, ptr @taintprof.dn_module, i32 6, i32 1 }
; CHECK-SAME: i16 2, i16 1, i16 0, i16 0, i32 1, i32 2, ptr @taintprof.dn_module, i32 15, i32 2 }]

; CHECK-LABEL: define float @f(ptr %p, i64 %n, float %x)
; CHECK-NEXT: entry:
; The load hook's tag buffer (the operations, inline, need none).
; CHECK-NEXT: alloca [1 x i32]
; CHECK-NEXT: [[C0:%.*]] = load ptr, ptr @__tpd_counters_tls, align 8
; CHECK-NEXT: [[NULL:%.*]] = icmp eq ptr [[C0]], null
; CHECK-NEXT: br i1 [[NULL]], label %[[NEW:[0-9]+]], label %[[HAVE:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; CHECK: [[NEW]]:
; CHECK-NEXT: [[C1:%.*]] = call ptr @__tpd_thread_counters()
; CHECK: [[HAVE]]:
; CHECK-NEXT: [[C:%.*]] = phi ptr [ [[C0]], %entry ], [ [[C1]], %[[NEW]] ]
; CHECK-NEXT: [[B0:%.*]] = load atomic i64, ptr getelementptr inbounds (%taintprof.DnModuleDesc, ptr @taintprof.dn_module, i64 0, i32 9) monotonic, align 8
; CHECK-NEXT: [[UNREG:%.*]] = icmp eq i64 [[B0]], -1
; CHECK-NEXT: br i1 [[UNREG]], label %[[REG:[0-9]+]], label %[[REGD:[0-9]+]], !prof [[UNLIKELY]]
; CHECK: [[REG]]:
; CHECK-NEXT: call void @__tpd_register_module(ptr @taintprof.dn_module)
; CHECK-NEXT: [[B1:%.*]] = load atomic i64, ptr getelementptr inbounds (%taintprof.DnModuleDesc, ptr @taintprof.dn_module, i64 0, i32 9) monotonic, align 8
; CHECK: [[REGD]]:
; CHECK-NEXT: [[B:%.*]] = phi i64 [ [[B0]], %[[HAVE]] ], [ [[B1]], %[[REG]] ]
; CHECK-NEXT: [[CB:%.*]] = getelementptr inbounds i64, ptr [[C]], i64 [[B]]
; Block 0 (entry):
; CHECK-NEXT: [[V0:%.*]] = load i64, ptr [[CB]], align 8
; CHECK-NEXT: [[V1:%.*]] = add i64 [[V0]], 1
; CHECK-NEXT: store i64 [[V1]], ptr [[CB]], align 8
; CHECK: %y = fadd float %x, 1.000000e+00
; The fadd's inline counters, in its cold region.
; CHECK-NOT: ptr [[CB]],
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 2
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 3
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 4
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 5
; CHECK-NOT: ptr [[CB]],
; Block 1 (the loop), once per iteration for both sites:
; CHECK: loop:
; CHECK: [[P1:%.*]] = getelementptr inbounds i64, ptr [[CB]], i64 1
; CHECK-NEXT: [[W0:%.*]] = load i64, ptr [[P1]], align 8
; CHECK-NEXT: [[W1:%.*]] = add i64 [[W0]], 1
; CHECK-NEXT: store i64 [[W1]], ptr [[P1]], align 8
; CHECK-NOT: ptr [[CB]],
; The load's cache (its words 7..14; the hit adds to word 6), the hook on a miss
; (through its register-preserving entry: no AVX here); the fmul's inline counters.
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 7
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 6
; CHECK: call preserve_allcc void @__tpd_load_keepregs(
; CHECK-NOT: ptr [[CB]],
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 15
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 16
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 17
; CHECK: getelementptr inbounds i64, ptr [[CB]], i64 18
; CHECK-NOT: ptr [[CB]],
; No counter in a block without sites.
; CHECK: exit:
; CHECK-NOT: getelementptr inbounds i64, ptr [[CB]]
; CHECK: ret float
define float @f(ptr %p, i64 %n, float %x) {
entry:
  %y = fadd float %x, 1.0
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %a = getelementptr float, ptr %p, i64 %i
  %v = load float, ptr %a
  %w = fmul float %v, %y
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret float %w
}

; A function without sites has no prologue.
; CHECK-LABEL: define i32 @nosites(i32 %a)
; CHECK-NEXT: %r = add i32 %a, 1
; CHECK-NEXT: ret i32 %r
define i32 @nosites(i32 %a) {
  %r = add i32 %a, 1
  ret i32 %r
}

; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
