; Explicit control-flow tainting (docs/internal/control-flow.md): per-decision i16 slots
; cl(P) promoted to registers, Rule 1 at joins (if/else join gets the branch label; a loop
; header's back edge gets the exit condition's label, its entry edge nothing from an
; enclosing loop), Rule 2 for memory (stores and memory intrinsics OR ctrl(B)), Rule 3 for
; calls (ctrl(B) into __tp_ctrl_tls before the call, read at entry) and returns.
; With TAINTPROF_CONTROL_FLOW=0 (or the pass parameter no-control-flow) none of it is
; emitted: data flow only.
; The CHECK lines see the code as the rules emit it (no-hoist, and no-split: control
; labels as they are, not moved onto twin bits; control-writes.ll checks that); the
; HOIST lines check what the final loop clean-up makes of it (label code out of loops).
; RUN: %opt '-passes=taintprof-taint<no-hoist;no-split>,verify' -S < %s | %FileCheck %s
; RUN: %opt '-passes=taintprof-taint<no-split>,verify' -S < %s | %FileCheck %s --check-prefix=HOIST
; RUN: %opt_dataflow < %s | %FileCheck %s --check-prefix=DF
; RUN: env TAINTPROF_CONTROL_FLOW=0 TAINTPROF_HOIST=0 %opt_taint < %s | %FileCheck %s --check-prefix=DF
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; The module says whether control flow was tracked (MODULE_CONTROL_FLOW = 1, plus
; MODULE_NO_DEBUG_INFO = 2 here).
; CHECK: @taintprof.module = internal global %taintprof.ModuleDesc { i32 1414352964, i32 13, {{.*}}, i32 3, ptr null }
; DF: @taintprof.module = internal global %taintprof.ModuleDesc { i32 1414352964, i32 13, {{.*}}, i32 2, ptr null }
; DF-NOT: __tp_ctrl_tls
; DF-NOT: __tp_shadow_or

; Perf-Taint's foo: `d = 2 * a; if (b) d++; else d--;` -> d depends on a and b.
; CHECK-LABEL: define i32 @foo(i32 %a, i32 %b)
; CHECK: [[LA:%.*]] = select i1 [[OK:%.*]], i16 {{%.*}}, i16 0
; CHECK: load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[LB:%.*]] = select i1 [[OK]], i16 {{%.*}}, i16 0
; CHECK: then:
; CHECK: [[T:%.*]] = or i16 [[LA]], [[LB]]
; CHECK: else:
; CHECK: [[E:%.*]] = or i16 [[LA]], [[LB]]
; CHECK: join:
; CHECK-NEXT: %r = phi i32
; CHECK-NEXT: [[R:%.*]] = phi i16 [ [[T]], %then ], [ [[E]], %else ]
; CHECK-NEXT: phi i16
; CHECK-NEXT: store i16 [[R]], ptr @__tp_ret_tls
; Data flow only: d depends on a.
; DF-LABEL: define i32 @foo(i32 %a, i32 %b)
; DF: [[LA:%.*]] = select i1 {{%.*}}, i16 {{%.*}}, i16 0
; DF: join:
; DF: store i16 [[LA]], ptr @__tp_ret_tls
define i32 @foo(i32 %a, i32 %b) {
entry:
  %d = mul i32 %a, 2
  %c = icmp ne i32 %b, 0
  br i1 %c, label %then, label %else
then:
  %d1 = add i32 %d, 1
  br label %join
else:
  %d2 = sub i32 %d, 1
  br label %join
join:
  %r = phi i32 [ %d1, %then ], [ %d2, %else ]
  ret i32 %r
}

