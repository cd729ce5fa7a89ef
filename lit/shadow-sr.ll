; Shadow-address strength reduction (pass/src/taint/addr.rs). Inside an object
; shadow(p + k) == shadow(p) + 2k, so the shadow address of a pointer derived by a GEP is
; derived from the shadow address of its base with every byte offset doubled (constant
; part: `gep i8, 2C`; variable index x of scale s: `gep [2s x i8], x`); a pointer PHI gets
; a PHI of shadow addresses, a pointer select a select; any other pointer (argument,
; loaded pointer, call result) is a root: the mapping
; ((p & 0xfffffffffff) << 1) + 0x100000000000 once, right after its definition (arguments:
; at the top of the entry block). Allocas and constants get the mapping at the use.
; With no-shadow-sr (NOSR) every access computes the mapping itself.
; RUN: %opt_dataflow < %s | %FileCheck %s
; RUN: %opt '-passes=taintprof-taint<no-control-flow;no-hoist;no-shadow-sr>' -S < %s | %FileCheck %s --check-prefix=NOSR
; RUN: env TAINTPROF_SHADOW_SR=0 %opt_dataflow < %s | %FileCheck %s --check-prefix=NOSR
; RUN: %opt '-passes=taintprof-taint<no-control-flow>,verify' -S < %s | %FileCheck %s --check-prefix=HOIST
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%S = type { i32, double, [3 x float] }
@G = global [100 x float] zeroinitializer

; A loop over a float array: the argument's shadow address once in the entry block, the
; element's shadow address a GEP with the doubled scale (4 -> 8 bytes) on the loop's own
; index, and no mapping inside the loop.
; CHECK-LABEL: define float @sum(ptr %a, i64 %n)
; CHECK-NEXT: entry:
; CHECK-NEXT: [[I:%.*]] = ptrtoint ptr %a to i64
; CHECK-NEXT: [[M:%.*]] = and i64 [[I]], 17592186044415
; CHECK-NEXT: [[S:%.*]] = shl i64 [[M]], 1
; CHECK-NEXT: [[B:%.*]] = add i64 [[S]], 17592186044416
; CHECK-NEXT: [[SA:%.*]] = inttoptr i64 [[B]] to ptr
; CHECK: loop:
; CHECK-NOT: ptrtoint
; CHECK: %p = getelementptr inbounds float, ptr %a, i64 %i
; CHECK-NEXT: [[SP:%.*]] = getelementptr [8 x i8], ptr [[SA]], i64 %i
; CHECK-NEXT: %x = load float, ptr %p
; CHECK-NEXT: [[L0:%.*]] = load i32, ptr [[SP]], align 2
; CHECK-NEXT: [[SP4:%.*]] = getelementptr inbounds i8, ptr [[SP]], i64 4
; CHECK-NEXT: [[L1:%.*]] = load i32, ptr [[SP4]], align 2
; CHECK-NOT: ptrtoint
; CHECK: exit:
; Without strength reduction: the mapping of %p at the access, inside the loop.
; NOSR-LABEL: define float @sum(ptr %a, i64 %n)
; NOSR: loop:
; NOSR: %x = load float, ptr %p
; NOSR-NEXT: [[I:%.*]] = ptrtoint ptr %p to i64
; NOSR-NEXT: [[M:%.*]] = and i64 [[I]], 17592186044415
; NOSR-NEXT: [[S:%.*]] = shl i64 [[M]], 1
; NOSR-NEXT: [[B:%.*]] = add i64 [[S]], 17592186044416
; NOSR-NEXT: [[SP:%.*]] = inttoptr i64 [[B]] to ptr
; NOSR-NEXT: load i32, ptr [[SP]], align 2
; NOSR: exit:
define float @sum(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr inbounds float, ptr %a, i64 %i
  %x = load float, ptr %p
  %s1 = fadd float %s, %x
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret float %s1
}

