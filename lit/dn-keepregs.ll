; Denormal mode, inline-cache misses of loads and stores call the hooks through their
; register-preserving entries (`__tpd_load_keepregs`, `__tpd_store_keepregs`, declared
; and called with preserve_allcc), so that the cold region's values stay in registers
; across the rare call instead of being spilled and reloaded on every hit. The entries
; keep the 128-bit vector registers only, so functions that may use AVX call the plain
; C hooks: clang names every enabled feature in "target-features", and a CPU other than
; the baseline ones may imply AVX without naming it. Without the inline caches
; (no-dn-inline-mem) every chunk calls the plain hooks.
; RUN: %opt_denormal < %s | %FileCheck %s
; RUN: %opt_dn_nomem < %s | %FileCheck %s --check-prefix=NOMEM
; The entries are declared nonlazybind, so position-independent code calls them through
; the GOT, bound at load time: the dynamic linker's lazy PLT resolver clobbers r10, which
; a preserve_allcc caller may hold a value in (an instrumented shared library crashed on
; its first cache miss).
; RUN: %opt_denormal < %s | %clang -x ir - -S -O1 -fPIC -o - | %FileCheck %s --check-prefix=PIC
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @sse(
; CHECK: call preserve_allcc void @__tpd_load_keepregs(ptr @taintprof.fpsites, ptr %p, i64 {{%[0-9]+}}, ptr {{%[0-9]+}})
; CHECK: call preserve_allcc void @__tpd_store_keepregs(ptr getelementptr inbounds ([8 x %taintprof.FpSiteDesc], ptr @taintprof.fpsites, i64 0, i64 1), ptr %q, i64 {{%[0-9]+}}, ptr {{%[0-9]+}})
; NOMEM-LABEL: define void @sse(
; NOMEM-NOT: keepregs
; NOMEM: call void @__tpd_load(
; NOMEM: call void @__tpd_store(
define void @sse(ptr %p, ptr %q) #0 {
entry:
  %v = load <4 x float>, ptr %p, align 4
  store <4 x float> %v, ptr %q, align 4
  ret void
}

; No attributes at all: the baseline target.
; CHECK-LABEL: define void @plain(
; CHECK: call preserve_allcc void @__tpd_load_keepregs(
; CHECK: call preserve_allcc void @__tpd_store_keepregs(
define void @plain(ptr %p, ptr %q) {
entry:
  %v = load <2 x double>, ptr %p, align 8
  store <2 x double> %v, ptr %q, align 8
  ret void
}

; CHECK-LABEL: define void @avx(
; CHECK-NOT: keepregs
; CHECK: call void @__tpd_load(
; CHECK-NOT: keepregs
; CHECK: call void @__tpd_store(
; CHECK-NOT: keepregs
; CHECK: ret void
define void @avx(ptr %p, ptr %q) #1 {
entry:
  %v = load <4 x float>, ptr %p, align 4
  store <4 x float> %v, ptr %q, align 4
  ret void
}

; CHECK-LABEL: define void @cpu(
; CHECK-NOT: keepregs
; CHECK: call void @__tpd_load(
; CHECK-NOT: keepregs
; CHECK: call void @__tpd_store(
; CHECK-NOT: keepregs
; CHECK: ret void
define void @cpu(ptr %p, ptr %q) #2 {
entry:
  %v = load <4 x float>, ptr %p, align 4
  store <4 x float> %v, ptr %q, align 4
  ret void
}

; CHECK: declare preserve_allcc void @__tpd_load_keepregs(ptr, ptr, i64, ptr) #[[KEEP:[0-9]+]]
; CHECK: declare preserve_allcc void @__tpd_store_keepregs(ptr, ptr, i64, ptr) #[[KEEP]]
; CHECK: attributes #[[KEEP]] = { {{.*}}nonlazybind{{.*}} }

; PIC-LABEL: sse:
; PIC: callq *__tpd_load_keepregs@GOTPCREL(%rip)
; PIC: callq *__tpd_store_keepregs@GOTPCREL(%rip)
; PIC-NOT: keepregs@PLT
attributes #0 = { "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }
attributes #1 = { "target-cpu"="x86-64" "target-features"="+avx,+avx2,+cx8,+fxsr,+mmx,+sse,+sse2" }
attributes #2 = { "target-cpu"="znver2" }