; for (i < n) for (j < m) count++;  as at -O0 (top-tested loops).
; The inner header's j gets m from its back edge and nothing from its entry edge, so the
; inner loop depends on m only; the outer i gets n from its back edge; count ends up
; with both.
; CHECK-LABEL: define i64 @nested(i32 %n, i32 %m)
; CHECK: [[LN:%.*]] = select i1 [[OK:%.*]], i16 {{%.*}}, i16 0
; CHECK: [[LM:%.*]] = select i1 [[OK]], i16 {{%.*}}, i16 0
; (Label PHIs: the loop accumulator first, then one per PHI of the program, in order.)
; (Then the loop's exit-test slot of identity.rs, and the R label of %cnt: count's
; own data is m, the inner loop's exit tests.)
; CHECK: outer:
; CHECK-NEXT: [[OACC:%.*]] = phi i16 [ 0, %entry ], [ [[ONEXT:%.*]], %outer.latch ]
; CHECK-NEXT: [[OEXIT:%.*]] = phi i16 [ 0, %entry ], [ [[OEXIT2:%.*]], %outer.latch ]
; CHECK-NEXT: %i = phi i32
; CHECK-NEXT: %cnt = phi i64
; CHECK-NEXT: [[SI:%.*]] = phi i16 [ 0, %entry ], [ [[SOC:%.*]], %outer.latch ]
; CHECK-NEXT: [[SCNT:%.*]] = phi i16 [ 0, %entry ], [ [[SCNT2:%.*]], %outer.latch ]
; CHECK-NEXT: [[RCNT:%.*]] = phi i16 [ 0, %entry ], [ [[RCNT2:%.*]], %outer.latch ]
; CHECK-NEXT: %oc = icmp slt i32 %i, %n
; CHECK-NEXT: [[SOC]] = or i16 [[SI]], [[LN]]
; CHECK-NEXT: [[OEXIT2]] = or i16 [[OEXIT]], {{%.*}}
; CHECK-NEXT: [[ONEXT]] = or i16 [[OACC]], [[SOC]]
; CHECK: inner:
; CHECK-NEXT: [[IACC:%.*]] = phi i16 [ 0, %outer.body ], [ [[INEXT:%.*]], %inner.latch ]
; CHECK-NEXT: [[IEXIT:%.*]] = phi i16 [ 0, %outer.body ], [ [[IEXIT2:%.*]], %inner.latch ]
; CHECK-NEXT: %j = phi i32
; CHECK-NEXT: %cnt.in = phi i64
; CHECK-NEXT: [[SJ:%.*]] = phi i16 [ 0, %outer.body ], [ [[SIC:%.*]], %inner.latch ]
; CHECK-NEXT: [[SCIN:%.*]] = phi i16 [ [[SCNT]], %outer.body ], [ [[SCIN2:%.*]], %inner.latch ]
; CHECK-NEXT: %ic = icmp slt i32 %j, %m
; CHECK-NEXT: [[SIC]] = or i16 [[SJ]], [[LM]]
; CHECK-NEXT: [[IEXIT2]] = or i16 [[IEXIT]], {{%.*}}
; CHECK-NEXT: [[INEXT]] = or i16 [[IACC]], [[SIC]]
; CHECK: inner.latch:
; CHECK: [[SCIN2]] = or i16 [[SCIN]], [[SIC]]
; CHECK: outer.latch:
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr {{.*}}@taintprof.loops{{.*}}, i16 [[INEXT]])
; CHECK: [[SCNT2]] = or i16 [[SCIN]], [[SOC]]
; CHECK-NEXT: [[RCNT2]] = or i16 [[RCNT]], [[IEXIT2]]
; CHECK: exit:
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr @taintprof.loops, i16 [[ONEXT]])
; CHECK: store i16 [[SCNT]], ptr @__tp_ret_tls
; After the clean-up every label is loop-invariant and computed before the loops: the
; inner loop reports m, the outer n, count is n | m, and no label code is left inside.
; HOIST-LABEL: define i64 @nested(i32 %n, i32 %m)
; HOIST: [[LN:%.*]] = select i1 [[OK:%.*]], i16 {{%.*}}, i16 0
; HOIST: [[LM:%.*]] = select i1 [[OK]], i16 {{%.*}}, i16 0
; HOIST: [[NM:%.*]] = or i16 [[LM]], [[LN]]
; HOIST: br label %outer
; HOIST-NOT: or i16
; HOIST-NOT: phi i16
; HOIST: call void @__tp_loop_exit(ptr {{%.*}}, ptr {{.*}}@taintprof.loops{{.*}}, i16 [[LM]])
; HOIST-NOT: or i16
; HOIST: call void @__tp_loop_exit(ptr {{%.*}}, ptr @taintprof.loops, i16 [[LN]])
; HOIST: store i16 [[NM]], ptr @__tp_ret_tls
define i64 @nested(i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %outer.latch ]
  %cnt = phi i64 [ 0, %entry ], [ %cnt.in, %outer.latch ]
  %oc = icmp slt i32 %i, %n
  br i1 %oc, label %outer.body, label %exit