; A pointer induction variable (C++ iterator loop): its shadow address is a PHI of the
; incoming shadow addresses; the step of 8 bytes becomes 16.
; CHECK-LABEL: define double @iter(ptr %a, ptr %e)
; CHECK-NEXT: entry:
; CHECK-NEXT: ptrtoint ptr %a to i64
; CHECK: [[SA:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NOT: ptrtoint
; CHECK: loop:
; CHECK: %p = phi ptr [ %a, %entry ], [ %p1, %loop ]
; CHECK-NEXT: %s = phi double
; CHECK-NEXT: [[SP:%.*]] = phi ptr [ [[SA]], %entry ], [ [[SN:%.*]], %loop ]
; CHECK: %x = load double, ptr %p
; CHECK-NEXT: load i64, ptr [[SP]], align 2
; CHECK: %p1 = getelementptr inbounds double, ptr %p, i64 1
; CHECK-NEXT: [[SN]] = getelementptr i8, ptr [[SP]], i64 16
; CHECK-NOT: ptrtoint
; CHECK: ret double
; NOSR-LABEL: define double @iter(ptr %a, ptr %e)
; NOSR-NOT: phi ptr [ {{%[0-9]+}}
; NOSR: %x = load double, ptr %p
; NOSR-NEXT: ptrtoint ptr %p to i64
; NOSR: ret double
define double @iter(ptr %a, ptr %e) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %a, %entry ], [ %p1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %x = load double, ptr %p
  %s1 = fadd double %s, %x
  %p1 = getelementptr inbounds double, ptr %p, i64 1
  %c = icmp ne ptr %p1, %e
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}

; Constant and variable offsets (offsetof(S, f[j]) = 16 + 4j, sizeof(S) = 32), a negative
; offset, a select of pointers, a pointer loaded from memory (a root: the mapping right
; after the load), the same index twice (800i + 8i bytes), a global base (the mapping of
; the constant at the use).
; CHECK-LABEL: define float @fields(ptr %s, i64 %i, i32 %j, i1 %c, ptr %q)
; CHECK-NEXT: ptrtoint ptr %s to i64
; CHECK: [[SS:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: ptrtoint ptr %q to i64
; CHECK: [[SQ:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: %f = getelementptr inbounds %S, ptr %s, i64 %i, i32 2, i32 %j
; CHECK: [[F0:%.*]] = getelementptr i8, ptr [[SS]], i64 32
; CHECK-NEXT: [[F1:%.*]] = getelementptr [64 x i8], ptr [[F0]], i64 %i
; CHECK-NEXT: [[SF:%.*]] = getelementptr [8 x i8], ptr [[F1]], i32 %j
; CHECK-NEXT: %x = load float, ptr %f
; CHECK-NEXT: load i32, ptr [[SF]], align 2
; CHECK: %d = getelementptr inbounds %S, ptr %s, i64 %i, i32 1
; CHECK: [[D0:%.*]] = getelementptr i8, ptr [[SS]], i64 16
; CHECK-NEXT: [[SD:%.*]] = getelementptr [64 x i8], ptr [[D0]], i64 %i
; CHECK-NEXT: %y = load double, ptr %d
; CHECK-NEXT: load i64, ptr [[SD]], align 2
; CHECK: %neg = getelementptr inbounds i8, ptr %f, i64 -8
; CHECK-NEXT: [[SNEG:%.*]] = getelementptr i8, ptr [[SF]], i64 -16
; CHECK-NEXT: %z = load i32, ptr %neg
; CHECK-NEXT: load i32, ptr [[SNEG]], align 2
; CHECK: %sel = select i1 %c, ptr %f, ptr %q
; CHECK: [[SSEL:%.*]] = select i1 %c, ptr [[SF]], ptr [[SQ]]
; CHECK-NEXT: %w = load float, ptr %sel
; CHECK-NEXT: load i32, ptr [[SSEL]], align 2
; CHECK: %pp = load ptr, ptr %q
; CHECK-NEXT: [[PI:%.*]] = ptrtoint ptr %pp to i64
; CHECK-NEXT: [[PM:%.*]] = and i64 [[PI]], 17592186044415
; CHECK-NEXT: [[PS:%.*]] = shl i64 [[PM]], 1
; CHECK-NEXT: [[PA:%.*]] = add i64 [[PS]], 17592186044416
; CHECK-NEXT: [[SPP:%.*]] = inttoptr i64 [[PA]] to ptr
; CHECK-NEXT: %pp2 = getelementptr inbounds i32, ptr %pp, i32 %j
; CHECK-NEXT: [[SPP2:%.*]] = getelementptr [8 x i8], ptr [[SPP]], i32 %j
; CHECK: store i64 {{%.*}}, ptr [[SPP2]], align 2
; CHECK-NEXT: store i32 %z, ptr %pp2
; CHECK: %m = getelementptr inbounds [100 x double], ptr %s, i64 %i, i64 %i
; CHECK-NEXT: [[SM:%.*]] = getelementptr [1616 x i8], ptr [[SS]], i64 %i
; CHECK: store <8 x i16> {{%.*}}, ptr [[SM]], align 2
; CHECK-NEXT: store double %y, ptr %m
; CHECK: %g = getelementptr inbounds [100 x float], ptr @G, i64 0, i64 %i
; CHECK-NEXT: [[GM:%.*]] = and i64 ptrtoint (ptr @G to i64), 17592186044415
; CHECK-NEXT: [[GS:%.*]] = shl i64 [[GM]], 1
; CHECK-NEXT: [[GA:%.*]] = add i64 [[GS]], 17592186044416
; CHECK-NEXT: [[SG0:%.*]] = inttoptr i64 [[GA]] to ptr
; CHECK-NEXT: [[SG:%.*]] = getelementptr [8 x i8], ptr [[SG0]], i64 %i
; CHECK: store i64 {{%.*}}, ptr [[SG]], align 2
; CHECK-NEXT: store float %x, ptr %g
define float @fields(ptr %s, i64 %i, i32 %j, i1 %c, ptr %q) {
  %f = getelementptr inbounds %S, ptr %s, i64 %i, i32 2, i32 %j
  %x = load float, ptr %f
  %d = getelementptr inbounds %S, ptr %s, i64 %i, i32 1
  %y = load double, ptr %d
  %neg = getelementptr inbounds i8, ptr %f, i64 -8
  %z = load i32, ptr %neg
  %sel = select i1 %c, ptr %f, ptr %q
  %w = load float, ptr %sel
  %pp = load ptr, ptr %q
  %pp2 = getelementptr inbounds i32, ptr %pp, i32 %j
  store i32 %z, ptr %pp2
  %m = getelementptr inbounds [100 x double], ptr %s, i64 %i, i64 %i
  store double %y, ptr %m
  %g = getelementptr inbounds [100 x float], ptr @G, i64 0, i64 %i
  store float %x, ptr %g
  %r = fadd float %x, %w
  ret float %r
}

; An alloca's shadow address is the mapping at the use (its own visit clears its shadow
; with the mapping right after it, and the pass's CSE keeps that one copy); GEPs from
; it are derived as usual.
; CHECK-LABEL: define i32 @local(i64 %i, i32 %v)
; CHECK: ptrtoint ptr %a to i64
; CHECK: [[SA:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: store <64 x i16> zeroinitializer, ptr [[SA]]
; CHECK: %p = getelementptr inbounds [16 x i32], ptr %a, i64 0, i64 %i
; CHECK-NEXT: [[SP:%.*]] = getelementptr [8 x i8], ptr [[SA]], i64 %i
; CHECK: store i64 {{%.*}}, ptr [[SP]], align 2
; CHECK-NEXT: store i32 %v, ptr %p
; CHECK-NEXT: %q = getelementptr inbounds i32, ptr %p, i64 1
; CHECK-NEXT: [[SQ:%.*]] = getelementptr i8, ptr [[SP]], i64 8
; CHECK-NEXT: %r = load i32, ptr %q
; CHECK-NEXT: load i32, ptr [[SQ]], align 2
define i32 @local(i64 %i, i32 %v) {
  %a = alloca [16 x i32]
  %p = getelementptr inbounds [16 x i32], ptr %a, i64 0, i64 %i
  store i32 %v, ptr %p
  %q = getelementptr inbounds i32, ptr %p, i64 1
  %r = load i32, ptr %q
  ret i32 %r
}

; A pointer PHI fed by an invoke result: the result exists only on the normal edge, so
; its mapping is computed on that (split) edge; the PHI's shadow address is a PHI.
; CHECK-LABEL: define i32 @inv(i1 %c, ptr %d)
; CHECK-NEXT: entry:
; CHECK-NEXT: ptrtoint ptr %d to i64
; CHECK: [[SD:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: %r = invoke ptr @mk()
; CHECK: join.tp.edge:
; CHECK: ptrtoint ptr %r to i64
; CHECK: [[SR:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: br label %join
; CHECK: join:
; CHECK-NEXT: %p = phi ptr [ %r, %join.tp.edge ], [ %d, %other ]
; CHECK-NEXT: [[SP:%.*]] = phi ptr [ [[SR]], %join.tp.edge ], [ [[SD]], %other ]
; CHECK: %g = getelementptr inbounds i32, ptr %p, i64 3
; CHECK-NEXT: [[SG:%.*]] = getelementptr i8, ptr [[SP]], i64 24
; CHECK-NEXT: %v = load i32, ptr %g
; CHECK-NEXT: load i32, ptr [[SG]], align 2
declare ptr @mk()
declare i32 @__gxx_personality_v0(...)
define i32 @inv(i1 %c, ptr %d) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %call, label %other
call:
  %r = invoke ptr @mk() to label %join unwind label %lpad
other:
  br label %join
join:
  %p = phi ptr [ %r, %call ], [ %d, %other ]
  %g = getelementptr inbounds i32, ptr %p, i64 3
  %v = load i32, ptr %g
  ret i32 %v
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; With the final clean-up, shadow-address code with loop-invariant operands leaves the
; loop (a fixed element a[5] read in every iteration: its shadow GEP goes to the
; preheader); the strided one stays.
; HOIST-LABEL: define float @fixed(ptr %a, i64 %n)
; HOIST-NEXT: entry:
; HOIST-NEXT: ptrtoint ptr %a to i64
; HOIST: [[SA:%.*]] = inttoptr i64 {{%.*}} to ptr
; HOIST: [[S5:%.*]] = getelementptr i8, ptr [[SA]], i64 40
; HOIST: br label %loop
; HOIST: loop:
; HOIST-NOT: ptrtoint
; HOIST: %x = load float, ptr %p
; HOIST-NEXT: load i32, ptr [[S5]], align 2
; HOIST-NOT: ptrtoint
; HOIST: %q = getelementptr inbounds float, ptr %a, i64 %i
; HOIST-NEXT: [[SQ:%.*]] = getelementptr [8 x i8], ptr [[SA]], i64 %i
; HOIST-NEXT: %y = load float, ptr %q
; HOIST-NEXT: load i32, ptr [[SQ]], align 2
; HOIST-NOT: ptrtoint
; HOIST: exit:
define float @fixed(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %p = getelementptr inbounds float, ptr %a, i64 5
  %x = load float, ptr %p
  %q = getelementptr inbounds float, ptr %a, i64 %i
  %y = load float, ptr %q
  %s1 = fadd float %s, %x
  %s2 = fadd float %s1, %y
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret float %s2
}
