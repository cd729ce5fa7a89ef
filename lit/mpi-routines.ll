; MPI routines of the routine database (rt/routines.txt, "# MPI"; pass/src/library.rs):
; a call of a routine with a communicator argument (`comm=`) is a library loop whose
; label is the union of its size arguments' labels ORed with the label of the process
; count p, loaded from the runtime's `__tp_mpi_size_label` right before the call. Such
; a call is a loop even with a constant count (labelled by p alone), and so is one with
; no size at all (MPI_Barrier comm=0). Point-to-point routines have no `comm=`: n only.
; `n=1+6` (MPI_Sendrecv) is the union of two counts. A user file can give a routine a
; communicator too.
; RUN: %opt_dataflow < %s | %FileCheck %s
; RUN: echo 'my_collective n=0 comm=1 cost="n p"' > %t.routines
; RUN: env TAINTPROF_ROUTINES=%t.routines %opt_dataflow < %s | %FileCheck %s --check-prefix=USER
; RUN: env TAINTPROF_SIDECAR=%t.json %opt -passes=taintprof-taint -disable-output < %s
; RUN: %FileCheck %s --check-prefix=JSON < %t.json
; RUN: echo 'MPI_Bcast n=1 comm=4 comm=4' > %t.dup
; RUN: env TAINTPROF_ROUTINES=%t.dup not %opt -passes=taintprof-taint -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=DUP
; RUN: echo 'MPI_Bcast n=1 comm=x' > %t.bad
; RUN: env TAINTPROF_ROUTINES=%t.bad not %opt -passes=taintprof-taint -disable-output < %s 2>&1 | %FileCheck %s --check-prefix=BAD
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; The runtime global, declared like `__tp_ctrl_shift`.
; CHECK-DAG: @__tp_mpi_size_label = external global i16

; Loops in module order: allreduce's, scalar's, barrier's natural loop, then its
; MPI_Barrier (parent: that loop), send's (the constant-count send is none),
; sendrecv's.
; CHECK-DAG: @taintprof.loops = private constant [6 x %taintprof.LoopDesc] [%taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr null, ptr @taintprof.funcs, ptr [[ALLREDUCE:@taintprof.str[.0-9]*]], ptr [[NLOGP:@taintprof.str[.0-9]*]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr null, ptr getelementptr {{.*}} i64 1), ptr [[ALLREDUCE]], ptr [[NLOGP]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 1, i64 0, ptr null, ptr getelementptr {{.*}} i64 2), ptr [[EMPTY:@taintprof.str[.0-9]*]], ptr [[EMPTY]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr getelementptr inbounds ([6 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 2), ptr getelementptr {{.*}} i64 2), ptr [[BARRIER:@taintprof.str[.0-9]*]], ptr [[LOGP:@taintprof.str[.0-9]*]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr null, ptr getelementptr {{.*}} i64 3), ptr [[SEND:@taintprof.str[.0-9]*]], ptr [[LINEAR:@taintprof.str[.0-9]*]] }, %taintprof.LoopDesc { ptr {{@taintprof.chain[.0-9]*}}, i32 1, i32 9, i64 0, ptr null, ptr getelementptr {{.*}} i64 4), ptr [[SENDRECV:@taintprof.str[.0-9]*]], ptr [[LINEAR]] }]
; CHECK-DAG: [[ALLREDUCE]] = private unnamed_addr constant [14 x i8] c"MPI_Allreduce\00"
; CHECK-DAG: [[NLOGP]] = private unnamed_addr constant [8 x i8] c"n log p\00"
; CHECK-DAG: [[BARRIER]] = private unnamed_addr constant [12 x i8] c"MPI_Barrier\00"
; CHECK-DAG: [[LOGP]] = private unnamed_addr constant [6 x i8] c"log p\00"
; CHECK-DAG: [[SEND]] = private unnamed_addr constant [9 x i8] c"MPI_Send\00"
; CHECK-DAG: [[SENDRECV]] = private unnamed_addr constant [13 x i8] c"MPI_Sendrecv\00"
; CHECK-DAG: [[LINEAR]] = private unnamed_addr constant [2 x i8] c"n\00"
; CHECK-DAG: [[EMPTY]] = private unnamed_addr constant [1 x i8] zeroinitializer