outer.body:
  br label %inner
inner:
  %j = phi i32 [ 0, %outer.body ], [ %j1, %inner.latch ]
  %cnt.in = phi i64 [ %cnt, %outer.body ], [ %cnt1, %inner.latch ]
  %ic = icmp slt i32 %j, %m
  br i1 %ic, label %inner.latch, label %outer.latch
inner.latch:
  %cnt1 = add i64 %cnt.in, 1
  %j1 = add i32 %j, 1
  br label %inner
outer.latch:
  %i1 = add i32 %i, 1
  br label %outer
exit:
  ret i64 %cnt
}

; The same nest as -O2 shapes it (rotated, guarded). Entering the inner loop from its
; guard carries the guard's own condition (m), not the outer loop's decisions (n).
; CHECK-LABEL: define i32 @rotated(i32 %n, i32 %m)
; CHECK: [[LN:%.*]] = select i1 [[OK:%.*]], i16 {{%.*}}, i16 0
; CHECK: [[LM:%.*]] = select i1 [[OK]], i16 {{%.*}}, i16 0
; CHECK: inner:
; CHECK-NEXT: [[IACC:%.*]] = phi i16 [ 0, %outer ], [ [[INEXT:%.*]], %inner ]
; CHECK-NEXT: %j = phi i32
; CHECK-NEXT: [[SJ:%.*]] = phi i16 [ [[LM]], %outer ], [ [[SIC:%.*]], %inner ]
; CHECK: [[SIC]] = or i16 [[SJ]], [[LM]]
; CHECK-NEXT: [[INEXT]] = or i16 [[IACC]], [[SIC]]
; CHECK: br i1 %ic, label %inner, label %outer.latch.tp.edge
define i32 @rotated(i32 %n, i32 %m) {
entry:
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %outer, label %exit
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %outer.latch ]
  %ig = icmp sgt i32 %m, 0
  br i1 %ig, label %inner, label %outer.latch
inner:
  %j = phi i32 [ 0, %outer ], [ %j1, %inner ]
  %j1 = add i32 %j, 1
  %ic = icmp slt i32 %j1, %m
  br i1 %ic, label %inner, label %outer.latch
outer.latch:
  %i1 = add i32 %i, 1
  %oc = icmp slt i32 %i1, %n
  br i1 %oc, label %outer, label %exit
exit:
  ret i32 0
}

