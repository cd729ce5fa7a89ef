; Branch sinks (Perf-Taint 4.4): every conditional br and switch that is not a loop exit
; gets a BranchRec { site, succ, n_succ, label, flags, taken, executions } in
; @taintprof.branches, with the source position of each distinct successor (switch:
; default first, duplicate targets merged). Instrumentation: br -> bit = select(cond,
; 1, 2); switch -> an edge block per distinct successor with a constant bit. Fast path:
; two relaxed loads and a compare; the cold, never-inlined __tp_branch_update only when
; the label or the bit is new (unlikely branch weights). Input: inputs/branches.c at -O0
; (if at line 5, a for loop at 9 whose exit is no branch sink, switch at 11).
; RUN: %opt -passes=taintprof-taint,verify -S %inputs/branches.ll | %FileCheck %s
; At -O2 (inputs/branches-O2.ll) the if became arithmetic and the switch a table lookup
; behind a range check (line 11, a branch sink); the for loop's rotation guard, at the
; loop's own location (9:3), is loop control, not a branch sink.
; RUN: %opt -passes=taintprof-taint,verify -S %inputs/branches-O2.ll | %FileCheck %s --check-prefix=O2
; O2-DAG: @taintprof.branches = internal global [1 x %taintprof.BranchRec] [%taintprof.BranchRec { ptr [[S:@taintprof.site[.0-9]*]], ptr {{@taintprof.succ[.0-9]*}}, i32 2, i16 0, i16 0, i64 0, i64 0 }]
; O2-DAG: [[S]] = private constant %taintprof.SiteDesc { ptr [[C:@taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null }
; O2-DAG: [[C]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i32 3, i32 11, i32 3, i32 0 }]
;
; CHECK-DAG: %taintprof.BranchRec = type { ptr, ptr, i32, i16, i16, i64, i64 }
; Two records: the if (2 successors, flags 0) and the switch (3, BRANCH_SWITCH = 1).
; CHECK-DAG: @taintprof.branches = internal global [2 x %taintprof.BranchRec] [%taintprof.BranchRec { ptr [[SIF:@taintprof.site[.0-9]*]], ptr [[SUCCIF:@taintprof.succ[.0-9]*]], i32 2, i16 0, i16 0, i64 0, i64 0 }, %taintprof.BranchRec { ptr [[SSW:@taintprof.site[.0-9]*]], ptr [[SUCCSW:@taintprof.succ[.0-9]*]], i32 3, i16 0, i16 1, i64 0, i64 0 }], align 8
; CHECK-DAG: [[SIF]] = private constant %taintprof.SiteDesc { ptr [[CIF:@taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null }
; CHECK-DAG: [[CIF]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[FN:@taintprof.str[.0-9]*]], ptr [[FN]], ptr {{@taintprof.str[.0-9]*}}, i32 3, i32 5, i32 7, i32 0 }]
; The if's successors: `r = work(n)` at 6:9 and `r = work(n + 1)` at 8:16.
; CHECK-DAG: [[SUCCIF]] = private constant [2 x %taintprof.SiteDesc] [%taintprof.SiteDesc { ptr [[C6:@taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null }, %taintprof.SiteDesc { ptr [[C8:@taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null }]
; CHECK-DAG: [[C6]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[FN]], ptr [[FN]], ptr {{@taintprof.str[.0-9]*}}, i32 3, i32 6, i32 9, i32 0 }]
; CHECK-DAG: [[C8]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[FN]], ptr [[FN]], ptr {{@taintprof.str[.0-9]*}}, i32 3, i32 8, i32 16, i32 0 }]
; The switch at 11:3; successors default (15), case 0 (12), cases 1 and 2 merged (14).
; CHECK-DAG: [[SSW]] = private constant %taintprof.SiteDesc { ptr [[CSW:@taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null }
; CHECK-DAG: [[CSW]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[FN]], ptr [[FN]], ptr {{@taintprof.str[.0-9]*}}, i32 3, i32 11, i32 3, i32 0 }]
; CHECK-DAG: [[SUCCSW]] = private constant [3 x %taintprof.SiteDesc] [%taintprof.SiteDesc { ptr [[C15:@taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null }, %taintprof.SiteDesc { ptr [[C12:@taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null }, %taintprof.SiteDesc { ptr [[C14:@taintprof.chain[.0-9]*]], i32 1, i32 0, ptr null }]
; CHECK-DAG: [[C15]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[FN]], ptr [[FN]], ptr {{@taintprof.str[.0-9]*}}, i32 3, i32 15, i32 17, i32 0 }]
; CHECK-DAG: [[C12]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[FN]], ptr [[FN]], ptr {{@taintprof.str[.0-9]*}}, i32 3, i32 12, i32 16, i32 0 }]
; CHECK-DAG: [[C14]] = private constant [1 x %taintprof.SrcLoc] [%taintprof.SrcLoc { ptr [[FN]], ptr [[FN]], ptr {{@taintprof.str[.0-9]*}}, i32 3, i32 14, i32 16, i32 0 }]
; A call inside the loop names the loop in its SiteDesc.
; CHECK-DAG: @taintprof.site{{[.0-9]*}} = private constant %taintprof.SiteDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 0, ptr @taintprof.loops }
; CHECK-DAG: @taintprof.module = internal global %taintprof.ModuleDesc { i32 1414352964, i32 13, ptr {{@taintprof.str[.0-9]*}}, ptr @taintprof.funcs, i32 1, i32 1, ptr @taintprof.loops, ptr @taintprof.branches, i32 2, i32 1, ptr null }
;
; CHECK-LABEL: define dso_local i32 @pick(
; CHECK: [[LALGO:%.*]] = select i1 {{%.*}}, i16 {{%.*}}, i16 0
; The if: bit 1 (true) or 2 (false), checked against taken and label.
; CHECK: [[C:%.*]] = icmp sgt i32 %0, 1
; CHECK-NEXT: [[BIT:%.*]] = select i1 [[C]], i64 1, i64 2
; CHECK-NEXT: [[T:%.*]] = load atomic i64, ptr getelementptr inbounds ([2 x %taintprof.BranchRec], ptr @taintprof.branches, i64 0, i64 0, i32 5) monotonic, align 8
; CHECK-NEXT: [[NT:%.*]] = xor i64 [[T]], -1
; CHECK-NEXT: [[NEWT:%.*]] = and i64 [[BIT]], [[NT]]
; CHECK-NEXT: [[L:%.*]] = load atomic i16, ptr getelementptr inbounds ([2 x %taintprof.BranchRec], ptr @taintprof.branches, i64 0, i64 0, i32 3) monotonic, align 2
; CHECK-NEXT: [[NL:%.*]] = xor i16 [[L]], -1
; CHECK-NEXT: [[NEWL:%.*]] = and i16 [[LALGO]], [[NL]]
; CHECK-NEXT: [[NEWL64:%.*]] = zext i16 [[NEWL]] to i64
; CHECK-NEXT: [[ANY:%.*]] = or i64 [[NEWT]], [[NEWL64]]
; CHECK-NEXT: [[NEED:%.*]] = icmp ne i64 [[ANY]], 0
; CHECK-NEXT: br i1 [[NEED]], label %[[COLD:[0-9]+]], label %[[CONT:[0-9]+]], !dbg {{.*}}, !prof [[UNLIKELY:![0-9]+]]
; CHECK: [[COLD]]:
; CHECK-NEXT: call void @__tp_branch_update(ptr @taintprof.branches, i16 [[LALGO]], i64 [[BIT]])
; CHECK-NEXT: br label %[[CONT]]
; CHECK: [[CONT]]:
; The conversions of labels both sides use (merged at this common dominator, tp_cse).
; CHECK: br i1 [[C]],
; The loop's exit branch is not a branch sink: no check before it.
; CHECK: [[CMP:%.*]] = icmp slt i32 %.0, %1
; CHECK-NOT: @taintprof.branches
; CHECK: br i1 [[CMP]],
; The switch: one edge block per distinct successor (cases 1 and 2 share one), each
; with its constant bit: default 1, case 0 2, cases 1/2 4.
; CHECK: switch i32 %0, label %[[DFLT:.*]] [
; CHECK-NEXT: i32 0, label %[[CASE0:.*]]
; CHECK-NEXT: i32 1, label %[[CASE12:.*]]
; CHECK-NEXT: i32 2, label %[[CASE12]]
; CHECK: [[CASE0]]:
; CHECK: and i64 2, {{%.*}}
; CHECK: call void @__tp_branch_update(ptr getelementptr inbounds ([2 x %taintprof.BranchRec], ptr @taintprof.branches, i64 0, i64 1), i16 [[LALGO]], i64 2)
; CHECK: [[CASE12]]:
; CHECK: and i64 4, {{%.*}}
; CHECK: call void @__tp_branch_update(ptr getelementptr inbounds ([2 x %taintprof.BranchRec], ptr @taintprof.branches, i64 0, i64 1), i16 [[LALGO]], i64 4)
; CHECK: [[DFLT]]:
; CHECK: and i64 1, {{%.*}}
; CHECK: call void @__tp_branch_update(ptr getelementptr inbounds ([2 x %taintprof.BranchRec], ptr @taintprof.branches, i64 0, i64 1), i16 [[LALGO]], i64 1)
;
; The cold path is never inlined and marked cold.
; CHECK: declare void @__tp_branch_update(ptr, i16 zeroext, i64) [[ATTRS:#[0-9]+]]
; CHECK: attributes [[ATTRS]] = { cold noinline nounwind }
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 {{[0-9]+}}}
