; Loop indices used as identities (docs/internal/control-flow.md): every scalar has a
; second label R, its labels without those a loop's back edge gave it while still inside
; that loop. Calls pass Z = S ^ R (for the callee, S & !Z = S & R, as S & !R would give)
; of arguments in __tp_argz_tls and of the result in __tp_retz_tls; the callee's R of an
; argument is S & !Z. The argz slots are 0 outside a call: a caller writes only the Z
; that may be non-zero, a callee clears the slots it read, and after a callee that may
; not be instrumented (here the declaration @use) the caller clears what it wrote.
; zflow.rs: a closed function (internal, only called directly) reads only the slots
; some caller may fill and writes no result Z nobody reads.
; Identity operations (urem) and load addresses see R; an induction-variable index adds
; nothing to a load's label; a value used after its loop adds the R of the loop's exit
; tests (a slot ORed in the exiting block).
; RUN: %opt_rules < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @use(i32)

; The index's labels are all Z (R(i) = 0): passed as S and as Z. The argument %n passes
; on the Z its own caller gave it (S ^ R). A void call reads no result Z. @use may not
; be instrumented: the slot is cleared after each call.
; CHECK-LABEL: define void @pass_index(i32 %n)
; CHECK: [[SN:%[0-9]+]] = select i1 [[OK:%[0-9]+]], i16 {{%[0-9]+}}, i16 0
; CHECK: [[ZL:%[0-9]+]] = load i16, ptr @__tp_argz_tls
; CHECK-NEXT: [[ZN:%[0-9]+]] = select i1 [[OK]], i16 [[ZL]], i16 0
; CHECK-NEXT: [[NZ:%[0-9]+]] = xor i16 [[ZN]], -1
; CHECK-NEXT: [[RN:%[0-9]+]] = and i16 [[SN]], [[NZ]]
; CHECK-NEXT: store i16 0, ptr @__tp_argz_tls
; CHECK: head:
; CHECK: [[SI:%[0-9]+]] = phi i16 [ 0, %entry ], [ {{%[0-9]+}}, %body ]
; CHECK: body:
; CHECK: store i16 [[SI]], ptr @__tp_arg_tls
; CHECK: store i16 [[SI]], ptr @__tp_argz_tls
; CHECK-NOT: __tp_retz_tls
; CHECK: call void @use(i32 %i)
; CHECK-NEXT: store i16 0, ptr @__tp_argz_tls
; CHECK: store i16 [[SN]], ptr @__tp_arg_tls
; CHECK: [[ZPASS:%[0-9]+]] = xor i16 [[SN]], [[RN]]
; CHECK-NEXT: store i16 [[ZPASS]], ptr @__tp_argz_tls
; CHECK-NOT: __tp_retz_tls
; CHECK: call void @use(i32 %n)
; CHECK-NEXT: store i16 0, ptr @__tp_argz_tls
define void @pass_index(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  call void @use(i32 %i)
  call void @use(i32 %n)
  %i.next = add i32 %i, 1
  br label %head
exit:
  ret void
}

; A remainder is an identity: its label is R of its operand, and its result has no Z.
; CHECK-LABEL: define i32 @ret_rem(i32 %x)
; CHECK: [[RX:%[0-9]+]] = and i16
; CHECK-NEXT: store i16 0, ptr @__tp_argz_tls
; CHECK: store i16 [[RX]], ptr @__tp_ret_tls
; CHECK-NEXT: store i16 0, ptr @__tp_retz_tls
; CHECK-NEXT: ret i32 %r
define i32 @ret_rem(i32 %x) {
entry:
  %r = urem i32 %x, 8
  ret i32 %r
}

; The index returned after its loop: R = R(i) (0) | R of the exit test (R(%n), through
; the exit-test slot ORed in the exiting block); Z = S ^ R.
; CHECK-LABEL: define i32 @ret_index(i32 %n)
; CHECK: [[RN:%[0-9]+]] = and i16 {{%[0-9]+}}, {{%[0-9]+}}
; CHECK: head:
; CHECK-NEXT: phi i16 [ 0, %entry ], [ {{%[0-9]+}}, %body ]
; CHECK-NEXT: [[EXIT:%[0-9.]+]] = phi i16 [ 0, %entry ], [ [[EXITN:%[0-9]+]], %body ]
; CHECK: [[SI:%[0-9]+]] = phi i16 [ 0, %entry ], [ {{%[0-9]+}}, %body ]
; CHECK: [[EXITN]] = or i16 [[EXIT]], [[RN]]
; CHECK: exit:
; CHECK: store i16 [[SI]], ptr @__tp_ret_tls
; CHECK-NEXT: [[Z:%[0-9]+]] = xor i16 [[SI]], [[EXITN]]
; CHECK-NEXT: store i16 [[Z]], ptr @__tp_retz_tls
define i32 @ret_index(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %i.next = add i32 %i, 1
  br label %head
exit:
  ret i32 %i
}