; Rule 2: a store in a loop body that updates the value it overwrites (`*p += v`)
; writes its value's label | ctrl(B), and ctrl(B) = entry | cl(loop header). Plain
; overwrites take no control label: memcpy copies the labels, memset writes the value's
; label. Rule 3: ctrl(B) goes to __tp_ctrl_tls before the call.
; CHECK-LABEL: define void @body(i32 %n, ptr %p, i32 %v, ptr %q, i64 %len)
; Shadow addresses of the arguments %p and %q: the mapping, once, in the entry block.
; CHECK: ptrtoint ptr %p to i64
; CHECK: [[SP:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK-NEXT: ptrtoint ptr %q to i64
; CHECK: [[SQ:%.*]] = inttoptr i64 {{%.*}} to ptr
; CHECK: [[OK:%.*]] = icmp eq ptr {{%.*}}, @body
; CHECK: [[LV0:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[LV:%.*]] = select i1 [[OK]], i16 [[LV0]], i16 0
; CHECK: [[C0:%.*]] = load i16, ptr @__tp_ctrl_tls
; CHECK-NEXT: [[ENTRY:%.*]] = select i1 [[OK]], i16 [[C0]], i16 0
; CHECK: loop:
; CHECK: %i = phi i32
; CHECK-NEXT: [[SI:%.*]] = phi i16
; CHECK: [[CL:%.*]] = or i16 [[SI]], {{%.*}}
; CHECK: body:
; CHECK-NEXT: [[CTRL:%.*]] = or i16 [[ENTRY]], [[CL]]
; CHECK: %upd = add i32 %old, %v
; CHECK: [[SV:%.*]] = or i16 {{%.*}}, [[CTRL]]
; CHECK: [[W:%.*]] = mul i64 {{%.*}}, 281479271743489
; CHECK-NEXT: store i64 [[W]], ptr [[SP]], align 2
; CHECK-NEXT: store i32 %upd, ptr %p
; memcpy of 16 bytes: copy the labels inline, nothing ORed.
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr [[SP]], ptr [[SQ]], i64 32, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 16, i1 false)
; memcpy of a variable length: runtime copy. It is a library loop (variable length):
; reported before the call.
; CHECK-NEXT: call void @__tp_shadow_copy(ptr %p, ptr %q, i64 %len)
; CHECK-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr {{.*}}@taintprof.loops{{.*}}, i16 {{%.*}})
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 %len, i1 false)
; memset(p, v, 8): one inline store of label(v) per byte.
; CHECK: [[MSI:%.*]] = insertelement <8 x i16> poison, i16 [[LV]], i32 0
; CHECK-NEXT: [[MSS:%.*]] = shufflevector <8 x i16> [[MSI]], <8 x i16> poison, <8 x i32> zeroinitializer
; CHECK-NEXT: store <8 x i16> [[MSS]], ptr [[SP]], align 2
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %p, i8 %b8, i64 8, i1 false)
; The call: ctrl(B) into __tp_ctrl_tls, the callee into __tp_callee_tls.
; CHECK: store i16 [[CTRL]], ptr @__tp_ctrl_tls, align 2
; CHECK-NEXT: store ptr @ext, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: call void @ext(i32 %v)
; DF-LABEL: define void @body(
; DF: store ptr @ext, ptr @__tp_callee_tls, align 8
; DF-NEXT: call void @ext(i32 %v)
define void @body(i32 %n, ptr %p, i32 %v, ptr %q, i64 %len) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %old = load i32, ptr %p
  %upd = add i32 %old, %v
  store i32 %upd, ptr %p
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 %len, i1 false)
  %b8 = trunc i32 %v to i8
  call void @llvm.memset.p0.i64(ptr %p, i8 %b8, i64 8, i1 false)
  call void @ext(i32 %v)
  %i1 = add i32 %i, 1
  br label %loop
exit:
  ret void
}

; Rule 3, callee side: the entry control label is read from __tp_ctrl_tls at entry (if
; the call was meant for us) and ORed into what the function's updates write; its plain
; overwrite (`*q = 7`) takes none.
; CHECK-LABEL: define void @callee_writes(ptr %p, ptr %q)
; CHECK: [[OK:%.*]] = icmp eq ptr {{%.*}}, @callee_writes
; CHECK: [[C:%.*]] = load i16, ptr @__tp_ctrl_tls, align 2
; CHECK-NEXT: [[ENTRY:%.*]] = select i1 [[OK]], i16 [[C]], i16 0
; CHECK: = and i16
; CHECK: [[RQ:%.*]] = and i16
; CHECK: %u = add i32 %o, 7
; CHECK: [[U:%.*]] = or i16 {{%.*}}, [[ENTRY]]
; CHECK: store i32 %u, ptr %p
; The constant 7 takes the label of its address (R of %q: identity.rs), no control label.
; CHECK-NEXT: [[W:%.*]] = zext i16 [[RQ]] to i64
; CHECK-NEXT: [[WS:%.*]] = mul i64 [[W]], 281479271743489
; CHECK-NEXT: store i64 [[WS]], ptr {{%.*}}, align 2
; CHECK-NEXT: store i32 7, ptr %q
define void @callee_writes(ptr %p, ptr %q) {
  %o = load i32, ptr %p
  %u = add i32 %o, 7
  store i32 %u, ptr %p
  store i32 7, ptr %q
  ret void
}