; MPI_Allreduce(sbuf, rbuf, count, type, op, comm): n=2 comm=5. The count's label
; (argument 2) ORed with p's, loaded right before the call.
; CHECK-LABEL: define void @allreduce(ptr %s, ptr %r, i32 %n, ptr %dt, ptr %op, ptr %comm)
; CHECK: [[AN_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[AN:%.*]] = select i1 {{%.*}}, i16 [[AN_RAW]], i16 0
; CHECK: [[NODE:%.*]] = call ptr @__tp_enter(
; CHECK: store ptr @MPI_Allreduce, ptr @__tp_callee_tls
; CHECK-NEXT: [[AP:%.*]] = load i16, ptr @__tp_mpi_size_label, align 2
; CHECK-NEXT: [[AL:%.*]] = or i16 [[AN]], [[AP]]
; CHECK-NEXT: call void @__tp_loop_exit(ptr [[NODE]], ptr @taintprof.loops, i16 [[AL]])
; CHECK-NEXT: %x = call i32 @MPI_Allreduce(ptr %s, ptr %r, i32 %n, ptr %dt, ptr %op, ptr %comm)
define void @allreduce(ptr %s, ptr %r, i32 %n, ptr %dt, ptr %op, ptr %comm) {
  %x = call i32 @MPI_Allreduce(ptr %s, ptr %r, i32 %n, ptr %dt, ptr %op, ptr %comm)
  ret void
}

; A constant count: still a loop (its cost depends on p), labelled by p alone.
; CHECK-LABEL: define void @scalar(
; CHECK: [[SP:%.*]] = load i16, ptr @__tp_mpi_size_label, align 2
; CHECK-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr getelementptr inbounds ([6 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 1), i16 [[SP]])
; CHECK-NEXT: %x = call i32 @MPI_Allreduce(ptr %s, ptr %r, i32 1, ptr %dt, ptr %op, ptr %comm)
define void @scalar(ptr %s, ptr %r, ptr %dt, ptr %op, ptr %comm) {
  %x = call i32 @MPI_Allreduce(ptr %s, ptr %r, i32 1, ptr %dt, ptr %op, ptr %comm)
  ret void
}

; MPI_Barrier(comm): comm=0 and no size, a library loop labelled by p, once per call
; inside the loop around it.
; CHECK-LABEL: define void @barrier(ptr %comm, i64 %steps)
; CHECK: loop:
; CHECK: [[BP:%.*]] = load i16, ptr @__tp_mpi_size_label, align 2
; CHECK-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr getelementptr inbounds ([6 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 3), i16 [[BP]])
; CHECK-NEXT: %x = call i32 @MPI_Barrier(ptr %comm)
; CHECK: exit:
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr getelementptr inbounds ([6 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 2), i16
define void @barrier(ptr %comm, i64 %steps) {
entry:
  br label %loop
loop:
  %t = phi i64 [ 0, %entry ], [ %t1, %loop ]
  %x = call i32 @MPI_Barrier(ptr %comm)
  %t1 = add i64 %t, 1
  %c = icmp ult i64 %t1, %steps
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; MPI_Send has no `comm=`: the count's label only, and a constant count is no loop.
; CHECK-LABEL: define void @send(ptr %b, i32 %n, ptr %dt, ptr %comm)
; CHECK: [[SN_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[SN:%.*]] = select i1 {{%.*}}, i16 [[SN_RAW]], i16 0
; CHECK-NOT: __tp_mpi_size_label
; CHECK: call void @__tp_loop_exit(ptr {{%.*}}, ptr getelementptr inbounds ([6 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 4), i16 [[SN]])
; CHECK-NEXT: %x = call i32 @MPI_Send(
; CHECK-NOT: __tp_loop_exit
; CHECK-NOT: __tp_mpi_size_label
; CHECK: %y = call i32 @MPI_Send(ptr %b, i32 4,
; CHECK: ret void
define void @send(ptr %b, i32 %n, ptr %dt, ptr %comm) {
  %x = call i32 @MPI_Send(ptr %b, i32 %n, ptr %dt, i32 1, i32 0, ptr %comm)
  %y = call i32 @MPI_Send(ptr %b, i32 4, ptr %dt, i32 1, i32 0, ptr %comm)
  ret void
}

; MPI_Sendrecv n=1+6: the union of the send and the receive count's labels.
; CHECK-LABEL: define void @sendrecv(ptr %b, i32 %n, i32 %m, ptr %dt, ptr %comm)
; CHECK: [[RN_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 1)
; CHECK-NEXT: [[RN:%.*]] = select i1 {{%.*}}, i16 [[RN_RAW]], i16 0
; CHECK-NEXT: [[RM_RAW:%.*]] = load i16, ptr getelementptr inbounds ([64 x i16], ptr @__tp_arg_tls, i64 0, i64 2)
; CHECK-NEXT: [[RM:%.*]] = select i1 {{%.*}}, i16 [[RM_RAW]], i16 0
; CHECK-NOT: __tp_mpi_size_label
; CHECK: [[RNM:%.*]] = or i16 [[RN]], [[RM]]
; CHECK-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr getelementptr inbounds ([6 x %taintprof.LoopDesc], ptr @taintprof.loops, i64 0, i64 5), i16 [[RNM]])
; CHECK-NEXT: %x = call i32 @MPI_Sendrecv(
define void @sendrecv(ptr %b, i32 %n, i32 %m, ptr %dt, ptr %comm) {
  %x = call i32 @MPI_Sendrecv(ptr %b, i32 %n, ptr %dt, i32 1, i32 0, ptr %b, i32 %m, ptr %dt, i32 1, i32 0, ptr %comm, ptr null)
  ret void
}

; A routine a user file gives a communicator.
; USER-LABEL: define void @mine(ptr %a, i64 %n, ptr %comm)
; USER: [[UN_RAW:%.*]] = load i16, ptr @__tp_arg_tls
; USER-NEXT: [[UN:%.*]] = select i1 {{%.*}}, i16 [[UN_RAW]], i16 0
; USER: [[UP:%.*]] = load i16, ptr @__tp_mpi_size_label, align 2
; USER-NEXT: [[UL:%.*]] = or i16 [[UN]], [[UP]]
; USER-NEXT: call void @__tp_loop_exit(ptr {{%.*}}, ptr {{.*}}, i16 [[UL]])
; USER-NEXT: call void @my_collective(ptr %a, i64 %n, ptr %comm)
define void @mine(ptr %a, i64 %n, ptr %comm) {
  call void @my_collective(ptr %a, i64 %n, ptr %comm)
  ret void
}

; The sidecar names routine and cost.
; JSON: "kind": "library",
; JSON-NEXT: "routine": "MPI_Allreduce",
; JSON-NEXT: "cost": "n log p",
; JSON: "routine": "MPI_Barrier",
; JSON-NEXT: "cost": "log p",

; DUP: error: {{.*}}.dup:1: duplicate field `comm=`
; BAD: error: {{.*}}.bad:1: `comm=x`: expected the 0-based index of the communicator argument

declare i32 @MPI_Allreduce(ptr, ptr, i32, ptr, ptr, ptr)
declare i32 @MPI_Barrier(ptr)
declare i32 @MPI_Send(ptr, i32, ptr, i32, i32, ptr)
declare i32 @MPI_Sendrecv(ptr, i32, ptr, i32, i32, ptr, i32, ptr, i32, i32, ptr, ptr)
declare void @my_collective(ptr, i64, ptr)