; tab[i % 4] and a[i] take R of their base pointers and nothing of the index: the
; loop's exit label [[BACK]] (the shadow of %i) reaches only the accumulator %s (Rule 1).
; CHECK-LABEL: define i32 @rem_in_loop(ptr %tab, ptr %a, i32 %n)
; CHECK: [[RTAB:%[0-9]+]] = and i16 {{%[0-9]+}}, {{%[0-9]+}}
; CHECK: [[RA:%[0-9]+]] = and i16 {{%[0-9]+}}, {{%[0-9]+}}
; CHECK: head:
; CHECK: %c = icmp slt i32 %i, %n
; CHECK-NEXT: [[BACK:%[0-9]+]] = or i16
; CHECK: body:
; CHECK: %s.next = add i32 %s, %t
; CHECK-NEXT: [[L1:%[0-9]+]] = or i16 {{%[0-9]+}}, [[RTAB]]
; CHECK-NEXT: {{%[0-9]+}} = or i16 [[L1]], [[RA]]
; CHECK-NOT: [[BACK]]
; CHECK: %i.next = add i32 %i, 1
; CHECK-NEXT: {{%[0-9]+}} = or i16 {{%[0-9]+}}, [[BACK]]
define i32 @rem_in_loop(ptr %tab, ptr %a, i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %k = urem i32 %i, 4
  %p = getelementptr inbounds i32, ptr %tab, i32 %k
  %v = load i32, ptr %p
  %q = getelementptr inbounds i32, ptr %a, i32 %i
  %w = load i32, ptr %q
  %t = add i32 %v, %w
  %s.next = add i32 %s, %t
  %i.next = add i32 %i, 1
  br label %head
exit:
  ret i32 %s
}

; zflow.rs. @sq_plain is closed and no call passes it a Z (a loaded value has none):
; it reads no argz slot, and its result carries none, so it writes no retz and its
; caller writes, pre-sets, clears and reads nothing of either.
; CHECK-LABEL: define internal i32 @sq_plain(i32 %x)
; CHECK-NOT: __tp_argz_tls
; CHECK-NOT: __tp_retz_tls
; CHECK: ret i32 %y
define internal i32 @sq_plain(i32 %x) {
  %y = mul i32 %x, %x
  ret i32 %y
}

; CHECK-LABEL: define i32 @call_plain(ptr %p)
; CHECK: %v = load i32, ptr %p
; CHECK-NOT: __tp_argz_tls
; CHECK-NOT: __tp_retz_tls
; CHECK: %r = call i32 @sq_plain(i32 %v)
; CHECK-NOT: __tp_argz_tls
; CHECK-NOT: load i16, ptr @__tp_retz_tls
; CHECK: ret i32 %r
define i32 @call_plain(ptr %p) {
  %v = load i32, ptr %p
  %r = call i32 @sq_plain(i32 %v)
  ret i32 %r
}

; @ident is closed and called with a loop index: it reads and clears its slot, and
; its result carries the index's Z back (S ^ R at the return).
; CHECK-LABEL: define internal i32 @ident(i32 %x)
; CHECK: [[ZL:%[0-9]+]] = load i16, ptr @__tp_argz_tls
; CHECK: store i16 0, ptr @__tp_argz_tls
; CHECK: [[Z:%[0-9]+]] = xor i16
; CHECK-NEXT: store i16 [[Z]], ptr @__tp_retz_tls
; CHECK-NEXT: ret i32 %x
define internal i32 @ident(i32 %x) {
  ret i32 %x
}

; The caller writes the index's Z, does not clear after a callee it knows clears, does
; not pre-set the result's Z (the callee writes it) and reads it: R = S & !Z.
; CHECK-LABEL: define i32 @call_ident(i32 %n)
; CHECK: body:
; CHECK: store i16 [[SI:%[0-9]+]], ptr @__tp_argz_tls
; CHECK-NOT: __tp_retz_tls
; CHECK: %k = call i32 @ident(i32 %i)
; CHECK-NEXT: [[S:%[0-9]+]] = load i16, ptr @__tp_ret_tls
; CHECK-NEXT: [[ZR:%[0-9]+]] = load i16, ptr @__tp_retz_tls
; CHECK-NOT: store i16 0, ptr @__tp_argz_tls
; CHECK: br label %head
define i32 @call_ident(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %k = call i32 @ident(i32 %i)
  %m = urem i32 %k, 7
  %s.next = add i32 %s, %m
  %i.next = add i32 %i, 1
  br label %head
exit:
  ret i32 %s
}