; Rule 3, returns: `ret` in a block that depends on a decision returns the value's label
; | cl(P) (not the entry label: the caller knows it).
; CHECK-LABEL: define i32 @early(i32 %a, i32 %b, i32 %x)
; CHECK: [[LA:%.*]] = select i1 [[OK:%.*]], i16 {{%.*}}, i16 0
; CHECK: [[LB:%.*]] = select i1 [[OK]], i16 {{%.*}}, i16 0
; CHECK: yes:
; CHECK-NEXT: [[R:%.*]] = or i16 [[LB]], [[LA]]
; CHECK-NEXT: {{%.*}} = or i16
; CHECK-NEXT: store i16 [[R]], ptr @__tp_ret_tls
; CHECK: store i16 {{%.*}}, ptr @__tp_retz_tls
; CHECK-NEXT: ret i32 %b
define i32 @early(i32 %a, i32 %b, i32 %x) {
entry:
  %c = icmp sgt i32 %a, 0
  br i1 %c, label %yes, label %no
yes:
  ret i32 %b
no:
  ret i32 %x
}

; A switch case falling through into another: the join chooses between the two ways of
; arriving, so both incoming values carry the switch's label (block %two depends on
; the switch too, so CD(Q) \ CD(J) alone would miss it).
; CHECK-LABEL: define i32 @fallthrough(i32 %s, i32 %a)
; CHECK: [[LS:%.*]] = select i1 [[OK:%.*]], i16 {{%.*}}, i16 0
; CHECK: [[LA:%.*]] = select i1 [[OK]], i16 {{%.*}}, i16 0
; CHECK: one:
; CHECK: [[E1:%.*]] = or i16 [[LA]], [[LS]]
; CHECK: two:
; CHECK-NEXT: %v = phi i32
; CHECK-NEXT: phi i16 [ [[LS]], %entry ], [ [[E1]], %one ]
define i32 @fallthrough(i32 %s, i32 %a) {
entry:
  switch i32 %s, label %dflt [ i32 1, label %one
                               i32 2, label %two ]
one:
  br label %two
two:
  %v = phi i32 [ 0, %entry ], [ %a, %one ]
  br label %done
dflt:
  br label %done
done:
  %r = phi i32 [ %v, %two ], [ 1, %dflt ]
  ret i32 %r
}

; Exceptions: the normal path after an invoke still depends on the `if` around it (the
; unwind edge does not cut control dependence).
; CHECK-LABEL: define i32 @inv(i32 %a, i1 %c)
; CHECK: select i1 [[OK:%.*]], i16 {{%.*}}, i16 0
; CHECK-NEXT: load i16
; CHECK-NEXT: [[LC:%.*]] = select i1 [[OK]], i16 {{%.*}}, i16 0
; CHECK: join.tp.edge:
; CHECK-NEXT: [[LR:%.*]] = load i16, ptr @__tp_ret_tls
; CHECK: [[E:%.*]] = or i16 [[LR]], [[LC]]
; CHECK: join:
; CHECK: phi i16 [ [[E]], %join.tp.edge ], [ [[LC]], %other ]
declare i32 @may_throw(i32)
declare i32 @__gxx_personality_v0(...)
define i32 @inv(i32 %a, i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %call, label %other
call:
  %r = invoke i32 @may_throw(i32 %a) to label %join unwind label %lpad
other:
  br label %join
join:
  %p = phi i32 [ %r, %call ], [ 0, %other ]
  ret i32 %p
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

declare void @ext(i32)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
