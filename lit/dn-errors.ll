; Denormal mode: what cannot be instrumented is a compile error naming the function
; and the instruction, reported by the pre-check before anything is changed (no
; half-instrumented IR). (opt stops at the first error, so one case per file; clang
; reports them all.)
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt_denormal < %t/bf.ll 2>&1 | %FileCheck %s --check-prefix=BF
; BF: error: taintprof: in function `bf`: instruction `%r = fadd bfloat %a, %b`: bfloat values have no denormal-mode type code (FP_* in the ABI). Denormal mode cannot instrument this; compile this file with TAINTPROF_MODE=off
; RUN: not %opt_denormal < %t/ldvec.ll 2>&1 | %FileCheck %s --check-prefix=LDVEC
; LDVEC: error: taintprof: in function `ldvec`: instruction `%v = load <2 x x86_fp80>, ptr %p, align 32`: vectors of x86_fp80 in memory are not laid out as arrays
; RUN: not %opt_denormal < %t/expand.ll 2>&1 | %FileCheck %s --check-prefix=EXPAND
; EXPAND: error: taintprof: in function `expand`: instruction `%v = call <4 x float> @llvm.masked.expandload.v4f32(ptr %p, <4 x i1> %m, <4 x float> zeroinitializer)`: intrinsic `llvm.masked.expandload.v4f32` accesses memory holding floating-point values in a way denormal mode does not model
; RUN: not %opt_denormal < %t/scalable.ll 2>&1 | %FileCheck %s --check-prefix=SCALABLE
; SCALABLE: error: taintprof: in function `scalable`: instruction `%r = fadd <vscale x 4 x float> %a, %a`: scalable vectors cannot be instrumented
; Nothing is printed for a module with an error (no output module at all).
; RUN: not %opt_denormal < %t/bf.ll 2>/dev/null | count 0
; bfloat values that are only moved, not operated on, are fine.
; RUN: %opt_denormal < %t/bfmove.ll | %FileCheck %s --check-prefix=BFMOVE
; BFMOVE: define bfloat @bfmove(bfloat %a)

;--- bf.ll
define bfloat @bf(bfloat %a, bfloat %b) {
  %r = fadd bfloat %a, %b
  ret bfloat %r
}
;--- ldvec.ll
define <2 x x86_fp80> @ldvec(ptr %p) {
  %v = load <2 x x86_fp80>, ptr %p, align 32
  ret <2 x x86_fp80> %v
}
;--- expand.ll
define <4 x float> @expand(ptr %p, <4 x i1> %m) {
  %v = call <4 x float> @llvm.masked.expandload.v4f32(ptr %p, <4 x i1> %m, <4 x float> zeroinitializer)
  ret <4 x float> %v
}
declare <4 x float> @llvm.masked.expandload.v4f32(ptr, <4 x i1>, <4 x float>)
;--- scalable.ll
define <vscale x 4 x float> @scalable(<vscale x 4 x float> %a) {
  %r = fadd <vscale x 4 x float> %a, %a
  ret <vscale x 4 x float> %r
}
;--- bfmove.ll
define bfloat @bfmove(bfloat %a) {
  ret bfloat %a
}
