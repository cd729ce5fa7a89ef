; Denormal mode, tags across calls. The caller stores the tags of its FP arguments in
; __tpd_arg_tags_tls[argument index] (a vector: its first non-zero lane tag, collapsed
; in the cold region) and the callee in __tp_callee_tls; when every argument tag is the
; constant 0 it stores only null there (the callee then takes 0, never a stale slot).
; The callee reads its parameters' slots at entry only if __tp_callee_tls is itself.
; A function returning FP always stores its return tag; the caller reads it right
; after the call and clears the slot first when the callee may be uninstrumented.
; RUN: %opt_dn_nomem < %s | %FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; The callee's memory claim no longer holds (it reads and writes the slots).
; CHECK: declare double @ext(i32, double){{$}}
declare double @ext(i32, double) memory(none)
declare void @vararg(i32, ...)
declare void @take(<4 x float>)

; The callee side: canary, then the slot of each parameter whose tag is needed.
; CHECK-LABEL: define double @local(double %x)
; CHECK-NEXT: [[C:%.*]] = load ptr, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: [[OK:%.*]] = icmp eq ptr [[C]], @local
; CHECK-NEXT: [[S:%.*]] = load i32, ptr @__tpd_arg_tags_tls, align 8
; CHECK-NEXT: [[T:%.*]] = select i1 [[OK]], i32 [[S]], i32 0
; CHECK-NEXT: store i32 [[T]], ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret double %x
define double @local(double %x) {
  ret double %x
}

; CHECK-LABEL: define double @caller(ptr %p)
; CHECK: call void @__tpd_load(
; CHECK: phi i32
; The loaded value's tag after its group (the join PHI) goes to argument 1's slot;
; @ext is a declaration: the return slot is cleared.
; CHECK: [[TV:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK-NEXT: store i32 [[TV]], ptr getelementptr inbounds ([64 x i64], ptr @__tpd_arg_tags_tls, i64 0, i64 1), align 8
; CHECK-NEXT: store ptr @ext, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: store i32 0, ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: %r = call double @ext(i32 1, double %v){{$}}
; CHECK-NEXT: [[TR:%.*]] = load i32, ptr @__tpd_ret_tag_tls, align 8
; @local is instrumented in this module: it always writes the slot, no clearing.
; CHECK-NEXT: store i32 [[TR]], ptr @__tpd_arg_tags_tls, align 8
; CHECK-NEXT: store ptr @local, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: %s = call double @local(double %r)
; CHECK-NEXT: [[TS:%.*]] = load i32, ptr @__tpd_ret_tag_tls, align 8
; Variadic FP arguments pass no tags.
; CHECK-NEXT: call void (i32, ...) @vararg(i32 0, double %s)
; CHECK-NEXT: store i32 [[TS]], ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret double %s
define double @caller(ptr %p) {
  %v = load double, ptr %p
  %r = call double @ext(i32 1, double %v) memory(none)
  %s = call double @local(double %r)
  call void (i32, ...) @vararg(i32 0, double %s)
  ret double %s
}

; Only constant arguments: one store of null, no slots.
; CHECK-LABEL: define double @constarg()
; CHECK-NEXT: store ptr null, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: %r = call double @local(double 2.000000e+00)
define double @constarg() {
  %r = call double @local(double 2.0)
  ret double %r
}

; Indirect calls store the called pointer.
; CHECK-LABEL: define double @indirect(ptr %f, double %x)
; CHECK: store i32 {{%.*}}, ptr @__tpd_arg_tags_tls, align 8
; CHECK-NEXT: store ptr %f, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: store i32 0, ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: %r = call double %f(double %x)
define double @indirect(ptr %f, double %x) {
  %r = call double %f(double %x)
  ret double %r
}

; musttail: the tail-called function writes the return slot itself; nothing may come
; between the call and the ret.
; CHECK-LABEL: define double @tail(double %x)
; CHECK: store ptr @local, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: %r = musttail call double @local(double %x)
; CHECK-NEXT: ret double %r
define double @tail(double %x) {
  %r = musttail call double @local(double %x)
  ret double %r
}

; invoke: the return tag is read in the normal destination.
; CHECK-LABEL: define double @inv(double %x)
; CHECK: store i32 0, ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: %r = invoke double @ext(i32 0, double %x)
; CHECK: ok:
; CHECK-NEXT: [[T:%.*]] = load i32, ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: store i32 [[T]], ptr @__tpd_ret_tag_tls, align 8
; CHECK-NEXT: ret double %r
declare i32 @__gxx_personality_v0(...)
define double @inv(double %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke double @ext(i32 0, double %x) to label %ok unwind label %lp
ok:
  ret double %r
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

; A vector argument: its first non-zero lane tag, computed in the cold region (the
; fast path only carries the join's scalar).
; CHECK-LABEL: define void @vec(ptr %p)
; CHECK: [[TL:%.*]] = phi <4 x i32> [ zeroinitializer, %{{[0-9]+}} ], [ {{%.*}}, %{{[0-9]+}} ]
; CHECK-NEXT: [[E3:%.*]] = extractelement <4 x i32> [[TL]], i32 3
; CHECK: [[E0:%.*]] = extractelement <4 x i32> [[TL]], i32 0
; CHECK-NEXT: [[NZ:%.*]] = icmp ne i32 [[E0]], 0
; CHECK-NEXT: [[FIRST:%.*]] = select i1 [[NZ]], i32 [[E0]], i32 {{%.*}}
; CHECK-NEXT: br label %[[JOIN:[0-9]+]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: [[T:%.*]] = phi i32 [ 0, %{{[0-9]+}} ], [ [[FIRST]], %{{[0-9]+}} ]
; CHECK-NEXT: store i32 [[T]], ptr @__tpd_arg_tags_tls, align 8
; CHECK-NEXT: store ptr @take, ptr @__tp_callee_tls, align 8
; CHECK-NEXT: call void @take(<4 x float> %v)
define void @vec(ptr %p) {
  %v = load <4 x float>, ptr %p
  call void @take(<4 x float> %v)
  ret void
}

; A callee's vector parameter: its one slot tag spread over the lanes where it is used
; (in the cold region), not at entry.
; CHECK-LABEL: define void @vparam(<4 x float> %v, ptr %q)
; CHECK: [[S:%.*]] = select i1 {{%.*}}, i32 {{%.*}}, i32 0
; CHECK-NOT: shufflevector
; CHECK: br i1
; CHECK: insertelement <4 x i32> poison, i32 [[S]], i32 0
; CHECK: call void @__tpd_store(
define void @vparam(<4 x float> %v, ptr %q) {
  store <4 x float> %v, ptr %q
  ret void
}
