; A vectorized loop and its scalar remainder come from one source loop (same identity):
; they share one accumulator, reset where the region is entered, and one execution is
; reported once, on the edges leaving the region, with the first loop's descriptor, so
; -O2 reports what -O0 reports.
; RUN: %opt -passes=taintprof-taint,verify -S %inputs/vectorized.ll | %FileCheck %s
; CHECK: @taintprof.loops = private constant [2 x %taintprof.LoopDesc] [%taintprof.LoopDesc { ptr [[C:@taintprof.chain[.0-9]*]], i32 1, i32 0, i64 0, ptr null, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }, %taintprof.LoopDesc { ptr [[C]], i32 1, i32 0, i64 0, ptr null, ptr @taintprof.funcs, ptr {{@taintprof.str[.0-9]*}}, ptr {{@taintprof.str[.0-9]*}} }]
; CHECK-LABEL: define {{.*}} @scale(
; CHECK-NOT: %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 1)
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr @taintprof.loops, i16
; CHECK-NOT: %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 1)
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr @taintprof.loops, i16
; CHECK-NOT: __tp_loop_exit(
; CHECK: ret void
