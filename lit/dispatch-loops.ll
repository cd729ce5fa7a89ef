; A threaded interpreter's fetch loop around its `goto *` dispatch (tests/programs/
; cf_goto.c): two natural loops, `fetch` (latch: the handler that `continue`s) around
; `dispatch` (latch: the handler that jumps straight on). `fetch` is left only from
; inside `dispatch` (its one exiting block is the indirectbr), so it absorbs it
; (docs/internal/control-flow.md, "Loops that are one cycle"): one accumulator, one
; report with fetch's descriptor (0), and dispatch's descriptor (1) nests in nothing,
; instead of dispatch in fetch (n dispatches would read n^2).
; RUN: %opt_rules -S < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@labels = internal constant [3 x ptr] [ptr blockaddress(@run, %add), ptr blockaddress(@run, %sub), ptr blockaddress(@run, %halt)]

; CHECK-DAG: @taintprof.loops = private constant [2 x %taintprof.LoopDesc] [%taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 1, i64 0, ptr null, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 1, i64 0, ptr null, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }]
; CHECK-LABEL: define i64 @run(ptr %code)
; CHECK-NOT: call void @__tp_loop_exit({{.*}}i64 1)
; CHECK: halt:
; CHECK-NEXT: store i64 {{%.*}}, ptr @__tp_loop_depth_tls
; CHECK-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr @taintprof.loops, i16
; CHECK-NOT: call void @__tp_loop_exit
; CHECK: ret i64
define i64 @run(ptr %code) {
entry:
  br label %fetch
fetch:
  %pc = phi i64 [ 0, %entry ], [ %pcn, %sub ]
  br label %dispatch
dispatch:
  %pcd = phi i64 [ %pc, %fetch ], [ %pcn, %add ]
  %p = getelementptr i8, ptr %code, i64 %pcd
  %op = load i8, ptr %p
  %i = zext i8 %op to i64
  %slot = getelementptr [3 x ptr], ptr @labels, i64 0, i64 %i
  %t = load ptr, ptr %slot
  %pcn = add i64 %pcd, 1
  indirectbr ptr %t, [label %add, label %sub, label %halt]
add:
  br label %dispatch
sub:
  br label %fetch
halt:
  ret i64 %pcn
}
